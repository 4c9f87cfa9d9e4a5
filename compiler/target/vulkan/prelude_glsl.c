// The scalar helpers of the GLSL shaders: each scalar op of
// compiler/kernel/scalar.h with its exact meaning, the corners GLSL and
// SPIR-V leave undefined included (division by zero and INT_MIN / -1,
// shifts by >= the width, pow of negative bases, NaN in max/min), printed
// from the GLSL column of compiler/kernel/scalar_impl.h. Helpers are named
// grt_<op spelling>_<suffix> like the CPU target's, so the emitter finds
// them from the op table alone. They are printed as preprocessor macros
// and instantiated only for the types a shader uses, so a shader declares
// (and a device needs) only the capabilities its kernel's types require.
#include "compiler/kernel/scalar_impl.h"
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
    "#define GRT_CAT_(a, b) a##b\n"
    "#define GRT_CAT(a, b) GRT_CAT_(a, b)\n";

// CONVERT float->int (truncating, saturating, NaN to 0) from float and
// from double, after each integer class's rows (compiler/kernel/
// scalar_impl.h; T: the compute type, UT: the unsigned type of the same
// width, W: the width, M: i1's one bit, all ones otherwise. Explicit-width
// types wrap on overflow in SPIR-V, as scalar.h wants).
static const char grtc_vulkan_f2i_signed[] =
    " \\\n"
    "T grt_f2i_##S(float x) { return isnan(x) ? T(0) : x < float(MINV) ? T(MINV) : x >= -float(MINV) ? T(MAXV) : T(x); } \\\n"
    "T grt_f2i_##S(double x) { return isnan(x) ? T(0) : x < double(MINV) ? T(MINV) : x >= -double(MINV) ? T(MAXV) : T(x); }\n";
static const char grtc_vulkan_f2i_unsigned[] =
    " \\\n"
    "T grt_f2i_##S(float x) { return !(x > -1.0) ? T(0) : x >= float(MAXV) + 1.0 ? T(MAXV) : T(x); } \\\n"
    "T grt_f2i_##S(double x) { return !(x > -1.0lf) ? T(0) : x >= double(MAXV) + 1.0lf ? T(MAXV) : T(x); }\n";

// One instantiation per integer type (by grtc_elem_t); i1 computes in
// uint masked to one bit.
static const char* const grtc_vulkan_int_instances[GRTC_ELEM_COUNT] = {
    [GRTC_ELEM_I1] = "GRT_INT_UNSIGNED(i1, uint, uint, 1, 1u, 0, 1u)\n",
    [GRTC_ELEM_I8] =
        "GRT_INT_SIGNED(i8, int8_t, uint8_t, 8, ~uint8_t(0), -128, 127)\n",
    [GRTC_ELEM_I16] = "GRT_INT_SIGNED(i16, int16_t, uint16_t, 16, "
                      "~uint16_t(0), -32768, 32767)\n",
    [GRTC_ELEM_I32] = "GRT_INT_SIGNED(i32, int, uint, 32, ~0u, "
                      "(-2147483647 - 1), 2147483647)\n",
    [GRTC_ELEM_I64] =
        "GRT_INT_SIGNED(i64, int64_t, uint64_t, 64, ~0ul, "
        "(-9223372036854775807l - 1l), 9223372036854775807l)\n",
    [GRTC_ELEM_U8] =
        "GRT_INT_UNSIGNED(u8, uint8_t, uint8_t, 8, ~uint8_t(0), 0, 255u)\n",
    [GRTC_ELEM_U16] = "GRT_INT_UNSIGNED(u16, uint16_t, uint16_t, 16, "
                      "~uint16_t(0), 0, 65535u)\n",
    [GRTC_ELEM_U32] =
        "GRT_INT_UNSIGNED(u32, uint, uint, 32, ~0u, 0, 4294967295u)\n",
    [GRTC_ELEM_U64] = "GRT_INT_UNSIGNED(u64, uint64_t, uint64_t, 64, ~0ul, "
                      "0, 18446744073709551615ul)\n",
};

// Floats: f16 and bf16 compute in f32. The transcendentals go through
// grt_m_<fn> overloads: GLSL's built-ins for float, and for double (which
// GLSL's exp, log, sin, ... do not take) the implementations below.
static const char grtc_vulkan_float_tail[] =
    "\n"
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
  grt_string_builder_append_cstring(out,
                                    "#define GRT_INT_COMMON(S, T, UT, W, M)");
  grtc_scalar_impl_append_class(out, GRTC_SCALAR_CLASS_INT,
                                GRTC_SCALAR_LANG_GLSL, "");
  grt_string_builder_append_cstring(
      out,
      "\n#define GRT_INT_SIGNED(S, T, UT, W, M, MINV, MAXV) \\\n"
      "GRT_INT_COMMON(S, T, UT, W, M)");
  grtc_scalar_impl_append_class(out, GRTC_SCALAR_CLASS_SINT,
                                GRTC_SCALAR_LANG_GLSL, "");
  grt_string_builder_append_cstring(out, grtc_vulkan_f2i_signed);
  grt_string_builder_append_cstring(
      out,
      "#define GRT_INT_UNSIGNED(S, T, UT, W, M, MINV, MAXV) \\\n"
      "GRT_INT_COMMON(S, T, UT, W, M)");
  grtc_scalar_impl_append_class(out, GRTC_SCALAR_CLASS_UINT,
                                GRTC_SCALAR_LANG_GLSL, "");
  grt_string_builder_append_cstring(out, grtc_vulkan_f2i_unsigned);
  for (int t = 0; t < GRTC_ELEM_COUNT; ++t) {
    if (used[t] && grtc_vulkan_int_instances[t]) {
      grt_string_builder_append_cstring(out, grtc_vulkan_int_instances[t]);
    }
  }
  grt_string_builder_append_cstring(
      out, "#define GRT_FLOAT(S, T, SIGNBIT, NAN, INF)");
  grtc_scalar_impl_append_class(out, GRTC_SCALAR_CLASS_FLOAT,
                                GRTC_SCALAR_LANG_GLSL, "");
  grt_string_builder_append_cstring(out, grtc_vulkan_float_tail);
  grt_string_builder_append_cstring(out, grtc_vulkan_f32_instance);
  grt_string_builder_append_cstring(out, grtc_vulkan_small_float_helpers);
  // The emitter marks F64 used for converts that round through double.
  if (used[GRTC_ELEM_F64]) {
    grt_string_builder_append_cstring(out, grtc_vulkan_double_helpers);
    grt_string_builder_append_cstring(out, grtc_vulkan_double_math);
    grt_string_builder_append_cstring(out, grtc_vulkan_f64_instance);
  }
}
