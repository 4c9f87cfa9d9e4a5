// ONNX ops: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear and the QLinear ops.
#include <math.h>
#include <string.h>

#include "compiler/onnx/internal.h"



// The range of the quantized type |elem|; false for types the quantize
// ops do not produce.
static bool grtc_onnx_quant_range(grtc_elem_t elem, double* lo, double* hi) {
  switch (elem) {
    case GRTC_ELEM_U8:
      *lo = 0, *hi = 255;
      return true;
    case GRTC_ELEM_I8:
      *lo = -128, *hi = 127;
      return true;
    case GRTC_ELEM_U16:
      *lo = 0, *hi = 65535;
      return true;
    case GRTC_ELEM_I16:
      *lo = -32768, *hi = 32767;
      return true;
    case GRTC_ELEM_I32:
      *lo = -2147483648.0, *hi = 2147483647.0;
      return true;
    default:
      return false;
  }
}

// A scale (|is_scale|: floating-point) or zero point named |what| of one
// value or one per dimension |axis| of |x| (-1: one value only), reshaped
// to broadcast against |x|.
static grtc_tvalue_t* grtc_onnx_quant_param(grtc_onnx_node_t* n, grtc_tvalue_t* p, grtc_tvalue_t* x,
                                            int axis, bool is_scale, const char* what) {
  if (!p || !x || !grt_status_is_ok(n->status)) return NULL;
  char bp[GRTC_TTYPE_FORMAT_CAPACITY], bx[GRTC_TTYPE_FORMAT_CAPACITY];
  if (is_scale && !grtc_elem_is_float(p->type.elem)) {
    grt_status_free(grtc_onnx_error(n, "%s must be a floating-point tensor, got %s", what,
                                    grtc_onnx_fmt(p, bp)));
    return NULL;
  }
  int64_t count = grtc_ttype_element_count(&p->type);
  if (count == 1) return grtc_onnx_reshape(n, p, 0, NULL);
  if (axis < 0 || p->type.rank != 1 || count != x->type.dims[axis]) {
    if (axis < 0) {
      grt_status_free(
          grtc_onnx_error(n, "%s must hold one value, got %s", what, grtc_onnx_fmt(p, bp)));
    } else {
      grt_status_free(grtc_onnx_error(n,
                                      "%s must hold one value or one per dimension %d of %s, "
                                      "got %s",
                                      what, axis, grtc_onnx_fmt(x, bx), grtc_onnx_fmt(p, bp)));
    }
    return NULL;
  }
  int64_t dims[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < x->type.rank; ++d) dims[d] = (int)d == axis ? count : 1;
  return grtc_onnx_reshape(n, p, x->type.rank, dims);
}

// As grtc_onnx_quant_param, converted to |elem|, but one value per
// dimension |axis| of a static |x| becomes a vector broadcast along that
// dimension to x's shape (broadcast_in_dim of the rank-1 constant: the
// form the CPU's int4-weight GEMM takes its per-column scales from).
static grtc_tvalue_t* grtc_onnx_quant_spread(grtc_onnx_node_t* n, grtc_tvalue_t* p,
                                             grtc_tvalue_t* x, int axis, bool is_scale,
                                             const char* what, grtc_elem_t elem) {
  grtc_tvalue_t* v = grtc_onnx_convert(n, grtc_onnx_quant_param(n, p, x, axis, is_scale, what),
                                       elem);
  if (!v || axis < 0 || v->type.rank == 0 || !grtc_ttype_is_static(&x->type)) return v;
  int64_t count = x->type.dims[axis], map[1] = {axis};
  grtc_ttype_t type = x->type;
  type.elem = elem;
  return grtc_onnx_broadcast_in_dim(n, grtc_onnx_reshape(n, v, 1, &count), &type, map);
}

// The per-axis dimension of the node's 'axis' attribute for |x| when any
// of |params| holds more than one value, else -1; block quantization is
// refused.
static bool grtc_onnx_quant_axis(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                 grtc_tvalue_t* const* params, uint32_t count, int* out_axis) {
  *out_axis = -1;
  if (grtc_onnx_attr_int(n, "block_size", 0) != 0) {
    grt_status_free(grtc_onnx_unsupported(n, "blocked quantization (block_size != 0)"));
    return false;
  }
  bool per_axis = false;
  for (uint32_t i = 0; i < count; ++i) {
    per_axis |= params[i] && grtc_ttype_element_count(&params[i]->type) != 1;
  }
  if (!per_axis) return grt_status_is_ok(n->status);
  uint32_t axis = 0;
  if (!grtc_onnx_axis(n, "axis", grtc_onnx_attr_int(n, "axis", 1), x->type.rank, &axis)) {
    return false;
  }
  *out_axis = (int)axis;
  return true;
}

// clamp(round_half_even(|v|), lo, hi) of |elem|'s range, converted to
// |elem| (|v| floating-point).
static grtc_tvalue_t* grtc_onnx_saturate(grtc_onnx_node_t* n, grtc_tvalue_t* v, grtc_elem_t elem) {
  if (!v) return NULL;
  double lo = 0, hi = 0;
  grtc_onnx_quant_range(elem, &lo, &hi);
  grtc_tvalue_t* r = grtc_onnx_unary(n, GRTC_TOP_ROUND_NEAREST_EVEN, v);
  r = grtc_onnx_binary(n, GRTC_TOP_MAXIMUM, r, grtc_onnx_scalar(n, v->type.elem, lo));
  r = grtc_onnx_binary(n, GRTC_TOP_MINIMUM, r, grtc_onnx_scalar(n, v->type.elem, hi));
  return grtc_onnx_convert(n, r, elem);
}

//===----------------------------------------------------------------------===//
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear
//===----------------------------------------------------------------------===//

