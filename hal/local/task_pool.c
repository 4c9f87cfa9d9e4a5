#include "hal/local/task_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/time.h"
#include "base/trace.h"

// Far beyond any core count; catches a garbage worker_count before it
// becomes thousands of threads.
#define GRT_HAL_LOCAL_TASK_POOL_MAX_WORKERS 1024u

// A large batch is claimed in pieces of about count / (workers * this), so
// each worker still claims many times and uneven tasks balance.
#define GRT_HAL_LOCAL_TASK_POOL_CLAIMS_PER_WORKER 64u

// How long a pool thread that has left a batch watches for the next one
// before it parks on the condition variable. A model's regions follow each
// other a few microseconds apart (the caller prepares the next one), so a
// thread that is still watching joins at once instead of waiting for a
// futex wakeup; an idle pool is asleep after this long.
#define GRT_HAL_LOCAL_TASK_POOL_SPIN_NS 100000

static inline void grt_hal_local_task_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

// One batch; lives on the stack of the thread in grt_hal_local_task_pool_run,
// which does not return while a worker can still reach it.
typedef struct grt_hal_local_task_batch_t {
  grt_hal_local_task_fn_t fn;
  void* user_data;
  uint64_t count;
  // Indices a worker claims at a time: 1 for small batches, more for large
  // ones so the shared counter is not touched per tiny task.
  uint64_t claim_size;
  atomic_uint_least64_t next_index;
} grt_hal_local_task_batch_t;

typedef struct grt_hal_local_task_worker_t {
  grt_hal_local_task_pool_t* pool;
  uint32_t worker_id;  // 1.. (worker 0 is the thread that calls run)
  pthread_t thread;
  // The last batch generation this worker joined or found already over
  // (guarded by the pool's mutex).
  uint64_t seen_generation;
} grt_hal_local_task_worker_t;

struct grt_hal_local_task_pool_t {
  grt_allocator_t host_allocator;
  uint32_t worker_count;  // the caller of run and the threads
  grt_hal_local_task_worker_t* workers;  // worker_count - 1 threads

  // Serializes callers of run, so one batch is published at a time.
  pthread_mutex_t run_mutex;

  // Guards everything below. generation and shutting_down change only
  // under it but are atomic so that a spinning thread can watch them;
  // active_workers grows only under it (a thread joins under the mutex)
  // and shrinks atomically when a thread leaves its batch.
  pthread_mutex_t mutex;
  pthread_cond_t work_available;  // threads wait here
  pthread_cond_t batch_changed;   // run and wait_idle wait here
  grt_hal_local_task_batch_t* batch;  // NULL between batches
  _Atomic uint64_t generation;        // bumped per batch
  _Atomic uint32_t active_workers;    // threads inside the current batch
  uint32_t sleeping_workers;
  uint64_t sleep_count;
  atomic_bool shutting_down;
};

// The pool's threads: every worker but the caller of run (worker 0).
static inline uint32_t grt_hal_local_task_pool_threads(
    const grt_hal_local_task_pool_t* pool) {
  return pool->worker_count - 1;
}

uint32_t grt_hal_local_task_pool_default_worker_count(void) {
  long count = sysconf(_SC_NPROCESSORS_ONLN);
  if (count < 1) return 1;
  if ((unsigned long)count > GRT_HAL_LOCAL_TASK_POOL_MAX_WORKERS) {
    return GRT_HAL_LOCAL_TASK_POOL_MAX_WORKERS;
  }
  return (uint32_t)count;
}

static void grt_hal_local_task_batch_drain(grt_hal_local_task_batch_t* batch,
                                           uint32_t worker_id) {
  for (;;) {
    uint64_t index = atomic_fetch_add_explicit(
        &batch->next_index, batch->claim_size, memory_order_relaxed);
    if (index >= batch->count) return;
    uint64_t end = batch->count - index < batch->claim_size
                       ? batch->count
                       : index + batch->claim_size;
    for (; index < end; ++index) {
      batch->fn(batch->user_data, index, worker_id);
    }
  }
}

// Watches for a batch newer than |seen| or shutdown, for at most
// GRT_HAL_LOCAL_TASK_POOL_SPIN_NS; the caller then takes the mutex and
// either joins or parks.
static void grt_hal_local_task_pool_spin(grt_hal_local_task_pool_t* pool,
                                         uint64_t seen) {
  grt_time_t deadline = grt_time_now_ns() + GRT_HAL_LOCAL_TASK_POOL_SPIN_NS;
  for (uint32_t i = 1;; ++i) {
    if (atomic_load_explicit(&pool->generation, memory_order_acquire) !=
            seen ||
        atomic_load_explicit(&pool->shutting_down, memory_order_relaxed)) {
      return;
    }
    grt_hal_local_task_cpu_relax();
    if ((i & 63) == 0 && grt_time_now_ns() >= deadline) return;
  }
}

