#include "base/arena.h"

#include <stdint.h>
#include <string.h>

#include "base/checked_math.h"

struct grt_arena_block_t {
  grt_arena_block_t* next;
  size_t size;  // bytes taken from the parent, this header included
};

// Payloads start this far into a block, so they inherit the parent's
// default alignment; larger alignments are padded for inside the block.
#define GRT_ARENA_HEADER_SIZE                      \
  grt_align_up_size(sizeof(grt_arena_block_t), \
                    GRT_ALLOCATOR_DEFAULT_ALIGNMENT)

static unsigned char* grt_arena_block_begin(grt_arena_block_t* block) {
  return (unsigned char*)block + GRT_ARENA_HEADER_SIZE;
}

static unsigned char* grt_arena_block_end(grt_arena_block_t* block) {
  return (unsigned char*)block + block->size;
}

void grt_arena_init(grt_allocator_t parent, size_t block_size,
                    grt_arena_t* out_arena) {
  memset(out_arena, 0, sizeof(*out_arena));
  out_arena->parent = parent;
  if (block_size == 0) block_size = GRT_ARENA_DEFAULT_BLOCK_SIZE;
  if (block_size < GRT_ARENA_MIN_BLOCK_SIZE) block_size = GRT_ARENA_MIN_BLOCK_SIZE;
  out_arena->block_size = block_size;
}

// Frees |block| and every block after it.
static void grt_arena_free_blocks(grt_arena_t* arena, grt_arena_block_t* block) {
  while (block) {
    grt_arena_block_t* next = block->next;
    arena->stats.bytes_reserved -= block->size;
    --arena->stats.block_count;
    grt_allocator_free(arena->parent, block);
    block = next;
  }
}

void grt_arena_deinit(grt_arena_t* arena) {
  grt_arena_free_blocks(arena, arena->blocks);
  grt_allocator_t parent = arena->parent;
  size_t block_size = arena->block_size;
  grt_arena_init(parent, block_size, arena);
}

// Makes |block| the one being bumped, starting at its beginning.
static void grt_arena_bump_into(grt_arena_t* arena, grt_arena_block_t* block) {
  arena->cursor = grt_arena_block_begin(block);
  arena->limit = grt_arena_block_end(block);
  arena->last_allocation = NULL;
}

void grt_arena_reset(grt_arena_t* arena) {
  grt_arena_block_t* keep = NULL;
  grt_arena_block_t** link = &arena->blocks;
  while (*link) {
    if ((*link)->size == arena->block_size) {
      keep = *link;
      *link = keep->next;  // unlink it so the sweep below spares it
      break;
    }
    link = &(*link)->next;
  }
  grt_arena_free_blocks(arena, arena->blocks);
  arena->blocks = keep;
  arena->stats.bytes_in_use = 0;
  if (keep) {
    keep->next = NULL;
    grt_arena_bump_into(arena, keep);
  } else {
    arena->cursor = arena->limit = arena->last_allocation = NULL;
  }
}

static void grt_arena_count_use(grt_arena_t* arena, size_t added) {
  arena->stats.bytes_in_use += added;
  if (arena->stats.bytes_in_use > arena->stats.peak_bytes_in_use) {
    arena->stats.peak_bytes_in_use = arena->stats.bytes_in_use;
  }
}

// Where an allocation of |size| bytes aligned to |alignment| would start in
// the current block, or NULL if it does not fit there.
static unsigned char* grt_arena_fit(grt_arena_t* arena, size_t size,
                                    size_t alignment) {
  if (!arena->cursor) return NULL;
  uintptr_t start =
      ((uintptr_t)arena->cursor + alignment - 1) & ~(uintptr_t)(alignment - 1);
  uintptr_t limit = (uintptr_t)arena->limit;
  if (start > limit || size > limit - start) return NULL;
  return arena->cursor + (start - (uintptr_t)arena->cursor);
}

// Takes a block big enough for the request and returns where the request
// starts in it.
static grt_status_t grt_arena_grow(grt_arena_t* arena, size_t size,
                                   size_t alignment, unsigned char** out_ptr) {
  // Payloads are only guaranteed the default alignment, so a larger one may
  // need up to (alignment - default) bytes of padding.
  size_t padding = alignment > GRT_ALLOCATOR_DEFAULT_ALIGNMENT
                       ? alignment - GRT_ALLOCATOR_DEFAULT_ALIGNMENT
                       : 0;
  size_t needed;
  if (!grt_checked_add_size(size, GRT_ARENA_HEADER_SIZE + padding, &needed)) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "arena allocation of %zu bytes (alignment %zu) "
                           "does not fit in size_t",
                           size, alignment);
  }
  bool oversized = needed > arena->block_size;
  size_t block_size = oversized ? needed : arena->block_size;
  grt_arena_block_t* block = NULL;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_allocator_malloc(arena->parent, block_size, (void**)&block),
      "growing an arena for a %zu-byte allocation", size);
  block->size = block_size;
  arena->stats.bytes_reserved += block_size;
  ++arena->stats.block_count;

  unsigned char* begin = grt_arena_block_begin(block);
  unsigned char* start =
      begin + (grt_align_up_size((uintptr_t)begin, alignment) - (uintptr_t)begin);
  if (oversized && arena->blocks) {
    // Sit behind the current block so its free space stays in use.
    block->next = arena->blocks->next;
    arena->blocks->next = block;
  } else {
    block->next = arena->blocks;
    arena->blocks = block;
    grt_arena_bump_into(arena, block);
    arena->cursor = start + size;
    arena->last_allocation = start;
  }
  *out_ptr = start;
  return grt_ok_status();
}

