// Kernel IR to C. Each instruction becomes one `const T vN = ...;` local so
// the C compiler sees plain SSA it can vectorize; scalar ops call the
// prelude's grt_<op>_<type> helpers, which carry the exact semantics of
// compiler/kernel/scalar.h.
//
// A LOOP kernel is a nest over its workgroup's tile (innermost parallel dim
// innermost, marked ivdep unless the kernel is serial, so elementwise loops
// vectorize), the reduction nest inside, then the POST section and the
// stores. MATMUL kernels replace the reduction with the blocked GEMM of
// gemm.c, CONV2D kernels with that GEMM on im2col rows (NHWC), on packed
// im2col panels with the filter as A (planar NCHW inputs, see
// grtc_cpu_emit_conv_pixels_kernel), a direct kernel over column phases
// for stems (grtc_cpu_emit_conv_stem_kernel), or a direct loop over output
// channels when depthwise, and run PRE/POST and the stores per element
// afterwards.
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/target/c_family/c_family.h"
#include "compiler/target/cpu/cpu_internal.h"
#include "compiler/target/cpu/cpu_target.h"

typedef struct grtc_cpu_emitter_t {
  grt_string_builder_t* out;
  const grtc_kernel_t* kernel;
  // Per instruction: an i64 value that only feeds load/store indices, so
  // its arithmetic cannot overflow (the lowering keeps indices in range)
  // and is emitted as plain C the vectorizer can analyze.
  const bool* index_only;
  // Per instruction: something (a store, an accumulator, the comparator)
  // needs it; dead instructions are not emitted.
  bool* live;
  const char* indent;
  // Set when the point nest is flattened into one loop over the linear
  // index q (see grtc_cpu_flatten): per instruction, whether it is emitted
  // as q * flat_scale + flat_offset, or absorbed (only feeds such values).
  const uint8_t* flat;
  const int64_t* flat_scale;
  const int64_t* flat_offset;
  // Bounds-checked kernels (grtc_c_family_bounds_checked): per instruction
  // (LOADs) and per store, whether its index is checked where it is used,
  // returning GRTC_KERNEL_CODE_OUT_OF_RANGE + binding when outside the
  // binding (NULL: none is).
  const bool* check_load;
  const bool* check_store;
  // A bounds-checked pattern kernel: the index_only marks its epilogue may
  // use once its accesses' intervals are checked (see
  // grtc_cpu_emit_epilogue_checks).
  const bool* pattern_index_only;
  void* owned_index_only;  // freed when the kernel is done
  // Per instruction: already emitted outside the point loops (a value of
  // the output channel alone, grtc_cpu_emit_channel_values; NULL: none).
  const bool* hoisted;
} grtc_cpu_emitter_t;

enum { GRTC_CPU_FLAT_NORMAL, GRTC_CPU_FLAT_LINEAR, GRTC_CPU_FLAT_ABSORBED };

// NaN and infinities have no C literal; GCC and clang builtins spell them.
static void grtc_cpu_special_float(grt_string_builder_t* out,
                                   const char* compute, double value,
                                   bool is_f64) {
  (void)is_f64;
  if (value != value) {
    grt_string_builder_appendf(out, "(%s)__builtin_nan(\"\")", compute);
  } else {
    grt_string_builder_appendf(out, "(%s)%s__builtin_inf()", compute,
                               value < 0 ? "-" : "");
  }
}

static const grtc_c_family_dialect_t grtc_cpu_dialect = {
    .int_literal_prefix = "UINT64_C(",
    .int_literal_suffix = ")",
    .special_float = grtc_cpu_special_float,
    .narrow_from_f32 = false,
};

// The shared emitter's view of |e| (sort comparators read operand d / 2
// from b0 on).
static grtc_c_family_emitter_t grtc_cpu_family(const grtc_cpu_emitter_t* e) {
  grtc_c_family_emitter_t cf = {.dialect = &grtc_cpu_dialect,
                                .out = e->out,
                                .kernel = e->kernel,
                                .indent = e->indent,
                                .index_only = e->index_only,
                                .arg_binding_base = 0};
  return cf;
}

static void grtc_cpu_emit_inst(grtc_cpu_emitter_t* e, uint32_t i) {
  grtc_c_family_emitter_t cf = grtc_cpu_family(e);
  grtc_c_family_emit_inst(&cf, i);
}

static void grtc_cpu_emit_section(grtc_cpu_emitter_t* e,
                                  grtc_ksection_t section) {
  for (uint32_t i = 0; i < e->kernel->inst_count; ++i) {
    if (e->kernel->insts[i].section != section || !e->live[i]) continue;
    if (e->hoisted && e->hoisted[i]) continue;
    uint8_t flat = e->flat ? e->flat[i] : GRTC_CPU_FLAT_NORMAL;
    if (flat == GRTC_CPU_FLAT_LINEAR) {
      grt_string_builder_appendf(e->out,
                                 "%sconst int64_t v%u = q * %" PRId64
                                 " + %" PRId64 ";\n",
                                 e->indent, i, e->flat_scale[i],
                                 e->flat_offset[i]);
    } else if (flat == GRTC_CPU_FLAT_NORMAL) {
      const grtc_kinst_t* inst = &e->kernel->insts[i];
      if (e->check_load && e->check_load[i]) {
        grt_string_builder_appendf(
            e->out, "%sif ((uint64_t)v%u >= len%u) return %u;\n", e->indent,
            inst->operands[0], inst->binding,
            GRTC_KERNEL_CODE_OUT_OF_RANGE + inst->binding);
      }
      grtc_cpu_emit_inst(e, i);
    }
  }
}

static void grtc_cpu_emit_stores(grtc_cpu_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  for (uint32_t s = 0; e->check_store && s < kernel->store_count; ++s) {
    const grtc_kstore_t* store = &kernel->stores[s];
    if (!e->check_store[s]) continue;
    char predicate[24] = "";
    if (store->predicate != GRTC_KINST_NONE) {
      snprintf(predicate, sizeof(predicate), "v%u && ", store->predicate);
    }
    grt_string_builder_appendf(
        e->out, "%sif (%s(uint64_t)v%u >= len%u) return %u;\n", e->indent,
        predicate, store->index, store->binding,
        GRTC_KERNEL_CODE_OUT_OF_RANGE + store->binding);
  }
  grtc_c_family_emitter_t cf = grtc_cpu_family(e);
  grtc_c_family_emit_stores(&cf);
}

// Marks the live instructions and the i64 values that only feed indices
// (see the emitter's fields).
static void grtc_cpu_mark(const grtc_kernel_t* kernel, bool uses_pattern,
                          bool* index_only, bool* live) {
  // A value is index-only when every use is an index or an index-only op;
  // uses come after definitions, so one backward pass settles it.
  bool* used_otherwise = calloc(kernel->inst_count + 1, sizeof(bool));
  bool* used_as_index = calloc(kernel->inst_count + 1, sizeof(bool));
  if (!used_otherwise || !used_as_index) {
    free(used_otherwise);
    free(used_as_index);
    return;  // no marks: every op gets the always-correct helpers
  }
  for (uint32_t s = 0; s < kernel->store_count; ++s) {
    used_as_index[kernel->stores[s].index] = true;
    used_otherwise[kernel->stores[s].value] = true;
    if (kernel->stores[s].predicate != GRTC_KINST_NONE) {
      used_otherwise[kernel->stores[s].predicate] = true;
    }
  }
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    // The pattern routines start from zero, so a zero initial value goes
    // unread.
    const grtc_kinst_t* init = &kernel->insts[kernel->accs[a].init];
    bool zero_init = init->kind == GRTC_KINST_CONST && init->value.f == 0 &&
                     !signbit(init->value.f);
    used_otherwise[kernel->accs[a].init] = !(uses_pattern && zero_init);
    if (!uses_pattern && kernel->accs[a].update < kernel->inst_count) {
      used_otherwise[kernel->accs[a].update] = true;
    }
  }
  if (kernel->kind == GRTC_KERNEL_SORT) {
    used_otherwise[kernel->sort.comparator] = true;
  }
  for (uint32_t i = kernel->inst_count; i-- > 0;) {
    const grtc_kinst_t* inst = &kernel->insts[i];
    live[i] = used_as_index[i] || used_otherwise[i];
    if (!live[i]) continue;
    index_only[i] = inst->type == GRTC_ELEM_I64 && inst->kind == GRTC_KINST_OP &&
                    used_as_index[i] && !used_otherwise[i];
    for (uint32_t k = 0; k < inst->operand_count; ++k) {
      if (inst->kind == GRTC_KINST_LOAD ||
          (index_only[i] && inst->op != GRTC_SCALAR_SELECT)) {
        used_as_index[inst->operands[k]] = true;
      } else {
        used_otherwise[inst->operands[k]] = true;
      }
    }
  }
  free(used_otherwise);
  free(used_as_index);
}

static void grtc_cpu_emit_binding_pointers(grtc_cpu_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  grt_string_builder_appendf(e->out,
                             "  if (d->binding_count != %uu) return 1;\n",
                             kernel->binding_count);
  for (uint32_t b = 0; b < kernel->binding_count; ++b) {
    const grtc_kbinding_t* binding = &kernel->bindings[b];
    const char* storage = grtc_c_family_type(binding->elem)->storage;
    const char* qualifier =
        binding->access & GRTC_KACCESS_WRITE ? "" : "const ";
    // Sort kernels read operands while writing results that may share
    // memory with them, so only loop kernels promise no aliasing.
    const char* restrict_kw =
        kernel->kind == GRTC_KERNEL_LOOP ? " restrict" : "";
    grt_string_builder_appendf(
        e->out, "  %s%s*%s b%u = (%s%s*)d->bindings[%u];\n  (void)b%u;\n",
        qualifier, storage, restrict_kw, b, qualifier, storage, b, b);
  }
  // Symbolic extents: push constant x is extent x (a dispatch with fewer
  // constants fails, as one with the wrong binding count does).
  if (kernel->extent_count) {
    grt_string_builder_appendf(e->out,
                               "  if (d->constant_count < %uu) return 2;\n",
                               kernel->extent_count);
  }
  for (uint32_t x = 0; x < kernel->extent_count; ++x) {
    grt_string_builder_appendf(
        e->out, "  const int64_t e%u = (int64_t)d->constants[%u];\n  (void)e%u;\n",
        x, x, x);
  }
  // A run-time split (grtc_kernel_t.split_max): the constant after the
  // extents; the last dim's tile is grtc_kernel_split_tile of it (a split of
  // 0 counts as 1). Any value keeps every tile inside the dim.
  if (kernel->split_max > 0) {
    int64_t dim = kernel->parallel_dims[kernel->parallel_rank - 1];
    grt_string_builder_appendf(
        e->out,
        "  if (d->constant_count < %uu) return 2;\n"
        "  const int64_t split = d->constants[%u] > 0 ? "
        "(int64_t)d->constants[%u] : 1;\n"
        "  int64_t split_tile = (%" PRId64 " + split - 1) / split;\n"
        "  split_tile = (split_tile + %d) / %d * %d;\n"
        "  if (split_tile > %" PRId64 ") split_tile = %" PRId64 ";\n",
        kernel->extent_count + 1, kernel->extent_count, kernel->extent_count,
        dim, GRTC_KERNEL_SPLIT_STEP - 1, GRTC_KERNEL_SPLIT_STEP,
        GRTC_KERNEL_SPLIT_STEP, dim, dim);
  }
  // Bounds-checked kernels: the elements each binding holds.
  if (!grtc_c_family_bounds_checked(kernel)) return;
  for (uint32_t b = 0; b < kernel->binding_count; ++b) {
    grt_string_builder_appendf(
        e->out,
        "  const uint64_t len%u = (uint64_t)(d->binding_lengths[%u] / "
        "sizeof(*b%u));\n  (void)len%u;\n",
        b, b, b, b);
  }
}

// Defines lo<d>/hi<d> for the workgroup's tile of the parallel space.
static void grtc_cpu_emit_tile_bounds(grtc_cpu_emitter_t* e) {
  grtc_c_family_emit_tile_bounds(e->out, e->kernel, "wg->workgroup_id[0]", "u");
}

static const char grtc_cpu_indents[] = "                                        ";

static void grtc_cpu_set_depth(grtc_cpu_emitter_t* e, uint32_t depth) {
  uint32_t max = (uint32_t)sizeof(grtc_cpu_indents) - 1;
  uint32_t spaces = 2 * depth < max ? 2 * depth : max;
  e->indent = grtc_cpu_indents + max - spaces;
}

// The reduction nest with the LOOP section and the accumulator updates.
static void grtc_cpu_emit_reduction(grtc_cpu_emitter_t* e, uint32_t depth) {
  const grtc_kernel_t* kernel = e->kernel;
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    grtc_cpu_set_depth(e, depth);
    grt_string_builder_appendf(e->out, "%s%s acc%u = v%u;\n", e->indent,
                               grtc_c_family_type(kernel->accs[a].type)->compute, a,
                               kernel->accs[a].init);
  }
  if (!grtc_c_family_has_reduction_loop(kernel)) return;
  uint32_t inner = depth;
  grtc_cpu_set_depth(e, depth);
  grt_string_builder_appendf(e->out, "%s{\n", e->indent);
  for (uint32_t r = 0; r < kernel->reduction_rank; ++r) {
    grtc_cpu_set_depth(e, ++inner);
    char size[24];
    grtc_c_family_size(size, sizeof(size), kernel->reduction_dims[r]);
    grt_string_builder_appendf(e->out,
                               "%sfor (int64_t r%u = 0; r%u < %s; ++r%u) {\n",
                               e->indent, r, r, size, r);
  }
  grtc_cpu_set_depth(e, inner + 1);
  grtc_cpu_emit_section(e, GRTC_KSECTION_LOOP);
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    grt_string_builder_appendf(e->out, "%sacc%u = v%u;\n", e->indent, a,
                               kernel->accs[a].update);
  }
  for (uint32_t r = kernel->reduction_rank + 1; r-- > 0;) {
    grtc_cpu_set_depth(e, depth + r);
    grt_string_builder_appendf(e->out, "%s}\n", e->indent);
  }
}

// Opens the loops over parallel dims 0..|count|-1 of the workgroup's tile
// (a plain block when |count| is 0), the innermost marked GRT_IVDEP when
// |ivdep|; returns the depth inside them, set on |e|.
static uint32_t grtc_cpu_open_tile_loops(grtc_cpu_emitter_t* e, uint32_t count, bool ivdep) {
  for (uint32_t d = 0; d < count; ++d) {
    grtc_cpu_set_depth(e, d + 1);
    if (d + 1 == count && ivdep) {
      grt_string_builder_appendf(e->out, "%sGRT_IVDEP\n", e->indent);
    }
    grt_string_builder_appendf(
        e->out, "%sfor (int64_t p%u = lo%u; p%u < hi%u; ++p%u) {\n",
        e->indent, d, d, d, d, d);
  }
  if (count == 0) grt_string_builder_append_cstring(e->out, "  {\n");
  uint32_t depth = (count ? count : 1) + 1;
  grtc_cpu_set_depth(e, depth);
  return depth;
}

// for p0.. { PRE; <body>; POST; stores } over the workgroup's tile.
static void grtc_cpu_emit_point_nest(grtc_cpu_emitter_t* e,
                                     void (*body)(grtc_cpu_emitter_t*,
                                                  uint32_t depth)) {
  const grtc_kernel_t* kernel = e->kernel;
  uint32_t rank = kernel->parallel_rank;
  uint32_t depth = grtc_cpu_open_tile_loops(e, rank, !kernel->serial);
  grtc_cpu_emit_section(e, GRTC_KSECTION_PRE);
  body(e, depth);
  grtc_cpu_set_depth(e, depth);
  grtc_cpu_emit_section(e, GRTC_KSECTION_POST);
  grtc_cpu_emit_stores(e);
  for (uint32_t d = (rank ? rank : 1); d-- > 0;) {
    grtc_cpu_set_depth(e, d + 1);
    grt_string_builder_appendf(e->out, "%s}\n", e->indent);
  }
}

// Points of the innermost parallel dim whose reductions run side by side.
#define GRTC_CPU_INTERLEAVED_POINTS 8

// Whether a reduction kernel's points run GRTC_CPU_INTERLEAVED_POINTS at a
// time (grtc_cpu_emit_interleaved_nest): a reduction of a few floating
// accumulators over a tile with that many points along its innermost
// parallel dim. Integer accumulators stay on the plain nest: the C compiler
// may reorder their (wrapping) terms itself, so side by side gains nothing,
// and GCC 12's loop vectorizer at -O2 miscompiled 8 points' i32 sums of i8
// terms side by side (ONNX MatMulInteger's zero-point corrections;
// emit_c_test's test_reductions_integer_column_sums).
static bool grtc_cpu_interleaves_points(const grtc_kernel_t* kernel) {
  uint32_t rank = kernel->parallel_rank;
  if (rank == 0 || kernel->serial || kernel->reduction_rank == 0 ||
      kernel->acc_count == 0 || kernel->acc_count > 4 ||
      kernel->tile[rank - 1] < GRTC_CPU_INTERLEAVED_POINTS) {
    return false;
  }
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    if (!grtc_elem_is_float(kernel->accs[a].type)) return false;
  }
  return true;
}

// A generic reduction computes each point's accumulators in order, one
// add (say) waiting on the last: a global average pool over 28x28 ran at
// one add per FP latency. Here the innermost parallel dim runs in blocks
// of GRTC_CPU_INTERLEAVED_POINTS points whose reduction loops are one
// loop, each point's LOOP section (and the PRE values it reads, which the
// C compiler hoists) in a scope of its own inside it, the point's
// accumulators in an array indexed by the lane: independent chains, each
// point's values in the same order as before, so results are the same
// bits. The points past the last whole block run the plain nest.
static void grtc_cpu_emit_interleaved_nest(grtc_cpu_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  grt_string_builder_t* o = e->out;
  uint32_t rank = kernel->parallel_rank;
  uint32_t d = rank - 1;
  uint32_t depth = grtc_cpu_open_tile_loops(e, d, false);
  grt_string_builder_appendf(
      o,
      "%sconst int64_t pe%u = lo%u + (hi%u - lo%u) / %d * %d;\n"
      "%sfor (int64_t pb%u = lo%u; pb%u < pe%u; pb%u += %d) {\n",
      e->indent, d, d, d, d, GRTC_CPU_INTERLEAVED_POINTS,
      GRTC_CPU_INTERLEAVED_POINTS, e->indent, d, d, d, d, d,
      GRTC_CPU_INTERLEAVED_POINTS);
  grtc_cpu_set_depth(e, depth + 1);
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    grt_string_builder_appendf(o, "%s%s lacc%u[%d];\n", e->indent,
                               grtc_c_family_type(kernel->accs[a].type)->compute,
                               a, GRTC_CPU_INTERLEAVED_POINTS);
  }
  // Each lane: p<d> is its point; |phase| 0 sets the accumulators, 1 is
  // the reduction loop's body, 2 the POST section and the stores.
  for (int phase = 0; phase < 3; ++phase) {
    uint32_t at = depth + 1;
    if (phase == 1) {
      for (uint32_t r = 0; r < kernel->reduction_rank; ++r) {
        grtc_cpu_set_depth(e, at++);
        char size[24];
        grtc_c_family_size(size, sizeof(size), kernel->reduction_dims[r]);
        grt_string_builder_appendf(o,
                                   "%sfor (int64_t r%u = 0; r%u < %s; ++r%u) {\n",
                                   e->indent, r, r, size, r);
      }
    }
    grtc_cpu_set_depth(e, at);
    grt_string_builder_appendf(o,
                               "%sGRT_UNROLL_POINTS\n"
                               "%sfor (int u = 0; u < %d; ++u) {\n",
                               e->indent, e->indent,
                               GRTC_CPU_INTERLEAVED_POINTS);
    grtc_cpu_set_depth(e, at + 1);
    grt_string_builder_appendf(o, "%sconst int64_t p%u = pb%u + u;\n",
                               e->indent, d, d);
    grtc_cpu_emit_section(e, GRTC_KSECTION_PRE);
    // Each phase reads some of the lane's values.
    for (uint32_t i = 0; i < kernel->inst_count; ++i) {
      if (kernel->insts[i].section == GRTC_KSECTION_PRE && e->live[i]) {
        grt_string_builder_appendf(o, "%s(void)v%u;\n", e->indent, i);
      }
    }
    for (uint32_t a = 0; a < kernel->acc_count; ++a) {
      if (phase == 0) {
        grt_string_builder_appendf(o, "%slacc%u[u] = v%u;\n", e->indent, a,
                                   kernel->accs[a].init);
      } else {
        grt_string_builder_appendf(
            o, "%s%s acc%u = lacc%u[u];\n%s(void)acc%u;\n", e->indent,
            grtc_c_family_type(kernel->accs[a].type)->compute, a, a, e->indent, a);
      }
    }
    if (phase == 1) {
      grtc_cpu_emit_section(e, GRTC_KSECTION_LOOP);
      for (uint32_t a = 0; a < kernel->acc_count; ++a) {
        grt_string_builder_appendf(o, "%slacc%u[u] = v%u;\n", e->indent, a,
                                   kernel->accs[a].update);
      }
    } else if (phase == 2) {
      grtc_cpu_emit_section(e, GRTC_KSECTION_POST);
      grtc_cpu_emit_stores(e);
    }
    grt_string_builder_appendf(o, "%s(void)p%u;\n", e->indent, d);
    for (uint32_t level = at + 1; level-- > depth + 1;) {
      grtc_cpu_set_depth(e, level);
      grt_string_builder_appendf(o, "%s}\n", e->indent);
    }
  }
  grtc_cpu_set_depth(e, depth);
  grt_string_builder_appendf(o, "%s}\n", e->indent);
  // The rest of the dim's points, one at a time.
  grt_string_builder_appendf(o, "%sGRT_IVDEP\n%sfor (int64_t p%u = pe%u; p%u < hi%u; ++p%u) {\n",
                             e->indent, e->indent, d, d, d, d, d);
  grtc_cpu_set_depth(e, depth + 1);
  grtc_cpu_emit_section(e, GRTC_KSECTION_PRE);
  grtc_cpu_emit_reduction(e, depth + 1);
  grtc_cpu_set_depth(e, depth + 1);
  grtc_cpu_emit_section(e, GRTC_KSECTION_POST);
  grtc_cpu_emit_stores(e);
  grtc_cpu_set_depth(e, depth);
  grt_string_builder_appendf(o, "%s}\n", e->indent);
  for (uint32_t level = (d ? d : 1); level-- > 0;) {
    grtc_cpu_set_depth(e, level + 1);
    grt_string_builder_appendf(o, "%s}\n", e->indent);
  }
}

