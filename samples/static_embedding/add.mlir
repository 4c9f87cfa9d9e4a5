// The module static_embedding links in: @add(a, b) adds two tensor<4xf32>
// with a compiled CPU kernel (grt-compile --output-format=c-static turns it
// into static_add.c and static_add.h).
module @static_add {
  func.func public @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %a, %b : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
