// Tracing: how the runtime reports what it spends time on, for timelines
// (grt-run --trace=FILE.json) and per-kernel statistics (--print_statistics).
//
// The layers that do the work report events to one process-wide sink:
//   - the local drivers (hal/local): one DISPATCH event per run of a range
//     of a dispatch's workgroups (the whole dispatch on local-sync, each
//     task's share on local-task, on the worker that ran it) and one
//     TRANSFER event per fill, copy or update;
//   - the device queue (hal/device.c, every driver): one SUBMIT event per
//     queue operation, on the thread that made it;
//   - local-task's queue thread: one EXECUTE event per submission of
//     command buffers it ran;
//   - semaphore waits (hal/semaphore.c, every driver): one WAIT event per
//     wait on a non-empty list, on the thread that blocked;
//   - the VM (vm/invoke.c): one CALL event per function invoked from the
//     host, and before each import call the source location of the calling
//     op (grt_trace_set_location), which the local command buffer copies
//     into the dispatch it records.
//
// With no sink attached (the normal case) a reporting point costs one
// relaxed load of a flag and a branch not taken: nothing is timed, nothing
// allocated. With a sink attached, events arrive on the threads they
// happened on, several at once; the sink must be thread-safe.
//
//   grt_trace_sink_t sink = {my_record};   // or a grt_trace_recorder_t
//   GRT_RETURN_IF_ERROR(grt_trace_attach(&sink));
//   ... run ...
//   grt_trace_detach(&sink);   // returns once no record call is running
#ifndef GRT_BASE_TRACE_H_
#define GRT_BASE_TRACE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "base/string_view.h"
#include "base/time.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum grt_trace_event_kind_e {
  // Workgroups [first_workgroup, first_workgroup + workgroups) of one
  // dispatch, run by one thread. name: the kernel (entry point) name;
  // detail: the source location of the op that recorded the dispatch
  // ("file.mlir:12:5"), empty when the module carries none.
  GRT_TRACE_EVENT_DISPATCH = 0,
  // A fill, copy or update run by a local device. name: "fill", "copy" or
  // "update"; count: bytes written (0 when the command named a whole
  // buffer, whose size only the executor resolves).
  GRT_TRACE_EVENT_TRANSFER = 1,
  // A queue operation as its caller sees it (on local-sync this includes
  // running it). name: "queue.execute", "queue.alloca" or
  // "queue.dealloca"; detail: the device URI; count: command buffers.
  GRT_TRACE_EVENT_SUBMIT = 2,
  // local-task's queue thread running one submission of command buffers,
  // from waiting on its wait list to just before signalling. detail: the
  // device URI; count: command buffers.
  GRT_TRACE_EVENT_EXECUTE = 3,
  // A thread blocked on a list of semaphores (a fence await, a queue
  // operation's wait list). name: "wait"; count: semaphores.
  GRT_TRACE_EVENT_WAIT = 4,
  // A function invoked from the host (grt_vm_invoke). name: the function;
  // detail: its module.
  GRT_TRACE_EVENT_CALL = 5,
} grt_trace_event_kind_t;

// The event's worker_id when it did not run as a pool worker.
#define GRT_TRACE_NO_WORKER UINT32_MAX

// One finished piece of work. Strings are borrowed: valid only during the
// record call (a sink that keeps them copies them).
typedef struct grt_trace_event_t {
  grt_trace_event_kind_t kind;
  grt_string_view_t name;
  grt_string_view_t detail;
  grt_time_t start_ns;  // grt_time_now_ns() readings
  grt_time_t end_ns;
  // DISPATCH: the worker it ran as (0 on local-sync and when local-task
  // runs a one-task region on its queue thread); otherwise
  // GRT_TRACE_NO_WORKER.
  uint32_t worker_id;
  uint32_t workgroup_count[3];  // DISPATCH: the whole dispatch's grid
  uint64_t first_workgroup;     // DISPATCH: linear index, x fastest
  uint64_t workgroups;          // DISPATCH: how many this event ran
  uint64_t count;               // see the kinds
} grt_trace_event_t;

typedef struct grt_trace_sink_t grt_trace_sink_t;
struct grt_trace_sink_t {
  // Called on the thread where the event happened, on many at once.
  void (*record)(grt_trace_sink_t* sink, const grt_trace_event_t* event);
};

// Makes |sink| receive every event from now on. FAILED_PRECONDITION when
// another sink is attached (there is one per process); UNAVAILABLE in a
// runtime built with GRT_ENABLE_TRACING=OFF.
grt_status_t grt_trace_attach(grt_trace_sink_t* sink) GRT_MUST_USE;

// Stops events going to |sink| (nothing happens if it is not the one
// attached) and returns once no record call into it is running, so the
// caller may then free it. Work still running on other threads reports
// nothing more.
void grt_trace_detach(grt_trace_sink_t* sink);

// Set while a sink is attached; what every reporting point tests first.
extern int grt_trace_enabled_flag;

// GRT_TRACING (CMake GRT_ENABLE_TRACING, default 1): 0 compiles every
// reporting point out (grt_trace_enabled() is false at compile time) and
// grt_trace_attach returns UNAVAILABLE.
#ifndef GRT_TRACING
#define GRT_TRACING 1
#endif

// True while a sink is attached. Reporting points test this before reading
// the clock, so tracing costs nothing more when it is off.
static inline bool grt_trace_enabled(void) {
#if !GRT_TRACING
  return false;
#elif defined(__GNUC__) || defined(__clang__)
  return GRT_UNLIKELY(__atomic_load_n(&grt_trace_enabled_flag,
                                      __ATOMIC_RELAXED) != 0);
#else
  return grt_trace_enabled_flag != 0;
#endif
}

// Hands |event| to the attached sink; dropped when none is attached
// (tracing was turned off while the work ran).
void grt_trace_record(const grt_trace_event_t* event);

// The calling thread's current source location: set by the VM to the
// location of each op that calls an import (the hal module's
// command_buffer.dispatch among them) while tracing is on, cleared when the
// invocation returns. The view must stay valid until it is replaced or
// cleared. Empty when unknown.
void grt_trace_set_location(grt_string_view_t location);
grt_string_view_t grt_trace_location(void);

// Names the calling thread in traces ("local-task worker 0"); at most
// GRT_TRACE_THREAD_NAME_CAPACITY - 1 bytes are kept. Threads that never
// name themselves are called "thread N".
#define GRT_TRACE_THREAD_NAME_CAPACITY 48
void grt_trace_set_thread_name(const char* name);
// The calling thread's name; "" when it has none.
const char* grt_trace_thread_name(void);

// A small number for the calling thread, the same on every call from it
// and never given to another thread of the process: 1 for the first thread
// that asks, then 2, ...
uint32_t grt_trace_thread_id(void);

#ifdef __cplusplus
}
#endif

#endif  // GRT_BASE_TRACE_H_
