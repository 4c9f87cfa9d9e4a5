// A "?" the program fixes (added to a 3x4 constant) becomes static: the
// argument, get_dimension_size (folded to 3), the dynamic_reshape and the
// dynamic_iota (static forms, then folded) all resolve and the module
// compiles and runs as a static one.
// EXIT: 0
// CHECK:   func.func public @main(%0: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
// CHECK:     // s0: argument 0 dimension 0 = 3
// CHECK:     // s3: result 0 dimension 0 of 'stablehlo.reshape' at 23:8 = 3
// CHECK:     // relation s0 == 3: 'stablehlo.add' at 18:8 (operands)
// CHECK:     // relation s3 == s2: 'stablehlo.reshape' at 23:8 (output shape)
// CHECK:     // relation s6 == 4: 'stablehlo.iota' at 24:8 (output shape)
// CHECK:     %2 = stablehlo.add %0, %1 : tensor<3x4xf32>
// CHECK:     func.return %9 : tensor<3x4xf32>
// RUN: 3x4xf32=1 2 3 4 5 6 7 8 9 10 11 12
// OUTPUT: 3x4xf32=[0 4 10 18][0 8 18 30][0 12 26 42]
func.func @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<3x4xf32>
  %0 = stablehlo.add %arg0, %c : (tensor<?x4xf32>, tensor<3x4xf32>) -> tensor<?x4xf32>
  %1 = stablehlo.get_dimension_size %0, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
  %3 = stablehlo.constant dense<4> : tensor<1xi32>
  %4 = stablehlo.concatenate %2, %3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %5 = stablehlo.dynamic_reshape %0, %4 : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %6 = stablehlo.dynamic_iota %4, dim = 1 : (tensor<2xi32>) -> tensor<?x?xf32>
  %7 = stablehlo.multiply %5, %6 : tensor<?x?xf32>
  return %7 : tensor<?x?xf32>
}
