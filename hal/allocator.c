// Allocator wrappers: fill parameter defaults and check them against the
// heaps the implementation offers, so implementations only see requests
// they can satisfy in principle.
#include "hal/allocator.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

// Enough for every device we know; heaps past this are not consulted.
#define GRT_HAL_ALLOCATOR_MAX_HEAPS 16

#define GRT_HAL_DEFAULT_BUFFER_ALIGNMENT 64

void grt_hal_allocator_query_memory_heaps(
    const grt_hal_allocator_t* allocator, size_t capacity,
    grt_hal_allocator_memory_heap_t* out_heaps, size_t* out_count) {
  GRT_HAL_VTABLE(allocator, grt_hal_allocator_vtable_t)
      ->query_memory_heaps(allocator, capacity, out_heaps, out_count);
}

static grt_status_t grt_hal_buffer_params_canonicalize(
    grt_hal_buffer_params_t* params) {
  if (params->type == GRT_HAL_MEMORY_TYPE_NONE) {
    params->type = GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL;
  }
  if (params->usage == GRT_HAL_BUFFER_USAGE_NONE) {
    params->usage = GRT_HAL_BUFFER_USAGE_DEFAULT;
  }
  if (params->min_alignment == 0) {
    params->min_alignment = GRT_HAL_DEFAULT_BUFFER_ALIGNMENT;
  }
  if (params->access == 0) params->access = GRT_HAL_MEMORY_ACCESS_READ_WRITE;
  if (params->access != GRT_HAL_MEMORY_ACCESS_READ &&
      params->access != GRT_HAL_MEMORY_ACCESS_READ_WRITE) {
    char text[64];
    return grt_make_status(
        GRT_STATUS_INVALID_ARGUMENT,
        "buffer access must be READ or READ|WRITE, got %s",
        grt_hal_memory_access_format(params->access, text, sizeof(text)));
  }
  if ((params->min_alignment & (params->min_alignment - 1)) != 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "buffer alignment must be a power of two, got %" PRIu32,
                           params->min_alignment);
  }
  return grt_ok_status();
}

// Finds a heap offering every requested type bit with every usage bit.
static grt_status_t grt_hal_allocator_check_heaps(
    const grt_hal_allocator_t* allocator, const grt_hal_buffer_params_t* params,
    uint64_t size) {
  grt_hal_allocator_memory_heap_t heaps[GRT_HAL_ALLOCATOR_MAX_HEAPS];
  size_t count = 0;
  grt_hal_allocator_query_memory_heaps(allocator, GRT_HAL_ALLOCATOR_MAX_HEAPS,
                                       heaps, &count);
  if (count > GRT_HAL_ALLOCATOR_MAX_HEAPS) count = GRT_HAL_ALLOCATOR_MAX_HEAPS;
  bool type_found = false;
  for (size_t i = 0; i < count; ++i) {
    if ((heaps[i].type & params->type) != params->type) continue;
    if ((heaps[i].allowed_usage & params->usage) != params->usage) continue;
    type_found = true;
    if (heaps[i].max_allocation_size == 0 ||
        size <= heaps[i].max_allocation_size) {
      return grt_ok_status();
    }
  }
  // The texts below are only the messages'.
  if (!GRT_STATUS_MESSAGES) {
    return grt_make_status_code(type_found ? GRT_STATUS_RESOURCE_EXHAUSTED
                                           : GRT_STATUS_INVALID_ARGUMENT);
  }
  char type_text[96];
  char usage_text[96];
  grt_hal_memory_type_format(params->type, type_text, sizeof(type_text));
  grt_hal_buffer_usage_format(params->usage, usage_text, sizeof(usage_text));
  char list[512];
  size_t length = 0;
  list[0] = '\0';
  for (size_t i = 0; i < count && length < sizeof(list); ++i) {
    char heap_type[96];
    char heap_usage[96];
    int n = snprintf(
        list + length, sizeof(list) - length, "%s%s (usage %s, max %" PRIu64 " bytes)",
        i ? ", " : "",
        grt_hal_memory_type_format(heaps[i].type, heap_type, sizeof(heap_type)),
        grt_hal_buffer_usage_format(heaps[i].allowed_usage, heap_usage,
                                    sizeof(heap_usage)),
        heaps[i].max_allocation_size);
    if (n < 0) break;
    length += (size_t)n;
  }
  if (type_found) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "buffer of %" PRIu64
                           " bytes is larger than any heap offering memory "
                           "type %s with usage %s allows; heaps: %s",
                           size, type_text, usage_text, list);
  }
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "no heap offers memory type %s with usage %s; heaps: %s",
                         type_text, usage_text, count ? list : "none");
}

grt_status_t grt_hal_allocator_allocate_buffer(grt_hal_allocator_t* allocator,
                                               grt_hal_buffer_params_t params,
                                               uint64_t size,
                                               grt_hal_buffer_t** out_buffer) {
  *out_buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_buffer_params_canonicalize(&params));
  GRT_RETURN_IF_ERROR(grt_hal_allocator_check_heaps(allocator, &params, size));
  GRT_RETURN_IF_ERROR(GRT_HAL_VTABLE(allocator, grt_hal_allocator_vtable_t)
                          ->allocate_buffer(allocator, &params, size,
                                            out_buffer));
  grt_hal_buffer_restrict_access(*out_buffer, params.access);
  return grt_ok_status();
}

grt_status_t grt_hal_allocator_import_host_buffer(
    grt_hal_allocator_t* allocator, grt_hal_buffer_params_t params,
    void* host_pointer, uint64_t size,
    grt_hal_buffer_release_callback_t release, grt_hal_buffer_t** out_buffer) {
  *out_buffer = NULL;
  const grt_hal_allocator_vtable_t* vtable =
      GRT_HAL_VTABLE(allocator, grt_hal_allocator_vtable_t);
  if (!vtable->import_host_buffer) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "this allocator cannot import host memory; "
                           "allocate a buffer and copy into it instead");
  }
  // Host memory is aligned however its owner made it; only an alignment the
  // caller asked for is enforced.
  uint32_t requested_alignment = params.min_alignment;
  GRT_RETURN_IF_ERROR(grt_hal_buffer_params_canonicalize(&params));
  if (!host_pointer && size != 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "cannot import a NULL host pointer of %" PRIu64
                           " bytes",
                           size);
  }
  if (requested_alignment &&
      ((uintptr_t)host_pointer & (requested_alignment - 1)) != 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "host pointer %p is not aligned to %" PRIu32 " bytes",
                           host_pointer, requested_alignment);
  }
  GRT_RETURN_IF_ERROR(vtable->import_host_buffer(
      allocator, &params, host_pointer, size, release, out_buffer));
  grt_hal_buffer_restrict_access(*out_buffer, params.access);
  return grt_ok_status();
}

void grt_hal_allocator_query_statistics(
    const grt_hal_allocator_t* allocator,
    grt_hal_allocator_statistics_t* out_statistics) {
  memset(out_statistics, 0, sizeof(*out_statistics));
  const grt_hal_allocator_vtable_t* vtable =
      GRT_HAL_VTABLE(allocator, grt_hal_allocator_vtable_t);
  if (vtable->query_statistics) {
    vtable->query_statistics(allocator, out_statistics);
  }
}
