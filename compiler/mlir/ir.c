#include "compiler/mlir/ir.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct {
  const char* spelling;
  int exponent_bits;
  int mantissa_bits;
  size_t byte_size;
  int bias;
  grtc_float_flavor_t flavor;
} grtc_float_kinds[] = {
#define GRTC_FLOAT_KIND_ROW(name, spelling, e, m, size, bias, flavor) \
  {spelling, e, m, size, bias, flavor},
    GRTC_FLOAT_KIND_LIST(GRTC_FLOAT_KIND_ROW)
#undef GRTC_FLOAT_KIND_ROW
};

const char* grtc_float_kind_spelling(grtc_float_kind_t kind) {
  return grtc_float_kinds[kind].spelling;
}

grtc_float_layout_t grtc_float_kind_layout(grtc_float_kind_t kind) {
  grtc_float_layout_t layout = {grtc_float_kinds[kind].exponent_bits,
                                grtc_float_kinds[kind].mantissa_bits,
                                grtc_float_kinds[kind].bias, grtc_float_kinds[kind].flavor};
  return layout;
}

int grtc_float_kind_sign_bit(grtc_float_kind_t kind) {
  if (grtc_float_kinds[kind].flavor == GRTC_FLOAT_E8M0) return -1;
  return grtc_float_kinds[kind].exponent_bits + grtc_float_kinds[kind].mantissa_bits;
}

int grtc_float_kind_bits(grtc_float_kind_t kind) {
  return grtc_float_kind_sign_bit(kind) < 0 ? grtc_float_kinds[kind].exponent_bits
                                            : grtc_float_kind_sign_bit(kind) + 1;
}

bool grtc_float_kind_is_f8(grtc_float_kind_t kind) {
  return grtc_float_kinds[kind].byte_size == 1;
}

bool grtc_type_equal(const grtc_type_t* a, const grtc_type_t* b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  switch (a->kind) {
    case GRTC_TYPE_INTEGER:
      return a->integer.width == b->integer.width &&
             a->integer.signedness == b->integer.signedness;
    case GRTC_TYPE_FLOAT:
      return a->float_kind == b->float_kind;
    case GRTC_TYPE_INDEX:
    case GRTC_TYPE_NONE:
    case GRTC_TYPE_VM_BUFFER:
      return true;
    case GRTC_TYPE_COMPLEX:
    case GRTC_TYPE_VM_REF:
    case GRTC_TYPE_VM_LIST:
      return grtc_type_equal(a->element, b->element);
    case GRTC_TYPE_TENSOR:
    case GRTC_TYPE_VECTOR:
      if (a->shaped.ranked != b->shaped.ranked ||
          a->shaped.rank != b->shaped.rank ||
          !grtc_type_equal(a->shaped.element, b->shaped.element)) {
        return false;
      }
      for (uint32_t i = 0; i < a->shaped.rank; ++i) {
        if (a->shaped.dims[i] != b->shaped.dims[i]) return false;
      }
      if (!a->shaped.encoding != !b->shaped.encoding) return false;
      return !a->shaped.encoding ||
             grtc_attribute_equal(a->shaped.encoding, b->shaped.encoding);
    case GRTC_TYPE_TUPLE:
    case GRTC_TYPE_FUNCTION: {
      if (a->function.input_count != b->function.input_count ||
          a->function.result_count != b->function.result_count) {
        return false;
      }
      uint32_t count = a->function.input_count + a->function.result_count;
      for (uint32_t i = 0; i < count; ++i) {
        if (!grtc_type_equal(a->function.types[i], b->function.types[i])) {
          return false;
        }
      }
      return true;
    }
    case GRTC_TYPE_OPAQUE:
      return grt_string_view_equal(a->opaque, b->opaque);
  }
  return false;
}

bool grtc_type_is_integer(const grtc_type_t* type, uint32_t width) {
  return type && type->kind == GRTC_TYPE_INTEGER &&
         type->integer.width == width;
}

bool grtc_type_is_float(const grtc_type_t* type, grtc_float_kind_t kind) {
  return type && type->kind == GRTC_TYPE_FLOAT && type->float_kind == kind;
}

