#include "hal/local/heap_allocator.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hal/allocator_counters.h"

// Kernels do vector loads on bindings and the compiler assumes cache-line
// aligned buffers, so nothing smaller is handed out.
#define GRT_HAL_LOCAL_HEAP_MIN_ALIGNMENT 64u

// Host memory is everything at once: the CPU "device" and the host share it.
#define GRT_HAL_LOCAL_HEAP_MEMORY_TYPE                                    \
  (GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL | GRT_HAL_MEMORY_TYPE_HOST_VISIBLE |  \
   GRT_HAL_MEMORY_TYPE_HOST_COHERENT | GRT_HAL_MEMORY_TYPE_HOST_CACHED)

#define GRT_HAL_LOCAL_HEAP_USAGE \
  (GRT_HAL_BUFFER_USAGE_DEFAULT | GRT_HAL_BUFFER_USAGE_MAPPING)

typedef struct grt_hal_local_heap_allocator_t {
  grt_hal_allocator_t base;
  // Buffers die on whatever thread drops the last reference, so the
  // counters are updated without a lock.
  grt_hal_allocator_counters_t counters;

  // The block cache (see the header). Buffers die on any thread, so it has
  // a lock; it is held only for list surgery, never across a host
  // allocation or free.
  grt_hal_local_heap_allocator_options_t options;
  pthread_mutex_t cache_mutex;
  // Most recently freed first; eviction takes from the tail.
  struct grt_hal_local_heap_cached_block_t* cache_head;
  struct grt_hal_local_heap_cached_block_t* cache_tail;
  uint64_t cached_bytes;
  uint64_t cached_blocks;
  uint64_t reuse_count;
} grt_hal_local_heap_allocator_t;

// A cached block describes itself in its own first bytes: caching then
// needs no allocation (a free cannot fail), and a block is at least
// cache_min_block_size, far larger than this.
typedef struct grt_hal_local_heap_cached_block_t {
  struct grt_hal_local_heap_cached_block_t* next;
  struct grt_hal_local_heap_cached_block_t* prev;
  uint64_t capacity;
} grt_hal_local_heap_cached_block_t;

typedef struct grt_hal_local_heap_buffer_t {
  grt_hal_buffer_t base;
  // A copy, because the struct is freed after the header has released the
  // allocator (which may then be gone).
  grt_allocator_t host_allocator;
  void* data;
  // Set for imported memory, which this buffer does not own.
  bool imported;
  grt_hal_buffer_release_callback_t release;
  // Bytes really behind |data| when the block may be cached (a page
  // multiple at least cache_min_block_size); 0 when it goes straight back
  // to the host allocator.
  uint64_t capacity;
} grt_hal_local_heap_buffer_t;

static const grt_hal_buffer_vtable_t grt_hal_local_heap_buffer_vtable;
static const grt_hal_allocator_vtable_t grt_hal_local_heap_allocator_vtable;

//===----------------------------------------------------------------------===//
// Block cache
//===----------------------------------------------------------------------===//

// Cached blocks are whole pages so that sizes differing by a few bytes
// (shapes rounded differently) share blocks.
#define GRT_HAL_LOCAL_HEAP_CACHE_GRANULE 4096u

static void grt_hal_local_heap_cache_unlink(
    grt_hal_local_heap_allocator_t* allocator,
    grt_hal_local_heap_cached_block_t* block) {
  if (block->prev) {
    block->prev->next = block->next;
  } else {
    allocator->cache_head = block->next;
  }
  if (block->next) {
    block->next->prev = block->prev;
  } else {
    allocator->cache_tail = block->prev;
  }
  allocator->cached_bytes -= block->capacity;
  allocator->cached_blocks -= 1;
}

