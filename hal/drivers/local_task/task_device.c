#include "hal/drivers/local_task/task_device.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "base/checked_math.h"
#include "base/time.h"
#include "base/trace.h"
#include "hal/local/command_buffer.h"
#include "hal/local/device_common.h"
#include "hal/local/executable.h"
#include "hal/local/heap_allocator.h"
#include "hal/local/task_pool.h"

// Tasks per dispatch to aim for, per worker: enough that uneven workgroups
// balance across workers, few enough that claiming a task stays cheap
// next to running it.
#define GRT_HAL_TASK_TASKS_PER_WORKER 4

// A dispatch that becomes one task, names only buffers (so resolving its
// bindings cannot fail) and has at most this many bindings is prepared by
// the worker that runs it, on its stack: a region of many tiny dispatches
// then needs no per-dispatch state.
#define GRT_HAL_TASK_STACK_BINDINGS 16

// The kernel ABI promises 64-byte aligned local memory.
#define GRT_HAL_TASK_LOCAL_MEMORY_ALIGNMENT 64

// A queued operation. Everything it names is retained (or copied) so the
// caller may drop its references as soon as the queue call returns.
typedef struct grt_hal_task_submission_t {
  struct grt_hal_task_submission_t* next;
  grt_hal_semaphore_list_t wait;
  grt_hal_semaphore_list_t signal;
  size_t command_buffer_count;
  grt_hal_command_buffer_t** command_buffers;
  grt_hal_buffer_binding_table_t* binding_tables;
  grt_hal_buffer_t* buffer;  // dealloca: held until the dealloca runs
} grt_hal_task_submission_t;

// One command of the region being run, and the tasks it became.
typedef struct grt_hal_task_region_item_t {
  const grt_hal_local_command_t* command;
  // NULL for transfers and for dispatches the worker prepares itself.
  grt_hal_local_dispatch_t* dispatch;
  uint64_t first_task;  // index of its first task in the region's batch
  uint64_t chunk_size;  // workgroups per task (dispatches)
} grt_hal_task_region_item_t;

typedef struct grt_hal_task_device_t {
  grt_hal_local_device_t local;
  grt_hal_local_task_pool_t* pool;
  uint32_t worker_count;

  // Only the queue thread touches these (between batches, so no worker is
  // reading them while they change).
  void** worker_local_memory;  // worker_count blocks of local_memory_size
  size_t local_memory_size;
  grt_hal_task_region_item_t* items;
  size_t item_capacity;

  pthread_mutex_t mutex;  // guards the queue below
  pthread_cond_t queue_changed;
  grt_hal_task_submission_t* head;
  grt_hal_task_submission_t* tail;
  bool shutting_down;
  bool queue_thread_started;
  pthread_t queue_thread;
} grt_hal_task_device_t;

// What the workers share while running one region.
typedef struct grt_hal_task_region_run_t {
  grt_hal_task_device_t* device;
  grt_hal_local_execution_t* execution;
  const grt_hal_task_region_item_t* items;
  size_t item_count;
  bool one_task_per_item;  // then task i is items[i]
  // The first error; once set, remaining tasks return at once.
  _Atomic(grt_status_t) first_error;
} grt_hal_task_region_run_t;

static const grt_hal_device_vtable_t grt_hal_task_device_vtable;

static grt_hal_task_device_t* grt_hal_task_device_from(
    grt_hal_device_t* device) {
  return (grt_hal_task_device_t*)device;
}

//===----------------------------------------------------------------------===//
// Running command buffers on the pool
//===----------------------------------------------------------------------===//

// Keeps the first failure; later ones are dropped.
static void grt_hal_task_region_run_fail(grt_hal_task_region_run_t* run,
                                         grt_status_t status) {
  grt_status_t expected = NULL;
  if (!atomic_compare_exchange_strong(&run->first_error, &expected, status)) {
    grt_status_free(status);
  }
}

