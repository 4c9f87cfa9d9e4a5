// Test-only helpers that build tensor IR by hand: a module with one
// function whose ops get consecutive line numbers (column 5) in "t.mlir",
// typed constants, and error expectations that check message and position.
// Include after <cmocka.h> and base/status_matchers.h; libraries never
// include it.
#ifndef GRT_COMPILER_TENSOR_TEST_BUILDER_H_
#define GRT_COMPILER_TENSOR_TEST_BUILDER_H_

#include <stdio.h>
#include <string.h>

#include "compiler/tensor/eval.h"
#include "compiler/tensor/ir.h"
#include "compiler/tensor/passes.h"

typedef struct grtc_tb_t {
  grtc_tmodule_t* module;
  grtc_tfunc_t* func;
  grtc_tblock_t* block;  // where new ops go
  uint32_t next_line;
} grtc_tb_t;

static inline grtc_ttype_t grtc_tb_type(grtc_elem_t elem, uint32_t rank,
                                        const int64_t* dims) {
  grtc_ttype_t type;
  memset(&type, 0, sizeof(type));
  type.elem = elem;
  type.rank = rank;
  for (uint32_t i = 0; i < rank; ++i) type.dims[i] = dims[i];
  return type;
}

// TT(F32, 2, 3) is tensor<2x3xf32>; TS(F32) is tensor<f32>.
#define TT(elem, ...)                                                     \
  grtc_tb_type(GRTC_ELEM_##elem,                                          \
               (uint32_t)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), \
               (int64_t[]){__VA_ARGS__})
#define TS(elem) grtc_tb_type(GRTC_ELEM_##elem, 0, NULL)
#define I64S(tb, ...)                                                     \
  grtc_tmodule_i64s((tb)->module, (int64_t[]){__VA_ARGS__},               \
                    (uint32_t)(sizeof((int64_t[]){__VA_ARGS__}) /         \
                               sizeof(int64_t)))

// A module with function @main(|args|) -> (|results|).
static inline void grtc_tb_init(grtc_tb_t* tb, const grtc_ttype_t* args,
                                uint32_t arg_count,
                                const grtc_ttype_t* results,
                                uint32_t result_count) {
  memset(tb, 0, sizeof(*tb));
  GRT_EXPECT_OK(grtc_tmodule_create("m", "t.mlir", grt_allocator_system(),
                                    &tb->module));
  GRT_EXPECT_OK(grtc_tfunc_create(tb->module, grt_make_cstring_view("main"),
                                  args, arg_count, results, result_count,
                                  &tb->func));
  tb->func->is_public = true;
  tb->func->line = 1;
  tb->func->column = 1;
  tb->block = tb->func->body;
  tb->next_line = 2;
}

static inline void grtc_tb_deinit(grtc_tb_t* tb) {
  grtc_tmodule_destroy(tb->module);
}

static inline grtc_tvalue_t* grtc_tb_arg(grtc_tb_t* tb, uint32_t i) {
  return &tb->func->body->args[i];
}

static inline grtc_top_t* grtc_tb_op(grtc_tb_t* tb, grtc_top_kind_t kind,
                                     grtc_tvalue_t* const* operands,
                                     uint32_t operand_count,
                                     const grtc_ttype_t* results,
                                     uint32_t result_count,
                                     uint32_t region_count) {
  grtc_top_t* op = NULL;
  GRT_EXPECT_OK(grtc_top_create(tb->module, kind, operands, operand_count,
                                results, result_count, region_count, &op));
  op->line = tb->next_line++;
  op->column = 5;
  grtc_tblock_append(tb->block, op);
  return op;
}

#define GRTC_TB_COUNT(...) \
  ((uint32_t)(sizeof((grtc_tvalue_t*[]){__VA_ARGS__}) / sizeof(void*)))
// OP(tb, ADD, TT(F32, 4), a, b): one result of the given type.
#define OP(tb, kind, type, ...)                                          \
  grtc_tb_op((tb), GRTC_TOP_##kind, (grtc_tvalue_t*[]){__VA_ARGS__},     \
             GRTC_TB_COUNT(__VA_ARGS__), (grtc_ttype_t[]){type}, 1, 0)
// OPN(tb, RETURN, a, b): no results.
#define OPN(tb, kind, ...)                                               \
  grtc_tb_op((tb), GRTC_TOP_##kind, (grtc_tvalue_t*[]){__VA_ARGS__},     \
             GRTC_TB_COUNT(__VA_ARGS__), NULL, 0, 0)
#define R(op) (&(op)->results[0])

static inline grtc_top_t* grtc_tb_return_none(grtc_tb_t* tb) {
  return grtc_tb_op(tb, GRTC_TOP_RETURN, NULL, 0, NULL, 0, 0);
}

