// A while loop carrying two values of one extent (the body adds them) and
// resizing only the first: the second enters the loop with the extent the
// loop changes, which the host program cannot size before the loop.
// ERROR: symbolic_while_shared.mlir:12:10: error: 'stablehlo.while' operand 2 dimension 0 enters the loop with the extent the loop changes in carried value 1 dimension 0 (the program's shapes join them)
// ERROR: a carried value that shares the extent of one the body resizes is not supported yet
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c = stablehlo.concatenate %x, %x, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %row = stablehlo.constant dense<1.0> : tensor<1x4xf32>
  %r:3 = stablehlo.while(%i = %c0, %a = %c, %b = %c) : tensor<i32>, tensor<?x4xf32>, tensor<?x4xf32>
   cond {
    %p = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %i1 = stablehlo.add %i, %c1 : tensor<i32>
    %s = stablehlo.add %a, %b : tensor<?x4xf32>
    %g = stablehlo.concatenate %s, %row, dim = 0 : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
    stablehlo.return %i1, %g, %s : tensor<i32>, tensor<?x4xf32>, tensor<?x4xf32>
  }
  return %r#1 : tensor<?x4xf32>
}
