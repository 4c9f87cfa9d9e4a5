// Bytecode disassembler: walks each op's operand string from the op table,
// reading every value through one bounds-checked reader.
#include "vm/disassembler.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "vm/op_table.h"
#include "vm/signature.h"

//===----------------------------------------------------------------------===//
// Text sinks
//===----------------------------------------------------------------------===//

static grt_status_t grt_vm_file_sink_append(void* self,
                                            grt_string_view_t text) {
  if (text.size && fwrite(text.data, 1, text.size, (FILE*)self) != text.size) {
    return grt_make_status(GRT_STATUS_DATA_LOSS,
                           "disassembly: wrote fewer than the %zu bytes asked",
                           text.size);
  }
  return grt_ok_status();
}

grt_vm_text_sink_t grt_vm_text_sink_file(FILE* file) {
  grt_vm_text_sink_t sink = {grt_vm_file_sink_append, file};
  return sink;
}

void grt_vm_string_builder_initialize(grt_allocator_t allocator,
                                      grt_vm_string_builder_t* out_builder) {
  memset(out_builder, 0, sizeof(*out_builder));
  out_builder->allocator = allocator;
}

void grt_vm_string_builder_deinitialize(grt_vm_string_builder_t* builder) {
  grt_allocator_free(builder->allocator, builder->data);
  builder->data = NULL;
  builder->size = builder->capacity = 0;
}

grt_status_t grt_vm_string_builder_append(grt_vm_string_builder_t* builder,
                                          grt_string_view_t text) {
  // +1 keeps room for the terminating NUL.
  if (builder->size + text.size + 1 > builder->capacity) {
    size_t capacity = builder->capacity ? builder->capacity : 256;
    while (capacity < builder->size + text.size + 1) capacity *= 2;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(builder->allocator,
                                              builder->capacity, capacity,
                                              (void**)&builder->data));
    builder->capacity = capacity;
  }
  if (text.size) memcpy(builder->data + builder->size, text.data, text.size);
  builder->size += text.size;
  builder->data[builder->size] = '\0';
  return grt_ok_status();
}

const char* grt_vm_string_builder_cstring(
    const grt_vm_string_builder_t* builder) {
  return builder->data ? builder->data : "";
}

static grt_status_t grt_vm_string_builder_sink_append(void* self,
                                                      grt_string_view_t text) {
  return grt_vm_string_builder_append((grt_vm_string_builder_t*)self, text);
}

grt_vm_text_sink_t grt_vm_string_builder_sink(grt_vm_string_builder_t* builder) {
  grt_vm_text_sink_t sink = {grt_vm_string_builder_sink_append, builder};
  return sink;
}

//===----------------------------------------------------------------------===//
// Names from a module file
//===----------------------------------------------------------------------===//

static bool grt_vm_module_file_ordinal_name(void* user_data, char kind,
                                            uint32_t ordinal,
                                            grt_string_view_t* out_name) {
  const grt_module_file_t* file = user_data;
  const grt_module_file_info_t* info = grt_module_file_info(file);
  // The bytecode may be unverified, so ordinals are checked here.
  if (kind == 'C' && ordinal < info->function_count) {
    *out_name = grt_module_file_function(file, ordinal).name;
    return true;
  }
  if (kind == 'M' && ordinal < info->import_count) {
    *out_name = grt_module_file_import(file, ordinal).full_name;
    return true;
  }
  return false;
}

static bool grt_vm_module_file_callee_calling_convention(
    void* user_data, char kind, uint32_t ordinal,
    grt_string_view_t* out_calling_convention) {
  const grt_module_file_t* file = user_data;
  const grt_module_file_info_t* info = grt_module_file_info(file);
  if (kind == 'C' && ordinal < info->function_count) {
    *out_calling_convention =
        grt_module_file_function(file, ordinal).calling_convention;
    return true;
  }
  if (kind == 'M' && ordinal < info->import_count) {
    *out_calling_convention =
        grt_module_file_import(file, ordinal).calling_convention;
    return true;
  }
  return false;
}

