// Tests for grtc_tensor_fold: constant folding per op (with the scalar.h
// corners going through the folder), the size limit, unfoldable constants,
// each canonicalization, rewiring inside regions and dead-op removal.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "base/status_matchers.h"
#include "compiler/tensor/test_builder.h"

#define ARG(i) grtc_tb_arg(&tb, (i))

// @main(|args|) -> (|result|): ops go in, then fold_and_return.
static void begin(grtc_tb_t* tb, const grtc_ttype_t* args, uint32_t count,
                  grtc_ttype_t result) {
  grtc_tb_init(tb, args, count, &result, 1);
}

// Returns |value|, verifies, folds, verifies again and returns what the
// function now returns.
static grtc_tvalue_t* fold_and_return(grtc_tb_t* tb, grtc_tvalue_t* value) {
  OPN(tb, RETURN, value);
  GRT_EXPECT_OK(grtc_tensor_verify(tb->module));
  GRT_EXPECT_OK(grtc_tensor_fold(tb->module));
  GRT_EXPECT_OK(grtc_tensor_verify(tb->module));
  return tb->func->body->last->operands[0];
}

static uint32_t op_count(const grtc_tblock_t* block) {
  uint32_t count = 0;
  for (const grtc_top_t* op = block->first; op; op = op->next) ++count;
  return count;
}

// The folded constant behind |value| (fails when it is not one).
static const grtc_top_t* constant_of(const grtc_tvalue_t* value) {
  assert_non_null(value->def);
  assert_int_equal(value->def->kind, GRTC_TOP_CONSTANT);
  return value->def;
}

static void expect_ints(const grtc_tvalue_t* value, const int64_t* expected,
                        int64_t count) {
  const grtc_top_t* c = constant_of(value);
  assert_int_equal(grtc_ttype_element_count(&value->type), count);
  for (int64_t i = 0; i < count; ++i) {
    grtc_scalar_value_t v = grtc_tb_element(c, i);
    int64_t got = grtc_elem_is_signed_integer(value->type.elem)
                      ? v.i
                      : (int64_t)v.u;
    if (got != expected[i]) {
      fail_msg("element %lld is %lld, expected %lld", (long long)i,
               (long long)got, (long long)expected[i]);
    }
  }
}
#define EXPECT_INTS(value, ...)                                        \
  expect_ints((value), (int64_t[]){__VA_ARGS__},                       \
              (int64_t)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))

static void expect_floats(const grtc_tvalue_t* value, const double* expected,
                          int64_t count) {
  const grtc_top_t* c = constant_of(value);
  assert_int_equal(grtc_ttype_element_count(&value->type), count);
  for (int64_t i = 0; i < count; ++i) {
    double got = grtc_tb_element(c, i).f;
    bool same = isnan(expected[i]) ? isnan(got) : got == expected[i];
    if (!same) {
      fail_msg("element %lld is %.17g, expected %.17g", (long long)i, got,
               expected[i]);
    }
  }
}
#define EXPECT_FLOATS(value, ...)                                      \
  expect_floats((value), (double[]){__VA_ARGS__},                      \
                (int64_t)(sizeof((double[]){__VA_ARGS__}) / sizeof(double)))

//===----------------------------------------------------------------------===//
// Constant folding
//===----------------------------------------------------------------------===//

static void test_fold_add(void** state) {
  grtc_tb_t tb;
  begin(&tb, NULL, 0, TT(F32, 3));
  grtc_top_t* a = CF(&tb, TT(F32, 3), 1, 2, 3);
  grtc_top_t* b = CF(&tb, TT(F32, 3), 10);
  grtc_top_t* sum = OP(&tb, ADD, TT(F32, 3), R(a), R(b));
  grtc_tvalue_t* result = fold_and_return(&tb, R(sum));
  EXPECT_FLOATS(result, 11, 12, 13);
  // Only the folded constant and the return remain.
  assert_int_equal(op_count(tb.func->body), 2);
  assert_int_equal(result->def->line, sum->line);
  grtc_tb_deinit(&tb);
}

// Binary integer ops folded through the whole pass, scalar.h's corners.
typedef struct binary_case_t {
  grtc_top_kind_t kind;
  grtc_elem_t elem;
  int64_t a, b, expected;
} binary_case_t;

