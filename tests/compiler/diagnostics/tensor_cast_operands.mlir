// tensor.cast takes one operand.
// ERROR: tensor_cast_operands.mlir:5:8: error: 'tensor.cast' takes one operand and has one result
// ERROR: found 2 and 1
func.func @main(%x: tensor<4xi32>) -> tensor<?xi32> {
  %y = "tensor.cast"(%x, %x) : (tensor<4xi32>, tensor<4xi32>) -> tensor<?xi32>
  return %y : tensor<?xi32>
}