void grt_vm_disassembly_names_for_module_file(
    const grt_module_file_t* file, uint32_t function_ordinal,
    grt_vm_disassembly_names_t* out_names) {
  memset(out_names, 0, sizeof(*out_names));
  out_names->user_data = (void*)file;
  out_names->ordinal_name = grt_vm_module_file_ordinal_name;
  out_names->callee_calling_convention =
      grt_vm_module_file_callee_calling_convention;
  if (function_ordinal < grt_module_file_info(file)->function_count) {
    out_names->calling_convention =
        grt_module_file_function(file, function_ordinal).calling_convention;
  }
}

//===----------------------------------------------------------------------===//
// The reader/printer
//===----------------------------------------------------------------------===//

// Span counts kept for typing a call.variadic argument list; more spans than
// this print untyped (the verifier admits at most 64 anyway).
#define GRT_VM_DISASSEMBLER_MAX_SPANS 64

typedef struct grt_vm_disassembler_t {
  const uint8_t* code;
  uint32_t length;
  uint32_t cursor;
  const grt_vm_disassembly_names_t* names;  // never NULL
  grt_vm_text_sink_t sink;
  bool muted;           // reading only (finding where the results start)
  bool first;           // the next item is the first of its list
  const char* lead;     // printed before the first item
  grt_status_t status;  // the first sink failure
  char error[160];      // why the op is malformed; "" while it is not
  // The callee of the current call op, for typing its A and Y lists.
  bool has_callee;
  grt_vm_signature_t callee;
  uint16_t spans[GRT_VM_DISASSEMBLER_MAX_SPANS];
  uint16_t span_count;
  bool spans_known;
  // Where a successor encoded among the results starts (call.yieldable),
  // 0 for none: it prints after the operands, as "-> ^target".
  uint32_t successor_at;
} grt_vm_disassembler_t;

static void grt_vm_dis_text(grt_vm_disassembler_t* d, const char* data,
                            size_t size) {
  if (d->muted || d->status || size == 0) return;
  d->status = d->sink.append(d->sink.self, grt_make_string_view(data, size));
}

static void grt_vm_dis_print(grt_vm_disassembler_t* d, const char* format,
                             ...) GRT_PRINTF_LIKE(2, 3);
static void grt_vm_dis_print(grt_vm_disassembler_t* d, const char* format,
                             ...) {
  if (d->muted || d->status) return;
  char buffer[128];
  va_list args;
  va_start(args, format);
  int n = vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  if (n < 0) return;
  grt_vm_dis_text(d, buffer,
                  (size_t)n < sizeof(buffer) ? (size_t)n : sizeof(buffer) - 1);
}

// Before each item of an operand list: |lead| before the first (" " after
// the mnemonic, nothing for results), ", " between.
static void grt_vm_dis_separator(grt_vm_disassembler_t* d) {
  if (d->first) {
    grt_vm_dis_text(d, d->lead, strlen(d->lead));
  } else {
    grt_vm_dis_text(d, ", ", 2);
  }
  d->first = false;
}

static bool grt_vm_dis_malformed(grt_vm_disassembler_t* d, const char* format,
                                 ...) GRT_PRINTF_LIKE(2, 3);
static bool grt_vm_dis_malformed(grt_vm_disassembler_t* d, const char* format,
                                 ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(d->error, sizeof(d->error), format, args);
  va_end(args);
  return false;
}

// Reads a |size|-byte little-endian value; false (with the reason recorded)
// when the function ends first.
static bool grt_vm_dis_read(grt_vm_disassembler_t* d, uint32_t size,
                            const char* what, uint64_t* out_value) {
  if (d->length - d->cursor < size) {
    return grt_vm_dis_malformed(
        d, "%s needs %u bytes at 0x%x but the function ends at 0x%x", what,
        size, d->cursor, d->length);
  }
  uint64_t value = 0;
  for (uint32_t i = 0; i < size; ++i) {
    value |= (uint64_t)d->code[d->cursor + i] << (8 * i);
  }
  d->cursor += size;
  *out_value = value;
  return true;
}

