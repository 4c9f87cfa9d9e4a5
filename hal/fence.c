// Fences: a growable pair of arrays (semaphores retained, values) laid out
// so grt_hal_fence_as_list can hand them to queue operations without a
// copy.
#include "hal/fence.h"

#include <string.h>

struct grt_hal_fence_t {
  grt_hal_resource_t resource;
  grt_allocator_t host_allocator;
  size_t count;
  size_t capacity;
  grt_hal_semaphore_t** semaphores;  // retained
  uint64_t* values;
};

static void grt_hal_fence_destroy(grt_hal_resource_t* resource) {
  grt_hal_fence_t* fence = (grt_hal_fence_t*)resource;
  for (size_t i = 0; i < fence->count; ++i) {
    grt_hal_semaphore_release(fence->semaphores[i]);
  }
  grt_allocator_free(fence->host_allocator, fence->semaphores);
  grt_allocator_free(fence->host_allocator, fence->values);
  grt_allocator_free(fence->host_allocator, fence);
}

static const grt_hal_resource_vtable_t grt_hal_fence_vtable = {
    .destroy = grt_hal_fence_destroy,
};

static grt_status_t grt_hal_fence_reserve(grt_hal_fence_t* fence,
                                          size_t capacity) {
  if (capacity <= fence->capacity) return grt_ok_status();
  size_t new_capacity = fence->capacity ? fence->capacity * 2 : 4;
  if (new_capacity < capacity) new_capacity = capacity;
  void* semaphores = fence->semaphores;
  GRT_RETURN_IF_ERROR(grt_allocator_realloc(
      fence->host_allocator, fence->capacity * sizeof(grt_hal_semaphore_t*),
      new_capacity * sizeof(grt_hal_semaphore_t*), &semaphores));
  fence->semaphores = semaphores;
  void* values = fence->values;
  GRT_RETURN_IF_ERROR(grt_allocator_realloc(
      fence->host_allocator, fence->capacity * sizeof(uint64_t),
      new_capacity * sizeof(uint64_t), &values));
  fence->values = values;
  fence->capacity = new_capacity;
  return grt_ok_status();
}

grt_status_t grt_hal_fence_create(size_t capacity,
                                  grt_allocator_t host_allocator,
                                  grt_hal_fence_t** out_fence) {
  *out_fence = NULL;
  grt_hal_fence_t* fence = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(host_allocator, sizeof(*fence), (void**)&fence));
  grt_hal_resource_initialize(&grt_hal_fence_vtable, &fence->resource);
  fence->host_allocator = host_allocator;
  grt_status_t status = grt_hal_fence_reserve(fence, capacity);
  if (!grt_status_is_ok(status)) {
    grt_hal_fence_release(fence);
    return status;
  }
  *out_fence = fence;
  return grt_ok_status();
}

grt_status_t grt_hal_fence_create_at(grt_hal_semaphore_t* semaphore,
                                     uint64_t value,
                                     grt_allocator_t host_allocator,
                                     grt_hal_fence_t** out_fence) {
  grt_hal_fence_t* fence = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_fence_create(1, host_allocator, &fence));
  grt_status_t status = grt_hal_fence_insert(fence, semaphore, value);
  if (!grt_status_is_ok(status)) {
    grt_hal_fence_release(fence);
    return status;
  }
  *out_fence = fence;
  return grt_ok_status();
}

grt_status_t grt_hal_fence_join(size_t count, grt_hal_fence_t* const* fences,
                                grt_allocator_t host_allocator,
                                grt_hal_fence_t** out_fence) {
  *out_fence = NULL;
  size_t total = 0;
  for (size_t i = 0; i < count; ++i) {
    if (fences[i]) total += fences[i]->count;
  }
  grt_hal_fence_t* fence = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_fence_create(total, host_allocator, &fence));
  for (size_t i = 0; i < count; ++i) {
    if (!fences[i]) continue;
    for (size_t j = 0; j < fences[i]->count; ++j) {
      grt_status_t status = grt_hal_fence_insert(
          fence, fences[i]->semaphores[j], fences[i]->values[j]);
      if (!grt_status_is_ok(status)) {
        grt_hal_fence_release(fence);
        return status;
      }
    }
  }
  *out_fence = fence;
  return grt_ok_status();
}

void grt_hal_fence_retain(grt_hal_fence_t* fence) {
  grt_hal_resource_retain(fence);
}

void grt_hal_fence_release(grt_hal_fence_t* fence) {
  grt_hal_resource_release(fence);
}

grt_status_t grt_hal_fence_insert(grt_hal_fence_t* fence,
                                  grt_hal_semaphore_t* semaphore,
                                  uint64_t value) {
  if (!semaphore) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "cannot insert a NULL semaphore into a fence");
  }
  // Fences hold a handful of semaphores, so a linear scan beats a map.
  for (size_t i = 0; i < fence->count; ++i) {
    if (fence->semaphores[i] == semaphore) {
      if (value > fence->values[i]) fence->values[i] = value;
      return grt_ok_status();
    }
  }
  GRT_RETURN_IF_ERROR(grt_hal_fence_reserve(fence, fence->count + 1));
  grt_hal_semaphore_retain(semaphore);
  fence->semaphores[fence->count] = semaphore;
  fence->values[fence->count] = value;
  ++fence->count;
  return grt_ok_status();
}

size_t grt_hal_fence_count(const grt_hal_fence_t* fence) {
  return fence ? fence->count : 0;
}

grt_hal_semaphore_list_t grt_hal_fence_as_list(const grt_hal_fence_t* fence) {
  if (!fence) return grt_hal_semaphore_list_empty();
  grt_hal_semaphore_list_t list = {fence->count, fence->semaphores,
                                   fence->values};
  return list;
}

grt_status_t grt_hal_fence_signal(grt_hal_fence_t* fence) {
  return grt_hal_semaphore_list_signal(grt_hal_fence_as_list(fence));
}

void grt_hal_fence_fail(grt_hal_fence_t* fence, grt_status_t status) {
  grt_hal_semaphore_list_fail(grt_hal_fence_as_list(fence), status);
}

grt_status_t grt_hal_fence_query(grt_hal_fence_t* fence, bool* out_reached) {
  return grt_hal_semaphore_list_poll(grt_hal_fence_as_list(fence), out_reached);
}

grt_status_t grt_hal_fence_wait(grt_hal_fence_t* fence,
                                grt_duration_t timeout_ns) {
  return grt_hal_semaphore_list_wait(grt_hal_fence_as_list(fence), timeout_ns);
}
