// A counter kept in a mutable global (docs/compiler.md "Mutable globals"):
// each call of @next adds one and returns the count; @add adds its
// argument; @peek reads it.
module @counter {
  util.global private mutable @count = dense<0> : tensor<i32>
  func.func @next() -> tensor<i32> {
    %0 = util.global.load @count : tensor<i32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %0, %c : tensor<i32>
    util.global.store %1, @count : tensor<i32>
    return %1 : tensor<i32>
  }
  func.func @peek() -> tensor<i32> {
    %0 = util.global.load @count : tensor<i32>
    return %0 : tensor<i32>
  }
  func.func @add(%arg0: tensor<i32>) -> tensor<i32> {
    %0 = util.global.load @count : tensor<i32>
    %1 = stablehlo.add %0, %arg0 : tensor<i32>
    util.global.store %1, @count : tensor<i32>
    return %1 : tensor<i32>
  }
}