static void* grt_hal_local_task_worker_main(void* arg) {
  grt_hal_local_task_worker_t* worker = arg;
  grt_hal_local_task_pool_t* pool = worker->pool;
  // Its track in traces (base/trace.h).
  char name[GRT_TRACE_THREAD_NAME_CAPACITY];
  snprintf(name, sizeof(name), "local-task worker %u", worker->worker_id);
  grt_trace_set_thread_name(name);
  pthread_mutex_lock(&pool->mutex);
  for (;;) {
    // Join each batch at most once; a worker that wakes after its batch
    // ended finds batch == NULL, counts the batch as seen, and sleeps again.
    // sleep_count counts the times a worker parks after running or
    // skipping a batch, not the times pthread_cond_wait returns: a
    // spurious wakeup goes back to the same wait uncounted.
    bool counted = false;
    while (!pool->shutting_down &&
           (!pool->batch || pool->generation == worker->seen_generation)) {
      if (!counted || worker->seen_generation != pool->generation) {
        ++pool->sleep_count;
        counted = true;
      }
      worker->seen_generation = pool->generation;
      ++pool->sleeping_workers;
      pthread_cond_broadcast(&pool->batch_changed);
      pthread_cond_wait(&pool->work_available, &pool->mutex);
      --pool->sleeping_workers;
    }
    if (pool->shutting_down) break;
    worker->seen_generation = pool->generation;
    grt_hal_local_task_batch_t* batch = pool->batch;
    atomic_fetch_add_explicit(&pool->active_workers, 1, memory_order_relaxed);
    pthread_mutex_unlock(&pool->mutex);

    grt_hal_local_task_batch_drain(batch, worker->worker_id);

    // The batch may end (and its stack frame go) once the last thread has
    // left; the one that leaves last wakes run if it is waiting.
    if (atomic_fetch_sub_explicit(&pool->active_workers, 1,
                                  memory_order_acq_rel) == 1) {
      pthread_mutex_lock(&pool->mutex);
      pthread_cond_broadcast(&pool->batch_changed);
      pthread_mutex_unlock(&pool->mutex);
    }
    grt_hal_local_task_pool_spin(pool, worker->seen_generation);
    pthread_mutex_lock(&pool->mutex);
  }
  pthread_mutex_unlock(&pool->mutex);
  return NULL;
}

// Stops and joins the first |started| workers and frees the pool.
static void grt_hal_local_task_pool_teardown(grt_hal_local_task_pool_t* pool,
                                             uint32_t started) {
  pthread_mutex_lock(&pool->mutex);
  pool->shutting_down = true;
  pthread_cond_broadcast(&pool->work_available);
  pthread_mutex_unlock(&pool->mutex);
  for (uint32_t i = 0; i < started; ++i) {
    pthread_join(pool->workers[i].thread, NULL);
  }
  pthread_cond_destroy(&pool->batch_changed);
  pthread_cond_destroy(&pool->work_available);
  pthread_mutex_destroy(&pool->mutex);
  pthread_mutex_destroy(&pool->run_mutex);
  grt_allocator_t host_allocator = pool->host_allocator;
  grt_allocator_free(host_allocator, pool->workers);
  grt_allocator_free(host_allocator, pool);
}

grt_status_t grt_hal_local_task_pool_create(uint32_t worker_count,
                                            grt_allocator_t host_allocator,
                                            grt_hal_local_task_pool_t** out_pool) {
  *out_pool = NULL;
  if (worker_count == 0) {
    worker_count = grt_hal_local_task_pool_default_worker_count();
  }
  if (worker_count > GRT_HAL_LOCAL_TASK_POOL_MAX_WORKERS) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "task pool of %u workers exceeds the limit of %u",
                           worker_count, GRT_HAL_LOCAL_TASK_POOL_MAX_WORKERS);
  }
  grt_hal_local_task_pool_t* pool = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(host_allocator, sizeof(*pool), (void**)&pool));
  uint32_t thread_count = worker_count - 1;
  grt_status_t status = grt_allocator_calloc(
      host_allocator, thread_count * sizeof(*pool->workers),
      (void**)&pool->workers);
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(host_allocator, pool);
    return status;
  }
  pool->host_allocator = host_allocator;
  pool->worker_count = worker_count;
  atomic_init(&pool->generation, 0);
  atomic_init(&pool->active_workers, 0);
  atomic_init(&pool->shutting_down, false);
  pthread_mutex_init(&pool->run_mutex, NULL);
  pthread_mutex_init(&pool->mutex, NULL);
  pthread_cond_init(&pool->work_available, NULL);
  pthread_cond_init(&pool->batch_changed, NULL);
  for (uint32_t i = 0; i < thread_count; ++i) {
    grt_hal_local_task_worker_t* worker = &pool->workers[i];
    worker->pool = pool;
    worker->worker_id = i + 1;
    int error = pthread_create(&worker->thread, NULL,
                               grt_hal_local_task_worker_main, worker);
    if (error != 0) {
      grt_hal_local_task_pool_teardown(pool, i);
      return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                             "cannot start task pool worker %u of %u: %s",
                             i + 1, worker_count, strerror(error));
    }
  }
  *out_pool = pool;
  return grt_ok_status();
}

