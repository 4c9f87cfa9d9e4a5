// Scalar evaluation with the exact semantics of compiler/kernel/scalar.h,
// for constant folding and for tests that compare kernels against it.
//
// Values use one 64-bit representation per element type: integers sign-
// (iN) or zero- (uiN, i1) extended into |i|/|u|, floats as a double in |f|
// already rounded to their type (f16/bf16/f32 values are exact doubles).
// Float ops use the CPU kernels' libm functions at the kernels' precision
// (float for f32, f16 and bf16; double for f64), so folded constants match
// what the compiled kernels compute on the same machine.
#ifndef GRT_COMPILER_TENSOR_EVAL_H_
#define GRT_COMPILER_TENSOR_EVAL_H_

#include <stdbool.h>
#include <stdint.h>

#include "compiler/kernel/scalar.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef union grtc_scalar_value_t {
  int64_t i;
  uint64_t u;
  double f;
} grtc_scalar_value_t;

// One element of |elem| at |bytes| (little-endian; i1 one byte).
grtc_scalar_value_t grtc_eval_load(grtc_elem_t elem, const uint8_t* bytes);
// Stores |value| (in |elem|'s representation) at |bytes|.
void grtc_eval_store(grtc_elem_t elem, grtc_scalar_value_t value,
                     uint8_t* bytes);

// |op| on |operands| (grtc_scalar_op_arity(op) of them) of type |elem|;
// SELECT's first operand is the i1 predicate and |elem| the type of the
// other two; CLAMP's are (min, x, max). The result has type |elem| (i1 for
// IS_FINITE). Unknown ops give 0.
grtc_scalar_value_t grtc_eval_scalar(grtc_scalar_op_t op, grtc_elem_t elem,
                                     const grtc_scalar_value_t* operands);

// stablehlo.compare of |a| and |b| of type |elem| (|type| DEFAULT resolves
// from |elem|).
bool grtc_eval_compare(grtc_compare_direction_t direction,
                       grtc_compare_type_t type, grtc_elem_t elem,
                       grtc_scalar_value_t a, grtc_scalar_value_t b);

// stablehlo.convert of |value| from |from| to |to|.
grtc_scalar_value_t grtc_eval_convert(grtc_elem_t from, grtc_elem_t to,
                                      grtc_scalar_value_t value);

// An integer (an index, an iota value) as a value of |elem|, wrapped for
// integers and rounded for floats.
grtc_scalar_value_t grtc_eval_from_int(grtc_elem_t elem, int64_t value);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_TENSOR_EVAL_H_
