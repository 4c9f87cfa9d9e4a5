// Convolution filters laid out at compile time as the CPU GEMM's A panels
// (grtc_kconv_t.filter_packed), so the planar convolution path multiplies
// straight from rodata instead of packing the filter in every workgroup.
// The kernel's generic body is rewritten to read the packed layout, so it
// stays equivalent to the fast path (and correct on any other target).
#include <stdlib.h>
#include <string.h>

#include "compiler/target/c_family/c_family.h"
#include "compiler/target/cpu/cpu_internal.h"
#include "compiler/target/cpu/cpu_target.h"

// The GEMM's row panel height (gemm.c's micro-kernel rows).
#define GRTC_CPU_PACK_MR 6

typedef struct grtc_cpu_pack_dims_t {
  int64_t cig, ocg, ocp, k;
} grtc_cpu_pack_dims_t;

static grtc_cpu_pack_dims_t grtc_cpu_pack_dims(const grtc_kconv_t* cv) {
  grtc_cpu_pack_dims_t d;
  d.cig = cv->c / cv->groups;
  d.ocg = cv->oc / cv->groups;
  d.ocp = (d.ocg + GRTC_CPU_PACK_MR - 1) / GRTC_CPU_PACK_MR * GRTC_CPU_PACK_MR;
  d.k = cv->kh * cv->kw * d.cig;
  return d;
}

bool grtc_cpu_filter_prepackable(const grtc_kernel_t* kernel) {
  if (!grtc_cpu_conv_on_pixels_path(kernel) || kernel->conv.filter_packed) {
    return false;
  }
  // The filter is read only by the convolution's multiply (LOOP loads).
  for (uint32_t i = 0; i < kernel->inst_count; ++i) {
    const grtc_kinst_t* inst = &kernel->insts[i];
    if (inst->kind == GRTC_KINST_LOAD &&
        inst->binding == kernel->conv.filter_binding &&
        inst->section != GRTC_KSECTION_LOOP) {
      return false;
    }
  }
  return kernel->bindings[kernel->conv.filter_binding].access ==
             GRTC_KACCESS_READ &&
         kernel->conv.input_binding != kernel->conv.filter_binding;
}

int64_t grtc_cpu_packed_filter_size(const grtc_kernel_t* kernel) {
  grtc_cpu_pack_dims_t d = grtc_cpu_pack_dims(&kernel->conv);
  return kernel->conv.groups * d.k * d.ocp;
}

// Appends an instruction to the rebuilt list (see grtc_cpu_prepack_filter).
typedef struct grtc_cpu_rebuild_t {
  grtc_kernel_set_t* set;
  grtc_kernel_t* kernel;
  grt_status_t status;
} grtc_cpu_rebuild_t;

// Starts rebuilding |kernel|'s instruction list: *old gets a copy of the
// instructions, *map room for their new numbers, and the list is emptied
// for grtc_cpu_rb_add. The caller frees both.
static grt_status_t grtc_cpu_rb_begin(grtc_kernel_t* kernel, grtc_kinst_t** old,
                                      uint32_t** map) {
  uint32_t count = kernel->inst_count;
  *old = malloc((count + 1) * sizeof(grtc_kinst_t));
  *map = malloc((count + 1) * sizeof(uint32_t));
  if (!*old || !*map) {
    free(*old);
    free(*map);
    *old = NULL;
    *map = NULL;
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory prepacking kernel %.*s",
                           (int)kernel->name.size, kernel->name.data);
  }
  memcpy(*old, kernel->insts, count * sizeof(grtc_kinst_t));
  kernel->inst_count = 0;
  return grt_ok_status();
}

static uint32_t grtc_cpu_rb_add(grtc_cpu_rebuild_t* rb, grtc_kinst_t inst) {
  uint32_t out = 0;
  if (!grt_status_is_ok(rb->status)) return 0;
  rb->status = grtc_kernel_add_inst(rb->set, rb->kernel, &inst, &out);
  return out;
}

