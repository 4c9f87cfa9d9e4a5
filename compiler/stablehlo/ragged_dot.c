// chlo.ragged_dot as tensor-IR ops (compose.h).
//
// The lhs has one ragged dimension r, split into consecutive groups whose
// sizes |group_sizes| gives (its last dimension is the group count g).
// Where r lies picks the mode:
//   - r is a free (non-contracting, non-batch) lhs dim: the rhs has a group
//     dim of size g, and lhs rows of group j multiply rhs[j]. The result is
//     dot_general's without the rhs group dim; rows past the last group are
//     zero. Lowered as the dot_general over all groups (the group dim kept
//     as a free dim), a mask of the rows in each group (iota along r
//     against the groups' start and end, a prefix sum of the sizes), a
//     select and a sum over the group dim: g times the FLOPs of the ragged
//     product, exact for any sizes.
//   - r is a contracting dim: the result gets a leading g dim, entry j the
//     product over the contracting range of group j only. Lowered as the
//     lhs broadcast along a new leading g dim, masked to each group's range,
//     then one dot_general and a transpose that moves g first.
//   - r is a batch dim: the groups split independent batch entries, so the
//     result is dot_general's.
// group_sizes is rank 1 ([g]), or carries the lhs dims before r in front
// of g (as XLA's tests write it, e.g. lhs 19x11x5 ragged in dim 1 with
// sizes 19x3) in the first mode, or the lhs batch dims in front of g in
// the second.
#include <string.h>

#include "compiler/stablehlo/compose.h"
#include "compiler/stablehlo/compose_ops.h"

// Whether |list| holds |value|.
static bool grtc_ragged_has(grtc_i64s_t list, int64_t value) {
  for (uint32_t i = 0; i < list.count; ++i) {
    if (list.values[i] == value) return true;
  }
  return false;
}

// The dims of an operand of |rank| that |a| and |b| do not name, in order.
static uint32_t grtc_ragged_free(uint32_t rank, grtc_i64s_t a, grtc_i64s_t b, int64_t* out) {
  uint32_t count = 0;
  for (uint32_t d = 0; d < rank; ++d) {
    if (!grtc_ragged_has(a, d) && !grtc_ragged_has(b, d)) out[count++] = d;
  }
  return count;
}

// dot_general(|lhs|, |rhs|) with |dims|: result dims are the batch dims,
// then the lhs's free dims, then the rhs's, in order.
static grtc_tvalue_t* grtc_ragged_dot_general(grtc_chlo_math_t* m, grtc_tvalue_t* lhs,
                                              grtc_tvalue_t* rhs, const grtc_dot_dims_t* dims,
                                              grtc_elem_t elem) {
  if (!lhs || !rhs) return NULL;
  grtc_ttype_t type = {0};
  type.elem = elem;
  int64_t free[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < dims->lhs_batch.count; ++i) {
    type.dims[type.rank++] = lhs->type.dims[dims->lhs_batch.values[i]];
  }
  uint32_t n = grtc_ragged_free(lhs->type.rank, dims->lhs_batch, dims->lhs_contracting, free);
  for (uint32_t i = 0; i < n; ++i) type.dims[type.rank++] = lhs->type.dims[free[i]];
  n = grtc_ragged_free(rhs->type.rank, dims->rhs_batch, dims->rhs_contracting, free);
  for (uint32_t i = 0; i < n; ++i) type.dims[type.rank++] = rhs->type.dims[free[i]];
  grtc_tvalue_t* operands[2] = {lhs, rhs};
  grtc_tvalue_t* v = grtc_chlo_make(m, GRTC_TOP_DOT_GENERAL, operands, 2, &type);
  if (v) v->def->attrs.dot = *dims;
  return v;
}

// |x| broadcast to |type|'s shape (x's element type), its dim i going to
// |dims|[i].
static grtc_tvalue_t* grtc_ragged_broadcast(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                            const grtc_ttype_t* type, const int64_t* dims) {
  if (!x) return NULL;
  grtc_ttype_t t = *type;
  t.elem = x->type.elem;
  grtc_tvalue_t* r = grtc_chlo_make(m, GRTC_TOP_BROADCAST_IN_DIM, &x, 1, &t);
  if (r) r->def->attrs.dims = grtc_tmodule_i64s(m->b->module, dims, x->type.rank);
  return r;
}

