// The CUDA device (cuda_device.h): context, queue operations, completion
// through host functions.
#include "hal/drivers/cuda/cuda_device.h"

#include <stdio.h>
#include <string.h>


//===----------------------------------------------------------------------===//
// Shared context
//===----------------------------------------------------------------------===//

void grt_hal_cuda_context_retain(grt_hal_cuda_context_t* context) {
  atomic_fetch_add_explicit(&context->ref_count, 1u, memory_order_relaxed);
}

void grt_hal_cuda_context_release(grt_hal_cuda_context_t* context) {
  if (!context || atomic_fetch_sub_explicit(&context->ref_count, 1u,
                                            memory_order_acq_rel) != 1u) {
    return;
  }
  const grt_hal_cuda_symbols_t* symbols = context->symbols;
  if (context->cu_context) {
    // Teardown cannot report failures; the stream is drained so nothing
    // still running refers to memory about to go.
    symbols->cuCtxSetCurrent(context->cu_context);
    if (context->stream) {
      symbols->cuStreamSynchronize(context->stream);
      symbols->cuStreamDestroy(context->stream);
    }
    symbols->cuDevicePrimaryCtxRelease(context->cu_device);
  }
  grt_allocator_free(context->host_allocator, context);
}

grt_status_t grt_hal_cuda_context_make_current(grt_hal_cuda_context_t* context) {
  GRT_CUDA_RETURN_IF_ERROR(context->symbols, cuCtxSetCurrent,
                           (context->cu_context));
  return grt_ok_status();
}

static grt_status_t grt_hal_cuda_context_create(
    const grt_hal_cuda_symbols_t* symbols, int ordinal,
    grt_allocator_t host_allocator, grt_hal_cuda_context_t** out_context) {
  *out_context = NULL;
  grt_hal_cuda_context_t* context = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(host_allocator, sizeof(*context),
                                           (void**)&context));
  atomic_init(&context->ref_count, 1u);
  context->host_allocator = host_allocator;
  context->symbols = symbols;
  grt_status_t status =
      GRT_CUDA_STATUS(symbols, cuDeviceGet, (&context->cu_device, ordinal));
  if (grt_status_is_ok(status)) {
    status = GRT_CUDA_STATUS(symbols, cuDevicePrimaryCtxRetain,
                             (&context->cu_context, context->cu_device));
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_cuda_context_make_current(context);
  }
  if (grt_status_is_ok(status)) {
    status = GRT_CUDA_STATUS(symbols, cuStreamCreate,
                             (&context->stream, CU_STREAM_NON_BLOCKING));
  }
  int pools = 0;
  if (grt_status_is_ok(status)) {
    status = GRT_CUDA_STATUS(
        symbols, cuDeviceGetAttribute,
        (&pools, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
         context->cu_device));
  }
  context->memory_pools_supported = pools != 0;
  if (!grt_status_is_ok(status)) {
    grt_hal_cuda_context_release(context);
    return status;
  }
  *out_context = context;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Submissions
//===----------------------------------------------------------------------===//

// What one queue operation keeps alive until its host function ran, and
// the semaphores that function signals.
struct grt_hal_cuda_submission_t {
  grt_hal_cuda_submission_t* next;
  grt_hal_cuda_device_t* device;  // valid: destroy drains the stream first
  size_t signal_count;
  grt_hal_semaphore_t** semaphores;  // retained
  uint64_t* values;
  size_t resource_count;
  grt_hal_resource_t** resources;  // retained command buffers and buffers
};

static void grt_hal_cuda_submission_free(grt_allocator_t host_allocator,
                                         grt_hal_cuda_submission_t* s) {
  for (size_t i = 0; i < s->signal_count; ++i) {
    grt_hal_semaphore_release(s->semaphores[i]);
  }
  for (size_t i = 0; i < s->resource_count; ++i) {
    grt_hal_resource_release(s->resources[i]);
  }
  grt_allocator_free(host_allocator, s);
}

// Releases finished submissions on the calling thread (host functions may
// not: releasing can call the driver API).
static void grt_hal_cuda_device_drain(grt_hal_cuda_device_t* device) {
  pthread_mutex_lock(&device->completed_mutex);
  grt_hal_cuda_submission_t* list = device->completed;
  device->completed = NULL;
  pthread_mutex_unlock(&device->completed_mutex);
  while (list) {
    grt_hal_cuda_submission_t* next = list->next;
    grt_hal_cuda_submission_free(device->base.host_allocator, list);
    list = next;
  }
}

