// Verifier: one hand-made bad function per rule, each checking the message.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/status_matchers.h"
#include "vm/bytecode_verifier.h"
#include "vm/features.h"
#include "vm/op_table.h"

// One module 'm' whose function 0, 'f', is the code under test: 8 global
// bytes, no ref globals, rodata or imports unless a test adds them.
typedef struct test_module_t {
  grt_vm_signature_t signature;
  grt_module_function_t function;
  grt_vm_bytecode_layout_t layout;
} test_module_t;

// Fills |m| for |code| with signature |cconv|, |i32_count| primitive slots
// and 2 ref registers.
static void test_module_init(test_module_t* m, const uint8_t* code,
                             size_t length, const char* cconv,
                             uint32_t i32_count, uint64_t features) {
  memset(m, 0, sizeof(*m));
  assert_null(
      grt_vm_signature_parse(grt_make_cstring_view(cconv), &m->signature));
  m->function = (grt_module_function_t){grt_make_cstring_view("f"),
                                        grt_make_cstring_view(cconv),
                                        0,
                                        (uint32_t)length,
                                        i32_count,
                                        2};
  m->layout.module_name = grt_make_cstring_view("m");
  m->layout.features = features;
  m->layout.bytecode = grt_make_const_byte_span(code, length);
  m->layout.function_count = 1;
  m->layout.functions = &m->function;
  m->layout.function_signatures = &m->signature;
  m->layout.global_bytes = 8;
}

// Verifies function 0 of |m|; returns the message ("" if it passed). The
// returned text lives until the next call.
static const char* verify_module(const test_module_t* m) {
  static char message[512];
  grt_status_t status =
      grt_vm_bytecode_verify_function(&m->layout, 0, grt_allocator_system());
  snprintf(message, sizeof(message), "%s", grt_status_message(status));
  grt_status_free(status);
  return message;
}

