// ONNX ops: convolutions, pools, normalizations, MatMul, Gemm, Einsum,
// Resize and Upsample, LRN.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compiler/onnx/internal.h"


// |x| (rank >= min_rank) or an error naming |what|.
static bool grtc_onnx_expect_rank(grtc_onnx_node_t* n, grtc_tvalue_t* x, const char* what,
                                  uint32_t min_rank) {
  if (!x) return false;
  if (x->type.rank >= min_rank) return true;
  char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
  grt_status_free(grtc_onnx_error(n, "%s must have rank %u or more, got %s", what, min_rank,
                                  grtc_onnx_fmt(x, buffer)));
  return false;
}

// Integer list attribute |name| of |count| values, or |fallback| in each
// when absent.
static bool grtc_onnx_ints_attr(grtc_onnx_node_t* n, const char* name, uint32_t count,
                                int64_t fallback, int64_t* out) {
  int64_t* values = NULL;
  uint32_t given = 0;
  if (!grtc_onnx_attr_ints(n, name, &values, &given)) {
    for (uint32_t i = 0; i < count; ++i) out[i] = fallback;
    return grt_status_is_ok(n->status);
  }
  if (given != count) {
    grt_status_free(
        grtc_onnx_error(n, "attribute '%s' has %u values, expected %u", name, given, count));
    return false;
  }
  memcpy(out, values, count * sizeof(int64_t));
  return true;
}

// |v| (a per-channel or per-feature vector, or any tensor of rank < x's)
// reshaped to |rank| as [1, v's dims..., 1...] to broadcast against an
// NC... tensor.
static grtc_tvalue_t* grtc_onnx_channel_param(grtc_onnx_node_t* n, grtc_tvalue_t* v, uint32_t rank,
                                              grtc_elem_t elem) {
  if (!v) return NULL;
  if (v->type.rank + 1 > rank) {
    char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
    grt_status_free(grtc_onnx_error(n, "parameter %s has too high a rank for a rank-%u input",
                                    grtc_onnx_fmt(v, buffer), rank));
    return NULL;
  }
  int64_t dims[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) {
    dims[d] = d >= 1 && d <= v->type.rank ? v->type.dims[d - 1] : 1;
  }
  return grtc_onnx_reshape(n, grtc_onnx_convert(n, v, elem), rank, dims);
}

// The element type sums and normalization statistics are computed in: f32 for
// 16-bit floats (unless the op has a stash_type and it is not 1, float),
// the input's otherwise.
static grtc_elem_t grtc_onnx_stash_elem(grtc_onnx_node_t* n, grtc_elem_t elem, bool has_stash) {
  int64_t stash = has_stash ? grtc_onnx_attr_int(n, "stash_type", 1) : 1;
  if (stash == 1 && (elem == GRTC_ELEM_F16 || elem == GRTC_ELEM_BF16)) return GRTC_ELEM_F32;
  return elem;
}

//===----------------------------------------------------------------------===//
// Windows: Conv and the pools
//===----------------------------------------------------------------------===//

// Window attributes (kernel sizes, strides, dilations, pads) above this are
// refused, so that extents and output sizes cannot overflow.
#define GRTC_ONNX_WINDOW_LIMIT (INT64_C(1) << 24)

static bool grtc_onnx_window_value_ok(int64_t value, int64_t min) {
  return value >= min && value <= GRTC_ONNX_WINDOW_LIMIT;
}

// A window over the spatial dimensions (2.. of an NC... tensor).
typedef struct grtc_onnx_window_spec_t {
  uint32_t count;
  int64_t kernel[GRTC_MAX_RANK], strides[GRTC_MAX_RANK], dilations[GRTC_MAX_RANK];
  int64_t low[GRTC_MAX_RANK], high[GRTC_MAX_RANK];
  int64_t out[GRTC_MAX_RANK];
  // high padding that ceil_mode adds (beyond the explicit pads).
  int64_t extra[GRTC_MAX_RANK];
} grtc_onnx_window_spec_t;

// Reads strides, dilations, pads and auto_pad for a window of |kernel| over
// the spatial |in| sizes, and computes the output sizes (floor, or ceil
// with |ceil_mode|, a window never starting in the high padding).
static bool grtc_onnx_window(grtc_onnx_node_t* n, uint32_t count, const int64_t* in,
                             const int64_t* kernel, bool ceil_mode, grtc_onnx_window_spec_t* w) {
  memset(w, 0, sizeof(*w));
  w->count = count;
  memcpy(w->kernel, kernel, count * sizeof(int64_t));
  int64_t pads[2 * GRTC_MAX_RANK];
  if (!grtc_onnx_ints_attr(n, "strides", count, 1, w->strides) ||
      !grtc_onnx_ints_attr(n, "dilations", count, 1, w->dilations) ||
      !grtc_onnx_ints_attr(n, "pads", 2 * count, 0, pads)) {
    return false;
  }
  const char* auto_pad = grtc_onnx_attr_string(n, "auto_pad", "NOTSET");
  bool same_upper = strcmp(auto_pad, "SAME_UPPER") == 0;
  bool same_lower = strcmp(auto_pad, "SAME_LOWER") == 0;
  bool valid = strcmp(auto_pad, "VALID") == 0;
  if (!same_upper && !same_lower && !valid && strcmp(auto_pad, "NOTSET") != 0) {
    grt_status_free(grtc_onnx_error(n,
                                    "attribute 'auto_pad' must be NOTSET, SAME_UPPER, "
                                    "SAME_LOWER or VALID, got \"%s\"",
                                    auto_pad));
    return false;
  }
  for (uint32_t i = 0; i < count; ++i) {
    int64_t k = kernel[i], s = w->strides[i], d = w->dilations[i];
    if (!grtc_onnx_window_value_ok(k, 1) || !grtc_onnx_window_value_ok(s, 1) ||
        !grtc_onnx_window_value_ok(d, 1) || !grtc_onnx_window_value_ok(pads[i], 0) ||
        !grtc_onnx_window_value_ok(pads[count + i], 0)) {
      grt_status_free(grtc_onnx_error(n,
                                      "spatial dimension %u: kernel %lld, stride %lld, "
                                      "dilation %lld must be positive and pads %lld/%lld "
                                      "non-negative (all at most 2^24)",
                                      i, (long long)k, (long long)s, (long long)d,
                                      (long long)pads[i], (long long)pads[count + i]));
      return false;
    }
    int64_t extent = (k - 1) * d + 1;
    if (same_upper || same_lower) {
      int64_t out = (in[i] + s - 1) / s;
      int64_t total = (out - 1) * s + extent - in[i];
      if (total < 0) total = 0;
      w->low[i] = same_upper ? total / 2 : total - total / 2;
      w->high[i] = total - w->low[i];
    } else if (!valid) {
      w->low[i] = pads[i];
      w->high[i] = pads[count + i];
    }
    int64_t span = in[i] + w->low[i] + w->high[i] - extent;
    if (span < 0) {
      grt_status_free(grtc_onnx_error(n,
                                      "spatial dimension %u: the window (%lld with dilation "
                                      "%lld) is larger than the padded input (%lld)",
                                      i, (long long)k, (long long)d,
                                      (long long)(in[i] + w->low[i] + w->high[i])));
      return false;
    }
    int64_t out = span / s + 1;
    if (ceil_mode && span % s != 0) {
      out = span / s + 2;
      // The last window must start inside the input or the low padding.
      if ((out - 1) * s >= in[i] + w->low[i]) --out;
    }
    w->out[i] = out;
    int64_t needed = (out - 1) * s + extent - (in[i] + w->low[i] + w->high[i]);
    w->extra[i] = needed > 0 ? needed : 0;
  }
  return true;
}

// reduce_window over the spatial dimensions of |x| (NC...) with |w|.
static grtc_tvalue_t* grtc_onnx_pool_window(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                            const grtc_onnx_window_spec_t* w, grtc_top_kind_t kind,
                                            grtc_tvalue_t* init) {
  int64_t window[GRTC_MAX_RANK], strides[GRTC_MAX_RANK], dilations[GRTC_MAX_RANK];
  int64_t low[GRTC_MAX_RANK], high[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < 2; ++d) {
    window[d] = strides[d] = dilations[d] = 1;
    low[d] = high[d] = 0;
  }
  for (uint32_t i = 0; i < w->count; ++i) {
    window[2 + i] = w->kernel[i];
    strides[2 + i] = w->strides[i];
    dilations[2 + i] = w->dilations[i];
    low[2 + i] = w->low[i];
    high[2 + i] = w->high[i] + w->extra[i];
  }
  return grtc_onnx_reduce_window(n, x, kind, init, window, strides, dilations, low, high);
}

// The kernel_shape attribute of a pool over |x| (required).
static bool grtc_onnx_pool_kernel(grtc_onnx_node_t* n, grtc_tvalue_t* x, int64_t* kernel) {
  if (!grtc_onnx_expect_rank(n, x, "input X", 3)) return false;
  if (!grtc_onnx_attr(n, "kernel_shape")) {
    grt_status_free(grtc_onnx_error(n, "attribute 'kernel_shape' is required"));
    return false;
  }
  return grtc_onnx_ints_attr(n, "kernel_shape", x->type.rank - 2, 1, kernel);
}

// Conv's convolution of |x| (NC...) with |w| (M, C/group, kernel...) under
// the node's attributes, into |result_elem| (i8 x i8 -> i32 for
// ConvInteger).
static grtc_tvalue_t* grtc_onnx_conv(grtc_onnx_node_t* n, grtc_tvalue_t* x, grtc_tvalue_t* w,
                                     grtc_elem_t result_elem) {
  if (!grtc_onnx_expect_rank(n, x, "input X", 3) || !w) return NULL;
  uint32_t rank = x->type.rank, count = rank - 2;
  char bx[GRTC_TTYPE_FORMAT_CAPACITY], bw[GRTC_TTYPE_FORMAT_CAPACITY];
  int64_t group = grtc_onnx_attr_int(n, "group", 1);
  int64_t channels = x->type.dims[1];
  if (w->type.rank != rank || w->type.elem != x->type.elem || group < 1 || group > channels ||
      channels % group != 0 || w->type.dims[1] != channels / group ||
      w->type.dims[0] % group != 0) {
    grt_status_free(grtc_onnx_error(n,
                                    "weights %s do not fit input %s with group %lld (expected "
                                    "[M, C/group, kernel...] with M divisible by group)",
                                    grtc_onnx_fmt(w, bw), grtc_onnx_fmt(x, bx), (long long)group));
    return NULL;
  }
  int64_t kernel[GRTC_MAX_RANK];
  if (!grtc_onnx_ints_attr(n, "kernel_shape", count, 0, kernel)) return NULL;
  for (uint32_t i = 0; i < count; ++i) {
    if (grtc_onnx_attr(n, "kernel_shape") && kernel[i] != w->type.dims[2 + i]) {
      grt_status_free(grtc_onnx_error(n, "attribute 'kernel_shape' differs from the weights %s",
                                      grtc_onnx_fmt(w, bw)));
      return NULL;
    }
    kernel[i] = w->type.dims[2 + i];
  }
  grtc_onnx_window_spec_t spec;
  if (!grtc_onnx_window(n, count, x->type.dims + 2, kernel, false, &spec)) return NULL;
  int64_t spatial[GRTC_MAX_RANK], ones[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < count; ++i) {
    spatial[i] = 2 + i;
    ones[i] = 1;
  }
  grtc_ttype_t type = x->type;
  type.elem = result_elem;
  type.dims[1] = w->type.dims[0];
  for (uint32_t i = 0; i < count; ++i) type.dims[2 + i] = spec.out[i];
  // Constant weights (the usual case) are laid out once, when the model is
  // compiled, as (kernel..., C/group, M): the CPU kernels vectorize over
  // output channels and want them contiguous. ONNX's (M, C/group,
  // kernel...) would put them thousands of elements apart. Integer
  // filters keep ONNX's layout: the int8 convolution copies each output
  // channel's (C/group, kernel...) row into its GEMM block, which that
  // layout holds contiguous.
  bool relayout = grtc_onnx_is_constant(w) && grtc_elem_is_float(w->type.elem);
  int64_t kernel_spatial[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < count; ++i) kernel_spatial[i] = relayout ? i : 2 + i;
  if (relayout) {
    int64_t perm[GRTC_MAX_RANK];
    for (uint32_t i = 0; i < count; ++i) perm[i] = 2 + i;
    perm[count] = 1;
    perm[count + 1] = 0;
    w = grtc_onnx_transpose_constant(n, w, perm);
  }
  grtc_tvalue_t* operands[2] = {x, w};
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_CONVOLUTION, operands, 2, &type, 1, 0);
  if (!op) return NULL;
  grtc_conv_dims_t* c = &op->attrs.conv;
  c->input_batch = 0;
  c->input_feature = 1;
  c->input_spatial = grtc_tmodule_i64s(n->module, spatial, count);
  c->kernel_output_feature = relayout ? count + 1 : 0;
  c->kernel_input_feature = relayout ? count : 1;
  c->kernel_spatial = grtc_tmodule_i64s(n->module, kernel_spatial, count);
  c->output_batch = 0;
  c->output_feature = 1;
  c->output_spatial = c->input_spatial;
  c->window_strides = grtc_tmodule_i64s(n->module, spec.strides, count);
  c->padding_low = grtc_tmodule_i64s(n->module, spec.low, count);
  c->padding_high = grtc_tmodule_i64s(n->module, spec.high, count);
  c->rhs_dilation = grtc_tmodule_i64s(n->module, spec.dilations, count);
  c->lhs_dilation = grtc_tmodule_i64s(n->module, ones, count);
  c->feature_group_count = group;
  c->batch_group_count = 1;
  return grtc_onnx_fold(n, op);
}

static grt_status_t grtc_onnx_op_conv(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* b = n->input_count > 2 ? n->inputs[2] : NULL;
  if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
  grtc_tvalue_t* w = grtc_onnx_input(n, 1);
  // DequantizeLinear results run on the int8 convolution (quant.c).
  grtc_tvalue_t* y = grtc_onnx_qdq_conv(n, x, w);
  if (!y && grtc_onnx_ok(n)) y = grtc_onnx_conv(n, x, w, x->type.elem);
  if (b && y) y = ADD(y, grtc_onnx_channel_param(n, b, y->type.rank, x->type.elem));
  OUT(0) = y;
  return grt_ok_status();
}

