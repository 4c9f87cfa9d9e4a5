// A linalg.generic body yields values it computes, not one from outside.
// ERROR: linalg_generic_outer_yield.mlir:5:8: error: 'linalg.generic' result #0 yields a value from outside the body, which is not supported
func.func @main(%a: tensor<4xf32>, %c: tensor<f32>) -> tensor<4xf32> {
  %s = tensor.extract %c[] : tensor<f32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
