// A quantized constant holds stored values, each within the storage range.
// ERROR: quant_constant_range.mlir:4:8: error: quantized constant element 2 is 9, outside the storage range [-8, 7] of '!quant.uniform<i4:f32, 0.5:0>'
func.func @main() -> tensor<3xf32> {
  %0 = stablehlo.constant dense<[1, -2, 9]> : tensor<3x!quant.uniform<i4:f32, 0.5:0>>
  %1 = stablehlo.uniform_dequantize %0 : (tensor<3x!quant.uniform<i4:f32, 0.5:0>>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}