bool grtc_type_is_ref(const grtc_type_t* type) {
  return type && (type->kind == GRTC_TYPE_VM_REF ||
                  type->kind == GRTC_TYPE_VM_BUFFER ||
                  type->kind == GRTC_TYPE_VM_LIST ||
                  type->kind == GRTC_TYPE_OPAQUE);
}

bool grtc_quant_storage_word(grt_string_view_t word, uint32_t* out_bits,
                             bool* out_signed) {
  size_t prefix = 0;
  bool is_signed = true;
  if (word.size > 2 && (memcmp(word.data, "si", 2) == 0 || memcmp(word.data, "ui", 2) == 0)) {
    prefix = 2;
    is_signed = word.data[0] == 's';
  } else if (word.size > 1 && (word.data[0] == 'i' || word.data[0] == 'u')) {
    prefix = 1;
    is_signed = word.data[0] == 'i';
  }
  uint32_t bits = 0;
  for (size_t i = prefix; prefix && i < word.size && bits <= 64; ++i) {
    bits = word.data[i] >= '0' && word.data[i] <= '9'
               ? bits * 10 + (uint32_t)(word.data[i] - '0')
               : 1000;
  }
  if (!prefix || (bits != 2 && bits != 4 && bits != 8 && bits != 16 && bits != 32)) {
    return false;
  }
  *out_bits = bits;
  *out_signed = is_signed;
  return true;
}

const grtc_type_t* grtc_type_dense_element(const grtc_type_t* element,
                                           grtc_type_t* scratch) {
  static const char prefix[] = "!quant.uniform<";
  size_t length = sizeof(prefix) - 1;
  if (element->kind != GRTC_TYPE_OPAQUE || element->opaque.size <= length ||
      memcmp(element->opaque.data, prefix, length) != 0) {
    return element;
  }
  const char* start = element->opaque.data + length;
  const char* end = element->opaque.data + element->opaque.size;
  while (start < end && (*start == ' ' || *start == '\t' || *start == '\n')) ++start;
  const char* p = start;
  while (p < end && ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))) ++p;
  uint32_t bits = 0;
  bool is_signed = false;
  if (!grtc_quant_storage_word(grt_make_string_view(start, (size_t)(p - start)), &bits,
                               &is_signed)) {
    return element;
  }
  memset(scratch, 0, sizeof(*scratch));
  scratch->kind = GRTC_TYPE_INTEGER;
  scratch->integer.width = bits < 8 ? 8 : bits;
  scratch->integer.signedness = is_signed ? GRTC_SIGNED : GRTC_UNSIGNED;
  return scratch;
}

size_t grtc_type_element_byte_size(const grtc_type_t* type) {
  grtc_type_t scratch;
  type = grtc_type_dense_element(type, &scratch);
  switch (type->kind) {
    case GRTC_TYPE_INTEGER:
      if (type->integer.width > 64) return 0;
      return (type->integer.width + 7) / 8;
    case GRTC_TYPE_INDEX:
      return 8;
    case GRTC_TYPE_FLOAT:
      return grtc_float_kinds[type->float_kind].byte_size;
    case GRTC_TYPE_COMPLEX:
      // (real, imaginary), interleaved; only complex<f32> and complex<f64>.
      if (!type->element || type->element->kind != GRTC_TYPE_FLOAT ||
          (type->element->float_kind != GRTC_FLOAT_F32 &&
           type->element->float_kind != GRTC_FLOAT_F64)) {
        return 0;
      }
      return 2 * grtc_float_kinds[type->element->float_kind].byte_size;
    default:
      return 0;
  }
}

bool grtc_type_element_count(const grtc_type_t* type, uint64_t* out_count) {
  if ((type->kind != GRTC_TYPE_TENSOR && type->kind != GRTC_TYPE_VECTOR) ||
      !type->shaped.ranked) {
    return false;
  }
  uint64_t count = 1;
  for (uint32_t i = 0; i < type->shaped.rank; ++i) {
    int64_t dim = type->shaped.dims[i];
    if (dim < 0) return false;
    if (dim != 0 && count > UINT64_MAX / (uint64_t)dim) return false;
    count *= (uint64_t)dim;
  }
  *out_count = count;
  return true;
}

