#include "base/arena.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

// A parent allocator that counts what the arena takes and can be told to
// refuse.
typedef struct {
  int allocations;
  int live;
  bool refuse;
} counting_parent_t;

static void* counting_allocate(void* self, size_t size, size_t alignment) {
  counting_parent_t* parent = self;
  if (parent->refuse) return NULL;
  ++parent->allocations;
  ++parent->live;
  return grt_allocator_system().vtable->allocate(NULL, size, alignment);
}
static void* counting_reallocate(void* self, void* ptr, size_t old_size,
                                 size_t new_size, size_t alignment) {
  return NULL;  // the arena never reallocates its blocks
}
static void counting_free(void* self, void* ptr) {
  counting_parent_t* parent = self;
  --parent->live;
  free(ptr);
}
static const grt_allocator_vtable_t counting_vtable = {
    counting_allocate, counting_reallocate, counting_free};

static grt_allocator_t counting_allocator(counting_parent_t* parent) {
  grt_allocator_t allocator = {&counting_vtable, parent};
  return allocator;
}

static void* must_allocate(grt_arena_t* arena, size_t size, size_t alignment) {
  void* ptr = NULL;
  assert_null(grt_arena_allocate_aligned(arena, size, alignment, &ptr));
  assert_non_null(ptr);
  return ptr;
}

static void test_allocations_are_aligned_and_disjoint(void** state) {
  (void)state;
  counting_parent_t parent = {0};
  grt_arena_t arena;
  grt_arena_init(counting_allocator(&parent), 1024, &arena);
  enum { kCount = 13 };
  unsigned char* ptrs[kCount];
  size_t sizes[kCount];
  for (int i = 0; i < kCount; ++i) {
    size_t alignment = (size_t)1 << i;  // 1 .. 4096
    sizes[i] = (size_t)(3 + 7 * i);
    ptrs[i] = must_allocate(&arena, sizes[i], alignment);
    assert_int_equal((uintptr_t)ptrs[i] % alignment, 0);
    memset(ptrs[i], i + 1, sizes[i]);
  }
  for (int i = 0; i < kCount; ++i) {
    for (size_t j = 0; j < sizes[i]; ++j) assert_int_equal(ptrs[i][j], i + 1);
  }
  grt_arena_stats_t stats = grt_arena_stats(&arena);
  size_t total = 0;
  for (int i = 0; i < kCount; ++i) total += sizes[i];
  assert_int_equal(stats.bytes_in_use, total);
  assert_int_equal(stats.peak_bytes_in_use, total);
  grt_arena_deinit(&arena);
  assert_int_equal(parent.live, 0);
}

static void test_small_allocations_share_a_block(void** state) {
  (void)state;
  counting_parent_t parent = {0};
  grt_arena_t arena;
  grt_arena_init(counting_allocator(&parent), 1024, &arena);
  unsigned char* a = must_allocate(&arena, 16, 16);
  unsigned char* b = must_allocate(&arena, 16, 16);
  assert_ptr_equal(b, a + 16);
  assert_int_equal(parent.allocations, 1);
  assert_int_equal(grt_arena_stats(&arena).bytes_reserved, 1024);
  // Filling the block moves on to a second one.
  must_allocate(&arena, 900, 16);
  must_allocate(&arena, 200, 16);
  assert_int_equal(parent.allocations, 2);
  assert_int_equal(grt_arena_stats(&arena).block_count, 2);
  grt_arena_deinit(&arena);
  assert_int_equal(parent.live, 0);
}