// Elementwise kernels whose every use of the parallel indices is the
// row-major linear index times a constant plus a constant (identity and
// same-shape indexing) run as one loop over q, the linear index of the
// point, instead of a nest whose inner loop may be short: one long loop
// the compiler vectorizes. Needs a workgroup tile that is a contiguous
// range of q (whole inner dims, single points in the dims above the split
// one, as the dispatch lowering tiles) and no reduction. Fills the
// emitter's flat arrays and returns true when that holds.
typedef struct grtc_cpu_affine_t {
  bool affine;  // an affine function of the parallel indices
  bool depends;  // on some parallel index
  int64_t coef[GRTC_KERNEL_MAX_RANK];
  int64_t offset;
} grtc_cpu_affine_t;

static bool grtc_cpu_flatten(const grtc_kernel_t* kernel, const bool* live,
                             uint8_t* flat, int64_t* scale, int64_t* offset) {
  uint32_t rank = kernel->parallel_rank;
  if (kernel->kind != GRTC_KERNEL_LOOP || kernel->serial || rank < 2 ||
      kernel->reduction_rank > 0 || kernel->acc_count > 0 ||
      grtc_kernel_is_symbolic(kernel) || kernel->split_max > 0) {
    return false;  // (symbolic: the strides of q are not constants; a
                   // run-time split's tiles are not the tile above)
  }
  int64_t stride[GRTC_KERNEL_MAX_RANK];
  int64_t inner = 1;
  bool split_seen = false;
  for (uint32_t d = rank; d-- > 0;) {
    stride[d] = inner;
    inner *= kernel->parallel_dims[d];
    // Below the split dim the tile must be whole, above it single points.
    if (split_seen && kernel->tile[d] != 1) return false;
    if (kernel->tile[d] < kernel->parallel_dims[d]) split_seen = true;
  }
  grtc_cpu_affine_t* forms = calloc(kernel->inst_count + 1, sizeof(*forms));
  if (!forms) return false;
  bool ok = true;
  for (uint32_t i = 0; i < kernel->inst_count && ok; ++i) {
    const grtc_kinst_t* inst = &kernel->insts[i];
    grtc_cpu_affine_t* f = &forms[i];
    if (inst->section == GRTC_KSECTION_LOOP) {
      ok = false;
      break;
    }
    if (inst->kind == GRTC_KINST_PINDEX) {
      f->affine = f->depends = true;
      f->coef[inst->dim] = 1;
    } else if (inst->kind == GRTC_KINST_CONST && inst->type == GRTC_ELEM_I64) {
      f->affine = true;
      f->offset = inst->value.i;
    } else if (inst->kind == GRTC_KINST_OP && inst->type == GRTC_ELEM_I64 &&
               (inst->op == GRTC_SCALAR_ADD || inst->op == GRTC_SCALAR_SUB ||
                inst->op == GRTC_SCALAR_MUL)) {
      const grtc_cpu_affine_t* x = &forms[inst->operands[0]];
      const grtc_cpu_affine_t* y = &forms[inst->operands[1]];
      f->depends = x->depends || y->depends;
      f->affine = x->affine && y->affine &&
                  (inst->op != GRTC_SCALAR_MUL || !x->depends || !y->depends);
      if (f->affine) {
        int64_t sign = inst->op == GRTC_SCALAR_SUB ? -1 : 1;
        for (uint32_t d = 0; d < rank; ++d) {
          f->coef[d] = inst->op == GRTC_SCALAR_MUL
                           ? x->coef[d] * y->offset + y->coef[d] * x->offset
                           : x->coef[d] + sign * y->coef[d];
        }
        f->offset = inst->op == GRTC_SCALAR_MUL ? x->offset * y->offset
                                                : x->offset + sign * y->offset;
      }
    } else {
      // Needs a parallel index the flat loop does not have (linear values
      // it does have).
      for (uint32_t k = 0; k < inst->operand_count; ++k) {
        f->depends |= flat[inst->operands[k]] == GRTC_CPU_FLAT_ABSORBED;
      }
    }
    flat[i] = GRTC_CPU_FLAT_NORMAL;
    if (f->depends && f->affine) {
      // Linear in q when coef[d] == c * stride[d] for one c.
      int64_t c = f->coef[rank - 1];
      bool linear = true;
      for (uint32_t d = 0; d < rank; ++d) linear &= f->coef[d] == c * stride[d];
      if (linear) {
        flat[i] = GRTC_CPU_FLAT_LINEAR;
        scale[i] = c;
        offset[i] = f->offset;
      } else {
        flat[i] = GRTC_CPU_FLAT_ABSORBED;
      }
    } else if (f->depends) {
      flat[i] = GRTC_CPU_FLAT_ABSORBED;  // settled below: not allowed if used
    }
  }
  // Absorbed values may only feed linear ones (which no longer read them).
  for (uint32_t i = 0; i < kernel->inst_count && ok; ++i) {
    const grtc_kinst_t* inst = &kernel->insts[i];
    if (!live[i] || flat[i] == GRTC_CPU_FLAT_LINEAR) continue;
    if (flat[i] == GRTC_CPU_FLAT_ABSORBED && !forms[i].affine) ok = false;
    for (uint32_t k = 0; k < inst->operand_count && ok; ++k) {
      ok = flat[inst->operands[k]] != GRTC_CPU_FLAT_ABSORBED ||
           flat[i] == GRTC_CPU_FLAT_ABSORBED;
    }
  }
  for (uint32_t s = 0; s < kernel->store_count && ok; ++s) {
    const grtc_kstore_t* store = &kernel->stores[s];
    ok = flat[store->index] != GRTC_CPU_FLAT_ABSORBED &&
         flat[store->value] != GRTC_CPU_FLAT_ABSORBED &&
         (store->predicate == GRTC_KINST_NONE ||
          flat[store->predicate] != GRTC_CPU_FLAT_ABSORBED);
  }
  free(forms);
  if (!ok) return false;
  // What the flat loop still reads: linear values read none of their
  // operands, so index constants and intermediates may go unused.
  bool* needed = calloc(kernel->inst_count + 1, sizeof(bool));
  if (!needed) return false;
  for (uint32_t s = 0; s < kernel->store_count; ++s) {
    const grtc_kstore_t* store = &kernel->stores[s];
    needed[store->index] = needed[store->value] = true;
    if (store->predicate != GRTC_KINST_NONE) needed[store->predicate] = true;
  }
  for (uint32_t i = kernel->inst_count; i-- > 0;) {
    const grtc_kinst_t* inst = &kernel->insts[i];
    if (!needed[i]) {
      flat[i] = GRTC_CPU_FLAT_ABSORBED;
    } else if (flat[i] == GRTC_CPU_FLAT_NORMAL) {
      for (uint32_t k = 0; k < inst->operand_count; ++k) {
        needed[inst->operands[k]] = true;
      }
    }
  }
  free(needed);
  return true;
}

// Interval arithmetic for the tile-wide bounds checks (below), emitted
// once into files with a bounds-checked kernel: [*l, *h] of x op y for x
// in [al, ah] and y in [bl, bh], setting *bad when a bound overflows; DIV
// and REM take a constant y > 0 (bl == bh). grt_iv_mad is a + x * s.
static const char grtc_cpu_interval_support[] =
    "#define GRT_IV_ARGS int64_t al, int64_t ah, int64_t bl, int64_t bh, "
    "int64_t* l, int64_t* h, int* bad\n"
    "GRT_I void grt_iv_add(GRT_IV_ARGS) {\n"
    "  *bad |= __builtin_add_overflow(al, bl, l);\n"
    "  *bad |= __builtin_add_overflow(ah, bh, h);\n"
    "}\n"
    "GRT_I void grt_iv_sub(GRT_IV_ARGS) {\n"
    "  *bad |= __builtin_sub_overflow(al, bh, l);\n"
    "  *bad |= __builtin_sub_overflow(ah, bl, h);\n"
    "}\n"
    "GRT_I void grt_iv_mul(GRT_IV_ARGS) {\n"
    "  int64_t p[4];\n"
    "  *bad |= __builtin_mul_overflow(al, bl, &p[0]);\n"
    "  *bad |= __builtin_mul_overflow(al, bh, &p[1]);\n"
    "  *bad |= __builtin_mul_overflow(ah, bl, &p[2]);\n"
    "  *bad |= __builtin_mul_overflow(ah, bh, &p[3]);\n"
    "  *l = *h = p[0];\n"
    "  for (int k = 1; k < 4; ++k) {\n"
    "    if (p[k] < *l) *l = p[k];\n"
    "    if (p[k] > *h) *h = p[k];\n"
    "  }\n"
    "}\n"
    "GRT_I void grt_iv_max(GRT_IV_ARGS) {\n"
    "  (void)bad; *l = al > bl ? al : bl; *h = ah > bh ? ah : bh;\n"
    "}\n"
    "GRT_I void grt_iv_min(GRT_IV_ARGS) {\n"
    "  (void)bad; *l = al < bl ? al : bl; *h = ah < bh ? ah : bh;\n"
    "}\n"
    "GRT_I void grt_iv_join(GRT_IV_ARGS) {\n"
    "  (void)bad; *l = al < bl ? al : bl; *h = ah > bh ? ah : bh;\n"
    "}\n"
    "GRT_I void grt_iv_div(GRT_IV_ARGS) {\n"
    "  (void)bad; (void)bh; *l = al / bl; *h = ah / bl;\n"
    "}\n"
    "GRT_I void grt_iv_rem(GRT_IV_ARGS) {\n"
    "  (void)bad; (void)bh;\n"
    "  *l = al >= 0 ? 0 : al > 1 - bl ? al : 1 - bl;\n"
    "  *h = ah <= 0 ? 0 : ah < bl - 1 ? ah : bl - 1;\n"
    "}\n"
    "GRT_I int64_t grt_iv_mad(int64_t a, int64_t x, int64_t s, int* bad) {\n"
    "  int64_t p, r;\n"
    "  *bad |= __builtin_mul_overflow(x, s, &p);\n"
    "  *bad |= __builtin_add_overflow(a, p, &r);\n"
    "  return r;\n"
    "}\n"
    "\n";

// The grt_iv_ helper of an index OP with an interval, or NULL.
static const char* grtc_cpu_interval_op(const grtc_kernel_t* kernel,
                                        const grtc_kinst_t* inst,
                                        const bool* bounded) {
  if (inst->kind != GRTC_KINST_OP || inst->type != GRTC_ELEM_I64) return NULL;
  const uint32_t* o = inst->operands;
  switch ((grtc_scalar_op_t)inst->op) {
    case GRTC_SCALAR_ADD:
      return bounded[o[0]] && bounded[o[1]] ? "add" : NULL;
    case GRTC_SCALAR_SUB:
      return bounded[o[0]] && bounded[o[1]] ? "sub" : NULL;
    case GRTC_SCALAR_MUL:
      return bounded[o[0]] && bounded[o[1]] ? "mul" : NULL;
    case GRTC_SCALAR_MAX:
      return bounded[o[0]] && bounded[o[1]] ? "max" : NULL;
    case GRTC_SCALAR_MIN:
      return bounded[o[0]] && bounded[o[1]] ? "min" : NULL;
    case GRTC_SCALAR_SELECT:
      return bounded[o[1]] && bounded[o[2]] ? "join" : NULL;
    case GRTC_SCALAR_DIV:
    case GRTC_SCALAR_REM: {
      const grtc_kinst_t* c = &kernel->insts[o[1]];
      if (!bounded[o[0]] || c->kind != GRTC_KINST_CONST || c->value.i <= 0) {
        return NULL;
      }
      return inst->op == GRTC_SCALAR_DIV ? "div" : "rem";
    }
    default:
      return NULL;
  }
}

// The operands of an interval OP whose intervals it reads (SELECT: the
// two values; DIV/REM: the dividend, the divisor being a constant).
static void grtc_cpu_interval_operands(const grtc_kinst_t* inst,
                                       uint32_t* first, uint32_t* second) {
  if (inst->op == GRTC_SCALAR_SELECT) {
    *first = inst->operands[1];
    *second = inst->operands[2];
  } else {
    *first = inst->operands[0];
    *second = inst->operands[1];
  }
}

static void grtc_cpu_emit_i64_literal(grt_string_builder_t* out,
                                      int64_t value) {
  if (value == INT64_MIN) {
    grt_string_builder_append_cstring(out, "(-INT64_MAX - 1)");
  } else {
    grt_string_builder_appendf(out, "INT64_C(%" PRId64 ")", value);
  }
}

// Marks, in |needed|, the operands whose intervals the interval ops already
// in |needed| read (in reverse order: operands come first).
static void grtc_cpu_need_interval_operands(const grtc_kernel_t* kernel,
                                            bool* needed) {
  for (uint32_t i = kernel->inst_count; i-- > 0;) {
    const grtc_kinst_t* inst = &kernel->insts[i];
    if (!needed[i] || inst->kind != GRTC_KINST_OP) continue;
    uint32_t x, y;
    grtc_cpu_interval_operands(inst, &x, &y);
    needed[x] = true;
    if (inst->op != GRTC_SCALAR_DIV && inst->op != GRTC_SCALAR_REM) {
      needed[y] = true;
    }
  }
}

// `    const int empty = 0 || hi0 <= lo0 ...`: the workgroup's tile is empty
// (no statement terminator).
static void grtc_cpu_emit_tile_empty(grtc_cpu_emitter_t* e) {
  grt_string_builder_append_cstring(e->out, "    const int empty = 0");
  for (uint32_t d = 0; d < e->kernel->parallel_rank; ++d) {
    grt_string_builder_appendf(e->out, " || hi%u <= lo%u", d, d);
  }
}

// The intervals (il<i>, ih<i>) over the workgroup's tile of the |needed|
// index instructions (|bounded| ones: grtc_cpu_interval_op), computed with
// the grt_iv_ helpers, which set |bad| on overflow; inside a block that
// declares `int bad`.
static void grtc_cpu_emit_interval_defs(grtc_cpu_emitter_t* e,
                                        const bool* needed,
                                        const bool* bounded) {
  const grtc_kernel_t* kernel = e->kernel;
  grt_string_builder_t* out = e->out;
    for (uint32_t i = 0; i < kernel->inst_count; ++i) {
      if (!needed[i]) continue;
      const grtc_kinst_t* inst = &kernel->insts[i];
      char size[24];
      switch (inst->kind) {
        case GRTC_KINST_PINDEX:
          grt_string_builder_appendf(
              out, "    const int64_t il%u = lo%u, ih%u = hi%u - 1;\n", i,
              inst->dim, i, inst->dim);
          break;
        case GRTC_KINST_RINDEX:
          grtc_c_family_size(size, sizeof(size),
                             kernel->reduction_dims[inst->dim]);
          grt_string_builder_appendf(
              out, "    const int64_t il%u = 0, ih%u = (int64_t)%s - 1;\n", i,
              i, size);
          break;
        case GRTC_KINST_EXTENT:
          grt_string_builder_appendf(
              out, "    const int64_t il%u = e%u, ih%u = e%u;\n", i, inst->dim,
              i, inst->dim);
          break;
        case GRTC_KINST_CONST:
          grt_string_builder_appendf(out, "    const int64_t il%u = ", i);
          grtc_cpu_emit_i64_literal(out, inst->value.i);
          grt_string_builder_appendf(out, ", ih%u = il%u;\n", i, i);
          break;
        default: {
          uint32_t x, y;
          grtc_cpu_interval_operands(inst, &x, &y);
          const char* op = grtc_cpu_interval_op(kernel, inst, bounded);
          grt_string_builder_appendf(out, "    int64_t il%u, ih%u;\n", i, i);
          if (inst->op == GRTC_SCALAR_DIV || inst->op == GRTC_SCALAR_REM) {
            int64_t c = kernel->insts[y].value.i;
            grt_string_builder_appendf(
                out,
                "    grt_iv_%s(il%u, ih%u, INT64_C(%" PRId64 "), INT64_C(%" PRId64
                "), &il%u, &ih%u, &bad);\n",
                op, x, x, c, c, i, i);
          } else {
            grt_string_builder_appendf(
                out,
                "    grt_iv_%s(il%u, ih%u, il%u, ih%u, &il%u, &ih%u, &bad);\n",
                op, x, x, y, y, i, i);
          }
          break;
        }
      }
    }
}

