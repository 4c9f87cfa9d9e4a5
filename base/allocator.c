#include "base/allocator.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int grt_is_power_of_two(size_t value) {
  return value != 0 && (value & (value - 1)) == 0;
}

static void* grt_system_allocate(void* self, size_t size, size_t alignment) {
  (void)self;
  if (size == 0) size = 1;
  if (alignment <= GRT_ALLOCATOR_DEFAULT_ALIGNMENT) return malloc(size);
  void* ptr = NULL;
  if (posix_memalign(&ptr, alignment, size) != 0) return NULL;
  return ptr;
}

static void* grt_system_reallocate(void* self, void* ptr, size_t old_size,
                                   size_t new_size, size_t alignment) {
  if (new_size == 0) new_size = 1;
  if (alignment <= GRT_ALLOCATOR_DEFAULT_ALIGNMENT) return realloc(ptr, new_size);
  // realloc() may drop over-alignment, so move the block by hand.
  void* grown = grt_system_allocate(self, new_size, alignment);
  if (!grown) return NULL;
  if (ptr) {
    memcpy(grown, ptr, old_size < new_size ? old_size : new_size);
    free(ptr);
  }
  return grown;
}

static void grt_system_free(void* self, void* ptr) {
  (void)self;
  free(ptr);
}

static const grt_allocator_vtable_t grt_system_allocator_vtable = {
    grt_system_allocate,
    grt_system_reallocate,
    grt_system_free,
};

grt_allocator_t grt_allocator_system(void) {
  grt_allocator_t allocator = {&grt_system_allocator_vtable, NULL};
  return allocator;
}

grt_status_t grt_allocator_malloc_aligned(grt_allocator_t allocator,
                                          size_t size, size_t alignment,
                                          void** out_ptr) {
  *out_ptr = NULL;
  if (!grt_is_power_of_two(alignment)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "allocation alignment must be a power of two, got %zu",
                           alignment);
  }
  void* ptr = allocator.vtable->allocate(allocator.self, size, alignment);
  if (!ptr) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory allocating %zu bytes (alignment %zu)",
                           size, alignment);
  }
  *out_ptr = ptr;
  return grt_ok_status();
}

grt_status_t grt_allocator_malloc(grt_allocator_t allocator, size_t size,
                                  void** out_ptr) {
  return grt_allocator_malloc_aligned(allocator, size,
                                      GRT_ALLOCATOR_DEFAULT_ALIGNMENT, out_ptr);
}

grt_status_t grt_allocator_calloc(grt_allocator_t allocator, size_t size,
                                  void** out_ptr) {
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(allocator, size, out_ptr));
  memset(*out_ptr, 0, size);
  return grt_ok_status();
}

grt_status_t grt_allocator_realloc_aligned(grt_allocator_t allocator,
                                           size_t old_size, size_t new_size,
                                           size_t alignment, void** inout_ptr) {
  if (!grt_is_power_of_two(alignment)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "allocation alignment must be a power of two, got %zu",
                           alignment);
  }
  void* ptr;
  if (*inout_ptr == NULL) {
    ptr = allocator.vtable->allocate(allocator.self, new_size, alignment);
  } else {
    ptr = allocator.vtable->reallocate(allocator.self, *inout_ptr, old_size,
                                       new_size, alignment);
  }
  if (!ptr) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory growing a block from %zu to %zu bytes",
                           old_size, new_size);
  }
  *inout_ptr = ptr;
  return grt_ok_status();
}

grt_status_t grt_allocator_realloc(grt_allocator_t allocator, size_t old_size,
                                   size_t new_size, void** inout_ptr) {
  return grt_allocator_realloc_aligned(allocator, old_size, new_size,
                                       GRT_ALLOCATOR_DEFAULT_ALIGNMENT,
                                       inout_ptr);
}

void grt_allocator_free(grt_allocator_t allocator, void* ptr) {
  if (ptr) allocator.vtable->free(allocator.self, ptr);
}
