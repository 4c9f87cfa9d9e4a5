// Integer ops (i32, i64, integer conversions, integer comparisons, select),
// each run alone through grt_vm_test_run_op against a table of expected
// values including the wrap-around and sign edges.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "vm/test_support.h"

typedef struct int_case_t {
  grt_vm_op_t op;
  int64_t a, b, c;  // inputs, as many as the op takes
  int64_t expected;
} int_case_t;

#define N(x) (sizeof(x) / sizeof((x)[0]))

// Builds the op's inputs from the case (each typed by its operand char).
static void run_int_cases(const int_case_t* cases, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const grt_vm_op_info_t* info = grt_vm_op_info(cases[i].op);
    const int64_t values[3] = {cases[i].a, cases[i].b, cases[i].c};
    grt_vm_variant_t args[3];
    size_t n = 0;
    const char* p = info->operands;
    for (; *p != '>'; ++p, ++n) {
      args[n] = *p == 'I' ? grt_vm_variant_i64(values[n])
                          : grt_vm_variant_i32((int32_t)values[n]);
    }
    grt_vm_variant_t result;
    GRT_EXPECT_OK(grt_vm_test_run_op(cases[i].op, args, &result));
    int64_t got = p[1] == 'I' ? result.i64 : result.i32;
    if (got != cases[i].expected) {
      fail_msg("case %zu %s(%lld, %lld, %lld): expected %lld, got %lld", i,
               info->mnemonic, (long long)values[0], (long long)values[1],
               (long long)values[2], (long long)cases[i].expected,
               (long long)got);
    }
  }
}

static void test_i32_arithmetic(void** state) {
  (void)state;
  static const int_case_t cases[] = {
      {GRT_VM_OP_ADD_I32, INT32_MAX, 1, 0, INT32_MIN},
      {GRT_VM_OP_SUB_I32, INT32_MIN, 1, 0, INT32_MAX},
      {GRT_VM_OP_MUL_I32, 0x10000, 0x10000, 0, 0},
      {GRT_VM_OP_MUL_I32, -3, 7, 0, -21},
      {GRT_VM_OP_DIV_I32_S, -7, 2, 0, -3},
      {GRT_VM_OP_DIV_I32_U, -2, 2, 0, 0x7FFFFFFF},
      {GRT_VM_OP_REM_I32_S, -7, 2, 0, -1},
      {GRT_VM_OP_REM_I32_U, -1, 10, 0, 5},  // 4294967295 % 10
      {GRT_VM_OP_FMA_I32, 3, 4, 5, 17},
      {GRT_VM_OP_ABS_I32, -5, 0, 0, 5},
      {GRT_VM_OP_ABS_I32, INT32_MIN, 0, 0, INT32_MIN},
      {GRT_VM_OP_MIN_I32_S, -1, 1, 0, -1},
      {GRT_VM_OP_MIN_I32_U, -1, 1, 0, 1},
      {GRT_VM_OP_MAX_I32_S, -1, 1, 0, 1},
      {GRT_VM_OP_MAX_I32_U, -1, 1, 0, -1},
      {GRT_VM_OP_NOT_I32, 0, 0, 0, -1},
      {GRT_VM_OP_AND_I32, 0xF0F0, 0xFF00, 0, 0xF000},
      {GRT_VM_OP_OR_I32, 0xF0F0, 0xFF00, 0, 0xFFF0},
      {GRT_VM_OP_XOR_I32, 0xF0F0, 0xFF00, 0, 0x0FF0},
      {GRT_VM_OP_SHL_I32, 1, 33, 0, 2},  // count masked to 1
      {GRT_VM_OP_SHL_I32, 1, 31, 0, INT32_MIN},
      {GRT_VM_OP_SHR_I32_S, INT32_MIN, 31, 0, -1},
      {GRT_VM_OP_SHR_I32_S, -8, 1, 0, -4},
      {GRT_VM_OP_SHR_I32_U, INT32_MIN, 31, 0, 1},
      {GRT_VM_OP_CTLZ_I32, 0, 0, 0, 32},
      {GRT_VM_OP_CTLZ_I32, 1, 0, 0, 31},
      {GRT_VM_OP_CTLZ_I32, -1, 0, 0, 0},
  };
  run_int_cases(cases, N(cases));
}

