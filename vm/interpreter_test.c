// Interpreter: bytecode built with the emitter, packed into a module file,
// loaded as a bytecode module and run through the module interface.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "vm/bytecode_emitter.h"
#include "vm/bytecode_module.h"

#define I32 GRT_VM_TYPE_I32
#define REG(n) grt_vm_operand_reg(I32, (n))

typedef struct test_module_t {
  grt_allocator_t allocator;
  void* file_data;
  grt_module_file_t* file;
  grt_vm_module_t* module;
  grt_vm_module_state_t* state;
} test_module_t;

static void ok(grt_status_t status) {
  if (status) grt_status_fprint(stderr, status);
  assert_null(status);
}

// Function 0 of each test is the one exported as "main".
typedef void (*build_fn)(grt_vm_bytecode_emitter_t* e);

static void load(test_module_t* t, const char* cconv, uint32_t i32_count,
                 build_fn build, size_t stack_limit) {
  t->allocator = grt_allocator_system();
  grt_vm_bytecode_emitter_t* e = NULL;
  ok(grt_vm_bytecode_emitter_create(t->allocator, &e));
  ok(grt_vm_bytecode_emitter_begin_function(e));
  build(e);
  uint32_t index = 0;
  ok(grt_vm_bytecode_emitter_end_function(e, i32_count, 0, &index));
  grt_const_byte_span_t bytecode;
  ok(grt_vm_bytecode_emitter_finish(e, &bytecode));

  grt_module_writer_t* w = NULL;
  ok(grt_module_writer_create(t->allocator, &w));
  ok(grt_module_writer_set_name(w, grt_make_cstring_view("m"), 1));
  ok(grt_module_writer_set_bytecode(w, bytecode));
  grt_vm_bytecode_function_t f = grt_vm_bytecode_emitter_function(e, 0);
  grt_module_function_t def = {grt_make_cstring_view("main"),
                               grt_make_cstring_view(cconv),
                               f.bytecode_offset,
                               f.bytecode_length,
                               f.i32_register_count,
                               f.ref_register_count};
  uint32_t ordinal = 0;
  ok(grt_module_writer_add_function(w, &def, &ordinal));
  grt_module_export_t export_def = {grt_make_cstring_view("main"), 0};
  ok(grt_module_writer_add_export(w, &export_def));
  size_t size = 0;
  ok(grt_module_writer_finish(w, &t->file_data, &size));
  grt_module_writer_destroy(w);
  grt_vm_bytecode_emitter_destroy(e);

  ok(grt_module_file_open_memory(grt_make_const_byte_span(t->file_data, size),
                                 t->allocator, &t->file));
  ok(grt_vm_bytecode_module_create(t->file, stack_limit, t->allocator,
                                   &t->module));
  ok(t->module->vtable->alloc_state(t->module, t->allocator, &t->state));
}

static void unload(test_module_t* t) {
  t->module->vtable->free_state(t->module, t->state);
  grt_vm_module_release(t->module);
  grt_module_file_release(t->file);
  grt_allocator_free(t->allocator, t->file_data);
}

static grt_status_t call_main(test_module_t* t, const int32_t* args,
                              size_t arg_count, int32_t* out_result) {
  grt_vm_function_t main_fn = t->module->vtable->export_at(t->module, 0);
  _Alignas(8) int32_t packed_args[8] = {0};
  memcpy(packed_args, args, arg_count * sizeof(int32_t));
  _Alignas(8) int32_t packed_results[2] = {0};
  grt_vm_call_t call = {main_fn, packed_args,
                        (arg_count * 4 + 7) & ~(size_t)7, packed_results, 8};
  grt_status_t status = t->module->vtable->call(t->module, t->state, NULL, &call);
  *out_result = packed_results[0];
  return status;
}

static void emit(grt_vm_bytecode_emitter_t* e, grt_vm_op_t op,
                 const grt_vm_operand_t* operands, size_t count) {
  ok(grt_vm_bytecode_emitter_emit(e, op, operands, count));
}

