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

  // No module in grt-check's context exports absent.fn: the import links
  // (it is optional) and fails only when called.
  vm.import private optional @absent.fn(%a : i32) -> i32

  vm.export @fail_unresolved_optional_import
  vm.func @fail_unresolved_optional_import() {
    %c1 = vm.const.i32 1
    %r = vm.call @absent.fn(%c1) : (i32) -> i32
    vm.return
  }

  // A failure two frames deep while each frame holds refs (a buffer and a
  // list holding it): unwinding releases them, so the sanitizer tree's leak
  // check finds nothing.
  vm.func private @fail_holding(%buffer : !vm.buffer) {
    %c4 = vm.const.i32 4
    %list = vm.list.alloc %c4 : (i32) -> !vm.list<?>
    %c1 = vm.const.i32 1
    vm.list.resize %list, %c1 : (!vm.list<?>, i32)
    %c0 = vm.const.i32 0
    vm.list.set.ref %list, %c0, %buffer : (!vm.list<?>, i32, !vm.buffer)
    %code = vm.const.i32 13
    vm.fail %code, "failing with live refs"
  }

  vm.export @fail_unwinds_frames_holding_refs
  vm.func @fail_unwinds_frames_holding_refs() {
    %length = vm.const.i64 64
    %alignment = vm.const.i32 16
    %buffer = vm.buffer.alloc %length, %alignment : !vm.buffer
    vm.call @fail_holding(%buffer) : (!vm.buffer) -> ()
    vm.return
  }

  vm.export @fail_null_list
  vm.func @fail_null_list() {
    %null = vm.const.ref.zero : !vm.list<i32>
    %size = vm.list.size %null : (!vm.list<i32>) -> i32
    vm.return
  }
}