static void test_oversized_request_gets_its_own_block(void** state) {
  (void)state;
  counting_parent_t parent = {0};
  grt_arena_t arena;
  grt_arena_init(counting_allocator(&parent), 1024, &arena);
  unsigned char* small = must_allocate(&arena, 100, 16);
  unsigned char* big = must_allocate(&arena, 5000, 16);
  memset(big, 0xEE, 5000);
  grt_arena_stats_t stats = grt_arena_stats(&arena);
  assert_int_equal(stats.block_count, 2);
  assert_true(stats.bytes_reserved > 1024 + 5000);
  // The first block keeps serving small requests after the big one.
  unsigned char* next = must_allocate(&arena, 8, 16);
  assert_ptr_equal(next, small + 112);
  assert_int_equal(parent.allocations, 2);
  grt_arena_deinit(&arena);
  assert_int_equal(parent.live, 0);
}

static void test_oversized_first_request(void** state) {
  (void)state;
  counting_parent_t parent = {0};
  grt_arena_t arena;
  grt_arena_init(counting_allocator(&parent), 512, &arena);
  unsigned char* big = must_allocate(&arena, 4000, 16);
  memset(big, 1, 4000);
  // The oversized block is exactly full, so this takes a standard block.
  must_allocate(&arena, 10, 1);
  assert_int_equal(grt_arena_stats(&arena).block_count, 2);
  grt_arena_reset(&arena);
  assert_int_equal(grt_arena_stats(&arena).block_count, 1);
  assert_int_equal(grt_arena_stats(&arena).bytes_reserved, 512);
  grt_arena_deinit(&arena);
  assert_int_equal(parent.live, 0);
}

static void test_reset_keeps_one_block_for_reuse(void** state) {
  (void)state;
  counting_parent_t parent = {0};
  grt_arena_t arena;
  grt_arena_init(counting_allocator(&parent), 1024, &arena);
  for (int i = 0; i < 10; ++i) must_allocate(&arena, 300, 16);
  must_allocate(&arena, 3000, 16);
  int before = parent.allocations;
  size_t peak = grt_arena_stats(&arena).peak_bytes_in_use;
  assert_int_equal(peak, 10 * 300 + 3000);

  grt_arena_reset(&arena);
  grt_arena_stats_t stats = grt_arena_stats(&arena);
  assert_int_equal(stats.block_count, 1);
  assert_int_equal(stats.bytes_reserved, 1024);
  assert_int_equal(stats.bytes_in_use, 0);
  assert_int_equal(stats.peak_bytes_in_use, peak);
  assert_int_equal(parent.live, 1);

  must_allocate(&arena, 500, 16);
  assert_int_equal(parent.allocations, before);  // reused, not requested
  assert_int_equal(grt_arena_stats(&arena).bytes_in_use, 500);
  assert_int_equal(grt_arena_stats(&arena).peak_bytes_in_use, peak);
  grt_arena_deinit(&arena);
  assert_int_equal(parent.live, 0);
  grt_arena_reset(&arena);  // on an empty arena: nothing to keep
  assert_int_equal(grt_arena_stats(&arena).block_count, 0);
}

static void test_block_size_defaults_and_minimum(void** state) {
  (void)state;
  grt_arena_t arena;
  grt_arena_init(grt_allocator_system(), 0, &arena);
  must_allocate(&arena, 1, 1);
  assert_int_equal(grt_arena_stats(&arena).bytes_reserved,
                   GRT_ARENA_DEFAULT_BLOCK_SIZE);
  grt_arena_deinit(&arena);
  grt_arena_init(grt_allocator_system(), 3, &arena);
  must_allocate(&arena, 1, 1);
  assert_int_equal(grt_arena_stats(&arena).bytes_reserved,
                   GRT_ARENA_MIN_BLOCK_SIZE);
  grt_arena_deinit(&arena);
}

static void test_zero_size_allocations_are_unique(void** state) {
  (void)state;
  grt_arena_t arena;
  grt_arena_init(grt_allocator_system(), 0, &arena);
  void* a = NULL;
  void* b = NULL;
  assert_null(grt_arena_allocate(&arena, 0, &a));
  assert_null(grt_arena_allocate(&arena, 0, &b));
  assert_non_null(a);
  assert_ptr_not_equal(a, b);
  grt_arena_deinit(&arena);
}

