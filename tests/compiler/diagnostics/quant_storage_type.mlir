// The storage type of a quantized type is an integer type.
// ERROR: quant_storage_type.mlir:4:8: error: quantized type '!quant.uniform<f16:f32, 0.5:0>': the storage type must be an integer type (i2, i4, i8, i16, i32 or ui2..ui32), given 'f16'
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.uniform_quantize %a : (tensor<4xf32>) -> tensor<4x!quant.uniform<f16:f32, 0.5:0>>
  %1 = stablehlo.uniform_dequantize %0 : (tensor<4x!quant.uniform<f16:f32, 0.5:0>>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
