// The local-task driver: one CPU device backed by a worker pool
// (hal/local/task_pool.h), with a queue that runs asynchronously.
//
// queue_execute validates the submission and returns at once; a queue
// thread takes submissions in FIFO order, sleeps until each one's wait
// semaphores are reached, runs it on the workers, then signals (or, on an
// error, fails) its signal semaphores. Within a command buffer every
// command of a barrier-free region runs concurrently, each dispatch split
// into chunks of workgroups; the first error stops the submission's
// remaining chunks and is the one reported.
//
// Because submissions run in order, one that waits for a value only a
// later submission to the same device signals never runs: signal such
// values from the host or another device. Destroying the device waits for
// every queued submission, so their waits must be reached (or failed).
//
// grt_hal_device_options_t.worker_count picks the pool size (0: one per
// online core); ("hal.device", "concurrency") reports it.
#ifndef GRT_HAL_DRIVERS_LOCAL_TASK_DRIVER_H_
#define GRT_HAL_DRIVERS_LOCAL_TASK_DRIVER_H_

#include "base/status.h"
#include "hal/driver.h"

#ifdef __cplusplus
extern "C" {
#endif

// Registers the "local-task" factory with |registry|.
grt_status_t grt_hal_local_task_driver_register(
    grt_hal_driver_registry_t* registry) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_LOCAL_TASK_DRIVER_H_
