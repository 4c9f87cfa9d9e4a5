#include "compiler/vm_asm/builder.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "compiler/mlir/printer.h"

#define GRTC_VM_BUILDER_REF_TYPE_CAPACITY 32

struct grtc_vm_builder_t {
  grt_allocator_t allocator;
  grtc_module_t* module;
  grt_arena_t* arena;  // &module->arena
  bool taken;
  grtc_operation_t* vm_module;
  grtc_operation_t* module_before;  // module insertion point (NULL: end)
  grtc_vm_insertion_t insertion;
  const grtc_location_t* location;
  const grtc_location_t* default_location;
  grt_status_t status;
  bool failed;
  const grtc_type_t* i8;
  const grtc_type_t* i32;
  const grtc_type_t* i64;
  const grtc_type_t* f32;
  const grtc_type_t* f64;
  struct {
    const char* spelling;
    const grtc_type_t* type;
  } refs[GRTC_VM_BUILDER_REF_TYPE_CAPACITY];
  uint32_t ref_count;
};

//===----------------------------------------------------------------------===//
// Errors and memory
//===----------------------------------------------------------------------===//

static void grtc_vm_builder_fail(grtc_vm_builder_t* b, grt_status_code_t code,
                                 const char* format, ...) GRT_PRINTF_LIKE(3, 4);
static void grtc_vm_builder_fail(grtc_vm_builder_t* b, grt_status_code_t code,
                                 const char* format, ...) {
  if (b->failed) return;
  char message[512];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  b->failed = true;
  b->status = grt_make_status(code, "%s", message);
}

static void* grtc_vm_builder_alloc(grtc_vm_builder_t* b, size_t size) {
  if (b->failed) return NULL;
  void* memory = grt_arena_alloc_zeroed(b->arena, size ? size : 1);
  if (!memory) {
    grtc_vm_builder_fail(b, GRT_STATUS_RESOURCE_EXHAUSTED,
                         "out of memory building the vm module (%zu bytes)", size);
  }
  return memory;
}

static void* grtc_vm_builder_copy(grtc_vm_builder_t* b, const void* data, size_t size) {
  void* copy = grtc_vm_builder_alloc(b, size);
  if (copy && size) memcpy(copy, data, size);
  return copy;
}

static grt_string_view_t grtc_vm_builder_string(grtc_vm_builder_t* b, grt_string_view_t text) {
  char* copy = grtc_vm_builder_alloc(b, text.size + 1);
  if (!copy) return grt_make_string_view("", 0);
  if (text.size) memcpy(copy, text.data, text.size);
  return grt_make_string_view(copy, text.size);
}

static const char* grtc_vm_type_spelling(const grtc_type_t* type, char* buffer, size_t capacity) {
  if (!type) {
    snprintf(buffer, capacity, "<none>");
  } else {
    grtc_format_type(type, buffer, capacity);
  }
  return buffer;
}

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

static grtc_type_t* grtc_vm_builder_new_type(grtc_vm_builder_t* b, grtc_type_kind_t kind) {
  grtc_type_t* type = grtc_vm_builder_alloc(b, sizeof(*type));
  if (type) type->kind = kind;
  return type;
}

static const grtc_type_t* grtc_vm_builder_integer(grtc_vm_builder_t* b, uint32_t width) {
  grtc_type_t* type = grtc_vm_builder_new_type(b, GRTC_TYPE_INTEGER);
  if (type) type->integer.width = width;
  return type;
}

static const grtc_type_t* grtc_vm_builder_float(grtc_vm_builder_t* b, grtc_float_kind_t kind) {
  grtc_type_t* type = grtc_vm_builder_new_type(b, GRTC_TYPE_FLOAT);
  if (type) type->float_kind = kind;
  return type;
}

static grtc_location_t* grtc_vm_builder_new_location(grtc_vm_builder_t* b, grt_string_view_t file,
                                                     uint32_t line, uint32_t column) {
  grtc_location_t* location = grtc_vm_builder_alloc(b, sizeof(*location));
  if (!location) return NULL;
  location->kind = GRTC_LOC_FILE;
  location->text = grtc_vm_builder_string(b, file);
  location->line = line;
  location->column = column;
  return location;
}

// An op with one region holding one (empty) block, not yet placed.
static grtc_region_t* grtc_vm_builder_region(grtc_vm_builder_t* b, grtc_operation_t* parent) {
  grtc_region_t* region = grtc_vm_builder_alloc(b, sizeof(*region));
  grtc_region_t** regions = grtc_vm_builder_alloc(b, sizeof(*regions));
  if (!region || !regions) return NULL;
  region->parent = parent;
  regions[0] = region;
  parent->regions = regions;
  parent->region_count = 1;
  return region;
}

static void grtc_vm_region_append(grtc_region_t* region, grtc_block_t* block) {
  block->parent = region;
  if (region->last) {
    region->last->next = block;
  } else {
    region->first = block;
  }
  region->last = block;
  region->block_count++;
}

static void grtc_vm_block_insert(grtc_block_t* block, grtc_operation_t* before,
                                 grtc_operation_t* op) {
  op->parent = block;
  if (!before) {
    if (block->last) {
      block->last->next = op;
    } else {
      block->first = op;
    }
    block->last = op;
    return;
  }
  // Singly linked: find the op before |before|.
  grtc_operation_t* previous = NULL;
  for (grtc_operation_t* it = block->first; it && it != before; it = it->next) previous = it;
  op->next = before;
  if (previous) {
    previous->next = op;
  } else {
    block->first = op;
  }
}

grt_status_t grtc_vm_builder_create(const char* module_name, const char* file_name,
                                    grt_allocator_t allocator, grtc_vm_builder_t** out_builder) {
  *out_builder = NULL;
  grtc_vm_builder_t* b = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(allocator, sizeof(*b), (void**)&b));
  b->allocator = allocator;
  grt_arena_t arena;
  grt_arena_init(allocator, 0, &arena);
  grtc_module_t* module = grt_arena_alloc_zeroed(&arena, sizeof(*module));
  if (!module) {
    grt_arena_deinit(&arena);
    grt_allocator_free(allocator, b);
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory creating a vm module");
  }
  // The arena moves into the module before anything else is allocated
  // from it, so every later allocation lands in the copy the module keeps.
  module->arena = arena;
  b->module = module;
  b->arena = &module->arena;
  const char* file = file_name ? file_name : "<vm module>";
  module->file_name = grt_arena_strndup(b->arena, file, strlen(file));
  module->source = grt_make_string_view("", 0);
  module->body = grtc_vm_builder_alloc(b, sizeof(grtc_block_t));
  if (module->body) {
    // The top-level block belongs to no op; a region of its own keeps the
    // parser's shape.
    grtc_region_t* region = grtc_vm_builder_alloc(b, sizeof(*region));
    if (region) grtc_vm_region_append(region, module->body);
  }
  b->i8 = grtc_vm_builder_integer(b, 8);
  b->i32 = grtc_vm_builder_integer(b, 32);
  b->i64 = grtc_vm_builder_integer(b, 64);
  b->f32 = grtc_vm_builder_float(b, GRTC_FLOAT_F32);
  b->f64 = grtc_vm_builder_float(b, GRTC_FLOAT_F64);
  if (module->file_name) {
    b->default_location =
        grtc_vm_builder_new_location(b, grt_make_cstring_view(module->file_name), 0, 0);
  }
  b->location = b->default_location;
  grtc_operation_t* vm_module = grtc_vm_builder_alloc(b, sizeof(*vm_module));
  if (vm_module && module->body) {
    vm_module->name = grt_make_cstring_view("vm.module");
    vm_module->location = b->location;
    grtc_named_attribute_t* attributes = grtc_vm_builder_alloc(b, sizeof(*attributes));
    grtc_region_t* region = grtc_vm_builder_region(b, vm_module);
    grtc_block_t* body = grtc_vm_builder_alloc(b, sizeof(*body));
    if (attributes && region && body) {
      attributes[0].name = grt_make_cstring_view("sym_name");
      attributes[0].value =
          grtc_vm_attr_string(b, grt_make_cstring_view(module_name ? module_name : "module"));
      vm_module->attributes = attributes;
      vm_module->attribute_count = 1;
      grtc_vm_region_append(region, body);
      grtc_vm_block_insert(module->body, NULL, vm_module);
      b->vm_module = vm_module;
    }
  }
  if (b->failed || !module->file_name) {
    grt_status_t status = b->failed ? b->status
                                    : grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                                                      "out of memory creating a vm module");
    b->status = grt_ok_status();
    grtc_vm_builder_destroy(b);
    return status;
  }
  *out_builder = b;
  return grt_ok_status();
}

