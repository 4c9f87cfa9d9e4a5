// add.vmfb (add.mlir with the test kernel library, built by make_module)
// through the embedding API: tensor<1000xf32> addition on a real CPU
// kernel, on local-sync and on local-task with 4 workers, with the one-shot
// and the reusable (indirect bindings) command buffer; and the errors a
// caller sees for a wrong shape, a wrong argument count and an unknown
// function.
//
//   runtime_e2e_add_test ADD.vmfb
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hal/transfer.h"
#include "runtime/session.h"
#include "vm/test_support.h"

#define N 1000

static const char* module_path;

typedef struct fixture_t {
  grt_runtime_instance_t* instance;
  grt_hal_device_t* device;
  grt_runtime_session_t* session;
} fixture_t;

static int setup_device(void** state, const char* uri, uint32_t worker_count) {
  fixture_t* f = calloc(1, sizeof(*f));
  assert_non_null(f);
  GRT_EXPECT_OK(grt_runtime_instance_create(NULL, &f->instance));
  grt_hal_device_options_t options = {worker_count};
  GRT_EXPECT_OK(grt_runtime_instance_create_device(f->instance, uri, &options, &f->device));
  GRT_EXPECT_OK(grt_runtime_session_create(f->instance, f->device, &f->session));
  GRT_EXPECT_OK(grt_runtime_session_append_module_from_file(f->session, module_path));
  *state = f;
  return 0;
}

static int setup_local_sync(void** state) { return setup_device(state, "local-sync", 0); }
static int setup_local_task(void** state) { return setup_device(state, "local-task", 4); }

static int teardown(void** state) {
  fixture_t* f = *state;
  grt_runtime_session_release(f->session);
  grt_hal_device_release(f->device);
  grt_runtime_instance_release(f->instance);
  free(f);
  return 0;
}

static grt_hal_buffer_view_t* make_view(fixture_t* f, grt_hal_dim_t count, const float* data) {
  grt_hal_buffer_view_t* view = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
      f->device, &count, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, data,
      (size_t)count * sizeof(float), &view));
  return view;
}

// Calls |function| on a[i] = i, b[i] = 0.25 - 2i and checks every element
// of the sum (exact: each sum is representable).
static void check_add(fixture_t* f, const char* function) {
  static float a[N], b[N], out[N];
  for (int i = 0; i < N; ++i) {
    a[i] = (float)i;
    b[i] = 0.25f - 2.0f * (float)i;
  }
  grt_hal_buffer_view_t* inputs[2] = {make_view(f, N, a), make_view(f, N, b)};
  grt_hal_buffer_view_t* output = NULL;
  size_t output_count = 0;
  GRT_EXPECT_OK(grt_runtime_call_buffer_views(f->session, function, 2, inputs, 1, &output,
                                                 &output_count));
  assert_int_equal(output_count, 1);
  assert_int_equal(grt_hal_buffer_view_rank(output), 1);
  assert_int_equal(grt_hal_buffer_view_dim(output, 0), N);
  assert_int_equal(grt_hal_buffer_view_element_type(output), GRT_HAL_ELEMENT_TYPE_FLOAT_32);
  memset(out, 0, sizeof(out));
  GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(f->device, output, out, sizeof(out)));
  for (int i = 0; i < N; ++i) {
    if (out[i] != a[i] + b[i]) {
      fail_msg("%s: element %d is %g, expected %g", function, i, (double)out[i],
               (double)(a[i] + b[i]));
    }
  }
  grt_hal_buffer_view_release(output);
  grt_hal_buffer_view_release(inputs[1]);
  grt_hal_buffer_view_release(inputs[0]);
}

static void test_add(void** state) {
  fixture_t* f = *state;
  check_add(f, "add.main");
  // Twice: nothing of the first call is left to get in the way.
  check_add(f, "main");
}

static void test_add_reusable(void** state) {
  fixture_t* f = *state;
  check_add(f, "add.main_reusable");
}

// The program's own buffer_view.assert rejects a wrong shape, naming the
// argument; the message travels back with the invocation's name.
static void test_wrong_shape(void** state) {
  fixture_t* f = *state;
  static const float data[N + 1] = {0};
  grt_hal_buffer_view_t* inputs[2] = {make_view(f, N, data), make_view(f, N + 1, data)};
  grt_hal_buffer_view_t* output = NULL;
  size_t output_count = 0;
  grt_expect_error(
      grt_runtime_call_buffer_views(f->session, "add.main", 2, inputs, 1, &output,
                                    &output_count),
      GRT_STATUS_INVALID_ARGUMENT,
      "argument 1: expected tensor<1000xf32>, got tensor<1001xf32>");
  assert_null(output);
  grt_hal_buffer_view_release(inputs[0]);
  inputs[0] = make_view(f, 10, data);
  grt_expect_error(
      grt_runtime_call_buffer_views(f->session, "add.main_reusable", 2, inputs, 1, &output,
                                    &output_count),
      GRT_STATUS_INVALID_ARGUMENT,
      "argument 0: expected tensor<1000xf32>, got tensor<10xf32>");
  grt_hal_buffer_view_release(inputs[1]);
  grt_hal_buffer_view_release(inputs[0]);
}

static void test_wrong_argument_count(void** state) {
  fixture_t* f = *state;
  static const float data[N] = {0};
  grt_hal_buffer_view_t* input = make_view(f, N, data);
  grt_hal_buffer_view_t* output = NULL;
  size_t output_count = 0;
  grt_expect_error(grt_runtime_call_buffer_views(f->session, "add.main", 1, &input, 1,
                                                    &output, &output_count),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "main: argument 1 (ref) is missing: 1 given");
  grt_hal_buffer_view_release(input);
}

static void test_unknown_function(void** state) {
  fixture_t* f = *state;
  grt_hal_buffer_view_t* output = NULL;
  size_t output_count = 0;
  grt_expect_error(
      grt_runtime_call_buffer_views(f->session, "add.mian", 0, NULL, 1, &output,
                                    &output_count),
      GRT_STATUS_NOT_FOUND,
      "module 'add' has no function 'mian'; it exports: main, main_reusable");
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s ADD.vmfb\n", argv[0]);
    return 2;
  }
  module_path = argv[1];
  const struct CMUnitTest local_sync[] = {
      cmocka_unit_test(test_add),
      cmocka_unit_test(test_add_reusable),
      cmocka_unit_test(test_wrong_shape),
      cmocka_unit_test(test_wrong_argument_count),
      cmocka_unit_test(test_unknown_function),
  };
  const struct CMUnitTest local_task[] = {
      cmocka_unit_test(test_add),
      cmocka_unit_test(test_add_reusable),
      cmocka_unit_test(test_wrong_shape),
  };
  int failures = cmocka_run_group_tests_name("local-sync", local_sync, setup_local_sync,
                                             teardown);
  failures += cmocka_run_group_tests_name("local-task", local_task, setup_local_task,
                                          teardown);
  return failures;
}
