func.func @main(%a: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  %0 = "stablehlo.collective_permute"(%a) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}
