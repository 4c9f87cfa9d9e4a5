// set_dimension_size compiles as a slice to the given size; a static
// result dimension (XLA's bounded dynamic size) is refused.
// ERROR: set_dimension_size_static.mlir:6:8: error: 'stablehlo.set_dimension_size' result dimension 0 is static (4): a bounded dynamic size is not supported
// ERROR: write it '?'
func.func @main(%x: tensor<4x3xf32>, %n: tensor<i32>) -> tensor<4x3xf32> {
  %y = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<4x3xf32>, tensor<i32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}
