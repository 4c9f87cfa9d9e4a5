// A dynamic_reshape whose shape an argument holds (docs/compiler.md
// "Shapes read from data"): run_symbolic_data*.test call it with shapes
// that fit the operand and with shapes that break it.
module @m {
  func.func @view(%x: tensor<?xf32>, %shape: tensor<2xi32>) -> tensor<?x?xf32> {
    %y = stablehlo.dynamic_reshape %x, %shape : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
    %e = stablehlo.exponential %y : tensor<?x?xf32>
    return %e : tensor<?x?xf32>
  }
  // The row sums of x viewed as %shape when %p is true, else x: the
  // shape is read, and checked, only in the branch taken.
  func.func @pick(%p: tensor<i1>, %x: tensor<?xf32>, %shape: tensor<2xi32>) -> tensor<?xf32> {
    %r = "stablehlo.if"(%p) ({
      %y = stablehlo.dynamic_reshape %x, %shape : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %s = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
      stablehlo.return %s : tensor<?xf32>
    }, {
      stablehlo.return %x : tensor<?xf32>
    }) : (tensor<i1>) -> tensor<?xf32>
    return %r : tensor<?xf32>
  }
  // x padded with 0 by the low, high and interior padding an argument
  // holds ([low, high, interior]), read at the call.
  func.func @pad(%x: tensor<?xf32>, %pads: tensor<3xi32>) -> tensor<?xf32> {
    %pv = stablehlo.constant dense<0.0> : tensor<f32>
    %low = stablehlo.slice %pads [0:1] : (tensor<3xi32>) -> tensor<1xi32>
    %high = stablehlo.slice %pads [1:2] : (tensor<3xi32>) -> tensor<1xi32>
    %interior = stablehlo.slice %pads [2:3] : (tensor<3xi32>) -> tensor<1xi32>
    %y = stablehlo.dynamic_pad %x, %pv, %low, %high, %interior : (tensor<?xf32>, tensor<f32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
    return %y : tensor<?xf32>
  }
  // A column x widened to the shape an argument holds, read at the call.
  func.func @widen(%x: tensor<?x1xf32>, %shape: tensor<2xi32>) -> tensor<?x?xf32> {
    %y = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x?xf32>
    return %y : tensor<?x?xf32>
  }
  // A count 0 .. n-1 of the n an argument holds, read at the call.
  func.func @count(%n: tensor<1xi64>) -> tensor<?xi64> {
    %y = stablehlo.dynamic_iota %n, dim = 0 : (tensor<1xi64>) -> tensor<?xi64>
    return %y : tensor<?xi64>
  }
  // As jax.export writes a shape-polymorphic function: the dimension n a
  // rank-0 i64 argument holds, narrowed to i32 (wrapping as the convert
  // does), makes the row x is broadcast to: n x 2.
  func.func @rows(%n: tensor<i64>, %x: tensor<2xf32>) -> tensor<?x2xf32> {
    %n32 = stablehlo.convert %n : (tensor<i64>) -> tensor<i32>
    %n1 = stablehlo.reshape %n32 : (tensor<i32>) -> tensor<1xi32>
    %two = stablehlo.constant dense<2> : tensor<1xi32>
    %shape = stablehlo.concatenate %n1, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %y = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [1] : (tensor<2xf32>, tensor<2xi32>) -> tensor<?x2xf32>
    return %y : tensor<?x2xf32>
  }
  // Every other element of x from 1, up to the limit an argument holds,
  // read at the call.
  func.func @every_other(%x: tensor<?xf32>, %limit: tensor<1xi32>) -> tensor<?xf32> {
    %start = stablehlo.constant dense<1> : tensor<1xi32>
    %stride = stablehlo.constant dense<2> : tensor<1xi32>
    %y = stablehlo.real_dynamic_slice %x, %start, %limit, %stride : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
    return %y : tensor<?xf32>
  }
}