// The capacity a block for |size| bytes gets, or 0 when it is not cached.
static uint64_t grt_hal_local_heap_cache_capacity(
    const grt_hal_local_heap_allocator_t* allocator, uint64_t size) {
  const grt_hal_local_heap_allocator_options_t* options = &allocator->options;
  if (size == 0 || size < options->cache_min_block_size ||
      size > options->cache_capacity) {
    return 0;
  }
  uint64_t granule = GRT_HAL_LOCAL_HEAP_CACHE_GRANULE;
  uint64_t capacity = (size + granule - 1) / granule * granule;
  // A block larger than the whole cache would only flush it.
  return capacity <= options->cache_capacity ? capacity : 0;
}

// Takes the best-fitting cached block for |size| bytes at |alignment|:
// the smallest one large enough, wasting at most an eighth of itself.
static void* grt_hal_local_heap_cache_take(
    grt_hal_local_heap_allocator_t* allocator, uint64_t size,
    uint32_t alignment, uint64_t* out_capacity) {
  pthread_mutex_lock(&allocator->cache_mutex);
  grt_hal_local_heap_cached_block_t* best = NULL;
  for (grt_hal_local_heap_cached_block_t* block = allocator->cache_head; block;
       block = block->next) {
    if (block->capacity < size || block->capacity - size > block->capacity / 8 ||
        ((uintptr_t)block & (uintptr_t)(alignment - 1)) != 0) {
      continue;
    }
    if (!best || block->capacity < best->capacity) best = block;
  }
  if (best) {
    grt_hal_local_heap_cache_unlink(allocator, best);
    allocator->reuse_count += 1;
    *out_capacity = best->capacity;
  }
  pthread_mutex_unlock(&allocator->cache_mutex);
  return best;
}

// Frees a chain linked through |next| (outside the lock: munmap of large
// blocks is not free).
static void grt_hal_local_heap_free_chain(
    grt_allocator_t host_allocator, grt_hal_local_heap_cached_block_t* chain) {
  while (chain) {
    grt_hal_local_heap_cached_block_t* next = chain->next;
    grt_allocator_free(host_allocator, chain);
    chain = next;
  }
}

// Keeps a freed block, evicting the oldest ones to stay within the bound.
static void grt_hal_local_heap_cache_put(
    grt_hal_local_heap_allocator_t* allocator, void* data, uint64_t capacity) {
  grt_hal_local_heap_cached_block_t* block =
      (grt_hal_local_heap_cached_block_t*)data;
  block->capacity = capacity;
  block->prev = NULL;
  grt_hal_local_heap_cached_block_t* evicted = NULL;
  pthread_mutex_lock(&allocator->cache_mutex);
  while (allocator->cache_tail &&
         allocator->cached_bytes + capacity > allocator->options.cache_capacity) {
    grt_hal_local_heap_cached_block_t* victim = allocator->cache_tail;
    grt_hal_local_heap_cache_unlink(allocator, victim);
    victim->next = evicted;
    evicted = victim;
  }
  block->next = allocator->cache_head;
  if (allocator->cache_head) allocator->cache_head->prev = block;
  allocator->cache_head = block;
  if (!allocator->cache_tail) allocator->cache_tail = block;
  allocator->cached_bytes += capacity;
  allocator->cached_blocks += 1;
  pthread_mutex_unlock(&allocator->cache_mutex);
  grt_hal_local_heap_free_chain(allocator->base.host_allocator, evicted);
}

