// With a loc(...), the diagnostic names the source the location points at.
// ERROR: model.py:42:7: error: 'stablehlo.fft' is not supported
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.fft"(%a) {fft_length = array<i64: 4>, fft_type = #stablehlo<fft_type FFT>} : (tensor<4xf32>) -> tensor<4xf32> loc(#loc1)
  return %0 : tensor<4xf32>
}
#loc0 = loc("model.py":42:7)
#loc1 = loc("jit(f)/fft"(#loc0))