// The point nest of a bounds-checked LOOP kernel. Accesses whose index has
// an interval over the workgroup's tile (built from parallel and reduction
// indices, extents and constants by ADD, SUB, MUL, MAX, MIN, SELECT, and
// DIV/REM by a positive constant; stores only when unpredicated, since a
// predicated-off store may hold any index) are checked once at the
// kernel's start: the intervals are computed with overflow checks (the
// grt_iv_ helpers), and when every one lies inside its binding (or the
// tile, or for LOOP-section accesses the reduction, is empty) the nest
// runs with only the other accesses checked, as the static kernel's code
// otherwise (index arithmetic proven free of overflow stays plain C).
// Else the nest runs with every access checked where it happens and the
// index arithmetic through the wrapping helpers, so an interval that is
// wider than the indices really are (a SELECT between a padded position
// and 0) costs speed, never a wrong error. Returns false when out of
// memory (nothing emitted).
static bool grtc_cpu_emit_checked_nest(grtc_cpu_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  grt_string_builder_t* out = e->out;
  size_t n = kernel->inst_count + 1;
  bool* flags = calloc(4 * n + 2 * ((size_t)kernel->store_count + 1),
                       sizeof(bool));
  if (!flags) return false;
  bool* bounded = flags;
  bool* needed = flags + n;
  bool* fast_index_only = flags + 2 * n;
  bool* all = flags + 3 * n;  // every access checked
  bool* check_load = all;     // (the loads' entries of |all| are set below)
  bool* tile_store = flags + 4 * n;
  bool* all_stores = tile_store + kernel->store_count + 1;
  for (uint32_t i = 0; i < kernel->inst_count; ++i) {
    const grtc_kinst_t* inst = &kernel->insts[i];
    bounded[i] = inst->kind == GRTC_KINST_PINDEX ||
                 inst->kind == GRTC_KINST_RINDEX ||
                 inst->kind == GRTC_KINST_EXTENT ||
                 (inst->kind == GRTC_KINST_CONST &&
                  inst->type == GRTC_ELEM_I64) ||
                 grtc_cpu_interval_op(kernel, inst, bounded) != NULL;
  }
  // Accesses checked by their intervals: tile_load marks them in |needed|
  // first (then the index chains are added below).
  bool* tile_load = calloc(n, sizeof(bool));
  bool* fast_check = calloc(n, sizeof(bool));
  if (!tile_load || !fast_check) {
    free(tile_load);
    free(fast_check);
    free(flags);
    return false;
  }
  uint32_t tile_checks = 0;
  for (uint32_t i = 0; i < kernel->inst_count; ++i) {
    const grtc_kinst_t* inst = &kernel->insts[i];
    if (inst->kind != GRTC_KINST_LOAD || !e->live[i]) continue;
    all[i] = true;
    if (bounded[inst->operands[0]]) {
      tile_load[i] = true;
      needed[inst->operands[0]] = true;
      ++tile_checks;
    } else {
      fast_check[i] = true;
    }
  }
  for (uint32_t s = 0; s < kernel->store_count; ++s) {
    const grtc_kstore_t* store = &kernel->stores[s];
    all_stores[s] = true;
    if (store->predicate == GRTC_KINST_NONE && bounded[store->index]) {
      tile_store[s] = true;
      needed[store->index] = true;
      ++tile_checks;
    }
  }
  grtc_cpu_need_interval_operands(kernel, needed);
  for (uint32_t i = 0; i < kernel->inst_count; ++i) {
    fast_index_only[i] = e->index_only[i] && needed[i];
  }
  if (tile_checks) {
    grt_string_builder_append_cstring(out,
                                      "  int gok = 1;\n  {\n    int bad = 0;\n");
    grtc_cpu_emit_interval_defs(e, needed, bounded);
    // The checks of the accesses: those of the LOOP section only when the
    // reduction runs.
    grtc_cpu_emit_tile_empty(e);
    grt_string_builder_append_cstring(out, ";\n    const int rempty = empty");
    for (uint32_t d = 0; d < kernel->reduction_rank; ++d) {
      char size[24];
      grtc_c_family_size(size, sizeof(size), kernel->reduction_dims[d]);
      grt_string_builder_appendf(out, " || %s <= 0", size);
    }
    grt_string_builder_append_cstring(out, ";\n    (void)rempty;\n");
    for (uint32_t i = 0; i < kernel->inst_count; ++i) {
      if (!tile_load[i]) continue;
      const grtc_kinst_t* inst = &kernel->insts[i];
      uint32_t x = inst->operands[0];
      grt_string_builder_appendf(
          out, "    if (!%s && (il%u < 0 || (uint64_t)ih%u >= len%u)) gok = 0;\n",
          inst->section == GRTC_KSECTION_LOOP ? "rempty" : "empty", x, x,
          inst->binding);
    }
    for (uint32_t st = 0; st < kernel->store_count; ++st) {
      if (!tile_store[st]) continue;
      const grtc_kstore_t* store = &kernel->stores[st];
      grt_string_builder_appendf(
          out, "    if (!empty && (il%u < 0 || (uint64_t)ih%u >= len%u)) gok = 0;\n",
          store->index, store->index, store->binding);
    }
    grt_string_builder_append_cstring(out,
                                      "    if (bad) gok = 0;\n  }\n"
                                      "  if (gok) {\n");
    // Fast: only the accesses without an interval checked.
    bool* fast_store = calloc((size_t)kernel->store_count + 1, sizeof(bool));
    for (uint32_t st = 0; fast_store && st < kernel->store_count; ++st) {
      fast_store[st] = !tile_store[st];
    }
    if (!fast_store) {
      free(tile_load);
      free(fast_check);
      free(flags);
      return false;
    }
    const bool* index_only = e->index_only;
    e->index_only = fast_index_only;
    e->check_load = fast_check;
    e->check_store = fast_store;
    grtc_cpu_emit_point_nest(e, grtc_cpu_emit_reduction);
    e->index_only = index_only;
    free(fast_store);
    grt_string_builder_append_cstring(out, "  } else {\n");
  }
  // Every access checked, index arithmetic wrapping.
  const bool* index_only = e->index_only;
  e->index_only = NULL;
  e->check_load = check_load;
  e->check_store = all_stores;
  grtc_cpu_emit_point_nest(e, grtc_cpu_emit_reduction);
  e->index_only = index_only;
  e->check_load = e->check_store = NULL;
  if (tile_checks) grt_string_builder_append_cstring(out, "  }\n");
  free(tile_load);
  free(fast_check);
  free(flags);
  return true;
}

static void grtc_cpu_last_index_deps(const grtc_kernel_t* kernel, bool* dep);

// A TWO_PASS ROWS kernel: per row of the tile, the PRE instructions that
// do not read the last parallel index and the reduction nest, once; then
// along the row the rest of PRE, POST and the stores (the loop the C
// compiler vectorizes). Returns false when out of memory.
static bool grtc_cpu_emit_rows_two_pass_kernel(grtc_cpu_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  uint32_t rank = kernel->parallel_rank, last = rank - 1;
  uint32_t n = kernel->inst_count + 1;
  bool* dep = calloc(3 * (size_t)n, sizeof(bool));
  if (!dep) return false;
  bool* row_live = dep + n;
  bool* point_live = dep + 2 * n;
  grtc_cpu_last_index_deps(kernel, dep);
  for (uint32_t i = 0; i < kernel->inst_count; ++i) {
    bool pre = kernel->insts[i].section == GRTC_KSECTION_PRE;
    row_live[i] = e->live[i] && !(pre && dep[i]);
    point_live[i] = e->live[i] && !(pre && !dep[i]);
  }
  bool* live = e->live;
  grtc_cpu_emit_binding_pointers(e);
  grtc_cpu_emit_tile_bounds(e);
  uint32_t depth = grtc_cpu_open_tile_loops(e, last, false);
  e->live = row_live;
  grtc_cpu_emit_section(e, GRTC_KSECTION_PRE);
  // The reduction nest with the pass (r0) a constant in each of two
  // copies, so each pass computes only what its accumulator needs.
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    grt_string_builder_appendf(e->out, "%s%s acc%u = v%u;\n", e->indent,
                               grtc_c_family_type(kernel->accs[a].type)->compute,
                               a, kernel->accs[a].init);
  }
  for (int pass = 0; pass < 2; ++pass) {
    grtc_cpu_set_depth(e, depth);
    grt_string_builder_appendf(
        e->out,
        "%s{\n%s  const int64_t r0 = %d;\n"
        "%s  for (int64_t r1 = 0; r1 < %" PRId64 "; ++r1) {\n",
        e->indent, e->indent, pass, e->indent, kernel->reduction_dims[1]);
    grtc_cpu_set_depth(e, depth + 2);
    grtc_cpu_emit_section(e, GRTC_KSECTION_LOOP);
    for (uint32_t a = 0; a < kernel->acc_count; ++a) {
      grt_string_builder_appendf(e->out, "%sacc%u = v%u;\n", e->indent, a,
                                 kernel->accs[a].update);
    }
    grtc_cpu_set_depth(e, depth);
    grt_string_builder_appendf(e->out, "%s  }\n%s}\n", e->indent, e->indent);
  }
  grtc_cpu_set_depth(e, depth);
  grt_string_builder_appendf(
      e->out, "%sGRT_IVDEP\n%sfor (int64_t p%u = lo%u; p%u < hi%u; ++p%u) {\n",
      e->indent, e->indent, last, last, last, last, last);
  grtc_cpu_set_depth(e, depth + 1);
  e->live = point_live;
  grtc_cpu_emit_section(e, GRTC_KSECTION_PRE);
  grtc_cpu_emit_section(e, GRTC_KSECTION_POST);
  grtc_cpu_emit_stores(e);
  e->live = live;
  for (uint32_t d = depth + 1; d-- > 1;) {
    grtc_cpu_set_depth(e, d);
    grt_string_builder_appendf(e->out, "%s}\n", e->indent);
  }
  grt_string_builder_append_cstring(e->out, "  return 0;\n}\n\n");
  free(dep);
  return true;
}

// Returns false when out of memory.
static bool grtc_cpu_emit_loop_kernel(grtc_cpu_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  grtc_cpu_emit_binding_pointers(e);
  grtc_cpu_emit_tile_bounds(e);
  size_t n = kernel->inst_count + 1;
  int64_t* linear = calloc(2 * n, sizeof(int64_t));
  uint8_t* flat = calloc(n, 1);
  bool ok = true;
  if (grtc_c_family_bounds_checked(kernel)) {
    ok = grtc_cpu_emit_checked_nest(e);
  } else if (linear && flat &&
      grtc_cpu_flatten(kernel, e->live, flat, linear, linear + n)) {
    e->flat = flat;
    e->flat_scale = linear;
    e->flat_offset = linear + n;
    // The tile is the q range starting at its first point, as long as the
    // product of its extents.
    grt_string_builder_append_cstring(e->out, "  const int64_t qlo = 0");
    int64_t stride = 1;
    for (uint32_t d = kernel->parallel_rank; d-- > 0;) {
      grt_string_builder_appendf(e->out, " + lo%u * %" PRId64, d, stride);
      stride *= kernel->parallel_dims[d];
    }
    grt_string_builder_append_cstring(e->out, ";\n  const int64_t qhi = qlo + 1");
    for (uint32_t d = 0; d < kernel->parallel_rank; ++d) {
      grt_string_builder_appendf(e->out, " * (hi%u - lo%u)", d, d);
    }
    grt_string_builder_append_cstring(
        e->out, ";\n  GRT_IVDEP\n"
                "  for (int64_t q = qlo; q < qhi; ++q) {\n");
    grtc_cpu_set_depth(e, 2);
    grtc_cpu_emit_section(e, GRTC_KSECTION_PRE);
    grtc_cpu_emit_section(e, GRTC_KSECTION_POST);
    grtc_cpu_emit_stores(e);
    grt_string_builder_append_cstring(e->out, "  }\n");
    e->flat = NULL;
  } else if (grtc_cpu_interleaves_points(kernel)) {
    grtc_cpu_emit_interleaved_nest(e);
  } else {
    grtc_cpu_emit_point_nest(e, grtc_cpu_emit_reduction);
  }
  free(linear);
  free(flat);
  grt_string_builder_append_cstring(e->out, "  return 0;\n}\n\n");
  return ok;
}

// Stable bottom-up merge sort of each row's element indices with the
// comparator inlined, then every operand permuted through scratch (so a
// result may share memory with its operand).
static void grtc_cpu_emit_sort_kernel(grtc_cpu_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  grt_string_builder_t* out = e->out;
  uint32_t n = kernel->sort.operand_count;
  int64_t rows, length, stride;
  grtc_c_family_sort_geometry(kernel, &rows, &length, &stride);
  grt_string_builder_appendf(
      out, "  int64_t* perm = (int64_t*)wg->local_memory;\n"
           "  int64_t* tmp = perm + %" PRId64 ";\n"
           "  unsigned char* vals = (unsigned char*)(tmp + %" PRId64 ");\n",
      length, length);
  grt_string_builder_appendf(
      out,
      "  for (int64_t row = wg->workgroup_id[0]; row < %" PRId64
      "; row += d->workgroup_count[0]) {\n"
      "    const int64_t base = (row / %" PRId64 ") * %" PRId64
      " + row %% %" PRId64 ";\n"
      "    int64_t* src = perm; int64_t* dst = tmp;\n"
      "    for (int64_t k = 0; k < %" PRId64 "; ++k) src[k] = base + k * %" PRId64
      ";\n"
      "    for (int64_t w = 1; w < %" PRId64 "; w *= 2) {\n"
      "      for (int64_t lo = 0; lo < %" PRId64 "; lo += 2 * w) {\n"
      "        int64_t mid = lo + w < %" PRId64 " ? lo + w : %" PRId64 ";\n"
      "        int64_t hi = lo + 2 * w < %" PRId64 " ? lo + 2 * w : %" PRId64
      ";\n"
      "        int64_t x = lo, y = mid, o = lo;\n"
      "        while (x < mid && y < hi) {\n"
      "          const int64_t i = src[y], j = src[x];\n",
      rows, stride, length * stride, stride, length, stride, length, length,
      length, length, length, length);
  grtc_cpu_set_depth(e, 5);
  grtc_cpu_emit_section(e, GRTC_KSECTION_PRE);
  grt_string_builder_appendf(
      out,
      "          if (v%u) dst[o++] = src[y++]; else dst[o++] = src[x++];\n"
      "        }\n"
      "        while (x < mid) dst[o++] = src[x++];\n"
      "        while (y < hi) dst[o++] = src[y++];\n"
      "      }\n"
      "      int64_t* swap = src; src = dst; dst = swap;\n"
      "    }\n",
      kernel->sort.comparator);
  for (uint32_t k = 0; k < n; ++k) {
    const char* storage = grtc_c_family_type(kernel->bindings[k].elem)->storage;
    grt_string_builder_appendf(
        out,
        "    { %s* v = (%s*)vals;\n"
        "      for (int64_t k = 0; k < %" PRId64 "; ++k) v[k] = b%u[src[k]];\n"
        "      for (int64_t k = 0; k < %" PRId64 "; ++k) b%u[base + k * %" PRId64
        "] = v[k]; }\n",
        storage, storage, length, k, length, k + n, stride);
  }
  grt_string_builder_append_cstring(out, "  }\n  return 0;\n}\n\n");
}

// The specialized routine a kernel runs instead of its generic loops:
// f32 MATMUL uses the blocked GEMM of gemm.c; f32 CONV2D uses the same GEMM
// on im2col rows, its panels with output channels as rows when the input is
// planar (NCHW) and the tile covers whole output rows, or a direct loop
// vectorized over output channels for depthwise filters and tiles of few
// pixels. Anything else (and any
// pattern a future lowering fills differently) runs the generic loops,
// which are always equivalent.
typedef enum grtc_cpu_path_e {
  GRTC_CPU_PATH_LOOPS,
  GRTC_CPU_PATH_MATMUL,
  GRTC_CPU_PATH_MATMUL_I8,  // gemm_i8.c
  GRTC_CPU_PATH_MATMUL_W4,  // w4.c
  GRTC_CPU_PATH_CONV_I8,    // gemm_i8.c
  GRTC_CPU_PATH_CONV_GEMM,
  GRTC_CPU_PATH_CONV_PIXELS,
  GRTC_CPU_PATH_CONV_DEPTHWISE,
  GRTC_CPU_PATH_CONV_STEM,
  GRTC_CPU_PATH_CONV_DIRECT,
  GRTC_CPU_PATH_POOL,
  GRTC_CPU_PATH_ROWS,  // rows.c
  GRTC_CPU_PATH_ROWS_TWO_PASS,
} grtc_cpu_path_t;

static bool grtc_cpu_conv_supported(const grtc_kernel_t* kernel) {
  const grtc_kconv_t* cv = &kernel->conv;
  const int64_t space[4] = {cv->n, cv->oh, cv->ow, cv->oc};
  bool ok = kernel->parallel_rank == 4 && cv->input_elem == GRTC_ELEM_F32 &&
            cv->filter_elem == GRTC_ELEM_F32 &&
            cv->acc_elem == GRTC_ELEM_F32 && cv->groups >= 1 && cv->c >= 1 &&
            cv->kh >= 1 && cv->kw >= 1 && cv->c % cv->groups == 0 &&
            cv->oc % cv->groups == 0 && cv->stride_h >= 1 &&
            cv->stride_w >= 1 && cv->dilation_h >= 1 && cv->dilation_w >= 1;
  // An empty output has nothing to compute (and its pixel rows would
  // divide by a zero width): the generic loops run zero times. The batch
  // may be symbolic (the paths walk it through lo0/hi0 only).
  for (uint32_t d = 0; ok && d < 4; ++d) {
    ok = kernel->parallel_dims[d] == space[d] &&
         (space[d] > 0 || (d == 0 && !grtc_kdim_is_static(space[d])));
  }
  return ok;
}

#define GRTC_CPU_CONV_GEMM_MIN_PIXELS 24
// The stem path: at most this many input channels.
#define GRTC_CPU_STEM_MAX_C 4

// The stem path's register block: |ocb| output channels times |nv| vectors
// of pixels, all accumulators with a pixel vector each and a broadcast
// filter value within AVX2's 16 registers. 5 x 2 (7 loads for 10 FMAs)
// where the tile has many output channels (ResNet's 64: 13 blocks, one
// channel wasted); 8 x 1 (9 loads for 8 FMAs) for the 16 and 32 channels
// of the MobileNets' stems, which 5 would pad to 20 and 35. (6 x 2 and
// 4 x 3 spill an accumulator with GCC 12; 4 x 2 leaves too few
// independent FMA chains.)
static void grtc_cpu_stem_block(const grtc_kernel_t* kernel, int* ocb,
                                int* nv) {
  int64_t tile_oc = kernel->tile[3] < kernel->conv.oc ? kernel->tile[3]
                                                      : kernel->conv.oc;
  *ocb = tile_oc >= 40 ? 5 : 8;
  *nv = tile_oc >= 40 ? 2 : 1;
}

// f32 pooling on planar (NCHW) inputs over whole output rows, with
// non-negative padding (the rows are padded on the left).
static bool grtc_cpu_pool_supported(const grtc_kernel_t* kernel) {
  const grtc_kpool_t* pl = &kernel->pool;
  const int64_t space[4] = {pl->n, pl->c, pl->oh, pl->ow};
  bool ok = kernel->parallel_rank == 4 && pl->elem == GRTC_ELEM_F32 &&
            (pl->op == GRTC_SCALAR_ADD || pl->op == GRTC_SCALAR_MAX ||
             pl->op == GRTC_SCALAR_MIN) &&
            pl->h >= 1 && pl->w >= 1 && pl->kh >= 1 && pl->kw >= 1 &&
            pl->stride_h >= 1 && pl->stride_w >= 1 && pl->dilation_h >= 1 &&
            pl->dilation_w >= 1 && pl->pad_h >= 0 && pl->pad_w >= 0 &&
            pl->input_strides[3] == 1 && kernel->tile[3] >= pl->ow;
  for (uint32_t d = 0; ok && d < 4; ++d) {
    ok = kernel->parallel_dims[d] == space[d] &&
         (space[d] > 0 || (d == 0 && !grtc_kdim_is_static(space[d])));
  }
  return ok;
}

// The path of a supported f32 CONV2D.
static grtc_cpu_path_t grtc_cpu_conv_path(const grtc_kernel_t* kernel) {
  // The GEMM packs the filter once per group and pixel block, which
  // only pays off over enough pixels; depthwise filters have no reuse
  // across input channels to exploit.
  const grtc_kconv_t* cv = &kernel->conv;
  int64_t pixels = (kernel->tile[1] < cv->oh ? kernel->tile[1] : cv->oh) *
                   (kernel->tile[2] < cv->ow ? kernel->tile[2] : cv->ow);
  bool planar = cv->input_strides[2] == 1 && cv->input_strides[3] != 1 &&
                kernel->tile[2] >= cv->ow;
  // A network's first convolution (few input channels, stride 2 across:
  // ResNet's 7x7/2, the MobileNets' 3x3/2) on planar inputs: K is too
  // short for the GEMM and its im2col rows are strided gathers
  // (grtc_cpu_emit_conv_stem_kernel). One input channel takes it too:
  // the depthwise path would compute the sums at every input column.
  if (planar && cv->groups == 1 && cv->c <= GRTC_CPU_STEM_MAX_C &&
      cv->stride_w == 2 && pixels >= GRTC_CPU_CONV_GEMM_MIN_PIXELS) {
    return GRTC_CPU_PATH_CONV_STEM;
  }
  // One input channel per group on planar inputs: output rows from
  // zero-padded input rows, vectorized along the pixels.
  if (cv->c == cv->groups && planar) return GRTC_CPU_PATH_CONV_DEPTHWISE;
  if (cv->c == cv->groups || pixels < GRTC_CPU_CONV_GEMM_MIN_PIXELS) {
    return GRTC_CPU_PATH_CONV_DIRECT;
  }
  // Planar activations (NCHW: a row of pixels is contiguous, channels
  // far apart) over whole output rows: output channels x pixels, so the
  // filter is the GEMM's A and the pixels its columns.
  if (planar) return GRTC_CPU_PATH_CONV_PIXELS;
  return GRTC_CPU_PATH_CONV_GEMM;
}

