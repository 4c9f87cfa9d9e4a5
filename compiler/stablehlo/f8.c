// The 8-bit floats as ui8 bit patterns in the tensor IR (f8.h).
#include "compiler/stablehlo/f8.h"

#include <math.h>

bool grtc_f8_kind_of(const grtc_type_t* type, grtc_float_kind_t* out_kind) {
  if (type && type->kind == GRTC_TYPE_TENSOR) type = type->shaped.element;
  if (!type || type->kind != GRTC_TYPE_FLOAT || !grtc_float_kind_is_f8(type->float_kind)) {
    return false;
  }
  *out_kind = type->float_kind;
  return true;
}

// |a| op the constant |bits| (in |a|'s unsigned type).
static grtc_tvalue_t* grtc_f8_op(grtc_chlo_math_t* m, grtc_top_kind_t kind, grtc_tvalue_t* a,
                                 uint64_t bits) {
  return grtc_chlo_binary(m, kind, a, grtc_chlo_bits(m, a, bits));
}

// compare(|a|, |bits|) as unsigned integers.
static grtc_tvalue_t* grtc_f8_compare(grtc_chlo_math_t* m, grtc_compare_direction_t direction,
                                      grtc_tvalue_t* a, uint64_t bits) {
  grtc_tvalue_t* r = grtc_chlo_compare(m, direction, a, grtc_chlo_bits(m, a, bits));
  if (r) r->def->attrs.compare_type = GRTC_CMP_TYPE_UNSIGNED;
  return r;
}

// The magnitudes (sign bit clear) of |kind|'s largest number, infinity
// (the quiet NaN where there is none) and quiet NaN.
static void grtc_f8_specials(grtc_float_kind_t kind, uint64_t* largest, uint64_t* infinity,
                             uint64_t* quiet_nan) {
  grtc_float_layout_t l = grtc_float_kind_layout(kind);
  uint64_t exponent_max = ((uint64_t)1 << l.exponent_bits) - 1;
  uint64_t mantissa_mask = ((uint64_t)1 << l.mantissa_bits) - 1;
  *infinity = exponent_max << l.mantissa_bits;
  *largest = *infinity - 1;
  // (A type without mantissa bits, f8E8M0FNU, has no quiet bit.)
  *quiet_nan = *infinity | (l.mantissa_bits ? (uint64_t)1 << (l.mantissa_bits - 1) : 0);
  if (l.flavor == GRTC_FLOAT_FN) {
    *largest = *infinity | (mantissa_mask - 1);
    *quiet_nan = *infinity = *largest + 1;
  } else if (l.flavor == GRTC_FLOAT_FNUZ) {
    *largest = *infinity | mantissa_mask;
    *quiet_nan = *infinity = 0;  // the NaN is the sign bit alone
  } else if (l.flavor == GRTC_FLOAT_FINITE) {
    *largest = *infinity | mantissa_mask;
    *quiet_nan = *infinity = 0;  // neither exists: overflow saturates, NaN is +0
  }
}

// f8E8M0FNU to f32: pattern e is 2^(e - 127) (e = 0, 2^-127, an f32
// subnormal), 0xFF is NaN.
static grtc_tvalue_t* grtc_f8_decode_e8m0(grtc_chlo_math_t* m, grtc_tvalue_t* b) {
  grtc_tvalue_t* v = grtc_chlo_bitcast(m, grtc_f8_op(m, GRTC_TOP_SHIFT_LEFT, b, 23),
                                       GRTC_ELEM_F32);
  v = grtc_chlo_select(m, grtc_f8_compare(m, GRTC_CMP_EQ, b, 0),
                       grtc_chlo_splat(m, v, ldexp(1.0, -127)), v);
  return grtc_chlo_select(m, grtc_f8_compare(m, GRTC_CMP_EQ, b, 0xFF),
                          grtc_chlo_splat(m, v, NAN), v);
}

