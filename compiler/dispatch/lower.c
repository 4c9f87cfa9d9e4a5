#include "compiler/dispatch/lower.h"

#include <string.h>

#include "compiler/dispatch/dispatch.h"
#include "compiler/dispatch/emitter.h"
#include "compiler/dispatch/rows.h"

// The most results (and reduce/sort operand groups) one kernel handles.
#define GRTC_LOWER_MAX_VALUES 64

// What the op-family builders hand to the common tail: the index of the
// root's result elements and the element values (reductions: POST values).
typedef struct grtc_lower_results_t {
  uint32_t index[GRTC_MAX_RANK];
  uint32_t count;
  uint32_t values[GRTC_LOWER_MAX_VALUES];
} grtc_lower_results_t;

static bool grtc_i64s_contains(const grtc_i64s_t* list, int64_t value) {
  for (uint32_t i = 0; i < list->count; ++i) {
    if (list->values[i] == value) return true;
  }
  return false;
}

// Tensor dims (static or symbolic) become kernel sizes (static or extents).
static void grtc_lower_set_parallel(grtc_emitter_t* em, const int64_t* dims,
                                    uint32_t rank) {
  em->kernel->parallel_rank = rank;
  for (uint32_t d = 0; d < rank; ++d) {
    em->kernel->parallel_dims[d] = grtc_em_kdim(em, dims[d]);
  }
}

static void grtc_lower_parallel_index(grtc_emitter_t* em, uint32_t rank,
                                      uint32_t* index) {
  for (uint32_t d = 0; d < rank; ++d) index[d] = grtc_em_pindex(em, d);
}

// A LOOP-section instruction equal to |inst| (accumulator updates must be
// LOOP instructions even when the body made them loop-invariant).
static uint32_t grtc_lower_in_loop(grtc_emitter_t* em, uint32_t inst) {
  if (grtc_emitter_failed(em)) return 0;
  if (em->kernel->insts[inst].section == GRTC_KSECTION_LOOP) return inst;
  // max(x, x) == x for every type (NaN included); RINDEX-free, so it is
  // added directly rather than through the hoisting builder.
  grtc_kinst_t k;
  memset(&k, 0, sizeof(k));
  k.kind = GRTC_KINST_OP;
  k.section = GRTC_KSECTION_LOOP;
  k.type = em->kernel->insts[inst].type;
  k.op = grtc_scalar_op_for_elem(GRTC_SCALAR_MAX, k.type);
  k.operand_count = 2;
  k.operands[0] = inst;
  k.operands[1] = inst;
  uint32_t out = 0;
  grtc_emitter_fail(em, grtc_kernel_add_inst(em->set, em->kernel, &k, &out));
  return out;
}

static grtc_elem_t grtc_lower_acc_type(grtc_elem_t elem) {
  return elem == GRTC_ELEM_F16 || elem == GRTC_ELEM_BF16 ? GRTC_ELEM_F32
                                                         : elem;
}

// Reduction space of at least one dim: a reduction over nothing runs its
// body once per point.
static void grtc_lower_set_reduction(grtc_emitter_t* em, const int64_t* dims,
                                     uint32_t rank) {
  grtc_kernel_t* kernel = em->kernel;
  if (rank == 0) {
    kernel->reduction_rank = 1;
    kernel->reduction_dims[0] = 1;
    return;
  }
  kernel->reduction_rank = rank;
  for (uint32_t d = 0; d < rank; ++d) {
    kernel->reduction_dims[d] = grtc_em_kdim(em, dims[d]);
  }
}

// Accumulators initialized from |inits| (rank-0 values) in PRE; f16 and
// bf16 ones accumulate in f32 (|out_init_insts| are the widened inits).
static void grtc_lower_accs(grtc_emitter_t* em, grtc_tvalue_t* const* inits,
                            uint32_t count, uint32_t* out_init_insts) {
  em->section = GRTC_KSECTION_PRE;
  for (uint32_t k = 0; k < count; ++k) {
    grtc_elem_t elem = inits[k]->type.elem;
    uint32_t init = grtc_em_convert(em, grtc_lower_acc_type(elem),
                                    grtc_em_value(em, inits[k], NULL));
    out_init_insts[k] = init;
    uint32_t acc = 0;
    if (!grtc_emitter_failed(em)) {
      grtc_emitter_fail(em, grtc_kernel_add_acc(em->set, em->kernel,
                                                grtc_em_type(em, init), init,
                                                &acc));
    }
  }
}

// The body of a reduce-like op applied to (ACC..., values...) in LOOP;
// results are the final ACCs in POST.
static void grtc_lower_reduce_body(grtc_emitter_t* em, const grtc_top_t* op,
                                   uint32_t count, const uint32_t* values,
                                   grtc_lower_results_t* results) {
  uint32_t args[2 * GRTC_LOWER_MAX_VALUES] = {0};
  uint32_t updates[GRTC_LOWER_MAX_VALUES] = {0};
  em->section = GRTC_KSECTION_LOOP;
  for (uint32_t k = 0; k < count; ++k) {
    args[k] = grtc_em_acc(em, k);
    // Values join their accumulator's type (f16/bf16 widen to f32).
    args[count + k] = grtc_em_convert(
        em, grtc_lower_acc_type(op->operands[k]->type.elem), values[k]);
  }
  em->widen_small_floats = true;
  grtc_em_body(em, op->regions[0], args, 2 * count, updates, count);
  em->widen_small_floats = false;
  for (uint32_t k = 0; k < count && !grtc_emitter_failed(em); ++k) {
    em->kernel->accs[k].update = grtc_lower_in_loop(em, updates[k]);
  }
  em->section = GRTC_KSECTION_POST;
  results->count = count;
  for (uint32_t k = 0; k < count; ++k) {
    // One rounding, at the end, to the result's type.
    results->values[k] = grtc_em_convert(em, op->results[k].type.elem,
                                         grtc_em_acc(em, k));
  }
}

static void grtc_lower_reduce(grtc_emitter_t* em, grtc_top_t* op,
                              grtc_lower_results_t* results) {
  uint32_t count = op->operand_count / 2;
  const grtc_ttype_t* in = &op->operands[0]->type;
  const grtc_ttype_t* out = &op->results[0].type;
  int64_t reduction[GRTC_MAX_RANK];
  uint32_t reduction_rank = 0;
  for (uint32_t d = 0; d < in->rank; ++d) {
    if (grtc_i64s_contains(&op->attrs.dims, d)) {
      reduction[reduction_rank++] = in->dims[d];
    }
  }
  grtc_lower_set_parallel(em, out->dims, out->rank);
  grtc_lower_set_reduction(em, reduction, reduction_rank);
  uint32_t inits[GRTC_LOWER_MAX_VALUES];
  grtc_lower_accs(em, op->operands + count, count, inits);
  uint32_t index[GRTC_MAX_RANK];
  uint32_t p = 0, r = 0;
  for (uint32_t d = 0; d < in->rank; ++d) {
    index[d] = grtc_i64s_contains(&op->attrs.dims, d) ? grtc_em_rindex(em, r++)
                                                      : grtc_em_pindex(em, p++);
  }
  uint32_t values[GRTC_LOWER_MAX_VALUES];
  em->section = GRTC_KSECTION_LOOP;
  for (uint32_t k = 0; k < count; ++k) {
    values[k] = grtc_em_value(em, op->operands[k], index);
  }
  grtc_lower_reduce_body(em, op, count, values, results);
  grtc_lower_parallel_index(em, out->rank, results->index);
}

