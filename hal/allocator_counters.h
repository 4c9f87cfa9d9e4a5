// The live/peak/count accounting behind grt_hal_allocator_statistics_t,
// shared by every allocator (the local heap, CUDA, Vulkan) so the peak's
// lock-free update is written once.
#ifndef GRT_HAL_ALLOCATOR_COUNTERS_H_
#define GRT_HAL_ALLOCATOR_COUNTERS_H_

#include <stdatomic.h>
#include <stdint.h>

#include "hal/allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

// Statistics only: nothing is ordered by them, so they are relaxed.
typedef struct grt_hal_allocator_counters_t {
  atomic_uint_least64_t bytes_allocated;
  atomic_uint_least64_t peak_bytes_allocated;
  atomic_uint_least64_t allocation_count;
} grt_hal_allocator_counters_t;

void grt_hal_allocator_counters_initialize(
    grt_hal_allocator_counters_t* counters);

// An allocation of |size| bytes was made: live bytes, peak and count.
void grt_hal_allocator_counters_allocated(grt_hal_allocator_counters_t* counters,
                                          uint64_t size);

// An allocation of |size| bytes was freed.
void grt_hal_allocator_counters_freed(grt_hal_allocator_counters_t* counters,
                                      uint64_t size);

// atomic_load wants a non-const object in C11, hence the non-const pointer.
void grt_hal_allocator_counters_query(
    grt_hal_allocator_counters_t* counters,
    grt_hal_allocator_statistics_t* out_statistics);

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_ALLOCATOR_COUNTERS_H_
