// set_dimension_size's dimension must be one of its operand's.
// ERROR: set_dimension_size_dim.mlir:4:8: error: 'stablehlo.set_dimension_size' dimension 2 is not a dimension of its operand (rank 2) and result (rank 2)
func.func @main(%x: tensor<?x3xf32>, %n: tensor<i32>) -> tensor<?x3xf32> {
  %y = stablehlo.set_dimension_size %x, %n, dim = 2 : (tensor<?x3xf32>, tensor<i32>) -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}
