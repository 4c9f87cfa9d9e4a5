// hal buffer views: element types, shape text, view creation and checks,
// the IREE element text form both ways, and f16/bf16 conversions
// (exhaustively for f16).
#include "hal/buffer_view.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hal/test_support.h"

#define SV(text) grt_make_cstring_view(text)
#define GRT_ARRAY_COUNT(array) (sizeof(array) / sizeof((array)[0]))

// One text grt_hal_parse_elements must reject: |count| elements of |type|
// into |capacity| bytes, failing with |code| and a message containing
// |message|.
typedef struct parse_error_case_t {
  const char* text;
  grt_hal_element_type_t type;
  size_t count;
  size_t capacity;
  grt_status_code_t code;
  const char* message;
} parse_error_case_t;

static void expect_parse_errors(const parse_error_case_t* cases,
                                size_t case_count) {
  for (size_t i = 0; i < case_count; ++i) {
    uint64_t storage[4];  // the largest capacity any case gives
    assert_true(cases[i].capacity <= sizeof(storage));
    grt_expect_error(grt_hal_parse_elements(SV(cases[i].text), cases[i].type,
                                            cases[i].count, storage,
                                            cases[i].capacity),
                     cases[i].code, cases[i].message);
  }
}

static void test_element_types(void** state) {
  (void)state;
  grt_hal_element_type_t type = 0;
  GRT_EXPECT_OK(grt_hal_element_type_parse(SV("f32"), &type));
  assert_int_equal(type, GRT_HAL_ELEMENT_TYPE_FLOAT_32);
  GRT_EXPECT_OK(grt_hal_element_type_parse(SV("u16"), &type));
  assert_int_equal(type, GRT_HAL_ELEMENT_TYPE_UINT_16);
  GRT_EXPECT_OK(grt_hal_element_type_parse(SV("si64"), &type));
  assert_int_equal(type, GRT_HAL_ELEMENT_TYPE_INT_64);
  GRT_EXPECT_OK(grt_hal_element_type_parse(SV("bf16"), &type));
  assert_int_equal(type, GRT_HAL_ELEMENT_TYPE_BFLOAT_16);
  assert_string_equal(grt_hal_element_type_name(GRT_HAL_ELEMENT_TYPE_UINT_8),
                      "ui8");
  assert_string_equal(grt_hal_element_type_name(12345), "unknown");
  assert_true(grt_hal_element_type_is_known(GRT_HAL_ELEMENT_TYPE_BOOL));
  assert_false(grt_hal_element_type_is_known(GRT_HAL_ELEMENT_TYPE(0x21, 8)));
  assert_int_equal(grt_hal_element_type_byte_size(GRT_HAL_ELEMENT_TYPE_BOOL), 1);
  grt_expect_error(grt_hal_element_type_parse(SV("f31"), &type),
                       GRT_STATUS_INVALID_ARGUMENT,
                       "unknown element type 'f31'; expected one of i1, i2, "
                       "i4, i8, i16, i32, i64, ui2, ui4, ui8, ui16, ui32, "
                       "ui64, f16, bf16, f32, f64");
}

static void test_shape_parse_and_format(void** state) {
  (void)state;
  grt_hal_dim_t shape[4];
  size_t rank = 0;
  grt_hal_element_type_t type = 0;
  GRT_EXPECT_OK(grt_hal_shape_parse(SV("4x16xf32"), 4, shape, &rank, &type));
  assert_int_equal(rank, 2);
  assert_int_equal(shape[0], 4);
  assert_int_equal(shape[1], 16);
  assert_int_equal(type, GRT_HAL_ELEMENT_TYPE_FLOAT_32);
  GRT_EXPECT_OK(grt_hal_shape_parse(SV("i1"), 4, shape, &rank, &type));
  assert_int_equal(rank, 0);
  GRT_EXPECT_OK(grt_hal_shape_parse(SV("0x3xui8"), 4, shape, &rank, &type));
  assert_int_equal(rank, 2);
  assert_int_equal(shape[0], 0);
  grt_expect_error(grt_hal_shape_parse(SV("4xx2xf32"), 4, shape, &rank, &type),
                       GRT_STATUS_INVALID_ARGUMENT,
                       "bad shape '4xx2xf32': empty dimension at position 2");
  grt_expect_error(grt_hal_shape_parse(SV("4x?xf32"), 4, shape, &rank, &type),
                       GRT_STATUS_INVALID_ARGUMENT,
                       "bad shape '4x?xf32': dimension '?' at position 2 is "
                       "not a number");
  grt_expect_error(grt_hal_shape_parse(SV("4x"), 4, shape, &rank, &type),
                       GRT_STATUS_INVALID_ARGUMENT,
                       "bad shape '4x': empty element type at position 2");
  grt_expect_error(grt_hal_shape_parse(SV(""), 4, shape, &rank, &type),
                       GRT_STATUS_INVALID_ARGUMENT,
                       "bad shape '': empty element type at position 0");
  grt_expect_error(
      grt_hal_shape_parse(SV("1x2x3x4x5xf32"), 4, shape, &rank, &type),
      GRT_STATUS_OUT_OF_RANGE,
      "bad shape '1x2x3x4x5xf32': more than 4 dimensions");
  grt_expect_error(
      grt_hal_shape_parse(SV("99999999999999999999xf32"), 4, shape, &rank, &type),
      GRT_STATUS_INVALID_ARGUMENT, "at position 0 is too large");
  grt_expect_error(grt_hal_shape_parse(SV("2xq8"), 4, shape, &rank, &type),
                       GRT_STATUS_INVALID_ARGUMENT,
                       "unknown element type 'q8'; expected one of i1");
  char text[32];
  grt_hal_dim_t dims[2] = {4, 16};
  assert_int_equal(grt_hal_shape_format(dims, 2, GRT_HAL_ELEMENT_TYPE_FLOAT_32,
                                        text, sizeof(text)),
                   8);
  assert_string_equal(text, "4x16xf32");
  assert_int_equal(
      grt_hal_shape_format(NULL, 0, GRT_HAL_ELEMENT_TYPE_FLOAT_16, text, 4), 3);
  assert_string_equal(text, "f16");
  // Truncated output still reports the full length.
  assert_int_equal(grt_hal_shape_format(dims, 2, GRT_HAL_ELEMENT_TYPE_FLOAT_32,
                                        text, 3),
                   8);
  assert_string_equal(text, "4x");
  uint64_t count = 0;
  grt_hal_dim_t huge[3] = {1ll << 40, 1ll << 40, 2};
  grt_expect_error(grt_hal_shape_element_count(huge, 3, &count),
                       GRT_STATUS_OUT_OF_RANGE,
                       "element count of a rank-3 shape overflows 64 bits at "
                       "dimension 1");
  grt_hal_dim_t negative[2] = {2, -3};
  grt_expect_error(grt_hal_shape_element_count(negative, 2, &count),
                       GRT_STATUS_INVALID_ARGUMENT,
                       "dimension 1 is -3; dimensions must be >= 0");
}

