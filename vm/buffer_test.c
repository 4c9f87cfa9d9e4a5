// vm.buffer: ownership, aliasing, access and every bounds check.
#include "vm/buffer.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "vm/test_support.h"

static grt_vm_buffer_t* make_buffer(uint64_t length) {
  grt_vm_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_create(GRT_VM_BUFFER_ACCESS_MUTABLE, length,
                                        0, grt_allocator_system(), &buffer));
  return buffer;
}

static void test_create_is_zeroed_and_aligned(void** state) {
  (void)state;
  grt_vm_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_create(GRT_VM_BUFFER_ACCESS_MUTABLE, 100, 64,
                                        grt_allocator_system(), &buffer));
  assert_int_equal(grt_vm_buffer_length(buffer), 100);
  const void* data = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_map_read(buffer, 0, 100, &data));
  assert_int_equal((uintptr_t)data % 64, 0);
  const uint8_t* bytes = data;
  for (int i = 0; i < 100; ++i) assert_int_equal(bytes[i], 0);
  grt_vm_buffer_release(buffer);
  grt_expect_error(
      grt_vm_buffer_create(GRT_VM_BUFFER_ACCESS_MUTABLE, 8, 3,
                           grt_allocator_system(), &buffer),
      GRT_STATUS_INVALID_ARGUMENT,
      "buffer alignment must be a power of two, got 3");
  assert_null(buffer);
}

static int release_calls = 0;
static void count_release(void* user_data) {
  ++release_calls;
  assert_ptr_equal(user_data, &release_calls);
}

static void test_wrap_rodata_is_zero_copy_and_read_only(void** state) {
  (void)state;
  static const uint8_t rodata[16] = {1, 2, 3, 4, 5, 6, 7, 8,
                                     9, 10, 11, 12, 13, 14, 15, 16};
  release_calls = 0;
  grt_vm_buffer_release_callback_t callback = {count_release, &release_calls};
  grt_vm_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_wrap(
      (void*)rodata, sizeof(rodata), GRT_VM_BUFFER_ACCESS_ORIGIN_MODULE,
      callback, grt_allocator_system(), &buffer));
  const void* data = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_map_read(buffer, 4, 4, &data));
  assert_ptr_equal(data, rodata + 4);
  grt_expect_error(
      grt_vm_buffer_store_int(buffer, 0, 4, 99), GRT_STATUS_PERMISSION_DENIED,
      "buffer is read-only (it aliases module rodata): cannot write 4 bytes "
      "at offset 0 of a 16-byte buffer");
  void* writable = NULL;
  grt_expect_error(grt_vm_buffer_map_write(buffer, 0, 1, &writable),
                      GRT_STATUS_PERMISSION_DENIED, "buffer is read-only");
  assert_null(writable);
  assert_int_equal(rodata[0], 1);

  // A clone is an owned, writable copy.
  grt_vm_buffer_t* clone = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_clone(buffer, 8, 8,
                                       GRT_VM_BUFFER_ACCESS_MUTABLE, 0,
                                       grt_allocator_system(), &clone));
  GRT_EXPECT_OK(grt_vm_buffer_store_int(clone, 0, 1, 100));
  int64_t value = 0;
  GRT_EXPECT_OK(grt_vm_buffer_load_int(clone, 0, 1, false, &value));
  assert_int_equal(value, 100);
  GRT_EXPECT_OK(grt_vm_buffer_load_int(clone, 1, 1, false, &value));
  assert_int_equal(value, 10);
  grt_vm_buffer_release(clone);
  grt_expect_error(
      grt_vm_buffer_clone(buffer, 12, 8, GRT_VM_BUFFER_ACCESS_MUTABLE, 0,
                          grt_allocator_system(), &clone),
      GRT_STATUS_OUT_OF_RANGE,
      "buffer access out of range: offset 12 + length 8 > buffer length 16");
  assert_null(clone);

  grt_vm_buffer_retain(buffer);
  grt_vm_buffer_release(buffer);
  assert_int_equal(release_calls, 0);
  grt_vm_buffer_release(buffer);
  assert_int_equal(release_calls, 1);
}

