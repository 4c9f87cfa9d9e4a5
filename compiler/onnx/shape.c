// ONNX ops: data movement, indexing and shape ops.
//
// Shapes are static, so Shape and Size are constants, and every input that
// decides a result's shape (Reshape's shape, Slice's starts, Pad's pads,
// Tile's repeats, ...) must be a constant when the model is compiled
// (grtc_onnx_ints says so otherwise). Indices (Gather, Scatter*) may be
// computed at run time; negative indices are wrapped before the StableHLO
// gather/scatter, which clamp (gather) or skip (scatter) out-of-range ones
// (constant indices out of range are an error here). Ops whose result shape
// depends on values (NonZero, Unique, Compress) are computed here when
// those values are constants and UNIMPLEMENTED otherwise; so is Gather on
// small constants, which fold.c does not fold, so that shape arithmetic
// stays constant.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compiler/onnx/internal.h"
#include "compiler/tensor/eval.h"


// Elements a result may have (2^40): far above any real tensor, low enough
// that products of a few of them cannot overflow int64.
#define GRTC_ONNX_MAX_ELEMENTS ((int64_t)1 << 40)


// True when |dims| (|rank| of them) are all >= 0 and their product stays
// below GRTC_ONNX_MAX_ELEMENTS; an error naming |what| otherwise.
static bool grtc_onnx_check_dims(grtc_onnx_node_t* n, const char* what, uint32_t rank,
                                 const int64_t* dims) {
  if (rank > GRTC_MAX_RANK) {
    return grtc_onnx_fail(n, grtc_onnx_unsupported(n, "%s would have rank %u; grt supports up to %d",
                                                  what, rank, GRTC_MAX_RANK));
  }
  int64_t product = 1;
  for (uint32_t i = 0; i < rank; ++i) {
    if (dims[i] < 0) {
      return grtc_onnx_fail(
          n, grtc_onnx_error(n, "%s would have dimension %u = %lld", what, i, (long long)dims[i]));
    }
    if (dims[i] > GRTC_ONNX_MAX_ELEMENTS ||
        (dims[i] && product > GRTC_ONNX_MAX_ELEMENTS / dims[i])) {
      return grtc_onnx_fail(n,
                           grtc_onnx_unsupported(n, "%s would have more than 2^40 elements", what));
    }
    product *= dims[i];
  }
  return true;
}

// An integer list given as attribute |attr| (opsets below |input_since|) or
// as constant input |index| (from |input_since| on). False when absent (or
// after an error, which |n->status| holds).
static bool grtc_onnx_list(grtc_onnx_node_t* n, const char* attr, uint32_t index,
                           int64_t input_since, const char* what, int64_t** values,
                           uint32_t* count) {
  *values = NULL;
  *count = 0;
  if (n->opset < input_since) return grtc_onnx_attr_ints(n, attr, values, count);
  if (index >= n->input_count || !n->inputs[index]) return false;
  grtc_tvalue_t* v = n->inputs[index];
  if (v->type.rank > 1) {
    char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_onnx_fail(
        n, grtc_onnx_error(n, "%s must be a 1-D tensor, got %s", what, grtc_onnx_fmt(v, buffer)));
  }
  return grtc_onnx_ints(n, v, what, values, count);
}

// A rank-0 (or one-element) constant integer input.
static bool grtc_onnx_int_scalar(grtc_onnx_node_t* n, grtc_tvalue_t* v, const char* what,
                                 int64_t* out) {
  int64_t* values = NULL;
  uint32_t count = 0;
  if (!grtc_onnx_ints(n, v, what, &values, &count)) return false;
  if (count != 1) {
    return grtc_onnx_fail(n, grtc_onnx_error(n, "%s must hold one value, got %u", what, count));
  }
  *out = values[0];
  return true;
}

// Normalizes |count| axes for |rank| in place; repeated axes are an error.
static bool grtc_onnx_axes(grtc_onnx_node_t* n, const char* what, int64_t* axes, uint32_t count,
                           uint32_t rank) {
  bool seen[GRTC_MAX_RANK + 1] = {false};
  if (rank > GRTC_MAX_RANK) {
    return grtc_onnx_fail(n,
                         grtc_onnx_unsupported(n, "rank %u exceeds grt's %d", rank, GRTC_MAX_RANK));
  }
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t axis = 0;
    if (!grtc_onnx_axis(n, what, axes[i], rank, &axis)) return false;
    if (seen[axis]) {
      return grtc_onnx_fail(
          n, grtc_onnx_error(n, "%s %lld repeats an earlier one", what, (long long)axes[i]));
    }
    seen[axis] = true;
    axes[i] = axis;
  }
  return true;
}

static grtc_tvalue_t* grtc_onnx_reverse(grtc_onnx_node_t* n, grtc_tvalue_t* x, const int64_t* dims,
                                        uint32_t count) {
  if (!x || !grtc_onnx_ok(n)) return NULL;
  if (count == 0) return x;
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_REVERSE, &x, 1, &x->type, 1, 0);
  if (!op) return NULL;
  op->attrs.dims = grtc_tmodule_i64s(n->module, dims, count);
  return grtc_onnx_fold(n, op);
}

// grtc_onnx_iota of an |elem| tensor of |rank|/|dims|.
static grtc_tvalue_t* grtc_onnx_iota_of(grtc_onnx_node_t* n, grtc_elem_t elem, uint32_t rank,
                                        const int64_t* dims, uint32_t dim) {
  grtc_ttype_t type = grtc_onnx_type(elem, rank, dims);
  return grtc_onnx_iota(n, &type, dim);
}

// |x| sliced to [start, start + size) on |axis|, other dimensions whole.
static grtc_tvalue_t* grtc_onnx_slice_axis(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t axis,
                                           int64_t start, int64_t size) {
  if (!x) return NULL;
  int64_t starts[GRTC_MAX_RANK] = {0}, limits[GRTC_MAX_RANK], strides[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < x->type.rank; ++i) {
    limits[i] = x->type.dims[i];
    strides[i] = 1;
  }
  starts[axis] = start;
  limits[axis] = start + size;
  return grtc_onnx_slice(n, x, starts, limits, strides);
}

// The bytes of constant |v| (one element when splat).
static const uint8_t* grtc_onnx_const_data(const grtc_tvalue_t* v, bool* splat) {
  *splat = v->def->attrs.constant.splat;
  return v->def->attrs.constant.data;
}

// Row-major strides of |type|.
static void grtc_onnx_strides(const grtc_ttype_t* type, int64_t* strides) {
  int64_t s = 1;
  for (uint32_t i = type->rank; i-- > 0;) {
    strides[i] = s;
    s *= type->dims[i];
  }
}

//===----------------------------------------------------------------------===//
// Sizes read from a graph input's data at the call
//===----------------------------------------------------------------------===//

// A shape input whose values a graph input gives (Reshape's, Expand's,
// ConstantOfShape's shape, Slice's ends) imports as integer arithmetic on
// its elements ahead of a dynamic op; the host program reads the elements
// and computes that arithmetic at the call (grtc_tvalue_shape_expr_data,
// docs/compiler.md "Shapes read from data"). ONNX's conditionals (a 0
// that copies a dimension, a -1 that is inferred, a 1 that broadcasts, a
// negative end that counts from the back) are min/max arithmetic there:
// the size expressions have no select.

// The rank-0 i64 constant |v|.
static grtc_tvalue_t* grtc_onnx_i64(grtc_onnx_node_t* n, int64_t v) {
  return grtc_onnx_const_ints(n, GRTC_ELEM_I64, 0, NULL, &v);
}

grtc_tvalue_t* grtc_onnx_shape_item(grtc_onnx_node_t* n, grtc_tvalue_t* shape, uint32_t i) {
  grtc_tvalue_t* item = grtc_onnx_reshape(n, grtc_onnx_slice_axis(n, shape, 0, i, 1), 0, NULL);
  return item && item->type.elem != GRTC_ELEM_I64 ? grtc_onnx_convert(n, item, GRTC_ELEM_I64)
                                                  : item;
}

// max(min(a, hi), lo) on rank-0 i64s.
static grtc_tvalue_t* grtc_onnx_clamp_i64(grtc_onnx_node_t* n, grtc_tvalue_t* a, int64_t lo,
                                          int64_t hi) {
  return grtc_onnx_binary(n, GRTC_TOP_MAXIMUM,
                          grtc_onnx_binary(n, GRTC_TOP_MINIMUM, a, grtc_onnx_i64(n, hi)),
                          grtc_onnx_i64(n, lo));
}

// 1 where the rank-0 i64 |a| equals |b|, else 0: (clamp(a - b, -1, 1) +
// 1) % 2, which uses |a| once (the size expressions are trees: every use
// is computed again at the call).
static grtc_tvalue_t* grtc_onnx_is_i64(grtc_onnx_node_t* n, grtc_tvalue_t* a, int64_t b) {
  grtc_tvalue_t* d = grtc_onnx_clamp_i64(n, grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, a,
                                                             grtc_onnx_i64(n, b)), -1, 1);
  return grtc_onnx_binary(n, GRTC_TOP_REMAINDER,
                          grtc_onnx_binary(n, GRTC_TOP_ADD, d, grtc_onnx_i64(n, 1)),
                          grtc_onnx_i64(n, 2));
}

// Whether element |i| of |shape| is read from a graph input's data (the
// host program's GRTC_SEXPR_DATA); false for constants and dimensions.
static bool grtc_onnx_item_reads_data(grtc_onnx_node_t* n, grtc_tvalue_t* shape, uint32_t i) {
  const grtc_sexpr_t* expr = NULL;
  return grtc_tvalue_shape_expr_data(n->module, shape, i, &expr) && grtc_sexpr_reads_data(expr);
}

// The result dimension a rank-0 i64 size |item| gives a dynamic op: its
// static value, the dimension get_dimension_size reads, or a new symbol
// the host program computes (GRTC_ONNX_COMPUTED_DIM).
static int64_t grtc_onnx_item_dim(const grtc_tvalue_t* item) {
  int64_t dim = 0;
  return item && grtc_tvalue_shape_element(item, 0, &dim) ? dim : GRTC_ONNX_COMPUTED_DIM;
}

// Whether |shape| (input |index| of |n|, |what|) is a 1-D integer tensor
// of a static length whose elements the host program can read or compute
// at the call, at least one from a graph input's data. False with no error
// when no element reads data (the caller's own paths and errors apply);
// false with an error naming the op, the input and why when one does but
// the form is not supported.
static bool grtc_onnx_shape_from_data(grtc_onnx_node_t* n, grtc_tvalue_t* shape,
                                      const char* what, uint32_t* out_count) {
  if (!shape || grtc_onnx_is_constant(shape) || shape->type.rank != 1 ||
      !grtc_dim_is_static(shape->type.dims[0])) {
    if (shape && !grtc_onnx_is_constant(shape) && shape->type.rank == 1 &&
        !shape->def && !shape->block->parent_op) {
      char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
      grtc_onnx_fail(n, grtc_onnx_unsupported(n,
                                              "%s is the graph input %s of a symbolic "
                                              "length; grt reads sizes from a graph input "
                                              "of a static length only",
                                              what, grtc_onnx_fmt(shape, buffer)));
    }
    return false;
  }
  uint32_t count = (uint32_t)shape->type.dims[0];
  bool data = false;
  for (uint32_t i = 0; i < count && i <= GRTC_MAX_RANK; ++i) {
    data |= grtc_onnx_item_reads_data(n, shape, i);
  }
  if (!data) return false;
  if (count > GRTC_MAX_RANK) {
    grtc_onnx_fail(n, grtc_onnx_unsupported(n, "%s has %u elements; grt supports up to rank %d",
                                            what, count, GRTC_MAX_RANK));
    return false;
  }
  if (shape->type.elem != GRTC_ELEM_I64 && shape->type.elem != GRTC_ELEM_I32) {
    char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
    grtc_onnx_fail(n, grtc_onnx_error(n, "%s must be an int64 or int32 tensor, got %s", what,
                                      grtc_onnx_fmt(shape, buffer)));
    return false;
  }
  *out_count = count;
  return true;
}

//===----------------------------------------------------------------------===//
// Shape, Size, Reshape, Flatten, Squeeze, Unsqueeze
//===----------------------------------------------------------------------===//

static grt_status_t grtc_onnx_op_shape(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  int64_t rank = x->type.rank;
  int64_t start = grtc_onnx_attr_int(n, "start", 0);
  int64_t end = grtc_onnx_attr_int(n, "end", rank);
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = start < 0 ? 0 : start > rank ? rank : start;
  end = end < 0 ? 0 : end > rank ? rank : end;
  if (end < start) end = start;
  int64_t count = end - start;
  grtc_onnx_shape_values_t known;
  memset(&known, 0, sizeof(known));
  known.count = (uint32_t)count;
  bool symbolic = false;
  for (int64_t i = 0; i < count; ++i) {
    known.values[i] = x->type.dims[start + i];
    known.symbolic[i] = !grtc_dim_is_static(known.values[i]);
    symbolic |= known.symbolic[i];
  }
  if (!symbolic) {
    OUT(0) = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 1, &count, x->type.dims + start);
    return grt_ok_status();
  }
  // The symbolic dimensions read at run time (get_dimension_size), the
  // static ones constants; consumers that need the values at compile time
  // (Reshape) read them from the importer's record.
  grtc_tvalue_t* parts[GRTC_MAX_RANK];
  int64_t one = 1;
  for (int64_t i = 0; i < count; ++i) {
    parts[i] = grtc_onnx_reshape(n, grtc_onnx_dimension_size(n, x, (uint32_t)(start + i)), 1, &one);
  }
  OUT(0) = grtc_onnx_concat(n, parts, (uint32_t)count, 0);
  grtc_onnx_remember_shape_values(n, OUT(0), &known);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_size(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  int64_t size = grtc_ttype_element_count(&x->type);
  OUT(0) = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 0, NULL, &size);
  return grt_ok_status();
}

// Static element |i| of a Reshape's shape, |*d|: a 0 copies input
// dimension |i| of |x| (unless |allowzero|; |*d| becomes it), a -1 is the
// one inferred dimension (|*inferred| = i). False after an error.
static bool grtc_onnx_reshape_element(grtc_onnx_node_t* n, const grtc_tvalue_t* x, uint32_t i,
                                      bool allowzero, int64_t* d, int* inferred) {
  if (*d == 0 && !allowzero) {
    if (i >= x->type.rank) {
      return grtc_onnx_fail(n, grtc_onnx_error(n,
                                               "shape[%u] = 0 copies input dimension %u, but the "
                                               "input has rank %u",
                                               i, i, x->type.rank));
    }
    *d = x->type.dims[i];
  } else if (*d == -1) {
    if (*inferred >= 0) return grtc_onnx_fail(n, grtc_onnx_error(n, "the shape has more than one -1"));
    *inferred = (int)i;
  } else if (*d < 0) {
    return grtc_onnx_fail(n, grtc_onnx_error(n, "shape[%u] = %lld is invalid", i, (long long)*d));
  }
  return true;
}

// Reshape of |x| to |shape|, a 1-D i64 tensor some of whose elements a
// graph input's data gives (grtc_onnx_shape_from_data): each element r_i
// is s_i, or with a 0 (unless |allowzero|) input dimension i, computed at
// the call as s_i + [s_i == 0] * d_i. With P the product of every r_i, a
// -1 becomes the input's element count over -P, the product of the
// others, where P < 0 (one -1 among sizes that are not 0): r_i + [r_i ==
// -1] * (count / max(-P, 1) + 1) * min(max(-P, 0), 1). So a second -1, a
// -1 beside a 0 (numpy cannot infer it either), a 0 past the input's rank
// (-2 here) and other negative sizes stay negative, which the host program
// refuses; a product that is not the element count fails the reshape's
// element-count check. Both quote what the data held.
static bool grtc_onnx_reshape_from_data(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                        grtc_tvalue_t* shape, bool allowzero) {
  uint32_t count = (uint32_t)shape->type.dims[0];
  grtc_tvalue_t* r[GRTC_MAX_RANK];
  grtc_tvalue_t* product = grtc_onnx_i64(n, 1);
  for (uint32_t i = 0; i < count; ++i) {
    grtc_tvalue_t* s = grtc_onnx_shape_item(n, shape, i);
    int64_t constant = 0;
    if (!allowzero && !(s && grtc_tvalue_constant_element(s, 0, &constant) && constant != 0)) {
      grtc_tvalue_t* copied = i < x->type.rank ? grtc_onnx_dimension_size(n, x, i)
                                               : grtc_onnx_i64(n, -2);
      s = grtc_onnx_binary(n, GRTC_TOP_ADD, s,
                           grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, grtc_onnx_is_i64(n, s, 0),
                                            copied));
    }
    r[i] = s;
    product = grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, product, s);
  }
  grtc_tvalue_t* others = grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, grtc_onnx_i64(n, 0), product);
  grtc_tvalue_t* inferred = grtc_onnx_binary(
      n, GRTC_TOP_DIVIDE, grtc_onnx_dims_product(n, x, 0, x->type.rank),
      grtc_onnx_binary(n, GRTC_TOP_MAXIMUM, others, grtc_onnx_i64(n, 1)));
  grtc_tvalue_t* step = grtc_onnx_binary(
      n, GRTC_TOP_MULTIPLY, grtc_onnx_binary(n, GRTC_TOP_ADD, inferred, grtc_onnx_i64(n, 1)),
      grtc_onnx_clamp_i64(n, others, 0, 1));
  int64_t dims[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < count; ++i) {
    int64_t constant = 0;
    if (!(r[i] && grtc_tvalue_constant_element(r[i], 0, &constant) && constant >= 0)) {
      r[i] = grtc_onnx_binary(
          n, GRTC_TOP_ADD, r[i],
          grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, grtc_onnx_is_i64(n, r[i], -1), step));
    }
    dims[i] = grtc_onnx_item_dim(r[i]);
  }
  if (!grtc_onnx_ok(n)) return true;
  OUT(0) = grtc_onnx_reshape_computed(n, x, count, dims, r);
  return true;
}

// Reshape of |x| to |shape|, a 1-D i64 tensor computed at run time whose
// elements the program computes from constants and dimensions (torch's
// multi-head attention reshapes to [x.size(1) * heads, seq, d] with
// Shape, Gather, Mul, Unsqueeze and Concat): a dynamic_reshape whose
// extents the host program computes at the call, checking that the element
// counts agree (docs/compiler.md "Merging and splitting reshapes"). A -1 is
// the input's element count over the other elements' product. False, with
// no error, when an element is not computed that way (read from data).
static bool grtc_onnx_reshape_at_call(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                      grtc_tvalue_t* shape, bool allowzero) {
  if (shape->type.rank != 1 || shape->type.elem != GRTC_ELEM_I64 ||
      !grtc_dim_is_static(shape->type.dims[0]) || shape->type.dims[0] > GRTC_MAX_RANK) {
    return false;
  }
  uint32_t count = (uint32_t)shape->type.dims[0];
  const grtc_sexpr_t* exprs[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < count; ++i) {
    if (!grtc_tvalue_shape_expr(n->module, shape, i, &exprs[i])) {
      uint32_t length = 0;
      if (!grtc_onnx_shape_from_data(n, shape, "input 'shape'", &length)) return !grtc_onnx_ok(n);
      return grtc_onnx_reshape_from_data(n, x, shape, allowzero);
    }
  }
  int64_t dims[GRTC_MAX_RANK];
  grtc_tvalue_t* elements[GRTC_MAX_RANK];
  int inferred = -1;
  for (uint32_t i = 0; i < count; ++i) {
    int64_t d = exprs[i]->value;
    bool known = exprs[i]->kind == GRTC_SEXPR_DIM;
    if (exprs[i]->kind == GRTC_SEXPR_CONST) {
      if (!grtc_onnx_reshape_element(n, x, i, allowzero, &d, &inferred)) return true;
      if ((int)i == inferred) continue;
      dims[i] = d;
      // A copied symbolic dimension is read as such; sizes are constants.
      elements[i] = grtc_dim_is_static(d) ? grtc_onnx_const_ints(n, GRTC_ELEM_I64, 0, NULL, &d)
                                          : grtc_onnx_dimension_size(n, x, i);
      continue;
    }
    // A dimension (of any value) keeps its symbol; arithmetic on them is
    // a new extent the host program computes.
    dims[i] = known ? d : GRTC_ONNX_COMPUTED_DIM;
    elements[i] = grtc_onnx_slice_axis(n, shape, 0, i, 1);
  }
  if (inferred >= 0) {
    grtc_tvalue_t* rest = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 0, NULL, &(int64_t){1});
    for (uint32_t i = 0; i < count; ++i) {
      if ((int)i != inferred) {
        rest = grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, rest, grtc_onnx_reshape(n, elements[i], 0, NULL));
      }
    }
    elements[inferred] = grtc_onnx_binary(
        n, GRTC_TOP_DIVIDE, grtc_onnx_dims_product(n, x, 0, x->type.rank), rest);
    dims[inferred] = GRTC_ONNX_COMPUTED_DIM;
  }
  OUT(0) = grtc_onnx_reshape_computed(n, x, count, dims, elements);
  return true;
}

