// grt-run: loads a module into a session on a device, calls one exported
// function with arguments from the command line and prints its results the
// way IREE's run tool does ("result[0]: i32=55", or "result[0]:
// hal.buffer_view" and "2x2xf32=[1 2][3 4]"), so scripts and users see the
// same spelling.
//
//   grt-run --module=m.vmfb --function=main --device=local-task
//           --input=2x2xf32=1 2 3 4 --input=@x.npy --output=@y.npy
//           --expected_output=2x2xf32=2 4 6 8
//
// --trace=FILE.json writes a Chrome trace-event timeline of the run
// (dispatches per worker, queue submits and waits, VM calls) and
// --print_statistics adds the dispatches that took the most time
// (runtime/trace_recorder.h).
//
// The value syntax of --input, --output and --expected_output is described
// in tensor_io.h and docs/tools.md.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "base/time.h"
#include "hal/allocator.h"
#include "hal/driver.h"
#include "runtime/session.h"
#include "tools/flags.h"
#include "tools/run_session.h"
#include "tools/tensor_io.h"
#include "vm/list.h"

typedef struct grt_run_flags_t {
  const char* module;
  grt_flag_list_t functions;
  const char* device;
  bool list_devices;
  int64_t task_workers;
  grt_flag_list_t inputs;
  grt_flag_list_t outputs;
  grt_flag_list_t expected_outputs;
  double expected_f16_threshold;
  double expected_f32_threshold;
  double expected_f64_threshold;
  int64_t print_max_element_count;
  bool print_statistics;
  int64_t timeout_ms;
  const char* trace;
  grt_flag_list_t trusted_keys;
  bool require_signed;
} grt_run_flags_t;

static grt_run_flags_t flags = {
    .device = "local-sync",
    .expected_f16_threshold = 0.001,
    .expected_f32_threshold = 0.0001,
    .expected_f64_threshold = 0.0001,
    .print_max_element_count = 1024,
};

static const grt_flag_t grt_run_flag_table[] = {
    {"module", 0, GRT_FLAG_STRING, &flags.module, "FILE",
     "module file (.vmfb) to load"},
    {"function", 0, GRT_FLAG_LIST, &flags.functions, "NAME",
     "exported function to call; repeated, each is called in turn in the "
     "same session (state kept in the module carries over) with the same "
     "--input values, and --output/--expected_output apply to the last call"},
    {"device", 0, GRT_FLAG_STRING, &flags.device, "URI",
     "device to run on: local-sync (default), local-task, vulkan://1, ..."},
    {"list_devices", 0, GRT_FLAG_BOOL, &flags.list_devices, NULL,
     "list the devices of every driver and exit"},
    {"timeout", 0, GRT_FLAG_INT, &flags.timeout_ms, "MS",
     "fail the call with DEADLINE_EXCEEDED if it is still waiting on a fence "
     "after MS milliseconds (0, the default: no limit)"},
    {"task_workers", 0, GRT_FLAG_INT, &flags.task_workers, "N",
     "local-task workers: its queue thread and N - 1 more threads (0: one per core)"},
    {"input", 0, GRT_FLAG_LIST, &flags.inputs, "VALUE",
     "next argument: 5, i32=5, 2x2xf32=1 2 3 4, 2x2xf32=0, @x.npy, "
     "2x2xf32=@raw.bin or (null)"},
    {"output", 0, GRT_FLAG_LIST, &flags.outputs, "TARGET",
     "where the next result goes: - (print), @y.npy, +y.npy (append), "
     "@y.bin (raw)"},
    {"expected_output", 0, GRT_FLAG_LIST, &flags.expected_outputs, "VALUE",
     "what the next result must be (same syntax as --input)"},
    {"expected_f16_threshold", 0, GRT_FLAG_FLOAT,
     &flags.expected_f16_threshold, "X",
     "absolute tolerance for f16/bf16 results (default 0.001)"},
    {"expected_f32_threshold", 0, GRT_FLAG_FLOAT,
     &flags.expected_f32_threshold, "X",
     "absolute tolerance for f32 results (default 0.0001)"},
    {"expected_f64_threshold", 0, GRT_FLAG_FLOAT,
     &flags.expected_f64_threshold, "X",
     "absolute tolerance for f64 results (default 0.0001)"},
    {"print_max_element_count", 0, GRT_FLAG_INT,
     &flags.print_max_element_count, "N",
     "print at most N elements of a tensor (default 1024; 0: all)"},
    {"print_statistics", 0, GRT_FLAG_BOOL, &flags.print_statistics, NULL,
     "print load and call times, peak memory and the dispatches that took "
     "the most time"},
    {"trace", 0, GRT_FLAG_STRING, &flags.trace, "FILE",
     "write a Chrome trace-event JSON timeline of the run to FILE (opens in "
     "Perfetto and chrome://tracing)"},
    GRT_TOOLS_SIGNATURE_FLAG_ROWS(&flags.trusted_keys, &flags.require_signed),
};

