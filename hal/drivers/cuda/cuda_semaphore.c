// CUDA timeline semaphores (cuda_device.h).
//
// The value, failure and waiting are the host semaphore's (hal/semaphore.c:
// mutex + condition variable), signalled by the queue's host functions, so
// host waits sleep. What CUDA adds is the promise: when a queue operation
// will signal value v, the semaphore remembers v and records its event on
// that stream after the work. Work on the same stream that waits for <= v
// needs nothing (stream order); work on another CUDA device's stream waits
// on the event (cuStreamWaitEvent); only values nobody promised are waited
// for on the host, before issue.
#include <pthread.h>
#include <string.h>

#include "hal/drivers/cuda/cuda_device.h"
#include "hal/semaphore.h"

typedef struct grt_hal_cuda_semaphore_t {
  grt_hal_semaphore_t base;
  grt_allocator_t host_allocator;
  grt_hal_semaphore_t* host;  // value, failure, waiting
  grt_hal_cuda_context_t* context;  // retained; owns |event|
  pthread_mutex_t mutex;  // guards the promise
  uint64_t promised_value;  // largest value a CUDA stream will signal
  CUevent event;  // recorded on context->stream after that work, or NULL
} grt_hal_cuda_semaphore_t;

static const grt_hal_semaphore_vtable_t grt_hal_cuda_semaphore_vtable;

static grt_hal_cuda_semaphore_t* grt_hal_cuda_semaphore_cast(
    grt_hal_semaphore_t* semaphore) {
  return semaphore->resource.vtable == &grt_hal_cuda_semaphore_vtable
             ? (grt_hal_cuda_semaphore_t*)semaphore
             : NULL;
}

static void grt_hal_cuda_semaphore_destroy(grt_hal_resource_t* resource) {
  grt_hal_cuda_semaphore_t* semaphore = (grt_hal_cuda_semaphore_t*)resource;
  if (semaphore->event &&
      grt_status_consume_ok(
          grt_hal_cuda_context_make_current(semaphore->context))) {
    semaphore->context->symbols->cuEventDestroy(semaphore->event);
  }
  grt_hal_semaphore_release(semaphore->host);
  grt_hal_cuda_context_release(semaphore->context);
  pthread_mutex_destroy(&semaphore->mutex);
  grt_allocator_free(semaphore->host_allocator, semaphore);
}

static grt_status_t grt_hal_cuda_semaphore_query(grt_hal_semaphore_t* base,
                                                 uint64_t* out_value) {
  return grt_hal_semaphore_query(((grt_hal_cuda_semaphore_t*)base)->host,
                                 out_value);
}

static grt_status_t grt_hal_cuda_semaphore_signal(grt_hal_semaphore_t* base,
                                                  uint64_t value) {
  return grt_hal_semaphore_signal(((grt_hal_cuda_semaphore_t*)base)->host,
                                  value);
}

static void grt_hal_cuda_semaphore_fail(grt_hal_semaphore_t* base,
                                        grt_status_t status) {
  grt_hal_semaphore_fail(((grt_hal_cuda_semaphore_t*)base)->host, status);
}

static grt_status_t grt_hal_cuda_semaphore_wait(grt_hal_semaphore_t* base,
                                                uint64_t value,
                                                grt_time_t deadline_ns) {
  grt_hal_semaphore_t* host = ((grt_hal_cuda_semaphore_t*)base)->host;
  return GRT_HAL_VTABLE(host, grt_hal_semaphore_vtable_t)
      ->wait(host, value, deadline_ns);
}

static const grt_hal_semaphore_vtable_t grt_hal_cuda_semaphore_vtable = {
    {grt_hal_cuda_semaphore_destroy},
    grt_hal_cuda_semaphore_query,
    grt_hal_cuda_semaphore_signal,
    grt_hal_cuda_semaphore_fail,
    grt_hal_cuda_semaphore_wait,
};

grt_status_t grt_hal_cuda_semaphore_create(grt_hal_cuda_context_t* context,
                                           uint64_t initial_value,
                                           grt_hal_semaphore_t** out) {
  *out = NULL;
  grt_hal_cuda_semaphore_t* semaphore = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      context->host_allocator, sizeof(*semaphore), (void**)&semaphore));
  grt_status_t status = grt_hal_host_semaphore_create(
      initial_value, context->host_allocator, &semaphore->host);
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(context->host_allocator, semaphore);
    return status;
  }
  grt_hal_resource_initialize(&grt_hal_cuda_semaphore_vtable,
                              &semaphore->base.resource);
  semaphore->host_allocator = context->host_allocator;
  semaphore->context = context;
  grt_hal_cuda_context_retain(context);
  pthread_mutex_init(&semaphore->mutex, NULL);
  semaphore->promised_value = initial_value;
  *out = &semaphore->base;
  return grt_ok_status();
}

bool grt_hal_cuda_semaphore_device_waitable(grt_hal_cuda_context_t* context,
                                            grt_hal_semaphore_t* base,
                                            uint64_t value, CUevent* out_event) {
  *out_event = NULL;
  grt_hal_cuda_semaphore_t* semaphore = grt_hal_cuda_semaphore_cast(base);
  if (!semaphore) return false;
  pthread_mutex_lock(&semaphore->mutex);
  bool promised = semaphore->event != NULL && semaphore->promised_value >= value;
  // The event is re-recorded for later values; waiting on its latest
  // record waits for at least the promised work, never less.
  if (promised && semaphore->context != context) *out_event = semaphore->event;
  pthread_mutex_unlock(&semaphore->mutex);
  return promised;
}

grt_status_t grt_hal_cuda_semaphore_will_signal(grt_hal_cuda_context_t* context,
                                                grt_hal_semaphore_t* base,
                                                uint64_t value) {
  grt_hal_cuda_semaphore_t* semaphore = grt_hal_cuda_semaphore_cast(base);
  // Semaphores of other drivers, and those of another CUDA context (whose
  // event cannot be recorded on this stream), are only signalled by the
  // host function: their waiters wait on the host.
  if (!semaphore || semaphore->context != context) return grt_ok_status();
  const grt_hal_cuda_symbols_t* symbols = context->symbols;
  pthread_mutex_lock(&semaphore->mutex);
  grt_status_t status = grt_ok_status();
  if (!semaphore->event) {
    status = GRT_CUDA_STATUS(symbols, cuEventCreate,
                             (&semaphore->event, CU_EVENT_DISABLE_TIMING));
  }
  if (grt_status_is_ok(status)) {
    status = GRT_CUDA_STATUS(symbols, cuEventRecord,
                             (semaphore->event, context->stream));
  }
  if (grt_status_is_ok(status) && value > semaphore->promised_value) {
    semaphore->promised_value = value;
  }
  pthread_mutex_unlock(&semaphore->mutex);
  return status;
}
