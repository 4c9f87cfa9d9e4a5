// What the local-sync and local-task drivers share outside command
// execution: their one-device factories and the well-known device queries
// (hal/device.h), written once so the two drivers cannot drift apart.
#ifndef GRT_HAL_LOCAL_DEVICE_COMMON_H_
#define GRT_HAL_LOCAL_DEVICE_COMMON_H_

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "base/string_view.h"
#include "hal/device.h"
#include "hal/driver.h"
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

// True when |text| matches |pattern|, where '*' matches any run of
// characters (also none) and every other character matches itself.
bool grt_hal_local_glob_match(grt_string_view_t pattern,
                              grt_string_view_t text);

// ("hal.executable.format", f) -> whether |cache| prepares f;
// ("hal.device", "concurrency") -> |concurrency|;
// ("hal.device.id", pattern) -> whether the device's URI matches the glob;
// anything else NOT_FOUND (the device wrapper names the device and key).
grt_status_t grt_hal_local_device_query_i64(
    grt_hal_device_t* device, grt_hal_executable_cache_t* cache,
    uint32_t concurrency, grt_string_view_t category, grt_string_view_t key,
    int64_t* out_value) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_LOCAL_DEVICE_COMMON_H_