// Kernels --print_statistics lists by name; the rest are summed in a line.
#define GRT_RUN_STATISTICS_TOP_KERNELS 10

static const grt_flags_spec_t grt_run_flags_spec = {
    "grt-run", "calls one function of a module on a device and prints its results",
    "--module=FILE --function=NAME [--input=VALUE]...", grt_run_flag_table,
    sizeof(grt_run_flag_table) / sizeof(grt_run_flag_table[0]), NULL};

static grt_status_t grt_run_list_devices(grt_tools_run_session_t* state) {
  grt_hal_driver_registry_t* registry =
      grt_runtime_instance_driver_registry(state->instance);
  size_t length = grt_hal_driver_registry_format_devices(registry, NULL, 0);
  char* text = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_malloc(state->allocator, length + 1, (void**)&text));
  grt_hal_driver_registry_format_devices(registry, text, length + 1);
  fputs(text, stdout);
  grt_allocator_free(state->allocator, text);
  return grt_ok_status();
}

// --print_max_element_count as a count (0: all).
static size_t grt_run_max_elements(void) {
  return flags.print_max_element_count > 0 ? (size_t)flags.print_max_element_count : 0;
}

// A count of --output or --expected_output values must match the results.
static grt_status_t grt_run_check_count(const char* flag, size_t given,
                                        size_t results) {
  if (given == 0 || given == results) return grt_ok_status();
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "the function returned %zu result%s, got %zu --%s "
                         "value%s",
                         results, results == 1 ? "" : "s", given, flag,
                         given == 1 ? "" : "s");
}

// Prints or writes each result, then compares with --expected_output.
// *out_all_matched is false when a comparison failed.
static grt_status_t grt_run_handle_results(grt_tools_run_session_t* state,
                                           bool* out_all_matched) {
  *out_all_matched = true;
  size_t count = grt_vm_list_size(state->outputs);
  GRT_RETURN_IF_ERROR(grt_run_check_count("output", flags.outputs.count, count));
  GRT_RETURN_IF_ERROR(grt_run_check_count(
      "expected_output", flags.expected_outputs.count, count));
  size_t max_elements = grt_run_max_elements();
  grt_tools_thresholds_t thresholds = {flags.expected_f16_threshold,
                                       flags.expected_f32_threshold,
                                       flags.expected_f64_threshold};
  grt_status_t status = grt_ok_status();
  for (size_t i = 0; grt_status_is_ok(status) && i < count; ++i) {
    grt_vm_variant_t value = grt_vm_variant_empty();
    status = grt_vm_list_get_variant_assign(state->outputs, i, &value);
    if (grt_status_is_ok(status)) {
      status = grt_tools_write_result(
          &state->io, state->device,
          flags.outputs.count ? flags.outputs.values[i] : "-", i, &value,
          max_elements, stdout);
    }
    if (grt_status_is_ok(status) && flags.expected_outputs.count) {
      bool matched = false;
      char message[512];
      status = grt_tools_compare_result(
          &state->io, state->device, i, flags.expected_outputs.values[i],
          &value, &thresholds, &matched, message, sizeof(message));
      if (grt_status_is_ok(status) && !matched) {
        printf("[FAILED] %s\n", message);
        *out_all_matched = false;
      }
    }
    grt_vm_variant_reset(&value);
  }
  if (grt_status_is_ok(status) && flags.expected_outputs.count &&
      *out_all_matched) {
    printf("[SUCCESS] all function outputs matched their expected values\n");
  }
  return status;
}

// A later --function: looked up, and checked to take the arguments the
// --input values were built for (the first function's).
static grt_status_t grt_run_next_function(grt_tools_run_session_t* state,
                                          const char* name) {
  GRT_RETURN_IF_ERROR(
      grt_flags_check_name_length("--function", name, strlen(name)));
  grt_vm_function_t first = state->function;
  GRT_RETURN_IF_ERROR(
      grt_runtime_session_lookup_function(state->session, name, &state->function));
  if (!grt_string_view_equal(first.calling_convention,
                             state->function.calling_convention)) {
    return grt_make_status(
        GRT_STATUS_INVALID_ARGUMENT,
        "--function=%s has the signature '%.*s', but the first --function "
        "(%.*s) has '%.*s': every --function is called with the same --input "
        "values",
        name, GRT_SV_ARG(state->function.calling_convention),
        GRT_SV_ARG(first.name), GRT_SV_ARG(first.calling_convention));
  }
  return grt_ok_status();
}

// Prints the results of a call before the last (--output and
// --expected_output are for the last call's).
static grt_status_t grt_run_print_results(grt_tools_run_session_t* state) {
  size_t max_elements = grt_run_max_elements();
  grt_status_t status = grt_ok_status();
  for (size_t i = 0; grt_status_is_ok(status) && i < grt_vm_list_size(state->outputs);
       ++i) {
    grt_vm_variant_t value = grt_vm_variant_empty();
    status = grt_vm_list_get_variant_assign(state->outputs, i, &value);
    if (grt_status_is_ok(status)) {
      status = grt_tools_write_result(&state->io, state->device, "-", i, &value,
                                      max_elements, stdout);
    }
    grt_vm_variant_reset(&value);
  }
  return status;
}

