// collective_permute's pairs name processes of one group: here the 2 replicas of a partition.
// ERROR: collective_permute_pair.mlir:4:8: error: 'stablehlo.collective_permute' pair process 5 is outside the 2 replicas of a process group
func.func private @p(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 5]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@p], [@p]]} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0 : tensor<2xf32>
}
