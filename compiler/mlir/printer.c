#include "compiler/mlir/printer.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Output text. A fixed buffer (diagnostics) never grows; a growable one
// (whole modules) uses the allocator and remembers the first failure.
typedef struct grtc_text_t {
  grt_allocator_t allocator;
  bool growable;
  char* data;
  size_t length;    // what has been written, or would have been
  size_t capacity;
  bool failed;
} grtc_text_t;

static void grtc_text_append(grtc_text_t* text, const char* data, size_t size) {
  if (text->failed) return;
  if (text->length + size + 1 > text->capacity && text->growable) {
    size_t capacity = text->capacity ? text->capacity : 4096;
    while (capacity < text->length + size + 1) capacity *= 2;
    void* grown = text->data;
    if (!grt_status_consume_ok(grt_allocator_realloc(
            text->allocator, text->capacity, capacity, &grown))) {
      text->failed = true;
      return;
    }
    text->data = grown;
    text->capacity = capacity;
  }
  if (text->length < text->capacity) {
    size_t room = text->capacity - 1 - text->length;
    size_t copy = size < room ? size : room;
    if (text->length + 1 <= text->capacity - 0 && copy) {
      memcpy(text->data + text->length, data, copy);
    }
    text->data[text->length + copy] = 0;
  }
  text->length += size;
}

static void grtc_text_printf(grtc_text_t* text, const char* format, ...)
    GRT_PRINTF_LIKE(2, 3);
static void grtc_text_printf(grtc_text_t* text, const char* format, ...) {
  char buffer[128];
  va_list args;
  va_start(args, format);
  int length = vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  if (length < 0) return;
  grtc_text_append(text, buffer, (size_t)length < sizeof(buffer)
                                     ? (size_t)length
                                     : sizeof(buffer) - 1);
}

static void grtc_text_puts(grtc_text_t* text, const char* string) {
  grtc_text_append(text, string, strlen(string));
}

static void grtc_text_view(grtc_text_t* text, grt_string_view_t view) {
  grtc_text_append(text, view.data, view.size);
}

static void grtc_print_string(grtc_text_t* text, grt_string_view_t value) {
  grtc_text_puts(text, "\"");
  for (size_t i = 0; i < value.size; ++i) {
    unsigned char c = (unsigned char)value.data[i];
    if (c == '"' || c == '\\') {
      char escaped[2] = {'\\', (char)c};
      grtc_text_append(text, escaped, 2);
    } else if (c >= 32 && c < 127) {
      grtc_text_append(text, (const char*)&c, 1);
    } else {
      grtc_text_printf(text, "\\%02X", c);
    }
  }
  grtc_text_puts(text, "\"");
}

static bool grtc_is_bare_symbol(grt_string_view_t name) {
  if (name.size == 0) return false;
  for (size_t i = 0; i < name.size; ++i) {
    char c = name.data[i];
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    bool digit = c >= '0' && c <= '9';
    if (!(letter || digit || c == '$' || c == '.' || c == '-') ||
        (i == 0 && !letter)) {
      return false;
    }
  }
  return true;
}

static void grtc_print_symbol(grtc_text_t* text, grt_string_view_t name) {
  grtc_text_puts(text, "@");
  if (grtc_is_bare_symbol(name)) {
    grtc_text_view(text, name);
  } else {
    grtc_print_string(text, name);
  }
}

static void grtc_print_attribute(grtc_text_t* text,
                                 const grtc_attribute_t* attribute);

