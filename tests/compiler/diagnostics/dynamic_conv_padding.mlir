// dynamic_conv's padding operand must be [spatial dims x 2].
// ERROR: dynamic_conv_padding.mlir:5:8: error: 'stablehlo.dynamic_conv' padding operand has type tensor<1x2xi64>, expected 2 x 2 integers (low and high for each of 2 spatial dimensions)
func.func @main(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<1x5x5x4xf32> {
  %p = stablehlo.constant dense<[[1, 1]]> : tensor<1x2xi64>
  %y = "stablehlo.dynamic_conv"(%x, %w, %p) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, window_strides = array<i64: 1, 1>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x2xf32>, tensor<3x3x2x4xf32>, tensor<1x2xi64>) -> tensor<1x5x5x4xf32>
  return %y : tensor<1x5x5x4xf32>
}
