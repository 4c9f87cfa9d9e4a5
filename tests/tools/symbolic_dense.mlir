// A dense layer with a symbolic batch (tests/tools/run_symbolic_dense*.test):
// tanh(a @ w + b), a: ?x16, b: ?x4 with the same batch (the add relates them).
func.func @main(%a: tensor<?x16xf32>, %w: tensor<16x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<?x16xf32>, tensor<16x4xf32>) -> tensor<?x4xf32>
  %1 = stablehlo.add %0, %b : tensor<?x4xf32>
  %2 = stablehlo.tanh %1 : tensor<?x4xf32>
  return %2 : tensor<?x4xf32>
}
