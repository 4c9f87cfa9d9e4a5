// Tests for grtc_tensor_verify: one per rule, each checking the message and
// the op's position, plus valid forms of every op family so the checks do
// not reject what the spec allows.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/status_matchers.h"
#include "compiler/tensor/test_builder.h"

#define ARG(i) grtc_tb_arg(&tb, (i))
// A function @main(|...| args) -> () to build ops in.
#define BEGIN(...)                                                      \
  do {                                                                  \
    grtc_ttype_t args_[] = {__VA_ARGS__};                               \
    grtc_tb_init(&tb, args_, sizeof(args_) / sizeof(args_[0]), NULL, 0); \
  } while (0)

static void expect_error(grtc_tb_t* tb, const grtc_top_t* op,
                         const char* fragment) {
  grtc_tb_return_none(tb);
  grtc_tb_expect_error(grtc_tensor_verify(tb->module), op, fragment);
  grtc_tb_deinit(tb);
}

static void expect_ok(grtc_tb_t* tb) {
  grtc_tb_return_none(tb);
  GRT_EXPECT_OK(grtc_tensor_verify(tb->module));
  grtc_tb_deinit(tb);
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

static void test_elementwise_ok(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 4), TT(I32, 4));
  OP(&tb, ADD, TT(F32, 4), ARG(0), ARG(0));
  OP(&tb, AND, TT(I32, 4), ARG(1), ARG(1));
  OP(&tb, IS_FINITE, TT(I1, 4), ARG(0));
  OP(&tb, NEGATE, TT(I32, 4), ARG(1));
  expect_ok(&tb);
}

static void test_elementwise_operand_types_differ(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 4), TT(F32, 3));
  grtc_top_t* op = OP(&tb, ADD, TT(F32, 4), ARG(0), ARG(1));
  expect_error(&tb, op, "operand types tensor<4xf32> and tensor<3xf32> differ");
}

static void test_elementwise_operand_count(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 4));
  grtc_top_t* op = OP(&tb, NEGATE, TT(F32, 4), ARG(0), ARG(0));
  expect_error(&tb, op, "takes 1 operands, got 2");
}

static void test_elementwise_type_not_accepted(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 4), TT(I32, 4));
  grtc_top_t* op = OP(&tb, AND, TT(F32, 4), ARG(0), ARG(0));
  expect_error(&tb, op, "does not accept operands of type tensor<4xf32>");
  BEGIN(TT(F32, 4), TT(I32, 4));
  op = OP(&tb, EXPONENTIAL, TT(I32, 4), ARG(1));
  expect_error(&tb, op,
               "does not accept operands of type tensor<4xi32>: it takes "
               "floating-point tensors");
}

// StableHLO defines subtract, divide, negate, shifts, popcnt, ... on
// integer types, which exclude i1; add/multiply/maximum/minimum take i1.
static void test_elementwise_i1_arithmetic(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(I1, 4));
  grtc_top_t* op = OP(&tb, SUBTRACT, TT(I1, 4), ARG(0), ARG(0));
  expect_error(&tb, op,
               "does not accept operands of type tensor<4xi1>: it takes "
               "integer (not i1) or floating-point tensors");
  BEGIN(TT(I1, 4));
  op = OP(&tb, POPCNT, TT(I1, 4), ARG(0));
  expect_error(&tb, op,
               "does not accept operands of type tensor<4xi1>: it takes "
               "integer (not i1) tensors");
  BEGIN(TT(I1, 4));
  OP(&tb, ADD, TT(I1, 4), ARG(0), ARG(0));
  OP(&tb, MULTIPLY, TT(I1, 4), ARG(0), ARG(0));
  OP(&tb, MAXIMUM, TT(I1, 4), ARG(0), ARG(0));
  OP(&tb, MINIMUM, TT(I1, 4), ARG(0), ARG(0));
  OP(&tb, XOR, TT(I1, 4), ARG(0), ARG(0));
  OP(&tb, NOT, TT(I1, 4), ARG(0));
  expect_ok(&tb);
}

static void test_elementwise_result_type(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 4));
  grtc_top_t* op = OP(&tb, MULTIPLY, TT(I32, 4), ARG(0), ARG(0));
  expect_error(&tb, op,
               "result type tensor<4xi32> differs from the inferred "
               "tensor<4xf32>");
  BEGIN(TT(F32, 4));
  op = OP(&tb, IS_FINITE, TT(F32, 4), ARG(0));
  expect_error(&tb, op,
               "result type tensor<4xf32> differs from the inferred "
               "tensor<4xi1>");
}

static void test_result_count(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 4));
  grtc_ttype_t two[2] = {TT(F32, 4), TT(F32, 4)};
  grtc_tvalue_t* operands[2] = {ARG(0), ARG(0)};
  grtc_top_t* op = grtc_tb_op(&tb, GRTC_TOP_ADD, operands, 2, two, 2, 0);
  expect_error(&tb, op, "has 2 results, expected 1");
}

static void test_invalid_types(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 4));
  grtc_top_t* op = OP(&tb, NEGATE, TT(F32, 4), ARG(0));
  op->results[0].type.dims[0] = -1;
  expect_error(&tb, op, "result 0 has an invalid type");
  BEGIN(TT(F32, 4));
  ARG(0)->type.rank = GRTC_MAX_RANK + 1;
  op = OP(&tb, NEGATE, TT(F32, 4), ARG(0));
  expect_error(&tb, op, "operand 0 has an invalid type");
}

static void test_select(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(I1, 4), TS(I1), TT(F32, 4), TT(F32, 3), TT(I32, 4));
  OP(&tb, SELECT, TT(F32, 4), ARG(0), ARG(2), ARG(2));
  OP(&tb, SELECT, TT(F32, 4), ARG(1), ARG(2), ARG(2));
  expect_ok(&tb);

  BEGIN(TT(I1, 4), TS(I1), TT(F32, 4), TT(F32, 3), TT(I32, 4));
  grtc_top_t* op = OP(&tb, SELECT, TT(F32, 4), ARG(4), ARG(2), ARG(2));
  expect_error(&tb, op, "predicate element type i32 differs from i1");

  BEGIN(TT(I1, 4), TS(I1), TT(F32, 4), TT(F32, 3), TT(I32, 4));
  op = OP(&tb, SELECT, TT(F32, 3), ARG(0), ARG(3), ARG(3));
  expect_error(&tb, op,
               "operand type tensor<4xi1> is neither rank 0 nor shaped like "
               "tensor<3xf32>");

  BEGIN(TT(I1, 4), TS(I1), TT(F32, 4), TT(F32, 3), TT(I32, 4));
  op = OP(&tb, SELECT, TT(F32, 4), ARG(0), ARG(2), ARG(3));
  expect_error(&tb, op, "operand types tensor<4xf32> and tensor<3xf32> differ");
}

static void test_clamp(void** state) {
  grtc_tb_t tb;
  BEGIN(TS(F32), TT(F32, 4), TT(F32, 3), TS(I32));
  OP(&tb, CLAMP, TT(F32, 4), ARG(0), ARG(1), ARG(0));
  OP(&tb, CLAMP, TT(F32, 4), ARG(1), ARG(1), ARG(1));
  expect_ok(&tb);

  BEGIN(TS(F32), TT(F32, 4), TT(F32, 3), TS(I32));
  grtc_top_t* op = OP(&tb, CLAMP, TT(F32, 4), ARG(2), ARG(1), ARG(0));
  expect_error(&tb, op,
               "operand type tensor<3xf32> is neither rank 0 nor shaped like "
               "tensor<4xf32>");

  BEGIN(TS(F32), TT(F32, 4), TT(F32, 3), TS(I32));
  op = OP(&tb, CLAMP, TT(F32, 4), ARG(0), ARG(1), ARG(3));
  expect_error(&tb, op, "max element type i32 differs from f32");
}

static void test_compare(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 4), TT(I32, 4));
  grtc_top_t* op = OP(&tb, COMPARE, TT(I1, 4), ARG(0), ARG(0));
  op->attrs.compare_direction = GRTC_CMP_LT;
  op = OP(&tb, COMPARE, TT(I1, 4), ARG(1), ARG(1));
  op->attrs.compare_type = GRTC_CMP_TYPE_UNSIGNED;
  expect_ok(&tb);

  BEGIN(TT(F32, 4), TT(I32, 4));
  op = OP(&tb, COMPARE, TT(F32, 4), ARG(0), ARG(0));
  expect_error(&tb, op,
               "result type tensor<4xf32> differs from the inferred "
               "tensor<4xi1>");

  BEGIN(TT(F32, 4), TT(I32, 4));
  op = OP(&tb, COMPARE, TT(I1, 4), ARG(0), ARG(0));
  op->attrs.compare_type = GRTC_CMP_TYPE_SIGNED;
  expect_error(&tb, op,
               "compare_type SIGNED does not apply to operands of type "
               "tensor<4xf32>");

  BEGIN(TT(F32, 4), TT(I32, 4));
  op = OP(&tb, COMPARE, TT(I1, 4), ARG(0), ARG(0));
  op->attrs.compare_direction = (grtc_compare_direction_t)9;
  expect_error(&tb, op, "has an invalid comparison_direction 9");
}

static void test_convert(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 2, 3));
  OP(&tb, CONVERT, TT(I8, 2, 3), ARG(0));
  OP(&tb, CONVERT, TT(BF16, 2, 3), ARG(0));
  expect_ok(&tb);

  BEGIN(TT(F32, 2, 3));
  grtc_top_t* op = OP(&tb, CONVERT, TT(I8, 3, 2), ARG(0));
  expect_error(&tb, op,
               "result type tensor<3x2xi8> differs from the inferred "
               "tensor<2x3xi8>");
}

