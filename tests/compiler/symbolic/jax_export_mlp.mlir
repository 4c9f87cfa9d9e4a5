// A dense layer exported by jax.export with a symbolic batch ("b, 16"), in
// the form it writes: the public @main reads the dimension variable, asserts
// it, and calls the wrapped function with it. Folding relates every "?" in
// a function to that function's argument symbols (each call instantiates the
// callee's afresh; what the callee proves about its results carries over to
// the call). It compiles and runs at any batch (tests/tools/
// run_symbolic_jax_*.test): the shape assertion is checked at the call, and
// the wrapped function's shape operands, built from the dimension variable
// it is passed, are checked against the batch.
// EXIT: 0
// CHECK:   func.func public @main(%0: tensor<?s0x16xf32>, %1: tensor<16x32xf32>, %2: tensor<32xf32>) -> (tensor<?s0x32xf32>) {
// CHECK:     // s0: argument 0 dimension 0
// CHECK:     // relation s4 == s0: 'func.call' at 27:10 (callee result)
// CHECK:   func.func private @_wrapped_jax_export_main(%3: tensor<i64>, %4: tensor<?s2x16xf32>, %5: tensor<16x32xf32>, %6: tensor<32xf32>) -> (tensor<?s2x32xf32>) {
// CHECK:     // s2: argument 1 dimension 0
// CHECK:     // s6: result 0 dimension 0 of 'stablehlo.dynamic_broadcast_in_dim' at 35:10 = s2
// CHECK:     // relation s5 == s2: 'stablehlo.dot_general' at 31:10 (result)
// CHECK:     // relation s5 == s6: 'stablehlo.add' at 36:10 (operands)
// CHECK:     %16 = stablehlo.dynamic_broadcast_in_dim %6, %15 {dims = [1]} : (tensor<32xf32>, tensor<2xi64>) -> tensor<?s2x32xf32>
module @jit_dense attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x16xf32> {mhlo.layout_mode = "default", mhlo.sharding = "{replicated}"}, %arg1: tensor<16x32xf32> {mhlo.layout_mode = "default", mhlo.sharding = "{replicated}"}, %arg2: tensor<32xf32> {mhlo.layout_mode = "default", mhlo.sharding = "{replicated}"}) -> (tensor<?x32xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x16xf32>) -> tensor<i32>
    %1 = stablehlo.convert %0 : (tensor<i32>) -> tensor<i64>
    %c = stablehlo.constant dense<1> : tensor<i64>
    %2 = stablehlo.compare  GE, %1, %c,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%2, %1) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, 16),args[1].shape = (16, 32),args[2].shape = (32,). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://jax.readthedocs.io/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i64>) -> ()
    %3 = call @_wrapped_jax_export_main(%1, %arg0, %arg1, %arg2) : (tensor<i64>, tensor<?x16xf32>, tensor<16x32xf32>, tensor<32xf32>) -> tensor<?x32xf32>
    return %3 : tensor<?x32xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<?x16xf32> {mhlo.layout_mode = "default", mhlo.sharding = "{replicated}"}, %arg2: tensor<16x32xf32> {mhlo.layout_mode = "default", mhlo.sharding = "{replicated}"}, %arg3: tensor<32xf32> {mhlo.layout_mode = "default", mhlo.sharding = "{replicated}"}) -> (tensor<?x32xf32> {jax.result_info = ""}) {
    %0 = stablehlo.dot_general %arg1, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x16xf32>, tensor<16x32xf32>) -> tensor<?x32xf32>
    %1 = stablehlo.reshape %arg0 : (tensor<i64>) -> tensor<1xi64>
    %c = stablehlo.constant dense<32> : tensor<1xi64>
    %2 = stablehlo.concatenate %1, %c, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
    %3 = stablehlo.dynamic_broadcast_in_dim %arg3, %2, dims = [1] : (tensor<32xf32>, tensor<2xi64>) -> tensor<?x32xf32>
    %4 = stablehlo.add %0, %3 : tensor<?x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reshape %arg0 : (tensor<i64>) -> tensor<1xi64>
    %6 = stablehlo.concatenate %5, %c, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
    %7 = stablehlo.dynamic_broadcast_in_dim %cst, %6, dims = [] : (tensor<f32>, tensor<2xi64>) -> tensor<?x32xf32>
    %8 = stablehlo.maximum %4, %7 : tensor<?x32xf32>
    return %8 : tensor<?x32xf32>
  }
}
