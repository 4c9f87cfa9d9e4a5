// An extent computed at run time (here the sum a concatenate along a
// symbolic dimension makes) stops at the symbolic boundary: the host
// program reads extents from the arguments only for now
// (docs/compiler.md "Symbolic shapes").
// ERROR: symbolic_boundary.mlir:9:8: error: 'stablehlo.concatenate' result 0 dimension 0 is symbolic (s2: result 0 dimension 0 of @main), an extent computed at run time
// ERROR: not supported yet (the host program reads extents from the arguments only)
module @m attributes {jax.uses_shape_polymorphism = true} {
func.func @main(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.concatenate %x, %y, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
}
