// The CUDA device and the objects it makes (internal to the driver).
//
// One device = one CUdevice's primary context and one non-blocking stream
// that every queue operation is issued on, so stream order is queue order.
// Work is issued from the calling thread; completion is reported by a
// host function (cuLaunchHostFunc) queued after it, which signals the HAL
// semaphores (a condition variable: waiters sleep, nobody polls). Host
// functions may not call the driver API, so objects a submission keeps
// alive are released later on a caller's thread (the device's completed
// list, drained by every queue call and at destroy).
//
#ifndef GRT_HAL_DRIVERS_CUDA_CUDA_DEVICE_H_
#define GRT_HAL_DRIVERS_CUDA_CUDA_DEVICE_H_

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <cuda.h>

#include "base/allocator.h"
#include "base/status.h"
#include "hal/device.h"
#include "hal/drivers/cuda/cuda_status.h"
#include "hal/drivers/cuda/dynamic_symbols.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_hal_cuda_submission_t grt_hal_cuda_submission_t;

// What every CUDA object of one device shares and keeps alive: the driver
// API, the primary context and the queue's stream. Buffers, executables,
// command buffers and semaphores retain this rather than the device, so
// the device (which holds the executable cache, and the completed
// submissions that hold command buffers) is never kept alive by a cycle.
typedef struct grt_hal_cuda_context_t {
  atomic_uint_least32_t ref_count;
  grt_allocator_t host_allocator;
  const grt_hal_cuda_symbols_t* symbols;  // process-wide, never unloaded
  CUdevice cu_device;
  CUcontext cu_context;  // the primary context (retained)
  CUstream stream;       // the queue; stream order is queue order
  bool memory_pools_supported;  // cuMemAllocAsync usable
} grt_hal_cuda_context_t;

void grt_hal_cuda_context_retain(grt_hal_cuda_context_t* context);
void grt_hal_cuda_context_release(grt_hal_cuda_context_t* context);
// Makes the context current on the calling thread (every entry point that
// calls the driver does this first).
grt_status_t grt_hal_cuda_context_make_current(grt_hal_cuda_context_t* context)
    GRT_MUST_USE;

typedef struct grt_hal_cuda_device_t {
  grt_hal_device_t base;
  grt_hal_cuda_context_t* context;
  uint32_t multiprocessor_count;
  grt_hal_allocator_t* allocator;
  grt_hal_executable_cache_t* executable_cache;
  // Serializes issuing queue operations (issue order = queue order).
  pthread_mutex_t issue_mutex;
  // Guards |completed|; taken by host functions, so never held across a
  // driver call that could wait for one.
  pthread_mutex_t completed_mutex;
  grt_hal_cuda_submission_t* completed;  // finished, not yet released
} grt_hal_cuda_device_t;

// Creates the device for CUDA ordinal |ordinal|.
grt_status_t grt_hal_cuda_device_create(const grt_hal_cuda_symbols_t* symbols,
                                        int ordinal, const char* uri,
                                        grt_allocator_t host_allocator,
                                        grt_hal_device_t** out_device)
    GRT_MUST_USE;

// The allocator and its buffers (cuda_allocator.c).
grt_status_t grt_hal_cuda_allocator_create(grt_hal_cuda_context_t* context,
                                           grt_hal_allocator_t** out)
    GRT_MUST_USE;
// A buffer's device address (base + its offset into the allocation is the
// caller's business); true when |buffer| was made by a CUDA allocator of
// |device|.
bool grt_hal_cuda_buffer_isa(const grt_hal_buffer_t* buffer,
                             const grt_hal_cuda_context_t* context);
CUdeviceptr grt_hal_cuda_buffer_device_pointer(const grt_hal_buffer_t* buffer);

// Executables (cuda_executable.c).
grt_status_t grt_hal_cuda_executable_cache_create(
    grt_hal_cuda_context_t* context, grt_hal_executable_cache_t** out)
    GRT_MUST_USE;
bool grt_hal_cuda_executable_isa(const grt_hal_executable_t* executable);
CUfunction grt_hal_cuda_executable_function(
    const grt_hal_executable_t* executable, uint32_t entry_point);

// Semaphores (cuda_semaphore.c).
grt_status_t grt_hal_cuda_semaphore_create(grt_hal_cuda_context_t* context,
                                           uint64_t initial_value,
                                           grt_hal_semaphore_t** out)
    GRT_MUST_USE;
// Whether |context|'s work may wait for (semaphore, value) on the device
// rather than on the host: true when a CUDA stream already promised to
// signal it (*out_event: the event to wait on, NULL when |context|'s own
// stream signals it and stream order suffices).
bool grt_hal_cuda_semaphore_device_waitable(grt_hal_cuda_context_t* context,
                                            grt_hal_semaphore_t* semaphore,
                                            uint64_t value, CUevent* out_event);
// Records that |context|'s stream will signal (semaphore, value) once the
// work issued so far is done (records the semaphore's event).
grt_status_t grt_hal_cuda_semaphore_will_signal(grt_hal_cuda_context_t* context,
                                                grt_hal_semaphore_t* semaphore,
                                                uint64_t value) GRT_MUST_USE;

// Command buffers (cuda_command_buffer.c).
grt_status_t grt_hal_cuda_command_buffer_create(
    grt_hal_cuda_context_t* context, grt_hal_command_buffer_mode_t mode,
    uint32_t binding_capacity, grt_hal_command_buffer_t** out) GRT_MUST_USE;
bool grt_hal_cuda_command_buffer_isa(const grt_hal_command_buffer_t* cb);
// Issues |command_buffer| with |table| on the device stream (direct
// launches, or its CUDA graph when reusable). Issue mutex held.
grt_status_t grt_hal_cuda_command_buffer_issue(
    grt_hal_cuda_context_t* context, grt_hal_command_buffer_t* command_buffer,
    grt_hal_buffer_binding_table_t table) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_CUDA_CUDA_DEVICE_H_
