// A quantized convolution lhs needs a quantized rhs (the spec's C28; a
// float lhs with a quantized rhs is weight-only quantization).
// ERROR: quant_conv_float_rhs.mlir:7:8: error: 'stablehlo.convolution' has a quantized lhs and a float rhs (the spec asks for a quantized rhs with it): (tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5:1>>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x4x!quant.uniform<i8:f32, 1.0:0>>
func.func @main(%a: tensor<1x2x4x4xi8>, %b: tensor<3x2x3x3xi32>) -> tensor<1x3x4x4xi8> {
  %0 = stablehlo.bitcast_convert %a : (tensor<1x2x4x4xi8>) -> tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5:1>>
  %1 = stablehlo.bitcast_convert %b : (tensor<3x2x3x3xi32>) -> tensor<3x2x3x3xf32>
  %2 = stablehlo.convolution(%0, %1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5:1>>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x4x!quant.uniform<i8:f32, 1.0:0>>
  %3 = stablehlo.bitcast_convert %2 : (tensor<1x3x4x4x!quant.uniform<i8:f32, 1.0:0>>) -> tensor<1x3x4x4xi8>
  return %3 : tensor<1x3x4x4xi8>
}