// The POOL2D pattern of a lowered reduce_window (see grtc_kpool_t): one f32
// operand of rank 4 read from a buffer, a window over the last two dims
// only (no base dilation), a constant initial value, and a body that is one
// ADD, MAX or MIN of the accumulator and |tap| (the padded tap value).
static void grtc_lower_pool_pattern(grtc_emitter_t* em, grtc_top_t* op,
                                    uint32_t tap) {
  const grtc_window_t* w = &op->attrs.window;
  grtc_tvalue_t* in = op->operands[0];
  grtc_kernel_t* kernel = em->kernel;
  if (grtc_emitter_failed(em) || op->operand_count != 2 ||
      in->type.rank != 4 || in->type.elem != GRTC_ELEM_F32 ||
      op->results[0].type.elem != GRTC_ELEM_F32 || kernel->acc_count != 1 ||
      grtc_ttype_element_count(&in->type) == 0) {
    return;
  }
  // Only the batch may be symbolic (an extent, like CONV2D's n).
  for (uint32_t d = 1; d < 4; ++d) {
    if (!grtc_dim_is_static(
            grtc_tmodule_resolve_dim(em->module, in->type.dims[d]))) {
      return;
    }
  }
  for (uint32_t d = 0; d < 4; ++d) {
    bool spatial = d >= 2;
    if (w->base_dilations.values[d] != 1 || w->strides.values[d] < 1 ||
        w->window_dilations.values[d] < 1 ||
        (!spatial && (w->dimensions.values[d] != 1 ||
                      w->strides.values[d] != 1 ||
                      w->padding_low.values[d] != 0 ||
                      w->padding_high.values[d] != 0))) {
      return;
    }
  }
  const grtc_kinst_t* init = &kernel->insts[kernel->accs[0].init];
  const grtc_kinst_t* update = &kernel->insts[kernel->accs[0].update];
  if (init->kind != GRTC_KINST_CONST || update->kind != GRTC_KINST_OP ||
      update->operand_count != 2 ||
      (update->op != GRTC_SCALAR_ADD && update->op != GRTC_SCALAR_MAX &&
       update->op != GRTC_SCALAR_MIN)) {
    return;
  }
  const grtc_kinst_t* first = &kernel->insts[update->operands[0]];
  const grtc_kinst_t* second = &kernel->insts[update->operands[1]];
  bool acc_first = first->kind == GRTC_KINST_ACC && first->dim == 0 &&
                   update->operands[1] == tap;
  bool tap_first = second->kind == GRTC_KINST_ACC && second->dim == 0 &&
                   update->operands[0] == tap;
  int64_t strides[GRTC_MAX_RANK];
  grtc_tvalue_t* source = NULL;
  if ((!acc_first && !tap_first) ||
      !grtc_em_strided_source(em, in, strides, &source)) {
    return;
  }
  grtc_kpool_t* pool = &kernel->pool;
  pool->input_binding = grtc_em_input(em, source);
  pool->op = update->op;
  pool->tap_first = tap_first && !acc_first;
  pool->n = grtc_em_kdim(em, in->type.dims[0]);
  pool->c = in->type.dims[1];
  pool->h = in->type.dims[2];
  pool->w = in->type.dims[3];
  pool->kh = w->dimensions.values[2];
  pool->kw = w->dimensions.values[3];
  pool->oh = op->results[0].type.dims[2];
  pool->ow = op->results[0].type.dims[3];
  pool->stride_h = w->strides.values[2];
  pool->stride_w = w->strides.values[3];
  pool->pad_h = w->padding_low.values[2];
  pool->pad_w = w->padding_low.values[3];
  pool->dilation_h = w->window_dilations.values[2];
  pool->dilation_w = w->window_dilations.values[3];
  for (uint32_t d = 0; d < 4; ++d) pool->input_strides[d] = strides[d];
  pool->elem = GRTC_ELEM_F32;
  kernel->pattern = GRTC_KPATTERN_POOL2D;
}

static void grtc_lower_reduce_window(grtc_emitter_t* em, grtc_top_t* op,
                                     grtc_lower_results_t* results) {
  uint32_t count = op->operand_count / 2;
  const grtc_window_t* w = &op->attrs.window;
  const grtc_ttype_t* in = &op->operands[0]->type;
  const grtc_ttype_t* out = &op->results[0].type;
  grtc_lower_set_parallel(em, out->dims, out->rank);
  grtc_lower_set_reduction(em, w->dimensions.values, in->rank);
  uint32_t inits[GRTC_LOWER_MAX_VALUES];
  grtc_lower_accs(em, op->operands + count, count, inits);
  em->section = GRTC_KSECTION_LOOP;
  uint32_t inside = grtc_em_bool(em, true);
  uint32_t index[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < in->rank; ++d) {
    int64_t base = w->base_dilations.values[d];
    uint32_t pos = grtc_em_sub(
        em,
        grtc_em_add(em,
                    grtc_em_mul(em, grtc_em_pindex(em, d),
                                grtc_em_i64(em, w->strides.values[d])),
                    grtc_em_mul(em, grtc_em_rindex(em, d),
                                grtc_em_i64(em, w->window_dilations.values[d]))),
        grtc_em_i64(em, w->padding_low.values[d]));
    uint32_t q = pos;
    if (base > 1) {
      uint32_t rem = grtc_em_op(em, GRTC_SCALAR_REM, GRTC_ELEM_I64, pos,
                                grtc_em_i64(em, base), 0);
      inside = grtc_em_and(
          em, inside,
          grtc_em_cmp(em, GRTC_CMP_EQ, GRTC_CMP_TYPE_SIGNED, rem,
                      grtc_em_i64(em, 0)));
      q = grtc_em_op(em, GRTC_SCALAR_DIV, GRTC_ELEM_I64, pos,
                     grtc_em_i64(em, base), 0);
    }
    if (!grtc_dim_is_static(in->dims[d])) {
      // A symbolic dimension's window is 1 without padding or dilation
      // (tensor verification): every position is inside.
      index[d] = q;
      continue;
    }
    inside = grtc_em_and(
        em, inside, grtc_em_in_range(em, pos, 0, (in->dims[d] - 1) * base + 1));
    index[d] = grtc_em_clamp(em, q, 0, in->dims[d] - 1);
  }
  uint32_t values[GRTC_LOWER_MAX_VALUES];
  for (uint32_t k = 0; k < count; ++k) {
    // An empty input is all padding: nothing to load.
    values[k] = inits[k];
    if (grtc_ttype_element_count(in) != 0) {
      uint32_t v = grtc_em_convert(em, grtc_em_type(em, inits[k]),
                                   grtc_em_value(em, op->operands[k], index));
      values[k] = grtc_em_select(em, inside, v, inits[k]);
    }
  }
  grtc_lower_reduce_body(em, op, count, values, results);
  grtc_lower_parallel_index(em, out->rank, results->index);
  grtc_lower_pool_pattern(em, op, values[0]);
}

// acc += convert(a) * convert(b), skipped (added 0) where !|inside|.
static void grtc_lower_multiply_accumulate(grtc_emitter_t* em, uint32_t a,
                                           uint32_t b, uint32_t inside,
                                           grtc_lower_results_t* results,
                                           grtc_elem_t result_elem) {
  grtc_elem_t acc_type = grtc_lower_acc_type(result_elem);
  em->section = GRTC_KSECTION_PRE;
  uint32_t zero = grtc_em_const(em, acc_type, 0, 0);
  uint32_t acc_index = 0;
  grtc_emitter_fail(em, grtc_kernel_add_acc(em->set, em->kernel, acc_type,
                                            zero, &acc_index));
  em->section = GRTC_KSECTION_LOOP;
  uint32_t product =
      grtc_em_op(em, GRTC_SCALAR_MUL, acc_type, grtc_em_convert(em, acc_type, a),
                 grtc_em_convert(em, acc_type, b), 0);
  product = grtc_em_select(em, inside, product, zero);
  uint32_t update = grtc_em_op(em, GRTC_SCALAR_ADD, acc_type,
                               grtc_em_acc(em, 0), product, 0);
  if (!grtc_emitter_failed(em)) {
    em->kernel->accs[0].update = grtc_lower_in_loop(em, update);
  }
  em->section = GRTC_KSECTION_POST;
  results->count = 1;
  results->values[0] = grtc_em_convert(em, result_elem, grtc_em_acc(em, 0));
}

// The value a dot or convolution pattern reads as its rhs: an f32 x
// convert(i8/ui8) -> f32 product (int4/int8 weights) keeps the pattern with
// the integer rhs, which the kernel converts; otherwise |rhs| itself.
static grtc_tvalue_t* grtc_lower_weight_source(grtc_emitter_t* em, const grtc_tvalue_t* lhs,
                                               grtc_tvalue_t* rhs) {
  if (lhs->type.elem == GRTC_ELEM_F32 && rhs->type.elem == GRTC_ELEM_F32 &&
      grtc_em_fused(em, rhs) && rhs->def->kind == GRTC_TOP_CONVERT &&
      (rhs->def->operands[0]->type.elem == GRTC_ELEM_I8 ||
       rhs->def->operands[0]->type.elem == GRTC_ELEM_U8)) {
    return rhs->def->operands[0];
  }
  return rhs;
}

