// A vm.module inside a builtin module: grt-compile assembles it as written.
module {
  vm.module @wrapped {
    vm.func @one() -> i32 {
      %c = vm.const.i32 1
      vm.return %c : i32
    }
    vm.export @one
  }
}
