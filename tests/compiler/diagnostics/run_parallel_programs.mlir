// interpreter.run_parallel instantiates one program R x P times: every entry of programs names it.
// ERROR: run_parallel_programs.mlir:10:10: error: 'interpreter.run_parallel' requires 'programs', [[@f, ...], ...]: rows of one length (the replicas' partitions), all naming one function
func.func private @p(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
func.func private @q(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@p], [@q]]} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0 : tensor<2xf32>
}
