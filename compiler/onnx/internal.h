// What the ONNX importer's op files share: the node being imported, the
// op table entry type, attribute readers and the tensor IR builders that
// implement ONNX's broadcasting and defaults.
//
// Builders keep the node's first error in |n->status| and return NULL after
// it, so an op's formula reads as a sequence of calls and the dispatcher
// checks the status once. Every builder folds an op whose operands are all
// constants (grtc_tensor_fold_new_op), so the shape arithmetic that
// exporters write as Shape -> Gather -> Concat -> Reshape becomes constants
// that grtc_onnx_ints reads.
#ifndef GRT_COMPILER_ONNX_INTERNAL_H_
#define GRT_COMPILER_ONNX_INTERNAL_H_

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "compiler/onnx/import.h"
#include "compiler/tensor/ir.h"
#include "onnx.pb-c.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grtc_onnx_importer_t grtc_onnx_importer_t;
typedef struct grtc_onnx_scope_t grtc_onnx_scope_t;

// One node being imported.
typedef struct grtc_onnx_node_t {
  grtc_onnx_importer_t* importer;
  grtc_tmodule_t* module;
  const Onnx__NodeProto* proto;
  uint32_t number;  // 1-based position in its graph
  int64_t opset;    // of the node's domain
  grtc_tblock_t* block;       // where new ops go
  grtc_onnx_scope_t* scope;   // names visible to the node (sub-graphs)
  const grtc_location_t* location;
  // Inputs in order; NULL for an optional input given as "" or past the
  // end of the node's list. input_count is the node's list length.
  uint32_t input_count;
  grtc_tvalue_t** inputs;
  // Set by the op: one value per output the node names (output_count is the
  // node's list length; outputs named "" may stay NULL).
  uint32_t output_count;
  grtc_tvalue_t** outputs;
  grt_status_t status;  // first error of a builder
} grtc_onnx_node_t;

typedef grt_status_t (*grtc_onnx_op_fn_t)(grtc_onnx_node_t* n);

// One row of an op table: the op type, its handler, how many inputs it
// takes (min..max; max -1 for variadic) and outputs (min..max; the node
// may name fewer than max), and the opset that introduced it (opsets
// below it are refused).
typedef struct grtc_onnx_op_def_t {
  const char* op_type;
  grtc_onnx_op_fn_t fn;
  int min_inputs, max_inputs;
  int min_outputs, max_outputs;
  int since_opset;
} grtc_onnx_op_def_t;

// The op tables, each ending in a row with a NULL op_type. One per file:
// elementwise.c, nn.c (conv, pools, norms, matmul), shape.c (movement,
// indexing, shape ops), reduce.c (reductions, softmax, arg*, topk, cumsum),
// control.c (If, Loop, Scan, LSTM, GRU, RNN), quant.c (QuantizeLinear,
// DequantizeLinear and the QLinear ops), special.c (losses, signal
// windows, sampling and the other ops of one kind each).
extern const grtc_onnx_op_def_t grtc_onnx_elementwise_ops[];
extern const grtc_onnx_op_def_t grtc_onnx_nn_ops[];
extern const grtc_onnx_op_def_t grtc_onnx_shape_ops[];
extern const grtc_onnx_op_def_t grtc_onnx_reduce_ops[];
extern const grtc_onnx_op_def_t grtc_onnx_control_ops[];
extern const grtc_onnx_op_def_t grtc_onnx_quant_ops[];
extern const grtc_onnx_op_def_t grtc_onnx_special_ops[];

// Every op file spells its formulas with these.
#define OUT(i) (n->outputs[i])
#define ADD(a, b) grtc_onnx_binary(n, GRTC_TOP_ADD, (a), (b))
#define SUB(a, b) grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, (a), (b))
#define MUL(a, b) grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, (a), (b))
#define DIV(a, b) grtc_onnx_binary(n, GRTC_TOP_DIVIDE, (a), (b))

//===----------------------------------------------------------------------===//
// Errors and attributes
//===----------------------------------------------------------------------===//

// "m.onnx: node 3 'conv1' (Conv, opset 13): <message>" (INVALID_ARGUMENT),
// recorded in |n->status| unless it already holds an error; returns a
// status for the op to return (the same error). Use it for every input the
// op cannot take: name what was expected and what was given.
grt_status_t grtc_onnx_error(grtc_onnx_node_t* n, const char* format, ...)
    GRT_PRINTF_LIKE(2, 3) GRT_MUST_USE;
