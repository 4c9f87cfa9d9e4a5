#include "base/time.h"

#include <errno.h>
#include <time.h>

#define GRT_NS_PER_SECOND INT64_C(1000000000)

grt_time_t grt_time_now_ns(void) {
  struct timespec now;
  // CLOCK_MONOTONIC cannot fail on the POSIX systems grt supports (the
  // clock id is valid and the pointer is ours).
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (grt_time_t)now.tv_sec * GRT_NS_PER_SECOND + now.tv_nsec;
}

void grt_time_sleep_until_ns(grt_time_t deadline_ns) {
  if (deadline_ns <= 0) return;
  struct timespec deadline;
  deadline.tv_sec = (time_t)(deadline_ns / GRT_NS_PER_SECOND);
  deadline.tv_nsec = (long)(deadline_ns % GRT_NS_PER_SECOND);
  // An absolute wake-up time makes the retry after a signal exact: a
  // relative sleep would restart its full length or need the remainder.
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) ==
         EINTR) {
  }
}

void grt_time_sleep_ns(grt_duration_t duration_ns) {
  if (duration_ns <= 0) return;
  grt_time_sleep_until_ns(grt_deadline_from_timeout_ns(duration_ns));
}

grt_time_t grt_deadline_from_timeout_ns(grt_duration_t timeout_ns) {
  if (timeout_ns == GRT_DURATION_INFINITE) return GRT_TIME_INFINITE_FUTURE;
  grt_time_t now = grt_time_now_ns();
  if (timeout_ns <= 0) return now;
  if (timeout_ns > GRT_TIME_INFINITE_FUTURE - now) {
    return GRT_TIME_INFINITE_FUTURE;
  }
  return now + timeout_ns;
}

grt_duration_t grt_timeout_from_deadline_ns(grt_time_t deadline_ns) {
  if (deadline_ns == GRT_TIME_INFINITE_FUTURE) return GRT_DURATION_INFINITE;
  grt_time_t now = grt_time_now_ns();
  return deadline_ns <= now ? GRT_DURATION_ZERO : deadline_ns - now;
}
