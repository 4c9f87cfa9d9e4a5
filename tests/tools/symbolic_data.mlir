// A dynamic_reshape whose shape an argument holds (docs/compiler.md
// "Shapes read from data"): run_symbolic_data*.test call it with shapes
// that fit the operand and with shapes that break it.
module @m {
  func.func @view(%x: tensor<?xf32>, %shape: tensor<2xi32>) -> tensor<?x?xf32> {
    %y = stablehlo.dynamic_reshape %x, %shape : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
    %e = stablehlo.exponential %y : tensor<?x?xf32>
    return %e : tensor<?x?xf32>
  }
}