// f32 or f64 (|u|: the bits, |width| wide) to f8E8M0FNU: the biased
// exponent rounded half up by the mantissa's top bit, rebiased; NaN,
// infinities, zeros and negatives give 0xFF, as does a power past 2^127;
// values below 2^-127 give 0 (2^-127: the type has no zero). An f32
// subnormal is below 2^-126: 1 from 1.5 * 2^-127 up, else 0.
static grtc_tvalue_t* grtc_f8_encode_e8m0(grtc_chlo_math_t* m, grtc_tvalue_t* u, bool wide) {
  const uint64_t width = wide ? 64 : 32;
  const uint64_t mantissa = wide ? 52 : 23;
  const uint64_t low = wide ? 1023 - 127 : 0;  // source biased exponent of 2^-127
  uint64_t infinity = ((uint64_t)(wide ? 2047 : 255)) << mantissa;
  grtc_tvalue_t* a = grtc_f8_op(m, GRTC_TOP_AND, u, ((uint64_t)1 << (width - 1)) - 1);
  grtc_tvalue_t* r = grtc_f8_op(
      m, GRTC_TOP_SHIFT_RIGHT_LOGICAL,
      grtc_f8_op(m, GRTC_TOP_ADD, a, (uint64_t)1 << (mantissa - 1)), mantissa);
  grtc_tvalue_t* code = grtc_f8_op(m, GRTC_TOP_SUBTRACT, r, low);
  code = grtc_chlo_select(m, grtc_f8_compare(m, GRTC_CMP_LT, r, low), grtc_chlo_bits(m, r, 0),
                          code);
  if (!wide) {
    grtc_tvalue_t* up = grtc_chlo_select(m, grtc_f8_compare(m, GRTC_CMP_GE, a, 3u << 21),
                                         grtc_chlo_bits(m, r, 1), grtc_chlo_bits(m, r, 0));
    code = grtc_chlo_select(m, grtc_f8_compare(m, GRTC_CMP_LT, a, 1u << 23), up, code);
  }
  grtc_tvalue_t* nan = grtc_chlo_binary(
      m, GRTC_TOP_OR, grtc_f8_compare(m, GRTC_CMP_GT, r, low + 254),
      grtc_f8_compare(m, GRTC_CMP_GE, a, infinity));
  nan = grtc_chlo_binary(m, GRTC_TOP_OR, nan, grtc_f8_compare(m, GRTC_CMP_EQ, a, 0));
  nan = grtc_chlo_binary(m, GRTC_TOP_OR, nan,
                         grtc_f8_compare(m, GRTC_CMP_NE, grtc_f8_op(m, GRTC_TOP_SHIFT_RIGHT_LOGICAL,
                                                                    u, width - 1), 0));
  code = grtc_chlo_select(m, nan, grtc_chlo_bits(m, r, 0xFF), code);
  return grtc_chlo_convert(m, code, GRTC_ELEM_U8);
}

