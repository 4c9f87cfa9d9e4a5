// The tensor IR: what every front-end imports into and every pass after it
// works on (docs/architecture.md §6).
//
// SSA values of ranked tensors (scalars are rank-0 tensors: arith
// ops, tensor.extract and index values all become rank-0 tensors, so one
// set of ops and one lowering serves them), ops from one table
// (GRTC_TOP_LIST) with their attributes decoded into grtc_top_attrs_t,
// single-block regions for op bodies (reduce, sort, while, if, case,
// scatter), and functions grouped in a module. Everything lives in the
// module's arena.
//
// Passes in order: verify and fold (passes.h), dispatch region
// formation (compiler/dispatch), memory planning and host code generation
// (compiler/host). Dispatch formation replaces computation with DISPATCH
// ops; after it a function holds only the ops listed as "host" below.
#ifndef GRT_COMPILER_TENSOR_IR_H_
#define GRT_COMPILER_TENSOR_IR_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/status.h"
#include "base/string_view.h"
#include "compiler/kernel/scalar.h"
#include "compiler/mlir/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRTC_MAX_RANK 8

// A dimension is static (>= 0, its size) or symbolic (< 0): the symbol
// -1 - d of the module's shape table (grtc_tshapes_t below), an extent
// known only at the call. docs/compiler.md "Symbolic shapes".
#define GRTC_DIM_SYMBOL(symbol) (-1 - (int64_t)(symbol))
static inline bool grtc_dim_is_static(int64_t dim) { return dim >= 0; }
static inline uint32_t grtc_dim_symbol(int64_t dim) {
  return (uint32_t)(-1 - dim);
}

typedef struct grtc_ttype_t {
  grtc_elem_t elem;
  uint32_t rank;
  int64_t dims[GRTC_MAX_RANK];  // static sizes or GRTC_DIM_SYMBOL(s)
} grtc_ttype_t;

// Equal element types and the same dims (a symbol equals only itself).
bool grtc_ttype_equal(const grtc_ttype_t* a, const grtc_ttype_t* b);
bool grtc_ttype_same_shape(const grtc_ttype_t* a, const grtc_ttype_t* b);
// Whether every dimension is static.
bool grtc_ttype_is_static(const grtc_ttype_t* type);
// Element count and byte size of a static type (-1 for a symbolic one).
int64_t grtc_ttype_element_count(const grtc_ttype_t* type);
int64_t grtc_ttype_byte_size(const grtc_ttype_t* type);
// "tensor<2x3xf32>" (symbolic dims as "?") into |buffer|; returns |buffer|.
const char* grtc_ttype_format(const grtc_ttype_t* type, char* buffer,
                              size_t capacity);
#define GRTC_TTYPE_FORMAT_CAPACITY 160

typedef struct grtc_top_t grtc_top_t;
typedef struct grtc_tblock_t grtc_tblock_t;
typedef struct grtc_tglobal_t grtc_tglobal_t;
typedef struct grtc_tfunc_t grtc_tfunc_t;

typedef struct grtc_tvalue_t {
  grtc_ttype_t type;
  grtc_top_t* def;       // NULL for block arguments
  grtc_tblock_t* block;  // block arguments: their block
  uint32_t index;        // result or argument index
  uint32_t id;           // unique in the module, for printing and maps
  uint32_t use_count;    // kept current by grtc_tfunc_recount_uses
} grtc_tvalue_t;

