// The vulkan-spirv container: a write/parse round trip and every error the
// writer and the verifying reader report.
#include "schemas/spirv_container.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/endian.h"
#include "base/status_matchers.h"

// Two minimal "modules": a SPIR-V header plus a payload word or two.
static const uint32_t kModuleA[] = {GRT_SPIRV_MAGIC, 0x00010300u, 0, 8, 0,
                                    0xAAAAAAAAu};
static const uint32_t kModuleB[] = {GRT_SPIRV_MAGIC, 0x00010000u, 0, 4, 0,
                                    0xBBBBBBBBu, 0xCCCCCCCCu};

// A written two-module container copied into aligned storage the test
// may corrupt; returns its size.
static _Alignas(8) uint8_t g_buffer[256];
static size_t write_example(void) {
  grt_spirv_module_t modules[2] = {{kModuleA, 6}, {kModuleB, 7}};
  uint8_t* data = NULL;
  size_t size = 0;
  GRT_EXPECT_OK(grt_spirv_container_write(modules, 2, grt_allocator_system(),
                                          &data, &size));
  assert_true(size <= sizeof(g_buffer));
  memcpy(g_buffer, data, size);
  grt_allocator_free(grt_allocator_system(), data);
  return size;
}

static void round_trip(void** state) {
  (void)state;
  size_t size = write_example();
  assert_int_equal(size, 12 + 2 * 8 + 6 * 4 + 7 * 4);
  assert_int_equal(grt_load_le_u32(g_buffer), 0x56535247u);
  assert_memory_equal(g_buffer, "GRSV", 4);
  grt_spirv_container_t container;
  GRT_EXPECT_OK(grt_spirv_container_parse(g_buffer, size, &container));
  assert_int_equal(container.entry_count, 2);
  const uint32_t* words = NULL;
  size_t bytes = 0;
  grt_spirv_container_module(&container, 0, &words, &bytes);
  assert_int_equal(bytes, sizeof(kModuleA));
  assert_memory_equal(words, kModuleA, sizeof(kModuleA));
  grt_spirv_container_module(&container, 1, &words, &bytes);
  assert_int_equal(bytes, sizeof(kModuleB));
  assert_memory_equal(words, kModuleB, sizeof(kModuleB));
}

static void empty_container(void** state) {
  (void)state;
  uint8_t* data = NULL;
  size_t size = 0;
  GRT_EXPECT_OK(grt_spirv_container_write(NULL, 0, grt_allocator_system(),
                                          &data, &size));
  assert_int_equal(size, 12);
  memcpy(g_buffer, data, size);
  grt_allocator_free(grt_allocator_system(), data);
  grt_spirv_container_t container;
  GRT_EXPECT_OK(grt_spirv_container_parse(g_buffer, size, &container));
  assert_int_equal(container.entry_count, 0);
}

static void writer_rejects_bad_modules(void** state) {
  (void)state;
  uint8_t* data = NULL;
  size_t size = 0;
  grt_spirv_module_t short_module = {kModuleA, 4};
  grt_expect_error(grt_spirv_container_write(&short_module, 1,
                                             grt_allocator_system(), &data,
                                             &size),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "module 0 has 16 bytes, expected at least 20");
  grt_spirv_module_t wrong_magic[2] = {{kModuleA, 6}, {kModuleA + 1, 5}};
  grt_expect_error(grt_spirv_container_write(wrong_magic, 2,
                                             grt_allocator_system(), &data,
                                             &size),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "module 1 starts with 0x00010300, expected the SPIR-V "
                   "magic 0x07230203");
  assert_null(data);
}

static void parse_error(size_t size, grt_status_code_t code,
                        const char* fragment) {
  grt_spirv_container_t container;
  grt_expect_error(grt_spirv_container_parse(g_buffer, size, &container), code,
                   fragment);
  assert_int_equal(container.entry_count, 0);
}

static void reader_header_errors(void** state) {
  (void)state;
  size_t size = write_example();
  parse_error(11, GRT_STATUS_INVALID_ARGUMENT,
              "11 bytes, expected at least 12 (the header)");
  grt_store_le_u32(g_buffer, 0x12345678u);
  parse_error(size, GRT_STATUS_INVALID_ARGUMENT,
              "magic 0x12345678, expected 0x56535247");
  write_example();
  grt_store_le_u32(g_buffer + 4, 2);
  parse_error(size, GRT_STATUS_INCOMPATIBLE, "version 2, expected 1");
  write_example();
  grt_store_le_u32(g_buffer + 8, 1000);
  parse_error(size, GRT_STATUS_INVALID_ARGUMENT,
              "1000 entries need a 8012-byte header and table, but the "
              "binary has 80 bytes");
  write_example();
  grt_spirv_container_t container;
  grt_expect_error(grt_spirv_container_parse(g_buffer + 1, size - 1,
                                             &container),
                   GRT_STATUS_INVALID_ARGUMENT, "expected a 4-byte aligned");
}

static void reader_record_errors(void** state) {
  (void)state;
  size_t size = write_example();
  // Entry 1's record is at byte 20: offset, then size.
  grt_store_le_u32(g_buffer + 20, 54);
  parse_error(size, GRT_STATUS_INVALID_ARGUMENT,
              "entry 1 at offset 54 size 28, expected both multiples of 4");
  write_example();
  grt_store_le_u32(g_buffer + 24, 30);
  parse_error(size, GRT_STATUS_INVALID_ARGUMENT,
              "entry 1 at offset 52 size 30, expected both multiples of 4");
  write_example();
  grt_store_le_u32(g_buffer + 24, 32);
  parse_error(size, GRT_STATUS_INVALID_ARGUMENT,
              "entry 1 spans bytes [52, 84), expected within [28, 80)");
  write_example();
  grt_store_le_u32(g_buffer + 12, 8);  // entry 0 inside the record table
  parse_error(size, GRT_STATUS_INVALID_ARGUMENT,
              "entry 0 spans bytes [8, 32), expected within [28, 80)");
  write_example();
  grt_store_le_u32(g_buffer + 12, 0xFFFFFFFCu);  // offset + size overflows u32
  parse_error(size, GRT_STATUS_INVALID_ARGUMENT,
              "entry 0 spans bytes [4294967292, 4294967316)");
  write_example();
  grt_store_le_u32(g_buffer + 16, 16);
  parse_error(size, GRT_STATUS_INVALID_ARGUMENT,
              "entry 0 has 16 bytes, expected at least 20 (the SPIR-V "
              "header)");
  write_example();
  grt_store_le_u32(g_buffer + 52, 0xDEADBEEFu);
  parse_error(size, GRT_STATUS_INVALID_ARGUMENT,
              "entry 1 starts with 0xdeadbeef, expected the SPIR-V magic "
              "0x07230203");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(round_trip),
      cmocka_unit_test(empty_container),
      cmocka_unit_test(writer_rejects_bad_modules),
      cmocka_unit_test(reader_header_errors),
      cmocka_unit_test(reader_record_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
