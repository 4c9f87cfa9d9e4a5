// hal executables: owned entry point copies, the module-vs-binary check,
// and executable cache parameter validation.
#include "hal/executable.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hal/test_support.h"

#define SV(text) grt_make_cstring_view(text)

static void test_initialize_copies(void** state) {
  (void)state;
  char name0[] = "add";
  char name1[] = "mul";
  grt_hal_entry_point_info_t entry_points[2] = {
      {grt_make_string_view(name0, 3), 3, 0, {64, 1, 1}, NULL, NULL},
      {grt_make_string_view(name1, 3), 2, 1, {8, 8, 1}, NULL, NULL},
  };
  uint8_t digest[GRT_HAL_EXECUTABLE_DIGEST_SIZE];
  for (int i = 0; i < GRT_HAL_EXECUTABLE_DIGEST_SIZE; ++i) digest[i] = (uint8_t)i;
  uint8_t binary[4] = {1, 2, 3, 4};
  grt_hal_executable_params_t params = {SV("cpu-x86_64"), binary, 4, digest,
                                        entry_points, 2};
  grt_hal_executable_t* executable = NULL;
  GRT_EXPECT_OK(grt_hal_test_executable_create(&params, &executable));
  // The header owns its copies: the caller's strings may change.
  name0[0] = 'X';
  memset(digest, 0xFF, sizeof(digest));
  assert_int_equal(grt_hal_executable_entry_point_count(executable), 2);
  const grt_hal_entry_point_info_t* info = NULL;
  GRT_EXPECT_OK(grt_hal_executable_entry_point(executable, 0, &info));
  assert_true(grt_string_view_equal_cstring(info->name, "add"));
  assert_int_equal(info->binding_count, 3);
  GRT_EXPECT_OK(grt_hal_executable_entry_point(executable, 1, &info));
  assert_true(grt_string_view_equal_cstring(info->name, "mul"));
  assert_int_equal(info->workgroup_size[1], 8);
  assert_int_equal(executable->digest[31], 31);
  grt_expect_error(grt_hal_executable_entry_point(executable, 5, &info),
                       GRT_STATUS_OUT_OF_RANGE,
                       "entry point 5 is out of range (executable has 2)");
  grt_hal_executable_release(executable);

  params.entry_point_count = 0;
  GRT_EXPECT_OK(grt_hal_test_executable_create(&params, &executable));
  assert_int_equal(grt_hal_executable_entry_point_count(executable), 0);
  grt_hal_executable_release(executable);
}

// The per-binding tables are copied too, and take part in equality (what
// caches compare before sharing an executable between modules).
static void test_binding_tables_copied_and_compared(void** state) {
  (void)state;
  uint8_t access[3] = {1, 1, 2};
  uint64_t lengths[3] = {40, 40, 40};
  grt_hal_entry_point_info_t entry_points[2] = {
      {SV("add"), 3, 0, {1, 1, 1}, access, lengths},
      {SV("copy"), 3, 0, {1, 1, 1}, access, NULL},
  };
  uint8_t digest[GRT_HAL_EXECUTABLE_DIGEST_SIZE] = {0};
  uint8_t binary[4] = {1, 2, 3, 4};
  grt_hal_executable_params_t params = {SV("cpu-x86_64"), binary, 4, digest,
                                        entry_points, 2};
  grt_hal_executable_t* executable = NULL;
  GRT_EXPECT_OK(grt_hal_test_executable_create(&params, &executable));
  const grt_hal_entry_point_info_t* info = NULL;
  GRT_EXPECT_OK(grt_hal_executable_entry_point(executable, 0, &info));
  assert_true(grt_hal_entry_point_info_equal(info, &entry_points[0]));
  assert_false(grt_hal_entry_point_info_equal(info, &entry_points[1]));
  access[2] = 3;
  lengths[1] = 4;
  // The copies keep what the module said.
  assert_int_equal(info->binding_access[2], 2);
  assert_true(info->binding_min_lengths[1] == 40);
  assert_true(grt_hal_entry_point_writes_binding(info, 2));
  assert_false(grt_hal_entry_point_writes_binding(info, 0));
  assert_true(grt_hal_entry_point_binding_min_length(info, 1) == 40);
  assert_false(grt_hal_entry_point_info_equal(info, &entry_points[0]));
  GRT_EXPECT_OK(grt_hal_executable_entry_point(executable, 1, &info));
  assert_null(info->binding_min_lengths);
  assert_true(grt_hal_entry_point_binding_min_length(info, 1) == 0);
  // Without an access table every binding may be written.
  grt_hal_entry_point_info_t unknown = {SV("k"), 2, 0, {1, 1, 1}, NULL, NULL};
  assert_true(grt_hal_entry_point_writes_binding(&unknown, 0));
  grt_hal_executable_release(executable);
}