// X(NAME, op name as printed, scalar op for elementwise ops, role)
// Roles: E elementwise (operands and result share the shape; SELECT takes
// an i1 predicate, COMPARE gives i1), S structural (moves or replicates
// elements), R reduction-like (reduce, reduce_window, dot, convolution),
// C control flow, H host-only (never inside a dispatch), O other compute.
// Ops marked "host" in the comments may remain after dispatch formation.
#define GRTC_TOP_LIST(X)                                                  \
  /* host: rodata; attrs.constant, attrs.unfoldable */                    \
  X(CONSTANT, "stablehlo.constant", NONE, O)                              \
  /* attrs.dim = iota_dimension */                                        \
  X(IOTA, "stablehlo.iota", NONE, O)                                      \
  X(ADD, "stablehlo.add", ADD, E)                                         \
  X(SUBTRACT, "stablehlo.subtract", SUB, E)                               \
  X(MULTIPLY, "stablehlo.multiply", MUL, E)                               \
  X(DIVIDE, "stablehlo.divide", DIV, E)                                   \
  X(REMAINDER, "stablehlo.remainder", REM, E)                             \
  X(POWER, "stablehlo.power", POW, E)                                     \
  X(MAXIMUM, "stablehlo.maximum", MAX, E)                                 \
  X(MINIMUM, "stablehlo.minimum", MIN, E)                                 \
  X(AND, "stablehlo.and", AND, E)                                         \
  X(OR, "stablehlo.or", OR, E)                                            \
  X(XOR, "stablehlo.xor", XOR, E)                                         \
  X(SHIFT_LEFT, "stablehlo.shift_left", SHL, E)                           \
  X(SHIFT_RIGHT_ARITHMETIC, "stablehlo.shift_right_arithmetic", SHRA, E)  \
  X(SHIFT_RIGHT_LOGICAL, "stablehlo.shift_right_logical", SHRL, E)        \
  X(ATAN2, "stablehlo.atan2", ATAN2, E)                                   \
  X(NOT, "stablehlo.not", NOT, E)                                         \
  X(ABS, "stablehlo.abs", ABS, E)                                         \
  X(NEGATE, "stablehlo.negate", NEG, E)                                   \
  X(SIGN, "stablehlo.sign", SIGN, E)                                      \
  X(EXPONENTIAL, "stablehlo.exponential", EXP, E)                         \
  X(EXPONENTIAL_MINUS_ONE, "stablehlo.exponential_minus_one", EXPM1, E)   \
  X(LOG, "stablehlo.log", LOG, E)                                         \
  X(LOG_PLUS_ONE, "stablehlo.log_plus_one", LOG1P, E)                     \
  X(LOGISTIC, "stablehlo.logistic", LOGISTIC, E)                          \
  X(SQRT, "stablehlo.sqrt", SQRT, E)                                      \
  X(RSQRT, "stablehlo.rsqrt", RSQRT, E)                                   \
  X(CBRT, "stablehlo.cbrt", CBRT, E)                                      \
  X(TANH, "stablehlo.tanh", TANH, E)                                      \
  X(SINE, "stablehlo.sine", SIN, E)                                       \
  X(COSINE, "stablehlo.cosine", COS, E)                                   \
  X(TAN, "stablehlo.tan", TAN, E)                                         \
  X(FLOOR, "stablehlo.floor", FLOOR, E)                                   \
  X(CEIL, "stablehlo.ceil", CEIL, E)                                      \
  X(ROUND_NEAREST_AFZ, "stablehlo.round_nearest_afz", ROUND_AFZ, E)       \
  X(ROUND_NEAREST_EVEN, "stablehlo.round_nearest_even", ROUND_EVEN, E)    \
  X(IS_FINITE, "stablehlo.is_finite", IS_FINITE, E)                       \
  X(POPCNT, "stablehlo.popcnt", POPCNT, E)                                \
  X(COUNT_LEADING_ZEROS, "stablehlo.count_leading_zeros", CLZ, E)         \
  /* operands (pred, on_true, on_false); pred may be rank 0 */            \
  X(SELECT, "stablehlo.select", SELECT, E)                                \
  /* operands (min, x, max); min/max may be rank 0 */                     \
  X(CLAMP, "stablehlo.clamp", CLAMP, E)                                   \
  /* attrs.compare_direction, attrs.compare_type */                       \
  X(COMPARE, "stablehlo.compare", NONE, E)                                \
  X(CONVERT, "stablehlo.convert", NONE, E)                                \
  X(BITCAST_CONVERT, "stablehlo.bitcast_convert", NONE, E)                \
  /* attrs.dims = broadcast_dimensions */                                 \
  X(BROADCAST_IN_DIM, "stablehlo.broadcast_in_dim", NONE, S)              \
  /* host when its operand is materialized: a view of the same bytes */   \
  X(RESHAPE, "stablehlo.reshape", NONE, S)                                \
  /* attrs.dims = permutation */                                          \
  X(TRANSPOSE, "stablehlo.transpose", NONE, S)                            \
  /* attrs.start, attrs.limit, attrs.strides */                           \
  X(SLICE, "stablehlo.slice", NONE, S)                                    \
  /* operands (operand, start indices as rank-0 tensors...);              \
     attrs.sizes = slice_sizes */                                         \
  X(DYNAMIC_SLICE, "stablehlo.dynamic_slice", NONE, S)                    \
  /* operands (operand, update, start indices as rank-0 tensors...) */    \
  X(DYNAMIC_UPDATE_SLICE, "stablehlo.dynamic_update_slice", NONE, S)      \
  /* attrs.dim = dimension */                                             \
  X(CONCATENATE, "stablehlo.concatenate", NONE, S)                        \
  /* attrs.dim = dimension; the result is a rank-0 i32 or i64: the        \
     operand's extent there (a constant once that dimension is static) */ \
  X(GET_DIMENSION_SIZE, "stablehlo.get_dimension_size", NONE, O)          \
  /* Ops whose result shape is an operand's value (symbolic shapes; they   \
     become their static forms when folding makes those constant).        \
     operands (operand, output_dimensions); attrs.dims as broadcast_in_dim */ \
  X(DYNAMIC_BROADCAST_IN_DIM, "stablehlo.dynamic_broadcast_in_dim", NONE, S) \
  /* operands (operand, output_shape) */                                  \
  X(DYNAMIC_RESHAPE, "stablehlo.dynamic_reshape", NONE, S)                \
  /* operands (output_shape); attrs.dim = iota_dimension */               \
  X(DYNAMIC_IOTA, "stablehlo.dynamic_iota", NONE, O)                      \
  /* operands (operand, start_indices, limit_indices, strides) */         \
  X(REAL_DYNAMIC_SLICE, "stablehlo.real_dynamic_slice", NONE, S)          \
  /* operands (operand, padding value, edge_padding_low,                  \
     edge_padding_high, interior_padding) */                              \
  X(DYNAMIC_PAD, "stablehlo.dynamic_pad", NONE, S)                        \
  /* operands (operand, padding value); attrs.low, high, interior */      \
  X(PAD, "stablehlo.pad", NONE, S)                                        \
  /* attrs.dims = dimensions */                                           \
  X(REVERSE, "stablehlo.reverse", NONE, S)                                \
  /* stablehlo.dot imports as dot_general; attrs.dot */                   \
  X(DOT_GENERAL, "stablehlo.dot_general", NONE, R)                        \
  /* operands (lhs, rhs); attrs.conv */                                   \
  X(CONVOLUTION, "stablehlo.convolution", NONE, R)                        \
  /* operands (inputs..., inits...); regions[0] the body with 2N rank-0   \
     args ending in YIELD; attrs.dims = dimensions */                     \
  X(REDUCE, "stablehlo.reduce", NONE, R)                                  \
  /* as REDUCE; attrs.window */                                           \
  X(REDUCE_WINDOW, "stablehlo.reduce_window", NONE, R)                    \
  /* operands (operand, start_indices); attrs.gather */                   \
  X(GATHER, "stablehlo.gather", NONE, O)                                  \
  /* operands (inputs..., scatter_indices, updates...); regions[0] the    \
     update computation; attrs.scatter */                                 \
  X(SCATTER, "stablehlo.scatter", NONE, O)                                \
  /* regions[0] the comparator; attrs.dim, attrs.is_stable */             \
  X(SORT, "stablehlo.sort", NONE, O)                                      \
  /* host: regions[0] cond (YIELD of an i1 rank-0), regions[1] body */    \
  X(WHILE, "stablehlo.while", NONE, C)                                    \
  /* host: operand the i1 predicate; regions[0] true, regions[1] false */ \
  X(IF, "stablehlo.if", NONE, C)                                          \
  /* host: operand the i32 index; regions[i] the branches (last is the    \
     default for out-of-range indices) */                                 \
  X(CASE, "stablehlo.case", NONE, C)                                      \
  /* host: attrs.callee */                                                \
  X(CALL, "func.call", NONE, C)                                           \
  /* host: a function's terminator */                                     \
  X(RETURN, "func.return", NONE, C)                                       \
  /* host: a region's terminator (stablehlo.return) */                    \
  X(YIELD, "stablehlo.return", NONE, C)                                   \
  /* identity on its operands (stablehlo/util optimization_barrier) */    \
  X(OPTIMIZATION_BARRIER, "stablehlo.optimization_barrier", NONE, S)      \
  /* host: check module calls, no results */                              \
  X(CHECK_EQ, "check.expect_eq", NONE, H)                                 \
  /* attrs.atol, attrs.rtol */                                            \
  X(CHECK_ALMOST_EQ, "check.expect_almost_eq", NONE, H)                   \
  /* attrs.max_ulp, attrs.min_ulp */                                      \
  X(CHECK_CLOSE, "check.expect_close", NONE, H)                           \
  X(CHECK_TRUE, "check.expect_true", NONE, H)                             \
  X(CHECK_FALSE, "check.expect_false", NONE, H)                           \
  /* host: custom_call @shape_assertion (jax.export): operand 0 the i1    \
     rank-0 assertion, the rest rank-0 integers for {0}, {1}... in        \
     attrs.message, the error the call fails with when it is false */     \
  X(SHAPE_ASSERTION, "stablehlo.custom_call @shape_assertion", NONE, H)   \
  /* host: attrs.global; result 0 a copy of the global's current value */ \
  X(GLOBAL_LOAD, "util.global.load", NONE, H)                            \
  /* host: attrs.global; operand 0 becomes its value (copied into it) */  \
  X(GLOBAL_STORE, "util.global.store", NONE, H)                          \
  /* host: attrs.kernel, operands the inputs, results the outputs */      \
  X(DISPATCH, "dispatch", NONE, H)

