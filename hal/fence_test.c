// hal fences: insert keeps the larger value, join unions, growth past the
// initial capacity, signal/query/wait/fail over every pair.
#include "hal/fence.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hal/test_support.h"

static grt_hal_semaphore_t* make_semaphore(uint64_t value) {
  grt_hal_semaphore_t* semaphore = NULL;
  GRT_EXPECT_OK(
      grt_hal_host_semaphore_create(value, grt_allocator_system(), &semaphore));
  return semaphore;
}

static void test_insert_keeps_max(void** state) {
  (void)state;
  grt_hal_semaphore_t* a = make_semaphore(0);
  grt_hal_fence_t* fence = NULL;
  GRT_EXPECT_OK(grt_hal_fence_create_at(a, 3, grt_allocator_system(), &fence));
  GRT_EXPECT_OK(grt_hal_fence_insert(fence, a, 2));
  assert_int_equal(grt_hal_fence_count(fence), 1);
  assert_int_equal(grt_hal_fence_as_list(fence).values[0], 3);
  GRT_EXPECT_OK(grt_hal_fence_insert(fence, a, 7));
  assert_int_equal(grt_hal_fence_as_list(fence).values[0], 7);
  grt_expect_error(grt_hal_fence_insert(fence, NULL, 1),
                       GRT_STATUS_INVALID_ARGUMENT,
                       "cannot insert a NULL semaphore into a fence");
  // The fence holds its own reference.
  grt_hal_semaphore_release(a);
  bool reached = true;
  GRT_EXPECT_OK(grt_hal_fence_query(fence, &reached));
  assert_false(reached);
  GRT_EXPECT_OK(grt_hal_fence_signal(fence));
  GRT_EXPECT_OK(grt_hal_fence_query(fence, &reached));
  assert_true(reached);
  GRT_EXPECT_OK(grt_hal_fence_wait(fence, GRT_HAL_TIMEOUT_IMMEDIATE));
  grt_hal_fence_release(fence);
}

static void test_grow_and_join(void** state) {
  (void)state;
  enum { kCount = 11 };
  grt_hal_semaphore_t* semaphores[kCount];
  grt_hal_fence_t* first = NULL;
  grt_hal_fence_t* second = NULL;
  GRT_EXPECT_OK(grt_hal_fence_create(0, grt_allocator_system(), &first));
  GRT_EXPECT_OK(grt_hal_fence_create(1, grt_allocator_system(), &second));
  for (int i = 0; i < kCount; ++i) {
    semaphores[i] = make_semaphore(0);
    GRT_EXPECT_OK(grt_hal_fence_insert(first, semaphores[i], (uint64_t)i + 1));
  }
  GRT_EXPECT_OK(grt_hal_fence_insert(second, semaphores[0], 50));
  GRT_EXPECT_OK(grt_hal_fence_insert(second, semaphores[5], 2));
  assert_int_equal(grt_hal_fence_count(first), kCount);
  grt_hal_fence_t* fences[3] = {first, NULL, second};
  grt_hal_fence_t* joined = NULL;
  GRT_EXPECT_OK(grt_hal_fence_join(3, fences, grt_allocator_system(), &joined));
  assert_int_equal(grt_hal_fence_count(joined), kCount);
  grt_hal_semaphore_list_t list = grt_hal_fence_as_list(joined);
  assert_ptr_equal(list.semaphores[0], semaphores[0]);
  assert_int_equal(list.values[0], 50);
  assert_int_equal(list.values[5], 6);
  grt_hal_fence_release(first);
  grt_hal_fence_release(second);
  grt_expect_error(grt_hal_fence_wait(joined, 1000000),
                       GRT_STATUS_DEADLINE_EXCEEDED,
                       "semaphore did not reach 50 within 1 ms (value 0); "
                       "semaphore 0 of 11");
  grt_hal_fence_fail(joined, grt_make_status(GRT_STATUS_ABORTED, "cancelled run"));
  bool reached = false;
  grt_expect_error(grt_hal_fence_query(joined, &reached),
                       GRT_STATUS_ABORTED, "cancelled run");
  uint64_t value = 0;
  grt_expect_error(grt_hal_semaphore_query(semaphores[kCount - 1], &value),
                       GRT_STATUS_ABORTED, "cancelled run");
  for (int i = 0; i < kCount; ++i) grt_hal_semaphore_release(semaphores[i]);
  grt_hal_fence_release(joined);
  // An absent fence is an empty list.
  assert_int_equal(grt_hal_fence_as_list(NULL).count, 0);
  assert_int_equal(grt_hal_fence_count(NULL), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_insert_keeps_max),
      cmocka_unit_test(test_grow_and_join),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