// compare(|a|, |c|) as signed integers.
static grtc_tvalue_t* grtc_ragged_cmp(grtc_chlo_math_t* m, grtc_compare_direction_t direction,
                                      grtc_tvalue_t* a, grtc_tvalue_t* c) {
  grtc_tvalue_t* r = grtc_chlo_compare(m, direction, a, c);
  if (r) r->def->attrs.compare_type = GRTC_CMP_TYPE_SIGNED;
  return r;
}

// The sum of |x| over its dim |dim|.
static grtc_tvalue_t* grtc_ragged_sum(grtc_chlo_math_t* m, grtc_tvalue_t* x, uint32_t dim) {
  grtc_scalar_value_t zero;
  memset(&zero, 0, sizeof(zero));
  int64_t d = dim;
  return grtc_chlo_reduce(m, x, &d, 1, GRTC_TOP_ADD, zero);
}

// The groups' ends (inclusive prefix sums of |sizes| over its last dim)
// and starts (ends - sizes), both of |sizes|'s type.
static void grtc_ragged_bounds(grtc_chlo_math_t* m, grtc_tvalue_t* sizes, grtc_tvalue_t** starts,
                               grtc_tvalue_t** ends) {
  uint32_t n = sizes->type.rank;
  grtc_ttype_t square = sizes->type;  // [..., g (i), g (j)]
  square.rank = n + 1;
  square.dims[n] = sizes->type.dims[n - 1];
  int64_t dims[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < n; ++d) dims[d] = d;
  grtc_tvalue_t* wide = grtc_ragged_broadcast(m, sizes, &square, dims);
  grtc_tvalue_t* i = grtc_chlo_iota(m, &square, GRTC_ELEM_I32, n - 1);
  grtc_tvalue_t* j = grtc_chlo_iota(m, &square, GRTC_ELEM_I32, n);
  grtc_scalar_value_t zero;
  memset(&zero, 0, sizeof(zero));
  grtc_tvalue_t* kept =
      SELECT(grtc_ragged_cmp(m, GRTC_CMP_LE, i, j), wide, grtc_chlo_splat_value(m, wide, zero));
  *ends = grtc_ragged_sum(m, kept, n - 1);
  *starts = SUB(*ends, sizes);
}

