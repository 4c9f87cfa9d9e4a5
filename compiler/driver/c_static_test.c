// --output-format=c-static end to end: grt-compile wrote e2e_dense.c and
// e2e_dense.h (testdata/dense_relu.mlir with --c-static-name=e2e_dense) at
// build time; the C file is linked into this test and the header included. The module's executable names the
// static kernel library instead of holding a shared object, and runs on
// local-sync and local-task once the library is registered.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/status_matchers.h"
#include "hal/transfer.h"
#include "runtime/session.h"

#include "e2e_dense.h"  // generated: e2e_dense_vmfb, _size, _register

static void test_executable_is_static(void** state) {
  assert_int_equal((uintptr_t)e2e_dense_vmfb % 64, 0);
  grt_module_file_t* file = NULL;
  GRT_EXPECT_OK(grt_module_file_open_memory(
      grt_make_const_byte_span(e2e_dense_vmfb, e2e_dense_vmfb_size), grt_allocator_system(),
      &file));
  assert_int_equal(grt_module_file_info(file)->executable_count, 1);
  grt_module_executable_t executable = grt_module_file_executable(file, 0);
  assert_true(grt_string_view_equal_cstring(executable.format, "cpu-static"));
  assert_int_equal(executable.binary.size, strlen("e2e_dense"));
  assert_memory_equal(executable.binary.data, "e2e_dense", executable.binary.size);
  grt_module_file_release(file);
}

static void run_on(const char* uri) {
  grt_runtime_instance_t* instance = NULL;
  GRT_EXPECT_OK(grt_runtime_instance_create(NULL, &instance));
  grt_hal_device_t* device = NULL;
  GRT_EXPECT_OK(grt_runtime_instance_create_device(instance, uri, NULL, &device));
  grt_runtime_session_t* session = NULL;
  GRT_EXPECT_OK(grt_runtime_session_create(instance, device, &session));
  GRT_EXPECT_OK(grt_runtime_session_append_module_from_memory(
      session, grt_make_const_byte_span(e2e_dense_vmfb, e2e_dense_vmfb_size)));

  static const float x[6] = {1, -2, 3, -4, 5, -6};
  static const float w[12] = {0.5f, -1, 2, 0.25f, 1, 1, -1, 0, -0.5f, 2, 1, 3};
  static const float b[4] = {0.1f, -8, 0.2f, 1};
  const grt_hal_dim_t x_dims[2] = {2, 3}, w_dims[2] = {3, 4}, b_dims[1] = {4};
  grt_hal_buffer_view_t* inputs[3] = {NULL, NULL, NULL};
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
      device, x_dims, 2, GRT_HAL_ELEMENT_TYPE_FLOAT_32, x, sizeof(x), &inputs[0]));
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
      device, w_dims, 2, GRT_HAL_ELEMENT_TYPE_FLOAT_32, w, sizeof(w), &inputs[1]));
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
      device, b_dims, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, b, sizeof(b), &inputs[2]));
  grt_hal_buffer_view_t* output = NULL;
  size_t output_count = 0;
  GRT_EXPECT_OK(
      grt_runtime_call_buffer_views(session, "main", 3, inputs, 1, &output, &output_count));
  float result[8];
  GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(device, output, result, sizeof(result)));
  for (int m = 0; m < 2; ++m) {
    for (int n = 0; n < 4; ++n) {
      float sum = b[n];
      for (int k = 0; k < 3; ++k) sum += x[m * 3 + k] * w[k * 4 + n];
      float want = sum > 0 ? sum : 0;
      if (result[m * 4 + n] != want) {
        fail_msg("%s: element (%d, %d) is %g, expected %g", uri, m, n,
                 (double)result[m * 4 + n], (double)want);
      }
    }
  }
  grt_hal_buffer_view_release(output);
  for (int i = 0; i < 3; ++i) grt_hal_buffer_view_release(inputs[i]);
  grt_runtime_session_release(session);
  grt_hal_device_release(device);
  grt_runtime_instance_release(instance);
}

static void test_runs_after_registering(void** state) {
  GRT_EXPECT_OK(e2e_dense_register());
  GRT_EXPECT_OK(e2e_dense_register());  // twice is OK: it is there already
  run_on("local-sync");
  run_on("local-task");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_executable_is_static),
      cmocka_unit_test(test_runs_after_registering),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