static void test_fold_integer_corners(void** state) {
  static const binary_case_t cases[] = {
      {GRTC_TOP_DIVIDE, GRTC_ELEM_I32, 5, 0, -1},
      {GRTC_TOP_DIVIDE, GRTC_ELEM_I32, INT32_MIN, -1, INT32_MIN},
      {GRTC_TOP_REMAINDER, GRTC_ELEM_I32, 5, 0, 5},
      {GRTC_TOP_REMAINDER, GRTC_ELEM_I32, INT32_MIN, -1, 0},
      {GRTC_TOP_SHIFT_LEFT, GRTC_ELEM_I32, 1, 32, 0},
      {GRTC_TOP_SHIFT_RIGHT_LOGICAL, GRTC_ELEM_I32, -1, 33, 0},
      {GRTC_TOP_SHIFT_RIGHT_ARITHMETIC, GRTC_ELEM_I32, -8, 40, -1},
      {GRTC_TOP_POWER, GRTC_ELEM_I32, 2, -2, 0},
      {GRTC_TOP_MAXIMUM, GRTC_ELEM_U8, 200, 100, 200},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    grtc_tb_t tb;
    grtc_ttype_t type = grtc_tb_type(cases[i].elem, 1, (int64_t[]){2});
    begin(&tb, NULL, 0, type);
    grtc_top_t* a = grtc_tb_constant_int(&tb, type, &cases[i].a, 1);
    grtc_top_t* b = grtc_tb_constant_int(&tb, type, &cases[i].b, 1);
    grtc_tvalue_t* operands[2] = {R(a), R(b)};
    grtc_top_t* op = grtc_tb_op(&tb, cases[i].kind, operands, 2, &type, 1, 0);
    grtc_tvalue_t* result = fold_and_return(&tb, R(op));
    assert_true(result->def->attrs.constant.splat);
    expect_ints(result, (int64_t[]){cases[i].expected, cases[i].expected}, 2);
    grtc_tb_deinit(&tb);
  }
}

static void test_fold_float_corners(void** state) {
  grtc_tb_t tb;
  begin(&tb, NULL, 0, TT(F32, 3));
  grtc_top_t* a = CF(&tb, TT(F32, 3), NAN, 1, -2);
  grtc_top_t* b = CF(&tb, TT(F32, 3), 1, NAN, 5);
  grtc_top_t* max = OP(&tb, MAXIMUM, TT(F32, 3), R(a), R(b));
  grtc_top_t* min = OP(&tb, MINIMUM, TT(F32, 3), R(a), R(b));
  grtc_top_t* sum = OP(&tb, ADD, TT(F32, 3), R(max), R(min));
  EXPECT_FLOATS(fold_and_return(&tb, R(sum)), NAN, NAN, 3);
  grtc_tb_deinit(&tb);

  // f16: 1 + 2^-11 rounds to 1 (ties to even), 1 + 3 * 2^-11 up.
  begin(&tb, NULL, 0, TT(F16, 2));
  a = CF(&tb, TT(F16, 2), 1, 1);
  b = CF(&tb, TT(F16, 2), 0x1p-11, 0x3p-11);
  sum = OP(&tb, ADD, TT(F16, 2), R(a), R(b));
  EXPECT_FLOATS(fold_and_return(&tb, R(sum)), 1, 1 + 0x1p-9);
  grtc_tb_deinit(&tb);
}

static void test_fold_convert(void** state) {
  grtc_tb_t tb;
  begin(&tb, NULL, 0, TT(I32, 4));
  grtc_top_t* a = CF(&tb, TT(F32, 4), 1e10, -1e10, NAN, -3.7);
  grtc_top_t* op = OP(&tb, CONVERT, TT(I32, 4), R(a));
  EXPECT_INTS(fold_and_return(&tb, R(op)), INT32_MAX, INT32_MIN, 0, -3);
  grtc_tb_deinit(&tb);

  begin(&tb, NULL, 0, TT(F16, 2));
  a = CF(&tb, TT(F32, 2), 65520, 1 + 0x3p-11);
  op = OP(&tb, CONVERT, TT(F16, 2), R(a));
  EXPECT_FLOATS(fold_and_return(&tb, R(op)), INFINITY, 1 + 0x1p-9);
  grtc_tb_deinit(&tb);
}

