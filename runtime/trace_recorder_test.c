#include "runtime/trace_recorder.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/string_builder.h"

static grt_trace_recorder_t* make_recorder(size_t max_events) {
  grt_trace_recorder_options_t options = {max_events, "recorder-test"};
  grt_trace_recorder_t* recorder = NULL;
  assert_null(grt_trace_recorder_create(&options, grt_allocator_system(),
                                        &recorder));
  return recorder;
}

// Records a DISPATCH event of |ns| nanoseconds that ran workgroups
// [first, first + count) of a 4x1x1 grid.
static void record_dispatch(grt_trace_recorder_t* recorder, const char* name,
                            const char* location, int64_t start, int64_t ns,
                            uint64_t first, uint64_t count) {
  grt_trace_event_t event;
  memset(&event, 0, sizeof(event));
  event.kind = GRT_TRACE_EVENT_DISPATCH;
  event.name = grt_make_cstring_view(name);
  event.detail = grt_make_cstring_view(location);
  event.start_ns = start;
  event.end_ns = start + ns;
  event.worker_id = 1;
  event.workgroup_count[0] = 4;
  event.workgroup_count[1] = 1;
  event.workgroup_count[2] = 1;
  event.first_workgroup = first;
  event.workgroups = count;
  grt_trace_sink_t* sink = grt_trace_recorder_sink(recorder);
  sink->record(sink, &event);
}

static void record_kind(grt_trace_recorder_t* recorder,
                        grt_trace_event_kind_t kind, const char* name,
                        const char* detail, int64_t start, int64_t ns,
                        uint64_t count) {
  grt_trace_event_t event;
  memset(&event, 0, sizeof(event));
  event.kind = kind;
  event.name = grt_make_cstring_view(name);
  event.detail = grt_make_cstring_view(detail);
  event.start_ns = start;
  event.end_ns = start + ns;
  event.worker_id = GRT_TRACE_NO_WORKER;
  event.count = count;
  grt_trace_sink_t* sink = grt_trace_recorder_sink(recorder);
  sink->record(sink, &event);
}

static char* format_json(grt_trace_recorder_t* recorder) {
  grt_string_builder_t json;
  grt_string_builder_init(grt_allocator_system(), &json);
  assert_null(grt_trace_recorder_format_json(recorder, &json));
  char* copy = strdup(grt_string_builder_cstring(&json));
  grt_string_builder_deinit(&json);
  return copy;
}

static void expect_contains(const char* text, const char* part) {
  if (!strstr(text, part)) fail_msg("missing \"%s\" in:\n%s", part, text);
}

static void test_json_events(void** state) {
  (void)state;
  grt_trace_set_thread_name("recorder test main");
  grt_trace_recorder_t* recorder = make_recorder(0);
  record_dispatch(recorder, "main_dispatch_0", "m.mlir:3:10", 1000, 2500, 0,
                  4);
  record_kind(recorder, GRT_TRACE_EVENT_SUBMIT, "queue.execute", "local-task",
              500, 4000, 1);
  record_kind(recorder, GRT_TRACE_EVENT_WAIT, "wait", "", 600, 3000, 2);
  record_kind(recorder, GRT_TRACE_EVENT_CALL, "main", "m", 0, 10000, 0);
  record_kind(recorder, GRT_TRACE_EVENT_TRANSFER, "copy", "", 7000, 10, 64);
  record_kind(recorder, GRT_TRACE_EVENT_EXECUTE, "execute", "local-task", 800,
              3300, 1);
  assert_int_equal(grt_trace_recorder_event_count(recorder), 6);
  char* json = format_json(recorder);
  expect_contains(json, "{\"traceEvents\": [\n");
  expect_contains(json, "\"name\": \"process_name\", \"ph\": \"M\"");
  expect_contains(json, "\"args\": {\"name\": \"recorder-test\"}");
  char thread[128];
  snprintf(thread, sizeof(thread),
           "\"tid\": %u, \"args\": {\"name\": \"recorder test main\"}",
           grt_trace_thread_id());
  expect_contains(json, thread);
  expect_contains(json,
                  "{\"name\": \"main_dispatch_0\", \"cat\": \"dispatch\", "
                  "\"ph\": \"X\", \"ts\": ");
  expect_contains(json, "\"dur\": 2.500, ");
  expect_contains(json,
                  "\"args\": {\"location\": \"m.mlir:3:10\", "
                  "\"workgroup_count\": [4, 1, 1], \"first_workgroup\": 0, "
                  "\"workgroups\": 4, \"worker\": 1}}");
  expect_contains(json, "\"cat\": \"submit\"");
  expect_contains(json, "\"args\": {\"device\": \"local-task\", "
                        "\"command_buffers\": 1}}");
  expect_contains(json, "\"args\": {\"semaphores\": 2}}");
  expect_contains(json, "\"args\": {\"module\": \"m\"}}");
  expect_contains(json, "\"args\": {\"bytes\": 64}}");
  expect_contains(json, "\"cat\": \"execute\"");
  expect_contains(json, "\"otherData\": {\"dropped_events\": 0}}\n");
  free(json);
  grt_trace_recorder_destroy(recorder);
  grt_trace_set_thread_name(NULL);
}

