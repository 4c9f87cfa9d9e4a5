// grtc_tensor_verify: per-op operand, attribute and result-type checks, with
// result shapes inferred by the StableHLO spec's rules.
#include <stdio.h>
#include <string.h>

#include "compiler/tensor/passes.h"

typedef struct grtc_verifier_t {
  const grtc_tmodule_t* module;
  const grtc_tfunc_t* func;
  // Rotating buffers so one diagnostic can format several types.
  char types[4][GRTC_TTYPE_FORMAT_CAPACITY];
  uint32_t next_type;
  grt_status_t status;  // the first failure recording a relation
} grtc_verifier_t;

static const char* grtc_vfmt(grtc_verifier_t* v, const grtc_ttype_t* type) {
  char* buffer = v->types[v->next_type++ % 4];
  return grtc_ttype_format(type, buffer, GRTC_TTYPE_FORMAT_CAPACITY);
}

#define VNAME(op) grtc_top_kind_name((op)->kind)
#define VERR(op, format, ...)                                       \
  grtc_top_error(v->module, (op), "'%s' " format, VNAME(op), \
                 ##__VA_ARGS__)

static grtc_ttype_t grtc_vtype(grtc_elem_t elem, uint32_t rank,
                               const int64_t* dims) {
  grtc_ttype_t type;
  memset(&type, 0, sizeof(type));
  type.elem = elem;
  type.rank = rank;
  if (rank && dims) memcpy(type.dims, dims, rank * sizeof(int64_t));
  return type;
}

static const grtc_ttype_t* grtc_vop(const grtc_top_t* op, uint32_t i) {
  return &op->operands[i]->type;
}

//===----------------------------------------------------------------------===//
// Symbolic dimensions
//===----------------------------------------------------------------------===//

// Whether dimensions |a| and |b| may be equal: static sizes are compared;
// with a symbolic one the equality is recorded as a relation |op| implies
// (grtc_tmodule_relate), which fails only against sizes already proven.
static bool grtc_vsame(grtc_verifier_t* v, const grtc_top_t* op, int64_t a,
                       int64_t b, const char* what) {
  if (a == b) return true;
  if (grtc_dim_is_static(a) && grtc_dim_is_static(b)) return false;
  bool conflict = false;
  grt_status_t status = grtc_tmodule_relate(v->module, v->func, GRTC_REL_EQ,
                                            a, b, op, what, &conflict);
  if (!grt_status_is_ok(status)) {
    if (grt_status_is_ok(v->status)) {
      v->status = status;
    } else {
      grt_status_free(status);
    }
  }
  return !conflict;
}

static bool grtc_vsame_shape(grtc_verifier_t* v, const grtc_top_t* op,
                             const grtc_ttype_t* a, const grtc_ttype_t* b,
                             const char* what) {
  if (a->rank != b->rank) return false;
  bool same = true;
  for (uint32_t i = 0; same && i < a->rank; ++i) {
    same = grtc_vsame(v, op, a->dims[i], b->dims[i], what);
  }
  return same;
}

static bool grtc_vsame_type(grtc_verifier_t* v, const grtc_top_t* op,
                            const grtc_ttype_t* a, const grtc_ttype_t* b,
                            const char* what) {
  return a->elem == b->elem && grtc_vsame_shape(v, op, a, b, what);
}

// |a| >= |b| (a static bound): recorded like grtc_vsame.
static bool grtc_vat_least(grtc_verifier_t* v, const grtc_top_t* op,
                           int64_t a, int64_t b, const char* what) {
  if (grtc_dim_is_static(a)) return a >= b;
  bool conflict = false;
  grt_status_t status = grtc_tmodule_relate(v->module, v->func, GRTC_REL_GE,
                                            a, b, op, what, &conflict);
  if (!grt_status_is_ok(status)) {
    if (grt_status_is_ok(v->status)) {
      v->status = status;
    } else {
      grt_status_free(status);
    }
  }
  return !conflict;
}

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

static grt_status_t grtc_verify_counts(grtc_verifier_t* v,
                                       const grtc_top_t* op,
                                       uint32_t min_operands,
                                       uint32_t max_operands,
                                       uint32_t results) {
  if (op->operand_count < min_operands || op->operand_count > max_operands) {
    if (min_operands == max_operands) {
      return VERR(op, "takes %u operands, got %u", min_operands,
                  op->operand_count);
    }
    if (max_operands == UINT32_MAX) {
      return VERR(op, "takes at least %u operands, got %u", min_operands,
                  op->operand_count);
    }
    return VERR(op, "takes %u to %u operands, got %u", min_operands,
                max_operands, op->operand_count);
  }
  if (op->result_count != results) {
    return VERR(op, "has %u results, expected %u", op->result_count, results);
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_result(grtc_verifier_t* v,
                                       const grtc_top_t* op, uint32_t index,
                                       const grtc_ttype_t* inferred) {
  const grtc_ttype_t* declared = &op->results[index].type;
  if (grtc_vsame_type(v, op, declared, inferred, "result")) {
    return grt_ok_status();
  }
  if (op->result_count == 1) {
    return VERR(op, "result type %s differs from the inferred %s",
                grtc_vfmt(v, declared), grtc_vfmt(v, inferred));
  }
  return VERR(op, "result %u type %s differs from the inferred %s", index,
              grtc_vfmt(v, declared), grtc_vfmt(v, inferred));
}

static grt_status_t grtc_verify_same_types(grtc_verifier_t* v,
                                           const grtc_top_t* op,
                                           const grtc_ttype_t* a,
                                           const grtc_ttype_t* b) {
  if (grtc_vsame_type(v, op, a, b, "operands")) return grt_ok_status();
  for (uint32_t i = 0; a->elem == b->elem && a->rank == b->rank && i < a->rank;
       ++i) {
    const grtc_ttype_t* symbolic = grtc_dim_is_static(a->dims[i]) ? b : a;
    const grtc_ttype_t* other = symbolic == a ? b : a;
    if (grtc_dim_is_static(symbolic->dims[i])) continue;
    int64_t proven = grtc_tmodule_resolve_dim(v->module, symbolic->dims[i]);
    int64_t size = grtc_tmodule_resolve_dim(v->module, other->dims[i]);
    if (!grtc_dim_is_static(proven) || !grtc_dim_is_static(size) ||
        proven == size) {
      continue;
    }
    char described[192];
    return VERR(op,
                "operand types %s and %s differ: dimension %u (%s) is %lld by "
                "earlier ops' relations, here %lld",
                grtc_vfmt(v, a), grtc_vfmt(v, b), i,
                grtc_tmodule_describe_dim(v->module, symbolic->dims[i],
                                          described, sizeof(described)),
                (long long)proven, (long long)size);
  }
  return VERR(op, "operand types %s and %s differ", grtc_vfmt(v, a),
              grtc_vfmt(v, b));
}

static grt_status_t grtc_verify_elem(grtc_verifier_t* v, const grtc_top_t* op,
                                     const char* what, grtc_elem_t got,
                                     grtc_elem_t expected) {
  if (got == expected) return grt_ok_status();
  return VERR(op, "%s element type %s differs from %s", what,
              grtc_elem_spelling(got), grtc_elem_spelling(expected));
}

// |what| dimension list: each entry in [0, rank) and none repeated.
static grt_status_t grtc_verify_dim_list(grtc_verifier_t* v,
                                         const grtc_top_t* op,
                                         const char* what, grtc_i64s_t dims,
                                         int64_t rank) {
  for (uint32_t i = 0; i < dims.count; ++i) {
    if (dims.values[i] < 0 || dims.values[i] >= rank) {
      return VERR(op, "%s[%u] = %lld is out of range [0, %lld)", what, i,
                  (long long)dims.values[i], (long long)rank);
    }
    for (uint32_t j = 0; j < i; ++j) {
      if (dims.values[j] == dims.values[i]) {
        return VERR(op, "%s repeats dimension %lld", what,
                    (long long)dims.values[i]);
      }
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_sorted(grtc_verifier_t* v,
                                       const grtc_top_t* op, const char* what,
                                       grtc_i64s_t dims) {
  for (uint32_t i = 1; i < dims.count; ++i) {
    if (dims.values[i] <= dims.values[i - 1]) {
      return VERR(op, "%s must be increasing", what);
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_list_size(grtc_verifier_t* v,
                                          const grtc_top_t* op,
                                          const char* what, grtc_i64s_t list,
                                          uint32_t expected,
                                          const char* expected_what) {
  if (list.count == expected) return grt_ok_status();
  return VERR(op, "%s has %u entries, expected %u (%s)", what, list.count,
              expected, expected_what);
}

static bool grtc_dims_contain(grtc_i64s_t dims, int64_t dim) {
  for (uint32_t i = 0; i < dims.count; ++i) {
    if (dims.values[i] == dim) return true;
  }
  return false;
}

// Optional per-dimension attributes (count 0: the spec's default).
static int64_t grtc_attr_at(grtc_i64s_t list, uint32_t i, int64_t fallback) {
  return i < list.count ? list.values[i] : fallback;
}

static grt_status_t grtc_verify_optional_list(grtc_verifier_t* v,
                                              const grtc_top_t* op,
                                              const char* what,
                                              grtc_i64s_t list, uint32_t rank,
                                              int64_t minimum) {
  if (list.count != 0 && list.count != rank) {
    return VERR(op, "%s has %u entries, expected %u", what, list.count, rank);
  }
  for (uint32_t i = 0; i < list.count; ++i) {
    if (list.values[i] < minimum) {
      return VERR(op, "%s[%u] = %lld is below %lld", what, i,
                  (long long)list.values[i], (long long)minimum);
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_rank0(grtc_verifier_t* v, const grtc_top_t* op,
                                      const char* what,
                                      const grtc_ttype_t* type) {
  if (type->rank == 0) return grt_ok_status();
  return VERR(op, "%s must be a rank-0 tensor, got %s", what,
              grtc_vfmt(v, type));
}

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

static grt_status_t grtc_verify_block(grtc_verifier_t* v,
                                      const grtc_tblock_t* block);

// Region |index| of |op|: |arg_count| arguments typed |arg_types| ending in
// a YIELD of |yield_types|. A NULL |arg_types| skips the argument check.
static grt_status_t grtc_verify_region(grtc_verifier_t* v,
                                       const grtc_top_t* op, uint32_t index,
                                       const char* what,
                                       const grtc_ttype_t* arg_types,
                                       uint32_t arg_count,
                                       const grtc_ttype_t* yield_types,
                                       uint32_t yield_count) {
  if (index >= op->region_count || !op->regions[index]) {
    return VERR(op, "lacks its %s region", what);
  }
  const grtc_tblock_t* block = op->regions[index];
  if (arg_types) {
    if (block->arg_count != arg_count) {
      return VERR(op, "%s takes %u arguments, expected %u", what,
                  block->arg_count, arg_count);
    }
    for (uint32_t i = 0; i < arg_count; ++i) {
      // Symbolic dimensions are related (a while loop's carried values).
      if (!grtc_vsame_type(v, op, &block->args[i].type, &arg_types[i],
                           "region argument")) {
        return VERR(op, "%s argument %u has type %s, expected %s", what, i,
                    grtc_vfmt(v, &block->args[i].type),
                    grtc_vfmt(v, &arg_types[i]));
      }
    }
  }
  const grtc_top_t* yield = block->last;
  if (!yield || yield->kind != GRTC_TOP_YIELD) {
    return VERR(op, "%s does not end in stablehlo.return", what);
  }
  if (yield->operand_count != yield_count) {
    return VERR(op, "%s yields %u values, expected %u", what,
                yield->operand_count, yield_count);
  }
  for (uint32_t i = 0; i < yield_count; ++i) {
    if (!grtc_vsame_type(v, op, grtc_vop(yield, i), &yield_types[i],
                         "region result")) {
      return VERR(op, "%s yields %s as value %u, expected %s", what,
                  grtc_vfmt(v, grtc_vop(yield, i)), i,
                  grtc_vfmt(v, &yield_types[i]));
    }
  }
  return grt_ok_status();
}

// Reduction-style bodies (reduce, reduce_window, scatter): 2N rank-0
// arguments (accumulators, then values) of |elems|, yielding N rank-0 values.
static grt_status_t grtc_verify_reducer(grtc_verifier_t* v,
                                        const grtc_top_t* op, uint32_t index,
                                        const char* what,
                                        const grtc_elem_t* elems, uint32_t n) {
  grtc_ttype_t args[2 * 64];  // callers allow at most 64 operands
  for (uint32_t i = 0; i < n; ++i) {
    args[i] = grtc_vtype(elems[i], 0, NULL);
    args[n + i] = args[i];
  }
  return grtc_verify_region(v, op, index, what, args, 2 * n, args, n);
}

//===----------------------------------------------------------------------===//
// Per-op checks
//===----------------------------------------------------------------------===//

typedef grt_status_t (*grtc_verify_fn_t)(grtc_verifier_t* v,
                                         const grtc_top_t* op);

static grt_status_t grtc_verify_constant(grtc_verifier_t* v,
                                         const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 0, 0, 1));
  const grtc_ttype_t* type = &op->results[0].type;
  size_t expected = op->attrs.constant.splat
                        ? grtc_elem_byte_size(type->elem)
                        : (size_t)grtc_ttype_byte_size(type);
  if (op->attrs.constant.size != expected ||
      (expected && !op->attrs.constant.data)) {
    return VERR(op, "holds %zu bytes, expected %zu for %s%s",
                op->attrs.constant.size, expected, grtc_vfmt(v, type),
                op->attrs.constant.splat ? " (splat)" : "");
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_iota(grtc_verifier_t* v, const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 0, 0, 1));
  const grtc_ttype_t* type = &op->results[0].type;
  if (op->attrs.dim < 0 || op->attrs.dim >= (int64_t)type->rank) {
    return VERR(op, "iota_dimension %lld is out of range for %s",
                (long long)op->attrs.dim, grtc_vfmt(v, type));
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_accepts(grtc_verifier_t* v,
                                        const grtc_top_t* op,
                                        grtc_scalar_op_t scalar,
                                        const grtc_ttype_t* type) {
  if (grtc_scalar_op_accepts(scalar, type->elem)) return grt_ok_status();
  return VERR(op, "does not accept operands of type %s: it takes %s tensors",
              grtc_vfmt(v, type), grtc_scalar_op_accepted_types(scalar));
}

// Ops that apply one scalar op to operands of one type.
static grt_status_t grtc_verify_elementwise(grtc_verifier_t* v,
                                            const grtc_top_t* op) {
  grtc_scalar_op_t scalar = grtc_top_kind_scalar_op(op->kind);
  uint32_t arity = grtc_scalar_op_arity(scalar);
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, arity, arity, 1));
  const grtc_ttype_t* type = grtc_vop(op, 0);
  for (uint32_t i = 1; i < arity; ++i) {
    GRT_RETURN_IF_ERROR(grtc_verify_same_types(v, op, type, grtc_vop(op, i)));
  }
  GRT_RETURN_IF_ERROR(grtc_verify_accepts(v, op, scalar, type));
  grtc_ttype_t inferred = *type;
  if (scalar == GRTC_SCALAR_IS_FINITE) inferred.elem = GRTC_ELEM_I1;
  return grtc_verify_result(v, op, 0, &inferred);
}

// |what| is rank 0 or shaped like |like|, with |like|'s element type.
static grt_status_t grtc_verify_scalar_or_same(grtc_verifier_t* v,
                                               const grtc_top_t* op,
                                               const grtc_ttype_t* type,
                                               const grtc_ttype_t* like) {
  if (type->rank != 0 && !grtc_vsame_shape(v, op, type, like, "operands")) {
    return VERR(op, "operand type %s is neither rank 0 nor shaped like %s",
                grtc_vfmt(v, type), grtc_vfmt(v, like));
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_select(grtc_verifier_t* v,
                                       const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 3, 3, 1));
  const grtc_ttype_t* pred = grtc_vop(op, 0);
  const grtc_ttype_t* type = grtc_vop(op, 1);
  GRT_RETURN_IF_ERROR(
      grtc_verify_elem(v, op, "predicate", pred->elem, GRTC_ELEM_I1));
  GRT_RETURN_IF_ERROR(grtc_verify_scalar_or_same(v, op, pred, type));
  GRT_RETURN_IF_ERROR(grtc_verify_same_types(v, op, type, grtc_vop(op, 2)));
  return grtc_verify_result(v, op, 0, type);
}

static grt_status_t grtc_verify_clamp(grtc_verifier_t* v,
                                      const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 3, 3, 1));
  const grtc_ttype_t* type = grtc_vop(op, 1);
  for (uint32_t i = 0; i < 3; i += 2) {
    const grtc_ttype_t* bound = grtc_vop(op, i);
    GRT_RETURN_IF_ERROR(grtc_verify_elem(v, op, i ? "max" : "min",
                                         bound->elem, type->elem));
    GRT_RETURN_IF_ERROR(grtc_verify_scalar_or_same(v, op, bound, type));
  }
  GRT_RETURN_IF_ERROR(grtc_verify_accepts(v, op, GRTC_SCALAR_CLAMP, type));
  return grtc_verify_result(v, op, 0, type);
}

static grt_status_t grtc_verify_compare(grtc_verifier_t* v,
                                        const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 2, 2, 1));
  const grtc_ttype_t* type = grtc_vop(op, 0);
  GRT_RETURN_IF_ERROR(grtc_verify_same_types(v, op, type, grtc_vop(op, 1)));
  if ((unsigned)op->attrs.compare_direction > GRTC_CMP_GE) {
    return VERR(op, "has an invalid comparison_direction %d",
                (int)op->attrs.compare_direction);
  }
  grtc_compare_type_t ct =
      grtc_compare_type_resolve(op->attrs.compare_type, type->elem);
  bool is_float = grtc_elem_is_float(type->elem);
  bool float_type = ct == GRTC_CMP_TYPE_FLOAT || ct == GRTC_CMP_TYPE_TOTALORDER;
  if (is_float != float_type || (unsigned)ct > GRTC_CMP_TYPE_UNSIGNED) {
    return VERR(op, "compare_type %s does not apply to operands of type %s",
                grtc_compare_type_spelling(ct), grtc_vfmt(v, type));
  }
  grtc_ttype_t inferred = *type;
  inferred.elem = GRTC_ELEM_I1;
  return grtc_verify_result(v, op, 0, &inferred);
}

static grt_status_t grtc_verify_convert(grtc_verifier_t* v,
                                        const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 1, 1, 1));
  grtc_ttype_t inferred = *grtc_vop(op, 0);
  inferred.elem = op->results[0].type.elem;
  return grtc_verify_result(v, op, 0, &inferred);
}

// The spec: equal widths keep the shape; a narrower result gains a trailing
// dimension of the width ratio; a wider result drops the operand's trailing
// dimension, which must be that ratio.
static grt_status_t grtc_verify_bitcast_convert(grtc_verifier_t* v,
                                                const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 1, 1, 1));
  const grtc_ttype_t* in = grtc_vop(op, 0);
  const grtc_ttype_t* out = &op->results[0].type;
  uint32_t in_bits = grtc_elem_bit_width(in->elem);
  uint32_t out_bits = grtc_elem_bit_width(out->elem);
  grtc_ttype_t inferred = *in;
  inferred.elem = out->elem;
  if (in_bits != out_bits &&
      (in->elem == GRTC_ELEM_I1 || out->elem == GRTC_ELEM_I1)) {
    return VERR(op, "cannot reinterpret %s as %s (i1 is one byte per element)",
                grtc_vfmt(v, in), grtc_vfmt(v, out));
  }
  if (in_bits > out_bits) {
    if (in->rank >= GRTC_MAX_RANK) {
      return VERR(op, "result would exceed rank %d", GRTC_MAX_RANK);
    }
    inferred.dims[inferred.rank++] = in_bits / out_bits;
  } else if (in_bits < out_bits) {
    if (in->rank == 0 || in->dims[in->rank - 1] != out_bits / in_bits) {
      return VERR(op,
                  "operand type %s must end in a dimension of %u to become "
                  "%s elements",
                  grtc_vfmt(v, in), out_bits / in_bits,
                  grtc_elem_spelling(out->elem));
    }
    --inferred.rank;
  }
  return grtc_verify_result(v, op, 0, &inferred);
}

static grt_status_t grtc_verify_broadcast_in_dim(grtc_verifier_t* v,
                                                 const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 1, 1, 1));
  const grtc_ttype_t* in = grtc_vop(op, 0);
  const grtc_ttype_t* out = &op->results[0].type;
  GRT_RETURN_IF_ERROR(
      grtc_verify_elem(v, op, "result", out->elem, in->elem));
  GRT_RETURN_IF_ERROR(grtc_verify_list_size(v, op, "broadcast_dimensions",
                                            op->attrs.dims, in->rank,
                                            "the operand's rank"));
  GRT_RETURN_IF_ERROR(grtc_verify_dim_list(v, op, "broadcast_dimensions",
                                           op->attrs.dims, out->rank));
  for (uint32_t i = 0; i < in->rank; ++i) {
    int64_t size = out->dims[op->attrs.dims.values[i]];
    // A symbolic operand dimension is taken to be the result's (a size-1
    // broadcast of it is dynamic_broadcast_in_dim's job).
    if (in->dims[i] != 1 &&
        !grtc_vsame(v, op, in->dims[i], size, "broadcast dimension")) {
      return VERR(op,
                  "operand dimension %u of %s (size %lld) is neither 1 nor "
                  "the size %lld of result dimension %lld in %s",
                  i, grtc_vfmt(v, in), (long long)in->dims[i],
                  (long long)size, (long long)op->attrs.dims.values[i],
                  grtc_vfmt(v, out));
    }
  }
  return grt_ok_status();
}

