// An extent computed at run time from tensor data (here a dynamic_reshape
// whose shape operand is an argument's value, not get_dimension_size
// arithmetic the host program could compute at the call) stops at the
// symbolic boundary (docs/compiler.md "Symbolic shapes").
// ERROR: symbolic_boundary.mlir:9:8: error: 'stablehlo.dynamic_reshape' result 0 dimension 0 is symbolic (s1: result 0 dimension 0 of @main), an extent computed at run time
// ERROR: computes a dynamic op's from get_dimension_size arithmetic on constants and dimensions only, not from tensor data
module @m attributes {jax.uses_shape_polymorphism = true} {
func.func @main(%x: tensor<?x2xf32>, %s: tensor<1xi32>) -> tensor<?xf32> {
  %y = stablehlo.dynamic_reshape %x, %s : (tensor<?x2xf32>, tensor<1xi32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}
}
