// Tests for symbolic shapes in the tensor IR: the symbol table and its
// relations (grtc_tmodule_relate/resolve_dim), the relations verification
// records per op, folding of shape ops and resolved types, and the static
// boundary (grtc_tensor_prepare_symbolic).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/status_matchers.h"
#include "compiler/tensor/test_builder.h"

#define ARG(i) grtc_tb_arg(&tb, (i))

// A new symbol of |tb|'s function for argument |arg| dimension |axis|,
// which it then becomes.
static int64_t arg_symbol(grtc_tb_t* tb, uint32_t arg, uint32_t axis) {
  int64_t dim = 0;
  GRT_EXPECT_OK(grtc_tmodule_new_symbol(tb->module, tb->func, GRTC_SYM_ARGUMENT,
                                        NULL, arg, axis, &dim));
  tb->func->body->args[arg].type.dims[axis] = dim;
  return dim;
}

// A "?" of |op|'s result |index| dimension |axis|, as the importer makes.
static int64_t result_symbol(grtc_tb_t* tb, grtc_top_t* op, uint32_t index,
                             uint32_t axis) {
  int64_t dim = 0;
  GRT_EXPECT_OK(grtc_tmodule_new_symbol(tb->module, tb->func, GRTC_SYM_RESULT, op,
                                        index, axis, &dim));
  op->results[index].type.dims[axis] = dim;
  return dim;
}

static void test_relate_and_resolve(void** state) {
  (void)state;
  grtc_tb_t tb;
  grtc_ttype_t arg = TT(F32, 1, 1, 1, 1);
  grtc_tb_init(&tb, &arg, 1, NULL, 0);
  int64_t s0 = arg_symbol(&tb, 0, 0), s1 = arg_symbol(&tb, 0, 1);
  int64_t s2 = arg_symbol(&tb, 0, 2), s3 = arg_symbol(&tb, 0, 3);
  assert_false(grtc_dim_is_static(s0));
  assert_int_equal(grtc_dim_symbol(s3), 3);
  assert_int_equal(grtc_tmodule_resolve_dim(tb.module, 5), 5);
  assert_int_equal(grtc_tmodule_resolve_dim(tb.module, s1), s1);
  bool conflict = true;
  // Equal symbols join; the lowest id represents the class.
  GRT_EXPECT_OK(grtc_tmodule_relate(tb.module, tb.func, GRTC_REL_EQ, s1, s0, NULL,
                                    "a", &conflict));
  assert_false(conflict);
  assert_int_equal(grtc_tmodule_resolve_dim(tb.module, s1), s0);
  // A class equal to a size takes it.
  GRT_EXPECT_OK(grtc_tmodule_relate(tb.module, tb.func, GRTC_REL_EQ, s2, 7, NULL,
                                    "b", &conflict));
  GRT_EXPECT_OK(grtc_tmodule_relate(tb.module, tb.func, GRTC_REL_EQ, s0, s2, NULL,
                                    "c", &conflict));
  assert_false(conflict);
  assert_int_equal(grtc_tmodule_resolve_dim(tb.module, s1), 7);
  assert_int_equal(tb.module->shapes->rel_count, 3);
  // A relation already known adds nothing; one against the proven size
  // conflicts and is not recorded.
  GRT_EXPECT_OK(grtc_tmodule_relate(tb.module, tb.func, GRTC_REL_EQ, s1, 7, NULL,
                                    "d", &conflict));
  assert_false(conflict);
  GRT_EXPECT_OK(grtc_tmodule_relate(tb.module, tb.func, GRTC_REL_EQ, s1, 8, NULL,
                                    "e", &conflict));
  assert_true(conflict);
  assert_int_equal(tb.module->shapes->rel_count, 3);
  // Lower bounds: recorded once, implied ones skipped, checked once static.
  GRT_EXPECT_OK(grtc_tmodule_relate(tb.module, tb.func, GRTC_REL_GE, s3, 5, NULL,
                                    "f", &conflict));
  GRT_EXPECT_OK(grtc_tmodule_relate(tb.module, tb.func, GRTC_REL_GE, s3, 4, NULL,
                                    "g", &conflict));
  assert_int_equal(tb.module->shapes->rel_count, 4);
  assert_int_equal(tb.module->shapes->rels[3].kind, GRTC_REL_GE);
  GRT_EXPECT_OK(grtc_tmodule_relate(tb.module, tb.func, GRTC_REL_GE, s0, 8, NULL,
                                    "h", &conflict));
  assert_true(conflict);
  char text[192];
  assert_string_equal(grtc_tmodule_describe_dim(tb.module, s3, text, sizeof(text)),
                      "s3: argument 0 dimension 3 of @main");
  assert_string_equal(grtc_tmodule_describe_dim(tb.module, 12, text, sizeof(text)), "12");
  grtc_tb_deinit(&tb);
}