static uint32_t grtc_cpu_rb_i64(grtc_cpu_rebuild_t* rb, grtc_ksection_t s,
                                int64_t v) {
  return grtc_cpu_rb_add(rb, (grtc_kinst_t){.kind = GRTC_KINST_CONST,
                                            .section = s,
                                            .type = GRTC_ELEM_I64,
                                            .value.i = v});
}

static uint32_t grtc_cpu_rb_index(grtc_cpu_rebuild_t* rb,
                                  grtc_kinst_kind_t kind, grtc_ksection_t s,
                                  uint32_t dim) {
  return grtc_cpu_rb_add(rb, (grtc_kinst_t){.kind = kind, .section = s,
                                            .type = GRTC_ELEM_I64,
                                            .dim = dim});
}

static uint32_t grtc_cpu_rb_op(grtc_cpu_rebuild_t* rb, grtc_ksection_t s,
                               grtc_scalar_op_t op, uint32_t x, uint32_t y) {
  return grtc_cpu_rb_add(rb, (grtc_kinst_t){.kind = GRTC_KINST_OP,
                                            .section = s,
                                            .type = GRTC_ELEM_I64,
                                            .op = op,
                                            .operand_count = 2,
                                            .operands = {x, y}});
}

// The packed index of the filter element the convolution reads at
// (PINDEX 3 = oc; RINDEX 0, 1, 2 = i, j, ci): the formula of
// grtc_kconv_t.filter_packed.
static uint32_t grtc_cpu_rb_packed_index(grtc_cpu_rebuild_t* rb,
                                         const grtc_kconv_t* cv) {
  grtc_cpu_pack_dims_t d = grtc_cpu_pack_dims(cv);
  const grtc_ksection_t P = GRTC_KSECTION_PRE, L = GRTC_KSECTION_LOOP;
  const int64_t kc_full = GRTC_KCONV_PACK_KC;
  uint32_t oc = grtc_cpu_rb_index(rb, GRTC_KINST_PINDEX, P, 3);
  uint32_t group = grtc_cpu_rb_op(rb, P, GRTC_SCALAR_DIV, oc,
                                  grtc_cpu_rb_i64(rb, P, d.ocg));
  uint32_t ol = grtc_cpu_rb_op(
      rb, P, GRTC_SCALAR_SUB, oc,
      grtc_cpu_rb_op(rb, P, GRTC_SCALAR_MUL, group,
                     grtc_cpu_rb_i64(rb, P, d.ocg)));
  uint32_t six = grtc_cpu_rb_i64(rb, P, GRTC_CPU_PACK_MR);
  uint32_t panel = grtc_cpu_rb_op(rb, P, GRTC_SCALAR_DIV, ol, six);
  uint32_t row = grtc_cpu_rb_op(rb, P, GRTC_SCALAR_SUB, ol,
                                grtc_cpu_rb_op(rb, P, GRTC_SCALAR_MUL, panel,
                                               six));
  uint32_t base = grtc_cpu_rb_op(
      rb, P, GRTC_SCALAR_ADD,
      grtc_cpu_rb_op(rb, P, GRTC_SCALAR_MUL, group,
                     grtc_cpu_rb_i64(rb, P, d.k * d.ocp)),
      row);
  uint32_t i = grtc_cpu_rb_index(rb, GRTC_KINST_RINDEX, L, 0);
  uint32_t j = grtc_cpu_rb_index(rb, GRTC_KINST_RINDEX, L, 1);
  uint32_t ci = grtc_cpu_rb_index(rb, GRTC_KINST_RINDEX, L, 2);
  uint32_t k = grtc_cpu_rb_op(
      rb, L, GRTC_SCALAR_ADD,
      grtc_cpu_rb_op(
          rb, L, GRTC_SCALAR_MUL,
          grtc_cpu_rb_op(rb, L, GRTC_SCALAR_ADD,
                         grtc_cpu_rb_op(rb, L, GRTC_SCALAR_MUL, ci,
                                        grtc_cpu_rb_i64(rb, L, cv->kh)),
                         i),
          grtc_cpu_rb_i64(rb, L, cv->kw)),
      j);
  uint32_t kc_const = grtc_cpu_rb_i64(rb, L, kc_full);
  uint32_t slice = grtc_cpu_rb_op(rb, L, GRTC_SCALAR_DIV, k, kc_const);
  uint32_t k0 = grtc_cpu_rb_op(rb, L, GRTC_SCALAR_MUL, slice, kc_const);
  uint32_t kk = grtc_cpu_rb_op(rb, L, GRTC_SCALAR_SUB, k, k0);
  uint32_t kc = grtc_cpu_rb_op(
      rb, L, GRTC_SCALAR_MIN, kc_const,
      grtc_cpu_rb_op(rb, L, GRTC_SCALAR_SUB, grtc_cpu_rb_i64(rb, L, d.k), k0));
  uint32_t six_l = grtc_cpu_rb_i64(rb, L, GRTC_CPU_PACK_MR);
  // base + k0 * ocp + panel * 6 * kc + kk * 6
  uint32_t at = grtc_cpu_rb_op(
      rb, L, GRTC_SCALAR_ADD, base,
      grtc_cpu_rb_op(rb, L, GRTC_SCALAR_MUL, k0,
                     grtc_cpu_rb_i64(rb, L, d.ocp)));
  at = grtc_cpu_rb_op(
      rb, L, GRTC_SCALAR_ADD, at,
      grtc_cpu_rb_op(rb, L, GRTC_SCALAR_MUL,
                     grtc_cpu_rb_op(rb, L, GRTC_SCALAR_MUL, panel, six_l), kc));
  return grtc_cpu_rb_op(rb, L, GRTC_SCALAR_ADD, at,
                        grtc_cpu_rb_op(rb, L, GRTC_SCALAR_MUL, kk, six_l));
}

