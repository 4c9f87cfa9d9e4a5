// Semaphore wrappers, semaphore lists, and the host timeline semaphore.
//
// The host semaphore is a value guarded by a mutex and a condition variable
// on CLOCK_MONOTONIC (so deadlines from base/time.h apply directly and wall
// clock changes cannot stretch a wait). Waiters sleep; every signal or
// failure broadcasts, since waiters wait for different values.
#include "hal/semaphore.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/trace.h"

//===----------------------------------------------------------------------===//
// Wrappers
//===----------------------------------------------------------------------===//

grt_status_t grt_hal_semaphore_query(grt_hal_semaphore_t* semaphore,
                                     uint64_t* out_value) {
  *out_value = 0;
  return GRT_HAL_VTABLE(semaphore, grt_hal_semaphore_vtable_t)
      ->query(semaphore, out_value);
}

grt_status_t grt_hal_semaphore_signal(grt_hal_semaphore_t* semaphore,
                                      uint64_t value) {
  return GRT_HAL_VTABLE(semaphore, grt_hal_semaphore_vtable_t)
      ->signal(semaphore, value);
}

void grt_hal_semaphore_fail(grt_hal_semaphore_t* semaphore,
                            grt_status_t status) {
  if (grt_status_is_ok(status)) {
    status = grt_make_status(GRT_STATUS_UNKNOWN,
                             "semaphore failed without a status");
  }
  GRT_HAL_VTABLE(semaphore, grt_hal_semaphore_vtable_t)->fail(semaphore, status);
}

// "10 ms", "250 us", "7 ns": the unit the caller most likely wrote.
static void grt_hal_format_duration(grt_duration_t ns, char* out,
                                    size_t capacity) {
  if (ns >= 1000000 && ns % 1000000 == 0) {
    snprintf(out, capacity, "%" PRId64 " ms", ns / 1000000);
  } else if (ns >= 1000 && ns % 1000 == 0) {
    snprintf(out, capacity, "%" PRId64 " us", ns / 1000);
  } else {
    snprintf(out, capacity, "%" PRId64 " ns", ns);
  }
}

// Waits on one semaphore until |deadline|; a timeout is reported with the
// caller's |timeout_ns| and the value reached so far.
static grt_status_t grt_hal_semaphore_wait_until(grt_hal_semaphore_t* semaphore,
                                                 uint64_t value,
                                                 grt_time_t deadline,
                                                 grt_duration_t timeout_ns) {
  grt_status_t status = GRT_HAL_VTABLE(semaphore, grt_hal_semaphore_vtable_t)
                            ->wait(semaphore, value, deadline);
  if (grt_status_code(status) != GRT_STATUS_DEADLINE_EXCEEDED) return status;
  grt_status_free(status);
  uint64_t current = 0;
  GRT_RETURN_IF_ERROR(grt_hal_semaphore_query(semaphore, &current));
  char timeout_text[32];
  grt_hal_format_duration(timeout_ns < 0 ? 0 : timeout_ns, timeout_text,
                          sizeof(timeout_text));
  return grt_make_status(GRT_STATUS_DEADLINE_EXCEEDED,
                         "semaphore did not reach %" PRIu64
                         " within %s (value %" PRIu64 ")",
                         value, timeout_text, current);
}

grt_status_t grt_hal_semaphore_wait(grt_hal_semaphore_t* semaphore,
                                    uint64_t value, grt_duration_t timeout_ns) {
  return grt_hal_semaphore_wait_until(
      semaphore, value, grt_deadline_from_timeout_ns(timeout_ns), timeout_ns);
}

//===----------------------------------------------------------------------===//
// Lists
//===----------------------------------------------------------------------===//

grt_status_t grt_hal_semaphore_list_signal(grt_hal_semaphore_list_t list) {
  for (size_t i = 0; i < list.count; ++i) {
    GRT_RETURN_IF_ERROR(
        grt_hal_semaphore_signal(list.semaphores[i], list.values[i]));
  }
  return grt_ok_status();
}

void grt_hal_semaphore_list_fail(grt_hal_semaphore_list_t list,
                                 grt_status_t status) {
  if (grt_status_is_ok(status)) {
    status = grt_make_status(GRT_STATUS_UNKNOWN,
                             "semaphore failed without a status");
  }
  for (size_t i = 0; i < list.count; ++i) {
    grt_hal_semaphore_fail(list.semaphores[i], grt_status_clone(status));
  }
  grt_status_free(status);
}

