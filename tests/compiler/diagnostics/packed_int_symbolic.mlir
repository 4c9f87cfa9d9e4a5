// A public function's i4 arguments cross the call packed, which needs a
// static shape: a '?' dimension is refused, naming the argument.
// ERROR: packed_int_symbolic.mlir:4:1: error: function '@main': argument 0 is a packed i4 tensor with a '?' dimension (packed boundary values need static shapes)
func.func @main(%a: tensor<?xi4>) -> tensor<?xi4> {
  return %a : tensor<?xi4>
}
