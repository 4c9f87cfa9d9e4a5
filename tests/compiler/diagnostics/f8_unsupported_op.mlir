// 8-bit floats are held as their bit patterns; ops other than convert,
// compare, elementwise ops (computed in f32), reduce, ops that move values
// and the check ops are refused at the op, naming the type.
// ERROR: f8_unsupported_op.mlir:6:8: error: 'stablehlo.dot_general' on f8E4M3FN tensors is not supported (8-bit floats take constants, convert, bitcast_convert, compare, select, elementwise ops (computed in f32 and rounded back), reduce, ops that move values and the check ops): (tensor<2x3xf8E4M3FN>, tensor<3x2xf8E4M3FN>) -> tensor<2x2xf8E4M3FN>
func.func @main(%a: tensor<2x3xf8E4M3FN>, %b: tensor<3x2xf8E4M3FN>) -> tensor<2x2xf8E4M3FN> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf8E4M3FN>, tensor<3x2xf8E4M3FN>) -> tensor<2x2xf8E4M3FN>
  return %0 : tensor<2x2xf8E4M3FN>
}