static void test_check_entry_points(void** state) {
  (void)state;
  grt_hal_entry_point_info_t expected[2] = {
      {SV("add"), 3, 0, {64, 1, 1}, NULL, NULL},
      {SV("mul"), 3, 1, {0, 0, 0}, NULL, NULL},
  };
  grt_hal_entry_point_info_t actual[3] = {
      {SV("mul"), 3, 1, {4, 4, 1}, NULL, NULL},  // order may differ; 0 sizes match any
      {SV("add"), 3, 0, {64, 1, 1}, NULL, NULL},
      {SV("extra"), 1, 0, {1, 1, 1}, NULL, NULL},
  };
  GRT_EXPECT_OK(grt_hal_executable_check_entry_points(SV("cpu-x86_64"),
                                                          expected, 2, actual, 2));
  grt_expect_error(
      grt_hal_executable_check_entry_points(SV("cpu-x86_64"), expected, 2,
                                            actual, 3),
      GRT_STATUS_INCOMPATIBLE,
      "executable cpu-x86_64: module expects 2 entry points, binary has 3");
  grt_expect_error(
      grt_hal_executable_check_entry_points(SV("cpu-x86_64"), expected, 2,
                                            actual + 1, 2),
      GRT_STATUS_INCOMPATIBLE,
      "executable cpu-x86_64: binary has no entry point 'mul'");
  actual[0].binding_count = 2;
  grt_expect_error(
      grt_hal_executable_check_entry_points(SV("cpu-x86_64"), expected, 2,
                                            actual, 2),
      GRT_STATUS_INCOMPATIBLE,
      "executable cpu-x86_64: entry point 1 'mul': module expects 3 bindings, "
      "binary has 2");
  actual[0].binding_count = 3;
  actual[0].constant_count = 4;
  grt_expect_error(
      grt_hal_executable_check_entry_points(SV("cpu-x86_64"), expected, 2,
                                            actual, 2),
      GRT_STATUS_INCOMPATIBLE,
      "executable cpu-x86_64: entry point 1 'mul': module expects 1 constants, "
      "binary has 4");
  actual[0].constant_count = 1;
  actual[1].workgroup_size[0] = 32;
  grt_expect_error(
      grt_hal_executable_check_entry_points(SV("cpu-x86_64"), expected, 2,
                                            actual, 2),
      GRT_STATUS_INCOMPATIBLE,
      "executable cpu-x86_64: entry point 0 'add': module expects workgroup "
      "size 64x1x1, binary has 32x1x1");
}

// A cache that accepts one format and counts preparations.
typedef struct test_cache_t {
  grt_hal_executable_cache_t base;
  int prepare_count;
} test_cache_t;

static void test_cache_destroy(grt_hal_resource_t* resource) { (void)resource; }

static bool test_cache_can_prepare(grt_hal_executable_cache_t* cache,
                                   grt_string_view_t format) {
  (void)cache;
  return grt_string_view_equal_cstring(format, "cpu-test");
}

static grt_status_t test_cache_prepare(grt_hal_executable_cache_t* cache,
                                       const grt_hal_executable_params_t* params,
                                       grt_hal_executable_t** out) {
  ++((test_cache_t*)cache)->prepare_count;
  return grt_hal_test_executable_create(params, out);
}

static const grt_hal_executable_cache_vtable_t test_cache_vtable = {
    .base = {.destroy = test_cache_destroy},
    .can_prepare_format = test_cache_can_prepare,
    .prepare_executable = test_cache_prepare,
};

static void test_cache_prepare_checks(void** state) {
  (void)state;
  test_cache_t cache;
  memset(&cache, 0, sizeof(cache));
  grt_hal_resource_initialize(&test_cache_vtable, &cache.base.resource);
  uint8_t digest[GRT_HAL_EXECUTABLE_DIGEST_SIZE] = {0};
  uint8_t binary[4] = {1, 2, 3, 4};
  grt_hal_entry_point_info_t entry = {SV("k"), 1, 0, {1, 1, 1}, NULL, NULL};
  grt_hal_executable_params_t params = {SV("cpu-test"), binary, 4, digest,
                                        &entry, 1};
  grt_hal_executable_t* executable = NULL;
  assert_true(grt_hal_executable_cache_can_prepare_format(&cache.base,
                                                          SV("cpu-test")));
  GRT_EXPECT_OK(
      grt_hal_executable_cache_prepare(&cache.base, &params, &executable));
  assert_int_equal(cache.prepare_count, 1);
  grt_hal_executable_release(executable);

  params.format = SV("cuda-ptx");
  grt_expect_error(
      grt_hal_executable_cache_prepare(&cache.base, &params, &executable),
      GRT_STATUS_INCOMPATIBLE, "device cannot run executable format 'cuda-ptx'");
  params.format = SV("cpu-test");
  params.digest = NULL;
  grt_expect_error(
      grt_hal_executable_cache_prepare(&cache.base, &params, &executable),
      GRT_STATUS_INVALID_ARGUMENT, "executable cpu-test has no digest");
  params.digest = digest;
  params.binary_size = 0;
  grt_expect_error(
      grt_hal_executable_cache_prepare(&cache.base, &params, &executable),
      GRT_STATUS_INVALID_ARGUMENT, "executable cpu-test has an empty binary");
  params.binary_size = 4;
  params.entry_points = NULL;
  grt_expect_error(
      grt_hal_executable_cache_prepare(&cache.base, &params, &executable),
      GRT_STATUS_INVALID_ARGUMENT,
      "executable cpu-test: 1 entry points but no table");
  assert_int_equal(cache.prepare_count, 1);
  assert_null(executable);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_initialize_copies),
      cmocka_unit_test(test_binding_tables_copied_and_compared),
      cmocka_unit_test(test_check_entry_points),
      cmocka_unit_test(test_cache_prepare_checks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