static void grtc_lower_dot(grtc_emitter_t* em, grtc_top_t* op,
                           grtc_lower_results_t* results) {
  const grtc_dot_dims_t* dot = &op->attrs.dot;
  grtc_tvalue_t* lhs = op->operands[0];
  grtc_tvalue_t* rhs = op->operands[1];
  const grtc_ttype_t* out = &op->results[0].type;
  if (out->elem == GRTC_ELEM_I1) {
    grtc_emitter_fail(em, grtc_top_error(em->module, op,
                                         "'stablehlo.dot_general' on i1 is "
                                         "not supported"));
    return;
  }
  grtc_lower_set_parallel(em, out->dims, out->rank);
  int64_t reduction[GRTC_MAX_RANK];
  for (uint32_t j = 0; j < dot->lhs_contracting.count; ++j) {
    reduction[j] = lhs->type.dims[dot->lhs_contracting.values[j]];
  }
  grtc_lower_set_reduction(em, reduction, dot->lhs_contracting.count);
  uint32_t batch = dot->lhs_batch.count;
  uint32_t lhs_index[GRTC_MAX_RANK], rhs_index[GRTC_MAX_RANK];
  uint32_t p = batch;
  const grtc_ttype_t* types[2] = {&lhs->type, &rhs->type};
  const grtc_i64s_t* batch_dims[2] = {&dot->lhs_batch, &dot->rhs_batch};
  const grtc_i64s_t* contracting[2] = {&dot->lhs_contracting,
                                       &dot->rhs_contracting};
  uint32_t* indices[2] = {lhs_index, rhs_index};
  uint32_t free_dims[2] = {0, 0};
  for (uint32_t side = 0; side < 2; ++side) {
    for (uint32_t d = 0; d < types[side]->rank; ++d) {
      uint32_t v = 0;
      bool found = false;
      for (uint32_t i = 0; i < batch_dims[side]->count; ++i) {
        if (batch_dims[side]->values[i] == (int64_t)d) {
          v = grtc_em_pindex(em, i);
          found = true;
        }
      }
      for (uint32_t j = 0; j < contracting[side]->count; ++j) {
        if (contracting[side]->values[j] == (int64_t)d) {
          v = grtc_em_rindex(em, j);
          found = true;
        }
      }
      if (!found) {
        v = grtc_em_pindex(em, p++);
        ++free_dims[side];
      }
      indices[side][d] = v;
    }
  }
  em->section = GRTC_KSECTION_LOOP;
  uint32_t a = grtc_em_value(em, lhs, lhs_index);
  uint32_t b = grtc_em_value(em, rhs, rhs_index);
  grtc_lower_multiply_accumulate(em, a, b, grtc_em_bool(em, true), results,
                                 out->elem);
  grtc_lower_parallel_index(em, out->rank, results->index);

  int64_t lhs_strides[GRTC_MAX_RANK], rhs_strides[GRTC_MAX_RANK];
  grtc_tvalue_t *lhs_source, *rhs_source;
  if (free_dims[0] != 1 || free_dims[1] != 1 ||
      dot->lhs_contracting.count != 1 ||
      !grtc_em_strided_source(em, lhs, lhs_strides, &lhs_source)) {
    return;
  }
  grtc_tvalue_t* rhs_stored = grtc_lower_weight_source(em, lhs, rhs);
  if (!grtc_em_strided_source(em, rhs_stored, rhs_strides, &rhs_source)) {
    return;
  }
  grtc_kmatmul_t* mm = &em->kernel->matmul;
  mm->lhs_binding = grtc_em_input(em, lhs_source);
  mm->rhs_binding = grtc_em_input(em, rhs_source);
  mm->batch_rank = batch;
  for (uint32_t d = 0; d < lhs->type.rank; ++d) {
    if (grtc_i64s_contains(&dot->lhs_contracting, d)) {
      mm->k = grtc_em_kdim(em, lhs->type.dims[d]);
      mm->lhs_stride_k = lhs_strides[d];
    } else if (!grtc_i64s_contains(&dot->lhs_batch, d)) {
      mm->m = grtc_em_kdim(em, lhs->type.dims[d]);
      mm->lhs_stride_m = lhs_strides[d];
    }
  }
  for (uint32_t d = 0; d < rhs->type.rank; ++d) {
    if (grtc_i64s_contains(&dot->rhs_contracting, d)) {
      mm->rhs_stride_k = rhs_strides[d];
    } else if (!grtc_i64s_contains(&dot->rhs_batch, d)) {
      mm->n = grtc_em_kdim(em, rhs->type.dims[d]);
      mm->rhs_stride_n = rhs_strides[d];
    }
  }
  for (uint32_t i = 0; i < batch; ++i) {
    mm->lhs_batch_strides[i] = lhs_strides[dot->lhs_batch.values[i]];
    mm->rhs_batch_strides[i] = rhs_strides[dot->rhs_batch.values[i]];
  }
  mm->lhs_elem = lhs->type.elem;
  mm->rhs_elem = rhs_stored->type.elem;
  mm->acc_elem = grtc_lower_acc_type(out->elem);
  em->kernel->pattern = GRTC_KPATTERN_MATMUL;
}

static void grtc_lower_conv(grtc_emitter_t* em, grtc_top_t* op,
                            grtc_lower_results_t* results) {
  const grtc_conv_dims_t* c = &op->attrs.conv;
  grtc_tvalue_t* lhs = op->operands[0];
  grtc_tvalue_t* rhs = op->operands[1];
  const grtc_ttype_t* out = &op->results[0].type;
  uint32_t spatial = c->input_spatial.count;
  if (spatial + 2 > GRTC_KERNEL_MAX_RANK || out->elem == GRTC_ELEM_I1) {
    grtc_emitter_fail(em, grtc_top_error(em->module, op,
                                         "'stablehlo.convolution' with %u "
                                         "spatial dims of %s is not supported",
                                         spatial,
                                         grtc_elem_spelling(out->elem)));
    return;
  }
  int64_t batch_groups = c->batch_group_count;
  int64_t feature_groups = c->feature_group_count;
  int64_t in_batch = lhs->type.dims[c->input_batch];
  int64_t in_features = lhs->type.dims[c->input_feature];
  int64_t out_features = rhs->type.dims[c->kernel_output_feature];
  int64_t ci_count = rhs->type.dims[c->kernel_input_feature];
  // Parallel (n, spatial..., oc) whatever the output layout.
  int64_t parallel[GRTC_KERNEL_MAX_RANK], reduction[GRTC_KERNEL_MAX_RANK];
  parallel[0] = out->dims[c->output_batch];
  for (uint32_t i = 0; i < spatial; ++i) {
    parallel[1 + i] = out->dims[c->output_spatial.values[i]];
    reduction[i] = rhs->type.dims[c->kernel_spatial.values[i]];
  }
  parallel[spatial + 1] = out->dims[c->output_feature];
  reduction[spatial] = ci_count;
  grtc_lower_set_parallel(em, parallel, spatial + 2);
  grtc_lower_set_reduction(em, reduction, spatial + 1);

  uint32_t n = grtc_em_pindex(em, 0);
  uint32_t oc = grtc_em_pindex(em, spatial + 1);
  uint32_t ci = grtc_em_rindex(em, spatial);
  uint32_t lhs_index[GRTC_MAX_RANK], rhs_index[GRTC_MAX_RANK];
  // Batch groups take consecutive chunks of the batch and of the output
  // features; feature groups consecutive chunks of the input features and
  // of the output features (the spec's split/concatenate definition).
  uint32_t batch = n;
  if (batch_groups > 1 && !grtc_dim_is_static(in_batch)) {
    grtc_emitter_fail(em, grtc_top_error(em->module, op,
                                         "'stablehlo.convolution' with "
                                         "batch_group_count %lld and a "
                                         "symbolic batch is not supported",
                                         (long long)batch_groups));
    return;
  }
  if (batch_groups > 1) {
    uint32_t group = grtc_em_op(em, GRTC_SCALAR_DIV, GRTC_ELEM_I64, oc,
                                grtc_em_i64(em, out_features / batch_groups),
                                0);
    batch = grtc_em_add(
        em, grtc_em_mul(em, group, grtc_em_i64(em, in_batch / batch_groups)),
        n);
  }
  uint32_t feature = ci;
  if (feature_groups > 1) {
    uint32_t group = grtc_em_op(em, GRTC_SCALAR_DIV, GRTC_ELEM_I64, oc,
                                grtc_em_i64(em, out_features / feature_groups),
                                0);
    feature = grtc_em_add(
        em,
        grtc_em_mul(em, group, grtc_em_i64(em, in_features / feature_groups)),
        ci);
  }
  lhs_index[c->input_batch] = batch;
  lhs_index[c->input_feature] = feature;
  rhs_index[c->kernel_input_feature] = ci;
  rhs_index[c->kernel_output_feature] = oc;
  uint32_t inside = grtc_em_bool(em, true);
  for (uint32_t i = 0; i < spatial; ++i) {
    int64_t in_size = lhs->type.dims[c->input_spatial.values[i]];
    int64_t lhs_dilation = c->lhs_dilation.values[i];
    uint32_t k = grtc_em_rindex(em, i);
    rhs_index[c->kernel_spatial.values[i]] = k;
    uint32_t pos = grtc_em_sub(
        em,
        grtc_em_add(
            em,
            grtc_em_mul(em, grtc_em_pindex(em, 1 + i),
                        grtc_em_i64(em, c->window_strides.values[i])),
            grtc_em_mul(em, k, grtc_em_i64(em, c->rhs_dilation.values[i]))),
        grtc_em_i64(em, c->padding_low.values[i]));
    uint32_t q = pos;
    if (lhs_dilation > 1) {
      uint32_t rem = grtc_em_op(em, GRTC_SCALAR_REM, GRTC_ELEM_I64, pos,
                                grtc_em_i64(em, lhs_dilation), 0);
      inside = grtc_em_and(em, inside,
                           grtc_em_cmp(em, GRTC_CMP_EQ, GRTC_CMP_TYPE_SIGNED,
                                       rem, grtc_em_i64(em, 0)));
      q = grtc_em_op(em, GRTC_SCALAR_DIV, GRTC_ELEM_I64, pos,
                     grtc_em_i64(em, lhs_dilation), 0);
    }
    inside = grtc_em_and(
        em, inside,
        grtc_em_in_range(em, pos, 0, (in_size - 1) * lhs_dilation + 1));
    lhs_index[c->input_spatial.values[i]] =
        grtc_em_clamp(em, q, 0, in_size - 1);
  }
  em->section = GRTC_KSECTION_LOOP;
  if (grtc_ttype_element_count(&lhs->type) == 0) {
    inside = grtc_em_bool(em, false);  // nothing to load: the sum is 0
  }
  uint32_t a = 0, b = 0;
  int64_t never;
  if (grtc_em_const_int(em, inside, &never) && !never) {
    a = grtc_em_const(em, lhs->type.elem, 0, 0);
    b = grtc_em_const(em, rhs->type.elem, 0, 0);
  } else {
    a = grtc_em_value(em, lhs, lhs_index);
    b = grtc_em_value(em, rhs, rhs_index);
  }
  grtc_lower_multiply_accumulate(em, a, b, inside, results, out->elem);
  results->index[c->output_batch] = grtc_em_pindex(em, 0);
  for (uint32_t i = 0; i < spatial; ++i) {
    results->index[c->output_spatial.values[i]] = grtc_em_pindex(em, 1 + i);
  }
  results->index[c->output_feature] = grtc_em_pindex(em, spatial + 1);

  int64_t lhs_strides[GRTC_MAX_RANK], rhs_strides[GRTC_MAX_RANK];
  grtc_tvalue_t *lhs_source, *rhs_source;
  bool unit_lhs_dilation = true;
  for (uint32_t i = 0; i < spatial; ++i) {
    unit_lhs_dilation &= c->lhs_dilation.values[i] == 1;
  }
  if (spatial != 2 || !unit_lhs_dilation || batch_groups != 1 ||
      !grtc_em_strided_source(em, lhs, lhs_strides, &lhs_source)) {
    return;
  }
  grtc_tvalue_t* rhs_stored = grtc_lower_weight_source(em, lhs, rhs);
  if (!grtc_em_strided_source(em, rhs_stored, rhs_strides, &rhs_source)) {
    return;
  }
  grtc_kconv_t* kc = &em->kernel->conv;
  kc->input_binding = grtc_em_input(em, lhs_source);
  kc->filter_binding = grtc_em_input(em, rhs_source);
  kc->n = grtc_em_kdim(em, in_batch);
  kc->h = lhs->type.dims[c->input_spatial.values[0]];
  kc->w = lhs->type.dims[c->input_spatial.values[1]];
  kc->c = in_features;
  kc->kh = reduction[0];
  kc->kw = reduction[1];
  kc->oc = out_features;
  kc->oh = parallel[1];
  kc->ow = parallel[2];
  kc->stride_h = c->window_strides.values[0];
  kc->stride_w = c->window_strides.values[1];
  kc->pad_h = c->padding_low.values[0];
  kc->pad_w = c->padding_low.values[1];
  kc->dilation_h = c->rhs_dilation.values[0];
  kc->dilation_w = c->rhs_dilation.values[1];
  kc->groups = feature_groups;
  kc->input_strides[0] = lhs_strides[c->input_batch];
  kc->input_strides[1] = lhs_strides[c->input_spatial.values[0]];
  kc->input_strides[2] = lhs_strides[c->input_spatial.values[1]];
  kc->input_strides[3] = lhs_strides[c->input_feature];
  kc->filter_strides[0] = rhs_strides[c->kernel_spatial.values[0]];
  kc->filter_strides[1] = rhs_strides[c->kernel_spatial.values[1]];
  kc->filter_strides[2] = rhs_strides[c->kernel_input_feature];
  kc->filter_strides[3] = rhs_strides[c->kernel_output_feature];
  kc->input_elem = lhs->type.elem;
  kc->filter_elem = rhs->type.elem;
  kc->acc_elem = grtc_lower_acc_type(out->elem);
  em->kernel->pattern = GRTC_KPATTERN_CONV2D;
}

