// Allocator: the one way grt code obtains memory.
//
// Every runtime allocation goes through a grt_allocator_t so an embedding
// application can route memory to its own heap, arena or accounting. The
// vtable is tiny on purpose: allocate (with alignment), reallocate, free.
// Callers use the grt_allocator_* wrappers, which turn failure into a status
// that says how much was asked for.
#ifndef GRT_BASE_ALLOCATOR_H_
#define GRT_BASE_ALLOCATOR_H_

#include <stddef.h>

#include "base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_allocator_vtable_t {
  // Returns |size| bytes aligned to |alignment| (a power of two), or NULL.
  void* (*allocate)(void* self, size_t size, size_t alignment);
  // Resizes a block from allocate(); |old_size| is the size it was given.
  // Returns NULL (leaving |ptr| intact) on failure.
  void* (*reallocate)(void* self, void* ptr, size_t old_size, size_t new_size,
                      size_t alignment);
  // Releases a block from allocate()/reallocate(). |ptr| may be NULL.
  void (*free)(void* self, void* ptr);
} grt_allocator_vtable_t;

typedef struct grt_allocator_t {
  const grt_allocator_vtable_t* vtable;
  void* self;
} grt_allocator_t;

// The C heap (malloc/posix_memalign).
grt_allocator_t grt_allocator_system(void);

// Alignment used when the caller does not ask for one: enough for any scalar
// and for the vector loads kernels do on host buffers.
#define GRT_ALLOCATOR_DEFAULT_ALIGNMENT 16

// Allocates |size| bytes (0 is allowed and yields a unique non-NULL block).
grt_status_t grt_allocator_malloc(grt_allocator_t allocator, size_t size,
                                  void** out_ptr) GRT_MUST_USE;
// As grt_allocator_malloc but zero-filled.
grt_status_t grt_allocator_calloc(grt_allocator_t allocator, size_t size,
                                  void** out_ptr) GRT_MUST_USE;
// |alignment| must be a power of two.
grt_status_t grt_allocator_malloc_aligned(grt_allocator_t allocator,
                                          size_t size, size_t alignment,
                                          void** out_ptr) GRT_MUST_USE;
// Resizes *inout_ptr (which may be NULL with old_size 0). On failure
// *inout_ptr is unchanged and still owned by the caller.
grt_status_t grt_allocator_realloc(grt_allocator_t allocator, size_t old_size,
                                   size_t new_size, void** inout_ptr)
    GRT_MUST_USE;
grt_status_t grt_allocator_realloc_aligned(grt_allocator_t allocator,
                                           size_t old_size, size_t new_size,
                                           size_t alignment, void** inout_ptr)
    GRT_MUST_USE;
void grt_allocator_free(grt_allocator_t allocator, void* ptr);

#ifdef __cplusplus
}
#endif

#endif  // GRT_BASE_ALLOCATOR_H_
