// The Vulkan factory. Each call opens the loader and an instance of its
// own (devices keep theirs), so a registry costs nothing until a Vulkan
// device is asked for, and a machine without Vulkan only sees the error.
#include "hal/drivers/vulkan/driver.h"

#include "hal/drivers/vulkan/loader.h"
#include "hal/drivers/vulkan/vulkan_device.h"

static grt_status_t grt_hal_vulkan_enumerate_devices(
    void* self, grt_allocator_t host_allocator, size_t capacity,
    grt_hal_device_info_t* out_infos, size_t* out_count) {
  (void)self;
  *out_count = 0;
  grt_vk_instance_t* instance = NULL;
  GRT_RETURN_IF_ERROR(grt_vk_instance_create(NULL, host_allocator, &instance));
  grt_status_t status =
      grt_hal_vulkan_enumerate(instance, capacity, out_infos, out_count);
  grt_vk_instance_release(instance);
  return status;
}

static grt_status_t grt_hal_vulkan_create_device(
    void* self, grt_string_view_t path, const char* uri,
    const grt_hal_device_options_t* options, grt_allocator_t host_allocator,
    grt_hal_device_t** out_device) {
  (void)self;
  (void)options;
  *out_device = NULL;
  grt_vk_instance_t* instance = NULL;
  GRT_RETURN_IF_ERROR(grt_vk_instance_create(NULL, host_allocator, &instance));
  grt_status_t status = grt_hal_vulkan_device_create(
      instance, path, uri, host_allocator, out_device);
  grt_vk_instance_release(instance);
  return status;
}

static const grt_hal_driver_factory_t grt_hal_vulkan_factory = {
    "vulkan",
    grt_hal_vulkan_enumerate_devices,
    grt_hal_vulkan_create_device,
    NULL,
};

grt_status_t grt_hal_vulkan_driver_register(
    grt_hal_driver_registry_t* registry) {
  return grt_hal_driver_registry_register(registry, &grt_hal_vulkan_factory);
}
