// set_dimension_size takes its size as a rank-0 integer.
// ERROR: set_dimension_size_size.mlir:4:8: error: 'stablehlo.set_dimension_size' size has type tensor<1xi32>, expected a rank-0 integer tensor
func.func @main(%x: tensor<?x3xf32>, %n: tensor<1xi32>) -> tensor<?x3xf32> {
  %y = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<?x3xf32>, tensor<1xi32>) -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}
