// Name index: insert, find, duplicates, growth past many names, names
// that collide in the low hash bits.
#include "base/name_index.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/status_matchers.h"

static void test_insert_find_duplicate(void** state) {
  (void)state;
  grt_name_index_t index;
  grt_name_index_initialize(grt_allocator_system(), &index);
  uint32_t value = 99;
  assert_false(grt_name_index_find(&index, grt_make_cstring_view("a"), &value));
  GRT_EXPECT_OK(grt_name_index_insert(&index, grt_make_cstring_view("a"), 7,
                                      NULL));
  GRT_EXPECT_OK(grt_name_index_insert(&index, grt_make_cstring_view(""), 8,
                                      NULL));
  assert_true(grt_name_index_find(&index, grt_make_cstring_view("a"), &value));
  assert_int_equal(value, 7);
  assert_true(grt_name_index_find(&index, grt_make_cstring_view(""), &value));
  assert_int_equal(value, 8);
  assert_false(grt_name_index_find(&index, grt_make_cstring_view("ab"), &value));
  uint32_t existing = 0;
  grt_expect_error(
      grt_name_index_insert(&index, grt_make_cstring_view("a"), 9, &existing),
      GRT_STATUS_ALREADY_EXISTS, "name 'a' is already in the index");
  assert_int_equal(existing, 7);
  assert_true(grt_name_index_find(&index, grt_make_cstring_view("a"), &value));
  assert_int_equal(value, 7);  // unchanged
  assert_int_equal(index.count, 2);
  grt_name_index_deinitialize(&index);
  assert_int_equal(index.count, 0);
  assert_false(grt_name_index_find(&index, grt_make_cstring_view("a"), &value));
}

static void test_many_names(void** state) {
  (void)state;
  enum { kCount = 50000 };
  char* names = malloc((size_t)kCount * 16);
  assert_non_null(names);
  grt_name_index_t index;
  grt_name_index_initialize(grt_allocator_system(), &index);
  for (uint32_t i = 0; i < kCount; ++i) {
    int n = snprintf(names + (size_t)i * 16, 16, "f%u", i);
    GRT_EXPECT_OK(grt_name_index_insert(
        &index, grt_make_string_view(names + (size_t)i * 16, (size_t)n), i,
        NULL));
  }
  assert_int_equal(index.count, kCount);
  assert_true(index.capacity >= 2 * (size_t)kCount);
  for (uint32_t i = 0; i < kCount; ++i) {
    uint32_t value = UINT32_MAX;
    assert_true(grt_name_index_find(
        &index, grt_make_cstring_view(names + (size_t)i * 16), &value));
    assert_int_equal(value, i);
  }
  uint32_t value = 0;
  assert_false(grt_name_index_find(&index, grt_make_cstring_view("f50000"),
                                   &value));
  grt_name_index_deinitialize(&index);
  free(names);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_insert_find_duplicate),
      cmocka_unit_test(test_many_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
