// Fences: a set of (semaphore, value) pairs that together mean "done".
//
// A fence retains its semaphores. Inserting a semaphore that is already in
// the fence keeps the larger value, so joining fences never grows them
// without bound. Queue operations take fences as their wait and signal
// lists (grt_hal_fence_as_list); the hal VM module exposes them to bytecode.
#ifndef GRT_HAL_FENCE_H_
#define GRT_HAL_FENCE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/time.h"
#include "hal/resource.h"
#include "hal/semaphore.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_hal_fence_t grt_hal_fence_t;

// An empty fence with room for |capacity| semaphores (it grows as needed).
grt_status_t grt_hal_fence_create(size_t capacity,
                                  grt_allocator_t host_allocator,
                                  grt_hal_fence_t** out_fence) GRT_MUST_USE;
// A fence holding one pair.
grt_status_t grt_hal_fence_create_at(grt_hal_semaphore_t* semaphore,
                                     uint64_t value,
                                     grt_allocator_t host_allocator,
                                     grt_hal_fence_t** out_fence) GRT_MUST_USE;
// A new fence holding the union of |fences| (NULL entries skipped; the
// larger value wins for a semaphore that appears twice).
grt_status_t grt_hal_fence_join(size_t count, grt_hal_fence_t* const* fences,
                                grt_allocator_t host_allocator,
                                grt_hal_fence_t** out_fence) GRT_MUST_USE;
void grt_hal_fence_retain(grt_hal_fence_t* fence);
void grt_hal_fence_release(grt_hal_fence_t* fence);

grt_status_t grt_hal_fence_insert(grt_hal_fence_t* fence,
                                  grt_hal_semaphore_t* semaphore,
                                  uint64_t value) GRT_MUST_USE;
size_t grt_hal_fence_count(const grt_hal_fence_t* fence);
// A view of the pairs, valid until the fence changes. NULL fence -> empty.
grt_hal_semaphore_list_t grt_hal_fence_as_list(const grt_hal_fence_t* fence);

// Signals every pair.
grt_status_t grt_hal_fence_signal(grt_hal_fence_t* fence) GRT_MUST_USE;
// Fails every semaphore with |status| (ownership taken).
void grt_hal_fence_fail(grt_hal_fence_t* fence, grt_status_t status);
// OK with *out_reached telling whether all pairs are reached; a failed
// semaphore's status is returned as the error.
grt_status_t grt_hal_fence_query(grt_hal_fence_t* fence, bool* out_reached)
    GRT_MUST_USE;
grt_status_t grt_hal_fence_wait(grt_hal_fence_t* fence,
                                grt_duration_t timeout_ns) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_FENCE_H_
