// The local heap allocator: its one heap, aligned and zero-size buffers,
// mapping, imported host memory with its release callback, statistics, and
// the errors a caller can provoke.
#include "hal/local/heap_allocator.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "base/status_matchers.h"

static grt_hal_allocator_t* make_allocator(void) {
  grt_hal_allocator_t* allocator = NULL;
  GRT_EXPECT_OK(grt_hal_local_heap_allocator_create(grt_allocator_system(),
                                                &allocator));
  return allocator;
}

static grt_hal_buffer_params_t params_of(grt_hal_memory_type_t type,
                                         grt_hal_buffer_usage_t usage,
                                         uint32_t min_alignment) {
  grt_hal_buffer_params_t params = {type, usage, min_alignment, 0};
  return params;
}

static void test_one_heap_with_everything(void** state) {
  (void)state;
  grt_hal_allocator_t* allocator = make_allocator();
  grt_hal_allocator_memory_heap_t heaps[4];
  size_t count = 0;
  grt_hal_allocator_query_memory_heaps(allocator, 4, heaps, &count);
  assert_int_equal(count, 1);
  assert_int_equal(heaps[0].type, GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL |
                                      GRT_HAL_MEMORY_TYPE_HOST_VISIBLE |
                                      GRT_HAL_MEMORY_TYPE_HOST_COHERENT |
                                      GRT_HAL_MEMORY_TYPE_HOST_CACHED);
  assert_int_equal(heaps[0].allowed_usage,
                   GRT_HAL_BUFFER_USAGE_DEFAULT | GRT_HAL_BUFFER_USAGE_MAPPING);
  assert_int_equal(heaps[0].min_alignment, 64);
  assert_true(heaps[0].max_allocation_size > 0);
  // A zero capacity still reports how many heaps there are.
  count = 0;
  grt_hal_allocator_query_memory_heaps(allocator, 0, NULL, &count);
  assert_int_equal(count, 1);
  grt_hal_allocator_release(allocator);
}

static void test_allocate_map_and_alignment(void** state) {
  (void)state;
  grt_hal_allocator_t* allocator = make_allocator();
  // Asking for less than the heap's 64 still gets 64; asking for more
  // gets what was asked.
  const uint32_t alignments[] = {0, 16, 64, 4096};
  for (size_t i = 0; i < sizeof(alignments) / sizeof(alignments[0]); ++i) {
    grt_hal_buffer_t* buffer = NULL;
    GRT_EXPECT_OK(grt_hal_allocator_allocate_buffer(
        allocator,
        params_of(GRT_HAL_MEMORY_TYPE_HOST_VISIBLE,
                  GRT_HAL_BUFFER_USAGE_DEFAULT | GRT_HAL_BUFFER_USAGE_MAPPING,
                  alignments[i]),
        100, &buffer));
    uintptr_t expected = alignments[i] > 64 ? alignments[i] : 64;
    void* data = grt_hal_local_heap_buffer_data(buffer);
    assert_non_null(data);
    assert_int_equal((uintptr_t)data % expected, 0);
    assert_int_equal(grt_hal_buffer_byte_length(buffer), 100);
    assert_int_equal(buffer->allocation_size, 100);
    assert_ptr_equal(grt_hal_buffer_allocated_buffer(buffer), buffer);
    // The buffer has every memory type bit whatever was asked for.
    assert_int_equal(grt_hal_buffer_memory_type(buffer),
                     GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL |
                         GRT_HAL_MEMORY_TYPE_HOST_VISIBLE |
                         GRT_HAL_MEMORY_TYPE_HOST_COHERENT |
                         GRT_HAL_MEMORY_TYPE_HOST_CACHED);

    // Mapping hands out the buffer's own memory, offset included.
    grt_hal_buffer_mapping_t mapping;
    GRT_EXPECT_OK(grt_hal_buffer_map_range(buffer, GRT_HAL_MEMORY_ACCESS_WRITE, 8,
                                       16, &mapping));
    assert_ptr_equal(mapping.contents, (uint8_t*)data + 8);
    memset(mapping.contents, 0xab, 16);
    GRT_EXPECT_OK(grt_hal_buffer_unmap_range(&mapping));
    assert_int_equal(((uint8_t*)data)[8], 0xab);
    assert_int_equal(((uint8_t*)data)[23], 0xab);
    uint8_t back[4] = {0};
    GRT_EXPECT_OK(grt_hal_buffer_map_read(buffer, 20, back, sizeof(back)));
    assert_int_equal(back[3], 0xab);
    grt_hal_buffer_release(buffer);
  }
  grt_hal_allocator_release(allocator);
}

