// Conformance: timeline semaphores and fences, across threads and through
// queue submissions (waiting, signalling, failure propagation).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>

#include "base/time.h"
#include "hal/fence.h"
#include "tests/hal_cts/cts.h"

// Gives the main thread time to block before a helper thread acts. Only a
// delay: no result depends on how long it is.
#define HELPER_DELAY_NS (20 * 1000 * 1000)

static void test_semaphore_query_signal_wait(void** state) {
  (void)state;
  grt_hal_semaphore_t* semaphore = grt_hal_cts_create_semaphore(5);
  uint64_t value = 0;
  GRT_EXPECT_OK(grt_hal_semaphore_query(semaphore, &value));
  assert_int_equal(value, 5);
  GRT_EXPECT_OK(grt_hal_semaphore_signal(semaphore, 7));
  GRT_EXPECT_OK(grt_hal_semaphore_query(semaphore, &value));
  assert_int_equal(value, 7);
  GRT_EXPECT_OK(
      grt_hal_semaphore_wait(semaphore, 6, GRT_HAL_TIMEOUT_IMMEDIATE));
  GRT_EXPECT_OK(
      grt_hal_semaphore_wait(semaphore, 7, GRT_HAL_TIMEOUT_INFINITE));
  grt_expect_error(grt_hal_semaphore_signal(semaphore, 6),
                           GRT_STATUS_FAILED_PRECONDITION,
                           "semaphore value must increase: current 7, "
                           "signalled 6");
  grt_hal_semaphore_release(semaphore);
}

static void test_semaphore_wait_timeout(void** state) {
  (void)state;
  grt_hal_semaphore_t* semaphore = grt_hal_cts_create_semaphore(0);
  grt_expect_error(
      grt_hal_semaphore_wait(semaphore, 1, GRT_HAL_TIMEOUT_IMMEDIATE),
      GRT_STATUS_DEADLINE_EXCEEDED, "semaphore did not reach 1");
  grt_expect_error(
      grt_hal_semaphore_wait(semaphore, 2, 1000 * 1000),
      GRT_STATUS_DEADLINE_EXCEEDED, "semaphore did not reach 2");
  uint64_t value = 99;
  GRT_EXPECT_OK(grt_hal_semaphore_query(semaphore, &value));
  assert_int_equal(value, 0);
  grt_hal_semaphore_release(semaphore);
}

typedef struct helper_t {
  pthread_t thread;
  grt_hal_semaphore_t* semaphore;
  uint64_t value;
  bool fail;  // fail the semaphore instead of signalling it
  atomic_bool acted;
  grt_status_t status;
} helper_t;

static void* helper_main(void* arg) {
  helper_t* helper = (helper_t*)arg;
  grt_time_sleep_ns(HELPER_DELAY_NS);
  // Set before acting, so an observer that sees the effect sees the flag.
  atomic_store(&helper->acted, true);
  if (helper->fail) {
    grt_hal_semaphore_fail(
        helper->semaphore,
        grt_make_status(GRT_STATUS_ABORTED, "cts: upstream work failed (42)"));
  } else {
    helper->status = grt_hal_semaphore_signal(helper->semaphore, helper->value);
  }
  return NULL;
}

static void helper_start(helper_t* helper, grt_hal_semaphore_t* semaphore,
                         uint64_t value, bool fail_it) {
  memset(helper, 0, sizeof(*helper));
  helper->semaphore = semaphore;
  helper->value = value;
  helper->fail = fail_it;
  atomic_init(&helper->acted, false);
  assert_int_equal(pthread_create(&helper->thread, NULL, helper_main, helper),
                   0);
}

static void helper_join(helper_t* helper) {
  assert_int_equal(pthread_join(helper->thread, NULL), 0);
  GRT_EXPECT_OK(helper->status);
}

static void test_semaphore_signal_from_thread(void** state) {
  (void)state;
  grt_hal_semaphore_t* semaphore = grt_hal_cts_create_semaphore(0);
  helper_t helper;
  helper_start(&helper, semaphore, 3, false);
  GRT_EXPECT_OK(
      grt_hal_semaphore_wait(semaphore, 3, GRT_HAL_TIMEOUT_INFINITE));
  assert_true(atomic_load(&helper.acted));
  helper_join(&helper);
  uint64_t value = 0;
  GRT_EXPECT_OK(grt_hal_semaphore_query(semaphore, &value));
  assert_int_equal(value, 3);
  grt_hal_semaphore_release(semaphore);
}

