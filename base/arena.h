// Arena: bump allocation for memory that dies all at once (a compiler pass's
// scratch, a module loader's tables, one call's transients).
//
// The arena takes blocks from a parent allocator and hands out aligned
// pieces of them by bumping a cursor; nothing is freed individually.
// grt_arena_reset drops every allocation but keeps one block for the next
// round, grt_arena_deinit returns everything to the parent. An arena is not
// thread-safe: give each thread its own.
#ifndef GRT_BASE_ARENA_H_
#define GRT_BASE_ARENA_H_

#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// Bytes of each block taken from the parent when init is given 0.
#define GRT_ARENA_DEFAULT_BLOCK_SIZE (32 * 1024)
// Smaller block sizes are raised to this so the block header never
// dominates.
#define GRT_ARENA_MIN_BLOCK_SIZE 256
// The largest alignment an arena allocation may ask for (one page), so the
// padding a block must reserve stays bounded.
#define GRT_ARENA_MAX_ALIGNMENT 4096

typedef struct grt_arena_block_t grt_arena_block_t;

typedef struct grt_arena_stats_t {
  // Bytes handed out since the last reset (requested sizes, not padding).
  // Frees through grt_arena_allocator do not lower it: arena memory is only
  // reclaimed by reset.
  size_t bytes_in_use;
  // The largest bytes_in_use has been since init (resets included).
  size_t peak_bytes_in_use;
  // Bytes currently held from the parent, block headers included.
  size_t bytes_reserved;
  size_t block_count;
} grt_arena_stats_t;

typedef struct grt_arena_t {
  grt_allocator_t parent;
  size_t block_size;
  // The first block is the one being bumped; oversized blocks sit behind it.
  grt_arena_block_t* blocks;
  unsigned char* cursor;
  unsigned char* limit;
  // Start of the allocation that ends at |cursor|, which realloc may grow or
  // shrink in place; NULL when there is none.
  unsigned char* last_allocation;
  grt_arena_stats_t stats;
} grt_arena_t;

// Prepares an empty arena; no memory is taken until the first allocation.
// |block_size| is the size of each block requested from |parent| (0 means
// GRT_ARENA_DEFAULT_BLOCK_SIZE); a request that does not fit in one gets a
// block of its own.
void grt_arena_init(grt_allocator_t parent, size_t block_size,
                    grt_arena_t* out_arena);

// Returns every block to the parent. The arena may be init'ed again.
void grt_arena_deinit(grt_arena_t* arena);

// Forgets every allocation and returns all blocks but one standard-size
// block to the parent, which the next allocations reuse.
void grt_arena_reset(grt_arena_t* arena);

// |size| bytes aligned to GRT_ALLOCATOR_DEFAULT_ALIGNMENT. A size of 0
// yields a unique non-NULL pointer, as the allocator interface promises.
grt_status_t grt_arena_allocate(grt_arena_t* arena, size_t size,
                                void** out_ptr) GRT_MUST_USE;

// |alignment| must be a power of two no larger than GRT_ARENA_MAX_ALIGNMENT.
grt_status_t grt_arena_allocate_aligned(grt_arena_t* arena, size_t size,
                                        size_t alignment, void** out_ptr)
    GRT_MUST_USE;

// Builders of many small nodes (the compiler's IR) check one NULL instead of
// a status per node: these return NULL when the parent is exhausted.
//
// |size| zeroed bytes aligned to GRT_ALLOCATOR_DEFAULT_ALIGNMENT.
void* grt_arena_alloc_zeroed(grt_arena_t* arena, size_t size);
// Copies |size| bytes of |data| and appends a NUL, so views into the copy
// are also C strings.
char* grt_arena_strndup(grt_arena_t* arena, const char* data, size_t size);

// A growable array whose storage lives in the arena: storage a growth
// abandons is reclaimed with the arena, so error paths free nothing.
typedef struct grt_arena_vec_t {
  void* data;
  uint32_t count;
  uint32_t capacity;
} grt_arena_vec_t;

// Appends one |element_size|-byte element copied from |element|, doubling
// the capacity (from 4) when full. RESOURCE_EXHAUSTED when the parent is
// out of memory or the count would pass UINT32_MAX.
grt_status_t grt_arena_vec_push(grt_arena_t* arena, grt_arena_vec_t* vec,
                                const void* element, size_t element_size)
    GRT_MUST_USE;

// The arena as a grt_allocator_t, for code that takes an allocator. Its
// free does nothing; its reallocate grows or shrinks in place when the block
// is the arena's most recent allocation and moves it otherwise. Valid while
// the arena is.
grt_allocator_t grt_arena_allocator(grt_arena_t* arena);

grt_arena_stats_t grt_arena_stats(const grt_arena_t* arena);

#ifdef __cplusplus
}
#endif

#endif  // GRT_BASE_ARENA_H_
