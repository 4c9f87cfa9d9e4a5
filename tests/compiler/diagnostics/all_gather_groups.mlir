// all_gather's replica groups name each replica once.
// ERROR: all_gather_groups.mlir:4:8: error: 'stablehlo.all_gather' replica_groups id 0 is repeated or outside the 2 replicas
func.func private @p(%x: tensor<2xf32>) -> tensor<4xf32> {
  %y = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 0]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @main(%a: tensor<2xf32>) -> tensor<4xf32> {
  %0:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@p], [@p]]} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0 : tensor<4xf32>
}