static void test_fold_compare_select_clamp(void** state) {
  grtc_tb_t tb;
  begin(&tb, NULL, 0, TT(I32, 3));
  grtc_top_t* a = CI(&tb, TT(I32, 3), -1, 5, 7);
  grtc_top_t* b = CI(&tb, TT(I32, 3), 1, 5, 2);
  grtc_top_t* lt = OP(&tb, COMPARE, TT(I1, 3), R(a), R(b));
  lt->attrs.compare_direction = GRTC_CMP_LT;
  grtc_top_t* sel = OP(&tb, SELECT, TT(I32, 3), R(lt), R(a), R(b));
  EXPECT_INTS(fold_and_return(&tb, R(sel)), -1, 5, 2);
  grtc_tb_deinit(&tb);

  // Unsigned comparison of the same bits, and a rank-0 predicate.
  begin(&tb, NULL, 0, TT(I1, 3));
  a = CI(&tb, TT(I32, 3), -1, 5, 7);
  b = CI(&tb, TT(I32, 3), 1, 5, 2);
  lt = OP(&tb, COMPARE, TT(I1, 3), R(a), R(b));
  lt->attrs.compare_direction = GRTC_CMP_LT;
  lt->attrs.compare_type = GRTC_CMP_TYPE_UNSIGNED;
  EXPECT_INTS(fold_and_return(&tb, R(lt)), 0, 0, 0);
  grtc_tb_deinit(&tb);

  begin(&tb, NULL, 0, TT(F32, 2));
  grtc_top_t* pred = CI(&tb, TS(I1), 0);
  a = CF(&tb, TT(F32, 2), 1, 2);
  b = CF(&tb, TT(F32, 2), 3, 4);
  sel = OP(&tb, SELECT, TT(F32, 2), R(pred), R(a), R(b));
  grtc_top_t* lo = CF(&tb, TS(F32), 3.5);
  grtc_top_t* clamp = OP(&tb, CLAMP, TT(F32, 2), R(lo), R(sel), R(a));
  // clamp(min 3.5, x (3, 4), max (1, 2)) = min(max(x, 3.5), max) = (1, 2).
  EXPECT_FLOATS(fold_and_return(&tb, R(clamp)), 1, 2);
  grtc_tb_deinit(&tb);
}

static void test_fold_iota(void** state) {
  grtc_tb_t tb;
  begin(&tb, NULL, 0, TT(F32, 2, 3));
  grtc_top_t* iota = grtc_tb_op(&tb, GRTC_TOP_IOTA, NULL, 0,
                                (grtc_ttype_t[]){TT(F32, 2, 3)}, 1, 0);
  iota->attrs.dim = 1;
  EXPECT_FLOATS(fold_and_return(&tb, R(iota)), 0, 1, 2, 0, 1, 2);
  grtc_tb_deinit(&tb);
}