// Reshape of |x| to |spec| (ONNX's 0 copies an input dimension unless
// |allowzero|, one -1 is inferred). Symbolic dimensions: each symbol of the
// result (copied with 0, or an element of Shape's output) must be one of
// the input's, and a -1 takes the one input symbol left over when the
// static sizes account for the rest (x.view(x.size(0), -1) keeps the
// batch; [-1, 512] of [N, 512, 1, 1] is [N, 512]).
static grt_status_t grtc_onnx_reshape_to(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                         const grtc_onnx_shape_values_t* spec, bool allowzero,
                                         grtc_tvalue_t* at_call) {
  int64_t dims[GRTC_MAX_RANK];
  int inferred = -1;
  int64_t known = 1, total = 1;
  int64_t left[GRTC_MAX_RANK], statics[GRTC_MAX_RANK];
  uint32_t left_count = 0, static_count = 0;
  for (uint32_t i = 0; i < x->type.rank; ++i) {
    if (grtc_dim_is_static(x->type.dims[i])) {
      total *= x->type.dims[i];
    } else {
      left[left_count++] = x->type.dims[i];
    }
  }
  for (uint32_t i = 0; i < spec->count; ++i) {
    int64_t d = spec->values[i];
    if (!spec->symbolic[i]) {
      if (!grtc_onnx_reshape_element(n, x, i, allowzero, &d, &inferred)) return grt_ok_status();
      if ((int)i == inferred) {
        dims[i] = 1;
        continue;
      }
    }
    dims[i] = d;
    if (grtc_dim_is_static(d)) {
      // The static sizes so far (and the -1's 1) must not overflow.
      statics[static_count++] = d;
      if (!grtc_onnx_check_dims(n, "the reshaped tensor", static_count, statics)) {
        return grt_ok_status();
      }
      known *= d;
      continue;
    }
    // The same symbol (or one proven equal) of the input.
    bool found = false;
    for (uint32_t j = 0; j < left_count && !found; ++j) {
      if (grtc_tmodule_resolve_dim(n->module, left[j]) ==
          grtc_tmodule_resolve_dim(n->module, d)) {
        left[j] = left[--left_count];
        found = true;
      }
    }
    if (!found && at_call && grtc_onnx_reshape_at_call(n, x, at_call, allowzero)) {
      return grt_ok_status();
    }
    if (!found) {
      char described[192];
      return grtc_onnx_unsupported(
          n,
          "shape[%u] is symbolic (%s) but no dimension of the input is known to equal it; grt "
          "reshapes symbolic dimensions only into themselves: pin the model's symbolic inputs "
          "with --onnx-input-shape=NAME:<dims>",
          i, grtc_tmodule_describe_dim(n->module, d, described, sizeof(described)));
    }
  }
  char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
  if (left_count == 1 && inferred >= 0 && known == total) {
    dims[inferred] = left[0];
    known = total;
  } else if (left_count != 0 && inferred >= 0) {
    // The -1 merges or splits symbolic dimensions (x.view(-1),
    // x.view(-1, 4) of [N, 6]): the input's element count over the other
    // dimensions' product, computed at the call.
    grtc_tvalue_t* elements[GRTC_MAX_RANK];
    for (uint32_t i = 0; i < spec->count; ++i) {
      if ((int)i == inferred) continue;
      if (grtc_dim_is_static(dims[i])) {
        elements[i] = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 0, NULL, &dims[i]);
        continue;
      }
      elements[i] = NULL;
      for (uint32_t j = 0; j < x->type.rank && !elements[i]; ++j) {
        if (grtc_tmodule_resolve_dim(n->module, x->type.dims[j]) ==
            grtc_tmodule_resolve_dim(n->module, dims[i])) {
          elements[i] = grtc_onnx_dimension_size(n, x, j);
        }
      }
    }
    grtc_tvalue_t* rest = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 0, NULL, &(int64_t){1});
    for (uint32_t i = 0; i < spec->count; ++i) {
      if ((int)i != inferred) rest = grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, rest, elements[i]);
    }
    elements[inferred] = grtc_onnx_binary(
        n, GRTC_TOP_DIVIDE, grtc_onnx_dims_product(n, x, 0, x->type.rank), rest);
    dims[inferred] = GRTC_ONNX_COMPUTED_DIM;
    OUT(0) = grtc_onnx_reshape_computed(n, x, spec->count, dims, elements);
    return grt_ok_status();
  } else if (left_count != 0 && at_call && grtc_onnx_reshape_at_call(n, x, at_call, allowzero)) {
    return grt_ok_status();
  } else if (left_count != 0) {
    char described[192];
    return grtc_onnx_unsupported(
        n,
        "cannot reshape %s to a shape of %u dimensions with %s left over: grt keeps a "
        "symbolic dimension only as a dimension of its own, never in a product: pin the "
        "model's symbolic inputs with --onnx-input-shape=NAME:<dims>",
        grtc_onnx_fmt(x, buffer), spec->count,
        grtc_tmodule_describe_dim(n->module, left[0], described, sizeof(described)));
  } else if (inferred >= 0) {
    if (known == 0 || total % known != 0) {
      return grtc_onnx_error(n,
                             "cannot infer the -1 in the shape: %lld elements do not divide "
                             "into parts of %lld",
                             (long long)total, (long long)known);
    }
    dims[inferred] = total / known;
    known = total;
  }
  if (known != total) {
    return grtc_onnx_error(n, "cannot reshape %s (%lld elements) to a shape of %lld elements",
                           grtc_onnx_fmt(x, buffer), (long long)total, (long long)known);
  }
  OUT(0) = grtc_onnx_reshape(n, x, spec->count, dims);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_reshape(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x || !grtc_onnx_input(n, 1)) return grt_ok_status();
  grtc_onnx_shape_values_t spec;
  bool allowzero = grtc_onnx_attr_int(n, "allowzero", 0) != 0;
  grtc_tvalue_t* at_call = grtc_onnx_is_constant(n->inputs[1]) ? NULL : n->inputs[1];
  if (grtc_onnx_shape_values(n, n->inputs[1], &spec)) {
    return grtc_onnx_reshape_to(n, x, &spec, allowzero, at_call);
  }
  if (at_call && grtc_onnx_reshape_at_call(n, x, at_call, allowzero)) return grt_ok_status();
  uint32_t length = 0;
  if (at_call && !grtc_onnx_shape_from_data(n, at_call, "input 'shape'", &length) &&
      !grtc_onnx_ok(n)) {
    return grt_ok_status();  // a graph input of a symbolic length
  }
  // Not known here: the error (computed at run time, or too long a shape).
  int64_t* shape = NULL;
  uint32_t count = 0;
  if (!grtc_onnx_list(n, "", 1, 0, "input 'shape'", &shape, &count)) return grt_ok_status();
  return grtc_onnx_unsupported(n, "a reshape to rank %u; grt supports up to %d", count,
                               GRTC_MAX_RANK);
}

static grt_status_t grtc_onnx_op_flatten(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  int64_t rank = x->type.rank;
  int64_t axis = grtc_onnx_attr_int(n, "axis", 1);
  if (axis < -rank || axis > rank) {
    return grtc_onnx_error(n,
                           "attribute 'axis' = %lld is out of range for rank %lld (expected "
                           "%lld to %lld)",
                           (long long)axis, (long long)rank, (long long)-rank, (long long)rank);
  }
  if (axis < 0) axis += rank;
  int64_t dims[2] = {1, 1};
  bool computed = false;
  for (uint32_t side = 0; side < 2; ++side) {
    uint32_t from = side ? (uint32_t)axis : 0, to = side ? (uint32_t)rank : (uint32_t)axis;
    if (grtc_onnx_merged_dim(&x->type, from, to, &dims[side])) continue;
    // A symbolic dimension multiplied with others: computed at the call.
    dims[side] = GRTC_ONNX_COMPUTED_DIM;
    computed = true;
  }
  if (computed) {
    grtc_tvalue_t* elements[2] = {grtc_onnx_dims_product(n, x, 0, (uint32_t)axis),
                                  grtc_onnx_dims_product(n, x, (uint32_t)axis, (uint32_t)rank)};
    OUT(0) = grtc_onnx_reshape_computed(n, x, 2, dims, elements);
    return grt_ok_status();
  }
  OUT(0) = grtc_onnx_reshape(n, x, 2, dims);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_squeeze(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  int64_t* axes = NULL;
  uint32_t count = 0;
  bool given = grtc_onnx_list(n, "axes", 1, 13, "input 'axes'", &axes, &count);
  if (!grtc_onnx_ok(n)) return grt_ok_status();
  bool drop[GRTC_MAX_RANK] = {false};
  if (given) {
    if (!grtc_onnx_axes(n, "axis", axes, count, x->type.rank)) return grt_ok_status();
    for (uint32_t i = 0; i < count; ++i) {
      if (!grtc_dim_is_static(x->type.dims[axes[i]])) {
        return grtc_onnx_symbolic_error(n, 0, (uint32_t)axes[i], x->type.dims[axes[i]],
                                        "Squeeze removes only dimensions known to be 1");
      }
      if (x->type.dims[axes[i]] != 1) {
        char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
        return grtc_onnx_error(n, "cannot squeeze axis %lld of %s: its size is not 1",
                               (long long)axes[i], grtc_onnx_fmt(x, buffer));
      }
      drop[axes[i]] = true;
    }
  } else {
    for (uint32_t i = 0; i < x->type.rank; ++i) drop[i] = x->type.dims[i] == 1;
  }
  int64_t dims[GRTC_MAX_RANK];
  uint32_t rank = 0;
  for (uint32_t i = 0; i < x->type.rank; ++i) {
    if (!drop[i]) dims[rank++] = x->type.dims[i];
  }
  OUT(0) = grtc_onnx_reshape(n, x, rank, dims);
  grtc_onnx_shape_values_t known;
  if (grtc_onnx_shape_values(n, x, &known)) grtc_onnx_remember_shape_values(n, OUT(0), &known);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_unsqueeze(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  int64_t* axes = NULL;
  uint32_t count = 0;
  if (!grtc_onnx_list(n, "axes", 1, 13, "input 'axes'", &axes, &count)) {
    if (!grtc_onnx_ok(n)) return grt_ok_status();
    return grtc_onnx_error(n, "the axes to insert are required (%s)",
                           n->opset < 13 ? "attribute 'axes'" : "input 1");
  }
  uint32_t rank = x->type.rank + count;
  if (rank > GRTC_MAX_RANK) {
    return grtc_onnx_unsupported(n, "the result would have rank %u; grt supports up to %d", rank,
                                 GRTC_MAX_RANK);
  }
  if (!grtc_onnx_axes(n, "axis", axes, count, rank)) return grt_ok_status();
  bool inserted[GRTC_MAX_RANK] = {false};
  for (uint32_t i = 0; i < count; ++i) inserted[axes[i]] = true;
  int64_t dims[GRTC_MAX_RANK];
  uint32_t next = 0;
  for (uint32_t i = 0; i < rank; ++i) dims[i] = inserted[i] ? 1 : x->type.dims[next++];
  OUT(0) = grtc_onnx_reshape(n, x, rank, dims);
  grtc_onnx_shape_values_t known;
  if (rank <= 1 && grtc_onnx_shape_values(n, x, &known)) {
    grtc_onnx_remember_shape_values(n, OUT(0), &known);
  }
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Transpose, Concat, Split, Slice
//===----------------------------------------------------------------------===//

static grt_status_t grtc_onnx_op_transpose(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  uint32_t rank = x->type.rank;
  int64_t perm[GRTC_MAX_RANK];
  int64_t* given = NULL;
  uint32_t count = 0;
  if (grtc_onnx_attr_ints(n, "perm", &given, &count)) {
    if (count != rank) {
      return grtc_onnx_error(n, "attribute 'perm' has %u entries for a rank-%u input", count, rank);
    }
    bool seen[GRTC_MAX_RANK] = {false};
    for (uint32_t i = 0; i < rank; ++i) {
      if (given[i] < 0 || given[i] >= (int64_t)rank || seen[given[i]]) {
        return grtc_onnx_error(n,
                               "attribute 'perm' is not a permutation of 0..%u (entry %u is "
                               "%lld)",
                               rank ? rank - 1 : 0, i, (long long)given[i]);
      }
      seen[given[i]] = true;
      perm[i] = given[i];
    }
  } else {
    for (uint32_t i = 0; i < rank; ++i) perm[i] = rank - 1 - i;
  }
  OUT(0) = grtc_onnx_transpose(n, x, perm);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_concat(grtc_onnx_node_t* n) {
  grtc_tvalue_t* first = grtc_onnx_input(n, 0);
  if (!first) return grt_ok_status();
  if (!grtc_onnx_attr(n, "axis")) return grtc_onnx_error(n, "attribute 'axis' is required");
  uint32_t axis = 0;
  if (!grtc_onnx_axis(n, "attribute 'axis'", grtc_onnx_attr_int(n, "axis", 0), first->type.rank,
                      &axis)) {
    return grt_ok_status();
  }
  grtc_tvalue_t** xs = grtc_tmodule_alloc(n->module, (n->input_count + 1) * sizeof(*xs));
  if (!xs) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  uint32_t count = 0;
  for (uint32_t i = 0; i < n->input_count; ++i) {
    grtc_tvalue_t* x = grtc_onnx_input(n, i);
    if (!x) return grt_ok_status();
    // Empty inputs add nothing (ONNX allows them; stablehlo does too, but
    // skipping keeps the op small).
    if (x->type.rank == first->type.rank && x->type.dims[axis] == 0 && n->input_count > 1) {
      continue;
    }
    xs[count++] = x;
  }
  if (count == 0) xs[count++] = first;
  OUT(0) = grtc_onnx_concat(n, xs, count, axis);
  // Shapes put together (x.view(x.size(0), -1)'s [N, -1]).
  grtc_onnx_shape_values_t joined;
  memset(&joined, 0, sizeof(joined));
  bool known = first->type.rank == 1;
  for (uint32_t i = 0; i < count && known; ++i) {
    grtc_onnx_shape_values_t part;
    known = grtc_onnx_shape_values(n, xs[i], &part) &&
            joined.count + part.count <= GRTC_MAX_RANK;
    for (uint32_t j = 0; known && j < part.count; ++j) {
      joined.values[joined.count] = part.values[j];
      joined.symbolic[joined.count++] = part.symbolic[j];
    }
  }
  if (known) grtc_onnx_remember_shape_values(n, OUT(0), &joined);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_split(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  uint32_t axis = 0;
  if (!grtc_onnx_axis(n, "attribute 'axis'", grtc_onnx_attr_int(n, "axis", 0), x->type.rank,
                      &axis)) {
    return grt_ok_status();
  }
  int64_t dim = x->type.dims[axis];
  uint32_t outputs = n->output_count;
  int64_t* split = NULL;
  uint32_t count = 0;
  bool given = grtc_onnx_list(n, "split", 1, 13, "input 'split'", &split, &count);
  if (!grtc_onnx_ok(n)) return grt_ok_status();
  int64_t* sizes = grtc_tmodule_alloc(n->module, (outputs + 1) * sizeof(int64_t));
  if (!sizes) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (given) {
    if (count != outputs) {
      return grtc_onnx_error(n, "'split' has %u sizes for %u outputs", count, outputs);
    }
    int64_t total = 0;
    for (uint32_t i = 0; i < count; ++i) {
      if (split[i] < 0 || split[i] > dim) {
        return grtc_onnx_error(n, "split size %u is %lld, expected 0 to %lld", i,
                               (long long)split[i], (long long)dim);
      }
      sizes[i] = split[i];
      total += split[i];
    }
    if (total != dim) {
      return grtc_onnx_error(n, "the split sizes add up to %lld, but axis %u has %lld elements",
                             (long long)total, axis, (long long)dim);
    }
  } else {
    const Onnx__AttributeProto* num = n->opset >= 18 ? grtc_onnx_attr(n, "num_outputs") : NULL;
    if (num) {
      int64_t parts = grtc_onnx_attr_int(n, "num_outputs", 0);
      if (parts != (int64_t)outputs) {
        return grtc_onnx_error(n, "attribute 'num_outputs' is %lld but the node has %u outputs",
                               (long long)parts, outputs);
      }
      // Every part ceil(dim / parts) elements but the last, which takes
      // what is left.
      int64_t part = (dim + parts - 1) / parts;
      int64_t left = dim;
      for (uint32_t i = 0; i < outputs; ++i) {
        sizes[i] = left < part ? left : part;
        left -= sizes[i];
      }
      // ONNX's shape inference refuses a last chunk of 0 (4 into 3 parts).
      if (left != 0 || (dim > 0 && sizes[outputs - 1] == 0)) {
        return grtc_onnx_error(n, "axis %u (%lld elements) cannot be split into %u parts", axis,
                               (long long)dim, outputs);
      }
    } else {
      if (dim % outputs != 0) {
        return grtc_onnx_error(n,
                               "axis %u (%lld elements) does not split evenly into %u "
                               "outputs; give 'split'",
                               axis, (long long)dim, outputs);
      }
      for (uint32_t i = 0; i < outputs; ++i) sizes[i] = dim / outputs;
    }
  }
  int64_t start = 0;
  for (uint32_t i = 0; i < outputs; ++i) {
    OUT(i) = grtc_onnx_slice_axis(n, x, axis, start, sizes[i]);
    start += sizes[i];
  }
  return grt_ok_status();
}

static int64_t grtc_onnx_clamp(int64_t v, int64_t lo, int64_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

// A Slice's starts, ends, axes and steps have one length, and its axes (0
// to count - 1 where absent) are distinct axes of a rank-|rank| input.
// (Negative steps beside starts or ends read from data go to
// grtc_onnx_slice_gather.)
static bool grtc_onnx_slice_lists(grtc_onnx_node_t* n, uint32_t rank, uint32_t start_count,
                                  uint32_t end_count, bool has_axes, uint32_t axis_count,
                                  bool has_steps, uint32_t step_count, int64_t** axes) {
  if (start_count != end_count || (has_axes && axis_count != start_count) ||
      (has_steps && step_count != start_count)) {
    return grtc_onnx_fail(
        n, grtc_onnx_error(n,
                           "starts, ends, axes and steps must have one length; got %u, %u, "
                           "%u, %u",
                           start_count, end_count, has_axes ? axis_count : start_count,
                           has_steps ? step_count : start_count));
  }
  if (!has_axes) {
    if (start_count > rank) {
      return grtc_onnx_fail(
          n, grtc_onnx_error(n, "%u starts for a rank-%u input", start_count, rank));
    }
    *axes = grtc_tmodule_alloc(n->module, (start_count + 1) * sizeof(int64_t));
    if (!*axes) {
      return grtc_onnx_fail(n, grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory"));
    }
    for (uint32_t i = 0; i < start_count; ++i) (*axes)[i] = i;
  }
  return grtc_onnx_axes(n, "axis", *axes, start_count, rank);
}

// Slice of |x| whose |count| ends a graph input's data gives
// (grtc_onnx_shape_from_data; starts, axes and steps constant, steps
// positive): a real_dynamic_slice whose limit on a sliced axis of
// dimension d is, computed at the call, max(min(e + [e < 0] * d, d), s)
// (a negative end counts from the back, then ONNX's clamping; the start s
// is clamped here where d is static). Every other axis is taken whole.
static grt_status_t grtc_onnx_slice_from_data(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                              uint32_t count) {
  uint32_t rank = x->type.rank;
  int64_t *starts = NULL, *axes = NULL, *steps = NULL;
  uint32_t start_count = 0, axis_count = 0, step_count = 0;
  if (!grtc_onnx_list(n, "", 1, 10, "input 'starts'", &starts, &start_count)) {
    return grt_ok_status();
  }
  bool has_axes = grtc_onnx_list(n, "", 3, 10, "input 'axes'", &axes, &axis_count);
  bool has_steps = grtc_onnx_list(n, "", 4, 10, "input 'steps'", &steps, &step_count);
  if (!grtc_onnx_ok(n) || !grtc_onnx_slice_lists(n, rank, start_count, count, has_axes,
                                                  axis_count, has_steps, step_count, &axes)) {
    return grt_ok_status();
  }
  // Starts, then strides (grtc_onnx_dynamic_computed's |map|).
  int64_t bounds[2 * GRTC_MAX_RANK];
  int64_t dims[GRTC_MAX_RANK];
  grtc_tvalue_t* limits[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < rank; ++i) {
    bounds[i] = 0;
    bounds[rank + i] = 1;
    limits[i] = grtc_onnx_dimension_size(n, x, i);
    dims[i] = grtc_dim_is_static(x->type.dims[i]) ? x->type.dims[i] : GRTC_ONNX_COMPUTED_DIM;
  }
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t a = (uint32_t)axes[i];
    int64_t dim = x->type.dims[a], step = has_steps ? steps[i] : 1, start = starts[i];
    if (grtc_dim_is_static(dim)) {
      if (start < 0) start += dim;
      start = grtc_onnx_clamp(start, 0, dim);
      if (step > (dim > 1 ? dim : 1)) step = dim > 1 ? dim : 1;
    } else if (start < 0) {
      return grtc_onnx_unsupported(n,
                                   "starts[%u] = %lld counts from the back of a symbolic "
                                   "dimension while input 'ends' is read from a graph input's "
                                   "data at run time; grt takes a start of at least 0 there",
                                   i, (long long)start);
    }
    bounds[a] = start;
    bounds[rank + a] = step;
    grtc_tvalue_t* end = grtc_onnx_shape_item(n, n->inputs[2], i);
    grtc_tvalue_t* size = limits[a];
    grtc_tvalue_t* negative = grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, grtc_onnx_i64(n, 0),
                                               grtc_onnx_clamp_i64(n, end, -1, 0));
    end = grtc_onnx_binary(n, GRTC_TOP_ADD, end,
                           grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, negative, size));
    end = grtc_onnx_binary(n, GRTC_TOP_MAXIMUM, grtc_onnx_binary(n, GRTC_TOP_MINIMUM, end, size),
                           grtc_onnx_i64(n, start));
    limits[a] = end;
    int64_t limit = 0;
    dims[a] = end && grtc_tvalue_constant_element(end, 0, &limit)
                  ? (limit - start + step - 1) / step
                  : GRTC_ONNX_COMPUTED_DIM;
  }
  if (!grtc_onnx_ok(n)) return grt_ok_status();
  OUT(0) = grtc_onnx_dynamic_computed(n, GRTC_TOP_REAL_DYNAMIC_SLICE, x, rank, dims, limits,
                                      bounds);
  return grt_ok_status();
}

// A real_dynamic_slice of |x| from 0 to the rank-0 i64 |limits| (one per
// dimension) by the constant |strides|: a result dimension is static where
// its limit is a constant, else computed at the call.
static grtc_tvalue_t* grtc_onnx_slice_to(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                         grtc_tvalue_t* const* limits, const int64_t* strides) {
  if (!x || !grtc_onnx_ok(n)) return NULL;
  uint32_t rank = x->type.rank;
  int64_t bounds[2 * GRTC_MAX_RANK], dims[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < rank; ++i) {
    int64_t limit = 0;
    bounds[i] = 0;
    bounds[rank + i] = strides[i];
    dims[i] = limits[i] && grtc_tvalue_constant_element(limits[i], 0, &limit)
                  ? (limit + strides[i] - 1) / strides[i]
                  : GRTC_ONNX_COMPUTED_DIM;
  }
  return grtc_onnx_dynamic_computed(n, GRTC_TOP_REAL_DYNAMIC_SLICE, x, rank, dims, limits,
                                    bounds);
}

// Slice of |x| whose |count| starts a graph input's data gives (ends
// constant or read from data too; axes and steps constant, steps
// positive). A real_dynamic_slice takes constant starts only, so with s
// and e clamped at the call as ONNX says (s + [s < 0] * d clamped to [0,
// d], e likewise and then to [s, d]): x[0:e] reversed, its first e - s
// elements, reversed again, is x[s:e]; a step k > 1 then takes every k-th
// from 0.
static grt_status_t grtc_onnx_slice_starts_from_data(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                                     uint32_t count) {
  uint32_t rank = x->type.rank;
  int64_t *axes = NULL, *steps = NULL;
  uint32_t axis_count = 0, step_count = 0;
  bool has_axes = grtc_onnx_list(n, "", 3, 10, "input 'axes'", &axes, &axis_count);
  bool has_steps = grtc_onnx_list(n, "", 4, 10, "input 'steps'", &steps, &step_count);
  if (!grtc_onnx_ok(n)) return grt_ok_status();
  grtc_tvalue_t* ends_input = n->inputs[2];
  if (ends_input->type.rank != 1 || !grtc_dim_is_static(ends_input->type.dims[0]) ||
      ends_input->type.dims[0] != count || (has_axes && axis_count != count) ||
      (has_steps && step_count != count)) {
    char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_onnx_error(n,
                           "starts (%u values), ends (%s), axes and steps must have one "
                           "length; got %u axes and %u steps",
                           count, grtc_onnx_fmt(ends_input, buffer),
                           has_axes ? axis_count : count, has_steps ? step_count : count);
  }
  // The lengths agree (above): the list helper only fills in and checks the axes.
  if (!grtc_onnx_slice_lists(n, rank, count, count, has_axes, count, false, 0, &axes)) {
    return grt_ok_status();
  }
  grtc_tvalue_t* ends[GRTC_MAX_RANK];
  grtc_tvalue_t* spans[GRTC_MAX_RANK];
  int64_t ones[GRTC_MAX_RANK], strides[GRTC_MAX_RANK], sliced[GRTC_MAX_RANK];
  bool stepped = false;
  for (uint32_t i = 0; i < rank; ++i) {
    ones[i] = strides[i] = 1;
    ends[i] = grtc_onnx_dimension_size(n, x, i);
    spans[i] = NULL;
  }
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t a = (uint32_t)axes[i];
    int64_t step = has_steps ? steps[i] : 1;
    int64_t dim = x->type.dims[a];
    if (grtc_dim_is_static(dim) && step > (dim > 1 ? dim : 1)) step = dim > 1 ? dim : 1;
    strides[a] = step;
    stepped |= step > 1;
    sliced[i] = a;
    grtc_tvalue_t* size = ends[a];
    grtc_tvalue_t* bound[2];
    for (uint32_t k = 0; k < 2; ++k) {
      grtc_tvalue_t* v = grtc_onnx_shape_item(n, n->inputs[1 + k], i);
      grtc_tvalue_t* negative = grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, grtc_onnx_i64(n, 0),
                                                 grtc_onnx_clamp_i64(n, v, -1, 0));
      v = grtc_onnx_binary(n, GRTC_TOP_ADD, v,
                           grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, negative, size));
      bound[k] = grtc_onnx_binary(n, GRTC_TOP_MAXIMUM,
                                  grtc_onnx_binary(n, GRTC_TOP_MINIMUM, v, size),
                                  k == 0 ? grtc_onnx_i64(n, 0) : bound[0]);
    }
    ends[a] = bound[1];
    spans[a] = grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, bound[1], bound[0]);
  }
  if (!grtc_onnx_ok(n)) return grt_ok_status();
  grtc_tvalue_t* head = grtc_onnx_slice_to(n, x, ends, ones);
  grtc_tvalue_t* back = grtc_onnx_reverse(n, head, sliced, count);
  grtc_tvalue_t* limits[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < rank; ++i) {
    limits[i] = spans[i] ? spans[i] : (back ? grtc_onnx_dimension_size(n, back, i) : NULL);
  }
  grtc_tvalue_t* value = grtc_onnx_reverse(n, grtc_onnx_slice_to(n, back, limits, ones), sliced,
                                           count);
  if (stepped && value) {
    for (uint32_t i = 0; i < rank; ++i) limits[i] = grtc_onnx_dimension_size(n, value, i);
    value = grtc_onnx_slice_to(n, value, limits, strides);
  }
  OUT(0) = value;
  return grt_ok_status();
}

