// ONNX ops: losses, signal windows, sampling and the other ops of one kind each.
#include <math.h>
#include <string.h>

#include "compiler/onnx/internal.h"

#define GRTC_ONNX_PI 3.14159265358979323846

// The sum of |x| over |axis| (keepdims as given).
static grtc_tvalue_t* grtc_onnx_sum_axis(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t axis,
                                         bool keepdims) {
  if (!x) return NULL;
  int64_t axes[1] = {axis};
  return grtc_onnx_reduce(n, x, axes, 1, GRTC_TOP_ADD, grtc_onnx_scalar(n, x->type.elem, 0),
                          keepdims);
}

// The sum of every element of |x| as a rank-0 tensor.
static grtc_tvalue_t* grtc_onnx_sum_all(grtc_onnx_node_t* n, grtc_tvalue_t* x) {
  if (!x) return NULL;
  int64_t axes[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < x->type.rank; ++d) axes[d] = d;
  if (x->type.rank == 0) return x;
  return grtc_onnx_reduce(n, x, axes, x->type.rank, GRTC_TOP_ADD,
                          grtc_onnx_scalar(n, x->type.elem, 0), false);
}

// |x| with a dimension of size 1 inserted at |axis|.
static grtc_tvalue_t* grtc_onnx_unsqueeze(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t axis) {
  if (!x) return NULL;
  int64_t dims[GRTC_MAX_RANK + 1];
  uint32_t rank = 0;
  for (uint32_t d = 0; d <= x->type.rank; ++d) {
    if (d == axis) dims[rank++] = 1;
    if (d < x->type.rank) dims[rank++] = x->type.dims[d];
  }
  return grtc_onnx_reshape(n, x, rank, dims);
}

//===----------------------------------------------------------------------===//
// NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss
//===----------------------------------------------------------------------===//

typedef enum grtc_onnx_loss_reduction_e {
  GRTC_ONNX_LOSS_NONE,
  GRTC_ONNX_LOSS_SUM,
  GRTC_ONNX_LOSS_MEAN,
} grtc_onnx_loss_reduction_t;

static bool grtc_onnx_loss_reduction(grtc_onnx_node_t* n, grtc_onnx_loss_reduction_t* out) {
  const char* reduction = grtc_onnx_attr_string(n, "reduction", "mean");
  if (strcmp(reduction, "none") == 0) {
    *out = GRTC_ONNX_LOSS_NONE;
  } else if (strcmp(reduction, "sum") == 0) {
    *out = GRTC_ONNX_LOSS_SUM;
  } else if (strcmp(reduction, "mean") == 0) {
    *out = GRTC_ONNX_LOSS_MEAN;
  } else {
    grt_status_free(grtc_onnx_error(
        n, "attribute 'reduction' must be \"none\", \"sum\" or \"mean\"; got \"%s\"", reduction));
    return false;
  }
  return grt_status_is_ok(n->status);
}

// The negative log-likelihood loss of log-probabilities |x| (N, C, d...)
// against class indices |target| (N, d...), |weight| (C) optional:
// loss[n][d] = -x[n][target[n][d]][d] * weight[target[n][d]], 0 where the
// target is ignore_index, then reduced. The class is picked with a one-hot
// mask, so a target outside [0, C) selects nothing (a loss of 0) instead of
// reading out of bounds.
static grtc_tvalue_t* grtc_onnx_nll(grtc_onnx_node_t* n, grtc_tvalue_t* x, grtc_tvalue_t* target,
                                    grtc_tvalue_t* weight) {
  if (!x || !target) return NULL;
  char bx[GRTC_TTYPE_FORMAT_CAPACITY], bt[GRTC_TTYPE_FORMAT_CAPACITY];
  uint32_t rank = x->type.rank;
  if (rank < 2) {
    grt_status_free(grtc_onnx_error(n, "input must have shape (N, C, d1, ..., dk), got %s",
                                    grtc_onnx_fmt(x, bx)));
    return NULL;
  }
  bool target_ok = target->type.rank == rank - 1 &&
                   (target->type.elem == GRTC_ELEM_I32 || target->type.elem == GRTC_ELEM_I64);
  for (uint32_t d = 0; target_ok && d < rank - 1; ++d) {
    target_ok = target->type.dims[d] == x->type.dims[d == 0 ? 0 : d + 1];
  }
  if (!target_ok) {
    grt_status_free(grtc_onnx_error(n,
                                    "target must be an int32 or int64 tensor of shape (N, d1, "
                                    "..., dk) for input %s, got %s",
                                    grtc_onnx_fmt(x, bx), grtc_onnx_fmt(target, bt)));
    return NULL;
  }
  grtc_elem_t elem = x->type.elem;
  int64_t classes = x->type.dims[1];
  if (weight &&
      (weight->type.elem != elem || weight->type.rank != 1 || weight->type.dims[0] != classes)) {
    grt_status_free(grtc_onnx_error(n,
                                    "weight must be a tensor of shape (C) = (%lld) like input "
                                    "%s, got %s",
                                    (long long)classes, grtc_onnx_fmt(x, bx),
                                    grtc_onnx_fmt(weight, bt)));
    return NULL;
  }
  grtc_onnx_loss_reduction_t reduction;
  if (!grtc_onnx_loss_reduction(n, &reduction)) return NULL;
  bool has_ignore = grtc_onnx_attr(n, "ignore_index") != NULL;
  int64_t ignore = grtc_onnx_attr_int(n, "ignore_index", 0);

  grtc_ttype_t iota_type = x->type;
  iota_type.elem = target->type.elem;
  grtc_tvalue_t* t1 = grtc_onnx_unsqueeze(n, target, 1);  // (N, 1, d...)
  grtc_tvalue_t* mask = grtc_onnx_compare(n, GRTC_CMP_EQ, grtc_onnx_iota(n, &iota_type, 1), t1);
  grtc_tvalue_t* valid = NULL;
  if (has_ignore) {
    grtc_tvalue_t* ii = grtc_onnx_const_ints(n, target->type.elem, 0, NULL, &ignore);
    valid = grtc_onnx_compare(n, GRTC_CMP_NE, target, ii);
    mask = grtc_onnx_binary(n, GRTC_TOP_AND, mask, grtc_onnx_unsqueeze(n, valid, 1));
  }
  grtc_tvalue_t* zero = grtc_onnx_scalar(n, elem, 0);
  grtc_tvalue_t* picked = grtc_onnx_sum_axis(n, grtc_onnx_select(n, mask, x, zero), 1, false);
  grtc_tvalue_t* loss = grtc_onnx_unary(n, GRTC_TOP_NEGATE, picked);
  grtc_tvalue_t* w = NULL;  // the weight of each element, when not all 1
  if (weight) {
    int64_t dims[GRTC_MAX_RANK];
    for (uint32_t d = 0; d < rank; ++d) dims[d] = d == 1 ? classes : 1;
    grtc_tvalue_t* wb = grtc_onnx_reshape(n, weight, rank, dims);
    w = grtc_onnx_sum_axis(n, grtc_onnx_select(n, mask, wb, zero), 1, false);
    loss = MUL(loss, w);
  } else if (has_ignore) {
    w = grtc_onnx_convert(n, valid, elem);
  }
  if (reduction == GRTC_ONNX_LOSS_NONE || !loss) return loss;
  grtc_tvalue_t* sum = grtc_onnx_sum_all(n, loss);
  if (reduction == GRTC_ONNX_LOSS_SUM) return sum;
  if (w) return DIV(sum, grtc_onnx_sum_all(n, w));
  return DIV(sum, grtc_onnx_scalar(n, elem, (double)grtc_ttype_element_count(&loss->type)));
}

static grt_status_t grtc_onnx_op_nll_loss(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!grtc_onnx_expect_float(n, x, "input")) return grt_ok_status();
  grtc_tvalue_t* weight = n->input_count > 2 ? n->inputs[2] : NULL;
  // 16-bit floats: the sums in f32.
  grtc_elem_t elem = x->type.elem;
  grtc_elem_t wide = elem == GRTC_ELEM_F16 || elem == GRTC_ELEM_BF16 ? GRTC_ELEM_F32 : elem;
  if (weight && weight->type.elem == elem) weight = grtc_onnx_convert(n, weight, wide);
  OUT(0) = grtc_onnx_convert(
      n, grtc_onnx_nll(n, grtc_onnx_convert(n, x, wide), grtc_onnx_input(n, 1), weight), elem);
  return grt_ok_status();
}

// log(softmax(x)) along |axis|, computed as (x - max) - log(sum(exp(x - max))).
static grtc_tvalue_t* grtc_onnx_log_softmax(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t axis) {
  if (!x) return NULL;
  int64_t axes[1] = {axis};
  grtc_tvalue_t* m = grtc_onnx_reduce(n, x, axes, 1, GRTC_TOP_MAXIMUM,
                                      grtc_onnx_scalar(n, x->type.elem, -INFINITY), true);
  grtc_tvalue_t* shifted = SUB(x, m);
  grtc_tvalue_t* s =
      grtc_onnx_sum_axis(n, grtc_onnx_unary(n, GRTC_TOP_EXPONENTIAL, shifted), axis, true);
  return SUB(shifted, grtc_onnx_unary(n, GRTC_TOP_LOG, s));
}