static grt_status_t grt_hal_task_run_item_task(
    grt_hal_task_region_run_t* run, const grt_hal_task_region_item_t* item,
    uint64_t task, uint32_t worker_id) {
  const grt_hal_local_command_t* command = item->command;
  if (command->type != GRT_HAL_LOCAL_COMMAND_DISPATCH) {
    return grt_hal_local_execution_run_transfer(run->execution, command);
  }
  grt_hal_task_device_t* device = run->device;
  void* local_memory = device->worker_local_memory
                           ? device->worker_local_memory[worker_id]
                           : NULL;
  uint64_t total = command->dispatch.workgroup_total;
  if (!item->dispatch) {
    // The whole dispatch is this task (grt_hal_task_device_run_region).
    void* pointers[GRT_HAL_TASK_STACK_BINDINGS];
    size_t lengths[GRT_HAL_TASK_STACK_BINDINGS];
    grt_hal_local_dispatch_t dispatch;
    GRT_RETURN_IF_ERROR(grt_hal_local_execution_prepare_dispatch_into(
        run->execution, &command->dispatch, &dispatch, pointers, lengths));
    return grt_hal_local_dispatch_run_workgroups(
        &dispatch, 0, total, worker_id, local_memory,
        device->local_memory_size);
  }
  uint64_t first = (task - item->first_task) * item->chunk_size;
  uint64_t count = total - first < item->chunk_size ? total - first
                                                    : item->chunk_size;
  return grt_hal_local_dispatch_run_workgroups(item->dispatch, first, count,
                                               worker_id, local_memory,
                                               device->local_memory_size);
}

static void grt_hal_task_region_task(void* user_data, uint64_t task,
                                     uint32_t worker_id) {
  grt_hal_task_region_run_t* run = user_data;
  if (atomic_load_explicit(&run->first_error, memory_order_relaxed)) return;
  size_t low = 0;
  if (run->one_task_per_item) {
    low = (size_t)task;
  } else {
    // The item whose task range holds |task|: the last with first_task <= it.
    size_t high = run->item_count;
    while (high - low > 1) {
      size_t middle = low + (high - low) / 2;
      if (run->items[middle].first_task <= task) {
        low = middle;
      } else {
        high = middle;
      }
    }
  }
  grt_status_t status =
      grt_hal_task_run_item_task(run, &run->items[low], task, worker_id);
  if (!grt_status_is_ok(status)) grt_hal_task_region_run_fail(run, status);
}

// Grows every worker's local memory to at least |size| bytes.
static grt_status_t grt_hal_task_device_reserve_local_memory(
    grt_hal_task_device_t* device, size_t size) {
  if (size <= device->local_memory_size) return grt_ok_status();
  grt_allocator_t host_allocator = device->local.base.host_allocator;
  if (!device->worker_local_memory) {
    GRT_RETURN_IF_ERROR(grt_allocator_calloc(
        host_allocator, device->worker_count * sizeof(void*),
        (void**)&device->worker_local_memory));
  }
  for (uint32_t i = 0; i < device->worker_count; ++i) {
    void* block = NULL;
    GRT_RETURN_IF_ERROR(grt_allocator_malloc_aligned(
        host_allocator, size, GRT_HAL_TASK_LOCAL_MEMORY_ALIGNMENT, &block));
    grt_allocator_free(host_allocator, device->worker_local_memory[i]);
    device->worker_local_memory[i] = block;
  }
  device->local_memory_size = size;
  return grt_ok_status();
}

static grt_status_t grt_hal_task_device_reserve_items(
    grt_hal_task_device_t* device, size_t count) {
  if (count <= device->item_capacity) return grt_ok_status();
  size_t capacity = device->item_capacity ? device->item_capacity : 16;
  while (capacity < count) capacity *= 2;
  GRT_RETURN_IF_ERROR(grt_allocator_realloc(
      device->local.base.host_allocator,
      device->item_capacity * sizeof(*device->items),
      capacity * sizeof(*device->items), (void**)&device->items));
  device->item_capacity = capacity;
  return grt_ok_status();
}

