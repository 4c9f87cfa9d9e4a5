// The builder, the printer and the parser tied together: programs built
// with builder.h assemble to the same module file bytes directly and after
// printing (vm_printer.h) and parsing the text back (vm_syntax.h); the
// built programs run in the VM; builder misuse is a clear error.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compiler/mlir/parser.h"
#include "compiler/vm_asm/assembler.h"
#include "compiler/vm_asm/builder.h"
#include "compiler/vm_asm/vm_printer.h"
#include "compiler/vm_asm/vm_syntax.h"
#include "vm/test_support.h"

static const grtc_dialect_syntax_t* const kDialects[] = {&grtc_vm_dialect_syntax};
static const grtc_parse_options_t kOptions = {kDialects, 1};

// Assembles |vm_module| into a finished module file (*out_data, freed by
// the caller).
static void assemble(grtc_operation_t* vm_module, void** out_data, size_t* out_size) {
  grt_module_writer_t* writer = NULL;
  GRT_EXPECT_OK(grt_module_writer_create(grt_allocator_system(), &writer));
  GRT_EXPECT_OK(grtc_vm_assemble(vm_module, "built.mlir", grt_allocator_system(), writer));
  GRT_EXPECT_OK(grt_module_writer_finish(writer, out_data, out_size));
  grt_module_writer_destroy(writer);
}

// Prints |b|'s module, checks the text parses back, and that both forms
// assemble to the same bytes. Returns the file (built form).
static void round_trip(grtc_vm_builder_t* b, void** out_data, size_t* out_size) {
  GRT_EXPECT_OK(grtc_vm_builder_status(b));
  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  GRT_EXPECT_OK(grtc_vm_print_module(grtc_vm_builder_vm_module(b), grt_allocator_system(), &text));
  grtc_module_t* parsed = NULL;
  grt_status_t status = grtc_parse_source(grt_string_builder_view(&text), "printed.mlir",
                                          &kOptions, grt_allocator_system(), &parsed);
  if (!grt_status_is_ok(status)) fprintf(stderr, "%s\n", grt_string_builder_cstring(&text));
  GRT_EXPECT_OK(status);
  void* direct = NULL;
  size_t direct_size = 0;
  assemble(grtc_vm_builder_vm_module(b), &direct, &direct_size);
  void* reparsed = NULL;
  size_t reparsed_size = 0;
  assemble(grtc_vm_find_module(parsed), &reparsed, &reparsed_size);
  if (direct_size != reparsed_size || memcmp(direct, reparsed, direct_size) != 0) {
    fprintf(stderr, "%s\n", grt_string_builder_cstring(&text));
    fail_msg("the built module and its printed text assemble differently (%zu vs %zu bytes)",
             direct_size, reparsed_size);
  }
  // Printing the parsed module gives the same text again.
  grt_string_builder_t again;
  grt_string_builder_init(grt_allocator_system(), &again);
  GRT_EXPECT_OK(grtc_vm_print_module(grtc_vm_find_module(parsed), grt_allocator_system(), &again));
  assert_string_equal(grt_string_builder_cstring(&again), grt_string_builder_cstring(&text));
  grt_string_builder_deinit(&again);
  grt_allocator_free(grt_allocator_system(), reparsed);
  grtc_module_destroy(parsed);
  grt_string_builder_deinit(&text);
  *out_data = direct;
  *out_size = direct_size;
}

