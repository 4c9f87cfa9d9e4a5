// The scalar helpers of the GLSL shaders: each scalar op of
// compiler/kernel/scalar.h with its exact meaning, the corners GLSL and
// SPIR-V leave undefined included (division by zero and INT_MIN / -1,
// shifts by >= the width, pow of negative bases, NaN in max/min). Helpers
// are named grt_<op spelling>_<suffix> like the CPU target's, so the
// emitter finds them from the op table alone. They are written once as
// preprocessor macros and instantiated only for the types a shader uses,
// so a shader declares (and a device needs) only the capabilities its
// kernel's types require.
#include "compiler/target/vulkan/vulkan_internal.h"

static const char grtc_vulkan_int_macros[] =
    // 64-bit compares as a three-way compare of 32-bit halves: lavapipe
    // evaluated `int64_t(x) >= 0l` (x a loaded i32) as false, which
    // turned off a scatter's predicated stores.
    "int grt_cmp_s64(int64_t a, int64_t b) {\n"
    "  ivec2 x = unpackInt2x32(a), y = unpackInt2x32(b);\n"
    "  if (x.y != y.y) return x.y < y.y ? -1 : 1;\n"
    "  uint xl = uint(x.x), yl = uint(y.x);\n"
    "  return xl == yl ? 0 : xl < yl ? -1 : 1;\n"
    "}\n"
    "int grt_cmp_u64(uint64_t a, uint64_t b) {\n"
    "  uvec2 x = unpackUint2x32(a), y = unpackUint2x32(b);\n"
    "  if (x.y != y.y) return x.y < y.y ? -1 : 1;\n"
    "  return x.x == y.x ? 0 : x.x < y.x ? -1 : 1;\n"
    "}\n"
    // T: the compute type, UT: the unsigned type of the same width, W: the
    // width, MASK: i1's one bit (all ones otherwise). Explicit-width types
    // wrap on overflow in SPIR-V, as scalar.h wants.
    "#define GRT_INT_COMMON(S, T, UT, W, MASK) \\\n"
    "T grt_add_##S(T a, T b) { return T((UT(a) + UT(b)) & (MASK)); } \\\n"
    "T grt_subtract_##S(T a, T b) { return T((UT(a) - UT(b)) & (MASK)); } \\\n"
    "T grt_multiply_##S(T a, T b) { return T((UT(a) * UT(b)) & (MASK)); } \\\n"
    "T grt_and_##S(T a, T b) { return a & b; } \\\n"
    "T grt_or_##S(T a, T b) { return a | b; } \\\n"
    "T grt_xor_##S(T a, T b) { return a ^ b; } \\\n"
    "T grt_not_##S(T a) { return T(~UT(a) & (MASK)); } \\\n"
    "T grt_negate_##S(T a) { return T((UT(0) - UT(a)) & (MASK)); } \\\n"
    // Built-in min/max, not selects: lavapipe miscompiled the select form
    // of clamp on i64 (a gather's clamped row index came out as the bound).
    "T grt_maximum_##S(T a, T b) { return max(a, b); } \\\n"
    "T grt_minimum_##S(T a, T b) { return min(a, b); } \\\n"
    "T grt_clamp_##S(T lo, T x, T hi) { return min(max(x, lo), hi); } \\\n"
    "T grt_select_##S(uint c, T a, T b) { return c != 0u ? a : b; } \\\n"
    "T grt_shift_left_##S(T a, T b) { return uint64_t(b) >= uint64_t(W) ? T(0) : T((UT(a) << uint(b)) & (MASK)); } \\\n"
    "T grt_shift_right_logical_##S(T a, T b) { return uint64_t(b) >= uint64_t(W) ? T(0) : T(UT(a) >> uint(b)); } \\\n"
    "T grt_popcnt_##S(T a) { uint64_t u = uint64_t(UT(a)); return T(bitCount(uint(u)) + bitCount(uint(u >> 32))); } \\\n"
    "T grt_count_leading_zeros_##S(T a) { \\\n"
    "  uint64_t u = uint64_t(UT(a)); uint hi = uint(u >> 32), lo = uint(u); \\\n"
    "  int msb = hi != 0u ? 32 + findMSB(hi) : findMSB(lo); \\\n"
    "  return T((W) - 1 - msb); } \\\n"
    "T grt_power_u_##S(T a, T b) { \\\n"
    "  UT r = UT(1), x = UT(a); uint64_t e = uint64_t(UT(b)); \\\n"
    "  while (e != 0ul) { if ((e & 1ul) != 0ul) r = r * x; x = x * x; e >>= 1; } \\\n"
    "  return T(r & (MASK)); }\n"
    "#define GRT_INT_SIGNED(S, T, UT, W, MINV, MAXV) \\\n"
    "GRT_INT_COMMON(S, T, UT, W, ~UT(0)) \\\n"
    "T grt_divide_##S(T a, T b) { return b == T(0) ? T(-1) : (a == T(MINV) && b == T(-1)) ? T(MINV) : T(a / b); } \\\n"
    "T grt_remainder_##S(T a, T b) { return b == T(0) ? a : b == T(-1) ? T(0) : T(a % b); } \\\n"
    "T grt_shift_right_arithmetic_##S(T a, T b) { return uint64_t(b) >= uint64_t(W) ? (a < T(0) ? T(-1) : T(0)) : T(a >> uint(b)); } \\\n"
    "T grt_abs_##S(T a) { return a < T(0) ? T(UT(0) - UT(a)) : a; } \\\n"
    "T grt_sign_##S(T a) { return a > T(0) ? T(1) : a < T(0) ? T(-1) : T(0); } \\\n"
    "T grt_f2i_##S(float x) { return isnan(x) ? T(0) : x < float(MINV) ? T(MINV) : x >= -float(MINV) ? T(MAXV) : T(x); } \\\n"
    "T grt_f2i_##S(double x) { return isnan(x) ? T(0) : x < double(MINV) ? T(MINV) : x >= -double(MINV) ? T(MAXV) : T(x); } \\\n"
    "T grt_power_##S(T a, T b) { \\\n"
    "  return b >= T(0) ? grt_power_u_##S(a, b) : a == T(1) ? T(1) \\\n"
    "       : a == T(-1) ? (((b & T(1)) != T(0)) ? T(-1) : T(1)) : T(0); }\n"
    "#define GRT_INT_UNSIGNED(S, T, W, MASK, MAXV) \\\n"
    "GRT_INT_COMMON(S, T, T, W, MASK) \\\n"
    "T grt_divide_##S(T a, T b) { return b == T(0) ? T(~T(0) & (MASK)) : T(a / b); } \\\n"
    "T grt_remainder_##S(T a, T b) { return b == T(0) ? a : T(a % b); } \\\n"
    "T grt_shift_right_arithmetic_##S(T a, T b) { \\\n"
    "  T fill = ((a >> uint((W) - 1)) & T(1)) != T(0) ? T(~T(0) & (MASK)) : T(0); \\\n"
    "  return uint64_t(b) >= uint64_t(W) ? fill \\\n"
    "       : T(((a >> uint(b)) | ((fill << uint((W) - 1 - int(b))) << 1u)) & (MASK)); } \\\n"
    "T grt_abs_##S(T a) { return a; } \\\n"
    "T grt_sign_##S(T a) { return a != T(0) ? T(1) : T(0); } \\\n"
    "T grt_f2i_##S(float x) { return !(x > -1.0) ? T(0) : x >= float(MAXV) + 1.0 ? T(MAXV) : T(x); } \\\n"
    "T grt_f2i_##S(double x) { return !(x > -1.0lf) ? T(0) : x >= double(MAXV) + 1.0lf ? T(MAXV) : T(x); } \\\n"
    "T grt_power_##S(T a, T b) { return grt_power_u_##S(a, b); }\n";

