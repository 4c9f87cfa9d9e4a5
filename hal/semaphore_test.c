// hal semaphores: signal ordering, failure keeping its status, waits that
// time out, and waiters woken from other threads (signal and failure).
#include "hal/semaphore.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hal/test_support.h"

static grt_hal_semaphore_t* make_semaphore(uint64_t value) {
  grt_hal_semaphore_t* semaphore = NULL;
  GRT_EXPECT_OK(
      grt_hal_host_semaphore_create(value, grt_allocator_system(), &semaphore));
  return semaphore;
}

static void test_signal_and_query(void** state) {
  (void)state;
  grt_hal_semaphore_t* semaphore = make_semaphore(2);
  uint64_t value = 0;
  GRT_EXPECT_OK(grt_hal_semaphore_query(semaphore, &value));
  assert_int_equal(value, 2);
  GRT_EXPECT_OK(grt_hal_semaphore_signal(semaphore, 5));
  grt_expect_error(grt_hal_semaphore_signal(semaphore, 3),
                       GRT_STATUS_FAILED_PRECONDITION,
                       "semaphore value must increase: current 5, signalled 3");
  grt_expect_error(grt_hal_semaphore_signal(semaphore, 5),
                       GRT_STATUS_FAILED_PRECONDITION,
                       "current 5, signalled 5");
  GRT_EXPECT_OK(grt_hal_semaphore_query(semaphore, &value));
  assert_int_equal(value, 5);
  // Reached values return at once, whatever the timeout.
  GRT_EXPECT_OK(grt_hal_semaphore_wait(semaphore, 4, GRT_HAL_TIMEOUT_IMMEDIATE));
  GRT_EXPECT_OK(grt_hal_semaphore_wait(semaphore, 5, GRT_HAL_TIMEOUT_INFINITE));
  grt_hal_semaphore_release(semaphore);
}

static void test_timeout(void** state) {
  (void)state;
  grt_hal_semaphore_t* semaphore = make_semaphore(3);
  grt_expect_error(grt_hal_semaphore_wait(semaphore, 5, 10 * 1000000),
                       GRT_STATUS_DEADLINE_EXCEEDED,
                       "semaphore did not reach 5 within 10 ms (value 3)");
  grt_expect_error(
      grt_hal_semaphore_wait(semaphore, 4, GRT_HAL_TIMEOUT_IMMEDIATE),
      GRT_STATUS_DEADLINE_EXCEEDED,
      "semaphore did not reach 4 within 0 ns (value 3)");
  grt_expect_error(grt_hal_semaphore_wait(semaphore, 4, 1500),
                       GRT_STATUS_DEADLINE_EXCEEDED, "within 1500 ns");
  grt_hal_semaphore_release(semaphore);
}

static void test_failure_is_kept(void** state) {
  (void)state;
  grt_hal_semaphore_t* semaphore = make_semaphore(1);
  grt_hal_semaphore_fail(semaphore,
                         grt_make_status(GRT_STATUS_ABORTED, "kernel trapped"));
  // Later failures lose to the first.
  grt_hal_semaphore_fail(semaphore,
                         grt_make_status(GRT_STATUS_INTERNAL, "second"));
  uint64_t value = 0;
  // Every caller gets its own copy to own.
  grt_expect_error(grt_hal_semaphore_query(semaphore, &value),
                       GRT_STATUS_ABORTED, "kernel trapped");
  grt_expect_error(grt_hal_semaphore_query(semaphore, &value),
                       GRT_STATUS_ABORTED, "kernel trapped");
  grt_expect_error(grt_hal_semaphore_wait(semaphore, 1, GRT_HAL_TIMEOUT_INFINITE),
                       GRT_STATUS_ABORTED, "kernel trapped");
  grt_expect_error(grt_hal_semaphore_signal(semaphore, 9),
                       GRT_STATUS_ABORTED, "kernel trapped");
  grt_hal_semaphore_release(semaphore);

  semaphore = make_semaphore(0);
  grt_hal_semaphore_fail(semaphore, grt_ok_status());
  grt_expect_error(grt_hal_semaphore_wait(semaphore, 1, GRT_HAL_TIMEOUT_INFINITE),
                       GRT_STATUS_UNKNOWN, "semaphore failed without a status");
  grt_hal_semaphore_release(semaphore);
}

typedef struct signaller_t {
  grt_hal_semaphore_t* semaphore;
  uint64_t value;
  bool fail;
} signaller_t;

