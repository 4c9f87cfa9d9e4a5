// How each scalar op of compiler/kernel/scalar.h is computed, written once
// for every consumer:
//   - the constant folder's evaluator (compiler/tensor/eval_ops.c compiles
//     the C column as C, one instance per element type);
//   - the C and CUDA preludes (compiler/target/c_family/prelude.c prints
//     the C column as the grt_<op>_<type> helpers);
//   - the GLSL prelude (compiler/target/vulkan/prelude_glsl.c prints the
//     GLSL column);
//   - the kernel IR reference interpreter the compiler tests use
//     (compiler/dispatch/kernel_interp_test_util.c calls the evaluator).
// scalar_impl_test.c checks that every op accepts exactly the element types
// its rows cover, that the evaluator computes every row, and that each
// prelude defines each row's helper; the backend tests compile the
// preludes (cc, NVRTC/ptxas, shaderc) for every op of every type.
//
// X(OP, spelling, CLASS, SIG, (C body), (GLSL body))
//   OP        the GRTC_SCALAR_<OP> the row computes; NONE for a support
//             helper other rows call (power_u).
//   spelling  the op's grtc_scalar_op_spelling as a token: the helper is
//             grt_<spelling>_<type suffix>.
//   CLASS     the element types the row covers: INT (every integer type,
//             i1 included), SINT (i8..i64), UINT (i1 and ui8..ui64), FLOAT
//             (f32 and f64; f16 and bf16 compute in f32).
//   SIG       the helper's signature: UN T(T a), BIN T(T a, T b), TERN
//             T(T lo, T x, T hi) (clamp), SEL T(B c, T a, T b) (select),
//             PRED B(T a), where B is uint8_t in C and uint in GLSL.
//   bodies    the helper's statements, in parentheses. They name the
//             instance's parameters:
//               integers: S (type suffix), T (compute type), UT (T's
//               unsigned type), W (bit width), M (the mask of a result's
//               bits: 1 for i1, all ones otherwise); in C also WU (the
//               unsigned type at least 32 bits wide the arithmetic wraps
//               in, so no promotion to int can overflow);
//               floats: S, T; in C also F (libm suffix: f or nothing); in
//               GLSL SIGNBIT, NAN and INF;
//             and call other helpers as GRT_CAT(grt_<spelling>_, S)(...)
//             and libm as GRT_CAT(<fn>, F)(...). A row calls only rows
//             above it.
// C bodies use only what C11 and CUDA C++ share, plus GRT_POPCNT64(x) and
// GRT_CLZ64(x) (64 for 0) on uint64_t, which each prelude's head defines.
// GLSL bodies may call the grt_m_<fn> math overloads of prelude_glsl.c.
//
// Adding a scalar op: a row in GRTC_SCALAR_OP_LIST (scalar.h) and its rows
// here, one per class it accepts.
#ifndef GRT_COMPILER_KERNEL_SCALAR_IMPL_H_
#define GRT_COMPILER_KERNEL_SCALAR_IMPL_H_

