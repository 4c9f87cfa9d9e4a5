// Additions to the C API for foreign-function callers of libgrt.so
// (python/libgrt.c).
#ifndef GRT_PYTHON_LIBGRT_H_
#define GRT_PYTHON_LIBGRT_H_

#include <stdint.h>

#include "hal/device.h"

#ifdef __cplusplus
extern "C" {
#endif

// Bumped whenever a signature python/grt binds changes, so the package
// refuses a library it does not match instead of misreading memory.
#define GRT_FFI_ABI_VERSION 2u

// grt_hal_device_release (inline in hal/device.h).
void grt_ffi_device_release(grt_hal_device_t* device);
uint32_t grt_ffi_abi_version(void);

#ifdef __cplusplus
}
#endif

#endif  // GRT_PYTHON_LIBGRT_H_
