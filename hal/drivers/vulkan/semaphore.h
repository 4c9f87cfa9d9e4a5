// HAL semaphores as Vulkan timeline semaphores (Vulkan 1.2).
//
// The VkSemaphore carries the value: the GPU signals it at the end of a
// submission, the host with vkSignalSemaphore, and host waits block in
// vkWaitSemaphores (no polling). A failure is kept beside it (Vulkan has no
// failed state): failing stores the status, then signals the VkSemaphore
// far ahead so that every waiter wakes, sees the failure and returns it.
// Submissions never wait on the GPU (vulkan_device.h), so no GPU work can
// run behind a failed semaphore.
#ifndef GRT_HAL_DRIVERS_VULKAN_SEMAPHORE_H_
#define GRT_HAL_DRIVERS_VULKAN_SEMAPHORE_H_

#include <pthread.h>
#include <stdatomic.h>

#include "base/status.h"
#include "hal/semaphore.h"
#include "hal/drivers/vulkan/vulkan_device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_hal_vulkan_semaphore_t {
  grt_hal_semaphore_t base;
  grt_hal_vulkan_device_t* device;  // retained
  VkSemaphore handle;
  pthread_mutex_t mutex;  // guards |failure|
  atomic_bool failed;
  grt_status_t failure;
  // The largest value a submitted (possibly unfinished) GPU operation
  // signals: a host signal must stay below it, so fail() only wakes
  // waiters itself when nothing is pending (else the GPU's signal does).
  atomic_uint_fast64_t pending_gpu_value;
} grt_hal_vulkan_semaphore_t;

grt_status_t grt_hal_vulkan_semaphore_create(grt_hal_vulkan_device_t* device,
                                             uint64_t initial_value,
                                             grt_hal_semaphore_t** out)
    GRT_MUST_USE;

// The Vulkan semaphore of |device| behind |semaphore|, or NULL for any
// other semaphore (host semaphores, another device's).
grt_hal_vulkan_semaphore_t* grt_hal_vulkan_semaphore_cast(
    grt_hal_vulkan_device_t* device, grt_hal_semaphore_t* semaphore);

// A copy of the failure, or OK.
grt_status_t grt_hal_vulkan_semaphore_failure(
    grt_hal_vulkan_semaphore_t* semaphore) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_VULKAN_SEMAPHORE_H_