static grt_status_t grtc_onnx_op_sce_loss(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!grtc_onnx_expect_float(n, x, "scores")) return grt_ok_status();
  if (x->type.rank < 2) {
    char bx[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_onnx_error(n, "scores must have shape (N, C, d1, ..., dk), got %s",
                           grtc_onnx_fmt(x, bx));
  }
  grtc_elem_t elem = x->type.elem;
  // 16-bit floats: the log-softmax and the loss in f32.
  grtc_elem_t wide = elem == GRTC_ELEM_F16 || elem == GRTC_ELEM_BF16 ? GRTC_ELEM_F32 : elem;
  grtc_tvalue_t* log_prob = grtc_onnx_log_softmax(n, grtc_onnx_convert(n, x, wide), 1);
  grtc_tvalue_t* weight = n->input_count > 2 ? n->inputs[2] : NULL;
  if (weight && weight->type.elem == elem) weight = grtc_onnx_convert(n, weight, wide);
  OUT(0) = grtc_onnx_convert(n, grtc_onnx_nll(n, log_prob, grtc_onnx_input(n, 1), weight), elem);
  if (n->output_count > 1) OUT(1) = grtc_onnx_convert(n, log_prob, elem);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Shrink
//===----------------------------------------------------------------------===//

static grt_status_t grtc_onnx_op_shrink(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  char bx[GRTC_TTYPE_FORMAT_CAPACITY];
  if (x->type.elem == GRTC_ELEM_I1) {
    return grtc_onnx_error(n, "input must be numeric, got %s", grtc_onnx_fmt(x, bx));
  }
  double lambd = grtc_onnx_attr_float(n, "lambd", 0.5f);
  double bias = grtc_onnx_attr_float(n, "bias", 0.0f);
  // Integers compare and shift in a float type that holds them exactly (f32
  // up to 16 bits, f64 above), then convert back.
  grtc_elem_t elem = x->type.elem;
  grtc_elem_t calc = grtc_elem_is_float(elem)          ? elem
                     : grtc_elem_bit_width(elem) <= 16 ? GRTC_ELEM_F32
                                                       : GRTC_ELEM_F64;
  grtc_tvalue_t* v = grtc_onnx_convert(n, x, calc);
  grtc_tvalue_t* lo = grtc_onnx_compare(n, GRTC_CMP_LT, v, grtc_onnx_scalar(n, calc, -lambd));
  grtc_tvalue_t* hi = grtc_onnx_compare(n, GRTC_CMP_GT, v, grtc_onnx_scalar(n, calc, lambd));
  grtc_tvalue_t* b = grtc_onnx_scalar(n, calc, bias);
  grtc_tvalue_t* y = grtc_onnx_select(
      n, lo, ADD(v, b), grtc_onnx_select(n, hi, SUB(v, b), grtc_onnx_splat_like(n, v, 0)));
  OUT(0) = grtc_onnx_convert(n, y, elem);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// GridSample
//===----------------------------------------------------------------------===//

// Rows of |table| (M, C) at |indices| (i64, any shape S, each in [0, M)):
// a tensor (S..., C).
static grtc_tvalue_t* grtc_onnx_gather_rows(grtc_onnx_node_t* n, grtc_tvalue_t* table,
                                            grtc_tvalue_t* indices) {
  if (!table || !indices || !grt_status_is_ok(n->status)) return NULL;
  uint32_t rank = indices->type.rank;
  grtc_ttype_t type = grtc_onnx_type(table->type.elem, rank + 1, indices->type.dims);
  type.dims[rank] = table->type.dims[1];
  grtc_tvalue_t* operands[2] = {table, indices};
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_GATHER, operands, 2, &type, 1, 0);
  if (!op) return NULL;
  int64_t offset[1] = {rank}, zero[1] = {0}, sizes[2] = {1, table->type.dims[1]};
  grtc_gather_dims_t* g = &op->attrs.gather;
  g->offset_dims = grtc_tmodule_i64s(n->module, offset, 1);
  g->collapsed_slice_dims = grtc_tmodule_i64s(n->module, zero, 1);
  g->start_index_map = grtc_tmodule_i64s(n->module, zero, 1);
  g->slice_sizes = grtc_tmodule_i64s(n->module, sizes, 2);
  g->index_vector_dim = rank;
  return grtc_onnx_fold(n, op);
}

typedef enum grtc_onnx_grid_padding_e {
  GRTC_ONNX_GRID_ZEROS,
  GRTC_ONNX_GRID_BORDER,
  GRTC_ONNX_GRID_REFLECTION,
} grtc_onnx_grid_padding_t;

typedef struct grtc_onnx_grid_t {
  grtc_onnx_grid_padding_t padding;
  bool align_corners;
  // How nearest rounds: half to even (PyTorch's nearbyint) except in 3-D
  // (std::round, half away from zero), as the ONNX reference does.
  grtc_top_kind_t round;
} grtc_onnx_grid_t;

// |x| clamped to [lo, hi] (rank-0 bounds of x's type).
static grtc_tvalue_t* grtc_onnx_clip(grtc_onnx_node_t* n, grtc_tvalue_t* x, double lo, double hi) {
  if (!x) return NULL;
  x = grtc_onnx_binary(n, GRTC_TOP_MAXIMUM, x, grtc_onnx_scalar(n, x->type.elem, lo));
  return grtc_onnx_binary(n, GRTC_TOP_MINIMUM, x, grtc_onnx_scalar(n, x->type.elem, hi));
}

// A source coordinate brought inside [0, size - 1] as padding_mode says
// (PyTorch's grid sampler: border clips; reflection reflects about the
// borders, [0, size - 1] with align_corners and [-0.5, size - 0.5]
// without, then clips); zeros leaves it.
static grtc_tvalue_t* grtc_onnx_grid_bound(grtc_onnx_node_t* n, const grtc_onnx_grid_t* g,
                                           grtc_tvalue_t* x, int64_t size) {
  if (!x || g->padding == GRTC_ONNX_GRID_ZEROS) return x;
  if (g->padding == GRTC_ONNX_GRID_REFLECTION) {
    double min = g->align_corners ? 0 : -0.5;
    double span = g->align_corners ? (double)(size - 1) : (double)size;
    if (span <= 0) return grtc_onnx_splat_like(n, x, 0);
    grtc_elem_t e = x->type.elem;
    grtc_tvalue_t* a = grtc_onnx_unary(n, GRTC_TOP_ABS, SUB(x, grtc_onnx_scalar(n, e, min)));
    grtc_tvalue_t* extra = grtc_onnx_binary(n, GRTC_TOP_REMAINDER, a, grtc_onnx_scalar(n, e, span));
    grtc_tvalue_t* flips = grtc_onnx_unary(n, GRTC_TOP_FLOOR, DIV(a, grtc_onnx_scalar(n, e, span)));
    grtc_tvalue_t* even = grtc_onnx_compare(
        n, GRTC_CMP_EQ, grtc_onnx_binary(n, GRTC_TOP_REMAINDER, flips, grtc_onnx_scalar(n, e, 2)),
        grtc_onnx_scalar(n, e, 0));
    x = grtc_onnx_select(n, even, ADD(extra, grtc_onnx_scalar(n, e, min)),
                         SUB(grtc_onnx_scalar(n, e, span + min), extra));
  }
  return grtc_onnx_clip(n, x, 0, (double)(size - 1));
}

// One interpolation tap along one axis: the clamped index (i64), its
// weight, and whether the index was in range (i1).
typedef struct grtc_onnx_tap_t {
  grtc_tvalue_t* index;
  grtc_tvalue_t* weight;
  grtc_tvalue_t* valid;
} grtc_onnx_tap_t;

static grtc_onnx_tap_t grtc_onnx_make_tap(grtc_onnx_node_t* n, grtc_tvalue_t* coordinate,
                                          grtc_tvalue_t* weight, int64_t size) {
  grtc_onnx_tap_t tap = {NULL, weight, NULL};
  grtc_tvalue_t* i = grtc_onnx_convert(n, coordinate, GRTC_ELEM_I64);
  if (!i) return tap;
  grtc_tvalue_t* ge = grtc_onnx_compare(n, GRTC_CMP_GE, i, grtc_onnx_scalar(n, GRTC_ELEM_I64, 0));
  grtc_tvalue_t* lt =
      grtc_onnx_compare(n, GRTC_CMP_LT, i, grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)size));
  tap.valid = grtc_onnx_binary(n, GRTC_TOP_AND, ge, lt);
  tap.index = grtc_onnx_clip(n, i, 0, (double)(size - 1));
  return tap;
}

// Keys' cubic convolution weights (A = -0.75) of the four taps around a
// point at fraction |t| past the second.
static void grtc_onnx_cubic_weights(grtc_onnx_node_t* n, grtc_tvalue_t* t, grtc_tvalue_t** w) {
  grtc_elem_t e = t->type.elem;
  const double a = -0.75;
#define C(v) grtc_onnx_scalar(n, e, (v))
  grtc_tvalue_t* one = C(1);
  // |x| <= 1: ((A + 2) x - (A + 3)) x x + 1; 1 < |x| < 2: ((A x - 5A) x + 8A) x - 4A.
  grtc_tvalue_t* u[4] = {ADD(t, one), t, SUB(one, t), SUB(C(2), t)};
  for (int k = 0; k < 4; ++k) {
    grtc_tvalue_t* x = u[k];
    if (k == 1 || k == 2) {
      w[k] = ADD(MUL(MUL(SUB(MUL(C(a + 2), x), C(a + 3)), x), x), one);
    } else {
      w[k] = SUB(MUL(ADD(MUL(SUB(MUL(C(a), x), C(5 * a)), x), C(8 * a)), x), C(4 * a));
    }
  }
#undef C
}

// The taps along one axis of source coordinate |x| (unnormalized) of an
// axis of |size|; their count.
static int grtc_onnx_grid_taps(grtc_onnx_node_t* n, const grtc_onnx_grid_t* g, int mode,
                               grtc_tvalue_t* x, int64_t size, grtc_onnx_tap_t* taps) {
  grtc_elem_t e = x->type.elem;
  if (mode == 0) {  // nearest, rounding as g->round does
    grtc_tvalue_t* r = grtc_onnx_unary(n, g->round, grtc_onnx_grid_bound(n, g, x, size));
    taps[0] = grtc_onnx_make_tap(n, r, grtc_onnx_splat_like(n, x, 1), size);
    return 1;
  }
  if (mode == 1) {  // bilinear
    x = grtc_onnx_grid_bound(n, g, x, size);
    grtc_tvalue_t* x0 = grtc_onnx_unary(n, GRTC_TOP_FLOOR, x);
    grtc_tvalue_t* t = SUB(x, x0);
    taps[0] = grtc_onnx_make_tap(n, x0, SUB(grtc_onnx_scalar(n, e, 1), t), size);
    taps[1] = grtc_onnx_make_tap(n, ADD(x0, grtc_onnx_scalar(n, e, 1)), t, size);
    return 2;
  }
  // bicubic: the taps floor(x) - 1 .. floor(x) + 2, each brought inside by
  // the padding mode.
  grtc_tvalue_t* x0 = grtc_onnx_unary(n, GRTC_TOP_FLOOR, x);
  grtc_tvalue_t* w[4] = {NULL, NULL, NULL, NULL};
  grtc_tvalue_t* t = SUB(x, x0);
  if (!t) return 0;
  grtc_onnx_cubic_weights(n, t, w);
  for (int k = 0; k < 4; ++k) {
    grtc_tvalue_t* c = grtc_onnx_grid_bound(n, g, ADD(x0, grtc_onnx_scalar(n, e, k - 1)), size);
    taps[k] = grtc_onnx_make_tap(n, c, w[k], size);
  }
  return 4;
}

