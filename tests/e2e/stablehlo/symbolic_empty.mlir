// Symbolic operands that are empty at the call (written by hand; the
// expected values are small integers worked out with numpy): concatenate,
// pad, a real_dynamic_slice, gather, dot_general (zero rows, a zero
// contraction, a zero batch), reduce over an empty extent (the init value),
// elementwise ops, and a while loop growing from 0 rows, each called at
// size 0 and at least one other size. The kernels still load from an
// empty operand at a clamped index (the value is never selected): the host
// program binds a stand-in of zero bytes there (docs/compiler.md "Empty
// operands"). Run by grt-check: test_* functions must pass, fail_* must
// fail.
module @e2e_symbolic_empty {  func.func private @cat(%a: tensor<?x3xf32>, %b: tensor<2x3xf32>) -> tensor<?x3xf32> {
    %c = stablehlo.concatenate %a, %b, dim = 0 : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
    return %c : tensor<?x3xf32>
  }
  // Both operands symbolic, the first one fused (a * 2).
  func.func private @cat_both(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>) -> tensor<?x3xf32> {
    %two = stablehlo.constant dense<2.0> : tensor<f32>
    %t = stablehlo.broadcast_in_dim %two, dims = [] : (tensor<f32>) -> tensor<?x3xf32>
    %d = stablehlo.multiply %a, %t : tensor<?x3xf32>
    %c = stablehlo.concatenate %d, %b, dim = 0 : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
    return %c : tensor<?x3xf32>
  }
  // Along a symbolic minor dimension.
  func.func private @cat_cols(%a: tensor<2x?xf32>, %b: tensor<2x1xf32>) -> tensor<2x?xf32> {
    %c = stablehlo.concatenate %a, %b, dim = 1 : (tensor<2x?xf32>, tensor<2x1xf32>) -> tensor<2x?xf32>
    return %c : tensor<2x?xf32>
  }
  // Rows of 40: more than the host program's stand-in for an empty
  // operand holds, so an operand not selected must be read at index 0.
  func.func private @cat_wide(%a: tensor<?x40xf32>, %b: tensor<1x40xf32>) -> (tensor<?x40xf32>, tensor<40xf32>) {
    %c = stablehlo.concatenate %b, %a, dim = 0 : (tensor<1x40xf32>, tensor<?x40xf32>) -> tensor<?x40xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %p = stablehlo.pad %a, %z, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<?x40xf32>, tensor<f32>) -> tensor<?x40xf32>
    %s = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [0] : (tensor<?x40xf32>, tensor<f32>) -> tensor<40xf32>
    return %c, %s : tensor<?x40xf32>, tensor<40xf32>
  }
  func.func private @pad_rows(%a: tensor<?x3xf32>) -> tensor<?x3xf32> {
    %z = stablehlo.constant dense<-1.0> : tensor<f32>
    %p = stablehlo.pad %a, %z, low = [1, 0], high = [2, 0], interior = [1, 0] : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x3xf32>
    return %p : tensor<?x3xf32>
  }
  // A padding of a fused operand (a + 1) on both dimensions.
  func.func private @pad_fused(%a: tensor<?x2xf32>) -> tensor<?x3xf32> {
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %o = stablehlo.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> tensor<?x2xf32>
    %s = stablehlo.add %a, %o : tensor<?x2xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %p = stablehlo.pad %s, %z, low = [2, 1], high = [0, 0], interior = [0, 0] : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x3xf32>
    return %p : tensor<?x3xf32>
  }
  // Columns 1:3 of every row (a real_dynamic_slice to n rows), then a row of 9s.
  func.func private @slice_rows(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
    %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
    %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
    %c3 = stablehlo.constant dense<3> : tensor<1xi32>
    %lim = stablehlo.concatenate %n1, %c3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %st = stablehlo.constant dense<[0, 1]> : tensor<2xi32>
    %one = stablehlo.constant dense<1> : tensor<2xi32>
    %y = stablehlo.real_dynamic_slice %x, %st, %lim, %one : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
    %row = stablehlo.constant dense<9.0> : tensor<1x2xf32>
    %c = stablehlo.concatenate %y, %row, dim = 0 : (tensor<?x2xf32>, tensor<1x2xf32>) -> tensor<?x2xf32>
    return %c : tensor<?x2xf32>
  }
  // Rows of a table picked by a symbolic number of ids, summed, and
  // followed by a row of 9s.
  func.func private @gather_rows(%table: tensor<3x4xf32>, %ids: tensor<?xi32>) -> (tensor<?x4xf32>, tensor<4xf32>) {
    %g = "stablehlo.gather"(%table, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>, indices_are_sorted = false} : (tensor<3x4xf32>, tensor<?xi32>) -> tensor<?x4xf32>
    %row = stablehlo.constant dense<9.0> : tensor<1x4xf32>
    %c = stablehlo.concatenate %g, %row, dim = 0 : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%g init: %z) applies stablehlo.add across dimensions = [0] : (tensor<?x4xf32>, tensor<f32>) -> tensor<4xf32>
    return %c, %s : tensor<?x4xf32>, tensor<4xf32>
  }
  // A matmul over a symbolic number of rows, followed by a row of 1s.
  func.func private @dot_rows(%a: tensor<?x8xf32>, %w: tensor<8x5xf32>) -> tensor<?x5xf32> {
    %o = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<?x8xf32>, tensor<8x5xf32>) -> tensor<?x5xf32>
    %row = stablehlo.constant dense<1.0> : tensor<1x5xf32>
    %c = stablehlo.concatenate %o, %row, dim = 0 : (tensor<?x5xf32>, tensor<1x5xf32>) -> tensor<?x5xf32>
    return %c : tensor<?x5xf32>
  }
  // A symbolic contraction plus a bias: the bias alone when it is empty.
  func.func private @dot_k(%a: tensor<4x?xf32>, %b: tensor<?x5xf32>, %bias: tensor<5xf32>) -> tensor<4x5xf32> {
    %o = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x?xf32>, tensor<?x5xf32>) -> tensor<4x5xf32>
    %bb = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<5xf32>) -> tensor<4x5xf32>
    %s = stablehlo.add %o, %bb : tensor<4x5xf32>
    return %s : tensor<4x5xf32>
  }
  // A batched matmul over a symbolic batch, summed over the batch.
  func.func private @dot_batch(%a: tensor<?x2x3xf32>, %b: tensor<?x3x2xf32>) -> tensor<2x2xf32> {
    %o = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x2x3xf32>, tensor<?x3x2xf32>) -> tensor<?x2x2xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%o init: %z) applies stablehlo.add across dimensions = [0] : (tensor<?x2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
    return %s : tensor<2x2xf32>
  }
  // Reductions over an empty extent give their init value: a sum over the
  // rows (init 0.5), a max over the columns (init -100), a product of all.
  func.func private @reduces(%x: tensor<?x3xf32>, %y: tensor<3x?xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<f32>) {
    %h = stablehlo.constant dense<0.5> : tensor<f32>
    %s = stablehlo.reduce(%x init: %h) applies stablehlo.add across dimensions = [0] : (tensor<?x3xf32>, tensor<f32>) -> tensor<3xf32>
    %lo = stablehlo.constant dense<-100.0> : tensor<f32>
    %m = stablehlo.reduce(%y init: %lo) applies stablehlo.maximum across dimensions = [1] : (tensor<3x?xf32>, tensor<f32>) -> tensor<3xf32>
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %p = stablehlo.reduce(%x init: %one) applies stablehlo.multiply across dimensions = [0, 1] : (tensor<?x3xf32>, tensor<f32>) -> tensor<f32>
    return %s, %m, %p : tensor<3xf32>, tensor<3xf32>, tensor<f32>
  }
  // Elementwise ops over a symbolic number of rows, followed by a row of 7s.
  func.func private @elementwise(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>) -> tensor<?x3xf32> {
    %m = stablehlo.multiply %a, %b : tensor<?x3xf32>
    %n = stablehlo.negate %m : tensor<?x3xf32>
    %s = stablehlo.add %n, %a : tensor<?x3xf32>
    %row = stablehlo.constant dense<7.0> : tensor<1x3xf32>
    %c = stablehlo.concatenate %s, %row, dim = 0 : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
    return %c : tensor<?x3xf32>
  }
  // A loop appending row [i, i, i] in iteration i, k times.
  func.func private @grow(%x: tensor<?x3xf32>, %k: tensor<i32>) -> tensor<?x3xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i32>, tensor<?x3xf32>
      cond {
        %lt = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %f = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
        %row = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<1x3xf32>
        %n = stablehlo.concatenate %acc, %row, dim = 0 : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
        %i1 = stablehlo.add %i, %one : tensor<i32>
        stablehlo.return %i1, %n : tensor<i32>, tensor<?x3xf32>
      }
    return %r#1 : tensor<?x3xf32>
  }
  // 0 rows concatenated onto 2.
  func.func public @test_cat_0() {
    %a = util.unfoldable_constant dense<> : tensor<0x3xf32>
    %b = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %r = func.call @cat(%a, %b) : (tensor<0x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    check.expect_almost_eq_const(%r, dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<2x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<2> : tensor<i32>) : tensor<i32>
    return
  }
  // 1 rows concatenated onto 2.
  func.func public @test_cat_1() {
    %a = util.unfoldable_constant dense<[[4.0, 2.0, 3.0]]> : tensor<1x3xf32>
    %b = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %r = func.call @cat(%a, %b) : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
    check.expect_almost_eq_const(%r, dense<[[4.0, 2.0, 3.0], [1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<3x3xf32>) : tensor<3x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<3x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<3> : tensor<i32>) : tensor<i32>
    return
  }
  // 3 rows concatenated onto 2.
  func.func public @test_cat_3() {
    %a = util.unfoldable_constant dense<[[2.0, -4.0, 4.0], [3.0, 2.0, -4.0], [3.0, 0.0, -4.0]]> : tensor<3x3xf32>
    %b = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %r = func.call @cat(%a, %b) : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<5x3xf32>
    check.expect_almost_eq_const(%r, dense<[[2.0, -4.0, 4.0], [3.0, 2.0, -4.0], [3.0, 0.0, -4.0], [1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<5x3xf32>) : tensor<5x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<5x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<5> : tensor<i32>) : tensor<i32>
    return
  }
  // 0 rows concatenated onto 2, checked against wrong values: must fail.
  func.func public @fail_cat_0() {
    %a = util.unfoldable_constant dense<> : tensor<0x3xf32>
    %b = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %r = func.call @cat(%a, %b) : (tensor<0x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    check.expect_almost_eq_const(%r, dense<[[2.0, 3.0, 4.0], [5.0, 6.0, 7.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
    return
  }
  // a * 2 (0 rows) and b (0 rows) concatenated.
  func.func public @test_cat_both_0_0() {
    %a = util.unfoldable_constant dense<> : tensor<0x3xf32>
    %b = util.unfoldable_constant dense<> : tensor<0x3xf32>
    %r = func.call @cat_both(%a, %b) : (tensor<0x3xf32>, tensor<0x3xf32>) -> tensor<0x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<0x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<0> : tensor<i32>) : tensor<i32>
    return
  }
  // a * 2 (0 rows) and b (2 rows) concatenated.
  func.func public @test_cat_both_0_2() {
    %a = util.unfoldable_constant dense<> : tensor<0x3xf32>
    %b = util.unfoldable_constant dense<[[2.0, 0.0, 1.0], [1.0, 4.0, 1.0]]> : tensor<2x3xf32>
    %r = func.call @cat_both(%a, %b) : (tensor<0x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    check.expect_almost_eq_const(%r, dense<[[2.0, 0.0, 1.0], [1.0, 4.0, 1.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<2x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<2> : tensor<i32>) : tensor<i32>
    return
  }
  // a * 2 (2 rows) and b (0 rows) concatenated.
  func.func public @test_cat_both_2_0() {
    %a = util.unfoldable_constant dense<[[4.0, 3.0, -1.0], [0.0, 4.0, -3.0]]> : tensor<2x3xf32>
    %b = util.unfoldable_constant dense<> : tensor<0x3xf32>
    %r = func.call @cat_both(%a, %b) : (tensor<2x3xf32>, tensor<0x3xf32>) -> tensor<2x3xf32>
    check.expect_almost_eq_const(%r, dense<[[8.0, 6.0, -2.0], [0.0, 8.0, -6.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<2x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<2> : tensor<i32>) : tensor<i32>
    return
  }
  // a * 2 (1 rows) and b (3 rows) concatenated.
  func.func public @test_cat_both_1_3() {
    %a = util.unfoldable_constant dense<[[2.0, -4.0, 1.0]]> : tensor<1x3xf32>
    %b = util.unfoldable_constant dense<[[2.0, -2.0, -3.0], [3.0, 4.0, -1.0], [-3.0, -3.0, 1.0]]> : tensor<3x3xf32>
    %r = func.call @cat_both(%a, %b) : (tensor<1x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
    check.expect_almost_eq_const(%r, dense<[[4.0, -8.0, 2.0], [2.0, -2.0, -3.0], [3.0, 4.0, -1.0], [-3.0, -3.0, 1.0]]> : tensor<4x3xf32>) : tensor<4x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<4x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<4> : tensor<i32>) : tensor<i32>
    return
  }
  // 0 columns concatenated with 1.
  func.func public @test_cat_cols_0() {
    %a = util.unfoldable_constant dense<> : tensor<2x0xf32>
    %b = util.unfoldable_constant dense<[[5.0], [6.0]]> : tensor<2x1xf32>
    %r = func.call @cat_cols(%a, %b) : (tensor<2x0xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
    check.expect_almost_eq_const(%r, dense<[[5.0], [6.0]]> : tensor<2x1xf32>) : tensor<2x1xf32>
    return
  }
  // 2 columns concatenated with 1.
  func.func public @test_cat_cols_2() {
    %a = util.unfoldable_constant dense<[[4.0, 1.0], [-1.0, 0.0]]> : tensor<2x2xf32>
    %b = util.unfoldable_constant dense<[[5.0], [6.0]]> : tensor<2x1xf32>
    %r = func.call @cat_cols(%a, %b) : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
    check.expect_almost_eq_const(%r, dense<[[4.0, 1.0, 5.0], [-1.0, 0.0, 6.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
    return
  }
  // 0 rows of 40 after 1, and padded with a row on each side and summed.
  func.func public @test_cat_wide_0() {
    %a = util.unfoldable_constant dense<> : tensor<0x40xf32>
    %b = util.unfoldable_constant dense<[[-2.0, -4.0, 1.0, 0.0, -3.0, 0.0, -3.0, -1.0, -3.0, 1.0, 4.0, -3.0, -1.0, 3.0, -4.0, -1.0, -4.0, 3.0, -3.0, 0.0, 1.0, 0.0, -1.0, 4.0, 2.0, -4.0, 4.0, 0.0, -1.0, 2.0, 2.0, 4.0, -2.0, 3.0, -3.0, -4.0, 0.0, 4.0, -3.0, 2.0]]> : tensor<1x40xf32>
    %r:2 = func.call @cat_wide(%a, %b) : (tensor<0x40xf32>, tensor<1x40xf32>) -> (tensor<1x40xf32>, tensor<40xf32>)
    check.expect_almost_eq_const(%r#0, dense<[[-2.0, -4.0, 1.0, 0.0, -3.0, 0.0, -3.0, -1.0, -3.0, 1.0, 4.0, -3.0, -1.0, 3.0, -4.0, -1.0, -4.0, 3.0, -3.0, 0.0, 1.0, 0.0, -1.0, 4.0, 2.0, -4.0, 4.0, 0.0, -1.0, 2.0, 2.0, 4.0, -2.0, 3.0, -3.0, -4.0, 0.0, 4.0, -3.0, 2.0]]> : tensor<1x40xf32>) : tensor<1x40xf32>
    check.expect_almost_eq_const(%r#1, dense<[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : tensor<40xf32>) : tensor<40xf32>
    return
  }
  // 2 rows of 40 after 1, and padded with a row on each side and summed.
  func.func public @test_cat_wide_2() {
    %a = util.unfoldable_constant dense<[[4.0, -2.0, 1.0, -3.0, -2.0, -4.0, -4.0, -1.0, -1.0, -1.0, 2.0, 4.0, -2.0, -2.0, 0.0, 3.0, 3.0, 1.0, 2.0, -1.0, 4.0, 1.0, -2.0, -2.0, -1.0, -1.0, 0.0, 3.0, -4.0, 0.0, 1.0, 3.0, -1.0, 0.0, -1.0, -1.0, -3.0, -2.0, 1.0, -4.0], [-2.0, 2.0, 3.0, -4.0, 1.0, -4.0, 0.0, 0.0, -3.0, 3.0, -4.0, 2.0, -1.0, 3.0, 2.0, 2.0, -2.0, -1.0, -3.0, 3.0, -3.0, -2.0, -4.0, -4.0, -1.0, 3.0, -4.0, -1.0, 2.0, -4.0, 2.0, -3.0, 2.0, 2.0, -4.0, 4.0, 3.0, -2.0, -2.0, -2.0]]> : tensor<2x40xf32>
    %b = util.unfoldable_constant dense<[[3.0, 0.0, -2.0, -2.0, 3.0, -1.0, -4.0, 4.0, -1.0, -1.0, 3.0, -4.0, 2.0, 3.0, 4.0, 3.0, -1.0, 4.0, -4.0, 0.0, 3.0, -3.0, 3.0, 4.0, 1.0, -3.0, 0.0, 3.0, 3.0, 0.0, 3.0, -3.0, 1.0, -4.0, -3.0, 0.0, -4.0, -1.0, 4.0, -1.0]]> : tensor<1x40xf32>
    %r:2 = func.call @cat_wide(%a, %b) : (tensor<2x40xf32>, tensor<1x40xf32>) -> (tensor<3x40xf32>, tensor<40xf32>)
    check.expect_almost_eq_const(%r#0, dense<[[3.0, 0.0, -2.0, -2.0, 3.0, -1.0, -4.0, 4.0, -1.0, -1.0, 3.0, -4.0, 2.0, 3.0, 4.0, 3.0, -1.0, 4.0, -4.0, 0.0, 3.0, -3.0, 3.0, 4.0, 1.0, -3.0, 0.0, 3.0, 3.0, 0.0, 3.0, -3.0, 1.0, -4.0, -3.0, 0.0, -4.0, -1.0, 4.0, -1.0], [4.0, -2.0, 1.0, -3.0, -2.0, -4.0, -4.0, -1.0, -1.0, -1.0, 2.0, 4.0, -2.0, -2.0, 0.0, 3.0, 3.0, 1.0, 2.0, -1.0, 4.0, 1.0, -2.0, -2.0, -1.0, -1.0, 0.0, 3.0, -4.0, 0.0, 1.0, 3.0, -1.0, 0.0, -1.0, -1.0, -3.0, -2.0, 1.0, -4.0], [-2.0, 2.0, 3.0, -4.0, 1.0, -4.0, 0.0, 0.0, -3.0, 3.0, -4.0, 2.0, -1.0, 3.0, 2.0, 2.0, -2.0, -1.0, -3.0, 3.0, -3.0, -2.0, -4.0, -4.0, -1.0, 3.0, -4.0, -1.0, 2.0, -4.0, 2.0, -3.0, 2.0, 2.0, -4.0, 4.0, 3.0, -2.0, -2.0, -2.0]]> : tensor<3x40xf32>) : tensor<3x40xf32>
    check.expect_almost_eq_const(%r#1, dense<[2.0, 0.0, 4.0, -7.0, -1.0, -8.0, -4.0, -1.0, -4.0, 2.0, -2.0, 6.0, -3.0, 1.0, 2.0, 5.0, 1.0, 0.0, -1.0, 2.0, 1.0, -1.0, -6.0, -6.0, -2.0, 2.0, -4.0, 2.0, -2.0, -4.0, 3.0, 0.0, 1.0, 2.0, -5.0, 3.0, 0.0, -4.0, -1.0, -6.0]> : tensor<40xf32>) : tensor<40xf32>
    return
  }
  // 0 rows padded: 1 row before, 2 after, 1 between.
  func.func public @test_pad_rows_0() {
    %a = util.unfoldable_constant dense<> : tensor<0x3xf32>
    %r = func.call @pad_rows(%a) : (tensor<0x3xf32>) -> tensor<3x3xf32>
    check.expect_almost_eq_const(%r, dense<[[-1.0, -1.0, -1.0], [-1.0, -1.0, -1.0], [-1.0, -1.0, -1.0]]> : tensor<3x3xf32>) : tensor<3x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<3x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<3> : tensor<i32>) : tensor<i32>
    return
  }
  // 1 rows padded: 1 row before, 2 after, 1 between.
  func.func public @test_pad_rows_1() {
    %a = util.unfoldable_constant dense<[[-2.0, -2.0, -2.0]]> : tensor<1x3xf32>
    %r = func.call @pad_rows(%a) : (tensor<1x3xf32>) -> tensor<4x3xf32>
    check.expect_almost_eq_const(%r, dense<[[-1.0, -1.0, -1.0], [-2.0, -2.0, -2.0], [-1.0, -1.0, -1.0], [-1.0, -1.0, -1.0]]> : tensor<4x3xf32>) : tensor<4x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<4x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<4> : tensor<i32>) : tensor<i32>
    return
  }
  // 2 rows padded: 1 row before, 2 after, 1 between.
  func.func public @test_pad_rows_2() {
    %a = util.unfoldable_constant dense<[[-4.0, -4.0, 3.0], [4.0, -4.0, -3.0]]> : tensor<2x3xf32>
    %r = func.call @pad_rows(%a) : (tensor<2x3xf32>) -> tensor<6x3xf32>
    check.expect_almost_eq_const(%r, dense<[[-1.0, -1.0, -1.0], [-4.0, -4.0, 3.0], [-1.0, -1.0, -1.0], [4.0, -4.0, -3.0], [-1.0, -1.0, -1.0], [-1.0, -1.0, -1.0]]> : tensor<6x3xf32>) : tensor<6x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<6x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<6> : tensor<i32>) : tensor<i32>
    return
  }
  // a + 1 (0 rows) padded with 2 rows and 1 column before.
  func.func public @test_pad_fused_0() {
    %a = util.unfoldable_constant dense<> : tensor<0x2xf32>
    %r = func.call @pad_fused(%a) : (tensor<0x2xf32>) -> tensor<2x3xf32>
    check.expect_almost_eq_const(%r, dense<[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<2x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<2> : tensor<i32>) : tensor<i32>
    return
  }
  // a + 1 (3 rows) padded with 2 rows and 1 column before.
  func.func public @test_pad_fused_3() {
    %a = util.unfoldable_constant dense<[[-4.0, -4.0], [4.0, 4.0], [2.0, 3.0]]> : tensor<3x2xf32>
    %r = func.call @pad_fused(%a) : (tensor<3x2xf32>) -> tensor<5x3xf32>
    check.expect_almost_eq_const(%r, dense<[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, -3.0, -3.0], [0.0, 5.0, 5.0], [0.0, 3.0, 4.0]]> : tensor<5x3xf32>) : tensor<5x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<5x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<5> : tensor<i32>) : tensor<i32>
    return
  }
  // columns 1:3 of 0 rows, then a row of 9s.
  func.func public @test_slice_rows_0() {
    %x = util.unfoldable_constant dense<> : tensor<0x4xf32>
    %r = func.call @slice_rows(%x) : (tensor<0x4xf32>) -> tensor<1x2xf32>
    check.expect_almost_eq_const(%r, dense<[[9.0, 9.0]]> : tensor<1x2xf32>) : tensor<1x2xf32>
    return
  }
  // columns 1:3 of 1 rows, then a row of 9s.
  func.func public @test_slice_rows_1() {
    %x = util.unfoldable_constant dense<[[-4.0, 2.0, 0.0, 4.0]]> : tensor<1x4xf32>
    %r = func.call @slice_rows(%x) : (tensor<1x4xf32>) -> tensor<2x2xf32>
    check.expect_almost_eq_const(%r, dense<[[2.0, 0.0], [9.0, 9.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
    return
  }
  // columns 1:3 of 3 rows, then a row of 9s.
  func.func public @test_slice_rows_3() {
    %x = util.unfoldable_constant dense<[[2.0, 4.0, -1.0, 0.0], [2.0, -4.0, -2.0, 3.0], [0.0, 4.0, 2.0, 4.0]]> : tensor<3x4xf32>
    %r = func.call @slice_rows(%x) : (tensor<3x4xf32>) -> tensor<4x2xf32>
    check.expect_almost_eq_const(%r, dense<[[4.0, -1.0], [-4.0, -2.0], [4.0, 2.0], [9.0, 9.0]]> : tensor<4x2xf32>) : tensor<4x2xf32>
    return
  }
  // 0 rows gathered, then a row of 9s; their sum.
  func.func public @test_gather_rows_0() {
    %t = util.unfoldable_constant dense<[[-1.0, 4.0, -3.0, -2.0], [-4.0, 1.0, -2.0, 3.0], [-4.0, -4.0, 1.0, -3.0]]> : tensor<3x4xf32>
    %i = util.unfoldable_constant dense<> : tensor<0xi32>
    %r:2 = func.call @gather_rows(%t, %i) : (tensor<3x4xf32>, tensor<0xi32>) -> (tensor<1x4xf32>, tensor<4xf32>)
    check.expect_almost_eq_const(%r#0, dense<[[9.0, 9.0, 9.0, 9.0]]> : tensor<1x4xf32>) : tensor<1x4xf32>
    check.expect_almost_eq_const(%r#1, dense<[0.0, 0.0, 0.0, 0.0]> : tensor<4xf32>) : tensor<4xf32>
    return
  }
  // 1 rows gathered, then a row of 9s; their sum.
  func.func public @test_gather_rows_1() {
    %t = util.unfoldable_constant dense<[[-1.0, 4.0, -3.0, -2.0], [-4.0, 1.0, -2.0, 3.0], [-4.0, -4.0, 1.0, -3.0]]> : tensor<3x4xf32>
    %i = util.unfoldable_constant dense<[2]> : tensor<1xi32>
    %r:2 = func.call @gather_rows(%t, %i) : (tensor<3x4xf32>, tensor<1xi32>) -> (tensor<2x4xf32>, tensor<4xf32>)
    check.expect_almost_eq_const(%r#0, dense<[[-4.0, -4.0, 1.0, -3.0], [9.0, 9.0, 9.0, 9.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
    check.expect_almost_eq_const(%r#1, dense<[-4.0, -4.0, 1.0, -3.0]> : tensor<4xf32>) : tensor<4xf32>
    return
  }
  // 3 rows gathered, then a row of 9s; their sum.
  func.func public @test_gather_rows_3() {
    %t = util.unfoldable_constant dense<[[-1.0, 4.0, -3.0, -2.0], [-4.0, 1.0, -2.0, 3.0], [-4.0, -4.0, 1.0, -3.0]]> : tensor<3x4xf32>
    %i = util.unfoldable_constant dense<[0, 2, 0]> : tensor<3xi32>
    %r:2 = func.call @gather_rows(%t, %i) : (tensor<3x4xf32>, tensor<3xi32>) -> (tensor<4x4xf32>, tensor<4xf32>)
    check.expect_almost_eq_const(%r#0, dense<[[-1.0, 4.0, -3.0, -2.0], [-4.0, -4.0, 1.0, -3.0], [-1.0, 4.0, -3.0, -2.0], [9.0, 9.0, 9.0, 9.0]]> : tensor<4x4xf32>) : tensor<4x4xf32>
    check.expect_almost_eq_const(%r#1, dense<[-6.0, 4.0, -5.0, -7.0]> : tensor<4xf32>) : tensor<4xf32>
    return
  }
  // a matmul of 0 rows by 8x5, then a row of 1s.
  func.func public @test_dot_rows_0() {
    %a = util.unfoldable_constant dense<> : tensor<0x8xf32>
    %w = util.unfoldable_constant dense<[[-1.0, -2.0, 2.0, -2.0, -2.0], [1.0, 1.0, -2.0, 2.0, 1.0], [1.0, -1.0, 1.0, -2.0, -1.0], [1.0, -2.0, 1.0, 2.0, 1.0], [1.0, -2.0, -1.0, -2.0, 0.0], [0.0, 2.0, 2.0, -1.0, -2.0], [-1.0, 1.0, 1.0, 1.0, -2.0], [1.0, 1.0, -2.0, -2.0, -2.0]]> : tensor<8x5xf32>
    %r = func.call @dot_rows(%a, %w) : (tensor<0x8xf32>, tensor<8x5xf32>) -> tensor<1x5xf32>
    check.expect_almost_eq_const(%r, dense<[[1.0, 1.0, 1.0, 1.0, 1.0]]> : tensor<1x5xf32>) : tensor<1x5xf32>
    return
  }
  // a matmul of 1 rows by 8x5, then a row of 1s.
  func.func public @test_dot_rows_1() {
    %a = util.unfoldable_constant dense<[[-1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, -2.0]]> : tensor<1x8xf32>
    %w = util.unfoldable_constant dense<[[-1.0, -2.0, 2.0, -2.0, -2.0], [1.0, 1.0, -2.0, 2.0, 1.0], [1.0, -1.0, 1.0, -2.0, -1.0], [1.0, -2.0, 1.0, 2.0, 1.0], [1.0, -2.0, -1.0, -2.0, 0.0], [0.0, 2.0, 2.0, -1.0, -2.0], [-1.0, 1.0, 1.0, 1.0, -2.0], [1.0, 1.0, -2.0, -2.0, -2.0]]> : tensor<8x5xf32>
    %r = func.call @dot_rows(%a, %w) : (tensor<1x8xf32>, tensor<8x5xf32>) -> tensor<2x5xf32>
    check.expect_almost_eq_const(%r, dense<[[-3.0, 4.0, 6.0, 7.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0]]> : tensor<2x5xf32>) : tensor<2x5xf32>
    return
  }
  // a matmul of 5 rows by 8x5, then a row of 1s.
  func.func public @test_dot_rows_5() {
    %a = util.unfoldable_constant dense<[[-2.0, 1.0, 0.0, -2.0, -1.0, 0.0, -2.0, 0.0], [1.0, 1.0, 2.0, -1.0, 1.0, 1.0, 2.0, 1.0], [2.0, -1.0, 1.0, -2.0, 0.0, 1.0, 1.0, -1.0], [1.0, 1.0, 2.0, 0.0, 1.0, 0.0, 0.0, 1.0], [1.0, -2.0, -2.0, 1.0, 1.0, 2.0, -2.0, 0.0]]> : tensor<5x8xf32>
    %w = util.unfoldable_constant dense<[[-1.0, -2.0, 2.0, -2.0, -2.0], [1.0, 1.0, -2.0, 2.0, 1.0], [1.0, -1.0, 1.0, -2.0, -1.0], [1.0, -2.0, 1.0, 2.0, 1.0], [1.0, -2.0, -1.0, -2.0, 0.0], [0.0, 2.0, 2.0, -1.0, -2.0], [-1.0, 1.0, 1.0, 1.0, -2.0], [1.0, 1.0, -2.0, -2.0, -2.0]]> : tensor<8x5xf32>
    %r = func.call @dot_rows(%a, %w) : (tensor<5x8xf32>, tensor<8x5xf32>) -> tensor<6x5xf32>
    check.expect_almost_eq_const(%r, dense<[[2.0, 9.0, -9.0, 2.0, 7.0], [1.0, 2.0, 2.0, -9.0, -12.0], [-6.0, 0.0, 10.0, -10.0, -10.0], [4.0, -4.0, -1.0, -8.0, -5.0], [-1.0, -4.0, 6.0, -6.0, -1.0], [1.0, 1.0, 1.0, 1.0, 1.0]]> : tensor<6x5xf32>) : tensor<6x5xf32>
    return
  }
  // 4x0 by 0x5 plus a bias.
  func.func public @test_dot_k_0() {
    %a = util.unfoldable_constant dense<> : tensor<4x0xf32>
    %b = util.unfoldable_constant dense<> : tensor<0x5xf32>
    %bias = util.unfoldable_constant dense<[1.0, -2.0, 3.0, -4.0, 5.0]> : tensor<5xf32>
    %r = func.call @dot_k(%a, %b, %bias) : (tensor<4x0xf32>, tensor<0x5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
    check.expect_almost_eq_const(%r, dense<[[1.0, -2.0, 3.0, -4.0, 5.0], [1.0, -2.0, 3.0, -4.0, 5.0], [1.0, -2.0, 3.0, -4.0, 5.0], [1.0, -2.0, 3.0, -4.0, 5.0]]> : tensor<4x5xf32>) : tensor<4x5xf32>
    return
  }
  // 4x1 by 1x5 plus a bias.
  func.func public @test_dot_k_1() {
    %a = util.unfoldable_constant dense<[[0.0], [2.0], [-2.0], [1.0]]> : tensor<4x1xf32>
    %b = util.unfoldable_constant dense<[[0.0, -1.0, -1.0, -1.0, 0.0]]> : tensor<1x5xf32>
    %bias = util.unfoldable_constant dense<[1.0, -2.0, 3.0, -4.0, 5.0]> : tensor<5xf32>
    %r = func.call @dot_k(%a, %b, %bias) : (tensor<4x1xf32>, tensor<1x5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
    check.expect_almost_eq_const(%r, dense<[[1.0, -2.0, 3.0, -4.0, 5.0], [1.0, -4.0, 1.0, -6.0, 5.0], [1.0, 0.0, 5.0, -2.0, 5.0], [1.0, -3.0, 2.0, -5.0, 5.0]]> : tensor<4x5xf32>) : tensor<4x5xf32>
    return
  }
  // 4x6 by 6x5 plus a bias.
  func.func public @test_dot_k_6() {
    %a = util.unfoldable_constant dense<[[-2.0, 2.0, 2.0, 0.0, 2.0, 0.0], [2.0, -1.0, -1.0, 1.0, -1.0, 2.0], [-2.0, 2.0, 0.0, 0.0, 1.0, -2.0], [-2.0, 0.0, 2.0, 1.0, -1.0, 0.0]]> : tensor<4x6xf32>
    %b = util.unfoldable_constant dense<[[1.0, 1.0, 1.0, -1.0, -1.0], [0.0, -1.0, 0.0, 1.0, -2.0], [1.0, 1.0, -2.0, 1.0, -1.0], [2.0, 0.0, 2.0, 0.0, 2.0], [0.0, -2.0, 0.0, 1.0, -2.0], [0.0, -1.0, -1.0, -1.0, 0.0]]> : tensor<6x5xf32>
    %bias = util.unfoldable_constant dense<[1.0, -2.0, 3.0, -4.0, 5.0]> : tensor<5xf32>
    %r = func.call @dot_k(%a, %b, %bias) : (tensor<4x6xf32>, tensor<6x5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
    check.expect_almost_eq_const(%r, dense<[[1.0, -8.0, -3.0, 4.0, -3.0], [4.0, 0.0, 7.0, -11.0, 10.0], [-1.0, -6.0, 3.0, 3.0, 1.0], [3.0, 0.0, -1.0, -1.0, 9.0]]> : tensor<4x5xf32>) : tensor<4x5xf32>
    return
  }
  // a batch of 0 2x3 by 3x2 matmuls, summed over the batch.
  func.func public @test_dot_batch_0() {
    %a = util.unfoldable_constant dense<> : tensor<0x2x3xf32>
    %b = util.unfoldable_constant dense<> : tensor<0x3x2xf32>
    %r = func.call @dot_batch(%a, %b) : (tensor<0x2x3xf32>, tensor<0x3x2xf32>) -> tensor<2x2xf32>
    check.expect_almost_eq_const(%r, dense<[[0.0, 0.0], [0.0, 0.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
    return
  }
  // a batch of 1 2x3 by 3x2 matmuls, summed over the batch.
  func.func public @test_dot_batch_1() {
    %a = util.unfoldable_constant dense<[[[-2.0, 1.0, -1.0], [2.0, 1.0, 0.0]]]> : tensor<1x2x3xf32>
    %b = util.unfoldable_constant dense<[[[2.0, 1.0], [2.0, 0.0], [1.0, -1.0]]]> : tensor<1x3x2xf32>
    %r = func.call @dot_batch(%a, %b) : (tensor<1x2x3xf32>, tensor<1x3x2xf32>) -> tensor<2x2xf32>
    check.expect_almost_eq_const(%r, dense<[[-3.0, -1.0], [6.0, 2.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
    return
  }
  // a batch of 3 2x3 by 3x2 matmuls, summed over the batch.
  func.func public @test_dot_batch_3() {
    %a = util.unfoldable_constant dense<[[[-1.0, 1.0, 2.0], [1.0, -1.0, 1.0]], [[-1.0, -1.0, -1.0], [-2.0, -1.0, 0.0]], [[2.0, 2.0, -1.0], [-2.0, 1.0, 1.0]]]> : tensor<3x2x3xf32>
    %b = util.unfoldable_constant dense<[[[2.0, 0.0], [-1.0, 1.0], [0.0, -1.0]], [[-2.0, 1.0], [1.0, 1.0], [2.0, 1.0]], [[0.0, -2.0], [-2.0, 0.0], [1.0, 0.0]]]> : tensor<3x3x2xf32>
    %r = func.call @dot_batch(%a, %b) : (tensor<3x2x3xf32>, tensor<3x3x2xf32>) -> tensor<2x2xf32>
    check.expect_almost_eq_const(%r, dense<[[-9.0, -8.0], [5.0, -1.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
    return
  }
  // reductions of 0x3 and 3x0.
  func.func public @test_reduces_0_0() {
    %x = util.unfoldable_constant dense<> : tensor<0x3xf32>
    %y = util.unfoldable_constant dense<> : tensor<3x0xf32>
    %r:3 = func.call @reduces(%x, %y) : (tensor<0x3xf32>, tensor<3x0xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<f32>)
    check.expect_almost_eq_const(%r#0, dense<[0.5, 0.5, 0.5]> : tensor<3xf32>) : tensor<3xf32>
    check.expect_almost_eq_const(%r#1, dense<[-100.0, -100.0, -100.0]> : tensor<3xf32>) : tensor<3xf32>
    check.expect_almost_eq_const(%r#2, dense<1.0> : tensor<f32>) : tensor<f32>
    return
  }
  // reductions of 0x3 and 3x2.
  func.func public @test_reduces_0_2() {
    %x = util.unfoldable_constant dense<> : tensor<0x3xf32>
    %y = util.unfoldable_constant dense<[[-2.0, 1.0], [4.0, 2.0], [-2.0, 4.0]]> : tensor<3x2xf32>
    %r:3 = func.call @reduces(%x, %y) : (tensor<0x3xf32>, tensor<3x2xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<f32>)
    check.expect_almost_eq_const(%r#0, dense<[0.5, 0.5, 0.5]> : tensor<3xf32>) : tensor<3xf32>
    check.expect_almost_eq_const(%r#1, dense<[1.0, 4.0, 4.0]> : tensor<3xf32>) : tensor<3xf32>
    check.expect_almost_eq_const(%r#2, dense<1.0> : tensor<f32>) : tensor<f32>
    return
  }
  // reductions of 2x3 and 3x0.
  func.func public @test_reduces_2_0() {
    %x = util.unfoldable_constant dense<[[-1.0, 2.0, 4.0], [-4.0, 4.0, 1.0]]> : tensor<2x3xf32>
    %y = util.unfoldable_constant dense<> : tensor<3x0xf32>
    %r:3 = func.call @reduces(%x, %y) : (tensor<2x3xf32>, tensor<3x0xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<f32>)
    check.expect_almost_eq_const(%r#0, dense<[-4.5, 6.5, 5.5]> : tensor<3xf32>) : tensor<3xf32>
    check.expect_almost_eq_const(%r#1, dense<[-100.0, -100.0, -100.0]> : tensor<3xf32>) : tensor<3xf32>
    check.expect_almost_eq_const(%r#2, dense<128.0> : tensor<f32>) : tensor<f32>
    return
  }
  // reductions of 3x3 and 3x4.
  func.func public @test_reduces_3_4() {
    %x = util.unfoldable_constant dense<[[-2.0, 4.0, -4.0], [2.0, 4.0, 2.0], [-2.0, 0.0, -3.0]]> : tensor<3x3xf32>
    %y = util.unfoldable_constant dense<[[1.0, -1.0, 1.0, -1.0], [0.0, -2.0, 2.0, 4.0], [2.0, 4.0, 0.0, -3.0]]> : tensor<3x4xf32>
    %r:3 = func.call @reduces(%x, %y) : (tensor<3x3xf32>, tensor<3x4xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<f32>)
    check.expect_almost_eq_const(%r#0, dense<[-1.5, 8.5, -4.5]> : tensor<3xf32>) : tensor<3xf32>
    check.expect_almost_eq_const(%r#1, dense<[1.0, 4.0, 4.0]> : tensor<3xf32>) : tensor<3xf32>
    check.expect_almost_eq_const(%r#2, dense<0.0> : tensor<f32>) : tensor<f32>
    return
  }
  // -(a * b) + a over 0 rows, then a row of 7s.
  func.func public @test_elementwise_0() {
    %a = util.unfoldable_constant dense<> : tensor<0x3xf32>
    %b = util.unfoldable_constant dense<> : tensor<0x3xf32>
    %r = func.call @elementwise(%a, %b) : (tensor<0x3xf32>, tensor<0x3xf32>) -> tensor<1x3xf32>
    check.expect_almost_eq_const(%r, dense<[[7.0, 7.0, 7.0]]> : tensor<1x3xf32>) : tensor<1x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<1x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<1> : tensor<i32>) : tensor<i32>
    return
  }
  // -(a * b) + a over 1 rows, then a row of 7s.
  func.func public @test_elementwise_1() {
    %a = util.unfoldable_constant dense<[[3.0, 4.0, -4.0]]> : tensor<1x3xf32>
    %b = util.unfoldable_constant dense<[[-3.0, 1.0, 0.0]]> : tensor<1x3xf32>
    %r = func.call @elementwise(%a, %b) : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
    check.expect_almost_eq_const(%r, dense<[[12.0, 0.0, -4.0], [7.0, 7.0, 7.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<2x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<2> : tensor<i32>) : tensor<i32>
    return
  }
  // -(a * b) + a over 4 rows, then a row of 7s.
  func.func public @test_elementwise_4() {
    %a = util.unfoldable_constant dense<[[0.0, -3.0, 3.0], [3.0, -1.0, 4.0], [3.0, -4.0, -2.0], [-2.0, 1.0, -4.0]]> : tensor<4x3xf32>
    %b = util.unfoldable_constant dense<[[1.0, -4.0, 3.0], [3.0, 2.0, 3.0], [-2.0, 2.0, 4.0], [2.0, -2.0, -1.0]]> : tensor<4x3xf32>
    %r = func.call @elementwise(%a, %b) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
    check.expect_almost_eq_const(%r, dense<[[0.0, -15.0, -6.0], [-6.0, 1.0, -8.0], [9.0, 4.0, 6.0], [2.0, 3.0, -8.0], [7.0, 7.0, 7.0]]> : tensor<5x3xf32>) : tensor<5x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<5x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<5> : tensor<i32>) : tensor<i32>
    return
  }
  // a loop appending 0 rows to 0.
  func.func public @test_grow_0_0() {
    %x = util.unfoldable_constant dense<> : tensor<0x3xf32>
    %k = util.unfoldable_constant dense<0> : tensor<i32>
    %r = func.call @grow(%x, %k) : (tensor<0x3xf32>, tensor<i32>) -> tensor<0x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<0x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<0> : tensor<i32>) : tensor<i32>
    return
  }
  // a loop appending 1 rows to 0.
  func.func public @test_grow_0_1() {
    %x = util.unfoldable_constant dense<> : tensor<0x3xf32>
    %k = util.unfoldable_constant dense<1> : tensor<i32>
    %r = func.call @grow(%x, %k) : (tensor<0x3xf32>, tensor<i32>) -> tensor<1x3xf32>
    check.expect_almost_eq_const(%r, dense<[[0.0, 0.0, 0.0]]> : tensor<1x3xf32>) : tensor<1x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<1x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<1> : tensor<i32>) : tensor<i32>
    return
  }
  // a loop appending 3 rows to 0.
  func.func public @test_grow_0_3() {
    %x = util.unfoldable_constant dense<> : tensor<0x3xf32>
    %k = util.unfoldable_constant dense<3> : tensor<i32>
    %r = func.call @grow(%x, %k) : (tensor<0x3xf32>, tensor<i32>) -> tensor<3x3xf32>
    check.expect_almost_eq_const(%r, dense<[[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]> : tensor<3x3xf32>) : tensor<3x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<3x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<3> : tensor<i32>) : tensor<i32>
    return
  }
  // a loop appending 2 rows to 2.
  func.func public @test_grow_2_2() {
    %x = util.unfoldable_constant dense<[[-1.0, 0.0, -2.0], [-3.0, -3.0, -4.0]]> : tensor<2x3xf32>
    %k = util.unfoldable_constant dense<2> : tensor<i32>
    %r = func.call @grow(%x, %k) : (tensor<2x3xf32>, tensor<i32>) -> tensor<4x3xf32>
    check.expect_almost_eq_const(%r, dense<[[-1.0, 0.0, -2.0], [-3.0, -3.0, -4.0], [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]> : tensor<4x3xf32>) : tensor<4x3xf32>
    %rowsr = stablehlo.get_dimension_size %r, dim = 0 : (tensor<4x3xf32>) -> tensor<i32>
    check.expect_eq_const(%rowsr, dense<4> : tensor<i32>) : tensor<i32>
    return
  }
}