static void test_bitcast_convert(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 4), TT(I8, 4, 4), TT(I8, 4, 3), TT(I1, 4));
  OP(&tb, BITCAST_CONVERT, TT(I32, 4), ARG(0));
  OP(&tb, BITCAST_CONVERT, TT(I8, 4, 4), ARG(0));
  OP(&tb, BITCAST_CONVERT, TT(F32, 4), ARG(1));
  expect_ok(&tb);

  BEGIN(TT(F32, 4), TT(I8, 4, 4), TT(I8, 4, 3), TT(I1, 4));
  grtc_top_t* op = OP(&tb, BITCAST_CONVERT, TT(F32, 4), ARG(2));
  expect_error(&tb, op,
               "operand type tensor<4x3xi8> must end in a dimension of 4 to "
               "become f32 elements");

  BEGIN(TT(F32, 4), TT(I8, 4, 4), TT(I8, 4, 3), TT(I1, 4));
  op = OP(&tb, BITCAST_CONVERT, TT(I16, 4), ARG(0));
  expect_error(&tb, op,
               "result type tensor<4xi16> differs from the inferred "
               "tensor<4x2xi16>");

  BEGIN(TT(F32, 4), TT(I8, 4, 4), TT(I8, 4, 3), TT(I1, 4));
  op = OP(&tb, BITCAST_CONVERT, TT(I8, 4), ARG(3));
  expect_error(&tb, op, "cannot reinterpret tensor<4xi1> as tensor<4xi8>");
}

//===----------------------------------------------------------------------===//
// Constants and structural ops
//===----------------------------------------------------------------------===//

static void test_constant_size(void** state) {
  grtc_tb_t tb;
  BEGIN(TS(F32));
  CF(&tb, TT(F32, 3), 1, 2, 3);
  CF(&tb, TT(F32, 3), 7);  // splat
  grtc_top_t* op = CF(&tb, TT(F32, 3), 1, 2);
  expect_error(&tb, op, "holds 8 bytes, expected 12 for tensor<3xf32>");
}

// util.global.load / store take the global's type exactly; a global must
// be static and holds its type's bytes.
static void test_globals(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 4), TT(F32, 2));
  grtc_tglobal_t* g = NULL;
  float zero = 0;
  grtc_ttype_t t4 = TT(F32, 4), t2 = TT(F32, 2);
  GRT_EXPECT_OK(grtc_tmodule_add_global(tb.module, grt_make_cstring_view("g"),
                                        &t4, (const uint8_t*)&zero,
                                        4, true, &g));
  grtc_top_t* load = grtc_tb_op(&tb, GRTC_TOP_GLOBAL_LOAD, NULL, 0,
                                (grtc_ttype_t[]){TT(F32, 4)}, 1, 0);
  load->attrs.global = g;
  grtc_top_t* store = OPN(&tb, GLOBAL_STORE, R(load));
  store->attrs.global = g;
  expect_ok(&tb);

  BEGIN(TT(F32, 2));
  GRT_EXPECT_OK(grtc_tmodule_add_global(tb.module, grt_make_cstring_view("g"),
                                        &t4, (const uint8_t*)&zero,
                                        4, true, &g));
  store = OPN(&tb, GLOBAL_STORE, ARG(0));
  store->attrs.global = g;
  expect_error(&tb, store, "stores to '@g' of type tensor<4xf32> as tensor<2xf32>");

  BEGIN(TT(F32, 2));
  load = grtc_tb_op(&tb, GRTC_TOP_GLOBAL_LOAD, NULL, 0, (grtc_ttype_t[]){TT(F32, 4)}, 1, 0);
  expect_error(&tb, load, "names no global");

  BEGIN(TT(F32, 2));
  GRT_EXPECT_OK(grtc_tmodule_add_global(tb.module, grt_make_cstring_view("g"),
                                        &t2, (const uint8_t*)&zero,
                                        4, true, &g));
  grt_expect_error(grtc_tmodule_add_global(tb.module, grt_make_cstring_view("g"),
                                           &t2, (const uint8_t*)&zero,
                                           4, true, &g),
                   GRT_STATUS_INVALID_ARGUMENT, "global '@g' is defined twice");
  grt_expect_error(grtc_tmodule_add_global(tb.module, grt_make_cstring_view("h"),
                                           &t2, (const uint8_t*)&zero,
                                           4, false, &g),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "global '@h' of type tensor<2xf32> is given 4 bytes, expected 8");
  grtc_tb_deinit(&tb);
}

static void test_iota(void** state) {
  grtc_tb_t tb;
  BEGIN(TS(F32));
  grtc_top_t* op = grtc_tb_op(&tb, GRTC_TOP_IOTA, NULL, 0,
                              (grtc_ttype_t[]){TT(I32, 2, 3)}, 1, 0);
  op->attrs.dim = 1;
  op = grtc_tb_op(&tb, GRTC_TOP_IOTA, NULL, 0,
                  (grtc_ttype_t[]){TT(I32, 2, 3)}, 1, 0);
  op->attrs.dim = 2;
  expect_error(&tb, op, "iota_dimension 2 is out of range for tensor<2x3xi32>");
}

static void test_broadcast_in_dim(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 3), TT(F32, 1, 3));
  grtc_top_t* op = OP(&tb, BROADCAST_IN_DIM, TT(F32, 2, 3), ARG(0));
  op->attrs.dims = I64S(&tb, 1);
  op = OP(&tb, BROADCAST_IN_DIM, TT(F32, 3, 4, 2), ARG(1));
  op->attrs.dims = I64S(&tb, 2, 0);  // need not increase
  expect_ok(&tb);

  BEGIN(TT(F32, 3), TT(F32, 1, 3));
  op = OP(&tb, BROADCAST_IN_DIM, TT(F32, 2, 3), ARG(0));
  op->attrs.dims = I64S(&tb, 0, 1);
  expect_error(&tb, op,
               "broadcast_dimensions has 2 entries, expected 1 (the "
               "operand's rank)");

  BEGIN(TT(F32, 3), TT(F32, 1, 3));
  op = OP(&tb, BROADCAST_IN_DIM, TT(F32, 2, 3), ARG(0));
  op->attrs.dims = I64S(&tb, 2);
  expect_error(&tb, op, "broadcast_dimensions[0] = 2 is out of range [0, 2)");

  BEGIN(TT(F32, 3), TT(F32, 1, 3));
  op = OP(&tb, BROADCAST_IN_DIM, TT(F32, 3, 3), ARG(1));
  op->attrs.dims = I64S(&tb, 1, 1);
  expect_error(&tb, op, "broadcast_dimensions repeats dimension 1");

  BEGIN(TT(F32, 3), TT(F32, 1, 3));
  op = OP(&tb, BROADCAST_IN_DIM, TT(F32, 3, 2), ARG(0));
  op->attrs.dims = I64S(&tb, 1);
  expect_error(&tb, op,
               "operand dimension 0 of tensor<3xf32> (size 3) is neither 1 "
               "nor the size 2 of result dimension 1 in tensor<3x2xf32>");

  BEGIN(TT(F32, 3), TT(F32, 1, 3));
  op = OP(&tb, BROADCAST_IN_DIM, TT(I32, 2, 3), ARG(0));
  op->attrs.dims = I64S(&tb, 1);
  expect_error(&tb, op, "result element type i32 differs from f32");
}

static void test_reshape(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 2, 3));
  OP(&tb, RESHAPE, TT(F32, 6), ARG(0));
  grtc_top_t* op = OP(&tb, RESHAPE, TT(F32, 5), ARG(0));
  expect_error(&tb, op,
               "cannot reshape tensor<2x3xf32> (6 elements) to tensor<5xf32> "
               "(5 elements)");
}

static void test_transpose(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 3, 4));
  grtc_top_t* op = OP(&tb, TRANSPOSE, TT(F32, 4, 3), ARG(0));
  op->attrs.dims = I64S(&tb, 1, 0);
  op = OP(&tb, TRANSPOSE, TT(F32, 3, 4), ARG(0));
  op->attrs.dims = I64S(&tb, 1, 0);
  expect_error(&tb, op,
               "result type tensor<3x4xf32> differs from the inferred "
               "tensor<4x3xf32>");

  BEGIN(TT(F32, 3, 4));
  op = OP(&tb, TRANSPOSE, TT(F32, 3, 3), ARG(0));
  op->attrs.dims = I64S(&tb, 0, 0);
  expect_error(&tb, op, "permutation repeats dimension 0");
}

// A SLICE of |input| with the given bounds (each list spelled by the caller so
// a case can give a list of the wrong length).
static grtc_top_t* slice_op(grtc_tb_t* tb, grtc_tvalue_t* input,
                            grtc_ttype_t result, grtc_i64s_t start,
                            grtc_i64s_t limit, grtc_i64s_t strides) {
  grtc_top_t* op = OP(tb, SLICE, result, input);
  op->attrs.start = start;
  op->attrs.limit = limit;
  op->attrs.strides = strides;
  return op;
}

static void test_slice(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 10, 4));
  slice_op(&tb, ARG(0), TT(F32, 3, 4), I64S(&tb, 1, 0), I64S(&tb, 8, 4),
           I64S(&tb, 3, 1));
  expect_ok(&tb);

  BEGIN(TT(F32, 10, 4));
  grtc_top_t* op = slice_op(&tb, ARG(0), TT(F32, 3, 4), I64S(&tb, 5, 0),
                            I64S(&tb, 4, 4), I64S(&tb, 1, 1));
  expect_error(&tb, op,
               "dimension 0: 0 <= start 5 <= limit 4 <= size 10 does not hold");

  BEGIN(TT(F32, 10, 4));
  op = slice_op(&tb, ARG(0), TT(F32, 3, 4), I64S(&tb, 0, 0), I64S(&tb, 3, 4),
                I64S(&tb, 1, 0));
  expect_error(&tb, op, "strides[1] = 0 must be at least 1");

  BEGIN(TT(F32, 10, 4));
  op = slice_op(&tb, ARG(0), TT(F32, 3, 4), I64S(&tb, 0), I64S(&tb, 3, 4),
                I64S(&tb, 1, 1));
  expect_error(&tb, op,
               "start_indices has 1 entries, expected 2 (the operand's rank)");
}

