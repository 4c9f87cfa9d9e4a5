// Tests for the vm dialect's pretty forms: IREE-style programs parse with
// the right operands, results, attributes and successors, and bad forms
// report what was expected.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compiler/mlir/printer.h"
#include "compiler/vm_asm/vm_syntax.h"

static const grtc_dialect_syntax_t* const kDialects[] = {&grtc_vm_dialect_syntax};
static const grtc_parse_options_t kOptions = {kDialects, 1};

static grt_status_t parse(const char* source, grtc_module_t** out_module) {
  return grtc_parse_source(grt_make_cstring_view(source), "vm.mlir", &kOptions,
                           grt_allocator_system(), out_module);
}

static grtc_module_t* parse_ok(const char* source) {
  grtc_module_t* module = NULL;
  grt_status_t status = parse(source, &module);
  if (!grt_status_is_ok(status)) fail_msg("%s", grt_status_message(status));
  return module;
}

// The ops of the first function body inside the first vm.module.
static grtc_operation_t* find_op(grtc_module_t* module, const char* name) {
  grtc_operation_t* vm_module = module->body->first;
  for (grtc_operation_t* op = vm_module->regions[0]->first->first; op; op = op->next) {
    if (grtc_operation_is(op, name)) return op;
    for (uint32_t r = 0; r < op->region_count; ++r) {
      for (grtc_block_t* b = op->regions[r]->first; b; b = b->next) {
        for (grtc_operation_t* inner = b->first; inner; inner = inner->next) {
          if (grtc_operation_is(inner, name)) return inner;
        }
      }
    }
  }
  fail_msg("no op %s", name);
  return NULL;
}

static const char* kProgram =
    "vm.module @ops {\n"
    "  vm.global.i32 @c42 42 : i32\n"
    "  vm.global.i32 private mutable @g1 = 123 : i32\n"
    "  vm.global.i64 private @g0 : i64 = 7 : i64\n"
    "  vm.global.f32 mutable @gf : f32\n"
    "  vm.global.ref private mutable @gr : !vm.ref<?>\n"
    "  vm.rodata private @data dense<[1, 2, 3]> : tensor<3xi32>\n"
    "  vm.import private optional @native.fn(%a : i32, %rest : i32 ...) -> i32\n"
    "  vm.export @main as(\"entry\") attributes {emitc.exclude}\n"
    "  vm.initializer {\n"
    "    %c1 = vm.const.i32 1\n"
    "    vm.global.store.i32 %c1, @g1 : i32\n"
    "    vm.return\n"
    "  }\n"
    "  vm.func private @main(%arg0: i32, %buf: !vm.buffer) -> i32 "
    "attributes {noinline} {\n"
    "    %c0 = vm.const.i32.zero\n"
    "    %f = vm.const.f32 1.5\n"
    "    %c2 = vm.const.i64 2 : i64\n"
    "    %sum = vm.add.i32 %arg0, %c0 : i32\n"
    "    %eq = vm.cmp.eq.i32 %sum, %c0 : i32\n"
    "    %nz = vm.cmp.nz.ref %buf : !vm.buffer\n"
    "    %wide = vm.ext.i32.i64.s %sum : i32 -> i64\n"
    "    %v = vm.buffer.load.i32 %buf[%c2] : !vm.buffer -> i32\n"
    "    vm.buffer.store.i32 %v, %buf[%c2] : i32 -> !vm.buffer\n"
    "    %len = vm.buffer.length %buf : !vm.buffer -> i64\n"
    "    %same = vm.buffer.compare %buf, %c2, %buf, %c2, %len : !vm.buffer, !vm.buffer\n"
    "    %list = vm.list.alloc %c0 : (i32) -> !vm.list<i32>\n"
    "    %n = vm.list.size %list : (!vm.list<i32>) -> i32\n"
    "    vm.list.set.i32 %list, %c0, %n : (!vm.list<i32>, i32, i32)\n"
    "    %g = vm.global.load.i32 @c42 : i32\n"
    "    %r = vm.const.ref.rodata @data : !vm.buffer\n"
    "    %null = vm.const.ref.zero : !vm.ref<?>\n"
    "    %has = vm.import.resolved @native.fn : i32\n"
    "    %sel = vm.switch.i32 %arg0[%c0, %g] else %n : i32\n"
    "    %dno = util.do_not_optimize(%sel) : i32\n"
    "    vm.check.eq %sum, %c0, \"sum == 0\" : i32\n"
    "    vm.check.nz %buf : !vm.buffer\n"
    "    vm.cond_fail %eq, \"equal\"\n"
    "    %called:2 = vm.call @pair(%arg0) : (i32) -> (i32, i32)\n"
    "    %var = vm.call.variadic @native.fn(%arg0, [%c0, %g]) : (i32, i32 ...) -> i32\n"
    "    vm.cond_br %eq, ^bb1(%called#1 : i32), ^bb2\n"
    "  ^bb1(%x : i32):\n"
    "    vm.br_table %x {\n"
    "      default: ^bb2,\n"
    "      0: ^bb1(%x : i32),\n"
    "      1: ^bb2\n"
    "    }\n"
    "  ^bb2:\n"
    "    %code = vm.const.i32 4\n"
    "    vm.fail %code, \"unreachable\"\n"
    "  }\n"
    "  vm.func private @pair(%a: i32) -> (i32, i32) {\n"
    "    vm.return %a, %a : i32, i32\n"
    "  }\n"
    "}\n";

