// grtc_tensor_fold: constant folding of small constants and the
// canonicalizations that remove or merge data-movement ops, to a fixed
// point. Assumes a verified module.
#include <string.h>

#include "compiler/tensor/eval.h"
#include "compiler/tensor/passes.h"

// Folding materializes at most this many elements per op (all-splat
// operands fold to a splat of any size).
#define GRTC_FOLD_MAX_ELEMENTS 1024

typedef struct grtc_folder_t {
  grtc_tmodule_t* module;
  grtc_tfunc_t* func;   // NULL: the folded op's results have no uses yet
  grt_status_t status;  // first allocation failure
  grtc_tvalue_t* replacement;  // what the last folded op was replaced with
  bool shapes_only;  // grtc_tensor_fold_shapes: the symbolic-shape rules only
} grtc_folder_t;

static bool grtc_is_constant(const grtc_tvalue_t* value) {
  return value->def && value->def->kind == GRTC_TOP_CONSTANT &&
         !value->def->attrs.unfoldable;
}

static bool grtc_is_splat(const grtc_tvalue_t* value) {
  return grtc_is_constant(value) &&
         (value->def->attrs.constant.splat ||
          grtc_ttype_element_count(&value->type) == 1);
}

static const uint8_t* grtc_constant_element(const grtc_tvalue_t* value,
                                            int64_t index) {
  const grtc_top_t* op = value->def;
  if (op->attrs.constant.splat) return op->attrs.constant.data;
  return op->attrs.constant.data +
         (size_t)index * grtc_elem_byte_size(value->type.elem);
}

static grtc_scalar_value_t grtc_constant_value(const grtc_tvalue_t* value,
                                               int64_t index) {
  return grtc_eval_load(value->type.elem, grtc_constant_element(value, index));
}

static void grtc_fold_fail(grtc_folder_t* f, grt_status_t status) {
  if (grt_status_is_ok(f->status)) {
    f->status = status;
  } else {
    grt_status_free(status);
  }
}

// Replaces every use of |op|'s result |index| with |to| and drops |op| once
// none of its results is used any more.
static void grtc_fold_replace(grtc_folder_t* f, grtc_top_t* op,
                              grtc_tvalue_t* to) {
  if (f->func) grtc_tfunc_replace_uses(f->func, &op->results[0], to);
  f->replacement = to;
  grtc_top_unlink(op);
}

// A new CONSTANT of |type| holding |count| elements at |data| (a splat when
// all are equal), placed before |op| and replacing its result.
static bool grtc_fold_to_constant(grtc_folder_t* f, grtc_top_t* op,
                                  const grtc_ttype_t* type,
                                  const uint8_t* data, int64_t count) {
  size_t element_size = grtc_elem_byte_size(type->elem);
  bool splat = true;
  for (int64_t i = 1; splat && i < count; ++i) {
    splat = memcmp(data, data + (size_t)i * element_size, element_size) == 0;
  }
  size_t size = splat ? element_size : (size_t)count * element_size;
  uint8_t* copy = grtc_tmodule_alloc(f->module, size);
  grtc_top_t* constant = NULL;
  grt_status_t status = copy ? grtc_top_create(f->module, GRTC_TOP_CONSTANT,
                                               NULL, 0, type, 1, 0, &constant)
                             : grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                                               "out of memory folding");
  if (!grt_status_is_ok(status)) {
    grtc_fold_fail(f, status);
    return false;
  }
  memcpy(copy, data, size);
  constant->attrs.constant.data = copy;
  constant->attrs.constant.size = size;
  constant->attrs.constant.splat = splat;
  grtc_top_copy_location(constant, op);
  grtc_tblock_insert_before(op, constant);
  grtc_fold_replace(f, op, &constant->results[0]);
  return true;
}

//===----------------------------------------------------------------------===//
// Constant folding
//===----------------------------------------------------------------------===//

static void grtc_unflatten(const grtc_ttype_t* type, int64_t flat,
                           int64_t* index) {
  for (uint32_t i = type->rank; i-- > 0;) {
    int64_t size = type->dims[i];
    index[i] = size ? flat % size : 0;
    flat = size ? flat / size : 0;
  }
}

static int64_t grtc_flatten(const grtc_ttype_t* type, const int64_t* index) {
  int64_t flat = 0;
  for (uint32_t i = 0; i < type->rank; ++i) flat = flat * type->dims[i] + index[i];
  return flat;
}

