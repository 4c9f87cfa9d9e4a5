// The FFI potrf's uplo must be 'L' (76) or 'U' (85).
// ERROR: lapack_potrf_uplo.mlir:4:10: error: 'stablehlo.custom_call @lapack_spotrf_ffi' mhlo.backend_config 'uplo' must be one of the characters "LU" as a ui8 code, got 88
func.func @main(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 88 : ui8}} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
  return %0#0 : tensor<3x3xf32>
}
