// f32 and f64 ops: arithmetic and math against libm (relative tolerance),
// ordered/unordered comparisons with NaN, casts at their saturation edges,
// bitcasts, and min/max NaN propagation. Each op runs alone through
// grt_vm_test_run_op.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "vm/test_support.h"

#define N(x) (sizeof(x) / sizeof((x)[0]))

static grt_vm_variant_t value_of(char type, double v) {
  switch (type) {
    case 'f': return grt_vm_variant_f32((float)v);
    case 'F': return grt_vm_variant_f64(v);
    case 'I': return grt_vm_variant_i64((int64_t)v);
    default: return grt_vm_variant_i32((int32_t)(int64_t)v);
  }
}

static double as_double(char type, const grt_vm_variant_t* v) {
  switch (type) {
    case 'f': return v->f32;
    case 'F': return v->f64;
    case 'I': return (double)v->i64;
    default: return v->i32;
  }
}

// Runs |op| on a, b, c (as many as it takes) and returns the result.
static double run(grt_vm_op_t op, double a, double b, double c) {
  const char* operands = grt_vm_op_info(op)->operands;
  const double values[3] = {a, b, c};
  grt_vm_variant_t args[3];
  size_t n = 0;
  for (; operands[n] != '>'; ++n) args[n] = value_of(operands[n], values[n]);
  grt_vm_variant_t result;
  GRT_EXPECT_OK(grt_vm_test_run_op(op, args, &result));
  return as_double(operands[n + 1], &result);
}

static void expect_near(const char* what, double got, double expected,
                        double tolerance) {
  if (isnan(expected) ? !isnan(got)
                      : fabs(got - expected) >
                            tolerance * fmax(1.0, fabs(expected))) {
    fail_msg("%s: expected %.17g, got %.17g", what, expected, got);
  }
}

typedef double (*unary_fn)(double);
typedef double (*binary_fn)(double, double);

static double rsqrt(double x) { return 1.0 / sqrt(x); }
static double neg(double x) { return -x; }
static double add(double a, double b) { return a + b; }
static double sub(double a, double b) { return a - b; }
static double mul(double a, double b) { return a * b; }
static double divide(double a, double b) { return a / b; }

