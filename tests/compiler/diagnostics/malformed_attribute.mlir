// ERROR: malformed_attribute.mlir:3:8: error: 'permutation' must be a list of at most 64 integers (array<i64: ...>), found "1, 0"
func.func @main(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = "stablehlo.transpose"(%a) {permutation = "1, 0"} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
