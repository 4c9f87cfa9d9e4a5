// An op the compiler does not implement, in the pretty form StableHLO prints.
// ERROR: unknown_op_pretty.mlir:4:8: error: 'stablehlo.collective_permute' is not supported
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.collective_permute %a, source_target_pairs = [[0, 1]] : tensor<4xf32>
  return %0 : tensor<4xf32>
}
