// dynamic_gather compiles as gather when its slice_sizes operand is a
// constant; one computed at run time is refused naming the operand.
// ERROR: dynamic_gather_sizes.mlir:6:8: error: 'stablehlo.dynamic_gather' needs its slice_sizes operand (operand 2) to be a constant: element 0 is computed at run time
// ERROR: only the static form (stablehlo.gather) is supported
func.func @main(%t: tensor<10x4xf32>, %ids: tensor<3x1xi32>, %ss: tensor<2xi64>) -> tensor<3x4xf32> {
  %g = "stablehlo.dynamic_gather"(%t, %ids, %ss) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false} : (tensor<10x4xf32>, tensor<3x1xi32>, tensor<2xi64>) -> tensor<3x4xf32>
  return %g : tensor<3x4xf32>
}