bool grtc_attribute_equal(const grtc_attribute_t* a, const grtc_attribute_t* b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  if (!a->type != !b->type) return false;
  if (a->type && !grtc_type_equal(a->type, b->type)) return false;
  switch (a->kind) {
    case GRTC_ATTR_UNIT:
    case GRTC_ATTR_TYPE:
      return true;
    case GRTC_ATTR_BOOL:
      return a->boolean == b->boolean;
    case GRTC_ATTR_INTEGER:
      return a->integer == b->integer;
    case GRTC_ATTR_FLOAT:
      return memcmp(&a->floating, &b->floating, sizeof(double)) == 0;
    case GRTC_ATTR_STRING:
      return grt_string_view_equal(a->string, b->string);
    case GRTC_ATTR_OPAQUE:
      return grt_string_view_equal(a->opaque, b->opaque);
    case GRTC_ATTR_ARRAY:
      if (a->array.count != b->array.count) return false;
      for (uint32_t i = 0; i < a->array.count; ++i) {
        if (!grtc_attribute_equal(a->array.items[i], b->array.items[i])) {
          return false;
        }
      }
      return true;
    case GRTC_ATTR_DICTIONARY:
      if (a->dictionary.count != b->dictionary.count) return false;
      for (uint32_t i = 0; i < a->dictionary.count; ++i) {
        if (!grt_string_view_equal(a->dictionary.entries[i].name,
                                   b->dictionary.entries[i].name) ||
            !grtc_attribute_equal(a->dictionary.entries[i].value,
                                  b->dictionary.entries[i].value)) {
          return false;
        }
      }
      return true;
    case GRTC_ATTR_SYMBOL_REF:
      if (a->symbol.count != b->symbol.count) return false;
      for (uint32_t i = 0; i < a->symbol.count; ++i) {
        if (!grt_string_view_equal(a->symbol.names[i], b->symbol.names[i])) {
          return false;
        }
      }
      return true;
    case GRTC_ATTR_DENSE_ELEMENTS:
    case GRTC_ATTR_DENSE_ARRAY:
      return a->dense.splat == b->dense.splat && a->dense.size == b->dense.size &&
             (a->dense.size == 0 ||
              memcmp(a->dense.data, b->dense.data, a->dense.size) == 0);
  }
  return false;
}

const grtc_attribute_t* grtc_dictionary_get(const grtc_attribute_t* dictionary,
                                            const char* name) {
  if (!dictionary || dictionary->kind != GRTC_ATTR_DICTIONARY) return NULL;
  for (uint32_t i = 0; i < dictionary->dictionary.count; ++i) {
    if (grt_string_view_equal_cstring(dictionary->dictionary.entries[i].name,
                                      name)) {
      return dictionary->dictionary.entries[i].value;
    }
  }
  return NULL;
}

bool grtc_location_file_position(const grtc_location_t* location,
                                 grt_string_view_t* out_file,
                                 uint32_t* out_line, uint32_t* out_column) {
  // Alias chains are bounded by the parser (cycles are rejected), but a
  // depth cap keeps this safe on any hand-built IR too.
  for (int depth = 0; location && depth < 256; ++depth) {
    switch (location->kind) {
      case GRTC_LOC_FILE:
        *out_file = location->text;
        *out_line = location->line;
        *out_column = location->column;
        return true;
      case GRTC_LOC_ALIAS:
        location = location->resolved;
        break;
      case GRTC_LOC_NAME:
      case GRTC_LOC_CALLSITE:
        location = location->child_count ? location->children[0] : NULL;
        break;
      case GRTC_LOC_FUSED:
        for (uint32_t i = 0; i < location->child_count; ++i) {
          if (grtc_location_file_position(location->children[i], out_file,
                                          out_line, out_column)) {
            return true;
          }
        }
        return false;
      case GRTC_LOC_UNKNOWN:
        return false;
    }
  }
  return false;
}

