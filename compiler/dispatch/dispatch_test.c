// Dispatch formation end to end: tensor IR built by hand, formed into
// dispatches, and run through the kernel IR reference interpreter against
// hand-computed results.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/status_matchers.h"
#include "compiler/dispatch/dispatch.h"
#include "compiler/dispatch/kernel_interp_test_util.h"
#include "compiler/kernel/printer.h"
#include "compiler/tensor/test_builder.h"

typedef struct fixture_t {
  grtc_tb_t tb;
  grtc_kernel_set_t kernels;
} fixture_t;

static void fixture_init(fixture_t* f, const grtc_ttype_t* args,
                         uint32_t arg_count, const grtc_ttype_t* results,
                         uint32_t result_count) {
  grtc_tb_init(&f->tb, args, arg_count, results, result_count);
  grtc_kernel_set_init(grt_allocator_system(), &f->kernels);
}

static void fixture_deinit(fixture_t* f) {
  grtc_kernel_set_deinit(&f->kernels);
  grtc_tb_deinit(&f->tb);
}

static uint32_t count_ops(const grtc_tblock_t* block, grtc_top_kind_t kind) {
  uint32_t n = 0;
  for (const grtc_top_t* op = block->first; op; op = op->next) {
    n += op->kind == kind;
    for (uint32_t i = 0; i < op->region_count; ++i) {
      n += count_ops(op->regions[i], kind);
    }
  }
  return n;
}

// Verifies the IR, forms dispatches at |level| and runs @main.
static void form_and_run(fixture_t* f, int level, void* const* args,
                         void** results) {
  GRT_EXPECT_OK(grtc_tensor_verify(f->tb.module));
  grtc_dispatch_options_t options = {level, 0, false};
  GRT_EXPECT_OK(grtc_dispatch_form(f->tb.module, &options, &f->kernels));
  for (const grtc_top_t* op = f->tb.func->body->first; op; op = op->next) {
    assert_true(op->kind == GRTC_TOP_DISPATCH ||
                op->kind == GRTC_TOP_CONSTANT ||
                op->kind == GRTC_TOP_RESHAPE || op->kind == GRTC_TOP_RETURN);
  }
  if (getenv("DISPATCH_TEST_PRINT")) {
    for (uint32_t i = 0; i < f->kernels.count; ++i) {
      grt_string_builder_t sb;
      grt_string_builder_init(grt_allocator_system(), &sb);
      grtc_kernel_print(f->kernels.kernels[i], &sb);
      fprintf(stderr, "%s\n", grt_string_builder_cstring(&sb));
      grt_string_builder_deinit(&sb);
    }
  }
  GRT_EXPECT_OK(grtc_kinterp_run_func(f->tb.module, &f->kernels, f->tb.func,
                                      args, results));
}

static void expect_floats(const float* got, const float* want, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (fabsf(got[i] - want[i]) > 1e-4f * (1 + fabsf(want[i]))) {
      fail_msg("element %zu: got %g, want %g", i, got[i], want[i]);
    }
  }
}

static void expect_ints(const int32_t* got, const int32_t* want, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (got[i] != want[i]) {
      fail_msg("element %zu: got %d, want %d", i, got[i], want[i]);
    }
  }
}

static grtc_top_t* add_reduce(grtc_tb_t* tb, grtc_tvalue_t* input,
                              grtc_tvalue_t* init, grtc_ttype_t type,
                              grtc_i64s_t dims, grtc_top_kind_t combiner) {
  grtc_top_t* op = grtc_tb_op(tb, GRTC_TOP_REDUCE,
                              (grtc_tvalue_t*[]){input, init}, 2, &type, 1, 1);
  op->attrs.dims = dims;
  grtc_ttype_t scalar = grtc_tb_type(type.elem, 0, NULL);
  grtc_ttype_t args[2] = {scalar, scalar};
  grtc_tblock_t* body = grtc_tb_begin_region(tb, op, 0, args, 2);
  grtc_top_t* c = grtc_tb_op(tb, combiner,
                             (grtc_tvalue_t*[]){&body->args[0], &body->args[1]},
                             2, &scalar, 1, 0);
  OPN(tb, YIELD, R(c));
  grtc_tb_end_region(tb);
  return op;
}

//===----------------------------------------------------------------------===//
// Elementwise and structural fusion
//===----------------------------------------------------------------------===//

// (a + broadcast(b)) * a: one kernel.
static void test_fused_elementwise_broadcast(void** state) {
  fixture_t f;
  grtc_ttype_t types[2] = {TT(F32, 2, 3), TT(F32, 3)};
  fixture_init(&f, types, 2, &types[0], 1);
  grtc_tb_t* tb = &f.tb;
  grtc_top_t* bc = OP(tb, BROADCAST_IN_DIM, TT(F32, 2, 3), grtc_tb_arg(tb, 1));
  bc->attrs.dims = I64S(tb, 1);
  grtc_top_t* add = OP(tb, ADD, TT(F32, 2, 3), grtc_tb_arg(tb, 0), R(bc));
  grtc_top_t* mul = OP(tb, MULTIPLY, TT(F32, 2, 3), R(add), grtc_tb_arg(tb, 0));
  OPN(tb, RETURN, R(mul));
  float a[6] = {1, 2, 3, 4, 5, 6}, b[3] = {10, 20, 30}, out[6];
  form_and_run(&f, 2, (void*[]){a, b}, (void*[]){out});
  float want[6] = {11, 44, 99, 56, 125, 216};
  expect_floats(out, want, 6);
  assert_int_equal(f.kernels.count, 1);
  assert_int_equal(count_ops(f.tb.func->body, GRTC_TOP_DISPATCH), 1);
  // The DISPATCH reads each input once, in first-use order.
  const grtc_top_t* dispatch = f.tb.func->body->first;
  assert_int_equal(dispatch->operand_count, 2);
  assert_ptr_equal(dispatch->operands[0], grtc_tb_arg(tb, 0));
  assert_string_equal(f.kernels.kernels[0]->name.data, "main_dispatch_0");
  fixture_deinit(&f);
}

