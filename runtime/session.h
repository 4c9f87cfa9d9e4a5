// The embedding API: what applications link to run .vmfb modules.
//
//   grt_runtime_instance_t* instance;   // once per process
//   grt_runtime_instance_create(NULL, &instance);
//   grt_hal_device_t* device;
//   grt_runtime_instance_create_device(instance, "local-task", NULL, &device);
//   grt_runtime_session_t* session;      // one program's state
//   grt_runtime_session_create(instance, device, &session);
//   grt_runtime_session_append_module_from_file(session, "model.vmfb");
//   grt_runtime_call_buffer_views(session, "model.main", 1, &input,
//                                 1, &output, &output_count);
//
// A session owns a VM context holding, in order, the hal module (for its
// device), the check module, and the modules appended. Appending a module
// with executables prepares the one whose format the device runs; a module
// with none for the device fails to append naming the formats it has and
// the ones the device runs.
#ifndef GRT_RUNTIME_SESSION_H_
#define GRT_RUNTIME_SESSION_H_

#include <stddef.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"
#include "base/time.h"
#include "hal/buffer_view.h"
#include "hal/device.h"
#include "hal/driver.h"
#include "hal/fence.h"
#include "schemas/module_file.h"
#include "schemas/module_signature.h"
#include "vm/context.h"
#include "vm/instance.h"
#include "vm/list.h"
#include "vm/module.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_runtime_instance_t grt_runtime_instance_t;
typedef struct grt_runtime_session_t grt_runtime_session_t;

typedef struct grt_runtime_instance_options_t {
  grt_allocator_t host_allocator;  // zero-initialized = system allocator
} grt_runtime_instance_options_t;

// Creates the VM instance (with HAL types registered) and a driver
// registry with every driver built in. |options| may be NULL.
grt_status_t grt_runtime_instance_create(
    const grt_runtime_instance_options_t* options,
    grt_runtime_instance_t** out_instance) GRT_MUST_USE;
void grt_runtime_instance_retain(grt_runtime_instance_t* instance);
void grt_runtime_instance_release(grt_runtime_instance_t* instance);
grt_allocator_t grt_runtime_instance_host_allocator(
    const grt_runtime_instance_t* instance);
grt_vm_instance_t* grt_runtime_instance_vm_instance(
    grt_runtime_instance_t* instance);
grt_hal_driver_registry_t* grt_runtime_instance_driver_registry(
    grt_runtime_instance_t* instance);
// grt_hal_driver_registry_create_device on the instance's registry.
grt_status_t grt_runtime_instance_create_device(
    grt_runtime_instance_t* instance, const char* uri,
    const grt_hal_device_options_t* options, grt_hal_device_t** out_device)
    GRT_MUST_USE;

grt_status_t grt_runtime_session_create(grt_runtime_instance_t* instance,
                                        grt_hal_device_t* device,
                                        grt_runtime_session_t** out_session)
    GRT_MUST_USE;
void grt_runtime_session_retain(grt_runtime_session_t* session);
void grt_runtime_session_release(grt_runtime_session_t* session);
grt_hal_device_t* grt_runtime_session_device(const grt_runtime_session_t* s);
grt_vm_context_t* grt_runtime_session_context(const grt_runtime_session_t* s);

// Module signatures (docs/runtime.md, "Signed modules"). Set them before
// appending modules; each module file appended later is checked before any
// of its executables is prepared (so an unsigned or badly signed module
// never gets a kernel library loaded) and before it joins the context:
//   - a signed module, when the session has trusted keys or requires
//     signed native code: its signer must be a trusted key and the
//     signature must hold for every byte of the file before the signature
//     block, else PERMISSION_DENIED naming the signer;
//   - an unsigned module with executables, when the session requires
//     signed native code: PERMISSION_DENIED naming its executable formats;
//   - an unsigned module without executables (bytecode only, which the VM
//     verifies) is appended whatever the settings;
//   - with neither trusted keys nor the requirement, signatures are not
//     checked (as before signing existed).
// Without libsodium (GRT_MODULE_SIGNING) checking a signature fails with
// UNIMPLEMENTED. Modules appended with grt_runtime_session_append_module
// are the application's own and are not checked.
grt_status_t grt_runtime_session_add_trusted_key(
    grt_runtime_session_t* session, const grt_module_public_key_t* key)
    GRT_MUST_USE;
// Reads a public key file (schemas/module_signature.h: 40 bytes,
// "GRTEDPK1" and the key, as grt-sign keygen writes) and trusts it.
grt_status_t grt_runtime_session_add_trusted_key_file(
    grt_runtime_session_t* session, const char* path) GRT_MUST_USE;
