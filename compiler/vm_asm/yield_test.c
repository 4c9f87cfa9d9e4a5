// Resumable invocations: vm.yield, vm.call.yieldable and
// vm.call.variadic.yieldable assembled from text and run with
// grt_vm_invoke_begin / grt_vm_invoke_resume (vm/invoke.h).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compiler/vm_asm/assemble_test_support.h"
#include "vm/buffer.h"
#include "vm/disassembler.h"
#include "vm/native_module.h"
#include "vm/signature.h"

// A native module whose imports defer: each call of `later` or `sum`
// returns DEFERRED while deferrals_left > 0 (counting it down), then
// returns x + 100 (`later`) or the sum of its span (`sum`).
typedef struct deferring_t {
  int deferrals_left;
  int calls;
} deferring_t;

// Counts a call; DEFERRED while deferrals are left, else OK.
static grt_status_t deferring_call(deferring_t* d) {
  ++d->calls;
  if (d->deferrals_left == 0) return grt_ok_status();
  --d->deferrals_left;
  return grt_make_status(GRT_STATUS_DEFERRED, "not ready");
}

static grt_status_t native_later(void* module_data, void* state, const void* args,
                                 void* results) {
  GRT_RETURN_IF_ERROR(deferring_call(module_data));
  int32_t x;
  memcpy(&x, args, sizeof(x));
  x += 100;
  memcpy(results, &x, sizeof(x));
  return grt_ok_status();
}

static grt_status_t native_sum(void* module_data, void* state, const void* args,
                               void* results) {
  GRT_RETURN_IF_ERROR(deferring_call(module_data));
  const int32_t* in = args;  // count, then the values
  int32_t total = 0;
  for (int32_t i = 0; i < in[0]; ++i) total += in[1 + i];
  memcpy(results, &total, sizeof(total));
  return grt_ok_status();
}

static const grt_vm_native_export_t kNativeExports[] = {
    {"later", "0i_i", native_later},
    {"sum", "0CiD_i", native_sum},
};
static const grt_vm_native_module_descriptor_t kNativeDescriptor = {
    "native", kNativeExports, 2, NULL, NULL, NULL};