static void test_zero_size_buffer(void** state) {
  (void)state;
  grt_hal_allocator_t* allocator = make_allocator();
  grt_hal_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_hal_allocator_allocate_buffer(
      allocator, params_of(0, 0, 0), 0, &buffer));
  assert_int_equal(grt_hal_buffer_byte_length(buffer), 0);
  assert_non_null(grt_hal_local_heap_buffer_data(buffer));
  assert_int_equal(grt_hal_buffer_usage(buffer), GRT_HAL_BUFFER_USAGE_DEFAULT);
  grt_hal_allocator_statistics_t statistics;
  grt_hal_allocator_query_statistics(allocator, &statistics);
  assert_int_equal(statistics.allocation_count, 1);
  assert_int_equal(statistics.bytes_allocated, 0);
  grt_hal_buffer_release(buffer);
  grt_hal_allocator_release(allocator);
}

static void test_buffer_keeps_allocator_alive(void** state) {
  (void)state;
  grt_hal_allocator_t* allocator = make_allocator();
  grt_hal_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_hal_allocator_allocate_buffer(allocator, params_of(0, 0, 0),
                                              32, &buffer));
  // Dropping the caller's reference first: the buffer's destroy still
  // updates the allocator's statistics (ASan would catch a dead one).
  grt_hal_allocator_release(allocator);
  grt_hal_buffer_release(buffer);
}

static void test_statistics_and_peak(void** state) {
  (void)state;
  grt_hal_allocator_t* allocator = make_allocator();
  grt_hal_allocator_statistics_t statistics;
  grt_hal_allocator_query_statistics(allocator, &statistics);
  assert_int_equal(statistics.bytes_allocated, 0);
  assert_int_equal(statistics.peak_bytes_allocated, 0);
  assert_int_equal(statistics.allocation_count, 0);

  grt_hal_buffer_t* a = NULL;
  grt_hal_buffer_t* b = NULL;
  GRT_EXPECT_OK(grt_hal_allocator_allocate_buffer(allocator, params_of(0, 0, 0),
                                              1000, &a));
  GRT_EXPECT_OK(grt_hal_allocator_allocate_buffer(allocator, params_of(0, 0, 0),
                                              24, &b));
  grt_hal_allocator_query_statistics(allocator, &statistics);
  assert_int_equal(statistics.bytes_allocated, 1024);
  assert_int_equal(statistics.peak_bytes_allocated, 1024);
  assert_int_equal(statistics.allocation_count, 2);

  grt_hal_buffer_release(a);
  grt_hal_allocator_query_statistics(allocator, &statistics);
  assert_int_equal(statistics.bytes_allocated, 24);
  assert_int_equal(statistics.peak_bytes_allocated, 1024);

  // A subspan allocates nothing from the heap.
  grt_hal_buffer_t* span = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_subspan(b, 8, 8, &span));
  GRT_EXPECT_OK(grt_hal_allocator_allocate_buffer(allocator, params_of(0, 0, 0),
                                              500, &a));
  grt_hal_allocator_query_statistics(allocator, &statistics);
  assert_int_equal(statistics.bytes_allocated, 524);
  assert_int_equal(statistics.peak_bytes_allocated, 1024);
  assert_int_equal(statistics.allocation_count, 3);
  // Only allocated buffers of this allocator have a base address here.
  assert_null(grt_hal_local_heap_buffer_data(span));
  assert_null(grt_hal_local_heap_buffer_data(NULL));

  grt_hal_buffer_release(span);
  grt_hal_buffer_release(b);
  grt_hal_buffer_release(a);
  grt_hal_allocator_query_statistics(allocator, &statistics);
  assert_int_equal(statistics.bytes_allocated, 0);
  assert_int_equal(statistics.peak_bytes_allocated, 1024);
  assert_int_equal(statistics.allocation_count, 3);
  grt_hal_allocator_release(allocator);
}

typedef struct release_record_t {
  int calls;
  void* pointer;
} release_record_t;

static void record_release(void* user_data, void* host_pointer) {
  release_record_t* record = (release_record_t*)user_data;
  ++record->calls;
  record->pointer = host_pointer;
}