static void grtc_print_type(grtc_text_t* text, const grtc_type_t* type) {
  switch (type->kind) {
    case GRTC_TYPE_INTEGER:
      grtc_text_printf(text, "%si%u",
                       type->integer.signedness == GRTC_SIGNED     ? "s"
                       : type->integer.signedness == GRTC_UNSIGNED ? "u"
                                                                   : "",
                       type->integer.width);
      return;
    case GRTC_TYPE_INDEX: grtc_text_puts(text, "index"); return;
    case GRTC_TYPE_NONE: grtc_text_puts(text, "none"); return;
    case GRTC_TYPE_FLOAT:
      grtc_text_puts(text, grtc_float_kind_spelling(type->float_kind));
      return;
    case GRTC_TYPE_COMPLEX:
      grtc_text_puts(text, "complex<");
      grtc_print_type(text, type->element);
      grtc_text_puts(text, ">");
      return;
    case GRTC_TYPE_TENSOR:
    case GRTC_TYPE_VECTOR:
      grtc_text_puts(text, type->kind == GRTC_TYPE_TENSOR ? "tensor<" : "vector<");
      if (!type->shaped.ranked) grtc_text_puts(text, "*x");
      for (uint32_t i = 0; i < type->shaped.rank; ++i) {
        if (type->shaped.dims[i] == GRTC_DYNAMIC_DIM) {
          grtc_text_puts(text, "?x");
        } else {
          grtc_text_printf(text, "%" PRId64 "x", type->shaped.dims[i]);
        }
      }
      grtc_print_type(text, type->shaped.element);
      if (type->shaped.encoding) {
        grtc_text_puts(text, ", ");
        grtc_print_attribute(text, type->shaped.encoding);
      }
      grtc_text_puts(text, ">");
      return;
    case GRTC_TYPE_TUPLE:
      grtc_text_puts(text, "tuple<");
      for (uint32_t i = 0; i < type->function.input_count; ++i) {
        if (i) grtc_text_puts(text, ", ");
        grtc_print_type(text, type->function.types[i]);
      }
      grtc_text_puts(text, ">");
      return;
    case GRTC_TYPE_FUNCTION: {
      grtc_text_puts(text, "(");
      uint32_t inputs = type->function.input_count;
      for (uint32_t i = 0; i < inputs; ++i) {
        if (i) grtc_text_puts(text, ", ");
        grtc_print_type(text, type->function.types[i]);
      }
      grtc_text_puts(text, ") -> (");
      for (uint32_t i = 0; i < type->function.result_count; ++i) {
        if (i) grtc_text_puts(text, ", ");
        grtc_print_type(text, type->function.types[inputs + i]);
      }
      grtc_text_puts(text, ")");
      return;
    }
    case GRTC_TYPE_VM_REF:
    case GRTC_TYPE_VM_LIST:
      grtc_text_puts(text, type->kind == GRTC_TYPE_VM_REF ? "!vm.ref<" : "!vm.list<");
      if (type->element) {
        grtc_print_type(text, type->element);
      } else {
        grtc_text_puts(text, "?");
      }
      grtc_text_puts(text, ">");
      return;
    case GRTC_TYPE_VM_BUFFER: grtc_text_puts(text, "!vm.buffer"); return;
    case GRTC_TYPE_OPAQUE: grtc_text_view(text, type->opaque); return;
  }
}

// Shortest text that reads back as the same |kind| value, with the '.'
// MLIR requires of a float literal.
static void grtc_print_float(grtc_text_t* text, double value,
                             grtc_float_kind_t kind) {
  char buffer[64];
  uint64_t bits = grtc_float_encode(value, kind);
  for (int precision = 1; precision <= 17; ++precision) {
    snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (grtc_float_encode(strtod(buffer, NULL), kind) == bits) break;
  }
  char* exponent = strpbrk(buffer, "eE");
  if (!strchr(buffer, '.')) {
    char tail[64] = "";
    if (exponent) {
      snprintf(tail, sizeof(tail), "%s", exponent);
      *exponent = 0;
    }
    grtc_text_printf(text, "%s.0%s", buffer, tail);
  } else {
    grtc_text_puts(text, buffer);
  }
}

static uint64_t grtc_load_le(const uint8_t* data, size_t size) {
  uint64_t value = 0;
  for (size_t i = 0; i < size; ++i) value |= (uint64_t)data[i] << (8 * i);
  return value;
}