// A bound on the starts, ends and steps read from data before the
// arithmetic below: past any dimension (the kernels' are 32-bit) and far
// from overflow, so clamping by it keeps ONNX's meaning.
#define GRTC_ONNX_SLICE_BOUND (INT64_C(1) << 33)

#define GRTC_I64S(array, n_) ((grtc_i64s_t){(n_), (array)})
static grtc_tvalue_t* grtc_onnx_gather_op(grtc_onnx_node_t* n, grtc_tvalue_t* data,
                                          grtc_tvalue_t* indices, const grtc_gather_dims_t* g,
                                          const grtc_ttype_t* type);

// A gather whose index vectors are the indices broadcast to [n0, ...,
// n_{r-1}, 1] and concatenated on the last axis.
grtc_tvalue_t* grtc_onnx_take_all(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                  grtc_tvalue_t* const* indices) {
  if (!x || !grtc_onnx_ok(n)) return NULL;
  uint32_t r = x->type.rank;
  grtc_ttype_t type = grtc_onnx_type(GRTC_ELEM_I64, r + 1, NULL);
  int64_t axes[GRTC_MAX_RANK], ones[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < r; ++i) {
    if (!indices[i]) return NULL;
    type.dims[i] = indices[i]->type.dims[0];
    axes[i] = i;
    ones[i] = 1;
  }
  type.dims[r] = 1;
  grtc_tvalue_t* columns[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < r; ++i) {
    int64_t map = i;
    columns[i] = grtc_onnx_broadcast_in_dim(n, indices[i], &type, &map);
  }
  grtc_tvalue_t* vectors = r == 1 ? columns[0] : grtc_onnx_concat(n, columns, r, r);
  grtc_ttype_t result = x->type;
  for (uint32_t i = 0; i < r; ++i) result.dims[i] = type.dims[i];
  grtc_gather_dims_t g;
  memset(&g, 0, sizeof(g));
  g.collapsed_slice_dims = GRTC_I64S(axes, r);
  g.start_index_map = GRTC_I64S(axes, r);
  g.slice_sizes = GRTC_I64S(ones, r);
  g.index_vector_dim = r;
  return grtc_onnx_gather_op(n, x, vectors, &g, &result);
}

