// For the tests of compile_and_check.sh itself: grt-compile rejects this.
func.func public @test_fft() {
  %0 = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = stablehlo.fft %0, type = RFFT, length = [2] : (tensor<2xf32>) -> tensor<2xcomplex<f32>>
  return
}
