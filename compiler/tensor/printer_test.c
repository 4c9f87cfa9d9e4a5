// Golden tests for grtc_tensor_print: one module exercising every printed
// form (constants short and long, splats, i1 and floats, attributes,
// regions, calls, dispatches, mixed-type signatures).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "base/status_matchers.h"
#include "compiler/tensor/test_builder.h"

#define ARG(i) grtc_tb_arg(&tb, (i))

static void expect_print(const grtc_tmodule_t* module, const char* expected) {
  grt_string_builder_t out;
  grt_string_builder_init(grt_allocator_system(), &out);
  grtc_tensor_print(module, &out);
  GRT_EXPECT_OK(grt_string_builder_status(&out));
  if (strcmp(grt_string_builder_cstring(&out), expected) != 0) {
    // cmocka truncates long messages; the texts go to stderr whole.
    fprintf(stderr, "printed:\n%s\nexpected:\n%s",
            grt_string_builder_cstring(&out), expected);
    grt_string_builder_deinit(&out);
    fail();
  }
  grt_string_builder_deinit(&out);
}

static void test_golden(void** state) {
  grtc_ttype_t args[2] = {TT(F32, 2, 3), TS(I32)};
  grtc_ttype_t results[2] = {TT(F32, 3, 2), TS(F32)};
  grtc_tb_t tb;
  grtc_tb_init(&tb, args, 2, results, 2);
  grtc_top_t* c = CF(&tb, TT(F32, 2, 3), 1, 2.5, -0.0, 1e-7, 0.1, 3);
  grtc_top_t* add = OP(&tb, ADD, TT(F32, 2, 3), ARG(0), R(c));
  grtc_top_t* t = OP(&tb, TRANSPOSE, TT(F32, 3, 2), R(add));
  t->attrs.dims = I64S(&tb, 1, 0);
  grtc_top_t* big = grtc_tb_op(&tb, GRTC_TOP_IOTA, NULL, 0,
                               (grtc_ttype_t[]){TT(I32, 10)}, 1, 0);
  big->attrs.dim = 0;
  grtc_top_t* ints = CI(&tb, TT(I32, 10), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
  ints->attrs.unfoldable = true;
  grtc_top_t* cmp = OP(&tb, COMPARE, TT(I1, 10), R(big), R(ints));
  cmp->attrs.compare_direction = GRTC_CMP_LT;
  cmp->attrs.compare_type = GRTC_CMP_TYPE_SIGNED;
  grtc_top_t* mask = CI(&tb, TT(I1, 2), 1, 0);
  grtc_top_t* half = CF(&tb, TT(F16, 4), 0.1);
  grtc_top_t* inf = CF(&tb, TT(BF16, 2), INFINITY, NAN);
  grtc_top_t* zero = CF(&tb, TS(F32), 0);
  grtc_tvalue_t* reduce_operands[2] = {ARG(0), R(zero)};
  grtc_ttype_t scalar = TS(F32);
  grtc_top_t* reduce =
      grtc_tb_op(&tb, GRTC_TOP_REDUCE, reduce_operands, 2, &scalar, 1, 1);
  reduce->attrs.dims = I64S(&tb, 0, 1);
  grtc_tb_add_body(&tb, reduce, 0, GRTC_ELEM_F32);
  grtc_top_t* dispatch = OP(&tb, DISPATCH, TT(F32, 2, 3), ARG(0), R(c));
  dispatch->attrs.kernel = 4;
  grtc_top_t* tied = OP(&tb, DISPATCH, TT(F32, 2, 3), R(dispatch), ARG(1));
  tied->attrs.kernel = 5;
  tied->attrs.tied = true;
  tied->attrs.tied_operand = 0;
  grtc_top_t* call = OP(&tb, CALL, TT(F32, 3, 2), R(tied));
  call->attrs.callee = tb.func;
  OPN(&tb, CHECK_TRUE, ARG(1));
  grtc_top_t* almost = OPN(&tb, CHECK_ALMOST_EQ, R(t), R(t));
  almost->attrs.atol = 1e-4;
  (void)mask;
  (void)half;
  (void)inf;
  (void)cmp;
  OPN(&tb, RETURN, R(call), R(reduce));
  expect_print(
      tb.module,
      "module @m {\n"
      "  func.func public @main(%0: tensor<2x3xf32>, %1: tensor<i32>) -> "
      "(tensor<3x2xf32>, tensor<f32>) {\n"
      "    %2 = stablehlo.constant dense<[1.0, 2.5, -0.0, 1e-07, 0.1, 3.0]> "
      ": tensor<2x3xf32>\n"
      "    %3 = stablehlo.add %0, %2 : tensor<2x3xf32>\n"
      "    %4 = stablehlo.transpose %3 {dims = [1, 0]} : (tensor<2x3xf32>) "
      "-> tensor<3x2xf32>\n"
      "    %5 = stablehlo.iota {dim = 0} : tensor<10xi32>\n"
      "    %6 = stablehlo.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, ... (10 "
      "elements)]> {unfoldable} : tensor<10xi32>\n"
      "    %7 = stablehlo.compare %5, %6 {direction = LT, type = SIGNED} : "
      "(tensor<10xi32>, tensor<10xi32>) -> tensor<10xi1>\n"
      "    %8 = stablehlo.constant dense<[true, false]> : tensor<2xi1>\n"
      "    %9 = stablehlo.constant dense<0.1> : tensor<4xf16>\n"
      "    %10 = stablehlo.constant dense<[inf, nan]> : tensor<2xbf16>\n"
      "    %11 = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "    %12 = stablehlo.reduce %0, %11 {dims = [0, 1]} : "
      "(tensor<2x3xf32>, tensor<f32>) -> tensor<f32> {\n"
      "    ^bb0(%13: tensor<f32>, %14: tensor<f32>):\n"
      "      %15 = stablehlo.add %13, %14 : tensor<f32>\n"
      "      stablehlo.return %15 : tensor<f32>\n"
      "    }\n"
      "    %16 = dispatch @4 (%0, %2) : tensor<2x3xf32>\n"
      "    %17 = dispatch @5 (%16, %1) {tied_operand = 0} : "
      "(tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>\n"
      "    %18 = func.call @main(%17) : (tensor<2x3xf32>) -> "
      "tensor<3x2xf32>\n"
      "    check.expect_true %1 : tensor<i32>\n"
      "    check.expect_almost_eq %4, %4 {atol = 0.0001, rtol = 0.0} : "
      "tensor<3x2xf32>, tensor<3x2xf32>\n"
      "    func.return %18, %12 : tensor<3x2xf32>, tensor<f32>\n"
      "  }\n"
      "}\n");
  grtc_tb_deinit(&tb);
}

// The same module prints the same text twice, and printing after folding
// shows the folded constants.
static void test_after_fold(void** state) {
  grtc_ttype_t arg = TT(F32, 2);
  grtc_tb_t tb;
  grtc_tb_init(&tb, &arg, 1, &arg, 1);
  grtc_top_t* a = CF(&tb, TT(F32, 2), 1, 2);
  grtc_top_t* b = OP(&tb, NEGATE, TT(F32, 2), R(a));
  grtc_top_t* sum = OP(&tb, ADD, TT(F32, 2), ARG(0), R(b));
  OPN(&tb, RETURN, R(sum));
  GRT_EXPECT_OK(grtc_tensor_fold(tb.module));
  const char* expected =
      "module @m {\n"
      "  func.func public @main(%0: tensor<2xf32>) -> (tensor<2xf32>) {\n"
      "    %4 = stablehlo.constant dense<[-1.0, -2.0]> : tensor<2xf32>\n"
      "    %3 = stablehlo.add %0, %4 : tensor<2xf32>\n"
      "    func.return %3 : tensor<2xf32>\n"
      "  }\n"
      "}\n";
  expect_print(tb.module, expected);
  expect_print(tb.module, expected);
  grtc_tb_deinit(&tb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_golden),
      cmocka_unit_test(test_after_fold),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