static void test_json_strings_are_escaped(void** state) {
  (void)state;
  grt_trace_recorder_t* recorder = make_recorder(0);
  // Quotes, backslashes, control bytes and bytes that are not UTF-8 (a
  // module's names are untrusted); valid UTF-8 stays as it is.
  record_dispatch(recorder, "k\"\\\n\x01", "caf\xc3\xa9.mlir:\xff\xc3:1", 0,
                  1, 0, 1);
  char* json = format_json(recorder);
  expect_contains(json, "\"name\": \"k\\\"\\\\\\u000a\\u0001\"");
  expect_contains(json, "\"location\": \"caf\xc3\xa9.mlir:\\ufffd\\ufffd:1\"");
  free(json);
  grt_trace_recorder_destroy(recorder);
}

static void test_timestamps_are_exact_microseconds(void** state) {
  (void)state;
  grt_trace_recorder_t* recorder = make_recorder(0);
  // Far from the origin and 1 ns long: printed exactly, not rounded (a
  // double of microseconds would lose the nanosecond).
  grt_time_t now = grt_time_now_ns();
  record_dispatch(recorder, "k", "", now + 123456789001, 1, 0, 1);
  // An end before the start (clock trouble) is a zero duration.
  record_dispatch(recorder, "k", "", now, -5, 0, 1);
  char* json = format_json(recorder);
  expect_contains(json, "\"dur\": 0.001, ");
  expect_contains(json, "\"dur\": 0.000, ");
  free(json);
  grt_trace_recorder_destroy(recorder);
}

static void test_statistics_by_kernel(void** state) {
  (void)state;
  grt_trace_recorder_t* recorder = make_recorder(0);
  // "big" ran twice, each split over two workers; "small" once; "big" at
  // another location is another kernel.
  record_dispatch(recorder, "big", "m.mlir:1:1", 0, 300, 0, 2);
  record_dispatch(recorder, "big", "m.mlir:1:1", 0, 200, 2, 2);
  record_dispatch(recorder, "small", "m.mlir:2:1", 0, 100, 0, 4);
  record_dispatch(recorder, "big", "m.mlir:1:1", 0, 500, 0, 4);
  record_dispatch(recorder, "big", "m.mlir:9:1", 0, 50, 0, 4);
  record_kind(recorder, GRT_TRACE_EVENT_WAIT, "wait", "", 0, 70, 1);
  record_kind(recorder, GRT_TRACE_EVENT_TRANSFER, "fill", "", 0, 30, 8);
  record_kind(recorder, GRT_TRACE_EVENT_CALL, "main", "m", 0, 2000, 0);
  grt_trace_statistics_t stats;
  assert_null(grt_trace_recorder_statistics(recorder, grt_allocator_system(),
                                            &stats));
  assert_int_equal(stats.kernel_count, 3);
  assert_int_equal(stats.dispatches, 4);
  assert_int_equal(stats.dispatch_ns, 1150);
  assert_int_equal(stats.waits, 1);
  assert_int_equal(stats.wait_ns, 70);
  assert_int_equal(stats.transfers, 1);
  assert_int_equal(stats.transfer_ns, 30);
  assert_int_equal(stats.calls, 1);
  assert_int_equal(stats.call_ns, 2000);
  assert_true(grt_string_view_equal_cstring(stats.kernels[0].name, "big"));
  assert_true(
      grt_string_view_equal_cstring(stats.kernels[0].location, "m.mlir:1:1"));
  assert_int_equal(stats.kernels[0].dispatches, 2);
  assert_int_equal(stats.kernels[0].total_ns, 1000);
  assert_true(grt_string_view_equal_cstring(stats.kernels[1].name, "small"));
  assert_int_equal(stats.kernels[1].total_ns, 100);
  assert_true(
      grt_string_view_equal_cstring(stats.kernels[2].location, "m.mlir:9:1"));

  // The table: top 2, the rest in one line, then the total.
  char buffer[4096];
  FILE* stream = fmemopen(buffer, sizeof(buffer), "w");
  assert_non_null(stream);
  grt_trace_statistics_print(&stats, 2, "  ", stream);
  fclose(stream);
  expect_contains(buffer, "  dispatch_count: 4\n  dispatch_total_ns: 1150\n"
                          "  kernel_count: 3\n  transfer_count: 1\n"
                          "  transfer_total_ns: 30\n  wait_count: 1\n"
                          "  wait_total_ns: 70\n");
  expect_contains(buffer,
                  "  top dispatches by total time (2 of 3 kernels):\n"
                  "       count    total_ms     mean_us   share  kernel "
                  "[location]\n"
                  "           2       0.001       0.500   87.0%  big "
                  "[m.mlir:1:1]\n"
                  "           1       0.000       0.100    8.7%  small "
                  "[m.mlir:2:1]\n"
                  "           1       0.000                4.3%  (1 more "
                  "kernel)\n"
                  "           4       0.001              100.0%  (all "
                  "kernels)\n");
  grt_trace_statistics_deinitialize(grt_allocator_system(), &stats);
  grt_trace_recorder_destroy(recorder);
}

