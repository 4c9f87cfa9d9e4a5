// Ops that move quantized values need one quantization on both sides.
// ERROR: quant_mismatched_scales.mlir:5:8: error: 'stablehlo.reshape' moves quantized values: its quantized operands and results must have the same quantization (scales and zero points): (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.25:-3>>
func.func @main(%a: tensor<4xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.uniform_quantize %a : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  %1 = stablehlo.reshape %0 : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.25:-3>>
  %2 = stablehlo.uniform_dequantize %1 : (tensor<2x2x!quant.uniform<i8:f32, 0.25:-3>>) -> tensor<2x2xf32>
  return %2 : tensor<2x2xf32>
}