// As grtc_onnx_error with UNIMPLEMENTED: a valid model using something the
// importer does not support (an attribute value, a type).
grt_status_t grtc_onnx_unsupported(grtc_onnx_node_t* n, const char* format,
                                   ...) GRT_PRINTF_LIKE(2, 3) GRT_MUST_USE;

// Whether the node has no error yet.
bool grtc_onnx_ok(const grtc_onnx_node_t* n);
// Records |status| in |n->status| (the first error wins; an OK status is
// ignored) and returns false.
bool grtc_onnx_fail(grtc_onnx_node_t* n, grt_status_t status);
// "tensor<2x3xf32>" into |buffer| (GRTC_TTYPE_FORMAT_CAPACITY bytes).
const char* grtc_onnx_fmt(const grtc_tvalue_t* x, char* buffer);
const char* grtc_onnx_fmt_type(const grtc_ttype_t* type, char* buffer);
// |x| is a floating-point tensor, or an error naming |what| ("input X").
bool grtc_onnx_expect_float(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                            const char* what);

// The attribute named |name|, or NULL.
const Onnx__AttributeProto* grtc_onnx_attr(const grtc_onnx_node_t* n,
                                           const char* name);
// Typed readers; a present attribute of the wrong type is an error (in
// |n->status|) and gives the default.
int64_t grtc_onnx_attr_int(grtc_onnx_node_t* n, const char* name,
                           int64_t default_value);
float grtc_onnx_attr_float(grtc_onnx_node_t* n, const char* name,
                           float default_value);
// NUL-terminated copy in the module arena, or |default_value|.
const char* grtc_onnx_attr_string(grtc_onnx_node_t* n, const char* name,
                                  const char* default_value);
// True and the values (in the module arena) when present.
bool grtc_onnx_attr_ints(grtc_onnx_node_t* n, const char* name,
                         int64_t** out_values, uint32_t* out_count);
bool grtc_onnx_attr_floats(grtc_onnx_node_t* n, const char* name,
                           float** out_values, uint32_t* out_count);
// A tensor attribute (Constant's value, ConstantOfShape's value) as a
// constant, or NULL when absent.
grtc_tvalue_t* grtc_onnx_attr_tensor(grtc_onnx_node_t* n, const char* name);

// Normalizes |axis| (negative counts from the end) for a tensor of |rank|;
// an error naming the attribute or input |what| when out of range.
bool grtc_onnx_axis(grtc_onnx_node_t* n, const char* what, int64_t axis,
                    uint32_t rank, uint32_t* out_axis);

// Input |index| must be present; an error naming it otherwise.
grtc_tvalue_t* grtc_onnx_input(grtc_onnx_node_t* n, uint32_t index);
// Optional input |index|: the value, or NULL when the node leaves it out
// (not given, or an empty name).
grtc_tvalue_t* grtc_onnx_optional(grtc_onnx_node_t* n, uint32_t index);

// True and the values of |value| when it is a constant of an integer type
// (or i1): the integer inputs (Reshape's shape, Slice's starts) that the
// tensor IR needs at compile time. Otherwise an error naming input |what|
// ("Reshape's 'shape' must be known when the model is compiled").
bool grtc_onnx_ints(grtc_onnx_node_t* n, grtc_tvalue_t* value,
                    const char* what, int64_t** out_values,
                    uint32_t* out_count);
// As grtc_onnx_ints for float constants (values as doubles).
bool grtc_onnx_floats(grtc_onnx_node_t* n, grtc_tvalue_t* value,
                      const char* what, double** out_values,
                      uint32_t* out_count);
// Whether |value| is a constant (no error either way).
bool grtc_onnx_is_constant(const grtc_tvalue_t* value);

//===----------------------------------------------------------------------===//
// Symbolic dimensions (dim_param)
//===----------------------------------------------------------------------===//

