// The instruction emission the C-language backends share (c_family.h).
#include "compiler/target/c_family/c_family.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const grtc_c_family_type_t grtc_c_family_types[GRTC_ELEM_COUNT] = {
    [GRTC_ELEM_I1] = {"uint8_t", "uint8_t", "i1", "uint8_t", "uint8_t", "%s",
                      "%s", NULL},
    [GRTC_ELEM_I8] = {"int8_t", "int8_t", "i8", "int8_t", "uint8_t", "%s",
                      "%s", NULL},
    [GRTC_ELEM_I16] = {"int16_t", "int16_t", "i16", "int16_t", "uint16_t",
                       "%s", "%s", NULL},
    [GRTC_ELEM_I32] = {"int32_t", "int32_t", "i32", "int32_t", "uint32_t",
                       "%s", "%s", NULL},
    [GRTC_ELEM_I64] = {"int64_t", "int64_t", "i64", "int64_t", "uint64_t",
                       "%s", "%s", NULL},
    [GRTC_ELEM_U8] = {"uint8_t", "uint8_t", "u8", "int8_t", "uint8_t", "%s",
                      "%s", NULL},
    [GRTC_ELEM_U16] = {"uint16_t", "uint16_t", "u16", "int16_t", "uint16_t",
                       "%s", "%s", NULL},
    [GRTC_ELEM_U32] = {"uint32_t", "uint32_t", "u32", "int32_t", "uint32_t",
                       "%s", "%s", NULL},
    [GRTC_ELEM_U64] = {"uint64_t", "uint64_t", "u64", "int64_t", "uint64_t",
                       "%s", "%s", NULL},
    [GRTC_ELEM_F16] = {"float", "uint16_t", "f32", NULL, NULL,
                       "grt_f16_to_f32(%s)", "grt_f32_to_f16(%s)", "f16"},
    [GRTC_ELEM_BF16] = {"float", "uint16_t", "f32", NULL, NULL,
                        "grt_bf16_to_f32(%s)", "grt_f32_to_bf16(%s)", "bf16"},
    [GRTC_ELEM_F32] = {"float", "float", "f32", NULL, NULL, "%s", "%s",
                       "f32"},
    [GRTC_ELEM_F64] = {"double", "double", "f64", NULL, NULL, "%s", "%s",
                       "f64"},
};

static const char* const grtc_c_family_compare_ops[] = {"==", "!=", "<",
                                                        "<=", ">",  ">="};

const grtc_c_family_type_t* grtc_c_family_type(grtc_elem_t elem) {
  return &grtc_c_family_types[elem];
}

const char* grtc_c_family_compare_op(uint32_t direction) {
  return grtc_c_family_compare_ops[direction];
}

// The dialect's record of |elem|.
static const grtc_c_family_type_t* grtc_c_family_dialect_type(
    const grtc_c_family_emitter_t* e, grtc_elem_t elem) {
  return e->dialect->types ? &e->dialect->types[elem]
                           : grtc_c_family_type(elem);
}

// `(uint8_t)(` in C, `uint(` in GLSL: the start of an i1 result.
static const char* grtc_c_family_flag_open(const grtc_c_family_emitter_t* e) {
  return e->dialect->glsl ? "uint(" : "(uint8_t)(";
}

// `(T)v<value>` in C, `T(v<value>)` in GLSL.
static void grtc_c_family_cast(const grtc_c_family_emitter_t* e,
                               const char* type, uint32_t value) {
  grt_string_builder_appendf(e->out, e->dialect->glsl ? "%s(v%u)" : "(%s)v%u",
                             type, value);
}

// `b<binding>[<index>]`, the index as uint in GLSL.
static void grtc_c_family_element(const grtc_c_family_emitter_t* e,
                                  char* buffer, size_t size, uint32_t binding,
                                  const char* index) {
  snprintf(buffer, size, e->dialect->glsl ? "b%u[uint(%s)]" : "b%u[%s]",
           binding, index);
}

// The element count of |binding| (see grtc_c_family_emitter_t's
// bounds_checked).
static void grtc_c_family_binding_length(const grtc_c_family_emitter_t* e,
                                         char* buffer, size_t size,
                                         uint32_t binding) {
  snprintf(buffer, size, e->dialect->glsl ? "uint64_t(b%u.length())" : "len%u",
           binding);
}

