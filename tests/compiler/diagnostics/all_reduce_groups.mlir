// all_reduce's replica groups must cover every replica once.
// ERROR: all_reduce_groups.mlir:4:8: error: 'stablehlo.all_reduce' replica_groups leave replica 2 out
func.func private @p(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0:3 = "interpreter.run_parallel"(%a, %a, %a) {programs = [[@p], [@p], [@p]]} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  return %0#0 : tensor<2xf32>
}
