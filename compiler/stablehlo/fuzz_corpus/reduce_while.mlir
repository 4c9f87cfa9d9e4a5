func.func @f(%x: tensor<4x8xf32>, %y: tensor<4x8xi32>, %c0: tensor<f32>, %c1: tensor<i32>) -> tensor<4xi32> {
  %r = stablehlo.reduce(%x init: %c0) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %0:2 = stablehlo.reduce(%x init: %c0), (%y init: %c1) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>)  {
    %1 = stablehlo.maximum %a, %c : tensor<f32>
    %2 = stablehlo.add %b, %d : tensor<i32>
    stablehlo.return %1, %2 : tensor<f32>, tensor<i32>
  }
  %w:2 = stablehlo.while(%iterArg = %c1, %iterArg_0 = %c0) : tensor<i32>, tensor<f32>
   cond {
    %p = stablehlo.compare  LT, %iterArg, %c1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %n = func.call @step(%iterArg_0) : (tensor<f32>) -> tensor<f32>
    stablehlo.return %iterArg, %n : tensor<i32>, tensor<f32>
  }
  return %0#1 : tensor<4xi32>
}
func.func private @step(%x: tensor<f32>) -> tensor<f32> {
  %y = stablehlo.add %x, %x : tensor<f32>
  return %y : tensor<f32>
}