// y = saturate(round_half_even(x / y_scale) + y_zero_point).
static grt_status_t grtc_onnx_op_quantize(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* scale = grtc_onnx_input(n, 1);
  grtc_tvalue_t* zero = grtc_onnx_optional(n, 2);
  if (!x || !scale) return grt_ok_status();
  char bx[GRTC_TTYPE_FORMAT_CAPACITY];
  if (!grtc_elem_is_float(x->type.elem) && x->type.elem != GRTC_ELEM_I32) {
    return grtc_onnx_error(n, "x must be a floating-point or int32 tensor, got %s",
                           grtc_onnx_fmt(x, bx));
  }
  grtc_elem_t out = GRTC_ELEM_U8;
  if (zero && grtc_onnx_int4_type(n, zero)) {
    return grtc_onnx_unsupported(n,
                                 "quantizing to 4 bits (y_zero_point of type %s) is not "
                                 "supported; y_zero_point must be uint8, int8, uint16 or int16",
                                 grtc_onnx_value_type_name(n, zero));
  }
  if (zero) {
    double lo, hi;
    out = zero->type.elem;
    if (out == GRTC_ELEM_I32 || !grtc_onnx_quant_range(out, &lo, &hi)) {
      return grtc_onnx_unsupported(n,
                                   "y_zero_point must be uint8, int8, uint16 or int16 (its type "
                                   "gives y's), got %s",
                                   grtc_onnx_fmt(zero, bx));
    }
  }
  int64_t to = grtc_onnx_attr_int(n, "output_dtype", 0);
  if (to != 0 && !zero) {
    grtc_elem_t elem;
    if (!grtc_onnx_elem(n, (int32_t)to, &elem)) return grt_ok_status();
    double lo, hi;
    if (elem == GRTC_ELEM_I32 || !grtc_onnx_quant_range(elem, &lo, &hi)) {
      return grtc_onnx_unsupported(n, "output_dtype %lld is not uint8, int8, uint16 or int16",
                                   (long long)to);
    }
    out = elem;
  }
  grtc_tvalue_t* params[2] = {scale, zero};
  int axis = -1;
  if (!grtc_onnx_quant_axis(n, x, params, 2, &axis)) return grt_ok_status();
  grtc_elem_t calc = x->type.elem == GRTC_ELEM_F64 ? GRTC_ELEM_F64 : GRTC_ELEM_F32;
  grtc_tvalue_t* s =
      grtc_onnx_convert(n, grtc_onnx_quant_param(n, scale, x, axis, true, "y_scale"), calc);
  grtc_tvalue_t* q =
      grtc_onnx_unary(n, GRTC_TOP_ROUND_NEAREST_EVEN, DIV(grtc_onnx_convert(n, x, calc), s));
  if (zero) {
    q = ADD(q, grtc_onnx_convert(n, grtc_onnx_quant_param(n, zero, x, axis, false, "y_zero_point"),
                                 calc));
  }
  OUT(0) = grtc_onnx_saturate(n, q, out);
  return grt_ok_status();
}

// |p|, a blocked scale or zero point of shape x's with dimension |axis|
// ceil(D / block) (checked by the caller), repeated |block| times along
// |axis| and cut to x's D there: one value per element of |x|.
static grtc_tvalue_t* grtc_onnx_quant_blocks(grtc_onnx_node_t* n, grtc_tvalue_t* p,
                                             grtc_tvalue_t* x, uint32_t axis, int64_t block) {
  if (!p || !grtc_onnx_ok(n)) return NULL;
  uint32_t rank = p->type.rank;
  int64_t dims[GRTC_MAX_RANK] = {0}, map[GRTC_MAX_RANK] = {0};
  for (uint32_t d = 0, e = 0; d < rank; ++d) {
    map[d] = e;
    dims[e++] = p->type.dims[d];
    if (d == axis) dims[e++] = block;
  }
  grtc_ttype_t type = grtc_onnx_type(p->type.elem, rank + 1, dims);
  grtc_tvalue_t* v = grtc_onnx_broadcast_in_dim(n, p, &type, map);
  for (uint32_t d = 0; d < rank; ++d) dims[d] = p->type.dims[d];
  dims[axis] *= block;
  v = grtc_onnx_reshape(n, v, rank, dims);
  if (dims[axis] != x->type.dims[axis]) {
    int64_t start[GRTC_MAX_RANK] = {0}, strides[GRTC_MAX_RANK];
    for (uint32_t d = 0; d < rank; ++d) strides[d] = 1;
    v = grtc_onnx_slice(n, v, start, x->type.dims, strides);
  }
  return v;
}

