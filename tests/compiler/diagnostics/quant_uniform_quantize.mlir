// uniform_quantize gives a quantized tensor of its operand's shape.
// ERROR: quant_uniform_quantize.mlir:4:8: error: 'stablehlo.uniform_quantize' takes a float or quantized tensor and gives a quantized tensor of the same shape: (tensor<4xi32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:0>>
func.func @main(%a: tensor<4xi32>) -> tensor<4xf32> {
  %0 = stablehlo.uniform_quantize %a : (tensor<4xi32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:0>>
  %1 = stablehlo.uniform_dequantize %0 : (tensor<4x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
