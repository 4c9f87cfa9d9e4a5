// ONNX ops: reductions, Softmax, LogSoftmax, Hardmax, ArgMax/ArgMin, TopK,
// CumSum.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compiler/onnx/internal.h"


// The lowest (|highest| false) or highest value of |elem| as a rank-0
// constant: -inf/+inf for floats, the integer type's bounds otherwise.
static grtc_tvalue_t* grtc_onnx_extreme(grtc_onnx_node_t* n, grtc_elem_t elem, bool highest) {
  if (grtc_elem_is_float(elem)) return grtc_onnx_scalar(n, elem, highest ? INFINITY : -INFINITY);
  uint32_t bits = grtc_elem_bit_width(elem);
  int64_t value = 0;
  if (elem == GRTC_ELEM_I1) {
    value = highest ? 1 : 0;
  } else if (grtc_elem_is_unsigned_integer(elem)) {
    // ui64's highest is all ones: -1 stored into 64 bits.
    value = highest ? (bits == 64 ? -1 : (int64_t)((UINT64_C(1) << bits) - 1)) : 0;
  } else {
    value = highest      ? (int64_t)((UINT64_C(1) << (bits - 1)) - 1)
            : bits == 64 ? INT64_MIN
                         : -(int64_t)(UINT64_C(1) << (bits - 1));
  }
  return grtc_onnx_const_ints(n, elem, 0, NULL, &value);
}

static bool grtc_onnx_expect_numeric(grtc_onnx_node_t* n, grtc_tvalue_t* x, bool float_only) {
  if (!x) return false;
  bool ok = float_only ? grtc_elem_is_float(x->type.elem) : x->type.elem != GRTC_ELEM_I1;
  if (ok) return true;
  char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
  grt_status_free(grtc_onnx_error(n, "expected a %s tensor, got %s",
                                  float_only ? "floating-point" : "numeric",
                                  grtc_onnx_fmt(x, buffer)));
  return false;
}

// Sums of 16-bit floats accumulate in f32: the element type to compute in.
static grtc_elem_t grtc_onnx_accumulator(grtc_elem_t elem) {
  return elem == GRTC_ELEM_F16 || elem == GRTC_ELEM_BF16 ? GRTC_ELEM_F32 : elem;
}

// x reduced with keepdims over one axis (for softmax-like ops).
static grtc_tvalue_t* grtc_onnx_reduce_axis(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t axis,
                                            grtc_top_kind_t kind, grtc_tvalue_t* init) {
  int64_t axes[1] = {axis};
  return grtc_onnx_reduce(n, x, axes, 1, kind, init, true);
}

//===----------------------------------------------------------------------===//
// Reduce*
//===----------------------------------------------------------------------===//

typedef enum grtc_onnx_reduction_e {
  GRTC_ONNX_REDUCE_SUM,
  GRTC_ONNX_REDUCE_MEAN,
  GRTC_ONNX_REDUCE_MAX,
  GRTC_ONNX_REDUCE_MIN,
  GRTC_ONNX_REDUCE_PROD,
  GRTC_ONNX_REDUCE_L1,
  GRTC_ONNX_REDUCE_L2,
  GRTC_ONNX_REDUCE_LOG_SUM,
  GRTC_ONNX_REDUCE_LOG_SUM_EXP,
  GRTC_ONNX_REDUCE_SUM_SQUARE,
} grtc_onnx_reduction_t;

typedef struct grtc_onnx_reduce_row_t {
  const char* op_type;
  grtc_onnx_reduction_t reduction;
  int axes_input_since;  // the opset from which axes is an input
} grtc_onnx_reduce_row_t;

static const grtc_onnx_reduce_row_t grtc_onnx_reduce_rows[] = {
    {"ReduceSum", GRTC_ONNX_REDUCE_SUM, 13},
    {"ReduceMean", GRTC_ONNX_REDUCE_MEAN, 18},
    {"ReduceMax", GRTC_ONNX_REDUCE_MAX, 18},
    {"ReduceMin", GRTC_ONNX_REDUCE_MIN, 18},
    {"ReduceProd", GRTC_ONNX_REDUCE_PROD, 18},
    {"ReduceL1", GRTC_ONNX_REDUCE_L1, 18},
    {"ReduceL2", GRTC_ONNX_REDUCE_L2, 18},
    {"ReduceLogSum", GRTC_ONNX_REDUCE_LOG_SUM, 18},
    {"ReduceLogSumExp", GRTC_ONNX_REDUCE_LOG_SUM_EXP, 18},
    {"ReduceSumSquare", GRTC_ONNX_REDUCE_SUM_SQUARE, 18},
};