// Structural ops: where result element |r| (a multi-index) comes from, as
// an operand number and a flat index into it.
static void grtc_fold_source(const grtc_top_t* op, const int64_t* r,
                             uint32_t* out_operand, int64_t* out_flat) {
  const grtc_top_attrs_t* a = &op->attrs;
  const grtc_ttype_t* in = &op->operands[0]->type;
  const grtc_ttype_t* out = &op->results[0].type;
  int64_t s[GRTC_MAX_RANK] = {0};
  *out_operand = 0;
  switch (op->kind) {
    case GRTC_TOP_RESHAPE:
      *out_flat = grtc_flatten(out, r);
      return;
    case GRTC_TOP_TRANSPOSE:
      for (uint32_t i = 0; i < out->rank; ++i) s[a->dims.values[i]] = r[i];
      break;
    case GRTC_TOP_BROADCAST_IN_DIM:
      for (uint32_t i = 0; i < in->rank; ++i) {
        s[i] = in->dims[i] == 1 ? 0 : r[a->dims.values[i]];
      }
      break;
    case GRTC_TOP_SLICE:
      for (uint32_t i = 0; i < in->rank; ++i) {
        s[i] = a->start.values[i] + r[i] * a->strides.values[i];
      }
      break;
    case GRTC_TOP_REVERSE:
      memcpy(s, r, in->rank * sizeof(int64_t));
      for (uint32_t i = 0; i < a->dims.count; ++i) {
        int64_t d = a->dims.values[i];
        s[d] = in->dims[d] - 1 - r[d];
      }
      break;
    case GRTC_TOP_CONCATENATE: {
      memcpy(s, r, in->rank * sizeof(int64_t));
      uint32_t k = 0;
      while (s[a->dim] >= op->operands[k]->type.dims[a->dim]) {
        s[a->dim] -= op->operands[k++]->type.dims[a->dim];
      }
      *out_operand = k;
      *out_flat = grtc_flatten(&op->operands[k]->type, s);
      return;
    }
    case GRTC_TOP_PAD:
      for (uint32_t i = 0; i < in->rank; ++i) {
        int64_t step = a->interior.values[i] + 1;
        int64_t t = r[i] - a->low.values[i];
        if (t < 0 || t % step != 0 || t / step >= in->dims[i]) {
          *out_operand = 1;
          *out_flat = 0;
          return;
        }
        s[i] = t / step;
      }
      break;
    default:
      break;
  }
  *out_flat = grtc_flatten(in, s);
}

// Whether every element of every operand is one value (a constant splat,
// or for elementwise ops any mix of splats).
static bool grtc_operands_splat(const grtc_top_t* op, bool same_bytes) {
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    if (!grtc_is_splat(op->operands[i])) return false;
    if (same_bytes && i > 0 &&
        (op->operands[i]->type.elem != op->operands[0]->type.elem ||
         memcmp(grtc_constant_element(op->operands[i], 0),
                grtc_constant_element(op->operands[0], 0),
                grtc_elem_byte_size(op->operands[0]->type.elem)) != 0)) {
      return false;
    }
  }
  return true;
}

// Result element |e| of an elementwise op on constants.
static grtc_scalar_value_t grtc_fold_element(const grtc_top_t* op, int64_t e) {
  grtc_scalar_value_t x[3] = {{0}, {0}, {0}};
  for (uint32_t i = 0; i < op->operand_count && i < 3; ++i) {
    const grtc_tvalue_t* operand = op->operands[i];
    x[i] = grtc_constant_value(
        operand, grtc_ttype_element_count(&operand->type) == 1 ? 0 : e);
  }
  grtc_elem_t in = op->operands[op->kind == GRTC_TOP_SELECT ? 1 : 0]->type.elem;
  grtc_elem_t out = op->results[0].type.elem;
  switch (op->kind) {
    case GRTC_TOP_COMPARE: {
      grtc_scalar_value_t v;
      v.u = grtc_eval_compare(op->attrs.compare_direction,
                              op->attrs.compare_type, in, x[0], x[1]);
      return v;
    }
    case GRTC_TOP_CONVERT: return grtc_eval_convert(in, out, x[0]);
    case GRTC_TOP_CLAMP:
      return grtc_eval_scalar(GRTC_SCALAR_CLAMP, out, x);
    default:
      return grtc_eval_scalar(grtc_top_kind_scalar_op(op->kind), in, x);
  }
}

