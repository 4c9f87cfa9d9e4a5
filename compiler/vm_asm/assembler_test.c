// Assembler tests: vm-dialect programs assembled in memory, opened as module
// files and checked for their structure, then run through the VM; and one
// test per assembler diagnostic with its message.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compiler/vm_asm/assemble_test_support.h"
#include "compiler/vm_asm/assembler.h"
#include "compiler/vm_asm/vm_syntax.h"
#include "vm/buffer.h"
#include "vm/native_module.h"
#include "vm/signature.h"
#include "vm/test_support.h"

static void assemble_ok(const char* source, grt_vm_test_module_t* t) {
  GRT_EXPECT_OK(assemble(source, t));
}

static void load_ok(const char* source, grt_vm_test_module_t* t) {
  assemble_ok(source, t);
  GRT_EXPECT_OK(grt_vm_test_module_link(t, NULL, 0));
}

static int32_t call_i32(grt_vm_test_module_t* t, const char* name, const int32_t* args,
                        size_t arg_count) {
  grt_vm_variant_t variants[4];
  for (size_t i = 0; i < arg_count; ++i) variants[i] = grt_vm_variant_i32(args[i]);
  grt_vm_variant_t result;
  GRT_EXPECT_OK(grt_vm_test_call(t, name, variants, arg_count, &result, 1));
  assert_int_equal(result.type, GRT_VM_VALUE_TYPE_I32);
  return result.i32;
}

static uint32_t find_function(const grt_module_file_t* file, const char* name) {
  const grt_module_file_info_t* info = grt_module_file_info(file);
  for (uint32_t i = 0; i < info->function_count; ++i) {
    if (grt_string_view_equal_cstring(grt_module_file_function(file, i).name, name)) return i;
  }
  fail_msg("no function %s", name);
  return 0;
}

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

static const char* kStructure =
    "vm.module @shapes attributes {version = 3 : i32} {\n"
    "  vm.global.i32 private mutable @counter = 7 : i32\n"
    "  vm.global.i64 private @wide : i64\n"
    "  vm.global.f32 private @scale : f32\n"
    "  vm.global.ref private mutable @cache : !vm.ref<?>\n"
    "  vm.rodata private @bytes dense<[1, 2, 3, 4]> : tensor<4xi8>\n"
    "  vm.rodata private @big dense<5> : tensor<2048xi32>\n"
    "  vm.import private optional @native.sum(%a : i32, %rest : i64 ...) -> i32\n"
    "  vm.import private @native.ref(%b : !vm.buffer) -> (!vm.buffer, f64)\n"
    "  vm.func @mix(%a: i32, %b: i64, %c: f32, %d: !vm.buffer, %e: f64) -> (i64, f32) {\n"
    "    vm.return %b, %c : i64, f32\n"
    "  }\n"
    "  vm.func @none() {\n"
    "    vm.return\n"
    "  }\n"
    "  vm.export @mix as(\"entry\")\n"
    "  vm.export @none\n"
    "}\n";

static void test_structure(void** state) {
  grt_vm_test_module_t t;
  assemble_ok(kStructure, &t);
  const grt_module_file_info_t* info = grt_module_file_info(t.file);
  assert_true(grt_string_view_equal_cstring(info->name, "shapes"));
  assert_int_equal(info->version, 3);
  // i32 at 0, i64 aligned to 8, f32 at 16; one ref global.
  assert_int_equal(info->global_bytes, 20);
  assert_int_equal(info->global_ref_count, 1);
  assert_int_equal(info->features, 0);

  assert_int_equal(info->import_count, 2);
  grt_module_import_t import = grt_module_file_import(t.file, 0);
  assert_true(grt_string_view_equal_cstring(import.full_name, "native.sum"));
  assert_true(grt_string_view_equal_cstring(import.calling_convention, "0iCID_i"));
  assert_true(import.optional);
  import = grt_module_file_import(t.file, 1);
  assert_true(grt_string_view_equal_cstring(import.calling_convention, "0r_rF"));
  assert_false(import.optional);

  // mix, none, and the synthesized __init for @counter's initial value.
  assert_int_equal(info->function_count, 3);
  grt_module_function_t mix = grt_module_file_function(t.file, 0);
  assert_true(grt_string_view_equal_cstring(mix.calling_convention, "0iIfrF_If"));
  // a:0, b:2-3, c:4, e:6-7 (the calling convention's placement); d: ref 0.
  assert_int_equal(mix.i32_register_count, 8);
  assert_int_equal(mix.ref_register_count, 1);
  grt_module_function_t none = grt_module_file_function(t.file, 1);
  assert_true(grt_string_view_equal_cstring(none.calling_convention, "0v_v"));
  assert_int_equal(none.i32_register_count, 0);
  assert_true(grt_string_view_equal_cstring(grt_module_file_function(t.file, 2).name,
                                            "__init"));

  assert_int_equal(info->export_count, 3);
  grt_module_export_t export_def = grt_module_file_export(t.file, 0);
  assert_true(grt_string_view_equal_cstring(export_def.name, "__init"));
  assert_int_equal(export_def.function_ordinal, 2);
  export_def = grt_module_file_export(t.file, 1);
  assert_true(grt_string_view_equal_cstring(export_def.name, "entry"));
  assert_int_equal(export_def.function_ordinal, 0);

  assert_int_equal(info->rodata_count, 2);
  grt_module_rodata_t bytes = grt_module_file_rodata(t.file, 0);
  assert_int_equal(bytes.data.size, 4);
  assert_int_equal(bytes.data.data[3], 4);
  assert_false(bytes.external);
  grt_module_rodata_t big = grt_module_file_rodata(t.file, 1);
  assert_int_equal(big.data.size, 2048 * 4);
  assert_true(big.external);
  assert_int_equal(big.data.data[4 * 2047], 5);
  grt_vm_test_module_end(&t);
}

