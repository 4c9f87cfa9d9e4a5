// The importer accepts this; the tensor IR verifier rejects it.
// ERROR: type_mismatch.mlir:4:8: error: 'stablehlo.add' operand types tensor<4xf32> and tensor<3xf32> differ
func.func @main(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
