module {
  util.global private @"layer.kernel" {inlining_policy = #util.inline.never} = #util.byte_pattern<1> : tensor<4x3xi8>
  util.global private @bias {noinline} = dense<[0.5, -1.0, 2.0]> : tensor<3xf32>
  util.global private mutable @unstored = dense<7> : tensor<2xi32>
  ml_program.global private @w(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
  func.func @test_globals() {
    %p = util.global.address @"layer.kernel" : !util.ptr<tensor<4x3xi8>>
    %k = util.global.load.indirect %p : !util.ptr<tensor<4x3xi8>> -> tensor<4x3xi8>
    check.expect_eq_const(%k, dense<1> : tensor<4x3xi8>) : tensor<4x3xi8>
    %b = util.global.load @bias : tensor<3xf32>
    %b2 = util.global.load immutable @bias : tensor<3xf32>
    %s = stablehlo.add %b, %b2 : tensor<3xf32>
    check.expect_almost_eq_const(%s, dense<[1.0, -2.0, 4.0]> : tensor<3xf32>) : tensor<3xf32>
    %u = util.global.load @unstored : tensor<2xi32>
    check.expect_eq_const(%u, dense<7> : tensor<2xi32>) : tensor<2xi32>
    %w = ml_program.global_load_const @w : tensor<2xf32>
    %w2 = ml_program.global_load @w : tensor<2xf32>
    %g = "util.global.load"() {global = @bias} : () -> tensor<3xf32>
    check.expect_almost_eq_const(%w2, dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
    check.expect_almost_eq_const(%g, dense<[0.5, -1.0, 2.0]> : tensor<3xf32>) : tensor<3xf32>
    return
  }
}
// Also: composite, batch norm, reduce_precision, the newer CHLO ops.
func.func private @impl(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func @more(%x: tensor<4xf32>, %s: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.composite "my.id" %x {decomposition = @impl} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.reduce_precision %0, format = e5m10 : tensor<4xf32>
  %2 = "stablehlo.batch_norm_inference"(%1, %s, %s, %s, %s) {epsilon = 1.0e-3 : f32, feature_index = 0 : i64} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = chlo.lgamma %2 : tensor<4xf32> -> tensor<4xf32>
  %4 = chlo.next_after %3, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  util.global.store %4, @unstored : tensor<4xf32>
  return %4 : tensor<4xf32>
}