// "input 0 dimension 2 is symbolic (s0 'N': argument 0 dimension 0 of
// @main); <why>: pin the model's symbolic inputs with --onnx-input-shape",
// for a symbolic dimension (GRTC_DIM_SYMBOL |symbol|) an op cannot take.
grt_status_t grtc_onnx_symbolic_error(grtc_onnx_node_t* n, uint32_t input,
                                      uint32_t dim, int64_t symbol,
                                      const char* why) GRT_MUST_USE;
// The values of a small 1-D (or 0-D) integer tensor known at compile time:
// literal integers, or (|symbolic|) symbolic dimensions, GRTC_DIM_SYMBOL
// values, which Shape of a tensor with symbolic dimensions makes.
typedef struct grtc_onnx_shape_values_t {
  uint32_t count;
  int64_t values[GRTC_MAX_RANK];
  bool symbolic[GRTC_MAX_RANK];
} grtc_onnx_shape_values_t;
// True and |value|'s values when it is an integer constant of at most
// GRTC_MAX_RANK elements or a value remembered below.
bool grtc_onnx_shape_values(grtc_onnx_node_t* n, grtc_tvalue_t* value,
                            grtc_onnx_shape_values_t* out);
// Remembers that |value| (computed at run time) holds |values| (when one of
// them is symbolic; others are constants the folder keeps).
void grtc_onnx_remember_shape_values(grtc_onnx_node_t* n,
                                     const grtc_tvalue_t* value,
                                     const grtc_onnx_shape_values_t* values);
// Dimension |dim| of |x| as a rank-0 i64: a constant when static, else
// read at run time (stablehlo.get_dimension_size).
grtc_tvalue_t* grtc_onnx_dimension_size(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                        uint32_t dim);
// Dimensions [from, to) of |type| as one (Flatten, a reshape to 2-D): their
// product, or a symbolic one of them when every other is 1. False when the
// product of a symbol and another dimension would be needed.
bool grtc_onnx_merged_dim(const grtc_ttype_t* type, uint32_t from, uint32_t to,
                          int64_t* out);
// The product of dimensions [from, to) of |x| as a rank-0 i64 (constant
// factors folded, symbolic ones read with get_dimension_size).
grtc_tvalue_t* grtc_onnx_dims_product(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t from,
                                      uint32_t to);
// A dimension of grtc_onnx_reshape_computed's result that its rank-0 i64
// element gives at run time (a new symbol, computed at the call).
#define GRTC_ONNX_COMPUTED_DIM INT64_MIN
// |x| reshaped to |rank| dims where some merge or split a symbolic
// dimension: a stablehlo.dynamic_reshape whose shape operand is
// |elements| (rank-0 i64 values, one per dim); |dims| are the result's
// static sizes, input symbols, or GRTC_ONNX_COMPUTED_DIM (a new symbol:
// the host program computes it from its element and checks the element
// counts equal at the call; docs/compiler.md "Symbolic shapes").
grtc_tvalue_t* grtc_onnx_reshape_computed(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t rank,
                                          const int64_t* dims, grtc_tvalue_t* const* elements);
// Element |i| of the rank-1 integer |shape| as a rank-0 i64 (a size
// expression the host program computes at the call where |shape| reads a
// graph input's data).
grtc_tvalue_t* grtc_onnx_shape_item(grtc_onnx_node_t* n, grtc_tvalue_t* shape, uint32_t i);
// |x| (static dimensions) at every combination of the 1-D i64 |indices|
// (one per axis, each in range; their lengths may be computed at the
// call): one gather.
grtc_tvalue_t* grtc_onnx_take_all(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                  grtc_tvalue_t* const* indices);
// As grtc_onnx_reshape_computed for the other dynamic ops whose shape
// operand |elements| gives: |kind| GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM (|x|
// broadcast with |map|, its broadcast_dimensions: the host program checks
// the broadcast rule at the call), GRTC_TOP_DYNAMIC_IOTA (an i64 iota
// along dimension 0; |x| is unused) or GRTC_TOP_REAL_DYNAMIC_SLICE (|x|
// sliced to the limits |elements|; |map| holds the constant starts, then
// the constant strides, |rank| each). Elements read from a graph input's
// data are read at the call (docs/compiler.md "Shapes read from data").
grtc_tvalue_t* grtc_onnx_dynamic_computed(grtc_onnx_node_t* n, grtc_top_kind_t kind,
                                          grtc_tvalue_t* x, uint32_t rank, const int64_t* dims,
                                          grtc_tvalue_t* const* elements, const int64_t* map);