void grtc_c_family_wrap(grt_string_builder_t* out, const char* format,
                        const char* arg) {
  const char* hole = strstr(format, "%s");
  grt_string_builder_append(out,
                            grt_make_string_view(format, (size_t)(hole - format)));
  grt_string_builder_append_cstring(out, arg);
  grt_string_builder_append_cstring(out, hole + 2);
}

void grtc_c_family_emit_loop_var(grt_string_builder_t* out,
                                 const grtc_kinst_t* inst) {
  const char* prefix = inst->kind == GRTC_KINST_PINDEX   ? "p"
                       : inst->kind == GRTC_KINST_RINDEX ? "r"
                                                         : "acc";
  grt_string_builder_appendf(out, "%s%u", prefix, inst->dim);
}

void grtc_c_family_emit_helper_call(grt_string_builder_t* out,
                                    const grtc_kernel_t* kernel,
                                    const grtc_kinst_t* inst) {
  grtc_scalar_op_t op = (grtc_scalar_op_t)inst->op;
  grtc_elem_t operand_type = inst->type;
  if (op == GRTC_SCALAR_IS_FINITE) {
    operand_type = kernel->insts[inst->operands[0]].type;
  }
  grt_string_builder_appendf(out, "grt_%s_%s(", grtc_scalar_op_spelling(op),
                             grtc_c_family_type(operand_type)->helper);
  for (uint32_t k = 0; k < inst->operand_count; ++k) {
    // f16/bf16 values live in f32 registers; each op sees its operands
    // rounded to their type, as StableHLO rounds every op's result (a fused
    // chain must give what the ops would one at a time).
    if (k) grt_string_builder_append_cstring(out, ", ");
    grtc_c_family_emit_rounded(out, kernel, inst->operands[k]);
  }
  grt_string_builder_append_cstring(out, ")");
}

void grtc_c_family_emit_rounded(grt_string_builder_t* out,
                                const grtc_kernel_t* kernel, uint32_t value) {
  grtc_elem_t type = kernel->insts[value].type;
  if (type == GRTC_ELEM_F16 || type == GRTC_ELEM_BF16) {
    grt_string_builder_appendf(out, "grt_round_%s(v%u)",
                               grtc_c_family_type(type)->key, value);
  } else {
    grt_string_builder_appendf(out, "v%u", value);
  }
}

static void grtc_c_family_emit_const(const grtc_c_family_emitter_t* e,
                                     const grtc_kinst_t* inst) {
  const grtc_c_family_type_t* type = grtc_c_family_type(inst->type);
  if (grtc_elem_is_float(inst->type)) {
    double v = inst->value.f;
    bool is_f64 = inst->type == GRTC_ELEM_F64;
    if (v != v || (v == v + v && v != 0)) {  // NaN or infinity: no literal
      e->dialect->special_float(e->out, type->compute, v, is_f64);
    } else {
      grt_string_builder_appendf(e->out, "%a%s", v, is_f64 ? "" : "f");
    }
    return;
  }
  uint64_t bits = (uint64_t)inst->value.i;
  if (inst->type == GRTC_ELEM_I1) bits = bits != 0;
  grt_string_builder_appendf(e->out, "((%s)%s0x%" PRIx64 "%s)", type->compute,
                             e->dialect->int_literal_prefix, bits,
                             e->dialect->int_literal_suffix);
}

static bool grtc_c_family_is_positive_const(const grtc_kernel_t* kernel,
                                            uint32_t value) {
  const grtc_kinst_t* def = &kernel->insts[value];
  return def->kind == GRTC_KINST_CONST && def->value.i > 0;
}

// The C operator of an index-only op, or NULL when it needs its helper.
static const char* grtc_c_family_index_operator(
    const grtc_c_family_emitter_t* e, const grtc_kinst_t* inst) {
  switch ((grtc_scalar_op_t)inst->op) {
    case GRTC_SCALAR_ADD: return "+";
    case GRTC_SCALAR_SUB: return "-";
    case GRTC_SCALAR_MUL: return "*";
    case GRTC_SCALAR_DIV:
    case GRTC_SCALAR_REM:
      if (grtc_c_family_is_positive_const(e->kernel, inst->operands[1])) {
        return inst->op == GRTC_SCALAR_DIV ? "/" : "%";
      }
      return NULL;
    default:
      return NULL;
  }
}

