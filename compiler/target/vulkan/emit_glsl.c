// Kernel IR to GLSL 450 compute shaders. Each instruction becomes one
// `T vN = ...;` local; scalar ops call the prelude's grt_<op>_<suffix>
// helpers (prelude_glsl.c), which carry scalar.h's exact semantics.
//
// LOOP kernels: the workgroup is the kernel's tile (ir.h); its
// invocations stride over the tile's points in row-major order, each
// running PRE, the reduction nest (LOOP section, accumulator updates),
// POST and the stores. Serial kernels run in one invocation of workgroup
// 0 over the whole space in row-major order (their stores may collide).
// MATMUL kernels with f32 operands (f32 x f32 -> f32), or with i8 operands
// and an i32 accumulator (i8 x i8 -> i32, quantized dot_general: the
// operands read through 8-bit storage, widened to int and multiplied and
// summed in int32, which wraps as the CPU's int8 GEMM does) compute ACC(0)
// with a shared-memory tiled GEMM and then run PRE/POST/stores per element
// (the zero-point corrections and requantization are that epilogue).
// i8 x i8 -> i32 CONV2D kernels of one group run the same way as an
// implicit GEMM (output pixels by output channels, K over the window). SORT kernels give
// each row to one invocation: the operands are copied to the results and
// sorted there in place with a stable insertion sort.
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/target/c_family/c_family.h"
#include "compiler/target/vulkan/vulkan_internal.h"
#include "compiler/target/vulkan/vulkan_target.h"

// The C-family type record (compiler/target/c_family), filled with GLSL's
// type names and conversions; key also names grt_round_<key>.
typedef grtc_c_family_type_t grtc_glsl_type_t;

static const grtc_glsl_type_t grtc_glsl_types[GRTC_ELEM_COUNT] = {
    [GRTC_ELEM_I1] = {"uint", "uint8_t", "i1", "uint", "uint", "uint(%s)",
                      "uint8_t(%s)", NULL},
    [GRTC_ELEM_I8] = {"int8_t", "int8_t", "i8", "int8_t", "uint8_t", "%s", "%s",
                      NULL},
    [GRTC_ELEM_I16] = {"int16_t", "int16_t", "i16", "int16_t", "uint16_t", "%s",
                       "%s", NULL},
    [GRTC_ELEM_I32] = {"int", "int", "i32", "int", "uint", "%s", "%s", NULL},
    [GRTC_ELEM_I64] = {"int64_t", "int64_t", "i64", "int64_t", "uint64_t", "%s",
                       "%s", NULL},
    [GRTC_ELEM_U8] = {"uint8_t", "uint8_t", "u8", "int8_t", "uint8_t", "%s",
                      "%s", NULL},
    [GRTC_ELEM_U16] = {"uint16_t", "uint16_t", "u16", "int16_t", "uint16_t",
                       "%s", "%s", NULL},
    [GRTC_ELEM_U32] = {"uint", "uint", "u32", "int", "uint", "%s", "%s", NULL},
    [GRTC_ELEM_U64] = {"uint64_t", "uint64_t", "u64", "int64_t", "uint64_t",
                       "%s", "%s", NULL},
    [GRTC_ELEM_F16] = {"float", "uint16_t", "f32", NULL, NULL,
                       "grt_f16_to_f32(uint(%s))", "uint16_t(grt_f32_to_f16(%s))",
                       "f16"},
    [GRTC_ELEM_BF16] = {"float", "uint16_t", "f32", NULL, NULL,
                        "grt_bf16_to_f32(uint(%s))",
                        "uint16_t(grt_f32_to_bf16(%s))", "bf16"},
    [GRTC_ELEM_F32] = {"float", "float", "f32", NULL, NULL, "%s", "%s", "f32"},
    [GRTC_ELEM_F64] = {"double", "double", "f64", NULL, NULL, "%s", "%s",
                       "f64"},
};

// Invocations per workgroup of tiled LOOP kernels and SORT kernels; the
// MATMUL path uses 16x16.
#define GRTC_GLSL_LOCAL_SIZE 64
#define GRTC_GLSL_MM_TILE 16

typedef struct grtc_glsl_emitter_t {
  grt_string_builder_t* out;
  const grtc_kernel_t* kernel;
  bool* live;  // per instruction: something needs it
  const char* indent;
} grtc_glsl_emitter_t;

static const grtc_glsl_type_t* grtc_glsl_type(grtc_elem_t elem) {
  return &grtc_glsl_types[elem];
}

static bool grtc_glsl_is_small_float(grtc_elem_t t) {
  return t == GRTC_ELEM_F16 || t == GRTC_ELEM_BF16;
}

// The tiled GEMM's integer form: i8 x i8 -> i32 (the quantized
// dot_general's stored integers, the MATMUL pattern the CPU target runs on
// its int8 GEMM). Other integer products (u8, i16, i32 operands) run on
// the generic loops.
static bool grtc_glsl_matmul_is_i8(const grtc_kernel_t* kernel) {
  const grtc_kmatmul_t* mm = &kernel->matmul;
  return mm->lhs_elem == GRTC_ELEM_I8 && mm->rhs_elem == GRTC_ELEM_I8 &&
         mm->acc_elem == GRTC_ELEM_I32 &&
         kernel->accs[0].type == GRTC_ELEM_I32 && !mm->rhs_packed4;
}

