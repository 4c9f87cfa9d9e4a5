// Control flow and calls: block arguments (a parallel swap), br_table,
// switch, fail/cond_fail, import calls and call.variadic through a native
// module, an unresolved optional import, backtraces with source locations,
// globals of every width.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "vm/native_module.h"
#include "vm/test_support.h"

static int32_t call_i32(grt_vm_test_module_t* t, const char* name,
                        const int32_t* values, size_t count) {
  grt_vm_variant_t args[8];
  for (size_t i = 0; i < count; ++i) args[i] = grt_vm_variant_i32(values[i]);
  grt_vm_variant_t result;
  GRT_EXPECT_OK(grt_vm_test_call(t, name, args, count, &result, 1));
  return result.i32;
}

// main(a, b) = (b, a) as block arguments of the next block, then a - b: a
// sequential copy would give 0.
static void test_block_arguments_swap(void** state) {
  (void)state;
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_vm_test_function_begin(&t, "main", "0ii_i");
  grt_vm_label_t next = grt_vm_test_label(&t);
  grt_vm_remap_t swap[] = {{TR_I(0), 1}, {TR_I(1), 0}};
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_BR, grt_vm_operand_branch(next, swap, 2));
  grt_vm_test_place(&t, next);
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_SUB_I32, TI(0), TI(1), TI(2));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_I(2)));
  grt_vm_test_function_end(&t, 3, 0);
  grt_vm_test_module_load(&t, NULL, 0);
  assert_int_equal(call_i32(&t, "main", (const int32_t[]){1, 5}, 2), 4);
  grt_vm_test_module_end(&t);
}

// main(i) = br_table i: case 0 -> 10, case 1 -> 11 + the block argument,
// default -> 99.
static void test_br_table(void** state) {
  (void)state;
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_vm_test_function_begin(&t, "main", "0i_i");
  grt_vm_label_t blocks[3] = {grt_vm_test_label(&t), grt_vm_test_label(&t),
                              grt_vm_test_label(&t)};
  grt_vm_remap_t arg[] = {{TR_I(0), 2}};
  grt_vm_branch_t cases[] = {{blocks[0], NULL, 0}, {blocks[1], arg, 1}};
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_BR_TABLE, TI(0),
                   grt_vm_operand_branch(blocks[2], NULL, 0),
                   grt_vm_operand_table(cases, 2));
  static const int32_t values[3] = {10, 11, 99};
  for (int b = 0; b < 3; ++b) {
    grt_vm_test_place(&t, blocks[b]);
    GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CONST_I32, TK(values[b]), TI(1));
    if (b == 1) GRT_VM_TEST_EMIT(&t, GRT_VM_OP_ADD_I32, TI(1), TI(2), TI(1));
    GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_I(1)));
  }
  grt_vm_test_function_end(&t, 3, 0);
  grt_vm_test_module_load(&t, NULL, 0);
  assert_int_equal(call_i32(&t, "main", (const int32_t[]){0}, 1), 10);
  assert_int_equal(call_i32(&t, "main", (const int32_t[]){1}, 1), 12);
  assert_int_equal(call_i32(&t, "main", (const int32_t[]){2}, 1), 99);
  assert_int_equal(call_i32(&t, "main", (const int32_t[]){-1}, 1), 99);
  grt_vm_test_module_end(&t);
}

// switch.i32 and switch.i64 pick values[index] or the default.
static void test_switch(void** state) {
  (void)state;
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_vm_test_function_begin(&t, "main", "0iiii_i");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_SWITCH_I32, TI(0), TI(1),
                   TLIST(TR_I(2), TR_I(3)), TI(4));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_I(4)));
  grt_vm_test_function_end(&t, 5, 0);
  grt_vm_test_function_begin(&t, "wide", "0i_I");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CONST_I64, TK(INT64_C(1) << 40), TL(2));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CONST_I64, TK(-3), TL(4));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_SWITCH_I64, TI(0), TL(4), TLIST(TR_L(2)),
                   TL(6));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_L(6)));
  grt_vm_test_function_end(&t, 8, 0);
  grt_vm_test_module_load(&t, NULL, 0);
  assert_int_equal(call_i32(&t, "main", (const int32_t[]){0, -1, 20, 30}, 4),
                   20);
  assert_int_equal(call_i32(&t, "main", (const int32_t[]){1, -1, 20, 30}, 4),
                   30);
  assert_int_equal(call_i32(&t, "main", (const int32_t[]){2, -1, 20, 30}, 4),
                   -1);
  assert_int_equal(call_i32(&t, "main", (const int32_t[]){-5, -1, 20, 30}, 4),
                   -1);
  grt_vm_variant_t arg = grt_vm_variant_i32(0), out;
  GRT_EXPECT_OK(grt_vm_test_call(&t, "wide", &arg, 1, &out, 1));
  assert_true(out.i64 == INT64_C(1) << 40);
  arg = grt_vm_variant_i32(1);
  GRT_EXPECT_OK(grt_vm_test_call(&t, "wide", &arg, 1, &out, 1));
  assert_true(out.i64 == -3);
  grt_vm_test_module_end(&t);
}

