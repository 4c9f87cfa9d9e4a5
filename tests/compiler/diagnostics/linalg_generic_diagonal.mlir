// An indexing map naming a loop dimension twice reads a diagonal.
// ERROR: linalg_generic_diagonal.mlir:5:8: error: 'linalg.generic' indexing map #0 names loop dimension 'd0' twice (diagonals are not supported)
func.func @main(%a: tensor<3x3xf32>) -> tensor<3xf32> {
  %init = tensor.empty() : tensor<3xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<3x3xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
