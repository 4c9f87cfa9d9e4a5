// i4, ui4 and i2 arguments and results cross the call packed (two or four
// to a byte, docs/module-format.md "Sub-byte integer tensors") at odd
// element counts; run by tests/runtime/tools/run_packed_int_*.test.
func.func @main(%a: tensor<5xi4>, %b: tensor<3x3xui4>, %c: tensor<7xi2>)
    -> (tensor<5xi4>, tensor<3x3xui4>, tensor<7xi2>, tensor<5xi32>, tensor<3xui2>) {
  // a + a wraps to 4 bits; b transposed, plus 1 (15 + 1 wraps to 0);
  // -c wraps to 2 bits (-(-2) is -2); a as i32; a constant ui2 result.
  %x = stablehlo.add %a, %a : tensor<5xi4>
  %one = stablehlo.constant dense<1> : tensor<3x3xui4>
  %t = stablehlo.transpose %b, dims = [1, 0] : (tensor<3x3xui4>) -> tensor<3x3xui4>
  %y = stablehlo.add %t, %one : tensor<3x3xui4>
  %z = stablehlo.negate %c : tensor<7xi2>
  %w = stablehlo.convert %a : (tensor<5xi4>) -> tensor<5xi32>
  %k = stablehlo.constant dense<[3, 0, 2]> : tensor<3xui2>
  return %x, %y, %z, %w, %k : tensor<5xi4>, tensor<3x3xui4>, tensor<7xi2>, tensor<5xi32>, tensor<3xui2>
}