// One instantiation per integer type (by grtc_elem_t); i1 computes in
// uint masked to one bit.
static const char* const grtc_vulkan_int_instances[GRTC_ELEM_COUNT] = {
    [GRTC_ELEM_I1] = "GRT_INT_UNSIGNED(i1, uint, 1, 1u, 1u)\n",
    [GRTC_ELEM_I8] = "GRT_INT_SIGNED(i8, int8_t, uint8_t, 8, -128, 127)\n",
    [GRTC_ELEM_I16] =
        "GRT_INT_SIGNED(i16, int16_t, uint16_t, 16, -32768, 32767)\n",
    [GRTC_ELEM_I32] = "GRT_INT_SIGNED(i32, int, uint, 32, (-2147483647 - 1), "
                      "2147483647)\n",
    [GRTC_ELEM_I64] =
        "GRT_INT_SIGNED(i64, int64_t, uint64_t, 64, (-9223372036854775807l - "
        "1l), 9223372036854775807l)\n",
    [GRTC_ELEM_U8] = "GRT_INT_UNSIGNED(u8, uint8_t, 8, ~uint8_t(0), 255u)\n",
    [GRTC_ELEM_U16] =
        "GRT_INT_UNSIGNED(u16, uint16_t, 16, ~uint16_t(0), 65535u)\n",
    [GRTC_ELEM_U32] = "GRT_INT_UNSIGNED(u32, uint, 32, ~0u, 4294967295u)\n",
    [GRTC_ELEM_U64] = "GRT_INT_UNSIGNED(u64, uint64_t, 64, ~0ul, "
                      "18446744073709551615ul)\n",
};

