// Status assertions for the cmocka tests of every layer: one line to
// require success (printing the failure when there is one) or a failure
// with a given code whose message contains a given fragment. Test-only:
// include after <cmocka.h>; libraries never include it.
#ifndef GRT_BASE_STATUS_MATCHERS_H_
#define GRT_BASE_STATUS_MATCHERS_H_

#include <stdio.h>
#include <string.h>

#include "base/status.h"

// Asserts |expr| is OK, printing the status when it is not.
#define GRT_EXPECT_OK(expr)                                      \
  do {                                                           \
    grt_status_t grt_expect_status_ = (expr);                    \
    if (!grt_status_is_ok(grt_expect_status_)) {                 \
      grt_status_fprint(stderr, grt_expect_status_);             \
      grt_status_free(grt_expect_status_);                       \
      fail_msg("expected OK from %s", #expr);                    \
    }                                                            \
  } while (0)

// Consumes |status|, asserting it failed with |code| and that its message
// contains |fragment|.
static inline void grt_expect_error(grt_status_t status, grt_status_code_t code,
                                    const char* fragment) {
  if (status == NULL) {
    fail_msg("expected %s containing '%s', got OK", grt_status_code_name(code),
             fragment);
  }
  const char* message = grt_status_message(status);
  if (grt_status_code(status) != code || strstr(message, fragment) == NULL) {
    fprintf(stderr, "got %s: %s\nwanted %s containing: %s\n",
            grt_status_code_name(grt_status_code(status)), message,
            grt_status_code_name(code), fragment);
    grt_status_free(status);
    fail();
  }
  grt_status_free(status);
}

#endif  // GRT_BASE_STATUS_MATCHERS_H_
