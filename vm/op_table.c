// Op table lookups: info by op, op by mnemonic, op by encoded bytes.
#include "vm/op_table.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

// GRT_VM_OP_NAMES (CMake option of the same name, default 1): 0 leaves the
// op names, mnemonics and meanings out of the binary. Each op's mnemonic is
// then its encoding ("opcode 0xE1 0x66": prefix byte, then opcode byte), so
// messages still say which op they are about.
#ifndef GRT_VM_OP_NAMES
#define GRT_VM_OP_NAMES 1
#endif

// The operand strings as one block of characters, each with its NUL (the
// layout of a struct of char arrays, one per op, which has no padding), and
// each op's offset into it: 2 bytes per op where a pointer takes 8 (and, in
// a position-independent program, a relocation).
typedef struct grt_vm_op_operand_chars_t {
#define GRT_VM_OP_OPERAND_FIELD(name, mnemonic, prefix, byte, operands, \
                                meaning)                                 \
  char name[sizeof(operands)];
  GRT_VM_OP_TABLE(GRT_VM_OP_OPERAND_FIELD)
#undef GRT_VM_OP_OPERAND_FIELD
} grt_vm_op_operand_chars_t;
_Static_assert(sizeof(grt_vm_op_operand_chars_t) <= UINT16_MAX,
               "operand string offsets are 16-bit");

// The literal's own final NUL does not fit the array and is left out.
const char grt_vm_op_operand_text[sizeof(grt_vm_op_operand_chars_t)] =
#define GRT_VM_OP_OPERAND_TEXT(name, mnemonic, prefix, byte, operands, \
                               meaning)                                 \
  operands "\0"
    GRT_VM_OP_TABLE(GRT_VM_OP_OPERAND_TEXT);
#undef GRT_VM_OP_OPERAND_TEXT
#define GRT_VM_OP_OPERANDS_OF(name) \
  (grt_vm_op_operand_text + offsetof(grt_vm_op_operand_chars_t, name))

// The info table's operand strings are those characters too, and so are,
// without op names, its mnemonics: no string literal of the table shares
// the object's merged string section, which a program that links only the
// compact tables would otherwise keep whole.
#if GRT_VM_OP_NAMES
#define GRT_VM_OP_INFO(name, mnemonic, prefix, byte, operands, meaning) \
  {#name, mnemonic, GRT_VM_PREFIX_##prefix, byte,                       \
   GRT_VM_OP_OPERANDS_OF(name), meaning},
