// The whole compiler end to end: StableHLO text compiled in-process by
// grtc_compile_source (front-end, passes, dispatch formation, CPU kernels
// built with cc, host program) and run through the embedding API on
// local-sync and local-task, at -O0 (one kernel per op) and -O2 (fused).
// Each case (testdata/<name>.mlir) has its expected values computed here in
// C from its inputs.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/file.h"
#include "base/status_matchers.h"
#include "compiler/driver/driver.h"
#include "hal/transfer.h"
#include "runtime/session.h"

#define MAX_INPUTS 3
#define MAX_ELEMENTS 64

typedef struct tensor_t {
  uint32_t rank;
  grt_hal_dim_t dims[4];
  float data[MAX_ELEMENTS];
} tensor_t;

typedef struct case_t {
  const char* name;  // testdata/<name>.mlir
  char* source;
  uint32_t input_count;
  tensor_t inputs[MAX_INPUTS];
  tensor_t expected;
} case_t;

static uint64_t element_count(const tensor_t* t) {
  uint64_t n = 1;
  for (uint32_t i = 0; i < t->rank; ++i) n *= (uint64_t)t->dims[i];
  return n;
}

static case_t cases[3];

static void make_cases(void) {
  case_t* add = &cases[0];
  add->name = "add";
  add->input_count = 2;
  for (int t = 0; t < 2; ++t) {
    add->inputs[t].rank = 1;
    add->inputs[t].dims[0] = 4;
  }
  add->expected.rank = 1;
  add->expected.dims[0] = 4;
  for (int i = 0; i < 4; ++i) {
    add->inputs[0].data[i] = (float)i + 0.5f;
    add->inputs[1].data[i] = 10.0f * (float)i - 3.0f;
    add->expected.data[i] = add->inputs[0].data[i] + add->inputs[1].data[i];
  }

  case_t* dense = &cases[1];
  dense->name = "dense_relu";
  dense->input_count = 3;
  tensor_t* x = &dense->inputs[0];
  tensor_t* w = &dense->inputs[1];
  tensor_t* b = &dense->inputs[2];
  *x = (tensor_t){2, {2, 3}, {1, -2, 3, -4, 5, -6}};
  *w = (tensor_t){2, {3, 4}, {0.5f, -1, 2, 0.25f, 1, 1, -1, 0, -0.5f, 2, 1, 3}};
  *b = (tensor_t){1, {4}, {0.1f, -8, 0.2f, 1}};
  dense->expected = (tensor_t){2, {2, 4}, {0}};
  for (int m = 0; m < 2; ++m) {
    for (int n = 0; n < 4; ++n) {
      float sum = 0;
      for (int k = 0; k < 3; ++k) sum += x->data[m * 3 + k] * w->data[k * 4 + n];
      sum += b->data[n];
      dense->expected.data[m * 4 + n] = sum > 0 ? sum : 0;
    }
  }

  case_t* constant_sum = &cases[2];
  constant_sum->name = "constant_sum";
  constant_sum->input_count = 1;
  constant_sum->inputs[0] = (tensor_t){2, {2, 20}, {0}};
  constant_sum->expected = (tensor_t){1, {2}, {0}};
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 20; ++c) {
      float v = (float)((r * 7 + c) % 5) - 1.5f;
      constant_sum->inputs[0].data[r * 20 + c] = v;
      constant_sum->expected.data[r] += v * (float)(r * 20 + c);
    }
  }
}

static const char* testdata_dir;

static char* read_testdata(const char* name) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/%s.mlir", testdata_dir, name);
  grt_file_contents_t contents = {0};
  GRT_EXPECT_OK(grt_file_read_contents(path, grt_allocator_system(), &contents));
  char* text = malloc(contents.size + 1);
  assert_non_null(text);
  memcpy(text, contents.data, contents.size);
  text[contents.size] = '\0';
  grt_file_contents_free(&contents);
  return text;
}

typedef struct fixture_t {
  grt_runtime_instance_t* instance;
  grt_hal_device_t* device;
} fixture_t;

static int setup_device(void** state, const char* uri, uint32_t worker_count) {
  fixture_t* f = calloc(1, sizeof(*f));
  assert_non_null(f);
  GRT_EXPECT_OK(grt_runtime_instance_create(NULL, &f->instance));
  grt_hal_device_options_t options = {worker_count};
  GRT_EXPECT_OK(grt_runtime_instance_create_device(f->instance, uri, &options, &f->device));
  *state = f;
  return 0;
}

static int setup_local_sync(void** state) { return setup_device(state, "local-sync", 0); }
static int setup_local_task(void** state) { return setup_device(state, "local-task", 2); }

static int teardown(void** state) {
  fixture_t* f = *state;
  grt_hal_device_release(f->device);
  grt_runtime_instance_release(f->instance);
  free(f);
  return 0;
}

