// Tensor IR builders for the ONNX op files (internal.h): every op gets the
// node's location, is verified as it is made (the model is untrusted, and
// folding reads operands by the op's attributes), and is folded when its
// operands are constants.
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "compiler/onnx/internal.h"
#include "compiler/stablehlo/compose.h"
#include "compiler/stablehlo/quant.h"
#include "compiler/tensor/eval.h"
#include "compiler/tensor/passes.h"

bool grtc_onnx_ok(const grtc_onnx_node_t* n) { return grt_status_is_ok(n->status); }

bool grtc_onnx_fail(grtc_onnx_node_t* n, grt_status_t status) {
  if (grt_status_is_ok(status)) return false;
  if (grt_status_is_ok(n->status)) {
    n->status = status;
  } else {
    grt_status_free(status);
  }
  return false;
}

const char* grtc_onnx_fmt_type(const grtc_ttype_t* type, char* buffer) {
  return grtc_ttype_format(type, buffer, GRTC_TTYPE_FORMAT_CAPACITY);
}

const char* grtc_onnx_fmt(const grtc_tvalue_t* x, char* buffer) {
  return grtc_onnx_fmt_type(&x->type, buffer);
}

bool grtc_onnx_expect_float(grtc_onnx_node_t* n, grtc_tvalue_t* x, const char* what) {
  if (!x) return false;
  if (grtc_elem_is_float(x->type.elem)) return true;
  char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
  return grtc_onnx_fail(n, grtc_onnx_error(n, "%s must be a floating-point tensor, got %s", what,
                                           grtc_onnx_fmt(x, buffer)));
}

grtc_ttype_t grtc_onnx_type(grtc_elem_t elem, uint32_t rank, const int64_t* dims) {
  grtc_ttype_t type;
  memset(&type, 0, sizeof(type));
  type.elem = elem;
  type.rank = rank;
  if (rank && dims) memcpy(type.dims, dims, rank * sizeof(int64_t));
  return type;
}

grtc_top_t* grtc_onnx_op_full(grtc_onnx_node_t* n, grtc_top_kind_t kind,
                              grtc_tvalue_t* const* operands, uint32_t count,
                              const grtc_ttype_t* types, uint32_t result_count,
                              uint32_t region_count) {
  if (!grtc_onnx_ok(n)) return NULL;
  for (uint32_t i = 0; i < count; ++i) {
    if (!operands[i]) return NULL;
  }
  for (uint32_t i = 0; i < result_count; ++i) {
    if (types[i].rank > GRTC_MAX_RANK) {
      grtc_onnx_fail(n, grtc_onnx_error(n, "a result would have rank %u, more than grt's %d",
                                        types[i].rank, GRTC_MAX_RANK));
      return NULL;
    }
    for (uint32_t d = 0; d < types[i].rank; ++d) {
      // Symbolic dims come only from the graph inputs' (the import of
      // ops that take them, grtc_onnx_check_symbolic); other negative sizes
      // are a shape computation gone wrong.
      if (!grtc_dim_is_static(types[i].dims[d]) &&
          grtc_dim_symbol(types[i].dims[d]) >= n->module->shapes->sym_count) {
        grtc_onnx_fail(n, grtc_onnx_error(n, "a result would have dimension %u = %lld", d,
                                          (long long)types[i].dims[d]));
        return NULL;
      }
    }
  }
  grtc_top_t* op = NULL;
  grt_status_t status =
      grtc_top_create(n->module, kind, operands, count, types, result_count, region_count, &op);
  if (!grt_status_is_ok(status)) {
    grtc_onnx_fail(n, status);
    return NULL;
  }
  op->location = n->location;
  op->line = n->number;
  op->column = 1;
  grtc_tblock_append(n->block, op);
  return op;
}

grtc_tvalue_t* grtc_onnx_fold(grtc_onnx_node_t* n, grtc_top_t* op) {
  if (!op || !grtc_onnx_ok(n)) return NULL;
  grt_status_t status = grtc_tensor_verify_op(n->module, op);
  if (!grt_status_is_ok(status)) {
    // The tensor IR's message names the StableHLO op; the node's prefix
    // names the ONNX node.
    grtc_onnx_fail(n, grtc_onnx_error(n, "%s", grt_status_message(status)));
    grt_status_free(status);
    return NULL;
  }
  grtc_tvalue_t* value = NULL;
  if (op->region_count == 0 && op->operand_count > 0 &&
      op->kind != GRTC_TOP_CONSTANT) {
    bool constant = true;
    for (uint32_t i = 0; i < op->operand_count && constant; ++i) {
      constant = grtc_onnx_is_constant(op->operands[i]);
    }
    if (constant) {
      status = grtc_tensor_fold_new_op(n->module, op, &value);
      if (!grt_status_is_ok(status)) {
        grtc_onnx_fail(n, status);
        return NULL;
      }
      return value;
    }
  }
  return op->result_count ? &op->results[0] : NULL;
}

grtc_tvalue_t* grtc_onnx_op(grtc_onnx_node_t* n, grtc_top_kind_t kind,
                            grtc_tvalue_t* const* operands, uint32_t count,
                            const grtc_ttype_t* type) {
  return grtc_onnx_fold(n, grtc_onnx_op_full(n, kind, operands, count, type, type ? 1 : 0, 0));
}