static const char grtc_vulkan_float_macros[] =
    // Floats: f16 and bf16 compute in f32. The transcendentals go through
    // grt_m_<fn> overloads: GLSL's built-ins for float, and for double (which
    // GLSL's exp, log, sin, ... do not take) the implementations below.
    "#define GRT_FLOAT(S, T, SIGNBIT, NAN, INF) \\\n"
    "T grt_add_##S(T a, T b) { return a + b; } \\\n"
    "T grt_subtract_##S(T a, T b) { return a - b; } \\\n"
    "T grt_multiply_##S(T a, T b) { return a * b; } \\\n"
    "T grt_divide_##S(T a, T b) { return a / b; } \\\n"
    // fmod: exact for the quotients that fit the mantissa.
    "T grt_remainder_##S(T a, T b) { \\\n"
    "  if (isnan(a) || isnan(b) || isinf(a) || b == T(0)) return NAN; \\\n"
    "  if (isinf(b)) return a; \\\n"
    "  T r = a - b * trunc(a / b); \\\n"
    "  if (abs(r) >= abs(b)) r -= b * trunc(r / b); \\\n"
    "  if (r != T(0) && SIGNBIT(r) != SIGNBIT(a)) r += SIGNBIT(r) == SIGNBIT(b) ? -b : b; \\\n"
    "  return r == T(0) ? (SIGNBIT(a) ? -T(0) : T(0)) : r; } \\\n"
    "T grt_power_##S(T a, T b) { \\\n"
    "  if (b == T(0) || a == T(1)) return T(1); \\\n"
    "  if (isnan(a) || isnan(b)) return NAN; \\\n"
    "  bool b_int = floor(b) == b; \\\n"
    "  bool odd = b_int && abs(b) < T(9007199254740992.0) && mod(b, T(2)) == T(1); \\\n"
    "  if (a < T(0) && !b_int && !isinf(b)) return NAN; \\\n"
    "  T m = abs(a); T r; \\\n"
    "  if (m == T(0)) r = b < T(0) ? INF : T(0); \\\n"
    "  else if (isinf(b)) r = m == T(1) ? T(1) : ((m > T(1)) == (b > T(0)) ? INF : T(0)); \\\n"
    "  else r = grt_m_pow(m, b); \\\n"
    "  return (SIGNBIT(a) && odd) ? -r : r; } \\\n"
    "T grt_maximum_##S(T a, T b) { \\\n"
    "  if (isnan(a) || isnan(b)) return a + b; \\\n"
    "  if (a == b) return SIGNBIT(a) ? b : a; \\\n"
    "  return a > b ? a : b; } \\\n"
    "T grt_minimum_##S(T a, T b) { \\\n"
    "  if (isnan(a) || isnan(b)) return a + b; \\\n"
    "  if (a == b) return SIGNBIT(a) ? a : b; \\\n"
    "  return a < b ? a : b; } \\\n"
    "T grt_clamp_##S(T lo, T x, T hi) { return grt_minimum_##S(grt_maximum_##S(x, lo), hi); } \\\n"
    "T grt_select_##S(uint c, T a, T b) { return c != 0u ? a : b; } \\\n"
    "T grt_atan2_##S(T a, T b) { \\\n"
    "  if (isnan(a) || isnan(b)) return NAN; \\\n"
    "  if (b == T(0) && a == T(0)) return SIGNBIT(b) ? (SIGNBIT(a) ? T(-3.14159265358979323846) : T(3.14159265358979323846)) : a; \\\n"
    "  return grt_m_atan2(a, b); } \\\n"
    "T grt_abs_##S(T a) { return abs(a); } \\\n"
    "T grt_negate_##S(T a) { return -a; } \\\n"
    "T grt_sign_##S(T a) { return a > T(0) ? T(1) : a < T(0) ? T(-1) : a; } \\\n"
    "T grt_exponential_##S(T a) { return grt_m_exp(a); } \\\n"
    "T grt_exponential_minus_one_##S(T a) { return grt_m_expm1(a); } \\\n"
    "T grt_log_##S(T a) { return grt_m_log(a); } \\\n"
    // log1p: log(u) * a / (u - 1) cancels the rounding of u = 1 + a. Both
    // are 'precise': a driver may otherwise fold (1 + a) - 1 to a (lavapipe
    // does), which undoes the correction (2280 ULP at 1e-4).
    "T grt_log_plus_one_##S(T a) { \\\n"
    "  precise T u = T(1) + a; \\\n"
    "  if (u == T(1)) return a; \\\n"
    "  if (isinf(u)) return u; \\\n"
    "  precise T d = u - T(1); \\\n"
    "  return grt_m_log(u) * a / d; } \\\n"
    "T grt_logistic_##S(T a) { return T(1) / (T(1) + grt_m_exp(-a)); } \\\n"
    "T grt_sqrt_##S(T a) { return sqrt(a); } \\\n"
    "T grt_rsqrt_##S(T a) { return T(1) / sqrt(a); } \\\n"
    // cbrt: pow on the magnitude, then one Newton step.
    "T grt_cbrt_##S(T a) { \\\n"
    "  if (a == T(0) || isnan(a) || isinf(a)) return a; \\\n"
    "  T m = abs(a); T r = grt_m_cbrt_seed(m); \\\n"
    "  r = r - (r * r * r - m) / (T(3) * r * r); \\\n"
    "  r = r - (r * r * r - m) / (T(3) * r * r); \\\n"
    "  return a < T(0) ? -r : r; } \\\n"
    // tanh: large magnitudes would overflow exp inside some tanh.
    "T grt_tanh_##S(T a) { \\\n"
    "  if (isnan(a)) return a; \\\n"
    "  if (abs(a) > T(20)) return a > T(0) ? T(1) : T(-1); \\\n"
    "  if (abs(a) < T(1e-4)) return a; \\\n"
    "  return grt_m_tanh(a); } \\\n"
    "T grt_sine_##S(T a) { return grt_m_sin(a); } \\\n"
    "T grt_cosine_##S(T a) { return grt_m_cos(a); } \\\n"
    "T grt_tan_##S(T a) { return grt_m_tan(a); } \\\n"
    "T grt_floor_##S(T a) { return floor(a); } \\\n"
    "T grt_ceil_##S(T a) { return ceil(a); } \\\n"
    "T grt_round_nearest_afz_##S(T a) { \\\n"
    "  if (isnan(a) || isinf(a)) return a; \\\n"
    "  T t = trunc(a); T r = abs(t) + (abs(a - t) >= T(0.5) ? T(1) : T(0)); \\\n"
    "  return SIGNBIT(a) ? -r : r; } \\\n"
    "T grt_round_nearest_even_##S(T a) { return grt_m_rint(a); } \\\n"
    "uint grt_is_finite_##S(T a) { return (isnan(a) || isinf(a)) ? 0u : 1u; }\n"
    "bool grt_signbit_f32(float x) { return (floatBitsToUint(x) >> 31) != 0u; }\n";

