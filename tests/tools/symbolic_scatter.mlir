// A scatter of a symbolic number of updates (run_symbolic_scatter*.test).
func.func @main(%in: tensor<6x3xi32>, %i: tensor<?x1xi32>, %u: tensor<?x3xi32>) -> tensor<6x3xi32> {
  %0 = "stablehlo.scatter"(%in, %i, %u) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %s = stablehlo.add %x, %y : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<6x3xi32>, tensor<?x1xi32>, tensor<?x3xi32>) -> tensor<6x3xi32>
  return %0 : tensor<6x3xi32>
}
