func.func @f() -> tensor<f32> {
  return
  stablehlo.constant dense<1.0> : tensor<f32>
}