static grt_status_t grt_hal_semaphore_list_wait_untraced(
    grt_hal_semaphore_list_t list, grt_duration_t timeout_ns) {
  // One deadline for the whole list: waiting on each in turn then costs at
  // most the timeout in total.
  grt_time_t deadline = grt_deadline_from_timeout_ns(timeout_ns);
  for (size_t i = 0; i < list.count; ++i) {
    grt_status_t status = grt_hal_semaphore_wait_until(
        list.semaphores[i], list.values[i], deadline, timeout_ns);
    if (!grt_status_is_ok(status) && list.count > 1) {
      return grt_status_annotate(status, "semaphore %zu of %zu", i,
                                 list.count);
    }
    GRT_RETURN_IF_ERROR(status);
  }
  return grt_ok_status();
}

grt_status_t grt_hal_semaphore_list_wait(grt_hal_semaphore_list_t list,
                                         grt_duration_t timeout_ns) {
  if (list.count == 0 || !grt_trace_enabled()) {
    return grt_hal_semaphore_list_wait_untraced(list, timeout_ns);
  }
  grt_trace_event_t event;
  memset(&event, 0, sizeof(event));
  event.kind = GRT_TRACE_EVENT_WAIT;
  event.name = grt_make_cstring_view("wait");
  event.worker_id = GRT_TRACE_NO_WORKER;
  event.count = list.count;
  event.start_ns = grt_time_now_ns();
  grt_status_t status = grt_hal_semaphore_list_wait_untraced(list, timeout_ns);
  event.end_ns = grt_time_now_ns();
  grt_trace_record(&event);
  return status;
}

grt_status_t grt_hal_semaphore_list_poll(grt_hal_semaphore_list_t list,
                                         bool* out_reached) {
  *out_reached = false;
  bool reached = true;
  for (size_t i = 0; i < list.count; ++i) {
    uint64_t value = 0;
    GRT_RETURN_IF_ERROR(grt_hal_semaphore_query(list.semaphores[i], &value));
    if (value < list.values[i]) reached = false;
  }
  *out_reached = reached;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Host semaphore
//===----------------------------------------------------------------------===//

typedef struct grt_hal_host_semaphore_t {
  grt_hal_semaphore_t base;
  grt_allocator_t host_allocator;
  pthread_mutex_t mutex;
  pthread_cond_t cond;  // broadcast on every signal and failure
  uint64_t value;
  grt_status_t failure;  // owned; the first failure, kept forever
} grt_hal_host_semaphore_t;

static const grt_hal_semaphore_vtable_t grt_hal_host_semaphore_vtable;

static grt_hal_host_semaphore_t* grt_hal_host_semaphore_cast(
    grt_hal_semaphore_t* semaphore) {
  return (grt_hal_host_semaphore_t*)semaphore;
}

static void grt_hal_host_semaphore_destroy(grt_hal_resource_t* resource) {
  grt_hal_host_semaphore_t* semaphore = (grt_hal_host_semaphore_t*)resource;
  grt_status_free(semaphore->failure);
  pthread_cond_destroy(&semaphore->cond);
  pthread_mutex_destroy(&semaphore->mutex);
  grt_allocator_free(semaphore->host_allocator, semaphore);
}

static grt_status_t grt_hal_host_semaphore_query(grt_hal_semaphore_t* base,
                                                 uint64_t* out_value) {
  grt_hal_host_semaphore_t* semaphore = grt_hal_host_semaphore_cast(base);
  pthread_mutex_lock(&semaphore->mutex);
  *out_value = semaphore->value;
  grt_status_t status = grt_status_clone(semaphore->failure);
  pthread_mutex_unlock(&semaphore->mutex);
  return status;
}

static grt_status_t grt_hal_host_semaphore_signal(grt_hal_semaphore_t* base,
                                                  uint64_t value) {
  grt_hal_host_semaphore_t* semaphore = grt_hal_host_semaphore_cast(base);
  pthread_mutex_lock(&semaphore->mutex);
  grt_status_t status = grt_ok_status();
  if (semaphore->failure) {
    status = grt_status_clone(semaphore->failure);
  } else if (value <= semaphore->value) {
    status = grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                             "semaphore value must increase: current %" PRIu64
                             ", signalled %" PRIu64,
                             semaphore->value, value);
  } else {
    semaphore->value = value;
    pthread_cond_broadcast(&semaphore->cond);
  }
  pthread_mutex_unlock(&semaphore->mutex);
  return status;
}

