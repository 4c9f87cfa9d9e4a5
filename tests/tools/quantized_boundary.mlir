// Quantized arguments and results are their stored integers at the call:
// i8 as i8, i4 one value per byte in i8 (run_quantized_boundary.test).
func.func @main(%a: tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, %b: tensor<4x!quant.uniform<i4:f32, 0.25:1>>) -> (tensor<4x!quant.uniform<ui8:f32, 0.1:100>>, tensor<4xf32>) {
  %0 = stablehlo.uniform_dequantize %b : (tensor<4x!quant.uniform<i4:f32, 0.25:1>>) -> tensor<4xf32>
  %1 = stablehlo.uniform_quantize %0 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  %2 = stablehlo.add %a, %1 : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>, tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.1:100>>
  %3 = stablehlo.uniform_quantize %2 : (tensor<4x!quant.uniform<i8:f32, 0.1:100>>) -> tensor<4x!quant.uniform<ui8:f32, 0.1:100>>
  %4 = stablehlo.uniform_dequantize %3 : (tensor<4x!quant.uniform<ui8:f32, 0.1:100>>) -> tensor<4xf32>
  return %3, %4 : tensor<4x!quant.uniform<ui8:f32, 0.1:100>>, tensor<4xf32>
}
