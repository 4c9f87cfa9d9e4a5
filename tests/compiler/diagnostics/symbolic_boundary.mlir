// An extent computed at run time that the kernels cannot take yet (here a
// dynamic_reshape to twice the batch: the host program could compute it,
// but the reshape merges the symbolic dimension with a static one) stops
// at the symbolic boundary (docs/compiler.md "Symbolic shapes").
// ERROR: symbolic_boundary.mlir:13:8: error: 'stablehlo.dynamic_reshape' result dimension 0 (s1: result 0 dimension 0 of @main) is computed from its shape operand
// ERROR: a reshape that merges or splits a symbolic dimension is not supported yet
module @m attributes {jax.uses_shape_polymorphism = true} {
func.func @main(%x: tensor<?x2xf32>) -> tensor<?xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x2xf32>) -> tensor<i32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %m = stablehlo.multiply %n, %two : tensor<i32>
  %s = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>
  %y = stablehlo.dynamic_reshape %x, %s : (tensor<?x2xf32>, tensor<1xi32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}
}
