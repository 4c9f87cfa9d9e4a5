// The CUDA driver API, loaded at run time.
//
// grt never links libcuda: binaries must start (and report why CUDA is not
// usable) on machines without an NVIDIA driver. The functions the driver
// calls are listed once in GRT_HAL_CUDA_SYMBOLS below; adding a function is
// one line there. Each is resolved through cuGetProcAddress_v2 asking for
// the CUDA version of the headers we were built against (so versioned
// entry points such as cuMemAlloc_v2 match the prototypes in cuda.h), and
// through dlsym of the versioned name where the driver predates
// cuGetProcAddress_v2.
#ifndef GRT_HAL_DRIVERS_CUDA_DYNAMIC_SYMBOLS_H_
#define GRT_HAL_DRIVERS_CUDA_DYNAMIC_SYMBOLS_H_

#include <cuda.h>

#include "base/allocator.h"
#include "base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// X(name, (parameters)): every driver API function grt calls. Names are
// the ones cuda.h declares (its macros map some to _v2 symbols; the table
// follows them, so the pointer types always match the prototypes).
#define GRT_HAL_CUDA_SYMBOLS(X)                                               \
  X(cuInit, (unsigned int flags))                                             \
  X(cuDriverGetVersion, (int* version))                                       \
  X(cuGetErrorName, (CUresult error, const char** name))                      \
  X(cuGetErrorString, (CUresult error, const char** string))                  \
  X(cuDeviceGetCount, (int* count))                                           \
  X(cuDeviceGet, (CUdevice * device, int ordinal))                            \
  X(cuDeviceGetName, (char* name, int length, CUdevice device))               \
  X(cuDeviceGetAttribute,                                                     \
    (int* value, CUdevice_attribute attribute, CUdevice device))              \
  X(cuDevicePrimaryCtxRetain, (CUcontext * context, CUdevice device))         \
  X(cuDevicePrimaryCtxRelease, (CUdevice device))                             \
  X(cuCtxSetCurrent, (CUcontext context))                                     \
  X(cuStreamCreate, (CUstream * stream, unsigned int flags))                  \
  X(cuStreamDestroy, (CUstream stream))                                       \
  X(cuStreamSynchronize, (CUstream stream))                                   \
  X(cuStreamWaitEvent, (CUstream stream, CUevent event, unsigned int flags))  \
  X(cuLaunchHostFunc, (CUstream stream, CUhostFn fn, void* user_data))        \
  X(cuEventCreate, (CUevent * event, unsigned int flags))                     \
  X(cuEventRecord, (CUevent event, CUstream stream))                          \
  X(cuEventDestroy, (CUevent event))                                          \
  X(cuMemAlloc, (CUdeviceptr * pointer, size_t size))                         \
  X(cuMemFree, (CUdeviceptr pointer))                                         \
  X(cuMemAllocAsync, (CUdeviceptr * pointer, size_t size, CUstream stream))   \
  X(cuMemFreeAsync, (CUdeviceptr pointer, CUstream stream))                   \
  X(cuMemHostAlloc, (void** pointer, size_t size, unsigned int flags))        \
  X(cuMemFreeHost, (void* pointer))                                           \
  X(cuMemHostGetDevicePointer,                                                \
    (CUdeviceptr * device_pointer, void* host_pointer, unsigned int flags))   \
  X(cuMemsetD8Async,                                                          \
    (CUdeviceptr target, unsigned char value, size_t count, CUstream stream)) \
  X(cuMemsetD16Async, (CUdeviceptr target, unsigned short value,             \
                       size_t count, CUstream stream))                        \
  X(cuMemsetD32Async,                                                         \
    (CUdeviceptr target, unsigned int value, size_t count, CUstream stream))  \
  X(cuMemcpyDtoDAsync, (CUdeviceptr target, CUdeviceptr source,               \
                        size_t size, CUstream stream))                        \
  X(cuMemcpyHtoDAsync, (CUdeviceptr target, const void* source, size_t size, \
                        CUstream stream))                                     \
  X(cuModuleLoadDataEx, (CUmodule * module, const void* image,                \
                         unsigned int option_count, CUjit_option* options,    \
                         void** option_values))                               \
  X(cuModuleUnload, (CUmodule module))                                        \
  X(cuModuleGetFunction,                                                      \
    (CUfunction * function, CUmodule module, const char* name))               \
  X(cuLaunchKernel,                                                           \
    (CUfunction function, unsigned int grid_x, unsigned int grid_y,           \
     unsigned int grid_z, unsigned int block_x, unsigned int block_y,         \
     unsigned int block_z, unsigned int shared_memory_bytes, CUstream stream, \
     void** parameters, void** extra))                                        \
  X(cuStreamBeginCapture, (CUstream stream, CUstreamCaptureMode mode))        \
  X(cuStreamEndCapture, (CUstream stream, CUgraph * graph))                   \
  X(cuGraphInstantiateWithFlags,                                              \
    (CUgraphExec * exec, CUgraph graph, unsigned long long flags))            \
  X(cuGraphExecUpdate, (CUgraphExec exec, CUgraph graph,                      \
                        CUgraphExecUpdateResultInfo * result_info))           \
  X(cuGraphLaunch, (CUgraphExec exec, CUstream stream))                       \
  X(cuGraphExecDestroy, (CUgraphExec exec))                                   \
  X(cuGraphDestroy, (CUgraph graph))

// The loaded library and one pointer per function of the table.
typedef struct grt_hal_cuda_symbols_t {
  void* library;  // dlopen handle
  int driver_version;  // cuDriverGetVersion, e.g. 12040 (after init)
#define GRT_HAL_CUDA_SYMBOL_MEMBER(name, params) CUresult(CUDAAPI* name) params;
  GRT_HAL_CUDA_SYMBOLS(GRT_HAL_CUDA_SYMBOL_MEMBER)
#undef GRT_HAL_CUDA_SYMBOL_MEMBER
} grt_hal_cuda_symbols_t;

// The library grt loads: $GRT_CUDA_LIBRARY when set (tests point it at the
// toolkit's stub library), else "libcuda.so.1" from the loader's path.
const char* grt_hal_cuda_library_path(void);

// dlopens |library_path| and resolves every symbol of the table into
// |out_symbols| (zeroed first). UNAVAILABLE "no CUDA driver: cannot load
// libcuda.so.1 (<dlerror>)" when the library is missing, or naming the
// first symbol it lacks. Does not call cuInit.
grt_status_t grt_hal_cuda_symbols_load(const char* library_path,
                                       grt_hal_cuda_symbols_t* out_symbols)
    GRT_MUST_USE;
// Calls cuInit(0) and checks the driver's version: the "no CUDA
// driver/device" errors of grt_hal_cuda_init_status.
grt_status_t grt_hal_cuda_symbols_initialize(grt_hal_cuda_symbols_t* symbols)
    GRT_MUST_USE;
void grt_hal_cuda_symbols_unload(grt_hal_cuda_symbols_t* symbols);

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_CUDA_DYNAMIC_SYMBOLS_H_
