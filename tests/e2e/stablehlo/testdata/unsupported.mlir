// For the tests of compile_and_check.sh itself: grt-compile rejects this.
func.func public @test_collective_permute() {
  %0 = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = "stablehlo.collective_permute"(%0) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  return
}
