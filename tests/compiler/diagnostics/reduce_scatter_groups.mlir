// reduce_scatter's replica groups must cover every replica.
// ERROR: reduce_scatter_groups.mlir:4:8: error: 'stablehlo.reduce_scatter' replica_groups leave replica 2 out
func.func private @p(%x: tensor<2xf32>) -> tensor<1xf32> {
  %y = "stablehlo.reduce_scatter"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<1xf32>
  return %y : tensor<1xf32>
}
func.func @main(%a: tensor<2xf32>) -> tensor<1xf32> {
  %0:3 = "interpreter.run_parallel"(%a, %a, %a) {programs = [[@p], [@p], [@p]]} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>)
  return %0#0 : tensor<1xf32>
}
