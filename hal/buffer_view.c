// Buffer views, element types, shapes, and the IREE text form of tensor
// contents (parse and print), plus the f16/bf16 conversions that text form
// needs.
#include "hal/buffer_view.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/checked_math.h"

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

typedef struct grt_hal_element_type_name_t {
  grt_hal_element_type_t type;
  const char* name;
} grt_hal_element_type_name_t;

static const grt_hal_element_type_name_t grt_hal_element_type_names[] = {
#define GRT_HAL_ELEMENT_TYPE_ROW(name, text, kind, bits) \
  {GRT_HAL_ELEMENT_TYPE_##name, text},
    GRT_HAL_ELEMENT_TYPE_LIST(GRT_HAL_ELEMENT_TYPE_ROW)
#undef GRT_HAL_ELEMENT_TYPE_ROW
};
#define GRT_HAL_ELEMENT_TYPE_COUNT \
  (sizeof(grt_hal_element_type_names) / sizeof(grt_hal_element_type_names[0]))

// Spellings other tools use (numpy-style "u8", MLIR's explicit "si8").
static const grt_hal_element_type_name_t grt_hal_element_type_aliases[] = {
    {GRT_HAL_ELEMENT_TYPE_UINT_8, "u8"},   {GRT_HAL_ELEMENT_TYPE_UINT_16, "u16"},
    {GRT_HAL_ELEMENT_TYPE_UINT_32, "u32"}, {GRT_HAL_ELEMENT_TYPE_UINT_64, "u64"},
    {GRT_HAL_ELEMENT_TYPE_INT_8, "si8"},   {GRT_HAL_ELEMENT_TYPE_INT_16, "si16"},
    {GRT_HAL_ELEMENT_TYPE_INT_32, "si32"}, {GRT_HAL_ELEMENT_TYPE_INT_64, "si64"},
};

bool grt_hal_element_type_is_known(grt_hal_element_type_t type) {
  for (size_t i = 0; i < GRT_HAL_ELEMENT_TYPE_COUNT; ++i) {
    if (grt_hal_element_type_names[i].type == type) return true;
  }
  return false;
}

bool grt_hal_element_type_dense_bytes(grt_hal_element_type_t t, uint64_t count,
                                      uint64_t* out_bytes) {
  if (grt_hal_element_type_is_packed(t)) {
    uint64_t per_byte = 8 / grt_hal_element_type_bits(t);
    *out_bytes = count / per_byte + (count % per_byte != 0);
    return true;
  }
  return grt_checked_mul_u64(count, grt_hal_element_type_byte_size(t), out_bytes);
}

uint8_t grt_hal_packed_element(grt_hal_element_type_t type, const void* packed,
                               uint64_t index) {
  uint32_t bits = grt_hal_element_type_bits(type);
  const uint8_t* bytes = (const uint8_t*)packed;
  uint32_t field = (bytes[index * bits / 8] >> (index * bits % 8)) & ((1u << bits) - 1u);
  if (grt_hal_element_type_kind(type) == GRT_HAL_NUMERICAL_INTEGER && (field >> (bits - 1))) {
    field |= 0xFFu << bits;
  }
  return (uint8_t)field;
}

const char* grt_hal_element_type_name(grt_hal_element_type_t type) {
  for (size_t i = 0; i < GRT_HAL_ELEMENT_TYPE_COUNT; ++i) {
    if (grt_hal_element_type_names[i].type == type) {
      return grt_hal_element_type_names[i].name;
    }
  }
  return "unknown";
}

grt_status_t grt_hal_element_type_parse(grt_string_view_t text,
                                        grt_hal_element_type_t* out_type) {
  *out_type = GRT_HAL_ELEMENT_TYPE_NONE;
  for (size_t i = 0; i < GRT_HAL_ELEMENT_TYPE_COUNT; ++i) {
    if (grt_string_view_equal_cstring(text, grt_hal_element_type_names[i].name)) {
      *out_type = grt_hal_element_type_names[i].type;
      return grt_ok_status();
    }
  }
  for (size_t i = 0; i < sizeof(grt_hal_element_type_aliases) /
                             sizeof(grt_hal_element_type_aliases[0]);
       ++i) {
    if (grt_string_view_equal_cstring(text,
                                      grt_hal_element_type_aliases[i].name)) {
      *out_type = grt_hal_element_type_aliases[i].type;
      return grt_ok_status();
    }
  }
  char expected[160];
  size_t length = 0;
  expected[0] = '\0';
  for (size_t i = 0; i < GRT_HAL_ELEMENT_TYPE_COUNT; ++i) {
    int n = snprintf(expected + length, sizeof(expected) - length, "%s%s",
                     i ? ", " : "", grt_hal_element_type_names[i].name);
    if (n < 0 || (size_t)n >= sizeof(expected) - length) break;
    length += (size_t)n;
  }
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "unknown element type '%.*s'; expected one of %s",
                         GRT_SV_ARG(text), expected);
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

grt_status_t grt_hal_shape_element_count(const grt_hal_dim_t* shape,
                                         size_t rank, uint64_t* out_count) {
  *out_count = 0;
  uint64_t count = 1;
  for (size_t i = 0; i < rank; ++i) {
    if (shape[i] < 0) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "dimension %zu is %" PRId64
                             "; dimensions must be >= 0",
                             i, shape[i]);
    }
    if (!grt_checked_mul_u64(count, (uint64_t)shape[i], &count)) {
      return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                             "element count of a rank-%zu shape overflows "
                             "64 bits at dimension %zu",
                             rank, i);
    }
  }
  *out_count = count;
  return grt_ok_status();
}

