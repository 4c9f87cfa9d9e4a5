func.func @main(%lhs: tensor<7x3xf32>, %rhs: tensor<3x3x4xf32>, %sizes: tensor<3xi64>,
                %b: tensor<2x3x5xf32>, %c: tensor<2x5x4xf32>, %bs: tensor<2x2xi32>) -> (tensor<7x4xf32>, tensor<2x2x3x4xf32>) {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<7x3xf32>, tensor<3x3x4xf32>, tensor<3xi64>) -> tensor<7x4xf32>
  %1 = "chlo.ragged_dot"(%b, %c, %bs) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [2]>}> : (tensor<2x3x5xf32>, tensor<2x5x4xf32>, tensor<2x2xi32>) -> tensor<2x2x3x4xf32>
  return %0, %1 : tensor<7x4xf32>, tensor<2x2x3x4xf32>
}