static void grtc_print_element(grtc_text_t* text, const grtc_type_t* element,
                               const uint8_t* data) {
  grtc_type_t storage;
  element = grtc_type_dense_element(element, &storage);
  size_t size = grtc_type_element_byte_size(element);
  if (element->kind == GRTC_TYPE_COMPLEX) {
    grtc_text_puts(text, "(");
    grtc_print_element(text, element->element, data);
    grtc_text_puts(text, ",");
    grtc_print_element(text, element->element, data + size / 2);
    grtc_text_puts(text, ")");
    return;
  }
  uint64_t bits = grtc_load_le(data, size);
  if (element->kind == GRTC_TYPE_FLOAT) {
    double value = grtc_float_decode(bits, element->float_kind);
    if (isfinite(value)) {
      grtc_print_float(text, value, element->float_kind);
    } else {
      grtc_text_printf(text, "0x%0*" PRIX64, (int)(size * 2), bits);
    }
    return;
  }
  uint32_t width = element->kind == GRTC_TYPE_INDEX ? 64 : element->integer.width;
  bool is_unsigned =
      element->kind == GRTC_TYPE_INTEGER && element->integer.signedness == GRTC_UNSIGNED;
  if (width < 64) bits &= ((uint64_t)1 << width) - 1;
  if (width == 1) {
    grtc_text_puts(text, bits ? "true" : "false");
  } else if (is_unsigned) {
    grtc_text_printf(text, "%" PRIu64, bits);
  } else {
    if (width < 64 && (bits >> (width - 1)) & 1) bits |= ~(((uint64_t)1 << width) - 1);
    int64_t value;
    memcpy(&value, &bits, sizeof(value));
    grtc_text_printf(text, "%" PRId64, value);
  }
}

static void grtc_print_dense_level(grtc_text_t* text, const grtc_type_t* type,
                                   const uint8_t* data, uint32_t level,
                                   size_t stride_bytes) {
  const grtc_type_t* element = type->shaped.element;
  int64_t count = type->shaped.dims[level];
  size_t inner = stride_bytes / (count ? (size_t)count : 1);
  grtc_text_puts(text, "[");
  for (int64_t i = 0; i < count; ++i) {
    if (i) grtc_text_puts(text, ", ");
    if (level + 1 == type->shaped.rank) {
      grtc_print_element(text, element, data + (size_t)i * inner);
    } else {
      grtc_print_dense_level(text, type, data + (size_t)i * inner, level + 1, inner);
    }
  }
  grtc_text_puts(text, "]");
}

