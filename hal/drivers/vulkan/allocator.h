// The Vulkan allocator: one VkDeviceMemory per buffer, over the device's
// memory types. A request's HAL memory type bits become required Vulkan
// property flags; among the types that have them the first device-local
// one wins (so plain DEVICE_LOCAL requests land in the fastest memory),
// and MAPPING usage also requires host-visible memory. Host-visible memory
// is mapped once, at allocation, and stays mapped; map_range hands out
// pointers into it and flush/invalidate round to nonCoherentAtomSize.
// Heaps are the distinct HAL memory types of the device's Vulkan types.
#ifndef GRT_HAL_DRIVERS_VULKAN_ALLOCATOR_H_
#define GRT_HAL_DRIVERS_VULKAN_ALLOCATOR_H_

#include "base/status.h"
#include "hal/allocator.h"
#include "hal/drivers/vulkan/vulkan_device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_hal_vulkan_buffer_t {
  grt_hal_buffer_t base;
  grt_hal_vulkan_device_t* device;  // retained
  VkBuffer handle;
  VkDeviceMemory memory;
  VkMemoryPropertyFlags properties;
  void* host_pointer;  // the persistent mapping, or NULL
} grt_hal_vulkan_buffer_t;

// The allocator of |device| (which it does not retain: the device owns it).
grt_status_t grt_hal_vulkan_allocator_create(grt_hal_vulkan_device_t* device,
                                             grt_hal_allocator_t** out)
    GRT_MUST_USE;

// NULL when |buffer| (an allocated buffer) was not made by a Vulkan
// allocator of |device|.
grt_hal_vulkan_buffer_t* grt_hal_vulkan_buffer_cast(
    grt_hal_vulkan_device_t* device, grt_hal_buffer_t* buffer);

// A VkBuffer the driver uses inside one submission (not a HAL buffer):
// upload bytes, shadows of misaligned bindings.
typedef struct grt_hal_vulkan_transient_t {
  VkBuffer buffer;
  VkDeviceMemory memory;
  void* host_pointer;
  VkMemoryPropertyFlags properties;
  VkDeviceSize size;
} grt_hal_vulkan_transient_t;
// |required| property flags; host-visible memory is mapped.
grt_status_t grt_hal_vulkan_transient_create(grt_hal_vulkan_device_t* device,
                                           VkDeviceSize size,
                                           VkMemoryPropertyFlags required,
                                           grt_hal_vulkan_transient_t* out)
    GRT_MUST_USE;
// Makes host writes to the whole staging buffer visible (non-coherent).
grt_status_t grt_hal_vulkan_transient_flush(grt_hal_vulkan_device_t* device,
                                          grt_hal_vulkan_transient_t* staging)
    GRT_MUST_USE;
void grt_hal_vulkan_transient_destroy(grt_hal_vulkan_device_t* device,
                                    grt_hal_vulkan_transient_t* staging);

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_VULKAN_ALLOCATOR_H_