// Checks that |x|, an input of ConvInteger/MatMulInteger, is int8 or
// uint8 and that its zero point (input |zero_index|, optional) is a scalar
// or one per |axis| of |x| (-1: none allowed) of its type. *|zero| is that
// zero point in i32 shaped |rank|, |dims| when it is a vector (NULL when
// absent). False with the error in |n| otherwise.
static bool grtc_onnx_integer_input(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t zero_index,
                                    int axis, uint32_t rank, const int64_t* dims,
                                    grtc_tvalue_t** zero) {
  char bx[GRTC_TTYPE_FORMAT_CAPACITY], bz[GRTC_TTYPE_FORMAT_CAPACITY];
  *zero = NULL;
  if (x->type.elem != GRTC_ELEM_I8 && x->type.elem != GRTC_ELEM_U8) {
    grt_status_free(
        grtc_onnx_error(n, "expected an int8 or uint8 tensor, got %s", grtc_onnx_fmt(x, bx)));
    return false;
  }
  grtc_tvalue_t* z = zero_index < n->input_count ? n->inputs[zero_index] : NULL;
  if (!z) return true;
  int64_t count = grtc_ttype_element_count(&z->type);
  if (z->type.elem != x->type.elem ||
      (count != 1 && (axis < 0 || z->type.rank != 1 || count != x->type.dims[axis]))) {
    grt_status_free(grtc_onnx_error(n, "zero point %s does not fit input %s",
                                    grtc_onnx_fmt(z, bz), grtc_onnx_fmt(x, bx)));
    return false;
  }
  // A constant zero point of zeros (symmetric weights) is none: no terms.
  int64_t* values = NULL;
  uint32_t known = 0;
  if (grtc_onnx_is_constant(z) && grtc_onnx_ints(n, z, "zero point", &values, &known)) {
    bool zeros = true;
    for (uint32_t i = 0; i < known; ++i) zeros &= values[i] == 0;
    if (zeros) return true;
  }
  *zero = grtc_onnx_reshape(n, grtc_onnx_convert(n, z, GRTC_ELEM_I32), count == 1 ? 0 : rank,
                            dims);
  return grtc_onnx_ok(n);
}

// An 8-bit integer input of ConvInteger minus its zero point (a scalar, or
// one per |axis| of |x| (-1: none allowed)), in i32.
static grtc_tvalue_t* grtc_onnx_dequantize_i32(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                               uint32_t zero_index, int axis) {
  if (!x) return NULL;
  int64_t dims[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < x->type.rank; ++d) {
    dims[d] = (int)d == axis ? x->type.dims[d] : 1;
  }
  grtc_tvalue_t* zero;
  if (!grtc_onnx_integer_input(n, x, zero_index, axis, x->type.rank, dims, &zero)) return NULL;
  grtc_tvalue_t* v = grtc_onnx_convert(n, x, GRTC_ELEM_I32);
  return zero ? SUB(v, zero) : v;
}

// An int8 or uint8 operand of MatMulInteger as int8 (uint8 shifted down by
// 128, exact) and its zero point as grtc_onnx_integer_input gives it,
// shifted the same way; *|zero| is NULL when x is int8 without a zero
// point. False with the error in |n| otherwise.
static bool grtc_onnx_int8_operand(grtc_onnx_node_t* n, grtc_tvalue_t** x, uint32_t zero_index,
                                   int axis, uint32_t rank, const int64_t* dims,
                                   grtc_tvalue_t** zero) {
  grtc_tvalue_t* v = *x;
  if (!grtc_onnx_integer_input(n, v, zero_index, axis, rank, dims, zero)) return false;
  if (v->type.elem == GRTC_ELEM_U8) {
    grtc_tvalue_t* shift = grtc_onnx_scalar(n, GRTC_ELEM_I32, 128);
    *x = grtc_onnx_convert(n, SUB(grtc_onnx_convert(n, v, GRTC_ELEM_I32), shift), GRTC_ELEM_I8);
    *zero = *zero ? SUB(*zero, shift) : grtc_onnx_scalar(n, GRTC_ELEM_I32, -128);
  }
  return *x && grtc_onnx_ok(n);
}

// The int8 x int8 -> int32 convolution (the CPU's int8 GEMM) with the
// zero-point terms of grtc_quant_conv_zero_terms (x padded with its zero
// point, window sums of x, the filter's sums per output channel); uint8
// operands are shifted to int8 with their zero points, as MatMulInteger's.
// Constant operands on both sides fold as the convolution of the
// differences in int32.
static grt_status_t grtc_onnx_op_conv_integer(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* w = grtc_onnx_input(n, 1);
  if (!x || !w || !grtc_onnx_expect_rank(n, x, "input X", 3)) return grt_ok_status();
  if (grtc_onnx_is_constant(x) && grtc_onnx_is_constant(w)) {
    OUT(0) = grtc_onnx_conv(n, grtc_onnx_dequantize_i32(n, x, 2, -1),
                            grtc_onnx_dequantize_i32(n, w, 3, 0), GRTC_ELEM_I32);
    return grt_ok_status();
  }
  // w's zero point per output channel: (1, M, 1, ...) of y.
  uint32_t rank = x->type.rank;
  int64_t dims[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) dims[d] = d == 1 && w->type.rank ? w->type.dims[0] : 1;
  grtc_tvalue_t *zx, *zw;
  if (!grtc_onnx_int8_operand(n, &x, 2, -1, rank, dims, &zx) ||
      !grtc_onnx_int8_operand(n, &w, 3, 0, rank, dims, &zw)) {
    return grt_ok_status();
  }
  // With constant w and zx (the usual case) the terms of zx, zx * (the
  // filter's sums - K * zw), are one constant per output channel,
  // computed here instead of by a dot_general at run time.
  grtc_tvalue_t* x_terms = NULL;
  if (zx && grtc_onnx_is_constant(zx) && (!zw || grtc_onnx_is_constant(zw))) {
    x_terms = grtc_onnx_constant_sums(n, w, 0, rank, dims);
    if (x_terms && zw) {
      int64_t k = grtc_ttype_element_count(&w->type) / w->type.dims[0];
      x_terms = SUB(x_terms, MUL(zw, grtc_onnx_scalar(n, GRTC_ELEM_I32, (double)k)));
    }
    if (x_terms) x_terms = MUL(x_terms, zx);
  }
  grtc_tvalue_t* y = grtc_onnx_conv(n, x, w, GRTC_ELEM_I32);
  if (y && (zx || zw)) y = grtc_onnx_conv_zero_terms(n, y, zx, zw, !x_terms);
  if (y && x_terms) y = SUB(y, x_terms);
  OUT(0) = y;
  return grt_ok_status();
}

// sum_k (a - za)(b - zb) = a.b - zb sum_k a - za sum_k b + K za zb: the
// int8 x int8 -> int32 product (the CPU's int8 GEMM) and the row and
// column sums (products with ones) that a zero point needs. uint8 operands
// are shifted to int8 with their zero points (a - za = (a - 128) - (za - 128)).
static grt_status_t grtc_onnx_op_matmul_integer(grtc_onnx_node_t* n) {
  grtc_tvalue_t* a = grtc_onnx_input(n, 0);
  grtc_tvalue_t* b = grtc_onnx_input(n, 1);
  if (!a || !b) return grt_ok_status();
  if (a->type.rank == 0 || b->type.rank == 0) {
    return grtc_onnx_error(n, "MatMulInteger operands must have rank >= 1");
  }
  uint32_t ra = a->type.rank, rb = b->type.rank;
  bool a_vector = ra == 1, b_vector = rb == 1;
  int64_t k = a->type.dims[ra - 1];
  // a's zero point may be per row (a's dimension -2): a column (M, 1) of
  // the result, or (M) when b is a vector; b's per column (its last
  // dimension).
  int64_t a_dims[2] = {a_vector ? 1 : a->type.dims[ra - 2], 1};
  int64_t b_dims[1] = {b->type.dims[rb - 1]};
  grtc_tvalue_t *za, *zb;
  if (!grtc_onnx_int8_operand(n, &a, 2, a_vector ? -1 : (int)ra - 2, b_vector ? 1 : 2, a_dims,
                              &za) ||
      !grtc_onnx_int8_operand(n, &b, 3, b_vector ? -1 : (int)rb - 1, 1, b_dims, &zb)) {
    return grt_ok_status();
  }
  grtc_tvalue_t* y = grtc_onnx_matmul_into(n, a, b, GRTC_ELEM_I32);
  if (zb) {
    // Row sums of a: a times a ones column, (..., M, 1) (or (..., M)).
    int64_t dims[2] = {k, 1};
    grtc_ttype_t type = grtc_onnx_type(GRTC_ELEM_I8, b_vector ? 1 : 2, dims);
    grtc_tvalue_t* rows =
        grtc_onnx_matmul_into(n, a, grtc_onnx_splat(n, &type, 1), GRTC_ELEM_I32);
    y = SUB(y, MUL(rows, zb));
  }
  if (za) {
    // Column sums of b: a ones row times b, (..., 1, N) (or (..., N));
    // computed here for a constant matrix b.
    int64_t dims[2] = {1, k};
    int64_t col_dims[2] = {1, b->type.dims[rb - 1]};
    grtc_tvalue_t* cols = rb == 2 ? grtc_onnx_constant_sums(n, b, 1, a_vector ? 1 : 2,
                                                             a_vector ? col_dims + 1 : col_dims)
                                  : NULL;
    grtc_ttype_t type = grtc_onnx_type(GRTC_ELEM_I8, a_vector ? 1 : 2, a_vector ? dims + 1 : dims);
    if (!cols && grtc_onnx_ok(n)) {
      cols = grtc_onnx_matmul_into(n, grtc_onnx_splat(n, &type, 1), b, GRTC_ELEM_I32);
    }
    y = SUB(y, MUL(cols, za));
    if (zb) y = ADD(y, MUL(MUL(za, zb), grtc_onnx_scalar(n, GRTC_ELEM_I32, (double)k)));
  }
  OUT(0) = y;
  return grt_ok_status();
}