static void test_import_host_buffer(void** state) {
  (void)state;
  grt_hal_allocator_t* allocator = make_allocator();
  _Alignas(64) float host[16];
  for (int i = 0; i < 16; ++i) host[i] = (float)i;
  release_record_t record = {0, NULL};
  grt_hal_buffer_release_callback_t release = {record_release, &record};
  grt_hal_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_hal_allocator_import_host_buffer(
      allocator,
      params_of(GRT_HAL_MEMORY_TYPE_HOST_VISIBLE,
                GRT_HAL_BUFFER_USAGE_DEFAULT | GRT_HAL_BUFFER_USAGE_MAPPING, 64),
      host, sizeof(host), release, &buffer));
  // No copy: the buffer is the caller's memory.
  assert_ptr_equal(grt_hal_local_heap_buffer_data(buffer), host);
  assert_int_equal(grt_hal_buffer_byte_length(buffer), sizeof(host));
  float value = 0;
  GRT_EXPECT_OK(grt_hal_buffer_map_read(buffer, 5 * sizeof(float), &value,
                                    sizeof(value)));
  assert_true(value == 5.0f);
  float nine = 9.0f;
  GRT_EXPECT_OK(grt_hal_buffer_map_write(buffer, 0, &nine, sizeof(nine)));
  assert_true(host[0] == 9.0f);

  // Imports are the caller's memory, not the heap's.
  grt_hal_allocator_statistics_t statistics;
  grt_hal_allocator_query_statistics(allocator, &statistics);
  assert_int_equal(statistics.bytes_allocated, 0);
  assert_int_equal(statistics.allocation_count, 0);

  // The callback runs once, when the last reference goes, not before.
  grt_hal_buffer_t* span = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_subspan(buffer, 4, 8, &span));
  grt_hal_buffer_release(buffer);
  assert_int_equal(record.calls, 0);
  grt_hal_buffer_release(span);
  assert_int_equal(record.calls, 1);
  assert_ptr_equal(record.pointer, host);

  // No callback is fine too.
  grt_hal_buffer_release_callback_t none = {NULL, NULL};
  GRT_EXPECT_OK(grt_hal_allocator_import_host_buffer(
      allocator, params_of(0, 0, 0), host, sizeof(host), none, &buffer));
  grt_hal_buffer_release(buffer);
  grt_hal_allocator_release(allocator);
}

static void test_import_errors(void** state) {
  (void)state;
  grt_hal_allocator_t* allocator = make_allocator();
  _Alignas(64) uint8_t host[128];
  grt_hal_buffer_release_callback_t none = {NULL, NULL};
  grt_hal_buffer_t* buffer = NULL;
  char expected[96];
  snprintf(expected, sizeof(expected), "host pointer %p is not aligned to 64 bytes",
           (void*)(host + 4));
  grt_expect_error(grt_hal_allocator_import_host_buffer(
                   allocator, params_of(0, 0, 64), host + 4, 64, none, &buffer),
               GRT_STATUS_INVALID_ARGUMENT, expected);
  assert_null(buffer);
  grt_expect_error(grt_hal_allocator_import_host_buffer(
                   allocator, params_of(0, 0, 0), NULL, 64, none, &buffer),
               GRT_STATUS_INVALID_ARGUMENT,
               "cannot import a NULL host pointer of 64 bytes");
  assert_null(buffer);
  grt_hal_allocator_release(allocator);
}

static void test_allocation_errors(void** state) {
  (void)state;
  grt_hal_allocator_t* allocator = make_allocator();
  grt_hal_buffer_t* buffer = NULL;
  // Far more than any machine has: the host allocator says no.
  grt_expect_error(grt_hal_allocator_allocate_buffer(
                   allocator, params_of(0, 0, 0), (uint64_t)1 << 62, &buffer),
               GRT_STATUS_RESOURCE_EXHAUSTED,
               "out of host memory allocating a 4611686018427387904-byte "
               "buffer (alignment 64)");
  assert_null(buffer);
  grt_hal_allocator_statistics_t statistics;
  grt_hal_allocator_query_statistics(allocator, &statistics);
  assert_int_equal(statistics.allocation_count, 0);
  assert_int_equal(statistics.bytes_allocated, 0);
  // Usages are all allowed, so only an impossible alignment is refused
  // before reaching the heap.
  grt_expect_error(grt_hal_allocator_allocate_buffer(
                   allocator, params_of(0, 0, 48), 16, &buffer),
               GRT_STATUS_INVALID_ARGUMENT,
               "buffer alignment must be a power of two, got 48");
  // A buffer made without MAPPING usage cannot be mapped.
  GRT_EXPECT_OK(grt_hal_allocator_allocate_buffer(
      allocator, params_of(0, GRT_HAL_BUFFER_USAGE_DEFAULT, 0), 16, &buffer));
  grt_hal_buffer_mapping_t mapping;
  grt_expect_error(grt_hal_buffer_map_range(buffer, GRT_HAL_MEMORY_ACCESS_READ, 0,
                                        16, &mapping),
               GRT_STATUS_INVALID_ARGUMENT, "lacks MAPPING");
  grt_hal_buffer_release(buffer);
  grt_hal_allocator_release(allocator);
}


