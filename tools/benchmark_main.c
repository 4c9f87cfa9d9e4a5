// grt-benchmark: times one exported function of a module, in the manner of
// iree-benchmark-module. It loads the module into a session on a device the
// way grt-run does (same flags, same messages: run_session.h), builds the
// arguments once from --input, calls the function --benchmark_warmup times
// untimed and then --benchmark_repetitions times, each call timed alone,
// and prints the times and their min, median, mean and standard deviation.
//
//   grt-benchmark --module=m.vmfb --function=main --input=@x.npy
//                 --device=local-task --task_workers=2
//                 --benchmark_repetitions=20 --benchmark_format=json
//
// --benchmark_format=json prints one JSON object to stdout:
//   {"module": "m.vmfb", "function": "main", "device": "local-sync",
//    "repetitions": 10, "warmup": 2, "times_ns": [...], "min_ns": N,
//    "median_ns": N, "mean_ns": N, "stddev_ns": N}
// (aggregates rounded to whole nanoseconds; stddev is the sample standard
// deviation, 0 for one repetition).
//
// --trace=FILE.json writes a Chrome trace-event timeline of every call,
// warmup included, as grt-run's --trace does (tracing adds its own cost to
// the times).
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/time.h"
#include "runtime/session.h"
#include "tools/flags.h"
#include "tools/run_session.h"
#include "vm/list.h"

// Bounds of the counts, so the times array stays small and a typo such as
// --benchmark_repetitions=1e9 is refused instead of running for hours.
#define GRT_BENCHMARK_MAX_COUNT 1000000

typedef struct grt_benchmark_flags_t {
  const char* module;
  const char* function;
  const char* device;
  int64_t task_workers;
  grt_flag_list_t inputs;
  int64_t repetitions;
  int64_t warmup;
  const char* format;
  const char* trace;
  grt_flag_list_t trusted_keys;
  bool require_signed;
} grt_benchmark_flags_t;

static grt_benchmark_flags_t flags = {
    .device = "local-sync",
    .repetitions = 10,
    .warmup = 2,
    .format = "text",
};

static const grt_flag_t grt_benchmark_flag_table[] = {
    {"module", 0, GRT_FLAG_STRING, &flags.module, "FILE",
     "module file (.vmfb) to load"},
    {"function", 0, GRT_FLAG_STRING, &flags.function, "NAME",
     "exported function to time"},
    {"device", 0, GRT_FLAG_STRING, &flags.device, "URI",
     "device to run on: local-sync (default), local-task, vulkan://1, ..."},
    {"task_workers", 0, GRT_FLAG_INT, &flags.task_workers, "N",
     "local-task workers: its queue thread and N - 1 more threads (0: one per core)"},
    {"input", 0, GRT_FLAG_LIST, &flags.inputs, "VALUE",
     "next argument, as grt-run's --input: 5, 2x2xf32=1 2 3 4, @x.npy, ..."},
    {"benchmark_repetitions", 0, GRT_FLAG_INT, &flags.repetitions, "N",
     "timed calls (default 10)"},
    {"benchmark_warmup", 0, GRT_FLAG_INT, &flags.warmup, "N",
     "untimed calls before them (default 2)"},
    {"benchmark_format", 0, GRT_FLAG_STRING, &flags.format, "FORMAT",
     "text (default) or json (one object on stdout)"},
    {"trace", 0, GRT_FLAG_STRING, &flags.trace, "FILE",
     "write a Chrome trace-event JSON timeline of the calls to FILE (as "
     "grt-run's --trace)"},
    GRT_TOOLS_SIGNATURE_FLAG_ROWS(&flags.trusted_keys, &flags.require_signed),
};

static const grt_flags_spec_t grt_benchmark_flags_spec = {
    "grt-benchmark",
    "times calls of one function of a module on a device",
    "--module=FILE --function=NAME [--input=VALUE]... "
    "[--benchmark_repetitions=N]",
    grt_benchmark_flag_table,
    sizeof(grt_benchmark_flag_table) / sizeof(grt_benchmark_flag_table[0]),
    NULL};

