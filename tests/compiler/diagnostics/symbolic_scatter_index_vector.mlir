// A scatter's index vector must have a static length.
// ERROR: symbolic_scatter_index_vector.mlir:5:8: error: 'stablehlo.scatter' the index vector dimension 1 of the indices is symbolic
// ERROR: it must be static
func.func @main(%in: tensor<6x3xi32>, %i: tensor<2x?xi32>, %u: tensor<2x3xi32>) -> tensor<6x3xi32> {
  %0 = "stablehlo.scatter"(%in, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<6x3xi32>, tensor<2x?xi32>, tensor<2x3xi32>) -> tensor<6x3xi32>
  return %0 : tensor<6x3xi32>
}
