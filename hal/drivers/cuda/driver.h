// The "cuda" HAL driver: NVIDIA GPUs through the CUDA driver API, loaded at
// run time (dynamic_symbols.h) so grt builds and runs without CUDA.
//
// Devices are "cuda://<ordinal>" (the CUDA device ordinal), "cuda" is
// ordinal 0. Enumeration loads libcuda.so.1 ($GRT_CUDA_LIBRARY overrides
// the path) and calls cuInit once per process; when that fails, every
// enumeration and creation reports the same UNAVAILABLE reason ("no CUDA
// driver (libcuda is the toolkit's stub library; ...)", "no CUDA device
// ..."). A build without cuda.h registers the same name with the reason
// "the cuda driver is not built in (cuda.h was not found at build time)".
// docs/cuda.md describes memory, streams, graphs and semaphores.
#ifndef GRT_HAL_DRIVERS_CUDA_DRIVER_H_
#define GRT_HAL_DRIVERS_CUDA_DRIVER_H_

#include "base/status.h"
#include "hal/driver.h"

#ifdef __cplusplus
extern "C" {
#endif

grt_status_t grt_hal_cuda_driver_register(grt_hal_driver_registry_t* registry)
    GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_CUDA_DRIVER_H_