static const char* verify(const uint8_t* code, size_t length, const char* cconv,
                          uint32_t i32_count, uint64_t features) {
  test_module_t m;
  test_module_init(&m, code, length, cconv, i32_count, features);
  return verify_module(&m);
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
  assert_string_equal(verify(ok, sizeof(ok), "0ii_v", 4, 0), "");
  // Two operands, one result.
  const uint8_t count[] = {0x00, 0x0B, 2, 0, 0, 0, 0, 0, 1, 0,
                           1, 0, 0, 2, 0, 0x06, 0, 0};
  assert_string_equal(verify(count, sizeof(count), "0_v", 4, 0),
                      "module 'm' function 'f' @ 0x1: optimization_barrier "
                      "has 2 operands but 1 results");
  // One operand, no results (what a result-less vm.optimization_barrier
  // would assemble to; the assembler refuses to write it).
  const uint8_t none[] = {0x00, 0x0B, 1, 0, 0, 0, 0, 0, 0, 0x06, 0, 0};
  assert_string_equal(verify(none, sizeof(none), "0i_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: optimization_barrier "
                      "has 1 operands but 0 results");
  // i32 operand, i64 result.
  const uint8_t type[] = {0x00, 0x0B, 1, 0, 0, 0, 0,
                          1, 0, 1, 2, 0, 0x06, 0, 0};
  assert_string_equal(verify(type, sizeof(type), "0_v", 4, 0),
                      "module 'm' function 'f' @ 0x1: optimization_barrier "
                      "result 0 is i64 but operand 0 is i32");
}

static void test_ref_register_out_of_range(void** state) {
  // cmp.nz.ref ref:5 -> i32:0 (the function has 2 ref registers)
  const uint8_t code[] = {0x00, 0x9D, 5, 0, 0, 0, 0x06, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: register ref:5 out of "
                      "range (function has 2 ref registers)");
}

static void test_global_misaligned(void** state) {
  // global.load.i32 @2
  const uint8_t code[] = {0x00, 0x18, 2, 0, 0, 0, 0, 0, 0x06, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: global byte offset 2 "
                      "is not 4-byte aligned");
}

static void test_ref_global_out_of_range(void** state) {
  // global.load.ref @global.ref#0 -> ref:0 (the module has none)
  const uint8_t code[] = {0x00, 0x1C, 0, 0, 0, 0, 0, 0, 0x06, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: ref global 0 out of "
                      "range (module has 0 ref globals)");
}

static void test_rodata_out_of_range(void** state) {
  // const.ref.rodata @rodata#1 -> ref:0 (the module has one segment)
  const uint8_t code[] = {0x00, 0x13, 1, 0, 0, 0, 0, 0, 0x06, 0, 0};
  test_module_t m;
  test_module_init(&m, code, sizeof(code), "0_v", 1, 0);
  m.layout.rodata_count = 1;
  assert_string_equal(verify_module(&m),
                      "module 'm' function 'f' @ 0x1: rodata 1 out of range "
                      "(module has 1 rodata segments)");
}

static void test_import_out_of_range(void** state) {
  // call @import#0 with no arguments and results (the module has none)
  const uint8_t code[] = {0x00, 0x04, 0, 0, 0, 0x80, 0, 0, 0, 0, 0x06, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: import 0 out of range "
                      "(module has 0 imports)");
}

static void test_variadic_import_needs_call_variadic(void** state) {
  const uint8_t code[] = {0x00, 0x04, 0, 0, 0, 0x80, 0, 0, 0, 0, 0x06, 0, 0};
  test_module_t m;
  test_module_init(&m, code, sizeof(code), "0_v", 1, 0);
  grt_vm_signature_t import;
  assert_null(grt_vm_signature_parse(grt_make_cstring_view("0CiD_v"), &import));
  m.layout.import_count = 1;
  m.layout.import_signatures = &import;
  assert_string_equal(verify_module(&m),
                      "module 'm' function 'f' @ 0x1: call to variadic import "
                      "0 (signature '0CiD_v') must use call.variadic");
}

// import.resolved @import#N -> i32:0 checks N like every import operand and
// takes any import, variadic or not.
static void test_import_resolved_checks_its_import(void** state) {
  uint8_t code[] = {0x00, 0xD0, 0, 0, 0, 0, 0, 0, 0x06, 0, 0};
  test_module_t m;
  test_module_init(&m, code, sizeof(code), "0_v", 1, 0);
  grt_vm_signature_t imports[2];
  assert_null(grt_vm_signature_parse(grt_make_cstring_view("0i_i"), &imports[0]));
  assert_null(grt_vm_signature_parse(grt_make_cstring_view("0CiD_v"), &imports[1]));
  m.layout.import_count = 2;
  m.layout.import_signatures = imports;
  assert_string_equal(verify_module(&m), "");
  code[2] = 1;
  assert_string_equal(verify_module(&m), "");
  code[2] = 2;
  assert_string_equal(verify_module(&m),
                      "module 'm' function 'f' @ 0x1: import 2 out of range "
                      "(module has 2 imports)");
  code[2] = 0;
  code[6] = 1;  // result i32:1 of a function with one i32 register
  assert_string_equal(verify_module(&m),
                      "module 'm' function 'f' @ 0x1: register i32:1 out of "
                      "range (function has 1 i32 registers)");
}

static void test_call_variadic_needs_variadic_import(void** state) {
  // call.variadic @import#0 <> () -> () where import 0 is 0i_i
  const uint8_t code[] = {0x00, 0x05, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                          0x06, 0, 0};
  test_module_t m;
  test_module_init(&m, code, sizeof(code), "0_v", 1, 0);
  grt_vm_signature_t import;
  assert_null(grt_vm_signature_parse(grt_make_cstring_view("0i_i"), &import));
  m.layout.import_count = 1;
  m.layout.import_signatures = &import;
  assert_string_equal(verify_module(&m),
                      "module 'm' function 'f' @ 0x1: call.variadic to import "
                      "0 whose signature '0i_i' has no variadic span");
}

static void test_call_arguments_must_match_callee(void** state) {
  // f is 0ii_i; call @function#0(i32:0) -> (i32:2) passes one argument.
  const uint8_t code[] = {0x00, 0x04, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0,
                          0x06, 1, 0, 2, 0};
  assert_string_equal(verify(code, sizeof(code), "0ii_i", 3, 0),
                      "module 'm' function 'f' @ 0x1: argument list has 1 "
                      "registers but the signature '0ii_i' needs 2");
}

static void test_call_results_must_match_callee(void** state) {
  // f is 0_i; call @function#0() -> (i32:0, i32:1) takes two results.
  const uint8_t code[] = {0x00, 0x04, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0,
                          0x06, 1, 0, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_i", 2, 0),
                      "module 'm' function 'f' @ 0x1: result list has 2 "
                      "registers but the signature '0_i' needs 1");
}

static void test_unknown_remap_type(void** state) {
  // br ^0x0 with one remap of type 9
  const uint8_t code[] = {0x00, 0x01, 0, 0, 0, 0, 1, 0, 9, 0, 0, 1, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 2, 0),
                      "module 'm' function 'f' @ 0x1: unknown register type 9 "
                      "(expected 0-4)");
}

