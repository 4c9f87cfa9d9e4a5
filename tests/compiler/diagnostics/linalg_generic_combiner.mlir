// A reduction must combine its accumulator with an associative op.
// ERROR: linalg_generic_combiner.mlir:4:8: error: 'linalg.generic' reduction output #0 must yield one arith.addf/addi/mulf/muli/maximumf/minimumf/maxsi/minsi/andi/ori/xori of its accumulator argument (used nowhere else) and a value
func.func @main(%a: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%a : tensor<4xf32>) outs(%init : tensor<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %d = arith.subf %acc, %x : f32
    linalg.yield %d : f32
  } -> tensor<f32>
  return %0 : tensor<f32>
}