// Empties the cache; returns whether it held anything.
static bool grt_hal_local_heap_cache_trim(
    grt_hal_local_heap_allocator_t* allocator) {
  pthread_mutex_lock(&allocator->cache_mutex);
  grt_hal_local_heap_cached_block_t* chain = allocator->cache_head;
  allocator->cache_head = NULL;
  allocator->cache_tail = NULL;
  allocator->cached_bytes = 0;
  allocator->cached_blocks = 0;
  pthread_mutex_unlock(&allocator->cache_mutex);
  grt_hal_local_heap_free_chain(allocator->base.host_allocator, chain);
  return chain != NULL;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

static void grt_hal_local_heap_buffer_destroy(grt_hal_resource_t* resource) {
  grt_hal_local_heap_buffer_t* buffer = (grt_hal_local_heap_buffer_t*)resource;
  grt_allocator_t host_allocator = buffer->host_allocator;
  if (buffer->imported) {
    if (buffer->release.fn) {
      buffer->release.fn(buffer->release.user_data, buffer->data);
    }
  } else {
    grt_hal_local_heap_allocator_t* allocator =
        (grt_hal_local_heap_allocator_t*)buffer->base.allocator;
    grt_hal_allocator_counters_freed(&allocator->counters,
                                     buffer->base.allocation_size);
    if (buffer->capacity) {
      grt_hal_local_heap_cache_put(allocator, buffer->data, buffer->capacity);
    } else {
      grt_allocator_free(host_allocator, buffer->data);
    }
  }
  // Releases the allocator last: the statistics above live in it.
  grt_hal_buffer_deinitialize(&buffer->base);
  grt_allocator_free(host_allocator, buffer);
}

static grt_status_t grt_hal_local_heap_buffer_map_range(
    grt_hal_buffer_t* base_buffer, grt_hal_buffer_mapping_t* mapping) {
  grt_hal_local_heap_buffer_t* buffer = (grt_hal_local_heap_buffer_t*)base_buffer;
  mapping->contents = (uint8_t*)buffer->data + mapping->offset;
  return grt_ok_status();
}

static grt_status_t grt_hal_local_heap_buffer_unmap_range(
    grt_hal_buffer_t* base_buffer, grt_hal_buffer_mapping_t* mapping) {
  // Coherent host memory: nothing to write back.
  (void)base_buffer;
  (void)mapping;
  return grt_ok_status();
}

static const grt_hal_buffer_vtable_t grt_hal_local_heap_buffer_vtable = {
    .base = {.destroy = grt_hal_local_heap_buffer_destroy},
    .map_range = grt_hal_local_heap_buffer_map_range,
    .unmap_range = grt_hal_local_heap_buffer_unmap_range,
    // Coherent: no invalidate/flush.
    .invalidate_range = NULL,
    .flush_range = NULL,
};

void* grt_hal_local_heap_buffer_data(grt_hal_buffer_t* allocated_buffer) {
  // Anything else (a subspan, another allocator's buffer) has no single
  // base address this allocator knows about.
  if (!allocated_buffer ||
      allocated_buffer->resource.vtable != &grt_hal_local_heap_buffer_vtable) {
    return NULL;
  }
  return ((grt_hal_local_heap_buffer_t*)allocated_buffer)->data;
}

//===----------------------------------------------------------------------===//
// Allocator
//===----------------------------------------------------------------------===//

static void grt_hal_local_heap_allocator_destroy(grt_hal_resource_t* resource) {
  grt_hal_local_heap_allocator_t* allocator =
      (grt_hal_local_heap_allocator_t*)resource;
  grt_hal_local_heap_cache_trim(allocator);
  pthread_mutex_destroy(&allocator->cache_mutex);
  grt_allocator_free(allocator->base.host_allocator, allocator);
}

static void grt_hal_local_heap_allocator_query_memory_heaps(
    const grt_hal_allocator_t* allocator, size_t capacity,
    grt_hal_allocator_memory_heap_t* out_heaps, size_t* out_count) {
  (void)allocator;
  if (capacity >= 1) {
    out_heaps[0].type = GRT_HAL_LOCAL_HEAP_MEMORY_TYPE;
    out_heaps[0].allowed_usage = GRT_HAL_LOCAL_HEAP_USAGE;
    out_heaps[0].max_allocation_size = (uint64_t)SIZE_MAX;
    out_heaps[0].min_alignment = GRT_HAL_LOCAL_HEAP_MIN_ALIGNMENT;
  }
  *out_count = 1;
}

static uint32_t grt_hal_local_heap_alignment(
    const grt_hal_buffer_params_t* params) {
  return params->min_alignment > GRT_HAL_LOCAL_HEAP_MIN_ALIGNMENT
             ? params->min_alignment
             : GRT_HAL_LOCAL_HEAP_MIN_ALIGNMENT;
}

// The buffer record itself; its memory is attached by the caller.
static grt_status_t grt_hal_local_heap_buffer_create(
    grt_hal_local_heap_allocator_t* allocator,
    const grt_hal_buffer_params_t* params, uint64_t size,
    grt_hal_local_heap_buffer_t** out_buffer) {
  grt_allocator_t host_allocator = allocator->base.host_allocator;
  grt_hal_local_heap_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(host_allocator, sizeof(*buffer), (void**)&buffer));
  grt_hal_buffer_initialize(&grt_hal_local_heap_buffer_vtable, &allocator->base,
                            GRT_HAL_LOCAL_HEAP_MEMORY_TYPE, params->usage, size,
                            &buffer->base);
  buffer->host_allocator = host_allocator;
  *out_buffer = buffer;
  return grt_ok_status();
}

