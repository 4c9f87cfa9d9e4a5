// collective_broadcast's groups name each partition (channel handle > 0) at most once.
// ERROR: collective_broadcast_groups.mlir:4:8: error: 'stablehlo.collective_broadcast' replica_groups id 1 is repeated or outside the 2 partitions
func.func private @p(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[1, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>} : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@p, @p]]} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0 : tensor<2xf32>
}