// Slice whose axes or steps a graph input's data gives (starts and ends
// constants or read from data too), or whose negative steps go with
// starts or ends read from data. Each sliced axis j of dimension d, with
// start s, end e and step k (clamped to +-2^33 first), computed at the
// call: p = [k > 0]; s and e count from the back where negative and clamp
// to [p - 1, d - 1 + p]; the axis keeps max((q * (e - s) + |k| - 1) / |k|,
// 0) elements, q = 2p - 1, taken by a gather at s + k * i. Axes read from
// data pick each axis's bounds by arithmetic ([a == j] * s + ...; an axis
// no element names is taken whole). A step of 0, an axis out of range and
// an axis named twice fail the call, naming the node and the input.
static grt_status_t grtc_onnx_slice_gather(grtc_onnx_node_t* n, grtc_tvalue_t* x) {
  static const char* const names[4] = {"starts", "ends", "axes", "steps"};
  uint32_t rank = x->type.rank;
  grtc_tvalue_t* lists[4] = {n->inputs[1], n->inputs[2], grtc_onnx_optional(n, 3),
                             grtc_onnx_optional(n, 4)};
  if (!grtc_ttype_is_static(&x->type)) {
    char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_onnx_unsupported(n,
                                 "input 'data' %s has symbolic dimensions while input "
                                 "'axes' or 'steps' (or a negative step beside starts or "
                                 "ends) is read from a graph input's data at run time; grt "
                                 "slices such data by a gather, from static data only yet",
                                 grtc_onnx_fmt(x, buffer));
  }
  uint32_t count = 0;
  for (uint32_t k = 0; k < 4; ++k) {
    grtc_tvalue_t* v = lists[k];
    if (!v) continue;
    if (v->type.rank != 1 || !grtc_dim_is_static(v->type.dims[0]) ||
        (v->type.elem != GRTC_ELEM_I64 && v->type.elem != GRTC_ELEM_I32)) {
      char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
      return grtc_onnx_error(n,
                             "input '%s' must be a 1-D int64 or int32 tensor of a static "
                             "length, got %s",
                             names[k], grtc_onnx_fmt(v, buffer));
    }
    uint32_t length = (uint32_t)v->type.dims[0];
    if (k == 0) {
      count = length;
    } else if (length != count) {
      return grtc_onnx_error(n,
                             "starts, ends, axes and steps must have one length; input 'starts' "
                             "has %u elements, input '%s' %u",
                             count, names[k], length);
    }
  }
  if (count > rank) return grtc_onnx_error(n, "%u starts for a rank-%u input", count, rank);
  bool axes_data = lists[2] && !grtc_onnx_is_constant(lists[2]);
  int64_t* axes = NULL;
  if (!axes_data) {
    uint32_t axis_count = 0;
    bool has_axes = grtc_onnx_list(n, "", 3, 10, "input 'axes'", &axes, &axis_count);
    if (!grtc_onnx_ok(n) ||
        !grtc_onnx_slice_lists(n, rank, count, count, has_axes, count, false, 0, &axes)) {
      return grt_ok_status();
    }
  }
  grtc_tvalue_t* items[4][GRTC_MAX_RANK];
  for (uint32_t i = 0; i < count; ++i) {
    for (uint32_t k = 0; k < 4; ++k) {
      if (!lists[k]) {
        items[k][i] = grtc_onnx_i64(n, k == 2 ? (int64_t)i : 1);
        continue;
      }
      grtc_tvalue_t* v = grtc_onnx_shape_item(n, lists[k], i);
      if (k != 2) v = grtc_onnx_clamp_i64(n, v, -GRTC_ONNX_SLICE_BOUND, GRTC_ONNX_SLICE_BOUND);
      items[k][i] = v;
    }
    grtc_tvalue_t* step = items[3][i];
    int64_t constant = 0;
    if (step && grtc_tvalue_constant_element(step, 0, &constant)) {
      if (constant == 0) return grtc_onnx_error(n, "steps[%u] is 0", i);
    } else {
      grtc_tvalue_t* values[1] = {step};
      grtc_onnx_assert_at_call(n, grtc_onnx_compare(n, GRTC_CMP_NE, step, grtc_onnx_i64(n, 0)),
                               values, 1,
                               "input 'steps' ('%s') element %u must not be 0: got {0}",
                               n->proto->input[4], i);
    }
    if (axes_data) {
      char what[160];
      snprintf(what, sizeof(what), "input 'axes' ('%s') element %u", n->proto->input[3], i);
      grtc_tvalue_t* a = items[2][i];
      grtc_onnx_check_range_at_call(n, a, grtc_onnx_i64(n, -(int64_t)rank),
                                    grtc_onnx_i64(n, (int64_t)rank - 1), what);
      // a + [a < 0] * rank
      items[2][i] = grtc_onnx_binary(
          n, GRTC_TOP_SUBTRACT, a,
          grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, grtc_onnx_clamp_i64(n, a, -1, 0),
                           grtc_onnx_i64(n, (int64_t)rank)));
    }
  }
  if (!grtc_onnx_ok(n)) return grt_ok_status();
  // Each axis's indices; an axis no element names (constant axes) whole.
  grtc_tvalue_t* taken[GRTC_MAX_RANK];
  for (uint32_t j = 0; j < rank; ++j) {
    grtc_tvalue_t *s = NULL, *e = NULL, *k = NULL;
    if (axes_data) {
      // The bounds of the elements naming axis j; 0, the bound and 1 where none does.
      grtc_tvalue_t* named = grtc_onnx_i64(n, 0);
      s = grtc_onnx_i64(n, 0);
      e = grtc_onnx_i64(n, 0);
      k = grtc_onnx_i64(n, 0);
      for (uint32_t i = 0; i < count; ++i) {
        grtc_tvalue_t* m = grtc_onnx_is_i64(n, items[2][i], (int64_t)j);
        named = grtc_onnx_binary(n, GRTC_TOP_ADD, named, m);
        s = grtc_onnx_binary(n, GRTC_TOP_ADD, s, grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, m, items[0][i]));
        e = grtc_onnx_binary(n, GRTC_TOP_ADD, e, grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, m, items[1][i]));
        k = grtc_onnx_binary(n, GRTC_TOP_ADD, k, grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, m, items[3][i]));
      }
      char what[200];
      snprintf(what, sizeof(what),
               "the number of elements of input 'axes' ('%s') that name axis %u (or %d)",
               n->proto->input[3], j, (int)j - (int)rank);
      grtc_onnx_check_range_at_call(n, named, grtc_onnx_i64(n, 0), grtc_onnx_i64(n, 1), what);
      grtc_tvalue_t* unnamed = grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, grtc_onnx_i64(n, 1), named);
      e = grtc_onnx_binary(n, GRTC_TOP_ADD, e,
                           grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, unnamed,
                                            grtc_onnx_i64(n, GRTC_ONNX_SLICE_BOUND)));
      k = grtc_onnx_binary(n, GRTC_TOP_ADD, k, unnamed);
    } else {
      for (uint32_t i = 0; i < count; ++i) {
        if (axes[i] == (int64_t)j) {
          s = items[0][i];
          e = items[1][i];
          k = items[3][i];
        }
      }
      if (!s) {
        taken[j] = grtc_onnx_iota_of(n, GRTC_ELEM_I64, 1, &x->type.dims[j], 0);
        continue;
      }
    }
    grtc_tvalue_t* d = grtc_onnx_dimension_size(n, x, j);
    grtc_tvalue_t* p = grtc_onnx_clamp_i64(n, k, 0, 1);
    grtc_tvalue_t* lo = grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, p, grtc_onnx_i64(n, 1));
    grtc_tvalue_t* bounds[2] = {s, e};
    for (uint32_t b = 0; b < 2; ++b) {
      grtc_tvalue_t* v = bounds[b];
      grtc_tvalue_t* hi = grtc_onnx_binary(n, GRTC_TOP_ADD, grtc_onnx_dimension_size(n, x, j), lo);
      v = grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, v,
                           grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, grtc_onnx_clamp_i64(n, v, -1, 0), d));
      bounds[b] = grtc_onnx_binary(n, GRTC_TOP_MAXIMUM,
                                   grtc_onnx_binary(n, GRTC_TOP_MINIMUM, v, hi), lo);
    }
    grtc_tvalue_t* q = grtc_onnx_binary(n, GRTC_TOP_SUBTRACT,
                                        grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, p, grtc_onnx_i64(n, 2)),
                                        grtc_onnx_i64(n, 1));
    grtc_tvalue_t* magnitude = grtc_onnx_binary(
        n, GRTC_TOP_MAXIMUM, grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, q, k), grtc_onnx_i64(n, 1));
    grtc_tvalue_t* span = grtc_onnx_binary(
        n, GRTC_TOP_MULTIPLY, q, grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, bounds[1], bounds[0]));
    grtc_tvalue_t* length = grtc_onnx_binary(
        n, GRTC_TOP_MAXIMUM,
        grtc_onnx_binary(n, GRTC_TOP_DIVIDE,
                         grtc_onnx_binary(n, GRTC_TOP_SUBTRACT,
                                          grtc_onnx_binary(n, GRTC_TOP_ADD, span, magnitude),
                                          grtc_onnx_i64(n, 1)),
                         magnitude),
        grtc_onnx_i64(n, 0));
    int64_t dim = grtc_onnx_item_dim(length);
    grtc_tvalue_t* iota =
        grtc_onnx_dynamic_computed(n, GRTC_TOP_DYNAMIC_IOTA, NULL, 1, &dim, &length, NULL);
    taken[j] = grtc_onnx_binary(
        n, GRTC_TOP_ADD, grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, iota, k), bounds[0]);
  }
  if (!grtc_onnx_ok(n)) return grt_ok_status();
  OUT(0) = grtc_onnx_take_all(n, x, taken);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_slice(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  uint32_t rank = x->type.rank;
  int64_t *starts = NULL, *ends = NULL, *axes = NULL, *steps = NULL;
  uint32_t start_count = 0, end_count = 0, axis_count = 0, step_count = 0;
  bool has_axes, has_steps = false;
  if (n->opset < 10) {
    if (!grtc_onnx_attr_ints(n, "starts", &starts, &start_count) ||
        !grtc_onnx_attr_ints(n, "ends", &ends, &end_count)) {
      if (!grtc_onnx_ok(n)) return grt_ok_status();
      return grtc_onnx_error(n, "attributes 'starts' and 'ends' are required");
    }
    has_axes = grtc_onnx_attr_ints(n, "axes", &axes, &axis_count);
  } else {
    if (!grtc_onnx_input(n, 1) || !grtc_onnx_input(n, 2)) return grt_ok_status();
    grtc_tvalue_t* axes_input = grtc_onnx_optional(n, 3);
    grtc_tvalue_t* steps_input = grtc_onnx_optional(n, 4);
    if ((axes_input && !grtc_onnx_is_constant(axes_input)) ||
        (steps_input && !grtc_onnx_is_constant(steps_input))) {
      return grtc_onnx_slice_gather(n, x);
    }
    if (steps_input && (!grtc_onnx_is_constant(n->inputs[1]) ||
                        !grtc_onnx_is_constant(n->inputs[2]))) {
      // A negative step beside starts or ends read from data.
      int64_t* values = NULL;
      uint32_t value_count = 0;
      if (!grtc_onnx_list(n, "", 4, 10, "input 'steps'", &values, &value_count)) {
        return grt_ok_status();
      }
      for (uint32_t i = 0; i < value_count; ++i) {
        if (values[i] < 0) return grtc_onnx_slice_gather(n, x);
      }
    }
    uint32_t data_count = 0;
    if (grtc_onnx_shape_from_data(n, n->inputs[1], "input 'starts'", &data_count)) {
      return grtc_onnx_slice_starts_from_data(n, x, data_count);
    }
    if (!grtc_onnx_ok(n)) return grt_ok_status();
    if (grtc_onnx_shape_from_data(n, n->inputs[2], "input 'ends'", &data_count)) {
      return grtc_onnx_slice_from_data(n, x, data_count);
    }
    if (!grtc_onnx_ok(n)) return grt_ok_status();
    if (!grtc_onnx_list(n, "", 1, 10, "input 'starts'", &starts, &start_count) ||
        !grtc_onnx_list(n, "", 2, 10, "input 'ends'", &ends, &end_count)) {
      return grt_ok_status();
    }
    has_axes = grtc_onnx_list(n, "", 3, 10, "input 'axes'", &axes, &axis_count);
    has_steps = grtc_onnx_list(n, "", 4, 10, "input 'steps'", &steps, &step_count);
  }
  if (!grtc_onnx_ok(n) || !grtc_onnx_slice_lists(n, rank, start_count, end_count, has_axes,
                                                  axis_count, has_steps, step_count, &axes)) {
    return grt_ok_status();
  }
  int64_t lo[GRTC_MAX_RANK] = {0}, hi[GRTC_MAX_RANK], st[GRTC_MAX_RANK];
  int64_t reversed[GRTC_MAX_RANK];
  uint32_t reversed_count = 0;
  for (uint32_t i = 0; i < rank; ++i) {
    hi[i] = x->type.dims[i];
    st[i] = 1;
  }
  bool x_symbolic = !grtc_ttype_is_static(&x->type);
  for (uint32_t i = 0; i < start_count; ++i) {
    uint32_t a = (uint32_t)axes[i];
    int64_t dim = x->type.dims[a];
    int64_t step = has_steps ? steps[i] : 1;
    if (step == 0) return grtc_onnx_error(n, "steps[%u] is 0", i);
    if (!grtc_dim_is_static(dim)) {
      // All of a symbolic axis (exporters write [0, INT64_MAX)) only.
      if (step != 1 || starts[i] != 0 || ends[i] < (INT64_C(1) << 31)) {
        return grtc_onnx_symbolic_error(n, 0, a, dim,
                                        "grt slices a symbolic dimension only whole");
      }
      continue;
    }
    // A step beyond the dimension takes one element, as one of dim does
    // (and keeps the size arithmetic from overflowing).
    int64_t most = dim > 1 ? dim : 1;
    if (step > most) step = most;
    if (step < -most) step = -most;
    int64_t s = starts[i], e = ends[i];
    // Negative values count from the end, then everything is clamped
    // (exporters write INT64_MIN/INT64_MAX for "to the end").
    if (s < 0) s += dim;
    if (e < 0) e += dim;
    if (step > 0) {
      s = grtc_onnx_clamp(s, 0, dim);
      e = grtc_onnx_clamp(e, 0, dim);
      if (e < s) e = s;
      lo[a] = s;
      hi[a] = e;
      st[a] = step;
    } else {
      // Elements s, s + step, ... while > e; on the reversed axis (index
      // dim - 1 - j) they are dim - 1 - s, ... with stride -step.
      s = grtc_onnx_clamp(s, -1, dim - 1);
      e = grtc_onnx_clamp(e, -1, dim - 1);
      int64_t k = -step;
      int64_t count = s > e ? (s - e - 1) / k + 1 : 0;
      int64_t rs = dim - 1 - s;
      if (count == 0) {
        lo[a] = hi[a] = 0;
      } else {
        lo[a] = rs;
        hi[a] = rs + (count - 1) * k + 1;
        reversed[reversed_count++] = a;
      }
      st[a] = k;
    }
  }
  if (x_symbolic) {
    // stablehlo.slice's limits are static: the static axes are cropped
    // with negative padding instead (exact), the symbolic ones untouched.
    int64_t low[GRTC_MAX_RANK], high[GRTC_MAX_RANK];
    for (uint32_t i = 0; i < rank; ++i) {
      bool whole = !grtc_dim_is_static(x->type.dims[i]);
      if (!whole && st[i] != 1) {
        return grtc_onnx_unsupported(n,
                                     "a step of %lld on axis %u of a tensor with symbolic "
                                     "dimensions; grt slices such tensors with step 1 only: pin "
                                     "the model's symbolic inputs with "
                                     "--onnx-input-shape=NAME:<dims>",
                                     (long long)st[i], i);
      }
      low[i] = whole ? 0 : -lo[i];
      high[i] = whole ? 0 : hi[i] - x->type.dims[i];
    }
    if (reversed_count) {
      return grtc_onnx_unsupported(n,
                                   "a negative step on a tensor with symbolic dimensions; grt "
                                   "slices such tensors with step 1 only: pin the model's "
                                   "symbolic inputs with --onnx-input-shape=NAME:<dims>");
    }
    OUT(0) = grtc_onnx_pad(n, x, grtc_onnx_scalar(n, x->type.elem, 0), low, high);
    return grt_ok_status();
  }
  grtc_tvalue_t* value = grtc_onnx_reverse(n, x, reversed, reversed_count);
  OUT(0) = grtc_onnx_slice(n, value, lo, hi, st);
  // A slice of a shape holding symbolic dimensions (x.shape[:2]) keeps
  // them; its static elements alone are a constant.
  grtc_onnx_shape_values_t known, picked;
  if (rank == 1 && !grtc_onnx_is_constant(x) && grtc_onnx_shape_values(n, x, &known) && OUT(0)) {
    memset(&picked, 0, sizeof(picked));
    bool symbolic = false;
    for (int64_t t = lo[0]; t < hi[0]; t += st[0]) {
      int64_t from = reversed_count ? x->type.dims[0] - 1 - t : t;
      picked.values[picked.count] = known.values[from];
      symbolic |= picked.symbolic[picked.count++] = known.symbolic[from];
    }
    if (!symbolic) {
      int64_t count = picked.count;
      OUT(0) = grtc_onnx_const_ints(n, x->type.elem, 1, &count, picked.values);
    } else {
      grtc_onnx_remember_shape_values(n, OUT(0), &picked);
    }
  }
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Gather, GatherElements, GatherND
//===----------------------------------------------------------------------===//

// |indices| as i64 with negative entries wrapped by |bound| (broadcast
// against them: a scalar, or one bound per index vector entry).
static grtc_tvalue_t* grtc_onnx_wrap_indices(grtc_onnx_node_t* n, grtc_tvalue_t* indices,
                                             grtc_tvalue_t* bound) {
  if (!indices || !bound) return NULL;
  if (!grtc_elem_is_integer(indices->type.elem) || indices->type.elem == GRTC_ELEM_I1) {
    char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
    grtc_onnx_fail(n, grtc_onnx_error(n, "indices must be an integer tensor, got %s",
                                     grtc_onnx_fmt(indices, buffer)));
    return NULL;
  }
  indices = grtc_onnx_convert(n, indices, GRTC_ELEM_I64);
  grtc_tvalue_t* zero = grtc_onnx_scalar(n, GRTC_ELEM_I64, 0);
  grtc_tvalue_t* negative = grtc_onnx_compare(n, GRTC_CMP_LT, indices, zero);
  grtc_tvalue_t* wrapped = grtc_onnx_binary(n, GRTC_TOP_ADD, indices, bound);
  return grtc_onnx_select(n, negative, wrapped, indices);
}

// Checks that constant |indices| lie in [-bound, bound) (entry i's bound
// is bounds[i % bound_count]), for a clear compile-time error instead of
// the clamping of stablehlo.gather or the skipping of stablehlo.scatter.
static bool grtc_onnx_check_const_indices(grtc_onnx_node_t* n, grtc_tvalue_t* indices,
                                          const int64_t* bounds, uint32_t bound_count) {
  if (!indices || !grtc_onnx_is_constant(indices)) return true;
  int64_t* values = NULL;
  uint32_t count = 0;
  if (!grtc_onnx_ints(n, indices, "input 'indices'", &values, &count)) return false;
  for (uint32_t i = 0; i < count; ++i) {
    int64_t bound = bounds[bound_count ? i % bound_count : 0];
    if (values[i] < -bound || values[i] >= bound) {
      return grtc_onnx_fail(n, grtc_onnx_error(n,
                                              "index %lld (entry %u) is out of range for a "
                                              "dimension of %lld elements",
                                              (long long)values[i], i, (long long)bound));
    }
  }
  return true;
}

static grtc_tvalue_t* grtc_onnx_gather_op(grtc_onnx_node_t* n, grtc_tvalue_t* data,
                                          grtc_tvalue_t* indices, const grtc_gather_dims_t* g,
                                          const grtc_ttype_t* type) {
  if (!data || !indices) return NULL;
  grtc_tvalue_t* operands[2] = {data, indices};
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_GATHER, operands, 2, type, 1, 0);
  if (!op) return NULL;
  grtc_gather_dims_t* d = &op->attrs.gather;
  d->offset_dims = grtc_tmodule_i64s(n->module, g->offset_dims.values, g->offset_dims.count);
  d->collapsed_slice_dims =
      grtc_tmodule_i64s(n->module, g->collapsed_slice_dims.values, g->collapsed_slice_dims.count);
  d->operand_batching_dims =
      grtc_tmodule_i64s(n->module, g->operand_batching_dims.values, g->operand_batching_dims.count);
  d->start_indices_batching_dims = grtc_tmodule_i64s(
      n->module, g->start_indices_batching_dims.values, g->start_indices_batching_dims.count);
  d->start_index_map =
      grtc_tmodule_i64s(n->module, g->start_index_map.values, g->start_index_map.count);
  d->slice_sizes = grtc_tmodule_i64s(n->module, g->slice_sizes.values, g->slice_sizes.count);
  d->index_vector_dim = g->index_vector_dim;
  return grtc_onnx_fold(n, op);
}


// Gather on a small constant: computed here (fold.c does not fold gather),
// so shape arithmetic (Shape -> Gather -> Concat -> Reshape) stays constant.
static grtc_tvalue_t* grtc_onnx_gather_const(grtc_onnx_node_t* n, grtc_tvalue_t* data,
                                             const int64_t* indices, int64_t index_count,
                                             uint32_t axis, const grtc_ttype_t* type) {
  int64_t outer = 1, inner = 1, dim = data->type.dims[axis];
  for (uint32_t i = 0; i < axis; ++i) outer *= data->type.dims[i];
  for (uint32_t i = axis + 1; i < data->type.rank; ++i) inner *= data->type.dims[i];
  size_t element = grtc_elem_byte_size(data->type.elem);
  int64_t total = outer * index_count * inner;
  uint8_t* bytes = grtc_tmodule_alloc(n->module, (size_t)total * element + 1);
  if (!bytes) {
    grtc_onnx_fail(n, grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory"));
    return NULL;
  }
  bool splat = false;
  const uint8_t* src = grtc_onnx_const_data(data, &splat);
  int64_t at = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < index_count; ++k) {
      int64_t index = indices[k] < 0 ? indices[k] + dim : indices[k];
      for (int64_t i = 0; i < inner; ++i) {
        int64_t from = splat ? 0 : (o * dim + index) * inner + i;
        memcpy(bytes + (size_t)at * element, src + (size_t)from * element, element);
        ++at;
      }
    }
  }
  return grtc_onnx_constant(n, type, bytes, (size_t)total * element, false);
}

// Index |at| of |axis| of |x| (a tensor with symbolic dimensions), the
// other dimensions whole: a slice whose symbolic limits are the operand's
// own extents (grtc_verify_slice); on a symbolic |axis| the call checks
// the extent holds at + 1 (an out-of-range index is an error there, as
// ONNX has it). A negative |at| counts from the end: a slice of the
// reversed axis.
static grtc_tvalue_t* grtc_onnx_symbolic_pick(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t axis,
                                              int64_t at) {
  if (!x || !grtc_onnx_ok(n)) return NULL;
  if (at < 0 && grtc_dim_is_static(x->type.dims[axis])) at += x->type.dims[axis];
  if (at < 0) {
    int64_t reversed = axis;
    x = grtc_onnx_reverse(n, x, &reversed, 1);
    at = -at - 1;
    if (!x) return NULL;
  }
  int64_t starts[GRTC_MAX_RANK] = {0}, limits[GRTC_MAX_RANK], strides[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < x->type.rank; ++i) {
    limits[i] = x->type.dims[i];
    strides[i] = 1;
  }
  starts[axis] = at;
  limits[axis] = at + 1;
  return grtc_onnx_slice(n, x, starts, limits, strides);
}

// The most constant indices a Gather of a tensor with symbolic dimensions
// takes as slices (one slice per index).
#define GRTC_ONNX_SYMBOLIC_GATHER_PICKS 16

static grt_status_t grtc_onnx_op_gather(grtc_onnx_node_t* n) {
  grtc_tvalue_t* data = grtc_onnx_input(n, 0);
  grtc_tvalue_t* indices = grtc_onnx_input(n, 1);
  if (!data || !indices) return grt_ok_status();
  uint32_t r = data->type.rank, q = indices->type.rank;
  if (r == 0) return grtc_onnx_error(n, "the data must have rank >= 1");
  uint32_t axis = 0;
  if (!grtc_onnx_axis(n, "attribute 'axis'", grtc_onnx_attr_int(n, "axis", 0), r, &axis)) {
    return grt_ok_status();
  }
  if (r - 1 + q > GRTC_MAX_RANK) {
    return grtc_onnx_unsupported(n, "the result would have rank %u; grt supports up to %d",
                                 r - 1 + q, GRTC_MAX_RANK);
  }
  grtc_ttype_t type = grtc_onnx_type(data->type.elem, 0, NULL);
  for (uint32_t i = 0; i < axis; ++i) type.dims[type.rank++] = data->type.dims[i];
  for (uint32_t i = 0; i < q; ++i) type.dims[type.rank++] = indices->type.dims[i];
  for (uint32_t i = axis + 1; i < r; ++i) type.dims[type.rank++] = data->type.dims[i];
  int64_t dim = data->type.dims[axis];
  grtc_onnx_shape_values_t known, picked;
  memset(&picked, 0, sizeof(picked));
  bool pick = r == 1 && q <= 1 && grtc_onnx_is_constant(indices) &&
              grtc_onnx_shape_values(n, data, &known);
  if (grtc_onnx_is_constant(indices)) {
    int64_t* values = NULL;
    uint32_t count = 0;
    if (!grtc_onnx_ints(n, indices, "input 'indices'", &values, &count)) return grt_ok_status();
    for (uint32_t i = 0; i < count; ++i) {
      // (On a symbolic axis the call checks the extent.)
      if (grtc_dim_is_static(dim) && (values[i] < -dim || values[i] >= dim)) {
        return grtc_onnx_error(n, "index %lld is out of range for axis %u of size %lld",
                               (long long)values[i], axis, (long long)dim);
      }
      if (pick && picked.count < GRTC_MAX_RANK) {
        // Gather of a shape's elements (x.size(0)).
        int64_t at = values[i] < 0 ? values[i] + dim : values[i];
        picked.values[picked.count] = known.values[at];
        picked.symbolic[picked.count++] = known.symbolic[at];
      }
    }
    if (grtc_onnx_is_constant(data) && grtc_ttype_element_count(&type) <= (1 << 16)) {
      OUT(0) = grtc_onnx_gather_const(n, data, values, count, axis, &type);
      return grt_ok_status();
    }
  }
  if (!pick && !grtc_ttype_is_static(&data->type)) {
    // Data with symbolic dimensions (docs/onnx.md "Symbolic dimensions"):
    // constant indices are slices; other indices a gather along a
    // symbolic or static axis whose slice sizes are static, so every other
    // dimension must be.
    int64_t* values = NULL;
    uint32_t count = 0;
    if (grtc_onnx_is_constant(indices)) {
      if (!grtc_onnx_ints(n, indices, "input 'indices'", &values, &count)) return grt_ok_status();
    }
    if (count >= 1 && count <= GRTC_ONNX_SYMBOLIC_GATHER_PICKS) {
      grtc_tvalue_t* parts[GRTC_ONNX_SYMBOLIC_GATHER_PICKS];
      for (uint32_t i = 0; i < count; ++i) {
        parts[i] = grtc_onnx_symbolic_pick(n, data, axis, values[i]);
      }
      OUT(0) = grtc_onnx_reshape(n, grtc_onnx_concat(n, parts, count, axis), type.rank,
                                 type.dims);
      return grt_ok_status();
    }
    for (uint32_t i = 0; i < r; ++i) {
      if (i != axis && !grtc_dim_is_static(data->type.dims[i])) {
        return grtc_onnx_symbolic_error(
            n, 0, i, data->type.dims[i],
            "grt gathers from a tensor with a symbolic dimension other than the gathered axis "
            "only by constant indices (1 to 16 of them)");
      }
    }
  }
  // Negative indices wrap by the axis' extent (read at the call when it
  // is symbolic); out-of-range ones are clamped by the gather.
  grtc_tvalue_t* wrapped =
      grtc_onnx_wrap_indices(n, indices, grtc_onnx_dimension_size(n, data, axis));
  int64_t offset_dims[GRTC_MAX_RANK], slice_sizes[GRTC_MAX_RANK];
  uint32_t offset_count = 0;
  for (uint32_t i = 0; i < r; ++i) {
    slice_sizes[i] = i == axis ? 1 : data->type.dims[i];
    if (i < axis) offset_dims[offset_count++] = i;
    if (i > axis) offset_dims[offset_count++] = i - 1 + q;
  }
  int64_t collapsed = axis;
  grtc_gather_dims_t g;
  memset(&g, 0, sizeof(g));
  g.offset_dims = GRTC_I64S(offset_dims, offset_count);
  g.collapsed_slice_dims = GRTC_I64S(&collapsed, 1);
  g.start_index_map = GRTC_I64S(&collapsed, 1);
  g.slice_sizes = GRTC_I64S(slice_sizes, r);
  g.index_vector_dim = q;
  if (pick) {
    bool symbolic = false;
    for (uint32_t i = 0; i < picked.count; ++i) symbolic |= picked.symbolic[i];
    if (!symbolic) {
      // Static elements of a partly symbolic shape (x.size(1) of [N, 5,
      // 16]): a constant, so later shape arithmetic folds.
      OUT(0) = grtc_onnx_const_ints(n, data->type.elem, type.rank, type.dims, picked.values);
      return grt_ok_status();
    }
    // Elements of a shape (x.size(0)): static slices of it, so that the
    // arithmetic on them stays visible to the tensor IR's shape rules
    // (grtc_tvalue_shape_expr: a Reshape to [x.size(0) * heads, ...]
    // computes its extents at the call).
    int64_t* values = NULL;
    uint32_t count = 0;
    if (!grtc_onnx_ints(n, indices, "input 'indices'", &values, &count)) return grt_ok_status();
    if (count >= 1 && count == picked.count) {
      grtc_tvalue_t* parts[GRTC_MAX_RANK];
      for (uint32_t i = 0; i < count; ++i) {
        int64_t at = values[i] < 0 ? values[i] + dim : values[i];
        parts[i] = grtc_onnx_slice_axis(n, data, 0, at, 1);
      }
      OUT(0) = q == 0 ? grtc_onnx_reshape(n, parts[0], 0, NULL)
                      : count == 1 ? parts[0] : grtc_onnx_concat(n, parts, count, 0);
      grtc_onnx_remember_shape_values(n, OUT(0), &picked);
      return grt_ok_status();
    }
  }
  OUT(0) = grtc_onnx_gather_op(n, data, wrapped, &g, &type);
  if (pick) grtc_onnx_remember_shape_values(n, OUT(0), &picked);
  return grt_ok_status();
}

