// A sort of 8-bit floats would order their bit patterns (sort, scatter and
// the other ops with bodies except reduce and control flow): it is refused
// at the op, naming the type.
// ERROR: f8_sort.mlir:6:8: error: 'stablehlo.sort' on f8E5M2 tensors is not supported
func.func @main(%a: tensor<4xf8E5M2>) -> tensor<4xf8E5M2> {
  %0 = "stablehlo.sort"(%a) <{dimension = 0 : i64}> ({
  ^bb0(%x: tensor<f8E5M2>, %y: tensor<f8E5M2>):
    %1 = stablehlo.compare  LT, %x, %y,  FLOAT : (tensor<f8E5M2>, tensor<f8E5M2>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<4xf8E5M2>) -> tensor<4xf8E5M2>
  return %0 : tensor<4xf8E5M2>
}