// One row per math op; both widths are checked (f32 to 1e-6 relative).
static void test_math_against_libm(void** state) {
  (void)state;
  static const struct {
    grt_vm_op_t f32, f64;
    unary_fn fn;
    double x;
  } unary[] = {
      {GRT_VM_OP_ABS_F32, GRT_VM_OP_ABS_F64, fabs, -2.5},
      {GRT_VM_OP_NEG_F32, GRT_VM_OP_NEG_F64, neg, 2.5},
      {GRT_VM_OP_CEIL_F32, GRT_VM_OP_CEIL_F64, ceil, -1.5},
      {GRT_VM_OP_FLOOR_F32, GRT_VM_OP_FLOOR_F64, floor, -1.5},
      {GRT_VM_OP_ROUND_F32, GRT_VM_OP_ROUND_F64, round, 2.5},
      {GRT_VM_OP_ROUND_F32, GRT_VM_OP_ROUND_F64, round, -0.5},
      {GRT_VM_OP_ROUND_F32_EVEN, GRT_VM_OP_ROUND_F64_EVEN, nearbyint, 2.5},
      {GRT_VM_OP_ROUND_F32_EVEN, GRT_VM_OP_ROUND_F64_EVEN, nearbyint, 3.5},
      {GRT_VM_OP_SQRT_F32, GRT_VM_OP_SQRT_F64, sqrt, 2.0},
      {GRT_VM_OP_RSQRT_F32, GRT_VM_OP_RSQRT_F64, rsqrt, 4.0},
      {GRT_VM_OP_EXP_F32, GRT_VM_OP_EXP_F64, exp, 1.25},
      {GRT_VM_OP_EXP2_F32, GRT_VM_OP_EXP2_F64, exp2, 3.5},
      {GRT_VM_OP_EXPM1_F32, GRT_VM_OP_EXPM1_F64, expm1, 1e-5},
      {GRT_VM_OP_LOG_F32, GRT_VM_OP_LOG_F64, log, 10.0},
      {GRT_VM_OP_LOG2_F32, GRT_VM_OP_LOG2_F64, log2, 10.0},
      {GRT_VM_OP_LOG10_F32, GRT_VM_OP_LOG10_F64, log10, 1000.0},
      {GRT_VM_OP_LOG1P_F32, GRT_VM_OP_LOG1P_F64, log1p, 1e-5},
      {GRT_VM_OP_TANH_F32, GRT_VM_OP_TANH_F64, tanh, 0.5},
      {GRT_VM_OP_SIN_F32, GRT_VM_OP_SIN_F64, sin, 1.0},
      {GRT_VM_OP_COS_F32, GRT_VM_OP_COS_F64, cos, 1.0},
      {GRT_VM_OP_ATAN_F32, GRT_VM_OP_ATAN_F64, atan, 2.0},
      {GRT_VM_OP_ERF_F32, GRT_VM_OP_ERF_F64, erf, 0.5},
      {GRT_VM_OP_LOG_F32, GRT_VM_OP_LOG_F64, log, -1.0},  // NaN
  };
  for (size_t i = 0; i < N(unary); ++i) {
    double expected = unary[i].fn(unary[i].x);
    expect_near(grt_vm_op_info(unary[i].f64)->mnemonic,
                run(unary[i].f64, unary[i].x, 0, 0), expected, 1e-15);
    expect_near(grt_vm_op_info(unary[i].f32)->mnemonic,
                run(unary[i].f32, unary[i].x, 0, 0), expected, 1e-6);
  }
  static const struct {
    grt_vm_op_t f32, f64;
    binary_fn fn;
    double a, b;
  } binary[] = {
      {GRT_VM_OP_ADD_F32, GRT_VM_OP_ADD_F64, add, 1.5, 2.25},
      {GRT_VM_OP_SUB_F32, GRT_VM_OP_SUB_F64, sub, 1.5, 2.25},
      {GRT_VM_OP_MUL_F32, GRT_VM_OP_MUL_F64, mul, 1.5, -2.25},
      {GRT_VM_OP_DIV_F32, GRT_VM_OP_DIV_F64, divide, 1.0, 3.0},
      {GRT_VM_OP_DIV_F32, GRT_VM_OP_DIV_F64, divide, 1.0, 0.0},  // inf
      {GRT_VM_OP_REM_F32, GRT_VM_OP_REM_F64, remainder, -7.5, 2.0},
      {GRT_VM_OP_REM_F32, GRT_VM_OP_REM_F64, remainder, 5.0, 3.0},
      {GRT_VM_OP_POW_F32, GRT_VM_OP_POW_F64, pow, 2.0, 0.5},
      {GRT_VM_OP_ATAN2_F32, GRT_VM_OP_ATAN2_F64, atan2, -1.0, -1.0},
      {GRT_VM_OP_MIN_F32, GRT_VM_OP_MIN_F64, fmin, -0.5, 3.0},
      {GRT_VM_OP_MAX_F32, GRT_VM_OP_MAX_F64, fmax, -0.5, 3.0},
  };
  for (size_t i = 0; i < N(binary); ++i) {
    double expected = binary[i].fn(binary[i].a, binary[i].b);
    double got64 = run(binary[i].f64, binary[i].a, binary[i].b, 0);
    double got32 = run(binary[i].f32, binary[i].a, binary[i].b, 0);
    if (isinf(expected)) {
      assert_true(got64 == expected && got32 == expected);
      continue;
    }
    expect_near(grt_vm_op_info(binary[i].f64)->mnemonic, got64, expected,
                1e-15);
    expect_near(grt_vm_op_info(binary[i].f32)->mnemonic, got32, expected,
                1e-6);
  }
  expect_near("fma.f64", run(GRT_VM_OP_FMA_F64, 2.0, 3.0, 0.5), 6.5, 0);
  expect_near("fma.f32", run(GRT_VM_OP_FMA_F32, 2.0, 3.0, 0.5), 6.5, 0);
}