void grtc_vm_builder_destroy(grtc_vm_builder_t* b) {
  if (!b) return;
  if (!b->taken) grtc_module_destroy(b->module);
  grt_status_free(b->status);
  grt_allocator_free(b->allocator, b);
}

grt_status_t grtc_vm_builder_status(const grtc_vm_builder_t* b) {
  return b->failed ? grt_status_clone(b->status) : grt_ok_status();
}

const grtc_module_t* grtc_vm_builder_module(const grtc_vm_builder_t* b) { return b->module; }

grtc_operation_t* grtc_vm_builder_vm_module(const grtc_vm_builder_t* b) { return b->vm_module; }

grtc_module_t* grtc_vm_builder_take_module(grtc_vm_builder_t* b) {
  b->taken = true;
  return b->module;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

const grtc_type_t* grtc_vm_type_i32(grtc_vm_builder_t* b) { return b->i32; }
const grtc_type_t* grtc_vm_type_i64(grtc_vm_builder_t* b) { return b->i64; }
const grtc_type_t* grtc_vm_type_f32(grtc_vm_builder_t* b) { return b->f32; }
const grtc_type_t* grtc_vm_type_f64(grtc_vm_builder_t* b) { return b->f64; }

const grtc_type_t* grtc_vm_type_ref(grtc_vm_builder_t* b, const char* spelling) {
  if (b->failed) return NULL;
  for (uint32_t i = 0; i < b->ref_count; ++i) {
    if (strcmp(b->refs[i].spelling, spelling) == 0) return b->refs[i].type;
  }
  grt_string_view_t text = grt_make_cstring_view(spelling);
  grtc_type_t* type = NULL;
  if (strcmp(spelling, "!vm.buffer") == 0) {
    type = grtc_vm_builder_new_type(b, GRTC_TYPE_VM_BUFFER);
  } else if (strcmp(spelling, "!vm.ref<?>") == 0) {
    type = grtc_vm_builder_new_type(b, GRTC_TYPE_VM_REF);
  } else if (text.size > 1 && spelling[0] == '!' && memchr(spelling, '.', text.size) &&
             strncmp(spelling, "!vm.", 4) != 0) {
    type = grtc_vm_builder_new_type(b, GRTC_TYPE_OPAQUE);
    if (type) type->opaque = grtc_vm_builder_string(b, text);
  } else {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL,
                         "'%s' is not a ref type spelling: expected !vm.buffer, !vm.ref<?> "
                         "or a dialect type such as !hal.buffer",
                         spelling);
    return NULL;
  }
  if (type && b->ref_count < GRTC_VM_BUILDER_REF_TYPE_CAPACITY) {
    b->refs[b->ref_count].spelling = grtc_vm_builder_string(b, text).data;
    b->refs[b->ref_count].type = type;
    ++b->ref_count;
  }
  return type;
}

const grtc_type_t* grtc_vm_type_tuple(grtc_vm_builder_t* b, const grtc_type_t* const* elements,
                                      uint32_t count) {
  grtc_type_t* type = grtc_vm_builder_new_type(b, GRTC_TYPE_TUPLE);
  const grtc_type_t** types = grtc_vm_builder_copy(b, elements, count * sizeof(*elements));
  if (!type || !types) return NULL;
  type->function.input_count = count;
  type->function.types = types;
  return type;
}

static const grtc_type_t* grtc_vm_function_type(grtc_vm_builder_t* b,
                                                const grtc_type_t* const* inputs,
                                                uint32_t input_count,
                                                const grtc_type_t* const* results,
                                                uint32_t result_count) {
  grtc_type_t* type = grtc_vm_builder_new_type(b, GRTC_TYPE_FUNCTION);
  const grtc_type_t** types =
      grtc_vm_builder_alloc(b, (input_count + result_count) * sizeof(*types));
  if (!type || !types) return NULL;
  if (input_count) memcpy(types, inputs, input_count * sizeof(*types));
  if (result_count) memcpy(types + input_count, results, result_count * sizeof(*types));
  type->function.input_count = input_count;
  type->function.result_count = result_count;
  type->function.types = types;
  return type;
}

//===----------------------------------------------------------------------===//
// Locations, insertion, names
//===----------------------------------------------------------------------===//

void grtc_vm_builder_set_location(grtc_vm_builder_t* b, grt_string_view_t file, uint32_t line,
                                  uint32_t column) {
  const grtc_location_t* current = b->location;
  if (current && current->line == line && current->column == column &&
      grt_string_view_equal(current->text, file)) {
    return;
  }
  const grtc_location_t* location = grtc_vm_builder_new_location(b, file, line, column);
  if (location) b->location = location;
}

void grtc_vm_builder_clear_location(grtc_vm_builder_t* b) { b->location = b->default_location; }

const grtc_location_t* grtc_vm_builder_location(const grtc_vm_builder_t* b) {
  return b->location;
}

grtc_vm_insertion_t grtc_vm_builder_insertion(const grtc_vm_builder_t* b) { return b->insertion; }

void grtc_vm_builder_set_insertion(grtc_vm_builder_t* b, grtc_vm_insertion_t insertion) {
  b->insertion = insertion;
}

void grtc_vm_builder_set_insertion_end(grtc_vm_builder_t* b, grtc_block_t* block) {
  b->insertion.block = block;
  b->insertion.before = NULL;
}

void grtc_vm_builder_set_module_insertion(grtc_vm_builder_t* b, grtc_operation_t* before) {
  b->module_before = before;
}

