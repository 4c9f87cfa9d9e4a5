module @seed {
  func.func public @test_per_axis() {
    %0 = util.unfoldable_constant dense<[[2.25e+00, 1.2632685e+01, -6.2237296e+00], [-1.8206472e+01, 2.8638902e+00, -1.4150183e+01]]> : tensor<2x3xf32>
    %1 = stablehlo.uniform_quantize %0 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:-10, 0.1:5}>>
    %2 = stablehlo.bitcast_convert %1 : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:-10, 0.1:5}>>) -> tensor<2x3xi8>
    check.expect_eq_const(%2, dense<[[4, 41, -57], [-36, 1, -128]]> : tensor<2x3xi8>) : tensor<2x3xi8>
    %3 = stablehlo.uniform_dequantize %1 : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:-10, 0.1:5}>>) -> tensor<2x3xf32>
    check.expect_almost_eq_const(%3, dense<[[2.0e+00, 1.275e+01, -6.2000003e+00], [-1.8e+01, 2.75e+00, -1.33e+01]]> : tensor<2x3xf32>, atol 0.0e+00, rtol 0.0e+00) : tensor<2x3xf32>
    %4 = stablehlo.transpose %1, dims = [1, 0] : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5:0, 0.25:-10, 0.1:5}>>) -> tensor<3x2x!quant.uniform<i8:f32:0, {0.5:0, 0.25:-10, 0.1:5}>>
    %5 = stablehlo.bitcast_convert %4 : (tensor<3x2x!quant.uniform<i8:f32:0, {0.5:0, 0.25:-10, 0.1:5}>>) -> tensor<3x2xi8>
    check.expect_eq_const(%5, dense<[[4, -36], [41, 1], [-57, -128]]> : tensor<3x2xi8>) : tensor<3x2xi8>
    return
  }

  // Quantized add with three different quantizations, and with one.
}
