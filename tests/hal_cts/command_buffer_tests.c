// Conformance: command buffer recording and execution (fill, copy, update,
// barriers, many and large dispatches) and its state errors.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "tests/hal_cts/cts.h"

#define ONE_SHOT GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT

static void end_and_submit(grt_hal_command_buffer_t* command_buffer) {
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));
  GRT_EXPECT_OK(grt_hal_cts_submit_and_wait(command_buffer, NULL));
}

// 1-, 2- and 4-byte patterns at offsets aligned only to their own size;
// bytes outside each range keep their value.
static void test_command_buffer_fill_patterns(void** state) {
  (void)state;
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate(64);
  grt_hal_cts_write_bytes(buffer, 0, 0xEE, 64);
  grt_hal_command_buffer_t* cb = grt_hal_cts_begin_command_buffer(ONE_SHOT, 0);
  GRT_EXPECT_OK(grt_hal_command_buffer_fill_buffer(
      cb, grt_hal_make_buffer_ref(buffer, 3, 5), 0xAB, 1));
  GRT_EXPECT_OK(grt_hal_command_buffer_fill_buffer(
      cb, grt_hal_make_buffer_ref(buffer, 10, 6), 0x1234, 2));
  GRT_EXPECT_OK(grt_hal_command_buffer_fill_buffer(
      cb, grt_hal_make_buffer_ref(buffer, 20, 12), 0xDEADBEEFu, 4));
  GRT_EXPECT_OK(grt_hal_command_buffer_fill_buffer(
      cb, grt_hal_make_buffer_ref(buffer, 60, GRT_HAL_WHOLE_BUFFER), 0x01020304u,
      4));
  end_and_submit(cb);
  grt_hal_command_buffer_release(cb);

  uint8_t expected[64];
  memset(expected, 0xEE, sizeof(expected));
  memset(expected + 3, 0xAB, 5);
  const uint16_t half = 0x1234;
  for (int i = 0; i < 3; ++i) memcpy(expected + 10 + 2 * i, &half, 2);
  const uint32_t word = 0xDEADBEEFu;
  for (int i = 0; i < 3; ++i) memcpy(expected + 20 + 4 * i, &word, 4);
  const uint32_t tail = 0x01020304u;
  memcpy(expected + 60, &tail, 4);
  uint8_t read[64];
  grt_hal_cts_read(buffer, 0, read, sizeof(read));
  grt_hal_cts_expect_bytes("filled buffer", read, expected, sizeof(read));
  grt_hal_buffer_release(buffer);
}

static void test_command_buffer_fill_misaligned(void** state) {
  (void)state;
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate(64);
  grt_hal_command_buffer_t* cb = grt_hal_cts_begin_command_buffer(ONE_SHOT, 0);
  grt_expect_error(
      grt_hal_command_buffer_fill_buffer(
          cb, grt_hal_make_buffer_ref(buffer, 2, 8), 0, 4),
      GRT_STATUS_INVALID_ARGUMENT,
      "fill target offset 2 is not a multiple of the pattern length 4");
  grt_expect_error(
      grt_hal_command_buffer_fill_buffer(
          cb, grt_hal_make_buffer_ref(buffer, 4, 6), 0, 4),
      GRT_STATUS_INVALID_ARGUMENT,
      "fill length 6 is not a multiple of the pattern length 4");
  grt_expect_error(
      grt_hal_command_buffer_fill_buffer(
          cb, grt_hal_make_buffer_ref(buffer, 0, 6), 0, 3),
      GRT_STATUS_INVALID_ARGUMENT,
      "fill pattern length must be 1, 2 or 4, got 3");
  grt_expect_error(
      grt_hal_command_buffer_fill_buffer(
          cb, grt_hal_make_buffer_ref(buffer, 60, 8), 0, 4),
      GRT_STATUS_OUT_OF_RANGE, "range [60, 68) is outside buffer of 64 bytes");
  grt_hal_command_buffer_release(cb);
  grt_hal_buffer_release(buffer);
}

static void test_command_buffer_copy(void** state) {
  (void)state;
  grt_hal_buffer_t* source = grt_hal_cts_allocate(64);
  grt_hal_buffer_t* target = grt_hal_cts_allocate(64);
  uint8_t pattern[64];
  for (int i = 0; i < 64; ++i) pattern[i] = (uint8_t)(i * 3 + 1);
  grt_hal_cts_write(source, 0, pattern, sizeof(pattern));
  grt_hal_cts_write_bytes(target, 0, 0, 64);
  grt_hal_command_buffer_t* cb = grt_hal_cts_begin_command_buffer(ONE_SHOT, 0);
  GRT_EXPECT_OK(grt_hal_command_buffer_copy_buffer(
      cb, grt_hal_make_buffer_ref(source, 8, 33),
      grt_hal_make_buffer_ref(target, 17, 33)));
  end_and_submit(cb);
  grt_hal_command_buffer_release(cb);
  uint8_t expected[64] = {0};
  memcpy(expected + 17, pattern + 8, 33);
  uint8_t read[64];
  grt_hal_cts_read(target, 0, read, sizeof(read));
  grt_hal_cts_expect_bytes("copy target", read, expected, sizeof(read));
  grt_hal_buffer_release(target);
  grt_hal_buffer_release(source);
}