static void test_view_create_and_check(void** state) {
  (void)state;
  grt_hal_test_allocator_t* allocator = grt_hal_test_allocator_create(
      GRT_HAL_TEST_HOST_MEMORY, GRT_HAL_TEST_ALL_USAGE);
  grt_hal_buffer_t* buffer =
      grt_hal_test_allocate(allocator, GRT_HAL_TEST_ALL_USAGE, 60);
  grt_hal_dim_t shape[2] = {4, 4};
  grt_hal_buffer_view_t* view = NULL;
  grt_expect_error(
      grt_hal_buffer_view_create(buffer, shape, 2, GRT_HAL_ELEMENT_TYPE_FLOAT_32,
                                 grt_allocator_system(), &view),
      GRT_STATUS_OUT_OF_RANGE,
      "buffer of 60 bytes is too small for tensor<4x4xf32> (64 bytes)");
  grt_expect_error(
      grt_hal_buffer_view_create(buffer, shape, GRT_HAL_MAX_RANK + 1,
                                 GRT_HAL_ELEMENT_TYPE_FLOAT_32,
                                 grt_allocator_system(), &view),
      GRT_STATUS_OUT_OF_RANGE, "buffer view rank 17 exceeds the maximum of 16");
  grt_expect_error(
      grt_hal_buffer_view_create(buffer, shape, 2, GRT_HAL_ELEMENT_TYPE(0x21, 8),
                                 grt_allocator_system(), &view),
      GRT_STATUS_INVALID_ARGUMENT, "unknown element type 0x21000008");
  grt_hal_dim_t bad[2] = {4, -1};
  grt_expect_error(
      grt_hal_buffer_view_create(buffer, bad, 2, GRT_HAL_ELEMENT_TYPE_FLOAT_32,
                                 grt_allocator_system(), &view),
      GRT_STATUS_INVALID_ARGUMENT, "dimension 1 is -1; dimensions must be >= 0");
  grt_expect_error(
      grt_hal_buffer_view_create(NULL, shape, 2, GRT_HAL_ELEMENT_TYPE_FLOAT_32,
                                 grt_allocator_system(), &view),
      GRT_STATUS_INVALID_ARGUMENT, "buffer view needs a buffer");

  grt_hal_dim_t ok_shape[2] = {4, 15};
  GRT_EXPECT_OK(grt_hal_buffer_view_create(
      buffer, ok_shape, 2, GRT_HAL_ELEMENT_TYPE_INT_8, grt_allocator_system(),
      &view));
  // The view keeps the buffer alive.
  grt_hal_buffer_release(buffer);
  assert_ptr_equal(grt_hal_buffer_view_buffer(view), buffer);
  assert_int_equal(grt_hal_buffer_view_rank(view), 2);
  assert_int_equal(grt_hal_buffer_view_dim(view, 1), 15);
  assert_int_equal(grt_hal_buffer_view_dim(view, 2), 0);
  assert_int_equal(grt_hal_buffer_view_shape(view)[0], 4);
  assert_int_equal(grt_hal_buffer_view_element_type(view),
                   GRT_HAL_ELEMENT_TYPE_INT_8);
  assert_int_equal(grt_hal_buffer_view_element_count(view), 60);
  assert_int_equal(grt_hal_buffer_view_byte_length(view), 60);
  char text[64];
  assert_int_equal(grt_hal_buffer_view_format_type(view, text, sizeof(text)), 15);
  assert_string_equal(text, "tensor<4x15xi8>");
  GRT_EXPECT_OK(
      grt_hal_buffer_view_check(view, ok_shape, 2, GRT_HAL_ELEMENT_TYPE_INT_8));
  grt_hal_dim_t expected[2] = {4, 16};
  grt_expect_error(
      grt_hal_buffer_view_check(view, expected, 2, GRT_HAL_ELEMENT_TYPE_INT_8),
      GRT_STATUS_INVALID_ARGUMENT, "expected tensor<4x16xi8>, got tensor<4x15xi8>");
  grt_expect_error(
      grt_hal_buffer_view_check(view, ok_shape, 2, GRT_HAL_ELEMENT_TYPE_UINT_8),
      GRT_STATUS_INVALID_ARGUMENT, "expected tensor<4x15xui8>, got tensor<4x15xi8>");
  grt_expect_error(
      grt_hal_buffer_view_check(view, ok_shape, 1, GRT_HAL_ELEMENT_TYPE_INT_8),
      GRT_STATUS_INVALID_ARGUMENT, "expected tensor<4xi8>, got tensor<4x15xi8>");
  // A negative dim matches any size (symbolic dimensions).
  grt_hal_dim_t any_rows[2] = {-1, 15};
  GRT_EXPECT_OK(
      grt_hal_buffer_view_check(view, any_rows, 2, GRT_HAL_ELEMENT_TYPE_INT_8));
  grt_hal_dim_t any_rows_16[2] = {-1, 16};
  grt_expect_error(
      grt_hal_buffer_view_check(view, any_rows_16, 2, GRT_HAL_ELEMENT_TYPE_INT_8),
      GRT_STATUS_INVALID_ARGUMENT, "expected tensor<?x16xi8>, got tensor<4x15xi8>");
  grt_hal_buffer_view_retain(view);
  grt_hal_buffer_view_release(view);
  grt_hal_buffer_view_release(view);

  // A scalar view.
  buffer = grt_hal_test_allocate(allocator, GRT_HAL_TEST_ALL_USAGE, 4);
  GRT_EXPECT_OK(grt_hal_buffer_view_create(
      buffer, NULL, 0, GRT_HAL_ELEMENT_TYPE_FLOAT_32, grt_allocator_system(),
      &view));
  grt_hal_buffer_view_format_type(view, text, sizeof(text));
  assert_string_equal(text, "tensor<f32>");
  assert_int_equal(grt_hal_buffer_view_element_count(view), 1);
  grt_hal_buffer_view_release(view);
  grt_hal_buffer_release(buffer);
  grt_hal_allocator_release(&allocator->base);
}