const grtc_attribute_t* grtc_operation_attribute(const grtc_operation_t* op,
                                                 const char* name) {
  for (uint32_t i = 0; i < op->attribute_count; ++i) {
    if (grt_string_view_equal_cstring(op->attributes[i].name, name)) {
      return op->attributes[i].value;
    }
  }
  return grtc_dictionary_get(op->properties, name);
}

bool grtc_operation_is(const grtc_operation_t* op, const char* name) {
  return grt_string_view_equal_cstring(op->name, name);
}

void grtc_module_destroy(grtc_module_t* module) {
  if (!module) return;
  grt_arena_t arena = module->arena;  // the module lives in its own arena
  grt_arena_deinit(&arena);
}

// f8E8M0FNU (grtc_float_encode's rules).
static uint64_t grtc_float_encode_e8m0(double value, int64_t bias) {
  if (!(value > 0) || isinf(value)) return 0xFF;  // NaN, zero, negative, infinity
  int exponent = 0;
  double fraction = frexp(value, &exponent);  // [0.5, 1) * 2^exponent
  int64_t power = (int64_t)exponent - 1 + (fraction >= 0.75 ? 1 : 0);
  if (power + bias < 0) return 0;  // below 2^-bias: the smallest
  if (power + bias > 254) return 0xFF;
  return (uint64_t)(power + bias);
}

uint64_t grtc_float_encode(double value, grtc_float_kind_t kind) {
  if (grtc_float_kinds[kind].flavor == GRTC_FLOAT_E8M0) {
    return grtc_float_encode_e8m0(value, grtc_float_kinds[kind].bias);
  }
  const int exponent_bits = grtc_float_kinds[kind].exponent_bits;
  const int mantissa_bits = grtc_float_kinds[kind].mantissa_bits;
  const grtc_float_flavor_t flavor = grtc_float_kinds[kind].flavor;
  const uint64_t sign = signbit(value) ? 1 : 0;
  const int64_t bias = grtc_float_kinds[kind].bias;
  const uint64_t exponent_max = ((uint64_t)1 << exponent_bits) - 1;
  const uint64_t mantissa_mask = ((uint64_t)1 << mantissa_bits) - 1;
  const uint64_t sign_bit = (uint64_t)1 << (exponent_bits + mantissa_bits);
  // The magnitudes of the largest number, of +infinity and of the quiet NaN.
  uint64_t largest = ((exponent_max - 1) << mantissa_bits) | mantissa_mask;
  uint64_t infinity = exponent_max << mantissa_bits;
  uint64_t quiet_nan = infinity | ((uint64_t)1 << (mantissa_bits - 1));
  if (flavor == GRTC_FLOAT_FN) {
    largest = (exponent_max << mantissa_bits) | (mantissa_mask - 1);
    quiet_nan = infinity = largest + 1;
  } else if (flavor == GRTC_FLOAT_FNUZ || flavor == GRTC_FLOAT_FINITE) {
    largest = (exponent_max << mantissa_bits) | mantissa_mask;
  }
  uint64_t bits = 0;
  if (flavor == GRTC_FLOAT_FINITE && isnan(value)) return 0;
  if (flavor == GRTC_FLOAT_FINITE && isinf(value)) return largest | (sign ? sign_bit : 0);
  if (isnan(value) || (isinf(value) && flavor != GRTC_FLOAT_IEEE)) {
    return flavor == GRTC_FLOAT_FNUZ ? sign_bit : quiet_nan | (sign ? sign_bit : 0);
  } else if (isinf(value)) {
    bits = infinity;
  } else if (value != 0) {
    double magnitude = fabs(value);
    int exponent = 0;
    double fraction = frexp(magnitude, &exponent);  // [0.5, 1) * 2^exponent
    int64_t biased = (int64_t)exponent - 1 + bias;
    if (biased >= 1) {
      // Scaling by a power of two is exact; nearbyint rounds to even.
      double significand = nearbyint(ldexp(fraction, mantissa_bits + 1));
      if (significand >= ldexp(1.0, mantissa_bits + 1)) {
        significand /= 2;
        biased += 1;
      }
      // Past the largest number (the exponent range as if unbounded, so a
      // value rounds to the largest number or overflows as IEEE rounding
      // says): infinity, or NaN where the type has none.
      if ((uint64_t)biased > exponent_max ||
          (((uint64_t)biased << mantissa_bits) |
           ((uint64_t)significand - ((uint64_t)1 << mantissa_bits))) > largest) {
        if (flavor == GRTC_FLOAT_FINITE) return largest | (sign ? sign_bit : 0);
        if (flavor != GRTC_FLOAT_IEEE) {
          return flavor == GRTC_FLOAT_FNUZ ? sign_bit : quiet_nan | (sign ? sign_bit : 0);
        }
        bits = infinity;
      } else {
        bits = ((uint64_t)biased << mantissa_bits) |
               ((uint64_t)significand - ((uint64_t)1 << mantissa_bits));
      }
    } else {
      // Subnormal: a multiple of 2^(1 - bias - mantissa_bits). Rounding up
      // to 2^mantissa_bits lands exactly on the smallest normal encoding.
      bits = (uint64_t)nearbyint(
          ldexp(magnitude, (int)(bias - 1 + mantissa_bits)));
    }
  }
  // FNUZ types have no -0: a negative value that rounds to zero is +0.
  if (flavor == GRTC_FLOAT_FNUZ && bits == 0) return 0;
  return bits | (sign ? sign_bit : 0);
}