// Blocked DequantizeLinear (opset 21): x_scale and x_zero_point of x's
// rank and shape but along 'axis', where each of their values covers
// 'block_size' consecutive elements of x (the last block may be shorter).
static grtc_tvalue_t* grtc_onnx_dequantize_blocked(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                                   grtc_tvalue_t* scale, grtc_tvalue_t* zero,
                                                   int64_t block) {
  char bx[GRTC_TTYPE_FORMAT_CAPACITY], bs[GRTC_TTYPE_FORMAT_CAPACITY],
      bz[GRTC_TTYPE_FORMAT_CAPACITY];
  if (block < 0) {
    grt_status_free(grtc_onnx_error(n, "block_size must be positive (or 0: no blocks), got %lld",
                                    (long long)block));
    return NULL;
  }
  uint32_t axis = 0;
  if (!grtc_onnx_axis(n, "axis", grtc_onnx_attr_int(n, "axis", 1), x->type.rank, &axis)) {
    return NULL;
  }
  if (!grtc_ttype_is_static(&x->type) || x->type.rank + 1 > GRTC_MAX_RANK) {
    grt_status_free(grtc_onnx_unsupported(
        n, "blocked quantization of x %s (static sizes and rank below %d only)",
        grtc_onnx_fmt(x, bx), GRTC_MAX_RANK));
    return NULL;
  }
  if (!grtc_elem_is_float(scale->type.elem)) {
    grt_status_free(grtc_onnx_error(n, "x_scale must be a floating-point tensor, got %s",
                                    grtc_onnx_fmt(scale, bs)));
    return NULL;
  }
  int64_t blocks = (x->type.dims[axis] + block - 1) / block;
  grtc_ttype_t want = x->type;
  want.elem = scale->type.elem;
  want.dims[axis] = blocks;
  if (!grtc_ttype_equal(&scale->type, &want)) {
    char bw[GRTC_TTYPE_FORMAT_CAPACITY];
    grt_status_free(grtc_onnx_error(n,
                                    "x_scale must have shape %s for block_size %lld along axis "
                                    "%u of x %s (ceil(%lld / %lld) = %lld blocks), got %s",
                                    grtc_onnx_fmt_type(&want, bw), (long long)block,
                                    axis, grtc_onnx_fmt(x, bx),
                                    (long long)x->type.dims[axis], (long long)block,
                                    (long long)blocks, grtc_onnx_fmt(scale, bs)));
    return NULL;
  }
  if (zero && !grtc_ttype_same_shape(&zero->type, &scale->type)) {
    grt_status_free(grtc_onnx_error(n, "x_zero_point must have x_scale's shape %s, got %s",
                                    grtc_onnx_fmt(scale, bs), grtc_onnx_fmt(zero, bz)));
    return NULL;
  }
  grtc_elem_t elem = scale->type.elem;
  grtc_elem_t calc = elem == GRTC_ELEM_F64 ? GRTC_ELEM_F64 : GRTC_ELEM_F32;
  grtc_tvalue_t* v = grtc_onnx_convert(n, x, calc);
  if (zero) {
    v = SUB(v, grtc_onnx_convert(n, grtc_onnx_quant_blocks(n, zero, x, axis, block), calc));
  }
  grtc_tvalue_t* s = grtc_onnx_convert(n, grtc_onnx_quant_blocks(n, scale, x, axis, block), calc);
  return grtc_onnx_convert(n, MUL(v, s), elem);
}