static void grtc_print_attribute(grtc_text_t* text,
                                 const grtc_attribute_t* attribute) {
  switch (attribute->kind) {
    case GRTC_ATTR_UNIT: grtc_text_puts(text, "unit"); return;
    case GRTC_ATTR_BOOL:
      grtc_text_puts(text, attribute->boolean ? "true" : "false");
      return;
    case GRTC_ATTR_INTEGER:
      if (attribute->type->kind == GRTC_TYPE_INTEGER &&
          attribute->type->integer.signedness == GRTC_UNSIGNED) {
        grtc_text_printf(text, "%" PRIu64, (uint64_t)attribute->integer);
      } else {
        grtc_text_printf(text, "%" PRId64, attribute->integer);
      }
      grtc_text_puts(text, " : ");
      grtc_print_type(text, attribute->type);
      return;
    case GRTC_ATTR_FLOAT:
      if (isfinite(attribute->floating)) {
        grtc_print_float(text, attribute->floating, attribute->type->float_kind);
      } else {
        size_t size = grtc_type_element_byte_size(attribute->type);
        grtc_text_printf(text, "0x%0*" PRIX64, (int)(size * 2),
                         grtc_float_encode(attribute->floating,
                                           attribute->type->float_kind));
      }
      grtc_text_puts(text, " : ");
      grtc_print_type(text, attribute->type);
      return;
    case GRTC_ATTR_STRING:
      grtc_print_string(text, attribute->string);
      if (attribute->type) {
        grtc_text_puts(text, " : ");
        grtc_print_type(text, attribute->type);
      }
      return;
    case GRTC_ATTR_TYPE:
      grtc_print_type(text, attribute->type);
      return;
    case GRTC_ATTR_ARRAY:
      grtc_text_puts(text, "[");
      for (uint32_t i = 0; i < attribute->array.count; ++i) {
        if (i) grtc_text_puts(text, ", ");
        grtc_print_attribute(text, attribute->array.items[i]);
      }
      grtc_text_puts(text, "]");
      return;
    case GRTC_ATTR_DICTIONARY:
      grtc_text_puts(text, "{");
      for (uint32_t i = 0; i < attribute->dictionary.count; ++i) {
        const grtc_named_attribute_t* entry = &attribute->dictionary.entries[i];
        if (i) grtc_text_puts(text, ", ");
        if (grtc_is_bare_symbol(entry->name) && entry->name.data[0] != '-') {
          grtc_text_view(text, entry->name);
        } else {
          grtc_print_string(text, entry->name);
        }
        grtc_text_puts(text, " = ");
        grtc_print_attribute(text, entry->value);
      }
      grtc_text_puts(text, "}");
      return;
    case GRTC_ATTR_SYMBOL_REF:
      for (uint32_t i = 0; i < attribute->symbol.count; ++i) {
        if (i) grtc_text_puts(text, "::");
        grtc_print_symbol(text, attribute->symbol.names[i]);
      }
      return;
    case GRTC_ATTR_DENSE_ELEMENTS: {
      const grtc_type_t* type = attribute->type;
      grtc_text_puts(text, "dense<");
      if (attribute->dense.splat || type->shaped.rank == 0) {
        grtc_print_element(text, type->shaped.element, attribute->dense.data);
      } else if (attribute->dense.size == 0) {
        grtc_text_puts(text, "\"0x\"");
      } else {
        grtc_print_dense_level(text, type, attribute->dense.data, 0,
                               attribute->dense.size);
      }
      grtc_text_puts(text, "> : ");
      grtc_print_type(text, type);
      return;
    }
    case GRTC_ATTR_DENSE_ARRAY: {
      size_t size = grtc_type_element_byte_size(attribute->type);
      grtc_text_puts(text, "array<");
      grtc_print_type(text, attribute->type);
      for (size_t offset = 0; offset < attribute->dense.size; offset += size) {
        grtc_text_puts(text, offset ? ", " : ": ");
        grtc_print_element(text, attribute->type, attribute->dense.data + offset);
      }
      grtc_text_puts(text, ">");
      return;
    }
    case GRTC_ATTR_OPAQUE:
      grtc_text_view(text, attribute->opaque);
      if (attribute->type) {
        grtc_text_puts(text, " : ");
        grtc_print_type(text, attribute->type);
      }
      return;
  }
}

static void grtc_print_location_body(grtc_text_t* text,
                                     const grtc_location_t* location) {
  // Aliases print as what they stand for; the parser rejected cycles.
  while (location->kind == GRTC_LOC_ALIAS) location = location->resolved;
  switch (location->kind) {
    case GRTC_LOC_UNKNOWN: grtc_text_puts(text, "unknown"); return;
    case GRTC_LOC_FILE:
      grtc_print_string(text, location->text);
      grtc_text_printf(text, ":%u:%u", location->line, location->column);
      return;
    case GRTC_LOC_NAME:
      grtc_print_string(text, location->text);
      if (location->child_count) {
        grtc_text_puts(text, "(");
        grtc_print_location_body(text, location->children[0]);
        grtc_text_puts(text, ")");
      }
      return;
    case GRTC_LOC_FUSED:
      grtc_text_puts(text, "fused");
      if (location->metadata) {
        grtc_text_puts(text, "<");
        grtc_print_attribute(text, location->metadata);
        grtc_text_puts(text, ">");
      }
      grtc_text_puts(text, "[");
      for (uint32_t i = 0; i < location->child_count; ++i) {
        if (i) grtc_text_puts(text, ", ");
        grtc_print_location_body(text, location->children[i]);
      }
      grtc_text_puts(text, "]");
      return;
    case GRTC_LOC_CALLSITE:
      grtc_text_puts(text, "callsite(");
      grtc_print_location_body(text, location->children[0]);
      grtc_text_puts(text, " at ");
      grtc_print_location_body(text, location->children[1]);
      grtc_text_puts(text, ")");
      return;
    case GRTC_LOC_ALIAS:
      return;
  }
}

