func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %c = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  %1 = stablehlo.abs %0 : tensor<4xf32>
  %2 = stablehlo.multiply %1, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %i = stablehlo.iota dim = 0 : tensor<4xi32>
  %v = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xf32>
  %p = stablehlo.compare  LT, %2, %v,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %s = stablehlo.select %p, %a, %c : tensor<4xi1>, tensor<4xf32>
  %k = stablehlo.clamp %a, %s, %c : tensor<4xf32>
  %w = stablehlo.bitcast_convert %k : (tensor<4xf32>) -> tensor<4xi32>
  return %p : tensor<4xi1>
}
