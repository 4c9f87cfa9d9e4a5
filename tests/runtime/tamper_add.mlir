// A compiled program for the tamper test (CMakeLists.txt,
// runtime_e2e_tamper_*): main$buffers materializes the 40-byte size of
// each tensor<10xf32> as one const.i64 that sizes the dispatch bindings,
// the result allocation and the binding table. The test rewrites it to 4;
// the HAL must refuse the dispatch against the kernel's recorded minimum
// binding length instead of letting the kernel write past a 4-byte block.
module @tamper_add {
  func.func public @main(%a : tensor<10xf32>, %b : tensor<10xf32>) -> tensor<10xf32> {
    %0 = stablehlo.add %a, %b : tensor<10xf32>
    return %0 : tensor<10xf32>
  }
}