// clang-format off
#define GRTC_SCALAR_IMPL_LIST(X) \
  X(ADD, add, INT, BIN, \
    (return (T)(((WU)a + (WU)b) & (WU)(M));), \
    (return T((UT(a) + UT(b)) & (M));)) \
  X(ADD, add, FLOAT, BIN, (return a + b;), (return a + b;)) \
  X(SUB, subtract, INT, BIN, \
    (return (T)(((WU)a - (WU)b) & (WU)(M));), \
    (return T((UT(a) - UT(b)) & (M));)) \
  X(SUB, subtract, FLOAT, BIN, (return a - b;), (return a - b;)) \
  X(MUL, multiply, INT, BIN, \
    (return (T)(((WU)a * (WU)b) & (WU)(M));), \
    (return T((UT(a) * UT(b)) & (M));)) \
  X(MUL, multiply, FLOAT, BIN, (return a * b;), (return a * b;)) \
  /* Division by zero gives all ones; x / -1 is the wrapping negation, */ \
  /* so INT_MIN / -1 is INT_MIN and never traps. */ \
  X(DIV, divide, SINT, BIN, \
    (return b == 0 ? (T)-1 : b == (T)-1 ? (T)(0 - (WU)a) : (T)(a / b);), \
    (return b == T(0) ? T(-1) : b == T(-1) ? T(UT(0) - UT(a)) : T(a / b);)) \
  X(DIV, divide, UINT, BIN, \
    (return b == 0 ? (T)(~(WU)0 & (WU)(M)) : (T)(a / b);), \
    (return b == T(0) ? T(~T(0) & (M)) : T(a / b);)) \
  X(DIV, divide, FLOAT, BIN, (return a / b;), (return a / b;)) \
  X(REM, remainder, SINT, BIN, \
    (return b == 0 ? a : b == (T)-1 ? (T)0 : (T)(a % b);), \
    (return b == T(0) ? a : b == T(-1) ? T(0) : T(a % b);)) \
  X(REM, remainder, UINT, BIN, \
    (return b == 0 ? a : (T)(a % b);), \
    (return b == T(0) ? a : T(a % b);)) \
  /* fmod; GLSL's is exact for the quotients that fit the mantissa. */ \
  X(REM, remainder, FLOAT, BIN, \
    (return GRT_CAT(fmod, F)(a, b);), \
    (if (isnan(a) || isnan(b) || isinf(a) || b == T(0)) return NAN; \
     if (isinf(b)) return a; \
     T r = a - b * trunc(a / b); \
     if (abs(r) >= abs(b)) r -= b * trunc(r / b); \
     if (r != T(0) && SIGNBIT(r) != SIGNBIT(a)) r += SIGNBIT(r) == SIGNBIT(b) ? -b : b; \
     return r == T(0) ? (SIGNBIT(a) ? -T(0) : T(0)) : r;)) \
  /* Exponentiation by squaring, wrapping; the exponent's bits as unsigned. */ \
  X(NONE, power_u, INT, BIN, \
    (WU r = 1, x = (WU)a; uint64_t e = (uint64_t)b; \
     while (e) { r = (e & 1) ? r * x : r; x *= x; e >>= 1; } \
     return (T)(r & (WU)(M));), \
    (UT r = UT(1), x = UT(a); uint64_t e = uint64_t(UT(b)); \
     while (e != 0ul) { if ((e & 1ul) != 0ul) r = r * x; x = x * x; e >>= 1; } \
     return T(r & (M));)) \
  /* Negative exponents give 0 except for bases 1 and -1. */ \
  X(POW, power, SINT, BIN, \
    (return b >= 0 ? GRT_CAT(grt_power_u_, S)(a, b) : a == 1 ? (T)1 \
          : a == (T)-1 ? ((b & 1) ? (T)-1 : (T)1) : (T)0;), \
    (return b >= T(0) ? GRT_CAT(grt_power_u_, S)(a, b) : a == T(1) ? T(1) \
          : a == T(-1) ? (((b & T(1)) != T(0)) ? T(-1) : T(1)) : T(0);)) \
  X(POW, power, UINT, BIN, \
    (return GRT_CAT(grt_power_u_, S)(a, b);), \
    (return GRT_CAT(grt_power_u_, S)(a, b);)) \
  /* GLSL: pow of negative bases and the IEEE special cases by hand. */ \
  X(POW, power, FLOAT, BIN, \
    (return GRT_CAT(pow, F)(a, b);), \
    (if (b == T(0) || a == T(1)) return T(1); \
     if (isnan(a) || isnan(b)) return NAN; \
     bool b_int = floor(b) == b; \
     bool odd = b_int && abs(b) < T(9007199254740992.0) && mod(b, T(2)) == T(1); \
     if (a < T(0) && !b_int && !isinf(b)) return NAN; \
     T m = abs(a); T r; \
     if (m == T(0)) r = b < T(0) ? INF : T(0); \
     else if (isinf(b)) r = m == T(1) ? T(1) : ((m > T(1)) == (b > T(0)) ? INF : T(0)); \
     else r = grt_m_pow(m, b); \
     return (SIGNBIT(a) && odd) ? -r : r;)) \
  /* GLSL integer min/max/clamp use the built-ins, not selects: lavapipe */ \
  /* miscompiled the select form of clamp on i64. */ \
  X(MAX, maximum, INT, BIN, \
    (return a > b ? a : b;), \
    (return max(a, b);)) \
  /* Floats: NaN propagates and -0 orders below +0. The C form is selects */ \
  /* only (no short-circuit ||, no nested branches) so loops using it */ \
  /* if-convert and vectorize; -fno-trapping-math lets the compiler */ \
  /* evaluate every arm. m and t are the larger operand by > each way */ \
  /* round (maxps either way round, the second operand when equal), */ \
  /* equal unless a == b; a zero result is m + t, which is +0 unless both */ \
  /* are -0 (min: -(-m - t), -0 unless both are +0). No signbit: its */ \
  /* integer test and the extra select for a == b took three times the */ \
  /* vector instructions (a ReLU epilogue 27 per vector, now 9). */ \
  X(MAX, maximum, FLOAT, BIN, \
    (const T m = a > b ? a : b; const T t = b > a ? b : a; \
     const T z = m == 0 ? m + t : m; \
     return ((a != a) | (b != b)) ? a + b : z;), \
    (if (isnan(a) || isnan(b)) return a + b; \
     if (a == b) return SIGNBIT(a) ? b : a; \
     return a > b ? a : b;)) \
  X(MIN, minimum, INT, BIN, \
    (return a < b ? a : b;), \
    (return min(a, b);)) \
  X(MIN, minimum, FLOAT, BIN, \
    (const T m = a < b ? a : b; const T t = b < a ? b : a; \
     const T z = m == 0 ? -(-m - t) : m; \
     return ((a != a) | (b != b)) ? a + b : z;), \
    (if (isnan(a) || isnan(b)) return a + b; \
     if (a == b) return SIGNBIT(a) ? a : b; \
     return a < b ? a : b;)) \
  X(AND, and, INT, BIN, (return (T)(a & b);), (return a & b;)) \
  X(OR, or, INT, BIN, (return (T)(a | b);), (return a | b;)) \
  X(XOR, xor, INT, BIN, (return (T)(a ^ b);), (return a ^ b;)) \
  /* Amounts >= the width (negative ones are huge as uint64_t) shift */ \
  /* every bit out; hardware shifts mask (x86) or clamp (PTX) them. */ \
  X(SHL, shift_left, INT, BIN, \
    (return (uint64_t)b >= (W) ? (T)0 : (T)(((WU)a << b) & (WU)(M));), \
    (return uint64_t(b) >= uint64_t(W) ? T(0) : T((UT(a) << uint(b)) & (M));)) \
  X(SHRA, shift_right_arithmetic, SINT, BIN, \
    (return (uint64_t)b >= (W) ? (T)(a < 0 ? -1 : 0) : (T)(a >> b);), \
    (return uint64_t(b) >= uint64_t(W) ? (a < T(0) ? T(-1) : T(0)) : T(a >> uint(b));)) \
  /* Unsigned types shift in copies of their top bit too. */ \
  X(SHRA, shift_right_arithmetic, UINT, BIN, \
    (WU fill = (((WU)a >> ((W) - 1)) & 1) ? ~(WU)0 : 0; \
     return (uint64_t)b >= (W) ? (T)(fill & (WU)(M)) \
          : (T)((((WU)a >> b) | ((fill << ((W) - 1 - b)) << 1)) & (WU)(M));), \
    (T fill = ((a >> uint((W) - 1)) & T(1)) != T(0) ? T(~T(0) & (M)) : T(0); \
     return uint64_t(b) >= uint64_t(W) ? fill \
          : T(((a >> uint(b)) | ((fill << uint((W) - 1 - int(b))) << 1u)) & (M));)) \
  X(SHRL, shift_right_logical, INT, BIN, \
    (return (uint64_t)b >= (W) ? (T)0 : (T)((UT)a >> b);), \
    (return uint64_t(b) >= uint64_t(W) ? T(0) : T(UT(a) >> uint(b));)) \
  X(ATAN2, atan2, FLOAT, BIN, \
    (return GRT_CAT(atan2, F)(a, b);), \
    (if (isnan(a) || isnan(b)) return NAN; \
     if (b == T(0) && a == T(0)) return SIGNBIT(b) ? (SIGNBIT(a) ? T(-3.14159265358979323846) : T(3.14159265358979323846)) : a; \
     return grt_m_atan2(a, b);)) \
  /* On i1 (M = 1) logical, on wider integers bitwise. */ \
  X(NOT, not, INT, UN, \
    (return (T)(~(WU)a & (WU)(M));), \
    (return T(~UT(a) & (M));)) \
  X(ABS, abs, SINT, UN, \
    (return a < 0 ? (T)(0 - (WU)a) : a;), \
    (return a < T(0) ? T(UT(0) - UT(a)) : a;)) \
  X(ABS, abs, UINT, UN, (return a;), (return a;)) \
  X(ABS, abs, FLOAT, UN, (return GRT_CAT(fabs, F)(a);), (return abs(a);)) \
  X(NEG, negate, INT, UN, \
    (return (T)((0 - (WU)a) & (WU)(M));), \
    (return T((UT(0) - UT(a)) & (M));)) \
  X(NEG, negate, FLOAT, UN, (return -a;), (return -a;)) \
  X(SIGN, sign, SINT, UN, \
    (return (T)((a > 0) - (a < 0));), \
    (return a > T(0) ? T(1) : a < T(0) ? T(-1) : T(0);)) \
  X(SIGN, sign, UINT, UN, \
    (return (T)(a != 0);), \
    (return a != T(0) ? T(1) : T(0);)) \
  /* +-0 and NaN stay. */ \
  X(SIGN, sign, FLOAT, UN, \
    (return a > 0 ? (T)1 : a < 0 ? (T)-1 : a;), \
    (return a > T(0) ? T(1) : a < T(0) ? T(-1) : a;)) \
  X(EXP, exponential, FLOAT, UN, \
    (return GRT_CAT(exp, F)(a);), (return grt_m_exp(a);)) \
  X(EXPM1, exponential_minus_one, FLOAT, UN, \
    (return GRT_CAT(expm1, F)(a);), (return grt_m_expm1(a);)) \
  X(LOG, log, FLOAT, UN, \
    (return GRT_CAT(log, F)(a);), (return grt_m_log(a);)) \
  /* GLSL: log(u) * a / (u - 1) cancels the rounding of u = 1 + a. Both */ \
  /* are 'precise': a driver may otherwise fold (1 + a) - 1 to a (lavapipe */ \
  /* does), which undoes the correction (2280 ULP at 1e-4). */ \
  X(LOG1P, log_plus_one, FLOAT, UN, \
    (return GRT_CAT(log1p, F)(a);), \
    (precise T u = T(1) + a; \
     if (u == T(1)) return a; \
     if (isinf(u)) return u; \
     precise T d = u - T(1); \
     return grt_m_log(u) * a / d;)) \
  X(LOGISTIC, logistic, FLOAT, UN, \
    (return (T)1 / ((T)1 + GRT_CAT(exp, F)(-a));), \
    (return T(1) / (T(1) + grt_m_exp(-a));)) \
  X(SQRT, sqrt, FLOAT, UN, \
    (return GRT_CAT(sqrt, F)(a);), (return sqrt(a);)) \
  X(RSQRT, rsqrt, FLOAT, UN, \
    (return (T)1 / GRT_CAT(sqrt, F)(a);), (return T(1) / sqrt(a);)) \
  /* GLSL: pow on the magnitude, then Newton steps. */ \
  X(CBRT, cbrt, FLOAT, UN, \
    (return GRT_CAT(cbrt, F)(a);), \
    (if (a == T(0) || isnan(a) || isinf(a)) return a; \
     T m = abs(a); T r = grt_m_cbrt_seed(m); \
     r = r - (r * r * r - m) / (T(3) * r * r); \
     r = r - (r * r * r - m) / (T(3) * r * r); \
     return a < T(0) ? -r : r;)) \
  /* GLSL: large magnitudes would overflow exp inside some tanh. */ \
  X(TANH, tanh, FLOAT, UN, \
    (return GRT_CAT(tanh, F)(a);), \
    (if (isnan(a)) return a; \
     if (abs(a) > T(20)) return a > T(0) ? T(1) : T(-1); \
     if (abs(a) < T(1e-4)) return a; \
     return grt_m_tanh(a);)) \
  X(SIN, sine, FLOAT, UN, \
    (return GRT_CAT(sin, F)(a);), (return grt_m_sin(a);)) \
  X(COS, cosine, FLOAT, UN, \
    (return GRT_CAT(cos, F)(a);), (return grt_m_cos(a);)) \
  X(TAN, tan, FLOAT, UN, \
    (return GRT_CAT(tan, F)(a);), (return grt_m_tan(a);)) \
  X(FLOOR, floor, FLOAT, UN, \
    (return GRT_CAT(floor, F)(a);), (return floor(a);)) \
  X(CEIL, ceil, FLOAT, UN, \
    (return GRT_CAT(ceil, F)(a);), (return ceil(a);)) \
  /* trunc and a - trunc(a) are exact, so this is round() without its libm */ \
  /* call (which does not vectorize); copysign keeps -0 and the sign of */ \
  /* NaN; inf gives inf (inf - inf is NaN, not >= 0.5). */ \
  X(ROUND_AFZ, round_nearest_afz, FLOAT, UN, \
    (const T t = GRT_CAT(trunc, F)(a); \
     return GRT_CAT(copysign, F)(GRT_CAT(fabs, F)(t) + (GRT_CAT(fabs, F)(a - t) >= (T)0.5 ? (T)1 : (T)0), a);), \
    (if (isnan(a) || isinf(a)) return a; \
     T t = trunc(a); T r = abs(t) + (abs(a - t) >= T(0.5) ? T(1) : T(0)); \
     return SIGNBIT(a) ? -r : r;)) \
  /* The kernels never change the rounding mode, so rint is ties-to-even. */ \
  X(ROUND_EVEN, round_nearest_even, FLOAT, UN, \
    (return GRT_CAT(rint, F)(a);), (return grt_m_rint(a);)) \
  X(IS_FINITE, is_finite, FLOAT, PRED, \
    (return (uint8_t)(isfinite(a) != 0);), \
    (return (isnan(a) || isinf(a)) ? 0u : 1u;)) \
  X(POPCNT, popcnt, INT, UN, \
    (return (T)GRT_POPCNT64((uint64_t)(UT)a);), \
    (uint64_t u = uint64_t(UT(a)); return T(bitCount(uint(u)) + bitCount(uint(u >> 32)));)) \
  X(CLZ, count_leading_zeros, INT, UN, \
    (return (T)(GRT_CLZ64((uint64_t)(UT)a) - (64 - (W)));), \
    (uint64_t u = uint64_t(UT(a)); uint hi = uint(u >> 32), lo = uint(u); \
     int msb = hi != 0u ? 32 + findMSB(hi) : findMSB(lo); \
     return T((W) - 1 - msb);)) \
  X(SELECT, select, INT, SEL, \
    (return c ? a : b;), (return c != 0u ? a : b;)) \
  X(SELECT, select, FLOAT, SEL, \
    (return c ? a : b;), (return c != 0u ? a : b;)) \
  /* XLA's min(max(x, lo), hi). */ \
  X(CLAMP, clamp, INT, TERN, \
    (T t = x < lo ? lo : x; return t > hi ? hi : t;), \
    (return min(max(x, lo), hi);)) \
  X(CLAMP, clamp, FLOAT, TERN, \
    (return GRT_CAT(grt_minimum_, S)(GRT_CAT(grt_maximum_, S)(x, lo), hi);), \
    (return GRT_CAT(grt_minimum_, S)(GRT_CAT(grt_maximum_, S)(x, lo), hi);))