// Points the accumulators and stores of |kernel|, whose instruction list
// was rebuilt, at the new places |map| gives the old |old_count|.
static void grtc_cpu_rebuild_finish(grtc_kernel_t* kernel, const uint32_t* map,
                                    uint32_t old_count) {
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    kernel->accs[a].init = map[kernel->accs[a].init];
    if (kernel->accs[a].update < old_count) {
      kernel->accs[a].update = map[kernel->accs[a].update];
    }
  }
  for (uint32_t s = 0; s < kernel->store_count; ++s) {
    grtc_kstore_t* store = &kernel->stores[s];
    store->index = map[store->index];
    store->value = map[store->value];
    if (store->predicate != GRTC_KINST_NONE) {
      store->predicate = map[store->predicate];
    }
  }
}

grt_status_t grtc_cpu_prepack_filter(grtc_kernel_set_t* set,
                                     grtc_kernel_t* kernel,
                                     const float* filter, float* out) {
  if (!grtc_cpu_filter_prepackable(kernel)) {
    return grt_make_status(GRT_STATUS_INTERNAL,
                           "kernel %.*s: its filter cannot be prepacked",
                           (int)kernel->name.size, kernel->name.data);
  }
  grtc_kconv_t* cv = &kernel->conv;
  grtc_cpu_pack_dims_t d = grtc_cpu_pack_dims(cv);
  const int64_t* fs = cv->filter_strides;
  int64_t kh_kw = cv->kh * cv->kw;
  for (int64_t g = 0; g < cv->groups; ++g) {
    float* gout = out + g * d.k * d.ocp;
    for (int64_t k0 = 0; k0 < d.k; k0 += GRTC_KCONV_PACK_KC) {
      int64_t kc = d.k - k0 < GRTC_KCONV_PACK_KC ? d.k - k0
                                                 : GRTC_KCONV_PACK_KC;
      float* slice = gout + k0 * d.ocp;
      for (int64_t ol = 0; ol < d.ocp; ++ol) {
        float* panel = slice + (ol / GRTC_CPU_PACK_MR) * GRTC_CPU_PACK_MR * kc +
                       ol % GRTC_CPU_PACK_MR;
        int64_t oc = g * d.ocg + ol;
        for (int64_t kk = 0; kk < kc; ++kk) {
          int64_t k = k0 + kk, ci = k / kh_kw, r = k % kh_kw;
          int64_t i = r / cv->kw, j = r % cv->kw;
          panel[kk * GRTC_CPU_PACK_MR] =
              ol < d.ocg ? filter[i * fs[0] + j * fs[1] + ci * fs[2] +
                                  oc * fs[3]]
                         : 0.0f;
        }
      }
    }
  }
  // Rebuild the instruction list with the packed index before the first
  // filter load and every filter load reading it; later instructions move
  // up by the inserted count.
  uint32_t old_count = kernel->inst_count;
  grtc_kinst_t* old = NULL;
  uint32_t* map = NULL;
  GRT_RETURN_IF_ERROR(grtc_cpu_rb_begin(kernel, &old, &map));
  grtc_cpu_rebuild_t rb = {set, kernel, grt_ok_status()};
  uint32_t packed_index = GRTC_KINST_NONE;
  for (uint32_t n = 0; n < old_count && grt_status_is_ok(rb.status); ++n) {
    grtc_kinst_t inst = old[n];
    for (uint32_t o = 0; o < inst.operand_count; ++o) {
      inst.operands[o] = map[inst.operands[o]];
    }
    if (inst.kind == GRTC_KINST_LOAD && inst.binding == cv->filter_binding) {
      if (packed_index == GRTC_KINST_NONE) {
        packed_index = grtc_cpu_rb_packed_index(&rb, cv);
      }
      inst.operands[0] = packed_index;
    }
    map[n] = grtc_cpu_rb_add(&rb, inst);
  }
  if (grt_status_is_ok(rb.status)) {
    grtc_cpu_rebuild_finish(kernel, map, old_count);
    kernel->bindings[cv->filter_binding].element_count =
        grtc_cpu_packed_filter_size(kernel);
    cv->filter_packed = true;
  }
  free(old);
  free(map);
  GRT_RETURN_IF_ERROR(rb.status);
  return grtc_kernel_verify(kernel);
}