size_t grt_hal_shape_format(const grt_hal_dim_t* shape, size_t rank,
                            grt_hal_element_type_t type, char* out,
                            size_t capacity) {
  size_t length = 0;
  if (capacity) out[0] = '\0';
  for (size_t i = 0; i < rank; ++i) {
    int n = shape[i] < 0 ? snprintf(length < capacity ? out + length : NULL,
                                    length < capacity ? capacity - length : 0, "?x")
                         : snprintf(length < capacity ? out + length : NULL,
                                    length < capacity ? capacity - length : 0,
                                    "%" PRId64 "x", shape[i]);
    if (n > 0) length += (size_t)n;
  }
  int n = snprintf(length < capacity ? out + length : NULL,
                   length < capacity ? capacity - length : 0, "%s",
                   grt_hal_element_type_name(type));
  if (n > 0) length += (size_t)n;
  return length;
}

grt_status_t grt_hal_shape_parse(grt_string_view_t text, size_t shape_capacity,
                                 grt_hal_dim_t* out_shape, size_t* out_rank,
                                 grt_hal_element_type_t* out_type) {
  *out_rank = 0;
  *out_type = GRT_HAL_ELEMENT_TYPE_NONE;
  size_t rank = 0;
  size_t start = 0;
  for (;;) {
    size_t x = grt_string_view_find_char(text, 'x', start);
    if (x == GRT_STRING_VIEW_NPOS) break;
    grt_string_view_t dim = grt_string_view_substr(text, start, x - start);
    if (dim.size == 0) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "bad shape '%.*s': empty dimension at position %zu",
                             GRT_SV_ARG(text), start);
    }
    uint64_t value = 0;
    for (size_t i = 0; i < dim.size; ++i) {
      char c = dim.data[i];
      if (c < '0' || c > '9') {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "bad shape '%.*s': dimension '%.*s' at "
                               "position %zu is not a number",
                               GRT_SV_ARG(text), GRT_SV_ARG(dim), start);
      }
      value = value * 10 + (uint64_t)(c - '0');
      if (value > (uint64_t)INT64_MAX / 16) {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "bad shape '%.*s': dimension '%.*s' at "
                               "position %zu is too large",
                               GRT_SV_ARG(text), GRT_SV_ARG(dim), start);
      }
    }
    if (rank >= shape_capacity) {
      return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                             "bad shape '%.*s': more than %zu dimensions",
                             GRT_SV_ARG(text), shape_capacity);
    }
    out_shape[rank++] = (grt_hal_dim_t)value;
    start = x + 1;
  }
  grt_string_view_t type_text = grt_string_view_substr(text, start, SIZE_MAX);
  if (type_text.size == 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "bad shape '%.*s': empty element type at position %zu",
                           GRT_SV_ARG(text), start);
  }
  grt_hal_element_type_t type = GRT_HAL_ELEMENT_TYPE_NONE;
  GRT_RETURN_IF_ERROR_ANNOTATED(grt_hal_element_type_parse(type_text, &type),
                                "in shape '%.*s' at position %zu",
                                GRT_SV_ARG(text), start);
  *out_rank = rank;
  *out_type = type;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Buffer views
//===----------------------------------------------------------------------===//

struct grt_hal_buffer_view_t {
  grt_hal_resource_t resource;
  grt_allocator_t host_allocator;
  grt_hal_buffer_t* buffer;  // retained
  grt_hal_element_type_t element_type;
  uint64_t element_count;
  size_t rank;
  grt_hal_dim_t shape[GRT_HAL_MAX_RANK];
};

static void grt_hal_buffer_view_destroy(grt_hal_resource_t* resource) {
  grt_hal_buffer_view_t* view = (grt_hal_buffer_view_t*)resource;
  grt_hal_buffer_release(view->buffer);
  grt_allocator_free(view->host_allocator, view);
}

static const grt_hal_resource_vtable_t grt_hal_buffer_view_vtable = {
    .destroy = grt_hal_buffer_view_destroy,
};

// "tensor<4x16xf32>" for any shape (used before a view exists).
static size_t grt_hal_tensor_type_format(const grt_hal_dim_t* shape,
                                         size_t rank,
                                         grt_hal_element_type_t type,
                                         char* out, size_t capacity) {
  char shape_text[GRT_HAL_MAX_RANK * 21 + 16];
  grt_hal_shape_format(shape, rank, type, shape_text, sizeof(shape_text));
  int n = snprintf(out, capacity, "tensor<%s>", shape_text);
  return n < 0 ? 0 : (size_t)n;
}

