// Behaviours where grt's VM follows IREE's, written in IREE's vm dialect
// spelling: float-to-int casts round half away from zero, rem.f* is the IEEE
// remainder, buffer.hash is SipHash-2-4, list.get.ref of another ref type
// reads as null, and lists of i8 and i16 exist.
vm.module @iree_compat {
  vm.export @test_casts_round_half_away_from_zero
  vm.func @test_casts_round_half_away_from_zero() {
    %p25 = vm.const.f32 2.5
    %a = vm.cast.f32.si32 %p25 : f32 -> i32
    %c3 = vm.const.i32 3
    vm.check.eq %a, %c3, "cast.f32.si32(2.5) = 3" : i32
    %m25 = vm.const.f32 -2.5
    %b = vm.cast.f32.si32 %m25 : f32 -> i32
    %cm3 = vm.const.i32 -3
    vm.check.eq %b, %cm3, "cast.f32.si32(-2.5) = -3" : i32
    %p24 = vm.const.f32 2.4
    %c = vm.cast.f32.ui32 %p24 : f32 -> i32
    %c2 = vm.const.i32 2
    vm.check.eq %c, %c2, "cast.f32.ui32(2.4) = 2" : i32
    %m05 = vm.const.f64 -0.5
    %d = vm.cast.f64.si64 %m05 : f64 -> i64
    %cm1 = vm.const.i64 -1
    vm.check.eq %d, %cm1, "cast.f64.si64(-0.5) = -1" : i64
    %e = vm.cast.f64.ui64 %m05 : f64 -> i64
    %c0 = vm.const.i64 0
    vm.check.eq %e, %c0, "cast.f64.ui64(-0.5) saturates to 0" : i64
    %big = vm.const.f64 2147483647.5
    %f = vm.cast.f64.si32 %big : f64 -> i32
    %max = vm.const.i32 2147483647
    vm.check.eq %f, %max, "cast.f64.si32(2147483647.5) saturates" : i32
    vm.return
  }

  vm.export @test_rem_is_ieee_remainder
  vm.func @test_rem_is_ieee_remainder() {
    %five = vm.const.f32 5.0
    %three = vm.const.f32 3.0
    %r = vm.rem.f32 %five, %three : f32
    %m1 = vm.const.f32 -1.0
    vm.check.eq %r, %m1, "rem.f32(5, 3) = -1" : f32
    %a = vm.const.f64 -7.5
    %b = vm.const.f64 2.0
    %r64 = vm.rem.f64 %a, %b : f64
    %half = vm.const.f64 0.5
    vm.check.eq %r64, %half, "rem.f64(-7.5, 2) = 0.5" : f64
    vm.return
  }

  // SipHash-2-4 with key 00..0f: the published vector for the 15 bytes
  // 00..0e is 0xa129ca6149be45e5, for no bytes 0x726fdb47dd0e0e31.
  vm.rodata private @fifteen dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]> : tensor<15xi8>
  vm.export @test_buffer_hash_is_siphash
  vm.func @test_buffer_hash_is_siphash() {
    %buf = vm.const.ref.rodata @fifteen : !vm.buffer
    %c0 = vm.const.i64 0
    %c15 = vm.const.i64 15
    %h = vm.buffer.hash %buf, %c0, %c15 : !vm.buffer -> i64
    %expected = vm.const.i64 -6833708440360172059
    vm.check.eq %h, %expected, "SipHash-2-4 of 00..0e" : i64
    %h0 = vm.buffer.hash %buf, %c15, %c0 : !vm.buffer -> i64
    %expected0 = vm.const.i64 8246050544436514353
    vm.check.eq %h0, %expected0, "SipHash-2-4 of nothing" : i64
    vm.return
  }

  vm.export @test_list_get_ref_of_another_type_is_null
  vm.func @test_list_get_ref_of_another_type_is_null() {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %c2 = vm.const.i32 2
    %list = vm.list.alloc %c2 : (i32) -> !vm.list<?>
    vm.list.resize %list, %c2 : (!vm.list<?>, i32)
    %len = vm.const.i64 4
    %align = vm.const.i32 4
    %buf = vm.buffer.alloc %len, %align : !vm.buffer
    vm.list.set.ref %list, %c0, %buf : (!vm.list<?>, i32, !vm.buffer)
    %as_buffer = vm.list.get.ref %list, %c0 : (!vm.list<?>, i32) -> !vm.buffer
    vm.check.eq %as_buffer, %buf, "the element as its own type" : !vm.buffer
    %as_any = vm.list.get.ref %list, %c0 : (!vm.list<?>, i32) -> !vm.ref<?>
    %any_nz = vm.cmp.nz.ref %as_any : !vm.ref<?>
    vm.check.eq %any_nz, %c1, "the element as any ref" : i32
    %as_list = vm.list.get.ref %list, %c0 : (!vm.list<?>, i32) -> !vm.list<?>
    %list_nz = vm.cmp.nz.ref %as_list : !vm.list<?>
    vm.check.eq %list_nz, %c0, "a buffer read as a list is null" : i32
    %unset = vm.list.get.ref %list, %c1 : (!vm.list<?>, i32) -> !vm.buffer
    %unset_nz = vm.cmp.nz.ref %unset : !vm.buffer
    vm.check.eq %unset_nz, %c0, "an unset variant element is null" : i32
    vm.return
  }

  // !vm.list<i8> / !vm.list<i16>: elements are 1 and 2 bytes, read back
  // sign-extended and written keeping the low bits, as IREE converts.
  vm.export @test_narrow_lists
  vm.func @test_narrow_lists() {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %c2 = vm.const.i32 2
    %bytes = vm.list.alloc %c2 : (i32) -> !vm.list<i8>
    vm.list.resize %bytes, %c2 : (!vm.list<i8>, i32)
    %x180 = vm.const.i32 0x180
    vm.list.set.i32 %bytes, %c1, %x180 : (!vm.list<i8>, i32, i32)
    %b1 = vm.list.get.i32 %bytes, %c1 : (!vm.list<i8>, i32) -> i32
    %m128 = vm.const.i32 -128
    vm.check.eq %b1, %m128, "i8 element 0x180 reads as -128" : i32
    %b0 = vm.list.get.i32 %bytes, %c0 : (!vm.list<i8>, i32) -> i32
    vm.check.eq %b0, %c0, "the neighbouring i8 element stays 0" : i32
    %b1w = vm.list.get.i64 %bytes, %c1 : (!vm.list<i8>, i32) -> i64
    %m128w = vm.const.i64 -128
    vm.check.eq %b1w, %m128w, "i8 element read as i64" : i64
    %halves = vm.list.alloc %c2 : (i32) -> !vm.list<i16>
    vm.list.resize %halves, %c2 : (!vm.list<i16>, i32)
    %big = vm.const.i64 0x123458000
    vm.list.set.i64 %halves, %c0, %big : (!vm.list<i16>, i32, i64)
    %h0 = vm.list.get.i32 %halves, %c0 : (!vm.list<i16>, i32) -> i32
    %m32768 = vm.const.i32 -32768
    vm.check.eq %h0, %m32768, "i16 element keeps the low 16 bits" : i32
    %size = vm.list.size %halves : (!vm.list<i16>) -> i32
    vm.check.eq %size, %c2, "i16 list size" : i32
    vm.return
  }

  vm.export @fail_narrow_list_read_as_f32
  vm.func @fail_narrow_list_read_as_f32() {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %bytes = vm.list.alloc %c1 : (i32) -> !vm.list<i8>
    vm.list.resize %bytes, %c1 : (!vm.list<i8>, i32)
    %f = vm.list.get.f32 %bytes, %c0 : (!vm.list<i8>, i32) -> f32
    vm.return
  }

  // A primitive element is not a ref of any type: that still fails, as in
  // IREE.
  vm.export @fail_list_get_ref_of_an_i32
  vm.func @fail_list_get_ref_of_an_i32() {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %list = vm.list.alloc %c1 : (i32) -> !vm.list<?>
    vm.list.resize %list, %c1 : (!vm.list<?>, i32)
    vm.list.set.i32 %list, %c0, %c1 : (!vm.list<?>, i32, i32)
    %r = vm.list.get.ref %list, %c0 : (!vm.list<?>, i32) -> !vm.buffer
    vm.return
  }
}
