#include "compiler/mlir/arena.h"

#include <stdalign.h>
#include <string.h>

struct grtc_arena_chunk_t {
  grtc_arena_chunk_t* next;
  size_t size;
};

// Big enough that a typical module needs a handful of chunks.
#define GRTC_ARENA_CHUNK_SIZE (64 * 1024)
#define GRTC_ARENA_ALIGNMENT alignof(max_align_t)

static size_t grtc_arena_align(size_t value) {
  return (value + GRTC_ARENA_ALIGNMENT - 1) & ~(size_t)(GRTC_ARENA_ALIGNMENT - 1);
}

void grtc_arena_initialize(grt_allocator_t allocator, grtc_arena_t* out_arena) {
  memset(out_arena, 0, sizeof(*out_arena));
  out_arena->allocator = allocator;
}

void grtc_arena_deinitialize(grtc_arena_t* arena) {
  grtc_arena_chunk_t* chunk = arena->chunks;
  while (chunk) {
    grtc_arena_chunk_t* next = chunk->next;
    grt_allocator_free(arena->allocator, chunk);
    chunk = next;
  }
  arena->chunks = NULL;
  arena->cursor = arena->limit = NULL;
}

void* grtc_arena_alloc(grtc_arena_t* arena, size_t size) {
  size = grtc_arena_align(size ? size : 1);
  if ((size_t)(arena->limit - arena->cursor) < size) {
    size_t header = grtc_arena_align(sizeof(grtc_arena_chunk_t));
    if (size > SIZE_MAX / 2 - header) return NULL;
    size_t chunk_size = header + (size > GRTC_ARENA_CHUNK_SIZE ? size
                                                               : GRTC_ARENA_CHUNK_SIZE);
    void* memory = NULL;
    grt_status_t status = grt_allocator_malloc_aligned(
        arena->allocator, chunk_size, GRTC_ARENA_ALIGNMENT, &memory);
    if (!grt_status_consume_ok(status)) return NULL;
    grtc_arena_chunk_t* chunk = memory;
    chunk->next = arena->chunks;
    chunk->size = chunk_size;
    arena->chunks = chunk;
    arena->cursor = (uint8_t*)memory + header;
    arena->limit = (uint8_t*)memory + chunk_size;
  }
  void* result = arena->cursor;
  arena->cursor += size;
  memset(result, 0, size);
  return result;
}

char* grtc_arena_strndup(grtc_arena_t* arena, const char* data, size_t size) {
  char* copy = grtc_arena_alloc(arena, size + 1);
  if (!copy) return NULL;
  if (size) memcpy(copy, data, size);
  copy[size] = 0;
  return copy;
}

grt_status_t grtc_arena_vec_push(grtc_arena_t* arena, grtc_arena_vec_t* vec,
                                 const void* element, size_t element_size) {
  if (vec->count == vec->capacity) {
    if (vec->capacity > UINT32_MAX / 2) {
      return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                             "more than %u elements in one list", vec->capacity);
    }
    uint32_t capacity = vec->capacity ? vec->capacity * 2 : 4;
    void* data = grtc_arena_alloc(arena, (size_t)capacity * element_size);
    if (!data) {
      return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                             "out of memory growing a list to %u elements",
                             capacity);
    }
    if (vec->count) memcpy(data, vec->data, (size_t)vec->count * element_size);
    vec->data = data;
    vec->capacity = capacity;
  }
  memcpy((uint8_t*)vec->data + (size_t)vec->count * element_size, element,
         element_size);
  vec->count++;
  return grt_ok_status();
}
