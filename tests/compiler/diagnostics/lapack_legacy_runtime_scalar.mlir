// The legacy form's scalars must be constants.
// ERROR: lapack_legacy_runtime_scalar.mlir:6:10: error: 'stablehlo.custom_call @lapack_spotrf' operand #0 (lower) must be a constant integer scalar, got tensor<i32> computed at run time
func.func @main(%a: tensor<4x4xf32>, %lower: tensor<i32>) -> tensor<4x4xf32> {
  %0 = stablehlo.constant dense<1> : tensor<i32>
  %1 = stablehlo.constant dense<4> : tensor<i32>
  %2:2 = stablehlo.custom_call @lapack_spotrf(%lower, %0, %1, %a) {api_version = 2 : i32} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
  return %2#0 : tensor<4x4xf32>
}
