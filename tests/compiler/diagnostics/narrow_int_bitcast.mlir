// bitcast_convert packs i4 values into wider integers (two per i8) and
// unpacks them: the i4 tensor needs a last dimension of the width ratio.
// ERROR: narrow_int_bitcast.mlir:5:8: error: 'stablehlo.bitcast_convert' needs the narrower element type's tensor to have the other's shape and a last dimension of the ratio of the bit widths (4 and 8), static: (tensor<3xi4>) -> tensor<i8>
func.func @main(%a: tensor<3xi4>) -> tensor<i8> {
  %0 = stablehlo.bitcast_convert %a : (tensor<3xi4>) -> tensor<i8>
  return %0 : tensor<i8>
}
