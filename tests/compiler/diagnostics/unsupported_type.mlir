// Unranked tensors are not supported: the type is named where it is used.
// ERROR: unsupported_type.mlir:4:8: error: type 'tensor<*xf32>' is not supported
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.convert"(%a) : (tensor<4xf32>) -> tensor<*xf32>
  return %a : tensor<4xf32>
}