// ConvTranspose as a convolution of the input dilated by the strides with
// the kernel flipped in space and its feature dimensions swapped (per
// group), padded by (kernel extent - 1 - pads).
static grt_status_t grtc_onnx_op_conv_transpose(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* w = grtc_onnx_input(n, 1);
  grtc_tvalue_t* b = n->input_count > 2 ? n->inputs[2] : NULL;
  if (!grtc_onnx_expect_float(n, x, "input X") || !grtc_onnx_expect_rank(n, x, "input X", 3) ||
      !w) {
    return grt_ok_status();
  }
  uint32_t rank = x->type.rank, count = rank - 2;
  char bx[GRTC_TTYPE_FORMAT_CAPACITY], bw[GRTC_TTYPE_FORMAT_CAPACITY];
  int64_t group = grtc_onnx_attr_int(n, "group", 1);
  int64_t channels = x->type.dims[1];
  if (w->type.rank != rank || w->type.elem != x->type.elem || group < 1 || group > channels ||
      channels % group != 0 || w->type.dims[0] != channels) {
    return grtc_onnx_error(n,
                           "weights %s do not fit input %s with group %lld (expected "
                           "[C, M/group, kernel...])",
                           grtc_onnx_fmt(w, bw), grtc_onnx_fmt(x, bx), (long long)group);
  }
  int64_t cg = channels / group, mg = w->type.dims[1], m = mg * group;
  int64_t kernel[GRTC_MAX_RANK], strides[GRTC_MAX_RANK], dilations[GRTC_MAX_RANK];
  int64_t output_padding[GRTC_MAX_RANK], output_shape[GRTC_MAX_RANK], pads[2 * GRTC_MAX_RANK];
  if (!grtc_onnx_ints_attr(n, "kernel_shape", count, 0, kernel) ||
      !grtc_onnx_ints_attr(n, "strides", count, 1, strides) ||
      !grtc_onnx_ints_attr(n, "dilations", count, 1, dilations) ||
      !grtc_onnx_ints_attr(n, "output_padding", count, 0, output_padding) ||
      !grtc_onnx_ints_attr(n, "pads", 2 * count, 0, pads)) {
    return grt_ok_status();
  }
  bool has_output_shape = false;
  {
    int64_t* values = NULL;
    uint32_t given = 0;
    if (grtc_onnx_attr_ints(n, "output_shape", &values, &given)) {
      // Either the spatial sizes or the full shape.
      if (given != count && given != rank) {
        return grtc_onnx_error(n, "attribute 'output_shape' has %u values, expected %u", given,
                               count);
      }
      memcpy(output_shape, values + (given - count), count * sizeof(int64_t));
      has_output_shape = true;
    }
  }
  const char* auto_pad = grtc_onnx_attr_string(n, "auto_pad", "NOTSET");
  bool same_upper = strcmp(auto_pad, "SAME_UPPER") == 0;
  bool same_lower = strcmp(auto_pad, "SAME_LOWER") == 0;
  bool valid = strcmp(auto_pad, "VALID") == 0;
  if (!same_upper && !same_lower && !valid && strcmp(auto_pad, "NOTSET") != 0) {
    return grtc_onnx_error(n,
                           "attribute 'auto_pad' must be NOTSET, SAME_UPPER, SAME_LOWER or "
                           "VALID, got \"%s\"",
                           auto_pad);
  }
  int64_t low[GRTC_MAX_RANK], high[GRTC_MAX_RANK], out[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < count; ++i) {
    int64_t k = w->type.dims[2 + i];
    if (grtc_onnx_attr(n, "kernel_shape") && kernel[i] != k) {
      return grtc_onnx_error(n, "attribute 'kernel_shape' differs from the weights %s",
                             grtc_onnx_fmt(w, bw));
    }
    int64_t s = strides[i], d = dilations[i];
    if (!grtc_onnx_window_value_ok(s, 1) || !grtc_onnx_window_value_ok(d, 1) ||
        !grtc_onnx_window_value_ok(pads[i], 0) || !grtc_onnx_window_value_ok(pads[count + i], 0) ||
        !grtc_onnx_window_value_ok(output_padding[i], 0) ||
        (has_output_shape && !grtc_onnx_window_value_ok(output_shape[i], 1))) {
      return grtc_onnx_error(n,
                             "spatial dimension %u: strides and dilations must be positive, "
                             "pads and output_padding non-negative, output_shape positive "
                             "(all at most 2^24)",
                             i);
    }
    int64_t extent = (k - 1) * d + 1;
    int64_t full = s * (x->type.dims[2 + i] - 1) + output_padding[i] + extent;
    int64_t begin = pads[i], end = pads[count + i];
    if (has_output_shape || same_upper || same_lower) {
      int64_t target = has_output_shape ? output_shape[i] : x->type.dims[2 + i] * s;
      // The padding that gives |target|; a negative total (a larger
      // output) adds zeros at the end. SAME_LOWER puts the odd padding at
      // the start, the others at the end.
      int64_t total = full - target;
      begin = total < 0 ? 0 : same_lower ? total - total / 2 : total / 2;
      end = total - begin;
    } else if (valid) {
      begin = end = 0;
    }
    out[i] = full - begin - end;
    if (out[i] < 1) {
      return grtc_onnx_error(n, "spatial dimension %u: pads leave no output", i);
    }
    low[i] = extent - 1 - begin;
    high[i] = extent - 1 - end + output_padding[i];
  }
  // Kernel [C, M/g, k...] -> [M, C/g, k...] flipped in space.
  grtc_tvalue_t* kw = w;
  if (group == 1) {
    int64_t perm[GRTC_MAX_RANK];
    for (uint32_t d = 0; d < rank; ++d) perm[d] = d;
    perm[0] = 1;
    perm[1] = 0;
    kw = grtc_onnx_transpose(n, w, perm);
  } else {
    int64_t split[GRTC_MAX_RANK + 1], perm[GRTC_MAX_RANK + 1];
    split[0] = group;
    split[1] = cg;
    split[2] = mg;
    for (uint32_t i = 0; i < count; ++i) split[3 + i] = w->type.dims[2 + i];
    for (uint32_t d = 0; d < rank + 1; ++d) perm[d] = d;
    perm[1] = 2;
    perm[2] = 1;
    if (rank + 1 > GRTC_MAX_RANK) {
      return grtc_onnx_unsupported(n, "grouped %u-D ConvTranspose", count);
    }
    kw = grtc_onnx_transpose(n, grtc_onnx_reshape(n, w, rank + 1, split), perm);
    int64_t merged[GRTC_MAX_RANK];
    merged[0] = m;
    merged[1] = cg;
    for (uint32_t i = 0; i < count; ++i) merged[2 + i] = w->type.dims[2 + i];
    kw = grtc_onnx_reshape(n, kw, rank, merged);
  }
  int64_t spatial[GRTC_MAX_RANK], ones[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < count; ++i) {
    spatial[i] = 2 + i;
    ones[i] = 1;
  }
  if (kw) {
    grtc_top_t* reverse = grtc_onnx_op_full(n, GRTC_TOP_REVERSE, &kw, 1, &kw->type, 1, 0);
    if (!reverse) return grt_ok_status();
    reverse->attrs.dims = grtc_tmodule_i64s(n->module, spatial, count);
    kw = grtc_onnx_fold(n, reverse);
  }
  // Negative padding (pads beyond the kernel extent) becomes a slice of
  // the convolution's result.
  int64_t conv_low[GRTC_MAX_RANK], conv_high[GRTC_MAX_RANK];
  int64_t start[GRTC_MAX_RANK] = {0}, limit[GRTC_MAX_RANK], step[GRTC_MAX_RANK];
  grtc_ttype_t type = x->type;
  type.dims[1] = m;
  for (uint32_t i = 0; i < count; ++i) {
    conv_low[i] = low[i] > 0 ? low[i] : 0;
    conv_high[i] = high[i] > 0 ? high[i] : 0;
    int64_t dilated = (x->type.dims[2 + i] - 1) * strides[i] + 1;
    int64_t extent = (w->type.dims[2 + i] - 1) * dilations[i] + 1;
    type.dims[2 + i] = dilated + conv_low[i] + conv_high[i] - extent + 1;
  }
  for (uint32_t d = 0; d < rank; ++d) {
    limit[d] = type.dims[d];
    step[d] = 1;
  }
  for (uint32_t i = 0; i < count; ++i) {
    start[2 + i] = conv_low[i] - low[i];
    limit[2 + i] = start[2 + i] + out[i];
  }
  grtc_tvalue_t* operands[2] = {x, kw};
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_CONVOLUTION, operands, 2, &type, 1, 0);
  if (!op) return grt_ok_status();
  grtc_conv_dims_t* c = &op->attrs.conv;
  c->input_batch = 0;
  c->input_feature = 1;
  c->input_spatial = grtc_tmodule_i64s(n->module, spatial, count);
  c->kernel_output_feature = 0;
  c->kernel_input_feature = 1;
  c->kernel_spatial = c->input_spatial;
  c->output_batch = 0;
  c->output_feature = 1;
  c->output_spatial = c->input_spatial;
  c->padding_low = grtc_tmodule_i64s(n->module, conv_low, count);
  c->padding_high = grtc_tmodule_i64s(n->module, conv_high, count);
  c->lhs_dilation = grtc_tmodule_i64s(n->module, strides, count);
  c->window_strides = grtc_tmodule_i64s(n->module, ones, count);
  c->rhs_dilation = grtc_tmodule_i64s(n->module, dilations, count);
  c->feature_group_count = group;
  c->batch_group_count = 1;
  grtc_tvalue_t* y = grtc_onnx_slice(n, grtc_onnx_fold(n, op), start, limit, step);
  if (b) y = ADD(y, grtc_onnx_channel_param(n, b, rank, x->type.elem));
  OUT(0) = y;
  return grt_ok_status();
}

// MaxPool's Indices: for each output, the flat index into |x| (row-major,
// or with the spatial dimensions column-major for |column_major|) of the
// first window tap (in row-major kernel order) equal to the maximum |max|.
// One strided slice of the padded input per tap; the earliest tap that
// matches wins.
static grtc_tvalue_t* grtc_onnx_max_pool_indices(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                                 grtc_tvalue_t* max, grtc_tvalue_t* lowest,
                                                 const grtc_onnx_window_spec_t* w,
                                                 bool column_major) {
  if (!max) return NULL;
  uint32_t rank = x->type.rank, count = w->count;
  int64_t taps = 1;
  for (uint32_t i = 0; i < count; ++i) taps *= w->kernel[i];
  if (taps > 4096) {
    grt_status_free(
        grtc_onnx_unsupported(n, "MaxPool's Indices for a window of %lld taps", (long long)taps));
    return NULL;
  }
  // Element strides of x in the index's storage order.
  int64_t element_stride[GRTC_MAX_RANK];
  int64_t acc = 1;
  for (uint32_t k = 0; k < count; ++k) {
    uint32_t d = column_major ? 2 + k : rank - 1 - k;
    element_stride[d] = acc;
    acc *= x->type.dims[d];
  }
  element_stride[1] = acc;
  element_stride[0] = acc * x->type.dims[1];
  // base = sum over dims of iota * stride (outputs scaled by the window
  // strides); each tap adds (j * dilation - low) * stride.
  grtc_ttype_t index_type = max->type;
  index_type.elem = GRTC_ELEM_I64;
  grtc_tvalue_t* base = NULL;
  for (uint32_t d = 0; d < rank; ++d) {
    double scale = (double)element_stride[d] * (d >= 2 ? (double)w->strides[d - 2] : 1.0);
    grtc_tvalue_t* term =
        MUL(grtc_onnx_iota(n, &index_type, d), grtc_onnx_splat(n, &index_type, scale));
    base = base ? ADD(base, term) : term;
  }
  int64_t low[GRTC_MAX_RANK] = {0}, high[GRTC_MAX_RANK] = {0};
  for (uint32_t i = 0; i < count; ++i) {
    low[2 + i] = w->low[i];
    high[2 + i] = w->high[i] + w->extra[i];
  }
  grtc_tvalue_t* padded = grtc_onnx_pad(n, x, lowest, low, high);
  grtc_tvalue_t* result = grtc_onnx_splat(n, &index_type, -1);
  for (int64_t t = taps - 1; t >= 0 && result; --t) {
    int64_t start[GRTC_MAX_RANK] = {0}, limit[GRTC_MAX_RANK], step[GRTC_MAX_RANK];
    limit[0] = x->type.dims[0];
    limit[1] = x->type.dims[1];
    step[0] = step[1] = 1;
    int64_t rest = t, offset = 0;
    for (uint32_t i = count; i-- > 0;) {
      int64_t j = rest % w->kernel[i];
      rest /= w->kernel[i];
      start[2 + i] = j * w->dilations[i];
      limit[2 + i] = start[2 + i] + (w->out[i] - 1) * w->strides[i] + 1;
      step[2 + i] = w->strides[i];
      offset += (j * w->dilations[i] - w->low[i]) * element_stride[2 + i];
    }
    grtc_tvalue_t* tap = grtc_onnx_slice(n, padded, start, limit, step);
    result = grtc_onnx_select(n, grtc_onnx_compare(n, GRTC_CMP_EQ, tap, max),
                              ADD(base, grtc_onnx_splat(n, &index_type, (double)offset)), result);
  }
  return result;
}

static grt_status_t grtc_onnx_op_max_pool(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  int64_t kernel[GRTC_MAX_RANK];
  if (!grtc_onnx_pool_kernel(n, x, kernel)) return grt_ok_status();
  if (x->type.elem == GRTC_ELEM_I1) return grtc_onnx_error(n, "MaxPool of a bool tensor");
  grtc_onnx_window_spec_t spec;
  bool ceil_mode = grtc_onnx_attr_int(n, "ceil_mode", 0) != 0;
  if (!grtc_onnx_window(n, x->type.rank - 2, x->type.dims + 2, kernel, ceil_mode, &spec)) {
    return grt_ok_status();
  }
  grtc_tvalue_t* lowest = NULL;
  if (grtc_elem_is_float(x->type.elem)) {
    lowest = grtc_onnx_scalar(n, x->type.elem, -INFINITY);
  } else {
    uint32_t bits = grtc_elem_bit_width(x->type.elem);
    int64_t value = grtc_elem_is_unsigned_integer(x->type.elem) ? 0
                    : bits == 64                                ? INT64_MIN
                                                                : -(INT64_C(1) << (bits - 1));
    lowest = grtc_onnx_const_ints(n, x->type.elem, 0, NULL, &value);
  }
  OUT(0) = grtc_onnx_pool_window(n, x, &spec, GRTC_TOP_MAXIMUM, lowest);
  if (n->output_count > 1 && n->proto->output[1] && n->proto->output[1][0]) {
    int64_t storage_order = grtc_onnx_attr_int(n, "storage_order", 0);
    if (storage_order != 0 && storage_order != 1) {
      return grtc_onnx_error(n, "attribute 'storage_order' must be 0 or 1, got %lld",
                             (long long)storage_order);
    }
    OUT(1) = grtc_onnx_max_pool_indices(n, x, OUT(0), lowest, &spec, storage_order == 1);
  }
  return grt_ok_status();
}

// The number of window taps that land inside [lo, hi) for each output of
// one spatial dimension.
static void grtc_onnx_window_counts(const grtc_onnx_window_spec_t* w, uint32_t i, int64_t lo,
                                    int64_t hi, int64_t* counts) {
  for (int64_t o = 0; o < w->out[i]; ++o) {
    int64_t c = 0;
    for (int64_t j = 0; j < w->kernel[i]; ++j) {
      int64_t at = o * w->strides[i] - w->low[i] + j * w->dilations[i];
      c += at >= lo && at < hi;
    }
    counts[o] = c;
  }
}

