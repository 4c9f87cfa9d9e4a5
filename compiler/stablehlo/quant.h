// Uniform quantized types (`!quant.uniform<...>`, StableHLO's quantized
// element types) and their lowering into the tensor IR
// (docs/compiler.md "Quantization").
//
// The tensor IR has no quantized types: a quantized tensor is its storage
// integers (i2/i4 held one per byte in i8/ui8, i8, i16, i32 and the
// unsigned forms), and the importer turns every quantized op into integer
// and float ops with explicit requantization:
//   dequantize(q) = (convert(q) - zero_point) * scale      (expressed type)
//   quantize(x)   = convert(round_nearest_even(
//                     clamp(storage_min, x / scale + zero_point, storage_max)))
// which is the StableHLO spec's reference semantics (dequantize, compute in
// the expressed type, quantize). Ops that only move elements keep the
// storage integers when their quantization is the same per-tensor one, and
// dot_general and convolution of i8 operands run on them: an i8 x i8 -> i32
// dot_general or convolution, zero-point corrections, then requantization
// (grtc_quant_dot_finish, grtc_quant_conv_finish).
#ifndef GRT_COMPILER_STABLEHLO_QUANT_H_
#define GRT_COMPILER_STABLEHLO_QUANT_H_

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "base/string_view.h"
#include "compiler/mlir/ir.h"
#include "compiler/stablehlo/compose.h"
#include "compiler/tensor/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grtc_quant_type_t {
  grtc_elem_t storage;     // the tensor IR element holding a stored value
  uint32_t storage_bits;   // 2, 4, 8, 16 or 32
  bool storage_signed;
  int64_t storage_min, storage_max;  // the given range, else the type's
  grtc_elem_t expressed;   // f16, bf16, f32 or f64
  bool per_axis;
  int64_t axis;            // per_axis: the quantized dimension
  uint32_t count;          // scales and zero points (1 when per-tensor)
  const double* scales;
  const int64_t* zero_points;
} grtc_quant_type_t;

// Whether |type| is a `!quant.uniform<...>` element type.
bool grtc_quant_is_uniform(const grtc_type_t* type);
// The quantized element type of a tensor type (NULL when it has none).
const grtc_type_t* grtc_quant_element(const grtc_type_t* type);

// Parses and checks the spelling of a `!quant.uniform<...>` type (the
// spec's constraints C1-C12 that do not need the shape); the arrays live in
// |module|'s arena. Errors say what was expected and what was given.
grt_status_t grtc_quant_parse(grt_string_view_t text, grtc_tmodule_t* module,
                              grtc_quant_type_t* out);

// Whether |a| and |b| are the same quantization (storage, range, expressed
// type, axis, scales and zero points).
bool grtc_quant_equal(const grtc_quant_type_t* a, const grtc_quant_type_t* b);
// Whether they differ at most in scales and zero points (the spec's
// baseline_type: storage type and range, expressed type, axis).
bool grtc_quant_same_baseline(const grtc_quant_type_t* a, const grtc_quant_type_t* b);

// The float value of |q| (a tensor of its storage integers), in |q|'s
// expressed type.
grtc_tvalue_t* grtc_quant_dequantize(grtc_chlo_math_t* m, grtc_tvalue_t* q,
                                     const grtc_quant_type_t* type);
// |x| (a float tensor) quantized to |type|: the storage integers.
grtc_tvalue_t* grtc_quant_quantize(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                   const grtc_quant_type_t* type);

// Whether a dot_general of quantized |lhs| and |rhs| into |result| (or,
// when |result| has no scales, into the float |result_elem|) runs on
// integers: i8 (or i4/i2 held in i8) storage on both sides, a per-tensor
// lhs, f32 expressed types and an f32 result. The importer then builds
// dot_general(lhs storage, rhs storage) -> i32 and calls
// grtc_quant_dot_finish on it.
bool grtc_quant_dot_on_integers(const grtc_quant_type_t* lhs, const grtc_quant_type_t* rhs,
                                const grtc_quant_type_t* result, grtc_elem_t result_elem);
// From |acc|, that i32 dot_general (its operands and dims are read from its
// op): the zero-point corrections (row and column sums of the stored
// values, as dot_generals with ones), then requantization: f32(acc) times
// the combined scale sl * sr (per rhs slice when the rhs is per-axis),
// quantized to |result| as uniform_quantize does (or converted to
// |result_elem|); an i32 result with exactly the combined per-tensor scale
// and no zero point takes the accumulator as it is. Sets m->status when the
// rhs's quantization dimension is a contracting one.
grtc_tvalue_t* grtc_quant_dot_finish(grtc_chlo_math_t* m, grtc_tvalue_t* acc,
                                     const grtc_quant_type_t* lhs,
                                     const grtc_quant_type_t* rhs,
                                     const grtc_quant_type_t* result,
                                     grtc_elem_t result_elem);
// The convolution form of grtc_quant_dot_finish (the same operand and
// result predicate, grtc_quant_dot_on_integers): |acc| is the i8 x i8 ->
// i32 convolution of the stored values, the rhs per-tensor or quantized
// along its kernel output feature dimension (the importer checks it).
grtc_tvalue_t* grtc_quant_conv_finish(grtc_chlo_math_t* m, grtc_tvalue_t* acc,
                                      const grtc_quant_type_t* lhs,
                                      const grtc_quant_type_t* rhs,
                                      const grtc_quant_type_t* result,
                                      grtc_elem_t result_elem);
// The zero-point terms of |acc|, an i8 x i8 -> i32 convolution (its
// operands and dims read from its op; batch_group_count 1): sum over each
// window of (l - zl)(r - zr) = acc - zr * (window sums of l - K zl) - zl *
// (the filter's sums per output feature). |zl| and |zr| are i32 tensors of
// |acc|'s type (NULL when the zero point is 0) and |zl_stored| zl as an i8
// scalar: the positions the convolution pads or dilates stand for 0, which
// is stored as zl, so when zl is given the lhs is padded with it
// explicitly and |acc|'s op rewritten to read that (moved after the pad).
// The window sums are a convolution with ones; the filter sums a
// dot_general with ones (folded for constant filters). Shared by the
// StableHLO and ONNX importers.
grtc_tvalue_t* grtc_quant_conv_zero_terms(grtc_chlo_math_t* m, grtc_tvalue_t* acc,
                                          grtc_tvalue_t* zl_stored, grtc_tvalue_t* zl,
                                          grtc_tvalue_t* zr);
// Plain sub-byte integers (`tensor<4xi4>`, i2, ui2, ui4) are held like i2/i4
// storage: one value per byte of i8 (ui8), sign-extended (zero-extended),
// so ops that only move, compare or pick values work on the holder. The
// width of |type|'s element when it is such an integer (0 otherwise) and
// whether it is unsigned.
uint32_t grtc_narrow_int_bits(const grtc_type_t* type, bool* out_unsigned);
// |x| (an integer tensor already converted to its i8/ui8 holder, wrapped
// modulo 256) wrapped to |bits| as convert to iN/uiN does.
grtc_tvalue_t* grtc_narrow_wrap(grtc_chlo_math_t* m, grtc_tvalue_t* x, uint32_t bits,
                                bool is_unsigned);
// A splat constant of |like|'s (integer) type with every element |value|.
grtc_tvalue_t* grtc_quant_int_splat(grtc_chlo_math_t* m, grtc_tvalue_t* like,
                                    int64_t value);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_STABLEHLO_QUANT_H_