grtc_tvalue_t* grtc_f8_decode(grtc_chlo_math_t* m, grtc_tvalue_t* bits,
                              grtc_float_kind_t kind) {
  if (!bits) return NULL;
  grtc_float_layout_t l = grtc_float_kind_layout(kind);
  uint64_t largest = 0, infinity = 0, quiet_nan = 0;
  grtc_f8_specials(kind, &largest, &infinity, &quiet_nan);
  const int mantissa = l.mantissa_bits;
  grtc_tvalue_t* b = grtc_chlo_convert(m, bits, GRTC_ELEM_U32);
  if (l.flavor == GRTC_FLOAT_E8M0) return grtc_f8_decode_e8m0(m, b);
  const uint64_t sign_bit = (uint64_t)grtc_float_kind_sign_bit(kind);
  grtc_tvalue_t* sign = grtc_f8_op(m, GRTC_TOP_SHIFT_RIGHT_LOGICAL, b, sign_bit);
  grtc_tvalue_t* magnitude = grtc_f8_op(m, GRTC_TOP_AND, b, ((uint64_t)1 << sign_bit) - 1);
  // Normal numbers: the exponent rebiased to f32's, the mantissa widened.
  grtc_tvalue_t* normal = grtc_chlo_bitcast(
      m,
      grtc_f8_op(m, GRTC_TOP_SHIFT_LEFT,
                 grtc_f8_op(m, GRTC_TOP_ADD, magnitude,
                            (uint64_t)(127 - l.bias) << mantissa),
                 (uint64_t)(23 - mantissa)),
      GRTC_ELEM_F32);
  // Subnormals (and zero): mantissa * 2^(1 - bias - mantissa bits), exact.
  grtc_tvalue_t* fraction = grtc_chlo_convert(
      m, grtc_f8_op(m, GRTC_TOP_AND, magnitude, ((uint64_t)1 << mantissa) - 1),
      GRTC_ELEM_F32);
  grtc_tvalue_t* subnormal = grtc_chlo_binary(
      m, GRTC_TOP_MULTIPLY, fraction, grtc_chlo_splat(m, fraction, ldexp(1.0, 1 - l.bias - mantissa)));
  grtc_tvalue_t* v = grtc_chlo_select(
      m, grtc_f8_compare(m, GRTC_CMP_LT, magnitude, (uint64_t)1 << mantissa), subnormal,
      normal);
  if (l.flavor == GRTC_FLOAT_IEEE) {
    v = grtc_chlo_select(m, grtc_f8_compare(m, GRTC_CMP_EQ, magnitude, infinity),
                         grtc_chlo_splat(m, v, INFINITY), v);
    v = grtc_chlo_select(m, grtc_f8_compare(m, GRTC_CMP_GT, magnitude, infinity),
                         grtc_chlo_splat(m, v, NAN), v);
  } else if (l.flavor == GRTC_FLOAT_FN) {
    v = grtc_chlo_select(m, grtc_f8_compare(m, GRTC_CMP_EQ, magnitude, quiet_nan),
                         grtc_chlo_splat(m, v, NAN), v);
  }
  // The sign as a bit, so NaNs and zeros keep it.
  grtc_tvalue_t* v_bits = grtc_chlo_bitcast(m, v, GRTC_ELEM_U32);
  v_bits = grtc_chlo_binary(m, GRTC_TOP_OR, v_bits,
                            grtc_f8_op(m, GRTC_TOP_SHIFT_LEFT, sign, 31));
  v = grtc_chlo_bitcast(m, v_bits, GRTC_ELEM_F32);
  if (l.flavor == GRTC_FLOAT_FNUZ) {
    v = grtc_chlo_select(m, grtc_f8_compare(m, GRTC_CMP_EQ, b, 0x80),
                         grtc_chlo_splat(m, v, NAN), v);
  }
  return v;
}

