// A trace sink (base/trace.h) that keeps every event in memory, then
// writes them as Chrome trace-event JSON (what grt-run --trace writes; it
// opens in Perfetto and chrome://tracing) and sums them per kernel (what
// grt-run --print_statistics prints).
//
//   grt_trace_recorder_t* recorder = NULL;
//   GRT_RETURN_IF_ERROR(grt_trace_recorder_create(allocator, &recorder));
//   GRT_RETURN_IF_ERROR(grt_trace_attach(grt_trace_recorder_sink(recorder)));
//   ... run ...
//   grt_trace_detach(grt_trace_recorder_sink(recorder));
//   status = grt_trace_recorder_write_json(recorder, "trace.json");
//   grt_trace_recorder_destroy(recorder);
//
// Recording takes a mutex per event and copies each distinct string once.
// Past |max_events| events are counted as dropped instead of kept (the
// JSON and the statistics say how many).
#ifndef GRT_RUNTIME_TRACE_RECORDER_H_
#define GRT_RUNTIME_TRACE_RECORDER_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_builder.h"
#include "base/string_view.h"
#include "base/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_trace_recorder_t grt_trace_recorder_t;

// About 72 bytes an event kept and 250 written: 1 Mi events is about
// 72 MiB, and the JSON written from them about 250 MiB (built in memory).
#define GRT_TRACE_RECORDER_DEFAULT_MAX_EVENTS ((size_t)1 << 20)

typedef struct grt_trace_recorder_options_t {
  size_t max_events;  // 0: GRT_TRACE_RECORDER_DEFAULT_MAX_EVENTS
  // "grt-run": the process's name in the trace. NULL: "grt".
  const char* process_name;
} grt_trace_recorder_options_t;

// Times in the trace are relative to when the recorder was created.
grt_status_t grt_trace_recorder_create(
    const grt_trace_recorder_options_t* options, grt_allocator_t allocator,
    grt_trace_recorder_t** out_recorder) GRT_MUST_USE;
// Detaches it first if it is attached. NULL is ignored.
void grt_trace_recorder_destroy(grt_trace_recorder_t* recorder);

// The sink to attach (valid while the recorder lives).
grt_trace_sink_t* grt_trace_recorder_sink(grt_trace_recorder_t* recorder);

size_t grt_trace_recorder_event_count(grt_trace_recorder_t* recorder);
// Events not kept: past max_events, or when memory ran out.
uint64_t grt_trace_recorder_dropped_count(grt_trace_recorder_t* recorder);

// Appends the events as one Chrome trace-event JSON object:
//   {"traceEvents": [
//     {"name": "thread_name", "ph": "M", "pid": P, "tid": 1, "args": {"name": "main"}},
//     {"name": "main_dispatch_0", "cat": "dispatch", "ph": "X", "ts": 12.5,
//      "dur": 3.25, "pid": P, "tid": 2, "args": {"location": "m.mlir:3:10",
//      "workgroup_count": [4, 1, 1], "first_workgroup": 0, "workgroups": 4,
//      "worker": 0}}, ...],
//    "displayTimeUnit": "ns", "otherData": {"dropped_events": 0}}
// One complete event ("ph": "X") per event, ts and dur in microseconds
// (three decimals: nanoseconds), "cat" the kind (dispatch, transfer,
// submit, execute, wait, call), pid the process, tid the thread
// (grt_trace_thread_id) with a thread_name metadata event per thread.
// Strings are escaped; bytes that are not UTF-8 become U+FFFD.
grt_status_t grt_trace_recorder_format_json(grt_trace_recorder_t* recorder,
                                            grt_string_builder_t* out)
    GRT_MUST_USE;

// Writes that JSON to |path| through grt_file_write_contents (base/file.h).
grt_status_t grt_trace_recorder_write_json(grt_trace_recorder_t* recorder,
                                           const char* path) GRT_MUST_USE;

// The dispatches of one kernel: every DISPATCH event with this name and
// source location.
typedef struct grt_trace_kernel_statistics_t {
  grt_string_view_t name;      // valid while the recorder lives
  grt_string_view_t location;  // empty when unknown
  uint64_t dispatches;  // dispatches run (events that ran workgroup 0)
  int64_t total_ns;     // summed over every event: worker time
} grt_trace_kernel_statistics_t;

typedef struct grt_trace_statistics_t {
  // Sorted by total_ns, largest first (then by name).
  grt_trace_kernel_statistics_t* kernels;
  size_t kernel_count;
  uint64_t dispatches;
  int64_t dispatch_ns;  // the kernels' total_ns summed
  uint64_t transfers;
  int64_t transfer_ns;
  uint64_t waits;
  int64_t wait_ns;
  uint64_t calls;
  int64_t call_ns;
  uint64_t dropped_events;
} grt_trace_statistics_t;

// Sums the events recorded so far. Release with
// grt_trace_statistics_deinitialize.
grt_status_t grt_trace_recorder_statistics(grt_trace_recorder_t* recorder,
                                           grt_allocator_t allocator,
                                           grt_trace_statistics_t* out_stats)
    GRT_MUST_USE;
void grt_trace_statistics_deinitialize(grt_allocator_t allocator,
                                       grt_trace_statistics_t* stats);

// Prints the |top| kernels with the most time as a table, then the totals:
//   dispatch_count: 7
//   dispatch_total_ns: 812345
//   top dispatches by total time (of 5 kernels):
//      count   total_ms    mean_us   share  kernel [location]
//          2      0.500    250.000   61.5%  main_dispatch_0 [m.mlir:3:10]
//   ...
//     (2 more kernels: 0.010 ms, 1.2%)
// Each line starts with |indent|.
void grt_trace_statistics_print(const grt_trace_statistics_t* stats,
                                size_t top, const char* indent, FILE* stream);

#ifdef __cplusplus
}
#endif

#endif  // GRT_RUNTIME_TRACE_RECORDER_H_
