// Conformance: executables and dispatches (results for sizes that are and
// are not multiples of the workgroup size, push constants, validation, a
// failing kernel).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "base/sha256.h"
#include "tests/hal_cts/cts.h"

#define ONE_SHOT GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT

static const uint32_t kSizes[] = {1, 63, 64, 65, 1000, 4099};
#define SIZE_COUNT (sizeof(kSizes) / sizeof(kSizes[0]))

static void submit(grt_hal_command_buffer_t* cb) {
  GRT_EXPECT_OK(grt_hal_command_buffer_end(cb));
  GRT_EXPECT_OK(grt_hal_cts_submit_and_wait(cb, NULL));
}

static void* host_alloc(size_t size) {
  void* data = NULL;
  GRT_EXPECT_OK(
      grt_allocator_malloc(grt_hal_cts.host_allocator, size, &data));
  return data;
}

static void host_free(void* data) {
  grt_allocator_free(grt_hal_cts.host_allocator, data);
}

// Buffers one element larger than the dispatch covers, with a sentinel in
// the last element: kernels must stay inside their bindings' ranges.
static void test_dispatch_fill_index_u32(void** state) {
  (void)state;
  grt_hal_cts_require_executable();
  for (size_t s = 0; s < SIZE_COUNT; ++s) {
    uint32_t n = kSizes[s];
    grt_hal_buffer_t* buffer = grt_hal_cts_allocate((n + 1) * 4);
    grt_hal_cts_write_bytes(buffer, 0, 0xCD, (n + 1) * 4);
    grt_hal_buffer_ref_t binding = grt_hal_make_buffer_ref(buffer, 0, n * 4);
    uint32_t constant = 7;
    grt_hal_command_buffer_t* cb =
        grt_hal_cts_begin_command_buffer(ONE_SHOT, 0);
    // One workgroup more than needed, to exercise the bounds check.
    GRT_EXPECT_OK(grt_hal_cts_dispatch(
        cb, GRT_HAL_CTS_KERNEL_FILL_INDEX_U32,
        grt_hal_cts_workgroups_for(GRT_HAL_CTS_KERNEL_FILL_INDEX_U32, n) + 1,
        &constant, 1, &binding, 1));
    submit(cb);
    grt_hal_command_buffer_release(cb);
    uint32_t* read = host_alloc((n + 1) * 4);
    uint32_t* expected = host_alloc((n + 1) * 4);
    for (uint32_t i = 0; i < n; ++i) expected[i] = i + 7;
    expected[n] = 0xCDCDCDCDu;
    grt_hal_cts_read(buffer, 0, read, (n + 1) * 4);
    char what[64];
    snprintf(what, sizeof(what), "fill_index_u32 over %u elements", n);
    grt_hal_cts_expect_u32(what, read, expected, n + 1);
    host_free(expected);
    host_free(read);
    grt_hal_buffer_release(buffer);
  }
}

static void test_dispatch_add_f32(void** state) {
  (void)state;
  grt_hal_cts_require_executable();
  for (size_t s = 0; s < SIZE_COUNT; ++s) {
    uint32_t n = kSizes[s];
    float* a = host_alloc(n * 4);
    float* b = host_alloc(n * 4);
    float* expected = host_alloc(n * 4);
    float* read = host_alloc(n * 4);
    for (uint32_t i = 0; i < n; ++i) {
      a[i] = (float)i * 0.25f;
      b[i] = 1000.0f - (float)i;
      expected[i] = a[i] + b[i];
    }
    grt_hal_buffer_t* buffers[3];
    for (int i = 0; i < 3; ++i) buffers[i] = grt_hal_cts_allocate(n * 4);
    grt_hal_cts_write(buffers[0], 0, a, n * 4);
    grt_hal_cts_write(buffers[1], 0, b, n * 4);
    grt_hal_buffer_ref_t bindings[3];
    for (int i = 0; i < 3; ++i) {
      bindings[i] = grt_hal_make_buffer_ref(buffers[i], 0, GRT_HAL_WHOLE_BUFFER);
    }
    grt_hal_command_buffer_t* cb =
        grt_hal_cts_begin_command_buffer(ONE_SHOT, 0);
    GRT_EXPECT_OK(grt_hal_cts_dispatch(
        cb, GRT_HAL_CTS_KERNEL_ADD_F32,
        grt_hal_cts_workgroups_for(GRT_HAL_CTS_KERNEL_ADD_F32, n), NULL, 0,
        bindings, 3));
    submit(cb);
    grt_hal_command_buffer_release(cb);
    grt_hal_cts_read(buffers[2], 0, read, n * 4);
    char what[64];
    snprintf(what, sizeof(what), "add_f32 over %u elements", n);
    grt_hal_cts_expect_f32(what, read, expected, n);
    for (int i = 0; i < 3; ++i) grt_hal_buffer_release(buffers[i]);
    host_free(read);
    host_free(expected);
    host_free(b);
    host_free(a);
  }
}

