// grtc_tensor_print: deterministic MLIR-like text of the tensor IR.
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/tensor/eval.h"
#include "compiler/tensor/passes.h"

// Constants print this many elements, then "...".
#define GRTC_PRINT_MAX_ELEMENTS 8

typedef enum grtc_attr_field_e {
  GRTC_FIELD_I64S,
  GRTC_FIELD_I64,
  GRTC_FIELD_BOOL,
  GRTC_FIELD_F64,
} grtc_attr_field_t;

// Which decoded attributes each op prints, in order.
typedef struct grtc_attr_desc_t {
  grtc_top_kind_t kind;
  const char* name;
  grtc_attr_field_t field;
  size_t offset;
} grtc_attr_desc_t;

#define A(kind, name, field, member) \
  {GRTC_TOP_##kind, name, GRTC_FIELD_##field, offsetof(grtc_top_attrs_t, member)}
static const grtc_attr_desc_t grtc_attr_descs[] = {
    A(IOTA, "dim", I64, dim),
    A(BROADCAST_IN_DIM, "dims", I64S, dims),
    A(TRANSPOSE, "dims", I64S, dims),
    A(SLICE, "start", I64S, start),
    A(SLICE, "limit", I64S, limit),
    A(SLICE, "strides", I64S, strides),
    A(DYNAMIC_SLICE, "sizes", I64S, sizes),
    A(CONCATENATE, "dim", I64, dim),
    A(GET_DIMENSION_SIZE, "dim", I64, dim),
    A(DYNAMIC_BROADCAST_IN_DIM, "dims", I64S, dims),
    A(DYNAMIC_IOTA, "dim", I64, dim),
    A(PAD, "low", I64S, low),
    A(PAD, "high", I64S, high),
    A(PAD, "interior", I64S, interior),
    A(REVERSE, "dims", I64S, dims),
    A(DOT_GENERAL, "lhs_batch", I64S, dot.lhs_batch),
    A(DOT_GENERAL, "rhs_batch", I64S, dot.rhs_batch),
    A(DOT_GENERAL, "lhs_contracting", I64S, dot.lhs_contracting),
    A(DOT_GENERAL, "rhs_contracting", I64S, dot.rhs_contracting),
    A(CONVOLUTION, "input_batch", I64, conv.input_batch),
    A(CONVOLUTION, "input_feature", I64, conv.input_feature),
    A(CONVOLUTION, "input_spatial", I64S, conv.input_spatial),
    A(CONVOLUTION, "kernel_input_feature", I64, conv.kernel_input_feature),
    A(CONVOLUTION, "kernel_output_feature", I64, conv.kernel_output_feature),
    A(CONVOLUTION, "kernel_spatial", I64S, conv.kernel_spatial),
    A(CONVOLUTION, "output_batch", I64, conv.output_batch),
    A(CONVOLUTION, "output_feature", I64, conv.output_feature),
    A(CONVOLUTION, "output_spatial", I64S, conv.output_spatial),
    A(CONVOLUTION, "window_strides", I64S, conv.window_strides),
    A(CONVOLUTION, "padding_low", I64S, conv.padding_low),
    A(CONVOLUTION, "padding_high", I64S, conv.padding_high),
    A(CONVOLUTION, "lhs_dilation", I64S, conv.lhs_dilation),
    A(CONVOLUTION, "rhs_dilation", I64S, conv.rhs_dilation),
    A(CONVOLUTION, "feature_group_count", I64, conv.feature_group_count),
    A(CONVOLUTION, "batch_group_count", I64, conv.batch_group_count),
    A(REDUCE, "dims", I64S, dims),
    A(REDUCE_WINDOW, "window_dimensions", I64S, window.dimensions),
    A(REDUCE_WINDOW, "window_strides", I64S, window.strides),
    A(REDUCE_WINDOW, "base_dilations", I64S, window.base_dilations),
    A(REDUCE_WINDOW, "window_dilations", I64S, window.window_dilations),
    A(REDUCE_WINDOW, "padding_low", I64S, window.padding_low),
    A(REDUCE_WINDOW, "padding_high", I64S, window.padding_high),
    A(GATHER, "offset_dims", I64S, gather.offset_dims),
    A(GATHER, "collapsed_slice_dims", I64S, gather.collapsed_slice_dims),
    A(GATHER, "operand_batching_dims", I64S, gather.operand_batching_dims),
    A(GATHER, "start_indices_batching_dims", I64S,
      gather.start_indices_batching_dims),
    A(GATHER, "start_index_map", I64S, gather.start_index_map),
    A(GATHER, "index_vector_dim", I64, gather.index_vector_dim),
    A(GATHER, "slice_sizes", I64S, gather.slice_sizes),
    A(GATHER, "indices_are_sorted", BOOL, gather.indices_are_sorted),
    A(SCATTER, "update_window_dims", I64S, scatter.update_window_dims),
    A(SCATTER, "inserted_window_dims", I64S, scatter.inserted_window_dims),
    A(SCATTER, "input_batching_dims", I64S, scatter.input_batching_dims),
    A(SCATTER, "scatter_indices_batching_dims", I64S,
      scatter.scatter_indices_batching_dims),
    A(SCATTER, "scatter_dims_to_operand_dims", I64S,
      scatter.scatter_dims_to_operand_dims),
    A(SCATTER, "index_vector_dim", I64, scatter.index_vector_dim),
    A(SCATTER, "indices_are_sorted", BOOL, scatter.indices_are_sorted),
    A(SCATTER, "unique_indices", BOOL, scatter.unique_indices),
    A(SORT, "dim", I64, dim),
    A(SORT, "is_stable", BOOL, is_stable),
    A(CHECK_ALMOST_EQ, "atol", F64, atol),
    A(CHECK_ALMOST_EQ, "rtol", F64, rtol),
    A(CHECK_CLOSE, "max_ulp_difference", I64, max_ulp),
    A(CHECK_CLOSE, "min_ulp_difference", I64, min_ulp),
};
#undef A

typedef struct grtc_printer_t {
  grt_string_builder_t* out;
  uint32_t indent;
  bool first_attr;
} grtc_printer_t;

// Symbolic dimensions print as "?" and their symbol: tensor<?s0x16xf32>.
static void grtc_print_type(grtc_printer_t* p, const grtc_ttype_t* type) {
  if (grtc_ttype_is_static(type)) {
    char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
    grt_string_builder_append_cstring(
        p->out, grtc_ttype_format(type, buffer, sizeof(buffer)));
    return;
  }
  grt_string_builder_append_cstring(p->out, "tensor<");
  for (uint32_t i = 0; i < type->rank; ++i) {
    if (grtc_dim_is_static(type->dims[i])) {
      grt_string_builder_appendf(p->out, "%lldx", (long long)type->dims[i]);
    } else {
      grt_string_builder_appendf(p->out, "?s%ux",
                                 grtc_dim_symbol(type->dims[i]));
    }
  }
  grt_string_builder_appendf(p->out, "%s>", grtc_elem_spelling(type->elem));
}

static void grtc_print_dim(grtc_printer_t* p, int64_t dim) {
  if (grtc_dim_is_static(dim)) {
    grt_string_builder_appendf(p->out, "%lld", (long long)dim);
  } else {
    grt_string_builder_appendf(p->out, "s%u", grtc_dim_symbol(dim));
  }
}

// A function's symbols and the relations its ops imply, as comments:
//   // s0: argument 0 dimension 0
//   // s2: result 0 dimension 0 of 'stablehlo.dynamic_reshape' at 5:10 = s0
//   // relation s2 == s0: 'stablehlo.dynamic_reshape' at 5:10 (output shape)
static void grtc_print_shapes(grtc_printer_t* p, const grtc_tmodule_t* module,
                              const grtc_tfunc_t* func) {
  const grtc_tshapes_t* shapes = module->shapes;
  for (uint32_t i = 0; i < shapes->sym_count; ++i) {
    const grtc_tsym_t* sym = &shapes->syms[i];
    if (sym->func != func) continue;
    grt_string_builder_appendf(p->out, "    // s%u: ", i);
    if (sym->name) grt_string_builder_appendf(p->out, "'%s', ", sym->name);
    if (sym->origin == GRTC_SYM_ARGUMENT) {
      grt_string_builder_appendf(p->out, "argument %u dimension %u",
                                 sym->index, sym->axis);
    } else if (sym->op) {
      grt_string_builder_appendf(p->out, "result %u dimension %u of '%s' at %u:%u",
                                 sym->index, sym->axis,
                                 grtc_top_kind_name(sym->op->kind),
                                 sym->op->line, sym->op->column);
    } else {
      grt_string_builder_appendf(p->out, "function result %u dimension %u",
                                 sym->index, sym->axis);
    }
    int64_t resolved = grtc_tmodule_resolve_dim(module, GRTC_DIM_SYMBOL(i));
    if (resolved != GRTC_DIM_SYMBOL(i)) {
      grt_string_builder_append_cstring(p->out, " = ");
      grtc_print_dim(p, resolved);
    }
    grt_string_builder_append_cstring(p->out, "\n");
  }
  for (uint32_t i = 0; i < shapes->rel_count; ++i) {
    const grtc_trel_t* rel = &shapes->rels[i];
    if (rel->func != func) continue;
    grt_string_builder_append_cstring(p->out, "    // relation ");
    grtc_print_dim(p, rel->a);
    grt_string_builder_append_cstring(
        p->out, rel->kind == GRTC_REL_EQ ? " == " : " >= ");
    grtc_print_dim(p, rel->b);
    if (rel->op) {
      grt_string_builder_appendf(p->out, ": '%s' at %u:%u (%s)",
                                 grtc_top_kind_name(rel->op->kind),
                                 rel->op->line, rel->op->column,
                                 rel->what ? rel->what : "");
    }
    grt_string_builder_append_cstring(p->out, "\n");
  }
}

static void grtc_print_indent(grtc_printer_t* p) {
  for (uint32_t i = 0; i < p->indent; ++i) {
    grt_string_builder_append_cstring(p->out, "  ");
  }
}

static void grtc_print_i64s(grtc_printer_t* p, grtc_i64s_t list) {
  grt_string_builder_append_cstring(p->out, "[");
  for (uint32_t i = 0; i < list.count; ++i) {
    grt_string_builder_appendf(p->out, "%s%lld", i ? ", " : "",
                               (long long)list.values[i]);
  }
  grt_string_builder_append_cstring(p->out, "]");
}

// The shortest decimal that reads back as |x| in |elem|, always with a '.'
// or exponent so it reads as a float.
static void grtc_print_float(grtc_printer_t* p, grtc_elem_t elem, double x) {
  if (isnan(x)) {
    grt_string_builder_append_cstring(p->out, signbit(x) ? "-nan" : "nan");
    return;
  }
  if (isinf(x)) {
    grt_string_builder_append_cstring(p->out, x < 0 ? "-inf" : "inf");
    return;
  }
  char text[40];
  for (int precision = 1; precision <= 17; ++precision) {
    snprintf(text, sizeof(text), "%.*g", precision, x);
    grtc_scalar_value_t back;
    back.f = strtod(text, NULL);
    if (grtc_eval_convert(GRTC_ELEM_F64, elem, back).f == x) break;
  }
  grt_string_builder_append_cstring(p->out, text);
  if (!strpbrk(text, ".e")) grt_string_builder_append_cstring(p->out, ".0");
}

static void grtc_print_element(grtc_printer_t* p, grtc_elem_t elem,
                               const uint8_t* bytes) {
  grtc_scalar_value_t v = grtc_eval_load(elem, bytes);
  if (grtc_elem_is_float(elem)) {
    grtc_print_float(p, elem, v.f);
  } else if (elem == GRTC_ELEM_I1) {
    grt_string_builder_append_cstring(p->out, v.u ? "true" : "false");
  } else if (grtc_elem_is_signed_integer(elem)) {
    grt_string_builder_appendf(p->out, "%lld", (long long)v.i);
  } else {
    grt_string_builder_appendf(p->out, "%llu", (unsigned long long)v.u);
  }
}

static void grtc_print_constant(grtc_printer_t* p, const grtc_top_t* op) {
  const grtc_ttype_t* type = &op->results[0].type;
  size_t size = grtc_elem_byte_size(type->elem);
  grt_string_builder_append_cstring(p->out, " dense<");
  if (op->attrs.constant.splat || type->rank == 0) {
    if (op->attrs.constant.size >= size) {
      grtc_print_element(p, type->elem, op->attrs.constant.data);
    }
  } else {
    int64_t count = grtc_ttype_element_count(type);
    grt_string_builder_append_cstring(p->out, "[");
    for (int64_t i = 0; i < count && i < GRTC_PRINT_MAX_ELEMENTS; ++i) {
      if ((size_t)(i + 1) * size > op->attrs.constant.size) break;
      if (i) grt_string_builder_append_cstring(p->out, ", ");
      grtc_print_element(p, type->elem, op->attrs.constant.data + i * size);
    }
    if (count > GRTC_PRINT_MAX_ELEMENTS) {
      grt_string_builder_appendf(p->out, ", ... (%lld elements)",
                                 (long long)count);
    }
    grt_string_builder_append_cstring(p->out, "]");
  }
  grt_string_builder_append_cstring(p->out, ">");
  if (op->attrs.unfoldable) {
    grt_string_builder_append_cstring(p->out, " {unfoldable}");
  }
}

static void grtc_print_attr_name(grtc_printer_t* p, const char* name) {
  grt_string_builder_appendf(p->out, "%s%s = ", p->first_attr ? " {" : ", ",
                             name);
  p->first_attr = false;
}

static void grtc_print_attrs(grtc_printer_t* p, const grtc_top_t* op) {
  p->first_attr = true;
  if (op->kind == GRTC_TOP_COMPARE) {
    grtc_print_attr_name(p, "direction");
    grt_string_builder_append_cstring(
        p->out, grtc_compare_direction_spelling(op->attrs.compare_direction));
    if (op->attrs.compare_type != GRTC_CMP_TYPE_DEFAULT) {
      grtc_print_attr_name(p, "type");
      grt_string_builder_append_cstring(
          p->out, grtc_compare_type_spelling(op->attrs.compare_type));
    }
  }
  if (op->kind == GRTC_TOP_DISPATCH && op->attrs.tied) {
    grtc_print_attr_name(p, "tied_operand");
    grt_string_builder_appendf(p->out, "%u", op->attrs.tied_operand);
  }
  for (size_t i = 0; i < sizeof(grtc_attr_descs) / sizeof(grtc_attr_descs[0]);
       ++i) {
    const grtc_attr_desc_t* desc = &grtc_attr_descs[i];
    if (desc->kind != op->kind) continue;
    const char* field = (const char*)&op->attrs + desc->offset;
    grtc_print_attr_name(p, desc->name);
    switch (desc->field) {
      case GRTC_FIELD_I64S:
        grtc_print_i64s(p, *(const grtc_i64s_t*)field);
        break;
      case GRTC_FIELD_I64:
        grt_string_builder_appendf(p->out, "%lld",
                                   (long long)*(const int64_t*)field);
        break;
      case GRTC_FIELD_BOOL:
        grt_string_builder_append_cstring(
            p->out, *(const bool*)field ? "true" : "false");
        break;
      case GRTC_FIELD_F64:
        grtc_print_float(p, GRTC_ELEM_F64, *(const double*)field);
        break;
    }
  }
  if ((op->kind == GRTC_TOP_CHECK_EQ || op->kind == GRTC_TOP_CHECK_ALMOST_EQ) &&
      op->attrs.reference_rule) {
    // Printed only when set: the StableHLO interpreter's comparison.
    grtc_print_attr_name(p, "reference_rule");
    grt_string_builder_append_cstring(p->out, "true");
  }
  if (!p->first_attr) grt_string_builder_append_cstring(p->out, "}");
}

static void grtc_print_values(grtc_printer_t* p, grtc_tvalue_t* const* values,
                              uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    grt_string_builder_appendf(p->out, "%s%%%u", i ? ", " : "",
                               values[i]->id);
  }
}