static grt_status_t grtc_onnx_op_reduce(grtc_onnx_node_t* n) {
  const grtc_onnx_reduce_row_t* row = NULL;
  for (size_t i = 0; i < sizeof(grtc_onnx_reduce_rows) / sizeof(grtc_onnx_reduce_rows[0]); ++i) {
    if (strcmp(grtc_onnx_reduce_rows[i].op_type, n->proto->op_type) == 0) {
      row = &grtc_onnx_reduce_rows[i];
    }
  }
  if (!row) return grtc_onnx_error(n, "no reduction row");
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  // ReduceMax and ReduceMin take bool tensors too (opset 20).
  bool extremum = row->reduction == GRTC_ONNX_REDUCE_MAX || row->reduction == GRTC_ONNX_REDUCE_MIN;
  if (!(x && extremum && x->type.elem == GRTC_ELEM_I1) && !grtc_onnx_expect_numeric(n, x, false)) {
    return grt_ok_status();
  }
  uint32_t rank = x->type.rank;
  bool keepdims = grtc_onnx_attr_int(n, "keepdims", 1) != 0;
  bool noop_with_empty_axes = grtc_onnx_attr_int(n, "noop_with_empty_axes", 0) != 0;
  int64_t* raw = NULL;
  uint32_t raw_count = 0;
  if (n->opset >= row->axes_input_since) {
    if (grtc_onnx_attr(n, "axes")) {
      return grtc_onnx_error(n, "from opset %d on, axes is an input, not an attribute",
                             row->axes_input_since);
    }
    // An empty axes tensor needs no values (it may be a graph input).
    grtc_tvalue_t* axes_input = n->input_count > 1 ? n->inputs[1] : NULL;
    if (axes_input && grtc_ttype_element_count(&axes_input->type) > 0 &&
        !grtc_onnx_ints(n, axes_input, "input 'axes'", &raw, &raw_count)) {
      return grt_ok_status();
    }
  } else {
    if (n->input_count > 1) {
      return grtc_onnx_error(n, "before opset %d, axes is an attribute; got %u inputs",
                             row->axes_input_since, n->input_count);
    }
    grtc_onnx_attr_ints(n, "axes", &raw, &raw_count);
  }
  if (raw_count == 0 && noop_with_empty_axes) {
    OUT(0) = x;
    return grt_ok_status();
  }
  int64_t axes[GRTC_MAX_RANK];
  uint32_t count = 0;
  bool seen[GRTC_MAX_RANK] = {false};
  if (raw_count == 0) {
    for (uint32_t d = 0; d < rank; ++d) axes[count++] = d;
  } else {
    for (uint32_t i = 0; i < raw_count; ++i) {
      uint32_t axis = 0;
      if (!grtc_onnx_axis(n, "axes", raw[i], rank, &axis)) return grt_ok_status();
      if (seen[axis]) return grtc_onnx_error(n, "axis %lld is repeated in axes", (long long)raw[i]);
      seen[axis] = true;
    }
    for (uint32_t d = 0; d < rank; ++d) {
      if (seen[d]) axes[count++] = d;
    }
  }
  grtc_elem_t out_elem = x->type.elem;
  if (!extremum) x = grtc_onnx_convert(n, x, grtc_onnx_accumulator(out_elem));
  if (!x) return grt_ok_status();
  grtc_elem_t elem = x->type.elem;
  grtc_tvalue_t* zero = grtc_onnx_scalar(n, elem, 0);
  grtc_tvalue_t* result = NULL;
  switch (row->reduction) {
    case GRTC_ONNX_REDUCE_SUM:
      result = grtc_onnx_reduce(n, x, axes, count, GRTC_TOP_ADD, zero, keepdims);
      break;
    case GRTC_ONNX_REDUCE_MEAN: {
      // The count: the static sizes' product, times the symbolic extents
      // read at run time.
      int64_t elements = 1;
      grtc_tvalue_t* extents = NULL;
      for (uint32_t i = 0; i < count; ++i) {
        if (grtc_dim_is_static(x->type.dims[axes[i]])) {
          elements *= x->type.dims[axes[i]];
          continue;
        }
        grtc_tvalue_t* extent =
            grtc_onnx_convert(n, grtc_onnx_dimension_size(n, x, (uint32_t)axes[i]), elem);
        extents = extents ? MUL(extents, extent) : extent;
      }
      result = grtc_onnx_reduce(n, x, axes, count, GRTC_TOP_ADD, zero, keepdims);
      result = DIV(result, extents ? MUL(grtc_onnx_scalar(n, elem, (double)elements), extents)
                                   : grtc_onnx_splat_like(n, result, (double)elements));
      break;
    }
    case GRTC_ONNX_REDUCE_MAX:
      result =
          grtc_onnx_reduce(n, x, axes, count, elem == GRTC_ELEM_I1 ? GRTC_TOP_OR : GRTC_TOP_MAXIMUM,
                           grtc_onnx_extreme(n, elem, false), keepdims);
      break;
    case GRTC_ONNX_REDUCE_MIN:
      result = grtc_onnx_reduce(n, x, axes, count,
                                elem == GRTC_ELEM_I1 ? GRTC_TOP_AND : GRTC_TOP_MINIMUM,
                                grtc_onnx_extreme(n, elem, true), keepdims);
      break;
    case GRTC_ONNX_REDUCE_PROD:
      result = grtc_onnx_reduce(n, x, axes, count, GRTC_TOP_MULTIPLY, grtc_onnx_scalar(n, elem, 1),
                                keepdims);
      break;
    case GRTC_ONNX_REDUCE_L1:
      result = grtc_onnx_reduce(n, grtc_onnx_unary(n, GRTC_TOP_ABS, x), axes, count, GRTC_TOP_ADD,
                                zero, keepdims);
      break;
    case GRTC_ONNX_REDUCE_SUM_SQUARE:
    case GRTC_ONNX_REDUCE_L2:
      result = grtc_onnx_reduce(n, MUL(x, x), axes, count, GRTC_TOP_ADD, zero, keepdims);
      if (row->reduction == GRTC_ONNX_REDUCE_L2) {
        if (grtc_elem_is_float(elem)) {
          result = grtc_onnx_unary(n, GRTC_TOP_SQRT, result);
        } else {
          // Integer L2: the square root in f64, truncated as numpy's cast.
          result = grtc_onnx_convert(
              n, grtc_onnx_unary(n, GRTC_TOP_SQRT, grtc_onnx_convert(n, result, GRTC_ELEM_F64)),
              elem);
        }
      }
      break;
    case GRTC_ONNX_REDUCE_LOG_SUM:
      if (!grtc_onnx_expect_numeric(n, x, true)) return grt_ok_status();
      result = grtc_onnx_unary(n, GRTC_TOP_LOG,
                               grtc_onnx_reduce(n, x, axes, count, GRTC_TOP_ADD, zero, keepdims));
      break;
    case GRTC_ONNX_REDUCE_LOG_SUM_EXP: {
      if (!grtc_onnx_expect_numeric(n, x, true)) return grt_ok_status();
      // log(sum(exp(x - m))) + m with m the max (0 where it is infinite).
      grtc_tvalue_t* m = grtc_onnx_reduce(n, x, axes, count, GRTC_TOP_MAXIMUM,
                                          grtc_onnx_extreme(n, elem, false), true);
      grtc_tvalue_t* finite = NULL;
      if (m) {
        grtc_ttype_t type = m->type;
        type.elem = GRTC_ELEM_I1;
        finite = grtc_onnx_op(n, GRTC_TOP_IS_FINITE, &m, 1, &type);
      }
      m = grtc_onnx_select(n, finite, m, grtc_onnx_splat_like(n, m, 0));
      grtc_tvalue_t* s = grtc_onnx_reduce(n, grtc_onnx_unary(n, GRTC_TOP_EXPONENTIAL, SUB(x, m)),
                                          axes, count, GRTC_TOP_ADD, zero, true);
      result = ADD(grtc_onnx_unary(n, GRTC_TOP_LOG, s), m);
      if (!keepdims && result) {
        grtc_ttype_t kept = grtc_onnx_type(elem, 0, NULL);
        uint32_t next = 0;
        for (uint32_t d = 0; d < rank; ++d) {
          if (next < count && axes[next] == (int64_t)d) {
            ++next;
          } else {
            kept.dims[kept.rank++] = x->type.dims[d];
          }
        }
        result = grtc_onnx_reshape(n, result, kept.rank, kept.dims);
      }
      break;
    }
  }
  OUT(0) = grtc_onnx_convert(n, result, out_elem);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Softmax, LogSoftmax, Hardmax
//===----------------------------------------------------------------------===//

// The index (i64, keepdims) of the first (or last) maximum (or minimum)
// along |axis|: the positions equal to the extreme (NaN counting as equal,
// as numpy's argmax finds the first NaN), then the least (or greatest) of
// their iota indices.
static grtc_tvalue_t* grtc_onnx_arg_extreme(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t axis,
                                            bool max, bool last) {
  if (!x) return NULL;
  grtc_elem_t elem = x->type.elem;
  grtc_tvalue_t* m = grtc_onnx_reduce_axis(n, x, axis, max ? GRTC_TOP_MAXIMUM : GRTC_TOP_MINIMUM,
                                           grtc_onnx_extreme(n, elem, !max));
  grtc_tvalue_t* hit = grtc_onnx_compare(n, GRTC_CMP_EQ, x, m);
  if (grtc_elem_is_float(elem)) {
    hit = grtc_onnx_binary(n, GRTC_TOP_OR, hit, grtc_onnx_compare(n, GRTC_CMP_NE, x, x));
  }
  grtc_ttype_t index_type = x->type;
  index_type.elem = GRTC_ELEM_I64;
  grtc_tvalue_t* iota = grtc_onnx_iota(n, &index_type, axis);
  // Positions that miss hold an index the reduction never picks.
  double miss = last ? -1.0 : (double)x->type.dims[axis];
  grtc_tvalue_t* candidates = grtc_onnx_select(n, hit, iota, grtc_onnx_splat(n, &index_type, miss));
  return grtc_onnx_reduce_axis(n, candidates, axis, last ? GRTC_TOP_MAXIMUM : GRTC_TOP_MINIMUM,
                               grtc_onnx_scalar(n, GRTC_ELEM_I64, miss));
}

typedef enum grtc_onnx_softmax_kind_e {
  GRTC_ONNX_SOFTMAX,
  GRTC_ONNX_LOG_SOFTMAX,
  GRTC_ONNX_HARDMAX,
} grtc_onnx_softmax_kind_t;

static grt_status_t grtc_onnx_op_softmax(grtc_onnx_node_t* n) {
  const char* t = n->proto->op_type;
  grtc_onnx_softmax_kind_t kind = strcmp(t, "LogSoftmax") == 0 ? GRTC_ONNX_LOG_SOFTMAX
                                  : strcmp(t, "Hardmax") == 0  ? GRTC_ONNX_HARDMAX
                                                               : GRTC_ONNX_SOFTMAX;
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!grtc_onnx_expect_numeric(n, x, true)) return grt_ok_status();
  bool coerce = n->opset < 13;
  int64_t axis_attr = grtc_onnx_attr_int(n, "axis", coerce ? 1 : -1);
  uint32_t rank = x->type.rank;
  if (rank == 0) return grtc_onnx_error(n, "expected a tensor of rank 1 or more, got a scalar");
  uint32_t axis = 0;
  if (!grtc_onnx_axis(n, "axis", axis_attr, rank, &axis)) return grt_ok_status();
  grtc_tvalue_t* v = x;
  if (coerce) {
    // Before opset 13: the input is seen as 2-D [prod(dims[:axis]),
    // prod(dims[axis:])] and the op works along dimension 1.
    int64_t flat[2] = {1, 1};
    for (uint32_t side = 0; side < 2; ++side) {
      uint32_t from = side ? axis : 0, to = side ? rank : axis;
      if (grtc_onnx_merged_dim(&x->type, from, to, &flat[side])) continue;
      for (uint32_t d = from; d < to; ++d) {
        if (grtc_dim_is_static(x->type.dims[d])) continue;
        return grtc_onnx_symbolic_error(n, 0, d, x->type.dims[d],
                                        "before opset 13 the op flattens its input to 2-D, and "
                                        "grt keeps a symbolic dimension only as a dimension of "
                                        "its own");
      }
    }
    v = grtc_onnx_reshape(n, x, 2, flat);
    axis = 1;
  }
  if (!v) return grt_ok_status();
  grtc_elem_t elem = v->type.elem;
  grtc_tvalue_t* result = NULL;
  if (kind == GRTC_ONNX_HARDMAX) {
    grtc_tvalue_t* index = grtc_onnx_arg_extreme(n, v, axis, true, false);
    grtc_ttype_t index_type = v->type;
    index_type.elem = GRTC_ELEM_I64;
    grtc_tvalue_t* iota = grtc_onnx_iota(n, &index_type, axis);
    result = grtc_onnx_convert(n, grtc_onnx_compare(n, GRTC_CMP_EQ, iota, index), elem);
  } else {
    v = grtc_onnx_convert(n, v, grtc_onnx_accumulator(elem));
    if (!v) return grt_ok_status();
    grtc_elem_t wide = v->type.elem;
    grtc_tvalue_t* m =
        grtc_onnx_reduce_axis(n, v, axis, GRTC_TOP_MAXIMUM, grtc_onnx_extreme(n, wide, false));
    grtc_tvalue_t* shifted = SUB(v, m);
    grtc_tvalue_t* e = grtc_onnx_unary(n, GRTC_TOP_EXPONENTIAL, shifted);
    grtc_tvalue_t* s =
        grtc_onnx_reduce_axis(n, e, axis, GRTC_TOP_ADD, grtc_onnx_scalar(n, wide, 0));
    result =
        kind == GRTC_ONNX_SOFTMAX ? DIV(e, s) : SUB(shifted, grtc_onnx_unary(n, GRTC_TOP_LOG, s));
    result = grtc_onnx_convert(n, result, elem);
  }
  if (coerce) result = grtc_onnx_reshape(n, result, rank, x->type.dims);
  OUT(0) = result;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// ArgMax, ArgMin
//===----------------------------------------------------------------------===//

static grt_status_t grtc_onnx_op_arg(grtc_onnx_node_t* n) {
  bool max = strcmp(n->proto->op_type, "ArgMax") == 0;
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!grtc_onnx_expect_numeric(n, x, false)) return grt_ok_status();
  if (x->type.rank == 0) return grtc_onnx_error(n, "expected a tensor of rank 1 or more");
  uint32_t axis = 0;
  if (!grtc_onnx_axis(n, "axis", grtc_onnx_attr_int(n, "axis", 0), x->type.rank, &axis)) {
    return grt_ok_status();
  }
  bool keepdims = grtc_onnx_attr_int(n, "keepdims", 1) != 0;
  bool last = grtc_onnx_attr_int(n, "select_last_index", 0) != 0;
  if (x->type.dims[axis] == 0) {
    return grtc_onnx_error(n, "%s of an empty axis %u", n->proto->op_type, axis);
  }
  grtc_tvalue_t* index = grtc_onnx_arg_extreme(n, x, axis, max, last);
  if (!keepdims && index) {
    grtc_ttype_t type = grtc_onnx_type(GRTC_ELEM_I64, 0, NULL);
    for (uint32_t d = 0; d < x->type.rank; ++d) {
      if (d != axis) type.dims[type.rank++] = x->type.dims[d];
    }
    index = grtc_onnx_reshape(n, index, type.rank, type.dims);
  }
  OUT(0) = index;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// TopK
//===----------------------------------------------------------------------===//

// Reverses the order of |x|'s values: negation for floats, bitwise not
// (~v = -v - 1, no overflow) for integers.
static grtc_tvalue_t* grtc_onnx_order_flip(grtc_onnx_node_t* n, grtc_tvalue_t* x) {
  if (!x) return NULL;
  return grtc_onnx_unary(n, grtc_elem_is_float(x->type.elem) ? GRTC_TOP_NEGATE : GRTC_TOP_NOT, x);
}

// The axis (TopK's attribute, of |x|) in |*axis| and the permutation that
// swaps it with the last in |perm|. False after an error.
static bool grtc_onnx_top_k_axis(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t* axis,
                                 int64_t* perm) {
  uint32_t rank = x->type.rank;
  if (rank == 0) return grtc_onnx_fail(n, grtc_onnx_error(n, "expected a tensor of rank 1 or more"));
  if (!grtc_onnx_axis(n, "axis", grtc_onnx_attr_int(n, "axis", -1), rank, axis)) return false;
  for (uint32_t d = 0; d < rank; ++d) perm[d] = d;
  perm[*axis] = rank - 1;
  perm[rank - 1] = *axis;
  return true;
}

// TopK whose K a graph input's data gives (a one-element int64 or int32
// tensor): the values sorted whole along the axis (a top_k of the axis's
// size d), then their first K by a real_dynamic_slice whose limit is K,
// read at the call. A K outside [0, d] fails the call, naming the node
// and the input.
static grt_status_t grtc_onnx_top_k_from_data(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                              grtc_tvalue_t* given) {
  uint32_t rank = x->type.rank;
  uint32_t axis = 0;
  int64_t perm[GRTC_MAX_RANK];
  if (!grtc_onnx_top_k_axis(n, x, &axis, perm)) return grt_ok_status();
  int64_t size = x->type.dims[axis];  // static: TopK takes static inputs only
  bool largest = grtc_onnx_attr_int(n, "largest", 1) != 0;
  (void)grtc_onnx_attr_int(n, "sorted", 1);
  grtc_tvalue_t* k = grtc_onnx_reshape(n, given, 0, NULL);
  if (k && k->type.elem != GRTC_ELEM_I64) k = grtc_onnx_convert(n, k, GRTC_ELEM_I64);
  grtc_tvalue_t* zero = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 0, NULL, &(int64_t){0});
  grtc_tvalue_t* most = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 0, NULL, &size);
  char what[160];
  snprintf(what, sizeof(what), "input 'K' ('%s')", n->proto->input[1]);
  grtc_onnx_check_range_at_call(n, k, zero, most, what);
  // Clamped, so the extent is safe before the check runs.
  k = grtc_onnx_binary(n, GRTC_TOP_MAXIMUM, grtc_onnx_binary(n, GRTC_TOP_MINIMUM, k, most), zero);
  grtc_tvalue_t* v = grtc_onnx_transpose(n, x, perm);
  if (!largest) v = grtc_onnx_order_flip(n, v);
  if (!v || !k) return grt_ok_status();
  grtc_ttype_t results[2] = {v->type, v->type};
  results[1].elem = GRTC_ELEM_I64;
  grtc_tvalue_t* outs[2] = {NULL, NULL};
  GRT_RETURN_IF_ERROR(grtc_onnx_chlo(n, "chlo.top_k", &v, 1, results, 2, size, outs));
  if (!outs[0]) return grt_ok_status();
  for (uint32_t i = 0; i < 2 && i < n->output_count; ++i) {
    int64_t dims[GRTC_MAX_RANK], bounds[2 * GRTC_MAX_RANK];
    grtc_tvalue_t* limits[GRTC_MAX_RANK];
    for (uint32_t d = 0; d < rank; ++d) {
      dims[d] = outs[i]->type.dims[d];
      limits[d] = grtc_onnx_dimension_size(n, outs[i], d);
      bounds[d] = 0;
      bounds[rank + d] = 1;
    }
    int64_t constant = 0;
    dims[rank - 1] = grtc_tvalue_shape_element(k, 0, &constant) ? constant : GRTC_ONNX_COMPUTED_DIM;
    limits[rank - 1] = k;
    grtc_tvalue_t* first = grtc_onnx_dynamic_computed(n, GRTC_TOP_REAL_DYNAMIC_SLICE, outs[i],
                                                      rank, dims, limits, bounds);
    if (i == 0 && !largest) first = grtc_onnx_order_flip(n, first);
    OUT(i) = grtc_onnx_transpose(n, first, perm);
  }
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_top_k(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!grtc_onnx_expect_numeric(n, x, false)) return grt_ok_status();
  int64_t k = 0;
  if (n->opset < 10) {
    if (!grtc_onnx_attr(n, "k")) return grtc_onnx_error(n, "attribute 'k' is required");
    k = grtc_onnx_attr_int(n, "k", 0);
  } else {
    grtc_tvalue_t* given = grtc_onnx_input(n, 1);
    if (!given) return grt_ok_status();
    if (!grtc_onnx_is_constant(given)) {
      const grtc_sexpr_t* expr = NULL;
      if (grtc_ttype_element_count(&given->type) == 1 && given->type.rank <= 1 &&
          (given->type.elem == GRTC_ELEM_I64 || given->type.elem == GRTC_ELEM_I32) &&
          grtc_tvalue_shape_expr_data(n->module, given, 0, &expr) &&
          grtc_sexpr_reads_data(expr)) {
        return grtc_onnx_top_k_from_data(n, x, given);
      }
    }
    int64_t* values = NULL;
    uint32_t count = 0;
    if (!grtc_onnx_ints(n, given, "input 'K'", &values, &count)) {
      return grt_ok_status();
    }
    if (count != 1) return grtc_onnx_error(n, "input 'K' must hold one value, got %u", count);
    k = values[0];
  }
  uint32_t rank = x->type.rank;
  uint32_t axis = 0;
  int64_t perm[GRTC_MAX_RANK];
  if (!grtc_onnx_top_k_axis(n, x, &axis, perm)) return grt_ok_status();
  if (k < 0 || k > x->type.dims[axis]) {
    return grtc_onnx_error(n, "K = %lld must be between 0 and the axis size %lld", (long long)k,
                           (long long)x->type.dims[axis]);
  }
  bool largest = grtc_onnx_attr_int(n, "largest", 1) != 0;
  // sorted=0 leaves the order unspecified; the sorted order is one.
  (void)grtc_onnx_attr_int(n, "sorted", 1);
  grtc_tvalue_t* v = grtc_onnx_transpose(n, x, perm);
  if (!largest) v = grtc_onnx_order_flip(n, v);
  if (!v) return grt_ok_status();
  grtc_ttype_t results[2] = {v->type, v->type};
  results[0].dims[rank - 1] = k;
  results[1].dims[rank - 1] = k;
  results[1].elem = GRTC_ELEM_I64;
  grtc_tvalue_t* outs[2] = {NULL, NULL};
  GRT_RETURN_IF_ERROR(grtc_onnx_chlo(n, "chlo.top_k", &v, 1, results, 2, k, outs));
  if (!outs[0]) return grt_ok_status();
  grtc_tvalue_t* values = largest ? outs[0] : grtc_onnx_order_flip(n, outs[0]);
  OUT(0) = grtc_onnx_transpose(n, values, perm);
  if (n->output_count > 1) OUT(1) = grtc_onnx_transpose(n, outs[1], perm);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// CumSum
