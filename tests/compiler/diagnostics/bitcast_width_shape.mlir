// bitcast_convert from f32 to i8 gives four i8 per f32: a last dimension of 4.
// ERROR: bitcast_width_shape.mlir:4:8: error: 'stablehlo.bitcast_convert' from tensor<3xf32> to tensor<3x2xi8>: the narrower element type's tensor has the other's shape and a last dimension of the ratio of the bit widths (static)
func.func @main(%a: tensor<3xf32>) -> tensor<3x2xi8> {
  %0 = stablehlo.bitcast_convert %a : (tensor<3xf32>) -> tensor<3x2xi8>
  return %0 : tensor<3x2xi8>
}