double grtc_float_decode(uint64_t bits, grtc_float_kind_t kind) {
  const int exponent_bits = grtc_float_kinds[kind].exponent_bits;
  const int mantissa_bits = grtc_float_kinds[kind].mantissa_bits;
  const grtc_float_flavor_t flavor = grtc_float_kinds[kind].flavor;
  const int64_t bias = grtc_float_kinds[kind].bias;
  const uint64_t exponent_max = ((uint64_t)1 << exponent_bits) - 1;
  const uint64_t mantissa_mask = ((uint64_t)1 << mantissa_bits) - 1;
  const uint64_t mantissa = bits & mantissa_mask;
  const uint64_t exponent = (bits >> mantissa_bits) & exponent_max;
  const bool negative = (bits >> (exponent_bits + mantissa_bits)) & 1;
  if (flavor == GRTC_FLOAT_E8M0) {
    return (bits & 0xFF) == 0xFF ? NAN : ldexp(1.0, (int)((int64_t)(bits & 0xFF) - bias));
  }
  double value;
  if (flavor == GRTC_FLOAT_FNUZ && negative && exponent == 0 && mantissa == 0) {
    return NAN;
  } else if (exponent == exponent_max && flavor == GRTC_FLOAT_IEEE) {
    value = mantissa ? NAN : INFINITY;
  } else if (exponent == exponent_max && flavor == GRTC_FLOAT_FN &&
             mantissa == mantissa_mask) {
    value = NAN;
  } else if (exponent == 0) {
    value = ldexp((double)mantissa, (int)(1 - bias - mantissa_bits));
  } else {
    value = ldexp((double)(mantissa | ((uint64_t)1 << mantissa_bits)),
                  (int)((int64_t)exponent - bias - mantissa_bits));
  }
  return negative ? -value : value;
}

static grt_status_t grtc_error_at_v(const char* file_name, uint32_t line,
                                    uint32_t column, const char* format,
                                    va_list args) {
  char message[512];
  vsnprintf(message, sizeof(message), format, args);
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT, "%s:%u:%u: error: %s",
                         file_name ? file_name : "<input>", line, column,
                         message);
}

grt_status_t grtc_error_at(const char* file_name, uint32_t line,
                           uint32_t column, const char* format, ...) {
  va_list args;
  va_start(args, format);
  grt_status_t status = grtc_error_at_v(file_name, line, column, format, args);
  va_end(args);
  return status;
}

grt_status_t grtc_op_error(const char* file_name, const grtc_operation_t* op,
                           const char* format, ...) {
  va_list args;
  va_start(args, format);
  grt_status_t status =
      grtc_error_at_v(file_name, op->line, op->column, format, args);
  va_end(args);
  return status;
}