//===----------------------------------------------------------------------===//
// Block cache
//===----------------------------------------------------------------------===//

enum { KIB = 1024, MIB = 1024 * 1024 };

// The system heap with a byte budget and a count of live blocks, to see
// that the cache gives everything back and retries after trimming.
typedef struct budget_heap_t {
  size_t budget;
  size_t live_bytes;
  int live_blocks;
  struct {
    void* ptr;
    size_t size;
  } blocks[64];
} budget_heap_t;

static void* budget_allocate(void* self, size_t size, size_t alignment) {
  budget_heap_t* heap = (budget_heap_t*)self;
  if (heap->live_bytes + size > heap->budget) return NULL;
  for (int i = 0; i < 64; ++i) {
    if (heap->blocks[i].ptr) continue;
    void* ptr = NULL;
    if (posix_memalign(&ptr, alignment < sizeof(void*) ? sizeof(void*)
                                                        : alignment,
                       size ? size : 1) != 0) {
      return NULL;
    }
    heap->blocks[i].ptr = ptr;
    heap->blocks[i].size = size;
    heap->live_bytes += size;
    heap->live_blocks += 1;
    return ptr;
  }
  return NULL;
}

static void* budget_reallocate(void* self, void* ptr, size_t old_size,
                               size_t new_size, size_t alignment) {
  (void)self, (void)ptr, (void)old_size, (void)new_size, (void)alignment;
  return NULL;  // the heap allocator never reallocates
}

static void budget_free(void* self, void* ptr) {
  budget_heap_t* heap = (budget_heap_t*)self;
  if (!ptr) return;
  for (int i = 0; i < 64; ++i) {
    if (heap->blocks[i].ptr != ptr) continue;
    heap->live_bytes -= heap->blocks[i].size;
    heap->live_blocks -= 1;
    heap->blocks[i].ptr = NULL;
    free(ptr);
    return;
  }
  fail_msg("freeing %p, which this heap did not allocate", ptr);
}

static const grt_allocator_vtable_t budget_heap_vtable = {
    budget_allocate, budget_reallocate, budget_free};

static grt_hal_allocator_t* make_cached_allocator(grt_allocator_t host,
                                                  uint64_t capacity,
                                                  uint64_t min_block) {
  grt_hal_local_heap_allocator_options_t options = {capacity, min_block};
  grt_hal_allocator_t* allocator = NULL;
  GRT_EXPECT_OK(grt_hal_local_heap_allocator_create_with_options(
      host, &options, &allocator));
  return allocator;
}

static grt_hal_buffer_t* allocate_sized(grt_hal_allocator_t* allocator,
                                        uint64_t size) {
  grt_hal_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_hal_allocator_allocate_buffer(
      allocator, params_of(0, 0, 0), size, &buffer));
  return buffer;
}

static grt_hal_local_heap_cache_statistics_t cache_of(
    grt_hal_allocator_t* allocator) {
  grt_hal_local_heap_cache_statistics_t statistics;
  grt_hal_local_heap_allocator_query_cache(allocator, &statistics);
  return statistics;
}