static void test_string_past_end(void** state) {
  // fail i32:0, "..." claiming 100 bytes
  const uint8_t code[] = {0x00, 0x07, 0, 0, 100, 0, 'x'};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: string of 100 bytes "
                      "runs past the function end at 0x7");
}

static void test_descriptor_rules(void** state) {
  const uint8_t code[] = {0x00, 0x06, 0, 0};
  test_module_t m;
  test_module_init(&m, code, sizeof(code), "0_v", 70000, 0);
  assert_string_equal(verify_module(&m),
                      "module 'm' function 'f' @ 0x0: register counts 70000 "
                      "i32 / 2 ref exceed the limits 65536 / 32768");
  assert_string_equal(verify(code, sizeof(code), "0CiD_v", 1, 0),
                      "module 'm' function 'f' @ 0x0: bytecode functions "
                      "cannot be variadic (signature '0CiD_v')");
  test_module_init(&m, code, sizeof(code), "0_v", 1, 0);
  m.function.bytecode_offset = 2;
  assert_string_equal(verify_module(&m),
                      "module 'm' function 'f' @ 0x0: bytecode [0x2, 0x6) "
                      "runs past the module's 4 bytes");
  test_module_init(&m, code, 0, "0_v", 1, 0);
  assert_string_equal(verify_module(&m),
                      "module 'm' function 'f' @ 0x0: function has no "
                      "bytecode");
}

static void test_span_counts_must_match_signature(void** state) {
  // call.variadic @import#0 <1, 1> () -> () where import 0 is 0CiD_v.
  const uint8_t code[] = {0x00, 0x05, 0, 0, 0, 0, 2, 0, 1, 0, 1, 0,
                          0, 0, 0, 0, 0x06, 0, 0};
  test_module_t m;
  test_module_init(&m, code, sizeof(code), "0_v", 1, 0);
  grt_vm_signature_t import;
  assert_null(grt_vm_signature_parse(grt_make_cstring_view("0CiD_v"), &import));
  m.layout.import_count = 1;
  m.layout.import_signatures = &import;
  assert_string_equal(verify_module(&m),
                      "module 'm' function 'f' @ 0x1: call.variadic gives 2 "
                      "span counts but the signature '0CiD_v' has 1 spans");
}

static void test_optimization_barrier_operand_limit(void** state) {
  // optimization_barrier with 65 operands
  const uint8_t code[] = {0x00, 0x0B, 65, 0, 0, 0, 0, 0x06, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: optimization_barrier "
                      "with 65 operands (at most 64)");
}

static void test_unsupported_features(void** state) {
  test_module_t m;
  const uint8_t code[] = {0x00, 0x06, 0, 0};
  test_module_init(&m, code, sizeof(code), "0_v", 1,
                   GRT_VM_FEATURES_SUPPORTED | (UINT64_C(1) << 40));
  grt_expect_error(grt_vm_bytecode_verify_module(&m.layout),
                   GRT_STATUS_UNIMPLEMENTED,
                   "module 'm' needs VM features 0x10000000000 that this "
                   "runtime does not support");
  m.layout.features = GRT_VM_FEATURES_SUPPORTED;
  GRT_EXPECT_OK(grt_vm_bytecode_verify_module(&m.layout));
}

// Defined before use: add.i32 %i0, %i1 -> %i2 ; return %i2 where only %i0 is
// an argument.
static void test_read_of_unwritten_register(void** state) {
  const uint8_t code[] = {0x00, 0x30, 0, 0, 1, 0, 2, 0, 0x06, 1, 0, 2, 0};
  assert_string_equal(verify(code, sizeof(code), "0i_i", 3, 0),
                      "module 'm' function 'f' @ 0x1: register %i1 is read "
                      "before it is written on some path");
  assert_string_equal(verify(code, sizeof(code), "0ii_i", 3, 0), "");
}

