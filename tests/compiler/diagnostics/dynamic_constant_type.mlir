// flow.tensor.dynamic_constant's result type may write the value's sizes
// as '?', but not other sizes.
// ERROR: dynamic_constant_type.mlir:5:8: error: 'flow.tensor.dynamic_constant' value of type tensor<3x4xi32> cannot have result type tensor<?x5xi32>: the result must have the value's element type and rank, with each dimension the value's size or '?'
func.func @main() -> tensor<?x5xi32> {
  %a = flow.tensor.dynamic_constant dense<1> : tensor<3x4xi32> -> tensor<?x5xi32>
  return %a : tensor<?x5xi32>
}
