// A reduce over 8-bit floats would run its body on the bit patterns: it
// is refused at the op, naming the type.
// ERROR: f8_reduce.mlir:6:8: error: 'stablehlo.reduce' on f8E5M2 tensors is not supported
func.func @main(%a: tensor<4xf8E5M2>) -> tensor<f8E5M2> {
  %init = stablehlo.constant dense<0.0> : tensor<f8E5M2>
  %0 = stablehlo.reduce(%a init: %init) applies stablehlo.add across dimensions = [0] : (tensor<4xf8E5M2>, tensor<f8E5M2>) -> tensor<f8E5M2>
  return %0 : tensor<f8E5M2>
}
