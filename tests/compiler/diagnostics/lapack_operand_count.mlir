// Neither the FFI form (1 operand) nor the legacy one (4).
// ERROR: lapack_operand_count.mlir:5:10: error: 'stablehlo.custom_call @lapack_spotrf' takes 1 operand (the FFI form) or 4 (the legacy form: scalars (lower, batch, n) first), got 2
func.func @main(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.constant dense<1> : tensor<i32>
  %2:2 = stablehlo.custom_call @lapack_spotrf(%0, %a) {api_version = 2 : i32} : (tensor<i32>, tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
  return %2#0 : tensor<4x4xf32>
}
