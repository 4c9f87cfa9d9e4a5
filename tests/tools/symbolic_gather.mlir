// Gathers from operands of symbolic size (docs/compiler.md "Symbolic
// shapes"): @pairs takes windows of 2 elements from a vector of any length
// of at least 2 (the call checks the length holds the slice size; starts
// are clamped to [0, length - 2]); @rows looks rows up in a table of any
// number of rows.
func.func @pairs(%x: tensor<?xf32>, %starts: tensor<3x1xi32>) -> tensor<3x2xf32> {
  %0 = "stablehlo.gather"(%x, %starts) {dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2>, indices_are_sorted = false} : (tensor<?xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

func.func @rows(%table: tensor<?x2xf32>, %ids: tensor<?xi32>) -> tensor<?x2xf32> {
  %0 = "stablehlo.gather"(%table, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>, indices_are_sorted = false} : (tensor<?x2xf32>, tensor<?xi32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}
