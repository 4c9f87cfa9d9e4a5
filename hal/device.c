// Device wrappers and the device-independent queue operations built from
// the vtable's primitives (queue_copy as a one-shot command buffer).
#include "hal/device.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/time.h"
#include "base/trace.h"

void grt_hal_device_initialize(const grt_hal_device_vtable_t* vtable,
                               const char* uri, grt_allocator_t host_allocator,
                               grt_hal_device_t* device) {
  grt_hal_resource_initialize(vtable, &device->resource);
  device->host_allocator = host_allocator;
  snprintf(device->uri, sizeof(device->uri), "%s", uri ? uri : "");
}

grt_hal_allocator_t* grt_hal_device_allocator(grt_hal_device_t* device) {
  return GRT_HAL_VTABLE(device, grt_hal_device_vtable_t)->allocator(device);
}

grt_hal_executable_cache_t* grt_hal_device_executable_cache(
    grt_hal_device_t* device) {
  return GRT_HAL_VTABLE(device, grt_hal_device_vtable_t)
      ->executable_cache(device);
}

// '*' matches any run of characters (also none). Greedy with backtracking
// to the last '*': linear in practice and never recursive, whatever the
// pattern.
static bool grt_hal_glob_match(grt_string_view_t pattern,
                               grt_string_view_t text) {
  size_t p = 0, t = 0;
  size_t star = SIZE_MAX, star_text = 0;
  while (t < text.size) {
    if (p < pattern.size && pattern.data[p] == '*') {
      star = p++;
      star_text = t;
    } else if (p < pattern.size && pattern.data[p] == text.data[t]) {
      ++p;
      ++t;
    } else if (star != SIZE_MAX) {
      p = star + 1;
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (p < pattern.size && pattern.data[p] == '*') ++p;
  return p == pattern.size;
}

grt_status_t grt_hal_device_query_i64(grt_hal_device_t* device,
                                      grt_string_view_t category,
                                      grt_string_view_t key,
                                      int64_t* out_value) {
  *out_value = 0;
  // The queries every device answers the same way are answered here, from
  // what the base API already knows; drivers answer the rest.
  if (grt_string_view_equal_cstring(category, "hal.device.id")) {
    *out_value =
        grt_hal_glob_match(key, grt_make_cstring_view(device->uri)) ? 1 : 0;
    return grt_ok_status();
  }
  if (grt_string_view_equal_cstring(category, "hal.executable.format")) {
    *out_value = grt_hal_executable_cache_can_prepare_format(
                     grt_hal_device_executable_cache(device), key)
                     ? 1
                     : 0;
    return grt_ok_status();
  }
  grt_status_t status = GRT_HAL_VTABLE(device, grt_hal_device_vtable_t)
                            ->query_i64(device, category, key, out_value);
  if (grt_status_code(status) == GRT_STATUS_NOT_FOUND) {
    // Implementations say only "not found"; the caller needs to know which
    // device and which key.
    grt_status_free(status);
    return grt_make_status(GRT_STATUS_NOT_FOUND,
                           "device %s has no query %.*s/%.*s", device->uri,
                           GRT_SV_ARG(category), GRT_SV_ARG(key));
  }
  return status;
}

grt_status_t grt_hal_device_answer_concurrency(grt_string_view_t category,
                                               grt_string_view_t key,
                                               int64_t concurrency,
                                               int64_t* out_value) {
  if (grt_string_view_equal_cstring(category, "hal.device") &&
      grt_string_view_equal_cstring(key, "concurrency")) {
    *out_value = concurrency;
    return grt_ok_status();
  }
  return grt_make_status(GRT_STATUS_NOT_FOUND, "no query %.*s/%.*s",
                         GRT_SV_ARG(category), GRT_SV_ARG(key));
}

grt_status_t grt_hal_device_create_command_buffer(
    grt_hal_device_t* device, grt_hal_command_buffer_mode_t mode,
    uint32_t binding_capacity, grt_hal_command_buffer_t** out) {
  *out = NULL;
  if (mode != GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT &&
      mode != GRT_HAL_COMMAND_BUFFER_MODE_REUSABLE) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "unknown command buffer mode %d", (int)mode);
  }
  return GRT_HAL_VTABLE(device, grt_hal_device_vtable_t)
      ->create_command_buffer(device, mode, binding_capacity, out);
}

grt_status_t grt_hal_device_create_semaphore(grt_hal_device_t* device,
                                             uint64_t initial_value,
                                             grt_hal_semaphore_t** out) {
  *out = NULL;
  return GRT_HAL_VTABLE(device, grt_hal_device_vtable_t)
      ->create_semaphore(device, initial_value, out);
}

static grt_status_t grt_hal_semaphore_list_validate(
    grt_hal_semaphore_list_t list, const char* which) {
  if (list.count && (!list.semaphores || !list.values)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s list of %zu semaphores has no entries", which,
                           list.count);
  }
  for (size_t i = 0; i < list.count; ++i) {
    if (!list.semaphores[i]) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%s semaphore %zu is NULL", which, i);
    }
  }
  return grt_ok_status();
}

