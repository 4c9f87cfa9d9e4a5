// The scalar helpers every C-family prelude carries: they give each scalar
// op of compiler/kernel/scalar.h its exact meaning in C, the corners C and
// CUDA C++ leave undefined included (integer division by zero and
// INT_MIN / -1, shifts by the width or more, saturating float->int,
// NaN-propagating max/min, f16/bf16 rounding). Helpers are named
// grt_<op spelling>_<type> so the emitters find them from the op table
// alone. What the dialects spell differently (qualifiers, bit counts, bit
// casts, the f16 hardware conversions) comes from the target's head and
// conversions (grtc_c_family_prelude_t).
#include "compiler/target/c_family/c_family.h"

static const char grtc_c_family_arith_text[] =
    // Integer ops common to every integer type. WU is the unsigned type the
    // arithmetic wraps in (at least 32 bits, so no promotion to int can
    // overflow); M masks i1 results to one bit.
    "#define GRT_INT_COMMON(S, T, UT, WU, W, M) \\\n"
    "GRT_I T grt_add_##S(T a, T b) { return (T)(((WU)a + (WU)b) & (WU)(M)); } \\\n"
    "GRT_I T grt_subtract_##S(T a, T b) { return (T)(((WU)a - (WU)b) & (WU)(M)); } \\\n"
    "GRT_I T grt_multiply_##S(T a, T b) { return (T)(((WU)a * (WU)b) & (WU)(M)); } \\\n"
    "GRT_I T grt_and_##S(T a, T b) { return (T)(a & b); } \\\n"
    "GRT_I T grt_or_##S(T a, T b) { return (T)(a | b); } \\\n"
    "GRT_I T grt_xor_##S(T a, T b) { return (T)(a ^ b); } \\\n"
    "GRT_I T grt_not_##S(T a) { return (T)(~(WU)a & (WU)(M)); } \\\n"
    "GRT_I T grt_negate_##S(T a) { return (T)((0 - (WU)a) & (WU)(M)); } \\\n"
    "GRT_I T grt_maximum_##S(T a, T b) { return a > b ? a : b; } \\\n"
    "GRT_I T grt_minimum_##S(T a, T b) { return a < b ? a : b; } \\\n"
    "GRT_I T grt_clamp_##S(T lo, T x, T hi) { T t = x < lo ? lo : x; return t > hi ? hi : t; } \\\n"
    "GRT_I T grt_select_##S(uint8_t c, T a, T b) { return c ? a : b; } \\\n"
    // The amount is 64-bit and hardware shifts mask (x86) or clamp (PTX)
    // it, so the test stays explicit.
    "GRT_I T grt_shift_left_##S(T a, T b) { return (uint64_t)b >= (W) ? (T)0 : (T)(((WU)a << b) & (WU)(M)); } \\\n"
    "GRT_I T grt_shift_right_logical_##S(T a, T b) { return (uint64_t)b >= (W) ? (T)0 : (T)((UT)a >> b); } \\\n"
    "GRT_I T grt_popcnt_##S(T a) { return (T)GRT_POPCNT64((uint64_t)(UT)a); } \\\n"
    "GRT_I T grt_count_leading_zeros_##S(T a) { return (T)(GRT_CLZ64((uint64_t)(UT)a) - (64 - (W))); } \\\n"
    "GRT_I T grt_power_u_##S(T a, T b) { \\\n"
    "  WU r = 1, x = (WU)a; uint64_t e = (uint64_t)b; \\\n"
    "  while (e) { r = (e & 1) ? r * x : r; x *= x; e >>= 1; } \\\n"
    "  return (T)(r & (WU)(M)); }\n"
    "#define GRT_INT_SIGNED(S, T, UT, WU, W, MINV, MAXV) \\\n"
    "GRT_INT_COMMON(S, T, UT, WU, W, ~(WU)0) \\\n"
    "GRT_I T grt_divide_##S(T a, T b) { return b == 0 ? (T)-1 : (a == (T)(MINV) && b == (T)-1) ? (T)(MINV) : (T)(a / b); } \\\n"
    "GRT_I T grt_remainder_##S(T a, T b) { return b == 0 ? a : b == (T)-1 ? (T)0 : (T)(a % b); } \\\n"
    "GRT_I T grt_shift_right_arithmetic_##S(T a, T b) { return (uint64_t)b >= (W) ? (T)(a < 0 ? -1 : 0) : (T)(a >> b); } \\\n"
    "GRT_I T grt_abs_##S(T a) { return a < 0 ? (T)(0 - (WU)a) : a; } \\\n"
    "GRT_I T grt_sign_##S(T a) { return (T)((a > 0) - (a < 0)); } \\\n"
    "GRT_I T grt_f2i_##S(double x) { \\\n"
    "  return x != x ? (T)0 : x < (double)(MINV) ? (T)(MINV) \\\n"
    "       : x >= -(double)(MINV) ? (T)(MAXV) : (T)x; } \\\n"
    /* Negative exponents: 0 except for bases 1 and -1. */
    "GRT_I T grt_power_##S(T a, T b) { \\\n"
    "  return b >= 0 ? grt_power_u_##S(a, b) : a == 1 ? (T)1 \\\n"
    "       : a == (T)-1 ? ((b & 1) ? (T)-1 : (T)1) : (T)0; }\n"
    "#define GRT_INT_UNSIGNED(S, T, WU, W, M, MAXV) \\\n"
    "GRT_INT_COMMON(S, T, T, WU, W, M) \\\n"
    "GRT_I T grt_divide_##S(T a, T b) { return b == 0 ? (T)(~(WU)0 & (WU)(M)) : (T)(a / b); } \\\n"
    "GRT_I T grt_remainder_##S(T a, T b) { return b == 0 ? a : (T)(a % b); } \\\n"
    "GRT_I T grt_shift_right_arithmetic_##S(T a, T b) { \\\n"
    "  WU fill = (((WU)a >> ((W) - 1)) & 1) ? ~(WU)0 : 0; \\\n"
    "  return (uint64_t)b >= (W) ? (T)(fill & (WU)(M)) \\\n"
    "       : (T)((((WU)a >> b) | ((fill << ((W) - 1 - b)) << 1)) & (WU)(M)); } \\\n"
    "GRT_I T grt_abs_##S(T a) { return a; } \\\n"
    "GRT_I T grt_sign_##S(T a) { return (T)(a != 0); } \\\n"
    "GRT_I T grt_f2i_##S(double x) { \\\n"
    "  return !(x > -1.0) ? (T)0 : x >= (double)(MAXV) + 1.0 ? (T)(MAXV) : (T)x; } \\\n"
    "GRT_I T grt_power_##S(T a, T b) { return grt_power_u_##S(a, b); }\n"
    // Limits as literals: NVRTC has no <stdint.h>.
    "GRT_INT_SIGNED(i8, int8_t, uint8_t, uint32_t, 8, -128, 127)\n"
    "GRT_INT_SIGNED(i16, int16_t, uint16_t, uint32_t, 16, -32768, 32767)\n"
    "GRT_INT_SIGNED(i32, int32_t, uint32_t, uint32_t, 32, (-2147483647 - 1), 2147483647)\n"
    "GRT_INT_SIGNED(i64, int64_t, uint64_t, uint64_t, 64, (-9223372036854775807LL - 1), 9223372036854775807LL)\n"
    "GRT_INT_UNSIGNED(i1, uint8_t, uint32_t, 1, 1u, 1u)\n"
    "GRT_INT_UNSIGNED(u8, uint8_t, uint32_t, 8, ~0u, 255u)\n"
    "GRT_INT_UNSIGNED(u16, uint16_t, uint32_t, 16, ~0u, 65535u)\n"
    "GRT_INT_UNSIGNED(u32, uint32_t, uint32_t, 32, ~0u, 4294967295u)\n"
    "GRT_INT_UNSIGNED(u64, uint64_t, uint64_t, 64, ~0ull, 18446744073709551615ull)\n"
    "\n"
    // Floats: f16 and bf16 compute in f32 (suffix f32), f64 in double.
    // MAX/MIN propagate NaN and order -0 below +0.
    "#define GRT_FLOAT(S, T, F) \\\n"
    "GRT_I T grt_add_##S(T a, T b) { return a + b; } \\\n"
    "GRT_I T grt_subtract_##S(T a, T b) { return a - b; } \\\n"
    "GRT_I T grt_multiply_##S(T a, T b) { return a * b; } \\\n"
    "GRT_I T grt_divide_##S(T a, T b) { return a / b; } \\\n"
    "GRT_I T grt_remainder_##S(T a, T b) { return fmod##F(a, b); } \\\n"
    "GRT_I T grt_power_##S(T a, T b) { return pow##F(a, b); } \\\n"
    // Selects only (no short-circuit ||, no nested branches) so loops
    // using them if-convert and vectorize; -fno-trapping-math lets the
    // compiler evaluate every arm.
    "GRT_I T grt_maximum_##S(T a, T b) { \\\n"
    "  T m = a > b ? a : b; const T z = signbit(a) ? b : a; m = a == b ? z : m; \\\n"
    "  return ((a != a) | (b != b)) ? a + b : m; } \\\n"
    "GRT_I T grt_minimum_##S(T a, T b) { \\\n"
    "  T m = a < b ? a : b; const T z = signbit(a) ? a : b; m = a == b ? z : m; \\\n"
    "  return ((a != a) | (b != b)) ? a + b : m; } \\\n"
    "GRT_I T grt_clamp_##S(T lo, T x, T hi) { return grt_minimum_##S(grt_maximum_##S(x, lo), hi); } \\\n"
    "GRT_I T grt_select_##S(uint8_t c, T a, T b) { return c ? a : b; } \\\n"
    "GRT_I T grt_atan2_##S(T a, T b) { return atan2##F(a, b); } \\\n"
    "GRT_I T grt_abs_##S(T a) { return fabs##F(a); } \\\n"
    "GRT_I T grt_negate_##S(T a) { return -a; } \\\n"
    "GRT_I T grt_sign_##S(T a) { return a > 0 ? (T)1 : a < 0 ? (T)-1 : a; } \\\n"
    "GRT_I T grt_exponential_##S(T a) { return exp##F(a); } \\\n"
    "GRT_I T grt_exponential_minus_one_##S(T a) { return expm1##F(a); } \\\n"
    "GRT_I T grt_log_##S(T a) { return log##F(a); } \\\n"
    "GRT_I T grt_log_plus_one_##S(T a) { return log1p##F(a); } \\\n"
    "GRT_I T grt_logistic_##S(T a) { return (T)1 / ((T)1 + exp##F(-a)); } \\\n"
    "GRT_I T grt_sqrt_##S(T a) { return sqrt##F(a); } \\\n"
    "GRT_I T grt_rsqrt_##S(T a) { return (T)1 / sqrt##F(a); } \\\n"
    "GRT_I T grt_cbrt_##S(T a) { return cbrt##F(a); } \\\n"
    "GRT_I T grt_tanh_##S(T a) { return tanh##F(a); } \\\n"
    "GRT_I T grt_sine_##S(T a) { return sin##F(a); } \\\n"
    "GRT_I T grt_cosine_##S(T a) { return cos##F(a); } \\\n"
    "GRT_I T grt_tan_##S(T a) { return tan##F(a); } \\\n"
    "GRT_I T grt_floor_##S(T a) { return floor##F(a); } \\\n"
    "GRT_I T grt_ceil_##S(T a) { return ceil##F(a); } \\\n"
    "GRT_I T grt_round_nearest_afz_##S(T a) { \\\n"
    /* trunc and a - trunc(a) are exact, so this is round() without its */
    /* libm call (which does not vectorize); copysign keeps -0 and the */
    /* sign of NaN; inf gives inf (inf - inf is NaN, not >= 0.5). */
    "  const T t = trunc##F(a); \\\n"
    "  return copysign##F(fabs##F(t) + (fabs##F(a - t) >= (T)0.5 ? (T)1 : (T)0), a); } \\\n"
    /* The kernels never change the rounding mode, so rint is ties-to-even. */
    "GRT_I T grt_round_nearest_even_##S(T a) { return rint##F(a); } \\\n"
    "GRT_I uint8_t grt_is_finite_##S(T a) { return (uint8_t)(isfinite(a) != 0); }\n"
    "GRT_FLOAT(f32, float, f)\n"
    "GRT_FLOAT(f64, double, )\n"
    "\n"
    // f16/bf16 from double, rounding to nearest even, so every source
    // (f64, and f32 and the integers through f64) rounds once.
    "GRT_O uint16_t grt_f64_to_small(double x, int mbits, int ebits) {\n"
    "  uint16_t sign = signbit(x) ? 0x8000u : 0;\n"
    "  uint16_t inf = (uint16_t)(((1u << ebits) - 1) << mbits);\n"
    "  if (x != x) return (uint16_t)(sign | inf | (1u << (mbits - 1)));\n"
    "  double a = fabs(x);\n"
    "  int bias = (1 << (ebits - 1)) - 1, e2;\n"
    "  if (a == 0) return sign;\n"
    "  if (a > 1e300) return (uint16_t)(sign | inf);\n"
    "  frexp(a, &e2);\n"
    "  int e = e2 - 1 < 1 - bias ? 1 - bias : e2 - 1;\n"
    "  double q = rint(ldexp(a, mbits - e));\n"
    "  if (q >= ldexp(1.0, mbits + 1)) { q *= 0.5; ++e; }\n"
    "  if (e > bias) return (uint16_t)(sign | inf);\n"
    "  uint32_t qi = (uint32_t)q;\n"
    "  if (qi < (1u << mbits)) return (uint16_t)(sign | qi);\n"
    "  return (uint16_t)(sign | ((uint32_t)(e + bias) << mbits) | (qi - (1u << mbits)));\n"
    "}\n"
    "GRT_I uint16_t grt_f64_to_f16(double x) { return grt_f64_to_small(x, 10, 5); }\n"
    "GRT_I uint16_t grt_f64_to_bf16(double x) { return grt_f64_to_small(x, 7, 8); }\n";

