// A complex iota counts along a dimension of its result's shape (its parts' shape).
// ERROR: complex_iota_dimension.mlir:4:8: error: 'stablehlo.iota' iota_dimension 2 is out of range for tensor<2x3xf64>
func.func @main() -> tensor<2x3xcomplex<f64>> {
  %0 = stablehlo.iota dim = 2 : tensor<2x3xcomplex<f64>>
  return %0 : tensor<2x3xcomplex<f64>>
}
