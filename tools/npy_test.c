// .npy reader/writer: hand-made headers of each version, appended arrays,
// every rejection with its message, and files written then read back.
#include "tools/npy.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/file.h"
#include "vm/test_support.h"

// Builds a .npy file of |major|.0 with header text |dict| (padded to 64)
// followed by |data_length| bytes of |data| into |out|; returns its size.
static size_t make_npy(uint8_t major, const char* dict, const void* data,
                       size_t data_length, uint8_t* out, size_t capacity) {
  size_t prefix = major == 1 ? 10 : 12;
  size_t dict_length = strlen(dict);
  size_t total = (prefix + dict_length + 1 + 63) / 64 * 64;
  assert_true(total + data_length <= capacity);
  memcpy(out, "\x93NUMPY", 6);
  out[6] = major;
  out[7] = 0;
  size_t header_length = total - prefix;
  out[8] = (uint8_t)header_length;
  out[9] = (uint8_t)(header_length >> 8);
  if (prefix == 12) {
    out[10] = 0;
    out[11] = 0;
  }
  memcpy(out + prefix, dict, dict_length);
  memset(out + prefix + dict_length, ' ', total - prefix - dict_length - 1);
  out[total - 1] = '\n';
  if (data_length) memcpy(out + total, data, data_length);
  return total + data_length;
}

static grt_status_t parse_bytes(const uint8_t* bytes, size_t size,
                                size_t* inout_offset, grt_npy_array_t* out) {
  return grt_npy_parse("x.npy", grt_make_const_byte_span(bytes, size),
                       inout_offset, out);
}

static void expect_parse_error(const char* dict, const void* data,
                               size_t data_length, grt_status_code_t code,
                               const char* message) {
  uint8_t bytes[512];
  size_t size = make_npy(1, dict, data, data_length, bytes, sizeof(bytes));
  size_t offset = 0;
  grt_npy_array_t array;
  grt_expect_error(parse_bytes(bytes, size, &offset, &array), code,
                      message);
  assert_int_equal(offset, 0);
}

static void test_parse_each_version(void** state) {
  (void)state;
  const float values[4] = {1, 2, 3, 4};
  for (uint8_t major = 1; major <= 3; ++major) {
    uint8_t bytes[256];
    size_t size = make_npy(
        major, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }",
        values, sizeof(values), bytes, sizeof(bytes));
    size_t offset = 0;
    grt_npy_array_t array;
    GRT_EXPECT_OK(parse_bytes(bytes, size, &offset, &array));
    assert_int_equal(offset, size);
    assert_int_equal(array.element_type, GRT_HAL_ELEMENT_TYPE_FLOAT_32);
    assert_int_equal(array.rank, 2);
    assert_int_equal(array.shape[0], 2);
    assert_int_equal(array.shape[1], 2);
    assert_int_equal(array.data_length, sizeof(values));
    assert_memory_equal(array.data, values, sizeof(values));
  }
}

static void test_parse_scalar_vector_and_spacing(void** state) {
  (void)state;
  uint8_t bytes[512];
  const int64_t scalar = -7;
  const uint8_t flags[3] = {1, 0, 1};
  // numpy writes keys in this order, but a dict may list them in any, with
  // double quotes, and without the trailing comma.
  size_t size = make_npy(1, "{'descr':'<i8','fortran_order':False,'shape':()}",
                         &scalar, sizeof(scalar), bytes, sizeof(bytes));
  size += make_npy(1, "{\"shape\": (3,), \"fortran_order\": False, "
                   "\"descr\": \"|b1\"}",
                   flags, sizeof(flags), bytes + size, sizeof(bytes) - size);
  size_t offset = 0;
  grt_npy_array_t array;
  GRT_EXPECT_OK(parse_bytes(bytes, size, &offset, &array));
  assert_int_equal(array.element_type, GRT_HAL_ELEMENT_TYPE_INT_64);
  assert_int_equal(array.rank, 0);
  assert_int_equal(array.data_length, 8);
  assert_memory_equal(array.data, &scalar, 8);
  // The second array appended after the first.
  GRT_EXPECT_OK(parse_bytes(bytes, size, &offset, &array));
  assert_int_equal(offset, size);
  assert_int_equal(array.element_type, GRT_HAL_ELEMENT_TYPE_BOOL);
  assert_int_equal(array.rank, 1);
  assert_int_equal(array.shape[0], 3);
  assert_memory_equal(array.data, flags, 3);
  // Past the last array there is nothing to read.
  grt_expect_error(parse_bytes(bytes, size, &offset, &array),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "x.npy: not a .npy file: expected the magic");
}

