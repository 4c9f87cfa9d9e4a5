// reduce_scatter has a result per operand and a body of two scalar arguments.
// ERROR: reduce_scatter_body.mlir:4:8: error: 'stablehlo.reduce_scatter' has a result per operand and a body of two scalar arguments
func.func private @p(%x: tensor<2xf32>) -> tensor<1xf32> {
  %y = "stablehlo.reduce_scatter"(%x) ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<1xf32>
  return %y : tensor<1xf32>
}
func.func @main(%a: tensor<2xf32>) -> tensor<1xf32> {
  %0:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@p], [@p]]} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<1xf32>, tensor<1xf32>)
  return %0#0 : tensor<1xf32>
}