static void test_fold_structural(void** state) {
  grtc_tb_t tb;
  // transpose [[1 2 3] [4 5 6]] -> [[1 4] [2 5] [3 6]]
  begin(&tb, NULL, 0, TT(I32, 3, 2));
  grtc_top_t* m = CI(&tb, TT(I32, 2, 3), 1, 2, 3, 4, 5, 6);
  grtc_top_t* op = OP(&tb, TRANSPOSE, TT(I32, 3, 2), R(m));
  op->attrs.dims = I64S(&tb, 1, 0);
  EXPECT_INTS(fold_and_return(&tb, R(op)), 1, 4, 2, 5, 3, 6);
  grtc_tb_deinit(&tb);

  // broadcast_in_dim (1 2 3) along dim 0 of 2x3
  begin(&tb, NULL, 0, TT(I32, 2, 3));
  grtc_top_t* v = CI(&tb, TT(I32, 3), 1, 2, 3);
  op = OP(&tb, BROADCAST_IN_DIM, TT(I32, 2, 3), R(v));
  op->attrs.dims = I64S(&tb, 1);
  EXPECT_INTS(fold_and_return(&tb, R(op)), 1, 2, 3, 1, 2, 3);
  grtc_tb_deinit(&tb);

  // reshape 2x3 -> 6
  begin(&tb, NULL, 0, TT(I32, 6));
  m = CI(&tb, TT(I32, 2, 3), 1, 2, 3, 4, 5, 6);
  op = OP(&tb, RESHAPE, TT(I32, 6), R(m));
  EXPECT_INTS(fold_and_return(&tb, R(op)), 1, 2, 3, 4, 5, 6);
  grtc_tb_deinit(&tb);

  // slice [1:6:2] of 0..6
  begin(&tb, NULL, 0, TT(I32, 3));
  v = CI(&tb, TT(I32, 7), 0, 1, 2, 3, 4, 5, 6);
  op = OP(&tb, SLICE, TT(I32, 3), R(v));
  op->attrs.start = I64S(&tb, 1);
  op->attrs.limit = I64S(&tb, 6);
  op->attrs.strides = I64S(&tb, 2);
  EXPECT_INTS(fold_and_return(&tb, R(op)), 1, 3, 5);
  grtc_tb_deinit(&tb);

  // concatenate along dim 1: [[1] [2]] ++ [[3 4] [5 6]]
  begin(&tb, NULL, 0, TT(I32, 2, 3));
  grtc_top_t* a = CI(&tb, TT(I32, 2, 1), 1, 2);
  grtc_top_t* b = CI(&tb, TT(I32, 2, 2), 3, 4, 5, 6);
  op = OP(&tb, CONCATENATE, TT(I32, 2, 3), R(a), R(b));
  op->attrs.dim = 1;
  EXPECT_INTS(fold_and_return(&tb, R(op)), 1, 3, 4, 2, 5, 6);
  grtc_tb_deinit(&tb);

  // pad (1 2 3) low -1, high 2, interior 1 with 0: (0) 2 0 3 0 0 -> 0 2 0 3 0 0
  begin(&tb, NULL, 0, TT(I32, 6));
  v = CI(&tb, TT(I32, 3), 1, 2, 3);
  grtc_top_t* zero = CI(&tb, TS(I32), 0);
  op = OP(&tb, PAD, TT(I32, 6), R(v), R(zero));
  op->attrs.low = I64S(&tb, -1);
  op->attrs.high = I64S(&tb, 2);
  op->attrs.interior = I64S(&tb, 1);
  EXPECT_INTS(fold_and_return(&tb, R(op)), 0, 2, 0, 3, 0, 0);
  grtc_tb_deinit(&tb);

  // reverse dim 1 of 2x3
  begin(&tb, NULL, 0, TT(I32, 2, 3));
  m = CI(&tb, TT(I32, 2, 3), 1, 2, 3, 4, 5, 6);
  op = OP(&tb, REVERSE, TT(I32, 2, 3), R(m));
  op->attrs.dims = I64S(&tb, 1);
  EXPECT_INTS(fold_and_return(&tb, R(op)), 3, 2, 1, 6, 5, 4);
  grtc_tb_deinit(&tb);
}

static void test_fold_limits(void** state) {
  grtc_tb_t tb;
  // All-splat operands fold at any size, to a splat.
  begin(&tb, NULL, 0, TT(F32, 64, 64));
  grtc_top_t* a = CF(&tb, TT(F32, 64, 64), 2);
  grtc_top_t* mul = OP(&tb, MULTIPLY, TT(F32, 64, 64), R(a), R(a));
  grtc_tvalue_t* result = fold_and_return(&tb, R(mul));
  assert_true(constant_of(result)->attrs.constant.splat);
  assert_true(grtc_tb_element(result->def, 0).f == 4.0);
  grtc_tb_deinit(&tb);

  // A broadcast of a splat is a splat of the result type.
  begin(&tb, NULL, 0, TT(F32, 64, 64));
  grtc_top_t* s = CF(&tb, TS(F32), 3);
  grtc_top_t* bcast = OP(&tb, BROADCAST_IN_DIM, TT(F32, 64, 64), R(s));
  result = fold_and_return(&tb, R(bcast));
  assert_true(constant_of(result)->attrs.constant.splat);
  assert_int_equal(result->def->attrs.constant.size, 4);
  assert_true(grtc_tb_element(result->def, 0).f == 3.0);
  grtc_tb_deinit(&tb);

  // More than 1024 distinct elements stay unfolded.
  begin(&tb, NULL, 0, TT(F32, 2048));
  grtc_top_t* iota = grtc_tb_op(&tb, GRTC_TOP_IOTA, NULL, 0,
                                (grtc_ttype_t[]){TT(F32, 2048)}, 1, 0);
  assert_ptr_equal(fold_and_return(&tb, R(iota))->def, iota);
  grtc_tb_deinit(&tb);

  // Exactly 1024 fold.
  begin(&tb, NULL, 0, TT(F32, 1024));
  iota = grtc_tb_op(&tb, GRTC_TOP_IOTA, NULL, 0,
                    (grtc_ttype_t[]){TT(F32, 1024)}, 1, 0);
  result = fold_and_return(&tb, R(iota));
  assert_true(grtc_tb_element(constant_of(result), 1023).f == 1023.0);
  grtc_tb_deinit(&tb);

  // Unfoldable constants are left alone, and so are their users.
  begin(&tb, NULL, 0, TT(F32, 3));
  a = CF(&tb, TT(F32, 3), 1, 2, 3);
  a->attrs.unfoldable = true;
  grtc_top_t* neg = OP(&tb, NEGATE, TT(F32, 3), R(a));
  assert_ptr_equal(fold_and_return(&tb, R(neg))->def, neg);
  grtc_tb_deinit(&tb);

  begin(&tb, NULL, 0, TT(F32, 2, 3));
  s = CF(&tb, TS(F32), 3);
  s->attrs.unfoldable = true;
  bcast = OP(&tb, BROADCAST_IN_DIM, TT(F32, 2, 3), R(s));
  assert_ptr_equal(fold_and_return(&tb, R(bcast))->def, bcast);
  grtc_tb_deinit(&tb);
}

