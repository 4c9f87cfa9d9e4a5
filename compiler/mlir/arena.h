// Arena: bump allocation for compiler IR.
//
// A parsed module is thousands of small immutable nodes that all die
// together, so they come from one arena freed in one call. Growth never
// moves earlier allocations, which lets IR nodes point at each other.
// (Private to the compiler until base/ grows a shared arena.)
#ifndef GRT_COMPILER_MLIR_ARENA_H_
#define GRT_COMPILER_MLIR_ARENA_H_

#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grtc_arena_chunk_t grtc_arena_chunk_t;

typedef struct grtc_arena_t {
  grt_allocator_t allocator;
  grtc_arena_chunk_t* chunks;  // newest first
  uint8_t* cursor;             // free space in the newest chunk
  uint8_t* limit;
} grtc_arena_t;

void grtc_arena_initialize(grt_allocator_t allocator, grtc_arena_t* out_arena);
void grtc_arena_deinitialize(grtc_arena_t* arena);

// Returns |size| zeroed bytes aligned for any scalar, or NULL when the
// allocator is exhausted.
void* grtc_arena_alloc(grtc_arena_t* arena, size_t size);

// Copies |size| bytes and appends a NUL, so views into the copy can also be
// used as C strings.
char* grtc_arena_strndup(grtc_arena_t* arena, const char* data, size_t size);

// A growable array whose storage lives in the arena: abandoned storage is
// reclaimed with the arena, so error paths never need to free anything.
typedef struct grtc_arena_vec_t {
  void* data;
  uint32_t count;
  uint32_t capacity;
} grtc_arena_vec_t;

// Appends one element of |element_size| bytes copied from |element|.
grt_status_t grtc_arena_vec_push(grtc_arena_t* arena, grtc_arena_vec_t* vec,
                                 const void* element, size_t element_size)
    GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_MLIR_ARENA_H_