// Elementwise operands, a dot's contraction, concatenate's other
// dimensions and declared results are related once each, with their op.
static void test_verify_records_relations(void** state) {
  (void)state;
  grtc_tb_t tb;
  grtc_ttype_t args[3] = {TT(F32, 1, 4), TT(F32, 1, 4), TT(F32, 1, 3)};
  grtc_tb_init(&tb, args, 3, NULL, 0);
  int64_t a = arg_symbol(&tb, 0, 0);
  int64_t b = arg_symbol(&tb, 1, 0);
  int64_t k = arg_symbol(&tb, 2, 0);
  grtc_top_t* add = OP(&tb, ADD, TT(F32, 1, 4), ARG(0), ARG(1));
  int64_t r = result_symbol(&tb, add, 0, 0);
  grtc_top_t* dot = OP(&tb, DOT_GENERAL, TT(F32, 1, 3), R(add), ARG(2));
  dot->attrs.dot.lhs_contracting = I64S(&tb, 1);
  dot->attrs.dot.rhs_contracting = I64S(&tb, 0);
  int64_t d = result_symbol(&tb, dot, 0, 0);
  grtc_top_t* cat = OP(&tb, CONCATENATE, TT(F32, 1, 4), ARG(0), ARG(1));
  cat->attrs.dim = 0;
  int64_t sum = result_symbol(&tb, cat, 0, 0);  // a + b: its own symbol
  grtc_tb_return_none(&tb);
  GRT_EXPECT_OK(grtc_tensor_verify(tb.module));
  const grtc_tshapes_t* shapes = tb.module->shapes;
  // b == a (add operands), r == a (add result), the contraction k == 4,
  // d == r (dot result); the concatenation's sum stays its own symbol.
  assert_int_equal(grtc_tmodule_resolve_dim(tb.module, b), a);
  assert_int_equal(grtc_tmodule_resolve_dim(tb.module, r), a);
  assert_int_equal(grtc_tmodule_resolve_dim(tb.module, d), a);
  assert_int_equal(grtc_tmodule_resolve_dim(tb.module, k), 4);
  assert_int_equal(grtc_tmodule_resolve_dim(tb.module, sum), sum);
  assert_ptr_equal(shapes->rels[0].op, add);
  assert_string_equal(shapes->rels[0].what, "operands");
  bool contraction = false;
  for (uint32_t i = 0; i < shapes->rel_count; ++i) {
    contraction |= shapes->rels[i].op == dot &&
                   strcmp(shapes->rels[i].what, "contracting dimensions") == 0;
  }
  assert_true(contraction);
  // Sources: the arguments' symbols; the ops' results are derived.
  assert_true(grtc_tmodule_symbol_is_source(tb.module, grtc_dim_symbol(a)));
  assert_true(grtc_tmodule_symbol_is_source(tb.module, grtc_dim_symbol(b)));
  assert_false(grtc_tmodule_symbol_is_source(tb.module, grtc_dim_symbol(r)));
  assert_false(grtc_tmodule_symbol_is_source(tb.module, grtc_dim_symbol(sum)));
  // Verifying again records nothing new.
  uint32_t count = shapes->rel_count;
  GRT_EXPECT_OK(grtc_tensor_verify(tb.module));
  assert_int_equal(shapes->rel_count, count);
  grtc_tb_deinit(&tb);
}

static void test_verify_symbolic_errors(void** state) {
  (void)state;
  grtc_tb_t tb;
  grtc_ttype_t args[2] = {TT(F32, 1, 4), TT(F32, 2, 8)};
  grtc_tb_init(&tb, args, 2, NULL, 0);
  arg_symbol(&tb, 0, 0);
  // ?x4 to 8x? cannot be shown equal in size.
  grtc_top_t* reshape = OP(&tb, RESHAPE, TT(F32, 8, 1), ARG(0));
  result_symbol(&tb, reshape, 0, 1);
  grtc_tb_return_none(&tb);
  grt_expect_error(grtc_tensor_verify(tb.module), GRT_STATUS_INVALID_ARGUMENT,
                       "'stablehlo.reshape' cannot reshape tensor<?x4xf32> to "
                       "tensor<8x?xf32>: the element counts are not provably equal");
  grtc_tb_deinit(&tb);

  grtc_tb_init(&tb, args, 2, NULL, 0);
  arg_symbol(&tb, 0, 0);
  // An op whose checks take static shapes only.
  grtc_top_t* iota = OP(&tb, IOTA, TT(F32, 1, 4));
  result_symbol(&tb, iota, 0, 0);
  grtc_tb_return_none(&tb);
  grt_expect_error(grtc_tensor_verify(tb.module), GRT_STATUS_INVALID_ARGUMENT,
                   "t.mlir:2:5: error: 'stablehlo.iota' result 0 dimension 0 is symbolic "
                   "(s1: result 0 dimension 0 of 'stablehlo.iota' at 2:5); this op takes "
                   "static shapes only");
  grtc_tb_deinit(&tb);
}

