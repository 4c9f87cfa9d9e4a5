// Comparisons of every type, signed against unsigned, ordered against
// unordered, and select/switch which consume their results.
vm.module @comparisons {
  vm.export @test_i32_signed_unsigned
  vm.func @test_i32_signed_unsigned() {
    %neg = vm.const.i32 -1
    %one = vm.const.i32 1
    %zero = vm.const.i32 0
    %lts = vm.cmp.lt.i32.s %neg, %one : i32
    vm.check.eq %lts, %one, "-1 < 1 signed" : i32
    %ltu = vm.cmp.lt.i32.u %neg, %one : i32
    vm.check.eq %ltu, %zero, "0xFFFFFFFF < 1 is false unsigned" : i32
    %gtes = vm.cmp.gte.i32.s %one, %one : i32
    vm.check.eq %gtes, %one, "1 >= 1" : i32
    %lte = vm.cmp.lte.i32.s %one, %neg : i32
    vm.check.eq %lte, %zero, "1 <= -1 is false" : i32
    %gtu = vm.cmp.gt.i32.u %neg, %one : i32
    vm.check.eq %gtu, %one, "0xFFFFFFFF > 1 unsigned" : i32
    %eq = vm.cmp.eq.i32 %one, %one : i32
    vm.check.eq %eq, %one, "1 == 1" : i32
    %ne = vm.cmp.ne.i32 %one, %neg : i32
    vm.check.eq %ne, %one, "1 != -1" : i32
    %nz = vm.cmp.nz.i32 %zero : i32
    vm.check.eq %nz, %zero, "0 is zero" : i32
    vm.return
  }

  vm.export @test_i64
  vm.func @test_i64() {
    %a = vm.const.i64 4294967296
    %b = vm.const.i64 1
    %one = vm.const.i32 1
    %zero = vm.const.i32 0
    %lt = vm.cmp.lt.i64.s %b, %a : i64
    vm.check.eq %lt, %one, "1 < 2^32 (the high half counts)" : i32
    %eq = vm.cmp.eq.i64 %a, %b : i64
    vm.check.eq %eq, %zero, "2^32 != 1" : i32
    %neg = vm.const.i64 -1
    %gtu = vm.cmp.gt.i64.u %neg, %a : i64
    vm.check.eq %gtu, %one, "UINT64_MAX > 2^32 unsigned" : i32
    %nz = vm.cmp.nz.i64 %a : i64
    vm.check.eq %nz, %one, "2^32 is not zero" : i32
    vm.return
  }

  vm.export @test_floats_ordered_unordered
  vm.func @test_floats_ordered_unordered() {
    %zero_f = vm.const.f32 0.0
    %nan = vm.div.f32 %zero_f, %zero_f : f32
    %one_f = vm.const.f32 1.0
    %one = vm.const.i32 1
    %zero = vm.const.i32 0
    %eq_o = vm.cmp.eq.f32.o %nan, %nan : f32
    vm.check.eq %eq_o, %zero, "NaN == NaN is false ordered" : i32
    %eq_u = vm.cmp.eq.f32.u %nan, %nan : f32
    vm.check.eq %eq_u, %one, "NaN == NaN is true unordered" : i32
    %lt = vm.cmp.lt.f32.o %zero_f, %one_f : f32
    vm.check.eq %lt, %one, "0 < 1" : i32
    %a = vm.const.f64 0.1
    %b = vm.const.f64 0.2
    %lte = vm.cmp.lte.f64.o %a, %b : f64
    vm.check.eq %lte, %one, "0.1 <= 0.2" : i32
    %ne = vm.cmp.ne.f64.o %a, %b : f64
    vm.check.eq %ne, %one, "0.1 != 0.2" : i32
    vm.return
  }

  // IREE's cmp.nz.f*.o/.u and cmp.eq.f*.near, spelled as IREE spells them.
  vm.export @test_floats_nonzero_and_near
  vm.func @test_floats_nonzero_and_near() {
    %zero_f = vm.const.f32.zero
    %nan = vm.div.f32 %zero_f, %zero_f : f32
    %one = vm.const.i32 1
    %zero = vm.const.i32 0
    %nz_o = vm.cmp.nz.f32.o %nan : f32
    vm.check.eq %nz_o, %zero, "NaN is not nonzero ordered" : i32
    %nz_u = vm.cmp.nz.f32.u %nan : f32
    vm.check.eq %nz_u, %one, "NaN is nonzero unordered" : i32
    %neg_zero = vm.const.f64 -0.0
    %nz_d = vm.cmp.nz.f64.o %neg_zero : f64
    vm.check.eq %nz_d, %zero, "-0.0 is zero" : i32
    %big = vm.const.f32 1000.0
    %big_near = vm.const.f32 1000.05
    %big_far = vm.const.f32 1000.5
    %near = vm.cmp.eq.f32.near %big, %big_near : f32
    vm.check.eq %near, %one, "1000 is near 1000.05 (relative 1e-4)" : i32
    %far = vm.cmp.eq.f32.near %big, %big_far : f32
    vm.check.eq %far, %zero, "1000 is not near 1000.5" : i32
    %nan_near = vm.cmp.eq.f32.near %nan, %nan : f32
    vm.check.eq %nan_near, %zero, "NaN is near nothing" : i32
    %tiny = vm.const.f64 0.00005
    %zero_d = vm.const.f64.zero
    %tiny_near = vm.cmp.eq.f64.near %tiny, %zero_d : f64
    vm.check.eq %tiny_near, %one, "5e-5 is near 0 (absolute 1e-4)" : i32
    vm.return
  }

  vm.export @test_select_and_switch
  vm.func @test_select_and_switch() {
    %one = vm.const.i32 1
    %zero = vm.const.i32 0
    %a = vm.const.i32 10
    %b = vm.const.i32 20
    %s1 = vm.select.i32 %one, %a, %b : i32
    vm.check.eq %s1, %a, "select(1, a, b) = a" : i32
    %s0 = vm.select.i32 %zero, %a, %b : i32
    vm.check.eq %s0, %b, "select(0, a, b) = b" : i32
    %fa = vm.const.f32 1.5
    %fb = vm.const.f32 2.5
    %sf = vm.select.f32 %zero, %fa, %fb : f32
    vm.check.eq %sf, %fb, "select.f32" : f32
    %c30 = vm.const.i32 30
    %d = vm.const.i32 -1
    %w1 = vm.switch.i32 %one[%a, %b, %c30] else %d : i32
    vm.check.eq %w1, %b, "switch index 1" : i32
    %c7 = vm.const.i32 7
    %w7 = vm.switch.i32 %c7[%a, %b, %c30] else %d : i32
    vm.check.eq %w7, %d, "switch out of range takes the default" : i32
    vm.return
  }
}