static void test_i64_arithmetic(void** state) {
  (void)state;
  static const int_case_t cases[] = {
      {GRT_VM_OP_ADD_I64, INT64_MAX, 1, 0, INT64_MIN},
      {GRT_VM_OP_SUB_I64, INT64_MIN, 1, 0, INT64_MAX},
      {GRT_VM_OP_MUL_I64, INT64_C(1) << 32, INT64_C(1) << 32, 0, 0},
      {GRT_VM_OP_DIV_I64_S, -INT64_C(9000000000), 3, 0, -INT64_C(3000000000)},
      {GRT_VM_OP_DIV_I64_U, -2, 2, 0, INT64_MAX},
      {GRT_VM_OP_REM_I64_S, -7, 2, 0, -1},
      {GRT_VM_OP_REM_I64_U, -1, 10, 0, 5},  // 18446744073709551615 % 10
      {GRT_VM_OP_FMA_I64, INT64_C(1) << 33, 2, 1, (INT64_C(1) << 34) + 1},
      {GRT_VM_OP_ABS_I64, -5, 0, 0, 5},
      {GRT_VM_OP_ABS_I64, INT64_MIN, 0, 0, INT64_MIN},
      {GRT_VM_OP_MIN_I64_S, -1, 1, 0, -1},
      {GRT_VM_OP_MIN_I64_U, -1, 1, 0, 1},
      {GRT_VM_OP_MAX_I64_S, -1, 1, 0, 1},
      {GRT_VM_OP_MAX_I64_U, -1, 1, 0, -1},
      {GRT_VM_OP_NOT_I64, 0, 0, 0, -1},
      {GRT_VM_OP_AND_I64, -1, INT64_C(0xF00000000), 0, INT64_C(0xF00000000)},
      {GRT_VM_OP_OR_I64, INT64_C(1) << 40, 1, 0, (INT64_C(1) << 40) | 1},
      {GRT_VM_OP_XOR_I64, -1, 1, 0, -2},
      {GRT_VM_OP_SHL_I64, 1, 65, 0, 2},  // count masked to 1
      {GRT_VM_OP_SHL_I64, 1, 40, 0, INT64_C(1) << 40},
      {GRT_VM_OP_SHR_I64_S, INT64_MIN, 63, 0, -1},
      {GRT_VM_OP_SHR_I64_U, INT64_MIN, 63, 0, 1},
      {GRT_VM_OP_CTLZ_I64, 0, 0, 0, 64},
      {GRT_VM_OP_CTLZ_I64, 1, 0, 0, 63},
      {GRT_VM_OP_CTLZ_I64, INT64_C(1) << 40, 0, 0, 23},
  };
  run_int_cases(cases, N(cases));
}

static void test_integer_conversions(void** state) {
  (void)state;
  static const int_case_t cases[] = {
      {GRT_VM_OP_TRUNC_I32_I8, 0x1FF, 0, 0, 0xFF},
      {GRT_VM_OP_TRUNC_I32_I16, -1, 0, 0, 0xFFFF},
      {GRT_VM_OP_TRUNC_I64_I32, INT64_C(0x123456789), 0, 0, 0x23456789},
      {GRT_VM_OP_TRUNC_I64_I32, INT64_C(0xFFFFFFFF80000000), 0, 0, INT32_MIN},
      {GRT_VM_OP_EXT_I8_I32_S, 0x80, 0, 0, -128},
      {GRT_VM_OP_EXT_I8_I32_S, 0x17F, 0, 0, 127},
      {GRT_VM_OP_EXT_I8_I32_U, 0x180, 0, 0, 0x80},
      {GRT_VM_OP_EXT_I16_I32_S, 0x8000, 0, 0, -32768},
      {GRT_VM_OP_EXT_I16_I32_U, -1, 0, 0, 0xFFFF},
      {GRT_VM_OP_EXT_I32_I64_S, -1, 0, 0, -1},
      {GRT_VM_OP_EXT_I32_I64_S, INT32_MIN, 0, 0, INT32_MIN},
      {GRT_VM_OP_EXT_I32_I64_U, -1, 0, 0, INT64_C(0xFFFFFFFF)},
      {GRT_VM_OP_TRUNC_I64_I8, INT64_C(0x12345678FF), 0, 0, 0xFF},
      {GRT_VM_OP_TRUNC_I64_I16, INT64_C(-2), 0, 0, 0xFFFE},
      {GRT_VM_OP_EXT_I8_I64_S, 0x180, 0, 0, -128},
      {GRT_VM_OP_EXT_I8_I64_U, -1, 0, 0, 0xFF},
      {GRT_VM_OP_EXT_I16_I64_S, 0x18000, 0, 0, -32768},
      {GRT_VM_OP_EXT_I16_I64_U, -1, 0, 0, 0xFFFF},
  };
  run_int_cases(cases, N(cases));
}