//===----------------------------------------------------------------------===//

// Axes longer than this are summed in log2(size) shifted additions rather
// than one reduce_window over windows of the whole axis (size^2 additions).
#define GRTC_ONNX_CUMSUM_WINDOW_LIMIT 256

// |x| shifted by |shift| along |axis| (towards higher indices, or lower in
// |reverse|), zeros coming in.
static grtc_tvalue_t* grtc_onnx_shift(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t axis,
                                      int64_t shift, bool reverse) {
  if (!x) return NULL;
  uint32_t rank = x->type.rank;
  int64_t size = x->type.dims[axis];
  int64_t start[GRTC_MAX_RANK] = {0}, limit[GRTC_MAX_RANK], strides[GRTC_MAX_RANK];
  int64_t low[GRTC_MAX_RANK] = {0}, high[GRTC_MAX_RANK] = {0};
  for (uint32_t d = 0; d < rank; ++d) {
    limit[d] = x->type.dims[d];
    strides[d] = 1;
  }
  if (reverse) {
    start[axis] = shift;
    high[axis] = shift;
  } else {
    limit[axis] = size - shift;
    low[axis] = shift;
  }
  return grtc_onnx_pad(n, grtc_onnx_slice(n, x, start, limit, strides),
                       grtc_onnx_scalar(n, x->type.elem, 0), low, high);
}