// Runs one region: every command becomes tasks of a single batch.
static grt_status_t grt_hal_task_device_run_region(
    grt_hal_task_device_t* device, grt_hal_local_execution_t* execution,
    const grt_hal_local_region_t* region) {
  GRT_RETURN_IF_ERROR(
      grt_hal_task_device_reserve_items(device, region->command_count));
  uint64_t task_count = 0;
  uint64_t tasks_per_dispatch =
      (uint64_t)device->worker_count * GRT_HAL_TASK_TASKS_PER_WORKER;
  for (size_t i = 0; i < region->command_count; ++i) {
    grt_hal_task_region_item_t* item = &device->items[i];
    item->command = region->commands[i];
    item->dispatch = NULL;
    item->first_task = task_count;
    item->chunk_size = 0;
    if (item->command->type != GRT_HAL_LOCAL_COMMAND_DISPATCH) {
      task_count += 1;
      continue;
    }
    const grt_hal_local_dispatch_command_t* dispatch = &item->command->dispatch;
    uint64_t total = dispatch->workgroup_total;
    uint64_t chunk = total / tasks_per_dispatch +
                     (total % tasks_per_dispatch ? 1 : 0);
    item->chunk_size = chunk ? chunk : 1;
    uint64_t tasks = total / item->chunk_size +
                     (total % item->chunk_size ? 1 : 0);
    task_count += tasks;
    // Dispatches that cannot fail to resolve and fit the worker's stack are
    // prepared by their one task; the rest now, so binding errors still
    // stop the region before any of it runs.
    if (tasks > 1 || dispatch->slot_binding_count != 0 ||
        dispatch->binding_count > GRT_HAL_TASK_STACK_BINDINGS) {
      GRT_RETURN_IF_ERROR(grt_hal_local_execution_prepare_dispatch(
          execution, dispatch, &item->dispatch));
    }
  }

  grt_hal_task_region_run_t run;
  run.device = device;
  run.execution = execution;
  run.items = device->items;
  run.item_count = region->command_count;
  run.one_task_per_item = task_count == region->command_count;
  atomic_init(&run.first_error, NULL);
  if (task_count == 1) {
    // Waking a worker for one task costs more than the task: run it here,
    // as worker 0, whose local memory is free because no batch is running.
    grt_hal_task_region_task(&run, 0, 0);
  } else {
    grt_hal_local_task_pool_run(device->pool, task_count,
                                grt_hal_task_region_task, &run);
  }
  return atomic_load(&run.first_error);
}

static grt_status_t grt_hal_task_device_run_command_buffer(
    grt_hal_task_device_t* device, grt_hal_command_buffer_t* base,
    grt_hal_buffer_binding_table_t binding_table) {
  grt_hal_local_command_buffer_t* command_buffer =
      grt_hal_local_command_buffer_cast(base);
  GRT_RETURN_IF_ERROR(grt_hal_task_device_reserve_local_memory(
      device,
      grt_hal_local_command_buffer_max_local_memory_size(command_buffer)));
  grt_hal_local_execution_t execution;
  GRT_RETURN_IF_ERROR(grt_hal_local_execution_initialize(
      command_buffer, binding_table, device->local.base.host_allocator, &execution));
  grt_status_t status = grt_ok_status();
  size_t region_count = grt_hal_local_command_buffer_region_count(command_buffer);
  for (size_t i = 0; i < region_count && grt_status_is_ok(status); ++i) {
    status = grt_hal_task_device_run_region(
        device, &execution,
        grt_hal_local_command_buffer_region(command_buffer, i));
  }
  grt_hal_local_execution_deinitialize(&execution);
  return status;
}

//===----------------------------------------------------------------------===//
// The queue
//===----------------------------------------------------------------------===//

static void grt_hal_task_submission_free(grt_hal_task_device_t* device,
                                         grt_hal_task_submission_t* submission) {
  for (size_t i = 0; i < submission->wait.count; ++i) {
    grt_hal_semaphore_release(submission->wait.semaphores[i]);
  }
  for (size_t i = 0; i < submission->signal.count; ++i) {
    grt_hal_semaphore_release(submission->signal.semaphores[i]);
  }
  for (size_t i = 0; i < submission->command_buffer_count; ++i) {
    grt_hal_command_buffer_release(submission->command_buffers[i]);
    const grt_hal_buffer_binding_table_t* table =
        &submission->binding_tables[i];
    for (size_t j = 0; j < table->count; ++j) {
      grt_hal_buffer_release(table->bindings[j].buffer);
    }
  }
  grt_hal_buffer_release(submission->buffer);
  grt_allocator_free(device->local.base.host_allocator, submission);
}

// Reserves |count| elements of |size| bytes at *inout_offset (8-aligned).
static bool grt_hal_task_layout_add(size_t count, size_t size,
                                    size_t* inout_offset, size_t* out_offset) {
  size_t bytes = 0;
  size_t aligned = grt_align_up_size(*inout_offset, sizeof(uint64_t));
  if (!grt_checked_mul_size(count, size, &bytes) ||
      !grt_checked_add_size(aligned, bytes, inout_offset)) {
    return false;
  }
  *out_offset = aligned;
  return true;
}

