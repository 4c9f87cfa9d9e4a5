// A dynamic_pad whose edge_padding_low is read from tensor data the host
// program does not read: an argument's i16 elements widened to i32. An
// i32 or i64 argument's own elements, and arithmetic on them, are read at
// the call (docs/compiler.md "Shapes read from data").
// ERROR: symbolic_pad_low_data.mlir:13:8: error: 'stablehlo.dynamic_pad' has an edge_padding_low element 0 that is not integer arithmetic on constants, dimensions and a function argument's i32 or i64 elements (a value read from other tensor data)
// ERROR: not supported yet
module @m {
func.func @main(%x: tensor<?x3xf32>, %low16: tensor<2xi16>) -> tensor<?x3xf32> {
  %zeros = stablehlo.constant dense<0> : tensor<2xi32>
  %pv = stablehlo.constant dense<0.0> : tensor<f32>
  %low = stablehlo.convert %low16 : (tensor<2xi16>) -> tensor<2xi32>
  // %low rows of padding before the operand.
  %y = stablehlo.dynamic_pad %x, %pv, %low, %zeros, %zeros : (tensor<?x3xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}
}
