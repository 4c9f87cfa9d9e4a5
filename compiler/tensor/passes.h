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

// Folding and canonicalization to a fixed point (with symbolic shapes:
// get_dimension_size of a static dimension made a constant, dynamic ops
// whose shape became static made their static forms, shape assertions that
// fold to true removed, and every type rewritten to the sizes and symbol
// classes the relations prove, re-verifying until nothing changes): constant folding of ops
// whose operands are small constants (<= 1024 elements; never through
// unfoldable constants), identity reshapes/transposes/broadcasts/slices/
// converts removed, reshape-of-reshape and transpose-of-transpose merged,
// broadcast of a splat constant made a splat constant, broadcast-of-
// broadcast merged, convert-of-convert merged when the first is exact,
// select on a splat predicate replaced by the chosen operand, dead ops
// removed. Uses are rewired in nested regions too.
grt_status_t grtc_tensor_fold(grtc_tmodule_t* module) GRT_MUST_USE;

// The boundary of symbolic shapes (docs/compiler.md "Symbolic shapes"),
// run after folding: the later stages take symbolic dimensions whose
// extents the call supplies as argument dimensions, in the ops listed
// there. This pass rewrites a dynamic_broadcast_in_dim, dynamic_reshape or
// dynamic_iota whose shape operand is exactly its result's dimensions
// (constants and get_dimension_size chains) into its static form, and
// fails at the first op (in program order) that remains beyond the
// boundary: an op kind that takes static shapes only with a symbolic
// dimension, an extent computed at run time (a symbol whose class no
// argument dimension represents), a dynamic op with other shape operands,
// or a shape assertion that folding did not prove.
grt_status_t grtc_tensor_prepare_symbolic(grtc_tmodule_t* module)
    GRT_MUST_USE;

// Only the symbolic-shape rules of grtc_tensor_fold (get_dimension_size of
// static dimensions, dynamic ops with static results, assertions that hold,
// types resolved, and constant folding of rank-0 results, the index math
// between them), nothing else: what -O0 runs, so that every optimization
// level accepts the same programs.
grt_status_t grtc_tensor_fold_shapes(grtc_tmodule_t* module) GRT_MUST_USE;

// Checks one op (and its regions) as grtc_tensor_verify does: front-ends
// that build ops from untrusted input check each before folding reads it.
grt_status_t grtc_tensor_verify_op(const grtc_tmodule_t* module,
                                   const grtc_top_t* op) GRT_MUST_USE;

// Folds one op a front-end has just appended, whose results have no uses
// yet, when its operands are constants (the rules of grtc_tensor_fold's
// constant folding): the op is unlinked and *out_value is the constant that
// replaces its result. Otherwise *out_value is the op's first result.
// Front-ends use it to compute shapes that a graph derives from other
// shapes (ONNX's Shape -> Gather -> Concat -> Reshape chains).
grt_status_t grtc_tensor_fold_new_op(grtc_tmodule_t* module, grtc_top_t* op,
                                     grtc_tvalue_t** out_value) GRT_MUST_USE;

// The module as MLIR-like text, for --dump-after and tests: one op per line
// ("%3 = stablehlo.add %1, %2 : tensor<4xf32>", ids from value->id),
// decoded attributes in braces ("{dims = [1, 0]}"), constants as dense<...>
// cut after 8 elements, regions indented after their op as "^bb0(args):"
// blocks, DISPATCH ops as "%5 = dispatch @<kernel index> (%1, %2) : ...".
// Symbolic dimensions print as "?" and their symbol (tensor<?s0x4xf32>);
// each function starts with comment lines for its symbols ("// s0: argument
// 0 dimension 0", "= s0" or "= 3" when their class resolved) and the
// relations its ops imply ("// relation s2 == s0: 'stablehlo.add' at 3:8
// (operands)").
// Deterministic: the same module prints the same text.
// Scalar evaluation for folding lives in compiler/tensor/eval.h.
void grtc_tensor_print(const grtc_tmodule_t* module,
                       grt_string_builder_t* out);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_TENSOR_PASSES_H_
