#include "compiler/vm_asm/assembler.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/name_index.h"
#include "compiler/mlir/printer.h"
#include "compiler/vm_asm/register_allocator.h"
#include "vm/bytecode_emitter.h"
#include "vm/features.h"
#include "vm/op_table.h"
#include "vm/variant.h"

// Rodata larger than this goes to the file's data area (mmapped in place).
#define GRTC_VM_RODATA_INLINE_LIMIT 4096
// vm.check.* failures carry this status code.
#define GRTC_VM_CHECK_STATUS GRT_STATUS_FAILED_PRECONDITION
// Scratch primitive slots after a function's own registers for the
// expansions of vm.check.* and a bare vm.cond_fail: 0 the failure condition,
// 1 the status code.
#define GRTC_VM_SCRATCH_SLOTS 2

typedef enum grtc_vm_symbol_kind_e {
  GRTC_VM_SYMBOL_FUNCTION,
  GRTC_VM_SYMBOL_IMPORT,
  GRTC_VM_SYMBOL_GLOBAL,
  GRTC_VM_SYMBOL_RODATA,
} grtc_vm_symbol_kind_t;

static const char* const grtc_vm_symbol_kind_names[] = {"a function", "an import",
                                                        "a global", "a rodata segment"};

typedef struct grtc_vm_symbol_t {
  grt_string_view_t name;
  grtc_vm_symbol_kind_t kind;
  uint32_t ordinal;             // function/import/rodata ordinal, global offset
  grt_vm_type_t global_type;    // globals
  grtc_operation_t* op;
} grtc_vm_symbol_t;

// One step of __init after the constant initial values, in declaration
// order: a vm.initializer, or a global's init(@function).
typedef struct grtc_vm_init_step_t {
  grtc_operation_t* global;  // the vm.global.* with init(@f), or NULL
  uint32_t function;         // the vm.initializer's function ordinal
} grtc_vm_init_step_t;

typedef struct grtc_vm_assembler_t {
  const char* file_name;
  grt_allocator_t allocator;
  grt_arena_t arena;
  grt_module_writer_t* writer;
  grt_vm_bytecode_emitter_t* emitter;
  uint64_t features;
  grt_arena_vec_t symbols;       // grtc_vm_symbol_t
  grt_name_index_t symbol_index;  // name -> index in |symbols|
  grt_arena_vec_t functions;     // grtc_operation_t*: vm.func, vm.initializer
  grt_arena_vec_t init_steps;    // grtc_vm_init_step_t
  grt_arena_vec_t globals;       // grtc_vm_symbol_t* with initial values
  uint32_t global_bytes;
  uint32_t global_ref_count;
  // The function being assembled.
  grtc_operation_t* function;
  grtc_vm_registers_t registers;
  grt_vm_label_t* labels;  // per block, in order
  bool scratch_used;
} grtc_vm_assembler_t;

static grt_status_t grtc_vm_oom(void) {
  return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory assembling");
}

static void* grtc_vm_alloc(grtc_vm_assembler_t* a, size_t size) {
  return grt_arena_alloc_zeroed(&a->arena, size ? size : 1);
}

//===----------------------------------------------------------------------===//
// Symbols and types
//===----------------------------------------------------------------------===//

static const grtc_vm_symbol_t* grtc_vm_find_symbol(const grtc_vm_assembler_t* a,
                                                   grt_string_view_t name) {
  uint32_t index = 0;
  if (!grt_name_index_find(&a->symbol_index, name, &index)) return NULL;
  return &((const grtc_vm_symbol_t*)a->symbols.data)[index];
}

static grt_status_t grtc_vm_add_symbol(grtc_vm_assembler_t* a, grtc_operation_t* op,
                                       grt_string_view_t name,
                                       grtc_vm_symbol_kind_t kind, uint32_t ordinal,
                                       grtc_vm_symbol_t** out_symbol) {
  const grtc_vm_symbol_t* existing = grtc_vm_find_symbol(a, name);
  if (existing) {
    return grtc_op_error(a->file_name, op, "redefinition of @%.*s (first defined at line %u)",
                         GRT_SV_ARG(name), existing->op->line);
  }
  grtc_vm_symbol_t symbol = {name, kind, ordinal, GRT_VM_TYPE_COUNT, op};
  GRT_RETURN_IF_ERROR(grt_name_index_insert(&a->symbol_index, name,
                                            a->symbols.count, NULL));
  GRT_RETURN_IF_ERROR(grt_arena_vec_push(&a->arena, &a->symbols, &symbol, sizeof(symbol)));
  if (out_symbol) *out_symbol = &((grtc_vm_symbol_t*)a->symbols.data)[a->symbols.count - 1];
  return grt_ok_status();
}

// The symbol an op's |attribute| (a @symbol) names, which must be |kind|.
static grt_status_t grtc_vm_symbol_operand(grtc_vm_assembler_t* a, grtc_operation_t* op,
                                           const char* attribute,
                                           grtc_vm_symbol_kind_t kind,
                                           const grtc_vm_symbol_t** out_symbol) {
  const grtc_attribute_t* attr = grtc_operation_attribute(op, attribute);
  if (!attr || attr->kind != GRTC_ATTR_SYMBOL_REF || attr->symbol.count != 1) {
    return grtc_op_error(a->file_name, op, "'%.*s' needs a @symbol naming %s",
                         GRT_SV_ARG(op->name), grtc_vm_symbol_kind_names[kind]);
  }
  grt_string_view_t name = attr->symbol.names[0];
  const grtc_vm_symbol_t* symbol = grtc_vm_find_symbol(a, name);
  bool ok = symbol && (symbol->kind == kind ||
                       (kind == GRTC_VM_SYMBOL_FUNCTION &&
                        symbol->kind == GRTC_VM_SYMBOL_IMPORT));
  if (!ok) {
    return grtc_op_error(a->file_name, op, "'%.*s' names @%.*s, which is %s; expected %s",
                         GRT_SV_ARG(op->name), GRT_SV_ARG(name),
                         symbol ? grtc_vm_symbol_kind_names[symbol->kind]
                                : "not defined in this vm.module",
                         grtc_vm_symbol_kind_names[kind]);
  }
  *out_symbol = symbol;
  return grt_ok_status();
}

static const grtc_type_t* grtc_vm_function_type(const grtc_operation_t* op) {
  const grtc_attribute_t* attr = grtc_operation_attribute(op, "function_type");
  if (!attr || attr->kind != GRTC_ATTR_TYPE || attr->type->kind != GRTC_TYPE_FUNCTION) {
    return NULL;
  }
  return attr->type;
}

static grt_string_view_t grtc_vm_string_attribute(const grtc_operation_t* op,
                                                  const char* name) {
  const grtc_attribute_t* attr = grtc_operation_attribute(op, name);
  if (!attr || attr->kind != GRTC_ATTR_STRING) return grt_string_view_empty();
  return attr->string;
}

static const char* grtc_vm_type_text(grtc_vm_assembler_t* a, const grtc_type_t* type) {
  char buffer[128];
  size_t length = grtc_format_type(type, buffer, sizeof(buffer));
  if (length >= sizeof(buffer)) length = sizeof(buffer) - 1;
  const char* text = grt_arena_strndup(&a->arena, buffer, length);
  return text ? text : "?";
}

// "0<args>_<results>"; arguments flagged in |variadic| (an array attribute
// of bools, or NULL) become spans "C<t>D", and a variadic tuple<a, b, ...>
// the span of groups "C<a><b>...D" (IREE's spelling of hal's binding lists).
static grt_status_t grtc_vm_calling_convention(grtc_vm_assembler_t* a,
                                               grtc_operation_t* op,
                                               const grtc_type_t* function_type,
                                               const grtc_attribute_t* variadic,
                                               grt_string_view_t* out_cconv) {
  uint32_t inputs = function_type->function.input_count;
  uint32_t total = inputs + function_type->function.result_count;
  size_t capacity = 3u * total + 5;
  for (uint32_t i = 0; i < inputs; ++i) {
    const grtc_type_t* type = function_type->function.types[i];
    if (type->kind == GRTC_TYPE_TUPLE) capacity += type->function.input_count;
  }
  char* text = grtc_vm_alloc(a, capacity);
  if (!text) return grtc_vm_oom();
  size_t n = 0;
  text[n++] = '0';
  for (uint32_t i = 0; i < total; ++i) {
    if (i == inputs) {
      if (inputs == 0) text[n++] = 'v';
      text[n++] = '_';
    }
    const grtc_type_t* type = function_type->function.types[i];
    bool span = i < inputs && variadic && variadic->kind == GRTC_ATTR_ARRAY &&
                i < variadic->array.count &&
                variadic->array.items[i]->kind == GRTC_ATTR_BOOL &&
                variadic->array.items[i]->boolean;
    // A span's group: the tuple's elements, or the one type.
    bool tuple = span && type->kind == GRTC_TYPE_TUPLE;
    uint32_t group = tuple ? type->function.input_count : 1;
    if (tuple && group == 0) {
      return grtc_op_error(a->file_name, op,
                           "argument %u of @%.*s is a span of empty tuples", i,
                           GRT_SV_ARG(grtc_vm_string_attribute(op, "sym_name")));
    }
    if (span) text[n++] = 'C';
    for (uint32_t j = 0; j < group; ++j) {
      const grtc_type_t* element = tuple ? type->function.types[j] : type;
      grt_vm_type_t vm_type;
      if (!grtc_vm_register_type(element, &vm_type)) {
        return grtc_op_error(a->file_name, op,
                             "%s %u of @%.*s has type %s, which the VM cannot pass "
                             "(expected i32, i64, f32, f64 or a ref%s)",
                             i < inputs ? "argument" : "result",
                             i < inputs ? i : i - inputs,
                             GRT_SV_ARG(grtc_vm_string_attribute(op, "sym_name")),
                             grtc_vm_type_text(a, type),
                             span ? ", or a tuple of them" : "");
      }
      text[n++] = grt_vm_value_type_cconv_char((grt_vm_value_type_t)(vm_type + 1));
    }
    if (span) text[n++] = 'D';
  }
  if (total == inputs) {
    if (inputs == 0) text[n++] = 'v';
    text[n++] = '_';
    text[n++] = 'v';
  }
  *out_cconv = grt_make_string_view(text, n);
  return grt_ok_status();
}

static bool grtc_vm_is_variadic_argument(const grtc_operation_t* import, uint32_t i) {
  const grtc_attribute_t* variadic = grtc_operation_attribute(import, "is_variadic");
  return variadic && variadic->kind == GRTC_ATTR_ARRAY && i < variadic->array.count &&
         variadic->array.items[i]->kind == GRTC_ATTR_BOOL &&
         variadic->array.items[i]->boolean;
}

//===----------------------------------------------------------------------===//
// Emission helpers
//===----------------------------------------------------------------------===//

// Emits one op, recording the extension it needs; emitter errors are
// reported at |source|.
static grt_status_t grtc_vm_emit(grtc_vm_assembler_t* a, const grtc_operation_t* source,
                                 grt_vm_op_t op, const grt_vm_operand_t* operands,
                                 size_t count) {
  grt_vm_prefix_t prefix = grt_vm_op_info(op)->prefix;
  if (prefix != GRT_VM_PREFIX_NONE) a->features |= grt_vm_prefix_info(prefix)->feature;
  grt_status_t status = grt_vm_bytecode_emitter_emit(a->emitter, op, operands, count);
  if (grt_status_is_ok(status)) return status;
  grt_status_t error = grtc_op_error(a->file_name, source, "%s", grt_status_message(status));
  grt_status_free(status);
  return error;
}

