// Complex LAPACK targets (c/z) are not lowered yet.
// ERROR: lapack_complex.mlir:4:10: error: 'stablehlo.custom_call @lapack_cpotrf_ffi': complex LAPACK targets are not supported yet (the spotrf forms on f32 and f64 are)
func.func @main(%a: tensor<3x3xcomplex<f32>>) -> tensor<3x3xcomplex<f32>> {
  %0:2 = stablehlo.custom_call @lapack_cpotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<3x3xcomplex<f32>>) -> (tensor<3x3xcomplex<f32>>, tensor<i32>)
  return %0#0 : tensor<3x3xcomplex<f32>>
}
