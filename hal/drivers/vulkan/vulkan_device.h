// The Vulkan device: one VkDevice with a compute queue, its allocator,
// executable cache, and the queue thread that turns HAL queue operations
// into vkQueueSubmit calls.
//
// Queue model. The HAL lets a failed wait semaphore fail the work behind
// it without running it, which Vulkan cannot express (a GPU wait on a
// timeline semaphore only ever ends by the value being reached). So no
// submission waits on the GPU: every queue operation becomes an action on
// the device's queue thread, which waits on the host (vkWaitSemaphores in
// ANY mode over everything it is waiting for, never polling) until an
// action's waits are reached, fails its signals if a wait failed, and
// otherwise records and submits it; the submission signals the action's
// semaphores on the GPU. Only this thread touches the VkQueue and the
// command pool, so neither needs a lock. In-flight actions keep what they
// use (command buffers, binding-table buffers, semaphores, a dealloca's
// buffer) until the device's internal completion semaphore reaches them.
#ifndef GRT_HAL_DRIVERS_VULKAN_VULKAN_DEVICE_H_
#define GRT_HAL_DRIVERS_VULKAN_VULKAN_DEVICE_H_

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "hal/device.h"
#include "hal/driver.h"
#include "hal/drivers/vulkan/loader.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_hal_vulkan_action_t grt_hal_vulkan_action_t;

// Two reference counts. The HAL one (base) counts users of the device:
// when it drops to zero the queue thread drains (work in flight finishes,
// work still waiting is cancelled) and stops. |core_refs| keeps the
// VkDevice itself: buffers, semaphores, command buffers and executables
// hold it, so they may outlive the HAL device, and queued work (which
// holds them) never holds the HAL device. That way the last user release
// always happens on a user's thread and returns only once the GPU is idle.
typedef struct grt_hal_vulkan_device_t {
  grt_hal_device_t base;
  atomic_uint_least32_t core_refs;
  grt_vk_instance_t* instance;  // retained
  grt_vk_device_symbols_t vk;   // device-level entry points
  VkPhysicalDevice physical_device;
  VkPhysicalDeviceProperties properties;
  VkPhysicalDeviceMemoryProperties memory_properties;
  uint64_t max_timeline_difference;
  VkDevice handle;
  uint32_t compute_family;
  VkQueue compute_queue;
  // A queue family with transfer but neither compute nor graphics, when
  // the device has one (UINT32_MAX otherwise). Its queue is created but
  // unused: HAL command buffers mix transfers and dispatches, so all work
  // goes to the compute queue (docs/vulkan.md).
  uint32_t transfer_family;
  bool push_descriptors;  // VK_KHR_push_descriptor enabled
  // GRT_SPIRV_CAP_* bits (spirv_reflect.h) whose features were enabled.
  uint32_t shader_capabilities;
  grt_hal_allocator_t* allocator;
  grt_hal_executable_cache_t* executable_cache;

  // The queue thread (see the top comment).
  VkCommandPool command_pool;        // queue thread only
  VkSemaphore wake_semaphore;        // host-signalled when actions arrive
  uint64_t wake_value;               // under |mutex|
  VkSemaphore completion_semaphore;  // signalled by every submission
  uint64_t completion_next;          // queue thread only
  pthread_mutex_t mutex;
  grt_hal_vulkan_action_t* incoming_head;  // under |mutex|
  grt_hal_vulkan_action_t* incoming_tail;
  bool shutting_down;  // under |mutex|
  bool thread_started;
  pthread_t thread;
} grt_hal_vulkan_device_t;

// Describes every physical device of |instance| (path "0", "1", ...).
grt_status_t grt_hal_vulkan_enumerate(grt_vk_instance_t* instance,
                                      size_t capacity,
                                      grt_hal_device_info_t* out_infos,
                                      size_t* out_count) GRT_MUST_USE;

// Creates the device at |path| ("" = the first with a compute queue, "N" =
// the Nth physical device).
grt_status_t grt_hal_vulkan_device_create(grt_vk_instance_t* instance,
                                          grt_string_view_t path,
                                          const char* uri,
                                          grt_allocator_t host_allocator,
                                          grt_hal_device_t** out_device)
    GRT_MUST_USE;

bool grt_hal_vulkan_device_isa(const grt_hal_device_t* device);

// What buffers, semaphores, command buffers and executables hold.
void grt_hal_vulkan_device_core_retain(grt_hal_vulkan_device_t* device);
void grt_hal_vulkan_device_core_release(grt_hal_vulkan_device_t* device);

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_VULKAN_VULKAN_DEVICE_H_