// The operand of a float maximum (|is_max|) or minimum that is a constant
// neither NaN nor the zero ordering past the other (-0 for maximum, +0
// for minimum): grt_maximum_by/grt_minimum_by (prelude.c) give the full
// helper's result with it. UINT32_MAX when neither operand is one.
static uint32_t grtc_c_family_by_const_operand(const grtc_kernel_t* kernel,
                                               const grtc_kinst_t* inst,
                                               bool is_max) {
  for (uint32_t k = 0; k < 2; ++k) {
    const grtc_kinst_t* def = &kernel->insts[inst->operands[k]];
    if (def->kind != GRTC_KINST_CONST) continue;
    double c = def->value.f;
    if (c != c || (c == 0 && (signbit(c) != 0) == is_max)) continue;
    return k;
  }
  return UINT32_MAX;
}

static void grtc_c_family_emit_op(const grtc_c_family_emitter_t* e,
                                  uint32_t i) {
  const grtc_kinst_t* inst = &e->kernel->insts[i];
  grt_string_builder_t* out = e->out;
  // maximum/minimum with such a constant: the short helper (a quarter of
  // a requantizing epilogue's time went to the signed-zero selects).
  bool is_max = inst->op == GRTC_SCALAR_MAX;
  if ((is_max || inst->op == GRTC_SCALAR_MIN) && !e->dialect->glsl &&
      (inst->type == GRTC_ELEM_F32 || inst->type == GRTC_ELEM_F64)) {
    uint32_t k = grtc_c_family_by_const_operand(e->kernel, inst, is_max);
    if (k != UINT32_MAX) {
      grt_string_builder_appendf(out, "grt_%s_by_%s(v%u, v%u)",
                                 is_max ? "maximum" : "minimum",
                                 grtc_c_family_type(inst->type)->helper,
                                 inst->operands[1 - k], inst->operands[k]);
      return;
    }
  }
  if (e->index_only && e->index_only[i]) {
    const char* plain = grtc_c_family_index_operator(e, inst);
    if (plain) {
      grt_string_builder_appendf(out, "(v%u %s v%u)", inst->operands[0], plain,
                                 inst->operands[1]);
      return;
    }
  }
  grtc_c_family_emit_helper_call(out, e->kernel, inst);
}

static void grtc_c_family_rounded_operand(const grtc_c_family_emitter_t* e,
                                          uint32_t value) {
  grtc_c_family_emit_rounded(e->out, e->kernel, value);
}

static void grtc_c_family_emit_convert(const grtc_c_family_emitter_t* e,
                                       uint32_t i) {
  const grtc_kinst_t* inst = &e->kernel->insts[i];
  grt_string_builder_t* out = e->out;
  grtc_elem_t from = e->kernel->insts[inst->operands[0]].type;
  grtc_elem_t to = inst->type;
  const grtc_c_family_type_t* to_type = grtc_c_family_type(to);
  if (to == GRTC_ELEM_I1) {
    grt_string_builder_append_cstring(out, "(uint8_t)(");
    grtc_c_family_rounded_operand(e, inst->operands[0]);
    grt_string_builder_append_cstring(out, " != 0)");
  } else if (to == GRTC_ELEM_F16 || to == GRTC_ELEM_BF16) {
    bool narrow = e->dialect->narrow_from_f32 && grtc_elem_is_float(from) &&
                  from != GRTC_ELEM_F64;
    grt_string_builder_appendf(out, "grt_%s_to_f32(grt_%s_to_%s(%s", to_type->key,
                               narrow ? "f32" : "f64", to_type->key,
                               narrow ? "" : "(double)");
    grtc_c_family_rounded_operand(e, inst->operands[0]);
    grt_string_builder_append_cstring(out, "))");
  } else if (grtc_elem_is_float(from) && !grtc_elem_is_float(to)) {
    // From f32 (f16/bf16 in f32 registers) C and CUDA take the float form
    // (prelude.c), which vectorizes without widening; GLSL as before.
    bool narrow = from != GRTC_ELEM_F64 && !e->dialect->glsl;
    grt_string_builder_appendf(out, "grt_f2i_%s%s(%s", narrow ? "f_" : "",
                               to_type->helper, narrow ? "" : "(double)");
    grtc_c_family_rounded_operand(e, inst->operands[0]);
    grt_string_builder_append_cstring(out, ")");
  } else {
    grt_string_builder_appendf(out, "(%s)", to_type->compute);
    grtc_c_family_rounded_operand(e, inst->operands[0]);
  }
}

