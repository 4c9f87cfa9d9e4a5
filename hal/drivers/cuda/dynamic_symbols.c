// Loading the CUDA driver library and resolving the symbol table
// (dynamic_symbols.h).
// dlopen/dlsym are POSIX, not C11.
#define _POSIX_C_SOURCE 200809L

#include "hal/drivers/cuda/dynamic_symbols.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "hal/drivers/cuda/cuda_status.h"

// The oldest driver grt runs on: stream-ordered allocation (11.2), host
// functions and graph capture are older; cuGraphExecUpdate with a result
// info struct (the _v2 prototype in cuda.h) is 12.0.
#define GRT_HAL_CUDA_MIN_DRIVER_VERSION 12000

// Two-step stringification so "cuMemAlloc" becomes the symbol cuda.h maps
// it to ("cuMemAlloc_v2"), which is what dlsym must look up.
#define GRT_HAL_CUDA_STRINGIFY_(x) #x
#define GRT_HAL_CUDA_STRINGIFY(x) GRT_HAL_CUDA_STRINGIFY_(x)

typedef CUresult(CUDAAPI* grt_hal_cuda_get_proc_address_fn)(
    const char* symbol, void** pfn, int cuda_version, cuuint64_t flags,
    CUdriverProcAddressQueryResult* symbol_status);

const char* grt_hal_cuda_library_path(void) {
  const char* path = getenv("GRT_CUDA_LIBRARY");
  return path && path[0] ? path : "libcuda.so.1";
}

// Resolves |base_name| (cuGetProcAddress wants the unversioned name plus a
// CUDA version) or, without cuGetProcAddress_v2, |versioned_name| by dlsym.
static grt_status_t grt_hal_cuda_resolve(
    void* library, grt_hal_cuda_get_proc_address_fn get_proc_address,
    const char* base_name, const char* versioned_name, void** out_fn) {
  *out_fn = NULL;
  if (get_proc_address) {
    CUdriverProcAddressQueryResult query = CU_GET_PROC_ADDRESS_SUCCESS;
    CUresult result = get_proc_address(base_name, out_fn, CUDA_VERSION,
                                       CU_GET_PROC_ADDRESS_DEFAULT, &query);
    if (result == CUDA_SUCCESS && query == CU_GET_PROC_ADDRESS_SUCCESS &&
        *out_fn) {
      return grt_ok_status();
    }
    *out_fn = NULL;
  }
  // POSIX lets a void* hold a function pointer returned by dlsym.
  *out_fn = dlsym(library, versioned_name);
  if (*out_fn) return grt_ok_status();
  return grt_make_status(GRT_STATUS_UNAVAILABLE,
                         "the CUDA driver library has no %s (%s); the driver "
                         "is older than this build needs",
                         base_name, versioned_name);
}

grt_status_t grt_hal_cuda_symbols_load(const char* library_path,
                                       grt_hal_cuda_symbols_t* out_symbols) {
  memset(out_symbols, 0, sizeof(*out_symbols));
  // RTLD_NODELETE: libcuda is not built to be unloaded; staying mapped also
  // lets leak checkers attribute its allocations.
  void* library =
      dlopen(library_path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!library) {
    const char* error = dlerror();
    return grt_make_status(GRT_STATUS_UNAVAILABLE,
                           "no CUDA driver: cannot load %s (%s)", library_path,
                           error ? error : "unknown dlopen error");
  }
  grt_hal_cuda_get_proc_address_fn get_proc_address = NULL;
  void* get_proc_address_symbol = dlsym(library, "cuGetProcAddress_v2");
  memcpy(&get_proc_address, &get_proc_address_symbol,
         sizeof(get_proc_address));
  grt_status_t status = grt_ok_status();
#define GRT_HAL_CUDA_RESOLVE(name, params)                                 \
  if (grt_status_is_ok(status)) {                                          \
    void* fn = NULL;                                                       \
    status = grt_hal_cuda_resolve(library, get_proc_address, #name,        \
                                  GRT_HAL_CUDA_STRINGIFY(name), &fn);      \
    memcpy(&out_symbols->name, &fn, sizeof(fn));                           \
  }
  GRT_HAL_CUDA_SYMBOLS(GRT_HAL_CUDA_RESOLVE)
#undef GRT_HAL_CUDA_RESOLVE
  if (!grt_status_is_ok(status)) {
    dlclose(library);
    memset(out_symbols, 0, sizeof(*out_symbols));
    return grt_status_annotate(status, "while loading %s", library_path);
  }
  out_symbols->library = library;
  return grt_ok_status();
}

grt_status_t grt_hal_cuda_symbols_initialize(grt_hal_cuda_symbols_t* symbols) {
  CUresult result = symbols->cuInit(0);
  if (result != CUDA_SUCCESS) {
    const char* name = NULL;
    const char* description = NULL;
    // The stub library answers these too (it knows the names); a driver
    // that cannot is covered by the table's fallback names.
    if (symbols->cuGetErrorName(result, &name) != CUDA_SUCCESS) name = NULL;
    if (symbols->cuGetErrorString(result, &description) != CUDA_SUCCESS) {
      description = NULL;
    }
    return grt_hal_cuda_init_status(result, name, description);
  }
  int version = 0;
  GRT_CUDA_RETURN_IF_ERROR(symbols, cuDriverGetVersion, (&version));
  symbols->driver_version = version;
  if (version < GRT_HAL_CUDA_MIN_DRIVER_VERSION) {
    return grt_make_status(GRT_STATUS_UNAVAILABLE,
                           "the CUDA driver is too old: it supports CUDA "
                           "%d.%d, grt needs %d.%d",
                           version / 1000, (version % 1000) / 10,
                           GRT_HAL_CUDA_MIN_DRIVER_VERSION / 1000,
                           (GRT_HAL_CUDA_MIN_DRIVER_VERSION % 1000) / 10);
  }
  return grt_ok_status();
}

void grt_hal_cuda_symbols_unload(grt_hal_cuda_symbols_t* symbols) {
  if (symbols->library) dlclose(symbols->library);
  memset(symbols, 0, sizeof(*symbols));
}
