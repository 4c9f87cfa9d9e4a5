// Indexing maps with symbols ([s0]) are not supported.
// ERROR: linalg_generic_affine_symbol.mlir:6:8: error: 'linalg.generic' indexing map #0 (affine_map<(d0)[s0] -> (d0)>) has symbols
// ERROR: only maps of loop dimensions are supported
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %init = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0)[s0] -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