static grt_status_t grtc_onnx_op_grid_sample(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* grid = grtc_onnx_input(n, 1);
  if (!grtc_onnx_expect_float(n, x, "input X") || !grtc_onnx_expect_float(n, grid, "grid")) {
    return grt_ok_status();
  }
  char bx[GRTC_TTYPE_FORMAT_CAPACITY], bg[GRTC_TTYPE_FORMAT_CAPACITY];
  uint32_t rank = x->type.rank, k = rank >= 2 ? rank - 2 : 0;
  // Opset 20 generalized the op from 4-D inputs to N-D ones.
  if (rank < 3 || rank > 5 || (n->opset < 20 && rank != 4)) {
    return grtc_onnx_unsupported(n, "input X must be (N, C, H, W)%s, got %s",
                                 n->opset < 20 ? "" : " or have 1 or 3 spatial dimensions",
                                 grtc_onnx_fmt(x, bx));
  }
  bool grid_ok = grid->type.rank == rank && grid->type.dims[0] == x->type.dims[0] &&
                 grid->type.dims[rank - 1] == (int64_t)k;
  if (!grid_ok) {
    return grtc_onnx_error(n, "grid must have shape (N, D1_out, ..., %u) for input %s, got %s", k,
                           grtc_onnx_fmt(x, bx), grtc_onnx_fmt(grid, bg));
  }
  const char* mode_name = grtc_onnx_attr_string(n, "mode", n->opset >= 20 ? "linear" : "bilinear");
  int mode = 0;
  if (strcmp(mode_name, "nearest") == 0) {
    mode = 0;
  } else if (strcmp(mode_name, "bilinear") == 0 || strcmp(mode_name, "linear") == 0) {
    mode = 1;
  } else if (strcmp(mode_name, "bicubic") == 0 || strcmp(mode_name, "cubic") == 0) {
    mode = 2;
  } else {
    return grtc_onnx_error(n, "attribute 'mode' must be bilinear, nearest or bicubic; got \"%s\"",
                           mode_name);
  }
  grtc_onnx_grid_t g;
  const char* padding = grtc_onnx_attr_string(n, "padding_mode", "zeros");
  if (strcmp(padding, "zeros") == 0) {
    g.padding = GRTC_ONNX_GRID_ZEROS;
  } else if (strcmp(padding, "border") == 0) {
    g.padding = GRTC_ONNX_GRID_BORDER;
  } else if (strcmp(padding, "reflection") == 0) {
    g.padding = GRTC_ONNX_GRID_REFLECTION;
  } else {
    return grtc_onnx_error(
        n, "attribute 'padding_mode' must be zeros, border or reflection; got \"%s\"", padding);
  }
  g.align_corners = grtc_onnx_attr_int(n, "align_corners", 0) != 0;
  g.round = k == 3 ? GRTC_TOP_ROUND_NEAREST_AFZ : GRTC_TOP_ROUND_NEAREST_EVEN;
  int64_t batch = x->type.dims[0], channels = x->type.dims[1];
  const int64_t* sizes = x->type.dims + 2;  // the spatial sizes, D/H/W order
  int64_t volume = 1;
  for (uint32_t a = 0; a < k; ++a) {
    if (sizes[a] == 0) {
      return grtc_onnx_unsupported(n, "input %s has an empty spatial dimension",
                                   grtc_onnx_fmt(x, bx));
    }
    volume *= sizes[a];
  }
  grtc_elem_t e = grid->type.elem == GRTC_ELEM_F64 ? GRTC_ELEM_F64 : GRTC_ELEM_F32;
  grtc_tvalue_t* gf = grtc_onnx_convert(n, grid, e);
  // The output positions (N, D1_out, ...); grid component c addresses
  // spatial axis k - 1 - c (x the last, then y, then z).
  int64_t start[GRTC_MAX_RANK] = {0}, limit[GRTC_MAX_RANK], strides[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) {
    limit[d] = grid->type.dims[d];
    strides[d] = 1;
  }
  grtc_ttype_t plane_type = grtc_onnx_type(GRTC_ELEM_I64, rank - 1, grid->type.dims);
  grtc_onnx_tap_t taps[3][4];
  int tap_count[3] = {0, 0, 0};
  for (uint32_t a = 0; a < k; ++a) {
    start[rank - 1] = k - 1 - a;
    limit[rank - 1] = k - a;
    grtc_tvalue_t* c = grtc_onnx_reshape(n, grtc_onnx_slice(n, gf, start, limit, strides), rank - 1,
                                         grid->type.dims);
    grtc_tvalue_t* one = grtc_onnx_scalar(n, e, 1);
    double size = (double)sizes[a];
    // align_corners: (c + 1) / 2 * (size - 1); else ((c + 1) * size - 1) / 2.
    grtc_tvalue_t* coord =
        g.align_corners
            ? MUL(DIV(ADD(c, one), grtc_onnx_scalar(n, e, 2)), grtc_onnx_scalar(n, e, size - 1))
            : DIV(SUB(MUL(ADD(c, one), grtc_onnx_scalar(n, e, size)), one),
                  grtc_onnx_scalar(n, e, 2));
    if (!coord) return grt_ok_status();
    tap_count[a] = grtc_onnx_grid_taps(n, &g, mode, coord, sizes[a], taps[a]);
    if (tap_count[a] == 0) return grt_ok_status();
  }
  // X as rows (N * D * H * W, C); a tap's row is ((n * D + z) * H + y) * W + x.
  int64_t perm[GRTC_MAX_RANK], back[GRTC_MAX_RANK];
  perm[0] = 0;
  back[0] = 0;
  for (uint32_t d = 1; d < rank; ++d) {
    perm[d] = d + 1 < rank ? d + 1 : 1;
    back[d] = d == 1 ? rank - 1 : d - 1;
  }
  int64_t rows_dims[2] = {batch * volume, channels};
  grtc_tvalue_t* rows = grtc_onnx_reshape(n, grtc_onnx_transpose(n, x, perm), 2, rows_dims);
  grtc_tvalue_t* base = grtc_onnx_iota(n, &plane_type, 0);
  int combos = 1;
  for (uint32_t a = 0; a < k; ++a) combos *= tap_count[a];
  grtc_tvalue_t* sum = NULL;
  for (int combo = 0; combo < combos && grt_status_is_ok(n->status); ++combo) {
    grtc_tvalue_t* index = base;
    grtc_tvalue_t* valid = NULL;
    grtc_tvalue_t* w = NULL;
    for (int a = 0, rest = combo; a < (int)k; ++a) {
      const grtc_onnx_tap_t* t = &taps[a][rest % tap_count[a]];
      rest /= tap_count[a];
      index = ADD(MUL(index, grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)sizes[a])), t->index);
      valid = valid ? grtc_onnx_binary(n, GRTC_TOP_AND, valid, t->valid) : t->valid;
      w = w ? MUL(w, t->weight) : t->weight;
    }
    w = grtc_onnx_convert(n, grtc_onnx_select(n, valid, w, grtc_onnx_scalar(n, e, 0)),
                          x->type.elem);
    grtc_tvalue_t* term =
        MUL(grtc_onnx_gather_rows(n, rows, index), grtc_onnx_unsqueeze(n, w, rank - 1));
    sum = sum ? ADD(sum, term) : term;
  }
  OUT(0) = grtc_onnx_transpose(n, sum, back);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Det
//===----------------------------------------------------------------------===//

// Gaussian elimination with partial pivoting is unrolled into tensor ops,
// so matrices are limited to this size.
#define GRTC_ONNX_DET_MAX 16

// Column |k| of the batch of rows or matrices |a| (B, m, m) as (B, m):
// a[:, :, k] (|column|) or a[:, k, :].
static grtc_tvalue_t* grtc_onnx_det_line(grtc_onnx_node_t* n, grtc_tvalue_t* a, int64_t k,
                                         bool column) {
  int64_t b = a->type.dims[0], m = a->type.dims[1];
  int64_t start[3] = {0, column ? 0 : k, column ? k : 0};
  int64_t limit[3] = {b, column ? m : k + 1, column ? k + 1 : m};
  int64_t strides[3] = {1, 1, 1};
  int64_t dims[2] = {b, m};
  return grtc_onnx_reshape(n, grtc_onnx_slice(n, a, start, limit, strides), 2, dims);
}

static grt_status_t grtc_onnx_op_det(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
  char bx[GRTC_TTYPE_FORMAT_CAPACITY];
  uint32_t rank = x->type.rank;
  if (rank < 2 || x->type.dims[rank - 1] != x->type.dims[rank - 2]) {
    return grtc_onnx_error(n, "input must have shape (..., M, M), got %s", grtc_onnx_fmt(x, bx));
  }
  int64_t m = x->type.dims[rank - 1];
  if (m > GRTC_ONNX_DET_MAX) {
    return grtc_onnx_unsupported(n, "matrices of more than %d rows (got %s)", GRTC_ONNX_DET_MAX,
                                 grtc_onnx_fmt(x, bx));
  }
  grtc_elem_t elem = x->type.elem;
  grtc_elem_t e = elem == GRTC_ELEM_F64 ? GRTC_ELEM_F64 : GRTC_ELEM_F32;
  int64_t batch = 1;
  for (uint32_t d = 0; d + 2 < rank; ++d) batch *= x->type.dims[d];
  int64_t dims3[3] = {batch, m, m}, dims2[2] = {batch, m}, dims1[1] = {batch};
  grtc_tvalue_t* a = grtc_onnx_reshape(n, grtc_onnx_convert(n, x, e), 3, dims3);
  grtc_ttype_t batch_type = grtc_onnx_type(e, 1, dims1);
  grtc_tvalue_t* det = grtc_onnx_splat(n, &batch_type, 1);
  grtc_ttype_t rows_type = grtc_onnx_type(GRTC_ELEM_I64, 2, dims2);
  grtc_tvalue_t* iota = grtc_onnx_iota(n, &rows_type, 1);  // the row number, (B, m)
  grtc_tvalue_t* zero = grtc_onnx_scalar(n, e, 0);
  for (int64_t k = 0; k < m && a; ++k) {
    grtc_tvalue_t* kk = grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)k);
    // The pivot: the first row >= k of the largest |a[:, row, k]|.
    grtc_tvalue_t* below = grtc_onnx_compare(n, GRTC_CMP_GE, iota, kk);
    grtc_tvalue_t* mag = grtc_onnx_select(
        n, below, grtc_onnx_unary(n, GRTC_TOP_ABS, grtc_onnx_det_line(n, a, k, true)),
        grtc_onnx_scalar(n, e, -1));
    int64_t axis[1] = {1};
    grtc_tvalue_t* top = grtc_onnx_reduce(n, mag, axis, 1, GRTC_TOP_MAXIMUM,
                                          grtc_onnx_scalar(n, e, -INFINITY), true);
    grtc_tvalue_t* first = grtc_onnx_select(n, grtc_onnx_compare(n, GRTC_CMP_EQ, mag, top), iota,
                                            grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)m));
    grtc_tvalue_t* p = grtc_onnx_reduce(n, first, axis, 1, GRTC_TOP_MINIMUM,
                                        grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)m), true);
    // No row compares equal (NaN): keep row k.
    p = grtc_onnx_select(n, grtc_onnx_compare(n, GRTC_CMP_GE, p, grtc_onnx_splat_like(n, p, m)),
                         grtc_onnx_splat_like(n, p, (double)k), p);
    grtc_tvalue_t* is_p = grtc_onnx_compare(n, GRTC_CMP_EQ, iota, p);  // (B, m)
    grtc_tvalue_t* is_k = grtc_onnx_compare(n, GRTC_CMP_EQ, iota, kk);
    grtc_tvalue_t* is_p3 = grtc_onnx_unsqueeze(n, is_p, 2);
    grtc_tvalue_t* row_p = grtc_onnx_sum_axis(n, grtc_onnx_select(n, is_p3, a, zero), 1, false);
    grtc_tvalue_t* row_k = grtc_onnx_det_line(n, a, k, false);
    // Swap rows k and p.
    a = grtc_onnx_select(
        n, is_p3, grtc_onnx_unsqueeze(n, row_k, 1),
        grtc_onnx_select(n, grtc_onnx_unsqueeze(n, is_k, 2), grtc_onnx_unsqueeze(n, row_p, 1), a));
    grtc_tvalue_t* swapped =
        grtc_onnx_reshape(n, grtc_onnx_compare(n, GRTC_CMP_NE, p, kk), 1, dims1);
    int64_t start[2] = {0, k}, limit[2] = {batch, k + 1}, strides[2] = {1, 1};
    grtc_tvalue_t* pivot =
        grtc_onnx_reshape(n, grtc_onnx_slice(n, row_p, start, limit, strides), 1, dims1);
    det = MUL(grtc_onnx_select(n, swapped, grtc_onnx_unary(n, GRTC_TOP_NEGATE, det), det), pivot);
    if (k + 1 == m) break;
    // Rows below k lose a[:, row, k] / pivot times row k.
    grtc_tvalue_t* safe = grtc_onnx_select(n, grtc_onnx_compare(n, GRTC_CMP_EQ, pivot, zero),
                                           grtc_onnx_splat_like(n, pivot, 1), pivot);
    grtc_tvalue_t* factor = DIV(grtc_onnx_det_line(n, a, k, true), grtc_onnx_unsqueeze(n, safe, 1));
    factor = grtc_onnx_select(n, grtc_onnx_compare(n, GRTC_CMP_GT, iota, kk), factor, zero);
    a = SUB(a, MUL(grtc_onnx_unsqueeze(n, factor, 2), grtc_onnx_unsqueeze(n, row_p, 1)));
  }
  OUT(0) = grtc_onnx_convert(n, grtc_onnx_reshape(n, det, rank - 2, x->type.dims), elem);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// DFT