// A reshape with symbolic dimensions: the static factors of both sides must
// have one product and the symbolic ones must pair up, except that one
// symbolic dimension on each side may stand for the other's (then they are
// related as equal after dividing out the static factors, which must then
// agree).
static grt_status_t grtc_verify_symbolic_reshape(grtc_verifier_t* v,
                                                 const grtc_top_t* op,
                                                 const grtc_ttype_t* in,
                                                 const grtc_ttype_t* out) {
  int64_t in_static = 1, out_static = 1;
  int64_t in_syms[GRTC_MAX_RANK], out_syms[GRTC_MAX_RANK];
  uint32_t in_count = 0, out_count = 0;
  for (uint32_t i = 0; i < in->rank; ++i) {
    int64_t d = grtc_tmodule_resolve_dim(v->module, in->dims[i]);
    if (grtc_dim_is_static(d)) {
      in_static *= d;
    } else {
      in_syms[in_count++] = d;
    }
  }
  for (uint32_t i = 0; i < out->rank; ++i) {
    int64_t d = grtc_tmodule_resolve_dim(v->module, out->dims[i]);
    if (grtc_dim_is_static(d)) {
      out_static *= d;
    } else {
      out_syms[out_count++] = d;
    }
  }
  // Symbols on both sides cancel.
  for (uint32_t i = 0; i < in_count; ++i) {
    for (uint32_t j = 0; j < out_count; ++j) {
      if (in_syms[i] == out_syms[j]) {
        in_syms[i--] = in_syms[--in_count];
        out_syms[j] = out_syms[--out_count];
        break;
      }
    }
  }
  if (in_count == 0 && out_count == 0 && in_static == out_static) {
    return grt_ok_status();
  }
  if (in_count == 1 && out_count == 1 && in_static == out_static &&
      grtc_vsame(v, op, in_syms[0], out_syms[0], "reshape")) {
    return grt_ok_status();
  }
  if (in_count + out_count == 1 && in_static && out_static) {
    // One symbol against static sizes: it is their quotient.
    int64_t num = in_count ? out_static : in_static;
    int64_t den = in_count ? in_static : out_static;
    if (num % den == 0 &&
        grtc_vsame(v, op, in_count ? in_syms[0] : out_syms[0], num / den,
                   "reshape")) {
      return grt_ok_status();
    }
  }
  return VERR(op,
              "cannot reshape %s to %s: the element counts are not provably "
              "equal (symbolic dimensions must carry over or be determined "
              "by the static ones)",
              grtc_vfmt(v, in), grtc_vfmt(v, out));
}

static grt_status_t grtc_verify_reshape(grtc_verifier_t* v,
                                        const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 1, 1, 1));
  const grtc_ttype_t* in = grtc_vop(op, 0);
  const grtc_ttype_t* out = &op->results[0].type;
  GRT_RETURN_IF_ERROR(grtc_verify_elem(v, op, "result", out->elem, in->elem));
  if (!grtc_ttype_is_static(in) || !grtc_ttype_is_static(out)) {
    return grtc_verify_symbolic_reshape(v, op, in, out);
  }
  if (grtc_ttype_element_count(in) != grtc_ttype_element_count(out)) {
    return VERR(op, "cannot reshape %s (%lld elements) to %s (%lld elements)",
                grtc_vfmt(v, in), (long long)grtc_ttype_element_count(in),
                grtc_vfmt(v, out), (long long)grtc_ttype_element_count(out));
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_transpose(grtc_verifier_t* v,
                                          const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 1, 1, 1));
  const grtc_ttype_t* in = grtc_vop(op, 0);
  GRT_RETURN_IF_ERROR(grtc_verify_list_size(v, op, "permutation",
                                            op->attrs.dims, in->rank,
                                            "the operand's rank"));
  GRT_RETURN_IF_ERROR(grtc_verify_dim_list(v, op, "permutation",
                                           op->attrs.dims, in->rank));
  grtc_ttype_t inferred = *in;
  for (uint32_t i = 0; i < in->rank; ++i) {
    inferred.dims[i] = in->dims[op->attrs.dims.values[i]];
  }
  return grtc_verify_result(v, op, 0, &inferred);
}

static grt_status_t grtc_verify_slice(grtc_verifier_t* v,
                                      const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 1, 1, 1));
  const grtc_ttype_t* in = grtc_vop(op, 0);
  const grtc_top_attrs_t* a = &op->attrs;
  GRT_RETURN_IF_ERROR(grtc_verify_list_size(v, op, "start_indices", a->start,
                                            in->rank, "the operand's rank"));
  GRT_RETURN_IF_ERROR(grtc_verify_list_size(v, op, "limit_indices", a->limit,
                                            in->rank, "the operand's rank"));
  GRT_RETURN_IF_ERROR(grtc_verify_list_size(v, op, "strides", a->strides,
                                            in->rank, "the operand's rank"));
  grtc_ttype_t inferred = *in;
  for (uint32_t i = 0; i < in->rank; ++i) {
    int64_t start = a->start.values[i], limit = a->limit.values[i];
    int64_t stride = a->strides.values[i];
    if (!grtc_dim_is_static(limit) && start >= 0 && stride >= 1) {
      // A real_dynamic_slice's computed limit (grtc_prepare_dynamic_slice):
      // the result's symbol stands for it, and the host program checks
      // the bounds at the call.
      inferred.dims[i] = limit;
      continue;
    }
    if (start < 0 || start > limit ||
        !grtc_vat_least(v, op, in->dims[i], limit, "slice limit")) {
      return VERR(op,
                  "dimension %u: 0 <= start %lld <= limit %lld <= size %lld "
                  "does not hold",
                  i, (long long)start, (long long)limit,
                  (long long)grtc_tmodule_resolve_dim(v->module, in->dims[i]));
    }
    if (stride < 1) {
      return VERR(op, "strides[%u] = %lld must be at least 1", i,
                  (long long)stride);
    }
    inferred.dims[i] = (limit - start + stride - 1) / stride;
  }
  return grtc_verify_result(v, op, 0, &inferred);
}

// Start indices (operands |first|... after the counts were checked): rank-0
// integers, all of one type.
static grt_status_t grtc_verify_start_indices(grtc_verifier_t* v,
                                              const grtc_top_t* op,
                                              uint32_t first) {
  for (uint32_t i = first; i < op->operand_count; ++i) {
    const grtc_ttype_t* type = grtc_vop(op, i);
    if (type->rank != 0 || !grtc_elem_is_integer(type->elem) ||
        type->elem == GRTC_ELEM_I1 ||
        !grtc_ttype_equal(type, grtc_vop(op, first))) {
      return VERR(op,
                  "start index %u has type %s, expected a rank-0 integer "
                  "tensor like the first index",
                  i - first, grtc_vfmt(v, type));
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_dynamic_slice(grtc_verifier_t* v,
                                              const grtc_top_t* op) {
  if (op->operand_count < 1) return grtc_verify_counts(v, op, 1, 1, 1);
  const grtc_ttype_t* in = grtc_vop(op, 0);
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 1 + in->rank, 1 + in->rank, 1));
  GRT_RETURN_IF_ERROR(grtc_verify_start_indices(v, op, 1));
  GRT_RETURN_IF_ERROR(grtc_verify_list_size(v, op, "slice_sizes",
                                            op->attrs.sizes, in->rank,
                                            "the operand's rank"));
  grtc_ttype_t inferred = *in;
  for (uint32_t i = 0; i < in->rank; ++i) {
    int64_t size = op->attrs.sizes.values[i];
    // A symbolic operand dimension must be at least the size (checked at
    // the call).
    if (size < 0 || !grtc_vat_least(v, op, in->dims[i], size, "slice size")) {
      return VERR(op, "slice_sizes[%u] = %lld is out of range [0, %lld]", i,
                  (long long)size,
                  (long long)grtc_tmodule_resolve_dim(v->module, in->dims[i]));
    }
    inferred.dims[i] = size;
  }
  return grtc_verify_result(v, op, 0, &inferred);
}

static grt_status_t grtc_verify_dynamic_update_slice(grtc_verifier_t* v,
                                                     const grtc_top_t* op) {
  if (op->operand_count < 2) return grtc_verify_counts(v, op, 2, 2, 1);
  const grtc_ttype_t* in = grtc_vop(op, 0);
  const grtc_ttype_t* update = grtc_vop(op, 1);
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 2 + in->rank, 2 + in->rank, 1));
  GRT_RETURN_IF_ERROR(grtc_verify_start_indices(v, op, 2));
  GRT_RETURN_IF_ERROR(
      grtc_verify_elem(v, op, "update", update->elem, in->elem));
  bool fits = update->rank == in->rank;
  for (uint32_t i = 0; fits && i < in->rank; ++i) {
    fits = update->dims[i] <= in->dims[i];
  }
  if (!fits) {
    return VERR(op, "update type %s does not fit in operand type %s",
                grtc_vfmt(v, update), grtc_vfmt(v, in));
  }
  return grtc_verify_result(v, op, 0, in);
}

static grt_status_t grtc_verify_concatenate(grtc_verifier_t* v,
                                            const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 1, UINT32_MAX, 1));
  const grtc_ttype_t* first = grtc_vop(op, 0);
  int64_t dim = op->attrs.dim;
  if (dim < 0 || dim >= (int64_t)first->rank) {
    return VERR(op, "dimension %lld is out of range for %s", (long long)dim,
                grtc_vfmt(v, first));
  }
  grtc_ttype_t inferred = *first;
  for (uint32_t i = 1; i < op->operand_count; ++i) {
    const grtc_ttype_t* type = grtc_vop(op, i);
    bool compatible = type->elem == first->elem && type->rank == first->rank;
    for (uint32_t d = 0; compatible && d < type->rank; ++d) {
      compatible = d == (uint32_t)dim ||
                   grtc_vsame(v, op, type->dims[d], first->dims[d],
                              "concatenated operands");
    }
    if (!compatible) {
      return VERR(op,
                  "operand types %s and %s differ outside dimension %lld",
                  grtc_vfmt(v, first), grtc_vfmt(v, type), (long long)dim);
    }
  }
  // The concatenated dimension sums the operands'. With symbolic ones the
  // sum is the result's own symbol, or, when the result is static and one
  // operand symbolic, that operand is the difference.
  int64_t sum = 0;
  uint32_t symbolic = 0, which = 0;
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    int64_t size =
        grtc_tmodule_resolve_dim(v->module, grtc_vop(op, i)->dims[dim]);
    if (grtc_dim_is_static(size)) {
      sum += size;
    } else {
      ++symbolic;
      which = i;
    }
  }
  int64_t declared = op->result_count
                         ? grtc_tmodule_resolve_dim(
                               v->module, op->results[0].type.dims[dim])
                         : 0;
  if (symbolic == 0) {
    inferred.dims[dim] = sum;
  } else if (!grtc_dim_is_static(declared) ||
             (symbolic == 1 && declared >= sum &&
              grtc_vsame(v, op, grtc_vop(op, which)->dims[dim],
                         declared - sum, "concatenated dimension"))) {
    inferred.dims[dim] = declared;
  } else {
    return VERR(op,
                "result type %s cannot hold the concatenation of symbolic "
                "dimension %lld: write it as '?'",
                grtc_vfmt(v, &op->results[0].type), (long long)dim);
  }
  return grtc_verify_result(v, op, 0, &inferred);
}

static bool grtc_defines_computed_extent(const grtc_verifier_t* v,
                                         const grtc_top_t* op, uint32_t axis);

