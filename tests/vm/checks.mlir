// vm.check.nearly_eq's tolerance, |a - b| <= 1e-4 + 1e-4 * |b| (absolute
// near zero, relative for large values; NaN never passes), and IREE's bare
// vm.cond_fail %cond, "message" (status UNKNOWN).
vm.module @checks {
  vm.export @test_nearly_eq_absolute_near_zero
  vm.func @test_nearly_eq_absolute_near_zero() {
    %a = vm.const.f32 0.00005
    %zero = vm.const.f32 0.0
    vm.check.nearly_eq %a, %zero, "within the absolute tolerance" : f32
    vm.return
  }

  vm.export @fail_nearly_eq_absolute_near_zero
  vm.func @fail_nearly_eq_absolute_near_zero() {
    %a = vm.const.f32 0.001
    %zero = vm.const.f32 0.0
    vm.check.nearly_eq %a, %zero, "0.001 is not near 0" : f32
    vm.return
  }

  vm.export @test_nearly_eq_relative_for_large_values
  vm.func @test_nearly_eq_relative_for_large_values() {
    %a = vm.const.f32 10000.5
    %b = vm.const.f32 10000.0
    vm.check.nearly_eq %a, %b, "0.5 apart at 1e4 is within 1e-4 relative" : f32
    %c = vm.const.f64 1000000.0
    %d = vm.const.f64 1000000.09
    vm.check.nearly_eq %c, %d : f64
    vm.return
  }

  vm.export @fail_nearly_eq_relative_for_large_values
  vm.func @fail_nearly_eq_relative_for_large_values() {
    %a = vm.const.f64 10002.0
    %b = vm.const.f64 10000.0
    vm.check.nearly_eq %a, %b, "2 apart at 1e4 is too far" : f64
    vm.return
  }

  vm.export @fail_nearly_eq_nan
  vm.func @fail_nearly_eq_nan() {
    %zero = vm.const.f32 0.0
    %nan = vm.div.f32 %zero, %zero : f32
    vm.check.nearly_eq %nan, %nan, "NaN is near nothing" : f32
    vm.return
  }

  vm.export @test_bare_cond_fail_not_taken
  vm.func @test_bare_cond_fail_not_taken() {
    %zero = vm.const.i32 0
    vm.cond_fail %zero, "never"
    vm.return
  }

  vm.export @fail_bare_cond_fail
  vm.func @fail_bare_cond_fail() {
    %one = vm.const.i32 1
    vm.cond_fail %one, "condition held"
    vm.return
  }
}
