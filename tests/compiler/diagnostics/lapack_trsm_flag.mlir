// The FFI trsm needs side, uplo, trans_x and diag in mhlo.backend_config.
// ERROR: lapack_trsm_flag.mlir:4:8: error: 'stablehlo.custom_call @blas_strsm_ffi' requires 'trans_x' in mhlo.backend_config (one of the characters "NTC" as a ui8 code, e.g. trans_x = 78 : ui8)
func.func @main(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>, %alpha: tensor<f32>) -> tensor<3x2xf32> {
  %0 = stablehlo.custom_call @blas_strsm_ffi(%a, %b, %alpha) {mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, uplo = 76 : ui8}} : (tensor<3x3xf32>, tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