static grt_status_t grtc_verify_pad(grtc_verifier_t* v, const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 2, 2, 1));
  const grtc_ttype_t* in = grtc_vop(op, 0);
  const grtc_ttype_t* value = grtc_vop(op, 1);
  const grtc_top_attrs_t* a = &op->attrs;
  GRT_RETURN_IF_ERROR(grtc_verify_rank0(v, op, "padding value", value));
  GRT_RETURN_IF_ERROR(
      grtc_verify_elem(v, op, "padding value", value->elem, in->elem));
  GRT_RETURN_IF_ERROR(grtc_verify_list_size(v, op, "edge_padding_low", a->low,
                                            in->rank, "the operand's rank"));
  GRT_RETURN_IF_ERROR(grtc_verify_list_size(v, op, "edge_padding_high",
                                            a->high, in->rank,
                                            "the operand's rank"));
  GRT_RETURN_IF_ERROR(grtc_verify_list_size(v, op, "interior_padding",
                                            a->interior, in->rank,
                                            "the operand's rank"));
  grtc_ttype_t inferred = *in;
  for (uint32_t i = 0; i < in->rank; ++i) {
    int64_t interior = a->interior.values[i];
    if (interior < 0) {
      return VERR(op, "interior_padding[%u] = %lld is negative", i,
                  (long long)interior);
    }
    if (op->result_count && i < op->results[0].type.rank &&
        grtc_defines_computed_extent(v, op, i)) {
      // A dynamic_pad's computed edge_padding_high (its attribute 0): the
      // result's symbol holds the padded size (grtc_prepare_dynamic_pad).
      inferred.dims[i] = op->results[0].type.dims[i];
      continue;
    }
    int64_t size = grtc_tmodule_resolve_dim(v->module, in->dims[i]);
    if (!grtc_dim_is_static(size)) {
      // A symbolic dimension padded by nothing stays itself; padded, it
      // is the result's own symbol (the host computes it at the call).
      int64_t declared =
          op->result_count && i < op->results[0].type.rank
              ? grtc_tmodule_resolve_dim(v->module, op->results[0].type.dims[i])
              : 0;
      if (a->low.values[i] == 0 && a->high.values[i] == 0 && interior == 0) {
        inferred.dims[i] = size;
      } else if (!grtc_dim_is_static(declared)) {
        inferred.dims[i] = declared;
      } else {
        return VERR(op, "result type %s cannot hold the padding of symbolic "
                    "dimension %u: write it as '?'",
                    grtc_vfmt(v, &op->results[0].type), i);
      }
      continue;
    }
    int64_t padded = a->low.values[i] + a->high.values[i] + size +
                     (size > 0 ? (size - 1) * interior : 0);
    if (padded < 0) {
      return VERR(op, "dimension %u would have the negative size %lld", i,
                  (long long)padded);
    }
    inferred.dims[i] = padded;
  }
  return grtc_verify_result(v, op, 0, &inferred);
}

static grt_status_t grtc_verify_reverse(grtc_verifier_t* v,
                                        const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 1, 1, 1));
  const grtc_ttype_t* in = grtc_vop(op, 0);
  GRT_RETURN_IF_ERROR(
      grtc_verify_dim_list(v, op, "dimensions", op->attrs.dims, in->rank));
  return grtc_verify_result(v, op, 0, in);
}

static grt_status_t grtc_verify_dot_general(grtc_verifier_t* v,
                                            const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 2, 2, 1));
  const grtc_ttype_t* lhs = grtc_vop(op, 0);
  const grtc_ttype_t* rhs = grtc_vop(op, 1);
  const grtc_dot_dims_t* d = &op->attrs.dot;
  GRT_RETURN_IF_ERROR(grtc_verify_elem(v, op, "rhs", rhs->elem, lhs->elem));
  if (d->lhs_batch.count != d->rhs_batch.count) {
    return VERR(op, "has %u lhs and %u rhs batching dimensions",
                d->lhs_batch.count, d->rhs_batch.count);
  }
  if (d->lhs_contracting.count != d->rhs_contracting.count) {
    return VERR(op, "has %u lhs and %u rhs contracting dimensions",
                d->lhs_contracting.count, d->rhs_contracting.count);
  }
  const struct {
    const char* name;
    grtc_i64s_t dims;
    const grtc_ttype_t* type;
  } lists[4] = {
      {"lhs_batching_dimensions", d->lhs_batch, lhs},
      {"rhs_batching_dimensions", d->rhs_batch, rhs},
      {"lhs_contracting_dimensions", d->lhs_contracting, lhs},
      {"rhs_contracting_dimensions", d->rhs_contracting, rhs},
  };
  for (int i = 0; i < 4; ++i) {
    GRT_RETURN_IF_ERROR(grtc_verify_dim_list(v, op, lists[i].name,
                                             lists[i].dims,
                                             lists[i].type->rank));
  }
  for (int side = 0; side < 2; ++side) {
    grtc_i64s_t batch = lists[side].dims, contracting = lists[side + 2].dims;
    for (uint32_t i = 0; i < contracting.count; ++i) {
      if (grtc_dims_contain(batch, contracting.values[i])) {
        return VERR(op, "%s dimension %lld is both batching and contracting",
                    side ? "rhs" : "lhs", (long long)contracting.values[i]);
      }
    }
  }
  for (int pair = 0; pair < 4; pair += 2) {
    grtc_i64s_t l = lists[pair].dims, r = lists[pair + 1].dims;
    for (uint32_t i = 0; i < l.count; ++i) {
      int64_t ls = lhs->dims[l.values[i]], rs = rhs->dims[r.values[i]];
      if (!grtc_vsame(v, op, ls, rs,
                      pair ? "contracting dimensions" : "batching dimensions")) {
        return VERR(op,
                    "%s dimension %lld of %s (size %lld) differs from rhs "
                    "dimension %lld of %s (size %lld)",
                    pair ? "contracting" : "batching",
                    (long long)l.values[i], grtc_vfmt(v, lhs), (long long)ls,
                    (long long)r.values[i], grtc_vfmt(v, rhs), (long long)rs);
      }
    }
  }
  // Batch dimensions, then the lhs's free dimensions, then the rhs's. The
  // result may use a wider element type (preferred_element_type).
  grtc_ttype_t inferred = grtc_vtype(op->results[0].type.elem, 0, NULL);
  for (uint32_t i = 0; i < d->lhs_batch.count; ++i) {
    inferred.dims[inferred.rank++] = lhs->dims[d->lhs_batch.values[i]];
  }
  for (int side = 0; side < 2; ++side) {
    const grtc_ttype_t* type = side ? rhs : lhs;
    for (uint32_t i = 0; i < type->rank; ++i) {
      if (grtc_dims_contain(lists[side].dims, i) ||
          grtc_dims_contain(lists[side + 2].dims, i)) {
        continue;
      }
      if (inferred.rank >= GRTC_MAX_RANK) {
        return VERR(op, "result would exceed rank %d", GRTC_MAX_RANK);
      }
      inferred.dims[inferred.rank++] = type->dims[i];
    }
  }
  return grtc_verify_result(v, op, 0, &inferred);
}

// One of the three dimension layouts of a convolution: two named
// dimensions and the spatial ones must permute [0, rank).
static grt_status_t grtc_verify_conv_layout(grtc_verifier_t* v,
                                            const grtc_top_t* op,
                                            const char* what, int64_t a,
                                            int64_t b, grtc_i64s_t spatial,
                                            uint32_t rank) {
  if (spatial.count + 2 != rank) {
    return VERR(op, "%s has %u spatial dimensions, expected %u", what,
                spatial.count, rank >= 2 ? rank - 2 : 0);
  }
  int64_t all[GRTC_MAX_RANK];
  all[0] = a;
  all[1] = b;
  for (uint32_t i = 0; i < spatial.count; ++i) all[2 + i] = spatial.values[i];
  grtc_i64s_t list = {rank, all};
  return grtc_verify_dim_list(v, op, what, list, rank);
}

static int64_t grtc_window_output(int64_t size, int64_t base_dilation,
                                  int64_t low, int64_t high, int64_t window,
                                  int64_t window_dilation, int64_t stride) {
  int64_t dilated = size > 0 ? (size - 1) * base_dilation + 1 : 0;
  int64_t padded = low + dilated + high;
  int64_t dilated_window = window > 0 ? (window - 1) * window_dilation + 1 : 0;
  if (padded < dilated_window) return 0;
  return (padded - dilated_window) / stride + 1;
}

static grt_status_t grtc_verify_convolution(grtc_verifier_t* v,
                                            const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 2, 2, 1));
  const grtc_ttype_t* lhs = grtc_vop(op, 0);
  const grtc_ttype_t* rhs = grtc_vop(op, 1);
  const grtc_ttype_t* out = &op->results[0].type;
  const grtc_conv_dims_t* c = &op->attrs.conv;
  GRT_RETURN_IF_ERROR(grtc_verify_elem(v, op, "rhs", rhs->elem, lhs->elem));
  if (lhs->rank < 2 || rhs->rank != lhs->rank || out->rank != lhs->rank) {
    return VERR(op, "operand and result ranks differ or are below 2: %s, %s, %s",
                grtc_vfmt(v, lhs), grtc_vfmt(v, rhs), grtc_vfmt(v, out));
  }
  uint32_t spatial = lhs->rank - 2;
  GRT_RETURN_IF_ERROR(grtc_verify_conv_layout(
      v, op, "input dimensions", c->input_batch, c->input_feature,
      c->input_spatial, lhs->rank));
  GRT_RETURN_IF_ERROR(grtc_verify_conv_layout(
      v, op, "kernel dimensions", c->kernel_input_feature,
      c->kernel_output_feature, c->kernel_spatial, rhs->rank));
  GRT_RETURN_IF_ERROR(grtc_verify_conv_layout(
      v, op, "output dimensions", c->output_batch, c->output_feature,
      c->output_spatial, out->rank));
  GRT_RETURN_IF_ERROR(grtc_verify_optional_list(v, op, "window_strides",
                                                c->window_strides, spatial, 1));
  GRT_RETURN_IF_ERROR(grtc_verify_optional_list(v, op, "padding low",
                                                c->padding_low, spatial,
                                                INT64_MIN));
  GRT_RETURN_IF_ERROR(grtc_verify_optional_list(v, op, "padding high",
                                                c->padding_high, spatial,
                                                INT64_MIN));
  GRT_RETURN_IF_ERROR(grtc_verify_optional_list(v, op, "lhs_dilation",
                                                c->lhs_dilation, spatial, 1));
  GRT_RETURN_IF_ERROR(grtc_verify_optional_list(v, op, "rhs_dilation",
                                                c->rhs_dilation, spatial, 1));
  int64_t fgc = c->feature_group_count, bgc = c->batch_group_count;
  if (fgc < 1 || bgc < 1 || (fgc > 1 && bgc > 1)) {
    return VERR(op,
                "feature_group_count %lld and batch_group_count %lld must be "
                "positive and not both above 1",
                (long long)fgc, (long long)bgc);
  }
  // Symbolic shapes: only the input (and so the output) batch may be
  // symbolic; windows need static extents.
  for (uint32_t side = 0; side < 2; ++side) {
    const grtc_ttype_t* type = side ? rhs : lhs;
    for (uint32_t i = 0; i < type->rank; ++i) {
      if (grtc_dim_is_static(type->dims[i]) ||
          (side == 0 && i == (uint32_t)c->input_batch && bgc == 1)) {
        continue;
      }
      return VERR(op,
                  "%s dimension %u of %s is symbolic; only the input batch "
                  "dimension may be (without batch groups)",
                  side ? "kernel" : "input", i, grtc_vfmt(v, type));
    }
  }
  int64_t in_batch = lhs->dims[c->input_batch];
  int64_t in_feature = lhs->dims[c->input_feature];
  int64_t k_in = rhs->dims[c->kernel_input_feature];
  int64_t k_out = rhs->dims[c->kernel_output_feature];
  if (in_feature % fgc != 0 || in_feature / fgc != k_in) {
    return VERR(op,
                "input feature size %lld divided by feature_group_count %lld "
                "differs from the kernel input feature size %lld",
                (long long)in_feature, (long long)fgc, (long long)k_in);
  }
  if (k_out % fgc != 0 || k_out % bgc != 0 ||
      (grtc_dim_is_static(in_batch) && in_batch % bgc != 0)) {
    return VERR(op,
                "kernel output feature size %lld or input batch size %lld is "
                "not divisible by the group counts (%lld, %lld)",
                (long long)k_out, (long long)in_batch, (long long)fgc,
                (long long)bgc);
  }
  grtc_ttype_t inferred = grtc_vtype(out->elem, out->rank, NULL);
  inferred.dims[c->output_batch] =
      grtc_dim_is_static(in_batch) ? in_batch / bgc : in_batch;
  inferred.dims[c->output_feature] = k_out;
  for (uint32_t i = 0; i < spatial; ++i) {
    inferred.dims[c->output_spatial.values[i]] = grtc_window_output(
        lhs->dims[c->input_spatial.values[i]],
        grtc_attr_at(c->lhs_dilation, i, 1), grtc_attr_at(c->padding_low, i, 0),
        grtc_attr_at(c->padding_high, i, 0),
        rhs->dims[c->kernel_spatial.values[i]],
        grtc_attr_at(c->rhs_dilation, i, 1),
        grtc_attr_at(c->window_strides, i, 1));
  }
  return grtc_verify_result(v, op, 0, &inferred);
}

// Reduce-like operand lists: N inputs of one shape, then N rank-0 inits of
// the inputs' element types; |elems| receives the element types.
static grt_status_t grtc_verify_inputs_inits(grtc_verifier_t* v,
                                             const grtc_top_t* op,
                                             grtc_elem_t* elems,
                                             uint32_t* out_n) {
  uint32_t n = op->operand_count / 2;
  if (op->operand_count == 0 || op->operand_count % 2 != 0 || n > 64) {
    return VERR(op, "takes N inputs and N init values, got %u operands",
                op->operand_count);
  }
  if (op->result_count != n) {
    return VERR(op, "has %u results, expected %u", op->result_count, n);
  }
  const grtc_ttype_t* first = grtc_vop(op, 0);
  for (uint32_t i = 0; i < n; ++i) {
    const grtc_ttype_t* input = grtc_vop(op, i);
    const grtc_ttype_t* init = grtc_vop(op, n + i);
    if (!grtc_vsame_shape(v, op, input, first, "inputs")) {
      return VERR(op, "input types %s and %s differ in shape",
                  grtc_vfmt(v, first), grtc_vfmt(v, input));
    }
    GRT_RETURN_IF_ERROR(grtc_verify_rank0(v, op, "init value", init));
    GRT_RETURN_IF_ERROR(
        grtc_verify_elem(v, op, "init value", init->elem, input->elem));
    elems[i] = input->elem;
  }
  *out_n = n;
  return grt_ok_status();
}

