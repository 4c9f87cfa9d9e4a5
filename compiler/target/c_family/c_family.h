// Emission shared by the C-language kernel backends (compiler/target/cpu's
// C and compiler/target/cuda's CUDA C++) and the GLSL one
// (compiler/target/vulkan): all spell kernel IR the same way (one
// `[const] T vN = ...;` local per instruction, scalar ops through the
// prelude's grt_<op>_<type> helpers), so the type table, the instruction
// emission and the C prelude's scalar helpers live here once and each
// target supplies only its dialect's differences (grtc_c_family_dialect_t:
// GLSL's syntax, its type table and the instructions it spells itself; the
// prelude's head and conversions). Not a public API.
#ifndef GRT_COMPILER_TARGET_C_FAMILY_C_FAMILY_H_
#define GRT_COMPILER_TARGET_C_FAMILY_C_FAMILY_H_

#include <stdbool.h>
#include <stdint.h>

#include "base/string_builder.h"
#include "compiler/kernel/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

// How one element type is spelled in generated C.
typedef struct grtc_c_family_type_t {
  const char* compute;       // C type values are computed in
  const char* storage;       // C type of the binding's elements
  const char* helper;        // suffix of the prelude's grt_<op>_<suffix>
  const char* as_signed;     // integers: same-width signed type
  const char* as_unsigned;   // integers: same-width unsigned type
  const char* from_storage;  // format (one %s) turning storage into compute
  const char* to_storage;    // format (one %s) turning compute into storage
  const char* key;           // floats: grt_key_<key> for total order
} grtc_c_family_type_t;

const grtc_c_family_type_t* grtc_c_family_type(grtc_elem_t elem);

// The C operator of a COMPARE's direction (grtc_cmp_direction_t order).
const char* grtc_c_family_compare_op(uint32_t direction);

// Appends |format| (one %s) applied to |arg|.
void grtc_c_family_wrap(grt_string_builder_t* out, const char* format,
                        const char* arg);

// The text below is the same in C, CUDA C++ and GLSL (the GLSL emitter
// calls these too): the helper suffixes and f16/bf16 keys they read are
// spelled alike in every target's type table.

// `p<dim>`, `r<dim>` or `acc<dim>` for a PINDEX, RINDEX or ACC |inst|.
void grtc_c_family_emit_loop_var(grt_string_builder_t* out,
                                 const grtc_kinst_t* inst);

// `grt_<op>_<suffix>(vA, ...)` for the OP |inst| of |kernel|.
void grtc_c_family_emit_helper_call(grt_string_builder_t* out,
                                    const grtc_kernel_t* kernel,
                                    const grtc_kinst_t* inst);

// `v<value>`, or `grt_round_<key>(v<value>)` when |value| is f16/bf16
// (those round to their storage precision on every convert, scalar.h).
void grtc_c_family_emit_rounded(grt_string_builder_t* out,
                                const grtc_kernel_t* kernel, uint32_t value);

typedef struct grtc_c_family_emitter_t grtc_c_family_emitter_t;

// What differs between the C dialects in ordinary instructions.
typedef struct grtc_c_family_dialect_t {
  // Integer constants are ((T)<prefix>0x...<suffix>).
  const char* int_literal_prefix;
  const char* int_literal_suffix;
  // Appends a float constant that has no literal (NaN or +-infinity) of
  // compute type |compute|.
  void (*special_float)(grt_string_builder_t* out, const char* compute,
                        double value, bool is_f64);
  // Whether CONVERT from f32-computed floats to f16/bf16 goes through the
  // prelude's grt_f32_to_<key> (one hardware rounding) instead of through
  // double (the software rounding every source shares).
  bool narrow_from_f32;
  // GLSL's syntax instead of C's: `T vN` locals (not const), constructor
  // casts T(x), i1 results as uint (predicates tested != 0u), binding
  // indices as uint(x), and 64-bit integer compares through the prelude's
  // grt_cmp_s64/u64 (see compiler/target/vulkan/prelude_glsl.c).
  bool glsl;
  // The type table (NULL: grtc_c_family_type's).
  const grtc_c_family_type_t* types;
  // Optional: emits the value of instruction |i| (after `T vN = `) when
  // the dialect spells its kind itself, returning false to leave it to
  // the shared emission. A dialect that handles BITCAST here gets no
  // memcpy block.
  bool (*emit_value)(const grtc_c_family_emitter_t* e, uint32_t i);
} grtc_c_family_dialect_t;