static bool grtc_fold_constant(grtc_folder_t* f, grtc_top_t* op) {
  if (op->result_count != 1) return false;
  const grtc_ttype_t* type = &op->results[0].type;
  bool elementwise = grtc_top_kind_scalar_op(op->kind) != GRTC_SCALAR_NONE ||
                     op->kind == GRTC_TOP_COMPARE ||
                     op->kind == GRTC_TOP_CONVERT;
  bool structural;
  switch (op->kind) {
    case GRTC_TOP_BROADCAST_IN_DIM:
    case GRTC_TOP_RESHAPE:
    case GRTC_TOP_TRANSPOSE:
    case GRTC_TOP_SLICE:
    case GRTC_TOP_CONCATENATE:
    case GRTC_TOP_PAD:
    case GRTC_TOP_REVERSE:
      structural = true;
      break;
    default:
      structural = false;
      break;
  }
  if (op->kind != GRTC_TOP_IOTA && !elementwise && !structural) return false;
  if (!grtc_ttype_is_static(type)) return false;
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    if (!grtc_is_constant(op->operands[i])) return false;
  }
  int64_t count = grtc_ttype_element_count(type);
  // All-splat operands give a splat of any size: compute one element.
  if (op->operand_count && grtc_operands_splat(op, structural)) count = 1;
  if (count > GRTC_FOLD_MAX_ELEMENTS) return false;
  uint8_t buffer[GRTC_FOLD_MAX_ELEMENTS * 8];
  size_t element_size = grtc_elem_byte_size(type->elem);
  for (int64_t e = 0; e < count; ++e) {
    uint8_t* slot = buffer + (size_t)e * element_size;
    int64_t r[GRTC_MAX_RANK] = {0};
    grtc_unflatten(type, e, r);
    if (op->kind == GRTC_TOP_IOTA) {
      grtc_eval_store(type->elem, grtc_eval_from_int(type->elem, r[op->attrs.dim]),
                      slot);
    } else if (elementwise) {
      grtc_eval_store(type->elem, grtc_fold_element(op, e), slot);
    } else {
      uint32_t operand = 0;
      int64_t flat = 0;
      grtc_fold_source(op, r, &operand, &flat);
      memcpy(slot, grtc_constant_element(op->operands[operand], flat),
             element_size);
    }
  }
  return grtc_fold_to_constant(f, op, type, buffer, count);
}

//===----------------------------------------------------------------------===//
// Canonicalization
//===----------------------------------------------------------------------===//

static bool grtc_is_identity_permutation(grtc_i64s_t dims) {
  for (uint32_t i = 0; i < dims.count; ++i) {
    if (dims.values[i] != (int64_t)i) return false;
  }
  return true;
}

static bool grtc_all_zero(grtc_i64s_t values) {
  for (uint32_t i = 0; i < values.count; ++i) {
    if (values.values[i] != 0) return false;
  }
  return true;
}

// Ops that return their operand unchanged.
static bool grtc_is_noop(const grtc_top_t* op) {
  if (op->operand_count < 1 || op->result_count != 1) return false;
  const grtc_ttype_t* in = &op->operands[0]->type;
  if (!grtc_ttype_equal(in, &op->results[0].type)) return false;
  switch (op->kind) {
    case GRTC_TOP_RESHAPE:
    case GRTC_TOP_SLICE:  // equal types leave start 0 and limit the size
    case GRTC_TOP_CONVERT:
      return true;
    case GRTC_TOP_TRANSPOSE:
    case GRTC_TOP_BROADCAST_IN_DIM:
      return grtc_is_identity_permutation(op->attrs.dims);
    case GRTC_TOP_PAD:
      return grtc_all_zero(op->attrs.low) && grtc_all_zero(op->attrs.high) &&
             grtc_all_zero(op->attrs.interior) && grtc_all_zero(op->attrs.computed_low) &&
             grtc_all_zero(op->attrs.computed_interior);
    case GRTC_TOP_REVERSE:
      for (uint32_t i = 0; i < op->attrs.dims.count; ++i) {
        int64_t dim = in->dims[op->attrs.dims.values[i]];
        if (!grtc_dim_is_static(dim) || dim > 1) return false;
      }
      return true;
    default:
      return false;
  }
}