// Which kernels take the tiled GEMM (grtc_glsl_emit_matmul_kernel): the
// MATMUL pattern with f32 x f32 -> f32 or i8 x i8 -> i32 elements; every
// other kernel (other element types, the CONV2D pattern) runs its generic
// loops.
static bool grtc_glsl_uses_matmul(const grtc_kernel_t* kernel) {
  const grtc_kmatmul_t* mm = &kernel->matmul;
  if (kernel->kind != GRTC_KERNEL_LOOP || kernel->acc_count != 1 ||
      kernel->serial || kernel->pattern != GRTC_KPATTERN_MATMUL ||
      kernel->parallel_rank < 2 ||
      kernel->parallel_rank != mm->batch_rank + 2) {
    return false;
  }
  bool f32 = mm->lhs_elem == GRTC_ELEM_F32 && mm->rhs_elem == GRTC_ELEM_F32 &&
             mm->acc_elem == GRTC_ELEM_F32;
  return f32 || grtc_glsl_matmul_is_i8(kernel);
}

// The i8 x i8 -> i32 CONV2D kernels that run as an implicit GEMM on the
// same tiles (grtc_glsl_emit_iconv_kernel): static sizes, one group, the
// filter in its own layout (never the CPU's packed one); other
// convolutions run their generic loops.
static bool grtc_glsl_uses_iconv(const grtc_kernel_t* kernel) {
  const grtc_kconv_t* cv = &kernel->conv;
  if (kernel->kind != GRTC_KERNEL_LOOP || kernel->acc_count != 1 ||
      kernel->serial || kernel->pattern != GRTC_KPATTERN_CONV2D ||
      kernel->parallel_rank != 4 || cv->input_elem != GRTC_ELEM_I8 ||
      cv->filter_elem != GRTC_ELEM_I8 || cv->acc_elem != GRTC_ELEM_I32 ||
      kernel->accs[0].type != GRTC_ELEM_I32 || cv->filter_packed ||
      cv->groups != 1 || grtc_kernel_is_symbolic(kernel)) {
    return false;
  }
  const int64_t space[4] = {cv->n, cv->oh, cv->ow, cv->oc};
  for (uint32_t d = 0; d < 4; ++d) {
    if (kernel->parallel_dims[d] != space[d] || space[d] <= 0) return false;
  }
  return cv->c >= 1 && cv->kh >= 1 && cv->kw >= 1;
}

uint32_t grtc_vulkan_workgroup_size(const grtc_kernel_t* kernel) {
  if (kernel->kind == GRTC_KERNEL_LOOP && kernel->serial) return 1;
  if (grtc_glsl_uses_matmul(kernel) || grtc_glsl_uses_iconv(kernel)) {
    return GRTC_GLSL_MM_TILE * GRTC_GLSL_MM_TILE;
  }
  return GRTC_GLSL_LOCAL_SIZE;
}

static void grtc_glsl_emit_const(grt_string_builder_t* out,
                                 const grtc_kinst_t* inst) {
  if (inst->type == GRTC_ELEM_F64) {
    uint64_t bits;
    double v = inst->value.f;
    memcpy(&bits, &v, sizeof(bits));
    grt_string_builder_appendf(out, "packDouble2x32(uvec2(0x%08xu, 0x%08xu))",
                               (uint32_t)bits, (uint32_t)(bits >> 32));
    return;
  }
  if (grtc_elem_is_float(inst->type)) {
    // Bit patterns keep every value (NaN, infinities, -0) exact.
    float v = (float)inst->value.f;
    uint32_t bits;
    memcpy(&bits, &v, sizeof(bits));
    grt_string_builder_appendf(out, "uintBitsToFloat(0x%08xu)", bits);
    return;
  }
  uint64_t bits = (uint64_t)inst->value.i;
  if (inst->type == GRTC_ELEM_I1) bits = bits != 0;
  grt_string_builder_appendf(out, "%s(0x%" PRIx64 "ul)",
                             grtc_glsl_type(inst->type)->compute, bits);
}

// |value| as an expression, rounded to its storage precision first when
// it is f16/bf16 (spelled as in C: grtc_c_family_emit_rounded).
static void grtc_glsl_rounded(const grtc_c_family_emitter_t* e,
                              uint32_t value) {
  grtc_c_family_emit_rounded(e->out, e->kernel, value);
}

static void grtc_glsl_emit_convert(const grtc_c_family_emitter_t* e,
                                   const grtc_kinst_t* inst) {
  grt_string_builder_t* out = e->out;
  grtc_elem_t from = e->kernel->insts[inst->operands[0]].type;
  grtc_elem_t to = inst->type;
  const grtc_glsl_type_t* to_type = grtc_glsl_type(to);
  if (to == GRTC_ELEM_I1) {
    grt_string_builder_append_cstring(out, "uint(");
    grtc_glsl_rounded(e, inst->operands[0]);
    grt_string_builder_appendf(out, " != %s(0))", grtc_glsl_type(from)->compute);
  } else if (grtc_glsl_is_small_float(to)) {
    // Sources wider than f32's mantissa round once, from double.
    bool via_double = from == GRTC_ELEM_F64 || from == GRTC_ELEM_I32 ||
                      from == GRTC_ELEM_U32 || from == GRTC_ELEM_I64 ||
                      from == GRTC_ELEM_U64;
    grt_string_builder_appendf(out, "grt_%s_to_f32(grt_%s_to_%s(%s(",
                               to_type->key, via_double ? "f64" : "f32",
                               to_type->key, via_double ? "double" : "float");
    grtc_glsl_rounded(e, inst->operands[0]);
    grt_string_builder_append_cstring(out, ")))");
  } else if (grtc_elem_is_float(from) && !grtc_elem_is_float(to)) {
    grt_string_builder_appendf(out, "grt_f2i_%s(", to_type->helper);
    grtc_glsl_rounded(e, inst->operands[0]);
    grt_string_builder_append_cstring(out, ")");
  } else if (from == GRTC_ELEM_I1 && !grtc_elem_is_float(to)) {
    grt_string_builder_appendf(out, "%s(v%u)", to_type->compute,
                               inst->operands[0]);
  } else {
    grt_string_builder_appendf(out, "%s(", to_type->compute);
    grtc_glsl_rounded(e, inst->operands[0]);
    grt_string_builder_append_cstring(out, ")");
  }
}