// min/max propagate NaN (unlike fmin/fmax); both widths.
static void test_min_max_nan(void** state) {
  (void)state;
  const grt_vm_op_t ops[] = {GRT_VM_OP_MIN_F32, GRT_VM_OP_MAX_F32,
                             GRT_VM_OP_MIN_F64, GRT_VM_OP_MAX_F64};
  for (size_t i = 0; i < N(ops); ++i) {
    assert_true(isnan(run(ops[i], NAN, 1.0, 0)));
    assert_true(isnan(run(ops[i], 1.0, NAN, 0)));
  }
}

// Each comparison against (1, 2), (2, 2), (2, 1) and (NaN, 1); columns in
// that order. Ordered forms are false with NaN, unordered ones true.
static void test_comparisons_with_nan(void** state) {
  (void)state;
  static const struct {
    grt_vm_op_t f32, f64;
    int lt, eq, gt, nan;
  } cases[] = {
      {GRT_VM_OP_CMP_EQ_F32_O, GRT_VM_OP_CMP_EQ_F64_O, 0, 1, 0, 0},
      {GRT_VM_OP_CMP_EQ_F32_U, GRT_VM_OP_CMP_EQ_F64_U, 0, 1, 0, 1},
      {GRT_VM_OP_CMP_NE_F32_O, GRT_VM_OP_CMP_NE_F64_O, 1, 0, 1, 0},
      {GRT_VM_OP_CMP_NE_F32_U, GRT_VM_OP_CMP_NE_F64_U, 1, 0, 1, 1},
      {GRT_VM_OP_CMP_LT_F32_O, GRT_VM_OP_CMP_LT_F64_O, 1, 0, 0, 0},
      {GRT_VM_OP_CMP_LT_F32_U, GRT_VM_OP_CMP_LT_F64_U, 1, 0, 0, 1},
      {GRT_VM_OP_CMP_LTE_F32_O, GRT_VM_OP_CMP_LTE_F64_O, 1, 1, 0, 0},
      {GRT_VM_OP_CMP_LTE_F32_U, GRT_VM_OP_CMP_LTE_F64_U, 1, 1, 0, 1},
      {GRT_VM_OP_CMP_GT_F32_O, GRT_VM_OP_CMP_GT_F64_O, 0, 0, 1, 0},
      {GRT_VM_OP_CMP_GT_F32_U, GRT_VM_OP_CMP_GT_F64_U, 0, 0, 1, 1},
      {GRT_VM_OP_CMP_GTE_F32_O, GRT_VM_OP_CMP_GTE_F64_O, 0, 1, 1, 0},
      {GRT_VM_OP_CMP_GTE_F32_U, GRT_VM_OP_CMP_GTE_F64_U, 0, 1, 1, 1},
  };
  for (size_t i = 0; i < N(cases); ++i) {
    const grt_vm_op_t ops[2] = {cases[i].f32, cases[i].f64};
    for (int w = 0; w < 2; ++w) {
      const char* name = grt_vm_op_info(ops[w])->mnemonic;
      if (run(ops[w], 1.0, 2.0, 0) != cases[i].lt ||
          run(ops[w], 2.0, 2.0, 0) != cases[i].eq ||
          run(ops[w], 2.0, 1.0, 0) != cases[i].gt ||
          run(ops[w], NAN, 1.0, 0) != cases[i].nan) {
        fail_msg("%s: expected %d %d %d %d", name, cases[i].lt, cases[i].eq,
                 cases[i].gt, cases[i].nan);
      }
    }
  }
  assert_int_equal(run(GRT_VM_OP_CMP_NZ_F32_U, NAN, 0, 0), 1);
  assert_int_equal(run(GRT_VM_OP_CMP_NZ_F64_U, -0.0, 0, 0), 0);
  assert_int_equal(run(GRT_VM_OP_CMP_NZ_F32_O, NAN, 0, 0), 0);
  assert_int_equal(run(GRT_VM_OP_CMP_NZ_F64_O, NAN, 0, 0), 0);
  assert_int_equal(run(GRT_VM_OP_CMP_NZ_F32_O, -2.0, 0, 0), 1);
  assert_int_equal(run(GRT_VM_OP_CMP_NZ_F64_O, -0.0, 0, 0), 0);
  // Near equality: 1e-4 absolute near zero, 1e-4 relative for large
  // values; NaN and infinities of one sign minus the other never near.
  static const struct {
    double a, b;
    int near;
  } near_cases[] = {
      {0.0, 0.00005, 1},  {0.0, 0.0002, 0},   {1000.0, 1000.05, 1},
      {1000.0, 1000.5, 0}, {-1.0, -1.0, 1},   {NAN, NAN, 0},
      {1.0, NAN, 0},       {INFINITY, INFINITY, 0}, {-1.0, 1.0, 0},
  };
  for (size_t i = 0; i < N(near_cases); ++i) {
    if (run(GRT_VM_OP_CMP_EQ_F32_NEAR, near_cases[i].a, near_cases[i].b, 0) !=
            near_cases[i].near ||
        run(GRT_VM_OP_CMP_EQ_F64_NEAR, near_cases[i].a, near_cases[i].b, 0) !=
            near_cases[i].near) {
      fail_msg("cmp.eq.f*.near(%g, %g): expected %d", near_cases[i].a,
               near_cases[i].b, near_cases[i].near);
    }
  }
  assert_int_equal(run(GRT_VM_OP_CMP_NAN_F32, NAN, 0, 0), 1);
  assert_int_equal(run(GRT_VM_OP_CMP_NAN_F64, INFINITY, 0, 0), 0);
}

