// vm.buffer: allocation, element loads (offsets count elements), fill,
// copy, compare, clone, and rodata buffers that alias the module. Stores
// are in buffer_stores.mlir.
vm.module @buffers {
  vm.rodata private @numbers dense<[1, 2, 3, -4]> : tensor<4xi32>

  vm.export @test_alloc
  vm.func @test_alloc() {
    %c16 = vm.const.i64 16
    %align = vm.const.i32 16
    %buf = vm.buffer.alloc %c16, %align : !vm.buffer
    %len = vm.buffer.length %buf : !vm.buffer -> i64
    vm.check.eq %len, %c16, "length" : i64
    %i3 = vm.const.i64 3
    %zero = vm.buffer.load.i32 %buf[%i3] : !vm.buffer -> i32
    %c0 = vm.const.i32 0
    vm.check.eq %zero, %c0, "a new buffer is zeroed" : i32
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
