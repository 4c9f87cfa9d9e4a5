func.func @f(%a: tensor<4xf8E4M3FN>, %b: tensor<2x2xi4>) -> tensor<4xf8E5M2> {
  %c = stablehlo.constant dense<[1.0, 464.0, 0x7F, -0.0]> : tensor<4xf8E4M3FN>
  %0 = stablehlo.add %a, %c : tensor<4xf8E4M3FN>
  %1 = stablehlo.convert %0 : (tensor<4xf8E4M3FN>) -> tensor<4xf8E5M2>
  %2 = stablehlo.bitcast_convert %b : (tensor<2x2xi4>) -> tensor<2xi8>
  %3 = stablehlo.reverse %1, dims = [0] : tensor<4xf8E5M2>
  return %3 : tensor<4xf8E5M2>
}