// Reshape: one symbol per side with equal static factors are related; a
// static slice bounds its operand's symbol from below.
static void test_reshape_and_slice(void** state) {
  (void)state;
  grtc_tb_t tb;
  grtc_ttype_t arg = TT(F32, 1, 4, 2);
  grtc_tb_init(&tb, &arg, 1, NULL, 0);
  int64_t s = arg_symbol(&tb, 0, 0);
  grtc_top_t* flat = OP(&tb, RESHAPE, TT(F32, 1, 8), ARG(0));
  int64_t f = result_symbol(&tb, flat, 0, 0);
  grtc_top_t* slice = OP(&tb, SLICE, TT(F32, 2, 8), R(flat));
  slice->attrs.start = I64S(&tb, 1, 0);
  slice->attrs.limit = I64S(&tb, 3, 8);
  slice->attrs.strides = I64S(&tb, 1, 1);
  grtc_tb_return_none(&tb);
  GRT_EXPECT_OK(grtc_tensor_verify(tb.module));
  assert_int_equal(grtc_tmodule_resolve_dim(tb.module, f), s);
  const grtc_trel_t* last = &tb.module->shapes->rels[tb.module->shapes->rel_count - 1];
  assert_int_equal(last->kind, GRTC_REL_GE);
  assert_int_equal(last->b, 3);
  assert_ptr_equal(last->op, slice);
  grtc_tb_deinit(&tb);
}

// get_dimension_size of a dimension the relations make static folds to a
// constant, the types take the size, and the boundary passes; a symbol that
// stays is named there.
static void test_fold_and_boundary(void** state) {
  (void)state;
  grtc_tb_t tb;
  grtc_ttype_t args[2] = {TT(F32, 1, 4), TT(F32, 3, 4)};
  grtc_ttype_t result = TS(I32);
  grtc_tb_init(&tb, args, 2, &result, 1);
  arg_symbol(&tb, 0, 0);
  grtc_top_t* size = OP(&tb, GET_DIMENSION_SIZE, TS(I32), ARG(0));
  size->attrs.dim = 0;
  grtc_top_t* add = OP(&tb, ADD, TT(F32, 1, 4), ARG(0), ARG(1));
  result_symbol(&tb, add, 0, 0);
  OPN(&tb, RETURN, R(size));
  GRT_EXPECT_OK(grtc_tensor_verify(tb.module));
  GRT_EXPECT_OK(grtc_tensor_fold(tb.module));
  GRT_EXPECT_OK(grtc_tensor_verify(tb.module));
  assert_int_equal(ARG(0)->type.dims[0], 3);
  const grtc_tvalue_t* returned = tb.func->body->last->operands[0];
  assert_int_equal(returned->def->kind, GRTC_TOP_CONSTANT);
  assert_int_equal(grtc_tb_element(returned->def, 0).i, 3);
  GRT_EXPECT_OK(grtc_tensor_prepare_symbolic(tb.module));
  grtc_tb_deinit(&tb);

  // Symbols read from the arguments pass the boundary, used or not.
  grtc_ttype_t returned_type = TT(F32, 1, 4);
  grtc_tb_init(&tb, args, 1, &returned_type, 1);
  int64_t s = arg_symbol(&tb, 0, 0);
  tb.func->result_types[0].dims[0] = s;
  grtc_top_t* neg = OP(&tb, NEGATE, TT(F32, 1, 4), ARG(0));
  result_symbol(&tb, neg, 0, 0);
  OPN(&tb, RETURN, R(neg));
  GRT_EXPECT_OK(grtc_tensor_verify(tb.module));
  GRT_EXPECT_OK(grtc_tensor_fold(tb.module));
  GRT_EXPECT_OK(grtc_tensor_prepare_symbolic(tb.module));
  grtc_tb_deinit(&tb);

  grtc_tb_init(&tb, args, 1, NULL, 0);
  arg_symbol(&tb, 0, 0);
  grtc_tb_return_none(&tb);
  GRT_EXPECT_OK(grtc_tensor_verify(tb.module));
  GRT_EXPECT_OK(grtc_tensor_prepare_symbolic(tb.module));
  grtc_tb_deinit(&tb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_relate_and_resolve),
      cmocka_unit_test(test_verify_records_relations),
      cmocka_unit_test(test_verify_symbolic_errors),
      cmocka_unit_test(test_reshape_and_slice),
      cmocka_unit_test(test_fold_and_boundary),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