//===----------------------------------------------------------------------===//
// QDQ folding (quant.c)
//===----------------------------------------------------------------------===//

// What DequantizeLinear made |value| (its f32 result) from: the 8-bit
// integers |x| (int8 or uint8), |scale| (f32) and |zero| (x's type, NULL:
// 0), one value each or (|axis| >= 0) one per dimension |axis| of x, as the
// node gave them.
typedef struct grtc_onnx_dequantized_t {
  const grtc_tvalue_t* value;
  grtc_tvalue_t* x;
  grtc_tvalue_t* scale;
  grtc_tvalue_t* zero;
  int axis;
  struct grtc_onnx_dequantized_t* next;
  // Blocked (opset 21): scale and zero of x's rank, each value covering
  // |block| elements along |axis|; 0 otherwise. The int8 folds take only
  // unblocked records.
  int64_t block;
} grtc_onnx_dequantized_t;
// Remembers |d| (copied; |d->next| ignored) for the nodes that follow.
void grtc_onnx_remember_dequantized(grtc_onnx_node_t* n,
                                    const grtc_onnx_dequantized_t* d);
// What DequantizeLinear made |value| from, or NULL when it did not make it.
const grtc_onnx_dequantized_t* grtc_onnx_find_dequantized(
    grtc_onnx_node_t* n, const grtc_tvalue_t* value);

// 21 (UINT4) or 22 (INT4) when |value| is of ONNX's 4-bit types (an
// initializer or Constant of them, or Identity, Reshape, Flatten, Squeeze,
// Unsqueeze or Transpose of one; held one value a byte in ui8/i8), else 0.
int32_t grtc_onnx_int4_type(grtc_onnx_node_t* n, const grtc_tvalue_t* value);
// |value|'s ONNX element type name for messages ("INT4", "UINT8", ...).
const char* grtc_onnx_value_type_name(grtc_onnx_node_t* n, const grtc_tvalue_t* value);

// After a node that only reshapes its input 0 (Flatten, Reshape, Squeeze,
// Unsqueeze, Identity) to static dimensions: when that input is a
// per-tensor DequantizeLinear result, the node's output is remembered as
// the dequantized reshape of the same integers (the f32 reshape is left to
// dead-code removal when nothing else uses it).
void grtc_onnx_qdq_forward(grtc_onnx_node_t* n);

// Conv, MatMul and Gemm of DequantizeLinear results (per-tensor x, w
// per-tensor or per output channel / column, int8 or uint8) on the integer
// ops: the int8 x int8 -> int32 convolution or product of the stored
// values with ConvInteger's / MatMulInteger's zero-point terms, dequantized
// as f32(acc) * (x_scale * w_scale). NULL when the operands are not such
// results (the caller builds the f32 op) or after an error (in
// |n->status|). Conv's result is without the bias B; Gemm's |a| and |b|
// are transposed by |trans_a| and |trans_b|, its result without alpha and C.
grtc_tvalue_t* grtc_onnx_qdq_conv(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                  grtc_tvalue_t* w);
grtc_tvalue_t* grtc_onnx_qdq_matmul(grtc_onnx_node_t* n, grtc_tvalue_t* a,
                                    grtc_tvalue_t* b);
// MatMul (and Gemm without transA, |dims| and |type| its dot_general's)
// of f32 |a| and |b|, a DequantizeLinear result of a constant INT4/UINT4
// matrix C with a constant zero point Z (one, or one per column of the
// product) whose C - Z does not fit 4 bits (DequantizeLinear folds the
// others): a (C - Z) S = a (C - o) S - rowsum(a) (Z - o) S with o 8 for
// uint4 and 0 for int4, so the weights C - o stay int4 constants for the
// CPU's int4-weight GEMM. NULL when b is not such a result (or after an
// error, in |n->status|).
grtc_tvalue_t* grtc_onnx_int4_matmul(grtc_onnx_node_t* n, grtc_tvalue_t* a, grtc_tvalue_t* b);
// MatMul of f32 matrix |a| (M, K) and |b|, a blocked DequantizeLinear
// result (along K, axis 0) of a constant INT4/UINT4 (K, N) matrix C with a
// constant zero point Z or none: per block j of the K dimension (the last
// one padded with zeros), a_j (C_j - o) on the int4-weight GEMM as one
// batched product, then (that - rowsum(a_j) (Z_j - o)) S_j summed over j.
// NULL when b is not such a result (or after an error, in |n->status|).
grtc_tvalue_t* grtc_onnx_int4_blocked_matmul(grtc_onnx_node_t* n, grtc_tvalue_t* a,
                                             grtc_tvalue_t* b);