typedef enum grtc_top_kind_e {
#define GRTC_TOP_ENUM(name, spelling, scalar, role) GRTC_TOP_##name,
  GRTC_TOP_LIST(GRTC_TOP_ENUM)
#undef GRTC_TOP_ENUM
  GRTC_TOP_COUNT
} grtc_top_kind_t;

typedef enum grtc_top_role_e {
  GRTC_ROLE_E,
  GRTC_ROLE_S,
  GRTC_ROLE_R,
  GRTC_ROLE_O,
  GRTC_ROLE_C,
  GRTC_ROLE_H,
} grtc_top_role_t;

const char* grtc_top_kind_name(grtc_top_kind_t kind);
grtc_top_role_t grtc_top_kind_role(grtc_top_kind_t kind);
// The scalar op an elementwise kind applies (GRTC_SCALAR_NONE otherwise).
grtc_scalar_op_t grtc_top_kind_scalar_op(grtc_top_kind_t kind);
// By printed name ("stablehlo.add"); false when none has it.
bool grtc_top_kind_from_name(grt_string_view_t name, grtc_top_kind_t* out);

typedef struct grtc_i64s_t {
  uint32_t count;
  int64_t* values;
} grtc_i64s_t;

typedef struct grtc_dot_dims_t {
  grtc_i64s_t lhs_batch, rhs_batch, lhs_contracting, rhs_contracting;
} grtc_dot_dims_t;