static grt_status_t grtc_verify_reduce(grtc_verifier_t* v,
                                       const grtc_top_t* op) {
  grtc_elem_t elems[64];
  uint32_t n = 0;
  GRT_RETURN_IF_ERROR(grtc_verify_inputs_inits(v, op, elems, &n));
  const grtc_ttype_t* in = grtc_vop(op, 0);
  GRT_RETURN_IF_ERROR(
      grtc_verify_dim_list(v, op, "dimensions", op->attrs.dims, in->rank));
  GRT_RETURN_IF_ERROR(grtc_verify_reducer(v, op, 0, "body", elems, n));
  for (uint32_t r = 0; r < n; ++r) {
    grtc_ttype_t inferred = grtc_vtype(elems[r], 0, NULL);
    for (uint32_t i = 0; i < in->rank; ++i) {
      if (!grtc_dims_contain(op->attrs.dims, i)) {
        inferred.dims[inferred.rank++] = in->dims[i];
      }
    }
    GRT_RETURN_IF_ERROR(grtc_verify_result(v, op, r, &inferred));
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_reduce_window(grtc_verifier_t* v,
                                              const grtc_top_t* op) {
  grtc_elem_t elems[64];
  uint32_t n = 0;
  GRT_RETURN_IF_ERROR(grtc_verify_inputs_inits(v, op, elems, &n));
  const grtc_ttype_t* in = grtc_vop(op, 0);
  const grtc_window_t* w = &op->attrs.window;
  GRT_RETURN_IF_ERROR(grtc_verify_list_size(v, op, "window_dimensions",
                                            w->dimensions, in->rank,
                                            "the operand's rank"));
  GRT_RETURN_IF_ERROR(grtc_verify_optional_list(
      v, op, "window_dimensions", w->dimensions, in->rank, 1));
  GRT_RETURN_IF_ERROR(grtc_verify_optional_list(v, op, "window_strides",
                                                w->strides, in->rank, 1));
  GRT_RETURN_IF_ERROR(grtc_verify_optional_list(
      v, op, "base_dilations", w->base_dilations, in->rank, 1));
  GRT_RETURN_IF_ERROR(grtc_verify_optional_list(
      v, op, "window_dilations", w->window_dilations, in->rank, 1));
  GRT_RETURN_IF_ERROR(grtc_verify_optional_list(v, op, "padding low",
                                                w->padding_low, in->rank,
                                                INT64_MIN));
  GRT_RETURN_IF_ERROR(grtc_verify_optional_list(v, op, "padding high",
                                                w->padding_high, in->rank,
                                                INT64_MIN));
  GRT_RETURN_IF_ERROR(grtc_verify_reducer(v, op, 0, "body", elems, n));
  grtc_ttype_t inferred = *in;
  for (uint32_t i = 0; i < in->rank; ++i) {
    if (!grtc_dim_is_static(in->dims[i])) {
      // Symbolic: only a window that passes the dimension through (size 1,
      // stride 1, no dilation or padding), so the result's is the operand's.
      if (w->dimensions.values[i] != 1 ||
          grtc_attr_at(w->strides, i, 1) != 1 ||
          grtc_attr_at(w->base_dilations, i, 1) != 1 ||
          grtc_attr_at(w->window_dilations, i, 1) != 1 ||
          grtc_attr_at(w->padding_low, i, 0) != 0 ||
          grtc_attr_at(w->padding_high, i, 0) != 0) {
        return VERR(op,
                    "operand dimension %u of %s is symbolic; its window must "
                    "be 1 with stride 1 and no dilation or padding",
                    i, grtc_vfmt(v, in));
      }
      continue;
    }
    inferred.dims[i] = grtc_window_output(
        in->dims[i], grtc_attr_at(w->base_dilations, i, 1),
        grtc_attr_at(w->padding_low, i, 0), grtc_attr_at(w->padding_high, i, 0),
        w->dimensions.values[i], grtc_attr_at(w->window_dilations, i, 1),
        grtc_attr_at(w->strides, i, 1));
  }
  for (uint32_t r = 0; r < n; ++r) {
    inferred.elem = elems[r];
    GRT_RETURN_IF_ERROR(grtc_verify_result(v, op, r, &inferred));
  }
  return grt_ok_status();
}

// Batching dimensions shared by gather and scatter: |operand_dims| of the
// operand pair with |index_dims| of the indices, never index_vector_dim.
static grt_status_t grtc_verify_batching(grtc_verifier_t* v,
                                         const grtc_top_t* op,
                                         const grtc_ttype_t* operand,
                                         grtc_i64s_t operand_dims,
                                         const grtc_ttype_t* indices,
                                         grtc_i64s_t index_dims,
                                         int64_t index_vector_dim) {
  GRT_RETURN_IF_ERROR(grtc_verify_dim_list(v, op, "operand batching dims",
                                           operand_dims, operand->rank));
  GRT_RETURN_IF_ERROR(grtc_verify_dim_list(v, op, "indices batching dims",
                                           index_dims, indices->rank));
  if (operand_dims.count != index_dims.count) {
    return VERR(op, "has %u operand and %u indices batching dimensions",
                operand_dims.count, index_dims.count);
  }
  for (uint32_t i = 0; i < index_dims.count; ++i) {
    if (index_dims.values[i] == index_vector_dim) {
      return VERR(op, "index_vector_dim %lld is a batching dimension",
                  (long long)index_vector_dim);
    }
    if (operand->dims[operand_dims.values[i]] !=
        indices->dims[index_dims.values[i]]) {
      return VERR(op, "batching dimension %u sizes differ in %s and %s", i,
                  grtc_vfmt(v, operand), grtc_vfmt(v, indices));
    }
  }
  return grt_ok_status();
}

// The index vector: indices dimension index_vector_dim (or an implicit 1
// when it equals the rank) holds one entry per mapped operand dimension.
static grt_status_t grtc_verify_index_vector(grtc_verifier_t* v,
                                             const grtc_top_t* op,
                                             const grtc_ttype_t* indices,
                                             int64_t index_vector_dim,
                                             grtc_i64s_t map,
                                             const grtc_ttype_t* operand,
                                             grtc_i64s_t batching) {
  if (!grtc_elem_is_integer(indices->elem) || indices->elem == GRTC_ELEM_I1) {
    return VERR(op, "indices type %s is not an integer tensor",
                grtc_vfmt(v, indices));
  }
  if (index_vector_dim < 0 || index_vector_dim > (int64_t)indices->rank) {
    return VERR(op, "index_vector_dim %lld is out of range [0, %u]",
                (long long)index_vector_dim, indices->rank);
  }
  int64_t vector = index_vector_dim < (int64_t)indices->rank
                       ? indices->dims[index_vector_dim]
                       : 1;
  if (vector != (int64_t)map.count) {
    return VERR(op,
                "index vector of %s has %lld entries but %u operand "
                "dimensions are mapped",
                grtc_vfmt(v, indices), (long long)vector, map.count);
  }
  GRT_RETURN_IF_ERROR(grtc_verify_dim_list(v, op, "index map", map,
                                           operand->rank));
  for (uint32_t i = 0; i < map.count; ++i) {
    if (grtc_dims_contain(batching, map.values[i])) {
      return VERR(op, "index map names batching dimension %lld",
                  (long long)map.values[i]);
    }
  }
  return grt_ok_status();
}

// What a gather's bound on a symbolic operand dimension is (the call's
// message names it; relations keep static text).
static const char* const grtc_gather_slice_size_of[GRTC_MAX_RANK] = {
    "slice size of operand dimension 0", "slice size of operand dimension 1",
    "slice size of operand dimension 2", "slice size of operand dimension 3",
    "slice size of operand dimension 4", "slice size of operand dimension 5",
    "slice size of operand dimension 6", "slice size of operand dimension 7",
};

static grt_status_t grtc_verify_gather(grtc_verifier_t* v,
                                       const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 2, 2, 1));
  const grtc_ttype_t* operand = grtc_vop(op, 0);
  const grtc_ttype_t* indices = grtc_vop(op, 1);
  const grtc_gather_dims_t* g = &op->attrs.gather;
  // Symbolic dimensions: the indices' batch dimensions (a lookup of a
  // symbolic number of rows, such as an embedding over a sequence) and the
  // operand's other than its batching ones (a table of a symbolic number
  // of rows: the slice sizes stay static, the call checks the extent
  // holds them and the kernel clamps the starts to the extent).
  char described[192];
  for (uint32_t k = 0; k < g->operand_batching_dims.count; ++k) {
    int64_t d = g->operand_batching_dims.values[k];
    if (d < 0 || d >= (int64_t)operand->rank ||
        grtc_dim_is_static(operand->dims[d])) {
      continue;
    }
    return VERR(op, "operand 0 dimension %lld is symbolic (%s) and a "
                "batching dimension; a gather with symbolic batching "
                "dimensions is not supported yet", (long long)d,
                grtc_tmodule_describe_dim(v->module, operand->dims[d],
                                          described, sizeof(described)));
  }
  if (g->index_vector_dim >= 0 &&
      g->index_vector_dim < (int64_t)indices->rank &&
      !grtc_dim_is_static(indices->dims[g->index_vector_dim])) {
    return VERR(op, "the index vector dimension %lld of the indices is "
                "symbolic; it must be static",
                (long long)g->index_vector_dim);
  }
  for (uint32_t k = 0; k < g->start_indices_batching_dims.count; ++k) {
    int64_t d = g->start_indices_batching_dims.values[k];
    if (d >= 0 && d < (int64_t)indices->rank &&
        !grtc_dim_is_static(indices->dims[d])) {
      return VERR(op, "indices batching dimension %lld is symbolic; a "
                  "gather with symbolic batching dimensions is not supported "
                  "yet", (long long)d);
    }
  }
  GRT_RETURN_IF_ERROR(grtc_verify_index_vector(
      v, op, indices, g->index_vector_dim, g->start_index_map, operand,
      g->operand_batching_dims));
  GRT_RETURN_IF_ERROR(grtc_verify_batching(
      v, op, operand, g->operand_batching_dims, indices,
      g->start_indices_batching_dims, g->index_vector_dim));
  GRT_RETURN_IF_ERROR(grtc_verify_list_size(v, op, "slice_sizes",
                                            g->slice_sizes, operand->rank,
                                            "the operand's rank"));
  GRT_RETURN_IF_ERROR(grtc_verify_sorted(v, op, "offset_dims", g->offset_dims));
  GRT_RETURN_IF_ERROR(grtc_verify_sorted(v, op, "collapsed_slice_dims",
                                         g->collapsed_slice_dims));
  GRT_RETURN_IF_ERROR(grtc_verify_dim_list(
      v, op, "collapsed_slice_dims", g->collapsed_slice_dims, operand->rank));
  for (uint32_t i = 0; i < operand->rank; ++i) {
    int64_t size = g->slice_sizes.values[i];
    bool collapsed = grtc_dims_contain(g->collapsed_slice_dims, i);
    bool batching = grtc_dims_contain(g->operand_batching_dims, i);
    if (collapsed && batching) {
      return VERR(op, "dimension %u is both collapsed and batching", i);
    }
    // A symbolic operand dimension must be at least the size (checked at
    // the call).
    if (size < 0 || ((collapsed || batching) && size > 1) ||
        !grtc_vat_least(v, op, operand->dims[i], size,
                        grtc_gather_slice_size_of[i])) {
      return VERR(op, "slice_sizes[%u] = %lld is out of range for %s", i,
                  (long long)size, grtc_vfmt(v, operand));
    }
  }
  uint32_t offset_count = operand->rank - g->collapsed_slice_dims.count -
                          g->operand_batching_dims.count;
  GRT_RETURN_IF_ERROR(grtc_verify_list_size(
      v, op, "offset_dims", g->offset_dims, offset_count,
      "operand rank minus collapsed and batching dimensions"));
  // Result: batch dimensions (indices without the index vector) where no
  // offset dimension sits, slice sizes of the kept operand dimensions at
  // offset_dims.
  int64_t batch[GRTC_MAX_RANK], offsets[GRTC_MAX_RANK];
  uint32_t batch_count = 0, kept = 0;
  for (uint32_t i = 0; i < indices->rank; ++i) {
    if ((int64_t)i != g->index_vector_dim) batch[batch_count++] = indices->dims[i];
  }
  for (uint32_t i = 0; i < operand->rank; ++i) {
    if (!grtc_dims_contain(g->collapsed_slice_dims, i) &&
        !grtc_dims_contain(g->operand_batching_dims, i)) {
      offsets[kept++] = g->slice_sizes.values[i];
    }
  }
  uint32_t rank = batch_count + offset_count;
  if (rank > GRTC_MAX_RANK) {
    return VERR(op, "result would exceed rank %d", GRTC_MAX_RANK);
  }
  GRT_RETURN_IF_ERROR(
      grtc_verify_dim_list(v, op, "offset_dims", g->offset_dims, rank));
  grtc_ttype_t inferred = grtc_vtype(operand->elem, rank, NULL);
  uint32_t next_batch = 0, next_offset = 0;
  for (uint32_t i = 0; i < rank; ++i) {
    inferred.dims[i] = grtc_dims_contain(g->offset_dims, i)
                           ? offsets[next_offset++]
                           : batch[next_batch++];
  }
  return grtc_verify_result(v, op, 0, &inferred);
}

static grt_status_t grtc_verify_scatter(grtc_verifier_t* v,
                                        const grtc_top_t* op) {
  if (op->operand_count < 3 || op->operand_count % 2 == 0 ||
      op->operand_count > 129) {
    return VERR(op, "takes N inputs, the indices and N updates, got %u operands",
                op->operand_count);
  }
  uint32_t n = (op->operand_count - 1) / 2;
  if (op->result_count != n) {
    return VERR(op, "has %u results, expected %u", op->result_count, n);
  }
  const grtc_scatter_dims_t* s = &op->attrs.scatter;
  const grtc_ttype_t* input = grtc_vop(op, 0);
  const grtc_ttype_t* indices = grtc_vop(op, n);
  const grtc_ttype_t* update = grtc_vop(op, n + 1);
  // Symbolic dimensions: only the number of updates (the indices' batch
  // dimensions and the updates' scatter dimensions, related equal below).
  char described[192];
  for (uint32_t i = 0; i < n; ++i) {
    const grtc_ttype_t* in_i = grtc_vop(op, i);
    for (uint32_t d = 0; d < in_i->rank; ++d) {
      if (grtc_dim_is_static(in_i->dims[d])) continue;
      return VERR(op, "input %u dimension %u is symbolic (%s); a scatter into "
                  "a symbolic input is not supported yet", i, d,
                  grtc_tmodule_describe_dim(v->module, in_i->dims[d], described,
                                            sizeof(described)));
    }
  }
  if (s->index_vector_dim >= 0 && s->index_vector_dim < (int64_t)indices->rank &&
      !grtc_dim_is_static(indices->dims[s->index_vector_dim])) {
    return VERR(op, "the index vector dimension %lld of the indices is "
                "symbolic; it must be static", (long long)s->index_vector_dim);
  }
  for (uint32_t k = 0; k < s->scatter_indices_batching_dims.count; ++k) {
    int64_t d = s->scatter_indices_batching_dims.values[k];
    if (d >= 0 && d < (int64_t)indices->rank && !grtc_dim_is_static(indices->dims[d])) {
      return VERR(op, "indices batching dimension %lld is symbolic; a scatter "
                  "with symbolic batching dimensions is not supported yet",
                  (long long)d);
    }
  }
  for (uint32_t k = 0; k < s->update_window_dims.count; ++k) {
    int64_t d = s->update_window_dims.values[k];
    if (d >= 0 && d < (int64_t)update->rank && !grtc_dim_is_static(update->dims[d])) {
      return VERR(op, "updates window dimension %lld is symbolic (%s); only the "
                  "number of updates may be symbolic", (long long)d,
                  grtc_tmodule_describe_dim(v->module, update->dims[d], described,
                                            sizeof(described)));
    }
  }
  grtc_elem_t elems[64];
  for (uint32_t i = 0; i < n; ++i) {
    const grtc_ttype_t* in_i = grtc_vop(op, i);
    const grtc_ttype_t* up_i = grtc_vop(op, n + 1 + i);
    if (!grtc_ttype_same_shape(in_i, input) ||
        !grtc_vsame_shape(v, op, up_i, update, "updates") || up_i->elem != in_i->elem) {
      return VERR(op, "input %u (%s) or its updates (%s) differ from the first",
                  i, grtc_vfmt(v, in_i), grtc_vfmt(v, up_i));
    }
    elems[i] = in_i->elem;
    GRT_RETURN_IF_ERROR(grtc_verify_result(v, op, i, in_i));
  }
  GRT_RETURN_IF_ERROR(grtc_verify_index_vector(
      v, op, indices, s->index_vector_dim, s->scatter_dims_to_operand_dims,
      input, s->input_batching_dims));
  GRT_RETURN_IF_ERROR(grtc_verify_batching(
      v, op, input, s->input_batching_dims, indices,
      s->scatter_indices_batching_dims, s->index_vector_dim));
  GRT_RETURN_IF_ERROR(grtc_verify_sorted(v, op, "update_window_dims",
                                         s->update_window_dims));
  GRT_RETURN_IF_ERROR(grtc_verify_sorted(v, op, "inserted_window_dims",
                                         s->inserted_window_dims));
  GRT_RETURN_IF_ERROR(grtc_verify_dim_list(v, op, "update_window_dims",
                                           s->update_window_dims, update->rank));
  GRT_RETURN_IF_ERROR(grtc_verify_dim_list(
      v, op, "inserted_window_dims", s->inserted_window_dims, input->rank));
  for (uint32_t i = 0; i < s->inserted_window_dims.count; ++i) {
    if (grtc_dims_contain(s->input_batching_dims,
                          s->inserted_window_dims.values[i])) {
      return VERR(op, "dimension %lld is both inserted and batching",
                  (long long)s->inserted_window_dims.values[i]);
    }
  }
  uint32_t index_batch = indices->rank -
                         (s->index_vector_dim < (int64_t)indices->rank ? 1 : 0);
  if (update->rank != s->update_window_dims.count + index_batch) {
    return VERR(op,
                "updates type %s has rank %u, expected %u window plus %u "
                "scatter dimensions",
                grtc_vfmt(v, update), update->rank,
                s->update_window_dims.count, index_batch);
  }
  if (s->update_window_dims.count + s->inserted_window_dims.count +
          s->input_batching_dims.count != input->rank) {
    return VERR(op,
                "update_window_dims, inserted_window_dims and input batching "
                "dims do not cover the %u dimensions of %s",
                input->rank, grtc_vfmt(v, input));
  }
  // Scatter dimensions of the updates match the indices' batch dimensions;
  // window dimensions fit in the input's non-inserted dimensions.
  uint32_t next_index = 0, next_input = 0;
  for (uint32_t i = 0; i < update->rank; ++i) {
    int64_t size = update->dims[i], bound;
    if (grtc_dims_contain(s->update_window_dims, i)) {
      // The coverage and overlap checks leave a dimension for every window
      // dimension.
      while (grtc_dims_contain(s->inserted_window_dims, next_input) ||
             grtc_dims_contain(s->input_batching_dims, next_input)) {
        ++next_input;
      }
      bound = input->dims[next_input++];
      if (size > bound) {
        return VERR(op, "updates dimension %u (size %lld) exceeds %lld of %s",
                    i, (long long)size, (long long)bound,
                    grtc_vfmt(v, input));
      }
    } else {
      if ((int64_t)next_index == s->index_vector_dim) ++next_index;
      bound = indices->dims[next_index++];
      if (!grtc_vsame(v, op, size, bound, "updates and indices")) {
        return VERR(op,
                    "updates dimension %u (size %lld) differs from the "
                    "indices' %lld in %s",
                    i, (long long)size, (long long)bound,
                    grtc_vfmt(v, indices));
      }
    }
  }
  return grtc_verify_reducer(v, op, 0, "update computation", elems, n);
}

