// A linalg.generic body holds elementwise ops, and tensor.extract (a
// gather) is not one.
// ERROR: linalg_generic_body_op.mlir:10:10: error: 'linalg.generic' bodies of elementwise ops are supported
// ERROR: 'tensor.extract' is not one
func.func @main(%t: tensor<4xf32>, %i: tensor<3xi32>) -> tensor<3xf32> {
  %init = tensor.empty() : tensor<3xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%i : tensor<3xi32>) outs(%init : tensor<3xf32>) {
  ^bb0(%x: i32, %o: f32):
    %k = arith.index_cast %x : i32 to index
    %v = tensor.extract %t[%k] : tensor<4xf32>
    linalg.yield %v : f32
  } -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