// stablehlo.convolution; absent attributes take the spec's defaults
// (strides and dilations 1, padding 0, group counts 1).
typedef struct grtc_conv_dims_t {
  int64_t input_batch, input_feature;
  grtc_i64s_t input_spatial;
  int64_t kernel_input_feature, kernel_output_feature;
  grtc_i64s_t kernel_spatial;
  int64_t output_batch, output_feature;
  grtc_i64s_t output_spatial;
  grtc_i64s_t window_strides, padding_low, padding_high;
  grtc_i64s_t lhs_dilation, rhs_dilation;
  int64_t feature_group_count, batch_group_count;
} grtc_conv_dims_t;

// stablehlo.reduce_window; per operand dimension, defaults filled in.
typedef struct grtc_window_t {
  grtc_i64s_t dimensions, strides, base_dilations, window_dilations;
  grtc_i64s_t padding_low, padding_high;
} grtc_window_t;

typedef struct grtc_gather_dims_t {
  grtc_i64s_t offset_dims, collapsed_slice_dims, operand_batching_dims;
  grtc_i64s_t start_indices_batching_dims, start_index_map, slice_sizes;
  int64_t index_vector_dim;
  bool indices_are_sorted;
} grtc_gather_dims_t;

typedef struct grtc_scatter_dims_t {
  grtc_i64s_t update_window_dims, inserted_window_dims, input_batching_dims;
  grtc_i64s_t scatter_indices_batching_dims, scatter_dims_to_operand_dims;
  int64_t index_vector_dim;
  bool indices_are_sorted, unique_indices;
} grtc_scatter_dims_t;

// Decoded attributes; which fields an op uses is noted in GRTC_TOP_LIST.
typedef struct grtc_top_attrs_t {
  grtc_i64s_t dims;
  int64_t dim;
  grtc_i64s_t start, limit, strides;  // slice
  grtc_i64s_t low, high, interior;    // pad
  // pad (a dynamic_pad's computed edge_padding_low / interior_padding):
  // per dimension, the symbol (GRTC_DIM_SYMBOL) whose value the padding
  // is, its low/interior entry then 0; 0 (or empty) where it is constant.
  grtc_i64s_t computed_low, computed_interior;
  grtc_i64s_t sizes;                  // dynamic_slice
  grtc_compare_direction_t compare_direction;
  grtc_compare_type_t compare_type;
  struct {
    // Little-endian element bytes of the result type (i1: one byte, 0/1);
    // a splat holds one element.
    const uint8_t* data;
    size_t size;
    bool splat;
  } constant;
  bool unfoldable;  // util.unfoldable_constant: folding must leave it alone
  grtc_dot_dims_t dot;
  grtc_conv_dims_t conv;
  grtc_window_t window;
  grtc_gather_dims_t gather;
  grtc_scatter_dims_t scatter;
  bool is_stable;  // sort
  grtc_tfunc_t* callee;
  double atol, rtol;  // check.expect_almost_eq (defaults 1e-4, 0)
  // check.expect_eq / expect_almost_eq by the StableHLO interpreter's rules
  // (custom_call @check.*, the check dialect's `tolerance`): floats equal as
  // values, or, for almost_eq, both NaN or of one sign within atol (rtol 0).
  bool reference_rule;
  // check.expect_close: ULP distance bounds (the check dialect's defaults
  // are 3 and 0).
  int64_t max_ulp, min_ulp;
  const char* message;  // SHAPE_ASSERTION's error_message (arena copy)
  // DISPATCH: index into the module's kernel set. The kernel's bindings
  // are the operands in order, then the results in order, except that a
  // tied result (|tied|: result 0 lives in operand |tied_operand|'s buffer,
  // updated in place, e.g. scatter) has no binding of its own. A tied
  // operand has no uses after the DISPATCH.
  uint32_t kernel;
  bool tied;
  uint32_t tied_operand;
  // GLOBAL_LOAD, GLOBAL_STORE: the module's global they read or write.
  const grtc_tglobal_t* global;
} grtc_top_attrs_t;

struct grtc_top_t {
  grtc_top_kind_t kind;
  // For diagnostics and debug info: the op's loc(...) (may be NULL) and
  // where its name was written in the input.
  const grtc_location_t* location;
  uint32_t line, column;
  uint32_t operand_count;
  grtc_tvalue_t** operands;
  uint32_t result_count;
  grtc_tvalue_t* results;
  uint32_t region_count;
  grtc_tblock_t** regions;
  grtc_top_attrs_t attrs;
  grtc_tblock_t* parent;
  grtc_top_t* prev;
  grtc_top_t* next;
};