static bool grtc_cpu_pattern_checkable(const grtc_kernel_t* kernel);

// Marks in |dep| the instructions that read the last parallel index.
static void grtc_cpu_last_index_deps(const grtc_kernel_t* kernel, bool* dep) {
  uint32_t last = kernel->parallel_rank - 1;
  for (uint32_t i = 0; i < kernel->inst_count; ++i) {
    const grtc_kinst_t* inst = &kernel->insts[i];
    dep[i] = inst->kind == GRTC_KINST_PINDEX && inst->dim == last;
    for (uint32_t k = 0; k < inst->operand_count; ++k) {
      dep[i] |= inst->operands[k] < i && dep[inst->operands[k]];
    }
  }
}

// A TWO_PASS ROWS kernel whose LOOP section and accumulator inits do not
// read the last parallel index (as the lowering writes them): its
// reductions run once per row (grtc_cpu_emit_rows_two_pass_kernel).
static bool grtc_cpu_rows_two_pass_supported(const grtc_kernel_t* kernel) {
  if (kernel->kind != GRTC_KERNEL_LOOP ||
      kernel->pattern != GRTC_KPATTERN_ROWS ||
      kernel->rows.kind != GRTC_KROWS_TWO_PASS || kernel->serial ||
      kernel->parallel_rank < 1 || grtc_c_family_bounds_checked(kernel)) {
    return false;
  }
  bool* dep = calloc(kernel->inst_count + 1, sizeof(bool));
  if (!dep) return false;
  grtc_cpu_last_index_deps(kernel, dep);
  bool ok = true;
  for (uint32_t i = 0; ok && i < kernel->inst_count; ++i) {
    ok = !(dep[i] && kernel->insts[i].section == GRTC_KSECTION_LOOP);
  }
  for (uint32_t a = 0; ok && a < kernel->acc_count; ++a) {
    ok = !dep[kernel->accs[a].init] && !dep[kernel->accs[a].update];
  }
  free(dep);
  return ok;
}

static grtc_cpu_path_t grtc_cpu_path(const grtc_kernel_t* kernel) {
  if (grtc_cpu_rows_supported(kernel)) return GRTC_CPU_PATH_ROWS;
  if (grtc_cpu_rows_two_pass_supported(kernel)) {
    return GRTC_CPU_PATH_ROWS_TWO_PASS;
  }
  if (kernel->kind != GRTC_KERNEL_LOOP || kernel->acc_count != 1 ||
      kernel->serial || !grtc_cpu_pattern_checkable(kernel)) {
    return GRTC_CPU_PATH_LOOPS;
  }
  const grtc_kmatmul_t* mm = &kernel->matmul;
  if (kernel->pattern == GRTC_KPATTERN_MATMUL &&
      mm->lhs_elem == GRTC_ELEM_F32 && mm->rhs_elem == GRTC_ELEM_F32 &&
      mm->acc_elem == GRTC_ELEM_F32) {
    return GRTC_CPU_PATH_MATMUL;
  }
  // (The i8 GEMM has no bounds checks: bounds-checked kernels, which it
  // does not take when symbolic, run the generic loops.)
  if (grtc_cpu_igemm_supported(kernel) && !grtc_c_family_bounds_checked(kernel)) {
    return GRTC_CPU_PATH_MATMUL_I8;
  }
  // A packed rhs is read only here (its prepacking checked the rest).
  if (grtc_cpu_w4gemm_supported(kernel)) return GRTC_CPU_PATH_MATMUL_W4;
  if (grtc_cpu_iconv_supported(kernel) && !grtc_c_family_bounds_checked(kernel)) {
    return GRTC_CPU_PATH_CONV_I8;
  }
  if (kernel->pattern == GRTC_KPATTERN_POOL2D &&
      grtc_cpu_pool_supported(kernel)) {
    return GRTC_CPU_PATH_POOL;
  }
  if (kernel->pattern == GRTC_KPATTERN_CONV2D &&
      grtc_cpu_conv_supported(kernel)) {
    grtc_cpu_path_t path = grtc_cpu_conv_path(kernel);
    // The other paths read the filter through its strides; a packed one
    // only the planar GEMM and the generic loops (which index the packed
    // layout) can read.
    if (kernel->conv.filter_packed && path != GRTC_CPU_PATH_CONV_PIXELS) {
      return GRTC_CPU_PATH_LOOPS;
    }
    return path;
  }
  return GRTC_CPU_PATH_LOOPS;
}

bool grtc_cpu_conv_on_pixels_path(const grtc_kernel_t* kernel) {
  return grtc_cpu_path(kernel) == GRTC_CPU_PATH_CONV_PIXELS;
}

bool grtc_cpu_conv_takes_runtime_split(const grtc_kernel_t* kernel) {
  return kernel->kind == GRTC_KERNEL_LOOP &&
         kernel->pattern == GRTC_KPATTERN_CONV2D &&
         grtc_cpu_conv_on_pixels_path(kernel);
}

static bool grtc_cpu_uses_gemm(const grtc_kernel_t* kernel) {
  grtc_cpu_path_t path = grtc_cpu_path(kernel);
  return path == GRTC_CPU_PATH_MATMUL || path == GRTC_CPU_PATH_CONV_GEMM ||
         path == GRTC_CPU_PATH_CONV_PIXELS ||
         path == GRTC_CPU_PATH_CONV_DEPTHWISE ||
         path == GRTC_CPU_PATH_CONV_STEM;
}

// Blocking of a GEMM kernel's tile: C blocks of |rows| x |cols| (rows
// padded to 6 and columns to 32 in the scratch C buffer, leading dimension
// |ldc|). Must match GRT_KC/GRT_MC in gemm.c.
#define GRTC_CPU_GEMM_KC 256
// Prepacked filters (prepack.c) are laid out in the GEMM's K slices.
_Static_assert(GRTC_CPU_GEMM_KC == GRTC_KCONV_PACK_KC,
               "the GEMM's K slice and the packed filter layout's differ");
#define GRTC_CPU_GEMM_MC 96
#define GRTC_CPU_GEMM_ROWS 1024
#define GRTC_CPU_GEMM_COLS 256
typedef struct grtc_cpu_gemm_geometry_t {
  int64_t rows, cols, ldc, rows_padded;
  uint64_t scratch_bytes;
} grtc_cpu_gemm_geometry_t;

int64_t grtc_cpu_tile_size(const grtc_kernel_t* kernel, uint32_t d) {
  int64_t dim = kernel->parallel_dims[d];
  return grtc_kdim_is_static(dim) && dim < kernel->tile[d] ? dim
                                                            : kernel->tile[d];
}

static grtc_cpu_gemm_geometry_t grtc_cpu_gemm_geometry(
    const grtc_kernel_t* kernel) {
  uint32_t r = kernel->parallel_rank;
  int64_t tile_m = grtc_cpu_tile_size(kernel, r - 2);
  int64_t tile_n = grtc_cpu_tile_size(kernel, r - 1);
  grtc_cpu_gemm_geometry_t g;
  g.rows = tile_m < GRTC_CPU_GEMM_ROWS ? tile_m : GRTC_CPU_GEMM_ROWS;
  g.cols = tile_n < GRTC_CPU_GEMM_COLS ? tile_n : GRTC_CPU_GEMM_COLS;
  if (g.rows < 1) g.rows = 1;
  if (g.cols < 1) g.cols = 1;
  g.ldc = (g.cols + 31) / 32 * 32;
  g.rows_padded = (g.rows + 5) / 6 * 6;
  g.scratch_bytes = (uint64_t)((GRTC_CPU_GEMM_KC + 1) * g.ldc +
                               GRTC_CPU_GEMM_MC * GRTC_CPU_GEMM_KC +
                               g.rows_padded * g.ldc) *
                    sizeof(float);
  return g;
}

static bool grtc_cpu_strides_nonnegative(const int64_t* strides,
                                          uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    if (strides[i] < 0) return false;
  }
  return true;
}

// Whether a bounds-checked kernel's pattern inputs can be checked once per
// workgroup (grtc_cpu_emit_pattern_prologue): non-negative strides, and a
// CONV2D filter of static size (the HAL checks it, as any binding of
// static size).
static bool grtc_cpu_pattern_checkable(const grtc_kernel_t* kernel) {
  if (!grtc_c_family_bounds_checked(kernel)) return true;
  const grtc_kmatmul_t* mm = &kernel->matmul;
  switch (kernel->pattern) {
    case GRTC_KPATTERN_MATMUL: {
      const int64_t strides[] = {mm->lhs_stride_m, mm->lhs_stride_k,
                                 mm->rhs_stride_k, mm->rhs_stride_n};
      return grtc_cpu_strides_nonnegative(strides, 4) &&
             grtc_cpu_strides_nonnegative(mm->lhs_batch_strides,
                                          mm->batch_rank) &&
             grtc_cpu_strides_nonnegative(mm->rhs_batch_strides,
                                          mm->batch_rank);
    }
    case GRTC_KPATTERN_CONV2D:
      return grtc_cpu_strides_nonnegative(kernel->conv.input_strides, 4) &&
             kernel->bindings[kernel->conv.filter_binding].element_count >= 0;
    case GRTC_KPATTERN_POOL2D:
      return grtc_cpu_strides_nonnegative(kernel->pool.input_strides, 4);
    default:
      return true;
  }
}

// Appends `top = grt_iv_mad(top, <x>, <stride>, &bad);` for |x| (a C
// expression) unless the stride is 0.
static void grtc_cpu_emit_top_term(grt_string_builder_t* out, const char* x,
                                   int64_t stride) {
  if (stride == 0) return;
  grt_string_builder_appendf(out,
                             "    top = grt_iv_mad(top, %s, INT64_C(%" PRId64
                             "), &bad);\n",
                             x, stride);
}

// `if (bad || top >= len<b>) return <code>;` closing a pattern input's
// check.
static void grtc_cpu_emit_top_check(grt_string_builder_t* out,
                                    uint32_t binding) {
  grt_string_builder_appendf(
      out, "    if (bad || (uint64_t)top >= len%u) return %u;\n", binding,
      GRTC_KERNEL_CODE_OUT_OF_RANGE + binding);
}

// A bounds-checked pattern kernel's epilogue: the loads and unpredicated
// stores whose index is an affine-like chain over the tile (the interval
// ops but SELECT, whose interval may be wider than its values) are checked
// once per workgroup, failing the dispatch when one leaves its binding
// (the interval is exact, so that access would leave it); only the others
// are checked where they happen, and when none is, the index arithmetic
// is plain C, as in the static kernel (so the epilogue vectorizes).
static void grtc_cpu_emit_epilogue_checks(grtc_cpu_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  grt_string_builder_t* out = e->out;
  if (!e->check_load || !e->check_store || !e->pattern_index_only) return;
  size_t n = kernel->inst_count + 1;
  bool* flags = calloc(3 * n, sizeof(bool));
  if (!flags) return;  // every access stays checked where it happens
  bool* bounded = flags;
  bool* needed = flags + n;
  bool* index_only = flags + 2 * n;
  for (uint32_t i = 0; i < kernel->inst_count; ++i) {
    const grtc_kinst_t* inst = &kernel->insts[i];
    bounded[i] = inst->kind == GRTC_KINST_PINDEX ||
                 inst->kind == GRTC_KINST_EXTENT ||
                 (inst->kind == GRTC_KINST_CONST && inst->type == GRTC_ELEM_I64) ||
                 (inst->kind == GRTC_KINST_OP && inst->op != GRTC_SCALAR_SELECT &&
                  grtc_cpu_interval_op(kernel, inst, bounded) != NULL);
  }
  bool* check_load = (bool*)e->check_load;
  bool* check_store = (bool*)e->check_store;
  bool remaining = false;
  uint32_t checks = 0;
  for (uint32_t i = 0; i < kernel->inst_count; ++i) {
    const grtc_kinst_t* inst = &kernel->insts[i];
    if (inst->kind != GRTC_KINST_LOAD || !check_load[i] || !e->live[i] ||
        inst->section == GRTC_KSECTION_LOOP) {
      continue;
    }
    if (bounded[inst->operands[0]]) {
      needed[inst->operands[0]] = true;
      ++checks;
    } else {
      remaining = true;
    }
  }
  for (uint32_t st = 0; st < kernel->store_count; ++st) {
    const grtc_kstore_t* store = &kernel->stores[st];
    if (store->predicate == GRTC_KINST_NONE && bounded[store->index]) {
      needed[store->index] = true;
      ++checks;
    } else {
      remaining = true;
    }
  }
  if (!checks) {
    free(flags);
    return;
  }
  grtc_cpu_need_interval_operands(kernel, needed);
  grt_string_builder_append_cstring(out, "  {\n    int bad = 0;\n");
  grtc_cpu_emit_interval_defs(e, needed, bounded);
  grtc_cpu_emit_tile_empty(e);
  grt_string_builder_append_cstring(out, ";\n");
  for (uint32_t i = 0; i < kernel->inst_count; ++i) {
    const grtc_kinst_t* inst = &kernel->insts[i];
    if (inst->kind != GRTC_KINST_LOAD || !check_load[i] || !e->live[i] ||
        inst->section == GRTC_KSECTION_LOOP || !bounded[inst->operands[0]]) {
      continue;
    }
    uint32_t x = inst->operands[0];
    grt_string_builder_appendf(
        out, "    if (!empty && (bad || il%u < 0 || (uint64_t)ih%u >= len%u)) return %u;\n",
        x, x, inst->binding, GRTC_KERNEL_CODE_OUT_OF_RANGE + inst->binding);
    check_load[i] = false;
  }
  for (uint32_t st = 0; st < kernel->store_count; ++st) {
    const grtc_kstore_t* store = &kernel->stores[st];
    if (store->predicate != GRTC_KINST_NONE || !bounded[store->index]) continue;
    grt_string_builder_appendf(
        out, "    if (!empty && (bad || il%u < 0 || (uint64_t)ih%u >= len%u)) return %u;\n",
        store->index, store->index, store->binding,
        GRTC_KERNEL_CODE_OUT_OF_RANGE + store->binding);
    check_store[st] = false;
  }
  grt_string_builder_append_cstring(out, "  }\n");
  if (!remaining) {
    // Every index chain is proven free of overflow: plain C arithmetic.
    for (uint32_t i = 0; i < kernel->inst_count; ++i) {
      index_only[i] = e->pattern_index_only[i] && needed[i];
    }
    e->index_only = index_only;
    e->owned_index_only = flags;
    return;
  }
  free(flags);
}

// The binding pointers and the tile bounds of a pattern kernel; when it is
// bounds-checked, also the once-per-workgroup check that the highest
// element its routine reads of each pattern input (every stride is >= 0:
// grtc_cpu_pattern_checkable) lies inside the binding, for a non-empty
// tile (a CONV2D filter is of static size, which the HAL checks). The
// epilogue's own loads and stores are checked where they happen.
static void grtc_cpu_emit_pattern_prologue(grtc_cpu_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  grt_string_builder_t* out = e->out;
  grtc_cpu_emit_binding_pointers(e);
  grtc_cpu_emit_tile_bounds(e);
  if (!grtc_c_family_bounds_checked(kernel)) return;
  grt_string_builder_append_cstring(out, "  if (1");
  for (uint32_t d = 0; d < kernel->parallel_rank; ++d) {
    grt_string_builder_appendf(out, " && hi%u > lo%u", d, d);
  }
  char size[24], x[48];
  if (kernel->pattern == GRTC_KPATTERN_MATMUL) {
    grtc_c_family_size(size, sizeof(size), kernel->matmul.k);
    grt_string_builder_appendf(out, " && %s > 0", size);
  }
  grt_string_builder_append_cstring(out, ") {\n    int bad = 0;\n    int64_t top = 0;\n");
  if (kernel->pattern == GRTC_KPATTERN_MATMUL) {
    const grtc_kmatmul_t* mm = &kernel->matmul;
    uint32_t dm = kernel->parallel_rank - 2, dn = dm + 1;
    char k_last[32];
    snprintf(k_last, sizeof(k_last), "%s - 1", size);
    for (uint32_t side = 0; side < 2; ++side) {
      const int64_t* batch =
          side == 0 ? mm->lhs_batch_strides : mm->rhs_batch_strides;
      for (uint32_t d = 0; d < mm->batch_rank; ++d) {
        snprintf(x, sizeof(x), "hi%u - 1", d);
        grtc_cpu_emit_top_term(out, x, batch[d]);
      }
      snprintf(x, sizeof(x), "hi%u - 1", side == 0 ? dm : dn);
      grtc_cpu_emit_top_term(out, x, side == 0 ? mm->lhs_stride_m
                                                : mm->rhs_stride_n);
      grtc_cpu_emit_top_term(out, k_last, side == 0 ? mm->lhs_stride_k
                                                     : mm->rhs_stride_k);
      grtc_cpu_emit_top_check(out, side == 0 ? mm->lhs_binding
                                             : mm->rhs_binding);
      if (side == 0) {
        grt_string_builder_append_cstring(out, "    top = 0;\n");
      }
    }
  } else {
    // CONV2D input (n, h, w, c) and POOL2D input (n, c, h, w): every
    // position of the tile's images (CONV2D; only n is symbolic) or of
    // its planes (POOL2D).
    bool conv = kernel->pattern == GRTC_KPATTERN_CONV2D;
    const int64_t* strides =
        conv ? kernel->conv.input_strides : kernel->pool.input_strides;
    int64_t last[4];
    if (conv) {
      last[1] = kernel->conv.h - 1;
      last[2] = kernel->conv.w - 1;
      last[3] = kernel->conv.c - 1;
    } else {
      last[2] = kernel->pool.h - 1;
      last[3] = kernel->pool.w - 1;
    }
    for (uint32_t d = 0; d < 4; ++d) {
      if (d == 0 || (d == 1 && !conv)) {
        snprintf(x, sizeof(x), "hi%u - 1", d);
      } else {
        snprintf(x, sizeof(x), "INT64_C(%" PRId64 ")", last[d]);
      }
      grtc_cpu_emit_top_term(out, x, strides[d]);
    }
    grtc_cpu_emit_top_check(out, conv ? kernel->conv.input_binding
                                      : kernel->pool.input_binding);
  }
  grt_string_builder_append_cstring(out, "  }\n");
  grtc_cpu_emit_epilogue_checks(e);
}

// The epilogue's values that depend on the output channel (parallel index
// 3 of a CONV2D kernel) and constants alone: a bias or scale the importer
// spelled as a select chain over the channel index, the channel's part of
// the store index. Emitted once per channel, at the current indent, ahead
// of the loops over its pixels, and marked so the sections skip them
// there: a chain of 16 compares and selects per pixel also kept GCC from
// vectorizing the loop. Loads stay in the loop (a binding may be written).
// Returns the marks (NULL when out of memory: nothing is hoisted) for the
// caller to free once the kernel is emitted.
static bool* grtc_cpu_emit_channel_values(grtc_cpu_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  bool* mark = calloc(kernel->inst_count + 1, sizeof(bool));
  if (!mark) return NULL;
  for (uint32_t i = 0; i < kernel->inst_count; ++i) {
    const grtc_kinst_t* inst = &kernel->insts[i];
    if (inst->section == GRTC_KSECTION_LOOP || !e->live[i]) continue;
    bool ok = false;
    switch (inst->kind) {
      case GRTC_KINST_CONST:
        ok = true;
        break;
      case GRTC_KINST_PINDEX:
        ok = inst->dim == 3;
        break;
      case GRTC_KINST_OP:
      case GRTC_KINST_COMPARE:
      case GRTC_KINST_CONVERT:
      case GRTC_KINST_BITCAST:
        ok = true;
        for (uint32_t k = 0; k < inst->operand_count; ++k) {
          ok = ok && inst->operands[k] < i && mark[inst->operands[k]];
        }
        break;
      default:
        break;
    }
    mark[i] = ok;
  }
  for (uint32_t i = 0; i < kernel->inst_count; ++i) {
    if (mark[i]) grtc_cpu_emit_inst(e, i);
  }
  e->hoisted = mark;
  return mark;
}

