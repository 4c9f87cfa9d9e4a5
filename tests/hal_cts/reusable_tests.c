// Conformance: reusable command buffers, recorded once and submitted many
// times, with buffers supplied per submission through a binding table.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "tests/hal_cts/cts.h"

#define REUSABLE GRT_HAL_COMMAND_BUFFER_MODE_REUSABLE

enum { N = 300 };

// scale_f32 from slot 0 into slot 1, recorded once for up to N elements.
static grt_hal_command_buffer_t* record_scale(float scale) {
  grt_hal_command_buffer_t* cb = grt_hal_cts_begin_command_buffer(REUSABLE, 2);
  grt_hal_buffer_ref_t bindings[2] = {
      grt_hal_make_indirect_buffer_ref(0, 0, GRT_HAL_WHOLE_BUFFER),
      grt_hal_make_indirect_buffer_ref(1, 0, GRT_HAL_WHOLE_BUFFER),
  };
  uint32_t constant;
  memcpy(&constant, &scale, sizeof(constant));
  GRT_EXPECT_OK(grt_hal_cts_dispatch(
      cb, GRT_HAL_CTS_KERNEL_SCALE_F32,
      grt_hal_cts_workgroups_for(GRT_HAL_CTS_KERNEL_SCALE_F32, N), &constant,
      1, bindings, 2));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(cb));
  return cb;
}

// Three submissions, each with its own input, output and sizes (the
// bindings' ranges bound what the kernel touches).
static void test_reusable_binding_tables(void** state) {
  (void)state;
  grt_hal_cts_require_executable();
  grt_hal_command_buffer_t* cb = record_scale(3.0f);
  static const uint32_t kCounts[3] = {N, 1, 129};
  static const uint64_t kOffsets[3] = {0, 256, 512};
  for (int round = 0; round < 3; ++round) {
    uint32_t n = kCounts[round];
    uint64_t offset = kOffsets[round];
    grt_hal_buffer_t* input = grt_hal_cts_allocate(offset + N * 4);
    grt_hal_buffer_t* output = grt_hal_cts_allocate(offset + N * 4);
    float in[N], expected[N], read[N];
    for (uint32_t i = 0; i < N; ++i) {
      in[i] = (float)(round * 1000 + (int)i);
      expected[i] = i < n ? in[i] * 3.0f : -1.0f;
    }
    float minus_one[N];
    for (uint32_t i = 0; i < N; ++i) minus_one[i] = -1.0f;
    grt_hal_cts_write(input, offset, in, sizeof(in));
    grt_hal_cts_write(output, offset, minus_one, sizeof(minus_one));
    grt_hal_buffer_binding_t bindings[2] = {
        {input, offset, n * 4},
        {output, offset, n * 4},
    };
    grt_hal_buffer_binding_table_t table = {2, bindings};
    GRT_EXPECT_OK(grt_hal_cts_submit_and_wait(cb, &table));
    grt_hal_cts_read(output, offset, read, sizeof(read));
    char what[64];
    snprintf(what, sizeof(what), "submission %d (%u elements at offset %u)",
             round, n, (unsigned)offset);
    grt_hal_cts_expect_f32(what, read, expected, N);
    grt_hal_buffer_release(output);
    grt_hal_buffer_release(input);
  }
  grt_hal_command_buffer_release(cb);
}

// Direct references replay too: each submission accumulates once more.
static void test_reusable_resubmit_accumulates(void** state) {
  (void)state;
  grt_hal_cts_require_executable();
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate(N * 4);
  grt_hal_cts_write_bytes(buffer, 0, 0, N * 4);
  grt_hal_command_buffer_t* cb = grt_hal_cts_begin_command_buffer(REUSABLE, 0);
  grt_hal_buffer_ref_t binding = grt_hal_make_buffer_ref(buffer, 0, N * 4);
  GRT_EXPECT_OK(grt_hal_cts_dispatch(
      cb, GRT_HAL_CTS_KERNEL_ACCUMULATE,
      grt_hal_cts_workgroups_for(GRT_HAL_CTS_KERNEL_ACCUMULATE, N), NULL, 0,
      &binding, 1));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(cb));
  uint32_t expected[N], read[N];
  uint32_t value = 0;
  for (int round = 0; round < 3; ++round) {
    GRT_EXPECT_OK(grt_hal_cts_submit_and_wait(cb, NULL));
    value = value * 2 + 1;
    for (int i = 0; i < N; ++i) expected[i] = value;
    grt_hal_cts_read(buffer, 0, read, sizeof(read));
    grt_hal_cts_expect_u32("after resubmission", read, expected, N);
  }
  grt_hal_command_buffer_release(cb);
  grt_hal_buffer_release(buffer);
}

static void test_reusable_binding_table_errors(void** state) {
  (void)state;
  grt_hal_cts_require_executable();
  grt_hal_command_buffer_t* cb = record_scale(1.0f);
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate(64);
  grt_hal_buffer_binding_t bindings[2] = {
      {buffer, 0, 32},
      {buffer, 32, 64},
  };
  grt_hal_buffer_binding_table_t too_small = {1, bindings};
  grt_expect_error(grt_hal_cts_submit_and_wait(cb, &too_small),
                           GRT_STATUS_INVALID_ARGUMENT,
                           "binding table has 1 bindings, command buffer "
                           "needs 2");
  grt_expect_error(grt_hal_cts_submit_and_wait(cb, NULL),
                           GRT_STATUS_INVALID_ARGUMENT,
                           "binding table has 0 bindings, command buffer "
                           "needs 2");
  grt_hal_buffer_binding_table_t outside = {2, bindings};
  grt_expect_error(grt_hal_cts_submit_and_wait(cb, &outside),
                           GRT_STATUS_OUT_OF_RANGE,
                           "range [32, 96) is outside buffer of 64 bytes");
  // Slots beyond the capacity and one-shot indirect refs are refused when
  // recorded.
  grt_hal_command_buffer_t* one_shot =
      grt_hal_cts_begin_command_buffer(GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0);
  grt_expect_error(
      grt_hal_command_buffer_fill_buffer(
          one_shot, grt_hal_make_indirect_buffer_ref(0, 0, 4), 0, 4),
      GRT_STATUS_INVALID_ARGUMENT,
      "but only reusable command buffers take a binding table");
  grt_hal_command_buffer_release(one_shot);
  grt_hal_command_buffer_t* reusable =
      grt_hal_cts_begin_command_buffer(REUSABLE, 1);
  grt_expect_error(
      grt_hal_command_buffer_fill_buffer(
          reusable, grt_hal_make_indirect_buffer_ref(3, 0, 4), 0, 4),
      GRT_STATUS_OUT_OF_RANGE,
      "refers to binding slot 3 but the command buffer has 1 slots");
  grt_hal_command_buffer_release(reusable);
  grt_hal_buffer_release(buffer);
  grt_hal_command_buffer_release(cb);
}

static const struct CMUnitTest kTests[] = {
    cmocka_unit_test(test_reusable_binding_tables),
    cmocka_unit_test(test_reusable_resubmit_accumulates),
    cmocka_unit_test(test_reusable_binding_table_errors),
};
GRT_HAL_CTS_GROUP(grt_hal_cts_reusable_group, "reusable", kTests);