void grtc_vm_builder_name(grtc_vm_builder_t* b, grtc_value_t* value, const char* format, ...) {
  if (!value || b->failed) return;
  char name[128];
  name[0] = '%';
  va_list args;
  va_start(args, format);
  int length = vsnprintf(name + 1, sizeof(name) - 1, format, args);
  va_end(args);
  if (length <= 0) return;
  size_t size = 1 + ((size_t)length < sizeof(name) - 1 ? (size_t)length : sizeof(name) - 2);
  value->name = grtc_vm_builder_string(b, grt_make_string_view(name, size));
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

static grtc_attribute_t* grtc_vm_new_attr(grtc_vm_builder_t* b, grtc_attribute_kind_t kind) {
  grtc_attribute_t* attribute = grtc_vm_builder_alloc(b, sizeof(*attribute));
  if (attribute) attribute->kind = kind;
  return attribute;
}

const grtc_attribute_t* grtc_vm_attr_integer(grtc_vm_builder_t* b, const grtc_type_t* type,
                                             int64_t value) {
  grtc_attribute_t* attribute = grtc_vm_new_attr(b, GRTC_ATTR_INTEGER);
  if (!attribute) return NULL;
  attribute->type = type;
  // As the parser holds it: sign-extended from the type's width.
  if (type && type->kind == GRTC_TYPE_INTEGER && type->integer.width < 64 &&
      type->integer.width > 0) {
    uint32_t shift = 64 - type->integer.width;
    value = (int64_t)((uint64_t)value << shift) >> shift;
  }
  attribute->integer = value;
  return attribute;
}

const grtc_attribute_t* grtc_vm_attr_float(grtc_vm_builder_t* b, const grtc_type_t* type,
                                           double value) {
  grtc_attribute_t* attribute = grtc_vm_new_attr(b, GRTC_ATTR_FLOAT);
  if (!attribute) return NULL;
  attribute->type = type;
  // As the parser holds it: rounded to the type's precision.
  if (type && type->kind == GRTC_TYPE_FLOAT) {
    value = grtc_float_decode(grtc_float_encode(value, type->float_kind), type->float_kind);
  }
  attribute->floating = value;
  return attribute;
}

const grtc_attribute_t* grtc_vm_attr_string(grtc_vm_builder_t* b, grt_string_view_t value) {
  grtc_attribute_t* attribute = grtc_vm_new_attr(b, GRTC_ATTR_STRING);
  if (!attribute) return NULL;
  attribute->string = grtc_vm_builder_string(b, value);
  return attribute;
}

const grtc_attribute_t* grtc_vm_attr_symbol(grtc_vm_builder_t* b, grt_string_view_t name) {
  grtc_attribute_t* attribute = grtc_vm_new_attr(b, GRTC_ATTR_SYMBOL_REF);
  grt_string_view_t* names = grtc_vm_builder_alloc(b, sizeof(*names));
  if (!attribute || !names) return NULL;
  names[0] = grtc_vm_builder_string(b, name);
  attribute->symbol.count = 1;
  attribute->symbol.names = names;
  return attribute;
}

const grtc_attribute_t* grtc_vm_attr_type(grtc_vm_builder_t* b, const grtc_type_t* type) {
  grtc_attribute_t* attribute = grtc_vm_new_attr(b, GRTC_ATTR_TYPE);
  if (attribute) attribute->type = type;
  return attribute;
}

const grtc_attribute_t* grtc_vm_attr_unit(grtc_vm_builder_t* b) {
  return grtc_vm_new_attr(b, GRTC_ATTR_UNIT);
}

static const grtc_attribute_t* grtc_vm_attr_bool(grtc_vm_builder_t* b, bool value) {
  grtc_attribute_t* attribute = grtc_vm_new_attr(b, GRTC_ATTR_BOOL);
  if (attribute) attribute->boolean = value;
  return attribute;
}

static const grtc_attribute_t* grtc_vm_attr_array(grtc_vm_builder_t* b,
                                                  const grtc_attribute_t* const* items,
                                                  uint32_t count) {
  grtc_attribute_t* attribute = grtc_vm_new_attr(b, GRTC_ATTR_ARRAY);
  const grtc_attribute_t** copy = grtc_vm_builder_copy(b, items, count * sizeof(*items));
  if (!attribute || !copy) return NULL;
  attribute->array.count = count;
  attribute->array.items = copy;
  return attribute;
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

// The op, not yet placed: operands, results, attributes and successors
// copied; NULL after any failure (an op with a NULL operand is a misuse).
static grtc_operation_t* grtc_vm_new_op(grtc_vm_builder_t* b, const char* name,
                                        grtc_value_t* const* operands, uint32_t operand_count,
                                        const grtc_type_t* const* result_types,
                                        uint32_t result_count,
                                        const grtc_named_attribute_t* attributes,
                                        uint32_t attribute_count,
                                        const grtc_successor_t* successors,
                                        uint32_t successor_count) {
  if (b->failed) return NULL;
  for (uint32_t i = 0; i < operand_count; ++i) {
    if (!operands[i]) {
      grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "operand %u of '%s' is missing (NULL)", i,
                           name);
      return NULL;
    }
  }
  for (uint32_t i = 0; i < result_count; ++i) {
    if (!result_types[i]) {
      grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "result %u of '%s' has no type (NULL)", i,
                           name);
      return NULL;
    }
  }
  for (uint32_t i = 0; i < attribute_count; ++i) {
    if (!attributes[i].value) {
      grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "attribute '%.*s' of '%s' is missing (NULL)",
                           GRT_SV_ARG(attributes[i].name), name);
      return NULL;
    }
  }
  for (uint32_t s = 0; s < successor_count; ++s) {
    bool complete = successors[s].block != NULL;
    for (uint32_t i = 0; i < successors[s].operand_count && complete; ++i) {
      complete = successors[s].operands[i] != NULL;
    }
    if (!complete) {
      grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL,
                           "successor %u of '%s' has a missing (NULL) block or argument", s,
                           name);
      return NULL;
    }
  }
  grtc_operation_t* op = grtc_vm_builder_alloc(b, sizeof(*op));
  if (!op) return NULL;
  op->name = grt_make_cstring_view(name);
  // Names of ops made here are literals or table entries; keep a copy so
  // callers may pass formatted buffers.
  op->name = grtc_vm_builder_string(b, op->name);
  op->location = b->location;
  op->operand_count = operand_count;
  op->operands = grtc_vm_builder_copy(b, operands, operand_count * sizeof(*operands));
  op->result_count = result_count;
  op->results = grtc_vm_builder_alloc(b, result_count * sizeof(grtc_value_t));
  op->attribute_count = attribute_count;
  op->attributes = grtc_vm_builder_copy(b, attributes, attribute_count * sizeof(*attributes));
  grtc_successor_t* copied = grtc_vm_builder_copy(b, successors,
                                                  successor_count * sizeof(*successors));
  for (uint32_t s = 0; s < successor_count && copied; ++s) {
    copied[s].operands = grtc_vm_builder_copy(
        b, successors[s].operands, successors[s].operand_count * sizeof(grtc_value_t*));
  }
  op->successor_count = successor_count;
  op->successors = copied;
  if (b->failed) return NULL;
  for (uint32_t i = 0; i < result_count; ++i) {
    op->results[i].type = result_types[i];
    op->results[i].defining_op = op;
    op->results[i].index = i;
  }
  return op;
}

