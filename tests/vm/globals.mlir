// Globals of every type: initial values, init(@function) initializers
// (run in declaration order with the vm.initializer bodies), stores that
// later loads see, and per-context state (grt-check runs each test in a
// fresh context, so the counter starts from its initial value in both tests
// that bump it).
vm.module @globals {
  vm.global.i32 private mutable @counter = 5 : i32
  vm.global.i64 private mutable @big = 6000000000 : i64
  vm.global.f32 private mutable @ratio = 0.5 : f32
  vm.global.f64 private mutable @precise = 0.125 : f64
  vm.global.i32 private @zero_initialized : i32
  vm.global.ref private mutable @saved : !vm.buffer

  // init(@f) globals, in IREE's spelling (name, mutable, init, type).
  vm.global.i64 private @wide init(@make_wide) : i64
  vm.global.f64 private mutable @third init(@make_third) : f64
  vm.global.ref private @made init(@make_buffer) : !vm.buffer
  vm.global.ref private @any_made mutable init(@make_buffer) : !vm.ref<?>

  vm.func private @make_wide() -> i64 {
    %c = vm.const.i64 6000000001
    vm.return %c : i64
  }
  vm.func private @make_third() -> f64 {
    %one = vm.const.f64 1.0
    %three = vm.const.f64 3.0
    %t = vm.div.f64 %one, %three : f64
    vm.return %t : f64
  }
  vm.func private @make_buffer() -> !vm.buffer {
    %c24 = vm.const.i64 24
    %c8 = vm.const.i32 8
    %b = vm.buffer.alloc %c24, %c8 : !vm.buffer
    vm.return %b : !vm.buffer
  }

  // Order: the initializer sets @stage, then @tripled's function reads it,
  // then the second initializer reads @tripled.
  vm.global.i32 private mutable @stage : i32
  vm.initializer {
    %c3 = vm.const.i32 3
    vm.global.store.i32 %c3, @stage : i32
    vm.return
  }
  vm.global.i32 private @tripled init(@triple_stage) : i32
  vm.func private @triple_stage() -> i32 {
    %s = vm.global.load.i32 @stage : i32
    %c3 = vm.const.i32 3
    %r = vm.mul.i32 %s, %c3 : i32
    vm.return %r : i32
  }
  vm.global.i32 private mutable @after : i32
  vm.initializer {
    %t = vm.global.load.i32 @tripled : i32
    %one = vm.const.i32 1
    %r = vm.add.i32 %t, %one : i32
    vm.global.store.i32 %r, @after : i32
    vm.return
  }

  vm.func private @bump() -> i32 {
    %v = vm.global.load.i32 @counter : i32
    %one = vm.const.i32 1
    %v1 = vm.add.i32 %v, %one : i32
    vm.global.store.i32 %v1, @counter : i32
    vm.return %v1 : i32
  }

  vm.export @test_initial_values
  vm.func @test_initial_values() {
    %c = vm.global.load.i32 @counter : i32
    %e_c = vm.const.i32 5
    vm.check.eq %c, %e_c, "i32 initial value" : i32
    %b = vm.global.load.i64 @big : i64
    %e_b = vm.const.i64 6000000000
    vm.check.eq %b, %e_b, "i64 initial value" : i64
    %r = vm.global.load.f32 @ratio : f32
    %e_r = vm.const.f32 0.5
    vm.check.eq %r, %e_r, "f32 initial value" : f32
    %p = vm.global.load.f64 @precise : f64
    %e_p = vm.const.f64 0.125
    vm.check.eq %p, %e_p, "f64 initial value" : f64
    %z = vm.global.load.i32 @zero_initialized : i32
    %zero = vm.const.i32 0
    vm.check.eq %z, %zero, "globals without a value start at 0" : i32
    %s = vm.global.load.ref @saved : !vm.buffer
    %null = vm.cmp.nz.ref %s : !vm.buffer
    vm.check.eq %null, %zero, "ref globals start null" : i32
    vm.return
  }

  vm.export @test_init_functions
  vm.func @test_init_functions() {
    %w = vm.global.load.i64 @wide : i64
    %e_w = vm.const.i64 6000000001
    vm.check.eq %w, %e_w, "i64 from init(@make_wide)" : i64
    %t = vm.global.load.f64 @third : f64
    %one = vm.const.f64 1.0
    %three = vm.const.f64 3.0
    %e_t = vm.div.f64 %one, %three : f64
    vm.check.eq %t, %e_t, "f64 from init(@make_third)" : f64
    %b = vm.global.load.ref @made : !vm.buffer
    %len = vm.buffer.length %b : !vm.buffer -> i64
    %e_len = vm.const.i64 24
    vm.check.eq %len, %e_len, "buffer from init(@make_buffer)" : i64
    %a = vm.global.load.ref @any_made : !vm.ref<?>
    %nz = vm.cmp.nz.ref %a : !vm.ref<?>
    %yes = vm.const.i32 1
    vm.check.eq %nz, %yes, "!vm.ref<?> global from init(@make_buffer)" : i32
    %same = vm.cmp.eq.ref %a, %b : !vm.ref<?>
    %no = vm.const.i32 0
    vm.check.eq %same, %no, "each init call makes its own buffer" : i32
    vm.return
  }

  vm.export @test_init_runs_in_declaration_order
  vm.func @test_init_runs_in_declaration_order() {
    %t = vm.global.load.i32 @tripled : i32
    %e_t = vm.const.i32 9
    vm.check.eq %t, %e_t, "init(@triple_stage) ran after the first initializer" : i32
    %a = vm.global.load.i32 @after : i32
    %e_a = vm.const.i32 10
    vm.check.eq %a, %e_a, "the second initializer ran after init(@triple_stage)" : i32
    vm.return
  }

  vm.export @test_store_then_load
  vm.func @test_store_then_load() {
    %a = vm.call @bump() : () -> i32
    %b = vm.call @bump() : () -> i32
    %e = vm.const.i32 7
    vm.check.eq %b, %e, "two bumps from 5" : i32
    %l = vm.const.i64 -1
    vm.global.store.i64 %l, @big : i64
    %l2 = vm.global.load.i64 @big : i64
    vm.check.eq %l2, %l, "i64 store" : i64
    %f = vm.const.f32 -2.5
    vm.global.store.f32 %f, @ratio : f32
    %f2 = vm.global.load.f32 @ratio : f32
    vm.check.eq %f2, %f, "f32 store" : f32
    %d = vm.const.f64 1.0e300
    vm.global.store.f64 %d, @precise : f64
    %d2 = vm.global.load.f64 @precise : f64
    vm.check.eq %d2, %d, "f64 store" : f64
    vm.return
  }

  vm.export @test_fresh_context_sees_initial_value
  vm.func @test_fresh_context_sees_initial_value() {
    %a = vm.call @bump() : () -> i32
    %e = vm.const.i32 6
    vm.check.eq %a, %e, "one bump from 5 in a fresh context" : i32
    vm.return
  }

  vm.export @test_ref_global
  vm.func @test_ref_global() {
    %c16 = vm.const.i64 16
    %c8 = vm.const.i32 8
    %buf = vm.buffer.alloc %c16, %c8 : !vm.buffer
    vm.global.store.ref %buf, @saved : !vm.buffer
    %back = vm.global.load.ref @saved : !vm.buffer
    vm.check.eq %back, %buf, "the same buffer comes back" : !vm.buffer
    vm.return
  }
}
