// hal buffers and allocators: ranges, usages, flag text, subspans, mapping
// (with flush/invalidate on non-coherent memory), and allocator parameter
// checking.
#include "hal/buffer.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hal/allocator.h"
#include "hal/test_support.h"

static void test_flag_format(void** state) {
  (void)state;
  char text[64];
  assert_string_equal(
      grt_hal_memory_type_format(GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL |
                                     GRT_HAL_MEMORY_TYPE_HOST_VISIBLE,
                                 text, sizeof(text)),
      "DEVICE_LOCAL|HOST_VISIBLE");
  assert_string_equal(grt_hal_memory_type_format(0, text, sizeof(text)),
                      "NONE");
  assert_string_equal(
      grt_hal_buffer_usage_format(GRT_HAL_BUFFER_USAGE_DEFAULT, text,
                                  sizeof(text)),
      "TRANSFER_SOURCE|TRANSFER_TARGET|DISPATCH_STORAGE");
  assert_string_equal(
      grt_hal_buffer_usage_format(GRT_HAL_BUFFER_USAGE_MAPPING | 0x100u, text,
                                  sizeof(text)),
      "MAPPING|0x100");
  // Truncation keeps the text NUL-terminated.
  char small[8];
  grt_hal_memory_type_format(GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL, small,
                             sizeof(small));
  assert_string_equal(small, "DEVICE_");
}

static void test_calculate_range(void** state) {
  (void)state;
  grt_hal_test_allocator_t* allocator = grt_hal_test_allocator_create(
      GRT_HAL_TEST_HOST_MEMORY, GRT_HAL_TEST_ALL_USAGE);
  grt_hal_buffer_t* buffer =
      grt_hal_test_allocate(allocator, GRT_HAL_TEST_ALL_USAGE, 16);
  uint64_t length = 0;
  GRT_EXPECT_OK(grt_hal_buffer_calculate_range(buffer, 4, 8, &length));
  assert_int_equal(length, 8);
  GRT_EXPECT_OK(grt_hal_buffer_calculate_range(
      buffer, 4, GRT_HAL_WHOLE_BUFFER, &length));
  assert_int_equal(length, 12);
  GRT_EXPECT_OK(grt_hal_buffer_calculate_range(
      buffer, 16, GRT_HAL_WHOLE_BUFFER, &length));
  assert_int_equal(length, 0);
  grt_expect_error(grt_hal_buffer_calculate_range(buffer, 8, 16, &length),
                       GRT_STATUS_OUT_OF_RANGE,
                       "range [8, 24) is outside buffer of 16 bytes");
  grt_expect_error(
      grt_hal_buffer_calculate_range(buffer, 17, GRT_HAL_WHOLE_BUFFER, &length),
      GRT_STATUS_OUT_OF_RANGE, "offset 17 is outside buffer of 16 bytes");
  // offset + length would wrap 64 bits.
  grt_expect_error(
      grt_hal_buffer_calculate_range(buffer, 8, UINT64_MAX - 4, &length),
      GRT_STATUS_OUT_OF_RANGE, "at offset 8 is outside buffer of 16 bytes");
  grt_hal_buffer_release(buffer);
  grt_hal_allocator_release(&allocator->base);
}

static void test_validate_usage(void** state) {
  (void)state;
  grt_hal_test_allocator_t* allocator = grt_hal_test_allocator_create(
      GRT_HAL_TEST_HOST_MEMORY, GRT_HAL_TEST_ALL_USAGE);
  grt_hal_buffer_t* buffer = grt_hal_test_allocate(
      allocator,
      GRT_HAL_BUFFER_USAGE_TRANSFER_SOURCE | GRT_HAL_BUFFER_USAGE_DISPATCH_STORAGE,
      16);
  GRT_EXPECT_OK(grt_hal_buffer_validate_usage(
      buffer, GRT_HAL_BUFFER_USAGE_TRANSFER_SOURCE));
  grt_expect_error(
      grt_hal_buffer_validate_usage(buffer, GRT_HAL_BUFFER_USAGE_MAPPING |
                                                GRT_HAL_BUFFER_USAGE_DISPATCH_STORAGE),
      GRT_STATUS_INVALID_ARGUMENT,
      "buffer usage TRANSFER_SOURCE|DISPATCH_STORAGE lacks MAPPING");
  grt_hal_buffer_release(buffer);
  grt_hal_allocator_release(&allocator->base);
}