// Copies a queue operation into one allocation, retaining what it names.
static grt_status_t grt_hal_task_submission_create(
    grt_hal_task_device_t* device, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, size_t count,
    grt_hal_command_buffer_t* const* command_buffers,
    const grt_hal_buffer_binding_table_t* binding_tables,
    grt_hal_buffer_t* buffer, grt_hal_task_submission_t** out_submission) {
  *out_submission = NULL;
  size_t binding_total = 0;
  for (size_t i = 0; i < count; ++i) {
    binding_total += grt_hal_local_binding_table_at(binding_tables, i).count;
  }
  size_t size = sizeof(grt_hal_task_submission_t);
  size_t wait_semaphores, wait_values, signal_semaphores, signal_values;
  size_t buffers_offset, tables_offset, bindings_offset;
  if (!grt_hal_task_layout_add(wait.count, sizeof(void*), &size,
                               &wait_semaphores) ||
      !grt_hal_task_layout_add(wait.count, sizeof(uint64_t), &size,
                               &wait_values) ||
      !grt_hal_task_layout_add(signal.count, sizeof(void*), &size,
                               &signal_semaphores) ||
      !grt_hal_task_layout_add(signal.count, sizeof(uint64_t), &size,
                               &signal_values) ||
      !grt_hal_task_layout_add(count, sizeof(void*), &size, &buffers_offset) ||
      !grt_hal_task_layout_add(count, sizeof(grt_hal_buffer_binding_table_t),
                               &size, &tables_offset) ||
      !grt_hal_task_layout_add(binding_total, sizeof(grt_hal_buffer_binding_t),
                               &size, &bindings_offset)) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "queue submission is too large (%zu waits, %zu "
                           "signals, %zu command buffers)",
                           wait.count, signal.count, count);
  }
  uint8_t* block = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(device->local.base.host_allocator, size, (void**)&block));
  grt_hal_task_submission_t* submission = (grt_hal_task_submission_t*)block;

  grt_hal_semaphore_t** semaphores =
      (grt_hal_semaphore_t**)(block + wait_semaphores);
  uint64_t* values = (uint64_t*)(block + wait_values);
  for (size_t i = 0; i < wait.count; ++i) {
    semaphores[i] = wait.semaphores[i];
    grt_hal_semaphore_retain(semaphores[i]);
    values[i] = wait.values[i];
  }
  submission->wait.count = wait.count;
  submission->wait.semaphores = semaphores;
  submission->wait.values = values;

  semaphores = (grt_hal_semaphore_t**)(block + signal_semaphores);
  values = (uint64_t*)(block + signal_values);
  for (size_t i = 0; i < signal.count; ++i) {
    semaphores[i] = signal.semaphores[i];
    grt_hal_semaphore_retain(semaphores[i]);
    values[i] = signal.values[i];
  }
  submission->signal.count = signal.count;
  submission->signal.semaphores = semaphores;
  submission->signal.values = values;

  submission->command_buffer_count = count;
  submission->command_buffers =
      (grt_hal_command_buffer_t**)(block + buffers_offset);
  submission->binding_tables =
      (grt_hal_buffer_binding_table_t*)(block + tables_offset);
  grt_hal_buffer_binding_t* bindings =
      (grt_hal_buffer_binding_t*)(block + bindings_offset);
  for (size_t i = 0; i < count; ++i) {
    submission->command_buffers[i] = command_buffers[i];
    grt_hal_command_buffer_retain(command_buffers[i]);
    grt_hal_buffer_binding_table_t table =
        grt_hal_local_binding_table_at(binding_tables, i);
    for (size_t j = 0; j < table.count; ++j) {
      bindings[j] = table.bindings[j];
      grt_hal_buffer_retain(bindings[j].buffer);
    }
    submission->binding_tables[i].count = table.count;
    submission->binding_tables[i].bindings = bindings;
    bindings += table.count;
  }
  if (buffer) {
    submission->buffer = buffer;
    grt_hal_buffer_retain(buffer);
  }
  *out_submission = submission;
  return grt_ok_status();
}

