// dynamic_gather's slice sizes are integers.
// ERROR: dynamic_gather_float_sizes.mlir:5:8: error: 'stablehlo.dynamic_gather' slice_sizes operand has type tensor<2xf32>, expected a rank-1 integer tensor
func.func @main(%t: tensor<10x4xf32>, %ids: tensor<3x1xi32>) -> tensor<3x4xf32> {
  %ss = stablehlo.constant dense<[1.0, 4.0]> : tensor<2xf32>
  %g = "stablehlo.dynamic_gather"(%t, %ids, %ss) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false} : (tensor<10x4xf32>, tensor<3x1xi32>, tensor<2xf32>) -> tensor<3x4xf32>
  return %g : tensor<3x4xf32>
}