static void test_dynamic_slice(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 10, 4), TS(I32), TS(I64), TT(F32, 2, 4));
  grtc_top_t* op = OP(&tb, DYNAMIC_SLICE, TT(F32, 2, 4), ARG(0), ARG(1), ARG(1));
  op->attrs.sizes = I64S(&tb, 2, 4);
  OP(&tb, DYNAMIC_UPDATE_SLICE, TT(F32, 10, 4), ARG(0), ARG(3), ARG(1), ARG(1));
  expect_ok(&tb);

  BEGIN(TT(F32, 10, 4), TS(I32), TS(I64), TT(F32, 2, 4));
  op = OP(&tb, DYNAMIC_SLICE, TT(F32, 2, 5), ARG(0), ARG(1), ARG(1));
  op->attrs.sizes = I64S(&tb, 2, 5);
  expect_error(&tb, op, "slice_sizes[1] = 5 is out of range [0, 4]");

  BEGIN(TT(F32, 10, 4), TS(I32), TS(I64), TT(F32, 2, 4));
  op = OP(&tb, DYNAMIC_SLICE, TT(F32, 2, 4), ARG(0), ARG(1), ARG(2));
  op->attrs.sizes = I64S(&tb, 2, 4);
  expect_error(&tb, op,
               "start index 1 has type tensor<i64>, expected a rank-0 "
               "integer tensor like the first index");

  BEGIN(TT(F32, 10, 4), TS(I32), TS(I64), TT(F32, 2, 4));
  op = OP(&tb, DYNAMIC_SLICE, TT(F32, 2, 4), ARG(0), ARG(1));
  op->attrs.sizes = I64S(&tb, 2, 4);
  expect_error(&tb, op, "takes 3 operands, got 2");

  BEGIN(TT(F32, 10, 4), TS(I32), TS(I64), TT(F32, 2, 4));
  op = OP(&tb, DYNAMIC_UPDATE_SLICE, TT(F32, 2, 4), ARG(3), ARG(0), ARG(1),
          ARG(1));
  expect_error(&tb, op,
               "update type tensor<10x4xf32> does not fit in operand type "
               "tensor<2x4xf32>");
}

static grtc_top_t* concat_op(grtc_tb_t* tb, grtc_ttype_t result,
                             grtc_tvalue_t* lhs, grtc_tvalue_t* rhs,
                             int64_t dim) {
  grtc_top_t* op = OP(tb, CONCATENATE, result, lhs, rhs);
  op->attrs.dim = dim;
  return op;
}

static void test_concatenate(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 2, 3), TT(F32, 4, 3), TT(F32, 2, 2));
  concat_op(&tb, TT(F32, 6, 3), ARG(0), ARG(1), 0);
  grtc_top_t* op = concat_op(&tb, TT(F32, 2, 3), ARG(0), ARG(1), 0);
  expect_error(&tb, op,
               "result type tensor<2x3xf32> differs from the inferred "
               "tensor<6x3xf32>");

  BEGIN(TT(F32, 2, 3), TT(F32, 4, 3), TT(F32, 2, 2));
  op = concat_op(&tb, TT(F32, 4, 3), ARG(0), ARG(2), 0);
  expect_error(&tb, op,
               "operand types tensor<2x3xf32> and tensor<2x2xf32> differ "
               "outside dimension 0");

  BEGIN(TT(F32, 2, 3), TT(F32, 4, 3), TT(F32, 2, 2));
  op = concat_op(&tb, TT(F32, 4, 3), ARG(0), ARG(0), 2);
  expect_error(&tb, op, "dimension 2 is out of range for tensor<2x3xf32>");
}

// A PAD of |input| with |value| (rank 2, so each padding list is two entries).
static grtc_top_t* pad_op(grtc_tb_t* tb, grtc_tvalue_t* input,
                          grtc_tvalue_t* value, grtc_ttype_t result,
                          const int64_t low[2], const int64_t high[2],
                          const int64_t interior[2]) {
  grtc_top_t* op = OP(tb, PAD, result, input, value);
  op->attrs.low = grtc_tmodule_i64s(tb->module, low, 2);
  op->attrs.high = grtc_tmodule_i64s(tb->module, high, 2);
  op->attrs.interior = grtc_tmodule_i64s(tb->module, interior, 2);
  return op;
}

static void test_pad(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 3, 4), TS(F32), TS(I32));
  pad_op(&tb, ARG(0), ARG(1), TT(F32, 6, 2), (int64_t[]){1, -1},
         (int64_t[]){0, -1}, (int64_t[]){1, 0});
  expect_ok(&tb);

  static const struct {
    uint32_t value_arg;  // 1: an f32 scalar, 2: an i32 scalar
    int64_t result[2], low[2], high[2], interior[2];
    const char* error;
  } kErrors[] = {
      {1, {6, 2}, {1, -1}, {0, -1}, {-1, 0},
       "interior_padding[0] = -1 is negative"},
      {2, {3, 4}, {0, 0}, {0, 0}, {0, 0},
       "padding value element type i32 differs from f32"},
      {1, {3, 4}, {0, -3}, {0, -3}, {0, 0},
       "dimension 1 would have the negative size -2"},
  };
  for (size_t i = 0; i < sizeof(kErrors) / sizeof(kErrors[0]); ++i) {
    BEGIN(TT(F32, 3, 4), TS(F32), TS(I32));
    grtc_top_t* op =
        pad_op(&tb, ARG(0), ARG(kErrors[i].value_arg),
               grtc_tb_type(GRTC_ELEM_F32, 2, kErrors[i].result),
               kErrors[i].low, kErrors[i].high, kErrors[i].interior);
    expect_error(&tb, op, kErrors[i].error);
  }
}

static void test_reverse(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 3, 4));
  grtc_top_t* op = OP(&tb, REVERSE, TT(F32, 3, 4), ARG(0));
  op->attrs.dims = I64S(&tb, 1, 0);
  op = OP(&tb, REVERSE, TT(F32, 3, 4), ARG(0));
  op->attrs.dims = I64S(&tb, 1, 1);
  expect_error(&tb, op, "dimensions repeats dimension 1");
}

//===----------------------------------------------------------------------===//
// Contractions and reductions
//===----------------------------------------------------------------------===//

static grtc_top_t* batch_matmul(grtc_tb_t* tb, grtc_tvalue_t* lhs,
                                grtc_tvalue_t* rhs, grtc_ttype_t result) {
  grtc_top_t* op = OP(tb, DOT_GENERAL, result, lhs, rhs);
  op->attrs.dot.lhs_batch = I64S(tb, 0);
  op->attrs.dot.rhs_batch = I64S(tb, 0);
  op->attrs.dot.lhs_contracting = I64S(tb, 2);
  op->attrs.dot.rhs_contracting = I64S(tb, 1);
  return op;
}

static void test_dot_general(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 2, 3, 4), TT(F32, 2, 4, 5), TT(F32, 2, 5, 5), TT(BF16, 2, 4, 5));
  batch_matmul(&tb, ARG(0), ARG(1), TT(F32, 2, 3, 5));
  expect_ok(&tb);

  BEGIN(TT(F32, 2, 3, 4), TT(F32, 2, 4, 5), TT(F32, 2, 5, 5), TT(BF16, 2, 4, 5));
  grtc_top_t* op = batch_matmul(&tb, ARG(0), ARG(1), TT(F32, 2, 5, 3));
  expect_error(&tb, op,
               "result type tensor<2x5x3xf32> differs from the inferred "
               "tensor<2x3x5xf32>");

  BEGIN(TT(F32, 2, 3, 4), TT(F32, 2, 4, 5), TT(F32, 2, 5, 5), TT(BF16, 2, 4, 5));
  op = batch_matmul(&tb, ARG(0), ARG(2), TT(F32, 2, 3, 5));
  expect_error(&tb, op,
               "contracting dimension 2 of tensor<2x3x4xf32> (size 4) differs "
               "from rhs dimension 1 of tensor<2x5x5xf32> (size 5)");

  BEGIN(TT(F32, 2, 3, 4), TT(F32, 2, 4, 5), TT(F32, 2, 5, 5), TT(BF16, 2, 4, 5));
  op = batch_matmul(&tb, ARG(0), ARG(1), TT(F32, 2, 3, 5));
  op->attrs.dot.rhs_batch = I64S(&tb, 0, 2);
  expect_error(&tb, op, "has 1 lhs and 2 rhs batching dimensions");

  BEGIN(TT(F32, 2, 3, 4), TT(F32, 2, 4, 5), TT(F32, 2, 5, 5), TT(BF16, 2, 4, 5));
  op = batch_matmul(&tb, ARG(0), ARG(1), TT(F32, 2, 3, 5));
  op->attrs.dot.lhs_contracting = I64S(&tb, 0);
  expect_error(&tb, op, "lhs dimension 0 is both batching and contracting");

  BEGIN(TT(F32, 2, 3, 4), TT(F32, 2, 4, 5), TT(F32, 2, 5, 5), TT(BF16, 2, 4, 5));
  op = batch_matmul(&tb, ARG(0), ARG(3), TT(F32, 2, 3, 5));
  expect_error(&tb, op, "rhs element type bf16 differs from f32");
}