// The scale arrives as a float's bits in a 32-bit push constant; bindings
// start at a nonzero offset into their buffers.
static void test_dispatch_scale_f32(void** state) {
  (void)state;
  grt_hal_cts_require_executable();
  for (size_t s = 0; s < SIZE_COUNT; ++s) {
    uint32_t n = kSizes[s];
    float* in = host_alloc(n * 4);
    float* expected = host_alloc(n * 4);
    float* read = host_alloc(n * 4);
    const float scale = -2.5f;
    for (uint32_t i = 0; i < n; ++i) {
      in[i] = (float)i - 17.0f;
      expected[i] = in[i] * scale;
    }
    grt_hal_buffer_t* buffer = grt_hal_cts_allocate(256 + 2 * n * 4);
    uint64_t out_offset = 256 + n * 4;
    grt_hal_cts_write(buffer, 256, in, n * 4);
    grt_hal_buffer_ref_t bindings[2] = {
        grt_hal_make_buffer_ref(buffer, 256, n * 4),
        grt_hal_make_buffer_ref(buffer, out_offset, n * 4),
    };
    uint32_t constant;
    memcpy(&constant, &scale, sizeof(constant));
    grt_hal_command_buffer_t* cb =
        grt_hal_cts_begin_command_buffer(ONE_SHOT, 0);
    GRT_EXPECT_OK(grt_hal_cts_dispatch(
        cb, GRT_HAL_CTS_KERNEL_SCALE_F32,
        grt_hal_cts_workgroups_for(GRT_HAL_CTS_KERNEL_SCALE_F32, n),
        &constant, 1, bindings, 2));
    submit(cb);
    grt_hal_command_buffer_release(cb);
    grt_hal_cts_read(buffer, out_offset, read, n * 4);
    char what[64];
    snprintf(what, sizeof(what), "scale_f32 over %u elements", n);
    grt_hal_cts_expect_f32(what, read, expected, n);
    grt_hal_buffer_release(buffer);
    host_free(read);
    host_free(expected);
    host_free(in);
  }
}

// Each dispatch sees its own constants, copied when recorded.
static void test_dispatch_push_constants(void** state) {
  (void)state;
  grt_hal_cts_require_executable();
  enum { N = 100 };
  grt_hal_buffer_t* first = grt_hal_cts_allocate(N * 4);
  grt_hal_buffer_t* second = grt_hal_cts_allocate(N * 4);
  grt_hal_buffer_ref_t first_ref = grt_hal_make_buffer_ref(first, 0, N * 4);
  grt_hal_buffer_ref_t second_ref = grt_hal_make_buffer_ref(second, 0, N * 4);
  uint32_t workgroups =
      grt_hal_cts_workgroups_for(GRT_HAL_CTS_KERNEL_FILL_INDEX_U32, N);
  grt_hal_command_buffer_t* cb = grt_hal_cts_begin_command_buffer(ONE_SHOT, 0);
  uint32_t constant = 0x10000;
  GRT_EXPECT_OK(grt_hal_cts_dispatch(
      cb, GRT_HAL_CTS_KERNEL_FILL_INDEX_U32, workgroups, &constant, 1,
      &first_ref, 1));
  constant = 0xFFFFFF00u;  // wraps around: i + c mod 2^32
  GRT_EXPECT_OK(grt_hal_cts_dispatch(
      cb, GRT_HAL_CTS_KERNEL_FILL_INDEX_U32, workgroups, &constant, 1,
      &second_ref, 1));
  constant = 0;
  submit(cb);
  grt_hal_command_buffer_release(cb);
  uint32_t read[N], expected[N];
  for (uint32_t i = 0; i < N; ++i) expected[i] = i + 0x10000;
  grt_hal_cts_read(first, 0, read, sizeof(read));
  grt_hal_cts_expect_u32("first dispatch", read, expected, N);
  for (uint32_t i = 0; i < N; ++i) expected[i] = i + 0xFFFFFF00u;
  grt_hal_cts_read(second, 0, read, sizeof(read));
  grt_hal_cts_expect_u32("second dispatch", read, expected, N);
  grt_hal_buffer_release(second);
  grt_hal_buffer_release(first);
}

