#include "base/checked_math.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

typedef struct {
  uint64_t a;
  uint64_t b;
  bool add_fits;
  uint64_t sum;
  bool mul_fits;
  uint64_t product;
} u64_case_t;

static const u64_case_t kU64Cases[] = {
    {0, 0, true, 0, true, 0},
    {0, UINT64_MAX, true, UINT64_MAX, true, 0},
    {1, UINT64_MAX, false, 0, true, UINT64_MAX},
    {UINT64_MAX, UINT64_MAX, false, 0, false, 0},
    {UINT64_C(1) << 32, UINT64_C(1) << 31, true,
     (UINT64_C(1) << 32) + (UINT64_C(1) << 31), true, UINT64_C(1) << 63},
    {UINT64_C(1) << 32, UINT64_C(1) << 32, true, UINT64_C(1) << 33, false, 0},
    {UINT64_MAX / 3, 3, true, UINT64_MAX / 3 + 3, true, UINT64_MAX / 3 * 3},
    {UINT64_MAX / 3 + 1, 3, true, UINT64_MAX / 3 + 4, false, 0},
};

// Runs one case through |add| and |mul| so the builtin and portable
// versions are held to the same table.
static void check_u64_case(const u64_case_t* c,
                           bool (*add)(uint64_t, uint64_t, uint64_t*),
                           bool (*mul)(uint64_t, uint64_t, uint64_t*)) {
  uint64_t out = 42;
  assert_int_equal(add(c->a, c->b, &out), c->add_fits);
  assert_true(out == (c->add_fits ? c->sum : 42));
  out = 42;
  assert_int_equal(mul(c->a, c->b, &out), c->mul_fits);
  assert_true(out == (c->mul_fits ? c->product : 42));
  // Both operations commute; check the swapped operands too.
  out = 42;
  assert_int_equal(mul(c->b, c->a, &out), c->mul_fits);
}

static bool builtin_add_u64(uint64_t a, uint64_t b, uint64_t* out) {
  return grt_checked_add_u64(a, b, out);
}
static bool builtin_mul_u64(uint64_t a, uint64_t b, uint64_t* out) {
  return grt_checked_mul_u64(a, b, out);
}
static bool portable_add_u64(uint64_t a, uint64_t b, uint64_t* out) {
  return grt_checked_add_u64_portable(a, b, out);
}
static bool portable_mul_u64(uint64_t a, uint64_t b, uint64_t* out) {
  return grt_checked_mul_u64_portable(a, b, out);
}

static void test_u64_builtin_and_portable_agree_with_table(void** state) {
  (void)state;
  for (size_t i = 0; i < sizeof(kU64Cases) / sizeof(kU64Cases[0]); ++i) {
    check_u64_case(&kU64Cases[i], builtin_add_u64, builtin_mul_u64);
    check_u64_case(&kU64Cases[i], portable_add_u64, portable_mul_u64);
  }
}

static void test_size_overflow_edges(void** state) {
  (void)state;
  size_t out = 7;
  assert_true(grt_checked_add_size(SIZE_MAX - 1, 1, &out));
  assert_true(out == SIZE_MAX);
  out = 7;
  assert_false(grt_checked_add_size(SIZE_MAX, 1, &out));
  assert_false(grt_checked_add_size_portable(SIZE_MAX, 1, &out));
  assert_int_equal(out, 7);
  assert_true(grt_checked_mul_size(SIZE_MAX / 2, 2, &out));
  assert_true(out == SIZE_MAX - 1);
  assert_false(grt_checked_mul_size(SIZE_MAX / 2 + 1, 2, &out));
  assert_false(grt_checked_mul_size_portable(SIZE_MAX / 2 + 1, 2, &out));
  assert_true(grt_checked_mul_size_portable(0, SIZE_MAX, &out));
  assert_int_equal(out, 0);
  assert_true(grt_checked_add_size_portable(3, 4, &out));
  assert_int_equal(out, 7);
}

static void test_power_of_two(void** state) {
  (void)state;
  assert_false(grt_is_power_of_two_size(0));
  assert_true(grt_is_power_of_two_size(1));
  assert_true(grt_is_power_of_two_size(4096));
  assert_false(grt_is_power_of_two_size(24));
  assert_true(grt_is_power_of_two_size(SIZE_MAX / 2 + 1));
  assert_false(grt_is_power_of_two_size(SIZE_MAX));
}

static void test_align(void** state) {
  (void)state;
  size_t out = 0;
  assert_true(grt_checked_align_size(0, 64, &out));
  assert_int_equal(out, 0);
  assert_true(grt_checked_align_size(1, 64, &out));
  assert_int_equal(out, 64);
  assert_true(grt_checked_align_size(64, 64, &out));
  assert_int_equal(out, 64);
  assert_true(grt_checked_align_size(65, 1, &out));
  assert_int_equal(out, 65);
  out = 9;
  assert_false(grt_checked_align_size(SIZE_MAX - 2, 16, &out));
  assert_false(grt_checked_align_size(10, 24, &out));
  assert_false(grt_checked_align_size(10, 0, &out));
  assert_int_equal(out, 9);
  assert_true(grt_checked_align_size(SIZE_MAX - 15, 16, &out));
  assert_true(out == SIZE_MAX - 15);
  assert_int_equal(grt_align_up_size(13, 8), 16);
  assert_int_equal(grt_align_up_size(16, 8), 16);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_u64_builtin_and_portable_agree_with_table),
      cmocka_unit_test(test_size_overflow_edges),
      cmocka_unit_test(test_power_of_two),
      cmocka_unit_test(test_align),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