static void test_float_ops_set_features(void** state) {
  grt_vm_test_module_t t;
  assemble_ok(
      "vm.module @m {\n"
      "  vm.func @f(%a: f64) -> f64 {\n"
      "    %b = vm.add.f64 %a, %a : f64\n"
      "    vm.return %b : f64\n"
      "  }\n"
      "}\n",
      &t);
  assert_int_equal(grt_module_file_info(t.file)->features, GRT_VM_FEATURE_EXT_F64);
  grt_vm_test_module_end(&t);
}

// Registers are reused after a value's last use: a chain of adds needs two
// registers (an operand and the result it becomes) however long it is.
static void test_registers_are_reused(void** state) {
  grt_vm_test_module_t t;
  assemble_ok(
      "vm.module @m {\n"
      "  vm.func @chain(%a: i32) -> i32 {\n"
      "    %b = vm.add.i32 %a, %a : i32\n"
      "    %c = vm.add.i32 %b, %b : i32\n"
      "    %d = vm.add.i32 %c, %c : i32\n"
      "    %e = vm.add.i32 %d, %d : i32\n"
      "    %f = vm.add.i32 %e, %e : i32\n"
      "    vm.return %f : i32\n"
      "  }\n"
      "  vm.export @chain\n"
      "}\n",
      &t);
  assert_int_equal(grt_module_file_function(t.file, 0).i32_register_count, 2);
  GRT_EXPECT_OK(grt_vm_test_module_link(&t, NULL, 0));
  int32_t args[] = {3};
  assert_int_equal(call_i32(&t, "chain", args, 1), 96);
  grt_vm_test_module_end(&t);
}

// Loop-carried values take their block argument's register when nothing
// reads the argument after the value is defined, so the back-edge copies
// nothing: %acc1 and %i1 share %acc's and %i's slots (5 slots in all). In
// @fib_iter %c cannot share %b's slot (the branch still passes the old %b
// on), and the result shows the copies stayed right.
static void test_loop_carried_values_coalesce(void** state) {
  grt_vm_test_module_t t;
  assemble_ok(
      "vm.module @m {\n"
      "  vm.func @sum(%n: i32) -> i32 {\n"
      "    %zero = vm.const.i32 0\n"
      "    %one = vm.const.i32 1\n"
      "    vm.br ^loop(%zero, %zero : i32, i32)\n"
      "  ^loop(%i: i32, %acc: i32):\n"
      "    %more = vm.cmp.lt.i32.s %i, %n : i32\n"
      "    vm.cond_br %more, ^body, ^done\n"
      "  ^body:\n"
      "    %acc1 = vm.add.i32 %acc, %i : i32\n"
      "    %i1 = vm.add.i32 %i, %one : i32\n"
      "    vm.br ^loop(%i1, %acc1 : i32, i32)\n"
      "  ^done:\n"
      "    vm.return %acc : i32\n"
      "  }\n"
      "  vm.func @fib_iter(%n: i32) -> i32 {\n"
      "    %zero = vm.const.i32 0\n"
      "    %one = vm.const.i32 1\n"
      "    vm.br ^loop(%zero, %one, %zero : i32, i32, i32)\n"
      "  ^loop(%a: i32, %b: i32, %k: i32):\n"
      "    %more = vm.cmp.lt.i32.s %k, %n : i32\n"
      "    vm.cond_br %more, ^body, ^done\n"
      "  ^body:\n"
      "    %c = vm.add.i32 %a, %b : i32\n"
      "    %k1 = vm.add.i32 %k, %one : i32\n"
      "    vm.br ^loop(%b, %c, %k1 : i32, i32, i32)\n"
      "  ^done:\n"
      "    vm.return %a : i32\n"
      "  }\n"
      "  vm.export @sum\n"
      "  vm.export @fib_iter\n"
      "}\n",
      &t);
  grt_module_function_t sum = grt_module_file_function(t.file, find_function(t.file, "sum"));
  assert_int_equal(sum.i32_register_count, 5);
  // The body's back edge copies nothing, so the assembler put the loop
  // test there (the op before the ^done marker and its return): one
  // cmp_br.lt.i32.s (opcode, two u16 registers, then two branch operands of
  // u32 target + u16 remap count), both of whose edges carry no remaps.
  const uint8_t* code = grt_module_file_info(t.file)->bytecode.data + sum.bytecode_offset;
  const uint8_t* end = code + sum.bytecode_length;
  const uint8_t* test = end - (1 + 1 + 2 + 2) - (1 + 2 + 2 + 6 + 6);  // marker + return %r
  assert_int_equal(test[0], grt_vm_op_info(GRT_VM_OP_CMP_BR_LT_I32_S)->byte);
  assert_int_equal(test[9] | (test[10] << 8), 0);
  assert_int_equal(test[15] | (test[16] << 8), 0);
  GRT_EXPECT_OK(grt_vm_test_module_link(&t, NULL, 0));
  int32_t ten[] = {10};
  assert_int_equal(call_i32(&t, "sum", ten, 1), 45);
  assert_int_equal(call_i32(&t, "fib_iter", ten, 1), 55);
  grt_vm_test_module_end(&t);
}

