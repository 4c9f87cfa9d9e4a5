func.func @test_collatz() {
  %0 = util.unfoldable_constant dense<178.0> : tensor<f32>
  %1 = stablehlo.constant dense<1.0> : tensor<f32>
  %2 = stablehlo.constant dense<3.0> : tensor<f32>
  %3 = stablehlo.constant dense<2.0> : tensor<f32>
  %4 = stablehlo.constant dense<0.0> : tensor<f32>
  cf.br ^bb1(%4, %0 : tensor<f32>, tensor<f32>)
^bb1(%5: tensor<f32>, %6: tensor<f32>):
  %7 = "stablehlo.compare"(%6, %1) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %8 = tensor.extract %7[] : tensor<i1>
  cf.cond_br %8, ^bb2(%5, %6 : tensor<f32>, tensor<f32>), ^bb6(%5 : tensor<f32>)
^bb2(%9: tensor<f32>, %10: tensor<f32>):
  %11 = stablehlo.add %9, %1 : tensor<f32>
  %12 = stablehlo.remainder %10, %3 : tensor<f32>
  %13 = "stablehlo.compare"(%12, %4) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %15 = tensor.extract %13[] : tensor<i1>
  cf.cond_br %15, ^bb3, ^bb4
^bb3:
  %16 = stablehlo.multiply %10, %2 : tensor<f32>
  %17 = stablehlo.add %16, %1 : tensor<f32>
  cf.br ^bb5(%17 : tensor<f32>)
^bb4:
  %18 = stablehlo.divide %10, %3 : tensor<f32>
  cf.br ^bb5(%18 : tensor<f32>)
^bb5(%19: tensor<f32>):
  cf.br ^bb1(%11, %19 : tensor<f32>, tensor<f32>)
^bb6(%20: tensor<f32>):
  check.expect_eq_const(%20, dense<31.0> : tensor<f32>) : tensor<f32>
  return
}