// The storage bits of |value| (of type |from|) as the storage type of
// |to| (same width).
static void grtc_glsl_emit_bitcast(const grtc_c_family_emitter_t* e,
                                   const grtc_kinst_t* inst) {
  grt_string_builder_t* out = e->out;
  uint32_t v = inst->operands[0];
  grtc_elem_t from = e->kernel->insts[v].type;
  grtc_elem_t to = inst->type;
  char bits[96];
  // Integer bits of the source, as its same-width unsigned type.
  if (from == GRTC_ELEM_F32) {
    snprintf(bits, sizeof(bits), "floatBitsToUint(v%u)", v);
  } else if (from == GRTC_ELEM_F64) {
    snprintf(bits, sizeof(bits), "doubleBitsToUint64(v%u)", v);
  } else if (grtc_glsl_is_small_float(from)) {
    snprintf(bits, sizeof(bits), "uint16_t(grt_f32_to_%s(v%u))",
             grtc_glsl_type(from)->key, v);
  } else {
    snprintf(bits, sizeof(bits), "%s(v%u)", grtc_glsl_type(from)->as_unsigned,
             v);
  }
  if (to == GRTC_ELEM_F32) {
    grt_string_builder_appendf(out, "uintBitsToFloat(uint(%s))", bits);
  } else if (to == GRTC_ELEM_F64) {
    grt_string_builder_appendf(out, "uint64BitsToDouble(uint64_t(%s))", bits);
  } else if (grtc_glsl_is_small_float(to)) {
    grt_string_builder_appendf(out, "grt_%s_to_f32(uint(%s))",
                               grtc_glsl_type(to)->key, bits);
  } else {
    grt_string_builder_appendf(out, "%s(%s)", grtc_glsl_type(to)->compute,
                               bits);
  }
}

// What GLSL spells itself; the rest is the C family's emission in GLSL
// syntax (compiler/target/c_family).
static bool grtc_glsl_emit_value(const grtc_c_family_emitter_t* e,
                                 uint32_t i) {
  const grtc_kinst_t* inst = &e->kernel->insts[i];
  switch (inst->kind) {
    case GRTC_KINST_CONST:
      grtc_glsl_emit_const(e->out, inst);
      return true;
    case GRTC_KINST_CONVERT:
      grtc_glsl_emit_convert(e, inst);
      return true;
    case GRTC_KINST_BITCAST:
      grtc_glsl_emit_bitcast(e, inst);
      return true;
    default:
      return false;
  }
}

static const grtc_c_family_dialect_t grtc_glsl_dialect = {
    .int_literal_prefix = "",
    .int_literal_suffix = "",
    .special_float = NULL,  // constants are grtc_glsl_emit_const's
    .narrow_from_f32 = false,
    .glsl = true,
    .types = grtc_glsl_types,
    .emit_value = grtc_glsl_emit_value,
};

// The shared emitter's view of |e|: a SORT comparator's ARG(d) reads
// operand d / 2 of the results being sorted in place (binding n + d / 2).
static grtc_c_family_emitter_t grtc_glsl_family(const grtc_glsl_emitter_t* e) {
  grtc_c_family_emitter_t family = {
      .dialect = &grtc_glsl_dialect,
      .out = e->out,
      .kernel = e->kernel,
      .indent = e->indent,
      .index_only = NULL,
      .arg_binding_base = e->kernel->sort.operand_count,
      .bounds_checked = grtc_c_family_bounds_checked(e->kernel),
  };
  return family;
}

static void grtc_glsl_emit_section(grtc_glsl_emitter_t* e,
                                   grtc_ksection_t section) {
  for (uint32_t i = 0; i < e->kernel->inst_count; ++i) {
    if (e->kernel->insts[i].section == section && e->live[i]) {
      grtc_c_family_emitter_t family = grtc_glsl_family(e);
      grtc_c_family_emit_inst(&family, i);
    }
  }
}

static void grtc_glsl_emit_stores(grtc_glsl_emitter_t* e) {
  grtc_c_family_emitter_t family = grtc_glsl_family(e);
  grtc_c_family_emit_stores(&family);
}

// Marks what stores, accumulators and the comparator need; uses come
// after definitions, so one backward pass settles it.
static void grtc_glsl_mark_live(const grtc_kernel_t* kernel, bool pattern,
                                bool* live) {
  for (uint32_t s = 0; s < kernel->store_count; ++s) {
    live[kernel->stores[s].index] = true;
    live[kernel->stores[s].value] = true;
    if (kernel->stores[s].predicate != GRTC_KINST_NONE) {
      live[kernel->stores[s].predicate] = true;
    }
  }
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    live[kernel->accs[a].init] = true;
    if (!pattern && kernel->accs[a].update < kernel->inst_count) {
      live[kernel->accs[a].update] = true;
    }
  }
  if (kernel->kind == GRTC_KERNEL_SORT) live[kernel->sort.comparator] = true;
  for (uint32_t i = kernel->inst_count; i-- > 0;) {
    if (!live[i]) continue;
    const grtc_kinst_t* inst = &kernel->insts[i];
    for (uint32_t k = 0; k < inst->operand_count; ++k) {
      live[inst->operands[k]] = true;
    }
  }
}

