// Bytecode verifier: one pass over each function driven by the op table,
// then a check that every recorded branch target is a block marker, then
// the defined-before-use dataflow over the primitive bank. The dataflow
// re-walks the (now well-formed) ops with the same operand walker; a
// register operand reports its use to grt_vm_verifier_use.
#include "vm/bytecode_verifier.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vm/features.h"
#include "vm/op_table.h"

// Upper bounds from the encoding: u16 slot ordinals, 15-bit ref ordinals.
#define GRT_VM_MAX_I32_REGISTERS 65536u
#define GRT_VM_MAX_REF_REGISTERS (GRT_VM_REF_ORDINAL_MASK + 1u)

typedef struct grt_vm_verifier_t {
  const grt_vm_bytecode_layout_t* layout;
  uint32_t ordinal;
  const grt_module_function_t* function;
  const uint8_t* code;  // the function's first byte
  uint32_t length;
  uint32_t offset;       // of the op being checked
  uint32_t cursor;       // next byte to read
  uint8_t* is_block;     // per byte: a block marker starts here
  // Branch targets seen: (op offset, target) pairs for the second pass.
  uint32_t* targets;
  size_t target_count;  // capacity: every target takes >= 6 code bytes
  // The callee of the current call op, for its A and Y lists.
  const grt_vm_signature_t* callee;
  uint16_t span_counts[64];
  uint16_t span_count;
  // Defined-before-use, one bit per primitive slot (set: written on every
  // path from the entry). NULL |defined| means the structural pass runs.
  uint32_t words;          // uint64_t words per bitset
  uint32_t block_count;
  uint32_t* block_offsets; // ascending
  uint64_t* block_in;      // block_count bitsets: defined at each block entry
  uint8_t* block_reached;  // some edge from the entry reaches the block
  uint8_t* block_dirty;    // its entry set shrank since it was last walked
  uint64_t* defined;       // at the op being walked
  uint64_t* edge;          // along the branch edge being walked
  uint64_t* results;       // where writes go: |defined|, or |edge| for remaps
  bool check_reads;        // the final pass: reject undefined reads
  uint32_t remap_target;   // the edge whose remap sources are being read
  bool in_remap;
} grt_vm_verifier_t;

static grt_status_t grt_vm_verifier_fail(const grt_vm_verifier_t* v,
                                         const char* format, ...)
    GRT_PRINTF_LIKE(2, 3);
static grt_status_t grt_vm_verifier_fail(const grt_vm_verifier_t* v,
                                         const char* format, ...) {
  char detail[512];
  va_list args;
  va_start(args, format);
  vsnprintf(detail, sizeof(detail), format, args);
  va_end(args);
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "module '%.*s' function '%.*s' @ 0x%x: %s",
                         GRT_SV_ARG(v->layout->module_name),
                         GRT_SV_ARG(v->function->name), v->offset, detail);
}

static grt_status_t grt_vm_verifier_read(grt_vm_verifier_t* v, uint32_t size,
                                         const char* what, uint64_t* out) {
  if (v->length - v->cursor < size) {
    return grt_vm_verifier_fail(
        v, "%s needs %u bytes at 0x%x but the function ends at 0x%x", what,
        size, v->cursor, v->length);
  }
  uint64_t value = 0;
  for (uint32_t i = 0; i < size; ++i) {
    value |= (uint64_t)v->code[v->cursor + i] << (8 * i);
  }
  v->cursor += size;
  if (out) *out = value;
  return grt_ok_status();
}

static grt_status_t grt_vm_verifier_u16(grt_vm_verifier_t* v, const char* what,
                                        uint16_t* out) {
  uint64_t value = 0;
  GRT_RETURN_IF_ERROR(grt_vm_verifier_read(v, 2, what, &value));
  *out = (uint16_t)value;
  return grt_ok_status();
}

static grt_status_t grt_vm_verifier_u32(grt_vm_verifier_t* v, const char* what,
                                        uint32_t* out) {
  uint64_t value = 0;
  GRT_RETURN_IF_ERROR(grt_vm_verifier_read(v, 4, what, &value));
  *out = (uint32_t)value;
  return grt_ok_status();
}