// The C instances of the rows, one per type the C preludes and the
// evaluator compute in (f16 and bf16 compute in f32), as
// (S, T, UT, WU, W, M, MINV, MAXV, F, CLASS): the parameters the bodies
// name, the limits the preludes' float->int converts take (literals:
// NVRTC has no <stdint.h>) and the class whose rows (with the INT rows for
// integers) the instance takes. Integers have no F, floats only S, T, F.
#define GRTC_SCALAR_C_I1 (i1, uint8_t, uint8_t, uint32_t, 1, 1u, 0, 1u, , UINT)
#define GRTC_SCALAR_C_I8 \
  (i8, int8_t, uint8_t, uint32_t, 8, ~(uint32_t)0, -128, 127, , SINT)
#define GRTC_SCALAR_C_I16 \
  (i16, int16_t, uint16_t, uint32_t, 16, ~(uint32_t)0, -32768, 32767, , SINT)
#define GRTC_SCALAR_C_I32                                             \
  (i32, int32_t, uint32_t, uint32_t, 32, ~(uint32_t)0, (-2147483647 - 1), \
   2147483647, , SINT)
#define GRTC_SCALAR_C_I64                                     \
  (i64, int64_t, uint64_t, uint64_t, 64, ~(uint64_t)0,        \
   (-9223372036854775807LL - 1), 9223372036854775807LL, , SINT)
