// ERROR: unsupported_complex.mlir:2:1: error: type 'tensor<2xcomplex<f32>>' is not supported
func.func @main(%a: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  return %a : tensor<2xcomplex<f32>>
}