//===----------------------------------------------------------------------===//
// Canonicalization
//===----------------------------------------------------------------------===//

static void test_identity_ops_removed(void** state) {
  grtc_ttype_t type = TT(F32, 1, 3);
  grtc_tb_t tb;
  begin(&tb, &type, 1, type);
  grtc_top_t* op = OP(&tb, RESHAPE, type, ARG(0));
  op = OP(&tb, TRANSPOSE, type, R(op));
  op->attrs.dims = I64S(&tb, 0, 1);
  op = OP(&tb, BROADCAST_IN_DIM, type, R(op));
  op->attrs.dims = I64S(&tb, 0, 1);
  op = OP(&tb, SLICE, type, R(op));
  op->attrs.start = I64S(&tb, 0, 0);
  op->attrs.limit = I64S(&tb, 1, 3);
  op->attrs.strides = I64S(&tb, 1, 1);
  op = OP(&tb, CONVERT, type, R(op));
  grtc_top_t* zero = CF(&tb, TS(F32), 0);
  op = OP(&tb, PAD, type, R(op), R(zero));
  op->attrs.low = I64S(&tb, 0, 0);
  op->attrs.high = I64S(&tb, 0, 0);
  op->attrs.interior = I64S(&tb, 0, 0);
  op = OP(&tb, REVERSE, type, R(op));
  op->attrs.dims = I64S(&tb, 0);  // a size-1 dimension
  assert_ptr_equal(fold_and_return(&tb, R(op)), ARG(0));
  assert_int_equal(op_count(tb.func->body), 1);
  grtc_tb_deinit(&tb);
}

static void test_non_identity_ops_kept(void** state) {
  grtc_ttype_t square = TT(F32, 3, 3);
  grtc_tb_t tb;
  begin(&tb, &square, 1, square);
  grtc_top_t* t = OP(&tb, TRANSPOSE, square, ARG(0));
  t->attrs.dims = I64S(&tb, 1, 0);
  grtc_top_t* b = OP(&tb, BROADCAST_IN_DIM, square, R(t));
  b->attrs.dims = I64S(&tb, 1, 0);  // also a transpose
  grtc_top_t* r = OP(&tb, REVERSE, square, R(b));
  r->attrs.dims = I64S(&tb, 1);
  grtc_top_t* zero = CF(&tb, TS(F32), 0);
  grtc_top_t* p = OP(&tb, PAD, square, R(r), R(zero));
  p->attrs.low = I64S(&tb, 1, 0);
  p->attrs.high = I64S(&tb, -1, 0);
  p->attrs.interior = I64S(&tb, 0, 0);
  assert_ptr_equal(fold_and_return(&tb, R(p))->def, p);
  assert_int_equal(op_count(tb.func->body), 6);
  grtc_tb_deinit(&tb);
}

