// An op the compiler does not implement, in the generic form JAX prints.
// ERROR: unknown_op.mlir:5:8: error: 'stablehlo.fft' is not supported
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %a : tensor<4xf32>
  %1 = "stablehlo.fft"(%0) {fft_length = array<i64: 4>, fft_type = #stablehlo<fft_type FFT>} : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
