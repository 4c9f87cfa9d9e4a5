// Executables of format "vulkan-spirv" (schemas/spirv_container.h): one
// SPIR-V module per entry point, each with entry point "main", turned into
// one compute pipeline per entry. Entry i's pipeline layout has one
// descriptor set whose binding j is storage buffer j (j < the entry's
// binding count; a push-descriptor layout when the device has
// VK_KHR_push_descriptor) and a push-constant range of 4 bytes per
// constant. The workgroup size is what the shader declares; the entry
// table records it. Pipelines come from the cache's VkPipelineCache.
//
// A shader with a variable in descriptor set 1 (GRT_HAL_VULKAN_STATUS_SET:
// grt-compile's bounds-checked kernels, compiler/target/vulkan/emit_glsl.c)
// reports its first access outside a binding there: set 1, binding 0 is a
// storage buffer holding one uint32, 0 when every access was inside, else
// 1 + the binding. Its pipeline layout has that second set (an ordinary
// one, never a push-descriptor set), and the command buffer gives each such
// dispatch its own zeroed word and reads it after the submission
// (command_buffer.h).
#ifndef GRT_HAL_DRIVERS_VULKAN_EXECUTABLE_H_
#define GRT_HAL_DRIVERS_VULKAN_EXECUTABLE_H_

#include "base/status.h"
#include "hal/executable.h"
#include "hal/drivers/vulkan/vulkan_device.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRT_HAL_VULKAN_EXECUTABLE_FORMAT "vulkan-spirv"

#define GRT_HAL_VULKAN_STATUS_SET 1

typedef struct grt_hal_vulkan_pipeline_t {
  VkDescriptorSetLayout set_layout;
  // The status word's set layout (VK_NULL_HANDLE: the shader has none).
  VkDescriptorSetLayout status_layout;
  VkPipelineLayout layout;
  VkPipeline pipeline;
} grt_hal_vulkan_pipeline_t;

typedef struct grt_hal_vulkan_executable_t {
  grt_hal_executable_t base;
  grt_hal_vulkan_device_t* device;  // retained
  grt_hal_vulkan_pipeline_t* pipelines;  // one per entry point
} grt_hal_vulkan_executable_t;

grt_status_t grt_hal_vulkan_executable_cache_create(
    grt_hal_vulkan_device_t* device, grt_hal_executable_cache_t** out)
    GRT_MUST_USE;

// NULL when |executable| is not a Vulkan executable of |device|.
grt_hal_vulkan_executable_t* grt_hal_vulkan_executable_cast(
    grt_hal_vulkan_device_t* device, grt_hal_executable_t* executable);

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_VULKAN_EXECUTABLE_H_
