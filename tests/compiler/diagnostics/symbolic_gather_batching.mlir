// A gather takes a symbolic operand dimension except a batching one: a
// batch of tables whose count is symbolic is refused at the op.
// ERROR: symbolic_gather_batching.mlir:6:8: error: 'stablehlo.gather' operand 0 dimension 0 is symbolic (s0: argument 0 dimension 0 of @main) and a batching dimension
// ERROR: a gather with symbolic batching dimensions is not supported yet
func.func @main(%tables: tensor<?x5xf32>, %ids: tensor<3x1xi32>) -> tensor<3xf32> {
  %0 = "stablehlo.gather"(%tables, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>, indices_are_sorted = false} : (tensor<?x5xf32>, tensor<3x1xi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
