#include "base/string_view.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define SV(literal) grt_make_cstring_view(literal)

static void assert_view(grt_string_view_t view, const char* expected) {
  if (!grt_string_view_equal_cstring(view, expected)) {
    fail_msg("got \"%.*s\", expected \"%s\"", GRT_SV_ARG(view), expected);
  }
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

static void test_starts_and_ends_with(void** state) {
  (void)state;
  assert_true(grt_string_view_starts_with(SV("vm.add.i32"), SV("vm.")));
  assert_true(grt_string_view_starts_with(SV("vm"), SV("")));
  assert_false(grt_string_view_starts_with(SV("vm"), SV("vm.")));
  assert_false(grt_string_view_starts_with(SV("hal.x"), SV("vm.")));
  assert_true(grt_string_view_ends_with(SV("model.vmfb"), SV(".vmfb")));
  assert_true(grt_string_view_ends_with(SV("x"), SV("")));
  assert_false(grt_string_view_ends_with(SV("vmfb"), SV(".vmfb")));
  assert_false(grt_string_view_ends_with(SV("model.mlir"), SV(".vmfb")));
  grt_string_view_t null_view = grt_make_cstring_view(NULL);
  assert_true(grt_string_view_ends_with(null_view, SV("")));
  assert_true(grt_string_view_starts_with(null_view, SV("")));
  assert_false(grt_string_view_ends_with(null_view, SV("a")));
}

static void test_find_char(void** state) {
  (void)state;
  grt_string_view_t view = SV("a,b,c");
  assert_int_equal(grt_string_view_find_char(view, ',', 0), 1);
  assert_int_equal(grt_string_view_find_char(view, ',', 2), 3);
  assert_true(grt_string_view_find_char(view, ',', 4) == GRT_STRING_VIEW_NPOS);
  assert_true(grt_string_view_find_char(view, ';', 0) == GRT_STRING_VIEW_NPOS);
  assert_true(grt_string_view_find_char(view, 'a', 99) ==
              GRT_STRING_VIEW_NPOS);
  // A NUL inside the view is an ordinary byte; the byte after it is not.
  grt_string_view_t with_nul = grt_make_string_view("ab\0cd", 5);
  assert_int_equal(grt_string_view_find_char(with_nul, 'd', 0), 4);
  assert_true(grt_string_view_find_char(grt_make_string_view("xy", 1), 'y',
                                        0) == GRT_STRING_VIEW_NPOS);
}

static void test_substr_clamps(void** state) {
  (void)state;
  grt_string_view_t view = SV("abcdef");
  assert_view(grt_string_view_substr(view, 2, 3), "cde");
  assert_view(grt_string_view_substr(view, 4, 100), "ef");
  assert_view(grt_string_view_substr(view, 0, GRT_STRING_VIEW_NPOS), "abcdef");
  assert_view(grt_string_view_substr(view, 6, 1), "");
  assert_view(grt_string_view_substr(view, 100, 100), "");
  assert_int_equal(grt_string_view_substr(grt_make_cstring_view(NULL), 3, 3).size,
                   0);
}

static void test_split(void** state) {
  (void)state;
  grt_string_view_t head, tail;
  assert_true(grt_string_view_split(SV("2x3xf32"), 'x', &head, &tail));
  assert_view(head, "2");
  assert_view(tail, "3xf32");
  assert_true(grt_string_view_split(SV("=1"), '=', &head, &tail));
  assert_view(head, "");
  assert_view(tail, "1");
  assert_true(grt_string_view_split(SV("k="), '=', &head, &tail));
  assert_view(head, "k");
  assert_view(tail, "");
  assert_false(grt_string_view_split(SV("plain"), '=', &head, &tail));
  assert_view(head, "plain");
  assert_view(tail, "");
  assert_true(grt_string_view_split(SV("a:b"), ':', NULL, &tail));
  assert_view(tail, "b");
  assert_false(grt_string_view_split(grt_make_cstring_view(NULL), ':', &head,
                                     NULL));
  assert_int_equal(head.size, 0);
}

static void test_trim(void** state) {
  (void)state;
  assert_view(grt_string_view_trim(SV(" \t\r\n x y \v\f")), "x y");
  assert_view(grt_string_view_trim(SV("   ")), "");
  assert_view(grt_string_view_trim(SV("z")), "z");
  assert_view(grt_string_view_trim(SV("")), "");
  // Bytes above 0x7F are not whitespace whatever the locale says.
  assert_view(grt_string_view_trim(SV("\xA0q\xA0")), "\xA0q\xA0");
}

static int compare_views(const void* a, const void* b) {
  return grt_string_view_compare(*(const grt_string_view_t*)a,
                                 *(const grt_string_view_t*)b);
}

static void test_compare_sorts(void** state) {
  (void)state;
  grt_string_view_t views[] = {SV("b"), SV("ab"), SV(""), SV("a"),
                               SV("\xFF"), SV("abc")};
  qsort(views, sizeof(views) / sizeof(views[0]), sizeof(views[0]),
        compare_views);
  const char* expected[] = {"", "a", "ab", "abc", "b", "\xFF"};
  for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); ++i) {
    assert_view(views[i], expected[i]);
  }
  assert_int_equal(grt_string_view_compare(SV("same"), SV("same")), 0);
  assert_true(grt_string_view_compare(SV("ab"), SV("a")) > 0);
}

