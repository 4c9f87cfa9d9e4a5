// A dynamic_pad whose edge_padding_high is computed at the call but whose
// result type was written static has no symbol to give the computed size.
// ERROR: symbolic_pad_static.mlir:15:8: error: 'stablehlo.dynamic_pad' edge_padding_high element 0 is computed at the call, but result dimension 0 (8) was written static
// ERROR: not supported yet
module @m {
func.func @main(%x: tensor<?x3xf32>) -> tensor<8x3xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
  %c8 = stablehlo.constant dense<8> : tensor<i32>
  %h = stablehlo.subtract %c8, %n : tensor<i32>
  %h1 = stablehlo.reshape %h : (tensor<i32>) -> tensor<1xi32>
  %z1 = stablehlo.constant dense<0> : tensor<1xi32>
  %high = stablehlo.concatenate %h1, %z1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %zeros = stablehlo.constant dense<0> : tensor<2xi32>
  %pv = stablehlo.constant dense<0.0> : tensor<f32>
  %y = stablehlo.dynamic_pad %x, %pv, %zeros, %high, %zeros : (tensor<?x3xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<8x3xf32>
  return %y : tensor<8x3xf32>
}
}
