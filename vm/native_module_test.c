// Native modules: table verification, lookup, state hooks and calls.
#include "vm/native_module.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "vm/signature.h"
#include "vm/test_support.h"

typedef struct counters_t {
  int states_alloced;
  int states_freed;
  int destroyed;
} counters_t;

static grt_status_t add(void* module_data, void* state, const void* args,
                        void* results) {
  const struct { int32_t a, b; }* in = args;
  *(int32_t*)results = in->a + in->b;
  return grt_ok_status();
}

// Returns how many times it has been called in this state.
static grt_status_t tick(void* module_data, void* state, const void* args,
                         void* results) {
  int* ticks = state;
  *(int32_t*)results = ++*ticks;
  return grt_ok_status();
}

static grt_status_t alloc_state(void* module_data, grt_allocator_t allocator,
                                void** out_state) {
  ++((counters_t*)module_data)->states_alloced;
  return grt_allocator_calloc(allocator, sizeof(int), out_state);
}
static void free_state(void* module_data, void* state) {
  ++((counters_t*)module_data)->states_freed;
  grt_allocator_free(grt_allocator_system(), state);
}
static void destroy(void* module_data) {
  ++((counters_t*)module_data)->destroyed;
}

static const grt_vm_native_export_t good_exports[] = {
    {"add", "0ii_i", add},
    {"add.wide", "0II_I", add},
    {"tick", "0v_i", tick},
};
static const grt_vm_native_module_descriptor_t good = {
    "math", good_exports, 3, alloc_state, free_state, destroy};

static void test_lookup_and_call(void** state) {
  (void)state;
  counters_t counters = {0, 0, 0};
  grt_vm_module_t* module = NULL;
  GRT_EXPECT_OK(grt_vm_native_module_create(&good, &counters,
                                               grt_allocator_system(), &module));
  assert_true(grt_string_view_equal_cstring(grt_vm_module_name(module), "math"));
  assert_int_equal(module->vtable->export_count(module), 3);
  assert_int_equal(module->vtable->import_count(module), 0);
  const char* names[] = {"add", "add.wide", "tick"};
  for (uint32_t i = 0; i < 3; ++i) {
    grt_vm_function_t function;
    GRT_EXPECT_OK(grt_vm_module_lookup_function(
        module, grt_make_cstring_view(names[i]), &function));
    assert_int_equal(function.ordinal, i);
    assert_int_equal(function.linkage, GRT_VM_FUNCTION_LINKAGE_EXPORT);
    assert_ptr_equal(function.module, module);
    assert_true(grt_string_view_equal_cstring(function.name, names[i]));
  }
  grt_vm_function_t function;
  // Prefixes and names between rows are not matches.
  const char* missing[] = {"ad", "addx", "a", "zzz", ""};
  for (size_t i = 0; i < sizeof(missing) / sizeof(missing[0]); ++i) {
    assert_false(module->vtable->lookup_export(
        module, grt_make_cstring_view(missing[i]), &function));
  }
  grt_expect_error(
      grt_vm_module_lookup_function(module, grt_make_cstring_view("sub"),
                                    &function),
      GRT_STATUS_NOT_FOUND,
      "module 'math' has no function 'sub'; it exports: add, add.wide, tick");

  grt_vm_module_state_t* module_state = NULL;
  GRT_EXPECT_OK(module->vtable->alloc_state(module, grt_allocator_system(),
                                               &module_state));
  assert_int_equal(counters.states_alloced, 1);
  GRT_EXPECT_OK(module->vtable->initialize(module, module_state));

  _Alignas(GRT_VM_PACKED_ALIGNMENT) int32_t args[2] = {40, 2};
  _Alignas(GRT_VM_PACKED_ALIGNMENT) int32_t results[2] = {0, 0};
  grt_vm_call_t call = {module->vtable->export_at(module, 0), args,
                        sizeof(args), results, GRT_VM_PACKED_ALIGNMENT};
  GRT_EXPECT_OK(module->vtable->call(module, module_state, NULL, &call));
  assert_int_equal(results[0], 42);
  grt_vm_call_t ticking = {module->vtable->export_at(module, 2), NULL, 0,
                           results, GRT_VM_PACKED_ALIGNMENT};
  GRT_EXPECT_OK(module->vtable->call(module, module_state, NULL, &ticking));
  GRT_EXPECT_OK(module->vtable->call(module, module_state, NULL, &ticking));
  assert_int_equal(results[0], 2);

  call.argument_bytes = 4;
  grt_expect_error(
      module->vtable->call(module, module_state, NULL, &call),
      GRT_STATUS_INVALID_ARGUMENT,
      "math.add (0ii_i): called with 4 argument and 8 result bytes, expected "
      "8 and 8");
  call.function.ordinal = 3;
  grt_expect_error(module->vtable->call(module, module_state, NULL, &call),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "native module 'math' has no export 3");
  grt_expect_error(
      module->vtable->resolve_import(module, module_state, 0, &function, NULL),
      GRT_STATUS_INVALID_ARGUMENT, "native module 'math' has no import 0");

  module->vtable->free_state(module, module_state);
  assert_int_equal(counters.states_freed, 1);
  grt_vm_module_retain(module);
  grt_vm_module_release(module);
  assert_int_equal(counters.destroyed, 0);
  grt_vm_module_release(module);
  assert_int_equal(counters.destroyed, 1);
}

