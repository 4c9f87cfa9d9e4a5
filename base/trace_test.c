#include "base/trace.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

// A sink that counts what it is given.
typedef struct counting_sink_t {
  grt_trace_sink_t base;
  atomic_int events;
  atomic_int dispatches;
  // The last event's name (single-threaded tests only).
  char last_name[64];
} counting_sink_t;

static void counting_record(grt_trace_sink_t* sink,
                            const grt_trace_event_t* event) {
  counting_sink_t* counting = (counting_sink_t*)sink;
  atomic_fetch_add(&counting->events, 1);
  if (event->kind == GRT_TRACE_EVENT_DISPATCH) {
    atomic_fetch_add(&counting->dispatches, 1);
  }
  size_t n = event->name.size < sizeof(counting->last_name) - 1
                 ? event->name.size
                 : sizeof(counting->last_name) - 1;
  memcpy(counting->last_name, event->name.data, n);
  counting->last_name[n] = '\0';
}

static void counting_init(counting_sink_t* sink) {
  memset(sink, 0, sizeof(*sink));
  sink->base.record = counting_record;
}

static grt_trace_event_t make_event(const char* name) {
  grt_trace_event_t event;
  memset(&event, 0, sizeof(event));
  event.kind = GRT_TRACE_EVENT_DISPATCH;
  event.name = grt_make_cstring_view(name);
  event.worker_id = GRT_TRACE_NO_WORKER;
  return event;
}

static void test_off_by_default_and_events_dropped(void** state) {
  (void)state;
  assert_false(grt_trace_enabled());
  grt_trace_event_t event = make_event("nobody_listens");
  grt_trace_record(&event);  // no sink: nothing happens
}

static void test_attach_record_detach(void** state) {
  (void)state;
  counting_sink_t sink;
  counting_init(&sink);
  assert_null(grt_trace_attach(&sink.base));
  assert_true(grt_trace_enabled());
  grt_trace_event_t event = make_event("kernel_a");
  grt_trace_record(&event);
  assert_int_equal(atomic_load(&sink.events), 1);
  assert_string_equal(sink.last_name, "kernel_a");
  grt_trace_detach(&sink.base);
  assert_false(grt_trace_enabled());
  grt_trace_record(&event);
  assert_int_equal(atomic_load(&sink.events), 1);
  // Detaching what is not attached does nothing.
  grt_trace_detach(&sink.base);
}

static void test_second_sink_is_refused(void** state) {
  (void)state;
  counting_sink_t first, second;
  counting_init(&first);
  counting_init(&second);
  assert_null(grt_trace_attach(&first.base));
  grt_status_t status = grt_trace_attach(&second.base);
  assert_int_equal(grt_status_code(status), GRT_STATUS_FAILED_PRECONDITION);
  assert_string_equal(grt_status_message(status),
                      "another trace sink is already attached; there is one "
                      "per process");
  grt_status_free(status);
  // Detaching the other one leaves the first attached.
  grt_trace_detach(&second.base);
  assert_true(grt_trace_enabled());
  grt_trace_detach(&first.base);
  assert_false(grt_trace_enabled());
}

static void test_sink_without_record_is_refused(void** state) {
  (void)state;
  grt_trace_sink_t sink = {NULL};
  grt_status_t status = grt_trace_attach(&sink);
  assert_int_equal(grt_status_code(status), GRT_STATUS_INVALID_ARGUMENT);
  assert_string_equal(grt_status_message(status),
                      "trace sink has no record function");
  grt_status_free(status);
  assert_false(grt_trace_enabled());
}

static void test_location_and_thread_name_are_per_thread(void** state) {
  (void)state;
  assert_int_equal(grt_trace_location().size, 0);
  grt_trace_set_location(grt_make_cstring_view("m.mlir:3:10"));
  assert_true(grt_string_view_equal_cstring(grt_trace_location(),
                                            "m.mlir:3:10"));
  grt_trace_set_location(grt_string_view_empty());
  assert_int_equal(grt_trace_location().size, 0);

  assert_string_equal(grt_trace_thread_name(), "");
  grt_trace_set_thread_name("main");
  assert_string_equal(grt_trace_thread_name(), "main");
  // Long names are cut to the capacity.
  char long_name[2 * GRT_TRACE_THREAD_NAME_CAPACITY];
  memset(long_name, 'w', sizeof(long_name) - 1);
  long_name[sizeof(long_name) - 1] = '\0';
  grt_trace_set_thread_name(long_name);
  assert_int_equal(strlen(grt_trace_thread_name()),
                   GRT_TRACE_THREAD_NAME_CAPACITY - 1);
  grt_trace_set_thread_name(NULL);
  assert_string_equal(grt_trace_thread_name(), "");
}

