#loc1 = loc("x")
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.layout_mode = "default"} loc("x"), %arg1: tensor<16xf32>) -> (tensor<8x16xf32> {jax.result_info = ""}) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32> loc(#loc3)
    %1 = stablehlo.add %arg0, %0 : tensor<8x16xf32> loc(#loc3)
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32> loc(#loc)
    %c = stablehlo.constant dense<[[0], [1]]> : tensor<2x1xi32>
    %2 = "stablehlo.gather"(%1, %c) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<8x16xf32>, tensor<2x1xi32>) -> tensor<2x16xf32> loc(#loc)
    return %1 : tensor<8x16xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("/tmp/f.py":3:0)
#loc3 = loc("jit(f)/add"(#loc2))