static void expect_error(grt_status_t status, grt_status_code_t code,
                         const char* message) {
  assert_non_null(status);
  if (strcmp(grt_status_message(status), message) != 0) {
    fail_msg("got message \"%s\", expected \"%s\"", grt_status_message(status),
             message);
  }
  assert_int_equal(grt_status_code(status), code);
  grt_status_free(status);
}

static void test_bad_alignment(void** state) {
  (void)state;
  grt_arena_t arena;
  grt_arena_init(grt_allocator_system(), 0, &arena);
  void* ptr = (void*)1;
  expect_error(grt_arena_allocate_aligned(&arena, 8, 24, &ptr),
               GRT_STATUS_INVALID_ARGUMENT,
               "arena alignment must be a power of two no larger than 4096, "
               "got 24");
  assert_null(ptr);
  expect_error(grt_arena_allocate_aligned(&arena, 8, 8192, &ptr),
               GRT_STATUS_INVALID_ARGUMENT,
               "arena alignment must be a power of two no larger than 4096, "
               "got 8192");
  grt_arena_deinit(&arena);
}

static void test_size_overflow(void** state) {
  (void)state;
  grt_arena_t arena;
  grt_arena_init(grt_allocator_system(), 0, &arena);
  void* ptr = NULL;
  char expected[128];
  snprintf(expected, sizeof(expected),
           "arena allocation of %zu bytes (alignment 64) does not fit in "
           "size_t",
           (size_t)SIZE_MAX - 8);
  expect_error(grt_arena_allocate_aligned(&arena, SIZE_MAX - 8, 64, &ptr),
               GRT_STATUS_OUT_OF_RANGE, expected);
  grt_arena_deinit(&arena);
}

static void test_parent_out_of_memory(void** state) {
  (void)state;
  counting_parent_t parent = {.refuse = true};
  grt_arena_t arena;
  grt_arena_init(counting_allocator(&parent), 1024, &arena);
  void* ptr = NULL;
  expect_error(grt_arena_allocate(&arena, 100, &ptr),
               GRT_STATUS_RESOURCE_EXHAUSTED,
               "out of memory allocating 1024 bytes (alignment 16); growing "
               "an arena for a 100-byte allocation");
  grt_arena_stats_t stats = grt_arena_stats(&arena);
  assert_int_equal(stats.block_count, 0);
  assert_int_equal(stats.bytes_in_use, 0);
  grt_arena_deinit(&arena);
}

static void test_allocator_interface(void** state) {
  (void)state;
  grt_arena_t arena;
  grt_arena_init(grt_allocator_system(), 1024, &arena);
  grt_allocator_t allocator = grt_arena_allocator(&arena);

  char* first = NULL;
  assert_null(grt_allocator_malloc(allocator, 32, (void**)&first));
  memcpy(first, "first", 6);
  char* last = NULL;
  assert_null(grt_allocator_malloc(allocator, 32, (void**)&last));
  memcpy(last, "last", 5);

  // The most recent allocation grows and shrinks in place.
  char* grown = last;
  assert_null(grt_allocator_realloc(allocator, 32, 200, (void**)&grown));
  assert_ptr_equal(grown, last);
  assert_int_equal(grt_arena_stats(&arena).bytes_in_use, 32 + 200);
  assert_null(grt_allocator_realloc(allocator, 200, 64, (void**)&grown));
  assert_ptr_equal(grown, last);
  assert_int_equal(grt_arena_stats(&arena).bytes_in_use, 32 + 64);
  assert_int_equal(grt_arena_stats(&arena).peak_bytes_in_use, 32 + 200);

  // An older allocation moves, keeping its bytes; shrinking it stays put.
  char* moved = first;
  assert_null(grt_allocator_realloc(allocator, 32, 64, (void**)&moved));
  assert_ptr_not_equal(moved, first);
  assert_string_equal(moved, "first");
  char* shrunk = first;
  assert_null(grt_allocator_realloc(allocator, 32, 8, (void**)&shrunk));
  assert_ptr_equal(shrunk, first);

  // Growing the last allocation past its block moves it to a new block.
  char* tail = moved;
  assert_null(grt_allocator_realloc(allocator, 64, 2000, (void**)&tail));
  assert_ptr_not_equal(tail, moved);
  assert_string_equal(tail, "first");

  // free is a no-op: nothing is handed back until reset.
  size_t in_use = grt_arena_stats(&arena).bytes_in_use;
  grt_allocator_free(allocator, tail);
  assert_int_equal(grt_arena_stats(&arena).bytes_in_use, in_use);
  assert_string_equal(last, "last");

  // Alignments the arena refuses surface as an allocator failure.
  void* refused = NULL;
  grt_status_t status =
      grt_allocator_malloc_aligned(allocator, 8, 8192, &refused);
  assert_int_equal(grt_status_code(status), GRT_STATUS_RESOURCE_EXHAUSTED);
  grt_status_free(status);
  grt_arena_deinit(&arena);
}