// complex64 / complex128: the part's float type with a trailing 2.
static void test_complex(void** state) {
  (void)state;
  const float c64[4] = {1, 2, 3, -4};  // (1+2j), (3-4j)
  const double c128[2] = {0.5, -1.5};  // (0.5-1.5j)
  uint8_t bytes[512];
  size_t size = make_npy(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }",
                         c64, sizeof(c64), bytes, sizeof(bytes));
  size += make_npy(1, "{'descr': '<c16', 'fortran_order': False, 'shape': (), }", c128,
                   sizeof(c128), bytes + size, sizeof(bytes) - size);
  size_t offset = 0;
  grt_npy_array_t array;
  GRT_EXPECT_OK(parse_bytes(bytes, size, &offset, &array));
  assert_int_equal(array.element_type, GRT_HAL_ELEMENT_TYPE_FLOAT_32);
  assert_int_equal(array.rank, 2);
  assert_int_equal(array.shape[0], 2);
  assert_int_equal(array.shape[1], 2);
  assert_int_equal(array.data_length, sizeof(c64));
  assert_memory_equal(array.data, c64, sizeof(c64));
  GRT_EXPECT_OK(parse_bytes(bytes, size, &offset, &array));
  assert_int_equal(array.element_type, GRT_HAL_ELEMENT_TYPE_FLOAT_64);
  assert_int_equal(array.rank, 1);
  assert_int_equal(array.shape[0], 2);
  assert_memory_equal(array.data, c128, sizeof(c128));
}

static void test_descr_table(void** state) {
  (void)state;
  static const struct {
    const char* descr;
    grt_hal_element_type_t type;
  } rows[] = {
      {"<f2", GRT_HAL_ELEMENT_TYPE_FLOAT_16}, {"<f4", GRT_HAL_ELEMENT_TYPE_FLOAT_32},
      {"<f8", GRT_HAL_ELEMENT_TYPE_FLOAT_64}, {"|b1", GRT_HAL_ELEMENT_TYPE_BOOL},
      {"|i1", GRT_HAL_ELEMENT_TYPE_INT_8},    {"<i2", GRT_HAL_ELEMENT_TYPE_INT_16},
      {"<i4", GRT_HAL_ELEMENT_TYPE_INT_32},   {"<i8", GRT_HAL_ELEMENT_TYPE_INT_64},
      {"|u1", GRT_HAL_ELEMENT_TYPE_UINT_8},   {"<u2", GRT_HAL_ELEMENT_TYPE_UINT_16},
      {"<u4", GRT_HAL_ELEMENT_TYPE_UINT_32},  {"<u8", GRT_HAL_ELEMENT_TYPE_UINT_64},
  };
  for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i) {
    grt_hal_element_type_t type = 0;
    GRT_EXPECT_OK(grt_npy_element_type_from_descr(
        "x.npy", grt_make_cstring_view(rows[i].descr), &type));
    assert_int_equal(type, rows[i].type);
    assert_string_equal(grt_npy_descr_for_element_type(rows[i].type),
                        rows[i].descr);
  }
  grt_hal_element_type_t type = 0;
  // One-byte types have no byte order, whatever the prefix says.
  GRT_EXPECT_OK(grt_npy_element_type_from_descr(
      "x.npy", grt_make_cstring_view(">u1"), &type));
  assert_int_equal(type, GRT_HAL_ELEMENT_TYPE_UINT_8);
  assert_null(grt_npy_descr_for_element_type(GRT_HAL_ELEMENT_TYPE_BFLOAT_16));
}

