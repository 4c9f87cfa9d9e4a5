#include "base/allocator.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static void test_malloc_free(void** state) {
  (void)state;
  grt_allocator_t allocator = grt_allocator_system();
  void* ptr = NULL;
  assert_null(grt_allocator_malloc(allocator, 100, &ptr));
  assert_non_null(ptr);
  assert_int_equal((uintptr_t)ptr % GRT_ALLOCATOR_DEFAULT_ALIGNMENT, 0);
  memset(ptr, 0xAB, 100);
  grt_allocator_free(allocator, ptr);
  grt_allocator_free(allocator, NULL);  // no-op
}

static void test_zero_size_is_unique_block(void** state) {
  (void)state;
  grt_allocator_t allocator = grt_allocator_system();
  void* a = NULL;
  void* b = NULL;
  assert_null(grt_allocator_malloc(allocator, 0, &a));
  assert_null(grt_allocator_malloc(allocator, 0, &b));
  assert_non_null(a);
  assert_ptr_not_equal(a, b);
  grt_allocator_free(allocator, a);
  grt_allocator_free(allocator, b);
}

static void test_calloc_zeroes(void** state) {
  (void)state;
  grt_allocator_t allocator = grt_allocator_system();
  uint8_t* ptr = NULL;
  assert_null(grt_allocator_calloc(allocator, 64, (void**)&ptr));
  for (int i = 0; i < 64; ++i) assert_int_equal(ptr[i], 0);
  grt_allocator_free(allocator, ptr);
}

static void test_aligned_and_realloc_keep_alignment(void** state) {
  (void)state;
  grt_allocator_t allocator = grt_allocator_system();
  uint8_t* ptr = NULL;
  assert_null(grt_allocator_malloc_aligned(allocator, 10, 256, (void**)&ptr));
  assert_int_equal((uintptr_t)ptr % 256, 0);
  for (int i = 0; i < 10; ++i) ptr[i] = (uint8_t)i;
  assert_null(grt_allocator_realloc_aligned(allocator, 10, 5000, 256,
                                            (void**)&ptr));
  assert_int_equal((uintptr_t)ptr % 256, 0);
  for (int i = 0; i < 10; ++i) assert_int_equal(ptr[i], i);
  grt_allocator_free(allocator, ptr);

  void* grown = NULL;
  assert_null(grt_allocator_realloc(allocator, 0, 32, &grown));
  assert_non_null(grown);
  grt_allocator_free(allocator, grown);
}

static void test_bad_alignment_is_an_error(void** state) {
  (void)state;
  grt_allocator_t allocator = grt_allocator_system();
  void* ptr = (void*)1;
  grt_status_t status = grt_allocator_malloc_aligned(allocator, 8, 24, &ptr);
  assert_int_equal(grt_status_code(status), GRT_STATUS_INVALID_ARGUMENT);
  assert_non_null(strstr(grt_status_message(status), "power of two, got 24"));
  assert_null(ptr);
  grt_status_free(status);
}

static void test_out_of_memory_names_size(void** state) {
  (void)state;
  grt_allocator_t allocator = grt_allocator_system();
  void* ptr = NULL;
  grt_status_t status =
      grt_allocator_malloc_aligned(allocator, SIZE_MAX - 4096, 64, &ptr);
  assert_int_equal(grt_status_code(status), GRT_STATUS_RESOURCE_EXHAUSTED);
  assert_non_null(strstr(grt_status_message(status), "out of memory allocating"));
  grt_status_free(status);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_malloc_free),
      cmocka_unit_test(test_zero_size_is_unique_block),
      cmocka_unit_test(test_calloc_zeroes),
      cmocka_unit_test(test_aligned_and_realloc_keep_alignment),
      cmocka_unit_test(test_bad_alignment_is_an_error),
      cmocka_unit_test(test_out_of_memory_names_size),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
