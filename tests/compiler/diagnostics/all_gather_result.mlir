// all_gather's declared result must be the concatenation its group gives.
// ERROR: all_gather_result.mlir:4:8: error: 'stablehlo.all_gather' result #0 is tensor<6xf32>, but its processes give tensor<4xf32>
func.func private @p(%x: tensor<2xf32>) -> tensor<6xf32> {
  %y = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<6xf32>
  return %y : tensor<6xf32>
}
func.func @main(%a: tensor<2xf32>) -> tensor<6xf32> {
  %0:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@p], [@p]]} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<6xf32>, tensor<6xf32>)
  return %0#0 : tensor<6xf32>
}
