#include "base/endian.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

// A buffer with a one-byte skew so every access below is misaligned.
typedef struct {
  uint64_t align;
  unsigned char bytes[32];
} skewed_buffer_t;

static void test_loads_read_little_endian_bytes_at_odd_addresses(void** state) {
  (void)state;
  skewed_buffer_t buffer;
  const unsigned char pattern[] = {0x01, 0x02, 0x03, 0x04,
                                   0x05, 0x06, 0x07, 0x88};
  unsigned char* p = buffer.bytes + 1;
  memcpy(p, pattern, sizeof(pattern));
  assert_int_equal(grt_load_le_u8(p), 0x01);
  assert_int_equal(grt_load_le_u16(p), 0x0201);
  assert_int_equal(grt_load_le_u32(p), 0x04030201u);
  assert_true(grt_load_le_u64(p) == UINT64_C(0x8807060504030201));
  // The top byte 0x88 makes the signed 64-bit value negative.
  assert_true(grt_load_le_i64(p) < 0);
  assert_true((uint64_t)grt_load_le_i64(p) == UINT64_C(0x8807060504030201));
}

static void test_stores_write_little_endian_bytes_at_odd_addresses(void** state) {
  (void)state;
  skewed_buffer_t buffer;
  memset(&buffer, 0, sizeof(buffer));
  unsigned char* p = buffer.bytes + 3;
  grt_store_le_u32(p, 0xA1B2C3D4u);
  const unsigned char expected32[] = {0xD4, 0xC3, 0xB2, 0xA1};
  assert_memory_equal(p, expected32, sizeof(expected32));
  grt_store_le_u16(p, 0xBEEF);
  const unsigned char expected16[] = {0xEF, 0xBE, 0xB2, 0xA1};
  assert_memory_equal(p, expected16, sizeof(expected16));
  grt_store_le_u64(p, UINT64_C(0x0102030405060708));
  const unsigned char expected64[] = {8, 7, 6, 5, 4, 3, 2, 1};
  assert_memory_equal(p, expected64, sizeof(expected64));
  grt_store_le_u8(p, 0x7F);
  assert_int_equal(p[0], 0x7F);
  assert_int_equal(p[1], 7);
}

static void test_signed_values_round_trip(void** state) {
  (void)state;
  unsigned char bytes[9];
  grt_store_le_i8(bytes + 1, -2);
  assert_int_equal(bytes[1], 0xFE);
  assert_int_equal(grt_load_le_i8(bytes + 1), -2);
  grt_store_le_i16(bytes + 1, -300);
  assert_int_equal(grt_load_le_i16(bytes + 1), -300);
  assert_int_equal(bytes[1], 0xD4);
  assert_int_equal(bytes[2], 0xFE);
  grt_store_le_i32(bytes + 1, INT32_MIN);
  assert_int_equal(grt_load_le_i32(bytes + 1), INT32_MIN);
  assert_int_equal(bytes[4], 0x80);
  grt_store_le_i64(bytes + 1, INT64_MIN + 5);
  assert_true(grt_load_le_i64(bytes + 1) == INT64_MIN + 5);
  assert_int_equal(bytes[1], 5);
  assert_int_equal(bytes[8], 0x80);
}

static void test_floats_round_trip_bit_exactly(void** state) {
  (void)state;
  unsigned char bytes[9];
  grt_store_le_f32(bytes + 1, 1.0f);
  const unsigned char one_f32[] = {0x00, 0x00, 0x80, 0x3F};
  assert_memory_equal(bytes + 1, one_f32, sizeof(one_f32));
  assert_true(grt_load_le_f32(bytes + 1) == 1.0f);

  grt_store_le_f64(bytes + 1, -2.5);
  const unsigned char minus_2_5_f64[] = {0, 0, 0, 0, 0, 0, 0x04, 0xC0};
  assert_memory_equal(bytes + 1, minus_2_5_f64, sizeof(minus_2_5_f64));
  assert_true(grt_load_le_f64(bytes + 1) == -2.5);

  // A NaN with a payload must survive a load/store untouched.
  grt_store_le_u32(bytes + 1, 0x7FC01234u);
  float nan_value = grt_load_le_f32(bytes + 1);
  grt_store_le_f32(bytes + 1, nan_value);
  assert_int_equal(grt_load_le_u32(bytes + 1), 0x7FC01234u);
}

static void test_byte_swaps(void** state) {
  (void)state;
  assert_int_equal(grt_byte_swap_u16(0x1234), 0x3412);
  assert_int_equal(grt_byte_swap_u32(0x12345678u), 0x78563412u);
  assert_true(grt_byte_swap_u64(UINT64_C(0x0102030405060708)) ==
              UINT64_C(0x0807060504030201));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_loads_read_little_endian_bytes_at_odd_addresses),
      cmocka_unit_test(test_stores_write_little_endian_bytes_at_odd_addresses),
      cmocka_unit_test(test_signed_values_round_trip),
      cmocka_unit_test(test_floats_round_trip_bit_exactly),
      cmocka_unit_test(test_byte_swaps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
