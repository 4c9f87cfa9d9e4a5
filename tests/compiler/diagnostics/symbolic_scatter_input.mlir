// A scatter takes a symbolic number of updates, not a symbolic input.
// ERROR: symbolic_scatter_input.mlir:5:8: error: 'stablehlo.scatter' input 0 dimension 0 is symbolic (s0: argument 0 dimension 0 of @main)
// ERROR: a scatter into a symbolic input is not supported yet
func.func @main(%in: tensor<?x3xi32>, %i: tensor<2x1xi32>, %u: tensor<2x3xi32>) -> tensor<?x3xi32> {
  %0 = "stablehlo.scatter"(%in, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<?x3xi32>, tensor<2x1xi32>, tensor<2x3xi32>) -> tensor<?x3xi32>
  return %0 : tensor<?x3xi32>
}
