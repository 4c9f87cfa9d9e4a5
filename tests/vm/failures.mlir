// Failures: every fail_ function must make the VM return an error (and
// grt-check prints which one); the test_ function shows the module itself
// is fine.
vm.module @failures {
  vm.export @test_nothing_fails_here
  vm.func @test_nothing_fails_here() {
    vm.return
  }

  vm.export @fail_vm_fail
  vm.func @fail_vm_fail() {
    %code = vm.const.i32 9
    vm.fail %code, "deliberate failure"
  }

  vm.export @fail_check_eq
  vm.func @fail_check_eq() {
    %a = vm.const.i32 1
    %b = vm.const.i32 2
    vm.check.eq %a, %b, "1 is not 2" : i32
    vm.return
  }

  vm.export @fail_cond_fail
  vm.func @fail_cond_fail() {
    %one = vm.const.i32 1
    %code = vm.const.i32 3
    vm.cond_fail %one, %code, "condition held"
    vm.return
  }

  vm.export @fail_division_by_zero
  vm.func @fail_division_by_zero() {
    %a = vm.const.i32 1
    %zero = vm.const.i32 0
    %q = vm.div.i32.s %a, %zero : i32
    vm.return
  }

  vm.export @fail_signed_overflow_in_division
  vm.func @fail_signed_overflow_in_division() {
    %min = vm.const.i64 -9223372036854775808
    %m1 = vm.const.i64 -1
    %q = vm.rem.i64.s %min, %m1 : i64
    vm.return
  }

  vm.export @fail_list_index_out_of_range
  vm.func @fail_list_index_out_of_range() {
    %c2 = vm.const.i32 2
    %list = vm.list.alloc %c2 : (i32) -> !vm.list<i32>
    %c5 = vm.const.i32 5
    %v = vm.list.get.i32 %list, %c5 : (!vm.list<i32>, i32) -> i32
    vm.return
  }

  vm.func private @forever(%n : i32) -> i32 {
    %one = vm.const.i32 1
    %m = vm.add.i32 %n, %one : i32
    %r = vm.call @forever(%m) : (i32) -> i32
    vm.return %r : i32
  }

  vm.export @fail_stack_overflow_by_deep_recursion
  vm.func @fail_stack_overflow_by_deep_recursion() {
    %zero = vm.const.i32 0
    %r = vm.call @forever(%zero) : (i32) -> i32
    vm.return
  }

  vm.export @fail_null_ref
  vm.func @fail_null_ref() {
    %null = vm.const.ref.zero : !vm.buffer
    %len = vm.buffer.length %null : !vm.buffer -> i64
    vm.return
  }

  vm.export @fail_null_list
  vm.func @fail_null_list() {
    %null = vm.const.ref.zero : !vm.list<i32>
    %size = vm.list.size %null : (!vm.list<i32>) -> i32
    vm.return
  }
}