// PRE, ACC(0) = |value| (plus the accumulator's initial value unless that
// is the constant 0, which the pattern routines start from), POST and the
// stores of one parallel point, at the current indent.
static void grtc_cpu_emit_pattern_epilogue(grtc_cpu_emitter_t* e,
                                           const char* value) {
  grtc_cpu_emit_section(e, GRTC_KSECTION_PRE);
  grtc_c_family_emitter_t cf = grtc_cpu_family(e);
  grtc_c_family_emit_pattern_acc(&cf, value);
  grtc_cpu_emit_section(e, GRTC_KSECTION_POST);
  grtc_cpu_emit_stores(e);
}

// The tile's batch points, then C blocks of the (m, n) tile: the GEMM into
// scratch, then PRE/POST/stores per element with ACC(0) the block's value
// (plus the accumulator's initial value unless that is the constant 0).
static void grtc_cpu_emit_matmul_kernel(grtc_cpu_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  const grtc_kmatmul_t* mm = &kernel->matmul;
  grt_string_builder_t* out = e->out;
  grtc_cpu_gemm_geometry_t g = grtc_cpu_gemm_geometry(kernel);
  uint32_t rank = kernel->parallel_rank, dm = rank - 2, dn = rank - 1;
  char k_size[24];
  grtc_c_family_size(k_size, sizeof(k_size), mm->k);
  grtc_cpu_emit_pattern_prologue(e);
  grt_string_builder_appendf(out,
                             "  float* bp = (float*)wg->local_memory;\n"
                             "  float* ap = bp + (%d + 1) * %" PRId64 ";\n"
                             "  float* cb = ap + %d * %d;\n",
                             GRTC_CPU_GEMM_KC, g.ldc, GRTC_CPU_GEMM_MC,
                             GRTC_CPU_GEMM_KC);
  uint32_t depth = 1;
  grt_string_builder_t* o = out;
  for (uint32_t d = 0; d < mm->batch_rank; ++d) {
    grtc_cpu_set_depth(e, depth++);
    grt_string_builder_appendf(
        o, "%sfor (int64_t p%u = lo%u; p%u < hi%u; ++p%u) {\n", e->indent, d,
        d, d, d, d);
  }
  grtc_cpu_set_depth(e, depth);
  grt_string_builder_appendf(o, "%sconst float* A = b%u + 0", e->indent,
                             mm->lhs_binding);
  for (uint32_t d = 0; d < mm->batch_rank; ++d) {
    grt_string_builder_appendf(o, " + p%u * %" PRId64, d,
                               mm->lhs_batch_strides[d]);
  }
  grt_string_builder_appendf(o, ";\n%sconst float* B = b%u + 0", e->indent,
                             mm->rhs_binding);
  for (uint32_t d = 0; d < mm->batch_rank; ++d) {
    grt_string_builder_appendf(o, " + p%u * %" PRId64, d,
                               mm->rhs_batch_strides[d]);
  }
  grt_string_builder_appendf(
      o,
      ";\n"
      "%sfor (int64_t m0 = lo%u; m0 < hi%u; m0 += %" PRId64 ") {\n"
      "%s  const int64_t mr = hi%u - m0 < %" PRId64 " ? hi%u - m0 : %" PRId64
      ";\n"
      "%s  for (int64_t n0 = lo%u; n0 < hi%u; n0 += %" PRId64 ") {\n"
      "%s    const int64_t nr = hi%u - n0 < %" PRId64 " ? hi%u - n0 : %" PRId64
      ";\n"
      "%s    grt_gemm_block(A + m0 * %" PRId64 ", %" PRId64 ", %" PRId64
      ", B + n0 * %" PRId64 ", NULL, %" PRId64 ", %" PRId64 ", mr, nr, %s"
      ", bp, ap, cb, %" PRId64 ");\n"
      "%s    for (int64_t p%u = m0; p%u < m0 + mr; ++p%u) {\n"
      "%s      const float* crow = cb + (p%u - m0) * %" PRId64 " - n0;\n"
      "%s      GRT_IVDEP\n"
      "%s      for (int64_t p%u = n0; p%u < n0 + nr; ++p%u) {\n",
      e->indent, dm, dm, g.rows, e->indent, dm, g.rows, dm, g.rows, e->indent,
      dn, dn, g.cols, e->indent, dn, g.cols, dn, g.cols, e->indent,
      mm->lhs_stride_m, mm->lhs_stride_m, mm->lhs_stride_k, mm->rhs_stride_n,
      mm->rhs_stride_k, mm->rhs_stride_n, k_size, g.ldc, e->indent, dm, dm, dm,
      e->indent, dm, g.ldc, e->indent, e->indent, dn, dn, dn);
  grtc_cpu_set_depth(e, depth + 4);
  char value[32];
  snprintf(value, sizeof(value), "crow[p%u]", dn);
  grtc_cpu_emit_pattern_epilogue(e, value);
  for (uint32_t level = depth + 4; level-- > 1;) {
    grtc_cpu_set_depth(e, level);
    grt_string_builder_appendf(o, "%s}\n", e->indent);
  }
  grt_string_builder_append_cstring(o, "  return 0;\n}\n\n");
}

// The epilogue of the int8 GEMM's elements (grtc_cpu_epilogue_fn_t): its
// accumulator starts at 0 (grtc_cpu_igemm_supported).
static void grtc_cpu_igemm_epilogue(void* user, uint32_t depth, const char* value) {
  grtc_cpu_emitter_t* e = user;
  grtc_cpu_set_depth(e, depth);
  grtc_cpu_emit_section(e, GRTC_KSECTION_PRE);
  grt_string_builder_appendf(e->out, "%sconst %s acc0 = %s;\n", e->indent,
                             e->kernel->accs[0].type == GRTC_ELEM_F32 ? "float" : "int32_t",
                             value);
  grtc_cpu_emit_section(e, GRTC_KSECTION_POST);
  grtc_cpu_emit_stores(e);
}

// The int8 GEMM's MATMUL kernels, or with |conv| its CONV2D ones, or with
// |w4| the int4-weight GEMM's MATMUL kernels.
static void grtc_cpu_emit_igemm_kernel(grtc_cpu_emitter_t* e, bool conv, bool w4) {
  grtc_cpu_emit_binding_pointers(e);
  grtc_cpu_emit_tile_bounds(e);
  if (w4) {
    grtc_cpu_emit_w4gemm_loops(e->kernel, e->out, grtc_cpu_igemm_epilogue, e);
  } else if (conv) {
    grtc_cpu_emit_iconv_loops(e->kernel, e->out, grtc_cpu_igemm_epilogue, e);
  } else {
    grtc_cpu_emit_igemm_loops(e->kernel, e->out, grtc_cpu_igemm_epilogue, e);
  }
  grt_string_builder_append_cstring(e->out, "  return 0;\n}\n\n");
}

// Blocking of a CONV2D kernel on the GEMM path: per batch point and group,
// up to |rows| output pixels of the tile are gathered (im2col, zeros for
// padding) into rows of K = kh * kw * c/groups, which the GEMM multiplies
// by the filter viewed as K x (oc/groups) through a table of the filter's
// (kh, kw, ci) row offsets; |cols| output channels per GEMM call.
#define GRTC_CPU_CONV_COL_FLOATS 65536  // im2col block: 256 KiB
// Output pixels per block on the planar path: the B panels of one K slice
// (GRTC_CPU_GEMM_KC x this) stay in L2. A tile of up to
// GRTC_CPU_CONV_PIXEL_BLOCK_MAX pixels is one block: the dispatch's tiles
// of at least 256 pixels in whole rows (5 rows of 56, 10 of 28) would
// otherwise leave a block of one row, which streams the whole filter again
// for a few dozen pixels (and pads them to a panel).
#define GRTC_CPU_CONV_PIXEL_BLOCK 256
#define GRTC_CPU_CONV_PIXEL_BLOCK_MAX 384
typedef struct grtc_cpu_conv_geometry_t {
  int64_t cig, ocg, k;         // input/output channels per group, K
  int64_t rows, cols, ldc, rows_padded;
  int64_t tile_oc;
  uint64_t scratch_bytes;
} grtc_cpu_conv_geometry_t;

static int64_t grtc_cpu_min64(int64_t a, int64_t b) { return a < b ? a : b; }

// The depthwise kernel's output rows per chunk: a tile's rows (whole
// planes, the lowering's depthwise tiles) run in equal chunks whose block
// of padded input rows stays within GRTC_CPU_DEPTHWISE_CHUNK_BYTES, so the
// block, read back by every tap row, stays in L1 (a whole 112x112 plane's
// block is 51 KB), while each channel's plane is still read front to back.
#define GRTC_CPU_DEPTHWISE_CHUNK_BYTES (16 * 1024)
static int64_t grtc_cpu_depthwise_chunk_rows(const grtc_kernel_t* kernel,
                                             int64_t cols) {
  const grtc_kconv_t* cv = &kernel->conv;
  int64_t tile_rows = grtc_cpu_min64(kernel->tile[1], cv->oh);
  if (tile_rows < 1) tile_rows = 1;
  int64_t span = (cv->kh - 1) * cv->dilation_h + 1;
  int64_t fit = GRTC_CPU_DEPTHWISE_CHUNK_BYTES / (int64_t)sizeof(float) /
                (cols > 0 ? cols : 1);
  int64_t rows = fit > span ? (fit - span) / cv->stride_h + 1 : 1;
  // As even as that allows: 56 rows in 4 chunks of 14, not 3 x 17 + 5.
  int64_t chunks = (tile_rows + rows - 1) / rows;
  return (tile_rows + chunks - 1) / chunks;
}

static grtc_cpu_conv_geometry_t grtc_cpu_conv_geometry(
    const grtc_kernel_t* kernel, grtc_cpu_path_t path) {
  const grtc_kconv_t* cv = &kernel->conv;
  grtc_cpu_conv_geometry_t g;
  g.cig = cv->c / cv->groups;
  g.ocg = cv->oc / cv->groups;
  g.k = cv->kh * cv->kw * g.cig;
  // A run-time split's tile is at most every channel.
  g.tile_oc = kernel->split_max > 0 ? cv->oc
                                    : grtc_cpu_min64(kernel->tile[3], cv->oc);
  if (g.tile_oc < 1) g.tile_oc = 1;
  if (path == GRTC_CPU_PATH_CONV_DIRECT) {
    g.rows = g.cols = g.ldc = g.rows_padded = 0;
    g.scratch_bytes = (uint64_t)g.tile_oc * sizeof(float);
    return g;
  }
  if (path == GRTC_CPU_PATH_CONV_DEPTHWISE) {
    // Per output channel, the input rows the tile's taps read, copied
    // once into one block of zero-padded rows of |cols| floats (zero rows
    // above and below the input), every tap of one output row reading
    // inside its KH rows; the sums are computed at every input position of
    // the row (|rows| of them, (ow - 1) * stride_w + 1, in whole vectors:
    // |rows_padded|), so the taps read consecutive floats whatever the
    // stride. With stride_h 1 the tile's rows are one run of the block
    // ((tile rows - 1) * cols + rows sums, the positions between rows
    // computed and dropped), so a row of a few pixels does not cost a
    // vector of its own. Scratch: the block, 16 floats of slack (a
    // vector's overrun), the sums and 16 more, then the tile's output
    // rows, compacted, when the epilogue runs along them as one loop
    // (grtc_cpu_conv_rows_collapse).
    g.ldc = 0;
    g.cols = (cv->ow - 1) * cv->stride_w + (cv->kw - 1) * cv->dilation_w + 1;
    g.rows = (cv->ow - 1) * cv->stride_w + 1;
    g.rows_padded = (g.rows + 15) / 16 * 16;
    int64_t tile_rows = grtc_cpu_depthwise_chunk_rows(kernel, g.cols);
    int64_t block_rows =
        (tile_rows - 1) * cv->stride_h + (cv->kh - 1) * cv->dilation_h + 1;
    int64_t sums = cv->stride_h == 1
                       ? (tile_rows - 1) * g.cols + g.rows_padded
                       : tile_rows * g.rows_padded;
    g.scratch_bytes = (uint64_t)(block_rows * g.cols + 16 + sums + 16 +
                                 tile_rows * cv->ow) *
                      sizeof(float);
    return g;
  }
  if (path == GRTC_CPU_PATH_CONV_STEM) {
    // rows: output rows per chunk; rows_padded: the input rows a chunk
    // reads; cols: one column phase of an input row (zero-padded), wide
    // enough for the taps of every step of |nv| vectors along
    // an output row (OW rounded up to 2 x 16) at its largest offset; ldc:
    // one output channel's chunk of sums, with a step's overrun. Scratch: the tile's filter in blocks
    // of |ocb| channels (tap-major, zeros past the tile), the
    // chunk's phase rows (input channel, row, phase), the sums of one
    // block. A chunk's phase rows are kept within about 48 KB.
    int ocb, nv;
    grtc_cpu_stem_block(kernel, &ocb, &nv);
    int64_t tile_rows = grtc_cpu_min64(kernel->tile[1], cv->oh);
    if (tile_rows < 1) tile_rows = 1;
    g.cols = (cv->ow + 16 * nv - 1) / (16 * nv) *
                 (16 * nv) +
             (cv->kw - 1) * cv->dilation_w / cv->stride_w + 1;
    int64_t row_bytes = g.cig * cv->stride_w * g.cols * (int64_t)sizeof(float);
    int64_t span = (cv->kh - 1) * cv->dilation_h + 1;
    g.rows = ((48 * 1024) / row_bytes - span) / cv->stride_h + 1;
    if (g.rows < 1) g.rows = 1;
    if (g.rows > tile_rows) g.rows = tile_rows;
    g.rows_padded = (g.rows - 1) * cv->stride_h + span;
    g.ldc = g.rows * cv->ow + 16 * nv;
    int64_t blocks = (g.tile_oc + ocb - 1) / ocb;
    g.scratch_bytes =
        (uint64_t)(blocks * g.k * ocb +
                   g.cig * g.rows_padded * cv->stride_w * g.cols +
                   ocb * g.ldc) *
        sizeof(float);
    return g;
  }
  if (path == GRTC_CPU_PATH_CONV_PIXELS) {
    // rows: output rows per pixel block; ldc: its pixels padded to 32;
    // rows_padded: the output channels of one group in the tile, padded
    // to 6. Scratch: the K offset table, then the B panels, the A block,
    // the C block and one im2col row.
    int64_t tile_rows = grtc_cpu_min64(kernel->tile[1], cv->oh);
    g.rows = tile_rows * cv->ow <= GRTC_CPU_CONV_PIXEL_BLOCK_MAX
                 ? tile_rows
                 : grtc_cpu_min64(tile_rows,
                                  GRTC_CPU_CONV_PIXEL_BLOCK / cv->ow < 1
                                      ? 1
                                      : GRTC_CPU_CONV_PIXEL_BLOCK / cv->ow);
    g.ldc = (g.rows * cv->ow + 31) / 32 * 32;
    g.cols = grtc_cpu_min64(g.tile_oc, g.ocg);
    // A packed filter computes from the 6-row panel holding the tile's
    // first channel to the end of its last one's: up to 10 rows more.
    g.rows_padded = kernel->conv.filter_packed ? (g.cols + 10 + 5) / 6 * 6
                                               : (g.cols + 5) / 6 * 6;
    g.scratch_bytes =
        (uint64_t)g.k * sizeof(int64_t) +
        (uint64_t)((GRTC_CPU_GEMM_KC + 1) * g.ldc +
                   GRTC_CPU_GEMM_MC * GRTC_CPU_GEMM_KC +
                   g.rows_padded * g.ldc + g.ldc) *
            sizeof(float);
    return g;
  }
  int64_t tile_pixels = grtc_cpu_min64(kernel->tile[1], cv->oh) *
                        grtc_cpu_min64(kernel->tile[2], cv->ow);
  g.rows = GRTC_CPU_CONV_COL_FLOATS / g.k;
  g.rows = g.rows < 6 ? 6 : g.rows > GRTC_CPU_GEMM_ROWS ? GRTC_CPU_GEMM_ROWS
                                                         : g.rows;
  g.rows = grtc_cpu_min64(g.rows, tile_pixels < 1 ? 1 : tile_pixels);
  g.cols = grtc_cpu_min64(grtc_cpu_min64(g.tile_oc, g.ocg), GRTC_CPU_GEMM_COLS);
  if (g.cols < 1) g.cols = 1;
  g.ldc = (g.cols + 31) / 32 * 32;
  g.rows_padded = (g.rows + 5) / 6 * 6;
  g.scratch_bytes =
      (uint64_t)g.k * sizeof(int64_t) +
      (uint64_t)((GRTC_CPU_GEMM_KC + 1) * g.ldc + GRTC_CPU_GEMM_MC * GRTC_CPU_GEMM_KC +
                 g.rows_padded * g.ldc + g.rows * g.k) *
          sizeof(float);
  return g;
}

