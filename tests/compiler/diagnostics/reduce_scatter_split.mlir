// reduce_scatter cuts scatter_dimension into one equal part per process of a group.
// ERROR: reduce_scatter_split.mlir:4:8: error: 'stablehlo.reduce_scatter' scatter_dimension size 3 is not a multiple of the 2 processes of a group
func.func private @p(%x: tensor<3xf32>) -> tensor<1xf32> {
  %y = "stablehlo.reduce_scatter"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3xf32>) -> tensor<1xf32>
  return %y : tensor<1xf32>
}
func.func @main(%a: tensor<3xf32>) -> tensor<1xf32> {
  %0:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@p], [@p]]} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<1xf32>, tensor<1xf32>)
  return %0#0 : tensor<1xf32>
}