static void test_merge_chains(void** state) {
  grtc_ttype_t arg = TT(F32, 2, 3, 4);
  grtc_tb_t tb;
  // reshape(reshape(x)) -> reshape(x)
  begin(&tb, &arg, 1, TT(F32, 6, 4));
  grtc_top_t* inner = OP(&tb, RESHAPE, TT(F32, 24), ARG(0));
  grtc_top_t* outer = OP(&tb, RESHAPE, TT(F32, 6, 4), R(inner));
  grtc_tvalue_t* result = fold_and_return(&tb, R(outer));
  assert_ptr_equal(result->def, outer);
  assert_ptr_equal(outer->operands[0], ARG(0));
  assert_int_equal(op_count(tb.func->body), 2);
  grtc_tb_deinit(&tb);

  // transpose [1 2 0] of transpose [2 0 1]: 2x3x4 -> 4x2x3 -> 2x3x4, the
  // identity, so both go.
  begin(&tb, &arg, 1, arg);
  inner = OP(&tb, TRANSPOSE, TT(F32, 4, 2, 3), ARG(0));
  inner->attrs.dims = I64S(&tb, 2, 0, 1);
  outer = OP(&tb, TRANSPOSE, arg, R(inner));
  outer->attrs.dims = I64S(&tb, 1, 2, 0);
  assert_ptr_equal(fold_and_return(&tb, R(outer)), ARG(0));
  grtc_tb_deinit(&tb);

  // transpose [1 0 2] of transpose [2 0 1]: 2x3x4 -> 4x2x3 -> 2x4x3 is
  // transpose [0 2 1] of the argument.
  begin(&tb, &arg, 1, TT(F32, 2, 4, 3));
  inner = OP(&tb, TRANSPOSE, TT(F32, 4, 2, 3), ARG(0));
  inner->attrs.dims = I64S(&tb, 2, 0, 1);
  outer = OP(&tb, TRANSPOSE, TT(F32, 2, 4, 3), R(inner));
  outer->attrs.dims = I64S(&tb, 1, 0, 2);
  result = fold_and_return(&tb, R(outer));
  assert_ptr_equal(result->def, outer);
  assert_ptr_equal(outer->operands[0], ARG(0));
  assert_int_equal(outer->attrs.dims.values[0], 0);
  assert_int_equal(outer->attrs.dims.values[1], 2);
  assert_int_equal(outer->attrs.dims.values[2], 1);
  assert_int_equal(op_count(tb.func->body), 2);
  grtc_tb_deinit(&tb);

  // broadcast (3) -> (2, 3) dims [1], then (2, 3) -> (2, 5, 3) dims [0, 2]:
  // one broadcast of (3) with dims [2].
  grtc_ttype_t vec = TT(F32, 3);
  begin(&tb, &vec, 1, TT(F32, 2, 5, 3));
  inner = OP(&tb, BROADCAST_IN_DIM, TT(F32, 2, 3), ARG(0));
  inner->attrs.dims = I64S(&tb, 1);
  outer = OP(&tb, BROADCAST_IN_DIM, TT(F32, 2, 5, 3), R(inner));
  outer->attrs.dims = I64S(&tb, 0, 2);
  result = fold_and_return(&tb, R(outer));
  assert_ptr_equal(outer->operands[0], ARG(0));
  assert_int_equal(outer->attrs.dims.count, 1);
  assert_int_equal(outer->attrs.dims.values[0], 2);
  assert_int_equal(op_count(tb.func->body), 2);
  grtc_tb_deinit(&tb);
}

