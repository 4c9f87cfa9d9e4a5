// base/status.h's GRT_STATUS_MESSAGES=0 macros, compiled into this test
// alone (the library under it keeps its messages): a failure keeps its code
// and no message, and the message arguments are never evaluated.
// tests/install/minimal_test.sh builds a whole runtime this way.
#define GRT_STATUS_MESSAGES 0
#include "base/status.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static int evaluations;

static const char* counted(const char* text) {
  ++evaluations;
  return text;
}

static grt_status_t fail_deep(int depth) {
  if (depth == 0) {
    return grt_make_status(GRT_STATUS_NOT_FOUND, "tensor '%s' not found",
                           counted("x"));
  }
  GRT_RETURN_IF_ERROR_ANNOTATED(fail_deep(depth - 1), "at depth %d (%s)",
                                depth, counted("annotation"));
  return grt_ok_status();
}

static grt_status_t make_v(grt_status_code_t code, const char* format, ...) {
  va_list args;
  va_start(args, format);
  grt_status_t status = grt_make_status_v(code, format, args);
  va_end(args);
  return status;
}

static void test_code_without_message(void** state) {
  (void)state;
  evaluations = 0;
  grt_status_t status = fail_deep(2);
  assert_int_equal(evaluations, 0);
  assert_int_equal(grt_status_code(status), GRT_STATUS_NOT_FOUND);
  assert_string_equal(grt_status_message(status), "");
  grt_status_free(status);

  status = make_v(GRT_STATUS_OUT_OF_RANGE, "index %d", 7);
  assert_int_equal(grt_status_code(status), GRT_STATUS_OUT_OF_RANGE);
  assert_string_equal(grt_status_message(status), "");
  grt_status_free(status);
}

static void test_code_expression_evaluated_once(void** state) {
  (void)state;
  int calls = 0;
  grt_status_code_t codes[] = {GRT_STATUS_ABORTED, GRT_STATUS_INTERNAL};
  grt_status_t status =
      grt_make_status(codes[calls++], "never %s", counted("formatted"));
  assert_int_equal(calls, 1);
  assert_int_equal(grt_status_code(status), GRT_STATUS_ABORTED);
  // Annotating evaluates the status once and leaves it as it was.
  grt_status_t annotated =
      grt_status_annotate((++calls, status), "%s", counted("context"));
  assert_int_equal(calls, 2);
  assert_ptr_equal(annotated, status);
  assert_string_equal(grt_status_message(annotated), "");
  grt_status_free(annotated);
  assert_null(grt_status_annotate(grt_ok_status(), "%s", counted("ok")));
  assert_int_equal(evaluations, 0);
}

static void test_ok_code_becomes_internal(void** state) {
  (void)state;
  grt_status_t status = grt_make_status_code(GRT_STATUS_OK);
  assert_int_equal(grt_status_code(status), GRT_STATUS_INTERNAL);
  grt_status_free(status);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_code_without_message),
      cmocka_unit_test(test_code_expression_evaluated_once),
      cmocka_unit_test(test_ok_code_becomes_internal),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