static void test_integer_comparisons(void** state) {
  (void)state;
  // -1 against 1: signed says less, unsigned says greater.
  static const int_case_t cases[] = {
      {GRT_VM_OP_CMP_EQ_I32, 5, 5, 0, 1},
      {GRT_VM_OP_CMP_EQ_I32, 5, 6, 0, 0},
      {GRT_VM_OP_CMP_NE_I32, 5, 6, 0, 1},
      {GRT_VM_OP_CMP_LT_I32_S, -1, 1, 0, 1},
      {GRT_VM_OP_CMP_LT_I32_U, -1, 1, 0, 0},
      {GRT_VM_OP_CMP_LTE_I32_S, 1, 1, 0, 1},
      {GRT_VM_OP_CMP_LTE_I32_U, -1, 1, 0, 0},
      {GRT_VM_OP_CMP_GT_I32_S, -1, 1, 0, 0},
      {GRT_VM_OP_CMP_GT_I32_U, -1, 1, 0, 1},
      {GRT_VM_OP_CMP_GTE_I32_S, 1, 1, 0, 1},
      {GRT_VM_OP_CMP_GTE_I32_U, 1, -1, 0, 0},
      {GRT_VM_OP_CMP_NZ_I32, 0, 0, 0, 0},
      {GRT_VM_OP_CMP_NZ_I32, INT32_MIN, 0, 0, 1},
      {GRT_VM_OP_CMP_EQ_I64, INT64_C(1) << 40, INT64_C(1) << 40, 0, 1},
      {GRT_VM_OP_CMP_EQ_I64, INT64_C(1) << 40, 0, 0, 0},
      {GRT_VM_OP_CMP_NE_I64, INT64_C(1) << 40, 0, 0, 1},
      {GRT_VM_OP_CMP_LT_I64_S, -1, 1, 0, 1},
      {GRT_VM_OP_CMP_LT_I64_U, -1, 1, 0, 0},
      {GRT_VM_OP_CMP_LTE_I64_S, -1, -1, 0, 1},
      {GRT_VM_OP_CMP_LTE_I64_U, -1, 1, 0, 0},
      {GRT_VM_OP_CMP_GT_I64_S, -1, 1, 0, 0},
      {GRT_VM_OP_CMP_GT_I64_U, -1, 1, 0, 1},
      {GRT_VM_OP_CMP_GTE_I64_S, INT64_MIN, INT64_MAX, 0, 0},
      {GRT_VM_OP_CMP_GTE_I64_U, INT64_MIN, INT64_MAX, 0, 1},
      {GRT_VM_OP_CMP_NZ_I64, INT64_C(1) << 40, 0, 0, 1},
      {GRT_VM_OP_CMP_NZ_I64, 0, 0, 0, 0},
      {GRT_VM_OP_SELECT_I32, 1, 10, 20, 10},
      {GRT_VM_OP_SELECT_I32, 0, 10, 20, 20},
      {GRT_VM_OP_SELECT_I64, -1, INT64_C(1) << 40, 3, INT64_C(1) << 40},
      {GRT_VM_OP_SELECT_I64, 0, INT64_C(1) << 40, 3, 3},
  };
  run_int_cases(cases, N(cases));
}

// Every failing division names the op and the operands.
static void test_division_errors(void** state) {
  (void)state;
  static const struct {
    grt_vm_op_t op;
    int64_t a, b;
    const char* message;
  } cases[] = {
      {GRT_VM_OP_DIV_I32_U, 7, 0, "div.i32.u: division by zero (7 / 0)"},
      {GRT_VM_OP_REM_I32_S, INT32_MIN, -1,
       "rem.i32.s: signed overflow (-2147483648 / -1)"},
      {GRT_VM_OP_REM_I32_U, 1, 0, "rem.i32.u: division by zero (1 / 0)"},
      {GRT_VM_OP_DIV_I64_S, INT64_MIN, -1,
       "div.i64.s: signed overflow (-9223372036854775808 / -1)"},
      {GRT_VM_OP_DIV_I64_U, 9, 0, "div.i64.u: division by zero (9 / 0)"},
      {GRT_VM_OP_REM_I64_S, 3, 0, "rem.i64.s: division by zero (3 / 0)"},
      {GRT_VM_OP_REM_I64_U, 3, 0, "rem.i64.u: division by zero (3 / 0)"},
  };
  for (size_t i = 0; i < N(cases); ++i) {
    bool wide = grt_vm_op_info(cases[i].op)->operands[0] == 'I';
    grt_vm_variant_t args[2] = {
        wide ? grt_vm_variant_i64(cases[i].a)
             : grt_vm_variant_i32((int32_t)cases[i].a),
        wide ? grt_vm_variant_i64(cases[i].b)
             : grt_vm_variant_i32((int32_t)cases[i].b)};
    grt_vm_variant_t result;
    grt_expect_error(grt_vm_test_run_op(cases[i].op, args, &result),
                        GRT_STATUS_INVALID_ARGUMENT, cases[i].message);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_i32_arithmetic),
      cmocka_unit_test(test_i64_arithmetic),
      cmocka_unit_test(test_integer_conversions),
      cmocka_unit_test(test_integer_comparisons),
      cmocka_unit_test(test_division_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
