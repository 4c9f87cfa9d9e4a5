func.func @f(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> (tensor<3x4xf32>, tensor<5xi32>) {
  %s = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %0 = stablehlo.rng %a, %b, %s, distribution = NORMAL : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  %t = stablehlo.constant dense<5> : tensor<1xi64>
  %1 = "stablehlo.rng"(%i, %j, %t) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<5xi32>
  return %0, %1 : tensor<3x4xf32>, tensor<5xi32>
}