grtc_tvalue_t* grtc_onnx_int4_gemm(grtc_onnx_node_t* n, grtc_tvalue_t* a, grtc_tvalue_t* b,
                                   bool trans_a, bool trans_b, const grtc_dot_dims_t* dims,
                                   const grtc_ttype_t* type);
grtc_tvalue_t* grtc_onnx_qdq_gemm(grtc_onnx_node_t* n, grtc_tvalue_t* a,
                                  grtc_tvalue_t* b, bool trans_a, bool trans_b);

//===----------------------------------------------------------------------===//
// Builders (NULL after an error; NULL operands give NULL)
//===----------------------------------------------------------------------===//

// An op with one result of |type| appended to the node's block (folded
// when its operands are constants).
grtc_tvalue_t* grtc_onnx_op(grtc_onnx_node_t* n, grtc_top_kind_t kind,
                            grtc_tvalue_t* const* operands, uint32_t count,
                            const grtc_ttype_t* type);
// The op itself, for multi-result ops and ops with regions or attributes
// to fill (never folded); NULL after an error.
grtc_top_t* grtc_onnx_op_full(grtc_onnx_node_t* n, grtc_top_kind_t kind,
                              grtc_tvalue_t* const* operands, uint32_t count,
                              const grtc_ttype_t* types, uint32_t result_count,
                              uint32_t region_count);
// Folds |op| (made by grtc_onnx_op_full, attributes filled) if it can and
// returns its first result or the constant replacing it.
grtc_tvalue_t* grtc_onnx_fold(grtc_onnx_node_t* n, grtc_top_t* op);

grtc_ttype_t grtc_onnx_type(grtc_elem_t elem, uint32_t rank,
                            const int64_t* dims);
// A constant of |type| from |size| bytes at |data| (copied into the
// arena; |size| one element for a splat).
grtc_tvalue_t* grtc_onnx_constant(grtc_onnx_node_t* n, const grtc_ttype_t* type,
                                  const void* data, size_t size, bool splat);
// A constant of |type| whose every element is |value|.
grtc_tvalue_t* grtc_onnx_splat(grtc_onnx_node_t* n, const grtc_ttype_t* type,
                               double value);
// As grtc_onnx_splat with |like|'s type.
grtc_tvalue_t* grtc_onnx_splat_like(grtc_onnx_node_t* n, grtc_tvalue_t* like,
                                    double value);
// A rank-0 constant.
grtc_tvalue_t* grtc_onnx_scalar(grtc_onnx_node_t* n, grtc_elem_t elem,
                                double value);
// A constant of |elem| and |rank|/|dims| from int64 |values| (converted).
grtc_tvalue_t* grtc_onnx_const_ints(grtc_onnx_node_t* n, grtc_elem_t elem,
                                    uint32_t rank, const int64_t* dims,
                                    const int64_t* values);

grtc_tvalue_t* grtc_onnx_unary(grtc_onnx_node_t* n, grtc_top_kind_t kind,
                               grtc_tvalue_t* x);
// Multidirectional (numpy) broadcasting of |a| and |b| to one shape, then
// the op; the element types must agree.
grtc_tvalue_t* grtc_onnx_binary(grtc_onnx_node_t* n, grtc_top_kind_t kind,
                                grtc_tvalue_t* a, grtc_tvalue_t* b);
grtc_tvalue_t* grtc_onnx_compare(grtc_onnx_node_t* n,
                                 grtc_compare_direction_t direction,
                                 grtc_tvalue_t* a, grtc_tvalue_t* b);