static const char grtc_glsl_indents[] = "                                        ";

static void grtc_glsl_set_depth(grtc_glsl_emitter_t* e, uint32_t depth) {
  uint32_t max = (uint32_t)sizeof(grtc_glsl_indents) - 1;
  uint32_t spaces = 2 * depth < max ? 2 * depth : max;
  e->indent = grtc_glsl_indents + max - spaces;
}

// A kernel size as an int64_t expression: `<n>l`, or `e<x>` for extent x.
static void grtc_glsl_size(char* buffer, size_t size, int64_t dim) {
  grtc_c_family_size(buffer, size, dim);
  if (grtc_kdim_is_static(dim)) strncat(buffer, "l", size - strlen(buffer) - 1);
}

// The reduction nest with the LOOP section and the accumulator updates.
static void grtc_glsl_emit_reduction(grtc_glsl_emitter_t* e, uint32_t depth) {
  const grtc_kernel_t* kernel = e->kernel;
  grtc_glsl_set_depth(e, depth);
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    grt_string_builder_appendf(e->out, "%s%s acc%u = v%u;\n", e->indent,
                               grtc_glsl_type(kernel->accs[a].type)->compute,
                               a, kernel->accs[a].init);
  }
  if (!grtc_c_family_has_reduction_loop(kernel)) return;
  grt_string_builder_appendf(e->out, "%s{\n", e->indent);
  uint32_t inner = depth;
  for (uint32_t r = 0; r < kernel->reduction_rank; ++r) {
    grtc_glsl_set_depth(e, ++inner);
    char size[24];
    grtc_glsl_size(size, sizeof(size), kernel->reduction_dims[r]);
    grt_string_builder_appendf(
        e->out, "%sfor (int64_t r%u = 0l; r%u < %s; ++r%u) {\n", e->indent,
        r, r, size, r);
  }
  grtc_glsl_set_depth(e, inner + 1);
  grtc_glsl_emit_section(e, GRTC_KSECTION_LOOP);
  // All accumulators update at once: read every update before any write.
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    grt_string_builder_appendf(e->out, "%sacc%u = v%u;\n", e->indent, a,
                               kernel->accs[a].update);
  }
  for (uint32_t r = kernel->reduction_rank + 1; r-- > 0;) {
    grtc_glsl_set_depth(e, depth + r);
    grt_string_builder_appendf(e->out, "%s}\n", e->indent);
  }
}

// The linear workgroup id (see vulkan_target.h) and the early exit for
// ids past the kernel's count (for symbolic kernels, the product of the
// symbolic dims' tile counts ceil(e / tile) and the static dims' ones).
static void grtc_glsl_emit_workgroup_id(grtc_glsl_emitter_t* e,
                                        uint32_t count) {
  const grtc_kernel_t* kernel = e->kernel;
  grt_string_builder_append_cstring(
      e->out,
      "  const uint64_t wg = uint64_t(gl_WorkGroupID.x) + "
      "uint64_t(gl_NumWorkGroups.x) * (uint64_t(gl_WorkGroupID.y) + "
      "uint64_t(gl_NumWorkGroups.y) * uint64_t(gl_WorkGroupID.z));\n");
  if (!grtc_kernel_is_symbolic(kernel)) {
    grt_string_builder_appendf(e->out, "  if (wg >= %uul) return;\n", count);
    return;
  }
  uint64_t fixed = 1;
  grt_string_builder_append_cstring(e->out, "  if (wg >= ");
  for (uint32_t d = 0; d < kernel->parallel_rank && !kernel->serial; ++d) {
    int64_t dim = kernel->parallel_dims[d];
    int64_t tile = kernel->tile[d];
    if (grtc_kdim_is_static(dim)) {
      fixed *= (uint64_t)((dim + tile - 1) / tile);
    } else {
      grt_string_builder_appendf(e->out,
                                 "uint64_t((e%u + %" PRId64 "l) / %" PRId64
                                 "l) * ",
                                 grtc_kdim_extent(dim), tile - 1, tile);
    }
  }
  grt_string_builder_appendf(e->out, "%" PRIu64 "ul) return;\n", fixed);
}

// lo<d>/n<d>: the workgroup's tile of the parallel space (the whole space
// for serial kernels) and its point count |tn|.
static void grtc_glsl_emit_tile_bounds(grtc_glsl_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  grt_string_builder_append_cstring(e->out, "  uint64_t t = wg;\n");
  for (uint32_t d = kernel->parallel_rank; d-- > 0;) {
    int64_t dim = kernel->parallel_dims[d];
    if (!grtc_kdim_is_static(dim)) {
      // ceil(e / tile) tiles (wg is below their product, so the extent is
      // not 0 here), the last cut short.
      uint32_t x = grtc_kdim_extent(dim);
      if (kernel->serial) {
        grt_string_builder_appendf(
            e->out, "  const int64_t lo%u = 0l, n%u = e%u;\n", d, d, x);
        continue;
      }
      int64_t tile = kernel->tile[d];
      grt_string_builder_appendf(
          e->out,
          "  const uint64_t tiles%u = uint64_t((e%u + %" PRId64 "l) / %" PRId64
          "l);\n"
          "  const int64_t lo%u = int64_t(t %% tiles%u) * %" PRId64
          "l; t /= tiles%u;\n"
          "  const int64_t n%u = min(%" PRId64 "l, e%u - lo%u);\n",
          d, x, tile - 1, tile, d, d, tile, d, d, tile, x, d);
      continue;
    }
    int64_t tile = kernel->serial ? dim : kernel->tile[d];
    if (tile >= dim) {
      grt_string_builder_appendf(e->out,
                                 "  const int64_t lo%u = 0l, n%u = %" PRId64
                                 "l;\n",
                                 d, d, dim);
      continue;
    }
    int64_t tiles = (dim + tile - 1) / tile;
    grt_string_builder_appendf(e->out,
                               "  const int64_t lo%u = int64_t(t %% %" PRId64
                               "ul) * %" PRId64 "l; t /= %" PRId64 "ul;\n"
                               "  const int64_t n%u = min(%" PRId64
                               "l, %" PRId64 "l - lo%u);\n",
                               d, tiles, tile, tiles, d, tile, dim, d);
  }
  grt_string_builder_append_cstring(e->out, "  const int64_t tn = 1l");
  for (uint32_t d = 0; d < kernel->parallel_rank; ++d) {
    grt_string_builder_appendf(e->out, " * n%u", d);
  }
  grt_string_builder_append_cstring(e->out, ";\n");
}

