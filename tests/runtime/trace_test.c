// Tracing end to end (base/trace.h, runtime/trace_recorder.h): a
// grt-compile'd model run through a session on both CPU drivers with a
// recorder attached. Its dispatches arrive with their kernel names and
// their source locations in trace.mlir, on the local-task workers that ran
// them; the queue submits, waits and the VM call arrive too. Then calls
// run on one thread while another attaches and detaches recorders, which
// must be clean under ThreadSanitizer (label concurrency).
//
//   runtime_trace_test TRACE.vmfb   (tests/runtime/trace.mlir)
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/string_builder.h"
#include "base/trace.h"
#include "hal/transfer.h"
#include "runtime/session.h"
#include "runtime/trace_recorder.h"
#include "tests/runtime/test_support.h"
#include "vm/test_support.h"

static const char* module_path;

typedef struct model_t {
  grt_runtime_instance_t* instance;
  grt_hal_device_t* device;
  grt_runtime_session_t* session;
  grt_hal_buffer_view_t* inputs[3];
} model_t;

static void model_open(model_t* model, const char* device_uri) {
  memset(model, 0, sizeof(*model));
  GRT_EXPECT_OK(grt_runtime_instance_create(NULL, &model->instance));
  grt_hal_device_options_t options = {2};
  GRT_EXPECT_OK(grt_runtime_instance_create_device(
      model->instance, device_uri, &options, &model->device));
  GRT_EXPECT_OK(grt_runtime_session_create(model->instance, model->device,
                                           &model->session));
  GRT_EXPECT_OK(
      grt_runtime_session_append_module_from_file(model->session, module_path));
  GRT_EXPECT_OK(grt_runtime_test_filled_view(model->device, 256, 64, 1.0f,
                                             &model->inputs[0]));
  GRT_EXPECT_OK(grt_runtime_test_filled_view(model->device, 64, 96, 0.5f,
                                             &model->inputs[1]));
  GRT_EXPECT_OK(grt_runtime_test_filled_view(model->device, 256, 96, -1.0f,
                                             &model->inputs[2]));
}

static void model_close(model_t* model) {
  for (int i = 0; i < 3; ++i) grt_hal_buffer_view_release(model->inputs[i]);
  grt_runtime_session_release(model->session);
  grt_hal_device_release(model->device);
  grt_runtime_instance_release(model->instance);
}

// main(x, w, b) = relu(x.w + b), and its row sums: 64 * 0.5 - 1 = 31 per
// element, 31 * 96 per row.
static void model_call(model_t* model) {
  grt_hal_buffer_view_t* outputs[2] = {NULL, NULL};
  size_t output_count = 0;
  GRT_EXPECT_OK(grt_runtime_call_buffer_views(model->session, "main", 3,
                                              model->inputs, 2, outputs,
                                              &output_count));
  assert_int_equal(output_count, 2);
  float sums[256];
  GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(model->device, outputs[1],
                                                 sums, sizeof(sums)));
  assert_true(sums[0] == 31.0f * 96.0f && sums[255] == 31.0f * 96.0f);
  grt_hal_buffer_view_release(outputs[0]);
  grt_hal_buffer_view_release(outputs[1]);
}

static char* recorder_json(grt_trace_recorder_t* recorder) {
  grt_string_builder_t json;
  grt_string_builder_init(grt_allocator_system(), &json);
  GRT_EXPECT_OK(grt_trace_recorder_format_json(recorder, &json));
  char* copy = strdup(grt_string_builder_cstring(&json));
  grt_string_builder_deinit(&json);
  return copy;
}

static void expect_contains(const char* text, const char* part) {
  if (!strstr(text, part)) fail_msg("missing \"%s\" in the trace", part);
}