static grt_status_t grtc_verify_sort(grtc_verifier_t* v, const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 1, 64, op->operand_count));
  const grtc_ttype_t* first = grtc_vop(op, 0);
  grtc_ttype_t args[128];
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    const grtc_ttype_t* type = grtc_vop(op, i);
    if (!grtc_ttype_same_shape(type, first)) {
      return VERR(op, "operand types %s and %s differ in shape",
                  grtc_vfmt(v, first), grtc_vfmt(v, type));
    }
    GRT_RETURN_IF_ERROR(grtc_verify_result(v, op, i, type));
    args[2 * i] = args[2 * i + 1] = grtc_vtype(type->elem, 0, NULL);
  }
  int64_t rank = first->rank;
  if (op->attrs.dim < -rank || op->attrs.dim >= rank) {
    return VERR(op, "dimension %lld is out of range for %s",
                (long long)op->attrs.dim, grtc_vfmt(v, first));
  }
  grtc_ttype_t pred = grtc_vtype(GRTC_ELEM_I1, 0, NULL);
  return grtc_verify_region(v, op, 0, "comparator", args,
                            2 * op->operand_count, &pred, 1);
}

static const grtc_ttype_t* grtc_operand_types(const grtc_top_t* op,
                                              grtc_ttype_t* storage) {
  for (uint32_t i = 0; i < op->operand_count; ++i) storage[i] = *grtc_vop(op, i);
  return storage;
}

static bool grtc_symbol_derived(const grtc_tsym_t* sym);

static grt_status_t grtc_verify_while(grtc_verifier_t* v,
                                      const grtc_top_t* op) {
  uint32_t n = op->operand_count;
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 0, 64, n));
  grtc_ttype_t types[64], yields[64];
  grtc_operand_types(op, types);
  // A carried dimension the body changes (grtc_while_dim_varies: it yields
  // a concatenation, a padding or a computed extent the relations do not
  // join to the carried one) is not related to the operand or to what the
  // body yields: the loop's result symbol, which the region arguments
  // carry too, stands for the extent of each iteration, and the host
  // program passes it from one iteration to the next. Every other carried
  // dimension keeps its extent: operand, region arguments, yield and
  // result are one class.
  for (uint32_t i = 0; i < n; ++i) {
    yields[i] = types[i];
    for (uint32_t d = 0; i < op->result_count && d < types[i].rank &&
                         d < op->results[i].type.rank; ++d) {
      if (!grtc_while_dim_varies(v->module, op, i, d)) continue;
      types[i].dims[d] = op->results[i].type.dims[d];
      yields[i].dims[d] = op->regions[1]->last->operands[i]->type.dims[d];
    }
  }
  for (uint32_t i = 0; i < n; ++i) {
    GRT_RETURN_IF_ERROR(grtc_verify_result(v, op, i, &types[i]));
  }
  grtc_ttype_t pred = grtc_vtype(GRTC_ELEM_I1, 0, NULL);
  GRT_RETURN_IF_ERROR(grtc_verify_region(v, op, 0, "cond", types, n, &pred, 1));
  return grtc_verify_region(v, op, 1, "body", types, n, yields, n);
}

static grt_status_t grtc_verify_branches(grtc_verifier_t* v,
                                         const grtc_top_t* op) {
  grtc_ttype_t types[64];
  if (op->result_count > 64) return VERR(op, "has too many results");
  if (op->region_count == 0) return VERR(op, "has no branches");
  for (uint32_t i = 0; i < op->region_count; ++i) {
    // A symbolic result dimension whose branches yield different extents
    // (grtc_branch_dim_varies) is related to none of them: the host
    // program passes the taken branch's extent on. Otherwise every branch
    // yields the result's extent.
    const grtc_top_t* yield = op->regions[i] ? op->regions[i]->last : NULL;
    for (uint32_t r = 0; r < op->result_count; ++r) {
      types[r] = op->results[r].type;
      for (uint32_t d = 0; d < types[r].rank; ++d) {
        if (grtc_branch_dim_varies(v->module, op, r, d)) {
          types[r].dims[d] = yield->operands[r]->type.dims[d];
        }
      }
    }
    char what[32];
    snprintf(what, sizeof(what), "branch %u", i);
    GRT_RETURN_IF_ERROR(grtc_verify_region(v, op, i, what, types, 0, types,
                                           op->result_count));
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_if(grtc_verifier_t* v, const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 1, 1, op->result_count));
  const grtc_ttype_t* pred = grtc_vop(op, 0);
  if (pred->rank != 0 || pred->elem != GRTC_ELEM_I1) {
    return VERR(op, "predicate type %s is not tensor<i1>", grtc_vfmt(v, pred));
  }
  if (op->region_count != 2) {
    return VERR(op, "has %u regions, expected 2", op->region_count);
  }
  return grtc_verify_branches(v, op);
}

static grt_status_t grtc_verify_case(grtc_verifier_t* v, const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 1, 1, op->result_count));
  const grtc_ttype_t* index = grtc_vop(op, 0);
  if (index->rank != 0 || index->elem != GRTC_ELEM_I32) {
    return VERR(op, "index type %s is not tensor<i32>", grtc_vfmt(v, index));
  }
  return grtc_verify_branches(v, op);
}