static void grtc_c_family_emit_compare(const grtc_c_family_emitter_t* e,
                                       uint32_t i) {
  const grtc_kinst_t* inst = &e->kernel->insts[i];
  grtc_elem_t type = e->kernel->insts[inst->operands[0]].type;
  const grtc_c_family_type_t* ctype = grtc_c_family_dialect_type(e, type);
  const char* op = grtc_c_family_compare_op(inst->op);
  uint32_t a = inst->operands[0], b = inst->operands[1];
  const char* flag = grtc_c_family_flag_open(e);
  switch (inst->compare_type) {
    case GRTC_CMP_TYPE_TOTALORDER:
      grt_string_builder_appendf(e->out, "%sgrt_key_%s(v%u) %s grt_key_%s(v%u))",
                                 flag, ctype->key, a, op, ctype->key, b);
      break;
    case GRTC_CMP_TYPE_SIGNED:
    case GRTC_CMP_TYPE_UNSIGNED: {
      bool is_signed = inst->compare_type == GRTC_CMP_TYPE_SIGNED;
      const char* cast = is_signed ? ctype->as_signed : ctype->as_unsigned;
      if (e->dialect->glsl && grtc_elem_bit_width(type) == 64) {
        // Three-way compare on 32-bit halves (see grt_cmp_s64).
        grt_string_builder_appendf(e->out, "%sgrt_cmp_%c64(", flag,
                                   is_signed ? 's' : 'u');
        grtc_c_family_cast(e, cast, a);
        grt_string_builder_append_cstring(e->out, ", ");
        grtc_c_family_cast(e, cast, b);
        grt_string_builder_appendf(e->out, ") %s 0)", op);
        break;
      }
      grt_string_builder_append_cstring(e->out, flag);
      grtc_c_family_cast(e, cast, a);
      grt_string_builder_appendf(e->out, " %s ", op);
      grtc_c_family_cast(e, cast, b);
      grt_string_builder_append_cstring(e->out, ")");
      break;
    }
    default:
      // f16/bf16 compare their rounded values (see emit_helper_call).
      grt_string_builder_append_cstring(e->out, flag);
      grtc_c_family_emit_rounded(e->out, e->kernel, a);
      grt_string_builder_appendf(e->out, " %s ", op);
      grtc_c_family_emit_rounded(e->out, e->kernel, b);
      grt_string_builder_append_cstring(e->out, ")");
      break;
  }
}

// BITCAST goes through the storage bit patterns (memcpy: no aliasing
// questions), so f16/bf16 reinterpret their 16 bits.
static void grtc_c_family_emit_bitcast(const grtc_c_family_emitter_t* e,
                                       uint32_t i) {
  const grtc_kinst_t* inst = &e->kernel->insts[i];
  grt_string_builder_t* out = e->out;
  const grtc_c_family_type_t* type = grtc_c_family_type(inst->type);
  const grtc_c_family_type_t* from_type =
      grtc_c_family_type(e->kernel->insts[inst->operands[0]].type);
  grt_string_builder_appendf(out, "%s%s v%u;\n%s{ %s bits_in = ", e->indent,
                             type->compute, i, e->indent, from_type->storage);
  char operand[24];
  snprintf(operand, sizeof(operand), "v%u", inst->operands[0]);
  grtc_c_family_wrap(out, from_type->to_storage, operand);
  grt_string_builder_appendf(
      out, "; %s bits_out; memcpy(&bits_out, &bits_in, sizeof(bits_out)); v%u = ",
      type->storage, i);
  grtc_c_family_wrap(out, type->from_storage, "bits_out");
  grt_string_builder_append_cstring(out, "; }\n");
}

