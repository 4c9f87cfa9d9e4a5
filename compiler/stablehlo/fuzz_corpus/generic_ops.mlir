func.func @f(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>, %u: tensor<2x3xf32>, %p: tensor<i1>, %k: tensor<i32>) -> tensor<2x3xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %g = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  %s = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  %o = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare  LT, %a, %b,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<5x3xf32>) -> tensor<5x3xf32>
  %w = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 1, 1>, padding = dense<[[1, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<5x3xf32>, tensor<f32>) -> tensor<5x3xf32>
  %r = "stablehlo.if"(%p) ({
    stablehlo.return %u : tensor<2x3xf32>
  }, {
    stablehlo.return %g : tensor<2x3xf32>
  }) : (tensor<i1>) -> tensor<2x3xf32>
  %q = "stablehlo.case"(%k) ({
    stablehlo.return %r : tensor<2x3xf32>
  }, {
    stablehlo.return %u : tensor<2x3xf32>
  }) : (tensor<i32>) -> tensor<2x3xf32>
  %c = "stablehlo.convolution"(%x, %x) {dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = []>} : (tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<5x5xf32>
  return %q : tensor<2x3xf32>
}