static void test_program_structure(void** state) {
  grtc_module_t* module = parse_ok(kProgram);
  grtc_operation_t* op = find_op(module, "vm.global.i32");
  assert_int_equal(grtc_operation_attribute(op, "initial_value")->integer, 42);
  op = find_op(module, "vm.global.i64");
  assert_int_equal(grtc_operation_attribute(op, "initial_value")->integer, 7);
  assert_true(grtc_type_is_integer(grtc_operation_attribute(op, "type")->type, 64));
  op = find_op(module, "vm.global.f32");
  assert_non_null(grtc_operation_attribute(op, "is_mutable"));
  assert_null(grtc_operation_attribute(op, "initial_value"));
  op = find_op(module, "vm.rodata");
  assert_int_equal(grtc_operation_attribute(op, "value")->dense.size, 12);
  op = find_op(module, "vm.import");
  assert_non_null(grtc_operation_attribute(op, "optional"));
  assert_non_null(grtc_operation_attribute(op, "is_variadic"));
  op = find_op(module, "vm.export");
  assert_string_equal(grtc_operation_attribute(op, "export_name")->string.data, "entry");
  assert_non_null(grtc_operation_attribute(op, "emitc.exclude"));

  op = find_op(module, "vm.const.i32.zero");
  assert_true(grtc_type_is_integer(op->results[0].type, 32));
  op = find_op(module, "vm.const.f32");
  assert_true(grtc_type_is_float(op->results[0].type, GRTC_FLOAT_F32));
  assert_true(grtc_operation_attribute(op, "value")->floating == 1.5);
  op = find_op(module, "vm.cmp.nz.ref");
  assert_true(grtc_type_is_integer(op->results[0].type, 32));
  op = find_op(module, "vm.ext.i32.i64.s");
  assert_true(grtc_type_is_integer(op->results[0].type, 64));
  op = find_op(module, "vm.buffer.load.i32");
  assert_int_equal(op->operand_count, 2);
  op = find_op(module, "vm.buffer.store.i32");
  assert_int_equal(op->operand_count, 3);
  assert_int_equal(op->result_count, 0);
  op = find_op(module, "vm.buffer.compare");
  assert_true(grtc_type_is_integer(op->results[0].type, 32));
  op = find_op(module, "vm.list.alloc");
  assert_int_equal(op->results[0].type->kind, GRTC_TYPE_VM_LIST);
  op = find_op(module, "vm.global.load.i32");
  assert_non_null(grtc_operation_attribute(op, "global"));
  op = find_op(module, "vm.const.ref.rodata");
  assert_non_null(grtc_operation_attribute(op, "rodata"));
  op = find_op(module, "vm.switch.i32");
  assert_int_equal(op->operand_count, 4);
  op = find_op(module, "vm.check.eq");
  assert_string_equal(grtc_operation_attribute(op, "message")->string.data, "sum == 0");
  op = find_op(module, "vm.call");
  assert_int_equal(op->result_count, 2);
  op = find_op(module, "vm.call.variadic");
  assert_int_equal(op->operand_count, 3);
  const grtc_attribute_t* sizes = grtc_operation_attribute(op, "segment_sizes");
  int32_t expected_sizes[] = {-1, 2};
  assert_memory_equal(sizes->dense.data, expected_sizes, sizeof(expected_sizes));
  op = find_op(module, "vm.cond_br");
  assert_int_equal(op->successor_count, 2);
  assert_int_equal(op->successors[0].operand_count, 1);
  op = find_op(module, "vm.br_table");
  assert_int_equal(op->successor_count, 3);
  op = find_op(module, "vm.fail");
  assert_int_equal(op->operand_count, 1);
  grtc_module_destroy(module);
}