// |x| - |zero| of a constant 4-bit |x| and constant zero point |zero| (one
// value, or one per dimension |axis| of x), computed now: an i8 constant
// when every difference fits int4 (-8..7), else a ui8 one when each fits
// uint4 (0..15) (so the CPU packs it as 4-bit weights either way); NULL
// when neither does or x or zero is not such a constant.
static grtc_tvalue_t* grtc_onnx_int4_minus(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                           grtc_tvalue_t* zero, int axis) {
  if (!grtc_onnx_ok(n) || !grtc_onnx_is_constant(x) || !grtc_onnx_is_constant(zero) ||
      !grtc_ttype_is_static(&x->type)) {
    return NULL;
  }
  int64_t count = grtc_ttype_element_count(&x->type);
  int64_t inner = 1, size = 1;
  if (axis >= 0 && grtc_ttype_element_count(&zero->type) != 1) {
    size = x->type.dims[axis];
    for (uint32_t d = (uint32_t)axis + 1; d < x->type.rank; ++d) inner *= x->type.dims[d];
  }
  int64_t* values = grtc_tmodule_alloc(n->module, (size_t)(count + 1) * sizeof(int64_t));
  if (!values) {
    grtc_onnx_fail(n, grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory"));
    return NULL;
  }
  bool fits_signed = true, fits_unsigned = true;
  for (int64_t e = 0; e < count; ++e) {
    int64_t v = grtc_onnx_const_int(x, e) - grtc_onnx_const_int(zero, (e / inner) % size);
    fits_signed &= v >= -8 && v <= 7;
    fits_unsigned &= v >= 0 && v <= 15;
    values[e] = v;
  }
  if (!fits_signed && !fits_unsigned) return NULL;
  return grtc_onnx_const_ints(n, fits_signed ? GRTC_ELEM_I8 : GRTC_ELEM_U8, x->type.rank,
                              x->type.dims, values);
}

// y = (x - x_zero_point) * x_scale, in y's type (x_scale's); per tensor,
// per axis, or (opset 21 block_size) per block along the axis.
static grt_status_t grtc_onnx_op_dequantize(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* scale = grtc_onnx_input(n, 1);
  grtc_tvalue_t* zero = grtc_onnx_optional(n, 2);
  if (!x || !scale) return grt_ok_status();
  char bx[GRTC_TTYPE_FORMAT_CAPACITY], bz[GRTC_TTYPE_FORMAT_CAPACITY];
  double lo, hi;
  int32_t x4 = grtc_onnx_int4_type(n, x);
  if (!x4 && !grtc_onnx_quant_range(x->type.elem, &lo, &hi)) {
    return grtc_onnx_unsupported(
        n, "x must be uint8, int8, uint16, int16, int32, uint4 or int4, got %s",
        grtc_onnx_fmt(x, bx));
  }
  if (zero && (zero->type.elem != x->type.elem || grtc_onnx_int4_type(n, zero) != x4)) {
    return grtc_onnx_error(n, "x_zero_point must have x's element type %s, got %s (%s)",
                           grtc_onnx_value_type_name(n, x), grtc_onnx_value_type_name(n, zero),
                           grtc_onnx_fmt(zero, bz));
  }
  int64_t block = grtc_onnx_attr_int(n, "block_size", 0);
  if (block != 0) {
    OUT(0) = grtc_onnx_dequantize_blocked(n, x, scale, zero, block);
    if (OUT(0) && x4 && OUT(0)->type.elem == GRTC_ELEM_F32) {
      uint32_t axis = 0;
      grtc_onnx_axis(n, "axis", grtc_onnx_attr_int(n, "axis", 1), x->type.rank, &axis);
      grtc_onnx_dequantized_t d = {OUT(0), x, scale, zero, (int)axis, NULL, block};
      grtc_onnx_remember_dequantized(n, &d);
    }
    return grt_ok_status();
  }
  grtc_tvalue_t* params[2] = {scale, zero};
  int axis = -1;
  if (!grtc_onnx_quant_axis(n, x, params, 2, &axis)) return grt_ok_status();
  if (!grtc_elem_is_float(scale->type.elem)) {
    char bs[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_onnx_error(n, "x_scale must be a floating-point tensor, got %s",
                           grtc_onnx_fmt(scale, bs));
  }
  grtc_elem_t elem = scale->type.elem;
  grtc_elem_t calc = elem == GRTC_ELEM_F64 ? GRTC_ELEM_F64 : GRTC_ELEM_F32;
  grtc_tvalue_t* s = grtc_onnx_quant_spread(n, scale, x, axis, true, "x_scale", calc);
  if (!s) return grt_ok_status();
  grtc_tvalue_t* zp =
      zero ? grtc_onnx_quant_spread(n, zero, x, axis, false, "x_zero_point", calc) : NULL;
  if (zero && !zp) return grt_ok_status();
  // 4-bit constant weights with a zero point: x - zero computed now when
  // it fits 4 bits again (uint4 with zero point 8, ...), so the weights
  // stay 4-bit constants (the CPU's int4-weight GEMM) and the result is
  // exact.
  grtc_tvalue_t* xq = x;
  grtc_tvalue_t* shifted = x4 && zero ? grtc_onnx_int4_minus(n, x, zero, axis) : NULL;
  if (shifted) xq = shifted, zero = zp = NULL;
  grtc_tvalue_t* v = grtc_onnx_convert(n, xq, calc);
  if (zp) v = SUB(v, zp);
  OUT(0) = grtc_onnx_convert(n, MUL(v, s), elem);
  // 8-bit integers (int4 and uint4 held in them too) with f32 scales:
  // Conv, MatMul and Gemm of the result may run on the integers (QDQ
  // folding, below).
  if (OUT(0) && (xq->type.elem == GRTC_ELEM_I8 || xq->type.elem == GRTC_ELEM_U8) &&
      elem == GRTC_ELEM_F32) {
    grtc_onnx_dequantized_t d = {OUT(0), xq, scale, zero, axis, NULL, 0};
    grtc_onnx_remember_dequantized(n, &d);
  }
  return grt_ok_status();
}

// uint8 quantization of x over [min(x, 0), max(x, 0)]:
//   y_scale = (max - min) / 255
//   y_zero_point = saturate(round_half_even((0 - min) / y_scale))
//   y = saturate(round_half_even(x / y_scale) + y_zero_point)
static grt_status_t grtc_onnx_op_dynamic_quantize(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  char bx[GRTC_TTYPE_FORMAT_CAPACITY];
  if (x->type.elem != GRTC_ELEM_F32) {
    return grtc_onnx_error(n, "x must be a float tensor, got %s", grtc_onnx_fmt(x, bx));
  }
  int64_t axes[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < x->type.rank; ++d) axes[d] = d;
  grtc_tvalue_t* zero = grtc_onnx_scalar(n, GRTC_ELEM_F32, 0);
  grtc_tvalue_t* lo = grtc_onnx_reduce(n, x, axes, x->type.rank, GRTC_TOP_MINIMUM,
                                       grtc_onnx_scalar(n, GRTC_ELEM_F32, INFINITY), false);
  grtc_tvalue_t* hi = grtc_onnx_reduce(n, x, axes, x->type.rank, GRTC_TOP_MAXIMUM,
                                       grtc_onnx_scalar(n, GRTC_ELEM_F32, -INFINITY), false);
  lo = grtc_onnx_binary(n, GRTC_TOP_MINIMUM, lo, zero);
  hi = grtc_onnx_binary(n, GRTC_TOP_MAXIMUM, hi, zero);
  grtc_tvalue_t* scale = DIV(SUB(hi, lo), grtc_onnx_scalar(n, GRTC_ELEM_F32, 255));
  grtc_tvalue_t* zp = grtc_onnx_saturate(n, DIV(SUB(zero, lo), scale), GRTC_ELEM_U8);
  grtc_tvalue_t* q = grtc_onnx_unary(n, GRTC_TOP_ROUND_NEAREST_EVEN, DIV(x, scale));
  OUT(0) = grtc_onnx_saturate(n, ADD(q, grtc_onnx_convert(n, zp, GRTC_ELEM_F32)), GRTC_ELEM_U8);
  if (n->output_count > 1) OUT(1) = scale;
  if (n->output_count > 2) OUT(2) = zp;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// QLinearMatMul, QLinearConv
//===----------------------------------------------------------------------===//

// Runs |op_type| of |table| (an integer op of nn.c) on |inputs| as if the
// node were that op with the node's attributes; its one output, or NULL
// with the error in |n->status|.
static grtc_tvalue_t* grtc_onnx_delegate(grtc_onnx_node_t* n, const grtc_onnx_op_def_t* table,
                                         const char* op_type, grtc_tvalue_t** inputs,
                                         uint32_t count) {
  if (!grt_status_is_ok(n->status)) return NULL;
  for (uint32_t i = 0; i < 2; ++i) {
    if (!inputs[i]) return NULL;
  }
  const grtc_onnx_op_def_t* row = table;
  while (row->op_type && strcmp(row->op_type, op_type) != 0) ++row;
  if (!row->op_type) {
    grt_status_free(grtc_onnx_error(n, "internal: no op %s to lower to", op_type));
    return NULL;
  }
  grtc_onnx_node_t sub = *n;
  grtc_tvalue_t* out[1] = {NULL};
  sub.inputs = inputs;
  sub.input_count = count;
  sub.outputs = out;
  sub.output_count = 1;
  sub.status = grt_ok_status();
  grt_status_t status = row->fn(&sub);
  if (!grt_status_is_ok(status) && grt_status_is_ok(sub.status)) {
    sub.status = status;
  } else {
    grt_status_free(status);
  }
  if (!grt_status_is_ok(sub.status)) {
    n->status = sub.status;
    return NULL;
  }
  if (!out[0]) grt_status_free(grtc_onnx_error(n, "internal: %s gave no result", op_type));
  return out[0];
}

// saturate(round_half_even(acc * multiplier + y_zero_point)) in y_zero_point's
// type (uint8 without it), |acc| the i32 accumulator.
static grtc_tvalue_t* grtc_onnx_requantize(grtc_onnx_node_t* n, grtc_tvalue_t* acc,
                                           grtc_tvalue_t* multiplier, grtc_tvalue_t* y_zero,
                                           grtc_elem_t out) {
  grtc_tvalue_t* v = MUL(grtc_onnx_convert(n, acc, GRTC_ELEM_F32), multiplier);
  if (y_zero) v = ADD(v, grtc_onnx_convert(n, y_zero, GRTC_ELEM_F32));
  return grtc_onnx_saturate(n, v, out);
}

// The element type of y: y_zero_point's, else x's; uint8 or int8.
static bool grtc_onnx_qlinear_out(grtc_onnx_node_t* n, grtc_tvalue_t* x, grtc_tvalue_t* y_zero,
                                  grtc_elem_t* out) {
  char bz[GRTC_TTYPE_FORMAT_CAPACITY];
  *out = y_zero ? y_zero->type.elem : x->type.elem;
  if (*out != GRTC_ELEM_U8 && *out != GRTC_ELEM_I8) {
    grt_status_free(grtc_onnx_error(n, "y_zero_point must be uint8 or int8, got %s",
                                    grtc_onnx_fmt(y_zero ? y_zero : x, bz)));
    return false;
  }
  return true;
}

static grtc_tvalue_t* grtc_onnx_scale_f32(grtc_onnx_node_t* n, grtc_tvalue_t* p, grtc_tvalue_t* x,
                                          int axis, const char* what) {
  return grtc_onnx_convert(n, grtc_onnx_quant_param(n, p, x, axis, true, what), GRTC_ELEM_F32);
}

// Inputs: a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale,
// y_zero_point; MatMulInteger's accumulator requantized with
// a_scale * b_scale / y_scale (a's per row, b's per column).
static grt_status_t grtc_onnx_op_qlinear_matmul(grtc_onnx_node_t* n) {
  grtc_tvalue_t* a = grtc_onnx_input(n, 0);
  grtc_tvalue_t* b = grtc_onnx_input(n, 3);
  grtc_tvalue_t* y_zero = grtc_onnx_optional(n, 7);
  if (!a || !b || !grtc_onnx_input(n, 1) || !grtc_onnx_input(n, 4) || !grtc_onnx_input(n, 6)) {
    return grt_ok_status();
  }
  grtc_elem_t out;
  if (!grtc_onnx_qlinear_out(n, a, y_zero, &out)) return grt_ok_status();
  grtc_tvalue_t* inputs[4] = {a, b, grtc_onnx_optional(n, 2), grtc_onnx_optional(n, 5)};
  grtc_tvalue_t* acc = grtc_onnx_delegate(n, grtc_onnx_nn_ops, "MatMulInteger", inputs, 4);
  if (!acc) return grt_ok_status();
  // a's scale per row (its dimension -2), as a column (M, 1) (as (M) when
  // b is a vector and the result has no column dimension); b's per column
  // (its last dimension).
  grtc_tvalue_t* sa = grtc_onnx_scale_f32(
      n, n->inputs[1], a, a->type.rank >= 2 ? (int)a->type.rank - 2 : -1, "a_scale");
  if (sa && sa->type.rank > 0) {
    int64_t dims[2] = {a->type.dims[a->type.rank - 2], 1};
    sa = grtc_onnx_reshape(n, sa, b->type.rank == 1 ? 1 : 2, dims);
  }
  grtc_tvalue_t* sb = grtc_onnx_scale_f32(
      n, n->inputs[4], b, b->type.rank >= 2 ? (int)b->type.rank - 1 : -1, "b_scale");
  if (sb && sb->type.rank > 0) {
    int64_t dims[1] = {b->type.dims[b->type.rank - 1]};
    sb = grtc_onnx_reshape(n, sb, 1, dims);
  }
  grtc_tvalue_t* sy = grtc_onnx_scale_f32(n, n->inputs[6], acc, -1, "y_scale");
  grtc_tvalue_t* zy =
      y_zero ? grtc_onnx_quant_param(n, y_zero, acc, -1, false, "y_zero_point") : NULL;
  OUT(0) = grtc_onnx_requantize(n, acc, DIV(MUL(sa, sb), sy), zy, out);
  return grt_ok_status();
}

// Inputs: x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale,
// y_zero_point, B (int32, optional); ConvInteger's accumulator plus B
// requantized with x_scale * w_scale / y_scale (w's per output channel).
static grt_status_t grtc_onnx_op_qlinear_conv(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* w = grtc_onnx_input(n, 3);
  grtc_tvalue_t* y_zero = grtc_onnx_optional(n, 7);
  grtc_tvalue_t* bias = grtc_onnx_optional(n, 8);
  if (!x || !w || !grtc_onnx_input(n, 1) || !grtc_onnx_input(n, 4) || !grtc_onnx_input(n, 6)) {
    return grt_ok_status();
  }
  char bx[GRTC_TTYPE_FORMAT_CAPACITY], bw[GRTC_TTYPE_FORMAT_CAPACITY];
  if (x->type.rank < 3 || w->type.rank != x->type.rank) {
    return grtc_onnx_error(
        n, "x must have shape (N, C, d1, ...) and w (M, C/group, k1, ...); got %s and %s",
        grtc_onnx_fmt(x, bx), grtc_onnx_fmt(w, bw));
  }
  grtc_elem_t out;
  if (!grtc_onnx_qlinear_out(n, x, y_zero, &out)) return grt_ok_status();
  grtc_tvalue_t* inputs[4] = {x, w, grtc_onnx_optional(n, 2), grtc_onnx_optional(n, 5)};
  grtc_tvalue_t* acc = grtc_onnx_delegate(n, grtc_onnx_nn_ops, "ConvInteger", inputs, 4);
  if (!acc) return grt_ok_status();
  uint32_t rank = acc->type.rank;
  int64_t channels = acc->type.dims[1];
  int64_t dims[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) dims[d] = d == 1 ? channels : 1;
  if (bias) {
    char bb[GRTC_TTYPE_FORMAT_CAPACITY];
    if (bias->type.elem != GRTC_ELEM_I32 || bias->type.rank != 1 ||
        bias->type.dims[0] != channels) {
      return grtc_onnx_error(n, "B must be an int32 tensor of shape (%lld), got %s",
                             (long long)channels, grtc_onnx_fmt(bias, bb));
    }
    acc = ADD(acc, grtc_onnx_reshape(n, bias, rank, dims));
  }
  grtc_tvalue_t* sx = grtc_onnx_scale_f32(n, n->inputs[1], x, -1, "x_scale");
  // w's scale per output channel: w's dimension 0, y's dimension 1.
  grtc_tvalue_t* sw = grtc_onnx_scale_f32(n, n->inputs[4], w, 0, "w_scale");
  if (sw && sw->type.rank > 0) sw = grtc_onnx_reshape(n, sw, rank, dims);
  grtc_tvalue_t* sy = grtc_onnx_scale_f32(n, n->inputs[6], acc, -1, "y_scale");
  grtc_tvalue_t* zy =
      y_zero ? grtc_onnx_quant_param(n, y_zero, acc, -1, false, "y_zero_point") : NULL;
  OUT(0) = grtc_onnx_requantize(n, acc, DIV(MUL(sx, sw), sy), zy, out);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// QDQ folding: Conv, MatMul, Gemm of DequantizeLinear results
//===----------------------------------------------------------------------===//

// The DequantizeLinear records of |x| and |w| when both are 8-bit results
// of it, x per tensor and w per tensor or per dimension |w_axis|, and not
// both constants (those fold in f32 as they are); false otherwise.
static bool grtc_onnx_qdq_operands(grtc_onnx_node_t* n, grtc_tvalue_t* x, grtc_tvalue_t* w,
                                   int w_axis, const grtc_onnx_dequantized_t** dx,
                                   const grtc_onnx_dequantized_t** dw) {
  if (!grtc_onnx_ok(n) || !x || !w) return false;
  *dx = grtc_onnx_find_dequantized(n, x);
  *dw = grtc_onnx_find_dequantized(n, w);
  if (!*dx || !*dw || (*dx)->axis >= 0 || (*dx)->block || (*dw)->block ||
      ((*dw)->axis >= 0 && (*dw)->axis != w_axis)) {
    return false;
  }
  return !grtc_onnx_is_constant(x) || !grtc_onnx_is_constant(w);
}

// f32(|acc|) * (x_scale * w_scale): |dw|'s scale per axis shaped
// |rank|/|dims| to broadcast against |acc|.
static grtc_tvalue_t* grtc_onnx_qdq_dequantize(grtc_onnx_node_t* n, grtc_tvalue_t* acc,
                                               const grtc_onnx_dequantized_t* dx,
                                               const grtc_onnx_dequantized_t* dw, uint32_t rank,
                                               const int64_t* dims) {
  if (!acc) return NULL;
  grtc_tvalue_t* sx = grtc_onnx_reshape(n, dx->scale, 0, NULL);
  grtc_tvalue_t* sw = dw->axis >= 0 ? grtc_onnx_reshape(n, dw->scale, rank, dims)
                                    : grtc_onnx_reshape(n, dw->scale, 0, NULL);
  return MUL(grtc_onnx_convert(n, acc, GRTC_ELEM_F32), MUL(sx, sw));
}

void grtc_onnx_qdq_forward(grtc_onnx_node_t* n) {
  static const char* const kReshapes[] = {"Flatten", "Reshape", "Squeeze", "Unsqueeze",
                                          "Identity"};
  if (n->input_count == 0 || n->output_count != 1 || !n->outputs[0]) return;
  bool reshape = false;
  for (size_t i = 0; i < sizeof(kReshapes) / sizeof(kReshapes[0]); ++i) {
    reshape |= strcmp(n->proto->op_type, kReshapes[i]) == 0;
  }
  const grtc_onnx_dequantized_t* d = reshape ? grtc_onnx_find_dequantized(n, n->inputs[0]) : NULL;
  const grtc_ttype_t* type = &n->outputs[0]->type;
  if (!d || d->axis >= 0 || d->block || !grtc_ttype_is_static(type) ||
      grtc_ttype_element_count(type) != grtc_ttype_element_count(&d->x->type)) {
    return;
  }
  grtc_onnx_dequantized_t moved = *d;
  moved.value = n->outputs[0];
  moved.x = grtc_onnx_reshape(n, d->x, type->rank, type->dims);
  if (moved.x) grtc_onnx_remember_dequantized(n, &moved);
}

grtc_tvalue_t* grtc_onnx_qdq_conv(grtc_onnx_node_t* n, grtc_tvalue_t* x, grtc_tvalue_t* w) {
  const grtc_onnx_dequantized_t *dx, *dw;
  if (!grtc_onnx_qdq_operands(n, x, w, 0, &dx, &dw)) return NULL;
  // Shapes that do not fit are the f32 convolution's errors.
  if (x->type.rank < 3 || w->type.rank != x->type.rank) return NULL;
  grtc_tvalue_t* inputs[4] = {dx->x, dw->x, dx->zero, dw->zero};
  grtc_tvalue_t* acc = grtc_onnx_delegate(n, grtc_onnx_nn_ops, "ConvInteger", inputs, 4);
  if (!acc) return NULL;
  // w's scale per output channel: y's dimension 1.
  int64_t dims[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < acc->type.rank; ++d) dims[d] = d == 1 ? acc->type.dims[1] : 1;
  return grtc_onnx_qdq_dequantize(n, acc, dx, dw, acc->type.rank, dims);
}

grtc_tvalue_t* grtc_onnx_qdq_matmul(grtc_onnx_node_t* n, grtc_tvalue_t* a, grtc_tvalue_t* b) {
  if (!a || !b || a->type.rank == 0 || b->type.rank < 1) return NULL;
  // b per column: its last dimension, when it is a matrix.
  uint32_t rb = b->type.rank;
  const grtc_onnx_dequantized_t *da, *db;
  if (!grtc_onnx_qdq_operands(n, a, b, rb >= 2 ? (int)rb - 1 : -2, &da, &db)) return NULL;
  grtc_tvalue_t* inputs[4] = {da->x, db->x, da->zero, db->zero};
  grtc_tvalue_t* acc = grtc_onnx_delegate(n, grtc_onnx_nn_ops, "MatMulInteger", inputs, 4);
  int64_t dims[1] = {b->type.dims[rb - 1]};
  return grtc_onnx_qdq_dequantize(n, acc, da, db, 1, dims);
}

grtc_tvalue_t* grtc_onnx_qdq_gemm(grtc_onnx_node_t* n, grtc_tvalue_t* a, grtc_tvalue_t* b,
                                  bool trans_a, bool trans_b) {
  // b per column of the product: its dimension 1, or 0 when transposed.
  const grtc_onnx_dequantized_t *da, *db;
  if (!a || !b || a->type.rank != 2 || b->type.rank != 2 ||
      !grtc_onnx_qdq_operands(n, a, b, trans_b ? 0 : 1, &da, &db)) {
    return NULL;
  }
  // As MatMulInteger of (M, K) and (K, N); constant weights are transposed
  // when the model is compiled.
  static const int64_t kSwap[2] = {1, 0};
  grtc_tvalue_t* aq = trans_a ? grtc_onnx_transpose_constant(n, da->x, kSwap) : da->x;
  grtc_tvalue_t* bq = trans_b ? grtc_onnx_transpose_constant(n, db->x, kSwap) : db->x;
  grtc_tvalue_t* inputs[4] = {aq, bq, da->zero, db->zero};
  grtc_tvalue_t* acc = grtc_onnx_delegate(n, grtc_onnx_nn_ops, "MatMulInteger", inputs, 4);
  int64_t dims[1] = {b->type.dims[trans_b ? 0 : 1]};
  return grtc_onnx_qdq_dequantize(n, acc, da, db, 1, dims);
}

// For |b|, a DequantizeLinear result of a constant INT4/UINT4 matrix C
// with a constant zero point Z (one value, or one per dimension |n_axis|,
// b's columns) whose C - Z does not fit 4 bits (DequantizeLinear folds the
// others): (C - Z) S = (C - o) S - (Z - o) S with o 8 for uint4 and 0 for
// int4, so C - o fits int4 whatever C. |weights| gets (C - o) S (b's
// shape) and |zs| (Z - o) S (one value, or a vector of b's N); false when
// b is not such a result (or after an error, in |n->status|).
static bool grtc_onnx_int4_split(grtc_onnx_node_t* n, grtc_tvalue_t* b, int n_axis,
                                 grtc_tvalue_t** weights, grtc_tvalue_t** zs) {
  if (!grtc_onnx_ok(n) || !b || b->type.rank != 2) return false;
  const grtc_onnx_dequantized_t* db = grtc_onnx_find_dequantized(n, b);
  if (!db || !db->zero || db->block || (db->axis >= 0 && db->axis != n_axis)) return false;
  int32_t type = grtc_onnx_int4_type(n, db->x);
  if (!type || !grtc_onnx_is_constant(db->x) || !grtc_onnx_is_constant(db->zero)) return false;
  int64_t offset = type == 21 ? 8 : 0;
  grtc_tvalue_t* o = grtc_onnx_scalar(n, db->x->type.elem, (double)offset);
  grtc_tvalue_t* c = grtc_onnx_int4_minus(n, db->x, o, -1);
  grtc_tvalue_t* s =
      grtc_onnx_quant_spread(n, db->scale, b, db->axis, true, "x_scale", GRTC_ELEM_F32);
  if (!c || !s) return false;
  *weights = MUL(grtc_onnx_convert(n, c, GRTC_ELEM_F32), s);
  // The parameters as one value or a vector along the result's columns.
  int64_t count = b->type.dims[n_axis];
  grtc_tvalue_t* sv = grtc_ttype_element_count(&db->scale->type) == 1
                          ? grtc_onnx_reshape(n, db->scale, 0, NULL)
                          : grtc_onnx_reshape(n, db->scale, 1, &count);
  grtc_tvalue_t* zv = grtc_ttype_element_count(&db->zero->type) == 1
                          ? grtc_onnx_reshape(n, db->zero, 0, NULL)
                          : grtc_onnx_reshape(n, db->zero, 1, &count);
  *zs = MUL(SUB(grtc_onnx_convert(n, zv, GRTC_ELEM_F32),
                grtc_onnx_scalar(n, GRTC_ELEM_F32, (double)offset)),
            grtc_onnx_convert(n, sv, GRTC_ELEM_F32));
  return *weights && *zs;
}

// f32 |y| (..., M, N) - rowsum(|a|) * |zs|, the rows of a summed over its
// dimension |k_dim|.
static grtc_tvalue_t* grtc_onnx_int4_correct(grtc_onnx_node_t* n, grtc_tvalue_t* y,
                                             grtc_tvalue_t* a, int64_t k_dim, grtc_tvalue_t* zs) {
  grtc_tvalue_t* rows = grtc_onnx_reduce(n, a, &k_dim, 1, GRTC_TOP_ADD,
                                         grtc_onnx_scalar(n, GRTC_ELEM_F32, 0), true);
  return SUB(y, MUL(rows, zs));
}

grtc_tvalue_t* grtc_onnx_int4_matmul(grtc_onnx_node_t* n, grtc_tvalue_t* a, grtc_tvalue_t* b) {
  grtc_tvalue_t *weights = NULL, *zs = NULL;
  if (!a || a->type.elem != GRTC_ELEM_F32 || a->type.rank < 2 ||
      !grtc_onnx_int4_split(n, b, 1, &weights, &zs)) {
    return NULL;
  }
  return grtc_onnx_int4_correct(n, grtc_onnx_matmul(n, a, weights), a, a->type.rank - 1, zs);
}

grtc_tvalue_t* grtc_onnx_int4_blocked_matmul(grtc_onnx_node_t* n, grtc_tvalue_t* a,
                                             grtc_tvalue_t* b) {
  if (!grtc_onnx_ok(n) || !a || !b || a->type.elem != GRTC_ELEM_F32 || a->type.rank != 2 ||
      b->type.rank != 2 || !grtc_ttype_is_static(&a->type) || !grtc_ttype_is_static(&b->type)) {
    return NULL;
  }
  const grtc_onnx_dequantized_t* db = grtc_onnx_find_dequantized(n, b);
  if (!db || !db->block || db->axis != 0 || !grtc_onnx_is_constant(db->x) ||
      (db->zero && !grtc_onnx_is_constant(db->zero))) {
    return NULL;
  }
  int32_t type = grtc_onnx_int4_type(n, db->x);
  if (!type) return NULL;
  int64_t m = a->type.dims[0], k = b->type.dims[0], cols = b->type.dims[1], block = db->block;
  int64_t blocks = (k + block - 1) / block, padded = blocks * block;
  if (a->type.dims[1] != k || db->scale->type.dims[0] != blocks) return NULL;
  // (C - o) as (blocks, block, N) int8, rows past K zero.
  int64_t offset = type == 21 ? 8 : 0;
  int64_t* values = grtc_tmodule_alloc(n->module, (size_t)(padded * cols + 1) * sizeof(int64_t));
  if (!values) {
    grtc_onnx_fail(n, grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory"));
    return NULL;
  }
  for (int64_t e = 0; e < padded * cols; ++e) {
    values[e] = e < k * cols ? grtc_onnx_const_int(db->x, e) - offset : 0;
  }
  int64_t wdims[3] = {blocks, block, cols};
  grtc_tvalue_t* c = grtc_onnx_const_ints(n, GRTC_ELEM_I8, 3, wdims, values);
  // a as (M, blocks, block), padded with zeros past K.
  int64_t low[2] = {0, 0}, high[2] = {0, padded - k};
  grtc_tvalue_t* ap =
      padded == k ? a : grtc_onnx_pad(n, a, grtc_onnx_scalar(n, GRTC_ELEM_F32, 0), low, high);
  int64_t adims[3] = {m, blocks, block};
  ap = grtc_onnx_reshape(n, ap, 3, adims);
  // (blocks, M, N) = per block, a_j (C_j - o).
  int64_t lb = 1, rb = 0, lc = 2, rc = 1;
  grtc_dot_dims_t dims = {{1, &lb}, {1, &rb}, {1, &lc}, {1, &rc}};
  int64_t ydims[3] = {blocks, m, cols};
  grtc_ttype_t ytype = grtc_onnx_type(GRTC_ELEM_F32, 3, ydims);
  grtc_tvalue_t* y = grtc_onnx_dot(n, ap, grtc_onnx_convert(n, c, GRTC_ELEM_F32), &dims, &ytype);
  // Z - o (0 without Z) per block and column, as (blocks, 1, N).
  int64_t pdims[3] = {blocks, 1, cols};
  grtc_tvalue_t* zo = NULL;
  if (db->zero) {
    zo = SUB(grtc_onnx_convert(n, grtc_onnx_reshape(n, db->zero, 3, pdims), GRTC_ELEM_F32),
             grtc_onnx_scalar(n, GRTC_ELEM_F32, (double)offset));
  } else if (offset) {
    zo = grtc_onnx_scalar(n, GRTC_ELEM_F32, (double)-offset);
  }
  if (zo) {
    // Row sums of each block of a: (M, blocks, 1) as (blocks, M, 1).
    int64_t last = 2, perm[3] = {1, 0, 2};
    grtc_tvalue_t* rows = grtc_onnx_transpose(
        n,
        grtc_onnx_reduce(n, ap, &last, 1, GRTC_TOP_ADD, grtc_onnx_scalar(n, GRTC_ELEM_F32, 0),
                         true),
        perm);
    y = SUB(y, MUL(rows, zo));
  }
  y = MUL(y, grtc_onnx_convert(n, grtc_onnx_reshape(n, db->scale, 3, pdims), GRTC_ELEM_F32));
  int64_t first = 0;
  return grtc_onnx_reduce(n, y, &first, 1, GRTC_TOP_ADD, grtc_onnx_scalar(n, GRTC_ELEM_F32, 0),
                          false);
}

grtc_tvalue_t* grtc_onnx_int4_gemm(grtc_onnx_node_t* n, grtc_tvalue_t* a, grtc_tvalue_t* b,
                                   bool trans_a, bool trans_b, const grtc_dot_dims_t* dims,
                                   const grtc_ttype_t* type) {
  grtc_tvalue_t *weights = NULL, *zs = NULL;
  if (!a || trans_a || a->type.elem != GRTC_ELEM_F32 || a->type.rank != 2 ||
      !grtc_onnx_int4_split(n, b, trans_b ? 0 : 1, &weights, &zs)) {
    return NULL;
  }
  return grtc_onnx_int4_correct(n, grtc_onnx_dot(n, a, weights, dims, type), a, 1, zs);
}

const grtc_onnx_op_def_t grtc_onnx_quant_ops[] = {
    {"QuantizeLinear", grtc_onnx_op_quantize, 2, 3, 1, 1, 10},
    {"DequantizeLinear", grtc_onnx_op_dequantize, 2, 3, 1, 1, 10},
    {"DynamicQuantizeLinear", grtc_onnx_op_dynamic_quantize, 1, 1, 1, 3, 11},
    {"QLinearMatMul", grtc_onnx_op_qlinear_matmul, 8, 8, 1, 1, 10},
    {"QLinearConv", grtc_onnx_op_qlinear_conv, 8, 9, 1, 1, 10},
    {NULL, NULL, 0, 0, 0, 0, 0},
};
