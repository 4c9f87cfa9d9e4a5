// The model of the tracing tests (tests/runtime/trace_test.c and the
// --trace tests of tests/tools): a matmul whose bias add and relu fuse into
// it, then a row sum, over shapes that local-task splits into several
// workgroups. With no loc() attributes, each dispatch's location is the line
// and column of its root op in this file (the maximum: line 12; the reduce:
// line 14).
func.func @main(%x: tensor<256x64xf32>, %w: tensor<64x96xf32>,
                %b: tensor<256x96xf32>) -> (tensor<256x96xf32>, tensor<256xf32>) {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x64xf32>, tensor<64x96xf32>) -> tensor<256x96xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<256x96xf32>
  %1 = stablehlo.add %0, %b : tensor<256x96xf32>
  %2 = stablehlo.maximum %1, %zero : tensor<256x96xf32>
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %3 = stablehlo.reduce(%2 init: %init) applies stablehlo.add across dimensions = [1] : (tensor<256x96xf32>, tensor<f32>) -> tensor<256xf32>
  return %2, %3 : tensor<256x96xf32>, tensor<256xf32>
}