static void test_cache_reuses_freed_blocks(void** state) {
  (void)state;
  grt_hal_allocator_t* allocator =
      make_cached_allocator(grt_allocator_system(), 4 * MIB, 256 * KIB);
  grt_hal_buffer_t* a = allocate_sized(allocator, 1 * MIB);
  void* a_data = grt_hal_local_heap_buffer_data(a);
  grt_hal_buffer_release(a);
  grt_hal_local_heap_cache_statistics_t cache = cache_of(allocator);
  assert_int_equal(cache.cached_blocks, 1);
  assert_int_equal(cache.cached_bytes, 1 * MIB);
  assert_int_equal(cache.reuse_count, 0);
  // The statistics still say what is live: nothing.
  grt_hal_allocator_statistics_t statistics;
  grt_hal_allocator_query_statistics(allocator, &statistics);
  assert_int_equal(statistics.bytes_allocated, 0);
  assert_int_equal(statistics.peak_bytes_allocated, 1 * MIB);

  // Too small to reuse a 1 MiB block (more than an eighth wasted), and
  // too small to be cached at all: both come from the host.
  grt_hal_buffer_t* half = allocate_sized(allocator, 512 * KIB);
  grt_hal_buffer_t* tiny = allocate_sized(allocator, 1000);
  assert_ptr_not_equal(grt_hal_local_heap_buffer_data(half), a_data);
  assert_ptr_not_equal(grt_hal_local_heap_buffer_data(tiny), a_data);
  assert_int_equal(cache_of(allocator).reuse_count, 0);
  grt_hal_buffer_release(tiny);
  assert_int_equal(cache_of(allocator).cached_blocks, 1);

  // A slightly smaller size takes the cached block, with the buffer's own
  // length and the statistics counting what was asked for.
  grt_hal_buffer_t* b = allocate_sized(allocator, 1 * MIB - 100);
  assert_ptr_equal(grt_hal_local_heap_buffer_data(b), a_data);
  assert_int_equal(grt_hal_buffer_byte_length(b), 1 * MIB - 100);
  cache = cache_of(allocator);
  assert_int_equal(cache.reuse_count, 1);
  assert_int_equal(cache.cached_blocks, 0);
  assert_int_equal(cache.cached_bytes, 0);
  grt_hal_allocator_query_statistics(allocator, &statistics);
  assert_int_equal(statistics.bytes_allocated, 1 * MIB - 100 + 512 * KIB);
  assert_int_equal(statistics.allocation_count, 4);
  // The whole block is usable.
  memset(grt_hal_local_heap_buffer_data(b), 0xAB, 1 * MIB - 100);

  // Freed again, the block of the larger size is cached whole; the best
  // fit for 512 KiB is the 512 KiB block, not the 1 MiB one.
  grt_hal_buffer_release(b);
  void* half_data = grt_hal_local_heap_buffer_data(half);
  grt_hal_buffer_release(half);
  assert_int_equal(cache_of(allocator).cached_bytes, 1 * MIB + 512 * KIB);
  grt_hal_buffer_t* c = allocate_sized(allocator, 500 * KIB);
  assert_ptr_equal(grt_hal_local_heap_buffer_data(c), half_data);
  grt_hal_buffer_release(c);
  grt_hal_allocator_release(allocator);
}

static void test_cache_alignment(void** state) {
  (void)state;
  grt_hal_allocator_t* allocator =
      make_cached_allocator(grt_allocator_system(), 8 * MIB, 256 * KIB);
  // A block is reused only at the alignment asked for.
  grt_hal_buffer_t* a = NULL;
  GRT_EXPECT_OK(grt_hal_allocator_allocate_buffer(
      allocator, params_of(0, 0, 2 * MIB), 1 * MIB, &a));
  uintptr_t address = (uintptr_t)grt_hal_local_heap_buffer_data(a);
  assert_int_equal(address % (2 * MIB), 0);
  grt_hal_buffer_release(a);
  // The same block is at least 2 MiB aligned, so any smaller alignment
  // takes it; 4 MiB takes it only if it happens to be 4 MiB aligned.
  grt_hal_buffer_t* b = NULL;
  GRT_EXPECT_OK(grt_hal_allocator_allocate_buffer(
      allocator, params_of(0, 0, 4 * MIB), 1 * MIB, &b));
  uintptr_t b_address = (uintptr_t)grt_hal_local_heap_buffer_data(b);
  assert_int_equal(b_address % (4 * MIB), 0);
  assert_int_equal(cache_of(allocator).reuse_count,
                   address % (4 * MIB) == 0 ? 1 : 0);
  grt_hal_buffer_release(b);
  grt_hal_allocator_release(allocator);
}

