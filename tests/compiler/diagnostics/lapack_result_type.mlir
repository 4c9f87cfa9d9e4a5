// getrf's pivots have min(m, n) elements.
// ERROR: lapack_result_type.mlir:4:10: error: 'stablehlo.custom_call @lapack_sgetrf_ffi' result #1 (ipiv) must be tensor<3xi32>, got tensor<4xi32>
func.func @main(%a: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%a) {mhlo.backend_config = {}} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4xi32>, tensor<i32>)
  return %0#0 : tensor<4x3xf32>
}