static bool grt_vm_dis_u16(grt_vm_disassembler_t* d, const char* what,
                           uint16_t* out_value) {
  uint64_t value = 0;
  if (!grt_vm_dis_read(d, 2, what, &value)) return false;
  *out_value = (uint16_t)value;
  return true;
}

static bool grt_vm_dis_u32(grt_vm_disassembler_t* d, const char* what,
                           uint32_t* out_value) {
  uint64_t value = 0;
  if (!grt_vm_dis_read(d, 4, what, &value)) return false;
  *out_value = (uint32_t)value;
  return true;
}

// One register as %<bank letter><ordinal>; GRT_VM_TYPE_COUNT: untyped.
static void grt_vm_dis_register_text(grt_vm_disassembler_t* d,
                                     grt_vm_type_t type, uint16_t encoded) {
  static const char letters[GRT_VM_TYPE_COUNT] = {'i', 'I', 'f', 'F', 'r'};
  if (type >= GRT_VM_TYPE_COUNT) {
    grt_vm_dis_print(d, "%%?%u", encoded);
  } else if (type == GRT_VM_TYPE_REF) {
    grt_vm_dis_print(d, "%%r%u%s", encoded & GRT_VM_REF_ORDINAL_MASK,
                     (encoded & GRT_VM_REF_MOVE_BIT) ? "!" : "");
  } else {
    grt_vm_dis_print(d, "%%%c%u", letters[type], encoded);
  }
}

static bool grt_vm_dis_register(grt_vm_disassembler_t* d, grt_vm_type_t type) {
  uint16_t encoded = 0;
  if (!grt_vm_dis_u16(d, "register", &encoded)) return false;
  grt_vm_dis_register_text(d, type, encoded);
  return true;
}

static bool grt_vm_dis_type_byte(grt_vm_disassembler_t* d,
                                 grt_vm_type_t* out_type) {
  uint64_t type = 0;
  if (!grt_vm_dis_read(d, 1, "register type", &type)) return false;
  if (type >= GRT_VM_TYPE_COUNT) {
    return grt_vm_dis_malformed(d,
                                "unknown register type %u at 0x%x (expected "
                                "0-%d)",
                                (unsigned)type, d->cursor - 1,
                                GRT_VM_TYPE_COUNT - 1);
  }
  *out_type = (grt_vm_type_t)type;
  return true;
}

// B: ^0x<target>, then "(source -> destination, ...)" when it remaps.
static bool grt_vm_dis_branch(grt_vm_disassembler_t* d) {
  uint32_t target = 0;
  uint16_t count = 0;
  if (!grt_vm_dis_u32(d, "branch target", &target)) return false;
  grt_vm_dis_print(d, "^0x%04x", target);
  if (!grt_vm_dis_u16(d, "remap count", &count)) return false;
  if (count) grt_vm_dis_text(d, "(", 1);
  for (uint16_t i = 0; i < count; ++i) {
    grt_vm_type_t type;
    uint16_t source = 0, destination = 0;
    if (!grt_vm_dis_type_byte(d, &type) ||
        !grt_vm_dis_u16(d, "remap source", &source) ||
        !grt_vm_dis_u16(d, "remap destination", &destination)) {
      return false;
    }
    if (i) grt_vm_dis_text(d, ", ", 2);
    grt_vm_dis_register_text(d, type, source);
    grt_vm_dis_text(d, " -> ", 4);
    grt_vm_dis_register_text(d, type, destination);
  }
  if (count) grt_vm_dis_text(d, ")", 1);
  return true;
}

// A calling convention that does not parse leaves its call lists untyped;
// the reason is not needed.
static bool grt_vm_dis_parse_signature(grt_string_view_t text,
                                       grt_vm_signature_t* out_signature) {
  grt_status_t status = grt_vm_signature_parse(text, out_signature);
  grt_status_free(status);
  return grt_status_is_ok(status);
}

