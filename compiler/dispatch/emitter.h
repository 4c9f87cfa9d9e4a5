// The element emitter shared by every kernel lowering of compiler/dispatch:
// builds kernel IR instructions (common subexpressions shared, i64 index
// arithmetic folded using known value ranges, every instruction placed in
// the earliest section its operands allow, so loop-invariant work lands in
// PRE) and computes the element of a tensor value at an index, recursing
// through fused producers and loading materialized values from bindings.
//
// Errors are sticky (like grt_string_builder_t): after the first failure
// every builder returns instruction 0 and does nothing, and the caller
// checks |status| once when the kernel is done.
#ifndef GRT_COMPILER_DISPATCH_EMITTER_H_
#define GRT_COMPILER_DISPATCH_EMITTER_H_

#include "base/arena.h"
#include "base/status.h"
#include "compiler/kernel/ir.h"
#include "compiler/tensor/ir.h"

// How region formation decided to compute a value (indexed by value id).
typedef enum grtc_fuse_e {
  GRTC_FUSE_MATERIALIZE = 0,  // its own buffer: consumers load it
  GRTC_FUSE_INLINE = 1,       // recomputed inside each consumer's kernel
  GRTC_FUSE_EPILOGUE = 2,     // a reduction computed by its consumer's kernel
  GRTC_FUSE_ROWS = 3,         // inside a row pattern its root's kernel computes
} grtc_fuse_t;

typedef struct grtc_emitter_t {
  grtc_kernel_set_t* set;
  grtc_kernel_t* kernel;
  const grtc_tmodule_t* module;
  grt_arena_t* scratch;  // reset per kernel by the caller
  // The block the region's ops live in; values defined in other blocks
  // (bodies of reduce/scatter/sort being lowered) are always inlined.
  const grtc_tblock_t* block;
  const uint8_t* fuse;  // grtc_fuse_t by value id
  uint32_t fuse_count;
  grtc_ksection_t section;  // where ACC reads go
  // Set while a reduction body is emitted: its f16/bf16 values are
  // computed in f32 (the accumulators are f32), so a long sum rounds once
  // at the end instead of at every step.
  bool widen_small_floats;
  // Set (an i1 instruction + 1) while an operand that a concatenate or pad
  // selects is emitted: true where its value is the one selected. Loads of
  // symbolic size under it read index 0 where it is false, so an operand
  // empty at the call is never indexed past its (stand-in) first element
  // (grtc_em_guard; docs/compiler.md "Empty operands").
  uint32_t guard;
  grt_status_t status;
  // Materialized values read by the kernel, in first-use order: input
  // binding i is inputs[i].
  grt_arena_vec_t inputs;  // grtc_tvalue_t*
  grt_arena_vec_t substs;  // grtc_emitter_subst_t
  uint32_t* table;         // CSE: instruction + 1, 0 empty
  uint32_t table_capacity;
  int64_t* lo;  // known value range of each i64 instruction
  int64_t* hi;
  uint32_t range_capacity;
} grtc_emitter_t;

typedef struct grtc_emitter_subst_t {
  const grtc_tvalue_t* value;
  uint32_t inst;
} grtc_emitter_subst_t;

void grtc_emitter_init(grtc_emitter_t* em, grtc_kernel_set_t* set,
                       grtc_kernel_t* kernel, const grtc_tmodule_t* module,
                       grt_arena_t* scratch, const grtc_tblock_t* block,
                       const uint8_t* fuse, uint32_t fuse_count);
// Records the first failure (later ones are freed).
void grtc_emitter_fail(grtc_emitter_t* em, grt_status_t status);
bool grtc_emitter_failed(const grtc_emitter_t* em);

uint32_t grtc_em_const(grtc_emitter_t* em, grtc_elem_t type, double f,
                       int64_t i);
uint32_t grtc_em_i64(grtc_emitter_t* em, int64_t value);
uint32_t grtc_em_bool(grtc_emitter_t* em, bool value);
// Index |dim| of the parallel (reduction) space; CONST 0 for a dim of size 1.
uint32_t grtc_em_pindex(grtc_emitter_t* em, uint32_t dim);
uint32_t grtc_em_rindex(grtc_emitter_t* em, uint32_t dim);
uint32_t grtc_em_acc(grtc_emitter_t* em, uint32_t acc);
uint32_t grtc_em_arg(grtc_emitter_t* em, uint32_t arg, grtc_elem_t type);
// A scalar op; |type| is the result type.
uint32_t grtc_em_op(grtc_emitter_t* em, grtc_scalar_op_t op, grtc_elem_t type,
                    uint32_t a, uint32_t b, uint32_t c);
uint32_t grtc_em_cmp(grtc_emitter_t* em, grtc_compare_direction_t direction,
                     grtc_compare_type_t type, uint32_t a, uint32_t b);
