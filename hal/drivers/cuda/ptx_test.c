// PTX module checks without a driver (ptx.h).
#include "hal/drivers/cuda/ptx.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/status_matchers.h"

static const char kModule[] =
    "//\n// Generated\n//\n.version 8.0\n.target sm_80\n"
    ".address_size 64\n\n"
    ".visible .entry add_f32(\n\t.param .u64 add_f32_param_0\n)\n{\n\tret;\n}\n"
    ".visible .entry noop()\n{\n\tret;\n}\n";

static const grt_hal_entry_point_info_t kEntries[] = {
    {{"add_f32", 7}, 1, 0, {64, 1, 1}, NULL, NULL},
    {{"noop", 4}, 0, 0, {64, 1, 1}, NULL, NULL},
};

static grt_status_t validate(const void* data, size_t size,
                             size_t* out_length) {
  return grt_hal_cuda_ptx_validate((const uint8_t*)data, size, kEntries, 2,
                                   out_length);
}

static void test_text_with_and_without_nul(void** state) {
  (void)state;
  size_t length = 0;
  GRT_EXPECT_OK(validate(kModule, sizeof(kModule), &length));
  assert_int_equal(length, strlen(kModule));
  GRT_EXPECT_OK(validate(kModule, strlen(kModule), &length));
  assert_int_equal(length, strlen(kModule));
  // NUL padding after the text (alignment in a flatbuffer) is fine.
  char padded[sizeof(kModule) + 7];
  memset(padded, 0, sizeof(padded));
  memcpy(padded, kModule, strlen(kModule));
  GRT_EXPECT_OK(validate(padded, sizeof(padded), &length));
  assert_int_equal(length, strlen(kModule));
}

static void test_bad_modules(void** state) {
  (void)state;
  size_t length = 99;
  grt_expect_error(validate(kModule, 0, &length), GRT_STATUS_INCOMPATIBLE,
                   "the module is empty");
  assert_int_equal(length, 0);
  char copy[sizeof(kModule) + 4];
  memcpy(copy, kModule, sizeof(kModule));
  copy[10] = (char)0xc3;
  grt_expect_error(validate(copy, sizeof(kModule), &length),
                   GRT_STATUS_INCOMPATIBLE,
                   "the module is not PTX text: byte 0xc3 at offset 10");
  memcpy(copy, kModule, sizeof(kModule));
  copy[sizeof(kModule)] = 'x';
  grt_expect_error(validate(copy, sizeof(kModule) + 1, &length),
                   GRT_STATUS_INCOMPATIBLE,
                   "data after its terminating NUL (byte 0x78 at offset");
  const char no_version[] = ".target sm_80\n.entry add_f32()\n.entry noop()\n";
  grt_expect_error(validate(no_version, strlen(no_version), &length),
                   GRT_STATUS_INCOMPATIBLE, "has no .version directive");
  // ".versionx" and "x.version" are not the directive.
  const char fake_version[] = ".versionx 8.0\nx.version 8.0\n";
  grt_expect_error(validate(fake_version, strlen(fake_version), &length),
                   GRT_STATUS_INCOMPATIBLE, "has no .version directive");
}

static void test_entry_points_must_be_declared(void** state) {
  (void)state;
  size_t length = 0;
  // A longer name that starts with the expected one does not count.
  const char prefix[] =
      ".version 8.0\n.entry add_f32x()\n{ret;}\n.entry noop(){ret;}\n";
  grt_expect_error(validate(prefix, strlen(prefix), &length),
                   GRT_STATUS_INCOMPATIBLE,
                   "binary has no entry point 'add_f32' (no '.entry add_f32' "
                   "in the PTX)");
  const char missing[] = ".version 8.0\n.entry add_f32(){ret;}\n";
  grt_expect_error(validate(missing, strlen(missing), &length),
                   GRT_STATUS_INCOMPATIBLE, "binary has no entry point 'noop'");
  // A .func of the name is not an entry point.
  const char func[] =
      ".version 8.0\n.entry add_f32(){ret;}\n.func noop(){ret;}\n";
  grt_expect_error(validate(func, strlen(func), &length),
                   GRT_STATUS_INCOMPATIBLE, "binary has no entry point 'noop'");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_text_with_and_without_nul),
      cmocka_unit_test(test_bad_modules),
      cmocka_unit_test(test_entry_points_must_be_declared),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