static void grtc_print_value(grtc_text_t* text, const grtc_value_t* value) {
  grtc_text_view(text, value->name);
  const grtc_operation_t* op = value->defining_op;
  if (!op) return;
  // Results sharing a name form a group (%r:2); members print as %r#i.
  uint32_t first = value->index;
  while (first > 0 && grt_string_view_equal(op->results[first - 1].name, value->name)) {
    --first;
  }
  uint32_t last = value->index;
  while (last + 1 < op->result_count &&
         grt_string_view_equal(op->results[last + 1].name, value->name)) {
    ++last;
  }
  if (last > first) grtc_text_printf(text, "#%u", value->index - first);
}

static uint32_t grtc_block_index(const grtc_block_t* block) {
  uint32_t index = 0;
  for (const grtc_block_t* b = block->parent->first; b && b != block; b = b->next) {
    ++index;
  }
  return index;
}

static void grtc_print_indent(grtc_text_t* text, int indent) {
  for (int i = 0; i < indent; ++i) grtc_text_puts(text, "  ");
}

static void grtc_print_operation(grtc_text_t* text, const grtc_operation_t* op,
                                 uint32_t flags, int indent);

static void grtc_print_region(grtc_text_t* text, const grtc_region_t* region,
                              uint32_t flags, int indent) {
  grtc_text_puts(text, "{\n");
  uint32_t index = 0;
  for (const grtc_block_t* block = region->first; block; block = block->next) {
    grtc_print_indent(text, indent);
    grtc_text_printf(text, "^bb%u", index++);
    if (block->arg_count) {
      grtc_text_puts(text, "(");
      for (uint32_t i = 0; i < block->arg_count; ++i) {
        const grtc_value_t* arg = &block->args[i];
        if (i) grtc_text_puts(text, ", ");
        grtc_text_view(text, arg->name);
        grtc_text_puts(text, ": ");
        grtc_print_type(text, arg->type);
        if ((flags & GRTC_PRINT_LOCATIONS) && arg->location) {
          grtc_text_puts(text, " loc(");
          grtc_print_location_body(text, arg->location);
          grtc_text_puts(text, ")");
        }
      }
      grtc_text_puts(text, ")");
    }
    grtc_text_puts(text, ":\n");
    for (const grtc_operation_t* op = block->first; op; op = op->next) {
      grtc_print_operation(text, op, flags, indent + 1);
    }
  }
  grtc_print_indent(text, indent);
  grtc_text_puts(text, "}");
}

