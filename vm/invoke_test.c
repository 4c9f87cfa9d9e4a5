// Invoke: host calls into native functions through a context, with
// argument checking, ref ownership, variadic spans and failing callees.
#include "vm/invoke.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "vm/buffer.h"
#include "vm/native_module.h"
#include "vm/test_support.h"

static grt_status_t add(void* module_data, void* state, const void* args,
                        void* results) {
  const struct { int32_t a; int64_t b; }* in = args;
  struct { int64_t sum; double half; }* out = results;
  out->sum = in->a + in->b;
  out->half = (double)out->sum / 2;
  return grt_ok_status();
}

static grt_status_t always_fail(void* module_data, void* state, const void* args,
                         void* results) {
  return grt_make_status(GRT_STATUS_ABORTED, "fail called with %g",
                         (double)*(const float*)args);
}

// Returns a new buffer of the given length, filled with the given byte.
static grt_status_t make_buffer(void* module_data, void* state,
                                const void* args, void* results) {
  const struct { int64_t length; int32_t byte; }* in = args;
  grt_vm_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_buffer_create(GRT_VM_BUFFER_ACCESS_MUTABLE,
                                           (uint64_t)in->length, 0,
                                           grt_allocator_system(), &buffer));
  grt_status_t status =
      grt_vm_buffer_fill(buffer, 0, (uint64_t)in->length, (uint64_t)in->byte, 1);
  if (!grt_status_is_ok(status)) {
    grt_vm_buffer_release(buffer);
    return status;
  }
  *(grt_vm_ref_t*)results = grt_vm_ref_wrap_move(buffer, grt_vm_buffer_type());
  return grt_ok_status();
}

// Sums |scale| * (a + b) over every (a, b) group of the span.
static grt_status_t scaled_sum(void* module_data, void* state,
                               const void* args, void* results) {
  const struct {
    int32_t scale;
    int32_t count;
    struct { int32_t a, b; } groups[];
  }* in = args;
  int32_t total = 0;
  for (int32_t i = 0; i < in->count; ++i) {
    total += in->scale * (in->groups[i].a + in->groups[i].b);
  }
  *(int32_t*)results = total;
  return grt_ok_status();
}

// Reads byte 0 of a buffer argument; checks refs arrive borrowed but alive.
static grt_status_t first_byte(void* module_data, void* state,
                               const void* args, void* results) {
  grt_vm_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_buffer_check_deref(args, &buffer));
  int64_t value = 0;
  GRT_RETURN_IF_ERROR(grt_vm_buffer_load_int(buffer, 0, 1, false, &value));
  *(int32_t*)results = (int32_t)value;
  return grt_ok_status();
}

static const grt_vm_native_export_t exports[] = {
    {"add", "0iI_IF", add},
    {"fail", "0f_v", always_fail},
    {"first_byte", "0r_i", first_byte},
    {"make_buffer", "0Ii_r", make_buffer},
    {"scaled_sum", "0iCiiD_i", scaled_sum},
};
static const grt_vm_native_module_descriptor_t descriptor = {
    "host", exports, sizeof(exports) / sizeof(exports[0]), NULL, NULL, NULL};

typedef struct fixture_t {
  grt_vm_context_t* context;
  grt_vm_list_t* inputs;
  grt_vm_list_t* outputs;
} fixture_t;

static int setup(void** state) {
  fixture_t* fixture = calloc(1, sizeof(*fixture));
  grt_vm_instance_t* instance = NULL;
  GRT_EXPECT_OK(grt_vm_instance_create(grt_allocator_system(), &instance));
  grt_vm_module_t* module = NULL;
  GRT_EXPECT_OK(grt_vm_native_module_create(&descriptor, NULL,
                                               grt_allocator_system(), &module));
  GRT_EXPECT_OK(grt_vm_context_create(instance, &module, 1,
                                         grt_allocator_system(),
                                         &fixture->context));
  grt_vm_module_release(module);
  grt_vm_instance_release(instance);
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), 4,
                                      grt_allocator_system(), &fixture->inputs));
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), 4,
                                      grt_allocator_system(),
                                      &fixture->outputs));
  *state = fixture;
  return 0;
}