static inline bool grt_vm_bit_test(const uint64_t* set, uint32_t bit) {
  return (set[bit >> 6] >> (bit & 63)) & 1u;
}

static inline void grt_vm_bit_set(uint64_t* set, uint32_t bit) {
  set[bit >> 6] |= UINT64_C(1) << (bit & 63);
}

// Dataflow: a result defines its slots in v->results; an operand's slots
// must be defined at the op (checked in the final pass, once the entry
// sets are the fixpoint's).
static grt_status_t grt_vm_verifier_use(grt_vm_verifier_t* v,
                                        grt_vm_type_t type, uint32_t slot,
                                        uint32_t slots, bool is_result) {
  if (is_result) {
    for (uint32_t i = 0; i < slots; ++i) grt_vm_bit_set(v->results, slot + i);
    return grt_ok_status();
  }
  if (!v->check_reads) return grt_ok_status();
  for (uint32_t i = 0; i < slots; ++i) {
    if (grt_vm_bit_test(v->defined, slot + i)) continue;
    static const char letters[GRT_VM_TYPE_COUNT] = {'i', 'I', 'f', 'F', 'r'};
    if (v->in_remap) {
      return grt_vm_verifier_fail(
          v, "register %%%c%u is read before it is written on some path "
             "(remap source of the edge to ^0x%04x)",
          letters[type], slot, v->remap_target);
    }
    return grt_vm_verifier_fail(
        v, "register %%%c%u is read before it is written on some path",
        letters[type], slot);
  }
  return grt_ok_status();
}

// Checks an already-read register encoding against |type|.
static grt_status_t grt_vm_verifier_check_register(grt_vm_verifier_t* v,
                                                   grt_vm_type_t type,
                                                   uint16_t encoded,
                                                   bool is_result) {
  if (type == GRT_VM_TYPE_REF) {
    uint32_t ordinal = encoded & GRT_VM_REF_ORDINAL_MASK;
    if (ordinal >= v->function->ref_register_count) {
      return grt_vm_verifier_fail(
          v, "register ref:%u out of range (function has %u ref registers)",
          ordinal, v->function->ref_register_count);
    }
    if (is_result && (encoded & GRT_VM_REF_MOVE_BIT)) {
      return grt_vm_verifier_fail(
          v, "result register ref:%u carries the move bit (only operands may)",
          ordinal);
    }
    return grt_ok_status();
  }
  uint32_t slots = grt_vm_type_slot_count(type);
  if (slots == 2 && (encoded & 1u)) {
    return grt_vm_verifier_fail(
        v, "register %s:%u is not an even-aligned pair",
        grt_vm_type_name(type), encoded);
  }
  if ((uint32_t)encoded + slots > v->function->i32_register_count) {
    return grt_vm_verifier_fail(
        v, "register %s:%u out of range (function has %u i32 registers)",
        grt_vm_type_name(type), encoded, v->function->i32_register_count);
  }
  if (v->defined) {
    return grt_vm_verifier_use(v, type, encoded, slots, is_result);
  }
  return grt_ok_status();
}

static grt_status_t grt_vm_verifier_register(grt_vm_verifier_t* v,
                                             grt_vm_type_t type,
                                             bool is_result) {
  uint16_t encoded = 0;
  GRT_RETURN_IF_ERROR(grt_vm_verifier_u16(v, "register", &encoded));
  return grt_vm_verifier_check_register(v, type, encoded, is_result);
}

static grt_status_t grt_vm_verifier_type_byte(grt_vm_verifier_t* v,
                                              grt_vm_type_t* out_type) {
  uint64_t type = 0;
  GRT_RETURN_IF_ERROR(grt_vm_verifier_read(v, 1, "register type", &type));
  if (type >= GRT_VM_TYPE_COUNT) {
    return grt_vm_verifier_fail(v, "unknown register type %u (expected 0-%d)",
                                (unsigned)type, GRT_VM_TYPE_COUNT - 1);
  }
  *out_type = (grt_vm_type_t)type;
  return grt_ok_status();
}

