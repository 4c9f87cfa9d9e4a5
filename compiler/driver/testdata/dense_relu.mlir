// jax.nn.relu(x @ w + b) as JAX exports it: a matmul with a fused bias and
// activation epilogue.
module @jit_dense attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32> {mhlo.layout_mode = "default"},
                         %arg1: tensor<3x4xf32> {mhlo.layout_mode = "default"},
                         %arg2: tensor<4xf32> {mhlo.layout_mode = "default"})
      -> (tensor<2x4xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
    %2 = stablehlo.add %0, %1 : tensor<2x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %4 = stablehlo.maximum %2, %3 : tensor<2x4xf32>
    return %4 : tensor<2x4xf32>
  }
}
