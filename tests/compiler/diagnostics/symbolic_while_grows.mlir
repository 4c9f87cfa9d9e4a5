// A while loop whose body concatenates its carried tensor with itself along
// the symbolic dimension: the carried tensor would change size from one
// iteration to the next. The diagnostic names the loop, the carried value,
// the dimension and both extents.
// ERROR: symbolic_while_grows.mlir:11:10: error: 'stablehlo.while' carried value 1 dimension 0 changes size in the loop: the body yields s3: result 0 dimension 0 of 'stablehlo.concatenate' at 17:10, the loop carries s0: argument 0 dimension 0 of @main
// ERROR: a while loop whose carried tensors change size is not supported yet
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i32>, tensor<?x4xf32>
   cond {
    %p = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %i1 = stablehlo.add %i, %c1 : tensor<i32>
    %a = stablehlo.concatenate %acc, %acc, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    stablehlo.return %i1, %a : tensor<i32>, tensor<?x4xf32>
  }
  return %r#1 : tensor<?x4xf32>
}
