// Extents computed at the call from get_dimension_size arithmetic
// (docs/compiler.md "Symbolic shapes", "Computed extents"): the
// run_symbolic_computed_*.test files call these at sizes that break them.
module @m attributes {jax.uses_shape_polymorphism = true} {
  // Rows [1:n+1:2]: the limit runs one past the operand, always wrong.
  func.func @past(%x: tensor<?x2xf32>) -> tensor<?x2xf32> {
    %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x2xf32>) -> tensor<i32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %l = stablehlo.add %n, %one : tensor<i32>
    %l1 = stablehlo.reshape %l : (tensor<i32>) -> tensor<1xi32>
    %c2 = stablehlo.constant dense<2> : tensor<1xi32>
    %lim = stablehlo.concatenate %l1, %c2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %st = stablehlo.constant dense<[1, 0]> : tensor<2xi32>
    %by = stablehlo.constant dense<[2, 1]> : tensor<2xi32>
    %y = stablehlo.real_dynamic_slice %x, %st, %lim, %by : (tensor<?x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
    return %y : tensor<?x2xf32>
  }
  // An iota of 12 / (n - 1) elements.
  func.func @share(%x: tensor<?x2xf32>) -> tensor<?xi32> {
    %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x2xf32>) -> tensor<i32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %twelve = stablehlo.constant dense<12> : tensor<i32>
    %d = stablehlo.subtract %n, %one : tensor<i32>
    %q = stablehlo.divide %twelve, %d : tensor<i32>
    %s = stablehlo.reshape %q : (tensor<i32>) -> tensor<1xi32>
    %i = stablehlo.dynamic_iota %s, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
    return %i : tensor<?xi32>
  }
  // Rows [0:n-1] of %x added to %w: %w must have n - 1 rows.
  func.func @trim_add(%x: tensor<?x2xf32>, %w: tensor<?x2xf32>) -> tensor<?x2xf32> {
    %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x2xf32>) -> tensor<i32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %l = stablehlo.subtract %n, %one : tensor<i32>
    %l1 = stablehlo.reshape %l : (tensor<i32>) -> tensor<1xi32>
    %c2 = stablehlo.constant dense<2> : tensor<1xi32>
    %lim = stablehlo.concatenate %l1, %c2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %st = stablehlo.constant dense<0> : tensor<2xi32>
    %by = stablehlo.constant dense<1> : tensor<2xi32>
    %y = stablehlo.real_dynamic_slice %x, %st, %lim, %by : (tensor<?x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
    %z = stablehlo.add %y, %w : tensor<?x2xf32>
    return %z : tensor<?x2xf32>
  }
  // An iota of (n * n * n) % 5 + 5 elements, computed in i64 at the call
  // (n * n * n wraps i64 from n = 2^21 + 1 on, and must fail the call).
  func.func @cube(%x: tensor<?x0xf32>) -> tensor<?xi64> {
    %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x0xf32>) -> tensor<i64>
    %five = stablehlo.constant dense<5> : tensor<i64>
    %n2 = stablehlo.multiply %n, %n : tensor<i64>
    %n3 = stablehlo.multiply %n2, %n : tensor<i64>
    %r = stablehlo.remainder %n3, %five : tensor<i64>
    %c = stablehlo.add %r, %five : tensor<i64>
    %s = stablehlo.reshape %c : (tensor<i64>) -> tensor<1xi64>
    %i = stablehlo.dynamic_iota %s, dim = 0 : (tensor<1xi64>) -> tensor<?xi64>
    return %i : tensor<?xi64>
  }
  // %x (n x m) viewed as n x n x n: the element counts differ unless
  // n * m = n * n * n, even where n * n * n wraps i64 to 0 (n = 2^22,
  // m = 0).
  func.func @cube_view(%x: tensor<?x?xf32>) -> tensor<?x?x?xf32> {
    %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x?xf32>) -> tensor<i64>
    %n1 = stablehlo.reshape %n : (tensor<i64>) -> tensor<1xi64>
    %s = stablehlo.concatenate %n1, %n1, %n1, dim = 0 : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
    %y = stablehlo.dynamic_reshape %x, %s : (tensor<?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    return %y : tensor<?x?x?xf32>
  }
  // A column broadcast to another argument's shape (get_dimension_size):
  // its rows must equal that argument's (only a static 1 broadcasts).
  func.func @like(%x: tensor<?x1xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %d0 = stablehlo.get_dimension_size %y, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
    %d1 = stablehlo.get_dimension_size %y, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
    %a = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>
    %b = stablehlo.reshape %d1 : (tensor<i32>) -> tensor<1xi32>
    %s = stablehlo.concatenate %a, %b, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %r = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x?xf32>
    %z = stablehlo.add %r, %y : tensor<?x?xf32>
    return %z : tensor<?x?xf32>
  }
}
