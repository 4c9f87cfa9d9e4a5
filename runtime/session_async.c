#include "runtime/session_async.h"

#include <pthread.h>
#include <stdbool.h>
#include <string.h>

typedef struct grt_runtime_async_call_t grt_runtime_async_call_t;
struct grt_runtime_async_call_t {
  grt_runtime_async_call_t* next;
  grt_vm_function_t function;
  grt_vm_list_t* inputs;          // retained; NULL for none
  grt_vm_list_t* outputs;         // retained; NULL for none
  grt_hal_fence_t* wait_fence;    // retained; NULL: run when its turn comes
  grt_hal_fence_t* signal_fence;  // retained
};

struct grt_runtime_async_queue_t {
  grt_runtime_session_t* session;  // borrowed
  grt_allocator_t allocator;
  pthread_mutex_t mutex;
  pthread_cond_t ready;  // a call was queued, or the queue is shutting down
  grt_runtime_async_call_t* head;
  grt_runtime_async_call_t* tail;
  bool shutting_down;
  pthread_t thread;
};

static void grt_runtime_async_call_free(grt_allocator_t allocator,
                                        grt_runtime_async_call_t* call) {
  if (call->inputs) grt_vm_list_release(call->inputs);
  if (call->outputs) grt_vm_list_release(call->outputs);
  if (call->wait_fence) grt_hal_fence_release(call->wait_fence);
  grt_hal_fence_release(call->signal_fence);
  grt_allocator_free(allocator, call);
}

// How long the worker waits on a wait fence before it looks whether the
// session is being released.
#define GRT_RUNTIME_ASYNC_WAIT_SLICE_NS (20 * 1000 * 1000)

static bool grt_runtime_async_shutting_down(grt_runtime_async_queue_t* queue) {
  pthread_mutex_lock(&queue->mutex);
  bool shutting_down = queue->shutting_down;
  pthread_mutex_unlock(&queue->mutex);
  return shutting_down;
}

// Runs one call: waits for its wait fence, calls, and settles its signal
// fence with the outcome (a failure carries its status to every waiter).
static void grt_runtime_async_run(grt_runtime_async_queue_t* queue,
                                  grt_runtime_async_call_t* call) {
  grt_status_t status = grt_ok_status();
  // The wait is sliced so that releasing the session ends it: a wait fence
  // nothing will signal must not keep the session's destruction waiting.
  while (call->wait_fence) {
    status = grt_hal_fence_wait(call->wait_fence,
                                GRT_RUNTIME_ASYNC_WAIT_SLICE_NS);
    if (grt_status_code(status) != GRT_STATUS_DEADLINE_EXCEEDED) {
      status = grt_status_annotate(
          status,
          "waiting for the wait fence of the asynchronous call to '%.*s.%.*s'",
          GRT_SV_ARG(call->function.module->name),
          GRT_SV_ARG(call->function.name));
      break;
    }
    grt_status_free(status);
    status = grt_ok_status();
    if (grt_runtime_async_shutting_down(queue)) {
      status = grt_make_status(GRT_STATUS_CANCELLED,
                               "the session was released while the "
                               "asynchronous call to '%.*s.%.*s' waited for "
                               "its wait fence",
                               GRT_SV_ARG(call->function.module->name),
                               GRT_SV_ARG(call->function.name));
      break;
    }
  }
  if (grt_status_is_ok(status)) {
    status = grt_status_annotate(
        grt_runtime_session_call(queue->session, &call->function, call->inputs,
                                 call->outputs),
        "in the asynchronous call to '%.*s.%.*s'",
        GRT_SV_ARG(call->function.module->name),
        GRT_SV_ARG(call->function.name));
  }
  if (grt_status_is_ok(status)) {
    // Signalling fails only when a semaphore already failed or is past the
    // value; that failure is the semaphore's and its waiters see it anyway.
    grt_status_free(grt_hal_fence_signal(call->signal_fence));
  } else {
    grt_hal_fence_fail(call->signal_fence, status);
  }
}

static void* grt_runtime_async_main(void* arg) {
  grt_runtime_async_queue_t* queue = arg;
  for (;;) {
    pthread_mutex_lock(&queue->mutex);
    while (!queue->head && !queue->shutting_down) {
      pthread_cond_wait(&queue->ready, &queue->mutex);
    }
    grt_runtime_async_call_t* call = queue->head;
    bool cancelled = queue->shutting_down;
    if (call) {
      queue->head = call->next;
      if (!queue->head) queue->tail = NULL;
    }
    pthread_mutex_unlock(&queue->mutex);
    if (!call) return NULL;
    if (cancelled) {
      grt_hal_fence_fail(
          call->signal_fence,
          grt_make_status(GRT_STATUS_CANCELLED,
                          "the session was released before the asynchronous "
                          "call to '%.*s.%.*s' ran",
                          GRT_SV_ARG(call->function.module->name),
                          GRT_SV_ARG(call->function.name)));
    } else {
      grt_runtime_async_run(queue, call);
    }
    grt_runtime_async_call_free(queue->allocator, call);
  }
}

grt_status_t grt_runtime_async_queue_create(
    grt_runtime_session_t* session, grt_allocator_t allocator,
    grt_runtime_async_queue_t** out_queue) {
  *out_queue = NULL;
  grt_runtime_async_queue_t* queue = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, sizeof(*queue), (void**)&queue));
  queue->session = session;
  queue->allocator = allocator;
  pthread_mutex_init(&queue->mutex, NULL);
  pthread_cond_init(&queue->ready, NULL);
  int error = pthread_create(&queue->thread, NULL, grt_runtime_async_main, queue);
  if (error != 0) {
    pthread_cond_destroy(&queue->ready);
    pthread_mutex_destroy(&queue->mutex);
    grt_allocator_free(allocator, queue);
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "cannot start the session's asynchronous call "
                           "thread (pthread_create: %s)",
                           strerror(error));
  }
  *out_queue = queue;
  return grt_ok_status();
}

void grt_runtime_async_queue_destroy(grt_runtime_async_queue_t* queue) {
  if (!queue) return;
  pthread_mutex_lock(&queue->mutex);
  queue->shutting_down = true;
  pthread_cond_signal(&queue->ready);
  pthread_mutex_unlock(&queue->mutex);
  pthread_join(queue->thread, NULL);
  pthread_cond_destroy(&queue->ready);
  pthread_mutex_destroy(&queue->mutex);
  grt_allocator_free(queue->allocator, queue);
}

grt_status_t grt_runtime_async_queue_push(
    grt_runtime_async_queue_t* queue, const grt_vm_function_t* function,
    grt_vm_list_t* inputs, grt_hal_fence_t* wait_fence,
    grt_hal_fence_t* signal_fence, grt_vm_list_t* outputs) {
  grt_runtime_async_call_t* call = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(queue->allocator, sizeof(*call), (void**)&call));
  call->function = *function;
  call->inputs = inputs;
  call->outputs = outputs;
  call->wait_fence = wait_fence;
  call->signal_fence = signal_fence;
  if (inputs) grt_vm_list_retain(inputs);
  if (outputs) grt_vm_list_retain(outputs);
  if (wait_fence) grt_hal_fence_retain(wait_fence);
  grt_hal_fence_retain(signal_fence);
  pthread_mutex_lock(&queue->mutex);
  if (queue->tail) {
    queue->tail->next = call;
  } else {
    queue->head = call;
  }
  queue->tail = call;
  pthread_cond_signal(&queue->ready);
  pthread_mutex_unlock(&queue->mutex);
  return grt_ok_status();
}
