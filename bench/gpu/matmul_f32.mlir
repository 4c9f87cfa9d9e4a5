// bench_cuda matmul: f32 4096x4096x4096 (bench/gpu/bench_cuda.c).
module @bench_matmul_f32 {
  func.func public @matmul(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %c = stablehlo.dot %a, %b : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    return %c : tensor<4096x4096xf32>
  }
}
