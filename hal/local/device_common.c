#include "hal/local/device_common.h"

#include <stdio.h>

#include "hal/local/command_buffer.h"
#include "hal/local/executable.h"
#include "hal/local/heap_allocator.h"
#include "hal/local/kernel_abi.h"

void grt_hal_local_enumerate_one_device(const char* name, size_t capacity,
                                        grt_hal_device_info_t* out_infos,
                                        size_t* out_count) {
  *out_count = 1;
  if (capacity == 0) return;
  grt_hal_device_info_t* info = &out_infos[0];
  snprintf(info->path, sizeof(info->path), "0");
  snprintf(info->name, sizeof(info->name), "%s", name);
  snprintf(info->type, sizeof(info->type), "cpu");
  snprintf(info->driver_version, sizeof(info->driver_version),
           "kernel ABI %u", GRT_KERNEL_ABI_VERSION);
}

grt_status_t grt_hal_local_check_device_path(const char* driver_name,
                                             grt_string_view_t path) {
  if (path.size == 0 || grt_string_view_equal_cstring(path, "0")) {
    return grt_ok_status();
  }
  return grt_make_status(GRT_STATUS_NOT_FOUND,
                         "%s has no device '%.*s'; its one device is path 0",
                         driver_name, GRT_SV_ARG(path));
}

grt_status_t grt_hal_local_device_initialize(
    const grt_hal_device_vtable_t* vtable, const char* uri,
    grt_allocator_t host_allocator, uint32_t concurrency,
    grt_hal_local_device_t* device) {
  grt_hal_device_initialize(vtable, uri, host_allocator, &device->base);
  device->concurrency = concurrency;
  GRT_RETURN_IF_ERROR(
      grt_hal_local_heap_allocator_create(host_allocator, &device->allocator));
  return grt_hal_local_executable_cache_create(host_allocator,
                                               &device->executable_cache);
}

void grt_hal_local_device_deinitialize(grt_hal_local_device_t* device) {
  grt_hal_executable_cache_release(device->executable_cache);
  grt_hal_allocator_release(device->allocator);
}

grt_hal_allocator_t* grt_hal_local_device_allocator(grt_hal_device_t* device) {
  return ((grt_hal_local_device_t*)device)->allocator;
}

grt_hal_executable_cache_t* grt_hal_local_device_executable_cache(
    grt_hal_device_t* device) {
  return ((grt_hal_local_device_t*)device)->executable_cache;
}

grt_status_t grt_hal_local_device_query_i64(grt_hal_device_t* device,
                                            grt_string_view_t category,
                                            grt_string_view_t key,
                                            int64_t* out_value) {
  return grt_hal_device_answer_concurrency(
      category, key, ((grt_hal_local_device_t*)device)->concurrency,
      out_value);
}

grt_status_t grt_hal_local_device_create_command_buffer(
    grt_hal_device_t* device, grt_hal_command_buffer_mode_t mode,
    uint32_t binding_capacity, grt_hal_command_buffer_t** out) {
  return grt_hal_local_command_buffer_create(mode, binding_capacity,
                                             device->host_allocator, out);
}

grt_status_t grt_hal_local_device_create_semaphore(grt_hal_device_t* device,
                                                   uint64_t initial_value,
                                                   grt_hal_semaphore_t** out) {
  return grt_hal_host_semaphore_create(initial_value, device->host_allocator,
                                       out);
}