static void test_convert_chains(void** state) {
  grtc_tb_t tb;
  // f16 -> f32 -> f64 is exact: one convert f16 -> f64.
  grtc_ttype_t half = TT(F16, 4);
  begin(&tb, &half, 1, TT(F64, 4));
  grtc_top_t* inner = OP(&tb, CONVERT, TT(F32, 4), ARG(0));
  grtc_top_t* outer = OP(&tb, CONVERT, TT(F64, 4), R(inner));
  fold_and_return(&tb, R(outer));
  assert_ptr_equal(outer->operands[0], ARG(0));
  grtc_tb_deinit(&tb);

  // i8 -> i32 -> f32 is value-preserving: one convert.
  grtc_ttype_t bytes = TT(I8, 4);
  begin(&tb, &bytes, 1, TT(F32, 4));
  inner = OP(&tb, CONVERT, TT(I32, 4), ARG(0));
  outer = OP(&tb, CONVERT, TT(F32, 4), R(inner));
  fold_and_return(&tb, R(outer));
  assert_ptr_equal(outer->operands[0], ARG(0));
  grtc_tb_deinit(&tb);

  // f32 -> i32 -> f32 truncates: both stay. f32 -> f16 -> f32 rounds.
  grtc_ttype_t single = TT(F32, 4);
  begin(&tb, &single, 1, single);
  inner = OP(&tb, CONVERT, TT(I32, 4), ARG(0));
  outer = OP(&tb, CONVERT, single, R(inner));
  grtc_top_t* narrow = OP(&tb, CONVERT, half, R(outer));
  grtc_top_t* widen = OP(&tb, CONVERT, single, R(narrow));
  fold_and_return(&tb, R(widen));
  assert_ptr_equal(outer->operands[0], R(inner));
  assert_ptr_equal(widen->operands[0], R(narrow));
  grtc_tb_deinit(&tb);

  // i32 -> f64 is exact, but f64 -> i8 saturates where i32 -> i8 wraps.
  grtc_ttype_t ints = TT(I32, 4);
  begin(&tb, &ints, 1, TT(I8, 4));
  inner = OP(&tb, CONVERT, TT(F64, 4), ARG(0));
  outer = OP(&tb, CONVERT, TT(I8, 4), R(inner));
  fold_and_return(&tb, R(outer));
  assert_ptr_equal(outer->operands[0], R(inner));
  grtc_tb_deinit(&tb);

  // i32 -> i64 -> i32 is exact and lands on the identity.
  begin(&tb, &ints, 1, ints);
  inner = OP(&tb, CONVERT, TT(I64, 4), ARG(0));
  outer = OP(&tb, CONVERT, ints, R(inner));
  assert_ptr_equal(fold_and_return(&tb, R(outer)), ARG(0));
  grtc_tb_deinit(&tb);

  // ui32 -> i32 is not exact.
  grtc_ttype_t uints = TT(U32, 4);
  begin(&tb, &uints, 1, TT(I64, 4));
  inner = OP(&tb, CONVERT, ints, ARG(0));
  outer = OP(&tb, CONVERT, TT(I64, 4), R(inner));
  fold_and_return(&tb, R(outer));
  assert_ptr_equal(outer->operands[0], R(inner));
  grtc_tb_deinit(&tb);
}

// A splat predicate picks a whole operand even when it is not constant.
static void test_select_constant_predicate(void** state) {
  grtc_ttype_t args[2] = {TT(F32, 4), TT(F32, 4)};
  grtc_tb_t tb;
  for (int value = 0; value < 2; ++value) {
    grtc_tb_init(&tb, args, 2, args, 1);
    grtc_top_t* pred = CI(&tb, TS(I1), value);
    grtc_top_t* sel = OP(&tb, SELECT, TT(F32, 4), R(pred), ARG(0), ARG(1));
    assert_ptr_equal(fold_and_return(&tb, R(sel)), ARG(value ? 0 : 1));
    assert_int_equal(op_count(tb.func->body), 1);
    grtc_tb_deinit(&tb);
  }
  // A predicate of differing elements stays.
  grtc_tb_init(&tb, args, 2, args, 1);
  grtc_top_t* pred = CI(&tb, TT(I1, 4), 1, 0, 1, 0);
  grtc_top_t* sel = OP(&tb, SELECT, TT(F32, 4), R(pred), ARG(0), ARG(1));
  assert_ptr_equal(fold_and_return(&tb, R(sel))->def, sel);
  grtc_tb_deinit(&tb);
}

