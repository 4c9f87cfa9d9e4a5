// Padding a symbolic dimension makes an extent the result type must write
// as '?'.
// ERROR: symbolic_pad_declared.mlir:7:8: error: 'stablehlo.pad' result type tensor<5xf32> cannot hold the padding of symbolic dimension 0: write it as '?'
func.func @main(%x: tensor<?xf32>) -> tensor<5xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  // Padded by one on each side.
  %0 = stablehlo.pad %x, %z, low = [1], high = [1], interior = [0] : (tensor<?xf32>, tensor<f32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