// Every cast row, at its edges: rounding, saturation, NaN to 0, unsigned
// inputs above INT_MAX.
static void test_casts(void** state) {
  (void)state;
  static const struct {
    grt_vm_op_t op;
    double in, expected;
  } cases[] = {
      {GRT_VM_OP_CAST_SI32_F32, -3, -3.0},
      {GRT_VM_OP_CAST_SI32_F64, INT32_MIN, -2147483648.0},
      {GRT_VM_OP_CAST_F32_SI32, -2.9, -3},
      {GRT_VM_OP_CAST_F32_SI32, 1e20, INT32_MAX},
      {GRT_VM_OP_CAST_F32_SI32, -1e20, INT32_MIN},
      {GRT_VM_OP_CAST_F32_SI32, NAN, 0},
      {GRT_VM_OP_CAST_F64_SI32, 2147483647.9, INT32_MAX},
      {GRT_VM_OP_CAST_F64_SI32, -2147483648.9, INT32_MIN},
      {GRT_VM_OP_CAST_F64_SI32, NAN, 0},
      {GRT_VM_OP_CAST_F32_SI64, -1e30, (double)INT64_MIN},
      {GRT_VM_OP_CAST_F64_SI64, 1e30, (double)INT64_MAX},
      {GRT_VM_OP_CAST_F64_SI64, -5.5, -6},
      {GRT_VM_OP_CAST_F64_SI64, NAN, 0},
      {GRT_VM_OP_CAST_SI64_F32, -4294967296.0, -4294967296.0},
      {GRT_VM_OP_CAST_SI64_F64, -4294967296.0, -4294967296.0},
  };
  for (size_t i = 0; i < N(cases); ++i) {
    double got = run(cases[i].op, cases[i].in, 0, 0);
    if (got != cases[i].expected) {
      fail_msg("%s(%g): expected %.17g, got %.17g",
               grt_vm_op_info(cases[i].op)->mnemonic, cases[i].in,
               cases[i].expected, got);
    }
  }
  // Unsigned directions go through raw bits, so they are checked here.
  static const grt_vm_op_t from_u32[] = {GRT_VM_OP_CAST_UI32_F32,
                                         GRT_VM_OP_CAST_UI32_F64};
  for (size_t i = 0; i < N(from_u32); ++i) {
    grt_vm_variant_t in = grt_vm_variant_i32(-1), out;
    GRT_EXPECT_OK(grt_vm_test_run_op(from_u32[i], &in, &out));
    // 2^32 - 1 rounds to 2^32 in f32 and is exact in f64.
    assert_true(i == 0 ? out.f32 == 4294967296.0f : out.f64 == 4294967295.0);
  }
  static const grt_vm_op_t from_u64[] = {GRT_VM_OP_CAST_UI64_F32,
                                         GRT_VM_OP_CAST_UI64_F64};
  for (size_t i = 0; i < N(from_u64); ++i) {
    grt_vm_variant_t in = grt_vm_variant_i64(INT64_MIN), out;  // 2^63
    GRT_EXPECT_OK(grt_vm_test_run_op(from_u64[i], &in, &out));
    assert_true((i == 0 ? out.f32 : out.f64) == 9223372036854775808.0);
  }
  static const struct {
    grt_vm_op_t op;
    double in;
    uint64_t expected;
  } to_unsigned[] = {
      {GRT_VM_OP_CAST_F32_UI32, -1.0, 0},
      {GRT_VM_OP_CAST_F32_UI32, 3e9, 3000000000u},
      {GRT_VM_OP_CAST_F64_UI32, 1e12, UINT32_MAX},
      {GRT_VM_OP_CAST_F64_UI32, NAN, 0},
      {GRT_VM_OP_CAST_F32_UI64, 1e30, UINT64_MAX},
      {GRT_VM_OP_CAST_F64_UI64, 1e19, UINT64_C(10000000000000000000)},
      {GRT_VM_OP_CAST_F64_UI64, -7.0, 0},
  };
  for (size_t i = 0; i < N(to_unsigned); ++i) {
    const char* operands = grt_vm_op_info(to_unsigned[i].op)->operands;
    grt_vm_variant_t in = value_of(operands[0], to_unsigned[i].in), out;
    GRT_EXPECT_OK(grt_vm_test_run_op(to_unsigned[i].op, &in, &out));
    uint64_t got = operands[2] == 'I' ? (uint64_t)out.i64 : (uint32_t)out.i32;
    if (got != to_unsigned[i].expected) {
      fail_msg("%s(%g): expected %llu, got %llu",
               grt_vm_op_info(to_unsigned[i].op)->mnemonic, to_unsigned[i].in,
               (unsigned long long)to_unsigned[i].expected,
               (unsigned long long)got);
    }
  }
}

