// The CUDA target: every kernel of a module emitted as CUDA C and compiled
// by NVRTC into one PTX module (executable format "cuda-ptx").
//
// The contract with hal/drivers/cuda: kernel i of the set is
// `extern "C" __global__ void <name>(T0* b0, T1* b1, ..., uint32_t x0, ...)`,
// one pointer per binding in binding order, then one 32-bit push constant
// per symbolic extent (extent_count of them: none for a static kernel);
// it is launched with grid = (workgroup_count, 1, 1), or for a symbolic
// kernel the count grtc_kernel_workgroups_for gives at the call, and block
// = (grtc_cuda_block_size(kernel), 1, 1), the size recorded as the entry
// point's workgroup size. blockIdx.x
// is the kernel IR's workgroup (tile) id; the block's threads stride over
// the tile's points.
//
// NVRTC is loaded at run time (dlopen), only when this target is used, so
// nothing here needs CUDA to build or to run the other targets. The
// library is looked up as $GRT_NVRTC_LIBRARY when set (only there: tests
// use it to simulate a machine without CUDA), else libnvrtc.so.13 and
// libnvrtc.so under $CUDA_HOME/lib64 and /usr/local/cuda/lib64, else the
// plain sonames (LD_LIBRARY_PATH, the loader cache). Tensor-core kernels
// include <mma.h>, found in the include/ folder beside the library's
// lib64/ (or $CUDA_HOME/include, /usr/local/cuda/include).
#ifndef GRT_COMPILER_TARGET_CUDA_CUDA_TARGET_H_
#define GRT_COMPILER_TARGET_CUDA_CUDA_TARGET_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_builder.h"
#include "compiler/kernel/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRTC_CUDA_DEFAULT_ARCH "sm_80"

typedef struct grtc_cuda_options_t {
  // The compute capability as "sm_XY" (sm_70 and newer); NULL: sm_80.
  // Tensor cores (WMMA) need sm_80 for bf16 and tf32, sm_70 for f16.
  const char* arch;
  // f32 matmuls may use tf32 tensor cores (10-bit mantissa inputs, f32
  // accumulation); without it they run exactly in f32 on the SIMT cores.
  bool allow_tf32;
} grtc_cuda_options_t;

// Parses "sm_XY" into XY (e.g. 80); errors name the value given.
grt_status_t grtc_cuda_parse_arch(const char* arch, uint32_t* out_cc)
    GRT_MUST_USE;

// Threads per block of |kernel| under |options|: 1 for serial kernels,
// else up to 256 (a multiple of 32).
uint32_t grtc_cuda_block_size(const grtc_kernel_t* kernel,
                              const grtc_cuda_options_t* options);

// The CUDA C++ source of all kernels (compiled with -default-device).
grt_status_t grtc_cuda_emit(const grtc_kernel_set_t* kernels,
                            const grtc_cuda_options_t* options,
                            grt_string_builder_t* out) GRT_MUST_USE;

// Emits the kernels and compiles them with NVRTC for the options' arch. On
// success *out_ptx (allocated from |allocator|, NUL-terminated, the NUL not
// counted in *out_ptx_size) holds the PTX text and, when non-NULL,
// out_block_sizes[i] the block size of kernel i. Errors: NVRTC missing
// ("cuda target needs NVRTC (libnvrtc.so not found: ...)"), or the
// kernels NVRTC rejected with its log.
grt_status_t grtc_cuda_build(const grtc_kernel_set_t* kernels,
                             const grtc_cuda_options_t* options,
                             grt_allocator_t allocator, char** out_ptx,
                             size_t* out_ptx_size,
                             uint32_t* out_block_sizes) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_TARGET_CUDA_CUDA_TARGET_H_
