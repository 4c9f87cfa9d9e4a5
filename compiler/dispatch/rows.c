#include "compiler/dispatch/rows.h"

#include <math.h>
#include <string.h>

static bool grtc_rows_add(grtc_rows_match_t* m, grtc_top_t* op) {
  if (m->op_count >= GRTC_ROWS_MAX_OPS) return false;
  m->ops[m->op_count++] = op;
  return true;
}

// |value| is an f32 of static shape, rank >= 1.
static bool grtc_rows_static_f32(const grtc_tvalue_t* value) {
  const grtc_ttype_t* t = &value->type;
  if (t->elem != GRTC_ELEM_F32 || t->rank < 1) return false;
  for (uint32_t d = 0; d < t->rank; ++d) {
    if (!grtc_dim_is_static(t->dims[d]) || t->dims[d] < 1) return false;
  }
  return true;
}

// A rank-0 f32 CONSTANT of exactly |bits|'s value (bit for bit).
static bool grtc_rows_scalar_constant(const grtc_tvalue_t* value, float want) {
  const grtc_top_t* op = value->def;
  if (!op || op->kind != GRTC_TOP_CONSTANT || value->type.rank != 0 ||
      value->type.elem != GRTC_ELEM_F32 || !op->attrs.constant.data ||
      op->attrs.constant.size < 4) {
    return false;
  }
  float got;
  memcpy(&got, op->attrs.constant.data, 4);
  return memcmp(&got, &want, 4) == 0;
}

// A reduce of one operand over its last dim whose body is one |kind| of the
// two arguments (either order), its initial value |init|.
static bool grtc_rows_reduce(const grtc_top_t* op, grtc_top_kind_t kind,
                             float init) {
  if (!op || op->kind != GRTC_TOP_REDUCE || op->operand_count != 2 ||
      op->result_count != 1 || op->region_count != 1) {
    return false;
  }
  const grtc_tvalue_t* in = op->operands[0];
  if (!grtc_rows_static_f32(in) || op->attrs.dims.count != 1 ||
      op->attrs.dims.values[0] != (int64_t)in->type.rank - 1 ||
      !grtc_rows_scalar_constant(op->operands[1], init)) {
    return false;
  }
  const grtc_tblock_t* body = op->regions[0];
  const grtc_top_t* first = body->first;
  if (body->arg_count != 2 || !first || first->kind != kind ||
      first->operand_count != 2 || first->result_count != 1) {
    return false;
  }
  const grtc_tvalue_t* a = &body->args[0];
  const grtc_tvalue_t* b = &body->args[1];
  bool args = (first->operands[0] == a && first->operands[1] == b) ||
              (first->operands[0] == b && first->operands[1] == a);
  const grtc_top_t* yield = first->next;
  return args && yield && yield->kind == GRTC_TOP_YIELD &&
         yield->operand_count == 1 && yield->operands[0] == &first->results[0] &&
         !yield->next;
}

// |value| (the shape of a row-major [rows..., n]) is a reduction over the
// last dim broadcast back along it: broadcast_in_dim of the reduction's
// result (dims 0..rank-2) or of its reshape to [rows..., 1] (dims
// 0..rank-1). Returns the reduce op (its result used only so), recording
// the ops on the way.
static grtc_top_t* grtc_rows_broadcast_reduction(grtc_rows_match_t* m,
                                                 grtc_tvalue_t* value) {
  grtc_top_t* bcast = value->def;
  if (!bcast || bcast->kind != GRTC_TOP_BROADCAST_IN_DIM ||
      value->use_count != 1 || bcast->operand_count != 1) {
    return NULL;
  }
  uint32_t rank = value->type.rank;
  grtc_tvalue_t* src = bcast->operands[0];
  const grtc_i64s_t* dims = &bcast->attrs.dims;
  if (src->use_count != 1 || dims->count != src->type.rank) return NULL;
  for (uint32_t d = 0; d < dims->count; ++d) {
    if (dims->values[d] != (int64_t)d) return NULL;
  }
  if (!grtc_rows_add(m, bcast)) return NULL;
  grtc_top_t* def = src->def;
  if (src->type.rank == rank) {
    // [rows..., 1]: a reshape of the reduction's result.
    if (src->type.dims[rank - 1] != 1 || !def ||
        def->kind != GRTC_TOP_RESHAPE || def->operand_count != 1) {
      return NULL;
    }
    if (!grtc_rows_add(m, def)) return NULL;
    src = def->operands[0];
    if (src->use_count != 1) return NULL;
    def = src->def;
  }
  if (src->type.rank + 1 != rank || !def || def->kind != GRTC_TOP_REDUCE) {
    return NULL;
  }
  for (uint32_t d = 0; d + 1 < rank; ++d) {
    if (src->type.dims[d] != value->type.dims[d]) return NULL;
  }
  return def;
}

bool grtc_rows_match_softmax(grtc_top_t* root, grtc_rows_match_t* out) {
  memset(out, 0, sizeof(*out));
  if (root->kind != GRTC_TOP_DIVIDE || root->operand_count != 2 ||
      root->result_count != 1 || !grtc_rows_static_f32(&root->results[0])) {
    return false;
  }
  grtc_tvalue_t* e = root->operands[0];
  grtc_top_t* exp = e->def;
  if (!exp || exp->kind != GRTC_TOP_EXPONENTIAL || e->use_count != 2 ||
      !grtc_ttype_same_shape(&e->type, &root->results[0].type)) {
    return false;
  }
  grtc_top_t* sum = grtc_rows_broadcast_reduction(out, root->operands[1]);
  if (!grtc_rows_reduce(sum, GRTC_TOP_ADD, 0.0f) || sum->operands[0] != e ||
      sum->results[0].use_count != 1) {
    return false;
  }
  grtc_tvalue_t* shifted = exp->operands[0];
  grtc_top_t* sub = shifted->def;
  if (shifted->use_count != 1 || !sub || sub->kind != GRTC_TOP_SUBTRACT) {
    return false;
  }
  grtc_tvalue_t* x = sub->operands[0];
  grtc_top_t* max = grtc_rows_broadcast_reduction(out, sub->operands[1]);
  if (!grtc_rows_reduce(max, GRTC_TOP_MAXIMUM, -INFINITY) ||
      max->operands[0] != x || max->results[0].use_count != 1 ||
      x->use_count != 2 || !grtc_ttype_same_shape(&x->type, &e->type)) {
    return false;
  }
  out->input = x;
  out->max_reduce = max;
  out->sum_reduce = sum;
  return grtc_rows_add(out, max) && grtc_rows_add(out, sub) &&
         grtc_rows_add(out, exp) && grtc_rows_add(out, sum);
}
