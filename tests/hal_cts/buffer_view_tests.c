// Conformance: buffer views over device buffers.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "hal/buffer_view.h"
#include "hal/transfer.h"
#include "tests/hal_cts/cts.h"

static void test_buffer_view_create(void** state) {
  (void)state;
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate(96);
  const grt_hal_dim_t shape[] = {2, 3, 4};
  grt_hal_buffer_view_t* view = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_view_create(
      buffer, shape, 3, GRT_HAL_ELEMENT_TYPE_FLOAT_32,
      grt_hal_cts.host_allocator, &view));
  grt_hal_buffer_release(buffer);  // the view keeps it
  assert_ptr_equal(grt_hal_buffer_view_buffer(view), buffer);
  assert_int_equal(grt_hal_buffer_view_rank(view), 3);
  assert_int_equal(grt_hal_buffer_view_dim(view, 2), 4);
  assert_int_equal(grt_hal_buffer_view_shape(view)[1], 3);
  assert_int_equal(grt_hal_buffer_view_element_type(view),
                   GRT_HAL_ELEMENT_TYPE_FLOAT_32);
  assert_int_equal(grt_hal_buffer_view_element_count(view), 24);
  assert_int_equal(grt_hal_buffer_view_byte_length(view), 96);
  char text[64];
  grt_hal_buffer_view_format_type(view, text, sizeof(text));
  assert_string_equal(text, "tensor<2x3x4xf32>");
  GRT_EXPECT_OK(
      grt_hal_buffer_view_check(view, shape, 3, GRT_HAL_ELEMENT_TYPE_FLOAT_32));
  const grt_hal_dim_t other[] = {2, 3, 5};
  grt_expect_error(
      grt_hal_buffer_view_check(view, other, 3, GRT_HAL_ELEMENT_TYPE_FLOAT_32),
      GRT_STATUS_INVALID_ARGUMENT,
      "expected tensor<2x3x5xf32>, got tensor<2x3x4xf32>");

  // Contents go through the device like any buffer's.
  float values[24];
  for (int i = 0; i < 24; ++i) values[i] = (float)i * 0.5f;
  grt_hal_cts_write(grt_hal_buffer_view_buffer(view), 0, values,
                    sizeof(values));
  float read[24];
  GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(
      grt_hal_cts_device(), view, read, sizeof(read)));
  grt_hal_cts_expect_f32("buffer view contents", read, values, 24);
  grt_hal_buffer_view_release(view);
}

static void test_buffer_view_too_small(void** state) {
  (void)state;
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate(60);
  const grt_hal_dim_t shape[] = {4, 4};
  grt_hal_buffer_view_t* view = NULL;
  grt_expect_error(
      grt_hal_buffer_view_create(buffer, shape, 2,
                                 GRT_HAL_ELEMENT_TYPE_FLOAT_32,
                                 grt_hal_cts.host_allocator, &view),
      GRT_STATUS_OUT_OF_RANGE,
      "buffer of 60 bytes is too small for tensor<4x4xf32> (64 bytes)");
  assert_null(view);
  grt_hal_buffer_release(buffer);
}

static const struct CMUnitTest kTests[] = {
    cmocka_unit_test(test_buffer_view_create),
    cmocka_unit_test(test_buffer_view_too_small),
};
GRT_HAL_CTS_GROUP(grt_hal_cts_buffer_view_group, "buffer_view", kTests);