// The producer of |op|'s operand 0 when it is an op of the same |kind|.
static grtc_top_t* grtc_same_kind_producer(const grtc_top_t* op) {
  grtc_top_t* def = op->operands[0]->def;
  return def && def->kind == op->kind ? def : NULL;
}

// Whether every |from| value converts to |to| exactly and converting it on
// to |next| gives what converting the original would.
static bool grtc_convert_lossless(grtc_elem_t from, grtc_elem_t to,
                                  grtc_elem_t next) {
  bool from_float = grtc_elem_is_float(from), to_float = grtc_elem_is_float(to);
  uint32_t from_bits = grtc_elem_bit_width(from);
  uint32_t to_bits = grtc_elem_bit_width(to);
  if (from_float && to_float) {
    // f16 and bf16 widen exactly to f32; f32 to f64.
    return to_bits > from_bits;
  }
  if (from_float) return false;
  if (to_float) {
    // Later conversions to a float or to i1 depend only on the value; to an
    // integer they would saturate instead of wrap.
    if (!grtc_elem_is_float(next) && next != GRTC_ELEM_I1) return false;
    uint32_t mantissa = to == GRTC_ELEM_F16    ? 11
                        : to == GRTC_ELEM_BF16 ? 8
                        : to == GRTC_ELEM_F32  ? 24
                                               : 53;
    return from_bits <= mantissa;
  }
  if (to == GRTC_ELEM_I1) return from == GRTC_ELEM_I1;
  bool from_signed = grtc_elem_is_signed_integer(from);
  bool to_signed = grtc_elem_is_signed_integer(to);
  if (from_signed) return to_signed && to_bits >= from_bits;
  return to_signed ? to_bits > from_bits : to_bits >= from_bits;
}

// Replaces |op|'s dims with |count| |values| and its operand 0 with
// |inner|'s, skipping the producer.
static bool grtc_fold_bypass(grtc_folder_t* f, grtc_top_t* op,
                             const grtc_top_t* inner, const int64_t* values,
                             uint32_t count) {
  grtc_i64s_t dims = grtc_tmodule_i64s(f->module, values, count);
  if (count && !dims.values) {
    grtc_fold_fail(f, grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                                      "out of memory folding"));
    return false;
  }
  op->attrs.dims = dims;
  op->operands[0] = inner->operands[0];
  return true;
}

//===----------------------------------------------------------------------===//
// Symbolic shapes
//===----------------------------------------------------------------------===//

// get_dimension_size of a static dimension: that size.
static bool grtc_fold_dimension_size(grtc_folder_t* f, grtc_top_t* op) {
  const grtc_ttype_t* in = &op->operands[0]->type;
  int64_t size = grtc_tmodule_resolve_dim(f->module, in->dims[op->attrs.dim]);
  if (!grtc_dim_is_static(size)) return false;
  const grtc_ttype_t* type = &op->results[0].type;
  uint8_t bytes[8];
  grtc_eval_store(type->elem, grtc_eval_from_int(type->elem, size), bytes);
  return grtc_fold_to_constant(f, op, type, bytes, 1);
}

// The |count| elements of |value| when all are known static extents.
static bool grtc_static_elements(const grtc_tvalue_t* value, uint32_t count,
                                 int64_t* out) {
  for (uint32_t i = 0; i < count; ++i) {
    if (!grtc_tvalue_shape_element(value, i, &out[i]) ||
        !grtc_dim_is_static(out[i])) {
      return false;
    }
  }
  return true;
}