// -O0 gives one kernel per op and the same numbers.
static void test_o0_one_kernel_per_op(void** state) {
  fixture_t f;
  grtc_ttype_t types[2] = {TT(F32, 2, 3), TT(F32, 3)};
  fixture_init(&f, types, 2, &types[0], 1);
  grtc_tb_t* tb = &f.tb;
  grtc_top_t* bc = OP(tb, BROADCAST_IN_DIM, TT(F32, 2, 3), grtc_tb_arg(tb, 1));
  bc->attrs.dims = I64S(tb, 1);
  grtc_top_t* add = OP(tb, ADD, TT(F32, 2, 3), grtc_tb_arg(tb, 0), R(bc));
  grtc_top_t* mul = OP(tb, MULTIPLY, TT(F32, 2, 3), R(add), grtc_tb_arg(tb, 0));
  OPN(tb, RETURN, R(mul));
  float a[6] = {1, 2, 3, 4, 5, 6}, b[3] = {10, 20, 30}, out[6];
  form_and_run(&f, 0, (void*[]){a, b}, (void*[]){out});
  float want[6] = {11, 44, 99, 56, 125, 216};
  expect_floats(out, want, 6);
  assert_int_equal(f.kernels.count, 3);
  fixture_deinit(&f);
}

// transpose, slice with strides, reshape, reverse, iota, convert, compare
// and select in one kernel.
static void test_structural_chain(void** state) {
  fixture_t f;
  grtc_ttype_t arg = TT(F32, 3, 4);
  grtc_ttype_t result = TT(F32, 2, 2);
  fixture_init(&f, &arg, 1, &result, 1);
  grtc_tb_t* tb = &f.tb;
  // t = transpose(a) : 4x3; s = t[0:4:2, 1:3] : 2x2; r = reverse(s, 0)
  grtc_top_t* t = OP(tb, TRANSPOSE, TT(F32, 4, 3), grtc_tb_arg(tb, 0));
  t->attrs.dims = I64S(tb, 1, 0);
  grtc_top_t* s = OP(tb, SLICE, TT(F32, 2, 2), R(t));
  s->attrs.start = I64S(tb, 0, 1);
  s->attrs.limit = I64S(tb, 4, 3);
  s->attrs.strides = I64S(tb, 2, 1);
  grtc_top_t* r = OP(tb, REVERSE, TT(F32, 2, 2), R(s));
  r->attrs.dims = I64S(tb, 0);
  // flat = reshape(r) : 4; back = reshape(flat) : 2x2
  grtc_top_t* flat = OP(tb, RESHAPE, TT(F32, 4), R(r));
  grtc_top_t* back = OP(tb, RESHAPE, TT(F32, 2, 2), R(flat));
  // mask = iota(dim 1) == 1 (as i32); out = select(mask, back, -back)
  grtc_top_t* iota = OP(tb, IOTA, TT(I32, 2, 2));
  iota->attrs.dim = 1;
  grtc_top_t* one = CI(tb, TS(I32), 1);
  grtc_top_t* one_b = OP(tb, BROADCAST_IN_DIM, TT(I32, 2, 2), R(one));
  grtc_top_t* mask = OP(tb, COMPARE, TT(I1, 2, 2), R(iota), R(one_b));
  mask->attrs.compare_direction = GRTC_CMP_EQ;
  grtc_top_t* neg = OP(tb, NEGATE, TT(F32, 2, 2), R(back));
  grtc_top_t* sel = OP(tb, SELECT, TT(F32, 2, 2), R(mask), R(back), R(neg));
  grtc_top_t* conv = OP(tb, CONVERT, TT(I32, 2, 2), R(sel));
  grtc_top_t* conv2 = OP(tb, CONVERT, TT(F32, 2, 2), R(conv));
  OPN(tb, RETURN, R(conv2));
  // a[i][j] = 10 i + j. t[j][i] = a[i][j]. s[p][q] = t[2p][1+q] = a[1+q][2p]
  // r[p][q] = s[1-p][q] = a[1+q][2-2p].
  float a[12], out[4];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) a[i * 4 + j] = (float)(10 * i + j);
  }
  form_and_run(&f, 2, (void*[]){a}, (void*[]){out});
  float want[4] = {-12, 22, -10, 20};
  expect_floats(out, want, 4);
  assert_int_equal(f.kernels.count, 1);
  fixture_deinit(&f);
}

// reshape(negate(a)) reads a at the result's own linear index: the
// split of the index into a's dims and the join of a's linear index
// cancel, leaving no division.
static void test_reshape_of_fused_value(void** state) {
  fixture_t f;
  grtc_ttype_t arg = TT(F32, 2, 3, 4);
  grtc_ttype_t result = TT(F32, 6, 4);
  fixture_init(&f, &arg, 1, &result, 1);
  grtc_tb_t* tb = &f.tb;
  grtc_top_t* n = OP(tb, NEGATE, TT(F32, 2, 3, 4), grtc_tb_arg(tb, 0));
  grtc_top_t* r = OP(tb, RESHAPE, TT(F32, 6, 4), R(n));
  OPN(tb, RETURN, R(r));
  float a[24], out[24], want[24];
  for (int i = 0; i < 24; ++i) {
    a[i] = (float)i;
    want[i] = -(float)i;
  }
  form_and_run(&f, 2, (void*[]){a}, (void*[]){out});
  expect_floats(out, want, 24);
  assert_int_equal(f.kernels.count, 1);
  const grtc_kernel_t* k = f.kernels.kernels[0];
  for (uint32_t i = 0; i < k->inst_count; ++i) {
    assert_false(k->insts[i].kind == GRTC_KINST_OP &&
                 (k->insts[i].op == GRTC_SCALAR_DIV ||
                  k->insts[i].op == GRTC_SCALAR_REM));
  }
  fixture_deinit(&f);
}

