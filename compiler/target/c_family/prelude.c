// The scalar helpers every C-family prelude carries: each scalar op of
// compiler/kernel/scalar.h with its exact meaning in C, the corners C and
// CUDA C++ leave undefined included (integer division by zero and
// INT_MIN / -1, shifts by the width or more, NaN-propagating max/min),
// printed from the C column of compiler/kernel/scalar_impl.h; beside them
// the saturating float->int converts and the f16/bf16 rounding. Helpers
// are named grt_<op spelling>_<type> so the emitters find them from the op
// table alone. What the dialects spell differently (qualifiers, bit
// counts, bit casts, the f16 hardware conversions) comes from the target's
// head and conversions (grtc_c_family_prelude_t).
#include "compiler/target/c_family/c_family.h"
#include "compiler/kernel/scalar_impl.h"

// The helpers of compiler/kernel/scalar_impl.h are printed into macros
// whose parameters name the instance: GRT_INT_COMMON(S, T, UT, WU, W, M)
// (the INT rows), GRT_INT_SIGNED and GRT_INT_UNSIGNED(S, T, UT, WU, W, M,
// MINV, MAXV) (those plus the SINT or UINT rows and the float->int
// conversion) and GRT_FLOAT(S, T, F); each instance line below expands one.
static const char grtc_c_family_cat_text[] =
    "#define GRT_CAT_(a, b) a##b\n"
    "#define GRT_CAT(a, b) GRT_CAT_(a, b)\n";

// CONVERT float->int (truncating, saturating, NaN to 0), after each
// integer class's rows: from double, and from float (f32, and f16/bf16 in
// their f32 registers) without widening, which vectorizes in half the
// lanes' width. The bounds (-MINV, a power of two, and MAXV + 1, a power
// of two or the float MAXV rounds to) are exact in float, so both give the
// same results for every float.
static const char grtc_c_family_f2i_signed_text[] =
    " \\\n"
    "GRT_I T grt_f2i_##S(double x) { \\\n"
    "  return x != x ? (T)0 : x < (double)(MINV) ? (T)(MINV) \\\n"
    "       : x >= -(double)(MINV) ? (T)(MAXV) : (T)x; } \\\n"
    "GRT_I T grt_f2i_f_##S(float x) { \\\n"
    "  return x != x ? (T)0 : x < (float)(MINV) ? (T)(MINV) \\\n"
    "       : x >= -(float)(MINV) ? (T)(MAXV) : (T)x; }\n";
static const char grtc_c_family_f2i_unsigned_text[] =
    " \\\n"
    "GRT_I T grt_f2i_##S(double x) { \\\n"
    "  return !(x > -1.0) ? (T)0 : x >= (double)(MAXV) + 1.0 ? (T)(MAXV) : (T)x; } \\\n"
    "GRT_I T grt_f2i_f_##S(float x) { \\\n"
    "  return !(x > -1.0f) ? (T)0 : x >= (float)(MAXV) + 1.0f ? (T)(MAXV) : (T)x; }\n";

// maximum/minimum with an operand c that the emitter knows is not NaN
// and not the zero that orders past the other (-0 for maximum, +0 for
// minimum; grtc_c_family_emit_op): then a == c means a is c or the other
// zero, which c gives as the full helper does, so one unordered compare
// replaces the signed-zero selects (a quarter of a requantizing
// epilogue's time): !(a <= c) holds for a NaN a, which comes back as it
// is (the full helper gives a + c: the same bits for a quiet NaN; a
// signaling one stays signaling). Vectorized, one compare and one blend
// each (AVX2: a ReLU6 clamp with its bias add 23 -> 9 instructions).
static const char grtc_c_family_float_by_const_text[] =
    " \\\n"
    "GRT_I T grt_maximum_by_##S(T a, T c) { return !(a <= c) ? a : c; } \\\n"
    "GRT_I T grt_minimum_by_##S(T a, T c) { return !(a >= c) ? a : c; }\n";

// The instance lines, from GRTC_SCALAR_C_INSTANCES.
typedef struct grtc_c_family_instance_t {
  grtc_scalar_class_t cls;
  const char* int_args;    // GRT_INT_SIGNED/UNSIGNED's
  const char* float_args;  // GRT_FLOAT's
} grtc_c_family_instance_t;

