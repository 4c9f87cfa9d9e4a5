// hal transfers: the mapped path on host-visible memory, the staged path
// (staging buffer + queue copy + semaphore wait) on device-only memory,
// queue_copy itself, and buffer views made from and read back to the host.
#include "hal/transfer.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hal/test_support.h"

static void check_round_trip(grt_hal_test_device_t* device) {
  grt_hal_buffer_t* buffer = grt_hal_test_allocate(
      device->allocator, GRT_HAL_BUFFER_USAGE_DEFAULT, 16);
  const uint8_t source[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  GRT_EXPECT_OK(
      grt_hal_device_transfer_h2d(&device->base, source, buffer, 4, 8));
  assert_int_equal(grt_hal_test_buffer_data(buffer)[4], 1);
  assert_int_equal(grt_hal_test_buffer_data(buffer)[11], 8);
  uint8_t target[8] = {0};
  GRT_EXPECT_OK(
      grt_hal_device_transfer_d2h(&device->base, buffer, 6, target, 6));
  assert_int_equal(target[0], 3);
  assert_int_equal(target[5], 8);
  grt_expect_error(
      grt_hal_device_transfer_h2d(&device->base, source, buffer, 12, 8),
      GRT_STATUS_OUT_OF_RANGE,
      "range [12, 20) is outside buffer of 16 bytes; while copying 8 bytes "
      "from the host");
  grt_expect_error(
      grt_hal_device_transfer_d2h(&device->base, buffer, 16, target, 1),
      GRT_STATUS_OUT_OF_RANGE,
      "range [16, 17) is outside buffer of 16 bytes; while copying 1 bytes to "
      "the host");
  GRT_EXPECT_OK(grt_hal_device_transfer_h2d(&device->base, NULL, buffer, 0, 0));
  // A read-only buffer is refused before anything is mapped or staged, and
  // still reads back.
  grt_hal_buffer_restrict_access(buffer, GRT_HAL_MEMORY_ACCESS_READ);
  grt_expect_error(
      grt_hal_device_transfer_h2d(&device->base, source, buffer, 0, 8),
      GRT_STATUS_PERMISSION_DENIED,
      "copy from the host: expected a writable buffer (access READ|WRITE), "
      "got a read-only buffer of 16 bytes (access READ)");
  assert_int_equal(grt_hal_test_buffer_data(buffer)[0], 0);
  GRT_EXPECT_OK(
      grt_hal_device_transfer_d2h(&device->base, buffer, 6, target, 6));
  grt_hal_buffer_release(buffer);
}

static void test_staged_transfers(void** state) {
  (void)state;
  // Device-local memory that a heap also offers as host-visible for
  // staging: only the staging buffer is mappable.
  grt_hal_test_device_t* device = grt_hal_test_device_create(
      "fake://0",
      GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL | GRT_HAL_MEMORY_TYPE_HOST_VISIBLE,
      GRT_HAL_TEST_ALL_USAGE);
  check_round_trip(device);
  // Three staged copies (the refused write to the read-only buffer queues
  // nothing), each one queue execute.
  assert_int_equal(device->execute_count, 3);
  grt_hal_device_release(&device->base);
}

static void test_mapped_transfers(void** state) {
  (void)state;
  grt_hal_test_device_t* device = grt_hal_test_device_create(
      "fake://0", GRT_HAL_TEST_HOST_MEMORY, GRT_HAL_TEST_ALL_USAGE);
  grt_hal_buffer_t* buffer =
      grt_hal_test_allocate(device->allocator, GRT_HAL_TEST_ALL_USAGE, 8);
  const uint8_t source[4] = {9, 8, 7, 6};
  GRT_EXPECT_OK(
      grt_hal_device_transfer_h2d(&device->base, source, buffer, 0, 4));
  uint8_t target[4] = {0};
  GRT_EXPECT_OK(
      grt_hal_device_transfer_d2h(&device->base, buffer, 0, target, 4));
  assert_memory_equal(source, target, 4);
  assert_int_equal(device->execute_count, 0);
  assert_int_equal(device->allocator->map_count, 2);
  grt_hal_buffer_release(buffer);
  grt_hal_device_release(&device->base);
}

static void test_staging_needs_transfer_usage(void** state) {
  (void)state;
  grt_hal_test_device_t* device = grt_hal_test_device_create(
      "fake://0",
      GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL | GRT_HAL_MEMORY_TYPE_HOST_VISIBLE,
      GRT_HAL_TEST_ALL_USAGE);
  grt_hal_buffer_t* buffer = grt_hal_test_allocate(
      device->allocator, GRT_HAL_BUFFER_USAGE_DISPATCH_STORAGE, 8);
  uint8_t bytes[4] = {0};
  grt_expect_error(
      grt_hal_device_transfer_h2d(&device->base, bytes, buffer, 0, 4),
      GRT_STATUS_INVALID_ARGUMENT,
      "buffer usage DISPATCH_STORAGE lacks TRANSFER_TARGET");
  grt_expect_error(
      grt_hal_device_transfer_d2h(&device->base, buffer, 0, bytes, 4),
      GRT_STATUS_INVALID_ARGUMENT,
      "buffer usage DISPATCH_STORAGE lacks TRANSFER_SOURCE");
  grt_hal_buffer_release(buffer);
  grt_hal_device_release(&device->base);

  // A device with no host-visible heap cannot stage.
  device = grt_hal_test_device_create("fake://1", GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL,
                                      GRT_HAL_TEST_ALL_USAGE);
  buffer = grt_hal_test_allocate(device->allocator, GRT_HAL_BUFFER_USAGE_DEFAULT, 8);
  grt_expect_error(
      grt_hal_device_transfer_h2d(&device->base, bytes, buffer, 0, 4),
      GRT_STATUS_INVALID_ARGUMENT,
      "no heap offers memory type HOST_VISIBLE with usage "
      "TRANSFER_SOURCE|TRANSFER_TARGET|MAPPING");
  grt_hal_buffer_release(buffer);
  grt_hal_device_release(&device->base);
}

static void test_queue_copy(void** state) {
  (void)state;
  grt_hal_test_device_t* device = grt_hal_test_device_create(
      "fake://0", GRT_HAL_TEST_HOST_MEMORY, GRT_HAL_TEST_ALL_USAGE);
  grt_hal_buffer_t* a =
      grt_hal_test_allocate(device->allocator, GRT_HAL_TEST_ALL_USAGE, 8);
  grt_hal_buffer_t* b =
      grt_hal_test_allocate(device->allocator, GRT_HAL_TEST_ALL_USAGE, 8);
  for (int i = 0; i < 8; ++i) grt_hal_test_buffer_data(a)[i] = (uint8_t)(i + 1);
  grt_hal_semaphore_t* semaphore = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_semaphore(&device->base, 0, &semaphore));
  uint64_t values[2] = {1, 2};
  grt_hal_semaphore_list_t wait = {1, &semaphore, &values[0]};
  grt_hal_semaphore_list_t signal = {1, &semaphore, &values[1]};
  GRT_EXPECT_OK(grt_hal_semaphore_signal(semaphore, 1));
  GRT_EXPECT_OK(grt_hal_device_queue_copy(&device->base, wait, signal, a, 2,
                                              b, 4, 4));
  GRT_EXPECT_OK(grt_hal_semaphore_wait(semaphore, 2, GRT_HAL_TIMEOUT_INFINITE));
  assert_int_equal(grt_hal_test_buffer_data(b)[4], 3);
  assert_int_equal(grt_hal_test_buffer_data(b)[7], 6);
  grt_expect_error(
      grt_hal_device_queue_copy(&device->base, grt_hal_semaphore_list_empty(),
                                grt_hal_semaphore_list_empty(), a, 6, b, 0, 4),
      GRT_STATUS_OUT_OF_RANGE,
      "range [6, 10) is outside buffer of 8 bytes; copy source; while "
      "queueing a copy");
  // The queue copy records a command buffer, whose copy target check
  // refuses a read-only target.
  grt_hal_buffer_restrict_access(b, GRT_HAL_MEMORY_ACCESS_READ);
  grt_expect_error(
      grt_hal_device_queue_copy(&device->base, grt_hal_semaphore_list_empty(),
                                grt_hal_semaphore_list_empty(), a, 0, b, 0, 4),
      GRT_STATUS_PERMISSION_DENIED,
      "copy target: expected a writable buffer (access READ|WRITE), got a "
      "read-only buffer of 8 bytes (access READ)");
  assert_int_equal(grt_hal_test_buffer_data(b)[0], 0);
  grt_hal_semaphore_release(semaphore);
  grt_hal_buffer_release(a);
  grt_hal_buffer_release(b);
  grt_hal_device_release(&device->base);
}

