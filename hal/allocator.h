// Allocators: where buffers come from on a device.
//
// Each device owns one allocator (grt_hal_device_allocator). It lists the
// memory heaps it serves, allocates buffers for a params struct (memory
// type + usage + alignment), may import host memory without copying
// (zero-copy on CPU devices; optional elsewhere), and keeps statistics that
// grt-run --print_statistics reports.
#ifndef GRT_HAL_ALLOCATOR_H_
#define GRT_HAL_ALLOCATOR_H_

#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "hal/buffer.h"
#include "hal/resource.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_hal_allocator_statistics_t {
  uint64_t bytes_allocated;       // live now
  uint64_t peak_bytes_allocated;  // high-water mark
  uint64_t allocation_count;      // total allocations made
} grt_hal_allocator_statistics_t;

// One heap: a memory type the allocator can satisfy and what it allows.
typedef struct grt_hal_allocator_memory_heap_t {
  grt_hal_memory_type_t type;
  grt_hal_buffer_usage_t allowed_usage;
  uint64_t max_allocation_size;
  uint32_t min_alignment;
} grt_hal_allocator_memory_heap_t;

// Called when the last reference to an imported buffer is released.
typedef struct grt_hal_buffer_release_callback_t {
  void (*fn)(void* user_data, void* host_pointer);
  void* user_data;
} grt_hal_buffer_release_callback_t;

typedef struct grt_hal_allocator_vtable_t {
  grt_hal_resource_vtable_t base;
  // Heaps into |out_heaps| (capacity |capacity|); the total in *out_count.
  void (*query_memory_heaps)(const grt_hal_allocator_t* allocator,
                             size_t capacity,
                             grt_hal_allocator_memory_heap_t* out_heaps,
                             size_t* out_count);
  // |params| already canonicalized (defaults filled); |size| > 0.
  grt_status_t (*allocate_buffer)(grt_hal_allocator_t* allocator,
                                  const grt_hal_buffer_params_t* params,
                                  uint64_t size, grt_hal_buffer_t** out_buffer);
  // Wraps host memory; UNIMPLEMENTED where the device cannot use it. May be
  // NULL (treated as UNIMPLEMENTED).
  grt_status_t (*import_host_buffer)(grt_hal_allocator_t* allocator,
                                     const grt_hal_buffer_params_t* params,
                                     void* host_pointer, uint64_t size,
                                     grt_hal_buffer_release_callback_t release,
                                     grt_hal_buffer_t** out_buffer);
  void (*query_statistics)(const grt_hal_allocator_t* allocator,
                           grt_hal_allocator_statistics_t* out_statistics);
} grt_hal_allocator_vtable_t;

struct grt_hal_allocator_t {
  grt_hal_resource_t resource;
  grt_allocator_t host_allocator;  // for the allocator's own bookkeeping
};

static inline void grt_hal_allocator_retain(grt_hal_allocator_t* a) {
  grt_hal_resource_retain(a);
}
static inline void grt_hal_allocator_release(grt_hal_allocator_t* a) {
  grt_hal_resource_release(a);
}

void grt_hal_allocator_query_memory_heaps(const grt_hal_allocator_t* allocator,
                                          size_t capacity,
                                          grt_hal_allocator_memory_heap_t* out_heaps,
                                          size_t* out_count);

// Allocates |size| bytes (0 is allowed and gives a 0-length buffer). Fills
// defaults in |params|, then fails with INVALID_ARGUMENT when no heap
// offers the memory type with the usage ("no heap offers memory type
// DEVICE_LOCAL|HOST_VISIBLE with usage MAPPING; heaps: ..."), and
// RESOURCE_EXHAUSTED naming the size when memory runs out. The buffer
// allows |params.access| (READ or READ|WRITE; INVALID_ARGUMENT otherwise).
grt_status_t grt_hal_allocator_allocate_buffer(
    grt_hal_allocator_t* allocator, grt_hal_buffer_params_t params,
    uint64_t size, grt_hal_buffer_t** out_buffer) GRT_MUST_USE;

// Wraps |size| bytes at |host_pointer| (zero-copy). Import read-only memory
// (a read-only file mapping, rodata) with |params.access| READ: every HAL
// write path then refuses the buffer instead of faulting.
grt_status_t grt_hal_allocator_import_host_buffer(
    grt_hal_allocator_t* allocator, grt_hal_buffer_params_t params,
    void* host_pointer, uint64_t size,
    grt_hal_buffer_release_callback_t release,
    grt_hal_buffer_t** out_buffer) GRT_MUST_USE;

void grt_hal_allocator_query_statistics(
    const grt_hal_allocator_t* allocator,
    grt_hal_allocator_statistics_t* out_statistics);

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_ALLOCATOR_H_
