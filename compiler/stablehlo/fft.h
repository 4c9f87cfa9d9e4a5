// stablehlo.fft in the importer (docs/compiler.md "Fourier transforms").
//
// Each transformed dimension is a discrete Fourier transform written as
// matrix products: dot_generals of the real and imaginary parts with
// constant cosine and sine matrices (computed in double, stored in the
// operand's precision), so the op runs wherever dot_general does. Up to
// length 256, and for primes up to GRTC_FFT_MAX_LENGTH, one product per
// dimension (O(n^2)); a longer length n = n1 n2 (n1 its largest divisor
// not above sqrt(n)) is split into transforms of n1 and n2 with twiddle
// factors between them (the four-step algorithm, recursively).
#ifndef GRT_COMPILER_STABLEHLO_FFT_H_
#define GRT_COMPILER_STABLEHLO_FFT_H_

#include <stdbool.h>
#include <stdint.h>

#include "compiler/stablehlo/complex.h"

#ifdef __cplusplus
extern "C" {
#endif

// The longest transformed dimension done as one matrix product (its
// matrices are n x n): longer ones must factor (grtc_fft_length_supported).
#define GRTC_FFT_MAX_LENGTH 2048

typedef enum grtc_fft_type_e {
  GRTC_FFT_FORWARD,  // FFT: complex -> complex
  GRTC_FFT_INVERSE,  // IFFT: complex -> complex, scaled by 1/n
  GRTC_FFT_REAL,     // RFFT: real -> complex, the last dim n -> n/2 + 1
  GRTC_FFT_INVERSE_REAL,  // IRFFT: complex -> real, the last dim n/2 + 1 -> n
} grtc_fft_type_t;

// Whether a dimension of length |n| can be transformed: n <= 2048, or it
// splits into factors that can.
bool grtc_fft_length_supported(int64_t n);

// The transform |type| of |in| over its last |count| dims, whose lengths
// are |lengths| (1 to 3, each grtc_fft_length_supported; the importer has
// checked them against the types). |in|'s parts (only .re for RFFT) and the
// result's parts (only .re for IRFFT) are f32 or f64 tensors; |result| is
// the type of one result part. Errors land in |m|.
grtc_complex_t grtc_fft(grtc_chlo_math_t* m, grtc_fft_type_t type, grtc_complex_t in,
                        const int64_t* lengths, uint32_t count,
                        const grtc_ttype_t* result);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_STABLEHLO_FFT_H_
