// The one place the driver includes <vulkan/vulkan.h>: without prototypes,
// because every entry point is fetched through vkGetInstanceProcAddr from a
// loader opened at run time (loader.h), so nothing links libvulkan.
#ifndef GRT_HAL_DRIVERS_VULKAN_VULKAN_HEADERS_H_
#define GRT_HAL_DRIVERS_VULKAN_VULKAN_HEADERS_H_

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan.h>

#endif  // GRT_HAL_DRIVERS_VULKAN_VULKAN_HEADERS_H_
