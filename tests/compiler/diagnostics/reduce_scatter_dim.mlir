// reduce_scatter's scatter_dimension must be a dimension of its operand.
// ERROR: reduce_scatter_dim.mlir:4:8: error: 'stablehlo.reduce_scatter' scatter_dimension 2 is not a dimension of its rank-2 operand
func.func private @p(%x: tensor<2x2xf32>) -> tensor<2x1xf32> {
  %y = "stablehlo.reduce_scatter"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) {scatter_dimension = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x1xf32>
  return %y : tensor<2x1xf32>
}
func.func @main(%a: tensor<2x2xf32>) -> tensor<2x1xf32> {
  %0:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@p], [@p]]} : (tensor<2x2xf32>, tensor<2x2xf32>) -> (tensor<2x1xf32>, tensor<2x1xf32>)
  return %0#0 : tensor<2x1xf32>
}
