// The d in dpotrf means f64 matrices.
// ERROR: lapack_element_type.mlir:4:10: error: 'stablehlo.custom_call @lapack_dpotrf_ffi' takes f64 matrices [..., m, n] for a, got tensor<4x4xf32>
func.func @main(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0:2 = stablehlo.custom_call @lapack_dpotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
  return %0#0 : tensor<4x4xf32>
}
