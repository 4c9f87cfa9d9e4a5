// dynamic_gather takes its slice sizes as a third operand.
// ERROR: dynamic_gather_operands.mlir:5:8: error: 'stablehlo.dynamic_gather' takes 3 operands (the last its slice_sizes) and has 1 result
// ERROR: found 2 and 1
func.func @main(%t: tensor<10x4xf32>, %ids: tensor<3x1xi32>) -> tensor<3x4xf32> {
  %g = "stablehlo.dynamic_gather"(%t, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false} : (tensor<10x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return %g : tensor<3x4xf32>
}
