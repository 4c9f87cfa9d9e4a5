// A per-axis quantization dimension must be a dimension of the tensor.
// ERROR: quant_axis_range.mlir:4:8: error: quantized type '!quant.uniform<i8:f32:2, {0.5:0, 0.25:1}>': quantization dimension 2 is out of range for a rank-2 tensor
func.func @main(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.uniform_quantize %a : (tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i8:f32:2, {0.5:0, 0.25:1}>>
  %1 = stablehlo.uniform_dequantize %0 : (tensor<2x2x!quant.uniform<i8:f32:2, {0.5:0, 0.25:1}>>) -> tensor<2x2xf32>
  return %1 : tensor<2x2xf32>
}