// The cumulative sum of |x| along |axis|.
static grtc_tvalue_t* grtc_onnx_cumsum(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t axis,
                                       bool exclusive, bool reverse) {
  uint32_t rank = x->type.rank;
  int64_t size = x->type.dims[axis];
  if (size == 0) return x;
  // The inclusive sum of x shifted by one is the exclusive sum.
  grtc_tvalue_t* v = exclusive ? grtc_onnx_shift(n, x, axis, 1, reverse) : x;
  if (size > GRTC_ONNX_CUMSUM_WINDOW_LIMIT) {
    // Hillis-Steele: after adding the sum shifted by 1, 2, 4, ... each
    // element holds the sum of all before it.
    for (int64_t shift = 1; shift < size && v; shift *= 2) {
      v = grtc_onnx_binary(n, GRTC_TOP_ADD, v, grtc_onnx_shift(n, v, axis, shift, reverse));
    }
    return v;
  }
  // Each output is the sum of a window of |size| elements ending (or, in
  // reverse, starting) at it, the rest of the window in zero padding.
  int64_t low[GRTC_MAX_RANK] = {0}, high[GRTC_MAX_RANK] = {0}, window[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) window[d] = 1;
  window[axis] = size;
  if (reverse) {
    high[axis] = size - 1;
  } else {
    low[axis] = size - 1;
  }
  return grtc_onnx_reduce_window(n, v, GRTC_TOP_ADD, grtc_onnx_scalar(n, x->type.elem, 0), window,
                                 NULL, NULL, low, high);
}