// main(a, b) = a + b
static void build_add(grt_vm_bytecode_emitter_t* e) {
  grt_vm_label_t entry;
  ok(grt_vm_bytecode_emitter_create_label(e, &entry));
  ok(grt_vm_bytecode_emitter_place_label(e, entry));
  grt_vm_operand_t add[] = {REG(0), REG(1), REG(2)};
  emit(e, GRT_VM_OP_ADD_I32, add, 3);
  grt_vm_register_t ret = {I32, 2, false};
  grt_vm_operand_t r[] = {grt_vm_operand_list(&ret, 1)};
  emit(e, GRT_VM_OP_RETURN, r, 1);
}

static void test_add(void** state) {
  test_module_t t;
  load(&t, "0ii_i", 3, build_add, 0);
  int32_t result = 0;
  int32_t args[] = {3, 4};
  ok(call_main(&t, args, 2, &result));
  assert_int_equal(result, 7);
  unload(&t);
}

// main(n) = n < 2 ? n : main(n - 1) + main(n - 2)
static void build_fib(grt_vm_bytecode_emitter_t* e) {
  grt_vm_label_t entry, base, recurse;
  ok(grt_vm_bytecode_emitter_create_label(e, &entry));
  ok(grt_vm_bytecode_emitter_create_label(e, &base));
  ok(grt_vm_bytecode_emitter_create_label(e, &recurse));
  ok(grt_vm_bytecode_emitter_place_label(e, entry));
  grt_vm_operand_t two[] = {grt_vm_operand_imm(2), REG(1)};
  emit(e, GRT_VM_OP_CONST_I32, two, 2);
  grt_vm_operand_t lt[] = {REG(0), REG(1), REG(2)};
  emit(e, GRT_VM_OP_CMP_LT_I32_S, lt, 3);
  grt_vm_operand_t br[] = {REG(2), grt_vm_operand_branch(base, NULL, 0),
                           grt_vm_operand_branch(recurse, NULL, 0)};
  emit(e, GRT_VM_OP_COND_BR, br, 3);
  ok(grt_vm_bytecode_emitter_place_label(e, base));
  grt_vm_register_t n = {I32, 0, false};
  grt_vm_operand_t ret_n[] = {grt_vm_operand_list(&n, 1)};
  emit(e, GRT_VM_OP_RETURN, ret_n, 1);
  ok(grt_vm_bytecode_emitter_place_label(e, recurse));
  grt_vm_operand_t one[] = {grt_vm_operand_imm(1), REG(3)};
  emit(e, GRT_VM_OP_CONST_I32, one, 2);
  grt_vm_operand_t sub1[] = {REG(0), REG(3), REG(4)};
  emit(e, GRT_VM_OP_SUB_I32, sub1, 3);
  grt_vm_operand_t sub2[] = {REG(0), REG(1), REG(5)};
  emit(e, GRT_VM_OP_SUB_I32, sub2, 3);
  grt_vm_register_t a1 = {I32, 4, false}, r1 = {I32, 6, false};
  grt_vm_operand_t call1[] = {grt_vm_operand_ordinal(0),
                              grt_vm_operand_list(&a1, 1),
                              grt_vm_operand_list(&r1, 1)};
  emit(e, GRT_VM_OP_CALL, call1, 3);
  grt_vm_register_t a2 = {I32, 5, false}, r2 = {I32, 7, false};
  grt_vm_operand_t call2[] = {grt_vm_operand_ordinal(0),
                              grt_vm_operand_list(&a2, 1),
                              grt_vm_operand_list(&r2, 1)};
  emit(e, GRT_VM_OP_CALL, call2, 3);
  grt_vm_operand_t sum[] = {REG(6), REG(7), REG(8)};
  emit(e, GRT_VM_OP_ADD_I32, sum, 3);
  grt_vm_register_t s = {I32, 8, false};
  grt_vm_operand_t ret_s[] = {grt_vm_operand_list(&s, 1)};
  emit(e, GRT_VM_OP_RETURN, ret_s, 1);
}

