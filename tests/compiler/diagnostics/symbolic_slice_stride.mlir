// A real_dynamic_slice with a computed limit takes constant starts and
// strides; a stride below 1 is refused at the op.
// ERROR: symbolic_slice_stride.mlir:12:8: error: 'stablehlo.real_dynamic_slice' dimension 0: start 0 must be at least 0 and stride 0 at least 1
module @m {
func.func @main(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
  %l1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c3 = stablehlo.constant dense<3> : tensor<1xi32>
  %lim = stablehlo.concatenate %l1, %c3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %st = stablehlo.constant dense<[0, 0]> : tensor<2xi32>
  %by = stablehlo.constant dense<[0, 1]> : tensor<2xi32>
  %y = stablehlo.real_dynamic_slice %x, %st, %lim, %by : (tensor<?x3xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}
}
