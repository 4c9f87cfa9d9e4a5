// Pieces of the CUDA target shared between its files (not a public API).
#ifndef GRT_COMPILER_TARGET_CUDA_CUDA_INTERNAL_H_
#define GRT_COMPILER_TARGET_CUDA_CUDA_INTERNAL_H_

#include "base/string_builder.h"
#include "compiler/kernel/ir.h"
#include "compiler/target/cuda/cuda_target.h"

#ifdef __cplusplus
extern "C" {
#endif

// The integer typedefs and scalar helpers every generated file starts with.
void grtc_cuda_emit_prelude(grt_string_builder_t* out);

// As grtc_cuda_emit; when |out_kernel_lines| is non-NULL it receives, per
// kernel, the 1-based source line its definition starts on (for mapping
// NVRTC diagnostics back to kernels), and *out_uses_wmma whether the
// source includes <mma.h>.
grt_status_t grtc_cuda_emit_with_lines(const grtc_kernel_set_t* kernels,
                                       const grtc_cuda_options_t* options,
                                       grt_string_builder_t* out,
                                       uint32_t* out_kernel_lines,
                                       bool* out_uses_wmma) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_TARGET_CUDA_CUDA_INTERNAL_H_