// calc(a: i64, b: i64) -> i64, accumulating into a global:
//   a < b: b - a;  else by (i32)a: 0 -> 1000, 1 -> b, default a
//   acc += that; return acc
// arith(a: i32, b: i32) -> i32 = max_s((a + b) * 3 - a / b, a % b) ^ 1
static grtc_vm_builder_t* build_calc(void) {
  grtc_vm_builder_t* b = NULL;
  GRT_EXPECT_OK(grtc_vm_builder_create("calc", "calc.src", grt_allocator_system(), &b));
  const grtc_type_t* i64 = grtc_vm_type_i64(b);
  const grtc_type_t* i32 = grtc_vm_type_i32(b);
  grtc_operation_t* acc = grtc_vm_builder_global(b, grt_make_cstring_view("acc"), i64, true);

  const grtc_type_t* pair[2] = {i64, i64};
  grtc_block_t* entry = NULL;
  grtc_operation_t* calc =
      grtc_vm_builder_func(b, grt_make_cstring_view("calc"), false, pair, 2, &i64, 1, &entry);
  grtc_vm_builder_set_insertion_end(b, entry);
  grtc_vm_builder_set_location(b, grt_make_cstring_view("calc.src"), 3, 7);
  grtc_value_t* a = &entry->args[0];
  grtc_value_t* c = &entry->args[1];
  grtc_vm_builder_name(b, a, "a");
  grtc_vm_builder_name(b, c, "b");
  grtc_block_t* less = grtc_vm_builder_block(b, pair, 2);
  grtc_block_t* other = grtc_vm_builder_block(b, pair, 2);
  grtc_block_t* thousand = grtc_vm_builder_block(b, NULL, 0);
  grtc_block_t* join = grtc_vm_builder_block(b, &i64, 1);
  grtc_value_t* args[2] = {a, c};
  grtc_vm_cond_br(b, grtc_vm_compare(b, GRTC_VM_CMP_LT_S, a, c), less, args, 2, other, args, 2);
  grtc_vm_builder_append_block(b, calc, less);
  grtc_value_t* difference = grtc_vm_binary(b, GRTC_VM_SUB, &less->args[1], &less->args[0]);
  grtc_vm_br(b, join, &difference, 1);
  grtc_vm_builder_append_block(b, calc, other);
  grtc_vm_builder_set_location(b, grt_make_cstring_view("calc.src"), 4, 1);
  grtc_value_t* index = grtc_vm_trunc_i64_i32(b, &other->args[0]);
  grtc_successor_t fallback = {join, 1, (grtc_value_t*[]){&other->args[0]}};
  grtc_successor_t cases[2] = {{thousand, 0, NULL}, {join, 1, (grtc_value_t*[]){&other->args[1]}}};
  grtc_vm_br_table(b, index, &fallback, cases, 2);
  grtc_vm_builder_append_block(b, calc, thousand);
  grtc_value_t* k = grtc_vm_const_i64(b, 1000);
  grtc_vm_br(b, join, &k, 1);
  grtc_vm_builder_append_block(b, calc, join);
  grtc_value_t* sum = grtc_vm_binary(b, GRTC_VM_ADD, grtc_vm_global_load(b, acc), &join->args[0]);
  grtc_vm_global_store(b, sum, acc);
  grtc_vm_check_nz(b, grtc_vm_cmp_nz(b, grtc_vm_const_i32(b, 1)), "one is not zero");
  grtc_vm_return(b, &sum, 1);
  grtc_vm_builder_export(b, calc, NULL);

  const grtc_type_t* ints[2] = {i32, i32};
  grtc_operation_t* arith =
      grtc_vm_builder_func(b, grt_make_cstring_view("arith"), true, ints, 2, &i32, 1, &entry);
  grtc_vm_builder_set_insertion_end(b, entry);
  grtc_vm_builder_clear_location(b);
  grtc_value_t* x = &entry->args[0];
  grtc_value_t* y = &entry->args[1];
  grtc_value_t* scaled =
      grtc_vm_binary(b, GRTC_VM_MUL, grtc_vm_binary(b, GRTC_VM_ADD, x, y), grtc_vm_const_i32(b, 3));
  grtc_value_t* left = grtc_vm_binary(b, GRTC_VM_SUB, scaled, grtc_vm_binary(b, GRTC_VM_DIV_S, x, y));
  grtc_value_t* best = grtc_vm_binary(b, GRTC_VM_MAX_S, left, grtc_vm_binary(b, GRTC_VM_REM_S, x, y));
  grtc_value_t* result = grtc_vm_binary(b, GRTC_VM_XOR, best, grtc_vm_const_i32(b, 1));
  grtc_vm_check(b, GRTC_VM_CHECK_EQ, result, result, "equal to itself");
  grtc_vm_return(b, &result, 1);
  grtc_vm_builder_export(b, arith, "arith_renamed");
  // A wrapper whose i64 result goes through select and ext.
  grtc_operation_t* pick =
      grtc_vm_builder_func(b, grt_make_cstring_view("pick"), false, ints, 2, &i64, 1, &entry);
  grtc_vm_builder_set_insertion_end(b, entry);
  grtc_operation_t* call = grtc_vm_call(b, grt_make_cstring_view("arith"),
                                        (grtc_value_t*[]){&entry->args[0], &entry->args[1]}, 2,
                                        &i32, 1);
  grtc_value_t* chosen = grtc_vm_select(b, &entry->args[0], &call->results[0], grtc_vm_const_zero(b, i32));
  grtc_value_t* wide = grtc_vm_ext_i32_i64(b, chosen, true);
  grtc_vm_return(b, &wide, 1);
  grtc_vm_builder_export(b, pick, NULL);
  return b;
}

static int32_t arith(int32_t a, int32_t b) {
  int32_t left = (a + b) * 3 - a / b;
  int32_t rem = a % b;
  return (left > rem ? left : rem) ^ 1;
}

