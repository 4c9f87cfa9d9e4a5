// Complex element types (complex<f32>, complex<f64>) in the importer
// (docs/compiler.md "Complex numbers").
//
// The tensor IR has no complex types. In memory a tensor<...xcomplex<fN>>
// is interleaved (re, im) pairs: the fN tensor<...x2>, which is what
// function arguments and results, constants, globals and check ops carry.
// Inside a function each complex value is a pair of fN tensors of the
// complex tensor's shape (its real and imaginary parts), split from the
// interleaved form where one is needed and joined back where the
// interleaved form is (grtc_complex_split / grtc_complex_join), and every
// complex op becomes real ops on the parts. The formulas follow XLA's:
// Smith's algorithm for division, a scaled hypot for abs, log as
// (log|z|, atan2(im, re)), the stable square root
// t = sqrt((|re| + |z|) / 2).
#ifndef GRT_COMPILER_STABLEHLO_COMPLEX_H_
#define GRT_COMPILER_STABLEHLO_COMPLEX_H_

#include <stdbool.h>
#include <stdint.h>

#include "compiler/stablehlo/compose.h"
#include "compiler/tensor/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

// A complex value as its two real parts (same type, f32 or f64).
typedef struct grtc_complex_t {
  grtc_tvalue_t* re;
  grtc_tvalue_t* im;
} grtc_complex_t;

// The parts of |x|, an interleaved fN tensor<...x2>.
grtc_complex_t grtc_complex_split(grtc_chlo_math_t* m, grtc_tvalue_t* x);
// The interleaved fN tensor<...x2> of |z|.
grtc_tvalue_t* grtc_complex_join(grtc_chlo_math_t* m, grtc_complex_t z);

// Whether grtc_complex_elementwise computes |kind| (on |arity| operands).
bool grtc_complex_handles(grtc_top_kind_t kind, uint32_t* out_arity);
// |kind| on complex |operands|. ABS gives a real result (in .re, .im NULL).
grtc_complex_t grtc_complex_elementwise(grtc_chlo_math_t* m, grtc_top_kind_t kind,
                                        const grtc_complex_t* operands);
// a == b (both parts equal) or a != b (either differs): an i1 tensor.
// Only EQ and NE are defined on complex numbers.
grtc_tvalue_t* grtc_complex_compare(grtc_chlo_math_t* m, bool equal, grtc_complex_t a,
                                    grtc_complex_t b);
// z * z: (re - im)(re + im) (0 where |re| == |im| is finite, where the
// product would be 0 * inf when re + im or re - im overflows), 2 re im.
grtc_complex_t grtc_complex_square(grtc_chlo_math_t* m, grtc_complex_t z);

// Complex products from the four real products of the parts:
// (rr - ii, ri + ir).
grtc_complex_t grtc_complex_combine_products(grtc_chlo_math_t* m, grtc_tvalue_t* rr,
                                             grtc_tvalue_t* ii, grtc_tvalue_t* ri,
                                             grtc_tvalue_t* ir);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_STABLEHLO_COMPLEX_H_