static const char kProgram[] =
    "vm.module @y {\n"
    "  vm.import private @native.later(%x : i32) -> i32 attributes {vm.yield}\n"
    "  vm.import private @native.sum(%x : i32 ...) -> i32 attributes {vm.yield}\n"
    // Yields once per iteration; i and the running sum travel as the loop
    // header's block arguments, n and the constants stay in registers.
    "  vm.export @loop\n"
    "  vm.func @loop(%n : i32) -> i32 {\n"
    "    %c0 = vm.const.i32 0\n"
    "    %c1 = vm.const.i32 1\n"
    "    vm.br ^head(%c0, %c0 : i32, i32)\n"
    "  ^head(%i : i32, %acc : i32):\n"
    "    %done = vm.cmp.gte.i32.s %i, %n : i32\n"
    "    vm.cond_br %done, ^exit(%acc : i32), ^body\n"
    "  ^body:\n"
    "    %i1 = vm.add.i32 %i, %c1 : i32\n"
    "    %acc1 = vm.add.i32 %acc, %i1 : i32\n"
    "    vm.yield ^head(%i1, %acc1 : i32, i32)\n"
    "  ^exit(%r : i32):\n"
    "    vm.return %r : i32\n"
    "  }\n"
    // Yields twice inside an internal callee.
    "  vm.func private @inner(%x : i32) -> i32 {\n"
    "    %c1 = vm.const.i32 1\n"
    "    %y = vm.add.i32 %x, %c1 : i32\n"
    "    vm.yield ^next(%y : i32)\n"
    "  ^next(%z : i32):\n"
    "    %w = vm.add.i32 %z, %c1 : i32\n"
    "    vm.yield ^done\n"
    "  ^done:\n"
    "    vm.return %w : i32\n"
    "  }\n"
    "  vm.export @nested\n"
    "  vm.func @nested(%x : i32) -> i32 {\n"
    "    %c10 = vm.const.i32 10\n"
    "    vm.call.yieldable @inner(%x) : (i32) -> ^back(i32)\n"
    "  ^back(%r : i32):\n"
    "    %s = vm.add.i32 %r, %c10 : i32\n"
    "    vm.return %s : i32\n"
    "  }\n"
    // A plain call of a yielding internal function suspends as well.
    "  vm.export @nested_plain\n"
    "  vm.func @nested_plain(%x : i32) -> i32 {\n"
    "    %r = vm.call @inner(%x) : (i32) -> i32\n"
    "    vm.return %r : i32\n"
    "  }\n"
    "  vm.export @imported\n"
    "  vm.func @imported(%x : i32) -> i32 {\n"
    "    %c1 = vm.const.i32 1\n"
    "    vm.call.yieldable @native.later(%x) : (i32) -> ^got(i32)\n"
    "  ^got(%r : i32):\n"
    "    %s = vm.add.i32 %r, %c1 : i32\n"
    "    vm.return %s : i32\n"
    "  }\n"
    "  vm.export @imported_plain\n"
    "  vm.func @imported_plain(%x : i32) -> i32 {\n"
    "    %r = vm.call @native.later(%x) : (i32) -> i32\n"
    "    vm.return %r : i32\n"
    "  }\n"
    "  vm.export @summed\n"
    "  vm.func @summed(%a : i32, %b : i32) -> i32 {\n"
    "    vm.call.variadic.yieldable @native.sum([%a, %b, %a]) : (i32 ...) -> ^got(i32)\n"
    "  ^got(%r : i32):\n"
    "    vm.return %r : i32\n"
    "  }\n"
    // A ref held across a suspension.
    "  vm.export @keep\n"
    "  vm.func @keep(%b : !vm.buffer) -> (!vm.buffer, i64) {\n"
    "    vm.yield ^next\n"
    "  ^next:\n"
    "    %n = vm.buffer.length %b : !vm.buffer -> i64\n"
    "    vm.return %b, %n : !vm.buffer, i64\n"
    "  }\n"
    "  vm.export @yield_then_fail\n"
    "  vm.func @yield_then_fail(%x : i32) -> i32 {\n"
    "    vm.yield ^next\n"
    "  ^next:\n"
    "    %c9 = vm.const.i32 9\n"
    "    vm.fail %c9, \"gave up after resuming\"\n"
    "  }\n"
    "}\n";

typedef struct fixture_t {
  grt_vm_test_module_t t;
  grt_vm_module_t* native;
  deferring_t deferring;
  grt_vm_list_t* inputs;
  grt_vm_list_t* outputs;
} fixture_t;

static int setup(void** state) {
  fixture_t* f = calloc(1, sizeof(*f));
  assert_non_null(f);
  GRT_EXPECT_OK(assemble(kProgram, &f->t));
  GRT_EXPECT_OK(grt_vm_native_module_create(&kNativeDescriptor, &f->deferring,
                                            f->t.allocator, &f->native));
  GRT_EXPECT_OK(grt_vm_test_module_link(&f->t, &f->native, 1));
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), 4, f->t.allocator,
                                   &f->inputs));
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), 4, f->t.allocator,
                                   &f->outputs));
  *state = f;
  return 0;
}

static int teardown(void** state) {
  fixture_t* f = *state;
  grt_vm_list_release(f->inputs);
  grt_vm_list_release(f->outputs);
  grt_vm_test_module_end(&f->t);
  grt_vm_module_release(f->native);
  free(f);
  return 0;
}

static grt_vm_function_t lookup(fixture_t* f, const char* name) {
  grt_vm_function_t function;
  GRT_EXPECT_OK(grt_vm_module_lookup_function(f->t.module, grt_make_cstring_view(name),
                                              &function));
  return function;
}

static void set_i32_inputs(fixture_t* f, const int32_t* values, size_t count) {
  GRT_EXPECT_OK(grt_vm_list_resize(f->inputs, 0));
  for (size_t i = 0; i < count; ++i) {
    grt_vm_variant_t v = grt_vm_variant_i32(values[i]);
    GRT_EXPECT_OK(grt_vm_list_push_variant(f->inputs, &v));
  }
  GRT_EXPECT_OK(grt_vm_list_resize(f->outputs, 0));
}