// Ordinal operands: the names callback, else a spelled-out fallback.
static bool grt_vm_dis_ordinal(grt_vm_disassembler_t* d, char c) {
  uint32_t value = 0;
  if (!grt_vm_dis_u32(d, "ordinal", &value)) return false;
  char kind = c;
  if (c == 'C' && (value & GRT_VM_CALLEE_IMPORT_BIT)) {
    kind = 'M';
    value &= ~GRT_VM_CALLEE_IMPORT_BIT;
  }
  const grt_vm_disassembly_names_t* names = d->names;
  if (kind == 'C' || kind == 'M') {
    grt_string_view_t cconv;
    d->has_callee =
        names->callee_calling_convention &&
        names->callee_calling_convention(names->user_data, kind, value,
                                         &cconv) &&
        grt_vm_dis_parse_signature(cconv, &d->callee);
  }
  grt_string_view_t name;
  if (names->ordinal_name &&
      names->ordinal_name(names->user_data, kind, value, &name)) {
    grt_vm_dis_text(d, "@", 1);
    grt_vm_dis_text(d, name.data, name.size);
    return true;
  }
  switch (kind) {
    case 'g': case 'd': grt_vm_dis_print(d, "@global+%" PRIu32, value); break;
    case 'G': grt_vm_dis_print(d, "@global.ref#%" PRIu32, value); break;
    case 'R': grt_vm_dis_print(d, "@rodata#%" PRIu32, value); break;
    case 'C': grt_vm_dis_print(d, "@function#%" PRIu32, value); break;
    default: grt_vm_dis_print(d, "@import#%" PRIu32, value); break;
  }
  return true;
}

// The register types a call list expects: the expansion of |types| (a
// calling-convention run) with variadic spans repeated per the V counts.
// Returns the type of element |index|, or GRT_VM_TYPE_COUNT when unknown.
static grt_vm_type_t grt_vm_dis_list_type(const grt_vm_disassembler_t* d,
                                          grt_string_view_t types,
                                          uint32_t index) {
  uint32_t position = 0;
  uint16_t span = 0;
  for (size_t i = 0; i < types.size; ++i) {
    if (types.data[i] != 'C') {
      if (position++ == index) {
        return grt_vm_type_from_operand_char(types.data[i]);
      }
      continue;
    }
    size_t end = i + 1;
    while (end < types.size && types.data[end] != 'D') ++end;
    size_t group = end - i - 1;
    if (!d->spans_known || span >= d->span_count) return GRT_VM_TYPE_COUNT;
    uint32_t repeat = d->spans[span++];
    if (group && index - position < repeat * group) {
      return grt_vm_type_from_operand_char(
          types.data[i + 1 + (index - position) % group]);
    }
    position += repeat * (uint32_t)group;
    i = end;
  }
  return GRT_VM_TYPE_COUNT;
}

// Register lists. |open|/|close| bracket the list; NULL prints it flat, each
// register an item of the enclosing operand list. |types| (for A/Y/W; NULL
// otherwise) types the registers; |element| types L lists; X lists carry a
// type byte per register.
static bool grt_vm_dis_list(grt_vm_disassembler_t* d, char c,
                            grt_vm_type_t element,
                            const grt_string_view_t* types, const char* open,
                            const char* close) {
  uint16_t count = 0;
  if (!grt_vm_dis_u16(d, "register list count", &count)) return false;
  if (open) grt_vm_dis_text(d, open, strlen(open));
  for (uint16_t i = 0; i < count; ++i) {
    grt_vm_type_t type = element;
    if (c == 'X' && !grt_vm_dis_type_byte(d, &type)) return false;
    if (types) type = grt_vm_dis_list_type(d, *types, i);
    if (open) {
      if (i) grt_vm_dis_text(d, ", ", 2);
    } else {
      grt_vm_dis_separator(d);
    }
    if (!grt_vm_dis_register(d, type)) return false;
  }
  if (close) grt_vm_dis_text(d, close, strlen(close));
  return true;
}

