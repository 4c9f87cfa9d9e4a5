// A collective outside interpreter.run_parallel has no processes to run between.
// ERROR: all_gather_outside.mlir:4:8: error: 'stablehlo.all_gather' is not supported
func.func @main(%x: tensor<2xf32>) -> tensor<4xf32> {
  %y = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
