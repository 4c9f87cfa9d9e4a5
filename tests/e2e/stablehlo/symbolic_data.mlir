// dynamic_reshape, dynamic_broadcast_in_dim and dynamic_iota whose shape,
// dynamic_pad whose padding and real_dynamic_slice whose limits are read
// from tensor data at the call (written by hand; the expected values
// worked out with numpy): the shape operand is a function argument (i32
// and i64) or computed from one, the result
// dimensions are extents the host program loads from the argument's buffer
// (docs/compiler.md "Shapes read from data"). Each function is called at
// several shapes, none with a -1, one of them empty; a static caller's
// result type is checked against the extents the callee read. Run by
// grt-check: test_* functions must pass, fail_* must fail (an element count
// that differs from the operand's, a negative size, a negative low or
// interior padding, an operand dimension a broadcast cannot take, a
// slice's limit outside its start and the operand).
module @e2e_symbolic_data {
  // x viewed as the 2-D shape %shape holds, doubled, and its rows summed.
  func.func private @view2(%x: tensor<?xf32>, %shape: tensor<2xi32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
    %y = stablehlo.dynamic_reshape %x, %shape : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
    %two = stablehlo.constant dense<2.0> : tensor<f32>
    %tb = stablehlo.broadcast_in_dim %two, dims = [] : (tensor<f32>) -> tensor<?x?xf32>
    %d = stablehlo.multiply %y, %tb : tensor<?x?xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
    return %d, %s : tensor<?x?xf32>, tensor<?xf32>
  }
  // A static operand viewed as the 3-D shape an i64 argument holds, transposed.
  func.func private @view3(%x: tensor<12xf32>, %shape: tensor<3xi64>) -> tensor<?x?x?xf32> {
    %y = stablehlo.dynamic_reshape %x, %shape : (tensor<12xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    %t = stablehlo.transpose %y, dims = [2, 1, 0] : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    return %t : tensor<?x?x?xf32>
  }
  // The shape computed from an argument: [shape[0] / 2, shape[1]].
  func.func private @halved(%x: tensor<?xf32>, %shape: tensor<2xi32>) -> tensor<?x?xf32> {
    %k = stablehlo.constant dense<[2, 1]> : tensor<2xi32>
    %h = stablehlo.divide %shape, %k : tensor<2xi32>
    %y = stablehlo.dynamic_reshape %x, %h : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
    return %y : tensor<?x?xf32>
  }

  func.func public @test_view2_3x4() {
    %x = util.unfoldable_constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]> : tensor<12xf32>
    %s = util.unfoldable_constant dense<[3, 4]> : tensor<2xi32>
    %r:2 = func.call @view2(%x, %s) : (tensor<12xf32>, tensor<2xi32>) -> (tensor<3x4xf32>, tensor<3xf32>)
    check.expect_eq_const(%r#0, dense<[[0.0, 2.0, 4.0, 6.0], [8.0, 10.0, 12.0, 14.0], [16.0, 18.0, 20.0, 22.0]]> : tensor<3x4xf32>) : tensor<3x4xf32>
    check.expect_eq_const(%r#1, dense<[6.0, 22.0, 38.0]> : tensor<3xf32>) : tensor<3xf32>
    return
  }
  func.func public @test_view2_2x6() {
    %x = util.unfoldable_constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]> : tensor<12xf32>
    %s = util.unfoldable_constant dense<[2, 6]> : tensor<2xi32>
    %r:2 = func.call @view2(%x, %s) : (tensor<12xf32>, tensor<2xi32>) -> (tensor<2x6xf32>, tensor<2xf32>)
    check.expect_eq_const(%r#0, dense<[[0.0, 2.0, 4.0, 6.0, 8.0, 10.0], [12.0, 14.0, 16.0, 18.0, 20.0, 22.0]]> : tensor<2x6xf32>) : tensor<2x6xf32>
    check.expect_eq_const(%r#1, dense<[15.0, 51.0]> : tensor<2xf32>) : tensor<2xf32>
    return
  }
  // An empty operand viewed as 4 rows of 0: the sums are the init value.
  func.func public @test_view2_4x0() {
    %x = util.unfoldable_constant dense<> : tensor<0xf32>
    %s = util.unfoldable_constant dense<[4, 0]> : tensor<2xi32>
    %r:2 = func.call @view2(%x, %s) : (tensor<0xf32>, tensor<2xi32>) -> (tensor<4x0xf32>, tensor<4xf32>)
    check.expect_eq_const(%r#1, dense<[0.0, 0.0, 0.0, 0.0]> : tensor<4xf32>) : tensor<4xf32>
    return
  }
  // The caller's type must be what the data says.
  func.func public @fail_view2_type() {
    %x = util.unfoldable_constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]> : tensor<12xf32>
    %s = util.unfoldable_constant dense<[3, 4]> : tensor<2xi32>
    %r:2 = func.call @view2(%x, %s) : (tensor<12xf32>, tensor<2xi32>) -> (tensor<4x3xf32>, tensor<4xf32>)
    check.expect_eq_const(%r#1, dense<[3.0, 12.0, 21.0, 30.0]> : tensor<4xf32>) : tensor<4xf32>
    return
  }
  // 5 x 3 is not 12 elements.
  func.func public @fail_view2_count() {
    %x = util.unfoldable_constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]> : tensor<12xf32>
    %s = util.unfoldable_constant dense<[5, 3]> : tensor<2xi32>
    %r:2 = func.call @view2(%x, %s) : (tensor<12xf32>, tensor<2xi32>) -> (tensor<5x3xf32>, tensor<5xf32>)
    check.expect_eq_const(%r#1, dense<[0.0, 0.0, 0.0, 0.0, 0.0]> : tensor<5xf32>) : tensor<5xf32>
    return
  }
  // -3 x -4 has 12 elements but negative sizes.
  func.func public @fail_view2_negative() {
    %x = util.unfoldable_constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]> : tensor<12xf32>
    %s = util.unfoldable_constant dense<[-3, -4]> : tensor<2xi32>
    %r:2 = func.call @view2(%x, %s) : (tensor<12xf32>, tensor<2xi32>) -> (tensor<3x4xf32>, tensor<3xf32>)
    check.expect_eq_const(%r#1, dense<[6.0, 22.0, 38.0]> : tensor<3xf32>) : tensor<3xf32>
    return
  }
  func.func public @test_view3_2x3x2() {
    %x = util.unfoldable_constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]> : tensor<12xf32>
    %s = util.unfoldable_constant dense<[2, 3, 2]> : tensor<3xi64>
    %r = func.call @view3(%x, %s) : (tensor<12xf32>, tensor<3xi64>) -> tensor<2x3x2xf32>
    check.expect_eq_const(%r, dense<[[[0.0, 6.0], [2.0, 8.0], [4.0, 10.0]], [[1.0, 7.0], [3.0, 9.0], [5.0, 11.0]]]> : tensor<2x3x2xf32>) : tensor<2x3x2xf32>
    return
  }
  func.func public @test_view3_1x12x1() {
    %x = util.unfoldable_constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]> : tensor<12xf32>
    %s = util.unfoldable_constant dense<[1, 12, 1]> : tensor<3xi64>
    %r = func.call @view3(%x, %s) : (tensor<12xf32>, tensor<3xi64>) -> tensor<1x12x1xf32>
    check.expect_eq_const(%r, dense<[[[0.0], [1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0], [8.0], [9.0], [10.0], [11.0]]]> : tensor<1x12x1xf32>) : tensor<1x12x1xf32>
    return
  }
  // An i64 size beyond 32 bits: 2^32 x 1 x 0 has 0 elements, but its
  // extent does not fit the kernels' push constants.
  func.func public @fail_view3_wide() {
    %x = util.unfoldable_constant dense<> : tensor<0xf32>
    %s = util.unfoldable_constant dense<[4294967296, 1, 0]> : tensor<3xi64>
    %r = func.call @view3_any(%x, %s) : (tensor<0xf32>, tensor<3xi64>) -> tensor<0x1x4294967296xf32>
    return
  }
  func.func private @view3_any(%x: tensor<?xf32>, %shape: tensor<3xi64>) -> tensor<?x?x?xf32> {
    %y = stablehlo.dynamic_reshape %x, %shape : (tensor<?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    %t = stablehlo.transpose %y, dims = [2, 1, 0] : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    return %t : tensor<?x?x?xf32>
  }
  func.func public @test_halved_8x3() {
    %x = util.unfoldable_constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]> : tensor<12xf32>
    %s = util.unfoldable_constant dense<[8, 3]> : tensor<2xi32>
    %r = func.call @halved(%x, %s) : (tensor<12xf32>, tensor<2xi32>) -> tensor<4x3xf32>
    check.expect_eq_const(%r, dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]> : tensor<4x3xf32>) : tensor<4x3xf32>
    return
  }

  // dynamic_pad with its low, high and interior padding read from data:
  // x padded with -1, and its sum (docs/compiler.md "Shapes read from data").
  func.func private @padded(%x: tensor<?xf32>, %low: tensor<1xi32>, %high: tensor<1xi32>, %interior: tensor<1xi32>) -> (tensor<?xf32>, tensor<f32>) {
    %pv = stablehlo.constant dense<-1.0> : tensor<f32>
    %y = stablehlo.dynamic_pad %x, %pv, %low, %high, %interior : (tensor<?xf32>, tensor<f32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [0] : (tensor<?xf32>, tensor<f32>) -> tensor<f32>
    return %y, %s : tensor<?xf32>, tensor<f32>
  }
  func.func public @test_pad_1_2_1() {
    %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %l = util.unfoldable_constant dense<[1]> : tensor<1xi32>
    %h = util.unfoldable_constant dense<[2]> : tensor<1xi32>
    %i = util.unfoldable_constant dense<[1]> : tensor<1xi32>
    %r:2 = func.call @padded(%x, %l, %h, %i) : (tensor<3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<8xf32>, tensor<f32>)
    check.expect_eq_const(%r#0, dense<[-1.0, 1.0, -1.0, 2.0, -1.0, 3.0, -1.0, -1.0]> : tensor<8xf32>) : tensor<8xf32>
    check.expect_eq_const(%r#1, dense<1.0> : tensor<f32>) : tensor<f32>
    return
  }
  func.func public @test_pad_2_0_2() {
    %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %l = util.unfoldable_constant dense<[2]> : tensor<1xi32>
    %h = util.unfoldable_constant dense<[0]> : tensor<1xi32>
    %i = util.unfoldable_constant dense<[2]> : tensor<1xi32>
    %r:2 = func.call @padded(%x, %l, %h, %i) : (tensor<3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<9xf32>, tensor<f32>)
    check.expect_eq_const(%r#0, dense<[-1.0, -1.0, 1.0, -1.0, -1.0, 2.0, -1.0, -1.0, 3.0]> : tensor<9xf32>) : tensor<9xf32>
    check.expect_eq_const(%r#1, dense<0.0> : tensor<f32>) : tensor<f32>
    return
  }
  // A negative high padding crops: [1, 2, 3] to [1].
  func.func public @test_pad_crop() {
    %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %l = util.unfoldable_constant dense<[0]> : tensor<1xi32>
    %h = util.unfoldable_constant dense<[-2]> : tensor<1xi32>
    %i = util.unfoldable_constant dense<[0]> : tensor<1xi32>
    %r:2 = func.call @padded(%x, %l, %h, %i) : (tensor<3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<1xf32>, tensor<f32>)
    check.expect_eq_const(%r#0, dense<[1.0]> : tensor<1xf32>) : tensor<1xf32>
    check.expect_eq_const(%r#1, dense<1.0> : tensor<f32>) : tensor<f32>
    return
  }
  // Cropped to nothing: the sum is the init value.
  func.func public @test_pad_crop_all() {
    %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %l = util.unfoldable_constant dense<[0]> : tensor<1xi32>
    %h = util.unfoldable_constant dense<[-3]> : tensor<1xi32>
    %i = util.unfoldable_constant dense<[0]> : tensor<1xi32>
    %r:2 = func.call @padded(%x, %l, %h, %i) : (tensor<3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<0xf32>, tensor<f32>)
    check.expect_eq_const(%r#1, dense<0.0> : tensor<f32>) : tensor<f32>
    return
  }
  // An empty operand: only the edges (no interior between no elements).
  func.func public @test_pad_empty() {
    %x = util.unfoldable_constant dense<> : tensor<0xf32>
    %l = util.unfoldable_constant dense<[2]> : tensor<1xi32>
    %h = util.unfoldable_constant dense<[1]> : tensor<1xi32>
    %i = util.unfoldable_constant dense<[3]> : tensor<1xi32>
    %r:2 = func.call @padded(%x, %l, %h, %i) : (tensor<0xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<3xf32>, tensor<f32>)
    check.expect_eq_const(%r#0, dense<[-1.0, -1.0, -1.0]> : tensor<3xf32>) : tensor<3xf32>
    check.expect_eq_const(%r#1, dense<-3.0> : tensor<f32>) : tensor<f32>
    return
  }
  // A negative low padding read from data would crop: refused at the call.
  func.func public @fail_pad_low() {
    %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %l = util.unfoldable_constant dense<[-1]> : tensor<1xi32>
    %h = util.unfoldable_constant dense<[0]> : tensor<1xi32>
    %i = util.unfoldable_constant dense<[0]> : tensor<1xi32>
    %r:2 = func.call @padded(%x, %l, %h, %i) : (tensor<3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<2xf32>, tensor<f32>)
    check.expect_eq_const(%r#1, dense<0.0> : tensor<f32>) : tensor<f32>
    return
  }
  // A negative interior padding: refused at the call.
  func.func public @fail_pad_interior() {
    %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %l = util.unfoldable_constant dense<[0]> : tensor<1xi32>
    %h = util.unfoldable_constant dense<[0]> : tensor<1xi32>
    %i = util.unfoldable_constant dense<[-1]> : tensor<1xi32>
    %r:2 = func.call @padded(%x, %l, %h, %i) : (tensor<3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<1xf32>, tensor<f32>)
    check.expect_eq_const(%r#1, dense<0.0> : tensor<f32>) : tensor<f32>
    return
  }
  // A high padding cropping past the operand: a negative size.
  func.func public @fail_pad_size() {
    %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %l = util.unfoldable_constant dense<[0]> : tensor<1xi32>
    %h = util.unfoldable_constant dense<[-4]> : tensor<1xi32>
    %i = util.unfoldable_constant dense<[0]> : tensor<1xi32>
    %r:2 = func.call @padded(%x, %l, %h, %i) : (tensor<3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<0xf32>, tensor<f32>)
    check.expect_eq_const(%r#1, dense<0.0> : tensor<f32>) : tensor<f32>
    return
  }
  // The caller's type must be the padded size the data gives (5, not 4).
  func.func public @fail_pad_type() {
    %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %l = util.unfoldable_constant dense<[1]> : tensor<1xi32>
    %h = util.unfoldable_constant dense<[1]> : tensor<1xi32>
    %i = util.unfoldable_constant dense<[0]> : tensor<1xi32>
    %r:2 = func.call @padded(%x, %l, %h, %i) : (tensor<3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<4xf32>, tensor<f32>)
    check.expect_eq_const(%r#1, dense<0.0> : tensor<f32>) : tensor<f32>
    return
  }

  // dynamic_broadcast_in_dim to the shape an argument holds: a column
  // widened (i64 shape) and a row tiled (i32), with the row sums.
  func.func private @widen(%x: tensor<?x1xf32>, %shape: tensor<2xi64>) -> (tensor<?x?xf32>, tensor<?xf32>) {
    %y = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
    return %y, %s : tensor<?x?xf32>, tensor<?xf32>
  }
  func.func private @tile(%x: tensor<3xf32>, %shape: tensor<2xi32>) -> tensor<?x?xf32> {
    %y = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [1] : (tensor<3xf32>, tensor<2xi32>) -> tensor<?x?xf32>
    return %y : tensor<?x?xf32>
  }
  func.func public @test_widen_2x3() {
    %x = util.unfoldable_constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
    %s = util.unfoldable_constant dense<[2, 3]> : tensor<2xi64>
    %r:2 = func.call @widen(%x, %s) : (tensor<2x1xf32>, tensor<2xi64>) -> (tensor<2x3xf32>, tensor<2xf32>)
    check.expect_eq_const(%r#0, dense<[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
    check.expect_eq_const(%r#1, dense<[3.0, 6.0]> : tensor<2xf32>) : tensor<2xf32>
    return
  }
  // Widened to 0 columns: the sums are the init value.
  func.func public @test_widen_2x0() {
    %x = util.unfoldable_constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
    %s = util.unfoldable_constant dense<[2, 0]> : tensor<2xi64>
    %r:2 = func.call @widen(%x, %s) : (tensor<2x1xf32>, tensor<2xi64>) -> (tensor<2x0xf32>, tensor<2xf32>)
    check.expect_eq_const(%r#1, dense<[0.0, 0.0]> : tensor<2xf32>) : tensor<2xf32>
    return
  }
  func.func public @test_tile_2x3() {
    %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %s = util.unfoldable_constant dense<[2, 3]> : tensor<2xi32>
    %r = func.call @tile(%x, %s) : (tensor<3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
    check.expect_eq_const(%r, dense<[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
    return
  }
  // 0 rows of the tile: an empty result of the static caller's type.
  func.func public @test_tile_0x3() {
    %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %s = util.unfoldable_constant dense<[0, 3]> : tensor<2xi32>
    %r = func.call @tile(%x, %s) : (tensor<3xf32>, tensor<2xi32>) -> tensor<0x3xf32>
    return
  }
  // 3 rows from a 2-row column: operand dimension 0 is neither 1 nor 3.
  func.func public @fail_widen_rows() {
    %x = util.unfoldable_constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
    %s = util.unfoldable_constant dense<[3, 3]> : tensor<2xi64>
    %r:2 = func.call @widen(%x, %s) : (tensor<2x1xf32>, tensor<2xi64>) -> (tensor<3x3xf32>, tensor<3xf32>)
    check.expect_eq_const(%r#1, dense<[3.0, 6.0, 0.0]> : tensor<3xf32>) : tensor<3xf32>
    return
  }
  // A 3-element row tiled to 4 columns, and to 1 (a static 3 does not
  // shrink).
  func.func public @fail_tile_4() {
    %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %s = util.unfoldable_constant dense<[2, 4]> : tensor<2xi32>
    %r = func.call @tile(%x, %s) : (tensor<3xf32>, tensor<2xi32>) -> tensor<2x4xf32>
    check.expect_eq_const(%r, dense<0.0> : tensor<2x4xf32>) : tensor<2x4xf32>
    return
  }
  func.func public @fail_tile_1() {
    %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %s = util.unfoldable_constant dense<[2, 1]> : tensor<2xi32>
    %r = func.call @tile(%x, %s) : (tensor<3xf32>, tensor<2xi32>) -> tensor<2x1xf32>
    check.expect_eq_const(%r, dense<[[1.0], [1.0]]> : tensor<2x1xf32>) : tensor<2x1xf32>
    return
  }
  // A negative size read from data.
  func.func public @fail_widen_negative() {
    %x = util.unfoldable_constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
    %s = util.unfoldable_constant dense<[2, -1]> : tensor<2xi64>
    %r:2 = func.call @widen(%x, %s) : (tensor<2x1xf32>, tensor<2xi64>) -> (tensor<2x0xf32>, tensor<2xf32>)
    check.expect_eq_const(%r#1, dense<[0.0, 0.0]> : tensor<2xf32>) : tensor<2xf32>
    return
  }

  // dynamic_iota to the shape an argument holds (i64), counting along
  // dimension 0, and a 1-D one of shape[0] + 1 elements (arithmetic on an
  // i32 argument's element).
  func.func private @ramp(%shape: tensor<2xi64>) -> tensor<?x?xf32> {
    %y = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi64>) -> tensor<?x?xf32>
    return %y : tensor<?x?xf32>
  }
  func.func private @count(%n: tensor<1xi32>) -> tensor<?xi32> {
    %one = stablehlo.constant dense<1> : tensor<1xi32>
    %m = stablehlo.add %n, %one : tensor<1xi32>
    %y = stablehlo.dynamic_iota %m, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
    return %y : tensor<?xi32>
  }
  func.func public @test_ramp_3x2() {
    %s = util.unfoldable_constant dense<[3, 2]> : tensor<2xi64>
    %r = func.call @ramp(%s) : (tensor<2xi64>) -> tensor<3x2xf32>
    check.expect_eq_const(%r, dense<[[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]> : tensor<3x2xf32>) : tensor<3x2xf32>
    return
  }
  func.func public @test_ramp_1x4() {
    %s = util.unfoldable_constant dense<[1, 4]> : tensor<2xi64>
    %r = func.call @ramp(%s) : (tensor<2xi64>) -> tensor<1x4xf32>
    check.expect_eq_const(%r, dense<[[0.0, 0.0, 0.0, 0.0]]> : tensor<1x4xf32>) : tensor<1x4xf32>
    return
  }
  // 0 rows: an empty result of the static caller's type.
  func.func public @test_ramp_0x2() {
    %s = util.unfoldable_constant dense<[0, 2]> : tensor<2xi64>
    %r = func.call @ramp(%s) : (tensor<2xi64>) -> tensor<0x2xf32>
    return
  }
  func.func public @test_count_4() {
    %n = util.unfoldable_constant dense<[4]> : tensor<1xi32>
    %r = func.call @count(%n) : (tensor<1xi32>) -> tensor<5xi32>
    check.expect_eq_const(%r, dense<[0, 1, 2, 3, 4]> : tensor<5xi32>) : tensor<5xi32>
    return
  }
  // -1 + 1 elements: empty.
  func.func public @test_count_0() {
    %n = util.unfoldable_constant dense<[-1]> : tensor<1xi32>
    %r = func.call @count(%n) : (tensor<1xi32>) -> tensor<0xi32>
    return
  }
  func.func public @fail_ramp_negative() {
    %s = util.unfoldable_constant dense<[3, -2]> : tensor<2xi64>
    %r = func.call @ramp(%s) : (tensor<2xi64>) -> tensor<3x0xf32>
    return
  }
  // The caller's type must be what the data says (5 elements, not 4).
  func.func public @fail_count_type() {
    %n = util.unfoldable_constant dense<[4]> : tensor<1xi32>
    %r = func.call @count(%n) : (tensor<1xi32>) -> tensor<4xi32>
    check.expect_eq_const(%r, dense<[0, 1, 2, 3]> : tensor<4xi32>) : tensor<4xi32>
    return
  }

  // real_dynamic_slice whose limits an argument holds: every other element
  // from 1 (an i64 limit) and a 2-D corner from [0, 1] (i32 limits).
  func.func private @every_other(%x: tensor<?xf32>, %limit: tensor<1xi64>) -> tensor<?xf32> {
    %start = stablehlo.constant dense<1> : tensor<1xi64>
    %stride = stablehlo.constant dense<2> : tensor<1xi64>
    %y = stablehlo.real_dynamic_slice %x, %start, %limit, %stride : (tensor<?xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
    return %y : tensor<?xf32>
  }
  func.func private @corner(%x: tensor<3x4xf32>, %limits: tensor<2xi32>) -> tensor<?x?xf32> {
    %start = stablehlo.constant dense<[0, 1]> : tensor<2xi32>
    %stride = stablehlo.constant dense<1> : tensor<2xi32>
    %y = stablehlo.real_dynamic_slice %x, %start, %limits, %stride : (tensor<3x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xf32>
    return %y : tensor<?x?xf32>
  }
  func.func public @test_every_other_6() {
    %x = util.unfoldable_constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<6xf32>
    %l = util.unfoldable_constant dense<[6]> : tensor<1xi64>
    %r = func.call @every_other(%x, %l) : (tensor<6xf32>, tensor<1xi64>) -> tensor<3xf32>
    check.expect_eq_const(%r, dense<[1.0, 3.0, 5.0]> : tensor<3xf32>) : tensor<3xf32>
    return
  }
  func.func public @test_every_other_5() {
    %x = util.unfoldable_constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<6xf32>
    %l = util.unfoldable_constant dense<[5]> : tensor<1xi64>
    %r = func.call @every_other(%x, %l) : (tensor<6xf32>, tensor<1xi64>) -> tensor<2xf32>
    check.expect_eq_const(%r, dense<[1.0, 3.0]> : tensor<2xf32>) : tensor<2xf32>
    return
  }
  func.func public @test_every_other_2() {
    %x = util.unfoldable_constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<6xf32>
    %l = util.unfoldable_constant dense<[2]> : tensor<1xi64>
    %r = func.call @every_other(%x, %l) : (tensor<6xf32>, tensor<1xi64>) -> tensor<1xf32>
    check.expect_eq_const(%r, dense<[1.0]> : tensor<1xf32>) : tensor<1xf32>
    return
  }
  func.func public @test_every_other_1() {
    %x = util.unfoldable_constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<6xf32>
    %l = util.unfoldable_constant dense<[1]> : tensor<1xi64>
    %r = func.call @every_other(%x, %l) : (tensor<6xf32>, tensor<1xi64>) -> tensor<0xf32>
    return
  }
  // A limit past the operand (6 elements; the caller's 3 is the size it
  // gives, so only the limit check fails).
  func.func public @fail_every_other_7() {
    %x = util.unfoldable_constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<6xf32>
    %l = util.unfoldable_constant dense<[7]> : tensor<1xi64>
    %r = func.call @every_other(%x, %l) : (tensor<6xf32>, tensor<1xi64>) -> tensor<3xf32>
    return
  }
  // A limit below the start 1 (its size, (0 - 1 + 1) / 2, is 0).
  func.func public @fail_every_other_0() {
    %x = util.unfoldable_constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<6xf32>
    %l = util.unfoldable_constant dense<[0]> : tensor<1xi64>
    %r = func.call @every_other(%x, %l) : (tensor<6xf32>, tensor<1xi64>) -> tensor<0xf32>
    return
  }
  func.func public @test_corner_2x3() {
    %x = util.unfoldable_constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32>
    %l = util.unfoldable_constant dense<[2, 3]> : tensor<2xi32>
    %r = func.call @corner(%x, %l) : (tensor<3x4xf32>, tensor<2xi32>) -> tensor<2x2xf32>
    check.expect_eq_const(%r, dense<[[1.0, 2.0], [5.0, 6.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
    return
  }
  func.func public @test_corner_3x4() {
    %x = util.unfoldable_constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32>
    %l = util.unfoldable_constant dense<[3, 4]> : tensor<2xi32>
    %r = func.call @corner(%x, %l) : (tensor<3x4xf32>, tensor<2xi32>) -> tensor<3x3xf32>
    check.expect_eq_const(%r, dense<[[1.0, 2.0, 3.0], [5.0, 6.0, 7.0], [9.0, 10.0, 11.0]]> : tensor<3x3xf32>) : tensor<3x3xf32>
    return
  }
  // 4 rows of 3.
  func.func public @fail_corner_rows() {
    %x = util.unfoldable_constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32>
    %l = util.unfoldable_constant dense<[4, 4]> : tensor<2xi32>
    %r = func.call @corner(%x, %l) : (tensor<3x4xf32>, tensor<2xi32>) -> tensor<4x3xf32>
    return
  }
}
