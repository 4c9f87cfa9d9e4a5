#include "hal/drivers/vulkan/semaphore.h"

#include <inttypes.h>

static const grt_hal_semaphore_vtable_t grt_hal_vulkan_semaphore_vtable;

grt_status_t grt_hal_vulkan_semaphore_create(grt_hal_vulkan_device_t* device,
                                             uint64_t initial_value,
                                             grt_hal_semaphore_t** out) {
  *out = NULL;
  grt_allocator_t host_allocator = device->base.host_allocator;
  grt_hal_vulkan_semaphore_t* semaphore = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      host_allocator, sizeof(*semaphore), (void**)&semaphore));
  VkSemaphoreTypeCreateInfo type = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  type.initialValue = initial_value;
  VkSemaphoreCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  info.pNext = &type;
  grt_status_t status = grt_vk_result_status(
      device->vk.vkCreateSemaphore(device->handle, &info, NULL,
                                   &semaphore->handle),
      "vkCreateSemaphore");
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(host_allocator, semaphore);
    return status;
  }
  grt_hal_resource_initialize(&grt_hal_vulkan_semaphore_vtable,
                              &semaphore->base.resource);
  semaphore->device = device;
  grt_hal_vulkan_device_core_retain(device);
  pthread_mutex_init(&semaphore->mutex, NULL);
  atomic_init(&semaphore->failed, false);
  atomic_init(&semaphore->pending_gpu_value, 0);
  semaphore->failure = grt_ok_status();
  *out = &semaphore->base;
  return grt_ok_status();
}

static void grt_hal_vulkan_semaphore_destroy(grt_hal_resource_t* resource) {
  grt_hal_vulkan_semaphore_t* semaphore =
      (grt_hal_vulkan_semaphore_t*)resource;
  grt_hal_vulkan_device_t* device = semaphore->device;
  device->vk.vkDestroySemaphore(device->handle, semaphore->handle, NULL);
  grt_status_free(semaphore->failure);
  pthread_mutex_destroy(&semaphore->mutex);
  grt_allocator_free(device->base.host_allocator, semaphore);
  grt_hal_vulkan_device_core_release(device);
}

grt_hal_vulkan_semaphore_t* grt_hal_vulkan_semaphore_cast(
    grt_hal_vulkan_device_t* device, grt_hal_semaphore_t* semaphore) {
  if (!semaphore ||
      semaphore->resource.vtable != &grt_hal_vulkan_semaphore_vtable) {
    return NULL;
  }
  grt_hal_vulkan_semaphore_t* vulkan = (grt_hal_vulkan_semaphore_t*)semaphore;
  return vulkan->device == device ? vulkan : NULL;
}

grt_status_t grt_hal_vulkan_semaphore_failure(
    grt_hal_vulkan_semaphore_t* semaphore) {
  if (!atomic_load(&semaphore->failed)) return grt_ok_status();
  pthread_mutex_lock(&semaphore->mutex);
  grt_status_t copy = grt_status_clone(semaphore->failure);
  pthread_mutex_unlock(&semaphore->mutex);
  return copy;
}

static grt_status_t grt_hal_vulkan_semaphore_value(
    grt_hal_vulkan_semaphore_t* semaphore, uint64_t* out_value) {
  grt_hal_vulkan_device_t* device = semaphore->device;
  return grt_vk_result_status(
      device->vk.vkGetSemaphoreCounterValue(device->handle, semaphore->handle,
                                            out_value),
      "vkGetSemaphoreCounterValue");
}

static grt_status_t grt_hal_vulkan_semaphore_query(grt_hal_semaphore_t* base,
                                                   uint64_t* out_value) {
  grt_hal_vulkan_semaphore_t* semaphore = (grt_hal_vulkan_semaphore_t*)base;
  GRT_RETURN_IF_ERROR(grt_hal_vulkan_semaphore_failure(semaphore));
  return grt_hal_vulkan_semaphore_value(semaphore, out_value);
}

