// ONNX ops: losses, signal windows, sampling and the other ops of one kind each.
#include <math.h>
#include <string.h>

#include "compiler/onnx/internal.h"

#define OUT(i) (n->outputs[i])
#define ADD(a, b) grtc_onnx_binary(n, GRTC_TOP_ADD, (a), (b))
#define SUB(a, b) grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, (a), (b))
#define MUL(a, b) grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, (a), (b))
#define DIV(a, b) grtc_onnx_binary(n, GRTC_TOP_DIVIDE, (a), (b))

static const char* grtc_onnx_fmt(const grtc_tvalue_t* x, char* buffer) {
  return grtc_ttype_format(&x->type, buffer, GRTC_TTYPE_FORMAT_CAPACITY);
}

// |x| is a floating-point tensor, or an error naming |what|.
static bool grtc_onnx_expect_float(grtc_onnx_node_t* n, grtc_tvalue_t* x, const char* what) {
  if (!x) return false;
  if (grtc_elem_is_float(x->type.elem)) return true;
  char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
  grt_status_free(grtc_onnx_error(n, "%s must be a floating-point tensor, got %s", what,
                                  grtc_onnx_fmt(x, buffer)));
  return false;
}

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
  if (weight && (weight->type.elem != elem || weight->type.rank != 1 ||
                 weight->type.dims[0] != classes)) {
    grt_status_free(grtc_onnx_error(n, "weight must be a tensor of shape (C) = (%lld) like input "
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
  grtc_tvalue_t* mask =
      grtc_onnx_compare(n, GRTC_CMP_EQ, grtc_onnx_iota(n, &iota_type, 1), t1);
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
  OUT(0) = grtc_onnx_nll(n, x, grtc_onnx_input(n, 1), weight);
  return grt_ok_status();
}

// log(softmax(x)) along |axis|, computed as (x - max) - log(sum(exp(x - max))).
static grtc_tvalue_t* grtc_onnx_log_softmax(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t axis) {
  if (!x) return NULL;
  int64_t axes[1] = {axis};
  grtc_tvalue_t* m = grtc_onnx_reduce(n, x, axes, 1, GRTC_TOP_MAXIMUM,
                                      grtc_onnx_scalar(n, x->type.elem, -INFINITY), true);
  grtc_tvalue_t* shifted = SUB(x, m);
  grtc_tvalue_t* s = grtc_onnx_sum_axis(n, grtc_onnx_unary(n, GRTC_TOP_EXPONENTIAL, shifted),
                                        axis, true);
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
  // Integers compare and shift in f64 (exact for them up to 2^53), then
  // convert back.
  grtc_elem_t elem = x->type.elem;
  grtc_elem_t calc = grtc_elem_is_float(elem) ? elem : GRTC_ELEM_F64;
  grtc_tvalue_t* v = grtc_onnx_convert(n, x, calc);
  grtc_tvalue_t* lo = grtc_onnx_compare(n, GRTC_CMP_LT, v, grtc_onnx_scalar(n, calc, -lambd));
  grtc_tvalue_t* hi = grtc_onnx_compare(n, GRTC_CMP_GT, v, grtc_onnx_scalar(n, calc, lambd));
  grtc_tvalue_t* b = grtc_onnx_scalar(n, calc, bias);
  grtc_tvalue_t* y = grtc_onnx_select(n, lo, ADD(v, b),
                                      grtc_onnx_select(n, hi, SUB(v, b),
                                                       grtc_onnx_splat_like(n, v, 0)));
  OUT(0) = grtc_onnx_convert(n, y, elem);
  return grt_ok_status();
}

const grtc_onnx_op_def_t grtc_onnx_special_ops[] = {
    {"NegativeLogLikelihoodLoss", grtc_onnx_op_nll_loss, 2, 3, 1, 1, 12},
    {"SoftmaxCrossEntropyLoss", grtc_onnx_op_sce_loss, 2, 3, 1, 2, 12},
    {"Shrink", grtc_onnx_op_shrink, 1, 1, 1, 1, 9},
    {NULL, NULL, 0, 0, 0, 0, 0},
};