typedef struct grt_benchmark_stats_t {
  int64_t min_ns;
  double median_ns;
  double mean_ns;
  double stddev_ns;
} grt_benchmark_stats_t;

static int grt_benchmark_compare_ns(const void* a, const void* b) {
  int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
  return (x > y) - (x < y);
}

// |sorted| is scratch of |count| entries.
static grt_benchmark_stats_t grt_benchmark_compute_stats(
    const int64_t* times, int64_t* sorted, size_t count) {
  grt_benchmark_stats_t stats;
  memcpy(sorted, times, count * sizeof(*times));
  qsort(sorted, count, sizeof(*sorted), grt_benchmark_compare_ns);
  stats.min_ns = sorted[0];
  stats.median_ns = count % 2 ? (double)sorted[count / 2]
                              : ((double)sorted[count / 2 - 1] +
                                 (double)sorted[count / 2]) /
                                    2.0;
  double sum = 0.0;
  for (size_t i = 0; i < count; ++i) sum += (double)times[i];
  stats.mean_ns = sum / (double)count;
  double squares = 0.0;
  for (size_t i = 0; i < count; ++i) {
    double d = (double)times[i] - stats.mean_ns;
    squares += d * d;
  }
  stats.stddev_ns = count > 1 ? sqrt(squares / (double)(count - 1)) : 0.0;
  return stats;
}

// A JSON string: quotes, backslashes and control bytes escaped.
static void grt_benchmark_print_json_string(const char* text) {
  putchar('"');
  for (const unsigned char* p = (const unsigned char*)text; *p; ++p) {
    if (*p == '"' || *p == '\\') {
      printf("\\%c", *p);
    } else if (*p < 0x20) {
      printf("\\u%04x", *p);
    } else {
      putchar(*p);
    }
  }
  putchar('"');
}

static void grt_benchmark_print_json(const int64_t* times, size_t count,
                                     const grt_benchmark_stats_t* stats) {
  printf("{\"module\": ");
  grt_benchmark_print_json_string(flags.module);
  printf(", \"function\": ");
  grt_benchmark_print_json_string(flags.function);
  printf(", \"device\": ");
  grt_benchmark_print_json_string(flags.device);
  printf(", \"repetitions\": %zu, \"warmup\": %" PRId64 ", \"times_ns\": [",
         count, flags.warmup);
  for (size_t i = 0; i < count; ++i) {
    printf("%s%" PRId64, i ? ", " : "", times[i]);
  }
  printf("], \"min_ns\": %" PRId64 ", \"median_ns\": %.0f, "
         "\"mean_ns\": %.0f, \"stddev_ns\": %.0f}\n",
         stats->min_ns, stats->median_ns, stats->mean_ns, stats->stddev_ns);
}

static void grt_benchmark_print_text(const int64_t* times, size_t count,
                                     const grt_benchmark_stats_t* stats) {
  printf("module: %s\nfunction: %s\ndevice: %s\n", flags.module,
         flags.function, flags.device);
  printf("repetitions: %zu (after %" PRId64 " warmup call%s)\n", count,
         flags.warmup, flags.warmup == 1 ? "" : "s");
  for (size_t i = 0; i < count; ++i) {
    printf("  call %zu: %.3f ms\n", i, (double)times[i] / 1e6);
  }
  printf("min:    %.3f ms\nmedian: %.3f ms\nmean:   %.3f ms\n"
         "stddev: %.3f ms\n",
         (double)stats->min_ns / 1e6, stats->median_ns / 1e6,
         stats->mean_ns / 1e6, stats->stddev_ns / 1e6);
}

