// The local-task factory: one device, the CPU, driven by a worker pool.
#include "hal/drivers/local_task/driver.h"

#include "hal/drivers/local_task/task_device.h"
#include "hal/local/device_common.h"

#define GRT_HAL_LOCAL_TASK_NAME "local-task"

static grt_status_t grt_hal_local_task_enumerate_devices(
    void* self, grt_allocator_t host_allocator, size_t capacity,
    grt_hal_device_info_t* out_infos, size_t* out_count) {
  grt_hal_local_enumerate_one_device("CPU (worker pool)", capacity, out_infos,
                                     out_count);
  return grt_ok_status();
}

static grt_status_t grt_hal_local_task_create_device(
    void* self, grt_string_view_t path, const char* uri,
    const grt_hal_device_options_t* options, grt_allocator_t host_allocator,
    grt_hal_device_t** out_device) {
  *out_device = NULL;
  GRT_RETURN_IF_ERROR(
      grt_hal_local_check_device_path(GRT_HAL_LOCAL_TASK_NAME, path));
  return grt_hal_task_device_create(uri, options ? options->worker_count : 0,
                                    host_allocator, out_device);
}

static const grt_hal_driver_factory_t grt_hal_local_task_factory = {
    GRT_HAL_LOCAL_TASK_NAME,
    grt_hal_local_task_enumerate_devices,
    grt_hal_local_task_create_device,
    NULL,
};

grt_status_t grt_hal_local_task_driver_register(
    grt_hal_driver_registry_t* registry) {
  return grt_hal_driver_registry_register(registry,
                                          &grt_hal_local_task_factory);
}