static grt_status_t grtc_vm_emit_named(grtc_vm_assembler_t* a,
                                       const grtc_operation_t* source,
                                       const char* mnemonic,
                                       const grt_vm_operand_t* operands, size_t count) {
  grt_vm_op_t op;
  if (!grt_vm_op_lookup(grt_make_cstring_view(mnemonic), &op)) {
    return grtc_op_error(a->file_name, source, "no VM op '%s' for '%.*s'", mnemonic,
                         GRT_SV_ARG(source->name));
  }
  return grtc_vm_emit(a, source, op, operands, count);
}

static grt_status_t grtc_vm_set_location(grtc_vm_assembler_t* a,
                                         const grtc_operation_t* op) {
  char text[512];
  grt_string_view_t file;
  uint32_t line = 0, column = 0;
  int length;
  if (op->location && grtc_location_file_position(op->location, &file, &line, &column)) {
    length = snprintf(text, sizeof(text), "%.*s:%u:%u", GRT_SV_ARG(file), line, column);
  } else {
    length = snprintf(text, sizeof(text), "%s:%u:%u", a->file_name, op->line, op->column);
  }
  if (length < 0) return grt_ok_status();
  size_t size = (size_t)length < sizeof(text) ? (size_t)length : sizeof(text) - 1;
  return grt_vm_bytecode_emitter_set_location(a->emitter, grt_make_string_view(text, size));
}

// The register of a use: |value| must be |expected| (GRT_VM_TYPE_COUNT: any);
// |flat_index| numbers the use among op's operands and successor operands.
static grt_status_t grtc_vm_use(grtc_vm_assembler_t* a, const grtc_operation_t* op,
                                const grtc_value_t* value, uint32_t flat_index,
                                grt_vm_type_t expected, const char* what,
                                grt_vm_register_t* out_register) {
  grt_vm_register_t reg = grtc_vm_value_register(&a->registers, value);
  if (expected != GRT_VM_TYPE_COUNT && reg.type != expected) {
    return grtc_op_error(a->file_name, op, "%s of '%.*s' (%.*s) is %s, expected %s", what,
                         GRT_SV_ARG(op->name), GRT_SV_ARG(value->name),
                         grt_vm_type_name(reg.type), grt_vm_type_name(expected));
  }
  reg.move = reg.type == GRT_VM_TYPE_REF && grtc_vm_is_last_use(&a->registers, op, flat_index);
  *out_register = reg;
  return grt_ok_status();
}

static grt_status_t grtc_vm_def(grtc_vm_assembler_t* a, const grtc_operation_t* op,
                                uint32_t index, grt_vm_type_t expected,
                                grt_vm_register_t* out_register) {
  grt_vm_register_t reg = grtc_vm_value_register(&a->registers, &op->results[index]);
  if (expected != GRT_VM_TYPE_COUNT && reg.type != expected) {
    return grtc_op_error(a->file_name, op, "result %u of '%.*s' is %s, expected %s", index,
                         GRT_SV_ARG(op->name), grt_vm_type_name(reg.type),
                         grt_vm_type_name(expected));
  }
  *out_register = reg;
  return grt_ok_status();
}

static grt_vm_label_t grtc_vm_block_label(const grtc_vm_assembler_t* a,
                                          const grtc_block_t* block) {
  uint32_t b = 0;
  for (const grtc_block_t* it = a->function->regions[0]->first; it && it != block;
       it = it->next) {
    ++b;
  }
  return a->labels[b];
}

// A B operand: successor |s| of |op| with its block arguments as remaps.
static grt_status_t grtc_vm_branch(grtc_vm_assembler_t* a, const grtc_operation_t* op,
                                   uint32_t s, grt_vm_branch_t* out_branch) {
  const grtc_successor_t* successor = &op->successors[s];
  const grtc_block_t* target = successor->block;
  if (successor->operand_count != target->arg_count) {
    return grtc_op_error(a->file_name, op, "branch passes %u arguments to %.*s, which takes %u",
                         successor->operand_count, GRT_SV_ARG(target->label),
                         target->arg_count);
  }
  uint32_t flat = op->operand_count;
  for (uint32_t i = 0; i < s; ++i) flat += op->successors[i].operand_count;
  grt_vm_remap_t* remaps = grtc_vm_alloc(a, sizeof(*remaps) * target->arg_count);
  if (!remaps) return grtc_vm_oom();
  uint16_t remap_count = 0;
  for (uint32_t i = 0; i < target->arg_count; ++i) {
    grt_vm_register_t destination = grtc_vm_value_register(&a->registers, &target->args[i]);
    const grtc_value_t* value = successor->operands[i];
    grt_vm_register_t source = grtc_vm_value_register(&a->registers, value);
    if (source.type != destination.type) {
      return grtc_op_error(a->file_name, op,
                           "branch passes %.*s (%s) to argument %u (%.*s) of %.*s, "
                           "which is %s",
                           GRT_SV_ARG(value->name), grt_vm_type_name(source.type), i,
                           GRT_SV_ARG(target->args[i].name), GRT_SV_ARG(target->label),
                           grt_vm_type_name(destination.type));
    }
    GRT_RETURN_IF_ERROR(grtc_vm_use(a, op, value, flat + i, GRT_VM_TYPE_COUNT, "", &source));
    // A value already in its argument's register (the allocator coalesces
    // loop-carried values) needs no copy: no other entry can write that
    // register or read a different value from it.
    if (source.type != GRT_VM_TYPE_REF && source.ordinal == destination.ordinal) continue;
    remaps[remap_count].source = source;
    remaps[remap_count].destination = destination.ordinal;
    ++remap_count;
  }
  out_branch->label = grtc_vm_block_label(a, target);
  out_branch->remaps = remaps;
  out_branch->remap_count = remap_count;
  return grt_ok_status();
}

// A register list of |count| values checked against |types| (NULL: any).
static grt_status_t grtc_vm_use_list(grtc_vm_assembler_t* a, const grtc_operation_t* op,
                                     grtc_value_t* const* values, const uint32_t* flat,
                                     uint32_t count, const grtc_type_t* const* types,
                                     const char* what, grt_vm_operand_t* out_operand) {
  grt_vm_register_t* list = grtc_vm_alloc(a, sizeof(*list) * count);
  if (!list) return grtc_vm_oom();
  for (uint32_t i = 0; i < count; ++i) {
    grt_vm_type_t expected = GRT_VM_TYPE_COUNT;
    if (types && !grtc_vm_register_type(types[i], &expected)) expected = GRT_VM_TYPE_COUNT;
    char label[64];
    snprintf(label, sizeof(label), "%s %u", what, i);
    GRT_RETURN_IF_ERROR(grtc_vm_use(a, op, values[i], flat[i], expected, label, &list[i]));
  }
  *out_operand = grt_vm_operand_list(list, (uint16_t)count);
  return grt_ok_status();
}