bool grtc_onnx_is_constant(const grtc_tvalue_t* value) {
  return value && value->def && value->def->kind == GRTC_TOP_CONSTANT &&
         !value->def->attrs.unfoldable;
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

grtc_tvalue_t* grtc_onnx_constant(grtc_onnx_node_t* n, const grtc_ttype_t* type,
                                  const void* data, size_t size, bool splat) {
  if (!grtc_onnx_ok(n)) return NULL;
  uint8_t* copy = grtc_tmodule_alloc(n->module, size ? size : 1);
  if (!copy) {
    grtc_onnx_fail(n, grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory"));
    return NULL;
  }
  if (size) memcpy(copy, data, size);
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_CONSTANT, NULL, 0, type, 1, 0);
  if (!op) return NULL;
  op->attrs.constant.data = copy;
  op->attrs.constant.size = size;
  op->attrs.constant.splat = splat;
  return grtc_onnx_fold(n, op);
}

grtc_tvalue_t* grtc_onnx_splat(grtc_onnx_node_t* n, const grtc_ttype_t* type, double value) {
  uint8_t bytes[8] = {0};
  grtc_scalar_value_t v;
  if (grtc_elem_is_float(type->elem)) {
    v.f = value;
  } else if (grtc_elem_is_unsigned_integer(type->elem)) {
    v.u = value <= 0 ? 0 : (uint64_t)value;
  } else if (type->elem == GRTC_ELEM_I1) {
    v.u = value != 0;
  } else {
    v.i = (int64_t)value;
  }
  grtc_eval_store(type->elem, v, bytes);
  if (!grtc_ttype_is_static(type)) {
    // A constant has a static shape: a scalar broadcast to the symbolic one.
    grtc_ttype_t scalar = grtc_onnx_type(type->elem, 0, NULL);
    grtc_tvalue_t* x =
        grtc_onnx_constant(n, &scalar, bytes, grtc_elem_byte_size(type->elem), true);
    return grtc_onnx_broadcast_in_dim(n, x, type, NULL);
  }
  return grtc_onnx_constant(n, type, bytes, grtc_elem_byte_size(type->elem), true);
}

grtc_tvalue_t* grtc_onnx_splat_like(grtc_onnx_node_t* n, grtc_tvalue_t* like, double value) {
  if (!like) return NULL;
  return grtc_onnx_splat(n, &like->type, value);
}

grtc_tvalue_t* grtc_onnx_scalar(grtc_onnx_node_t* n, grtc_elem_t elem, double value) {
  grtc_ttype_t type = grtc_onnx_type(elem, 0, NULL);
  return grtc_onnx_splat(n, &type, value);
}

grtc_tvalue_t* grtc_onnx_const_ints(grtc_onnx_node_t* n, grtc_elem_t elem, uint32_t rank,
                                    const int64_t* dims, const int64_t* values) {
  if (!grtc_onnx_ok(n)) return NULL;
  grtc_ttype_t type = grtc_onnx_type(elem, rank, dims);
  int64_t count = grtc_ttype_element_count(&type);
  size_t size = (size_t)count * grtc_elem_byte_size(elem);
  uint8_t* bytes = grtc_tmodule_alloc(n->module, size ? size : 1);
  if (!bytes) {
    grtc_onnx_fail(n, grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory"));
    return NULL;
  }
  for (int64_t i = 0; i < count; ++i) {
    grtc_eval_store(elem, grtc_eval_from_int(elem, values[i]),
                    bytes + (size_t)i * grtc_elem_byte_size(elem));
  }
  return grtc_onnx_constant(n, &type, bytes, size, false);
}

// Element |i| of constant |value| as a scalar value.
static grtc_scalar_value_t grtc_onnx_const_element(const grtc_tvalue_t* value, int64_t i) {
  const grtc_top_t* op = value->def;
  size_t element_size = grtc_elem_byte_size(value->type.elem);
  const uint8_t* at = op->attrs.constant.splat ? op->attrs.constant.data
                                               : op->attrs.constant.data + (size_t)i * element_size;
  return grtc_eval_load(value->type.elem, at);
}

int64_t grtc_onnx_const_int(const grtc_tvalue_t* value, int64_t i) {
  return grtc_eval_convert(value->type.elem, GRTC_ELEM_I64, grtc_onnx_const_element(value, i)).i;
}

grtc_tvalue_t* grtc_onnx_constant_sums(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t keep,
                                       uint32_t rank, const int64_t* dims) {
  if (!grtc_onnx_ok(n) || !grtc_onnx_is_constant(x) || !grtc_elem_is_integer(x->type.elem) ||
      keep >= x->type.rank || !grtc_ttype_is_static(&x->type)) {
    return NULL;
  }
  int64_t size = x->type.dims[keep], inner = 1;
  for (uint32_t d = keep + 1; d < x->type.rank; ++d) inner *= x->type.dims[d];
  int64_t total = grtc_ttype_element_count(&x->type);
  int64_t* sums = grtc_tmodule_alloc(n->module, (size_t)(size + 1) * sizeof(int64_t));
  if (!sums) {
    grtc_onnx_fail(n, grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory"));
    return NULL;
  }
  memset(sums, 0, (size_t)(size + 1) * sizeof(int64_t));
  for (int64_t e = 0; e < total; ++e) {
    sums[(e / inner) % size] +=
        grtc_eval_convert(x->type.elem, GRTC_ELEM_I64, grtc_onnx_const_element(x, e)).i;
  }
  // i32 arithmetic wraps, as the sums computed at run time would.
  for (int64_t i = 0; i < size; ++i) sums[i] = (int32_t)(uint32_t)(uint64_t)sums[i];
  return grtc_onnx_const_ints(n, GRTC_ELEM_I32, rank, dims, sums);
}

// The element count of constant |value| and an arena array of that many
// |element_size| slots (plus one) for its values; -1 and an error naming
// |what| when |value| is computed at run time, too large, or memory runs out.
static int64_t grtc_onnx_known_values(grtc_onnx_node_t* n, grtc_tvalue_t* value,
                                      const char* what, size_t element_size, void** out) {
  if (!grtc_onnx_is_constant(value)) {
    grtc_onnx_fail(n, grtc_onnx_unsupported(n,
                                            "%s must be known when the model is compiled (a "
                                            "constant, an initializer, or computed from "
                                            "static shapes); here it is computed at run time",
                                            what));
    return -1;
  }
  int64_t count = grtc_ttype_element_count(&value->type);
  if (count > 1 << 20) {
    grtc_onnx_fail(n, grtc_onnx_unsupported(n, "%s has %lld values", what, (long long)count));
    return -1;
  }
  *out = grtc_tmodule_alloc(n->module, (size_t)(count + 1) * element_size);
  if (!*out) {
    grtc_onnx_fail(n, grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory"));
    return -1;
  }
  return count;
}

bool grtc_onnx_ints(grtc_onnx_node_t* n, grtc_tvalue_t* value, const char* what,
                    int64_t** out_values, uint32_t* out_count) {
  *out_values = NULL;
  *out_count = 0;
  if (!value || !grtc_onnx_ok(n)) return false;
  if (!grtc_elem_is_integer(value->type.elem)) {
    char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
    grtc_onnx_fail(n, grtc_onnx_error(n, "%s must be an integer tensor, got %s", what,
                                      grtc_onnx_fmt_type(&value->type, buffer)));
    return false;
  }
  int64_t* values = NULL;
  int64_t count = grtc_onnx_known_values(n, value, what, sizeof(int64_t), (void**)&values);
  if (count < 0) return false;
  bool is_unsigned = grtc_elem_is_unsigned_integer(value->type.elem);
  for (int64_t i = 0; i < count; ++i) {
    grtc_scalar_value_t v = grtc_onnx_const_element(value, i);
    values[i] = is_unsigned ? (int64_t)v.u : v.i;
  }
  *out_values = values;
  *out_count = (uint32_t)count;
  return true;
}

bool grtc_onnx_floats(grtc_onnx_node_t* n, grtc_tvalue_t* value, const char* what,
                      double** out_values, uint32_t* out_count) {
  *out_values = NULL;
  *out_count = 0;
  if (!value || !grtc_onnx_ok(n)) return false;
  double* values = NULL;
  int64_t count = grtc_onnx_known_values(n, value, what, sizeof(double), (void**)&values);
  if (count < 0) return false;
  grtc_elem_t elem = value->type.elem;
  for (int64_t i = 0; i < count; ++i) {
    grtc_scalar_value_t v = grtc_onnx_const_element(value, i);
    values[i] = grtc_elem_is_float(elem) ? v.f
                : grtc_elem_is_signed_integer(elem) ? (double)v.i
                                                     : (double)v.u;
  }
  *out_values = values;
  *out_count = (uint32_t)count;
  return true;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

bool grtc_onnx_broadcast_shape(grtc_onnx_node_t* n, const grtc_ttype_t* a, const grtc_ttype_t* b,
                               grtc_ttype_t* out) {
  uint32_t rank = a->rank > b->rank ? a->rank : b->rank;
  *out = grtc_onnx_type(a->elem, rank, NULL);
  for (uint32_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a->rank ? 1 : a->dims[i - (rank - a->rank)];
    int64_t db = i < rank - b->rank ? 1 : b->dims[i - (rank - b->rank)];
    // A symbolic size meets the other side's (the verifier records the
    // equality: an extent of 1 is not broadcast at run time).
    if (!grtc_dim_is_static(da) && grtc_dim_is_static(db) && db != 1) da = db;
    if (!grtc_dim_is_static(db) && grtc_dim_is_static(da) && da != 1) db = da;
    if (!grtc_dim_is_static(da) && !grtc_dim_is_static(db)) db = da;
    if (da != db && da != 1 && db != 1) {
      char ba[GRTC_TTYPE_FORMAT_CAPACITY], bb[GRTC_TTYPE_FORMAT_CAPACITY];
      grtc_onnx_fail(n, grtc_onnx_error(n,
                                        "shapes %s and %s do not broadcast (dimension %u: %lld "
                                        "vs %lld)",
                                        grtc_onnx_fmt_type(a, ba), grtc_onnx_fmt_type(b, bb), i,
                                        (long long)da, (long long)db));
      return false;
    }
    out->dims[i] = da == 1 ? db : da;
  }
  return true;
}

grtc_tvalue_t* grtc_onnx_broadcast_in_dim(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                          const grtc_ttype_t* type, const int64_t* map) {
  if (!x || !grtc_onnx_ok(n)) return NULL;
  if (grtc_ttype_equal(&x->type, type)) {
    bool identity = true;
    for (uint32_t i = 0; i < x->type.rank; ++i) identity &= map[i] == (int64_t)i;
    if (identity) return x;
  }
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_BROADCAST_IN_DIM, &x, 1, type, 1, 0);
  if (!op) return NULL;
  op->attrs.dims = grtc_tmodule_i64s(n->module, map, x->type.rank);
  return grtc_onnx_fold(n, op);
}

grtc_tvalue_t* grtc_onnx_broadcast_to(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t rank,
                                      const int64_t* dims) {
  if (!x || !grtc_onnx_ok(n)) return NULL;
  grtc_ttype_t type = grtc_onnx_type(x->type.elem, rank, dims);
  if (grtc_ttype_equal(&type, &x->type)) return x;
  if (x->type.rank > rank) {
    char bx[GRTC_TTYPE_FORMAT_CAPACITY], bt[GRTC_TTYPE_FORMAT_CAPACITY];
    grtc_onnx_fail(n, grtc_onnx_error(n, "cannot broadcast %s to %s", grtc_onnx_fmt_type(&x->type, bx),
                                      grtc_onnx_fmt_type(&type, bt)));
    return NULL;
  }
  int64_t map[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < x->type.rank; ++i) {
    map[i] = i + (rank - x->type.rank);
    int64_t d = x->type.dims[i];
    if (d != 1 && d != dims[map[i]] && grtc_dim_is_static(d) &&
        grtc_dim_is_static(dims[map[i]])) {
      char bx[GRTC_TTYPE_FORMAT_CAPACITY], bt[GRTC_TTYPE_FORMAT_CAPACITY];
      grtc_onnx_fail(n, grtc_onnx_error(n, "cannot broadcast %s to %s",
                                        grtc_onnx_fmt_type(&x->type, bx), grtc_onnx_fmt_type(&type, bt)));
      return NULL;
    }
  }
  return grtc_onnx_broadcast_in_dim(n, x, &type, map);
}

grtc_tvalue_t* grtc_onnx_unary(grtc_onnx_node_t* n, grtc_top_kind_t kind, grtc_tvalue_t* x) {
  if (!x) return NULL;
  return grtc_onnx_op(n, kind, &x, 1, &x->type);
}

// Broadcasts |count| values to their common shape in place.
static bool grtc_onnx_broadcast_all(grtc_onnx_node_t* n, grtc_tvalue_t** xs, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    if (!xs[i]) return false;
  }
  grtc_ttype_t shape = xs[0]->type;
  for (uint32_t i = 1; i < count; ++i) {
    grtc_ttype_t next;
    if (!grtc_onnx_broadcast_shape(n, &shape, &xs[i]->type, &next)) return false;
    shape = next;
  }
  for (uint32_t i = 0; i < count; ++i) {
    xs[i] = grtc_onnx_broadcast_to(n, xs[i], shape.rank, shape.dims);
    if (!xs[i]) return false;
  }
  return true;
}

static bool grtc_onnx_same_elem(grtc_onnx_node_t* n, const grtc_tvalue_t* a,
                                const grtc_tvalue_t* b) {
  if (a->type.elem == b->type.elem) return true;
  char ba[GRTC_TTYPE_FORMAT_CAPACITY], bb[GRTC_TTYPE_FORMAT_CAPACITY];
  grtc_onnx_fail(n, grtc_onnx_error(n, "operands must have one element type, got %s and %s",
                                    grtc_onnx_fmt_type(&a->type, ba), grtc_onnx_fmt_type(&b->type, bb)));
  return false;
}

grtc_tvalue_t* grtc_onnx_binary(grtc_onnx_node_t* n, grtc_top_kind_t kind, grtc_tvalue_t* a,
                                grtc_tvalue_t* b) {
  if (!a || !b || !grtc_onnx_ok(n) || !grtc_onnx_same_elem(n, a, b)) return NULL;
  grtc_tvalue_t* xs[2] = {a, b};
  if (!grtc_onnx_broadcast_all(n, xs, 2)) return NULL;
  return grtc_onnx_op(n, kind, xs, 2, &xs[0]->type);
}

grtc_tvalue_t* grtc_onnx_compare(grtc_onnx_node_t* n, grtc_compare_direction_t direction,
                                 grtc_tvalue_t* a, grtc_tvalue_t* b) {
  if (!a || !b || !grtc_onnx_ok(n) || !grtc_onnx_same_elem(n, a, b)) return NULL;
  grtc_tvalue_t* xs[2] = {a, b};
  if (!grtc_onnx_broadcast_all(n, xs, 2)) return NULL;
  grtc_ttype_t type = xs[0]->type;
  type.elem = GRTC_ELEM_I1;
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_COMPARE, xs, 2, &type, 1, 0);
  if (!op) return NULL;
  op->attrs.compare_direction = direction;
  op->attrs.compare_type = GRTC_CMP_TYPE_DEFAULT;
  return grtc_onnx_fold(n, op);
}

void grtc_onnx_assert_at_call(grtc_onnx_node_t* n, grtc_tvalue_t* holds,
                              grtc_tvalue_t* const* values, uint32_t count, const char* format,
                              ...) {
  if (!holds || !grtc_onnx_ok(n) || count > 16) return;
  char text[512];
  va_list args;
  va_start(args, format);
  vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  const Onnx__NodeProto* p = n->proto;
  char message[768];
  snprintf(message, sizeof(message), "ONNX node %u '%s' (%s): %s", n->number,
           p->name && p->name[0] ? p->name : "", p->op_type ? p->op_type : "?", text);
  grtc_onnx_assert_message(n, holds, values, count, message);
}

void grtc_onnx_assert_message(grtc_onnx_node_t* n, grtc_tvalue_t* holds,
                              grtc_tvalue_t* const* values, uint32_t count,
                              const char* message) {
  if (!holds || !grtc_onnx_ok(n) || count > 16) return;
  grtc_tvalue_t* operands[17];
  operands[0] = holds;
  for (uint32_t i = 0; i < count; ++i) operands[1 + i] = values[i];
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_SHAPE_ASSERTION, operands, count + 1, NULL, 0, 0);
  if (!op) return;
  size_t length = strlen(message) + 1;
  void* copy = NULL;
  grt_status_t status = grt_arena_allocate(&n->module->arena, length, &copy);
  if (!grt_status_is_ok(status)) {
    grtc_onnx_fail(n, status);
    return;
  }
  memcpy(copy, message, length);
  op->attrs.message = copy;
  grt_status_t verified = grtc_tensor_verify_op(n->module, op);
  if (!grt_status_is_ok(verified)) {
    grtc_onnx_fail(n, grtc_onnx_error(n, "%s", grt_status_message(verified)));
    grt_status_free(verified);
  }
}

void grtc_onnx_check_range_at_call(grtc_onnx_node_t* n, grtc_tvalue_t* value, grtc_tvalue_t* lo,
                                   grtc_tvalue_t* hi, const char* what) {
  if (!value || !lo || !hi || !grtc_onnx_ok(n)) return;
  grtc_tvalue_t* holds = grtc_onnx_binary(n, GRTC_TOP_AND, grtc_onnx_compare(n, GRTC_CMP_GE, value, lo),
                                          grtc_onnx_compare(n, GRTC_CMP_LE, value, hi));
  // The message quotes 32-bit values: a value past them is quoted
  // saturated (the check itself takes all 64 bits).
  grtc_tvalue_t* quoted = grtc_onnx_binary(
      n, GRTC_TOP_MAXIMUM,
      grtc_onnx_binary(n, GRTC_TOP_MINIMUM, value,
                       grtc_onnx_const_ints(n, GRTC_ELEM_I64, 0, NULL, &(int64_t){INT32_MAX})),
      grtc_onnx_const_ints(n, GRTC_ELEM_I64, 0, NULL, &(int64_t){INT32_MIN}));
  grtc_tvalue_t* values[3] = {quoted, lo, hi};
  grtc_onnx_assert_at_call(n, holds, values, 3, "%s must lie between {1} and {2}: got {0}", what);
}

grtc_tvalue_t* grtc_onnx_select(grtc_onnx_node_t* n, grtc_tvalue_t* p, grtc_tvalue_t* a,
                                grtc_tvalue_t* b) {
  if (!p || !a || !b || !grtc_onnx_ok(n) || !grtc_onnx_same_elem(n, a, b)) return NULL;
  if (p->type.elem != GRTC_ELEM_I1) p = grtc_onnx_convert(n, p, GRTC_ELEM_I1);
  grtc_tvalue_t* xs[3] = {p, a, b};
  if (!grtc_onnx_broadcast_all(n, xs, 3)) return NULL;
  return grtc_onnx_op(n, GRTC_TOP_SELECT, xs, 3, &xs[1]->type);
}

grtc_tvalue_t* grtc_onnx_convert(grtc_onnx_node_t* n, grtc_tvalue_t* x, grtc_elem_t elem) {
  if (!x || x->type.elem == elem) return x;
  grtc_ttype_t type = x->type;
  type.elem = elem;
  return grtc_onnx_op(n, GRTC_TOP_CONVERT, &x, 1, &type);
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

grtc_tvalue_t* grtc_onnx_dimension_size(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t dim) {
  if (!x) return NULL;
  if (grtc_dim_is_static(x->type.dims[dim])) {
    return grtc_onnx_const_ints(n, GRTC_ELEM_I64, 0, NULL, &x->type.dims[dim]);
  }
  grtc_ttype_t scalar = grtc_onnx_type(GRTC_ELEM_I64, 0, NULL);
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_GET_DIMENSION_SIZE, &x, 1, &scalar, 1, 0);
  if (!op) return NULL;
  op->attrs.dim = dim;
  return grtc_onnx_fold(n, op);
}

bool grtc_onnx_merged_dim(const grtc_ttype_t* type, uint32_t from, uint32_t to, int64_t* out) {
  int64_t product = 1, symbol = 0;
  uint32_t symbols = 0;
  for (uint32_t i = from; i < to && i < type->rank; ++i) {
    if (grtc_dim_is_static(type->dims[i])) {
      product *= type->dims[i];
    } else {
      symbol = type->dims[i];
      ++symbols;
    }
  }
  if (symbols == 0) {
    *out = product;
    return true;
  }
  *out = symbol;
  return symbols == 1 && product == 1;
}

grtc_tvalue_t* grtc_onnx_dims_product(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t from,
                                      uint32_t to) {
  if (!x) return NULL;
  int64_t product = 1;
  grtc_tvalue_t* symbolic = NULL;
  for (uint32_t d = from; d < to && d < x->type.rank; ++d) {
    if (grtc_dim_is_static(x->type.dims[d])) {
      product *= x->type.dims[d];
      continue;
    }
    grtc_tvalue_t* size = grtc_onnx_dimension_size(n, x, d);
    symbolic = symbolic ? grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, symbolic, size) : size;
  }
  grtc_tvalue_t* factor = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 0, NULL, &product);
  if (!symbolic) return factor;
  return product == 1 ? symbolic : grtc_onnx_binary(n, GRTC_TOP_MULTIPLY, symbolic, factor);
}