static void test_parse_integers(void** state) {
  (void)state;
  int32_t i32 = 0;
  assert_null(grt_string_view_parse_i32(SV("42"), &i32));
  assert_int_equal(i32, 42);
  assert_null(grt_string_view_parse_i32(SV("-2147483648"), &i32));
  assert_int_equal(i32, INT32_MIN);
  assert_null(grt_string_view_parse_i32(SV("+2147483647"), &i32));
  assert_int_equal(i32, INT32_MAX);
  assert_null(grt_string_view_parse_i32(SV("-0x10"), &i32));
  assert_int_equal(i32, -16);
  assert_null(grt_string_view_parse_i32(SV("0XfF"), &i32));
  assert_int_equal(i32, 255);
  assert_null(grt_string_view_parse_i32(SV("007"), &i32));
  assert_int_equal(i32, 7);
  assert_null(grt_string_view_parse_i32(SV("-0"), &i32));
  assert_int_equal(i32, 0);

  int64_t i64 = 0;
  assert_null(grt_string_view_parse_i64(SV("-9223372036854775808"), &i64));
  assert_true(i64 == INT64_MIN);
  assert_null(grt_string_view_parse_i64(SV("0x7fffffffffffffff"), &i64));
  assert_true(i64 == INT64_MAX);

  uint64_t u64 = 0;
  assert_null(grt_string_view_parse_u64(SV("18446744073709551615"), &u64));
  assert_true(u64 == UINT64_MAX);
  assert_null(grt_string_view_parse_u64(SV("0xFFFFFFFFFFFFFFFF"), &u64));
  assert_true(u64 == UINT64_MAX);
  assert_null(grt_string_view_parse_u64(SV("-0"), &u64));
  assert_true(u64 == 0);
  // Only the view's bytes count, not what follows them in memory.
  assert_null(grt_string_view_parse_u64(grt_make_string_view("123abc", 3),
                                        &u64));
  assert_true(u64 == 123);
}

static void test_parse_integer_syntax_errors(void** state) {
  (void)state;
  static const char* const bad[] = {"12x", "",   "-",    "+",  "0x", "-0x",
                                    " 1",  "1 ", "0x1g", "1.0", "--1", "x1",
                                    "99999999999999999999x"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    char expected[128];
    snprintf(expected, sizeof(expected), "expected an integer, got \"%s\"",
             bad[i]);
    int32_t i32 = 5;
    expect_error(grt_string_view_parse_i32(SV(bad[i]), &i32),
                 GRT_STATUS_INVALID_ARGUMENT, expected);
    assert_int_equal(i32, 5);  // untouched on failure
    int64_t i64;
    expect_error(grt_string_view_parse_i64(SV(bad[i]), &i64),
                 GRT_STATUS_INVALID_ARGUMENT, expected);
    uint64_t u64;
    expect_error(grt_string_view_parse_u64(SV(bad[i]), &u64),
                 GRT_STATUS_INVALID_ARGUMENT, expected);
  }
}

