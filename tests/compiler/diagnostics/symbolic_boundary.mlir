// A symbolic dimension that survives folding stops at the static boundary,
// at the first op that needs it (the host program and kernels take static
// shapes for now; docs/compiler.md "Symbolic shapes").
// ERROR: symbolic_boundary.mlir:8:8: error: 'stablehlo.dot_general' result 0 dimension 0 is symbolic (s0: argument 0 dimension 0 of @main)
// ERROR: the host program and kernels do not support symbolic dimensions yet
module @m attributes {jax.uses_shape_polymorphism = true} {
func.func @main(%x: tensor<?x4xf32>, %w: tensor<4x3xf32>) -> tensor<?x3xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
}