//===----------------------------------------------------------------------===//
// Running what was assembled
//===----------------------------------------------------------------------===//

static const char* kPrograms =
    "vm.module @programs {\n"
    "  vm.func @fib(%n: i32) -> i32 {\n"
    "    %c2 = vm.const.i32 2\n"
    "    %lt = vm.cmp.lt.i32.s %n, %c2 : i32\n"
    "    vm.cond_br %lt, ^base, ^recurse\n"
    "  ^base:\n"
    "    vm.return %n : i32\n"
    "  ^recurse:\n"
    "    %c1 = vm.const.i32 1\n"
    "    %n1 = vm.sub.i32 %n, %c1 : i32\n"
    "    %f1 = vm.call @fib(%n1) : (i32) -> i32\n"
    "    %n2 = vm.sub.i32 %n, %c2 : i32\n"
    "    %f2 = vm.call @fib(%n2) : (i32) -> i32\n"
    "    %sum = vm.add.i32 %f1, %f2 : i32\n"
    "    vm.return %sum : i32\n"
    "  }\n"
    "  vm.export @fib\n"
    // Swaps x and y k times through block arguments (parallel copies).
    "  vm.func @swap(%x0: i32, %y0: i32, %k0: i32) -> i32 {\n"
    "    %zero = vm.const.i32.zero\n"
    "    vm.br ^loop(%x0, %y0, %k0 : i32, i32, i32)\n"
    "  ^loop(%x: i32, %y: i32, %k: i32):\n"
    "    %done = vm.cmp.eq.i32 %k, %zero : i32\n"
    "    vm.cond_br %done, ^exit(%x : i32), ^body\n"
    "  ^body:\n"
    "    %one = vm.const.i32 1\n"
    "    %k1 = vm.sub.i32 %k, %one : i32\n"
    "    vm.br ^loop(%y, %x, %k1 : i32, i32, i32)\n"
    "  ^exit(%r: i32):\n"
    "    vm.return %r : i32\n"
    "  }\n"
    "  vm.export @swap\n"
    "  vm.func private @pair(%a: i32) -> (i32, i64) {\n"
    "    %w = vm.ext.i32.i64.s %a : i32 -> i64\n"
    "    vm.return %a, %w : i32, i64\n"
    "  }\n"
    "  vm.func @use_pair(%a: i32) -> i32 {\n"
    "    %p:2 = vm.call @pair(%a) : (i32) -> (i32, i64)\n"
    "    %t = vm.trunc.i64.i32 %p#1 : i64 -> i32\n"
    "    %s = vm.add.i32 %p#0, %t : i32\n"
    "    vm.return %s : i32\n"
    "  }\n"
    "  vm.export @use_pair\n"
    "  vm.func @table(%i: i32) -> i32 {\n"
    "    %c10 = vm.const.i32 10\n"
    "    %c20 = vm.const.i32 20\n"
    "    %c99 = vm.const.i32 99\n"
    "    vm.br_table %i {\n"
    "      default: ^out(%c99 : i32),\n"
    "      0: ^out(%c10 : i32),\n"
    "      1: ^out(%c20 : i32)\n"
    "    }\n"
    "  ^out(%v: i32):\n"
    "    %s = vm.switch.i32 %i[%c20, %c10] else %c99 : i32\n"
    "    %r = vm.add.i32 %v, %s : i32\n"
    "    vm.return %r : i32\n"
    "  }\n"
    "  vm.export @table\n"
    "  vm.global.i32 private mutable @counter = 40 : i32\n"
    "  vm.global.f64 private mutable @half = 0.5 : f64\n"
    "  vm.initializer {\n"
    "    %g = vm.global.load.i32 @counter : i32\n"
    "    %c2 = vm.const.i32 2\n"
    "    %s = vm.add.i32 %g, %c2 : i32\n"
    "    vm.global.store.i32 %s, @counter : i32\n"
    "    vm.return\n"
    "  }\n"
    "  vm.func @read_counter() -> i32 {\n"
    "    %g = vm.global.load.i32 @counter : i32\n"
    "    %h = vm.global.load.f64 @half : f64\n"
    "    %c = vm.const.f64 4.0\n"
    "    %m = vm.mul.f64 %h, %c : f64\n"
    "    %i = vm.cast.f64.si32 %m : f64 -> i32\n"
    "    %s = vm.add.i32 %g, %i : i32\n"
    "    vm.return %s : i32\n"
    "  }\n"
    "  vm.export @read_counter\n"
    "  vm.rodata private @data dense<[5, 6, 7]> : tensor<3xi32>\n"
    "  vm.func @buffers(%i: i32) -> i32 {\n"
    "    %buf = vm.const.ref.rodata @data : !vm.buffer\n"
    "    %idx = vm.ext.i32.i64.u %i : i32 -> i64\n"
    "    %v = vm.buffer.load.i32 %buf[%idx] : !vm.buffer -> i32\n"
    "    %inline = vm.rodata.inline : !vm.buffer = dense<[1, 2]> : tensor<2xi8>\n"
    "    %len = vm.buffer.length %inline : !vm.buffer -> i64\n"
    "    %len32 = vm.trunc.i64.i32 %len : i64 -> i32\n"
    "    %r = vm.add.i32 %v, %len32 : i32\n"
    "    vm.return %r : i32\n"
    "  }\n"
    "  vm.export @buffers\n"
    "}\n";