grtc_tvalue_t* grtc_onnx_reshape_computed(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t rank,
                                          const int64_t* dims, grtc_tvalue_t* const* elements) {
  return grtc_onnx_dynamic_computed(n, GRTC_TOP_DYNAMIC_RESHAPE, x, rank, dims, elements, NULL);
}

grtc_tvalue_t* grtc_onnx_dynamic_computed(grtc_onnx_node_t* n, grtc_top_kind_t kind,
                                          grtc_tvalue_t* x, uint32_t rank, const int64_t* dims,
                                          grtc_tvalue_t* const* elements, const int64_t* map) {
  if (!grtc_onnx_ok(n) || (!x && kind != GRTC_TOP_DYNAMIC_IOTA)) return NULL;
  if (rank > GRTC_MAX_RANK) {
    grtc_onnx_fail(n, grtc_onnx_error(n, "a result would have rank %u, more than grt's %d", rank,
                                      GRTC_MAX_RANK));
    return NULL;
  }
  grtc_tvalue_t* parts[GRTC_MAX_RANK];
  int64_t one = 1;
  int64_t result_dims[GRTC_MAX_RANK];
  int64_t computed[GRTC_MAX_RANK];
  uint32_t computed_count = 0;
  for (uint32_t i = 0; i < rank; ++i) {
    parts[i] = grtc_onnx_reshape(n, elements[i], 1, &one);
    result_dims[i] = dims[i];
    if (dims[i] != GRTC_ONNX_COMPUTED_DIM) continue;
    // The op is made below; its symbols name it once it exists.
    const grtc_tblock_t* block = n->block;
    while (!block->func && block->parent_op && block->parent_op->parent) {
      block = block->parent_op->parent;
    }
    grt_status_t status = grtc_tmodule_new_symbol(n->module, block->func, GRTC_SYM_RESULT, NULL,
                                                  0, i, &result_dims[i]);
    if (!grt_status_is_ok(status)) {
      grtc_onnx_fail(n, status);
      return NULL;
    }
    computed[computed_count++] = i;
  }
  grtc_tvalue_t* shape = rank ? grtc_onnx_concat(n, parts, rank, 0) : NULL;
  bool iota = kind == GRTC_TOP_DYNAMIC_IOTA;
  grtc_tvalue_t* operands[4] = {iota ? shape : x, shape, NULL, NULL};
  uint32_t operand_count = iota ? 1 : 2;
  if (kind == GRTC_TOP_REAL_DYNAMIC_SLICE) {
    // x, starts, limits (|elements|), strides.
    int64_t length = rank;
    operands[1] = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 1, &length, map);
    operands[2] = shape;
    operands[3] = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 1, &length, map + rank);
    operand_count = 4;
  }
  // A dynamic_iota counts in i64 along dimension 0.
  grtc_ttype_t type = grtc_onnx_type(iota ? GRTC_ELEM_I64 : x->type.elem, rank, result_dims);
  grtc_top_t* op = grtc_onnx_op_full(n, kind, operands, operand_count, &type, 1, 0);
  if (!op) return NULL;
  if (kind == GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM) {
    op->attrs.dims = grtc_tmodule_i64s(n->module, map, x->type.rank);
  }
  for (uint32_t k = 0; k < computed_count; ++k) {
    n->module->shapes->syms[grtc_dim_symbol(result_dims[computed[k]])].op = op;
  }
  return &op->results[0];
}

