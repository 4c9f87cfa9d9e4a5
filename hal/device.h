// Devices: one logical device of a driver, with its allocator, executable
// cache and one queue.
//
// Everything a device does to memory happens on its queue, ordered only by
// semaphores: queue operations take a wait list (run after these values
// are reached) and a signal list (signalled when the operation finished;
// failed with its error if it failed). A CPU device may finish before the
// call returns; a GPU device returns at once. Callers never assume either.
#ifndef GRT_HAL_DEVICE_H_
#define GRT_HAL_DEVICE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"
#include "hal/allocator.h"
#include "hal/buffer.h"
#include "hal/command_buffer.h"
#include "hal/executable.h"
#include "hal/resource.h"
#include "hal/semaphore.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_hal_device_t grt_hal_device_t;

typedef struct grt_hal_device_vtable_t {
  grt_hal_resource_vtable_t base;
  grt_hal_allocator_t* (*allocator)(grt_hal_device_t* device);
  grt_hal_executable_cache_t* (*executable_cache)(grt_hal_device_t* device);
  // NOT_FOUND for keys the device does not know.
  grt_status_t (*query_i64)(grt_hal_device_t* device, grt_string_view_t category,
                            grt_string_view_t key, int64_t* out_value);
  grt_status_t (*create_command_buffer)(grt_hal_device_t* device,
                                        grt_hal_command_buffer_mode_t mode,
                                        uint32_t binding_capacity,
                                        grt_hal_command_buffer_t** out);
  grt_status_t (*create_semaphore)(grt_hal_device_t* device,
                                   uint64_t initial_value,
                                   grt_hal_semaphore_t** out);
  grt_status_t (*queue_alloca)(grt_hal_device_t* device,
                               grt_hal_semaphore_list_t wait,
                               grt_hal_semaphore_list_t signal,
                               grt_hal_buffer_params_t params, uint64_t size,
                               grt_hal_buffer_t** out_buffer);
  grt_status_t (*queue_dealloca)(grt_hal_device_t* device,
                                 grt_hal_semaphore_list_t wait,
                                 grt_hal_semaphore_list_t signal,
                                 grt_hal_buffer_t* buffer);
  // |binding_tables| may be NULL (no tables) or has |count| entries.
  grt_status_t (*queue_execute)(grt_hal_device_t* device,
                                grt_hal_semaphore_list_t wait,
                                grt_hal_semaphore_list_t signal, size_t count,
                                grt_hal_command_buffer_t* const* command_buffers,
                                const grt_hal_buffer_binding_table_t* binding_tables);
  // Makes queued work start (no-op for devices that start at once).
  grt_status_t (*queue_flush)(grt_hal_device_t* device);
} grt_hal_device_vtable_t;

// The common part of every device; implementations embed it first.
struct grt_hal_device_t {
  grt_hal_resource_t resource;
  grt_allocator_t host_allocator;
  char uri[64];  // how it was created, e.g. "local-task", "vulkan://1"
};

void grt_hal_device_initialize(const grt_hal_device_vtable_t* vtable,
                               const char* uri, grt_allocator_t host_allocator,
                               grt_hal_device_t* device);

static inline void grt_hal_device_retain(grt_hal_device_t* d) {
  grt_hal_resource_retain(d);
}
static inline void grt_hal_device_release(grt_hal_device_t* d) {
  grt_hal_resource_release(d);
}
static inline const char* grt_hal_device_uri(const grt_hal_device_t* d) {
  return d->uri;
}
static inline grt_allocator_t grt_hal_device_host_allocator(
    const grt_hal_device_t* d) {
  return d->host_allocator;
}

grt_hal_allocator_t* grt_hal_device_allocator(grt_hal_device_t* device);
grt_hal_executable_cache_t* grt_hal_device_executable_cache(
    grt_hal_device_t* device);

// Well-known queries (category, key):
//   ("hal.executable.format", "<format>") -> 1 if the device runs it, else 0
//   ("hal.device", "concurrency")         -> workers / SMs / compute units
//   ("hal.device.id", "<pattern>")        -> 1 if the URI matches ("local-*")
// Unknown keys are NOT_FOUND "device local-sync has no query
// hal.device/foo".
grt_status_t grt_hal_device_query_i64(grt_hal_device_t* device,
                                      grt_string_view_t category,
                                      grt_string_view_t key, int64_t* out_value)
    GRT_MUST_USE;
// For drivers' query_i64, which answer only what differs by device:
// ("hal.device", "concurrency") -> |concurrency|; anything else NOT_FOUND
// "no query <category>/<key>" (grt_hal_device_query_i64 names the device).
grt_status_t grt_hal_device_answer_concurrency(grt_string_view_t category,
                                               grt_string_view_t key,
                                               int64_t concurrency,
                                               int64_t* out_value) GRT_MUST_USE;

grt_status_t grt_hal_device_create_command_buffer(
    grt_hal_device_t* device, grt_hal_command_buffer_mode_t mode,
    uint32_t binding_capacity, grt_hal_command_buffer_t** out) GRT_MUST_USE;
grt_status_t grt_hal_device_create_semaphore(grt_hal_device_t* device,
                                             uint64_t initial_value,
                                             grt_hal_semaphore_t** out)
    GRT_MUST_USE;

// Queue operations. Validation errors return at once; errors during
// execution fail the signal semaphores.
grt_status_t grt_hal_device_queue_alloca(grt_hal_device_t* device,
                                         grt_hal_semaphore_list_t wait,
                                         grt_hal_semaphore_list_t signal,
                                         grt_hal_buffer_params_t params,
                                         uint64_t size,
                                         grt_hal_buffer_t** out_buffer)
    GRT_MUST_USE;
grt_status_t grt_hal_device_queue_dealloca(grt_hal_device_t* device,
                                           grt_hal_semaphore_list_t wait,
                                           grt_hal_semaphore_list_t signal,
                                           grt_hal_buffer_t* buffer)
    GRT_MUST_USE;
grt_status_t grt_hal_device_queue_execute(
    grt_hal_device_t* device, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, size_t count,
    grt_hal_command_buffer_t* const* command_buffers,
    const grt_hal_buffer_binding_table_t* binding_tables) GRT_MUST_USE;
// A copy as a queue operation (records a one-shot command buffer).
grt_status_t grt_hal_device_queue_copy(grt_hal_device_t* device,
                                       grt_hal_semaphore_list_t wait,
                                       grt_hal_semaphore_list_t signal,
                                       grt_hal_buffer_t* source,
                                       uint64_t source_offset,
                                       grt_hal_buffer_t* target,
                                       uint64_t target_offset, uint64_t length)
    GRT_MUST_USE;
grt_status_t grt_hal_device_queue_flush(grt_hal_device_t* device) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DEVICE_H_
