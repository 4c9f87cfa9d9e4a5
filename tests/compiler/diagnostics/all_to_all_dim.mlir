// all_to_all's concat_dimension must be a dimension of its operand.
// ERROR: all_to_all_dim.mlir:4:8: error: 'stablehlo.all_to_all' concat_dimension 1 is not a dimension of its rank-1 operand
func.func private @p(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@p], [@p]]} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0 : tensor<4xf32>
}
