// Disassembler: functions emitted with the emitter and printed back, with
// and without names; truncated and corrupt bytecode stops with a message
// and no out-of-bounds read (the sanitizer build checks the latter).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "vm/disassembler.h"
#include "vm/test_support.h"

// Disassembles function |ordinal| of the finished module |t| into *out
// (freed by the caller), with names from the module file when |named|.
static grt_status_t disassemble(grt_vm_test_module_t* t, uint32_t ordinal,
                                bool named, grt_vm_string_builder_t* out) {
  grt_module_function_t f = grt_module_file_function(t->file, ordinal);
  grt_const_byte_span_t all = grt_module_file_info(t->file)->bytecode;
  grt_vm_disassembly_names_t names;
  grt_vm_disassembly_names_for_module_file(t->file, ordinal, &names);
  grt_vm_string_builder_initialize(t->allocator, out);
  return grt_vm_disassemble_function(
      grt_make_const_byte_span(all.data + f.bytecode_offset,
                               f.bytecode_length),
      named ? &names : NULL, grt_vm_string_builder_sink(out));
}

static void expect_text(grt_vm_test_module_t* t, uint32_t ordinal, bool named,
                        const char* expected) {
  grt_vm_string_builder_t text;
  GRT_EXPECT_OK(disassemble(t, ordinal, named, &text));
  assert_string_equal(grt_vm_string_builder_cstring(&text), expected);
  grt_vm_string_builder_deinitialize(&text);
}

// Function 0 "main": arithmetic, a loop with block arguments, a call with
// typed lists, a string, a ref move, a float immediate, a branch table.
// Function 1 "helper": its callee. Import 0: "io.log" (variadic).
static void build_sample(grt_vm_test_module_t* t) {
  grt_vm_test_module_begin(t, "m");
  grt_vm_test_import(t, "io.log", "0rCiD_v", false);
  grt_vm_test_function_begin(t, "main", "0iir_ir");
  grt_vm_label_t loop = grt_vm_test_label(t);
  grt_vm_label_t done = grt_vm_test_label(t);
  GRT_EXPECT_OK(grt_vm_bytecode_emitter_set_location(
      t->emitter, grt_make_cstring_view("a.mlir:1:1")));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_ADD_I32, TI(0), TI(1), TI(2));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CONST_I32, TK(-5), TI(3));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CONST_I64, TK(INT64_C(1) << 40), TL(4));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CONST_F32, TK(0x3FC00000u), TF(6));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CONST_F64, TK(UINT64_C(0xC004000000000000)),
                   TD(8));
  grt_vm_remap_t swap[] = {{TR_I(0), 1}, {TR_I(1), 0}};
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_BR, grt_vm_operand_branch(loop, swap, 2));
  grt_vm_test_place(t, loop);
  grt_vm_remap_t move[] = {{TR_RM(0), 1}};
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_COND_BR, TI(2),
                   grt_vm_operand_branch(done, move, 1),
                   grt_vm_operand_branch(loop, NULL, 0));
  grt_vm_test_place(t, done);
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CALL, TO(1), TLIST(TR_L(4), TR_RM(1)),
                   TLIST(TR_I(10), TR_R(2)));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CALL_VARIADIC, TO(0),
                   grt_vm_operand_spans((const uint16_t[]){2}, 1),
                   TLIST(TR_R(2), TR_I(0), TR_I(1)), TLIST_EMPTY);
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_COND_FAIL, TI(2), TI(3),
                   TS("bad \"x\"\n\x01"));
  grt_vm_branch_t cases[] = {{loop, NULL, 0}, {done, NULL, 0}};
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_SWITCH_I32, TI(0), TI(1),
                   TLIST(TR_I(2), TR_I(3)), TI(11));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_BR_TABLE, TI(0),
                   grt_vm_operand_branch(done, NULL, 0),
                   grt_vm_operand_table(cases, 2));
  grt_vm_label_t tail = grt_vm_test_label(t);
  grt_vm_test_place(t, tail);
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_RETURN, TLIST(TR_I(10), TR_RM(2)));
  grt_vm_test_function_end(t, 12, 3);

  grt_vm_test_function_begin_ex(t, "helper", "0Ir_ir", false);
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_TRUNC_I64_I32, TL(0), TI(2));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_RETURN, TLIST(TR_I(2), TR_RM(0)));
  grt_vm_test_function_end(t, 3, 1);
  grt_vm_test_module_finish(t);
}

