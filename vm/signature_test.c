// Calling-convention parsing, packed layout and import matching.
#include "vm/signature.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "vm/test_support.h"

static grt_vm_signature_t parse(const char* text) {
  grt_vm_signature_t signature;
  GRT_EXPECT_OK(
      grt_vm_signature_parse(grt_make_cstring_view(text), &signature));
  return signature;
}

static void test_parse_valid(void** state) {
  (void)state;
  grt_vm_signature_t none = parse("0v_v");
  assert_int_equal(none.arguments.size, 0);
  assert_int_equal(none.results.size, 0);
  assert_int_equal(none.argument_bytes, 0);
  assert_false(none.variadic);

  grt_vm_signature_t mixed = parse("0iI_r");
  assert_true(grt_string_view_equal_cstring(mixed.arguments, "iI"));
  assert_true(grt_string_view_equal_cstring(mixed.results, "r"));
  // i32 at 0, i64 aligned to 8: like struct { int32_t; int64_t; }.
  struct mixed_args { int32_t a; int64_t b; };
  assert_int_equal(mixed.argument_bytes, sizeof(struct mixed_args));
  assert_int_equal(mixed.result_bytes, sizeof(grt_vm_ref_t));

  grt_vm_signature_t variadic = parse("0rCiD_v");
  assert_true(variadic.variadic);
  struct variadic_empty { grt_vm_ref_t r; int32_t count; };
  assert_int_equal(variadic.argument_bytes, sizeof(struct variadic_empty));

  // An empty side means none, like 'v'.
  grt_vm_signature_t bare = parse("0_");
  assert_true(grt_vm_signature_equal(&none, &bare));
  grt_vm_signature_t floats = parse("0fF_fF");
  assert_false(grt_vm_signature_equal(&floats, &none));
}

static void test_packed_size_with_spans(void** state) {
  (void)state;
  grt_vm_signature_t signature = parse("0rCiID_v");
  size_t size = 0;
  int32_t counts[] = {2};
  GRT_EXPECT_OK(grt_vm_signature_packed_size(signature.arguments, counts, 1,
                                                &size));
  struct expanded {
    grt_vm_ref_t r;
    int32_t count;
    int32_t i0;
    int64_t l0;
    int32_t i1;
    int64_t l1;
  };
  assert_int_equal(size, sizeof(struct expanded));
  grt_expect_error(
      grt_vm_signature_packed_size(signature.arguments, counts, 0, &size),
      GRT_STATUS_INVALID_ARGUMENT,
      "'rCiID' has 1 variadic spans but 0 counts were given");
  int32_t negative[] = {-1};
  grt_expect_error(
      grt_vm_signature_packed_size(signature.arguments, negative, 1, &size),
      GRT_STATUS_INVALID_ARGUMENT,
      "variadic span 0 of 'rCiID' has negative count -1");
}

static void expect_parse_error(const char* text, const char* fragment) {
  grt_vm_signature_t signature;
  grt_expect_error(
      grt_vm_signature_parse(grt_make_cstring_view(text), &signature),
      GRT_STATUS_INVALID_ARGUMENT, fragment);
}

static void test_parse_errors(void** state) {
  (void)state;
  expect_parse_error("", "invalid calling convention '': expected version '0' "
                         "at position 0");
  expect_parse_error("1i_v", "expected version '0' at position 0");
  expect_parse_error("0ii", "invalid calling convention '0ii': expected '_' "
                            "between arguments and results at position 3");
  expect_parse_error("0ix_v", "invalid calling convention '0ix_v': unknown "
                              "type 'x' (expected one of i I f F r C D v) at "
                              "position 2");
  expect_parse_error("0i_q", "unknown type 'q' (expected one of i I f F r C D "
                             "v) at position 3");
  expect_parse_error("0iv_v",
                     "'v' must be the only character of its side at position "
                     "2");
  expect_parse_error("0CiD_CiD", "variadic span 'C' in results at position 5");
  expect_parse_error("0CCiDD_v", "nested span 'C' at position 2");
  expect_parse_error("0iD_v", "'D' without 'C' at position 2");
  expect_parse_error("0CD_v", "empty span 'CD' at position 2");
  expect_parse_error("0rCi_v", "span 'C' not closed by 'D' at position 2");
}

static void test_check_import(void** state) {
  (void)state;
  grt_vm_signature_t expected = parse("0r_I");
  grt_vm_signature_t exported = parse("0r_i");
  grt_vm_signature_t same = parse("0r_I");
  GRT_EXPECT_OK(grt_vm_signature_check_import(
      grt_make_cstring_view("hal.buffer.length"), &expected,
      grt_make_cstring_view("hal"), &same));
  grt_expect_error(
      grt_vm_signature_check_import(grt_make_cstring_view("hal.buffer.length"),
                                    &expected, grt_make_cstring_view("hal"),
                                    &exported),
      GRT_STATUS_INCOMPATIBLE,
      "import 'hal.buffer.length' expects signature 0r_I but module 'hal' "
      "exports 0r_i");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_valid),
      cmocka_unit_test(test_packed_size_with_spans),
      cmocka_unit_test(test_parse_errors),
      cmocka_unit_test(test_check_import),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
