// all_to_all's split_count is the size of its process groups.
// ERROR: all_to_all_split_count.mlir:4:8: error: 'stablehlo.all_to_all' split_count 4 is not the 2 processes of its group
func.func private @p(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 4 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@p], [@p]]} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0 : tensor<4xf32>
}