static void test_cache_bound_evicts_oldest(void** state) {
  (void)state;
  budget_heap_t heap = {.budget = 64 * MIB};
  grt_allocator_t host = {&budget_heap_vtable, &heap};
  grt_hal_allocator_t* allocator = make_cached_allocator(host, 2 * MIB, 256 * KIB);
  int bookkeeping_blocks = heap.live_blocks;  // the allocator itself
  grt_hal_buffer_t* buffers[3];
  void* data[3];
  for (int i = 0; i < 3; ++i) {
    buffers[i] = allocate_sized(allocator, 1 * MIB);
    data[i] = grt_hal_local_heap_buffer_data(buffers[i]);
  }
  // Larger than the whole cache: never cached.
  grt_hal_buffer_t* huge = allocate_sized(allocator, 3 * MIB);
  grt_hal_buffer_release(huge);
  assert_int_equal(cache_of(allocator).cached_blocks, 0);
  for (int i = 0; i < 3; ++i) grt_hal_buffer_release(buffers[i]);
  grt_hal_local_heap_cache_statistics_t cache = cache_of(allocator);
  assert_int_equal(cache.cached_blocks, 2);
  assert_int_equal(cache.cached_bytes, 2 * MIB);
  // The first block freed went back to the host; the last two are kept.
  assert_int_equal(heap.live_blocks, bookkeeping_blocks + 2);
  grt_hal_buffer_t* x = allocate_sized(allocator, 1 * MIB);
  grt_hal_buffer_t* y = allocate_sized(allocator, 1 * MIB);
  void* x_data = grt_hal_local_heap_buffer_data(x);
  void* y_data = grt_hal_local_heap_buffer_data(y);
  assert_true(x_data == data[1] || x_data == data[2]);
  assert_true(y_data == data[1] || y_data == data[2]);
  assert_ptr_not_equal(x_data, y_data);
  assert_int_equal(cache_of(allocator).reuse_count, 2);
  grt_hal_buffer_release(x);
  grt_hal_buffer_release(y);

  // Trimming gives the blocks back and keeps the allocator working.
  grt_hal_local_heap_allocator_trim(allocator);
  assert_int_equal(cache_of(allocator).cached_bytes, 0);
  assert_int_equal(heap.live_blocks, bookkeeping_blocks);
  grt_hal_buffer_release(allocate_sized(allocator, 1 * MIB));
  assert_int_equal(cache_of(allocator).cached_blocks, 1);
  // Destroying the allocator gives back what is still cached.
  grt_hal_allocator_release(allocator);
  assert_int_equal(heap.live_blocks, 0);
  assert_int_equal(heap.live_bytes, 0);
}

static void test_cache_trimmed_when_host_runs_out(void** state) {
  (void)state;
  budget_heap_t heap = {.budget = 3 * MIB};
  grt_allocator_t host = {&budget_heap_vtable, &heap};
  grt_hal_allocator_t* allocator = make_cached_allocator(host, 8 * MIB, 256 * KIB);
  grt_hal_buffer_release(allocate_sized(allocator, 2 * MIB));
  assert_int_equal(cache_of(allocator).cached_bytes, 2 * MIB);
  // 2 MiB cached + 1.5 MiB is over the budget, and the cached block is too
  // large to reuse: the cache is emptied and the allocation retried.
  grt_hal_buffer_t* buffer = allocate_sized(allocator, 1536 * KIB);
  assert_int_equal(cache_of(allocator).cached_bytes, 0);
  grt_hal_buffer_release(buffer);
  // With nothing to trim, running out is still an error naming the size.
  grt_hal_local_heap_allocator_trim(allocator);
  grt_hal_buffer_t* too_big = NULL;
  grt_expect_error(grt_hal_allocator_allocate_buffer(
                       allocator, params_of(0, 0, 0), 4 * MIB, &too_big),
                   GRT_STATUS_RESOURCE_EXHAUSTED,
                   "out of host memory allocating a 4194304-byte buffer");
  assert_null(too_big);
  grt_hal_allocator_release(allocator);
  assert_int_equal(heap.live_blocks, 0);
}

