// The local-sync driver: one CPU device whose queue runs everything inline
// on the thread that submits it.
//
// Execution errors (a kernel returning nonzero, a wait semaphore that
// failed) do not come back from queue_execute: as on an asynchronous
// device, the call returns OK and the error fails the signal semaphores,
// where whoever waits for the result finds it. Only invalid submissions
// (a command buffer not ready, a binding table too small) return an error
// from the call itself.
#ifndef GRT_HAL_DRIVERS_LOCAL_SYNC_DRIVER_H_
#define GRT_HAL_DRIVERS_LOCAL_SYNC_DRIVER_H_

#include "base/status.h"
#include "hal/driver.h"

#ifdef __cplusplus
extern "C" {
#endif

// Registers the "local-sync" factory with |registry|.
grt_status_t grt_hal_local_sync_driver_register(
    grt_hal_driver_registry_t* registry) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_LOCAL_SYNC_DRIVER_H_