// p<d> of tile point |q| in row-major order.
static void grtc_glsl_emit_point(grtc_glsl_emitter_t* e, const char* q) {
  const grtc_kernel_t* kernel = e->kernel;
  grt_string_builder_appendf(e->out, "    int64_t rest = %s;\n", q);
  for (uint32_t d = kernel->parallel_rank; d-- > 0;) {
    grt_string_builder_appendf(e->out,
                               "    const int64_t p%u = lo%u + rest %% n%u; "
                               "rest /= n%u;\n",
                               d, d, d, d);
  }
}

static void grtc_glsl_emit_loop_kernel(grtc_glsl_emitter_t* e) {
  grtc_glsl_emit_tile_bounds(e);
  uint32_t step = grtc_vulkan_workgroup_size(e->kernel);
  grt_string_builder_appendf(
      e->out,
      "  for (int64_t q = int64_t(gl_LocalInvocationID.x); q < tn; q += %ul) "
      "{\n",
      step);
  grtc_glsl_emit_point(e, "q");
  grtc_glsl_set_depth(e, 2);
  grtc_glsl_emit_section(e, GRTC_KSECTION_PRE);
  grtc_glsl_emit_reduction(e, 2);
  grtc_glsl_set_depth(e, 2);
  grtc_glsl_emit_section(e, GRTC_KSECTION_POST);
  grtc_glsl_emit_stores(e);
  grt_string_builder_append_cstring(e->out, "  }\n}\n");
}

// One row per invocation: the row's operand elements are copied into the
// results (a result may share memory with its operand: then the copy
// reads and writes the same element) and sorted there with a stable
// insertion sort that moves all results together.
static grt_status_t grtc_glsl_emit_sort_kernel(grtc_glsl_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  grt_string_builder_t* out = e->out;
  uint32_t n = kernel->sort.operand_count;
  int64_t rows, length, inner;
  grtc_c_family_sort_geometry(kernel, &rows, &length, &inner);
  if (length > INT32_MAX) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "kernel %.*s: sorting rows of %" PRId64
                           " elements; the Vulkan target sorts rows of at "
                           "most %d",
                           (int)kernel->name.size, kernel->name.data, length,
                           INT32_MAX);
  }
  grt_string_builder_appendf(
      out,
      "  for (int64_t row = int64_t(wg) * %ul + int64_t(gl_LocalInvocationID.x);"
      " row < %" PRId64 "l; row += %" PRIu64 "l) {\n"
      "    const int64_t base = (row / %" PRId64 "l) * %" PRId64
      "l + row %% %" PRId64 "l;\n"
      "    for (int k = 0; k < %d; ++k) {\n",
      GRTC_GLSL_LOCAL_SIZE, rows,
      (uint64_t)GRTC_GLSL_LOCAL_SIZE * kernel->workgroup_count, inner,
      length * inner, inner, (int)length);
  for (uint32_t k = 0; k < n; ++k) {
    grt_string_builder_appendf(out,
                               "      b%u[uint(base + int64_t(k) * %" PRId64 "l)] = b%u[uint(base + "
                               "int64_t(k) * %" PRId64 "l)];\n",
                               n + k, inner, k, inner);
  }
  grt_string_builder_appendf(
      out,
      "    }\n"
      // 32-bit counters: lavapipe cut short loops with i64 compares here.
      "    for (int s = 1; s < %d; ++s) {\n"
      "      for (int m = s; m > 0; --m) {\n"
      "        const int64_t i = base + int64_t(m) * %" PRId64
      "l, j = i - %" PRId64 "l;\n",
      (int)length, inner, inner);
  grtc_glsl_set_depth(e, 4);
  grtc_glsl_emit_section(e, GRTC_KSECTION_PRE);
  grt_string_builder_appendf(out, "        if (v%u == 0u) break;\n",
                             kernel->sort.comparator);
  for (uint32_t k = 0; k < n; ++k) {
    const char* storage = grtc_glsl_type(kernel->bindings[n + k].elem)->storage;
    grt_string_builder_appendf(
        out, "        { %s x = b%u[uint(i)]; b%u[uint(i)] = b%u[uint(j)]; b%u[uint(j)] = x; }\n",
        storage, n + k, n + k, n + k, n + k);
  }
  grt_string_builder_append_cstring(out, "      }\n    }\n  }\n}\n");
  return grt_ok_status();
}

