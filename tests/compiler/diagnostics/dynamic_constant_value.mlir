// The generic form of flow.tensor.dynamic_constant needs its value.
// ERROR: dynamic_constant_value.mlir:4:8: error: 'flow.tensor.dynamic_constant' takes a typed value and has one result
func.func @main() -> tensor<?xi32> {
  %a = "flow.tensor.dynamic_constant"() : () -> tensor<?xi32>
  return %a : tensor<?xi32>
}