// The input element of channel expression |channel| at (p0, iy, ix) is
// IN[p0 * s0 + iy * s1 + ix * s2 + channel * s3]; the conv paths below
// build these from the kernel's constants and run the epilogue per output
// element with ACC(0) the convolution's value.
static void grtc_cpu_emit_conv_kernel(grtc_cpu_emitter_t* e,
                                      grtc_cpu_path_t path) {
  const grtc_kernel_t* kernel = e->kernel;
  const grtc_kconv_t* cv = &kernel->conv;
  grt_string_builder_t* o = e->out;
  grtc_cpu_conv_geometry_t g = grtc_cpu_conv_geometry(kernel, path);
  const int64_t* is = cv->input_strides;
  const int64_t* fs = cv->filter_strides;
  grtc_cpu_emit_pattern_prologue(e);
  if (path == GRTC_CPU_PATH_CONV_DIRECT) {
    // Input channel ci of output channel p3's group: (p3 / ocg) * cig + ci,
    // spelled so the common cases need no division (one group: ci, one
    // loop-invariant value; depthwise: p3 / ocg, or p3).
    char channel[64];
    if (cv->groups == 1) {
      snprintf(channel, sizeof(channel), "ci");
    } else if (g.cig == 1) {
      if (g.ocg == 1) {
        snprintf(channel, sizeof(channel), "p3");
      } else {
        snprintf(channel, sizeof(channel), "(p3 / %" PRId64 ")", g.ocg);
      }
    } else {
      snprintf(channel, sizeof(channel),
               "((p3 / %" PRId64 ") * %" PRId64 " + ci)", g.ocg, g.cig);
    }
    grt_string_builder_appendf(
        o,
        "  float* row = (float*)wg->local_memory;\n"
        "  for (int64_t p0 = lo0; p0 < hi0; ++p0) {\n"
        "    for (int64_t p1 = lo1; p1 < hi1; ++p1) {\n"
        "      for (int64_t p2 = lo2; p2 < hi2; ++p2) {\n"
        "        for (int64_t p3 = lo3; p3 < hi3; ++p3) row[p3 - lo3] = 0.0f;\n"
        "        for (int64_t i = 0; i < %" PRId64 "; ++i) {\n"
        "          const int64_t iy = p1 * %" PRId64 " - %" PRId64 " + i * %" PRId64 ";\n"
        "          if (iy < 0 || iy >= %" PRId64 ") continue;\n"
        "          for (int64_t j = 0; j < %" PRId64 "; ++j) {\n"
        "            const int64_t ix = p2 * %" PRId64 " - %" PRId64 " + j * %" PRId64 ";\n"
        "            if (ix < 0 || ix >= %" PRId64 ") continue;\n"
        "            const float* s = b%u + p0 * %" PRId64 " + iy * %" PRId64
        " + ix * %" PRId64 ";\n"
        "            for (int64_t ci = 0; ci < %" PRId64 "; ++ci) {\n"
        "              const float* f = b%u + i * %" PRId64 " + j * %" PRId64
        " + ci * %" PRId64 ";\n"
        "              GRT_IVDEP\n"
        "              for (int64_t p3 = lo3; p3 < hi3; ++p3) {\n"
        "                row[p3 - lo3] += s[%s * %" PRId64 "] * f[p3 * %" PRId64 "];\n"
        "              }\n"
        "            }\n"
        "          }\n"
        "        }\n"
        "        GRT_IVDEP\n"
        "        for (int64_t p3 = lo3; p3 < hi3; ++p3) {\n",
        cv->kh, cv->stride_h, cv->pad_h, cv->dilation_h, cv->h, cv->kw,
        cv->stride_w, cv->pad_w, cv->dilation_w, cv->w, cv->input_binding,
        is[0], is[1], is[2], g.cig, cv->filter_binding, fs[0], fs[1], fs[2],
        channel, is[3], fs[3]);
    grtc_cpu_set_depth(e, 5);
    grtc_cpu_emit_pattern_epilogue(e, "row[p3 - lo3]");
    grt_string_builder_append_cstring(
        o, "        }\n      }\n    }\n  }\n  return 0;\n}\n\n");
    return;
  }
  grt_string_builder_appendf(
      o,
      "  int64_t* koff = (int64_t*)wg->local_memory;\n"
      "  float* bp = (float*)(koff + %" PRId64 ");\n"
      "  float* ap = bp + (%d + 1) * %" PRId64 ";\n"
      "  float* cb = ap + %d * %d;\n"
      "  float* col = cb + %" PRId64 " * %" PRId64 ";\n"
      "  for (int64_t i = 0; i < %" PRId64 "; ++i)\n"
      "    for (int64_t j = 0; j < %" PRId64 "; ++j)\n"
      "      for (int64_t ci = 0; ci < %" PRId64 "; ++ci)\n"
      "        koff[(i * %" PRId64 " + j) * %" PRId64 " + ci] = i * %" PRId64
      " + j * %" PRId64 " + ci * %" PRId64 ";\n"
      "  const int64_t tw = hi2 - lo2, pixels = (hi1 - lo1) * tw;\n"
      "  for (int64_t p0 = lo0; p0 < hi0; ++p0) {\n"
      "    for (int64_t g = lo3 / %" PRId64 "; g * %" PRId64 " < hi3; ++g) {\n"
      "      const int64_t oc_lo = g * %" PRId64 " > lo3 ? g * %" PRId64 " : lo3;\n"
      "      const int64_t oc_hi = (g + 1) * %" PRId64 " < hi3 ? (g + 1) * %" PRId64
      " : hi3;\n"
      "      const float* src = b%u + p0 * %" PRId64 " + g * %" PRId64 ";\n"
      "      for (int64_t q0 = 0; q0 < pixels; q0 += %" PRId64 ") {\n"
      "        const int64_t mr = pixels - q0 < %" PRId64 " ? pixels - q0 : %" PRId64
      ";\n"
      "        for (int64_t r = 0; r < mr; ++r) {\n"
      "          const int64_t oy = lo1 + (q0 + r) / tw, ox = lo2 + (q0 + r) %% tw;\n"
      "          for (int64_t i = 0; i < %" PRId64 "; ++i) {\n"
      "            const int64_t iy = oy * %" PRId64 " - %" PRId64 " + i * %" PRId64 ";\n"
      "            for (int64_t j = 0; j < %" PRId64 "; ++j) {\n"
      "              const int64_t ix = ox * %" PRId64 " - %" PRId64 " + j * %" PRId64 ";\n"
      "              float* dst = col + r * %" PRId64 " + (i * %" PRId64 " + j) * %" PRId64 ";\n"
      "              if (iy < 0 || iy >= %" PRId64 " || ix < 0 || ix >= %" PRId64 ") {\n"
      "                memset(dst, 0, %" PRId64 " * sizeof(float));\n"
      "                continue;\n"
      "              }\n"
      "              const float* s = src + iy * %" PRId64 " + ix * %" PRId64 ";\n"
      "              for (int64_t ci = 0; ci < %" PRId64 "; ++ci) dst[ci] = s[ci * %" PRId64 "];\n"
      "            }\n"
      "          }\n"
      "        }\n"
      "        for (int64_t n0 = oc_lo; n0 < oc_hi; n0 += %" PRId64 ") {\n"
      "          const int64_t nr = oc_hi - n0 < %" PRId64 " ? oc_hi - n0 : %" PRId64 ";\n"
      "          grt_gemm_block(col, %" PRId64 ", 1, b%u + n0 * %" PRId64 ", koff, 0, %" PRId64
      ", mr, nr, %" PRId64 ", bp, ap, cb, %" PRId64 ");\n"
      "          for (int64_t r = 0; r < mr; ++r) {\n"
      "            const int64_t p1 = lo1 + (q0 + r) / tw, p2 = lo2 + (q0 + r) %% tw;\n"
      "            const float* crow = cb + r * %" PRId64 " - n0;\n"
      "            (void)p1; (void)p2;\n"
      "            GRT_IVDEP\n"
      "            for (int64_t p3 = n0; p3 < n0 + nr; ++p3) {\n",
      g.k, GRTC_CPU_GEMM_KC, g.ldc, GRTC_CPU_GEMM_MC, GRTC_CPU_GEMM_KC,
      g.rows_padded, g.ldc,
      cv->kh, cv->kw, g.cig, cv->kw, g.cig, fs[0], fs[1], fs[2],
      g.ocg, g.ocg, g.ocg, g.ocg, g.ocg, g.ocg,
      cv->input_binding, is[0], g.cig * is[3],
      g.rows, g.rows, g.rows,
      cv->kh, cv->stride_h, cv->pad_h, cv->dilation_h,
      cv->kw, cv->stride_w, cv->pad_w, cv->dilation_w,
      g.k, cv->kw, g.cig, cv->h, cv->w, g.cig, is[1], is[2], g.cig, is[3],
      g.cols, g.cols, g.cols,
      g.k, cv->filter_binding, fs[3], fs[3], g.k, g.ldc, g.ldc);
  grtc_cpu_set_depth(e, 7);
  grtc_cpu_emit_pattern_epilogue(e, "crow[p3]");
  grt_string_builder_append_cstring(
      o,
      "            }\n          }\n        }\n      }\n    }\n  }\n"
      "  return 0;\n}\n\n");
}

// Whether the planar path's epilogue (and the depthwise kernel's, along
// the tile's rows) may run along a block's pixels as
// one loop: p1 fixed at the block's first row y0 and p2 the pixel's offset
// q from it, up to rows x OW (a row of 7 or 14 pixels left the vectorizer
// mostly scalar remainders). That computes what (y0 + q / OW, q % OW)
// would when every use of p1 or p2 in the epilogue (PRE and POST values
// and the stores) is through an i64 value affine in them, a * p1 + b * p2
// + (anything free of p1 and p2), with constant a == OW * b: the row-major
// index of an NCHW value of the output's shape, a per-channel value's
// index (a = b = 0). A value used otherwise (compared, divided, converted,
// a broadcast along rows or columns) keeps the row loops.
typedef struct grtc_cpu_rows_form_t {
  bool depends;  // on p1 or p2
  bool affine;   // a * p1 + b * p2 + (free of them), a and b constants
  bool constant;
  int64_t a, b, value;
} grtc_cpu_rows_form_t;

static bool grtc_cpu_conv_rows_collapse(const grtc_cpu_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  if (grtc_c_family_bounds_checked(kernel) || kernel->parallel_rank != 4) {
    return false;
  }
  const int64_t ow = kernel->conv.ow;
  grtc_cpu_rows_form_t* forms = calloc(kernel->inst_count + 1, sizeof(*forms));
  if (!forms) return false;
#define GRTC_CPU_ROWS_GOOD(f) \
  (!(f)->depends || ((f)->affine && (f)->a == ow * (f)->b))
  bool ok = true;
  for (uint32_t i = 0; i < kernel->inst_count && ok; ++i) {
    const grtc_kinst_t* inst = &kernel->insts[i];
    grtc_cpu_rows_form_t* f = &forms[i];
    if (inst->section == GRTC_KSECTION_LOOP) {
      // Not emitted by the epilogue; a PRE/POST use of one is refused.
      f->depends = true;
      continue;
    }
    if (e->live && !e->live[i]) continue;
    if (inst->kind == GRTC_KINST_PINDEX) {
      f->depends = inst->dim == 1 || inst->dim == 2;
      f->affine = true;
      f->a = inst->dim == 1;
      f->b = inst->dim == 2;
    } else if (inst->kind == GRTC_KINST_CONST && inst->type == GRTC_ELEM_I64) {
      f->affine = f->constant = true;
      f->value = inst->value.i;
    } else if (inst->kind == GRTC_KINST_OP && inst->type == GRTC_ELEM_I64 &&
               inst->operand_count == 2 &&
               (inst->op == GRTC_SCALAR_ADD || inst->op == GRTC_SCALAR_SUB ||
                inst->op == GRTC_SCALAR_MUL)) {
      const grtc_cpu_rows_form_t* x = &forms[inst->operands[0]];
      const grtc_cpu_rows_form_t* y = &forms[inst->operands[1]];
      f->depends = x->depends || y->depends;
      f->constant = x->constant && y->constant;
      if (inst->op == GRTC_SCALAR_MUL) {
        f->affine = (!x->depends || y->constant) &&
                    (!y->depends || x->constant) && x->affine && y->affine;
        f->a = x->a * (y->constant ? y->value : 0) +
               y->a * (x->constant ? x->value : 0);
        f->b = x->b * (y->constant ? y->value : 0) +
               y->b * (x->constant ? x->value : 0);
        f->value = x->value * y->value;
      } else {
        int64_t sign = inst->op == GRTC_SCALAR_SUB ? -1 : 1;
        f->affine = x->affine && y->affine;
        f->a = x->a + sign * y->a;
        f->b = x->b + sign * y->b;
        f->value = x->value + sign * y->value;
      }
      // Free of p1 and p2, anything is affine (the rest of the index).
      if (!f->depends) f->affine = true;
    } else {
      // Any other use reads the value itself: it must be what (p1, p2)
      // gives. Its result is then right too.
      for (uint32_t k = 0; k < inst->operand_count && ok; ++k) {
        ok = GRTC_CPU_ROWS_GOOD(&forms[inst->operands[k]]);
      }
    }
  }
  for (uint32_t s = 0; s < kernel->store_count && ok; ++s) {
    const grtc_kstore_t* store = &kernel->stores[s];
    ok = GRTC_CPU_ROWS_GOOD(&forms[store->index]) &&
         GRTC_CPU_ROWS_GOOD(&forms[store->value]) &&
         (store->predicate == GRTC_KINST_NONE ||
          GRTC_CPU_ROWS_GOOD(&forms[store->predicate]));
  }
#undef GRTC_CPU_ROWS_GOOD
  free(forms);
  return ok;
}

// The planar path: per image and group, blocks of whole output rows; per
// block C[oc x pixels] = filter[oc x K] * im2col[K x pixels], K slice by K
// slice: the slice's im2col rows are built one at a time into a row of the
// block's pixels (zeros for padding; runs of valid input copied with the
// kernel's constant strides) and split into the GEMM's GRT_NR-column B panels,
// so no full im2col buffer exists; the filter rows are packed into 6-row A
// panels through the K offset table. K is ordered (ci, i, j), so
// consecutive im2col rows read the same input plane. The epilogue then runs
// per output channel along the pixels, which are contiguous in an NCHW
// result.
static void grtc_cpu_emit_conv_pixels_kernel(grtc_cpu_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  const grtc_kconv_t* cv = &kernel->conv;
  grt_string_builder_t* o = e->out;
  grtc_cpu_conv_geometry_t g =
      grtc_cpu_conv_geometry(kernel, GRTC_CPU_PATH_CONV_PIXELS);
  const int64_t* is = cv->input_strides;
  const int64_t* fs = cv->filter_strides;
  // Pixels y * W + x of an input plane are contiguous, and the output's.
  bool direct = cv->kh == 1 && cv->kw == 1 && cv->stride_h == 1 &&
                cv->stride_w == 1 && cv->pad_h == 0 && cv->pad_w == 0 &&
                cv->h == cv->oh && cv->w == cv->ow && is[1] == cv->w;
  // The epilogue as one loop along the block's pixels (ROWS1).
  bool rows1 = grtc_cpu_conv_rows_collapse(e);
  grtc_cpu_emit_pattern_prologue(e);
  grt_string_builder_appendf(
      o,
      "  const int64_t H = %" PRId64 ", W = %" PRId64 ", OW = %" PRId64
      ", KH = %" PRId64 ", KW = %" PRId64 ", CIG = %" PRId64 ", OCG = %" PRId64
      ", K = %" PRId64 ";\n"
      "  const int64_t SH = %" PRId64 ", SW = %" PRId64 ", PH = %" PRId64
      ", PW = %" PRId64 ", DH = %" PRId64 ", DW = %" PRId64 ";\n"
      "  const int64_t S0 = %" PRId64 ", S1 = %" PRId64 ", S3 = %" PRId64
      ", F0 = %" PRId64 ", F1 = %" PRId64 ", F2 = %" PRId64 ", F3 = %" PRId64
      ";\n"
      "  const int64_t RB = %" PRId64 ", LDC = %" PRId64 ";\n"
      "  enum { PACKED = %d, DIRECT = %d, ROWS1 = %d };\n"
      "  const int64_t OCP = %" PRId64 ";\n"
      "  (void)OCP;\n"
      "  int64_t* koff = (int64_t*)wg->local_memory;\n"
      "  float* bp = (float*)(koff + K);\n"
      "  float* ap = bp + (GRT_KC + 1) * LDC;\n"
      "  float* cb = ap + GRT_MC * GRT_KC;\n"
      "  float* rowbuf = cb + %" PRId64 " * LDC;\n"
      "  for (int64_t ci = 0; ci < CIG; ++ci)\n"
      "    for (int64_t i = 0; i < KH; ++i)\n"
      "      for (int64_t j = 0; j < KW; ++j)\n"
      "        koff[(ci * KH + i) * KW + j] = i * F0 + j * F1 + ci * F2;\n"
      "  for (int64_t p0 = lo0; p0 < hi0; ++p0) {\n"
      "    for (int64_t g = lo3 / OCG; g * OCG < hi3; ++g) {\n"
      "      const int64_t oc_lo = g * OCG > lo3 ? g * OCG : lo3;\n"
      "      const int64_t oc_hi = (g + 1) * OCG < hi3 ? (g + 1) * OCG : hi3;\n"
      // A packed filter's panels start at the group's multiples of 6:
      // rows from the panel holding oc_lo (al) to the end of oc_hi's.
      "      const int64_t al = PACKED ? (oc_lo - g * OCG) / 6 * 6 : 0;\n"
      "      const int64_t rbase = PACKED ? g * OCG + al : oc_lo;\n"
      "      const int64_t mo = PACKED ? (oc_hi - g * OCG + 5) / 6 * 6 - al : oc_hi - oc_lo;\n"
      "      const float* X = b%u + p0 * S0 + g * CIG * S3;\n"
      "      const float* F = PACKED ? b%u + g * K * OCP : b%u + oc_lo * F3;\n"
      "      for (int64_t y0 = lo1; y0 < hi1; y0 += RB) {\n"
      "        const int64_t yr = hi1 - y0 < RB ? hi1 - y0 : RB;\n"
      "        const int64_t np = yr * OW, npp = (np + GRT_NR - 1) / GRT_NR * GRT_NR;\n"
      "        for (int64_t q = np; q < npp; ++q) rowbuf[q] = 0.0f;\n"
      "        for (int64_t k0 = 0; k0 < K; k0 += GRT_KC) {\n"
      "          const int64_t kc = K - k0 < GRT_KC ? K - k0 : GRT_KC;\n"
      "          for (int64_t kk = 0; kk < kc; ++kk) {\n"
      // A 1x1 stride-1 unpadded filter over contiguous input rows: im2col
      // row k is plane k's pixels of the block as they are, copied
      // straight into the panels.
      "            if (DIRECT) {\n"
      "              const float* srow = X + (k0 + kk) * S3 + y0 * S1;\n"
      "              float* panel = bp + kk * GRT_NR;\n"
      "              int64_t q = 0;\n"
      "              for (; q + GRT_NR <= np; q += GRT_NR) {\n"
      "                memcpy(panel + q * (kc + 1), srow + q, GRT_NR * sizeof(float));\n"
      "              }\n"
      "              for (int64_t c = 0; q < npp && c < GRT_NR; ++c) {\n"
      "                panel[q * (kc + 1) + c] = q + c < np ? srow[q + c] : 0.0f;\n"
      "              }\n"
      "              continue;\n"
      "            }\n"
      "            const int64_t k = k0 + kk, ci = k / (KH * KW), r = k %% (KH * KW);\n"
      "            const int64_t i = r / KW, j = r %% KW;\n"
      "            const int64_t xt = PW - j * DW, xu = W + PW - j * DW;\n"
      "            int64_t xlo = xt <= 0 ? 0 : (xt + SW - 1) / SW;\n"
      "            int64_t xhi = xu <= 0 ? 0 : (xu + SW - 1) / SW;\n"
      "            if (xlo > OW) xlo = OW;\n"
      "            if (xhi > OW) xhi = OW;\n"
      "            if (xhi < xlo) xhi = xlo;\n"
      "            const float* plane = X + ci * S3;\n"
      "            for (int64_t yy = 0; yy < yr; ++yy) {\n"
      "              const int64_t iy = (y0 + yy) * SH - PH + i * DH;\n"
      "              float* dst = rowbuf + yy * OW;\n"
      "              if (iy < 0 || iy >= H) {\n"
      "                memset(dst, 0, (size_t)OW * sizeof(float));\n"
      "                continue;\n"
      "              }\n"
      "              const int64_t base = iy * S1 + j * DW - PW;\n"
      "              for (int64_t x = 0; x < xlo; ++x) dst[x] = 0.0f;\n"
      "              GRT_IVDEP\n"
      "              for (int64_t x = xlo; x < xhi; ++x) dst[x] = plane[base + x * SW];\n"
      "              for (int64_t x = xhi; x < OW; ++x) dst[x] = 0.0f;\n"
      "            }\n"
      "            float* panel = bp + kk * GRT_NR;\n"
      "            for (int64_t q = 0; q < npp; q += GRT_NR) {\n"
      "              memcpy(panel + q * (kc + 1), rowbuf + q, GRT_NR * sizeof(float));\n"
      "            }\n"
      "          }\n"
      "          for (int64_t m0 = 0; m0 < mo; m0 += GRT_MC) {\n"
      "            const int64_t mc = mo - m0 < GRT_MC ? mo - m0 : GRT_MC;\n"
      "            if (PACKED) {\n"
      "              grt_gemm_panels(mc, np, kc, F + k0 * OCP + (al + m0) * kc, bp, cb + m0 * LDC, LDC, k0 == 0);\n"
      "            } else {\n"
      "              grt_gemm_pack_a_koff(F + m0 * F3, F3, koff, mc, k0, kc, ap);\n"
      "              grt_gemm_panels((mc + 5) / 6 * 6, np, kc, ap, bp, cb + m0 * LDC, LDC, k0 == 0);\n"
      "            }\n"
      // After the last K slice a block's rows are final: its epilogue runs
      // at once, while the block's C rows are still in cache (after the
      // whole GEMM, a C block of 256 channels x 384 pixels had left L2).
      "            if (k0 + kc < K) continue;\n"
      "            const int64_t e_lo = rbase + m0 > oc_lo ? rbase + m0 : oc_lo;\n"
      "            const int64_t e_hi = rbase + m0 + mc < oc_hi ? rbase + m0 + mc : oc_hi;\n"
      "            for (int64_t p3 = e_lo; p3 < e_hi; ++p3) {\n",
      cv->h, cv->w, cv->ow, cv->kh, cv->kw, g.cig, g.ocg, g.k, cv->stride_h,
      cv->stride_w, cv->pad_h, cv->pad_w, cv->dilation_h, cv->dilation_w,
      is[0], is[1], is[3], fs[0], fs[1], fs[2], fs[3], g.rows, g.ldc,
      cv->filter_packed ? 1 : 0, direct ? 1 : 0, rows1 ? 1 : 0,
      (g.ocg + 5) / 6 * 6,
      g.rows_padded,
      cv->input_binding, cv->filter_binding, cv->filter_binding);
  grtc_cpu_set_depth(e, 7);
  bool* hoisted = grtc_cpu_emit_channel_values(e);
  grt_string_builder_append_cstring(
      o,
      "              for (int64_t p1 = y0; p1 < (ROWS1 ? y0 + 1 : y0 + yr); ++p1) {\n"
      "                const float* crow = cb + (p3 - rbase) * LDC + (p1 - y0) * OW;\n"
      "                GRT_IVDEP\n"
      "                for (int64_t p2 = lo2; p2 < (ROWS1 ? yr * OW : hi2); ++p2) {\n");
  grtc_cpu_set_depth(e, 9);
  grtc_cpu_emit_pattern_epilogue(e, "crow[p2]");
  e->hoisted = NULL;
  free(hoisted);
  grt_string_builder_append_cstring(
      o,
      "                }\n              }\n            }\n          }\n        }\n"
      "      }\n    }\n  }\n"
      "  return 0;\n}\n\n");
}

