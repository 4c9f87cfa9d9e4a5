// stablehlo.square returns its operand's type.
// ERROR: square_result_type.mlir:4:8: error: 'stablehlo.square' returns its operand's type, got tensor<3xf64> from tensor<3xf32>
func.func @main(%a: tensor<3xf32>) -> tensor<3xf64> {
  %0 = "stablehlo.square"(%a) : (tensor<3xf32>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}