// The builder helpers: zeroed allocation, NUL-terminated copies and the
// growable vector (its elements survive growth; exhaustion is NULL or a
// status, never a crash).
static void test_builder_helpers(void** state) {
  (void)state;
  grt_arena_t arena;
  grt_arena_init(grt_allocator_system(), 256, &arena);
  unsigned char* bytes = grt_arena_alloc_zeroed(&arena, 100);
  assert_non_null(bytes);
  for (int i = 0; i < 100; ++i) assert_int_equal(bytes[i], 0);
  assert_int_equal((uintptr_t)bytes % GRT_ALLOCATOR_DEFAULT_ALIGNMENT, 0);
  char* copy = grt_arena_strndup(&arena, "hello world", 5);
  assert_string_equal(copy, "hello");
  assert_string_equal(grt_arena_strndup(&arena, NULL, 0), "");

  grt_arena_vec_t vec = {0};
  for (uint32_t i = 0; i < 100; ++i) {
    assert_null(grt_arena_vec_push(&arena, &vec, &i, sizeof(i)));
  }
  assert_int_equal(vec.count, 100);
  assert_int_equal(vec.capacity, 128);
  for (uint32_t i = 0; i < 100; ++i) {
    assert_int_equal(((const uint32_t*)vec.data)[i], i);
  }
  grt_arena_deinit(&arena);

  counting_parent_t parent = {.refuse = true};
  grt_arena_init(counting_allocator(&parent), 1024, &arena);
  assert_null(grt_arena_alloc_zeroed(&arena, 8));
  assert_null(grt_arena_strndup(&arena, "x", 1));
  grt_arena_vec_t empty = {0};
  uint64_t element = 7;
  expect_error(grt_arena_vec_push(&arena, &empty, &element, sizeof(element)),
               GRT_STATUS_RESOURCE_EXHAUSTED,
               "out of memory growing an arena vector to 4 elements of 8 "
               "bytes");
  assert_int_equal(empty.count, 0);
  grt_arena_deinit(&arena);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_allocations_are_aligned_and_disjoint),
      cmocka_unit_test(test_small_allocations_share_a_block),
      cmocka_unit_test(test_oversized_request_gets_its_own_block),
      cmocka_unit_test(test_oversized_first_request),
      cmocka_unit_test(test_reset_keeps_one_block_for_reuse),
      cmocka_unit_test(test_block_size_defaults_and_minimum),
      cmocka_unit_test(test_zero_size_allocations_are_unique),
      cmocka_unit_test(test_bad_alignment),
      cmocka_unit_test(test_size_overflow),
      cmocka_unit_test(test_parent_out_of_memory),
      cmocka_unit_test(test_allocator_interface),
      cmocka_unit_test(test_builder_helpers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
