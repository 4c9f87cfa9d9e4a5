// flow.tensor.dynamic_constant needs its result type after an arrow.
// ERROR: dynamic_constant_arrow.mlir:5:3: error: expected '->' before the dynamic constant's result type, found 'return'
func.func @main() -> tensor<3xi32> {
  %a = flow.tensor.dynamic_constant dense<1> : tensor<3xi32>
  return %a : tensor<3xi32>
}