// pow(x, 2) with a constant exponent of two becomes x * x (floats and
// integers); other exponents, and a constant base (folded whole), stay.
static void test_power_of_two(void** state) {
  grtc_ttype_t fargs[1] = {TT(F32, 4)};
  grtc_tb_t tb;
  grtc_tb_init(&tb, fargs, 1, fargs, 1);
  grtc_top_t* two = CF(&tb, TT(F32, 4), 2.0);
  grtc_top_t* pow = OP(&tb, POWER, TT(F32, 4), ARG(0), R(two));
  grtc_tvalue_t* r = fold_and_return(&tb, R(pow));
  assert_int_equal(r->def->kind, GRTC_TOP_MULTIPLY);
  assert_ptr_equal(r->def->operands[0], ARG(0));
  assert_ptr_equal(r->def->operands[1], ARG(0));
  assert_int_equal(op_count(tb.func->body), 2);  // the multiply and the return
  grtc_tb_deinit(&tb);

  grtc_ttype_t iargs[1] = {TT(I32, 4)};
  grtc_tb_init(&tb, iargs, 1, iargs, 1);
  grtc_top_t* itwo = CI(&tb, TT(I32, 4), 2);
  grtc_top_t* ipow = OP(&tb, POWER, TT(I32, 4), ARG(0), R(itwo));
  assert_int_equal(fold_and_return(&tb, R(ipow))->def->kind, GRTC_TOP_MULTIPLY);
  grtc_tb_deinit(&tb);

  grtc_tb_init(&tb, fargs, 1, fargs, 1);
  grtc_top_t* three = CF(&tb, TT(F32, 4), 3.0);
  grtc_top_t* kept = OP(&tb, POWER, TT(F32, 4), ARG(0), R(three));
  assert_int_equal(fold_and_return(&tb, R(kept))->def->kind, GRTC_TOP_POWER);
  grtc_tb_deinit(&tb);
}

// Uses inside regions are rewired and region bodies fold.
static void test_regions(void** state) {
  grtc_ttype_t args[2] = {TS(I1), TT(F32, 4)};
  grtc_tb_t tb;
  begin(&tb, args, 2, TT(F32, 4));
  grtc_top_t* identity = OP(&tb, RESHAPE, TT(F32, 4), ARG(1));
  grtc_tvalue_t* pred = ARG(0);
  grtc_ttype_t type = TT(F32, 4);
  grtc_top_t* if_op = grtc_tb_op(&tb, GRTC_TOP_IF, &pred, 1, &type, 1, 2);
  grtc_tb_begin_region(&tb, if_op, 0, NULL, 0);
  grtc_top_t* one = CF(&tb, TT(F32, 4), 1);
  grtc_top_t* two = OP(&tb, ADD, TT(F32, 4), R(one), R(one));
  grtc_top_t* sum = OP(&tb, ADD, TT(F32, 4), R(identity), R(two));
  OPN(&tb, YIELD, R(sum));
  grtc_tb_end_region(&tb);
  grtc_tb_begin_region(&tb, if_op, 1, NULL, 0);
  OPN(&tb, YIELD, R(identity));
  grtc_tb_end_region(&tb);
  fold_and_return(&tb, R(if_op));
  assert_ptr_equal(sum->operands[0], ARG(1));
  assert_ptr_equal(if_op->regions[1]->last->operands[0], ARG(1));
  const grtc_top_t* folded = constant_of(sum->operands[1]);
  assert_true(folded->attrs.constant.splat);
  assert_true(grtc_tb_element(folded, 0).f == 2.0);
  // The region holds the folded constant, the add and the yield.
  assert_int_equal(op_count(if_op->regions[0]), 3);
  assert_int_equal(op_count(tb.func->body), 2);
  grtc_tb_deinit(&tb);
}

static void test_dead_ops_removed(void** state) {
  grtc_ttype_t type = TT(F32, 4);
  grtc_tb_t tb;
  begin(&tb, &type, 1, type);
  grtc_top_t* dead = OP(&tb, EXPONENTIAL, type, ARG(0));
  OP(&tb, NEGATE, type, R(dead));
  grtc_top_t* live = OP(&tb, LOG, type, ARG(0));
  OPN(&tb, CHECK_EQ, ARG(0), ARG(0));  // effects: stays
  assert_ptr_equal(fold_and_return(&tb, R(live))->def, live);
  assert_int_equal(op_count(tb.func->body), 3);
  grtc_tb_deinit(&tb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fold_add),
      cmocka_unit_test(test_fold_integer_corners),
      cmocka_unit_test(test_fold_float_corners),
      cmocka_unit_test(test_fold_convert),
      cmocka_unit_test(test_fold_compare_select_clamp),
      cmocka_unit_test(test_fold_iota),
      cmocka_unit_test(test_fold_structural),
      cmocka_unit_test(test_fold_limits),
      cmocka_unit_test(test_identity_ops_removed),
      cmocka_unit_test(test_non_identity_ops_kept),
      cmocka_unit_test(test_merge_chains),
      cmocka_unit_test(test_convert_chains),
      cmocka_unit_test(test_select_constant_predicate),
      cmocka_unit_test(test_power_of_two),
      cmocka_unit_test(test_regions),
      cmocka_unit_test(test_dead_ops_removed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
