func.func @f(%x: tensor<2x3xf32>, %v: tensor<f32>, %i: tensor<i32>) -> tensor<7x3xf32> {
  %0 = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.reshape %0 : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %3 = stablehlo.slice %2 [0:2, 1:3:1] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  %4 = stablehlo.dynamic_slice %2, %i, %i, sizes = [1, 2] : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
  %5 = stablehlo.dynamic_update_slice %2, %4, %i, %i : (tensor<2x3xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %6 = stablehlo.concatenate %3, %3, dim = 0 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  %7 = stablehlo.pad %6, %v, low = [1, 0], high = [2, 0], interior = [0, 1] : (tensor<4x2xf32>, tensor<f32>) -> tensor<7x3xf32>
  %8 = stablehlo.reverse %7, dims = [0] : tensor<7x3xf32>
  %9:2 = stablehlo.optimization_barrier %8, %x : tensor<7x3xf32>, tensor<2x3xf32>
  return %9#0 : tensor<7x3xf32>
}