// ": type" when every operand and result shares one type, ": operand
// types" for ops without results, else ": (operand types) -> result types".
static void grtc_print_signature(grtc_printer_t* p, const grtc_top_t* op) {
  const grtc_ttype_t* common = NULL;
  bool uniform = op->operand_count + op->result_count > 0;
  for (uint32_t i = 0; uniform && i < op->operand_count + op->result_count;
       ++i) {
    const grtc_ttype_t* type = i < op->operand_count
                                   ? &op->operands[i]->type
                                   : &op->results[i - op->operand_count].type;
    if (!common) common = type;
    uniform = grtc_ttype_equal(common, type);
  }
  if (op->operand_count + op->result_count == 0) return;
  grt_string_builder_append_cstring(p->out, " : ");
  if (op->result_count == 0) {
    // Terminators and checks, as MLIR prints func.return.
    for (uint32_t i = 0; i < op->operand_count; ++i) {
      if (i) grt_string_builder_append_cstring(p->out, ", ");
      grtc_print_type(p, &op->operands[i]->type);
    }
    return;
  }
  if (uniform && (op->result_count <= 1 || op->operand_count == 0)) {
    grtc_print_type(p, common);
    return;
  }
  grt_string_builder_append_cstring(p->out, "(");
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    if (i) grt_string_builder_append_cstring(p->out, ", ");
    grtc_print_type(p, &op->operands[i]->type);
  }
  grt_string_builder_append_cstring(p->out, ") -> ");
  if (op->result_count != 1) grt_string_builder_append_cstring(p->out, "(");
  for (uint32_t i = 0; i < op->result_count; ++i) {
    if (i) grt_string_builder_append_cstring(p->out, ", ");
    grtc_print_type(p, &op->results[i].type);
  }
  if (op->result_count != 1) grt_string_builder_append_cstring(p->out, ")");
}

