// The "cuda" factory of a build without cuda.h: it keeps the name known so
// that --device=cuda and --list_devices say why there is no CUDA rather
// than "unknown device".
#include "hal/drivers/cuda/driver.h"

#define GRT_HAL_CUDA_ABSENT_REASON \
  "the cuda driver is not built in (cuda.h was not found at build time)"

static grt_status_t grt_hal_cuda_absent_enumerate_devices(
    void* self, grt_allocator_t host_allocator, size_t capacity,
    grt_hal_device_info_t* out_infos, size_t* out_count) {
  (void)self;
  (void)host_allocator;
  (void)capacity;
  (void)out_infos;
  *out_count = 0;
  return grt_make_status(GRT_STATUS_UNAVAILABLE, GRT_HAL_CUDA_ABSENT_REASON);
}

static grt_status_t grt_hal_cuda_absent_create_device(
    void* self, grt_string_view_t path, const char* uri,
    const grt_hal_device_options_t* options, grt_allocator_t host_allocator,
    grt_hal_device_t** out_device) {
  (void)self;
  (void)path;
  (void)uri;
  (void)options;
  (void)host_allocator;
  *out_device = NULL;
  return grt_make_status(GRT_STATUS_UNAVAILABLE, GRT_HAL_CUDA_ABSENT_REASON);
}

static const grt_hal_driver_factory_t grt_hal_cuda_absent_factory = {
    "cuda", grt_hal_cuda_absent_enumerate_devices,
    grt_hal_cuda_absent_create_device, NULL};

grt_status_t grt_hal_cuda_driver_register(grt_hal_driver_registry_t* registry) {
  return grt_hal_driver_registry_register(registry,
                                          &grt_hal_cuda_absent_factory);
}