static void grt_hal_task_device_enqueue(grt_hal_task_device_t* device,
                                        grt_hal_task_submission_t* submission) {
  pthread_mutex_lock(&device->mutex);
  if (device->tail) {
    device->tail->next = submission;
  } else {
    device->head = submission;
  }
  device->tail = submission;
  pthread_cond_signal(&device->queue_changed);
  pthread_mutex_unlock(&device->mutex);
}

static void grt_hal_task_device_process(grt_hal_task_device_t* device,
                                        grt_hal_task_submission_t* submission) {
  // Only submissions of command buffers are traced: the others do nothing
  // but wait (and their waits are traced as waits).
  bool traced = submission->command_buffer_count && grt_trace_enabled();
  grt_time_t start = traced ? grt_time_now_ns() : 0;
  // Blocks in the semaphores' condition variables: no spinning.
  grt_status_t status =
      grt_hal_semaphore_list_wait(submission->wait, GRT_HAL_TIMEOUT_INFINITE);
  for (size_t i = 0;
       i < submission->command_buffer_count && grt_status_is_ok(status); ++i) {
    status = grt_hal_task_device_run_command_buffer(
        device, submission->command_buffers[i], submission->binding_tables[i]);
  }
  if (traced) {
    // Before the signal, so a caller that stops tracing as soon as the work
    // is done still gets it.
    grt_trace_event_t event;
    memset(&event, 0, sizeof(event));
    event.kind = GRT_TRACE_EVENT_EXECUTE;
    event.name = grt_make_cstring_view("execute");
    event.detail = grt_make_cstring_view(device->local.base.uri);
    event.start_ns = start;
    event.end_ns = grt_time_now_ns();
    event.worker_id = GRT_TRACE_NO_WORKER;
    event.count = submission->command_buffer_count;
    grt_trace_record(&event);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_semaphore_list_signal(submission->signal);
  }
  // Nobody is left to return an error to; waiters find it here.
  if (!grt_status_is_ok(status)) {
    grt_hal_semaphore_list_fail(submission->signal, status);
  }
}

static void* grt_hal_task_device_queue_main(void* arg) {
  grt_hal_task_device_t* device = arg;
  grt_trace_set_thread_name("local-task queue");
  pthread_mutex_lock(&device->mutex);
  for (;;) {
    while (!device->head && !device->shutting_down) {
      pthread_cond_wait(&device->queue_changed, &device->mutex);
    }
    grt_hal_task_submission_t* submission = device->head;
    if (!submission) break;  // shutting down with the queue drained
    device->head = submission->next;
    if (!device->head) device->tail = NULL;
    pthread_mutex_unlock(&device->mutex);
    grt_hal_task_device_process(device, submission);
    grt_hal_task_submission_free(device, submission);
    pthread_mutex_lock(&device->mutex);
  }
  pthread_mutex_unlock(&device->mutex);
  return NULL;
}

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

static void grt_hal_task_device_destroy(grt_hal_resource_t* resource) {
  grt_hal_task_device_t* device = (grt_hal_task_device_t*)resource;
  grt_allocator_t host_allocator = device->local.base.host_allocator;
  if (device->queue_thread_started) {
    // The queue thread drains what is queued before it sees the flag.
    pthread_mutex_lock(&device->mutex);
    device->shutting_down = true;
    pthread_cond_signal(&device->queue_changed);
    pthread_mutex_unlock(&device->mutex);
    pthread_join(device->queue_thread, NULL);
  }
  pthread_cond_destroy(&device->queue_changed);
  pthread_mutex_destroy(&device->mutex);
  grt_hal_local_task_pool_destroy(device->pool);
  if (device->worker_local_memory) {
    for (uint32_t i = 0; i < device->worker_count; ++i) {
      grt_allocator_free(host_allocator, device->worker_local_memory[i]);
    }
    grt_allocator_free(host_allocator, device->worker_local_memory);
  }
  grt_allocator_free(host_allocator, device->items);
  grt_hal_local_device_deinitialize(&device->local);
  grt_allocator_free(host_allocator, device);
}

