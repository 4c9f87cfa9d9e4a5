// CPU executables for the local drivers: kernel libraries loaded from a
// module's shared object, or linked into the application.
//
// Formats:
//   "cpu-<arch>"  (cpu-x86_64, cpu-aarch64): the binary is an ELF shared
//                 object; grt's own loader (elf_loader.h) maps it, or with
//                 GRT_KERNEL_LOADER=dlopen (GRT_ENABLE_DLOPEN_LOADER builds)
//                 the system's dynamic loader (library_loader.h); its
//                 GRT_KERNEL_LIBRARY_QUERY_SYMBOL is called and the table
//                 checked against the module's entry points.
//   "cpu-static": the binary is the name of a library registered with
//                 grt_hal_local_register_static_library, for platforms that
//                 forbid loading code at run time.
// Only the host's own arch is accepted for cpu-<arch>.
#ifndef GRT_HAL_LOCAL_EXECUTABLE_H_
#define GRT_HAL_LOCAL_EXECUTABLE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "hal/executable.h"
#include "hal/local/kernel_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

// "cpu-x86_64" / "cpu-aarch64" / ... for the machine this was built for.
const char* grt_hal_local_host_executable_format(void);

// Registers a statically linked kernel library under library->name
// (process-wide, thread-safe; the library must outlive its use).
// Registering the same library again is OK; ALREADY_EXISTS if another
// library has that name.
grt_status_t grt_hal_local_register_static_library(
    const grt_kernel_library_t* library) GRT_MUST_USE;

// The local executable: entry i of the HAL header corresponds to
// kernels[i] (reordered to the module's order).
typedef struct grt_hal_local_executable_t {
  grt_hal_executable_t base;
  const grt_kernel_entry_t** kernels;  // entry_point_count entries
  size_t max_local_memory_size;
  // The loaded object (an ELF image or a dlopen handle) and what releases
  // it; NULL for static libraries.
  void* library_handle;
  void (*library_unload)(void* library_handle);
} grt_hal_local_executable_t;

// The one executable cache both local drivers use. Remembers prepared
// executables by digest.
grt_status_t grt_hal_local_executable_cache_create(
    grt_allocator_t host_allocator, grt_hal_executable_cache_t** out_cache)
    GRT_MUST_USE;

// Downcast for the local drivers (the executable must come from the
// local cache).
static inline grt_hal_local_executable_t* grt_hal_local_executable_cast(
    grt_hal_executable_t* executable) {
  return (grt_hal_local_executable_t*)executable;
}

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_LOCAL_EXECUTABLE_H_
