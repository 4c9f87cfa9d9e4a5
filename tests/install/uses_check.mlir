// A module with no executable that imports the check module: a runtime
// built with GRT_ENABLE_CHECK_MODULE=OFF must refuse it by name.
vm.module @uses_check {
  vm.import private @check.expect_true(%value : i32)
  vm.func @add(%value : i32) {
    vm.call @check.expect_true(%value) : (i32) -> ()
    vm.return
  }
  vm.export @add
}