void grtc_c_family_emit_inst(const grtc_c_family_emitter_t* e, uint32_t i) {
  const grtc_kinst_t* inst = &e->kernel->insts[i];
  grt_string_builder_t* out = e->out;
  const grtc_c_family_type_t* type = grtc_c_family_dialect_type(e, inst->type);
  if (inst->kind == GRTC_KINST_BITCAST && !e->dialect->emit_value) {
    grtc_c_family_emit_bitcast(e, i);
    return;
  }
  grt_string_builder_appendf(out, "%s%s%s v%u = ", e->indent,
                             e->dialect->glsl ? "" : "const ", type->compute,
                             i);
  if (e->dialect->emit_value && e->dialect->emit_value(e, i)) {
    grt_string_builder_append_cstring(out, ";\n");
    return;
  }
  char element[64], index[24];
  switch (inst->kind) {
    case GRTC_KINST_CONST:
      grtc_c_family_emit_const(e, inst);
      break;
    case GRTC_KINST_PINDEX:
    case GRTC_KINST_RINDEX:
    case GRTC_KINST_ACC:
      grtc_c_family_emit_loop_var(out, inst);
      break;
    case GRTC_KINST_ARG:
      grtc_c_family_element(e, element, sizeof(element),
                            e->arg_binding_base + inst->dim / 2,
                            inst->dim % 2 ? "j" : "i");
      grtc_c_family_wrap(out, type->from_storage, element);
      break;
    case GRTC_KINST_LOAD:
      snprintf(index, sizeof(index), "v%u", inst->operands[0]);
      grtc_c_family_element(e, element, sizeof(element), inst->binding, index);
      if (e->bounds_checked) {
        char guarded[192], length[48];
        grtc_c_family_binding_length(e, length, sizeof(length), inst->binding);
        const char* storage =
            grtc_c_family_dialect_type(e, e->kernel->bindings[inst->binding].elem)
                ->storage;
        if (e->dialect->glsl) {
          snprintf(guarded, sizeof(guarded), "(grt_in(uint64_t(v%u) < %s, %uu) ? %s : %s(0))",
                   inst->operands[0], length, inst->binding, element, storage);
        } else {
          snprintf(guarded, sizeof(guarded), "((uint64_t)v%u < %s ? %s : (%s)0)",
                   inst->operands[0], length, element, storage);
        }
        grtc_c_family_wrap(out, type->from_storage, guarded);
        break;
      }
      grtc_c_family_wrap(out, type->from_storage, element);
      break;
    case GRTC_KINST_OP:
      grtc_c_family_emit_op(e, i);
      break;
    case GRTC_KINST_COMPARE:
      grtc_c_family_emit_compare(e, i);
      break;
    case GRTC_KINST_CONVERT:
      grtc_c_family_emit_convert(e, i);
      break;
    case GRTC_KINST_EXTENT:
      grt_string_builder_appendf(out, "e%u", inst->dim);
      break;
    default:
      break;
  }
  grt_string_builder_append_cstring(out, ";\n");
}

void grtc_c_family_emit_stores(const grtc_c_family_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  for (uint32_t s = 0; s < kernel->store_count; ++s) {
    const grtc_kstore_t* store = &kernel->stores[s];
    const grtc_c_family_type_t* type =
        grtc_c_family_dialect_type(e, kernel->bindings[store->binding].elem);
    grt_string_builder_append_cstring(e->out, e->indent);
    if (store->predicate != GRTC_KINST_NONE) {
      grt_string_builder_appendf(e->out,
                                 e->dialect->glsl ? "if (v%u != 0u) " : "if (v%u) ",
                                 store->predicate);
    }
    if (e->bounds_checked) {
      char length[48];
      grtc_c_family_binding_length(e, length, sizeof(length), store->binding);
      if (e->dialect->glsl) {
        grt_string_builder_appendf(e->out, "if (grt_in(uint64_t(v%u) < %s, %uu)) ",
                                   store->index, length, store->binding);
      } else {
        grt_string_builder_appendf(e->out, "if ((uint64_t)v%u < %s) ", store->index,
                                   length);
      }
    }
    char element[64], index[24];
    snprintf(index, sizeof(index), "v%u", store->index);
    grtc_c_family_element(e, element, sizeof(element), store->binding, index);
    grt_string_builder_appendf(e->out, "%s = ", element);
    char value[24];
    snprintf(value, sizeof(value), "v%u", store->value);
    grtc_c_family_wrap(e->out, type->to_storage, value);
    grt_string_builder_append_cstring(e->out, ";\n");
  }
}

void grtc_c_family_emit_pattern_acc(const grtc_c_family_emitter_t* e,
                                    const char* value) {
  const grtc_kernel_t* kernel = e->kernel;
  const grtc_kinst_t* init = &kernel->insts[kernel->accs[0].init];
  bool zero_init = init->kind == GRTC_KINST_CONST && init->value.f == 0 &&
                   !signbit(init->value.f);
  grt_string_builder_appendf(e->out, "%sconst float acc0 = %s", e->indent,
                             value);
  if (!zero_init) {
    grt_string_builder_appendf(e->out, " + v%u", kernel->accs[0].init);
  }
  grt_string_builder_append_cstring(e->out, ";\n");
}

void grtc_c_family_sort_geometry(const grtc_kernel_t* kernel, int64_t* out_rows,
                                 int64_t* out_length, int64_t* out_stride) {
  int64_t outer = 1, inner = 1;
  for (uint32_t d = 0; d < kernel->sort.rank; ++d) {
    if (d < kernel->sort.dimension) outer *= kernel->sort.dims[d];
    if (d > kernel->sort.dimension) inner *= kernel->sort.dims[d];
  }
  *out_rows = outer * inner;
  *out_length = kernel->sort.dims[kernel->sort.dimension];
  *out_stride = inner;
}