// ACC(0) of a MATMUL kernel: 16x16 output blocks per workgroup (the
// workgroup walks its tile's blocks), K in steps of 16 through shared
// memory, one output element per invocation; then PRE, POST and the
// stores with ACC(0) bound (plus the accumulator's initial value). The i8
// form stages int tiles (each i8 widened once, when it is loaded) and
// sums int products.
static void grtc_glsl_emit_matmul_kernel(grtc_glsl_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  const grtc_kmatmul_t* mm = &kernel->matmul;
  grt_string_builder_t* o = e->out;
  bool i8 = grtc_glsl_matmul_is_i8(kernel);
  const char* type = i8 ? "int" : "float";
  const char* zero = i8 ? "0" : "0.0";
  const char* widen = i8 ? "int(" : "";
  const char* widened = i8 ? ")" : "";
  uint32_t rank = kernel->parallel_rank, dm = rank - 2, dn = rank - 1;
  const int T = GRTC_GLSL_MM_TILE;
  char k_size[24];
  grtc_glsl_size(k_size, sizeof(k_size), mm->k);
  // Bounds-checked kernels (grtc_c_family_bounds_checked): an element
  // outside its binding reads 0 and is reported (grt_in; the epilogue's
  // accesses are guarded by the C family's emission).
  char a_guard[192] = "", b_guard[192] = "";
  if (grtc_c_family_bounds_checked(kernel)) {
    snprintf(a_guard, sizeof(a_guard),
             " && grt_in(uint64_t(abase + p%u * %" PRId64 "l + ka * %" PRId64
             "l) < uint64_t(b%u.length()), %uu)",
             dm, mm->lhs_stride_m, mm->lhs_stride_k, mm->lhs_binding, mm->lhs_binding);
    snprintf(b_guard, sizeof(b_guard),
             " && grt_in(uint64_t(bbase + kb * %" PRId64 "l + p%u * %" PRId64
             "l) < uint64_t(b%u.length()), %uu)",
             mm->rhs_stride_k, dn, mm->rhs_stride_n, mm->rhs_binding, mm->rhs_binding);
  }
  grtc_glsl_emit_tile_bounds(e);
  grt_string_builder_appendf(
      o,
      "  const uint tx = gl_LocalInvocationID.x %% %du, ty = "
      "gl_LocalInvocationID.x / %du;\n"
      "  int64_t batch_points = 1l",
      T, T);
  for (uint32_t d = 0; d < mm->batch_rank; ++d) {
    grt_string_builder_appendf(o, " * n%u", d);
  }
  grt_string_builder_appendf(
      o,
      ";\n"
      "  const int64_t bm = (n%u + %dl) / %dl, bn = (n%u + %dl) / %dl;\n"
      "  for (int64_t blk = 0l; blk < batch_points * bm * bn; ++blk) {\n"
      "    int64_t rest = blk;\n"
      "    const int64_t m_lo = lo%u + (rest / bn %% bm) * %dl;\n"
      "    const int64_t n_lo = lo%u + (rest %% bn) * %dl;\n"
      "    rest /= bm * bn;\n",
      dm, T - 1, T, dn, T - 1, T, dm, T, dn, T);
  for (uint32_t d = mm->batch_rank; d-- > 0;) {
    grt_string_builder_appendf(o,
                               "    const int64_t p%u = lo%u + rest %% n%u; "
                               "rest /= n%u;\n",
                               d, d, d, d);
  }
  grt_string_builder_appendf(o, "    const int64_t abase = 0l");
  for (uint32_t d = 0; d < mm->batch_rank; ++d) {
    grt_string_builder_appendf(o, " + p%u * %" PRId64 "l", d,
                               mm->lhs_batch_strides[d]);
  }
  grt_string_builder_appendf(o, ";\n    const int64_t bbase = 0l");
  for (uint32_t d = 0; d < mm->batch_rank; ++d) {
    grt_string_builder_appendf(o, " + p%u * %" PRId64 "l", d,
                               mm->rhs_batch_strides[d]);
  }
  grt_string_builder_appendf(
      o,
      ";\n"
      "    const int64_t p%u = m_lo + int64_t(ty), p%u = n_lo + int64_t(tx);\n"
      "    const bool inside = p%u < lo%u + n%u && p%u < lo%u + n%u;\n"
      "    %s sum = %s;\n"
      "    for (int64_t k0 = 0l; k0 < %s; k0 += %dl) {\n"
      "      const int64_t ka = k0 + int64_t(tx), kb = k0 + int64_t(ty);\n"
      "      grt_a[ty][tx] = (p%u < lo%u + n%u && ka < %s%s"
      ") ? %sb%u[uint(abase + p%u * %" PRId64 "l + ka * %" PRId64 "l)]%s : %s;\n"
      "      grt_b[ty][tx] = (p%u < lo%u + n%u && kb < %s%s"
      ") ? %sb%u[uint(bbase + kb * %" PRId64 "l + p%u * %" PRId64 "l)]%s : %s;\n"
      "      barrier();\n"
      "      for (int kk = 0; kk < %d; ++kk) sum += grt_a[ty][kk] * "
      "grt_b[kk][tx];\n"
      "      barrier();\n"
      "    }\n"
      "    if (inside) {\n",
      dm, dn, dm, dm, dm, dn, dn, dn, type, zero, k_size, T, dm, dm, dm,
      k_size, a_guard, widen, mm->lhs_binding, dm, mm->lhs_stride_m,
      mm->lhs_stride_k, widened, zero, dn, dn, dn, k_size, b_guard, widen,
      mm->rhs_binding, mm->rhs_stride_k, dn, mm->rhs_stride_n, widened, zero,
      T);
  grtc_glsl_set_depth(e, 3);
  grtc_glsl_emit_section(e, GRTC_KSECTION_PRE);
  grt_string_builder_appendf(o, "      const %s acc0 = sum + v%u;\n", type,
                             kernel->accs[0].init);
  grtc_glsl_emit_section(e, GRTC_KSECTION_POST);
  grtc_glsl_emit_stores(e);
  grt_string_builder_append_cstring(o, "    }\n  }\n}\n");
}