#define GRTC_C_FAMILY_EXPAND(x) x
#define GRTC_C_FAMILY_INSTANCE_(S, T, UT, WU, W, M, MINV, MAXV, F, CLASS) \
  {GRTC_SCALAR_CLASS_##CLASS,                                             \
   #S ", " #T ", " #UT ", " #WU ", " #W ", " #M ", " #MINV ", " #MAXV,    \
   #S ", " #T ", " #F},
#define GRTC_C_FAMILY_INSTANCE(name) \
  GRTC_C_FAMILY_EXPAND(GRTC_C_FAMILY_INSTANCE_ GRTC_SCALAR_C_##name)
static const grtc_c_family_instance_t grtc_c_family_instances[] = {
    GRTC_SCALAR_C_INSTANCES(GRTC_C_FAMILY_INSTANCE)};
#undef GRTC_C_FAMILY_INSTANCE
#undef GRTC_C_FAMILY_INSTANCE_
#undef GRTC_C_FAMILY_EXPAND

// The instance lines of the integer classes, or of FLOAT.
static void grtc_c_family_emit_instances(grt_string_builder_t* out,
                                         bool floats) {
  size_t count =
      sizeof(grtc_c_family_instances) / sizeof(grtc_c_family_instances[0]);
  for (size_t i = 0; i < count; ++i) {
    const grtc_c_family_instance_t* instance = &grtc_c_family_instances[i];
    bool is_float = instance->cls == GRTC_SCALAR_CLASS_FLOAT;
    if (is_float != floats) continue;
    grt_string_builder_appendf(
        out, "%s(%s)\n",
        is_float                                     ? "GRT_FLOAT"
        : instance->cls == GRTC_SCALAR_CLASS_SINT    ? "GRT_INT_SIGNED"
                                                     : "GRT_INT_UNSIGNED",
        is_float ? instance->float_args : instance->int_args);
  }
  grt_string_builder_append_cstring(out, "\n");
}

static const char grtc_c_family_small_text[] =
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

// The scalar helpers of |cls|, then |tail| (a line ending the macro).
static void grtc_c_family_emit_class(grt_string_builder_t* out,
                                     grtc_scalar_class_t cls,
                                     const char* tail) {
  grtc_scalar_impl_append_class(out, cls, GRTC_SCALAR_LANG_C, "GRT_I ");
  grt_string_builder_append_cstring(out, tail);
}

void grtc_c_family_emit_prelude(grt_string_builder_t* out,
                                const grtc_c_family_prelude_t* target) {
  grt_string_builder_append_cstring(out, target->head);
  grt_string_builder_append_cstring(out, grtc_c_family_cat_text);
  grt_string_builder_append_cstring(
      out, "#define GRT_INT_COMMON(S, T, UT, WU, W, M)");
  grtc_c_family_emit_class(out, GRTC_SCALAR_CLASS_INT, "\n");
  grt_string_builder_append_cstring(
      out,
      "#define GRT_INT_SIGNED(S, T, UT, WU, W, M, MINV, MAXV) \\\n"
      "GRT_INT_COMMON(S, T, UT, WU, W, M)");
  grtc_c_family_emit_class(out, GRTC_SCALAR_CLASS_SINT,
                           grtc_c_family_f2i_signed_text);
  grt_string_builder_append_cstring(
      out,
      "#define GRT_INT_UNSIGNED(S, T, UT, WU, W, M, MINV, MAXV) \\\n"
      "GRT_INT_COMMON(S, T, UT, WU, W, M)");
  grtc_c_family_emit_class(out, GRTC_SCALAR_CLASS_UINT,
                           grtc_c_family_f2i_unsigned_text);
  grtc_c_family_emit_instances(out, false);
  grt_string_builder_append_cstring(out, "#define GRT_FLOAT(S, T, F)");
  grtc_c_family_emit_class(out, GRTC_SCALAR_CLASS_FLOAT,
                           grtc_c_family_float_by_const_text);
  grtc_c_family_emit_instances(out, true);
  grt_string_builder_append_cstring(out, grtc_c_family_small_text);
  grt_string_builder_append_cstring(out, target->conversions);
  grt_string_builder_append_cstring(out, grtc_c_family_tail_text);
}
