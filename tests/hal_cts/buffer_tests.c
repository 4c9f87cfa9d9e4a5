// Conformance: allocators and buffers (memory types and usages, subspans,
// mapping, host transfers).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "hal/transfer.h"
#include "tests/hal_cts/cts.h"

#define MAX_HEAPS 16

static size_t query_heaps(grt_hal_allocator_memory_heap_t* heaps) {
  size_t count = 0;
  grt_hal_allocator_query_memory_heaps(grt_hal_cts_allocator(), MAX_HEAPS,
                                       heaps, &count);
  assert_true(count > 0);
  return count < MAX_HEAPS ? count : MAX_HEAPS;
}

// A heap that can be mapped, or NULL (and the test skipped).
static grt_hal_allocator_memory_heap_t require_mappable_heap(void) {
  grt_hal_allocator_memory_heap_t heaps[MAX_HEAPS];
  size_t count = query_heaps(heaps);
  for (size_t i = 0; i < count; ++i) {
    if ((heaps[i].type & GRT_HAL_MEMORY_TYPE_HOST_VISIBLE) &&
        (heaps[i].allowed_usage & GRT_HAL_BUFFER_USAGE_MAPPING)) {
      return heaps[i];
    }
  }
  printf("hal_cts: not run: no heap of %s is host-visible with MAPPING usage\n",
         grt_hal_cts.device_uri);
  skip();
  return heaps[0];
}

static void fill_pattern(uint8_t* bytes, size_t length, uint8_t seed) {
  for (size_t i = 0; i < length; ++i) bytes[i] = (uint8_t)(seed + i * 7);
}

// Every heap with every usage combination it allows: the buffer has what
// was asked for, and mappable ones hold what is written to them.
static void test_buffer_allocate_each_heap(void** state) {
  (void)state;
  static const grt_hal_buffer_usage_t kUsages[] = {
      GRT_HAL_BUFFER_USAGE_TRANSFER,
      GRT_HAL_BUFFER_USAGE_DISPATCH_STORAGE,
      GRT_HAL_BUFFER_USAGE_MAPPING,
      GRT_HAL_BUFFER_USAGE_DEFAULT,
      GRT_HAL_BUFFER_USAGE_DEFAULT | GRT_HAL_BUFFER_USAGE_MAPPING,
  };
  grt_hal_allocator_memory_heap_t heaps[MAX_HEAPS];
  size_t heap_count = query_heaps(heaps);
  size_t tried = 0;
  for (size_t h = 0; h < heap_count; ++h) {
    for (size_t u = 0; u < sizeof(kUsages) / sizeof(kUsages[0]); ++u) {
      grt_hal_buffer_usage_t usage = kUsages[u];
      if ((heaps[h].allowed_usage & usage) != usage) continue;
      grt_hal_allocator_statistics_t before, after;
      grt_hal_allocator_query_statistics(grt_hal_cts_allocator(), &before);
      grt_hal_buffer_t* buffer =
          grt_hal_cts_allocate_with(heaps[h].type, usage, 100);
      grt_hal_allocator_query_statistics(grt_hal_cts_allocator(), &after);
      ++tried;
      char type_text[96], usage_text[96];
      grt_hal_memory_type_format(heaps[h].type, type_text, sizeof(type_text));
      grt_hal_buffer_usage_format(usage, usage_text, sizeof(usage_text));
      if ((grt_hal_buffer_memory_type(buffer) & heaps[h].type) !=
          heaps[h].type) {
        fail_msg("heap %s: buffer memory type lacks requested bits", type_text);
      }
      if ((grt_hal_buffer_usage(buffer) & usage) != usage) {
        fail_msg("heap %s usage %s: buffer usage lacks requested bits",
                 type_text, usage_text);
      }
      assert_int_equal(grt_hal_buffer_byte_length(buffer), 100);
      assert_int_equal(grt_hal_buffer_byte_offset(buffer), 0);
      assert_ptr_equal(grt_hal_buffer_allocated_buffer(buffer), buffer);
      assert_true(after.allocation_count > before.allocation_count);
      assert_true(after.bytes_allocated >= before.bytes_allocated + 100);
      if ((heaps[h].type & GRT_HAL_MEMORY_TYPE_HOST_VISIBLE) &&
          (usage & GRT_HAL_BUFFER_USAGE_MAPPING)) {
        uint8_t written[100], read[100];
        fill_pattern(written, sizeof(written), (uint8_t)(h * 16 + u));
        GRT_EXPECT_OK(
            grt_hal_buffer_map_write(buffer, 0, written, sizeof(written)));
        GRT_EXPECT_OK(
            grt_hal_buffer_map_read(buffer, 0, read, sizeof(read)));
        grt_hal_cts_expect_bytes(type_text, read, written, sizeof(read));
      }
      grt_hal_buffer_release(buffer);
    }
  }
  assert_true(tried > 0);
}