static grtc_operation_t* grtc_vm_place(grtc_vm_builder_t* b, grtc_operation_t* op) {
  if (!op) return NULL;
  if (!b->insertion.block) {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL,
                         "'%.*s' built with no insertion point (set one in a function's block)",
                         GRT_SV_ARG(op->name));
    return NULL;
  }
  grtc_vm_block_insert(b->insertion.block, b->insertion.before, op);
  return op;
}

static grtc_operation_t* grtc_vm_place_in_module(grtc_vm_builder_t* b, grtc_operation_t* op) {
  if (!op) return NULL;
  grtc_vm_block_insert(b->vm_module->regions[0]->first, b->module_before, op);
  return op;
}

grtc_operation_t* grtc_vm_builder_op(grtc_vm_builder_t* b, const char* name,
                                     grtc_value_t* const* operands, uint32_t operand_count,
                                     const grtc_type_t* const* result_types, uint32_t result_count,
                                     const grtc_named_attribute_t* attributes,
                                     uint32_t attribute_count, const grtc_successor_t* successors,
                                     uint32_t successor_count) {
  return grtc_vm_place(b, grtc_vm_new_op(b, name, operands, operand_count, result_types,
                                         result_count, attributes, attribute_count, successors,
                                         successor_count));
}

static grtc_value_t* grtc_vm_result(grtc_operation_t* op) {
  return op && op->result_count ? &op->results[0] : NULL;
}

static grtc_named_attribute_t grtc_vm_named(const char* name, const grtc_attribute_t* value) {
  grtc_named_attribute_t entry = {grt_make_cstring_view(name), value};
  return entry;
}

//===----------------------------------------------------------------------===//
// Module-level ops
//===----------------------------------------------------------------------===//

grtc_operation_t* grtc_vm_builder_import(grtc_vm_builder_t* b, const char* name,
                                         const grtc_type_t* const* arg_types,
                                         const bool* variadic, uint32_t arg_count,
                                         const grtc_type_t* const* result_types,
                                         uint32_t result_count) {
  if (b->failed) return NULL;
  bool any_variadic = false;
  for (uint32_t i = 0; variadic && i < arg_count; ++i) any_variadic |= variadic[i];
  grtc_named_attribute_t attributes[4];
  uint32_t count = 0;
  attributes[count++] = grtc_vm_named("sym_visibility",
                                      grtc_vm_attr_string(b, grt_make_cstring_view("private")));
  attributes[count++] = grtc_vm_named("sym_name", grtc_vm_attr_string(b, grt_make_cstring_view(name)));
  attributes[count++] = grtc_vm_named(
      "function_type",
      grtc_vm_attr_type(b, grtc_vm_function_type(b, arg_types, arg_count, result_types,
                                                 result_count)));
  if (any_variadic) {
    const grtc_attribute_t** flags = grtc_vm_builder_alloc(b, arg_count * sizeof(*flags));
    for (uint32_t i = 0; flags && i < arg_count; ++i) flags[i] = grtc_vm_attr_bool(b, variadic[i]);
    attributes[count++] =
        grtc_vm_named("is_variadic", flags ? grtc_vm_attr_array(b, flags, arg_count) : NULL);
  }
  return grtc_vm_place_in_module(
      b, grtc_vm_new_op(b, "vm.import", NULL, 0, NULL, 0, attributes, count, NULL, 0));
}

static grtc_block_t* grtc_vm_new_block(grtc_vm_builder_t* b, const grtc_type_t* const* arg_types,
                                       uint32_t arg_count) {
  if (b->failed) return NULL;
  for (uint32_t i = 0; i < arg_count; ++i) {
    if (!arg_types[i]) {
      grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "block argument %u has no type (NULL)", i);
      return NULL;
    }
  }
  grtc_block_t* block = grtc_vm_builder_alloc(b, sizeof(*block));
  grtc_value_t* args = grtc_vm_builder_alloc(b, arg_count * sizeof(*args));
  if (!block || !args) return NULL;
  block->arg_count = arg_count;
  block->args = args;
  for (uint32_t i = 0; i < arg_count; ++i) {
    args[i].type = arg_types[i];
    args[i].owner_block = block;
    args[i].index = i;
  }
  return block;
}

grtc_operation_t* grtc_vm_builder_func(grtc_vm_builder_t* b, grt_string_view_t name,
                                       bool is_private, const grtc_type_t* const* arg_types,
                                       uint32_t arg_count, const grtc_type_t* const* result_types,
                                       uint32_t result_count, grtc_block_t** out_entry) {
  *out_entry = NULL;
  if (b->failed) return NULL;
  grtc_named_attribute_t attributes[3];
  uint32_t count = 0;
  if (is_private) {
    attributes[count++] = grtc_vm_named(
        "sym_visibility", grtc_vm_attr_string(b, grt_make_cstring_view("private")));
  }
  attributes[count++] = grtc_vm_named("sym_name", grtc_vm_attr_string(b, name));
  attributes[count++] = grtc_vm_named(
      "function_type",
      grtc_vm_attr_type(b, grtc_vm_function_type(b, arg_types, arg_count, result_types,
                                                 result_count)));
  grtc_operation_t* op = grtc_vm_new_op(b, "vm.func", NULL, 0, NULL, 0, attributes, count, NULL, 0);
  grtc_region_t* region = op ? grtc_vm_builder_region(b, op) : NULL;
  grtc_block_t* entry = grtc_vm_new_block(b, arg_types, arg_count);
  if (!region || !entry) return NULL;
  grtc_vm_region_append(region, entry);
  *out_entry = entry;
  return grtc_vm_place_in_module(b, op);
}

grtc_operation_t* grtc_vm_builder_export(grtc_vm_builder_t* b, const grtc_operation_t* function,
                                         const char* export_name) {
  if (b->failed) return NULL;
  const grtc_attribute_t* name = function ? grtc_operation_attribute(function, "sym_name") : NULL;
  if (!name || name->kind != GRTC_ATTR_STRING) {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "vm.export needs a vm.func, got %s",
                         function ? "an op without sym_name" : "NULL");
    return NULL;
  }
  grtc_named_attribute_t attributes[2] = {
      grtc_vm_named("function_ref", grtc_vm_attr_symbol(b, name->string)),
      grtc_vm_named("export_name",
                    export_name ? grtc_vm_attr_string(b, grt_make_cstring_view(export_name))
                                : grtc_vm_attr_string(b, name->string)),
  };
  return grtc_vm_place_in_module(
      b, grtc_vm_new_op(b, "vm.export", NULL, 0, NULL, 0, attributes, 2, NULL, 0));
}

// "i32", "i64", "f32", "f64" or "ref": the suffix of ops on values of
// |type|; NULL for other types.
static const char* grtc_vm_type_suffix(const grtc_type_t* type) {
  if (!type) return NULL;
  if (grtc_type_is_integer(type, 32)) return "i32";
  if (grtc_type_is_integer(type, 64)) return "i64";
  if (grtc_type_is_float(type, GRTC_FLOAT_F32)) return "f32";
  if (grtc_type_is_float(type, GRTC_FLOAT_F64)) return "f64";
  if (grtc_type_is_ref(type)) return "ref";
  return NULL;
}

