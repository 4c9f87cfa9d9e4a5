// The Vulkan driver factory ("vulkan", "vulkan://N").
#ifndef GRT_HAL_DRIVERS_VULKAN_DRIVER_H_
#define GRT_HAL_DRIVERS_VULKAN_DRIVER_H_

#include "base/status.h"
#include "hal/driver.h"

#ifdef __cplusplus
extern "C" {
#endif

grt_status_t grt_hal_vulkan_driver_register(
    grt_hal_driver_registry_t* registry) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_VULKAN_DRIVER_H_