// The block starting at |offset| (a verified branch target).
static uint32_t grt_vm_verifier_block_index(const grt_vm_verifier_t* v,
                                            uint32_t offset) {
  uint32_t lo = 0, hi = v->block_count;
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (v->block_offsets[mid] <= offset) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// Dataflow: what is defined along an edge into |target| narrows the
// target's entry set; a block whose set shrank (or that is reached for the
// first time) is walked again.
static void grt_vm_verifier_merge(grt_vm_verifier_t* v, uint32_t target,
                                  const uint64_t* along_edge) {
  uint32_t block = grt_vm_verifier_block_index(v, target);
  uint64_t* in = v->block_in + (size_t)block * v->words;
  bool changed = !v->block_reached[block];
  v->block_reached[block] = 1;
  for (uint32_t w = 0; w < v->words; ++w) {
    uint64_t narrowed = in[w] & along_edge[w];
    changed |= narrowed != in[w];
    in[w] = narrowed;
  }
  if (changed) v->block_dirty[block] = 1;
}

static grt_status_t grt_vm_verifier_branch(grt_vm_verifier_t* v) {
  uint32_t target = 0;
  GRT_RETURN_IF_ERROR(grt_vm_verifier_u32(v, "branch target", &target));
  if (!v->defined) {
    v->targets[2 * v->target_count] = v->offset;
    v->targets[2 * v->target_count + 1] = target;
    v->target_count++;
  }
  uint16_t count = 0;
  GRT_RETURN_IF_ERROR(grt_vm_verifier_u16(v, "remap count", &count));
  // Remaps are parallel copies on this edge only: sources are read at the
  // branch, destinations are defined in the edge's own set.
  if (v->defined && count) {
    memcpy(v->edge, v->defined, (size_t)v->words * sizeof(uint64_t));
    v->results = v->edge;
    v->in_remap = true;
    v->remap_target = target;
  }
  for (uint16_t i = 0; i < count; ++i) {
    grt_vm_type_t type;
    GRT_RETURN_IF_ERROR(grt_vm_verifier_type_byte(v, &type));
    GRT_RETURN_IF_ERROR(grt_vm_verifier_register(v, type, false));
    GRT_RETURN_IF_ERROR(grt_vm_verifier_register(v, type, true));
  }
  if (v->defined) {
    v->results = v->defined;
    v->in_remap = false;
    if (!v->check_reads) {
      grt_vm_verifier_merge(v, target, count ? v->edge : v->defined);
    }
  }
  return grt_ok_status();
}

static grt_vm_type_t grt_vm_verifier_cconv_type(char c) {
  return grt_vm_type_from_operand_char(c);
}

// Checks a u16-counted register list typed by the signature run |types|
// (with variadic spans expanded by the V operand's counts).
static grt_status_t grt_vm_verifier_typed_list(grt_vm_verifier_t* v,
                                               grt_string_view_t types,
                                               bool is_result,
                                               const char* what) {
  uint16_t count = 0;
  GRT_RETURN_IF_ERROR(grt_vm_verifier_u16(v, what, &count));
  // Expand the expected types.
  uint32_t expected = 0;
  uint16_t span = 0;
  for (size_t i = 0; i < types.size; ++i) {
    if (types.data[i] == 'C') {
      size_t end = i + 1;
      while (end < types.size && types.data[end] != 'D') ++end;
      expected += (uint32_t)(end - i - 1) * v->span_counts[span++];
      i = end;
    } else {
      ++expected;
    }
  }
  if (count != expected) {
    return grt_vm_verifier_fail(
        v, "%s has %u registers but the signature '%.*s' needs %u", what,
        count, GRT_SV_ARG(v->callee->text), expected);
  }
  span = 0;
  for (size_t i = 0; i < types.size; ++i) {
    if (types.data[i] == 'C') {
      size_t end = i + 1;
      while (end < types.size && types.data[end] != 'D') ++end;
      for (uint16_t r = 0; r < v->span_counts[span]; ++r) {
        for (size_t j = i + 1; j < end; ++j) {
          GRT_RETURN_IF_ERROR(grt_vm_verifier_register(
              v, grt_vm_verifier_cconv_type(types.data[j]), is_result));
        }
      }
      ++span;
      i = end;
    } else {
      GRT_RETURN_IF_ERROR(grt_vm_verifier_register(
          v, grt_vm_verifier_cconv_type(types.data[i]), is_result));
    }
  }
  return grt_ok_status();
}

static grt_status_t grt_vm_verifier_ordinal(grt_vm_verifier_t* v, char c) {
  const grt_vm_bytecode_layout_t* layout = v->layout;
  uint32_t value = 0;
  GRT_RETURN_IF_ERROR(grt_vm_verifier_u32(v, "ordinal", &value));
  switch (c) {
    case 'g':
    case 'd': {
      uint32_t width = c == 'g' ? 4 : 8;
      if (value % width) {
        return grt_vm_verifier_fail(
            v, "global byte offset %u is not %u-byte aligned", value, width);
      }
      if (value > layout->global_bytes || layout->global_bytes - value < width) {
        return grt_vm_verifier_fail(v,
                                    "global byte offset %u (%u bytes) out of "
                                    "range (module has %u global bytes)",
                                    value, width, layout->global_bytes);
      }
      return grt_ok_status();
    }
    case 'G':
      if (value >= layout->global_ref_count) {
        return grt_vm_verifier_fail(
            v, "ref global %u out of range (module has %u ref globals)", value,
            layout->global_ref_count);
      }
      return grt_ok_status();
    case 'R':
      if (value >= layout->rodata_count) {
        return grt_vm_verifier_fail(
            v, "rodata %u out of range (module has %u rodata segments)", value,
            layout->rodata_count);
      }
      return grt_ok_status();
    case 'C':
      if (value & GRT_VM_CALLEE_IMPORT_BIT) {
        value &= ~GRT_VM_CALLEE_IMPORT_BIT;
        if (value >= layout->import_count) {
          return grt_vm_verifier_fail(
              v, "import %u out of range (module has %u imports)", value,
              layout->import_count);
        }
        v->callee = &layout->import_signatures[value];
        if (v->callee->variadic) {
          return grt_vm_verifier_fail(
              v, "call to variadic import %u (signature '%.*s') must use "
                 "call.variadic",
              value, GRT_SV_ARG(v->callee->text));
        }
      } else {
        if (value >= layout->function_count) {
          return grt_vm_verifier_fail(
              v, "function %u out of range (module has %u functions)", value,
              layout->function_count);
        }
        v->callee = &layout->function_signatures[value];
      }
      return grt_ok_status();
    case 'M':
      // Any import; call.variadic's V operand checks the import's spans.
      if (value >= layout->import_count) {
        return grt_vm_verifier_fail(
            v, "import %u out of range (module has %u imports)", value,
            layout->import_count);
      }
      v->callee = &layout->import_signatures[value];
      return grt_ok_status();
  }
  return grt_ok_status();
}

static size_t grt_vm_verifier_span_total(grt_string_view_t types) {
  size_t n = 0;
  for (size_t i = 0; i < types.size; ++i) n += types.data[i] == 'C';
  return n;
}

// Checks the operands of |info| starting at v->cursor.
static grt_status_t grt_vm_verifier_operands(grt_vm_verifier_t* v,
                                             const grt_vm_op_info_t* info) {
  bool is_result = false;
  v->span_count = 0;
  // An X operand list's types, which an X result list must repeat.
  grt_vm_type_t x_types[64];
  uint16_t x_count = 0;
  bool x_seen = false;
  for (const char* p = info->operands; *p; ++p) {
    char c = *p;
    uint16_t count = 0;
    switch (c) {
      case '>':
        is_result = true;
        break;
      case 'i': case 'I': case 'f': case 'F': case 'r':
        GRT_RETURN_IF_ERROR(grt_vm_verifier_register(
            v, grt_vm_type_from_operand_char(c), is_result));
        break;
      case 'k':
        GRT_RETURN_IF_ERROR(grt_vm_verifier_read(v, 4, "immediate", NULL));
        break;
      case 'K':
        GRT_RETURN_IF_ERROR(grt_vm_verifier_read(v, 8, "immediate", NULL));
        break;
      case 'g': case 'd': case 'G': case 'R': case 'C': case 'M':
        GRT_RETURN_IF_ERROR(grt_vm_verifier_ordinal(v, c));
        break;
      case 'B':
        GRT_RETURN_IF_ERROR(grt_vm_verifier_branch(v));
        break;
      case 'T':
        GRT_RETURN_IF_ERROR(grt_vm_verifier_u16(v, "branch table", &count));
        for (uint16_t i = 0; i < count; ++i) {
          GRT_RETURN_IF_ERROR(grt_vm_verifier_branch(v));
        }
        break;
      case 'L': {
        grt_vm_type_t type = grt_vm_type_from_operand_char(*++p);
        GRT_RETURN_IF_ERROR(grt_vm_verifier_u16(v, "register list", &count));
        for (uint16_t i = 0; i < count; ++i) {
          GRT_RETURN_IF_ERROR(grt_vm_verifier_register(v, type, is_result));
        }
        break;
      }
      case 'X':
        // X>X (optimization_barrier): the results are the operands, so the
        // lists match in length and, entry by entry, in type.
        GRT_RETURN_IF_ERROR(grt_vm_verifier_u16(v, "register list", &count));
        if (!is_result && count > sizeof(x_types) / sizeof(x_types[0])) {
          return grt_vm_verifier_fail(v, "%s with %u operands (at most 64)",
                                      info->mnemonic, count);
        }
        if (is_result && x_seen && count != x_count) {
          return grt_vm_verifier_fail(v, "%s has %u operands but %u results",
                                      info->mnemonic, x_count, count);
        }
        for (uint16_t i = 0; i < count; ++i) {
          grt_vm_type_t type;
          GRT_RETURN_IF_ERROR(grt_vm_verifier_type_byte(v, &type));
          if (!is_result) {
            x_types[i] = type;
          } else if (x_seen && type != x_types[i]) {
            return grt_vm_verifier_fail(
                v, "%s result %u is %s but operand %u is %s", info->mnemonic,
                i, grt_vm_type_name(type), i, grt_vm_type_name(x_types[i]));
          }
          GRT_RETURN_IF_ERROR(grt_vm_verifier_register(v, type, is_result));
        }
        if (!is_result) {
          x_seen = true;
          x_count = count;
        }
        break;
      case 'V': {
        if (!v->callee->variadic) {
          return grt_vm_verifier_fail(
              v, "call.variadic to import %u whose signature '%.*s' has no "
                 "variadic span",
              (unsigned)(v->callee - v->layout->import_signatures),
              GRT_SV_ARG(v->callee->text));
        }
        GRT_RETURN_IF_ERROR(grt_vm_verifier_u16(v, "span counts", &count));
        size_t spans = grt_vm_verifier_span_total(v->callee->arguments);
        if (count != spans) {
          return grt_vm_verifier_fail(
              v, "call.variadic gives %u span counts but the signature "
                 "'%.*s' has %zu spans",
              count, GRT_SV_ARG(v->callee->text), spans);
        }
        if (count > sizeof(v->span_counts) / sizeof(v->span_counts[0])) {
          return grt_vm_verifier_fail(v, "%u variadic spans (at most 64)",
                                      count);
        }
        for (uint16_t i = 0; i < count; ++i) {
          GRT_RETURN_IF_ERROR(
              grt_vm_verifier_u16(v, "span count", &v->span_counts[i]));
        }
        v->span_count = count;
        break;
      }
      case 'A':
        GRT_RETURN_IF_ERROR(grt_vm_verifier_typed_list(
            v, v->callee->arguments, false, "argument list"));
        break;
      case 'Y':
        GRT_RETURN_IF_ERROR(grt_vm_verifier_typed_list(v, v->callee->results,
                                                       true, "result list"));
        break;
      case 'W':
        v->callee = &v->layout->function_signatures[v->ordinal];
        GRT_RETURN_IF_ERROR(grt_vm_verifier_typed_list(
            v, v->callee->results, false, "return list"));
        break;
      case 'S':
        GRT_RETURN_IF_ERROR(grt_vm_verifier_u16(v, "string length", &count));
        GRT_RETURN_IF_ERROR(grt_vm_verifier_read(v, 0, "string", NULL));
        if (v->length - v->cursor < count) {
          return grt_vm_verifier_fail(
              v, "string of %u bytes runs past the function end at 0x%x",
              count, v->length);
        }
        v->cursor += count;
        break;
    }
  }
  return grt_ok_status();
}

static bool grt_vm_op_is_terminator(grt_vm_op_t op) {
  return op == GRT_VM_OP_BR || op == GRT_VM_OP_COND_BR ||
         op == GRT_VM_OP_BR_TABLE || op == GRT_VM_OP_RETURN ||
         op == GRT_VM_OP_FAIL ||
         (op >= GRT_VM_OP_CMP_BR_EQ_I32 && op <= GRT_VM_OP_CMP_BR_LTE_I64_U);
}

grt_status_t grt_vm_bytecode_verify_module(
    const grt_vm_bytecode_layout_t* layout) {
  uint64_t unsupported = layout->features & ~(uint64_t)GRT_VM_FEATURES_SUPPORTED;
  if (unsupported) {
    return grt_make_status(
        GRT_STATUS_UNIMPLEMENTED,
        "module '%.*s' needs VM features 0x%llx that this runtime does not "
        "support (supported: 0x%llx)",
        GRT_SV_ARG(layout->module_name), (unsigned long long)unsupported,
        (unsigned long long)GRT_VM_FEATURES_SUPPORTED);
  }
  return grt_ok_status();
}

// Checks the descriptor: register counts and that the arguments fit.
static grt_status_t grt_vm_verifier_descriptor(grt_vm_verifier_t* v) {
  const grt_module_function_t* f = v->function;
  const grt_vm_signature_t* signature =
      &v->layout->function_signatures[v->ordinal];
  if (f->i32_register_count > GRT_VM_MAX_I32_REGISTERS ||
      f->ref_register_count > GRT_VM_MAX_REF_REGISTERS) {
    return grt_vm_verifier_fail(
        v, "register counts %u i32 / %u ref exceed the limits %u / %u",
        f->i32_register_count, f->ref_register_count, GRT_VM_MAX_I32_REGISTERS,
        GRT_VM_MAX_REF_REGISTERS);
  }
  if (signature->variadic) {
    return grt_vm_verifier_fail(
        v, "bytecode functions cannot be variadic (signature '%.*s')",
        GRT_SV_ARG(signature->text));
  }
  uint32_t slots = 0, refs = 0;
  for (size_t i = 0; i < signature->arguments.size; ++i) {
    grt_vm_bytecode_place_argument(signature->arguments.data[i], &slots, &refs);
  }
  if (slots > f->i32_register_count || refs > f->ref_register_count) {
    return grt_vm_verifier_fail(
        v, "signature '%.*s' needs %u i32 and %u ref registers for its "
           "arguments, function has %u and %u",
        GRT_SV_ARG(signature->text), slots, refs, f->i32_register_count,
        f->ref_register_count);
  }
  uint64_t end = (uint64_t)f->bytecode_offset + f->bytecode_length;
  if (end > v->layout->bytecode.size) {
    return grt_vm_verifier_fail(
        v, "bytecode [0x%x, 0x%llx) runs past the module's %zu bytes",
        f->bytecode_offset, (unsigned long long)end, v->layout->bytecode.size);
  }
  if (f->bytecode_length == 0) {
    return grt_vm_verifier_fail(v, "function has no bytecode");
  }
  return grt_ok_status();
}

static grt_status_t grt_vm_verifier_body(grt_vm_verifier_t* v) {
  uint64_t declared = v->layout->features;
  bool after_terminator = true;  // the entry must be a block marker too
  grt_vm_op_t op = GRT_VM_OP_BLOCK;
  while (v->cursor < v->length) {
    v->offset = v->cursor;
    size_t opcode_size = 0;
    if (!grt_vm_op_decode(v->code + v->cursor, v->length - v->cursor, &op,
                          &opcode_size)) {
      if (v->length - v->cursor >= 2) {
        return grt_vm_verifier_fail(v, "unknown opcode 0x%02x (next byte 0x%02x)",
                                    v->code[v->cursor], v->code[v->cursor + 1]);
      }
      return grt_vm_verifier_fail(v, "unknown opcode 0x%02x",
                                  v->code[v->cursor]);
    }
    const grt_vm_op_info_t* info = grt_vm_op_info(op);
    if (info->prefix != GRT_VM_PREFIX_NONE) {
      const grt_vm_prefix_info_t* prefix = grt_vm_prefix_info(info->prefix);
      if (!(declared & prefix->feature)) {
        return grt_vm_verifier_fail(
            v, "%s needs the %s extension, which the module does not declare "
               "(features 0x%llx)",
            info->mnemonic, prefix->name, (unsigned long long)declared);
      }
    }
    if (op == GRT_VM_OP_BLOCK) {
      if (!after_terminator) {
        return grt_vm_verifier_fail(
            v, "block reached by fall-through: the previous op is not a "
               "terminator");
      }
      v->is_block[v->cursor] = 1;
    } else if (after_terminator) {
      return grt_vm_verifier_fail(
          v, "%s follows a terminator (or starts the function) without a "
             "block marker",
          info->mnemonic);
    }
    v->cursor += (uint32_t)opcode_size;
    GRT_RETURN_IF_ERROR(grt_vm_verifier_operands(v, info));
    after_terminator = grt_vm_op_is_terminator(op);
  }
  if (!after_terminator) {
    v->offset = v->length;
    return grt_vm_verifier_fail(
        v, "function ends without a terminator (last op %s)",
        grt_vm_op_info(op)->mnemonic);
  }
  for (size_t i = 0; i < v->target_count; ++i) {
    uint32_t target = v->targets[2 * i + 1];
    v->offset = v->targets[2 * i];
    if (target >= v->length || !v->is_block[target]) {
      return grt_vm_verifier_fail(
          v, "branch target 0x%x is not a block marker", target);
    }
  }
  return grt_ok_status();
}

// Walks the block at |block_offset| from the entry set |in|: every op's
// operands go through the operand walker, which reports register uses.
static grt_status_t grt_vm_verifier_walk_block(grt_vm_verifier_t* v,
                                               uint32_t block_offset,
                                               const uint64_t* in) {
  memcpy(v->defined, in, (size_t)v->words * sizeof(uint64_t));
  v->results = v->defined;
  v->cursor = block_offset;
  grt_vm_op_t op;
  do {
    v->offset = v->cursor;
    size_t opcode_size = 0;
    grt_vm_op_decode(v->code + v->cursor, v->length - v->cursor, &op,
                     &opcode_size);
    v->cursor += (uint32_t)opcode_size;
    GRT_RETURN_IF_ERROR(grt_vm_verifier_operands(v, grt_vm_op_info(op)));
  } while (!grt_vm_op_is_terminator(op));
  return grt_ok_status();
}

// Defined before use, over the primitive slots: a forward must-be-defined
// dataflow. The entry block starts with the argument slots defined, every
// other block with all (the top of the lattice, so blocks no edge reaches
// never reject anything); edges narrow the sets to a fixpoint, walking the
// blocks in order and only those whose set changed. A last walk over the
// reached blocks rejects any read of a slot not defined on every path.
static grt_status_t grt_vm_verifier_definedness(grt_vm_verifier_t* v,
                                                grt_allocator_t allocator) {
  uint32_t slot_count = v->function->i32_register_count;
  if (slot_count == 0) return grt_ok_status();  // nothing can be read
  v->words = (slot_count + 63) / 64;
  for (uint32_t i = 0; i < v->length; ++i) v->block_count += v->is_block[i];
  uint64_t set_bytes = (uint64_t)v->words * sizeof(uint64_t);
  uint64_t total = ((uint64_t)v->block_count + 2) * set_bytes +
                   (uint64_t)v->block_count * (sizeof(uint32_t) + 2);
  // Where size_t is narrower than the total, ask for SIZE_MAX: the
  // allocator reports that it cannot.
  size_t bytes = total > SIZE_MAX ? SIZE_MAX : (size_t)total;
  void* scratch = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(allocator, bytes, &scratch));
  v->block_in = (uint64_t*)scratch;
  v->defined = v->block_in + (size_t)v->block_count * v->words;
  v->edge = v->defined + v->words;
  v->block_offsets = (uint32_t*)(v->edge + v->words);
  v->block_reached = (uint8_t*)(v->block_offsets + v->block_count);
  v->block_dirty = v->block_reached + v->block_count;
  for (uint32_t i = 0, b = 0; i < v->length; ++i) {
    if (v->is_block[i]) v->block_offsets[b++] = i;
  }
  memset(v->block_in, 0xFF, (size_t)v->block_count * set_bytes);
  memset(v->block_reached, 0, v->block_count);
  memset(v->block_dirty, 0, v->block_count);
  // The entry (offset 0, block 0) holds the arguments; edges back to it
  // narrow that further.
  memset(v->block_in, 0, (size_t)set_bytes);
  const grt_vm_signature_t* signature =
      &v->layout->function_signatures[v->ordinal];
  uint32_t slots = 0, refs = 0;
  for (size_t i = 0; i < signature->arguments.size; ++i) {
    char c = signature->arguments.data[i];
    uint32_t at = grt_vm_bytecode_place_argument(c, &slots, &refs);
    if (c == 'r') continue;
    grt_vm_bit_set(v->block_in, at);
    if (c == 'I' || c == 'F') grt_vm_bit_set(v->block_in, at + 1);
  }
  v->block_reached[0] = 1;
  v->block_dirty[0] = 1;

  grt_status_t status = grt_ok_status();
  for (bool again = true; again && grt_status_is_ok(status);) {
    again = false;
    for (uint32_t b = 0; b < v->block_count && grt_status_is_ok(status); ++b) {
      if (!v->block_dirty[b]) continue;
      v->block_dirty[b] = 0;
      again = true;
      status = grt_vm_verifier_walk_block(
          v, v->block_offsets[b], v->block_in + (size_t)b * v->words);
    }
  }
  v->check_reads = true;
  for (uint32_t b = 0; b < v->block_count && grt_status_is_ok(status); ++b) {
    if (!v->block_reached[b]) continue;
    status = grt_vm_verifier_walk_block(v, v->block_offsets[b],
                                        v->block_in + (size_t)b * v->words);
  }
  grt_allocator_free(allocator, scratch);
  v->defined = NULL;
  return status;
}

grt_status_t grt_vm_bytecode_verify_function(
    const grt_vm_bytecode_layout_t* layout, uint32_t function_ordinal,
    grt_allocator_t allocator) {
  grt_vm_verifier_t v;
  memset(&v, 0, sizeof(v));
  v.layout = layout;
  v.ordinal = function_ordinal;
  v.function = &layout->functions[function_ordinal];
  GRT_RETURN_IF_ERROR(grt_vm_verifier_descriptor(&v));
  v.code = layout->bytecode.data + v.function->bytecode_offset;
  v.length = v.function->bytecode_length;
  // A branch operand takes at least 6 bytes, so length/6 + 1 bounds them.
  size_t target_bytes = (v.length / 6 + 1) * 2 * sizeof(uint32_t);
  void* scratch = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, target_bytes + v.length, &scratch));
  v.targets = (uint32_t*)scratch;
  v.is_block = (uint8_t*)scratch + target_bytes;
  grt_status_t status = grt_vm_verifier_body(&v);
  if (grt_status_is_ok(status)) {
    status = grt_vm_verifier_definedness(&v, allocator);
  }
  grt_allocator_free(allocator, scratch);
  return status;
}
