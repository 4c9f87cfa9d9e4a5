// Tensor IR built by hand for compiler/host's tests: after dispatch
// formation a function is DISPATCH ops over values, which these helpers
// append in one line each.
#ifndef GRT_COMPILER_HOST_TEST_IR_H_
#define GRT_COMPILER_HOST_TEST_IR_H_

#include "base/status_matchers.h"
#include "compiler/tensor/ir.h"

static inline grtc_ttype_t test_vector(grtc_elem_t elem, int64_t n) {
  grtc_ttype_t type = {elem, 1, {n}};
  return type;
}

static inline grtc_ttype_t test_scalar(grtc_elem_t elem) {
  grtc_ttype_t type = {elem, 0, {0}};
  return type;
}

// Appends an op of |kind| to |block| with one result of |result_type| (or
// none when NULL) and returns it.
static inline grtc_top_t* test_op(grtc_tmodule_t* module, grtc_tblock_t* block,
                                  grtc_top_kind_t kind, grtc_tvalue_t* const* operands,
                                  uint32_t operand_count, const grtc_ttype_t* result_type,
                                  uint32_t region_count) {
  grtc_top_t* op = NULL;
  GRT_EXPECT_OK(grtc_top_create(module, kind, operands, operand_count, result_type,
                                result_type ? 1 : 0, region_count, &op));
  op->line = 1;
  op->column = 1;
  grtc_tblock_append(block, op);
  return op;
}

// %r = dispatch kernel |kernel| (|operands|) -> |type|
static inline grtc_tvalue_t* test_dispatch(grtc_tmodule_t* module, grtc_tblock_t* block,
                                           uint32_t kernel, grtc_tvalue_t* const* operands,
                                           uint32_t operand_count, grtc_ttype_t type) {
  grtc_top_t* op = test_op(module, block, GRTC_TOP_DISPATCH, operands, operand_count, &type, 0);
  op->attrs.kernel = kernel;
  return &op->results[0];
}

static inline void test_return(grtc_tmodule_t* module, grtc_tblock_t* block,
                               grtc_tvalue_t* const* operands, uint32_t count) {
  test_op(module, block, GRTC_TOP_RETURN, operands, count, NULL, 0);
}

#endif  // GRT_COMPILER_HOST_TEST_IR_H_
