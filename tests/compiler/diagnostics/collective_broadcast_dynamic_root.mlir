// collective_broadcast with a root chosen at run time is not supported.
// ERROR: collective_broadcast_dynamic_root.mlir:4:8: error: 'stablehlo.collective_broadcast' with has_dynamic_root is not supported
func.func private @p(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root} : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@p], [@p]]} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0 : tensor<2xf32>
}
