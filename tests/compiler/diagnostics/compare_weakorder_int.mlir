// WEAKORDER orders floats (NaNs equal and above +Inf); integers have no NaN.
// ERROR: compare_weakorder_int.mlir:4:8: error: 'stablehlo.compare' with comparison_type WEAKORDER takes f16, bf16, f32 or f64 operands: (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
func.func @main(%a: tensor<3xi32>, %b: tensor<3xi32>) -> tensor<3xi1> {
  %0 = stablehlo.compare LT, %a, %b, WEAKORDER : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}