// A failed semaphore keeps its first failure for every later query, wait
// and signal.
static void test_semaphore_fail(void** state) {
  (void)state;
  grt_hal_semaphore_t* semaphore = grt_hal_cts_create_semaphore(1);
  grt_hal_semaphore_fail(semaphore, grt_make_status(GRT_STATUS_DATA_LOSS,
                                                    "cts: first failure"));
  grt_hal_semaphore_fail(semaphore, grt_make_status(GRT_STATUS_ABORTED,
                                                    "cts: second failure"));
  uint64_t value = 0;
  grt_expect_error(grt_hal_semaphore_query(semaphore, &value),
                           GRT_STATUS_DATA_LOSS, "cts: first failure");
  grt_expect_error(
      grt_hal_semaphore_wait(semaphore, 1, GRT_HAL_TIMEOUT_INFINITE),
      GRT_STATUS_DATA_LOSS, "cts: first failure");
  grt_expect_error(grt_hal_semaphore_signal(semaphore, 2),
                           GRT_STATUS_DATA_LOSS, "cts: first failure");
  grt_hal_semaphore_release(semaphore);
}

static void test_fence_join_wait(void** state) {
  (void)state;
  grt_hal_semaphore_t* a = grt_hal_cts_create_semaphore(0);
  grt_hal_semaphore_t* b = grt_hal_cts_create_semaphore(0);
  grt_allocator_t host = grt_hal_cts.host_allocator;
  grt_hal_fence_t* first = NULL;
  grt_hal_fence_t* second = NULL;
  GRT_EXPECT_OK(grt_hal_fence_create_at(a, 2, host, &first));
  GRT_EXPECT_OK(grt_hal_fence_create(1, host, &second));
  GRT_EXPECT_OK(grt_hal_fence_insert(second, a, 4));
  GRT_EXPECT_OK(grt_hal_fence_insert(second, b, 1));
  grt_hal_fence_t* fences[3] = {first, NULL, second};
  grt_hal_fence_t* joined = NULL;
  GRT_EXPECT_OK(grt_hal_fence_join(3, fences, host, &joined));
  // a appears twice; the larger value wins.
  assert_int_equal(grt_hal_fence_count(joined), 2);
  grt_hal_semaphore_list_t list = grt_hal_fence_as_list(joined);
  for (size_t i = 0; i < list.count; ++i) {
    assert_int_equal(list.values[i], list.semaphores[i] == a ? 4 : 1);
  }
  bool reached = true;
  GRT_EXPECT_OK(grt_hal_fence_query(joined, &reached));
  assert_false(reached);
  grt_expect_error(grt_hal_fence_wait(joined, GRT_HAL_TIMEOUT_IMMEDIATE),
                           GRT_STATUS_DEADLINE_EXCEEDED, "did not reach");
  GRT_EXPECT_OK(grt_hal_semaphore_signal(a, 3));
  GRT_EXPECT_OK(grt_hal_fence_query(first, &reached));
  assert_true(reached);
  GRT_EXPECT_OK(grt_hal_fence_query(joined, &reached));
  assert_false(reached);
  // Another thread signals the remaining pairs while this one waits.
  helper_t helper_a, helper_b;
  helper_start(&helper_a, a, 4, false);
  helper_start(&helper_b, b, 1, false);
  GRT_EXPECT_OK(grt_hal_fence_wait(joined, GRT_HAL_TIMEOUT_INFINITE));
  helper_join(&helper_a);
  helper_join(&helper_b);
  GRT_EXPECT_OK(grt_hal_fence_query(joined, &reached));
  assert_true(reached);
  // Signalling a fence signals every pair; failing one fails them all.
  grt_hal_fence_t* next = NULL;
  GRT_EXPECT_OK(grt_hal_fence_create_at(a, 10, host, &next));
  GRT_EXPECT_OK(grt_hal_fence_insert(next, b, 10));
  GRT_EXPECT_OK(grt_hal_fence_signal(next));
  uint64_t value = 0;
  GRT_EXPECT_OK(grt_hal_semaphore_query(b, &value));
  assert_int_equal(value, 10);
  grt_hal_fence_fail(next, grt_make_status(GRT_STATUS_CANCELLED,
                                           "cts: fence failed"));
  grt_expect_error(grt_hal_fence_wait(joined, GRT_HAL_TIMEOUT_INFINITE),
                           GRT_STATUS_CANCELLED, "cts: fence failed");
  grt_expect_error(grt_hal_semaphore_query(b, &value),
                           GRT_STATUS_CANCELLED, "cts: fence failed");
  grt_hal_fence_release(next);
  grt_hal_fence_release(joined);
  grt_hal_fence_release(second);
  grt_hal_fence_release(first);
  grt_hal_semaphore_release(b);
  grt_hal_semaphore_release(a);
}

// A one-shot fill of |buffer| with |byte|.
static grt_hal_command_buffer_t* record_fill(grt_hal_buffer_t* buffer,
                                             uint8_t byte) {
  grt_hal_command_buffer_t* cb =
      grt_hal_cts_begin_command_buffer(GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0);
  GRT_EXPECT_OK(grt_hal_command_buffer_fill_buffer(
      cb, grt_hal_make_buffer_ref(buffer, 0, GRT_HAL_WHOLE_BUFFER), byte, 1));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(cb));
  return cb;
}

