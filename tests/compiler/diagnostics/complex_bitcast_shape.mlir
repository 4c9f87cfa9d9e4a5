// A complex<f32> reinterprets as two f32 parts: to i8 its result would need the parts' shape and a last dimension of 4 (tensor<2x2x4xi8>), not the bytes of whole elements.
// ERROR: complex_bitcast_shape.mlir:4:8: error: 'stablehlo.bitcast_convert' on complex types reinterprets them as their (re, im) parts: with a complex<fN> counted as a last dimension of 2 fN, the types must be of one width and shape, or the narrower one's have the other's shape and a last dimension of the width ratio (complex<f32> <-> i64, f64, 2xf32 or 2xi32, and 2xcomplex<f32> <-> complex<f64>): (tensor<2xcomplex<f32>>) -> tensor<2x8xi8>
func.func @main(%a: tensor<2xcomplex<f32>>) -> tensor<2x8xi8> {
  %0 = stablehlo.bitcast_convert %a : (tensor<2xcomplex<f32>>) -> tensor<2x8xi8>
  return %0 : tensor<2x8xi8>
}