static void test_subspan(void** state) {
  (void)state;
  grt_hal_test_allocator_t* allocator = grt_hal_test_allocator_create(
      GRT_HAL_TEST_HOST_MEMORY, GRT_HAL_TEST_ALL_USAGE);
  grt_hal_buffer_t* buffer =
      grt_hal_test_allocate(allocator, GRT_HAL_TEST_ALL_USAGE, 32);
  for (int i = 0; i < 32; ++i) grt_hal_test_buffer_data(buffer)[i] = (uint8_t)i;
  grt_hal_buffer_t* outer = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_subspan(buffer, 8, 16, &outer));
  grt_hal_buffer_t* inner = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_subspan(outer, 4, GRT_HAL_WHOLE_BUFFER, &inner));
  // The subspan of a subspan views the allocated buffer directly.
  assert_ptr_equal(grt_hal_buffer_allocated_buffer(inner), buffer);
  assert_int_equal(grt_hal_buffer_byte_offset(inner), 12);
  assert_int_equal(grt_hal_buffer_byte_length(inner), 12);
  assert_int_equal(grt_hal_buffer_memory_type(inner), GRT_HAL_TEST_HOST_MEMORY);
  grt_hal_buffer_release(inner);
  grt_expect_error(grt_hal_buffer_subspan(outer, 8, 16, &inner),
                       GRT_STATUS_OUT_OF_RANGE,
                       "range [8, 24) is outside buffer of 16 bytes");
  GRT_EXPECT_OK(grt_hal_buffer_subspan(outer, 4, GRT_HAL_WHOLE_BUFFER, &inner));
  // Releasing the parents first: the subspan keeps the allocation alive.
  grt_hal_buffer_release(outer);
  grt_hal_buffer_release(buffer);
  uint8_t bytes[4] = {0};
  GRT_EXPECT_OK(grt_hal_buffer_map_read(inner, 2, bytes, sizeof(bytes)));
  assert_int_equal(bytes[0], 14);
  assert_int_equal(bytes[3], 17);
  const uint8_t written[2] = {0xAA, 0xBB};
  GRT_EXPECT_OK(grt_hal_buffer_map_write(inner, 0, written, 2));
  assert_int_equal(grt_hal_test_buffer_data(inner)[12], 0xAA);
  assert_int_equal(grt_hal_test_buffer_data(inner)[13], 0xBB);
  grt_expect_error(grt_hal_buffer_map_read(inner, 10, bytes, 4),
                       GRT_STATUS_OUT_OF_RANGE,
                       "range [10, 14) is outside buffer of 12 bytes");
  grt_hal_buffer_release(inner);
  grt_hal_allocator_release(&allocator->base);
}

static void test_map_checks(void** state) {
  (void)state;
  grt_hal_test_allocator_t* device_only = grt_hal_test_allocator_create(
      GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL, GRT_HAL_TEST_ALL_USAGE);
  grt_hal_buffer_t* buffer =
      grt_hal_test_allocate(device_only, GRT_HAL_TEST_ALL_USAGE, 16);
  grt_hal_buffer_mapping_t mapping;
  grt_expect_error(
      grt_hal_buffer_map_range(buffer, GRT_HAL_MEMORY_ACCESS_READ, 0, 4,
                               &mapping),
      GRT_STATUS_FAILED_PRECONDITION,
      "buffer is not host-visible (memory type DEVICE_LOCAL); use "
      "hal/transfer.h");
  grt_hal_buffer_release(buffer);
  grt_hal_allocator_release(&device_only->base);

  grt_hal_test_allocator_t* host = grt_hal_test_allocator_create(
      GRT_HAL_TEST_HOST_MEMORY, GRT_HAL_TEST_ALL_USAGE);
  buffer = grt_hal_test_allocate(host, GRT_HAL_BUFFER_USAGE_DEFAULT, 16);
  grt_expect_error(
      grt_hal_buffer_map_range(buffer, GRT_HAL_MEMORY_ACCESS_READ, 0, 4,
                               &mapping),
      GRT_STATUS_INVALID_ARGUMENT, "lacks MAPPING");
  grt_hal_buffer_release(buffer);
  grt_expect_error(grt_hal_buffer_unmap_range(&mapping),
                       GRT_STATUS_FAILED_PRECONDITION,
                       "unmap of a mapping that is not mapped");
  grt_hal_allocator_release(&host->base);
}