static grt_status_t grtc_onnx_op_cumsum(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* axis_input = grtc_onnx_input(n, 1);
  if (!grtc_onnx_expect_numeric(n, x, false) || !axis_input) return grt_ok_status();
  uint32_t rank = x->type.rank;
  if (rank == 0) return grtc_onnx_error(n, "expected a tensor of rank 1 or more");
  bool exclusive = grtc_onnx_attr_int(n, "exclusive", 0) != 0;
  bool reverse = grtc_onnx_attr_int(n, "reverse", 0) != 0;
  char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
  if ((axis_input->type.elem != GRTC_ELEM_I32 && axis_input->type.elem != GRTC_ELEM_I64) ||
      grtc_ttype_element_count(&axis_input->type) != 1) {
    return grtc_onnx_error(n, "input 'axis' must be one int32 or int64 value, got %s",
                           grtc_onnx_fmt(axis_input, buffer));
  }
  if (grtc_onnx_is_constant(axis_input)) {
    int64_t* values = NULL;
    uint32_t count = 0;
    uint32_t axis = 0;
    if (grtc_onnx_ints(n, axis_input, "input 'axis'", &values, &count) &&
        grtc_onnx_axis(n, "axis", values[0], rank, &axis)) {
      OUT(0) = grtc_onnx_cumsum(n, x, axis, exclusive, reverse);
    }
    return grt_ok_status();
  }
  // An axis known only at run time (the output's shape does not depend on
  // it): the sum along every axis, the one named selected. An axis out of
  // range gives the input unchanged.
  grtc_tvalue_t* axis =
      grtc_onnx_reshape(n, grtc_onnx_convert(n, axis_input, GRTC_ELEM_I64), 0, NULL);
  grtc_tvalue_t* result = x;
  for (uint32_t d = 0; d < rank; ++d) {
    grtc_tvalue_t* named = grtc_onnx_binary(
        n, GRTC_TOP_OR,
        grtc_onnx_compare(n, GRTC_CMP_EQ, axis, grtc_onnx_scalar(n, GRTC_ELEM_I64, d)),
        grtc_onnx_compare(n, GRTC_CMP_EQ, axis,
                          grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)d - (double)rank)));
    result = grtc_onnx_select(n, named, grtc_onnx_cumsum(n, x, d, exclusive, reverse), result);
  }
  OUT(0) = result;
  return grt_ok_status();
}