// Full index vectors for the elementwise forms (GatherElements,
// ScatterElements): |indices| (wrapped, i64) on |axis| and the position
// itself on every other axis, stacked on a new last dimension.
static grtc_tvalue_t* grtc_onnx_element_indices(grtc_onnx_node_t* n, grtc_tvalue_t* indices,
                                                uint32_t axis) {
  if (!indices) return NULL;
  uint32_t r = indices->type.rank;
  if (r + 1 > GRTC_MAX_RANK) {
    grtc_onnx_fail(n, grtc_onnx_unsupported(n, "indices of rank %u; grt supports up to %d", r,
                                           GRTC_MAX_RANK - 1));
    return NULL;
  }
  int64_t dims[GRTC_MAX_RANK];
  memcpy(dims, indices->type.dims, r * sizeof(int64_t));
  dims[r] = 1;
  grtc_tvalue_t* parts[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < r; ++d) {
    parts[d] = d == axis ? grtc_onnx_reshape(n, indices, r + 1, dims)
                         : grtc_onnx_iota_of(n, GRTC_ELEM_I64, r + 1, dims, d);
  }
  return grtc_onnx_concat(n, parts, r, r);
}

// data[..., indices[i...], ...] on |axis| for every position of |indices|
// (i64, in range, data's rank, no larger than data off the axis): the
// elementwise gather of GatherElements.
static grtc_tvalue_t* grtc_onnx_gather_along(grtc_onnx_node_t* n, grtc_tvalue_t* data,
                                             grtc_tvalue_t* indices, uint32_t axis) {
  if (!data || !indices) return NULL;
  uint32_t r = data->type.rank;
  // The data cut to the indices' extent off the axis, so that every other
  // dimension pairs one to one (a batching dimension) with the indices'.
  int64_t start[GRTC_MAX_RANK] = {0}, limit[GRTC_MAX_RANK], strides[GRTC_MAX_RANK];
  int64_t batching[GRTC_MAX_RANK], ones[GRTC_MAX_RANK];
  uint32_t batching_count = 0;
  for (uint32_t i = 0; i < r; ++i) {
    limit[i] = i == axis ? data->type.dims[i] : indices->type.dims[i];
    strides[i] = 1;
    ones[i] = 1;
    if (i != axis) batching[batching_count++] = i;
  }
  data = grtc_onnx_slice(n, data, start, limit, strides);
  int64_t map = axis;
  grtc_gather_dims_t g;
  memset(&g, 0, sizeof(g));
  g.collapsed_slice_dims = GRTC_I64S(&map, 1);
  g.start_index_map = GRTC_I64S(&map, 1);
  g.operand_batching_dims = GRTC_I64S(batching, batching_count);
  g.start_indices_batching_dims = GRTC_I64S(batching, batching_count);
  g.slice_sizes = GRTC_I64S(ones, r);
  g.index_vector_dim = r;
  grtc_ttype_t type = indices->type;
  type.elem = data ? data->type.elem : type.elem;
  return grtc_onnx_gather_op(n, data, indices, &g, &type);
}

static grt_status_t grtc_onnx_op_gather_elements(grtc_onnx_node_t* n) {
  grtc_tvalue_t* data = grtc_onnx_input(n, 0);
  grtc_tvalue_t* indices = grtc_onnx_input(n, 1);
  if (!data || !indices) return grt_ok_status();
  uint32_t r = data->type.rank;
  if (r == 0 || indices->type.rank != r) {
    char bd[GRTC_TTYPE_FORMAT_CAPACITY], bi[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_onnx_error(n, "data (%s) and indices (%s) must have one rank >= 1",
                           grtc_onnx_fmt(data, bd), grtc_onnx_fmt(indices, bi));
  }
  uint32_t axis = 0;
  if (!grtc_onnx_axis(n, "attribute 'axis'", grtc_onnx_attr_int(n, "axis", 0), r, &axis)) {
    return grt_ok_status();
  }
  for (uint32_t i = 0; i < r; ++i) {
    if (i != axis && indices->type.dims[i] > data->type.dims[i]) {
      char bd[GRTC_TTYPE_FORMAT_CAPACITY], bi[GRTC_TTYPE_FORMAT_CAPACITY];
      return grtc_onnx_error(n, "indices %s exceed data %s on axis %u", grtc_onnx_fmt(indices, bi),
                             grtc_onnx_fmt(data, bd), i);
    }
  }
  int64_t dim = data->type.dims[axis];
  if (!grtc_onnx_check_const_indices(n, indices, &dim, 1)) return grt_ok_status();
  grtc_tvalue_t* wrapped =
      grtc_onnx_wrap_indices(n, indices, grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)dim));
  OUT(0) = grtc_onnx_gather_along(n, data, wrapped, axis);
  return grt_ok_status();
}

// ReverseSequence: position t of batch entry b reads t' = len[b] - 1 - t
// when t < len[b] (lengths clamped to [0, steps]), else t itself.
static grt_status_t grtc_onnx_op_reverse_sequence(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* lens = grtc_onnx_input(n, 1);
  if (!x || !lens) return grt_ok_status();
  uint32_t r = x->type.rank;
  char bx[GRTC_TTYPE_FORMAT_CAPACITY], bl[GRTC_TTYPE_FORMAT_CAPACITY];
  if (r < 2)
    return grtc_onnx_error(n, "the input must have rank >= 2, got %s", grtc_onnx_fmt(x, bx));
  uint32_t time = 0, batch = 0;
  if (!grtc_onnx_axis(n, "attribute 'time_axis'", grtc_onnx_attr_int(n, "time_axis", 0), r,
                      &time) ||
      !grtc_onnx_axis(n, "attribute 'batch_axis'", grtc_onnx_attr_int(n, "batch_axis", 1), r,
                      &batch)) {
    return grt_ok_status();
  }
  if (time == batch || time > 1 || batch > 1) {
    return grtc_onnx_error(n, "time_axis and batch_axis must be 0 and 1 in either order");
  }
  if (lens->type.rank != 1 || lens->type.dims[0] != x->type.dims[batch] ||
      !grtc_elem_is_integer(lens->type.elem) || lens->type.elem == GRTC_ELEM_I1) {
    return grtc_onnx_error(n, "sequence_lens must be integers, one per batch entry of %s; got %s",
                           grtc_onnx_fmt(x, bx), grtc_onnx_fmt(lens, bl));
  }
  int64_t steps = x->type.dims[time];
  grtc_tvalue_t* len = grtc_onnx_convert(n, lens, GRTC_ELEM_I64);
  len = grtc_onnx_binary(
      n, GRTC_TOP_MAXIMUM,
      grtc_onnx_binary(n, GRTC_TOP_MINIMUM, len, grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)steps)),
      grtc_onnx_scalar(n, GRTC_ELEM_I64, 0));
  if (!len) return grt_ok_status();
  grtc_ttype_t wide = x->type;
  wide.elem = GRTC_ELEM_I64;
  int64_t map[1] = {batch};
  len = grtc_onnx_broadcast_in_dim(n, len, &wide, map);
  grtc_tvalue_t* t = grtc_onnx_iota_of(n, GRTC_ELEM_I64, r, x->type.dims, time);
  grtc_tvalue_t* flipped =
      grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, len, t),
                       grtc_onnx_scalar(n, GRTC_ELEM_I64, 1));
  grtc_tvalue_t* index = grtc_onnx_select(n, grtc_onnx_compare(n, GRTC_CMP_LT, t, len), flipped, t);
  OUT(0) = grtc_onnx_gather_along(n, x, index, time);
  return grt_ok_status();
}

// Compress with a constant condition: a gather of the selected indices.
static grt_status_t grtc_onnx_op_compress(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* cond = grtc_onnx_input(n, 1);
  if (!x || !cond) return grt_ok_status();
  char bc[GRTC_TTYPE_FORMAT_CAPACITY];
  if (cond->type.rank != 1 || cond->type.elem != GRTC_ELEM_I1) {
    return grtc_onnx_error(n, "the condition must be a 1-D bool tensor, got %s",
                           grtc_onnx_fmt(cond, bc));
  }
  if (!grtc_onnx_is_constant(cond)) {
    return grtc_onnx_unsupported(n,
                                 "Compress's result shape depends on the condition's "
                                 "values, which are computed at run time here; grt compiles "
                                 "static shapes (a constant condition is folded)");
  }
  const Onnx__AttributeProto* axis_attr = grtc_onnx_attr(n, "axis");
  uint32_t axis = 0;
  if (!axis_attr) {
    int64_t total = grtc_ttype_element_count(&x->type);
    x = grtc_onnx_reshape(n, x, 1, &total);
  } else if (!grtc_onnx_axis(n, "attribute 'axis'", grtc_onnx_attr_int(n, "axis", 0), x->type.rank,
                             &axis)) {
    return grt_ok_status();
  }
  if (!x) return grt_ok_status();
  int64_t* flags = NULL;
  uint32_t count = 0;
  if (!grtc_onnx_ints(n, cond, "the condition", &flags, &count)) return grt_ok_status();
  int64_t dim = x->type.dims[axis];
  if ((int64_t)count > dim) {
    return grtc_onnx_error(n, "the condition has %u entries for an axis of %lld", count,
                           (long long)dim);
  }
  int64_t* picked = grtc_tmodule_alloc(n->module, (count + 1) * sizeof(int64_t));
  if (!picked) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  int64_t kept = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (flags[i]) picked[kept++] = i;
  }
  grtc_tvalue_t* indices = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 1, &kept, picked);
  uint32_t r = x->type.rank;
  grtc_ttype_t type = x->type;
  type.dims[axis] = kept;
  if (grtc_onnx_is_constant(x) && grtc_ttype_element_count(&type) <= (1 << 16)) {
    OUT(0) = grtc_onnx_gather_const(n, x, picked, kept, axis, &type);
    return grt_ok_status();
  }
  int64_t offset_dims[GRTC_MAX_RANK], slice_sizes[GRTC_MAX_RANK];
  uint32_t offset_count = 0;
  for (uint32_t i = 0; i < r; ++i) {
    slice_sizes[i] = i == axis ? 1 : x->type.dims[i];
    if (i != axis) offset_dims[offset_count++] = i;
  }
  int64_t collapsed = axis;
  grtc_gather_dims_t g;
  memset(&g, 0, sizeof(g));
  g.offset_dims = GRTC_I64S(offset_dims, offset_count);
  g.collapsed_slice_dims = GRTC_I64S(&collapsed, 1);
  g.start_index_map = GRTC_I64S(&collapsed, 1);
  g.slice_sizes = GRTC_I64S(slice_sizes, r);
  g.index_vector_dim = 1;
  OUT(0) = grtc_onnx_gather_op(n, x, indices, &g, &type);
  return grt_ok_status();
}

// The ND index forms' checks: data rank r, indices rank q >= 1 whose last
// dimension k (<= r - b) indexes the data after |batch| batch dimensions.
static bool grtc_onnx_nd_shapes(grtc_onnx_node_t* n, grtc_tvalue_t* data, grtc_tvalue_t* indices,
                                uint32_t batch, int64_t* out_k) {
  uint32_t r = data->type.rank, q = indices->type.rank;
  char bd[GRTC_TTYPE_FORMAT_CAPACITY], bi[GRTC_TTYPE_FORMAT_CAPACITY];
  if (r < 1 || q < 1 || batch >= q || batch >= r) {
    return grtc_onnx_fail(
        n, grtc_onnx_error(n, "data %s and indices %s do not fit batch_dims %u",
                           grtc_onnx_fmt(data, bd), grtc_onnx_fmt(indices, bi), batch));
  }
  int64_t k = indices->type.dims[q - 1];
  if (k < 1 || k > (int64_t)(r - batch)) {
    return grtc_onnx_fail(
        n, grtc_onnx_error(n,
                           "the last dimension of indices %s must be 1 to "
                           "%u for data %s",
                           grtc_onnx_fmt(indices, bi), r - batch, grtc_onnx_fmt(data, bd)));
  }
  for (uint32_t i = 0; i < batch; ++i) {
    if (data->type.dims[i] != indices->type.dims[i]) {
      return grtc_onnx_fail(
          n, grtc_onnx_error(n,
                             "batch dimension %u differs in data %s and "
                             "indices %s",
                             i, grtc_onnx_fmt(data, bd), grtc_onnx_fmt(indices, bi)));
    }
  }
  *out_k = k;
  return true;
}

// |indices| wrapped by data dimensions batch..batch+k-1 (one per index
// vector entry), checked when constant.
static grtc_tvalue_t* grtc_onnx_nd_wrap(grtc_onnx_node_t* n, grtc_tvalue_t* data,
                                        grtc_tvalue_t* indices, uint32_t batch, int64_t k) {
  const int64_t* bounds = data->type.dims + batch;
  if (!grtc_onnx_check_const_indices(n, indices, bounds, (uint32_t)k)) return NULL;
  grtc_tvalue_t* bound = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 1, &k, bounds);
  return grtc_onnx_wrap_indices(n, indices, bound);
}

static grt_status_t grtc_onnx_op_gather_nd(grtc_onnx_node_t* n) {
  grtc_tvalue_t* data = grtc_onnx_input(n, 0);
  grtc_tvalue_t* indices = grtc_onnx_input(n, 1);
  if (!data || !indices) return grt_ok_status();
  int64_t batch_attr = grtc_onnx_attr_int(n, "batch_dims", 0);
  if (batch_attr < 0 || batch_attr >= GRTC_MAX_RANK) {
    return grtc_onnx_error(n, "attribute 'batch_dims' = %lld is out of range",
                           (long long)batch_attr);
  }
  uint32_t b = (uint32_t)batch_attr;
  int64_t k = 0;
  if (!grtc_onnx_nd_shapes(n, data, indices, b, &k)) return grt_ok_status();
  uint32_t r = data->type.rank, q = indices->type.rank;
  grtc_tvalue_t* wrapped = grtc_onnx_nd_wrap(n, data, indices, b, k);
  int64_t batching[GRTC_MAX_RANK], map[GRTC_MAX_RANK], slice_sizes[GRTC_MAX_RANK];
  int64_t offset_dims[GRTC_MAX_RANK];
  uint32_t offset_count = 0;
  grtc_ttype_t type = grtc_onnx_type(data->type.elem, 0, NULL);
  for (uint32_t i = 0; i + 1 < q; ++i) type.dims[type.rank++] = indices->type.dims[i];
  for (uint32_t i = 0; i < b; ++i) batching[i] = i;
  for (int64_t i = 0; i < k; ++i) map[i] = b + i;
  for (uint32_t i = 0; i < r; ++i) {
    bool window = i >= b + k;
    slice_sizes[i] = window ? data->type.dims[i] : 1;
    if (window) {
      offset_dims[offset_count++] = type.rank;
      if (type.rank >= GRTC_MAX_RANK) {
        return grtc_onnx_unsupported(n, "the result would exceed rank %d", GRTC_MAX_RANK);
      }
      type.dims[type.rank++] = data->type.dims[i];
    }
  }
  grtc_gather_dims_t g;
  memset(&g, 0, sizeof(g));
  g.offset_dims = GRTC_I64S(offset_dims, offset_count);
  g.collapsed_slice_dims = GRTC_I64S(map, (uint32_t)k);
  g.start_index_map = GRTC_I64S(map, (uint32_t)k);
  g.operand_batching_dims = GRTC_I64S(batching, b);
  g.start_indices_batching_dims = GRTC_I64S(batching, b);
  g.slice_sizes = GRTC_I64S(slice_sizes, r);
  g.index_vector_dim = q - 1;
  OUT(0) = grtc_onnx_gather_op(n, data, wrapped, &g, &type);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// ScatterND, ScatterElements, Scatter
//===----------------------------------------------------------------------===//

// The reduction attribute as the combining op; GRTC_TOP_COUNT for "none"
// (replace).
static bool grtc_onnx_reduction(grtc_onnx_node_t* n, grtc_top_kind_t* out) {
  const char* reduction = grtc_onnx_attr_string(n, "reduction", "none");
  if (strcmp(reduction, "none") == 0) {
    *out = GRTC_TOP_COUNT;
  } else if (strcmp(reduction, "add") == 0) {
    *out = GRTC_TOP_ADD;
  } else if (strcmp(reduction, "mul") == 0) {
    *out = GRTC_TOP_MULTIPLY;
  } else if (strcmp(reduction, "max") == 0) {
    *out = GRTC_TOP_MAXIMUM;
  } else if (strcmp(reduction, "min") == 0) {
    *out = GRTC_TOP_MINIMUM;
  } else {
    return grtc_onnx_fail(n, grtc_onnx_error(n,
                                            "attribute 'reduction' must be none, add, mul, "
                                            "max or min; got \"%s\"",
                                            reduction));
  }
  return true;
}

static grtc_tvalue_t* grtc_onnx_scatter_op(grtc_onnx_node_t* n, grtc_tvalue_t* data,
                                           grtc_tvalue_t* indices, grtc_tvalue_t* updates,
                                           const grtc_scatter_dims_t* s, grtc_top_kind_t combine) {
  if (!data || !indices || !updates || !grtc_onnx_ok(n)) return NULL;
  if (updates->type.elem != data->type.elem) {
    char bd[GRTC_TTYPE_FORMAT_CAPACITY], bu[GRTC_TTYPE_FORMAT_CAPACITY];
    grtc_onnx_fail(n, grtc_onnx_error(n, "updates %s must have the element type of data %s",
                                     grtc_onnx_fmt(updates, bu), grtc_onnx_fmt(data, bd)));
    return NULL;
  }
  grtc_tvalue_t* operands[3] = {data, indices, updates};
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_SCATTER, operands, 3, &data->type, 1, 1);
  if (!op) return NULL;
  grtc_scatter_dims_t* d = &op->attrs.scatter;
  d->update_window_dims =
      grtc_tmodule_i64s(n->module, s->update_window_dims.values, s->update_window_dims.count);
  d->inserted_window_dims =
      grtc_tmodule_i64s(n->module, s->inserted_window_dims.values, s->inserted_window_dims.count);
  d->scatter_dims_to_operand_dims = grtc_tmodule_i64s(
      n->module, s->scatter_dims_to_operand_dims.values, s->scatter_dims_to_operand_dims.count);
  d->input_batching_dims =
      grtc_tmodule_i64s(n->module, s->input_batching_dims.values, s->input_batching_dims.count);
  d->scatter_indices_batching_dims = grtc_tmodule_i64s(
      n->module, s->scatter_indices_batching_dims.values, s->scatter_indices_batching_dims.count);
  d->index_vector_dim = s->index_vector_dim;
  if (!grtc_onnx_reducer_body(n, op, combine, data->type.elem)) return NULL;
  return grtc_onnx_fold(n, op);
}