struct grtc_tblock_t {
  uint32_t arg_count;
  grtc_tvalue_t* args;
  grtc_top_t* first;
  grtc_top_t* last;
  grtc_top_t* parent_op;  // NULL for a function body
  grtc_tfunc_t* func;
};

// A public function's argument or result that crosses the boundary packed
// (docs/module-format.md, "Sub-byte integer tensors"): the function takes
// or returns tensor<Mxui8> and unpacks or packs it itself; the host program
// gives the buffer view |bits| (2 or 4) and |type|'s shape (its element the
// one-per-byte holder, i8 or ui8).
typedef struct grtc_tpacked_t {
  uint32_t bits;  // 0: not packed
  bool is_unsigned;
  grtc_ttype_t type;
} grtc_tpacked_t;

struct grtc_tfunc_t {
  grt_string_view_t name;  // arena copy, NUL-terminated
  bool is_public;          // public functions are exported
  // NULL, or one per argument and one per result (arena).
  grtc_tpacked_t* packed_args;
  grtc_tpacked_t* packed_results;
  uint32_t result_count;
  grtc_ttype_t* result_types;
  grtc_tblock_t* body;     // arguments are the body's block arguments
  const grtc_location_t* location;
  uint32_t line, column;
  grtc_tfunc_t* next;
};

// A module-level variable: state kept across calls (a util.global or
// ml_program.global some function stores to; docs/compiler.md "Mutable
// globals"). The host program allocates its buffer when the module is
// loaded and fills it with the initial bytes; GLOBAL_LOAD copies the
// current bytes into a value, GLOBAL_STORE copies a value into them, both
// recorded in order with the dispatches.
struct grtc_tglobal_t {
  grt_string_view_t name;  // arena copy, NUL-terminated
  grtc_ttype_t type;       // static
  // The initial bytes, as attrs.constant of a CONSTANT of |type| (a splat
  // holds one element).
  const uint8_t* data;
  size_t size;
  bool splat;
  uint32_t index;  // in the module's list, from 0
  grtc_tglobal_t* next;
};

//===----------------------------------------------------------------------===//
// Symbolic shapes (docs/compiler.md "Symbolic shapes")
//===----------------------------------------------------------------------===//

// Where a symbol's extent comes from at the call.
typedef enum grtc_tsym_origin_e {
  // Dimension |axis| of argument |index| of |func|: the host reads it from
  // the argument's buffer view.
  GRTC_SYM_ARGUMENT,
  // Dimension |axis| of result |index| of |op|: the host computes it by the
  // op's shape rule (a dynamic op's shape operand, a concatenate's sum, a
  // result type the input wrote as "?").
  GRTC_SYM_RESULT,
} grtc_tsym_origin_t;
// A GRTC_SYM_RESULT symbol of a pad with |index| one of these is no
// result dimension but element |axis| of its computed edge_padding_low or
// interior_padding (grtc_top_attrs_t.computed_low/_interior).
#define GRTC_SYM_PAD_LOW 1u
#define GRTC_SYM_PAD_INTERIOR 2u

// An extent the host program computes at the call from other extents
// (docs/compiler.md "Computed extents"): the integer arithmetic of a
// dynamic op's shape operand, on i64, over constants and dimensions.
typedef enum grtc_sexpr_kind_e {
  GRTC_SEXPR_CONST,  // |value|
  GRTC_SEXPR_DIM,    // dimension |value| (static or symbolic)
  GRTC_SEXPR_ADD,
  GRTC_SEXPR_SUB,
  GRTC_SEXPR_MUL,
  GRTC_SEXPR_DIV,  // truncating, as stablehlo.divide on integers
  GRTC_SEXPR_REM,
  GRTC_SEXPR_MAX,
  GRTC_SEXPR_MIN,
  // Element |value| (row-major) of |data|, a static 1-D (or rank-0)
  // integer argument of its function, read from its buffer at the call
  // (grtc_tvalue_shape_expr_data; docs/compiler.md "Shapes read from
  // data").
  GRTC_SEXPR_DATA,
} grtc_sexpr_kind_t;

typedef struct grtc_sexpr_t {
  grtc_sexpr_kind_t kind;
  int64_t value;
  const struct grtc_tvalue_t* data;  // GRTC_SEXPR_DATA
  const struct grtc_sexpr_t* lhs;
  const struct grtc_sexpr_t* rhs;
} grtc_sexpr_t;

typedef struct grtc_tsym_t {
  const grtc_tfunc_t* func;
  grtc_tsym_origin_t origin;
  const grtc_top_t* op;  // GRTC_SYM_RESULT
  uint32_t index, axis;
  const char* name;  // e.g. an ONNX dim_param ("batch"); NULL when unnamed
  // Union-find over symbols the relations prove equal: the class's
  // representative has parent == its own id (the lowest id of the class,
  // so argument symbols, made first, represent their classes) and |size|
  // the static extent the relations prove (-1 while unknown).
  uint32_t parent;
  int64_t size;
  // A computed extent (GRTC_SYM_RESULT of a dynamic op): its value from
  // the op's shape operands, set by grtc_tensor_prepare_symbolic; NULL
  // otherwise. A real_dynamic_slice's is (limit - start + stride - 1) /
  // stride, the limit's expression at expr->lhs->lhs->lhs (the host
  // program checks it against the operand).
  const grtc_sexpr_t* expr;
  grtc_top_kind_t expr_op_kind;  // |op|'s kind when it got |expr| (messages)
  // The if or case branch (region) that held |op| when the symbol was
  // made (grtc_top_branch_region; dispatch formation later replaces |op|),
  // or NULL.
  const grtc_tblock_t* branch;
} grtc_tsym_t;