static bool grt_vm_dis_string(grt_vm_disassembler_t* d) {
  uint16_t length = 0;
  if (!grt_vm_dis_u16(d, "string length", &length)) return false;
  if (d->length - d->cursor < length) {
    return grt_vm_dis_malformed(
        d, "string of %u bytes at 0x%x runs past the function end at 0x%x",
        length, d->cursor, d->length);
  }
  grt_vm_dis_text(d, "\"", 1);
  const uint8_t* s = d->code + d->cursor;
  size_t run = 0;  // printable bytes not yet written
  for (uint16_t i = 0; i < length; ++i) {
    uint8_t b = s[i];
    const char* escape = NULL;
    switch (b) {
      case '"': escape = "\\\""; break;
      case '\\': escape = "\\\\"; break;
      case '\n': escape = "\\n"; break;
      case '\t': escape = "\\t"; break;
      case '\r': escape = "\\r"; break;
      default: break;
    }
    if (!escape && b >= 0x20 && b < 0x7F) {
      ++run;
      continue;
    }
    grt_vm_dis_text(d, (const char*)s + i - run, run);
    run = 0;
    if (escape) {
      grt_vm_dis_text(d, escape, strlen(escape));
    } else {
      grt_vm_dis_print(d, "\\x%02x", b);
    }
  }
  grt_vm_dis_text(d, (const char*)s + length - run, run);
  grt_vm_dis_text(d, "\"", 1);
  d->cursor += length;
  return true;
}

// Immediates: floats when the op's first result is a float register, so
// const.f32/const.f64 read as numbers; integers otherwise.
static bool grt_vm_dis_immediate(grt_vm_disassembler_t* d, char c,
                                 const grt_vm_op_info_t* info) {
  uint64_t value = 0;
  if (!grt_vm_dis_read(d, c == 'k' ? 4 : 8, "immediate", &value)) return false;
  const char* results = strchr(info->operands, '>');
  char result = results ? results[1] : '\0';
  if (c == 'k' && result == 'f') {
    float f;
    uint32_t bits = (uint32_t)value;
    memcpy(&f, &bits, sizeof(f));
    grt_vm_dis_print(d, "%.9g", (double)f);
  } else if (c == 'K' && result == 'F') {
    double f;
    memcpy(&f, &value, sizeof(f));
    grt_vm_dis_print(d, "%.17g", f);
  } else if (c == 'k') {
    grt_vm_dis_print(d, "%" PRId32, (int32_t)(uint32_t)value);
  } else {
    grt_vm_dis_print(d, "%" PRId64, (int64_t)value);
  }
  return true;
}

