// An iota of i4 holds at most 7: a ninth element would not fit.
// ERROR: narrow_int_iota.mlir:4:8: error: 'stablehlo.iota' on i2/i4 tensors counts to at most 7 along its dimension (the largest value the type holds): () -> tensor<9xi4>
func.func @main() -> tensor<9xi4> {
  %0 = stablehlo.iota dim = 0 : tensor<9xi4>
  return %0 : tensor<9xi4>
}