// 0x00 block ; 0x01 cond_br %i0, ^0x10, ^0x1f
// 0x10 block ; 0x11 const.i32 7 -> %i1 ; 0x18 br ^0x2e
// 0x1f block ; 0x20 const.i32 9 -> %i1 ; 0x27 br ^0x2e
// 0x2e block ; 0x2f return %i1
static void test_written_on_one_branch_read_at_join(void** state) {
  uint8_t code[] = {0x00, 0x02, 0, 0, 0x10, 0, 0, 0, 0, 0, 0x1F, 0, 0, 0, 0, 0,
                    0x00, 0x10, 7, 0, 0, 0, 1, 0, 0x01, 0x2E, 0, 0, 0, 0, 0,
                    0x00, 0x10, 9, 0, 0, 0, 1, 0, 0x01, 0x2E, 0, 0, 0, 0, 0,
                    0x00, 0x06, 1, 0, 1, 0};
  assert_string_equal(verify(code, sizeof(code), "0i_i", 2, 0), "");
  code[0x25] = 0;  // the second branch writes %i0 instead
  assert_string_equal(verify(code, sizeof(code), "0i_i", 2, 0),
                      "module 'm' function 'f' @ 0x2f: register %i1 is read "
                      "before it is written on some path");
}

// const.i32 5 -> %i0 ; return %I0: only the low slot of the pair is written.
static void test_i64_read_needs_both_slots(void** state) {
  const uint8_t low[] = {0x00, 0x10, 5, 0, 0, 0, 0, 0, 0x06, 1, 0, 0, 0};
  assert_string_equal(verify(low, sizeof(low), "0_I", 2, 0),
                      "module 'm' function 'f' @ 0x8: register %I0 is read "
                      "before it is written on some path");
  // const.i64 5 -> %I0 writes both.
  const uint8_t both[] = {0x00, 0x11, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                          0x06, 1, 0, 0, 0};
  assert_string_equal(verify(both, sizeof(both), "0_I", 2, 0), "");
  // Slots, not types: const.i32 -> %i0 and const.i32 -> %i1 define %I0.
  const uint8_t halves[] = {0x00, 0x10, 5, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0,
                            1, 0, 0x06, 1, 0, 0, 0};
  assert_string_equal(verify(halves, sizeof(halves), "0_I", 2, 0), "");
}

// 0x00 block ; 0x01 br ^0x0d (i32 %i1 -> %i0) ; 0x0d block ; 0x0e return %i0
static void test_remap_source_must_be_defined(void** state) {
  const uint8_t code[] = {0x00, 0x01, 0x0D, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0,
                          0x00, 0x06, 1, 0, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_i", 2, 0),
                      "module 'm' function 'f' @ 0x1: register %i1 is read "
                      "before it is written on some path (remap source of "
                      "the edge to ^0x000d)");
  // %i1 an argument: the remap defines %i0 on the edge.
  assert_string_equal(verify(code, sizeof(code), "0ii_i", 2, 0), "");
}

// A remap defines its destination on its own edge only:
// 0x00 block ; 0x01 cond_br %i0, ^0x1a (i32 %i0 -> %i1),
//                                 ^0x1a (i32 %i0 -> %i1)
// 0x1a block ; 0x1b return %i1
static void test_remap_defines_on_its_edge_only(void** state) {
  uint8_t code[] = {0x00, 0x02, 0, 0, 0x1A, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                    0x1A, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                    0x00, 0x06, 1, 0, 1, 0};
  assert_string_equal(verify(code, sizeof(code), "0i_i", 2, 0), "");
  code[0x18] = 0;  // the second edge copies into %i0 instead
  assert_string_equal(verify(code, sizeof(code), "0i_i", 2, 0),
                      "module 'm' function 'f' @ 0x1b: register %i1 is read "
                      "before it is written on some path");
}

// Every br_table edge counts, the default and each case:
// 0x00 block ; 0x01 br_table %i0, ^0x27 (i32 %i0 -> %i1),
//                    [^0x27 (i32 %i0 -> %i1), ^0x27 (i32 %i0 -> %i1)]
// 0x27 block ; 0x28 return %i1
static void test_br_table_edges(void** state) {
  uint8_t code[] = {0x00, 0x03, 0, 0,
                    0x27, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                    2, 0,
                    0x27, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                    0x27, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                    0x00, 0x06, 1, 0, 1, 0};
  assert_string_equal(verify(code, sizeof(code), "0i_i", 2, 0), "");
  code[0x25] = 0;  // the last case copies into %i0 instead
  assert_string_equal(verify(code, sizeof(code), "0i_i", 2, 0),
                      "module 'm' function 'f' @ 0x28: register %i1 is read "
                      "before it is written on some path");
}

