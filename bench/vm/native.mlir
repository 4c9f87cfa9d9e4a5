// Benchmark: calls into a native module, as native.lua. Each iteration
// calls hal.devices.count (a C function of the runtime's hal module that
// returns an i32; grt-run creates one device, so it returns 1) and adds
// the result -- the path every host program takes for each HAL operation.
vm.module @bench_native {
  vm.import @hal.devices.count() -> i32
  vm.export @calls
  vm.func @calls(%n : i32) -> i32 {
    %zero = vm.const.i32 0
    %one = vm.const.i32 1
    vm.br ^loop(%zero, %zero : i32, i32)
  ^loop(%i : i32, %acc : i32):
    %more = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %more, ^body, ^done
  ^body:
    %count = vm.call @hal.devices.count() : () -> i32
    %acc1 = vm.add.i32 %acc, %count : i32
    %i1 = vm.add.i32 %i, %one : i32
    vm.br ^loop(%i1, %acc1 : i32, i32)
  ^done:
    vm.return %acc : i32
  }
}