// Operand (or result) types against an expected list, naming |what|.
static grt_status_t grtc_verify_type_list(grtc_verifier_t* v,
                                          const grtc_top_t* op,
                                          const char* what,
                                          const grtc_ttype_t* got,
                                          uint32_t got_count,
                                          uint32_t got_stride,
                                          const grtc_ttype_t* expected,
                                          uint32_t expected_count,
                                          const char* expected_what) {
  if (got_count != expected_count) {
    return VERR(op, "has %u %ss, %s has %u", got_count, what, expected_what,
                expected_count);
  }
  for (uint32_t i = 0; i < got_count; ++i) {
    const grtc_ttype_t* type =
        (const grtc_ttype_t*)((const char*)got + (size_t)i * got_stride);
    bool same = type->elem == expected[i].elem &&
                type->rank == expected[i].rank;
    for (uint32_t d = 0; same && d < type->rank; ++d) {
      // A call instantiates its callee's symbols afresh at every call:
      // only static sizes are compared across it (the host program checks
      // the rest when the callee runs). In one function they are related.
      same = op->kind == GRTC_TOP_CALL
                 ? !grtc_dim_is_static(type->dims[d]) ||
                       !grtc_dim_is_static(expected[i].dims[d]) ||
                       type->dims[d] == expected[i].dims[d]
                 : grtc_vsame(v, op, type->dims[d], expected[i].dims[d],
                              "returned value");
    }
    if (!same) {
      return VERR(op, "%s %u has type %s, %s has %s", what, i,
                  grtc_vfmt(v, type), expected_what,
                  grtc_vfmt(v, &expected[i]));
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_call(grtc_verifier_t* v, const grtc_top_t* op) {
  const grtc_tfunc_t* callee = op->attrs.callee;
  if (!callee) return VERR(op, "has no callee");
  grtc_ttype_t operands[64], args[64];
  if (op->operand_count > 64 || callee->body->arg_count > 64) {
    return VERR(op, "has too many operands");
  }
  for (uint32_t i = 0; i < callee->body->arg_count; ++i) {
    args[i] = callee->body->args[i].type;
  }
  char what[160];
  snprintf(what, sizeof(what), "@%.*s", (int)callee->name.size,
           callee->name.data);
  GRT_RETURN_IF_ERROR(grtc_verify_type_list(
      v, op, "operand", grtc_operand_types(op, operands), op->operand_count,
      sizeof(grtc_ttype_t), args, callee->body->arg_count, what));
  GRT_RETURN_IF_ERROR(grtc_verify_type_list(
      v, op, "result", op->results ? &op->results[0].type : NULL,
      op->result_count, sizeof(grtc_tvalue_t), callee->result_types,
      callee->result_count, what));
  // What the callee's relations prove about its results carries over: a
  // result dimension of a static size, or equal to one of its arguments'
  // dimensions, is that size or this call's operand dimension.
  for (uint32_t i = 0; i < op->result_count; ++i) {
    const grtc_ttype_t* type = &op->results[i].type;
    for (uint32_t d = 0; d < type->rank; ++d) {
      int64_t proven =
          grtc_tmodule_resolve_dim(v->module, callee->result_types[i].dims[d]);
      int64_t dim = proven;
      if (!grtc_dim_is_static(proven)) {
        const grtc_tsym_t* sym =
            &v->module->shapes->syms[grtc_dim_symbol(proven)];
        if (sym->origin != GRTC_SYM_ARGUMENT || sym->func != callee ||
            sym->index >= op->operand_count ||
            sym->axis >= op->operands[sym->index]->type.rank) {
          continue;
        }
        dim = op->operands[sym->index]->type.dims[sym->axis];
      }
      if (!grtc_vsame(v, op, type->dims[d], dim, "callee result")) {
        return VERR(op, "result %u dimension %u of %s differs from what %s "
                    "returns there (%lld)", i, d, grtc_vfmt(v, type), what,
                    (long long)grtc_tmodule_resolve_dim(v->module, dim));
      }
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_return(grtc_verifier_t* v,
                                       const grtc_top_t* op) {
  if (op->parent->parent_op) {
    return VERR(op, "is only valid in a function body");
  }
  grtc_ttype_t operands[64];
  if (op->operand_count > 64) return VERR(op, "has too many operands");
  char what[160];
  snprintf(what, sizeof(what), "@%.*s", (int)v->func->name.size,
           v->func->name.data);
  return grtc_verify_type_list(v, op, "operand",
                               grtc_operand_types(op, operands),
                               op->operand_count, sizeof(grtc_ttype_t),
                               v->func->result_types, v->func->result_count,
                               what);
}

// Yield operands are checked by the op owning the region.
static grt_status_t grtc_verify_yield(grtc_verifier_t* v,
                                      const grtc_top_t* op) {
  if (!op->parent->parent_op) {
    return VERR(op, "is only valid inside an op's region");
  }
  return grtc_verify_counts(v, op, 0, UINT32_MAX, 0);
}

static grt_status_t grtc_verify_optimization_barrier(grtc_verifier_t* v,
                                                     const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(
      grtc_verify_counts(v, op, 0, UINT32_MAX, op->operand_count));
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_verify_result(v, op, i, grtc_vop(op, i)));
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_check_eq(grtc_verifier_t* v,
                                         const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 2, 2, 0));
  GRT_RETURN_IF_ERROR(
      grtc_verify_same_types(v, op, grtc_vop(op, 0), grtc_vop(op, 1)));
  if ((op->kind == GRTC_TOP_CHECK_ALMOST_EQ ||
       op->kind == GRTC_TOP_CHECK_CLOSE) &&
      !grtc_elem_is_float(grtc_vop(op, 0)->elem)) {
    return VERR(op, "compares floats, got %s", grtc_vfmt(v, grtc_vop(op, 0)));
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_check_bool(grtc_verifier_t* v,
                                           const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 1, 1, 0));
  const grtc_ttype_t* type = grtc_vop(op, 0);
  if (type->rank != 0 || !grtc_elem_is_integer(type->elem)) {
    return VERR(op, "takes a rank-0 integer or i1 tensor, got %s",
                grtc_vfmt(v, type));
  }
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Shape ops (symbolic shapes)
//===----------------------------------------------------------------------===//

static grt_status_t grtc_verify_get_dimension_size(grtc_verifier_t* v,
                                                   const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 1, 1, 1));
  const grtc_ttype_t* in = grtc_vop(op, 0);
  const grtc_ttype_t* out = &op->results[0].type;
  if (op->attrs.dim < 0 || op->attrs.dim >= (int64_t)in->rank) {
    return VERR(op, "dimension %lld is out of range for %s",
                (long long)op->attrs.dim, grtc_vfmt(v, in));
  }
  if (out->rank != 0 ||
      (out->elem != GRTC_ELEM_I32 && out->elem != GRTC_ELEM_I64)) {
    return VERR(op, "result type %s is not tensor<i32> or tensor<i64>",
                grtc_vfmt(v, out));
  }
  return grt_ok_status();
}

// Operand |index|, a shape: a static rank-1 integer tensor of |length|.
static grt_status_t grtc_verify_shape_operand(grtc_verifier_t* v,
                                              const grtc_top_t* op,
                                              uint32_t index,
                                              const char* what,
                                              uint32_t length) {
  const grtc_ttype_t* type = grtc_vop(op, index);
  if (type->rank != 1 || !grtc_elem_is_integer(type->elem) ||
      type->elem == GRTC_ELEM_I1 || type->dims[0] != (int64_t)length) {
    return VERR(op, "%s has type %s, expected a rank-1 integer tensor of %u "
                "elements", what, grtc_vfmt(v, type), length);
  }
  return grt_ok_status();
}

// Result dimensions against the shape operand's elements where the
// program determines them (grtc_tvalue_shape_element).
static grt_status_t grtc_verify_result_shape(grtc_verifier_t* v,
                                             const grtc_top_t* op,
                                             uint32_t shape_operand) {
  const grtc_ttype_t* out = &op->results[0].type;
  for (uint32_t i = 0; i < out->rank; ++i) {
    int64_t dim = 0;
    if (!grtc_tvalue_shape_element(op->operands[shape_operand], i, &dim)) {
      continue;
    }
    if (grtc_dim_is_static(dim) && dim < 0) dim = 0;
    if (!grtc_vsame(v, op, out->dims[i], dim, "output shape")) {
      char described[160];
      return VERR(op, "result dimension %u of %s differs from element %u of "
                  "its shape operand (%s)", i, grtc_vfmt(v, out), i,
                  grtc_tmodule_describe_dim(v->module, dim, described,
                                            sizeof(described)));
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_dynamic_broadcast_in_dim(grtc_verifier_t* v,
                                                         const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 2, 2, 1));
  const grtc_ttype_t* in = grtc_vop(op, 0);
  const grtc_ttype_t* out = &op->results[0].type;
  GRT_RETURN_IF_ERROR(grtc_verify_elem(v, op, "result", out->elem, in->elem));
  GRT_RETURN_IF_ERROR(grtc_verify_shape_operand(v, op, 1, "output_dimensions",
                                                out->rank));
  GRT_RETURN_IF_ERROR(grtc_verify_list_size(v, op, "broadcast_dimensions",
                                            op->attrs.dims, in->rank,
                                            "the operand's rank"));
  GRT_RETURN_IF_ERROR(grtc_verify_dim_list(v, op, "broadcast_dimensions",
                                           op->attrs.dims, out->rank));
  for (uint32_t i = 0; i < in->rank; ++i) {
    int64_t size = out->dims[op->attrs.dims.values[i]];
    if (grtc_dim_is_static(in->dims[i]) && grtc_dim_is_static(size) &&
        in->dims[i] != 1 && in->dims[i] != size) {
      return VERR(op, "operand dimension %u of %s is neither 1 nor the "
                  "size of result dimension %lld in %s", i, grtc_vfmt(v, in),
                  (long long)op->attrs.dims.values[i], grtc_vfmt(v, out));
    }
  }
  return grtc_verify_result_shape(v, op, 1);
}

static grt_status_t grtc_verify_dynamic_reshape(grtc_verifier_t* v,
                                                const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 2, 2, 1));
  const grtc_ttype_t* in = grtc_vop(op, 0);
  const grtc_ttype_t* out = &op->results[0].type;
  GRT_RETURN_IF_ERROR(grtc_verify_elem(v, op, "result", out->elem, in->elem));
  GRT_RETURN_IF_ERROR(
      grtc_verify_shape_operand(v, op, 1, "output_shape", out->rank));
  GRT_RETURN_IF_ERROR(grtc_verify_result_shape(v, op, 1));
  if (grtc_ttype_is_static(in) && grtc_ttype_is_static(out) &&
      grtc_ttype_element_count(in) != grtc_ttype_element_count(out)) {
    return VERR(op, "cannot reshape %s to %s", grtc_vfmt(v, in),
                grtc_vfmt(v, out));
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_dynamic_iota(grtc_verifier_t* v,
                                             const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 1, 1, 1));
  const grtc_ttype_t* out = &op->results[0].type;
  GRT_RETURN_IF_ERROR(
      grtc_verify_shape_operand(v, op, 0, "output_shape", out->rank));
  if (op->attrs.dim < 0 || op->attrs.dim >= (int64_t)out->rank) {
    return VERR(op, "iota_dimension %lld is out of range for %s",
                (long long)op->attrs.dim, grtc_vfmt(v, out));
  }
  return grtc_verify_result_shape(v, op, 0);
}

// The three rank-long shape operands from |first| on (real_dynamic_slice's
// start/limit/strides, dynamic_pad's low/high/interior) and a result of
// the operand's rank.
static grt_status_t grtc_verify_shape_triple(grtc_verifier_t* v, const grtc_top_t* op,
                                             uint32_t first, const char* const names[3],
                                             const grtc_ttype_t* in,
                                             const grtc_ttype_t* out) {
  for (uint32_t i = 0; i < 3; ++i) {
    GRT_RETURN_IF_ERROR(grtc_verify_shape_operand(v, op, first + i, names[i], in->rank));
  }
  if (out->rank != in->rank) {
    return VERR(op, "result type %s differs in rank from %s",
                grtc_vfmt(v, out), grtc_vfmt(v, in));
  }
  return grt_ok_status();
}

// Element |i| of each of those three operands; false unless all are known
// and static.
static bool grtc_static_shape_triple(const grtc_top_t* op, uint32_t first, uint32_t i,
                                     int64_t values[3]) {
  for (uint32_t k = 0; k < 3; ++k) {
    if (!grtc_tvalue_shape_element(op->operands[first + k], i, &values[k]) ||
        !grtc_dim_is_static(values[k])) {
      return false;
    }
  }
  return true;
}

static grt_status_t grtc_verify_real_dynamic_slice(grtc_verifier_t* v,
                                                   const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 4, 4, 1));
  const grtc_ttype_t* in = grtc_vop(op, 0);
  const grtc_ttype_t* out = &op->results[0].type;
  GRT_RETURN_IF_ERROR(grtc_verify_elem(v, op, "result", out->elem, in->elem));
  static const char* const names[3] = {"start_indices", "limit_indices",
                                       "strides"};
  GRT_RETURN_IF_ERROR(grtc_verify_shape_triple(v, op, 1, names, in, out));
  for (uint32_t i = 0; i < in->rank; ++i) {
    int64_t values[3];
    if (!grtc_static_shape_triple(op, 1, i, values)) continue;
    int64_t start = values[0], limit = values[1], stride = values[2];
    if (start > limit || stride < 1 ||
        !grtc_vat_least(v, op, in->dims[i], limit, "slice limit")) {
      return VERR(op, "dimension %u: start %lld, limit %lld and stride %lld "
                  "do not slice %s", i, (long long)start, (long long)limit,
                  (long long)stride, grtc_vfmt(v, in));
    }
    if (!grtc_vsame(v, op, out->dims[i], (limit - start + stride - 1) / stride,
                    "output shape")) {
      return VERR(op, "result dimension %u of %s differs from the slice's "
                  "size %lld", i, grtc_vfmt(v, out),
                  (long long)((limit - start + stride - 1) / stride));
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_dynamic_pad(grtc_verifier_t* v,
                                            const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 5, 5, 1));
  const grtc_ttype_t* in = grtc_vop(op, 0);
  const grtc_ttype_t* out = &op->results[0].type;
  GRT_RETURN_IF_ERROR(grtc_verify_rank0(v, op, "padding value", grtc_vop(op, 1)));
  GRT_RETURN_IF_ERROR(grtc_verify_elem(v, op, "padding value",
                                       grtc_vop(op, 1)->elem, in->elem));
  GRT_RETURN_IF_ERROR(grtc_verify_elem(v, op, "result", out->elem, in->elem));
  static const char* const names[3] = {"edge_padding_low", "edge_padding_high",
                                       "interior_padding"};
  GRT_RETURN_IF_ERROR(grtc_verify_shape_triple(v, op, 2, names, in, out));
  for (uint32_t i = 0; i < in->rank; ++i) {
    int64_t values[3];
    int64_t size = grtc_tmodule_resolve_dim(v->module, in->dims[i]);
    if (!grtc_dim_is_static(size) || !grtc_static_shape_triple(op, 2, i, values)) {
      continue;  // (negative padding reads as unknown here)
    }
    int64_t low = values[0], high = values[1], interior = values[2];
    int64_t padded = low + high + size + (size > 0 ? (size - 1) * interior : 0);
    if (!grtc_vsame(v, op, out->dims[i], padded, "output shape")) {
      return VERR(op, "result dimension %u of %s differs from the padded "
                  "size %lld", i, grtc_vfmt(v, out), (long long)padded);
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_verify_shape_assertion(grtc_verifier_t* v,
                                                const grtc_top_t* op) {
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, 1, UINT32_MAX, 0));
  const grtc_ttype_t* assertion = grtc_vop(op, 0);
  if (assertion->rank != 0 || assertion->elem != GRTC_ELEM_I1) {
    return VERR(op, "assertion operand has type %s, expected tensor<i1>",
                grtc_vfmt(v, assertion));
  }
  for (uint32_t i = 1; i < op->operand_count; ++i) {
    const grtc_ttype_t* type = grtc_vop(op, i);
    if (type->rank != 0 || !grtc_elem_is_integer(type->elem)) {
      return VERR(op, "error message operand %u has type %s, expected a "
                  "rank-0 integer tensor", i - 1, grtc_vfmt(v, type));
    }
  }
  if (!op->attrs.message) return VERR(op, "has no error_message");
  return grt_ok_status();
}

// Kinds whose checks above handle symbolic dimensions; any other op with a
// symbolic operand or result dimension is refused by name.
static bool grtc_verify_takes_symbolic(grtc_top_kind_t kind) {
  switch (kind) {
    case GRTC_TOP_SELECT:
    case GRTC_TOP_CLAMP:
    case GRTC_TOP_COMPARE:
    case GRTC_TOP_CONVERT:
    case GRTC_TOP_BROADCAST_IN_DIM:
    case GRTC_TOP_RESHAPE:
    case GRTC_TOP_TRANSPOSE:
    case GRTC_TOP_SLICE:
    case GRTC_TOP_CONCATENATE:
    case GRTC_TOP_PAD:
    case GRTC_TOP_REVERSE:
    case GRTC_TOP_DOT_GENERAL:
    case GRTC_TOP_CONVOLUTION:
    case GRTC_TOP_REDUCE:
    case GRTC_TOP_GATHER:
    case GRTC_TOP_SCATTER:  // a symbolic number of updates
    case GRTC_TOP_REDUCE_WINDOW:
    case GRTC_TOP_GET_DIMENSION_SIZE:
    case GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM:
    case GRTC_TOP_DYNAMIC_RESHAPE:
    case GRTC_TOP_DYNAMIC_IOTA:
    case GRTC_TOP_REAL_DYNAMIC_SLICE:
    case GRTC_TOP_DYNAMIC_PAD:
    case GRTC_TOP_DYNAMIC_SLICE:  // a symbolic operand, static sizes
    case GRTC_TOP_SHAPE_ASSERTION:
    case GRTC_TOP_CALL:
    case GRTC_TOP_RETURN:
    case GRTC_TOP_YIELD:
    case GRTC_TOP_WHILE:  // carried extents (grtc_verify_while)
    case GRTC_TOP_IF:     // results of the branch taken (grtc_verify_branches)
    case GRTC_TOP_CASE:
    case GRTC_TOP_OPTIMIZATION_BARRIER:
    case GRTC_TOP_CHECK_EQ:
    case GRTC_TOP_CHECK_ALMOST_EQ:
    case GRTC_TOP_CHECK_CLOSE:
      return true;
    default:
      return grtc_top_kind_scalar_op(kind) != GRTC_SCALAR_NONE;
  }
}

// util.global.load / util.global.store: the global's type, exactly.
static grt_status_t grtc_verify_global(grtc_verifier_t* v, const grtc_top_t* op) {
  bool load = op->kind == GRTC_TOP_GLOBAL_LOAD;
  GRT_RETURN_IF_ERROR(grtc_verify_counts(v, op, load ? 0 : 1, load ? 0 : 1, load ? 1 : 0));
  const grtc_tglobal_t* global = op->attrs.global;
  if (!global) return VERR(op, "names no global");
  const grtc_ttype_t* type = load ? &op->results[0].type : grtc_vop(op, 0);
  if (!grtc_ttype_equal(type, &global->type)) {
    return VERR(op, "%s '@%.*s' of type %s as %s", load ? "loads" : "stores to",
                GRT_SV_ARG(global->name), grtc_vfmt(v, &global->type), grtc_vfmt(v, type));
  }
  return grt_ok_status();
}

// Kernels are checked by their own verifier; only the tie is checked here.
static grt_status_t grtc_verify_dispatch(grtc_verifier_t* v,
                                         const grtc_top_t* op) {
  if (op->attrs.tied) {
    if (op->attrs.tied_operand >= op->operand_count || op->result_count == 0 ||
        !grtc_ttype_equal(grtc_vop(op, op->attrs.tied_operand),
                          &op->results[0].type)) {
      return VERR(op, "ties result 0 to operand %u of another type",
                  op->attrs.tied_operand);
    }
  }
  return grt_ok_status();
}

static grtc_verify_fn_t grtc_verify_fn(grtc_top_kind_t kind) {
  switch (kind) {
    case GRTC_TOP_CONSTANT: return grtc_verify_constant;
    case GRTC_TOP_IOTA: return grtc_verify_iota;
    case GRTC_TOP_SELECT: return grtc_verify_select;
    case GRTC_TOP_CLAMP: return grtc_verify_clamp;
    case GRTC_TOP_COMPARE: return grtc_verify_compare;
    case GRTC_TOP_CONVERT: return grtc_verify_convert;
    case GRTC_TOP_BITCAST_CONVERT: return grtc_verify_bitcast_convert;
    case GRTC_TOP_BROADCAST_IN_DIM: return grtc_verify_broadcast_in_dim;
    case GRTC_TOP_RESHAPE: return grtc_verify_reshape;
    case GRTC_TOP_TRANSPOSE: return grtc_verify_transpose;
    case GRTC_TOP_SLICE: return grtc_verify_slice;
    case GRTC_TOP_DYNAMIC_SLICE: return grtc_verify_dynamic_slice;
    case GRTC_TOP_DYNAMIC_UPDATE_SLICE: return grtc_verify_dynamic_update_slice;
    case GRTC_TOP_CONCATENATE: return grtc_verify_concatenate;
    case GRTC_TOP_PAD: return grtc_verify_pad;
    case GRTC_TOP_REVERSE: return grtc_verify_reverse;
    case GRTC_TOP_DOT_GENERAL: return grtc_verify_dot_general;
    case GRTC_TOP_CONVOLUTION: return grtc_verify_convolution;
    case GRTC_TOP_REDUCE: return grtc_verify_reduce;
    case GRTC_TOP_REDUCE_WINDOW: return grtc_verify_reduce_window;
    case GRTC_TOP_GATHER: return grtc_verify_gather;
    case GRTC_TOP_SCATTER: return grtc_verify_scatter;
    case GRTC_TOP_SORT: return grtc_verify_sort;
    case GRTC_TOP_WHILE: return grtc_verify_while;
    case GRTC_TOP_IF: return grtc_verify_if;
    case GRTC_TOP_CASE: return grtc_verify_case;
    case GRTC_TOP_CALL: return grtc_verify_call;
    case GRTC_TOP_RETURN: return grtc_verify_return;
    case GRTC_TOP_YIELD: return grtc_verify_yield;
    case GRTC_TOP_OPTIMIZATION_BARRIER: return grtc_verify_optimization_barrier;
    case GRTC_TOP_CHECK_EQ:
    case GRTC_TOP_CHECK_ALMOST_EQ: return grtc_verify_check_eq;
    case GRTC_TOP_CHECK_CLOSE: return grtc_verify_check_eq;
    case GRTC_TOP_CHECK_TRUE:
    case GRTC_TOP_CHECK_FALSE: return grtc_verify_check_bool;
    case GRTC_TOP_DISPATCH: return grtc_verify_dispatch;
    case GRTC_TOP_GLOBAL_LOAD:
    case GRTC_TOP_GLOBAL_STORE: return grtc_verify_global;
    case GRTC_TOP_GET_DIMENSION_SIZE: return grtc_verify_get_dimension_size;
    case GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM:
      return grtc_verify_dynamic_broadcast_in_dim;
    case GRTC_TOP_DYNAMIC_RESHAPE: return grtc_verify_dynamic_reshape;
    case GRTC_TOP_DYNAMIC_IOTA: return grtc_verify_dynamic_iota;
    case GRTC_TOP_REAL_DYNAMIC_SLICE: return grtc_verify_real_dynamic_slice;
    case GRTC_TOP_DYNAMIC_PAD: return grtc_verify_dynamic_pad;
    case GRTC_TOP_SHAPE_ASSERTION: return grtc_verify_shape_assertion;
    default:
      return grtc_top_kind_scalar_op(kind) != GRTC_SCALAR_NONE
                 ? grtc_verify_elementwise
                 : NULL;
  }
}

// Types every later check indexes by: a known element type, rank within
// GRTC_MAX_RANK, dimensions static or symbols of the module.
static bool grtc_ttype_valid(const grtc_tmodule_t* module,
                             const grtc_ttype_t* type) {
  if (type->elem >= GRTC_ELEM_COUNT || type->rank > GRTC_MAX_RANK) return false;
  for (uint32_t i = 0; i < type->rank; ++i) {
    if (!grtc_dim_is_static(type->dims[i]) &&
        grtc_dim_symbol(type->dims[i]) >= module->shapes->sym_count) {
      return false;
    }
  }
  return true;
}

// The first symbolic dimension among |op|'s operands and results, as
// "result 0 dimension 1" in |where|; false when all are static.
static bool grtc_first_symbolic(const grtc_top_t* op, char* where,
                                size_t capacity, int64_t* out_dim) {
  for (uint32_t r = 0; r < op->result_count; ++r) {
    const grtc_ttype_t* type = &op->results[r].type;
    for (uint32_t i = 0; i < type->rank; ++i) {
      if (grtc_dim_is_static(type->dims[i])) continue;
      snprintf(where, capacity, "result %u dimension %u", r, i);
      *out_dim = type->dims[i];
      return true;
    }
  }
  for (uint32_t o = 0; o < op->operand_count; ++o) {
    const grtc_ttype_t* type = &op->operands[o]->type;
    for (uint32_t i = 0; i < type->rank; ++i) {
      if (grtc_dim_is_static(type->dims[i])) continue;
      snprintf(where, capacity, "operand %u dimension %u", o, i);
      *out_dim = type->dims[i];
      return true;
    }
  }
  return false;
}

static grt_status_t grtc_verify_op(grtc_verifier_t* v, const grtc_top_t* op) {
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    if (!op->operands[i]) return VERR(op, "operand %u is missing", i);
    if (!grtc_ttype_valid(v->module, &op->operands[i]->type)) {
      return VERR(op, "operand %u has an invalid type", i);
    }
  }
  for (uint32_t i = 0; i < op->result_count; ++i) {
    if (!grtc_ttype_valid(v->module, &op->results[i].type)) {
      return VERR(op, "result %u has an invalid type", i);
    }
  }
  for (uint32_t i = 0; i < op->region_count; ++i) {
    if (!op->regions[i]) return VERR(op, "region %u is missing", i);
  }
  grtc_verify_fn_t fn = grtc_verify_fn(op->kind);
  if (!fn) return VERR(op, "has the unknown kind %d", (int)op->kind);
  char where[64];
  int64_t symbolic = 0;
  if (!grtc_verify_takes_symbolic(op->kind) &&
      grtc_first_symbolic(op, where, sizeof(where), &symbolic)) {
    char described[192];
    return VERR(op, "%s is symbolic (%s); this op takes static shapes only",
                where, grtc_tmodule_describe_dim(v->module, symbolic,
                                                 described,
                                                 sizeof(described)));
  }
  // Regions first: their ops' own errors are more precise than the parent's
  // view of the region's signature.
  for (uint32_t i = 0; i < op->region_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_verify_block(v, op->regions[i]));
  }
  grt_status_t status = fn(v, op);
  if (!grt_status_is_ok(v->status)) {
    if (grt_status_is_ok(status)) {
      status = v->status;
    } else {
      grt_status_free(v->status);
    }
    v->status = grt_ok_status();
  }
  return status;
}

