// A gather from an operand with symbolic ("?") dimensions: an embedding
// table of a symbolic number of rows (with a static and a symbolic number
// of ids), JAX's x[i] on a polymorphic array, windows of 2 along a
// symbolic vector and 2 x 2 windows of a matrix with both dimensions
// symbolic, fused with the elementwise ops after it. Each is called at
// several sizes, 1 (or the slice size) and sizes that are no multiple of
// any tile among them; start indices past either end are clamped to
// [0, extent - slice size] of the extent at the call.
//
// Written by hand (values from numpy). Run by grt-check: test_*
// functions must pass.
module @e2e_symbolic_gather {
  func.func private @embed(%table: tensor<?x3xf32>, %ids: tensor<4xi32>) -> tensor<4x3xf32> {
    %g = "stablehlo.gather"(%table, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>, indices_are_sorted = false} : (tensor<?x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
    return %g : tensor<4x3xf32>
  }

  func.func private @embed_scaled(%table: tensor<?x3xf32>, %ids: tensor<?xi32>) -> tensor<?x3xf32> {
    %g = "stablehlo.gather"(%table, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>, indices_are_sorted = false} : (tensor<?x3xf32>, tensor<?xi32>) -> tensor<?x3xf32>
    %s = stablehlo.multiply %g, %g : tensor<?x3xf32>
    %r = stablehlo.add %s, %g : tensor<?x3xf32>
    return %r : tensor<?x3xf32>
  }

  func.func private @row(%x: tensor<?x4xf32>, %i: tensor<i64>) -> tensor<4xf32> {
    %i1 = stablehlo.reshape %i : (tensor<i64>) -> tensor<1xi64>
    %g = "stablehlo.gather"(%x, %i1) {dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 0>, slice_sizes = array<i64: 1, 4>, indices_are_sorted = true} : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<4xf32>
    return %g : tensor<4xf32>
  }

  func.func private @pairs(%x: tensor<?xf32>, %starts: tensor<3x1xi32>) -> tensor<3x2xf32> {
    %g = "stablehlo.gather"(%x, %starts) {dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2>, indices_are_sorted = false} : (tensor<?xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
    return %g : tensor<3x2xf32>
  }

  func.func private @windows(%x: tensor<?x?xf32>, %starts: tensor<2x2xi32>) -> (tensor<2x2x2xf32>, tensor<2xf32>) {
    %g = "stablehlo.gather"(%x, %starts) {dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 2, 2>, indices_are_sorted = false} : (tensor<?x?xf32>, tensor<2x2xi32>) -> tensor<2x2x2xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%g init: %zero) applies stablehlo.add across dimensions = [1, 2] : (tensor<2x2x2xf32>, tensor<f32>) -> tensor<2xf32>
    return %g, %s : tensor<2x2x2xf32>, tensor<2xf32>
  }

  // 4 ids from a table of 1 row(s) (clamped: -3, 2).
  func.func public @test_embed_1() {
    %0 = util.unfoldable_constant dense<[[-8.75, 8.25, 3.75]]> : tensor<1x3xf32>
    %1 = util.unfoldable_constant dense<[0, -3, 2, 0]> : tensor<4xi32>
    %2 = func.call @embed(%0, %1) : (tensor<1x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
    check.expect_eq_const(%2, dense<[[-8.75, 8.25, 3.75], [-8.75, 8.25, 3.75], [-8.75, 8.25, 3.75], [-8.75, 8.25, 3.75]]> : tensor<4x3xf32>) : tensor<4x3xf32>
    return
  }

  // 4 ids from a table of 5 row(s) (clamped: -1, 9).
  func.func public @test_embed_5() {
    %0 = util.unfoldable_constant dense<[[-3.5, -10.5, 5.0], [-4.0, 9.0, -4.25], [3.5, -8.0, 1.0], [-10.75, 6.5, -10.25], [5.25, 6.5, -1.0]]> : tensor<5x3xf32>
    %1 = util.unfoldable_constant dense<[4, -1, 2, 9]> : tensor<4xi32>
    %2 = func.call @embed(%0, %1) : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
    check.expect_eq_const(%2, dense<[[5.25, 6.5, -1.0], [-3.5, -10.5, 5.0], [3.5, -8.0, 1.0], [5.25, 6.5, -1.0]]> : tensor<4x3xf32>) : tensor<4x3xf32>
    return
  }

  // 4 ids from a table of 37 row(s) (clamped: 40).
  func.func public @test_embed_37() {
    %0 = util.unfoldable_constant dense<[[7.25, 1.75, 9.0], [6.0, 10.0, -11.0], [-12.5, 3.5, 5.5], [5.75, 7.75, -2.75], [8.25, 0.0, -8.5], [-7.0, 7.0, 3.75], [9.0, 11.75, 6.75], [-5.25, 1.25, -1.0], [-6.0, 9.75, 11.75], [1.25, -7.5, -2.0], [-1.75, 4.0, 10.75], [-11.75, -11.0, -8.75], [-12.0, 9.25, -4.5], [-8.75, -11.25, -12.0], [9.25, 10.5, -9.75], [6.25, 7.5, 11.75], [11.0, 6.25, 10.25], [10.5, -6.25, -4.0], [2.5, 6.25, 1.0], [-8.5, -10.0, 8.0], [-1.25, 5.75, -5.25], [-7.75, 7.5, -8.0], [9.0, -8.5, -9.25], [7.75, -10.0, 4.0], [6.75, -5.5, -9.5], [3.75, 6.0, 4.5], [7.5, 4.5, -3.75], [12.25, 2.5, 8.5], [-10.25, -2.0, 5.25], [-11.5, 5.0, -7.0], [-3.5, -10.75, 9.25], [7.0, 11.0, 7.25], [-10.0, -7.25, -3.0], [11.0, 12.25, -4.5], [8.75, -1.0, 6.0], [2.0, 10.25, 12.25], [-1.25, 9.75, -12.25]]> : tensor<37x3xf32>
    %1 = util.unfoldable_constant dense<[36, 0, 40, 17]> : tensor<4xi32>
    %2 = func.call @embed(%0, %1) : (tensor<37x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
    check.expect_eq_const(%2, dense<[[-1.25, 9.75, -12.25], [7.25, 1.75, 9.0], [-1.25, 9.75, -12.25], [10.5, -6.25, -4.0]]> : tensor<4x3xf32>) : tensor<4x3xf32>
    return
  }

  // 1 ids from a table of 1 row(s), then g * g + g (fused).
  func.func public @test_embed_scaled_1() {
    %0 = util.unfoldable_constant dense<[[-9.0, -11.5, 9.75]]> : tensor<1x3xf32>
    %1 = util.unfoldable_constant dense<[0]> : tensor<1xi32>
    %2 = func.call @embed_scaled(%0, %1) : (tensor<1x3xf32>, tensor<1xi32>) -> tensor<1x3xf32>
    check.expect_eq_const(%2, dense<[[72.0, 120.75, 104.8125]]> : tensor<1x3xf32>) : tensor<1x3xf32>
    return
  }

  // 7 ids from a table of 6 row(s), then g * g + g (fused).
  func.func public @test_embed_scaled_6() {
    %0 = util.unfoldable_constant dense<[[7.5, -7.5, -0.5], [7.5, 2.5, 4.25], [-8.0, -8.75, -3.25], [-11.25, 8.25, 10.5], [-3.75, -12.5, 10.25], [-9.0, 11.75, 11.75]]> : tensor<6x3xf32>
    %1 = util.unfoldable_constant dense<[5, 7, -2, 3, 0, 1, 2]> : tensor<7xi32>
    %2 = func.call @embed_scaled(%0, %1) : (tensor<6x3xf32>, tensor<7xi32>) -> tensor<7x3xf32>
    check.expect_eq_const(%2, dense<[[72.0, 149.8125, 149.8125], [72.0, 149.8125, 149.8125], [63.75, 48.75, -0.25], [115.3125, 76.3125, 120.75], [63.75, 48.75, -0.25], [63.75, 8.75, 22.3125], [56.0, 67.8125, 7.3125]]> : tensor<7x3xf32>) : tensor<7x3xf32>
    return
  }

  // 11 ids from a table of 37 row(s), then g * g + g (fused).
  func.func public @test_embed_scaled_37() {
    %0 = util.unfoldable_constant dense<[[-11.0, 4.75, 10.0], [1.5, 10.25, -1.25], [-3.25, 1.75, -7.5], [-1.0, -1.75, -11.0], [-1.0, -6.75, 5.25], [-4.75, -6.75, -0.25], [-8.25, -2.75, -6.5], [5.5, -7.0, 7.5], [11.5, 6.5, 10.25], [-1.0, -7.0, -2.75], [-7.75, -12.0, -4.5], [-3.75, -7.0, 7.0], [-3.75, -4.0, -5.0], [-5.5, -8.0, -8.5], [-8.5, 3.25, -10.5], [0.0, -7.75, -11.5], [1.25, -6.5, -2.0], [-10.75, -0.75, -8.75], [9.0, -6.25, -2.25], [-10.75, -3.5, 12.0], [-5.75, 3.25, -12.0], [-9.75, -5.0, 0.5], [-4.75, -2.75, 4.0], [-7.75, 8.0, -2.25], [-2.75, 1.5, -11.5], [-10.25, 11.25, 11.25], [-12.25, -0.25, 6.25], [-10.75, -0.25, 4.5], [-1.5, 11.0, 2.5], [-12.25, -8.5, 4.5], [-6.5, 8.25, -0.25], [-1.5, 2.5, -10.75], [-11.25, 6.25, 3.0], [-4.25, -1.75, -5.0], [-2.75, 6.5, 12.25], [-12.5, 2.5, -6.5], [7.75, 10.0, 5.0]]> : tensor<37x3xf32>
    %1 = util.unfoldable_constant dense<[3, 36, 37, 1000, -1000, 20, 11, 0, 35, 2, 19]> : tensor<11xi32>
    %2 = func.call @embed_scaled(%0, %1) : (tensor<37x3xf32>, tensor<11xi32>) -> tensor<11x3xf32>
    check.expect_eq_const(%2, dense<[[0.0, 1.3125, 110.0], [67.8125, 110.0, 30.0], [67.8125, 110.0, 30.0], [67.8125, 110.0, 30.0], [110.0, 27.3125, 110.0], [27.3125, 13.8125, 132.0], [10.3125, 42.0, 56.0], [110.0, 27.3125, 110.0], [143.75, 8.75, 35.75], [7.3125, 4.8125, 48.75], [104.8125, 8.75, 156.0]]> : tensor<11x3xf32>) : tensor<11x3xf32>
    return
  }

  // row 0 of 1 (clamped to 0).
  func.func public @test_row_1_0() {
    %0 = util.unfoldable_constant dense<[[-8.75, -1.5, -10.75, -7.0]]> : tensor<1x4xf32>
    %1 = util.unfoldable_constant dense<0> : tensor<i64>
    %2 = func.call @row(%0, %1) : (tensor<1x4xf32>, tensor<i64>) -> tensor<4xf32>
    check.expect_eq_const(%2, dense<[-8.75, -1.5, -10.75, -7.0]> : tensor<4xf32>) : tensor<4xf32>
    return
  }

  // row 5 of 1 (clamped to 0).
  func.func public @test_row_1_5() {
    %0 = util.unfoldable_constant dense<[[-10.25, -0.5, 0.25, 12.0]]> : tensor<1x4xf32>
    %1 = util.unfoldable_constant dense<5> : tensor<i64>
    %2 = func.call @row(%0, %1) : (tensor<1x4xf32>, tensor<i64>) -> tensor<4xf32>
    check.expect_eq_const(%2, dense<[-10.25, -0.5, 0.25, 12.0]> : tensor<4xf32>) : tensor<4xf32>
    return
  }

  // row 6 of 7 (clamped to 6).
  func.func public @test_row_7_6() {
    %0 = util.unfoldable_constant dense<[[-3.25, 4.5, 0.25, -12.5], [10.25, -6.25, -6.5, -0.25], [6.5, -7.25, 2.0, -3.0], [3.0, 7.5, -12.0, -0.5], [-11.5, 8.25, -8.75, -11.75], [-1.5, 6.25, -3.5, -0.75], [-5.25, -7.75, 9.0, -3.5]]> : tensor<7x4xf32>
    %1 = util.unfoldable_constant dense<6> : tensor<i64>
    %2 = func.call @row(%0, %1) : (tensor<7x4xf32>, tensor<i64>) -> tensor<4xf32>
    check.expect_eq_const(%2, dense<[-5.25, -7.75, 9.0, -3.5]> : tensor<4xf32>) : tensor<4xf32>
    return
  }

  // row -4 of 7 (clamped to 0).
  func.func public @test_row_7_m4() {
    %0 = util.unfoldable_constant dense<[[1.5, -9.75, -4.25, 9.25], [2.5, 10.0, 9.25, 0.25], [-7.75, 5.0, -2.75, -1.0], [-7.25, -9.0, 0.25, -12.25], [-9.25, -12.5, -4.0, 9.25], [12.25, -2.0, 10.25, 7.25], [-12.25, -7.5, -4.0, -10.25]]> : tensor<7x4xf32>
    %1 = util.unfoldable_constant dense<-4> : tensor<i64>
    %2 = func.call @row(%0, %1) : (tensor<7x4xf32>, tensor<i64>) -> tensor<4xf32>
    check.expect_eq_const(%2, dense<[1.5, -9.75, -4.25, 9.25]> : tensor<4xf32>) : tensor<4xf32>
    return
  }

  // row 13 of 13 (clamped to 12).
  func.func public @test_row_13_13() {
    %0 = util.unfoldable_constant dense<[[7.75, -3.0, 8.25, 8.25], [-4.75, -11.25, 3.75, -10.0], [6.5, 3.25, -2.5, -2.25], [-9.75, 11.25, 7.0, -10.5], [5.75, -10.25, 1.5, -7.75], [7.0, 11.5, 12.25, -12.5], [-7.0, -11.5, -12.5, 11.75], [3.0, -8.0, -7.75, -1.5], [9.0, 6.5, 6.5, 8.0], [-0.75, -8.25, 7.0, 1.0], [11.0, -2.0, 5.5, -12.0], [-6.0, 6.0, -1.25, 2.25], [-10.5, -8.5, 3.0, -5.25]]> : tensor<13x4xf32>
    %1 = util.unfoldable_constant dense<13> : tensor<i64>
    %2 = func.call @row(%0, %1) : (tensor<13x4xf32>, tensor<i64>) -> tensor<4xf32>
    check.expect_eq_const(%2, dense<[-10.5, -8.5, 3.0, -5.25]> : tensor<4xf32>) : tensor<4xf32>
    return
  }

  // pairs from a vector of 2 at [0, 1, -1] (clamped to [0, 0]).
  func.func public @test_pairs_2() {
    %0 = util.unfoldable_constant dense<[-4.25, 9.5]> : tensor<2xf32>
    %1 = util.unfoldable_constant dense<[[0], [1], [-1]]> : tensor<3x1xi32>
    %2 = func.call @pairs(%0, %1) : (tensor<2xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
    check.expect_eq_const(%2, dense<[[-4.25, 9.5], [-4.25, 9.5], [-4.25, 9.5]]> : tensor<3x2xf32>) : tensor<3x2xf32>
    return
  }

  // pairs from a vector of 5 at [3, 4, 1] (clamped to [0, 3]).
  func.func public @test_pairs_5() {
    %0 = util.unfoldable_constant dense<[-9.25, -0.5, -6.75, -5.25, -4.75]> : tensor<5xf32>
    %1 = util.unfoldable_constant dense<[[3], [4], [1]]> : tensor<3x1xi32>
    %2 = func.call @pairs(%0, %1) : (tensor<5xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
    check.expect_eq_const(%2, dense<[[-5.25, -4.75], [-5.25, -4.75], [-0.5, -6.75]]> : tensor<3x2xf32>) : tensor<3x2xf32>
    return
  }

  // pairs from a vector of 37 at [35, 36, 17] (clamped to [0, 35]).
  func.func public @test_pairs_37() {
    %0 = util.unfoldable_constant dense<[-11.5, 7.75, -5.0, -12.25, -0.5, -8.5, 9.0, -6.0, -8.75, 8.0, -11.75, -10.0, -3.5, 12.0, 1.25, 7.0, -7.0, -2.25, 12.0, 3.0, -10.25, 4.5, 11.5, 7.0, -4.25, -6.5, -8.0, 9.25, 11.75, 5.25, 2.75, -10.25, 10.0, -12.25, -8.5, 3.5, 7.0]> : tensor<37xf32>
    %1 = util.unfoldable_constant dense<[[35], [36], [17]]> : tensor<3x1xi32>
    %2 = func.call @pairs(%0, %1) : (tensor<37xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
    check.expect_eq_const(%2, dense<[[3.5, 7.0], [3.5, 7.0], [-2.25, 12.0]]> : tensor<3x2xf32>) : tensor<3x2xf32>
    return
  }

  // 2 x 2 windows of a 2 x 2 matrix at [[0, 0], [1, -1]], and their sums.
  func.func public @test_windows_2x2() {
    %0 = util.unfoldable_constant dense<[[7.75, 8.25], [4.0, 10.75]]> : tensor<2x2xf32>
    %1 = util.unfoldable_constant dense<[[0, 0], [1, -1]]> : tensor<2x2xi32>
    %2:2 = func.call @windows(%0, %1) : (tensor<2x2xf32>, tensor<2x2xi32>) -> (tensor<2x2x2xf32>, tensor<2xf32>)
    check.expect_eq_const(%2#0, dense<[[[7.75, 8.25], [4.0, 10.75]], [[7.75, 8.25], [4.0, 10.75]]]> : tensor<2x2x2xf32>) : tensor<2x2x2xf32>
    check.expect_eq_const(%2#1, dense<[30.75, 30.75]> : tensor<2xf32>) : tensor<2xf32>
    return
  }

  // 2 x 2 windows of a 3 x 5 matrix at [[1, 3], [2, 4]], and their sums.
  func.func public @test_windows_3x5() {
    %0 = util.unfoldable_constant dense<[[7.5, -5.0, -12.5, 0.75, 10.5], [6.5, -3.5, 0.5, -2.25, -6.75], [7.0, -0.5, 1.5, 4.0, -1.75]]> : tensor<3x5xf32>
    %1 = util.unfoldable_constant dense<[[1, 3], [2, 4]]> : tensor<2x2xi32>
    %2:2 = func.call @windows(%0, %1) : (tensor<3x5xf32>, tensor<2x2xi32>) -> (tensor<2x2x2xf32>, tensor<2xf32>)
    check.expect_eq_const(%2#0, dense<[[[-2.25, -6.75], [4.0, -1.75]], [[-2.25, -6.75], [4.0, -1.75]]]> : tensor<2x2x2xf32>) : tensor<2x2x2xf32>
    check.expect_eq_const(%2#1, dense<[-6.75, -6.75]> : tensor<2xf32>) : tensor<2xf32>
    return
  }

  // 2 x 2 windows of a 9 x 13 matrix at [[7, 11], [-5, 20]], and their sums.
  func.func public @test_windows_9x13() {
    %0 = util.unfoldable_constant dense<[[-8.5, -10.25, 8.75, 10.25, 9.75, 2.0, 10.25, -12.0, 1.25, 0.5, -0.25, 4.25, 1.75], [-1.0, -2.25, 2.5, 3.5, -8.0, 11.75, 12.25, 6.0, -0.5, 4.5, -11.5, -6.25, -6.25], [-0.75, 8.5, 7.5, 5.75, 5.25, 1.25, 9.75, -6.25, 9.0, 5.5, -2.25, 7.75, -4.25], [-9.75, -3.25, -10.75, -11.25, 6.25, -1.75, 3.25, -1.5, 6.25, 3.25, -8.0, 11.5, 10.0], [0.75, -1.5, -6.5, 6.75, -5.0, -7.0, 4.75, -3.25, 8.75, -3.5, -3.25, -2.25, -12.25], [9.0, -9.0, 1.25, 6.75, 7.25, -7.0, 3.0, -6.0, 6.75, -9.0, -0.5, 11.25, -12.0], [-7.25, 0.25, -2.25, -9.5, 12.0, -12.25, 7.75, 8.5, -10.25, 1.25, 6.25, 1.25, 1.5], [1.5, 5.25, -1.5, -7.0, -6.5, -1.5, -1.0, 3.0, 0.25, 7.0, 5.0, 3.5, -2.25], [8.0, -6.25, -7.25, 3.25, 1.5, 4.75, -10.25, -8.0, 9.75, 10.25, 12.25, 7.0, -1.0]]> : tensor<9x13xf32>
    %1 = util.unfoldable_constant dense<[[7, 11], [-5, 20]]> : tensor<2x2xi32>
    %2:2 = func.call @windows(%0, %1) : (tensor<9x13xf32>, tensor<2x2xi32>) -> (tensor<2x2x2xf32>, tensor<2xf32>)
    check.expect_eq_const(%2#0, dense<[[[3.5, -2.25], [7.0, -1.0]], [[4.25, 1.75], [-6.25, -6.25]]]> : tensor<2x2x2xf32>) : tensor<2x2x2xf32>
    check.expect_eq_const(%2#1, dense<[7.25, -6.5]> : tensor<2xf32>) : tensor<2xf32>
    return
  }
}
