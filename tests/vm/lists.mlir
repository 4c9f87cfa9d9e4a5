// vm.list: allocation, growth, typed elements (i32, i64, f32, f64, refs).
vm.module @lists {
  vm.export @test_size_reserve_resize
  vm.func @test_size_reserve_resize() {
    %c4 = vm.const.i32 4
    %list = vm.list.alloc %c4 : (i32) -> !vm.list<i32>
    %size0 = vm.list.size %list : (!vm.list<i32>) -> i32
    %zero = vm.const.i32 0
    vm.check.eq %size0, %zero, "a new list is empty" : i32
    %c100 = vm.const.i32 100
    vm.list.reserve %list, %c100 : (!vm.list<i32>, i32)
    %size1 = vm.list.size %list : (!vm.list<i32>) -> i32
    vm.check.eq %size1, %zero, "reserve does not change the size" : i32
    %c3 = vm.const.i32 3
    vm.list.resize %list, %c3 : (!vm.list<i32>, i32)
    %size2 = vm.list.size %list : (!vm.list<i32>) -> i32
    vm.check.eq %size2, %c3, "resize sets the size" : i32
    %c2 = vm.const.i32 2
    %v = vm.list.get.i32 %list, %c2 : (!vm.list<i32>, i32) -> i32
    vm.check.eq %v, %zero, "new elements are zero" : i32
    vm.return
  }

  vm.export @test_scalar_elements
  vm.func @test_scalar_elements() {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %c2 = vm.const.i32 2
    %ints = vm.list.alloc %c2 : (i32) -> !vm.list<i32>
    vm.list.resize %ints, %c2 : (!vm.list<i32>, i32)
    %c42 = vm.const.i32 42
    vm.list.set.i32 %ints, %c1, %c42 : (!vm.list<i32>, i32, i32)
    %g = vm.list.get.i32 %ints, %c1 : (!vm.list<i32>, i32) -> i32
    vm.check.eq %g, %c42, "i32 element" : i32

    %longs = vm.list.alloc %c1 : (i32) -> !vm.list<i64>
    vm.list.resize %longs, %c1 : (!vm.list<i64>, i32)
    %big = vm.const.i64 -7000000000
    vm.list.set.i64 %longs, %c0, %big : (!vm.list<i64>, i32, i64)
    %gl = vm.list.get.i64 %longs, %c0 : (!vm.list<i64>, i32) -> i64
    vm.check.eq %gl, %big, "i64 element" : i64

    %floats = vm.list.alloc %c1 : (i32) -> !vm.list<f32>
    vm.list.resize %floats, %c1 : (!vm.list<f32>, i32)
    %f = vm.const.f32 -0.75
    vm.list.set.f32 %floats, %c0, %f : (!vm.list<f32>, i32, f32)
    %gf = vm.list.get.f32 %floats, %c0 : (!vm.list<f32>, i32) -> f32
    vm.check.eq %gf, %f, "f32 element" : f32

    %doubles = vm.list.alloc %c1 : (i32) -> !vm.list<f64>
    vm.list.resize %doubles, %c1 : (!vm.list<f64>, i32)
    %d = vm.const.f64 1.0e-300
    vm.list.set.f64 %doubles, %c0, %d : (!vm.list<f64>, i32, f64)
    %gd = vm.list.get.f64 %doubles, %c0 : (!vm.list<f64>, i32) -> f64
    vm.check.eq %gd, %d, "f64 element" : f64
    vm.return
  }

  vm.export @test_ref_elements
  vm.func @test_ref_elements() {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %c2 = vm.const.i32 2
    %list = vm.list.alloc %c2 : (i32) -> !vm.list<!vm.buffer>
    vm.list.resize %list, %c2 : (!vm.list<!vm.buffer>, i32)
    %len = vm.const.i64 4
    %align = vm.const.i32 4
    %buf = vm.buffer.alloc %len, %align : !vm.buffer
    vm.list.set.ref %list, %c1, %buf : (!vm.list<!vm.buffer>, i32, !vm.buffer)
    %back = vm.list.get.ref %list, %c1 : (!vm.list<!vm.buffer>, i32) -> !vm.buffer
    vm.check.eq %back, %buf, "the stored buffer" : !vm.buffer
    %empty = vm.list.get.ref %list, %c0 : (!vm.list<!vm.buffer>, i32) -> !vm.buffer
    %nz = vm.cmp.nz.ref %empty : !vm.buffer
    %zero = vm.const.i32 0
    vm.check.eq %nz, %zero, "an unset ref element is null" : i32
    vm.return
  }

  vm.export @fail_get_past_the_end
  vm.func @fail_get_past_the_end() {
    %c1 = vm.const.i32 1
    %list = vm.list.alloc %c1 : (i32) -> !vm.list<i32>
    vm.list.resize %list, %c1 : (!vm.list<i32>, i32)
    %v = vm.list.get.i32 %list, %c1 : (!vm.list<i32>, i32) -> i32
    vm.return
  }

  vm.export @fail_set_without_resize
  vm.func @fail_set_without_resize() {
    %c0 = vm.const.i32 0
    %c8 = vm.const.i32 8
    %list = vm.list.alloc %c8 : (i32) -> !vm.list<i32>
    vm.list.set.i32 %list, %c0, %c8 : (!vm.list<i32>, i32, i32)
    vm.return
  }
}
