// Time: the monotonic clock, sleeping, and the deadlines that every blocking
// grt call (HAL semaphore waits, fences, worker pools) takes.
//
// Blocking APIs take an absolute deadline rather than a timeout so that a
// wait made of several steps (wait on A, then on B) shares one budget.
// Callers that hold a timeout convert it once with
// grt_deadline_from_timeout_ns.
#ifndef GRT_BASE_TIME_H_
#define GRT_BASE_TIME_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Nanoseconds on the monotonic clock: unaffected by wall-clock changes,
// meaningful only relative to other readings in the same boot.
typedef int64_t grt_time_t;
// A span of nanoseconds.
typedef int64_t grt_duration_t;

#define GRT_TIME_INFINITE_FUTURE INT64_MAX
#define GRT_TIME_INFINITE_PAST INT64_MIN
#define GRT_DURATION_INFINITE INT64_MAX
#define GRT_DURATION_ZERO 0

grt_time_t grt_time_now_ns(void);

// Sleeps at least |duration_ns| (not at all when <= 0), resuming after
// signal interruptions until the full time has passed.
void grt_time_sleep_ns(grt_duration_t duration_ns);

// Sleeps until the monotonic clock reaches |deadline_ns|.
void grt_time_sleep_until_ns(grt_time_t deadline_ns);

// GRT_DURATION_INFINITE gives GRT_TIME_INFINITE_FUTURE; a timeout <= 0
// gives a deadline that has already passed (poll once, do not block).
// Sums beyond the clock's range saturate to GRT_TIME_INFINITE_FUTURE.
grt_time_t grt_deadline_from_timeout_ns(grt_duration_t timeout_ns);

// Time left until |deadline_ns|: 0 once it has passed,
// GRT_DURATION_INFINITE for GRT_TIME_INFINITE_FUTURE.
grt_duration_t grt_timeout_from_deadline_ns(grt_time_t deadline_ns);

#ifdef __cplusplus
}
#endif

#endif  // GRT_BASE_TIME_H_