static void test_stateless_module_gets_null_state(void** state) {
  (void)state;
  static const grt_vm_native_export_t exports[] = {{"add", "0ii_i", add}};
  static const grt_vm_native_module_descriptor_t bare = {"bare", exports, 1,
                                                         NULL, NULL, NULL};
  grt_vm_module_t* module = NULL;
  GRT_EXPECT_OK(grt_vm_native_module_create(&bare, NULL,
                                               grt_allocator_system(), &module));
  grt_vm_module_state_t* module_state = (grt_vm_module_state_t*)&module_state;
  GRT_EXPECT_OK(module->vtable->alloc_state(module, grt_allocator_system(),
                                               &module_state));
  assert_null(module_state);
  module->vtable->free_state(module, module_state);
  grt_vm_module_release(module);
}

static void test_module_data_by_descriptor(void** state) {
  (void)state;
  counters_t counters = {0, 0, 0};
  grt_vm_module_t* module = NULL;
  GRT_EXPECT_OK(grt_vm_native_module_create(&good, &counters,
                                               grt_allocator_system(), &module));
  assert_ptr_equal(grt_vm_native_module_data(module, &good), &counters);
  // Another descriptor (or no module) never hands the data out.
  static const grt_vm_native_module_descriptor_t other = {
      "math", good_exports, 3, NULL, NULL, NULL};
  assert_null(grt_vm_native_module_data(module, &other));
  assert_null(grt_vm_native_module_data(NULL, &good));
  grt_vm_module_release(module);
}

static void expect_create_error(const grt_vm_native_module_descriptor_t* desc,
                                const char* fragment) {
  counters_t counters = {0, 0, 0};
  grt_vm_module_t* module = NULL;
  grt_expect_error(grt_vm_native_module_create(desc, &counters,
                                                  grt_allocator_system(),
                                                  &module),
                      GRT_STATUS_INVALID_ARGUMENT, fragment);
  assert_null(module);
  assert_int_equal(counters.destroyed, 0);
}

static void test_table_errors(void** state) {
  (void)state;
  static const grt_vm_native_export_t unsorted[] = {
      {"a", "0v_v", add}, {"c", "0v_v", add}, {"b", "0v_v", add}};
  static const grt_vm_native_module_descriptor_t unsorted_desc = {
      "m", unsorted, 3, NULL, NULL, destroy};
  expect_create_error(&unsorted_desc,
                      "native module 'm': exports not sorted: 'c' (row 1) "
                      "before 'b' (row 2)");
  static const grt_vm_native_export_t duplicate[] = {{"a", "0v_v", add},
                                                     {"a", "0i_v", add}};
  static const grt_vm_native_module_descriptor_t duplicate_desc = {
      "m", duplicate, 2, NULL, NULL, destroy};
  expect_create_error(&duplicate_desc,
                      "native module 'm': duplicate export 'a' (rows 0 and 1)");
  static const grt_vm_native_export_t bad_cconv[] = {{"a", "0x_v", add}};
  static const grt_vm_native_module_descriptor_t bad_cconv_desc = {
      "m", bad_cconv, 1, NULL, NULL, destroy};
  expect_create_error(&bad_cconv_desc,
                      "invalid calling convention '0x_v': unknown type 'x'");
  expect_create_error(&bad_cconv_desc, "; native module 'm', export 'a'");
  static const grt_vm_native_export_t no_fn[] = {{"a", "0v_v", NULL}};
  static const grt_vm_native_module_descriptor_t no_fn_desc = {
      "m", no_fn, 1, NULL, NULL, destroy};
  expect_create_error(&no_fn_desc,
                      "native module 'm': export row 0 lacks a name, calling "
                      "convention or function");
  static const grt_vm_native_module_descriptor_t dotted = {
      "m.x", good_exports, 3, NULL, NULL, destroy};
  expect_create_error(&dotted,
                      "native module name must be non-empty and contain no "
                      "'.', got 'm.x'");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lookup_and_call),
      cmocka_unit_test(test_stateless_module_gets_null_state),
      cmocka_unit_test(test_table_errors),
      cmocka_unit_test(test_module_data_by_descriptor),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