static grt_status_t grtc_vm_def_list(grtc_vm_assembler_t* a, const grtc_operation_t* op,
                                     const grtc_type_t* const* types,
                                     grt_vm_operand_t* out_operand) {
  grt_vm_register_t* list = grtc_vm_alloc(a, sizeof(*list) * op->result_count);
  if (!list) return grtc_vm_oom();
  for (uint32_t i = 0; i < op->result_count; ++i) {
    grt_vm_type_t expected = GRT_VM_TYPE_COUNT;
    if (types && !grtc_vm_register_type(types[i], &expected)) expected = GRT_VM_TYPE_COUNT;
    GRT_RETURN_IF_ERROR(grtc_vm_def(a, op, i, expected, &list[i]));
  }
  *out_operand = grt_vm_operand_list(list, (uint16_t)op->result_count);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Ops through the op table
//===----------------------------------------------------------------------===//

// Walks an op-table operand string, taking SSA operands, successors and
// results in order and attributes by what each operand kind means.
typedef struct grtc_vm_lowering_t {
  grtc_vm_assembler_t* a;
  grtc_operation_t* op;
  grt_vm_op_t vm_op;
  const uint32_t* order;  // SSA operand order (NULL: as written)
  bool zero;              // a `.zero` constant: immediate 0
  const char* string;     // the S operand, or NULL for the message
  const char* value_attribute;  // where k/K immediates come from
  uint32_t next_operand;
  uint32_t next_successor;
  uint32_t next_result;
} grtc_vm_lowering_t;

static uint32_t grtc_vm_next_operand(grtc_vm_lowering_t* l) {
  uint32_t i = l->next_operand++;
  return l->order ? l->order[i] : i;
}

static grt_status_t grtc_vm_take_operand(grtc_vm_lowering_t* l, char kind,
                                         grt_vm_register_t* out_register) {
  if (l->next_operand >= l->op->operand_count) {
    return grtc_op_error(l->a->file_name, l->op, "'%.*s' needs more than %u operands",
                         GRT_SV_ARG(l->op->name), l->op->operand_count);
  }
  uint32_t index = grtc_vm_next_operand(l);
  char what[32];
  snprintf(what, sizeof(what), "operand %u", index);
  return grtc_vm_use(l->a, l->op, l->op->operands[index], index,
                     grt_vm_type_from_operand_char(kind), what, out_register);
}

// The result kind character of the op ('i' for "k>i"), for immediates.
static char grtc_vm_result_kind(const char* operands) {
  const char* arrow = strchr(operands, '>');
  return arrow ? arrow[1] : 0;
}

static grt_status_t grtc_vm_immediate(grtc_vm_lowering_t* l, char result_kind,
                                      uint64_t* out_value) {
  if (l->zero) {
    *out_value = 0;
    return grt_ok_status();
  }
  const grtc_attribute_t* value = grtc_operation_attribute(l->op, l->value_attribute);
  bool number = value && (value->kind == GRTC_ATTR_INTEGER || value->kind == GRTC_ATTR_FLOAT ||
                          value->kind == GRTC_ATTR_BOOL);
  if (!number) {
    return grtc_op_error(l->a->file_name, l->op, "'%.*s' needs a numeric value",
                         GRT_SV_ARG(l->op->name));
  }
  double floating = value->kind == GRTC_ATTR_FLOAT ? value->floating
                    : value->kind == GRTC_ATTR_BOOL ? (double)value->boolean
                                                    : (double)value->integer;
  switch (result_kind) {
    case 'f': *out_value = grtc_float_encode(floating, GRTC_FLOAT_F32); break;
    case 'F': *out_value = grtc_float_encode(floating, GRTC_FLOAT_F64); break;
    default: {
      if (value->kind == GRTC_ATTR_FLOAT) {
        return grtc_op_error(l->a->file_name, l->op, "'%.*s' needs an integer value, found %g",
                             GRT_SV_ARG(l->op->name), value->floating);
      }
      int64_t integer = value->kind == GRTC_ATTR_BOOL ? (int64_t)value->boolean : value->integer;
      *out_value = result_kind == 'i' ? (uint32_t)integer : (uint64_t)integer;
      break;
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_vm_global(grtc_vm_lowering_t* l, char kind, uint32_t* out_ordinal) {
  const grtc_vm_symbol_t* global = NULL;
  GRT_RETURN_IF_ERROR(grtc_vm_symbol_operand(l->a, l->op, "global", GRTC_VM_SYMBOL_GLOBAL,
                                             &global));
  bool ok = kind == 'G' ? global->global_type == GRT_VM_TYPE_REF
            : kind == 'd' ? grt_vm_type_slot_count(global->global_type) == 2
                          : global->global_type != GRT_VM_TYPE_REF &&
                                grt_vm_type_slot_count(global->global_type) == 1;
  if (!ok) {
    return grtc_op_error(l->a->file_name, l->op, "'%.*s' cannot access @%.*s, a %s global",
                         GRT_SV_ARG(l->op->name), GRT_SV_ARG(global->name),
                         grt_vm_type_name(global->global_type));
  }
  *out_ordinal = global->ordinal;
  return grt_ok_status();
}

static grt_status_t grtc_vm_lower_table_op(grtc_vm_lowering_t* l) {
  grtc_vm_assembler_t* a = l->a;
  grtc_operation_t* op = l->op;
  const char* kinds = grt_vm_op_info(l->vm_op)->operands;
  size_t kind_count = strlen(kinds);
  grt_vm_operand_t* operands = grtc_vm_alloc(a, sizeof(grt_vm_operand_t) * kind_count);
  if (!operands) return grtc_vm_oom();
  size_t count = 0;
  bool results = false;
  for (const char* k = kinds; *k; ++k) {
    grt_vm_operand_t* operand = &operands[count];
    if (*k == '>') {
      results = true;
      continue;
    }
    ++count;
    if (results) {
      if (*k == 'X') {
        GRT_RETURN_IF_ERROR(grtc_vm_def_list(a, op, NULL, operand));
        l->next_result = op->result_count;
        continue;
      }
      if (l->next_result >= op->result_count) {
        return grtc_op_error(a->file_name, op, "'%.*s' must have a result",
                             GRT_SV_ARG(op->name));
      }
      operand->kind = GRT_VM_OPERAND_REGISTER;
      GRT_RETURN_IF_ERROR(grtc_vm_def(a, op, l->next_result++,
                                      grt_vm_type_from_operand_char(*k), &operand->reg));
      continue;
    }
    switch (*k) {
      case 'i': case 'I': case 'f': case 'F': case 'r':
        operand->kind = GRT_VM_OPERAND_REGISTER;
        GRT_RETURN_IF_ERROR(grtc_vm_take_operand(l, *k, &operand->reg));
        break;
      case 'k': case 'K': {
        uint64_t value = 0;
        GRT_RETURN_IF_ERROR(grtc_vm_immediate(l, grtc_vm_result_kind(kinds), &value));
        *operand = grt_vm_operand_imm(value);
        break;
      }
      case 'g': case 'd': case 'G': {
        uint32_t ordinal = 0;
        GRT_RETURN_IF_ERROR(grtc_vm_global(l, *k, &ordinal));
        *operand = grt_vm_operand_ordinal(ordinal);
        break;
      }
      case 'R': {
        const grtc_vm_symbol_t* rodata = NULL;
        GRT_RETURN_IF_ERROR(grtc_vm_symbol_operand(a, op, "rodata", GRTC_VM_SYMBOL_RODATA,
                                                   &rodata));
        *operand = grt_vm_operand_ordinal(rodata->ordinal);
        break;
      }
      case 'M': {
        const grtc_vm_symbol_t* import = NULL;
        GRT_RETURN_IF_ERROR(grtc_vm_symbol_operand(a, op, "import", GRTC_VM_SYMBOL_IMPORT,
                                                   &import));
        *operand = grt_vm_operand_ordinal(import->ordinal);
        break;
      }
      case 'S':
        *operand = grt_vm_operand_string(l->string ? grt_make_cstring_view(l->string)
                                                   : grtc_vm_string_attribute(op, "message"));
        break;
      case 'B': {
        if (l->next_successor >= op->successor_count) {
          return grtc_op_error(a->file_name, op, "'%.*s' needs a branch target",
                               GRT_SV_ARG(op->name));
        }
        operand->kind = GRT_VM_OPERAND_BRANCH;
        GRT_RETURN_IF_ERROR(grtc_vm_branch(a, op, l->next_successor++, &operand->branch));
        break;
      }
      case 'T': {
        uint32_t n = op->successor_count - l->next_successor;
        grt_vm_branch_t* targets = grtc_vm_alloc(a, sizeof(*targets) * n);
        if (!targets) return grtc_vm_oom();
        for (uint32_t i = 0; i < n; ++i) {
          GRT_RETURN_IF_ERROR(grtc_vm_branch(a, op, l->next_successor++, &targets[i]));
        }
        *operand = grt_vm_operand_table(targets, (uint16_t)n);
        break;
      }
      case 'L': case 'X': case 'W': {
        // The rest of the SSA operands: typed by the next character (L),
        // by the function's results (W) or by themselves (X).
        uint32_t n = op->operand_count - l->next_operand;
        grtc_value_t** values = grtc_vm_alloc(a, sizeof(*values) * n);
        uint32_t* flat = grtc_vm_alloc(a, sizeof(*flat) * n);
        const grtc_type_t* const* types = NULL;
        if (!values || !flat) return grtc_vm_oom();
        for (uint32_t i = 0; i < n; ++i) {
          flat[i] = grtc_vm_next_operand(l);
          values[i] = op->operands[flat[i]];
        }
        if (*k == 'L') {
          ++k;
          grt_vm_type_t element = grt_vm_type_from_operand_char(*k);
          for (uint32_t i = 0; i < n; ++i) {
            grt_vm_register_t reg = grtc_vm_value_register(&a->registers, values[i]);
            if (reg.type != element) {
              return grtc_op_error(a->file_name, op, "value %u of '%.*s' (%.*s) is %s, expected %s",
                                   i, GRT_SV_ARG(op->name), GRT_SV_ARG(values[i]->name),
                                   grt_vm_type_name(reg.type), grt_vm_type_name(element));
            }
          }
        } else if (*k == 'W') {
          const grtc_type_t* function_type = grtc_vm_function_type(a->function);
          uint32_t expected = function_type ? function_type->function.result_count : 0;
          if (n != expected) {
            return grtc_op_error(a->file_name, op, "'%.*s' returns %u values, but the "
                                 "function returns %u",
                                 GRT_SV_ARG(op->name), n, expected);
          }
          if (function_type) {
            types = function_type->function.types + function_type->function.input_count;
          }
        }
        GRT_RETURN_IF_ERROR(grtc_vm_use_list(a, op, values, flat, n, types,
                                             *k == 'W' ? "return value" : "value", operand));
        break;
      }
      default:
        return grtc_op_error(a->file_name, op, "'%.*s': operand kind '%c' of VM op '%s' "
                             "is not assembled from this op",
                             GRT_SV_ARG(op->name), *k, grt_vm_op_info(l->vm_op)->mnemonic);
    }
  }
  if (l->next_operand != op->operand_count || l->next_result != op->result_count ||
      l->next_successor != op->successor_count) {
    return grtc_op_error(a->file_name, op, "'%.*s' has %u operands, %u results and %u "
                         "successors; VM op '%s' (%s) takes %u, %u and %u",
                         GRT_SV_ARG(op->name), op->operand_count, op->result_count,
                         op->successor_count, grt_vm_op_info(l->vm_op)->mnemonic, kinds,
                         l->next_operand, l->next_result, l->next_successor);
  }
  return grtc_vm_emit(a, op, l->vm_op, operands, count);
}

static grtc_vm_lowering_t grtc_vm_lowering(grtc_vm_assembler_t* a, grtc_operation_t* op,
                                           grt_vm_op_t vm_op) {
  grtc_vm_lowering_t l;
  memset(&l, 0, sizeof(l));
  l.a = a;
  l.op = op;
  l.vm_op = vm_op;
  l.value_attribute = "value";
  return l;
}

// vm.<mnemonic> for any op-table row, and vm.const.<t>.zero.
// IREE spellings that are another op here: i8 and i16 values live in i32
// registers, so truncating i16 to i8 is truncating the register to i8; and
// older IREE wrote the i32 truncations without the source type.
static const struct {
  const char* spelling;
  const char* mnemonic;
} grtc_vm_op_aliases[] = {
    {"trunc.i16.i8", "trunc.i32.i8"},
    {"trunc.i8", "trunc.i32.i8"},
    {"trunc.i16", "trunc.i32.i16"},
};

static grt_status_t grtc_vm_lower_by_name(grtc_vm_assembler_t* a, grtc_operation_t* op) {
  grt_string_view_t name = op->name;
  bool vm = grt_string_view_starts_with(name, grt_make_cstring_view("vm."));
  grt_string_view_t mnemonic = vm ? grt_string_view_substr(name, 3, SIZE_MAX) : name;
  for (size_t i = 0; i < sizeof(grtc_vm_op_aliases) / sizeof(grtc_vm_op_aliases[0]); ++i) {
    if (grt_string_view_equal_cstring(mnemonic, grtc_vm_op_aliases[i].spelling)) {
      mnemonic = grt_make_cstring_view(grtc_vm_op_aliases[i].mnemonic);
    }
  }
  grt_vm_op_t vm_op;
  bool zero = false;
  bool found = vm && grt_vm_op_lookup(mnemonic, &vm_op);
  grt_string_view_t zero_suffix = grt_make_cstring_view(".zero");
  if (!found && vm && grt_string_view_ends_with(mnemonic, zero_suffix) &&
      grt_string_view_starts_with(mnemonic, grt_make_cstring_view("const."))) {
    zero = found = grt_vm_op_lookup(
        grt_string_view_substr(mnemonic, 0, mnemonic.size - zero_suffix.size), &vm_op);
  }
  // The block marker is the assembler's, not the program's.
  if (!found || vm_op == GRT_VM_OP_BLOCK) {
    return grtc_op_error(a->file_name, op, "unknown vm op '%.*s'", GRT_SV_ARG(name));
  }
  grtc_vm_lowering_t l = grtc_vm_lowering(a, op, vm_op);
  l.zero = zero;
  return grtc_vm_lower_table_op(&l);
}

//===----------------------------------------------------------------------===//
// Ops with their own lowering
//===----------------------------------------------------------------------===//

// The Y and B operands of vm.call.yieldable and vm.call.variadic.yieldable:
// the callee's |count| results (types |types|) are written to the
// arguments of the op's one successor, which takes no operands, and the
// call continues there.
static grt_status_t grtc_vm_yieldable_successor(grtc_vm_assembler_t* a,
                                                const grtc_operation_t* op,
                                                const grtc_vm_symbol_t* callee,
                                                const grtc_type_t* const* types,
                                                uint32_t count,
                                                grt_vm_operand_t* out_results,
                                                grt_vm_operand_t* out_branch) {
  if (op->successor_count != 1 || op->successors[0].operand_count != 0 ||
      op->result_count != 0) {
    return grtc_op_error(a->file_name, op, "'%.*s' has no results and one successor "
                         "without operands (-> ^bb(types): the callee's results are its "
                         "arguments); it has %u results and %u successors",
                         GRT_SV_ARG(op->name), op->result_count, op->successor_count);
  }
  const grtc_block_t* target = op->successors[0].block;
  if (target->arg_count != count) {
    return grtc_op_error(a->file_name, op, "@%.*s returns %u values but %.*s takes %u "
                         "arguments",
                         GRT_SV_ARG(callee->name), count, GRT_SV_ARG(target->label),
                         target->arg_count);
  }
  grt_vm_register_t* list = grtc_vm_alloc(a, sizeof(*list) * (count ? count : 1));
  if (!list) return grtc_vm_oom();
  for (uint32_t i = 0; i < count; ++i) {
    list[i] = grtc_vm_value_register(&a->registers, &target->args[i]);
    grt_vm_type_t expected = GRT_VM_TYPE_COUNT;
    if (types && grtc_vm_register_type(types[i], &expected) && list[i].type != expected) {
      return grtc_op_error(a->file_name, op, "result %u of @%.*s is %s but argument %u "
                           "(%.*s) of %.*s is %s",
                           i, GRT_SV_ARG(callee->name), grt_vm_type_name(expected), i,
                           GRT_SV_ARG(target->args[i].name), GRT_SV_ARG(target->label),
                           grt_vm_type_name(list[i].type));
    }
  }
  *out_results = grt_vm_operand_list(list, (uint16_t)count);
  *out_branch = grt_vm_operand_branch(grtc_vm_block_label(a, target), NULL, 0);
  return grt_ok_status();
}

// vm.call @f(args) : (types) -> results, to a function or an import; and
// vm.call.yieldable @f(args) : (types) -> ^bb(results).
static grt_status_t grtc_vm_lower_call(grtc_vm_assembler_t* a, grtc_operation_t* op) {
  bool yieldable = grtc_operation_is(op, "vm.call.yieldable");
  const grtc_vm_symbol_t* callee = NULL;
  GRT_RETURN_IF_ERROR(grtc_vm_symbol_operand(a, op, "callee", GRTC_VM_SYMBOL_FUNCTION, &callee));
  const grtc_type_t* type = grtc_vm_function_type(callee->op);
  uint32_t inputs = type ? type->function.input_count : 0;
  uint32_t results = type ? type->function.result_count : 0;
  if (callee->kind == GRTC_VM_SYMBOL_IMPORT) {
    for (uint32_t i = 0; i < inputs; ++i) {
      if (grtc_vm_is_variadic_argument(callee->op, i)) {
        return grtc_op_error(a->file_name, op, "@%.*s is variadic: call it with "
                             "vm.call.variadic%s", GRT_SV_ARG(callee->name),
                             yieldable ? ".yieldable" : "");
      }
    }
  }
  if (yieldable && op->operand_count != inputs) {
    return grtc_op_error(a->file_name, op, "call to @%.*s passes %u arguments, but @%.*s "
                         "has %u arguments",
                         GRT_SV_ARG(callee->name), op->operand_count,
                         GRT_SV_ARG(callee->name), inputs);
  }
  if (op->operand_count != inputs || (!yieldable && op->result_count != results)) {
    return grtc_op_error(a->file_name, op, "call to @%.*s passes %u arguments and takes %u "
                         "results, but @%.*s has %u arguments and %u results",
                         GRT_SV_ARG(callee->name), op->operand_count, op->result_count,
                         GRT_SV_ARG(callee->name), inputs, results);
  }
  uint32_t* flat = grtc_vm_alloc(a, sizeof(*flat) * inputs);
  if (!flat) return grtc_vm_oom();
  for (uint32_t i = 0; i < inputs; ++i) flat[i] = i;
  grt_vm_operand_t operands[3];
  operands[0] = grt_vm_operand_ordinal(
      callee->ordinal | (callee->kind == GRTC_VM_SYMBOL_IMPORT ? GRT_VM_CALLEE_IMPORT_BIT : 0));
  GRT_RETURN_IF_ERROR(grtc_vm_use_list(a, op, op->operands, flat, inputs,
                                       type ? type->function.types : NULL, "argument",
                                       &operands[1]));
  if (yieldable) {
    grt_vm_operand_t with_successor[4] = {operands[0], operands[1]};
    GRT_RETURN_IF_ERROR(grtc_vm_yieldable_successor(
        a, op, callee, type ? type->function.types + inputs : NULL, results,
        &with_successor[2], &with_successor[3]));
    return grtc_vm_emit(a, op, GRT_VM_OP_CALL_YIELDABLE, with_successor, 4);
  }
  GRT_RETURN_IF_ERROR(grtc_vm_def_list(
      a, op, type ? type->function.types + inputs : NULL, &operands[2]));
  return grtc_vm_emit(a, op, GRT_VM_OP_CALL, operands, 3);
}

// Whether a value of type |actual| may be passed where |declared| is
// expected: refs compare by what they refer to (!hal.buffer is
// !vm.ref<!hal.buffer>, and !vm.ref<?> takes any ref), tuples elementwise.
static bool grtc_vm_type_matches(const grtc_type_t* declared, const grtc_type_t* actual) {
  if (grtc_type_is_ref(declared) && grtc_type_is_ref(actual)) {
    if (declared->kind == GRTC_TYPE_VM_REF) declared = declared->element;
    if (actual->kind == GRTC_TYPE_VM_REF) actual = actual->element;
    return !declared || !actual || grtc_type_equal(declared, actual);
  }
  if (declared->kind == GRTC_TYPE_TUPLE && actual->kind == GRTC_TYPE_TUPLE) {
    if (declared->function.input_count != actual->function.input_count) return false;
    for (uint32_t i = 0; i < declared->function.input_count; ++i) {
      if (!grtc_vm_type_matches(declared->function.types[i], actual->function.types[i])) {
        return false;
      }
    }
    return true;
  }
  return grtc_type_equal(declared, actual);
}

// vm.call.variadic @import(%a, [%b, %c], [(%d, %e)]) : (i32, i32 ...,
// tuple<i32, f32> ...) -> results. A span's count is its groups; its values
// follow group by group, as the callee unpacks them.
static grt_status_t grtc_vm_lower_call_variadic(grtc_vm_assembler_t* a, grtc_operation_t* op) {
  bool yieldable = grtc_operation_is(op, "vm.call.variadic.yieldable");
  const grtc_vm_symbol_t* callee = NULL;
  GRT_RETURN_IF_ERROR(grtc_vm_symbol_operand(a, op, "callee", GRTC_VM_SYMBOL_IMPORT, &callee));
  const grtc_type_t* type = grtc_vm_function_type(callee->op);
  const grtc_attribute_t* sizes = grtc_operation_attribute(op, "segment_sizes");
  const grtc_attribute_t* call_types = grtc_operation_attribute(op, "segment_types");
  uint32_t inputs = type ? type->function.input_count : 0;
  uint32_t results = type ? type->function.result_count : 0;
  uint32_t segments = sizes ? (uint32_t)(sizes->dense.size / sizeof(int32_t)) : 0;
  if (!sizes || segments != inputs || (!yieldable && op->result_count != results)) {
    return grtc_op_error(a->file_name, op, "call to @%.*s passes %u arguments and takes %u "
                         "results, but @%.*s has %u arguments and %u results",
                         GRT_SV_ARG(callee->name), segments, op->result_count,
                         GRT_SV_ARG(callee->name), inputs, results);
  }
  uint16_t* spans = grtc_vm_alloc(a, sizeof(*spans) * segments);
  const grtc_type_t** types = grtc_vm_alloc(a, sizeof(*types) * op->operand_count);
  uint32_t* flat = grtc_vm_alloc(a, sizeof(*flat) * op->operand_count);
  if (!spans || !types || !flat) return grtc_vm_oom();
  uint16_t span_count = 0;
  uint32_t value = 0;
  for (uint32_t i = 0; i < segments; ++i) {
    int32_t size;
    memcpy(&size, sizes->dense.data + i * sizeof(int32_t), sizeof(size));
    bool variadic = grtc_vm_is_variadic_argument(callee->op, i);
    if (variadic != (size >= 0)) {
      return grtc_op_error(a->file_name, op, "argument %u of the call to @%.*s is %s, but "
                           "@%.*s declares it %s",
                           i, GRT_SV_ARG(callee->name), size >= 0 ? "a [span]" : "one value",
                           GRT_SV_ARG(callee->name), variadic ? "variadic" : "not variadic");
    }
    const grtc_type_t* declared = type->function.types[i];
    // The call's own type list shaped its groups; it must be the import's.
    const grtc_attribute_t* call_type =
        call_types && call_types->kind == GRTC_ATTR_ARRAY && i < call_types->array.count
            ? call_types->array.items[i]
            : NULL;
    if (call_type && call_type->kind == GRTC_ATTR_TYPE &&
        !grtc_vm_type_matches(declared, call_type->type)) {
      return grtc_op_error(a->file_name, op, "argument %u of the call to @%.*s has type %s, "
                           "but @%.*s declares %s",
                           i, GRT_SV_ARG(callee->name), grtc_vm_type_text(a, call_type->type),
                           GRT_SV_ARG(callee->name), grtc_vm_type_text(a, declared));
    }
    bool tuple = size >= 0 && declared->kind == GRTC_TYPE_TUPLE;
    uint32_t group = tuple ? declared->function.input_count : 1;
    uint32_t groups = size >= 0 ? (uint32_t)size : 1;
    if (size >= 0) spans[span_count++] = (uint16_t)size;
    if ((uint64_t)value + (uint64_t)groups * group > op->operand_count) {
      return grtc_op_error(a->file_name, op, "the call to @%.*s passes %u values, fewer "
                           "than its spans' groups need",
                           GRT_SV_ARG(callee->name), op->operand_count);
    }
    for (uint32_t g = 0; g < groups; ++g) {
      for (uint32_t j = 0; j < group; ++j, ++value) {
        const grtc_type_t* element = tuple ? declared->function.types[j] : declared;
        const grtc_value_t* operand = op->operands[value];
        if (tuple && operand->type && !grtc_vm_type_matches(element, operand->type)) {
          return grtc_op_error(a->file_name, op, "value %u of group %u of argument %u of the "
                               "call to @%.*s (%.*s) is %s, expected %s",
                               j, g, i, GRT_SV_ARG(callee->name), GRT_SV_ARG(operand->name),
                               grtc_vm_type_text(a, operand->type),
                               grtc_vm_type_text(a, element));
        }
        types[value] = element;
        flat[value] = value;
      }
    }
  }
  if (value != op->operand_count) {
    return grtc_op_error(a->file_name, op, "the call to @%.*s passes %u values, more than "
                         "its arguments take (%u)",
                         GRT_SV_ARG(callee->name), op->operand_count, value);
  }
  grt_vm_operand_t operands[4];
  operands[0] = grt_vm_operand_ordinal(callee->ordinal);
  operands[1] = grt_vm_operand_spans(spans, span_count);
  GRT_RETURN_IF_ERROR(grtc_vm_use_list(a, op, op->operands, flat, op->operand_count, types,
                                       "argument", &operands[2]));
  if (yieldable) {
    grt_vm_operand_t with_successor[5] = {operands[0], operands[1], operands[2]};
    GRT_RETURN_IF_ERROR(grtc_vm_yieldable_successor(a, op, callee,
                                                    type->function.types + inputs, results,
                                                    &with_successor[3], &with_successor[4]));
    return grtc_vm_emit(a, op, GRT_VM_OP_CALL_VARIADIC_YIELDABLE, with_successor, 5);
  }
  GRT_RETURN_IF_ERROR(grtc_vm_def_list(a, op, type->function.types + inputs, &operands[3]));
  return grtc_vm_emit(a, op, GRT_VM_OP_CALL_VARIADIC, operands, 4);
}

// vm.switch.<t> %index[%values...] else %default: the table wants the
// default before the values.
static grt_status_t grtc_vm_lower_switch(grtc_vm_assembler_t* a, grtc_operation_t* op) {
  if (op->operand_count < 2) {
    return grtc_op_error(a->file_name, op, "'%.*s' needs an index and a default value",
                         GRT_SV_ARG(op->name));
  }
  uint32_t* order = grtc_vm_alloc(a, sizeof(*order) * op->operand_count);
  if (!order) return grtc_vm_oom();
  order[0] = 0;
  order[1] = op->operand_count - 1;
  for (uint32_t i = 2; i < op->operand_count; ++i) order[i] = i - 1;
  grt_vm_op_t vm_op;
  if (!grt_vm_op_lookup(grt_string_view_substr(op->name, 3, SIZE_MAX), &vm_op)) {
    return grtc_op_error(a->file_name, op, "unknown vm op '%.*s'", GRT_SV_ARG(op->name));
  }
  grtc_vm_lowering_t l = grtc_vm_lowering(a, op, vm_op);
  l.order = order;
  return grtc_vm_lower_table_op(&l);
}

// The VM names ref types without the '!': !vm.buffer -> "vm.buffer".
static const char* grtc_vm_ref_type_name(grtc_vm_assembler_t* a, const grtc_type_t* type) {
  if (type->kind == GRTC_TYPE_VM_REF && type->element) type = type->element;
  switch (type->kind) {
    case GRTC_TYPE_VM_BUFFER: return "vm.buffer";
    case GRTC_TYPE_VM_LIST: return "vm.list";
    case GRTC_TYPE_OPAQUE: {
      grt_string_view_t text = type->opaque;
      if (text.size && text.data[0] == '!') text = grt_string_view_substr(text, 1, SIZE_MAX);
      return grt_arena_strndup(&a->arena, text.data, text.size);
    }
    default: return NULL;
  }
}

// vm.cast.any.ref %x : !vm.ref<?> -> !vm.buffer: S is the target type.
static grt_status_t grtc_vm_lower_cast_any_ref(grtc_vm_assembler_t* a, grtc_operation_t* op) {
  const char* name = op->result_count ? grtc_vm_ref_type_name(a, op->results[0].type) : NULL;
  if (!name) {
    return grtc_op_error(a->file_name, op, "'%.*s' needs a concrete ref result type",
                         GRT_SV_ARG(op->name));
  }
  grtc_vm_lowering_t l = grtc_vm_lowering(a, op, GRT_VM_OP_CAST_ANY_REF);
  l.string = name;
  return grtc_vm_lower_table_op(&l);
}

// vm.list.get.ref %list, %index : (!vm.list<...>, i32) -> !vm.buffer: S is
// the result's ref type, and an element of another ref type reads as null
// (IREE's rule); "" for !vm.ref<?>, which takes any ref.
static grt_status_t grtc_vm_lower_list_get_ref(grtc_vm_assembler_t* a, grtc_operation_t* op) {
  if (op->result_count != 1) {
    return grtc_op_error(a->file_name, op, "'%.*s' has one result, found %u",
                         GRT_SV_ARG(op->name), op->result_count);
  }
  if (!grtc_type_is_ref(op->results[0].type)) {
    return grtc_op_error(a->file_name, op, "'%.*s' returns a ref, found %s",
                         GRT_SV_ARG(op->name), grtc_vm_type_text(a, op->results[0].type));
  }
  const char* name = grtc_vm_ref_type_name(a, op->results[0].type);
  grtc_vm_lowering_t l = grtc_vm_lowering(a, op, GRT_VM_OP_LIST_GET_REF);
  l.string = name ? name : "";
  return grtc_vm_lower_table_op(&l);
}

// vm.list.alloc %capacity : (i32) -> !vm.list<t>: k is the element type as
// the ISA's grt_vm_type_t (variant for a list of variants, `?`).
static grt_status_t grtc_vm_lower_list_alloc(grtc_vm_assembler_t* a, grtc_operation_t* op) {
  const grtc_type_t* list = op->result_count ? op->results[0].type : NULL;
  if (!list || list->kind != GRTC_TYPE_VM_LIST || op->operand_count != 1) {
    return grtc_op_error(a->file_name, op, "'%.*s' takes a capacity and returns a !vm.list",
                         GRT_SV_ARG(op->name));
  }
  grt_vm_type_t element = GRT_VM_TYPE_VARIANT;
  if (grtc_type_is_integer(list->element, 8)) {
    element = GRT_VM_TYPE_I8;  // stored in bytes, read as i32/i64
  } else if (grtc_type_is_integer(list->element, 16)) {
    element = GRT_VM_TYPE_I16;
  } else if (list->element) {
    if (!grtc_vm_register_type(list->element, &element)) {
      return grtc_op_error(a->file_name, op, "no VM list holds %s",
                           grtc_vm_type_text(a, list->element));
    }
  }
  grt_vm_operand_t operands[3];
  operands[0] = grt_vm_operand_imm((uint64_t)element);
  operands[1].kind = GRT_VM_OPERAND_REGISTER;
  GRT_RETURN_IF_ERROR(grtc_vm_use(a, op, op->operands[0], 0, GRT_VM_TYPE_I32, "operand 0",
                                  &operands[1].reg));
  operands[2].kind = GRT_VM_OPERAND_REGISTER;
  GRT_RETURN_IF_ERROR(grtc_vm_def(a, op, 0, GRT_VM_TYPE_REF, &operands[2].reg));
  return grtc_vm_emit(a, op, GRT_VM_OP_LIST_ALLOC, operands, 3);
}

static grt_status_t grtc_vm_add_rodata(grtc_vm_assembler_t* a, grtc_operation_t* op,
                                       uint32_t* out_ordinal) {
  const grtc_attribute_t* value = grtc_operation_attribute(op, "value");
  const uint8_t* data = NULL;
  size_t size = 0;
  uint32_t alignment = 16;
  if (value && value->kind == GRTC_ATTR_STRING) {
    data = (const uint8_t*)value->string.data;
    size = value->string.size;
    alignment = 1;
  } else if (value && value->kind == GRTC_ATTR_DENSE_ELEMENTS) {
    data = value->dense.data;
    size = value->dense.size;
    uint64_t count = 0;
    if (value->dense.splat && grtc_type_element_count(value->type, &count) && count > 1) {
      uint8_t* expanded = grtc_vm_alloc(a, size * count);
      if (!expanded) return grtc_vm_oom();
      for (uint64_t i = 0; i < count; ++i) memcpy(expanded + i * size, data, size);
      data = expanded;
      size *= count;
    }
  } else {
    return grtc_op_error(a->file_name, op, "'%.*s' needs a dense<...> or string value",
                         GRT_SV_ARG(op->name));
  }
  const grtc_attribute_t* align_attr = grtc_operation_attribute(op, "alignment");
  if (align_attr && align_attr->kind == GRTC_ATTR_INTEGER) {
    int64_t requested = align_attr->integer;
    if (requested <= 0 || (requested & (requested - 1)) ||
        requested > GRT_MODULE_SEGMENT_ALIGNMENT) {
      return grtc_op_error(a->file_name, op, "rodata alignment %lld is not a power of two "
                           "up to %d", (long long)requested, GRT_MODULE_SEGMENT_ALIGNMENT);
    }
    alignment = (uint32_t)requested;
  }
  grt_module_rodata_t rodata = {grt_make_const_byte_span(data, size), alignment,
                                size > GRTC_VM_RODATA_INLINE_LIMIT};
  grt_status_t status = grt_module_writer_add_rodata(a->writer, &rodata, out_ordinal);
  if (grt_status_is_ok(status)) return status;
  grt_status_t error = grtc_op_error(a->file_name, op, "%s", grt_status_message(status));
  grt_status_free(status);
  return error;
}

// %r = vm.rodata.inline : !vm.buffer = dense<...>
static grt_status_t grtc_vm_lower_rodata_inline(grtc_vm_assembler_t* a, grtc_operation_t* op) {
  uint32_t ordinal = 0;
  GRT_RETURN_IF_ERROR(grtc_vm_add_rodata(a, op, &ordinal));
  grt_vm_operand_t operands[2];
  operands[0] = grt_vm_operand_ordinal(ordinal);
  operands[1].kind = GRT_VM_OPERAND_REGISTER;
  GRT_RETURN_IF_ERROR(grtc_vm_def(a, op, 0, GRT_VM_TYPE_REF, &operands[1].reg));
  return grtc_vm_emit(a, op, GRT_VM_OP_CONST_REF_RODATA, operands, 2);
}

// vm.optimization_barrier, and util.do_not_optimize /
// util.optimization_barrier (IREE's vm tests keep values alive with them).
// The VM op copies each operand to the result in the same place, and the
// verifier refuses bytecode whose result list differs from the operand list
// in length or types; so does the assembler, here, with the op's location,
// rather than emit a module that cannot load.
static grt_status_t grtc_vm_lower_barrier(grtc_vm_assembler_t* a, grtc_operation_t* op) {
  if (op->result_count != op->operand_count) {
    return grtc_op_error(a->file_name, op,
                         "'%.*s' returns each of its operands: it has %u operands but %u "
                         "results (write %%r = %.*s %%x : type)",
                         GRT_SV_ARG(op->name), op->operand_count, op->result_count,
                         GRT_SV_ARG(op->name));
  }
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    const grtc_type_t* operand = op->operands[i]->type;
    const grtc_type_t* result = op->results[i].type;
    grt_vm_type_t operand_type, result_type;
    bool operand_ok = grtc_vm_register_type(operand, &operand_type);
    bool result_ok = grtc_vm_register_type(result, &result_type);
    if (operand_ok && result_ok && operand_type != result_type) {
      return grtc_op_error(a->file_name, op, "result %u of '%.*s' is %s but operand %u is %s",
                           i, GRT_SV_ARG(op->name), grtc_vm_type_text(a, result), i,
                           grtc_vm_type_text(a, operand));
    }
  }
  grtc_vm_lowering_t l = grtc_vm_lowering(a, op, GRT_VM_OP_OPTIMIZATION_BARRIER);
  return grtc_vm_lower_table_op(&l);
}

// vm.check.<kind> %a[, %b][, "message"] : type -> cmp into scratch, then
// cond_fail. Each row: the compare that is nonzero when the check fails.
typedef struct grtc_vm_check_t {
  const char* name;
  const char* fail_compare;  // "ne": cmp.ne.<t>
  const char* float_order;   // suffix for floats (".u": NaN is unordered)
  bool negate;               // the compare is nonzero when the check passes
  bool float_only;           // only f32/f64 operands
} grtc_vm_check_t;

static const grtc_vm_check_t grtc_vm_checks[] = {
    {"vm.check.eq", "ne", ".u", false, false},
    {"vm.check.ne", "eq", ".o", false, false},
    {"vm.check.nz", "nz", ".u", true, false},
    // cmp.eq.f*.near: |a - b| <= 1e-4 + 1e-4 * |b| (vm/op_table.h).
    {"vm.check.nearly_eq", "eq", ".near", true, true},
};

static grt_status_t grtc_vm_lower_check(grtc_vm_assembler_t* a, grtc_operation_t* op) {
  const grtc_vm_check_t* check = NULL;
  for (size_t i = 0; i < sizeof(grtc_vm_checks) / sizeof(grtc_vm_checks[0]); ++i) {
    if (grtc_operation_is(op, grtc_vm_checks[i].name)) check = &grtc_vm_checks[i];
  }
  uint32_t arity = check && strcmp(check->fail_compare, "nz") == 0 ? 1 : 2;
  if (!check || op->operand_count != arity || op->result_count != 0) {
    return grtc_op_error(a->file_name, op, check ? "'%.*s' takes %u operands, found %u"
                                                 : "unknown vm op '%.*s'",
                         GRT_SV_ARG(op->name), arity, op->operand_count);
  }
  grt_vm_register_t lhs, rhs;
  GRT_RETURN_IF_ERROR(grtc_vm_use(a, op, op->operands[0], 0, GRT_VM_TYPE_COUNT, "operand 0", &lhs));
  if (arity == 2) {
    GRT_RETURN_IF_ERROR(grtc_vm_use(a, op, op->operands[1], 1, lhs.type, "operand 1", &rhs));
  }
  bool is_float = lhs.type == GRT_VM_TYPE_F32 || lhs.type == GRT_VM_TYPE_F64;
  if (check->float_only && !is_float) {
    return grtc_op_error(a->file_name, op, "'%.*s' compares f32 or f64 values, found %s",
                         GRT_SV_ARG(op->name), grt_vm_type_name(lhs.type));
  }
  // The compare does not consume refs: the check's operands stay live for
  // the cond_fail's sake only in scratch, so drop the move bits.
  lhs.move = false;
  rhs.move = false;
  a->scratch_used = true;
  uint16_t scratch = (uint16_t)((a->registers.i32_count + 1u) & ~1u);
  grt_vm_operand_t condition = grt_vm_operand_reg(GRT_VM_TYPE_I32, (uint16_t)(scratch + 0));
  grt_vm_operand_t code = grt_vm_operand_reg(GRT_VM_TYPE_I32, (uint16_t)(scratch + 1));
  char compare[48];
  snprintf(compare, sizeof(compare), "cmp.%s.%s%s", check->fail_compare,
           grt_vm_type_name(lhs.type), is_float ? check->float_order : "");
  grt_vm_operand_t a_operand = {.kind = GRT_VM_OPERAND_REGISTER, .reg = lhs};
  grt_vm_operand_t b_operand = {.kind = GRT_VM_OPERAND_REGISTER, .reg = rhs};
  grt_vm_operand_t compare_operands[3] = {a_operand, b_operand, condition};
  if (arity == 1) compare_operands[1] = condition;
  GRT_RETURN_IF_ERROR(grtc_vm_emit_named(a, op, compare, compare_operands, arity + 1));
  if (check->negate) {
    GRT_RETURN_IF_ERROR(grtc_vm_emit(a, op, GRT_VM_OP_CONST_I32,
                                     (grt_vm_operand_t[]){grt_vm_operand_imm(1), code}, 2));
    GRT_RETURN_IF_ERROR(grtc_vm_emit(a, op, GRT_VM_OP_XOR_I32,
                                     (grt_vm_operand_t[]){condition, code, condition}, 3));
  }
  GRT_RETURN_IF_ERROR(grtc_vm_emit(
      a, op, GRT_VM_OP_CONST_I32,
      (grt_vm_operand_t[]){grt_vm_operand_imm(GRTC_VM_CHECK_STATUS), code}, 2));
  grt_string_view_t message = grtc_vm_string_attribute(op, "message");
  if (!message.size) message = op->name;
  return grtc_vm_emit(a, op, GRT_VM_OP_COND_FAIL,
                      (grt_vm_operand_t[]){condition, code, grt_vm_operand_string(message)}, 3);
}

// vm.cond_fail %cond, %status, "message" is the table op; IREE's bare
// vm.cond_fail %cond, "message" fails with UNKNOWN, its default status.
static grt_status_t grtc_vm_lower_cond_fail(grtc_vm_assembler_t* a, grtc_operation_t* op) {
  if (op->operand_count != 1) {
    grtc_vm_lowering_t l = grtc_vm_lowering(a, op, GRT_VM_OP_COND_FAIL);
    return grtc_vm_lower_table_op(&l);
  }
  grt_vm_register_t condition;
  GRT_RETURN_IF_ERROR(grtc_vm_use(a, op, op->operands[0], 0, GRT_VM_TYPE_I32, "condition",
                                  &condition));
  a->scratch_used = true;
  uint16_t scratch = (uint16_t)((a->registers.i32_count + 1u) & ~1u);
  grt_vm_operand_t code = grt_vm_operand_reg(GRT_VM_TYPE_I32, (uint16_t)(scratch + 1));
  GRT_RETURN_IF_ERROR(grtc_vm_emit(
      a, op, GRT_VM_OP_CONST_I32,
      (grt_vm_operand_t[]){grt_vm_operand_imm(GRT_STATUS_UNKNOWN), code}, 2));
  grt_vm_operand_t condition_operand = {.kind = GRT_VM_OPERAND_REGISTER, .reg = condition};
  return grtc_vm_emit(a, op, GRT_VM_OP_COND_FAIL,
                      (grt_vm_operand_t[]){condition_operand, code,
                                           grt_vm_operand_string(grtc_vm_string_attribute(op, "message"))},
                      3);
}

// vm.buffer.store.<t> %value, %buffer[%offset]: the table wants the buffer,
// the offset, then the value.
static grt_status_t grtc_vm_lower_buffer_store(grtc_vm_assembler_t* a, grtc_operation_t* op) {
  static const uint32_t order[] = {1, 2, 0};
  grt_vm_op_t vm_op;
  if (op->operand_count != 3 ||
      !grt_vm_op_lookup(grt_string_view_substr(op->name, 3, SIZE_MAX), &vm_op)) {
    return grtc_op_error(a->file_name, op, "'%.*s' takes %%value, %%buffer[%%offset]",
                         GRT_SV_ARG(op->name));
  }
  grtc_vm_lowering_t l = grtc_vm_lowering(a, op, vm_op);
  l.order = order;
  return grtc_vm_lower_table_op(&l);
}

typedef grt_status_t (*grtc_vm_lower_fn_t)(grtc_vm_assembler_t* a, grtc_operation_t* op);

// Ops the op table alone cannot assemble. A trailing '*' matches a prefix.
static const struct {
  const char* name;
  grtc_vm_lower_fn_t lower;
} grtc_vm_special_ops[] = {
    {"vm.call", grtc_vm_lower_call},
    {"vm.call.variadic", grtc_vm_lower_call_variadic},
    {"vm.call.yieldable", grtc_vm_lower_call},
    {"vm.call.variadic.yieldable", grtc_vm_lower_call_variadic},
    {"vm.switch.*", grtc_vm_lower_switch},
    {"vm.buffer.store.*", grtc_vm_lower_buffer_store},
    {"vm.cond_fail", grtc_vm_lower_cond_fail},
    {"vm.check.*", grtc_vm_lower_check},
    {"vm.cast.any.ref", grtc_vm_lower_cast_any_ref},
    {"vm.list.alloc", grtc_vm_lower_list_alloc},
    {"vm.list.get.ref", grtc_vm_lower_list_get_ref},
    {"vm.rodata.inline", grtc_vm_lower_rodata_inline},
    {"vm.optimization_barrier", grtc_vm_lower_barrier},
    {"util.do_not_optimize", grtc_vm_lower_barrier},
    {"util.optimization_barrier", grtc_vm_lower_barrier},
};

static grt_status_t grtc_vm_lower_op(grtc_vm_assembler_t* a, grtc_operation_t* op) {
  for (size_t i = 0; i < sizeof(grtc_vm_special_ops) / sizeof(grtc_vm_special_ops[0]); ++i) {
    const char* name = grtc_vm_special_ops[i].name;
    size_t length = strlen(name);
    bool match = name[length - 1] == '*'
                     ? op->name.size >= length - 1 && memcmp(op->name.data, name, length - 1) == 0
                     : grtc_operation_is(op, name);
    if (match) return grtc_vm_special_ops[i].lower(a, op);
  }
  return grtc_vm_lower_by_name(a, op);
}

//===----------------------------------------------------------------------===//
// Compare-and-branch fusion
//===----------------------------------------------------------------------===//

// The compares that fuse with a following cond_br: each names its cmp_br
// op, with gt/gte as lt/lte on swapped operands.
static const struct {
  const char* compare;
  grt_vm_op_t fused;
  bool swap;
} grtc_vm_compare_branches[] = {
    {"vm.cmp.eq.i32", GRT_VM_OP_CMP_BR_EQ_I32, false},
    {"vm.cmp.ne.i32", GRT_VM_OP_CMP_BR_NE_I32, false},
    {"vm.cmp.lt.i32.s", GRT_VM_OP_CMP_BR_LT_I32_S, false},
    {"vm.cmp.lt.i32.u", GRT_VM_OP_CMP_BR_LT_I32_U, false},
    {"vm.cmp.lte.i32.s", GRT_VM_OP_CMP_BR_LTE_I32_S, false},
    {"vm.cmp.lte.i32.u", GRT_VM_OP_CMP_BR_LTE_I32_U, false},
    {"vm.cmp.gt.i32.s", GRT_VM_OP_CMP_BR_LT_I32_S, true},
    {"vm.cmp.gt.i32.u", GRT_VM_OP_CMP_BR_LT_I32_U, true},
    {"vm.cmp.gte.i32.s", GRT_VM_OP_CMP_BR_LTE_I32_S, true},
    {"vm.cmp.gte.i32.u", GRT_VM_OP_CMP_BR_LTE_I32_U, true},
    {"vm.cmp.eq.i64", GRT_VM_OP_CMP_BR_EQ_I64, false},
    {"vm.cmp.ne.i64", GRT_VM_OP_CMP_BR_NE_I64, false},
    {"vm.cmp.lt.i64.s", GRT_VM_OP_CMP_BR_LT_I64_S, false},
    {"vm.cmp.lt.i64.u", GRT_VM_OP_CMP_BR_LT_I64_U, false},
    {"vm.cmp.lte.i64.s", GRT_VM_OP_CMP_BR_LTE_I64_S, false},
    {"vm.cmp.lte.i64.u", GRT_VM_OP_CMP_BR_LTE_I64_U, false},
    {"vm.cmp.gt.i64.s", GRT_VM_OP_CMP_BR_LT_I64_S, true},
    {"vm.cmp.gt.i64.u", GRT_VM_OP_CMP_BR_LT_I64_U, true},
    {"vm.cmp.gte.i64.s", GRT_VM_OP_CMP_BR_LTE_I64_S, true},
    {"vm.cmp.gte.i64.u", GRT_VM_OP_CMP_BR_LTE_I64_U, true},
};

// When |op| is an integer compare whose result's only use is the condition
// of the vm.cond_br right after it, emits the pair as one cmp_br (or, for
// vm.cmp.nz.i32, as a cond_br on the compare's operand) and sets *out_fused;
// the caller then skips the cond_br. Anything else is left alone.
static grt_status_t grtc_vm_try_fuse_compare_branch(grtc_vm_assembler_t* a,
                                                    grtc_operation_t* op,
                                                    bool* out_fused) {
  *out_fused = false;
  grtc_operation_t* branch = op->next;
  if (!branch || !grtc_operation_is(branch, "vm.cond_br") || op->result_count != 1 ||
      branch->operand_count != 1 || branch->successor_count != 2 ||
      branch->operands[0] != &op->results[0] ||
      !grtc_vm_is_last_use(&a->registers, branch, 0)) {
    return grt_ok_status();
  }
  bool nonzero = grtc_operation_is(op, "vm.cmp.nz.i32");
  size_t entry = 0;
  size_t entry_count = sizeof(grtc_vm_compare_branches) / sizeof(grtc_vm_compare_branches[0]);
  if (!nonzero) {
    while (entry < entry_count &&
           !grtc_operation_is(op, grtc_vm_compare_branches[entry].compare)) {
      ++entry;
    }
    if (entry == entry_count) return grt_ok_status();
  }
  if (op->operand_count != (nonzero ? 1u : 2u)) return grt_ok_status();
  grt_vm_type_t type = GRT_VM_TYPE_I32;
  if (!nonzero && grt_vm_op_info(grtc_vm_compare_branches[entry].fused)->operands[0] == 'I') {
    type = GRT_VM_TYPE_I64;
  }
  grt_vm_operand_t operands[4];
  size_t count = 0;
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    grt_vm_register_t reg;
    GRT_RETURN_IF_ERROR(grtc_vm_use(a, op, op->operands[i], i, type, "operand", &reg));
    operands[count++] = grt_vm_operand_reg(reg.type, reg.ordinal);
  }
  if (!nonzero && grtc_vm_compare_branches[entry].swap) {
    grt_vm_operand_t first = operands[0];
    operands[0] = operands[1];
    operands[1] = first;
  }
  for (uint32_t s = 0; s < 2; ++s) {
    grt_vm_operand_t* operand = &operands[count++];
    operand->kind = GRT_VM_OPERAND_BRANCH;
    GRT_RETURN_IF_ERROR(grtc_vm_branch(a, branch, s, &operand->branch));
  }
  *out_fused = true;
  return grtc_vm_emit(a, op, nonzero ? GRT_VM_OP_COND_BR : grtc_vm_compare_branches[entry].fused,
                      operands, count);
}

// Loop rotation by tail duplication: a vm.br to a block that is only a
// fusible compare and its cond_br (a loop header) emits that cmp_br in
// place of the br, so each iteration of a loop ends with its test instead
// of a jump to it. Only when the br copies nothing (its arguments already
// sit in the header's registers): the duplicate then reads exactly the
// registers the header would. Sets *out_done when it emitted.
static grt_status_t grtc_vm_try_duplicate_loop_test(grtc_vm_assembler_t* a,
                                                    grtc_operation_t* br,
                                                    bool* out_done) {
  *out_done = false;
  if (!grtc_operation_is(br, "vm.br") || br->successor_count != 1) return grt_ok_status();
  grtc_block_t* header = br->successors[0].block;
  grtc_operation_t* test = header->first;
  if (!test || !test->next || test->next->next) return grt_ok_status();
  grt_vm_branch_t edge = {0};  // zeroed: gcc 12 -O3 cannot see grtc_vm_branch set it
  GRT_RETURN_IF_ERROR(grtc_vm_branch(a, br, 0, &edge));
  if (edge.remap_count != 0) return grt_ok_status();
  return grtc_vm_try_fuse_compare_branch(a, test, out_done);
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

static grt_status_t grtc_vm_add_function(grtc_vm_assembler_t* a, grtc_operation_t* source,
                                         grt_string_view_t name, grt_string_view_t cconv,
                                         uint32_t i32_count, uint32_t ref_count) {
  uint32_t index = 0;
  grt_status_t status =
      grt_vm_bytecode_emitter_end_function(a->emitter, i32_count, ref_count, &index);
  if (!grt_status_is_ok(status)) {
    grt_status_t error = grtc_op_error(a->file_name, source, "%s", grt_status_message(status));
    grt_status_free(status);
    return error;
  }
  grt_vm_bytecode_function_t f = grt_vm_bytecode_emitter_function(a->emitter, index);
  grt_module_function_t def = {name, cconv, f.bytecode_offset, f.bytecode_length,
                               f.i32_register_count, f.ref_register_count};
  uint32_t ordinal = 0;
  return grt_module_writer_add_function(a->writer, &def, &ordinal);
}

static grt_status_t grtc_vm_assemble_function(grtc_vm_assembler_t* a, grtc_operation_t* function,
                                              uint32_t ordinal) {
  bool initializer = grtc_operation_is(function, "vm.initializer");
  if (function->region_count != 1 || !function->regions[0]->first) {
    return grtc_op_error(a->file_name, function, "'%.*s' needs a body",
                         GRT_SV_ARG(function->name));
  }
  grt_string_view_t name = grtc_vm_string_attribute(function, "sym_name");
  grt_string_view_t cconv = grt_make_cstring_view("0v_v");
  if (initializer) {
    char buffer[32];
    int length = snprintf(buffer, sizeof(buffer), "__initializer_%u", ordinal);
    name = grt_make_string_view(grt_arena_strndup(&a->arena, buffer, (size_t)length),
                                (size_t)length);
  } else {
    const grtc_type_t* type = grtc_vm_function_type(function);
    if (!type) {
      return grtc_op_error(a->file_name, function, "vm.func @%.*s has no function_type",
                           GRT_SV_ARG(name));
    }
    GRT_RETURN_IF_ERROR(grtc_vm_calling_convention(a, function, type, NULL, &cconv));
  }
  a->function = function;
  a->scratch_used = false;
  GRT_RETURN_IF_ERROR(grtc_vm_allocate_registers(&a->arena, a->file_name, function,
                                                 &a->registers));
  GRT_RETURN_IF_ERROR(grt_vm_bytecode_emitter_begin_function(a->emitter));
  grtc_region_t* body = function->regions[0];
  a->labels = grtc_vm_alloc(a, sizeof(*a->labels) * body->block_count);
  if (!a->labels) return grtc_vm_oom();
  uint32_t b = 0;
  for (grtc_block_t* block = body->first; block; block = block->next) {
    GRT_RETURN_IF_ERROR(grt_vm_bytecode_emitter_create_label(a->emitter, &a->labels[b++]));
  }
  b = 0;
  for (grtc_block_t* block = body->first; block; block = block->next) {
    GRT_RETURN_IF_ERROR(grt_vm_bytecode_emitter_place_label(a->emitter, a->labels[b++]));
    for (grtc_operation_t* op = block->first; op; op = op->next) {
      GRT_RETURN_IF_ERROR(grtc_vm_set_location(a, op));
      bool fused = false;
      GRT_RETURN_IF_ERROR(grtc_vm_try_fuse_compare_branch(a, op, &fused));
      if (fused) {
        op = op->next;  // the cond_br went into the fused op
        continue;
      }
      GRT_RETURN_IF_ERROR(grtc_vm_try_duplicate_loop_test(a, op, &fused));
      if (fused) continue;
      GRT_RETURN_IF_ERROR(grtc_vm_lower_op(a, op));
    }
  }
  uint32_t i32_count = a->registers.i32_count;
  if (a->scratch_used) i32_count = ((i32_count + 1u) & ~1u) + GRTC_VM_SCRATCH_SLOTS;
  return grtc_vm_add_function(a, function, name, cconv, i32_count, a->registers.ref_count);
}

static const struct {
  grt_vm_op_t constant, store;
} grtc_vm_global_stores[GRT_VM_TYPE_COUNT] = {
    {GRT_VM_OP_CONST_I32, GRT_VM_OP_GLOBAL_STORE_I32},
    {GRT_VM_OP_CONST_I64, GRT_VM_OP_GLOBAL_STORE_I64},
    {GRT_VM_OP_CONST_F32, GRT_VM_OP_GLOBAL_STORE_F32},
    {GRT_VM_OP_CONST_F64, GRT_VM_OP_GLOBAL_STORE_F64},
    // Refs have no constant initial value (they start null), only init(@f).
    {GRT_VM_OP_CONST_REF_ZERO, GRT_VM_OP_GLOBAL_STORE_REF},
};

// A global's init(@f): calls f, which must be () -> the global's type, and
// stores its result (register 0 of the result's bank) in the global.
static grt_status_t grtc_vm_emit_global_init_call(grtc_vm_assembler_t* a,
                                                  const grtc_vm_symbol_t* global) {
  grtc_operation_t* op = global->op;
  const grtc_vm_symbol_t* callee = NULL;
  GRT_RETURN_IF_ERROR(grtc_vm_symbol_operand(a, op, "initializer", GRTC_VM_SYMBOL_FUNCTION,
                                             &callee));
  const grtc_type_t* global_type = grtc_operation_attribute(op, "type")->type;
  const grtc_type_t* type = grtc_vm_function_type(callee->op);
  bool ok = type && type->function.input_count == 0 && type->function.result_count == 1 &&
            grtc_vm_type_matches(global_type, type->function.types[0]);
  if (!ok) {
    return grtc_op_error(a->file_name, op, "global @%.*s of type %s is initialized by "
                         "@%.*s, which must have type () -> %s but has type %s",
                         GRT_SV_ARG(global->name), grtc_vm_type_text(a, global_type),
                         GRT_SV_ARG(callee->name), grtc_vm_type_text(a, global_type),
                         type ? grtc_vm_type_text(a, type) : "none");
  }
  grt_vm_type_t vm_type = global->global_type;
  grt_vm_register_t* result = grtc_vm_alloc(a, sizeof(*result));
  if (!result) return grtc_vm_oom();
  result->type = vm_type;
  grt_vm_operand_t call[3] = {
      grt_vm_operand_ordinal(callee->ordinal | (callee->kind == GRTC_VM_SYMBOL_IMPORT
                                                    ? GRT_VM_CALLEE_IMPORT_BIT
                                                    : 0)),
      grt_vm_operand_list(NULL, 0), grt_vm_operand_list(result, 1)};
  GRT_RETURN_IF_ERROR(grtc_vm_emit(a, op, GRT_VM_OP_CALL, call, 3));
  grt_vm_operand_t value =
      vm_type == GRT_VM_TYPE_REF ? grt_vm_operand_ref_move(0) : grt_vm_operand_reg(vm_type, 0);
  return grtc_vm_emit(a, op, grtc_vm_global_stores[vm_type].store,
                      (grt_vm_operand_t[]){value, grt_vm_operand_ordinal(global->ordinal)}, 2);
}

// __init: stores the globals' constant initial values (they exist before any
// code runs, as zero does), then runs the vm.initializer bodies and the
// globals' init(@f) functions in declaration order.
static grt_status_t grtc_vm_assemble_init(grtc_vm_assembler_t* a, grtc_operation_t* vm_module) {
  GRT_RETURN_IF_ERROR(grt_vm_bytecode_emitter_begin_function(a->emitter));
  grt_vm_label_t entry;
  GRT_RETURN_IF_ERROR(grt_vm_bytecode_emitter_create_label(a->emitter, &entry));
  GRT_RETURN_IF_ERROR(grt_vm_bytecode_emitter_place_label(a->emitter, entry));
  grtc_vm_symbol_t* const* globals = a->globals.data;
  for (uint32_t i = 0; i < a->globals.count; ++i) {
    const grtc_vm_symbol_t* global = globals[i];
    grt_vm_type_t type = global->global_type;
    GRT_RETURN_IF_ERROR(grtc_vm_set_location(a, global->op));
    grt_vm_op_t constant = grtc_vm_global_stores[type].constant;
    grtc_vm_lowering_t l = grtc_vm_lowering(a, global->op, constant);
    l.value_attribute = "initial_value";
    uint64_t bits = 0;
    GRT_RETURN_IF_ERROR(grtc_vm_immediate(
        &l, grtc_vm_result_kind(grt_vm_op_info(constant)->operands), &bits));
    grt_vm_operand_t reg = grt_vm_operand_reg(type, 0);
    GRT_RETURN_IF_ERROR(grtc_vm_emit(a, global->op, constant,
                                     (grt_vm_operand_t[]){grt_vm_operand_imm(bits), reg}, 2));
    GRT_RETURN_IF_ERROR(grtc_vm_emit(a, global->op, grtc_vm_global_stores[type].store,
                                     (grt_vm_operand_t[]){reg, grt_vm_operand_ordinal(global->ordinal)},
                                     2));
  }
  bool uses_i32 = a->globals.count != 0, uses_ref = false;
  const grtc_vm_init_step_t* steps = a->init_steps.data;
  for (uint32_t i = 0; i < a->init_steps.count; ++i) {
    if (steps[i].global) {
      const grtc_vm_symbol_t* global =
          grtc_vm_find_symbol(a, grtc_vm_string_attribute(steps[i].global, "sym_name"));
      GRT_RETURN_IF_ERROR(grtc_vm_set_location(a, global->op));
      GRT_RETURN_IF_ERROR(grtc_vm_emit_global_init_call(a, global));
      bool ref = global->global_type == GRT_VM_TYPE_REF;
      uses_ref |= ref;
      uses_i32 |= !ref;
      continue;
    }
    grt_vm_operand_t call[3] = {grt_vm_operand_ordinal(steps[i].function),
                                grt_vm_operand_list(NULL, 0), grt_vm_operand_list(NULL, 0)};
    GRT_RETURN_IF_ERROR(grtc_vm_emit(a, vm_module, GRT_VM_OP_CALL, call, 3));
  }
  grt_vm_operand_t ret = grt_vm_operand_list(NULL, 0);
  GRT_RETURN_IF_ERROR(grtc_vm_emit(a, vm_module, GRT_VM_OP_RETURN, &ret, 1));
  grt_string_view_t name = grt_make_cstring_view("__init");
  GRT_RETURN_IF_ERROR(grtc_vm_add_function(a, vm_module, name, grt_make_cstring_view("0v_v"),
                                           uses_i32 ? 2 : 0, uses_ref ? 1 : 0));
  grt_module_export_t export_def = {name, a->functions.count};
  return grt_module_writer_add_export(a->writer, &export_def);
}

//===----------------------------------------------------------------------===//
// The module
//===----------------------------------------------------------------------===//

static grt_status_t grtc_vm_declare_global(grtc_vm_assembler_t* a, grtc_operation_t* op) {
  const grtc_attribute_t* type_attr = grtc_operation_attribute(op, "type");
  grt_vm_type_t type;
  if (!type_attr || type_attr->kind != GRTC_ATTR_TYPE ||
      !grtc_vm_register_type(type_attr->type, &type)) {
    return grtc_op_error(a->file_name, op, "global needs an i32, i64, f32, f64 or ref type");
  }
  uint32_t ordinal;
  if (type == GRT_VM_TYPE_REF) {
    ordinal = a->global_ref_count++;
  } else {
    uint32_t size = 4 * grt_vm_type_slot_count(type);
    ordinal = (a->global_bytes + size - 1) & ~(size - 1);
    a->global_bytes = ordinal + size;
  }
  grtc_vm_symbol_t* symbol = NULL;
  GRT_RETURN_IF_ERROR(grtc_vm_add_symbol(a, op, grtc_vm_string_attribute(op, "sym_name"),
                                         GRTC_VM_SYMBOL_GLOBAL, ordinal, &symbol));
  symbol->global_type = type;
  const grtc_attribute_t* initial = grtc_operation_attribute(op, "initial_value");
  if (initial && grtc_operation_attribute(op, "initializer")) {
    return grtc_op_error(a->file_name, op, "global has both an initial value and an initializer");
  }
  if (grtc_operation_attribute(op, "initializer")) {
    // Checked and emitted with __init, once every function is declared.
    grtc_vm_init_step_t step = {op, 0};
    return grt_arena_vec_push(&a->arena, &a->init_steps, &step, sizeof(step));
  }
  if (!initial) return grt_ok_status();
  if (type == GRT_VM_TYPE_REF) {
    // IREE's vm.global.ref has no initial_value: only null or init(@f).
    return grtc_op_error(a->file_name, op, "ref global @%.*s cannot have an initial value: "
                         "ref globals start null; set one with init(@function) or from a "
                         "vm.initializer",
                         GRT_SV_ARG(symbol->name));
  }
  bool zero = (initial->kind == GRTC_ATTR_INTEGER && initial->integer == 0) ||
              (initial->kind == GRTC_ATTR_FLOAT && initial->floating == 0.0 &&
               !signbit(initial->floating));
  if (zero) return grt_ok_status();  // globals start zeroed
  return grt_arena_vec_push(&a->arena, &a->globals, &symbol, sizeof(symbol));
}

// Declares every symbol so bodies may refer to ones defined later.
static grt_status_t grtc_vm_declare(grtc_vm_assembler_t* a, grtc_operation_t* vm_module) {
  uint32_t import_count = 0;
  for (grtc_operation_t* op = vm_module->regions[0]->first->first; op; op = op->next) {
    grt_string_view_t name = grtc_vm_string_attribute(op, "sym_name");
    if (grtc_operation_is(op, "vm.func")) {
      GRT_RETURN_IF_ERROR(grtc_vm_add_symbol(a, op, name, GRTC_VM_SYMBOL_FUNCTION,
                                             a->functions.count, NULL));
      GRT_RETURN_IF_ERROR(grt_arena_vec_push(&a->arena, &a->functions, &op, sizeof(op)));
    } else if (grtc_operation_is(op, "vm.initializer")) {
      grtc_vm_init_step_t step = {NULL, a->functions.count};
      GRT_RETURN_IF_ERROR(grt_arena_vec_push(&a->arena, &a->init_steps, &step, sizeof(step)));
      GRT_RETURN_IF_ERROR(grt_arena_vec_push(&a->arena, &a->functions, &op, sizeof(op)));
    } else if (grtc_operation_is(op, "vm.import")) {
      const grtc_type_t* type = grtc_vm_function_type(op);
      if (!type) {
        return grtc_op_error(a->file_name, op, "vm.import @%.*s has no function type",
                             GRT_SV_ARG(name));
      }
      grt_string_view_t cconv;
      GRT_RETURN_IF_ERROR(grtc_vm_calling_convention(
          a, op, type, grtc_operation_attribute(op, "is_variadic"), &cconv));
      grt_module_import_t import = {name, cconv,
                                    grtc_operation_attribute(op, "optional") != NULL};
      uint32_t ordinal = 0;
      GRT_RETURN_IF_ERROR(grt_module_writer_add_import(a->writer, &import, &ordinal));
      GRT_RETURN_IF_ERROR(grtc_vm_add_symbol(a, op, name, GRTC_VM_SYMBOL_IMPORT,
                                             import_count++, NULL));
    } else if (grt_string_view_starts_with(op->name, grt_make_cstring_view("vm.global."))) {
      GRT_RETURN_IF_ERROR(grtc_vm_declare_global(a, op));
    } else if (grtc_operation_is(op, "vm.rodata")) {
      uint32_t ordinal = 0;
      GRT_RETURN_IF_ERROR(grtc_vm_add_rodata(a, op, &ordinal));
      GRT_RETURN_IF_ERROR(grtc_vm_add_symbol(a, op, name, GRTC_VM_SYMBOL_RODATA, ordinal, NULL));
    } else if (!grtc_operation_is(op, "vm.export") &&
               !grtc_operation_is(op, "vm.module_terminator")) {
      return grtc_op_error(a->file_name, op, "unexpected '%.*s' in a vm.module (expected "
                           "vm.func, vm.import, vm.export, vm.global.*, vm.rodata or "
                           "vm.initializer)",
                           GRT_SV_ARG(op->name));
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_vm_add_exports(grtc_vm_assembler_t* a, grtc_operation_t* vm_module) {
  for (grtc_operation_t* op = vm_module->regions[0]->first->first; op; op = op->next) {
    if (!grtc_operation_is(op, "vm.export")) continue;
    const grtc_vm_symbol_t* function = NULL;
    GRT_RETURN_IF_ERROR(grtc_vm_symbol_operand(a, op, "function_ref", GRTC_VM_SYMBOL_FUNCTION,
                                               &function));
    if (function->kind != GRTC_VM_SYMBOL_FUNCTION) {
      return grtc_op_error(a->file_name, op, "vm.export names @%.*s, an import; only "
                           "functions of this module can be exported",
                           GRT_SV_ARG(function->name));
    }
    grt_module_export_t export_def = {grtc_vm_string_attribute(op, "export_name"),
                                      function->ordinal};
    grt_status_t status = grt_module_writer_add_export(a->writer, &export_def);
    if (!grt_status_is_ok(status)) {
      grt_status_t error = grtc_op_error(a->file_name, op, "%s", grt_status_message(status));
      grt_status_free(status);
      return error;
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_vm_assemble_module(grtc_vm_assembler_t* a, grtc_operation_t* vm_module) {
  grt_string_view_t name = grtc_vm_string_attribute(vm_module, "sym_name");
  if (!name.size) {
    return grtc_op_error(a->file_name, vm_module, "vm.module needs a name (@name)");
  }
  const grtc_attribute_t* version = grtc_operation_attribute(vm_module, "version");
  GRT_RETURN_IF_ERROR(grt_module_writer_set_name(
      a->writer, name,
      version && version->kind == GRTC_ATTR_INTEGER ? (uint32_t)version->integer : 0));
  if (vm_module->region_count != 1 || !vm_module->regions[0]->first) {
    return grtc_op_error(a->file_name, vm_module, "vm.module needs a body");
  }
  GRT_RETURN_IF_ERROR(grtc_vm_declare(a, vm_module));
  grtc_operation_t* const* functions = a->functions.data;
  for (uint32_t i = 0; i < a->functions.count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_vm_assemble_function(a, functions[i], i));
  }
  if (a->globals.count || a->init_steps.count) {
    GRT_RETURN_IF_ERROR(grtc_vm_assemble_init(a, vm_module));
  }
  GRT_RETURN_IF_ERROR(grtc_vm_add_exports(a, vm_module));
  grt_const_byte_span_t bytecode;
  GRT_RETURN_IF_ERROR(grt_vm_bytecode_emitter_finish(a->emitter, &bytecode));
  GRT_RETURN_IF_ERROR(grt_module_writer_set_bytecode(a->writer, bytecode));
  uint32_t locations = grt_vm_bytecode_emitter_location_count(a->emitter);
  for (uint32_t i = 0; i < locations; ++i) {
    grt_vm_bytecode_location_t l = grt_vm_bytecode_emitter_location(a->emitter, i);
    grt_module_debug_location_t def = {l.function_index, l.bytecode_offset, l.location};
    GRT_RETURN_IF_ERROR(grt_module_writer_add_debug_location(a->writer, &def));
  }
  grt_module_writer_set_features(a->writer, a->features);
  grt_module_writer_set_globals(a->writer, a->global_bytes, a->global_ref_count);
  return grt_ok_status();
}

grtc_operation_t* grtc_vm_find_module(const grtc_module_t* module) {
  if (!module || !module->body) return NULL;
  for (grtc_operation_t* op = module->body->first; op; op = op->next) {
    if (grtc_operation_is(op, "vm.module")) return op;
    if (grtc_operation_is(op, "builtin.module") && op->region_count == 1 &&
        op->regions[0]->first) {
      for (grtc_operation_t* inner = op->regions[0]->first->first; inner; inner = inner->next) {
        if (grtc_operation_is(inner, "vm.module")) return inner;
      }
    }
  }
  return NULL;
}

grt_status_t grtc_vm_assemble(grtc_operation_t* vm_module, const char* file_name,
                              grt_allocator_t allocator, grt_module_writer_t* writer) {
  grtc_vm_assembler_t a;
  memset(&a, 0, sizeof(a));
  a.file_name = file_name;
  a.allocator = allocator;
  a.writer = writer;
  grt_arena_init(allocator, 0, &a.arena);
  grt_name_index_initialize(allocator, &a.symbol_index);
  grt_status_t status = grt_vm_bytecode_emitter_create(allocator, &a.emitter);
  if (grt_status_is_ok(status)) status = grtc_vm_assemble_module(&a, vm_module);
  grt_vm_bytecode_emitter_destroy(a.emitter);
  grt_name_index_deinitialize(&a.symbol_index);
  grt_arena_deinit(&a.arena);
  return status;
}