static grt_status_t grtc_onnx_op_scatter_nd(grtc_onnx_node_t* n) {
  grtc_tvalue_t* data = grtc_onnx_input(n, 0);
  grtc_tvalue_t* indices = grtc_onnx_input(n, 1);
  grtc_tvalue_t* updates = grtc_onnx_input(n, 2);
  if (!data || !indices || !updates) return grt_ok_status();
  grtc_top_kind_t combine;
  if (!grtc_onnx_reduction(n, &combine)) return grt_ok_status();
  int64_t k = 0;
  if (!grtc_onnx_nd_shapes(n, data, indices, 0, &k)) return grt_ok_status();
  uint32_t r = data->type.rank, q = indices->type.rank;
  // updates: indices.shape[:-1] + data.shape[k:].
  bool ok = updates->type.rank == q - 1 + r - (uint32_t)k;
  for (uint32_t i = 0; ok && i < updates->type.rank; ++i) {
    int64_t want = i + 1 < q ? indices->type.dims[i] : data->type.dims[k + (i - (q - 1))];
    ok = updates->type.dims[i] == want;
  }
  if (!ok) {
    char bu[GRTC_TTYPE_FORMAT_CAPACITY], bd[GRTC_TTYPE_FORMAT_CAPACITY],
        bi[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_onnx_error(n, "updates %s do not match data %s and indices %s",
                           grtc_onnx_fmt(updates, bu), grtc_onnx_fmt(data, bd),
                           grtc_onnx_fmt(indices, bi));
  }
  grtc_tvalue_t* wrapped = grtc_onnx_nd_wrap(n, data, indices, 0, k);
  int64_t window[GRTC_MAX_RANK], map[GRTC_MAX_RANK];
  uint32_t window_count = 0;
  for (int64_t i = 0; i < k; ++i) map[i] = i;
  for (uint32_t i = q - 1; i < updates->type.rank; ++i) window[window_count++] = i;
  grtc_scatter_dims_t s;
  memset(&s, 0, sizeof(s));
  s.update_window_dims = GRTC_I64S(window, window_count);
  s.inserted_window_dims = GRTC_I64S(map, (uint32_t)k);
  s.scatter_dims_to_operand_dims = GRTC_I64S(map, (uint32_t)k);
  s.index_vector_dim = q - 1;
  OUT(0) = grtc_onnx_scatter_op(n, data, wrapped, updates, &s, combine);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_scatter_elements(grtc_onnx_node_t* n) {
  grtc_tvalue_t* data = grtc_onnx_input(n, 0);
  grtc_tvalue_t* indices = grtc_onnx_input(n, 1);
  grtc_tvalue_t* updates = grtc_onnx_input(n, 2);
  if (!data || !indices || !updates) return grt_ok_status();
  grtc_top_kind_t combine = GRTC_TOP_COUNT;
  if (strcmp(n->proto->op_type, "ScatterElements") == 0 && !grtc_onnx_reduction(n, &combine)) {
    return grt_ok_status();
  }
  uint32_t r = data->type.rank;
  char bd[GRTC_TTYPE_FORMAT_CAPACITY], bi[GRTC_TTYPE_FORMAT_CAPACITY],
      bu[GRTC_TTYPE_FORMAT_CAPACITY];
  if (r == 0 || indices->type.rank != r || !grtc_ttype_same_shape(&indices->type, &updates->type)) {
    return grtc_onnx_error(n,
                           "data %s, indices %s and updates %s must have one rank >= 1, "
                           "indices and updates one shape",
                           grtc_onnx_fmt(data, bd), grtc_onnx_fmt(indices, bi),
                           grtc_onnx_fmt(updates, bu));
  }
  uint32_t axis = 0;
  if (!grtc_onnx_axis(n, "attribute 'axis'", grtc_onnx_attr_int(n, "axis", 0), r, &axis)) {
    return grt_ok_status();
  }
  for (uint32_t i = 0; i < r; ++i) {
    if (i != axis && indices->type.dims[i] > data->type.dims[i]) {
      return grtc_onnx_error(n, "indices %s exceed data %s on axis %u", grtc_onnx_fmt(indices, bi),
                             grtc_onnx_fmt(data, bd), i);
    }
  }
  int64_t dim = data->type.dims[axis];
  if (!grtc_onnx_check_const_indices(n, indices, &dim, 1)) return grt_ok_status();
  grtc_tvalue_t* wrapped =
      grtc_onnx_wrap_indices(n, indices, grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)dim));
  // Where the indices cover the data off the axis, those dimensions pair
  // one to one (batching dimensions); otherwise every index gets its full
  // coordinates.
  bool covers = true;
  int64_t all[GRTC_MAX_RANK], batching[GRTC_MAX_RANK];
  uint32_t batching_count = 0;
  for (uint32_t i = 0; i < r; ++i) {
    all[i] = i;
    if (i != axis) batching[batching_count++] = i;
    covers &= i == axis || indices->type.dims[i] == data->type.dims[i];
  }
  int64_t map = axis;
  grtc_scatter_dims_t s;
  memset(&s, 0, sizeof(s));
  s.index_vector_dim = r;
  if (covers) {
    s.inserted_window_dims = GRTC_I64S(&map, 1);
    s.scatter_dims_to_operand_dims = GRTC_I64S(&map, 1);
    s.input_batching_dims = GRTC_I64S(batching, batching_count);
    s.scatter_indices_batching_dims = GRTC_I64S(batching, batching_count);
  } else {
    wrapped = grtc_onnx_element_indices(n, wrapped, axis);
    s.inserted_window_dims = GRTC_I64S(all, r);
    s.scatter_dims_to_operand_dims = GRTC_I64S(all, r);
  }
  OUT(0) = grtc_onnx_scatter_op(n, data, wrapped, updates, &s, combine);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Expand, Tile, Pad
//===----------------------------------------------------------------------===//

// Shape input |index| (Expand's, ConstantOfShape's) as dimensions: its
// constant values, or the symbolic dimensions Shape read (torch's
// x.expand(x.size(0), -1) and torch.zeros(x.size(0), ...): |symbolic|,
// at most GRTC_MAX_RANK of them). False after an error, which names |what|.
static bool grtc_onnx_shape_input(grtc_onnx_node_t* n, uint32_t index, const char* what,
                                  int64_t** dims, uint32_t* count, bool* symbolic) {
  grtc_onnx_shape_values_t known;
  *symbolic = false;
  if (!grtc_onnx_shape_values(n, n->inputs[index], &known) ||
      grtc_onnx_is_constant(n->inputs[index])) {
    return grtc_onnx_list(n, "", index, 0, what, dims, count);
  }
  *symbolic = true;
  *dims = grtc_tmodule_alloc(n->module, (known.count + 1) * sizeof(int64_t));
  if (!*dims) {
    return grtc_onnx_fail(n, grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory"));
  }
  *count = known.count;
  for (uint32_t i = 0; i < known.count; ++i) {
    (*dims)[i] = known.values[i];
    if (!known.symbolic[i] && known.values[i] < 0) {
      return grtc_onnx_fail(n, grtc_onnx_error(n, "%s has the negative size %lld at %u", what,
                                              (long long)known.values[i], i));
    }
  }
  return true;
}

// Expand of |x| to |shape|, |count| elements of which a graph input's
// data gives (grtc_onnx_shape_from_data): a dynamic_broadcast_in_dim whose
// result dimension is the element s, or where |x|'s dimension d is not a
// static 1, s + [s == 1] * (d - 1) (a 1 keeps d); the host program checks
// at the call that d equals it (the broadcast rule) and that it is not
// negative.
static grt_status_t grtc_onnx_expand_from_data(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                               grtc_tvalue_t* shape, uint32_t count) {
  uint32_t in_rank = x->type.rank, rank = count > in_rank ? count : in_rank;
  if (rank > GRTC_MAX_RANK) {
    return grtc_onnx_unsupported(n, "the result would have rank %u; grt supports up to %d", rank,
                                 GRTC_MAX_RANK);
  }
  int64_t dims[GRTC_MAX_RANK], map[GRTC_MAX_RANK];
  grtc_tvalue_t* items[GRTC_MAX_RANK];
  for (uint32_t o = 0; o < rank; ++o) {
    int64_t xi = (int64_t)o - (int64_t)(rank - in_rank);
    int64_t si = (int64_t)o - (int64_t)(rank - count);
    grtc_tvalue_t* item = NULL;
    if (si < 0) {
      item = grtc_onnx_dimension_size(n, x, (uint32_t)xi);
    } else {
      item = grtc_onnx_shape_item(n, shape, (uint32_t)si);
      if (xi >= 0 && x->type.dims[xi] != 1) {
        grtc_tvalue_t* grown = grtc_onnx_binary(n, GRTC_TOP_SUBTRACT,
                                                grtc_onnx_dimension_size(n, x, (uint32_t)xi),
                                                grtc_onnx_i64(n, 1));
        item = grtc_onnx_binary(
            n, GRTC_TOP_ADD, item,
            grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, grtc_onnx_is_i64(n, item, 1), grown));
      }
    }
    items[o] = item;
    dims[o] = grtc_onnx_item_dim(item);
  }
  for (uint32_t k = 0; k < in_rank; ++k) map[k] = rank - in_rank + k;
  if (!grtc_onnx_ok(n)) return grt_ok_status();
  OUT(0) = grtc_onnx_dynamic_computed(n, GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM, x, rank, dims, items,
                                      map);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_expand(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x || !grtc_onnx_input(n, 1)) return grt_ok_status();
  int64_t* shape = NULL;
  uint32_t count = 0;
  bool symbolic = false;
  if (grtc_onnx_shape_from_data(n, n->inputs[1], "input 'shape'", &count)) {
    return grtc_onnx_expand_from_data(n, x, n->inputs[1], count);
  }
  if (!grtc_onnx_ok(n)) return grt_ok_status();
  if (!grtc_onnx_shape_input(n, 1, "input 'shape'", &shape, &count, &symbolic) ||
      (!symbolic && !grtc_onnx_check_dims(n, "input 'shape'", count, shape))) {
    return grt_ok_status();
  }
  grtc_ttype_t target = grtc_onnx_type(x->type.elem, count, shape);
  grtc_ttype_t out;
  if (!grtc_onnx_broadcast_shape(n, &x->type, &target, &out)) return grt_ok_status();
  if (grtc_ttype_is_static(&out) &&
      !grtc_onnx_check_dims(n, "the result", out.rank, out.dims)) {
    return grt_ok_status();
  }
  OUT(0) = grtc_onnx_broadcast_to(n, x, out.rank, out.dims);
  return grt_ok_status();
}

// |x| repeated |times| along |axis|: x with a new dimension of |times|
// before |axis|, broadcast, then merged.
static grtc_tvalue_t* grtc_onnx_repeat(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t axis,
                                       int64_t times) {
  if (!x || times == 1) return x;
  uint32_t r = x->type.rank;
  if (r + 1 > GRTC_MAX_RANK) {
    grtc_onnx_fail(n, grtc_onnx_unsupported(n,
                                           "repeating a rank-%u tensor needs rank %u; grt "
                                           "supports up to %d",
                                           r, r + 1, GRTC_MAX_RANK));
    return NULL;
  }
  int64_t dims[GRTC_MAX_RANK], map[GRTC_MAX_RANK];
  uint32_t rank = 0;
  for (uint32_t i = 0; i < r; ++i) {
    if (i == axis) dims[rank++] = times;
    map[i] = rank;
    dims[rank++] = x->type.dims[i];
  }
  grtc_ttype_t wide = grtc_onnx_type(x->type.elem, rank, dims);
  grtc_tvalue_t* b = grtc_onnx_broadcast_in_dim(n, x, &wide, map);
  grtc_ttype_t out = x->type;
  out.dims[axis] *= times;
  return grtc_onnx_reshape(n, b, out.rank, out.dims);
}

// Tile of |x| by |repeats|, which a graph input's data gives
// (grtc_onnx_shape_from_data): |x| broadcast to [t0, d0, t1, d1, ...] (a
// dynamic_broadcast_in_dim, t_i read at the call) and merged to [t0 * d0,
// t1 * d1, ...] (a dynamic_reshape); a negative t_i fails the call.
static grt_status_t grtc_onnx_tile_from_data(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                             grtc_tvalue_t* repeats, uint32_t count) {
  uint32_t r = x->type.rank;
  if (count != r) {
    return grtc_onnx_error(n, "input 'repeats' has %u values for a rank-%u input", count, r);
  }
  if (2 * r > GRTC_MAX_RANK) {
    return grtc_onnx_unsupported(n,
                                 "input 'repeats' is read from a graph input's data at run "
                                 "time, which grt tiles through a rank-%u broadcast; grt "
                                 "supports up to rank %d",
                                 2 * r, GRTC_MAX_RANK);
  }
  int64_t wide[GRTC_MAX_RANK], merged[GRTC_MAX_RANK], map[GRTC_MAX_RANK];
  grtc_tvalue_t* wide_items[GRTC_MAX_RANK];
  grtc_tvalue_t* merged_items[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < r; ++i) {
    grtc_tvalue_t* times = grtc_onnx_shape_item(n, repeats, i);
    grtc_tvalue_t* size = grtc_onnx_dimension_size(n, x, i);
    wide_items[2 * i] = times;
    wide_items[2 * i + 1] = size;
    wide[2 * i] = grtc_onnx_item_dim(times);
    wide[2 * i + 1] = x->type.dims[i];
    map[i] = 2 * i + 1;
    merged_items[i] = grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, times, size);
    merged[i] = grtc_onnx_item_dim(merged_items[i]);
  }
  if (!grtc_onnx_ok(n)) return grt_ok_status();
  grtc_tvalue_t* broadcast = grtc_onnx_dynamic_computed(n, GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM, x,
                                                        2 * r, wide, wide_items, map);
  OUT(0) = grtc_onnx_reshape_computed(n, broadcast, r, merged, merged_items);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_tile(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x || !grtc_onnx_input(n, 1)) return grt_ok_status();
  int64_t* repeats = NULL;
  uint32_t count = 0;
  if (grtc_onnx_shape_from_data(n, n->inputs[1], "input 'repeats'", &count)) {
    return grtc_onnx_tile_from_data(n, x, n->inputs[1], count);
  }
  if (!grtc_onnx_ok(n)) return grt_ok_status();
  if (!grtc_onnx_list(n, "", 1, 0, "input 'repeats'", &repeats, &count)) return grt_ok_status();
  uint32_t r = x->type.rank;
  if (count != r) {
    return grtc_onnx_error(n, "input 'repeats' has %u values for a rank-%u input", count, r);
  }
  int64_t dims[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < r; ++i) {
    if (repeats[i] < 0) {
      return grtc_onnx_error(n, "repeats[%u] = %lld is negative", i, (long long)repeats[i]);
    }
    dims[i] = x->type.dims[i];
  }
  for (uint32_t i = 0; i < r; ++i) {
    if (dims[i] != 0 && repeats[i] > GRTC_ONNX_MAX_ELEMENTS / dims[i]) {
      return grtc_onnx_unsupported(n, "the result would have more than 2^40 elements");
    }
    dims[i] *= repeats[i];
    if (!grtc_onnx_check_dims(n, "the result", r, dims)) return grt_ok_status();
  }
  grtc_tvalue_t* value = x;
  for (uint32_t i = 0; i < r; ++i) value = grtc_onnx_repeat(n, value, i, repeats[i]);
  OUT(0) = value;
  return grt_ok_status();
}

// One axis of a reflect/edge/wrap pad: |low| and |high| >= 0.
static grtc_tvalue_t* grtc_onnx_pad_axis(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t axis,
                                         int64_t low, int64_t high, const char* mode) {
  if (!x || (low == 0 && high == 0)) return x;
  int64_t dim = x->type.dims[axis];
  grtc_tvalue_t* parts[3];
  uint32_t count = 0;
  // Reflecting a single element repeats it (numpy.pad, ONNX's reference).
  if (strcmp(mode, "reflect") == 0 && dim == 1) mode = "edge";
  if (strcmp(mode, "reflect") == 0) {
    if (low > dim - 1 || high > dim - 1) {
      grtc_onnx_fail(n,
                    grtc_onnx_unsupported(n,
                                          "reflect padding of %lld/%lld on axis %u of "
                                          "size %lld (at most size - 1 is supported)",
                                          (long long)low, (long long)high, axis, (long long)dim));
      return NULL;
    }
    int64_t rev[1] = {axis};
    if (low)
      parts[count++] = grtc_onnx_reverse(n, grtc_onnx_slice_axis(n, x, axis, 1, low), rev, 1);
    parts[count++] = x;
    if (high) {
      parts[count++] =
          grtc_onnx_reverse(n, grtc_onnx_slice_axis(n, x, axis, dim - 1 - high, high), rev, 1);
    }
  } else if (strcmp(mode, "edge") == 0) {
    if (dim == 0) {
      grtc_onnx_fail(n, grtc_onnx_error(n, "edge padding of an empty axis %u", axis));
      return NULL;
    }
    grtc_ttype_t type = x->type;
    int64_t map[GRTC_MAX_RANK];
    for (uint32_t i = 0; i < type.rank; ++i) map[i] = i;
    if (low) {
      type.dims[axis] = low;
      parts[count++] =
          grtc_onnx_broadcast_in_dim(n, grtc_onnx_slice_axis(n, x, axis, 0, 1), &type, map);
    }
    parts[count++] = x;
    if (high) {
      type.dims[axis] = high;
      parts[count++] =
          grtc_onnx_broadcast_in_dim(n, grtc_onnx_slice_axis(n, x, axis, dim - 1, 1), &type, map);
    }
  } else {  // wrap
    if (low > dim || high > dim) {
      grtc_onnx_fail(n,
                    grtc_onnx_unsupported(n,
                                          "wrap padding of %lld/%lld on axis %u of size "
                                          "%lld (at most the size is supported)",
                                          (long long)low, (long long)high, axis, (long long)dim));
      return NULL;
    }
    if (low) parts[count++] = grtc_onnx_slice_axis(n, x, axis, dim - low, low);
    parts[count++] = x;
    if (high) parts[count++] = grtc_onnx_slice_axis(n, x, axis, 0, high);
  }
  return grtc_onnx_concat(n, parts, count, axis);
}

