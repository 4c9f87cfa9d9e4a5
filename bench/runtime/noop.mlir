// The trivial exported function whose call overhead bench_runtime times.
vm.module @bench {
  vm.export @noop
  vm.func @noop(%x : i32) -> i32 {
    vm.return %x : i32
  }
}
