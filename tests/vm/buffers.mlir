// vm.buffer: allocation, element loads and stores (offsets count elements),
// fill, copy, compare, clone, and rodata buffers that alias the module.
vm.module @buffers {
  vm.rodata private @numbers dense<[1, 2, 3, -4]> : tensor<4xi32>

  vm.export @test_alloc_store_load
  vm.func @test_alloc_store_load() {
    %c16 = vm.const.i64 16
    %align = vm.const.i32 16
    %buf = vm.buffer.alloc %c16, %align : !vm.buffer
    %len = vm.buffer.length %buf : !vm.buffer -> i64
    vm.check.eq %len, %c16, "length" : i64
    %i1 = vm.const.i64 1
    %v = vm.const.i32 -123456
    vm.buffer.store.i32 %v, %buf[%i1] : i32 -> !vm.buffer
    %back = vm.buffer.load.i32 %buf[%i1] : !vm.buffer -> i32
    vm.check.eq %back, %v, "i32 element 1" : i32
    %i0 = vm.const.i64 0
    %zero = vm.buffer.load.i32 %buf[%i0] : !vm.buffer -> i32
    %c0 = vm.const.i32 0
    vm.check.eq %zero, %c0, "a new buffer is zeroed" : i32
    vm.return
  }

  vm.export @test_narrow_and_wide_elements
  vm.func @test_narrow_and_wide_elements() {
    %c16 = vm.const.i64 16
    %align = vm.const.i32 8
    %buf = vm.buffer.alloc %c16, %align : !vm.buffer
    %i0 = vm.const.i64 0
    %i1 = vm.const.i64 1
    %ff = vm.const.i32 0xFF
    vm.buffer.store.i8 %ff, %buf[%i0] : i32 -> !vm.buffer
    %s8 = vm.buffer.load.i8.s %buf[%i0] : !vm.buffer -> i32
    %m1 = vm.const.i32 -1
    vm.check.eq %s8, %m1, "i8 0xFF sign-extends" : i32
    %u8 = vm.buffer.load.i8.u %buf[%i0] : !vm.buffer -> i32
    vm.check.eq %u8, %ff, "i8 0xFF zero-extends" : i32
    %h = vm.const.i32 0x8001
    vm.buffer.store.i16 %h, %buf[%i1] : i32 -> !vm.buffer
    %u16 = vm.buffer.load.i16.u %buf[%i1] : !vm.buffer -> i32
    vm.check.eq %u16, %h, "i16 element 1" : i32
    %l = vm.const.i64 -9000000000
    vm.buffer.store.i64 %l, %buf[%i1] : i64 -> !vm.buffer
    %lb = vm.buffer.load.i64 %buf[%i1] : !vm.buffer -> i64
    vm.check.eq %lb, %l, "i64 element 1" : i64
    %f = vm.const.f32 2.75
    vm.buffer.store.f32 %f, %buf[%i0] : f32 -> !vm.buffer
    %fb = vm.buffer.load.f32 %buf[%i0] : !vm.buffer -> f32
    vm.check.eq %fb, %f, "f32 element 0" : f32
    %d = vm.const.f64 -0.0625
    vm.buffer.store.f64 %d, %buf[%i0] : f64 -> !vm.buffer
    %db = vm.buffer.load.f64 %buf[%i0] : !vm.buffer -> f64
    vm.check.eq %db, %d, "f64 element 0" : f64
    vm.return
  }

  vm.export @test_rodata_fill_copy_compare
  vm.func @test_rodata_fill_copy_compare() {
    %ro = vm.const.ref.rodata @numbers : !vm.buffer
    %i3 = vm.const.i64 3
    %last = vm.buffer.load.i32 %ro[%i3] : !vm.buffer -> i32
    %m4 = vm.const.i32 -4
    vm.check.eq %last, %m4, "rodata element 3" : i32
    %len = vm.buffer.length %ro : !vm.buffer -> i64
    %c16 = vm.const.i64 16
    vm.check.eq %len, %c16, "rodata length in bytes" : i64
    %align = vm.const.i32 4
    %buf = vm.buffer.alloc %len, %align : !vm.buffer
    %c0 = vm.const.i64 0
    vm.buffer.copy %ro, %c0, %buf, %c0, %len : !vm.buffer -> !vm.buffer
    %same = vm.buffer.compare %ro, %c0, %buf, %c0, %len : !vm.buffer, !vm.buffer
    vm.check.nz %same, "the copy matches" : i32
    %i1 = vm.const.i64 1
    %i2 = vm.const.i64 2
    %c7 = vm.const.i32 7
    vm.buffer.fill.i32 %buf, %i1, %i2, %c7 : i32 -> !vm.buffer
    %mid = vm.buffer.load.i32 %buf[%i2] : !vm.buffer -> i32
    vm.check.eq %mid, %c7, "filled element 2" : i32
    %end = vm.buffer.load.i32 %buf[%i3] : !vm.buffer -> i32
    vm.check.eq %end, %m4, "element 3 is past the fill" : i32
    %differs = vm.buffer.compare %ro, %c0, %buf, %c0, %len : !vm.buffer, !vm.buffer
    %zero = vm.const.i32 0
    vm.check.eq %differs, %zero, "the filled copy differs" : i32
    %c4 = vm.const.i64 4
    %c8 = vm.const.i64 8
    %clone = vm.buffer.clone %ro, %c4, %c8, %align : !vm.buffer -> !vm.buffer
    %first = vm.buffer.load.i32 %clone[%c0] : !vm.buffer -> i32
    %two = vm.const.i32 2
    vm.check.eq %first, %two, "the clone starts at byte 4" : i32
    vm.return
  }

  vm.export @fail_store_to_rodata
  vm.func @fail_store_to_rodata() {
    %ro = vm.const.ref.rodata @numbers : !vm.buffer
    %i0 = vm.const.i64 0
    %v = vm.const.i32 9
    vm.buffer.store.i32 %v, %ro[%i0] : i32 -> !vm.buffer
    vm.return
  }

  vm.export @fail_load_past_the_end
  vm.func @fail_load_past_the_end() {
    %c8 = vm.const.i64 8
    %align = vm.const.i32 4
    %buf = vm.buffer.alloc %c8, %align : !vm.buffer
    %i2 = vm.const.i64 2
    %v = vm.buffer.load.i32 %buf[%i2] : !vm.buffer -> i32
    vm.return
  }
}
