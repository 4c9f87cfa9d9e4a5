// A matrix with no rows is not lowered yet.
// ERROR: lapack_empty.mlir:4:10: error: 'stablehlo.custom_call @lapack_sgetrf_ffi' on tensor<0x3xf32>: empty matrices or batches are not supported yet
func.func @main(%a: tensor<0x3xf32>) -> tensor<0x3xf32> {
  %0:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%a) {mhlo.backend_config = {}} : (tensor<0x3xf32>) -> (tensor<0x3xf32>, tensor<0xi32>, tensor<i32>)
  return %0#0 : tensor<0x3xf32>
}