grtc_operation_t* grtc_vm_builder_global(grtc_vm_builder_t* b, grt_string_view_t name,
                                         const grtc_type_t* type, bool is_mutable) {
  if (b->failed) return NULL;
  const char* suffix = grtc_vm_type_suffix(type);
  if (!suffix) {
    char spelled[64];
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL,
                         "global @%.*s has type %s; expected i32, i64, f32, f64 or a ref",
                         GRT_SV_ARG(name), grtc_vm_type_spelling(type, spelled, sizeof(spelled)));
    return NULL;
  }
  char op_name[32];
  snprintf(op_name, sizeof(op_name), "vm.global.%s", suffix);
  grtc_named_attribute_t attributes[4];
  uint32_t count = 0;
  attributes[count++] = grtc_vm_named("sym_visibility",
                                      grtc_vm_attr_string(b, grt_make_cstring_view("private")));
  if (is_mutable) attributes[count++] = grtc_vm_named("is_mutable", grtc_vm_attr_unit(b));
  attributes[count++] = grtc_vm_named("sym_name", grtc_vm_attr_string(b, name));
  attributes[count++] = grtc_vm_named("type", grtc_vm_attr_type(b, type));
  return grtc_vm_place_in_module(
      b, grtc_vm_new_op(b, op_name, NULL, 0, NULL, 0, attributes, count, NULL, 0));
}

grtc_operation_t* grtc_vm_builder_rodata_bytes(grtc_vm_builder_t* b, grt_string_view_t name,
                                               const uint8_t* data, size_t size,
                                               uint64_t alignment, bool borrow) {
  if (b->failed) return NULL;
  static const uint8_t kZero = 0;
  if (size == 0) {
    data = &kZero;
    size = 1;
    borrow = true;
  }
  grtc_type_t* type = grtc_vm_builder_new_type(b, GRTC_TYPE_TENSOR);
  int64_t* dims = grtc_vm_builder_alloc(b, sizeof(*dims));
  grtc_attribute_t* value = grtc_vm_new_attr(b, GRTC_ATTR_DENSE_ELEMENTS);
  const uint8_t* bytes = borrow ? data : grtc_vm_builder_copy(b, data, size);
  if (!type || !dims || !value || !bytes) return NULL;
  dims[0] = (int64_t)size;
  type->shaped.ranked = true;
  type->shaped.rank = 1;
  type->shaped.dims = dims;
  type->shaped.element = b->i8;
  value->type = type;
  value->dense.data = bytes;
  value->dense.size = size;
  value->dense.splat = false;
  grtc_named_attribute_t attributes[4];
  uint32_t count = 0;
  attributes[count++] = grtc_vm_named("sym_visibility",
                                      grtc_vm_attr_string(b, grt_make_cstring_view("private")));
  attributes[count++] = grtc_vm_named("sym_name", grtc_vm_attr_string(b, name));
  if (alignment) {
    attributes[count++] =
        grtc_vm_named("alignment", grtc_vm_attr_integer(b, b->i64, (int64_t)alignment));
  }
  attributes[count++] = grtc_vm_named("value", value);
  return grtc_vm_place_in_module(
      b, grtc_vm_new_op(b, "vm.rodata", NULL, 0, NULL, 0, attributes, count, NULL, 0));
}

grtc_operation_t* grtc_vm_builder_rodata_string(grtc_vm_builder_t* b, grt_string_view_t name,
                                                grt_string_view_t text) {
  if (b->failed) return NULL;
  grtc_named_attribute_t attributes[3] = {
      grtc_vm_named("sym_visibility", grtc_vm_attr_string(b, grt_make_cstring_view("private"))),
      grtc_vm_named("sym_name", grtc_vm_attr_string(b, name)),
      grtc_vm_named("value", grtc_vm_attr_string(b, text)),
  };
  return grtc_vm_place_in_module(
      b, grtc_vm_new_op(b, "vm.rodata", NULL, 0, NULL, 0, attributes, 3, NULL, 0));
}

grtc_operation_t* grtc_vm_builder_initializer(grtc_vm_builder_t* b, grtc_block_t** out_entry) {
  *out_entry = NULL;
  grtc_operation_t* op = grtc_vm_new_op(b, "vm.initializer", NULL, 0, NULL, 0, NULL, 0, NULL, 0);
  grtc_region_t* region = op ? grtc_vm_builder_region(b, op) : NULL;
  grtc_block_t* entry = grtc_vm_new_block(b, NULL, 0);
  if (!region || !entry) return NULL;
  grtc_vm_region_append(region, entry);
  *out_entry = entry;
  return grtc_vm_place_in_module(b, op);
}

//===----------------------------------------------------------------------===//
// Blocks
//===----------------------------------------------------------------------===//

grtc_block_t* grtc_vm_builder_block(grtc_vm_builder_t* b, const grtc_type_t* const* arg_types,
                                    uint32_t arg_count) {
  return grtc_vm_new_block(b, arg_types, arg_count);
}

void grtc_vm_builder_append_block(grtc_vm_builder_t* b, grtc_operation_t* function,
                                  grtc_block_t* block) {
  if (b->failed) return;
  if (!function || function->region_count != 1 || !block || block->parent) {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL,
                         "a block is appended once, to a vm.func or vm.initializer (got %s)",
                         !function ? "no function" : !block ? "no block" : "a placed block");
    return;
  }
  grtc_vm_region_append(function->regions[0], block);
  grtc_vm_builder_set_insertion_end(b, block);
}

//===----------------------------------------------------------------------===//
// Typed ops
//===----------------------------------------------------------------------===//

static grtc_value_t* grtc_vm_const_op(grtc_vm_builder_t* b, const char* name,
                                      const grtc_type_t* type, const grtc_attribute_t* value) {
  if (b->failed) return NULL;
  grtc_named_attribute_t attribute = grtc_vm_named("value", value);
  return grtc_vm_result(grtc_vm_builder_op(b, name, NULL, 0, &type, 1, &attribute, value ? 1 : 0,
                                           NULL, 0));
}

grtc_value_t* grtc_vm_const_i32(grtc_vm_builder_t* b, int32_t value) {
  return grtc_vm_const_op(b, "vm.const.i32", b->i32, grtc_vm_attr_integer(b, b->i32, value));
}

grtc_value_t* grtc_vm_const_i64(grtc_vm_builder_t* b, int64_t value) {
  return grtc_vm_const_op(b, "vm.const.i64", b->i64, grtc_vm_attr_integer(b, b->i64, value));
}

grtc_value_t* grtc_vm_const_f32(grtc_vm_builder_t* b, float value) {
  return grtc_vm_const_op(b, "vm.const.f32", b->f32, grtc_vm_attr_float(b, b->f32, value));
}

grtc_value_t* grtc_vm_const_f64(grtc_vm_builder_t* b, double value) {
  return grtc_vm_const_op(b, "vm.const.f64", b->f64, grtc_vm_attr_float(b, b->f64, value));
}