static grt_status_t grt_hal_local_heap_allocator_allocate_buffer(
    grt_hal_allocator_t* base_allocator, const grt_hal_buffer_params_t* params,
    uint64_t size, grt_hal_buffer_t** out_buffer) {
  grt_hal_local_heap_allocator_t* allocator =
      (grt_hal_local_heap_allocator_t*)base_allocator;
  *out_buffer = NULL;
  uint32_t alignment = grt_hal_local_heap_alignment(params);
  if (size > (uint64_t)SIZE_MAX) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "cannot allocate a %" PRIu64
                           "-byte buffer: larger than the host address space",
                           size);
  }
  uint64_t capacity = grt_hal_local_heap_cache_capacity(allocator, size);
  void* data = NULL;
  grt_status_t status = grt_ok_status();
  if (capacity) {
    data = grt_hal_local_heap_cache_take(allocator, size, alignment, &capacity);
  }
  if (!data) {
    status = grt_allocator_malloc_aligned(base_allocator->host_allocator,
                                          (size_t)(capacity ? capacity : size),
                                          alignment, &data);
  }
  if (!grt_status_is_ok(status) &&
      grt_status_code(status) == GRT_STATUS_RESOURCE_EXHAUSTED &&
      grt_hal_local_heap_cache_trim(allocator)) {
    // The cache may be what keeps the host from finding the memory.
    grt_status_free(status);
    status = grt_allocator_malloc_aligned(base_allocator->host_allocator,
                                          (size_t)(capacity ? capacity : size),
                                          alignment, &data);
  }
  if (!grt_status_is_ok(status)) {
    if (grt_status_code(status) != GRT_STATUS_RESOURCE_EXHAUSTED) return status;
    // Say it in buffer terms: the host allocator's own message talks about
    // a raw allocation the caller never asked for.
    grt_status_free(status);
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of host memory allocating a %" PRIu64
                           "-byte buffer (alignment %" PRIu32 ")",
                           size, alignment);
  }
  grt_hal_local_heap_buffer_t* buffer = NULL;
  status = grt_hal_local_heap_buffer_create(allocator, params, size, &buffer);
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(base_allocator->host_allocator, data);
    return status;
  }
  buffer->data = data;
  buffer->capacity = capacity;
  grt_hal_allocator_counters_allocated(&allocator->counters, size);
  *out_buffer = &buffer->base;
  return grt_ok_status();
}

static grt_status_t grt_hal_local_heap_allocator_import_host_buffer(
    grt_hal_allocator_t* base_allocator, const grt_hal_buffer_params_t* params,
    void* host_pointer, uint64_t size, grt_hal_buffer_release_callback_t release,
    grt_hal_buffer_t** out_buffer) {
  grt_hal_local_heap_allocator_t* allocator =
      (grt_hal_local_heap_allocator_t*)base_allocator;
  *out_buffer = NULL;
  // grt_hal_allocator_import_host_buffer already refused NULL pointers and
  // pointers without the alignment the caller asked for; host memory is
  // usable by the CPU as it is, so nothing else can be wrong with it.
  grt_hal_local_heap_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(
      grt_hal_local_heap_buffer_create(allocator, params, size, &buffer));
  buffer->data = host_pointer;
  buffer->imported = true;
  buffer->release = release;
  *out_buffer = &buffer->base;
  return grt_ok_status();
}