// Update copies the host bytes when recorded, not when executed.
static void test_command_buffer_update(void** state) {
  (void)state;
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate(32);
  grt_hal_cts_write_bytes(buffer, 0, 0x11, 32);
  uint8_t source[13];
  for (int i = 0; i < 13; ++i) source[i] = (uint8_t)(0xA0 + i);
  uint8_t expected[32];
  memset(expected, 0x11, sizeof(expected));
  memcpy(expected + 5, source, sizeof(source));
  grt_hal_command_buffer_t* cb = grt_hal_cts_begin_command_buffer(ONE_SHOT, 0);
  GRT_EXPECT_OK(grt_hal_command_buffer_update_buffer(
      cb, source, grt_hal_make_buffer_ref(buffer, 5, sizeof(source))));
  memset(source, 0, sizeof(source));
  end_and_submit(cb);
  grt_hal_command_buffer_release(cb);
  uint8_t read[32];
  grt_hal_cts_read(buffer, 0, read, sizeof(read));
  grt_hal_cts_expect_bytes("updated buffer", read, expected, sizeof(read));
  grt_hal_buffer_release(buffer);
}

// Copies between two subspans of one allocation land at the subspans'
// offsets.
static void test_command_buffer_copy_between_subspans(void** state) {
  (void)state;
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate(256);
  uint8_t pattern[256];
  for (int i = 0; i < 256; ++i) pattern[i] = (uint8_t)i;
  grt_hal_cts_write(buffer, 0, pattern, sizeof(pattern));
  grt_hal_buffer_t* low = NULL;
  grt_hal_buffer_t* high = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_subspan(buffer, 0, 64, &low));
  GRT_EXPECT_OK(grt_hal_buffer_subspan(buffer, 128, 64, &high));
  grt_hal_command_buffer_t* cb = grt_hal_cts_begin_command_buffer(ONE_SHOT, 0);
  GRT_EXPECT_OK(grt_hal_command_buffer_copy_buffer(
      cb, grt_hal_make_buffer_ref(low, 4, 32),
      grt_hal_make_buffer_ref(high, 8, 32)));
  end_and_submit(cb);
  grt_hal_command_buffer_release(cb);
  uint8_t expected[256];
  memcpy(expected, pattern, sizeof(expected));
  memcpy(expected + 136, pattern + 4, 32);
  uint8_t read[256];
  grt_hal_cts_read(buffer, 0, read, sizeof(read));
  grt_hal_cts_expect_bytes("buffer after subspan copy", read, expected,
                           sizeof(read));
  grt_hal_buffer_release(high);
  grt_hal_buffer_release(low);
  grt_hal_buffer_release(buffer);
}

static void test_command_buffer_state_errors(void** state) {
  (void)state;
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate(16);
  grt_hal_command_buffer_t* cb = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_command_buffer(
      grt_hal_cts_device(), ONE_SHOT, 0, &cb));
  grt_expect_error(
      grt_hal_command_buffer_fill_buffer(
          cb, grt_hal_make_buffer_ref(buffer, 0, 16), 0, 1),
      GRT_STATUS_FAILED_PRECONDITION,
      "command buffer is not recording (state: initial)");
  grt_expect_error(grt_hal_command_buffer_end(cb),
                           GRT_STATUS_FAILED_PRECONDITION,
                           "command buffer is not recording (state: initial)");
  // Submitting a command buffer still being recorded is refused at once.
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(cb));
  grt_expect_error(grt_hal_cts_submit_and_wait(cb, NULL),
                           GRT_STATUS_FAILED_PRECONDITION,
                           "command buffer is not executable (state: "
                           "recording)");
  GRT_EXPECT_OK(grt_hal_command_buffer_end(cb));
  grt_expect_error(
      grt_hal_command_buffer_copy_buffer(
          cb, grt_hal_make_buffer_ref(buffer, 0, 8),
          grt_hal_make_buffer_ref(buffer, 8, 8)),
      GRT_STATUS_FAILED_PRECONDITION,
      "command buffer is not recording (state: executable)");
  grt_expect_error(grt_hal_command_buffer_begin(cb),
                           GRT_STATUS_FAILED_PRECONDITION,
                           "command buffer cannot begin recording again "
                           "(state: executable)");
  grt_hal_command_buffer_release(cb);
  grt_hal_buffer_release(buffer);
}