grtc_tvalue_t* grtc_onnx_reshape(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t rank,
                                 const int64_t* dims) {
  if (!x || !grtc_onnx_ok(n)) return NULL;
  grtc_ttype_t type = grtc_onnx_type(x->type.elem, rank, dims);
  if (rank > GRTC_MAX_RANK) {
    grtc_onnx_fail(n, grtc_onnx_error(n, "a reshape to rank %u exceeds grt's %d", rank,
                                      GRTC_MAX_RANK));
    return NULL;
  }
  if (grtc_ttype_equal(&type, &x->type)) return x;
  return grtc_onnx_op(n, GRTC_TOP_RESHAPE, &x, 1, &type);
}

grtc_tvalue_t* grtc_onnx_transpose(grtc_onnx_node_t* n, grtc_tvalue_t* x, const int64_t* perm) {
  if (!x || !grtc_onnx_ok(n)) return NULL;
  grtc_ttype_t type = x->type;
  bool identity = true;
  for (uint32_t i = 0; i < x->type.rank; ++i) {
    if (perm[i] < 0 || perm[i] >= (int64_t)x->type.rank) {
      grtc_onnx_fail(n, grtc_onnx_error(n, "permutation entry %u is %lld, expected 0 to %u", i,
                                        (long long)perm[i], x->type.rank - 1));
      return NULL;
    }
    type.dims[i] = x->type.dims[perm[i]];
    identity &= perm[i] == (int64_t)i;
  }
  if (identity) return x;
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_TRANSPOSE, &x, 1, &type, 1, 0);
  if (!op) return NULL;
  op->attrs.dims = grtc_tmodule_i64s(n->module, perm, x->type.rank);
  return grtc_onnx_fold(n, op);
}