static void grtc_print_operation(grtc_text_t* text, const grtc_operation_t* op,
                                 uint32_t flags, int indent) {
  grtc_print_indent(text, indent);
  for (uint32_t i = 0; i < op->result_count;) {
    uint32_t end = i + 1;
    while (end < op->result_count &&
           grt_string_view_equal(op->results[end].name, op->results[i].name)) {
      ++end;
    }
    if (i) grtc_text_puts(text, ", ");
    grtc_text_view(text, op->results[i].name);
    if (end - i > 1) grtc_text_printf(text, ":%u", end - i);
    i = end;
  }
  if (op->result_count) grtc_text_puts(text, " = ");
  grtc_print_string(text, op->name);
  grtc_text_puts(text, "(");
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    if (i) grtc_text_puts(text, ", ");
    grtc_print_value(text, op->operands[i]);
  }
  grtc_text_puts(text, ")");
  if (op->successor_count) {
    grtc_text_puts(text, "[");
    for (uint32_t i = 0; i < op->successor_count; ++i) {
      const grtc_successor_t* successor = &op->successors[i];
      if (i) grtc_text_puts(text, ", ");
      grtc_text_printf(text, "^bb%u", grtc_block_index(successor->block));
      if (successor->operand_count) {
        grtc_text_puts(text, "(");
        for (uint32_t j = 0; j < successor->operand_count; ++j) {
          if (j) grtc_text_puts(text, ", ");
          grtc_print_value(text, successor->operands[j]);
        }
        grtc_text_puts(text, " : ");
        for (uint32_t j = 0; j < successor->operand_count; ++j) {
          if (j) grtc_text_puts(text, ", ");
          grtc_print_type(text, successor->operands[j]->type);
        }
        grtc_text_puts(text, ")");
      }
    }
    grtc_text_puts(text, "]");
  }
  if (op->properties) {
    grtc_text_puts(text, " <");
    grtc_print_attribute(text, op->properties);
    grtc_text_puts(text, ">");
  }
  if (op->region_count) {
    grtc_text_puts(text, " (");
    for (uint32_t i = 0; i < op->region_count; ++i) {
      if (i) grtc_text_puts(text, ", ");
      grtc_print_region(text, op->regions[i], flags, indent);
    }
    grtc_text_puts(text, ")");
  }
  if (op->attribute_count) {
    grtc_attribute_t dictionary;
    memset(&dictionary, 0, sizeof(dictionary));
    dictionary.kind = GRTC_ATTR_DICTIONARY;
    dictionary.dictionary.count = op->attribute_count;
    dictionary.dictionary.entries = op->attributes;
    grtc_text_puts(text, " ");
    grtc_print_attribute(text, &dictionary);
  }
  grtc_text_puts(text, " : (");
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    if (i) grtc_text_puts(text, ", ");
    grtc_print_type(text, op->operands[i]->type);
  }
  grtc_text_puts(text, ") -> (");
  for (uint32_t i = 0; i < op->result_count; ++i) {
    if (i) grtc_text_puts(text, ", ");
    grtc_print_type(text, op->results[i].type);
  }
  grtc_text_puts(text, ")");
  if ((flags & GRTC_PRINT_LOCATIONS) && op->location) {
    grtc_text_puts(text, " loc(");
    grtc_print_location_body(text, op->location);
    grtc_text_puts(text, ")");
  }
  grtc_text_puts(text, "\n");
}

grt_status_t grtc_print_module(const grtc_module_t* module, uint32_t flags,
                               grt_allocator_t allocator, char** out_text,
                               size_t* out_length) {
  grtc_text_t text;
  memset(&text, 0, sizeof(text));
  text.allocator = allocator;
  text.growable = true;
  grtc_text_append(&text, "", 0);
  for (const grtc_operation_t* op = module->body->first; op; op = op->next) {
    grtc_print_operation(&text, op, flags, 0);
  }
  if (text.failed || !text.data) {
    grt_allocator_free(allocator, text.data);
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory printing %zu bytes of IR", text.length);
  }
  *out_text = text.data;
  *out_length = text.length;
  return grt_ok_status();
}

static grtc_text_t grtc_fixed_text(char* buffer, size_t capacity) {
  grtc_text_t text;
  memset(&text, 0, sizeof(text));
  text.data = buffer;
  text.capacity = capacity;
  if (capacity) buffer[0] = 0;
  return text;
}

size_t grtc_format_type(const grtc_type_t* type, char* buffer, size_t capacity) {
  grtc_text_t text = grtc_fixed_text(buffer, capacity);
  grtc_print_type(&text, type);
  return text.length;
}

size_t grtc_format_attribute(const grtc_attribute_t* attribute, char* buffer,
                             size_t capacity) {
  grtc_text_t text = grtc_fixed_text(buffer, capacity);
  grtc_print_attribute(&text, attribute);
  return text.length;
}