#define GRTC_CPU_DEPTHWISE_UNROLLED_TAPS 49
#define GRTC_CPU_DEPTHWISE_ONE_CHAIN_TAPS 9
// Depthwise convolutions (one input channel per group) on planar inputs:
// per output channel, the input rows the tile's output rows read are
// copied once into a block of zero-padded rows (zero rows above and below
// the input), so the taps need no bounds checks; the sums are computed a
// vector at a time at every input position of an output row (stride 2
// computes twice the sums it keeps, but every load is contiguous), with
// stride_h 1 along all the tile's rows at once (grtc_cpu_conv_geometry),
// and the epilogue runs along the output rows (contiguous pixels in an
// NCHW result), reading every stride_w-th sum.
static void grtc_cpu_emit_conv_depthwise_kernel(grtc_cpu_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  const grtc_kconv_t* cv = &kernel->conv;
  grt_string_builder_t* o = e->out;
  grtc_cpu_conv_geometry_t g =
      grtc_cpu_conv_geometry(kernel, GRTC_CPU_PATH_CONV_DEPTHWISE);
  const int64_t* is = cv->input_strides;
  const int64_t* fs = cv->filter_strides;
  // The tile's rows run in chunks of CR (grtc_cpu_depthwise_chunk_rows);
  // inside a chunk's loop CL1 and CH1 are the chunk's rows.
  int64_t tile_rows = grtc_cpu_depthwise_chunk_rows(kernel, g.cols);
  int64_t block_rows =
      (tile_rows - 1) * cv->stride_h + (cv->kh - 1) * cv->dilation_h + 1;
  // Sums of output row p1 start at sums + (p1 - lo1) * SROW.
  int64_t srow = cv->stride_h == 1 ? g.cols : g.rows_padded;
  int64_t sums_size = cv->stride_h == 1
                          ? (tile_rows - 1) * g.cols + g.rows_padded
                          : tile_rows * g.rows_padded;
  // ROWS1: each output row's sums (every SW-th) are compacted and the
  // epilogue runs once along the tile's rows x OW pixels.
  bool rows1 = grtc_cpu_conv_rows_collapse(e);
  grtc_cpu_emit_pattern_prologue(e);
  grt_string_builder_appendf(
      o,
      "  enum { KH = %" PRId64 ", KW = %" PRId64 ", ROWS1 = %d };\n"
      "  const int64_t OW = %" PRId64 ", CR = %" PRId64 ";\n"
      "  const int64_t H = %" PRId64 ", W = %" PRId64 ", OCG = %" PRId64
      ", PWID = %" PRId64 ", ROWW = %" PRId64 ", SROW = %" PRId64 ";\n"
      "  const int64_t SH = %" PRId64 ", SW = %" PRId64 ", PH = %" PRId64
      ", PW = %" PRId64 ", DH = %" PRId64 ", DW = %" PRId64 ";\n"
      "  const int64_t S0 = %" PRId64 ", S1 = %" PRId64 ", S3 = %" PRId64
      ", F0 = %" PRId64 ", F1 = %" PRId64 ", F3 = %" PRId64 ";\n"
      "  float* pad = (float*)wg->local_memory;\n"
      "  float* sums = pad + %" PRId64 " * PWID + 16;\n"
      "  float* outr = sums + %" PRId64 " + 16;\n"
      "  (void)outr; (void)OW;\n"
      "  const int64_t xr = W < PWID - PW ? W : PWID - PW;\n"
      "  (void)DW;\n"
      "  for (int64_t p0 = lo0; p0 < hi0; ++p0) {\n"
      "    for (int64_t p3 = lo3; p3 < hi3; ++p3) {\n"
      "      const float* plane = b%u + p0 * S0 + (p3 / OCG) * S3;\n"
      "      float wt[KH][KW];\n"
      "      for (int64_t i = 0; i < KH; ++i)\n"
      "        for (int64_t j = 0; j < KW; ++j) wt[i][j] = b%u[i * F0 + j * F1 + p3 * F3];\n"
      "      for (int64_t c1 = lo1; c1 < hi1; c1 += CR) {\n"
      "      const int64_t CL1 = c1, CH1 = c1 + CR < hi1 ? c1 + CR : hi1;\n"
      "      const int64_t nr = CH1 - CL1;\n"
      // The block's rows: input rows CL1 * SH - PH + r.
      "      const int64_t br = (nr - 1) * SH + (KH - 1) * DH + 1;\n"
      "      for (int64_t x = 0; x < 16; ++x) pad[br * PWID + x] = 0.0f;\n"
      "      for (int64_t r = 0; r < br; ++r) {\n"
      "        float* row = pad + r * PWID;\n"
      "        const int64_t iy = CL1 * SH - PH + r;\n"
      "        if (iy < 0 || iy >= H) {\n"
      "          for (int64_t x = 0; x < PWID; ++x) row[x] = 0.0f;\n"
      "          continue;\n"
      "        }\n"
      "        int64_t x = 0;\n"
      "        for (; x < PW && x < PWID; ++x) row[x] = 0.0f;\n"
      "        const float* src = plane + iy * S1;\n"
      "        GRT_IVDEP\n"
      "        for (int64_t c = 0; c < xr; ++c) row[x + c] = src[c];\n"
      "        for (x = xr > 0 ? PW + xr : x; x < PWID; ++x) row[x] = 0.0f;\n"
      "      }\n"
      // One run over the tile's rows with SH 1, else a run per row.
      "      for (int64_t p1 = CL1; p1 < (SH == 1 ? CL1 + (nr > 0) : CH1); ++p1) {\n"
      "        const int64_t n = SH == 1 ? (nr - 1) * PWID + ROWW : ROWW;\n"
      "        const float* base = pad + (p1 - CL1) * SH * PWID;\n"
      "        float* out = sums + (p1 - CL1) * SROW;\n"
      "        for (int64_t q = 0; q < n; q += GRT_VL) {\n"
      "          const float* tap = base + q;\n"
      "          grt_vf s = {0}, s1 = {0};\n"
      "          (void)s1;\n",
      cv->kh, cv->kw, rows1 ? 1 : 0, cv->ow, tile_rows, cv->h, cv->w, g.ocg,
      g.cols,
      g.rows, srow, cv->stride_h, cv->stride_w, cv->pad_h,
      cv->pad_w, cv->dilation_h, cv->dilation_w, is[0], is[1], is[3], fs[0],
      fs[1], fs[3], block_rows, sums_size, cv->input_binding,
      cv->filter_binding);
  // The taps spelled out so the weights stay in registers; loops for
  // huge filters. Past GRTC_CPU_DEPTHWISE_ONE_CHAIN_TAPS taps (a 5x5
  // filter's 25) they alternate between two sums, s and s1: one chain of
  // 25 dependent FMAs per vector left the kernel waiting on their latency.
  bool two_chains = cv->kh * cv->kw > GRTC_CPU_DEPTHWISE_ONE_CHAIN_TAPS;
  if (cv->kh * cv->kw <= GRTC_CPU_DEPTHWISE_UNROLLED_TAPS) {
    for (int64_t i = 0; i < cv->kh; ++i) {
      for (int64_t j = 0; j < cv->kw; ++j) {
        bool second = two_chains && (i * cv->kw + j) % 2 == 1;
        grt_string_builder_appendf(
            o,
            "          %s += grt_vf_load(tap + %" PRId64 ") * wt[%" PRId64
            "][%" PRId64 "];\n",
            second ? "s1" : "s",
            i * cv->dilation_h * g.cols + j * cv->dilation_w, i, j);
      }
    }
    if (two_chains) {
      grt_string_builder_append_cstring(o, "          s += s1;\n");
    }
  } else {
    grt_string_builder_append_cstring(
        o,
        "          for (int64_t i = 0; i < KH; ++i)\n"
        "            for (int64_t j = 0; j < KW; ++j)\n"
        "              s += grt_vf_load(tap + i * DH * PWID + j * DW) * wt[i][j];\n");
  }
  grt_string_builder_append_cstring(
      o,
      "          grt_vf_store(out + q, s);\n"
      "        }\n"
      "      }\n");
  grtc_cpu_set_depth(e, 3);
  bool* hoisted = grtc_cpu_emit_channel_values(e);
  if (rows1) {
    grt_string_builder_append_cstring(
        o,
        "      for (int64_t p1 = CL1; p1 < CH1; ++p1) {\n"
        "        const float* srow = sums + (p1 - CL1) * SROW;\n"
        "        float* orow = outr + (p1 - CL1) * OW;\n"
        "        GRT_IVDEP\n"
        "        for (int64_t x = 0; x < OW; ++x) orow[x] = srow[x * SW];\n"
        "      }\n"
        "      (void)lo2; (void)hi2;  /* whole rows: 0 and OW */\n"
        "      for (int64_t p1 = CL1; p1 < CL1 + 1; ++p1) {\n"
        "        GRT_IVDEP\n"
        "        for (int64_t p2 = 0; p2 < nr * OW; ++p2) {\n");
  } else {
    grt_string_builder_append_cstring(
        o,
        "      for (int64_t p1 = CL1; p1 < CH1; ++p1) {\n"
        "        const float* srow = sums + (p1 - CL1) * SROW;\n"
        "        GRT_IVDEP\n"
        "        for (int64_t p2 = lo2; p2 < hi2; ++p2) {\n");
  }
  grtc_cpu_set_depth(e, 5);
  grtc_cpu_emit_pattern_epilogue(e, rows1 ? "outr[p2]" : "srow[p2 * SW]");
  e->hoisted = NULL;
  free(hoisted);
  grt_string_builder_append_cstring(
      o, "        }\n      }\n      }\n    }\n  }\n  return 0;\n}\n\n");
}

#define GRTC_CPU_STEM_UNROLLED_KW 16
// Convolutions with few input channels and stride 2 across (a network's
// stem) on planar inputs over whole output rows. Per chunk of the tile's
// output rows, every input row the chunk reads is split once into its
// stride_w column phases, zero-padded (phase p holds padded columns p,
// p + SW, ...), so tap j of every output pixel of a row reads one phase
// at consecutive floats: a vector of pixels is one load. Per register
// block (grtc_cpu_stem_block: ocb output channels x nv pixel vectors) the
// sums stay in ocb x nv vector accumulators over all C x KH x KW taps
// (each tap nv loads and a broadcast filter value per channel), stored
// once into the block's sums; the epilogue then runs per channel along the chunk's
// pixels, as on the planar GEMM path. The filter is copied once per tile
// into tap-major blocks of the channels (zeros past the tile).
static void grtc_cpu_emit_conv_stem_kernel(grtc_cpu_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  const grtc_kconv_t* cv = &kernel->conv;
  grt_string_builder_t* o = e->out;
  grtc_cpu_conv_geometry_t g =
      grtc_cpu_conv_geometry(kernel, GRTC_CPU_PATH_CONV_STEM);
  int ocb, nv;
  grtc_cpu_stem_block(kernel, &ocb, &nv);
  const int64_t* is = cv->input_strides;
  const int64_t* fs = cv->filter_strides;
  bool rows1 = grtc_cpu_conv_rows_collapse(e);
  grtc_cpu_emit_pattern_prologue(e);
  grt_string_builder_appendf(
      o,
      "  enum { OCB = %d, NV = %d, ROWS1 = %d };\n"
      "  const int64_t H = %" PRId64 ", W = %" PRId64 ", OW = %" PRId64
      ", KH = %" PRId64 ", KW = %" PRId64 ", C = %" PRId64 ", K = %" PRId64
      ";\n"
      "  const int64_t SH = %" PRId64 ", SW = %" PRId64 ", PH = %" PRId64
      ", PW = %" PRId64 ", DH = %" PRId64 ", DW = %" PRId64 ";\n"
      "  const int64_t S0 = %" PRId64 ", S1 = %" PRId64 ", S3 = %" PRId64
      ", F0 = %" PRId64 ", F1 = %" PRId64 ", F2 = %" PRId64 ", F3 = %" PRId64
      ";\n"
      "  const int64_t RB = %" PRId64 ", BR = %" PRId64 ", PHW = %" PRId64
      ", LDC = %" PRId64 ", TOC = %" PRId64 ";\n"
      "  (void)DW;\n"
      "  float* wb = (float*)wg->local_memory;\n"
      "  float* ph = wb + (TOC + OCB - 1) / OCB * OCB * K;\n"
      "  float* cb = ph + C * BR * SW * PHW;\n"
      "  for (int64_t ob = lo3; ob < hi3; ob += OCB)\n"
      "    for (int64_t ci = 0; ci < C; ++ci)\n"
      "      for (int64_t i = 0; i < KH; ++i)\n"
      "        for (int64_t j = 0; j < KW; ++j)\n"
      "          for (int64_t oo = 0; oo < OCB; ++oo) {\n"
      "            const int64_t k = (ci * KH + i) * KW + j;\n"
      "            wb[((ob - lo3) * K + k * OCB) + oo] = ob + oo < hi3 ? "
      "b%u[i * F0 + j * F1 + ci * F2 + (ob + oo) * F3] : 0.0f;\n"
      "          }\n"
      "  for (int64_t p0 = lo0; p0 < hi0; ++p0) {\n"
      "    const float* X = b%u + p0 * S0;\n"
      "    for (int64_t y0 = lo1; y0 < hi1; y0 += RB) {\n"
      "      const int64_t yr = hi1 - y0 < RB ? hi1 - y0 : RB;\n"
      "      const int64_t br = (yr - 1) * SH + (KH - 1) * DH + 1;\n"
      // The chunk's input rows y0 * SH - PH + tr, split into column phases.
      "      for (int64_t ci = 0; ci < C; ++ci)\n"
      "        for (int64_t tr = 0; tr < br; ++tr) {\n"
      "          const int64_t iy = y0 * SH - PH + tr;\n"
      "          const float* src = X + ci * S3 + (iy < 0 || iy >= H ? 0 : iy) * S1;\n"
      "          for (int64_t p = 0; p < SW; ++p) {\n"
      "            float* dst = ph + ((ci * BR + tr) * SW + p) * PHW;\n"
      // Phase column x is input column x * SW + p - PW.
      "            int64_t xlo = PW - p <= 0 ? 0 : (PW - p + SW - 1) / SW;\n"
      "            int64_t xhi = W + PW - p <= 0 ? 0 : (W + PW - p + SW - 1) / SW;\n"
      "            if (iy < 0 || iy >= H) xlo = xhi = PHW;\n"
      "            if (xlo > PHW) xlo = PHW;\n"
      "            if (xhi > PHW) xhi = PHW;\n"
      "            if (xhi < xlo) xhi = xlo;\n"
      "            for (int64_t x = 0; x < xlo; ++x) dst[x] = 0.0f;\n"
      "            GRT_IVDEP\n"
      "            for (int64_t x = xlo; x < xhi; ++x) dst[x] = src[x * SW + p - PW];\n"
      "            for (int64_t x = xhi; x < PHW; ++x) dst[x] = 0.0f;\n"
      "          }\n"
      "        }\n"
      "      for (int64_t ob = lo3; ob < hi3; ob += OCB) {\n"
      "        const float* wblk = wb + (ob - lo3) * K;\n"
      // Rows in order, vectors along each in order: a row's last vector
      // overruns into the next row's sums, which that row then writes.
      "        for (int64_t r = 0; r < yr; ++r) {\n"
      "          for (int64_t q = 0; q < OW; q += NV * GRT_VL) {\n"
      "            grt_vf a0_0 = {0}",
      ocb, nv, rows1 ? 1 : 0, cv->h, cv->w, cv->ow, cv->kh,
      cv->kw, g.cig, g.k, cv->stride_h, cv->stride_w, cv->pad_h, cv->pad_w,
      cv->dilation_h, cv->dilation_w, is[0], is[1], is[3], fs[0], fs[1],
      fs[2], fs[3], g.rows, g.rows_padded, g.cols, g.ldc, g.tile_oc,
      cv->filter_binding, cv->input_binding);
  for (int a = 0; a < ocb; ++a) {
    for (int v = a == 0 ? 1 : 0; v < nv; ++v) {
      grt_string_builder_appendf(o, ", a%d_%d = {0}", a, v);
    }
  }
  grt_string_builder_append_cstring(
      o,
      ";\n"
      "            const float* wk = wblk;\n"
      "            for (int64_t ci = 0; ci < C; ++ci) {\n"
      "              for (int64_t i = 0; i < KH; ++i) {\n"
      "                const float* prow = ph + (ci * BR + r * SH + i * DH) * SW * PHW + q;\n");
  // Tap j reads phase (j * DW) % SW at offset (j * DW) / SW: spelled out
  // for the usual widths, a loop for wider filters.
  char tap[96];
  bool unrolled = cv->kw <= GRTC_CPU_STEM_UNROLLED_KW;
  if (!unrolled) {
    grt_string_builder_append_cstring(
        o, "                for (int64_t j = 0; j < KW; ++j) {\n");
  }
  for (int64_t j = 0; j < (unrolled ? cv->kw : 1); ++j) {
    int64_t off = j * cv->dilation_w;
    if (unrolled) {
      snprintf(tap, sizeof(tap), "prow + %" PRId64,
               off % cv->stride_w * g.cols + off / cv->stride_w);
    } else {
      snprintf(tap, sizeof(tap), "prow + (j * DW) %% SW * PHW + (j * DW) / SW");
    }
    grt_string_builder_append_cstring(o, "                {\n");
    for (int v = 0; v < nv; ++v) {
      grt_string_builder_appendf(
          o, "                  const grt_vf x%d = grt_vf_load(%s + %d * GRT_VL);\n",
          v, tap, v);
    }
    for (int a = 0; a < ocb; ++a) {
      grt_string_builder_appendf(o, "                  const float w%d = wk[%d];\n",
                                 a, a);
      for (int v = 0; v < nv; ++v) {
        grt_string_builder_appendf(o, "                  a%d_%d += x%d * w%d;\n",
                                   a, v, v, a);
      }
    }
    grt_string_builder_append_cstring(
        o, "                  wk += OCB;\n                }\n");
  }
  if (!unrolled) {
    grt_string_builder_append_cstring(o, "                }\n");
  }
  grt_string_builder_append_cstring(
      o, "              }\n            }\n            float* c = cb + r * OW + q;\n");
  for (int a = 0; a < ocb; ++a) {
    for (int v = 0; v < nv; ++v) {
      grt_string_builder_appendf(
          o, "            grt_vf_store(c + %d * LDC + %d * GRT_VL, a%d_%d);\n", a,
          v, a, v);
    }
  }
  grt_string_builder_append_cstring(
      o,
      "          }\n"
      "        }\n"
      "        const int64_t oe = hi3 - ob < OCB ? hi3 : ob + OCB;\n"
      "        for (int64_t p3 = ob; p3 < oe; ++p3) {\n");
  grtc_cpu_set_depth(e, 5);
  bool* hoisted = grtc_cpu_emit_channel_values(e);
  grt_string_builder_append_cstring(
      o,
      "          for (int64_t p1 = y0; p1 < (ROWS1 ? y0 + 1 : y0 + yr); ++p1) {\n"
      "            const float* crow = cb + (p3 - ob) * LDC + (p1 - y0) * OW;\n"
      "            GRT_IVDEP\n"
      "            for (int64_t p2 = lo2; p2 < (ROWS1 ? yr * OW : hi2); ++p2) {\n");
  grtc_cpu_set_depth(e, 7);
  grtc_cpu_emit_pattern_epilogue(e, "crow[p2]");
  e->hoisted = NULL;
  free(hoisted);
  grt_string_builder_append_cstring(
      o,
      "            }\n          }\n        }\n      }\n    }\n  }\n"
      "  return 0;\n}\n\n");
}