static int teardown(void** state) {
  fixture_t* fixture = *state;
  grt_vm_list_release(fixture->inputs);
  grt_vm_list_release(fixture->outputs);
  grt_vm_context_release(fixture->context);
  free(fixture);
  return 0;
}

static grt_vm_function_t lookup(fixture_t* fixture, const char* name) {
  grt_vm_function_t function;
  GRT_EXPECT_OK(grt_vm_context_resolve_function(
      fixture->context, grt_make_cstring_view(name), &function));
  return function;
}

static void push(grt_vm_list_t* list, grt_vm_variant_t value) {
  GRT_EXPECT_OK(grt_vm_list_push_variant(list, &value));
  grt_vm_variant_reset(&value);
}

static grt_status_t invoke(fixture_t* fixture, const char* name) {
  grt_vm_function_t function = lookup(fixture, name);
  return grt_vm_invoke(fixture->context, &function, fixture->inputs,
                       fixture->outputs, grt_allocator_system());
}

static void test_primitive_arguments_and_results(void** state) {
  fixture_t* fixture = *state;
  push(fixture->inputs, grt_vm_variant_i32(-3));
  push(fixture->inputs, grt_vm_variant_i64(INT64_C(10000000000)));
  GRT_EXPECT_OK(invoke(fixture, "host.add"));
  assert_int_equal(grt_vm_list_size(fixture->outputs), 2);
  int64_t sum = 0;
  double half = 0;
  GRT_EXPECT_OK(grt_vm_list_get_i64(fixture->outputs, 0, &sum));
  GRT_EXPECT_OK(grt_vm_list_get_f64(fixture->outputs, 1, &half));
  assert_true(sum == INT64_C(9999999997));
  assert_true(half == 4999999998.5);
}

static void test_argument_errors(void** state) {
  fixture_t* fixture = *state;
  push(fixture->inputs, grt_vm_variant_f32(1.0f));
  grt_expect_error(invoke(fixture, "host.add"), GRT_STATUS_INVALID_ARGUMENT,
                      "add: argument 0: expected i32, got f32");
  GRT_EXPECT_OK(grt_vm_list_resize(fixture->inputs, 0));
  push(fixture->inputs, grt_vm_variant_i32(1));
  grt_expect_error(invoke(fixture, "host.add"), GRT_STATUS_INVALID_ARGUMENT,
                      "add: argument 1 (i64) is missing: 1 given");
  push(fixture->inputs, grt_vm_variant_i64(2));
  push(fixture->inputs, grt_vm_variant_i64(3));
  grt_expect_error(invoke(fixture, "host.add"), GRT_STATUS_INVALID_ARGUMENT,
                      "add: expected 2 arguments, got 3");
  assert_int_equal(grt_vm_list_size(fixture->outputs), 0);

  GRT_EXPECT_OK(grt_vm_list_resize(fixture->inputs, 0));
  push(fixture->inputs, grt_vm_variant_i32(7));
  grt_expect_error(invoke(fixture, "host.first_byte"),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "first_byte: argument 0: expected ref, got i32");

  grt_vm_function_t function = lookup(fixture, "host.add");
  grt_expect_error(grt_vm_invoke(fixture->context, &function, NULL, NULL,
                                    grt_allocator_system()),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "add: returns 2 values but no output list was given");
  grt_expect_error(grt_vm_context_resolve_function(
                          fixture->context, grt_make_cstring_view("host.nope"),
                          &function),
                      GRT_STATUS_NOT_FOUND,
                      "module 'host' has no function 'nope'; it exports: add, "
                      "fail, first_byte, make_buffer, scaled_sum");

  // Results must fit the output list's element type.
  grt_vm_list_t* wrong = NULL;
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_value(GRT_VM_VALUE_TYPE_I32),
                                      0, grt_allocator_system(), &wrong));
  GRT_EXPECT_OK(grt_vm_list_resize(fixture->inputs, 0));
  push(fixture->inputs, grt_vm_variant_i64(4));
  push(fixture->inputs, grt_vm_variant_i32(9));
  function = lookup(fixture, "host.make_buffer");
  grt_expect_error(grt_vm_invoke(fixture->context, &function,
                                    fixture->inputs, wrong,
                                    grt_allocator_system()),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "list holds i32, given ref<vm.buffer>; make_buffer: "
                      "result 0");
  grt_vm_list_release(wrong);  // the result buffer was released: ASan checks
}