//===----------------------------------------------------------------------===//
// 4-bit weights of f32 x i8/ui8 MATMUL kernels (grtc_kmatmul_t.rhs_packed4)
//===----------------------------------------------------------------------===//

bool grtc_cpu_rhs4_prepackable(const grtc_kernel_t* kernel) {
  const grtc_kmatmul_t* mm = &kernel->matmul;
  if (!grtc_cpu_w4gemm_shape(kernel) || mm->rhs_packed4 ||
      grtc_c_family_bounds_checked(kernel) ||
      mm->rhs_binding == mm->lhs_binding ||
      kernel->bindings[mm->rhs_binding].access != GRTC_KACCESS_READ) {
    return false;
  }
  // The weights are read only by the multiply (LOOP loads).
  for (uint32_t i = 0; i < kernel->inst_count; ++i) {
    const grtc_kinst_t* inst = &kernel->insts[i];
    if (inst->kind == GRTC_KINST_LOAD && inst->binding == mm->rhs_binding &&
        inst->section != GRTC_KSECTION_LOOP) {
      return false;
    }
  }
  return true;
}

bool grtc_cpu_rhs4_fits(grtc_elem_t elem, const uint8_t* values, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    int v = elem == GRTC_ELEM_I8 ? (int)(int8_t)values[i] : (int)values[i];
    if (elem == GRTC_ELEM_I8 ? (v < -8 || v > 7) : v > 15) return false;
  }
  return true;
}