static void test_dispatch_validation_errors(void** state) {
  (void)state;
  grt_hal_executable_t* executable = grt_hal_cts_require_executable();
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate(64);
  grt_hal_buffer_ref_t bindings[2] = {
      grt_hal_make_buffer_ref(buffer, 0, 32),
      grt_hal_make_buffer_ref(buffer, 32, 32),
  };
  uint32_t constants[2] = {0, 0};
  grt_hal_command_buffer_t* cb = grt_hal_cts_begin_command_buffer(ONE_SHOT, 0);
  grt_expect_error(
      grt_hal_cts_dispatch(cb, GRT_HAL_CTS_KERNEL_ADD_F32, 1, NULL, 0,
                           bindings, 2),
      GRT_STATUS_INVALID_ARGUMENT,
      "dispatch of 'add_f32': entry point takes 3 bindings, got 2");
  grt_expect_error(
      grt_hal_cts_dispatch(cb, GRT_HAL_CTS_KERNEL_FILL_INDEX_U32, 1,
                           constants, 2, bindings, 1),
      GRT_STATUS_INVALID_ARGUMENT,
      "dispatch of 'fill_index_u32': entry point takes 1 constants, got 2");
  grt_hal_dispatch_params_t params = {
      executable, 99, {1, 1, 1}, NULL, 0, NULL, 0};
  grt_expect_error(grt_hal_command_buffer_dispatch(cb, &params),
                           GRT_STATUS_OUT_OF_RANGE,
                           "entry point 99 is out of range (executable has 6)");
  grt_hal_buffer_ref_t outside = grt_hal_make_buffer_ref(buffer, 48, 32);
  grt_expect_error(
      grt_hal_cts_dispatch(cb, GRT_HAL_CTS_KERNEL_ACCUMULATE, 1, NULL, 0,
                           &outside, 1),
      GRT_STATUS_OUT_OF_RANGE, "range [48, 80) is outside buffer of 64 bytes");
  grt_hal_command_buffer_release(cb);
  grt_hal_buffer_release(buffer);
}

// A kernel that fails fails the submission's signal semaphore with a
// message naming the kernel; the device keeps working afterwards.
static void test_dispatch_failing_kernel(void** state) {
  (void)state;
  grt_hal_cts_require_executable();
  grt_hal_command_buffer_t* cb = grt_hal_cts_begin_command_buffer(ONE_SHOT, 0);
  GRT_EXPECT_OK(
      grt_hal_cts_dispatch(cb, GRT_HAL_CTS_KERNEL_FAIL, 3, NULL, 0, NULL, 0));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(cb));
  grt_hal_semaphore_t* done = grt_hal_cts_create_semaphore(0);
  uint64_t one = 1;
  grt_hal_semaphore_list_t signal = {1, &done, &one};
  GRT_EXPECT_OK(grt_hal_device_queue_execute(
      grt_hal_cts_device(), grt_hal_semaphore_list_empty(), signal, 1, &cb,
      NULL));
  grt_status_t status = grt_hal_semaphore_wait(done, 1, GRT_HAL_TIMEOUT_INFINITE);
  assert_non_null(status);
  if (!strstr(grt_status_message(status), "'fail'")) {
    grt_status_fprint(stderr, status);
    grt_status_free(status);
    fail_msg("the failure does not name kernel 'fail'");
  }
  grt_status_free(status);
  uint64_t value = 0;
  status = grt_hal_semaphore_query(done, &value);
  assert_non_null(status);  // failed semaphores stay failed
  grt_status_free(status);
  grt_hal_semaphore_release(done);
  grt_hal_command_buffer_release(cb);

  cb = grt_hal_cts_begin_command_buffer(ONE_SHOT, 0);
  GRT_EXPECT_OK(
      grt_hal_cts_dispatch(cb, GRT_HAL_CTS_KERNEL_NOOP, 3, NULL, 0, NULL, 0));
  submit(cb);
  grt_hal_command_buffer_release(cb);
}