static const char grtc_vulkan_f32_instance[] =
    "float grt_m_rint(float x) { return roundEven(x); }\n"
    "float grt_m_exp(float x) { return exp(x); }\n"
    // expm1 and log in f32 as the double ones below: GLSL's log is only
    // absolutely accurate near 1 (lavapipe's is ~1e-7 off there, a
    // thousand ULP of log(1.0001)), and exp(x) - 1 cancels for small x.
    "float grt_m_expm1(float x) {\n"
    "  if (abs(x) >= 0.5) return exp(x) - 1.0;\n"
    "  float p = 1.0;\n"
    "  for (int k = 9; k >= 2; --k) p = 1.0 + x * p / float(k);\n"
    "  return x * p;\n"
    "}\n"
    "float grt_m_log(float x) {\n"
    "  if (isnan(x) || x < 0.0) return uintBitsToFloat(0x7fc00000u);\n"
    "  if (x == 0.0) return -uintBitsToFloat(0x7f800000u);\n"
    "  if (isinf(x)) return x;\n"
    "  int e; float m = frexp(x, e);\n"
    "  if (m < 0.70710678) { m *= 2.0; e -= 1; }\n"
    "  float f = m - 1.0, s = f / (2.0 + f), s2 = s * s;\n"
    "  float p = 1.0 / 13.0;\n"
    "  for (int k = 11; k >= 1; k -= 2) p = 1.0 / float(k) + s2 * p;\n"
    "  return float(e) * 0.693145751953125 + (2.0 * s * p + float(e) * 1.42860682030941723212e-06);\n"
    "}\n"
    "float grt_m_pow(float x, float y) { return pow(x, y); }\n"
    "float grt_m_atan2(float y, float x) { return atan(y, x); }\n"
    "float grt_m_tanh(float x) { return tanh(x); }\n"
    "float grt_m_sin(float x) { return sin(x); }\n"
    "float grt_m_cos(float x) { return cos(x); }\n"
    "float grt_m_tan(float x) { return tan(x); }\n"
    "float grt_m_cbrt_seed(float x) { return pow(x, 1.0 / 3.0); }\n"
    "GRT_FLOAT(f32, float, grt_signbit_f32, uintBitsToFloat(0x7fc00000u), "
    "uintBitsToFloat(0x7f800000u))\n";
