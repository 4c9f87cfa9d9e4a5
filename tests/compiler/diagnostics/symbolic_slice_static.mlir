// A real_dynamic_slice whose limit is computed at the call but whose result
// type was written static has no symbol to give the computed size.
// ERROR: symbolic_slice_static.mlir:13:8: error: 'stablehlo.real_dynamic_slice' limit element 0 is computed at the call, but result dimension 0 (2) was written static
// ERROR: not supported yet
module @m {
func.func @main(%x: tensor<?x3xf32>) -> tensor<2x3xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
  %l1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c3 = stablehlo.constant dense<3> : tensor<1xi32>
  %lim = stablehlo.concatenate %l1, %c3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %st = stablehlo.constant dense<[0, 0]> : tensor<2xi32>
  %by = stablehlo.constant dense<[1, 1]> : tensor<2xi32>
  %y = stablehlo.real_dynamic_slice %x, %st, %lim, %by : (tensor<?x3xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
}