static void grt_hal_local_heap_allocator_query_statistics(
    const grt_hal_allocator_t* base_allocator,
    grt_hal_allocator_statistics_t* out_statistics) {
  grt_hal_local_heap_allocator_t* allocator =
      (grt_hal_local_heap_allocator_t*)base_allocator;
  grt_hal_allocator_counters_query(&allocator->counters, out_statistics);
}

static const grt_hal_allocator_vtable_t grt_hal_local_heap_allocator_vtable = {
    .base = {.destroy = grt_hal_local_heap_allocator_destroy},
    .query_memory_heaps = grt_hal_local_heap_allocator_query_memory_heaps,
    .allocate_buffer = grt_hal_local_heap_allocator_allocate_buffer,
    .import_host_buffer = grt_hal_local_heap_allocator_import_host_buffer,
    .query_statistics = grt_hal_local_heap_allocator_query_statistics,
};

grt_hal_local_heap_allocator_options_t
grt_hal_local_heap_allocator_default_options(void) {
  grt_hal_local_heap_allocator_options_t options = {
      .cache_capacity = (uint64_t)256 << 20,
      .cache_min_block_size = (uint64_t)256 << 10,
  };
  return options;
}

grt_status_t grt_hal_local_heap_allocator_create(
    grt_allocator_t host_allocator, grt_hal_allocator_t** out_allocator) {
  grt_hal_local_heap_allocator_options_t options =
      grt_hal_local_heap_allocator_default_options();
  return grt_hal_local_heap_allocator_create_with_options(host_allocator,
                                                          &options, out_allocator);
}

static grt_hal_local_heap_allocator_t* grt_hal_local_heap_allocator_cast(
    grt_hal_allocator_t* allocator) {
  if (!allocator ||
      allocator->resource.vtable != &grt_hal_local_heap_allocator_vtable.base) {
    return NULL;
  }
  return (grt_hal_local_heap_allocator_t*)allocator;
}

void grt_hal_local_heap_allocator_query_cache(
    grt_hal_allocator_t* base_allocator,
    grt_hal_local_heap_cache_statistics_t* out_statistics) {
  memset(out_statistics, 0, sizeof(*out_statistics));
  grt_hal_local_heap_allocator_t* allocator =
      grt_hal_local_heap_allocator_cast(base_allocator);
  if (!allocator) return;
  pthread_mutex_lock(&allocator->cache_mutex);
  out_statistics->cached_bytes = allocator->cached_bytes;
  out_statistics->cached_blocks = allocator->cached_blocks;
  out_statistics->reuse_count = allocator->reuse_count;
  pthread_mutex_unlock(&allocator->cache_mutex);
}

void grt_hal_local_heap_allocator_trim(grt_hal_allocator_t* base_allocator) {
  grt_hal_local_heap_allocator_t* allocator =
      grt_hal_local_heap_allocator_cast(base_allocator);
  if (allocator) grt_hal_local_heap_cache_trim(allocator);
}

grt_status_t grt_hal_local_heap_allocator_create_with_options(
    grt_allocator_t host_allocator,
    const grt_hal_local_heap_allocator_options_t* options,
    grt_hal_allocator_t** out_allocator) {
  *out_allocator = NULL;
  grt_hal_local_heap_allocator_t* allocator = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(host_allocator, sizeof(*allocator),
                                           (void**)&allocator));
  grt_hal_resource_initialize(&grt_hal_local_heap_allocator_vtable,
                              &allocator->base.resource);
  allocator->base.host_allocator = host_allocator;
  grt_hal_allocator_counters_initialize(&allocator->counters);
  allocator->options = *options;
  int error = pthread_mutex_init(&allocator->cache_mutex, NULL);
  if (error != 0) {
    grt_allocator_free(host_allocator, allocator);
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "cannot create the heap allocator's cache lock "
                           "(pthread_mutex_init returned %d)",
                           error);
  }
  *out_allocator = &allocator->base;
  return grt_ok_status();
}
