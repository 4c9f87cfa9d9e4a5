// The process-wide trace sink (trace.h).
#include "base/trace.h"

#include <sched.h>
#include <stdatomic.h>
#include <string.h>

int grt_trace_enabled_flag = 0;

static _Atomic(grt_trace_sink_t*) grt_trace_sink = NULL;
// Record calls between loading the sink and returning from it: detach waits
// for this to reach zero. Every access is sequentially consistent, so a
// record call that found the sink still attached is always seen here by
// the detach that removed it (it incremented before it loaded; detach
// removed before it reads).
static atomic_uint grt_trace_in_flight = 0;
static atomic_uint grt_trace_next_thread_id = 0;

static _Thread_local grt_string_view_t grt_trace_thread_location = {"", 0};
static _Thread_local char grt_trace_thread_name_storage
    [GRT_TRACE_THREAD_NAME_CAPACITY];
static _Thread_local uint32_t grt_trace_thread_id_value = 0;

grt_status_t grt_trace_attach(grt_trace_sink_t* sink) {
  if (!sink || !sink->record) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "trace sink has no record function");
  }
  if (!GRT_TRACING) {
    return grt_make_status(GRT_STATUS_UNAVAILABLE,
                           "this runtime is built without trace points "
                           "(GRT_ENABLE_TRACING=OFF)");
  }
  grt_trace_sink_t* expected = NULL;
  if (!atomic_compare_exchange_strong(&grt_trace_sink, &expected, sink)) {
    return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                           "another trace sink is already attached; there "
                           "is one per process");
  }
  __atomic_store_n(&grt_trace_enabled_flag, 1, __ATOMIC_SEQ_CST);
  return grt_ok_status();
}

void grt_trace_detach(grt_trace_sink_t* sink) {
  grt_trace_sink_t* expected = sink;
  if (!atomic_compare_exchange_strong(&grt_trace_sink, &expected, NULL)) {
    return;
  }
  __atomic_store_n(&grt_trace_enabled_flag, 0, __ATOMIC_SEQ_CST);
  // Record calls that loaded |sink| before it was removed finish quickly
  // (a sink appends to memory); nothing can start a new one into it.
  while (atomic_load(&grt_trace_in_flight) != 0) sched_yield();
}

void grt_trace_record(const grt_trace_event_t* event) {
  atomic_fetch_add(&grt_trace_in_flight, 1);
  grt_trace_sink_t* sink = atomic_load(&grt_trace_sink);
  if (sink) sink->record(sink, event);
  atomic_fetch_sub(&grt_trace_in_flight, 1);
}

void grt_trace_set_location(grt_string_view_t location) {
  grt_trace_thread_location = location;
}

grt_string_view_t grt_trace_location(void) {
  return grt_trace_thread_location;
}

void grt_trace_set_thread_name(const char* name) {
  size_t length = name ? strlen(name) : 0;
  if (length >= GRT_TRACE_THREAD_NAME_CAPACITY) {
    length = GRT_TRACE_THREAD_NAME_CAPACITY - 1;
  }
  if (length) memcpy(grt_trace_thread_name_storage, name, length);
  grt_trace_thread_name_storage[length] = '\0';
}

const char* grt_trace_thread_name(void) {
  return grt_trace_thread_name_storage;
}

uint32_t grt_trace_thread_id(void) {
  if (grt_trace_thread_id_value == 0) {
    grt_trace_thread_id_value = atomic_fetch_add(&grt_trace_next_thread_id, 1) + 1;
  }
  return grt_trace_thread_id_value;
}
