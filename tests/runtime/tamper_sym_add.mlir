// A compiled program with a symbolic extent for the tamper test
// (tools/tamper_sym_add_*.test): main$buffers sizes every ?x4xf32 binding
// and the result as `const.i64 16` times the extent, and passes the extent
// to the kernel as a push constant. The test rewrites the 16 to 4, so the
// bindings are a quarter of what the extent says; the kernel has no
// static size the HAL could check (its binding_min_lengths are 0), so it
// checks its indices against the bindings itself and fails the dispatch
// instead of writing past the result's block.
module @tamper_sym_add {
  func.func public @main(%a : tensor<?x4xf32>, %b : tensor<?x4xf32>) -> tensor<?x4xf32> {
    %0 = stablehlo.add %a, %b : tensor<?x4xf32>
    return %0 : tensor<?x4xf32>
  }
}
