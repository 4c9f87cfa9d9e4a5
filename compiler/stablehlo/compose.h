// Ops the importer lowers as compositions of tensor IR ops (the functions
// keep the grtc_chlo_ prefix of the CHLO ops they were first written for).
// CHLO ("client HLO", the ops JAX emits above StableHLO) as the importer
// meets them:
//   - the broadcast_* family becomes broadcast_in_dim of each operand to the
//     result's shape, then the StableHLO op;
//   - the math functions (acos, asinh, cosh, ...) become compositions of
//     elementwise ops. The formulas are the ones XLA's decompositions use,
//     so results agree with the expectations JAX computes (erf/erfc use
//     the polynomial fits of scripts/fit_chlo_erf.py); f16 and bf16 are
//     computed in f32 and rounded once;
//   - top_k becomes a stable sort of (x, iota) and a slice.
// StableHLO ops that are compositions of others are lowered here too:
//   - batch_norm_inference, batch_norm_training and batch_norm_grad become
//     reductions over every dimension but the feature's, broadcasts and
//     elementwise ops, as the spec defines them;
//   - reduce_precision rounds the bit pattern (nearest, ties to even) to the
//     narrower mantissa, then overflows to infinity and flushes to zero
//     what the narrower exponent cannot hold;
//   - triangular_solve and cholesky are unrolled over the matrix size
//     (forward substitution, column by column) into slices, dot_generals,
//     concatenations and elementwise ops, for matrices up to
//     GRTC_CHLO_MAX_LINALG_SIZE;
//   - torch_index_select becomes a gather (with operand batching dims for
//     its batch_dims);
//   - chlo.ragged_dot becomes dot_generals with group masks (ragged_dot.c).
#ifndef GRT_COMPILER_STABLEHLO_COMPOSE_H_
#define GRT_COMPILER_STABLEHLO_COMPOSE_H_

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "base/string_view.h"
#include "compiler/tensor/eval.h"
#include "compiler/tensor/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

// The largest matrix triangular_solve and cholesky unroll (their op counts
// grow with it; larger ones are a diagnostic).
#define GRTC_CHLO_MAX_LINALG_SIZE 256

// Where lowered ops go.
typedef struct grtc_chlo_builder_t {
  grtc_tmodule_t* module;
  grtc_tblock_t* block;
  // Gives a new op the source op's location.
  grt_status_t (*place)(void* user, grtc_top_t* top);
  void* user;
} grtc_chlo_builder_t;

// Building formulas (also used by quant.c). The helpers keep the first
// error in |status| and return NULL after it (and for a NULL operand), so a
// formula reads as one expression that is checked once.
typedef struct grtc_chlo_math_t {
  grtc_chlo_builder_t* b;
  grt_status_t status;
} grtc_chlo_math_t;

// An op of |kind| with one result of |type| (none when NULL).
grtc_tvalue_t* grtc_chlo_make(grtc_chlo_math_t* m, grtc_top_kind_t kind,
                              grtc_tvalue_t* const* operands, uint32_t count,
                              const grtc_ttype_t* type);
// An elementwise op whose result has |x|'s (|a|'s) type.
grtc_tvalue_t* grtc_chlo_unary(grtc_chlo_math_t* m, grtc_top_kind_t kind,
                               grtc_tvalue_t* x);
grtc_tvalue_t* grtc_chlo_binary(grtc_chlo_math_t* m, grtc_top_kind_t kind,
                                grtc_tvalue_t* a, grtc_tvalue_t* c);
// compare(|a|, |c|) in |direction| as floats: an i1 tensor of |a|'s shape.
grtc_tvalue_t* grtc_chlo_compare(grtc_chlo_math_t* m, grtc_compare_direction_t direction,
                                 grtc_tvalue_t* a, grtc_tvalue_t* c);
// select(|p|, |a|, |c|), of |a|'s type.
grtc_tvalue_t* grtc_chlo_select(grtc_chlo_math_t* m, grtc_tvalue_t* p, grtc_tvalue_t* a,
                                grtc_tvalue_t* c);
// |x| converted to |elem| (|x| itself when it has that element type).
grtc_tvalue_t* grtc_chlo_convert(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                 grtc_elem_t elem);
// A splat constant of |type| with every element |value| (in |type|'s
// element representation, eval.h).
grtc_tvalue_t* grtc_chlo_splat_type(grtc_chlo_math_t* m, const grtc_ttype_t* type,
                                    grtc_scalar_value_t value);
// A splat constant of |like|'s (float) type with every element |value|.
grtc_tvalue_t* grtc_chlo_splat(grtc_chlo_math_t* m, grtc_tvalue_t* like,
                               double value);
// The same with |value| in |like|'s element representation (eval.h), for
// any element type.
grtc_tvalue_t* grtc_chlo_splat_value(grtc_chlo_math_t* m, grtc_tvalue_t* like,
                                     grtc_scalar_value_t value);
// An iota of |type|'s shape in |elem| along |dim|.
grtc_tvalue_t* grtc_chlo_iota(grtc_chlo_math_t* m, const grtc_ttype_t* type, grtc_elem_t elem,
                              uint32_t dim);