//===----------------------------------------------------------------------===//

// A constant (rows, cols) matrix of cos (|sine| false) or sin of
// 2 pi j k / length at (j, k), rows at and past |used| zero.
static grtc_tvalue_t* grtc_onnx_dft_matrix(grtc_onnx_node_t* n, grtc_elem_t elem, int64_t rows,
                                           int64_t used, int64_t cols, int64_t length, bool sine) {
  int64_t count = rows * cols;
  double* values = grtc_tmodule_alloc(n->module, (size_t)(count ? count : 1) * sizeof(double));
  if (!values) {
    grt_status_free(grtc_onnx_error(n, "out of memory for a %lld x %lld DFT matrix",
                                    (long long)rows, (long long)cols));
    return NULL;
  }
  for (int64_t j = 0; j < rows && j < used; ++j) {
    for (int64_t k = 0; k < cols; ++k) {
      double angle = 2 * GRTC_ONNX_PI * (double)((j * k) % length) / (double)length;
      values[j * cols + k] = sine ? sin(angle) : cos(angle);
    }
  }
  int64_t dims[2] = {rows, cols};
  grtc_ttype_t type = grtc_onnx_type(GRTC_ELEM_F64, 2, dims);
  return grtc_onnx_convert(
      n, grtc_onnx_constant(n, &type, values, (size_t)count * sizeof(double), false), elem);
}

static grt_status_t grtc_onnx_op_dft(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!grtc_onnx_expect_float(n, x, "input")) return grt_ok_status();
  char bx[GRTC_TTYPE_FORMAT_CAPACITY];
  uint32_t rank = x->type.rank;
  if (rank < 2 || (x->type.dims[rank - 1] != 1 && x->type.dims[rank - 1] != 2)) {
    return grtc_onnx_error(n, "input must have shape (..., 1) or (..., 2), got %s",
                           grtc_onnx_fmt(x, bx));
  }
  bool inverse = grtc_onnx_attr_int(n, "inverse", 0) != 0;
  bool onesided = grtc_onnx_attr_int(n, "onesided", 0) != 0;
  int64_t axis_value = 1;
  if (n->opset >= 20) {
    axis_value = -2;
    grtc_tvalue_t* axis_input = n->input_count > 2 ? n->inputs[2] : NULL;
    if (axis_input) {
      int64_t* values = NULL;
      uint32_t count = 0;
      if (!grtc_onnx_ints(n, axis_input, "input 'axis'", &values, &count)) return grt_ok_status();
      if (count != 1) return grtc_onnx_error(n, "input 'axis' must hold one value");
      axis_value = values[0];
    }
  } else {
    axis_value = grtc_onnx_attr_int(n, "axis", 1);
  }
  uint32_t axis = 0;
  if (!grtc_onnx_axis(n, "axis", axis_value, rank, &axis)) return grt_ok_status();
  if (axis == rank - 1) {
    return grtc_onnx_error(n, "axis %lld is the real/imaginary dimension of %s",
                           (long long)axis_value, grtc_onnx_fmt(x, bx));
  }
  int64_t in_len = x->type.dims[axis], length = in_len;
  grtc_tvalue_t* length_input = n->input_count > 1 ? n->inputs[1] : NULL;
  if (length_input) {
    int64_t* values = NULL;
    uint32_t count = 0;
    if (!grtc_onnx_ints(n, length_input, "input 'dft_length'", &values, &count)) {
      return grt_ok_status();
    }
    if (count != 1 || values[0] < 1 || values[0] > (INT64_C(1) << 16)) {
      return grtc_onnx_unsupported(n, "dft_length must be one value in [1, 65536]");
    }
    length = values[0];
  }
  if (inverse && onesided) {
    return grtc_onnx_unsupported(n, "an inverse DFT with onesided = 1");
  }
  if (length == 0) return grtc_onnx_error(n, "the DFT of an empty axis");
  int64_t out_len = onesided ? length / 2 + 1 : length;
  if (in_len * out_len > (INT64_C(1) << 24)) {
    return grtc_onnx_unsupported(
        n, "a DFT of %lld points from %lld samples (its matrix is over 2^24 entries)",
        (long long)length, (long long)in_len);
  }
  grtc_elem_t elem = x->type.elem;
  grtc_elem_t e = elem == GRTC_ELEM_F64 ? GRTC_ELEM_F64 : GRTC_ELEM_F32;
  grtc_tvalue_t* v = grtc_onnx_convert(n, x, e);
  // Real and imaginary parts, the DFT axis moved last.
  int64_t perm[GRTC_MAX_RANK], back[GRTC_MAX_RANK];
  uint32_t at = 0;
  for (uint32_t d = 0; d + 1 < rank; ++d) {
    if (d != axis) perm[at++] = d;
  }
  perm[at] = axis;
  for (uint32_t d = 0; d + 1 < rank; ++d) back[perm[d]] = d;
  grtc_tvalue_t* parts[2] = {NULL, NULL};
  int64_t start[GRTC_MAX_RANK] = {0}, limit[GRTC_MAX_RANK], strides[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) {
    limit[d] = x->type.dims[d];
    strides[d] = 1;
  }
  for (int64_t c = 0; c < x->type.dims[rank - 1]; ++c) {
    start[rank - 1] = c;
    limit[rank - 1] = c + 1;
    grtc_tvalue_t* part =
        grtc_onnx_reshape(n, grtc_onnx_slice(n, v, start, limit, strides), rank - 1, x->type.dims);
    parts[c] = grtc_onnx_transpose(n, part, perm);
  }
  grtc_tvalue_t* cos_m = grtc_onnx_dft_matrix(n, e, in_len, length, out_len, length, false);
  grtc_tvalue_t* sin_m = grtc_onnx_dft_matrix(n, e, in_len, length, out_len, length, true);
  // Forward: re = xr C + xi S, im = xi C - xr S; inverse: re = xr C - xi S,
  // im = xi C + xr S, both divided by the length.
  grtc_tvalue_t* re = grtc_onnx_matmul(n, parts[0], cos_m);
  grtc_tvalue_t* xr_s = grtc_onnx_matmul(n, parts[0], sin_m);
  grtc_tvalue_t* im = inverse ? xr_s : grtc_onnx_unary(n, GRTC_TOP_NEGATE, xr_s);
  if (parts[1]) {
    grtc_tvalue_t* xi_s = grtc_onnx_matmul(n, parts[1], sin_m);
    re = inverse ? SUB(re, xi_s) : ADD(re, xi_s);
    im = ADD(im, grtc_onnx_matmul(n, parts[1], cos_m));
  }
  if (inverse) {
    grtc_tvalue_t* scale = grtc_onnx_scalar(n, e, (double)length);
    re = DIV(re, scale);
    im = DIV(im, scale);
  }
  grtc_tvalue_t* out[2] = {grtc_onnx_transpose(n, re, back), grtc_onnx_transpose(n, im, back)};
  for (int c = 0; c < 2; ++c) out[c] = grtc_onnx_unsqueeze(n, out[c], rank - 1);
  OUT(0) = grtc_onnx_convert(n, grtc_onnx_concat(n, out, 2, rank - 1), elem);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// RoiAlign
//===----------------------------------------------------------------------===//

// Column |c| of (R, 4) |rois| as (R, 1).
static grtc_tvalue_t* grtc_onnx_roi_column(grtc_onnx_node_t* n, grtc_tvalue_t* rois, int64_t c) {
  int64_t r = rois->type.dims[0];
  int64_t start[2] = {0, c}, limit[2] = {r, c + 1}, strides[2] = {1, 1};
  return grtc_onnx_slice(n, rois, start, limit, strides);
}

// The sample positions of one axis, (R, out * grid): start + p * bin +
// (i + 0.5) * bin / grid for bin p and sample i, brought to the taps of
// bilinear interpolation as RoiAlign does it: a sample before -1 or past
// |size| is invalid; others clamp at 0 and at the last element.
typedef struct grtc_onnx_roi_axis_t {
  grtc_tvalue_t* low;   // i64 indices
  grtc_tvalue_t* high;  // i64
  grtc_tvalue_t* w_low;
  grtc_tvalue_t* w_high;
  grtc_tvalue_t* valid;  // i1
} grtc_onnx_roi_axis_t;

