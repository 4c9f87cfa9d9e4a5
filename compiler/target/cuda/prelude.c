// The fixed head of every generated CUDA file: fixed-width integer types
// (NVRTC has no standard headers), then the scalar helpers shared with the
// CPU target (compiler/target/c_family) as __device__ functions, with the
// f16/bf16 conversions and bit casts in CUDA's intrinsics.
#include "compiler/target/c_family/c_family.h"
#include "compiler/target/cuda/cuda_internal.h"

static const char grtc_cuda_prelude_text[] =
    "typedef signed char int8_t;\n"
    "typedef short int16_t;\n"
    "typedef int int32_t;\n"
    "typedef long long int64_t;\n"
    "typedef unsigned char uint8_t;\n"
    "typedef unsigned short uint16_t;\n"
    "typedef unsigned int uint32_t;\n"
    "typedef unsigned long long uint64_t;\n"
    "#define GRT_I static __device__ __forceinline__\n"
    // What the shared scalar helpers (compiler/target/c_family) need.
    "#define GRT_O GRT_I\n"
    "#define GRT_POPCNT64(x) __popcll(x)\n"
    "#define GRT_CLZ64(x) __clzll((long long)(x))\n";

// bf16 in integer arithmetic (cvt to bf16 needs sm_80); bit casts through
// the CUDA intrinsics.
static const char grtc_cuda_conversions_text[] =
    "GRT_I float grt_bf16_to_f32(uint16_t h) { return __uint_as_float((uint32_t)h << 16); }\n"
    "GRT_I uint16_t grt_f32_to_bf16(float x) {\n"
    "  uint32_t u = __float_as_uint(x);\n"
    "  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u);\n"
    "  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);\n"
    "}\n"
    // f16: the hardware conversions round to nearest even and are exact.
    // The host branch computes the same values in software for the
    // emulation test (emulate_test.c), which runs this file on the CPU.
    "#ifdef __CUDA_ARCH__\n"
    "GRT_I float grt_f16_to_f32(uint16_t h) {\n"
    "  float f; asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h)); return f;\n"
    "}\n"
    "GRT_I uint16_t grt_f32_to_f16(float x) {\n"
    "  uint16_t h; asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(x)); return h;\n"
    "}\n"
    "#else\n"
    "GRT_I float grt_f16_to_f32(uint16_t h) {\n"
    "  uint32_t sign = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 1023;\n"
    "  if (e == 31) return __uint_as_float(sign | 0x7f800000u | (m << 13));\n"
    "  float f = ldexpf((float)(e ? (m | 1024) : m), (int)(e ? e : 1) - 25);\n"
    "  return sign ? -f : f;\n"
    "}\n"
    "GRT_I uint16_t grt_f32_to_f16(float x) { return grt_f64_to_f16(x); }\n"
    "#endif\n"
    "GRT_I int32_t grt_key_f32(float x) { int32_t i = __float_as_int(x); return i < 0 ? i ^ 2147483647 : i; }\n"
    "GRT_I int64_t grt_key_f64(double x) { int64_t i = __double_as_longlong(x); return i < 0 ? i ^ 9223372036854775807LL : i; }\n";

void grtc_cuda_emit_prelude(grt_string_builder_t* out) {
  grtc_c_family_prelude_t target = {grtc_cuda_prelude_text,
                                    grtc_cuda_conversions_text};
  grtc_c_family_emit_prelude(out, &target);
}
