// Semaphores: timeline semaphores, the one synchronization primitive of the
// HAL (docs/architecture.md §5).
//
// A semaphore holds a monotonically increasing 64-bit value. Work waits for
// a value to be reached and signals new values when it finishes. A failed
// semaphore keeps the failure's status (code and message) forever: every
// later query or wait returns a copy of it, so an error raised inside a
// queue reaches whoever waits on the result.
//
// hal/semaphore.c also provides the host implementation (mutex + condition
// variable, no spinning) that CPU drivers use directly and GPU drivers can
// use for host-side signalling.
#ifndef GRT_HAL_SEMAPHORE_H_
#define GRT_HAL_SEMAPHORE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/time.h"
#include "hal/resource.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_hal_semaphore_t grt_hal_semaphore_t;

// Waits: "forever" and "just poll".
#define GRT_HAL_TIMEOUT_INFINITE INT64_MAX
#define GRT_HAL_TIMEOUT_IMMEDIATE 0

typedef struct grt_hal_semaphore_vtable_t {
  grt_hal_resource_vtable_t base;
  // Current value; if the semaphore failed, a copy of its failure status.
  grt_status_t (*query)(grt_hal_semaphore_t* semaphore, uint64_t* out_value);
  // |value| must be greater than the current value.
  grt_status_t (*signal)(grt_hal_semaphore_t* semaphore, uint64_t value);
  // Takes ownership of |status| (not OK).
  void (*fail)(grt_hal_semaphore_t* semaphore, grt_status_t status);
  // Until value >= |value|, failure, or the deadline (DEADLINE_EXCEEDED).
  grt_status_t (*wait)(grt_hal_semaphore_t* semaphore, uint64_t value,
                       grt_time_t deadline_ns);
} grt_hal_semaphore_vtable_t;

struct grt_hal_semaphore_t {
  grt_hal_resource_t resource;
};

static inline void grt_hal_semaphore_retain(grt_hal_semaphore_t* s) {
  grt_hal_resource_retain(s);
}
static inline void grt_hal_semaphore_release(grt_hal_semaphore_t* s) {
  grt_hal_resource_release(s);
}

grt_status_t grt_hal_semaphore_query(grt_hal_semaphore_t* semaphore,
                                     uint64_t* out_value) GRT_MUST_USE;
// Errors: FAILED_PRECONDITION "semaphore value must increase: current 5,
// signalled 3", or the semaphore's failure.
grt_status_t grt_hal_semaphore_signal(grt_hal_semaphore_t* semaphore,
                                      uint64_t value) GRT_MUST_USE;
// Fails the semaphore with |status| (ownership taken; an OK status becomes
// UNKNOWN "semaphore failed without a status"). The first failure wins.
void grt_hal_semaphore_fail(grt_hal_semaphore_t* semaphore, grt_status_t status);
// Waits with a relative timeout in nanoseconds (GRT_HAL_TIMEOUT_* allowed).
grt_status_t grt_hal_semaphore_wait(grt_hal_semaphore_t* semaphore,
                                    uint64_t value, grt_duration_t timeout_ns)
    GRT_MUST_USE;

// The host timeline semaphore.
grt_status_t grt_hal_host_semaphore_create(uint64_t initial_value,
                                           grt_allocator_t host_allocator,
                                           grt_hal_semaphore_t** out_semaphore)
    GRT_MUST_USE;

// A list of (semaphore, value) pairs, borrowed (not retained): the form in
// which queue operations take their waits and signals.
typedef struct grt_hal_semaphore_list_t {
  size_t count;
  grt_hal_semaphore_t* const* semaphores;
  const uint64_t* values;
} grt_hal_semaphore_list_t;

static inline grt_hal_semaphore_list_t grt_hal_semaphore_list_empty(void) {
  grt_hal_semaphore_list_t list = {0, NULL, NULL};
  return list;
}

// Signals every pair; stops at the first error.
grt_status_t grt_hal_semaphore_list_signal(grt_hal_semaphore_list_t list)
    GRT_MUST_USE;
// Fails every semaphore in the list with a copy of |status| (taking
// ownership of |status|).
void grt_hal_semaphore_list_fail(grt_hal_semaphore_list_t list,
                                 grt_status_t status);
// Waits until every pair is reached (or any fails, or the timeout).
grt_status_t grt_hal_semaphore_list_wait(grt_hal_semaphore_list_t list,
                                         grt_duration_t timeout_ns)
    GRT_MUST_USE;
// True when every pair is already reached; a failure is returned as error.
grt_status_t grt_hal_semaphore_list_poll(grt_hal_semaphore_list_t list,
                                         bool* out_reached) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_SEMAPHORE_H_