grt_status_t grt_hal_buffer_view_create(grt_hal_buffer_t* buffer,
                                        const grt_hal_dim_t* shape, size_t rank,
                                        grt_hal_element_type_t element_type,
                                        grt_allocator_t host_allocator,
                                        grt_hal_buffer_view_t** out_view) {
  *out_view = NULL;
  if (!buffer) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "buffer view needs a buffer");
  }
  if (rank > GRT_HAL_MAX_RANK) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "buffer view rank %zu exceeds the maximum of %d",
                           rank, GRT_HAL_MAX_RANK);
  }
  if (!grt_hal_element_type_is_known(element_type)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "unknown element type 0x%08" PRIx32, element_type);
  }
  uint64_t count = 0;
  GRT_RETURN_IF_ERROR(grt_hal_shape_element_count(shape, rank, &count));
  uint64_t byte_length = 0;
  char type_text[GRT_HAL_MAX_RANK * 21 + 32];
  if (!grt_hal_element_type_dense_bytes(element_type, count, &byte_length)) {
    grt_hal_tensor_type_format(shape, rank, element_type, type_text,
                               sizeof(type_text));
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "byte size of %s overflows 64 bits", type_text);
  }
  if (grt_hal_buffer_byte_length(buffer) < byte_length) {
    grt_hal_tensor_type_format(shape, rank, element_type, type_text,
                               sizeof(type_text));
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "buffer of %" PRIu64
                           " bytes is too small for %s (%" PRIu64 " bytes)",
                           grt_hal_buffer_byte_length(buffer), type_text,
                           byte_length);
  }
  grt_hal_buffer_view_t* view = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_malloc(host_allocator, sizeof(*view), (void**)&view));
  memset(view, 0, sizeof(*view));
  grt_hal_resource_initialize(&grt_hal_buffer_view_vtable, &view->resource);
  view->host_allocator = host_allocator;
  view->buffer = buffer;
  grt_hal_buffer_retain(buffer);
  view->element_type = element_type;
  view->element_count = count;
  view->rank = rank;
  if (rank) memcpy(view->shape, shape, rank * sizeof(shape[0]));
  *out_view = view;
  return grt_ok_status();
}

void grt_hal_buffer_view_retain(grt_hal_buffer_view_t* view) {
  grt_hal_resource_retain(view);
}

void grt_hal_buffer_view_release(grt_hal_buffer_view_t* view) {
  grt_hal_resource_release(view);
}

grt_hal_buffer_t* grt_hal_buffer_view_buffer(const grt_hal_buffer_view_t* view) {
  return view->buffer;
}

size_t grt_hal_buffer_view_rank(const grt_hal_buffer_view_t* view) {
  return view->rank;
}

const grt_hal_dim_t* grt_hal_buffer_view_shape(
    const grt_hal_buffer_view_t* view) {
  return view->shape;
}

grt_hal_dim_t grt_hal_buffer_view_dim(const grt_hal_buffer_view_t* view,
                                      size_t index) {
  return index < view->rank ? view->shape[index] : 0;
}

grt_hal_element_type_t grt_hal_buffer_view_element_type(
    const grt_hal_buffer_view_t* view) {
  return view->element_type;
}

uint64_t grt_hal_buffer_view_element_count(const grt_hal_buffer_view_t* view) {
  return view->element_count;
}

uint64_t grt_hal_buffer_view_byte_length(const grt_hal_buffer_view_t* view) {
  // Cannot overflow: checked at create.
  uint64_t bytes = 0;
  (void)grt_hal_element_type_dense_bytes(view->element_type, view->element_count, &bytes);
  return bytes;
}

size_t grt_hal_buffer_view_format_type(const grt_hal_buffer_view_t* view,
                                       char* out, size_t capacity) {
  return grt_hal_tensor_type_format(view->shape, view->rank, view->element_type,
                                    out, capacity);
}

grt_status_t grt_hal_buffer_view_check(const grt_hal_buffer_view_t* view,
                                       const grt_hal_dim_t* shape, size_t rank,
                                       grt_hal_element_type_t element_type) {
  bool same = view->rank == rank && view->element_type == element_type;
  for (size_t i = 0; same && i < rank; ++i) {
    same = shape[i] < 0 || view->shape[i] == shape[i];  // < 0: any size
  }
  if (same) return grt_ok_status();
  // The texts below are only the message's.
  if (!GRT_STATUS_MESSAGES) return grt_make_status_code(GRT_STATUS_INVALID_ARGUMENT);
  char expected[GRT_HAL_MAX_RANK * 21 + 32];
  char got[GRT_HAL_MAX_RANK * 21 + 32];
  if (rank > GRT_HAL_MAX_RANK) {
    snprintf(expected, sizeof(expected), "a tensor of rank %zu", rank);
  } else {
    grt_hal_tensor_type_format(shape, rank, element_type, expected,
                               sizeof(expected));
  }
  grt_hal_buffer_view_format_type(view, got, sizeof(got));
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT, "expected %s, got %s",
                         expected, got);
}