// A pooling kernel's padded rows: |cols| floats each (the input positions
// one output row's taps reach, padding included), and |sums| (ow) folds.
typedef struct grtc_cpu_pool_geometry_t {
  int64_t cols, sums;
  uint64_t scratch_bytes;
} grtc_cpu_pool_geometry_t;

static grtc_cpu_pool_geometry_t grtc_cpu_pool_geometry(
    const grtc_kernel_t* kernel) {
  const grtc_kpool_t* pl = &kernel->pool;
  grtc_cpu_pool_geometry_t g;
  g.sums = pl->ow;
  g.cols = (pl->ow - 1) * pl->stride_w + 1 + (pl->kw - 1) * pl->dilation_w;
  g.scratch_bytes = (uint64_t)(pl->kh * g.cols + g.sums) * sizeof(float);
  return g;
}

// Max and min pools fold a window by columns, then along the row
// (grtc_cpu_emit_pool_kernel): the same value as folding the taps in
// order, since both ops pick one of their operands whatever the order
// (+0 above -0 either way round, NaN if any is NaN; with two NaNs in a
// window either one's payload may come out). A window of KW taps is
// spelled out, so a huge one keeps the plain folds.
#define GRTC_CPU_POOL_UNROLLED_TAPS 49
static bool grtc_cpu_pool_separable(const grtc_kernel_t* kernel) {
  const grtc_kpool_t* pl = &kernel->pool;
  return (pl->op == GRTC_SCALAR_MAX || pl->op == GRTC_SCALAR_MIN) &&
         pl->kw <= GRTC_CPU_POOL_UNROLLED_TAPS;
}

// Pooling (POOL2D) on planar inputs: per (n, c) plane and output row, the
// KH input rows the row's taps read are copied into rows padded with the
// initial value (rows above and below the input are all initial value),
// so every tap is an unconditional op(acc, x) exactly as the generic loops
// fold it (same taps, same order, padding read as the initial value); the
// folds run along the output row (vectorized, loads stride_w apart) and
// the epilogue reads them in order.
static void grtc_cpu_emit_pool_kernel(grtc_cpu_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  const grtc_kpool_t* pl = &kernel->pool;
  grt_string_builder_t* o = e->out;
  grtc_cpu_pool_geometry_t g = grtc_cpu_pool_geometry(kernel);
  const int64_t* is = pl->input_strides;
  grtc_cpu_emit_pattern_prologue(e);
  // The initial value in a block of its own, so the per-point PRE section
  // can declare its v<N> again without shadowing it.
  grt_string_builder_append_cstring(o, "  float pinit;\n  {\n");
  grtc_cpu_set_depth(e, 2);
  grtc_cpu_emit_inst(e, kernel->accs[0].init);
  grt_string_builder_appendf(
      o,
      "    pinit = v%u;\n  }\n"
      "  enum { KH = %" PRId64 ", KW = %" PRId64 " };\n"
      "  const int64_t H = %" PRId64 ", W = %" PRId64 ", PWID = %" PRId64
      ", OW = %" PRId64 ";\n"
      "  const int64_t SH = %" PRId64 ", SW = %" PRId64 ", PH = %" PRId64
      ", PW = %" PRId64 ", DH = %" PRId64 ", DW = %" PRId64 ";\n"
      "  const int64_t S0 = %" PRId64 ", S1 = %" PRId64 ", S2 = %" PRId64
      ";\n"
      "  float* pad = (float*)wg->local_memory;\n"
      "  float* sums = pad + KH * PWID;\n"
      "  const int64_t xr = W < PWID - PW ? W : PWID - PW;\n"
      "  (void)DW;\n"
      "  for (int64_t p0 = lo0; p0 < hi0; ++p0) {\n"
      "    for (int64_t p1 = lo1; p1 < hi1; ++p1) {\n"
      "      const float* plane = b%u + p0 * S0 + p1 * S1;\n"
      "      for (int64_t p2 = lo2; p2 < hi2; ++p2) {\n",
      kernel->accs[0].init, pl->kh, pl->kw, pl->h, pl->w, g.cols, pl->ow,
      pl->stride_h, pl->stride_w, pl->pad_h, pl->pad_w, pl->dilation_h,
      pl->dilation_w, is[0], is[1], is[2], pl->input_binding);
  char fold[96];
  const char* helper = grtc_c_family_type(GRTC_ELEM_F32)->helper;
  const char* name = grtc_scalar_op_spelling((grtc_scalar_op_t)pl->op);
  if (grtc_cpu_pool_separable(kernel)) {
    // The window's maximum (minimum) is its columns' maxima (minima)
    // folded along the row: per output row, one padded row holds, at each
    // input position, the fold of the initial value and the KH input
    // values below it (padding rows and columns would fold the initial
    // value again, which changes nothing), read along the row with
    // contiguous loads; then KW taps per output. KH x KW strided taps per
    // output become KH contiguous and KW strided ones.
    grt_string_builder_appendf(
        o,
        "        for (int64_t x = 0; x < PWID; ++x) pad[x] = pinit;\n"
        "        for (int64_t i = 0; i < KH; ++i) {\n"
        "          const int64_t iy = p2 * SH - PH + i * DH;\n"
        "          if (iy < 0 || iy >= H) continue;\n"
        "          const float* src = plane + iy * S2;\n"
        "          float* row = pad + PW;\n"
        "          GRT_IVDEP\n"
        "          for (int64_t x = 0; x < xr; ++x) row[x] = grt_%s_%s(%s, %s);\n"
        "        }\n"
        "        GRT_IVDEP\n"
        "        for (int64_t q = 0; q < OW; ++q) {\n"
        "          const float* tap = pad + q * SW;\n"
        "          float acc = tap[0];\n",
        name, helper, pl->tap_first ? "src[x]" : "row[x]",
        pl->tap_first ? "row[x]" : "src[x]");
    for (int64_t j = 1; j < pl->kw; ++j) {
      snprintf(fold, sizeof(fold), "tap[%" PRId64 "]", j * pl->dilation_w);
      grt_string_builder_appendf(o, "          acc = grt_%s_%s(%s, %s);\n",
                                 name, helper,
                                 pl->tap_first ? fold : "acc",
                                 pl->tap_first ? "acc" : fold);
    }
  } else {
    grt_string_builder_append_cstring(
        o,
        "        for (int64_t i = 0; i < KH; ++i) {\n"
        "          float* row = pad + i * PWID;\n"
        "          const int64_t iy = p2 * SH - PH + i * DH;\n"
        "          int64_t x = 0;\n"
        "          if (iy >= 0 && iy < H && xr > 0) {\n"
        "            for (; x < PW; ++x) row[x] = pinit;\n"
        "            memcpy(row + x, plane + iy * S2, (size_t)xr * sizeof(float));\n"
        "            x += xr;\n"
        "          }\n"
        "          for (; x < PWID; ++x) row[x] = pinit;\n"
        "        }\n"
        "        GRT_IVDEP\n"
        "        for (int64_t q = 0; q < OW; ++q) {\n"
        "          const float* tap = pad + q * SW;\n"
        "          float acc = pinit;\n");
    // The taps spelled out for the common windows; loops for huge ones.
    if (pl->kh * pl->kw <= GRTC_CPU_POOL_UNROLLED_TAPS) {
      for (int64_t i = 0; i < pl->kh; ++i) {
        for (int64_t j = 0; j < pl->kw; ++j) {
          snprintf(fold, sizeof(fold), "tap[%" PRId64 "]",
                   i * g.cols + j * pl->dilation_w);
          grt_string_builder_appendf(o, "          acc = grt_%s_%s(%s, %s);\n",
                                     name, helper,
                                     pl->tap_first ? fold : "acc",
                                     pl->tap_first ? "acc" : fold);
        }
      }
    } else {
      grt_string_builder_appendf(
          o,
          "          for (int64_t i = 0; i < KH; ++i)\n"
          "            for (int64_t j = 0; j < KW; ++j)\n"
          "              acc = grt_%s_%s(%s, %s);\n",
          name, helper, pl->tap_first ? "tap[i * PWID + j * DW]" : "acc",
          pl->tap_first ? "acc" : "tap[i * PWID + j * DW]");
    }
  }
  grt_string_builder_append_cstring(
      o,
      "          sums[q] = acc;\n"
      "        }\n"
      "        GRT_IVDEP\n"
      "        for (int64_t p3 = lo3; p3 < hi3; ++p3) {\n");
  grtc_cpu_set_depth(e, 5);
  grtc_cpu_emit_section(e, GRTC_KSECTION_PRE);
  // The folds started from the initial value already.
  if (e->live[kernel->accs[0].init]) {
    grt_string_builder_appendf(o, "%s(void)v%u;\n", e->indent,
                               kernel->accs[0].init);
  }
  grt_string_builder_appendf(o, "%sconst float acc0 = sums[p3];\n",
                             e->indent);
  grtc_cpu_emit_section(e, GRTC_KSECTION_POST);
  grtc_cpu_emit_stores(e);
  grt_string_builder_append_cstring(
      o, "        }\n      }\n    }\n  }\n  return 0;\n}\n\n");
}

// Bytes of per-worker scratch each kernel needs.
static grt_status_t grtc_cpu_local_memory_size(const grtc_kernel_t* kernel,
                                               uint32_t* out_size) {
  uint64_t size = 0;
  if (kernel->kind == GRTC_KERNEL_SORT) {
    int64_t rows, length, stride;
    grtc_c_family_sort_geometry(kernel, &rows, &length, &stride);
    size = (uint64_t)length * 24;  // perm, tmp, one operand's values
  } else {
    grtc_cpu_path_t path = grtc_cpu_path(kernel);
    if (path == GRTC_CPU_PATH_MATMUL) {
      size = grtc_cpu_gemm_geometry(kernel).scratch_bytes;
    } else if (path == GRTC_CPU_PATH_MATMUL_I8) {
      size = grtc_cpu_igemm_scratch_bytes(kernel);
    } else if (path == GRTC_CPU_PATH_MATMUL_W4) {
      size = grtc_cpu_w4gemm_scratch_bytes(kernel);
    } else if (path == GRTC_CPU_PATH_CONV_I8) {
      size = grtc_cpu_iconv_scratch_bytes(kernel);
    } else if (path == GRTC_CPU_PATH_POOL) {
      size = grtc_cpu_pool_geometry(kernel).scratch_bytes;
    } else if (path != GRTC_CPU_PATH_LOOPS && path != GRTC_CPU_PATH_ROWS &&
               path != GRTC_CPU_PATH_ROWS_TWO_PASS) {
      size = grtc_cpu_conv_geometry(kernel, path).scratch_bytes;
    }
  }
  if (size > UINT32_MAX) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "kernel %.*s needs %" PRIu64
                           " bytes of scratch, more than the ABI's %u",
                           (int)kernel->name.size, kernel->name.data, size,
                           UINT32_MAX);
  }
  *out_size = (uint32_t)size;
  return grt_ok_status();
}

static grt_status_t grtc_cpu_emit_kernel(const grtc_kernel_t* kernel,
                                         grt_string_builder_t* out) {
  GRT_RETURN_IF_ERROR(grtc_kernel_verify(kernel));
  bool* index_only = calloc(2 * (kernel->inst_count + 1), sizeof(bool));
  if (!index_only) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory emitting kernel %.*s",
                           (int)kernel->name.size, kernel->name.data);
  }
  bool* live = index_only + kernel->inst_count + 1;
  grtc_cpu_path_t path = grtc_cpu_path(kernel);
  // (A TWO_PASS rows kernel runs its generic reduction, initial values
  // included.)
  grtc_cpu_mark(kernel,
                path != GRTC_CPU_PATH_LOOPS &&
                    path != GRTC_CPU_PATH_ROWS_TWO_PASS,
                index_only, live);
  grtc_cpu_emitter_t e = {.out = out, .kernel = kernel,
                          .index_only = index_only, .live = live};
  // A bounds-checked pattern kernel checks its epilogue's accesses where
  // they happen, with wrapping index arithmetic (the LOOP kernel's nest
  // decides per access: grtc_cpu_emit_checked_nest).
  bool* check_all = NULL;
  if (grtc_c_family_bounds_checked(kernel) && path != GRTC_CPU_PATH_LOOPS) {
    check_all = calloc(kernel->inst_count + kernel->store_count + 2,
                       sizeof(bool));
    if (!check_all) {
      free(index_only);
      return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                             "out of memory emitting kernel %.*s",
                             (int)kernel->name.size, kernel->name.data);
    }
    for (uint32_t i = 0; i < kernel->inst_count; ++i) {
      check_all[i] = kernel->insts[i].kind == GRTC_KINST_LOAD;
    }
    for (uint32_t s = 0; s < kernel->store_count; ++s) {
      check_all[kernel->inst_count + 1 + s] = true;
    }
    e.check_load = check_all;
    e.check_store = check_all + kernel->inst_count + 1;
    e.pattern_index_only = index_only;
    e.index_only = NULL;
  }
  grt_string_builder_appendf(
      out,
      "static int grtk_%.*s(const grtk_dispatch_t* d, "
      "const grtk_workgroup_t* wg) {\n",
      (int)kernel->name.size, kernel->name.data);
  if (kernel->kind == GRTC_KERNEL_SORT) {
    grtc_cpu_emit_binding_pointers(&e);
    grtc_cpu_emit_sort_kernel(&e);
  } else if (path == GRTC_CPU_PATH_MATMUL) {
    grtc_cpu_emit_matmul_kernel(&e);
  } else if (path == GRTC_CPU_PATH_MATMUL_I8) {
    grtc_cpu_emit_igemm_kernel(&e, false, false);
  } else if (path == GRTC_CPU_PATH_CONV_I8) {
    grtc_cpu_emit_igemm_kernel(&e, true, false);
  } else if (path == GRTC_CPU_PATH_MATMUL_W4) {
    grtc_cpu_emit_igemm_kernel(&e, false, true);
  } else if (path == GRTC_CPU_PATH_CONV_PIXELS) {
    grtc_cpu_emit_conv_pixels_kernel(&e);
  } else if (path == GRTC_CPU_PATH_CONV_DEPTHWISE) {
    grtc_cpu_emit_conv_depthwise_kernel(&e);
  } else if (path == GRTC_CPU_PATH_CONV_STEM) {
    grtc_cpu_emit_conv_stem_kernel(&e);
  } else if (path == GRTC_CPU_PATH_POOL) {
    grtc_cpu_emit_pool_kernel(&e);
  } else if (path == GRTC_CPU_PATH_ROWS) {
    grtc_cpu_emit_binding_pointers(&e);
    grtc_cpu_emit_tile_bounds(&e);
    grtc_cpu_emit_rows_loops(kernel, out);
  } else if (path == GRTC_CPU_PATH_ROWS_TWO_PASS) {
    if (!grtc_cpu_emit_rows_two_pass_kernel(&e)) {
      free(index_only);
      return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                             "out of memory emitting kernel %.*s",
                             (int)kernel->name.size, kernel->name.data);
    }
  } else if (path != GRTC_CPU_PATH_LOOPS) {
    grtc_cpu_emit_conv_kernel(&e, path);
  } else if (!grtc_cpu_emit_loop_kernel(&e)) {
    free(index_only);
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory emitting kernel %.*s",
                           (int)kernel->name.size, kernel->name.data);
  }
  free(e.owned_index_only);
  free(check_all);
  free(index_only);
  return grt_ok_status();
}

grt_status_t grtc_cpu_emit_c(const grtc_kernel_set_t* kernels,
                             const char* static_library_name,
                             grt_string_builder_t* out) {
  grt_string_builder_append_cstring(
      out, "/* Generated by grt-compile (CPU target). */\n");
  grtc_cpu_emit_prelude(out);
  for (uint32_t k = 0; k < kernels->count; ++k) {
    if (grtc_cpu_uses_gemm(kernels->kernels[k])) {
      grtc_cpu_emit_gemm_support(out);
      break;
    }
  }
  for (uint32_t k = 0; k < kernels->count; ++k) {
    grtc_cpu_path_t path = grtc_cpu_path(kernels->kernels[k]);
    if (path == GRTC_CPU_PATH_MATMUL_I8 || path == GRTC_CPU_PATH_CONV_I8) {
      grtc_cpu_emit_igemm_support(out);
      break;
    }
  }
  for (uint32_t k = 0; k < kernels->count; ++k) {
    if (grtc_cpu_path(kernels->kernels[k]) == GRTC_CPU_PATH_MATMUL_W4) {
      grtc_cpu_emit_w4gemm_support(out);
      break;
    }
  }
  for (uint32_t k = 0; k < kernels->count; ++k) {
    if (grtc_cpu_path(kernels->kernels[k]) == GRTC_CPU_PATH_ROWS) {
      grtc_cpu_emit_rows_support(out);
      break;
    }
  }
  for (uint32_t k = 0; k < kernels->count; ++k) {
    if (grtc_c_family_bounds_checked(kernels->kernels[k])) {
      grt_string_builder_append_cstring(out, grtc_cpu_interval_support);
      break;
    }
  }
  uint32_t* local_sizes = calloc(kernels->count + 1, sizeof(uint32_t));
  if (!local_sizes) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory emitting kernels");
  }
  grt_status_t status = grt_ok_status();
  for (uint32_t k = 0; k < kernels->count && grt_status_is_ok(status); ++k) {
    status = grtc_cpu_local_memory_size(kernels->kernels[k], &local_sizes[k]);
    if (grt_status_is_ok(status)) {
      status = grtc_cpu_emit_kernel(kernels->kernels[k], out);
    }
  }
  if (!grt_status_is_ok(status)) {
    free(local_sizes);
    return status;
  }
  if (kernels->count) {
    grt_string_builder_append_cstring(
        out, "static const grtk_entry_t grtk_entries[] = {\n");
    for (uint32_t k = 0; k < kernels->count; ++k) {
      const grtc_kernel_t* kernel = kernels->kernels[k];
      grt_string_builder_appendf(
          out, "  {\"%.*s\", grtk_%.*s, %uu, %uu, {1u, 1u, 1u}, %uu},\n",
          (int)kernel->name.size, kernel->name.data, (int)kernel->name.size,
          kernel->name.data, kernel->binding_count,
          kernel->extent_count + (kernel->split_max > 0 ? 1u : 0u),
          local_sizes[k]);
    }
    grt_string_builder_append_cstring(out, "};\n");
  }
  free(local_sizes);
  grt_string_builder_appendf(
      out,
      "static const grtk_library_t grtk_library = {1u, %uu, %s, %s%s%s};\n",
      kernels->count, kernels->count ? "grtk_entries" : "NULL",
      static_library_name ? "\"" : "",
      static_library_name ? static_library_name : "NULL",
      static_library_name ? "\"" : "");
  if (static_library_name) {
    grt_string_builder_appendf(
        out,
        "const grtk_library_t* %s_query(uint32_t abi_version);\n"
        "const grtk_library_t* %s_query(uint32_t abi_version) {\n"
        "  return abi_version == 1u ? &grtk_library : NULL;\n}\n"
        "struct grt_status_record_t;\n"
        "struct grt_status_record_t* grt_hal_local_register_static_library("
        "const grtk_library_t* library);\n"
        "struct grt_status_record_t* %s_register(void);\n"
        "/* grt_status_t (base/status.h): OK, also when registered already. */\n"
        "struct grt_status_record_t* %s_register(void) {\n"
        "  return grt_hal_local_register_static_library(&grtk_library);\n"
        "}\n",
        static_library_name, static_library_name, static_library_name,
        static_library_name);
  } else {
    grt_string_builder_append_cstring(
        out,
        "__attribute__((visibility(\"default\")))\n"
        "const grtk_library_t* grt_kernel_library_query(uint32_t abi_version);\n"
        "const grtk_library_t* grt_kernel_library_query(uint32_t abi_version) {\n"
        "  return abi_version == 1u ? &grtk_library : NULL;\n}\n");
  }
  return grt_string_builder_status(out);
}
