// f32 arithmetic and math functions, on values exact in binary so results
// can be checked for equality.
vm.module @arithmetic_f32 {
  vm.export @test_add_sub_mul_div
  vm.func @test_add_sub_mul_div() {
    %a = vm.const.f32 1.5
    %b = vm.const.f32 0.25
    %sum = vm.add.f32 %a, %b : f32
    %e_sum = vm.const.f32 1.75
    vm.check.eq %sum, %e_sum, "1.5 + 0.25" : f32
    %diff = vm.sub.f32 %b, %a : f32
    %e_diff = vm.const.f32 -1.25
    vm.check.eq %diff, %e_diff, "0.25 - 1.5" : f32
    %prod = vm.mul.f32 %a, %b : f32
    %e_prod = vm.const.f32 0.375
    vm.check.eq %prod, %e_prod, "1.5 * 0.25" : f32
    %quot = vm.div.f32 %a, %b : f32
    %e_quot = vm.const.f32 6.0
    vm.check.eq %quot, %e_quot, "1.5 / 0.25" : f32
    vm.return
  }

  vm.export @test_rounding
  vm.func @test_rounding() {
    %x = vm.const.f32 -2.5
    %ceil = vm.ceil.f32 %x : f32
    %e_ceil = vm.const.f32 -2.0
    vm.check.eq %ceil, %e_ceil, "ceil(-2.5)" : f32
    %floor = vm.floor.f32 %x : f32
    %e_floor = vm.const.f32 -3.0
    vm.check.eq %floor, %e_floor, "floor(-2.5)" : f32
    %round = vm.round.f32 %x : f32
    vm.check.eq %round, %e_floor, "round(-2.5) goes away from zero" : f32
    %even = vm.round.f32.even %x : f32
    vm.check.eq %even, %e_ceil, "round_even(-2.5) goes to even" : f32
    vm.return
  }

  vm.export @test_math
  vm.func @test_math() {
    %x = vm.const.f32 16.0
    %sqrt = vm.sqrt.f32 %x : f32
    %e_sqrt = vm.const.f32 4.0
    vm.check.eq %sqrt, %e_sqrt, "sqrt(16)" : f32
    %rsqrt = vm.rsqrt.f32 %x : f32
    %e_rsqrt = vm.const.f32 0.25
    vm.check.eq %rsqrt, %e_rsqrt, "rsqrt(16)" : f32
    %zero = vm.const.f32 0.0
    %exp = vm.exp.f32 %zero : f32
    %one = vm.const.f32 1.0
    vm.check.eq %exp, %one, "exp(0)" : f32
    %log2 = vm.log2.f32 %x : f32
    vm.check.eq %log2, %e_sqrt, "log2(16)" : f32
    %two = vm.const.f32 2.0
    %c10 = vm.const.f32 10.0
    %pow = vm.pow.f32 %two, %c10 : f32
    %e_pow = vm.const.f32 1024.0
    vm.check.eq %pow, %e_pow, "2^10" : f32
    %neg = vm.neg.f32 %x : f32
    %abs = vm.abs.f32 %neg : f32
    vm.check.eq %abs, %x, "abs(-16)" : f32
    %fma = vm.fma.f32 %two, %c10, %one : f32
    %e_fma = vm.const.f32 21.0
    vm.check.eq %fma, %e_fma, "2 * 10 + 1" : f32
    %min = vm.min.f32 %two, %neg : f32
    vm.check.eq %min, %neg, "min(2, -16)" : f32
    %max = vm.max.f32 %two, %neg : f32
    vm.check.eq %max, %two, "max(2, -16)" : f32
    vm.return
  }

  vm.export @test_division_by_zero_is_ieee
  vm.func @test_division_by_zero_is_ieee() {
    %one = vm.const.f32 1.0
    %zero = vm.const.f32 0.0
    %inf = vm.div.f32 %one, %zero : f32
    %big = vm.const.f32 3.0e38
    %gt = vm.cmp.gt.f32.o %inf, %big : f32
    vm.check.nz %gt, "1 / 0 is +inf, not a trap" : i32
    %nan = vm.div.f32 %zero, %zero : f32
    %isnan = vm.cmp.nan.f32 %nan : f32
    vm.check.nz %isnan, "0 / 0 is NaN" : i32
    vm.return
  }
}