// ACC(0) of an i8 x i8 -> i32 CONV2D kernel as an implicit GEMM: M the
// tile's output pixels (n, oh, ow) in row-major order, N its output
// channels, K = (i, j, ci) over the window and the input channels; 16x16
// output blocks per step with 16-wide K slices staged in shared memory as
// int, the input's padding read as 0 (grtc_kconv_t); then PRE, POST and
// the stores per element, as the matmul's.
static void grtc_glsl_emit_iconv_kernel(grtc_glsl_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  const grtc_kconv_t* cv = &kernel->conv;
  grt_string_builder_t* o = e->out;
  const int T = GRTC_GLSL_MM_TILE;
  int64_t k_size = cv->kh * cv->kw * cv->c;
  grtc_glsl_emit_tile_bounds(e);
  grt_string_builder_appendf(
      o,
      "  const uint tx = gl_LocalInvocationID.x %% %du, ty = "
      "gl_LocalInvocationID.x / %du;\n"
      "  const int64_t pixels = n0 * n1 * n2;\n"
      "  const int64_t bm = (pixels + %dl) / %dl, bn = (n3 + %dl) / %dl;\n"
      "  for (int64_t blk = 0l; blk < bm * bn; ++blk) {\n"
      "    const int64_t m_lo = (blk / bn) * %dl, n_lo = (blk %% bn) * %dl;\n"
      // The pixel this invocation loads A for (row ty of the block) and the
      // one it computes (row ty too): the same.
      "    const int64_t q = m_lo + int64_t(ty);\n"
      "    const int64_t p2 = lo2 + q %% n2, p1 = lo1 + (q / n2) %% n1, "
      "p0 = lo0 + q / (n2 * n1);\n"
      "    const int64_t p3 = lo3 + n_lo + int64_t(tx);\n"
      "    const bool inside = q < pixels && p3 < lo3 + n3;\n"
      "    const int64_t ih0 = p1 * %" PRId64 "l - %" PRId64 "l, iw0 = p2 * %" PRId64
      "l - %" PRId64 "l;\n"
      "    int sum = 0;\n"
      "    for (int64_t k0 = 0l; k0 < %" PRId64 "l; k0 += %dl) {\n"
      "      const int64_t ka = k0 + int64_t(tx), kb = k0 + int64_t(ty);\n"
      "      int a = 0;\n"
      "      if (q < pixels && ka < %" PRId64 "l) {\n"
      "        const int64_t ci = ka %% %" PRId64 "l, ij = ka / %" PRId64 "l;\n"
      "        const int64_t ih = ih0 + (ij / %" PRId64 "l) * %" PRId64
      "l, iw = iw0 + (ij %% %" PRId64 "l) * %" PRId64 "l;\n"
      "        if (ih >= 0l && ih < %" PRId64 "l && iw >= 0l && iw < %" PRId64 "l) {\n"
      "          a = int(b%u[uint(p0 * %" PRId64 "l + ih * %" PRId64 "l + iw * %" PRId64
      "l + ci * %" PRId64 "l)]);\n"
      "        }\n"
      "      }\n"
      "      grt_a[ty][tx] = a;\n"
      "      int w = 0;\n"
      "      if (p3 < lo3 + n3 && kb < %" PRId64 "l) {\n"
      "        const int64_t ci = kb %% %" PRId64 "l, ij = kb / %" PRId64 "l;\n"
      "        w = int(b%u[uint((ij / %" PRId64 "l) * %" PRId64 "l + (ij %% %" PRId64
      "l) * %" PRId64 "l + ci * %" PRId64 "l + p3 * %" PRId64 "l)]);\n"
      "      }\n"
      "      grt_b[ty][tx] = w;\n"
      "      barrier();\n"
      "      for (int kk = 0; kk < %d; ++kk) sum += grt_a[ty][kk] * grt_b[kk][tx];\n"
      "      barrier();\n"
      "    }\n"
      "    if (inside) {\n",
      T, T, T - 1, T, T - 1, T, T, T, cv->stride_h, cv->pad_h, cv->stride_w,
      cv->pad_w, k_size, T, k_size, cv->c, cv->c, cv->kw, cv->dilation_h, cv->kw,
      cv->dilation_w, cv->h, cv->w, cv->input_binding, cv->input_strides[0],
      cv->input_strides[1], cv->input_strides[2], cv->input_strides[3], k_size,
      cv->c, cv->c, cv->filter_binding, cv->kw, cv->filter_strides[0], cv->kw,
      cv->filter_strides[1], cv->filter_strides[2], cv->filter_strides[3], T);
  grtc_glsl_set_depth(e, 3);
  grtc_glsl_emit_section(e, GRTC_KSECTION_PRE);
  grt_string_builder_appendf(o, "      const int acc0 = sum + v%u;\n",
                             kernel->accs[0].init);
  grtc_glsl_emit_section(e, GRTC_KSECTION_POST);
  grtc_glsl_emit_stores(e);
  grt_string_builder_append_cstring(o, "    }\n  }\n}\n");
}

