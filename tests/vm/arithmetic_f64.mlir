// f64 arithmetic: values that need more than f32's 24-bit mantissa.
vm.module @arithmetic_f64 {
  vm.export @test_add_sub_mul_div
  vm.func @test_add_sub_mul_div() {
    %a = vm.const.f64 16777217.0
    %b = vm.const.f64 0.5
    %sum = vm.add.f64 %a, %b : f64
    %e_sum = vm.const.f64 16777217.5
    vm.check.eq %sum, %e_sum, "needs a 53-bit mantissa" : f64
    %diff = vm.sub.f64 %b, %a : f64
    %e_diff = vm.const.f64 -16777216.5
    vm.check.eq %diff, %e_diff, "0.5 - 16777217" : f64
    %prod = vm.mul.f64 %a, %b : f64
    %e_prod = vm.const.f64 8388608.5
    vm.check.eq %prod, %e_prod, "16777217 * 0.5" : f64
    %quot = vm.div.f64 %a, %b : f64
    %e_quot = vm.const.f64 33554434.0
    vm.check.eq %quot, %e_quot, "16777217 / 0.5" : f64
    %rem = vm.rem.f64 %a, %b : f64
    %zero = vm.const.f64 0.0
    vm.check.eq %rem, %zero, "remainder(16777217, 0.5)" : f64
    vm.return
  }

  vm.export @test_math
  vm.func @test_math() {
    %x = vm.const.f64 0.0
    %sin = vm.sin.f64 %x : f64
    vm.check.eq %sin, %x, "sin(0)" : f64
    %cos = vm.cos.f64 %x : f64
    %one = vm.const.f64 1.0
    vm.check.eq %cos, %one, "cos(0)" : f64
    %tanh = vm.tanh.f64 %x : f64
    vm.check.eq %tanh, %x, "tanh(0)" : f64
    %c1000 = vm.const.f64 1000.0
    %log10 = vm.log10.f64 %c1000 : f64
    %three = vm.const.f64 3.0
    vm.check.eq %log10, %three, "log10(1000)" : f64
    %atan2 = vm.atan2.f64 %x, %one : f64
    vm.check.eq %atan2, %x, "atan2(0, 1)" : f64
    %round = vm.round.f64 %three : f64
    vm.check.eq %round, %three, "round(3)" : f64
    vm.return
  }
}