static void test_parse_integer_range_errors(void** state) {
  (void)state;
  int32_t i32;
  expect_error(grt_string_view_parse_i32(SV("99999999999"), &i32),
               GRT_STATUS_OUT_OF_RANGE,
               "integer 99999999999 out of range for i32");
  expect_error(grt_string_view_parse_i32(SV("2147483648"), &i32),
               GRT_STATUS_OUT_OF_RANGE, "integer 2147483648 out of range for i32");
  expect_error(grt_string_view_parse_i32(SV("-2147483649"), &i32),
               GRT_STATUS_OUT_OF_RANGE,
               "integer -2147483649 out of range for i32");
  expect_error(grt_string_view_parse_i32(SV("0x80000000"), &i32),
               GRT_STATUS_OUT_OF_RANGE, "integer 0x80000000 out of range for i32");
  int64_t i64;
  expect_error(grt_string_view_parse_i64(SV("9223372036854775808"), &i64),
               GRT_STATUS_OUT_OF_RANGE,
               "integer 9223372036854775808 out of range for i64");
  expect_error(grt_string_view_parse_i64(SV("-99999999999999999999"), &i64),
               GRT_STATUS_OUT_OF_RANGE,
               "integer -99999999999999999999 out of range for i64");
  uint64_t u64;
  expect_error(grt_string_view_parse_u64(SV("18446744073709551616"), &u64),
               GRT_STATUS_OUT_OF_RANGE,
               "integer 18446744073709551616 out of range for u64");
  expect_error(grt_string_view_parse_u64(SV("0x10000000000000000"), &u64),
               GRT_STATUS_OUT_OF_RANGE,
               "integer 0x10000000000000000 out of range for u64");
  expect_error(grt_string_view_parse_u64(SV("-1"), &u64),
               GRT_STATUS_OUT_OF_RANGE, "integer -1 out of range for u64");
}

static void test_long_input_is_quoted_in_part(void** state) {
  (void)state;
  char text[201];
  memset(text, '7', 200);
  text[200] = '\0';
  text[150] = 'q';
  char expected[128];
  snprintf(expected, sizeof(expected), "expected an integer, got \"%.64s...\"",
           text);
  int64_t i64;
  expect_error(grt_string_view_parse_i64(SV(text), &i64),
               GRT_STATUS_INVALID_ARGUMENT, expected);
}

static void test_parse_f64(void** state) {
  (void)state;
  double value = 0;
  assert_null(grt_string_view_parse_f64(SV("1.5"), &value));
  assert_true(value == 1.5);
  assert_null(grt_string_view_parse_f64(SV("-2e3"), &value));
  assert_true(value == -2000.0);
  assert_null(grt_string_view_parse_f64(SV("0x1p-2"), &value));
  assert_true(value == 0.25);
  assert_null(grt_string_view_parse_f64(SV("7"), &value));
  assert_true(value == 7.0);
  assert_null(grt_string_view_parse_f64(SV("-inf"), &value));
  assert_true(isinf(value) && value < 0);
  assert_null(grt_string_view_parse_f64(SV("nan"), &value));
  assert_true(isnan(value));
  // Underflow yields the nearest double rather than an error.
  assert_null(grt_string_view_parse_f64(SV("1e-320"), &value));
  assert_true(value > 0 && value < 1e-300);
  assert_null(grt_string_view_parse_f64(grt_make_string_view("2.5e1x", 5),
                                        &value));
  assert_true(value == 25.0);
}

static void test_parse_f64_errors(void** state) {
  (void)state;
  static const char* const bad[] = {"", "abc", "1.5x", " 1", "1 ", "e5", "--1"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    char expected[128];
    snprintf(expected, sizeof(expected), "expected a number, got \"%s\"",
             bad[i]);
    double value = 3.0;
    expect_error(grt_string_view_parse_f64(SV(bad[i]), &value),
                 GRT_STATUS_INVALID_ARGUMENT, expected);
    assert_true(value == 3.0);
  }
  double value;
  expect_error(grt_string_view_parse_f64(SV("1e999"), &value),
               GRT_STATUS_OUT_OF_RANGE, "number 1e999 out of range for f64");
  expect_error(grt_string_view_parse_f64(SV("-1e999"), &value),
               GRT_STATUS_OUT_OF_RANGE, "number -1e999 out of range for f64");
  expect_error(grt_string_view_parse_f64(grt_make_cstring_view(NULL), &value),
               GRT_STATUS_INVALID_ARGUMENT, "expected a number, got \"\"");

  char text[129];
  memset(text, '1', 128);
  text[128] = '\0';
  char expected[256];
  snprintf(expected, sizeof(expected),
           "expected a number of at most 127 characters, got 128 characters: "
           "\"%.64s...\"",
           text);
  expect_error(grt_string_view_parse_f64(SV(text), &value),
               GRT_STATUS_INVALID_ARGUMENT, expected);
}