static void test_parse_elements(void** state) {
  (void)state;
  float f[4];
  GRT_EXPECT_OK(grt_hal_parse_elements(SV("1 2.5, -3e2\n inf"),
                                           GRT_HAL_ELEMENT_TYPE_FLOAT_32, 4, f,
                                           sizeof(f)));
  assert_true(f[0] == 1.0f && f[1] == 2.5f && f[2] == -300.0f && isinf(f[3]));
  GRT_EXPECT_OK(grt_hal_parse_elements(SV("[1 2][3 4]"),
                                           GRT_HAL_ELEMENT_TYPE_FLOAT_32, 4, f,
                                           sizeof(f)));
  assert_true(f[3] == 4.0f);
  GRT_EXPECT_OK(grt_hal_parse_elements(
      SV("-inf nan 0 0"), GRT_HAL_ELEMENT_TYPE_FLOAT_32, 4, f, sizeof(f)));
  assert_true(isinf(f[0]) && f[0] < 0 && isnan(f[1]));
  // One value is a splat.
  GRT_EXPECT_OK(grt_hal_parse_elements(SV(" 7 "), GRT_HAL_ELEMENT_TYPE_FLOAT_32,
                                           4, f, sizeof(f)));
  assert_true(f[0] == 7.0f && f[3] == 7.0f);
  // Every rejected text, with what the message must say about it.
  static const parse_error_case_t kF32Errors[] = {
      {"1 2 3 1.5x", GRT_HAL_ELEMENT_TYPE_FLOAT_32, 4, 16,
       GRT_STATUS_INVALID_ARGUMENT, "element 3 of 4: '1.5x' is not a number"},
      {"1 2 3", GRT_HAL_ELEMENT_TYPE_FLOAT_32, 4, 16,
       GRT_STATUS_INVALID_ARGUMENT, "expected 4 elements, got 3"},
      {"1 2 3 4 5", GRT_HAL_ELEMENT_TYPE_FLOAT_32, 4, 16,
       GRT_STATUS_INVALID_ARGUMENT, "expected 4 elements, got 5"},
      {"", GRT_HAL_ELEMENT_TYPE_FLOAT_32, 4, 16, GRT_STATUS_INVALID_ARGUMENT,
       "expected 4 elements, got 0"},
      {"1e39", GRT_HAL_ELEMENT_TYPE_FLOAT_32, 1, 16, GRT_STATUS_OUT_OF_RANGE,
       "element 0 of 1: '1e39' is out of range for f32"},
      {"1 2 3 4", GRT_HAL_ELEMENT_TYPE_FLOAT_32, 4, 8, GRT_STATUS_OUT_OF_RANGE,
       "4 elements of f32 do not fit in 8 bytes"},
      {"[1 2] 3 4]", GRT_HAL_ELEMENT_TYPE_FLOAT_32, 4, 16,
       GRT_STATUS_INVALID_ARGUMENT, "unmatched ']' at position 9"},
      {"[[1 2] [3 4]", GRT_HAL_ELEMENT_TYPE_FLOAT_32, 4, 16,
       GRT_STATUS_INVALID_ARGUMENT, "1 '[' not closed at the end"},
      {"1", (grt_hal_element_type_t)0x12345, 1, 16, GRT_STATUS_INVALID_ARGUMENT,
       "unknown element type 0x00012345"},
  };
  expect_parse_errors(kF32Errors, GRT_ARRAY_COUNT(kF32Errors));

  double d[2];
  GRT_EXPECT_OK(grt_hal_parse_elements(SV("1e300 -0.5"),
                                           GRT_HAL_ELEMENT_TYPE_FLOAT_64, 2, d,
                                           sizeof(d)));
  assert_true(d[0] == 1e300 && d[1] == -0.5);
  uint16_t h[2];
  GRT_EXPECT_OK(grt_hal_parse_elements(SV("1.5 -2"),
                                           GRT_HAL_ELEMENT_TYPE_FLOAT_16, 2, h,
                                           sizeof(h)));
  assert_int_equal(h[0], 0x3E00);
  assert_int_equal(h[1], 0xC000);
  GRT_EXPECT_OK(grt_hal_parse_elements(SV("1.5 -2"),
                                           GRT_HAL_ELEMENT_TYPE_BFLOAT_16, 2, h,
                                           sizeof(h)));
  assert_int_equal(h[0], 0x3FC0);
  assert_int_equal(h[1], 0xC000);
}

