// Integer truncation and extension, int <-> float casts (rounding half away
// from zero, saturating),
// bitcasts, and f32 <-> f64.
vm.module @conversions {
  vm.export @test_integer_widths
  vm.func @test_integer_widths() {
    %x = vm.const.i32 0x1FF80
    %t8 = vm.trunc.i32.i8 %x : i32 -> i32
    %e8 = vm.const.i32 0x80
    vm.check.eq %t8, %e8, "trunc to i8 keeps the low byte" : i32
    %s8 = vm.ext.i8.i32.s %t8 : i32 -> i32
    %em128 = vm.const.i32 -128
    vm.check.eq %s8, %em128, "sign-extend 0x80" : i32
    %u8 = vm.ext.i8.i32.u %t8 : i32 -> i32
    vm.check.eq %u8, %e8, "zero-extend 0x80" : i32
    %t16 = vm.trunc.i32.i16 %x : i32 -> i32
    %e16 = vm.const.i32 0xFF80
    vm.check.eq %t16, %e16, "trunc to i16" : i32
    %s16 = vm.ext.i16.i32.s %t16 : i32 -> i32
    vm.check.eq %s16, %em128, "sign-extend 0xFF80" : i32
    vm.return
  }

  // IREE's trunc.i16.i8 (an i16 held in an i32 register, cut to its low
  // byte) and older IREE's trunc.i8 / trunc.i16 are the same ops.
  vm.export @test_truncation_spellings
  vm.func @test_truncation_spellings() {
    %x = vm.const.i32 0x1FF80
    %t16 = vm.trunc.i32.i16 %x : i32 -> i32
    %t8 = vm.trunc.i16.i8 %t16 : i32 -> i32
    %e8 = vm.const.i32 0x80
    vm.check.eq %t8, %e8, "trunc.i16.i8 keeps the low byte" : i32
    %o8 = vm.trunc.i8 %x : i32
    vm.check.eq %o8, %e8, "trunc.i8" : i32
    %o16 = vm.trunc.i16 %x : i32
    %e16 = vm.const.i32 0xFF80
    vm.check.eq %o16, %e16, "trunc.i16" : i32
    vm.return
  }

  vm.export @test_i32_i64
  vm.func @test_i32_i64() {
    %m1 = vm.const.i32 -1
    %s = vm.ext.i32.i64.s %m1 : i32 -> i64
    %e_s = vm.const.i64 -1
    vm.check.eq %s, %e_s, "sign-extend -1" : i64
    %u = vm.ext.i32.i64.u %m1 : i32 -> i64
    %e_u = vm.const.i64 4294967295
    vm.check.eq %u, %e_u, "zero-extend -1" : i64
    %big = vm.const.i64 0x100000005
    %t = vm.trunc.i64.i32 %big : i64 -> i32
    %c5 = vm.const.i32 5
    vm.check.eq %t, %c5, "trunc keeps the low half" : i32
    vm.return
  }

  // IREE's i8/i16 <-> i64 conversions.
  vm.export @test_narrow_i64
  vm.func @test_narrow_i64() {
    %x = vm.const.i64 0x123456789ABCFF80
    %t8 = vm.trunc.i64.i8 %x : i64 -> i32
    %e8 = vm.const.i32 0x80
    vm.check.eq %t8, %e8, "trunc i64 to i8 keeps the low byte" : i32
    %t16 = vm.trunc.i64.i16 %x : i64 -> i32
    %e16 = vm.const.i32 0xFF80
    vm.check.eq %t16, %e16, "trunc i64 to i16 keeps the low half-word" : i32
    %s8 = vm.ext.i8.i64.s %t8 : i32 -> i64
    %m128 = vm.const.i64 -128
    vm.check.eq %s8, %m128, "sign-extend 0x80 to i64" : i64
    %u8 = vm.ext.i8.i64.u %t8 : i32 -> i64
    %p128 = vm.const.i64 128
    vm.check.eq %u8, %p128, "zero-extend 0x80 to i64" : i64
    %s16 = vm.ext.i16.i64.s %t16 : i32 -> i64
    vm.check.eq %s16, %m128, "sign-extend 0xFF80 to i64" : i64
    %u16 = vm.ext.i16.i64.u %t16 : i32 -> i64
    %p65408 = vm.const.i64 65408
    vm.check.eq %u16, %p65408, "zero-extend 0xFF80 to i64" : i64
    vm.return
  }

  vm.export @test_int_float_casts
  vm.func @test_int_float_casts() {
    %m7 = vm.const.i32 -7
    %f = vm.cast.si32.f32 %m7 : i32 -> f32
    %e_f = vm.const.f32 -7.0
    vm.check.eq %f, %e_f, "si32 -> f32" : f32
    %g = vm.const.f32 -6.9
    %i = vm.cast.f32.si32 %g : f32 -> i32
    vm.check.eq %i, %m7, "f32 -> si32 rounds to nearest" : i32
    %huge = vm.const.f32 1.0e20
    %sat = vm.cast.f32.si32 %huge : f32 -> i32
    %max = vm.const.i32 2147483647
    vm.check.eq %sat, %max, "f32 -> si32 saturates" : i32
    %zero_f = vm.const.f32 0.0
    %nan = vm.div.f32 %zero_f, %zero_f : f32
    %n = vm.cast.f32.si32 %nan : f32 -> i32
    %zero = vm.const.i32 0
    vm.check.eq %n, %zero, "NaN -> 0" : i32
    %d = vm.cast.si32.f64 %m7 : i32 -> f64
    %e_d = vm.const.f64 -7.0
    vm.check.eq %d, %e_d, "si32 -> f64" : f64
    %l = vm.const.i64 9007199254740993
    %ld = vm.cast.si64.f64 %l : i64 -> f64
    %e_ld = vm.const.f64 9007199254740992.0
    vm.check.eq %ld, %e_ld, "si64 -> f64 rounds to nearest even" : f64
    vm.return
  }

  vm.export @test_bitcasts_and_float_widths
  vm.func @test_bitcasts_and_float_widths() {
    %one_f = vm.const.f32 1.0
    %bits = vm.bitcast.f32.i32 %one_f : f32 -> i32
    %e_bits = vm.const.i32 0x3F800000
    vm.check.eq %bits, %e_bits, "bits of 1.0f" : i32
    %back = vm.bitcast.i32.f32 %bits : i32 -> f32
    vm.check.eq %back, %one_f, "bits back to 1.0f" : f32
    %wide = vm.ext.f32.f64 %one_f : f32 -> f64
    %one_d = vm.const.f64 1.0
    vm.check.eq %wide, %one_d, "f32 -> f64" : f64
    %third = vm.const.f64 0.3333333333333333
    %narrow = vm.trunc.f64.f32 %third : f64 -> f32
    %e_narrow = vm.const.f32 0.33333334
    vm.check.eq %narrow, %e_narrow, "f64 -> f32 rounds to nearest" : f32
    vm.return
  }
}
