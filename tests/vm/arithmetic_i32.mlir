// i32 arithmetic, bitwise and shift ops: every result checked against a
// value worked out by hand, including wrap-around at the type's edges.
vm.module @arithmetic_i32 {
  vm.export @test_add_sub_mul
  vm.func @test_add_sub_mul() {
    %a = vm.const.i32 7
    %b = vm.const.i32 -3
    %sum = vm.add.i32 %a, %b : i32
    %c4 = vm.const.i32 4
    vm.check.eq %sum, %c4, "7 + -3 = 4" : i32
    %diff = vm.sub.i32 %a, %b : i32
    %c10 = vm.const.i32 10
    vm.check.eq %diff, %c10, "7 - -3 = 10" : i32
    %prod = vm.mul.i32 %a, %b : i32
    %cm21 = vm.const.i32 -21
    vm.check.eq %prod, %cm21, "7 * -3 = -21" : i32
    vm.return
  }

  vm.export @test_wraps_at_the_edges
  vm.func @test_wraps_at_the_edges() {
    %max = vm.const.i32 2147483647
    %one = vm.const.i32 1
    %wrapped = vm.add.i32 %max, %one : i32
    %min = vm.const.i32 -2147483648
    vm.check.eq %wrapped, %min, "INT32_MAX + 1 wraps to INT32_MIN" : i32
    %abs = vm.abs.i32 %min : i32
    vm.check.eq %abs, %min, "abs(INT32_MIN) stays INT32_MIN" : i32
    vm.return
  }

  vm.export @test_division_and_remainder
  vm.func @test_division_and_remainder() {
    %a = vm.const.i32 -7
    %b = vm.const.i32 2
    %q = vm.div.i32.s %a, %b : i32
    %cm3 = vm.const.i32 -3
    vm.check.eq %q, %cm3, "-7 / 2 = -3 (truncating)" : i32
    %r = vm.rem.i32.s %a, %b : i32
    %cm1 = vm.const.i32 -1
    vm.check.eq %r, %cm1, "-7 % 2 = -1" : i32
    %qu = vm.div.i32.u %a, %b : i32
    %big = vm.const.i32 2147483644
    vm.check.eq %qu, %big, "0xFFFFFFF9 / 2 unsigned" : i32
    %ru = vm.rem.i32.u %a, %b : i32
    %one = vm.const.i32 1
    vm.check.eq %ru, %one, "0xFFFFFFF9 % 2 unsigned" : i32
    vm.return
  }

  vm.export @test_fma_abs_min_max
  vm.func @test_fma_abs_min_max() {
    %a = vm.const.i32 3
    %b = vm.const.i32 4
    %c = vm.const.i32 5
    %fma = vm.fma.i32 %a, %b, %c : i32
    %c17 = vm.const.i32 17
    vm.check.eq %fma, %c17, "3 * 4 + 5" : i32
    %neg = vm.const.i32 -9
    %abs = vm.abs.i32 %neg : i32
    %c9 = vm.const.i32 9
    vm.check.eq %abs, %c9, "abs(-9)" : i32
    %mins = vm.min.i32.s %neg, %a : i32
    vm.check.eq %mins, %neg, "signed min(-9, 3)" : i32
    %minu = vm.min.i32.u %neg, %a : i32
    vm.check.eq %minu, %a, "unsigned min(0xFFFFFFF7, 3)" : i32
    %maxs = vm.max.i32.s %neg, %a : i32
    vm.check.eq %maxs, %a, "signed max(-9, 3)" : i32
    %maxu = vm.max.i32.u %neg, %a : i32
    vm.check.eq %maxu, %neg, "unsigned max(0xFFFFFFF7, 3)" : i32
    vm.return
  }

  vm.export @test_bitwise
  vm.func @test_bitwise() {
    %a = vm.const.i32 12
    %b = vm.const.i32 10
    %and = vm.and.i32 %a, %b : i32
    %c8 = vm.const.i32 8
    vm.check.eq %and, %c8, "12 & 10" : i32
    %or = vm.or.i32 %a, %b : i32
    %c14 = vm.const.i32 14
    vm.check.eq %or, %c14, "12 | 10" : i32
    %xor = vm.xor.i32 %a, %b : i32
    %c6 = vm.const.i32 6
    vm.check.eq %xor, %c6, "12 ^ 10" : i32
    %not = vm.not.i32 %a : i32
    %cm13 = vm.const.i32 -13
    vm.check.eq %not, %cm13, "~12" : i32
    %one = vm.const.i32 1
    %ctlz = vm.ctlz.i32 %one : i32
    %c31 = vm.const.i32 31
    vm.check.eq %ctlz, %c31, "ctlz(1)" : i32
    vm.return
  }

  vm.export @test_shifts
  vm.func @test_shifts() {
    %a = vm.const.i32 -16
    %c2 = vm.const.i32 2
    %shl = vm.shl.i32 %a, %c2 : i32
    %cm64 = vm.const.i32 -64
    vm.check.eq %shl, %cm64, "-16 << 2" : i32
    %shrs = vm.shr.i32.s %a, %c2 : i32
    %cm4 = vm.const.i32 -4
    vm.check.eq %shrs, %cm4, "-16 >> 2 arithmetic" : i32
    %shru = vm.shr.i32.u %a, %c2 : i32
    %big = vm.const.i32 1073741820
    vm.check.eq %shru, %big, "-16 >> 2 logical" : i32
    %c34 = vm.const.i32 34
    %masked = vm.shl.i32 %c2, %c34 : i32
    %c8 = vm.const.i32 8
    vm.check.eq %masked, %c8, "shift amounts are taken mod 32" : i32
    vm.return
  }
}
