// A reassociation group's sizes multiply to its source dimension's size.
// ERROR: tensor_expand_shape_sizes.mlir:4:8: error: 'tensor.expand_shape' reassociation group 0 multiplies to 8, not 6
func.func @main(%a: tensor<6xf32>) -> tensor<2x4xf32> {
  %0 = tensor.expand_shape %a [[0, 1]] output_shape [2, 4] : tensor<6xf32> into tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