grtc_value_t* grtc_vm_const_zero(grtc_vm_builder_t* b, const grtc_type_t* type) {
  if (b->failed) return NULL;
  const char* suffix = grtc_vm_type_suffix(type);
  if (!suffix) {
    char spelled[64];
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL,
                         "vm.const.*.zero of type %s; expected i32, i64, f32, f64 or a ref",
                         grtc_vm_type_spelling(type, spelled, sizeof(spelled)));
    return NULL;
  }
  char name[32];
  snprintf(name, sizeof(name), "vm.const.%s.zero", suffix);
  return grtc_vm_result(grtc_vm_builder_op(b, name, NULL, 0, &type, 1, NULL, 0, NULL, 0));
}

grtc_value_t* grtc_vm_const_rodata(grtc_vm_builder_t* b, grt_string_view_t name) {
  if (b->failed) return NULL;
  const grtc_type_t* type = grtc_vm_type_ref(b, "!vm.buffer");
  grtc_named_attribute_t attribute = grtc_vm_named("rodata", grtc_vm_attr_symbol(b, name));
  return grtc_vm_result(
      grtc_vm_builder_op(b, "vm.const.ref.rodata", NULL, 0, &type, 1, &attribute, 1, NULL, 0));
}

// Both i32 or both i64: the suffix; else an error naming |what|.
static const char* grtc_vm_integer_pair(grtc_vm_builder_t* b, const char* what,
                                        const grtc_value_t* lhs, const grtc_value_t* rhs) {
  if (b->failed) return NULL;
  if (!lhs || !rhs) {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "%s: an operand is missing (NULL)", what);
    return NULL;
  }
  const char* suffix = grtc_vm_type_suffix(lhs->type);
  if (!suffix || (strcmp(suffix, "i32") != 0 && strcmp(suffix, "i64") != 0) ||
      !grtc_type_equal(lhs->type, rhs->type)) {
    char a[64], c[64];
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL,
                         "%s takes two i32 or two i64 values, got %s and %s", what,
                         grtc_vm_type_spelling(lhs->type, a, sizeof(a)),
                         grtc_vm_type_spelling(rhs->type, c, sizeof(c)));
    return NULL;
  }
  return suffix;
}

grtc_value_t* grtc_vm_binary(grtc_vm_builder_t* b, grtc_vm_binary_t op, grtc_value_t* lhs,
                             grtc_value_t* rhs) {
  static const struct {
    const char* name;
    const char* sign;
  } ops[] = {
      [GRTC_VM_ADD] = {"add", ""},   [GRTC_VM_SUB] = {"sub", ""},
      [GRTC_VM_MUL] = {"mul", ""},   [GRTC_VM_DIV_S] = {"div", ".s"},
      [GRTC_VM_DIV_U] = {"div", ".u"}, [GRTC_VM_REM_S] = {"rem", ".s"},
      [GRTC_VM_REM_U] = {"rem", ".u"}, [GRTC_VM_MIN_S] = {"min", ".s"},
      [GRTC_VM_MIN_U] = {"min", ".u"}, [GRTC_VM_MAX_S] = {"max", ".s"},
      [GRTC_VM_MAX_U] = {"max", ".u"}, [GRTC_VM_AND] = {"and", ""},
      [GRTC_VM_OR] = {"or", ""},     [GRTC_VM_XOR] = {"xor", ""},
  };
  if ((unsigned)op >= sizeof(ops) / sizeof(ops[0])) {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "unknown binary op %d", (int)op);
    return NULL;
  }
  char what[32];
  snprintf(what, sizeof(what), "vm.%s", ops[op].name);
  const char* suffix = grtc_vm_integer_pair(b, what, lhs, rhs);
  if (!suffix) return NULL;
  char name[32];
  snprintf(name, sizeof(name), "vm.%s.%s%s", ops[op].name, suffix, ops[op].sign);
  grtc_value_t* operands[2] = {lhs, rhs};
  return grtc_vm_result(
      grtc_vm_builder_op(b, name, operands, 2, &lhs->type, 1, NULL, 0, NULL, 0));
}

grtc_value_t* grtc_vm_compare(grtc_vm_builder_t* b, grtc_vm_compare_t op, grtc_value_t* lhs,
                              grtc_value_t* rhs) {
  static const struct {
    const char* name;
    const char* sign;
  } ops[] = {
      [GRTC_VM_CMP_EQ] = {"eq", ""},      [GRTC_VM_CMP_NE] = {"ne", ""},
      [GRTC_VM_CMP_LT_S] = {"lt", ".s"},  [GRTC_VM_CMP_LT_U] = {"lt", ".u"},
      [GRTC_VM_CMP_LTE_S] = {"lte", ".s"}, [GRTC_VM_CMP_LTE_U] = {"lte", ".u"},
      [GRTC_VM_CMP_GT_S] = {"gt", ".s"},  [GRTC_VM_CMP_GT_U] = {"gt", ".u"},
      [GRTC_VM_CMP_GTE_S] = {"gte", ".s"}, [GRTC_VM_CMP_GTE_U] = {"gte", ".u"},
  };
  if ((unsigned)op >= sizeof(ops) / sizeof(ops[0])) {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "unknown comparison %d", (int)op);
    return NULL;
  }
  char what[32];
  snprintf(what, sizeof(what), "vm.cmp.%s", ops[op].name);
  const char* suffix = grtc_vm_integer_pair(b, what, lhs, rhs);
  if (!suffix) return NULL;
  char name[32];
  snprintf(name, sizeof(name), "vm.cmp.%s.%s%s", ops[op].name, suffix, ops[op].sign);
  grtc_value_t* operands[2] = {lhs, rhs};
  return grtc_vm_result(
      grtc_vm_builder_op(b, name, operands, 2, &b->i32, 1, NULL, 0, NULL, 0));
}

grtc_value_t* grtc_vm_cmp_nz(grtc_vm_builder_t* b, grtc_value_t* value) {
  if (b->failed) return NULL;
  const char* suffix = value ? grtc_vm_type_suffix(value->type) : NULL;
  if (!suffix || suffix[0] == 'f') {
    char spelled[64];
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "vm.cmp.nz takes an i32, i64 or ref, got %s",
                         value ? grtc_vm_type_spelling(value->type, spelled, sizeof(spelled))
                               : "NULL");
    return NULL;
  }
  char name[32];
  snprintf(name, sizeof(name), "vm.cmp.nz.%s", suffix);
  return grtc_vm_result(grtc_vm_builder_op(b, name, &value, 1, &b->i32, 1, NULL, 0, NULL, 0));
}

grtc_value_t* grtc_vm_select(grtc_vm_builder_t* b, grtc_value_t* condition,
                             grtc_value_t* if_true, grtc_value_t* if_false) {
  if (b->failed) return NULL;
  const char* suffix = if_true ? grtc_vm_type_suffix(if_true->type) : NULL;
  if (!condition || !grtc_type_is_integer(condition->type, 32) || !suffix || !if_false ||
      !grtc_type_equal(if_true->type, if_false->type)) {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL,
                         "vm.select takes an i32 condition and two values of one type");
    return NULL;
  }
  char name[32];
  snprintf(name, sizeof(name), "vm.select.%s", suffix);
  grtc_value_t* operands[3] = {condition, if_true, if_false};
  return grtc_vm_result(
      grtc_vm_builder_op(b, name, operands, 3, &if_true->type, 1, NULL, 0, NULL, 0));
}