// A loop whose header reads %i2, carried in by remaps on both edges:
// 0x00 block ; 0x01 const.i32 0 -> %i1 ; 0x08 br ^0x14 (i32 %i1 -> %i2)
// 0x14 block ; 0x15 add.i32 %i2, %i0 -> %i3
// 0x1c cmp_br.lt.i32.s %i3, %i0, ^0x14 (i32 %i3 -> %i2), ^0x32
// 0x32 block ; 0x33 return %i3
static void test_loop_carried_through_remaps(void** state) {
  uint8_t code[] = {0x00, 0x10, 0, 0, 0, 0, 1, 0,
                    0x01, 0x14, 0, 0, 0, 1, 0, 0, 1, 0, 2, 0,
                    0x00, 0x30, 2, 0, 0, 0, 3, 0,
                    0xD6, 3, 0, 0, 0, 0x14, 0, 0, 0, 1, 0, 0, 3, 0, 2, 0,
                    0x32, 0, 0, 0, 0, 0,
                    0x00, 0x06, 1, 0, 3, 0};
  assert_string_equal(verify(code, sizeof(code), "0i_i", 4, 0), "");
  // The entry edge copies into %i3: %i2 is defined on the back edge only.
  code[0x12] = 3;
  assert_string_equal(verify(code, sizeof(code), "0i_i", 4, 0),
                      "module 'm' function 'f' @ 0x15: register %i2 is read "
                      "before it is written on some path");
}

// call @function#0(%i0) -> (%i1) ; return %i1: results are written, the
// arguments read.
static void test_call_lists(void** state) {
  uint8_t code[] = {0x00, 0x04, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0,
                    0x06, 1, 0, 1, 0};
  assert_string_equal(verify(code, sizeof(code), "0i_i", 2, 0), "");
  code[0x0C] = 0;  // the result goes to %i0: %i1 is never written
  assert_string_equal(verify(code, sizeof(code), "0i_i", 2, 0),
                      "module 'm' function 'f' @ 0xe: register %i1 is read "
                      "before it is written on some path");
  code[0x0C] = 1;
  code[0x08] = 1;  // the argument is %i1, written only by the call
  assert_string_equal(verify(code, sizeof(code), "0i_i", 2, 0),
                      "module 'm' function 'f' @ 0x1: register %i1 is read "
                      "before it is written on some path");
}

// Arguments land as grt_vm_bytecode_place_argument says: "0iI" puts i32 in
// slot 0 and i64 in slots 2-3; slot 1 is padding, never written.
static void test_arguments_are_defined(void** state) {
  const uint8_t ret_i64[] = {0x00, 0x06, 1, 0, 2, 0};
  assert_string_equal(verify(ret_i64, sizeof(ret_i64), "0iI_I", 4, 0), "");
  const uint8_t ret_f64[] = {0x00, 0xE1, 0x17, 2, 0, 2, 0, 0x06, 1, 0, 2, 0};
  assert_string_equal(verify(ret_f64, sizeof(ret_f64), "0fF_F", 4,
                             GRT_VM_FEATURE_EXT_F64),
                      "");
  // add.i32 %i0, %i1 -> %i0
  const uint8_t pad[] = {0x00, 0x30, 0, 0, 1, 0, 0, 0, 0x06, 0, 0};
  assert_string_equal(verify(pad, sizeof(pad), "0iI_v", 4, 0),
                      "module 'm' function 'f' @ 0x1: register %i1 is read "
                      "before it is written on some path");
  // Refs are outside the rule: cmp.nz.ref %r1 -> %i0 ; return %i0.
  const uint8_t ref[] = {0x00, 0x9D, 1, 0, 0, 0, 0x06, 1, 0, 0, 0};
  assert_string_equal(verify(ref, sizeof(ref), "0_i", 1, 0), "");
}

// Blocks no edge reaches are not checked and narrow nothing:
// 0x00 block ; 0x01 const.i32 1 -> %i1 ; 0x08 br ^0x17
// 0x0f block ; 0x10 br ^0x17          (unreachable, %i1 not written)
// 0x17 block ; 0x18 return %i1
// 0x1d block ; 0x1e return %i2        (unreachable, %i2 never written)
static void test_unreachable_blocks(void** state) {
  const uint8_t code[] = {0x00, 0x10, 1, 0, 0, 0, 1, 0,
                          0x01, 0x17, 0, 0, 0, 0, 0,
                          0x00, 0x01, 0x17, 0, 0, 0, 0, 0,
                          0x00, 0x06, 1, 0, 1, 0,
                          0x00, 0x06, 1, 0, 2, 0};
  assert_string_equal(verify(code, sizeof(code), "0_i", 3, 0), "");
}

