// The local-task worker pool: every task of a batch runs exactly once on a
// worker with a valid id, the caller takes part as worker 0, batches from
// several threads are serialized, idle threads park on their condition
// variable and wake for new work.
#include "hal/local/task_pool.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "base/time.h"
#include "hal/local/test_util.h"

typedef struct counting_batch_t {
  uint32_t worker_count;
  atomic_uint* runs;  // per task index
  atomic_uint bad_worker_ids;
} counting_batch_t;

static void count_task(void* user_data, uint64_t index, uint32_t worker_id) {
  counting_batch_t* batch = user_data;
  atomic_fetch_add(&batch->runs[index], 1);
  if (worker_id >= batch->worker_count) {
    atomic_fetch_add(&batch->bad_worker_ids, 1);
  }
}

// Runs |count| counting tasks and checks each ran exactly once.
static void run_counting_batch(grt_hal_local_task_pool_t* pool,
                               uint64_t count) {
  counting_batch_t batch;
  batch.worker_count = grt_hal_local_task_pool_worker_count(pool);
  batch.runs = calloc(count ? count : 1, sizeof(*batch.runs));
  assert_non_null(batch.runs);
  atomic_init(&batch.bad_worker_ids, 0);
  grt_hal_local_task_pool_run(pool, count, count_task, &batch);
  for (uint64_t i = 0; i < count; ++i) {
    assert_int_equal(atomic_load(&batch.runs[i]), 1);
  }
  assert_int_equal(atomic_load(&batch.bad_worker_ids), 0);
  free(batch.runs);
}

static void test_every_task_runs_once(void** state) {
  (void)state;
  const uint32_t worker_counts[] = {1, 4};
  for (size_t w = 0; w < 2; ++w) {
    grt_hal_local_task_pool_t* pool = NULL;
    GRT_EXPECT_OK(grt_hal_local_task_pool_create(
        worker_counts[w], grt_allocator_system(), &pool));
    assert_int_equal(grt_hal_local_task_pool_worker_count(pool),
                     worker_counts[w]);
    run_counting_batch(pool, 0);
    run_counting_batch(pool, 1);
    run_counting_batch(pool, 3);
    run_counting_batch(pool, 20000);
    // Many small batches back to back: no batch leaks into the next.
    for (int i = 0; i < 200; ++i) run_counting_batch(pool, 1 + i % 7);
    grt_hal_local_task_pool_destroy(pool);
  }
}

static void test_default_worker_count(void** state) {
  (void)state;
  grt_hal_local_task_pool_t* pool = NULL;
  GRT_EXPECT_OK(
      grt_hal_local_task_pool_create(0, grt_allocator_system(), &pool));
  uint32_t expected = grt_hal_local_task_pool_default_worker_count();
  assert_true(expected >= 1);
  assert_int_equal(grt_hal_local_task_pool_worker_count(pool), expected);
  run_counting_batch(pool, 100);
  grt_hal_local_task_pool_destroy(pool);
}

static void test_too_many_workers(void** state) {
  (void)state;
  grt_hal_local_task_pool_t* pool = NULL;
  grt_expect_error(
      grt_hal_local_task_pool_create(5000, grt_allocator_system(), &pool),
      GRT_STATUS_INVALID_ARGUMENT,
      "task pool of 5000 workers exceeds the limit of 1024");
  assert_null(pool);
}

static void test_idle_workers_sleep_and_wake(void** state) {
  (void)state;
  grt_hal_local_task_pool_t* pool = NULL;
  GRT_EXPECT_OK(
      grt_hal_local_task_pool_create(4, grt_allocator_system(), &pool));
  run_counting_batch(pool, 1000);
  // The pool's three threads (the caller is the fourth worker) go back to
  // their condition variable after the batch...
  uint64_t sleeps = grt_hal_local_task_pool_wait_idle(pool);
  assert_true(sleeps >= 3);
  // ...and stay there while there is nothing to do: a spinning or polling
  // worker would have gone back to sleep again meanwhile.
  grt_time_sleep_ns(20 * 1000 * 1000);
  assert_int_equal(grt_hal_local_task_pool_wait_idle(pool), sleeps);
  // New work after the idle period still runs.
  run_counting_batch(pool, 1000);
  assert_true(grt_hal_local_task_pool_wait_idle(pool) > sleeps);
  grt_hal_local_task_pool_destroy(pool);
}

// The caller of run is worker 0 and works alongside the pool's threads:
// two tasks that each wait for the other to start finish only if the
// caller and a thread run them at the same time; a one-worker pool runs
// every task on the caller.
typedef struct rendezvous_t {
  pthread_t caller;
  atomic_uint started;
  atomic_uint met;
  atomic_uint caller_ran;
  atomic_uint bad_thread;
} rendezvous_t;

static void rendezvous_task(void* user_data, uint64_t index,
                            uint32_t worker_id) {
  (void)index;
  rendezvous_t* r = user_data;
  bool on_caller = pthread_equal(pthread_self(), r->caller);
  if (on_caller) atomic_fetch_add(&r->caller_ran, 1);
  if (on_caller != (worker_id == 0)) atomic_fetch_add(&r->bad_thread, 1);
  atomic_fetch_add(&r->started, 1);
  // Wait (at most 10 s, so a broken pool fails instead of hanging).
  grt_time_t deadline = grt_time_now_ns() + 10ll * 1000 * 1000 * 1000;
  while (atomic_load(&r->started) < 2 && grt_time_now_ns() < deadline) {
  }
  if (atomic_load(&r->started) >= 2) atomic_fetch_add(&r->met, 1);
}