// fail(code) and cond_fail(cond, code) with a message; an out-of-range code
// becomes UNKNOWN. inner() fails with a source location; main() calls it
// from another located op, so the backtrace names both.
static void test_fail_and_backtrace(void** state) {
  (void)state;
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_vm_test_function_begin(&t, "inner", "0i_v");
  GRT_EXPECT_OK(grt_vm_bytecode_emitter_set_location(
      t.emitter, grt_make_cstring_view("f.mlir:3:7")));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_FAIL, TI(0), TS("boom"));
  grt_vm_test_function_end(&t, 1, 0);
  grt_vm_test_function_begin(&t, "main", "0i_v");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CONST_I32, TK(0), TI(1));
  GRT_EXPECT_OK(grt_vm_bytecode_emitter_set_location(
      t.emitter, grt_make_cstring_view("f.mlir:9:1")));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CALL, TO(0), TLIST(TR_I(0)), TLIST_EMPTY);
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST_EMPTY);
  grt_vm_test_function_end(&t, 2, 0);
  grt_vm_test_function_begin(&t, "check", "0ii_i");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_COND_FAIL, TI(0), TI(1), TS("nope"));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_I(1)));
  grt_vm_test_function_end(&t, 2, 0);
  grt_vm_test_module_load(&t, NULL, 0);

  grt_vm_variant_t code = grt_vm_variant_i32(GRT_STATUS_OUT_OF_RANGE);
  grt_expect_error(grt_vm_test_call(&t, "main", &code, 1, NULL, 0),
                      GRT_STATUS_OUT_OF_RANGE,
                      "boom; at m.inner@0x1 (f.mlir:3:7); at m.main@0x8 "
                      "(f.mlir:9:1)");
  code = grt_vm_variant_i32(1000);
  grt_expect_error(grt_vm_test_call(&t, "inner", &code, 1, NULL, 0),
                      GRT_STATUS_UNKNOWN, "boom; at m.inner@0x1 (f.mlir:3:7)");
  // DEFERRED is not a failure: a program cannot fake a suspension with it.
  code = grt_vm_variant_i32(GRT_STATUS_DEFERRED);
  grt_expect_error(grt_vm_test_call(&t, "inner", &code, 1, NULL, 0),
                      GRT_STATUS_UNKNOWN, "boom; at m.inner@0x1 (f.mlir:3:7)");
  grt_vm_variant_t args[2] = {grt_vm_variant_i32(0),
                              grt_vm_variant_i32(GRT_STATUS_DATA_LOSS)};
  grt_vm_variant_t out;
  GRT_EXPECT_OK(grt_vm_test_call(&t, "check", args, 2, &out, 1));
  assert_int_equal(out.i32, GRT_STATUS_DATA_LOSS);
  args[0] = grt_vm_variant_i32(-1);
  grt_expect_error(grt_vm_test_call(&t, "check", args, 2, &out, 1),
                      GRT_STATUS_DATA_LOSS, "nope; at m.check@0x1");
  grt_vm_test_module_end(&t);
}

//===----------------------------------------------------------------------===//
// Imports
//===----------------------------------------------------------------------===//

static grt_status_t ext_add(void* module_data, void* state, const void* args,
                            void* results) {
  (void)module_data;
  (void)state;
  const struct { int32_t a, b; }* in = args;
  *(int32_t*)results = in->a + in->b;
  return grt_ok_status();
}

// sum(x, n, v...) = x * 1000 + the n values.
static grt_status_t ext_sum(void* module_data, void* state, const void* args,
                            void* results) {
  (void)module_data;
  (void)state;
  const int32_t* in = args;
  int32_t total = in[0] * 1000;
  for (int32_t i = 0; i < in[1]; ++i) total += in[2 + i];
  *(int32_t*)results = total;
  return grt_ok_status();
}

static grt_status_t ext_refuse(void* module_data, void* state,
                               const void* args, void* results) {
  (void)module_data;
  (void)state;
  (void)args;
  (void)results;
  return grt_make_status(GRT_STATUS_PERMISSION_DENIED, "refused");
}

static const grt_vm_native_export_t ext_exports[] = {
    {"add", "0ii_i", ext_add},
    {"refuse", "0v_v", ext_refuse},
    {"sum", "0iCiD_i", ext_sum},
};
static const grt_vm_native_module_descriptor_t ext_descriptor = {
    "ext", ext_exports, 3, NULL, NULL, NULL};

