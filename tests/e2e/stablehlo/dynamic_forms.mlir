// IREE's forms for values whose dimensions are written '?':
// flow.tensor.dynamic_constant, tensor.cast between static and '?' types,
// check.expect_eq on '?'-typed values, zero-size dense<> index tensors,
// dynamic_gather slice sizes from util.unfoldable_constant, and scatter
// with a symbolic number of updates (called at several counts).
//
// Written by hand (not generated). Run by grt-check: test_* functions must
// pass, fail_* functions must fail.
module @e2e_dynamic_forms {
  // Rows of a table picked by a '?'-long list of ids.
  func.func private @rows(%a: tensor<3x4xi32>, %i: tensor<?x1xi64>) -> tensor<?x4xi32> {
    %r = "stablehlo.gather"(%a, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>, indices_are_sorted = false} : (tensor<3x4xi32>, tensor<?x1xi64>) -> tensor<?x4xi32>
    return %r : tensor<?x4xi32>
  }

  // Adds a '?'-long list of rows into a 6x3 input at the rows the indices
  // name (an index past the end skips its row).
  func.func private @scatter_rows(%in: tensor<6x3xi32>, %i: tensor<?x1xi32>, %u: tensor<?x3xi32>) -> tensor<6x3xi32> {
    %0 = "stablehlo.scatter"(%in, %i, %u) ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = stablehlo.add %x, %y : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false} : (tensor<6x3xi32>, tensor<?x1xi32>, tensor<?x3xi32>) -> tensor<6x3xi32>
    return %0 : tensor<6x3xi32>
  }

  // A gather from a dynamic constant by dynamic constant ids (one out of
  // range: clamped to the last row), compared with a static constant cast
  // to the result's '?' type.
  func.func public @test_dynamic_constant_gather() {
    %a = flow.tensor.dynamic_constant dense<[[10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]]> : tensor<3x4xi32> -> tensor<?x4xi32>
    %i = flow.tensor.dynamic_constant dense<[[2], [-1], [3], [1]]> : tensor<4x1xi64> -> tensor<?x1xi64>
    %r = "stablehlo.gather"(%a, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>, indices_are_sorted = false} : (tensor<?x4xi32>, tensor<?x1xi64>) -> tensor<?x4xi32>
    %e = arith.constant dense<[[30, 31, 32, 33], [10, 11, 12, 13], [30, 31, 32, 33], [20, 21, 22, 23]]> : tensor<4x4xi32>
    %ed = tensor.cast %e : tensor<4x4xi32> to tensor<?x4xi32>
    check.expect_eq(%r, %ed) : tensor<?x4xi32>
    %n = stablehlo.get_dimension_size %r, dim = 0 : (tensor<?x4xi32>) -> tensor<i32>
    check.expect_eq_const(%n, dense<4> : tensor<i32>) : tensor<i32>
    return
  }

  // A '?' value cast back to its static type.
  func.func public @test_cast_to_static() {
    %a = flow.tensor.dynamic_constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xf32> -> tensor<?x?xf32>
    %b = stablehlo.add %a, %a : tensor<?x?xf32>
    %s = tensor.cast %b : tensor<?x?xf32> to tensor<3x2xf32>
    check.expect_eq_const(%s, dense<[[2.0, 4.0], [6.0, 8.0], [10.0, 12.0]]> : tensor<3x2xf32>) : tensor<3x2xf32>
    return
  }

  // check.expect_eq on '?'-typed values that differ must fail.
  func.func public @fail_dynamic_eq() {
    %a = flow.tensor.dynamic_constant dense<[1, 2, 3]> : tensor<3xi32> -> tensor<?xi32>
    %b = flow.tensor.dynamic_constant dense<[1, 2, 4]> : tensor<3xi32> -> tensor<?xi32>
    check.expect_eq(%a, %b) : tensor<?xi32>
    return
  }

  // A zero-size dense<> list of ids: the gather has no rows.
  func.func public @test_gather_no_ids() {
    %a = util.unfoldable_constant dense<[[10, 11, 12, 13]]> : tensor<1x4xi32>
    %i = flow.tensor.dynamic_constant dense<> : tensor<0x1xi32> -> tensor<?x1xi32>
    %r = "stablehlo.gather"(%a, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>, indices_are_sorted = false} : (tensor<1x4xi32>, tensor<?x1xi32>) -> tensor<?x4xi32>
    %n = stablehlo.get_dimension_size %r, dim = 0 : (tensor<?x4xi32>) -> tensor<i32>
    check.expect_eq_const(%n, dense<0> : tensor<i32>) : tensor<i32>
    return
  }

  // The symbolic gather called with 0, 1 and 5 ids.
  func.func public @test_rows_0() {
    %a = util.unfoldable_constant dense<[[10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]]> : tensor<3x4xi32>
    %i = util.unfoldable_constant dense<> : tensor<0x1xi64>
    %r = func.call @rows(%a, %i) : (tensor<3x4xi32>, tensor<0x1xi64>) -> tensor<0x4xi32>
    %n = stablehlo.get_dimension_size %r, dim = 0 : (tensor<0x4xi32>) -> tensor<i32>
    check.expect_eq_const(%n, dense<0> : tensor<i32>) : tensor<i32>
    return
  }

  func.func public @test_rows_1() {
    %a = util.unfoldable_constant dense<[[10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]]> : tensor<3x4xi32>
    %i = util.unfoldable_constant dense<[[1]]> : tensor<1x1xi64>
    %r = func.call @rows(%a, %i) : (tensor<3x4xi32>, tensor<1x1xi64>) -> tensor<1x4xi32>
    check.expect_eq_const(%r, dense<[[20, 21, 22, 23]]> : tensor<1x4xi32>) : tensor<1x4xi32>
    return
  }

  func.func public @test_rows_5() {
    %a = util.unfoldable_constant dense<[[10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]]> : tensor<3x4xi32>
    %i = util.unfoldable_constant dense<[[2], [0], [0], [1], [2]]> : tensor<5x1xi64>
    %r = func.call @rows(%a, %i) : (tensor<3x4xi32>, tensor<5x1xi64>) -> tensor<5x4xi32>
    check.expect_eq_const(%r, dense<[[30, 31, 32, 33], [10, 11, 12, 13], [10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]]> : tensor<5x4xi32>) : tensor<5x4xi32>
    return
  }

  // dynamic_gather whose slice sizes are an unfoldable constant (grt reads
  // its value, as for a constant).
  func.func public @test_dynamic_gather_unfoldable_sizes() {
    %a = util.unfoldable_constant dense<[[0, 1, 2, 3, 4, 5, 6, 7], [10, 11, 12, 13, 14, 15, 16, 17], [20, 21, 22, 23, 24, 25, 26, 27]]> : tensor<3x8xi32>
    %i = util.unfoldable_constant dense<[[1, 6], [2, 0]]> : tensor<2x2xi64>
    %s = util.unfoldable_constant dense<[1, 2]> : tensor<2xi64>
    %r = "stablehlo.dynamic_gather"(%a, %i, %s) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false} : (tensor<3x8xi32>, tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi32>
    check.expect_eq_const(%r, dense<[[16, 17], [20, 21]]> : tensor<2x2xi32>) : tensor<2x2xi32>
    return
  }

  // A scatter of dynamic constant updates ('?' of them).
  func.func public @test_scatter_dynamic_constant() {
    %in = util.unfoldable_constant dense<1> : tensor<6x3xi32>
    %i = flow.tensor.dynamic_constant dense<[[2], [4]]> : tensor<2x1xi32> -> tensor<?x1xi32>
    %u = flow.tensor.dynamic_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32> -> tensor<?x3xi32>
    %r = "stablehlo.scatter"(%in, %i, %u) ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = stablehlo.add %x, %y : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false} : (tensor<6x3xi32>, tensor<?x1xi32>, tensor<?x3xi32>) -> tensor<6x3xi32>
    check.expect_eq_const(%r, dense<[[1, 1, 1], [1, 1, 1], [2, 3, 4], [1, 1, 1], [5, 6, 7], [1, 1, 1]]> : tensor<6x3xi32>) : tensor<6x3xi32>
    return
  }

  // The symbolic scatter called with 0, 1 and 5 updates (repeated rows add
  // up; index 6 is past the end and skipped).
  func.func public @test_scatter_rows_0() {
    %in = util.unfoldable_constant dense<1> : tensor<6x3xi32>
    %i = util.unfoldable_constant dense<> : tensor<0x1xi32>
    %u = util.unfoldable_constant dense<> : tensor<0x3xi32>
    %r = func.call @scatter_rows(%in, %i, %u) : (tensor<6x3xi32>, tensor<0x1xi32>, tensor<0x3xi32>) -> tensor<6x3xi32>
    check.expect_eq_const(%r, dense<1> : tensor<6x3xi32>) : tensor<6x3xi32>
    return
  }

  func.func public @test_scatter_rows_1() {
    %in = util.unfoldable_constant dense<1> : tensor<6x3xi32>
    %i = util.unfoldable_constant dense<[[5]]> : tensor<1x1xi32>
    %u = util.unfoldable_constant dense<[[7, 8, 9]]> : tensor<1x3xi32>
    %r = func.call @scatter_rows(%in, %i, %u) : (tensor<6x3xi32>, tensor<1x1xi32>, tensor<1x3xi32>) -> tensor<6x3xi32>
    check.expect_eq_const(%r, dense<[[1, 1, 1], [1, 1, 1], [1, 1, 1], [1, 1, 1], [1, 1, 1], [8, 9, 10]]> : tensor<6x3xi32>) : tensor<6x3xi32>
    return
  }

  func.func public @test_scatter_rows_5() {
    %in = util.unfoldable_constant dense<1> : tensor<6x3xi32>
    %i = util.unfoldable_constant dense<[[0], [3], [0], [6], [2]]> : tensor<5x1xi32>
    %u = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6], [10, 20, 30], [100, 100, 100], [7, 7, 7]]> : tensor<5x3xi32>
    %r = func.call @scatter_rows(%in, %i, %u) : (tensor<6x3xi32>, tensor<5x1xi32>, tensor<5x3xi32>) -> tensor<6x3xi32>
    check.expect_eq_const(%r, dense<[[12, 23, 34], [1, 1, 1], [8, 8, 8], [5, 6, 7], [1, 1, 1], [1, 1, 1]]> : tensor<6x3xi32>) : tensor<6x3xi32>
    return
  }
}