// Compiles |c| at |level|, runs @main once on the fixture's device and
// checks every element of the result.
static void run_case(fixture_t* f, const case_t* c, grtc_opt_level_t level) {
  grt_allocator_t allocator = grt_allocator_system();
  grt_module_writer_t* writer = NULL;
  GRT_EXPECT_OK(grt_module_writer_create(allocator, &writer));
  grtc_compile_options_t options = {.opt_level = level};
  grt_status_t status =
      grtc_compile_source(c->source, strlen(c->source), c->name, &options, allocator, writer);
  if (!grt_status_is_ok(status)) {
    fail_msg("%s at -O%d does not compile: %s", c->name, (int)level - 1,
             grt_status_message(status));
  }
  void* bytes = NULL;
  size_t size = 0;
  GRT_EXPECT_OK(grt_module_writer_finish(writer, &bytes, &size));
  grt_module_writer_destroy(writer);

  grt_runtime_session_t* session = NULL;
  GRT_EXPECT_OK(grt_runtime_session_create(f->instance, f->device, &session));
  GRT_EXPECT_OK(grt_runtime_session_append_module_from_memory(
      session, grt_make_const_byte_span(bytes, size)));
  grt_hal_buffer_view_t* inputs[MAX_INPUTS] = {0};
  for (uint32_t i = 0; i < c->input_count; ++i) {
    const tensor_t* t = &c->inputs[i];
    GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
        f->device, t->dims, t->rank, GRT_HAL_ELEMENT_TYPE_FLOAT_32, t->data,
        element_count(t) * sizeof(float), &inputs[i]));
  }
  grt_hal_buffer_view_t* output = NULL;
  size_t output_count = 0;
  status = grt_runtime_call_buffer_views(session, "main", c->input_count, inputs, 1, &output,
                                         &output_count);
  if (!grt_status_is_ok(status)) {
    fail_msg("%s at -O%d fails to run: %s", c->name, (int)level - 1,
             grt_status_message(status));
  }
  assert_int_equal(output_count, 1);
  GRT_EXPECT_OK(grt_hal_buffer_view_check(output, c->expected.dims, c->expected.rank,
                                          GRT_HAL_ELEMENT_TYPE_FLOAT_32));
  float result[MAX_ELEMENTS];
  uint64_t n = element_count(&c->expected);
  GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(f->device, output, result, n * sizeof(float)));
  for (uint64_t i = 0; i < n; ++i) {
    float want = c->expected.data[i];
    if (fabsf(result[i] - want) > 1e-5f * (1.0f + fabsf(want))) {
      fail_msg("%s at -O%d: element %llu is %g, expected %g", c->name, (int)level - 1,
               (unsigned long long)i, (double)result[i], (double)want);
    }
  }
  grt_hal_buffer_view_release(output);
  for (uint32_t i = 0; i < c->input_count; ++i) grt_hal_buffer_view_release(inputs[i]);
  grt_runtime_session_release(session);
  grt_allocator_free(allocator, bytes);
}

static void test_cases(void** state) {
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    run_case(*state, &cases[i], GRTC_OPT_O0);
    run_case(*state, &cases[i], GRTC_OPT_DEFAULT);
  }
}

// A wrong argument shape is caught by the compiled program's own checks.
static void test_wrong_input_shape(void** state) {
  fixture_t* f = *state;
  grt_allocator_t allocator = grt_allocator_system();
  grt_module_writer_t* writer = NULL;
  GRT_EXPECT_OK(grt_module_writer_create(allocator, &writer));
  grtc_compile_options_t options = {0};
  GRT_EXPECT_OK(grtc_compile_source(cases[0].source, strlen(cases[0].source), "add.mlir",
                                    &options, allocator, writer));
  void* bytes = NULL;
  size_t size = 0;
  GRT_EXPECT_OK(grt_module_writer_finish(writer, &bytes, &size));
  grt_module_writer_destroy(writer);
  grt_runtime_session_t* session = NULL;
  GRT_EXPECT_OK(grt_runtime_session_create(f->instance, f->device, &session));
  GRT_EXPECT_OK(grt_runtime_session_append_module_from_memory(
      session, grt_make_const_byte_span(bytes, size)));
  static const float data[5] = {0};
  grt_hal_dim_t four = 4, five = 5;
  grt_hal_buffer_view_t* inputs[2] = {NULL, NULL};
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
      f->device, &four, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, data, 4 * sizeof(float), &inputs[0]));
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
      f->device, &five, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, data, 5 * sizeof(float), &inputs[1]));
  grt_hal_buffer_view_t* output = NULL;
  size_t output_count = 0;
  grt_expect_error(
      grt_runtime_call_buffer_views(session, "main", 2, inputs, 1, &output, &output_count),
      GRT_STATUS_INVALID_ARGUMENT, "argument 1: expected tensor<4xf32>, got tensor<5xf32>");
  grt_hal_buffer_view_release(inputs[1]);
  grt_hal_buffer_view_release(inputs[0]);
  grt_runtime_session_release(session);
  grt_allocator_free(allocator, bytes);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s TESTDATA_DIR\n", argv[0]);
    return 2;
  }
  testdata_dir = argv[1];
  make_cases();
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    cases[i].source = read_testdata(cases[i].name);
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cases),
      cmocka_unit_test(test_wrong_input_shape),
  };
  int failures = cmocka_run_group_tests_name("local-sync", tests, setup_local_sync, teardown);
  failures += cmocka_run_group_tests_name("local-task", tests, setup_local_task, teardown);
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) free(cases[i].source);
  return failures;
}
