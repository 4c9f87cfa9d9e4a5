// bitcast_convert of an i4 tensor keeps its width and signedness: the
// values are held one per byte, so other widths have no bits to reread.
// ERROR: narrow_int_bitcast.mlir:5:8: error: 'stablehlo.bitcast_convert' on i2/i4 tensors is not supported (they take constants, convert, compare, select, maximum, minimum, clamp, elementwise arithmetic and bit ops other than popcnt, count_leading_zeros and the shift right that would lose the sign, ops that move values and bitcast_convert to the same width and signedness): (tensor<4xi4>) -> tensor<4x!quant.uniform<ui4:f32, 0.5:1>>
func.func @main(%a: tensor<4xi4>) -> tensor<4xf32> {
  %0 = stablehlo.bitcast_convert %a : (tensor<4xi4>) -> tensor<4x!quant.uniform<ui4:f32, 0.5:1>>
  %1 = stablehlo.uniform_dequantize %0 : (tensor<4x!quant.uniform<ui4:f32, 0.5:1>>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
