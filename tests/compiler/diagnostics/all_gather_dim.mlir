// all_gather's all_gather_dim must be a dimension of its operand.
// ERROR: all_gather_dim.mlir:4:8: error: 'stablehlo.all_gather' all_gather_dim 1 is not a dimension of its rank-1 operand
func.func private @p(%x: tensor<2xf32>) -> tensor<4xf32> {
  %y = "stablehlo.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @main(%a: tensor<2xf32>) -> tensor<4xf32> {
  %0:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@p], [@p]]} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0 : tensor<4xf32>
}
