// CUresult mapping (cuda_status.h): one table of the results grt treats
// specially, the messages built around the driver's own descriptions.
#include "hal/drivers/cuda/cuda_status.h"

#include <stdio.h>

// cuda.h has no name for 35: it is the runtime API's
// cudaErrorInsufficientDriver, which is what a driver older than the
// toolkit reports; the driver API's own word for it is 803.
#define CUDA_ERROR_INSUFFICIENT_DRIVER 35

// X(CUresult enum, grt status code). Results not listed are INTERNAL.
#define GRT_HAL_CUDA_RESULTS(X)                                   \
  X(CUDA_ERROR_INVALID_VALUE, INVALID_ARGUMENT)                   \
  X(CUDA_ERROR_OUT_OF_MEMORY, RESOURCE_EXHAUSTED)                 \
  X(CUDA_ERROR_NOT_INITIALIZED, FAILED_PRECONDITION)              \
  X(CUDA_ERROR_DEINITIALIZED, UNAVAILABLE)                        \
  X(CUDA_ERROR_STUB_LIBRARY, UNAVAILABLE)                         \
  X(CUDA_ERROR_NO_DEVICE, UNAVAILABLE)                            \
  X(CUDA_ERROR_INSUFFICIENT_DRIVER, UNAVAILABLE)                  \
  X(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, UNAVAILABLE)               \
  X(CUDA_ERROR_INVALID_DEVICE, NOT_FOUND)                         \
  X(CUDA_ERROR_DEVICE_UNAVAILABLE, UNAVAILABLE)                   \
  X(CUDA_ERROR_NO_BINARY_FOR_GPU, INCOMPATIBLE)                   \
  X(CUDA_ERROR_INVALID_PTX, INCOMPATIBLE)                         \
  X(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, INCOMPATIBLE)             \
  X(CUDA_ERROR_INVALID_IMAGE, INCOMPATIBLE)                       \
  X(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, UNAVAILABLE)               \
  X(CUDA_ERROR_NOT_FOUND, NOT_FOUND)                              \
  X(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, RESOURCE_EXHAUSTED)       \
  X(CUDA_ERROR_NOT_SUPPORTED, UNIMPLEMENTED)                      \
  X(CUDA_ERROR_ILLEGAL_ADDRESS, INTERNAL)                         \
  X(CUDA_ERROR_LAUNCH_FAILED, INTERNAL)                           \
  X(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, UNIMPLEMENTED)         \
  X(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, FAILED_PRECONDITION)

typedef struct grt_hal_cuda_result_row_t {
  CUresult result;
  const char* name;
  grt_status_code_t code;
} grt_hal_cuda_result_row_t;

static const grt_hal_cuda_result_row_t kResults[] = {
#define GRT_HAL_CUDA_RESULT_ROW(result, code) \
  {(CUresult)(result), #result, GRT_STATUS_##code},
    GRT_HAL_CUDA_RESULTS(GRT_HAL_CUDA_RESULT_ROW)
#undef GRT_HAL_CUDA_RESULT_ROW
};

static const grt_hal_cuda_result_row_t* grt_hal_cuda_find_result(
    CUresult result) {
  for (size_t i = 0; i < sizeof(kResults) / sizeof(kResults[0]); ++i) {
    if (kResults[i].result == result) return &kResults[i];
  }
  return NULL;
}

grt_status_code_t grt_hal_cuda_status_code(CUresult result) {
  if (result == CUDA_SUCCESS) return GRT_STATUS_OK;
  const grt_hal_cuda_result_row_t* row = grt_hal_cuda_find_result(result);
  return row ? row->code : GRT_STATUS_INTERNAL;
}

const char* grt_hal_cuda_result_name(CUresult result, const char* name,
                                     char* scratch, size_t scratch_capacity) {
  if (name) return name;
  const grt_hal_cuda_result_row_t* row = grt_hal_cuda_find_result(result);
  if (row) return row->name;
  snprintf(scratch, scratch_capacity, "CUresult %d", (int)result);
  return scratch;
}

grt_status_t grt_hal_cuda_make_status(CUresult result, const char* name,
                                      const char* description,
                                      const char* call) {
  if (result == CUDA_SUCCESS) return grt_ok_status();
  char scratch[32];
  name = grt_hal_cuda_result_name(result, name, scratch, sizeof(scratch));
  if (description) {
    return grt_make_status(grt_hal_cuda_status_code(result),
                           "%s failed: %s (%s)", call, name, description);
  }
  return grt_make_status(grt_hal_cuda_status_code(result), "%s failed: %s",
                         call, name);
}

grt_status_t grt_hal_cuda_init_status(CUresult result, const char* name,
                                      const char* description) {
  if (result == CUDA_SUCCESS) return grt_ok_status();
  char scratch[32];
  name = grt_hal_cuda_result_name(result, name, scratch, sizeof(scratch));
  // int: 35 is not a member of the CUresult enum.
  switch ((int)result) {
    case CUDA_ERROR_STUB_LIBRARY:
      return grt_make_status(GRT_STATUS_UNAVAILABLE,
                             "no CUDA driver (libcuda is the toolkit's stub "
                             "library; cuInit returned %d %s)",
                             (int)result, name);
    case CUDA_ERROR_NO_DEVICE:
      return grt_make_status(GRT_STATUS_UNAVAILABLE,
                             "no CUDA device (cuInit returned %d %s)",
                             (int)result, name);
    case CUDA_ERROR_INSUFFICIENT_DRIVER:
    case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
      return grt_make_status(
          GRT_STATUS_UNAVAILABLE,
          "the CUDA driver is too old for this build (built against CUDA "
          "%d.%d; cuInit returned %d %s%s%s)",
          CUDA_VERSION / 1000, (CUDA_VERSION % 1000) / 10, (int)result, name,
          description ? ": " : "", description ? description : "");
    default: {
      grt_status_t status = grt_hal_cuda_make_status(result, name, description,
                                                     "cuInit");
      // Whatever the cause, the machine cannot run CUDA work.
      grt_status_t unavailable = grt_make_status(
          GRT_STATUS_UNAVAILABLE, "%s", grt_status_message(status));
      grt_status_free(status);
      return unavailable;
    }
  }
}

grt_status_t grt_hal_cuda_result_status(const grt_hal_cuda_symbols_t* symbols,
                                        CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return grt_ok_status();
  const char* name = NULL;
  const char* description = NULL;
  if (symbols && symbols->cuGetErrorName &&
      symbols->cuGetErrorName(result, &name) != CUDA_SUCCESS) {
    name = NULL;
  }
  if (symbols && symbols->cuGetErrorString &&
      symbols->cuGetErrorString(result, &description) != CUDA_SUCCESS) {
    description = NULL;
  }
  return grt_hal_cuda_make_status(result, name, description, call);
}