// After the target's conversions.
static const char grtc_c_family_tail_text[] =
    "GRT_I float grt_round_f16(float x) { return grt_f16_to_f32(grt_f32_to_f16(x)); }\n"
    "GRT_I float grt_round_bf16(float x) { return grt_bf16_to_f32(grt_f32_to_bf16(x)); }\n"
    // Total order keys: flipping the magnitude bits of negatives makes
    // signed integer order the IEEE totalOrder (f32/f64: the target's).
    "GRT_I int16_t grt_key_f16(float x) { int16_t i = (int16_t)grt_f32_to_f16(x); return i < 0 ? (int16_t)(i ^ 32767) : i; }\n"
    "GRT_I int16_t grt_key_bf16(float x) { int16_t i = (int16_t)grt_f32_to_bf16(x); return i < 0 ? (int16_t)(i ^ 32767) : i; }\n"
    "\n";

void grtc_c_family_emit_prelude(grt_string_builder_t* out,
                                const grtc_c_family_prelude_t* target) {
  grt_string_builder_append_cstring(out, target->head);
  grt_string_builder_append_cstring(out, grtc_c_family_arith_text);
  grt_string_builder_append_cstring(out, target->conversions);
  grt_string_builder_append_cstring(out, grtc_c_family_tail_text);
}
