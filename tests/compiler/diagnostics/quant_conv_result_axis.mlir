// A per-axis convolution result must be quantized along its output feature
// dimension (the spec's C30).
// ERROR: quant_conv_result_axis.mlir:7:8: error: 'stablehlo.convolution' has a per-axis result quantized along dimension 2 (the spec asks for its output feature dimension, 1): (tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5:1>>, tensor<3x2x3x3x!quant.uniform<i8:f32:0, {0.5:0, 0.25:0, 1.0:0}>>) -> tensor<1x3x4x4x!quant.uniform<i8:f32:2, {0.5:0, 0.25:0, 1.0:0, 2.0:0}>>
func.func @main(%a: tensor<1x2x4x4xi8>, %b: tensor<3x2x3x3xi8>) -> tensor<1x3x4x4xi8> {
  %0 = stablehlo.bitcast_convert %a : (tensor<1x2x4x4xi8>) -> tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5:1>>
  %1 = stablehlo.bitcast_convert %b : (tensor<3x2x3x3xi8>) -> tensor<3x2x3x3x!quant.uniform<i8:f32:0, {0.5:0, 0.25:0, 1.0:0}>>
  %2 = stablehlo.convolution(%0, %1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5:1>>, tensor<3x2x3x3x!quant.uniform<i8:f32:0, {0.5:0, 0.25:0, 1.0:0}>>) -> tensor<1x3x4x4x!quant.uniform<i8:f32:2, {0.5:0, 0.25:0, 1.0:0, 2.0:0}>>
  %3 = stablehlo.bitcast_convert %2 : (tensor<1x3x4x4x!quant.uniform<i8:f32:2, {0.5:0, 0.25:0, 1.0:0, 2.0:0}>>) -> tensor<1x3x4x4xi8>
  return %3 : tensor<1x3x4x4xi8>
}