static void* failing_allocate(void* self, size_t size, size_t alignment) {
  return NULL;
}
static void* failing_reallocate(void* self, void* ptr, size_t old_size,
                                size_t new_size, size_t alignment) {
  return NULL;
}
static void failing_free(void* self, void* ptr) {}
static const grt_allocator_vtable_t failing_vtable = {
    failing_allocate, failing_reallocate, failing_free};

static void test_copy_cstring(void** state) {
  (void)state;
  char* copy = NULL;
  assert_null(grt_string_view_copy_cstring(grt_make_string_view("hello!", 5),
                                           grt_allocator_system(), &copy));
  assert_string_equal(copy, "hello");
  grt_allocator_free(grt_allocator_system(), copy);
  assert_null(grt_string_view_copy_cstring(grt_make_cstring_view(NULL),
                                           grt_allocator_system(), &copy));
  assert_string_equal(copy, "");
  grt_allocator_free(grt_allocator_system(), copy);
}

static void test_copy_cstring_errors(void** state) {
  (void)state;
  grt_allocator_t failing = {&failing_vtable, NULL};
  char* copy = (char*)1;
  expect_error(grt_string_view_copy_cstring(SV("hello"), failing, &copy),
               GRT_STATUS_RESOURCE_EXHAUSTED,
               "out of memory allocating 6 bytes (alignment 16); copying a "
               "5-byte string");
  assert_null(copy);
  // The size alone overflows; no byte of the view is read.
  char expected[128];
  snprintf(expected, sizeof(expected),
           "a %zu-byte string does not fit in memory with its NUL terminator",
           (size_t)SIZE_MAX);
  expect_error(grt_string_view_copy_cstring(grt_make_string_view("x", SIZE_MAX),
                                            grt_allocator_system(), &copy),
               GRT_STATUS_OUT_OF_RANGE, expected);
}

static void test_escape(void** state) {
  (void)state;
  char out[64];
  const char given[] = "<f\0\t\\\xff";
  grt_string_view_t view = grt_make_string_view(given, sizeof(given) - 1);
  assert_int_equal(grt_string_view_escape(view, out, sizeof(out)), 16);
  assert_string_equal(out, "<f\\x00\\x09\\\\\\xff");
  // Cut between escapes, never inside one; the return says what it needed.
  assert_int_equal(grt_string_view_escape(view, out, 6), 16);
  assert_string_equal(out, "<f");
  assert_int_equal(grt_string_view_escape(view, out, 7), 16);
  assert_string_equal(out, "<f\\x00");
  assert_int_equal(grt_string_view_escape(grt_make_cstring_view("ok"), out,
                                          sizeof(out)),
                   2);
  assert_string_equal(out, "ok");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_starts_and_ends_with),
      cmocka_unit_test(test_find_char),
      cmocka_unit_test(test_substr_clamps),
      cmocka_unit_test(test_split),
      cmocka_unit_test(test_trim),
      cmocka_unit_test(test_compare_sorts),
      cmocka_unit_test(test_parse_integers),
      cmocka_unit_test(test_parse_integer_syntax_errors),
      cmocka_unit_test(test_parse_integer_range_errors),
      cmocka_unit_test(test_long_input_is_quoted_in_part),
      cmocka_unit_test(test_parse_f64),
      cmocka_unit_test(test_parse_f64_errors),
      cmocka_unit_test(test_copy_cstring),
      cmocka_unit_test(test_copy_cstring_errors),
      cmocka_unit_test(test_escape),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