static int32_t output_i32(fixture_t* f, size_t index) {
  grt_vm_variant_t v = grt_vm_variant_empty();
  GRT_EXPECT_OK(grt_vm_list_get_variant_assign(f->outputs, index, &v));
  assert_int_equal(v.type, GRT_VM_VALUE_TYPE_I32);
  return v.i32;
}

static void expect_deferred(grt_status_t status) {
  assert_int_equal(grt_status_code(status), GRT_STATUS_DEFERRED);
  grt_status_free(status);
}

// Runs |name| to the end with begin + resume, checking it suspends exactly
// |suspends| times; returns its i32 result.
static int32_t run_counting(fixture_t* f, const char* name, const int32_t* args,
                            size_t arg_count, uint64_t suspends) {
  set_i32_inputs(f, args, arg_count);
  grt_vm_function_t function = lookup(f, name);
  grt_vm_invocation_t* invocation = NULL;
  grt_status_t status = grt_vm_invoke_begin(f->t.context, &function, f->inputs,
                                            f->outputs, f->t.allocator, &invocation);
  assert_non_null(invocation);
  uint64_t seen = 0;
  while (grt_status_code(status) == GRT_STATUS_DEFERRED) {
    grt_status_free(status);
    ++seen;
    assert_true(grt_vm_invocation_is_suspended(invocation));
    assert_int_equal(grt_vm_list_size(f->outputs), 0);
    status = grt_vm_invoke_resume(invocation, f->outputs);
  }
  GRT_EXPECT_OK(status);
  assert_false(grt_vm_invocation_is_suspended(invocation));
  assert_int_equal(seen, suspends);
  assert_int_equal(grt_vm_invocation_suspend_count(invocation), suspends);
  grt_vm_invocation_destroy(invocation);
  assert_int_equal(grt_vm_list_size(f->outputs), 1);
  return output_i32(f, 0);
}

static void test_yield_in_loop(void** state) {
  fixture_t* f = *state;
  for (int32_t n = 0; n < 6; ++n) {
    // One suspension per iteration; the result is 1 + 2 + ... + n.
    assert_int_equal(run_counting(f, "loop", &n, 1, (uint64_t)n), n * (n + 1) / 2);
  }
}

static void test_yield_in_nested_call(void** state) {
  fixture_t* f = *state;
  int32_t x = 5;
  assert_int_equal(run_counting(f, "nested", &x, 1, 2), 5 + 2 + 10);
  assert_int_equal(run_counting(f, "nested_plain", &x, 1, 2), 5 + 2);
}

static void test_yieldable_import_defers_twice(void** state) {
  fixture_t* f = *state;
  f->deferring = (deferring_t){2, 0};
  int32_t x = 7;
  assert_int_equal(run_counting(f, "imported", &x, 1, 2), 7 + 100 + 1);
  // Called once per slice: twice deferred, then done.
  assert_int_equal(f->deferring.calls, 3);
  // An import that does not defer runs straight through.
  f->deferring = (deferring_t){0, 0};
  assert_int_equal(run_counting(f, "imported", &x, 1, 0), 7 + 100 + 1);
  assert_int_equal(f->deferring.calls, 1);
}

static void test_variadic_yieldable_import(void** state) {
  fixture_t* f = *state;
  f->deferring = (deferring_t){1, 0};
  int32_t args[] = {3, 4};
  assert_int_equal(run_counting(f, "summed", args, 2, 1), 3 + 4 + 3);
  assert_int_equal(f->deferring.calls, 2);
}

static void test_to_completion(void** state) {
  fixture_t* f = *state;
  int32_t n = 4;
  set_i32_inputs(f, &n, 1);
  grt_vm_function_t function = lookup(f, "loop");
  uint64_t suspends = 0;
  GRT_EXPECT_OK(grt_vm_invoke_to_completion(f->t.context, &function, f->inputs,
                                            f->outputs, f->t.allocator, &suspends));
  assert_int_equal(suspends, 4);
  assert_int_equal(output_i32(f, 0), 10);
}