static grt_status_t grtc_onnx_op_pad(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  uint32_t r = x->type.rank;
  const char* mode = grtc_onnx_attr_string(n, "mode", "constant");
  if (strcmp(mode, "constant") != 0 && strcmp(mode, "reflect") != 0 && strcmp(mode, "edge") != 0 &&
      !(strcmp(mode, "wrap") == 0 && n->opset >= 19)) {
    return grtc_onnx_error(n, "attribute 'mode' must be constant, reflect, edge%s; got \"%s\"",
                           n->opset >= 19 ? " or wrap" : "", mode);
  }
  int64_t* pads = NULL;
  uint32_t count = 0;
  grtc_tvalue_t* value = NULL;
  if (n->opset < 11) {
    if (!grtc_onnx_attr_ints(n, "pads", &pads, &count)) {
      if (!grtc_onnx_ok(n)) return grt_ok_status();
      return grtc_onnx_error(n, "attribute 'pads' is required");
    }
    value = grtc_onnx_scalar(n, x->type.elem, grtc_onnx_attr_float(n, "value", 0.0f));
  } else {
    if (!grtc_onnx_input(n, 1)) return grt_ok_status();
    if (!grtc_onnx_list(n, "", 1, 11, "input 'pads'", &pads, &count)) return grt_ok_status();
    if (n->input_count > 2 && n->inputs[2]) {
      value = n->inputs[2];
      if (value->type.elem != x->type.elem || grtc_ttype_element_count(&value->type) != 1) {
        char bv[GRTC_TTYPE_FORMAT_CAPACITY], bx[GRTC_TTYPE_FORMAT_CAPACITY];
        return grtc_onnx_error(n, "constant_value %s must be one element of the type of %s",
                               grtc_onnx_fmt(value, bv), grtc_onnx_fmt(x, bx));
      }
      value = grtc_onnx_reshape(n, value, 0, NULL);
    } else {
      value = grtc_onnx_scalar(n, x->type.elem, 0);
    }
  }
  int64_t axes[GRTC_MAX_RANK];
  uint32_t axis_count = r;
  for (uint32_t i = 0; i < r; ++i) axes[i] = i;
  if (n->opset >= 18 && n->input_count > 3 && n->inputs[3]) {
    int64_t* given = NULL;
    uint32_t given_count = 0;
    if (!grtc_onnx_list(n, "", 3, 18, "input 'axes'", &given, &given_count)) {
      return grt_ok_status();
    }
    if (given_count > r) return grtc_onnx_error(n, "%u axes for rank %u", given_count, r);
    if (!grtc_onnx_axes(n, "axis", given, given_count, r)) return grt_ok_status();
    memcpy(axes, given, given_count * sizeof(int64_t));
    axis_count = given_count;
  }
  if (count != 2 * axis_count) {
    return grtc_onnx_error(n, "'pads' has %u values, expected %u (two per padded axis)", count,
                           2 * axis_count);
  }
  int64_t low[GRTC_MAX_RANK] = {0}, high[GRTC_MAX_RANK] = {0};
  for (uint32_t i = 0; i < axis_count; ++i) {
    int64_t a = axes[i];
    low[a] = pads[i];
    high[a] = pads[i + axis_count];
    if (low[a] < -GRTC_ONNX_MAX_ELEMENTS || low[a] > GRTC_ONNX_MAX_ELEMENTS ||
        high[a] < -GRTC_ONNX_MAX_ELEMENTS || high[a] > GRTC_ONNX_MAX_ELEMENTS) {
      return grtc_onnx_error(n, "padding %lld/%lld on axis %lld is out of range", (long long)low[a],
                             (long long)high[a], (long long)a);
    }
  }
  int64_t dims[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < r; ++i) {
    if (!grtc_dim_is_static(x->type.dims[i])) {
      // An unpadded symbolic dimension stays itself (torch pads the
      // spatial dimensions of a batch); a constant padding that does not
      // crop gives it a symbol of its own (grtc_onnx_pad).
      if ((low[i] != 0 || high[i] != 0) &&
          (strcmp(mode, "constant") != 0 || low[i] < 0 || high[i] < 0)) {
        return grtc_onnx_symbolic_error(n, 0, i, x->type.dims[i],
                                        "grt pads symbolic dimensions only in 'constant' "
                                        "mode and without cropping");
      }
      dims[i] = 1;
      continue;
    }
    dims[i] = x->type.dims[i] + low[i] + high[i];
  }
  if (!grtc_onnx_check_dims(n, "the padded tensor", r, dims)) return grt_ok_status();
  if (strcmp(mode, "constant") == 0) {
    OUT(0) = grtc_onnx_pad(n, x, value, low, high);
    return grt_ok_status();
  }
  // Negative pads crop first; then each axis is padded by slices.
  int64_t crop_low[GRTC_MAX_RANK], crop_high[GRTC_MAX_RANK];
  grtc_tvalue_t* zero = grtc_onnx_scalar(n, x->type.elem, 0);
  for (uint32_t i = 0; i < r; ++i) {
    crop_low[i] = low[i] < 0 ? low[i] : 0;
    crop_high[i] = high[i] < 0 ? high[i] : 0;
  }
  grtc_tvalue_t* out = grtc_onnx_pad(n, x, zero, crop_low, crop_high);
  for (uint32_t i = 0; i < r; ++i) {
    out = grtc_onnx_pad_axis(n, out, i, low[i] > 0 ? low[i] : 0, high[i] > 0 ? high[i] : 0, mode);
  }
  OUT(0) = out;
  return grt_ok_status();
}

// CenterCropPad: each listed axis cropped (a centered window) or padded
// with zeros (evenly, the odd element after) to the constant target size.
static grt_status_t grtc_onnx_op_center_crop_pad(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x || !grtc_onnx_input(n, 1)) return grt_ok_status();
  uint32_t r = x->type.rank;
  int64_t* shape = NULL;
  uint32_t count = 0;
  if (!grtc_onnx_list(n, "", 1, 0, "input 'shape'", &shape, &count)) return grt_ok_status();
  int64_t axes[GRTC_MAX_RANK];
  int64_t* given = NULL;
  uint32_t axis_count = 0;
  if (grtc_onnx_attr_ints(n, "axes", &given, &axis_count)) {
    if (axis_count > r) return grtc_onnx_error(n, "%u axes for rank %u", axis_count, r);
    if (!grtc_onnx_axes(n, "axis", given, axis_count, r)) return grt_ok_status();
    memcpy(axes, given, axis_count * sizeof(int64_t));
  } else {
    if (!grtc_onnx_ok(n)) return grt_ok_status();
    axis_count = r;
    for (uint32_t i = 0; i < r; ++i) axes[i] = i;
  }
  if (count != axis_count) {
    return grtc_onnx_error(n, "input 'shape' has %u sizes for %u axes", count, axis_count);
  }
  int64_t low[GRTC_MAX_RANK] = {0}, high[GRTC_MAX_RANK] = {0}, dims[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < r; ++i) dims[i] = x->type.dims[i];
  for (uint32_t i = 0; i < axis_count; ++i) {
    dims[axes[i]] = shape[i];
    if (!grtc_onnx_check_dims(n, "the result", r, dims)) return grt_ok_status();
    // A negative pad crops; the odd element comes off (or is added) at
    // the end.
    int64_t diff = shape[i] - x->type.dims[axes[i]];
    int64_t half = (diff < 0 ? -diff : diff) / 2;
    low[axes[i]] = diff < 0 ? -half : half;
    high[axes[i]] = diff - low[axes[i]];
  }
  OUT(0) = grtc_onnx_pad(n, x, grtc_onnx_scalar(n, x->type.elem, 0), low, high);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// ConstantOfShape, Range, OneHot, Trilu, EyeLike
//===----------------------------------------------------------------------===//

static grt_status_t grtc_onnx_op_constant_of_shape(grtc_onnx_node_t* n) {
  if (!grtc_onnx_input(n, 0)) return grt_ok_status();
  int64_t* shape = NULL;
  uint32_t count = 0;
  bool symbolic = false;
  if (grtc_onnx_shape_from_data(n, n->inputs[0], "input 'input' (the shape)", &count)) {
    // Sizes a graph input's data gives: the value broadcast to them by a
    // dynamic_broadcast_in_dim, each checked not negative at the call.
    grtc_tvalue_t* value = grtc_onnx_attr_tensor(n, "value");
    if (!grtc_onnx_ok(n)) return grt_ok_status();
    if (value && (grtc_ttype_element_count(&value->type) != 1 || !grtc_onnx_is_constant(value))) {
      char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
      return grtc_onnx_error(n, "attribute 'value' must hold one element, got %s",
                             grtc_onnx_fmt(value, buffer));
    }
    grtc_tvalue_t* scalar = value ? grtc_onnx_reshape(n, value, 0, NULL)
                                  : grtc_onnx_scalar(n, GRTC_ELEM_F32, 0);
    int64_t dims[GRTC_MAX_RANK];
    grtc_tvalue_t* items[GRTC_MAX_RANK];
    for (uint32_t i = 0; i < count; ++i) {
      items[i] = grtc_onnx_shape_item(n, n->inputs[0], i);
      dims[i] = grtc_onnx_item_dim(items[i]);
    }
    if (!grtc_onnx_ok(n)) return grt_ok_status();
    OUT(0) = grtc_onnx_dynamic_computed(n, GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM, scalar, count, dims,
                                        items, NULL);
    return grt_ok_status();
  }
  if (!grtc_onnx_ok(n)) return grt_ok_status();
  if (!grtc_onnx_shape_input(n, 0, "input 'input' (the shape)", &shape, &count, &symbolic) ||
      (!symbolic && !grtc_onnx_check_dims(n, "the result", count, shape))) {
    return grt_ok_status();
  }
  grtc_tvalue_t* value = grtc_onnx_attr_tensor(n, "value");
  if (!grtc_onnx_ok(n)) return grt_ok_status();
  grtc_ttype_t type = grtc_onnx_type(GRTC_ELEM_F32, count, shape);
  if (!value) {
    OUT(0) = grtc_onnx_splat(n, &type, 0);
    return grt_ok_status();
  }
  if (grtc_ttype_element_count(&value->type) != 1 || !grtc_onnx_is_constant(value)) {
    char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_onnx_error(n, "attribute 'value' must hold one element, got %s",
                           grtc_onnx_fmt(value, buffer));
  }
  type.elem = value->type.elem;
  bool splat = false;
  const uint8_t* data = grtc_onnx_const_data(value, &splat);
  if (!grtc_ttype_is_static(&type)) {
    // A symbolic shape: the value broadcast to it.
    grtc_ttype_t scalar = grtc_onnx_type(type.elem, 0, NULL);
    OUT(0) = grtc_onnx_broadcast_in_dim(
        n, grtc_onnx_constant(n, &scalar, data, grtc_elem_byte_size(type.elem), true), &type,
        NULL);
    return grt_ok_status();
  }
  OUT(0) = grtc_onnx_constant(n, &type, data, grtc_elem_byte_size(type.elem), true);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_range(grtc_onnx_node_t* n) {
  grtc_tvalue_t* start = grtc_onnx_input(n, 0);
  grtc_tvalue_t* limit = grtc_onnx_input(n, 1);
  grtc_tvalue_t* delta = grtc_onnx_input(n, 2);
  if (!start || !limit || !delta) return grt_ok_status();
  grtc_elem_t elem = start->type.elem;
  if (limit->type.elem != elem || delta->type.elem != elem) {
    return grtc_onnx_error(n, "start, limit and delta must have one element type");
  }
  if (elem == GRTC_ELEM_I1 || grtc_elem_is_unsigned_integer(elem)) {
    return grtc_onnx_error(n, "Range takes float, double, int16, int32 or int64 scalars");
  }
  int64_t count = 0;
  if (!grtc_onnx_is_constant(start) || !grtc_onnx_is_constant(limit) ||
      !grtc_onnx_is_constant(delta)) {
    // Scalars a graph input's data gives: the length is computed at the
    // call, max((limit - start + delta - sign(delta)) / delta, 0) (a 0
    // delta fails there), and the values are start + i * delta.
    grtc_tvalue_t* values[3] = {start, limit, delta};
    static const char* const names[3] = {"start", "limit", "delta"};
    for (uint32_t i = 0; i < 3; ++i) {
      const grtc_sexpr_t* expr = NULL;
      if (values[i]->type.rank != 0 ||
          (elem != GRTC_ELEM_I64 && elem != GRTC_ELEM_I32) ||
          !grtc_tvalue_shape_expr_data(n->module, values[i], 0, &expr)) {
        char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
        return grtc_onnx_unsupported(n,
                                     "input '%s' (%s) is computed at run time; grt computes a "
                                     "Range's length at the call only from int64 or int32 "
                                     "scalars that are graph inputs or constants",
                                     names[i], grtc_onnx_fmt(values[i], buffer));
      }
      if (elem != GRTC_ELEM_I64) values[i] = grtc_onnx_convert(n, values[i], GRTC_ELEM_I64);
    }
    grtc_tvalue_t* sign = grtc_onnx_clamp_i64(n, values[2], -1, 1);
    grtc_tvalue_t* span = grtc_onnx_binary(
        n, GRTC_TOP_SUBTRACT,
        grtc_onnx_binary(n, GRTC_TOP_ADD,
                         grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, values[1], values[0]),
                         values[2]),
        sign);
    grtc_tvalue_t* length = grtc_onnx_binary(
        n, GRTC_TOP_MAXIMUM, grtc_onnx_binary(n, GRTC_TOP_DIVIDE, span, values[2]),
        grtc_onnx_i64(n, 0));
    int64_t dim = grtc_onnx_item_dim(length);
    grtc_tvalue_t* iota =
        grtc_onnx_dynamic_computed(n, GRTC_TOP_DYNAMIC_IOTA, NULL, 1, &dim, &length, NULL);
    grtc_tvalue_t* result = grtc_onnx_binary(
        n, GRTC_TOP_ADD, grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, iota, values[2]), values[0]);
    OUT(0) = elem == GRTC_ELEM_I64 ? result : grtc_onnx_convert(n, result, elem);
    return grt_ok_status();
  }
  if (grtc_elem_is_float(elem)) {
    double* s = NULL;
    double* l = NULL;
    double* d = NULL;
    uint32_t cs = 0, cl = 0, cd = 0;
    if (!grtc_onnx_floats(n, start, "input 'start'", &s, &cs) ||
        !grtc_onnx_floats(n, limit, "input 'limit'", &l, &cl) ||
        !grtc_onnx_floats(n, delta, "input 'delta'", &d, &cd)) {
      return grt_ok_status();
    }
    if (cs != 1 || cl != 1 || cd != 1) return grtc_onnx_error(n, "the inputs must be scalars");
    if (d[0] == 0 || !isfinite(s[0]) || !isfinite(l[0]) || !isfinite(d[0])) {
      return grtc_onnx_error(n, "Range(%g, %g, %g) has no finite length", s[0], l[0], d[0]);
    }
    double steps = ceil((l[0] - s[0]) / d[0]);
    if (steps > (double)(1 << 30)) return grtc_onnx_unsupported(n, "Range of %g elements", steps);
    count = steps > 0 ? (int64_t)steps : 0;
    size_t element = grtc_elem_byte_size(elem);
    uint8_t* bytes = grtc_tmodule_alloc(n->module, (size_t)count * element + 1);
    if (!bytes) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    for (int64_t i = 0; i < count; ++i) {
      grtc_scalar_value_t v;
      // start + i * delta in the element type (f32 arithmetic for f32).
      if (elem == GRTC_ELEM_F64) {
        v.f = s[0] + (double)i * d[0];
      } else {
        v.f = (float)((float)s[0] + (float)i * (float)d[0]);
      }
      grtc_eval_store(elem, v, bytes + (size_t)i * element);
    }
    grtc_ttype_t type = grtc_onnx_type(elem, 1, &count);
    OUT(0) = grtc_onnx_constant(n, &type, bytes, (size_t)count * element, false);
    return grt_ok_status();
  }
  int64_t s = 0, l = 0, d = 0;
  if (!grtc_onnx_int_scalar(n, start, "input 'start'", &s) ||
      !grtc_onnx_int_scalar(n, limit, "input 'limit'", &l) ||
      !grtc_onnx_int_scalar(n, delta, "input 'delta'", &d)) {
    return grt_ok_status();
  }
  if (d == 0) return grtc_onnx_error(n, "delta is 0");
  double steps = ceil(((double)l - (double)s) / (double)d);
  if (steps > (double)(1 << 30)) return grtc_onnx_unsupported(n, "Range of %g elements", steps);
  count = steps > 0 ? (int64_t)steps : 0;
  int64_t* values = grtc_tmodule_alloc(n->module, (size_t)(count + 1) * sizeof(int64_t));
  if (!values) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int64_t i = 0; i < count; ++i) {
    values[i] = (int64_t)((uint64_t)s + (uint64_t)i * (uint64_t)d);  // wraps, never UB
  }
  OUT(0) = grtc_onnx_const_ints(n, elem, 1, &count, values);
  return grt_ok_status();
}

// The largest OneHot depth read at the call (the kernels' extents are
// 32-bit; a larger one fails the call before the result is allocated).
#define GRTC_ONNX_MAX_DEPTH (INT64_C(1) << 30)

static grt_status_t grtc_onnx_op_one_hot(grtc_onnx_node_t* n) {
  grtc_tvalue_t* indices = grtc_onnx_input(n, 0);
  grtc_tvalue_t* depth_value = grtc_onnx_input(n, 1);
  grtc_tvalue_t* values = grtc_onnx_input(n, 2);
  if (!indices || !depth_value || !values) return grt_ok_status();
  int64_t depth = 0;
  grtc_tvalue_t* depth_at_call = NULL;
  const grtc_sexpr_t* depth_expr = NULL;
  if (!grtc_onnx_is_constant(depth_value) && !grtc_elem_is_float(depth_value->type.elem) &&
      depth_value->type.rank <= 1 && grtc_ttype_element_count(&depth_value->type) == 1 &&
      grtc_tvalue_shape_expr_data(n->module, depth_value, 0, &depth_expr) &&
      grtc_sexpr_reads_data(depth_expr)) {
    // An integer depth a graph input's data gives: the result's axis is
    // depth clamped to [1, 2^30] (so the extent is safe before the check
    // runs), and a depth outside that range fails the call.
    grtc_tvalue_t* given = grtc_onnx_reshape(n, depth_value, 0, NULL);
    if (given && given->type.elem != GRTC_ELEM_I64) given = grtc_onnx_convert(n, given, GRTC_ELEM_I64);
    char what[160];
    snprintf(what, sizeof(what), "input 'depth' ('%s')", n->proto->input[1]);
    grtc_onnx_check_range_at_call(n, given, grtc_onnx_i64(n, 1),
                                  grtc_onnx_i64(n, GRTC_ONNX_MAX_DEPTH), what);
    depth_at_call = grtc_onnx_clamp_i64(n, given, 1, GRTC_ONNX_MAX_DEPTH);
    if (!grtc_onnx_ok(n)) return grt_ok_status();
    depth = 1;
  } else if (grtc_elem_is_float(depth_value->type.elem)) {
    if (!grtc_onnx_is_constant(depth_value)) {
      char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
      return grtc_onnx_unsupported(n,
                                   "input 'depth' (%s) is a float computed at run time; grt "
                                   "reads a depth at the call only from an int64 or int32 "
                                   "graph input",
                                   grtc_onnx_fmt(depth_value, buffer));
    }
    double* d = NULL;
    uint32_t count = 0;
    if (!grtc_onnx_floats(n, depth_value, "input 'depth'", &d, &count)) return grt_ok_status();
    if (count != 1) return grtc_onnx_error(n, "input 'depth' must hold one value");
    if (!(d[0] >= 0 && d[0] < (double)GRTC_ONNX_MAX_ELEMENTS)) {
      return grtc_onnx_error(n, "depth %g is out of range", d[0]);
    }
    depth = (int64_t)d[0];
  } else if (!grtc_onnx_int_scalar(n, depth_value, "input 'depth'", &depth)) {
    return grt_ok_status();
  }
  if (depth < 1) return grtc_onnx_error(n, "depth %lld must be positive", (long long)depth);
  if (grtc_ttype_element_count(&values->type) != 2 || values->type.rank != 1) {
    char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_onnx_error(n, "input 'values' must be [off_value, on_value], got %s",
                           grtc_onnx_fmt(values, buffer));
  }
  uint32_t q = indices->type.rank;
  int64_t axis_attr = grtc_onnx_attr_int(n, "axis", -1);
  uint32_t axis = 0;
  if (!grtc_onnx_axis(n, "attribute 'axis'", axis_attr, q + 1, &axis)) return grt_ok_status();
  int64_t dims[GRTC_MAX_RANK], map[GRTC_MAX_RANK];
  uint32_t rank = 0;
  for (uint32_t i = 0; i < q; ++i) {
    if (rank == axis) dims[rank++] = depth;
    map[i] = rank;
    dims[rank++] = indices->type.dims[i];
  }
  if (rank == axis) dims[rank++] = depth;
  if (!grtc_onnx_check_dims(n, "the result", rank, dims)) return grt_ok_status();
  // The classes along the axis: an iota of depth (computed at the call
  // where the depth is read then).
  grtc_tvalue_t* classes = NULL;
  if (depth_at_call) {
    int64_t dim = grtc_onnx_item_dim(depth_at_call);
    classes = grtc_onnx_dynamic_computed(n, GRTC_TOP_DYNAMIC_IOTA, NULL, 1, &dim, &depth_at_call,
                                         NULL);
    if (!classes) return grt_ok_status();
    dims[axis] = classes->type.dims[0];
  }
  // Indices of any numeric type: converted to i64 (floats truncate), then
  // negative ones wrapped by depth.
  grtc_tvalue_t* index = grtc_elem_is_float(indices->type.elem)
                             ? grtc_onnx_convert(n, indices, GRTC_ELEM_I64)
                             : indices;
  index = grtc_onnx_wrap_indices(n, index,
                                 depth_at_call ? depth_at_call
                                               : grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)depth));
  if (!index) return grt_ok_status();
  grtc_ttype_t wide = grtc_onnx_type(GRTC_ELEM_I64, rank, dims);
  index = grtc_onnx_broadcast_in_dim(n, index, &wide, map);
  int64_t axis_map = axis;
  grtc_tvalue_t* iota = classes ? grtc_onnx_broadcast_in_dim(n, classes, &wide, &axis_map)
                                : grtc_onnx_iota_of(n, GRTC_ELEM_I64, rank, dims, axis);
  grtc_tvalue_t* hot = grtc_onnx_compare(n, GRTC_CMP_EQ, index, iota);
  grtc_tvalue_t* off = grtc_onnx_reshape(n, grtc_onnx_slice_axis(n, values, 0, 0, 1), 0, NULL);
  grtc_tvalue_t* on = grtc_onnx_reshape(n, grtc_onnx_slice_axis(n, values, 0, 1, 1), 0, NULL);
  OUT(0) = grtc_onnx_select(n, hot, on, off);
  return grt_ok_status();
}