static grt_status_t grt_hal_vulkan_semaphore_signal(grt_hal_semaphore_t* base,
                                                    uint64_t value) {
  grt_hal_vulkan_semaphore_t* semaphore = (grt_hal_vulkan_semaphore_t*)base;
  GRT_RETURN_IF_ERROR(grt_hal_vulkan_semaphore_failure(semaphore));
  uint64_t current = 0;
  GRT_RETURN_IF_ERROR(grt_hal_vulkan_semaphore_value(semaphore, &current));
  if (value <= current) {
    return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                           "semaphore value must increase: current %" PRIu64
                           ", signalled %" PRIu64,
                           current, value);
  }
  grt_hal_vulkan_device_t* device = semaphore->device;
  VkSemaphoreSignalInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
  info.semaphore = semaphore->handle;
  info.value = value;
  return grt_vk_result_status(device->vk.vkSignalSemaphore(device->handle,
                                                           &info),
                              "vkSignalSemaphore");
}

static void grt_hal_vulkan_semaphore_fail(grt_hal_semaphore_t* base,
                                          grt_status_t status) {
  grt_hal_vulkan_semaphore_t* semaphore = (grt_hal_vulkan_semaphore_t*)base;
  pthread_mutex_lock(&semaphore->mutex);
  if (atomic_load(&semaphore->failed)) {
    pthread_mutex_unlock(&semaphore->mutex);
    grt_status_free(status);
    return;
  }
  semaphore->failure = status;
  atomic_store(&semaphore->failed, true);
  pthread_mutex_unlock(&semaphore->mutex);
  // Wake every waiter: jump the value as far as Vulkan allows. Waits are
  // for values within max_timeline_difference of the current one, so this
  // reaches all of them.
  grt_hal_vulkan_device_t* device = semaphore->device;
  uint64_t current = 0;
  if (!grt_status_consume_ok(
          grt_hal_vulkan_semaphore_value(semaphore, &current))) {
    return;
  }
  if (atomic_load(&semaphore->pending_gpu_value) > current) return;
  uint64_t jump = device->max_timeline_difference;
  uint64_t target = UINT64_MAX - current < jump ? UINT64_MAX : current + jump;
  if (target <= current) return;
  VkSemaphoreSignalInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
  info.semaphore = semaphore->handle;
  info.value = target;
  (void)device->vk.vkSignalSemaphore(device->handle, &info);
}

static grt_status_t grt_hal_vulkan_semaphore_wait(grt_hal_semaphore_t* base,
                                                  uint64_t value,
                                                  grt_time_t deadline_ns) {
  grt_hal_vulkan_semaphore_t* semaphore = (grt_hal_vulkan_semaphore_t*)base;
  GRT_RETURN_IF_ERROR(grt_hal_vulkan_semaphore_failure(semaphore));
  grt_hal_vulkan_device_t* device = semaphore->device;
  grt_duration_t timeout = grt_timeout_from_deadline_ns(deadline_ns);
  VkSemaphoreWaitInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  info.semaphoreCount = 1;
  info.pSemaphores = &semaphore->handle;
  info.pValues = &value;
  VkResult result = device->vk.vkWaitSemaphores(
      device->handle, &info,
      timeout == GRT_DURATION_INFINITE ? UINT64_MAX : (uint64_t)timeout);
  // A failure wakes waiters by jumping the value: check it first.
  GRT_RETURN_IF_ERROR(grt_hal_vulkan_semaphore_failure(semaphore));
  if (result == VK_TIMEOUT) {
    return grt_make_status(GRT_STATUS_DEADLINE_EXCEEDED,
                           "semaphore did not reach %" PRIu64, value);
  }
  return grt_vk_result_status(result, "vkWaitSemaphores");
}

static const grt_hal_semaphore_vtable_t grt_hal_vulkan_semaphore_vtable = {
    {grt_hal_vulkan_semaphore_destroy},
    grt_hal_vulkan_semaphore_query,
    grt_hal_vulkan_semaphore_signal,
    grt_hal_vulkan_semaphore_fail,
    grt_hal_vulkan_semaphore_wait,
};
