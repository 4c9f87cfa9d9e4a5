// grt-check tests of the add_f32 kernel: inputs filled on the device,
// the sum compared with check.expect_almost_eq, and a fail_ function that
// must fail because check.expect_eq sees a wrong expected value.
vm.module @check_add {
  vm.import private @hal.devices.get(%index : i32) -> !hal.device
  vm.import private @hal.device.allocator(%device : !hal.device) -> !hal.allocator
  vm.import private @hal.allocator.allocate(%allocator : !hal.allocator, %memory_types : i32,
                                            %buffer_usage : i32, %size : i64) -> !hal.buffer
  vm.import private @hal.buffer_view.buffer(%view : !hal.buffer_view) -> !hal.buffer
  vm.import private @hal.buffer_view.create(%buffer : !hal.buffer, %offset : i64,
                                            %length : i64, %element_type : i32,
                                            %encoding : i32, %dims : i64 ...)
      -> !hal.buffer_view
  vm.import private @hal.executable.lookup(%device : !hal.device, %module : !vm.buffer)
      -> !hal.executable
  vm.import private @hal.command_buffer.create(%device : !hal.device, %mode : i32,
                                               %binding_capacity : i32)
      -> !hal.command_buffer
  vm.import private @hal.command_buffer.begin(%cb : !hal.command_buffer)
  vm.import private @hal.command_buffer.end(%cb : !hal.command_buffer)
  vm.import private @hal.command_buffer.fill_buffer(
      %cb : !hal.command_buffer, %target : !hal.buffer, %offset : i64, %length : i64,
      %slot : i32, %pattern : i32, %pattern_length : i32)
  vm.import private @hal.command_buffer.dispatch(
      %cb : !hal.command_buffer, %executable : !hal.executable, %entry_point : i32,
      %x : i32, %y : i32, %z : i32, %constants : i32 ...,
      %bindings : tuple<i32, !hal.buffer, i64, i64> ...)
  vm.import private @hal.fence.create(%device : !hal.device) -> !hal.fence
  vm.import private @hal.device.queue.execute(%device : !hal.device, %wait : !hal.fence,
                                              %signal : !hal.fence,
                                              %command_buffers : !hal.command_buffer ...)
  vm.import private @hal.fence.await(%timeout_ms : i32, %fences : !hal.fence ...) -> i32
  vm.import private @check.expect_almost_eq(%device : !hal.device, %lhs : !hal.buffer_view,
                                            %rhs : !hal.buffer_view, %atol : f32,
                                            %rtol : f32)
  vm.import private @check.expect_eq(%device : !hal.device, %lhs : !hal.buffer_view,
                                     %rhs : !hal.buffer_view)

  vm.rodata private @module_name "check_add"

  vm.func private @submit(%device : !hal.device, %cb : !hal.command_buffer) {
    %null = vm.const.ref.zero : !hal.fence
    %fence = vm.call @hal.fence.create(%device) : (!hal.device) -> !hal.fence
    vm.call.variadic @hal.device.queue.execute(%device, %null, %fence, [%cb])
        : (!hal.device, !hal.fence, !hal.fence, !hal.command_buffer ...) -> ()
    %forever = vm.const.i32 -1
    %reached = vm.call.variadic @hal.fence.await(%forever, [%fence])
        : (i32, !hal.fence ...) -> i32
    vm.return
  }

  vm.func private @allocate(%device : !hal.device) -> !hal.buffer {
    %allocator = vm.call @hal.device.allocator(%device) : (!hal.device) -> !hal.allocator
    %memory = vm.const.i32 3
    %usage = vm.const.i32 15
    %bytes = vm.const.i64 4000
    %buffer = vm.call @hal.allocator.allocate(%allocator, %memory, %usage, %bytes)
        : (!hal.allocator, i32, i32, i64) -> !hal.buffer
    vm.return %buffer : !hal.buffer
  }

  vm.func private @wrap(%buffer : !hal.buffer) -> !hal.buffer_view {
    %zero = vm.const.i64 0
    %bytes = vm.const.i64 4000
    %f32 = vm.const.i32 553648160
    %dense = vm.const.i32.zero
    %n = vm.const.i64 1000
    %view = vm.call.variadic @hal.buffer_view.create(%buffer, %zero, %bytes, %f32, %dense, [%n])
        : (!hal.buffer, i64, i64, i32, i32, i64 ...) -> !hal.buffer_view
    vm.return %view : !hal.buffer_view
  }

  // A tensor<1000xf32> of one value, given by its IEEE bits.
  vm.func private @filled(%device : !hal.device, %bits : i32) -> !hal.buffer_view {
    %buffer = vm.call @allocate(%device) : (!hal.device) -> !hal.buffer
    %c0 = vm.const.i32 0
    %cb = vm.call @hal.command_buffer.create(%device, %c0, %c0)
        : (!hal.device, i32, i32) -> !hal.command_buffer
    vm.call @hal.command_buffer.begin(%cb) : (!hal.command_buffer) -> ()
    %offset = vm.const.i64 0
    %bytes = vm.const.i64 4000
    %c4 = vm.const.i32 4
    vm.call @hal.command_buffer.fill_buffer(%cb, %buffer, %offset, %bytes, %c0, %bits, %c4)
        : (!hal.command_buffer, !hal.buffer, i64, i64, i32, i32, i32) -> ()
    vm.call @hal.command_buffer.end(%cb) : (!hal.command_buffer) -> ()
    vm.call @submit(%device, %cb) : (!hal.device, !hal.command_buffer) -> ()
    %view = vm.call @wrap(%buffer) : (!hal.buffer) -> !hal.buffer_view
    vm.return %view : !hal.buffer_view
  }

  // a + b through add_f32 (entry point 0), 16 workgroups of 64.
  vm.func private @add(%device : !hal.device, %a : !hal.buffer_view,
                       %b : !hal.buffer_view) -> !hal.buffer_view {
    %out = vm.call @allocate(%device) : (!hal.device) -> !hal.buffer
    %a_buffer = vm.call @hal.buffer_view.buffer(%a) : (!hal.buffer_view) -> !hal.buffer
    %b_buffer = vm.call @hal.buffer_view.buffer(%b) : (!hal.buffer_view) -> !hal.buffer
    %name = vm.const.ref.rodata @module_name : !vm.buffer
    %executable = vm.call @hal.executable.lookup(%device, %name)
        : (!hal.device, !vm.buffer) -> !hal.executable
    %c0 = vm.const.i32 0
    %cb = vm.call @hal.command_buffer.create(%device, %c0, %c0)
        : (!hal.device, i32, i32) -> !hal.command_buffer
    vm.call @hal.command_buffer.begin(%cb) : (!hal.command_buffer) -> ()
    %x = vm.const.i32 16
    %c1 = vm.const.i32 1
    %offset = vm.const.i64 0
    %bytes = vm.const.i64 4000
    vm.call.variadic @hal.command_buffer.dispatch(
        %cb, %executable, %c0, %x, %c1, %c1, [],
        [(%c0, %a_buffer, %offset, %bytes), (%c0, %b_buffer, %offset, %bytes),
         (%c0, %out, %offset, %bytes)])
        : (!hal.command_buffer, !hal.executable, i32, i32, i32, i32, i32 ...,
           tuple<i32, !hal.buffer, i64, i64> ...) -> ()
    vm.call @hal.command_buffer.end(%cb) : (!hal.command_buffer) -> ()
    vm.call @submit(%device, %cb) : (!hal.device, !hal.command_buffer) -> ()
    %view = vm.call @wrap(%out) : (!hal.buffer) -> !hal.buffer_view
    vm.return %view : !hal.buffer_view
  }

  // 1.5 + 2.25 = 3.75 (bits 0x3FC00000, 0x40100000, 0x40700000).
  vm.func @test_add_almost_eq() {
    %c0 = vm.const.i32 0
    %device = vm.call @hal.devices.get(%c0) : (i32) -> !hal.device
    %one_and_half = vm.const.i32 1069547520
    %two_and_quarter = vm.const.i32 1074790400
    %three_and_three_quarters = vm.const.i32 1081081856
    %a = vm.call @filled(%device, %one_and_half) : (!hal.device, i32) -> !hal.buffer_view
    %b = vm.call @filled(%device, %two_and_quarter) : (!hal.device, i32) -> !hal.buffer_view
    %sum = vm.call @add(%device, %a, %b)
        : (!hal.device, !hal.buffer_view, !hal.buffer_view) -> !hal.buffer_view
    %expected = vm.call @filled(%device, %three_and_three_quarters)
        : (!hal.device, i32) -> !hal.buffer_view
    %atol = vm.const.f32 0.0
    %rtol = vm.const.f32 0.000001
    vm.call @check.expect_almost_eq(%device, %sum, %expected, %atol, %rtol)
        : (!hal.device, !hal.buffer_view, !hal.buffer_view, f32, f32) -> ()
    vm.return
  }
  vm.export @test_add_almost_eq

  // 1.5 + 1.5 is not 2.25: check.expect_eq must fail.
  vm.func @fail_add_mismatch() {
    %c0 = vm.const.i32 0
    %device = vm.call @hal.devices.get(%c0) : (i32) -> !hal.device
    %one_and_half = vm.const.i32 1069547520
    %two_and_quarter = vm.const.i32 1074790400
    %a = vm.call @filled(%device, %one_and_half) : (!hal.device, i32) -> !hal.buffer_view
    %sum = vm.call @add(%device, %a, %a)
        : (!hal.device, !hal.buffer_view, !hal.buffer_view) -> !hal.buffer_view
    %wrong = vm.call @filled(%device, %two_and_quarter) : (!hal.device, i32) -> !hal.buffer_view
    vm.call @check.expect_eq(%device, %sum, %wrong)
        : (!hal.device, !hal.buffer_view, !hal.buffer_view) -> ()
    vm.return
  }
  vm.export @fail_add_mismatch
}
