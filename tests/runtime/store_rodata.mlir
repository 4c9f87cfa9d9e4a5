// Bytecode that passes verification but writes into its own constants: the
// rodata is imported as a HAL buffer (hal.allocator.import, as compiled
// programs do) and then used as the target of each HAL write path. The
// module file is mapped read-only, so before the HAL kept the read-only
// flag each of these faulted the host (SIGSEGV); now each fails with
// PERMISSION_DENIED naming the operation. @read checks that reading the
// imported constant still works.
vm.module @store_rodata {
  vm.import private @hal.devices.get(%index : i32) -> !hal.device
  vm.import private @hal.device.allocator(%device : !hal.device) -> !hal.allocator
  vm.import private @hal.allocator.import(%allocator : !hal.allocator, %source : !vm.buffer,
                                          %offset : i64, %length : i64) -> !hal.buffer
  vm.import private @hal.buffer.load(%buffer : !hal.buffer, %offset : i64, %length : i32) -> i32
  vm.import private @hal.buffer.store(%value : i32, %buffer : !hal.buffer, %offset : i64,
                                      %length : i32)
  vm.import private @hal.buffer.subspan(%buffer : !hal.buffer, %offset : i64, %length : i64)
      -> !hal.buffer
  vm.import private @hal.executable.lookup(%device : !hal.device, %module : !vm.buffer)
      -> !hal.executable
  vm.import private @hal.command_buffer.create(%device : !hal.device, %mode : i32,
                                               %binding_capacity : i32)
      -> !hal.command_buffer
  vm.import private @hal.command_buffer.begin(%cb : !hal.command_buffer)
  vm.import private @hal.command_buffer.fill_buffer(%cb : !hal.command_buffer,
                                                    %target : !hal.buffer, %offset : i64,
                                                    %length : i64, %target_slot : i32,
                                                    %pattern : i32, %pattern_length : i32)
  vm.import private @hal.command_buffer.dispatch(
      %cb : !hal.command_buffer, %executable : !hal.executable, %entry_point : i32,
      %x : i32, %y : i32, %z : i32, %constants : i32 ...,
      %bindings : tuple<i32, !hal.buffer, i64, i64> ...)

  vm.rodata private @module_name "store_rodata"
  vm.rodata private @weights {alignment = 64 : i64} dense<"0x0100000002000000030000000400000005000000060000000700000008000000"> : tensor<32xi8>

  vm.func private @import_weights() -> !hal.buffer {
    %c0 = vm.const.i32 0
    %device = vm.call @hal.devices.get(%c0) : (i32) -> !hal.device
    %allocator = vm.call @hal.device.allocator(%device) : (!hal.device) -> !hal.allocator
    %rodata = vm.const.ref.rodata @weights : !vm.buffer
    %offset = vm.const.i64 0
    %length = vm.const.i64 32
    %buffer = vm.call @hal.allocator.import(%allocator, %rodata, %offset, %length)
        : (!hal.allocator, !vm.buffer, i64, i64) -> !hal.buffer
    vm.return %buffer : !hal.buffer
  }

  // Returns the third element (3).
  vm.func @read() -> i32 {
    %buffer = vm.call @import_weights() : () -> !hal.buffer
    %offset = vm.const.i64 8
    %c4 = vm.const.i32 4
    %value = vm.call @hal.buffer.load(%buffer, %offset, %c4) : (!hal.buffer, i64, i32) -> i32
    vm.return %value : i32
  }
  vm.export @read

  vm.func @store() {
    %buffer = vm.call @import_weights() : () -> !hal.buffer
    %value = vm.const.i32 42
    %offset = vm.const.i64 0
    %c4 = vm.const.i32 4
    vm.call @hal.buffer.store(%value, %buffer, %offset, %c4) : (i32, !hal.buffer, i64, i32) -> ()
    vm.return
  }
  vm.export @store

  // Through a subspan: the view keeps the constant's access.
  vm.func @store_subspan() {
    %buffer = vm.call @import_weights() : () -> !hal.buffer
    %offset = vm.const.i64 16
    %length = vm.const.i64 16
    %span = vm.call @hal.buffer.subspan(%buffer, %offset, %length)
        : (!hal.buffer, i64, i64) -> !hal.buffer
    %value = vm.const.i32 42
    %zero = vm.const.i64 0
    %c4 = vm.const.i32 4
    vm.call @hal.buffer.store(%value, %span, %zero, %c4) : (i32, !hal.buffer, i64, i32) -> ()
    vm.return
  }
  vm.export @store_subspan

  vm.func @fill() {
    %buffer = vm.call @import_weights() : () -> !hal.buffer
    %c0 = vm.const.i32 0
    %device = vm.call @hal.devices.get(%c0) : (i32) -> !hal.device
    %cb = vm.call @hal.command_buffer.create(%device, %c0, %c0)
        : (!hal.device, i32, i32) -> !hal.command_buffer
    vm.call @hal.command_buffer.begin(%cb) : (!hal.command_buffer) -> ()
    %offset = vm.const.i64 0
    %length = vm.const.i64 16
    %pattern = vm.const.i32 -1
    %c4 = vm.const.i32 4
    vm.call @hal.command_buffer.fill_buffer(%cb, %buffer, %offset, %length, %c0, %pattern, %c4)
        : (!hal.command_buffer, !hal.buffer, i64, i64, i32, i32, i32) -> ()
    vm.return
  }
  vm.export @fill

  // add_f32 writes its third binding; the kernel table of this module says
  // nothing about its bindings, so every one may be written and a constant
  // may be bound to none.
  vm.func @dispatch() {
    %buffer = vm.call @import_weights() : () -> !hal.buffer
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %device = vm.call @hal.devices.get(%c0) : (i32) -> !hal.device
    %name = vm.const.ref.rodata @module_name : !vm.buffer
    %executable = vm.call @hal.executable.lookup(%device, %name)
        : (!hal.device, !vm.buffer) -> !hal.executable
    %cb = vm.call @hal.command_buffer.create(%device, %c0, %c0)
        : (!hal.device, i32, i32) -> !hal.command_buffer
    vm.call @hal.command_buffer.begin(%cb) : (!hal.command_buffer) -> ()
    %offset = vm.const.i64 0
    %whole = vm.const.i64 -1
    vm.call.variadic @hal.command_buffer.dispatch(
        %cb, %executable, %c0, %c1, %c1, %c1, [],
        [(%c0, %buffer, %offset, %whole), (%c0, %buffer, %offset, %whole),
         (%c0, %buffer, %offset, %whole)])
        : (!hal.command_buffer, !hal.executable, i32, i32, i32, i32, i32 ...,
           tuple<i32, !hal.buffer, i64, i64> ...) -> ()
    vm.return
  }
  vm.export @dispatch
}
