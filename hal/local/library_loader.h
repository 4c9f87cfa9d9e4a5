// Loading a shared object from bytes in memory: how CPU executables embedded
// in a module become callable code (hal/local/executable.c).
//
// dlopen() only takes a path, so the bytes are given one: on Linux an
// anonymous memfd_create() file opened through /proc/self/fd/N, which never
// touches a file system; elsewhere, or where memfd is refused (old kernels,
// seccomp sandboxes, no /proc), a private mkstemp() file in $TMPDIR (or
// /tmp) that is unlinked as soon as dlopen() returns. Either way the library
// is opened RTLD_NOW | RTLD_LOCAL: every symbol is resolved at load, so a
// broken library fails here and not in the middle of a dispatch, and its
// symbols never leak into the process's global namespace.
#ifndef GRT_HAL_LOCAL_LIBRARY_LOADER_H_
#define GRT_HAL_LOCAL_LIBRARY_LOADER_H_

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum grt_hal_local_library_load_mode_e {
  // memfd where the platform has it, the temporary file otherwise.
  GRT_HAL_LOCAL_LIBRARY_LOAD_DEFAULT = 0,
  // Always the temporary file (so the fallback can be tested on Linux).
  GRT_HAL_LOCAL_LIBRARY_LOAD_TEMPORARY_FILE = 1,
} grt_hal_local_library_load_mode_t;

// Loads |size| bytes of a shared object. |label| prefixes every error
// message ("executable cpu-x86_64: dlopen failed: ..."). The handle is
// released with grt_hal_local_library_unload.
grt_status_t grt_hal_local_library_load(const uint8_t* data, size_t size,
                                        grt_hal_local_library_load_mode_t mode,
                                        const char* label, void** out_handle)
    GRT_MUST_USE;

// The address of |symbol| in the library; NOT_FOUND naming the symbol and
// the dynamic loader's reason when it is not exported.
grt_status_t grt_hal_local_library_lookup(void* handle, const char* symbol,
                                          const char* label,
                                          void** out_address) GRT_MUST_USE;

// Where the library was loaded: what is added to the addresses in its
// file to give the addresses in memory (its link map's l_addr). For the
// perf map (perf_map.h).
grt_status_t grt_hal_local_library_load_base(void* handle, const char* label,
                                             uintptr_t* out_base) GRT_MUST_USE;

// Closes a handle from grt_hal_local_library_load. NULL is ignored.
void grt_hal_local_library_unload(void* handle);

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_LOCAL_LIBRARY_LOADER_H_