grtc_tvalue_t* grtc_onnx_transpose_constant(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                           const int64_t* perm) {
  if (!x || !grtc_onnx_ok(n)) return NULL;
  if (!grtc_onnx_is_constant(x) || x->def->attrs.constant.splat) {
    return grtc_onnx_transpose(n, x, perm);
  }
  uint32_t rank = x->type.rank;
  grtc_ttype_t type = x->type;
  for (uint32_t i = 0; i < rank; ++i) {
    if (perm[i] < 0 || perm[i] >= (int64_t)rank) return grtc_onnx_transpose(n, x, perm);
    type.dims[i] = x->type.dims[perm[i]];
  }
  int64_t count = grtc_ttype_element_count(&type);
  size_t element_size = grtc_elem_byte_size(type.elem);
  size_t size = (size_t)count * element_size;
  if (x->def->attrs.constant.size != size) return grtc_onnx_transpose(n, x, perm);
  uint8_t* data = grtc_tmodule_alloc(n->module, size ? size : 1);
  if (!data) {
    grtc_onnx_fail(n, grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory"));
    return NULL;
  }
  // Source strides in elements, then walk the result in order.
  int64_t stride[GRTC_MAX_RANK];
  int64_t s = 1;
  for (uint32_t i = rank; i-- > 0;) {
    stride[i] = s;
    s *= x->type.dims[i];
  }
  int64_t index[GRTC_MAX_RANK] = {0};
  const uint8_t* from = x->def->attrs.constant.data;
  for (int64_t e = 0; e < count; ++e) {
    int64_t source = 0;
    for (uint32_t i = 0; i < rank; ++i) source += index[i] * stride[perm[i]];
    memcpy(data + (size_t)e * element_size, from + (size_t)source * element_size, element_size);
    for (uint32_t i = rank; i-- > 0;) {
      if (++index[i] < type.dims[i]) break;
      index[i] = 0;
    }
  }
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_CONSTANT, NULL, 0, &type, 1, 0);
  if (!op) return NULL;
  op->attrs.constant.data = data;
  op->attrs.constant.size = size;
  return grtc_onnx_fold(n, op);
}

grtc_tvalue_t* grtc_onnx_slice(grtc_onnx_node_t* n, grtc_tvalue_t* x, const int64_t* start,
                               const int64_t* limit, const int64_t* strides) {
  if (!x || !grtc_onnx_ok(n)) return NULL;
  grtc_ttype_t type = x->type;
  bool identity = true;
  for (uint32_t i = 0; i < x->type.rank; ++i) {
    // A symbolic dimension is either taken whole (limit is the dimension
    // itself) or sliced to static bounds that the call checks against its
    // extent (grtc_verify_slice).
    bool symbolic = !grtc_dim_is_static(x->type.dims[i]);
    if (symbolic && start[i] == 0 && limit[i] == x->type.dims[i] && strides[i] == 1) continue;
    if (start[i] < 0 || limit[i] < start[i] || (!symbolic && limit[i] > x->type.dims[i]) ||
        strides[i] < 1) {
      grtc_onnx_fail(n, grtc_onnx_error(n,
                                        "slice [%lld:%lld:%lld] of dimension %u (size %lld) is "
                                        "out of range",
                                        (long long)start[i], (long long)limit[i],
                                        (long long)strides[i], i, (long long)x->type.dims[i]));
      return NULL;
    }
    type.dims[i] = (limit[i] - start[i] + strides[i] - 1) / strides[i];
    identity &= type.dims[i] == x->type.dims[i] && start[i] == 0 &&
                (strides[i] == 1 || x->type.dims[i] <= 1);
  }
  if (identity) return x;
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_SLICE, &x, 1, &type, 1, 0);
  if (!op) return NULL;
  op->attrs.start = grtc_tmodule_i64s(n->module, start, x->type.rank);
  op->attrs.limit = grtc_tmodule_i64s(n->module, limit, x->type.rank);
  op->attrs.strides = grtc_tmodule_i64s(n->module, strides, x->type.rank);
  return grtc_onnx_fold(n, op);
}