static void test_plain_invoke_refuses_to_suspend(void** state) {
  fixture_t* f = *state;
  int32_t n = 3;
  set_i32_inputs(f, &n, 1);
  grt_vm_function_t function = lookup(f, "loop");
  grt_expect_error(grt_vm_invoke(f->t.context, &function, f->inputs, f->outputs,
                                 f->t.allocator),
                   GRT_STATUS_FAILED_PRECONDITION,
                   "vm.yield in a call that cannot be suspended");
  // ...but a function that does not reach a yield runs as before.
  n = 0;
  set_i32_inputs(f, &n, 1);
  GRT_EXPECT_OK(grt_vm_invoke(f->t.context, &function, f->inputs, f->outputs,
                              f->t.allocator));
  assert_int_equal(output_i32(f, 0), 0);
  // A yieldable import that defers cannot suspend a plain invocation either.
  f->deferring = (deferring_t){1, 0};
  int32_t x = 1;
  set_i32_inputs(f, &x, 1);
  function = lookup(f, "imported");
  grt_expect_error(grt_vm_invoke(f->t.context, &function, f->inputs, f->outputs,
                                 f->t.allocator),
                   GRT_STATUS_FAILED_PRECONDITION,
                   "a yieldable import deferred in a call that cannot be suspended");
}

static void test_plain_import_call_cannot_defer(void** state) {
  fixture_t* f = *state;
  f->deferring = (deferring_t){1, 0};
  int32_t x = 1;
  set_i32_inputs(f, &x, 1);
  grt_vm_function_t function = lookup(f, "imported_plain");
  grt_vm_invocation_t* invocation = NULL;
  grt_expect_error(grt_vm_invoke_begin(f->t.context, &function, f->inputs, f->outputs,
                                       f->t.allocator, &invocation),
                   GRT_STATUS_FAILED_PRECONDITION,
                   "import 'native.later' deferred (returned DEFERRED) from a call that is "
                   "not yieldable; call it with vm.call.yieldable");
  assert_false(grt_vm_invocation_is_suspended(invocation));
  grt_vm_invocation_destroy(invocation);
}

static void test_resume_errors(void** state) {
  fixture_t* f = *state;
  int32_t n = 1;
  set_i32_inputs(f, &n, 1);
  grt_vm_function_t function = lookup(f, "loop");
  grt_vm_invocation_t* invocation = NULL;
  expect_deferred(grt_vm_invoke_begin(f->t.context, &function, f->inputs, f->outputs,
                                      f->t.allocator, &invocation));
  grt_expect_error(grt_vm_invoke_resume(invocation, NULL), GRT_STATUS_INVALID_ARGUMENT,
                   "loop: returns 1 values but no output list was given");
  GRT_EXPECT_OK(grt_vm_invoke_resume(invocation, f->outputs));
  assert_int_equal(output_i32(f, 0), 1);
  grt_expect_error(grt_vm_invoke_resume(invocation, f->outputs),
                   GRT_STATUS_FAILED_PRECONDITION,
                   "invocation of 'y.loop' has already returned; only a suspended "
                   "invocation can be resumed");
  grt_vm_invocation_destroy(invocation);

  // A failure after a resume ends the invocation with a backtrace.
  set_i32_inputs(f, &n, 1);
  function = lookup(f, "yield_then_fail");
  expect_deferred(grt_vm_invoke_begin(f->t.context, &function, f->inputs, f->outputs,
                                      f->t.allocator, &invocation));
  grt_status_t status = grt_vm_invoke_resume(invocation, f->outputs);
  assert_int_equal(grt_status_code(status), GRT_STATUS_FAILED_PRECONDITION);
  assert_non_null(strstr(grt_status_message(status), "gave up after resuming"));
  assert_non_null(strstr(grt_status_message(status), "at y.yield_then_fail@0x"));
  assert_non_null(strstr(grt_status_message(status), "in invocation of 'y.yield_then_fail'"));
  grt_status_free(status);
  grt_expect_error(grt_vm_invoke_resume(invocation, f->outputs),
                   GRT_STATUS_FAILED_PRECONDITION,
                   "invocation of 'y.yield_then_fail' has already failed");
  grt_vm_invocation_destroy(invocation);

  // Arguments are checked before anything runs: no invocation.
  set_i32_inputs(f, NULL, 0);
  grt_expect_error(grt_vm_invoke_begin(f->t.context, &function, f->inputs, f->outputs,
                                       f->t.allocator, &invocation),
                   GRT_STATUS_INVALID_ARGUMENT, "yield_then_fail: argument 0 (i32) is "
                                                "missing: 0 given");
  assert_null(invocation);
  grt_vm_invocation_destroy(NULL);
}