// |x| reduced over its dimensions |dims| (|count| of them, ascending) by
// the scalar body |kind| from |init| (in |x|'s element representation);
// the result drops those dimensions.
grtc_tvalue_t* grtc_chlo_reduce(grtc_chlo_math_t* m, grtc_tvalue_t* x, const int64_t* dims,
                                uint32_t count, grtc_top_kind_t kind,
                                grtc_scalar_value_t init);
// A splat of |like|'s (integer) type holding the bit pattern |bits|.
grtc_tvalue_t* grtc_chlo_bits(grtc_chlo_math_t* m, grtc_tvalue_t* like, uint64_t bits);
// |x|'s bits as element type |elem| of the same width (bitcast_convert).
grtc_tvalue_t* grtc_chlo_bitcast(grtc_chlo_math_t* m, grtc_tvalue_t* x, grtc_elem_t elem);

// A constant of |type| whose elements are the |size| bytes at |data|
// (allocated in the module with grtc_tmodule_alloc; in |type|'s element
// representation, row-major).
grtc_tvalue_t* grtc_chlo_constant(grtc_chlo_math_t* m, const grtc_ttype_t* type,
                                  uint8_t* data, size_t size);

// Matrix helpers on the last two dims (the batch dims whole), shared with
// the LAPACK custom calls (lapack.c):
// x[..., row0:row1, col0:col1];
grtc_tvalue_t* grtc_chlo_slice2(grtc_chlo_math_t* m, grtc_tvalue_t* x, int64_t row0,
                                int64_t row1, int64_t col0, int64_t col1);
// x with its last two dims swapped;
grtc_tvalue_t* grtc_chlo_transpose2(grtc_chlo_math_t* m, grtc_tvalue_t* x);
// |parts| joined along |dim|;
grtc_tvalue_t* grtc_chlo_concat(grtc_chlo_math_t* m, grtc_tvalue_t* const* parts,
                                uint32_t count, uint32_t dim);
// lhs[..., p, k] . rhs[..., k, q] (rhs[..., q, k] when |rhs_transposed|);
grtc_tvalue_t* grtc_chlo_matmul(grtc_chlo_math_t* m, grtc_tvalue_t* lhs,
                                grtc_tvalue_t* rhs, bool rhs_transposed);
// |x| (size-1 dims) broadcast to |like|'s shape, same rank;
grtc_tvalue_t* grtc_chlo_expand(grtc_chlo_math_t* m, grtc_tvalue_t* x, grtc_tvalue_t* like);
// the lower Cholesky factor of a[..., n, n] (f32/f64, lower triangle read;
// the strict upper triangle of the factor 0; NaN from a column whose pivot
// is not positive), each pivot (the diagonal before its square root,
// [..., 1, 1]) into |pivots| when not NULL;
grtc_tvalue_t* grtc_chlo_cholesky_factor(grtc_chlo_math_t* m, grtc_tvalue_t* a,
                                         grtc_tvalue_t** pivots);
// checks that |type| is [..., n, n] float matrices with n at most
// GRTC_CHLO_MAX_LINALG_SIZE (|what| names the operand in the message).
grt_status_t grtc_chlo_check_square(grt_string_view_t name, const char* what,
                                    const grtc_ttype_t* type);

typedef enum grtc_chlo_rng_distribution_e {
  GRTC_CHLO_RNG_DISTRIBUTION_NONE,  // absent or not one of the two
  GRTC_CHLO_RNG_UNIFORM,
  GRTC_CHLO_RNG_NORMAL,
} grtc_chlo_rng_distribution_t;

typedef enum grtc_chlo_rng_e {
  GRTC_CHLO_RNG_NONE,  // absent or not one of the three
  GRTC_CHLO_RNG_DEFAULT,
  GRTC_CHLO_RNG_THREE_FRY,
  GRTC_CHLO_RNG_PHILOX,
} grtc_chlo_rng_t;