grtc_tvalue_t* grtc_onnx_concat(grtc_onnx_node_t* n, grtc_tvalue_t* const* xs, uint32_t count,
                                uint32_t axis) {
  if (!grtc_onnx_ok(n) || count == 0) return NULL;
  for (uint32_t i = 0; i < count; ++i) {
    if (!xs[i]) return NULL;
  }
  if (count == 1) return xs[0];
  grtc_ttype_t type = xs[0]->type;
  type.dims[axis] = 0;
  bool symbolic = false;
  for (uint32_t i = 0; i < count; ++i) {
    const grtc_ttype_t* t = &xs[i]->type;
    bool ok = t->elem == type.elem && t->rank == type.rank;
    // Along a symbolic dimension the result's is a symbol of its own,
    // the sum the host program derives at the call.
    if (ok && !grtc_dim_is_static(t->dims[axis])) symbolic = true;
    // Symbolic sizes off the axis are related by the verifier.
    for (uint32_t d = 0; ok && d < t->rank; ++d) {
      ok = d == axis || t->dims[d] == type.dims[d] || !grtc_dim_is_static(t->dims[d]) ||
           !grtc_dim_is_static(type.dims[d]);
    }
    if (!ok) {
      char b0[GRTC_TTYPE_FORMAT_CAPACITY], bi[GRTC_TTYPE_FORMAT_CAPACITY];
      grtc_onnx_fail(n, grtc_onnx_error(n,
                                        "inputs %s and %s cannot be concatenated on axis %u",
                                        grtc_onnx_fmt_type(&xs[0]->type, b0),
                                        grtc_onnx_fmt_type(t, bi), axis));
      return NULL;
    }
    if (!symbolic) type.dims[axis] += t->dims[axis];
  }
  if (symbolic) {
    // The op is made below; the symbol names it once it exists.
    const grtc_tblock_t* block = n->block;
    while (!block->func && block->parent_op && block->parent_op->parent) {
      block = block->parent_op->parent;
    }
    grt_status_t status = grtc_tmodule_new_symbol(n->module, block->func, GRTC_SYM_RESULT, NULL,
                                                  0, axis, &type.dims[axis]);
    if (!grt_status_is_ok(status)) {
      grtc_onnx_fail(n, status);
      return NULL;
    }
  }
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_CONCATENATE, xs, count, &type, 1, 0);
  if (!op) return NULL;
  op->attrs.dim = axis;
  if (symbolic) {
    n->module->shapes->syms[grtc_dim_symbol(type.dims[axis])].op = op;
    return &op->results[0];
  }
  return grtc_onnx_fold(n, op);
}

grtc_tvalue_t* grtc_onnx_pad(grtc_onnx_node_t* n, grtc_tvalue_t* x, grtc_tvalue_t* padding_value,
                             const int64_t* low, const int64_t* high) {
  if (!x || !padding_value || !grtc_onnx_ok(n)) return NULL;
  grtc_ttype_t type = x->type;
  int64_t interior[GRTC_MAX_RANK] = {0};
  bool identity = true;
  uint32_t padded[GRTC_MAX_RANK];
  uint32_t padded_count = 0;
  for (uint32_t i = 0; i < x->type.rank; ++i) {
    if (!grtc_dim_is_static(x->type.dims[i]) && low[i] == 0 && high[i] == 0) continue;
    if (!grtc_dim_is_static(x->type.dims[i])) {
      // A padded symbolic dimension: a symbol of its own, low + high +
      // size, derived at the call (a crop is the caller's diagnostic).
      if (low[i] < 0 || high[i] < 0) {
        grtc_onnx_fail(n, grtc_onnx_symbolic_error(n, 0, i, x->type.dims[i],
                                                   "grt pads symbolic dimensions without "
                                                   "cropping only"));
        return NULL;
      }
      const grtc_tblock_t* block = n->block;
      while (!block->func && block->parent_op && block->parent_op->parent) {
        block = block->parent_op->parent;
      }
      grt_status_t status = grtc_tmodule_new_symbol(n->module, block->func, GRTC_SYM_RESULT,
                                                    NULL, 0, i, &type.dims[i]);
      if (!grt_status_is_ok(status)) {
        grtc_onnx_fail(n, status);
        return NULL;
      }
      padded[padded_count++] = i;
      identity = false;
      continue;
    }
    type.dims[i] = x->type.dims[i] + low[i] + high[i];
    if (type.dims[i] < 0 || low[i] < -x->type.dims[i] || high[i] < -x->type.dims[i]) {
      grtc_onnx_fail(n, grtc_onnx_error(n, "padding %lld/%lld removes more than dimension %u's "
                                           "%lld elements",
                                        (long long)low[i], (long long)high[i], i,
                                        (long long)x->type.dims[i]));
      return NULL;
    }
    identity &= low[i] == 0 && high[i] == 0;
  }
  if (identity) return x;
  grtc_tvalue_t* operands[2] = {x, padding_value};
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_PAD, operands, 2, &type, 1, 0);
  if (!op) return NULL;
  op->attrs.low = grtc_tmodule_i64s(n->module, low, x->type.rank);
  op->attrs.high = grtc_tmodule_i64s(n->module, high, x->type.rank);
  op->attrs.interior = grtc_tmodule_i64s(n->module, interior, x->type.rank);
  for (uint32_t k = 0; k < padded_count; ++k) {
    n->module->shapes->syms[grtc_dim_symbol(type.dims[padded[k]])].op = op;
  }
  if (padded_count) return &op->results[0];
  return grtc_onnx_fold(n, op);
}

//===----------------------------------------------------------------------===//
// Reductions and contractions
//===----------------------------------------------------------------------===//

bool grtc_onnx_reducer_body(grtc_onnx_node_t* n, grtc_top_t* op, grtc_top_kind_t kind,
                            grtc_elem_t elem) {
  grt_status_t status = grtc_top_set_scalar_body(n->module, op, kind, elem);
  if (!grt_status_is_ok(status)) {
    grtc_onnx_fail(n, status);
    return false;
  }
  return true;
}

grtc_tvalue_t* grtc_onnx_reduce(grtc_onnx_node_t* n, grtc_tvalue_t* x, const int64_t* axes,
                                uint32_t axis_count, grtc_top_kind_t kind, grtc_tvalue_t* init,
                                bool keepdims) {
  if (!x || !init || !grtc_onnx_ok(n)) return NULL;
  uint32_t rank = x->type.rank;
  bool reduced[GRTC_MAX_RANK] = {false};
  for (uint32_t i = 0; i < axis_count; ++i) {
    if (axes[i] < 0 || axes[i] >= (int64_t)rank || reduced[axes[i]]) {
      grtc_onnx_fail(n, grtc_onnx_error(n, "reduction axis %lld is out of range or repeated",
                                        (long long)axes[i]));
      return NULL;
    }
    reduced[axes[i]] = true;
  }
  grtc_ttype_t type = grtc_onnx_type(x->type.elem, 0, NULL);
  int64_t sorted[GRTC_MAX_RANK];
  uint32_t sorted_count = 0;
  for (uint32_t d = 0; d < rank; ++d) {
    if (reduced[d]) {
      sorted[sorted_count++] = d;
    } else {
      type.dims[type.rank++] = x->type.dims[d];
    }
  }
  grtc_tvalue_t* value = x;
  if (sorted_count > 0) {
    grtc_tvalue_t* operands[2] = {x, init};
    grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_REDUCE, operands, 2, &type, 1, 1);
    if (!op) return NULL;
    op->attrs.dims = grtc_tmodule_i64s(n->module, sorted, sorted_count);
    if (!grtc_onnx_reducer_body(n, op, kind, x->type.elem)) return NULL;
    value = grtc_onnx_fold(n, op);
  }
  if (keepdims) {
    grtc_ttype_t kept = x->type;
    for (uint32_t d = 0; d < rank; ++d) {
      if (reduced[d]) kept.dims[d] = 1;
    }
    value = grtc_onnx_reshape(n, value, kept.rank, kept.dims);
  }
  return value;
}