// Double transcendentals (GLSL has only sqrt, floor, ... for double):
// Cody-Waite range reduction, then Taylor/atanh series to below an ulp.
static const char grtc_vulkan_double_math[] =
    "const double GRT_D_PI = 3.141592653589793lf;\n"
    "#define GRT_D_INF packDouble2x32(uvec2(0u, 0x7ff00000u))\n"
    "#define GRT_D_NAN packDouble2x32(uvec2(0u, 0x7ff80000u))\n"
    // ldexp in two halves: GLSL leaves exponents past +-1022 undefined.
    "double grt_d_scale(double x, int n) { int h = n / 2; return ldexp(ldexp(x, h), n - h); }\n"
    "double grt_m_exp(double x) {\n"
    "  if (isnan(x)) return x;\n"
    "  if (x > 709.8lf) return GRT_D_INF;\n"
    "  if (x < -745.2lf) return 0.0lf;\n"
    "  double n = floor(x * 1.4426950408889634lf + 0.5lf);\n"
    "  double r = (x - n * 6.93147180369123816490e-01lf) - n * 1.90821492927058770002e-10lf;\n"
    "  double p = 1.0lf;\n"
    "  for (int k = 14; k >= 1; --k) p = 1.0lf + r * p / double(k);\n"
    "  return grt_d_scale(p, int(n));\n"
    "}\n"
    "double grt_m_expm1(double x) {\n"
    "  if (abs(x) >= 0.5lf) return grt_m_exp(x) - 1.0lf;\n"
    "  double p = 1.0lf;\n"
    "  for (int k = 18; k >= 2; --k) p = 1.0lf + x * p / double(k);\n"
    "  return x * p;\n"
    "}\n"
    "double grt_m_log(double x) {\n"
    "  if (isnan(x) || x < 0.0lf) return GRT_D_NAN;\n"
    "  if (x == 0.0lf) return -GRT_D_INF;\n"
    "  if (isinf(x)) return x;\n"
    "  int e; double m = frexp(x, e);\n"
    "  if (m < 0.7071067811865476lf) { m *= 2.0lf; e -= 1; }\n"
    "  double f = m - 1.0lf, s = f / (2.0lf + f), s2 = s * s;\n"
    "  double p = 1.0lf / 23.0lf;\n"
    "  for (int k = 21; k >= 1; k -= 2) p = 1.0lf / double(k) + s2 * p;\n"
    "  return double(e) * 6.93147180369123816490e-01lf + (2.0lf * s * p + double(e) * 1.90821492927058770002e-10lf);\n"
    "}\n"
    "double grt_m_pow(double x, double y) { return grt_m_exp(y * grt_m_log(x)); }\n"
    // atan on [0, inf): 1/z above 1, then pi/6 off above tan(pi/12).
    "double grt_d_atan(double z) {\n"
    "  bool inv = z > 1.0lf; if (inv) z = 1.0lf / z;\n"
    "  double off = 0.0lf;\n"
    "  if (z > 0.2679491924311227lf) { z = (z * 1.7320508075688772lf - 1.0lf) / (1.7320508075688772lf + z); off = GRT_D_PI / 6.0lf; }\n"
    "  double z2 = z * z, p = 1.0lf / 33.0lf;\n"
    "  for (int k = 31; k >= 1; k -= 2) p = 1.0lf / double(k) - z2 * p;\n"
    "  double a = off + z * p;\n"
    "  return inv ? GRT_D_PI / 2.0lf - a : a;\n"
    "}\n"
    "double grt_m_atan2(double y, double x) {\n"
    "  double ay = abs(y), ax = abs(x), a;\n"
    "  if (isinf(ay) && isinf(ax)) a = GRT_D_PI / 4.0lf;\n"
    "  else if (ax == 0.0lf || isinf(ay)) a = GRT_D_PI / 2.0lf;\n"
    "  else a = grt_d_atan(ay / ax);\n"
    "  if ((unpackDouble2x32(x).y >> 31) != 0u) a = GRT_D_PI - a;\n"
    "  return (unpackDouble2x32(y).y >> 31) != 0u ? -a : a;\n"
    "}\n"
    // x = k * pi/2 + r, |r| <= pi/4 (pi/2 in three parts of 33 bits).
    "double grt_d_reduce(double x, out int q) {\n"
    "  double k = floor(x * 0.6366197723675814lf + 0.5lf);\n"
    "  double r = x - k * 1.57079632673412561417e+00lf;\n"
    "  r -= k * 6.07710050630396597660e-11lf;\n"
    "  r -= k * 2.02226624879595063154e-21lf;\n"
    "  q = int(k - 4.0lf * floor(k / 4.0lf));\n"
    "  return r;\n"
    "}\n"
    "double grt_d_sin_poly(double r) {\n"
    "  double r2 = r * r, p = 1.0lf;\n"
    "  for (int n = 10; n >= 1; --n) p = 1.0lf - r2 * p / double((2 * n) * (2 * n + 1));\n"
    "  return r * p;\n"
    "}\n"
    "double grt_d_cos_poly(double r) {\n"
    "  double r2 = r * r, p = 1.0lf;\n"
    "  for (int n = 10; n >= 1; --n) p = 1.0lf - r2 * p / double((2 * n - 1) * (2 * n));\n"
    "  return p;\n"
    "}\n"
    "double grt_m_sin(double x) {\n"
    "  if (isnan(x) || isinf(x)) return GRT_D_NAN;\n"
    "  int q; double r = grt_d_reduce(x, q);\n"
    "  double s = grt_d_sin_poly(r), c = grt_d_cos_poly(r);\n"
    "  return q == 0 ? s : q == 1 ? c : q == 2 ? -s : -c;\n"
    "}\n"
    "double grt_m_cos(double x) {\n"
    "  if (isnan(x) || isinf(x)) return GRT_D_NAN;\n"
    "  int q; double r = grt_d_reduce(x, q);\n"
    "  double s = grt_d_sin_poly(r), c = grt_d_cos_poly(r);\n"
    "  return q == 0 ? c : q == 1 ? -s : q == 2 ? -c : s;\n"
    "}\n"
    "double grt_m_tan(double x) {\n"
    "  if (isnan(x) || isinf(x)) return GRT_D_NAN;\n"
    "  int q; double r = grt_d_reduce(x, q);\n"
    "  double s = grt_d_sin_poly(r), c = grt_d_cos_poly(r);\n"
    "  return (q & 1) == 0 ? s / c : -c / s;\n"
    "}\n"
    "double grt_m_tanh(double x) {\n"
    "  if (abs(x) < 0.5lf) { double t = grt_m_expm1(2.0lf * x); return t / (t + 2.0lf); }\n"
    "  double e = grt_m_exp(2.0lf * abs(x));\n"
    "  double t = 1.0lf - 2.0lf / (e + 1.0lf);\n"
    "  return x < 0.0lf ? -t : t;\n"
    "}\n"
    "double grt_m_cbrt_seed(double x) {\n"
    "  int e; double m = frexp(x, e);\n"
    "  int e3 = e >= 0 ? e / 3 : -((2 - e) / 3);\n"
    "  double seed = double(pow(float(ldexp(m, e - 3 * e3)), 1.0 / 3.0));\n"
    "  return ldexp(seed, e3);\n"
    "}\n";

