// What the local-sync and local-task drivers share outside command
// execution: the device base both embed (heap allocator, executable cache
// and the vtable entries that only need those), their one-device
// factories and the well-known device queries (hal/device.h), written once
// so the two drivers cannot drift apart.
#ifndef GRT_HAL_LOCAL_DEVICE_COMMON_H_
#define GRT_HAL_LOCAL_DEVICE_COMMON_H_

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "base/string_view.h"
#include "hal/device.h"
#include "hal/driver.h"
#include "hal/semaphore.h"
#include "hal/executable.h"

#ifdef __cplusplus
extern "C" {
#endif

// Each local driver has one device, the host CPU, at path "0".
// Fills |out_infos[0]| (when |capacity| allows) with |name|.
void grt_hal_local_enumerate_one_device(const char* name, size_t capacity,
                                        grt_hal_device_info_t* out_infos,
                                        size_t* out_count);
// Accepts the empty path (default device) and "0"; otherwise NOT_FOUND
// "local-task has no device 'gpu'; its one device is path 0".
grt_status_t grt_hal_local_check_device_path(const char* driver_name,
                                             grt_string_view_t path)
    GRT_MUST_USE;

// The part of a local device both drivers share; each embeds it first.
typedef struct grt_hal_local_device_t {
  grt_hal_device_t base;
  grt_hal_allocator_t* allocator;  // the heap allocator
  grt_hal_executable_cache_t* executable_cache;
  uint32_t concurrency;  // answer to ("hal.device", "concurrency")
} grt_hal_local_device_t;

// Fills the header and creates the allocator and executable cache. On
// failure the parts made so far stay for grt_hal_local_device_deinitialize,
// which the driver's destroy calls, so releasing the device cleans up.
grt_status_t grt_hal_local_device_initialize(
    const grt_hal_device_vtable_t* vtable, const char* uri,
    grt_allocator_t host_allocator, uint32_t concurrency,
    grt_hal_local_device_t* device) GRT_MUST_USE;
void grt_hal_local_device_deinitialize(grt_hal_local_device_t* device);

// Vtable entries shared by both drivers (|device| is a local device).
grt_hal_allocator_t* grt_hal_local_device_allocator(grt_hal_device_t* device);
grt_hal_executable_cache_t* grt_hal_local_device_executable_cache(
    grt_hal_device_t* device);
// ("hal.device", "concurrency") -> the device's concurrency (the queries
// every device shares are answered by grt_hal_device_query_i64 itself);
// anything else NOT_FOUND (the device wrapper names the device and key).
grt_status_t grt_hal_local_device_query_i64(grt_hal_device_t* device,
                                            grt_string_view_t category,
                                            grt_string_view_t key,
                                            int64_t* out_value) GRT_MUST_USE;
grt_status_t grt_hal_local_device_create_command_buffer(
    grt_hal_device_t* device, grt_hal_command_buffer_mode_t mode,
    uint32_t binding_capacity, grt_hal_command_buffer_t** out) GRT_MUST_USE;
grt_status_t grt_hal_local_device_create_semaphore(grt_hal_device_t* device,
                                                   uint64_t initial_value,
                                                   grt_hal_semaphore_t** out)
    GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_LOCAL_DEVICE_COMMON_H_
