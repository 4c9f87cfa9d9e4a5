// The fixed head of every generated kernel file: the ABI structs, then the
// scalar helpers shared with the CUDA target (compiler/target/c_family)
// in this target's dialect: static inline, so unused ones cost nothing and
// used ones vanish into vectorized loops.
#include "compiler/target/c_family/c_family.h"
#include "compiler/target/cpu/cpu_internal.h"

static const char grtc_cpu_prelude_text[] =
    "#include <math.h>\n"
    "#include <stddef.h>\n"
    "#include <stdint.h>\n"
    "#include <string.h>\n"
    "\n"
    // Standalone on purpose (the file compiles with just `cc`), so the ABI
    // is restated here; compiler/target/cpu/emit_c_test.c compiles these
    // beside hal/local/kernel_abi.h and asserts every offset agrees.
    "/* Field for field hal/local/kernel_abi.h (ABI version 1). */\n"
    "typedef struct grtk_dispatch_t {\n"
    "  uint32_t workgroup_count[3];\n"
    "  uint32_t workgroup_size[3];\n"
    "  uint32_t constant_count;\n"
    "  const uint32_t* constants;\n"
    "  uint32_t binding_count;\n"
    "  void* const* bindings;\n"
    "  const size_t* binding_lengths;\n"
    "} grtk_dispatch_t;\n"
    "typedef struct grtk_workgroup_t {\n"
    "  uint32_t workgroup_id[3];\n"
    "  uint32_t worker_id;\n"
    "  void* local_memory;\n"
    "  size_t local_memory_size;\n"
    "} grtk_workgroup_t;\n"
    "typedef int (*grtk_fn_t)(const grtk_dispatch_t*, const grtk_workgroup_t*);\n"
    "typedef struct grtk_entry_t {\n"
    "  const char* name;\n"
    "  grtk_fn_t fn;\n"
    "  uint32_t binding_count;\n"
    "  uint32_t constant_count;\n"
    "  uint32_t workgroup_size[3];\n"
    "  uint32_t local_memory_size;\n"
    "} grtk_entry_t;\n"
    "typedef struct grtk_library_t {\n"
    "  uint32_t abi_version;\n"
    "  uint32_t entry_count;\n"
    "  const grtk_entry_t* entries;\n"
    "  const char* name;\n"
    "} grtk_library_t;\n"
    "\n"
    "#define GRT_I static inline __attribute__((always_inline, unused))\n"
    // Loops over independent points: no loop-carried memory dependences,
    // said in each compiler's own words (an unknown pragma is a warning).
    // (clang reports loops it then cannot vectorize, say for a call to
    // expf; that is no defect of the kernel.)
    "#if defined(__clang__)\n"
    "#pragma clang diagnostic ignored \"-Wpass-failed\"\n"
    "#define GRT_IVDEP _Pragma(\"clang loop vectorize(assume_safety)\")\n"
    "#elif defined(__GNUC__)\n"
    "#define GRT_IVDEP _Pragma(\"GCC ivdep\")\n"
    "#else\n"
    "#define GRT_IVDEP\n"
    "#endif\n"
    // The lanes of a block of points whose reductions run side by side
    // (emit_c.c, grtc_cpu_emit_interleaved_nest), unrolled so their
    // accumulators live in registers.
    "#if defined(__clang__)\n"
    "#define GRT_UNROLL_POINTS \\\n"
    "  _Pragma(\"clang loop unroll(full)\")\n"
    "#elif defined(__GNUC__)\n"
    "#define GRT_UNROLL_POINTS _Pragma(\"GCC unroll 8\")\n"
    "#else\n"
    "#define GRT_UNROLL_POINTS\n"
    "#endif\n"
    // What the shared scalar helpers (compiler/target/c_family) need.
    "#define GRT_O __attribute__((unused)) static\n"
    "#define GRT_POPCNT64(x) __builtin_popcountll(x)\n"
    "#define GRT_CLZ64(x) ((x) == 0 ? 64 : __builtin_clzll(x))\n"
    "\n";

// Bit casts through memcpy (no aliasing questions); f16 in software.
static const char grtc_cpu_conversions_text[] =
    "GRT_I float grt_f16_to_f32(uint16_t h) {\n"
    "  uint32_t sign = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 1023;\n"
    "  float f;\n"
    "  if (e == 31) { uint32_t u = sign | 0x7f800000u | (m << 13); memcpy(&f, &u, 4); return f; }\n"
    "  f = ldexpf((float)(e ? (m | 1024) : m), (int)(e ? e : 1) - 25);\n"
    "  return sign ? -f : f;\n"
    "}\n"
    "GRT_I float grt_bf16_to_f32(uint16_t h) {\n"
    "  uint32_t u = (uint32_t)h << 16; float f; memcpy(&f, &u, 4); return f;\n"
    "}\n"
    "GRT_I uint16_t grt_f32_to_f16(float x) { return grt_f64_to_small(x, 10, 5); }\n"
    "GRT_I uint16_t grt_f32_to_bf16(float x) {\n"
    "  uint32_t u; memcpy(&u, &x, 4);\n"
    "  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u);\n"
    "  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);\n"
    "}\n"
    "GRT_I int32_t grt_key_f32(float x) { int32_t i; memcpy(&i, &x, 4); return i < 0 ? i ^ INT32_MAX : i; }\n"
    "GRT_I int64_t grt_key_f64(double x) { int64_t i; memcpy(&i, &x, 8); return i < 0 ? i ^ INT64_MAX : i; }\n";

void grtc_cpu_emit_prelude(grt_string_builder_t* out) {
  grtc_c_family_prelude_t target = {grtc_cpu_prelude_text,
                                    grtc_cpu_conversions_text};
  grtc_c_family_emit_prelude(out, &target);
}