#define GRTC_SCALAR_C_U8 (u8, uint8_t, uint8_t, uint32_t, 8, ~0u, 0, 255u, , UINT)
#define GRTC_SCALAR_C_U16 \
  (u16, uint16_t, uint16_t, uint32_t, 16, ~0u, 0, 65535u, , UINT)
#define GRTC_SCALAR_C_U32 \
  (u32, uint32_t, uint32_t, uint32_t, 32, ~0u, 0, 4294967295u, , UINT)
#define GRTC_SCALAR_C_U64                              \
  (u64, uint64_t, uint64_t, uint64_t, 64, ~0ull, 0, \
   18446744073709551615ull, , UINT)
#define GRTC_SCALAR_C_F32 (f32, float, , , , , , , f, FLOAT)
#define GRTC_SCALAR_C_F64 (f64, double, , , , , , , , FLOAT)
// X(NAME): GRTC_SCALAR_C_<NAME> is the instance of GRTC_ELEM_<NAME>.
#define GRTC_SCALAR_C_INSTANCES(X) \
  X(I8) X(I16) X(I32) X(I64) X(I1) X(U8) X(U16) X(U32) X(U64) X(F32) X(F64)
// clang-format on

#include <stdint.h>

#include "base/string_builder.h"
#include "compiler/kernel/scalar.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum grtc_scalar_class_e {
  GRTC_SCALAR_CLASS_INT,
  GRTC_SCALAR_CLASS_SINT,
  GRTC_SCALAR_CLASS_UINT,
  GRTC_SCALAR_CLASS_FLOAT,
} grtc_scalar_class_t;