// The field a rhs load at element |index| reads from the packed bytes, in
// the load's type: byte index/2 shifted right by 4 * (index & 1), the low
// four bits kept (and sign-extended for i8).
static uint32_t grtc_cpu_rb_field(grtc_cpu_rebuild_t* rb, const grtc_kinst_t* load) {
  grtc_ksection_t s = load->section;
  uint32_t index = load->operands[0];
  uint32_t one = grtc_cpu_rb_i64(rb, s, 1);
  grtc_kinst_t byte = *load;
  byte.operands[0] = grtc_cpu_rb_op(rb, s, GRTC_SCALAR_SHRA, index, one);
  uint32_t shift = grtc_cpu_rb_op(rb, s, GRTC_SCALAR_SHL,
                                  grtc_cpu_rb_op(rb, s, GRTC_SCALAR_AND, index, one),
                                  grtc_cpu_rb_i64(rb, s, 2));
  uint32_t wide = grtc_cpu_rb_add(
      rb, (grtc_kinst_t){.kind = GRTC_KINST_CONVERT, .section = s, .type = GRTC_ELEM_I64,
                         .operand_count = 1, .operands = {grtc_cpu_rb_add(rb, byte)}});
  wide = grtc_cpu_rb_op(rb, s, GRTC_SCALAR_AND, wide, grtc_cpu_rb_i64(rb, s, 255));
  uint32_t field = grtc_cpu_rb_op(
      rb, s, GRTC_SCALAR_AND, grtc_cpu_rb_op(rb, s, GRTC_SCALAR_SHRL, wide, shift),
      grtc_cpu_rb_i64(rb, s, 15));
  if (load->type == GRTC_ELEM_I8) {
    uint32_t eight = grtc_cpu_rb_i64(rb, s, 8);
    field = grtc_cpu_rb_op(rb, s, GRTC_SCALAR_SUB,
                           grtc_cpu_rb_op(rb, s, GRTC_SCALAR_XOR, field, eight), eight);
  }
  return grtc_cpu_rb_add(
      rb, (grtc_kinst_t){.kind = GRTC_KINST_CONVERT, .section = s, .type = load->type,
                         .operand_count = 1, .operands = {field}});
}

grt_status_t grtc_cpu_prepack_rhs4(grtc_kernel_set_t* set, grtc_kernel_t* kernel,
                                   const uint8_t* values, int64_t count, uint8_t* out) {
  grtc_kmatmul_t* mm = &kernel->matmul;
  if (!grtc_cpu_rhs4_prepackable(kernel) ||
      kernel->bindings[mm->rhs_binding].element_count != count) {
    return grt_make_status(GRT_STATUS_INTERNAL,
                           "kernel %.*s: its rhs cannot be packed to 4 bits",
                           (int)kernel->name.size, kernel->name.data);
  }
  if (!grtc_cpu_rhs4_fits(mm->rhs_elem, values, count)) {
    return grt_make_status(GRT_STATUS_INTERNAL,
                           "kernel %.*s: its rhs values do not fit in 4 bits",
                           (int)kernel->name.size, kernel->name.data);
  }
  memset(out, 0, (size_t)((count + 1) / 2));
  for (int64_t i = 0; i < count; ++i) {
    out[i / 2] |= (uint8_t)((values[i] & 15u) << (4 * (i & 1)));
  }
  uint32_t old_count = kernel->inst_count;
  grtc_kinst_t* old = NULL;
  uint32_t* map = NULL;
  GRT_RETURN_IF_ERROR(grtc_cpu_rb_begin(kernel, &old, &map));
  grtc_cpu_rebuild_t rb = {set, kernel, grt_ok_status()};
  for (uint32_t n = 0; n < old_count && grt_status_is_ok(rb.status); ++n) {
    grtc_kinst_t inst = old[n];
    for (uint32_t o = 0; o < inst.operand_count; ++o) {
      inst.operands[o] = map[inst.operands[o]];
    }
    if (inst.kind == GRTC_KINST_LOAD && inst.binding == mm->rhs_binding) {
      map[n] = grtc_cpu_rb_field(&rb, &inst);
    } else {
      map[n] = grtc_cpu_rb_add(&rb, inst);
    }
  }
  if (grt_status_is_ok(rb.status)) {
    grtc_cpu_rebuild_finish(kernel, map, old_count);
    kernel->bindings[mm->rhs_binding].element_count = (count + 1) / 2;
    mm->rhs_packed4 = true;
  }
  free(old);
  free(map);
  GRT_RETURN_IF_ERROR(rb.status);
  return grtc_kernel_verify(kernel);
}