static void grtc_lower_sort(grtc_emitter_t* em, grtc_top_t* op) {
  grtc_kernel_t* kernel = em->kernel;
  const grtc_ttype_t* type = &op->operands[0]->type;
  kernel->kind = GRTC_KERNEL_SORT;
  kernel->sort.dimension = (uint32_t)op->attrs.dim;
  kernel->sort.operand_count = op->operand_count;
  kernel->sort.rank = type->rank;
  for (uint32_t d = 0; d < type->rank; ++d) kernel->sort.dims[d] = type->dims[d];
  // Bindings are the operands in order, repeats included.
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    grtc_tvalue_t* v = op->operands[i];
    grtc_emitter_fail(
        em, grt_arena_vec_push(em->scratch, &em->inputs, &v, sizeof(v)));
  }
  uint32_t args[2 * GRTC_LOWER_MAX_VALUES] = {0};
  uint32_t comparator = 0;
  bool fits = op->region_count == 1;
  if (fits) {
    for (uint32_t i = 0; i < 2 * op->operand_count; ++i) {
      args[i] = grtc_em_arg(em, i, op->operands[i / 2]->type.elem);
    }
    grtc_em_body(em, op->regions[0], args, 2 * op->operand_count,
                 &comparator, 1);
    if (grtc_emitter_failed(em)) return;
  }
  if (!fits || grtc_em_type(em, comparator) != GRTC_ELEM_I1 ||
      type->rank == 0) {
    grtc_emitter_fail(em, grtc_top_error(em->module, op,
                                         "'stablehlo.sort' of %u rank-%u "
                                         "operands with this comparator is "
                                         "not supported",
                                         op->operand_count, type->rank));
    return;
  }
  kernel->sort.comparator = comparator;
}

// Scatter's in-place update: one serial pass over the updates.
static void grtc_lower_scatter(grtc_emitter_t* em, grtc_top_t* op,
                               grtc_tvalue_t* copy) {
  const grtc_scatter_dims_t* s = &op->attrs.scatter;
  if (op->operand_count != 3 || op->region_count != 1) {
    grtc_emitter_fail(em, grtc_top_error(em->module, op,
                                         "'stablehlo.scatter' with %u inputs "
                                         "is not supported (1)",
                                         (op->operand_count - 1) / 2));
    return;
  }
  grtc_tvalue_t* indices = op->operands[1];
  grtc_tvalue_t* updates = op->operands[2];
  const grtc_ttype_t* in = &op->results[0].type;
  grtc_kernel_t* kernel = em->kernel;
  kernel->serial = true;
  grtc_lower_set_parallel(em, updates->type.dims, updates->type.rank);
  grtc_em_input(em, copy);  // binding 0, updated in place
  uint32_t update_index[GRTC_MAX_RANK], scatter_index[GRTC_MAX_RANK];
  uint32_t window_index[GRTC_MAX_RANK];
  uint32_t scatter_count = 0, window_count = 0;
  int64_t window_sizes[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < updates->type.rank; ++d) {
    update_index[d] = grtc_em_pindex(em, d);
    if (grtc_i64s_contains(&s->update_window_dims, d)) {
      window_sizes[window_count] = updates->type.dims[d];
      window_index[window_count++] = update_index[d];
    } else {
      scatter_index[scatter_count++] = update_index[d];
    }
  }
  uint32_t start[GRTC_MAX_RANK], result_index[GRTC_MAX_RANK];
  int64_t size[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < in->rank; ++d) {
    start[d] = grtc_em_i64(em, 0);
    size[d] = 1;
  }
  for (uint32_t k = 0; k < s->scatter_dims_to_operand_dims.count; ++k) {
    int64_t od = s->scatter_dims_to_operand_dims.values[k];
    uint32_t element = grtc_em_index_vector_element(
        em, indices, scatter_index, s->index_vector_dim, k);
    start[od] = grtc_em_add(em, start[od], element);
  }
  for (uint32_t k = 0; k < s->input_batching_dims.count; ++k) {
    int64_t od = s->input_batching_dims.values[k];
    int64_t sd = s->scatter_indices_batching_dims.values[k];
    uint32_t bd = grtc_em_batch_dim(indices, s->index_vector_dim, sd);
    start[od] = grtc_em_add(em, start[od], scatter_index[bd]);
  }
  uint32_t w = 0;
  uint32_t inside = grtc_em_bool(em, true);
  for (uint32_t d = 0; d < in->rank; ++d) {
    uint32_t offset = grtc_em_i64(em, 0);
    if (!grtc_i64s_contains(&s->inserted_window_dims, d) &&
        !grtc_i64s_contains(&s->input_batching_dims, d) && w < window_count) {
      size[d] = window_sizes[w];
      offset = window_index[w++];
    }
    // The whole window must fit, else the update is skipped (XLA).
    inside = grtc_em_and(em, inside,
                         grtc_em_in_range(em, start[d], 0,
                                          in->dims[d] - size[d] + 1));
    result_index[d] = grtc_em_clamp(em, grtc_em_add(em, start[d], offset), 0,
                                    in->dims[d] - 1);
  }
  uint32_t args[2] = {0, 0};
  args[0] = grtc_em_value(em, copy, result_index);
  args[1] = grtc_em_value(em, updates, update_index);
  uint32_t value = 0;
  grtc_em_body(em, op->regions[0], args, 2, &value, 1);
  grtc_kstore_t store = {0, grtc_em_linear(em, in, result_index), value,
                         inside};
  if (!grtc_emitter_failed(em) &&
      kernel->insts[inside].kind == GRTC_KINST_CONST &&
      kernel->insts[inside].value.i != 0) {
    store.predicate = GRTC_KINST_NONE;
  }
  if (!grtc_emitter_failed(em)) {
    grtc_emitter_fail(em, grtc_kernel_add_store(em->set, kernel, &store));
  }
}

