// A program that waits forever: it awaits (timeout -1) a fence nothing
// signals, as a flipped fence operand would. grt-run --timeout and
// grt-check --timeout must end it with DEADLINE_EXCEEDED.
vm.module @hang {
  vm.import private @hal.devices.get(%index : i32) -> !hal.device
  vm.import private @hal.fence.create(%device : !hal.device) -> !hal.fence
  vm.import private @hal.fence.await(%timeout_ms : i32, %fences : !hal.fence ...) -> i32

  vm.func @wait_forever() -> i32 {
    %c0 = vm.const.i32.zero
    %device = vm.call @hal.devices.get(%c0) : (i32) -> !hal.device
    %fence = vm.call @hal.fence.create(%device) : (!hal.device) -> !hal.fence
    %forever = vm.const.i32 -1
    %reached = vm.call.variadic @hal.fence.await(%forever, [%fence])
        : (i32, !hal.fence ...) -> i32
    vm.return %reached : i32
  }
  vm.export @wait_forever

  vm.func @test_wait_forever() {
    %reached = vm.call @wait_forever() : () -> i32
    vm.return
  }
  vm.export @test_wait_forever
}