typedef struct grtc_cpu_prepack_walk_t {
  grtc_tmodule_t* module;
  grtc_kernel_set_t* kernels;
  uint32_t* dispatch_counts;  // per kernel: DISPATCH ops that run it
  uint32_t packed;
} grtc_cpu_prepack_walk_t;

static void grtc_cpu_count_dispatches(grtc_cpu_prepack_walk_t* w,
                                      const grtc_tblock_t* block) {
  for (const grtc_top_t* op = block->first; op; op = op->next) {
    if (op->kind == GRTC_TOP_DISPATCH && op->attrs.kernel < w->kernels->count) {
      ++w->dispatch_counts[op->attrs.kernel];
    }
    for (uint32_t r = 0; r < op->region_count; ++r) {
      grtc_cpu_count_dispatches(w, op->regions[r]);
    }
  }
}

static uint32_t grtc_cpu_le32(const uint8_t* p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

// Packs the i8/ui8 weights of |op|'s f32 x int MATMUL |kernel| to 4 bits
// when they are a constant this DISPATCH alone reads whose every value
// fits (i4 in [-8, 7], ui4 in [0, 15]).
static grt_status_t grtc_cpu_prepack_rhs4_dispatch(grtc_cpu_prepack_walk_t* w,
                                                   grtc_top_t* op, grtc_kernel_t* kernel) {
  uint32_t binding = kernel->matmul.rhs_binding;
  if (binding >= op->operand_count) return grt_ok_status();
  grtc_tvalue_t* value = op->operands[binding];
  grtc_top_t* def = value->def;
  int64_t count = kernel->bindings[binding].element_count;
  if (!def || def->kind != GRTC_TOP_CONSTANT || def->attrs.unfoldable ||
      def->attrs.constant.splat || value->use_count != 1 ||
      value->type.elem != kernel->matmul.rhs_elem || !grtc_ttype_is_static(&value->type) ||
      grtc_ttype_element_count(&value->type) != count ||
      def->attrs.constant.size != (size_t)count ||
      !grtc_cpu_rhs4_fits(value->type.elem, def->attrs.constant.data, count)) {
    return grt_ok_status();
  }
  int64_t bytes = (count + 1) / 2;
  uint8_t* packed = grtc_tmodule_alloc(w->module, (size_t)bytes);
  if (!packed) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory packing kernel %.*s's weights",
                           (int)kernel->name.size, kernel->name.data);
  }
  GRT_RETURN_IF_ERROR(grtc_cpu_prepack_rhs4(w->kernels, kernel, def->attrs.constant.data,
                                            count, packed));
  def->attrs.constant.data = packed;
  def->attrs.constant.size = (size_t)bytes;
  value->type.rank = 1;
  value->type.dims[0] = bytes;
  ++w->packed;
  return grt_ok_status();
}

