// Tests for the scalar evaluator: the corners compiler/kernel/scalar.h
// defines (integer division, shifts, saturating conversion, NaN, f16/bf16
// rounding, total order), one table row each.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "compiler/tensor/eval.h"

typedef struct int_case_t {
  grtc_scalar_op_t op;
  grtc_elem_t elem;
  int64_t a, b, expected;
} int_case_t;

#define I(op, elem, a, b, expected) \
  {GRTC_SCALAR_##op, GRTC_ELEM_##elem, a, b, expected}
static const int_case_t int_cases[] = {
    I(DIV, I32, 7, 0, -1),
    I(DIV, I32, -7, 0, -1),
    I(DIV, U32, 7, 0, 0xFFFFFFFF),
    I(DIV, I32, INT32_MIN, -1, INT32_MIN),
    I(DIV, I64, INT64_MIN, -1, INT64_MIN),
    I(DIV, I8, -128, -1, -128),
    I(DIV, I32, -7, 2, -3),
    I(REM, I32, 7, 0, 7),
    I(REM, U8, 200, 0, 200),
    I(REM, I32, INT32_MIN, -1, 0),
    I(REM, I64, INT64_MIN, -1, 0),
    I(REM, I32, -7, 2, -1),
    I(ADD, I32, INT32_MAX, 1, INT32_MIN),
    I(ADD, U8, 255, 1, 0),
    // StableHLO on booleans: add and maximum are OR, multiply and minimum
    // AND (not XOR, which is what wrapping 1 + 1 into one bit gives).
    I(ADD, I1, 1, 1, 1),
    I(ADD, I1, 1, 0, 1),
    I(ADD, I1, 0, 0, 0),
    I(MUL, I1, 1, 1, 1),
    I(MUL, I1, 1, 0, 0),
    I(MAX, I1, 0, 1, 1),
    I(MAX, I1, 0, 0, 0),
    I(MIN, I1, 1, 0, 0),
    I(MIN, I1, 1, 1, 1),
    I(MUL, I16, 300, 300, 24464),  // 90000 mod 2^16 = 24464
    I(SUB, U16, 0, 1, 65535),
    I(SHL, I32, 1, 31, INT32_MIN),
    I(SHL, I32, 1, 32, 0),
    I(SHL, I32, 1, -1, 0),
    I(SHL, U8, 1, 8, 0),
    I(SHL, I8, 1, 7, -128),
    I(SHRL, I32, -1, 28, 15),
    I(SHRL, I32, -1, 32, 0),
    I(SHRL, I8, -1, 4, 15),
    I(SHRL, I8, -1, -3, 0),
    I(SHRA, I32, -16, 2, -4),
    I(SHRA, I32, -16, 40, -1),
    I(SHRA, I32, 16, 40, 0),
    I(SHRA, I32, -16, -1, -1),
    I(SHRA, I8, -128, 1, -64),
    I(SHRA, U8, 0x80, 1, 0xC0),
    I(SHRA, I64, INT64_MIN, 63, -1),
    I(POW, I32, 2, 10, 1024),
    I(POW, I32, 2, -1, 0),
    I(POW, I32, 1, -5, 1),
    I(POW, I32, -1, -3, -1),
    I(POW, I32, -1, -2, 1),
    I(POW, I8, 3, 5, -13),  // 243 wraps
    I(POW, I32, 0, 0, 1),
    I(MAX, I32, -1, 1, 1),
    I(MAX, U32, 0xFFFFFFFF, 1, 0xFFFFFFFF),
    I(MAX, U64, -1, 1, -1),
    I(MIN, U64, -1, 1, 1),
    I(MIN, I8, -5, 3, -5),
    I(AND, I8, -1, 0x0F, 0x0F),
    I(OR, U8, 0xF0, 0x0F, 0xFF),
    I(XOR, I1, 1, 1, 0),
    I(NOT, I1, 1, 0, 0),
    I(NOT, I1, 0, 0, 1),
    I(NOT, I8, 0, 0, -1),
    I(NOT, U8, 0, 0, 255),
    I(ABS, I32, INT32_MIN, 0, INT32_MIN),
    I(ABS, I32, -5, 0, 5),
    I(NEG, I32, INT32_MIN, 0, INT32_MIN),
    I(NEG, U8, 1, 0, 255),
    I(SIGN, I32, -5, 0, -1),
    I(SIGN, I32, 0, 0, 0),
    I(SIGN, U8, 200, 0, 1),
    I(POPCNT, I8, -1, 0, 8),
    I(POPCNT, I64, -1, 0, 64),
    I(CLZ, I32, 1, 0, 31),
    I(CLZ, I32, 0, 0, 32),
    I(CLZ, I8, 1, 0, 7),
    I(CLZ, I8, -1, 0, 0),
    I(CLZ, U16, 0, 0, 16),
};
#undef I

static void test_integer_ops(void** state) {
  for (size_t i = 0; i < sizeof(int_cases) / sizeof(int_cases[0]); ++i) {
    const int_case_t* c = &int_cases[i];
    grtc_scalar_value_t x[2] = {grtc_eval_from_int(c->elem, c->a),
                                grtc_eval_from_int(c->elem, c->b)};
    grtc_scalar_value_t got = grtc_eval_scalar(c->op, c->elem, x);
    grtc_scalar_value_t want = grtc_eval_from_int(c->elem, c->expected);
    if (got.u != want.u) {
      fail_msg("case %zu: %s on %s (%lld, %lld) gave %lld, expected %lld", i,
               grtc_scalar_op_spelling(c->op), grtc_elem_spelling(c->elem),
               (long long)c->a, (long long)c->b, (long long)got.i,
               (long long)want.i);
    }
  }
}

typedef struct float_case_t {
  grtc_scalar_op_t op;
  grtc_elem_t elem;
  double a, b, expected;
} float_case_t;

#define F(op, elem, a, b, expected) \
  {GRTC_SCALAR_##op, GRTC_ELEM_##elem, a, b, expected}
static const float_case_t float_cases[] = {
    F(MAX, F32, NAN, 1.0, NAN),
    F(MAX, F32, 1.0, NAN, NAN),
    F(MIN, F32, NAN, 1.0, NAN),
    F(MIN, F64, 1.0, NAN, NAN),
    F(MAX, F32, -1.0, 2.0, 2.0),
    F(MAX, F32, -0.0, 0.0, 0.0),  // -0 orders below +0
    F(MAX, F32, 0.0, -0.0, 0.0),
    F(MIN, F32, 0.0, -0.0, -0.0),
    F(MIN, F64, -0.0, 0.0, -0.0),
    F(MIN, F32, -1.0, 2.0, -1.0),
    // f16 arithmetic rounds to nearest even: 1 + 2^-11 is a tie below.
    F(ADD, F16, 1.0, 0x1p-11, 1.0),
    F(ADD, F16, 1.0, 0x3p-11, 1.0 + 0x1p-9),
    F(ADD, F16, 65504.0, 65504.0, INFINITY),
    F(ADD, BF16, 1.0, 0x1p-8, 1.0),
    F(ADD, BF16, 1.0, 0x3p-8, 1.0 + 0x1p-6),
    // f32 arithmetic rounds to f32.
    F(ADD, F32, 1.0, 0x1p-24, 1.0),
    F(ADD, F64, 1.0, 0x1p-24, 1.0 + 0x1p-24),
    F(DIV, F32, 1.0, 0.0, INFINITY),
    F(DIV, F32, 0.0, 0.0, NAN),
    F(REM, F32, -7.0, 3.0, -1.0),
    F(REM, F32, 7.0, -3.0, 1.0),
    F(POW, F32, 2.0, 0.5, 1.4142135381698608),
    F(EXP, F32, 1.0, 0, 2.7182817459106445),  // expf(1)
    F(ROUND_AFZ, F32, 2.5, 0, 3.0),
    F(ROUND_AFZ, F32, -2.5, 0, -3.0),
    F(ROUND_EVEN, F32, 2.5, 0, 2.0),
    F(ROUND_EVEN, F32, 3.5, 0, 4.0),
    F(SIGN, F32, -3.0, 0, -1.0),
    F(SIGN, F32, NAN, 0, NAN),
    F(SIGN, F32, 0.0, 0, 0.0),
    F(LOGISTIC, F64, 0.0, 0, 0.5),
    F(RSQRT, F32, 4.0, 0, 0.5),
    F(ABS, F16, -2.0, 0, 2.0),
    F(NEG, BF16, 2.0, 0, -2.0),
    F(FLOOR, F32, -1.5, 0, -2.0),
    F(CEIL, F32, -1.5, 0, -1.0),
    F(ATAN2, F64, 1.0, 1.0, 0.78539816339744828),
    F(SQRT, F16, 2.0, 0, 1.4140625),  // f16's nearest to sqrt(2)
};
#undef F

static bool same_float(double a, double b) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  return a == b && signbit(a) == signbit(b);
}

static void test_float_ops(void** state) {
  for (size_t i = 0; i < sizeof(float_cases) / sizeof(float_cases[0]); ++i) {
    const float_case_t* c = &float_cases[i];
    grtc_scalar_value_t x[2];
    x[0].f = c->a;
    x[1].f = c->b;
    grtc_scalar_value_t got = grtc_eval_scalar(c->op, c->elem, x);
    if (!same_float(got.f, c->expected)) {
      fail_msg("case %zu: %s on %s (%g, %g) gave %.17g, expected %.17g", i,
               grtc_scalar_op_spelling(c->op), grtc_elem_spelling(c->elem),
               c->a, c->b, got.f, c->expected);
    }
  }
  grtc_scalar_value_t x[1];
  x[0].f = -0.0;
  assert_true(signbit(grtc_eval_scalar(GRTC_SCALAR_SIGN, GRTC_ELEM_F32, x).f));
  x[0].f = INFINITY;
  assert_int_equal(grtc_eval_scalar(GRTC_SCALAR_IS_FINITE, GRTC_ELEM_F32, x).u,
                   0);
  x[0].f = 1.0;
  assert_int_equal(grtc_eval_scalar(GRTC_SCALAR_IS_FINITE, GRTC_ELEM_F32, x).u,
                   1);
}

static void test_select_and_clamp(void** state) {
  grtc_scalar_value_t x[3];
  x[0].u = 1;
  x[1].f = 2.0;
  x[2].f = 3.0;
  assert_true(grtc_eval_scalar(GRTC_SCALAR_SELECT, GRTC_ELEM_F32, x).f == 2.0);
  x[0].u = 0;
  assert_true(grtc_eval_scalar(GRTC_SCALAR_SELECT, GRTC_ELEM_F32, x).f == 3.0);
  // clamp(min 1, x 5, max 3) = 3; clamp(1, -2, 3) = 1; NaN x propagates.
  x[0].f = 1.0;
  x[1].f = 5.0;
  x[2].f = 3.0;
  assert_true(grtc_eval_scalar(GRTC_SCALAR_CLAMP, GRTC_ELEM_F32, x).f == 3.0);
  x[1].f = -2.0;
  assert_true(grtc_eval_scalar(GRTC_SCALAR_CLAMP, GRTC_ELEM_F32, x).f == 1.0);
  x[1].f = NAN;
  assert_true(isnan(grtc_eval_scalar(GRTC_SCALAR_CLAMP, GRTC_ELEM_F32, x).f));
  x[0] = grtc_eval_from_int(GRTC_ELEM_U8, 10);
  x[1] = grtc_eval_from_int(GRTC_ELEM_U8, 250);
  x[2] = grtc_eval_from_int(GRTC_ELEM_U8, 200);
  assert_int_equal(grtc_eval_scalar(GRTC_SCALAR_CLAMP, GRTC_ELEM_U8, x).u, 200);
}

typedef struct convert_case_t {
  grtc_elem_t from, to;
  double value;     // for float sources
  int64_t integer;  // for integer sources
  double expected;  // float results, or the integer result
} convert_case_t;

#define CF(from, to, value, expected) \
  {GRTC_ELEM_##from, GRTC_ELEM_##to, value, 0, expected}
#define CI(from, to, integer, expected) \
  {GRTC_ELEM_##from, GRTC_ELEM_##to, 0, integer, expected}
static const convert_case_t convert_cases[] = {
    CF(F32, I32, 1e10, 2147483647.0),
    CF(F32, I32, -1e10, -2147483648.0),
    CF(F32, I32, NAN, 0),
    CF(F32, I32, 3.9, 3),
    CF(F32, I32, -3.9, -3),
    CF(F32, I32, -0.9, 0),
    CF(F32, U8, -5.0, 0),
    CF(F32, U8, 300.0, 255),
    CF(F32, U8, 255.9, 255),
    CF(F64, I64, 1e30, 9223372036854775807.0),
    CF(F64, I64, -1e30, -9223372036854775808.0),
    CF(F64, U64, -1.0, 0),
    CF(F32, I8, INFINITY, 127),
    CF(F32, I8, -INFINITY, -128),
    CF(F32, I1, 0.5, 1),
    CF(F32, I1, 0.0, 0),
    CF(F32, F16, 65520.0, INFINITY),
    CF(F32, F16, 65519.0, 65504.0),
    CF(F32, F16, 1.0 + 0x1p-11, 1.0),
    CF(F32, F16, 1.0 + 0x3p-11, 1.0 + 0x1p-9),
    CF(F32, F16, 0x1p-25, 0.0),            // a tie below the smallest subnormal
    CF(F32, F16, 0x3p-26, 0x1p-24),        // above the tie
    CF(F32, BF16, 1.0 + 0x1p-8, 1.0),
    CF(F32, BF16, 1.0 + 0x3p-8, 1.0 + 0x1p-6),
    CF(F64, F32, 1.0 + 0x1p-30, 1.0),
    CF(F16, F32, 65504.0, 65504.0),
    CI(I32, F16, 2049, 2048),
    CI(I32, F16, 2051, 2052),
    CI(I32, F16, 70000, INFINITY),
    CI(I32, BF16, 257, 256),
    CI(I64, F32, 16777217, 16777216),
    CI(I32, I8, 300, 44),
    CI(I32, U8, -1, 255),
    CI(U8, I32, 255, 255),
    CI(I8, U32, -1, 4294967295.0),
    CI(I32, I1, 2, 1),
    CI(I32, I1, 0, 0),
};
#undef CF
#undef CI

static void test_convert(void** state) {
  for (size_t i = 0; i < sizeof(convert_cases) / sizeof(convert_cases[0]);
       ++i) {
    const convert_case_t* c = &convert_cases[i];
    grtc_scalar_value_t in;
    if (grtc_elem_is_float(c->from)) {
      in.f = c->value;
    } else {
      in = grtc_eval_from_int(c->from, c->integer);
    }
    grtc_scalar_value_t got = grtc_eval_convert(c->from, c->to, in);
    double value;
    if (grtc_elem_is_float(c->to)) {
      value = got.f;
    } else if (grtc_elem_is_signed_integer(c->to)) {
      value = (double)got.i;
    } else {
      value = (double)got.u;
    }
    if (!same_float(value, c->expected)) {
      fail_msg("case %zu: %s -> %s gave %.17g, expected %.17g", i,
               grtc_elem_spelling(c->from), grtc_elem_spelling(c->to), value,
               c->expected);
    }
  }
}

static bool compare(grtc_compare_direction_t direction,
                    grtc_compare_type_t type, grtc_elem_t elem, double a,
                    double b) {
  grtc_scalar_value_t x, y;
  x.f = a;
  y.f = b;
  return grtc_eval_compare(direction, type, elem, x, y);
}

static void test_compare(void** state) {
  // FLOAT: NaN is unordered.
  assert_false(compare(GRTC_CMP_EQ, GRTC_CMP_TYPE_DEFAULT, GRTC_ELEM_F32, NAN,
                       NAN));
  assert_true(compare(GRTC_CMP_NE, GRTC_CMP_TYPE_FLOAT, GRTC_ELEM_F32, NAN,
                      NAN));
  assert_false(compare(GRTC_CMP_LT, GRTC_CMP_TYPE_FLOAT, GRTC_ELEM_F32, NAN,
                       1.0));
  assert_false(compare(GRTC_CMP_GE, GRTC_CMP_TYPE_FLOAT, GRTC_ELEM_F32, NAN,
                       1.0));
  assert_true(compare(GRTC_CMP_EQ, GRTC_CMP_TYPE_FLOAT, GRTC_ELEM_F32, -0.0,
                      0.0));
  // TOTALORDER: -NaN < -Inf < -1 < -0 < +0 < 1 < Inf < NaN.
  const double order[] = {-NAN, -INFINITY, -1.0, -0.0, 0.0, 1.0, INFINITY, NAN};
  const grtc_elem_t elems[] = {GRTC_ELEM_F16, GRTC_ELEM_BF16, GRTC_ELEM_F32,
                               GRTC_ELEM_F64};
  for (size_t e = 0; e < 4; ++e) {
    for (size_t i = 0; i + 1 < 8; ++i) {
      assert_true(compare(GRTC_CMP_LT, GRTC_CMP_TYPE_TOTALORDER, elems[e],
                          order[i], order[i + 1]));
      assert_false(compare(GRTC_CMP_GE, GRTC_CMP_TYPE_TOTALORDER, elems[e],
                           order[i], order[i + 1]));
    }
    assert_true(compare(GRTC_CMP_EQ, GRTC_CMP_TYPE_TOTALORDER, elems[e], NAN,
                        NAN));
  }
  // Integers: by default signed for iN, unsigned for uiN; an explicit type
  // reinterprets the bits.
  grtc_scalar_value_t m1 = grtc_eval_from_int(GRTC_ELEM_I32, -1);
  grtc_scalar_value_t one = grtc_eval_from_int(GRTC_ELEM_I32, 1);
  assert_true(grtc_eval_compare(GRTC_CMP_LT, GRTC_CMP_TYPE_DEFAULT,
                                GRTC_ELEM_I32, m1, one));
  assert_true(grtc_eval_compare(GRTC_CMP_GT, GRTC_CMP_TYPE_UNSIGNED,
                                GRTC_ELEM_I32, m1, one));
  grtc_scalar_value_t big = grtc_eval_from_int(GRTC_ELEM_U8, 200);
  grtc_scalar_value_t small = grtc_eval_from_int(GRTC_ELEM_U8, 1);
  assert_true(grtc_eval_compare(GRTC_CMP_GT, GRTC_CMP_TYPE_DEFAULT,
                                GRTC_ELEM_U8, big, small));
  assert_true(grtc_eval_compare(GRTC_CMP_LT, GRTC_CMP_TYPE_SIGNED,
                                GRTC_ELEM_U8, big, small));
  grtc_scalar_value_t t = grtc_eval_from_int(GRTC_ELEM_I1, 1);
  grtc_scalar_value_t f = grtc_eval_from_int(GRTC_ELEM_I1, 0);
  assert_true(grtc_eval_compare(GRTC_CMP_GT, GRTC_CMP_TYPE_DEFAULT,
                                GRTC_ELEM_I1, t, f));
}

static void test_load_store(void** state) {
  uint8_t bytes[8];
  grtc_scalar_value_t v;
  v.f = 1.5;
  grtc_eval_store(GRTC_ELEM_F16, v, bytes);
  assert_int_equal(bytes[0] | bytes[1] << 8, 0x3E00);
  grtc_eval_store(GRTC_ELEM_BF16, v, bytes);
  assert_int_equal(bytes[0] | bytes[1] << 8, 0x3FC0);
  assert_true(grtc_eval_load(GRTC_ELEM_BF16, bytes).f == 1.5);
  v = grtc_eval_from_int(GRTC_ELEM_I16, -2);
  grtc_eval_store(GRTC_ELEM_I16, v, bytes);
  assert_int_equal(bytes[0], 0xFE);
  assert_int_equal(bytes[1], 0xFF);
  assert_int_equal(grtc_eval_load(GRTC_ELEM_I16, bytes).i, -2);
  assert_int_equal(grtc_eval_load(GRTC_ELEM_U16, bytes).u, 0xFFFE);
  bytes[0] = 7;  // any nonzero byte reads as true
  assert_int_equal(grtc_eval_load(GRTC_ELEM_I1, bytes).u, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_integer_ops),
      cmocka_unit_test(test_float_ops),
      cmocka_unit_test(test_select_and_clamp),
      cmocka_unit_test(test_convert),
      cmocka_unit_test(test_compare),
      cmocka_unit_test(test_load_store),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
