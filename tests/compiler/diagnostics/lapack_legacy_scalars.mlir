// The legacy form's scalars must describe the matrix operand.
// ERROR: lapack_legacy_scalars.mlir:6:10: error: 'stablehlo.custom_call @lapack_spotrf' scalars (batch, n) = (1, 5) do not match a tensor<4x4xf32>
func.func @main(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.constant dense<1> : tensor<i32>
  %1 = stablehlo.constant dense<5> : tensor<i32>
  %2:2 = stablehlo.custom_call @lapack_spotrf(%0, %0, %1, %a) {api_version = 2 : i32} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
  return %2#0 : tensor<4x4xf32>
}
