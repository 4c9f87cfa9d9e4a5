// A dynamic_pad whose edge_padding_low is read from tensor data the host
// program does not read: an argument's i64 elements narrowed to i32 (a
// value that would wrap). Its own elements, and arithmetic on them, are
// read at the call (docs/compiler.md "Shapes read from data").
// ERROR: symbolic_pad_low_data.mlir:13:8: error: 'stablehlo.dynamic_pad' has an edge_padding_low element 0 that is not integer arithmetic on constants, dimensions and a function argument's i32 or i64 elements (a value read from other tensor data)
// ERROR: not supported yet
module @m {
func.func @main(%x: tensor<?x3xf32>, %low64: tensor<2xi64>) -> tensor<?x3xf32> {
  %zeros = stablehlo.constant dense<0> : tensor<2xi32>
  %pv = stablehlo.constant dense<0.0> : tensor<f32>
  %low = stablehlo.convert %low64 : (tensor<2xi64>) -> tensor<2xi32>
  // %low rows of padding before the operand.
  %y = stablehlo.dynamic_pad %x, %pv, %low, %zeros, %zeros : (tensor<?x3xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}
}