typedef enum grtc_scalar_sig_e {
  GRTC_SCALAR_SIG_UN,
  GRTC_SCALAR_SIG_BIN,
  GRTC_SCALAR_SIG_TERN,
  GRTC_SCALAR_SIG_SEL,
  GRTC_SCALAR_SIG_PRED,
} grtc_scalar_sig_t;

typedef enum grtc_scalar_lang_e {
  GRTC_SCALAR_LANG_C,  // C11 and CUDA C++
  GRTC_SCALAR_LANG_GLSL,
} grtc_scalar_lang_t;

// One row of GRTC_SCALAR_IMPL_LIST; the bodies as the table spells them,
// in their parentheses.
typedef struct grtc_scalar_impl_t {
  grtc_scalar_op_t op;  // GRTC_SCALAR_NONE for a support helper
  const char* spelling;
  grtc_scalar_class_t cls;
  grtc_scalar_sig_t sig;
  const char* c_body;
  const char* glsl_body;
} grtc_scalar_impl_t;

// The rows, in the table's order.
const grtc_scalar_impl_t* grtc_scalar_impls(uint32_t* out_count);

// Whether |cls| covers |elem| (f16 and bf16 compute as FLOAT).
bool grtc_scalar_class_covers(grtc_scalar_class_t cls, grtc_elem_t elem);

// Appends every row of |cls| as a helper definition in |lang|, each as
// " \\\n<qualifier><ret> grt_<spelling>_##S(<params>) { <body> }": the
// continued lines of a macro definition whose parameters name the
// instance (see the table's comment).
void grtc_scalar_impl_append_class(grt_string_builder_t* out,
                                   grtc_scalar_class_t cls,
                                   grtc_scalar_lang_t lang,
                                   const char* qualifier);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_KERNEL_SCALAR_IMPL_H_
