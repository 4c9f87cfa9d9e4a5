// The conformance suite's exceptions list: parsing, lookup and its errors.
#include "tests/hal_cts/exceptions.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static void expect_error(grt_status_t status, grt_status_code_t code,
                         const char* message) {
  assert_non_null(status);
  if (grt_status_code(status) != code ||
      strcmp(grt_status_message(status), message) != 0) {
    fprintf(stderr, "got %s: %s\nwanted %s: %s\n",
            grt_status_code_name(grt_status_code(status)),
            grt_status_message(status), grt_status_code_name(code), message);
    grt_status_free(status);
    fail();
  }
  grt_status_free(status);
}

static grt_status_t parse(const char* text, grt_hal_cts_exceptions_t* out) {
  return grt_hal_cts_exceptions_parse(grt_make_cstring_view(text), "x.txt",
                                      grt_allocator_system(), out);
}

static void test_parse_and_find(void** state) {
  (void)state;
  grt_hal_cts_exceptions_t exceptions;
  assert_null(parse("# comment\n\n  vulkan\ttest_a  no 64-bit atomics \r\n"
                    "cuda test_a needs a context\n"
                    "vulkan test_b reason",
                    &exceptions));
  assert_int_equal(exceptions.count, 3);
  const grt_hal_cts_exception_t* found =
      grt_hal_cts_exceptions_find(&exceptions, "vulkan", "test_a");
  assert_non_null(found);
  assert_string_equal(found->reason, "no 64-bit atomics");
  assert_int_equal(found->line, 3);
  found = grt_hal_cts_exceptions_find(&exceptions, "vulkan", "test_b");
  assert_non_null(found);
  assert_string_equal(found->reason, "reason");
  assert_null(grt_hal_cts_exceptions_find(&exceptions, "local-sync", "test_a"));
  const char* names[] = {"test_a", "test_b"};
  assert_null(grt_hal_cts_exceptions_check_tests(&exceptions, "x.txt", names, 2));
  expect_error(
      grt_hal_cts_exceptions_check_tests(&exceptions, "x.txt", names, 1),
      GRT_STATUS_NOT_FOUND,
      "x.txt:5: no test named 'test_b' (hal_cts --list prints the names)");
  grt_hal_cts_exceptions_free(&exceptions);
}

static void test_empty(void** state) {
  (void)state;
  grt_hal_cts_exceptions_t exceptions;
  assert_null(parse("", &exceptions));
  assert_int_equal(exceptions.count, 0);
  assert_null(grt_hal_cts_exceptions_find(&exceptions, "cuda", "test_a"));
  grt_hal_cts_exceptions_free(&exceptions);
}

static void test_missing_reason(void** state) {
  (void)state;
  grt_hal_cts_exceptions_t exceptions;
  expect_error(parse("cuda test_a why\ncuda test_b  \n", &exceptions),
               GRT_STATUS_INVALID_ARGUMENT,
               "x.txt:2: expected '<driver> <test> <reason>', got 'cuda "
               "test_b'");
  expect_error(parse("cuda\n", &exceptions), GRT_STATUS_INVALID_ARGUMENT,
               "x.txt:1: expected '<driver> <test> <reason>', got 'cuda'");
}

static void test_duplicate(void** state) {
  (void)state;
  grt_hal_cts_exceptions_t exceptions;
  expect_error(
      parse("cuda test_a one\nvulkan test_a two\ncuda test_a three\n",
            &exceptions),
      GRT_STATUS_ALREADY_EXISTS,
      "x.txt:3: a second exception for cuda test_a (the first is on line 1)");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_and_find),
      cmocka_unit_test(test_empty),
      cmocka_unit_test(test_missing_reason),
      cmocka_unit_test(test_duplicate),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