static void test_non_coherent_flush_and_invalidate(void** state) {
  (void)state;
  grt_hal_test_allocator_t* allocator = grt_hal_test_allocator_create(
      GRT_HAL_MEMORY_TYPE_HOST_VISIBLE, GRT_HAL_TEST_ALL_USAGE);
  grt_hal_buffer_t* buffer =
      grt_hal_test_allocate(allocator, GRT_HAL_TEST_ALL_USAGE, 16);
  uint8_t bytes[4] = {1, 2, 3, 4};
  GRT_EXPECT_OK(grt_hal_buffer_map_write(buffer, 4, bytes, 4));
  assert_int_equal(allocator->flush_count, 1);
  assert_int_equal(allocator->invalidate_count, 0);
  GRT_EXPECT_OK(grt_hal_buffer_map_read(buffer, 4, bytes, 4));
  assert_int_equal(allocator->flush_count, 1);
  assert_int_equal(allocator->invalidate_count, 1);
  assert_int_equal(allocator->map_count, 2);
  assert_int_equal(allocator->unmap_count, 2);
  grt_hal_buffer_mapping_t mapping;
  GRT_EXPECT_OK(grt_hal_buffer_map_range(
      buffer, GRT_HAL_MEMORY_ACCESS_READ_WRITE, 8, GRT_HAL_WHOLE_BUFFER,
      &mapping));
  assert_int_equal(mapping.length, 8);
  assert_int_equal(mapping.offset, 8);
  assert_int_equal(allocator->invalidate_count, 2);
  GRT_EXPECT_OK(grt_hal_buffer_unmap_range(&mapping));
  assert_int_equal(allocator->flush_count, 2);
  grt_hal_buffer_release(buffer);

  // Coherent memory needs neither.
  grt_hal_test_allocator_t* coherent = grt_hal_test_allocator_create(
      GRT_HAL_TEST_HOST_MEMORY, GRT_HAL_TEST_ALL_USAGE);
  buffer = grt_hal_test_allocate(coherent, GRT_HAL_TEST_ALL_USAGE, 16);
  GRT_EXPECT_OK(grt_hal_buffer_map_write(buffer, 0, bytes, 4));
  GRT_EXPECT_OK(grt_hal_buffer_map_read(buffer, 0, bytes, 4));
  assert_int_equal(coherent->flush_count, 0);
  assert_int_equal(coherent->invalidate_count, 0);
  grt_hal_buffer_release(buffer);
  grt_hal_allocator_release(&coherent->base);
  grt_hal_allocator_release(&allocator->base);
}

static void test_allocator_params(void** state) {
  (void)state;
  grt_hal_test_allocator_t* allocator = grt_hal_test_allocator_create(
      GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL, GRT_HAL_BUFFER_USAGE_DEFAULT);
  grt_hal_buffer_params_t params = {0, 0, 0, 0};
  grt_hal_buffer_t* buffer = NULL;
  // Defaults: DEVICE_LOCAL, DEFAULT usage.
  GRT_EXPECT_OK(
      grt_hal_allocator_allocate_buffer(&allocator->base, params, 0, &buffer));
  assert_int_equal(grt_hal_buffer_usage(buffer), GRT_HAL_BUFFER_USAGE_DEFAULT);
  assert_int_equal(grt_hal_buffer_byte_length(buffer), 0);
  grt_hal_buffer_release(buffer);
  params.min_alignment = 48;
  grt_expect_error(
      grt_hal_allocator_allocate_buffer(&allocator->base, params, 4, &buffer),
      GRT_STATUS_INVALID_ARGUMENT,
      "buffer alignment must be a power of two, got 48");
  params.min_alignment = 0;
  params.type = GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL | GRT_HAL_MEMORY_TYPE_HOST_VISIBLE;
  params.usage = GRT_HAL_BUFFER_USAGE_MAPPING;
  grt_expect_error(
      grt_hal_allocator_allocate_buffer(&allocator->base, params, 4, &buffer),
      GRT_STATUS_INVALID_ARGUMENT,
      "no heap offers memory type DEVICE_LOCAL|HOST_VISIBLE with usage "
      "MAPPING; heaps: DEVICE_LOCAL (usage "
      "TRANSFER_SOURCE|TRANSFER_TARGET|DISPATCH_STORAGE, max 1048576 bytes)");
  params.type = 0;
  params.usage = 0;
  grt_expect_error(grt_hal_allocator_allocate_buffer(&allocator->base,
                                                         params, 1u << 21,
                                                         &buffer),
                       GRT_STATUS_RESOURCE_EXHAUSTED,
                       "buffer of 2097152 bytes is larger than any heap");
  grt_hal_buffer_release_callback_t release = {NULL, NULL};
  uint8_t host[16];
  grt_expect_error(
      grt_hal_allocator_import_host_buffer(&allocator->base, params, host,
                                           sizeof(host), release, &buffer),
      GRT_STATUS_UNIMPLEMENTED, "cannot import host memory");
  grt_hal_allocator_statistics_t statistics;
  grt_hal_allocator_query_statistics(&allocator->base, &statistics);
  assert_int_equal(statistics.allocation_count, 1);
  grt_hal_allocator_release(&allocator->base);
}

