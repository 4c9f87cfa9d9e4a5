// Indexing maps may name loop dimensions and 0, not sums of them.
// ERROR: linalg_generic_affine_sum.mlir:5:8: error: 'linalg.generic' indexing map #0 result 'd0 + d1' is not supported (only a loop dimension or 0)
func.func @main(%a: tensor<4xf32>) -> tensor<2x3xf32> {
  %init = tensor.empty() : tensor<2x3xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4xf32>) outs(%init : tensor<2x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