// The space of a ROWS kernel over |type| (its last dim n a row): parallel
// |type|, reduction 2 x n (the pass, then the row position), accumulators
// 0 and 1 from |init0| and |init1|; leaves the section at LOOP and
// |index| the element (row..., rindex 1) of the row the reduction visits.
static void grtc_lower_rows_space(grtc_emitter_t* em, const grtc_ttype_t* type,
                                  grtc_tvalue_t* init0, grtc_tvalue_t* init1,
                                  uint32_t* index) {
  uint32_t rank = type->rank;
  grtc_lower_set_parallel(em, type->dims, rank);
  const int64_t passes[2] = {2, type->dims[rank - 1]};
  grtc_lower_set_reduction(em, passes, 2);
  grtc_tvalue_t* inits[2] = {init0, init1};
  uint32_t init_insts[2];
  grtc_lower_accs(em, inits, 2, init_insts);
  em->section = GRTC_KSECTION_LOOP;
  grtc_lower_parallel_index(em, rank - 1, index);
  index[rank - 1] = grtc_em_rindex(em, 1);
}

// A softmax along the last dim (compiler/dispatch/rows.h) as one ROWS
// kernel: over the reduction space 2 x n, pass 0 folds the row's maximum
// into acc 0 and pass 1 the exponentials of x - max into acc 1 (the order
// and ops of the two reductions it replaces); POST divides the point's
// exponential by the sum.
static void grtc_lower_softmax_rows(grtc_emitter_t* em,
                                    const grtc_rows_match_t* m,
                                    grtc_lower_results_t* results) {
  grtc_kernel_t* kernel = em->kernel;
  const grtc_ttype_t* type = &m->input->type;
  uint32_t rank = type->rank;
  int64_t n = type->dims[rank - 1];
  uint32_t index[GRTC_MAX_RANK];
  grtc_lower_rows_space(em, type, m->max_reduce->operands[1],
                        m->sum_reduce->operands[1], index);
  const grtc_elem_t f32 = GRTC_ELEM_F32;
  uint32_t x = grtc_em_value(em, m->input, index);
  uint32_t max = grtc_em_acc(em, 0), sum = grtc_em_acc(em, 1);
  uint32_t first = grtc_em_cmp(em, GRTC_CMP_EQ, GRTC_CMP_TYPE_SIGNED,
                               grtc_em_rindex(em, 0), grtc_em_i64(em, 0));
  uint32_t e = grtc_em_op(em, GRTC_SCALAR_EXP, f32,
                          grtc_em_op(em, GRTC_SCALAR_SUB, f32, x, max, 0), 0, 0);
  uint32_t updates[2] = {
      grtc_em_select(em, first, grtc_em_op(em, GRTC_SCALAR_MAX, f32, max, x, 0),
                     max),
      grtc_em_select(em, first, sum,
                     grtc_em_op(em, GRTC_SCALAR_ADD, f32, sum, e, 0))};
  for (uint32_t k = 0; k < 2 && !grtc_emitter_failed(em); ++k) {
    kernel->accs[k].update = grtc_lower_in_loop(em, updates[k]);
  }
  em->section = GRTC_KSECTION_POST;
  grtc_lower_parallel_index(em, rank, results->index);
  uint32_t xp = grtc_em_value(em, m->input, results->index);
  max = grtc_em_acc(em, 0);
  sum = grtc_em_acc(em, 1);
  uint32_t ep = grtc_em_op(em, GRTC_SCALAR_EXP, f32,
                           grtc_em_op(em, GRTC_SCALAR_SUB, f32, xp, max, 0), 0,
                           0);
  results->count = 1;
  results->values[0] = grtc_em_op(em, GRTC_SCALAR_DIV, f32, ep, sum, 0);
  if (grtc_emitter_failed(em)) return;
  kernel->pattern = GRTC_KPATTERN_ROWS;
  kernel->rows.kind = GRTC_KROWS_SOFTMAX;
  kernel->rows.input_binding = grtc_em_input(em, m->input);
  kernel->rows.n = n;
}

// The GRTC_FUSE_ROWS-marked REDUCE ops |v| reaches (through marked ops).
#define GRTC_LOWER_ROWS_MAX_VISITS 64
typedef struct grtc_lower_rows_find_t {
  const grtc_lower_context_t* context;
  uint32_t visited_count;
  const grtc_top_t* visited[GRTC_LOWER_ROWS_MAX_VISITS];
  uint32_t reduce_count;
  grtc_top_t* reduces[2];
} grtc_lower_rows_find_t;

static void grtc_lower_rows_find(grtc_lower_rows_find_t* f, grtc_tvalue_t* v) {
  grtc_top_t* op = v->def;
  if (!op || v->id >= f->context->fuse_count ||
      f->context->fuse[v->id] != GRTC_FUSE_ROWS) {
    return;
  }
  for (uint32_t i = 0; i < f->visited_count; ++i) {
    if (f->visited[i] == op) return;
  }
  if (f->visited_count == GRTC_LOWER_ROWS_MAX_VISITS) return;
  f->visited[f->visited_count++] = op;
  if (op->kind == GRTC_TOP_REDUCE) {
    if (f->reduce_count < 2) f->reduces[f->reduce_count++] = op;
    v = op->operands[0];
    grtc_lower_rows_find(f, v);
    return;
  }
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    grtc_lower_rows_find(f, op->operands[i]);
  }
}

// A root whose tree formation marked as two reductions along the row
// (dispatch.c, grtc_dispatch_rows_two_pass) as one ROWS kernel: pass 0
// folds the first reduction's operand into acc 0, pass 1 the second's
// (which reads the first's result as acc 0, final by then) into acc 1;
// POST computes the root at the point with the two results bound.
static void grtc_lower_two_pass_rows(grtc_emitter_t* em,
                                     const grtc_lower_context_t* context,
                                     grtc_top_t* root,
                                     grtc_lower_results_t* results) {
  grtc_lower_rows_find_t f;
  memset(&f, 0, sizeof(f));
  f.context = context;
  for (uint32_t i = 0; i < root->operand_count; ++i) {
    grtc_lower_rows_find(&f, root->operands[i]);
  }
  if (f.reduce_count != 2) {
    grtc_emitter_fail(em, grtc_top_error(em->module, root,
                                         "internal: a row kernel needs two "
                                         "reductions, found %u",
                                         f.reduce_count));
    return;
  }
  // The first is the one the other's operand reaches.
  grtc_lower_rows_find_t inner;
  memset(&inner, 0, sizeof(inner));
  inner.context = context;
  grtc_lower_rows_find(&inner, f.reduces[0]->operands[0]);
  bool swap = inner.reduce_count > 0;
  grtc_top_t* first_reduce = f.reduces[swap ? 1 : 0];
  grtc_top_t* second_reduce = f.reduces[swap ? 0 : 1];
  grtc_kernel_t* kernel = em->kernel;
  const grtc_ttype_t* type = &root->results[0].type;
  uint32_t rank = type->rank;
  int64_t n = type->dims[rank - 1];
  uint32_t index[GRTC_MAX_RANK];
  grtc_lower_rows_space(em, type, first_reduce->operands[1],
                        second_reduce->operands[1], index);
  uint32_t acc[2] = {grtc_em_acc(em, 0), grtc_em_acc(em, 1)};
  grtc_em_bind(em, &first_reduce->results[0], acc[0]);
  uint32_t args[2][2] = {
      {acc[0], grtc_em_value(em, first_reduce->operands[0], index)},
      {acc[1], grtc_em_value(em, second_reduce->operands[0], index)}};
  uint32_t folded[2] = {0, 0};
  grtc_em_body(em, first_reduce->regions[0], args[0], 2, &folded[0], 1);
  grtc_em_body(em, second_reduce->regions[0], args[1], 2, &folded[1], 1);
  uint32_t first = grtc_em_cmp(em, GRTC_CMP_EQ, GRTC_CMP_TYPE_SIGNED,
                               grtc_em_rindex(em, 0), grtc_em_i64(em, 0));
  uint32_t updates[2] = {grtc_em_select(em, first, folded[0], acc[0]),
                         grtc_em_select(em, first, acc[1], folded[1])};
  for (uint32_t k = 0; k < 2 && !grtc_emitter_failed(em); ++k) {
    kernel->accs[k].update = grtc_lower_in_loop(em, updates[k]);
  }
  em->section = GRTC_KSECTION_POST;
  grtc_em_bind(em, &first_reduce->results[0], grtc_em_acc(em, 0));
  grtc_em_bind(em, &second_reduce->results[0], grtc_em_acc(em, 1));
  grtc_lower_parallel_index(em, rank, results->index);
  results->count = 1;
  results->values[0] = grtc_em_op_result(em, root, 0, results->index);
  if (grtc_emitter_failed(em)) return;
  kernel->pattern = GRTC_KPATTERN_ROWS;
  kernel->rows.kind = GRTC_KROWS_TWO_PASS;
  kernel->rows.n = n;
}

