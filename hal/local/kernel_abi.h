// The CPU kernel ABI: the one contract between kernels compiled for the
// CPU (by grt-compile into a shared object, or linked into an application)
// and the local-sync/local-task drivers (docs/architecture.md §5).
//
// Self-contained on purpose: generated kernel C code includes only this
// header (and the C library), never the rest of grt.
//
// A kernel is called once per workgroup:
//   int kernel(const grt_kernel_dispatch_state_t*,
//              const grt_kernel_workgroup_state_t*);
// and returns 0, or a nonzero code that fails the dispatch ("kernel 'add'
// failed with code 3 at workgroup (1,0,0)"). Workgroups of one dispatch may
// run concurrently on different threads, in any order.
//
// Codes grt-compile's kernels return (any other nonzero code is a kernel's
// own): a dispatch with the wrong binding count (1) or too few push
// constants (2), and an access outside binding b's range
// (GRT_KERNEL_CODE_OUT_OF_RANGE + b): kernels whose sizes are symbolic
// check their indices against binding_lengths and return that instead of
// touching memory outside a binding, and the drivers report it as
// "kernel 'add' accessed binding 1 outside its range (48 bytes) at
// workgroup (1,0,0)".
#define GRT_KERNEL_CODE_BINDING_COUNT 1
#define GRT_KERNEL_CODE_CONSTANT_COUNT 2
#define GRT_KERNEL_CODE_OUT_OF_RANGE 256

// A library exports exactly one symbol, GRT_KERNEL_LIBRARY_QUERY_SYMBOL, a
// function returning its kernel table for the ABI version the runtime asks
// for (NULL if it cannot serve that version).
#ifndef GRT_HAL_LOCAL_KERNEL_ABI_H_
#define GRT_HAL_LOCAL_KERNEL_ABI_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GRT_KERNEL_ABI_VERSION 1u
#define GRT_KERNEL_LIBRARY_QUERY_SYMBOL "grt_kernel_library_query"

typedef struct grt_kernel_dispatch_state_t {
  uint32_t workgroup_count[3];
  uint32_t workgroup_size[3];  // from the entry point
  uint32_t constant_count;
  const uint32_t* constants;  // 32-bit push constants
  uint32_t binding_count;
  void* const* bindings;          // base pointer of each binding's range
  const size_t* binding_lengths;  // byte length of each binding's range
} grt_kernel_dispatch_state_t;

typedef struct grt_kernel_workgroup_state_t {
  uint32_t workgroup_id[3];
  uint32_t worker_id;  // < the device's worker count; 0 on local-sync
  // Per-worker scratch memory, 64-byte aligned, at least the entry's
  // local_memory_size bytes; NULL when that is 0.
  void* local_memory;
  size_t local_memory_size;
} grt_kernel_workgroup_state_t;

typedef int (*grt_kernel_fn_t)(const grt_kernel_dispatch_state_t* dispatch,
                               const grt_kernel_workgroup_state_t* workgroup);

typedef struct grt_kernel_entry_t {
  const char* name;
  grt_kernel_fn_t fn;
  uint32_t binding_count;
  uint32_t constant_count;
  uint32_t workgroup_size[3];
  uint32_t local_memory_size;  // bytes of per-worker scratch needed
} grt_kernel_entry_t;

typedef struct grt_kernel_library_t {
  uint32_t abi_version;  // GRT_KERNEL_ABI_VERSION it was built for
  uint32_t entry_count;
  const grt_kernel_entry_t* entries;
  const char* name;  // registration key for statically linked libraries
} grt_kernel_library_t;

typedef const grt_kernel_library_t* (*grt_kernel_library_query_fn_t)(
    uint32_t abi_version);

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_LOCAL_KERNEL_ABI_H_