static void test_bounds_errors(void** state) {
  (void)state;
  grt_vm_buffer_t* buffer = make_buffer(16);
  const void* data = NULL;
  grt_expect_error(
      grt_vm_buffer_map_read(buffer, 12, 8, &data), GRT_STATUS_OUT_OF_RANGE,
      "buffer access out of range: offset 12 + length 8 > buffer length 16");
  // offset + length wraps around 2^64: still out of range, not a pass.
  grt_expect_error(grt_vm_buffer_map_read(buffer, UINT64_MAX, 2, &data),
                      GRT_STATUS_OUT_OF_RANGE,
                      "offset 18446744073709551615 + length 2");
  GRT_EXPECT_OK(grt_vm_buffer_map_read(buffer, 16, 0, &data));
  int64_t value = 0;
  grt_expect_error(grt_vm_buffer_load_int(buffer, 15, 2, true, &value),
                      GRT_STATUS_OUT_OF_RANGE,
                      "offset 15 + length 2 > buffer length 16");
  grt_expect_error(grt_vm_buffer_load_int(buffer, 0, 3, true, &value),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "buffer load width must be 1, 2, 4 or 8 bytes, got 3");
  grt_expect_error(grt_vm_buffer_store_int(buffer, 0, 16, 1),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "buffer store width must be 1, 2, 4 or 8 bytes, got 16");
  float f = 0;
  double d = 0;
  grt_expect_error(grt_vm_buffer_load_f32(buffer, 13, &f),
                      GRT_STATUS_OUT_OF_RANGE, "offset 13 + length 4");
  grt_expect_error(grt_vm_buffer_load_f64(buffer, 9, &d),
                      GRT_STATUS_OUT_OF_RANGE, "offset 9 + length 8");
  grt_expect_error(grt_vm_buffer_store_f32(buffer, 16, 1.0f),
                      GRT_STATUS_OUT_OF_RANGE, "offset 16 + length 4");
  grt_expect_error(grt_vm_buffer_store_f64(buffer, 10, 1.0),
                      GRT_STATUS_OUT_OF_RANGE, "offset 10 + length 8");
  grt_vm_buffer_release(buffer);
}

static void test_element_loads_extend(void** state) {
  (void)state;
  grt_vm_buffer_t* buffer = make_buffer(16);
  GRT_EXPECT_OK(grt_vm_buffer_store_int(buffer, 0, 1, -2));
  GRT_EXPECT_OK(grt_vm_buffer_store_int(buffer, 1, 2, -3));  // unaligned
  GRT_EXPECT_OK(grt_vm_buffer_store_int(buffer, 3, 4, -4));
  GRT_EXPECT_OK(grt_vm_buffer_store_int(buffer, 7, 8, INT64_MIN + 5));
  int64_t value = 0;
  GRT_EXPECT_OK(grt_vm_buffer_load_int(buffer, 0, 1, true, &value));
  assert_int_equal(value, -2);
  GRT_EXPECT_OK(grt_vm_buffer_load_int(buffer, 0, 1, false, &value));
  assert_int_equal(value, 254);
  GRT_EXPECT_OK(grt_vm_buffer_load_int(buffer, 1, 2, true, &value));
  assert_int_equal(value, -3);
  GRT_EXPECT_OK(grt_vm_buffer_load_int(buffer, 1, 2, false, &value));
  assert_int_equal(value, 65533);
  GRT_EXPECT_OK(grt_vm_buffer_load_int(buffer, 3, 4, true, &value));
  assert_int_equal(value, -4);
  GRT_EXPECT_OK(grt_vm_buffer_load_int(buffer, 3, 4, false, &value));
  assert_int_equal(value, 4294967292ll);
  GRT_EXPECT_OK(grt_vm_buffer_load_int(buffer, 7, 8, true, &value));
  assert_true(value == INT64_MIN + 5);
  // A store keeps only the low bytes.
  GRT_EXPECT_OK(grt_vm_buffer_store_int(buffer, 0, 1, 0x1FF));
  GRT_EXPECT_OK(grt_vm_buffer_load_int(buffer, 0, 1, false, &value));
  assert_int_equal(value, 0xFF);
  GRT_EXPECT_OK(grt_vm_buffer_store_f32(buffer, 1, 2.5f));
  float f = 0;
  GRT_EXPECT_OK(grt_vm_buffer_load_f32(buffer, 1, &f));
  assert_true(f == 2.5f);
  GRT_EXPECT_OK(grt_vm_buffer_store_f64(buffer, 5, -0.125));
  double d = 0;
  GRT_EXPECT_OK(grt_vm_buffer_load_f64(buffer, 5, &d));
  assert_true(d == -0.125);
  grt_vm_buffer_release(buffer);
}

