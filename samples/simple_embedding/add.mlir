// The module simple_embedding calls: @add(a, b) adds two 1-D f32 tensors of
// the same length element by element.
//
// Written by hand in the vm dialect against the hal module's imports, so
// the sample needs no kernel compiler: it walks the elements in bytecode
// and writes the sums into a's buffer, which it returns (a compiled model
// would allocate its result and dispatch a kernel; the embedding side looks
// the same either way).
vm.module @simple {
  vm.import private @hal.buffer_view.buffer(%view : !hal.buffer_view) -> !hal.buffer
  vm.import private @hal.buffer_view.dim(%view : !hal.buffer_view, %index : i32) -> i64
  vm.import private @hal.buffer.load(%buffer : !hal.buffer, %offset : i64, %length : i32) -> i32
  vm.import private @hal.buffer.store(%value : i32, %buffer : !hal.buffer, %offset : i64, %length : i32)

  vm.export @add
  vm.func @add(%a : !hal.buffer_view, %b : !hal.buffer_view) -> !hal.buffer_view {
    %c0_i32 = vm.const.i32 0
    %n = vm.call @hal.buffer_view.dim(%a, %c0_i32) : (!hal.buffer_view, i32) -> i64
    %ab = vm.call @hal.buffer_view.buffer(%a) : (!hal.buffer_view) -> !hal.buffer
    %bb = vm.call @hal.buffer_view.buffer(%b) : (!hal.buffer_view) -> !hal.buffer
    %bytes = vm.const.i64 4
    %size = vm.mul.i64 %n, %bytes : i64
    %four = vm.const.i32 4
    %zero = vm.const.i64 0
    vm.br ^loop(%zero : i64)
  ^loop(%offset : i64):
    %more = vm.cmp.lt.i64.s %offset, %size : i64
    vm.cond_br %more, ^body, ^done
  ^body:
    %x_bits = vm.call @hal.buffer.load(%ab, %offset, %four) : (!hal.buffer, i64, i32) -> i32
    %y_bits = vm.call @hal.buffer.load(%bb, %offset, %four) : (!hal.buffer, i64, i32) -> i32
    %x = vm.bitcast.i32.f32 %x_bits : i32 -> f32
    %y = vm.bitcast.i32.f32 %y_bits : i32 -> f32
    %sum = vm.add.f32 %x, %y : f32
    %sum_bits = vm.bitcast.f32.i32 %sum : f32 -> i32
    vm.call @hal.buffer.store(%sum_bits, %ab, %offset, %four) : (i32, !hal.buffer, i64, i32) -> ()
    %next = vm.add.i64 %offset, %bytes : i64
    vm.br ^loop(%next : i64)
  ^done:
    vm.return %a : !hal.buffer_view
  }
}