// rem.f* is IEEE remainder (quotient rounded to nearest, ties to even), as in
// IREE, not fmod: every row here differs from fmod's answer.
static void test_rem_is_ieee_remainder(void** state) {
  (void)state;
  static const struct {
    double a, b, expected, fmod_would_give;
  } cases[] = {
      {5.0, 3.0, -1.0, 2.0},     // 5/3 = 1.67 rounds to 2
      {-7.5, 2.0, 0.5, -1.5},    // -3.75 rounds to -4
      {3.0, 2.0, -1.0, 1.0},     // 1.5 ties to even 2
      {5.0, 2.0, 1.0, 1.0},      // 2.5 ties to even 2 (same as fmod)
      {7.0, -4.0, -1.0, 3.0},    // -1.75 rounds to -2
      {1.0, 0.0, NAN, NAN},      // remainder(a, 0) is NaN
      {INFINITY, 2.0, NAN, NAN}, // remainder(inf, b) is NaN
      {2.0, INFINITY, 2.0, 2.0}, // remainder(a, inf) is a
  };
  static const grt_vm_op_t ops[] = {GRT_VM_OP_REM_F32, GRT_VM_OP_REM_F64};
  for (size_t i = 0; i < N(cases); ++i) {
    for (size_t w = 0; w < N(ops); ++w) {
      double got = run(ops[w], cases[i].a, cases[i].b, 0);
      bool same = isnan(cases[i].expected) ? isnan(got)
                                           : got == cases[i].expected;
      if (!same) {
        fail_msg("%s(%g, %g): expected %g (fmod would give %g), got %g",
                 grt_vm_op_info(ops[w])->mnemonic, cases[i].a, cases[i].b,
                 cases[i].expected, cases[i].fmod_would_give, got);
      }
    }
  }
}