// A dynamic op whose result shape folding made static becomes its static
// form (verification checked the shape operands against that shape).
static bool grtc_fold_dynamic(grtc_folder_t* f, grtc_top_t* op) {
  const grtc_ttype_t* out = &op->results[0].type;
  if (!grtc_ttype_is_static(out)) return false;
  uint32_t rank = op->operands[0]->type.rank;
  int64_t lists[3][GRTC_MAX_RANK];
  grtc_top_attrs_t* a = &op->attrs;
  switch (op->kind) {
    case GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM:
      op->kind = GRTC_TOP_BROADCAST_IN_DIM;
      op->operand_count = 1;
      return true;
    case GRTC_TOP_DYNAMIC_RESHAPE:
      op->kind = GRTC_TOP_RESHAPE;
      op->operand_count = 1;
      return true;
    case GRTC_TOP_DYNAMIC_IOTA:
      op->kind = GRTC_TOP_IOTA;
      op->operand_count = 0;
      return true;
    case GRTC_TOP_REAL_DYNAMIC_SLICE:
    case GRTC_TOP_DYNAMIC_PAD: {
      bool slice = op->kind == GRTC_TOP_REAL_DYNAMIC_SLICE;
      uint32_t first = slice ? 1 : 2;
      for (uint32_t i = 0; i < 3; ++i) {
        if (!grtc_static_elements(op->operands[first + i], rank, lists[i])) {
          return false;
        }
      }
      grtc_i64s_t copies[3];
      for (uint32_t i = 0; i < 3; ++i) {
        copies[i] = grtc_tmodule_i64s(f->module, lists[i], rank);
        if (rank && !copies[i].values) {
          grtc_fold_fail(f, grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                                            "out of memory folding"));
          return false;
        }
      }
      if (slice) {
        a->start = copies[0];
        a->limit = copies[1];
        a->strides = copies[2];
        op->kind = GRTC_TOP_SLICE;
        op->operand_count = 1;
      } else {
        a->low = copies[0];
        a->high = copies[1];
        a->interior = copies[2];
        op->kind = GRTC_TOP_PAD;
        op->operand_count = 2;
      }
      return true;
    }
    default:
      return false;
  }
}

// The rules that turn shape ops into static ones.
static bool grtc_fold_shapes(grtc_folder_t* f, grtc_top_t* op) {
  switch (op->kind) {
    case GRTC_TOP_GET_DIMENSION_SIZE:
      return grtc_fold_dimension_size(f, op);
    case GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM:
    case GRTC_TOP_DYNAMIC_RESHAPE:
    case GRTC_TOP_DYNAMIC_IOTA:
    case GRTC_TOP_REAL_DYNAMIC_SLICE:
    case GRTC_TOP_DYNAMIC_PAD:
      return grtc_fold_dynamic(f, op);
    case GRTC_TOP_SHAPE_ASSERTION:
      // A constant true assertion holds at every call.
      if (grtc_is_splat(op->operands[0]) &&
          grtc_constant_value(op->operands[0], 0).u != 0) {
        grtc_top_unlink(op);
        return true;
      }
      return false;
    default:
      return false;
  }
}

static bool grtc_canonicalize(grtc_folder_t* f, grtc_top_t* op) {
  if (grtc_fold_shapes(f, op)) return true;
  if (grtc_is_noop(op)) {
    grtc_fold_replace(f, op, op->operands[0]);
    return true;
  }
  grtc_top_t* inner;
  switch (op->kind) {
    case GRTC_TOP_RESHAPE:
      if ((inner = grtc_same_kind_producer(op))) {
        op->operands[0] = inner->operands[0];
        return true;
      }
      return false;
    case GRTC_TOP_TRANSPOSE:
      if ((inner = grtc_same_kind_producer(op))) {
        // Result dim i is the inner result's dims[i], which is the source's
        // inner dims[dims[i]].
        int64_t merged[GRTC_MAX_RANK];
        for (uint32_t i = 0; i < op->attrs.dims.count; ++i) {
          merged[i] = inner->attrs.dims.values[op->attrs.dims.values[i]];
        }
        return grtc_fold_bypass(f, op, inner, merged, op->attrs.dims.count);
      }
      return false;
    case GRTC_TOP_BROADCAST_IN_DIM:
      // A splat operand already folded in grtc_fold_constant.
      if ((inner = grtc_same_kind_producer(op))) {
        // Source dim i lands in inner dim inner.dims[i], then in
        // dims[inner.dims[i]].
        int64_t merged[GRTC_MAX_RANK];
        for (uint32_t i = 0; i < inner->attrs.dims.count; ++i) {
          merged[i] = op->attrs.dims.values[inner->attrs.dims.values[i]];
        }
        return grtc_fold_bypass(f, op, inner, merged,
                                inner->attrs.dims.count);
      }
      return false;
    case GRTC_TOP_SELECT:
      // A constant predicate picks one operand whole, constant or not.
      if (grtc_is_splat(op->operands[0])) {
        bool pick = grtc_constant_value(op->operands[0], 0).u != 0;
        grtc_fold_replace(f, op, op->operands[pick ? 1 : 2]);
        return true;
      }
      return false;
    case GRTC_TOP_POWER:
      // x ^ 2 with a constant exponent of two is x * x: exact where pow is
      // within an ulp (and for every integer, wrapping as pow does), and
      // one multiply instead of a pow call per element (ONNX exports a
      // layer norm's square as Pow(x, 2)). Signed zeros, infinities and
      // NaN come out as pow's.
      if (grtc_is_splat(op->operands[1]) && !grtc_is_constant(op->operands[0])) {
        grtc_elem_t elem = op->operands[1]->type.elem;
        grtc_scalar_value_t e = grtc_constant_value(op->operands[1], 0);
        // Loaded floats are doubles in .f, integers in .i (.u for unsigned).
        bool two = grtc_elem_is_float(elem)
                       ? e.f == 2.0
                       : grtc_elem_is_integer(elem) && elem != GRTC_ELEM_I1 && e.i == 2;
        if (two) {
          op->kind = GRTC_TOP_MULTIPLY;
          op->operands[1] = op->operands[0];
          return true;
        }
      }
      return false;
    case GRTC_TOP_CONVERT:
      if ((inner = grtc_same_kind_producer(op)) &&
          grtc_convert_lossless(inner->operands[0]->type.elem,
                                inner->results[0].type.elem,
                                op->results[0].type.elem)) {
        op->operands[0] = inner->operands[0];
        return true;
      }
      return false;
    default:
      return false;
  }
}

