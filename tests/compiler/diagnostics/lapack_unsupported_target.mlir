// JAX's SVD (gesdd) is not lowered yet: the message lists the LAPACK targets that are.
// ERROR: lapack_unsupported_target.mlir:4:10: error: 'stablehlo.custom_call @lapack_sgesdd_ffi' is not supported: the LAPACK/BLAS targets lowered are lapack_{s,d}potrf, lapack_{s,d}getrf, lapack_{s,d}geqrf, lapack_{s,d}orgqr, lapack_{s,d}syevd and blas_{s,d}trsm, each also as *_ffi
func.func @main(%a: tensor<3x3xf32>) -> tensor<3xf32> {
  %0:4 = stablehlo.custom_call @lapack_sgesdd_ffi(%a) {mhlo.backend_config = {mode = 83 : ui8}} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>, tensor<3x3xf32>, tensor<3x3xf32>)
  return %0#1 : tensor<3xf32>
}