static void test_runs_programs(void** state) {
  grt_vm_test_module_t t;
  load_ok(kPrograms, &t);
  int32_t ten[] = {10};
  assert_int_equal(call_i32(&t, "fib", ten, 1), 55);
  int32_t swap_odd[] = {1, 2, 3};
  assert_int_equal(call_i32(&t, "swap", swap_odd, 3), 2);
  int32_t swap_even[] = {1, 2, 4};
  assert_int_equal(call_i32(&t, "swap", swap_even, 3), 1);
  int32_t seven[] = {7};
  assert_int_equal(call_i32(&t, "use_pair", seven, 1), 14);
  int32_t index[] = {0};
  assert_int_equal(call_i32(&t, "table", index, 1), 10 + 20);
  index[0] = 1;
  assert_int_equal(call_i32(&t, "table", index, 1), 20 + 10);
  index[0] = 5;
  assert_int_equal(call_i32(&t, "table", index, 1), 99 + 99);
  // 40 from the initial value, + 2 from the initializer, + 0.5 * 4.
  assert_int_equal(call_i32(&t, "read_counter", NULL, 0), 44);
  int32_t two[] = {2};
  assert_int_equal(call_i32(&t, "buffers", two, 1), 7 + 2);
  assert_int_equal(grt_module_file_info(t.file)->features,
                   GRT_VM_FEATURE_EXT_F64);
  grt_vm_test_module_end(&t);
}

static const char* kRefs =
    "vm.module @refs {\n"
    "  vm.func @pick(%a: !vm.buffer, %b: !vm.buffer, %c: i32) -> !vm.buffer {\n"
    "    %r = vm.select.ref %c, %a, %b : !vm.buffer\n"
    "    vm.return %r : !vm.buffer\n"
    "  }\n"
    "  vm.func @lengths(%n: i64) -> i64 {\n"
    "    %c0 = vm.const.i32 0\n"
    "    %c16 = vm.const.i32 16\n"
    "    %a = vm.buffer.alloc %n, %c16 : i64 -> !vm.buffer\n"
    "    %n2 = vm.add.i64 %n, %n : i64\n"
    "    %b = vm.buffer.alloc %n2, %c16 : i64 -> !vm.buffer\n"
    "    %s = vm.call @pick(%a, %b, %c0) : (!vm.buffer, !vm.buffer, i32) -> !vm.buffer\n"
    "    %nz = vm.cmp.nz.ref %s : !vm.buffer\n"
    "    vm.check.nz %nz, \"picked null\" : i32\n"
    "    %len = vm.buffer.length %s : !vm.buffer -> i64\n"
    "    vm.return %len : i64\n"
    "  }\n"
    "  vm.export @lengths\n"
    "}\n";

// A ref's last use carries the move bit; the program still computes the
// right thing with refs moved into the call.
static void test_refs_move_on_last_use(void** state) {
  grt_vm_test_module_t t;
  load_ok(kRefs, &t);
  grt_module_function_t lengths = grt_module_file_function(t.file, find_function(t.file, "lengths"));
  // The call's arguments %a and %b are their last uses: find a call
  // opcode's A list with both move bits set.
  const uint8_t* code = grt_module_file_info(t.file)->bytecode.data + lengths.bytecode_offset;
  bool found = false;
  for (uint32_t i = 0; i + 10 < lengths.bytecode_length; ++i) {
    // call (0x04), callee u32 0, 3 arguments: r0|move, r1|move, i...
    if (code[i] == 0x04 && code[i + 1] == 0 && code[i + 5] == 3 && code[i + 6] == 0) {
      uint16_t first = (uint16_t)(code[i + 7] | code[i + 8] << 8);
      uint16_t second = (uint16_t)(code[i + 9] | code[i + 10] << 8);
      found = (first & GRT_VM_REF_MOVE_BIT) && (second & GRT_VM_REF_MOVE_BIT);
    }
  }
  assert_true(found);
  grt_vm_variant_t arg = grt_vm_variant_i64(12), result;
  GRT_EXPECT_OK(grt_vm_test_call(&t, "lengths", &arg, 1, &result, 1));
  assert_int_equal(result.i64, 24);
  grt_vm_test_module_end(&t);
}