//===----------------------------------------------------------------------===//
// f16 / bf16
//===----------------------------------------------------------------------===//

static uint32_t grt_f32_bits(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  return bits;
}

static float grt_f32_from_bits(uint32_t bits) {
  float value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}

float grt_hal_f16_to_f32(uint16_t value) {
  uint32_t sign = (uint32_t)(value & 0x8000u) << 16;
  uint32_t exponent = (value >> 10) & 0x1Fu;
  uint32_t mantissa = value & 0x3FFu;
  if (exponent == 0x1F) {  // inf / nan, payload kept
    return grt_f32_from_bits(sign | 0x7F800000u | (mantissa << 13));
  }
  if (exponent == 0) {
    if (mantissa == 0) return grt_f32_from_bits(sign);
    // Subnormal: shift the leading 1 up to the implicit bit position.
    int shift = 0;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      ++shift;
    }
    mantissa &= 0x3FFu;
    uint32_t f32_exponent = (uint32_t)(127 - 15 + 1 - shift);
    return grt_f32_from_bits(sign | (f32_exponent << 23) | (mantissa << 13));
  }
  return grt_f32_from_bits(sign | ((exponent + 127 - 15) << 23) |
                           (mantissa << 13));
}

// Shifts |value| right by |shift| rounding to nearest, ties to even.
static uint32_t grt_shift_right_rne(uint32_t value, uint32_t shift) {
  if (shift == 0) return value;
  if (shift > 31) return 0;
  uint32_t quotient = value >> shift;
  uint32_t remainder = value & ((1u << shift) - 1u);
  uint32_t half = 1u << (shift - 1);
  if (remainder > half || (remainder == half && (quotient & 1u))) ++quotient;
  return quotient;
}

uint16_t grt_hal_f32_to_f16(float value) {
  uint32_t bits = grt_f32_bits(value);
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
  uint32_t magnitude = bits & 0x7FFFFFFFu;
  if (magnitude >= 0x7F800000u) {
    if (magnitude == 0x7F800000u) return (uint16_t)(sign | 0x7C00u);
    // NaN: keep the top payload bits and force quiet so it stays a NaN.
    return (uint16_t)(sign | 0x7E00u | ((magnitude >> 13) & 0x3FFu));
  }
  // 65520 and above round to infinity (65504 is the largest half).
  if (magnitude >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u);
  uint32_t exponent = magnitude >> 23;
  if (exponent < 113) {
    // Below the smallest normal half (2^-14): a subnormal in units of
    // 2^-24. The rounding may carry into the smallest normal, which is the
    // right encoding.
    if (exponent == 0) return sign;  // f32 subnormals are far below 2^-24
    uint32_t mantissa = (magnitude & 0x7FFFFFu) | 0x800000u;
    return (uint16_t)(sign | grt_shift_right_rne(mantissa, 126 - exponent));
  }
  // Normal: rebias and round the mantissa; a carry correctly bumps the
  // exponent.
  uint32_t half = ((exponent - 112) << 10) | ((magnitude & 0x7FFFFFu) >> 13);
  uint32_t remainder = magnitude & 0x1FFFu;
  if (remainder > 0x1000u || (remainder == 0x1000u && (half & 1u))) ++half;
  return (uint16_t)(sign | half);
}

float grt_hal_bf16_to_f32(uint16_t value) {
  return grt_f32_from_bits((uint32_t)value << 16);
}

uint16_t grt_hal_f32_to_bf16(float value) {
  uint32_t bits = grt_f32_bits(value);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) {
    return (uint16_t)((bits >> 16) | 0x40u);  // quiet NaN, sign kept
  }
  // Rounding overflow into the exponent gives infinity, as it should.
  uint32_t rounding = 0x7FFFu + ((bits >> 16) & 1u);
  return (uint16_t)((bits + rounding) >> 16);
}

//===----------------------------------------------------------------------===//
// Parsing element text
//===----------------------------------------------------------------------===//

// Parses an optionally signed decimal or 0x integer into sign + magnitude.
static bool grt_parse_integer_text(grt_string_view_t text, bool* out_negative,
                                   uint64_t* out_magnitude, bool* out_overflow) {
  *out_negative = false;
  *out_magnitude = 0;
  *out_overflow = false;
  size_t i = 0;
  if (i < text.size && (text.data[i] == '-' || text.data[i] == '+')) {
    *out_negative = text.data[i] == '-';
    ++i;
  }
  unsigned base = 10;
  if (i + 1 < text.size && text.data[i] == '0' &&
      (text.data[i + 1] == 'x' || text.data[i + 1] == 'X')) {
    base = 16;
    i += 2;
  }
  if (i == text.size) return false;
  uint64_t value = 0;
  for (; i < text.size; ++i) {
    char c = text.data[i];
    unsigned digit;
    if (c >= '0' && c <= '9') {
      digit = (unsigned)(c - '0');
    } else if (base == 16 && c >= 'a' && c <= 'f') {
      digit = (unsigned)(c - 'a' + 10);
    } else if (base == 16 && c >= 'A' && c <= 'F') {
      digit = (unsigned)(c - 'A' + 10);
    } else {
      return false;
    }
    if (value > (UINT64_MAX - digit) / base) *out_overflow = true;
    value = value * base + digit;
  }
  *out_magnitude = value;
  return true;
}

