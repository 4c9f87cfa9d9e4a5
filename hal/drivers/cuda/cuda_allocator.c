// The CUDA allocator and buffers (cuda_device.h).
//
// Two heaps. Device-local memory (cuMemAllocAsync on the queue's stream
// where the device has memory pools, else cuMemAlloc) is never mapped: the
// host reaches it through staging (hal/transfer.h). Host-visible memory is
// pinned host memory mapped into the device's address space
// (cuMemHostAlloc with DEVICEMAP): coherent, mappable, and usable by
// kernels and copies through its device pointer, which makes it the
// staging memory of transfers.
#include <string.h>

#include "hal/allocator.h"
#include "hal/allocator_counters.h"
#include "hal/drivers/cuda/cuda_device.h"

// Enough for every vector width a kernel uses and what cuMemAlloc gives.
#define GRT_HAL_CUDA_BUFFER_ALIGNMENT 256u

typedef struct grt_hal_cuda_allocator_t {
  grt_hal_allocator_t base;
  grt_hal_cuda_context_t* context;  // retained
  grt_hal_allocator_counters_t counters;
} grt_hal_cuda_allocator_t;

typedef struct grt_hal_cuda_buffer_t {
  grt_hal_buffer_t base;
  grt_hal_cuda_context_t* context;  // retained
  CUdeviceptr device_pointer;  // 0 for empty buffers
  void* host_pointer;          // pinned memory; NULL for device memory
  bool stream_ordered;         // freed with cuMemFreeAsync
} grt_hal_cuda_buffer_t;

static const grt_hal_buffer_vtable_t grt_hal_cuda_buffer_vtable;

bool grt_hal_cuda_buffer_isa(const grt_hal_buffer_t* buffer,
                             const grt_hal_cuda_context_t* context) {
  return buffer && buffer->resource.vtable == &grt_hal_cuda_buffer_vtable &&
         ((const grt_hal_cuda_buffer_t*)buffer)->context == context;
}

CUdeviceptr grt_hal_cuda_buffer_device_pointer(const grt_hal_buffer_t* buffer) {
  return ((const grt_hal_cuda_buffer_t*)buffer)->device_pointer;
}

static void grt_hal_cuda_buffer_destroy(grt_hal_resource_t* resource) {
  grt_hal_cuda_buffer_t* buffer = (grt_hal_cuda_buffer_t*)resource;
  grt_hal_cuda_context_t* context = buffer->context;
  const grt_hal_cuda_symbols_t* symbols = context->symbols;
  grt_hal_cuda_allocator_t* allocator =
      (grt_hal_cuda_allocator_t*)buffer->base.allocator;
  // Teardown cannot fail; a driver error here leaks the memory at worst.
  if (grt_status_consume_ok(grt_hal_cuda_context_make_current(context))) {
    if (buffer->host_pointer) {
      // Pinned memory is not stream-ordered: work still using it must end.
      symbols->cuStreamSynchronize(context->stream);
      symbols->cuMemFreeHost(buffer->host_pointer);
    } else if (buffer->device_pointer && buffer->stream_ordered) {
      symbols->cuMemFreeAsync(buffer->device_pointer, context->stream);
    } else if (buffer->device_pointer) {
      symbols->cuStreamSynchronize(context->stream);
      symbols->cuMemFree(buffer->device_pointer);
    }
  }
  grt_hal_allocator_counters_freed(&allocator->counters, buffer->base.allocation_size);
  grt_allocator_t host_allocator = allocator->base.host_allocator;
  grt_hal_buffer_deinitialize(&buffer->base);
  grt_hal_cuda_context_release(context);
  grt_allocator_free(host_allocator, buffer);
}

static grt_status_t grt_hal_cuda_buffer_map_range(
    grt_hal_buffer_t* base, grt_hal_buffer_mapping_t* mapping) {
  grt_hal_cuda_buffer_t* buffer = (grt_hal_cuda_buffer_t*)base;
  // The generic code only maps host-visible buffers, which are pinned.
  mapping->contents = (uint8_t*)buffer->host_pointer + mapping->offset;
  return grt_ok_status();
}

static grt_status_t grt_hal_cuda_buffer_unmap_range(
    grt_hal_buffer_t* base, grt_hal_buffer_mapping_t* mapping) {
  (void)base;
  (void)mapping;
  return grt_ok_status();  // coherent memory: nothing to write back
}

static const grt_hal_buffer_vtable_t grt_hal_cuda_buffer_vtable = {
    {grt_hal_cuda_buffer_destroy},
    grt_hal_cuda_buffer_map_range,
    grt_hal_cuda_buffer_unmap_range,
    NULL,
    NULL,
};

static void grt_hal_cuda_allocator_destroy(grt_hal_resource_t* resource) {
  grt_hal_cuda_allocator_t* allocator = (grt_hal_cuda_allocator_t*)resource;
  grt_hal_cuda_context_release(allocator->context);
  grt_allocator_free(allocator->base.host_allocator, allocator);
}

