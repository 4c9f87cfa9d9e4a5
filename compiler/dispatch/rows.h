// Row patterns: computations along the last dimension of a buffer that the
// generic formation would cut into several dispatches (one per reduction)
// and that run as one kernel instead (docs/compiler.md "Performance
// notes"). Today: softmax as the ONNX importer and jax write it,
//
//   m = reduce max(x) over the last dim (init -inf)
//   e = exp(x - broadcast(m))
//   y = e / broadcast(reduce add(e) over the last dim (init 0))
//
// on f32 values of static shape. The kernel (GRTC_KPATTERN_ROWS) keeps both
// reductions: a reduction space of 2 x n whose first pass folds the
// maximum and whose second the sum of exponentials, so its generic body
// computes what the separate dispatches did. Other pairs of reductions
// along the last dim (a layer norm) are found by dispatch.c's walk
// (grtc_dispatch_rows_two_pass) and lowered as TWO_PASS ROWS kernels.
#ifndef GRT_COMPILER_DISPATCH_ROWS_H_
#define GRT_COMPILER_DISPATCH_ROWS_H_

#include <stdbool.h>

#include "compiler/tensor/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

// The ops between the input and the root (reductions, reshapes,
// broadcasts, subtract, exp), which the kernel of the root computes.
#define GRTC_ROWS_MAX_OPS 12

typedef struct grtc_rows_match_t {
  grtc_tvalue_t* input;    // x
  grtc_top_t* max_reduce;  // its initial value is the first accumulator's
  grtc_top_t* sum_reduce;  // and this one's the second's
  uint32_t op_count;
  grtc_top_t* ops[GRTC_ROWS_MAX_OPS];
} grtc_rows_match_t;

// Whether |root| (a DIVIDE) ends the softmax above, by the ops' kinds,
// shapes, attributes and use counts only (each op between used once, the
// exponential twice, the input twice: by the max reduction and the
// subtract). Whether the input is a buffer is the caller's to check.
bool grtc_rows_match_softmax(grtc_top_t* root, grtc_rows_match_t* out);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_DISPATCH_ROWS_H_
