// Ops whose checks do not handle symbolic dimensions yet are named.
// ERROR: symbolic_unsupported_op.mlir:6:8: error: 'stablehlo.sort' result 0 dimension 0 is symbolic (s2: result 0 dimension 0 of 'stablehlo.sort' at 6:8)
// ERROR: this op takes static shapes only
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  // A sort along a symbolic dimension.
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