// Prints the operands of |operands| (a run of the encoding string, stopping
// at '>' or its end) and returns where it stopped through *out_end.
static bool grt_vm_dis_operands(grt_vm_disassembler_t* d,
                                const grt_vm_op_info_t* info,
                                const char* operands, bool results,
                                const char** out_end) {
  const char* p = operands;
  for (; *p && *p != '>'; ++p) {
    char c = *p;
    bool ok = true;
    switch (c) {
      case 'i': case 'I': case 'f': case 'F': case 'r':
        grt_vm_dis_separator(d);
        ok = grt_vm_dis_register(d, grt_vm_type_from_operand_char(c));
        break;
      case 'k': case 'K':
        grt_vm_dis_separator(d);
        ok = grt_vm_dis_immediate(d, c, info);
        break;
      case 'g': case 'd': case 'G': case 'R': case 'C': case 'M':
        grt_vm_dis_separator(d);
        ok = grt_vm_dis_ordinal(d, c);
        break;
      case 'B':
        if (results) {
          bool muted = d->muted;
          d->successor_at = d->cursor;
          d->muted = true;
          ok = grt_vm_dis_branch(d);
          d->muted = muted;
          break;
        }
        grt_vm_dis_separator(d);
        ok = grt_vm_dis_branch(d);
        break;
      case 'T': {
        grt_vm_dis_separator(d);
        uint16_t count = 0;
        ok = grt_vm_dis_u16(d, "branch table count", &count);
        if (ok) grt_vm_dis_text(d, "[", 1);
        for (uint16_t i = 0; ok && i < count; ++i) {
          if (i) grt_vm_dis_text(d, ", ", 2);
          ok = grt_vm_dis_branch(d);
        }
        if (ok) grt_vm_dis_text(d, "]", 1);
        break;
      }
      case 'L': {
        grt_vm_type_t element = grt_vm_type_from_operand_char(*++p);
        if (results) {
          ok = grt_vm_dis_list(d, c, element, NULL, NULL, NULL);
        } else {
          grt_vm_dis_separator(d);
          ok = grt_vm_dis_list(d, c, element, NULL, "[", "]");
        }
        break;
      }
      case 'X':
        if (results) {
          ok = grt_vm_dis_list(d, c, GRT_VM_TYPE_COUNT, NULL, NULL, NULL);
        } else {
          grt_vm_dis_separator(d);
          ok = grt_vm_dis_list(d, c, GRT_VM_TYPE_COUNT, NULL, "[", "]");
        }
        break;
      case 'A': {
        // Attached to the callee: @f(%i1, %i2).
        grt_string_view_t types = d->callee.arguments;
        ok = grt_vm_dis_list(d, c, GRT_VM_TYPE_COUNT,
                             d->has_callee ? &types : NULL, "(", ")");
        break;
      }
      case 'Y': {
        grt_string_view_t types = d->callee.results;
        ok = grt_vm_dis_list(d, c, GRT_VM_TYPE_COUNT,
                             d->has_callee ? &types : NULL, NULL, NULL);
        break;
      }
      case 'W': {
        grt_vm_signature_t self;
        bool typed =
            d->names->calling_convention.size &&
            grt_vm_dis_parse_signature(d->names->calling_convention, &self);
        grt_string_view_t types = typed ? self.results : grt_string_view_empty();
        ok = grt_vm_dis_list(d, c, GRT_VM_TYPE_COUNT, typed ? &types : NULL,
                             NULL, NULL);
        break;
      }
      case 'V': {
        // Attached to the callee: @f<2, 1>(...).
        uint16_t count = 0;
        ok = grt_vm_dis_u16(d, "span count", &count);
        d->span_count = 0;
        d->spans_known = ok && count <= GRT_VM_DISASSEMBLER_MAX_SPANS;
        if (ok) grt_vm_dis_text(d, "<", 1);
        for (uint16_t i = 0; ok && i < count; ++i) {
          uint16_t span = 0;
          ok = grt_vm_dis_u16(d, "span", &span);
          if (!ok) break;
          if (i < GRT_VM_DISASSEMBLER_MAX_SPANS) d->spans[d->span_count++] = span;
          grt_vm_dis_print(d, "%s%u", i ? ", " : "", span);
        }
        if (ok) grt_vm_dis_text(d, ">", 1);
        break;
      }
      case 'S':
        grt_vm_dis_separator(d);
        ok = grt_vm_dis_string(d);
        break;
      default:
        return grt_vm_dis_malformed(d, "op table encoding '%s' has unknown "
                                    "character '%c'", info->operands, c);
    }
    if (!ok) return false;
  }
  *out_end = p;
  return true;
}