static void grt_hal_host_semaphore_fail(grt_hal_semaphore_t* base,
                                        grt_status_t status) {
  grt_hal_host_semaphore_t* semaphore = grt_hal_host_semaphore_cast(base);
  pthread_mutex_lock(&semaphore->mutex);
  if (!semaphore->failure) {
    semaphore->failure = status;
    status = grt_ok_status();
    pthread_cond_broadcast(&semaphore->cond);
  }
  pthread_mutex_unlock(&semaphore->mutex);
  grt_status_free(status);  // a later failure loses to the first
}

static grt_status_t grt_hal_host_semaphore_wait(grt_hal_semaphore_t* base,
                                                uint64_t value,
                                                grt_time_t deadline_ns) {
  grt_hal_host_semaphore_t* semaphore = grt_hal_host_semaphore_cast(base);
  struct timespec abstime;
  abstime.tv_sec = (time_t)(deadline_ns / 1000000000);
  abstime.tv_nsec = (long)(deadline_ns % 1000000000);
  if (deadline_ns < 0) {
    abstime.tv_sec = 0;
    abstime.tv_nsec = 0;
  }
  grt_status_t status = grt_ok_status();
  pthread_mutex_lock(&semaphore->mutex);
  while (!semaphore->failure && semaphore->value < value) {
    if (deadline_ns == GRT_TIME_INFINITE_FUTURE) {
      pthread_cond_wait(&semaphore->cond, &semaphore->mutex);
      continue;
    }
    int rc = pthread_cond_timedwait(&semaphore->cond, &semaphore->mutex,
                                    &abstime);
    if (rc == ETIMEDOUT && !semaphore->failure && semaphore->value < value) {
      status = grt_make_status(GRT_STATUS_DEADLINE_EXCEEDED,
                               "semaphore did not reach %" PRIu64
                               " before the deadline (value %" PRIu64 ")",
                               value, semaphore->value);
      break;
    }
  }
  if (grt_status_is_ok(status) && semaphore->failure) {
    status = grt_status_clone(semaphore->failure);
  }
  pthread_mutex_unlock(&semaphore->mutex);
  return status;
}

static const grt_hal_semaphore_vtable_t grt_hal_host_semaphore_vtable = {
    .base = {.destroy = grt_hal_host_semaphore_destroy},
    .query = grt_hal_host_semaphore_query,
    .signal = grt_hal_host_semaphore_signal,
    .fail = grt_hal_host_semaphore_fail,
    .wait = grt_hal_host_semaphore_wait,
};

grt_status_t grt_hal_host_semaphore_create(uint64_t initial_value,
                                           grt_allocator_t host_allocator,
                                           grt_hal_semaphore_t** out_semaphore) {
  *out_semaphore = NULL;
  grt_hal_host_semaphore_t* semaphore = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(host_allocator, sizeof(*semaphore),
                                           (void**)&semaphore));
  pthread_condattr_t attr;
  int rc = pthread_condattr_init(&attr);
  if (rc == 0) rc = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  if (rc == 0) rc = pthread_cond_init(&semaphore->cond, &attr);
  pthread_condattr_destroy(&attr);
  if (rc != 0) {
    grt_allocator_free(host_allocator, semaphore);
    return grt_make_status(GRT_STATUS_INTERNAL,
                           "cannot create a monotonic condition variable "
                           "(error %d)",
                           rc);
  }
  rc = pthread_mutex_init(&semaphore->mutex, NULL);
  if (rc != 0) {
    pthread_cond_destroy(&semaphore->cond);
    grt_allocator_free(host_allocator, semaphore);
    return grt_make_status(GRT_STATUS_INTERNAL,
                           "cannot create a mutex (error %d)", rc);
  }
  grt_hal_resource_initialize(&grt_hal_host_semaphore_vtable,
                              &semaphore->base.resource);
  semaphore->host_allocator = host_allocator;
  semaphore->value = initial_value;
  semaphore->failure = grt_ok_status();
  *out_semaphore = &semaphore->base;
  return grt_ok_status();
}
