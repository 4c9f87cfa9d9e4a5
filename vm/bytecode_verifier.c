// Bytecode verifier: one walk over each function, driven by the op table,
// checks every op and summarises each basic block for the defined-before-use
// rule: the primitive slots the block reads before it writes them (its
// uses), the slots it writes (its defs), and its edges with their remap
// destinations. Branch targets are then checked against the block markers,
// and the dataflow runs on those summaries and bitsets alone: entry sets
// narrowed to a fixpoint, then each reached block's uses checked against its
// entry set. Only a block that fails is walked again, from its entry set,
// to name the first read that is not defined.
#include "vm/bytecode_verifier.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/endian.h"
#include "vm/features.h"
#include "vm/op_table.h"
#include "vm/variant.h"

// The operand walk runs once per register operand of every op: its small
// steps are inlined into the walk, and the failure paths kept out of it.
// Optimizing for size (-Os), the compiler decides what to inline: forced,
// the steps' copies at every operand kind made the walk 3 KB larger.
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__OPTIMIZE_SIZE__)
#define GRT_VM_VERIFIER_HOT static inline __attribute__((always_inline))
#define GRT_VM_VERIFIER_COLD static __attribute__((cold, noinline))
#elif defined(__GNUC__) || defined(__clang__)
#define GRT_VM_VERIFIER_HOT static inline
#define GRT_VM_VERIFIER_COLD static __attribute__((cold, noinline))
#else
#define GRT_VM_VERIFIER_HOT static inline
#define GRT_VM_VERIFIER_COLD static
#endif

// Upper bounds from the encoding: u16 slot ordinals, 15-bit ref ordinals.
#define GRT_VM_MAX_I32_REGISTERS 65536u
#define GRT_VM_MAX_REF_REGISTERS (GRT_VM_REF_ORDINAL_MASK + 1u)

// Upper bounds on a module's globals, which each module state allocates
// when it is created: the layout's counts are the file's word, so without
// a bound a few bytes of module could ask for gigabytes. An embedder may
// raise or lower them at build time.
#ifndef GRT_VM_MAX_GLOBAL_BYTES
#define GRT_VM_MAX_GLOBAL_BYTES (16u * 1024u * 1024u)
#endif
#ifndef GRT_VM_MAX_GLOBAL_REFS
#define GRT_VM_MAX_GLOBAL_REFS (1024u * 1024u)
#endif

// A basic block's summary. Its slot lists live in the verifier's |slots|:
// defs grow up from the front, uses down from the back.
typedef struct grt_vm_verifier_block_t {
  uint32_t offset;                // of its marker
  uint32_t def_begin, def_end;    // slots it writes (each once)
  uint32_t use_begin, use_end;    // slots it reads before writing (once)
  uint32_t edge_begin, edge_end;  // its outgoing edges
} grt_vm_verifier_block_t;

// One B operand: the branch op, its target (an offset until the targets
// are checked, then a block index) and the slots its remaps define.
typedef struct grt_vm_verifier_edge_t {
  uint32_t offset;
  uint32_t target;
  uint32_t dest_begin, dest_end;  // in |slots|, from the front
} grt_vm_verifier_edge_t;

