// One symbolic dimension that the program needs to be two sizes.
// ERROR: symbolic_conflict.mlir:5:8: error: 'stablehlo.multiply' operand types tensor<?xf32> and tensor<5xf32> differ: dimension 0 (s0: argument 0 dimension 0 of @main) is 3 by earlier ops' relations, here 5
func.func @main(%x: tensor<?xf32>, %a: tensor<3xf32>, %b: tensor<5xf32>) -> tensor<?xf32> {
  %0 = stablehlo.add %x, %a : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>
  %1 = stablehlo.multiply %x, %b : (tensor<?xf32>, tensor<5xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