static void test_rejections(void** state) {
  (void)state;
  const uint8_t data[16] = {0};
  expect_parse_error(
      "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", data, 16,
      GRT_STATUS_INVALID_ARGUMENT,
      "x.npy: fortran_order arrays are not supported");
  expect_parse_error(
      "{'descr': '>f4', 'fortran_order': False, 'shape': (2, 2), }", data, 16,
      GRT_STATUS_INVALID_ARGUMENT,
      "x.npy: dtype '>f4' is big-endian; expected little-endian");
  expect_parse_error(
      "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }", data, 16,
      GRT_STATUS_INVALID_ARGUMENT,
      "x.npy: truncated: header says 24 bytes of data, file has 16");
  expect_parse_error(
      "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", data, 16,
      GRT_STATUS_INVALID_ARGUMENT,
      "x.npy: dtype '|O' is not supported; expected one of <f2 <f4 <f8 |b1");
  expect_parse_error(
      "{'descr': '<c4', 'fortran_order': False, 'shape': (2,), }", data, 16,
      GRT_STATUS_INVALID_ARGUMENT, "x.npy: dtype '<c4' is not supported");
  expect_parse_error(
      "{'descr': '>c8', 'fortran_order': False, 'shape': (2,), }", data, 16,
      GRT_STATUS_INVALID_ARGUMENT, "x.npy: dtype '>c8' is not supported");
  expect_parse_error(
      "{'descr': '<c8', 'fortran_order': False, 'shape': "
      "(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), }",
      data, 16, GRT_STATUS_INVALID_ARGUMENT,
      "x.npy: a complex array of rank 16 is read with a trailing dimension of 2 "
      "(re, im); expected rank 15 at most");
  expect_parse_error(
      "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }",
      data, 16, GRT_STATUS_INVALID_ARGUMENT,
      "x.npy: structured dtypes are not supported");
  expect_parse_error("{'descr': '<f4', 'shape': (2,), }", data, 16,
                     GRT_STATUS_INVALID_ARGUMENT,
                     "x.npy: bad .npy header: missing 'fortran_order'");
  expect_parse_error(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", data,
      16, GRT_STATUS_INVALID_ARGUMENT,
      "x.npy: bad .npy header: unexpected key 'x'; expected descr, "
      "fortran_order and shape");
  expect_parse_error(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2 2), }", data, 16,
      GRT_STATUS_INVALID_ARGUMENT,
      "x.npy: bad .npy header: expected ',' or ')' in shape at offset");
  expect_parse_error(
      "{'descr': '<f4', 'fortran_order': maybe, 'shape': (2,), }", data, 16,
      GRT_STATUS_INVALID_ARGUMENT,
      "x.npy: bad .npy header: expected True or False at offset 34 of "
      "\"{'descr': '<f4', 'fortran_order': maybe, 'shape': (2,), }\"");
  expect_parse_error(
      "{'descr': '<f4', 'fortran_order': False, 'shape': "
      "(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1), }",
      data, 16, GRT_STATUS_OUT_OF_RANGE,
      "x.npy: rank is more than 16, the most grt supports");
  expect_parse_error(
      "{'descr': '<f8', 'fortran_order': False, 'shape': "
      "(4294967296, 4294967296), }",
      data, 16, GRT_STATUS_OUT_OF_RANGE, "x.npy: element count overflows");
}

static void test_bad_prefix(void** state) {
  (void)state;
  uint8_t bytes[256];
  size_t size = make_npy(
      1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", "abcd", 4,
      bytes, sizeof(bytes));
  size_t offset = 0;
  grt_npy_array_t array;
  bytes[6] = 4;
  grt_expect_error(parse_bytes(bytes, size, &offset, &array),
                      GRT_STATUS_UNIMPLEMENTED,
                      "x.npy: .npy format version 4.0 is not supported; "
                      "expected 1.0, 2.0 or 3.0");
  bytes[6] = 1;
  grt_expect_error(parse_bytes(bytes, 40, &offset, &array),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "x.npy: truncated: header says 118 bytes of header, "
                      "file has 30");
  grt_expect_error(parse_bytes(bytes, 5, &offset, &array),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "x.npy: not a .npy file: expected the magic "
                      "\"\\x93NUMPY\" at byte 0");
  GRT_EXPECT_OK(parse_bytes(bytes, size, &offset, &array));
  assert_int_equal(offset, size);
}