// A check the host program makes at the call (a shape assertion): the
// call fails unless the rank-0 i1 |holds| is true, with the message
// "ONNX node N 'name' (Op): " and |format|, whose {0}, {1}... quote the
// rank-0 integer |values| (at most 16). For sizes read from a graph
// input's data.
void grtc_onnx_assert_at_call(grtc_onnx_node_t* n, grtc_tvalue_t* holds,
                              grtc_tvalue_t* const* values, uint32_t count, const char* format,
                              ...) GRT_PRINTF_LIKE(5, 6);
// The same with the whole |message| given (no node prefix; the graph's
// own checks, whose pseudo node has no proto).
void grtc_onnx_assert_message(grtc_onnx_node_t* n, grtc_tvalue_t* holds,
                              grtc_tvalue_t* const* values, uint32_t count,
                              const char* message);
// grtc_onnx_assert_at_call that the rank-0 i64 |value| lies in [|lo|,
// |hi|] (rank-0 i64s): "|what| must lie between lo and hi: got value"
// (the host program quotes 32 bits: a value past them is quoted
// saturated, so |hi| must be below INT32_MAX for the quote to show it).
void grtc_onnx_check_range_at_call(grtc_onnx_node_t* n, grtc_tvalue_t* value, grtc_tvalue_t* lo,
                                   grtc_tvalue_t* hi, const char* what);
// select(p, a, b) with all three broadcast.
grtc_tvalue_t* grtc_onnx_select(grtc_onnx_node_t* n, grtc_tvalue_t* p,
                                grtc_tvalue_t* a, grtc_tvalue_t* b);
grtc_tvalue_t* grtc_onnx_convert(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                 grtc_elem_t elem);
// The numpy-broadcast shape of |a| and |b| (rank max of both); an error
// naming both shapes when they are incompatible.
bool grtc_onnx_broadcast_shape(grtc_onnx_node_t* n, const grtc_ttype_t* a,
                               const grtc_ttype_t* b, grtc_ttype_t* out);
// |x| broadcast (numpy rules, trailing dims aligned) to |rank|/|dims|.
grtc_tvalue_t* grtc_onnx_broadcast_to(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                      uint32_t rank, const int64_t* dims);
// stablehlo.broadcast_in_dim with explicit |map| (x's dim i goes to result
// dim map[i]).
grtc_tvalue_t* grtc_onnx_broadcast_in_dim(grtc_onnx_node_t* n,
                                          grtc_tvalue_t* x,
                                          const grtc_ttype_t* type,
                                          const int64_t* map);
grtc_tvalue_t* grtc_onnx_reshape(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                 uint32_t rank, const int64_t* dims);
grtc_tvalue_t* grtc_onnx_transpose(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                   const int64_t* perm);
// As grtc_onnx_transpose, but a constant |x| is transposed when the model
// is compiled, into a new constant (weights laid out for the kernels).
grtc_tvalue_t* grtc_onnx_transpose_constant(grtc_onnx_node_t* n,
                                           grtc_tvalue_t* x,
                                           const int64_t* perm);
grtc_tvalue_t* grtc_onnx_slice(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                               const int64_t* start, const int64_t* limit,
                               const int64_t* strides);
grtc_tvalue_t* grtc_onnx_concat(grtc_onnx_node_t* n, grtc_tvalue_t* const* xs,
                                uint32_t count, uint32_t axis);
grtc_tvalue_t* grtc_onnx_pad(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                             grtc_tvalue_t* padding_value, const int64_t* low,
                             const int64_t* high);
// Gives reduce-like |op| (reduce, reduce_window, scatter) its body through
// grtc_top_set_scalar_body: |kind| of the two rank-0 |elem| arguments
// (GRTC_TOP_COUNT: the second argument), yielded. False after an error.
bool grtc_onnx_reducer_body(grtc_onnx_node_t* n, grtc_top_t* op, grtc_top_kind_t kind,
                            grtc_elem_t elem);
// stablehlo.reduce of |x| over |axes| (sorted, unique) with the body
// |kind| (ADD, MULTIPLY, MAXIMUM, MINIMUM, AND, OR) and init |init| (a
// rank-0 value of x's type). keepdims reshapes the reduced axes to 1.
grtc_tvalue_t* grtc_onnx_reduce(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                const int64_t* axes, uint32_t axis_count,
                                grtc_top_kind_t kind, grtc_tvalue_t* init,
                                bool keepdims);