static void* signaller_main(void* arg) {
  signaller_t* signaller = (signaller_t*)arg;
  // The waiter is most likely asleep by now; correctness does not depend on
  // it (the value check happens under the lock).
  grt_time_sleep_ns(2 * 1000000);
  if (signaller->fail) {
    grt_hal_semaphore_fail(
        signaller->semaphore,
        grt_make_status(GRT_STATUS_DATA_LOSS, "device lost at step %d", 7));
  } else {
    grt_status_free(
        grt_hal_semaphore_signal(signaller->semaphore, signaller->value));
  }
  return NULL;
}

static void test_cross_thread_signal(void** state) {
  (void)state;
  grt_hal_semaphore_t* semaphore = make_semaphore(0);
  signaller_t signaller = {semaphore, 4, false};
  pthread_t thread;
  assert_int_equal(pthread_create(&thread, NULL, signaller_main, &signaller), 0);
  GRT_EXPECT_OK(grt_hal_semaphore_wait(semaphore, 4, GRT_HAL_TIMEOUT_INFINITE));
  pthread_join(thread, NULL);
  uint64_t value = 0;
  GRT_EXPECT_OK(grt_hal_semaphore_query(semaphore, &value));
  assert_int_equal(value, 4);
  grt_hal_semaphore_release(semaphore);
}

static void test_cross_thread_failure(void** state) {
  (void)state;
  grt_hal_semaphore_t* semaphore = make_semaphore(0);
  signaller_t signaller = {semaphore, 0, true};
  pthread_t thread;
  assert_int_equal(pthread_create(&thread, NULL, signaller_main, &signaller), 0);
  grt_expect_error(
      grt_hal_semaphore_wait(semaphore, 100, GRT_HAL_TIMEOUT_INFINITE),
      GRT_STATUS_DATA_LOSS, "device lost at step 7");
  pthread_join(thread, NULL);
  grt_hal_semaphore_release(semaphore);
}

static void test_lists(void** state) {
  (void)state;
  grt_hal_semaphore_t* a = make_semaphore(0);
  grt_hal_semaphore_t* b = make_semaphore(0);
  grt_hal_semaphore_t* semaphores[2] = {a, b};
  uint64_t values[2] = {2, 3};
  grt_hal_semaphore_list_t list = {2, semaphores, values};
  bool reached = true;
  GRT_EXPECT_OK(grt_hal_semaphore_list_poll(list, &reached));
  assert_false(reached);
  GRT_EXPECT_OK(grt_hal_semaphore_signal(a, 2));
  GRT_EXPECT_OK(grt_hal_semaphore_list_poll(list, &reached));
  assert_false(reached);
  grt_expect_error(grt_hal_semaphore_list_wait(list, 1000000),
                       GRT_STATUS_DEADLINE_EXCEEDED,
                       "semaphore did not reach 3 within 1 ms (value 0); "
                       "semaphore 1 of 2");
  // a is already at 2, so signalling the list stops at the first error.
  grt_expect_error(grt_hal_semaphore_list_signal(list),
                       GRT_STATUS_FAILED_PRECONDITION,
                       "current 2, signalled 2");
  uint64_t value = 0;
  GRT_EXPECT_OK(grt_hal_semaphore_query(b, &value));
  assert_int_equal(value, 0);
  values[0] = 4;
  GRT_EXPECT_OK(grt_hal_semaphore_list_signal(list));
  GRT_EXPECT_OK(grt_hal_semaphore_list_poll(list, &reached));
  assert_true(reached);
  GRT_EXPECT_OK(grt_hal_semaphore_list_wait(list, GRT_HAL_TIMEOUT_IMMEDIATE));
  GRT_EXPECT_OK(
      grt_hal_semaphore_list_wait(grt_hal_semaphore_list_empty(), 0));

  grt_hal_semaphore_list_fail(list,
                              grt_make_status(GRT_STATUS_CANCELLED, "stopped"));
  grt_expect_error(grt_hal_semaphore_list_poll(list, &reached),
                       GRT_STATUS_CANCELLED, "stopped");
  grt_expect_error(grt_hal_semaphore_query(b, &value),
                       GRT_STATUS_CANCELLED, "stopped");
  grt_hal_semaphore_release(a);
  grt_hal_semaphore_release(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_signal_and_query),
      cmocka_unit_test(test_timeout),
      cmocka_unit_test(test_failure_is_kept),
      cmocka_unit_test(test_cross_thread_signal),
      cmocka_unit_test(test_cross_thread_failure),
      cmocka_unit_test(test_lists),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
