// Bytecode emitter: encodes ops per the op table into one growing blob.
#include "vm/bytecode_emitter.h"

#include <string.h>

#define GRT_VM_LABEL_UNPLACED UINT32_MAX

typedef struct grt_vm_emitter_fixup_t {
  uint32_t position;  // blob offset of the u32 to patch
  grt_vm_label_t label;
} grt_vm_emitter_fixup_t;

typedef struct grt_vm_emitter_location_t {
  uint32_t function_index;
  uint32_t bytecode_offset;
  uint32_t text_offset;  // into the text pool
  uint32_t text_length;
} grt_vm_emitter_location_t;

// A growable array of |element_size| elements.
typedef struct grt_vm_emitter_array_t {
  void* data;
  size_t count;
  size_t capacity;
} grt_vm_emitter_array_t;

struct grt_vm_bytecode_emitter_t {
  grt_allocator_t allocator;
  grt_vm_emitter_array_t code;       // uint8_t
  grt_vm_emitter_array_t functions;  // grt_vm_bytecode_function_t
  grt_vm_emitter_array_t labels;     // uint32_t offset in function or unplaced
  grt_vm_emitter_array_t fixups;     // grt_vm_emitter_fixup_t
  grt_vm_emitter_array_t locations;  // grt_vm_emitter_location_t
  grt_vm_emitter_array_t text;       // char: location strings
  bool in_function;
  bool finished;
  uint32_t function_start;
};

// Makes room for |additional| more elements and returns a pointer to the
// first of them; the caller bumps count.
static grt_status_t grt_vm_emitter_array_reserve(
    grt_allocator_t allocator, grt_vm_emitter_array_t* array,
    size_t element_size, size_t additional, void** out_slot) {
  if (array->count + additional > array->capacity) {
    size_t capacity = array->capacity ? array->capacity * 2 : 64;
    while (capacity < array->count + additional) capacity *= 2;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(
        allocator, array->capacity * element_size, capacity * element_size,
        &array->data));
    array->capacity = capacity;
  }
  *out_slot = (char*)array->data + array->count * element_size;
  return grt_ok_status();
}

grt_status_t grt_vm_bytecode_emitter_create(
    grt_allocator_t allocator, grt_vm_bytecode_emitter_t** out_emitter) {
  grt_vm_bytecode_emitter_t* emitter = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, sizeof(*emitter), (void**)&emitter));
  emitter->allocator = allocator;
  *out_emitter = emitter;
  return grt_ok_status();
}

void grt_vm_bytecode_emitter_destroy(grt_vm_bytecode_emitter_t* emitter) {
  if (!emitter) return;
  grt_allocator_t allocator = emitter->allocator;
  grt_allocator_free(allocator, emitter->code.data);
  grt_allocator_free(allocator, emitter->functions.data);
  grt_allocator_free(allocator, emitter->labels.data);
  grt_allocator_free(allocator, emitter->fixups.data);
  grt_allocator_free(allocator, emitter->locations.data);
  grt_allocator_free(allocator, emitter->text.data);
  grt_allocator_free(allocator, emitter);
}

static grt_status_t grt_vm_emitter_check_open(
    const grt_vm_bytecode_emitter_t* emitter, const char* what) {
  if (!emitter->in_function) {
    return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                           "%s: expected an open function (call "
                           "grt_vm_bytecode_emitter_begin_function first)",
                           what);
  }
  return grt_ok_status();
}

grt_status_t grt_vm_bytecode_emitter_begin_function(
    grt_vm_bytecode_emitter_t* emitter) {
  if (emitter->in_function || emitter->finished) {
    return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                           "begin_function: expected no open function and an "
                           "unfinished emitter");
  }
  emitter->in_function = true;
  emitter->function_start = (uint32_t)emitter->code.count;
  emitter->labels.count = 0;
  emitter->fixups.count = 0;
  return grt_ok_status();
}

