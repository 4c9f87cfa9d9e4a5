// An extent computed at run time from tensor data the host program does not
// read (here a dynamic_reshape whose shape is an i16 argument widened to
// i32; an argument's own i32 or i64 elements are read at the call, narrowed
// or not: docs/compiler.md "Shapes read from data") stops at the symbolic
// boundary.
// ERROR: symbolic_boundary.mlir:11:8: error: 'stablehlo.dynamic_reshape' result 0 dimension 0 is symbolic (s1: result 0 dimension 0 of @main), an extent computed at run time
// ERROR: arithmetic on constants, dimensions and a function argument's i32 or i64 elements, not from other tensor data
module @m attributes {jax.uses_shape_polymorphism = true} {
func.func @main(%x: tensor<?x2xf32>, %w: tensor<1xi16>) -> tensor<?xf32> {
  %s = stablehlo.convert %w : (tensor<1xi16>) -> tensor<1xi32>
  %y = stablehlo.dynamic_reshape %x, %s : (tensor<?x2xf32>, tensor<1xi32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}
}