// Tiles of about |target| points: inner dims whole, outer dims split. A
// symbolic dim (its extent unknown until the call) takes what is left of
// the target, and the dims outside it tiles of 1.
static void grtc_lower_tile_outer(grtc_kernel_t* kernel, int64_t target) {
  int64_t inner = 1;
  bool split = false;
  for (uint32_t d = kernel->parallel_rank; d-- > 0;) {
    int64_t dim = kernel->parallel_dims[d] > 0 ? kernel->parallel_dims[d] : 1;
    if (split) {
      kernel->tile[d] = 1;
    } else if (!grtc_kdim_is_static(kernel->parallel_dims[d])) {
      int64_t tile = target / inner;
      kernel->tile[d] = tile < 1 ? 1 : tile;
      split = true;
    } else if (inner * dim <= target) {
      kernel->tile[d] = dim;
      inner *= dim;
    } else {
      int64_t tile = target / inner;
      kernel->tile[d] = tile < 1 ? 1 : tile;
      split = true;
    }
  }
}

// Matmul and convolution tiles are shaped for the CPU target's packed GEMM
// (compiler/target/cpu/emit_c.c), which packs the B panel (a K x n slice of
// the right-hand side, or the filter) once per workgroup and the A rows once
// per workgroup and 256-column block: a workgroup of tm x tn costs packing
// K * tn + tm * K floats for 2 * tm * tn * K flops, so tiles should be as
// large as parallelism allows. They aim for at least
// GRTC_DISPATCH_MIN_WORKGROUPS workgroups, enough for local-task to spread
// them over a few cores with some balance.
#define GRTC_DISPATCH_MIN_WORKGROUPS 8
// Columns of one GEMM block on the CPU (GRTC_CPU_GEMM_COLS): a wider N
// tile would only loop over blocks that each pack A again.
#define GRTC_DISPATCH_MATMUL_TILE_N 256
// Rows of one GEMM block on the CPU (GRTC_CPU_GEMM_ROWS); below
// GRTC_DISPATCH_MATMUL_MIN_TILE_M rows (eight 6-row micro-panels) B is
// repacked for too little work.
#define GRTC_DISPATCH_MATMUL_MAX_TILE_M 1024
#define GRTC_DISPATCH_MATMUL_MIN_TILE_M 48
// Output pixels a convolution workgroup should cover, so the CPU target's
// GEMM paths pack each filter panel once for many pixels (one pixel block
// of its planar path, GRTC_CPU_CONV_PIXEL_BLOCK).
#define GRTC_DISPATCH_CONV_MIN_PIXELS 256
// Output channels of a convolution workgroup when the channels are split:
// a multiple of the GEMM's 16-column panels.
#define GRTC_DISPATCH_CONV_OC_STEP GRTC_KERNEL_SPLIT_STEP
// Splitting rows for more workgroups stops at this many pixels per tile
// (the GEMM paths need a few dozen).
#define GRTC_DISPATCH_CONV_SPLIT_PIXELS 64
// Convolutions aim at fewer workgroups than matmuls: every output-channel
// tile of a small late layer builds the same im2col B panels again, so
// splitting the channels 8 ways cost more than it spread (ResNet-50's
// layers 3 and 4: 8 -> 4 workgroups made one thread 7% faster and two
// threads no slower). 4 still gives each of 2 workers 2 tiles. GPU
// targets keep GRTC_DISPATCH_MIN_WORKGROUPS (grtc_dispatch_choose_gpu_tile).
// A CPU-only module's planar GEMM convolutions choose their channel split
// at run time instead, from the device's concurrency
// (grtc_dispatch_plan_runtime_split); these tiles stay for other targets.
#define GRTC_DISPATCH_CONV_MIN_WORKGROUPS 4

// What tiling assumes of a symbolic reduction dim's extent.
#define GRTC_DISPATCH_SYMBOLIC_REDUCTION 256

static int64_t grtc_lower_ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

static int64_t grtc_lower_dim(const grtc_kernel_t* kernel, uint32_t d) {
  return kernel->parallel_dims[d] > 0 ? kernel->parallel_dims[d] : 1;
}

// Batch tiles of 1; N in GEMM-block columns; M as tall as one GEMM block
// allows, split only as far as needed for GRTC_DISPATCH_MIN_WORKGROUPS.
static void grtc_lower_tile_matmul(grtc_kernel_t* kernel) {
  uint32_t rank = kernel->parallel_rank;
  int64_t batch = 1;
  for (uint32_t d = 0; d + 2 < rank; ++d) {
    kernel->tile[d] = 1;
    batch *= grtc_lower_dim(kernel, d);
  }
  int64_t m = grtc_lower_dim(kernel, rank - 2);
  int64_t n = grtc_lower_dim(kernel, rank - 1);
  bool symbolic_n = !grtc_kdim_is_static(kernel->parallel_dims[rank - 1]);
  if (symbolic_n) n = GRTC_DISPATCH_MATMUL_TILE_N;
  int64_t tn = n < GRTC_DISPATCH_MATMUL_TILE_N ? n : GRTC_DISPATCH_MATMUL_TILE_N;
  int64_t others = batch * grtc_lower_ceil_div(n, tn);
  int64_t m_tiles = grtc_lower_ceil_div(m, GRTC_DISPATCH_MATMUL_MAX_TILE_M);
  if (others * m_tiles < GRTC_DISPATCH_MIN_WORKGROUPS) {
    m_tiles = grtc_lower_ceil_div(GRTC_DISPATCH_MIN_WORKGROUPS, others);
  }
  // Rows in whole 6-row micro-panels where one GEMM block allows.
  int64_t tm = (grtc_lower_ceil_div(m, m_tiles) + 5) / 6 * 6;
  if (tm > GRTC_DISPATCH_MATMUL_MAX_TILE_M) tm = GRTC_DISPATCH_MATMUL_MAX_TILE_M;
  if (tm < GRTC_DISPATCH_MATMUL_MIN_TILE_M) tm = GRTC_DISPATCH_MATMUL_MIN_TILE_M;
  kernel->tile[rank - 2] = tm < m ? tm : m;
  kernel->tile[rank - 1] = tn;
  if (!grtc_kdim_is_static(kernel->parallel_dims[rank - 2])) {
    // M known only at the call: the smallest tile whose B packing pays
    // (batch 1 runs one short tile, large batches many).
    kernel->tile[rank - 2] = GRTC_DISPATCH_MATMUL_MIN_TILE_M;
  }
}

// Parallel space (n, oh, ow, oc): one image, whole output rows, as many as
// GRTC_DISPATCH_CONV_MIN_PIXELS needs; when that leaves fewer than
// |min_workgroups| workgroups (the small late layers of a
// network), the output channels are split as well, in steps of
// GRTC_DISPATCH_CONV_OC_STEP, so each workgroup reads its own part of the
// filter instead of every workgroup reading all of it for a few pixels,
// and if that is still too few, the rows are too (down to
// GRTC_DISPATCH_CONV_SPLIT_PIXELS pixels).
static void grtc_lower_tile_conv(grtc_kernel_t* kernel, int64_t min_workgroups) {
  // A symbolic batch is taken to be min_workgroups images:
  // whole filters per workgroup, as a large static batch gets.
  int64_t images = grtc_kdim_is_static(kernel->parallel_dims[0])
                       ? grtc_lower_dim(kernel, 0)
                       : min_workgroups;
  int64_t oh = grtc_lower_dim(kernel, 1);
  int64_t ow = grtc_lower_dim(kernel, 2);
  int64_t oc = grtc_lower_dim(kernel, 3);
  int64_t rows = grtc_lower_ceil_div(GRTC_DISPATCH_CONV_MIN_PIXELS, ow);
  if (rows > oh) rows = oh;
  int64_t tiles = images * grtc_lower_ceil_div(oh, rows);
  int64_t toc = oc;
  if (tiles < min_workgroups) {
    int64_t split = grtc_lower_ceil_div(min_workgroups, tiles);
    toc = grtc_lower_ceil_div(grtc_lower_ceil_div(oc, split),
                              GRTC_DISPATCH_CONV_OC_STEP) *
          GRTC_DISPATCH_CONV_OC_STEP;
    if (toc > oc) toc = oc;
    // Still too few (few channels too): fewer rows, one at least.
    int64_t oc_tiles = grtc_lower_ceil_div(oc, toc);
    if (tiles * oc_tiles < min_workgroups) {
      int64_t spread = grtc_lower_ceil_div(min_workgroups,
                                           images * oc_tiles);
      int64_t least = grtc_lower_ceil_div(GRTC_DISPATCH_CONV_SPLIT_PIXELS, ow);
      rows = oh / spread > least ? oh / spread : least;
      if (rows > oh) rows = oh;
    }
  }
  kernel->tile[0] = 1;
  kernel->tile[1] = rows;
  kernel->tile[2] = ow;
  kernel->tile[3] = toc;
}

