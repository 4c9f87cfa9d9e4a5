#include "base/time.h"

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>

#include <cmocka.h>

#define MS INT64_C(1000000)

static void test_clock_is_monotonic(void** state) {
  (void)state;
  grt_time_t previous = grt_time_now_ns();
  assert_true(previous > 0);
  for (int i = 0; i < 10000; ++i) {
    grt_time_t now = grt_time_now_ns();
    assert_true(now >= previous);
    previous = now;
  }
}

static void test_sleep_lasts_at_least_its_duration(void** state) {
  (void)state;
  grt_time_t start = grt_time_now_ns();
  grt_time_sleep_ns(2 * MS);
  assert_true(grt_time_now_ns() - start >= 2 * MS);
  // Non-positive durations return without sleeping (they would hang if they
  // were mistaken for huge unsigned values).
  grt_time_sleep_ns(0);
  grt_time_sleep_ns(-5 * MS);
  grt_time_sleep_ns(INT64_MIN);
  grt_time_sleep_until_ns(GRT_TIME_INFINITE_PAST);
}

static void test_sleep_until_reaches_deadline(void** state) {
  (void)state;
  grt_time_t deadline = grt_time_now_ns() + 3 * MS;
  grt_time_sleep_until_ns(deadline);
  assert_true(grt_time_now_ns() >= deadline);
}

static volatile sig_atomic_t alarms_received;
static void on_alarm(int signal_number) { alarms_received = 1; }

static void test_sleep_resumes_after_signal(void** state) {
  (void)state;
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_handler = on_alarm;  // no SA_RESTART: the sleep sees EINTR
  struct sigaction old_action;
  assert_int_equal(sigaction(SIGALRM, &action, &old_action), 0);
  alarms_received = 0;
  struct itimerval timer;
  memset(&timer, 0, sizeof(timer));
  timer.it_value.tv_usec = 1000;  // fires well inside the sleep below
  assert_int_equal(setitimer(ITIMER_REAL, &timer, NULL), 0);

  grt_time_t start = grt_time_now_ns();
  grt_time_sleep_ns(10 * MS);
  grt_time_t elapsed = grt_time_now_ns() - start;
  sigaction(SIGALRM, &old_action, NULL);
  assert_int_equal(alarms_received, 1);
  assert_true(elapsed >= 10 * MS);
}

static void test_deadline_from_timeout(void** state) {
  (void)state;
  assert_true(grt_deadline_from_timeout_ns(GRT_DURATION_INFINITE) ==
              GRT_TIME_INFINITE_FUTURE);
  // Huge finite timeouts saturate instead of wrapping into the past.
  assert_true(grt_deadline_from_timeout_ns(GRT_DURATION_INFINITE - 1) ==
              GRT_TIME_INFINITE_FUTURE);

  grt_time_t before = grt_time_now_ns();
  grt_time_t deadline = grt_deadline_from_timeout_ns(1000 * MS);
  grt_time_t after = grt_time_now_ns();
  assert_true(deadline >= before + 1000 * MS);
  assert_true(deadline <= after + 1000 * MS);

  // Zero and negative timeouts mean "already due".
  before = grt_time_now_ns();
  grt_time_t immediate = grt_deadline_from_timeout_ns(0);
  assert_true(immediate >= before && immediate <= grt_time_now_ns());
  assert_true(grt_deadline_from_timeout_ns(INT64_MIN) <= grt_time_now_ns());
  assert_true(grt_timeout_from_deadline_ns(grt_deadline_from_timeout_ns(-1)) ==
              0);
}

static void test_timeout_from_deadline(void** state) {
  (void)state;
  assert_true(grt_timeout_from_deadline_ns(GRT_TIME_INFINITE_FUTURE) ==
              GRT_DURATION_INFINITE);
  assert_true(grt_timeout_from_deadline_ns(GRT_TIME_INFINITE_PAST) == 0);
  assert_true(grt_timeout_from_deadline_ns(grt_time_now_ns()) == 0);

  // A deadline centuries away leaves a positive timeout no longer than the
  // one it was made from.
  const grt_duration_t timeout = INT64_C(1) << 62;
  grt_time_t deadline = grt_deadline_from_timeout_ns(timeout);
  grt_duration_t left = grt_timeout_from_deadline_ns(deadline);
  assert_true(left > 0);
  assert_true(left <= timeout);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_clock_is_monotonic),
      cmocka_unit_test(test_sleep_lasts_at_least_its_duration),
      cmocka_unit_test(test_sleep_until_reaches_deadline),
      cmocka_unit_test(test_sleep_resumes_after_signal),
      cmocka_unit_test(test_deadline_from_timeout),
      cmocka_unit_test(test_timeout_from_deadline),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
