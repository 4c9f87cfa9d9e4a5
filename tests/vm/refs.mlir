// Refs: null refs, identity comparison, select and casts between a typed
// ref and an untyped one.
vm.module @refs {
  vm.export @test_null_refs
  vm.func @test_null_refs() {
    %null = vm.const.ref.zero : !vm.buffer
    %nz = vm.cmp.nz.ref %null : !vm.buffer
    %zero = vm.const.i32 0
    vm.check.eq %nz, %zero, "the null ref is null" : i32
    %other = vm.const.ref.zero : !vm.buffer
    %eq = vm.cmp.eq.ref %null, %other : !vm.buffer
    vm.check.nz %eq, "two null refs are equal" : i32
    vm.return
  }

  vm.export @test_identity
  vm.func @test_identity() {
    %c4 = vm.const.i64 4
    %align = vm.const.i32 4
    %a = vm.buffer.alloc %c4, %align : !vm.buffer
    %b = vm.buffer.alloc %c4, %align : !vm.buffer
    %ne = vm.cmp.ne.ref %a, %b : !vm.buffer
    vm.check.nz %ne, "two allocations are different objects" : i32
    %eq = vm.cmp.eq.ref %a, %a : !vm.buffer
    vm.check.nz %eq, "a ref equals itself" : i32
    %one = vm.const.i32 1
    %picked = vm.select.ref %one, %b, %a : !vm.buffer
    vm.check.eq %picked, %b, "select.ref" : !vm.buffer
    vm.return
  }

  vm.export @test_casts
  vm.func @test_casts() {
    %c4 = vm.const.i64 4
    %align = vm.const.i32 4
    %a = vm.buffer.alloc %c4, %align : !vm.buffer
    %any = vm.cast.ref.any %a : !vm.buffer -> !vm.ref<?>
    %back = vm.cast.any.ref %any : !vm.ref<?> -> !vm.buffer
    vm.check.eq %back, %a, "buffer -> any -> buffer" : !vm.buffer
    vm.return
  }

  vm.export @fail_cast_to_the_wrong_type
  vm.func @fail_cast_to_the_wrong_type() {
    %c4 = vm.const.i64 4
    %align = vm.const.i32 4
    %a = vm.buffer.alloc %c4, %align : !vm.buffer
    %any = vm.cast.ref.any %a : !vm.buffer -> !vm.ref<?>
    %list = vm.cast.any.ref %any : !vm.ref<?> -> !vm.list<i32>
    vm.return
  }
}