static void test_calc_round_trip_and_run(void** state) {
  (void)state;
  grtc_vm_builder_t* b = build_calc();
  grt_vm_test_module_t t;
  memset(&t, 0, sizeof(t));
  t.allocator = grt_allocator_system();
  round_trip(b, &t.file_data, &t.file_size);
  grtc_vm_builder_destroy(b);
  GRT_EXPECT_OK(grt_module_file_open_memory(grt_make_const_byte_span(t.file_data, t.file_size),
                                            t.allocator, &t.file));
  GRT_EXPECT_OK(grt_vm_test_module_link(&t, NULL, 0));
  const struct {
    int64_t a, b, acc;
  } calls[] = {{1, 5, 4}, {0, -1, 1004}, {7, 2, 1011}, {1, 0, 1011}};
  for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); ++i) {
    grt_vm_variant_t args[2] = {grt_vm_variant_i64(calls[i].a), grt_vm_variant_i64(calls[i].b)};
    grt_vm_variant_t result;
    GRT_EXPECT_OK(grt_vm_test_call(&t, "calc", args, 2, &result, 1));
    assert_int_equal(result.type, GRT_VM_VALUE_TYPE_I64);
    assert_int_equal(result.i64, calls[i].acc);
  }
  const int32_t pairs[][2] = {{7, 2}, {-9, 4}, {0, 5}, {100, -3}};
  for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); ++i) {
    grt_vm_variant_t args[2] = {grt_vm_variant_i32(pairs[i][0]), grt_vm_variant_i32(pairs[i][1])};
    grt_vm_variant_t result;
    GRT_EXPECT_OK(grt_vm_test_call(&t, "arith_renamed", args, 2, &result, 1));
    assert_int_equal(result.i32, arith(pairs[i][0], pairs[i][1]));
    GRT_EXPECT_OK(grt_vm_test_call(&t, "pick", args, 2, &result, 1));
    assert_int_equal(result.i64, pairs[i][0] ? arith(pairs[i][0], pairs[i][1]) : 0);
  }
  grt_vm_test_module_end(&t);
}

// Module-level ops, imports with spans of values and of tuples, rodata,
// an initializer, refs, floats and names that need quoting.
static void test_module_round_trip(void** state) {
  (void)state;
  grtc_vm_builder_t* b = NULL;
  GRT_EXPECT_OK(grtc_vm_builder_create("full", "full.src", grt_allocator_system(), &b));
  const grtc_type_t* i32 = grtc_vm_type_i32(b);
  const grtc_type_t* i64 = grtc_vm_type_i64(b);
  const grtc_type_t* f32 = grtc_vm_type_f32(b);
  const grtc_type_t* buffer = grtc_vm_type_ref(b, "!hal.buffer");
  const grtc_type_t* bytes = grtc_vm_type_ref(b, "!vm.buffer");
  assert_ptr_equal(buffer, grtc_vm_type_ref(b, "!hal.buffer"));
  const grtc_type_t* tuple = grtc_vm_type_tuple(b, (const grtc_type_t*[]){i32, buffer, i64}, 3);
  grtc_operation_t* use = grtc_vm_builder_import(
      b, "ext.use", (const grtc_type_t*[]){buffer, f32, i64, tuple}, (const bool[]){0, 0, 1, 1},
      4, &i32, 1);
  grtc_operation_t* make =
      grtc_vm_builder_import(b, "ext.make", (const grtc_type_t*[]){bytes}, NULL, 1, &buffer, 1);
  grtc_operation_t* held = grtc_vm_builder_global(b, grt_make_cstring_view("held"), buffer, true);
  grtc_operation_t* count = grtc_vm_builder_global(b, grt_make_cstring_view("count"), i32, false);
  static const uint8_t blob[5] = {0, 1, 0xAB, 0xFF, 7};
  grtc_vm_builder_rodata_bytes(b, grt_make_cstring_view("blob"), blob, sizeof(blob), 64, false);
  grtc_vm_builder_rodata_bytes(b, grt_make_cstring_view("empty"), NULL, 0, 0, false);
  grtc_vm_builder_rodata_string(b, grt_make_cstring_view("text"),
                                grt_make_cstring_view("a \"quoted\"\nline"));
  grtc_block_t* entry = NULL;
  grtc_operation_t* init = grtc_vm_builder_initializer(b, &entry);
  assert_non_null(init);
  grtc_vm_builder_set_insertion_end(b, entry);
  grtc_value_t* data = grtc_vm_const_rodata(b, grt_make_cstring_view("blob"));
  grtc_operation_t* made = grtc_vm_call_import(b, make, (grtc_vm_arg_t[]){grtc_vm_arg(data)}, 1);
  grtc_vm_global_store(b, &made->results[0], held);
  grtc_vm_return(b, NULL, 0);

  grtc_operation_t* f = grtc_vm_builder_func(b, grt_make_cstring_view("odd name-1"), false,
                                             NULL, 0, &i32, 1, &entry);
  grtc_vm_builder_set_insertion_end(b, entry);
  grtc_vm_builder_set_location(b, grt_make_cstring_view("dir/\"file\".src"), 12, 34);
  grtc_value_t* ref = grtc_vm_global_load(b, held);
  grtc_vm_builder_name(b, ref, "held");
  grtc_value_t* one = grtc_vm_const_i64(b, 1);
  grtc_vm_builder_name(b, one, "held");  // taken: prints as %held_1
  grtc_value_t* items[6] = {grtc_vm_const_i32(b, -7), ref, one, grtc_vm_const_i32(b, 0), ref,
                            grtc_vm_const_i64(b, INT64_MIN)};
  grtc_vm_arg_t args[4] = {grtc_vm_arg(ref), grtc_vm_arg(grtc_vm_const_f32(b, 1e-4f)),
                           grtc_vm_span((grtc_value_t*[]){one, one}, 2), grtc_vm_span(items, 2)};
  grtc_operation_t* used = grtc_vm_call_import(b, use, args, 4);
  grtc_vm_call_import(b, use,
                      (grtc_vm_arg_t[]){grtc_vm_arg(grtc_vm_const_zero(b, buffer)),
                                        grtc_vm_arg(grtc_vm_const_f32(b, 1e10f)),
                                        grtc_vm_span(NULL, 0), grtc_vm_span(NULL, 0)},
                      4);
  grtc_value_t* total = grtc_vm_binary(b, GRTC_VM_ADD, &used->results[0], grtc_vm_global_load(b, count));
  grtc_vm_return(b, &total, 1);
  grtc_vm_builder_export(b, f, "odd");
  void* data_out = NULL;
  size_t size = 0;
  round_trip(b, &data_out, &size);
  grt_allocator_free(grt_allocator_system(), data_out);
  grtc_vm_builder_destroy(b);
}