static const char kSampleNamed[] =
    "^0x0000:\n"
    "  0x0001  %i2 = add.i32 %i0, %i1\n"
    "  0x0008  %i3 = const.i32 -5\n"
    "  0x000f  %I4 = const.i64 1099511627776\n"
    "  0x001a  %f6 = const.f32 1.5\n"
    "  0x0022  %F8 = const.f64 -2.5\n"
    "  0x002e  br ^0x003f(%i0 -> %i1, %i1 -> %i0)\n"
    "^0x003f:\n"
    "  0x0040  cond_br %i2, ^0x0054(%r0! -> %r1), ^0x003f\n"
    "^0x0054:\n"
    "  0x0055  %i10, %r2 = call @helper(%I4, %r1!)\n"
    "  0x0066  call.variadic @io.log<2>(%r2, %i0, %i1)\n"
    "  0x0079  cond_fail %i2, %i3, \"bad \\\"x\\\"\\n\\x01\"\n"
    "  0x0089  %i11 = switch.i32 %i0, %i1, [%i2, %i3]\n"
    "  0x0096  br_table %i0, ^0x0054, [^0x003f, ^0x0054]\n"
    "^0x00ad:\n"
    "  0x00ae  return %i10, %r2!\n";

static void test_function_with_names(void** state) {
  (void)state;
  grt_vm_test_module_t t;
  build_sample(&t);
  expect_text(&t, 0, true, kSampleNamed);
  expect_text(&t, 1, true,
              "^0x0000:\n"
              "  0x0001  %i2 = trunc.i64.i32 %I0\n"
              "  0x0006  return %i2, %r0!\n");
  grt_vm_test_module_end(&t);
}

// Without names: ordinals spelled out, call and return lists untyped (the
// raw encoding, so a ref's move bit shows as bit 15).
static void test_function_without_names(void** state) {
  (void)state;
  grt_vm_test_module_t t;
  build_sample(&t);
  grt_vm_string_builder_t text;
  GRT_EXPECT_OK(disassemble(&t, 0, false, &text));
  const char* s = grt_vm_string_builder_cstring(&text);
  assert_non_null(strstr(s, "  0x0055  %?10, %?2 = call @function#1(%?4, "
                            "%?32769)\n"));
  assert_non_null(strstr(s, "call.variadic @import#0<2>(%?2, %?0, %?1)\n"));
  assert_non_null(strstr(s, "  0x00ae  return %?10, %?32770\n"));
  // Everything that does not depend on names is as with them.
  assert_non_null(strstr(s, "cond_br %i2, ^0x0054(%r0! -> %r1), ^0x003f\n"));
  grt_vm_string_builder_deinitialize(&text);
  grt_vm_test_module_end(&t);
}

// Every ordinal kind's fallback and a names callback that knows globals.
static bool global_names(void* user_data, char kind, uint32_t ordinal,
                         grt_string_view_t* out_name) {
  (void)user_data;
  if (kind == 'g' && ordinal == 4) {
    *out_name = grt_make_cstring_view("counter");
    return true;
  }
  return false;
}

