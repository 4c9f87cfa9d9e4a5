// A constant too large to inline into a kernel (rodata) and a reduction.
func.func public @main(%x: tensor<2x20xf32>) -> tensor<2xf32> {
  %c = stablehlo.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0,
      10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0],
      [20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0,
      30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0]]> : tensor<2x20xf32>
  %0 = stablehlo.multiply %x, %c : tensor<2x20xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %zero) applies stablehlo.add across dimensions = [1]
      : (tensor<2x20xf32>, tensor<f32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
