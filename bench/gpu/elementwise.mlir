// bench_cuda elementwise: a chain of four elementwise ops the compiler fuses
// into one kernel, over 256 MiB of f32 (64 Mi elements) in and 256 MiB out
// (bench/gpu/bench_cuda.c), timed against a 256 MiB device-to-device copy.
module @bench_elementwise {
  func.func public @fused(%x: tensor<67108864xf32>) -> tensor<67108864xf32> {
    %two = stablehlo.constant dense<2.0> : tensor<67108864xf32>
    %one = stablehlo.constant dense<1.0> : tensor<67108864xf32>
    %0 = stablehlo.multiply %x, %two : tensor<67108864xf32>
    %1 = stablehlo.add %0, %one : tensor<67108864xf32>
    %2 = stablehlo.multiply %1, %x : tensor<67108864xf32>
    %3 = stablehlo.maximum %2, %one : tensor<67108864xf32>
    return %3 : tensor<67108864xf32>
  }
}