static const grt_hal_allocator_memory_heap_t kCudaHeaps[] = {
    {GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL, GRT_HAL_BUFFER_USAGE_DEFAULT, 0,
     GRT_HAL_CUDA_BUFFER_ALIGNMENT},
    {GRT_HAL_MEMORY_TYPE_HOST_VISIBLE | GRT_HAL_MEMORY_TYPE_HOST_COHERENT,
     GRT_HAL_BUFFER_USAGE_DEFAULT | GRT_HAL_BUFFER_USAGE_MAPPING, 0,
     GRT_HAL_CUDA_BUFFER_ALIGNMENT},
};

static void grt_hal_cuda_allocator_query_memory_heaps(
    const grt_hal_allocator_t* allocator, size_t capacity,
    grt_hal_allocator_memory_heap_t* out_heaps, size_t* out_count) {
  (void)allocator;
  size_t count = sizeof(kCudaHeaps) / sizeof(kCudaHeaps[0]);
  for (size_t i = 0; i < count && i < capacity; ++i) out_heaps[i] = kCudaHeaps[i];
  *out_count = count;
}

static grt_status_t grt_hal_cuda_allocator_allocate_memory(
    grt_hal_cuda_context_t* context, bool host_visible, uint64_t size,
    grt_hal_cuda_buffer_t* buffer) {
  const grt_hal_cuda_symbols_t* symbols = context->symbols;
  if (size == 0) return grt_ok_status();
  if (size > SIZE_MAX) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "buffer of %llu bytes exceeds the address space",
                           (unsigned long long)size);
  }
  GRT_RETURN_IF_ERROR(grt_hal_cuda_context_make_current(context));
  if (host_visible) {
    GRT_CUDA_RETURN_IF_ERROR(
        symbols, cuMemHostAlloc,
        (&buffer->host_pointer, (size_t)size,
         CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    GRT_CUDA_RETURN_IF_ERROR(
        symbols, cuMemHostGetDevicePointer,
        (&buffer->device_pointer, buffer->host_pointer, 0));
    return grt_ok_status();
  }
  if (context->memory_pools_supported) {
    buffer->stream_ordered = true;
    GRT_CUDA_RETURN_IF_ERROR(
        symbols, cuMemAllocAsync,
        (&buffer->device_pointer, (size_t)size, context->stream));
    return grt_ok_status();
  }
  GRT_CUDA_RETURN_IF_ERROR(symbols, cuMemAlloc,
                           (&buffer->device_pointer, (size_t)size));
  return grt_ok_status();
}

static grt_status_t grt_hal_cuda_allocator_allocate_buffer(
    grt_hal_allocator_t* base, const grt_hal_buffer_params_t* params,
    uint64_t size, grt_hal_buffer_t** out_buffer) {
  grt_hal_cuda_allocator_t* allocator = (grt_hal_cuda_allocator_t*)base;
  *out_buffer = NULL;
  grt_hal_cuda_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(base->host_allocator,
                                           sizeof(*buffer), (void**)&buffer));
  bool host_visible = (params->type & GRT_HAL_MEMORY_TYPE_HOST_VISIBLE) != 0;
  grt_status_t status = grt_hal_cuda_allocator_allocate_memory(
      allocator->context, host_visible, size, buffer);
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(base->host_allocator, buffer);
    return grt_status_annotate(status, "while allocating %llu bytes of %s memory",
                               (unsigned long long)size,
                               host_visible ? "pinned host" : "device");
  }
  buffer->context = allocator->context;
  grt_hal_cuda_context_retain(buffer->context);
  grt_hal_memory_type_t type = host_visible ? kCudaHeaps[1].type
                                            : kCudaHeaps[0].type;
  grt_hal_buffer_initialize(&grt_hal_cuda_buffer_vtable, base, type,
                            params->usage, size, &buffer->base);
  grt_hal_allocator_counters_allocated(&allocator->counters, size);
  *out_buffer = &buffer->base;
  return grt_ok_status();
}

static void grt_hal_cuda_allocator_query_statistics(
    const grt_hal_allocator_t* base,
    grt_hal_allocator_statistics_t* out_statistics) {
  grt_hal_cuda_allocator_t* allocator = (grt_hal_cuda_allocator_t*)base;
  grt_hal_allocator_counters_query(&allocator->counters, out_statistics);
}

static const grt_hal_allocator_vtable_t grt_hal_cuda_allocator_vtable = {
    {grt_hal_cuda_allocator_destroy},
    grt_hal_cuda_allocator_query_memory_heaps,
    grt_hal_cuda_allocator_allocate_buffer,
    NULL,  // importing host memory would need cuMemHostRegister; not yet
    grt_hal_cuda_allocator_query_statistics,
};

grt_status_t grt_hal_cuda_allocator_create(grt_hal_cuda_context_t* context,
                                           grt_hal_allocator_t** out) {
  *out = NULL;
  grt_hal_cuda_allocator_t* allocator = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      context->host_allocator, sizeof(*allocator), (void**)&allocator));
  grt_hal_resource_initialize(&grt_hal_cuda_allocator_vtable,
                              &allocator->base.resource);
  allocator->base.host_allocator = context->host_allocator;
  allocator->context = context;
  grt_hal_cuda_context_retain(context);
  grt_hal_allocator_counters_initialize(&allocator->counters);
  *out = &allocator->base;
  return grt_ok_status();
}
