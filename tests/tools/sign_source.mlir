// A module with one kernel (so it has native code) for the signing tests
// (sign_*.test, run_require_signed_*.test, ...).
module @signme {
  func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %a, %b : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