typedef enum grtc_trel_kind_e {
  GRTC_REL_EQ,  // a == b
  GRTC_REL_GE,  // a >= b (a static slice of a symbolic dimension)
} grtc_trel_kind_t;

// One shape relation the program implies, recorded when it first adds
// information (the host program checks the ones between independent
// extents at the call; see docs/compiler.md).
typedef struct grtc_trel_t {
  grtc_trel_kind_t kind;
  int64_t a, b;  // dimensions (static or symbolic) as they were recorded
  const grtc_tfunc_t* func;
  const grtc_top_t* op;  // the op that implies it (NULL: a call boundary)
  const char* what;      // "operand 1 dimension 0", static text
} grtc_trel_t;

typedef struct grtc_tshapes_t {
  grtc_tsym_t* syms;
  uint32_t sym_count, sym_capacity;
  grtc_trel_t* rels;
  uint32_t rel_count, rel_capacity;
} grtc_tshapes_t;

typedef struct grtc_tmodule_cleanup_t grtc_tmodule_cleanup_t;

typedef struct grtc_tmodule_t {
  grt_arena_t arena;
  // Run by grtc_tmodule_destroy, newest first: what constants point into
  // without copying (an ONNX model's decoded initializers).
  grtc_tmodule_cleanup_t* cleanups;
  grt_string_view_t name;  // module @name, "module" when unnamed
  const char* file_name;   // for diagnostics (arena copy)
  grtc_tfunc_t* first_func;
  grtc_tfunc_t* last_func;
  grtc_tglobal_t* first_global;
  grtc_tglobal_t* last_global;
  uint32_t global_count;
  uint32_t next_value_id;
  // The symbols of every function and the relations between them: shape
  // bookkeeping that verification adds to, so it is reached through a
  // pointer even from a const module.
  grtc_tshapes_t* shapes;
} grtc_tmodule_t;

grt_status_t grtc_tmodule_create(const char* name, const char* file_name,
                                 grt_allocator_t allocator,
                                 grtc_tmodule_t** out_module) GRT_MUST_USE;
void grtc_tmodule_destroy(grtc_tmodule_t* module);
// Has grtc_tmodule_destroy call |fn|(|user|): constants may then point into
// memory |user| owns instead of an arena copy. On failure (out of memory)
// |fn| is called at once and an error returned.
grt_status_t grtc_tmodule_add_cleanup(grtc_tmodule_t* module,
                                      void (*fn)(void* user),
                                      void* user) GRT_MUST_USE;

grt_status_t grtc_tfunc_create(grtc_tmodule_t* module, grt_string_view_t name,
                               const grtc_ttype_t* arg_types,
                               uint32_t arg_count,
                               const grtc_ttype_t* result_types,
                               uint32_t result_count,
                               grtc_tfunc_t** out_func) GRT_MUST_USE;
grtc_tfunc_t* grtc_tmodule_find_func(const grtc_tmodule_t* module,
                                     grt_string_view_t name);
// Adds a mutable global named |name| of the static |type| holding |data|
// (|size| bytes: the type's byte size, or one element when |splat|; copied
// into the arena) when the module loads. A symbolic type, a size that does
// not match or a name already taken is INVALID_ARGUMENT naming the global.
grt_status_t grtc_tmodule_add_global(grtc_tmodule_t* module,
                                     grt_string_view_t name,
                                     const grtc_ttype_t* type,
                                     const uint8_t* data, size_t size,
                                     bool splat,
                                     grtc_tglobal_t** out_global) GRT_MUST_USE;
grtc_tglobal_t* grtc_tmodule_find_global(const grtc_tmodule_t* module,
                                         grt_string_view_t name);

// A detached block (for op regions) with |arg_count| arguments.
grt_status_t grtc_tblock_create(grtc_tmodule_t* module,
                                const grtc_ttype_t* arg_types,
                                uint32_t arg_count,
                                grtc_tblock_t** out_block) GRT_MUST_USE;

// A detached op with its results typed |result_types| and room for
// |region_count| regions (set op->regions[i] with grtc_top_set_region).
// Attributes start zeroed; the caller fills op->attrs (arrays from
// grtc_tmodule_i64s). Insert it with grtc_tblock_append/insert_before.
grt_status_t grtc_top_create(grtc_tmodule_t* module, grtc_top_kind_t kind,
                             grtc_tvalue_t* const* operands,
                             uint32_t operand_count,
                             const grtc_ttype_t* result_types,
                             uint32_t result_count, uint32_t region_count,
                             grtc_top_t** out_op) GRT_MUST_USE;