// A span of tuples takes (...) groups; its segment size counts the groups
// (what the callee receives) while the operands hold every value.
static void test_tuple_span_groups(void** state) {
  grtc_module_t* module = parse_ok(
      "vm.module @m {\n"
      "  vm.import private @native.bind(%n : i32, %g : tuple<i32, !vm.buffer> ...) -> i32\n"
      "  vm.func @f(%a: i32, %buf: !vm.buffer) -> i32 {\n"
      "    %c1 = vm.const.i32 1\n"
      "    %r = vm.call.variadic @native.bind(%a, [(%a, %buf), (%c1, %buf)])\n"
      "        : (i32, tuple<i32, !vm.buffer> ...) -> i32\n"
      "    vm.return %r : i32\n"
      "  }\n"
      "}\n");
  grtc_operation_t* op = find_op(module, "vm.call.variadic");
  assert_int_equal(op->operand_count, 5);
  assert_ptr_equal(op->operands[2], op->operands[4]);
  assert_ptr_equal(op->operands[0], op->operands[1]);
  const grtc_attribute_t* sizes = grtc_operation_attribute(op, "segment_sizes");
  int32_t expected_sizes[] = {-1, 2};
  assert_int_equal(sizes->dense.size, sizeof(expected_sizes));
  assert_memory_equal(sizes->dense.data, expected_sizes, sizeof(expected_sizes));
  const grtc_attribute_t* types = grtc_operation_attribute(op, "segment_types");
  assert_int_equal(types->array.items[1]->type->kind, GRTC_TYPE_TUPLE);
  grtc_module_destroy(module);
}

static void test_round_trips_through_generic_form(void** state) {
  grtc_module_t* module = parse_ok(kProgram);
  char* first = NULL;
  size_t length = 0;
  assert_true(grt_status_consume_ok(
      grtc_print_module(module, 0, grt_allocator_system(), &first, &length)));
  grtc_module_destroy(module);
  module = parse_ok(first);
  char* second = NULL;
  assert_true(grt_status_consume_ok(
      grtc_print_module(module, 0, grt_allocator_system(), &second, &length)));
  assert_string_equal(first, second);
  assert_non_null(strstr(first, "\"vm.add.i32\"(%arg0, %c0) : (i32, i32) -> (i32)"));
  free(first);
  free(second);
  grtc_module_destroy(module);
}

