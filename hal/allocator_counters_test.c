// The statistics every allocator reports: live bytes go down on free, the
// peak only up, the count counts allocations (not frees).
#include "hal/allocator_counters.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static void expect_statistics(grt_hal_allocator_counters_t* counters,
                              uint64_t live, uint64_t peak, uint64_t count) {
  grt_hal_allocator_statistics_t statistics = {99, 99, 99};
  grt_hal_allocator_counters_query(counters, &statistics);
  assert_int_equal(statistics.bytes_allocated, live);
  assert_int_equal(statistics.peak_bytes_allocated, peak);
  assert_int_equal(statistics.allocation_count, count);
}

static void test_live_peak_count(void** state) {
  (void)state;
  grt_hal_allocator_counters_t counters;
  grt_hal_allocator_counters_initialize(&counters);
  expect_statistics(&counters, 0, 0, 0);
  grt_hal_allocator_counters_allocated(&counters, 10);
  grt_hal_allocator_counters_allocated(&counters, 20);
  expect_statistics(&counters, 30, 30, 2);
  grt_hal_allocator_counters_freed(&counters, 20);
  expect_statistics(&counters, 10, 30, 2);
  grt_hal_allocator_counters_allocated(&counters, 5);
  expect_statistics(&counters, 15, 30, 3);  // below the peak: kept
  grt_hal_allocator_counters_allocated(&counters, 100);
  expect_statistics(&counters, 115, 115, 4);
  grt_hal_allocator_counters_freed(&counters, 115);
  expect_statistics(&counters, 0, 115, 4);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_live_peak_count),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
