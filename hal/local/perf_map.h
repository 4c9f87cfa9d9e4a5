// perf map files: symbol names for kernels loaded from memory.
//
// A kernel library embedded in a module is loaded into anonymous memory by
// grt's loader (elf_loader.h), or dlopen()ed from a memfd or an unlinked
// temporary file (library_loader.h), so `perf report` finds no file to read
// its symbols from and shows bare addresses. With GRT_PERF_MAP=1 in
// the environment, the executable loader appends one line per entry point
// of every library it loads to /tmp/perf-<pid>.map, the file perf reads for
// code it cannot map to a file (JITs use the same):
//
//   START SIZE NAME      (START and SIZE in hex, without 0x)
//   7f3a12c01120 2c4 main_dispatch_0
//
// START is the entry point's address, SIZE its length from the library's
// ELF symbol table (.symtab, which grt-compile keeps, else .dynsym); a
// kernel with no symbol of its own there gets the bytes up to the next
// entry point or the end of its code section. Lines are only appended: a
// library unloaded later leaves its lines behind (perf resolves addresses
// of a process that has exited, so they are kept).
#ifndef GRT_HAL_LOCAL_PERF_MAP_H_
#define GRT_HAL_LOCAL_PERF_MAP_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "hal/local/kernel_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

// Reads GRT_PERF_MAP: "1" is true; unset, empty or "0" is false; anything
// else is INVALID_ARGUMENT "GRT_PERF_MAP='yes': expected 1 (write
// /tmp/perf-<pid>.map for perf) or 0".
grt_status_t grt_hal_local_perf_map_requested(bool* out_requested)
    GRT_MUST_USE;

// "/tmp/perf-<pid>.map" for this process.
void grt_hal_local_perf_map_default_path(char* out, size_t capacity);

// Appends a line for each entry of |library|, whose code was loaded from
// the ELF shared object |elf| (|elf_size| bytes, already checked to be one
// for this host) at |load_base| (the difference between the addresses in
// the file and in memory). The lines are written with one write() under a
// process-wide lock. Errors name the file: "cannot write the perf map
// '/tmp/perf-12.map': Permission denied".
grt_status_t grt_hal_local_perf_map_append(const char* path,
                                           const grt_kernel_library_t* library,
                                           const uint8_t* elf, size_t elf_size,
                                           uintptr_t load_base) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_LOCAL_PERF_MAP_H_
