// linalg.generic takes operands of static shape.
// ERROR: linalg_generic_symbolic.mlir:5:8: error: 'linalg.generic' with a symbolic dimension ('?') in operand #0 is not supported yet
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %init = tensor.cast %a : tensor<?xf32> to tensor<?xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