// A depthwise convolution (one input channel per group) on planar
// activations (the CPU target's depthwise kernel, which runs a tile's rows
// in chunks that fit L1): whole output planes per workgroup, the channels
// split GRTC_DISPATCH_DEPTHWISE_CHANNEL_TILES ways. Each channel's input
// plane is then read once, front to back, instead of a few rows (and their
// halo rows again) per row tile: MobileNetV2's 112x112 layers had 3-row
// tiles that read 5 input rows each. Where grtc_lower_tile_conv chose
// whole planes already (14x14 and 7x7 layers, their channels split 4
// ways), its tiles stay: 8 channel tiles only added workgroups.
#define GRTC_DISPATCH_DEPTHWISE_CHANNEL_TILES 8
static void grtc_lower_tile_depthwise(grtc_kernel_t* kernel) {
  const grtc_kconv_t* cv = &kernel->conv;
  bool planar = cv->input_strides[2] == 1 && cv->input_strides[3] != 1;
  int64_t oh = grtc_lower_dim(kernel, 1);
  if (cv->groups < 2 || cv->c != cv->groups || !planar ||
      grtc_kernel_is_symbolic(kernel) || kernel->tile[1] >= oh) {
    return;
  }
  int64_t oc = grtc_lower_dim(kernel, 3);
  kernel->tile[1] = oh;
  kernel->tile[2] = grtc_lower_dim(kernel, 2);
  kernel->tile[3] =
      grtc_lower_ceil_div(oc, GRTC_DISPATCH_DEPTHWISE_CHANNEL_TILES);
}

void grtc_dispatch_plan_runtime_split(grtc_kernel_t* kernel) {
  kernel->split_max = 0;
  if (kernel->pattern != GRTC_KPATTERN_CONV2D || kernel->parallel_rank != 4 ||
      kernel->serial || kernel->kind != GRTC_KERNEL_LOOP ||
      grtc_kernel_is_symbolic(kernel)) {
    return;
  }
  int64_t others = grtc_kernel_split_others(kernel);
  int64_t oc = grtc_lower_dim(kernel, 3);
  int64_t most = grtc_lower_ceil_div(GRTC_DISPATCH_MIN_WORKGROUPS, others);
  int64_t panels = grtc_lower_ceil_div(oc, GRTC_KERNEL_SPLIT_STEP);
  if (most > panels) most = panels;
  if (most >= 2) kernel->split_max = (uint32_t)most;
}

// Whole rows (the last dim), about |elements_per_workgroup| (0: 64K)
// elements per workgroup but at least GRTC_DISPATCH_MIN_WORKGROUPS
// workgroups when there are that many rows, so local-task spreads even
// small row kernels (a layer's 384 rows of 128) over its workers.
static void grtc_lower_tile_rows(grtc_kernel_t* kernel,
                                 int64_t elements_per_workgroup) {
  uint32_t rank = kernel->parallel_rank;
  int64_t n = grtc_lower_dim(kernel, rank - 1);
  int64_t total = 1;
  for (uint32_t d = 0; d < rank; ++d) total *= grtc_lower_dim(kernel, d);
  int64_t target = elements_per_workgroup > 0 ? elements_per_workgroup : 65536;
  int64_t spread = total / GRTC_DISPATCH_MIN_WORKGROUPS;
  if (spread < target) target = spread;
  if (target < n) target = n;
  grtc_lower_tile_outer(kernel, target);
}

void grtc_dispatch_choose_tile(grtc_kernel_t* kernel,
                               int64_t elements_per_workgroup) {
  if (kernel->kind == GRTC_KERNEL_SORT || kernel->serial) {
    for (uint32_t d = 0; d < kernel->parallel_rank; ++d) {
      kernel->tile[d] = grtc_lower_dim(kernel, d);
    }
    return;
  }
  if (kernel->pattern == GRTC_KPATTERN_MATMUL && kernel->parallel_rank >= 2) {
    grtc_lower_tile_matmul(kernel);
    return;
  }
  if (kernel->pattern == GRTC_KPATTERN_CONV2D && kernel->parallel_rank == 4) {
    grtc_lower_tile_conv(kernel, GRTC_DISPATCH_CONV_MIN_WORKGROUPS);
    grtc_lower_tile_depthwise(kernel);
    // One output pixel (a squeeze-excite 1x1 convolution) with the output
    // channels contiguous in the filter: a channel tile would read a piece
    // of every filter row (each workgroup's 256 bytes of 960 floats in
    // MobileNetV3), so one workgroup reads the rows whole, front to back
    // (4-5x faster with the filter out of cache, measured on a copy of
    // the 960 -> 240 one; GPU targets retile for themselves).
    if (grtc_lower_dim(kernel, 1) * grtc_lower_dim(kernel, 2) == 1 &&
        kernel->conv.filter_strides[3] == 1) {
      kernel->tile[3] = grtc_lower_dim(kernel, 3);
    }
    return;
  }
  if (kernel->pattern == GRTC_KPATTERN_ROWS) {
    grtc_lower_tile_rows(kernel, elements_per_workgroup);
    return;
  }
  int64_t target = elements_per_workgroup > 0 ? elements_per_workgroup : 65536;
  int64_t work = 1;
  for (uint32_t d = 0; d < kernel->reduction_rank; ++d) {
    int64_t dim = kernel->reduction_dims[d];
    // A symbolic reduction is taken to be a row of a few hundred.
    work *= !grtc_kdim_is_static(dim) ? GRTC_DISPATCH_SYMBOLIC_REDUCTION
                                      : dim > 0 ? dim : 1;
  }
  int64_t points = target / work;
  grtc_lower_tile_outer(kernel, points < 1 ? 1 : points);
}

// A CUDA block of 256 threads over the CPU's 64K-element tile leaves a GPU
// with too few blocks to hide memory latency (16M elements: 256 blocks);
// 8K elements (32 per thread) gives it 8x more.
#define GRTC_DISPATCH_GPU_ELEMENTS_PER_WORKGROUP 8192
// A GPU runs one MATMUL tile per block: many 128x128 tiles, not the CPU
// GEMM's tall ones.
#define GRTC_DISPATCH_GPU_MATMUL_TILE 128

grt_status_t grtc_dispatch_choose_gpu_tile(grtc_kernel_t* kernel) {
  // A symbolic kernel keeps its tiles on every target, so the host program
  // computes one workgroup count for it whatever executable runs it.
  if (grtc_kernel_is_symbolic(kernel)) {
    return grtc_kernel_finalize_workgroups(kernel);
  }
  grtc_dispatch_choose_tile(kernel, GRTC_DISPATCH_GPU_ELEMENTS_PER_WORKGROUP);
  if (kernel->pattern == GRTC_KPATTERN_CONV2D && !kernel->serial &&
      kernel->parallel_rank == 4) {
    grtc_lower_tile_conv(kernel, GRTC_DISPATCH_MIN_WORKGROUPS);
  }
  if (kernel->pattern == GRTC_KPATTERN_MATMUL && !kernel->serial &&
      kernel->parallel_rank >= 2) {
    for (uint32_t d = kernel->parallel_rank - 2; d < kernel->parallel_rank; ++d) {
      int64_t dim = grtc_lower_dim(kernel, d);
      kernel->tile[d] =
          dim > GRTC_DISPATCH_GPU_MATMUL_TILE ? GRTC_DISPATCH_GPU_MATMUL_TILE : dim;
    }
  }
  return grtc_kernel_finalize_workgroups(kernel);
}

// Drops instructions nothing reads (index arithmetic that folding made
// redundant, unused constants) and renumbers the rest in order.
static grt_status_t grtc_lower_drop_dead(grt_arena_t* scratch,
                                         grtc_kernel_t* kernel) {
  uint32_t n = kernel->inst_count;
  uint32_t* map = grt_arena_alloc_zeroed(scratch, (n + 1) * sizeof(uint32_t));
  if (!map) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory lowering a kernel");
  }
  // map[i] != 0: live. Roots first, then operands (always earlier).
#define GRTC_LOWER_MARK(inst) \
  if ((inst) < n) map[(inst)] = 1
  for (uint32_t s = 0; s < kernel->store_count; ++s) {
    GRTC_LOWER_MARK(kernel->stores[s].index);
    GRTC_LOWER_MARK(kernel->stores[s].value);
    GRTC_LOWER_MARK(kernel->stores[s].predicate);
  }
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    GRTC_LOWER_MARK(kernel->accs[a].init);
    GRTC_LOWER_MARK(kernel->accs[a].update);
  }
  if (kernel->kind == GRTC_KERNEL_SORT) {
    GRTC_LOWER_MARK(kernel->sort.comparator);
  }
  for (uint32_t i = n; i-- > 0;) {
    if (!map[i]) continue;
    for (uint32_t j = 0; j < kernel->insts[i].operand_count; ++j) {
      GRTC_LOWER_MARK(kernel->insts[i].operands[j]);
    }
  }
