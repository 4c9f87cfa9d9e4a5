vm.module @bad {
  vm.func @f() {
    vm.nope
  }
}
