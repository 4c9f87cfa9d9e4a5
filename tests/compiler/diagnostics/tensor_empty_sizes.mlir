// tensor.empty takes one size per '?' of its type.
// ERROR: tensor_empty_sizes.mlir:5:8: error: 'tensor.empty' takes one size operand per '?' in its result type: 2 for 1
func.func @main() -> tensor<?x2xf32> {
  %n = arith.constant 3 : index
  %0 = tensor.empty(%n, %n) : tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}