typedef struct thread_ids_t {
  uint32_t id;
  uint32_t again;
  size_t name_length;
} thread_ids_t;

static void* thread_ids_main(void* arg) {
  thread_ids_t* ids = arg;
  ids->id = grt_trace_thread_id();
  ids->again = grt_trace_thread_id();
  ids->name_length = strlen(grt_trace_thread_name());
  return NULL;
}

static void test_thread_ids_are_distinct_and_stable(void** state) {
  (void)state;
  uint32_t mine = grt_trace_thread_id();
  assert_true(mine >= 1);
  assert_int_equal(grt_trace_thread_id(), mine);
  grt_trace_set_thread_name("named here only");
  thread_ids_t other;
  pthread_t thread;
  assert_int_equal(pthread_create(&thread, NULL, thread_ids_main, &other), 0);
  assert_int_equal(pthread_join(thread, NULL), 0);
  assert_true(other.id >= 1);
  assert_int_not_equal(other.id, mine);
  assert_int_equal(other.again, other.id);
  assert_int_equal(other.name_length, 0);  // names do not leak across
  grt_trace_set_thread_name(NULL);
}

// Threads record while the main thread attaches and detaches: every
// record call lands in the sink attached at the time or is dropped, and
// detach never returns while a record call into its sink is running (the
// sink is poisoned right after detach; a late call would trip the check).
typedef struct recording_thread_t {
  atomic_bool* stop;
} recording_thread_t;

typedef struct guarded_sink_t {
  grt_trace_sink_t base;
  atomic_bool detached;
  atomic_int late_calls;
  atomic_int events;
} guarded_sink_t;

static void guarded_record(grt_trace_sink_t* sink,
                           const grt_trace_event_t* event) {
  (void)event;
  guarded_sink_t* guarded = (guarded_sink_t*)sink;
  if (atomic_load(&guarded->detached)) atomic_fetch_add(&guarded->late_calls, 1);
  atomic_fetch_add(&guarded->events, 1);
}

static void* recording_main(void* arg) {
  recording_thread_t* thread = arg;
  grt_trace_event_t event = make_event("worker_kernel");
  while (!atomic_load(thread->stop)) {
    if (grt_trace_enabled()) grt_trace_record(&event);
  }
  return NULL;
}

static void test_detach_waits_for_record_calls(void** state) {
  (void)state;
  enum { kThreads = 3, kRounds = 200 };
  atomic_bool stop = false;
  recording_thread_t args = {&stop};
  pthread_t threads[kThreads];
  for (int i = 0; i < kThreads; ++i) {
    assert_int_equal(pthread_create(&threads[i], NULL, recording_main, &args),
                     0);
  }
  int total = 0;
  for (int round = 0; round < kRounds; ++round) {
    guarded_sink_t sink;
    memset(&sink, 0, sizeof(sink));
    sink.base.record = guarded_record;
    assert_null(grt_trace_attach(&sink.base));
    for (volatile int spin = 0; spin < 2000; ++spin) {
    }
    grt_trace_detach(&sink.base);
    atomic_store(&sink.detached, true);
    total += atomic_load(&sink.events);
    assert_int_equal(atomic_load(&sink.late_calls), 0);
  }
  atomic_store(&stop, true);
  for (int i = 0; i < kThreads; ++i) {
    assert_int_equal(pthread_join(threads[i], NULL), 0);
  }
  (void)total;  // how many landed depends on scheduling; none may be late
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_off_by_default_and_events_dropped),
      cmocka_unit_test(test_attach_record_detach),
      cmocka_unit_test(test_second_sink_is_refused),
      cmocka_unit_test(test_sink_without_record_is_refused),
      cmocka_unit_test(test_location_and_thread_name_are_per_thread),
      cmocka_unit_test(test_thread_ids_are_distinct_and_stable),
      cmocka_unit_test(test_detach_waits_for_record_calls),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