static void test_ordinals_and_callbacks(void** state) {
  (void)state;
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_vm_test_function_begin(&t, "f", "0v_v");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_GLOBAL_LOAD_I32, TO(4), TI(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_GLOBAL_STORE_I64, TL(2), TO(8));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_GLOBAL_LOAD_REF, TO(1), TR(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CONST_REF_RODATA, TO(3), TR(1));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CALL, TO(GRT_VM_CALLEE_IMPORT_BIT | 5),
                   TLIST_EMPTY, TLIST_EMPTY);
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CONST_REF_ZERO, TR(0));
  grt_vm_register_t x[] = {TR_I(0), TR_F(1), TR_D(2), TR_RM(1)};
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_PRINT, TS("v"), grt_vm_operand_list(x, 4));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST_EMPTY);
  grt_vm_test_function_end(&t, 4, 2);
  GRT_EXPECT_OK(grt_vm_bytecode_emitter_finish(t.emitter, &t.bytecode));
  grt_vm_bytecode_function_t f = grt_vm_bytecode_emitter_function(t.emitter, 0);
  grt_const_byte_span_t code = grt_make_const_byte_span(
      t.bytecode.data + f.bytecode_offset, f.bytecode_length);
  grt_vm_disassembly_names_t names = {NULL, global_names, NULL,
                                      grt_make_cstring_view("0v_v")};
  grt_vm_string_builder_t text;
  grt_vm_string_builder_initialize(t.allocator, &text);
  GRT_EXPECT_OK(grt_vm_disassemble_function(
      code, &names, grt_vm_string_builder_sink(&text)));
  assert_string_equal(grt_vm_string_builder_cstring(&text),
                      "^0x0000:\n"
                      "  0x0001  %i0 = global.load.i32 @counter\n"
                      "  0x0008  global.store.i64 %I2, @global+8\n"
                      "  0x000f  %r0 = global.load.ref @global.ref#1\n"
                      "  0x0016  %r1 = const.ref.rodata @rodata#3\n"
                      "  0x001d  call @import#5()\n"
                      "  0x0026  %r0 = const.ref.zero\n"
                      "  0x0029  print \"v\", [%i0, %f1, %F2, %r1!]\n"
                      "  0x003b  return\n");
  grt_vm_string_builder_deinitialize(&text);

  // One op at a time gives the same lines and the offset of the next.
  grt_vm_string_builder_initialize(t.allocator, &text);
  uint32_t next = 0;
  GRT_EXPECT_OK(grt_vm_disassemble_op(code, 0x1d, NULL,
                                         grt_vm_string_builder_sink(&text),
                                         &next));
  assert_string_equal(grt_vm_string_builder_cstring(&text),
                      "  0x001d  call @import#5()\n");
  assert_int_equal(next, 0x26);
  grt_vm_string_builder_deinitialize(&text);
  grt_vm_test_module_end(&t);
}

// Every prefix of a function (each cut mid-op somewhere) and every single
// corrupted byte either disassembles or stops with a message; none reads
// past the span. The copy is exactly sized so ASan catches an overrun.
static void test_truncated_and_corrupt_input(void** state) {
  (void)state;
  grt_vm_test_module_t t;
  build_sample(&t);
  grt_module_function_t f = grt_module_file_function(t.file, 0);
  const uint8_t* code =
      grt_module_file_info(t.file)->bytecode.data + f.bytecode_offset;
  int stopped = 0;
  for (uint32_t length = 0; length <= f.bytecode_length; ++length) {
    uint8_t* copy = malloc(length ? length : 1);
    memcpy(copy, code, length);
    grt_vm_string_builder_t text;
    grt_vm_string_builder_initialize(t.allocator, &text);
    grt_status_t status = grt_vm_disassemble_function(
        grt_make_const_byte_span(copy, length), NULL,
        grt_vm_string_builder_sink(&text));
    if (status) {
      ++stopped;
      assert_int_equal(grt_status_code(status), GRT_STATUS_INVALID_ARGUMENT);
      assert_non_null(strstr(grt_vm_string_builder_cstring(&text),
                             "<malformed: "));
      grt_status_free(status);
    }
    grt_vm_string_builder_deinitialize(&text);
    free(copy);
  }
  // Cuts at op boundaries succeed (17 ops, blocks included, and the empty cut); all others stop.
  assert_int_equal(stopped, (int)f.bytecode_length + 1 - 18);
  for (uint32_t i = 0; i < f.bytecode_length; ++i) {
    uint8_t* copy = malloc(f.bytecode_length);
    memcpy(copy, code, f.bytecode_length);
    copy[i] ^= 0xFF;
    grt_vm_string_builder_t text;
    grt_vm_string_builder_initialize(t.allocator, &text);
    grt_status_free(grt_vm_disassemble_function(
        grt_make_const_byte_span(copy, f.bytecode_length), NULL,
        grt_vm_string_builder_sink(&text)));
    grt_vm_string_builder_deinitialize(&text);
    free(copy);
  }
  grt_vm_test_module_end(&t);
}

