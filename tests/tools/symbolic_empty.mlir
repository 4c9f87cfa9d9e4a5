// Operands that may be empty at the call (run_symbolic_empty_*.test): the
// rows of a and b (equal: the add relates them) scaled and added, then
// the rows of c after them.
func.func @main(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>, %c: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %s = stablehlo.add %a, %b : tensor<?x3xf32>
  %r = stablehlo.concatenate %s, %c, dim = 0 : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
