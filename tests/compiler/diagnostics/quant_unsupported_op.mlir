// A quantized op grt has no lowering for names the op and its types.
// ERROR: quant_unsupported_op.mlir:6:8: error: 'stablehlo.reduce' on quantized types is not supported (its body would requantize every step): (tensor<4x!quant.uniform<i8:f32, 0.5:0>>, tensor<!quant.uniform<i8:f32, 0.5:0>>) -> tensor<!quant.uniform<i8:f32, 0.5:0>>
func.func @main(%a: tensor<4xf32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.uniform_quantize %a : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:0>>
  %1 = stablehlo.uniform_quantize %b : (tensor<f32>) -> tensor<!quant.uniform<i8:f32, 0.5:0>>
  %2 = stablehlo.reduce(%0 init: %1) applies stablehlo.add across dimensions = [0] : (tensor<4x!quant.uniform<i8:f32, 0.5:0>>, tensor<!quant.uniform<i8:f32, 0.5:0>>) -> tensor<!quant.uniform<i8:f32, 0.5:0>>
  %3 = stablehlo.uniform_dequantize %2 : (tensor<!quant.uniform<i8:f32, 0.5:0>>) -> tensor<f32>
  return %3 : tensor<f32>
}