static void test_malformed_messages(void** state) {
  (void)state;
  grt_vm_string_builder_t text;
  grt_vm_string_builder_initialize(grt_allocator_system(), &text);
  // block; add.i32 with its last register cut off.
  const uint8_t cut[] = {0x00, 0x30, 0x01, 0x00, 0x02, 0x00, 0x03};
  grt_status_t status = grt_vm_disassemble_function(
      grt_make_const_byte_span(cut, sizeof(cut)), NULL,
      grt_vm_string_builder_sink(&text));
  grt_expect_error(status, GRT_STATUS_INVALID_ARGUMENT,
                      "disassembly @ 0x1: register needs 2 bytes at 0x6 but "
                      "the function ends at 0x7");
  assert_string_equal(grt_vm_string_builder_cstring(&text),
                      "^0x0000:\n"
                      "  0x0001  <malformed: register needs 2 bytes at 0x6 "
                      "but the function ends at 0x7>\n");
  grt_vm_string_builder_deinitialize(&text);

  const uint8_t unknown[] = {0xE0, 0xFF};
  grt_vm_string_builder_initialize(grt_allocator_system(), &text);
  grt_expect_error(grt_vm_disassemble_function(
                          grt_make_const_byte_span(unknown, sizeof(unknown)),
                          NULL, grt_vm_string_builder_sink(&text)),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "disassembly @ 0x0: unknown opcode 0xe0 (next byte "
                      "0xff)");
  grt_vm_string_builder_deinitialize(&text);

  // A remap entry with a type byte outside the enum.
  const uint8_t bad_type[] = {0x01, 0x00, 0x00, 0x00, 0x00, 0x01,
                              0x00, 0x09, 0x00, 0x00, 0x00, 0x00};
  grt_vm_string_builder_initialize(grt_allocator_system(), &text);
  grt_expect_error(grt_vm_disassemble_function(
                          grt_make_const_byte_span(bad_type, sizeof(bad_type)),
                          NULL, grt_vm_string_builder_sink(&text)),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "unknown register type 9 at 0x7 (expected 0-4)");
  grt_vm_string_builder_deinitialize(&text);
}

// The FILE sink writes the same text.
static void test_file_sink(void** state) {
  (void)state;
  grt_vm_test_module_t t;
  build_sample(&t);
  FILE* file = tmpfile();
  assert_non_null(file);
  grt_module_function_t f = grt_module_file_function(t.file, 0);
  grt_vm_disassembly_names_t names;
  grt_vm_disassembly_names_for_module_file(t.file, 0, &names);
  GRT_EXPECT_OK(grt_vm_disassemble_function(
      grt_make_const_byte_span(
          grt_module_file_info(t.file)->bytecode.data + f.bytecode_offset,
          f.bytecode_length),
      &names, grt_vm_text_sink_file(file)));
  long size = ftell(file);
  assert_int_equal(size, (long)strlen(kSampleNamed));
  rewind(file);
  char* read = calloc(1, (size_t)size + 1);
  assert_int_equal(fread(read, 1, (size_t)size, file), (size_t)size);
  assert_string_equal(read, kSampleNamed);
  free(read);
  fclose(file);
  grt_vm_test_module_end(&t);
}

// grt_vm_op_size_verified (the interpreter's error path uses it to find the
// failing op) agrees with the disassembler on every op of the sample, which
// has every variable-length operand kind: remaps, tables, typed lists,
// spans, strings and 64-bit immediates.
static void test_op_size_matches_disassembler(void** state) {
  (void)state;
  grt_vm_test_module_t module;
  grt_vm_test_module_t* t = &module;
  build_sample(t);
  for (uint32_t ordinal = 0; ordinal < 2; ++ordinal) {
    grt_module_function_t f = grt_module_file_function(t->file, ordinal);
    grt_const_byte_span_t all = grt_module_file_info(t->file)->bytecode;
    grt_const_byte_span_t code = grt_make_const_byte_span(
        all.data + f.bytecode_offset, f.bytecode_length);
    uint32_t offset = 0, ops = 0;
    while (offset < code.size) {
      grt_vm_string_builder_t text;
      grt_vm_string_builder_initialize(t->allocator, &text);
      uint32_t next = 0;
      GRT_EXPECT_OK(grt_vm_disassemble_op(code, offset, NULL,
                                          grt_vm_string_builder_sink(&text),
                                          &next));
      grt_vm_string_builder_deinitialize(&text);
      assert_int_equal(grt_vm_op_size_verified(code.data + offset),
                       next - offset);
      offset = next;
      ++ops;
    }
    assert_int_equal(offset, code.size);
    assert_true(ops >= 3);
  }
  grt_vm_test_module_end(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_function_with_names),
      cmocka_unit_test(test_function_without_names),
      cmocka_unit_test(test_ordinals_and_callbacks),
      cmocka_unit_test(test_truncated_and_corrupt_input),
      cmocka_unit_test(test_malformed_messages),
      cmocka_unit_test(test_file_sink),
      cmocka_unit_test(test_op_size_matches_disassembler),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