// Runs on the driver's host-function thread once the stream reached it.
static void CUDA_CB grt_hal_cuda_submission_done(void* user_data) {
  grt_hal_cuda_submission_t* s = (grt_hal_cuda_submission_t*)user_data;
  for (size_t i = 0; i < s->signal_count; ++i) {
    grt_status_t status = grt_hal_semaphore_signal(s->semaphores[i],
                                                   s->values[i]);
    // A semaphore failed meanwhile keeps its failure; any other refusal
    // (a value that does not increase) becomes the semaphore's failure.
    if (!grt_status_is_ok(status)) {
      grt_hal_semaphore_fail(s->semaphores[i], status);
    }
  }
  grt_hal_cuda_device_t* device = s->device;
  pthread_mutex_lock(&device->completed_mutex);
  s->next = device->completed;
  device->completed = s;
  pthread_mutex_unlock(&device->completed_mutex);
}

// A submission for |signal| keeping |resource_count| resources (filled by
// the caller) in one block.
static grt_status_t grt_hal_cuda_submission_create(
    grt_hal_cuda_device_t* device, grt_hal_semaphore_list_t signal,
    size_t resource_count, grt_hal_cuda_submission_t** out) {
  *out = NULL;
  size_t size = sizeof(grt_hal_cuda_submission_t) +
                signal.count * (sizeof(grt_hal_semaphore_t*) + sizeof(uint64_t)) +
                resource_count * sizeof(grt_hal_resource_t*);
  grt_hal_cuda_submission_t* s = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(device->base.host_allocator, size, (void**)&s));
  s->device = device;
  uint8_t* cursor = (uint8_t*)(s + 1);
  s->values = (uint64_t*)cursor;
  cursor += signal.count * sizeof(uint64_t);
  s->semaphores = (grt_hal_semaphore_t**)cursor;
  cursor += signal.count * sizeof(grt_hal_semaphore_t*);
  s->resources = (grt_hal_resource_t**)cursor;
  s->signal_count = signal.count;
  for (size_t i = 0; i < signal.count; ++i) {
    s->semaphores[i] = signal.semaphores[i];
    grt_hal_semaphore_retain(signal.semaphores[i]);
    s->values[i] = signal.values[i];
  }
  *out = s;
  return grt_ok_status();
}

// Waits for |wait| as far as the host must: pairs not yet reached that no
// CUDA stream has promised are awaited here (a condition variable, no
// spinning), so the stream never depends on the host after issue. Returns
// a failed semaphore's status.
static grt_status_t grt_hal_cuda_device_host_wait(grt_hal_cuda_device_t* device,
                                                  grt_hal_semaphore_list_t wait) {
  for (size_t i = 0; i < wait.count; ++i) {
    uint64_t value = 0;
    GRT_RETURN_IF_ERROR(grt_hal_semaphore_query(wait.semaphores[i], &value));
    if (value >= wait.values[i]) continue;
    CUevent event = NULL;
    if (grt_hal_cuda_semaphore_device_waitable(
            device->context, wait.semaphores[i], wait.values[i], &event)) {
      continue;
    }
    GRT_RETURN_IF_ERROR(grt_hal_semaphore_wait(
        wait.semaphores[i], wait.values[i], GRT_HAL_TIMEOUT_INFINITE));
  }
  return grt_ok_status();
}

// Makes the stream wait for pairs another CUDA stream will signal. Issue
// mutex held.
static grt_status_t grt_hal_cuda_device_stream_wait(
    grt_hal_cuda_device_t* device, grt_hal_semaphore_list_t wait) {
  const grt_hal_cuda_symbols_t* symbols = device->context->symbols;
  for (size_t i = 0; i < wait.count; ++i) {
    CUevent event = NULL;
    if (grt_hal_cuda_semaphore_device_waitable(
            device->context, wait.semaphores[i], wait.values[i], &event) &&
        event) {
      GRT_CUDA_RETURN_IF_ERROR(symbols, cuStreamWaitEvent,
                               (device->context->stream, event, 0));
    }
  }
  return grt_ok_status();
}