static grtc_onnx_roi_axis_t grtc_onnx_roi_axis(grtc_onnx_node_t* n, grtc_tvalue_t* start,
                                               grtc_tvalue_t* bin, int64_t out, int64_t grid,
                                               int64_t size) {
  grtc_onnx_roi_axis_t a = {NULL, NULL, NULL, NULL, NULL};
  if (!start || !bin) return a;
  grtc_elem_t e = start->type.elem;
  int64_t k = out * grid;
  double* bins = grtc_tmodule_alloc(n->module, (size_t)(k ? k : 1) * 2 * sizeof(double));
  if (!bins) {
    grt_status_free(grtc_onnx_error(n, "out of memory"));
    return a;
  }
  double* offsets = bins + k;
  for (int64_t p = 0; p < out; ++p) {
    for (int64_t i = 0; i < grid; ++i) {
      bins[p * grid + i] = (double)p;
      offsets[p * grid + i] = (double)i + 0.5;
    }
  }
  int64_t dims[2] = {1, k};
  grtc_ttype_t type = grtc_onnx_type(GRTC_ELEM_F64, 2, dims);
  grtc_tvalue_t* pc = grtc_onnx_convert(
      n, grtc_onnx_constant(n, &type, bins, (size_t)k * sizeof(double), false), e);
  grtc_tvalue_t* ic = grtc_onnx_convert(
      n, grtc_onnx_constant(n, &type, offsets, (size_t)k * sizeof(double), false), e);
  grtc_tvalue_t* x =
      ADD(ADD(start, MUL(pc, bin)), DIV(MUL(ic, bin), grtc_onnx_scalar(n, e, (double)grid)));
  a.valid = grtc_onnx_binary(
      n, GRTC_TOP_AND, grtc_onnx_compare(n, GRTC_CMP_GE, x, grtc_onnx_scalar(n, e, -1)),
      grtc_onnx_compare(n, GRTC_CMP_LE, x, grtc_onnx_scalar(n, e, (double)size)));
  x = grtc_onnx_binary(n, GRTC_TOP_MAXIMUM, x, grtc_onnx_scalar(n, e, 0));
  grtc_tvalue_t* last = grtc_onnx_scalar(n, e, (double)(size - 1));
  grtc_tvalue_t* low = grtc_onnx_unary(n, GRTC_TOP_FLOOR, x);
  grtc_tvalue_t* at_end = grtc_onnx_compare(n, GRTC_CMP_GE, low, last);
  low = grtc_onnx_select(n, at_end, grtc_onnx_splat_like(n, low, (double)(size - 1)), low);
  grtc_tvalue_t* high = grtc_onnx_select(n, at_end, low, ADD(low, grtc_onnx_scalar(n, e, 1)));
  x = grtc_onnx_select(n, at_end, low, x);
  a.w_high = SUB(x, low);
  a.w_low = SUB(grtc_onnx_scalar(n, e, 1), a.w_high);
  a.low = grtc_onnx_convert(n, low, GRTC_ELEM_I64);
  a.high = grtc_onnx_convert(n, high, GRTC_ELEM_I64);
  return a;
}

static grt_status_t grtc_onnx_op_roi_align(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* rois = grtc_onnx_input(n, 1);
  grtc_tvalue_t* batch_indices = grtc_onnx_input(n, 2);
  if (!grtc_onnx_expect_float(n, x, "input X") || !grtc_onnx_expect_float(n, rois, "rois") ||
      !batch_indices) {
    return grt_ok_status();
  }
  char bx[GRTC_TTYPE_FORMAT_CAPACITY], br[GRTC_TTYPE_FORMAT_CAPACITY],
      bb[GRTC_TTYPE_FORMAT_CAPACITY];
  if (x->type.rank != 4) {
    return grtc_onnx_error(n, "input X must have shape (N, C, H, W), got %s", grtc_onnx_fmt(x, bx));
  }
  int64_t num_rois = rois->type.rank == 2 ? rois->type.dims[0] : -1;
  if (rois->type.rank != 2 || rois->type.dims[1] != 4 || batch_indices->type.rank != 1 ||
      batch_indices->type.dims[0] != num_rois || !grtc_elem_is_integer(batch_indices->type.elem) ||
      batch_indices->type.elem == GRTC_ELEM_I1) {
    return grtc_onnx_error(n,
                           "rois must have shape (num_rois, 4) and batch_indices be an integer "
                           "tensor of shape (num_rois); got %s and %s",
                           grtc_onnx_fmt(rois, br), grtc_onnx_fmt(batch_indices, bb));
  }
  int64_t oh = grtc_onnx_attr_int(n, "output_height", 1);
  int64_t ow = grtc_onnx_attr_int(n, "output_width", 1);
  int64_t ratio = grtc_onnx_attr_int(n, "sampling_ratio", 0);
  double scale = grtc_onnx_attr_float(n, "spatial_scale", 1.0f);
  const char* mode = grtc_onnx_attr_string(n, "mode", "avg");
  const char* transform = grtc_onnx_attr_string(
      n, "coordinate_transformation_mode", n->opset >= 16 ? "half_pixel" : "output_half_pixel");
  if (!grt_status_is_ok(n->status)) return grt_ok_status();
  bool half_pixel = strcmp(transform, "half_pixel") == 0;
  if (!half_pixel && strcmp(transform, "output_half_pixel") != 0) {
    return grtc_onnx_error(n,
                           "attribute 'coordinate_transformation_mode' must be half_pixel or "
                           "output_half_pixel; got \"%s\"",
                           transform);
  }
  bool max_mode = strcmp(mode, "max") == 0;
  if (!max_mode && strcmp(mode, "avg") != 0) {
    return grtc_onnx_error(n, "attribute 'mode' must be avg or max; got \"%s\"", mode);
  }
  if (oh < 1 || ow < 1 || oh > 4096 || ow > 4096 || ratio < 0 || ratio > 64) {
    return grtc_onnx_error(n,
                           "output_height %lld and output_width %lld must be in [1, 4096] and "
                           "sampling_ratio %lld in [0, 64]",
                           (long long)oh, (long long)ow, (long long)ratio);
  }
  if (ratio == 0) {
    return grtc_onnx_unsupported(n,
                                 "sampling_ratio 0 (the sample count then depends on each ROI's "
                                 "size, known only at run time)");
  }
  int64_t batch = x->type.dims[0], channels = x->type.dims[1];
  int64_t height = x->type.dims[2], width = x->type.dims[3];
  if (batch == 0 || height == 0 || width == 0) {
    return grtc_onnx_unsupported(n, "an empty input %s", grtc_onnx_fmt(x, bx));
  }
  if ((double)num_rois * (double)(oh * ratio) * (double)(ow * ratio) * (double)channels >
      (double)(INT64_C(1) << 31)) {
    return grtc_onnx_unsupported(n, "%lld ROIs of %lld x %lld samples of %lld channels",
                                 (long long)num_rois, (long long)(oh * ratio),
                                 (long long)(ow * ratio), (long long)channels);
  }
  grtc_elem_t e = x->type.elem == GRTC_ELEM_F64 ? GRTC_ELEM_F64 : GRTC_ELEM_F32;
  grtc_tvalue_t* r = grtc_onnx_convert(n, rois, e);
  if (!r) return grt_ok_status();
  grtc_tvalue_t* sc = grtc_onnx_scalar(n, e, scale);
  grtc_tvalue_t* offset = grtc_onnx_scalar(n, e, half_pixel ? 0.5 : 0);
  grtc_tvalue_t* c[4];
  for (int i = 0; i < 4; ++i) c[i] = SUB(MUL(grtc_onnx_roi_column(n, r, i), sc), offset);
  grtc_tvalue_t* roi_w = SUB(c[2], c[0]);
  grtc_tvalue_t* roi_h = SUB(c[3], c[1]);
  if (!half_pixel) {
    roi_w = grtc_onnx_binary(n, GRTC_TOP_MAXIMUM, roi_w, grtc_onnx_scalar(n, e, 1));
    roi_h = grtc_onnx_binary(n, GRTC_TOP_MAXIMUM, roi_h, grtc_onnx_scalar(n, e, 1));
  }
  grtc_tvalue_t* bin_w = DIV(roi_w, grtc_onnx_scalar(n, e, (double)ow));
  grtc_tvalue_t* bin_h = DIV(roi_h, grtc_onnx_scalar(n, e, (double)oh));
  grtc_onnx_roi_axis_t ay = grtc_onnx_roi_axis(n, c[1], bin_h, oh, ratio, height);
  grtc_onnx_roi_axis_t ax = grtc_onnx_roi_axis(n, c[0], bin_w, ow, ratio, width);
  if (!ay.low || !ax.low) return grt_ok_status();
  // Samples (R, oh * ratio, ow * ratio); the rows of X as (N * H * W, C).
  grtc_tvalue_t* bi = grtc_onnx_convert(n, batch_indices, GRTC_ELEM_I64);
  bi = grtc_onnx_reshape(n, grtc_onnx_clip(n, bi, 0, (double)(batch - 1)), 3,
                         (int64_t[]){num_rois, 1, 1});
  int64_t perm[4] = {0, 2, 3, 1};
  int64_t rows_dims[2] = {batch * height * width, channels};
  grtc_tvalue_t* rows = grtc_onnx_reshape(n, grtc_onnx_transpose(n, x, perm), 2, rows_dims);
  grtc_tvalue_t* ys[2] = {ay.low, ay.high};
  grtc_tvalue_t* xs[2] = {ax.low, ax.high};
  grtc_tvalue_t* wys[2] = {ay.w_low, ay.w_high};
  grtc_tvalue_t* wxs[2] = {ax.w_low, ax.w_high};
  grtc_tvalue_t* valid = grtc_onnx_binary(n, GRTC_TOP_AND, grtc_onnx_unsqueeze(n, ay.valid, 2),
                                          grtc_onnx_unsqueeze(n, ax.valid, 1));
  grtc_tvalue_t* result = NULL;
  for (int i = 0; i < 2; ++i) {
    grtc_tvalue_t* row = MUL(ADD(MUL(bi, grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)height)),
                                 grtc_onnx_unsqueeze(n, ys[i], 2)),
                             grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)width));
    for (int j = 0; j < 2; ++j) {
      grtc_tvalue_t* index = ADD(row, grtc_onnx_unsqueeze(n, xs[j], 1));
      grtc_tvalue_t* w = MUL(grtc_onnx_unsqueeze(n, wys[i], 2), grtc_onnx_unsqueeze(n, wxs[j], 1));
      w = grtc_onnx_select(n, valid, w, grtc_onnx_splat_like(n, w, 0));
      w = grtc_onnx_unsqueeze(n, grtc_onnx_convert(n, w, x->type.elem), 3);
      grtc_tvalue_t* term = MUL(grtc_onnx_gather_rows(n, rows, index), w);
      if (!result) {
        result = term;
      } else {
        result = grtc_onnx_binary(n, max_mode ? GRTC_TOP_MAXIMUM : GRTC_TOP_ADD, result, term);
      }
    }
  }
  // (R, oh, ratio, ow, ratio, C) reduced over the samples of each bin.
  int64_t split[6] = {num_rois, oh, ratio, ow, ratio, channels};
  result = grtc_onnx_reshape(n, result, 6, split);
  int64_t axes[2] = {2, 4};
  grtc_elem_t elem = x->type.elem;
  if (max_mode) {
    result = grtc_onnx_reduce(n, result, axes, 2, GRTC_TOP_MAXIMUM,
                              grtc_onnx_scalar(n, elem, -INFINITY), false);
  } else {
    result =
        grtc_onnx_reduce(n, result, axes, 2, GRTC_TOP_ADD, grtc_onnx_scalar(n, elem, 0), false);
    result = DIV(result, grtc_onnx_scalar(n, elem, (double)(ratio * ratio)));
  }
  int64_t back[4] = {0, 3, 1, 2};
  OUT(0) = grtc_onnx_transpose(n, result, back);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// MaxUnpool
