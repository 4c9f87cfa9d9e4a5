// bench_cuda matmul: f16 4096x4096x4096 (bench/gpu/bench_cuda.c).
module @bench_matmul_f16 {
  func.func public @matmul(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
    %c = stablehlo.dot %a, %b : (tensor<4096x4096xf16>, tensor<4096x4096xf16>) -> tensor<4096x4096xf16>
    return %c : tensor<4096x4096xf16>
  }
}
