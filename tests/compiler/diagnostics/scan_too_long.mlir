// chlo.scan is unrolled (the body imported once per position), so its length is bounded.
// ERROR: scan_too_long.mlir:5:10: error: 'chlo.scan' over 4096 positions is not supported (it is unrolled, at most 1024)
func.func @main(%a: tensor<4096xf32>) -> tensor<4096xf32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %0:2 = chlo.scan(%a) inits(%init) dimension=0 {
  ^bb0(%x: tensor<f32>, %c: tensor<f32>):
    %s = stablehlo.add %x, %c : tensor<f32>
    stablehlo.return %s, %s : tensor<f32>, tensor<f32>
  } : (tensor<4096xf32>, tensor<f32>) -> (tensor<4096xf32>, tensor<f32>)
  return %0#0 : tensor<4096xf32>
}