static grt_status_t grt_benchmark_check_flags(void) {
  if (flags.repetitions < 1 || flags.repetitions > GRT_BENCHMARK_MAX_COUNT) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "--benchmark_repetitions=%" PRId64
                           ": expected a count from 1 to %d",
                           flags.repetitions, GRT_BENCHMARK_MAX_COUNT);
  }
  if (flags.warmup < 0 || flags.warmup > GRT_BENCHMARK_MAX_COUNT) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "--benchmark_warmup=%" PRId64
                           ": expected a count from 0 to %d",
                           flags.warmup, GRT_BENCHMARK_MAX_COUNT);
  }
  if (strcmp(flags.format, "text") != 0 && strcmp(flags.format, "json") != 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "--benchmark_format=%s: expected text or json",
                           flags.format);
  }
  return grt_ok_status();
}

// One call with the prepared inputs into an emptied output list; the
// results of the previous call are released first.
static grt_status_t grt_benchmark_call(grt_tools_run_session_t* state,
                                       const char* what, int64_t index,
                                       int64_t* out_ns) {
  GRT_RETURN_IF_ERROR(grt_vm_list_resize(state->outputs, 0));
  grt_time_t start = grt_time_now_ns();
  grt_status_t status = grt_runtime_session_call(
      state->session, &state->function, state->inputs, state->outputs);
  grt_time_t end = grt_time_now_ns();
  GRT_RETURN_IF_ERROR_ANNOTATED(status, "%s call %" PRId64 " of '%s'", what,
                                index, flags.function);
  if (out_ns) *out_ns = (int64_t)(end - start);
  return grt_ok_status();
}

static grt_status_t grt_benchmark(grt_tools_run_session_t* state) {
  GRT_RETURN_IF_ERROR(grt_benchmark_check_flags());
  GRT_RETURN_IF_ERROR(grt_tools_run_session_create_instance(state));
  grt_tools_run_options_t options = {
      .tool = "grt-benchmark",
      .module = flags.module,
      .function = flags.function,
      .device = flags.device,
      .task_workers = flags.task_workers,
      .timeout_ms = 0,
      .inputs = &flags.inputs,
      .trace = flags.trace,
      .trusted_keys = &flags.trusted_keys,
      .require_signed = flags.require_signed,
  };
  GRT_RETURN_IF_ERROR(grt_tools_run_session_check_options(&options));
  int64_t load_ns = 0;
  GRT_RETURN_IF_ERROR(grt_tools_run_session_load(state, &options, &load_ns));

  for (int64_t i = 0; i < flags.warmup; ++i) {
    GRT_RETURN_IF_ERROR(grt_benchmark_call(state, "warmup", i, NULL));
  }
  size_t count = (size_t)flags.repetitions;
  int64_t* times = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(
      state->allocator, 2 * count * sizeof(*times), (void**)&times));
  grt_status_t status = grt_ok_status();
  for (size_t i = 0; grt_status_is_ok(status) && i < count; ++i) {
    status = grt_benchmark_call(state, "timed", (int64_t)i, &times[i]);
  }
  if (grt_status_is_ok(status)) {
    status = grt_tools_run_session_finish_trace(state, &options);
  }
  if (grt_status_is_ok(status)) {
    grt_benchmark_stats_t stats =
        grt_benchmark_compute_stats(times, times + count, count);
    if (strcmp(flags.format, "json") == 0) {
      grt_benchmark_print_json(times, count, &stats);
    } else {
      grt_benchmark_print_text(times, count, &stats);
    }
  }
  grt_allocator_free(state->allocator, times);
  return status;
}

int main(int argc, char** argv) {
  grt_allocator_t allocator = grt_allocator_system();
  int exit_code = grt_flags_parse_for_main(&grt_benchmark_flags_spec, argc,
                                           argv, allocator);
  if (exit_code < 0) {
    grt_tools_run_session_t state;
    grt_tools_run_session_initialize(allocator, &state);
    grt_status_t status = grt_benchmark(&state);
    exit_code = 0;
    if (!grt_status_is_ok(status)) {
      fflush(stdout);
      fprintf(stderr, "grt-benchmark: ");
      grt_status_fprint(stderr, status);
      grt_status_free(status);
      exit_code = 1;
    }
    grt_tools_run_session_deinitialize(&state);
  }
  grt_flags_release(&grt_benchmark_flags_spec, allocator);
  return exit_code;
}