typedef struct grt_vm_verifier_t {
  const grt_vm_bytecode_layout_t* layout;
  uint32_t ordinal;
  const grt_module_function_t* function;
  const uint8_t* code;  // the function's first byte
  uint32_t length;
  uint32_t offset;  // of the op being checked
  uint32_t cursor;  // next byte to read
  // The callee of the current call op, for its A and Y lists.
  const grt_vm_signature_t* callee;
  uint16_t span_counts[64];
  uint16_t span_count;
  // Block summaries, built by the walk. Capacities: a block is its marker
  // plus at least a 3-byte terminator; a B operand takes >= 6 bytes; every
  // slot entry comes from a register operand byte (a 2-byte register adds
  // at most 2 slots, a 5-byte remap at most 4).
  grt_vm_verifier_block_t* blocks;
  uint32_t block_count;
  grt_vm_verifier_edge_t* edges;
  uint32_t edge_count;
  uint16_t* slots;
  uint32_t front;  // next def or remap destination goes to slots[front]
  uint32_t back;   // the last use went to slots[back]
  // In the current block, one bit per slot: |seen| a slot written or
  // already recorded as a use, |written| a slot written.
  uint64_t* seen;
  uint64_t* written;
  uint32_t words;  // uint64_t words per bitset
  uint32_t slot_count;  // the function's primitive slots
  uint32_t ref_count;   // and ref registers
  // Set while a failing block is walked again from its entry set: the
  // first read of a slot not seen fails.
  bool rewalk;
  bool in_remap;          // reading remap sources (for the message)
  uint32_t remap_target;  // of the edge whose remaps are being read
  char mnemonic[GRT_VM_OP_MNEMONIC_BUFFER];  // grt_vm_op_mnemonic's text
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
#if !GRT_STATUS_MESSAGES  // base/status.h
#define grt_vm_verifier_fail(...)                      \
  GRT_STATUS_KEEP_CODE(GRT_STATUS_INVALID_ARGUMENT, \
                       (grt_vm_verifier_fail)(__VA_ARGS__))
#endif

GRT_VM_VERIFIER_COLD grt_status_t grt_vm_verifier_past_end(
    const grt_vm_verifier_t* v, uint32_t size, const char* what) {
  return grt_vm_verifier_fail(
      v, "%s needs %u bytes at 0x%x but the function ends at 0x%x", what,
      size, v->cursor, v->length);
}

// Bounds-checked operand reads: one compare, then an unaligned load.
GRT_VM_VERIFIER_HOT grt_status_t grt_vm_verifier_skip(grt_vm_verifier_t* v,
                                                      uint32_t size,
                                                      const char* what) {
  if (GRT_UNLIKELY(v->length - v->cursor < size)) {
    return grt_vm_verifier_past_end(v, size, what);
  }
  v->cursor += size;
  return grt_ok_status();
}

GRT_VM_VERIFIER_HOT grt_status_t grt_vm_verifier_u8(grt_vm_verifier_t* v,
                                                    const char* what,
                                                    uint8_t* out) {
  if (GRT_UNLIKELY(v->length == v->cursor)) {
    return grt_vm_verifier_past_end(v, 1, what);
  }
  *out = v->code[v->cursor++];
  return grt_ok_status();
}

GRT_VM_VERIFIER_HOT grt_status_t grt_vm_verifier_u16(grt_vm_verifier_t* v,
                                                     const char* what,
                                                     uint16_t* out) {
  if (GRT_UNLIKELY(v->length - v->cursor < 2)) {
    return grt_vm_verifier_past_end(v, 2, what);
  }
  *out = grt_load_le_u16(v->code + v->cursor);
  v->cursor += 2;
  return grt_ok_status();
}

GRT_VM_VERIFIER_HOT grt_status_t grt_vm_verifier_u32(grt_vm_verifier_t* v,
                                                     const char* what,
                                                     uint32_t* out) {
  if (GRT_UNLIKELY(v->length - v->cursor < 4)) {
    return grt_vm_verifier_past_end(v, 4, what);
  }
  *out = grt_load_le_u32(v->code + v->cursor);
  v->cursor += 4;
  return grt_ok_status();
}

static inline bool grt_vm_bit_test(const uint64_t* set, uint32_t bit) {
  return (set[bit >> 6] >> (bit & 63)) & 1u;
}

static inline void grt_vm_bit_set(uint64_t* set, uint32_t bit) {
  set[bit >> 6] |= UINT64_C(1) << (bit & 63);
}

// The bits of a register's |slots| (1, or an even-aligned 2) in its word.
GRT_VM_VERIFIER_HOT uint64_t grt_vm_slot_mask(uint32_t slot, uint32_t slots) {
  return (slots == 2 ? UINT64_C(3) : UINT64_C(1)) << (slot & 63);
}

// A read of slots the block has not seen: the walk records them as uses;
// the re-walk of a failing block reports the read.
GRT_VM_VERIFIER_COLD grt_status_t grt_vm_verifier_read_unseen(
    grt_vm_verifier_t* v, grt_vm_type_t type, uint32_t slot, uint32_t slots) {
  for (uint32_t i = 0; i < slots; ++i) {
    if (grt_vm_bit_test(v->seen, slot + i)) continue;
    if (v->rewalk) {
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
    grt_vm_bit_set(v->seen, slot + i);
    v->slots[--v->back] = (uint16_t)(slot + i);
  }
  return grt_ok_status();
}

GRT_VM_VERIFIER_HOT grt_status_t grt_vm_verifier_read_slots(
    grt_vm_verifier_t* v, grt_vm_type_t type, uint32_t slot, uint32_t slots) {
  uint64_t mask = grt_vm_slot_mask(slot, slots);
  if (GRT_LIKELY((v->seen[slot >> 6] & mask) == mask)) {
    return grt_ok_status();
  }
  return grt_vm_verifier_read_unseen(v, type, slot, slots);
}

GRT_VM_VERIFIER_HOT void grt_vm_verifier_write_slots(grt_vm_verifier_t* v,
                                                     uint32_t slot,
                                                     uint32_t slots) {
  uint64_t mask = grt_vm_slot_mask(slot, slots);
  uint64_t* written = &v->written[slot >> 6];
  if ((*written & mask) == mask) return;
  for (uint32_t i = 0; i < slots; ++i) {
    uint64_t bit = UINT64_C(1) << ((slot + i) & 63);
    if (*written & bit) continue;
    *written |= bit;
    v->seen[slot >> 6] |= bit;
    v->slots[v->front++] = (uint16_t)(slot + i);
  }
}

// Why |encoded| is not a register of |type| (grt_vm_verifier_register_ok
// said it is not; a ref in range is a result with the move bit).
GRT_VM_VERIFIER_COLD grt_status_t grt_vm_verifier_bad_register(
    const grt_vm_verifier_t* v, grt_vm_type_t type, uint16_t encoded) {
  if (type == GRT_VM_TYPE_REF) {
    uint32_t ordinal = encoded & GRT_VM_REF_ORDINAL_MASK;
    if (ordinal >= v->ref_count) {
      return grt_vm_verifier_fail(
          v, "register ref:%u out of range (function has %u ref registers)",
          ordinal, v->ref_count);
    }
    return grt_vm_verifier_fail(
        v, "result register ref:%u carries the move bit (only operands may)",
        ordinal);
  }
  if (grt_vm_type_slot_count(type) == 2 && (encoded & 1u)) {
    return grt_vm_verifier_fail(
        v, "register %s:%u is not an even-aligned pair",
        grt_vm_type_name(type), encoded);
  }
  return grt_vm_verifier_fail(
      v, "register %s:%u out of range (function has %u i32 registers)",
      grt_vm_type_name(type), encoded, v->slot_count);
}

// Whether |encoded| names a register of |type| in the function's banks: a
// ref in range (no move bit on a result), or primitive slots in range (a
// pair even-aligned).
GRT_VM_VERIFIER_HOT bool grt_vm_verifier_register_ok(const grt_vm_verifier_t* v,
                                                     grt_vm_type_t type,
                                                     uint16_t encoded,
                                                     bool is_result) {
  if (type == GRT_VM_TYPE_REF) {
    return (encoded & GRT_VM_REF_ORDINAL_MASK) < v->ref_count &&
           !(is_result && (encoded & GRT_VM_REF_MOVE_BIT));
  }
  uint32_t slots = grt_vm_type_slot_count(type);
  return !(encoded & (slots - 1)) && (uint32_t)encoded + slots <= v->slot_count;
}

// A register operand (read) or result (write) of an op.
GRT_VM_VERIFIER_HOT grt_status_t grt_vm_verifier_register(grt_vm_verifier_t* v,
                                                          grt_vm_type_t type,
                                                          bool is_result) {
  uint16_t encoded = 0;
  GRT_RETURN_IF_ERROR(grt_vm_verifier_u16(v, "register", &encoded));
  if (GRT_UNLIKELY(!grt_vm_verifier_register_ok(v, type, encoded, is_result))) {
    return grt_vm_verifier_bad_register(v, type, encoded);
  }
  if (type == GRT_VM_TYPE_REF) return grt_ok_status();  // outside the rule
  uint32_t slots = grt_vm_type_slot_count(type);
  if (is_result) {
    grt_vm_verifier_write_slots(v, encoded, slots);
    return grt_ok_status();
  }
  return grt_vm_verifier_read_slots(v, type, encoded, slots);
}

static grt_status_t grt_vm_verifier_type_byte(grt_vm_verifier_t* v,
                                              grt_vm_type_t* out_type) {
  uint8_t type = 0;
  GRT_RETURN_IF_ERROR(grt_vm_verifier_u8(v, "register type", &type));
  if (type >= GRT_VM_TYPE_COUNT) {
    return grt_vm_verifier_fail(v, "unknown register type %u (expected 0-%d)",
                                (unsigned)type, GRT_VM_TYPE_COUNT - 1);
  }
  *out_type = (grt_vm_type_t)type;
  return grt_ok_status();
}

// A B operand: records the edge; remaps are parallel copies on this edge
// only, so their sources are read at the branch (in the block) and their
// destinations are defined on the edge (its own list).
static grt_status_t grt_vm_verifier_branch(grt_vm_verifier_t* v) {
  uint32_t target = 0;
  GRT_RETURN_IF_ERROR(grt_vm_verifier_u32(v, "branch target", &target));
  uint16_t count = 0;
  GRT_RETURN_IF_ERROR(grt_vm_verifier_u16(v, "remap count", &count));
  grt_vm_verifier_edge_t* edge = &v->edges[v->edge_count++];
  edge->offset = v->offset;
  edge->target = target;
  edge->dest_begin = v->front;
  v->in_remap = true;
  v->remap_target = target;
  for (uint16_t i = 0; i < count; ++i) {
    // Initialized for gcc -O3 (aarch64), which cannot see that the type
    // byte is read whenever the call succeeds.
    grt_vm_type_t type = GRT_VM_TYPE_COUNT;
    GRT_RETURN_IF_ERROR(grt_vm_verifier_type_byte(v, &type));
    GRT_RETURN_IF_ERROR(grt_vm_verifier_register(v, type, false));
    uint16_t destination = 0;
    GRT_RETURN_IF_ERROR(grt_vm_verifier_u16(v, "register", &destination));
    if (!grt_vm_verifier_register_ok(v, type, destination, true)) {
      return grt_vm_verifier_bad_register(v, type, destination);
    }
    if (type == GRT_VM_TYPE_REF) continue;
    for (uint32_t s = 0; s < grt_vm_type_slot_count(type); ++s) {
      v->slots[v->front++] = (uint16_t)(destination + s);
    }
  }
  v->in_remap = false;
  edge->dest_end = v->front;
  return grt_ok_status();
}

// The register type a calling-convention or operand character (i I f F r)
// names.
GRT_VM_VERIFIER_HOT grt_vm_type_t grt_vm_verifier_char_type(char c) {
  static const uint8_t types[128] = {
      ['i'] = GRT_VM_TYPE_I32, ['I'] = GRT_VM_TYPE_I64,
      ['f'] = GRT_VM_TYPE_F32, ['F'] = GRT_VM_TYPE_F64,
      ['r'] = GRT_VM_TYPE_REF};
  return (grt_vm_type_t)types[(unsigned char)c & 127u];
}

// Checks a u16-counted register list typed by the signature run |types|
// (with variadic spans expanded by the V operand's counts).
static grt_status_t grt_vm_verifier_typed_list(grt_vm_verifier_t* v,
                                               grt_string_view_t types,
                                               bool spans, bool is_result,
                                               const char* what) {
  uint16_t count = 0;
  GRT_RETURN_IF_ERROR(grt_vm_verifier_u16(v, what, &count));
  // Expand the expected types: without spans, one register per character.
  uint32_t expected = (uint32_t)types.size;
  if (spans) {
    expected = 0;
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
  }
  if (count != expected) {
    return grt_vm_verifier_fail(
        v, "%s has %u registers but the signature '%.*s' needs %u", what,
        count, GRT_SV_ARG(v->callee->text), expected);
  }
  if (!spans) {
    for (size_t i = 0; i < types.size; ++i) {
      GRT_RETURN_IF_ERROR(grt_vm_verifier_register(
          v, grt_vm_verifier_char_type(types.data[i]), is_result));
    }
    return grt_ok_status();
  }
  uint16_t span = 0;
  for (size_t i = 0; i < types.size; ++i) {
    if (types.data[i] == 'C') {
      size_t end = i + 1;
      while (end < types.size && types.data[end] != 'D') ++end;
      for (uint16_t r = 0; r < v->span_counts[span]; ++r) {
        for (size_t j = i + 1; j < end; ++j) {
          GRT_RETURN_IF_ERROR(grt_vm_verifier_register(
              v, grt_vm_verifier_char_type(types.data[j]), is_result));
        }
      }
      ++span;
      i = end;
    } else {
      GRT_RETURN_IF_ERROR(grt_vm_verifier_register(
          v, grt_vm_verifier_char_type(types.data[i]), is_result));
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

// Checks the operands of |op| starting at v->cursor.
static grt_status_t grt_vm_verifier_operands(grt_vm_verifier_t* v,
                                             grt_vm_op_t op) {
  bool is_result = false;
  v->span_count = 0;
  // An X operand list's types, which an X result list must repeat.
  grt_vm_type_t x_types[64];
  uint16_t x_count = 0;
  bool x_seen = false;
  for (const char* p = grt_vm_op_operands(op); *p; ++p) {
    char c = *p;
    uint16_t count = 0;
    switch (c) {
      case '>':
        is_result = true;
        break;
      case 'i': case 'I': case 'f': case 'F': case 'r':
        GRT_RETURN_IF_ERROR(grt_vm_verifier_register(
            v, grt_vm_verifier_char_type(c), is_result));
        break;
      case 'k':
        GRT_RETURN_IF_ERROR(grt_vm_verifier_skip(v, 4, "immediate"));
        break;
      case 'K':
        GRT_RETURN_IF_ERROR(grt_vm_verifier_skip(v, 8, "immediate"));
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
        grt_vm_type_t type = grt_vm_verifier_char_type(*++p);
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
                                      grt_vm_op_mnemonic(op, v->mnemonic),
                                      count);
        }
        if (is_result && x_seen && count != x_count) {
          return grt_vm_verifier_fail(v, "%s has %u operands but %u results",
                                      grt_vm_op_mnemonic(op, v->mnemonic),
                                      x_count, count);
        }
        for (uint16_t i = 0; i < count; ++i) {
          grt_vm_type_t type = GRT_VM_TYPE_COUNT;  // as above
          GRT_RETURN_IF_ERROR(grt_vm_verifier_type_byte(v, &type));
          if (!is_result) {
            x_types[i] = type;
          } else if (x_seen && type != x_types[i]) {
            return grt_vm_verifier_fail(
                v, "%s result %u is %s but operand %u is %s",
                grt_vm_op_mnemonic(op, v->mnemonic),
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
            v, v->callee->arguments, v->callee->variadic, false,
            "argument list"));
        break;
      case 'Y':
        GRT_RETURN_IF_ERROR(grt_vm_verifier_typed_list(
            v, v->callee->results, false, true, "result list"));
        break;
      case 'W':
        v->callee = &v->layout->function_signatures[v->ordinal];
        GRT_RETURN_IF_ERROR(grt_vm_verifier_typed_list(
            v, v->callee->results, false, false, "return list"));
        break;
      case 'S':
        GRT_RETURN_IF_ERROR(grt_vm_verifier_u16(v, "string length", &count));
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

// Ops that end a block: return, fail, and every op with a branch operand
// (br, cond_br, br_table, cmp_br.*), which the operand walk has just
// recorded as edges.
static bool grt_vm_op_is_terminator(grt_vm_op_t op, bool added_edges) {
  return op == GRT_VM_OP_RETURN || op == GRT_VM_OP_FAIL || added_edges;
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
  if (layout->global_bytes > GRT_VM_MAX_GLOBAL_BYTES ||
      layout->global_ref_count > GRT_VM_MAX_GLOBAL_REFS) {
    return grt_make_status(
        GRT_STATUS_RESOURCE_EXHAUSTED,
        "module '%.*s' declares %u bytes of primitive globals and %u ref "
        "globals; this runtime allows at most %u and %u "
        "(GRT_VM_MAX_GLOBAL_BYTES, GRT_VM_MAX_GLOBAL_REFS)",
        GRT_SV_ARG(layout->module_name), layout->global_bytes,
        layout->global_ref_count, (unsigned)GRT_VM_MAX_GLOBAL_BYTES,
        (unsigned)GRT_VM_MAX_GLOBAL_REFS);
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

// Completes the last block's summary. B operands appear only in
// terminators, and after any results a terminator has (call.yieldable's Y
// comes before its B), so a block's defs all precede its edges' remap
// destinations in |slots|.
static void grt_vm_verifier_close_block(grt_vm_verifier_t* v) {
  grt_vm_verifier_block_t* block = &v->blocks[v->block_count - 1];
  block->def_end = v->edge_count > block->edge_begin
                       ? v->edges[block->edge_begin].dest_begin
                       : v->front;
  block->use_begin = v->back;
  block->edge_end = v->edge_count;
}

// Starts the summary of the block whose marker is at v->offset; the
// previous block's is complete (it ended in a terminator).
static void grt_vm_verifier_open_block(grt_vm_verifier_t* v) {
  if (v->block_count) {
    grt_vm_verifier_close_block(v);
    // Clear the previous block's bits: each one belongs to a listed slot.
    grt_vm_verifier_block_t* last = &v->blocks[v->block_count - 1];
    for (uint32_t i = last->def_begin; i < v->front; ++i) {
      v->seen[v->slots[i] >> 6] = 0;
      v->written[v->slots[i] >> 6] = 0;
    }
    for (uint32_t i = v->back; i < last->use_end; ++i) {
      v->seen[v->slots[i] >> 6] = 0;
    }
  }
  grt_vm_verifier_block_t* block = &v->blocks[v->block_count++];
  block->offset = v->offset;
  block->def_begin = v->front;
  block->use_end = v->back;
  block->edge_begin = v->edge_count;
}

// The block whose marker is at |offset|, or block_count if none is.
static uint32_t grt_vm_verifier_block_at(const grt_vm_verifier_t* v,
                                         uint32_t offset) {
  uint32_t lo = 0, hi = v->block_count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (v->blocks[mid].offset < offset) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < v->block_count && v->blocks[lo].offset == offset
             ? lo
             : v->block_count;
}

// The structural walk: every op checked, every block summarised.
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
    if (grt_vm_op_prefix(op) != GRT_VM_PREFIX_NONE) {
      const grt_vm_prefix_info_t* prefix =
          grt_vm_prefix_info(grt_vm_op_prefix(op));
      if (!(declared & prefix->feature)) {
        return grt_vm_verifier_fail(
            v, "%s needs the %s extension, which the module does not declare "
               "(features 0x%llx)",
            grt_vm_op_mnemonic(op, v->mnemonic), prefix->name,
            (unsigned long long)declared);
      }
    }
    if (op == GRT_VM_OP_BLOCK) {
      if (!after_terminator) {
        return grt_vm_verifier_fail(
            v, "block reached by fall-through: the previous op is not a "
               "terminator");
      }
      grt_vm_verifier_open_block(v);
    } else if (after_terminator) {
      return grt_vm_verifier_fail(
          v, "%s follows a terminator (or starts the function) without a "
             "block marker",
          grt_vm_op_mnemonic(op, v->mnemonic));
    }
    v->cursor += (uint32_t)opcode_size;
    uint32_t edges_before = v->edge_count;
    GRT_RETURN_IF_ERROR(grt_vm_verifier_operands(v, op));
    if (op == GRT_VM_OP_LIST_ALLOC) {
      // The element type immediate (k, the first operand) must name a list
      // element type (grt_vm_type_t): 0-4 i32/i64/f32/f64/ref, 5 variant,
      // 6 i8, 7 i16.
      const uint8_t* k = v->code + v->offset + opcode_size;
      uint32_t element = (uint32_t)k[0] | ((uint32_t)k[1] << 8) |
                         ((uint32_t)k[2] << 16) | ((uint32_t)k[3] << 24);
      if (element >= GRT_VM_TYPE_LIST_ELEMENT_COUNT) {
        return grt_vm_verifier_fail(
            v, "list.alloc element type %u is not a list element type "
               "(expected 0-%d: i32, i64, f32, f64, ref, variant, i8, i16)",
            element, GRT_VM_TYPE_LIST_ELEMENT_COUNT - 1);
      }
    }
    after_terminator =
        grt_vm_op_is_terminator(op, v->edge_count != edges_before);
  }
  if (!after_terminator) {
    v->offset = v->length;
    return grt_vm_verifier_fail(
        v, "function ends without a terminator (last op %s)",
        grt_vm_op_mnemonic(op, v->mnemonic));
  }
  grt_vm_verifier_close_block(v);
  // Every target must be a block marker; edges then name their block.
  for (uint32_t i = 0; i < v->edge_count; ++i) {
    grt_vm_verifier_edge_t* edge = &v->edges[i];
    uint32_t block = grt_vm_verifier_block_at(v, edge->target);
    if (block == v->block_count) {
      v->offset = edge->offset;
      return grt_vm_verifier_fail(
          v, "branch target 0x%x is not a block marker", edge->target);
    }
    edge->target = block;
  }
  return grt_ok_status();
}

// Walks block |block| again from its entry set |in| (its summary reads a
// slot |in| lacks) and returns the first read of a slot not defined there.
static grt_status_t grt_vm_verifier_rewalk(grt_vm_verifier_t* v,
                                           uint32_t block,
                                           const uint64_t* in) {
  memcpy(v->seen, in, (size_t)v->words * sizeof(uint64_t));
  memcpy(v->written, in, (size_t)v->words * sizeof(uint64_t));
  // The summaries are spent: the walk may list into them from the start.
  v->front = 0;
  v->back = v->length;
  v->edge_count = 0;
  v->rewalk = true;
  v->cursor = v->blocks[block].offset;
  grt_vm_op_t op;
  do {
    v->offset = v->cursor;
    size_t opcode_size = 0;
    grt_vm_op_decode(v->code + v->cursor, v->length - v->cursor, &op,
                     &opcode_size);
    v->cursor += (uint32_t)opcode_size;
    uint32_t edges_before = v->edge_count;
    GRT_RETURN_IF_ERROR(grt_vm_verifier_operands(v, op));
    if (grt_vm_op_is_terminator(op, v->edge_count != edges_before)) break;
  } while (true);
  v->offset = v->blocks[block].offset;
  return grt_make_status(
      GRT_STATUS_INTERNAL,
      "module '%.*s' function '%.*s' @ 0x%x: the block's summary reads an "
      "undefined slot but walking it found none",
      GRT_SV_ARG(v->layout->module_name), GRT_SV_ARG(v->function->name),
      v->offset);
}

// Defined before use, over the primitive slots: a forward must-be-defined
// dataflow on the block summaries. The entry block starts with the argument
// slots defined, every other block with all (the top of the lattice, so
// blocks no edge reaches never reject anything); an edge carries its
// block's entry set plus the block's defs plus its remap destinations, and
// the sets narrow to a fixpoint (walking the blocks in order, only those
// whose set changed). Then every reached block's uses must lie in its
// entry set.
static grt_status_t grt_vm_verifier_definedness(grt_vm_verifier_t* v,
                                                grt_allocator_t allocator) {
  if (v->function->i32_register_count == 0) {
    return grt_ok_status();  // nothing can be read
  }
  uint32_t words = v->words;
  uint32_t block_count = v->block_count;
  uint64_t set_bytes = (uint64_t)words * sizeof(uint64_t);
  uint64_t total = ((uint64_t)block_count + 2) * set_bytes + 2u * block_count;
  // Where size_t is narrower than the total, ask for SIZE_MAX: the
  // allocator reports that it cannot.
  size_t bytes = total > SIZE_MAX ? SIZE_MAX : (size_t)total;
  void* scratch = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(allocator, bytes, &scratch));
  uint64_t* block_in = (uint64_t*)scratch;  // defined at each block's entry
  uint64_t* out = block_in + (size_t)block_count * words;  // at its exit
  uint64_t* along = out + words;                           // along one edge
  uint8_t* reached = (uint8_t*)(along + words);  // an edge from the entry
  uint8_t* dirty = reached + block_count;        // set shrank since a visit
  memset(block_in, 0xFF, (size_t)block_count * (size_t)set_bytes);
  memset(reached, 0, 2u * (size_t)block_count);
  // The entry (block 0) holds the arguments; edges back to it narrow that.
  memset(block_in, 0, (size_t)set_bytes);
  const grt_vm_signature_t* signature =
      &v->layout->function_signatures[v->ordinal];
  uint32_t slots = 0, refs = 0;
  for (size_t i = 0; i < signature->arguments.size; ++i) {
    char c = signature->arguments.data[i];
    uint32_t at = grt_vm_bytecode_place_argument(c, &slots, &refs);
    if (c == 'r') continue;
    grt_vm_bit_set(block_in, at);
    if (c == 'I' || c == 'F') grt_vm_bit_set(block_in, at + 1);
  }
  reached[0] = 1;
  dirty[0] = 1;

  for (bool again = true; again;) {
    again = false;
    for (uint32_t b = 0; b < block_count; ++b) {
      if (!dirty[b]) continue;
      dirty[b] = 0;
      again = true;
      const grt_vm_verifier_block_t* block = &v->blocks[b];
      memcpy(out, block_in + (size_t)b * words, (size_t)set_bytes);
      for (uint32_t i = block->def_begin; i < block->def_end; ++i) {
        grt_vm_bit_set(out, v->slots[i]);
      }
      for (uint32_t e = block->edge_begin; e < block->edge_end; ++e) {
        const grt_vm_verifier_edge_t* edge = &v->edges[e];
        const uint64_t* defined = out;
        if (edge->dest_begin != edge->dest_end) {
          memcpy(along, out, (size_t)set_bytes);
          for (uint32_t i = edge->dest_begin; i < edge->dest_end; ++i) {
            grt_vm_bit_set(along, v->slots[i]);
          }
          defined = along;
        }
        uint64_t* in = block_in + (size_t)edge->target * words;
        bool changed = !reached[edge->target];
        reached[edge->target] = 1;
        for (uint32_t w = 0; w < words; ++w) {
          uint64_t narrowed = in[w] & defined[w];
          changed |= narrowed != in[w];
          in[w] = narrowed;
        }
        if (changed) dirty[edge->target] = 1;
      }
    }
  }
  grt_status_t status = grt_ok_status();
  for (uint32_t b = 0; b < block_count && grt_status_is_ok(status); ++b) {
    if (!reached[b]) continue;
    const grt_vm_verifier_block_t* block = &v->blocks[b];
    const uint64_t* in = block_in + (size_t)b * words;
    for (uint32_t i = block->use_begin; i < block->use_end; ++i) {
      if (!grt_vm_bit_test(in, v->slots[i])) {
        status = grt_vm_verifier_rewalk(v, b, in);
        break;
      }
    }
  }
  grt_allocator_free(allocator, scratch);
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
  v.slot_count = v.function->i32_register_count;
  v.ref_count = v.function->ref_register_count;
  v.words = (v.slot_count + 63) / 64;
  // One scratch: the current block's two bitsets, then the summaries at
  // their capacities (see grt_vm_verifier_t).
  size_t set_bytes = (size_t)v.words * sizeof(uint64_t);
  size_t block_capacity = v.length / 4 + 1;
  size_t edge_capacity = v.length / 6 + 1;
  size_t bytes = 2 * set_bytes +
                 block_capacity * sizeof(grt_vm_verifier_block_t) +
                 edge_capacity * sizeof(grt_vm_verifier_edge_t) +
                 (size_t)v.length * sizeof(uint16_t);
  void* scratch = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(allocator, bytes, &scratch));
  memset(scratch, 0, 2 * set_bytes);
  v.seen = (uint64_t*)scratch;
  v.written = v.seen + v.words;
  v.blocks = (grt_vm_verifier_block_t*)(v.written + v.words);
  v.edges = (grt_vm_verifier_edge_t*)(v.blocks + block_capacity);
  v.slots = (uint16_t*)(v.edges + edge_capacity);
  v.back = v.length;
  grt_status_t status = grt_vm_verifier_body(&v);
  if (grt_status_is_ok(status)) {
    status = grt_vm_verifier_definedness(&v, allocator);
  }
  grt_allocator_free(allocator, scratch);
  return status;
}
