// Loops are parallel or reduction.
// ERROR: linalg_generic_iterator.mlir:5:8: error: 'linalg.generic' iterator type #0 (window) is not supported (only parallel and reduction)
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %init = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["window"]} ins(%a : tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