// A NUL (or any unprintable byte) in the dtype shows as \x00, not as the
// end of the message.
static void test_unprintable_dtype_is_escaped(void** state) {
  (void)state;
  uint8_t bytes[256];
  size_t size = make_npy(
      1, "{'descr': '<f4#', 'fortran_order': False, 'shape': (), }", "abcd",
      4, bytes, sizeof(bytes));
  uint8_t* mark = memchr(bytes, '#', size);
  assert_non_null(mark);
  *mark = 0;
  size_t offset = 0;
  grt_npy_array_t array;
  grt_expect_error(parse_bytes(bytes, size, &offset, &array),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "x.npy: dtype '<f4\\x00' is not supported; expected one of "
                   "<f2 <f4 <f8");
  // The same in the header excerpt of a malformed header.
  size = make_npy(1, "{'descr': '<f4', 'fortran_order': Maybe#, }", NULL, 0,
                  bytes, sizeof(bytes));
  mark = memchr(bytes, '#', size);
  assert_non_null(mark);
  *mark = 0;
  grt_expect_error(parse_bytes(bytes, size, &offset, &array),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "'fortran_order': Maybe\\x00, }\"");
}

static void test_header_size_for_streams(void** state) {
  (void)state;
  uint8_t bytes[256];
  size_t size = make_npy(
      1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", "abcd", 4,
      bytes, sizeof(bytes));
  size_t needed = 0;
  GRT_EXPECT_OK(grt_npy_header_size("x.npy", grt_make_const_byte_span(bytes, 4),
                                    &needed));
  assert_int_equal(needed, 10);
  GRT_EXPECT_OK(grt_npy_header_size(
      "x.npy", grt_make_const_byte_span(bytes, 10), &needed));
  assert_int_equal(needed, size - 4);
  grt_npy_array_t array;
  size_t data_offset = 0;
  GRT_EXPECT_OK(grt_npy_parse_header(
      "x.npy", grt_make_const_byte_span(bytes, needed), 0, &array,
      &data_offset));
  assert_int_equal(data_offset, needed);
  assert_int_equal(array.data_length, 4);
  assert_null(array.data);
  // Versions 2.0 and 3.0 need 12 bytes to tell.
  bytes[6] = 2;
  GRT_EXPECT_OK(grt_npy_header_size(
      "x.npy", grt_make_const_byte_span(bytes, 10), &needed));
  assert_int_equal(needed, 12);
  // A header too long to be numpy's is not read.
  bytes[8] = 0;
  bytes[9] = 0;
  bytes[10] = 0x20;
  bytes[11] = 0;
  grt_expect_error(grt_npy_header_size("x.npy",
                                       grt_make_const_byte_span(bytes, 12),
                                       &needed),
                   GRT_STATUS_OUT_OF_RANGE,
                   "x.npy: header says 2097152 bytes of header, at most "
                   "1048576 are read");
}

static void test_header_format(void** state) {
  (void)state;
  char header[256];
  size_t length = 0;
  const grt_hal_dim_t shape[2] = {3, 5};
  GRT_EXPECT_OK(grt_npy_format_header(GRT_HAL_ELEMENT_TYPE_UINT_16, shape,
                                         1, header, sizeof(header), &length));
  assert_int_equal(length % 64, 0);
  assert_int_equal(header[6], 1);
  const char* dict = "{'descr': '<u2', 'fortran_order': False, 'shape': (3,), }";
  assert_memory_equal(header + 10, dict, strlen(dict));
  assert_int_equal(header[length - 1], '\n');
  grt_expect_error(
      grt_npy_format_header(GRT_HAL_ELEMENT_TYPE_BFLOAT_16, shape, 2, header,
                            sizeof(header), &length),
      GRT_STATUS_INVALID_ARGUMENT,
      "element type bf16 has no .npy dtype (numpy has no bfloat16); write "
      "raw bytes with @FILE.bin instead");
  grt_expect_error(
      grt_npy_format_header(GRT_HAL_ELEMENT_TYPE_INT_32, shape, 2, header, 32,
                            &length),
      GRT_STATUS_OUT_OF_RANGE, ".npy header needs 128 bytes, buffer has 32");
}