#undef GRTC_LOWER_MARK
  uint32_t live = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (!map[i]) continue;
    grtc_kinst_t inst = kernel->insts[i];
    for (uint32_t j = 0; j < inst.operand_count; ++j) {
      inst.operands[j] = map[inst.operands[j]] - 1;
    }
    kernel->insts[live] = inst;
    map[i] = ++live;  // new number + 1
  }
  kernel->inst_count = live;
#define GRTC_LOWER_REMAP(inst) \
  if ((inst) < n) (inst) = map[(inst)] - 1
  for (uint32_t s = 0; s < kernel->store_count; ++s) {
    GRTC_LOWER_REMAP(kernel->stores[s].index);
    GRTC_LOWER_REMAP(kernel->stores[s].value);
    GRTC_LOWER_REMAP(kernel->stores[s].predicate);
  }
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    GRTC_LOWER_REMAP(kernel->accs[a].init);
    GRTC_LOWER_REMAP(kernel->accs[a].update);
  }
  if (kernel->kind == GRTC_KERNEL_SORT) {
    GRTC_LOWER_REMAP(kernel->sort.comparator);
  }
#undef GRTC_LOWER_REMAP
  return grt_ok_status();
}

// The reduction computed by |root|'s kernel when one is fused into it as
// the prologue of an elementwise chain.
static grtc_top_t* grtc_lower_find_prologue(const grtc_lower_context_t* c,
                                            const grtc_tblock_t* block,
                                            grtc_top_t* op) {
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    grtc_tvalue_t* v = op->operands[i];
    if (!v->def || v->def->parent != block || v->id >= c->fuse_count) continue;
    if (c->fuse[v->id] == GRTC_FUSE_EPILOGUE) return v->def;
    if (c->fuse[v->id] == GRTC_FUSE_INLINE) {
      grtc_top_t* found = grtc_lower_find_prologue(c, block, v->def);
      if (found) return found;
    }
  }
  return NULL;
}

static void grtc_lower_reduction(grtc_emitter_t* em, grtc_top_t* op,
                                 grtc_lower_results_t* results) {
  switch (op->kind) {
    case GRTC_TOP_REDUCE:
      grtc_lower_reduce(em, op, results);
      break;
    case GRTC_TOP_REDUCE_WINDOW:
      grtc_lower_reduce_window(em, op, results);
      break;
    case GRTC_TOP_DOT_GENERAL:
      grtc_lower_dot(em, op, results);
      break;
    case GRTC_TOP_CONVOLUTION:
      grtc_lower_conv(em, op, results);
      break;
    default:
      grtc_emitter_fail(em, grtc_top_error(em->module, op,
                                           "'%s' is not a reduction",
                                           grtc_top_kind_name(op->kind)));
      break;
  }
}

// A root whose operands the row pattern's kernel computes.
static bool grtc_lower_is_rows_root(const grtc_lower_context_t* c,
                                    const grtc_top_t* root) {
  for (uint32_t i = 0; i < root->operand_count; ++i) {
    uint32_t id = root->operands[i]->id;
    if (id < c->fuse_count && c->fuse[id] == GRTC_FUSE_ROWS) return true;
  }
  return false;
}

grt_status_t grtc_lower_region(const grtc_lower_context_t* context,
                               const grtc_tblock_t* block, grtc_top_t* root,
                               grtc_lower_mode_t mode, grtc_tvalue_t* copy,
                               const char* name, grtc_lowered_t* out) {
  memset(out, 0, sizeof(*out));
  if (root->result_count > GRTC_LOWER_MAX_VALUES ||
      ((root->kind == GRTC_TOP_REDUCE || root->kind == GRTC_TOP_REDUCE_WINDOW ||
        root->kind == GRTC_TOP_SORT) &&
       (root->operand_count == 0 ||
        root->operand_count > 2 * GRTC_LOWER_MAX_VALUES))) {
    return grtc_top_error(context->module, root,
                          "'%s' with %u operands and %u results is not "
                          "supported (at most %d results)",
                          grtc_top_kind_name(root->kind), root->operand_count,
                          root->result_count, GRTC_LOWER_MAX_VALUES);
  }
  grtc_kernel_t* kernel = NULL;
  GRT_RETURN_IF_ERROR(
      grtc_kernel_set_add(context->set, name, 0, &kernel, &out->kernel_index));
  grtc_emitter_t em;
  grtc_emitter_init(&em, context->set, kernel, context->module,
                    context->scratch, block, context->fuse,
                    context->fuse_count);
  grtc_lower_results_t results;
  memset(&results, 0, sizeof(results));
  uint32_t output_count = 0;
  const grtc_ttype_t* output_types[GRTC_LOWER_MAX_VALUES];
  bool stores_done = false;
  if (mode == GRTC_LOWER_SCATTER_COPY) {
    const grtc_ttype_t* type = &root->operands[0]->type;
    grtc_lower_set_parallel(&em, type->dims, type->rank);
    grtc_lower_parallel_index(&em, type->rank, results.index);
    results.count = 1;
    results.values[0] = grtc_em_value(&em, root->operands[0], results.index);
    output_types[output_count++] = type;
  } else if (mode == GRTC_LOWER_SCATTER_UPDATE) {
    grtc_lower_scatter(&em, root, copy);
    stores_done = true;
  } else if (grtc_lower_is_rows_root(context, root)) {
    grtc_rows_match_t match;
    output_types[output_count++] = &root->results[0].type;
    grtc_tvalue_t* x = NULL;
    if (grtc_rows_match_softmax(root, &match)) x = match.input;
    // The softmax routine reads its input from a buffer.
    if (x && (!x->def || x->def->parent != block || x->id >= context->fuse_count ||
              context->fuse[x->id] == GRTC_FUSE_MATERIALIZE)) {
      grtc_lower_softmax_rows(&em, &match, &results);
    } else {
      grtc_lower_two_pass_rows(&em, context, root, &results);
    }
  } else if (root->kind == GRTC_TOP_SORT) {
    grtc_lower_sort(&em, root);
    for (uint32_t r = 0; r < root->result_count; ++r) {
      output_types[output_count++] = &root->results[r].type;
    }
    stores_done = true;
  } else {
    for (uint32_t r = 0; r < root->result_count; ++r) {
      output_types[output_count++] = &root->results[r].type;
    }
    grtc_top_t* reduction =
        grtc_top_kind_role(root->kind) == GRTC_ROLE_R
            ? root
            : grtc_lower_find_prologue(context, block, root);
    if (reduction) {
      grtc_lower_reduction(&em, reduction, &results);
    } else {
      const grtc_ttype_t* type = &root->results[0].type;
      grtc_lower_set_parallel(&em, type->dims, type->rank);
      grtc_lower_parallel_index(&em, type->rank, results.index);
    }
    if (reduction != root) {
      if (reduction) {
        em.section = GRTC_KSECTION_POST;
        grtc_em_bind(&em, &reduction->results[0], results.values[0]);
      }
      results.count = root->result_count;
      for (uint32_t r = 0; r < root->result_count; ++r) {
        results.values[r] = grtc_em_op_result(&em, root, r, results.index);
      }
    }
  }
  if (!stores_done) {
    for (uint32_t r = 0; r < results.count; ++r) {
      grtc_kstore_t store = {
          em.inputs.count + r,
          grtc_em_linear(&em, output_types[r], results.index),
          results.values[r], GRTC_KINST_NONE};
      if (grtc_emitter_failed(&em)) break;
      grtc_emitter_fail(&em, grtc_kernel_add_store(context->set, kernel,
                                                   &store));
    }
  }
  if (grtc_emitter_failed(&em)) return em.status;

  // Bindings: inputs, then outputs (a scatter update has none of its own).
  uint32_t input_count = em.inputs.count;
  uint32_t binding_count = input_count + output_count;
  kernel->bindings = grt_arena_alloc_zeroed(
      &context->set->arena, (binding_count ? binding_count : 1) *
                                sizeof(grtc_kbinding_t));
  if (!kernel->bindings) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory lowering a kernel");
  }
  kernel->binding_count = binding_count;
  grtc_tvalue_t** inputs = em.inputs.data;
  for (uint32_t i = 0; i < input_count; ++i) {
    kernel->bindings[i].elem = inputs[i]->type.elem;
    kernel->bindings[i].element_count =
        grtc_ttype_element_count(&inputs[i]->type);
    kernel->bindings[i].access = GRTC_KACCESS_READ;
  }
  if (mode == GRTC_LOWER_SCATTER_UPDATE) {
    kernel->bindings[0].access = GRTC_KACCESS_READ_WRITE;
  }
  for (uint32_t r = 0; r < output_count; ++r) {
    grtc_kbinding_t* b = &kernel->bindings[input_count + r];
    b->elem = output_types[r]->elem;
    b->element_count = grtc_ttype_element_count(output_types[r]);
    b->access = GRTC_KACCESS_WRITE;
  }
  GRT_RETURN_IF_ERROR(grtc_lower_drop_dead(context->scratch, kernel));
  grtc_dispatch_choose_tile(kernel, context->elements_per_workgroup);
  GRT_RETURN_IF_ERROR(grtc_kernel_finalize_workgroups(kernel));
  out->kernel = kernel;
  out->input_count = input_count;
  out->inputs = inputs;
  return grt_ok_status();
}