// Prepacks the filter of |op|'s kernel when it is a constant this DISPATCH
// alone reads.
static grt_status_t grtc_cpu_prepack_dispatch(grtc_cpu_prepack_walk_t* w,
                                              grtc_top_t* op) {
  if (op->attrs.kernel >= w->kernels->count ||
      w->dispatch_counts[op->attrs.kernel] != 1) {
    return grt_ok_status();
  }
  grtc_kernel_t* kernel = w->kernels->kernels[op->attrs.kernel];
  if (grtc_cpu_rhs4_prepackable(kernel)) {
    return grtc_cpu_prepack_rhs4_dispatch(w, op, kernel);
  }
  if (!grtc_cpu_filter_prepackable(kernel) ||
      kernel->conv.filter_binding >= op->operand_count) {
    return grt_ok_status();
  }
  grtc_tvalue_t* value = op->operands[kernel->conv.filter_binding];
  grtc_top_t* def = value->def;
  int64_t count = kernel->bindings[kernel->conv.filter_binding].element_count;
  if (!def || def->kind != GRTC_TOP_CONSTANT || def->attrs.unfoldable ||
      def->attrs.constant.splat || value->use_count != 1 ||
      value->type.elem != GRTC_ELEM_F32 || !grtc_ttype_is_static(&value->type) ||
      grtc_ttype_element_count(&value->type) != count ||
      def->attrs.constant.size != (size_t)count * sizeof(float)) {
    return grt_ok_status();
  }
  int64_t packed_count = grtc_cpu_packed_filter_size(kernel);
  float* filter = malloc((size_t)count * sizeof(float) + 1);
  float* packed = malloc((size_t)packed_count * sizeof(float) + 1);
  uint8_t* bytes =
      grtc_tmodule_alloc(w->module, (size_t)packed_count * sizeof(float));
  grt_status_t status = grt_ok_status();
  if (!filter || !packed || !bytes) {
    status = grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                             "out of memory prepacking kernel %.*s's filter",
                             (int)kernel->name.size, kernel->name.data);
  } else {
    const uint8_t* data = def->attrs.constant.data;
    for (int64_t i = 0; i < count; ++i) {
      uint32_t bits = grtc_cpu_le32(data + 4 * i);
      memcpy(&filter[i], &bits, sizeof(bits));
    }
    status = grtc_cpu_prepack_filter(w->kernels, kernel, filter, packed);
  }
  if (grt_status_is_ok(status)) {
    for (int64_t i = 0; i < packed_count; ++i) {
      uint32_t bits = 0;
      memcpy(&bits, &packed[i], sizeof(bits));
      for (int b = 0; b < 4; ++b) bytes[4 * i + b] = (uint8_t)(bits >> (8 * b));
    }
    def->attrs.constant.data = bytes;
    def->attrs.constant.size = (size_t)packed_count * sizeof(float);
    value->type.rank = 1;
    value->type.dims[0] = packed_count;
    ++w->packed;
  }
  free(filter);
  free(packed);
  return status;
}

static grt_status_t grtc_cpu_prepack_block(grtc_cpu_prepack_walk_t* w,
                                           grtc_tblock_t* block) {
  for (grtc_top_t* op = block->first; op; op = op->next) {
    if (op->kind == GRTC_TOP_DISPATCH) {
      GRT_RETURN_IF_ERROR(grtc_cpu_prepack_dispatch(w, op));
    }
    for (uint32_t r = 0; r < op->region_count; ++r) {
      GRT_RETURN_IF_ERROR(grtc_cpu_prepack_block(w, op->regions[r]));
    }
  }
  return grt_ok_status();
}

grt_status_t grtc_cpu_prepack_module(grtc_tmodule_t* module,
                                     grtc_kernel_set_t* kernels,
                                     uint32_t* out_packed) {
  if (out_packed) *out_packed = 0;
  grtc_cpu_prepack_walk_t w = {module, kernels, NULL, 0};
  w.dispatch_counts = calloc(kernels->count + 1, sizeof(uint32_t));
  if (!w.dispatch_counts) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory prepacking filters");
  }
  for (grtc_tfunc_t* f = module->first_func; f; f = f->next) {
    grtc_tfunc_recount_uses(f);
    grtc_cpu_count_dispatches(&w, f->body);
  }
  grt_status_t status = grt_ok_status();
  for (grtc_tfunc_t* f = module->first_func; f && grt_status_is_ok(status);
       f = f->next) {
    status = grtc_cpu_prepack_block(&w, f->body);
  }
  free(w.dispatch_counts);
  if (out_packed) *out_packed = w.packed;
  return status;
}