// Read-only buffers (params.access READ, or narrowed later) refuse every
// write through the mapping API, and subspans keep that.
static void test_read_only_access(void** state) {
  (void)state;
  char text[64];
  assert_string_equal(grt_hal_memory_access_format(
                          GRT_HAL_MEMORY_ACCESS_READ_WRITE, text, sizeof(text)),
                      "READ|WRITE");
  assert_string_equal(grt_hal_memory_access_format(0, text, sizeof(text)),
                      "NONE");
  grt_hal_test_allocator_t* allocator = grt_hal_test_allocator_create(
      GRT_HAL_TEST_HOST_MEMORY, GRT_HAL_TEST_ALL_USAGE);
  grt_hal_buffer_params_t params = {GRT_HAL_TEST_HOST_MEMORY,
                                    GRT_HAL_TEST_ALL_USAGE, 0,
                                    GRT_HAL_MEMORY_ACCESS_WRITE};
  grt_hal_buffer_t* buffer = NULL;
  grt_expect_error(
      grt_hal_allocator_allocate_buffer(&allocator->base, params, 16, &buffer),
      GRT_STATUS_INVALID_ARGUMENT,
      "buffer access must be READ or READ|WRITE, got WRITE");
  params.access = 0;  // default: writable
  GRT_EXPECT_OK(
      grt_hal_allocator_allocate_buffer(&allocator->base, params, 16, &buffer));
  assert_int_equal(grt_hal_buffer_allowed_access(buffer),
                   GRT_HAL_MEMORY_ACCESS_READ_WRITE);
  grt_hal_buffer_release(buffer);
  params.access = GRT_HAL_MEMORY_ACCESS_READ;
  GRT_EXPECT_OK(
      grt_hal_allocator_allocate_buffer(&allocator->base, params, 16, &buffer));
  assert_int_equal(grt_hal_buffer_allowed_access(buffer),
                   GRT_HAL_MEMORY_ACCESS_READ);
  uint8_t bytes[16] = {0};
  GRT_EXPECT_OK(grt_hal_buffer_map_read(buffer, 0, bytes, sizeof(bytes)));
  grt_expect_error(grt_hal_buffer_map_write(buffer, 0, bytes, 4),
                   GRT_STATUS_PERMISSION_DENIED,
                   "map for writing: expected a writable buffer (access "
                   "READ|WRITE), got a read-only buffer of 16 bytes (access "
                   "READ)");
  grt_hal_buffer_mapping_t mapping;
  grt_expect_error(
      grt_hal_buffer_map_range(buffer, GRT_HAL_MEMORY_ACCESS_DISCARD, 0, 4,
                               &mapping),
      GRT_STATUS_PERMISSION_DENIED, "map for writing: expected a writable");
  grt_expect_error(grt_hal_buffer_validate_writable(buffer, "an operation"),
                   GRT_STATUS_PERMISSION_DENIED,
                   "an operation: expected a writable buffer");
  // A subspan cannot widen what the buffer allows.
  grt_hal_buffer_t* subspan = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_subspan(buffer, 8, 8, &subspan));
  assert_int_equal(grt_hal_buffer_allowed_access(subspan),
                   GRT_HAL_MEMORY_ACCESS_READ);
  grt_expect_error(grt_hal_buffer_map_write(subspan, 0, bytes, 4),
                   GRT_STATUS_PERMISSION_DENIED,
                   "got a read-only buffer of 8 bytes (access READ)");
  grt_hal_buffer_release(subspan);
  grt_hal_buffer_release(buffer);
  // Narrowing after the fact (a device copy filled once, then read-only).
  params.access = 0;
  GRT_EXPECT_OK(
      grt_hal_allocator_allocate_buffer(&allocator->base, params, 16, &buffer));
  GRT_EXPECT_OK(grt_hal_buffer_map_write(buffer, 0, bytes, 4));
  grt_hal_buffer_restrict_access(buffer, GRT_HAL_MEMORY_ACCESS_READ);
  grt_expect_error(grt_hal_buffer_map_write(buffer, 0, bytes, 4),
                   GRT_STATUS_PERMISSION_DENIED,
                   "got a read-only buffer of 16 bytes (access READ)");
  // Restricting never adds bits back.
  grt_hal_buffer_restrict_access(buffer, GRT_HAL_MEMORY_ACCESS_READ_WRITE);
  assert_int_equal(grt_hal_buffer_allowed_access(buffer),
                   GRT_HAL_MEMORY_ACCESS_READ);
  grt_hal_buffer_release(buffer);
  grt_hal_allocator_release(&allocator->base);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_read_only_access),
      cmocka_unit_test(test_flag_format),
      cmocka_unit_test(test_calculate_range),
      cmocka_unit_test(test_validate_usage),
      cmocka_unit_test(test_subspan),
      cmocka_unit_test(test_map_checks),
      cmocka_unit_test(test_non_coherent_flush_and_invalidate),
      cmocka_unit_test(test_allocator_params),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
