// A scatter's update windows must have static sizes.
// ERROR: symbolic_scatter_window.mlir:5:8: error: 'stablehlo.scatter' updates window dimension 1 is symbolic (s2: argument 2 dimension 1 of @main)
// ERROR: only the number of updates may be symbolic
func.func @main(%in: tensor<6x3xi32>, %i: tensor<?x1xi32>, %u: tensor<?x?xi32>) -> tensor<6x3xi32> {
  %0 = "stablehlo.scatter"(%in, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<6x3xi32>, tensor<?x1xi32>, tensor<?x?xi32>) -> tensor<6x3xi32>
  return %0 : tensor<6x3xi32>
}