// stablehlo.reduce_window of |x| with the body |kind| and init |init|;
// |window| per dimension, |strides|, |dilations| (of the window), |low| and
// |high| (padding) per dimension or NULL for the defaults (1, 1, 0, 0).
grtc_tvalue_t* grtc_onnx_reduce_window(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                       grtc_top_kind_t kind,
                                       grtc_tvalue_t* init,
                                       const int64_t* window,
                                       const int64_t* strides,
                                       const int64_t* dilations,
                                       const int64_t* low,
                                       const int64_t* high);
// stablehlo.iota of |type| counting along |dim|.
grtc_tvalue_t* grtc_onnx_iota(grtc_onnx_node_t* n, const grtc_ttype_t* type,
                              uint32_t dim);
// dot_general; |type| the result type.
grtc_tvalue_t* grtc_onnx_dot(grtc_onnx_node_t* n, grtc_tvalue_t* a,
                             grtc_tvalue_t* b, const grtc_dot_dims_t* dims,
                             const grtc_ttype_t* type);
// numpy matmul semantics (1-D promotion, broadcast batch dims).
grtc_tvalue_t* grtc_onnx_matmul(grtc_onnx_node_t* n, grtc_tvalue_t* a,
                                grtc_tvalue_t* b);
// The same with results of |result_elem| (i8 x i8 -> i32 for the integer
// ops).
grtc_tvalue_t* grtc_onnx_matmul_into(grtc_onnx_node_t* n, grtc_tvalue_t* a,
                                     grtc_tvalue_t* b, grtc_elem_t result_elem);
// The zero-point terms of |acc|, an i8 x i8 -> i32 convolution op's result,
// through compiler/stablehlo/quant.h's grtc_quant_conv_zero_terms: |zx|
// (i32, rank 0) and |zw| (i32, broadcastable to |acc|) the int8 zero
// points, NULL when absent. Without |x_terms| the input is padded with zx
// but the terms of zx (zx * the filter's sums - K * zx * zw) are left to the
// caller (who folded them into a constant).
grtc_tvalue_t* grtc_onnx_conv_zero_terms(grtc_onnx_node_t* n, grtc_tvalue_t* acc,
                                         grtc_tvalue_t* zx, grtc_tvalue_t* zw, bool x_terms);
// Element |i| (flat, row-major) of integer constant |value| as an int64.
int64_t grtc_onnx_const_int(const grtc_tvalue_t* value, int64_t i);
// The sums of integer constant |x| over every dimension but |keep|, as an
// i32 constant of |rank|/|dims| (wrapping as i32 arithmetic does): the
// filter or column sums of constant weights, computed when the model is
// compiled. NULL when |x| is not an integer constant (or after an error).
grtc_tvalue_t* grtc_onnx_constant_sums(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t keep,
                                       uint32_t rank, const int64_t* dims);
// CHLO lowerings (erf, top_k, ...) through compiler/stablehlo/compose.h.
grt_status_t grtc_onnx_chlo(grtc_onnx_node_t* n, const char* name,
                            grtc_tvalue_t* const* operands, uint32_t count,
                            const grtc_ttype_t* results, uint32_t result_count,
                            int64_t k, grtc_tvalue_t** outs);

// Imports sub-graph attribute |graph| into |block| (whose arguments the
// caller binds to the graph's inputs in order) ending in a YIELD of its
// outputs. Names of the enclosing graphs stay visible.
grt_status_t grtc_onnx_import_subgraph(grtc_onnx_node_t* n,
                                       const Onnx__GraphProto* graph,
                                       grtc_tblock_t* block) GRT_MUST_USE;
// The types of |graph|'s inputs (declared, with --onnx-input-shape not
// applying) for building the block that grtc_onnx_import_subgraph fills.
grt_status_t grtc_onnx_graph_input_types(grtc_onnx_node_t* n,
                                         const Onnx__GraphProto* graph,
                                         grtc_ttype_t* out_types) GRT_MUST_USE;
// The element type of ONNX TensorProto.DataType |data_type|; false (and an
// error in |n|) for types grt does not have (string, complex, float8).
bool grtc_onnx_elem(grtc_onnx_node_t* n, int32_t data_type,
                    grtc_elem_t* out_elem);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_ONNX_INTERNAL_H_