static void test_write_append_and_read_back(void** state) {
  (void)state;
  char path[] = "/tmp/grt_npy_test_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  const double first[3] = {0.5, -1, 1e300};
  const int16_t second[2][2] = {{1, -2}, {3, 32767}};
  const grt_hal_dim_t shape3[1] = {3};
  const grt_hal_dim_t shape22[2] = {2, 2};
  GRT_EXPECT_OK(grt_npy_write_file(path, false,
                                      GRT_HAL_ELEMENT_TYPE_FLOAT_64, shape3, 1,
                                      first, sizeof(first)));
  GRT_EXPECT_OK(grt_npy_write_file(path, true, GRT_HAL_ELEMENT_TYPE_INT_16,
                                      shape22, 2, second, sizeof(second)));
  grt_file_contents_t contents;
  GRT_EXPECT_OK(
      grt_file_read_contents(path, grt_allocator_system(), &contents));
  size_t offset = 0;
  grt_npy_array_t array;
  grt_const_byte_span_t span =
      grt_make_const_byte_span(contents.data, contents.size);
  GRT_EXPECT_OK(grt_npy_parse(path, span, &offset, &array));
  assert_int_equal(array.element_type, GRT_HAL_ELEMENT_TYPE_FLOAT_64);
  assert_memory_equal(array.data, first, sizeof(first));
  assert_int_equal((uintptr_t)array.data % 64,
                   (uintptr_t)contents.data % 64);
  GRT_EXPECT_OK(grt_npy_parse(path, span, &offset, &array));
  assert_int_equal(array.element_type, GRT_HAL_ELEMENT_TYPE_INT_16);
  assert_int_equal(array.shape[1], 2);
  assert_memory_equal(array.data, second, sizeof(second));
  assert_int_equal(offset, contents.size);
  grt_file_contents_free(&contents);

  // Writing without append replaces the file.
  GRT_EXPECT_OK(grt_npy_write_file(path, false, GRT_HAL_ELEMENT_TYPE_INT_16,
                                      shape22, 2, second, sizeof(second)));
  GRT_EXPECT_OK(
      grt_file_read_contents(path, grt_allocator_system(), &contents));
  assert_int_equal(contents.size, 128 + sizeof(second));
  grt_file_contents_free(&contents);

  grt_expect_error(
      grt_npy_write_file(path, false, GRT_HAL_ELEMENT_TYPE_INT_16, shape22, 2,
                         second, 6),
      GRT_STATUS_INVALID_ARGUMENT, "the array needs 8 bytes of data, given 6");
  unlink(path);
  grt_expect_error(
      grt_npy_write_file("/nonexistent-dir/y.npy", false,
                         GRT_HAL_ELEMENT_TYPE_INT_16, shape22, 2, second,
                         sizeof(second)),
      GRT_STATUS_NOT_FOUND,
      "cannot write '/nonexistent-dir/y.npy': No such file or directory");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_each_version),
      cmocka_unit_test(test_parse_scalar_vector_and_spacing),
      cmocka_unit_test(test_descr_table),
      cmocka_unit_test(test_complex),
      cmocka_unit_test(test_rejections),
      cmocka_unit_test(test_bad_prefix),
      cmocka_unit_test(test_header_size_for_streams),
      cmocka_unit_test(test_unprintable_dtype_is_escaped),
      cmocka_unit_test(test_header_format),
      cmocka_unit_test(test_write_append_and_read_back),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
