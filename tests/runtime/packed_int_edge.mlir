// Packed boundary values at the edges: a rank-0 i4 (one byte), an empty
// ui2 (no bytes) and a 2-D i2 whose 8 values fill 2 bytes exactly; run by
// tests/runtime/tools/run_packed_int_edge*.test.
func.func @main(%a: tensor<i4>, %b: tensor<0xui2>, %c: tensor<2x4xi2>) -> (tensor<i4>, tensor<0xui2>, tensor<4x2xi2>) {
  %x = stablehlo.negate %a : tensor<i4>
  %t = stablehlo.transpose %c, dims = [1, 0] : (tensor<2x4xi2>) -> tensor<4x2xi2>
  return %x, %b, %t : tensor<i4>, tensor<0xui2>, tensor<4x2xi2>
}
