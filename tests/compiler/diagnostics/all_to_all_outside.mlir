// A collective outside interpreter.run_parallel has no processes to run between.
// ERROR: all_to_all_outside.mlir:4:8: error: 'stablehlo.all_to_all' is not supported
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