// Float-to-integer casts round half away from zero (IREE: lroundf/llroundf)
// before converting, then saturate; NaN gives 0. Every cast op runs every
// row; |s| is the signed result, |u| the unsigned one (as raw bits).
static void test_casts_round_half_away_from_zero(void** state) {
  (void)state;
  static const struct {
    double in;
    int64_t s;
    uint64_t u;
  } cases[] = {
      {2.5, 3, 3},       {-2.5, -3, 0},     {0.5, 1, 1},
      {-0.5, -1, 0},     {1.5, 2, 2},       {2.4999, 2, 2},
      {-2.4999, -2, 0},  {-0.4, 0, 0},      {0.4, 0, 0},
      {-0.0, 0, 0},      {7.0, 7, 7},       {-7.0, -7, 0},
      {NAN, 0, 0},       {-NAN, 0, 0},
  };
  static const grt_vm_op_t ops[] = {
      GRT_VM_OP_CAST_F32_SI32, GRT_VM_OP_CAST_F32_UI32, GRT_VM_OP_CAST_F32_SI64,
      GRT_VM_OP_CAST_F32_UI64, GRT_VM_OP_CAST_F64_SI32, GRT_VM_OP_CAST_F64_UI32,
      GRT_VM_OP_CAST_F64_SI64, GRT_VM_OP_CAST_F64_UI64,
  };
  for (size_t o = 0; o < N(ops); ++o) {
    const char* mnemonic = grt_vm_op_info(ops[o])->mnemonic;
    const char* operands = grt_vm_op_info(ops[o])->operands;
    bool is_unsigned = mnemonic[strlen(mnemonic) - 4] == 'u';
    bool wide = operands[2] == 'I';
    for (size_t i = 0; i < N(cases); ++i) {
      grt_vm_variant_t in = value_of(operands[0], cases[i].in), out;
      GRT_EXPECT_OK(grt_vm_test_run_op(ops[o], &in, &out));
      uint64_t got = wide ? (uint64_t)out.i64 : (uint64_t)(uint32_t)out.i32;
      uint64_t expected = is_unsigned ? cases[i].u : (uint64_t)cases[i].s;
      if (!wide) expected &= UINT32_MAX;
      if (got != expected) {
        fail_msg("%s(%g): expected 0x%llx, got 0x%llx", mnemonic, cases[i].in,
                 (unsigned long long)expected, (unsigned long long)got);
      }
    }
  }
  // Saturation after rounding: the half that rounds past the bound
  // saturates, infinities give the bounds.
  static const struct {
    grt_vm_op_t op;
    double in;
    uint64_t expected;  // raw bits of the result
  } edges[] = {
      {GRT_VM_OP_CAST_F64_SI32, 2147483646.5, 2147483647u},
      {GRT_VM_OP_CAST_F64_SI32, 2147483647.5, 2147483647u},
      {GRT_VM_OP_CAST_F64_SI32, -2147483648.4, 0x80000000u},
      {GRT_VM_OP_CAST_F64_SI32, -2147483648.5, 0x80000000u},
      {GRT_VM_OP_CAST_F64_UI32, 4294967294.5, 4294967295u},
      {GRT_VM_OP_CAST_F64_UI32, 4294967295.5, 4294967295u},
      {GRT_VM_OP_CAST_F32_SI32, INFINITY, 2147483647u},
      {GRT_VM_OP_CAST_F32_SI32, -INFINITY, 0x80000000u},
      {GRT_VM_OP_CAST_F32_UI32, INFINITY, UINT32_MAX},
      {GRT_VM_OP_CAST_F32_UI32, -INFINITY, 0},
      {GRT_VM_OP_CAST_F64_SI64, INFINITY, (uint64_t)INT64_MAX},
      {GRT_VM_OP_CAST_F64_SI64, -INFINITY, UINT64_C(1) << 63},
      {GRT_VM_OP_CAST_F32_UI64, INFINITY, UINT64_MAX},
      {GRT_VM_OP_CAST_F64_UI64, -INFINITY, 0},
      {GRT_VM_OP_CAST_F64_UI64, 18446744073709551616.0, UINT64_MAX},
  };
  for (size_t i = 0; i < N(edges); ++i) {
    const char* operands = grt_vm_op_info(edges[i].op)->operands;
    grt_vm_variant_t in = value_of(operands[0], edges[i].in), out;
    GRT_EXPECT_OK(grt_vm_test_run_op(edges[i].op, &in, &out));
    uint64_t got = operands[2] == 'I' ? (uint64_t)out.i64
                                      : (uint64_t)(uint32_t)out.i32;
    if (got != edges[i].expected) {
      fail_msg("%s(%.17g): expected 0x%llx, got 0x%llx",
               grt_vm_op_info(edges[i].op)->mnemonic, edges[i].in,
               (unsigned long long)edges[i].expected,
               (unsigned long long)got);
    }
  }
}