static const char* kChecks =
    "vm.module @checks {\n"
    "  vm.func @eq(%a: i32, %b: i32) {\n"
    "    vm.check.eq %a, %b, \"a == b\" : i32\n"
    "    vm.return\n"
    "  }\n"
    "  vm.export @eq\n"
    "  vm.func @ne(%a: i32, %b: i32) {\n"
    "    vm.check.ne %a, %b : i32\n"
    "    vm.return\n"
    "  }\n"
    "  vm.export @ne\n"
    "  vm.func @nz(%a: i32) {\n"
    "    vm.check.nz %a, \"a != 0\" : i32\n"
    "    vm.return\n"
    "  }\n"
    "  vm.export @nz\n"
    "  vm.func @near(%a: i32, %b: i32) {\n"
    "    %fa = vm.cast.si32.f32 %a : i32 -> f32\n"
    "    %fb = vm.cast.si32.f32 %b : i32 -> f32\n"
    "    %tiny = vm.const.f32 0.00001\n"
    "    %fc = vm.add.f32 %fb, %tiny : f32\n"
    "    vm.check.nearly_eq %fa, %fc, \"close\" : f32\n"
    "    vm.return\n"
    "  }\n"
    "  vm.export @near\n"
    "  vm.func @fails(%code: i32) {\n"
    "    vm.fail %code, \"failed on purpose\"\n"
    "  }\n"
    "  vm.export @fails\n"
    "}\n";

static grt_status_t call_void(grt_vm_test_module_t* t, const char* name, int32_t a,
                              int32_t b, size_t count) {
  grt_vm_variant_t args[2] = {grt_vm_variant_i32(a), grt_vm_variant_i32(b)};
  return grt_vm_test_call(t, name, args, count, NULL, 0);
}

static void test_checks_and_failures(void** state) {
  grt_vm_test_module_t t;
  load_ok(kChecks, &t);
  GRT_EXPECT_OK(call_void(&t, "eq", 3, 3, 2));
  // The failure names the message and where the check was written.
  grt_expect_error(call_void(&t, "eq", 3, 4, 2), GRT_STATUS_FAILED_PRECONDITION,
                      "a == b; at checks.eq@");
  grt_expect_error(call_void(&t, "eq", 3, 4, 2), GRT_STATUS_FAILED_PRECONDITION,
                      "(prog.mlir:3:5)");
  GRT_EXPECT_OK(call_void(&t, "ne", 3, 4, 2));
  grt_expect_error(call_void(&t, "ne", 3, 3, 2), GRT_STATUS_FAILED_PRECONDITION,
                      "vm.check.ne");
  GRT_EXPECT_OK(call_void(&t, "nz", 1, 0, 1));
  grt_expect_error(call_void(&t, "nz", 0, 0, 1), GRT_STATUS_FAILED_PRECONDITION,
                      "a != 0");
  GRT_EXPECT_OK(call_void(&t, "near", 2, 2, 2));
  grt_expect_error(call_void(&t, "near", 2, 3, 2), GRT_STATUS_FAILED_PRECONDITION,
                      "close");
  grt_expect_error(call_void(&t, "fails", GRT_STATUS_ABORTED, 0, 1), GRT_STATUS_ABORTED,
                      "failed on purpose; at checks.fails@");
  grt_vm_test_module_end(&t);
}

// An explicit loc("file":line:col) wins over where the op was written.
static void test_location_in_backtrace(void** state) {
  grt_vm_test_module_t t;
  load_ok(
      "vm.module @m {\n"
      "  vm.func @inner(%a: i32) -> i32 {\n"
      "    %c0 = vm.const.i32 0\n"
      "    %q = vm.div.i32.s %a, %c0 : i32 loc(\"model.py\":42:7)\n"
      "    vm.return %q : i32\n"
      "  }\n"
      "  vm.func @outer(%a: i32) -> i32 {\n"
      "    %r = vm.call @inner(%a) : (i32) -> i32\n"
      "    vm.return %r : i32\n"
      "  }\n"
      "  vm.export @outer\n"
      "}\n",
      &t);
  grt_vm_variant_t arg = grt_vm_variant_i32(1), result;
  grt_status_t status = grt_vm_test_call(&t, "outer", &arg, 1, &result, 1);
  assert_non_null(status);
  const char* message = grt_status_message(status);
  if (!strstr(message, "m.inner@") || !strstr(message, "(model.py:42:7)") ||
      !strstr(message, "(prog.mlir:8:10)")) {
    fail_msg("backtrace lacks locations: %s", message);
  }
  grt_status_free(status);
  grt_vm_test_module_end(&t);
}

static void test_imports_link_and_call(void** state) {
  // An optional import nobody provides links; calling it fails clearly.
  grt_vm_test_module_t t;
  load_ok(
      "vm.module @m {\n"
      "  vm.import private optional @absent.fn(%a : i32, %rest : i32 ...) -> i32\n"
      "  vm.func @go(%a: i32) -> i32 {\n"
      "    %r = vm.call.variadic @absent.fn(%a, [%a, %a]) : (i32, i32 ...) -> i32\n"
      "    vm.return %r : i32\n"
      "  }\n"
      "  vm.export @go\n"
      "  vm.func @linked() -> i32 {\n"
      "    %r = vm.import.resolved @absent.fn : i32\n"
      "    vm.return %r : i32\n"
      "  }\n"
      "  vm.export @linked\n"
      "}\n",
      &t);
  // vm.import.resolved says so before anything calls it.
  assert_int_equal(call_i32(&t, "linked", NULL, 0), 0);
  grt_vm_variant_t arg = grt_vm_variant_i32(1), result;
  grt_expect_error(grt_vm_test_call(&t, "go", &arg, 1, &result, 1), GRT_STATUS_NOT_FOUND,
                      "call to unresolved optional import 'absent.fn'");
  grt_vm_test_module_end(&t);
}

