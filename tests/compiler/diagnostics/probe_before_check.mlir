// check.expect_serialized_eq reads what an interpreter.probe of its probe_id recorded before it.
// ERROR: probe_before_check.mlir:4:3: error: 'check.expect_serialized_eq' of probe "late": no interpreter.probe with that probe_id comes before it
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  check.expect_serialized_eq %a, probe_id = "late" : tensor<2xf32>
  %0 = interpreter.probe %a, probe_id = "late" : tensor<2xf32>
  return %0 : tensor<2xf32>
}