grt_status_t grt_vm_bytecode_emitter_end_function(
    grt_vm_bytecode_emitter_t* emitter, uint32_t i32_register_count,
    uint32_t ref_register_count, uint32_t* out_function_index) {
  GRT_RETURN_IF_ERROR(grt_vm_emitter_check_open(emitter, "end_function"));
  uint32_t index = (uint32_t)emitter->functions.count;
  const uint32_t* labels = emitter->labels.data;
  const grt_vm_emitter_fixup_t* fixups = emitter->fixups.data;
  for (size_t i = 0; i < emitter->fixups.count; ++i) {
    uint32_t offset = labels[fixups[i].label];
    if (offset == GRT_VM_LABEL_UNPLACED) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "function %u: branch to label %u, which was "
                             "never placed",
                             index, fixups[i].label);
    }
    uint8_t* p = (uint8_t*)emitter->code.data + fixups[i].position;
    for (int b = 0; b < 4; ++b) p[b] = (uint8_t)(offset >> (8 * b));
  }
  grt_vm_bytecode_function_t* function = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_emitter_array_reserve(
      emitter->allocator, &emitter->functions, sizeof(*function), 1,
      (void**)&function));
  function->bytecode_offset = emitter->function_start;
  function->bytecode_length =
      (uint32_t)emitter->code.count - emitter->function_start;
  function->i32_register_count = i32_register_count;
  function->ref_register_count = ref_register_count;
  emitter->functions.count++;
  emitter->in_function = false;
  if (out_function_index) *out_function_index = index;
  return grt_ok_status();
}

grt_status_t grt_vm_bytecode_emitter_create_label(
    grt_vm_bytecode_emitter_t* emitter, grt_vm_label_t* out_label) {
  GRT_RETURN_IF_ERROR(grt_vm_emitter_check_open(emitter, "create_label"));
  uint32_t* slot = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_emitter_array_reserve(
      emitter->allocator, &emitter->labels, sizeof(*slot), 1, (void**)&slot));
  *slot = GRT_VM_LABEL_UNPLACED;
  *out_label = (grt_vm_label_t)emitter->labels.count++;
  return grt_ok_status();
}

static grt_status_t grt_vm_emitter_check_label(
    const grt_vm_bytecode_emitter_t* emitter, grt_vm_label_t label) {
  if (label >= emitter->labels.count) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "label %u does not exist (function has %zu labels)",
                           label, emitter->labels.count);
  }
  return grt_ok_status();
}

grt_status_t grt_vm_bytecode_emitter_place_label(
    grt_vm_bytecode_emitter_t* emitter, grt_vm_label_t label) {
  GRT_RETURN_IF_ERROR(grt_vm_emitter_check_open(emitter, "place_label"));
  GRT_RETURN_IF_ERROR(grt_vm_emitter_check_label(emitter, label));
  uint32_t* labels = emitter->labels.data;
  if (labels[label] != GRT_VM_LABEL_UNPLACED) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "label %u placed twice (first at offset 0x%x)",
                           label, labels[label]);
  }
  labels[label] = grt_vm_bytecode_emitter_offset(emitter);
  return grt_vm_bytecode_emitter_emit(emitter, GRT_VM_OP_BLOCK, NULL, 0);
}

uint32_t grt_vm_bytecode_emitter_offset(
    const grt_vm_bytecode_emitter_t* emitter) {
  return (uint32_t)emitter->code.count - emitter->function_start;
}

grt_status_t grt_vm_bytecode_emitter_set_location(
    grt_vm_bytecode_emitter_t* emitter, grt_string_view_t location) {
  GRT_RETURN_IF_ERROR(grt_vm_emitter_check_open(emitter, "set_location"));
  uint32_t function_index = (uint32_t)emitter->functions.count;
  uint32_t offset = grt_vm_bytecode_emitter_offset(emitter);
  grt_vm_emitter_location_t* entry = NULL;
  grt_vm_emitter_location_t* all = emitter->locations.data;
  size_t n = emitter->locations.count;
  // A later location for the same op wins, so lookups stay unambiguous.
  if (n > 0 && all[n - 1].function_index == function_index &&
      all[n - 1].bytecode_offset == offset) {
    entry = &all[n - 1];
  } else {
    GRT_RETURN_IF_ERROR(grt_vm_emitter_array_reserve(
        emitter->allocator, &emitter->locations, sizeof(*entry), 1,
        (void**)&entry));
    emitter->locations.count++;
  }
  char* text = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_emitter_array_reserve(
      emitter->allocator, &emitter->text, 1, location.size, (void**)&text));
  if (location.size) memcpy(text, location.data, location.size);
  entry->function_index = function_index;
  entry->bytecode_offset = offset;
  entry->text_offset = (uint32_t)emitter->text.count;
  entry->text_length = (uint32_t)location.size;
  emitter->text.count += location.size;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Encoding
