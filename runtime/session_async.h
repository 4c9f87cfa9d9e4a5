// The worker behind grt_runtime_session_call_async (runtime/session.h):
// one thread per session, started by the first asynchronous call, that runs
// the queued calls in order. Internal to runtime/: session.c owns the queue.
#ifndef GRT_RUNTIME_SESSION_ASYNC_H_
#define GRT_RUNTIME_SESSION_ASYNC_H_

#include "base/allocator.h"
#include "base/status.h"
#include "hal/fence.h"
#include "runtime/session.h"
#include "vm/list.h"
#include "vm/module.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_runtime_async_queue_t grt_runtime_async_queue_t;

// Starts the worker of |session| (borrowed: the session destroys the queue
// before it goes).
grt_status_t grt_runtime_async_queue_create(
    grt_runtime_session_t* session, grt_allocator_t allocator,
    grt_runtime_async_queue_t** out_queue) GRT_MUST_USE;

// Fails every call that has not started with CANCELLED (through its signal
// fence), lets the running one finish, and joins the worker.
void grt_runtime_async_queue_destroy(grt_runtime_async_queue_t* queue);

// Queues a call; the queue retains the lists and fences until it ends.
grt_status_t grt_runtime_async_queue_push(
    grt_runtime_async_queue_t* queue, const grt_vm_function_t* function,
    grt_vm_list_t* inputs, grt_hal_fence_t* wait_fence,
    grt_hal_fence_t* signal_fence, grt_vm_list_t* outputs) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_RUNTIME_SESSION_ASYNC_H_