void grt_hal_local_task_pool_destroy(grt_hal_local_task_pool_t* pool) {
  if (!pool) return;
  // A batch in flight holds run_mutex until it has finished.
  pthread_mutex_lock(&pool->run_mutex);
  pthread_mutex_unlock(&pool->run_mutex);
  grt_hal_local_task_pool_teardown(pool, grt_hal_local_task_pool_threads(pool));
}

uint32_t grt_hal_local_task_pool_worker_count(
    const grt_hal_local_task_pool_t* pool) {
  return pool->worker_count;
}

void grt_hal_local_task_pool_run(grt_hal_local_task_pool_t* pool,
                                 uint64_t count, grt_hal_local_task_fn_t fn,
                                 void* user_data) {
  if (count == 0) return;
  grt_hal_local_task_batch_t batch;
  batch.fn = fn;
  batch.user_data = user_data;
  batch.count = count;
  batch.claim_size =
      count / ((uint64_t)pool->worker_count *
               GRT_HAL_LOCAL_TASK_POOL_CLAIMS_PER_WORKER);
  if (batch.claim_size == 0) batch.claim_size = 1;
  atomic_init(&batch.next_index, 0);

  // One task, or no thread to share with: the caller runs the batch alone.
  bool shared = count > 1 && grt_hal_local_task_pool_threads(pool) > 0;
  pthread_mutex_lock(&pool->run_mutex);
  if (shared) {
    pthread_mutex_lock(&pool->mutex);
    pool->batch = &batch;
    atomic_fetch_add_explicit(&pool->generation, 1, memory_order_release);
    // Threads still watching from the last batch join without a wakeup;
    // sleeping ones are woken, one for two tasks (the caller runs one).
    if (pool->sleeping_workers > 0) {
      if (count == 2) {
        pthread_cond_signal(&pool->work_available);
      } else {
        pthread_cond_broadcast(&pool->work_available);
      }
    }
    pthread_mutex_unlock(&pool->mutex);
  }
  // The caller is worker 0.
  grt_hal_local_task_batch_drain(&batch, 0);
  if (shared) {
    // Every index is claimed; the threads still running theirs leave soon.
    // Watch for that first, then block until it has happened; a thread
    // joins only under the mutex, so none joins after the check below.
    grt_time_t deadline = grt_time_now_ns() + GRT_HAL_LOCAL_TASK_POOL_SPIN_NS;
    for (uint32_t i = 1; atomic_load_explicit(&pool->active_workers,
                                              memory_order_acquire) > 0;
         ++i) {
      grt_hal_local_task_cpu_relax();
      if ((i & 63) == 0 && grt_time_now_ns() >= deadline) break;
    }
    pthread_mutex_lock(&pool->mutex);
    while (atomic_load_explicit(&pool->active_workers, memory_order_acquire) >
           0) {
      pthread_cond_wait(&pool->batch_changed, &pool->mutex);
    }
    pool->batch = NULL;
    pthread_mutex_unlock(&pool->mutex);
  }
  pthread_mutex_unlock(&pool->run_mutex);
}

uint64_t grt_hal_local_task_pool_wait_idle(grt_hal_local_task_pool_t* pool) {
  pthread_mutex_lock(&pool->mutex);
  // A worker woken for a batch that others finished still has that wakeup
  // ahead of it; idle means none is pending.
  for (;;) {
    uint32_t threads = grt_hal_local_task_pool_threads(pool);
    bool idle = pool->sleeping_workers == threads;
    for (uint32_t i = 0; idle && i < threads; ++i) {
      idle = pool->workers[i].seen_generation == pool->generation;
    }
    if (idle) break;
    pthread_cond_wait(&pool->batch_changed, &pool->mutex);
  }
  uint64_t sleep_count = pool->sleep_count;
  pthread_mutex_unlock(&pool->mutex);
  return sleep_count;
}