// A value used by two consumers and returned is materialized once; the
// cheap broadcast feeding both is recomputed in each.
static void test_multi_use(void** state) {
  fixture_t f;
  grtc_ttype_t arg = TT(F32, 4);
  grtc_ttype_t results[2] = {TT(F32, 4), TT(F32, 4)};
  fixture_init(&f, &arg, 1, results, 2);
  grtc_tb_t* tb = &f.tb;
  grtc_top_t* two = CF(tb, TS(F32), 2);
  grtc_top_t* two_b = OP(tb, BROADCAST_IN_DIM, TT(F32, 4), R(two));
  grtc_top_t* e = OP(tb, EXPONENTIAL, TT(F32, 4), grtc_tb_arg(tb, 0));
  grtc_top_t* x = OP(tb, MULTIPLY, TT(F32, 4), R(e), R(two_b));
  grtc_top_t* y = OP(tb, ADD, TT(F32, 4), R(e), R(two_b));
  grtc_top_t* z = OP(tb, SUBTRACT, TT(F32, 4), R(x), R(y));
  OPN(tb, RETURN, R(z), R(e));
  float a[4] = {0, 1, 2, -1}, out0[4], out1[4];
  form_and_run(&f, 2, (void*[]){a}, (void*[]){out0, out1});
  float want0[4], want1[4];
  for (int i = 0; i < 4; ++i) {
    want1[i] = expf(a[i]);
    want0[i] = want1[i] * 2 - (want1[i] + 2);
  }
  expect_floats(out0, want0, 4);
  expect_floats(out1, want1, 4);
  assert_int_equal(f.kernels.count, 2);  // e, then z reading e
  fixture_deinit(&f);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// sum over dim 1 of (a * a), and max over dim 0, with fused producers.
static void test_reduce_sum_and_max(void** state) {
  fixture_t f;
  grtc_ttype_t arg = TT(F32, 2, 3);
  grtc_ttype_t results[2] = {TT(F32, 2), TT(F32, 3)};
  fixture_init(&f, &arg, 1, results, 2);
  grtc_tb_t* tb = &f.tb;
  grtc_top_t* sq = OP(tb, MULTIPLY, TT(F32, 2, 3), grtc_tb_arg(tb, 0),
                      grtc_tb_arg(tb, 0));
  grtc_top_t* zero = CF(tb, TS(F32), 0);
  grtc_top_t* sum = add_reduce(tb, R(sq), R(zero), TT(F32, 2), I64S(tb, 1),
                               GRTC_TOP_ADD);
  grtc_top_t* ninf = CF(tb, TS(F32), -INFINITY);
  grtc_top_t* max = add_reduce(tb, grtc_tb_arg(tb, 0), R(ninf), TT(F32, 3),
                               I64S(tb, 0), GRTC_TOP_MAXIMUM);
  OPN(tb, RETURN, R(sum), R(max));
  float a[6] = {1, -2, 3, 4, 5, -6}, out0[2], out1[3];
  form_and_run(&f, 2, (void*[]){a}, (void*[]){out0, out1});
  float want0[2] = {14, 77}, want1[3] = {4, 5, 3};
  expect_floats(out0, want0, 2);
  expect_floats(out1, want1, 3);
  assert_int_equal(f.kernels.count, 2);
  fixture_deinit(&f);
}

// argmax: a 2-operand reduce (value, index) with a compare/select body.
static void test_reduce_argmax(void** state) {
  fixture_t f;
  grtc_ttype_t arg = TT(F32, 2, 4);
  grtc_ttype_t results[2] = {TT(F32, 2), TT(I32, 2)};
  fixture_init(&f, &arg, 1, results, 2);
  grtc_tb_t* tb = &f.tb;
  grtc_top_t* iota = OP(tb, IOTA, TT(I32, 2, 4));
  iota->attrs.dim = 1;
  grtc_top_t* ninf = CF(tb, TS(F32), -INFINITY);
  grtc_top_t* zero = CI(tb, TS(I32), 0);
  grtc_ttype_t rtypes[2] = {TT(F32, 2), TT(I32, 2)};
  grtc_top_t* op = grtc_tb_op(
      tb, GRTC_TOP_REDUCE,
      (grtc_tvalue_t*[]){grtc_tb_arg(tb, 0), R(iota), R(ninf), R(zero)}, 4,
      rtypes, 2, 1);
  op->attrs.dims = I64S(tb, 1);
  grtc_ttype_t bargs[4] = {TS(F32), TS(I32), TS(F32), TS(I32)};
  grtc_tblock_t* body = grtc_tb_begin_region(tb, op, 0, bargs, 4);
  // (acc_v, acc_i, v, i): take v when v > acc_v.
  grtc_top_t* gt = OP(tb, COMPARE, TS(I1), &body->args[2], &body->args[0]);
  gt->attrs.compare_direction = GRTC_CMP_GT;
  grtc_top_t* v = OP(tb, SELECT, TS(F32), R(gt), &body->args[2],
                     &body->args[0]);
  grtc_top_t* i = OP(tb, SELECT, TS(I32), R(gt), &body->args[3],
                     &body->args[1]);
  OPN(tb, YIELD, R(v), R(i));
  grtc_tb_end_region(tb);
  OPN(tb, RETURN, &op->results[0], &op->results[1]);
  float a[8] = {1, 7, 3, 7, -1, -5, -0.5f, -3}, out0[2];
  int32_t out1[2];
  form_and_run(&f, 2, (void*[]){a}, (void*[]){out0, out1});
  float want0[2] = {7, -0.5f};
  int32_t want1[2] = {1, 2};
  expect_floats(out0, want0, 2);
  expect_ints(out1, want1, 2);
  assert_int_equal(f.kernels.count, 1);
  fixture_deinit(&f);
}

static grtc_top_t* add_dot(grtc_tb_t* tb, grtc_tvalue_t* lhs,
                           grtc_tvalue_t* rhs, grtc_ttype_t type,
                           grtc_i64s_t lb, grtc_i64s_t rb, grtc_i64s_t lc,
                           grtc_i64s_t rc) {
  grtc_top_t* dot = OP(tb, DOT_GENERAL, type, lhs, rhs);
  dot->attrs.dot.lhs_batch = lb;
  dot->attrs.dot.rhs_batch = rb;
  dot->attrs.dot.lhs_contracting = lc;
  dot->attrs.dot.rhs_contracting = rc;
  return dot;
}

// Batched matmul with the MATMUL pattern, and an epilogue (bias + relu)
// fused into the same kernel.
static void test_dot_batch_epilogue(void** state) {
  fixture_t f;
  grtc_ttype_t args[3] = {TT(F32, 2, 2, 3), TT(F32, 2, 3, 2), TT(F32, 2)};
  grtc_ttype_t result = TT(F32, 2, 2, 2);
  fixture_init(&f, args, 3, &result, 1);
  grtc_tb_t* tb = &f.tb;
  grtc_top_t* dot = add_dot(tb, grtc_tb_arg(tb, 0), grtc_tb_arg(tb, 1),
                            TT(F32, 2, 2, 2), I64S(tb, 0), I64S(tb, 0),
                            I64S(tb, 2), I64S(tb, 1));
  grtc_top_t* bias = OP(tb, BROADCAST_IN_DIM, TT(F32, 2, 2, 2),
                        grtc_tb_arg(tb, 2));
  bias->attrs.dims = I64S(tb, 2);
  grtc_top_t* add = OP(tb, ADD, TT(F32, 2, 2, 2), R(dot), R(bias));
  grtc_top_t* zero = CF(tb, TS(F32), 0);
  grtc_top_t* zero_b = OP(tb, BROADCAST_IN_DIM, TT(F32, 2, 2, 2), R(zero));
  grtc_top_t* relu = OP(tb, MAXIMUM, TT(F32, 2, 2, 2), R(add), R(zero_b));
  OPN(tb, RETURN, R(relu));
  float lhs[12], rhs[12], b[2] = {0.5f, -100}, out[8];
  for (int i = 0; i < 12; ++i) {
    lhs[i] = (float)(i + 1);
    rhs[i] = (float)(i % 5) - 1;
  }
  form_and_run(&f, 2, (void*[]){lhs, rhs, b}, (void*[]){out});
  float want[8];
  for (int bt = 0; bt < 2; ++bt) {
    for (int m = 0; m < 2; ++m) {
      for (int n = 0; n < 2; ++n) {
        float acc = 0;
        for (int k = 0; k < 3; ++k) {
          acc += lhs[bt * 6 + m * 3 + k] * rhs[bt * 6 + k * 2 + n];
        }
        acc += b[n];
        want[bt * 4 + m * 2 + n] = acc > 0 ? acc : 0;
      }
    }
  }
  expect_floats(out, want, 8);
  assert_int_equal(f.kernels.count, 1);
  const grtc_kernel_t* k = f.kernels.kernels[0];
  assert_int_equal(k->pattern, GRTC_KPATTERN_MATMUL);
  assert_int_equal(k->matmul.m, 2);
  assert_int_equal(k->matmul.n, 2);
  assert_int_equal(k->matmul.k, 3);
  assert_int_equal(k->matmul.lhs_stride_m, 3);
  assert_int_equal(k->matmul.lhs_stride_k, 1);
  assert_int_equal(k->matmul.rhs_stride_k, 2);
  assert_int_equal(k->matmul.rhs_stride_n, 1);
  assert_int_equal(k->matmul.batch_rank, 1);
  assert_int_equal(k->matmul.lhs_batch_strides[0], 6);
  fixture_deinit(&f);
}

// A [2x3] x [3x2] dot with a bias, then HardSwish, x * min(max(x / 6 +
// 0.5, 0), 1), reading x twice: one kernel when |direct| feeds the
// HardSwish the dot itself, one with the bias add in between otherwise; a
// dot+bias whose two users both leave the function is a buffer of its
// own (three kernels).
static void run_dot_hardswish(bool with_bias, bool converge) {
  fixture_t f;
  grtc_ttype_t args[3] = {TT(F32, 2, 3), TT(F32, 3, 2), TT(F32, 2)};
  grtc_ttype_t results[2] = {TT(F32, 2, 2), TT(F32, 2, 2)};
  fixture_init(&f, args, 3, results, converge ? 1 : 2);
  grtc_tb_t* tb = &f.tb;
  grtc_i64s_t none = {0, NULL};
  grtc_top_t* dot = add_dot(tb, grtc_tb_arg(tb, 0), grtc_tb_arg(tb, 1),
                            TT(F32, 2, 2), none, none, I64S(tb, 1), I64S(tb, 0));
  grtc_top_t* x = dot;
  if (with_bias) {
    grtc_top_t* bias = OP(tb, BROADCAST_IN_DIM, TT(F32, 2, 2), grtc_tb_arg(tb, 2));
    bias->attrs.dims = I64S(tb, 1);
    x = OP(tb, ADD, TT(F32, 2, 2), R(dot), R(bias));
  }
  if (!converge) {
    grtc_top_t* two = OP(tb, BROADCAST_IN_DIM, TT(F32, 2, 2), R(CF(tb, TS(F32), 2)));
    grtc_top_t* y0 = OP(tb, MULTIPLY, TT(F32, 2, 2), R(x), R(two));
    grtc_top_t* y1 = OP(tb, ADD, TT(F32, 2, 2), R(x), R(two));
    OPN(tb, RETURN, R(y0), R(y1));
  } else {
    grtc_top_t* sixth = OP(tb, BROADCAST_IN_DIM, TT(F32, 2, 2), R(CF(tb, TS(F32), 1.0 / 6)));
    grtc_top_t* half = OP(tb, BROADCAST_IN_DIM, TT(F32, 2, 2), R(CF(tb, TS(F32), 0.5)));
    grtc_top_t* one = OP(tb, BROADCAST_IN_DIM, TT(F32, 2, 2), R(CF(tb, TS(F32), 1)));
    grtc_top_t* zero = OP(tb, BROADCAST_IN_DIM, TT(F32, 2, 2), R(CF(tb, TS(F32), 0)));
    grtc_top_t* t = OP(tb, MULTIPLY, TT(F32, 2, 2), R(sixth), R(x));
    t = OP(tb, ADD, TT(F32, 2, 2), R(t), R(half));
    t = OP(tb, MINIMUM, TT(F32, 2, 2), R(one), R(t));
    t = OP(tb, MAXIMUM, TT(F32, 2, 2), R(zero), R(t));
    grtc_top_t* hs = OP(tb, MULTIPLY, TT(F32, 2, 2), R(x), R(t));
    OPN(tb, RETURN, R(hs));
  }
  float lhs[6] = {1, -2, 3, 0.5f, 4, -1}, rhs[6] = {1, 0, -1, 2, 0.5f, -0.25f};
  float b[2] = {with_bias ? 0.5f : 0, with_bias ? -3 : 0}, out0[4], out1[4];
  form_and_run(&f, 2, (void*[]){lhs, rhs, b}, (void*[]){out0, out1});
  float want0[4], want1[4];
  for (int m = 0; m < 2; ++m) {
    for (int n = 0; n < 2; ++n) {
      float v = b[n];
      for (int k = 0; k < 3; ++k) v += lhs[m * 3 + k] * rhs[k * 2 + n];
      float h = v / 6 + 0.5f;
      h = h < 0 ? 0 : h > 1 ? 1 : h;
      want0[m * 2 + n] = converge ? v * h : v * 2;
      want1[m * 2 + n] = v + 2;
    }
  }
  expect_floats(out0, want0, 4);
  if (!converge) expect_floats(out1, want1, 4);
  assert_int_equal(f.kernels.count, converge ? 1 : 3);
  assert_int_equal(f.kernels.kernels[0]->pattern, GRTC_KPATTERN_MATMUL);
  fixture_deinit(&f);
}

static void test_dot_hardswish_epilogue(void** state) {
  (void)state;
  run_dot_hardswish(false, true);
  run_dot_hardswish(true, true);
  run_dot_hardswish(true, false);
}

// dot(transpose(a), b): the transpose stays fused as strides.
static void test_dot_transposed_operand(void** state) {
  fixture_t f;
  grtc_ttype_t args[2] = {TT(F32, 3, 2), TT(F32, 3, 4)};
  grtc_ttype_t result = TT(F32, 2, 4);
  fixture_init(&f, args, 2, &result, 1);
  grtc_tb_t* tb = &f.tb;
  grtc_top_t* t = OP(tb, TRANSPOSE, TT(F32, 2, 3), grtc_tb_arg(tb, 0));
  t->attrs.dims = I64S(tb, 1, 0);
  grtc_top_t* dot = add_dot(tb, R(t), grtc_tb_arg(tb, 1), TT(F32, 2, 4),
                            (grtc_i64s_t){0, NULL}, (grtc_i64s_t){0, NULL},
                            I64S(tb, 1), I64S(tb, 0));
  OPN(tb, RETURN, R(dot));
  float a[6] = {1, 2, 3, 4, 5, 6}, b[12], out[8], want[8];
  for (int i = 0; i < 12; ++i) b[i] = (float)(i - 4);
  form_and_run(&f, 2, (void*[]){a, b}, (void*[]){out});
  for (int m = 0; m < 2; ++m) {
    for (int n = 0; n < 4; ++n) {
      float acc = 0;
      for (int k = 0; k < 3; ++k) acc += a[k * 2 + m] * b[k * 4 + n];
      want[m * 4 + n] = acc;
    }
  }
  expect_floats(out, want, 8);
  const grtc_kernel_t* k = f.kernels.kernels[0];
  assert_int_equal(f.kernels.count, 1);
  assert_int_equal(k->pattern, GRTC_KPATTERN_MATMUL);
  assert_int_equal(k->matmul.lhs_stride_m, 1);
  assert_int_equal(k->matmul.lhs_stride_k, 2);
  fixture_deinit(&f);
}

// A transpose shared by two dots stays a strided read in both; an
// elementwise value feeding a dot is materialized once for every user.
static void test_dot_operand_sharing(void** state) {
  fixture_t f;
  grtc_ttype_t args[2] = {TT(F32, 3, 2), TT(F32, 3, 3)};
  grtc_ttype_t results[3] = {TT(F32, 2, 3), TT(F32, 2, 3), TT(F32, 3, 3)};
  fixture_init(&f, args, 2, results, 3);
  grtc_tb_t* tb = &f.tb;
  grtc_i64s_t none = {0, NULL};
  grtc_top_t* t = OP(tb, TRANSPOSE, TT(F32, 2, 3), grtc_tb_arg(tb, 0));
  t->attrs.dims = I64S(tb, 1, 0);
  grtc_top_t* e = OP(tb, EXPONENTIAL, TT(F32, 3, 3), grtc_tb_arg(tb, 1));
  grtc_top_t* d0 = add_dot(tb, R(t), grtc_tb_arg(tb, 1), TT(F32, 2, 3), none,
                           none, I64S(tb, 1), I64S(tb, 0));
  grtc_top_t* d1 = add_dot(tb, R(t), R(e), TT(F32, 2, 3), none, none,
                           I64S(tb, 1), I64S(tb, 0));
  grtc_top_t* sum = OP(tb, ADD, TT(F32, 3, 3), R(e), R(e));
  OPN(tb, RETURN, R(d0), R(d1), R(sum));
  float a[6] = {1, 2, 3, 4, 5, 6}, b[9] = {0, 1, -1, 2, 0, 1, -2, 1, 0};
  float out0[6], out1[6], out2[9], want0[6], want1[6], want2[9];
  form_and_run(&f, 2, (void*[]){a, b}, (void*[]){out0, out1, out2});
  for (int m = 0; m < 2; ++m) {
    for (int n = 0; n < 3; ++n) {
      want0[m * 3 + n] = want1[m * 3 + n] = 0;
      for (int k = 0; k < 3; ++k) {
        want0[m * 3 + n] += a[k * 2 + m] * b[k * 3 + n];
        want1[m * 3 + n] += a[k * 2 + m] * expf(b[k * 3 + n]);
      }
    }
  }
  for (int i = 0; i < 9; ++i) want2[i] = 2 * expf(b[i]);
  expect_floats(out0, want0, 6);
  expect_floats(out1, want1, 6);
  expect_floats(out2, want2, 9);
  assert_int_equal(f.kernels.count, 4);  // exp, two dots, the add
  assert_int_equal(f.kernels.kernels[1]->pattern, GRTC_KPATTERN_MATMUL);
  assert_int_equal(f.kernels.kernels[2]->pattern, GRTC_KPATTERN_MATMUL);
  fixture_deinit(&f);
}

// Large outputs are split into several workgroups (results unchanged).
static void test_workgroups_split(void** state) {
  fixture_t f;
  grtc_ttype_t arg = TT(F32, 64, 100);
  fixture_init(&f, &arg, 1, &arg, 1);
  grtc_tb_t* tb = &f.tb;
  grtc_top_t* e = OP(tb, NEGATE, TT(F32, 64, 100), grtc_tb_arg(tb, 0));
  OPN(tb, RETURN, R(e));
  GRT_EXPECT_OK(grtc_tensor_verify(f.tb.module));
  grtc_dispatch_options_t options = {2, 1000, false};
  GRT_EXPECT_OK(grtc_dispatch_form(f.tb.module, &options, &f.kernels));
  const grtc_kernel_t* k = f.kernels.kernels[0];
  assert_int_equal(k->tile[1], 100);
  assert_int_equal(k->tile[0], 10);
  assert_int_equal(k->workgroup_count, 7);
  static float a[6400], out[6400];
  for (int i = 0; i < 6400; ++i) a[i] = (float)i;
  GRT_EXPECT_OK(grtc_kinterp_run_func(f.tb.module, &f.kernels, f.tb.func,
                                      (void*[]){a}, (void*[]){out}));
  for (int i = 0; i < 6400; ++i) assert_true(out[i] == -a[i]);
  fixture_deinit(&f);
}

// A sort of more operands than one kernel takes (the front-end stops at
// 64 too; hand-built IR gets a diagnostic, not a crash).
static void test_error_sort_too_many_operands(void** state) {
  fixture_t f;
  grtc_ttype_t arg = TT(F32, 2);
  fixture_init(&f, &arg, 1, &arg, 1);
  grtc_tb_t* tb = &f.tb;
  grtc_tvalue_t* operands[65];
  grtc_ttype_t types[65], scalars[130];
  for (int i = 0; i < 65; ++i) {
    operands[i] = grtc_tb_arg(tb, 0);
    types[i] = TT(F32, 2);
  }
  for (int i = 0; i < 130; ++i) scalars[i] = TS(F32);
  grtc_top_t* sort = grtc_tb_op(tb, GRTC_TOP_SORT, operands, 65, types, 65, 1);
  grtc_tblock_t* body = grtc_tb_begin_region(tb, sort, 0, scalars, 130);
  grtc_top_t* lt = OP(tb, COMPARE, TS(I1), &body->args[0], &body->args[1]);
  lt->attrs.compare_direction = GRTC_CMP_LT;
  OPN(tb, YIELD, R(lt));
  grtc_tb_end_region(tb);
  OPN(tb, RETURN, &sort->results[64]);
  grtc_dispatch_options_t options = {2, 0, false};
  grtc_tb_expect_error(grtc_dispatch_form(f.tb.module, &options, &f.kernels),
                       sort, "with 65 operands and 65 results is not "
                             "supported (at most 64 results)");
  fixture_deinit(&f);
}

// A bitcast_convert that changes the element width inside a kernel (the
// StableHLO importer composes those of shifts; hand-built IR gets a
// diagnostic).
static void test_error_bitcast_width(void** state) {
  fixture_t f;
  grtc_ttype_t arg = TT(F32, 2);
  grtc_ttype_t result = TT(I8, 2, 4);
  fixture_init(&f, &arg, 1, &result, 1);
  grtc_tb_t* tb = &f.tb;
  grtc_top_t* bc = OP(tb, BITCAST_CONVERT, TT(I8, 2, 4), grtc_tb_arg(tb, 0));
  OPN(tb, RETURN, R(bc));
  GRT_EXPECT_OK(grtc_tensor_verify(f.tb.module));
  grtc_dispatch_options_t options = {2, 0, false};
  grtc_tb_expect_error(grtc_dispatch_form(f.tb.module, &options, &f.kernels),
                       bc, "between element types of different widths is "
                           "not supported");
  fixture_deinit(&f);
}


// Tiles chosen for MATMUL and CONV2D kernels (the CPU GEMM's shapes).
typedef struct tile_case_t {
  grtc_kpattern_t pattern;
  uint32_t rank;
  int64_t dims[4];
  int64_t want_tile[4];
  uint32_t want_workgroups;
} tile_case_t;

static void test_pattern_tiles(void** state) {
  (void)state;
  static const tile_case_t cases[] = {
      // N in 256-column GEMM blocks; M split only for 8 workgroups, in
      // whole 6-row micro-panels: B is packed twice, not 8 times.
      {GRTC_KPATTERN_MATMUL, 2, {1024, 1024}, {516, 256}, 8},
      // Enough N blocks: M as tall as one GEMM block (1024 rows).
      {GRTC_KPATTERN_MATMUL, 2, {4096, 4096}, {1024, 256}, 64},
      // Never fewer than 48 rows, never more than the matrix.
      {GRTC_KPATTERN_MATMUL, 2, {10, 20}, {10, 20}, 1},
      {GRTC_KPATTERN_MATMUL, 2, {200, 64}, {48, 64}, 5},
      // Batch points count toward the workgroups.
      {GRTC_KPATTERN_MATMUL, 3, {8, 128, 64}, {1, 128, 64}, 8},
      // Convolutions: whole output rows, all channels, >= 256 pixels...
      {GRTC_KPATTERN_CONV2D, 4, {1, 56, 56, 64}, {1, 5, 56, 64}, 12},
      {GRTC_KPATTERN_CONV2D, 4, {16, 14, 14, 32}, {1, 14, 14, 32}, 16},
      // ... unless that leaves fewer than 4 workgroups: then the channels
      // are split in steps of 16...
      {GRTC_KPATTERN_CONV2D, 4, {1, 7, 7, 512}, {1, 7, 7, 128}, 4},
      {GRTC_KPATTERN_CONV2D, 4, {1, 14, 14, 256}, {1, 14, 14, 64}, 4},
      {GRTC_KPATTERN_CONV2D, 4, {1, 28, 28, 128}, {1, 10, 28, 64}, 6},
      // ... and the rows too if needed, down to 64 pixels a tile.
      {GRTC_KPATTERN_CONV2D, 4, {1, 14, 14, 40}, {1, 7, 14, 16}, 6},
      {GRTC_KPATTERN_CONV2D, 4, {2, 32, 4, 8}, {1, 16, 4, 8}, 4},
      {GRTC_KPATTERN_CONV2D, 4, {1, 64, 32, 8}, {1, 8, 32, 8}, 8},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    const tile_case_t* c = &cases[i];
    grtc_kernel_t kernel = {.kind = GRTC_KERNEL_LOOP, .pattern = c->pattern,
                            .parallel_rank = c->rank, .reduction_rank = 1};
    kernel.reduction_dims[0] = 576;
    for (uint32_t d = 0; d < c->rank; ++d) {
      kernel.parallel_dims[d] = c->dims[d];
    }
    grtc_dispatch_choose_tile(&kernel, 0);
    GRT_EXPECT_OK(grtc_kernel_finalize_workgroups(&kernel));
    for (uint32_t d = 0; d < c->rank; ++d) {
      if (kernel.tile[d] != c->want_tile[d]) {
        fail_msg("case %zu: tile[%u] is %lld, expected %lld", i, d,
                 (long long)kernel.tile[d], (long long)c->want_tile[d]);
      }
    }
    assert_int_equal(kernel.workgroup_count, c->want_workgroups);
  }
}

// A GPU target splits a convolution for 8 workgroups (the CPU for 4).
static void test_gpu_conv_tiles(void** state) {
  (void)state;
  grtc_kernel_t kernel = {.kind = GRTC_KERNEL_LOOP,
                          .pattern = GRTC_KPATTERN_CONV2D,
                          .parallel_rank = 4, .reduction_rank = 1};
  kernel.reduction_dims[0] = 4608;
  const int64_t dims[4] = {1, 7, 7, 512};
  for (uint32_t d = 0; d < 4; ++d) kernel.parallel_dims[d] = dims[d];
  GRT_EXPECT_OK(grtc_dispatch_choose_gpu_tile(&kernel));
  assert_int_equal(kernel.tile[3], 64);
  assert_int_equal(kernel.workgroup_count, 8);
  grtc_dispatch_choose_tile(&kernel, 0);
  GRT_EXPECT_OK(grtc_kernel_finalize_workgroups(&kernel));
  assert_int_equal(kernel.tile[3], 128);
  assert_int_equal(kernel.workgroup_count, 4);
}

// A depthwise convolution on planar (NCHW) activations takes whole output
// planes and splits its channels 8 ways; planes already whole, NHWC
// activations and grouped convolutions with several input channels per
// group keep the usual tiles.
static void test_depthwise_conv_tiles(void** state) {
  (void)state;
  typedef struct {
    int64_t h, w, c, groups, kh, stride, pad;
    bool nhwc;
    int64_t want_tile[4];
    uint32_t want_workgroups;
  } dw_case_t;
  static const dw_case_t cases[] = {
      // MobileNetV2's 112x112 layers: stride 1 (3-row tiles before), and
      // stride 2 to 56x56 over 96 channels.
      {112, 112, 32, 32, 3, 1, 1, false, {1, 112, 112, 4}, 8},
      {112, 112, 96, 96, 3, 2, 1, false, {1, 56, 56, 12}, 8},
      // 20 channels: tiles of 3, the last of 2.
      {14, 14, 20, 20, 5, 1, 2, false, {1, 14, 14, 3}, 7},
      // A large plane too (the kernel chunks its rows).
      {512, 512, 16, 16, 3, 1, 1, false, {1, 512, 512, 2}, 8},
      // Whole planes already (a 14x14 layer's channels split 4 ways),
      // NHWC, and two input channels per group: unchanged.
      {14, 14, 384, 384, 3, 1, 1, false, {1, 14, 14, 96}, 4},
      {112, 112, 32, 32, 3, 1, 1, true, {1, 3, 112, 32}, 38},
      {112, 112, 32, 16, 3, 1, 1, false, {1, 3, 112, 32}, 38},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    const dw_case_t* c = &cases[i];
    grtc_kernel_t kernel = {.kind = GRTC_KERNEL_LOOP,
                            .pattern = GRTC_KPATTERN_CONV2D,
                            .parallel_rank = 4, .reduction_rank = 3};
    int64_t oh = (c->h + 2 * c->pad - c->kh) / c->stride + 1;
    int64_t ow = (c->w + 2 * c->pad - c->kh) / c->stride + 1;
    kernel.reduction_dims[0] = c->kh;
    kernel.reduction_dims[1] = c->kh;
    kernel.reduction_dims[2] = c->c / c->groups;
    const int64_t dims[4] = {1, oh, ow, c->c};
    for (uint32_t d = 0; d < 4; ++d) kernel.parallel_dims[d] = dims[d];
    grtc_kconv_t* cv = &kernel.conv;
    cv->n = 1, cv->h = c->h, cv->w = c->w, cv->c = c->c;
    cv->kh = c->kh, cv->kw = c->kh, cv->oc = c->c, cv->oh = oh, cv->ow = ow;
    cv->stride_h = cv->stride_w = c->stride;
    cv->pad_h = cv->pad_w = c->pad;
    cv->dilation_h = cv->dilation_w = 1;
    cv->groups = c->groups;
    if (c->nhwc) {
      const int64_t strides[4] = {c->h * c->w * c->c, c->w * c->c, c->c, 1};
      memcpy(cv->input_strides, strides, sizeof(strides));
    } else {
      const int64_t strides[4] = {c->c * c->h * c->w, c->w, 1, c->h * c->w};
      memcpy(cv->input_strides, strides, sizeof(strides));
    }
    grtc_dispatch_choose_tile(&kernel, 0);
    GRT_EXPECT_OK(grtc_kernel_finalize_workgroups(&kernel));
    for (uint32_t d = 0; d < 4; ++d) {
      if (kernel.tile[d] != c->want_tile[d]) {
        fail_msg("case %zu: tile[%u] is %lld, expected %lld", i, d,
                 (long long)kernel.tile[d], (long long)c->want_tile[d]);
      }
    }
    assert_int_equal(kernel.workgroup_count, c->want_workgroups);
  }
}

// A convolution with one output pixel keeps its output channels whole on
// the CPU when they are contiguous in the filter (the rows read front to
// back), and splits them as any small layer otherwise, and on a GPU.
static void test_one_pixel_conv_tiles(void** state) {
  (void)state;
  for (int contiguous = 0; contiguous < 2; ++contiguous) {
    grtc_kernel_t kernel = {.kind = GRTC_KERNEL_LOOP,
                            .pattern = GRTC_KPATTERN_CONV2D,
                            .parallel_rank = 4, .reduction_rank = 1};
    kernel.reduction_dims[0] = 960;
    kernel.conv.filter_strides[2] = contiguous ? 240 : 1;
    kernel.conv.filter_strides[3] = contiguous ? 1 : 960;
    const int64_t dims[4] = {1, 1, 1, 240};
    for (uint32_t d = 0; d < 4; ++d) kernel.parallel_dims[d] = dims[d];
    grtc_dispatch_choose_tile(&kernel, 0);
    GRT_EXPECT_OK(grtc_kernel_finalize_workgroups(&kernel));
    assert_int_equal(kernel.tile[3], contiguous ? 240 : 64);
    assert_int_equal(kernel.workgroup_count, contiguous ? 1 : 4);
    GRT_EXPECT_OK(grtc_dispatch_choose_gpu_tile(&kernel));
    assert_int_equal(kernel.workgroup_count, 8);
  }
}

// A run-time output-channel split (grtc_dispatch_plan_runtime_split): up to
// enough 16-channel tiles for 8 workgroups; the split for a concurrency,
// its tile (a non-divisor split rounds up to whole 16-channel steps) and
// workgroup count.
static void test_runtime_conv_split(void** state) {
  (void)state;
  typedef struct {
    int64_t dims[4];
    uint32_t want_max;
  } split_case_t;
  static const split_case_t cases[] = {
      {{1, 7, 7, 2048}, 8},    // one pixel tile: 8 channel tiles at most
      {{1, 14, 14, 256}, 8},   // 196 pixels: one tile
      {{1, 28, 28, 128}, 3},   // 3 row tiles (10 rows): 3 channel tiles
      {{1, 56, 56, 64}, 0},    // 12 row tiles: no split
      {{1, 7, 7, 16}, 0},      // one 16-channel step
      {{1, 7, 7, 40}, 3},      // 3 steps (16, 16, 8)
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    grtc_kernel_t kernel = {.kind = GRTC_KERNEL_LOOP,
                            .pattern = GRTC_KPATTERN_CONV2D,
                            .parallel_rank = 4, .reduction_rank = 1};
    kernel.reduction_dims[0] = 576;
    for (uint32_t d = 0; d < 4; ++d) kernel.parallel_dims[d] = cases[i].dims[d];
    grtc_dispatch_choose_tile(&kernel, 0);
    GRT_EXPECT_OK(grtc_kernel_finalize_workgroups(&kernel));
    uint32_t before = kernel.workgroup_count;
    int64_t tile3 = kernel.tile[3];
    grtc_dispatch_plan_runtime_split(&kernel);
    if (kernel.split_max != cases[i].want_max) {
      fail_msg("case %zu: split_max %u, expected %u", i, kernel.split_max,
               cases[i].want_max);
    }
    // The compile-time plan stays for other targets.
    assert_int_equal(kernel.workgroup_count, before);
    assert_int_equal(kernel.tile[3], tile3);
  }
  // ResNet-50's 7x7x2048 layer: the split follows the concurrency up to 8.
  grtc_kernel_t kernel = {.kind = GRTC_KERNEL_LOOP,
                          .pattern = GRTC_KPATTERN_CONV2D,
                          .parallel_rank = 4, .reduction_rank = 1};
  kernel.reduction_dims[0] = 512;
  const int64_t dims[4] = {1, 7, 7, 2048};
  for (uint32_t d = 0; d < 4; ++d) kernel.parallel_dims[d] = dims[d];
  grtc_dispatch_choose_tile(&kernel, 0);
  grtc_dispatch_plan_runtime_split(&kernel);
  assert_int_equal(grtc_kernel_split_others(&kernel), 1);
  const int64_t concurrency[] = {-3, 0, 1, 2, 3, 4, 8, 64};
  const int64_t want_split[] = {1, 1, 1, 2, 3, 4, 8, 8};
  const int64_t want_tile[] = {2048, 2048, 2048, 1024, 688, 512, 256, 256};
  const int64_t want_count[] = {1, 1, 1, 2, 3, 4, 8, 8};
  for (size_t i = 0; i < sizeof(concurrency) / sizeof(concurrency[0]); ++i) {
    int64_t split = grtc_kernel_split_for(&kernel, concurrency[i]);
    assert_int_equal(split, want_split[i]);
    assert_int_equal(grtc_kernel_split_tile(2048, split), want_tile[i]);
    assert_int_equal(grtc_kernel_split_workgroups(&kernel, split), want_count[i]);
  }
  // Tiles never pass the dim; a split < 1 counts as 1; splits past the
  // channel steps leave fewer tiles than the split.
  assert_int_equal(grtc_kernel_split_tile(40, 0), 40);
  assert_int_equal(grtc_kernel_split_tile(40, 2), 32);
  assert_int_equal(grtc_kernel_split_tile(40, 3), 16);
  assert_int_equal(grtc_kernel_split_tile(40, 100), 16);
  assert_int_equal(grtc_kernel_split_tile(8, 4), 8);
  // Other tiles multiply: 3 row tiles of the 28x28 layer.
  grtc_kernel_t rows = {.kind = GRTC_KERNEL_LOOP,
                        .pattern = GRTC_KPATTERN_CONV2D,
                        .parallel_rank = 4, .reduction_rank = 1};
  rows.reduction_dims[0] = 576;
  const int64_t rows_dims[4] = {1, 28, 28, 128};
  for (uint32_t d = 0; d < 4; ++d) rows.parallel_dims[d] = rows_dims[d];
  grtc_dispatch_choose_tile(&rows, 0);
  grtc_dispatch_plan_runtime_split(&rows);
  assert_int_equal(grtc_kernel_split_others(&rows), 3);
  // 3 row tiles: one thread keeps them; 2 and 3 workers get one channel
  // tile each (6 and 3 workgroups, evenly shared); 4 workers 2 (6 is
  // uneven, but 4 channel tiles are more than split_max); many, the most.
  assert_int_equal(grtc_kernel_split_for(&rows, 1), 1);
  assert_int_equal(grtc_kernel_split_for(&rows, 2), 2);
  assert_int_equal(grtc_kernel_split_for(&rows, 3), 1);
  assert_int_equal(grtc_kernel_split_for(&rows, 4), 2);
  assert_int_equal(grtc_kernel_split_for(&rows, 16), 3);
  assert_int_equal(grtc_kernel_split_workgroups(&rows, 1), 3);
  assert_int_equal(grtc_kernel_split_workgroups(&rows, 2), 6);
  assert_int_equal(grtc_kernel_split_workgroups(&rows, 3), 9);
  // Symbolic and serial kernels keep compile-time tiles; the verifier
  // refuses a split on them.
  rows.serial = true;
  grt_expect_error(grtc_kernel_verify(&rows), GRT_STATUS_INTERNAL,
                   "a run-time split (split_max 3) needs a static, parallel loop kernel");
  grtc_dispatch_plan_runtime_split(&rows);
  assert_int_equal(rows.split_max, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_runtime_conv_split),
      cmocka_unit_test(test_one_pixel_conv_tiles),
      cmocka_unit_test(test_fused_elementwise_broadcast),
      cmocka_unit_test(test_o0_one_kernel_per_op),
      cmocka_unit_test(test_structural_chain),
      cmocka_unit_test(test_reshape_of_fused_value),
      cmocka_unit_test(test_multi_use),
      cmocka_unit_test(test_reduce_sum_and_max),
      cmocka_unit_test(test_reduce_argmax),
      cmocka_unit_test(test_dot_batch_epilogue),
      cmocka_unit_test(test_dot_hardswish_epilogue),
      cmocka_unit_test(test_dot_transposed_operand),
      cmocka_unit_test(test_dot_operand_sharing),
      cmocka_unit_test(test_workgroups_split),
      cmocka_unit_test(test_pattern_tiles),
      cmocka_unit_test(test_gpu_conv_tiles),
      cmocka_unit_test(test_depthwise_conv_tiles),
      cmocka_unit_test(test_error_sort_too_many_operands),
      cmocka_unit_test(test_error_bitcast_width),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
