// Interpreter: bytecode built with the emitter, packed into a module file,
// loaded as a bytecode module and run through the module interface (the
// shared builder in vm/test_support.h).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "vm/test_support.h"

// Loads the module |build| emits as exported "main" (|cconv|, |i32_count|
// registers) with a host-call stack of |stack_limit| bytes (0: default).
typedef void (*build_fn)(grt_vm_test_module_t* t);
static void load(grt_vm_test_module_t* t, const char* cconv,
                 uint32_t i32_count, build_fn build, size_t stack_limit) {
  grt_vm_test_module_begin(t, "m");
  t->stack_limit = stack_limit;
  grt_vm_test_function_begin(t, "main", cconv);
  build(t);
  grt_vm_test_function_end(t, i32_count, 0);
  grt_vm_test_module_load(t, NULL, 0);
}

static grt_status_t call_main(grt_vm_test_module_t* t, const int32_t* args,
                              size_t arg_count, int32_t* out_result) {
  grt_vm_variant_t variants[8];
  assert_true(arg_count <= 8);
  for (size_t i = 0; i < arg_count; ++i) {
    variants[i] = grt_vm_variant_i32(args[i]);
  }
  grt_vm_variant_t result = grt_vm_variant_i32(0);
  grt_status_t status =
      grt_vm_test_call(t, "main", variants, arg_count, &result, 1);
  *out_result = result.i32;
  return status;
}

// main(a, b) = a + b
static void build_add(grt_vm_test_module_t* t) {
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_ADD_I32, TI(0), TI(1), TI(2));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_RETURN, TLIST(TR_I(2)));
}

static void test_add(void** state) {
  grt_vm_test_module_t t;
  load(&t, "0ii_i", 3, build_add, 0);
  int32_t result = 0;
  int32_t args[] = {3, 4};
  GRT_EXPECT_OK(call_main(&t, args, 2, &result));
  assert_int_equal(result, 7);
  grt_vm_test_module_end(&t);
}

// main(n) = n < 2 ? n : main(n - 1) + main(n - 2)
static void build_fib(grt_vm_test_module_t* t) {
  grt_vm_label_t base = grt_vm_test_label(t);
  grt_vm_label_t recurse = grt_vm_test_label(t);
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CONST_I32, TK(2), TI(1));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CMP_LT_I32_S, TI(0), TI(1), TI(2));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_COND_BR, TI(2),
                   grt_vm_operand_branch(base, NULL, 0),
                   grt_vm_operand_branch(recurse, NULL, 0));
  grt_vm_test_place(t, base);
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_RETURN, TLIST(TR_I(0)));
  grt_vm_test_place(t, recurse);
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CONST_I32, TK(1), TI(3));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_SUB_I32, TI(0), TI(3), TI(4));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_SUB_I32, TI(0), TI(1), TI(5));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CALL, TO(0), TLIST(TR_I(4)), TLIST(TR_I(6)));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CALL, TO(0), TLIST(TR_I(5)), TLIST(TR_I(7)));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_ADD_I32, TI(6), TI(7), TI(8));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_RETURN, TLIST(TR_I(8)));
}

static void test_recursive_fib(void** state) {
  grt_vm_test_module_t t;
  load(&t, "0i_i", 9, build_fib, 0);
  int32_t result = 0;
  int32_t n = 20;
  GRT_EXPECT_OK(call_main(&t, &n, 1, &result));
  assert_int_equal(result, 6765);
  grt_vm_test_module_end(&t);
}

// main(n) = main(n + 1): never returns; the stack limit must stop it.
static void build_runaway(grt_vm_test_module_t* t) {
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CONST_I32, TK(1), TI(1));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_ADD_I32, TI(0), TI(1), TI(2));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CALL, TO(0), TLIST(TR_I(2)), TLIST(TR_I(3)));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_RETURN, TLIST(TR_I(3)));
}

static void test_deep_recursion_overflows(void** state) {
  grt_vm_test_module_t t;
  load(&t, "0i_i", 4, build_runaway, 64 * 1024);
  int32_t result = 0, n = 0;
  grt_status_t status = call_main(&t, &n, 1, &result);
  assert_non_null(status);
  assert_int_equal(grt_status_code(status), GRT_STATUS_RESOURCE_EXHAUSTED);
  const char* message = grt_status_message(status);
  assert_non_null(strstr(message, "stack overflow: "));
  assert_non_null(strstr(message, "exceeds limit of 65536 bytes"));
  // Every frame is at its call op: block(1) + const.i32(7) + add.i32(7) puts
  // it at 0xf. The thousands of identical recursive frames collapse into one
  // line and a count, so the message stays short.
  assert_non_null(
      strstr(message, "; at m.main@0xf; (previous frame repeated "));
  assert_null(strstr(message, "; at m.main@0xf; at m.main@0xf"));
  assert_true(strlen(message) < 512);
  grt_status_free(status);
  grt_vm_test_module_end(&t);
}