static void test_refs_survive_suspension(void** state) {
  fixture_t* f = *state;
  grt_vm_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_create(GRT_VM_BUFFER_ACCESS_MUTABLE, 24, 16, f->t.allocator,
                                     &buffer));
  grt_vm_ref_type_t type = grt_vm_buffer_type();
  grt_vm_function_t function = lookup(f, "keep");
  for (int abandon = 0; abandon < 2; ++abandon) {
    GRT_EXPECT_OK(grt_vm_list_resize(f->inputs, 0));
    GRT_EXPECT_OK(grt_vm_list_resize(f->outputs, 0));
    grt_vm_ref_t ref = grt_vm_ref_wrap_retain(buffer, type);
    grt_vm_variant_t input = grt_vm_variant_ref_move(&ref);
    GRT_EXPECT_OK(grt_vm_list_push_variant(f->inputs, &input));
    grt_vm_variant_reset(&input);
    grt_vm_invocation_t* invocation = NULL;
    expect_deferred(grt_vm_invoke_begin(f->t.context, &function, f->inputs, f->outputs,
                                        f->t.allocator, &invocation));
    // Ours, the input list's, the packed arguments' and the frame's.
    assert_int_equal(grt_vm_ref_object_count(buffer, type), 4);
    GRT_EXPECT_OK(grt_vm_list_resize(f->inputs, 0));
    assert_int_equal(grt_vm_ref_object_count(buffer, type), 3);
    if (abandon) {
      // Destroying a suspended invocation releases what its frames held.
      grt_vm_invocation_destroy(invocation);
      assert_int_equal(grt_vm_ref_object_count(buffer, type), 1);
      continue;
    }
    GRT_EXPECT_OK(grt_vm_invoke_resume(invocation, f->outputs));
    grt_vm_invocation_destroy(invocation);
    grt_vm_variant_t v = grt_vm_variant_empty();
    GRT_EXPECT_OK(grt_vm_list_get_variant_assign(f->outputs, 0, &v));
    assert_ptr_equal(v.ref.ptr, buffer);
    grt_vm_variant_reset(&v);
    GRT_EXPECT_OK(grt_vm_list_get_variant_assign(f->outputs, 1, &v));
    assert_int_equal(v.i64, 24);
    GRT_EXPECT_OK(grt_vm_list_resize(f->outputs, 0));
    assert_int_equal(grt_vm_ref_object_count(buffer, type), 1);
  }
  grt_vm_buffer_release(buffer);
}

// The three ops disassemble with their operands and successors.
static void test_disassembly(void** state) {
  fixture_t* f = *state;
  grt_vm_string_builder_t text;
  grt_vm_string_builder_initialize(f->t.allocator, &text);
  grt_const_byte_span_t all = grt_module_file_info(f->t.file)->bytecode;
  for (uint32_t i = 0; i < grt_module_file_info(f->t.file)->function_count; ++i) {
    grt_module_function_t function = grt_module_file_function(f->t.file, i);
    grt_vm_disassembly_names_t names;
    grt_vm_disassembly_names_for_module_file(f->t.file, i, &names);
    GRT_EXPECT_OK(grt_vm_disassemble_function(
        grt_make_const_byte_span(all.data + function.bytecode_offset,
                                 function.bytecode_length),
        &names, grt_vm_string_builder_sink(&text)));
  }
  const char* printed = grt_vm_string_builder_cstring(&text);
  if (!strstr(printed, "  yield ^0x") || !strstr(printed, " = call.yieldable @inner(%i0) -> ^0x") ||
      !strstr(printed, " = call.variadic.yieldable @native.sum<3>(")) {
    fail_msg("unexpected disassembly:\n%s", printed);
  }
  grt_vm_string_builder_deinitialize(&text);
}