static void grtc_print_block(grtc_printer_t* p, const grtc_tblock_t* block);

static void grtc_print_block_args(grtc_printer_t* p,
                                  const grtc_tblock_t* block) {
  grt_string_builder_append_cstring(p->out, "(");
  for (uint32_t i = 0; i < block->arg_count; ++i) {
    grt_string_builder_appendf(p->out, "%s%%%u: ", i ? ", " : "",
                               block->args[i].id);
    grtc_print_type(p, &block->args[i].type);
  }
  grt_string_builder_append_cstring(p->out, ")");
}

static void grtc_print_op(grtc_printer_t* p, const grtc_top_t* op) {
  grtc_print_indent(p);
  for (uint32_t i = 0; i < op->result_count; ++i) {
    grt_string_builder_appendf(p->out, "%s%%%u", i ? ", " : "",
                               op->results[i].id);
  }
  if (op->result_count) grt_string_builder_append_cstring(p->out, " = ");
  grt_string_builder_append_cstring(p->out, grtc_top_kind_name(op->kind));
  if (op->kind == GRTC_TOP_CALL || op->kind == GRTC_TOP_DISPATCH) {
    if (op->kind == GRTC_TOP_CALL) {
      grt_string_builder_appendf(
          p->out, " @%.*s(", op->attrs.callee ? (int)op->attrs.callee->name.size : 1,
          op->attrs.callee ? op->attrs.callee->name.data : "?");
    } else {
      grt_string_builder_appendf(p->out, " @%u (", op->attrs.kernel);
    }
    grtc_print_values(p, op->operands, op->operand_count);
    grt_string_builder_append_cstring(p->out, ")");
  } else if (op->operand_count) {
    grt_string_builder_append_cstring(p->out, " ");
    grtc_print_values(p, op->operands, op->operand_count);
  }
  if ((op->kind == GRTC_TOP_GLOBAL_LOAD || op->kind == GRTC_TOP_GLOBAL_STORE) &&
      op->attrs.global) {
    grt_string_builder_appendf(p->out, "%s@%.*s", op->operand_count ? ", " : " ",
                               GRT_SV_ARG(op->attrs.global->name));
  }
  if (op->kind == GRTC_TOP_CONSTANT) grtc_print_constant(p, op);
  grtc_print_attrs(p, op);
  if (op->kind == GRTC_TOP_SHAPE_ASSERTION && op->attrs.message) {
    grt_string_builder_appendf(p->out, " {error_message = \"%s\"}",
                               op->attrs.message);
  }
  grtc_print_signature(p, op);
  for (uint32_t i = 0; i < op->region_count; ++i) {
    grt_string_builder_append_cstring(p->out, i ? ", " : " ");
    grt_string_builder_append_cstring(p->out, "{\n");
    grtc_print_indent(p);
    grt_string_builder_append_cstring(p->out, "^bb0");
    grtc_print_block_args(p, op->regions[i]);
    grt_string_builder_append_cstring(p->out, ":\n");
    ++p->indent;
    grtc_print_block(p, op->regions[i]);
    --p->indent;
    grtc_print_indent(p);
    grt_string_builder_append_cstring(p->out, "}");
  }
  grt_string_builder_append_cstring(p->out, "\n");
}