//===----------------------------------------------------------------------===//

// A zero tensor of |count| elements of |updates|' type with updates[i]
// written at flat position indices[i] (both rank 1); out-of-range indices
// (negative ones included) write nothing, as stablehlo.scatter skips them.
static grtc_tvalue_t* grtc_onnx_scatter_flat(grtc_onnx_node_t* n, grtc_tvalue_t* indices,
                                             grtc_tvalue_t* updates, int64_t count) {
  if (!indices || !updates || !grt_status_is_ok(n->status)) return NULL;
  grtc_elem_t elem = updates->type.elem;
  int64_t dims[1] = {count};
  grtc_ttype_t type = grtc_onnx_type(elem, 1, dims);
  grtc_tvalue_t* operands[3] = {grtc_onnx_splat(n, &type, 0), indices, updates};
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_SCATTER, operands, 3, &type, 1, 1);
  if (!op) return NULL;
  int64_t zero[1] = {0};
  grtc_scatter_dims_t* d = &op->attrs.scatter;
  d->inserted_window_dims = grtc_tmodule_i64s(n->module, zero, 1);
  d->scatter_dims_to_operand_dims = grtc_tmodule_i64s(n->module, zero, 1);
  d->index_vector_dim = 1;
  // The update computation keeps the update.
  if (!grtc_onnx_reducer_body(n, op, GRTC_TOP_COUNT, elem)) return NULL;
  return grtc_onnx_fold(n, op);
}

static grt_status_t grtc_onnx_op_max_unpool(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* indices = grtc_onnx_input(n, 1);
  if (!x || !indices) return grt_ok_status();
  char bx[GRTC_TTYPE_FORMAT_CAPACITY], bi[GRTC_TTYPE_FORMAT_CAPACITY];
  uint32_t rank = x->type.rank;
  if (rank < 3 || x->type.elem == GRTC_ELEM_I1) {
    return grtc_onnx_error(n, "input X must be a numeric tensor (N, C, d1, ...), got %s",
                           grtc_onnx_fmt(x, bx));
  }
  if (indices->type.elem != GRTC_ELEM_I64 || !grtc_ttype_same_shape(&indices->type, &x->type)) {
    return grtc_onnx_error(n, "input I must be an int64 tensor of X's shape %s, got %s",
                           grtc_onnx_fmt(x, bx), grtc_onnx_fmt(indices, bi));
  }
  uint32_t count = rank - 2;
  int64_t* kernel = NULL;
  uint32_t kernel_count = 0;
  if (!grtc_onnx_attr_ints(n, "kernel_shape", &kernel, &kernel_count)) {
    if (!grt_status_is_ok(n->status)) return grt_ok_status();
    return grtc_onnx_error(n, "attribute 'kernel_shape' is required");
  }
  int64_t strides[GRTC_MAX_RANK], pads[2 * GRTC_MAX_RANK];
  int64_t* values = NULL;
  uint32_t given = 0;
  for (uint32_t i = 0; i < count; ++i) strides[i] = 1;
  for (uint32_t i = 0; i < 2 * count; ++i) pads[i] = 0;
  if (kernel_count != count) {
    return grtc_onnx_error(n, "attribute 'kernel_shape' has %u values, expected %u", kernel_count,
                           count);
  }
  if (grtc_onnx_attr_ints(n, "strides", &values, &given)) {
    if (given != count) {
      return grtc_onnx_error(n, "attribute 'strides' has %u values, expected %u", given, count);
    }
    memcpy(strides, values, count * sizeof(int64_t));
  }
  if (grtc_onnx_attr_ints(n, "pads", &values, &given)) {
    if (given != 2 * count) {
      return grtc_onnx_error(n, "attribute 'pads' has %u values, expected %u", given, 2 * count);
    }
    memcpy(pads, values, 2 * count * sizeof(int64_t));
  }
  if (!grt_status_is_ok(n->status)) return grt_ok_status();
  grtc_ttype_t out = x->type;
  const int64_t limit = INT64_C(1) << 24;
  for (uint32_t i = 0; i < count; ++i) {
    if (kernel[i] < 1 || kernel[i] > limit || strides[i] < 1 || strides[i] > limit || pads[i] < 0 ||
        pads[i] > limit || pads[count + i] < 0 || pads[count + i] > limit) {
      return grtc_onnx_error(n, "kernel_shape, strides and pads of dimension %u are out of range",
                             i);
    }
    out.dims[2 + i] =
        (x->type.dims[2 + i] - 1) * strides[i] + kernel[i] - pads[i] - pads[count + i];
    if (out.dims[2 + i] < 0) {
      return grtc_onnx_error(n, "the output's dimension %u would be %lld", 2 + i,
                             (long long)out.dims[2 + i]);
    }
  }
  int64_t total = grtc_ttype_element_count(&out);
  if (total > (INT64_C(1) << 31)) {
    return grtc_onnx_unsupported(n, "an output of %lld elements", (long long)total);
  }
  int64_t in_count[1] = {grtc_ttype_element_count(&x->type)};
  grtc_tvalue_t* flat = grtc_onnx_scatter_flat(n, grtc_onnx_reshape(n, indices, 1, in_count),
                                               grtc_onnx_reshape(n, x, 1, in_count), total);
  grtc_tvalue_t* y = grtc_onnx_reshape(n, flat, out.rank, out.dims);
  // An output_shape places the unpooled tensor (the indices address it, in
  // the shape inferred from the attributes) at its start, zeros after.
  grtc_tvalue_t* shape = n->input_count > 2 ? n->inputs[2] : NULL;
  if (shape) {
    int64_t* dims = NULL;
    uint32_t dim_count = 0;
    if (!grtc_onnx_ints(n, shape, "input 'output_shape'", &dims, &dim_count)) {
      return grt_ok_status();
    }
    if (dim_count != rank || dims[0] != x->type.dims[0] || dims[1] != x->type.dims[1]) {
      return grtc_onnx_error(n, "output_shape must have %u values starting with N and C of %s",
                             rank, grtc_onnx_fmt(x, bx));
    }
    int64_t low[GRTC_MAX_RANK] = {0}, high[GRTC_MAX_RANK] = {0};
    for (uint32_t d = 2; d < rank; ++d) {
      if (dims[d] < out.dims[d] || dims[d] > limit) {
        return grtc_onnx_error(n,
                               "output_shape entry %u is %lld; expected at least %lld (the size "
                               "kernel_shape, strides and pads give)",
                               d, (long long)dims[d], (long long)out.dims[d]);
      }
      high[d] = dims[d] - out.dims[d];
    }
    y = grtc_onnx_pad(n, y, grtc_onnx_scalar(n, x->type.elem, 0), low, high);
  }
  OUT(0) = y;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// HannWindow, HammingWindow, BlackmanWindow
//===----------------------------------------------------------------------===//

static grt_status_t grtc_onnx_op_window(grtc_onnx_node_t* n) {
  const char* t = n->proto->op_type;
  // w[k] = a0 - a1 cos(2 pi k / N') + a2 cos(4 pi k / N'), N' = size when
  // periodic, size - 1 otherwise.
  double a0 = 0.5, a1 = 0.5, a2 = 0;
  if (strcmp(t, "HammingWindow") == 0) {
    a0 = 25.0 / 46.0;
    a1 = 1 - a0;
  } else if (strcmp(t, "BlackmanWindow") == 0) {
    a0 = 0.42;
    a1 = 0.5;
    a2 = 0.08;
  }
  grtc_tvalue_t* size_input = grtc_onnx_input(n, 0);
  int64_t* values = NULL;
  uint32_t count = 0;
  if (!grtc_onnx_ints(n, size_input, "input 'size'", &values, &count)) return grt_ok_status();
  if (count != 1 || values[0] < 0 || values[0] > (INT64_C(1) << 24)) {
    return grtc_onnx_unsupported(n, "input 'size' must be one value in [0, 2^24]");
  }
  int64_t size = values[0];
  grtc_elem_t elem;
  if (!grtc_onnx_elem(n, (int32_t)grtc_onnx_attr_int(n, "output_datatype", 1), &elem)) {
    return grt_ok_status();
  }
  if (elem == GRTC_ELEM_I1) return grtc_onnx_error(n, "output_datatype must be numeric");
  bool periodic = grtc_onnx_attr_int(n, "periodic", 1) != 0;
  double length = (double)(periodic ? size : size - 1);
  double* w = grtc_tmodule_alloc(n->module, (size_t)(size ? size : 1) * sizeof(double));
  if (!w) return grtc_onnx_error(n, "out of memory for a window of %lld", (long long)size);
  for (int64_t k = 0; k < size; ++k) {
    double angle = 2 * GRTC_ONNX_PI * (double)k / length;
    w[k] = a0 - a1 * cos(angle) + a2 * cos(2 * angle);
  }
  int64_t dims[1] = {size};
  grtc_ttype_t type = grtc_onnx_type(GRTC_ELEM_F64, 1, dims);
  OUT(0) = grtc_onnx_convert(
      n, grtc_onnx_constant(n, &type, w, (size_t)size * sizeof(double), false), elem);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// STFT
//===----------------------------------------------------------------------===//

// One value of constant integer input |index| (absent: false with no
// error, *out untouched).
static bool grtc_onnx_scalar_input(grtc_onnx_node_t* n, uint32_t index, const char* what,
                                   int64_t* out) {
  grtc_tvalue_t* v = index < n->input_count ? n->inputs[index] : NULL;
  if (!v) return false;
  int64_t* values = NULL;
  uint32_t count = 0;
  if (!grtc_onnx_ints(n, v, what, &values, &count)) return false;
  if (count != 1) {
    grt_status_free(grtc_onnx_error(n, "%s must hold one value, got %u", what, count));
    return false;
  }
  *out = values[0];
  return true;
}

// The frames (gathered, (batch, frames, L) per real/imaginary part) times
// the window, then the DFT of each as with DFT.
static grt_status_t grtc_onnx_op_stft(grtc_onnx_node_t* n) {
  grtc_tvalue_t* signal = grtc_onnx_input(n, 0);
  if (!grtc_onnx_expect_float(n, signal, "signal")) return grt_ok_status();
  char bs[GRTC_TTYPE_FORMAT_CAPACITY], bw[GRTC_TTYPE_FORMAT_CAPACITY];
  if (signal->type.rank != 3 || (signal->type.dims[2] != 1 && signal->type.dims[2] != 2)) {
    return grtc_onnx_error(n, "signal must have shape (batch, length, 1 or 2), got %s",
                           grtc_onnx_fmt(signal, bs));
  }
  int64_t step = 0, frame_length = -1;
  if (!grtc_onnx_scalar_input(n, 1, "input 'frame_step'", &step)) {
    if (grt_status_is_ok(n->status)) return grtc_onnx_error(n, "input 'frame_step' is required");
    return grt_ok_status();
  }
  grtc_tvalue_t* window = n->input_count > 2 ? n->inputs[2] : NULL;
  if (!grtc_onnx_scalar_input(n, 3, "input 'frame_length'", &frame_length) &&
      !grt_status_is_ok(n->status)) {
    return grt_ok_status();
  }
  if (window) {
    if (window->type.rank != 1 || (frame_length >= 0 && window->type.dims[0] != frame_length)) {
      return grtc_onnx_error(n, "window must have shape (frame_length), got %s",
                             grtc_onnx_fmt(window, bw));
    }
    frame_length = window->type.dims[0];
  }
  int64_t batch = signal->type.dims[0], length = signal->type.dims[1];
  int64_t parts = signal->type.dims[2];
  if (frame_length < 1 || frame_length > length || step < 1 || step > length) {
    return grtc_onnx_error(n,
                           "frame_length %lld and frame_step %lld must be in [1, %lld] (the "
                           "signal's length); a window or frame_length is required",
                           (long long)frame_length, (long long)step, (long long)length);
  }
  bool onesided = grtc_onnx_attr_int(n, "onesided", 1) != 0;
  int64_t frames = (length - frame_length) / step + 1;
  int64_t bins = onesided ? frame_length / 2 + 1 : frame_length;
  if (frame_length * bins > (INT64_C(1) << 24) || frames * frame_length > (INT64_C(1) << 28)) {
    return grtc_onnx_unsupported(n, "%lld frames of %lld samples", (long long)frames,
                                 (long long)frame_length);
  }
  grtc_elem_t elem = signal->type.elem;
  grtc_elem_t e = elem == GRTC_ELEM_F64 ? GRTC_ELEM_F64 : GRTC_ELEM_F32;
  // Row b * length + f * step + j of the signal as (batch * length, parts).
  int64_t rows_dims[2] = {batch * length, parts};
  grtc_tvalue_t* rows = grtc_onnx_reshape(n, grtc_onnx_convert(n, signal, e), 2, rows_dims);
  int64_t idx_dims[3] = {batch, frames, frame_length};
  grtc_ttype_t idx_type = grtc_onnx_type(GRTC_ELEM_I64, 3, idx_dims);
  grtc_tvalue_t* index = ADD(
      ADD(MUL(grtc_onnx_iota(n, &idx_type, 0), grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)length)),
          MUL(grtc_onnx_iota(n, &idx_type, 1), grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)step))),
      grtc_onnx_iota(n, &idx_type, 2));
  grtc_tvalue_t* framed = grtc_onnx_gather_rows(n, rows, index);  // (batch, frames, L, parts)
  if (window) {
    int64_t wdims[4] = {1, 1, frame_length, 1};
    framed = MUL(framed, grtc_onnx_reshape(n, grtc_onnx_convert(n, window, e), 4, wdims));
  }
  grtc_tvalue_t* part[2] = {NULL, NULL};
  int64_t start[4] = {0, 0, 0, 0}, limit[4] = {batch, frames, frame_length, 1};
  int64_t strides[4] = {1, 1, 1, 1};
  for (int64_t c = 0; c < parts; ++c) {
    start[3] = c;
    limit[3] = c + 1;
    part[c] = grtc_onnx_reshape(n, grtc_onnx_slice(n, framed, start, limit, strides), 3, idx_dims);
  }
  grtc_tvalue_t* cos_m =
      grtc_onnx_dft_matrix(n, e, frame_length, frame_length, bins, frame_length, false);
  grtc_tvalue_t* sin_m =
      grtc_onnx_dft_matrix(n, e, frame_length, frame_length, bins, frame_length, true);
  grtc_tvalue_t* re = grtc_onnx_matmul(n, part[0], cos_m);
  grtc_tvalue_t* im = grtc_onnx_unary(n, GRTC_TOP_NEGATE, grtc_onnx_matmul(n, part[0], sin_m));
  if (part[1]) {
    re = ADD(re, grtc_onnx_matmul(n, part[1], sin_m));
    im = ADD(im, grtc_onnx_matmul(n, part[1], cos_m));
  }
  grtc_tvalue_t* out[2] = {grtc_onnx_unsqueeze(n, re, 3), grtc_onnx_unsqueeze(n, im, 3)};
  OUT(0) = grtc_onnx_convert(n, grtc_onnx_concat(n, out, 2, 3), elem);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// TfIdfVectorizer