// Writes one element parsed from |token| to |out| (element |index| of
// |count|, for messages).
static grt_status_t grt_hal_parse_element(grt_string_view_t token,
                                          grt_hal_element_type_t type,
                                          uint64_t index, uint64_t count,
                                          void* out) {
  uint32_t kind = grt_hal_element_type_kind(type);
  uint32_t bits = grt_hal_element_type_bits(type);
  const char* type_name = grt_hal_element_type_name(type);
  if (type == GRT_HAL_ELEMENT_TYPE_BOOL) {
    uint8_t value;
    if (grt_string_view_equal_cstring(token, "true") ||
        grt_string_view_equal_cstring(token, "1")) {
      value = 1;
    } else if (grt_string_view_equal_cstring(token, "false") ||
               grt_string_view_equal_cstring(token, "0")) {
      value = 0;
    } else {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "element %" PRIu64 " of %" PRIu64
                             ": '%.*s' is not a boolean (0, 1, true, false)",
                             index, count, GRT_SV_ARG(token));
    }
    memcpy(out, &value, 1);
    return grt_ok_status();
  }
  if (kind == GRT_HAL_NUMERICAL_INTEGER || kind == GRT_HAL_NUMERICAL_UNSIGNED) {
    bool negative = false;
    bool overflow = false;
    uint64_t magnitude = 0;
    if (!grt_parse_integer_text(token, &negative, &magnitude, &overflow)) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "element %" PRIu64 " of %" PRIu64
                             ": '%.*s' is not an integer",
                             index, count, GRT_SV_ARG(token));
    }
    // Signless integers accept both the signed and the unsigned range of
    // their width (as MLIR's i8 accepts -1 and 255); unsigned ones only the
    // unsigned range.
    uint64_t max_unsigned = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    uint64_t max_negative =
        kind == GRT_HAL_NUMERICAL_UNSIGNED ? 0 : ((uint64_t)1 << (bits - 1));
    bool in_range = !overflow && (negative ? magnitude <= max_negative
                                           : magnitude <= max_unsigned);
    if (!in_range) {
      if (kind == GRT_HAL_NUMERICAL_UNSIGNED) {
        return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                               "element %" PRIu64 " of %" PRIu64
                               ": '%.*s' is out of range for %s [0, %" PRIu64
                               "]",
                               index, count, GRT_SV_ARG(token), type_name,
                               max_unsigned);
      }
      return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                             "element %" PRIu64 " of %" PRIu64
                             ": '%.*s' is out of range for %s [-%" PRIu64
                             ", %" PRIu64 "]",
                             index, count, GRT_SV_ARG(token), type_name,
                             max_negative, max_unsigned);
    }
    uint64_t value = negative ? (uint64_t)0 - magnitude : magnitude;
    // Little-endian hosts only (as the rest of the runtime); the low bytes
    // of the two's-complement value are the element.
    switch (bits) {
      case 2:
      case 4:
      case 8: {
        uint8_t v = (uint8_t)value;
        memcpy(out, &v, sizeof(v));
        break;
      }
      case 16: {
        uint16_t v = (uint16_t)value;
        memcpy(out, &v, sizeof(v));
        break;
      }
      case 32: {
        uint32_t v = (uint32_t)value;
        memcpy(out, &v, sizeof(v));
        break;
      }
      default:
        memcpy(out, &value, sizeof(value));
        break;
    }
    return grt_ok_status();
  }
  // Floats: strtod needs a NUL-terminated copy; tokens are short.
  char buffer[64];
  if (token.size >= sizeof(buffer)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "element %" PRIu64 " of %" PRIu64
                           ": '%.*s' is not a number",
                           index, count, GRT_SV_ARG(token));
  }
  memcpy(buffer, token.data, token.size);
  buffer[token.size] = '\0';
  char* end = NULL;
  double value = strtod(buffer, &end);
  if (token.size == 0 || end != buffer + token.size) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "element %" PRIu64 " of %" PRIu64
                           ": '%.*s' is not a number",
                           index, count, GRT_SV_ARG(token));
  }
  if (bits == 64) {
    memcpy(out, &value, sizeof(value));
    return grt_ok_status();
  }
  if (isfinite(value) && fabs(value) > FLT_MAX) {
    // Converting would be undefined behaviour in C, and silently making
    // infinity from a finite literal hides typos.
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "element %" PRIu64 " of %" PRIu64
                           ": '%.*s' is out of range for %s",
                           index, count, GRT_SV_ARG(token), type_name);
  }
  float f = (float)value;
  if (bits == 32) {
    memcpy(out, &f, sizeof(f));
    return grt_ok_status();
  }
  uint16_t half = kind == GRT_HAL_NUMERICAL_FLOAT_BRAIN ? grt_hal_f32_to_bf16(f)
                                                        : grt_hal_f32_to_f16(f);
  memcpy(out, &half, sizeof(half));
  return grt_ok_status();
}