static void test_recursive_fib(void** state) {
  test_module_t t;
  load(&t, "0i_i", 9, build_fib, 0);
  int32_t result = 0;
  int32_t n = 20;
  ok(call_main(&t, &n, 1, &result));
  assert_int_equal(result, 6765);
  unload(&t);
}

// main(n) = main(n + 1): never returns; the stack limit must stop it.
static void build_runaway(grt_vm_bytecode_emitter_t* e) {
  grt_vm_label_t entry;
  ok(grt_vm_bytecode_emitter_create_label(e, &entry));
  ok(grt_vm_bytecode_emitter_place_label(e, entry));
  grt_vm_operand_t one[] = {grt_vm_operand_imm(1), REG(1)};
  emit(e, GRT_VM_OP_CONST_I32, one, 2);
  grt_vm_operand_t add[] = {REG(0), REG(1), REG(2)};
  emit(e, GRT_VM_OP_ADD_I32, add, 3);
  grt_vm_register_t a = {I32, 2, false}, r = {I32, 3, false};
  grt_vm_operand_t call[] = {grt_vm_operand_ordinal(0),
                             grt_vm_operand_list(&a, 1),
                             grt_vm_operand_list(&r, 1)};
  emit(e, GRT_VM_OP_CALL, call, 3);
  grt_vm_operand_t ret[] = {grt_vm_operand_list(&r, 1)};
  emit(e, GRT_VM_OP_RETURN, ret, 1);
}

static void test_deep_recursion_overflows(void** state) {
  test_module_t t;
  load(&t, "0i_i", 4, build_runaway, 64 * 1024);
  int32_t result = 0, n = 0;
  grt_status_t status = call_main(&t, &n, 1, &result);
  assert_non_null(status);
  assert_int_equal(grt_status_code(status), GRT_STATUS_RESOURCE_EXHAUSTED);
  const char* message = grt_status_message(status);
  assert_non_null(strstr(message, "stack overflow: "));
  assert_non_null(strstr(message, "exceeds limit of 65536 bytes"));
  // Every frame is reported at its call op: block(1) + const.i32(7) +
  // add.i32(7) puts it at 0xf.
  assert_non_null(strstr(message, "; at m.main@0xf; at m.main@0xf"));
  grt_status_free(status);
  unload(&t);
}

// main(a, b) = a / b
static void build_div(grt_vm_bytecode_emitter_t* e) {
  grt_vm_label_t entry;
  ok(grt_vm_bytecode_emitter_create_label(e, &entry));
  ok(grt_vm_bytecode_emitter_place_label(e, entry));
  grt_vm_operand_t div[] = {REG(0), REG(1), REG(2)};
  emit(e, GRT_VM_OP_DIV_I32_S, div, 3);
  grt_vm_register_t ret = {I32, 2, false};
  grt_vm_operand_t r[] = {grt_vm_operand_list(&ret, 1)};
  emit(e, GRT_VM_OP_RETURN, r, 1);
}

static void test_division_by_zero_is_a_vm_error(void** state) {
  test_module_t t;
  load(&t, "0ii_i", 3, build_div, 0);
  int32_t result = 0;
  int32_t args[] = {7, 0};
  grt_status_t status = call_main(&t, args, 2, &result);
  assert_non_null(status);
  assert_string_equal(grt_status_message(status),
                      "div.i32.s: division by zero (7 / 0); at m.main@0x1");
  grt_status_free(status);
  int32_t overflow_args[] = {INT32_MIN, -1};
  status = call_main(&t, overflow_args, 2, &result);
  assert_string_equal(grt_status_message(status),
                      "div.i32.s: signed overflow (-2147483648 / -1); at "
                      "m.main@0x1");
  grt_status_free(status);
  int32_t fine[] = {-7, 2};
  ok(call_main(&t, fine, 2, &result));
  assert_int_equal(result, -3);
  unload(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_add),
      cmocka_unit_test(test_recursive_fib),
      cmocka_unit_test(test_deep_recursion_overflows),
      cmocka_unit_test(test_division_by_zero_is_a_vm_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
