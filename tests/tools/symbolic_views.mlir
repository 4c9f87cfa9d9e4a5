// The argument checks of a shape-polymorphic program, as the host program
// emits them (docs/compiler.md "Symbolic shapes"): @main(a: ?x2xf32,
// b: ?x2xf32) asserts each argument with -1 (any size) for its symbolic
// dimension, reads a's with hal.buffer_view.dim, checks b's equal with
// hal.buffer_view.assert_dim and a's at least 2, and returns b.
vm.module @symbolic_views {
  vm.import private @hal.buffer_view.assert(%view : !hal.buffer_view, %message : !vm.buffer,
                                            %element_type : i32, %encoding : i32,
                                            %dims : i64 ...)
  vm.import private @hal.buffer_view.dim(%view : !hal.buffer_view, %index : i32) -> i64
  vm.import private @hal.buffer_view.assert_dim(%view : !hal.buffer_view, %message : !vm.buffer,
                                                %index : i32, %relation : i32, %bound : i64)

  vm.rodata private @argument0 "argument 0"
  vm.rodata private @argument1 "argument 1"
  vm.rodata private @equal "@main: argument 1 dimension 0 must equal argument 0 dimension 0"
  vm.rodata private @bound "@main: argument 0 dimension 0 must be at least 2"

  vm.export @main
  vm.func @main(%a : !hal.buffer_view, %b : !hal.buffer_view) -> !hal.buffer_view {
    %f32 = vm.const.i32 553648160
    %dense = vm.const.i32.zero
    %any = vm.const.i64 -1
    %two = vm.const.i64 2
    %message0 = vm.const.ref.rodata @argument0 : !vm.buffer
    vm.call.variadic @hal.buffer_view.assert(%a, %message0, %f32, %dense, [%any, %two])
        : (!hal.buffer_view, !vm.buffer, i32, i32, i64 ...) -> ()
    %message1 = vm.const.ref.rodata @argument1 : !vm.buffer
    vm.call.variadic @hal.buffer_view.assert(%b, %message1, %f32, %dense, [%any, %two])
        : (!hal.buffer_view, !vm.buffer, i32, i32, i64 ...) -> ()
    %axis = vm.const.i32.zero
    %n = vm.call @hal.buffer_view.dim(%a, %axis) : (!hal.buffer_view, i32) -> i64
    %equal = vm.const.ref.rodata @equal : !vm.buffer
    %eq = vm.const.i32.zero
    vm.call @hal.buffer_view.assert_dim(%b, %equal, %axis, %eq, %n)
        : (!hal.buffer_view, !vm.buffer, i32, i32, i64) -> ()
    %bound = vm.const.ref.rodata @bound : !vm.buffer
    %ge = vm.const.i32 1
    vm.call @hal.buffer_view.assert_dim(%a, %bound, %axis, %ge, %two)
        : (!hal.buffer_view, !vm.buffer, i32, i32, i64) -> ()
    vm.return %b : !hal.buffer_view
  }
}
