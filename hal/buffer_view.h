// Buffer views: a buffer plus the shape and element type of the dense,
// row-major tensor it holds. This is what crosses every API boundary
// (the embedding API, grt-run's --input/--output, the hal VM module).
//
// Also the one text form of tensors, as IREE spells it:
//   "2x2xf32=1 2 3 4", "2x2xf32=[1 2][3 4]", "2x2xf32=0" (splat),
//   "f32=1.5" (a scalar, rank 0), "4xi1=1 0 1 1"
// parsed into host bytes and printed back from host bytes.
#ifndef GRT_HAL_BUFFER_VIEW_H_
#define GRT_HAL_BUFFER_VIEW_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"
#include "hal/buffer.h"
#include "hal/resource.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRT_HAL_MAX_RANK 16

typedef int64_t grt_hal_dim_t;

// Element types: (numerical kind << 24) | bits. i1 is one byte per element
// (0 or 1); i2, ui2, i4 and ui4 are packed (docs/module-format.md,
// "Sub-byte integer tensors"): a dense tensor of n of them takes
// ceil(n * bits / 8) bytes, element e (row-major over the whole tensor) in
// bits (e * bits) % 8 upwards of byte e * bits / 8, two's complement for
// the signless types; the unused high bits of the last byte are 0.
typedef uint32_t grt_hal_element_type_t;
enum {
  GRT_HAL_NUMERICAL_INTEGER = 0x10,  // signless (i8 ... i64, i1)
  GRT_HAL_NUMERICAL_UNSIGNED = 0x12,
  GRT_HAL_NUMERICAL_FLOAT_IEEE = 0x21,
  GRT_HAL_NUMERICAL_FLOAT_BRAIN = 0x22,
};
#define GRT_HAL_ELEMENT_TYPE(kind, bits) \
  ((grt_hal_element_type_t)(((uint32_t)(kind) << 24) | (uint32_t)(bits)))
// X(NAME, mlir spelling, kind, bits): the one table of element types.
#define GRT_HAL_ELEMENT_TYPE_LIST(X)                 \
  X(BOOL, "i1", GRT_HAL_NUMERICAL_INTEGER, 1)        \
  X(INT_2, "i2", GRT_HAL_NUMERICAL_INTEGER, 2)       \
  X(INT_4, "i4", GRT_HAL_NUMERICAL_INTEGER, 4)       \
  X(INT_8, "i8", GRT_HAL_NUMERICAL_INTEGER, 8)       \
  X(INT_16, "i16", GRT_HAL_NUMERICAL_INTEGER, 16)    \
  X(INT_32, "i32", GRT_HAL_NUMERICAL_INTEGER, 32)    \
  X(INT_64, "i64", GRT_HAL_NUMERICAL_INTEGER, 64)    \
  X(UINT_2, "ui2", GRT_HAL_NUMERICAL_UNSIGNED, 2)    \
  X(UINT_4, "ui4", GRT_HAL_NUMERICAL_UNSIGNED, 4)    \
  X(UINT_8, "ui8", GRT_HAL_NUMERICAL_UNSIGNED, 8)    \
  X(UINT_16, "ui16", GRT_HAL_NUMERICAL_UNSIGNED, 16) \
  X(UINT_32, "ui32", GRT_HAL_NUMERICAL_UNSIGNED, 32) \
  X(UINT_64, "ui64", GRT_HAL_NUMERICAL_UNSIGNED, 64) \
  X(FLOAT_16, "f16", GRT_HAL_NUMERICAL_FLOAT_IEEE, 16) \
  X(BFLOAT_16, "bf16", GRT_HAL_NUMERICAL_FLOAT_BRAIN, 16) \
  X(FLOAT_32, "f32", GRT_HAL_NUMERICAL_FLOAT_IEEE, 32) \
  X(FLOAT_64, "f64", GRT_HAL_NUMERICAL_FLOAT_IEEE, 64)