// Whether |a| and |b| hold the same values in order.
static bool grtc_ragged_same(const int64_t* a, uint32_t count, const int64_t* b) {
  for (uint32_t i = 0; i < count; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

grt_status_t grtc_chlo_ragged_dot(grtc_chlo_builder_t* b, grt_string_view_t name,
                                  grtc_tvalue_t* const* operands, const grtc_ttype_t* result,
                                  const grtc_chlo_attrs_t* attrs, grtc_tvalue_t** out) {
  grtc_tvalue_t* lhs = operands[0];
  grtc_tvalue_t* rhs = operands[1];
  grtc_tvalue_t* sizes = operands[2];
  char tl[128], tr[128], ts[128], tres[128];
  grtc_ttype_format(&lhs->type, tl, sizeof(tl));
  grtc_ttype_format(&rhs->type, tr, sizeof(tr));
  grtc_ttype_format(&sizes->type, ts, sizeof(ts));
  grtc_ttype_format(result, tres, sizeof(tres));
  if (!grtc_ttype_is_static(&lhs->type) || !grtc_ttype_is_static(&rhs->type) ||
      !grtc_ttype_is_static(&sizes->type)) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "'%.*s' on symbolic shapes is not supported yet; got lhs %s, rhs %s "
                           "and group sizes %s",
                           GRT_SV_ARG(name), tl, tr, ts);
  }
  if (!attrs->has_ragged_dot) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' requires the 'ragged_dot_dimension_numbers' attribute "
                           "(#chlo.ragged_dot<...>)",
                           GRT_SV_ARG(name));
  }
  const grtc_dot_dims_t* dims = &attrs->ragged_dot;
  uint32_t lr = lhs->type.rank, rr = rhs->type.rank;
  if (attrs->lhs_ragged.count != 1 || attrs->lhs_ragged.values[0] < 0 ||
      attrs->lhs_ragged.values[0] >= (int64_t)lr) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' needs exactly one lhs_ragged_dimensions entry, a dim of the "
                           "lhs %s; got %u entries",
                           GRT_SV_ARG(name), tl, attrs->lhs_ragged.count);
  }
  uint32_t ragged = (uint32_t)attrs->lhs_ragged.values[0];
  // The dot numbers name distinct dims of each operand, paired in size.
  if (dims->lhs_batch.count != dims->rhs_batch.count ||
      dims->lhs_contracting.count != dims->rhs_contracting.count) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' pairs lhs and rhs batching and contracting dims, got %u/%u "
                           "batching and %u/%u contracting",
                           GRT_SV_ARG(name), dims->lhs_batch.count, dims->rhs_batch.count,
                           dims->lhs_contracting.count, dims->rhs_contracting.count);
  }
  const grtc_i64s_t* pairs[2][2] = {{&dims->lhs_batch, &dims->rhs_batch},
                                    {&dims->lhs_contracting, &dims->rhs_contracting}};
  uint64_t used[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    for (uint32_t i = 0; i < pairs[k][0]->count; ++i) {
      int64_t l = pairs[k][0]->values[i], r = pairs[k][1]->values[i];
      if (l < 0 || l >= (int64_t)lr || r < 0 || r >= (int64_t)rr || (used[0] >> l) & 1u ||
          (used[1] >> r) & 1u || lhs->type.dims[l] != rhs->type.dims[r]) {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "'%.*s' %s dims lhs %lld / rhs %lld are not distinct dims of "
                               "one size of the lhs %s and rhs %s",
                               GRT_SV_ARG(name), k == 0 ? "batching" : "contracting",
                               (long long)l, (long long)r, tl, tr);
      }
      used[0] |= UINT64_C(1) << l;
      used[1] |= UINT64_C(1) << r;
    }
  }
  bool in_batch = grtc_ragged_has(dims->lhs_batch, ragged);
  bool in_contracting = grtc_ragged_has(dims->lhs_contracting, ragged);
  bool free_mode = !in_batch && !in_contracting;
  int64_t group_dim = -1;
  if (free_mode) {
    if (attrs->rhs_group.count != 1 || attrs->rhs_group.values[0] < 0 ||
        attrs->rhs_group.values[0] >= (int64_t)rr || (used[1] >> attrs->rhs_group.values[0]) & 1u) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "'%.*s' with a non-contracting ragged dim (lhs dim %u) needs one "
                             "rhs_group_dimensions entry, an rhs dim that is neither batching "
                             "nor contracting; rhs %s, %u entries",
                             GRT_SV_ARG(name), ragged, tr, attrs->rhs_group.count);
    }
    group_dim = attrs->rhs_group.values[0];
  } else if (attrs->rhs_group.count != 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' with a %s ragged dim (lhs dim %u) takes no "
                           "rhs_group_dimensions, got %u",
                           GRT_SV_ARG(name), in_batch ? "batching" : "contracting", ragged,
                           attrs->rhs_group.count);
  }
  grtc_elem_t elem = lhs->type.elem;
  if (rhs->type.elem != elem || result->elem != elem ||
      (!grtc_elem_is_float(elem) && !grtc_elem_is_integer(elem)) || elem == GRTC_ELEM_I1) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' takes lhs, rhs and result of one float or integer type, got "
                           "%s, %s -> %s",
                           GRT_SV_ARG(name), tl, tr, tres);
  }
  if (!grtc_elem_is_integer(sizes->type.elem) || sizes->type.elem == GRTC_ELEM_I1 ||
      sizes->type.rank == 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' takes integer group sizes of rank >= 1, got %s",
                           GRT_SV_ARG(name), ts);
  }
  uint32_t sn = sizes->type.rank;
  int64_t g = sizes->type.dims[sn - 1];
  // Where the sizes' leading dims come from: the lhs dims before the ragged
  // dim (first mode) or the lhs batch dims (second mode).
  int64_t lead[GRTC_MAX_RANK];
  uint32_t lead_count = 0;
  if (free_mode) {
    for (uint32_t d = 0; d < ragged; ++d) lead[lead_count++] = d;
  } else {
    for (uint32_t i = 0; i < dims->lhs_batch.count; ++i) lead[lead_count++] = dims->lhs_batch.values[i];
  }
  // (A batching ragged dim only splits independent entries: its sizes'
  // values and shape do not change the result.)
  bool sizes_ok = true;
  if (!in_batch) {
    sizes_ok = sn == 1 || sn == lead_count + 1;
    for (uint32_t i = 0; sizes_ok && sn > 1 && i < lead_count; ++i) {
      sizes_ok = sizes->type.dims[i] == lhs->type.dims[lead[i]];
    }
    if (free_mode && sizes_ok) sizes_ok = rhs->type.dims[group_dim] == g;
  }
  if (!sizes_ok) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' takes group sizes [g] or [%s..., g]%s; got %s for lhs %s and "
                           "rhs %s",
                           GRT_SV_ARG(name),
                           free_mode ? "the lhs dims before the ragged dim"
                                     : "the lhs batching dims",
                           free_mode ? ", g the size of the rhs group dim" : "", ts, tl, tr);
  }
  // The ranks of what the lowering builds: the dot_general's result (one
  // more in the contracting mode, for the group dim), the broadcast lhs and
  // the sizes' square.
  uint32_t product_rank = lr + rr - 2 * dims->lhs_batch.count - 2 * dims->lhs_contracting.count;
  if (product_rank + (in_contracting ? 1 : 0) > GRTC_MAX_RANK || lr + 1 > GRTC_MAX_RANK ||
      sn + 1 > GRTC_MAX_RANK) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' of lhs %s, rhs %s and group sizes %s needs a tensor of more "
                           "than %d dims",
                           GRT_SV_ARG(name), tl, tr, ts, GRTC_MAX_RANK);
  }
  grtc_chlo_math_t math = {b, grt_ok_status()};
  grtc_chlo_math_t* m = &math;
  grtc_ttype_t want = {0};
  grtc_tvalue_t* r = NULL;
  if (in_batch) {
    r = grtc_ragged_dot_general(m, lhs, rhs, dims, elem);
  } else if (free_mode) {
    // The product over every group, the rhs group dim a free dim.
    grtc_tvalue_t* full = grtc_ragged_dot_general(m, lhs, rhs, dims, elem);
    if (!full) return math.status;
    // Where the lhs dims and the rhs group dim are in |full|.
    int64_t at[GRTC_MAX_RANK];
    uint32_t pos = 0;
    for (uint32_t i = 0; i < dims->lhs_batch.count; ++i) at[dims->lhs_batch.values[i]] = pos++;
    int64_t free[GRTC_MAX_RANK];
    uint32_t n = grtc_ragged_free(lr, dims->lhs_batch, dims->lhs_contracting, free);
    for (uint32_t i = 0; i < n; ++i) at[free[i]] = pos++;
    uint32_t group_at = 0;
    n = grtc_ragged_free(rr, dims->rhs_batch, dims->rhs_contracting, free);
    for (uint32_t i = 0; i < n; ++i) {
      if (free[i] == group_dim) group_at = pos;
      ++pos;
    }
    int64_t map[GRTC_MAX_RANK];
    for (uint32_t i = 0; i + 1 < sn; ++i) map[i] = at[lead[i]];
    map[sn - 1] = group_at;
    grtc_tvalue_t *starts = NULL, *ends = NULL;
    grtc_ragged_bounds(m, sizes, &starts, &ends);
    grtc_tvalue_t* row = grtc_chlo_iota(m, &full->type, sizes->type.elem, (uint32_t)at[ragged]);
    grtc_tvalue_t* in = grtc_chlo_binary(
        m, GRTC_TOP_AND,
        grtc_ragged_cmp(m, GRTC_CMP_GE, row, grtc_ragged_broadcast(m, starts, &full->type, map)),
        grtc_ragged_cmp(m, GRTC_CMP_LT, row, grtc_ragged_broadcast(m, ends, &full->type, map)));
    grtc_scalar_value_t zero;
    memset(&zero, 0, sizeof(zero));
    r = grtc_ragged_sum(m, SELECT(in, full, grtc_chlo_splat_value(m, full, zero)), group_at);
  } else {
    // The lhs with a new leading group dim, masked to each group's range
    // of the ragged contracting dim.
    grtc_ttype_t wide = lhs->type;
    wide.rank = lr + 1;
    wide.dims[0] = g;
    for (uint32_t d = 0; d < lr; ++d) wide.dims[d + 1] = lhs->type.dims[d];
    int64_t shift[GRTC_MAX_RANK];
    for (uint32_t d = 0; d < lr; ++d) shift[d] = d + 1;
    grtc_tvalue_t* lhs_g = grtc_ragged_broadcast(m, lhs, &wide, shift);
    int64_t map[GRTC_MAX_RANK];
    for (uint32_t i = 0; i + 1 < sn; ++i) map[i] = lead[i] + 1;
    map[sn - 1] = 0;
    grtc_tvalue_t *starts = NULL, *ends = NULL;
    grtc_ragged_bounds(m, sizes, &starts, &ends);
    grtc_tvalue_t* k = grtc_chlo_iota(m, &wide, sizes->type.elem, ragged + 1);
    grtc_tvalue_t* in = grtc_chlo_binary(
        m, GRTC_TOP_AND,
        grtc_ragged_cmp(m, GRTC_CMP_GE, k, grtc_ragged_broadcast(m, starts, &wide, map)),
        grtc_ragged_cmp(m, GRTC_CMP_LT, k, grtc_ragged_broadcast(m, ends, &wide, map)));
    grtc_scalar_value_t zero;
    memset(&zero, 0, sizeof(zero));
    grtc_tvalue_t* masked = lhs_g ? SELECT(in, lhs_g, grtc_chlo_splat_value(m, lhs_g, zero)) : NULL;
    grtc_dot_dims_t shifted = *dims;
    int64_t lb[GRTC_MAX_RANK], lc[GRTC_MAX_RANK];
    for (uint32_t i = 0; i < dims->lhs_batch.count; ++i) lb[i] = dims->lhs_batch.values[i] + 1;
    for (uint32_t i = 0; i < dims->lhs_contracting.count; ++i) {
      lc[i] = dims->lhs_contracting.values[i] + 1;
    }
    shifted.lhs_batch = grtc_tmodule_i64s(b->module, lb, dims->lhs_batch.count);
    shifted.lhs_contracting = grtc_tmodule_i64s(b->module, lc, dims->lhs_contracting.count);
    // [batch..., g, lhs free..., rhs free...] -> [g, batch..., ...].
    grtc_tvalue_t* product = grtc_ragged_dot_general(m, masked, rhs, &shifted, elem);
    if (!product) return math.status;
    uint32_t nb = dims->lhs_batch.count;
    int64_t perm[GRTC_MAX_RANK];
    grtc_ttype_t type = product->type;
    perm[0] = nb;
    type.dims[0] = product->type.dims[nb];
    for (uint32_t d = 1; d < product->type.rank; ++d) {
      perm[d] = d <= nb ? d - 1 : d;
      type.dims[d] = product->type.dims[perm[d]];
    }
    r = grtc_chlo_make(m, GRTC_TOP_TRANSPOSE, &product, 1, &type);
    if (r) r->def->attrs.dims = grtc_tmodule_i64s(b->module, perm, type.rank);
  }
  if (!grt_status_is_ok(math.status)) return math.status;
  if (!r) return grt_make_status(GRT_STATUS_INTERNAL, "'%.*s' built no result", GRT_SV_ARG(name));
  want = r->type;
  if (want.rank != result->rank || !grtc_ragged_same(want.dims, want.rank, result->dims)) {
    char tw[128];
    grtc_ttype_format(&want, tw, sizeof(tw));
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' of lhs %s and rhs %s returns %s, the op says %s",
                           GRT_SV_ARG(name), tl, tr, tw, tres);
  }
  *out = r;
  return grt_ok_status();
}
