// Overflow-checked size arithmetic for every size computed from untrusted
// input (module files, tensor shapes, user-supplied counts).
//
// Each checked function returns true and writes the exact result, or returns
// false and leaves *out untouched when the true result does not fit. Callers
// turn false into a status that names the operands. The compiler builtins
// are used where available; the portable versions are always compiled so
// tests can hold both to the same answers.
#ifndef GRT_BASE_CHECKED_MATH_H_
#define GRT_BASE_CHECKED_MATH_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__has_builtin)
#if __has_builtin(__builtin_add_overflow) && __has_builtin(__builtin_mul_overflow)
#define GRT_HAVE_BUILTIN_OVERFLOW 1
#endif
#elif defined(__GNUC__) && __GNUC__ >= 5
#define GRT_HAVE_BUILTIN_OVERFLOW 1
#endif
#ifndef GRT_HAVE_BUILTIN_OVERFLOW
#define GRT_HAVE_BUILTIN_OVERFLOW 0
#endif

// Portable versions: one row per unsigned type (suffix, type, maximum).
#define GRT_CHECKED_DEFINE_PORTABLE_(suffix, type, max)                      \
  static inline bool grt_checked_add_##suffix##_portable(type a, type b,     \
                                                         type* out) {        \
    if (a > (max) - b) return false;                                         \
    *out = a + b;                                                            \
    return true;                                                             \
  }                                                                          \
  static inline bool grt_checked_mul_##suffix##_portable(type a, type b,     \
                                                         type* out) {        \
    if (a != 0 && b > (max) / a) return false;                               \
    *out = a * b;                                                            \
    return true;                                                             \
  }
GRT_CHECKED_DEFINE_PORTABLE_(size, size_t, SIZE_MAX)
GRT_CHECKED_DEFINE_PORTABLE_(u64, uint64_t, UINT64_MAX)
#undef GRT_CHECKED_DEFINE_PORTABLE_

#if GRT_HAVE_BUILTIN_OVERFLOW
// The builtins write the wrapped result even on overflow; a temporary keeps
// the "out untouched on failure" contract.
#define GRT_CHECKED_DEFINE_(suffix, type)                                    \
  static inline bool grt_checked_add_##suffix(type a, type b, type* out) {   \
    type result;                                                             \
    if (__builtin_add_overflow(a, b, &result)) return false;                 \
    *out = result;                                                           \
    return true;                                                             \
  }                                                                          \
  static inline bool grt_checked_mul_##suffix(type a, type b, type* out) {   \
    type result;                                                             \
    if (__builtin_mul_overflow(a, b, &result)) return false;                 \
    *out = result;                                                           \
    return true;                                                             \
  }
#else
#define GRT_CHECKED_DEFINE_(suffix, type)                                    \
  static inline bool grt_checked_add_##suffix(type a, type b, type* out) {   \
    return grt_checked_add_##suffix##_portable(a, b, out);                   \
  }                                                                          \
  static inline bool grt_checked_mul_##suffix(type a, type b, type* out) {   \
    return grt_checked_mul_##suffix##_portable(a, b, out);                   \
  }
#endif
GRT_CHECKED_DEFINE_(size, size_t)
GRT_CHECKED_DEFINE_(u64, uint64_t)
#undef GRT_CHECKED_DEFINE_

static inline bool grt_is_power_of_two_size(size_t value) {
  return value != 0 && (value & (value - 1)) == 0;
}

// Rounds |value| up to a multiple of |alignment|. Returns false when
// |alignment| is not a power of two or the rounded value does not fit.
static inline bool grt_checked_align_size(size_t value, size_t alignment,
                                          size_t* out) {
  if (!grt_is_power_of_two_size(alignment)) return false;
  size_t bumped;
  if (!grt_checked_add_size(value, alignment - 1, &bumped)) return false;
  *out = bumped & ~(alignment - 1);
  return true;
}

// Unchecked rounding for values known to be small (struct sizes, header
// offsets). |alignment| must be a power of two.
static inline size_t grt_align_up_size(size_t value, size_t alignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}

#ifdef __cplusplus
}
#endif

#endif  // GRT_BASE_CHECKED_MATH_H_