static grt_status_t grtc_verify_block(grtc_verifier_t* v,
                                      const grtc_tblock_t* block) {
  grtc_top_kind_t terminator =
      block->parent_op ? GRTC_TOP_YIELD : GRTC_TOP_RETURN;
  for (const grtc_top_t* op = block->first; op; op = op->next) {
    if ((op->kind == GRTC_TOP_YIELD || op->kind == GRTC_TOP_RETURN) &&
        op->next) {
      return VERR(op, "must be the last op of its block");
    }
    GRT_RETURN_IF_ERROR(grtc_verify_op(v, op));
  }
  if (!block->parent_op &&
      (!block->last || block->last->kind != terminator)) {
    // At the function's loc(...) when it has one, like grtc_top_error.
    const grtc_tfunc_t* func = v->func;
    grt_string_view_t file = grt_make_cstring_view(v->module->file_name);
    uint32_t line = func->line, column = func->column;
    grt_string_view_t loc_file;
    uint32_t loc_line = 0, loc_column = 0;
    if (func->location &&
        grtc_location_file_position(func->location, &loc_file, &loc_line,
                                    &loc_column)) {
      file = loc_file;
      line = loc_line;
      column = loc_column;
    }
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%.*s:%u:%u: error: function @%.*s does not end in "
                           "func.return",
                           (int)file.size, file.data, line, column,
                           (int)func->name.size, func->name.data);
  }
  return grt_ok_status();
}

grt_status_t grtc_tensor_verify(const grtc_tmodule_t* module) {
  grtc_verifier_t v;
  memset(&v, 0, sizeof(v));
  v.module = module;
  for (const grtc_tfunc_t* func = module->first_func; func; func = func->next) {
    v.func = func;
    GRT_RETURN_IF_ERROR(grtc_verify_block(&v, func->body));
  }
  return grt_ok_status();
}

grt_status_t grtc_tensor_verify_op(const grtc_tmodule_t* module,
                                   const grtc_top_t* op) {
  grtc_verifier_t v;
  memset(&v, 0, sizeof(v));
  v.module = module;
  v.func = op->parent ? op->parent->func : NULL;
  return grtc_verify_op(&v, op);
}

//===----------------------------------------------------------------------===//
// The static boundary
//===----------------------------------------------------------------------===//

#define GRTC_NOT_YET "not supported yet"

// Op kinds the kernels and the host program take with symbolic dimensions.
static bool grtc_symbolic_kind_supported(grtc_top_kind_t kind) {
  if (grtc_top_kind_scalar_op(kind) != GRTC_SCALAR_NONE) return true;
  switch (kind) {
    case GRTC_TOP_COMPARE:
    case GRTC_TOP_CONVERT:
    case GRTC_TOP_BITCAST_CONVERT:
    case GRTC_TOP_BROADCAST_IN_DIM:
    case GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM:
    case GRTC_TOP_RESHAPE:
    case GRTC_TOP_DYNAMIC_RESHAPE:
    case GRTC_TOP_TRANSPOSE:
    case GRTC_TOP_SLICE:
    case GRTC_TOP_REVERSE:
    case GRTC_TOP_IOTA:
    case GRTC_TOP_DYNAMIC_IOTA:
    case GRTC_TOP_GET_DIMENSION_SIZE:
    case GRTC_TOP_REDUCE:
    case GRTC_TOP_REDUCE_WINDOW:
    case GRTC_TOP_DOT_GENERAL:
    case GRTC_TOP_CONVOLUTION:
    case GRTC_TOP_CONCATENATE:
    case GRTC_TOP_PAD:
    case GRTC_TOP_GATHER:
    case GRTC_TOP_SCATTER:  // a symbolic number of updates
    case GRTC_TOP_DYNAMIC_SLICE:  // start indices clamped to the extent
    case GRTC_TOP_OPTIMIZATION_BARRIER:
    case GRTC_TOP_SHAPE_ASSERTION:  // checked by the host program at the call
    case GRTC_TOP_CALL:             // symbols passed to the callee
    case GRTC_TOP_CHECK_EQ:
    case GRTC_TOP_CHECK_ALMOST_EQ:
    case GRTC_TOP_CHECK_CLOSE:
    case GRTC_TOP_RETURN:
    case GRTC_TOP_YIELD:
    case GRTC_TOP_WHILE:  // carried extents, also ones the body changes
    case GRTC_TOP_IF:     // results whose extents the branch taken decides
    case GRTC_TOP_CASE:
      return true;
    default:
      return false;
  }
}

// A symbolic |dim| the host program cannot supply: its class has no
// argument dimension to read it from.
static bool grtc_symbol_derived(const grtc_tsym_t* sym) {
  // A concatenation's or padding's result dimension: the host program
  // derives it from the operands' dimensions by the op's shape rule.
  // A computed extent (grtc_prepare_computed_extents): from its
  // expression.
  if (sym->origin == GRTC_SYM_RESULT && sym->expr) return true;
  return sym->origin == GRTC_SYM_RESULT && sym->op && sym->index == 0 &&
         ((sym->op->kind == GRTC_TOP_CONCATENATE &&
           sym->op->attrs.dim == (int64_t)sym->axis) ||
          sym->op->kind == GRTC_TOP_PAD);
}

static bool grtc_symbol_computed(const grtc_tmodule_t* module, int64_t dim) {
  dim = grtc_tmodule_resolve_dim(module, dim);
  if (grtc_dim_is_static(dim)) return false;
  uint32_t rep = grtc_dim_symbol(dim);
  const grtc_tshapes_t* shapes = module->shapes;
  const grtc_tsym_t* sym = &shapes->syms[rep];
  if (sym->origin == GRTC_SYM_ARGUMENT || grtc_symbol_derived(sym)) return false;
  // A while loop's carried extent that changes in the loop (the host
  // program passes it from one iteration to the next), or a call's result
  // such a loop computes (the callee returns it).
  if (grtc_tmodule_dim_varies(module, dim)) return false;
  // A function's declared result joined to a derived dimension takes its
  // value from it.
  if (sym->origin == GRTC_SYM_RESULT && !sym->op) {
    for (uint32_t id = rep + 1; id < shapes->sym_count; ++id) {
      if (grtc_symbol_derived(&shapes->syms[id]) &&
          grtc_tmodule_resolve_dim(module, GRTC_DIM_SYMBOL(id)) == dim) {
        return false;
      }
    }
  }
  return true;
}

static bool grtc_first_computed(const grtc_tmodule_t* module,
                                const grtc_top_t* op, char* where,
                                size_t capacity, int64_t* out_dim) {
  for (uint32_t r = 0; r < op->result_count; ++r) {
    const grtc_ttype_t* type = &op->results[r].type;
    for (uint32_t i = 0; i < type->rank; ++i) {
      if (!grtc_symbol_computed(module, type->dims[i])) continue;
      snprintf(where, capacity, "result %u dimension %u", r, i);
      *out_dim = type->dims[i];
      return true;
    }
  }
  for (uint32_t o = 0; o < op->operand_count; ++o) {
    const grtc_ttype_t* type = &op->operands[o]->type;
    for (uint32_t i = 0; i < type->rank; ++i) {
      if (!grtc_symbol_computed(module, type->dims[i])) continue;
      snprintf(where, capacity, "operand %u dimension %u", o, i);
      *out_dim = type->dims[i];
      return true;
    }
  }
  return false;
}

// Whether result dimension |axis| of |op| is a computed extent whose
// expression is |op|'s own shape operand element (nothing to check).
static bool grtc_defines_computed_extent(const grtc_verifier_t* v,
                                         const grtc_top_t* op, uint32_t axis) {
  const grtc_tshapes_t* shapes = v->module->shapes;
  int64_t rep = grtc_tmodule_resolve_dim(v->module,
                                         op->results[0].type.dims[axis]);
  for (uint32_t id = 0; shapes && id < shapes->sym_count; ++id) {
    const grtc_tsym_t* sym = &shapes->syms[id];
    if (sym->expr && sym->op == op && sym->axis == axis &&
        grtc_tmodule_resolve_dim(v->module, GRTC_DIM_SYMBOL(id)) == rep) {
      return true;
    }
  }
  return false;
}

// A shape operand element the program does not prove equal to its
// result's dimension (jax.export passes dimension variables as scalar
// arguments of the wrapped function): a check at the call, inserted after
// |op| as the ops
//   %e = reshape(slice(shape, [i:i+1]))   : the element
//   %d = convert(get_dimension_size(result, i))
//   shape_assertion(compare EQ %e, %d), %e, %d
// so the host program fails the call with a message naming the op.
static grt_status_t grtc_check_shape_element(grtc_verifier_t* v, grtc_top_t* op,
                                             grtc_tvalue_t* shape, uint32_t i) {
  grtc_tmodule_t* module = (grtc_tmodule_t*)v->module;
  grtc_elem_t elem = shape->type.elem;
  grtc_top_t* next = op->next;
  grtc_top_t* ops[6];
  uint32_t count = 0;
  grtc_ttype_t one = {elem, 1, {1}};
  grtc_ttype_t scalar = {elem, 0, {0}};
  grtc_ttype_t i32 = {GRTC_ELEM_I32, 0, {0}};
  grtc_ttype_t i1 = {GRTC_ELEM_I1, 0, {0}};
  grtc_top_t* slice = NULL;
  GRT_RETURN_IF_ERROR(grtc_top_create(module, GRTC_TOP_SLICE, &shape, 1, &one, 1, 0, &slice));
  int64_t start = i, limit = (int64_t)i + 1, stride = 1;
  slice->attrs.start = grtc_tmodule_i64s(module, &start, 1);
  slice->attrs.limit = grtc_tmodule_i64s(module, &limit, 1);
  slice->attrs.strides = grtc_tmodule_i64s(module, &stride, 1);
  ops[count++] = slice;
  grtc_tvalue_t* sliced = &slice->results[0];
  grtc_top_t* element = NULL;
  GRT_RETURN_IF_ERROR(grtc_top_create(module, GRTC_TOP_RESHAPE, &sliced, 1, &scalar, 1, 0, &element));
  ops[count++] = element;
  grtc_tvalue_t* result = &op->results[0];
  grtc_top_t* size = NULL;
  GRT_RETURN_IF_ERROR(grtc_top_create(module, GRTC_TOP_GET_DIMENSION_SIZE, &result, 1, &i32, 1, 0, &size));
  size->attrs.dim = i;
  ops[count++] = size;
  grtc_tvalue_t* dim = &size->results[0];
  if (elem != GRTC_ELEM_I32) {
    grtc_top_t* convert = NULL;
    GRT_RETURN_IF_ERROR(grtc_top_create(module, GRTC_TOP_CONVERT, &dim, 1, &scalar, 1, 0, &convert));
    ops[count++] = convert;
    dim = &convert->results[0];
  }
  grtc_tvalue_t* pair[2] = {&element->results[0], dim};
  grtc_top_t* compare = NULL;
  GRT_RETURN_IF_ERROR(grtc_top_create(module, GRTC_TOP_COMPARE, pair, 2, &i1, 1, 0, &compare));
  compare->attrs.compare_direction = GRTC_CMP_EQ;
  compare->attrs.compare_type = grtc_elem_is_signed_integer(elem) ? GRTC_CMP_TYPE_SIGNED
                                                                   : GRTC_CMP_TYPE_UNSIGNED;
  ops[count++] = compare;
  grtc_tvalue_t* operands[3] = {&compare->results[0], pair[0], pair[1]};
  grtc_top_t* assertion = NULL;
  GRT_RETURN_IF_ERROR(grtc_top_create(module, GRTC_TOP_SHAPE_ASSERTION, operands, 3, NULL, 0, 0, &assertion));
  char text[256];
  snprintf(text, sizeof(text),
           "'%s' at %u:%u: element %u of its shape operand is {0}, but dimension %u of its "
           "result is {1}",
           grtc_top_kind_name(op->kind), op->line, op->column, i, i);
  size_t length = strlen(text) + 1;
  void* message = NULL;
  GRT_RETURN_IF_ERROR(grt_arena_allocate(&module->arena, length, &message));
  memcpy(message, text, length);
  assertion->attrs.message = message;
  ops[count++] = assertion;
  for (uint32_t k = 0; k < count; ++k) {
    grtc_top_copy_location(ops[k], op);
    if (next) {
      grtc_tblock_insert_before(next, ops[k]);
    } else {
      grtc_tblock_append(op->parent, ops[k]);
    }
  }
  return grt_ok_status();
}

// The symbol the importer made for result dimension |axis| of |op| (-1
// when the dimension was written static). With |computed|, only when its
// class takes its value from it (grtc_symbol_computed: nothing else, such
// as an argument or a derived extent, gives the class a value).
static int64_t grtc_own_symbol(const grtc_verifier_t* v, const grtc_top_t* op,
                               uint32_t axis, bool computed) {
  int64_t dim = op->results[0].type.dims[axis];
  if (computed && !grtc_symbol_computed(v->module, dim)) return -1;
  const grtc_tshapes_t* shapes = v->module->shapes;
  for (uint32_t id = 0; shapes && id < shapes->sym_count; ++id) {
    const grtc_tsym_t* sym = &shapes->syms[id];
    if (sym->origin == GRTC_SYM_RESULT && sym->op == op && sym->index == 0 &&
        sym->axis == axis) {
      return id;
    }
  }
  return -1;
}

// Constant element |i| of |value| (a real_dynamic_slice's start or
// strides), or false.
static bool grtc_constant_element(const grtc_tvalue_t* value, uint32_t i,
                                  int64_t* out) {
  return grtc_tvalue_shape_element(value, i, out) && grtc_dim_is_static(*out);
}

// Result dimension |i| of |op| whose extent element |i| of |operand| (its
// |what|: limit, edge_padding_high) computes: the op's own symbol for it
// and the element's expression; a diagnostic when the result dimension was
// written static or the element is not arithmetic on constants and
// dimensions.
static grt_status_t grtc_computed_symbol(grtc_verifier_t* v, const grtc_top_t* op,
                                         const grtc_tvalue_t* operand, uint32_t i,
                                         const char* what, int64_t* out_id,
                                         const grtc_sexpr_t** out_expr) {
  *out_id = grtc_own_symbol(v, op, i, false);
  *out_expr = NULL;
  // A dynamic_pad's padding and a real_dynamic_slice's limit may be read
  // from an argument's data (GRTC_SEXPR_DATA), as a dynamic_reshape's shape.
  bool data = op->kind == GRTC_TOP_DYNAMIC_PAD || op->kind == GRTC_TOP_REAL_DYNAMIC_SLICE;
  if (*out_id >= 0 &&
      (data ? grtc_tvalue_shape_expr_data((grtc_tmodule_t*)v->module, operand, i, out_expr)
            : grtc_tvalue_shape_expr((grtc_tmodule_t*)v->module, operand, i, out_expr))) {
    return grt_ok_status();
  }
  char described[192];
  return VERR(op, "%s element %u is computed at the call, but result "
              "dimension %u (%s) %s; " GRTC_NOT_YET, what, i, i,
              grtc_tmodule_describe_dim(v->module, op->results[0].type.dims[i],
                                        described, sizeof(described)),
              *out_id < 0 ? "was written static"
              : data      ? "is not integer arithmetic on constants, dimensions and "
                            "a function argument's i32 or i64 elements"
                          : "is not integer arithmetic on constants and "
                            "dimensions");
}

// Gives each symbol |ids[i]| with an expression |exprs[i]| (the op's
// computed extents) that expression.
static void grtc_set_computed(grtc_tmodule_t* module, const grtc_top_t* op,
                              const int64_t* ids, const grtc_sexpr_t* const* exprs,
                              uint32_t rank) {
  for (uint32_t i = 0; i < rank; ++i) {
    if (!exprs[i]) continue;
    module->shapes->syms[ids[i]].expr = exprs[i];
    module->shapes->syms[ids[i]].expr_op_kind = op->kind;
  }
}

