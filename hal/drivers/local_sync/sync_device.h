// The local-sync device (see driver.h for its execution model).
#ifndef GRT_HAL_DRIVERS_LOCAL_SYNC_SYNC_DEVICE_H_
#define GRT_HAL_DRIVERS_LOCAL_SYNC_SYNC_DEVICE_H_

#include "base/allocator.h"
#include "base/status.h"
#include "hal/device.h"

#ifdef __cplusplus
extern "C" {
#endif

grt_status_t grt_hal_sync_device_create(const char* uri,
                                        grt_allocator_t host_allocator,
                                        grt_hal_device_t** out_device)
    GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_LOCAL_SYNC_SYNC_DEVICE_H_