static bool grtc_fold_block(grtc_folder_t* f, grtc_tblock_t* block) {
  bool changed = false;
  for (grtc_top_t* op = block->first; op;) {
    grtc_top_t* next = op->next;
    for (uint32_t i = 0; i < op->region_count; ++i) {
      changed |= grtc_fold_block(f, op->regions[i]);
    }
    if (f->shapes_only) {
      // Shape ops, and the scalar index math on their constants.
      if (grtc_fold_shapes(f, op) ||
          (op->result_count == 1 && op->results[0].type.rank == 0 &&
           grtc_fold_constant(f, op))) {
        changed = true;
      }
    } else if (grtc_fold_constant(f, op) || grtc_canonicalize(f, op)) {
      changed = true;
    }
    if (!grt_status_is_ok(f->status)) return false;
    op = next;
  }
  return changed;
}

static grt_status_t grtc_fold_module(grtc_tmodule_t* module, bool shapes_only) {
  grtc_folder_t f;
  memset(&f, 0, sizeof(f));
  f.module = module;
  f.shapes_only = shapes_only;
  bool symbolic = module->shapes->sym_count != 0;
  for (bool again = true; again;) {
    again = false;
    for (grtc_tfunc_t* func = module->first_func; func; func = func->next) {
      f.func = func;
      while (grtc_fold_block(&f, func->body)) {
        again = symbolic;
      }
      GRT_RETURN_IF_ERROR(f.status);
      if (shapes_only) {
        grtc_tfunc_recount_uses(func);
      } else {
        grtc_tfunc_remove_dead_ops(func);
      }
    }
    if (!symbolic) break;
    // Folding may have made shape operands constant: verifying records the
    // relations they imply, and the types take the sizes proven so far
    // (which may let more fold).
    GRT_RETURN_IF_ERROR(grtc_tensor_verify(module));
    for (grtc_tfunc_t* func = module->first_func; func; func = func->next) {
      if (grtc_tfunc_resolve_shapes(module, func)) again = true;
    }
  }
  return grt_ok_status();
}

grt_status_t grtc_tensor_fold(grtc_tmodule_t* module) {
  return grtc_fold_module(module, false);
}

grt_status_t grtc_tensor_fold_shapes(grtc_tmodule_t* module) {
  return grtc_fold_module(module, true);
}

grt_status_t grtc_tensor_fold_new_op(grtc_tmodule_t* module, grtc_top_t* op,
                                     grtc_tvalue_t** out_value) {
  grtc_folder_t f;
  memset(&f, 0, sizeof(f));
  f.module = module;
  *out_value = op->result_count ? &op->results[0] : NULL;
  if (grtc_fold_constant(&f, op)) *out_value = f.replacement;
  return f.status;
}
