// Optional imports: vm.import.resolved says whether one linked (grt-check's
// context has the hal module, not a module named "nowhere"), a program can
// branch on it, and a global can take its value from an import's result.
vm.module @imports {
  vm.import private optional @hal.devices.count() -> i32
  vm.import private optional @nowhere.fn(%a : i32) -> i32
  vm.import private optional @nowhere.variadic(%a : i32 ...) -> i32

  // Set by calling the import while the context is created.
  vm.global.i32 private @device_count init(@hal.devices.count) : i32

  vm.export @test_resolved_import
  vm.func @test_resolved_import() {
    %ok = vm.import.resolved @hal.devices.count : i32
    %one = vm.const.i32 1
    vm.check.eq %ok, %one, "hal.devices.count resolved" : i32
    vm.return
  }

  vm.export @test_unresolved_imports
  vm.func @test_unresolved_imports() {
    %a = vm.import.resolved @nowhere.fn : i32
    %b = vm.import.resolved @nowhere.variadic : i32
    %zero = vm.const.i32 0
    vm.check.eq %a, %zero, "nowhere.fn did not resolve" : i32
    vm.check.eq %b, %zero, "nowhere.variadic did not resolve" : i32
    vm.return
  }

  // The guarded call is skipped, so the unresolved import is never called.
  vm.func private @fn_or_default(%x : i32) -> i32 {
    %ok = vm.import.resolved @nowhere.fn : i32
    vm.cond_br %ok, ^call, ^fallback
  ^call:
    %r = vm.call @nowhere.fn(%x) : (i32) -> i32
    vm.return %r : i32
  ^fallback:
    %c = vm.const.i32 -1
    vm.return %c : i32
  }

  vm.export @test_guarded_call_falls_back
  vm.func @test_guarded_call_falls_back() {
    %x = vm.const.i32 5
    %r = vm.call @fn_or_default(%x) : (i32) -> i32
    %e = vm.const.i32 -1
    vm.check.eq %r, %e, "fallback taken" : i32
    vm.return
  }

  vm.export @test_global_initialized_by_import
  vm.func @test_global_initialized_by_import() {
    %g = vm.global.load.i32 @device_count : i32
    %n = vm.call @hal.devices.count() : () -> i32
    vm.check.eq %g, %n, "init(@hal.devices.count) stored the device count" : i32
    %one = vm.const.i32 1
    %some = vm.cmp.gte.i32.s %g, %one : i32
    vm.check.eq %some, %one, "at least one device" : i32
    vm.return
  }

  vm.export @fail_call_unresolved
  vm.func @fail_call_unresolved() {
    %x = vm.const.i32 5
    %r = vm.call @nowhere.fn(%x) : (i32) -> i32
    vm.return
  }
}
