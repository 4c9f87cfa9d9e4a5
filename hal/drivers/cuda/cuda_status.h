// CUresult -> grt_status_t: every failing driver API call becomes a status
// naming the call, the CUresult's name and the driver's description
// ("cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)"), with
// a grt status code chosen from one table. cuInit's failures get their own
// messages because they mean "this machine cannot run CUDA" rather than
// "a call went wrong": 34 = stub library, 100 = no device, 35 = driver too
// old.
//
// The formatting functions take the name and description as strings, so
// they are tested without a driver; grt_hal_cuda_result_status asks the
// loaded driver for them.
#ifndef GRT_HAL_DRIVERS_CUDA_CUDA_STATUS_H_
#define GRT_HAL_DRIVERS_CUDA_CUDA_STATUS_H_

#include <cuda.h>

#include "base/status.h"
#include "hal/drivers/cuda/dynamic_symbols.h"

#ifdef __cplusplus
extern "C" {
#endif

// The grt status code a CUresult maps to (INTERNAL when the table has no
// row for it).
grt_status_code_t grt_hal_cuda_status_code(CUresult result);

// The CUresult's name for messages: |name| when the driver gave one, else
// the table's name, else "CUresult <n>" in |scratch|.
const char* grt_hal_cuda_result_name(CUresult result, const char* name,
                                     char* scratch, size_t scratch_capacity);

// "<call> failed: <name> (<description>)". |name| and |description| may be
// NULL (unknown to the driver). OK for CUDA_SUCCESS.
grt_status_t grt_hal_cuda_make_status(CUresult result, const char* name,
                                      const char* description,
                                      const char* call) GRT_MUST_USE;

// The status for a failed cuInit (UNAVAILABLE: the machine cannot run
// CUDA): "no CUDA driver (libcuda is the toolkit's stub library; cuInit
// returned 34 CUDA_ERROR_STUB_LIBRARY)", "no CUDA device (cuInit returned
// 100 CUDA_ERROR_NO_DEVICE)", "the CUDA driver is too old for this build
// (built against CUDA 13.0; cuInit returned 35 ...)", else "cuInit
// failed: <name> (<description>)".
grt_status_t grt_hal_cuda_init_status(CUresult result, const char* name,
                                      const char* description) GRT_MUST_USE;

// grt_hal_cuda_make_status with the name and description from the driver.
grt_status_t grt_hal_cuda_result_status(const grt_hal_cuda_symbols_t* symbols,
                                        CUresult result, const char* call)
    GRT_MUST_USE;

// Calls symbols->fn(args...) and returns its failure as a status naming fn.
#define GRT_CUDA_RETURN_IF_ERROR(symbols, fn, args)                        \
  GRT_RETURN_IF_ERROR(                                                     \
      grt_hal_cuda_result_status((symbols), (symbols)->fn args, #fn))
// The status of one call (for paths that must clean up before returning).
#define GRT_CUDA_STATUS(symbols, fn, args) \
  grt_hal_cuda_result_status((symbols), (symbols)->fn args, #fn)

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_CUDA_CUDA_STATUS_H_