// Like the other setters, these fail with FAILED_PRECONDITION while another
// thread is inside the session (see "Threads" in docs/runtime.md).
grt_status_t grt_runtime_session_set_require_signed_native_code(
    grt_runtime_session_t* session, bool require) GRT_MUST_USE;

// Appends a module (its imports resolve against the modules before it).
// Errors name the file.
grt_status_t grt_runtime_session_append_module_from_file(
    grt_runtime_session_t* session, const char* path) GRT_MUST_USE;
// |contents| is borrowed and must outlive the session (e.g. an embedded
// array); 8-byte aligned.
grt_status_t grt_runtime_session_append_module_from_memory(
    grt_runtime_session_t* session, grt_const_byte_span_t contents)
    GRT_MUST_USE;
// Appends a module file already opened (and verified) with
// schemas/module_file.h; the session retains it. Lets a caller that needs
// many sessions of one module (grt-check: one per test) open it once.
grt_status_t grt_runtime_session_append_module_file(
    grt_runtime_session_t* session, grt_module_file_t* file) GRT_MUST_USE;
// Appends any VM module (e.g. a native module of the application).
grt_status_t grt_runtime_session_append_module(grt_runtime_session_t* session,
                                               grt_vm_module_t* module)
    GRT_MUST_USE;

// Resolves "module.function" (or "function", searched in the last
// appended module). NOT_FOUND lists the exported functions.
grt_status_t grt_runtime_session_lookup_function(
    grt_runtime_session_t* session, const char* name,
    grt_vm_function_t* out_function) GRT_MUST_USE;

// Calls with inputs and outputs as VM lists (variants: scalars and refs,
// buffer views as hal.buffer_view refs).
grt_status_t grt_runtime_session_call(grt_runtime_session_t* session,
                                      const grt_vm_function_t* function,
                                      const grt_vm_list_t* inputs,
                                      grt_vm_list_t* outputs) GRT_MUST_USE;
// Bounds each later call of |session| to |timeout_ns| nanoseconds
// (GRT_DURATION_INFINITE, the default: no bound; <= 0 is INVALID_ARGUMENT).
// The bound applies to the waits of a call: a hal.fence.await still waiting
// when the time is up fails the call with DEADLINE_EXCEEDED naming the
// timeout ("hal.fence.await: the call's timeout of 100 ms ran out while
// waiting on 1 fence (fence.await timeout -1 ms: forever)"). Bytecode that
// computes without waiting is not interrupted.
grt_status_t grt_runtime_session_set_call_timeout(
    grt_runtime_session_t* session, grt_duration_t timeout_ns) GRT_MUST_USE;

// Asynchronous call (docs/runtime.md, "Asynchronous calls"): queues a call
// of |function| and returns at once. The session's call thread (started by
// the first such call) runs the queued calls one after another, in the order
// they were queued: each waits until |wait_fence| is reached (NULL: no
// wait), makes the call as grt_runtime_session_call does, appending the
// results to |outputs|, then signals |signal_fence|. The outputs are valid
// once |signal_fence| is reached. A failure (the wait fence failed, the call
// failed, or the session was released before the call ran: CANCELLED) fails
// |signal_fence| with its status, which every wait on the fence returns.
// The lists and fences are retained until the call ends; the caller must
// not touch |inputs| or |outputs| meanwhile. While calls are queued the
// session belongs to its call thread: a synchronous call from another
// thread may fail with FAILED_PRECONDITION "session is already running a
// call on another thread" (and so may a queued call, through its fence,
// when another thread is inside). Errors returned at once:
// INVALID_ARGUMENT for a NULL |signal_fence|, or NULL |outputs| for a
// function with results.
grt_status_t grt_runtime_session_call_async(grt_runtime_session_t* session,
                                            const grt_vm_function_t* function,
                                            grt_vm_list_t* inputs,
                                            grt_hal_fence_t* wait_fence,
                                            grt_hal_fence_t* signal_fence,
                                            grt_vm_list_t* outputs)
    GRT_MUST_USE;

// Lookup + call.
grt_status_t grt_runtime_call(grt_runtime_session_t* session, const char* name,
                              const grt_vm_list_t* inputs,
                              grt_vm_list_t* outputs) GRT_MUST_USE;
// Buffer views in and out. Each output is a new reference the caller
// releases; OUT_OF_RANGE when the function returns more than
// |output_capacity| values, INVALID_ARGUMENT when one is not a buffer view.
grt_status_t grt_runtime_call_buffer_views(
    grt_runtime_session_t* session, const char* name, size_t input_count,
    grt_hal_buffer_view_t* const* inputs, size_t output_capacity,
    grt_hal_buffer_view_t** outputs, size_t* out_output_count) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_RUNTIME_SESSION_H_