enum {
  GRT_HAL_ELEMENT_TYPE_NONE = 0,
#define GRT_HAL_ELEMENT_TYPE_ENUM(name, text, kind, bits) \
  GRT_HAL_ELEMENT_TYPE_##name = GRT_HAL_ELEMENT_TYPE(kind, bits),
  GRT_HAL_ELEMENT_TYPE_LIST(GRT_HAL_ELEMENT_TYPE_ENUM)
#undef GRT_HAL_ELEMENT_TYPE_ENUM
};

static inline uint32_t grt_hal_element_type_bits(grt_hal_element_type_t t) {
  return t & 0xFFFFFFu;
}
static inline uint32_t grt_hal_element_type_kind(grt_hal_element_type_t t) {
  return t >> 24;
}
// Bytes per element (i1 -> 1; the packed i2/ui2/i4/ui4 -> 1, the byte
// one element is read into: use grt_hal_element_type_dense_bytes for a
// tensor's size).
static inline size_t grt_hal_element_type_byte_size(grt_hal_element_type_t t) {
  return (grt_hal_element_type_bits(t) + 7) / 8;
}
// True for i2, ui2, i4 and ui4: several elements to a byte.
static inline bool grt_hal_element_type_is_packed(grt_hal_element_type_t t) {
  uint32_t bits = grt_hal_element_type_bits(t);
  return bits == 2 || bits == 4;
}
// The bytes of a dense tensor of |count| elements of |t| (packed types:
// ceil(count * bits / 8)); false when that overflows 64 bits.
bool grt_hal_element_type_dense_bytes(grt_hal_element_type_t t, uint64_t count,
                                      uint64_t* out_bytes);
// Element |index| of the packed |type| (i2/ui2/i4/ui4) at |packed|, in a
// byte: sign-extended for the signless types, zero-extended for ui2/ui4.
uint8_t grt_hal_packed_element(grt_hal_element_type_t type, const void* packed,
                               uint64_t index);
// True for the types of GRT_HAL_ELEMENT_TYPE_LIST.
bool grt_hal_element_type_is_known(grt_hal_element_type_t type);
// "f32"; "unknown" for anything else.
const char* grt_hal_element_type_name(grt_hal_element_type_t type);
// Parses "f32", "i1", "ui8" (also "u8" and "si8".."si64" as aliases), else
// INVALID_ARGUMENT "unknown element type 'x'; expected one of i1, i8, ...".
grt_status_t grt_hal_element_type_parse(grt_string_view_t text,
                                        grt_hal_element_type_t* out_type)
    GRT_MUST_USE;

// Element count of |shape| (1 for rank 0) with overflow checking.
grt_status_t grt_hal_shape_element_count(const grt_hal_dim_t* shape,
                                         size_t rank, uint64_t* out_count)
    GRT_MUST_USE;
// Formats "4x16xf32" ("f32" for rank 0; a negative dim as "?") into |out|;
// returns the length it needed (like snprintf).
size_t grt_hal_shape_format(const grt_hal_dim_t* shape, size_t rank,
                            grt_hal_element_type_t type, char* out,
                            size_t capacity);
// Parses "4x16xf32" (the part before '=' of a tensor literal). Errors name
// the text: "bad shape '4xx2xf32': empty dimension at position 2".
grt_status_t grt_hal_shape_parse(grt_string_view_t text, size_t shape_capacity,
                                 grt_hal_dim_t* out_shape, size_t* out_rank,
                                 grt_hal_element_type_t* out_type) GRT_MUST_USE;

typedef struct grt_hal_buffer_view_t grt_hal_buffer_view_t;

// Creates a view of |buffer| (retained) with |shape| (copied). The buffer
// must hold at least the tensor's dense bytes (grt_hal_element_type_dense_bytes), else
// OUT_OF_RANGE "buffer of 60 bytes is too small for tensor<4x4xf32> (64
// bytes)". Rank <= GRT_HAL_MAX_RANK; dims >= 0; element type known.
grt_status_t grt_hal_buffer_view_create(grt_hal_buffer_t* buffer,
                                        const grt_hal_dim_t* shape, size_t rank,
                                        grt_hal_element_type_t element_type,
                                        grt_allocator_t host_allocator,
                                        grt_hal_buffer_view_t** out_view)
    GRT_MUST_USE;