// A real_dynamic_slice whose limits the program computes (starts and
// strides constant) becomes a slice whose symbolic result dimensions stand
// for their limits (grtc_verify_slice); each such dimension's symbol gets
// the expression ceil((limit - start) / stride), which the host program
// computes and checks against the operand at the call.
static grt_status_t grtc_prepare_dynamic_slice(grtc_verifier_t* v,
                                               grtc_top_t* op) {
  grtc_tmodule_t* module = (grtc_tmodule_t*)v->module;
  const grtc_ttype_t* in = &op->operands[0]->type;
  const grtc_ttype_t* out = &op->results[0].type;
  int64_t starts[GRTC_MAX_RANK], limits[GRTC_MAX_RANK], strides[GRTC_MAX_RANK];
  const grtc_sexpr_t* exprs[GRTC_MAX_RANK] = {0};
  int64_t ids[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < in->rank; ++i) {
    if (!grtc_constant_element(op->operands[1], i, &starts[i]) ||
        !grtc_constant_element(op->operands[3], i, &strides[i])) {
      return VERR(op, "has a start or stride element %u that is not a "
                  "constant; only its limits may be computed at the call",
                  i);
    }
    if (starts[i] < 0 || strides[i] < 1) {
      return VERR(op, "dimension %u: start %lld must be at least 0 and "
                  "stride %lld at least 1", i, (long long)starts[i],
                  (long long)strides[i]);
    }
    int64_t limit = 0;
    ids[i] = -1;
    if (grtc_constant_element(op->operands[2], i, &limit) &&
        grtc_dim_is_static(out->dims[i])) {
      limits[i] = limit;  // the slice's own rule (and its bound relation)
      continue;
    }
    // Computed (or a constant limit of a dimension the result leaves
    // symbolic): the op's own symbol gets the size's expression, which the
    // host program computes, checks, and gives the class or checks against
    // the value its class has (an argument dimension, a static size).
    const grtc_sexpr_t* l = NULL;
    GRT_RETURN_IF_ERROR(
        grtc_computed_symbol(v, op, op->operands[2], i, "limit", &ids[i], &l));
    const grtc_sexpr_t* span = grtc_tmodule_sexpr(
        module, GRTC_SEXPR_ADD, 0,
        grtc_tmodule_sexpr(module, GRTC_SEXPR_SUB, 0, l,
                        grtc_tmodule_sexpr(module, GRTC_SEXPR_CONST, starts[i], NULL,
                                        NULL)),
        grtc_tmodule_sexpr(module, GRTC_SEXPR_CONST, strides[i] - 1, NULL, NULL));
    exprs[i] = grtc_tmodule_sexpr(
        module, GRTC_SEXPR_DIV, 0, span,
        grtc_tmodule_sexpr(module, GRTC_SEXPR_CONST, strides[i], NULL, NULL));
    if (!exprs[i] || !span) {
      return VERR(op, "out of memory for its computed extents");
    }
    // The result's dimension stands for the limit (grtc_verify_slice); a
    // static one is the limit its size gives.
    int64_t size = grtc_tmodule_resolve_dim(v->module, out->dims[i]);
    limits[i] = !grtc_dim_is_static(size) ? size
                : size == 0               ? starts[i]
                                          : starts[i] + (size - 1) * strides[i] + 1;
  }
  grtc_set_computed(module, op, ids, exprs, in->rank);
  op->attrs.start = grtc_tmodule_i64s(module, starts, in->rank);
  op->attrs.limit = grtc_tmodule_i64s(module, limits, in->rank);
  op->attrs.strides = grtc_tmodule_i64s(module, strides, in->rank);
  op->kind = GRTC_TOP_SLICE;
  op->operand_count = 1;
  return grt_ok_status();
}

// A dynamic_pad whose edge_padding_high the program computes (low and
// interior padding constant: the kernels place the operand with them)
// becomes a pad whose symbolic result dimensions are computed extents:
// each such dimension's symbol gets the padded size's expression, low +
// high + size + interior * max(size - 1, 0), which the host program
// computes and checks non-negative at the call. Its edge_padding_high
// attribute holds 0 for those dimensions (grtc_verify_pad takes the
// result's symbol).
static grt_status_t grtc_prepare_dynamic_pad(grtc_verifier_t* v,
                                             grtc_top_t* op) {
  grtc_tmodule_t* module = (grtc_tmodule_t*)v->module;
  const grtc_ttype_t* in = &op->operands[0]->type;
  int64_t lows[GRTC_MAX_RANK], highs[GRTC_MAX_RANK], interiors[GRTC_MAX_RANK];
  int64_t low_syms[GRTC_MAX_RANK] = {0}, interior_syms[GRTC_MAX_RANK] = {0};
  bool computed_padding = false;
  const grtc_sexpr_t* exprs[GRTC_MAX_RANK] = {0};
  int64_t ids[GRTC_MAX_RANK];
#define GRTC_PAD_SEXPR(kind, value, a, b) grtc_tmodule_sexpr(module, kind, value, a, b)
  for (uint32_t i = 0; i < in->rank; ++i) {
    ids[i] = -1;
    // A computed edge_padding_low or interior_padding: a symbol of its own
    // (GRTC_SYM_PAD_LOW / _INTERIOR) whose expression the host program
    // computes and checks non-negative; the kernels take it as an extent.
    const grtc_sexpr_t* low_expr = NULL;
    const grtc_sexpr_t* interior_expr = NULL;
    for (int part = 0; part < 2; ++part) {
      const grtc_tvalue_t* operand = op->operands[part == 0 ? 2 : 4];
      int64_t* value = part == 0 ? &lows[i] : &interiors[i];
      if (grtc_constant_element(operand, i, value)) continue;
      const grtc_sexpr_t* expr = NULL;
      // Read from an argument's data (GRTC_SEXPR_DATA) at the call too.
      if (!grtc_tvalue_shape_expr_data(module, operand, i, &expr)) {
        return VERR(op, "has an %s element %u that is not integer arithmetic on "
                    "constants, dimensions and a function argument's i32 or i64 "
                    "elements (a value read from other tensor data); "
                    GRTC_NOT_YET, part == 0 ? "edge_padding_low" : "interior_padding", i);
      }
      int64_t dim = 0;
      GRT_RETURN_IF_ERROR(grtc_tmodule_new_symbol(
          module, v->func, GRTC_SYM_RESULT, op,
          part == 0 ? GRTC_SYM_PAD_LOW : GRTC_SYM_PAD_INTERIOR, i, &dim));
      module->shapes->syms[grtc_dim_symbol(dim)].expr = expr;
      module->shapes->syms[grtc_dim_symbol(dim)].expr_op_kind = op->kind;
      *value = 0;
      (part == 0 ? low_syms : interior_syms)[i] = dim;
      *(part == 0 ? &low_expr : &interior_expr) = expr;
      computed_padding = true;
    }
    if (interiors[i] < 0) {
      return VERR(op, "interior_padding[%u] = %lld is negative", i,
                  (long long)interiors[i]);
    }
    const grtc_sexpr_t* high = NULL;
    if (grtc_constant_element(op->operands[3], i, &highs[i])) {
      if (!low_expr && !interior_expr) continue;  // the pad's own rule
      high = GRTC_PAD_SEXPR(GRTC_SEXPR_CONST, highs[i], NULL, NULL);
      ids[i] = grtc_own_symbol(v, op, i, false);
      if (ids[i] < 0) {
        char described[192];
        return VERR(op, "edge_padding_low or interior_padding element %u is computed at the "
                    "call, but result dimension %u (%s) was written static; " GRTC_NOT_YET,
                    i, i, grtc_tmodule_describe_dim(v->module, op->results[0].type.dims[i],
                                                    described, sizeof(described)));
      }
    } else {
      GRT_RETURN_IF_ERROR(grtc_computed_symbol(v, op, op->operands[3], i,
                                               "edge_padding_high", &ids[i], &high));
    }
    highs[i] = 0;
    const grtc_sexpr_t* size = GRTC_PAD_SEXPR(GRTC_SEXPR_DIM, in->dims[i], NULL, NULL);
    const grtc_sexpr_t* gaps = GRTC_PAD_SEXPR(
        GRTC_SEXPR_MAX, 0,
        GRTC_PAD_SEXPR(GRTC_SEXPR_SUB, 0, size, GRTC_PAD_SEXPR(GRTC_SEXPR_CONST, 1, NULL, NULL)),
        GRTC_PAD_SEXPR(GRTC_SEXPR_CONST, 0, NULL, NULL));
    const grtc_sexpr_t* low = low_expr ? low_expr
                                       : GRTC_PAD_SEXPR(GRTC_SEXPR_CONST, lows[i], NULL, NULL);
    const grtc_sexpr_t* edges = GRTC_PAD_SEXPR(GRTC_SEXPR_ADD, 0, low, high);
    const grtc_sexpr_t* padded = GRTC_PAD_SEXPR(GRTC_SEXPR_ADD, 0, edges, size);
    const grtc_sexpr_t* interior =
        interior_expr ? interior_expr
                      : GRTC_PAD_SEXPR(GRTC_SEXPR_CONST, interiors[i], NULL, NULL);
    exprs[i] = !interior_expr && interiors[i] == 0
                   ? padded
                   : GRTC_PAD_SEXPR(GRTC_SEXPR_ADD, 0, padded,
                                    GRTC_PAD_SEXPR(GRTC_SEXPR_MUL, 0, gaps, interior));
    if (!exprs[i]) return VERR(op, "out of memory for its computed extents");
  }
#undef GRTC_PAD_SEXPR
  grtc_set_computed(module, op, ids, exprs, in->rank);
  op->attrs.low = grtc_tmodule_i64s(module, lows, in->rank);
  op->attrs.high = grtc_tmodule_i64s(module, highs, in->rank);
  op->attrs.interior = grtc_tmodule_i64s(module, interiors, in->rank);
  if (in->rank && (!op->attrs.low.values || !op->attrs.high.values ||
                   !op->attrs.interior.values)) {
    return VERR(op, "out of memory for its padding");
  }
  if (computed_padding) {
    op->attrs.computed_low = grtc_tmodule_i64s(module, low_syms, in->rank);
    op->attrs.computed_interior = grtc_tmodule_i64s(module, interior_syms, in->rank);
    if (!op->attrs.computed_low.values || !op->attrs.computed_interior.values) {
      return VERR(op, "out of memory for its padding");
    }
  }
  op->kind = GRTC_TOP_PAD;
  op->operand_count = 2;
  return grt_ok_status();
}

// Result dimensions of a dynamic op that the program computes from its
// shape operand (the element is arithmetic on constants and dimensions:
// `get_dimension_size(x, 0) * 16`) and that nothing else defines become
// computed extents: their symbol gets the element's expression, which the
// host program evaluates at the call (grtc_host_derive_symbols).
static grt_status_t grtc_prepare_computed_extents(grtc_verifier_t* v,
                                                  grtc_top_t* op) {
  if (op->result_count != 1) return grt_ok_status();
  const grtc_ttype_t* out = &op->results[0].type;
  // Folding made those with constant operands slices already.
  if (op->kind == GRTC_TOP_REAL_DYNAMIC_SLICE) {
    return grtc_prepare_dynamic_slice(v, op);
  }
  if (op->kind == GRTC_TOP_DYNAMIC_PAD) {
    return grtc_prepare_dynamic_pad(v, op);
  }
  if (op->kind != GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM &&
      op->kind != GRTC_TOP_DYNAMIC_RESHAPE &&
      op->kind != GRTC_TOP_DYNAMIC_IOTA) {
    return grt_ok_status();
  }
  const grtc_tvalue_t* shape =
      op->operands[op->kind == GRTC_TOP_DYNAMIC_IOTA ? 0 : 1];
  grtc_tmodule_t* module = (grtc_tmodule_t*)v->module;
  for (uint32_t i = 0; i < out->rank; ++i) {
    int64_t id = grtc_own_symbol(v, op, i, true);
    const grtc_sexpr_t* expr = NULL;
    // The shape may be read from an argument's data (GRTC_SEXPR_DATA): the
    // host program loads it at the call (and checks a broadcast's operand
    // dimensions against it).
    if (id < 0 || !grtc_tvalue_shape_expr_data(module, shape, i, &expr)) continue;
    // A dynamic_reshape's computed extent merges or splits a symbolic
    // dimension (?x4 -> ? of 4 * s0): the kernels index it with the
    // extents and the host program checks the element counts equal
    // (grtc_host_check_reshapes).
    module->shapes->syms[id].expr = expr;
    module->shapes->syms[id].expr_op_kind = op->kind;
  }
  return grt_ok_status();
}

static grt_status_t grtc_prepare_symbolic_block(grtc_verifier_t* v,
                                                const grtc_tblock_t* block) {
  for (grtc_top_t* op = block->first; op; op = op->next) {
    char where[64];
    char described[192];
    int64_t dim = 0;
    GRT_RETURN_IF_ERROR(grtc_prepare_computed_extents(v, op));
    bool symbolic = grtc_first_symbolic(op, where, sizeof(where), &dim);
    if (symbolic && !grtc_symbolic_kind_supported(op->kind)) {
      return VERR(op, "%s is symbolic (%s); this op with symbolic "
                  "dimensions is " GRTC_NOT_YET,
                  where,
                  grtc_tmodule_describe_dim(v->module, dim, described,
                                            sizeof(described)));
    }
    if (grtc_first_computed(v->module, op, where, sizeof(where), &dim)) {
      return VERR(op, "%s is symbolic (%s), an extent computed at run "
                  "time; " GRTC_NOT_YET " (the host program reads extents "
                  "from the arguments, derives concatenated and padded "
                  "ones, and computes a dynamic op's from get_dimension_size "
                  "arithmetic on constants, dimensions and a function "
                  "argument's i32 or i64 elements, not from other tensor "
                  "data)",
                  where,
                  grtc_tmodule_describe_dim(v->module, dim, described,
                                            sizeof(described)));
    }
    switch (op->kind) {
      case GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM:
      case GRTC_TOP_DYNAMIC_RESHAPE:
      case GRTC_TOP_DYNAMIC_IOTA: {
        grtc_tvalue_t* shape =
            op->operands[op->kind == GRTC_TOP_DYNAMIC_IOTA ? 0 : 1];
        // Elements the program proves are the result's dimensions need
        // nothing; the others are checked at the call.
        const grtc_ttype_t* out = &op->results[0].type;
        if (shape->type.rank != 1 || shape->type.dims[0] != (int64_t)out->rank) {
          return VERR(op, "has a shape operand of type %s for a result of rank %u",
                      grtc_vfmt(v, &shape->type), out->rank);
        }
        for (uint32_t i = 0; i < out->rank; ++i) {
          int64_t element_dim = 0;
          if (grtc_tvalue_shape_element(shape, i, &element_dim) &&
              grtc_tmodule_resolve_dim(v->module, element_dim) ==
                  grtc_tmodule_resolve_dim(v->module, out->dims[i])) {
            continue;
          }
          if (grtc_defines_computed_extent(v, op, i)) continue;
          GRT_RETURN_IF_ERROR(grtc_check_shape_element(v, op, shape, i));
        }
        // The kernels broadcast a static 1 only: any other operand
        // dimension must equal the result dimension it goes to, checked
        // at the call (a result extent read from data is checked by the
        // host program against its operand dimensions instead).
        if (op->kind == GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM) {
          const grtc_ttype_t* in = &op->operands[0]->type;
          for (uint32_t i = 0; i < in->rank && i < op->attrs.dims.count; ++i) {
            uint32_t to = (uint32_t)op->attrs.dims.values[i];
            if (in->dims[i] == 1 || to >= out->rank ||
                grtc_defines_computed_extent(v, op, to)) {
              continue;
            }
            if (!grtc_vsame(v, op, in->dims[i], out->dims[to], "broadcast dimension")) {
              return VERR(op, "operand dimension %u of %s is neither 1 nor the size of "
                          "result dimension %u in %s", i, grtc_vfmt(v, in), to,
                          grtc_vfmt(v, out));
            }
          }
          if (!grt_status_is_ok(v->status)) {
            grt_status_t status = v->status;
            v->status = grt_ok_status();
            return status;
          }
        }
        // The result type says it all: the static form.
        if (op->kind == GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM) {
          op->kind = GRTC_TOP_BROADCAST_IN_DIM;
          op->operand_count = 1;
        } else if (op->kind == GRTC_TOP_DYNAMIC_RESHAPE) {
          op->kind = GRTC_TOP_RESHAPE;
          op->operand_count = 1;
        } else {
          op->kind = GRTC_TOP_IOTA;
          op->operand_count = 0;
        }
        break;
      }
      case GRTC_TOP_REAL_DYNAMIC_SLICE:
      case GRTC_TOP_DYNAMIC_PAD:
        return VERR(op, "has shape operands that are not constants; "
                    GRTC_NOT_YET);
      default:
        break;
    }
    for (uint32_t i = 0; i < op->region_count; ++i) {
      GRT_RETURN_IF_ERROR(grtc_prepare_symbolic_block(v, op->regions[i]));
    }
  }
  return grt_ok_status();
}

grt_status_t grtc_tensor_prepare_symbolic(grtc_tmodule_t* module) {
  grtc_verifier_t v;
  memset(&v, 0, sizeof(v));
  v.module = module;
  for (const grtc_tfunc_t* func = module->first_func; func; func = func->next) {
    v.func = func;
    GRT_RETURN_IF_ERROR(grtc_prepare_symbolic_block(&v, func->body));
  }
  return grt_ok_status();
}
