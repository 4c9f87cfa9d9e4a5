// The local-task device (see driver.h for its execution model).
#ifndef GRT_HAL_DRIVERS_LOCAL_TASK_TASK_DEVICE_H_
#define GRT_HAL_DRIVERS_LOCAL_TASK_TASK_DEVICE_H_

#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "hal/device.h"

#ifdef __cplusplus
extern "C" {
#endif

// |worker_count| 0 means one worker per online core.
grt_status_t grt_hal_task_device_create(const char* uri, uint32_t worker_count,
                                        grt_allocator_t host_allocator,
                                        grt_hal_device_t** out_device)
    GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_LOCAL_TASK_TASK_DEVICE_H_
