// collective_broadcast with has_dynamic_root takes a root per data operand as its last operand.
// ERROR: collective_broadcast_root.mlir:4:8: error: 'stablehlo.collective_broadcast' with has_dynamic_root takes as its last operand a root per data operand, tensor<1xi32>
func.func private @p(%x: tensor<2xf32>, %r: tensor<2xi32>) -> tensor<2xf32> {
  %y = "stablehlo.collective_broadcast"(%x, %r) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root} : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @main(%a: tensor<2xf32>, %r: tensor<2xi32>) -> tensor<2xf32> {
  %0:2 = "interpreter.run_parallel"(%a, %r, %a, %r) {programs = [[@p], [@p]]} : (tensor<2xf32>, tensor<2xi32>, tensor<2xf32>, tensor<2xi32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0 : tensor<2xf32>
}