// A heap that does not offer a memory type/usage pair says so.
static void test_buffer_allocate_unavailable_usage(void** state) {
  (void)state;
  grt_hal_buffer_params_t params = {GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL,
                                    (grt_hal_buffer_usage_t)(1u << 30), 0, 0};
  grt_hal_buffer_t* buffer = NULL;
  grt_expect_error(
      grt_hal_allocator_allocate_buffer(grt_hal_cts_allocator(), params, 16,
                                        &buffer),
      GRT_STATUS_INVALID_ARGUMENT, "no heap offers memory type DEVICE_LOCAL");
  assert_null(buffer);
}

static void test_buffer_zero_length(void** state) {
  (void)state;
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate(0);
  assert_int_equal(grt_hal_buffer_byte_length(buffer), 0);
  grt_hal_buffer_t* empty = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_subspan(buffer, 0, 0, &empty));
  assert_int_equal(grt_hal_buffer_byte_length(empty), 0);
  grt_hal_buffer_release(empty);
  grt_hal_buffer_t* beyond = NULL;
  grt_expect_error(grt_hal_buffer_subspan(buffer, 0, 1, &beyond),
                           GRT_STATUS_OUT_OF_RANGE,
                           "range [0, 1) is outside buffer of 0 bytes");
  grt_hal_buffer_release(buffer);
}

static void test_buffer_subspan_of_subspan(void** state) {
  (void)state;
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate(256);
  grt_hal_cts_write_bytes(buffer, 0, 0, 256);
  grt_hal_buffer_t* outer = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_subspan(buffer, 64, 128, &outer));
  grt_hal_buffer_t* inner = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_subspan(outer, 32, 64, &inner));
  assert_ptr_equal(grt_hal_buffer_allocated_buffer(inner), buffer);
  assert_int_equal(grt_hal_buffer_byte_offset(inner), 96);
  assert_int_equal(grt_hal_buffer_byte_length(inner), 64);
  grt_hal_buffer_t* tail = NULL;
  GRT_EXPECT_OK(
      grt_hal_buffer_subspan(outer, 16, GRT_HAL_WHOLE_BUFFER, &tail));
  assert_int_equal(grt_hal_buffer_byte_offset(tail), 80);
  assert_int_equal(grt_hal_buffer_byte_length(tail), 112);

  // The views keep the allocation alive and address the same bytes.
  grt_hal_buffer_release(outer);
  grt_hal_buffer_release(buffer);
  uint8_t written[64], read[64];
  fill_pattern(written, sizeof(written), 3);
  grt_hal_cts_write(inner, 0, written, sizeof(written));
  grt_hal_cts_read(tail, 16, read, sizeof(read));
  grt_hal_cts_expect_bytes("inner subspan read through tail", read, written,
                           sizeof(read));
  grt_hal_buffer_release(tail);
  grt_hal_buffer_release(inner);
}

static void test_buffer_subspan_out_of_range(void** state) {
  (void)state;
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate(16);
  grt_hal_buffer_t* out = NULL;
  grt_expect_error(grt_hal_buffer_subspan(buffer, 8, 16, &out),
                           GRT_STATUS_OUT_OF_RANGE,
                           "range [8, 24) is outside buffer of 16 bytes");
  grt_expect_error(
      grt_hal_buffer_subspan(buffer, 17, GRT_HAL_WHOLE_BUFFER, &out),
      GRT_STATUS_OUT_OF_RANGE, "outside buffer of 16 bytes");
  grt_hal_buffer_t* outer = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_subspan(buffer, 4, 8, &outer));
  // Ranges of a subspan are checked against the subspan, not the
  // allocation behind it.
  grt_expect_error(grt_hal_buffer_subspan(outer, 4, 8, &out),
                           GRT_STATUS_OUT_OF_RANGE,
                           "range [4, 12) is outside buffer of 8 bytes");
  assert_null(out);
  grt_hal_buffer_release(outer);
  grt_hal_buffer_release(buffer);
}

// Memory the host cannot see is never mapped; devices whose every heap is
// host-visible (CPU devices) cannot have such memory.
static void test_buffer_map_device_local_fails(void** state) {
  (void)state;
  grt_hal_allocator_memory_heap_t heaps[MAX_HEAPS];
  size_t count = query_heaps(heaps);
  const grt_hal_allocator_memory_heap_t* hidden = NULL;
  for (size_t i = 0; i < count && !hidden; ++i) {
    if (!(heaps[i].type & GRT_HAL_MEMORY_TYPE_HOST_VISIBLE)) hidden = &heaps[i];
  }
  if (!hidden) {
    printf("hal_cts: not run: every heap of %s is host-visible\n",
           grt_hal_cts.device_uri);
    skip();
  }
  bool mappable = (hidden->allowed_usage & GRT_HAL_BUFFER_USAGE_MAPPING) != 0;
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate_with(
      hidden->type,
      GRT_HAL_BUFFER_USAGE_TRANSFER |
          (mappable ? GRT_HAL_BUFFER_USAGE_MAPPING : 0),
      64);
  grt_hal_buffer_mapping_t mapping;
  grt_status_t status = grt_hal_buffer_map_range(
      buffer, GRT_HAL_MEMORY_ACCESS_READ, 0, 64, &mapping);
  if (mappable) {
    grt_expect_error(status, GRT_STATUS_FAILED_PRECONDITION,
                             "buffer is not host-visible");
  } else {
    grt_expect_error(status, GRT_STATUS_INVALID_ARGUMENT,
                             "lacks MAPPING");
  }
  grt_hal_buffer_release(buffer);
}

