// ERROR: unsupported_custom_call.mlir:3:8: error: 'stablehlo.custom_call' to 'xla_python_cpu_callback' is not supported
func.func @main(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.custom_call @xla_python_cpu_callback(%a) {api_version = 2 : i32} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
