// Test-only helpers for the compiler's kernel tests: a test program imported
// from StableHLO text (grtc_test_program_*), and a reference interpreter of
// the kernel IR that runs a kernel on host arrays so tests check lowered
// kernels numerically without a backend.
// Every element type (i1 as one byte); scalar ops, compares and converts
// go through compiler/tensor/eval.h. Workgroups run in order, each visiting its tile's points in
// row-major order, so tiling mistakes show up as wrong results.
#ifndef GRT_COMPILER_DISPATCH_KERNEL_INTERP_TEST_UTIL_H_
#define GRT_COMPILER_DISPATCH_KERNEL_INTERP_TEST_UTIL_H_

#include "base/status.h"
#include "compiler/kernel/ir.h"
#include "compiler/tensor/ir.h"

// A test program: StableHLO text imported into the tensor IR, and the
// kernels dispatch formation gives it (empty until the test forms them).
typedef struct grtc_test_program_t {
  grtc_tmodule_t* module;
  grtc_kernel_set_t kernels;
} grtc_test_program_t;

// Parses, imports and verifies |source| into |out| (kernels initialized
// empty). On failure |out| holds nothing to release.
grt_status_t grtc_test_program_import(const char* source,
                                      grtc_test_program_t* out) GRT_MUST_USE;

// Releases what grtc_test_program_import gave and the kernels formed since.
void grtc_test_program_release(grtc_test_program_t* program);

// |buffers[b]| holds binding b's elements (its element type, row-major).
grt_status_t grtc_kinterp_run(const grtc_kernel_t* kernel,
                              void* const* buffers) GRT_MUST_USE;

// The same for a kernel with symbolic extents: extents[e] is the value of
// extent e (push constant e on a device).
grt_status_t grtc_kinterp_run_extents(const grtc_kernel_t* kernel,
                                      void* const* buffers,
                                      const int64_t* extents) GRT_MUST_USE;

// Runs |func| after dispatch formation (CONSTANT, RESHAPE, DISPATCH and
// RETURN ops) on host arrays: |args| are its arguments, |results| receive
// copies of what it returns (caller-sized).
grt_status_t grtc_kinterp_run_func(const grtc_tmodule_t* module,
                                   const grtc_kernel_set_t* kernels,
                                   const grtc_tfunc_t* func,
                                   void* const* args,
                                   void** results) GRT_MUST_USE;

// The same for a function with symbolic dimensions: symbols[s] is the
// value of symbol s (indexed by symbol id; at least every class
// representative the function's types name).
grt_status_t grtc_kinterp_run_func_symbolic(const grtc_tmodule_t* module,
                                            const grtc_kernel_set_t* kernels,
                                            const grtc_tfunc_t* func,
                                            const int64_t* symbols,
                                            void* const* args,
                                            void** results) GRT_MUST_USE;

#endif  // GRT_COMPILER_DISPATCH_KERNEL_INTERP_TEST_UTIL_H_