#else
#define GRT_VM_OP_CODE_NONE "opcode "
#define GRT_VM_OP_CODE_F32 "opcode 0xE0 "
#define GRT_VM_OP_CODE_F64 "opcode 0xE1 "
typedef struct grt_vm_op_code_chars_t {
#define GRT_VM_OP_CODE_FIELD(name, mnemonic, prefix, byte, operands, meaning) \
  char name[sizeof(GRT_VM_OP_CODE_##prefix #byte)];
  GRT_VM_OP_TABLE(GRT_VM_OP_CODE_FIELD)
#undef GRT_VM_OP_CODE_FIELD
} grt_vm_op_code_chars_t;
static const grt_vm_op_code_chars_t grt_vm_op_code_chars = {
#define GRT_VM_OP_CODE_CHARS(name, mnemonic, prefix, byte, operands, meaning) \
  GRT_VM_OP_CODE_##prefix #byte,
    GRT_VM_OP_TABLE(GRT_VM_OP_CODE_CHARS)
#undef GRT_VM_OP_CODE_CHARS
};
static const char grt_vm_op_no_name[1] = {0};
#define GRT_VM_OP_INFO(name, mnemonic, prefix, byte, operands, meaning) \
  {grt_vm_op_no_name, grt_vm_op_code_chars.name, GRT_VM_PREFIX_##prefix, \
   byte, GRT_VM_OP_OPERANDS_OF(name), grt_vm_op_no_name},
#endif
static const grt_vm_op_info_t grt_vm_op_infos[GRT_VM_OP_COUNT] = {
    GRT_VM_OP_TABLE(GRT_VM_OP_INFO)
};
#undef GRT_VM_OP_INFO

static const grt_vm_prefix_info_t grt_vm_prefix_infos[GRT_VM_PREFIX_COUNT] = {
    {"none", 0x00, 0},
#define GRT_VM_PREFIX_INFO(name, str, byte, feature) {str, byte, feature},
    GRT_VM_PREFIX_LIST(GRT_VM_PREFIX_INFO)
#undef GRT_VM_PREFIX_INFO
};

// One flat decode table indexed by prefix * 256 + byte, holding op + 1 (0 =
// no op). Designated initializers make a duplicated opcode byte an
// initializer-override warning, i.e. a build error under GRT_WERROR.
static const uint16_t grt_vm_op_decode_table[GRT_VM_PREFIX_COUNT * 256] = {
#define GRT_VM_OP_DECODE(name, mnemonic, prefix, byte, operands, meaning) \
  [GRT_VM_PREFIX_##prefix * 256 + byte] = GRT_VM_OP_##name + 1,
    GRT_VM_OP_TABLE(GRT_VM_OP_DECODE)
#undef GRT_VM_OP_DECODE
};

const grt_vm_op_info_t* grt_vm_op_info(grt_vm_op_t op) {
  return &grt_vm_op_infos[op];
}

const uint16_t grt_vm_op_operand_offsets[GRT_VM_OP_COUNT] = {
#define GRT_VM_OP_OPERAND_OFFSET(name, mnemonic, prefix, byte, operands, \
                                 meaning)                                \
  offsetof(grt_vm_op_operand_chars_t, name),
    GRT_VM_OP_TABLE(GRT_VM_OP_OPERAND_OFFSET)
#undef GRT_VM_OP_OPERAND_OFFSET
};

const uint16_t grt_vm_op_codes[GRT_VM_OP_COUNT] = {
#define GRT_VM_OP_CODE(name, mnemonic, prefix, byte, operands, meaning) \
  GRT_VM_PREFIX_##prefix * 256 + byte,
    GRT_VM_OP_TABLE(GRT_VM_OP_CODE)
#undef GRT_VM_OP_CODE
};

const char* grt_vm_op_encoding_text(grt_vm_op_t op,
                                    char buffer[GRT_VM_OP_MNEMONIC_BUFFER]) {
  // Without a prefix the first byte is the opcode, and the second
  // argument is not used.
  grt_vm_prefix_t prefix = grt_vm_op_prefix(op);
  unsigned byte = grt_vm_op_byte(op);
  bool prefixed = prefix != GRT_VM_PREFIX_NONE;
  snprintf(buffer, GRT_VM_OP_MNEMONIC_BUFFER,
           prefixed ? "opcode 0x%02X 0x%02X" : "opcode 0x%02X",
           prefixed ? grt_vm_prefix_infos[prefix].byte : byte, byte);
  return buffer;
}

const char* grt_vm_op_mnemonic(grt_vm_op_t op,
                               char buffer[GRT_VM_OP_MNEMONIC_BUFFER]) {
#if GRT_VM_OP_NAMES
  (void)buffer;
  return grt_vm_op_infos[op].mnemonic;
#else
  return grt_vm_op_encoding_text(op, buffer);
#endif
}

const grt_vm_prefix_info_t* grt_vm_prefix_info(grt_vm_prefix_t prefix) {
  return &grt_vm_prefix_infos[prefix];
}

bool grt_vm_op_lookup(grt_string_view_t mnemonic, grt_vm_op_t* out_op) {
  for (int i = 0; i < GRT_VM_OP_COUNT; ++i) {
    if (grt_string_view_equal_cstring(mnemonic, grt_vm_op_infos[i].mnemonic)) {
      *out_op = (grt_vm_op_t)i;
      return true;
    }
  }
  return false;
}

bool grt_vm_op_decode(const uint8_t* code, size_t available,
                      grt_vm_op_t* out_op, size_t* out_opcode_size) {
  if (available == 0) return false;
  unsigned prefix = GRT_VM_PREFIX_NONE;
  size_t size = 1;
  for (unsigned p = 1; p < GRT_VM_PREFIX_COUNT; ++p) {
    if (code[0] == grt_vm_prefix_infos[p].byte) {
      if (available < 2) return false;
      prefix = p;
      size = 2;
      break;
    }
  }
  uint16_t entry = grt_vm_op_decode_table[prefix * 256 + code[size - 1]];
  if (entry == 0) return false;
  *out_op = (grt_vm_op_t)(entry - 1);
  *out_opcode_size = size;
  return true;
}

static uint16_t grt_vm_op_read_u16(const uint8_t* p) {
  return (uint16_t)(p[0] | (p[1] << 8));
}

// Size of a B operand (target, remap count, remaps).
static size_t grt_vm_branch_operand_size(const uint8_t* p) {
  return 6u + 5u * grt_vm_op_read_u16(p + 4);
}

size_t grt_vm_op_size_verified(const uint8_t* code) {
  grt_vm_op_t op = GRT_VM_OP_BLOCK;
  size_t size = 0;
  grt_vm_op_decode(code, 2, &op, &size);
  const uint8_t* p = code + size;
  for (const char* c = grt_vm_op_operands(op); *c; ++c) {
    switch (*c) {
      case '>': break;
      case 'i': case 'I': case 'f': case 'F': case 'r': p += 2; break;
      case 'k': case 'g': case 'd': case 'G': case 'R': case 'C': case 'M':
        p += 4;
        break;
      case 'K': p += 8; break;
      case 'B': p += grt_vm_branch_operand_size(p); break;
      case 'T': {
        uint16_t count = grt_vm_op_read_u16(p);
        p += 2;
        for (uint16_t i = 0; i < count; ++i) p += grt_vm_branch_operand_size(p);
        break;
      }
      case 'L': case 'A': case 'Y': case 'W': case 'V':
        p += 2u + 2u * grt_vm_op_read_u16(p);
        if (*c == 'L') ++c;  // the element type character
        break;
      case 'X': p += 2u + 3u * grt_vm_op_read_u16(p); break;
      case 'S': p += 2u + grt_vm_op_read_u16(p); break;
      default: break;
    }
  }
  return (size_t)(p - code);
}

const char* grt_vm_type_name(grt_vm_type_t type) {
  static const char* const names[GRT_VM_TYPE_LIST_ELEMENT_COUNT] = {
      "i32", "i64", "f32", "f64", "ref", "variant", "i8", "i16"};
  return (unsigned)type < GRT_VM_TYPE_LIST_ELEMENT_COUNT ? names[type] : "?";
}

grt_vm_type_t grt_vm_type_from_operand_char(char c) {
  switch (c) {
    case 'i': return GRT_VM_TYPE_I32;
    case 'I': return GRT_VM_TYPE_I64;
    case 'f': return GRT_VM_TYPE_F32;
    case 'F': return GRT_VM_TYPE_F64;
    case 'r': return GRT_VM_TYPE_REF;
    default: return GRT_VM_TYPE_COUNT;
  }
}