// main(a, b) = a / b
static void build_div(grt_vm_test_module_t* t) {
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_DIV_I32_S, TI(0), TI(1), TI(2));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_RETURN, TLIST(TR_I(2)));
}

static void test_division_by_zero_is_a_vm_error(void** state) {
  grt_vm_test_module_t t;
  load(&t, "0ii_i", 3, build_div, 0);
  int32_t result = 0;
  int32_t args[] = {7, 0};
  grt_status_t status = call_main(&t, args, 2, &result);
  assert_non_null(status);
  assert_string_equal(grt_status_message(status),
                      "div.i32.s: division by zero (7 / 0); at m.main@0x1; "
                      "in invocation of 'm.main'");
  grt_status_free(status);
  int32_t overflow_args[] = {INT32_MIN, -1};
  status = call_main(&t, overflow_args, 2, &result);
  assert_non_null(status);
  assert_string_equal(grt_status_message(status),
                      "div.i32.s: signed overflow (-2147483648 / -1); at "
                      "m.main@0x1; in invocation of 'm.main'");
  grt_status_free(status);
  int32_t fine[] = {-7, 2};
  GRT_EXPECT_OK(call_main(&t, fine, 2, &result));
  assert_int_equal(result, -3);
  grt_vm_test_module_end(&t);
}

// A chain of distinct frames past the backtrace cap: main(n) calls
// other(n - 1), which calls main again, so consecutive frames always differ
// and nothing collapses. main(0) divides by zero under 21 main and 20 other
// frames: the first 32 are shown, the other 9 counted.
static void test_backtrace_caps_distinct_frames(void** state) {
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_vm_test_function_begin(&t, "main", "0i_i");
  grt_vm_label_t bottom = grt_vm_test_label(&t);
  grt_vm_label_t recurse = grt_vm_test_label(&t);
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CMP_NZ_I32, TI(0), TI(1));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_COND_BR, TI(1),
                   grt_vm_operand_branch(recurse, NULL, 0),
                   grt_vm_operand_branch(bottom, NULL, 0));
  grt_vm_test_place(&t, bottom);
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CONST_I32, TK(0), TI(2));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_DIV_I32_S, TI(0), TI(2), TI(3));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_I(3)));
  grt_vm_test_place(&t, recurse);
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CONST_I32, TK(1), TI(2));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_SUB_I32, TI(0), TI(2), TI(3));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CALL, TO(1), TLIST(TR_I(3)), TLIST(TR_I(4)));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_I(4)));
  grt_vm_test_function_end(&t, 5, 0);
  grt_vm_test_function_begin_ex(&t, "other", "0i_i", false);
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CALL, TO(0), TLIST(TR_I(0)), TLIST(TR_I(1)));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_I(1)));
  grt_vm_test_function_end(&t, 2, 0);
  grt_vm_test_module_load(&t, NULL, 0);

  int32_t result = 0, n = 20;
  grt_status_t status = call_main(&t, &n, 1, &result);
  assert_non_null(status);
  const char* message = grt_status_message(status);
  assert_non_null(strstr(message, "div.i32.s: division by zero (0 / 0); at m.main@0x"));
  size_t frames = 0;
  for (const char* p = message; (p = strstr(p, "; at m.")) != NULL; ++p) ++frames;
  assert_int_equal(frames, 32);
  assert_null(strstr(message, "repeated"));
  assert_non_null(strstr(message, "; at m.other@0x1; (9 more frames not shown)"));
  grt_status_free(status);
  n = 3;
  status = call_main(&t, &n, 1, &result);
  frames = 0;
  for (const char* p = grt_status_message(status); (p = strstr(p, "; at m.")) != NULL; ++p) {
    ++frames;
  }
  assert_int_equal(frames, 7);  // 4 main + 3 other, under the cap
  assert_null(strstr(grt_status_message(status), "not shown"));
  grt_status_free(status);
  // Each caller is reported at its call op (calls record nothing; the
  // unwinder finds the op from the callee frame's return point): main's
  // div at 0x1d, other's call at 0x1, main's call at 0x38.
  n = 1;
  status = call_main(&t, &n, 1, &result);
  assert_non_null(status);
  assert_string_equal(grt_status_message(status),
                      "div.i32.s: division by zero (0 / 0); at m.main@0x1d; "
                      "at m.other@0x1; at m.main@0x38; in invocation of "
                      "'m.main'");
  grt_status_free(status);
  grt_vm_test_module_end(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_add),
      cmocka_unit_test(test_recursive_fib),
      cmocka_unit_test(test_deep_recursion_overflows),
      cmocka_unit_test(test_division_by_zero_is_a_vm_error),
      cmocka_unit_test(test_backtrace_caps_distinct_frames),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
