// tensor.cast may only change static sizes to '?' and back.
// ERROR: tensor_cast_types.mlir:4:8: error: 'tensor.cast' from tensor<4x4xi32> to tensor<?x5xi32>: the types must have one element type and rank and equal sizes where both are static
func.func @main(%x: tensor<4x4xi32>) -> tensor<?x5xi32> {
  %y = tensor.cast %x : tensor<4x4xi32> to tensor<?x5xi32>
  return %y : tensor<?x5xi32>
}
