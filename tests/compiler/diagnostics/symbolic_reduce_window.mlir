// reduce_window takes a symbolic dimension only where its window passes it
// through (1, stride 1, no dilation or padding): pooling over a symbolic
// batch is fine, a window of 2 across it is refused at the op.
// ERROR: symbolic_reduce_window.mlir:8:8: error: 'stablehlo.reduce_window' operand dimension 0 of tensor<?x4xf32> is symbolic
// ERROR: its window must be 1 with stride 1 and no dilation or padding
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 2>} : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}