// Prints one op's line ("^0x..:" for a block marker). Returns false when it
// is malformed (d->error says why); d->cursor is then meaningless.
static bool grt_vm_dis_op(grt_vm_disassembler_t* d, uint32_t offset) {
  grt_vm_op_t op;
  size_t opcode_size = 0;
  d->error[0] = '\0';
  d->has_callee = false;
  d->spans_known = false;
  d->span_count = 0;
  d->successor_at = 0;
  d->cursor = offset;
  if (offset >= d->length) {
    return grt_vm_dis_malformed(d, "offset 0x%x is past the function end 0x%x",
                                offset, d->length);
  }
  if (!grt_vm_op_decode(d->code + offset, d->length - offset, &op,
                        &opcode_size)) {
    if (d->length - offset >= 2) {
      return grt_vm_dis_malformed(d, "unknown opcode 0x%02x (next byte 0x%02x)",
                                  d->code[offset], d->code[offset + 1]);
    }
    return grt_vm_dis_malformed(d, "unknown opcode 0x%02x", d->code[offset]);
  }
  const grt_vm_op_info_t* info = grt_vm_op_info(op);
  if (op == GRT_VM_OP_BLOCK) {
    d->cursor = offset + (uint32_t)opcode_size;
    grt_vm_dis_print(d, "^0x%04x:\n", offset);
    return true;
  }
  // Results print first but are encoded last. A silent pass over the whole
  // op finds them, records the callee and span counts that type the call
  // lists, and proves every read in range before anything is printed.
  uint32_t operands_at = offset + (uint32_t)opcode_size;
  d->cursor = operands_at;
  const char* results = NULL;
  const char* ignored = NULL;
  d->muted = true;
  bool ok = grt_vm_dis_operands(d, info, info->operands, false, &results);
  uint32_t results_at = d->cursor;
  if (ok && *results == '>') {
    ok = grt_vm_dis_operands(d, info, results + 1, true, &ignored);
  }
  uint32_t end = d->cursor;
  d->muted = false;
  if (!ok) return false;

  grt_vm_dis_print(d, "  0x%04x  ", offset);
  if (*results == '>') {
    d->cursor = results_at;
    d->first = true;
    d->lead = "";
    grt_vm_dis_operands(d, info, results + 1, true, &ignored);
    if (!d->first) grt_vm_dis_text(d, " = ", 3);
  }
  grt_vm_dis_text(d, info->mnemonic, strlen(info->mnemonic));
  d->cursor = operands_at;
  d->first = true;
  d->lead = " ";
  grt_vm_dis_operands(d, info, info->operands, false, &ignored);
  if (d->successor_at) {
    grt_vm_dis_text(d, " -> ", 4);
    d->cursor = d->successor_at;
    grt_vm_dis_branch(d);
  }
  grt_vm_dis_text(d, "\n", 1);
  d->cursor = end;
  return true;
}

static grt_status_t grt_vm_dis_finish_op(grt_vm_disassembler_t* d,
                                         uint32_t offset, bool ok) {
  if (!ok) {
    d->muted = false;
    grt_vm_dis_print(d, "  0x%04x  <malformed: ", offset);
    grt_vm_dis_text(d, d->error, strlen(d->error));
    grt_vm_dis_text(d, ">\n", 2);
    if (d->status) return d->status;
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "disassembly @ 0x%x: %s", offset, d->error);
  }
  return d->status;
}

static void grt_vm_dis_initialize(grt_const_byte_span_t code,
                                  const grt_vm_disassembly_names_t* names,
                                  grt_vm_text_sink_t sink,
                                  grt_vm_disassembler_t* out_d) {
  static const grt_vm_disassembly_names_t no_names;
  memset(out_d, 0, sizeof(*out_d));
  out_d->code = code.data;
  // Offsets are u32 in the encoding; a longer span is read up to 4 GiB.
  out_d->length = code.size > UINT32_MAX ? UINT32_MAX : (uint32_t)code.size;
  out_d->names = names ? names : &no_names;
  out_d->sink = sink;
  out_d->lead = "";
}

grt_status_t grt_vm_disassemble_op(grt_const_byte_span_t code,
                                   uint32_t offset,
                                   const grt_vm_disassembly_names_t* names,
                                   grt_vm_text_sink_t sink,
                                   uint32_t* out_next_offset) {
  grt_vm_disassembler_t d;
  grt_vm_dis_initialize(code, names, sink, &d);
  bool ok = grt_vm_dis_op(&d, offset);
  if (ok && out_next_offset) *out_next_offset = d.cursor;
  return grt_vm_dis_finish_op(&d, offset, ok);
}

grt_status_t grt_vm_disassemble_function(
    grt_const_byte_span_t code, const grt_vm_disassembly_names_t* names,
    grt_vm_text_sink_t sink) {
  grt_vm_disassembler_t d;
  grt_vm_dis_initialize(code, names, sink, &d);
  uint32_t offset = 0;
  while (offset < d.length) {
    bool ok = grt_vm_dis_op(&d, offset);
    GRT_RETURN_IF_ERROR(grt_vm_dis_finish_op(&d, offset, ok));
    offset = d.cursor;
  }
  return grt_ok_status();
}