// NHWC input, HWIO kernel, NHWC output.
static grtc_top_t* conv_nhwc(grtc_tb_t* tb, grtc_tvalue_t* lhs,
                             grtc_tvalue_t* rhs, grtc_ttype_t result) {
  grtc_top_t* op = OP(tb, CONVOLUTION, result, lhs, rhs);
  grtc_conv_dims_t* c = &op->attrs.conv;
  c->input_batch = 0;
  c->input_feature = 3;
  c->input_spatial = I64S(tb, 1, 2);
  c->kernel_input_feature = 2;
  c->kernel_output_feature = 3;
  c->kernel_spatial = I64S(tb, 0, 1);
  c->output_batch = 0;
  c->output_feature = 3;
  c->output_spatial = I64S(tb, 1, 2);
  c->window_strides = I64S(tb, 2, 2);
  c->padding_low = I64S(tb, 1, 1);
  c->padding_high = I64S(tb, 1, 1);
  c->feature_group_count = 1;
  c->batch_group_count = 1;
  return op;
}

static void test_convolution(void** state) {
  grtc_tb_t tb;
  // 8x8 input, 3x3 window, stride 2, padding 1: (8 + 2 - 3) / 2 + 1 = 4.
  BEGIN(TT(F32, 1, 8, 8, 4), TT(F32, 3, 3, 4, 16), TT(F32, 3, 3, 1, 4));
  conv_nhwc(&tb, ARG(0), ARG(1), TT(F32, 1, 4, 4, 16));
  // Depthwise: feature_group_count 4, kernel input feature 1.
  grtc_top_t* op = conv_nhwc(&tb, ARG(0), ARG(2), TT(F32, 1, 4, 4, 4));
  op->attrs.conv.feature_group_count = 4;
  // Dilations: input dilated to 15, window to 5: (15 + 2 - 5) / 2 + 1 = 7.
  op = conv_nhwc(&tb, ARG(0), ARG(1), TT(F32, 1, 7, 7, 16));
  op->attrs.conv.lhs_dilation = I64S(&tb, 2, 2);
  op->attrs.conv.rhs_dilation = I64S(&tb, 2, 2);
  expect_ok(&tb);

  BEGIN(TT(F32, 1, 8, 8, 4), TT(F32, 3, 3, 4, 16), TT(F32, 3, 3, 1, 4));
  op = conv_nhwc(&tb, ARG(0), ARG(1), TT(F32, 1, 8, 8, 16));
  expect_error(&tb, op,
               "result type tensor<1x8x8x16xf32> differs from the inferred "
               "tensor<1x4x4x16xf32>");

  BEGIN(TT(F32, 1, 8, 8, 4), TT(F32, 3, 3, 4, 16), TT(F32, 3, 3, 1, 4));
  op = conv_nhwc(&tb, ARG(0), ARG(2), TT(F32, 1, 4, 4, 4));
  expect_error(&tb, op,
               "input feature size 4 divided by feature_group_count 1 differs "
               "from the kernel input feature size 1");

  BEGIN(TT(F32, 1, 8, 8, 4), TT(F32, 3, 3, 4, 16), TT(F32, 3, 3, 1, 4));
  op = conv_nhwc(&tb, ARG(0), ARG(1), TT(F32, 1, 4, 4, 16));
  op->attrs.conv.input_spatial = I64S(&tb, 1, 1);
  expect_error(&tb, op, "input dimensions repeats dimension 1");

  BEGIN(TT(F32, 1, 8, 8, 4), TT(F32, 3, 3, 4, 16), TT(F32, 3, 3, 1, 4));
  op = conv_nhwc(&tb, ARG(0), ARG(1), TT(F32, 1, 4, 4, 16));
  op->attrs.conv.window_strides = I64S(&tb, 0, 1);
  expect_error(&tb, op, "window_strides[0] = 0 is below 1");

  BEGIN(TT(F32, 1, 8, 8, 4), TT(F32, 3, 3, 4, 16), TT(F32, 3, 3, 1, 4));
  op = conv_nhwc(&tb, ARG(0), ARG(1), TT(F32, 1, 4, 4, 16));
  op->attrs.conv.batch_group_count = 2;
  op->attrs.conv.feature_group_count = 2;
  expect_error(&tb, op,
               "feature_group_count 2 and batch_group_count 2 must be "
               "positive and not both above 1");
}

static grtc_top_t* reduce_sum(grtc_tb_t* tb, grtc_tvalue_t* input,
                              grtc_tvalue_t* init, grtc_ttype_t result,
                              grtc_i64s_t dims) {
  grtc_tvalue_t* operands[2] = {input, init};
  grtc_top_t* op =
      grtc_tb_op(tb, GRTC_TOP_REDUCE, operands, 2, &result, 1, 1);
  op->attrs.dims = dims;
  grtc_tb_add_body(tb, op, 0, result.elem);
  return op;
}

static void test_reduce(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 4, 8), TS(F32), TS(I32), TT(F32, 1));
  reduce_sum(&tb, ARG(0), ARG(1), TT(F32, 4), I64S(&tb, 1));
  reduce_sum(&tb, ARG(0), ARG(1), TS(F32), I64S(&tb, 0, 1));
  expect_ok(&tb);

  BEGIN(TT(F32, 4, 8), TS(F32), TS(I32), TT(F32, 1));
  grtc_top_t* op = reduce_sum(&tb, ARG(0), ARG(1), TT(F32, 8), I64S(&tb, 1));
  expect_error(&tb, op,
               "result type tensor<8xf32> differs from the inferred "
               "tensor<4xf32>");

  BEGIN(TT(F32, 4, 8), TS(F32), TS(I32), TT(F32, 1));
  op = reduce_sum(&tb, ARG(0), ARG(3), TT(F32, 4), I64S(&tb, 1));
  expect_error(&tb, op,
               "init value must be a rank-0 tensor, got tensor<1xf32>");

  BEGIN(TT(F32, 4, 8), TS(F32), TS(I32), TT(F32, 1));
  op = reduce_sum(&tb, ARG(0), ARG(1), TT(F32, 4), I64S(&tb, 2));
  expect_error(&tb, op, "dimensions[0] = 2 is out of range [0, 2)");

  // A body over i32 while the input is f32.
  BEGIN(TT(F32, 4, 8), TS(F32), TS(I32), TT(F32, 1));
  grtc_tvalue_t* operands[2] = {ARG(0), ARG(1)};
  grtc_ttype_t result = TT(F32, 4);
  op = grtc_tb_op(&tb, GRTC_TOP_REDUCE, operands, 2, &result, 1, 1);
  op->attrs.dims = I64S(&tb, 1);
  grtc_tb_add_body(&tb, op, 0, GRTC_ELEM_I32);
  expect_error(&tb, op,
               "body argument 0 has type tensor<i32>, expected tensor<f32>");

  // A body yielding two values.
  BEGIN(TT(F32, 4, 8), TS(F32), TS(I32), TT(F32, 1));
  operands[0] = ARG(0);
  operands[1] = ARG(1);
  op = grtc_tb_op(&tb, GRTC_TOP_REDUCE, operands, 2, &result, 1, 1);
  op->attrs.dims = I64S(&tb, 1);
  grtc_ttype_t scalars[2] = {TS(F32), TS(F32)};
  grtc_tblock_t* body = grtc_tb_begin_region(&tb, op, 0, scalars, 2);
  OPN(&tb, YIELD, &body->args[0], &body->args[1]);
  grtc_tb_end_region(&tb);
  expect_error(&tb, op, "body yields 2 values, expected 1");

  // A body without a terminator.
  BEGIN(TT(F32, 4, 8), TS(F32), TS(I32), TT(F32, 1));
  operands[0] = ARG(0);
  operands[1] = ARG(1);
  op = grtc_tb_op(&tb, GRTC_TOP_REDUCE, operands, 2, &result, 1, 1);
  op->attrs.dims = I64S(&tb, 1);
  grtc_tb_begin_region(&tb, op, 0, scalars, 2);
  grtc_tb_end_region(&tb);
  expect_error(&tb, op, "body does not end in stablehlo.return");

  // Odd operand count.
  BEGIN(TT(F32, 4, 8), TS(F32), TS(I32), TT(F32, 1));
  operands[0] = ARG(0);
  operands[1] = ARG(1);
  op = grtc_tb_op(&tb, GRTC_TOP_REDUCE, operands, 1, &result, 1, 0);
  expect_error(&tb, op, "takes N inputs and N init values, got 1 operands");

  // No body at all: a region slot left empty, or no region.
  BEGIN(TT(F32, 4, 8), TS(F32), TS(I32), TT(F32, 1));
  operands[0] = ARG(0);
  operands[1] = ARG(1);
  op = grtc_tb_op(&tb, GRTC_TOP_REDUCE, operands, 2, &result, 1, 1);
  expect_error(&tb, op, "region 0 is missing");
  BEGIN(TT(F32, 4, 8), TS(F32), TS(I32), TT(F32, 1));
  operands[0] = ARG(0);
  operands[1] = ARG(1);
  op = grtc_tb_op(&tb, GRTC_TOP_REDUCE, operands, 2, &result, 1, 0);
  op->attrs.dims = I64S(&tb, 1);
  expect_error(&tb, op, "lacks its body region");
}

