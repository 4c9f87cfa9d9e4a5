// A quantized NCHW convolution on the stored i8 (run_quantized_conv.test).
func.func @main(%x: tensor<1x2x3x3x!quant.uniform<i8:f32, 0.5:1>>, %w: tensor<2x2x2x2x!quant.uniform<i8:f32:0, {0.25:0, 0.5:1}>>) -> tensor<1x2x4x4x!quant.uniform<i8:f32, 1.0:-2>> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x3x3x!quant.uniform<i8:f32, 0.5:1>>, tensor<2x2x2x2x!quant.uniform<i8:f32:0, {0.25:0, 0.5:1}>>) -> tensor<1x2x4x4x!quant.uniform<i8:f32, 1.0:-2>>
  return %0 : tensor<1x2x4x4x!quant.uniform<i8:f32, 1.0:-2>>
}
