// linalg.generic on tensors (parallel and reduction loops, permuted,
// projected, broadcast and unit-dimension indexing maps, linalg.index,
// values from outside the body, two results, the generic form),
// tensor.empty (static and with '?' sizes), and tensor.expand_shape /
// tensor.collapse_shape (static, '?' and generic forms), as IREE's tests
// build index lists. Expected values computed with numpy.
//
// Written by hand (not generated). Run by grt-check: test_* functions must
// pass, fail_* functions must fail.
module @e2e_linalg_generic {
  // 0..4 as a 5x1 index list: tensor.empty, linalg.index, index_cast,
  // expand_shape (IREE's scatter tests build their indices so).
  func.func public @test_index_list() {
    %init = tensor.empty() : tensor<5xi32>
    %i = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%init : tensor<5xi32>) {
    ^bb0(%o: i32):
      %0 = linalg.index 0 : index
      %1 = arith.index_cast %0 : index to i32
      linalg.yield %1 : i32
    } -> tensor<5xi32>
    %r = tensor.expand_shape %i [[0, 1]] output_shape [5, 1] : tensor<5xi32> into tensor<5x1xi32>
    check.expect_eq_const(%r, dense<[[0], [1], [2], [3], [4]]> : tensor<5x1xi32>) : tensor<5x1xi32>
    return
  }

  // out[j, i] = a[i, j] * 2 + b[j]: an output written transposed, an
  // input broadcast along d0, a body constant.
  func.func public @test_transpose_broadcast() {
    %a = util.unfoldable_constant dense<[[1.5, -2.0, 3.0], [0.25, 4.0, -1.0]]> : tensor<2x3xf32>
    %b = util.unfoldable_constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
    %init = tensor.empty() : tensor<3x2xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<2x3xf32>, tensor<3xf32>) outs(%init : tensor<3x2xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %two = arith.constant 2.0 : f32
      %0 = arith.mulf %x, %two : f32
      %1 = arith.addf %0, %y : f32
      linalg.yield %1 : f32
    } -> tensor<3x2xf32>
    check.expect_eq_const(%r, dense<[[13.0, 10.5], [16.0, 28.0], [36.0, 28.0]]> : tensor<3x2xf32>) : tensor<3x2xf32>
    return
  }

  // out[i, j] = i * 10 + j + c, with c defined outside the body.
  func.func public @test_index_2d_capture() {
    %c = arith.constant 100 : i32
    %init = tensor.empty() : tensor<3x4xi32>
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%init : tensor<3x4xi32>) {
    ^bb0(%o: i32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %ten = arith.constant 10 : index
      %0 = arith.muli %i, %ten : index
      %1 = arith.addi %0, %j : index
      %2 = arith.index_cast %1 : index to i32
      %3 = arith.addi %2, %c : i32
      linalg.yield %3 : i32
    } -> tensor<3x4xi32>
    check.expect_eq_const(%r, dense<[[100, 101, 102, 103], [110, 111, 112, 113], [120, 121, 122, 123]]> : tensor<3x4xi32>) : tensor<3x4xi32>
    return
  }

  // out[d0, d2] = init[d0, d2] + sum over d1 of x^2 (a reduction loop in
  // the middle).
  func.func public @test_sum_of_squares() {
    %x = util.unfoldable_constant dense<[[[-5.0, -4.5, -4.0, -3.5], [-3.0, -2.5, -2.0, -1.5], [-1.0, -0.5, 0.0, 0.5]], [[1.0, 1.5, 2.0, 2.5], [3.0, 3.5, 4.0, 4.5], [5.0, 5.5, 6.0, 6.5]]]> : tensor<2x3x4xf32>
    %init = util.unfoldable_constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : tensor<2x3x4xf32>) outs(%init : tensor<2x4xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %sq = arith.mulf %in, %in : f32
      %s = arith.addf %sq, %acc : f32
      linalg.yield %s : f32
    } -> tensor<2x4xf32>
    check.expect_eq_const(%r, dense<[[36.0, 28.75, 23.0, 18.75], [40.0, 50.75, 63.0, 76.75]]> : tensor<2x4xf32>) : tensor<2x4xf32>
    return
  }

  // out[d1] = max(init[d1], max over d0 of y[d0, d1]) (the accumulator
  // first).
  func.func public @test_column_max() {
    %y = util.unfoldable_constant dense<[[3, -7, 2], [9, -1, -5], [-4, -8, 6], [0, -2, 1]]> : tensor<4x3xi32>
    %init = util.unfoldable_constant dense<[5, -3, 7]> : tensor<3xi32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%y : tensor<4x3xi32>) outs(%init : tensor<3xi32>) {
    ^bb0(%in: i32, %acc: i32):
      %m = arith.maxsi %acc, %in : i32
      linalg.yield %m : i32
    } -> tensor<3xi32>
    check.expect_eq_const(%r, dense<[9, -1, 7]> : tensor<3xi32>) : tensor<3xi32>
    return
  }

  // A sum over d1 written to a transposed 4x2 output.
  func.func public @test_sum_transposed_output() {
    %z = util.unfoldable_constant dense<[[[-20, -17, -14, -11], [-8, -5, -2, 1], [4, 7, 10, 13]], [[16, 19, 22, 25], [28, 31, 34, 37], [40, 43, 46, 49]]]> : tensor<2x3x4xi32>
    %init = util.unfoldable_constant dense<1> : tensor<4x2xi32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2, d0)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%z : tensor<2x3x4xi32>) outs(%init : tensor<4x2xi32>) {
    ^bb0(%in: i32, %acc: i32):
      %s = arith.addi %acc, %in : i32
      linalg.yield %s : i32
    } -> tensor<4x2xi32>
    check.expect_eq_const(%r, dense<[[-23, 85], [-14, 94], [-5, 103], [4, 112]]> : tensor<4x2xi32>) : tensor<4x2xi32>
    return
  }

  // A unit dimension indexed by 0: out[d0, d1] = u[0, d1] - v[d0].
  func.func public @test_unit_dimension() {
    %u = util.unfoldable_constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
    %v = util.unfoldable_constant dense<[10.0, 20.0]> : tensor<2xf32>
    %init = tensor.empty() : tensor<2x3xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%u, %v : tensor<1x3xf32>, tensor<2xf32>) outs(%init : tensor<2x3xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %d = arith.subf %a, %b : f32
      linalg.yield %d : f32
    } -> tensor<2x3xf32>
    check.expect_eq_const(%r, dense<[[-9.0, -8.0, -7.0], [-19.0, -18.0, -17.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
    return
  }

  // Two results: the sum and the larger of p and q (cmpf and select).
  func.func public @test_two_results() {
    %p = util.unfoldable_constant dense<[1.0, 5.0, -2.0, 8.0]> : tensor<4xf32>
    %q = util.unfoldable_constant dense<[3.0, 4.0, -2.0, -9.0]> : tensor<4xf32>
    %e0 = tensor.empty() : tensor<4xf32>
    %e1 = tensor.empty() : tensor<4xf32>
    %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%p, %q : tensor<4xf32>, tensor<4xf32>) outs(%e0, %e1 : tensor<4xf32>, tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32, %o0: f32, %o1: f32):
      %s = arith.addf %a, %b : f32
      %gt = arith.cmpf ogt, %a, %b : f32
      %m = arith.select %gt, %a, %b : f32
      linalg.yield %s, %m : f32, f32
    } -> (tensor<4xf32>, tensor<4xf32>)
    check.expect_eq_const(%r#0, dense<[4.0, 9.0, -4.0, -1.0]> : tensor<4xf32>) : tensor<4xf32>
    check.expect_eq_const(%r#1, dense<[3.0, 5.0, -2.0, 8.0]> : tensor<4xf32>) : tensor<4xf32>
    return
  }

  // The generic forms of linalg.generic (negate, math.absf) and
  // tensor.expand_shape.
  func.func public @test_generic_forms() {
    %a = util.unfoldable_constant dense<[1.0, -2.0, 3.0, -4.0, 5.0, -6.0]> : tensor<6xf32>
    %init = tensor.empty() : tensor<6xf32>
    %r = "linalg.generic"(%a, %init) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%x: f32, %o: f32):
      %n = "math.absf"(%x) : (f32) -> f32
      %m = "arith.negf"(%n) : (f32) -> f32
      "linalg.yield"(%m) : (f32) -> ()
    }) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    %e = "tensor.expand_shape"(%r) <{reassociation = [[0, 1]], static_output_shape = array<i64: 2, 3>}> : (tensor<6xf32>) -> tensor<2x3xf32>
    check.expect_eq_const(%e, dense<[[-1.0, -2.0, -3.0], [-4.0, -5.0, -6.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
    return
  }

  // collapse_shape and expand_shape with static sizes.
  func.func public @test_collapse_expand() {
    %x = util.unfoldable_constant dense<[[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]]> : tensor<2x3x4xi32>
    %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x3x4xi32> into tensor<6x4xi32>
    %e = tensor.expand_shape %c [[0], [1, 2]] output_shape [6, 2, 2] : tensor<6x4xi32> into tensor<6x2x2xi32>
    %f = tensor.collapse_shape %e [[0, 1, 2]] : tensor<6x2x2xi32> into tensor<24xi32>
    %s = stablehlo.slice %f [5:9] : (tensor<24xi32>) -> tensor<4xi32>
    check.expect_eq_const(%s, dense<[5, 6, 7, 8]> : tensor<4xi32>) : tensor<4xi32>
    %row = stablehlo.slice %c [4:5, 0:4] : (tensor<6x4xi32>) -> tensor<1x4xi32>
    check.expect_eq_const(%row, dense<[[16, 17, 18, 19]]> : tensor<1x4xi32>) : tensor<1x4xi32>
    %pair = stablehlo.slice %e [5:6, 1:2, 0:2] : (tensor<6x2x2xi32>) -> tensor<1x1x2xi32>
    check.expect_eq_const(%pair, dense<[[[22, 23]]]> : tensor<1x1x2xi32>) : tensor<1x1x2xi32>
    return
  }

  // '?' sizes: expand_shape with an output_shape value, collapse_shape of
  // a '?' dimension, tensor.empty of a '?' size.
  func.func public @test_symbolic_reshapes() {
    %x = util.unfoldable_constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]> : tensor<6x4xi32>
    %d = tensor.cast %x : tensor<6x4xi32> to tensor<?x4xi32>
    %n = arith.constant 2 : index
    %e = tensor.expand_shape %d [[0, 1], [2]] output_shape [%n, 3, 4] : tensor<?x4xi32> into tensor<?x3x4xi32>
    %s = stablehlo.slice %e [1:2, 2:3, 0:4] : (tensor<?x3x4xi32>) -> tensor<1x1x4xi32>
    check.expect_eq_const(%s, dense<[[[20, 21, 22, 23]]]> : tensor<1x1x4xi32>) : tensor<1x1x4xi32>
    %c = tensor.collapse_shape %e [[0, 1], [2]] : tensor<?x3x4xi32> into tensor<?x4xi32>
    check.expect_eq(%c, %d) : tensor<?x4xi32>
    %m = arith.constant 3 : index
    %z = tensor.empty(%m) : tensor<?x2xf32>
    %size = stablehlo.get_dimension_size %z, dim = 0 : (tensor<?x2xf32>) -> tensor<i32>
    check.expect_eq_const(%size, dense<3> : tensor<i32>) : tensor<i32>
    return
  }

  // Every loop a reduction: a product into a rank-0 output.
  func.func public @test_full_product() {
    %a = util.unfoldable_constant dense<[[1.5, -2.0], [4.0, 0.5]]> : tensor<2x2xf32>
    %init = util.unfoldable_constant dense<3.0> : tensor<f32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%a : tensor<2x2xf32>) outs(%init : tensor<f32>) {
    ^bb0(%x: f32, %acc: f32):
      %p = arith.mulf %x, %acc : f32
      linalg.yield %p : f32
    } -> tensor<f32>
    check.expect_eq_const(%r, dense<-18.0> : tensor<f32>) : tensor<f32>
    return
  }

  // A wrong expectation: must fail.
  func.func public @fail_index_list() {
    %init = tensor.empty() : tensor<3xi32>
    %i = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%init : tensor<3xi32>) {
    ^bb0(%o: i32):
      %0 = linalg.index 0 : index
      %1 = arith.index_cast %0 : index to i32
      linalg.yield %1 : i32
    } -> tensor<3xi32>
    check.expect_eq_const(%i, dense<[0, 1, 3]> : tensor<3xi32>) : tensor<3xi32>
    return
  }
}