static void run_traced(const char* device_uri, bool expect_workers) {
  grt_trace_recorder_t* recorder = NULL;
  GRT_EXPECT_OK(grt_trace_recorder_create(NULL, grt_allocator_system(),
                                          &recorder));
  GRT_EXPECT_OK(grt_trace_attach(grt_trace_recorder_sink(recorder)));
  model_t model;
  model_open(&model, device_uri);
  for (int i = 0; i < 3; ++i) model_call(&model);
  grt_trace_detach(grt_trace_recorder_sink(recorder));
  size_t events = grt_trace_recorder_event_count(recorder);
  // Nothing arrives once detached.
  model_call(&model);
  assert_int_equal(grt_trace_recorder_event_count(recorder), events);

  grt_trace_statistics_t stats;
  GRT_EXPECT_OK(grt_trace_recorder_statistics(recorder, grt_allocator_system(),
                                              &stats));
  // Two dispatches per call, each kernel with its root op's line.
  assert_int_equal(stats.dispatches, 6);
  assert_int_equal(stats.kernel_count, 2);
  assert_int_equal(stats.calls, 3);
  assert_true(stats.waits >= 3);
  for (size_t i = 0; i < stats.kernel_count; ++i) {
    const grt_trace_kernel_statistics_t* kernel = &stats.kernels[i];
    assert_int_equal(kernel->dispatches, 3);
    bool first = grt_string_view_equal_cstring(kernel->name, "main_dispatch_0");
    assert_true(first ||
                grt_string_view_equal_cstring(kernel->name, "main_dispatch_1"));
    grt_string_view_t want =
        grt_make_cstring_view(first ? "trace.mlir:12:8" : "trace.mlir:14:8");
    assert_true(grt_string_view_ends_with(kernel->location, want));
  }
  grt_trace_statistics_deinitialize(grt_allocator_system(), &stats);

  char* json = recorder_json(recorder);
  expect_contains(json, "\"name\": \"queue.execute\", \"cat\": \"submit\"");
  expect_contains(json, "\"name\": \"wait\", \"cat\": \"wait\"");
  expect_contains(json, "\"name\": \"main\", \"cat\": \"call\"");
  if (expect_workers) {
    // Which of the two workers ran the six dispatches is up to the
    // scheduler: worker 0 is the queue thread itself, worker 1 the pool's
    // one thread (a loaded machine may leave it idle: the queue thread then
    // runs every task). Each dispatch slice names worker 0 or 1, and the
    // pool's thread, when the trace names it, ran some of them.
    expect_contains(json, "\"args\": {\"name\": \"local-task queue\"}");
    expect_contains(json, "\"name\": \"execute\", \"cat\": \"execute\"");
    assert_true(strstr(json, "\"worker\": 0}") || strstr(json, "\"worker\": 1}"));
    assert_null(strstr(json, "\"worker\": 2}"));
    assert_null(strstr(json, "\"args\": {\"name\": \"local-task worker 0\"}"));
    if (strstr(json, "\"args\": {\"name\": \"local-task worker 1\"}")) {
      expect_contains(json, "\"worker\": 1}");
    }
  }
  free(json);
  model_close(&model);
  grt_trace_recorder_destroy(recorder);
}

static void test_trace_local_sync(void** state) {
  (void)state;
  run_traced("local-sync", false);
}

static void test_trace_local_task(void** state) {
  (void)state;
  run_traced("local-task", true);
}

// Calls on one thread while this one turns tracing on and off.
typedef struct caller_t {
  model_t* model;
  atomic_bool stop;
  atomic_int calls;
} caller_t;

static void* caller_main(void* arg) {
  caller_t* caller = arg;
  while (!atomic_load(&caller->stop)) {
    model_call(caller->model);
    atomic_fetch_add(&caller->calls, 1);
  }
  return NULL;
}

static void test_tracing_toggled_during_calls(void** state) {
  (void)state;
  model_t model;
  model_open(&model, "local-task");
  caller_t caller = {&model, false, 0};
  pthread_t thread;
  assert_int_equal(pthread_create(&thread, NULL, caller_main, &caller), 0);
  for (int round = 0; round < 20; ++round) {
    grt_trace_recorder_t* recorder = NULL;
    GRT_EXPECT_OK(grt_trace_recorder_create(NULL, grt_allocator_system(),
                                            &recorder));
    GRT_EXPECT_OK(grt_trace_attach(grt_trace_recorder_sink(recorder)));
    // Until some call has run under this recorder (no timing involved).
    int calls = atomic_load(&caller.calls);
    while (atomic_load(&caller.calls) < calls + 1) sched_yield();
    grt_trace_detach(grt_trace_recorder_sink(recorder));
    char* json = recorder_json(recorder);
    free(json);
    grt_trace_recorder_destroy(recorder);
  }
  atomic_store(&caller.stop, true);
  assert_int_equal(pthread_join(thread, NULL), 0);
  model_close(&model);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s TRACE.vmfb\n", argv[0]);
    return 2;
  }
  module_path = argv[1];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_trace_local_sync),
      cmocka_unit_test(test_trace_local_task),
      cmocka_unit_test(test_tracing_toggled_during_calls),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