// Queues the host function signalling |signal| after everything issued so
// far and hands |submission| to it. Issue mutex held. On failure the
// submission is freed here.
static grt_status_t grt_hal_cuda_device_issue_signal(
    grt_hal_cuda_device_t* device, grt_hal_semaphore_list_t signal,
    grt_hal_cuda_submission_t* submission) {
  grt_hal_cuda_context_t* context = device->context;
  grt_status_t status = grt_ok_status();
  for (size_t i = 0; i < signal.count && grt_status_is_ok(status); ++i) {
    status = grt_hal_cuda_semaphore_will_signal(context, signal.semaphores[i],
                                                signal.values[i]);
  }
  if (grt_status_is_ok(status)) {
    status = GRT_CUDA_STATUS(
        context->symbols, cuLaunchHostFunc,
        (context->stream, grt_hal_cuda_submission_done, submission));
  }
  if (!grt_status_is_ok(status)) {
    grt_hal_cuda_submission_free(device->base.host_allocator, submission);
  }
  return status;
}

// The common shape of every queue operation: wait (host part outside the
// issue mutex), issue |issue_fn|, signal through a host function. Errors
// after validation fail the signal semaphores and return OK, as the HAL
// asks of execution errors.
typedef grt_status_t (*grt_hal_cuda_issue_fn)(grt_hal_cuda_device_t* device,
                                              void* user_data);

