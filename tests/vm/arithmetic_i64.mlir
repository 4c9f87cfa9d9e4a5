// i64 arithmetic: values that do not fit in 32 bits, so a result that lost
// its high half shows.
vm.module @arithmetic_i64 {
  vm.export @test_add_sub_mul
  vm.func @test_add_sub_mul() {
    %a = vm.const.i64 5000000000
    %b = vm.const.i64 3
    %sum = vm.add.i64 %a, %b : i64
    %e_sum = vm.const.i64 5000000003
    vm.check.eq %sum, %e_sum, "5e9 + 3" : i64
    %diff = vm.sub.i64 %b, %a : i64
    %e_diff = vm.const.i64 -4999999997
    vm.check.eq %diff, %e_diff, "3 - 5e9" : i64
    %prod = vm.mul.i64 %a, %b : i64
    %e_prod = vm.const.i64 15000000000
    vm.check.eq %prod, %e_prod, "5e9 * 3" : i64
    vm.return
  }

  vm.export @test_division_and_remainder
  vm.func @test_division_and_remainder() {
    %a = vm.const.i64 -10000000001
    %b = vm.const.i64 10
    %q = vm.div.i64.s %a, %b : i64
    %e_q = vm.const.i64 -1000000000
    vm.check.eq %q, %e_q, "signed division truncates" : i64
    %r = vm.rem.i64.s %a, %b : i64
    %e_r = vm.const.i64 -1
    vm.check.eq %r, %e_r, "signed remainder" : i64
    %m1 = vm.const.i64 -1
    %two = vm.const.i64 2
    %qu = vm.div.i64.u %m1, %two : i64
    %e_qu = vm.const.i64 9223372036854775807
    vm.check.eq %qu, %e_qu, "UINT64_MAX / 2" : i64
    vm.return
  }

  vm.export @test_bitwise_and_shifts
  vm.func @test_bitwise_and_shifts() {
    %one = vm.const.i64 1
    %c40 = vm.const.i32 40
    %shl = vm.shl.i64 %one, %c40 : i64
    %e_shl = vm.const.i64 1099511627776
    vm.check.eq %shl, %e_shl, "1 << 40" : i64
    %neg = vm.const.i64 -1099511627776
    %shrs = vm.shr.i64.s %neg, %c40 : i64
    %m1 = vm.const.i64 -1
    vm.check.eq %shrs, %m1, "arithmetic shift keeps the sign" : i64
    %shru = vm.shr.i64.u %neg, %c40 : i64
    %e_shru = vm.const.i64 16777215
    vm.check.eq %shru, %e_shru, "logical shift" : i64
    %x = vm.xor.i64 %shl, %one : i64
    %e_x = vm.const.i64 1099511627777
    vm.check.eq %x, %e_x, "xor" : i64
    %ctlz = vm.ctlz.i64 %shl : i64
    %e_ctlz = vm.const.i64 23
    vm.check.eq %ctlz, %e_ctlz, "ctlz(1 << 40)" : i64
    vm.return
  }

  vm.export @test_min_max_abs
  vm.func @test_min_max_abs() {
    %a = vm.const.i64 -6000000000
    %b = vm.const.i64 7
    %mins = vm.min.i64.s %a, %b : i64
    vm.check.eq %mins, %a, "signed min" : i64
    %maxu = vm.max.i64.u %a, %b : i64
    vm.check.eq %maxu, %a, "unsigned max" : i64
    %abs = vm.abs.i64 %a : i64
    %e_abs = vm.const.i64 6000000000
    vm.check.eq %abs, %e_abs, "abs" : i64
    vm.return
  }
}