//===----------------------------------------------------------------------===//

// Limits on the attributes, so that the unrolled comparisons stay small.
#define GRTC_ONNX_TFIDF_MAX_GRAM 16
#define GRTC_ONNX_TFIDF_MAX_SKIP 256
#define GRTC_ONNX_TFIDF_MAX_OUTPUT (INT64_C(1) << 24)
#define GRTC_ONNX_TFIDF_MAX_LEVEL 8192

// The counts (B, C) of the pool's n-grams of size |size| (|count| of them
// from |pool|, their ids (0-based, into ngram_indexes) from |first_id|)
// in the rows of |x| (B, C), added into columns (B, out) by ngram_indexes.
// An n-gram matches at i with skip distance d when x[i + k d] = g[k]; for
// n > 1 every d in [1, max_skip + 1] counts, unigrams once.
static grtc_tvalue_t* grtc_onnx_tfidf_level(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                            const int64_t* pool, int64_t count, int64_t size,
                                            int64_t first_id, const int64_t* indexes, int64_t out,
                                            int64_t max_skip) {
  int64_t batch = x->type.dims[0], columns = x->type.dims[1];
  // Later copies of an n-gram replace earlier ones (the last id counts).
  int64_t* table = grtc_tmodule_alloc(n->module, (size_t)(count * size + 1) * sizeof(int64_t));
  float* map = grtc_tmodule_alloc(n->module, (size_t)(count * out + 1) * sizeof(float));
  if (!table || !map) {
    grt_status_free(grtc_onnx_error(n, "out of memory for %lld n-grams", (long long)count));
    return NULL;
  }
  int64_t kept = 0;
  for (int64_t g = 0; g < count; ++g) {
    bool later = false;
    for (int64_t h = g + 1; h < count && !later; ++h) {
      later = memcmp(pool + g * size, pool + h * size, (size_t)size * sizeof(int64_t)) == 0;
    }
    if (later) continue;
    memcpy(table + kept * size, pool + g * size, (size_t)size * sizeof(int64_t));
    map[kept * out + indexes[first_id + g]] = 1;
    ++kept;
  }
  int64_t table_dims[4] = {1, 1, kept, size};
  grtc_tvalue_t* t = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 4, table_dims, table);
  int64_t map_dims[2] = {kept, out};
  grtc_ttype_t map_type = grtc_onnx_type(GRTC_ELEM_F32, 2, map_dims);
  grtc_tvalue_t* m =
      grtc_onnx_constant(n, &map_type, map, (size_t)(kept * out) * sizeof(float), false);
  if ((double)batch * (double)columns * (double)kept * (double)size > (double)(INT64_C(1) << 31)) {
    grt_status_free(grtc_onnx_unsupported(n,
                                          "matching %lld %lld-grams against %lld x %lld values "
                                          "(over 2^31 comparisons per skip distance)",
                                          (long long)kept, (long long)size, (long long)batch,
                                          (long long)columns));
    return NULL;
  }
  grtc_tvalue_t* total = NULL;
  int64_t skips = size == 1 ? 1 : max_skip + 1;
  for (int64_t d = 1; d <= skips; ++d) {
    int64_t positions = columns - (size - 1) * d;
    if (positions <= 0) break;
    grtc_tvalue_t* parts[GRTC_ONNX_TFIDF_MAX_GRAM];
    for (int64_t k = 0; k < size; ++k) {
      int64_t start[2] = {0, k * d}, limit[2] = {batch, k * d + positions}, strides[2] = {1, 1};
      parts[k] = grtc_onnx_unsqueeze(n, grtc_onnx_slice(n, x, start, limit, strides), 2);
    }
    grtc_tvalue_t* windows = grtc_onnx_concat(n, parts, (uint32_t)size, 2);  // (B, P, n)
    grtc_tvalue_t* eq = grtc_onnx_compare(n, GRTC_CMP_EQ, grtc_onnx_unsqueeze(n, windows, 2), t);
    int64_t last[1] = {3};
    grtc_tvalue_t* all =
        grtc_onnx_reduce(n, eq, last, 1, GRTC_TOP_AND, grtc_onnx_scalar(n, GRTC_ELEM_I1, 1), false);
    grtc_tvalue_t* hits = grtc_onnx_sum_axis(n, grtc_onnx_convert(n, all, GRTC_ELEM_F32), 1, false);
    total = total ? ADD(total, hits) : hits;  // (B, kept)
  }
  if (!total || kept == 0) return NULL;
  return grtc_onnx_matmul(n, total, m);
}

