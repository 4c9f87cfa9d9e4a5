func.func @main(%a: tensor<2x2xf32>, %b: tensor<2x1xf32>) -> (tensor<2x2xf32>, tensor<2xi32>, tensor<2x1xf32>, tensor<2xf32>) {
  %0 = stablehlo.constant dense<1> : tensor<i32>
  %1 = stablehlo.constant dense<2> : tensor<i32>
  %2 = stablehlo.custom_call @lapack_spotrf(%0, %0, %1, %a) {api_version = 2 : i32} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<2x2xf32>) -> tuple<tensor<2x2xf32>, tensor<i32>>
  %3 = stablehlo.get_tuple_element %2[0] : (tuple<tensor<2x2xf32>, tensor<i32>>) -> tensor<2x2xf32>
  %4:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%3) {mhlo.backend_config = {}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xi32>, tensor<i32>)
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %5 = stablehlo.custom_call @blas_strsm_ffi(%4#0, %b, %c) {mhlo.backend_config = {diag = 85 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}} : (tensor<2x2xf32>, tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %6:3 = stablehlo.custom_call @lapack_ssyevd_ffi(%a) {mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<i32>)
  return %4#0, %4#1, %5, %6#1 : tensor<2x2xf32>, tensor<2xi32>, tensor<2x1xf32>, tensor<2xf32>
}
