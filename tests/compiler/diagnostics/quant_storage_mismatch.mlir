// Elementwise ops may requantize (scales and zero points differ) but keep
// one storage type: i8 plus i4 is not an add the spec defines.
// ERROR: quant_storage_mismatch.mlir:5:8: error: 'stablehlo.add' needs one storage type, storage range, expressed type and quantization dimension on its quantized operands and results (scales and zero points may differ): (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<4x!quant.uniform<i4:f32, 0.25:1>>) -> tensor<4x!quant.uniform<i8:f32, 0.1:100>>
func.func @main(%a: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, %b: tensor<4x!quant.uniform<i4:f32, 0.25:1>>) -> tensor<4x!quant.uniform<i8:f32, 0.1:100>> {
  %0 = stablehlo.add %a, %b : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<4x!quant.uniform<i4:f32, 0.25:1>>) -> tensor<4x!quant.uniform<i8:f32, 0.1:100>>
  return %0 : tensor<4x!quant.uniform<i8:f32, 0.1:100>>
}