grtc_tvalue_t* grtc_onnx_reduce_window(grtc_onnx_node_t* n, grtc_tvalue_t* x,
                                       grtc_top_kind_t kind, grtc_tvalue_t* init,
                                       const int64_t* window, const int64_t* strides,
                                       const int64_t* dilations, const int64_t* low,
                                       const int64_t* high) {
  if (!x || !init || !grtc_onnx_ok(n)) return NULL;
  uint32_t rank = x->type.rank;
  int64_t ones[GRTC_MAX_RANK], zeros[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < GRTC_MAX_RANK; ++d) {
    ones[d] = 1;
    zeros[d] = 0;
  }
  if (!strides) strides = ones;
  if (!dilations) dilations = ones;
  if (!low) low = zeros;
  if (!high) high = zeros;
  grtc_ttype_t type = x->type;
  for (uint32_t d = 0; d < rank; ++d) {
    if (!grtc_dim_is_static(x->type.dims[d])) {
      // A symbolic dimension passes through a window of 1.
      if (window[d] != 1 || strides[d] != 1 || dilations[d] != 1 || low[d] != 0 ||
          high[d] != 0) {
        grtc_onnx_fail(n, grtc_onnx_symbolic_error(n, 0, d, x->type.dims[d],
                                                   "grt takes a window over a symbolic "
                                                   "dimension only when it is 1 (stride 1, no "
                                                   "dilation or padding)"));
        return NULL;
      }
      continue;
    }
    int64_t padded = x->type.dims[d] + low[d] + high[d];
    int64_t extent = window[d] > 0 ? (window[d] - 1) * dilations[d] + 1 : 0;
    if (window[d] < 1 || strides[d] < 1 || dilations[d] < 1 || padded < extent) {
      grtc_onnx_fail(n, grtc_onnx_error(n,
                                        "window %lld (stride %lld, dilation %lld, padding "
                                        "%lld/%lld) does not fit dimension %u of size %lld",
                                        (long long)window[d], (long long)strides[d],
                                        (long long)dilations[d], (long long)low[d],
                                        (long long)high[d], d, (long long)x->type.dims[d]));
      return NULL;
    }
    type.dims[d] = (padded - extent) / strides[d] + 1;
  }
  grtc_tvalue_t* operands[2] = {x, init};
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_REDUCE_WINDOW, operands, 2, &type, 1, 1);
  if (!op) return NULL;
  grtc_window_t* w = &op->attrs.window;
  w->dimensions = grtc_tmodule_i64s(n->module, window, rank);
  w->strides = grtc_tmodule_i64s(n->module, strides, rank);
  w->base_dilations = grtc_tmodule_i64s(n->module, ones, rank);
  w->window_dilations = grtc_tmodule_i64s(n->module, dilations, rank);
  w->padding_low = grtc_tmodule_i64s(n->module, low, rank);
  w->padding_high = grtc_tmodule_i64s(n->module, high, rank);
  if (!grtc_onnx_reducer_body(n, op, kind, x->type.elem)) return NULL;
  return grtc_onnx_fold(n, op);
}

grtc_tvalue_t* grtc_onnx_iota(grtc_onnx_node_t* n, const grtc_ttype_t* type, uint32_t dim) {
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_IOTA, NULL, 0, type, 1, 0);
  if (!op) return NULL;
  op->attrs.dim = dim;
  return grtc_onnx_fold(n, op);
}

grtc_tvalue_t* grtc_onnx_dot(grtc_onnx_node_t* n, grtc_tvalue_t* a, grtc_tvalue_t* b,
                             const grtc_dot_dims_t* dims, const grtc_ttype_t* type) {
  if (!a || !b || !grtc_onnx_ok(n)) return NULL;
  grtc_tvalue_t* operands[2] = {a, b};
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_DOT_GENERAL, operands, 2, type, 1, 0);
  if (!op) return NULL;
  op->attrs.dot.lhs_batch =
      grtc_tmodule_i64s(n->module, dims->lhs_batch.values, dims->lhs_batch.count);
  op->attrs.dot.rhs_batch =
      grtc_tmodule_i64s(n->module, dims->rhs_batch.values, dims->rhs_batch.count);
  op->attrs.dot.lhs_contracting =
      grtc_tmodule_i64s(n->module, dims->lhs_contracting.values, dims->lhs_contracting.count);
  op->attrs.dot.rhs_contracting =
      grtc_tmodule_i64s(n->module, dims->rhs_contracting.values, dims->rhs_contracting.count);
  return grtc_onnx_fold(n, op);
}

// MatMul's |result| (of |type|) without the row (|a_vector|) and column
// (|b_vector|) dimensions that made 1-D operands matrices.
static grtc_tvalue_t* grtc_onnx_drop_vector_dims(grtc_onnx_node_t* n, grtc_tvalue_t* result,
                                                 const grtc_ttype_t* type, bool a_vector,
                                                 bool b_vector) {
  if (!a_vector && !b_vector) return result;
  grtc_ttype_t squeezed = grtc_onnx_type(type->elem, 0, NULL);
  for (uint32_t i = 0; i < type->rank; ++i) {
    if ((a_vector && i == type->rank - 2) || (b_vector && i == type->rank - 1)) continue;
    squeezed.dims[squeezed.rank++] = type->dims[i];
  }
  return grtc_onnx_reshape(n, result, squeezed.rank, squeezed.dims);
}

grtc_tvalue_t* grtc_onnx_matmul(grtc_onnx_node_t* n, grtc_tvalue_t* a, grtc_tvalue_t* b) {
  return a ? grtc_onnx_matmul_into(n, a, b, a->type.elem) : NULL;
}

