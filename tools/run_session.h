// What grt-run and grt-benchmark share: checking the common flags, making
// the instance, device and session, loading the module, finding the
// function and building its argument list from --input values
// (tensor_io.h), so that both tools accept the same flags and refuse bad
// ones with the same messages.
//
//   grt_tools_run_session_t s;
//   grt_tools_run_session_initialize(allocator, &s);
//   status = grt_tools_run_session_create_instance(&s);
//   status = grt_tools_run_session_check_options(&options);
//   status = grt_tools_run_session_load(&s, &options, &load_ns);
//   status = grt_runtime_session_call(s.session, &s.function, s.inputs,
//                                     s.outputs);
//   status = grt_tools_run_session_finish_trace(&s, &options);
//   grt_tools_run_session_deinitialize(&s);
#ifndef GRT_TOOLS_RUN_SESSION_H_
#define GRT_TOOLS_RUN_SESSION_H_

#include <stdbool.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "hal/device.h"
#include "runtime/session.h"
#include "runtime/trace_recorder.h"
#include "tools/flags.h"
#include "tools/tensor_io.h"
#include "vm/list.h"
#include "vm/module.h"

#ifdef __cplusplus
extern "C" {
#endif

// The flags both tools take. Pointers are borrowed (they point into argv).
typedef struct grt_tools_run_options_t {
  const char* tool;      // "grt-run": named in messages about the tool
  const char* module;    // --module; NULL when not given
  const char* function;  // --function; NULL when not given
  const char* device;    // --device
  int64_t task_workers;  // --task_workers (0: one per core)
  int64_t timeout_ms;    // --timeout (0: no limit)
  const grt_flag_list_t* inputs;  // --input values, in order
  const char* trace;     // --trace: Chrome trace JSON path; NULL when not given
  // --trusted-key: public key files the session trusts (may be NULL).
  const grt_flag_list_t* trusted_keys;
  // --require-signed: the session requires signed native code.
  bool require_signed;
  // Record events for statistics (grt-run --print_statistics) even when
  // no trace file is written.
  bool record_statistics;
} grt_tools_run_options_t;

// The rows of --trusted-key and --require-signed in a tool's flag table
// (grt-run, grt-benchmark, grt-check), so the three spell and explain them
// the same way: |keys| is a grt_flag_list_t*, |require| a bool*.
#define GRT_TOOLS_SIGNATURE_FLAG_ROWS(keys, require)                         \
  {"trusted-key", 0, GRT_FLAG_LIST, (keys), "FILE",                          \
   "trust the module signer whose public key file (grt-sign keygen) is "    \
   "FILE; a signed module must then verify"},                                \
  {"require-signed", 0, GRT_FLAG_BOOL, (require), NULL,                      \
   "refuse a module with executables (native code) unless it is signed by " \
   "a --trusted-key"}

// Everything one run holds. Zeroed by initialize; released by
// deinitialize whatever step failed.
typedef struct grt_tools_run_session_t {
  grt_allocator_t allocator;
  grt_runtime_instance_t* instance;
  grt_hal_device_t* device;
  grt_runtime_session_t* session;
  grt_vm_function_t function;  // valid after a successful load
  grt_vm_list_t* inputs;       // the arguments built from --input
  grt_vm_list_t* outputs;      // an empty list for the results
  grt_tools_tensor_io_t io;    // .npy sources the inputs were read from
  // Attached from the start of the load when --trace or statistics were
  // asked for; NULL otherwise.
  grt_trace_recorder_t* recorder;
} grt_tools_run_session_t;

void grt_tools_run_session_initialize(grt_allocator_t allocator,
                                      grt_tools_run_session_t* out_state);
void grt_tools_run_session_deinitialize(grt_tools_run_session_t* state);

// Creates the runtime instance (its driver registry lists the devices).
grt_status_t grt_tools_run_session_create_instance(
    grt_tools_run_session_t* state) GRT_MUST_USE;

// Checks the flags that need no device: a module is given, --task_workers
// and --timeout are in range, and a --trace path can be written (an
// existing directory that is writable, and not itself a directory), so a
// long run does not end in an error about its trace.
grt_status_t grt_tools_run_session_check_options(
    const grt_tools_run_options_t* options) GRT_MUST_USE;

// Checks the names' lengths, starts recording (when --trace or statistics
// were asked for: from before the device is created, so the module's
// initializer is in the trace too), creates the device and the session
// (trusting the --trusted-key files, requiring signed native code with
// --require-signed), loads the
// module and looks up the function (without --function the error lists the
// module's exports), then builds the argument list from the --input values
// checked against the function's signature and makes an empty output list.
// *out_load_ns is the time from creating the device to the module being
// loaded.
grt_status_t grt_tools_run_session_load(grt_tools_run_session_t* state,
                                        const grt_tools_run_options_t* options,
                                        int64_t* out_load_ns) GRT_MUST_USE;

// Trusts each public key file of |trusted_keys| (NULL: none) and sets
// whether |session| requires signed native code: --trusted-key and
// --require-signed, which grt-run, grt-benchmark and grt-check share.
grt_status_t grt_tools_run_session_set_trust(
    grt_runtime_session_t* session, const grt_flag_list_t* trusted_keys,
    bool require_signed) GRT_MUST_USE;

// Stops recording and, with --trace, writes the trace (Chrome trace-event
// JSON, runtime/trace_recorder.h). Call once the calls are done; the
// recorder stays for grt_trace_recorder_statistics until deinitialize.
grt_status_t grt_tools_run_session_finish_trace(
    grt_tools_run_session_t* state,
    const grt_tools_run_options_t* options) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_TOOLS_RUN_SESSION_H_
