// A zero point must be a storage value (within the storage range).
// ERROR: quant_zero_point_range.mlir:4:8: error: quantized type '!quant.uniform<i8<-100:100>:f32, 0.5:120>': zero point 120 is outside the storage range [-100, 100]
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.uniform_quantize %a : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8<-100:100>:f32, 0.5:120>>
  %1 = stablehlo.uniform_dequantize %0 : (tensor<4x!quant.uniform<i8<-100:100>:f32, 0.5:120>>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
