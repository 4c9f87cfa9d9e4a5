// One straight-line function for the threading tests (concurrency_test.c):
// grt-compile records its dispatches once into a reusable command buffer
// kept in a module global and replays it on every later call, the per-call
// state a session must never let two threads share.
module @conc {
  func.func @main(%a: tensor<256xf32>, %b: tensor<256xf32>) -> tensor<256xf32> {
    %0 = stablehlo.multiply %a, %b : tensor<256xf32>
    %1 = stablehlo.add %0, %a : tensor<256xf32>
    return %1 : tensor<256xf32>
  }
}
