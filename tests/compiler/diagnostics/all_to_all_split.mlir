// all_to_all cuts split_dimension into split_count equal parts.
// ERROR: all_to_all_split.mlir:4:8: error: 'stablehlo.all_to_all' split_dimension size 3 is not a multiple of split_count 2
func.func private @p(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@p], [@p]]} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %0#0 : tensor<3xf32>
}