static void test_command_buffer_one_shot_submitted_twice(void** state) {
  (void)state;
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate(16);
  grt_hal_command_buffer_t* cb = grt_hal_cts_begin_command_buffer(ONE_SHOT, 0);
  GRT_EXPECT_OK(grt_hal_command_buffer_fill_buffer(
      cb, grt_hal_make_buffer_ref(buffer, 0, 16), 7, 1));
  end_and_submit(cb);
  grt_expect_error(grt_hal_cts_submit_and_wait(cb, NULL),
                           GRT_STATUS_FAILED_PRECONDITION,
                           "one-shot command buffer was already submitted");
  grt_hal_command_buffer_release(cb);
  grt_hal_buffer_release(buffer);
}

static void test_command_buffer_copy_length_mismatch(void** state) {
  (void)state;
  grt_hal_buffer_t* source = grt_hal_cts_allocate(16);
  grt_hal_buffer_t* target = grt_hal_cts_allocate(32);
  grt_hal_command_buffer_t* cb = grt_hal_cts_begin_command_buffer(ONE_SHOT, 0);
  grt_expect_error(
      grt_hal_command_buffer_copy_buffer(
          cb, grt_hal_make_buffer_ref(source, 0, GRT_HAL_WHOLE_BUFFER),
          grt_hal_make_buffer_ref(target, 0, GRT_HAL_WHOLE_BUFFER)),
      GRT_STATUS_INVALID_ARGUMENT,
      "copy lengths differ: source 16 bytes, target 32 bytes");
  grt_hal_command_buffer_release(cb);
  grt_hal_buffer_release(target);
  grt_hal_buffer_release(source);
}

// fill | barrier | copy | barrier | accumulate | barrier | accumulate:
// every step reads what the one before wrote, so a barrier that does not
// order shows up as a wrong value.
static void test_command_buffer_execution_barrier(void** state) {
  (void)state;
  grt_hal_cts_require_executable();
  enum { N = 1000 };
  grt_hal_buffer_t* staging = grt_hal_cts_allocate(N * 4);
  grt_hal_buffer_t* data = grt_hal_cts_allocate(N * 4);
  grt_hal_cts_write_bytes(data, 0, 0, N * 4);
  grt_hal_command_buffer_t* cb = grt_hal_cts_begin_command_buffer(ONE_SHOT, 0);
  GRT_EXPECT_OK(grt_hal_command_buffer_fill_buffer(
      cb, grt_hal_make_buffer_ref(staging, 0, N * 4), 3, 4));
  GRT_EXPECT_OK(grt_hal_command_buffer_execution_barrier(cb));
  GRT_EXPECT_OK(grt_hal_command_buffer_copy_buffer(
      cb, grt_hal_make_buffer_ref(staging, 0, N * 4),
      grt_hal_make_buffer_ref(data, 0, N * 4)));
  grt_hal_buffer_ref_t binding = grt_hal_make_buffer_ref(data, 0, N * 4);
  uint32_t workgroups =
      grt_hal_cts_workgroups_for(GRT_HAL_CTS_KERNEL_ACCUMULATE, N);
  for (int i = 0; i < 3; ++i) {
    GRT_EXPECT_OK(grt_hal_command_buffer_execution_barrier(cb));
    GRT_EXPECT_OK(grt_hal_cts_dispatch(
        cb, GRT_HAL_CTS_KERNEL_ACCUMULATE, workgroups, NULL, 0, &binding, 1));
  }
  end_and_submit(cb);
  grt_hal_command_buffer_release(cb);
  static uint32_t read[N], expected[N];
  // 3 -> 7 -> 15 -> 31
  for (int i = 0; i < N; ++i) expected[i] = 31;
  grt_hal_cts_read(data, 0, read, sizeof(read));
  grt_hal_cts_expect_u32("after fill, copy and 3 accumulates", read, expected,
                         N);
  grt_hal_buffer_release(data);
  grt_hal_buffer_release(staging);
}

