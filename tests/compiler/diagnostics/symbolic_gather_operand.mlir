// A gather takes symbolic dimensions in its indices' batch only: rows
// looked up from a table whose size is symbolic are refused at the op.
// ERROR: symbolic_gather_operand.mlir:6:8: error: 'stablehlo.gather' operand 0 dimension 0 is symbolic (s0: argument 0 dimension 0 of @main)
// ERROR: a gather from a symbolic operand is not supported yet
func.func @main(%table: tensor<?x4xf32>, %ids: tensor<3xi32>) -> tensor<3x4xf32> {
  %0 = "stablehlo.gather"(%table, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>, indices_are_sorted = false} : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