void grtc_c_family_size(char* buffer, size_t size, int64_t dim) {
  if (grtc_kdim_is_static(dim)) {
    snprintf(buffer, size, "%" PRId64, dim);
  } else {
    snprintf(buffer, size, "e%u", grtc_kdim_extent(dim));
  }
}

void grtc_c_family_emit_tile_bounds(grt_string_builder_t* out,
                                    const grtc_kernel_t* kernel,
                                    const char* id_expr,
                                    const char* u64_suffix) {
  grt_string_builder_appendf(out, "  uint64_t t = %s;\n", id_expr);
  for (uint32_t d = kernel->parallel_rank; d-- > 0;) {
    int64_t dim = kernel->parallel_dims[d];
    bool symbolic = !grtc_kdim_is_static(dim);
    char size[24], tiles[48];
    grtc_c_family_size(size, sizeof(size), dim);
    int64_t tile = kernel->serial ? dim : kernel->tile[d];
    if (kernel->split_max > 0 && d + 1 == kernel->parallel_rank) {
      // A run-time split: the tile is split_tile, which the backend
      // computed from the split (grtc_kernel_split_tile).
      grt_string_builder_appendf(
          out,
          "  const uint64_t n%u = (uint64_t)((%s + split_tile - 1) / "
          "split_tile);\n",
          d, size);
      if (d == 0) {
        grt_string_builder_append_cstring(
            out, "  const int64_t lo0 = (int64_t)t * split_tile;\n");
      } else {
        grt_string_builder_appendf(
            out,
            "  const int64_t lo%u = (int64_t)(t %% n%u) * split_tile; t /= "
            "n%u;\n",
            d, d, d);
      }
      grt_string_builder_appendf(
          out,
          "  const int64_t hi%u = lo%u + split_tile < %s ? lo%u + split_tile "
          ": %s;\n",
          d, d, size, d, size);
      continue;
    }
    if (kernel->serial || (!symbolic && tile >= dim)) {
      grt_string_builder_appendf(
          out, "  const int64_t lo%u = 0, hi%u = %s;\n", d, d, size);
      continue;
    }
    if (symbolic && d > 0) {
      // ceil(extent / tile) tiles, at least one so the modulo is defined
      // when the extent is 0 (the tile is then empty).
      grt_string_builder_appendf(
          out,
          "  const uint64_t n%u = %s > 0 ? (uint64_t)((%s + %" PRId64
          ") / %" PRId64 ") : 1%s;\n",
          d, size, size, tile - 1, tile, u64_suffix);
      snprintf(tiles, sizeof(tiles), "n%u", d);
    } else {
      snprintf(tiles, sizeof(tiles), "%" PRId64 "%s", (dim + tile - 1) / tile,
               u64_suffix);
    }
    if (d == 0) {
      // Outermost: no modulo, so an out-of-range id yields an empty tile.
      grt_string_builder_appendf(out,
                                 "  const int64_t lo0 = (int64_t)t * %" PRId64
                                 ";\n",
                                 tile);
    } else {
      grt_string_builder_appendf(
          out,
          "  const int64_t lo%u = (int64_t)(t %% %s) * %" PRId64
          "; t /= %s;\n",
          d, tiles, tile, tiles);
    }
    grt_string_builder_appendf(out,
                               "  const int64_t hi%u = lo%u + %" PRId64
                               " < %s ? lo%u + %" PRId64 " : %s;\n",
                               d, d, tile, size, d, tile, size);
  }
  grt_string_builder_append_cstring(out, "  (void)t;\n");
}

bool grtc_c_family_has_reduction_loop(const grtc_kernel_t* kernel) {
  if (kernel->reduction_rank > 0 || kernel->acc_count > 0) return true;
  for (uint32_t i = 0; i < kernel->inst_count; ++i) {
    if (kernel->insts[i].section == GRTC_KSECTION_LOOP) return true;
  }
  return false;
}

bool grtc_c_family_bounds_checked(const grtc_kernel_t* kernel) {
  if (kernel->kind != GRTC_KERNEL_LOOP) return false;  // SORT: static
  if (grtc_kernel_is_symbolic(kernel)) return true;
  for (uint32_t b = 0; b < kernel->binding_count; ++b) {
    if (kernel->bindings[b].element_count < 0) return true;
  }
  return false;
}