//===----------------------------------------------------------------------===//

// Byte writer over the code array; the first failure sticks.
typedef struct grt_vm_emitter_writer_t {
  grt_vm_bytecode_emitter_t* emitter;
  grt_status_t status;
} grt_vm_emitter_writer_t;

static void grt_vm_emitter_put(grt_vm_emitter_writer_t* w, uint64_t value,
                               int bytes) {
  if (w->status) return;
  uint8_t* p = NULL;
  w->status = grt_vm_emitter_array_reserve(w->emitter->allocator,
                                           &w->emitter->code, 1, (size_t)bytes,
                                           (void**)&p);
  if (w->status) return;
  for (int i = 0; i < bytes; ++i) p[i] = (uint8_t)(value >> (8 * i));
  w->emitter->code.count += (size_t)bytes;
}

static grt_status_t grt_vm_emitter_operand_error(const grt_vm_op_info_t* info,
                                                 size_t index,
                                                 const char* problem) {
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "%s operand %zu (encoding '%s'): %s", info->mnemonic,
                         index, info->operands, problem);
}

// Checks a register against the type |expected| (GRT_VM_TYPE_COUNT: any) and
// returns its encoded u16.
static grt_status_t grt_vm_emitter_encode_register(
    const grt_vm_op_info_t* info, size_t index, const grt_vm_register_t* reg,
    grt_vm_type_t expected, bool is_result, uint16_t* out_encoded) {
  if (expected != GRT_VM_TYPE_COUNT && reg->type != expected) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s operand %zu: expected a %s register, got %s",
                           info->mnemonic, index, grt_vm_type_name(expected),
                           grt_vm_type_name(reg->type));
  }
  if (reg->type >= GRT_VM_TYPE_COUNT) {
    return grt_vm_emitter_operand_error(info, index, "unknown register type");
  }
  if (grt_vm_type_slot_count(reg->type) == 2 && (reg->ordinal & 1u)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s operand %zu: %s register pair must start at an "
                           "even slot, got %u",
                           info->mnemonic, index, grt_vm_type_name(reg->type),
                           reg->ordinal);
  }
  if (reg->type == GRT_VM_TYPE_REF) {
    if (reg->ordinal > GRT_VM_REF_ORDINAL_MASK) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%s operand %zu: ref register %u exceeds the "
                             "maximum %u",
                             info->mnemonic, index, reg->ordinal,
                             GRT_VM_REF_ORDINAL_MASK);
    }
    if (reg->move && is_result) {
      return grt_vm_emitter_operand_error(info, index,
                                          "a result cannot carry the move bit");
    }
    *out_encoded =
        (uint16_t)(reg->ordinal | (reg->move ? GRT_VM_REF_MOVE_BIT : 0u));
  } else {
    if (reg->move) {
      return grt_vm_emitter_operand_error(
          info, index, "only ref registers carry the move bit");
    }
    *out_encoded = reg->ordinal;
  }
  return grt_ok_status();
}

static grt_status_t grt_vm_emitter_put_branch(grt_vm_emitter_writer_t* w,
                                              const grt_vm_op_info_t* info,
                                              size_t index,
                                              const grt_vm_branch_t* branch) {
  grt_vm_bytecode_emitter_t* emitter = w->emitter;
  GRT_RETURN_IF_ERROR(grt_vm_emitter_check_label(emitter, branch->label));
  grt_vm_emitter_fixup_t* fixup = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_emitter_array_reserve(
      emitter->allocator, &emitter->fixups, sizeof(*fixup), 1,
      (void**)&fixup));
  fixup->position = (uint32_t)emitter->code.count;
  fixup->label = branch->label;
  emitter->fixups.count++;
  grt_vm_emitter_put(w, 0, 4);
  grt_vm_emitter_put(w, branch->remap_count, 2);
  for (uint16_t i = 0; i < branch->remap_count; ++i) {
    const grt_vm_remap_t* remap = &branch->remaps[i];
    uint16_t source = 0, destination = 0;
    grt_vm_register_t dst = {remap->source.type, remap->destination, false};
    GRT_RETURN_IF_ERROR(grt_vm_emitter_encode_register(
        info, index, &remap->source, GRT_VM_TYPE_COUNT, false, &source));
    GRT_RETURN_IF_ERROR(grt_vm_emitter_encode_register(
        info, index, &dst, GRT_VM_TYPE_COUNT, true, &destination));
    grt_vm_emitter_put(w, remap->source.type, 1);
    grt_vm_emitter_put(w, source, 2);
    grt_vm_emitter_put(w, destination, 2);
  }
  return w->status;
}