grtc_tvalue_t* grtc_f8_encode(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                              grtc_float_kind_t kind) {
  if (!x) return NULL;
  grtc_float_layout_t l = grtc_float_kind_layout(kind);
  uint64_t largest = 0, infinity = 0, quiet_nan = 0;
  grtc_f8_specials(kind, &largest, &infinity, &quiet_nan);
  bool wide = x->type.elem == GRTC_ELEM_F64;
  // The source's width, mantissa bits and bias; the target's.
  const uint32_t width = wide ? 64 : 32;
  const uint64_t source_mantissa = wide ? 52 : 23;
  const uint64_t source_bias = wide ? 1023 : 127;
  const uint64_t mantissa = (uint64_t)l.mantissa_bits;
  const uint64_t bias = (uint64_t)l.bias;
  grtc_tvalue_t* u = grtc_chlo_bitcast(m, x, wide ? GRTC_ELEM_U64 : GRTC_ELEM_U32);
  if (l.flavor == GRTC_FLOAT_E8M0) return grtc_f8_encode_e8m0(m, u, wide);
  const uint64_t sign_shift = (uint64_t)grtc_float_kind_sign_bit(kind);
  grtc_tvalue_t* sign = grtc_f8_op(m, GRTC_TOP_SHIFT_RIGHT_LOGICAL, u, width - 1);
  grtc_tvalue_t* a = grtc_f8_op(m, GRTC_TOP_AND, u, ((uint64_t)1 << (width - 1)) - 1);
  uint64_t source_infinity = ((uint64_t)(wide ? 2047 : 255)) << source_mantissa;
  grtc_tvalue_t* is_nan = grtc_f8_compare(m, GRTC_CMP_GT, a, source_infinity);
  grtc_tvalue_t* exponent = grtc_f8_op(m, GRTC_TOP_SHIFT_RIGHT_LOGICAL, a, source_mantissa);
  // Normal in the target when the rebiased exponent is at least 1: the
  // magnitude rebiased in place, then rounded to |mantissa| bits (ties to
  // even); a carry out of the mantissa steps the exponent, as it should.
  grtc_tvalue_t* is_normal =
      grtc_f8_compare(m, GRTC_CMP_GE, a, (source_bias - bias + 1) << source_mantissa);
  uint64_t drop = source_mantissa - mantissa;
  grtc_tvalue_t* base = grtc_f8_op(m, GRTC_TOP_SUBTRACT, a, (source_bias - bias) << source_mantissa);
  grtc_tvalue_t* odd =
      grtc_f8_op(m, GRTC_TOP_AND, grtc_f8_op(m, GRTC_TOP_SHIFT_RIGHT_LOGICAL, base, drop), 1);
  grtc_tvalue_t* rounded_normal = grtc_f8_op(
      m, GRTC_TOP_SHIFT_RIGHT_LOGICAL,
      grtc_chlo_binary(m, GRTC_TOP_ADD,
                       grtc_f8_op(m, GRTC_TOP_ADD, base, ((uint64_t)1 << (drop - 1)) - 1), odd),
      drop);
  // Subnormal in the target: the significand (implicit bit included)
  // shifted right by drop + (1 - rebiased exponent), at most
  // source_mantissa + 2 (which leaves less than half the smallest
  // subnormal: zero). Past that bound the unsigned difference wraps, and
  // the minimum keeps the bound.
  grtc_tvalue_t* significand = grtc_f8_op(
      m, GRTC_TOP_OR, grtc_f8_op(m, GRTC_TOP_AND, a, ((uint64_t)1 << source_mantissa) - 1),
      (uint64_t)1 << source_mantissa);
  grtc_tvalue_t* shift = grtc_chlo_binary(
      m, GRTC_TOP_MINIMUM,
      grtc_chlo_binary(m, GRTC_TOP_SUBTRACT,
                       grtc_chlo_bits(m, exponent, drop + 1 + source_bias - bias), exponent),
      grtc_chlo_bits(m, exponent, source_mantissa + 2));
  grtc_tvalue_t* half_less_one = grtc_f8_op(
      m, GRTC_TOP_SUBTRACT,
      grtc_chlo_binary(m, GRTC_TOP_SHIFT_LEFT, grtc_chlo_bits(m, shift, 1),
                       grtc_f8_op(m, GRTC_TOP_SUBTRACT, shift, 1)),
      1);
  grtc_tvalue_t* odd_subnormal = grtc_f8_op(
      m, GRTC_TOP_AND, grtc_chlo_binary(m, GRTC_TOP_SHIFT_RIGHT_LOGICAL, significand, shift), 1);
  grtc_tvalue_t* rounded_subnormal = grtc_chlo_binary(
      m, GRTC_TOP_SHIFT_RIGHT_LOGICAL,
      grtc_chlo_binary(m, GRTC_TOP_ADD,
                       grtc_chlo_binary(m, GRTC_TOP_ADD, significand, half_less_one),
                       odd_subnormal),
      shift);
  grtc_tvalue_t* r = grtc_chlo_select(m, is_normal, rounded_normal, rounded_subnormal);
  grtc_tvalue_t* overflow = grtc_f8_compare(m, GRTC_CMP_GT, r, largest);
  grtc_tvalue_t* signed_r =
      grtc_chlo_binary(m, GRTC_TOP_OR, r, grtc_f8_op(m, GRTC_TOP_SHIFT_LEFT, sign, sign_shift));
  grtc_tvalue_t* out = NULL;
  if (l.flavor == GRTC_FLOAT_FINITE) {
    // Overflow and infinities saturate to the largest number of their
    // sign; NaN (there is none) gives +0.
    grtc_tvalue_t* signed_bit = grtc_f8_op(m, GRTC_TOP_SHIFT_LEFT, sign, sign_shift);
    out = grtc_chlo_select(m, overflow, grtc_f8_op(m, GRTC_TOP_OR, signed_bit, largest),
                           signed_r);
    out = grtc_chlo_select(m, is_nan, grtc_chlo_bits(m, r, 0), out);
  } else if (l.flavor == GRTC_FLOAT_FNUZ) {
    // No -0, and one NaN (0x80) for NaN and overflow alike.
    grtc_tvalue_t* nan = grtc_chlo_bits(m, r, 0x80);
    out = grtc_chlo_select(m, grtc_f8_compare(m, GRTC_CMP_EQ, r, 0), grtc_chlo_bits(m, r, 0),
                           signed_r);
    out = grtc_chlo_select(m, overflow, nan, out);
    out = grtc_chlo_select(m, is_nan, nan, out);
  } else {
    grtc_tvalue_t* signed_bit = grtc_f8_op(m, GRTC_TOP_SHIFT_LEFT, sign, sign_shift);
    out = grtc_chlo_select(
        m, overflow, grtc_f8_op(m, GRTC_TOP_OR, signed_bit, infinity), signed_r);
    out = grtc_chlo_select(m, is_nan, grtc_f8_op(m, GRTC_TOP_OR, signed_bit, quiet_nan), out);
  }
  return grtc_chlo_convert(m, out, GRTC_ELEM_U8);
}

