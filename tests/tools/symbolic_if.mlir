// A size computed inside an if branch (docs/compiler.md "Symbolic
// shapes"): the true branch drops x's last element (a real_dynamic_slice
// of n - 1 elements), the false branch returns x. The host program
// computes and checks n - 1 in the true branch only, so at n = 0 the call
// fails only when p is true (run_symbolic_if_size*.test).
module @m attributes {jax.uses_shape_polymorphism = true} {
  func.func @drop_last(%p: tensor<i1>, %x: tensor<?xf32>) -> tensor<?xf32> {
    %r = "stablehlo.if"(%p) ({
      %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %m = stablehlo.subtract %n, %one : tensor<i32>
      %m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>
      %z = stablehlo.constant dense<0> : tensor<1xi32>
      %s1 = stablehlo.constant dense<1> : tensor<1xi32>
      %y = stablehlo.real_dynamic_slice %x, %z, %m1, %s1 : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
      stablehlo.return %y : tensor<?xf32>
    }, {
      stablehlo.return %x : tensor<?xf32>
    }) : (tensor<i1>) -> tensor<?xf32>
    return %r : tensor<?xf32>
  }
}
