// tensor<1000xf32> addition through the hal module and a real CPU kernel
// (add_f32 of hal/local/testdata/test_kernels.c: bindings a, b, out;
// workgroup 64x1x1). make_module adds the kernel library as this module's
// executable; the program looks it up by module name.
//
// @main records a one-shot command buffer with direct bindings;
// @main_reusable records a reusable one whose bindings are binding-table
// slots, filled by queue.execute.indirect.
vm.module @add {
  vm.import private @hal.buffer_view.assert(%view : !hal.buffer_view, %message : !vm.buffer,
                                            %element_type : i32, %encoding : i32,
                                            %dims : i64 ...)
  vm.import private @hal.buffer_view.buffer(%view : !hal.buffer_view) -> !hal.buffer
  vm.import private @hal.buffer_view.create(%buffer : !hal.buffer, %offset : i64,
                                            %length : i64, %element_type : i32,
                                            %encoding : i32, %dims : i64 ...)
      -> !hal.buffer_view
  vm.import private @hal.devices.get(%index : i32) -> !hal.device
  vm.import private @hal.device.allocator(%device : !hal.device) -> !hal.allocator
  vm.import private @hal.allocator.allocate(%allocator : !hal.allocator, %memory_types : i32,
                                            %buffer_usage : i32, %size : i64) -> !hal.buffer
  vm.import private @hal.executable.lookup(%device : !hal.device, %module : !vm.buffer)
      -> !hal.executable
  vm.import private @hal.command_buffer.create(%device : !hal.device, %mode : i32,
                                               %binding_capacity : i32)
      -> !hal.command_buffer
  vm.import private @hal.command_buffer.begin(%cb : !hal.command_buffer)
  vm.import private @hal.command_buffer.end(%cb : !hal.command_buffer)
  vm.import private @hal.command_buffer.dispatch(
      %cb : !hal.command_buffer, %executable : !hal.executable, %entry_point : i32,
      %x : i32, %y : i32, %z : i32, %constants : i32 ...,
      %bindings : tuple<i32, !hal.buffer, i64, i64> ...)
  vm.import private @hal.fence.create(%device : !hal.device) -> !hal.fence
  vm.import private @hal.device.queue.execute(%device : !hal.device, %wait : !hal.fence,
                                              %signal : !hal.fence,
                                              %command_buffers : !hal.command_buffer ...)
  vm.import private @hal.device.queue.execute.indirect(
      %device : !hal.device, %wait : !hal.fence, %signal : !hal.fence,
      %cb : !hal.command_buffer, %binding_table : tuple<!hal.buffer, i64, i64> ...)
  vm.import private @hal.fence.await(%timeout_ms : i32, %fences : !hal.fence ...) -> i32

  vm.rodata private @module_name "add"
  vm.rodata private @argument0 "argument 0"
  vm.rodata private @argument1 "argument 1"

  // Checks both arguments are tensor<1000xf32> and allocates the output.
  vm.func private @prepare(%device : !hal.device, %a : !hal.buffer_view,
                           %b : !hal.buffer_view) -> !hal.buffer {
    %f32 = vm.const.i32 553648160
    %dense = vm.const.i32.zero
    %n = vm.const.i64 1000
    %message0 = vm.const.ref.rodata @argument0 : !vm.buffer
    vm.call.variadic @hal.buffer_view.assert(%a, %message0, %f32, %dense, [%n])
        : (!hal.buffer_view, !vm.buffer, i32, i32, i64 ...) -> ()
    %message1 = vm.const.ref.rodata @argument1 : !vm.buffer
    vm.call.variadic @hal.buffer_view.assert(%b, %message1, %f32, %dense, [%n])
        : (!hal.buffer_view, !vm.buffer, i32, i32, i64 ...) -> ()
    %allocator = vm.call @hal.device.allocator(%device) : (!hal.device) -> !hal.allocator
    // DEVICE_LOCAL | HOST_VISIBLE; DEFAULT | MAPPING usage.
    %memory = vm.const.i32 3
    %usage = vm.const.i32 15
    %bytes = vm.const.i64 4000
    %out = vm.call @hal.allocator.allocate(%allocator, %memory, %usage, %bytes)
        : (!hal.allocator, i32, i32, i64) -> !hal.buffer
    vm.return %out : !hal.buffer
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

  // Submits |cb| (direct bindings) and waits for it.
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

  vm.func @main(%a : !hal.buffer_view, %b : !hal.buffer_view) -> !hal.buffer_view {
    %c0 = vm.const.i32 0
    %device = vm.call @hal.devices.get(%c0) : (i32) -> !hal.device
    %out = vm.call @prepare(%device, %a, %b)
        : (!hal.device, !hal.buffer_view, !hal.buffer_view) -> !hal.buffer
    %a_buffer = vm.call @hal.buffer_view.buffer(%a) : (!hal.buffer_view) -> !hal.buffer
    %b_buffer = vm.call @hal.buffer_view.buffer(%b) : (!hal.buffer_view) -> !hal.buffer
    %name = vm.const.ref.rodata @module_name : !vm.buffer
    %executable = vm.call @hal.executable.lookup(%device, %name)
        : (!hal.device, !vm.buffer) -> !hal.executable
    %one_shot = vm.const.i32 0
    %cb = vm.call @hal.command_buffer.create(%device, %one_shot, %c0)
        : (!hal.device, i32, i32) -> !hal.command_buffer
    vm.call @hal.command_buffer.begin(%cb) : (!hal.command_buffer) -> ()
    // ceil(1000 / 64) workgroups of 64 lanes; the kernel stops at the end.
    %add_f32 = vm.const.i32 0
    %x = vm.const.i32 16
    %c1 = vm.const.i32 1
    %offset = vm.const.i64 0
    %whole = vm.const.i64 -1
    %bytes = vm.const.i64 4000
    vm.call.variadic @hal.command_buffer.dispatch(
        %cb, %executable, %add_f32, %x, %c1, %c1, [],
        [(%c0, %a_buffer, %offset, %whole), (%c0, %b_buffer, %offset, %whole),
         (%c0, %out, %offset, %bytes)])
        : (!hal.command_buffer, !hal.executable, i32, i32, i32, i32, i32 ...,
           tuple<i32, !hal.buffer, i64, i64> ...) -> ()
    vm.call @hal.command_buffer.end(%cb) : (!hal.command_buffer) -> ()
    vm.call @submit(%device, %cb) : (!hal.device, !hal.command_buffer) -> ()
    %view = vm.call @wrap(%out) : (!hal.buffer) -> !hal.buffer_view
    vm.return %view : !hal.buffer_view
  }
  vm.export @main

  // The same addition recorded once with every binding indirect (slots 0,
  // 1, 2 of a three-entry binding table) and submitted with the buffers.
  vm.func @main_reusable(%a : !hal.buffer_view, %b : !hal.buffer_view) -> !hal.buffer_view {
    %c0 = vm.const.i32 0
    %device = vm.call @hal.devices.get(%c0) : (i32) -> !hal.device
    %out = vm.call @prepare(%device, %a, %b)
        : (!hal.device, !hal.buffer_view, !hal.buffer_view) -> !hal.buffer
    %a_buffer = vm.call @hal.buffer_view.buffer(%a) : (!hal.buffer_view) -> !hal.buffer
    %b_buffer = vm.call @hal.buffer_view.buffer(%b) : (!hal.buffer_view) -> !hal.buffer
    %name = vm.const.ref.rodata @module_name : !vm.buffer
    %executable = vm.call @hal.executable.lookup(%device, %name)
        : (!hal.device, !vm.buffer) -> !hal.executable
    %reusable = vm.const.i32 1
    %c3 = vm.const.i32 3
    %cb = vm.call @hal.command_buffer.create(%device, %reusable, %c3)
        : (!hal.device, i32, i32) -> !hal.command_buffer
    vm.call @hal.command_buffer.begin(%cb) : (!hal.command_buffer) -> ()
    %add_f32 = vm.const.i32 0
    %x = vm.const.i32 16
    %c1 = vm.const.i32 1
    %c2 = vm.const.i32 2
    %offset = vm.const.i64 0
    %bytes = vm.const.i64 4000
    %indirect = vm.const.ref.zero : !hal.buffer
    vm.call.variadic @hal.command_buffer.dispatch(
        %cb, %executable, %add_f32, %x, %c1, %c1, [],
        [(%c0, %indirect, %offset, %bytes), (%c1, %indirect, %offset, %bytes),
         (%c2, %indirect, %offset, %bytes)])
        : (!hal.command_buffer, !hal.executable, i32, i32, i32, i32, i32 ...,
           tuple<i32, !hal.buffer, i64, i64> ...) -> ()
    vm.call @hal.command_buffer.end(%cb) : (!hal.command_buffer) -> ()
    %null = vm.const.ref.zero : !hal.fence
    %fence = vm.call @hal.fence.create(%device) : (!hal.device) -> !hal.fence
    %whole = vm.const.i64 -1
    vm.call.variadic @hal.device.queue.execute.indirect(
        %device, %null, %fence, %cb,
        [(%a_buffer, %offset, %whole), (%b_buffer, %offset, %whole), (%out, %offset, %bytes)])
        : (!hal.device, !hal.fence, !hal.fence, !hal.command_buffer,
           tuple<!hal.buffer, i64, i64> ...) -> ()
    %forever = vm.const.i32 -1
    %reached = vm.call.variadic @hal.fence.await(%forever, [%fence])
        : (i32, !hal.fence ...) -> i32
    %view = vm.call @wrap(%out) : (!hal.buffer) -> !hal.buffer_view
    vm.return %view : !hal.buffer_view
  }
  vm.export @main_reusable
}
