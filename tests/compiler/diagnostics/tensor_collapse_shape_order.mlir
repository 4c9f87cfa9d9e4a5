// Reassociation groups take the dimensions in order.
// ERROR: tensor_collapse_shape_order.mlir:4:8: error: 'tensor.collapse_shape' reassociation group 0 must continue the source type's dimensions in order (expected 0)
func.func @main(%a: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = tensor.collapse_shape %a [[1, 0]] : tensor<2x3xf32> into tensor<6xf32>
  return %0 : tensor<6xf32>
}