static void test_parse_integers(void** state) {
  (void)state;
  int8_t i8[4];
  GRT_EXPECT_OK(grt_hal_parse_elements(SV("-128 127 0x7f 255"),
                                           GRT_HAL_ELEMENT_TYPE_INT_8, 4, i8,
                                           sizeof(i8)));
  assert_int_equal(i8[0], -128);
  assert_int_equal(i8[2], 127);
  assert_int_equal(i8[3], -1);  // signless: 255 is the same bits as -1
  uint16_t u16[2];
  GRT_EXPECT_OK(grt_hal_parse_elements(SV("65535, 0xFFFF"),
                                           GRT_HAL_ELEMENT_TYPE_UINT_16, 2, u16,
                                           sizeof(u16)));
  assert_int_equal(u16[0], 65535);
  assert_int_equal(u16[1], 65535);
  int32_t i32[2];
  GRT_EXPECT_OK(grt_hal_parse_elements(SV("-2147483648 2147483647"),
                                           GRT_HAL_ELEMENT_TYPE_INT_32, 2, i32,
                                           sizeof(i32)));
  assert_int_equal(i32[0], INT32_MIN);
  int64_t i64[2];
  GRT_EXPECT_OK(grt_hal_parse_elements(SV("-9223372036854775808 0xFFFFFFFFFFFFFFFF"),
                                           GRT_HAL_ELEMENT_TYPE_INT_64, 2, i64,
                                           sizeof(i64)));
  assert_true(i64[0] == INT64_MIN);
  assert_true(i64[1] == -1);
  uint8_t b[4];
  GRT_EXPECT_OK(grt_hal_parse_elements(SV("true false 1 0"),
                                           GRT_HAL_ELEMENT_TYPE_BOOL, 4, b,
                                           sizeof(b)));
  assert_int_equal(b[0], 1);
  assert_int_equal(b[1], 0);
  assert_int_equal(b[2], 1);
  // Texts no integer or boolean type takes.
  static const parse_error_case_t kIntegerErrors[] = {
      {"1 300", GRT_HAL_ELEMENT_TYPE_INT_8, 2, 4, GRT_STATUS_OUT_OF_RANGE,
       "element 1 of 2: '300' is out of range for i8 [-128, 255]"},
      {"-129", GRT_HAL_ELEMENT_TYPE_INT_8, 1, 4, GRT_STATUS_OUT_OF_RANGE,
       "out of range for i8"},
      {"1.5", GRT_HAL_ELEMENT_TYPE_INT_8, 1, 4, GRT_STATUS_INVALID_ARGUMENT,
       "element 0 of 1: '1.5' is not an integer"},
      {"0x", GRT_HAL_ELEMENT_TYPE_INT_8, 1, 4, GRT_STATUS_INVALID_ARGUMENT,
       "'0x' is not an integer"},
      {"-1", GRT_HAL_ELEMENT_TYPE_UINT_16, 1, 4, GRT_STATUS_OUT_OF_RANGE,
       "element 0 of 1: '-1' is out of range for ui16 [0, 65535]"},
      {"18446744073709551616", GRT_HAL_ELEMENT_TYPE_UINT_64, 1, 16,
       GRT_STATUS_OUT_OF_RANGE, "out of range for ui64"},
      {"2", GRT_HAL_ELEMENT_TYPE_BOOL, 1, 4, GRT_STATUS_INVALID_ARGUMENT,
       "element 0 of 1: '2' is not a boolean (0, 1, true, false)"},
  };
  expect_parse_errors(kIntegerErrors, GRT_ARRAY_COUNT(kIntegerErrors));
}