static void test_diagnostics(void** state) {
  static const struct {
    const char* body;
    const char* message;
  } cases[] = {
      {"%x = vm.buffer.alloc %a", "vm.mlir:4:3: error: expected ':' and the result "
       "type of 'vm.buffer.alloc', found '^bb1'"},
      {"%x, %y = vm.add.i32 %a, %a : i32", "'vm.add.i32' binds 2 results but its types give 1"},
      {"vm.check.eq %a, @sym : i32", "expected an operand of 'vm.check.eq' (%value, literal)"},
      {"%x = vm.const.i32 5000000000", "integer value 5000000000 does not fit in type i32"},
      {"vm.br_table %a {\n 0: ^bb1\n }", "expected 'default' as the first table entry"},
      {"vm.br_table %a {\n default: ^bb1,\n 1: ^bb1\n }",
       "branch table case 1 is out of order: expected case 0"},
      {"vm.cond_br %a ^bb1, ^bb1", "expected ',' after the branch condition"},
      {"%r = vm.call.variadic @f([%a]) : (i32) -> i32",
       "argument 0 is a [span] but its type is not variadic"},
      {"%r = vm.call.variadic @f(%a) : (i32, i32) -> i32",
       "callee type lists more arguments than the call passes (1)"},
      {"vm.br ^bb1(%a : f32)", "'%a' has type i32 but is used here as f32"},
      {"%r = vm.call.variadic @f([(%a, %a)]) : (tuple<i32, i32, i32> ...) -> i32",
       "vm.mlir:3:31: error: group 0 of argument 0 has 2 values but tuple<i32, i32, i32> "
       "has 3 elements"},
      {"%r = vm.call.variadic @f([(%a, %a), (%a)]) : (tuple<i32, i32> ...) -> i32",
       "vm.mlir:3:41: error: group 1 of argument 0 has 1 values but tuple<i32, i32> has 2 "
       "elements"},
      {"%r = vm.call.variadic @f([%a]) : (tuple<i32> ...) -> i32",
       "vm.mlir:3:31: error: argument 0 is a span of tuple<i32>: pass each tuple as a (...) "
       "group"},
      {"%r = vm.call.variadic @f([(%a)]) : (i32 ...) -> i32",
       "vm.mlir:3:31: error: argument 0 is a span of i32: pass single values, not (...) "
       "groups"},
      {"%r = vm.call.variadic @f([(%a, %a]) : (i32 ...) -> i32",
       "expected ')' to close a tuple group"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[512];
    snprintf(source, sizeof(source),
             "vm.module @m {\n  vm.func @f(%%a: i32) {\n    %s\n  ^bb1:\n"
             "    vm.return\n  }\n}\n",
             cases[i].body);
    grtc_module_t* module = NULL;
    grt_status_t status = parse(source, &module);
    if (grt_status_is_ok(status)) fail_msg("case %zu parsed", i);
    const char* message = grt_status_message(status);
    if (!strstr(message, cases[i].message) || !strstr(message, "vm.mlir:")) {
      fail_msg("case %zu: '%s'\nlacks '%s'", i, message, cases[i].message);
    }
    grt_status_free(status);
  }
  static const struct {
    const char* decl;
    const char* message;
  } globals[] = {
      {"vm.global.ref @g", "expected ':' and the global's type"},
      {"vm.global.i32 @g = 1 : i32 = 2", "global has two initial values"},
      {"vm.export \"f\"", "expected a symbol name (@name)"},
      {"vm.export @f as(3)", "expected a string"},
  };
  for (size_t i = 0; i < sizeof(globals) / sizeof(globals[0]); ++i) {
    char source[256];
    snprintf(source, sizeof(source), "vm.module @m {\n  %s\n}\n", globals[i].decl);
    grtc_module_t* module = NULL;
    grt_status_t status = parse(source, &module);
    if (grt_status_is_ok(status)) fail_msg("global case %zu parsed", i);
    const char* message = grt_status_message(status);
    if (!strstr(message, globals[i].message)) {
      fail_msg("global case %zu: '%s'\nlacks '%s'", i, message, globals[i].message);
    }
    grt_status_free(status);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_program_structure),
      cmocka_unit_test(test_tuple_span_groups),
      cmocka_unit_test(test_round_trips_through_generic_form),
      cmocka_unit_test(test_diagnostics),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