// (column - row) over the last two dimensions |rows| x |cols| of a
// tensor of rank |rank| (|dims|), as i64.
static grtc_tvalue_t* grtc_onnx_diagonal_offset(grtc_onnx_node_t* n, int64_t rows, int64_t cols) {
  int64_t dims[2] = {rows, cols};
  grtc_tvalue_t* row = grtc_onnx_iota_of(n, GRTC_ELEM_I64, 2, dims, 0);
  grtc_tvalue_t* col = grtc_onnx_iota_of(n, GRTC_ELEM_I64, 2, dims, 1);
  return grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, col, row);
}

static grt_status_t grtc_onnx_op_trilu(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  uint32_t r = x->type.rank;
  if (r < 2) return grtc_onnx_error(n, "the input must have rank >= 2, got %u", r);
  bool upper = grtc_onnx_attr_int(n, "upper", 1) != 0;
  grtc_tvalue_t* k = grtc_onnx_scalar(n, GRTC_ELEM_I64, 0);
  if (n->input_count > 1 && n->inputs[1]) {
    k = n->inputs[1];
    if (k->type.elem != GRTC_ELEM_I64 || grtc_ttype_element_count(&k->type) != 1) {
      char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
      return grtc_onnx_error(n, "input 'k' must be one int64, got %s", grtc_onnx_fmt(k, buffer));
    }
    k = grtc_onnx_reshape(n, k, 0, NULL);
  }
  // Upper keeps column - row >= k, lower column - row <= k.
  grtc_tvalue_t* offset = grtc_onnx_diagonal_offset(n, x->type.dims[r - 2], x->type.dims[r - 1]);
  grtc_tvalue_t* keep = grtc_onnx_compare(n, upper ? GRTC_CMP_GE : GRTC_CMP_LE, offset, k);
  OUT(0) = grtc_onnx_select(n, keep, x, grtc_onnx_splat_like(n, x, 0));
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_eye_like(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  if (x->type.rank != 2) {
    char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_onnx_error(n, "the input must be 2-D, got %s", grtc_onnx_fmt(x, buffer));
  }
  grtc_elem_t elem = x->type.elem;
  if (grtc_onnx_attr(n, "dtype") &&
      !grtc_onnx_elem(n, (int32_t)grtc_onnx_attr_int(n, "dtype", 1), &elem)) {
    return grt_ok_status();
  }
  int64_t k = grtc_onnx_attr_int(n, "k", 0);
  grtc_tvalue_t* offset = grtc_onnx_diagonal_offset(n, x->type.dims[0], x->type.dims[1]);
  grtc_tvalue_t* on =
      grtc_onnx_compare(n, GRTC_CMP_EQ, offset, grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)k));
  OUT(0) = grtc_onnx_convert(n, on, elem);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// DepthToSpace, SpaceToDepth
//===----------------------------------------------------------------------===//

static grt_status_t grtc_onnx_op_depth_to_space(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  int64_t b = grtc_onnx_attr_int(n, "blocksize", 0);
  char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
  if (x->type.rank != 4) {
    return grtc_onnx_error(n, "the input must be 4-D (N, C, H, W), got %s",
                           grtc_onnx_fmt(x, buffer));
  }
  int64_t N = x->type.dims[0], C = x->type.dims[1], H = x->type.dims[2], W = x->type.dims[3];
  if (b < 1 || b > 65536 || C % (b * b) != 0) {
    return grtc_onnx_error(n,
                           "attribute 'blocksize' = %lld must be positive and its square "
                           "divide the %lld channels",
                           (long long)b, (long long)C);
  }
  const char* mode = grtc_onnx_attr_string(n, "mode", "DCR");
  int64_t c = C / (b * b);
  grtc_tvalue_t* v;
  if (strcmp(mode, "DCR") == 0) {
    int64_t dims[6] = {N, b, b, c, H, W};
    int64_t perm[6] = {0, 3, 4, 1, 5, 2};
    v = grtc_onnx_transpose(n, grtc_onnx_reshape(n, x, 6, dims), perm);
  } else if (strcmp(mode, "CRD") == 0) {
    int64_t dims[6] = {N, c, b, b, H, W};
    int64_t perm[6] = {0, 1, 4, 2, 5, 3};
    v = grtc_onnx_transpose(n, grtc_onnx_reshape(n, x, 6, dims), perm);
  } else {
    return grtc_onnx_error(n, "attribute 'mode' must be \"DCR\" or \"CRD\", got \"%s\"", mode);
  }
  int64_t out[4] = {N, c, H * b, W * b};
  OUT(0) = grtc_onnx_reshape(n, v, 4, out);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_space_to_depth(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  int64_t b = grtc_onnx_attr_int(n, "blocksize", 0);
  char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
  if (x->type.rank != 4) {
    return grtc_onnx_error(n, "the input must be 4-D (N, C, H, W), got %s",
                           grtc_onnx_fmt(x, buffer));
  }
  int64_t N = x->type.dims[0], C = x->type.dims[1], H = x->type.dims[2], W = x->type.dims[3];
  if (b < 1 || b > 65536 || H % b != 0 || W % b != 0) {
    return grtc_onnx_error(n,
                           "attribute 'blocksize' = %lld must be positive and divide the "
                           "height %lld and width %lld",
                           (long long)b, (long long)H, (long long)W);
  }
  int64_t dims[6] = {N, C, H / b, b, W / b, b};
  int64_t perm[6] = {0, 3, 5, 1, 2, 4};
  grtc_tvalue_t* v = grtc_onnx_transpose(n, grtc_onnx_reshape(n, x, 6, dims), perm);
  int64_t out[4] = {N, C * b * b, H / b, W / b};
  OUT(0) = grtc_onnx_reshape(n, v, 4, out);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// NonZero (constant inputs only)
//===----------------------------------------------------------------------===//

static grt_status_t grtc_onnx_op_non_zero(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  if (!grtc_onnx_is_constant(x)) {
    return grtc_onnx_unsupported(n,
                                 "NonZero's result shape depends on the input's values, "
                                 "which are computed at run time here; grt compiles static "
                                 "shapes (a constant input is folded)");
  }
  int64_t total = grtc_ttype_element_count(&x->type);
  if (total > (1 << 20))
    return grtc_onnx_unsupported(n, "NonZero of %lld constant elements", (long long)total);
  uint32_t r = x->type.rank;
  bool splat = false;
  const uint8_t* data = grtc_onnx_const_data(x, &splat);
  size_t element = grtc_elem_byte_size(x->type.elem);
  int64_t nonzero = 0;
  grtc_scalar_value_t zero;
  zero.u = 0;
  for (int64_t i = 0; i < total; ++i) {
    grtc_scalar_value_t v = grtc_eval_load(x->type.elem, data + (splat ? 0 : (size_t)i * element));
    if (grtc_eval_compare(GRTC_CMP_NE, GRTC_CMP_TYPE_DEFAULT, x->type.elem, v, zero)) ++nonzero;
  }
  uint32_t rows = r ? r : 1;
  int64_t* values = grtc_tmodule_alloc(n->module, (size_t)(rows * nonzero + 1) * sizeof(int64_t));
  if (!values) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  int64_t strides[GRTC_MAX_RANK];
  grtc_onnx_strides(&x->type, strides);
  int64_t column = 0;
  for (int64_t i = 0; i < total; ++i) {
    grtc_scalar_value_t v = grtc_eval_load(x->type.elem, data + (splat ? 0 : (size_t)i * element));
    if (!grtc_eval_compare(GRTC_CMP_NE, GRTC_CMP_TYPE_DEFAULT, x->type.elem, v, zero)) continue;
    for (uint32_t d = 0; d < r; ++d)
      values[d * nonzero + column] = (i / strides[d]) % x->type.dims[d];
    if (r == 0) values[column] = 0;
    ++column;
  }
  int64_t dims[2] = {r, nonzero};
  OUT(0) = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 2, dims, values);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Unique (constant inputs only)
//===----------------------------------------------------------------------===//

typedef struct grtc_onnx_rows_t {
  const uint8_t* data;
  bool splat;
  grtc_elem_t elem;
  int64_t outer, rows, inner;  // x viewed as [outer, rows, inner]
} grtc_onnx_rows_t;

static grtc_scalar_value_t grtc_onnx_row_at(const grtc_onnx_rows_t* v, int64_t row, int64_t k) {
  int64_t o = k / v->inner, i = k % v->inner;
  int64_t at = v->splat ? 0 : (o * v->rows + row) * v->inner + i;
  return grtc_eval_load(v->elem, v->data + (size_t)at * grtc_elem_byte_size(v->elem));
}

// Orders rows lexicographically by value (numpy's order for Unique: NaN
// after every number, NaNs equal to each other).
static int grtc_onnx_row_compare(const grtc_onnx_rows_t* v, int64_t a, int64_t b) {
  int64_t length = v->outer * v->inner;
  bool is_float = grtc_elem_is_float(v->elem);
  for (int64_t k = 0; k < length; ++k) {
    grtc_scalar_value_t x = grtc_onnx_row_at(v, a, k), y = grtc_onnx_row_at(v, b, k);
    if (is_float && (isnan(x.f) || isnan(y.f))) {
      if (isnan(x.f) && isnan(y.f)) continue;
      return isnan(x.f) ? 1 : -1;
    }
    if (grtc_eval_compare(GRTC_CMP_LT, GRTC_CMP_TYPE_DEFAULT, v->elem, x, y)) return -1;
    if (grtc_eval_compare(GRTC_CMP_GT, GRTC_CMP_TYPE_DEFAULT, v->elem, x, y)) return 1;
  }
  return 0;
}

// Stable merge sort of |order| (row numbers) by row value.
static void grtc_onnx_sort_rows(const grtc_onnx_rows_t* v, int64_t* order, int64_t* scratch,
                                int64_t count) {
  for (int64_t width = 1; width < count; width *= 2) {
    for (int64_t lo = 0; lo < count; lo += 2 * width) {
      int64_t mid = lo + width < count ? lo + width : count;
      int64_t hi = lo + 2 * width < count ? lo + 2 * width : count;
      int64_t a = lo, b = mid, out = lo;
      while (a < mid && b < hi) {
        scratch[out++] = grtc_onnx_row_compare(v, order[b], order[a]) < 0 ? order[b++] : order[a++];
      }
      while (a < mid) scratch[out++] = order[a++];
      while (b < hi) scratch[out++] = order[b++];
    }
    memcpy(order, scratch, (size_t)count * sizeof(int64_t));
  }
}

static grt_status_t grtc_onnx_op_unique(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  if (!x) return grt_ok_status();
  if (!grtc_onnx_is_constant(x)) {
    return grtc_onnx_unsupported(n,
                                 "Unique's result shape depends on the input's values, "
                                 "which are computed at run time here; grt compiles static "
                                 "shapes (a constant input is folded)");
  }
  int64_t total = grtc_ttype_element_count(&x->type);
  if (total > (1 << 16)) {
    return grtc_onnx_unsupported(n, "Unique of %lld constant elements", (long long)total);
  }
  grtc_onnx_rows_t v;
  v.data = grtc_onnx_const_data(x, &v.splat);
  v.elem = x->type.elem;
  uint32_t axis = 0;
  grtc_ttype_t type = x->type;
  if (grtc_onnx_attr(n, "axis")) {
    if (!grtc_onnx_axis(n, "attribute 'axis'", grtc_onnx_attr_int(n, "axis", 0), x->type.rank,
                        &axis)) {
      return grt_ok_status();
    }
    v.outer = v.inner = 1;
    for (uint32_t i = 0; i < axis; ++i) v.outer *= x->type.dims[i];
    for (uint32_t i = axis + 1; i < x->type.rank; ++i) v.inner *= x->type.dims[i];
    v.rows = x->type.dims[axis];
  } else {
    type = grtc_onnx_type(x->type.elem, 1, &total);
    v.outer = v.inner = 1;
    v.rows = total;
  }
  bool sorted = grtc_onnx_attr_int(n, "sorted", 1) != 0;
  int64_t rows = v.rows;
  int64_t* buffers = grtc_tmodule_alloc(n->module, (size_t)(6 * rows + 6) * sizeof(int64_t));
  if (!buffers) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  int64_t* order = buffers;  // rows by value, ties by position
  int64_t* scratch = order + rows + 1;
  int64_t* group = scratch + rows + 1;  // each row's unique entry (in sorted order)
  int64_t* first = group + rows + 1;    // each unique entry's first row
  int64_t* counts = first + rows + 1;
  int64_t* rank = counts + rows + 1;  // output position of each unique entry
  for (int64_t i = 0; i < rows; ++i) order[i] = i;
  grtc_onnx_sort_rows(&v, order, scratch, rows);
  int64_t unique = 0;
  for (int64_t i = 0; i < rows; ++i) {
    if (i == 0 || grtc_onnx_row_compare(&v, order[i - 1], order[i]) != 0) {
      first[unique] = order[i];  // the sort is stable: the first occurrence
      counts[unique] = 0;
      ++unique;
    }
    group[order[i]] = unique - 1;
    ++counts[unique - 1];
  }
  // Output order: by value (sorted) or by first occurrence.
  int64_t* out_first = scratch;
  int64_t* out_counts = order;
  if (sorted) {
    for (int64_t u = 0; u < unique; ++u) rank[u] = u;
  } else {
    // Unique entries ordered by their first row.
    int64_t next = 0;
    for (int64_t i = 0; i < rows; ++i) {
      if (first[group[i]] == i) rank[group[i]] = next++;
    }
  }
  for (int64_t u = 0; u < unique; ++u) {
    out_first[rank[u]] = first[u];
    out_counts[rank[u]] = counts[u];
  }
  for (int64_t i = 0; i < rows; ++i) group[i] = rank[group[i]];
  // Without an axis the values are those of the flattened input.
  grtc_tvalue_t* source = grtc_onnx_reshape(n, x, type.rank, type.dims);
  if (!source) return grt_ok_status();
  type.dims[axis] = unique;
  OUT(0) = grtc_onnx_gather_const(n, source, out_first, unique, axis, &type);
  if (n->output_count > 1) OUT(1) = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 1, &unique, out_first);
  if (n->output_count > 2) OUT(2) = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 1, &rows, group);
  if (n->output_count > 3) OUT(3) = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 1, &unique, out_counts);
  return grt_ok_status();
}

const grtc_onnx_op_def_t grtc_onnx_shape_ops[] = {
    {"Shape", grtc_onnx_op_shape, 1, 1, 1, 1, 1},
    {"Size", grtc_onnx_op_size, 1, 1, 1, 1, 1},
    {"Reshape", grtc_onnx_op_reshape, 2, 2, 1, 1, 5},
    {"Flatten", grtc_onnx_op_flatten, 1, 1, 1, 1, 1},
    {"Squeeze", grtc_onnx_op_squeeze, 1, 2, 1, 1, 1},
    {"Unsqueeze", grtc_onnx_op_unsqueeze, 1, 2, 1, 1, 1},
    {"Transpose", grtc_onnx_op_transpose, 1, 1, 1, 1, 1},
    {"Concat", grtc_onnx_op_concat, 1, -1, 1, 1, 1},
    {"Split", grtc_onnx_op_split, 1, 2, 1, -1, 1},
    {"Slice", grtc_onnx_op_slice, 1, 5, 1, 1, 1},
    {"Gather", grtc_onnx_op_gather, 2, 2, 1, 1, 1},
    {"GatherElements", grtc_onnx_op_gather_elements, 2, 2, 1, 1, 11},
    {"GatherND", grtc_onnx_op_gather_nd, 2, 2, 1, 1, 11},
    {"ReverseSequence", grtc_onnx_op_reverse_sequence, 2, 2, 1, 1, 10},
    {"Compress", grtc_onnx_op_compress, 2, 2, 1, 1, 9},
    {"ScatterND", grtc_onnx_op_scatter_nd, 3, 3, 1, 1, 11},
    {"ScatterElements", grtc_onnx_op_scatter_elements, 3, 3, 1, 1, 11},
    {"Scatter", grtc_onnx_op_scatter_elements, 3, 3, 1, 1, 9},
    {"Expand", grtc_onnx_op_expand, 2, 2, 1, 1, 8},
    {"Tile", grtc_onnx_op_tile, 2, 2, 1, 1, 6},
    {"Pad", grtc_onnx_op_pad, 1, 4, 1, 1, 1},
    {"CenterCropPad", grtc_onnx_op_center_crop_pad, 2, 2, 1, 1, 18},
    {"ConstantOfShape", grtc_onnx_op_constant_of_shape, 1, 1, 1, 1, 9},
    {"Range", grtc_onnx_op_range, 3, 3, 1, 1, 11},
    {"OneHot", grtc_onnx_op_one_hot, 3, 3, 1, 1, 9},
    {"Trilu", grtc_onnx_op_trilu, 1, 2, 1, 1, 14},
    {"EyeLike", grtc_onnx_op_eye_like, 1, 1, 1, 1, 9},
    {"DepthToSpace", grtc_onnx_op_depth_to_space, 1, 1, 1, 1, 1},
    {"SpaceToDepth", grtc_onnx_op_space_to_depth, 1, 1, 1, 1, 1},
    {"NonZero", grtc_onnx_op_non_zero, 1, 1, 1, 1, 9},
    {"Unique", grtc_onnx_op_unique, 1, 1, 1, 4, 11},
    {NULL, NULL, 0, 0, 0, 0, 0},
};