// Gives |op| region |index| with |arg_count| arguments and makes it where
// new ops go until grtc_tb_end_region.
static inline grtc_tblock_t* grtc_tb_begin_region(grtc_tb_t* tb,
                                                  grtc_top_t* op,
                                                  uint32_t index,
                                                  const grtc_ttype_t* args,
                                                  uint32_t arg_count) {
  grtc_tblock_t* block = NULL;
  GRT_EXPECT_OK(grtc_tblock_create(tb->module, args, arg_count, &block));
  grtc_top_set_region(op, index, block);
  tb->block = block;
  return block;
}
static inline void grtc_tb_end_region(grtc_tb_t* tb) {
  tb->block = tb->block->parent_op->parent;
}

// Region |index| of |op|: (a, b) of rank-0 |elem| yielding a + b.
static inline void grtc_tb_add_body(grtc_tb_t* tb, grtc_top_t* op,
                                    uint32_t index, grtc_elem_t elem) {
  grtc_ttype_t scalar = grtc_tb_type(elem, 0, NULL);
  grtc_ttype_t args[2] = {scalar, scalar};
  grtc_tblock_t* body = grtc_tb_begin_region(tb, op, index, args, 2);
  grtc_tvalue_t* operands[2] = {&body->args[0], &body->args[1]};
  grtc_top_t* add = grtc_tb_op(tb, GRTC_TOP_ADD, operands, 2, &scalar, 1, 0);
  grtc_tvalue_t* sum = &add->results[0];
  grtc_tb_op(tb, GRTC_TOP_YIELD, &sum, 1, NULL, 0, 0);
  grtc_tb_end_region(tb);
}

// A constant of |type| from |count| doubles (1: a splat).
static inline grtc_top_t* grtc_tb_constant(grtc_tb_t* tb, grtc_ttype_t type,
                                           const double* values,
                                           uint32_t count) {
  size_t size = grtc_elem_byte_size(type.elem);
  uint8_t* data = grtc_tmodule_alloc(tb->module, size * count);
  for (uint32_t i = 0; i < count; ++i) {
    grtc_scalar_value_t v;
    v.f = values[i];
    v = grtc_eval_convert(GRTC_ELEM_F64, type.elem, v);
    grtc_eval_store(type.elem, v, data + i * size);
  }
  grtc_top_t* op = grtc_tb_op(tb, GRTC_TOP_CONSTANT, NULL, 0, &type, 1, 0);
  op->attrs.constant.data = data;
  op->attrs.constant.size = size * count;
  op->attrs.constant.splat = count == 1 && grtc_ttype_element_count(&type) != 1;
  return op;
}
// The same from integers (wrapped into the element type).
static inline grtc_top_t* grtc_tb_constant_int(grtc_tb_t* tb,
                                               grtc_ttype_t type,
                                               const int64_t* values,
                                               uint32_t count) {
  size_t size = grtc_elem_byte_size(type.elem);
  uint8_t* data = grtc_tmodule_alloc(tb->module, size * count);
  for (uint32_t i = 0; i < count; ++i) {
    grtc_eval_store(type.elem, grtc_eval_from_int(type.elem, values[i]),
                    data + i * size);
  }
  grtc_top_t* op = grtc_tb_op(tb, GRTC_TOP_CONSTANT, NULL, 0, &type, 1, 0);
  op->attrs.constant.data = data;
  op->attrs.constant.size = size * count;
  op->attrs.constant.splat = count == 1 && grtc_ttype_element_count(&type) != 1;
  return op;
}
#define CF(tb, type, ...)                                               \
  grtc_tb_constant((tb), (type), (double[]){__VA_ARGS__},               \
                   (uint32_t)(sizeof((double[]){__VA_ARGS__}) / sizeof(double)))
#define CI(tb, type, ...)                                               \
  grtc_tb_constant_int((tb), (type), (int64_t[]){__VA_ARGS__},          \
                       (uint32_t)(sizeof((int64_t[]){__VA_ARGS__}) /    \
                                  sizeof(int64_t)))

// Element |i| of a constant's value.
static inline grtc_scalar_value_t grtc_tb_element(const grtc_top_t* constant,
                                                  int64_t i) {
  const grtc_ttype_t* type = &constant->results[0].type;
  size_t offset = constant->attrs.constant.splat
                      ? 0
                      : (size_t)i * grtc_elem_byte_size(type->elem);
  return grtc_eval_load(type->elem, constant->attrs.constant.data + offset);
}

// Asserts |status| is "t.mlir:<op's line>:5: error: '<op name>' <fragment>"
// (the fragment may be a prefix of the rest of the message).
static inline void grtc_tb_expect_error(grt_status_t status,
                                        const grtc_top_t* op,
                                        const char* fragment) {
  char expected[512];
  snprintf(expected, sizeof(expected), "t.mlir:%u:5: error: '%s' %s",
           op->line, grtc_top_kind_name(op->kind), fragment);
  grt_expect_error(status, GRT_STATUS_INVALID_ARGUMENT, expected);
}

#endif  // GRT_COMPILER_TENSOR_TEST_BUILDER_H_
