// Pieces of the CPU target shared between its files (not a public API).
#ifndef GRT_COMPILER_TARGET_CPU_CPU_INTERNAL_H_
#define GRT_COMPILER_TARGET_CPU_CPU_INTERNAL_H_

#include "base/string_builder.h"
#include "compiler/kernel/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

// The ABI structs (grtk_dispatch_t, ...) and scalar helpers every
// generated file starts with.
void grtc_cpu_emit_prelude(grt_string_builder_t* out);

// The register-blocked SGEMM micro-kernel and packing routines that
// MATMUL and CONV2D kernels call (emitted once per file when used).
void grtc_cpu_emit_gemm_support(grt_string_builder_t* out);

// Whether |kernel| is a CONV2D the emitter runs on the planar GEMM path
// (output channels x pixels, the filter as the GEMM's A), the one path that
// reads a packed filter (grtc_kconv_t.filter_packed).
bool grtc_cpu_conv_on_pixels_path(const grtc_kernel_t* kernel);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_TARGET_CPU_CPU_INTERNAL_H_
