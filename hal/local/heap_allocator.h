// The host heap allocator for the local drivers: buffers are aligned host
// memory that is device-local, host-visible, coherent and cached at once,
// and host memory can be imported without copying.
#ifndef GRT_HAL_LOCAL_HEAP_ALLOCATOR_H_
#define GRT_HAL_LOCAL_HEAP_ALLOCATOR_H_

#include "base/allocator.h"
#include "base/status.h"
#include "hal/allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

// Freed blocks are kept for reuse. A large host allocation is served by
// fresh mmap'd pages, and a model call that allocates a 64 MiB result and its
// transient arena each time would otherwise pay one page fault per 4 KiB on
// every call (the first-touch cost can exceed the kernels' own time). Blocks
// of at least |cache_min_block_size| bytes go into a cache when their buffer
// dies; an allocation takes the smallest cached block that is at least as
// large, wastes at most an eighth of it and has the asked-for alignment.
// The cache holds at most |cache_capacity| bytes, evicting the blocks freed
// longest ago; it is emptied by grt_hal_local_heap_allocator_trim and when
// the allocator is destroyed. Smaller blocks are left to the host allocator,
// whose free lists already reuse them.
//
// Buffer contents are unspecified when allocated (as from malloc); a reused
// block holds whatever its previous buffer left there.
typedef struct grt_hal_local_heap_allocator_options_t {
  uint64_t cache_capacity;        // 0 disables the cache
  uint64_t cache_min_block_size;  // smaller blocks are never cached
} grt_hal_local_heap_allocator_options_t;

// 256 MiB of blocks of at least 256 KiB.
grt_hal_local_heap_allocator_options_t
grt_hal_local_heap_allocator_default_options(void);

grt_status_t grt_hal_local_heap_allocator_create(
    grt_allocator_t host_allocator, grt_hal_allocator_t** out_allocator)
    GRT_MUST_USE;

grt_status_t grt_hal_local_heap_allocator_create_with_options(
    grt_allocator_t host_allocator,
    const grt_hal_local_heap_allocator_options_t* options,
    grt_hal_allocator_t** out_allocator) GRT_MUST_USE;

// What the block cache holds now and how often it served an allocation.
// The allocator statistics (grt_hal_allocator_query_statistics) count live
// buffers only: cached blocks are neither allocated nor freed there.
typedef struct grt_hal_local_heap_cache_statistics_t {
  uint64_t cached_bytes;
  uint64_t cached_blocks;
  uint64_t reuse_count;  // allocations served from the cache
} grt_hal_local_heap_cache_statistics_t;

// Zeros for an allocator this file did not make.
void grt_hal_local_heap_allocator_query_cache(
    grt_hal_allocator_t* allocator,
    grt_hal_local_heap_cache_statistics_t* out_statistics);

// Returns every cached block to the host allocator (for a device going
// idle, or an application that wants its memory back). A no-op for an
// allocator this file did not make.
void grt_hal_local_heap_allocator_trim(grt_hal_allocator_t* allocator);

// The host address of an allocated buffer made by this allocator (used by
// the local drivers to execute commands).
void* grt_hal_local_heap_buffer_data(grt_hal_buffer_t* allocated_buffer);

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_LOCAL_HEAP_ALLOCATOR_H_