// Encodes one operand described by encoding character(s) at *inout_cursor.
static grt_status_t grt_vm_emitter_put_operand(grt_vm_emitter_writer_t* w,
                                               const grt_vm_op_info_t* info,
                                               const char** inout_cursor,
                                               bool is_result, size_t index,
                                               const grt_vm_operand_t* operand) {
  char c = *(*inout_cursor)++;
  grt_vm_operand_kind_t expected_kind;
  switch (c) {
    case 'i': case 'I': case 'f': case 'F': case 'r':
      expected_kind = GRT_VM_OPERAND_REGISTER;
      break;
    case 'k': case 'K':
      expected_kind = GRT_VM_OPERAND_IMMEDIATE;
      break;
    case 'g': case 'd': case 'G': case 'R': case 'C': case 'M':
      expected_kind = GRT_VM_OPERAND_ORDINAL;
      break;
    case 'B': expected_kind = GRT_VM_OPERAND_BRANCH; break;
    case 'T': expected_kind = GRT_VM_OPERAND_BRANCH_TABLE; break;
    case 'L': case 'A': case 'Y': case 'W': case 'X':
      expected_kind = GRT_VM_OPERAND_REGISTER_LIST;
      break;
    case 'V': expected_kind = GRT_VM_OPERAND_SPAN_COUNTS; break;
    case 'S': expected_kind = GRT_VM_OPERAND_STRING; break;
    default:
      return grt_vm_emitter_operand_error(info, index,
                                          "unknown encoding character");
  }
  static const char* const kind_names[] = {
      "a register", "an immediate", "an ordinal", "a branch target",
      "a branch table", "a register list", "variadic span counts", "a string"};
  if (operand->kind != expected_kind) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s operand %zu (encoding '%c'): expected %s, got %s",
                           info->mnemonic, index, c, kind_names[expected_kind],
                           kind_names[operand->kind]);
  }
  uint16_t encoded = 0;
  switch (c) {
    case 'i': case 'I': case 'f': case 'F': case 'r':
      GRT_RETURN_IF_ERROR(grt_vm_emitter_encode_register(
          info, index, &operand->reg, grt_vm_type_from_operand_char(c),
          is_result, &encoded));
      grt_vm_emitter_put(w, encoded, 2);
      break;
    case 'k': grt_vm_emitter_put(w, operand->immediate, 4); break;
    case 'K': grt_vm_emitter_put(w, operand->immediate, 8); break;
    case 'g': case 'd': case 'G': case 'R': case 'C': case 'M':
      grt_vm_emitter_put(w, operand->ordinal, 4);
      break;
    case 'B':
      return grt_vm_emitter_put_branch(w, info, index, &operand->branch);
    case 'T':
      grt_vm_emitter_put(w, operand->table.count, 2);
      for (uint16_t i = 0; i < operand->table.count; ++i) {
        GRT_RETURN_IF_ERROR(
            grt_vm_emitter_put_branch(w, info, index, &operand->table.targets[i]));
      }
      break;
    case 'L': case 'A': case 'Y': case 'W': case 'X': {
      grt_vm_type_t element = GRT_VM_TYPE_COUNT;
      if (c == 'L') element = grt_vm_type_from_operand_char(*(*inout_cursor)++);
      grt_vm_emitter_put(w, operand->list.count, 2);
      for (uint16_t i = 0; i < operand->list.count; ++i) {
        GRT_RETURN_IF_ERROR(grt_vm_emitter_encode_register(
            info, index, &operand->list.registers[i], element, is_result,
            &encoded));
        if (c == 'X') grt_vm_emitter_put(w, operand->list.registers[i].type, 1);
        grt_vm_emitter_put(w, encoded, 2);
      }
      break;
    }
    case 'V':
      grt_vm_emitter_put(w, operand->spans.count, 2);
      for (uint16_t i = 0; i < operand->spans.count; ++i) {
        grt_vm_emitter_put(w, operand->spans.values[i], 2);
      }
      break;
    case 'S':
      if (operand->string.size > UINT16_MAX) {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "%s operand %zu: string of %zu bytes exceeds "
                               "the maximum of 65535",
                               info->mnemonic, index, operand->string.size);
      }
      grt_vm_emitter_put(w, operand->string.size, 2);
      for (size_t i = 0; i < operand->string.size && !w->status; ++i) {
        grt_vm_emitter_put(w, (uint8_t)operand->string.data[i], 1);
      }
      break;
  }
  return w->status;
}

