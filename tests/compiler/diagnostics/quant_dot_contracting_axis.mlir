// A per-axis rhs whose quantization dimension is contracted has no single
// scale per product; the spec forbids it and the error says which dim.
// ERROR: quant_dot_contracting_axis.mlir:7:8: error: 'stablehlo.dot_general' has a per-axis rhs quantized along contracting dimension 0 (the spec asks for a batching or free one): (tensor<2x3x!quant.uniform<i8:f32, 0.5:0>>, tensor<3x4x!quant.uniform<i8:f32:0, {0.5:0, 0.25:0, 1.0:0}>>) -> tensor<2x4x!quant.uniform<i8:f32, 1.0:0>>
func.func @main(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) -> tensor<2x4xi8> {
  %0 = stablehlo.bitcast_convert %a : (tensor<2x3xi8>) -> tensor<2x3x!quant.uniform<i8:f32, 0.5:0>>
  %1 = stablehlo.bitcast_convert %b : (tensor<3x4xi8>) -> tensor<3x4x!quant.uniform<i8:f32:0, {0.5:0, 0.25:0, 1.0:0}>>
  %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 0.5:0>>, tensor<3x4x!quant.uniform<i8:f32:0, {0.5:0, 0.25:0, 1.0:0}>>) -> tensor<2x4x!quant.uniform<i8:f32, 1.0:0>>
  %3 = stablehlo.bitcast_convert %2 : (tensor<2x4x!quant.uniform<i8:f32, 1.0:0>>) -> tensor<2x4xi8>
  return %3 : tensor<2x4xi8>
}
