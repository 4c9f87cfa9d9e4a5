// Tensor IR passes before dispatch formation, and the printer behind
// --dump-after.
#ifndef GRT_COMPILER_TENSOR_PASSES_H_
#define GRT_COMPILER_TENSOR_PASSES_H_

#include "base/status.h"
#include "base/string_builder.h"
#include "compiler/tensor/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

// Checks every op: operand counts and types, attribute ranges, and the
// result type inferred from them against the declared one; regions'
// argument and yield types; calls against callees; returns against
// function results. Errors are file:line:col diagnostics naming the op
// and the types involved ("'stablehlo.add' operand types tensor<4xf32>
// and tensor<3xf32> differ").
grt_status_t grtc_tensor_verify(const grtc_tmodule_t* module) GRT_MUST_USE;

// Folding and canonicalization to a fixed point: constant folding of ops
// whose operands are small constants (<= 1024 elements; never through
// unfoldable constants), identity reshapes/transposes/broadcasts/slices/
// converts removed, reshape-of-reshape and transpose-of-transpose merged,
// broadcast of a splat constant made a splat constant, dead ops removed.
grt_status_t grtc_tensor_fold(grtc_tmodule_t* module) GRT_MUST_USE;

// The module as MLIR-like text (one op per line, regions indented; DISPATCH
// ops print their kernel's name), for --dump-after and tests.
void grtc_tensor_print(const grtc_tmodule_t* module,
                       grt_string_builder_t* out);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_TENSOR_PASSES_H_