// One kernel's emission state, as the shared functions need it.
struct grtc_c_family_emitter_t {
  const grtc_c_family_dialect_t* dialect;
  grt_string_builder_t* out;
  const grtc_kernel_t* kernel;
  const char* indent;
  // Optional, per instruction: an i64 value that only feeds indices, whose
  // ADD/SUB/MUL (and DIV/REM by positive constants) cannot overflow and
  // are emitted as plain C operators.
  const bool* index_only;
  // The binding SORT comparator ARG(0) reads (ARG(d) reads binding
  // arg_binding_base + d / 2, at i for even d and j for odd d).
  uint32_t arg_binding_base;
  // GPU targets' bounds checks (grtc_c_family_bounds_checked kernels): a
  // LOAD outside its binding reads 0 and a store outside it is skipped.
  // The binding's element count is `uint64_t(b<b>.length())` in GLSL and
  // the local `len<b>` (uint64_t) in C. In GLSL each check is
  // `grt_in(<inside>, <binding>u)`, which the shader defines to record the
  // first access outside (see compiler/target/vulkan/emit_glsl.c).
  bool bounds_checked;
};

// `<indent>const T vN = ...;\n` for instruction |i| (BITCAST: a declaration
// and a memcpy block). Kinds the target handles itself emit nothing after
// the declaration's `= `; callers route only ordinary instructions here.
void grtc_c_family_emit_inst(const grtc_c_family_emitter_t* e, uint32_t i);

// The kernel's stores, one `<indent>[if (vP) ]bB[vI] = <vV as storage>;`
// each.
void grtc_c_family_emit_stores(const grtc_c_family_emitter_t* e);

// `<indent>const float acc0 = <value>[ + vInit];`: a MATMUL/CONV pattern's
// ACC(0) from the computed |value|, plus the accumulator's initial value
// unless that is the constant +0 (the pattern routines start from 0).
void grtc_c_family_emit_pattern_acc(const grtc_c_family_emitter_t* e,
                                    const char* value);

// Row count, length and element stride of a SORT kernel's rows (every
// target walks them the same way).
void grtc_c_family_sort_geometry(const grtc_kernel_t* kernel, int64_t* out_rows,
                                 int64_t* out_length, int64_t* out_stride);

// Symbolic extents (compiler/kernel/ir.h): every target declares extent e
// as an int64_t (int64_t in GLSL) local `e<e>` at the kernel's start, read
// from its push constants, and spells a kernel size |dim| through this:
// the number, or `e<e>` for GRTC_KDIM_EXTENT(e). EXTENT instructions read
// `e<dim>`.
void grtc_c_family_size(char* buffer, size_t size, int64_t dim);

// `lo<d>`/`hi<d>` (int64_t) for the tile of the parallel space that the
// linear workgroup id |id_expr| names (the whole space for serial kernels),
// peeling d from the innermost; the outermost takes no modulo, so an
// out-of-range id yields an empty tile. A symbolic dim computes its tile
// count `n<d>` (uint64_t) from its extent `e<e>`. |u64_suffix| spells a uint64_t
// literal's suffix ("u" in C, "ull" in CUDA C++).
void grtc_c_family_emit_tile_bounds(grt_string_builder_t* out,
                                    const grtc_kernel_t* kernel,
                                    const char* id_expr,
                                    const char* u64_suffix);

// Whether a LOOP kernel needs its reduction block: reduction dims,
// accumulators or LOOP-section instructions.
bool grtc_c_family_has_reduction_loop(const grtc_kernel_t* kernel);

// Bounds checks (docs/compiler.md "Backends: kernels with symbolic
// extents"): a LOOP kernel with symbolic extents or a binding of no static
// size (element_count -1) cannot have its bindings checked by the HAL
// before the dispatch, so its emitted code checks its indices against the
// lengths of the bindings the dispatch gave it. Static kernels have none
// of this (the HAL checks binding_min_lengths).
bool grtc_c_family_bounds_checked(const grtc_kernel_t* kernel);

// What a CPU kernel returns for an access outside binding b: this plus b
// (hal/local/kernel_abi.h's GRT_KERNEL_CODE_OUT_OF_RANGE).
#define GRTC_KERNEL_CODE_OUT_OF_RANGE 256

// The target-specific parts of the prelude around the shared scalar
// helpers. |head| must define GRT_I (the qualifiers of an inline helper),
// GRT_O (those of a helper too big to inline everywhere),
// GRT_POPCNT64(x) and GRT_CLZ64(x) (64 for 0) on uint64_t, and the
// fixed-width integer types and math functions the helpers use.
// |conversions| must define grt_f16_to_f32, grt_bf16_to_f32,
// grt_f32_to_f16, grt_f32_to_bf16 (rounding to nearest even; it may use
// grt_f64_to_small, grt_f64_to_f16 and grt_f64_to_bf16), grt_key_f32 and
// grt_key_f64.
typedef struct grtc_c_family_prelude_t {
  const char* head;
  const char* conversions;
} grtc_c_family_prelude_t;

void grtc_c_family_emit_prelude(grt_string_builder_t* out,
                                const grtc_c_family_prelude_t* target);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_TARGET_C_FAMILY_C_FAMILY_H_