// The element types a kernel's shader touches (F64 also for converts to
// f16/bf16 that round through double).
static void grtc_glsl_used_types(const grtc_kernel_t* kernel,
                                 bool used[GRTC_ELEM_COUNT]) {
  memset(used, 0, sizeof(bool) * GRTC_ELEM_COUNT);
  used[GRTC_ELEM_I64] = true;  // indices
  used[GRTC_ELEM_I1] = true;   // predicates
  for (uint32_t b = 0; b < kernel->binding_count; ++b) {
    used[kernel->bindings[b].elem] = true;
  }
  for (uint32_t i = 0; i < kernel->inst_count; ++i) {
    const grtc_kinst_t* inst = &kernel->insts[i];
    used[inst->type] = true;
    if (inst->kind == GRTC_KINST_CONVERT &&
        grtc_glsl_is_small_float(inst->type)) {
      grtc_elem_t from = kernel->insts[inst->operands[0]].type;
      if (grtc_elem_bit_width(from) >= 32) used[GRTC_ELEM_F64] = true;
    }
  }
}

grt_status_t grtc_vulkan_emit_glsl(const grtc_kernel_t* kernel,
                                   grt_string_builder_t* out) {
  GRT_RETURN_IF_ERROR(grtc_kernel_verify(kernel));
  // Run-time splits are the CPU's (the driver sets them only when every
  // target is a CPU); GPU kernels keep their compile-time tiles.
  if (kernel->split_max > 0) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "kernel %.*s: the Vulkan target has no run-time "
                           "split (split_max %u); expected compile-time tiles",
                           (int)kernel->name.size, kernel->name.data,
                           kernel->split_max);
  }
  bool* live = calloc(kernel->inst_count + 1, sizeof(bool));
  if (!live) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory emitting kernel %.*s",
                           (int)kernel->name.size, kernel->name.data);
  }
  bool matmul = grtc_glsl_uses_matmul(kernel);
  bool iconv = grtc_glsl_uses_iconv(kernel);
  grtc_glsl_mark_live(kernel, matmul || iconv, live);
  grtc_glsl_emitter_t e = {.out = out, .kernel = kernel, .live = live};
  bool used[GRTC_ELEM_COUNT];
  grtc_glsl_used_types(kernel, used);
  grt_string_builder_appendf(
      out,
      "#version 450\n"
      "// Generated by grt-compile (Vulkan target): kernel %.*s\n"
      "#extension GL_EXT_shader_explicit_arithmetic_types : require\n"
      "#extension GL_EXT_shader_8bit_storage : require\n"
      "#extension GL_EXT_shader_16bit_storage : require\n"
      "layout(local_size_x = %u) in;\n",
      (int)kernel->name.size, kernel->name.data,
      grtc_vulkan_workgroup_size(kernel));
  for (uint32_t b = 0; b < kernel->binding_count; ++b) {
    const grtc_kbinding_t* binding = &kernel->bindings[b];
    // Sort results may share memory with their operands: no readonly /
    // writeonly promises there.
    const char* access = "";
    if (kernel->kind == GRTC_KERNEL_LOOP) {
      access = binding->access == GRTC_KACCESS_READ    ? "readonly "
               : binding->access == GRTC_KACCESS_WRITE ? "writeonly "
                                                        : "";
    }
    grt_string_builder_appendf(
        out,
        "layout(std430, set = 0, binding = %u) %sbuffer B%u { %s b%u[]; };\n",
        b, access, b, grtc_glsl_type(binding->elem)->storage, b);
  }
  // Bounds-checked kernels report their first access outside a binding
  // in a status word the Vulkan HAL binds at set 1, binding 0 and reads
  // after the submission (hal/drivers/vulkan/command_buffer.h): 1 + the
  // binding; the access itself reads 0 or is skipped.
  if (grtc_c_family_bounds_checked(kernel)) {
    grt_string_builder_append_cstring(
        out,
        "layout(std430, set = 1, binding = 0) buffer GrtStatus { uint grt_status; };\n"
        "bool grt_in(bool inside, uint b) {\n"
        "  if (!inside) atomicCompSwap(grt_status, 0u, b + 1u);\n"
        "  return inside;\n"
        "}\n");
  }
  if (matmul || iconv) {
    const char* type = iconv || grtc_glsl_matmul_is_i8(kernel) ? "int" : "float";
    grt_string_builder_appendf(out,
                               "shared %s grt_a[%d][%d];\n"
                               "shared %s grt_b[%d][%d];\n",
                               type, GRTC_GLSL_MM_TILE, GRTC_GLSL_MM_TILE,
                               type, GRTC_GLSL_MM_TILE, GRTC_GLSL_MM_TILE);
  }
  // Symbolic extents: push constant x is extent x, read once as e<x>.
  if (kernel->extent_count) {
    grt_string_builder_appendf(
        out, "layout(push_constant) uniform GrtExtents { uint x[%u]; } grt_extents;\n",
        kernel->extent_count);
  }
  grtc_vulkan_emit_prelude(used, out);
  grt_string_builder_append_cstring(out, "void main() {\n");
  for (uint32_t x = 0; x < kernel->extent_count; ++x) {
    grt_string_builder_appendf(
        out, "  const int64_t e%u = int64_t(grt_extents.x[%u]);\n", x, x);
  }
  grtc_glsl_emit_workgroup_id(&e, kernel->workgroup_count);
  grt_status_t status = grt_ok_status();
  if (kernel->kind == GRTC_KERNEL_SORT) {
    status = grtc_glsl_emit_sort_kernel(&e);
  } else if (matmul) {
    grtc_glsl_emit_matmul_kernel(&e);
  } else if (iconv) {
    grtc_glsl_emit_iconv_kernel(&e);
  } else {
    if (kernel->serial) {
      grt_string_builder_append_cstring(&*out, "  if (wg != 0ul) return;\n");
    }
    grtc_glsl_emit_loop_kernel(&e);
  }
  free(live);
  GRT_RETURN_IF_ERROR(status);
  return grt_string_builder_status(out);
}
