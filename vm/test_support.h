// Helpers shared by the vm/ cmocka tests: checking a failure's code and
// message in one line. Include after <cmocka.h>.
#ifndef GRT_VM_TEST_SUPPORT_H_
#define GRT_VM_TEST_SUPPORT_H_

#include <stdio.h>
#include <string.h>

#include "base/status.h"

// Asserts |status| is OK, printing the message when it is not.
#define GRT_VM_EXPECT_OK(expr)                                   \
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
static inline void grt_vm_expect_error(grt_status_t status,
                                       grt_status_code_t code,
                                       const char* fragment) {
  assert_non_null(status);
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

#endif  // GRT_VM_TEST_SUPPORT_H_