static void test_parse_shaped_brackets(void** state) {
  (void)state;
  int32_t v[8];
  grt_hal_dim_t shape[3] = {2, 2, 2};
  // IREE's printed form and the fully bracketed form.
  GRT_EXPECT_OK(grt_hal_parse_shaped_elements(
      SV("[1 2][3 4]"), shape + 1, 2, GRT_HAL_ELEMENT_TYPE_INT_32, v, sizeof(v)));
  assert_int_equal(v[3], 4);
  GRT_EXPECT_OK(grt_hal_parse_shaped_elements(
      SV("[[1 2][3 4]]"), shape + 1, 2, GRT_HAL_ELEMENT_TYPE_INT_32, v, sizeof(v)));
  GRT_EXPECT_OK(grt_hal_parse_shaped_elements(
      SV("[[1 2][3 4]][[5 6][7 8]]"), shape, 3, GRT_HAL_ELEMENT_TYPE_INT_32, v,
      sizeof(v)));
  assert_int_equal(v[7], 8);
  GRT_EXPECT_OK(grt_hal_parse_shaped_elements(
      SV("1 2 3 4"), shape + 1, 2, GRT_HAL_ELEMENT_TYPE_INT_32, v, sizeof(v)));
  GRT_EXPECT_OK(grt_hal_parse_shaped_elements(
      SV("0"), shape, 3, GRT_HAL_ELEMENT_TYPE_INT_32, v, sizeof(v)));
  // One pair of brackets around the whole flat list, as IREE's model tests
  // write inputs ("1x5x2x2xf32=[1,2,...,20]").
  memset(v, 0, sizeof(v));
  GRT_EXPECT_OK(grt_hal_parse_shaped_elements(
      SV(" [1, 2, 3, 4, 5, 6, 7, 8] "), shape, 3, GRT_HAL_ELEMENT_TYPE_INT_32, v, sizeof(v)));
  assert_int_equal(v[0], 1);
  assert_int_equal(v[7], 8);
  // Bracketings a 2x2 shape rejects.
  static const struct {
    const char* text;
    grt_status_code_t code;
    const char* message;
  } kBracketErrors[] = {
      {"[1 2 3][4]", GRT_STATUS_INVALID_ARGUMENT,
       "bracket group closed at position 6 has 3 entries but dimension 1 is 2"},
      {"[[[1 2][3 4]]]", GRT_STATUS_INVALID_ARGUMENT,
       "brackets nest 3 deep but the shape has rank 2"},
      {"[1 2] 3 4", GRT_STATUS_INVALID_ARGUMENT,
       "value at position 6 is outside the innermost brackets"},
      {"[1 2][3 4][5 6]", GRT_STATUS_INVALID_ARGUMENT,
       "3 top-level bracket groups, expected 2"},
      {"[1 2 3][4 5 6]", GRT_STATUS_INVALID_ARGUMENT,
       "bracket group closed at position 6 has 3 entries but dimension 1 is 2"},
      {"[1 2 3 4] 5", GRT_STATUS_INVALID_ARGUMENT,
       "bracket group closed at position 8 has 4 entries but dimension 1 is 2"},
  };
  for (size_t i = 0; i < GRT_ARRAY_COUNT(kBracketErrors); ++i) {
    grt_expect_error(grt_hal_parse_shaped_elements(
                         SV(kBracketErrors[i].text), shape + 1, 2,
                         GRT_HAL_ELEMENT_TYPE_INT_32, v, sizeof(v)),
                     kBracketErrors[i].code, kBracketErrors[i].message);
  }
  // The error also says how the shape nests and what was given.
  grt_expect_error(grt_hal_parse_shaped_elements(
                       SV("[[1][2][3][4]]"), shape + 1, 2,
                       GRT_HAL_ELEMENT_TYPE_INT_32, v, sizeof(v)),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "bracket group closed at position 3 has 1 entries but "
                   "dimension 1 is 2; 2x2xi32 needs 2 groups of 2 values (the "
                   "outermost brackets may be left out), given "
                   "'[[1][2][3][4]]'");
  grt_expect_error(grt_hal_parse_shaped_elements(
                       SV("[[1 2]]"), shape, 1, GRT_HAL_ELEMENT_TYPE_INT_32,
                       v, sizeof(v)),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "brackets nest 2 deep but the shape has rank 1; 2xi32 "
                   "needs one group of 2 values");
  grt_hal_dim_t too_many[GRT_HAL_MAX_RANK + 1] = {0};
  grt_expect_error(
      grt_hal_parse_shaped_elements(SV("1"), too_many, GRT_HAL_MAX_RANK + 1,
                                    GRT_HAL_ELEMENT_TYPE_INT_32, v, sizeof(v)),
      GRT_STATUS_OUT_OF_RANGE, "rank 17 exceeds the maximum of 16");
}

