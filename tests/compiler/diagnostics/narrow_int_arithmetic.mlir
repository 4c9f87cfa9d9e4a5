// i2/i4 tensors are held one per byte: arithmetic would not wrap at their
// width, so it is refused at the op.
// ERROR: narrow_int_arithmetic.mlir:5:8: error: 'stablehlo.add' on i2/i4 tensors is not supported (they take constants, convert, compare, select, maximum, minimum, clamp, ops that move values and bitcast_convert to the same width and signedness): (tensor<4xi4>, tensor<4xi4>) -> tensor<4xi4>
func.func @main(%a: tensor<4xi4>) -> tensor<4xi4> {
  %0 = stablehlo.add %a, %a : tensor<4xi4>
  return %0 : tensor<4xi4>
}