static grt_status_t grt_run_print_statistics(grt_tools_run_session_t* state,
                                             int64_t load_ns,
                                             int64_t call_ns) {
  grt_hal_allocator_statistics_t stats;
  memset(&stats, 0, sizeof(stats));
  grt_hal_allocator_query_statistics(grt_hal_device_allocator(state->device),
                                     &stats);
  struct rusage usage;
  memset(&usage, 0, sizeof(usage));
  getrusage(RUSAGE_SELF, &usage);
  // Whole nanoseconds and bytes so the benchmark scripts can divide
  // without loss; Linux reports ru_maxrss in KiB.
  printf("statistics:\n  load_ns: %" PRId64 "\n  call_ns: %" PRId64
         "\n  device_peak_bytes: %" PRIu64 "\n  device_allocations: %" PRIu64
         "\n  host_peak_rss_bytes: %" PRId64 "\n",
         load_ns, call_ns, stats.peak_bytes_allocated, stats.allocation_count,
         (int64_t)usage.ru_maxrss * 1024);
  // What the recorder saw, module load (initializers) included.
  grt_trace_statistics_t trace_stats;
  GRT_RETURN_IF_ERROR(grt_trace_recorder_statistics(
      state->recorder, state->allocator, &trace_stats));
  grt_trace_statistics_print(&trace_stats, GRT_RUN_STATISTICS_TOP_KERNELS,
                             "  ", stdout);
  grt_trace_statistics_deinitialize(state->allocator, &trace_stats);
  return grt_ok_status();
}

static grt_status_t grt_run(grt_tools_run_session_t* state,
                            bool* out_all_matched) {
  *out_all_matched = true;
  GRT_RETURN_IF_ERROR(grt_tools_run_session_create_instance(state));
  if (flags.list_devices) return grt_run_list_devices(state);
  grt_tools_run_options_t options = {
      .tool = "grt-run",
      .module = flags.module,
      .function = flags.functions.count ? flags.functions.values[0] : NULL,
      .device = flags.device,
      .task_workers = flags.task_workers,
      .timeout_ms = flags.timeout_ms,
      .inputs = &flags.inputs,
      .trace = flags.trace,
      .record_statistics = flags.print_statistics,
      .trusted_keys = &flags.trusted_keys,
      .require_signed = flags.require_signed,
  };
  GRT_RETURN_IF_ERROR(grt_tools_run_session_check_options(&options));
  if (flags.print_max_element_count < 0) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "--print_max_element_count=%" PRId64
                           ": expected 0 (print all) or a positive count",
                           flags.print_max_element_count);
  }
  int64_t load_ns = 0;
  GRT_RETURN_IF_ERROR(grt_tools_run_session_load(state, &options, &load_ns));
  grt_time_t call_start = 0, call_end = 0;
  for (size_t i = 0; i < flags.functions.count; ++i) {
    bool last = i + 1 == flags.functions.count;
    if (i > 0) {
      GRT_RETURN_IF_ERROR(grt_run_next_function(state, flags.functions.values[i]));
    }
    printf("EXEC @%s\n", flags.functions.values[i]);
    fflush(stdout);
    call_start = grt_time_now_ns();
    GRT_RETURN_IF_ERROR(grt_runtime_session_call(
        state->session, &state->function, state->inputs, state->outputs));
    call_end = grt_time_now_ns();
    if (!last) {
      GRT_RETURN_IF_ERROR(grt_run_print_results(state));
      GRT_RETURN_IF_ERROR(grt_vm_list_resize(state->outputs, 0));
    }
  }
  // The call waited for its device work: nothing traced is still running.
  GRT_RETURN_IF_ERROR(grt_tools_run_session_finish_trace(state, &options));
  GRT_RETURN_IF_ERROR(grt_run_handle_results(state, out_all_matched));
  if (flags.print_statistics) {
    GRT_RETURN_IF_ERROR(grt_run_print_statistics(
        state, load_ns, (int64_t)(call_end - call_start)));
  }
  return grt_ok_status();
}

int main(int argc, char** argv) {
  grt_allocator_t allocator = grt_allocator_system();
  int exit_code =
      grt_flags_parse_for_main(&grt_run_flags_spec, argc, argv, allocator);
  if (exit_code < 0) {
    grt_tools_run_session_t state;
    grt_tools_run_session_initialize(allocator, &state);
    bool all_matched = true;
    grt_status_t status = grt_run(&state, &all_matched);
    exit_code = all_matched ? 0 : 1;
    if (!grt_status_is_ok(status)) {
      fflush(stdout);
      fprintf(stderr, "grt-run: ");
      grt_status_fprint(stderr, status);
      grt_status_free(status);
      exit_code = 1;
    }
    grt_tools_run_session_deinitialize(&state);
  }
  grt_flags_release(&grt_run_flags_spec, allocator);
  return exit_code;
}