static const char grtc_vulkan_f64_instance[] =
    "bool grt_signbit_f64(double x) { return (unpackDouble2x32(x).y >> 31) != 0u; }\n"
    "GRT_FLOAT(f64, double, grt_signbit_f64, "
    "packDouble2x32(uvec2(0u, 0x7ff80000u)), packDouble2x32(uvec2(0u, 0x7ff00000u)))\n";

// f16/bf16 bit patterns <-> f32, rounding to nearest even; from double as
// well so i32/i64/f64 sources round once (scalar.h).
static const char grtc_vulkan_small_float_helpers[] =
    "float grt_f16_to_f32(uint h) {\n"
    "  uint sign = (h >> 15) << 31, e = (h >> 10) & 31u, m = h & 1023u;\n"
    "  if (e == 31u) return uintBitsToFloat(sign | 0x7f800000u | (m << 13));\n"
    "  float f = ldexp(float(e != 0u ? (m | 1024u) : m), int(e != 0u ? e : 1u) - 25);\n"
    "  return sign != 0u ? -f : f;\n"
    "}\n"
    "float grt_bf16_to_f32(uint h) { return uintBitsToFloat(h << 16); }\n"
    "uint grt_f32_to_small(float x, int mbits, int ebits) {\n"
    "  uint sign = (floatBitsToUint(x) >> 31) << 15;\n"
    "  uint inf = ((1u << ebits) - 1u) << mbits;\n"
    "  if (isnan(x)) return sign | inf | (1u << (mbits - 1));\n"
    "  float a = abs(x);\n"
    "  int bias = (1 << (ebits - 1)) - 1;\n"
    "  if (a == 0.0) return sign;\n"
    "  if (isinf(a)) return sign | inf;\n"
    "  int e2; frexp(a, e2);\n"
    "  int e = max(e2 - 1, 1 - bias);\n"
    "  float q = roundEven(ldexp(a, mbits - e));\n"
    "  if (q >= ldexp(1.0, mbits + 1)) { q *= 0.5; ++e; }\n"
    "  if (e > bias) return sign | inf;\n"
    "  uint qi = uint(q);\n"
    "  if (qi < (1u << mbits)) return sign | qi;\n"
    "  return sign | (uint(e + bias) << mbits) | (qi - (1u << mbits));\n"
    "}\n"
    "uint grt_f32_to_f16(float x) { return grt_f32_to_small(x, 10, 5); }\n"
    "uint grt_f32_to_bf16(float x) {\n"
    "  uint u = floatBitsToUint(x);\n"
    "  if ((u & 0x7fffffffu) > 0x7f800000u) return (u >> 16) | 0x40u;\n"
    "  return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;\n"
    "}\n"
    "float grt_round_f16(float x) { return grt_f16_to_f32(grt_f32_to_f16(x)); }\n"
    "float grt_round_bf16(float x) { return grt_bf16_to_f32(grt_f32_to_bf16(x)); }\n"
    "int grt_key_f32(float x) { int i = floatBitsToInt(x); return i < 0 ? i ^ 0x7fffffff : i; }\n"
    "int grt_key_f16(float x) { int i = int(grt_f32_to_f16(x)); return (i & 0x8000) != 0 ? -1 - (i & 0x7fff) : i; }\n"
    "int grt_key_bf16(float x) { int i = int(grt_f32_to_bf16(x)); return (i & 0x8000) != 0 ? -1 - (i & 0x7fff) : i; }\n";