static void test_fill_copy_compare_hash(void** state) {
  (void)state;
  grt_vm_buffer_t* a = make_buffer(16);
  grt_vm_buffer_t* b = make_buffer(16);
  GRT_EXPECT_OK(grt_vm_buffer_fill(a, 4, 8, 0xABCD, 2));
  int64_t value = 0;
  GRT_EXPECT_OK(grt_vm_buffer_load_int(a, 4, 2, false, &value));
  assert_int_equal(value, 0xABCD);
  GRT_EXPECT_OK(grt_vm_buffer_load_int(a, 10, 2, false, &value));
  assert_int_equal(value, 0xABCD);
  GRT_EXPECT_OK(grt_vm_buffer_load_int(a, 12, 4, false, &value));
  assert_int_equal(value, 0);
  GRT_EXPECT_OK(grt_vm_buffer_fill(b, 0, 16, 0x7, 1));
  GRT_EXPECT_OK(grt_vm_buffer_load_int(b, 8, 8, false, &value));
  assert_int_equal(value, 0x0707070707070707ll);
  grt_expect_error(grt_vm_buffer_fill(a, 2, 8, 0, 4),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "buffer fill: offset 2 and length 8 must be multiples of "
                      "the 4-byte pattern");
  grt_expect_error(grt_vm_buffer_fill(a, 0, 8, 0, 3),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "buffer fill pattern width must be 1, 2, 4 or 8 bytes, "
                      "got 3");
  grt_expect_error(grt_vm_buffer_fill(a, 8, 16, 0, 8),
                      GRT_STATUS_OUT_OF_RANGE,
                      "offset 8 + length 16 > buffer length 16");

  bool equal = true;
  GRT_EXPECT_OK(grt_vm_buffer_compare(a, 4, b, 4, 8, &equal));
  assert_false(equal);
  GRT_EXPECT_OK(grt_vm_buffer_copy(a, 4, b, 4, 8));
  GRT_EXPECT_OK(grt_vm_buffer_compare(a, 4, b, 4, 8, &equal));
  assert_true(equal);
  // Overlapping copy within one buffer behaves like memmove.
  GRT_EXPECT_OK(grt_vm_buffer_copy(a, 4, a, 6, 8));
  GRT_EXPECT_OK(grt_vm_buffer_load_int(a, 12, 2, false, &value));
  assert_int_equal(value, 0xABCD);
  grt_expect_error(grt_vm_buffer_copy(a, 10, b, 0, 8),
                      GRT_STATUS_OUT_OF_RANGE,
                      "offset 10 + length 8 > buffer length 16; copy source");
  grt_expect_error(grt_vm_buffer_copy(a, 0, b, 10, 8),
                      GRT_STATUS_OUT_OF_RANGE,
                      "offset 10 + length 8 > buffer length 16; copy target");
  grt_expect_error(grt_vm_buffer_compare(a, 0, b, 9, 8, &equal),
                      GRT_STATUS_OUT_OF_RANGE, "; compare rhs");

  // SipHash-2-4 under key 00..0f: the published test vectors for the empty
  // message and for the 15 bytes 00..0e, here at byte offset 1.
  uint64_t hash = 0;
  GRT_EXPECT_OK(grt_vm_buffer_hash(a, 0, 0, &hash));
  assert_true(hash == 0x726fdb47dd0e0e31ull);
  for (int i = 0; i < 15; ++i) {
    GRT_EXPECT_OK(grt_vm_buffer_store_int(a, 1 + (uint64_t)i, 1, i));
  }
  GRT_EXPECT_OK(grt_vm_buffer_hash(a, 1, 15, &hash));
  assert_true(hash == 0xa129ca6149be45e5ull);
  grt_expect_error(grt_vm_buffer_hash(a, 1, 16, &hash),
                      GRT_STATUS_OUT_OF_RANGE,
                      "offset 1 + length 16 > buffer length 16");
  grt_vm_buffer_release(a);
  grt_vm_buffer_release(b);
}

static void test_check_deref(void** state) {
  (void)state;
  grt_vm_buffer_t* buffer = make_buffer(4);
  grt_vm_ref_t ref = grt_vm_ref_wrap_move(buffer, grt_vm_buffer_type());
  grt_vm_buffer_t* out = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_check_deref(&ref, &out));
  assert_ptr_equal(out, buffer);
  grt_vm_ref_release(&ref);
  grt_expect_error(grt_vm_buffer_check_deref(&ref, &out),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "expected ref<vm.buffer>, got a null ref");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_create_is_zeroed_and_aligned),
      cmocka_unit_test(test_wrap_rodata_is_zero_copy_and_read_only),
      cmocka_unit_test(test_bounds_errors),
      cmocka_unit_test(test_element_loads_extend),
      cmocka_unit_test(test_fill_copy_compare_hash),
      cmocka_unit_test(test_check_deref),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