static grt_status_t grt_hal_queue_lists_validate(
    grt_hal_semaphore_list_t wait, grt_hal_semaphore_list_t signal) {
  GRT_RETURN_IF_ERROR(grt_hal_semaphore_list_validate(wait, "wait"));
  return grt_hal_semaphore_list_validate(signal, "signal");
}

// One SUBMIT event (base/trace.h) for a queue operation that started at
// |start_ns| and has just returned.
static void grt_hal_device_trace_submit(grt_hal_device_t* device,
                                        const char* name, size_t count,
                                        grt_time_t start_ns) {
  grt_trace_event_t event;
  memset(&event, 0, sizeof(event));
  event.kind = GRT_TRACE_EVENT_SUBMIT;
  event.name = grt_make_cstring_view(name);
  event.detail = grt_make_cstring_view(device->uri);
  event.start_ns = start_ns;
  event.end_ns = grt_time_now_ns();
  event.worker_id = GRT_TRACE_NO_WORKER;
  event.count = count;
  grt_trace_record(&event);
}

grt_status_t grt_hal_device_queue_alloca(grt_hal_device_t* device,
                                         grt_hal_semaphore_list_t wait,
                                         grt_hal_semaphore_list_t signal,
                                         grt_hal_buffer_params_t params,
                                         uint64_t size,
                                         grt_hal_buffer_t** out_buffer) {
  *out_buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_queue_lists_validate(wait, signal));
  if (!grt_trace_enabled()) {
    return GRT_HAL_VTABLE(device, grt_hal_device_vtable_t)
        ->queue_alloca(device, wait, signal, params, size, out_buffer);
  }
  grt_time_t start = grt_time_now_ns();
  grt_status_t status =
      GRT_HAL_VTABLE(device, grt_hal_device_vtable_t)
          ->queue_alloca(device, wait, signal, params, size, out_buffer);
  grt_hal_device_trace_submit(device, "queue.alloca", 0, start);
  return status;
}

grt_status_t grt_hal_device_queue_dealloca(grt_hal_device_t* device,
                                           grt_hal_semaphore_list_t wait,
                                           grt_hal_semaphore_list_t signal,
                                           grt_hal_buffer_t* buffer) {
  GRT_RETURN_IF_ERROR(grt_hal_queue_lists_validate(wait, signal));
  if (!buffer) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "queue dealloca of a NULL buffer");
  }
  if (!grt_trace_enabled()) {
    return GRT_HAL_VTABLE(device, grt_hal_device_vtable_t)
        ->queue_dealloca(device, wait, signal, buffer);
  }
  grt_time_t start = grt_time_now_ns();
  grt_status_t status = GRT_HAL_VTABLE(device, grt_hal_device_vtable_t)
                            ->queue_dealloca(device, wait, signal, buffer);
  grt_hal_device_trace_submit(device, "queue.dealloca", 0, start);
  return status;
}

grt_status_t grt_hal_device_queue_execute(
    grt_hal_device_t* device, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, size_t count,
    grt_hal_command_buffer_t* const* command_buffers,
    const grt_hal_buffer_binding_table_t* binding_tables) {
  GRT_RETURN_IF_ERROR(grt_hal_queue_lists_validate(wait, signal));
  for (size_t i = 0; i < count; ++i) {
    if (!command_buffers[i]) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "command buffer %zu of %zu is NULL", i, count);
    }
  }
  if (!grt_trace_enabled()) {
    return GRT_HAL_VTABLE(device, grt_hal_device_vtable_t)
        ->queue_execute(device, wait, signal, count, command_buffers,
                        binding_tables);
  }
  grt_time_t start = grt_time_now_ns();
  grt_status_t status = GRT_HAL_VTABLE(device, grt_hal_device_vtable_t)
                            ->queue_execute(device, wait, signal, count,
                                            command_buffers, binding_tables);
  grt_hal_device_trace_submit(device, "queue.execute", count, start);
  return status;
}

grt_status_t grt_hal_device_queue_copy(grt_hal_device_t* device,
                                       grt_hal_semaphore_list_t wait,
                                       grt_hal_semaphore_list_t signal,
                                       grt_hal_buffer_t* source,
                                       uint64_t source_offset,
                                       grt_hal_buffer_t* target,
                                       uint64_t target_offset, uint64_t length) {
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_device_create_command_buffer(
      device, GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0, &command_buffer));
  grt_status_t status = grt_hal_command_buffer_begin(command_buffer);
  if (grt_status_is_ok(status)) {
    status = grt_hal_command_buffer_copy_buffer(
        command_buffer, grt_hal_make_buffer_ref(source, source_offset, length),
        grt_hal_make_buffer_ref(target, target_offset, length));
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_command_buffer_end(command_buffer);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_device_queue_execute(device, wait, signal, 1,
                                          &command_buffer, NULL);
  }
  // The queue retains what it still needs.
  grt_hal_command_buffer_release(command_buffer);
  return grt_status_annotate(status, "while queueing a copy");
}

grt_status_t grt_hal_device_queue_flush(grt_hal_device_t* device) {
  const grt_hal_device_vtable_t* vtable =
      GRT_HAL_VTABLE(device, grt_hal_device_vtable_t);
  if (!vtable->queue_flush) return grt_ok_status();
  return vtable->queue_flush(device);
}
