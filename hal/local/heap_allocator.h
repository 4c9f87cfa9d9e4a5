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

grt_status_t grt_hal_local_heap_allocator_create(
    grt_allocator_t host_allocator, grt_hal_allocator_t** out_allocator)
    GRT_MUST_USE;

// The host address of an allocated buffer made by this allocator (used by
// the local drivers to execute commands).
void* grt_hal_local_heap_buffer_data(grt_hal_buffer_t* allocated_buffer);

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_LOCAL_HEAP_ALLOCATOR_H_
