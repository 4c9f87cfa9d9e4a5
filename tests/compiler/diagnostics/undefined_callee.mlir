// ERROR: undefined_callee.mlir:3:8: error: call to undefined function '@helper'
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @helper(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
