// The worker pool behind local-task: a fixed set of threads that run the
// tasks of one batch in parallel and sleep between batches.
//
// A batch is "call fn(user_data, index, worker_id) for every index in
// [0, count)". Workers claim indices from a shared atomic counter, so a
// batch of uneven tasks balances itself: one index at a time, or for a
// batch of many thousands, runs of about count / (64 * workers) indices.
// Callers choose the granularity (local-task makes one task per chunk of
// workgroups, over every command of a barrier-free region). Idle workers block on a condition variable:
// nothing spins, neither the workers nor the thread waiting for a batch.
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

// Starts |worker_count| threads (0 = one per online core). Errors:
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

// Runs the batch and returns once every task has finished and no worker
// touches the batch any more. Tasks report failure through |user_data|.
void grt_hal_local_task_pool_run(grt_hal_local_task_pool_t* pool,
                                 uint64_t count, grt_hal_local_task_fn_t fn,
                                 void* user_data);

// Blocks until every worker is asleep waiting for work with no wakeup
// pending (every worker has seen the latest batch), and returns how
// many times workers have parked so far (once per worker after each batch
// it ran or skipped; spurious wakeups are not counted). For tests that
// check the pool parks its threads instead of spinning.
uint64_t grt_hal_local_task_pool_wait_idle(grt_hal_local_task_pool_t* pool);

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_LOCAL_TASK_POOL_H_
