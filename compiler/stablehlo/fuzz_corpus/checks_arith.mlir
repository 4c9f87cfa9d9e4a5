func.func @t(%t: tensor<4x4xf32>, %i: index, %x: f32, %n: i32) {
  %a = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>
  check.expect_eq(%a, %a) : tensor<2xf32>
  check.expect_eq_const(%a, dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
  check.expect_almost_eq(%a, %a, atol 1.0e-02) : tensor<2xf32>
  check.expect_eq_const %a, dense<[1.0, 2.0]> : tensor<2xf32>
  check.expect_close %a, %a, max_ulp_difference = 3 : tensor<2xf32>, tensor<2xf32>
  stablehlo.custom_call @check.expect_eq(%a, %a) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  %c = arith.constant 2.5 : f32
  %0 = arith.addf %x, %c : f32
  %1 = arith.cmpf olt, %0, %x : f32
  %2 = arith.cmpi sge, %n, %n : i32
  %3 = arith.select %1, %0, %x : f32
  %5 = arith.index_cast %n : i32 to index
  %6 = tensor.extract %t[%i, %5] : tensor<4x4xf32>
  %7 = arith.extui %2 : i1 to i32
  check.expect_true(%7) : i32
  return
}