static bool grt_is_element_separator(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f' || c == ',' || c == '[' || c == ']';
}

// Checks the brackets of |text| balance and, with a shape, that they nest
// as it says: either fully ("[[1 2][3 4]]") or without the outermost pair,
// as IREE prints ("[1 2][3 4]"); or one pair around the whole flat list
// ("[1 2 3 4]"), as IREE's tests write inputs.
static grt_status_t grt_hal_check_brackets(grt_string_view_t text,
                                           const grt_hal_dim_t* shape,
                                           size_t rank) {
  size_t depth = 0;
  size_t max_depth = 0;
  for (size_t i = 0; i < text.size; ++i) {
    if (text.data[i] == '[') {
      if (++depth > max_depth) max_depth = depth;
    } else if (text.data[i] == ']') {
      if (depth == 0) {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "unmatched ']' at position %zu", i);
      }
      --depth;
    }
  }
  if (depth != 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%zu '[' not closed at the end", depth);
  }
  if (!shape || max_depth == 0) return grt_ok_status();
  if (max_depth == 1 && rank > 1) {
    // One pair of brackets around the whole flat list ("[1, 2, 3, 4]" for
    // 2x2, as IREE's tests write inputs) is the flat list; several groups
    // at one level must each be an innermost row.
    size_t groups = 0;
    for (size_t i = 0; i < text.size; ++i) groups += text.data[i] == '[';
    size_t first = 0, last = text.size;
    while (first < last && grt_is_element_separator(text.data[first]) &&
           text.data[first] != '[') {
      ++first;
    }
    while (last > first && grt_is_element_separator(text.data[last - 1]) &&
           text.data[last - 1] != ']') {
      --last;
    }
    if (groups == 1 && first < last && text.data[first] == '[' && text.data[last - 1] == ']') {
      return grt_ok_status();
    }
  }
  if (max_depth > rank) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "brackets nest %zu deep but the shape has rank %zu",
                           max_depth, rank);
  }
  // Entries inside |d| brackets index dimension first_dim + d - 1; the top
  // level holds the product of the dimensions no bracket spells (1 when
  // fully bracketed, shape[0] in IREE's form).
  size_t first_dim = rank - max_depth;
  uint64_t entries[GRT_HAL_MAX_RANK + 1] = {0};
  depth = 0;
  for (size_t i = 0; i < text.size;) {
    char c = text.data[i];
    if (c == '[') {
      ++entries[depth];
      entries[++depth] = 0;
      ++i;
      continue;
    }
    if (c == ']') {
      size_t dim = first_dim + depth - 1;
      if (entries[depth] != (uint64_t)shape[dim]) {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "bracket group closed at position %zu has "
                               "%" PRIu64 " entries but dimension %zu is %" PRId64,
                               i, entries[depth], dim, shape[dim]);
      }
      --depth;
      ++i;
      continue;
    }
    if (grt_is_element_separator(c)) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size && !grt_is_element_separator(text.data[i])) ++i;
    if (depth != max_depth) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "value at position %zu is outside the innermost "
                             "brackets",
                             start);
    }
    ++entries[depth];
  }
  uint64_t top = 1;
  for (size_t d = 0; d < first_dim; ++d) top *= (uint64_t)shape[d];
  if (entries[0] != top) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%" PRIu64 " top-level bracket groups, expected %" PRIu64,
                           entries[0], top);
  }
  return grt_ok_status();
}

// "2 groups of 3 groups of 4 values": how brackets must nest for |shape|.
static void grt_hal_describe_nesting(const grt_hal_dim_t* shape, size_t rank,
                                     char* out, size_t capacity) {
  size_t used = 0;
  out[0] = '\0';
  if (rank == 1) {
    snprintf(out, capacity, "one group of %" PRId64 " value%s", shape[0],
             shape[0] == 1 ? "" : "s");
    return;
  }
  for (size_t d = 0; d < rank && used < capacity; ++d) {
    bool last = d + 1 == rank;
    int n = snprintf(out + used, capacity - used, "%" PRId64 " %s%s",
                     shape[d],
                     last ? (shape[d] == 1 ? "value" : "values")
                          : (shape[d] == 1 ? "group" : "groups"),
                     last ? "" : " of ");
    if (n < 0) break;
    used += (size_t)n;
  }
}

