// A public function with packed i2/i4 arguments takes them as bytes, so a
// call to it from inside the module is refused (call a private function).
// ERROR: packed_int_call.mlir:9:8: error: call to public function '@twice', whose i2/i4/ui2/ui4 arguments or results are packed at the module's boundary, is not supported (make a private function of its body and call that)
func.func @twice(%a: tensor<3xi4>) -> tensor<3xi4> {
  %0 = stablehlo.add %a, %a : tensor<3xi4>
  return %0 : tensor<3xi4>
}
func.func @main(%a: tensor<3xi4>) -> tensor<3xi4> {
  %0 = func.call @twice(%a) : (tensor<3xi4>) -> tensor<3xi4>
  return %0 : tensor<3xi4>
}
