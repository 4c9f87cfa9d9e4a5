// With a loc(...), the diagnostic names the source the location points at.
// ERROR: model.py:42:7: error: 'stablehlo.collective_permute' is not supported
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.collective_permute"(%a) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32> loc(#loc1)
  return %0 : tensor<4xf32>
}
#loc0 = loc("model.py":42:7)
#loc1 = loc("jit(f)/ppermute"(#loc0))