grtc_value_t* grtc_vm_ext_i32_i64(grtc_vm_builder_t* b, grtc_value_t* value, bool is_signed) {
  if (b->failed) return NULL;
  if (!value || !grtc_type_is_integer(value->type, 32)) {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "vm.ext.i32.i64 takes an i32");
    return NULL;
  }
  return grtc_vm_result(grtc_vm_builder_op(b, is_signed ? "vm.ext.i32.i64.s" : "vm.ext.i32.i64.u",
                                           &value, 1, &b->i64, 1, NULL, 0, NULL, 0));
}

grtc_value_t* grtc_vm_trunc_i64_i32(grtc_vm_builder_t* b, grtc_value_t* value) {
  if (b->failed) return NULL;
  if (!value || !grtc_type_is_integer(value->type, 64)) {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "vm.trunc.i64.i32 takes an i64");
    return NULL;
  }
  return grtc_vm_result(
      grtc_vm_builder_op(b, "vm.trunc.i64.i32", &value, 1, &b->i32, 1, NULL, 0, NULL, 0));
}

// The global's name and type, or NULL (recorded) when |global| is not one.
static const grtc_type_t* grtc_vm_global_type(grtc_vm_builder_t* b,
                                              const grtc_operation_t* global,
                                              grt_string_view_t* out_name) {
  if (b->failed) return NULL;
  const grtc_attribute_t* name = global ? grtc_operation_attribute(global, "sym_name") : NULL;
  const grtc_attribute_t* type = global ? grtc_operation_attribute(global, "type") : NULL;
  if (!name || !type || name->kind != GRTC_ATTR_STRING || type->kind != GRTC_ATTR_TYPE) {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL,
                         "global access needs a vm.global.* op from grtc_vm_builder_global");
    return NULL;
  }
  *out_name = name->string;
  return type->type;
}

grtc_value_t* grtc_vm_global_load(grtc_vm_builder_t* b, const grtc_operation_t* global) {
  grt_string_view_t name;
  const grtc_type_t* type = grtc_vm_global_type(b, global, &name);
  if (!type) return NULL;
  char op_name[32];
  snprintf(op_name, sizeof(op_name), "vm.global.load.%s", grtc_vm_type_suffix(type));
  grtc_named_attribute_t attribute = grtc_vm_named("global", grtc_vm_attr_symbol(b, name));
  return grtc_vm_result(grtc_vm_builder_op(b, op_name, NULL, 0, &type, 1, &attribute, 1, NULL, 0));
}

grtc_operation_t* grtc_vm_global_store(grtc_vm_builder_t* b, grtc_value_t* value,
                                       const grtc_operation_t* global) {
  grt_string_view_t name;
  const grtc_type_t* type = grtc_vm_global_type(b, global, &name);
  if (!type) return NULL;
  if (!value || !grtc_type_equal(value->type, type)) {
    char a[64], c[64];
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "store to global @%.*s of type %s passes %s",
                         GRT_SV_ARG(name), grtc_vm_type_spelling(type, a, sizeof(a)),
                         value ? grtc_vm_type_spelling(value->type, c, sizeof(c)) : "NULL");
    return NULL;
  }
  char op_name[32];
  snprintf(op_name, sizeof(op_name), "vm.global.store.%s", grtc_vm_type_suffix(type));
  grtc_named_attribute_t attribute = grtc_vm_named("global", grtc_vm_attr_symbol(b, name));
  return grtc_vm_builder_op(b, op_name, &value, 1, NULL, 0, &attribute, 1, NULL, 0);
}

// Checks |value| against |type| for argument |index| of a call of |callee|.
static bool grtc_vm_check_arg(grtc_vm_builder_t* b, grt_string_view_t callee, uint32_t index,
                              const grtc_value_t* value, const grtc_type_t* type) {
  if (value && grtc_type_equal(value->type, type)) return true;
  char a[96], c[96];
  grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "call of @%.*s: argument %u is %s, the callee takes %s",
                       GRT_SV_ARG(callee), index,
                       value ? grtc_vm_type_spelling(value->type, a, sizeof(a)) : "missing (NULL)",
                       grtc_vm_type_spelling(type, c, sizeof(c)));
  return false;
}

grtc_operation_t* grtc_vm_call_import(grtc_vm_builder_t* b, const grtc_operation_t* import,
                                      const grtc_vm_arg_t* args, uint32_t arg_count) {
  if (b->failed) return NULL;
  const grtc_attribute_t* name = import ? grtc_operation_attribute(import, "sym_name") : NULL;
  const grtc_attribute_t* type_attr =
      import ? grtc_operation_attribute(import, "function_type") : NULL;
  if (!import || !grtc_operation_is(import, "vm.import") || !name || !type_attr) {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL,
                         "grtc_vm_call_import needs a vm.import from grtc_vm_builder_import");
    return NULL;
  }
  grt_string_view_t callee = name->string;
  const grtc_type_t* type = type_attr->type;
  const grtc_attribute_t* variadic = grtc_operation_attribute(import, "is_variadic");
  uint32_t input_count = type->function.input_count;
  if (arg_count != input_count) {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "call of @%.*s passes %u arguments, the import takes %u",
                         GRT_SV_ARG(callee), arg_count, input_count);
    return NULL;
  }
  // Flatten: operands, segment sizes (-1 or the span length) and the
  // declared type of each argument.
  uint32_t operand_count = 0;
  for (uint32_t i = 0; i < arg_count; ++i) {
    bool is_span = variadic && variadic->array.items[i]->boolean;
    if (args[i].is_span != is_span) {
      grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL,
                           "call of @%.*s: argument %u is %s but the import takes %s",
                           GRT_SV_ARG(callee), i, args[i].is_span ? "a span" : "one value",
                           is_span ? "a span (variadic)" : "one value");
      return NULL;
    }
    const grtc_type_t* arg_type = type->function.types[i];
    uint32_t group = arg_type->kind == GRTC_TYPE_TUPLE ? arg_type->function.input_count : 1;
    operand_count += is_span ? args[i].count * group : 1;
  }
  grtc_value_t** operands = grtc_vm_builder_alloc(b, operand_count * sizeof(*operands));
  int32_t* sizes = grtc_vm_builder_alloc(b, arg_count * sizeof(*sizes));
  const grtc_attribute_t** segment_types = grtc_vm_builder_alloc(b, arg_count * sizeof(*segment_types));
  if (!operands || !sizes || !segment_types) return NULL;
  uint32_t n = 0;
  for (uint32_t i = 0; i < arg_count; ++i) {
    const grtc_type_t* arg_type = type->function.types[i];
    segment_types[i] = grtc_vm_attr_type(b, arg_type);
    if (!args[i].is_span) {
      if (!grtc_vm_check_arg(b, callee, i, args[i].value, arg_type)) return NULL;
      operands[n++] = args[i].value;
      sizes[i] = -1;
      continue;
    }
    bool tuple = arg_type->kind == GRTC_TYPE_TUPLE;
    uint32_t group = tuple ? arg_type->function.input_count : 1;
    for (uint32_t item = 0; item < args[i].count; ++item) {
      for (uint32_t k = 0; k < group; ++k) {
        grtc_value_t* value = args[i].values[item * group + k];
        if (!grtc_vm_check_arg(b, callee, i, value, tuple ? arg_type->function.types[k] : arg_type)) {
          return NULL;
        }
        operands[n++] = value;
      }
    }
    sizes[i] = (int32_t)args[i].count;
  }
  const grtc_type_t* const* results = type->function.types + input_count;
  uint32_t result_count = type->function.result_count;
  if (!variadic) {
    grtc_named_attribute_t attribute = grtc_vm_named("callee", grtc_vm_attr_symbol(b, callee));
    return grtc_vm_builder_op(b, "vm.call", operands, n, results, result_count, &attribute, 1,
                              NULL, 0);
  }
  grtc_attribute_t* segment_sizes = grtc_vm_new_attr(b, GRTC_ATTR_DENSE_ARRAY);
  if (!segment_sizes) return NULL;
  segment_sizes->type = b->i32;
  segment_sizes->dense.data = (const uint8_t*)sizes;
  segment_sizes->dense.size = arg_count * sizeof(int32_t);
  grtc_named_attribute_t attributes[3] = {
      grtc_vm_named("callee", grtc_vm_attr_symbol(b, callee)),
      grtc_vm_named("segment_sizes", segment_sizes),
      grtc_vm_named("segment_types", grtc_vm_attr_array(b, segment_types, arg_count)),
  };
  return grtc_vm_builder_op(b, "vm.call.variadic", operands, n, results, result_count,
                            attributes, 3, NULL, 0);
}

