// A missing comma between operands: the pretty form then expects the types.
// ERROR: bad_syntax.mlir:5:25: error: expected ':' and the types of 'stablehlo.add', found '%b'
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // A comment line keeps the reported line honest.
  %0 = stablehlo.add %a %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
