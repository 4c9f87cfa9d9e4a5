// Verifier: one hand-made bad function per rule, each checking the message.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "vm/bytecode_verifier.h"
#include "vm/op_table.h"

// Verifies |code| as function 'f' of module 'm' with signature |cconv|,
// |i32_count| primitive slots and 2 ref registers; returns the message ("" if
// it passed). The returned text lives until the next call.
static const char* verify(const uint8_t* code, size_t length, const char* cconv,
                          uint32_t i32_count, uint64_t features) {
  static char message[512];
  grt_vm_signature_t signature;
  assert_null(grt_vm_signature_parse(grt_make_cstring_view(cconv), &signature));
  grt_module_function_t function = {grt_make_cstring_view("f"),
                                    grt_make_cstring_view(cconv),
                                    0,
                                    (uint32_t)length,
                                    i32_count,
                                    2};
  grt_vm_bytecode_layout_t layout;
  memset(&layout, 0, sizeof(layout));
  layout.module_name = grt_make_cstring_view("m");
  layout.features = features;
  layout.bytecode = grt_make_const_byte_span(code, length);
  layout.function_count = 1;
  layout.functions = &function;
  layout.function_signatures = &signature;
  layout.global_bytes = 8;
  grt_status_t status =
      grt_vm_bytecode_verify_function(&layout, 0, grt_allocator_system());
  snprintf(message, sizeof(message), "%s", grt_status_message(status));
  grt_status_free(status);
  return message;
}

// add.i32 r0, r1 -> r2 ; return r2
static void test_valid_function_passes(void** state) {
  const uint8_t code[] = {0x00, 0x30, 0, 0, 1, 0, 2, 0, 0x06, 1, 0, 2, 0};
  assert_string_equal(verify(code, sizeof(code), "0ii_i", 3, 0), "");
}

static void test_register_out_of_range(void** state) {
  const uint8_t code[] = {0x00, 0x30, 0, 0, 40, 0, 2, 0, 0x06, 1, 0, 2, 0};
  assert_string_equal(verify(code, sizeof(code), "0ii_i", 8, 0),
                      "module 'm' function 'f' @ 0x1: register i32:40 out of "
                      "range (function has 8 i32 registers)");
}

static void test_odd_i64_pair(void** state) {
  // add.i64 r1(odd), r2 -> r4
  const uint8_t code[] = {0x00, 0x50, 1, 0, 2, 0, 4, 0, 0x06, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 8, 0),
                      "module 'm' function 'f' @ 0x1: register i64:1 is not "
                      "an even-aligned pair");
}

static void test_unknown_opcode(void** state) {
  const uint8_t code[] = {0x00, 0xFE, 0x06, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: unknown opcode 0xfe "
                      "(next byte 0x06)");
}

static void test_undeclared_extension(void** state) {
  // const.f32 (prefix 0xE0) without the f32 feature bit.
  const uint8_t code[] = {0x00, 0xE0, 0x00, 0, 0, 0, 0, 0, 0, 0x06, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: const.f32 needs the "
                      "f32 extension, which the module does not declare "
                      "(features 0x0)");
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 1), "");
}

static void test_operand_past_end(void** state) {
  const uint8_t code[] = {0x00, 0x30, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 2, 0),
                      "module 'm' function 'f' @ 0x1: register needs 2 bytes "
                      "at 0x4 but the function ends at 0x4");
}

static void test_branch_target_not_a_block(void** state) {
  // br to offset 2 (inside the br itself)
  const uint8_t code[] = {0x00, 0x01, 2, 0, 0, 0, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: branch target 0x2 is "
                      "not a block marker");
}

static void test_missing_terminator(void** state) {
  const uint8_t code[] = {0x00, 0x10, 1, 0, 0, 0, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x8: function ends without a "
                      "terminator (last op const.i32)");
}

static void test_op_after_terminator_needs_block(void** state) {
  const uint8_t code[] = {0x00, 0x06, 0, 0, 0x06, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x4: return follows a "
                      "terminator (or starts the function) without a block "
                      "marker");
}

static void test_return_count_mismatch(void** state) {
  const uint8_t code[] = {0x00, 0x06, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_i", 1, 0),
                      "module 'm' function 'f' @ 0x1: return list has 0 "
                      "registers but the signature '0_i' needs 1");
}

static void test_move_bit_on_result(void** state) {
  // const.ref.zero -> ref 0 with the move bit
  const uint8_t code[] = {0x00, 0x12, 0x00, 0x80, 0x06, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: result register ref:0 "
                      "carries the move bit (only operands may)");
}

static void test_global_out_of_range(void** state) {
  // global.load.i32 @8 (module has 8 bytes)
  const uint8_t code[] = {0x00, 0x18, 8, 0, 0, 0, 0, 0, 0x06, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: global byte offset 8 "
                      "(4 bytes) out of range (module has 8 global bytes)");
}

static void test_call_to_missing_function(void** state) {
  const uint8_t code[] = {0x00, 0x04, 5, 0, 0, 0, 0, 0, 0, 0, 0x06, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: function 5 out of range "
                      "(module has 1 functions)");
}

static void test_arguments_must_fit(void** state) {
  const uint8_t code[] = {0x00, 0x06, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0iI_v", 3, 0),
                      "module 'm' function 'f' @ 0x0: signature '0iI_v' needs "
                      "4 i32 and 0 ref registers for its arguments, function "
                      "has 3 and 2");
}

static void test_optimization_barrier_lists_must_match(void** state) {
  // optimization_barrier (i32 r0, i32 r1) -> (i32 r2, i32 r3) passes.
  const uint8_t ok[] = {0x00, 0x0B, 2, 0, 0, 0, 0, 0, 1, 0,
                        2, 0, 0, 2, 0, 0, 3, 0, 0x06, 0, 0};
  assert_string_equal(verify(ok, sizeof(ok), "0_v", 4, 0), "");
  // Two operands, one result.
  const uint8_t count[] = {0x00, 0x0B, 2, 0, 0, 0, 0, 0, 1, 0,
                           1, 0, 0, 2, 0, 0x06, 0, 0};
  assert_string_equal(verify(count, sizeof(count), "0_v", 4, 0),
                      "module 'm' function 'f' @ 0x1: optimization_barrier "
                      "has 2 operands but 1 results");
  // i32 operand, i64 result.
  const uint8_t type[] = {0x00, 0x0B, 1, 0, 0, 0, 0,
                          1, 0, 1, 2, 0, 0x06, 0, 0};
  assert_string_equal(verify(type, sizeof(type), "0_v", 4, 0),
                      "module 'm' function 'f' @ 0x1: optimization_barrier "
                      "result 0 is i64 but operand 0 is i32");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_valid_function_passes),
      cmocka_unit_test(test_register_out_of_range),
      cmocka_unit_test(test_odd_i64_pair),
      cmocka_unit_test(test_unknown_opcode),
      cmocka_unit_test(test_undeclared_extension),
      cmocka_unit_test(test_operand_past_end),
      cmocka_unit_test(test_branch_target_not_a_block),
      cmocka_unit_test(test_missing_terminator),
      cmocka_unit_test(test_op_after_terminator_needs_block),
      cmocka_unit_test(test_return_count_mismatch),
      cmocka_unit_test(test_move_bit_on_result),
      cmocka_unit_test(test_global_out_of_range),
      cmocka_unit_test(test_call_to_missing_function),
      cmocka_unit_test(test_arguments_must_fit),
      cmocka_unit_test(test_optimization_barrier_lists_must_match),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