static grt_status_t grtc_onnx_op_average_pool(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  int64_t kernel[GRTC_MAX_RANK];
  if (!grtc_onnx_expect_float(n, x, "input X") || !grtc_onnx_pool_kernel(n, x, kernel)) {
    return grt_ok_status();
  }
  uint32_t rank = x->type.rank, count = rank - 2;
  grtc_onnx_window_spec_t spec;
  bool ceil_mode = grtc_onnx_attr_int(n, "ceil_mode", 0) != 0;
  bool include_pad = grtc_onnx_attr_int(n, "count_include_pad", 0) != 0;
  if (!grtc_onnx_window(n, count, x->type.dims + 2, kernel, ceil_mode, &spec)) {
    return grt_ok_status();
  }
  // 16-bit floats sum in f32.
  grtc_tvalue_t* wide = grtc_onnx_convert(n, x, grtc_onnx_stash_elem(n, x->type.elem, false));
  grtc_tvalue_t* sum = wide ? grtc_onnx_pool_window(n, wide, &spec, GRTC_TOP_ADD,
                                                    grtc_onnx_scalar(n, wide->type.elem, 0))
                            : NULL;
  // The divisor per output position: the product of per-dimension counts
  // of taps inside the input (or the explicitly padded input).
  int64_t total = 1;
  for (uint32_t i = 0; i < count && total <= (1 << 24); ++i) total *= spec.out[i];
  for (uint32_t i = 0; i < count; ++i) {
    if (spec.out[i] * spec.kernel[i] > (INT64_C(1) << 26)) total = INT64_MAX;
  }
  if (total > (1 << 24)) {
    return grtc_onnx_unsupported(n,
                                 "AveragePool with more than 2^24 outputs per channel or "
                                 "windows this large");
  }
  int64_t* counts = grtc_tmodule_alloc(n->module, (size_t)(total + 1) * sizeof(int64_t));
  int64_t* axis_counts[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < count; ++i) {
    axis_counts[i] = grtc_tmodule_alloc(n->module, (size_t)(spec.out[i] + 1) * sizeof(int64_t));
    if (!axis_counts[i]) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    int64_t in = x->type.dims[2 + i];
    grtc_onnx_window_counts(&spec, i, include_pad ? -spec.low[i] : 0,
                            include_pad ? in + spec.high[i] : in, axis_counts[i]);
  }
  if (!counts) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int64_t e = 0; e < total; ++e) {
    int64_t rest = e, c = 1;
    for (uint32_t i = count; i-- > 0;) {
      c *= axis_counts[i][rest % spec.out[i]];
      rest /= spec.out[i];
    }
    counts[e] = c > 0 ? c : 1;
  }
  int64_t dims[GRTC_MAX_RANK] = {1, 1};
  for (uint32_t i = 0; i < count; ++i) dims[2 + i] = spec.out[i];
  OUT(0) = grtc_onnx_convert(
      n, DIV(sum, grtc_onnx_const_ints(n, sum ? sum->type.elem : x->type.elem, rank, dims, counts)),
      x->type.elem);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_lp_pool(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  int64_t kernel[GRTC_MAX_RANK];
  if (!grtc_onnx_expect_float(n, x, "input X") || !grtc_onnx_pool_kernel(n, x, kernel)) {
    return grt_ok_status();
  }
  int64_t p = grtc_onnx_attr_int(n, "p", 2);
  if (p < 1) return grtc_onnx_error(n, "attribute 'p' must be positive, got %lld", (long long)p);
  grtc_onnx_window_spec_t spec;
  bool ceil_mode = grtc_onnx_attr_int(n, "ceil_mode", 0) != 0;
  if (!grtc_onnx_window(n, x->type.rank - 2, x->type.dims + 2, kernel, ceil_mode, &spec)) {
    return grt_ok_status();
  }
  grtc_tvalue_t* a = grtc_onnx_unary(n, GRTC_TOP_ABS, x);
  grtc_tvalue_t* powered =
      p == 1   ? a
      : p == 2 ? MUL(x, x)
               : grtc_onnx_binary(n, GRTC_TOP_POWER, a, grtc_onnx_splat_like(n, x, (double)p));
  grtc_tvalue_t* sum =
      grtc_onnx_pool_window(n, powered, &spec, GRTC_TOP_ADD, grtc_onnx_scalar(n, x->type.elem, 0));
  OUT(0) = p == 1   ? sum
           : p == 2 ? grtc_onnx_unary(n, GRTC_TOP_SQRT, sum)
                    : grtc_onnx_binary(n, GRTC_TOP_POWER, sum,
                                       grtc_onnx_splat_like(n, sum, 1.0 / (double)p));
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_global_pool(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!grtc_onnx_expect_rank(n, x, "input X", 3)) return grt_ok_status();
  const char* t = n->proto->op_type;
  int64_t axes[GRTC_MAX_RANK];
  int64_t elements = 1;
  for (uint32_t d = 2; d < x->type.rank; ++d) {
    axes[d - 2] = d;
    elements *= x->type.dims[d];
  }
  uint32_t count = x->type.rank - 2;
  if (strcmp(t, "GlobalMaxPool") == 0) {
    if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
    OUT(0) = grtc_onnx_reduce(n, x, axes, count, GRTC_TOP_MAXIMUM,
                              grtc_onnx_scalar(n, x->type.elem, -INFINITY), true);
    return grt_ok_status();
  }
  if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
  if (strcmp(t, "GlobalLpPool") == 0) {
    int64_t p = grtc_onnx_attr_int(n, "p", 2);
    if (p < 1) return grtc_onnx_error(n, "attribute 'p' must be positive, got %lld", (long long)p);
    grtc_tvalue_t* a = grtc_onnx_unary(n, GRTC_TOP_ABS, x);
    grtc_tvalue_t* powered =
        grtc_onnx_binary(n, GRTC_TOP_POWER, a, grtc_onnx_splat_like(n, x, (double)p));
    grtc_tvalue_t* sum = grtc_onnx_reduce(n, powered, axes, count, GRTC_TOP_ADD,
                                          grtc_onnx_scalar(n, x->type.elem, 0), true);
    OUT(0) =
        grtc_onnx_binary(n, GRTC_TOP_POWER, sum, grtc_onnx_splat_like(n, sum, 1.0 / (double)p));
    return grt_ok_status();
  }
  // 16-bit floats sum in f32.
  grtc_tvalue_t* wide = grtc_onnx_convert(n, x, grtc_onnx_stash_elem(n, x->type.elem, false));
  grtc_tvalue_t* sum = wide ? grtc_onnx_reduce(n, wide, axes, count, GRTC_TOP_ADD,
                                               grtc_onnx_scalar(n, wide->type.elem, 0), true)
                            : NULL;
  OUT(0) =
      grtc_onnx_convert(n, DIV(sum, grtc_onnx_splat_like(n, sum, (double)elements)), x->type.elem);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// MatMul, Gemm, Einsum
//===----------------------------------------------------------------------===//

static grt_status_t grtc_onnx_op_matmul(grtc_onnx_node_t* n) {
  grtc_tvalue_t* a = grtc_onnx_input(n, 0);
  grtc_tvalue_t* b = grtc_onnx_input(n, 1);
  // DequantizeLinear results run on the int8 product (quant.c).
  OUT(0) = grtc_onnx_qdq_matmul(n, a, b);
  // int4 weights with zero points keep them out of the product (quant.c).
  if (!OUT(0) && grtc_onnx_ok(n)) OUT(0) = grtc_onnx_int4_matmul(n, a, b);
  if (!OUT(0) && grtc_onnx_ok(n)) OUT(0) = grtc_onnx_int4_blocked_matmul(n, a, b);
  if (!OUT(0) && grtc_onnx_ok(n)) OUT(0) = grtc_onnx_matmul(n, a, b);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_gemm(grtc_onnx_node_t* n) {
  grtc_tvalue_t* a = grtc_onnx_input(n, 0);
  grtc_tvalue_t* b = grtc_onnx_input(n, 1);
  grtc_tvalue_t* c = n->input_count > 2 ? n->inputs[2] : NULL;
  if (!a || !b) return grt_ok_status();
  char ba[GRTC_TTYPE_FORMAT_CAPACITY], bb[GRTC_TTYPE_FORMAT_CAPACITY];
  bool trans_a = grtc_onnx_attr_int(n, "transA", 0) != 0;
  bool trans_b = grtc_onnx_attr_int(n, "transB", 0) != 0;
  double alpha = grtc_onnx_attr_float(n, "alpha", 1.0f);
  double beta = grtc_onnx_attr_float(n, "beta", 1.0f);
  if (a->type.rank != 2 || b->type.rank != 2 || a->type.elem != b->type.elem) {
    return grtc_onnx_error(n, "expected two matrices of one element type, got %s and %s",
                           grtc_onnx_fmt(a, ba), grtc_onnx_fmt(b, bb));
  }
  int64_t lc = trans_a ? 0 : 1, rc = trans_b ? 1 : 0;
  if (a->type.dims[lc] != b->type.dims[rc]) {
    return grtc_onnx_error(n, "inner sizes of %s%s and %s%s differ", grtc_onnx_fmt(a, ba),
                           trans_a ? " (transposed)" : "", grtc_onnx_fmt(b, bb),
                           trans_b ? " (transposed)" : "");
  }
  grtc_dot_dims_t dims;
  memset(&dims, 0, sizeof(dims));
  dims.lhs_contracting.count = 1;
  dims.lhs_contracting.values = &lc;
  dims.rhs_contracting.count = 1;
  dims.rhs_contracting.values = &rc;
  int64_t out[2] = {a->type.dims[1 - lc], b->type.dims[1 - rc]};
  grtc_ttype_t type = grtc_onnx_type(a->type.elem, 2, out);
  grtc_tvalue_t* y = grtc_onnx_qdq_gemm(n, a, b, trans_a, trans_b);
  if (!y && grtc_onnx_ok(n)) y = grtc_onnx_int4_gemm(n, a, b, trans_a, trans_b, &dims, &type);
  if (!y && grtc_onnx_ok(n)) y = grtc_onnx_dot(n, a, b, &dims, &type);
  if (alpha != 1.0) y = MUL(y, grtc_onnx_splat_like(n, y, alpha));
  if (c && beta != 0.0) {
    grtc_tvalue_t* term = beta == 1.0 ? c : MUL(c, grtc_onnx_splat_like(n, c, beta));
    // C broadcasts to [M, N] (unidirectionally).
    y = ADD(y, grtc_onnx_broadcast_to(n, term, 2, out));
  }
  OUT(0) = y;
  return grt_ok_status();
}

// Einsum labels: letters as themselves, the dimensions an ellipsis covers
// as GRTC_ONNX_ELLIPSIS + their distance from the ellipsis's right end
// (so they align right across operands, as numpy broadcasting does).
#define GRTC_ONNX_ELLIPSIS 1000
#define GRTC_ONNX_EINSUM_MAX_OPERANDS 16

typedef struct grtc_onnx_einsum_term_t {
  grtc_tvalue_t* value;
  uint32_t count;
  int labels[GRTC_MAX_RANK];
} grtc_onnx_einsum_term_t;

// Parses |text| (one term, without ',' or "->") for a tensor of |rank|
// (|rank| < 0: the output, whose ellipsis covers |ellipsis_rank|).
static bool grtc_onnx_einsum_parse(grtc_onnx_node_t* n, uint32_t term_index, const char* text,
                                   size_t length, int rank, uint32_t ellipsis_rank,
                                   grtc_onnx_einsum_term_t* term) {
  uint32_t letters = 0;
  bool has_ellipsis = false;
  for (size_t i = 0; i < length; ++i) {
    char ch = text[i];
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
      ++letters;
    } else if (ch == '.' && i + 2 < length + 0 && text[i + 1] == '.' && text[i + 2] == '.' &&
               !has_ellipsis) {
      has_ellipsis = true;
      i += 2;
    } else if (ch != ' ') {
      // The byte in hex: the equation may not be ASCII (or UTF-8).
      grt_status_free(grtc_onnx_error(n,
                                      "equation term %u has an unexpected character (byte "
                                      "0x%02x); terms are letters and at most one '...'",
                                      term_index, (unsigned)(unsigned char)ch));
      return false;
    }
  }
  uint32_t covered = 0;
  if (rank >= 0) {
    if ((uint32_t)rank < letters || (!has_ellipsis && (uint32_t)rank != letters)) {
      grt_status_free(grtc_onnx_error(n, "equation term \"%.*s\" does not fit a rank-%d input",
                                      (int)length, text, rank));
      return false;
    }
    covered = (uint32_t)rank - letters;
  } else {
    covered = has_ellipsis ? ellipsis_rank : 0;
  }
  if (letters + covered > GRTC_MAX_RANK) {
    grt_status_free(
        grtc_onnx_error(n, "equation term \"%.*s\" has too many dimensions", (int)length, text));
    return false;
  }
  term->count = 0;
  for (size_t i = 0; i < length; ++i) {
    char ch = text[i];
    if (ch == '.') {
      for (uint32_t j = 0; j < covered; ++j) {
        term->labels[term->count++] = GRTC_ONNX_ELLIPSIS + (int)(covered - 1 - j);
      }
      i += 2;
    } else if (ch != ' ') {
      term->labels[term->count++] = ch;
    }
  }
  return true;
}

static int grtc_onnx_label_index(const grtc_onnx_einsum_term_t* t, int label) {
  for (uint32_t i = 0; i < t->count; ++i) {
    if (t->labels[i] == label) return (int)i;
  }
  return -1;
}

// Sums |t| over the labels for which |keep| is false (labels indexed by
// value: letters < 128, ellipsis dims from GRTC_ONNX_ELLIPSIS).
static bool grtc_onnx_label_kept(const bool* keep, int label) {
  return keep[label < GRTC_ONNX_ELLIPSIS ? label : 128 + (label - GRTC_ONNX_ELLIPSIS)];
}

static void grtc_onnx_einsum_sum_out(grtc_onnx_node_t* n, grtc_onnx_einsum_term_t* t,
                                     const bool* keep) {
  int64_t axes[GRTC_MAX_RANK];
  uint32_t count = 0, kept = 0;
  for (uint32_t i = 0; i < t->count; ++i) {
    if (grtc_onnx_label_kept(keep, t->labels[i])) {
      t->labels[kept++] = t->labels[i];
    } else {
      axes[count++] = i;
    }
  }
  if (count == 0) return;
  t->value = grtc_onnx_reduce(
      n, t->value, axes, count, GRTC_TOP_ADD,
      grtc_onnx_scalar(n, t->value ? t->value->type.elem : GRTC_ELEM_F32, 0), false);
  t->count = kept;
}

// Takes the diagonal of repeated labels within one term.
static void grtc_onnx_einsum_diagonal(grtc_onnx_node_t* n, grtc_onnx_einsum_term_t* t) {
  for (uint32_t p = 0; p < t->count && t->value; ++p) {
    for (uint32_t q = p + 1; q < t->count && t->value; ++q) {
      if (t->labels[p] != t->labels[q]) continue;
      grtc_ttype_t index_type = t->value->type;
      index_type.elem = GRTC_ELEM_I64;
      grtc_tvalue_t* on_diagonal = grtc_onnx_compare(
          n, GRTC_CMP_EQ, grtc_onnx_iota(n, &index_type, p), grtc_onnx_iota(n, &index_type, q));
      grtc_tvalue_t* masked =
          grtc_onnx_select(n, on_diagonal, t->value, grtc_onnx_splat_like(n, t->value, 0));
      int64_t axis = q;
      t->value = grtc_onnx_reduce(n, masked, &axis, 1, GRTC_TOP_ADD,
                                  grtc_onnx_scalar(n, t->value->type.elem, 0), false);
      for (uint32_t i = q + 1; i < t->count; ++i) t->labels[i - 1] = t->labels[i];
      --t->count;
      --q;
    }
  }
}

// |a| times |b| contracting their shared labels that |keep| does not
// name; shared kept labels are batch dimensions.
static grtc_onnx_einsum_term_t grtc_onnx_einsum_pair(grtc_onnx_node_t* n, grtc_onnx_einsum_term_t a,
                                                     grtc_onnx_einsum_term_t b, const bool* keep) {
  grtc_onnx_einsum_term_t r;
  memset(&r, 0, sizeof(r));
  int64_t lb[GRTC_MAX_RANK], rb[GRTC_MAX_RANK], lc[GRTC_MAX_RANK], rc[GRTC_MAX_RANK];
  uint32_t batch = 0, contract = 0;
  for (uint32_t i = 0; i < a.count; ++i) {
    int j = grtc_onnx_label_index(&b, a.labels[i]);
    if (j < 0) continue;
    if (grtc_onnx_label_kept(keep, a.labels[i])) {
      lb[batch] = i;
      rb[batch++] = j;
    } else {
      lc[contract] = i;
      rc[contract++] = j;
    }
  }
  grtc_ttype_t type = grtc_onnx_type(a.value->type.elem, 0, NULL);
  for (uint32_t i = 0; i < batch; ++i) {
    r.labels[type.rank] = a.labels[lb[i]];
    type.dims[type.rank++] = a.value->type.dims[lb[i]];
  }
  for (int side = 0; side < 2; ++side) {
    const grtc_onnx_einsum_term_t* t = side ? &b : &a;
    const grtc_onnx_einsum_term_t* other = side ? &a : &b;
    for (uint32_t i = 0; i < t->count; ++i) {
      if (grtc_onnx_label_index(other, t->labels[i]) >= 0) continue;
      if (type.rank >= GRTC_MAX_RANK) {
        grt_status_free(
            grtc_onnx_error(n, "an intermediate product exceeds rank %d", GRTC_MAX_RANK));
        return r;
      }
      r.labels[type.rank] = t->labels[i];
      type.dims[type.rank++] = t->value->type.dims[i];
    }
  }
  r.count = type.rank;
  grtc_dot_dims_t dims;
  dims.lhs_batch.count = dims.rhs_batch.count = batch;
  dims.lhs_batch.values = lb;
  dims.rhs_batch.values = rb;
  dims.lhs_contracting.count = dims.rhs_contracting.count = contract;
  dims.lhs_contracting.values = lc;
  dims.rhs_contracting.values = rc;
  r.value = grtc_onnx_dot(n, a.value, b.value, &dims, &type);
  return r;
}

static grt_status_t grtc_onnx_op_einsum(grtc_onnx_node_t* n) {
  const char* equation = grtc_onnx_attr_string(n, "equation", NULL);
  if (!equation) return grtc_onnx_error(n, "attribute 'equation' is required");
  // Only ASCII letters and punctuation, so that messages may quote it.
  for (const char* c = equation; *c; ++c) {
    bool letter = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z');
    if (!letter && !strchr(",.-> ", *c)) {
      return grtc_onnx_error(n,
                             "attribute 'equation' has an unexpected character (byte 0x%02x "
                             "at %u); it takes letters, ',', '...' and '->'",
                             (unsigned)(unsigned char)*c, (unsigned)(c - equation));
    }
  }
  uint32_t operands = n->input_count;
  if (operands == 0 || operands > GRTC_ONNX_EINSUM_MAX_OPERANDS) {
    return grtc_onnx_unsupported(n, "Einsum of %u operands (grt takes 1 to %d)", operands,
                                 GRTC_ONNX_EINSUM_MAX_OPERANDS);
  }
  grtc_onnx_einsum_term_t terms[GRTC_ONNX_EINSUM_MAX_OPERANDS];
  const char* arrow = strstr(equation, "->");
  size_t lhs_length = arrow ? (size_t)(arrow - equation) : strlen(equation);
  const char* at = equation;
  uint32_t ellipsis_rank = 0;
  for (uint32_t i = 0; i < operands; ++i) {
    grtc_tvalue_t* x = grtc_onnx_input(n, i);
    if (!x) return grt_ok_status();
    const char* end = memchr(at, ',', lhs_length - (size_t)(at - equation));
    if (i + 1 < operands && !end) {
      return grtc_onnx_error(n, "equation \"%s\" names fewer operands than the %u inputs", equation,
                             operands);
    }
    if (i + 1 == operands && end) {
      return grtc_onnx_error(n, "equation \"%s\" names more operands than the %u inputs", equation,
                             operands);
    }
    if (!end) end = equation + lhs_length;
    if (x->type.elem != grtc_onnx_input(n, 0)->type.elem) {
      return grtc_onnx_error(n, "operands must have one element type");
    }
    terms[i].value = x;
    if (!grtc_onnx_einsum_parse(n, i, at, (size_t)(end - at), (int)x->type.rank, 0, &terms[i])) {
      return grt_ok_status();
    }
    for (uint32_t j = 0; j < terms[i].count; ++j) {
      int label = terms[i].labels[j];
      if (label >= GRTC_ONNX_ELLIPSIS &&
          (uint32_t)(label - GRTC_ONNX_ELLIPSIS) + 1 > ellipsis_rank) {
        ellipsis_rank = (uint32_t)(label - GRTC_ONNX_ELLIPSIS) + 1;
      }
    }
    at = end + 1;
  }
  // Sizes must agree per label, or be 1 (broadcast, as numpy does).
  int64_t sizes[128 + GRTC_MAX_RANK];
  int uses[128 + GRTC_MAX_RANK];
  for (uint32_t i = 0; i < 128 + GRTC_MAX_RANK; ++i) {
    sizes[i] = -1;
    uses[i] = 0;
  }
  for (uint32_t i = 0; i < operands; ++i) {
    for (uint32_t j = 0; j < terms[i].count; ++j) {
      int label = terms[i].labels[j];
      int slot = label < GRTC_ONNX_ELLIPSIS ? label : 128 + (label - GRTC_ONNX_ELLIPSIS);
      int64_t size = terms[i].value->type.dims[j];
      if (sizes[slot] >= 0 && sizes[slot] != size && sizes[slot] != 1 && size != 1) {
        return grtc_onnx_error(n, "equation \"%s\": a label has sizes %lld and %lld", equation,
                               (long long)sizes[slot], (long long)size);
      }
      if (sizes[slot] < 0 || sizes[slot] == 1) sizes[slot] = size;
      ++uses[slot];
    }
  }
  for (uint32_t i = 0; i < operands; ++i) {
    grtc_ttype_t type = terms[i].value->type;
    int64_t map[GRTC_MAX_RANK];
    for (uint32_t j = 0; j < terms[i].count; ++j) {
      int label = terms[i].labels[j];
      type.dims[j] = sizes[label < GRTC_ONNX_ELLIPSIS ? label : 128 + (label - GRTC_ONNX_ELLIPSIS)];
      map[j] = j;
    }
    terms[i].value = grtc_onnx_broadcast_in_dim(n, terms[i].value, &type, map);
    if (!terms[i].value) return grt_ok_status();
  }
  grtc_onnx_einsum_term_t output;
  if (arrow) {
    output.value = NULL;
    if (!grtc_onnx_einsum_parse(n, operands, arrow + 2, strlen(arrow + 2), -1, ellipsis_rank,
                                &output)) {
      return grt_ok_status();
    }
  } else {
    // Implicit output: the ellipsis, then the letters used once, sorted.
    output.count = 0;
    for (uint32_t j = 0; j < ellipsis_rank; ++j) {
      output.labels[output.count++] = GRTC_ONNX_ELLIPSIS + (int)(ellipsis_rank - 1 - j);
    }
    for (int label = 0; label < 128; ++label) {
      if (uses[label] == 1) {
        if (output.count >= GRTC_MAX_RANK) {
          return grtc_onnx_error(n, "the output's rank is too high");
        }
        output.labels[output.count++] = label;
      }
    }
  }
  bool in_output[128 + GRTC_MAX_RANK] = {false};
  for (uint32_t j = 0; j < output.count; ++j) {
    int label = output.labels[j];
    int slot = label < GRTC_ONNX_ELLIPSIS ? label : 128 + (label - GRTC_ONNX_ELLIPSIS);
    if (sizes[slot] < 0 || in_output[slot]) {
      return grtc_onnx_error(n,
                             "equation \"%s\": output label %u is not an input label or is "
                             "repeated",
                             equation, j);
    }
    in_output[slot] = true;
  }
  // Diagonals, then a left fold, each step keeping the labels that the
  // output or a later operand needs.
  for (uint32_t i = 0; i < operands; ++i) grtc_onnx_einsum_diagonal(n, &terms[i]);
  grtc_onnx_einsum_term_t acc = terms[0];
  for (uint32_t i = 0; i < operands && grt_status_is_ok(n->status); ++i) {
    bool keep[128 + GRTC_MAX_RANK];
    memcpy(keep, in_output, sizeof(keep));
    for (uint32_t k = i + 1; k < operands; ++k) {
      for (uint32_t j = 0; j < terms[k].count; ++j) {
        int label = terms[k].labels[j];
        keep[label < GRTC_ONNX_ELLIPSIS ? label : 128 + (label - GRTC_ONNX_ELLIPSIS)] = true;
      }
    }
    if (i == 0) {
      // Labels of the first operand only (not in the output or later).
      grtc_onnx_einsum_sum_out(n, &acc, keep);
      continue;
    }
    // Labels of the pair's own that nothing later needs: summed first.
    bool pair_keep[128 + GRTC_MAX_RANK];
    memcpy(pair_keep, keep, sizeof(pair_keep));
    for (uint32_t j = 0; j < acc.count; ++j) {
      int label = acc.labels[j];
      if (grtc_onnx_label_index(&terms[i], label) >= 0) {
        pair_keep[label < GRTC_ONNX_ELLIPSIS ? label : 128 + (label - GRTC_ONNX_ELLIPSIS)] = true;
      }
    }
    grtc_onnx_einsum_sum_out(n, &terms[i], pair_keep);
    if (!acc.value || !terms[i].value) return grt_ok_status();
    acc = grtc_onnx_einsum_pair(n, acc, terms[i], keep);
  }
  if (!acc.value || !grt_status_is_ok(n->status)) return grt_ok_status();
  grtc_onnx_einsum_sum_out(n, &acc, in_output);
  int64_t perm[GRTC_MAX_RANK];
  for (uint32_t j = 0; j < output.count; ++j) {
    int index = grtc_onnx_label_index(&acc, output.labels[j]);
    if (index < 0) {
      return grtc_onnx_error(n, "equation \"%s\": output label %u is lost", equation, j);
    }
    perm[j] = index;
  }
  OUT(0) = grtc_onnx_transpose(n, acc.value, perm);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Normalizations
//===----------------------------------------------------------------------===//

// (x - mean) / sqrt(var + epsilon) over |axes| (keepdims); the mean, the
// (population) variance and the inverse standard deviation returned when
// asked for.
static grtc_tvalue_t* grtc_onnx_normalize(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                          const int64_t* axes, uint32_t count, double epsilon,
                                          grtc_tvalue_t** out_mean, grtc_tvalue_t** out_var,
                                          grtc_tvalue_t** out_inv) {
  if (!x) return NULL;
  int64_t elements = 1;
  for (uint32_t i = 0; i < count; ++i) elements *= x->type.dims[axes[i]];
  grtc_tvalue_t* zero = grtc_onnx_scalar(n, x->type.elem, 0);
  grtc_tvalue_t* sum = grtc_onnx_reduce(n, x, axes, count, GRTC_TOP_ADD, zero, true);
  grtc_tvalue_t* mean = DIV(sum, grtc_onnx_splat_like(n, sum, (double)elements));
  grtc_tvalue_t* centered = SUB(x, mean);
  grtc_tvalue_t* squares =
      grtc_onnx_reduce(n, MUL(centered, centered), axes, count, GRTC_TOP_ADD, zero, true);
  grtc_tvalue_t* var = DIV(squares, grtc_onnx_splat_like(n, squares, (double)elements));
  grtc_tvalue_t* inv =
      grtc_onnx_unary(n, GRTC_TOP_RSQRT, ADD(var, grtc_onnx_splat_like(n, var, epsilon)));
  if (out_mean) *out_mean = mean;
  if (out_var) *out_var = var;
  if (out_inv) *out_inv = inv;
  return MUL(centered, inv);
}

static grt_status_t grtc_onnx_op_batch_norm(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* scale = grtc_onnx_input(n, 1);
  grtc_tvalue_t* bias = grtc_onnx_input(n, 2);
  grtc_tvalue_t* mean = grtc_onnx_input(n, 3);
  grtc_tvalue_t* var = grtc_onnx_input(n, 4);
  if (!grtc_onnx_expect_float(n, x, "input X") || !grtc_onnx_expect_rank(n, x, "input X", 2) ||
      !scale || !bias || !mean || !var) {
    return grt_ok_status();
  }
  bool training = grtc_onnx_attr_int(n, "training_mode", 0) != 0;
  for (uint32_t i = 1; i < n->output_count; ++i) {
    if (n->proto->output[i] && n->proto->output[i][0] && (!training || i > 2)) {
      return grtc_onnx_unsupported(n,
                                   "output %u (statistics of training before opset 14, or "
                                   "without training_mode=1) is not supported",
                                   i);
    }
  }
  double epsilon = grtc_onnx_attr_float(n, "epsilon", 1e-5f);
  uint32_t rank = x->type.rank;
  grtc_elem_t elem = x->type.elem;
  if (training) {
    // Normalized with the batch's statistics (over all but the channel
    // dimension); the running statistics blend in the batch's with
    // 1 - momentum.
    double momentum = grtc_onnx_attr_float(n, "momentum", 0.9f);
    int64_t axes[GRTC_MAX_RANK], channels = x->type.dims[1];
    uint32_t count = 0;
    for (uint32_t d = 0; d < rank; ++d) {
      if (d != 1) axes[count++] = d;
    }
    grtc_tvalue_t* batch_mean = NULL;
    grtc_tvalue_t* batch_var = NULL;
    grtc_elem_t stash = grtc_onnx_stash_elem(n, elem, false);
    grtc_tvalue_t* y =
        grtc_onnx_convert(n,
                          grtc_onnx_normalize(n, grtc_onnx_convert(n, x, stash), axes, count,
                                              epsilon, &batch_mean, &batch_var, NULL),
                          elem);
    OUT(0) = ADD(MUL(y, grtc_onnx_channel_param(n, scale, rank, elem)),
                 grtc_onnx_channel_param(n, bias, rank, elem));
    if (n->output_count > 1 && batch_mean && batch_var) {
      grtc_tvalue_t* stats[2] = {
          grtc_onnx_convert(n, grtc_onnx_reshape(n, batch_mean, 1, &channels), mean->type.elem),
          grtc_onnx_convert(n, grtc_onnx_reshape(n, batch_var, 1, &channels), var->type.elem)};
      grtc_tvalue_t* running[2] = {mean, var};
      for (uint32_t i = 0; i < 2 && i + 1 < n->output_count; ++i) {
        OUT(i + 1) = ADD(MUL(running[i], grtc_onnx_splat_like(n, running[i], momentum)),
                         MUL(stats[i], grtc_onnx_splat_like(n, stats[i], 1.0 - momentum)));
      }
    }
    return grt_ok_status();
  }
  scale = grtc_onnx_channel_param(n, scale, rank, elem);
  bias = grtc_onnx_channel_param(n, bias, rank, elem);
  mean = grtc_onnx_channel_param(n, mean, rank, elem);
  var = grtc_onnx_channel_param(n, var, rank, elem);
  // y = x * factor + (bias - mean * factor), factor = scale / sqrt(var + eps)
  // (folded when the parameters are constants).
  grtc_tvalue_t* factor = MUL(
      scale, grtc_onnx_unary(n, GRTC_TOP_RSQRT, ADD(var, grtc_onnx_splat_like(n, var, epsilon))));
  OUT(0) = ADD(MUL(x, factor), SUB(bias, MUL(mean, factor)));
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_layer_norm(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* scale = grtc_onnx_input(n, 1);
  grtc_tvalue_t* bias = n->input_count > 2 ? n->inputs[2] : NULL;
  if (!grtc_onnx_expect_float(n, x, "input X") || !grtc_onnx_expect_rank(n, x, "input X", 1) ||
      !scale) {
    return grt_ok_status();
  }
  uint32_t rank = x->type.rank, axis = 0;
  if (!grtc_onnx_axis(n, "axis", grtc_onnx_attr_int(n, "axis", -1), rank, &axis)) {
    return grt_ok_status();
  }
  double epsilon = grtc_onnx_attr_float(n, "epsilon", 1e-5f);
  grtc_elem_t elem = x->type.elem;
  grtc_elem_t stash = grtc_onnx_stash_elem(n, elem, true);
  int64_t axes[GRTC_MAX_RANK];
  for (uint32_t d = axis; d < rank; ++d) axes[d - axis] = d;
  grtc_tvalue_t* mean = NULL;
  grtc_tvalue_t* inv = NULL;
  grtc_tvalue_t* y = grtc_onnx_convert(n,
                                       grtc_onnx_normalize(n, grtc_onnx_convert(n, x, stash), axes,
                                                           rank - axis, epsilon, &mean, NULL, &inv),
                                       elem);
  y = MUL(y, grtc_onnx_convert(n, scale, elem));
  if (bias) y = ADD(y, grtc_onnx_convert(n, bias, elem));
  OUT(0) = y;
  if (n->output_count > 1) OUT(1) = mean;
  if (n->output_count > 2) OUT(2) = inv;
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_instance_norm(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* scale = grtc_onnx_input(n, 1);
  grtc_tvalue_t* bias = grtc_onnx_input(n, 2);
  if (!grtc_onnx_expect_float(n, x, "input X") || !grtc_onnx_expect_rank(n, x, "input X", 3) ||
      !scale || !bias) {
    return grt_ok_status();
  }
  uint32_t rank = x->type.rank;
  double epsilon = grtc_onnx_attr_float(n, "epsilon", 1e-5f);
  int64_t axes[GRTC_MAX_RANK];
  for (uint32_t d = 2; d < rank; ++d) axes[d - 2] = d;
  grtc_elem_t stash = grtc_onnx_stash_elem(n, x->type.elem, false);
  grtc_tvalue_t* y = grtc_onnx_convert(n,
                                       grtc_onnx_normalize(n, grtc_onnx_convert(n, x, stash), axes,
                                                           rank - 2, epsilon, NULL, NULL, NULL),
                                       x->type.elem);
  y = MUL(y, grtc_onnx_channel_param(n, scale, rank, x->type.elem));
  OUT(0) = ADD(y, grtc_onnx_channel_param(n, bias, rank, x->type.elem));
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_group_norm(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* scale = grtc_onnx_input(n, 1);
  grtc_tvalue_t* bias = grtc_onnx_input(n, 2);
  if (!grtc_onnx_expect_float(n, x, "input X") || !grtc_onnx_expect_rank(n, x, "input X", 2) ||
      !scale || !bias) {
    return grt_ok_status();
  }
  if (!grtc_onnx_attr(n, "num_groups")) {
    return grtc_onnx_error(n, "attribute 'num_groups' is required");
  }
  int64_t groups = grtc_onnx_attr_int(n, "num_groups", 1);
  uint32_t rank = x->type.rank;
  int64_t channels = x->type.dims[1];
  if (groups < 1 || channels % groups != 0) {
    return grtc_onnx_error(n, "num_groups %lld does not divide the %lld channels",
                           (long long)groups, (long long)channels);
  }
  // Opset 18 has one scale and bias per group, opset 21 one per channel.
  int64_t expected = n->opset < 21 ? groups : channels;
  char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
  if (scale->type.rank != 1 || scale->type.dims[0] != expected || bias->type.rank != 1 ||
      bias->type.dims[0] != expected) {
    return grtc_onnx_error(n, "scale and bias must have %lld values, got %s", (long long)expected,
                           grtc_onnx_fmt(scale, buffer));
  }
  if (n->opset < 21 && groups != channels) {
    int64_t per_group[2] = {groups, channels / groups};
    int64_t column[2] = {groups, 1};
    scale = grtc_onnx_reshape(
        n, grtc_onnx_broadcast_to(n, grtc_onnx_reshape(n, scale, 2, column), 2, per_group), 1,
        &channels);
    bias = grtc_onnx_reshape(
        n, grtc_onnx_broadcast_to(n, grtc_onnx_reshape(n, bias, 2, column), 2, per_group), 1,
        &channels);
  }
  double epsilon = grtc_onnx_attr_float(n, "epsilon", 1e-5f);
  grtc_elem_t elem = x->type.elem;
  grtc_elem_t stash = grtc_onnx_stash_elem(n, elem, n->opset >= 21);
  int64_t grouped[3] = {x->type.dims[0], groups, 1};
  for (uint32_t d = 1; d < rank; ++d) grouped[2] *= x->type.dims[d];
  grouped[2] /= groups;
  int64_t axis = 2;
  grtc_tvalue_t* y =
      grtc_onnx_normalize(n, grtc_onnx_convert(n, grtc_onnx_reshape(n, x, 3, grouped), stash),
                          &axis, 1, epsilon, NULL, NULL, NULL);
  y = grtc_onnx_reshape(n, grtc_onnx_convert(n, y, elem), rank, x->type.dims);
  y = MUL(y, grtc_onnx_channel_param(n, scale, rank, elem));
  OUT(0) = ADD(y, grtc_onnx_channel_param(n, bias, rank, elem));
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_mvn(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
  uint32_t rank = x->type.rank;
  int64_t* raw = NULL;
  uint32_t raw_count = 0;
  int64_t defaults[3] = {0, 2, 3};
  if (!grtc_onnx_attr_ints(n, "axes", &raw, &raw_count)) {
    raw = defaults;
    raw_count = 3;
  }
  bool seen[GRTC_MAX_RANK] = {false};
  for (uint32_t i = 0; i < raw_count; ++i) {
    uint32_t axis = 0;
    if (!grtc_onnx_axis(n, "axes", raw[i], rank, &axis)) return grt_ok_status();
    seen[axis] = true;
  }
  int64_t axes[GRTC_MAX_RANK];
  uint32_t count = 0;
  for (uint32_t d = 0; d < rank; ++d) {
    if (seen[d]) axes[count++] = d;
  }
  // (x - mean) / (sqrt(var) + 1e-9), as ONNX's function body (16-bit
  // floats in f32).
  int64_t elements = 1;
  for (uint32_t i = 0; i < count; ++i) elements *= x->type.dims[axes[i]];
  grtc_elem_t elem = x->type.elem;
  x = grtc_onnx_convert(n, x, grtc_onnx_stash_elem(n, elem, false));
  if (!x) return grt_ok_status();
  grtc_tvalue_t* zero = grtc_onnx_scalar(n, x->type.elem, 0);
  grtc_tvalue_t* sum = grtc_onnx_reduce(n, x, axes, count, GRTC_TOP_ADD, zero, true);
  grtc_tvalue_t* mean = DIV(sum, grtc_onnx_splat_like(n, sum, (double)elements));
  grtc_tvalue_t* centered = SUB(x, mean);
  grtc_tvalue_t* squares =
      grtc_onnx_reduce(n, MUL(centered, centered), axes, count, GRTC_TOP_ADD, zero, true);
  grtc_tvalue_t* std = grtc_onnx_unary(
      n, GRTC_TOP_SQRT, DIV(squares, grtc_onnx_splat_like(n, squares, (double)elements)));
  OUT(0) = grtc_onnx_convert(n, DIV(centered, ADD(std, grtc_onnx_splat_like(n, std, 1e-9))), elem);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_lp_norm(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!grtc_onnx_expect_float(n, x, "input") || !grtc_onnx_expect_rank(n, x, "input", 1)) {
    return grt_ok_status();
  }
  uint32_t axis = 0;
  if (!grtc_onnx_axis(n, "axis", grtc_onnx_attr_int(n, "axis", -1), x->type.rank, &axis)) {
    return grt_ok_status();
  }
  int64_t p = grtc_onnx_attr_int(n, "p", 2);
  if (p != 1 && p != 2) {
    return grtc_onnx_error(n, "attribute 'p' must be 1 or 2, got %lld", (long long)p);
  }
  int64_t axes[1] = {axis};
  grtc_tvalue_t* zero = grtc_onnx_scalar(n, x->type.elem, 0);
  grtc_tvalue_t* norm =
      p == 1 ? grtc_onnx_reduce(n, grtc_onnx_unary(n, GRTC_TOP_ABS, x), axes, 1, GRTC_TOP_ADD, zero,
                                true)
             : grtc_onnx_unary(n, GRTC_TOP_SQRT,
                               grtc_onnx_reduce(n, MUL(x, x), axes, 1, GRTC_TOP_ADD, zero, true));
  OUT(0) = DIV(x, norm);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_lrn(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!grtc_onnx_expect_float(n, x, "input X") || !grtc_onnx_expect_rank(n, x, "input X", 2)) {
    return grt_ok_status();
  }
  if (!grtc_onnx_attr(n, "size")) return grtc_onnx_error(n, "attribute 'size' is required");
  int64_t size = grtc_onnx_attr_int(n, "size", 1);
  if (size < 1) {
    return grtc_onnx_error(n, "attribute 'size' must be positive, got %lld", (long long)size);
  }
  double alpha = grtc_onnx_attr_float(n, "alpha", 1e-4f);
  double beta = grtc_onnx_attr_float(n, "beta", 0.75f);
  double bias = grtc_onnx_attr_float(n, "bias", 1.0f);
  uint32_t rank = x->type.rank;
  int64_t window[GRTC_MAX_RANK], low[GRTC_MAX_RANK] = {0}, high[GRTC_MAX_RANK] = {0};
  for (uint32_t d = 0; d < rank; ++d) window[d] = 1;
  window[1] = size;
  low[1] = (size - 1) / 2;
  high[1] = size - 1 - low[1];
  grtc_tvalue_t* sum =
      grtc_onnx_reduce_window(n, MUL(x, x), GRTC_TOP_ADD, grtc_onnx_scalar(n, x->type.elem, 0),
                              window, NULL, NULL, low, high);
  grtc_tvalue_t* base = ADD(grtc_onnx_splat_like(n, sum, bias),
                            MUL(sum, grtc_onnx_splat_like(n, sum, alpha / (double)size)));
  OUT(0) = DIV(x, grtc_onnx_binary(n, GRTC_TOP_POWER, base, grtc_onnx_splat_like(n, base, beta)));
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Resize, Upsample
//===----------------------------------------------------------------------===//

typedef enum grtc_onnx_resize_mode_e {
  GRTC_ONNX_RESIZE_NEAREST,
  GRTC_ONNX_RESIZE_LINEAR,
  GRTC_ONNX_RESIZE_CUBIC,
} grtc_onnx_resize_mode_t;

typedef struct grtc_onnx_resize_t {
  grtc_onnx_resize_mode_t mode;
  const char* coordinates;
  const char* nearest;
  double cubic_a;
  bool exclude_outside;
  bool antialias;
  // tf_crop_and_resize: the region per dimension (fractions of in - 1)
  // and the value of outputs that map outside the input.
  double roi_start[GRTC_MAX_RANK], roi_end[GRTC_MAX_RANK];
  double extrapolation;
} grtc_onnx_resize_t;

// The input coordinate that output index |o| maps to.
static double grtc_onnx_resize_coordinate(const grtc_onnx_resize_t* r, uint32_t d, int64_t o,
                                          int64_t in, int64_t out, double scale) {
  const char* mode = r->coordinates;
  double x = (double)o;
  // As ONNX's reference: the output width is scale * in, not rounded.
  double width = scale * (double)in;
  if (strcmp(mode, "align_corners") == 0) {
    return width == 1 ? 0.0 : x * (double)(in - 1) / (width - 1);
  }
  if (strcmp(mode, "asymmetric") == 0) return x / scale;
  if (strcmp(mode, "tf_crop_and_resize") == 0) {
    double start = r->roi_start[d], end = r->roi_end[d], span = (double)(in - 1);
    double at = width == 1 ? (end - start) * span / 2 : x * (end - start) * span / (width - 1);
    return at + start * span;
  }
  if (strcmp(mode, "pytorch_half_pixel") == 0) return width > 1 ? (x + 0.5) / scale - 0.5 : 0.0;
  if (strcmp(mode, "tf_half_pixel_for_nn") == 0) return (x + 0.5) / scale;
  if (strcmp(mode, "half_pixel_symmetric") == 0) {
    double adjustment = (double)out / width;
    double center = (double)in / 2;
    double offset = center * (1 - adjustment);
    return offset + (x + 0.5) / scale - 0.5;
  }
  return (x + 0.5) / scale - 0.5;  // half_pixel
}

// The most input taps one output of Resize may weigh (antialiasing
// widens the filter by 1 / scale).
#define GRTC_ONNX_RESIZE_MAX_TAPS 1024

// The antialiasing filters of ONNX's reference (linear: triangle, cubic:
// Keys) at |t| input pixels from the sample point scaled by |scale|.
static double grtc_onnx_resize_filter(const grtc_onnx_resize_t* r, double t) {
  t = fabs(t);
  if (r->mode == GRTC_ONNX_RESIZE_LINEAR) return t < 1 ? 1 - t : 0;
  double a = r->cubic_a;
  if (t <= 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
  if (t < 2) return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a;
  return 0;
}

// The input indices (clamped to the input) and weights that make the
// output at input coordinate |x|: |taps| of them (the same for every output
// of a dimension); false when the filter would be too wide.
static bool grtc_onnx_resize_taps(const grtc_onnx_resize_t* r, double x, double scale, int64_t in,
                                  int64_t* out_taps, int64_t* index, double* weight) {
  double base = floor(x);
  bool integral = base == x;
  double ratio = integral ? 1.0 : x - base;
  // Taps are |first| + i for i in [start, start + taps); with ratio 1 (x
  // integral) the weight of tap 1 falls on x itself.
  int64_t first = (int64_t)base - (integral ? 1 : 0);
  double coeffs[GRTC_ONNX_RESIZE_MAX_TAPS];
  int64_t start = 0, taps = 2;
  if (r->mode == GRTC_ONNX_RESIZE_NEAREST) {
    bool upper = integral;
    if (!integral) {
      const char* nm = r->nearest;
      upper = strcmp(nm, "ceil") == 0                ? true
              : strcmp(nm, "floor") == 0             ? false
              : strcmp(nm, "round_prefer_ceil") == 0 ? ratio >= 0.5
                                                     : ratio > 0.5;
    }
    coeffs[0] = upper ? 0.0 : 1.0;
    coeffs[1] = upper ? 1.0 : 0.0;
  } else {
    // Support 1 (linear) or 2 (cubic), stretched by 1 / scale when
    // antialiasing a downscale; the weights sum to one.
    double support = r->mode == GRTC_ONNX_RESIZE_LINEAR ? 1.0 : 2.0;
    double stretch = r->antialias && scale < 1.0 ? scale : 1.0;
    double reach = floor(-support / stretch) + 1;
    if (-reach > GRTC_ONNX_RESIZE_MAX_TAPS / 2 - 1) return false;
    start = (int64_t)reach;
    taps = 2 - 2 * start;
    double total = 0;
    for (int64_t i = 0; i < taps; ++i) {
      coeffs[i] = grtc_onnx_resize_filter(r, stretch * ((double)(start + i) - ratio));
      total += coeffs[i];
    }
    if (stretch < 1.0 && total != 0) {
      for (int64_t i = 0; i < taps; ++i) coeffs[i] /= total;
    }
  }
  first += start;
  if (r->exclude_outside) {
    double total = 0;
    for (int64_t j = 0; j < taps; ++j) {
      int64_t at = first + j;
      if (at < 0 || at >= in) coeffs[j] = 0;
      total += coeffs[j];
    }
    if (total != 0) {
      for (int64_t j = 0; j < taps; ++j) coeffs[j] /= total;
    }
  }
  for (int64_t j = 0; j < taps; ++j) {
    int64_t at = first + j;
    index[j] = at < 0 ? 0 : at >= in ? in - 1 : at;
    weight[j] = coeffs[j];
  }
  *out_taps = taps;
  return true;
}

// |x| gathered along |axis| at the |count| constant |indices|.
static grtc_tvalue_t* grtc_onnx_gather_axis(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t axis,
                                            const int64_t* indices, int64_t count) {
  if (!x) return NULL;
  uint32_t rank = x->type.rank;
  grtc_tvalue_t* operands[2] = {
      x, grtc_onnx_const_ints(n, GRTC_ELEM_I64, 1, (int64_t[]){count}, indices)};
  grtc_ttype_t type = x->type;
  type.dims[axis] = count;
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_GATHER, operands, 2, &type, 1, 0);
  if (!op) return NULL;
  int64_t offsets[GRTC_MAX_RANK], sizes[GRTC_MAX_RANK], dim = axis;
  uint32_t offset_count = 0;
  for (uint32_t d = 0; d < rank; ++d) {
    if (d != axis) offsets[offset_count++] = d;
    sizes[d] = d == axis ? 1 : x->type.dims[d];
  }
  grtc_gather_dims_t* g = &op->attrs.gather;
  g->offset_dims = grtc_tmodule_i64s(n->module, offsets, offset_count);
  g->collapsed_slice_dims = grtc_tmodule_i64s(n->module, &dim, 1);
  g->start_index_map = grtc_tmodule_i64s(n->module, &dim, 1);
  g->slice_sizes = grtc_tmodule_i64s(n->module, sizes, rank);
  g->index_vector_dim = 1;
  return grtc_onnx_fold(n, op);
}

// |x| resized to |out| along every dimension that changes: per dimension
// and filter tap, a gather of the input at constant indices times constant
// weights (a plain gather when each output copies one input, as nearest).
static grtc_tvalue_t* grtc_onnx_resize(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                       const grtc_onnx_resize_t* r, const double* scales,
                                       const int64_t* out) {
  uint32_t rank = x->type.rank;
  grtc_tvalue_t* y = x;
  bool crop = strcmp(r->coordinates, "tf_crop_and_resize") == 0;
  bool* outside[GRTC_MAX_RANK] = {NULL};
  bool any_outside = false;
  for (uint32_t d = 0; d < rank && y; ++d) {
    int64_t in = x->type.dims[d], size = out[d];
    if (size < 0 || (in == 0 && size > 0) || size > (INT64_C(1) << 24)) {
      grt_status_free(grtc_onnx_error(n, "cannot resize dimension %u from %lld to %lld", d,
                                      (long long)in, (long long)size));
      return NULL;
    }
    // Tap t of output o at [t * size + o] (allocated once the number of
    // taps, the same for every output, is known).
    int64_t* index = NULL;
    double* weight = NULL;
    if (crop) outside[d] = grtc_tmodule_alloc(n->module, (size_t)size + 1);
    if (crop && !outside[d]) {
      grt_status_free(grtc_onnx_error(n, "out of memory"));
      return NULL;
    }
    int64_t taps = 1;
    bool identity = in == size, copies = true;
    for (int64_t o = 0; o < size; ++o) {
      double coordinate = grtc_onnx_resize_coordinate(r, d, o, in, size, scales[d]);
      int64_t at[GRTC_ONNX_RESIZE_MAX_TAPS];
      double w[GRTC_ONNX_RESIZE_MAX_TAPS];
      if (!grtc_onnx_resize_taps(r, coordinate, scales[d], in, &taps, at, w)) {
        grt_status_free(
            grtc_onnx_unsupported(n, "antialiasing dimension %u by scale %g", d, scales[d]));
        return NULL;
      }
      if (o == 0) {
        index = grtc_tmodule_alloc(n->module, (size_t)(size * taps) * sizeof(int64_t));
        weight = grtc_tmodule_alloc(n->module, (size_t)(size * taps) * sizeof(double));
        if (!index || !weight) {
          grt_status_free(grtc_onnx_error(n, "out of memory"));
          return NULL;
        }
      }
      // Whether the output copies one input (weight 1 on one tap, 0 on
      // the rest); that tap moves first.
      int64_t ones = 0, one = 0;
      for (int64_t t = 0; t < taps; ++t) {
        if (w[t] == 1.0) {
          ++ones;
          one = t;
        } else if (w[t] != 0.0) {
          ones = 2;
        }
      }
      copies &= ones == 1;
      if (ones == 1) {
        int64_t a = at[0];
        double b = w[0];
        at[0] = at[one];
        w[0] = w[one];
        at[one] = a;
        w[one] = b;
      }
      identity &= ones == 1 && at[0] == o;
      for (int64_t t = 0; t < taps; ++t) {
        index[t * size + o] = at[t];
        weight[t * size + o] = w[t];
      }
      if (crop && (coordinate < 0 || coordinate > (double)(in - 1))) {
        outside[d][o] = true;
        any_outside = true;
      }
    }
    if (identity) continue;
    if (copies) {
      y = grtc_onnx_gather_axis(n, y, d, index, size);
      continue;
    }
    grtc_tvalue_t* sum = NULL;
    int64_t weight_dims[GRTC_MAX_RANK];
    for (uint32_t i = 0; i < rank; ++i) weight_dims[i] = i == d ? size : 1;
    grtc_ttype_t weight_type = grtc_onnx_type(GRTC_ELEM_F64, rank, weight_dims);
    for (int64_t t = 0; t < taps && y; ++t) {
      grtc_tvalue_t* w = grtc_onnx_convert(n,
                                           grtc_onnx_constant(n, &weight_type, weight + t * size,
                                                              (size_t)size * sizeof(double), false),
                                           x->type.elem);
      grtc_tvalue_t* term = MUL(grtc_onnx_gather_axis(n, y, d, index + t * size, size), w);
      sum = sum ? ADD(sum, term) : term;
    }
    y = sum;
  }
  if (!any_outside || !y) return y;
  // tf_crop_and_resize: outputs mapping outside the input on any
  // dimension take the extrapolation value.
  grtc_ttype_t mask_type = grtc_onnx_type(GRTC_ELEM_I1, rank, out);
  int64_t total = grtc_ttype_element_count(&mask_type);
  uint8_t* mask = grtc_tmodule_alloc(n->module, (size_t)total + 1);
  if (!mask) {
    grt_status_free(grtc_onnx_error(n, "out of memory"));
    return NULL;
  }
  for (int64_t e = 0; e < total; ++e) {
    int64_t rest = e;
    for (uint32_t d = rank; d-- > 0;) {
      if (outside[d] && outside[d][rest % out[d]]) mask[e] = 1;
      rest /= out[d];
    }
  }
  return grtc_onnx_select(n, grtc_onnx_constant(n, &mask_type, mask, (size_t)total, false),
                          grtc_onnx_splat_like(n, y, r->extrapolation), y);
}

// The largest Resize size read at the call (as the constant sizes').
#define GRTC_ONNX_RESIZE_MAX_SIZE (INT64_C(1) << 24)

// Resize (nearest) of |x| (static) whose |sizes| (|count| of them, for
// |axes|) a graph input's data gives: per axis of input size d and
// output size s (read at the call, checked in [0, 2^24]), the input
// index of output o is the nearest mode's rounding of the coordinate
// (the coordinate transformation of (o, d, s), scale s / d, in f64),
// clamped to [0, d - 1]; one gather takes every combination.
static grt_status_t grtc_onnx_resize_from_data(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                               const grtc_onnx_resize_t* r, grtc_tvalue_t* sizes,
                                               const int64_t* axes, uint32_t count) {
  const char* mode = r->coordinates;
  bool half = strcmp(mode, "half_pixel") == 0, pytorch = strcmp(mode, "pytorch_half_pixel") == 0,
       tf = strcmp(mode, "tf_half_pixel_for_nn") == 0, corners = strcmp(mode, "align_corners") == 0,
       asymmetric = strcmp(mode, "asymmetric") == 0;
  if (r->mode != GRTC_ONNX_RESIZE_NEAREST || r->antialias ||
      !(half || pytorch || tf || corners || asymmetric)) {
    return grtc_onnx_unsupported(n,
                                 "input 'sizes' is read from a graph input's data at run time; "
                                 "grt reads Resize's sizes at the call for mode \"nearest\" "
                                 "(without antialias) with coordinate_transformation_mode "
                                 "half_pixel, pytorch_half_pixel, tf_half_pixel_for_nn, "
                                 "align_corners or asymmetric only, got mode %s and \"%s\"",
                                 r->mode == GRTC_ONNX_RESIZE_NEAREST ? "\"nearest\""
                                 : r->mode == GRTC_ONNX_RESIZE_LINEAR ? "\"linear\""
                                                                       : "\"cubic\"",
                                 mode);
  }
  uint32_t rank = x->type.rank;
  // x is static (Resize takes static inputs only); an empty one has no
  // input to pick.
  if (grtc_ttype_element_count(&x->type) == 0) {
    char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_onnx_unsupported(n,
                                 "input 'X' %s has no elements while input 'sizes' is read from "
                                 "a graph input's data at run time; grt resizes non-empty data "
                                 "only then",
                                 grtc_onnx_fmt(x, buffer));
  }
  grtc_tvalue_t* taken[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) {
    taken[d] = grtc_onnx_iota(n, &(grtc_ttype_t){GRTC_ELEM_I64, 1, {x->type.dims[d]}}, 0);
  }
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t d = (uint32_t)axes[i];
    int64_t in = x->type.dims[d];
    grtc_tvalue_t* size = grtc_onnx_shape_item(n, sizes, i);
    grtc_tvalue_t* zero = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 0, NULL, &(int64_t){0});
    grtc_tvalue_t* most =
        grtc_onnx_const_ints(n, GRTC_ELEM_I64, 0, NULL, &(int64_t){GRTC_ONNX_RESIZE_MAX_SIZE});
    char what[160];
    snprintf(what, sizeof(what), "input 'sizes' ('%s') element %u", n->proto->input[3], i);
    grtc_onnx_check_range_at_call(n, size, zero, most, what);
    size = grtc_onnx_binary(n, GRTC_TOP_MAXIMUM, grtc_onnx_binary(n, GRTC_TOP_MINIMUM, size, most),
                            zero);
    int64_t constant = 0, dim = GRTC_ONNX_COMPUTED_DIM;
    if (size && grtc_tvalue_shape_element(size, 0, &constant)) dim = constant;
    grtc_tvalue_t* o = grtc_onnx_convert(
        n, grtc_onnx_dynamic_computed(n, GRTC_TOP_DYNAMIC_IOTA, NULL, 1, &dim, &size, NULL),
        GRTC_ELEM_F64);
    // width = s (the scale times d), scale = s / d.
    grtc_tvalue_t* width = grtc_onnx_convert(n, size, GRTC_ELEM_F64);
    grtc_tvalue_t* scale =
        grtc_onnx_binary(n, GRTC_TOP_DIVIDE, width, grtc_onnx_scalar(n, GRTC_ELEM_F64, (double)in));
    grtc_tvalue_t* centre = grtc_onnx_binary(n, GRTC_TOP_ADD, o, grtc_onnx_scalar(n, GRTC_ELEM_F64, 0.5));
    grtc_tvalue_t* c = NULL;
    if (asymmetric) {
      c = grtc_onnx_binary(n, GRTC_TOP_DIVIDE, o, scale);
    } else if (tf) {
      c = grtc_onnx_binary(n, GRTC_TOP_DIVIDE, centre, scale);
    } else if (corners) {
      // width == 1 ? 0 : o * (d - 1) / (width - 1)
      grtc_tvalue_t* spread = grtc_onnx_binary(
          n, GRTC_TOP_DIVIDE,
          grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, o, grtc_onnx_scalar(n, GRTC_ELEM_F64, (double)(in - 1))),
          grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, width, grtc_onnx_scalar(n, GRTC_ELEM_F64, 1)));
      c = grtc_onnx_select(n, grtc_onnx_compare(n, GRTC_CMP_EQ, width, grtc_onnx_scalar(n, GRTC_ELEM_F64, 1)),
                           grtc_onnx_splat_like(n, spread, 0), spread);
    } else {
      c = grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, grtc_onnx_binary(n, GRTC_TOP_DIVIDE, centre, scale),
                           grtc_onnx_scalar(n, GRTC_ELEM_F64, 0.5));
      if (pytorch) {
        // width > 1 ? c : 0
        c = grtc_onnx_select(n, grtc_onnx_compare(n, GRTC_CMP_GT, width, grtc_onnx_scalar(n, GRTC_ELEM_F64, 1)),
                             c, grtc_onnx_splat_like(n, c, 0));
      }
    }
    // The nearest mode's rounding (an integral coordinate is itself).
    const char* nm = r->nearest;
    grtc_tvalue_t* rounded =
        strcmp(nm, "ceil") == 0    ? grtc_onnx_unary(n, GRTC_TOP_CEIL, c)
        : strcmp(nm, "floor") == 0 ? grtc_onnx_unary(n, GRTC_TOP_FLOOR, c)
        : strcmp(nm, "round_prefer_ceil") == 0
            ? grtc_onnx_unary(n, GRTC_TOP_FLOOR,
                              grtc_onnx_binary(n, GRTC_TOP_ADD, c, grtc_onnx_scalar(n, GRTC_ELEM_F64, 0.5)))
            : grtc_onnx_unary(n, GRTC_TOP_CEIL,
                              grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, c,
                                               grtc_onnx_scalar(n, GRTC_ELEM_F64, 0.5)));
    rounded = grtc_onnx_binary(
        n, GRTC_TOP_MAXIMUM,
        grtc_onnx_binary(n, GRTC_TOP_MINIMUM, rounded, grtc_onnx_scalar(n, GRTC_ELEM_F64, (double)(in - 1))),
        grtc_onnx_scalar(n, GRTC_ELEM_F64, 0));
    taken[d] = grtc_onnx_convert(n, rounded, GRTC_ELEM_I64);
  }
  if (!grtc_onnx_ok(n)) return grt_ok_status();
  OUT(0) = grtc_onnx_take_all(n, x, taken);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_resize(grtc_onnx_node_t* n) {
  bool upsample = strcmp(n->proto->op_type, "Upsample") == 0;
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  uint32_t rank = x->type.rank;
  grtc_onnx_resize_t r;
  memset(&r, 0, sizeof(r));
  const char* mode = grtc_onnx_attr_string(n, "mode", "nearest");
  if (strcmp(mode, "nearest") == 0) {
    r.mode = GRTC_ONNX_RESIZE_NEAREST;
  } else if (strcmp(mode, "linear") == 0 || (upsample && strcmp(mode, "bilinear") == 0)) {
    r.mode = GRTC_ONNX_RESIZE_LINEAR;
  } else if (!upsample && strcmp(mode, "cubic") == 0) {
    r.mode = GRTC_ONNX_RESIZE_CUBIC;
  } else {
    return grtc_onnx_error(n, "attribute 'mode' must be nearest, linear%s, got \"%s\"",
                           upsample ? "" : " or cubic", mode);
  }
  // Upsample and Resize-10: asymmetric coordinates, nearest rounds down.
  bool legacy = upsample || n->opset < 11;
  r.coordinates = legacy ? "asymmetric"
                         : grtc_onnx_attr_string(n, "coordinate_transformation_mode", "half_pixel");
  r.nearest = legacy ? "floor" : grtc_onnx_attr_string(n, "nearest_mode", "round_prefer_floor");
  r.cubic_a = grtc_onnx_attr_float(n, "cubic_coeff_a", -0.75f);
  r.exclude_outside = grtc_onnx_attr_int(n, "exclude_outside", 0) != 0;
  static const char* const coordinate_modes[] = {
      "half_pixel",           "pytorch_half_pixel",   "align_corners",     "asymmetric",
      "tf_half_pixel_for_nn", "half_pixel_symmetric", "tf_crop_and_resize"};
  bool known = false;
  for (size_t i = 0; i < sizeof(coordinate_modes) / sizeof(coordinate_modes[0]); ++i) {
    known |= strcmp(r.coordinates, coordinate_modes[i]) == 0;
  }
  if (!known) {
    return grtc_onnx_error(n,
                           "attribute 'coordinate_transformation_mode' must be half_pixel, "
                           "half_pixel_symmetric, pytorch_half_pixel, align_corners, asymmetric, "
                           "tf_half_pixel_for_nn or tf_crop_and_resize, got \"%s\"",
                           r.coordinates);
  }
  static const char* const nearest_modes[] = {"round_prefer_floor", "round_prefer_ceil", "floor",
                                              "ceil"};
  known = false;
  for (size_t i = 0; i < 4; ++i) known |= strcmp(r.nearest, nearest_modes[i]) == 0;
  if (!known) {
    return grtc_onnx_error(n,
                           "attribute 'nearest_mode' must be round_prefer_floor, "
                           "round_prefer_ceil, floor or ceil, got \"%s\"",
                           r.nearest);
  }
  r.antialias = grtc_onnx_attr_int(n, "antialias", 0) != 0;
  const char* policy = grtc_onnx_attr_string(n, "keep_aspect_ratio_policy", "stretch");
  bool not_larger = strcmp(policy, "not_larger") == 0;
  bool not_smaller = strcmp(policy, "not_smaller") == 0;
  if (!not_larger && !not_smaller && strcmp(policy, "stretch") != 0) {
    return grtc_onnx_error(n,
                           "attribute 'keep_aspect_ratio_policy' must be stretch, not_larger or "
                           "not_smaller, got \"%s\"",
                           policy);
  }
  if (r.mode != GRTC_ONNX_RESIZE_NEAREST &&
      !grtc_onnx_expect_float(n, x, "input X (for linear and cubic modes)")) {
    return grt_ok_status();
  }
  // The axes the scales or sizes cover (opset 18), all by default.
  int64_t axes[GRTC_MAX_RANK];
  uint32_t axis_count = rank;
  for (uint32_t d = 0; d < rank; ++d) axes[d] = d;
  {
    int64_t* values = NULL;
    uint32_t count = 0;
    if (grtc_onnx_attr_ints(n, "axes", &values, &count)) {
      if (count > rank) return grtc_onnx_error(n, "attribute 'axes' has %u values", count);
      for (uint32_t i = 0; i < count; ++i) {
        uint32_t axis = 0;
        if (!grtc_onnx_axis(n, "axes", values[i], rank, &axis)) return grt_ok_status();
        axes[i] = axis;
      }
      axis_count = count;
    }
  }
  double* scale_values = NULL;
  uint32_t scale_count = 0;
  int64_t* size_values = NULL;
  uint32_t size_count = 0;
  if (upsample && n->opset < 9) {
    float* floats = NULL;
    if (!grtc_onnx_attr_floats(n, "scales", &floats, &scale_count)) {
      return grtc_onnx_error(n, "attribute 'scales' is required");
    }
    scale_values = grtc_tmodule_alloc(n->module, (scale_count + 1) * sizeof(double));
    if (!scale_values) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    for (uint32_t i = 0; i < scale_count; ++i) scale_values[i] = floats[i];
  } else {
    uint32_t scales_index = upsample || n->opset < 11 ? 1 : 2;
    grtc_tvalue_t* scales = scales_index < n->input_count ? n->inputs[scales_index] : NULL;
    grtc_tvalue_t* sizes = n->input_count > 3 ? n->inputs[3] : NULL;
    if (scales && grtc_ttype_element_count(&scales->type) > 0 &&
        !grtc_onnx_floats(n, scales, "input 'scales'", &scale_values, &scale_count)) {
      return grt_ok_status();
    }
    if (sizes && !grtc_onnx_is_constant(sizes) && (!scales || !grtc_ttype_element_count(&scales->type))) {
      const grtc_sexpr_t* expr = NULL;
      bool data = false;
      if (sizes->type.rank == 1 && grtc_dim_is_static(sizes->type.dims[0]) &&
          sizes->type.dims[0] <= GRTC_MAX_RANK &&
          (sizes->type.elem == GRTC_ELEM_I64 || sizes->type.elem == GRTC_ELEM_I32)) {
        for (uint32_t i = 0; i < (uint32_t)sizes->type.dims[0]; ++i) {
          data |= grtc_tvalue_shape_expr_data(n->module, sizes, i, &expr) &&
                  grtc_sexpr_reads_data(expr);
        }
      }
      if (data) {
        if ((uint32_t)sizes->type.dims[0] != axis_count) {
          return grtc_onnx_error(n, "'sizes' has %u values, expected %u",
                                 (uint32_t)sizes->type.dims[0], axis_count);
        }
        if (strcmp(policy, "stretch") != 0) {
          return grtc_onnx_unsupported(n,
                                       "keep_aspect_ratio_policy \"%s\" while input 'sizes' is "
                                       "read from a graph input's data at run time; grt reads "
                                       "sizes at the call with \"stretch\" only",
                                       policy);
        }
        return grtc_onnx_resize_from_data(n, x, &r, sizes, axes, axis_count);
      }
    }
    if (sizes && grtc_ttype_element_count(&sizes->type) > 0 &&
        !grtc_onnx_ints(n, sizes, "input 'sizes'", &size_values, &size_count)) {
      return grt_ok_status();
    }
    if (strcmp(r.coordinates, "tf_crop_and_resize") == 0) {
      // roi: starts then ends, one per covered axis.
      grtc_tvalue_t* roi = n->input_count > 1 ? n->inputs[1] : NULL;
      double* roi_values = NULL;
      uint32_t roi_count = 0;
      if (!roi) return grtc_onnx_error(n, "tf_crop_and_resize needs input 'roi'");
      if (!grtc_onnx_floats(n, roi, "input 'roi'", &roi_values, &roi_count)) {
        return grt_ok_status();
      }
      if (roi_count != 2 * axis_count) {
        return grtc_onnx_error(n, "input 'roi' has %u values, expected %u", roi_count,
                               2 * axis_count);
      }
      for (uint32_t d = 0; d < rank; ++d) {
        r.roi_start[d] = 0;
        r.roi_end[d] = 1;
      }
      for (uint32_t i = 0; i < axis_count; ++i) {
        r.roi_start[axes[i]] = roi_values[i];
        r.roi_end[axes[i]] = roi_values[axis_count + i];
      }
      r.extrapolation = grtc_onnx_attr_float(n, "extrapolation_value", 0.0f);
    }
  }
  if ((scale_count == 0) == (size_count == 0)) {
    return grtc_onnx_error(n, "exactly one of 'scales' and 'sizes' must be given");
  }
  uint32_t given = scale_count ? scale_count : size_count;
  if (given != axis_count) {
    return grtc_onnx_error(n, "'%s' has %u values, expected %u", scale_count ? "scales" : "sizes",
                           given, axis_count);
  }
  double scales_full[GRTC_MAX_RANK];
  int64_t out[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) {
    scales_full[d] = 1.0;
    out[d] = x->type.dims[d];
  }
  for (uint32_t i = 0; i < axis_count; ++i) {
    int64_t d = axes[i], in = x->type.dims[d];
    if (scale_count) {
      double s = scale_values[i];
      if (!(s > 0) || s * (double)in > 1e9) {
        return grtc_onnx_error(n, "scale %g for dimension %lld is not positive or too large", s,
                               (long long)d);
      }
      scales_full[d] = s;
      // tf_crop_and_resize scales the region of interest.
      double extent = strcmp(r.coordinates, "tf_crop_and_resize") == 0
                          ? (double)in * (r.roi_end[d] - r.roi_start[d])
                          : (double)in;
      out[d] = (int64_t)floor(extent * s);
      if (out[d] < 0) {
        return grtc_onnx_error(n, "the region of interest of dimension %lld is reversed",
                               (long long)d);
      }
    } else {
      if (size_values[i] < 0 || size_values[i] > (INT64_C(1) << 31)) {
        return grtc_onnx_error(n, "size %lld for dimension %lld is out of range",
                               (long long)size_values[i], (long long)d);
      }
      out[d] = size_values[i];
      scales_full[d] = in > 0 ? (double)out[d] / (double)in : 1.0;
    }
  }
  if (size_count && (not_larger || not_smaller)) {
    // One scale for the covered axes, the least (or greatest) of the
    // sizes' ratios; the sizes follow from it, rounded half up.
    double common = scales_full[axes[0]];
    for (uint32_t i = 1; i < axis_count; ++i) {
      double s = scales_full[axes[i]];
      common = not_larger ? fmin(common, s) : fmax(common, s);
    }
    for (uint32_t i = 0; i < axis_count; ++i) {
      int64_t d = axes[i];
      scales_full[d] = common;
      out[d] = (int64_t)(common * (double)x->type.dims[d] + 0.5);
    }
  }
  OUT(0) = grtc_onnx_resize(n, x, &r, scales_full, out);
  return grt_ok_status();
}

const grtc_onnx_op_def_t grtc_onnx_nn_ops[] = {
    {"Conv", grtc_onnx_op_conv, 2, 3, 1, 1, 1},
    {"ConvTranspose", grtc_onnx_op_conv_transpose, 2, 3, 1, 1, 1},
    {"ConvInteger", grtc_onnx_op_conv_integer, 2, 4, 1, 1, 10},
    {"MaxPool", grtc_onnx_op_max_pool, 1, 1, 1, 2, 1},
    {"AveragePool", grtc_onnx_op_average_pool, 1, 1, 1, 1, 1},
    {"LpPool", grtc_onnx_op_lp_pool, 1, 1, 1, 1, 2},
    {"GlobalAveragePool", grtc_onnx_op_global_pool, 1, 1, 1, 1, 1},
    {"GlobalMaxPool", grtc_onnx_op_global_pool, 1, 1, 1, 1, 1},
    {"GlobalLpPool", grtc_onnx_op_global_pool, 1, 1, 1, 1, 2},
    {"MatMul", grtc_onnx_op_matmul, 2, 2, 1, 1, 1},
    {"MatMulInteger", grtc_onnx_op_matmul_integer, 2, 4, 1, 1, 10},
    {"Gemm", grtc_onnx_op_gemm, 2, 3, 1, 1, 1},
    {"Einsum", grtc_onnx_op_einsum, 1, -1, 1, 1, 12},
    {"BatchNormalization", grtc_onnx_op_batch_norm, 5, 5, 1, 5, 1},
    {"LayerNormalization", grtc_onnx_op_layer_norm, 2, 3, 1, 3, 17},
    {"InstanceNormalization", grtc_onnx_op_instance_norm, 3, 3, 1, 1, 1},
    {"GroupNormalization", grtc_onnx_op_group_norm, 3, 3, 1, 1, 18},
    {"MeanVarianceNormalization", grtc_onnx_op_mvn, 1, 1, 1, 1, 9},
    {"LpNormalization", grtc_onnx_op_lp_norm, 1, 1, 1, 1, 1},
    {"LRN", grtc_onnx_op_lrn, 1, 1, 1, 1, 1},
    {"Resize", grtc_onnx_op_resize, 1, 4, 1, 1, 10},
    {"Upsample", grtc_onnx_op_resize, 1, 2, 1, 1, 7},
    {NULL, NULL, 0, 0, 0, 0, 0},
};