// The assembler's and the parser's messages for the yieldable calls.
static void test_diagnostics(void** state) {
  (void)state;
  static const struct {
    const char* body;  // inside vm.func @f(%a : i32) -> i32
    const char* message;
  } cases[] = {
      {"vm.call.yieldable @g(%a) : (i32) -> ^b(i32, i32)\n  ^b(%r : i32, %s : i32):\n"
       "    vm.return %r : i32",
       "@g returns 1 values but ^b takes 2 arguments"},
      {"vm.call.yieldable @g(%a) : (i32) -> ^b(f32)\n  ^b(%r : f32):\n"
       "    vm.return %a : i32",
       "result 0 of @g is i32 but argument 0 (%r) of ^b is f32"},
      {"vm.call.yieldable @g(%a, %a) : (i32, i32) -> ^b(i32)\n  ^b(%r : i32):\n"
       "    vm.return %r : i32",
       "prog.mlir:7:5: error: call to @g passes 2 arguments, but @g has 1 arguments"},
      {"vm.call.yieldable @g(%a) : (i32, i32) -> ^b(i32)\n  ^b(%r : i32):\n"
       "    vm.return %r : i32",
       "call passes 1 arguments but the callee type lists 2"},
      {"vm.call.yieldable @g(%a) : (i32) -> %a\n    vm.return %a : i32",
       "expected a block label (^name)"},
      {"vm.call.yieldable @v.sum(%a) : (i32) -> ^b(i32)\n  ^b(%r : i32):\n"
       "    vm.return %r : i32",
       "@v.sum is variadic: call it with vm.call.variadic.yieldable"},
      {"%z = \"vm.call.yieldable\"(%a) {callee = @g} : (i32) -> i32\n"
       "    vm.return %a : i32",
       "'vm.call.yieldable' has no results and one successor without operands"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[1024];
    snprintf(source, sizeof(source),
             "vm.module @m {\n"
             "  vm.import private @v.sum(%%x : i32 ...) -> i32\n"
             "  vm.func private @g(%%x : i32) -> i32 {\n"
             "    vm.return %%x : i32\n"
             "  }\n"
             "  vm.func @f(%%a : i32) -> i32 {\n"
             "    %s\n"
             "  }\n"
             "}\n",
             cases[i].body);
    grt_vm_test_module_t t;
    grt_status_t status = assemble(source, &t);
    if (!status || !strstr(grt_status_message(status), cases[i].message)) {
      fail_msg("case %zu: expected '%s', got '%s'", i, cases[i].message,
               status ? grt_status_message(status) : "OK");
    }
    grt_status_free(status);
    grt_vm_test_module_end(&t);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_yield_in_loop, setup, teardown),
      cmocka_unit_test_setup_teardown(test_yield_in_nested_call, setup, teardown),
      cmocka_unit_test_setup_teardown(test_yieldable_import_defers_twice, setup, teardown),
      cmocka_unit_test_setup_teardown(test_variadic_yieldable_import, setup, teardown),
      cmocka_unit_test_setup_teardown(test_to_completion, setup, teardown),
      cmocka_unit_test_setup_teardown(test_plain_invoke_refuses_to_suspend, setup, teardown),
      cmocka_unit_test_setup_teardown(test_plain_import_call_cannot_defer, setup, teardown),
      cmocka_unit_test_setup_teardown(test_resume_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(test_refs_survive_suspension, setup, teardown),
      cmocka_unit_test_setup_teardown(test_disassembly, setup, teardown),
      cmocka_unit_test(test_diagnostics),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