// Needs 64-bit types: rounding from double and the f64 order key.
static const char grtc_vulkan_double_helpers[] =
    // Ties to even by hand: with roundEven on doubles, lavapipe rounded
    // i32 2051 to f16 2050 (a tie to odd); floor-based rounding is exact.
    "double grt_m_rint(double x) {\n"
    "  if (!(abs(x) < 4503599627370496.0lf)) return x;\n"
    "  double r = floor(x + 0.5lf);\n"
    "  if (r - x == 0.5lf && mod(r, 2.0lf) != 0.0lf) r -= 1.0lf;\n"
    "  return r;\n"
    "}\n"
    "uint grt_f64_to_small(double x, int mbits, int ebits) {\n"
    "  uint sign = (unpackDouble2x32(x).y >> 31) << 15;\n"
    "  uint inf = ((1u << ebits) - 1u) << mbits;\n"
    "  if (isnan(x)) return sign | inf | (1u << (mbits - 1));\n"
    "  double a = abs(x);\n"
    "  int bias = (1 << (ebits - 1)) - 1;\n"
    "  if (a == 0.0lf) return sign;\n"
    "  if (isinf(a) || a > 1e300lf) return sign | inf;\n"
    "  int e2; frexp(a, e2);\n"
    "  int e = max(e2 - 1, 1 - bias);\n"
    "  double q = grt_m_rint(ldexp(a, mbits - e));\n"
    "  if (q >= ldexp(1.0lf, mbits + 1)) { q *= 0.5lf; ++e; }\n"
    "  if (e > bias) return sign | inf;\n"
    "  uint qi = uint(q);\n"
    "  if (qi < (1u << mbits)) return sign | qi;\n"
    "  return sign | (uint(e + bias) << mbits) | (qi - (1u << mbits));\n"
    "}\n"
    "uint grt_f64_to_f16(double x) { return grt_f64_to_small(x, 10, 5); }\n"
    "uint grt_f64_to_bf16(double x) { return grt_f64_to_small(x, 7, 8); }\n"
    "int64_t grt_key_f64(double x) { int64_t i = doubleBitsToInt64(x); return i < 0l ? i ^ 9223372036854775807l : i; }\n";

void grtc_vulkan_emit_prelude(const bool used[GRTC_ELEM_COUNT],
                              grt_string_builder_t* out) {
  grt_string_builder_append_cstring(out, grtc_vulkan_int_macros);
  for (int t = 0; t < GRTC_ELEM_COUNT; ++t) {
    if (used[t] && grtc_vulkan_int_instances[t]) {
      grt_string_builder_append_cstring(out, grtc_vulkan_int_instances[t]);
    }
  }
  grt_string_builder_append_cstring(out, grtc_vulkan_float_macros);
  grt_string_builder_append_cstring(out, grtc_vulkan_f32_instance);
  grt_string_builder_append_cstring(out, grtc_vulkan_small_float_helpers);
  // The emitter marks F64 used for converts that round through double.
  if (used[GRTC_ELEM_F64]) {
    grt_string_builder_append_cstring(out, grtc_vulkan_double_helpers);
    grt_string_builder_append_cstring(out, grtc_vulkan_double_math);
    grt_string_builder_append_cstring(out, grtc_vulkan_f64_instance);
  }
}