grt_status_t grt_vm_bytecode_emitter_emit(grt_vm_bytecode_emitter_t* emitter,
                                          grt_vm_op_t op,
                                          const grt_vm_operand_t* operands,
                                          size_t operand_count) {
  GRT_RETURN_IF_ERROR(grt_vm_emitter_check_open(emitter, "emit"));
  if ((unsigned)op >= GRT_VM_OP_COUNT) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "emit: unknown op %d (the table has %d ops)",
                           (int)op, GRT_VM_OP_COUNT);
  }
  const grt_vm_op_info_t* info = grt_vm_op_info(op);
  // Count the operands the encoding wants ('L' takes its type character).
  size_t expected = 0;
  for (const char* p = info->operands; *p; ++p) {
    if (*p == '>') continue;
    if (*p == 'L') ++p;
    ++expected;
  }
  if (operand_count != expected) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: expected %zu operands (encoding '%s'), got %zu",
                           info->mnemonic, expected, info->operands,
                           operand_count);
  }
  size_t start = emitter->code.count;
  size_t fixup_start = emitter->fixups.count;
  grt_vm_emitter_writer_t w = {emitter, grt_ok_status()};
  if (info->prefix != GRT_VM_PREFIX_NONE) {
    grt_vm_emitter_put(&w, grt_vm_prefix_info(info->prefix)->byte, 1);
  }
  grt_vm_emitter_put(&w, info->byte, 1);
  const char* cursor = info->operands;
  bool is_result = false;
  grt_status_t status = w.status;
  for (size_t i = 0; i < operand_count && !status; ++i) {
    if (*cursor == '>') {
      is_result = true;
      ++cursor;
    }
    status = grt_vm_emitter_put_operand(&w, info, &cursor, is_result, i,
                                        &operands[i]);
  }
  if (status) {
    // Leave the blob as it was so the caller may report and continue.
    emitter->code.count = start;
    emitter->fixups.count = fixup_start;
  }
  return status;
}

grt_status_t grt_vm_bytecode_emitter_finish(
    grt_vm_bytecode_emitter_t* emitter, grt_const_byte_span_t* out_bytecode) {
  if (emitter->in_function) {
    return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                           "finish: function %zu is still open (call "
                           "end_function first)",
                           emitter->functions.count);
  }
  emitter->finished = true;
  *out_bytecode =
      grt_make_const_byte_span(emitter->code.data, emitter->code.count);
  return grt_ok_status();
}

uint32_t grt_vm_bytecode_emitter_function_count(
    const grt_vm_bytecode_emitter_t* emitter) {
  return (uint32_t)emitter->functions.count;
}

grt_vm_bytecode_function_t grt_vm_bytecode_emitter_function(
    const grt_vm_bytecode_emitter_t* emitter, uint32_t index) {
  return ((const grt_vm_bytecode_function_t*)emitter->functions.data)[index];
}

uint32_t grt_vm_bytecode_emitter_location_count(
    const grt_vm_bytecode_emitter_t* emitter) {
  return (uint32_t)emitter->locations.count;
}

grt_vm_bytecode_location_t grt_vm_bytecode_emitter_location(
    const grt_vm_bytecode_emitter_t* emitter, uint32_t index) {
  const grt_vm_emitter_location_t* entry =
      &((const grt_vm_emitter_location_t*)emitter->locations.data)[index];
  grt_vm_bytecode_location_t location = {
      entry->function_index, entry->bytecode_offset,
      grt_make_string_view((const char*)emitter->text.data + entry->text_offset,
                           entry->text_length)};
  return location;
}
