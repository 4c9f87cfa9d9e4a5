// Tests for the `!quant.uniform<...>` parser (quant.h): every form the
// StableHLO spec and MLIR print, the defaults, and each error's message.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/status_matchers.h"
#include "compiler/stablehlo/quant.h"

static grtc_tmodule_t* new_module(void) {
  grtc_tmodule_t* module = NULL;
  GRT_EXPECT_OK(grtc_tmodule_create("m", "t.mlir", grt_allocator_system(), &module));
  return module;
}

static grtc_quant_type_t parse_ok(grtc_tmodule_t* module, const char* text) {
  grtc_quant_type_t type;
  grt_status_t status = grtc_quant_parse(grt_make_cstring_view(text), module, &type);
  if (!grt_status_is_ok(status)) {
    fprintf(stderr, "%s: %s\n", text, grt_status_message(status));
    grt_status_free(status);
    fail();
  }
  return type;
}

static void test_per_tensor(void** state) {
  (void)state;
  grtc_tmodule_t* module = new_module();
  grtc_quant_type_t t = parse_ok(module, "!quant.uniform<i8:f32, 0.5:-3>");
  assert_int_equal(t.storage, GRTC_ELEM_I8);
  assert_int_equal(t.storage_bits, 8);
  assert_true(t.storage_signed);
  assert_int_equal(t.storage_min, -128);
  assert_int_equal(t.storage_max, 127);
  assert_int_equal(t.expressed, GRTC_ELEM_F32);
  assert_false(t.per_axis);
  assert_int_equal(t.count, 1);
  assert_true(t.scales[0] == 0.5);
  assert_int_equal(t.zero_points[0], -3);

  // Storage range, exponent scale, no zero point (0), unsigned and sub-byte
  // storage, spaces anywhere.
  t = parse_ok(module, "!quant.uniform< i8 <-127 : 127> : f16 , 1.000000e-01 >");
  assert_int_equal(t.storage_min, -127);
  assert_int_equal(t.storage_max, 127);
  assert_int_equal(t.expressed, GRTC_ELEM_F16);
  assert_true(t.scales[0] == 0.1);
  assert_int_equal(t.zero_points[0], 0);
  t = parse_ok(module, "!quant.uniform<ui8:bf16, 2.0:255>");
  assert_int_equal(t.storage, GRTC_ELEM_U8);
  assert_int_equal(t.storage_max, 255);
  t = parse_ok(module, "!quant.uniform<u4:f32, 0.25:15>");
  assert_int_equal(t.storage, GRTC_ELEM_U8);
  assert_int_equal(t.storage_bits, 4);
  assert_int_equal(t.storage_max, 15);
  t = parse_ok(module, "!quant.uniform<i4:f32, 0.25:-8>");
  assert_int_equal(t.storage, GRTC_ELEM_I8);
  assert_int_equal(t.storage_min, -8);
  t = parse_ok(module, "!quant.uniform<si16:f64, 3e-4:-5>");
  assert_int_equal(t.storage, GRTC_ELEM_I16);
  t = parse_ok(module, "!quant.uniform<i32:f32, 1.5e-2>");
  assert_int_equal(t.storage, GRTC_ELEM_I32);
  grtc_tmodule_destroy(module);
}

static void test_per_axis(void** state) {
  (void)state;
  grtc_tmodule_t* module = new_module();
  grtc_quant_type_t t =
      parse_ok(module, "!quant.uniform<i8<-128:127>:f32:2, {0.1:-30, 0.5:-20, 2.0}>");
  assert_true(t.per_axis);
  assert_int_equal(t.axis, 2);
  assert_int_equal(t.count, 3);
  assert_true(t.scales[1] == 0.5);
  assert_int_equal(t.zero_points[0], -30);
  assert_int_equal(t.zero_points[2], 0);
  grtc_quant_type_t u =
      parse_ok(module, "!quant.uniform<i8:f32:2, {0.1:-30, 0.5:-20, 2.0:0}>");
  assert_true(grtc_quant_equal(&t, &u));
  u = parse_ok(module, "!quant.uniform<i8:f32:2, {0.1:-30, 0.5:-21, 2.0:0}>");
  assert_false(grtc_quant_equal(&t, &u));
  u = parse_ok(module, "!quant.uniform<i8:f32:1, {0.1:-30, 0.5:-20, 2.0:0}>");
  assert_false(grtc_quant_equal(&t, &u));
  grtc_tmodule_destroy(module);
}

