// The kernel IR as text: a header line, then the instructions one per line
// under a section label each time the section changes, then accumulators,
// stores and the pattern. Meant for people reading dumps, and stable so
// tests can compare it.
#include "compiler/kernel/printer.h"

#include <inttypes.h>
#include <stdio.h>

static const char* const grtc_kprint_access[] = {"?", "r", "w", "rw"};
static const char* const grtc_kprint_section[] = {"pre", "loop", "post"};

static void grtc_kprint_dims(grt_string_builder_t* out, const char* label,
                             uint32_t rank, const int64_t* dims) {
  grt_string_builder_appendf(out, " %s[", label);
  for (uint32_t d = 0; d < rank; ++d) {
    if (grtc_kdim_is_static(dims[d])) {
      grt_string_builder_appendf(out, "%s%" PRId64, d ? "x" : "", dims[d]);
    } else {
      grt_string_builder_appendf(out, "%se%u", d ? "x" : "",
                                 grtc_kdim_extent(dims[d]));
    }
  }
  grt_string_builder_append_cstring(out, "]");
}

// A kernel size: its number, or "eN" for symbolic extent N.
static const char* grtc_kprint_size(int64_t size, char buffer[24]) {
  if (grtc_kdim_is_static(size)) {
    snprintf(buffer, 24, "%" PRId64, size);
  } else {
    snprintf(buffer, 24, "e%u", grtc_kdim_extent(size));
  }
  return buffer;
}

static void grtc_kprint_operands(grt_string_builder_t* out,
                                 const grtc_kinst_t* inst) {
  for (uint32_t k = 0; k < inst->operand_count && k < 3; ++k) {
    grt_string_builder_appendf(out, "%s%%%u", k ? ", " : " ", inst->operands[k]);
  }
}

static void grtc_kprint_inst(grt_string_builder_t* out, uint32_t i,
                             const grtc_kinst_t* inst) {
  grt_string_builder_appendf(out, "    %%%u = ", i);
  const char* type = grtc_elem_spelling(inst->type);
  switch (inst->kind) {
    case GRTC_KINST_CONST:
      if (grtc_elem_is_float(inst->type)) {
        grt_string_builder_appendf(out, "const %.17g : %s", inst->value.f,
                                   type);
      } else {
        grt_string_builder_appendf(out, "const %" PRId64 " : %s",
                                   inst->value.i, type);
      }
      break;
    case GRTC_KINST_PINDEX:
      grt_string_builder_appendf(out, "pindex %u", inst->dim);
      break;
    case GRTC_KINST_RINDEX:
      grt_string_builder_appendf(out, "rindex %u", inst->dim);
      break;
    case GRTC_KINST_EXTENT:
      grt_string_builder_appendf(out, "extent %u", inst->dim);
      break;
    case GRTC_KINST_ACC:
      grt_string_builder_appendf(out, "acc %u : %s", inst->dim, type);
      break;
    case GRTC_KINST_ARG:
      grt_string_builder_appendf(out, "arg %u : %s", inst->dim, type);
      break;
    case GRTC_KINST_LOAD:
      grt_string_builder_appendf(out, "load.%s b%u[%%%u]", type, inst->binding,
                                 inst->operand_count ? inst->operands[0] : 0);
      break;
    case GRTC_KINST_OP:
      grt_string_builder_appendf(
          out, "%s.%s", grtc_scalar_op_spelling((grtc_scalar_op_t)inst->op),
          type);
      grtc_kprint_operands(out, inst);
      break;
    case GRTC_KINST_COMPARE:
      grt_string_builder_appendf(
          out, "compare.%s.%s",
          grtc_compare_direction_spelling((grtc_compare_direction_t)inst->op),
          grtc_compare_type_spelling(inst->compare_type));
      grtc_kprint_operands(out, inst);
      break;
    case GRTC_KINST_CONVERT:
    case GRTC_KINST_BITCAST:
      grt_string_builder_appendf(
          out, "%s.%s", inst->kind == GRTC_KINST_CONVERT ? "convert" : "bitcast",
          type);
      grtc_kprint_operands(out, inst);
      break;
    default:
      grt_string_builder_appendf(out, "<kind %u>", (unsigned)inst->kind);
      break;
  }
  grt_string_builder_append_cstring(out, "\n");
}

void grtc_kernel_print_tiling(const grtc_kernel_t* kernel, grt_string_builder_t* out) {
  if (kernel->kind != GRTC_KERNEL_SORT) {
    grtc_kprint_dims(out, "tile", kernel->parallel_rank, kernel->tile);
  }
  if (grtc_kernel_is_symbolic(kernel) && !kernel->workgroup_count) {
    grt_string_builder_append_cstring(out, " wg=?");
  } else {
    grt_string_builder_appendf(out, " wg=%u", kernel->workgroup_count);
  }
  if (kernel->split_max > 0) {
    grt_string_builder_appendf(out, " split<=%u", kernel->split_max);
  }
}

