// The suite's exceptions list: tests a driver cannot support, each with
// the reason, read from tests/hal_cts/exceptions.txt. A listed test is
// reported skipped with its reason instead of run.
//
// Format, one exception a line: "<driver> <test> <reason...>", where
// <driver> is a device URI's scheme ("vulkan") and <test> a test name as
// `hal_cts --list` prints it. Blank lines and lines starting with '#' are
// ignored.
#ifndef GRT_TESTS_HAL_CTS_EXCEPTIONS_H_
#define GRT_TESTS_HAL_CTS_EXCEPTIONS_H_

#include <stddef.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

// Strings point into the list's own copy of the text, NUL-terminated.
typedef struct grt_hal_cts_exception_t {
  const char* driver;
  const char* test;
  const char* reason;
  size_t line;  // 1-based, for messages
} grt_hal_cts_exception_t;

typedef struct grt_hal_cts_exceptions_t {
  grt_allocator_t allocator;
  char* text;  // owned copy every string points into
  size_t count;
  grt_hal_cts_exception_t* items;
} grt_hal_cts_exceptions_t;

// Parses |text|; |source_name| prefixes error messages ("exceptions.txt:3:
// ..."). Errors: a line without a reason, a second exception for the same
// driver and test.
grt_status_t grt_hal_cts_exceptions_parse(grt_string_view_t text,
                                          const char* source_name,
                                          grt_allocator_t allocator,
                                          grt_hal_cts_exceptions_t* out)
    GRT_MUST_USE;
void grt_hal_cts_exceptions_free(grt_hal_cts_exceptions_t* exceptions);

// NOT_FOUND when an exception names a test that is not among |test_names|
// (a typo would otherwise silently run the test it meant to skip).
grt_status_t grt_hal_cts_exceptions_check_tests(
    const grt_hal_cts_exceptions_t* exceptions, const char* source_name,
    const char* const* test_names, size_t test_count) GRT_MUST_USE;

// The reason |driver| is excused from |test|, or NULL.
const grt_hal_cts_exception_t* grt_hal_cts_exceptions_find(
    const grt_hal_cts_exceptions_t* exceptions, const char* driver,
    const char* test);

#ifdef __cplusplus
}
#endif

#endif  // GRT_TESTS_HAL_CTS_EXCEPTIONS_H_