static void test_no_dispatches(void** state) {
  (void)state;
  grt_trace_recorder_t* recorder = make_recorder(0);
  grt_trace_statistics_t stats;
  assert_null(grt_trace_recorder_statistics(recorder, grt_allocator_system(),
                                            &stats));
  assert_int_equal(stats.kernel_count, 0);
  char buffer[1024];
  FILE* stream = fmemopen(buffer, sizeof(buffer), "w");
  grt_trace_statistics_print(&stats, 10, "", stream);
  fclose(stream);
  expect_contains(buffer, "dispatch_count: 0\n");
  assert_null(strstr(buffer, "top dispatches"));
  grt_trace_statistics_deinitialize(grt_allocator_system(), &stats);
  char* json = format_json(recorder);
  expect_contains(json, "\"args\": {\"name\": \"recorder-test\"}}\n],");
  free(json);
  grt_trace_recorder_destroy(recorder);
}

static void test_events_past_the_limit_are_dropped(void** state) {
  (void)state;
  grt_trace_recorder_t* recorder = make_recorder(2);
  for (int i = 0; i < 5; ++i) record_dispatch(recorder, "k", "", 0, 1, 0, 1);
  assert_int_equal(grt_trace_recorder_event_count(recorder), 2);
  assert_int_equal(grt_trace_recorder_dropped_count(recorder), 3);
  char* json = format_json(recorder);
  expect_contains(json, "\"otherData\": {\"dropped_events\": 3}}");
  free(json);
  grt_trace_statistics_t stats;
  assert_null(grt_trace_recorder_statistics(recorder, grt_allocator_system(),
                                            &stats));
  assert_int_equal(stats.dropped_events, 3);
  char buffer[2048];
  FILE* stream = fmemopen(buffer, sizeof(buffer), "w");
  grt_trace_statistics_print(&stats, 10, "", stream);
  fclose(stream);
  expect_contains(buffer, "dropped_events: 3\n");
  grt_trace_statistics_deinitialize(grt_allocator_system(), &stats);
  grt_trace_recorder_destroy(recorder);
}

static void test_many_events_and_strings(void** state) {
  (void)state;
  // Past one block of events and several growths of the string table.
  grt_trace_recorder_t* recorder = make_recorder(0);
  char name[32];
  for (int i = 0; i < 10000; ++i) {
    snprintf(name, sizeof(name), "kernel_%d", i % 300);
    record_dispatch(recorder, name, "", i, 1, 0, 1);
  }
  assert_int_equal(grt_trace_recorder_event_count(recorder), 10000);
  grt_trace_statistics_t stats;
  assert_null(grt_trace_recorder_statistics(recorder, grt_allocator_system(),
                                            &stats));
  assert_int_equal(stats.kernel_count, 300);
  assert_int_equal(stats.dispatches, 10000);
  grt_trace_statistics_deinitialize(grt_allocator_system(), &stats);
  grt_trace_recorder_destroy(recorder);
}

static void test_write_json_errors_name_the_path(void** state) {
  (void)state;
  grt_trace_recorder_t* recorder = make_recorder(0);
  grt_status_t status =
      grt_trace_recorder_write_json(recorder, "/nonexistent-dir/t.json");
  assert_int_equal(grt_status_code(status), GRT_STATUS_NOT_FOUND);
  assert_non_null(strstr(grt_status_message(status),
                         "cannot write '/nonexistent-dir/t.json'"));
  grt_status_free(status);
  // And a good path holds what format_json gives.
  char path[] = "/tmp/grt_trace_recorder_test_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  record_dispatch(recorder, "k", "", 0, 1, 0, 1);
  assert_null(grt_trace_recorder_write_json(recorder, path));
  char* json = format_json(recorder);
  FILE* file = fopen(path, "rb");
  char written[4096];
  size_t size = fread(written, 1, sizeof(written) - 1, file);
  fclose(file);
  written[size] = '\0';
  assert_string_equal(written, json);
  free(json);
  unlink(path);
  grt_trace_recorder_destroy(recorder);
}

static void test_destroy_detaches(void** state) {
  (void)state;
  grt_trace_recorder_t* recorder = make_recorder(0);
  assert_null(grt_trace_attach(grt_trace_recorder_sink(recorder)));
  assert_true(grt_trace_enabled());
  grt_trace_recorder_destroy(recorder);
  assert_false(grt_trace_enabled());
  grt_trace_recorder_destroy(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_json_events),
      cmocka_unit_test(test_json_strings_are_escaped),
      cmocka_unit_test(test_timestamps_are_exact_microseconds),
      cmocka_unit_test(test_statistics_by_kernel),
      cmocka_unit_test(test_no_dispatches),
      cmocka_unit_test(test_events_past_the_limit_are_dropped),
      cmocka_unit_test(test_many_events_and_strings),
      cmocka_unit_test(test_write_json_errors_name_the_path),
      cmocka_unit_test(test_destroy_detaches),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
