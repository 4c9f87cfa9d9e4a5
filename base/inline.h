// GRT_ALWAYS_INLINE: for small helpers on hot or repeated paths (operand
// decoding, packed argument access) that a size-optimized build (-Os)
// would otherwise call out of line, which makes their callers both larger
// and slower.
#ifndef GRT_BASE_INLINE_H_
#define GRT_BASE_INLINE_H_

#if defined(__GNUC__) || defined(__clang__)
#define GRT_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define GRT_ALWAYS_INLINE inline
#endif

#endif  // GRT_BASE_INLINE_H_