// A block that reads a slot before writing it still defines it for its
// successors, so the read in that block is the one reported, not the later
// read in a block placed before it:
// 0x00 block ; 0x01 br ^0x0e
// 0x08 block ; 0x09 return %i1
// 0x0e block ; 0x0f add.i32 %i1, %i1 -> %i1 ; 0x16 br ^0x08
static void test_read_then_written_in_one_block(void** state) {
  const uint8_t code[] = {0x00, 0x01, 0x0E, 0, 0, 0, 0, 0,
                          0x00, 0x06, 1, 0, 1, 0,
                          0x00, 0x30, 1, 0, 1, 0, 1, 0,
                          0x01, 0x08, 0, 0, 0, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_i", 2, 0),
                      "module 'm' function 'f' @ 0xf: register %i1 is read "
                      "before it is written on some path");
  assert_string_equal(verify(code, sizeof(code), "0ii_i", 2, 0), "");
}

// Many registers and blocks: block k writes %i(7k) and branches to block
// k+1; the last returns a register. The sets span several 64-bit words.
static void test_many_blocks_and_registers(void** state) {
  enum { kBlocks = 300, kRegisters = 7 * kBlocks + 2 };
  static uint8_t code[kBlocks * 15 + 6];
  size_t at = 0;
  for (uint32_t k = 0; k < kBlocks; ++k) {
    uint32_t next = (uint32_t)at + 15;
    const uint8_t block[15] = {0x00, 0x10, (uint8_t)k, 0, 0, 0,
                               (uint8_t)(7 * k), (uint8_t)((7 * k) >> 8),
                               0x01, (uint8_t)next, (uint8_t)(next >> 8),
                               0, 0, 0, 0};
    memcpy(code + at, block, sizeof(block));
    at += sizeof(block);
  }
  const uint32_t last = 7 * (kBlocks - 1);
  uint8_t tail[6] = {0x00, 0x06, 1, 0, (uint8_t)last, (uint8_t)(last >> 8)};
  memcpy(code + at, tail, sizeof(tail));
  assert_string_equal(verify(code, sizeof(code), "0_i", kRegisters, 0), "");
  code[at + 4] = (uint8_t)(last + 1);
  char expected[160];
  snprintf(expected, sizeof(expected),
           "module 'm' function 'f' @ 0x%zx: register %%i%u is read before "
           "it is written on some path",
           at + 1, last + 1);
  assert_string_equal(verify(code, sizeof(code), "0_i", kRegisters, 0),
                      expected);
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
      cmocka_unit_test(test_ref_register_out_of_range),
      cmocka_unit_test(test_global_misaligned),
      cmocka_unit_test(test_ref_global_out_of_range),
      cmocka_unit_test(test_rodata_out_of_range),
      cmocka_unit_test(test_import_out_of_range),
      cmocka_unit_test(test_variadic_import_needs_call_variadic),
      cmocka_unit_test(test_import_resolved_checks_its_import),
      cmocka_unit_test(test_call_variadic_needs_variadic_import),
      cmocka_unit_test(test_call_arguments_must_match_callee),
      cmocka_unit_test(test_call_results_must_match_callee),
      cmocka_unit_test(test_unknown_remap_type),
      cmocka_unit_test(test_string_past_end),
      cmocka_unit_test(test_descriptor_rules),
      cmocka_unit_test(test_unsupported_features),
      cmocka_unit_test(test_span_counts_must_match_signature),
      cmocka_unit_test(test_optimization_barrier_operand_limit),
      cmocka_unit_test(test_read_of_unwritten_register),
      cmocka_unit_test(test_written_on_one_branch_read_at_join),
      cmocka_unit_test(test_i64_read_needs_both_slots),
      cmocka_unit_test(test_remap_source_must_be_defined),
      cmocka_unit_test(test_remap_defines_on_its_edge_only),
      cmocka_unit_test(test_br_table_edges),
      cmocka_unit_test(test_loop_carried_through_remaps),
      cmocka_unit_test(test_call_lists),
      cmocka_unit_test(test_arguments_are_defined),
      cmocka_unit_test(test_unreachable_blocks),
      cmocka_unit_test(test_read_then_written_in_one_block),
      cmocka_unit_test(test_many_blocks_and_registers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
