// convert between an 8-bit float and i2/i4 is not supported.
// ERROR: f8_convert_narrow.mlir:4:8: error: 'stablehlo.convert' between f8E4M3FNUZ and i2/i4 or quantized types is not supported: (tensor<4xf8E4M3FNUZ>) -> tensor<4xi4>
func.func @main(%a: tensor<4xf8E4M3FNUZ>) -> tensor<4xi4> {
  %0 = stablehlo.convert %a : (tensor<4xf8E4M3FNUZ>) -> tensor<4xi4>
  return %0 : tensor<4xi4>
}
