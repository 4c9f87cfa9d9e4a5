// syevd's Jacobi rounds are unrolled: matrices up to 32 x 32.
// ERROR: lapack_syevd_size.mlir:4:10: error: 'stablehlo.custom_call @lapack_ssyevd_ffi' on tensor<33x33xf32>: matrices larger than 32 x 32 are not supported yet (the Jacobi rotations are unrolled)
func.func @main(%a: tensor<33x33xf32>) -> tensor<33xf32> {
  %0:3 = stablehlo.custom_call @lapack_ssyevd_ffi(%a) {mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}} : (tensor<33x33xf32>) -> (tensor<33x33xf32>, tensor<33xf32>, tensor<i32>)
  return %0#1 : tensor<33xf32>
}