static grt_status_t grt_hal_cuda_device_queue_submit(
    grt_hal_cuda_device_t* device, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, grt_hal_cuda_submission_t* submission,
    grt_hal_cuda_issue_fn issue_fn, void* user_data) {
  grt_hal_cuda_device_drain(device);
  grt_status_t status = grt_hal_cuda_device_host_wait(device, wait);
  if (!grt_status_is_ok(status)) {
    grt_hal_cuda_submission_free(device->base.host_allocator, submission);
    grt_hal_semaphore_list_fail(signal, status);
    return grt_ok_status();
  }
  pthread_mutex_lock(&device->issue_mutex);
  status = grt_hal_cuda_context_make_current(device->context);
  if (grt_status_is_ok(status)) {
    status = grt_hal_cuda_device_stream_wait(device, wait);
  }
  if (grt_status_is_ok(status) && issue_fn) {
    status = issue_fn(device, user_data);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_cuda_device_issue_signal(device, signal, submission);
    submission = NULL;
  }
  pthread_mutex_unlock(&device->issue_mutex);
  if (submission) {
    grt_hal_cuda_submission_free(device->base.host_allocator, submission);
  }
  if (!grt_status_is_ok(status)) grt_hal_semaphore_list_fail(signal, status);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Device vtable
//===----------------------------------------------------------------------===//

static void grt_hal_cuda_device_destroy(grt_hal_resource_t* resource) {
  grt_hal_cuda_device_t* device = (grt_hal_cuda_device_t*)resource;
  grt_allocator_t host_allocator = device->base.host_allocator;
  if (device->context) {
    // Every host function has run once the stream is drained.
    if (grt_status_consume_ok(
            grt_hal_cuda_context_make_current(device->context))) {
      device->context->symbols->cuStreamSynchronize(device->context->stream);
    }
    grt_hal_cuda_device_drain(device);
  }
  grt_hal_executable_cache_release(device->executable_cache);
  grt_hal_allocator_release(device->allocator);
  grt_hal_cuda_context_release(device->context);
  pthread_mutex_destroy(&device->issue_mutex);
  pthread_mutex_destroy(&device->completed_mutex);
  grt_allocator_free(host_allocator, device);
}

static grt_hal_allocator_t* grt_hal_cuda_device_allocator(
    grt_hal_device_t* base) {
  return ((grt_hal_cuda_device_t*)base)->allocator;
}

static grt_hal_executable_cache_t* grt_hal_cuda_device_executable_cache(
    grt_hal_device_t* base) {
  return ((grt_hal_cuda_device_t*)base)->executable_cache;
}

static grt_status_t grt_hal_cuda_device_query_i64(grt_hal_device_t* base,
                                                  grt_string_view_t category,
                                                  grt_string_view_t key,
                                                  int64_t* out_value) {
  return grt_hal_device_answer_concurrency(
      category, key, ((grt_hal_cuda_device_t*)base)->multiprocessor_count,
      out_value);
}

static grt_status_t grt_hal_cuda_device_create_command_buffer(
    grt_hal_device_t* base, grt_hal_command_buffer_mode_t mode,
    uint32_t binding_capacity, grt_hal_command_buffer_t** out) {
  return grt_hal_cuda_command_buffer_create(
      ((grt_hal_cuda_device_t*)base)->context, mode, binding_capacity, out);
}

static grt_status_t grt_hal_cuda_device_create_semaphore(
    grt_hal_device_t* base, uint64_t initial_value, grt_hal_semaphore_t** out) {
  return grt_hal_cuda_semaphore_create(((grt_hal_cuda_device_t*)base)->context,
                                       initial_value, out);
}

typedef struct grt_hal_cuda_alloca_t {
  grt_hal_buffer_params_t params;
  uint64_t size;
  grt_hal_buffer_t** out_buffer;
} grt_hal_cuda_alloca_t;

// Stream-ordered: the allocation (cuMemAllocAsync where pools exist) is
// issued on the queue after the waits.
static grt_status_t grt_hal_cuda_device_issue_alloca(
    grt_hal_cuda_device_t* device, void* user_data) {
  grt_hal_cuda_alloca_t* alloca = (grt_hal_cuda_alloca_t*)user_data;
  return grt_hal_allocator_allocate_buffer(device->allocator, alloca->params,
                                           alloca->size, alloca->out_buffer);
}

static grt_status_t grt_hal_cuda_device_queue_alloca(
    grt_hal_device_t* base, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, grt_hal_buffer_params_t params,
    uint64_t size, grt_hal_buffer_t** out_buffer) {
  grt_hal_cuda_device_t* device = (grt_hal_cuda_device_t*)base;
  *out_buffer = NULL;
  grt_hal_cuda_submission_t* submission = NULL;
  GRT_RETURN_IF_ERROR(
      grt_hal_cuda_submission_create(device, signal, 0, &submission));
  // The buffer must exist when the call returns, so a failed wait still
  // fails the signals but an allocation failure is the call's error.
  grt_status_t status = grt_hal_cuda_device_host_wait(device, wait);
  if (!grt_status_is_ok(status)) {
    grt_hal_cuda_submission_free(base->host_allocator, submission);
    return status;
  }
  grt_hal_cuda_alloca_t alloca = {params, size, out_buffer};
  pthread_mutex_lock(&device->issue_mutex);
  status = grt_hal_cuda_context_make_current(device->context);
  if (grt_status_is_ok(status)) {
    status = grt_hal_cuda_device_stream_wait(device, wait);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_cuda_device_issue_alloca(device, &alloca);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_cuda_device_issue_signal(device, signal, submission);
    submission = NULL;
  }
  pthread_mutex_unlock(&device->issue_mutex);
  if (submission) grt_hal_cuda_submission_free(base->host_allocator, submission);
  if (!grt_status_is_ok(status)) {
    grt_hal_buffer_release(*out_buffer);
    *out_buffer = NULL;
  }
  return status;
}

static grt_status_t grt_hal_cuda_device_queue_dealloca(
    grt_hal_device_t* base, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, grt_hal_buffer_t* buffer) {
  grt_hal_cuda_device_t* device = (grt_hal_cuda_device_t*)base;
  if (!grt_hal_cuda_buffer_isa(grt_hal_buffer_allocated_buffer(buffer),
                               device->context)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "queue dealloca of a buffer not allocated by "
                           "device %s",
                           base->uri);
  }
  // The memory is returned (cuMemFreeAsync, stream-ordered) when the last
  // reference goes; the queue point only orders the signal.
  grt_hal_cuda_submission_t* submission = NULL;
  GRT_RETURN_IF_ERROR(
      grt_hal_cuda_submission_create(device, signal, 0, &submission));
  return grt_hal_cuda_device_queue_submit(device, wait, signal, submission,
                                          NULL, NULL);
}

typedef struct grt_hal_cuda_execute_t {
  size_t count;
  grt_hal_command_buffer_t* const* command_buffers;
  const grt_hal_buffer_binding_table_t* binding_tables;
} grt_hal_cuda_execute_t;

static grt_hal_buffer_binding_table_t grt_hal_cuda_table_at(
    const grt_hal_buffer_binding_table_t* tables, size_t index) {
  return tables ? tables[index] : grt_hal_buffer_binding_table_empty();
}

static grt_status_t grt_hal_cuda_device_issue_execute(
    grt_hal_cuda_device_t* device, void* user_data) {
  grt_hal_cuda_execute_t* execute = (grt_hal_cuda_execute_t*)user_data;
  for (size_t i = 0; i < execute->count; ++i) {
    GRT_RETURN_IF_ERROR_ANNOTATED(
        grt_hal_cuda_command_buffer_issue(
            device->context, execute->command_buffers[i],
            grt_hal_cuda_table_at(execute->binding_tables, i)),
        "command buffer %zu of %zu", i, execute->count);
  }
  return grt_ok_status();
}

