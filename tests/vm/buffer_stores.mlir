// vm.buffer stores of every element width, read back with loads, and the
// store that rodata must refuse. IREE spells a store with the value first:
// vm.buffer.store.i32 %value, %buffer[%index].
vm.module @buffer_stores {
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

  vm.export @fail_store_to_rodata
  vm.func @fail_store_to_rodata() {
    %ro = vm.const.ref.rodata @numbers : !vm.buffer
    %i0 = vm.const.i64 0
    %v = vm.const.i32 9
    vm.buffer.store.i32 %v, %ro[%i0] : i32 -> !vm.buffer
    vm.return
  }
}
