#include "base/status.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static grt_status_t fail_deep(int depth) {
  if (depth == 0) {
    return grt_make_status(GRT_STATUS_NOT_FOUND, "tensor '%s' not found", "x");
  }
  GRT_RETURN_IF_ERROR_ANNOTATED(fail_deep(depth - 1), "at depth %d", depth);
  return grt_ok_status();
}

static grt_status_t pass_through(void) {
  GRT_RETURN_IF_ERROR(grt_ok_status());
  return grt_ok_status();
}

static void test_ok_is_null(void** state) {
  (void)state;
  grt_status_t status = pass_through();
  assert_null(status);
  assert_true(grt_status_is_ok(status));
  assert_int_equal(grt_status_code(status), GRT_STATUS_OK);
  assert_string_equal(grt_status_message(status), "");
  char buffer[16];
  grt_status_format(status, buffer, sizeof(buffer));
  assert_string_equal(buffer, "OK");
  assert_null(grt_status_annotate(status, "ignored"));
}

static void test_message_and_annotations(void** state) {
  (void)state;
  grt_status_t status = fail_deep(2);
  assert_int_equal(grt_status_code(status), GRT_STATUS_NOT_FOUND);
  assert_string_equal(grt_status_message(status),
                      "tensor 'x' not found; at depth 1; at depth 2");
  char buffer[128];
  size_t length = grt_status_format(status, buffer, sizeof(buffer));
  assert_string_equal(buffer,
                      "NOT_FOUND: tensor 'x' not found; at depth 1; at depth 2");
  assert_int_equal(length, strlen(buffer));
  grt_status_free(status);
}

static void test_format_truncates_but_reports_length(void** state) {
  (void)state;
  grt_status_t status = grt_make_status(GRT_STATUS_INTERNAL, "0123456789");
  char buffer[8];
  size_t length = grt_status_format(status, buffer, sizeof(buffer));
  assert_int_equal(length, strlen("INTERNAL: 0123456789"));
  assert_string_equal(buffer, "INTERNA");
  grt_status_free(status);
}

static void test_many_annotations_grow(void** state) {
  (void)state;
  grt_status_t status = grt_make_status(GRT_STATUS_DATA_LOSS, "root");
  for (int i = 0; i < 200; ++i) status = grt_status_annotate(status, "n%d", i);
  const char* message = grt_status_message(status);
  assert_non_null(strstr(message, "root; n0; n1;"));
  assert_non_null(strstr(message, "; n199"));
  grt_status_free(status);
}

static void test_code_names(void** state) {
  (void)state;
  assert_string_equal(grt_status_code_name(GRT_STATUS_INVALID_ARGUMENT),
                      "INVALID_ARGUMENT");
  assert_string_equal(grt_status_code_name(GRT_STATUS_INCOMPATIBLE),
                      "INCOMPATIBLE");
  assert_string_equal(grt_status_code_name(GRT_STATUS_DEFERRED), "DEFERRED");
  // Failures a program may raise end before DEFERRED (vm.fail, fence.fail).
  assert_int_equal(GRT_STATUS_FAILURE_CODE_END, GRT_STATUS_DEFERRED);
  assert_int_equal(GRT_STATUS_FAILURE_CODE_END - 1, GRT_STATUS_INCOMPATIBLE);
  assert_string_equal(grt_status_code_name((grt_status_code_t)999),
                      "INVALID_STATUS_CODE");
  // OK is not a failure code; asking for it yields INTERNAL rather than NULL.
  grt_status_t status = grt_make_status(GRT_STATUS_OK, "oops");
  assert_int_equal(grt_status_code(status), GRT_STATUS_INTERNAL);
  assert_false(grt_status_consume_ok(status));
  assert_true(grt_status_consume_ok(grt_ok_status()));
}

static void test_clone_is_independent(void** state) {
  (void)state;
  assert_null(grt_status_clone(grt_ok_status()));
  grt_status_t original = grt_make_status(GRT_STATUS_ABORTED, "kernel %d", 7);
  original = grt_status_annotate(original, "while running");
  grt_status_t copy = grt_status_clone(original);
  assert_true(copy != original);
  assert_int_equal(grt_status_code(copy), GRT_STATUS_ABORTED);
  assert_string_equal(grt_status_message(copy), "kernel 7; while running");
  grt_status_free(original);
  copy = grt_status_annotate(copy, "later");
  assert_string_equal(grt_status_message(copy),
                      "kernel 7; while running; later");
  grt_status_free(copy);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ok_is_null),
      cmocka_unit_test(test_message_and_annotations),
      cmocka_unit_test(test_format_truncates_but_reports_length),
      cmocka_unit_test(test_many_annotations_grow),
      cmocka_unit_test(test_code_names),
      cmocka_unit_test(test_clone_is_independent),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