// main(a, b) = ext.sum(a, [b, ext.add(a, b), 5]); missing() calls an
// optional import nobody exports; refuse() passes a native error through.
static void test_imports_and_variadic_calls(void** state) {
  (void)state;
  grt_vm_module_t* ext = NULL;
  GRT_EXPECT_OK(grt_vm_native_module_create(&ext_descriptor, NULL,
                                               grt_allocator_system(), &ext));
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  uint32_t add = grt_vm_test_import(&t, "ext.add", "0ii_i", false);
  uint32_t sum = grt_vm_test_import(&t, "ext.sum", "0iCiD_i", false);
  uint32_t missing = grt_vm_test_import(&t, "nope.gone", "0v_v", true);
  uint32_t refuse = grt_vm_test_import(&t, "ext.refuse", "0v_v", false);
  grt_vm_test_function_begin(&t, "main", "0ii_i");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CALL, TO(GRT_VM_CALLEE_IMPORT_BIT | add),
                   TLIST(TR_I(0), TR_I(1)), TLIST(TR_I(2)));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CONST_I32, TK(5), TI(3));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CALL_VARIADIC, TO(sum),
                   grt_vm_operand_spans((const uint16_t[]){3}, 1),
                   TLIST(TR_I(0), TR_I(1), TR_I(2), TR_I(3)), TLIST(TR_I(4)));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_I(4)));
  grt_vm_test_function_end(&t, 5, 0);
  grt_vm_test_function_begin(&t, "missing", "0v_v");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CALL, TO(GRT_VM_CALLEE_IMPORT_BIT | missing),
                   TLIST_EMPTY, TLIST_EMPTY);
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST_EMPTY);
  grt_vm_test_function_end(&t, 0, 0);
  grt_vm_test_function_begin(&t, "refuse", "0v_v");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CALL, TO(GRT_VM_CALLEE_IMPORT_BIT | refuse),
                   TLIST_EMPTY, TLIST_EMPTY);
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST_EMPTY);
  grt_vm_test_function_end(&t, 0, 0);
  grt_vm_test_module_load(&t, &ext, 1);

  // sum(3, [4, 7, 5]) = 3000 + 16.
  assert_int_equal(call_i32(&t, "main", (const int32_t[]){3, 4}, 2), 3016);
  grt_expect_error(grt_vm_test_call(&t, "missing", NULL, 0, NULL, 0),
                      GRT_STATUS_NOT_FOUND,
                      "call to unresolved optional import 'nope.gone' (no "
                      "module in the context exports it); at m.missing@0x1");
  grt_expect_error(grt_vm_test_call(&t, "refuse", NULL, 0, NULL, 0),
                      GRT_STATUS_PERMISSION_DENIED,
                      "refused; at m.refuse@0x1");
  grt_vm_test_module_end(&t);
  grt_vm_module_release(ext);
}

// Globals of every width keep their values between calls.
static void test_globals(void** state) {
  (void)state;
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_module_writer_set_globals(t.writer, 24, 1);
  grt_vm_test_function_begin(&t, "store", "0ifIFr_v");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_GLOBAL_STORE_I32, TI(0), TO(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_GLOBAL_STORE_F32, TF(1), TO(4));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_GLOBAL_STORE_I64, TL(2), TO(8));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_GLOBAL_STORE_F64, TD(4), TO(16));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_GLOBAL_STORE_REF, TR(0), TO(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST_EMPTY);
  grt_vm_test_function_end(&t, 6, 1);
  grt_vm_test_function_begin(&t, "load", "0v_ifIFr");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_GLOBAL_LOAD_I32, TO(0), TI(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_GLOBAL_LOAD_F32, TO(4), TF(1));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_GLOBAL_LOAD_I64, TO(8), TL(2));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_GLOBAL_LOAD_F64, TO(16), TD(4));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_GLOBAL_LOAD_REF, TO(0), TR(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN,
                   TLIST(TR_I(0), TR_F(1), TR_L(2), TR_D(4), TR_R(0)));
  grt_vm_test_function_end(&t, 6, 1);
  grt_vm_test_module_load(&t, NULL, 0);

  grt_vm_list_t* list = NULL;
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), 0,
                                      t.allocator, &list));
  grt_vm_ref_t ref = grt_vm_ref_wrap_move(list, grt_vm_list_type());
  grt_vm_variant_t args[5] = {
      grt_vm_variant_i32(-7), grt_vm_variant_f32(1.5f),
      grt_vm_variant_i64(INT64_C(1) << 50), grt_vm_variant_f64(-0.25),
      grt_vm_variant_ref_retain(&ref)};
  GRT_EXPECT_OK(grt_vm_test_call(&t, "store", args, 5, NULL, 0));
  grt_vm_variant_reset(&args[4]);
  grt_vm_variant_t out[5];
  GRT_EXPECT_OK(grt_vm_test_call(&t, "load", NULL, 0, out, 5));
  assert_int_equal(out[0].i32, -7);
  assert_true(out[1].f32 == 1.5f);
  assert_true(out[2].i64 == INT64_C(1) << 50);
  assert_true(out[3].f64 == -0.25);
  assert_ptr_equal(out[4].ref.ptr, list);
  // Held by: ref, the global, out[4].
  assert_int_equal(grt_vm_ref_object_count(list, grt_vm_list_type()), 3);
  grt_vm_variant_reset(&out[4]);
  grt_vm_ref_release(&ref);
  grt_vm_test_module_end(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_block_arguments_swap),
      cmocka_unit_test(test_br_table),
      cmocka_unit_test(test_switch),
      cmocka_unit_test(test_fail_and_backtrace),
      cmocka_unit_test(test_imports_and_variadic_calls),
      cmocka_unit_test(test_globals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