static void test_errors(void** state) {
  (void)state;
  static const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {"!quant.uniform<f16:f32, 0.5>",
       "the storage type must be an integer type (i2, i4, i8, i16, i32 or ui2..ui32), "
       "given 'f16'"},
      {"!quant.uniform<i7:f32, 0.5>", "given 'i7'"},
      {"!quant.uniform<i64:f32, 0.5>", "given 'i64'"},
      {"!quant.uniform<i8:i32, 0.5>",
       "the expressed type must be f16, bf16, f32 or f64, given 'i32'"},
      {"!quant.uniform<i32:f16, 0.5>",
       "the storage type (32 bits) must not be wider than the expressed type f16"},
      {"!quant.uniform<i8:f32, 0.5:128>",
       "zero point 128 is outside the storage range [-128, 127]"},
      {"!quant.uniform<i8<-10:10>:f32, 0.5:-11>",
       "zero point -11 is outside the storage range [-10, 10]"},
      {"!quant.uniform<i8<-10:200>:f32, 0.5>",
       "storage range [-10, 200] must be increasing and within [-128, 127]"},
      {"!quant.uniform<i8<5:5>:f32, 0.5>", "storage range [5, 5] must be increasing"},
      {"!quant.uniform<i8:f32, 0.0:1>", "scale 0.0 must be positive and finite"},
      {"!quant.uniform<i8:f32, -2.0:1>", "scale -2.0 must be positive and finite"},
      {"!quant.uniform<i8:f32, 1e999>", "scale 1e999 must be positive and finite"},
      {"!quant.uniform<i8:f32, abc>", "expected a decimal scale, found 'abc>'"},
      {"!quant.uniform<i8:f32, 0x3F000000>", "expected a decimal scale"},
      {"!quant.uniform<i8:f32, 0.5:x>", "expected an integer zero point, found 'x>'"},
      {"!quant.uniform<i8:f32, 0.5:99999999999999999999>", "zero point"},
      {"!quant.uniform<i8:f32:1, 0.5:0>",
       "a quantization dimension needs '{scale:zero_point, ...}'"},
      {"!quant.uniform<i8:f32, {0.5:0}>",
       "'{...}' lists of scales need a quantization dimension"},
      {"!quant.uniform<i8:f32:-1, {0.5:0}>",
       "quantization dimension -1 must be in [0, 8)"},
      {"!quant.uniform<i8:f32:0, {0.5:0, 0.25:1>", "expected '}' after the scales"},
      {"!quant.uniform<i8:f32, 0.5:0", "expected '>' to close the type, found ''"},
      {"!quant.uniform<i8:f32, 0.5:0> x", "unexpected 'x' after the type"},
      {"!quant.uniform<i8 f32, 0.5>", "expected ':' after the storage type"},
      {"!quant.uniform", "expected '<' after '!quant.uniform'"},
      {"!quant.any<i8:f32>", "expected '!quant.uniform<...>'"},
  };
  grtc_tmodule_t* module = new_module();
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    grtc_quant_type_t type;
    grt_status_t status =
        grtc_quant_parse(grt_make_cstring_view(cases[i].text), module, &type);
    if (grt_status_is_ok(status)) {
      fprintf(stderr, "%s: parsed, expected '%s'\n", cases[i].text, cases[i].message);
      fail();
    }
    const char* message = grt_status_message(status);
    if (!strstr(message, cases[i].message) || !strstr(message, cases[i].text)) {
      fprintf(stderr, "%s: got '%s', expected '%s'\n", cases[i].text, message,
              cases[i].message);
      fail();
    }
    grt_status_free(status);
  }
  grtc_tmodule_destroy(module);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_per_tensor),
      cmocka_unit_test(test_per_axis),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
