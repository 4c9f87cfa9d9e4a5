#include "hal/drivers/local_sync/sync_device.h"

#include <string.h>

#include "hal/local/command_buffer.h"
#include "hal/local/device_common.h"
#include "hal/local/executable.h"
#include "hal/local/heap_allocator.h"

typedef struct grt_hal_sync_device_t {
  grt_hal_local_device_t local;
} grt_hal_sync_device_t;

static const grt_hal_device_vtable_t grt_hal_sync_device_vtable;

static grt_hal_sync_device_t* grt_hal_sync_device_from(
    grt_hal_device_t* device) {
  return (grt_hal_sync_device_t*)device;
}

static void grt_hal_sync_device_destroy(grt_hal_resource_t* resource) {
  grt_hal_sync_device_t* device = (grt_hal_sync_device_t*)resource;
  grt_allocator_t host_allocator = device->local.base.host_allocator;
  grt_hal_local_device_deinitialize(&device->local);
  grt_allocator_free(host_allocator, device);
}

grt_status_t grt_hal_sync_device_create(const char* uri,
                                        grt_allocator_t host_allocator,
                                        grt_hal_device_t** out_device) {
  *out_device = NULL;
  grt_hal_sync_device_t* device = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(host_allocator, sizeof(*device), (void**)&device));
  // One thread: the caller's.
  grt_status_t status = grt_hal_local_device_initialize(
      &grt_hal_sync_device_vtable, uri, host_allocator, 1, &device->local);
  if (!grt_status_is_ok(status)) {
    grt_hal_device_release(&device->local.base);
    return status;
  }
  *out_device = &device->local.base;
  return grt_ok_status();
}

// The end of every queue operation: the signal list reached on success,
// failed with |status| otherwise. Execution errors travel through the
// semaphores (driver.h), so only a failing signal itself is returned.
static grt_status_t grt_hal_sync_device_complete(grt_hal_semaphore_list_t signal,
                                                 grt_status_t status) {
  if (!grt_status_is_ok(status)) {
    grt_hal_semaphore_list_fail(signal, status);
    return grt_ok_status();
  }
  return grt_hal_semaphore_list_signal(signal);
}

static grt_status_t grt_hal_sync_device_queue_alloca(
    grt_hal_device_t* base, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, grt_hal_buffer_params_t params,
    uint64_t size, grt_hal_buffer_t** out_buffer) {
  grt_hal_sync_device_t* device = grt_hal_sync_device_from(base);
  // Allocating before waiting keeps bad parameters a returned error, as
  // they are on every device; heap memory does not depend on the waits.
  GRT_RETURN_IF_ERROR(grt_hal_allocator_allocate_buffer(device->local.allocator,
                                                        params, size,
                                                        out_buffer));
  grt_status_t status = grt_hal_sync_device_complete(
      signal, grt_hal_semaphore_list_wait(wait, GRT_HAL_TIMEOUT_INFINITE));
  if (!grt_status_is_ok(status)) {
    grt_hal_buffer_release(*out_buffer);
    *out_buffer = NULL;
  }
  return status;
}

static grt_status_t grt_hal_sync_device_queue_dealloca(
    grt_hal_device_t* base, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, grt_hal_buffer_t* buffer) {
  grt_hal_sync_device_t* device = grt_hal_sync_device_from(base);
  if (grt_hal_buffer_allocated_buffer(buffer)->allocator != device->local.allocator) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "queue dealloca of a buffer not allocated by "
                           "device %s",
                           base->uri);
  }
  // Heap memory returns when the last reference goes; the caller keeps its
  // own, so a dealloca only orders the waits before the signals.
  return grt_hal_sync_device_complete(
      signal, grt_hal_semaphore_list_wait(wait, GRT_HAL_TIMEOUT_INFINITE));
}

// Runs one command buffer to completion on this thread.
static grt_status_t grt_hal_sync_device_run(
    grt_hal_sync_device_t* device, grt_hal_command_buffer_t* base,
    grt_hal_buffer_binding_table_t binding_table) {
  grt_hal_local_command_buffer_t* command_buffer =
      grt_hal_local_command_buffer_cast(base);
  grt_allocator_t host_allocator = device->local.base.host_allocator;
  size_t local_memory_size =
      grt_hal_local_command_buffer_max_local_memory_size(command_buffer);
  void* local_memory = NULL;
  if (local_memory_size) {
    GRT_RETURN_IF_ERROR(grt_allocator_malloc_aligned(
        host_allocator, local_memory_size, 64, &local_memory));
  }
  grt_hal_local_execution_t execution;
  grt_status_t status = grt_hal_local_execution_initialize(
      command_buffer, binding_table, host_allocator, &execution);
  if (grt_status_is_ok(status)) {
    status = grt_hal_local_execution_run_inline(&execution, local_memory,
                                                local_memory_size);
    grt_hal_local_execution_deinitialize(&execution);
  }
  grt_allocator_free(host_allocator, local_memory);
  return status;
}

static grt_status_t grt_hal_sync_device_queue_execute(
    grt_hal_device_t* base, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, size_t count,
    grt_hal_command_buffer_t* const* command_buffers,
    const grt_hal_buffer_binding_table_t* binding_tables) {
  grt_hal_sync_device_t* device = grt_hal_sync_device_from(base);
  GRT_RETURN_IF_ERROR(grt_hal_local_command_buffers_validate_submission(
      count, command_buffers, binding_tables));
  grt_status_t status =
      grt_hal_semaphore_list_wait(wait, GRT_HAL_TIMEOUT_INFINITE);
  for (size_t i = 0; i < count && grt_status_is_ok(status); ++i) {
    status = grt_hal_sync_device_run(
        device, command_buffers[i],
        grt_hal_local_binding_table_at(binding_tables, i));
  }
  return grt_hal_sync_device_complete(signal, status);
}

static grt_status_t grt_hal_sync_device_queue_flush(grt_hal_device_t* device) {
  // Everything already ran inside the queue calls.
  return grt_ok_status();
}

static const grt_hal_device_vtable_t grt_hal_sync_device_vtable = {
    {grt_hal_sync_device_destroy},
    grt_hal_local_device_allocator,
    grt_hal_local_device_executable_cache,
    grt_hal_local_device_query_i64,
    grt_hal_local_device_create_command_buffer,
    grt_hal_local_device_create_semaphore,
    grt_hal_sync_device_queue_alloca,
    grt_hal_sync_device_queue_dealloca,
    grt_hal_sync_device_queue_execute,
    grt_hal_sync_device_queue_flush,
};
