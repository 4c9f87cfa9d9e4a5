// ERROR: unsupported_complex.mlir:3:8: error: 'stablehlo.remainder' on complex types is not supported: (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
func.func @main(%a: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = stablehlo.remainder %a, %a : tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}