grtc_operation_t* grtc_vm_call(grtc_vm_builder_t* b, grt_string_view_t name,
                               grtc_value_t* const* args, uint32_t arg_count,
                               const grtc_type_t* const* result_types, uint32_t result_count) {
  if (b->failed) return NULL;
  grtc_named_attribute_t attribute = grtc_vm_named("callee", grtc_vm_attr_symbol(b, name));
  return grtc_vm_builder_op(b, "vm.call", args, arg_count, result_types, result_count,
                            &attribute, 1, NULL, 0);
}

// Checks that |successor| passes its block's argument count and types.
static bool grtc_vm_check_successor(grtc_vm_builder_t* b, const char* what,
                                    const grtc_successor_t* successor) {
  if (b->failed) return false;
  const grtc_block_t* block = successor->block;
  if (!block) {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "%s: a target block is missing (NULL)", what);
    return false;
  }
  if (successor->operand_count != block->arg_count) {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "%s passes %u arguments to a block that takes %u",
                         what, successor->operand_count, block->arg_count);
    return false;
  }
  for (uint32_t i = 0; i < block->arg_count; ++i) {
    const grtc_value_t* value = successor->operands[i];
    if (!value || !grtc_type_equal(value->type, block->args[i].type)) {
      char a[64], c[64];
      grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "%s passes %s as block argument %u, which is %s",
                           what, value ? grtc_vm_type_spelling(value->type, a, sizeof(a)) : "NULL",
                           i, grtc_vm_type_spelling(block->args[i].type, c, sizeof(c)));
      return false;
    }
  }
  return true;
}

grtc_operation_t* grtc_vm_br(grtc_vm_builder_t* b, grtc_block_t* target,
                             grtc_value_t* const* args, uint32_t arg_count) {
  grtc_successor_t successor = {target, arg_count, args};
  if (!grtc_vm_check_successor(b, "vm.br", &successor)) return NULL;
  return grtc_vm_builder_op(b, "vm.br", NULL, 0, NULL, 0, NULL, 0, &successor, 1);
}

grtc_operation_t* grtc_vm_cond_br(grtc_vm_builder_t* b, grtc_value_t* condition,
                                  grtc_block_t* if_true, grtc_value_t* const* true_args,
                                  uint32_t true_arg_count, grtc_block_t* if_false,
                                  grtc_value_t* const* false_args, uint32_t false_arg_count) {
  grtc_successor_t successors[2] = {{if_true, true_arg_count, true_args},
                                    {if_false, false_arg_count, false_args}};
  if (!grtc_vm_check_successor(b, "vm.cond_br", &successors[0]) ||
      !grtc_vm_check_successor(b, "vm.cond_br", &successors[1])) {
    return NULL;
  }
  if (!condition || !grtc_type_is_integer(condition->type, 32)) {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "vm.cond_br needs an i32 condition");
    return NULL;
  }
  return grtc_vm_builder_op(b, "vm.cond_br", &condition, 1, NULL, 0, NULL, 0, successors, 2);
}

grtc_operation_t* grtc_vm_br_table(grtc_vm_builder_t* b, grtc_value_t* index,
                                   const grtc_successor_t* default_target,
                                   const grtc_successor_t* cases, uint32_t case_count) {
  if (b->failed) return NULL;
  if (!index || !grtc_type_is_integer(index->type, 32)) {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "vm.br_table needs an i32 index");
    return NULL;
  }
  grtc_successor_t* successors = grtc_vm_builder_alloc(b, (case_count + 1) * sizeof(*successors));
  if (!successors) return NULL;
  successors[0] = *default_target;
  if (case_count) memcpy(successors + 1, cases, case_count * sizeof(*cases));
  for (uint32_t i = 0; i <= case_count; ++i) {
    if (!grtc_vm_check_successor(b, "vm.br_table", &successors[i])) return NULL;
  }
  return grtc_vm_builder_op(b, "vm.br_table", &index, 1, NULL, 0, NULL, 0, successors,
                            case_count + 1);
}

grtc_operation_t* grtc_vm_return(grtc_vm_builder_t* b, grtc_value_t* const* values,
                                 uint32_t count) {
  return grtc_vm_builder_op(b, "vm.return", values, count, NULL, 0, NULL, 0, NULL, 0);
}

grtc_operation_t* grtc_vm_check(grtc_vm_builder_t* b, grtc_vm_check_t op, grtc_value_t* lhs,
                                grtc_value_t* rhs, const char* message) {
  if (b->failed) return NULL;
  const char* name = op == GRTC_VM_CHECK_EQ ? "vm.check.eq" : "vm.check.ne";
  if (!lhs || !rhs || !grtc_type_equal(lhs->type, rhs->type)) {
    grtc_vm_builder_fail(b, GRT_STATUS_INTERNAL, "%s takes two values of one type", name);
    return NULL;
  }
  grtc_named_attribute_t attribute =
      grtc_vm_named("message", grtc_vm_attr_string(b, grt_make_cstring_view(message)));
  grtc_value_t* operands[2] = {lhs, rhs};
  return grtc_vm_builder_op(b, name, operands, 2, NULL, 0, &attribute, 1, NULL, 0);
}

grtc_operation_t* grtc_vm_check_nz(grtc_vm_builder_t* b, grtc_value_t* value,
                                   const char* message) {
  if (b->failed) return NULL;
  grtc_named_attribute_t attribute =
      grtc_vm_named("message", grtc_vm_attr_string(b, grt_make_cstring_view(message)));
  return grtc_vm_builder_op(b, "vm.check.nz", &value, 1, NULL, 0, &attribute, 1, NULL, 0);
}
