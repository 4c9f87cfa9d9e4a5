#include "compiler/kernel/scalar.h"

#include <string.h>

typedef struct grtc_elem_info_t {
  const char* spelling;
  uint8_t bytes;
  uint8_t bits;
  bool is_float;
  bool is_signed;
} grtc_elem_info_t;

static const grtc_elem_info_t grtc_elem_infos[GRTC_ELEM_COUNT] = {
#define GRTC_ELEM_INFO(name, spelling, bytes, bits, is_float, is_signed) \
  {spelling, bytes, bits, is_float, is_signed},
    GRTC_ELEM_LIST(GRTC_ELEM_INFO)
#undef GRTC_ELEM_INFO
};

const char* grtc_elem_spelling(grtc_elem_t elem) {
  return elem < GRTC_ELEM_COUNT ? grtc_elem_infos[elem].spelling : "?";
}
size_t grtc_elem_byte_size(grtc_elem_t elem) {
  return elem < GRTC_ELEM_COUNT ? grtc_elem_infos[elem].bytes : 0;
}
uint32_t grtc_elem_bit_width(grtc_elem_t elem) {
  return elem < GRTC_ELEM_COUNT ? grtc_elem_infos[elem].bits : 0;
}
bool grtc_elem_is_float(grtc_elem_t elem) {
  return elem < GRTC_ELEM_COUNT && grtc_elem_infos[elem].is_float;
}
bool grtc_elem_is_signed_integer(grtc_elem_t elem) {
  return elem < GRTC_ELEM_COUNT && grtc_elem_infos[elem].is_signed;
}
bool grtc_elem_is_unsigned_integer(grtc_elem_t elem) {
  return elem >= GRTC_ELEM_U8 && elem <= GRTC_ELEM_U64;
}
bool grtc_elem_is_integer(grtc_elem_t elem) {
  return elem < GRTC_ELEM_COUNT && !grtc_elem_infos[elem].is_float;
}
bool grtc_elem_from_spelling(const char* spelling, size_t length,
                             grtc_elem_t* out_elem) {
  for (int i = 0; i < GRTC_ELEM_COUNT; ++i) {
    const char* s = grtc_elem_infos[i].spelling;
    if (strlen(s) == length && memcmp(s, spelling, length) == 0) {
      *out_elem = (grtc_elem_t)i;
      return true;
    }
  }
  return false;
}

typedef struct grtc_scalar_op_info_t {
  const char* spelling;
  uint8_t arity;
  char types;  // 'F', 'I' or 'B'
  grtc_scalar_op_t on_i1;  // GRTC_SCALAR_NONE: no i1 operands
} grtc_scalar_op_info_t;

static const grtc_scalar_op_info_t grtc_scalar_op_infos[GRTC_SCALAR_OP_COUNT] = {
#define GRTC_SCALAR_OP_INFO(name, arity, spelling, types, on_i1) \
  {spelling, arity, #types[0], GRTC_SCALAR_##on_i1},
    GRTC_SCALAR_OP_LIST(GRTC_SCALAR_OP_INFO)
#undef GRTC_SCALAR_OP_INFO
};

const char* grtc_scalar_op_spelling(grtc_scalar_op_t op) {
  return op < GRTC_SCALAR_OP_COUNT ? grtc_scalar_op_infos[op].spelling : "?";
}
uint32_t grtc_scalar_op_arity(grtc_scalar_op_t op) {
  return op < GRTC_SCALAR_OP_COUNT ? grtc_scalar_op_infos[op].arity : 0;
}
bool grtc_scalar_op_accepts(grtc_scalar_op_t op, grtc_elem_t elem) {
  if (op >= GRTC_SCALAR_OP_COUNT || elem >= GRTC_ELEM_COUNT) return false;
  if (elem == GRTC_ELEM_I1) {
    return grtc_scalar_op_infos[op].on_i1 != GRTC_SCALAR_NONE;
  }
  switch (grtc_scalar_op_infos[op].types) {
    case 'F':
      return grtc_elem_is_float(elem);
    case 'I':
      return grtc_elem_is_integer(elem);
    default:
      return true;
  }
}

const char* grtc_scalar_op_accepted_types(grtc_scalar_op_t op) {
  if (op >= GRTC_SCALAR_OP_COUNT) return "nothing";
  bool i1 = grtc_scalar_op_infos[op].on_i1 != GRTC_SCALAR_NONE;
  switch (grtc_scalar_op_infos[op].types) {
    case 'F':
      return "floating-point";
    case 'I':
      return i1 ? "integer or i1" : "integer (not i1)";
    default:
      return i1 ? "integer, i1 or floating-point"
                : "integer (not i1) or floating-point";
  }
}

grtc_scalar_op_t grtc_scalar_op_for_elem(grtc_scalar_op_t op,
                                         grtc_elem_t elem) {
  if (op >= GRTC_SCALAR_OP_COUNT || elem != GRTC_ELEM_I1) return op;
  grtc_scalar_op_t on_i1 = grtc_scalar_op_infos[op].on_i1;
  return on_i1 == GRTC_SCALAR_NONE ? op : on_i1;
}

const char* grtc_compare_direction_spelling(grtc_compare_direction_t d) {
  static const char* const names[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  return (unsigned)d < 6 ? names[d] : "?";
}

const char* grtc_compare_type_spelling(grtc_compare_type_t t) {
  static const char* const names[] = {"NOTYPE", "FLOAT", "TOTALORDER",
                                      "SIGNED", "UNSIGNED"};
  return (unsigned)t < 5 ? names[t] : "?";
}

grtc_compare_type_t grtc_compare_type_resolve(grtc_compare_type_t t,
                                              grtc_elem_t elem) {
  if (t != GRTC_CMP_TYPE_DEFAULT) return t;
  if (grtc_elem_is_float(elem)) return GRTC_CMP_TYPE_FLOAT;
  if (grtc_elem_is_signed_integer(elem)) return GRTC_CMP_TYPE_SIGNED;
  return GRTC_CMP_TYPE_UNSIGNED;
}
