// Bytecode modules through the module interface: export and import tables,
// per-context state (globals, __init), and verification at load.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "vm/test_support.h"

static void expect_view(grt_string_view_t view, const char* expected) {
  if (!grt_string_view_equal_cstring(view, expected)) {
    fail_msg("expected '%s', got '%.*s'", expected, GRT_SV_ARG(view));
  }
}

static void emit_return_nothing(grt_vm_test_module_t* t) {
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_RETURN, TLIST_EMPTY);
}

static void test_exports_and_imports(void** state) {
  (void)state;
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_vm_test_import(&t, "x.f", "0i_i", false);
  grt_vm_test_import(&t, "x.g", "0_v", true);
  grt_vm_test_function_begin(&t, "first", "0_v");
  emit_return_nothing(&t);
  grt_vm_test_function_end(&t, 0, 0);
  grt_vm_test_function_begin_ex(&t, "hidden", "0_v", false);
  emit_return_nothing(&t);
  grt_vm_test_function_end(&t, 0, 0);
  grt_vm_test_function_begin(&t, "second", "0i_i");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_I(0)));
  grt_vm_test_function_end(&t, 1, 0);
  grt_vm_test_module_finish(&t);
  // Created but not linked: the imports stay unresolved.
  GRT_EXPECT_OK(
      grt_vm_bytecode_module_create(t.file, 0, t.allocator, &t.module));
  grt_vm_module_t* m = t.module;
  expect_view(grt_vm_module_name(m), "m");

  assert_int_equal(m->vtable->export_count(m), 2);
  const char* names[2] = {"first", "second"};
  const char* cconvs[2] = {"0_v", "0i_i"};
  for (uint32_t i = 0; i < 2; ++i) {
    grt_vm_function_t f = m->vtable->export_at(m, i);
    assert_ptr_equal(f.module, m);
    assert_int_equal(f.linkage, GRT_VM_FUNCTION_LINKAGE_EXPORT);
    assert_int_equal(f.ordinal, i);
    expect_view(f.name, names[i]);
    expect_view(f.calling_convention, cconvs[i]);
  }
  grt_vm_function_t found;
  assert_true(m->vtable->lookup_export(m, grt_make_cstring_view("second"),
                                       &found));
  expect_view(found.name, "second");
  expect_view(found.calling_convention, "0i_i");
  assert_false(m->vtable->lookup_export(m, grt_make_cstring_view("hidden"),
                                        &found));
  grt_expect_error(
      grt_vm_module_lookup_function(m, grt_make_cstring_view("hidden"),
                                    &found),
      GRT_STATUS_NOT_FOUND,
      "module 'm' has no function 'hidden'; it exports: first, second");

  assert_int_equal(m->vtable->import_count(m), 2);
  grt_vm_import_t f = m->vtable->import_at(m, 0);
  expect_view(f.full_name, "x.f");
  expect_view(f.calling_convention, "0i_i");
  assert_false(f.optional);
  grt_vm_import_t g = m->vtable->import_at(m, 1);
  expect_view(g.full_name, "x.g");
  expect_view(g.calling_convention, "0_v");
  assert_true(g.optional);
  grt_vm_test_module_end(&t);
}

// Global i32 at byte 0: __init adds 10 to it, bump() adds 1 and returns it.
static void build_counter(grt_vm_test_module_t* t) {
  grt_vm_test_module_begin(t, "counter");
  grt_module_writer_set_globals(t->writer, 8, 0);
  grt_vm_test_function_begin(t, "__init", "0_v");
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_GLOBAL_LOAD_I32, TO(0), TI(0));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CONST_I32, TK(10), TI(1));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_ADD_I32, TI(0), TI(1), TI(0));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_GLOBAL_STORE_I32, TI(0), TO(0));
  emit_return_nothing(t);
  grt_vm_test_function_end(t, 2, 0);
  grt_vm_test_function_begin(t, "bump", "0_i");
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_GLOBAL_LOAD_I32, TO(0), TI(0));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CONST_I32, TK(1), TI(1));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_ADD_I32, TI(0), TI(1), TI(0));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_GLOBAL_STORE_I32, TI(0), TO(0));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_RETURN, TLIST(TR_I(0)));
  grt_vm_test_function_end(t, 2, 0);
  grt_vm_test_module_load(t, NULL, 0);
}

static int32_t bump(grt_vm_test_module_t* t) {
  grt_vm_variant_t out;
  GRT_EXPECT_OK(grt_vm_test_call(t, "bump", NULL, 0, &out, 1));
  return out.i32;
}

// Two contexts over one module each get their own globals, and __init runs
// once in each (a second run would start the counter at 20).
static void test_contexts_have_their_own_state(void** state) {
  (void)state;
  grt_vm_test_module_t t;
  build_counter(&t);
  grt_vm_context_t* first = t.context;
  grt_vm_context_t* second = NULL;
  GRT_EXPECT_OK(grt_vm_context_create(t.instance, &t.module, 1,
                                         t.allocator, &second));
  assert_int_equal(bump(&t), 11);
  assert_int_equal(bump(&t), 12);
  t.context = second;
  assert_int_equal(bump(&t), 11);
  t.context = first;
  assert_int_equal(bump(&t), 13);
  t.context = second;
  assert_int_equal(bump(&t), 12);
  t.context = first;
  grt_vm_context_release(second);
  grt_vm_test_module_end(&t);
}

// A module whose second function reads a register it does not have is
// rejected when the module is created, naming the function and the offset.
static void test_verification_failure_rejected_at_load(void** state) {
  (void)state;
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_vm_test_function_begin(&t, "good", "0_v");
  emit_return_nothing(&t);
  grt_vm_test_function_end(&t, 0, 0);
  grt_vm_test_function_begin(&t, "bad", "0_i");
  // block (1 byte) + const.i32 (7 bytes): add.i32 is at 0x8.
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CONST_I32, TK(1), TI(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_ADD_I32, TI(0), TI(5), TI(1));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_I(1)));
  grt_vm_test_function_end(&t, 2, 0);
  grt_vm_test_module_finish(&t);
  grt_expect_error(
      grt_vm_bytecode_module_create(t.file, 0, t.allocator, &t.module),
      GRT_STATUS_INVALID_ARGUMENT,
      "module 'm' function 'bad' @ 0x8: register i32:5 out of range "
      "(function has 2 i32 registers)");
  assert_null(t.module);
  grt_vm_test_module_end(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_exports_and_imports),
      cmocka_unit_test(test_contexts_have_their_own_state),
      cmocka_unit_test(test_verification_failure_rejected_at_load),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
