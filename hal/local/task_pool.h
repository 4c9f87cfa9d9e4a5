// The worker pool behind local-task: the thread that calls run and a fixed
// set of threads run the tasks of one batch in parallel.
//
// A batch is "call fn(user_data, index, worker_id) for every index in
// [0, count)". Workers claim indices from a shared atomic counter, so a
// batch of uneven tasks balances itself: one index at a time, or for a
// batch of many thousands, runs of about count / (64 * workers) indices.
// Callers choose the granularity (local-task makes one task per chunk of
// workgroups, over every command of a barrier-free region).
//
// A pool of N workers starts N - 1 threads: the caller of run is worker 0
// and claims tasks like the others, so N workers keep N cores busy and a
// batch costs no wakeup of the caller. A thread that leaves a batch watches
// for the next one for 100 microseconds (a model's batches follow each
// other closely), then parks on a condition variable: an idle pool sleeps.
//
// Batches run one at a time; concurrent callers of run are serialized.
#ifndef GRT_HAL_LOCAL_TASK_POOL_H_
#define GRT_HAL_LOCAL_TASK_POOL_H_

#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_hal_local_task_pool_t grt_hal_local_task_pool_t;

// One task. |worker_id| is below the pool's worker count and is never
// shared by two tasks running at the same time, so it can index per-worker
// state (scratch memory).
typedef void (*grt_hal_local_task_fn_t)(void* user_data, uint64_t index,
                                        uint32_t worker_id);

// A pool of |worker_count| workers (0 = one per online core): starts
// worker_count - 1 threads. Errors:
// INVALID_ARGUMENT "task pool of 5000 workers exceeds the limit of 1024",
// or RESOURCE_EXHAUSTED naming the thread that could not be started.
grt_status_t grt_hal_local_task_pool_create(uint32_t worker_count,
                                            grt_allocator_t host_allocator,
                                            grt_hal_local_task_pool_t** out_pool)
    GRT_MUST_USE;

// Waits for the batch in flight (if any), then stops and joins the workers.
void grt_hal_local_task_pool_destroy(grt_hal_local_task_pool_t* pool);

uint32_t grt_hal_local_task_pool_worker_count(
    const grt_hal_local_task_pool_t* pool);

// The number of online cores, at least 1.
uint32_t grt_hal_local_task_pool_default_worker_count(void);

// Runs the batch, taking part in it as worker 0, and returns once every
// task has finished and no worker touches the batch any more. Tasks report
// failure through |user_data|.
void grt_hal_local_task_pool_run(grt_hal_local_task_pool_t* pool,
                                 uint64_t count, grt_hal_local_task_fn_t fn,
                                 void* user_data);

// Blocks until every thread of the pool is asleep waiting for work with no
// wakeup pending (every thread has seen the latest batch), and returns how
// many times threads have parked so far (at most once per thread after each
// batch it ran or skipped: a thread that finds the next batch while it
// still watches does not park; spurious wakeups are not counted). For
// tests that check the pool parks its threads instead of spinning.
uint64_t grt_hal_local_task_pool_wait_idle(grt_hal_local_task_pool_t* pool);

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_LOCAL_TASK_POOL_H_
