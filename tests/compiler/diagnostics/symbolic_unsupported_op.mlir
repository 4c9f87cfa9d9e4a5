// Ops whose checks do not handle symbolic dimensions yet are named.
// ERROR: symbolic_unsupported_op.mlir:6:8: error: 'stablehlo.pad' result 0 dimension 0 is symbolic (s2: result 0 dimension 0 of 'stablehlo.pad' at 6:8)
// ERROR: this op takes static shapes only
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %x, %z, low = [1], high = [1], interior = [0] : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
