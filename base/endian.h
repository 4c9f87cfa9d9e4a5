// Little-endian loads and stores: how grt reads and writes every multi-byte
// value in a module file, bytecode operand or FlatBuffer field.
//
// Those bytes are little-endian on disk and may sit at any address, so each
// access goes through memcpy (which compilers turn into one plain load or
// store on hosts that allow unaligned access) and swaps bytes only on a
// big-endian host. Never cast a byte pointer to a wider type instead: that is
// undefined behaviour when the address is misaligned.
#ifndef GRT_BASE_ENDIAN_H_
#define GRT_BASE_ENDIAN_H_

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define GRT_HOST_BIG_ENDIAN 1
#else
#define GRT_HOST_BIG_ENDIAN 0
#endif

// Byte reversal written with shifts, which gcc and clang recognize as one
// bswap instruction; kept portable for compilers without the builtins.
static inline uint16_t grt_byte_swap_u16(uint16_t value) {
  return (uint16_t)((value >> 8) | (value << 8));
}

static inline uint32_t grt_byte_swap_u32(uint32_t value) {
  return ((value & 0x000000FFu) << 24) | ((value & 0x0000FF00u) << 8) |
         ((value & 0x00FF0000u) >> 8) | ((value & 0xFF000000u) >> 24);
}

static inline uint64_t grt_byte_swap_u64(uint64_t value) {
  return ((uint64_t)grt_byte_swap_u32((uint32_t)value) << 32) |
         grt_byte_swap_u32((uint32_t)(value >> 32));
}

static inline uint8_t grt_load_le_u8(const void* ptr) {
  uint8_t value;
  memcpy(&value, ptr, sizeof(value));
  return value;
}

static inline void grt_store_le_u8(void* ptr, uint8_t value) {
  memcpy(ptr, &value, sizeof(value));
}

// The unsigned widths are the primitives; everything else reinterprets their
// bits (below), so the swap logic exists once per width.
#define GRT_ENDIAN_DEFINE_UNSIGNED_(bits)                                   \
  static inline uint##bits##_t grt_load_le_u##bits(const void* ptr) {       \
    uint##bits##_t value;                                                   \
    memcpy(&value, ptr, sizeof(value));                                     \
    return GRT_HOST_BIG_ENDIAN ? grt_byte_swap_u##bits(value) : value;      \
  }                                                                         \
  static inline void grt_store_le_u##bits(void* ptr, uint##bits##_t value) { \
    if (GRT_HOST_BIG_ENDIAN) value = grt_byte_swap_u##bits(value);          \
    memcpy(ptr, &value, sizeof(value));                                     \
  }
GRT_ENDIAN_DEFINE_UNSIGNED_(16)
GRT_ENDIAN_DEFINE_UNSIGNED_(32)
GRT_ENDIAN_DEFINE_UNSIGNED_(64)
#undef GRT_ENDIAN_DEFINE_UNSIGNED_

// One row per reinterpreted type: name suffix, C type, unsigned width.
// memcpy between the unsigned bits and the type keeps signed and float
// conversions exact (no implementation-defined narrowing, no FP rounding).
#define GRT_ENDIAN_REINTERPRETED_TYPES_(X) \
  X(i8, int8_t, 8)                         \
  X(i16, int16_t, 16)                      \
  X(i32, int32_t, 32)                      \
  X(i64, int64_t, 64)                      \
  X(f32, float, 32)                        \
  X(f64, double, 64)

#define GRT_ENDIAN_DEFINE_REINTERPRETED_(name, type, bits)            \
  static inline type grt_load_le_##name(const void* ptr) {            \
    uint##bits##_t raw = grt_load_le_u##bits(ptr);                    \
    type value;                                                       \
    memcpy(&value, &raw, sizeof(value));                              \
    return value;                                                     \
  }                                                                   \
  static inline void grt_store_le_##name(void* ptr, type value) {     \
    uint##bits##_t raw;                                               \
    memcpy(&raw, &value, sizeof(raw));                                \
    grt_store_le_u##bits(ptr, raw);                                   \
  }
GRT_ENDIAN_REINTERPRETED_TYPES_(GRT_ENDIAN_DEFINE_REINTERPRETED_)
#undef GRT_ENDIAN_DEFINE_REINTERPRETED_
#undef GRT_ENDIAN_REINTERPRETED_TYPES_

#ifdef __cplusplus
}
#endif

#endif  // GRT_BASE_ENDIAN_H_