grtc_tvalue_t* grtc_onnx_matmul_into(grtc_onnx_node_t* n, grtc_tvalue_t* a, grtc_tvalue_t* b,
                                     grtc_elem_t result_elem) {
  if (!a || !b || !grtc_onnx_ok(n) || !grtc_onnx_same_elem(n, a, b)) return NULL;
  if (a->type.rank == 0 || b->type.rank == 0) {
    grtc_onnx_fail(n, grtc_onnx_error(n, "MatMul operands must have rank >= 1"));
    return NULL;
  }
  // numpy: a 1-D lhs is a row vector, a 1-D rhs a column vector; the
  // added dimension is dropped from the result.
  bool a_vector = a->type.rank == 1, b_vector = b->type.rank == 1;
  if (a_vector) {
    int64_t dims[2] = {1, a->type.dims[0]};
    a = grtc_onnx_reshape(n, a, 2, dims);
  }
  if (b_vector) {
    int64_t dims[2] = {b->type.dims[0], 1};
    b = grtc_onnx_reshape(n, b, 2, dims);
  }
  if (!a || !b) return NULL;
  uint32_t ra = a->type.rank, rb = b->type.rank;
  int64_t k = a->type.dims[ra - 1];
  // A symbolic contracting size is related to the other by the verifier.
  if (b->type.dims[rb - 2] != k && grtc_dim_is_static(k) &&
      grtc_dim_is_static(b->type.dims[rb - 2])) {
    char ba[GRTC_TTYPE_FORMAT_CAPACITY], bb[GRTC_TTYPE_FORMAT_CAPACITY];
    grtc_onnx_fail(n, grtc_onnx_error(n, "MatMul of %s and %s: contracting sizes %lld and %lld "
                                         "differ",
                                      grtc_onnx_fmt_type(&a->type, ba), grtc_onnx_fmt_type(&b->type, bb),
                                      (long long)k, (long long)b->type.dims[rb - 2]));
    return NULL;
  }
  // Broadcast the batch dimensions.
  grtc_ttype_t batch_a = grtc_onnx_type(a->type.elem, ra - 2, a->type.dims);
  grtc_ttype_t batch_b = grtc_onnx_type(b->type.elem, rb - 2, b->type.dims);
  grtc_ttype_t batch;
  if (!grtc_onnx_broadcast_shape(n, &batch_a, &batch_b, &batch)) return NULL;
  uint32_t nb = batch.rank;
  grtc_tvalue_t* lhs = a;
  grtc_tvalue_t* rhs = b;
  int64_t m = a->type.dims[ra - 2], cols = b->type.dims[rb - 1];
  int64_t rows = 0;
  if (nb > 0 && rb == 2 && ra > 2 && !grtc_onnx_merged_dim(&a->type, 0, ra - 1, &rows)) {
    // A symbolic batch that cannot fold into M: the lhs's batch and M are
    // free dimensions of one contraction with the matrix.
    grtc_ttype_t type = a->type;
    type.dims[ra - 1] = cols;
    grtc_dot_dims_t dims;
    memset(&dims, 0, sizeof(dims));
    int64_t lc = ra - 1, rc = 0;
    dims.lhs_contracting.count = 1;
    dims.lhs_contracting.values = &lc;
    dims.rhs_contracting.count = 1;
    dims.rhs_contracting.values = &rc;
    return grtc_onnx_drop_vector_dims(n, grtc_onnx_dot(n, a, b, &dims, &type), &type, a_vector,
                                      b_vector);
  }
  if (nb > 0 && rb == 2 && ra > 2) {
    // A batched lhs times one matrix: fold the batch into M, one GEMM.
    int64_t flat[2] = {rows, k};
    lhs = grtc_onnx_reshape(n, a, 2, flat);
    grtc_ttype_t type = grtc_onnx_type(result_elem, 2, (int64_t[]){rows, cols});
    grtc_dot_dims_t dims;
    memset(&dims, 0, sizeof(dims));
    int64_t lc = 1, rc = 0;
    dims.lhs_contracting.count = 1;
    dims.lhs_contracting.values = &lc;
    dims.rhs_contracting.count = 1;
    dims.rhs_contracting.values = &rc;
    grtc_tvalue_t* product = grtc_onnx_dot(n, lhs, rhs, &dims, &type);
    grtc_ttype_t out = a->type;
    out.dims[ra - 1] = cols;
    return grtc_onnx_drop_vector_dims(n, grtc_onnx_reshape(n, product, out.rank, out.dims), &out,
                                      a_vector, b_vector);
  }
  int64_t full[GRTC_MAX_RANK];
  memcpy(full, batch.dims, nb * sizeof(int64_t));
  full[nb] = m;
  full[nb + 1] = k;
  lhs = grtc_onnx_broadcast_to(n, a, nb + 2, full);
  full[nb] = k;
  full[nb + 1] = cols;
  rhs = grtc_onnx_broadcast_to(n, b, nb + 2, full);
  int64_t batch_dims[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < nb; ++i) batch_dims[i] = i;
  int64_t lc = nb + 1, rc = nb;
  grtc_dot_dims_t dims;
  dims.lhs_batch.count = nb;
  dims.lhs_batch.values = batch_dims;
  dims.rhs_batch.count = nb;
  dims.rhs_batch.values = batch_dims;
  dims.lhs_contracting.count = 1;
  dims.lhs_contracting.values = &lc;
  dims.rhs_contracting.count = 1;
  dims.rhs_contracting.values = &rc;
  grtc_ttype_t type = grtc_onnx_type(result_elem, nb + 2, batch.dims);
  type.dims[nb] = m;
  type.dims[nb + 1] = cols;
  return grtc_onnx_drop_vector_dims(n, grtc_onnx_dot(n, lhs, rhs, &dims, &type), &type, a_vector,
                                    b_vector);
}

//===----------------------------------------------------------------------===//
// CHLO
//===----------------------------------------------------------------------===//

static grt_status_t grtc_onnx_chlo_place(void* user, grtc_top_t* top) {
  grtc_onnx_node_t* n = user;
  top->location = n->location;
  top->line = n->number;
  top->column = 1;
  return grt_ok_status();
}

grtc_tvalue_t* grtc_onnx_conv_zero_terms(grtc_onnx_node_t* n, grtc_tvalue_t* acc,
                                         grtc_tvalue_t* zx, grtc_tvalue_t* zw, bool x_terms) {
  if (!acc || !grtc_onnx_ok(n)) return NULL;
  grtc_chlo_builder_t builder = {n->module, n->block, grtc_onnx_chlo_place, n};
  grtc_chlo_math_t m = {&builder, grt_ok_status()};
  grtc_tvalue_t *zl_stored = NULL, *zl = NULL, *zr = NULL;
  if (zx) {
    zl_stored = grtc_onnx_convert(n, zx, GRTC_ELEM_I8);
    if (x_terms) zl = grtc_onnx_broadcast_to(n, zx, acc->type.rank, acc->type.dims);
  }
  if (zw) zr = grtc_onnx_broadcast_to(n, zw, acc->type.rank, acc->type.dims);
  if (!grtc_onnx_ok(n)) return NULL;
  grtc_tvalue_t* y = grtc_quant_conv_zero_terms(&m, acc, zl_stored, zl, zr);
  if (!grt_status_is_ok(m.status)) {
    grtc_onnx_fail(n, grtc_onnx_error(n, "%s", grt_status_message(m.status)));
    grt_status_free(m.status);
    return NULL;
  }
  return y;
}

grt_status_t grtc_onnx_chlo(grtc_onnx_node_t* n, const char* name, grtc_tvalue_t* const* operands,
                            uint32_t count, const grtc_ttype_t* results, uint32_t result_count,
                            int64_t k, grtc_tvalue_t** outs) {
  if (!grtc_onnx_ok(n)) return grt_ok_status();
  for (uint32_t i = 0; i < count; ++i) {
    if (!operands[i]) return grt_ok_status();
  }
  grtc_chlo_builder_t builder = {n->module, n->block, grtc_onnx_chlo_place, n};
  grtc_chlo_attrs_t attrs;
  memset(&attrs, 0, sizeof(attrs));
  attrs.has_k = true;
  attrs.k = k;
  grt_status_t status = grtc_chlo_lower(&builder, grt_make_cstring_view(name), operands, count,
                                        results, result_count, &attrs, outs);
  if (!grt_status_is_ok(status)) {
    grt_status_t wrapped = grtc_onnx_error(n, "%s", grt_status_message(status));
    grt_status_free(status);
    return wrapped;
  }
  return grt_ok_status();
}