grt_status_t grt_hal_task_device_create(const char* uri, uint32_t worker_count,
                                        grt_allocator_t host_allocator,
                                        grt_hal_device_t** out_device) {
  *out_device = NULL;
  grt_hal_task_device_t* device = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(host_allocator, sizeof(*device), (void**)&device));
  pthread_mutex_init(&device->mutex, NULL);
  pthread_cond_init(&device->queue_changed, NULL);
  // The concurrency is known once the pool exists (0 workers = one per core).
  grt_status_t status = grt_hal_local_device_initialize(
      &grt_hal_task_device_vtable, uri, host_allocator, 0, &device->local);
  if (grt_status_is_ok(status)) {
    status = grt_hal_local_task_pool_create(worker_count, host_allocator,
                                            &device->pool);
  }
  if (grt_status_is_ok(status)) {
    device->worker_count = grt_hal_local_task_pool_worker_count(device->pool);
    device->local.concurrency = device->worker_count;
    int error = pthread_create(&device->queue_thread, NULL,
                               grt_hal_task_device_queue_main, device);
    if (error == 0) {
      device->queue_thread_started = true;
    } else {
      status = grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                               "cannot start the queue thread of %s: %s", uri,
                               strerror(error));
    }
  }
  if (!grt_status_is_ok(status)) {
    grt_hal_device_release(&device->local.base);
    return status;
  }
  *out_device = &device->local.base;
  return grt_ok_status();
}

static grt_status_t grt_hal_task_device_queue_alloca(
    grt_hal_device_t* base, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, grt_hal_buffer_params_t params,
    uint64_t size, grt_hal_buffer_t** out_buffer) {
  grt_hal_task_device_t* device = grt_hal_task_device_from(base);
  // Heap memory does not depend on the waits, so it is allocated now (bad
  // parameters return here, as on every device); the queue only orders
  // the signal after the waits.
  GRT_RETURN_IF_ERROR(grt_hal_allocator_allocate_buffer(device->local.allocator,
                                                        params, size,
                                                        out_buffer));
  grt_hal_task_submission_t* submission = NULL;
  grt_status_t status = grt_hal_task_submission_create(
      device, wait, signal, 0, NULL, NULL, NULL, &submission);
  if (!grt_status_is_ok(status)) {
    grt_hal_buffer_release(*out_buffer);
    *out_buffer = NULL;
    return status;
  }
  grt_hal_task_device_enqueue(device, submission);
  return grt_ok_status();
}

static grt_status_t grt_hal_task_device_queue_dealloca(
    grt_hal_device_t* base, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, grt_hal_buffer_t* buffer) {
  grt_hal_task_device_t* device = grt_hal_task_device_from(base);
  if (grt_hal_buffer_allocated_buffer(buffer)->allocator != device->local.allocator) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "queue dealloca of a buffer not allocated by "
                           "device %s",
                           base->uri);
  }
  // The submission holds the buffer until the waits are reached; the heap
  // memory returns when the last reference goes.
  grt_hal_task_submission_t* submission = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_task_submission_create(
      device, wait, signal, 0, NULL, NULL, buffer, &submission));
  grt_hal_task_device_enqueue(device, submission);
  return grt_ok_status();
}

static grt_status_t grt_hal_task_device_queue_execute(
    grt_hal_device_t* base, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, size_t count,
    grt_hal_command_buffer_t* const* command_buffers,
    const grt_hal_buffer_binding_table_t* binding_tables) {
  grt_hal_task_device_t* device = grt_hal_task_device_from(base);
  GRT_RETURN_IF_ERROR(grt_hal_local_command_buffers_validate_submission(
      count, command_buffers, binding_tables));
  grt_hal_task_submission_t* submission = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_task_submission_create(
      device, wait, signal, count, command_buffers, binding_tables, NULL,
      &submission));
  grt_hal_task_device_enqueue(device, submission);
  return grt_ok_status();
}

static grt_status_t grt_hal_task_device_queue_flush(grt_hal_device_t* device) {
  // Submissions start as soon as they are queued.
  return grt_ok_status();
}

static const grt_hal_device_vtable_t grt_hal_task_device_vtable = {
    {grt_hal_task_device_destroy},
    grt_hal_local_device_allocator,
    grt_hal_local_device_executable_cache,
    grt_hal_local_device_query_i64,
    grt_hal_local_device_create_command_buffer,
    grt_hal_local_device_create_semaphore,
    grt_hal_task_device_queue_alloca,
    grt_hal_task_device_queue_dealloca,
    grt_hal_task_device_queue_execute,
    grt_hal_task_device_queue_flush,
};
