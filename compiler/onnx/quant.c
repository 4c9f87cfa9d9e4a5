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

// y = (x - x_zero_point) * x_scale, in y's type (x_scale's).
static grt_status_t grtc_onnx_op_dequantize(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* scale = grtc_onnx_input(n, 1);
  grtc_tvalue_t* zero = grtc_onnx_optional(n, 2);
  if (!x || !scale) return grt_ok_status();
  char bx[GRTC_TTYPE_FORMAT_CAPACITY], bz[GRTC_TTYPE_FORMAT_CAPACITY];
  double lo, hi;
  if (!grtc_onnx_quant_range(x->type.elem, &lo, &hi)) {
    return grtc_onnx_unsupported(n, "x must be uint8, int8, uint16, int16 or int32, got %s",
                                 grtc_onnx_fmt(x, bx));
  }
  if (zero && zero->type.elem != x->type.elem) {
    return grtc_onnx_error(n, "x_zero_point %s must have x's element type (x is %s)",
                           grtc_onnx_fmt(zero, bz), grtc_onnx_fmt(x, bx));
  }
  grtc_tvalue_t* params[2] = {scale, zero};
  int axis = -1;
  if (!grtc_onnx_quant_axis(n, x, params, 2, &axis)) return grt_ok_status();
  grtc_tvalue_t* s = grtc_onnx_quant_param(n, scale, x, axis, true, "x_scale");
  if (!s) return grt_ok_status();
  grtc_elem_t elem = s->type.elem;
  grtc_elem_t calc = elem == GRTC_ELEM_F64 ? GRTC_ELEM_F64 : GRTC_ELEM_F32;
  grtc_tvalue_t* v = grtc_onnx_convert(n, x, calc);
  if (zero) {
    v = SUB(v, grtc_onnx_convert(n, grtc_onnx_quant_param(n, zero, x, axis, false, "x_zero_point"),
                                 calc));
  }
  OUT(0) = grtc_onnx_convert(n, MUL(v, grtc_onnx_convert(n, s, calc)), elem);
  // 8-bit integers with f32 scales: Conv, MatMul and Gemm of the result
  // may run on the integers (QDQ folding, below).
  if (OUT(0) && (x->type.elem == GRTC_ELEM_I8 || x->type.elem == GRTC_ELEM_U8) &&
      elem == GRTC_ELEM_F32) {
    grtc_onnx_dequantized_t d = {OUT(0), x, scale, zero, axis, NULL};
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
  if (!*dx || !*dw || (*dx)->axis >= 0 || ((*dw)->axis >= 0 && (*dw)->axis != w_axis)) {
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
  if (!d || d->axis >= 0 || !grtc_ttype_is_static(type) ||
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

const grtc_onnx_op_def_t grtc_onnx_quant_ops[] = {
    {"QuantizeLinear", grtc_onnx_op_quantize, 2, 3, 1, 1, 10},
    {"DequantizeLinear", grtc_onnx_op_dequantize, 2, 3, 1, 1, 10},
    {"DynamicQuantizeLinear", grtc_onnx_op_dynamic_quantize, 1, 1, 1, 3, 11},
    {"QLinearMatMul", grtc_onnx_op_qlinear_matmul, 8, 8, 1, 1, 10},
    {"QLinearConv", grtc_onnx_op_qlinear_conv, 8, 9, 1, 1, 10},
    {NULL, NULL, 0, 0, 0, 0, 0},
};