static grt_status_t grt_hal_parse_elements_impl(
    grt_string_view_t text, const grt_hal_dim_t* shape, size_t rank,
    grt_hal_element_type_t type, uint64_t element_count, void* out_data,
    size_t out_capacity) {
  if (!grt_hal_element_type_is_known(type)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "unknown element type 0x%08" PRIx32, type);
  }
  size_t element_size = grt_hal_element_type_byte_size(type);
  uint64_t needed = 0;
  if (!grt_hal_element_type_dense_bytes(type, element_count, &needed) ||
      needed > out_capacity) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "%" PRIu64 " elements of %s do not fit in %zu bytes",
                           element_count, grt_hal_element_type_name(type),
                           out_capacity);
  }
  grt_status_t brackets = grt_hal_check_brackets(text, shape, rank);
  if (!grt_status_is_ok(brackets) && shape) {
    // Say what the shape wants and what was given, not only where they
    // part: "2x2xf32 needs 2 groups of 2 values ..., given '[[1][2]...'".
    char type_text[GRT_HAL_MAX_RANK * 21 + 32];
    grt_hal_shape_format(shape, rank, type, type_text, sizeof(type_text));
    char nesting[GRT_HAL_MAX_RANK * 32 + 32];
    grt_hal_describe_nesting(shape, rank, nesting, sizeof(nesting));
    bool cut = text.size > 64;
    return grt_status_annotate(brackets,
                               "%s needs %s (the outermost brackets may be "
                               "left out), given '%.*s%s'",
                               type_text, nesting, cut ? 64 : (int)text.size,
                               text.data, cut ? "..." : "");
  }
  GRT_RETURN_IF_ERROR(brackets);
  uint8_t* out = (uint8_t*)out_data;
  // Packed types: the fields are ORed into zeroed bytes.
  bool packed = grt_hal_element_type_is_packed(type);
  uint32_t bits = grt_hal_element_type_bits(type);
  uint8_t mask = (uint8_t)((1u << (bits < 8 ? bits : 0)) - 1u);
  if (packed && needed) memset(out, 0, (size_t)needed);
  uint64_t parsed = 0;
  for (size_t i = 0; i < text.size;) {
    if (grt_is_element_separator(text.data[i])) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size && !grt_is_element_separator(text.data[i])) ++i;
    grt_string_view_t token = grt_make_string_view(text.data + start, i - start);
    // Tokens past the expected count are only counted: the count error
    // says more than a value error for the extra one would.
    if (parsed < element_count && packed) {
      // One element's field, ORed into its place in the packed bytes.
      uint8_t field = 0;
      GRT_RETURN_IF_ERROR(grt_hal_parse_element(token, type, parsed,
                                                element_count, &field));
      out[parsed * bits / 8] |= (uint8_t)((field & mask) << (parsed * bits % 8));
    } else if (parsed < element_count) {
      GRT_RETURN_IF_ERROR(grt_hal_parse_element(token, type, parsed,
                                                element_count,
                                                out + parsed * element_size));
    }
    ++parsed;
  }
  if (parsed == 1 && element_count > 1 && packed) {
    uint8_t field = out[0] & mask;
    for (uint64_t i = 1; i < element_count; ++i) {
      out[i * bits / 8] |= (uint8_t)(field << (i * bits % 8));
    }
    return grt_ok_status();
  }
  if (parsed == 1 && element_count > 1) {
    for (uint64_t i = 1; i < element_count; ++i) {
      memcpy(out + i * element_size, out, element_size);
    }
    return grt_ok_status();
  }
  if (parsed == 1 && element_count == 0) {
    return grt_ok_status();  // a splat of an empty tensor
  }
  if (parsed != element_count) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "expected %" PRIu64 " elements, got %" PRIu64,
                           element_count, parsed);
  }
  return grt_ok_status();
}

grt_status_t grt_hal_parse_elements(grt_string_view_t text,
                                    grt_hal_element_type_t type,
                                    uint64_t element_count, void* out_data,
                                    size_t out_capacity) {
  return grt_hal_parse_elements_impl(text, NULL, 0, type, element_count,
                                     out_data, out_capacity);
}

grt_status_t grt_hal_parse_shaped_elements(grt_string_view_t text,
                                           const grt_hal_dim_t* shape,
                                           size_t rank,
                                           grt_hal_element_type_t type,
                                           void* out_data,
                                           size_t out_capacity) {
  if (rank > GRT_HAL_MAX_RANK) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "rank %zu exceeds the maximum of %d", rank,
                           GRT_HAL_MAX_RANK);
  }
  uint64_t count = 0;
  GRT_RETURN_IF_ERROR(grt_hal_shape_element_count(shape, rank, &count));
  return grt_hal_parse_elements_impl(text, shape, rank, type, count, out_data,
                                     out_capacity);
}

//===----------------------------------------------------------------------===//
// Formatting element text
//===----------------------------------------------------------------------===//

typedef struct grt_text_writer_t {
  char* out;
  size_t capacity;
  size_t length;  // what was needed so far, even past capacity
} grt_text_writer_t;

static void grt_text_writer_printf(grt_text_writer_t* w, const char* format,
                                   ...) GRT_PRINTF_LIKE(2, 3);
