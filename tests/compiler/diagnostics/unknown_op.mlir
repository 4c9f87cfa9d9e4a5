// An op the compiler does not implement, in the generic form JAX prints.
// ERROR: unknown_op.mlir:5:8: error: 'stablehlo.collective_permute' is not supported
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %a : tensor<4xf32>
  %1 = "stablehlo.collective_permute"(%0) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