static void test_cache_disabled(void** state) {
  (void)state;
  grt_hal_allocator_t* allocator =
      make_cached_allocator(grt_allocator_system(), 0, 0);
  grt_hal_buffer_release(allocate_sized(allocator, 1 * MIB));
  grt_hal_buffer_release(allocate_sized(allocator, 1 * MIB));
  grt_hal_local_heap_cache_statistics_t cache = cache_of(allocator);
  assert_int_equal(cache.cached_blocks, 0);
  assert_int_equal(cache.reuse_count, 0);
  grt_hal_allocator_release(allocator);
  // Not a heap allocator: zeros, and trimming does nothing.
  cache = cache_of(NULL);
  assert_int_equal(cache.cached_bytes, 0);
  grt_hal_local_heap_allocator_trim(NULL);
}

typedef struct churn_t {
  grt_hal_allocator_t* allocator;
  uint64_t base_size;
  grt_hal_buffer_t* buffers[64];
  bool ok;
} churn_t;

// Allocates buffers of 1..64 bytes and frees them again.
static void* churn(void* arg) {
  churn_t* work = (churn_t*)arg;
  work->ok = true;
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < 64; ++i) {
      grt_hal_buffer_params_t params = {0, 0, 0, 0};
      grt_status_t status = grt_hal_allocator_allocate_buffer(
          work->allocator, params, work->base_size + (uint64_t)i + 1,
          &work->buffers[i]);
      if (!grt_status_is_ok(status)) {
        grt_status_free(status);
        work->ok = false;
        return NULL;
      }
    }
    for (int i = 0; i < 64; ++i) grt_hal_buffer_release(work->buffers[i]);
  }
  return NULL;
}

// Four threads allocating and freeing 64 buffers of base_size + 1..64 bytes
// twenty times over.
static void run_churn(grt_hal_allocator_t* allocator, uint64_t base_size) {
  enum { THREADS = 4 };
  churn_t work[THREADS];
  pthread_t threads[THREADS];
  for (int t = 0; t < THREADS; ++t) {
    work[t].allocator = allocator;
    work[t].base_size = base_size;
    assert_int_equal(pthread_create(&threads[t], NULL, churn, &work[t]), 0);
  }
  for (int t = 0; t < THREADS; ++t) {
    assert_int_equal(pthread_join(threads[t], NULL), 0);
    assert_true(work[t].ok);
  }
  // Every byte came back, and the peak lies between one thread's and all
  // threads' worth of live buffers (64 * 65 / 2 = 2080 bytes each).
  uint64_t per_thread = 64 * base_size + 2080;
  grt_hal_allocator_statistics_t statistics;
  grt_hal_allocator_query_statistics(allocator, &statistics);
  assert_int_equal(statistics.bytes_allocated, 0);
  assert_int_equal(statistics.allocation_count, THREADS * 20 * 64);
  assert_true(statistics.peak_bytes_allocated >= per_thread);
  assert_true(statistics.peak_bytes_allocated <= THREADS * per_thread);
}

static void test_statistics_across_threads(void** state) {
  (void)state;
  grt_hal_allocator_t* allocator = make_allocator();
  run_churn(allocator, 0);
  grt_hal_allocator_release(allocator);
}

// Blocks freed on one thread and reused on another, with the cache far
// smaller than what is live, so blocks are cached, reused and evicted all
// the time.
static void test_cache_across_threads(void** state) {
  (void)state;
  grt_hal_allocator_t* allocator =
      make_cached_allocator(grt_allocator_system(), 8 * MIB, 64 * KIB);
  run_churn(allocator, 64 * KIB);
  grt_hal_local_heap_cache_statistics_t cache = cache_of(allocator);
  assert_true(cache.reuse_count > 0);
  assert_true(cache.cached_bytes <= 8 * MIB);
  grt_hal_allocator_release(allocator);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_one_heap_with_everything),
      cmocka_unit_test(test_allocate_map_and_alignment),
      cmocka_unit_test(test_zero_size_buffer),
      cmocka_unit_test(test_buffer_keeps_allocator_alive),
      cmocka_unit_test(test_statistics_and_peak),
      cmocka_unit_test(test_statistics_across_threads),
      cmocka_unit_test(test_import_host_buffer),
      cmocka_unit_test(test_import_errors),
      cmocka_unit_test(test_allocation_errors),
      cmocka_unit_test(test_cache_reuses_freed_blocks),
      cmocka_unit_test(test_cache_alignment),
      cmocka_unit_test(test_cache_bound_evicts_oldest),
      cmocka_unit_test(test_cache_trimmed_when_host_runs_out),
      cmocka_unit_test(test_cache_disabled),
      cmocka_unit_test(test_cache_across_threads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