void grtc_top_set_region(grtc_top_t* op, uint32_t index, grtc_tblock_t* block);
// Copies location and line/column from |from|.
void grtc_top_copy_location(grtc_top_t* op, const grtc_top_t* from);
// Gives |op| (reduce, reduce_window, scatter: its region 0) the body that
// combines its two rank-0 |elem| arguments with the one op |kind| and
// yields the result; with GRTC_TOP_COUNT for |kind|, the body yields its
// second argument (a scatter's update replacing the operand). The body's
// ops take |op|'s location.
grt_status_t grtc_top_set_scalar_body(grtc_tmodule_t* module, grtc_top_t* op,
                                      grtc_top_kind_t kind,
                                      grtc_elem_t elem) GRT_MUST_USE;

void grtc_tblock_append(grtc_tblock_t* block, grtc_top_t* op);
void grtc_tblock_insert_before(grtc_top_t* before, grtc_top_t* op);
// Unlinks |op| from its block (its operands' use counts are not changed).
void grtc_top_unlink(grtc_top_t* op);

// An arena copy of |values| (NULL when count is 0).
grtc_i64s_t grtc_tmodule_i64s(grtc_tmodule_t* module, const int64_t* values,
                              uint32_t count);
void* grtc_tmodule_alloc(grtc_tmodule_t* module, size_t size);  // zeroed

// Rewrites every use of |from| in |func| (nested regions included) to |to|.
void grtc_tfunc_replace_uses(grtc_tfunc_t* func, grtc_tvalue_t* from,
                             grtc_tvalue_t* to);
// Recomputes use_count of every value in |func|.
void grtc_tfunc_recount_uses(grtc_tfunc_t* func);
// Removes ops whose results are all unused, except those with effects
// (roles C and H other than DISPATCH and GLOBAL_LOAD: calls, terminators,
// control flow, checks, global stores), repeatedly, and recounts uses.
void grtc_tfunc_remove_dead_ops(grtc_tfunc_t* func);

// A new symbol; *out_dim is its GRTC_DIM_SYMBOL.
grt_status_t grtc_tmodule_new_symbol(const grtc_tmodule_t* module,
                                     const grtc_tfunc_t* func,
                                     grtc_tsym_origin_t origin,
                                     const grtc_top_t* op, uint32_t index,
                                     uint32_t axis,
                                     int64_t* out_dim) GRT_MUST_USE;
// |dim| with its symbol replaced by the class representative, or by the
// static size the relations prove; a static |dim| as it is.
int64_t grtc_tmodule_resolve_dim(const grtc_tmodule_t* module, int64_t dim);
// Records that |op| (|what| says where in it) implies |a| |kind| |b|.
// Equal symbols join one class; a symbol equal to a static size gets that
// size. *out_conflict is set (and nothing recorded) when both resolve to
// static sizes that violate the relation: the caller reports it.
grt_status_t grtc_tmodule_relate(const grtc_tmodule_t* module,
                                 const grtc_tfunc_t* func,
                                 grtc_trel_kind_t kind, int64_t a, int64_t b,
                                 const grtc_top_t* op, const char* what,
                                 bool* out_conflict) GRT_MUST_USE;
// "%s" text for |dim| in diagnostics: "s0: argument 0 dimension 1 of
// @main", "s0 'batch': argument 0 dimension 0 of @main" (named), "s3:
// result 0 dimension 1 of 'stablehlo.dynamic_reshape' at 3:8", "s1: result
// 0 dimension 0 of @main" (a function's declared result); static dims as
// their size.
const char* grtc_tmodule_describe_dim(const grtc_tmodule_t* module,
                                      int64_t dim, char* buffer,
                                      size_t capacity);
// Element |index| (row-major) of |value|, an integer constant of any rank
// (not an unfoldable one); false otherwise.
bool grtc_tvalue_constant_element(const grtc_tvalue_t* value, int64_t index,
                                  int64_t* out);
// As grtc_tvalue_constant_element, an unfoldable constant's element too:
// for an operand whose value grt must know when compiling (dynamic_gather's
// slice sizes), where the program's value is that constant's at every call.
bool grtc_tvalue_stored_element(const grtc_tvalue_t* value, int64_t index,
                                int64_t* out);
// Element |index| of the rank-0 or rank-1 integer |value| as a dimension,
// when the program determines it: an element of a constant (static), a
// get_dimension_size of a dimension (that dimension), and converts between
// integer types, reshapes, broadcasts of a rank-0 value and concatenates
// of those (the shape operands jax.export writes). False otherwise.
bool grtc_tvalue_shape_element(const grtc_tvalue_t* value, int64_t index,
                               int64_t* out_dim);
// A new expression node in |module|'s arena; NULL when out of memory (or
// an operand is NULL).
const grtc_sexpr_t* grtc_tmodule_sexpr(grtc_tmodule_t* module,
                                       grtc_sexpr_kind_t kind, int64_t value,
                                       const grtc_sexpr_t* lhs,
                                       const grtc_sexpr_t* rhs);
