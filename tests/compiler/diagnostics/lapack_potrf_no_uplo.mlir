// The FFI potrf needs uplo in mhlo.backend_config.
// ERROR: lapack_potrf_no_uplo.mlir:4:10: error: 'stablehlo.custom_call @lapack_spotrf_ffi' requires 'uplo' in mhlo.backend_config (one of the characters "LU" as a ui8 code, e.g. uplo = 76 : ui8)
func.func @main(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
  return %0#0 : tensor<3x3xf32>
}
