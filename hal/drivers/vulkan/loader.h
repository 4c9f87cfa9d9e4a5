// The Vulkan loader opened at run time, the instance, and every entry point
// the driver calls.
//
// libvulkan.so.1 is dlopen()ed so that binaries built with the Vulkan
// driver still run (on the CPU) where no loader is installed; the driver
// then reports "no Vulkan device found (<dlerror>)". Entry points live in
// one X-macro table per level (global, instance, device) so adding one is
// one line. Every VkResult becomes a status that names it
// (grt_vk_result_status).
//
// With GRT_VULKAN_VALIDATION=1 in the environment (tests set it) the
// instance enables VK_LAYER_KHRONOS_validation when it is installed, with a
// debug-utils messenger that prints every message as
// "grt vulkan validation: <message>" on stderr and counts it, so a test
// runner can fail on the prefix and unit tests on the count.
#ifndef GRT_HAL_DRIVERS_VULKAN_LOADER_H_
#define GRT_HAL_DRIVERS_VULKAN_LOADER_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "hal/drivers/vulkan/vulkan_headers.h"

#ifdef __cplusplus
extern "C" {
#endif

// Entry points resolved with vkGetInstanceProcAddr(NULL, ...).
#define GRT_VK_GLOBAL_SYMBOLS(X)          \
  X(vkCreateInstance)                     \
  X(vkEnumerateInstanceLayerProperties)   \
  X(vkEnumerateInstanceExtensionProperties)

// Entry points resolved from the instance; optional ones may stay NULL.
#define GRT_VK_INSTANCE_SYMBOLS(X, OPTIONAL)  \
  X(vkDestroyInstance)                        \
  X(vkEnumeratePhysicalDevices)               \
  X(vkGetPhysicalDeviceProperties)            \
  X(vkGetPhysicalDeviceProperties2)           \
  X(vkGetPhysicalDeviceFeatures2)             \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkGetPhysicalDeviceMemoryProperties)      \
  X(vkEnumerateDeviceExtensionProperties)     \
  X(vkCreateDevice)                           \
  X(vkGetDeviceProcAddr)                      \
  OPTIONAL(vkCreateDebugUtilsMessengerEXT)    \
  OPTIONAL(vkDestroyDebugUtilsMessengerEXT)

// Entry points resolved from the logical device.
#define GRT_VK_DEVICE_SYMBOLS(X, OPTIONAL) \
  X(vkDestroyDevice)                       \
  X(vkGetDeviceQueue)                      \
  X(vkDeviceWaitIdle)                      \
  X(vkQueueSubmit)                         \
  X(vkAllocateMemory)                      \
  X(vkFreeMemory)                          \
  X(vkMapMemory)                           \
  X(vkUnmapMemory)                         \
  X(vkFlushMappedMemoryRanges)             \
  X(vkInvalidateMappedMemoryRanges)        \
  X(vkCreateBuffer)                        \
  X(vkDestroyBuffer)                       \
  X(vkGetBufferMemoryRequirements)         \
  X(vkBindBufferMemory)                    \
  X(vkCreateSemaphore)                     \
  X(vkDestroySemaphore)                    \
  X(vkGetSemaphoreCounterValue)            \
  X(vkWaitSemaphores)                      \
  X(vkSignalSemaphore)                     \
  X(vkCreateCommandPool)                   \
  X(vkDestroyCommandPool)                  \
  X(vkAllocateCommandBuffers)              \
  X(vkFreeCommandBuffers)                  \
  X(vkBeginCommandBuffer)                  \
  X(vkEndCommandBuffer)                    \
  X(vkCmdPipelineBarrier)                  \
  X(vkCmdFillBuffer)                       \
  X(vkCmdCopyBuffer)                       \
  X(vkCmdUpdateBuffer)                     \
  X(vkCmdBindPipeline)                     \
  X(vkCmdBindDescriptorSets)               \
  X(vkCmdPushConstants)                    \
  X(vkCmdDispatch)                         \
  X(vkCreateShaderModule)                  \
  X(vkDestroyShaderModule)                 \
  X(vkCreatePipelineCache)                 \
  X(vkDestroyPipelineCache)                \
  X(vkCreateComputePipelines)              \
  X(vkDestroyPipeline)                     \
  X(vkCreatePipelineLayout)                \
  X(vkDestroyPipelineLayout)               \
  X(vkCreateDescriptorSetLayout)           \
  X(vkDestroyDescriptorSetLayout)          \
  X(vkCreateDescriptorPool)                \
  X(vkDestroyDescriptorPool)               \
  X(vkAllocateDescriptorSets)              \
  X(vkUpdateDescriptorSets)                \
  OPTIONAL(vkCmdPushDescriptorSetKHR)

#define GRT_VK_DECLARE_SYMBOL(name) PFN_##name name;

typedef struct grt_vk_device_symbols_t {
  GRT_VK_DEVICE_SYMBOLS(GRT_VK_DECLARE_SYMBOL, GRT_VK_DECLARE_SYMBOL)
} grt_vk_device_symbols_t;

// The loader plus one VkInstance (reference counted: devices keep it).
typedef struct grt_vk_instance_t {
  atomic_uint_least32_t ref_count;
  grt_allocator_t host_allocator;
  void* library;  // dlopen handle
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
  GRT_VK_GLOBAL_SYMBOLS(GRT_VK_DECLARE_SYMBOL)
  GRT_VK_INSTANCE_SYMBOLS(GRT_VK_DECLARE_SYMBOL, GRT_VK_DECLARE_SYMBOL)
  VkInstance handle;
  VkDebugUtilsMessengerEXT messenger;  // VK_NULL_HANDLE without validation
  bool validation;                     // the validation layer is enabled
} grt_vk_instance_t;

// "VK_ERROR_DEVICE_LOST" etc.; "VkResult(<n>)" for values the table lacks
// (written into |scratch| of at least 32 bytes).
const char* grt_vk_result_name(VkResult result, char* scratch,
                               size_t scratch_size);

// OK for VK_SUCCESS; otherwise a status naming |what| and the result:
// "vkCreateBuffer failed: VK_ERROR_OUT_OF_DEVICE_MEMORY". Out-of-memory
// results map to RESOURCE_EXHAUSTED, device loss to UNAVAILABLE, the rest
// to INTERNAL.
grt_status_t grt_vk_result_status(VkResult result, const char* what)
    GRT_MUST_USE;

#define GRT_VK_RETURN_IF_ERROR(call, what) \
  GRT_RETURN_IF_ERROR(grt_vk_result_status((call), (what)))

// Opens |library_name| (NULL: "libvulkan.so.1") and creates an instance
// (Vulkan 1.2). UNAVAILABLE "no Vulkan device found (<why>)" when the
// loader cannot be opened or lacks Vulkan 1.2.
grt_status_t grt_vk_instance_create(const char* library_name,
                                    grt_allocator_t host_allocator,
                                    grt_vk_instance_t** out_instance)
    GRT_MUST_USE;
void grt_vk_instance_retain(grt_vk_instance_t* instance);
void grt_vk_instance_release(grt_vk_instance_t* instance);

// Resolves the device-level table; a missing required entry point is
// UNAVAILABLE naming it.
grt_status_t grt_vk_device_symbols_load(const grt_vk_instance_t* instance,
                                        VkDevice device,
                                        grt_vk_device_symbols_t* out_symbols)
    GRT_MUST_USE;

// Validation messages reported so far in this process (all instances).
uint64_t grt_vk_validation_message_count(void);

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_VULKAN_LOADER_H_
