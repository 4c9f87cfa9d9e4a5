// A row-major matrix layout would make LAPACK see the transpose: only JAX's column-major one is taken.
// ERROR: lapack_layout.mlir:4:10: error: 'stablehlo.custom_call @lapack_sgetrf_ffi' operand #0's layout must be column-major matrices (minor_to_major [0, 1, ...]) as JAX writes them, got [1, 0]
func.func @main(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%a) {mhlo.backend_config = {}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xi32>, tensor<i32>)
  return %0#0 : tensor<3x3xf32>
}