static void test_format_elements(void** state) {
  (void)state;
  char text[128];
  const float f[6] = {1.0f, 2.5f, -3.0f, 1e-7f, 123456789.0f, 0.0f};
  grt_hal_dim_t shape[3] = {2, 3, 1};
  grt_hal_format_elements(f, shape, 2, GRT_HAL_ELEMENT_TYPE_FLOAT_32, 0, text,
                          sizeof(text));
  assert_string_equal(text, "[1 2.5 -3][1e-07 1.23457e+08 0]");
  grt_hal_format_elements(f, shape, 3, GRT_HAL_ELEMENT_TYPE_FLOAT_32, 0, text,
                          sizeof(text));
  assert_string_equal(text, "[[1][2.5][-3]][[1e-07][1.23457e+08][0]]");
  grt_hal_dim_t flat[1] = {3};
  grt_hal_format_elements(f, flat, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, 0, text,
                          sizeof(text));
  assert_string_equal(text, "1 2.5 -3");
  grt_hal_format_elements(f + 1, NULL, 0, GRT_HAL_ELEMENT_TYPE_FLOAT_32, 0, text,
                          sizeof(text));
  assert_string_equal(text, "2.5");
  // Truncation by element count, and by capacity with the full length
  // reported.
  grt_hal_format_elements(f, shape, 2, GRT_HAL_ELEMENT_TYPE_FLOAT_32, 2, text,
                          sizeof(text));
  assert_string_equal(text, "[1 2.5...");
  size_t needed = grt_hal_format_elements(f, flat, 1,
                                          GRT_HAL_ELEMENT_TYPE_FLOAT_32, 0, text, 4);
  assert_int_equal(needed, 8);
  assert_string_equal(text, "1 2");
  const int8_t i8[4] = {-1, 2, -128, 127};
  grt_hal_dim_t square[2] = {2, 2};
  grt_hal_format_elements(i8, square, 2, GRT_HAL_ELEMENT_TYPE_INT_8, 0, text,
                          sizeof(text));
  assert_string_equal(text, "[-1 2][-128 127]");
  grt_hal_format_elements(i8, square, 2, GRT_HAL_ELEMENT_TYPE_UINT_8, 0, text,
                          sizeof(text));
  assert_string_equal(text, "[255 2][128 127]");
  const uint8_t bools[2] = {1, 0};
  grt_hal_dim_t two[1] = {2};
  grt_hal_format_elements(bools, two, 1, GRT_HAL_ELEMENT_TYPE_BOOL, 0, text,
                          sizeof(text));
  assert_string_equal(text, "1 0");
  const int64_t i64[2] = {INT64_MIN, 5};
  grt_hal_format_elements(i64, two, 1, GRT_HAL_ELEMENT_TYPE_INT_64, 0, text,
                          sizeof(text));
  assert_string_equal(text, "-9223372036854775808 5");
  const uint16_t halves[2] = {0x3E00, 0x7E00};
  grt_hal_format_elements(halves, two, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_16, 0, text,
                          sizeof(text));
  assert_string_equal(text, "1.5 nan");
  const uint16_t brains[2] = {0x3FC0, 0xFF80};
  grt_hal_format_elements(brains, two, 1, GRT_HAL_ELEMENT_TYPE_BFLOAT_16, 0, text,
                          sizeof(text));
  assert_string_equal(text, "1.5 -inf");
  const double d[2] = {0.1, 1e300};
  grt_hal_format_elements(d, two, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_64, 0, text,
                          sizeof(text));
  assert_string_equal(text, "0.1 1e+300");
  grt_hal_dim_t empty[2] = {0, 3};
  assert_int_equal(grt_hal_format_elements(f, empty, 2,
                                           GRT_HAL_ELEMENT_TYPE_FLOAT_32, 0,
                                           text, sizeof(text)),
                   0);
  grt_hal_format_elements(f, two, 1, 0x999, 0, text, sizeof(text));
  assert_string_equal(text, "<invalid tensor>");
}

// Parse then print gives back the text for every type.
static void test_round_trip_text(void** state) {
  (void)state;
  static const struct {
    grt_hal_element_type_t type;
    const char* text;
  } cases[] = {
      {GRT_HAL_ELEMENT_TYPE_INT_16, "[-32768 1 2][3 4 32767]"},
      {GRT_HAL_ELEMENT_TYPE_UINT_32, "[0 1 2][3 4 4294967295]"},
      {GRT_HAL_ELEMENT_TYPE_FLOAT_32, "[0.5 -1 inf][-inf 3.25 1e+10]"},
      {GRT_HAL_ELEMENT_TYPE_FLOAT_16, "[0.5 -1 inf][-inf 3.25 65504]"},
  };
  grt_hal_dim_t shape[2] = {2, 3};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    uint8_t data[48];
    GRT_EXPECT_OK(grt_hal_parse_shaped_elements(
        SV(cases[i].text), shape, 2, cases[i].type, data, sizeof(data)));
    char text[128];
    grt_hal_format_elements(data, shape, 2, cases[i].type, 0, text,
                            sizeof(text));
    assert_string_equal(text, cases[i].text);
  }
}

static uint32_t f32_bits(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  return bits;
}

static float f32_from_bits(uint32_t bits) {
  float value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}

