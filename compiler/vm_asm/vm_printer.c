#include "compiler/vm_asm/vm_printer.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "compiler/mlir/printer.h"

// Per function (names are scoped by vm.func and vm.initializer): value ->
// name and block -> index, and the set of names taken.
typedef struct grtc_vm_slot_t {
  const void* key;
  const char* name;  // values
  uint32_t index;    // blocks
} grtc_vm_slot_t;

typedef struct grtc_vm_printer_t {
  grt_allocator_t allocator;
  grt_string_builder_t* out;
  grt_arena_t arena;  // names and tables; reset per function
  grtc_vm_slot_t* slots;
  uint32_t slot_capacity;  // a power of two
  const char** taken;
  uint32_t taken_capacity;
  uint32_t next_number;
  bool failed;
} grtc_vm_printer_t;

//===----------------------------------------------------------------------===//
// Tables
//===----------------------------------------------------------------------===//

static uint64_t grtc_vm_hash_pointer(const void* key) {
  uint64_t h = (uint64_t)(uintptr_t)key;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

static uint64_t grtc_vm_hash_string(const char* s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; ++s) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static grtc_vm_slot_t* grtc_vm_slot(grtc_vm_printer_t* p, const void* key) {
  if (!p->slots) return NULL;
  uint32_t mask = p->slot_capacity - 1;
  for (uint32_t i = (uint32_t)grtc_vm_hash_pointer(key) & mask;; i = (i + 1) & mask) {
    if (p->slots[i].key == key || !p->slots[i].key) return &p->slots[i];
  }
}

// Finds |name| in the taken set, or the empty slot where it would go.
static const char** grtc_vm_taken_slot(grtc_vm_printer_t* p, const char* name) {
  uint32_t mask = p->taken_capacity - 1;
  for (uint32_t i = (uint32_t)grtc_vm_hash_string(name) & mask;; i = (i + 1) & mask) {
    if (!p->taken[i] || strcmp(p->taken[i], name) == 0) return &p->taken[i];
  }
}

static uint32_t grtc_vm_count_values(const grtc_region_t* region) {
  uint32_t count = 0;
  for (const grtc_block_t* block = region->first; block; block = block->next) {
    count += block->arg_count + 1;
    for (const grtc_operation_t* op = block->first; op; op = op->next) {
      count += op->result_count;
      for (uint32_t r = 0; r < op->region_count; ++r) {
        count += grtc_vm_count_values(op->regions[r]);
      }
    }
  }
  return count;
}

// A value name the lexer reads back as one token: '%', then letters,
// digits and _$.-.
static bool grtc_vm_valid_name(grt_string_view_t name) {
  if (name.size < 2 || name.data[0] != '%') return false;
  for (size_t i = 1; i < name.size; ++i) {
    char c = name.data[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '$' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

static const char* grtc_vm_take(grtc_vm_printer_t* p, const char* candidate) {
  const char** slot = grtc_vm_taken_slot(p, candidate);
  if (*slot) return NULL;
  char* copy = grt_arena_strndup(&p->arena, candidate, strlen(candidate));
  if (!copy) {
    p->failed = true;
    return NULL;
  }
  *slot = copy;
  return copy;
}

static void grtc_vm_name_value(grtc_vm_printer_t* p, const grtc_value_t* value) {
  grtc_vm_slot_t* slot = grtc_vm_slot(p, value);
  if (!slot || slot->key) return;
  char candidate[160];
  const char* name = NULL;
  if (grtc_vm_valid_name(value->name) && value->name.size < 120) {
    snprintf(candidate, sizeof(candidate), "%.*s", GRT_SV_ARG(value->name));
    name = grtc_vm_take(p, candidate);
    for (uint32_t suffix = 1; !name && !p->failed; ++suffix) {
      snprintf(candidate, sizeof(candidate), "%.*s_%u", GRT_SV_ARG(value->name), suffix);
      name = grtc_vm_take(p, candidate);
    }
  }
  while (!name && !p->failed) {
    snprintf(candidate, sizeof(candidate), "%%%u", p->next_number++);
    name = grtc_vm_take(p, candidate);
  }
  slot->key = value;
  slot->name = name ? name : "%<out-of-memory>";
}

static void grtc_vm_name_region(grtc_vm_printer_t* p, const grtc_region_t* region) {
  uint32_t index = 0;
  for (const grtc_block_t* block = region->first; block; block = block->next) {
    grtc_vm_slot_t* slot = grtc_vm_slot(p, block);
    if (slot && !slot->key) {
      slot->key = block;
      slot->index = index;
    }
    ++index;
    for (uint32_t i = 0; i < block->arg_count; ++i) grtc_vm_name_value(p, &block->args[i]);
    for (const grtc_operation_t* op = block->first; op; op = op->next) {
      for (uint32_t i = 0; i < op->result_count; ++i) grtc_vm_name_value(p, &op->results[i]);
      for (uint32_t r = 0; r < op->region_count; ++r) grtc_vm_name_region(p, op->regions[r]);
    }
  }
}

// Starts a naming scope for |op|'s regions (a function or initializer).
static void grtc_vm_begin_scope(grtc_vm_printer_t* p, const grtc_operation_t* op) {
  grt_arena_reset(&p->arena);
  p->next_number = 0;
  uint32_t count = 0;
  for (uint32_t r = 0; r < op->region_count; ++r) count += grtc_vm_count_values(op->regions[r]);
  uint32_t capacity = 16;
  while (capacity < 2 * count + 2) capacity *= 2;
  p->slots = grt_arena_alloc_zeroed(&p->arena, capacity * sizeof(*p->slots));
  p->taken = grt_arena_alloc_zeroed(&p->arena, capacity * sizeof(*p->taken));
  p->slot_capacity = capacity;
  p->taken_capacity = capacity;
  if (!p->slots || !p->taken) {
    p->failed = true;
    p->slots = NULL;
    return;
  }
  for (uint32_t r = 0; r < op->region_count; ++r) grtc_vm_name_region(p, op->regions[r]);
}

//===----------------------------------------------------------------------===//
// Pieces
//===----------------------------------------------------------------------===//

static void grtc_vm_puts(grtc_vm_printer_t* p, const char* text) {
  grt_string_builder_append_cstring(p->out, text);
}

static void grtc_vm_view(grtc_vm_printer_t* p, grt_string_view_t text) {
  grt_string_builder_append(p->out, text);
}

static void grtc_vm_indent(grtc_vm_printer_t* p, int indent) {
  for (int i = 0; i < indent; ++i) grtc_vm_puts(p, "  ");
}

static void grtc_vm_value(grtc_vm_printer_t* p, const grtc_value_t* value) {
  grtc_vm_slot_t* slot = grtc_vm_slot(p, value);
  if (slot && slot->key == value) {
    grtc_vm_puts(p, slot->name);
  } else {
    // Defined outside the scope: invalid IR, printed as written.
    grtc_vm_view(p, value->name.size ? value->name : grt_make_cstring_view("%<undefined>"));
  }
}

static void grtc_vm_values(grtc_vm_printer_t* p, grtc_value_t* const* values, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    if (i) grtc_vm_puts(p, ", ");
    grtc_vm_value(p, values[i]);
  }
}

// Prints what |format| writes for |thing| (grtc_format_type or
// grtc_format_attribute: they return the full length, so a longer text is
// formatted again into a buffer of its size).
typedef size_t (*grtc_vm_format_fn_t)(const void* thing, char* buffer, size_t capacity);

static void grtc_vm_formatted(grtc_vm_printer_t* p, grtc_vm_format_fn_t format,
                              const void* thing) {
  char buffer[256];
  size_t length = format(thing, buffer, sizeof(buffer));
  if (length < sizeof(buffer)) {
    grtc_vm_view(p, grt_make_string_view(buffer, length));
    return;
  }
  char* big = NULL;
  if (!grt_status_consume_ok(grt_allocator_malloc(p->allocator, length + 1, (void**)&big))) {
    p->failed = true;
    return;
  }
  format(thing, big, length + 1);
  grtc_vm_view(p, grt_make_string_view(big, length));
  grt_allocator_free(p->allocator, big);
}

static size_t grtc_vm_format_type(const void* type, char* buffer, size_t capacity) {
  return grtc_format_type(type, buffer, capacity);
}

static size_t grtc_vm_format_attribute(const void* attribute, char* buffer, size_t capacity) {
  return grtc_format_attribute(attribute, buffer, capacity);
}

static void grtc_vm_type(grtc_vm_printer_t* p, const grtc_type_t* type) {
  grtc_vm_formatted(p, grtc_vm_format_type, type);
}

static void grtc_vm_value_types(grtc_vm_printer_t* p, grtc_value_t* const* values,
                                uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    if (i) grtc_vm_puts(p, ", ");
    grtc_vm_type(p, values[i]->type);
  }
}

static void grtc_vm_attribute(grtc_vm_printer_t* p, const grtc_attribute_t* attribute) {
  grtc_vm_formatted(p, grtc_vm_format_attribute, attribute);
}

static void grtc_vm_string(grtc_vm_printer_t* p, grt_string_view_t value) {
  static const char hex[] = "0123456789ABCDEF";
  char chunk[256];
  size_t n = 0;
  chunk[n++] = '"';
  for (size_t i = 0; i < value.size; ++i) {
    if (n + 4 > sizeof(chunk)) {
      grtc_vm_view(p, grt_make_string_view(chunk, n));
      n = 0;
    }
    unsigned char c = (unsigned char)value.data[i];
    if (c == '"' || c == '\\') {
      chunk[n++] = '\\';
      chunk[n++] = (char)c;
    } else if (c >= 32 && c < 127) {
      chunk[n++] = (char)c;
    } else {
      chunk[n++] = '\\';
      chunk[n++] = hex[c >> 4];
      chunk[n++] = hex[c & 15];
    }
  }
  chunk[n++] = '"';
  grtc_vm_view(p, grt_make_string_view(chunk, n));
}

static void grtc_vm_symbol(grtc_vm_printer_t* p, grt_string_view_t name) {
  bool bare = name.size > 0;
  for (size_t i = 0; i < name.size && bare; ++i) {
    char c = name.data[i];
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    bool other = (c >= '0' && c <= '9') || c == '$' || c == '.' || c == '-';
    bare = letter || (i > 0 && other);
  }
  grtc_vm_puts(p, "@");
  if (bare) {
    grtc_vm_view(p, name);
  } else {
    grtc_vm_string(p, name);
  }
}

static void grtc_vm_location(grtc_vm_printer_t* p, const grtc_location_t* location) {
  if (!location) return;
  grt_string_view_t file;
  uint32_t line = 0, column = 0;
  if (grtc_location_file_position(location, &file, &line, &column)) {
    grtc_vm_puts(p, " loc(");
    grtc_vm_string(p, file);
    grt_string_builder_appendf(p->out, ":%u:%u)", line, column);
  } else if (location->kind == GRTC_LOC_UNKNOWN) {
    grtc_vm_puts(p, " loc(unknown)");
  }
}

// The op's attribute named |name|, only from its dictionary.
static const grtc_attribute_t* grtc_vm_attr(const grtc_operation_t* op, const char* name) {
  for (uint32_t i = 0; i < op->attribute_count; ++i) {
    if (grt_string_view_equal_cstring(op->attributes[i].name, name)) return op->attributes[i].value;
  }
  return NULL;
}

static bool grtc_vm_is_known(const char* const* known, grt_string_view_t name) {
  for (; known && *known; ++known) {
    if (grt_string_view_equal_cstring(name, *known)) return true;
  }
  return false;
}

// " {a = 1, b}" (|prefix| " attributes {" for forms that spell it so) for
// the attributes not in |known|; nothing when there are none.
static void grtc_vm_other_attributes(grtc_vm_printer_t* p, const grtc_operation_t* op,
                                     const char* const* known, const char* prefix) {
  bool first = true;
  for (uint32_t i = 0; i < op->attribute_count; ++i) {
    const grtc_named_attribute_t* entry = &op->attributes[i];
    if (grtc_vm_is_known(known, entry->name)) continue;
    grtc_vm_puts(p, first ? prefix : ", ");
    first = false;
    bool bare = entry->name.size > 0;
    for (size_t c = 0; c < entry->name.size && bare; ++c) {
      char ch = entry->name.data[c];
      bare = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
             (c > 0 && ((ch >= '0' && ch <= '9') || ch == '$' || ch == '.'));
    }
    if (bare) {
      grtc_vm_view(p, entry->name);
    } else {
      grtc_vm_string(p, entry->name);
    }
    if (entry->value->kind != GRTC_ATTR_UNIT) {
      grtc_vm_puts(p, " = ");
      grtc_vm_attribute(p, entry->value);
    }
  }
  if (!first) grtc_vm_puts(p, "}");
}

static void grtc_vm_results(grtc_vm_printer_t* p, const grtc_operation_t* op) {
  if (!op->result_count) return;
  for (uint32_t i = 0; i < op->result_count; ++i) {
    if (i) grtc_vm_puts(p, ", ");
    grtc_vm_value(p, &op->results[i]);
  }
  grtc_vm_puts(p, " = ");
}

static void grtc_vm_successor(grtc_vm_printer_t* p, const grtc_successor_t* successor) {
  grtc_vm_slot_t* slot = grtc_vm_slot(p, successor->block);
  grt_string_builder_appendf(p->out, "^bb%u", slot && slot->key ? slot->index : 0u);
  if (!successor->operand_count) return;
  grtc_vm_puts(p, "(");
  grtc_vm_values(p, successor->operands, successor->operand_count);
  grtc_vm_puts(p, " : ");
  grtc_vm_value_types(p, successor->operands, successor->operand_count);
  grtc_vm_puts(p, ")");
}

// "(t1, t2)" or "t" / "(t1, t2)" for results (|parenthesize_one|: "(t)").
static void grtc_vm_type_list(grtc_vm_printer_t* p, const grtc_type_t* const* types,
                              uint32_t count, bool parenthesize_one) {
  bool paren = count != 1 || parenthesize_one;
  if (paren) grtc_vm_puts(p, "(");
  for (uint32_t i = 0; i < count; ++i) {
    if (i) grtc_vm_puts(p, ", ");
    grtc_vm_type(p, types[i]);
  }
  if (paren) grtc_vm_puts(p, ")");
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

static void grtc_vm_print_op(grtc_vm_printer_t* p, const grtc_operation_t* op, int indent);

static void grtc_vm_print_blocks(grtc_vm_printer_t* p, const grtc_region_t* region, int indent,
                                 bool label_entry) {
  for (const grtc_block_t* block = region->first; block; block = block->next) {
    if (block != region->first || label_entry) {
      grtc_vm_indent(p, indent - 1);
      grtc_vm_slot_t* slot = grtc_vm_slot(p, block);
      grt_string_builder_appendf(p->out, "^bb%u", slot && slot->key ? slot->index : 0u);
      if (block->arg_count) {
        grtc_vm_puts(p, "(");
        for (uint32_t i = 0; i < block->arg_count; ++i) {
          if (i) grtc_vm_puts(p, ", ");
          grtc_vm_value(p, &block->args[i]);
          grtc_vm_puts(p, " : ");
          grtc_vm_type(p, block->args[i].type);
        }
        grtc_vm_puts(p, ")");
      }
      grtc_vm_puts(p, ":\n");
    }
    for (const grtc_operation_t* op = block->first; op && !p->failed; op = op->next) {
      grtc_vm_print_op(p, op, indent);
    }
  }
}

static void grtc_vm_visibility(grtc_vm_printer_t* p, const grtc_operation_t* op) {
  const grtc_attribute_t* visibility = grtc_vm_attr(op, "sym_visibility");
  if (visibility && visibility->kind == GRTC_ATTR_STRING) {
    grtc_vm_view(p, visibility->string);
    grtc_vm_puts(p, " ");
  }
}

static grt_string_view_t grtc_vm_sym_name(const grtc_operation_t* op) {
  const grtc_attribute_t* name = grtc_vm_attr(op, "sym_name");
  return name && name->kind == GRTC_ATTR_STRING ? name->string : grt_make_cstring_view("");
}

// The function type of a vm.func / vm.import, or NULL.
static const grtc_type_t* grtc_vm_signature(const grtc_operation_t* op) {
  const grtc_attribute_t* type = grtc_vm_attr(op, "function_type");
  return type && type->kind == GRTC_ATTR_TYPE && type->type &&
                 type->type->kind == GRTC_TYPE_FUNCTION
             ? type->type
             : NULL;
}

static void grtc_vm_print_func(grtc_vm_printer_t* p, const grtc_operation_t* op, int indent) {
  static const char* const known[] = {"sym_name", "sym_visibility", "function_type", NULL};
  const grtc_type_t* type = grtc_vm_signature(op);
  const grtc_block_t* entry = op->regions[0]->first;
  grtc_vm_begin_scope(p, op);
  grtc_vm_puts(p, "vm.func ");
  grtc_vm_visibility(p, op);
  grtc_vm_symbol(p, grtc_vm_sym_name(op));
  grtc_vm_puts(p, "(");
  for (uint32_t i = 0; i < entry->arg_count; ++i) {
    if (i) grtc_vm_puts(p, ", ");
    grtc_vm_value(p, &entry->args[i]);
    grtc_vm_puts(p, " : ");
    grtc_vm_type(p, entry->args[i].type);
  }
  grtc_vm_puts(p, ")");
  if (type->function.result_count) {
    grtc_vm_puts(p, " -> ");
    grtc_vm_type_list(p, type->function.types + type->function.input_count,
                      type->function.result_count, true);
  }
  grtc_vm_other_attributes(p, op, known, " attributes {");
  grtc_vm_puts(p, " {\n");
  grtc_vm_print_blocks(p, op->regions[0], indent + 1, false);
  grtc_vm_indent(p, indent);
  grtc_vm_puts(p, "}");
}

static void grtc_vm_print_import(grtc_vm_printer_t* p, const grtc_operation_t* op) {
  static const char* const known[] = {"sym_name", "sym_visibility", "function_type",
                                      "is_variadic", "optional", NULL};
  const grtc_type_t* type = grtc_vm_signature(op);
  const grtc_attribute_t* variadic = grtc_vm_attr(op, "is_variadic");
  grtc_vm_puts(p, "vm.import ");
  grtc_vm_visibility(p, op);
  if (grtc_vm_attr(op, "optional")) grtc_vm_puts(p, "optional ");
  grtc_vm_symbol(p, grtc_vm_sym_name(op));
  grtc_vm_puts(p, "(");
  for (uint32_t i = 0; i < type->function.input_count; ++i) {
    if (i) grtc_vm_puts(p, ", ");
    grtc_vm_type(p, type->function.types[i]);
    if (variadic && variadic->array.items[i]->boolean) grtc_vm_puts(p, " ...");
  }
  grtc_vm_puts(p, ")");
  if (type->function.result_count) {
    grtc_vm_puts(p, " -> ");
    grtc_vm_type_list(p, type->function.types + type->function.input_count,
                      type->function.result_count, false);
  }
  grtc_vm_other_attributes(p, op, known, " attributes {");
}

static void grtc_vm_print_global(grtc_vm_printer_t* p, const grtc_operation_t* op) {
  static const char* const known[] = {"sym_name", "sym_visibility", "is_mutable", "type",
                                      "initial_value", "initializer", NULL};
  grtc_vm_view(p, op->name);
  grtc_vm_puts(p, " ");
  grtc_vm_visibility(p, op);
  if (grtc_vm_attr(op, "is_mutable")) grtc_vm_puts(p, "mutable ");
  grtc_vm_symbol(p, grtc_vm_sym_name(op));
  const grtc_attribute_t* initializer = grtc_vm_attr(op, "initializer");
  if (initializer) {
    grtc_vm_puts(p, " init(");
    grtc_vm_attribute(p, initializer);
    grtc_vm_puts(p, ")");
  }
  grtc_vm_puts(p, " : ");
  grtc_vm_type(p, grtc_vm_attr(op, "type")->type);
  const grtc_attribute_t* initial = grtc_vm_attr(op, "initial_value");
  if (initial) {
    grtc_vm_puts(p, " = ");
    grtc_vm_attribute(p, initial);
  }
  grtc_vm_other_attributes(p, op, known, " attributes {");
}

// dense<"0x..."> : tensor<Nxi8> without going through a fixed buffer.
static bool grtc_vm_is_byte_blob(const grtc_attribute_t* value) {
  return value->kind == GRTC_ATTR_DENSE_ELEMENTS && !value->dense.splat &&
         value->type->kind == GRTC_TYPE_TENSOR && value->type->shaped.ranked &&
         value->type->shaped.rank == 1 &&
         grtc_type_is_integer(value->type->shaped.element, 8) &&
         value->type->shaped.element->integer.signedness == GRTC_SIGNLESS &&
         !value->type->shaped.encoding && value->dense.size > 0 &&
         value->type->shaped.dims[0] == (int64_t)value->dense.size;
}

static void grtc_vm_print_blob(grtc_vm_printer_t* p, const grtc_attribute_t* value) {
  static const char hex[] = "0123456789ABCDEF";
  grtc_vm_puts(p, "dense<\"0x");
  char chunk[1024];
  size_t n = 0;
  for (size_t i = 0; i < value->dense.size; ++i) {
    uint8_t byte = value->dense.data[i];
    chunk[n++] = hex[byte >> 4];
    chunk[n++] = hex[byte & 15];
    if (n == sizeof(chunk)) {
      grtc_vm_view(p, grt_make_string_view(chunk, n));
      n = 0;
    }
  }
  grtc_vm_view(p, grt_make_string_view(chunk, n));
  grt_string_builder_appendf(p->out, "\"> : tensor<%zuxi8>", value->dense.size);
}

static void grtc_vm_print_rodata(grtc_vm_printer_t* p, const grtc_operation_t* op) {
  static const char* const known[] = {"sym_name", "sym_visibility", "value", NULL};
  const grtc_attribute_t* value = grtc_vm_attr(op, "value");
  grtc_vm_puts(p, "vm.rodata ");
  grtc_vm_visibility(p, op);
  grtc_vm_symbol(p, grtc_vm_sym_name(op));
  grtc_vm_other_attributes(p, op, known, " {");
  grtc_vm_puts(p, " ");
  if (grtc_vm_is_byte_blob(value)) {
    grtc_vm_print_blob(p, value);
  } else if (value->kind == GRTC_ATTR_STRING && !value->type) {
    grtc_vm_string(p, value->string);
  } else {
    grtc_vm_attribute(p, value);
  }
}

static void grtc_vm_print_export(grtc_vm_printer_t* p, const grtc_operation_t* op) {
  static const char* const known[] = {"function_ref", "export_name", NULL};
  const grtc_attribute_t* function = grtc_vm_attr(op, "function_ref");
  const grtc_attribute_t* name = grtc_vm_attr(op, "export_name");
  grtc_vm_puts(p, "vm.export ");
  grtc_vm_symbol(p, function->symbol.names[0]);
  if (!grt_string_view_equal(name->string, function->symbol.names[0])) {
    grtc_vm_puts(p, " as(");
    grtc_vm_string(p, name->string);
    grtc_vm_puts(p, ")");
  }
  grtc_vm_other_attributes(p, op, known, " attributes {");
}

static void grtc_vm_print_call(grtc_vm_printer_t* p, const grtc_operation_t* op) {
  static const char* const known[] = {"callee", NULL};
  grtc_vm_results(p, op);
  grtc_vm_puts(p, "vm.call ");
  grtc_vm_symbol(p, grtc_vm_attr(op, "callee")->symbol.names[0]);
  grtc_vm_puts(p, "(");
  grtc_vm_values(p, op->operands, op->operand_count);
  grtc_vm_puts(p, ")");
  grtc_vm_other_attributes(p, op, known, " {");
  grtc_vm_puts(p, " : (");
  grtc_vm_value_types(p, op->operands, op->operand_count);
  grtc_vm_puts(p, ") -> (");
  for (uint32_t i = 0; i < op->result_count; ++i) {
    if (i) grtc_vm_puts(p, ", ");
    grtc_vm_type(p, op->results[i].type);
  }
  grtc_vm_puts(p, ")");
}

static void grtc_vm_print_call_variadic(grtc_vm_printer_t* p, const grtc_operation_t* op) {
  static const char* const known[] = {"callee", "segment_sizes", "segment_types", NULL};
  const grtc_attribute_t* sizes = grtc_vm_attr(op, "segment_sizes");
  const grtc_attribute_t* types = grtc_vm_attr(op, "segment_types");
  uint32_t count = types->array.count;
  grtc_vm_results(p, op);
  grtc_vm_puts(p, "vm.call.variadic ");
  grtc_vm_symbol(p, grtc_vm_attr(op, "callee")->symbol.names[0]);
  grtc_vm_puts(p, "(");
  uint32_t next = 0;
  for (uint32_t i = 0; i < count; ++i) {
    int32_t size;
    memcpy(&size, sizes->dense.data + 4 * i, sizeof(size));
    if (i) grtc_vm_puts(p, ", ");
    if (size < 0) {
      grtc_vm_value(p, op->operands[next++]);
      continue;
    }
    const grtc_type_t* type = types->array.items[i]->type;
    uint32_t group = type->kind == GRTC_TYPE_TUPLE ? type->function.input_count : 0;
    grtc_vm_puts(p, "[");
    for (int32_t item = 0; item < size; ++item) {
      if (item) grtc_vm_puts(p, ", ");
      if (!group) {
        grtc_vm_value(p, op->operands[next++]);
        continue;
      }
      grtc_vm_puts(p, "(");
      grtc_vm_values(p, op->operands + next, group);
      next += group;
      grtc_vm_puts(p, ")");
    }
    grtc_vm_puts(p, "]");
  }
  grtc_vm_puts(p, ")");
  grtc_vm_other_attributes(p, op, known, " {");
  grtc_vm_puts(p, " : (");
  for (uint32_t i = 0; i < count; ++i) {
    int32_t size;
    memcpy(&size, sizes->dense.data + 4 * i, sizeof(size));
    if (i) grtc_vm_puts(p, ", ");
    grtc_vm_type(p, types->array.items[i]->type);
    if (size >= 0) grtc_vm_puts(p, " ...");
  }
  grtc_vm_puts(p, ") -> (");
  for (uint32_t i = 0; i < op->result_count; ++i) {
    if (i) grtc_vm_puts(p, ", ");
    grtc_vm_type(p, op->results[i].type);
  }
  grtc_vm_puts(p, ")");
}

// Whether the operands and segment attributes of a vm.call.variadic agree
// (else it prints in the generic form).
static bool grtc_vm_variadic_printable(const grtc_operation_t* op) {
  const grtc_attribute_t* callee = grtc_vm_attr(op, "callee");
  const grtc_attribute_t* sizes = grtc_vm_attr(op, "segment_sizes");
  const grtc_attribute_t* types = grtc_vm_attr(op, "segment_types");
  if (!callee || callee->kind != GRTC_ATTR_SYMBOL_REF || callee->symbol.count != 1 || !sizes ||
      sizes->kind != GRTC_ATTR_DENSE_ARRAY || !types || types->kind != GRTC_ATTR_ARRAY ||
      sizes->dense.size != 4u * types->array.count) {
    return false;
  }
  uint64_t operands = 0;
  for (uint32_t i = 0; i < types->array.count; ++i) {
    const grtc_attribute_t* type = types->array.items[i];
    if (type->kind != GRTC_ATTR_TYPE) return false;
    int32_t size;
    memcpy(&size, sizes->dense.data + 4 * i, sizeof(size));
    uint32_t group = type->type->kind == GRTC_TYPE_TUPLE ? type->type->function.input_count : 1;
    operands += size < 0 ? 1 : (uint64_t)size * group;
  }
  return operands == op->operand_count;
}

static void grtc_vm_print_return(grtc_vm_printer_t* p, const grtc_operation_t* op) {
  grtc_vm_puts(p, "vm.return");
  if (op->operand_count) {
    grtc_vm_puts(p, " ");
    grtc_vm_values(p, op->operands, op->operand_count);
  }
  grtc_vm_other_attributes(p, op, NULL, " {");
  if (op->operand_count) {
    grtc_vm_puts(p, " : ");
    grtc_vm_value_types(p, op->operands, op->operand_count);
  }
}

static void grtc_vm_print_branch(grtc_vm_printer_t* p, const grtc_operation_t* op) {
  grtc_vm_view(p, op->name);
  grtc_vm_puts(p, " ");
  if (op->operand_count) {
    grtc_vm_value(p, op->operands[0]);
    grtc_vm_puts(p, ", ");
  }
  for (uint32_t s = 0; s < op->successor_count; ++s) {
    if (s) grtc_vm_puts(p, ", ");
    grtc_vm_successor(p, &op->successors[s]);
  }
  grtc_vm_other_attributes(p, op, NULL, " {");
}

static void grtc_vm_print_br_table(grtc_vm_printer_t* p, const grtc_operation_t* op) {
  grtc_vm_puts(p, "vm.br_table ");
  grtc_vm_value(p, op->operands[0]);
  grtc_vm_puts(p, " {default: ");
  grtc_vm_successor(p, &op->successors[0]);
  for (uint32_t s = 1; s < op->successor_count; ++s) {
    grt_string_builder_appendf(p->out, ", %u: ", s - 1);
    grtc_vm_successor(p, &op->successors[s]);
  }
  grtc_vm_puts(p, "}");
  grtc_vm_other_attributes(p, op, NULL, " {");
}

// The op-name component i32/i64/f32/f64 (what the vm syntax types a bare
// literal of this op by), else NULL (i32).
static const char* grtc_vm_name_type(grt_string_view_t name) {
  static const char* const components[] = {"i32", "i64", "f32", "f64"};
  const char* p = name.data;
  const char* end = name.data + name.size;
  while (p < end) {
    const char* dot = memchr(p, '.', (size_t)(end - p));
    size_t length = (size_t)((dot ? dot : end) - p);
    for (size_t i = 0; i < 4; ++i) {
      if (length == 3 && memcmp(p, components[i], 3) == 0) return components[i];
    }
    p = dot ? dot + 1 : end;
  }
  return NULL;
}

static bool grtc_vm_has_prefix(grt_string_view_t name, const char* prefix) {
  size_t length = strlen(prefix);
  return name.size >= length && memcmp(name.data, prefix, length) == 0;
}

// The operand form the vm syntax gives every other vm op:
//   %r = vm.op %a, %b, @symbol, literal {attrs} : operand types [-> results]
// Which attribute a bare @symbol / literal becomes depends on the op
// family; *out_* receive them (NULL: that family has none).
static void grtc_vm_operand_family(grt_string_view_t name, const char** out_symbol,
                                   const char** out_literal, bool* out_i32_result) {
  *out_symbol = NULL;
  *out_literal = NULL;
  *out_i32_result = false;
  if (grtc_vm_has_prefix(name, "vm.const.")) {
    *out_symbol = "rodata";
    *out_literal = "value";
  } else if (grtc_vm_has_prefix(name, "vm.global.load.") ||
             grtc_vm_has_prefix(name, "vm.global.store.")) {
    *out_symbol = "global";
  } else if (grt_string_view_equal_cstring(name, "vm.import.resolved")) {
    *out_symbol = "import";
  } else if (grtc_vm_has_prefix(name, "vm.cmp.") ||
             grt_string_view_equal_cstring(name, "vm.buffer.compare")) {
    *out_i32_result = true;
  } else if (grtc_vm_has_prefix(name, "vm.check.") ||
             grt_string_view_equal_cstring(name, "vm.fail") ||
             grt_string_view_equal_cstring(name, "vm.cond_fail") ||
             grt_string_view_equal_cstring(name, "vm.cast.any.ref") ||
             grt_string_view_equal_cstring(name, "vm.print") ||
             grt_string_view_equal_cstring(name, "vm.trace")) {
    *out_literal = "message";
  }
}

// Whether |value| reads back as the same attribute when written bare in an
// op named |name| (typed by the name, else i32).
static bool grtc_vm_literal_printable(grt_string_view_t name, const grtc_attribute_t* value) {
  if (value->kind == GRTC_ATTR_STRING) return value->type == NULL;
  const char* component = grtc_vm_name_type(name);
  if (!component) component = "i32";
  if (value->kind == GRTC_ATTR_INTEGER) {
    return component[0] == 'i' &&
           grtc_type_is_integer(value->type, component[1] == '3' ? 32u : 64u) &&
           value->type->integer.signedness == GRTC_SIGNLESS;
  }
  if (value->kind == GRTC_ATTR_FLOAT) {
    return component[0] == 'f' &&
           grtc_type_is_float(value->type, component[1] == '3' ? GRTC_FLOAT_F32 : GRTC_FLOAT_F64);
  }
  return false;
}

static void grtc_vm_print_literal(grtc_vm_printer_t* p, const grtc_attribute_t* value) {
  if (value->kind == GRTC_ATTR_STRING) {
    grtc_vm_string(p, value->string);
  } else if (value->kind == GRTC_ATTR_INTEGER) {
    grt_string_builder_appendf(p->out, "%" PRId64, value->integer);
  } else if (!isfinite(value->floating)) {
    bool f32 = value->type->float_kind == GRTC_FLOAT_F32;
    grt_string_builder_appendf(p->out, f32 ? "0x%08" PRIX64 : "0x%016" PRIX64,
                               grtc_float_encode(value->floating, value->type->float_kind));
  } else {
    // Enough digits to read back the same value of the type.
    bool f32 = value->type->float_kind == GRTC_FLOAT_F32;
    char text[64];
    snprintf(text, sizeof(text), f32 ? "%.9g" : "%.17g", value->floating);
    // The lexer reads an exponent only after a '.': "1e+10" -> "1.0e+10".
    char* exponent = strchr(text, 'e');
    if (exponent && !strchr(text, '.')) {
      char tail[32];
      snprintf(tail, sizeof(tail), "%s", exponent);
      snprintf(exponent, sizeof(text) - (size_t)(exponent - text), ".0%s", tail);
    }
    grtc_vm_puts(p, text);
  }
}

// Returns false (nothing printed) when the op does not fit the form.
static bool grtc_vm_print_operands_op(grtc_vm_printer_t* p, const grtc_operation_t* op) {
  const char* symbol_name = NULL;
  const char* literal_name = NULL;
  bool i32_result = false;
  grtc_vm_operand_family(op->name, &symbol_name, &literal_name, &i32_result);
  const grtc_attribute_t* symbol = symbol_name ? grtc_vm_attr(op, symbol_name) : NULL;
  const grtc_attribute_t* literal = literal_name ? grtc_vm_attr(op, literal_name) : NULL;
  if (symbol && (symbol->kind != GRTC_ATTR_SYMBOL_REF || symbol->symbol.count != 1)) return false;
  if (literal && !grtc_vm_literal_printable(op->name, literal)) return false;
  if (op->successor_count || op->region_count || op->properties) return false;
  // Constants take no operands: `%c = vm.const.i32.zero` must not read the
  // next line's `%x` as one.
  if (grtc_vm_has_prefix(op->name, "vm.const.") && op->operand_count) return false;
  if (i32_result && (op->result_count != 1 || !grtc_type_is_integer(op->results[0].type, 32) ||
                     op->results[0].type->integer.signedness != GRTC_SIGNLESS)) {
    return false;
  }
  // util.* ops wrap their operands in parentheses; only vm ops here.
  if (!grtc_vm_has_prefix(op->name, "vm.")) return false;
  const char* known[3] = {symbol ? symbol_name : NULL, NULL, NULL};
  if (literal) known[symbol ? 1 : 0] = literal_name;
  grtc_vm_results(p, op);
  grtc_vm_view(p, op->name);
  bool first = true;
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    grtc_vm_puts(p, first ? " " : ", ");
    first = false;
    grtc_vm_value(p, op->operands[i]);
  }
  if (symbol) {
    grtc_vm_puts(p, first ? " " : ", ");
    first = false;
    grtc_vm_symbol(p, symbol->symbol.names[0]);
  }
  if (literal) {
    grtc_vm_puts(p, first ? " " : ", ");
    grtc_vm_print_literal(p, literal);
  }
  grtc_vm_other_attributes(p, op, known, " {");
  if (op->result_count == 0) {
    if (op->operand_count) {
      grtc_vm_puts(p, " : ");
      grtc_vm_value_types(p, op->operands, op->operand_count);
    }
    return true;
  }
  const grtc_type_t* last = op->operand_count ? op->operands[op->operand_count - 1]->type : NULL;
  if (op->operand_count == 0) {
    grtc_vm_puts(p, op->result_count == 1 ? " : " : " : -> ");
    for (uint32_t i = 0; i < op->result_count; ++i) {
      if (i) grtc_vm_puts(p, ", ");
      grtc_vm_type(p, op->results[i].type);
    }
    return true;
  }
  grtc_vm_puts(p, " : ");
  grtc_vm_value_types(p, op->operands, op->operand_count);
  bool implied = op->result_count == 1 && (i32_result || grtc_type_equal(last, op->results[0].type));
  if (!implied) {
    grtc_vm_puts(p, " -> (");
    for (uint32_t i = 0; i < op->result_count; ++i) {
      if (i) grtc_vm_puts(p, ", ");
      grtc_vm_type(p, op->results[i].type);
    }
    grtc_vm_puts(p, ")");
  }
  return true;
}

// "name"(%a)[^bb1] <{props}> ({regions}) {attrs} : (types) -> (types)
static void grtc_vm_print_generic(grtc_vm_printer_t* p, const grtc_operation_t* op, int indent) {
  grtc_vm_results(p, op);
  grtc_vm_string(p, op->name);
  grtc_vm_puts(p, "(");
  grtc_vm_values(p, op->operands, op->operand_count);
  grtc_vm_puts(p, ")");
  if (op->successor_count) {
    grtc_vm_puts(p, "[");
    for (uint32_t s = 0; s < op->successor_count; ++s) {
      if (s) grtc_vm_puts(p, ", ");
      grtc_vm_successor(p, &op->successors[s]);
    }
    grtc_vm_puts(p, "]");
  }
  if (op->properties) {
    grtc_vm_puts(p, " <");
    grtc_vm_attribute(p, op->properties);
    grtc_vm_puts(p, ">");
  }
  if (op->region_count) {
    grtc_vm_puts(p, " (");
    for (uint32_t r = 0; r < op->region_count; ++r) {
      if (r) grtc_vm_puts(p, ", ");
      grtc_vm_puts(p, "{\n");
      grtc_vm_print_blocks(p, op->regions[r], indent + 1, true);
      grtc_vm_indent(p, indent);
      grtc_vm_puts(p, "}");
    }
    grtc_vm_puts(p, ")");
  }
  grtc_vm_other_attributes(p, op, NULL, " {");
  grtc_vm_puts(p, " : (");
  grtc_vm_value_types(p, op->operands, op->operand_count);
  grtc_vm_puts(p, ") -> (");
  for (uint32_t i = 0; i < op->result_count; ++i) {
    if (i) grtc_vm_puts(p, ", ");
    grtc_vm_type(p, op->results[i].type);
  }
  grtc_vm_puts(p, ")");
}

// is_variadic, when present, holds one bool per argument.
static bool grtc_vm_variadic_flags_ok(const grtc_operation_t* op) {
  const grtc_attribute_t* flags = grtc_vm_attr(op, "is_variadic");
  if (!flags) return true;
  if (flags->kind != GRTC_ATTR_ARRAY ||
      flags->array.count != grtc_vm_signature(op)->function.input_count) {
    return false;
  }
  for (uint32_t i = 0; i < flags->array.count; ++i) {
    if (flags->array.items[i]->kind != GRTC_ATTR_BOOL) return false;
  }
  return true;
}

static bool grtc_vm_is(const grtc_operation_t* op, const char* name) {
  return grt_string_view_equal_cstring(op->name, name);
}

static void grtc_vm_print_op(grtc_vm_printer_t* p, const grtc_operation_t* op, int indent) {
  grtc_vm_indent(p, indent);
  bool symbol_op = grtc_vm_attr(op, "sym_name") && grtc_vm_attr(op, "sym_name")->kind == GRTC_ATTR_STRING;
  bool callee = grtc_vm_attr(op, "callee") && grtc_vm_attr(op, "callee")->kind == GRTC_ATTR_SYMBOL_REF &&
                grtc_vm_attr(op, "callee")->symbol.count == 1;
  bool no_values = op->operand_count == 0 && op->result_count == 0 && op->successor_count == 0;
  if (grtc_vm_is(op, "vm.func") && symbol_op && grtc_vm_signature(op) && no_values &&
      op->region_count == 1 && op->regions[0]->first &&
      op->regions[0]->first->arg_count == grtc_vm_signature(op)->function.input_count) {
    grtc_vm_print_func(p, op, indent);
  } else if (grtc_vm_is(op, "vm.initializer") && no_values && op->region_count == 1) {
    grtc_vm_begin_scope(p, op);
    grtc_vm_puts(p, "vm.initializer");
    grtc_vm_other_attributes(p, op, NULL, " attributes {");
    grtc_vm_puts(p, " {\n");
    grtc_vm_print_blocks(p, op->regions[0], indent + 1, false);
    grtc_vm_indent(p, indent);
    grtc_vm_puts(p, "}");
  } else if (grtc_vm_is(op, "vm.import") && symbol_op && grtc_vm_signature(op) && no_values &&
             !op->region_count && grtc_vm_variadic_flags_ok(op)) {
    grtc_vm_print_import(p, op);
  } else if (grtc_vm_has_prefix(op->name, "vm.global.") && !grtc_vm_has_prefix(op->name, "vm.global.load.") &&
             !grtc_vm_has_prefix(op->name, "vm.global.store.") && symbol_op && no_values &&
             grtc_vm_attr(op, "type") && grtc_vm_attr(op, "type")->kind == GRTC_ATTR_TYPE) {
    grtc_vm_print_global(p, op);
  } else if (grtc_vm_is(op, "vm.rodata") && symbol_op && no_values && grtc_vm_attr(op, "value")) {
    grtc_vm_print_rodata(p, op);
  } else if (grtc_vm_is(op, "vm.export") && no_values && grtc_vm_attr(op, "function_ref") &&
             grtc_vm_attr(op, "function_ref")->kind == GRTC_ATTR_SYMBOL_REF &&
             grtc_vm_attr(op, "export_name") &&
             grtc_vm_attr(op, "export_name")->kind == GRTC_ATTR_STRING) {
    grtc_vm_print_export(p, op);
  } else if (grtc_vm_is(op, "vm.call") && callee && !op->successor_count && !op->region_count) {
    grtc_vm_print_call(p, op);
  } else if (grtc_vm_is(op, "vm.call.variadic") && grtc_vm_variadic_printable(op) &&
             !op->successor_count && !op->region_count) {
    grtc_vm_print_call_variadic(p, op);
  } else if (grtc_vm_is(op, "vm.return") && !op->result_count && !op->successor_count) {
    grtc_vm_print_return(p, op);
  } else if ((grtc_vm_is(op, "vm.br") && op->operand_count == 0 && op->successor_count == 1) ||
             (grtc_vm_is(op, "vm.cond_br") && op->operand_count == 1 &&
              op->successor_count == 2)) {
    grtc_vm_print_branch(p, op);
  } else if (grtc_vm_is(op, "vm.br_table") && op->operand_count == 1 && op->successor_count >= 1) {
    grtc_vm_print_br_table(p, op);
  } else if (grtc_vm_is(op, "vm.module") && no_values && op->region_count == 1) {
    static const char* const known[] = {"sym_name", "sym_visibility", NULL};
    grtc_vm_puts(p, "vm.module ");
    grtc_vm_visibility(p, op);
    if (symbol_op) grtc_vm_symbol(p, grtc_vm_sym_name(op));
    grtc_vm_other_attributes(p, op, known, " attributes {");
    grtc_vm_puts(p, " {\n");
    for (const grtc_operation_t* child = op->regions[0]->first ? op->regions[0]->first->first : NULL;
         child && !p->failed; child = child->next) {
      grtc_vm_print_op(p, child, indent + 1);
    }
    grtc_vm_indent(p, indent);
    grtc_vm_puts(p, "}");
  } else if (op->region_count || !grtc_vm_print_operands_op(p, op)) {
    grtc_vm_print_generic(p, op, indent);
  }
  grtc_vm_location(p, op->location);
  grtc_vm_puts(p, "\n");
}

grt_status_t grtc_vm_print_module(const grtc_operation_t* vm_module, grt_allocator_t allocator,
                                  grt_string_builder_t* out) {
  grtc_vm_printer_t p;
  memset(&p, 0, sizeof(p));
  p.allocator = allocator;
  p.out = out;
  grt_arena_init(allocator, 0, &p.arena);
  grtc_vm_print_op(&p, vm_module, 0);
  grt_arena_deinit(&p.arena);
  if (p.failed) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory printing the vm module");
  }
  return grt_string_builder_status(out);
}