// weigh(scale, [(a, buffer, c)...]) = the sum of scale * a * length + c over
// the groups. Walks the packed arguments as the VM lays them out: the span
// count, then each group's i32, ref and i64 in turn.
static grt_status_t ext_weigh(void* module_data, void* state, const void* args,
                              void* results) {
  (void)module_data;
  (void)state;
  const uint8_t* in = args;
  size_t size = 0;
  int32_t scale, count;
  memcpy(&scale, in + grt_vm_packed_place(&size, GRT_VM_VALUE_TYPE_I32), sizeof(scale));
  memcpy(&count, in + grt_vm_packed_place(&size, GRT_VM_VALUE_TYPE_I32), sizeof(count));
  int64_t total = 0;
  for (int32_t g = 0; g < count; ++g) {
    int32_t a;
    memcpy(&a, in + grt_vm_packed_place(&size, GRT_VM_VALUE_TYPE_I32), sizeof(a));
    const grt_vm_ref_t* ref =
        (const grt_vm_ref_t*)(const void*)(in + grt_vm_packed_place(&size, GRT_VM_VALUE_TYPE_REF));
    grt_vm_buffer_t* buffer = NULL;
    GRT_RETURN_IF_ERROR(grt_vm_buffer_check_deref(ref, &buffer));
    int64_t c;
    memcpy(&c, in + grt_vm_packed_place(&size, GRT_VM_VALUE_TYPE_I64), sizeof(c));
    total += (int64_t)scale * a * (int64_t)grt_vm_buffer_length(buffer) + c;
  }
  memcpy(results, &total, sizeof(total));
  return grt_ok_status();
}

static const grt_vm_native_export_t kExtExports[] = {{"weigh", "0iCirID_I", ext_weigh}};
static const grt_vm_native_module_descriptor_t kExtDescriptor = {"ext", kExtExports, 1,
                                                                 NULL, NULL, NULL};