static grt_status_t grt_hal_cuda_device_queue_execute(
    grt_hal_device_t* base, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, size_t count,
    grt_hal_command_buffer_t* const* command_buffers,
    const grt_hal_buffer_binding_table_t* binding_tables) {
  grt_hal_cuda_device_t* device = (grt_hal_cuda_device_t*)base;
  size_t resource_count = count;
  for (size_t i = 0; i < count; ++i) {
    if (!grt_hal_cuda_command_buffer_isa(command_buffers[i])) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "command buffer %zu of %zu was not created by a "
                             "cuda device",
                             i, count);
    }
    grt_hal_buffer_binding_table_t table =
        grt_hal_cuda_table_at(binding_tables, i);
    GRT_RETURN_IF_ERROR_ANNOTATED(
        grt_hal_command_buffer_validate_submission(command_buffers[i], table),
        "command buffer %zu of %zu", i, count);
    resource_count += table.count;
  }
  // The command buffers and the table's buffers stay alive until the
  // work is done, whatever the caller releases meanwhile.
  grt_hal_cuda_submission_t* submission = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_cuda_submission_create(device, signal,
                                                     resource_count,
                                                     &submission));
  for (size_t i = 0; i < count; ++i) {
    grt_hal_command_buffer_retain(command_buffers[i]);
    submission->resources[submission->resource_count++] =
        &command_buffers[i]->resource;
    grt_hal_buffer_binding_table_t table =
        grt_hal_cuda_table_at(binding_tables, i);
    for (size_t j = 0; j < table.count; ++j) {
      if (!table.bindings[j].buffer) continue;
      grt_hal_buffer_retain(table.bindings[j].buffer);
      submission->resources[submission->resource_count++] =
          &table.bindings[j].buffer->resource;
    }
  }
  grt_hal_cuda_execute_t execute = {count, command_buffers, binding_tables};
  return grt_hal_cuda_device_queue_submit(device, wait, signal, submission,
                                          grt_hal_cuda_device_issue_execute,
                                          &execute);
}

static grt_status_t grt_hal_cuda_device_queue_flush(grt_hal_device_t* base) {
  // Work starts when it is issued; flushing only releases what finished.
  grt_hal_cuda_device_drain((grt_hal_cuda_device_t*)base);
  return grt_ok_status();
}

static const grt_hal_device_vtable_t grt_hal_cuda_device_vtable = {
    {grt_hal_cuda_device_destroy},
    grt_hal_cuda_device_allocator,
    grt_hal_cuda_device_executable_cache,
    grt_hal_cuda_device_query_i64,
    grt_hal_cuda_device_create_command_buffer,
    grt_hal_cuda_device_create_semaphore,
    grt_hal_cuda_device_queue_alloca,
    grt_hal_cuda_device_queue_dealloca,
    grt_hal_cuda_device_queue_execute,
    grt_hal_cuda_device_queue_flush,
};

grt_status_t grt_hal_cuda_device_create(const grt_hal_cuda_symbols_t* symbols,
                                        int ordinal, const char* uri,
                                        grt_allocator_t host_allocator,
                                        grt_hal_device_t** out_device) {
  *out_device = NULL;
  grt_hal_cuda_device_t* device = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(host_allocator, sizeof(*device),
                                           (void**)&device));
  grt_hal_device_initialize(&grt_hal_cuda_device_vtable, uri, host_allocator,
                            &device->base);
  pthread_mutex_init(&device->issue_mutex, NULL);
  pthread_mutex_init(&device->completed_mutex, NULL);
  grt_status_t status = grt_hal_cuda_context_create(symbols, ordinal,
                                                    host_allocator,
                                                    &device->context);
  int multiprocessors = 0;
  if (grt_status_is_ok(status)) {
    status = GRT_CUDA_STATUS(
        symbols, cuDeviceGetAttribute,
        (&multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
         device->context->cu_device));
  }
  device->multiprocessor_count = (uint32_t)multiprocessors;
  if (grt_status_is_ok(status)) {
    status = grt_hal_cuda_allocator_create(device->context, &device->allocator);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_cuda_executable_cache_create(device->context,
                                                  &device->executable_cache);
  }
  if (!grt_status_is_ok(status)) {
    grt_hal_device_release(&device->base);
    return status;
  }
  *out_device = &device->base;
  return grt_ok_status();
}
