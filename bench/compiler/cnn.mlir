// A small CNN as JAX exports it (NHWC, weights as arguments): conv 3x3
// 1->8 + bias + relu, 2x2 max pool, conv 3x3 8->16 + bias + relu, flatten,
// dense 3136->10. bench_compiler times its compilation when the sample
// (samples/cnn/cnn.mlir) is not there.
module @jit_cnn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1x28x28x1xf32> {mhlo.layout_mode = "default"},
                         %arg1: tensor<3x3x1x8xf32> {mhlo.layout_mode = "default"},
                         %arg2: tensor<8xf32> {mhlo.layout_mode = "default"},
                         %arg3: tensor<3x3x8x16xf32> {mhlo.layout_mode = "default"},
                         %arg4: tensor<16xf32> {mhlo.layout_mode = "default"},
                         %arg5: tensor<3136x10xf32> {mhlo.layout_mode = "default"},
                         %arg6: tensor<10xf32> {mhlo.layout_mode = "default"})
      -> (tensor<1x10xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x28x28x1xf32>, tensor<3x3x1x8xf32>) -> tensor<1x28x28x8xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<8xf32>) -> tensor<1x28x28x8xf32>
    %2 = stablehlo.add %0, %1 : tensor<1x28x28x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x28x28x8xf32>
    %4 = stablehlo.maximum %2, %3 : tensor<1x28x28x8xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %5 = "stablehlo.reduce_window"(%4, %cst_0) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
    }) : (tensor<1x28x28x8xf32>, tensor<f32>) -> tensor<1x14x14x8xf32>
    %6 = stablehlo.convolution(%5, %arg3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x14x14x8xf32>, tensor<3x3x8x16xf32>) -> tensor<1x14x14x16xf32>
    %7 = stablehlo.broadcast_in_dim %arg4, dims = [3] : (tensor<16xf32>) -> tensor<1x14x14x16xf32>
    %8 = stablehlo.add %6, %7 : tensor<1x14x14x16xf32>
    %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x14x14x16xf32>
    %10 = stablehlo.maximum %8, %9 : tensor<1x14x14x16xf32>
    %11 = stablehlo.reshape %10 : (tensor<1x14x14x16xf32>) -> tensor<1x3136xf32>
    %12 = stablehlo.dot_general %11, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x3136xf32>, tensor<3136x10xf32>) -> tensor<1x10xf32>
    %13 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %14 = stablehlo.add %12, %13 : tensor<1x10xf32>
    return %14 : tensor<1x10xf32>
  }
}