const grtc_onnx_op_def_t grtc_onnx_reduce_ops[] = {
    {"ReduceSum", grtc_onnx_op_reduce, 1, 2, 1, 1, 1},
    {"ReduceMean", grtc_onnx_op_reduce, 1, 2, 1, 1, 1},
    {"ReduceMax", grtc_onnx_op_reduce, 1, 2, 1, 1, 1},
    {"ReduceMin", grtc_onnx_op_reduce, 1, 2, 1, 1, 1},
    {"ReduceProd", grtc_onnx_op_reduce, 1, 2, 1, 1, 1},
    {"ReduceL1", grtc_onnx_op_reduce, 1, 2, 1, 1, 1},
    {"ReduceL2", grtc_onnx_op_reduce, 1, 2, 1, 1, 1},
    {"ReduceLogSum", grtc_onnx_op_reduce, 1, 2, 1, 1, 1},
    {"ReduceLogSumExp", grtc_onnx_op_reduce, 1, 2, 1, 1, 1},
    {"ReduceSumSquare", grtc_onnx_op_reduce, 1, 2, 1, 1, 1},
    {"Softmax", grtc_onnx_op_softmax, 1, 1, 1, 1, 1},
    {"LogSoftmax", grtc_onnx_op_softmax, 1, 1, 1, 1, 1},
    {"Hardmax", grtc_onnx_op_softmax, 1, 1, 1, 1, 1},
    {"ArgMax", grtc_onnx_op_arg, 1, 1, 1, 1, 1},
    {"ArgMin", grtc_onnx_op_arg, 1, 1, 1, 1, 1},
    {"TopK", grtc_onnx_op_top_k, 1, 2, 2, 2, 1},
    {"CumSum", grtc_onnx_op_cumsum, 2, 2, 1, 1, 11},
    {NULL, NULL, 0, 0, 0, 0, 0},
};