static grt_status_t grtc_onnx_op_tfidf(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  char bx[GRTC_TTYPE_FORMAT_CAPACITY];
  if ((x->type.elem != GRTC_ELEM_I32 && x->type.elem != GRTC_ELEM_I64) || x->type.rank > 2) {
    return grtc_onnx_unsupported(
        n, "X must be an int32 or int64 tensor of shape [C] or [B, C], got %s",
        grtc_onnx_fmt(x, bx));
  }
  if (grtc_onnx_attr(n, "pool_strings")) {
    return grtc_onnx_unsupported(n, "string pools (attribute 'pool_strings')");
  }
  int64_t min_gram = grtc_onnx_attr_int(n, "min_gram_length", 0);
  int64_t max_gram = grtc_onnx_attr_int(n, "max_gram_length", 0);
  int64_t max_skip = grtc_onnx_attr_int(n, "max_skip_count", 0);
  const char* mode = grtc_onnx_attr_string(n, "mode", "");
  int64_t *counts = NULL, *indexes = NULL, *pool = NULL;
  uint32_t count_n = 0, index_n = 0, pool_n = 0;
  float* weights = NULL;
  uint32_t weight_n = 0;
  grtc_onnx_attr_ints(n, "ngram_counts", &counts, &count_n);
  grtc_onnx_attr_ints(n, "ngram_indexes", &indexes, &index_n);
  grtc_onnx_attr_ints(n, "pool_int64s", &pool, &pool_n);
  bool has_weights = grtc_onnx_attr_floats(n, "weights", &weights, &weight_n);
  if (!grt_status_is_ok(n->status)) return grt_ok_status();
  int weighting = strcmp(mode, "TF") == 0      ? 0
                  : strcmp(mode, "IDF") == 0   ? 1
                  : strcmp(mode, "TFIDF") == 0 ? 2
                                               : -1;
  if (weighting < 0) {
    return grtc_onnx_error(n, "attribute 'mode' must be TF, IDF or TFIDF; got \"%s\"", mode);
  }
  if (min_gram < 1 || max_gram < min_gram || max_gram > GRTC_ONNX_TFIDF_MAX_GRAM || max_skip < 0 ||
      max_skip > GRTC_ONNX_TFIDF_MAX_SKIP) {
    return grtc_onnx_error(n,
                           "min_gram_length %lld, max_gram_length %lld and max_skip_count %lld "
                           "must satisfy 1 <= min <= max <= %d and 0 <= skip <= %d",
                           (long long)min_gram, (long long)max_gram, (long long)max_skip,
                           GRTC_ONNX_TFIDF_MAX_GRAM, GRTC_ONNX_TFIDF_MAX_SKIP);
  }
  // ngram_counts[i]: where the n-grams of size i + 1 start in the pool.
  int64_t total_ngrams = 0;
  for (uint32_t i = 0; i < count_n; ++i) {
    int64_t end = i + 1 < count_n ? counts[i + 1] : (int64_t)pool_n;
    if (counts[i] < 0 || counts[i] > end || end > (int64_t)pool_n ||
        (end - counts[i]) % (int64_t)(i + 1) != 0) {
      return grtc_onnx_error(n,
                             "ngram_counts entry %u (%lld) does not start a whole number of "
                             "%u-grams in the pool of %u values",
                             i, (long long)counts[i], i + 1, pool_n);
    }
    total_ngrams += (end - counts[i]) / (int64_t)(i + 1);
  }
  if (index_n == 0 || (int64_t)index_n < total_ngrams) {
    return grtc_onnx_error(n, "ngram_indexes has %u values for the pool's %lld n-grams", index_n,
                           (long long)total_ngrams);
  }
  int64_t out = 0;
  for (uint32_t i = 0; i < index_n; ++i) {
    if (indexes[i] < 0 || indexes[i] >= GRTC_ONNX_TFIDF_MAX_OUTPUT) {
      return grtc_onnx_error(n, "ngram_indexes entry %u is %lld", i, (long long)indexes[i]);
    }
    if (indexes[i] + 1 > out) out = indexes[i] + 1;
  }
  if (has_weights && weighting != 0 && (int64_t)weight_n < out) {
    return grtc_onnx_error(n, "weights has %u values for an output of %lld", weight_n,
                           (long long)out);
  }
  int64_t batch = x->type.rank == 2 ? x->type.dims[0] : 1;
  int64_t columns = x->type.rank == 0 ? 1 : x->type.dims[x->type.rank - 1];
  int64_t rows_dims[2] = {batch, columns};
  grtc_tvalue_t* rows = grtc_onnx_reshape(n, grtc_onnx_convert(n, x, GRTC_ELEM_I64), 2, rows_dims);
  int64_t out_dims[2] = {batch, out};
  grtc_ttype_t out_type = grtc_onnx_type(GRTC_ELEM_F32, 2, out_dims);
  grtc_tvalue_t* y = grtc_onnx_splat(n, &out_type, 0);
  int64_t id = 0;
  for (uint32_t i = 0; i < count_n && y; ++i) {
    int64_t size = i + 1;
    int64_t end = i + 1 < count_n ? counts[i + 1] : (int64_t)pool_n;
    int64_t level = (end - counts[i]) / size;
    if (level > GRTC_ONNX_TFIDF_MAX_LEVEL) {
      return grtc_onnx_unsupported(n, "a pool of %lld %lld-grams (grt takes up to %d of a size)",
                                   (long long)level, (long long)size, GRTC_ONNX_TFIDF_MAX_LEVEL);
    }
    if (level > 0 && size >= min_gram && size <= max_gram) {
      grtc_tvalue_t* c =
          grtc_onnx_tfidf_level(n, rows, pool + counts[i], level, size, id, indexes, out, max_skip);
      if (c) y = ADD(y, c);
    }
    id += level;
  }
  if (weighting == 1) {
    grtc_tvalue_t* present = grtc_onnx_compare(n, GRTC_CMP_GT, y, grtc_onnx_splat_like(n, y, 0));
    y = grtc_onnx_convert(n, present, GRTC_ELEM_F32);
  }
  if (weighting != 0 && has_weights) {
    int64_t w_dims[1] = {out};
    grtc_ttype_t w_type = grtc_onnx_type(GRTC_ELEM_F32, 1, w_dims);
    y = MUL(y, grtc_onnx_constant(n, &w_type, weights, (size_t)out * sizeof(float), false));
  }
  OUT(0) = x->type.rank == 2 ? y : grtc_onnx_reshape(n, y, 1, &out);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// MelWeightMatrix
//===----------------------------------------------------------------------===//

// One value of constant floating-point input |index|.
static bool grtc_onnx_float_input(grtc_onnx_node_t* n, uint32_t index, const char* what,
                                  double* out) {
  double* values = NULL;
  uint32_t count = 0;
  grtc_tvalue_t* v = grtc_onnx_input(n, index);
  if (!v || !grtc_onnx_floats(n, v, what, &values, &count)) return false;
  if (count != 1) {
    grt_status_free(grtc_onnx_error(n, "%s must hold one value, got %u", what, count));
    return false;
  }
  *out = values[0];
  return true;
}

// Triangular filters between mel-spaced frequencies, computed here as the
// ONNX reference does: the edges in float, the bin positions in double.
static grt_status_t grtc_onnx_op_mel_weight_matrix(grtc_onnx_node_t* n) {
  int64_t mel_bins = 0, dft_length = 0, sample_rate = 0;
  double lower = 0, upper = 0;
  const char* names[3] = {"input 'num_mel_bins'", "input 'dft_length'", "input 'sample_rate'"};
  int64_t* ints[3] = {&mel_bins, &dft_length, &sample_rate};
  for (uint32_t i = 0; i < 3; ++i) {
    if (!grtc_onnx_input(n, i)) return grt_ok_status();
    if (!grtc_onnx_scalar_input(n, i, names[i], ints[i])) {
      if (grt_status_is_ok(n->status)) return grtc_onnx_error(n, "%s is required", names[i]);
      return grt_ok_status();
    }
  }
  if (!grtc_onnx_float_input(n, 3, "input 'lower_edge_hertz'", &lower) ||
      !grtc_onnx_float_input(n, 4, "input 'upper_edge_hertz'", &upper)) {
    return grt_ok_status();
  }
  if (mel_bins < 1 || mel_bins > 4096 || dft_length < 1 || dft_length > (1 << 20) ||
      sample_rate < 1) {
    return grtc_onnx_error(n,
                           "num_mel_bins %lld, dft_length %lld and sample_rate %lld must be in "
                           "[1, 4096], [1, 2^20] and [1, ...)",
                           (long long)mel_bins, (long long)dft_length, (long long)sample_rate);
  }
  grtc_elem_t elem;
  if (!grtc_onnx_elem(n, (int32_t)grtc_onnx_attr_int(n, "output_datatype", 1), &elem)) {
    return grt_ok_status();
  }
  int64_t spectrogram_bins = dft_length / 2 + 1;
  float low_mel = 2595.0f * log10f(1.0f + (float)lower / 700.0f);
  float high_mel = 2595.0f * log10f(1.0f + (float)upper / 700.0f);
  float mel_step = (high_mel - low_mel) / (float)(mel_bins + 2);
  int64_t* bins = grtc_tmodule_alloc(n->module, (size_t)(mel_bins + 2) * sizeof(int64_t));
  double* w = grtc_tmodule_alloc(n->module, (size_t)(spectrogram_bins * mel_bins) * sizeof(double));
  if (!bins || !w) return grtc_onnx_error(n, "out of memory");
  for (int64_t i = 0; i < mel_bins + 2; ++i) {
    double f = (double)i * (double)mel_step + (double)low_mel;
    f = 700 * (pow(10, f / 2595) - 1);
    double b = floor((double)(dft_length + 1) * f / (double)sample_rate);
    if (!(b >= -1e15 && b <= 1e15)) {
      return grtc_onnx_error(n, "the edges %g Hz and %g Hz give no finite frequency bins", lower,
                             upper);
    }
    bins[i] = (int64_t)b;
  }
  // The filters, each entry's bin checked as it is written.
  for (int64_t i = 0; i < mel_bins; ++i) {
    int64_t left = bins[i], center = bins[i + 1], right = bins[i + 2];
    for (int pass = 0; pass < 3; ++pass) {
      int64_t from = pass == 0 ? center : pass == 1 ? left : center;
      int64_t to = pass == 0 ? center : pass == 1 ? center : right - 1;
      if ((pass == 0) != (center == left)) continue;
      for (int64_t j = from; j <= to; ++j) {
        if (j < 0 || j >= spectrogram_bins) {
          return grtc_onnx_error(n,
                                 "mel filter %lld reaches frequency bin %lld, outside the %lld "
                                 "bins of a %lld-point DFT (check the edge frequencies)",
                                 (long long)i, (long long)j, (long long)spectrogram_bins,
                                 (long long)dft_length);
        }
        w[j * mel_bins + i] = pass == 0   ? 1
                              : pass == 1 ? (double)(j - left) / (double)(center - left)
                                          : (double)(right - j) / (double)(right - center);
      }
    }
  }
  int64_t dims[2] = {spectrogram_bins, mel_bins};
  grtc_ttype_t type = grtc_onnx_type(GRTC_ELEM_F64, 2, dims);
  OUT(0) = grtc_onnx_convert(
      n,
      grtc_onnx_constant(n, &type, w, (size_t)(spectrogram_bins * mel_bins) * sizeof(double),
                         false),
      elem);
  return grt_ok_status();
}

const grtc_onnx_op_def_t grtc_onnx_special_ops[] = {
    {"NegativeLogLikelihoodLoss", grtc_onnx_op_nll_loss, 2, 3, 1, 1, 12},
    {"SoftmaxCrossEntropyLoss", grtc_onnx_op_sce_loss, 2, 3, 1, 2, 12},
    {"Shrink", grtc_onnx_op_shrink, 1, 1, 1, 1, 9},
    {"GridSample", grtc_onnx_op_grid_sample, 2, 2, 1, 1, 16},
    {"Det", grtc_onnx_op_det, 1, 1, 1, 1, 11},
    {"RoiAlign", grtc_onnx_op_roi_align, 3, 3, 1, 1, 10},
    {"MaxUnpool", grtc_onnx_op_max_unpool, 2, 3, 1, 1, 9},
    {"HannWindow", grtc_onnx_op_window, 1, 1, 1, 1, 17},
    {"HammingWindow", grtc_onnx_op_window, 1, 1, 1, 1, 17},
    {"BlackmanWindow", grtc_onnx_op_window, 1, 1, 1, 1, 17},
    {"DFT", grtc_onnx_op_dft, 1, 3, 1, 1, 17},
    {"STFT", grtc_onnx_op_stft, 2, 4, 1, 1, 17},
    {"TfIdfVectorizer", grtc_onnx_op_tfidf, 1, 1, 1, 1, 9},
    {"MelWeightMatrix", grtc_onnx_op_mel_weight_matrix, 5, 5, 1, 1, 17},
    {NULL, NULL, 0, 0, 0, 0, 0},
};