static void test_bitcasts_and_width_changes(void** state) {
  (void)state;
  grt_vm_variant_t in = grt_vm_variant_i32(0x3F800000), out;
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BITCAST_I32_F32, &in, &out));
  assert_true(out.f32 == 1.0f);
  in = grt_vm_variant_f32(-0.0f);
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BITCAST_F32_I32, &in, &out));
  assert_int_equal((uint32_t)out.i32, 0x80000000u);
  in = grt_vm_variant_i64(INT64_C(0x4000000000000000));
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BITCAST_I64_F64, &in, &out));
  assert_true(out.f64 == 2.0);
  in = grt_vm_variant_f64(-1.0);
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BITCAST_F64_I64, &in, &out));
  assert_true((uint64_t)out.i64 == UINT64_C(0xBFF0000000000000));
  in = grt_vm_variant_f32(0.1f);
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_EXT_F32_F64, &in, &out));
  assert_true(out.f64 == (double)0.1f);
  in = grt_vm_variant_f64(0.1);
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_TRUNC_F64_F32, &in, &out));
  assert_true(out.f32 == 0.1f);
  in = grt_vm_variant_f64(1e300);
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_TRUNC_F64_F32, &in, &out));
  assert_true(isinf(out.f32));
}

static void test_select(void** state) {
  (void)state;
  grt_vm_variant_t args[3] = {grt_vm_variant_i32(1), grt_vm_variant_f32(1.5f),
                              grt_vm_variant_f32(2.5f)};
  grt_vm_variant_t out;
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_SELECT_F32, args, &out));
  assert_true(out.f32 == 1.5f);
  args[0] = grt_vm_variant_i32(0);
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_SELECT_F32, args, &out));
  assert_true(out.f32 == 2.5f);
  grt_vm_variant_t wide[3] = {grt_vm_variant_i32(0), grt_vm_variant_f64(1.5),
                              grt_vm_variant_f64(-2.5)};
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_SELECT_F64, wide, &out));
  assert_true(out.f64 == -2.5);
  wide[0] = grt_vm_variant_i32(7);
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_SELECT_F64, wide, &out));
  assert_true(out.f64 == 1.5);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_math_against_libm),
      cmocka_unit_test(test_min_max_nan),
      cmocka_unit_test(test_comparisons_with_nan),
      cmocka_unit_test(test_casts),
      cmocka_unit_test(test_rem_is_ieee_remainder),
      cmocka_unit_test(test_casts_round_half_away_from_zero),
      cmocka_unit_test(test_bitcasts_and_width_changes),
      cmocka_unit_test(test_select),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