// A submission that waits on a semaphore another thread signals later:
// its result never appears before that signal. (Execute may return at once
// or, on an inline device, only once the wait is satisfied.)
static void test_queue_waits_for_thread_signal(void** state) {
  (void)state;
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate(64);
  grt_hal_cts_write_bytes(buffer, 0, 0, 64);
  grt_hal_command_buffer_t* cb = record_fill(buffer, 0x42);
  grt_hal_semaphore_t* gate = grt_hal_cts_create_semaphore(0);
  grt_hal_semaphore_t* done = grt_hal_cts_create_semaphore(0);
  uint64_t one = 1;
  grt_hal_semaphore_list_t wait = {1, &gate, &one};
  grt_hal_semaphore_list_t signal = {1, &done, &one};
  helper_t helper;
  helper_start(&helper, gate, 1, false);
  GRT_EXPECT_OK(grt_hal_device_queue_execute(
      grt_hal_cts_device(), wait, signal, 1, &cb, NULL));
  GRT_EXPECT_OK(grt_hal_device_queue_flush(grt_hal_cts_device()));
  uint64_t value = 0;
  GRT_EXPECT_OK(grt_hal_semaphore_query(done, &value));
  if (value >= 1 && !atomic_load(&helper.acted)) {
    fail_msg("the submission finished before its wait semaphore was signalled");
  }
  GRT_EXPECT_OK(
      grt_hal_semaphore_wait(done, 1, GRT_HAL_TIMEOUT_INFINITE));
  assert_true(atomic_load(&helper.acted));
  helper_join(&helper);
  uint8_t read[64], expected[64];
  memset(expected, 0x42, sizeof(expected));
  grt_hal_cts_read(buffer, 0, read, sizeof(read));
  grt_hal_cts_expect_bytes("gated fill", read, expected, sizeof(read));
  grt_hal_semaphore_release(done);
  grt_hal_semaphore_release(gate);
  grt_hal_command_buffer_release(cb);
  grt_hal_buffer_release(buffer);
}

// A failed wait semaphore fails the submission's signal semaphores with
// that failure's message, whether it failed before the submission or
// while the submission waited; the work does not run.
static void test_queue_failure_propagation(void** state) {
  (void)state;
  for (int late = 0; late < 2; ++late) {
    grt_hal_buffer_t* buffer = grt_hal_cts_allocate(16);
    grt_hal_cts_write_bytes(buffer, 0, 0, 16);
    grt_hal_command_buffer_t* cb = record_fill(buffer, 0x42);
    grt_hal_semaphore_t* gate = grt_hal_cts_create_semaphore(0);
    grt_hal_semaphore_t* done = grt_hal_cts_create_semaphore(0);
    uint64_t one = 1;
    grt_hal_semaphore_list_t wait = {1, &gate, &one};
    grt_hal_semaphore_list_t signal = {1, &done, &one};
    helper_t helper;
    if (late) {
      helper_start(&helper, gate, 1, true);
    } else {
      grt_hal_semaphore_fail(gate, grt_make_status(
                                       GRT_STATUS_ABORTED,
                                       "cts: upstream work failed (42)"));
    }
    grt_status_t status = grt_hal_device_queue_execute(
        grt_hal_cts_device(), wait, signal, 1, &cb, NULL);
    if (!grt_status_is_ok(status)) {
      // Refusing the submission outright is allowed if the error is the
      // upstream one; the signal semaphore must still carry it.
      grt_expect_error(status, GRT_STATUS_ABORTED,
                               "cts: upstream work failed (42)");
    }
    grt_expect_error(
        grt_hal_semaphore_wait(done, 1, GRT_HAL_TIMEOUT_INFINITE),
        GRT_STATUS_ABORTED, "cts: upstream work failed (42)");
    if (late) helper_join(&helper);
    uint8_t read[16], expected[16] = {0};
    grt_hal_cts_read(buffer, 0, read, sizeof(read));
    grt_hal_cts_expect_bytes("fill behind a failed wait", read, expected,
                             sizeof(read));
    grt_hal_semaphore_release(done);
    grt_hal_semaphore_release(gate);
    grt_hal_command_buffer_release(cb);
    grt_hal_buffer_release(buffer);
  }
}

static const struct CMUnitTest kTests[] = {
    cmocka_unit_test(test_semaphore_query_signal_wait),
    cmocka_unit_test(test_semaphore_wait_timeout),
    cmocka_unit_test(test_semaphore_signal_from_thread),
    cmocka_unit_test(test_semaphore_fail),
    cmocka_unit_test(test_fence_join_wait),
    cmocka_unit_test(test_queue_waits_for_thread_signal),
    cmocka_unit_test(test_queue_failure_propagation),
};
GRT_HAL_CTS_GROUP(grt_hal_cts_semaphore_group, "semaphores", kTests);