// A variadic tuple<...> argument is a span of multi-type groups: the import's
// calling convention spells the group, and the call passes (...) groups the
// interpreter lays out group by group.
static void test_tuple_spans(void** state) {
  grt_vm_test_module_t t;
  assemble_ok(
      "vm.module @m {\n"
      "  vm.import private @ext.weigh(%scale : i32,\n"
      "                              %groups : tuple<i32, !vm.buffer, i64> ...) -> i64\n"
      "  vm.func @go(%scale: i32) -> i64 {\n"
      "    %c3 = vm.const.i64 3\n"
      "    %c5 = vm.const.i64 5\n"
      "    %align = vm.const.i32 16\n"
      "    %b3 = vm.buffer.alloc %c3, %align : !vm.buffer\n"
      "    %b5 = vm.buffer.alloc %c5, %align : !vm.buffer\n"
      "    %two = vm.const.i32 2\n"
      "    %seven = vm.const.i32 7\n"
      "    %hundred = vm.const.i64 100\n"
      "    %r = vm.call.variadic @ext.weigh(%scale, [(%two, %b3, %hundred), (%seven, %b5, %c3)])\n"
      "        : (i32, tuple<i32, !vm.ref<!vm.buffer>, i64> ...) -> i64\n"
      "    vm.return %r : i64\n"
      "  }\n"
      "  vm.func @none(%scale: i32) -> i64 {\n"
      "    %r = vm.call.variadic @ext.weigh(%scale, []) : (i32, tuple<i32, !vm.buffer, i64> ...) -> i64\n"
      "    vm.return %r : i64\n"
      "  }\n"
      "  vm.export @go\n"
      "  vm.export @none\n"
      "}\n",
      &t);
  grt_module_import_t import = grt_module_file_import(t.file, 0);
  assert_true(grt_string_view_equal_cstring(import.calling_convention, "0iCirID_I"));
  grt_vm_module_t* ext = NULL;
  GRT_EXPECT_OK(grt_vm_native_module_create(&kExtDescriptor, NULL, t.allocator, &ext));
  GRT_EXPECT_OK(grt_vm_test_module_link(&t, &ext, 1));
  grt_vm_module_release(ext);
  grt_vm_variant_t arg = grt_vm_variant_i32(10), result;
  // 10 * 2 * 3 + 100 + 10 * 7 * 5 + 3
  GRT_EXPECT_OK(grt_vm_test_call(&t, "go", &arg, 1, &result, 1));
  assert_int_equal(result.type, GRT_VM_VALUE_TYPE_I64);
  assert_int_equal(result.i64, 513);
  GRT_EXPECT_OK(grt_vm_test_call(&t, "none", &arg, 1, &result, 1));
  assert_int_equal(result.i64, 0);
  grt_vm_test_module_end(&t);
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

static void test_diagnostics(void** state) {
  static const struct {
    const char* body;  // inside vm.func @f(%a: i32, %x: f32) -> i32 at line 3
    const char* message;
  } cases[] = {
      {"vm.foo %a : i32\n    vm.return %a : i32",
       "prog.mlir:3:5: error: unknown vm op 'vm.foo'"},
      {"vm.block\n    vm.return %a : i32", "prog.mlir:3:5: error: unknown vm op 'vm.block'"},
      {"vm.br ^bb1(%x : f32)\n  ^bb1(%y: i32):\n    vm.return %y : i32",
       "prog.mlir:3:5: error: branch passes %x (f32) to argument 0 (%y) of ^bb1, which is i32"},
      {"vm.br ^bb1\n  ^bb1(%y: i32):\n    vm.return %y : i32",
       "branch passes 0 arguments to ^bb1, which takes 1"},
      {"%r = vm.add.i32 %a, %x : i32\n    vm.return %r : i32",
       "prog.mlir:3:10: error: operand 1 of 'vm.add.i32' (%x) is f32, expected i32"},
      {"vm.return", "'vm.return' returns 0 values, but the function returns 1"},
      {"vm.return %x : f32", "return value 0 of 'vm.return' (%x) is f32, expected i32"},
      {"%r = vm.call @nowhere(%a) : (i32) -> i32\n    vm.return %r : i32",
       "'vm.call' names @nowhere, which is not defined in this vm.module; expected a function"},
      {"%r = vm.call @g(%a, %a) : (i32, i32) -> i32\n    vm.return %r : i32",
       "call to @g passes 2 arguments and takes 1 results, but @g has 1 arguments and 1 results"},
      {"%r = vm.call @g(%x) : (f32) -> i32\n    vm.return %r : i32",
       "argument 0 of 'vm.call' (%x) is f32, expected i32"},
      {"%r = vm.global.load.i32 @g : i32\n    vm.return %r : i32",
       "'vm.global.load.i32' names @g, which is a function; expected a global"},
      {"%r = vm.global.load.i32 @wide : i32\n    vm.return %r : i32",
       "'vm.global.load.i32' cannot access @wide, a i64 global"},
      {"vm.check.nearly_eq %a, %a : i32\n    vm.return %a : i32",
       "'vm.check.nearly_eq' compares f32 or f64 values, found i32"},
      {"%b = vm.cmp.nz.i32 %a : i32\n    %t = vm.trunc.i32.i8 %b : i32 -> i1\n"
       "    vm.return %a : i32",
       "value %t has type i1, which no VM register holds"},
      {"%r = vm.call.variadic @native.v(%a, %a) : (i32, i32) -> i32\n    vm.return %r : i32",
       "argument 1 of the call to @native.v is one value, but @native.v declares it variadic"},
      {"%r = vm.call @native.v(%a, %a) : (i32, i32) -> i32\n    vm.return %r : i32",
       "@native.v is variadic: call it with vm.call.variadic"},
      {"%r = vm.add.i32 %a : i32\n    vm.return %r : i32",
       "'vm.add.i32' needs more than 1 operands"},
      {"%r = vm.import.resolved @g : i32\n    vm.return %r : i32",
       "prog.mlir:3:10: error: 'vm.import.resolved' names @g, which is a function; expected "
       "an import"},
      {"vm.cond_fail %x, \"bad\"\n    vm.return %a : i32",
       "condition of 'vm.cond_fail' (%x) is f32, expected i32"},
      {"%r = vm.call.variadic @native.t(%a, [(%a, %x), (%a, %a)])\n"
       "        : (i32, tuple<i32, f32> ...) -> i32\n    vm.return %r : i32",
       "prog.mlir:3:10: error: value 1 of group 1 of argument 1 of the call to @native.t "
       "(%a) is i32, expected f32"},
      {"%r = vm.call.variadic @native.t(%a, [(%a, %x, %a)])\n"
       "        : (i32, tuple<i32, f32, i32> ...) -> i32\n    vm.return %r : i32",
       "argument 1 of the call to @native.t has type tuple<i32, f32, i32>, but @native.t "
       "declares tuple<i32, f32>"},
      {"vm.optimization_barrier %a : i32\n    vm.return %a : i32",
       "prog.mlir:3:5: error: 'vm.optimization_barrier' returns each of its operands: it has 1 "
       "operands but 0 results"},
      {"util.optimization_barrier %a : i32\n    vm.return %a : i32",
       "'util.optimization_barrier' returns each of its operands: it has 1 operands but 0 "
       "results"},
      {"%r = vm.optimization_barrier %a : f32\n    vm.return %a : i32",
       "prog.mlir:3:10: error: result 0 of 'vm.optimization_barrier' is f32 but operand 0 is "
       "i32"},
      {"%l = vm.list.alloc %a : (i32) -> !vm.list<?>\n"
       "    %r = vm.list.get.ref %l, %a : (!vm.list<?>, i32) -> i32\n    vm.return %r : i32",
       "prog.mlir:4:10: error: 'vm.list.get.ref' returns a ref, found i32"},
      {"%l = vm.list.alloc %a : (i32) -> !vm.list<?>\n"
       "    vm.list.get.ref %l, %a : (!vm.list<?>, i32) -> ()\n    vm.return %a : i32",
       "'vm.list.get.ref' has one result, found 0"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[1024];
    snprintf(source, sizeof(source),
             "vm.module @m {\n"
             "  vm.func @f(%%a: i32, %%x: f32) -> i32 {\n"
             "    %s\n"
             "  }\n"
             "  vm.func @g(%%a: i32) -> i32 {\n"
             "    vm.return %%a : i32\n"
             "  }\n"
             "  vm.global.i64 private @wide : i64\n"
             "  vm.import private @native.v(%%a : i32, %%b : i32 ...) -> i32\n"
             "  vm.import private @native.t(%%a : i32, %%g : tuple<i32, f32> ...) -> i32\n"
             "}\n",
             cases[i].body);
    grt_vm_test_module_t t;
    grt_status_t status = assemble(source, &t);
    if (grt_status_is_ok(status)) fail_msg("case %zu assembled", i);
    const char* message = grt_status_message(status);
    bool ok = strstr(message, cases[i].message) != NULL;
    if (!ok) fail_msg("case %zu: '%s'\nlacks '%s'", i, message, cases[i].message);
    grt_status_free(status);
    grt_vm_test_module_end(&t);
  }
}

static void test_module_diagnostics(void** state) {
  static const struct {
    const char* body;  // inside vm.module @m at line 2
    const char* message;
  } cases[] = {
      {"func.func @f() { func.return }",
       "prog.mlir:2:3: error: unexpected 'func.func' in a vm.module"},
      {"vm.export @missing", "prog.mlir:2:3: error: 'vm.export' names @missing, which is not "
                             "defined in this vm.module; expected a function"},
      {"vm.import private @x.y(%a : i32) -> i32\n  vm.export @x.y",
       "vm.export names @x.y, an import"},
      {"vm.global.i32 @g : i32\n  vm.global.i64 @g : i64",
       "prog.mlir:3:3: error: redefinition of @g (first defined at line 2)"},
      {"vm.global.ref @r = 1 : i32 : !vm.buffer",
       "prog.mlir:2:3: error: ref global @r cannot have an initial value: ref globals start "
       "null; set one with init(@function) or from a vm.initializer"},
      {"vm.global.i32 @g init(@f) = 1 : i32\n  vm.func @f() -> i32 {\n"
       "    %c = vm.const.i32 1\n    vm.return %c : i32\n  }",
       "prog.mlir:2:3: error: global has both an initial value and an initializer"},
      {"vm.global.i32 @g init(@missing) : i32",
       "prog.mlir:2:3: error: 'vm.global.i32' names @missing, which is not defined in this "
       "vm.module; expected a function"},
      {"vm.global.i32 @g init(@f) : i32\n  vm.func @f(%a: i32) -> i64 {\n"
       "    %c = vm.const.i64 1\n    vm.return %c : i64\n  }",
       "prog.mlir:2:3: error: global @g of type i32 is initialized by @f, which must have "
       "type () -> i32 but has type (i32) -> (i64)"},
      {"vm.global.ref @r init(@f) : !vm.buffer\n  vm.func @f() -> !vm.list<i32> {\n"
       "    %n = vm.const.ref.zero : !vm.list<i32>\n    vm.return %n : !vm.list<i32>\n  }",
       "global @r of type !vm.buffer is initialized by @f, which must have type () -> "
       "!vm.buffer but has type () -> (!vm.list<i32>)"},
      {"vm.rodata @d dense<1> : tensor<2xi32> \n  vm.rodata @e {alignment = 3 : i64} "
       "dense<1> : tensor<2xi32>",
       "rodata alignment 3 is not a power of two up to 64"},
      {"vm.func @f(%a: index) { vm.return }",
       "argument 0 of @f has type index, which the VM cannot pass"},
      {"vm.import private @x.y(%a : tuple<i32, f32>) -> i32",
       "argument 0 of @x.y has type tuple<i32, f32>, which the VM cannot pass (expected "
       "i32, i64, f32, f64 or a ref)"},
      {"vm.import private @x.y(%a : tuple<i32, index> ...) -> i32",
       "argument 0 of @x.y has type tuple<i32, index>, which the VM cannot pass (expected "
       "i32, i64, f32, f64 or a ref, or a tuple of them)"},
      {"vm.import private @x.y(%a : tuple<> ...) -> i32",
       "prog.mlir:2:3: error: argument 0 of @x.y is a span of empty tuples"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[512];
    snprintf(source, sizeof(source), "vm.module @m {\n  %s\n}\n", cases[i].body);
    grt_vm_test_module_t t;
    grt_status_t status = assemble(source, &t);
    if (grt_status_is_ok(status)) fail_msg("case %zu assembled", i);
    const char* message = grt_status_message(status);
    if (!strstr(message, cases[i].message)) {
      fail_msg("case %zu: '%s'\nlacks '%s'", i, message, cases[i].message);
    }
    grt_status_free(status);
    grt_vm_test_module_end(&t);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_structure),
      cmocka_unit_test(test_float_ops_set_features),
      cmocka_unit_test(test_registers_are_reused),
      cmocka_unit_test(test_loop_carried_values_coalesce),
      cmocka_unit_test(test_runs_programs),
      cmocka_unit_test(test_refs_move_on_last_use),
      cmocka_unit_test(test_checks_and_failures),
      cmocka_unit_test(test_location_in_backtrace),
      cmocka_unit_test(test_imports_link_and_call),
      cmocka_unit_test(test_tuple_spans),
      cmocka_unit_test(test_diagnostics),
      cmocka_unit_test(test_module_diagnostics),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
