// i2/i4 tensors are held one per byte: popcnt would count the holder's
// sign-extension bits, so it is refused at the op.
// ERROR: narrow_int_arithmetic.mlir:5:8: error: 'stablehlo.popcnt' on i2/i4 tensors is not supported (they take constants, convert, compare, select, maximum, minimum, clamp, elementwise arithmetic and bit ops other than popcnt, count_leading_zeros and the shift right that would lose the sign, ops that move values and bitcast_convert): (tensor<4xi4>) -> tensor<4xi4>
func.func @main(%a: tensor<4xi4>) -> tensor<4xi4> {
  %0 = stablehlo.popcnt %a : tensor<4xi4>
  return %0 : tensor<4xi4>
}
