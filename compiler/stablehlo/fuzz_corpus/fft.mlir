func.func @f(%a: tensor<2x8xf32>, %b: tensor<4x3xcomplex<f32>>) -> (tensor<2x8xf32>, tensor<4x3xcomplex<f32>>) {
  %0 = stablehlo.fft %a, type = RFFT, length = [8] : (tensor<2x8xf32>) -> tensor<2x5xcomplex<f32>>
  %1 = "stablehlo.fft"(%0) {fft_type = #stablehlo<fft_type IRFFT>, fft_length = array<i64: 8>} : (tensor<2x5xcomplex<f32>>) -> tensor<2x8xf32>
  %2 = stablehlo.fft %b, type = FFT, length = [4, 3] : (tensor<4x3xcomplex<f32>>) -> tensor<4x3xcomplex<f32>>
  %3 = stablehlo.fft %2, type = IFFT, length = [3] : (tensor<4x3xcomplex<f32>>) -> tensor<4x3xcomplex<f32>>
  return %1, %3 : tensor<2x8xf32>, tensor<4x3xcomplex<f32>>
}