// Dispatches in one barrier-free region writing disjoint ranges of one
// buffer, each with its own constant.
static void test_command_buffer_many_dispatches(void** state) {
  (void)state;
  grt_hal_cts_require_executable();
  enum { DISPATCHES = 16, STRIDE = 256, USED = 200 };
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate(DISPATCHES * STRIDE * 4);
  grt_hal_cts_write_bytes(buffer, 0, 0xFF, DISPATCHES * STRIDE * 4);
  grt_hal_command_buffer_t* cb = grt_hal_cts_begin_command_buffer(ONE_SHOT, 0);
  for (uint32_t d = 0; d < DISPATCHES; ++d) {
    uint32_t constant = d * 1000;
    grt_hal_buffer_ref_t binding =
        grt_hal_make_buffer_ref(buffer, (uint64_t)d * STRIDE * 4, USED * 4);
    GRT_EXPECT_OK(grt_hal_cts_dispatch(
        cb, GRT_HAL_CTS_KERNEL_FILL_INDEX_U32,
        grt_hal_cts_workgroups_for(GRT_HAL_CTS_KERNEL_FILL_INDEX_U32, USED),
        &constant, 1, &binding, 1));
  }
  end_and_submit(cb);
  grt_hal_command_buffer_release(cb);
  static uint32_t read[DISPATCHES * STRIDE], expected[DISPATCHES * STRIDE];
  for (uint32_t d = 0; d < DISPATCHES; ++d) {
    for (uint32_t i = 0; i < STRIDE; ++i) {
      expected[d * STRIDE + i] = i < USED ? i + d * 1000 : 0xFFFFFFFFu;
    }
  }
  grt_hal_cts_read(buffer, 0, read, sizeof(read));
  grt_hal_cts_expect_u32("16 disjoint dispatches", read, expected,
                         DISPATCHES * STRIDE);
  grt_hal_buffer_release(buffer);
}

// 1000 workgroups along x, then a 3-D grid: every workgroup runs exactly
// once with its own id (the kernel flattens the grid x-fastest).
static void test_command_buffer_large_workgroup_counts(void** state) {
  (void)state;
  grt_hal_executable_t* executable = grt_hal_cts_require_executable();
  const grt_hal_entry_point_info_t* entry = NULL;
  GRT_EXPECT_OK(grt_hal_executable_entry_point(
      executable, GRT_HAL_CTS_KERNEL_FILL_INDEX_U32, &entry));
  const uint32_t size = entry->workgroup_size[0];
  static const uint32_t kGrids[][3] = {{1000, 1, 1}, {10, 5, 4}};
  for (size_t g = 0; g < 2; ++g) {
    const uint32_t* grid = kGrids[g];
    size_t count = (size_t)grid[0] * grid[1] * grid[2] * size;
    grt_hal_buffer_t* buffer = grt_hal_cts_allocate(count * 4);
    grt_hal_buffer_ref_t binding =
        grt_hal_make_buffer_ref(buffer, 0, GRT_HAL_WHOLE_BUFFER);
    uint32_t constant = 5;
    grt_hal_dispatch_params_t params = {
        executable, GRT_HAL_CTS_KERNEL_FILL_INDEX_U32,
        {grid[0], grid[1], grid[2]}, &constant, 1, &binding, 1};
    grt_hal_command_buffer_t* cb =
        grt_hal_cts_begin_command_buffer(ONE_SHOT, 0);
    GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(cb, &params));
    end_and_submit(cb);
    grt_hal_command_buffer_release(cb);
    uint32_t* read = NULL;
    uint32_t* expected = NULL;
    GRT_EXPECT_OK(grt_allocator_malloc(grt_hal_cts.host_allocator,
                                               count * 4, (void**)&read));
    GRT_EXPECT_OK(grt_allocator_malloc(grt_hal_cts.host_allocator,
                                               count * 4, (void**)&expected));
    for (size_t i = 0; i < count; ++i) expected[i] = (uint32_t)i + 5;
    grt_hal_cts_read(buffer, 0, read, count * 4);
    char what[64];
    snprintf(what, sizeof(what), "grid %ux%ux%u", grid[0], grid[1], grid[2]);
    grt_hal_cts_expect_u32(what, read, expected, count);
    grt_allocator_free(grt_hal_cts.host_allocator, expected);
    grt_allocator_free(grt_hal_cts.host_allocator, read);
    grt_hal_buffer_release(buffer);
  }
}

static const struct CMUnitTest kTests[] = {
    cmocka_unit_test(test_command_buffer_fill_patterns),
    cmocka_unit_test(test_command_buffer_fill_misaligned),
    cmocka_unit_test(test_command_buffer_copy),
    cmocka_unit_test(test_command_buffer_update),
    cmocka_unit_test(test_command_buffer_copy_between_subspans),
    cmocka_unit_test(test_command_buffer_state_errors),
    cmocka_unit_test(test_command_buffer_one_shot_submitted_twice),
    cmocka_unit_test(test_command_buffer_copy_length_mismatch),
    cmocka_unit_test(test_command_buffer_execution_barrier),
    cmocka_unit_test(test_command_buffer_many_dispatches),
    cmocka_unit_test(test_command_buffer_large_workgroup_counts),
};
GRT_HAL_CTS_GROUP(grt_hal_cts_command_buffer_group, "command_buffer", kTests);
