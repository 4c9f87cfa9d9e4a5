// A collective outside interpreter.run_parallel has no processes to run between.
// ERROR: collective_broadcast_outside.mlir:4:8: error: 'stablehlo.collective_broadcast' is not supported
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