void grtc_kernel_print(const grtc_kernel_t* kernel, grt_string_builder_t* out) {
  grt_string_builder_appendf(out, "kernel @%.*s bindings(",
                             (int)kernel->name.size, kernel->name.data);
  for (uint32_t b = 0; b < kernel->binding_count; ++b) {
    const grtc_kbinding_t* binding = &kernel->bindings[b];
    if (binding->element_count < 0) {
      grt_string_builder_appendf(out, "%s%s[?] %s", b ? ", " : "",
                                 grtc_elem_spelling(binding->elem),
                                 grtc_kprint_access[binding->access & 3]);
    } else {
      grt_string_builder_appendf(
          out, "%s%s[%" PRId64 "] %s", b ? ", " : "",
          grtc_elem_spelling(binding->elem), binding->element_count,
          grtc_kprint_access[binding->access & 3]);
    }
  }
  grt_string_builder_append_cstring(out, ")");
  if (kernel->extent_count) {
    // Which tensor symbol each push constant carries.
    grt_string_builder_append_cstring(out, " extents(");
    for (uint32_t e = 0; e < kernel->extent_count; ++e) {
      grt_string_builder_appendf(out, "%se%u=s%u", e ? ", " : "", e,
                                 kernel->extent_symbols[e]);
    }
    grt_string_builder_append_cstring(out, ")");
  }
  if (kernel->kind == GRTC_KERNEL_SORT) {
    grt_string_builder_appendf(out, " sort(dim=%u)", kernel->sort.dimension);
    grtc_kprint_dims(out, "shape", kernel->sort.rank, kernel->sort.dims);
  } else {
    grtc_kprint_dims(out, "parallel", kernel->parallel_rank,
                     kernel->parallel_dims);
    if (kernel->reduction_rank) {
      grtc_kprint_dims(out, "reduction", kernel->reduction_rank,
                       kernel->reduction_dims);
    }
  }
  grtc_kernel_print_tiling(kernel, out);
  grt_string_builder_appendf(out, "%s\n", kernel->serial ? " serial" : "");
  uint32_t section = UINT32_MAX;
  for (uint32_t i = 0; i < kernel->inst_count; ++i) {
    const grtc_kinst_t* inst = &kernel->insts[i];
    if (inst->section != section) {
      section = inst->section;
      grt_string_builder_appendf(
          out, "  %s:\n",
          section <= GRTC_KSECTION_POST ? grtc_kprint_section[section] : "?");
    }
    grtc_kprint_inst(out, i, inst);
  }
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    grt_string_builder_appendf(out, "  acc %u : %s init %%%u update %%%u\n", a,
                               grtc_elem_spelling(kernel->accs[a].type),
                               kernel->accs[a].init, kernel->accs[a].update);
  }
  for (uint32_t s = 0; s < kernel->store_count; ++s) {
    const grtc_kstore_t* store = &kernel->stores[s];
    grt_string_builder_appendf(out, "  store b%u[%%%u] = %%%u", store->binding,
                               store->index, store->value);
    if (store->predicate != GRTC_KINST_NONE) {
      grt_string_builder_appendf(out, " if %%%u", store->predicate);
    }
    grt_string_builder_append_cstring(out, "\n");
  }
  if (kernel->kind == GRTC_KERNEL_SORT) {
    grt_string_builder_appendf(out, "  comparator %%%u\n",
                               kernel->sort.comparator);
  }
  char sizes[3][24];
  if (kernel->pattern == GRTC_KPATTERN_MATMUL) {
    const grtc_kmatmul_t* mm = &kernel->matmul;
    grt_string_builder_appendf(
        out,
        "  pattern matmul lhs=b%u rhs=b%u m=%s n=%s k=%s batch=%u%s\n",
        mm->lhs_binding, mm->rhs_binding, grtc_kprint_size(mm->m, sizes[0]),
        grtc_kprint_size(mm->n, sizes[1]), grtc_kprint_size(mm->k, sizes[2]),
        mm->batch_rank, mm->rhs_packed4 ? " rhs_packed4" : "");
  } else if (kernel->pattern == GRTC_KPATTERN_CONV2D) {
    const grtc_kconv_t* cv = &kernel->conv;
    grt_string_builder_appendf(
        out,
        "  pattern conv2d input=b%u filter=b%u in=%sx%" PRId64
        "x%" PRId64 "x%" PRId64 " filter=%" PRId64 "x%" PRId64 "x%" PRId64
        " stride=%" PRId64 "x%" PRId64 " pad=%" PRId64 "x%" PRId64
        " dilation=%" PRId64 "x%" PRId64 " groups=%" PRId64 "%s\n",
        cv->input_binding, cv->filter_binding, grtc_kprint_size(cv->n, sizes[0]), cv->h, cv->w, cv->c,
        cv->kh, cv->kw, cv->oc, cv->stride_h, cv->stride_w, cv->pad_h,
        cv->pad_w, cv->dilation_h, cv->dilation_w, cv->groups,
        cv->filter_packed ? " filter_packed" : "");
  } else if (kernel->pattern == GRTC_KPATTERN_POOL2D) {
    const grtc_kpool_t* pl = &kernel->pool;
    grt_string_builder_appendf(
        out,
        "  pattern pool2d input=b%u op=%s%s in=%sx%" PRId64
        "x%" PRId64 "x%" PRId64 " window=%" PRId64 "x%" PRId64
        " stride=%" PRId64 "x%" PRId64 " pad=%" PRId64 "x%" PRId64
        " dilation=%" PRId64 "x%" PRId64 "\n",
        pl->input_binding, grtc_scalar_op_spelling((grtc_scalar_op_t)pl->op),
        pl->tap_first ? " tap_first" : "", grtc_kprint_size(pl->n, sizes[0]), pl->c, pl->h, pl->w, pl->kh,
        pl->kw, pl->stride_h, pl->stride_w, pl->pad_h, pl->pad_w,
        pl->dilation_h, pl->dilation_w);
  } else if (kernel->pattern == GRTC_KPATTERN_ROWS) {
    if (kernel->rows.kind == GRTC_KROWS_SOFTMAX) {
      grt_string_builder_appendf(out, "  pattern rows softmax input=b%u n=%" PRId64 "\n",
                                 kernel->rows.input_binding, kernel->rows.n);
    } else {
      grt_string_builder_appendf(out, "  pattern rows two_pass n=%" PRId64 "\n",
                                 kernel->rows.n);
    }
  }
}
