// A dynamic_pad whose edge_padding_low is read from tensor data (an
// argument): a computed low or interior padding must be integer arithmetic
// on constants and dimensions, which the host program computes at the call.
// ERROR: symbolic_pad_low_data.mlir:11:8: error: 'stablehlo.dynamic_pad' has an edge_padding_low element 0 that is not integer arithmetic on constants and dimensions (a value read from tensor data)
// ERROR: not supported yet
module @m {
func.func @main(%x: tensor<?x3xf32>, %low: tensor<2xi32>) -> tensor<?x3xf32> {
  %zeros = stablehlo.constant dense<0> : tensor<2xi32>
  %pv = stablehlo.constant dense<0.0> : tensor<f32>
  // %low rows of padding before the operand.
  %y = stablehlo.dynamic_pad %x, %pv, %low, %zeros, %zeros : (tensor<?x3xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}
}