static void grt_text_writer_printf(grt_text_writer_t* w, const char* format,
                                   ...) {
  va_list args;
  va_start(args, format);
  bool room = w->length < w->capacity;
  int n = vsnprintf(room ? w->out + w->length : NULL,
                    room ? w->capacity - w->length : 0, format, args);
  va_end(args);
  if (n > 0) w->length += (size_t)n;
}

static void grt_hal_format_element(grt_text_writer_t* w, const uint8_t* p,
                                   grt_hal_element_type_t type) {
  uint32_t kind = grt_hal_element_type_kind(type);
  uint32_t bits = grt_hal_element_type_bits(type);
  if (type == GRT_HAL_ELEMENT_TYPE_BOOL) {
    grt_text_writer_printf(w, "%d", p[0] ? 1 : 0);
    return;
  }
  if (kind == GRT_HAL_NUMERICAL_INTEGER || kind == GRT_HAL_NUMERICAL_UNSIGNED) {
    bool is_signed = kind == GRT_HAL_NUMERICAL_INTEGER;
    switch (bits) {
      case 2:  // i2/ui2/i4/ui4: one field, extended into a byte
      case 4:
      case 8: {
        uint8_t v;
        memcpy(&v, p, sizeof(v));
        if (is_signed) {
          grt_text_writer_printf(w, "%d", (int)(int8_t)v);
        } else {
          grt_text_writer_printf(w, "%u", (unsigned)v);
        }
        return;
      }
      case 16: {
        uint16_t v;
        memcpy(&v, p, sizeof(v));
        if (is_signed) {
          grt_text_writer_printf(w, "%d", (int)(int16_t)v);
        } else {
          grt_text_writer_printf(w, "%u", (unsigned)v);
        }
        return;
      }
      case 32: {
        uint32_t v;
        memcpy(&v, p, sizeof(v));
        if (is_signed) {
          grt_text_writer_printf(w, "%" PRId32, (int32_t)v);
        } else {
          grt_text_writer_printf(w, "%" PRIu32, v);
        }
        return;
      }
      default: {
        uint64_t v;
        memcpy(&v, p, sizeof(v));
        if (is_signed) {
          grt_text_writer_printf(w, "%" PRId64, (int64_t)v);
        } else {
          grt_text_writer_printf(w, "%" PRIu64, v);
        }
        return;
      }
    }
  }
  double value;
  if (bits == 64) {
    memcpy(&value, p, sizeof(value));
  } else if (bits == 32) {
    float f;
    memcpy(&f, p, sizeof(f));
    value = f;
  } else {
    uint16_t half;
    memcpy(&half, p, sizeof(half));
    value = kind == GRT_HAL_NUMERICAL_FLOAT_BRAIN ? grt_hal_bf16_to_f32(half)
                                                  : grt_hal_f16_to_f32(half);
  }
  // "nan" rather than "-nan": the sign of a NaN means nothing to a reader.
  if (isnan(value)) {
    grt_text_writer_printf(w, "nan");
  } else {
    grt_text_writer_printf(w, "%g", value);
  }
}

size_t grt_hal_format_elements(const void* data, const grt_hal_dim_t* shape,
                               size_t rank, grt_hal_element_type_t type,
                               size_t max_elements, char* out,
                               size_t capacity) {
  grt_text_writer_t w = {out, capacity, 0};
  if (capacity) out[0] = '\0';
  uint64_t count = 0;
  if (rank > GRT_HAL_MAX_RANK || !grt_hal_element_type_is_known(type) ||
      !grt_status_consume_ok(grt_hal_shape_element_count(shape, rank, &count))) {
    grt_text_writer_printf(&w, "<invalid tensor>");
    return w.length;
  }
  // span[d]: elements covered by one bracket group of dimension d (d >= 1;
  // IREE prints no brackets around the outermost dimension).
  uint64_t span[GRT_HAL_MAX_RANK + 1];
  span[rank] = 1;
  for (size_t d = rank; d-- > 0;) span[d] = span[d + 1] * (uint64_t)shape[d];
  size_t element_size = grt_hal_element_type_byte_size(type);
  const uint8_t* bytes = (const uint8_t*)data;
  uint64_t innermost = rank ? (uint64_t)shape[rank - 1] : 1;
  for (uint64_t i = 0; i < count; ++i) {
    if (max_elements && i == max_elements) {
      grt_text_writer_printf(&w, "...");
      break;
    }
    for (size_t d = 1; d < rank; ++d) {
      if (i % span[d] == 0) grt_text_writer_printf(&w, "[");
    }
    if (rank && i % innermost != 0) grt_text_writer_printf(&w, " ");
    if (grt_hal_element_type_is_packed(type)) {
      uint8_t byte = grt_hal_packed_element(type, bytes, i);
      grt_hal_format_element(&w, &byte, type);
    } else {
      grt_hal_format_element(&w, bytes + i * element_size, type);
    }
    for (size_t d = rank; d-- > 1;) {
      if ((i + 1) % span[d] == 0) grt_text_writer_printf(&w, "]");
    }
  }
  return w.length;
}
