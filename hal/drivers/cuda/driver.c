// The "cuda" factory (driver.h): loads the driver API once per process and
// enumerates CUDA devices.
#include "hal/drivers/cuda/driver.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "hal/drivers/cuda/cuda_device.h"
#include "hal/drivers/cuda/dynamic_symbols.h"

#define GRT_HAL_CUDA_NAME "cuda"

// The driver library is loaded and cuInit called once; the outcome (the
// symbols, or the failure's status) is kept for the process, as cuInit's
// own result is.
static struct {
  pthread_mutex_t mutex;
  bool attempted;
  grt_status_t failure;  // owned; NULL when loading succeeded
  grt_hal_cuda_symbols_t symbols;
} grt_hal_cuda_driver_state = {PTHREAD_MUTEX_INITIALIZER, false, NULL, {0}};

static grt_status_t grt_hal_cuda_driver_symbols(
    const grt_hal_cuda_symbols_t** out_symbols) {
  *out_symbols = NULL;
  pthread_mutex_lock(&grt_hal_cuda_driver_state.mutex);
  if (!grt_hal_cuda_driver_state.attempted) {
    grt_hal_cuda_driver_state.attempted = true;
    const char* path = grt_hal_cuda_library_path();
    grt_status_t status =
        grt_hal_cuda_symbols_load(path, &grt_hal_cuda_driver_state.symbols);
    if (grt_status_is_ok(status)) {
      status = grt_hal_cuda_symbols_initialize(
          &grt_hal_cuda_driver_state.symbols);
      if (!grt_status_is_ok(status)) {
        grt_hal_cuda_symbols_unload(&grt_hal_cuda_driver_state.symbols);
      }
    }
    grt_hal_cuda_driver_state.failure = status;
  }
  grt_status_t result = grt_ok_status();
  if (grt_hal_cuda_driver_state.failure) {
    result = grt_status_clone(grt_hal_cuda_driver_state.failure);
  } else {
    *out_symbols = &grt_hal_cuda_driver_state.symbols;
  }
  pthread_mutex_unlock(&grt_hal_cuda_driver_state.mutex);
  return result;
}

static grt_status_t grt_hal_cuda_describe_device(
    const grt_hal_cuda_symbols_t* symbols, int ordinal,
    grt_hal_device_info_t* info) {
  memset(info, 0, sizeof(*info));
  CUdevice device = 0;
  GRT_CUDA_RETURN_IF_ERROR(symbols, cuDeviceGet, (&device, ordinal));
  snprintf(info->path, sizeof(info->path), "%d", ordinal);
  GRT_CUDA_RETURN_IF_ERROR(symbols, cuDeviceGetName,
                           (info->name, (int)sizeof(info->name), device));
  int integrated = 0, major = 0, minor = 0;
  GRT_CUDA_RETURN_IF_ERROR(
      symbols, cuDeviceGetAttribute,
      (&integrated, CU_DEVICE_ATTRIBUTE_INTEGRATED, device));
  GRT_CUDA_RETURN_IF_ERROR(
      symbols, cuDeviceGetAttribute,
      (&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
  GRT_CUDA_RETURN_IF_ERROR(
      symbols, cuDeviceGetAttribute,
      (&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device));
  snprintf(info->type, sizeof(info->type), "%s",
           integrated ? "integrated-gpu" : "discrete-gpu");
  snprintf(info->driver_version, sizeof(info->driver_version),
           "CUDA %d.%d, sm_%d%d", symbols->driver_version / 1000,
           (symbols->driver_version % 1000) / 10, major, minor);
  return grt_ok_status();
}

static grt_status_t grt_hal_cuda_enumerate_devices(
    void* self, grt_allocator_t host_allocator, size_t capacity,
    grt_hal_device_info_t* out_infos, size_t* out_count) {
  (void)self;
  (void)host_allocator;
  *out_count = 0;
  const grt_hal_cuda_symbols_t* symbols = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_cuda_driver_symbols(&symbols));
  int count = 0;
  GRT_CUDA_RETURN_IF_ERROR(symbols, cuDeviceGetCount, (&count));
  for (int i = 0; i < count && (size_t)i < capacity; ++i) {
    GRT_RETURN_IF_ERROR(
        grt_hal_cuda_describe_device(symbols, i, &out_infos[i]));
  }
  *out_count = (size_t)count;
  return grt_ok_status();
}

static grt_status_t grt_hal_cuda_create_device(
    void* self, grt_string_view_t path, const char* uri,
    const grt_hal_device_options_t* options, grt_allocator_t host_allocator,
    grt_hal_device_t** out_device) {
  (void)self;
  (void)options;
  *out_device = NULL;
  const grt_hal_cuda_symbols_t* symbols = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_cuda_driver_symbols(&symbols));
  // The registry matched |path| against the enumerated paths ("0", "1",
  // ...) or left it empty for the default device.
  int ordinal = 0;
  for (size_t i = 0; i < path.size; ++i) {
    if (path.data[i] < '0' || path.data[i] > '9' || ordinal > 100000) {
      return grt_make_status(GRT_STATUS_NOT_FOUND,
                             "cuda has no device '%.*s'; devices are CUDA "
                             "ordinals (cuda://0, cuda://1, ...)",
                             (int)path.size, path.data);
    }
    ordinal = ordinal * 10 + (path.data[i] - '0');
  }
  return grt_hal_cuda_device_create(symbols, ordinal, uri, host_allocator,
                                    out_device);
}

static const grt_hal_driver_factory_t grt_hal_cuda_factory = {
    GRT_HAL_CUDA_NAME, grt_hal_cuda_enumerate_devices,
    grt_hal_cuda_create_device, NULL};

grt_status_t grt_hal_cuda_driver_register(grt_hal_driver_registry_t* registry) {
  return grt_hal_driver_registry_register(registry, &grt_hal_cuda_factory);
}