grtc_tvalue_t* grtc_f8_ulp_scale(grtc_chlo_math_t* m, grtc_tvalue_t* bits,
                                 grtc_float_kind_t kind) {
  if (!bits) return NULL;
  grtc_tvalue_t* v = grtc_f8_decode(m, bits, kind);
  grtc_tvalue_t* b = grtc_chlo_convert(m, bits, GRTC_ELEM_U16);
  // The sign moved to bit 15 (E8M0 has none), the magnitude kept.
  int sign_bit = grtc_float_kind_sign_bit(kind);
  uint64_t magnitude_mask = sign_bit < 0 ? 0xFF : ((uint64_t)1 << sign_bit) - 1;
  grtc_tvalue_t* sign = sign_bit < 0 ? grtc_chlo_bits(m, b, 0)
                                     : grtc_f8_op(m, GRTC_TOP_AND, b, (uint64_t)1 << sign_bit);
  if (sign_bit >= 0 && sign_bit != 7) {
    sign = grtc_f8_op(m, GRTC_TOP_SHIFT_LEFT, sign, (uint64_t)(7 - sign_bit));
  }
  grtc_tvalue_t* scaled = grtc_chlo_binary(
      m, GRTC_TOP_OR, grtc_f8_op(m, GRTC_TOP_AND, b, magnitude_mask),
      grtc_f8_op(m, GRTC_TOP_SHIFT_LEFT, sign, 8));
  grtc_tvalue_t* is_inf = grtc_chlo_compare(m, GRTC_CMP_EQ, grtc_chlo_unary(m, GRTC_TOP_ABS, v),
                                            grtc_chlo_splat(m, v, INFINITY));
  scaled = grtc_chlo_select(
      m, is_inf,
      grtc_f8_op(m, GRTC_TOP_OR, grtc_f8_op(m, GRTC_TOP_SHIFT_LEFT, sign, 8), 0x7c00), scaled);
  scaled = grtc_chlo_select(m, grtc_chlo_compare(m, GRTC_CMP_NE, v, v),
                            grtc_chlo_bits(m, scaled, 0x7e00), scaled);
  return grtc_chlo_bitcast(m, scaled, GRTC_ELEM_F16);
}