uint32_t grtc_em_convert(grtc_emitter_t* em, grtc_elem_t type, uint32_t a);
uint32_t grtc_em_bitcast(grtc_emitter_t* em, grtc_elem_t type, uint32_t a);
grtc_elem_t grtc_em_type(const grtc_emitter_t* em, uint32_t inst);
// Whether |inst| is an integer (i1 included) CONST, and its value.
bool grtc_em_const_int(const grtc_emitter_t* em, uint32_t inst,
                       int64_t* out);

// i64 helpers (folded).
uint32_t grtc_em_add(grtc_emitter_t* em, uint32_t a, uint32_t b);
uint32_t grtc_em_sub(grtc_emitter_t* em, uint32_t a, uint32_t b);
uint32_t grtc_em_mul(grtc_emitter_t* em, uint32_t a, uint32_t b);
uint32_t grtc_em_clamp(grtc_emitter_t* em, uint32_t x, int64_t lo, int64_t hi);
// Begins emitting an operand whose value is used only where |selected|
// (i1) holds: returns the guard to restore with grtc_em_unguard.
uint32_t grtc_em_guard(grtc_emitter_t* em, uint32_t selected);
void grtc_em_unguard(grtc_emitter_t* em, uint32_t saved);
// |x| clamped into [0, last] (instructions), and 0 when last is -1: an
// index into an operand whose extent may be 0 at the call.
uint32_t grtc_em_clamp_index(grtc_emitter_t* em, uint32_t x, uint32_t last);
// i1 helpers.
uint32_t grtc_em_and(grtc_emitter_t* em, uint32_t a, uint32_t b);
uint32_t grtc_em_select(grtc_emitter_t* em, uint32_t predicate, uint32_t a,
                        uint32_t b);
// i1: lo <= x < hi.
uint32_t grtc_em_in_range(grtc_emitter_t* em, uint32_t x, int64_t lo,
                          int64_t hi);

// Symbolic shapes: a tensor dimension (static, or a GRTC_DIM_SYMBOL the
// module's shape table resolves) as a kernel size: the static size, or
// GRTC_KDIM_EXTENT of the kernel extent carrying the symbol's class
// (added on first use).
int64_t grtc_em_kdim(grtc_emitter_t* em, int64_t dim);
// The same size as an i64 instruction (CONST or EXTENT).
uint32_t grtc_em_dim(grtc_emitter_t* em, int64_t dim);

// The row-major linear index of |index| in |type|'s shape.
uint32_t grtc_em_linear(grtc_emitter_t* em, const grtc_ttype_t* type,
                        const uint32_t* index);
// The input binding of materialized |value| (added on first use).
uint32_t grtc_em_input(grtc_emitter_t* em, grtc_tvalue_t* value);
// |value|'s element at |index| (one i64 instruction per dim).
uint32_t grtc_em_value(grtc_emitter_t* em, grtc_tvalue_t* value,
                       const uint32_t* index);
// StableHLO gather/scatter start indices: element |k| of the index vector
// that |indices| holds at |batch_index| (its position over the indices'
// dims without index_vector_dim), converted to i64.
uint32_t grtc_em_index_vector_element(grtc_emitter_t* em,
                                      grtc_tvalue_t* indices,
                                      const uint32_t* batch_index,
                                      int64_t index_vector_dim, uint32_t k);
// Where indices dimension |dim| sits in a batch position (index_vector_dim,
// when it is inside the indices' rank, is not counted).
static inline uint32_t grtc_em_batch_dim(const grtc_tvalue_t* indices,
                                         int64_t index_vector_dim,
                                         int64_t dim) {
  bool inside = index_vector_dim < (int64_t)indices->type.rank;
  return (uint32_t)(inside && dim > index_vector_dim ? dim - 1 : dim);
}
// Result |result| of |op| at |index|, computed even when that result is
// materialized (|op| is the root of the kernel).
uint32_t grtc_em_op_result(grtc_emitter_t* em, grtc_top_t* op, uint32_t result,
                           const uint32_t* index);
// Makes grtc_em_value return |inst| for |value| (block arguments of a
// lowered body, a reduction fused as its consumer's prologue).
void grtc_em_bind(grtc_emitter_t* em, const grtc_tvalue_t* value,
                  uint32_t inst);
// Lowers |body| (rank-0 ops ending in YIELD) with its arguments bound to
// |args|; the yielded values (exactly |out_capacity|) go to
// |out_results|.
void grtc_em_body(grtc_emitter_t* em, const grtc_tblock_t* body,
                  const uint32_t* args, uint32_t arg_count,
                  uint32_t* out_results, uint32_t out_capacity);
// A splat or a constant of at most 16 elements (not unfoldable): inlined
// as CONST instructions wherever it is used.
bool grtc_em_small_constant(const grtc_top_t* op);
// Materialized value |value| read through only transposes of a
// materialized source: its element strides in that source and the source.
bool grtc_em_strided_source(grtc_emitter_t* em, grtc_tvalue_t* value,
                            int64_t* out_strides, grtc_tvalue_t** out_source);
// Whether |value| is computed in the kernel rather than loaded.
bool grtc_em_fused(const grtc_emitter_t* em, const grtc_tvalue_t* value);

#endif  // GRT_COMPILER_DISPATCH_EMITTER_H_