static void rendezvous_init(rendezvous_t* r, unsigned started) {
  r->caller = pthread_self();
  atomic_init(&r->started, started);
  atomic_init(&r->met, 0);
  atomic_init(&r->caller_ran, 0);
  atomic_init(&r->bad_thread, 0);
}

static void test_caller_is_worker_zero(void** state) {
  (void)state;
  grt_hal_local_task_pool_t* pool = NULL;
  GRT_EXPECT_OK(
      grt_hal_local_task_pool_create(2, grt_allocator_system(), &pool));
  for (int round = 0; round < 20; ++round) {
    rendezvous_t r;
    rendezvous_init(&r, 0);
    grt_hal_local_task_pool_run(pool, 2, rendezvous_task, &r);
    assert_int_equal(atomic_load(&r.met), 2);
    assert_int_equal(atomic_load(&r.caller_ran), 1);
    assert_int_equal(atomic_load(&r.bad_thread), 0);
  }
  grt_hal_local_task_pool_destroy(pool);

  GRT_EXPECT_OK(
      grt_hal_local_task_pool_create(1, grt_allocator_system(), &pool));
  rendezvous_t r;
  rendezvous_init(&r, 1);  // one task alone: it need not wait
  grt_hal_local_task_pool_run(pool, 1, rendezvous_task, &r);
  assert_int_equal(atomic_load(&r.caller_ran), 1);
  assert_int_equal(atomic_load(&r.bad_thread), 0);
  // The one-worker pool is idle at once: it has no thread to park.
  assert_int_equal(grt_hal_local_task_pool_wait_idle(pool), 0);
  grt_hal_local_task_pool_destroy(pool);
}

// Overlap detection for the serialization test: one word holds the id of
// the batch whose tasks are running (high half) and how many of its tasks
// are in flight (low half). A task of another batch starting while any is
// in flight is an overlap.
static _Atomic uint64_t g_in_flight;
static atomic_uint g_overlaps;

static void enter_batch(uint32_t batch_id) {
  uint64_t state = atomic_load(&g_in_flight);
  for (;;) {
    uint32_t count = (uint32_t)state;
    uint32_t owner = (uint32_t)(state >> 32);
    if (count != 0 && owner != batch_id) atomic_fetch_add(&g_overlaps, 1);
    uint64_t next = count == 0 ? ((uint64_t)batch_id << 32) | 1u : state + 1;
    if (atomic_compare_exchange_weak(&g_in_flight, &state, next)) return;
  }
}

static void leave_batch(void) {
  uint64_t state = atomic_load(&g_in_flight);
  for (;;) {
    uint32_t count = (uint32_t)state;
    uint64_t next = count == 1 ? 0 : state - 1;
    if (atomic_compare_exchange_weak(&g_in_flight, &state, next)) return;
  }
}

typedef struct submitter_t {
  grt_hal_local_task_pool_t* pool;
  uint32_t id;  // the submitter's batches are id * 1000 + i
  uint32_t batch_id;
  atomic_uint total;
} submitter_t;

static void add_task(void* user_data, uint64_t index, uint32_t worker_id) {
  (void)worker_id;
  submitter_t* submitter = user_data;
  enter_batch(submitter->batch_id);
  // Some work, so tasks of a batch are in flight together.
  volatile uint32_t spin = 0;
  for (int i = 0; i < 2000; ++i) spin += (uint32_t)i;
  (void)spin;
  atomic_fetch_add(&submitter->total, (unsigned)index + 1);
  leave_batch();
}

static void* submit_batches(void* arg) {
  submitter_t* submitter = arg;
  for (uint32_t i = 0; i < 100; ++i) {
    // Written before run publishes the batch; read by its tasks only.
    submitter->batch_id = submitter->id * 1000 + i + 1;
    grt_hal_local_task_pool_run(submitter->pool, 10, add_task, submitter);
  }
  return NULL;
}

// Batches from several threads run one at a time: no task of one batch is
// in flight while a task of another runs, and every task runs once.
static void test_concurrent_callers_are_serialized(void** state) {
  (void)state;
  grt_hal_local_task_pool_t* pool = NULL;
  GRT_EXPECT_OK(
      grt_hal_local_task_pool_create(3, grt_allocator_system(), &pool));
  atomic_store(&g_in_flight, 0);
  atomic_store(&g_overlaps, 0);
  submitter_t submitters[4];
  pthread_t threads[4];
  for (uint32_t i = 0; i < 4; ++i) {
    submitters[i].pool = pool;
    submitters[i].id = i + 1;
    submitters[i].batch_id = 0;
    atomic_init(&submitters[i].total, 0);
    assert_int_equal(
        pthread_create(&threads[i], NULL, submit_batches, &submitters[i]), 0);
  }
  for (int i = 0; i < 4; ++i) {
    pthread_join(threads[i], NULL);
    // 100 batches of 1 + 2 + ... + 10.
    assert_int_equal(atomic_load(&submitters[i].total), 100 * 55);
  }
  assert_int_equal(atomic_load(&g_overlaps), 0);
  assert_int_equal(atomic_load(&g_in_flight), 0);
  grt_hal_local_task_pool_destroy(pool);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_task_runs_once),
      cmocka_unit_test(test_default_worker_count),
      cmocka_unit_test(test_too_many_workers),
      cmocka_unit_test(test_idle_workers_sleep_and_wake),
      cmocka_unit_test(test_caller_is_worker_zero),
      cmocka_unit_test(test_concurrent_callers_are_serialized),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
