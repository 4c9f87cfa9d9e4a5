// The 8-bit floats (f8E5M2, f8E4M3, f8E3M4, f8E4M3FN, f8E4M3FNUZ,
// f8E5M2FNUZ, f8E4M3B11FNUZ, and the OCP MX f8E8M0FNU, f6E2M3FN, f6E3M2FN,
// f4E2M1FN; compiler/mlir/ir.h GRTC_FLOAT_KIND_LIST) in the tensor IR,
// which has no such element types: an f8 tensor is its bit patterns held
// in ui8, one byte per element (the 6- and 4-bit ones in the low bits;
// docs/compiler.md "8-bit floats").
// Ops that move, pick or bitcast values work on the bytes as they are;
// convert decodes to f32 and encodes with integer ops, built here, so every
// backend computes the same bits; elementwise arithmetic and compare
// decode their operands to f32, compute there and encode the result (a
// reduce body's ops too).
#ifndef GRT_COMPILER_STABLEHLO_F8_H_
#define GRT_COMPILER_STABLEHLO_F8_H_

#include <stdbool.h>

#include "compiler/mlir/ir.h"
#include "compiler/stablehlo/compose.h"
#include "compiler/tensor/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

// Whether |type| (a tensor, or an element type) has an 8-bit float element;
// its kind in |out_kind|.
bool grtc_f8_kind_of(const grtc_type_t* type, grtc_float_kind_t* out_kind);

// |bits| (a ui8 tensor of |kind| bit patterns) as the f32 values they
// spell (every one is exact in f32; NaNs keep the sign bit where the type
// has one; the FNUZ NaN gives a positive NaN).
grtc_tvalue_t* grtc_f8_decode(grtc_chlo_math_t* m, grtc_tvalue_t* bits,
                              grtc_float_kind_t kind);
// |x| (an f32 or f64 tensor) rounded to nearest, ties to even, into |kind|:
// a ui8 tensor of bit patterns. Past the largest number (after rounding)
// gives infinity in the IEEE-like types and NaN in the FN/FNUZ types; NaN
// gives the type's quiet NaN (sign kept, except in FNUZ); values that round
// to zero keep their sign except in the FNUZ types, which have no -0.
grtc_tvalue_t* grtc_f8_encode(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                              grtc_float_kind_t kind);

// |bits| (a ui8 tensor of |kind| bit patterns) as f16 values the same
// number of f16 ULPs apart as the f8 values are f8 ULPs apart, for
// check.expect_close: each number's magnitude pattern becomes an f16
// subnormal of the same pattern (with the sign), NaNs an f16 NaN and
// infinities f16 infinities.
grtc_tvalue_t* grtc_f8_ulp_scale(grtc_chlo_math_t* m, grtc_tvalue_t* bits,
                                 grtc_float_kind_t kind);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_STABLEHLO_F8_H_