static void test_reduce_window(void** state) {
  grtc_tb_t tb;
  // 2x2 max-pool-like window, stride 2, on 1x6x6x3: 1x3x3x3.
  BEGIN(TT(F32, 1, 6, 6, 3), TS(F32));
  grtc_tvalue_t* operands[2] = {ARG(0), ARG(1)};
  grtc_ttype_t result = TT(F32, 1, 3, 3, 3);
  grtc_top_t* op =
      grtc_tb_op(&tb, GRTC_TOP_REDUCE_WINDOW, operands, 2, &result, 1, 1);
  op->attrs.window.dimensions = I64S(&tb, 1, 2, 2, 1);
  op->attrs.window.strides = I64S(&tb, 1, 2, 2, 1);
  grtc_tb_add_body(&tb, op, 0, GRTC_ELEM_F32);
  // Padding 1 and window dilation 2: (6 + 2 - 3) / 1 + 1 = 6.
  result = TT(F32, 1, 6, 6, 3);
  op = grtc_tb_op(&tb, GRTC_TOP_REDUCE_WINDOW, operands, 2, &result, 1, 1);
  op->attrs.window.dimensions = I64S(&tb, 1, 2, 2, 1);
  op->attrs.window.window_dilations = I64S(&tb, 1, 2, 2, 1);
  op->attrs.window.padding_low = I64S(&tb, 0, 1, 1, 0);
  op->attrs.window.padding_high = I64S(&tb, 0, 1, 1, 0);
  grtc_tb_add_body(&tb, op, 0, GRTC_ELEM_F32);
  expect_ok(&tb);

  BEGIN(TT(F32, 1, 6, 6, 3), TS(F32));
  operands[0] = ARG(0);
  operands[1] = ARG(1);
  result = TT(F32, 1, 5, 5, 3);
  op = grtc_tb_op(&tb, GRTC_TOP_REDUCE_WINDOW, operands, 2, &result, 1, 1);
  op->attrs.window.dimensions = I64S(&tb, 1, 2, 2, 1);
  op->attrs.window.strides = I64S(&tb, 1, 2, 2, 1);
  grtc_tb_add_body(&tb, op, 0, GRTC_ELEM_F32);
  expect_error(&tb, op,
               "result type tensor<1x5x5x3xf32> differs from the inferred "
               "tensor<1x3x3x3xf32>");

  BEGIN(TT(F32, 1, 6, 6, 3), TS(F32));
  operands[0] = ARG(0);
  operands[1] = ARG(1);
  op = grtc_tb_op(&tb, GRTC_TOP_REDUCE_WINDOW, operands, 2, &result, 1, 1);
  op->attrs.window.dimensions = I64S(&tb, 2, 2);
  grtc_tb_add_body(&tb, op, 0, GRTC_ELEM_F32);
  expect_error(&tb, op,
               "window_dimensions has 2 entries, expected 4 (the operand's "
               "rank)");
}

//===----------------------------------------------------------------------===//
// Gather, scatter, sort
//===----------------------------------------------------------------------===//

// JAX's x[idx] for x: 5x3, idx: 2x1 -> 2x3.
static grtc_top_t* gather_rows(grtc_tb_t* tb, grtc_tvalue_t* operand,
                               grtc_tvalue_t* indices, grtc_ttype_t result) {
  grtc_top_t* op = OP(tb, GATHER, result, operand, indices);
  grtc_gather_dims_t* g = &op->attrs.gather;
  g->offset_dims = I64S(tb, 1);
  g->collapsed_slice_dims = I64S(tb, 0);
  g->start_index_map = I64S(tb, 0);
  g->index_vector_dim = 1;
  g->slice_sizes = I64S(tb, 1, 3);
  return op;
}

static void test_gather(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1), TT(F32, 2, 5, 3), TT(I32, 2, 4, 1));
  gather_rows(&tb, ARG(0), ARG(1), TT(F32, 2, 3));
  // Batching: operand 2x5x3 and indices 2x4x1 batched on dim 0 -> 2x4x3.
  grtc_top_t* op = OP(&tb, GATHER, TT(F32, 2, 4, 3), ARG(2), ARG(3));
  grtc_gather_dims_t* g = &op->attrs.gather;
  g->offset_dims = I64S(&tb, 2);
  g->collapsed_slice_dims = I64S(&tb, 1);
  g->operand_batching_dims = I64S(&tb, 0);
  g->start_indices_batching_dims = I64S(&tb, 0);
  g->start_index_map = I64S(&tb, 1);
  g->index_vector_dim = 2;
  g->slice_sizes = I64S(&tb, 1, 1, 3);
  expect_ok(&tb);

  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1), TT(F32, 2, 5, 3), TT(I32, 2, 4, 1));
  op = gather_rows(&tb, ARG(0), ARG(1), TT(F32, 3, 2));
  expect_error(&tb, op,
               "result type tensor<3x2xf32> differs from the inferred "
               "tensor<2x3xf32>");

  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1), TT(F32, 2, 5, 3), TT(I32, 2, 4, 1));
  op = gather_rows(&tb, ARG(0), ARG(1), TT(F32, 2, 3));
  op->attrs.gather.slice_sizes = I64S(&tb, 2, 3);
  expect_error(&tb, op, "slice_sizes[0] = 2 is out of range for tensor<5x3xf32>");

  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1), TT(F32, 2, 5, 3), TT(I32, 2, 4, 1));
  op = gather_rows(&tb, ARG(0), ARG(1), TT(F32, 2, 3));
  op->attrs.gather.start_index_map = I64S(&tb, 0, 1);
  expect_error(&tb, op,
               "index vector of tensor<2x1xi32> has 1 entries but 2 operand "
               "dimensions are mapped");

  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1), TT(F32, 2, 5, 3), TT(I32, 2, 4, 1));
  op = gather_rows(&tb, ARG(0), ARG(1), TT(F32, 2, 3));
  op->attrs.gather.offset_dims = I64S(&tb, 0, 1);
  expect_error(&tb, op,
               "offset_dims has 2 entries, expected 1 (operand rank minus "
               "collapsed and batching dimensions)");
}

// JAX's x.at[idx].add(u) for x: 5x3, idx: 2x1, u: 2x3.
static grtc_top_t* scatter_rows(grtc_tb_t* tb, grtc_tvalue_t* input,
                                grtc_tvalue_t* indices,
                                grtc_tvalue_t* updates) {
  grtc_tvalue_t* operands[3] = {input, indices, updates};
  grtc_top_t* op = grtc_tb_op(tb, GRTC_TOP_SCATTER, operands, 3,
                              &input->type, 1, 1);
  grtc_scatter_dims_t* s = &op->attrs.scatter;
  s->update_window_dims = I64S(tb, 1);
  s->inserted_window_dims = I64S(tb, 0);
  s->scatter_dims_to_operand_dims = I64S(tb, 0);
  s->index_vector_dim = 1;
  grtc_tb_add_body(tb, op, 0, input->type.elem);
  return op;
}

static void test_scatter(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1), TT(F32, 2, 3), TT(F32, 3, 3),
        TT(F32, 2, 4));
  scatter_rows(&tb, ARG(0), ARG(1), ARG(2));
  expect_ok(&tb);

  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1), TT(F32, 2, 3), TT(F32, 3, 3),
        TT(F32, 2, 4));
  grtc_top_t* op = scatter_rows(&tb, ARG(0), ARG(1), ARG(3));
  expect_error(&tb, op,
               "updates dimension 0 (size 3) differs from the indices' 2 in "
               "tensor<2x1xi32>");

  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1), TT(F32, 2, 3), TT(F32, 3, 3),
        TT(F32, 2, 4));
  op = scatter_rows(&tb, ARG(0), ARG(1), ARG(4));
  expect_error(&tb, op,
               "updates dimension 1 (size 4) exceeds 3 of tensor<5x3xf32>");

  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1), TT(F32, 2, 3), TT(F32, 3, 3),
        TT(F32, 2, 4));
  op = scatter_rows(&tb, ARG(0), ARG(1), ARG(2));
  op->results[0].type = TT(F32, 2, 3);
  expect_error(&tb, op,
               "result type tensor<2x3xf32> differs from the inferred "
               "tensor<5x3xf32>");

  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1), TT(F32, 2, 3), TT(F32, 3, 3),
        TT(F32, 2, 4));
  // Row 0 both inserted and batched (indices 5x1 batched with the input).
  grtc_top_t* rows = CI(&tb, TT(I32, 5, 1), 0, 0, 0, 0, 0);
  grtc_top_t* updates = CF(&tb, TT(F32, 5), 1);
  op = scatter_rows(&tb, ARG(0), R(rows), R(updates));
  op->attrs.scatter.update_window_dims = (grtc_i64s_t){0, NULL};
  op->attrs.scatter.input_batching_dims = I64S(&tb, 0);
  op->attrs.scatter.scatter_indices_batching_dims = I64S(&tb, 0);
  op->attrs.scatter.scatter_dims_to_operand_dims = I64S(&tb, 1);
  expect_error(&tb, op, "dimension 0 is both inserted and batching");

  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1), TT(F32, 2, 3), TT(F32, 3, 3),
        TT(F32, 2, 4));
  grtc_tvalue_t* operands[3] = {ARG(0), ARG(1), ARG(2)};
  op = grtc_tb_op(&tb, GRTC_TOP_SCATTER, operands, 3, &ARG(0)->type, 1, 1);
  op->attrs.scatter = scatter_rows(&tb, ARG(0), ARG(1), ARG(2))->attrs.scatter;
  grtc_tb_add_body(&tb, op, 0, GRTC_ELEM_I32);
  expect_error(&tb, op,
               "update computation argument 0 has type tensor<i32>, expected "
               "tensor<f32>");
}

static grtc_top_t* sort_op(grtc_tb_t* tb, grtc_tvalue_t* input,
                           grtc_elem_t yield_elem) {
  grtc_top_t* op =
      grtc_tb_op(tb, GRTC_TOP_SORT, &input, 1, &input->type, 1, 1);
  op->attrs.dim = -1;
  grtc_ttype_t scalar = grtc_tb_type(input->type.elem, 0, NULL);
  grtc_ttype_t args[2] = {scalar, scalar};
  grtc_tblock_t* body = grtc_tb_begin_region(tb, op, 0, args, 2);
  grtc_top_t* cmp = OP(tb, COMPARE, TS(I1), &body->args[0], &body->args[1]);
  cmp->attrs.compare_direction = GRTC_CMP_LT;
  grtc_tvalue_t* yielded = R(cmp);
  if (yield_elem != GRTC_ELEM_I1) yielded = &body->args[0];
  OPN(tb, YIELD, yielded);
  grtc_tb_end_region(tb);
  return op;
}

