// A dynamic_pad whose edge_padding_low is computed at the call: the kernels
// place the operand with constant low and interior padding, so only its
// edge_padding_high may be computed.
// ERROR: symbolic_pad_low.mlir:15:8: error: 'stablehlo.dynamic_pad' has an edge_padding_low or interior_padding element 0 that is not a constant
// ERROR: only its edge_padding_high may be computed at the call
module @m {
func.func @main(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %z1 = stablehlo.constant dense<0> : tensor<1xi32>
  %low = stablehlo.concatenate %n1, %z1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %zeros = stablehlo.constant dense<0> : tensor<2xi32>
  %pv = stablehlo.constant dense<0.0> : tensor<f32>
  // n rows of padding before the operand.
  %y = stablehlo.dynamic_pad %x, %pv, %low, %zeros, %zeros : (tensor<?x3xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}
}