grt_status_t grt_arena_allocate_aligned(grt_arena_t* arena, size_t size,
                                        size_t alignment, void** out_ptr) {
  *out_ptr = NULL;
  if (!grt_is_power_of_two_size(alignment) ||
      alignment > GRT_ARENA_MAX_ALIGNMENT) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "arena alignment must be a power of two no larger "
                           "than %d, got %zu",
                           GRT_ARENA_MAX_ALIGNMENT, alignment);
  }
  if (size == 0) size = 1;  // keeps zero-size pointers unique
  unsigned char* ptr = grt_arena_fit(arena, size, alignment);
  if (ptr) {
    arena->cursor = ptr + size;
    arena->last_allocation = ptr;
  } else {
    GRT_RETURN_IF_ERROR(grt_arena_grow(arena, size, alignment, &ptr));
  }
  grt_arena_count_use(arena, size);
  *out_ptr = ptr;
  return grt_ok_status();
}

grt_status_t grt_arena_allocate(grt_arena_t* arena, size_t size,
                                void** out_ptr) {
  return grt_arena_allocate_aligned(arena, size,
                                    GRT_ALLOCATOR_DEFAULT_ALIGNMENT, out_ptr);
}

void* grt_arena_alloc_zeroed(grt_arena_t* arena, size_t size) {
  void* ptr = NULL;
  grt_status_t status = grt_arena_allocate(arena, size, &ptr);
  if (status) {
    grt_status_free(status);
    return NULL;
  }
  if (size) memset(ptr, 0, size);
  return ptr;
}

char* grt_arena_strndup(grt_arena_t* arena, const char* data, size_t size) {
  if (size == SIZE_MAX) return NULL;
  char* copy = grt_arena_alloc_zeroed(arena, size + 1);
  if (!copy) return NULL;
  if (size) memcpy(copy, data, size);
  return copy;
}

grt_status_t grt_arena_vec_push(grt_arena_t* arena, grt_arena_vec_t* vec,
                                const void* element, size_t element_size) {
  if (vec->count == vec->capacity) {
    if (vec->capacity > UINT32_MAX / 2) {
      return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                             "more than %u elements in one arena vector",
                             vec->capacity);
    }
    uint32_t capacity = vec->capacity ? vec->capacity * 2 : 4;
    size_t bytes = 0;
    void* data = NULL;
    if (!grt_checked_mul_size((size_t)capacity, element_size, &bytes) ||
        !(data = grt_arena_alloc_zeroed(arena, bytes))) {
      return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                             "out of memory growing an arena vector to %u "
                             "elements of %zu bytes",
                             capacity, element_size);
    }
    if (vec->count) memcpy(data, vec->data, (size_t)vec->count * element_size);
    vec->data = data;
    vec->capacity = capacity;
  }
  memcpy((unsigned char*)vec->data + (size_t)vec->count * element_size,
         element, element_size);
  vec->count++;
  return grt_ok_status();
}

grt_arena_stats_t grt_arena_stats(const grt_arena_t* arena) {
  return arena->stats;
}

// The allocator vtable reports failure as NULL, so the status is dropped.
static void* grt_arena_vtable_allocate(void* self, size_t size,
                                       size_t alignment) {
  void* ptr = NULL;
  grt_status_free(grt_arena_allocate_aligned(self, size, alignment, &ptr));
  return ptr;
}

static void* grt_arena_vtable_reallocate(void* self, void* ptr, size_t old_size,
                                         size_t new_size, size_t alignment) {
  grt_arena_t* arena = self;
  if (old_size == 0) old_size = 1;
  if (new_size == 0) new_size = 1;
  unsigned char* bytes = ptr;
  bool aligned = ((uintptr_t)bytes & (alignment - 1)) == 0;
  if (aligned && bytes == arena->last_allocation &&
      new_size <= (size_t)(arena->limit - bytes)) {
    arena->cursor = bytes + new_size;
    if (new_size >= old_size) {
      grt_arena_count_use(arena, new_size - old_size);
    } else {
      arena->stats.bytes_in_use -= old_size - new_size;
    }
    return ptr;
  }
  if (aligned && new_size <= old_size) return ptr;
  void* moved = grt_arena_vtable_allocate(self, new_size, alignment);
  if (moved) memcpy(moved, ptr, old_size < new_size ? old_size : new_size);
  return moved;
}

static void grt_arena_vtable_free(void* self, void* ptr) {
  // Arena memory is reclaimed only by reset or deinit.
}

static const grt_allocator_vtable_t grt_arena_allocator_vtable = {
    grt_arena_vtable_allocate,
    grt_arena_vtable_reallocate,
    grt_arena_vtable_free,
};

grt_allocator_t grt_arena_allocator(grt_arena_t* arena) {
  grt_allocator_t allocator = {&grt_arena_allocator_vtable, arena};
  return allocator;
}