// Element |index| of the rank-0 or rank-1 integer |value| as an
// expression (allocated in |module|'s arena) when the program computes it
// from constants and dimensions: grtc_tvalue_shape_element's chains and,
// between them, integer add, subtract, multiply, divide, remainder,
// maximum and minimum. False when it does not (a value read from memory).
bool grtc_tvalue_shape_expr(grtc_tmodule_t* module, const grtc_tvalue_t* value,
                            int64_t index, const grtc_sexpr_t** out_expr);
// As grtc_tvalue_shape_expr, and an element of a function argument (a
// static rank-1 or a rank-0 i32 or i64 tensor, followed through the same
// chains) is a GRTC_SEXPR_DATA leaf: a dynamic_reshape's shape read from
// tensor data.
bool grtc_tvalue_shape_expr_data(grtc_tmodule_t* module, const grtc_tvalue_t* value,
                                 int64_t index, const grtc_sexpr_t** out_expr);
// Whether |expr| holds a GRTC_SEXPR_DATA leaf.
bool grtc_sexpr_reads_data(const grtc_sexpr_t* expr);
// The function argument of |expr|'s first GRTC_SEXPR_DATA leaf, or NULL
// (messages name the argument whose data set a size).
const grtc_tvalue_t* grtc_sexpr_data_argument(const grtc_sexpr_t* expr);
// Whether a symbol of |func| has an expression reading tensor data
// (grtc_sexpr_reads_data): the host program reads it at the call.
bool grtc_tfunc_reads_shape_data(const grtc_tmodule_t* module, const grtc_tfunc_t* func);
// Whether symbol |id| is a source: an extent the call supplies rather than
// one an op's shape rule derives from its operands' (an argument dimension,
// a dynamic op's shape-operand element, a call's result). The host program's
// checks at the call are exactly: in every class, each source equals the
// class's static size if it has one, else the representative's extent
// (grtc_trel_t names the op that implied it, for the message); and every
// GRTC_REL_GE bound holds. Non-source symbols need no check.
bool grtc_tmodule_symbol_is_source(const grtc_tmodule_t* module, uint32_t id);

// Whether dimension |axis| of carried value |index| of while loop |op|
// changes size in the loop: the body yields an extent (a concatenation, a
// padding, a dynamic op's computed extent) the relations do not join to
// the carried one, the loop result's symbol (which the importer gives the
// region arguments too). The host program then carries the extent from
// one iteration to the next (docs/compiler.md "Symbolic shapes").
bool grtc_while_dim_varies(const grtc_tmodule_t* module, const grtc_top_t* op,
                           uint32_t index, uint32_t axis);
// Whether dimension |axis| of result |index| of if/case |op| depends on
// the branch taken: its branches yield extents the relations do not join
// into one class (or different static sizes). The host program then
// passes the taken branch's extent to the code after the op.
bool grtc_branch_dim_varies(const grtc_tmodule_t* module, const grtc_top_t* op,
                            uint32_t index, uint32_t axis);
// Whether the class of the symbolic |dim| holds the carried extent of a
// while loop that changes it (grtc_while_dim_varies), or an if/case
// result's extent the branch taken decides (grtc_branch_dim_varies); the
// op's result symbol in it is returned through |out_op|/|out_index|/
// |out_axis| (may be NULL).
bool grtc_tmodule_dim_loop_carried(const grtc_tmodule_t* module, int64_t dim,
                                   const grtc_top_t** out_op, uint32_t* out_index,
                                   uint32_t* out_axis);

// Whether the symbolic |dim|'s class takes a different extent in each
// iteration of a while loop: it is loop-carried
// (grtc_tmodule_dim_loop_carried), a call's result the callee's loop
// computes, or a concatenation, padding or computed extent derived from
// such a class, and no argument gives it. Such extents are computed where
// the loop carries them (or the call returns them), never before; so
// are those derived inside an if or case branch (grtc_tsym_inputs_vary).
bool grtc_tmodule_dim_varies(const grtc_tmodule_t* module, int64_t dim);
// Whether derived symbol |id| (a concatenation's, a padding's or a
// computed extent) is computed from an extent grtc_tmodule_dim_varies, or
// derived by an op inside an if or case branch (grtc_top_branch_region):
// the host program computes it where its inputs are known, in the branch,
// never at the function's entry.
bool grtc_tsym_inputs_vary(const grtc_tmodule_t* module, uint32_t id);
// The region of the nearest if or case op that holds |op| (one of its
// branches), or NULL when |op| lies in no branch.
const grtc_tblock_t* grtc_top_branch_region(const grtc_top_t* op);

// Rewrites every type in |func| (arguments, results, op results, region
// arguments) through grtc_tmodule_resolve_dim; true when one changed.
bool grtc_tfunc_resolve_shapes(const grtc_tmodule_t* module,
                               grtc_tfunc_t* func);

// "file:line:col: error: <message>" at |op| (its loc's file position when
// it has one, else where it was written).
grt_status_t grtc_top_error(const grtc_tmodule_t* module, const grtc_top_t* op,
                            const char* format, ...) GRT_PRINTF_LIKE(3, 4)
    GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_TENSOR_IR_H_