static void test_f16_exhaustive_round_trip(void** state) {
  (void)state;
  for (uint32_t h = 0; h < 65536; ++h) {
    float f = grt_hal_f16_to_f32((uint16_t)h);
    uint16_t back = grt_hal_f32_to_f16(f);
    bool is_nan = (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0;
    if (is_nan) {
      assert_true(isnan(f));
      assert_int_equal(back & 0x8000u, h & 0x8000u);
      assert_true((back & 0x7C00u) == 0x7C00u && (back & 0x3FFu) != 0);
    } else if (back != h) {
      fail_msg("f16 0x%04x -> %a -> 0x%04x", (unsigned)h, (double)f,
               (unsigned)back);
    }
  }
  // Known values: smallest subnormal, smallest normal, max, one.
  assert_true(grt_hal_f16_to_f32(0x0001) == ldexpf(1.0f, -24));
  assert_true(grt_hal_f16_to_f32(0x0400) == ldexpf(1.0f, -14));
  assert_true(grt_hal_f16_to_f32(0x7BFF) == 65504.0f);
  assert_true(grt_hal_f16_to_f32(0x3C00) == 1.0f);
  assert_true(grt_hal_f16_to_f32(0x8000) == 0.0f &&
              signbit(grt_hal_f16_to_f32(0x8000)));
}

static void test_f16_rounding(void** state) {
  (void)state;
  // 1 + 2^-11 is halfway between 1 and the next half (1 + 2^-10): ties go
  // to the even mantissa (1); 1 + 3*2^-11 ties up to 1 + 2^-9.
  assert_int_equal(grt_hal_f32_to_f16(1.0f + ldexpf(1.0f, -11)), 0x3C00);
  assert_int_equal(grt_hal_f32_to_f16(1.0f + 3 * ldexpf(1.0f, -11)), 0x3C02);
  // Just above the halfway point rounds up.
  assert_int_equal(grt_hal_f32_to_f16(f32_from_bits(f32_bits(1.0f + ldexpf(1.0f, -11)) + 1)),
                   0x3C01);
  // Overflow: 65519 rounds down to max, 65520 ties to infinity.
  assert_int_equal(grt_hal_f32_to_f16(65519.0f), 0x7BFF);
  assert_int_equal(grt_hal_f32_to_f16(65520.0f), 0x7C00);
  assert_int_equal(grt_hal_f32_to_f16(-1e10f), 0xFC00);
  // Subnormals: 2^-25 ties to 0, anything above rounds to the smallest.
  assert_int_equal(grt_hal_f32_to_f16(ldexpf(1.0f, -25)), 0x0000);
  assert_int_equal(grt_hal_f32_to_f16(ldexpf(1.5f, -25)), 0x0001);
  assert_int_equal(grt_hal_f32_to_f16(ldexpf(3.0f, -25)), 0x0002);
  // Rounding up out of the subnormal range gives the smallest normal.
  assert_int_equal(grt_hal_f32_to_f16(ldexpf(1.0f, -14) - ldexpf(1.0f, -26)),
                   0x0400);
  assert_int_equal(grt_hal_f32_to_f16(1e-30f), 0x0000);
  assert_int_equal(grt_hal_f32_to_f16(-1e-30f), 0x8000);
  assert_int_equal(grt_hal_f32_to_f16(f32_from_bits(1)), 0x0000);
  assert_int_equal(grt_hal_f32_to_f16(INFINITY), 0x7C00);
  assert_true((grt_hal_f32_to_f16(NAN) & 0x7E00u) == 0x7E00u);
}

static void test_bf16(void** state) {
  (void)state;
  assert_int_equal(grt_hal_f32_to_bf16(1.0f), 0x3F80);
  assert_true(grt_hal_bf16_to_f32(0x3F80) == 1.0f);
  // 1 + 2^-8 ties to even (1); 1 + 3*2^-8 ties up.
  assert_int_equal(grt_hal_f32_to_bf16(1.0f + ldexpf(1.0f, -8)), 0x3F80);
  assert_int_equal(grt_hal_f32_to_bf16(1.0f + 3 * ldexpf(1.0f, -8)), 0x3F82);
  assert_int_equal(grt_hal_f32_to_bf16(3.4028235e38f), 0x7F80);  // overflows
  assert_int_equal(grt_hal_f32_to_bf16(-INFINITY), 0xFF80);
  uint16_t nan = grt_hal_f32_to_bf16(f32_from_bits(0x7F800001u));
  assert_true(isnan(grt_hal_bf16_to_f32(nan)));
  for (uint32_t b = 0; b < 65536; ++b) {
    float f = grt_hal_bf16_to_f32((uint16_t)b);
    if (isnan(f)) continue;
    assert_int_equal(grt_hal_f32_to_bf16(f), b);
  }
}

// i2, ui2, i4 and ui4 are packed: ceil(n * bits / 8) bytes, element e in
// bits (e * bits) % 8 of byte e * bits / 8, the last byte's spare bits 0.
static void test_packed_types(void** state) {
  (void)state;
  grt_hal_element_type_t type = 0;
  GRT_EXPECT_OK(grt_hal_element_type_parse(SV("i4"), &type));
  assert_int_equal(type, GRT_HAL_ELEMENT_TYPE_INT_4);
  GRT_EXPECT_OK(grt_hal_element_type_parse(SV("ui2"), &type));
  assert_int_equal(type, GRT_HAL_ELEMENT_TYPE_UINT_2);
  assert_true(grt_hal_element_type_is_packed(GRT_HAL_ELEMENT_TYPE_UINT_4));
  assert_false(grt_hal_element_type_is_packed(GRT_HAL_ELEMENT_TYPE_BOOL));
  assert_false(grt_hal_element_type_is_packed(GRT_HAL_ELEMENT_TYPE_INT_8));
  uint64_t bytes = 0;
  assert_true(grt_hal_element_type_dense_bytes(GRT_HAL_ELEMENT_TYPE_INT_4, 5, &bytes));
  assert_int_equal(bytes, 3);
  assert_true(grt_hal_element_type_dense_bytes(GRT_HAL_ELEMENT_TYPE_INT_2, 9, &bytes));
  assert_int_equal(bytes, 3);
  assert_true(grt_hal_element_type_dense_bytes(GRT_HAL_ELEMENT_TYPE_UINT_2, 0, &bytes));
  assert_int_equal(bytes, 0);
  assert_false(grt_hal_element_type_dense_bytes(GRT_HAL_ELEMENT_TYPE_INT_64, UINT64_MAX / 4,
                                                &bytes));

  // Parse: [1, -2, 3, 7, -8] as i4 is e1 73 08.
  uint8_t packed[4] = {0xAA, 0xAA, 0xAA, 0xAA};
  GRT_EXPECT_OK(grt_hal_parse_elements(SV("1 -2 3 7 -8"), GRT_HAL_ELEMENT_TYPE_INT_4, 5,
                                       packed, 3));
  assert_int_equal(packed[0], 0xE1);
  assert_int_equal(packed[1], 0x73);
  assert_int_equal(packed[2], 0x08);
  assert_int_equal(packed[3], 0xAA);  // untouched past the tensor
  // i2 [1, -1, 0, -2, 1] is 01 11 00 10 | 01: bytes 0x8D 0x01.
  GRT_EXPECT_OK(grt_hal_parse_elements(SV("1 -1 0 -2 1"), GRT_HAL_ELEMENT_TYPE_INT_2, 5,
                                       packed, 2));
  assert_int_equal(packed[0], 0x8D);
  assert_int_equal(packed[1], 0x01);
  // A splat fills every field.
  GRT_EXPECT_OK(grt_hal_parse_elements(SV("9"), GRT_HAL_ELEMENT_TYPE_UINT_4, 3, packed, 2));
  assert_int_equal(packed[0], 0x99);
  assert_int_equal(packed[1], 0x09);
  grt_expect_error(grt_hal_parse_elements(SV("1 16"), GRT_HAL_ELEMENT_TYPE_UINT_4, 2, packed,
                                          1),
                   GRT_STATUS_OUT_OF_RANGE,
                   "element 1 of 2: '16' is out of range for ui4 [0, 15]");
  grt_expect_error(grt_hal_parse_elements(SV("-3"), GRT_HAL_ELEMENT_TYPE_INT_2, 1, packed, 1),
                   GRT_STATUS_OUT_OF_RANGE,
                   "element 0 of 1: '-3' is out of range for i2 [-2, 3]");
  grt_expect_error(grt_hal_parse_elements(SV("1 2 3"), GRT_HAL_ELEMENT_TYPE_INT_4, 3, packed,
                                          1),
                   GRT_STATUS_OUT_OF_RANGE, "3 elements of i4 do not fit in 1 bytes");

  // Format reads the fields back, sign-extended for i2/i4.
  char text[64];
  const uint8_t i4[3] = {0xE1, 0x73, 0x08};
  grt_hal_dim_t five[1] = {5};
  grt_hal_format_elements(i4, five, 1, GRT_HAL_ELEMENT_TYPE_INT_4, 0, text, sizeof(text));
  assert_string_equal(text, "1 -2 3 7 -8");
  grt_hal_format_elements(i4, five, 1, GRT_HAL_ELEMENT_TYPE_UINT_4, 0, text, sizeof(text));
  assert_string_equal(text, "1 14 3 7 8");
  grt_hal_dim_t two_by_two[2] = {2, 2};
  const uint8_t i2[1] = {0x8D};
  grt_hal_format_elements(i2, two_by_two, 2, GRT_HAL_ELEMENT_TYPE_INT_2, 0, text,
                          sizeof(text));
  assert_string_equal(text, "[1 -1][0 -2]");
  assert_int_equal(grt_hal_packed_element(GRT_HAL_ELEMENT_TYPE_UINT_2, i2, 3), 2);

  // A view's byte length is the packed size; a smaller buffer is refused
  // naming both sizes.
  grt_hal_test_allocator_t* allocator = grt_hal_test_allocator_create(
      GRT_HAL_TEST_HOST_MEMORY, GRT_HAL_TEST_ALL_USAGE);
  grt_hal_buffer_t* buffer = grt_hal_test_allocate(allocator, GRT_HAL_TEST_ALL_USAGE, 2);
  grt_hal_buffer_view_t* view = NULL;
  grt_expect_error(grt_hal_buffer_view_create(buffer, five, 1, GRT_HAL_ELEMENT_TYPE_INT_4,
                                              grt_allocator_system(), &view),
                   GRT_STATUS_OUT_OF_RANGE,
                   "buffer of 2 bytes is too small for tensor<5xi4> (3 bytes)");
  grt_hal_dim_t seven[1] = {7};
  GRT_EXPECT_OK(grt_hal_buffer_view_create(buffer, seven, 1, GRT_HAL_ELEMENT_TYPE_UINT_2,
                                           grt_allocator_system(), &view));
  assert_int_equal(grt_hal_buffer_view_byte_length(view), 2);
  assert_int_equal(grt_hal_buffer_view_element_count(view), 7);
  grt_hal_buffer_view_release(view);
  grt_hal_buffer_release(buffer);
  grt_hal_allocator_release(&allocator->base);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_element_types),
      cmocka_unit_test(test_shape_parse_and_format),
      cmocka_unit_test(test_view_create_and_check),
      cmocka_unit_test(test_parse_elements),
      cmocka_unit_test(test_parse_integers),
      cmocka_unit_test(test_parse_shaped_brackets),
      cmocka_unit_test(test_format_elements),
      cmocka_unit_test(test_round_trip_text),
      cmocka_unit_test(test_packed_types),
      cmocka_unit_test(test_f16_exhaustive_round_trip),
      cmocka_unit_test(test_f16_rounding),
      cmocka_unit_test(test_bf16),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