// A buffer made without MAPPING usage is not mapped even when its memory
// could be.
static void test_buffer_map_without_mapping_usage(void** state) {
  (void)state;
  grt_hal_allocator_memory_heap_t heap = require_mappable_heap();
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate_with(
      heap.type, GRT_HAL_BUFFER_USAGE_TRANSFER, 32);
  grt_hal_buffer_mapping_t mapping;
  grt_expect_error(
      grt_hal_buffer_map_range(buffer, GRT_HAL_MEMORY_ACCESS_READ, 0, 32,
                               &mapping),
      GRT_STATUS_INVALID_ARGUMENT, "lacks MAPPING");
  grt_hal_buffer_release(buffer);
}

static void test_buffer_map_round_trip(void** state) {
  (void)state;
  grt_hal_allocator_memory_heap_t heap = require_mappable_heap();
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate_with(
      heap.type, GRT_HAL_BUFFER_USAGE_DEFAULT | GRT_HAL_BUFFER_USAGE_MAPPING,
      128);
  uint8_t zeros[128] = {0};
  GRT_EXPECT_OK(grt_hal_buffer_map_write(buffer, 0, zeros, 128));

  grt_hal_buffer_mapping_t mapping;
  GRT_EXPECT_OK(grt_hal_buffer_map_range(
      buffer, GRT_HAL_MEMORY_ACCESS_WRITE, 16, 32, &mapping));
  assert_int_equal(mapping.length, 32);
  uint8_t written[32];
  fill_pattern(written, sizeof(written), 11);
  memcpy(mapping.contents, written, sizeof(written));
  GRT_EXPECT_OK(grt_hal_buffer_unmap_range(&mapping));

  GRT_EXPECT_OK(grt_hal_buffer_map_range(
      buffer, GRT_HAL_MEMORY_ACCESS_READ, 0, GRT_HAL_WHOLE_BUFFER, &mapping));
  assert_int_equal(mapping.length, 128);
  uint8_t expected[128] = {0};
  memcpy(expected + 16, written, sizeof(written));
  grt_hal_cts_expect_bytes("mapped buffer", (const uint8_t*)mapping.contents,
                           expected, sizeof(expected));
  GRT_EXPECT_OK(grt_hal_buffer_unmap_range(&mapping));

  // A subspan maps the same bytes at its own offsets.
  grt_hal_buffer_t* view = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_subspan(buffer, 16, 32, &view));
  uint8_t read[32];
  GRT_EXPECT_OK(grt_hal_buffer_map_read(view, 0, read, sizeof(read)));
  grt_hal_cts_expect_bytes("mapped subspan", read, written, sizeof(read));
  grt_expect_error(
      grt_hal_buffer_map_range(view, GRT_HAL_MEMORY_ACCESS_READ, 24, 16,
                               &mapping),
      GRT_STATUS_OUT_OF_RANGE, "range [24, 40) is outside buffer of 32 bytes");
  grt_hal_buffer_release(view);
  grt_hal_buffer_release(buffer);
}

// hal/transfer.h works for the device-local memory every device has,
// including unaligned offsets and lengths.
static void test_buffer_transfer_round_trip(void** state) {
  (void)state;
  grt_hal_buffer_t* buffer = grt_hal_cts_allocate(1024);
  grt_hal_cts_write_bytes(buffer, 0, 0x5A, 1024);
  uint8_t written[1001], read[1024];
  fill_pattern(written, sizeof(written), 1);
  GRT_EXPECT_OK(grt_hal_device_transfer_h2d(
      grt_hal_cts_device(), written, buffer, 7, sizeof(written)));
  GRT_EXPECT_OK(grt_hal_device_transfer_d2h(grt_hal_cts_device(),
                                                    buffer, 0, read, 1024));
  uint8_t expected[1024];
  memset(expected, 0x5A, sizeof(expected));
  memcpy(expected + 7, written, sizeof(written));
  grt_hal_cts_expect_bytes("transfer round trip", read, expected, 1024);
  grt_hal_buffer_release(buffer);
}

static const struct CMUnitTest kTests[] = {
    cmocka_unit_test(test_buffer_allocate_each_heap),
    cmocka_unit_test(test_buffer_allocate_unavailable_usage),
    cmocka_unit_test(test_buffer_zero_length),
    cmocka_unit_test(test_buffer_subspan_of_subspan),
    cmocka_unit_test(test_buffer_subspan_out_of_range),
    cmocka_unit_test(test_buffer_map_device_local_fails),
    cmocka_unit_test(test_buffer_map_without_mapping_usage),
    cmocka_unit_test(test_buffer_map_round_trip),
    cmocka_unit_test(test_buffer_transfer_round_trip),
};
GRT_HAL_CTS_GROUP(grt_hal_cts_buffer_group, "buffers", kTests);