static void test_sort(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 3, 4));
  sort_op(&tb, ARG(0), GRTC_ELEM_I1);
  expect_ok(&tb);

  BEGIN(TT(F32, 3, 4));
  grtc_top_t* op = sort_op(&tb, ARG(0), GRTC_ELEM_F32);
  expect_error(&tb, op,
               "comparator yields tensor<f32> as value 0, expected "
               "tensor<i1>");

  BEGIN(TT(F32, 3, 4));
  op = sort_op(&tb, ARG(0), GRTC_ELEM_I1);
  op->attrs.dim = 2;
  expect_error(&tb, op, "dimension 2 is out of range for tensor<3x4xf32>");
}

//===----------------------------------------------------------------------===//
// Control flow, calls, returns, checks
//===----------------------------------------------------------------------===//

// while (x < 10) x = x + x, on a tensor<i32> carried value; the condition
// yields |cond_elem|.
static grtc_top_t* while_op(grtc_tb_t* tb, grtc_tvalue_t* x,
                            grtc_elem_t cond_elem) {
  grtc_top_t* op = grtc_tb_op(tb, GRTC_TOP_WHILE, &x, 1, &x->type, 1, 2);
  grtc_tblock_t* cond = grtc_tb_begin_region(tb, op, 0, &x->type, 1);
  grtc_top_t* ten = CI(tb, TS(I32), 10);
  grtc_top_t* cmp = OP(tb, COMPARE, TS(I1), &cond->args[0], R(ten));
  cmp->attrs.compare_direction = GRTC_CMP_LT;
  OPN(tb, YIELD, cond_elem == GRTC_ELEM_I1 ? R(cmp) : &cond->args[0]);
  grtc_tb_end_region(tb);
  grtc_tblock_t* body = grtc_tb_begin_region(tb, op, 1, &x->type, 1);
  grtc_top_t* sum = OP(tb, ADD, TS(I32), &body->args[0], &body->args[0]);
  OPN(tb, YIELD, R(sum));
  grtc_tb_end_region(tb);
  return op;
}

static void test_while(void** state) {
  grtc_tb_t tb;
  BEGIN(TS(I32));
  while_op(&tb, ARG(0), GRTC_ELEM_I1);
  expect_ok(&tb);

  BEGIN(TS(I32));
  grtc_top_t* op = while_op(&tb, ARG(0), GRTC_ELEM_I32);
  expect_error(&tb, op,
               "cond yields tensor<i32> as value 0, expected tensor<i1>");

  BEGIN(TS(I32));
  op = while_op(&tb, ARG(0), GRTC_ELEM_I1);
  op->results[0].type = TS(F32);
  expect_error(&tb, op,
               "result type tensor<f32> differs from the inferred "
               "tensor<i32>");
}

// if (pred) yield a else yield b.
static grtc_top_t* if_op(grtc_tb_t* tb, grtc_tvalue_t* pred, grtc_tvalue_t* a,
                         grtc_tvalue_t* b) {
  grtc_top_t* op = grtc_tb_op(tb, GRTC_TOP_IF, &pred, 1, &a->type, 1, 2);
  grtc_tb_begin_region(tb, op, 0, NULL, 0);
  OPN(tb, YIELD, a);
  grtc_tb_end_region(tb);
  grtc_tb_begin_region(tb, op, 1, NULL, 0);
  OPN(tb, YIELD, b);
  grtc_tb_end_region(tb);
  return op;
}

static void test_if_and_case(void** state) {
  grtc_tb_t tb;
  BEGIN(TS(I1), TT(F32, 2), TT(F32, 3), TS(I32));
  if_op(&tb, ARG(0), ARG(1), ARG(1));
  expect_ok(&tb);

  BEGIN(TS(I1), TT(F32, 2), TT(F32, 3), TS(I32));
  grtc_top_t* op = if_op(&tb, ARG(0), ARG(1), ARG(2));
  expect_error(&tb, op,
               "branch 1 yields tensor<3xf32> as value 0, expected "
               "tensor<2xf32>");

  BEGIN(TS(I1), TT(F32, 2), TT(F32, 3), TS(I32));
  op = if_op(&tb, ARG(3), ARG(1), ARG(1));
  expect_error(&tb, op, "predicate type tensor<i32> is not tensor<i1>");

  BEGIN(TS(I1), TT(F32, 2), TT(F32, 3), TS(I32));
  op = if_op(&tb, ARG(3), ARG(1), ARG(1));
  op->kind = GRTC_TOP_CASE;
  expect_ok(&tb);

  BEGIN(TS(I1), TT(F32, 2), TT(F32, 3), TS(I32));
  op = if_op(&tb, ARG(0), ARG(1), ARG(1));
  op->kind = GRTC_TOP_CASE;
  expect_error(&tb, op, "index type tensor<i1> is not tensor<i32>");
}

static void test_call(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 4), TT(I32, 4));
  grtc_ttype_t callee_args[1] = {TT(F32, 4)};
  grtc_ttype_t callee_results[1] = {TT(F32, 4)};
  grtc_tfunc_t* callee = NULL;
  GRT_EXPECT_OK(grtc_tfunc_create(tb.module, grt_make_cstring_view("f"),
                                  callee_args, 1, callee_results, 1, &callee));
  grtc_tblock_t* main_block = tb.block;
  tb.block = callee->body;
  OPN(&tb, RETURN, &callee->body->args[0]);
  tb.block = main_block;
  grtc_top_t* op = OP(&tb, CALL, TT(F32, 4), ARG(0));
  op->attrs.callee = callee;
  op = OP(&tb, CALL, TT(F32, 4), ARG(1));
  op->attrs.callee = callee;
  expect_error(&tb, op,
               "operand 0 has type tensor<4xi32>, @f has tensor<4xf32>");
}

static void test_return(void** state) {
  grtc_tb_t tb;
  grtc_ttype_t types[2] = {TT(F32, 4), TT(I32, 4)};
  grtc_tb_init(&tb, types, 2, types, 1);
  OPN(&tb, RETURN, ARG(0));
  GRT_EXPECT_OK(grtc_tensor_verify(tb.module));
  grtc_tb_deinit(&tb);

  grtc_tb_init(&tb, types, 2, types, 1);
  grtc_top_t* op = OPN(&tb, RETURN, ARG(1));
  grtc_tb_expect_error(grtc_tensor_verify(tb.module), op,
                       "operand 0 has type tensor<4xi32>, @main has "
                       "tensor<4xf32>");
  grtc_tb_deinit(&tb);

  grtc_tb_init(&tb, types, 2, types, 1);
  op = OPN(&tb, RETURN, ARG(0), ARG(1));
  grtc_tb_expect_error(grtc_tensor_verify(tb.module), op,
                       "has 2 operands, @main has 1");
  grtc_tb_deinit(&tb);

  grtc_tb_init(&tb, types, 2, types, 1);
  op = OPN(&tb, RETURN, ARG(0));
  OPN(&tb, RETURN, ARG(0));
  grtc_tb_expect_error(grtc_tensor_verify(tb.module), op,
                       "must be the last op of its block");
  grtc_tb_deinit(&tb);

  grtc_tb_init(&tb, types, 2, types, 1);
  OP(&tb, NEGATE, TT(F32, 4), ARG(0));
  grt_expect_error(grtc_tensor_verify(tb.module), GRT_STATUS_INVALID_ARGUMENT,
                   "t.mlir:1:1: error: function @main does not end in "
                   "func.return");
  grtc_tb_deinit(&tb);
}

// Diagnostics name the loc(...) position when there is one.
static void test_locations(void** state) {
  grtc_location_t loc;
  memset(&loc, 0, sizeof(loc));
  loc.kind = GRTC_LOC_FILE;
  loc.text = grt_make_cstring_view("model.py");
  loc.line = 7;
  loc.column = 3;
  grtc_tb_t tb;
  BEGIN(TT(F32, 4), TT(F32, 3));
  grtc_top_t* op = OP(&tb, ADD, TT(F32, 4), ARG(0), ARG(1));
  op->location = &loc;
  grtc_tb_return_none(&tb);
  grt_expect_error(grtc_tensor_verify(tb.module), GRT_STATUS_INVALID_ARGUMENT,
                   "model.py:7:3: error: 'stablehlo.add' operand types");
  grtc_tb_deinit(&tb);

  BEGIN(TT(F32, 4));
  tb.func->location = &loc;
  grt_expect_error(grtc_tensor_verify(tb.module), GRT_STATUS_INVALID_ARGUMENT,
                   "model.py:7:3: error: function @main does not end in "
                   "func.return");
  grtc_tb_deinit(&tb);
}

static void test_yield_outside_region(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 4));
  grtc_top_t* op = OPN(&tb, YIELD, ARG(0));
  expect_error(&tb, op, "must be the last op of its block");

  BEGIN(TT(F32, 4));
  op = OPN(&tb, YIELD, ARG(0));
  // Not a terminator problem: the function's last op is the yield.
  grtc_tb_expect_error(grtc_tensor_verify(tb.module), op,
                       "is only valid inside an op's region");
  grtc_tb_deinit(&tb);
}

static void test_return_inside_region(void** state) {
  grtc_tb_t tb;
  BEGIN(TS(I1), TT(F32, 2));
  grtc_top_t* op = if_op(&tb, ARG(0), ARG(1), ARG(1));
  grtc_top_t* inner = op->regions[0]->last;
  inner->kind = GRTC_TOP_RETURN;
  expect_error(&tb, inner, "is only valid in a function body");
}

