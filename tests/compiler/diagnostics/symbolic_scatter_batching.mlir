// A scatter's indices batching dimensions must be static.
// ERROR: symbolic_scatter_batching.mlir:5:8: error: 'stablehlo.scatter' indices batching dimension 0 is symbolic
// ERROR: a scatter with symbolic batching dimensions is not supported yet
func.func @main(%in: tensor<2x6xi32>, %i: tensor<?x1xi32>, %u: tensor<?xi32>) -> tensor<2x6xi32> {
  %0 = "stablehlo.scatter"(%in, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>} : (tensor<2x6xi32>, tensor<?x1xi32>, tensor<?xi32>) -> tensor<2x6xi32>
  return %0 : tensor<2x6xi32>
}