static void prepare(grt_string_view_t format, const uint8_t* binary,
                    size_t binary_size,
                    const grt_hal_entry_point_info_t* entry_points,
                    size_t entry_point_count, grt_status_t* out_status) {
  uint8_t digest[GRT_SHA256_DIGEST_SIZE];
  grt_sha256(binary, binary_size, digest);
  grt_hal_executable_params_t params = {format,       binary,
                                        binary_size,  digest,
                                        entry_points, entry_point_count};
  grt_hal_executable_t* executable = NULL;
  *out_status = grt_hal_executable_cache_prepare(
      grt_hal_device_executable_cache(grt_hal_cts_device()), &params,
      &executable);
  grt_hal_executable_release(executable);
}

// The cache refuses formats it does not know and binaries that do not
// provide what the module expects.
static void test_executable_cache_errors(void** state) {
  (void)state;
  grt_hal_cts_require_executable();
  grt_hal_executable_cache_t* cache =
      grt_hal_device_executable_cache(grt_hal_cts_device());
  grt_string_view_t bogus = grt_make_cstring_view("grt-cts-no-such-format");
  assert_false(grt_hal_executable_cache_can_prepare_format(cache, bogus));
  const uint8_t byte = 0;
  grt_status_t status;
  prepare(bogus, &byte, 1, grt_hal_cts.kernel_format->entry_points,
          GRT_HAL_CTS_KERNEL_COUNT, &status);
  grt_expect_error(
      status, GRT_STATUS_INCOMPATIBLE,
      "device cannot run executable format 'grt-cts-no-such-format'");

  // The suite's own binary, described wrongly.
  grt_hal_cts_binary_t binary = {0};
  GRT_EXPECT_OK(
      grt_hal_cts.kernel_format->load(grt_hal_cts.host_allocator, &binary));
  grt_hal_entry_point_info_t wrong[GRT_HAL_CTS_KERNEL_COUNT];
  memcpy(wrong, grt_hal_cts.kernel_format->entry_points, sizeof(wrong));
  wrong[GRT_HAL_CTS_KERNEL_ADD_F32].binding_count = 2;
  grt_string_view_t format =
      grt_make_cstring_view(grt_hal_cts.kernel_format->format());
  prepare(format, binary.data, binary.size, wrong, GRT_HAL_CTS_KERNEL_COUNT,
          &status);
  grt_expect_error(status, GRT_STATUS_INCOMPATIBLE,
                           "entry point 1 'add_f32': module expects 2 "
                           "bindings, binary has 3");
  memcpy(wrong, grt_hal_cts.kernel_format->entry_points, sizeof(wrong));
  wrong[GRT_HAL_CTS_KERNEL_NOOP].name = grt_make_cstring_view("absent");
  prepare(format, binary.data, binary.size, wrong, GRT_HAL_CTS_KERNEL_COUNT,
          &status);
  grt_expect_error(status, GRT_STATUS_INCOMPATIBLE,
                           "binary has no entry point 'absent'");
  grt_hal_cts_binary_free(&binary);
}

static const struct CMUnitTest kTests[] = {
    cmocka_unit_test(test_dispatch_fill_index_u32),
    cmocka_unit_test(test_dispatch_add_f32),
    cmocka_unit_test(test_dispatch_scale_f32),
    cmocka_unit_test(test_dispatch_push_constants),
    cmocka_unit_test(test_dispatch_validation_errors),
    cmocka_unit_test(test_dispatch_failing_kernel),
    cmocka_unit_test(test_executable_cache_errors),
};
GRT_HAL_CTS_GROUP(grt_hal_cts_dispatch_group, "dispatch", kTests);