// What the importer decoded from the op's attributes.
typedef struct grtc_chlo_attrs_t {
  // broadcast_dimensions of a broadcast_* op: where the lower-ranked
  // operand's dims go in the result (absent: aligned to the trailing dims).
  bool has_broadcast_dims;
  const int64_t* broadcast_dims;
  uint32_t broadcast_dim_count;
  grtc_compare_direction_t compare_direction;  // broadcast_compare
  grtc_compare_type_t compare_type;
  bool has_k;  // top_k
  int64_t k;
  // batch_norm_*: epsilon and feature_index (has_feature_index when given).
  double epsilon;
  bool has_epsilon;
  int64_t feature_index;
  bool has_feature_index;
  // reduce_precision: exponent_bits and mantissa_bits (has_format when both
  // were given).
  int64_t exponent_bits;
  int64_t mantissa_bits;
  bool has_format;
  // triangular_solve: left_side, lower, unit_diagonal, transpose_a
  // (0 NO_TRANSPOSE, 1 TRANSPOSE, 2 ADJOINT; -1 when absent or unknown).
  // cholesky: lower (false when absent, as the spec's default).
  bool left_side, lower, unit_diagonal;
  bool has_left_side, has_lower, has_unit_diagonal;
  // triangular_solve: the operands and result are complex, interleaved
  // [..., 2] (complex.h).
  bool complex;
  int transpose_a;
  // torch_index_select: dim and batch_dims (has_index_select when both were
  // given).
  int64_t select_dim, select_batch_dims;
  bool has_index_select;
  // rng_bit_generator: rng_algorithm.
  grtc_chlo_rng_t rng_algorithm;
  // rng: rng_distribution, and the op's ordinal among the module's rng ops
  // (its numbers' key).
  grtc_chlo_rng_distribution_t rng_distribution;
  uint64_t rng_ordinal;
  // ragged_dot: its dot numbers, lhs_ragged_dimensions and
  // rhs_group_dimensions (has_ragged_dot when the attribute was given).
  grtc_dot_dims_t ragged_dot;
  grtc_i64s_t lhs_ragged, rhs_group;
  bool has_ragged_dot;
} grtc_chlo_attrs_t;

// Whether |name| ("chlo.acos") is an op grtc_chlo_lower handles, and how
// many operands and results it has.
bool grtc_chlo_handles(grt_string_view_t name, uint32_t* out_operand_count,
                       uint32_t* out_result_count);

// Appends the ops computing |name| on |operands| with result types
// |results|; |outs| receives the values that replace the op's results.
// Errors name what the op takes and what it was given (without a location;
// the importer adds it).
grt_status_t grtc_chlo_lower(grtc_chlo_builder_t* builder, grt_string_view_t name,
                             grtc_tvalue_t* const* operands, uint32_t operand_count,
                             const grtc_ttype_t* results, uint32_t result_count,
                             const grtc_chlo_attrs_t* attrs, grtc_tvalue_t** outs);

// chlo.ragged_dot(lhs, rhs, group_sizes) into |out| (ragged_dot.c: the
// three modes and their lowering).
grt_status_t grtc_chlo_ragged_dot(grtc_chlo_builder_t* b, grt_string_view_t name,
                                  grtc_tvalue_t* const* operands, const grtc_ttype_t* result,
                                  const grtc_chlo_attrs_t* attrs, grtc_tvalue_t** out);

// Whether bitcast_convert may reinterpret |from| as |to|: the same shape for
// element types of one width, else the narrower one's tensor has the other's
// shape and a last dimension of the width ratio (static shapes).
bool grtc_chlo_bitcast_shapes_match(const grtc_ttype_t* from, const grtc_ttype_t* to);

// stablehlo.bitcast_convert of |x| to |result| between element types of
// different widths, the narrower a divisor of the wider (i1 counts one bit):
// a tensor<...xKxN> <-> tensor<...xW> with K = bits(W) / bits(N). Part i of
// each wide element is element i of the last dimension (part 0 the least
// significant: little-endian), packed by shifts and an OR reduction and
// unpacked by shifts and masks. Another shape is INVALID_ARGUMENT naming
// both types (without a location).
grt_status_t grtc_chlo_bitcast_widths(grtc_chlo_builder_t* builder, grtc_tvalue_t* x,
                                      const grtc_ttype_t* result, grtc_tvalue_t** out);
// The same with the element widths given: i2/i4 (held one per byte in
// i8/ui8, sign- or zero-extended) count as 2 or 4 bits, so a
// tensor<...x2xi4> <-> tensor<...xi8> and tensor<...x4xi4> <-> i16 pack
// and unpack nibbles (part 0 the low one); unpacked iN parts come out
// sign-extended in their i8 holders.
grt_status_t grtc_chlo_bitcast_bits(grtc_chlo_builder_t* builder, grtc_tvalue_t* x,
                                    uint32_t from_bits, const grtc_ttype_t* result,
                                    uint32_t to_bits, grtc_tvalue_t** out);

// Packed i2/ui2/i4/ui4 at a function's boundary (docs/module-format.md,
// "Sub-byte integer tensors"): |packed| (tensor<Mxui8>, M = ceil(n * bits
// / 8)) unpacked into a tensor of |holder|'s static type (n one-per-byte
// holders, i8 sign-extended or ui8), element e from bits (e * bits) % 8 of
// byte e * bits / 8; |bits| is 2 or 4.
grt_status_t grtc_chlo_unpack_boundary(grtc_chlo_builder_t* builder, grtc_tvalue_t* packed,
                                       uint32_t bits, const grtc_ttype_t* holder,
                                       grtc_tvalue_t** out);
// The reverse: the static holders |x| packed into tensor<Mxui8>, the last
// byte's unused high bits 0.
grt_status_t grtc_chlo_pack_boundary(grtc_chlo_builder_t* builder, grtc_tvalue_t* x,
                                     uint32_t bits, grtc_tvalue_t** out);
// tensor<Mxui8> for n elements of |bits| bits.
grtc_ttype_t grtc_chlo_packed_type(int64_t count, uint32_t bits);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_STABLEHLO_COMPOSE_H_