static void test_ref_results_are_owned_and_ref_arguments_borrowed(
    void** state) {
  fixture_t* fixture = *state;
  push(fixture->inputs, grt_vm_variant_i64(8));
  push(fixture->inputs, grt_vm_variant_i32(0x5A));
  GRT_EXPECT_OK(invoke(fixture, "host.make_buffer"));
  grt_vm_ref_t buffer = grt_vm_ref_null();
  GRT_EXPECT_OK(grt_vm_list_get_ref_assign(fixture->outputs, 0, &buffer));
  // One reference in the output list, one here: nothing leaked or lost.
  assert_int_equal(grt_vm_ref_object_count(buffer.ptr, buffer.type), 2);

  GRT_EXPECT_OK(grt_vm_list_resize(fixture->inputs, 0));
  GRT_EXPECT_OK(grt_vm_list_resize(fixture->outputs, 0));
  push(fixture->inputs, grt_vm_variant_ref_retain(&buffer));
  GRT_EXPECT_OK(invoke(fixture, "host.first_byte"));
  int32_t byte = 0;
  GRT_EXPECT_OK(grt_vm_list_get_i32(fixture->outputs, 0, &byte));
  assert_int_equal(byte, 0x5A);
  assert_int_equal(grt_vm_ref_object_count(buffer.ptr, buffer.type), 2);
  grt_vm_ref_release(&buffer);
}

static void test_variadic_span(void** state) {
  fixture_t* fixture = *state;
  push(fixture->inputs, grt_vm_variant_i32(10));  // scale
  push(fixture->inputs, grt_vm_variant_i32(2));   // span count
  push(fixture->inputs, grt_vm_variant_i32(1));
  push(fixture->inputs, grt_vm_variant_i32(2));
  push(fixture->inputs, grt_vm_variant_i32(3));
  push(fixture->inputs, grt_vm_variant_i32(4));
  GRT_EXPECT_OK(invoke(fixture, "host.scaled_sum"));
  int32_t total = 0;
  GRT_EXPECT_OK(grt_vm_list_get_i32(fixture->outputs, 0, &total));
  assert_int_equal(total, 100);

  GRT_EXPECT_OK(grt_vm_list_set_i32(fixture->inputs, 1, -1));
  grt_expect_error(invoke(fixture, "host.scaled_sum"),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "scaled_sum: argument 1: variadic span count -1 is "
                      "negative");
  GRT_EXPECT_OK(grt_vm_list_set_i32(fixture->inputs, 1, 3));
  grt_expect_error(invoke(fixture, "host.scaled_sum"),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "scaled_sum: argument 6 (i32) is missing: 6 given");
}

static void test_callee_error_is_annotated(void** state) {
  fixture_t* fixture = *state;
  push(fixture->inputs, grt_vm_variant_f32(1.5f));
  grt_expect_error(invoke(fixture, "host.fail"), GRT_STATUS_ABORTED,
                      "fail called with 1.5; in invocation of 'host.fail'");
}

static void test_function_of_another_context(void** state) {
  fixture_t* fixture = *state;
  grt_vm_module_t* stranger = NULL;
  GRT_EXPECT_OK(grt_vm_native_module_create(&descriptor, NULL,
                                               grt_allocator_system(),
                                               &stranger));
  grt_vm_function_t function;
  GRT_EXPECT_OK(grt_vm_module_lookup_function(
      stranger, grt_make_cstring_view("fail"), &function));
  grt_expect_error(grt_vm_invoke(fixture->context, &function, NULL, NULL,
                                    grt_allocator_system()),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "fail: its module 'host' is not part of the context");
  grt_vm_module_release(stranger);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_primitive_arguments_and_results,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(test_argument_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(
          test_ref_results_are_owned_and_ref_arguments_borrowed, setup,
          teardown),
      cmocka_unit_test_setup_teardown(test_variadic_span, setup, teardown),
      cmocka_unit_test_setup_teardown(test_callee_error_is_annotated, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_function_of_another_context, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