void grt_hal_buffer_view_retain(grt_hal_buffer_view_t* view);
void grt_hal_buffer_view_release(grt_hal_buffer_view_t* view);

grt_hal_buffer_t* grt_hal_buffer_view_buffer(const grt_hal_buffer_view_t* view);
size_t grt_hal_buffer_view_rank(const grt_hal_buffer_view_t* view);
const grt_hal_dim_t* grt_hal_buffer_view_shape(const grt_hal_buffer_view_t* view);
grt_hal_dim_t grt_hal_buffer_view_dim(const grt_hal_buffer_view_t* view,
                                      size_t index);
grt_hal_element_type_t grt_hal_buffer_view_element_type(
    const grt_hal_buffer_view_t* view);
uint64_t grt_hal_buffer_view_element_count(const grt_hal_buffer_view_t* view);
// The dense bytes of the view (element_count * element byte size; packed
// for i2/ui2/i4/ui4).
uint64_t grt_hal_buffer_view_byte_length(const grt_hal_buffer_view_t* view);
// "tensor<4x16xf32>" into |out| (like snprintf).
size_t grt_hal_buffer_view_format_type(const grt_hal_buffer_view_t* view,
                                       char* out, size_t capacity);

// OK when |view| has exactly |shape| and |element_type| (a negative dim
// of |shape| matches any size: a symbolic dimension), else
// INVALID_ARGUMENT "expected tensor<4x16xf32>, got tensor<4x15xf32>"
// ("expected tensor<?x16xf32>, ..." for any size).
grt_status_t grt_hal_buffer_view_check(const grt_hal_buffer_view_t* view,
                                       const grt_hal_dim_t* shape, size_t rank,
                                       grt_hal_element_type_t element_type)
    GRT_MUST_USE;

//===----------------------------------------------------------------------===//
// Text form of tensor contents (host bytes; no device involved)
//===----------------------------------------------------------------------===//

// Parses element text "1 2 3 4", "[1 2][3 4]" (brackets and commas are
// separators and are checked to nest as the shape says when present), or a
// single value as a splat, into |element_count| elements of |type| at
// |out_data| (|out_capacity| bytes). Values: decimal or 0x integers (range
// checked for the type), floats incl. inf/-inf/nan, true/false for i1.
// Errors say which element and why: "element 3 of 4: '1.5x' is not a
// number", "expected 4 elements, got 3".
grt_status_t grt_hal_parse_elements(grt_string_view_t text,
                                    grt_hal_element_type_t type,
                                    uint64_t element_count, void* out_data,
                                    size_t out_capacity) GRT_MUST_USE;
// As grt_hal_parse_elements for a tensor of |shape| (element count taken
// from it), also checking that brackets, when present, nest as the shape
// says: "[[1 2][3 4]]" or IREE's "[1 2][3 4]" for 2x2.
grt_status_t grt_hal_parse_shaped_elements(grt_string_view_t text,
                                           const grt_hal_dim_t* shape,
                                           size_t rank,
                                           grt_hal_element_type_t type,
                                           void* out_data, size_t out_capacity)
    GRT_MUST_USE;

// Formats host bytes as IREE prints them: "[1 2][3 4]" for 2x2, "1.5" for
// a scalar; floats with up to 6 significant digits (%g), f16/bf16 via f32.
// At most |max_elements| elements are printed ("..." after them); 0 means
// all. Returns the length it needed (like snprintf).
size_t grt_hal_format_elements(const void* data, const grt_hal_dim_t* shape,
                               size_t rank, grt_hal_element_type_t type,
                               size_t max_elements, char* out, size_t capacity);

// IEEE half and bfloat16 conversions (round to nearest even).
float grt_hal_f16_to_f32(uint16_t value);
uint16_t grt_hal_f32_to_f16(float value);
float grt_hal_bf16_to_f32(uint16_t value);
uint16_t grt_hal_f32_to_bf16(float value);

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_BUFFER_VIEW_H_