static void test_checks(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 4), TT(F32, 3), TS(I1), TS(F32), TT(I32, 4));
  OPN(&tb, CHECK_EQ, ARG(0), ARG(0));
  OPN(&tb, CHECK_ALMOST_EQ, ARG(0), ARG(0));
  OPN(&tb, CHECK_TRUE, ARG(2));
  OPN(&tb, CHECK_FALSE, ARG(2));
  expect_ok(&tb);

  BEGIN(TT(F32, 4), TT(F32, 3), TS(I1), TS(F32), TT(I32, 4));
  grtc_top_t* op = OPN(&tb, CHECK_EQ, ARG(0), ARG(1));
  expect_error(&tb, op, "operand types tensor<4xf32> and tensor<3xf32> differ");

  BEGIN(TT(F32, 4), TT(F32, 3), TS(I1), TS(F32), TT(I32, 4));
  op = OPN(&tb, CHECK_TRUE, ARG(3));
  expect_error(&tb, op,
               "takes a rank-0 integer or i1 tensor, got tensor<f32>");

  BEGIN(TT(F32, 4), TT(F32, 3), TS(I1), TS(F32), TT(I32, 4));
  op = OPN(&tb, CHECK_ALMOST_EQ, ARG(4), ARG(4));
  expect_error(&tb, op, "compares floats, got tensor<4xi32>");

  BEGIN(TT(F32, 4), TT(F32, 3), TS(I1), TS(F32), TT(I32, 4));
  op = OPN(&tb, CHECK_CLOSE, ARG(4), ARG(4));
  expect_error(&tb, op, "compares floats, got tensor<4xi32>");
}

static void test_dispatch_and_barrier(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 4), TT(I32, 4));
  grtc_top_t* op = OP(&tb, DISPATCH, TT(F32, 4), ARG(0), ARG(1));
  op->attrs.tied = true;
  op->attrs.tied_operand = 0;
  grtc_ttype_t types[2] = {TT(F32, 4), TT(I32, 4)};
  grtc_tvalue_t* operands[2] = {ARG(0), ARG(1)};
  grtc_tb_op(&tb, GRTC_TOP_OPTIMIZATION_BARRIER, operands, 2, types, 2, 0);
  expect_ok(&tb);

  BEGIN(TT(F32, 4), TT(I32, 4));
  operands[0] = ARG(0);
  operands[1] = ARG(1);
  op = OP(&tb, DISPATCH, TT(F32, 4), ARG(0), ARG(1));
  op->attrs.tied = true;
  op->attrs.tied_operand = 1;
  expect_error(&tb, op, "ties result 0 to operand 1 of another type");

  BEGIN(TT(F32, 4), TT(I32, 4));
  operands[0] = ARG(0);
  operands[1] = ARG(1);
  grtc_ttype_t swapped[2] = {TT(I32, 4), TT(F32, 4)};
  op = grtc_tb_op(&tb, GRTC_TOP_OPTIMIZATION_BARRIER, operands, 2, swapped, 2,
                  0);
  expect_error(&tb, op,
               "result 0 type tensor<4xi32> differs from the inferred "
               "tensor<4xf32>");
}

//===----------------------------------------------------------------------===//
// The remaining rules, one case each
//===----------------------------------------------------------------------===//

static void test_generic_rules(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 4));
  grtc_top_t* op = grtc_tb_op(&tb, GRTC_TOP_CONCATENATE, NULL, 0,
                              (grtc_ttype_t[]){TT(F32, 4)}, 1, 0);
  expect_error(&tb, op, "takes at least 1 operands, got 0");

  BEGIN(TT(F32, 4));
  op = OP(&tb, NEGATE, TT(F32, 4), ARG(0));
  op->kind = GRTC_TOP_COUNT;
  expect_error(&tb, op, "has the unknown kind");

  BEGIN(TT(F32, 4));
  op = OP(&tb, NEGATE, TT(F32, 4), ARG(0));
  op->operands[0] = NULL;
  expect_error(&tb, op, "operand 0 is missing");

  BEGIN(TT(F32, 4));
  grtc_ttype_t two[2] = {TT(F32, 4), TT(F32, 4)};
  grtc_tvalue_t* one = ARG(0);
  op = grtc_tb_op(&tb, GRTC_TOP_OPTIMIZATION_BARRIER, &one, 1, two, 2, 0);
  expect_error(&tb, op, "has 2 results, expected 1");

  BEGIN(TT(F32, 1, 1, 1, 1, 1, 1, 1, 1));
  op = OP(&tb, BITCAST_CONVERT, TT(I8, 1, 1, 1, 1, 1, 1, 1, 1), ARG(0));
  expect_error(&tb, op, "result would exceed rank 8");
}

static void test_more_contraction_rules(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 2, 3, 4), TT(F32, 2, 4, 5), TT(F32, 1, 1, 1, 1, 1));
  grtc_top_t* op = batch_matmul(&tb, ARG(0), ARG(1), TT(F32, 2, 3, 5));
  op->attrs.dot.rhs_contracting = I64S(&tb, 1, 2);
  expect_error(&tb, op, "has 1 lhs and 2 rhs contracting dimensions");

  BEGIN(TT(F32, 2, 3, 4), TT(F32, 2, 4, 5), TT(F32, 1, 1, 1, 1, 1));
  op = OP(&tb, DOT_GENERAL, TT(F32, 1), ARG(2), ARG(2));
  expect_error(&tb, op, "result would exceed rank 8");

  BEGIN(TT(F32, 1, 8, 8, 4), TT(F32, 3, 3, 4), TT(F32, 3, 3, 1, 6));
  op = conv_nhwc(&tb, ARG(0), ARG(1), TT(F32, 1, 4, 4, 16));
  expect_error(&tb, op, "operand and result ranks differ or are below 2");

  BEGIN(TT(F32, 1, 8, 8, 4), TT(F32, 3, 3, 4), TT(F32, 3, 3, 1, 6));
  op = conv_nhwc(&tb, ARG(0), ARG(2), TT(F32, 1, 4, 4, 6));
  op->attrs.conv.feature_group_count = 4;
  expect_error(&tb, op,
               "kernel output feature size 6 or input batch size 1 is not "
               "divisible by the group counts (4, 1)");

  BEGIN(TT(F32, 1, 8, 8, 4), TT(F32, 3, 3, 4, 16));
  op = conv_nhwc(&tb, ARG(0), ARG(1), TT(F32, 1, 4, 4, 16));
  op->attrs.conv.window_strides = I64S(&tb, 2);
  expect_error(&tb, op, "window_strides has 1 entries, expected 2");

  BEGIN(TT(F32, 1, 8, 8, 4), TT(F32, 3, 3, 4, 16));
  op = conv_nhwc(&tb, ARG(0), ARG(1), TT(F32, 1, 4, 4, 16));
  op->attrs.conv.input_spatial = I64S(&tb, 1);
  expect_error(&tb, op,
               "input dimensions has 1 spatial dimensions, expected 2");
}

static void test_more_reduce_rules(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 4, 8), TT(I32, 4, 4), TS(F32), TS(I32), TT(F32, 4));
  grtc_tvalue_t* operands[4] = {ARG(0), ARG(1), ARG(2), ARG(3)};
  grtc_ttype_t results[2] = {TT(F32, 4), TT(I32, 4)};
  grtc_top_t* op =
      grtc_tb_op(&tb, GRTC_TOP_REDUCE, operands, 4, results, 2, 0);
  expect_error(&tb, op,
               "input types tensor<4x8xf32> and tensor<4x4xi32> differ in "
               "shape");

  BEGIN(TT(F32, 4, 8), TT(I32, 4, 4), TS(F32), TS(I32), TT(F32, 4));
  operands[0] = ARG(0);
  operands[1] = ARG(2);
  op = grtc_tb_op(&tb, GRTC_TOP_REDUCE, operands, 2, results, 2, 0);
  expect_error(&tb, op, "has 2 results, expected 1");

  BEGIN(TT(F32, 4, 8), TT(I32, 4, 4), TS(F32), TS(I32), TT(F32, 4));
  operands[0] = ARG(0);
  operands[1] = ARG(2);
  op = grtc_tb_op(&tb, GRTC_TOP_REDUCE, operands, 2, results, 1, 1);
  op->attrs.dims = I64S(&tb, 1);
  grtc_ttype_t three[3] = {TS(F32), TS(F32), TS(F32)};
  grtc_tblock_t* body = grtc_tb_begin_region(&tb, op, 0, three, 3);
  OPN(&tb, YIELD, &body->args[0]);
  grtc_tb_end_region(&tb);
  expect_error(&tb, op, "body takes 3 arguments, expected 2");

  BEGIN(TT(F32, 4, 8), TT(I32, 4, 4), TS(F32), TS(I32), TT(F32, 4));
  op = OP(&tb, PAD, TT(F32, 4, 8), ARG(0), ARG(4));
  expect_error(&tb, op,
               "padding value must be a rank-0 tensor, got tensor<4xf32>");
}