static void test_buffer_view_host_round_trip(void** state) {
  (void)state;
  grt_hal_test_device_t* device = grt_hal_test_device_create(
      "fake://0",
      GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL | GRT_HAL_MEMORY_TYPE_HOST_VISIBLE,
      GRT_HAL_TEST_ALL_USAGE);
  const float data[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  grt_hal_dim_t shape[2] = {2, 2};
  grt_hal_buffer_view_t* view = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
      &device->base, shape, 2, GRT_HAL_ELEMENT_TYPE_FLOAT_32, data,
      sizeof(data), &view));
  // The heap makes device memory mappable, so no staging was needed.
  assert_int_equal(device->execute_count, 0);
  assert_true(grt_hal_buffer_usage(grt_hal_buffer_view_buffer(view)) &
              GRT_HAL_BUFFER_USAGE_MAPPING);
  float back[4] = {0};
  GRT_EXPECT_OK(
      grt_hal_buffer_view_read_to_host(&device->base, view, back, sizeof(back)));
  assert_memory_equal(data, back, sizeof(data));
  grt_expect_error(
      grt_hal_buffer_view_read_to_host(&device->base, view, back, 8),
      GRT_STATUS_OUT_OF_RANGE,
      "host target of 8 bytes is too small for tensor<2x2xf32> (16 bytes)");
  grt_hal_buffer_view_release(view);
  grt_expect_error(
      grt_hal_buffer_view_allocate_from_host(&device->base, shape, 2,
                                             GRT_HAL_ELEMENT_TYPE_FLOAT_32, data,
                                             12, &view),
      GRT_STATUS_INVALID_ARGUMENT,
      "host data of 12 bytes does not match tensor<2x2xf32> (16 bytes)");
  grt_expect_error(
      grt_hal_buffer_view_allocate_from_host(&device->base, shape, 2, 0x77, data,
                                             16, &view),
      GRT_STATUS_INVALID_ARGUMENT, "unknown element type 0x00000077");
  // Packed i4: five values are 3 bytes, one per value is refused.
  grt_hal_dim_t five[1] = {5};
  const uint8_t packed[5] = {0xE1, 0x73, 0x08, 0, 0};
  grt_expect_error(
      grt_hal_buffer_view_allocate_from_host(&device->base, five, 1,
                                             GRT_HAL_ELEMENT_TYPE_INT_4, packed, 5,
                                             &view),
      GRT_STATUS_INVALID_ARGUMENT,
      "host data of 5 bytes does not match tensor<5xi4> (3 bytes)");
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
      &device->base, five, 1, GRT_HAL_ELEMENT_TYPE_INT_4, packed, 3, &view));
  uint8_t packed_back[3] = {0};
  GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(&device->base, view, packed_back,
                                                 sizeof(packed_back)));
  assert_memory_equal(packed, packed_back, 3);
  grt_hal_buffer_view_release(view);
  grt_hal_device_release(&device->base);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_staged_transfers),
      cmocka_unit_test(test_mapped_transfers),
      cmocka_unit_test(test_staging_needs_transfer_usage),
      cmocka_unit_test(test_queue_copy),
      cmocka_unit_test(test_buffer_view_host_round_trip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