static void grtc_print_block(grtc_printer_t* p, const grtc_tblock_t* block) {
  for (const grtc_top_t* op = block->first; op; op = op->next) {
    grtc_print_op(p, op);
  }
}

void grtc_tensor_print(const grtc_tmodule_t* module,
                       grt_string_builder_t* out) {
  grtc_printer_t p = {out, 1, true};
  grt_string_builder_appendf(out, "module @%.*s {\n", (int)module->name.size,
                             module->name.data);
  for (const grtc_tglobal_t* g = module->first_global; g; g = g->next) {
    grt_string_builder_appendf(out, "  util.global private mutable @%.*s : ",
                               GRT_SV_ARG(g->name));
    grtc_print_type(&p, &g->type);
    grt_string_builder_append_cstring(out, "\n");
  }
  for (const grtc_tfunc_t* func = module->first_func; func; func = func->next) {
    grt_string_builder_appendf(out, "  func.func %s@%.*s",
                               func->is_public ? "public " : "private ",
                               (int)func->name.size, func->name.data);
    grtc_print_block_args(&p, func->body);
    grt_string_builder_append_cstring(out, " -> (");
    for (uint32_t i = 0; i < func->result_count; ++i) {
      if (i) grt_string_builder_append_cstring(out, ", ");
      grtc_print_type(&p, &func->result_types[i]);
    }
    grt_string_builder_append_cstring(out, ") {\n");
    grtc_print_shapes(&p, module, func);
    p.indent = 2;
    grtc_print_block(&p, func->body);
    grt_string_builder_append_cstring(out, "  }\n");
  }
  grt_string_builder_append_cstring(out, "}\n");
}