static void test_more_gather_rules(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 5, 3), TT(F32, 2, 1));
  grtc_top_t* op = gather_rows(&tb, ARG(0), ARG(1), TT(F32, 2, 3));
  expect_error(&tb, op, "indices type tensor<2x1xf32> is not an integer tensor");

  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1));
  op = gather_rows(&tb, ARG(0), ARG(1), TT(F32, 2, 3));
  op->attrs.gather.index_vector_dim = 3;
  expect_error(&tb, op, "index_vector_dim 3 is out of range [0, 2]");

  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1));
  op = gather_rows(&tb, ARG(0), ARG(1), TT(F32, 2, 3));
  op->attrs.gather.offset_dims = I64S(&tb, 1, 0);
  expect_error(&tb, op, "offset_dims must be increasing");

  // Batched forms: operand 2x5x3 with indices |indices| on dim 0.
  const grtc_ttype_t indices[5] = {TT(I32, 2, 4, 1), TT(I32, 3, 4, 1),
                                   TT(I32, 2, 4, 1), TT(I32, 2, 4, 1),
                                   TT(I32, 2, 4, 1)};
  const char* messages[5] = {
      "index map names batching dimension 0",
      ("batching dimension 0 sizes differ in tensor<2x5x3xf32> and "
       "tensor<3x4x1xi32>"),
      "index_vector_dim 2 is a batching dimension",
      "has 1 operand and 0 indices batching dimensions",
      "dimension 0 is both collapsed and batching",
  };
  for (int i = 0; i < 5; ++i) {
    BEGIN(TT(F32, 2, 5, 3), indices[i]);
    op = OP(&tb, GATHER, TT(F32, 2, 4, 3), ARG(0), ARG(1));
    grtc_gather_dims_t* g = &op->attrs.gather;
    g->offset_dims = I64S(&tb, 2);
    g->collapsed_slice_dims = I64S(&tb, 1);
    g->operand_batching_dims = I64S(&tb, 0);
    g->start_indices_batching_dims = I64S(&tb, 0);
    g->start_index_map = I64S(&tb, 1);
    g->index_vector_dim = 2;
    g->slice_sizes = I64S(&tb, 1, 1, 3);
    switch (i) {
      case 0: g->start_index_map = I64S(&tb, 0); break;
      case 2: g->start_indices_batching_dims = I64S(&tb, 2); break;
      case 3: g->start_indices_batching_dims = (grtc_i64s_t){0, NULL}; break;
      case 4: g->collapsed_slice_dims = I64S(&tb, 0, 1); break;
      default: break;
    }
    expect_error(&tb, op, messages[i]);
  }
}

static void test_more_scatter_sort_rules(void** state) {
  grtc_tb_t tb;
  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1), TT(F32, 2, 3), TT(F32, 2, 3, 1),
        TT(F32, 4, 3));
  grtc_tvalue_t* operands[5] = {ARG(0), ARG(1)};
  grtc_top_t* op =
      grtc_tb_op(&tb, GRTC_TOP_SCATTER, operands, 2, &ARG(0)->type, 1, 0);
  expect_error(&tb, op,
               "takes N inputs, the indices and N updates, got 2 operands");

  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1), TT(F32, 2, 3), TT(F32, 2, 3, 1),
        TT(F32, 4, 3));
  op = scatter_rows(&tb, ARG(0), ARG(1), ARG(2));
  op->result_count = 0;
  expect_error(&tb, op, "has 0 results, expected 1");

  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1), TT(F32, 2, 3), TT(F32, 2, 3, 1),
        TT(F32, 4, 3));
  op = scatter_rows(&tb, ARG(0), ARG(1), ARG(3));
  expect_error(&tb, op,
               "updates type tensor<2x3x1xf32> has rank 3, expected 1 window "
               "plus 1 scatter dimensions");

  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1), TT(F32, 2, 3), TT(F32, 2, 3, 1),
        TT(F32, 4, 3));
  op = scatter_rows(&tb, ARG(0), ARG(1), ARG(2));
  op->attrs.scatter.inserted_window_dims = (grtc_i64s_t){0, NULL};
  expect_error(&tb, op,
               "update_window_dims, inserted_window_dims and input batching "
               "dims do not cover the 2 dimensions of tensor<5x3xf32>");

  // Two inputs of different shapes.
  BEGIN(TT(F32, 5, 3), TT(I32, 2, 1), TT(F32, 2, 3), TT(F32, 2, 3, 1),
        TT(F32, 4, 3));
  operands[0] = ARG(0);
  operands[1] = ARG(4);
  operands[2] = ARG(1);
  operands[3] = ARG(2);
  operands[4] = ARG(2);
  grtc_ttype_t results[2] = {TT(F32, 5, 3), TT(F32, 4, 3)};
  op = grtc_tb_op(&tb, GRTC_TOP_SCATTER, operands, 5, results, 2, 0);
  expect_error(&tb, op,
               "input 1 (tensor<4x3xf32>) or its updates (tensor<2x3xf32>) "
               "differ from the first");

  BEGIN(TT(F32, 3, 4), TT(I32, 4));
  operands[0] = ARG(0);
  operands[1] = ARG(1);
  grtc_ttype_t sorted[2] = {TT(F32, 3, 4), TT(I32, 4)};
  op = grtc_tb_op(&tb, GRTC_TOP_SORT, operands, 2, sorted, 2, 0);
  expect_error(&tb, op,
               "operand types tensor<3x4xf32> and tensor<4xi32> differ in "
               "shape");
}

static void test_more_control_rules(void** state) {
  grtc_tb_t tb;
  BEGIN(TS(I1), TT(F32, 2), TS(I32));
  grtc_tvalue_t* pred = ARG(0);
  grtc_top_t* op =
      grtc_tb_op(&tb, GRTC_TOP_IF, &pred, 1, &ARG(1)->type, 1, 3);
  for (uint32_t i = 0; i < 3; ++i) {
    grtc_tb_begin_region(&tb, op, i, NULL, 0);
    OPN(&tb, YIELD, ARG(1));
    grtc_tb_end_region(&tb);
  }
  expect_error(&tb, op, "has 3 regions, expected 2");

  BEGIN(TS(I1), TT(F32, 2), TS(I32));
  grtc_tvalue_t* index = ARG(2);
  op = grtc_tb_op(&tb, GRTC_TOP_CASE, &index, 1, &ARG(1)->type, 1, 0);
  expect_error(&tb, op, "has no branches");

  BEGIN(TS(I1), TT(F32, 2), TS(I32));
  op = OP(&tb, CALL, TT(F32, 2), ARG(1));
  expect_error(&tb, op, "has no callee");

  BEGIN(TS(I1), TT(F32, 2), TS(I32));
  grtc_tvalue_t* many[65];
  for (int i = 0; i < 65; ++i) many[i] = ARG(1);
  op = grtc_tb_op(&tb, GRTC_TOP_CALL, many, 65, NULL, 0, 0);
  op->attrs.callee = tb.func;
  expect_error(&tb, op, "has too many operands");

  BEGIN(TS(I1), TT(F32, 2), TS(I32));
  grtc_ttype_t results[65];
  for (int i = 0; i < 65; ++i) results[i] = TT(F32, 2);
  pred = ARG(0);
  op = grtc_tb_op(&tb, GRTC_TOP_IF, &pred, 1, results, 65, 2);
  for (uint32_t i = 0; i < 2; ++i) {
    grtc_tb_begin_region(&tb, op, i, NULL, 0);
    OPN(&tb, YIELD, ARG(1));
    grtc_tb_end_region(&tb);
  }
  expect_error(&tb, op, "has too many results");

  // A while body with an extra argument.
  BEGIN(TS(I1), TT(F32, 2), TS(I32));
  op = while_op(&tb, ARG(2), GRTC_ELEM_I1);
  grtc_ttype_t pair[2] = {TS(I32), TS(I32)};
  grtc_tblock_t* body = grtc_tb_begin_region(&tb, op, 1, pair, 2);
  OPN(&tb, YIELD, &body->args[0]);
  grtc_tb_end_region(&tb);
  expect_error(&tb, op, "body takes 2 arguments, expected 1");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_elementwise_ok),
      cmocka_unit_test(test_elementwise_operand_types_differ),
      cmocka_unit_test(test_elementwise_operand_count),
      cmocka_unit_test(test_elementwise_type_not_accepted),
      cmocka_unit_test(test_elementwise_i1_arithmetic),
      cmocka_unit_test(test_elementwise_result_type),
      cmocka_unit_test(test_result_count),
      cmocka_unit_test(test_invalid_types),
      cmocka_unit_test(test_select),
      cmocka_unit_test(test_clamp),
      cmocka_unit_test(test_compare),
      cmocka_unit_test(test_convert),
      cmocka_unit_test(test_bitcast_convert),
      cmocka_unit_test(test_constant_size),
      cmocka_unit_test(test_globals),
      cmocka_unit_test(test_iota),
      cmocka_unit_test(test_broadcast_in_dim),
      cmocka_unit_test(test_reshape),
      cmocka_unit_test(test_transpose),
      cmocka_unit_test(test_slice),
      cmocka_unit_test(test_dynamic_slice),
      cmocka_unit_test(test_concatenate),
      cmocka_unit_test(test_pad),
      cmocka_unit_test(test_reverse),
      cmocka_unit_test(test_dot_general),
      cmocka_unit_test(test_convolution),
      cmocka_unit_test(test_reduce),
      cmocka_unit_test(test_reduce_window),
      cmocka_unit_test(test_gather),
      cmocka_unit_test(test_scatter),
      cmocka_unit_test(test_sort),
      cmocka_unit_test(test_while),
      cmocka_unit_test(test_if_and_case),
      cmocka_unit_test(test_call),
      cmocka_unit_test(test_return),
      cmocka_unit_test(test_locations),
      cmocka_unit_test(test_yield_outside_region),
      cmocka_unit_test(test_return_inside_region),
      cmocka_unit_test(test_checks),
      cmocka_unit_test(test_dispatch_and_barrier),
      cmocka_unit_test(test_generic_rules),
      cmocka_unit_test(test_more_contraction_rules),
      cmocka_unit_test(test_more_reduce_rules),
      cmocka_unit_test(test_more_gather_rules),
      cmocka_unit_test(test_more_scatter_sort_rules),
      cmocka_unit_test(test_more_control_rules),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
