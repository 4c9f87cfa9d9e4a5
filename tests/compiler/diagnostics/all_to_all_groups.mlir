// all_to_all's groups must cover every partition (channel handle > 0).
// ERROR: all_to_all_groups.mlir:4:8: error: 'stablehlo.all_to_all' replica_groups leave partition 1 out
func.func private @p(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 1 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@p, @p]]} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0 : tensor<4xf32>
}
