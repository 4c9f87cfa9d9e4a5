// For the tests of compile_and_check.sh itself: one function that passes and
// one that fails (a wrong expectation in a test_ function).
module @runner {
  func.func public @test_passes() {
    %0 = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
    %1 = stablehlo.add %0, %0 : tensor<2xi32>
    check.expect_eq_const(%1, dense<[2, 4]> : tensor<2xi32>) : tensor<2xi32>
    return
  }

  func.func public @test_fails() {
    %0 = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
    %1 = stablehlo.add %0, %0 : tensor<2xi32>
    check.expect_eq_const(%1, dense<[2, 5]> : tensor<2xi32>) : tensor<2xi32>
    return
  }
}