// Misuse is an INTERNAL error naming what was expected and what was given,
// and every later constructor returns NULL.
static void test_builder_errors(void** state) {
  (void)state;
  grtc_vm_builder_t* b = NULL;
  GRT_EXPECT_OK(grtc_vm_builder_create("bad", "bad.src", grt_allocator_system(), &b));
  const grtc_type_t* i64 = grtc_vm_type_i64(b);
  grtc_operation_t* load = grtc_vm_builder_import(
      b, "hal.buffer.load", (const grtc_type_t*[]){grtc_vm_type_ref(b, "!hal.buffer"), i64},
      NULL, 2, &i64, 1);
  grtc_block_t* entry = NULL;
  grtc_vm_builder_func(b, grt_make_cstring_view("f"), false, NULL, 0, NULL, 0, &entry);
  grtc_vm_builder_set_insertion_end(b, entry);
  grtc_value_t* zero = grtc_vm_const_zero(b, grtc_vm_type_ref(b, "!hal.buffer"));
  grtc_value_t* small = grtc_vm_const_i32(b, 4);
  assert_null(grtc_vm_call_import(b, load, (grtc_vm_arg_t[]){grtc_vm_arg(zero), grtc_vm_arg(small)},
                                  2));
  assert_null(grtc_vm_const_i32(b, 1));
  grt_expect_error(grtc_vm_builder_status(b), GRT_STATUS_INTERNAL,
                   "call of @hal.buffer.load: argument 1 is i32, the callee takes i64");
  grtc_vm_builder_destroy(b);

  GRT_EXPECT_OK(grtc_vm_builder_create("bad", "bad.src", grt_allocator_system(), &b));
  grtc_vm_builder_func(b, grt_make_cstring_view("f"), false, NULL, 0, NULL, 0, &entry);
  grtc_vm_builder_set_insertion_end(b, entry);
  grtc_vm_binary(b, GRTC_VM_ADD, grtc_vm_const_i32(b, 1), grtc_vm_const_i64(b, 2));
  grt_expect_error(grtc_vm_builder_status(b), GRT_STATUS_INTERNAL,
                   "vm.add takes two i32 or two i64 values, got i32 and i64");
  grtc_vm_builder_destroy(b);

  GRT_EXPECT_OK(grtc_vm_builder_create("bad", "bad.src", grt_allocator_system(), &b));
  assert_null(grtc_vm_const_i32(b, 1));
  grt_expect_error(grtc_vm_builder_status(b), GRT_STATUS_INTERNAL,
                   "'vm.const.i32' built with no insertion point");
  grtc_vm_builder_destroy(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_calc_round_trip_and_run),
      cmocka_unit_test(test_module_round_trip),
      cmocka_unit_test(test_builder_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
