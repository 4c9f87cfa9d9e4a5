// Contexts: state allocation, import resolution by name and signature,
// optional imports, and every linking error.
#include "vm/context.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "vm/native_module.h"
#include "vm/signature.h"
#include "vm/test_support.h"

//===----------------------------------------------------------------------===//
// "math": the native module imported from.
//===----------------------------------------------------------------------===//

static grt_status_t add(void* module_data, void* state, const void* args,
                        void* results) {
  const struct { int32_t a, b; }* in = args;
  *(int32_t*)results = in->a + in->b;
  return grt_ok_status();
}
static grt_status_t negate(void* module_data, void* state, const void* args,
                           void* results) {
  *(int64_t*)results = -*(const int64_t*)args;
  return grt_ok_status();
}
static const grt_vm_native_export_t math_exports[] = {
    {"add", "0ii_i", add},
    {"negate", "0I_I", negate},
};
static const grt_vm_native_module_descriptor_t math_descriptor = {
    "math", math_exports, 2, NULL, NULL, NULL};

static grt_vm_module_t* make_math(void) {
  grt_vm_module_t* module = NULL;
  GRT_EXPECT_OK(grt_vm_native_module_create(&math_descriptor, NULL,
                                               grt_allocator_system(), &module));
  return module;
}

//===----------------------------------------------------------------------===//
// "app": a module with imports, recording what the context does to it.
//===----------------------------------------------------------------------===//

#define APP_MAX_IMPORTS 4

typedef struct app_module_t {
  grt_vm_module_t base;
  const grt_vm_import_t* imports;
  uint32_t import_count;
  const char* fail_initialize;  // non-NULL: initialize fails with this
  int* destroyed;
} app_module_t;

typedef struct app_state_t {
  bool resolved[APP_MAX_IMPORTS];
  grt_vm_function_t targets[APP_MAX_IMPORTS];
  grt_vm_module_state_t* target_states[APP_MAX_IMPORTS];
  int initialized;
} app_state_t;

static int app_states_freed = 0;

static void app_destroy(grt_vm_module_t* module) {
  app_module_t* app = (app_module_t*)module;
  ++*app->destroyed;
  grt_allocator_free(module->allocator, app);
}
static uint32_t app_export_count(const grt_vm_module_t* module) { return 0; }
static grt_vm_function_t app_export_at(grt_vm_module_t* module,
                                       uint32_t ordinal) {
  grt_vm_function_t none = {0};
  fail_msg("app exports nothing");
  return none;
}
static bool app_lookup_export(grt_vm_module_t* module, grt_string_view_t name,
                              grt_vm_function_t* out_function) {
  return false;
}
static uint32_t app_import_count(const grt_vm_module_t* module) {
  return ((const app_module_t*)module)->import_count;
}
static grt_vm_import_t app_import_at(const grt_vm_module_t* module,
                                     uint32_t ordinal) {
  return ((const app_module_t*)module)->imports[ordinal];
}
static grt_status_t app_alloc_state(grt_vm_module_t* module,
                                    grt_allocator_t allocator,
                                    grt_vm_module_state_t** out_state) {
  app_state_t* state = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, sizeof(*state), (void**)&state));
  *out_state = (grt_vm_module_state_t*)state;
  return grt_ok_status();
}
static void app_free_state(grt_vm_module_t* module,
                           grt_vm_module_state_t* state) {
  ++app_states_freed;
  grt_allocator_free(grt_allocator_system(), state);
}
static grt_status_t app_resolve_import(grt_vm_module_t* module,
                                       grt_vm_module_state_t* module_state,
                                       uint32_t ordinal,
                                       const grt_vm_function_t* target,
                                       grt_vm_module_state_t* target_state) {
  app_state_t* state = (app_state_t*)module_state;
  assert_false(state->resolved[ordinal]);
  state->resolved[ordinal] = true;
  state->targets[ordinal] = *target;
  state->target_states[ordinal] = target_state;
  return grt_ok_status();
}
static grt_status_t app_initialize(grt_vm_module_t* module,
                                   grt_vm_module_state_t* module_state) {
  app_module_t* app = (app_module_t*)module;
  ++((app_state_t*)module_state)->initialized;
  if (app->fail_initialize) {
    return grt_make_status(GRT_STATUS_FAILED_PRECONDITION, "%s",
                           app->fail_initialize);
  }
  return grt_ok_status();
}
static grt_status_t app_call(grt_vm_module_t* module,
                             grt_vm_module_state_t* state,
                             grt_vm_stack_t* stack, const grt_vm_call_t* call) {
  return grt_make_status(GRT_STATUS_UNIMPLEMENTED, "app has no functions");
}
static const grt_vm_module_vtable_t app_vtable = {
    app_destroy,       app_export_count, app_export_at,      app_lookup_export,
    app_import_count,  app_import_at,    app_alloc_state,    app_free_state,
    app_resolve_import, app_initialize,  app_call,           NULL,
    NULL,
};

static int app_destroyed = 0;

static grt_vm_module_t* make_app(const char* name,
                                 const grt_vm_import_t* imports,
                                 uint32_t import_count) {
  app_module_t* app = NULL;
  GRT_EXPECT_OK(grt_allocator_calloc(grt_allocator_system(), sizeof(*app),
                                        (void**)&app));
  grt_vm_module_initialize(&app->base, &app_vtable, grt_make_cstring_view(name),
                           grt_allocator_system());
  app->imports = imports;
  app->import_count = import_count;
  app->destroyed = &app_destroyed;
  return &app->base;
}

static grt_vm_import_t import_of(const char* name, const char* cconv,
                                 bool optional) {
  grt_vm_import_t import = {grt_make_cstring_view(name),
                            grt_make_cstring_view(cconv), optional};
  return import;
}

static grt_vm_instance_t* make_instance(void) {
  grt_vm_instance_t* instance = NULL;
  GRT_EXPECT_OK(grt_vm_instance_create(grt_allocator_system(), &instance));
  return instance;
}

//===----------------------------------------------------------------------===//
// Tests
//===----------------------------------------------------------------------===//

static void test_resolves_imports_and_optional(void** state) {
  (void)state;
  app_destroyed = 0;
  app_states_freed = 0;
  grt_vm_instance_t* instance = make_instance();
  grt_vm_import_t imports[] = {
      import_of("math.negate", "0I_I", false),
      import_of("math.sub", "0ii_i", true),    // missing function, optional
      import_of("gpu.launch", "0r_v", true),   // missing module, optional
      import_of("math.add", "0ii_i", false),
  };
  grt_vm_module_t* modules[] = {make_math(), make_app("app", imports, 4)};
  grt_vm_context_t* context = NULL;
  GRT_EXPECT_OK(grt_vm_context_create(instance, modules, 2,
                                         grt_allocator_system(), &context));
  // The context holds its own references.
  grt_vm_module_release(modules[0]);
  grt_vm_module_release(modules[1]);
  grt_vm_instance_release(instance);

  assert_int_equal(grt_vm_context_module_count(context), 2);
  assert_ptr_equal(grt_vm_context_instance(context), instance);
  assert_ptr_equal(grt_vm_context_module_at(context, 1), modules[1]);
  app_state_t* app_state = (app_state_t*)grt_vm_context_state_at(context, 1);
  assert_ptr_equal(grt_vm_context_state_of(context, modules[1]),
                   (grt_vm_module_state_t*)app_state);
  assert_int_equal(app_state->initialized, 1);
  assert_true(app_state->resolved[0]);
  assert_false(app_state->resolved[1]);
  assert_false(app_state->resolved[2]);
  assert_true(app_state->resolved[3]);
  assert_ptr_equal(app_state->targets[0].module, modules[0]);
  assert_true(grt_string_view_equal_cstring(app_state->targets[0].name,
                                            "negate"));
  assert_int_equal(app_state->targets[3].ordinal, 0);
  assert_null(app_state->target_states[3]);  // math is stateless

  // The resolved target is callable with the target's state.
  _Alignas(GRT_VM_PACKED_ALIGNMENT) int64_t in = 5;
  _Alignas(GRT_VM_PACKED_ALIGNMENT) int64_t out = 0;
  grt_vm_call_t call = {app_state->targets[0], &in, sizeof(in), &out,
                        sizeof(out)};
  grt_vm_module_t* math = app_state->targets[0].module;
  GRT_EXPECT_OK(
      math->vtable->call(math, app_state->target_states[0], NULL, &call));
  assert_int_equal(out, -5);

  grt_vm_function_t function;
  GRT_EXPECT_OK(grt_vm_context_resolve_function(
      context, grt_make_cstring_view("math.add"), &function));
  assert_ptr_equal(function.module, modules[0]);
  grt_expect_error(grt_vm_context_resolve_function(
                          context, grt_make_cstring_view("math.mul"), &function),
                      GRT_STATUS_NOT_FOUND,
                      "module 'math' has no function 'mul'; it exports: add, "
                      "negate");
  grt_expect_error(grt_vm_context_resolve_function(
                          context, grt_make_cstring_view("hal.x"), &function),
                      GRT_STATUS_NOT_FOUND,
                      "no module named 'hal' in the context (looking up "
                      "'hal.x'); modules: math, app");
  grt_expect_error(grt_vm_context_resolve_function(
                          context, grt_make_cstring_view("main"), &function),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "function name 'main' is not a full name "
                      "'module.function'");

  grt_vm_context_retain(context);
  grt_vm_context_release(context);
  assert_int_equal(app_destroyed, 0);
  grt_vm_context_release(context);
  assert_int_equal(app_states_freed, 1);
  assert_int_equal(app_destroyed, 1);
}

// Creating a context over |modules| fails with |code| and |fragment|, and
// every state that was allocated is freed again.
static void expect_link_error(grt_vm_module_t** modules, size_t count,
                              grt_status_code_t code, const char* fragment,
                              int expected_states_freed) {
  app_states_freed = 0;
  grt_vm_instance_t* instance = make_instance();
  grt_vm_context_t* context = NULL;
  grt_expect_error(grt_vm_context_create(instance, modules, count,
                                            grt_allocator_system(), &context),
                      code, fragment);
  assert_null(context);
  assert_int_equal(app_states_freed, expected_states_freed);
  grt_vm_instance_release(instance);
  for (size_t i = 0; i < count; ++i) grt_vm_module_release(modules[i]);
}

static void test_missing_function(void** state) {
  (void)state;
  grt_vm_import_t imports[] = {import_of("math.sub", "0ii_i", false)};
  grt_vm_module_t* modules[] = {make_math(), make_app("app", imports, 1)};
  expect_link_error(modules, 2, GRT_STATUS_NOT_FOUND,
                    "module 'app' imports 'math.sub' but module 'math' does "
                    "not export 'sub'; it exports: add, negate",
                    1);
}

static void test_missing_module(void** state) {
  (void)state;
  grt_vm_import_t imports[] = {import_of("hal.buffer.length", "0r_I", false)};
  grt_vm_module_t* modules[] = {make_math(), make_app("app", imports, 1)};
  expect_link_error(modules, 2, GRT_STATUS_NOT_FOUND,
                    "module 'app' imports 'hal.buffer.length' but no module "
                    "named 'hal' is registered before it; registered before "
                    "it: math",
                    1);
}

static void test_dependency_listed_after_importer(void** state) {
  (void)state;
  grt_vm_import_t imports[] = {import_of("math.add", "0ii_i", false)};
  grt_vm_module_t* modules[] = {make_app("app", imports, 1), make_math()};
  expect_link_error(modules, 2, GRT_STATUS_NOT_FOUND,
                    "no module named 'math' is registered before it (it comes "
                    "later: list dependencies first); registered before it: "
                    "(none)",
                    1);
}

static void test_signature_mismatch(void** state) {
  (void)state;
  grt_vm_import_t imports[] = {import_of("math.negate", "0I_i", true)};
  grt_vm_module_t* modules[] = {make_math(), make_app("app", imports, 1)};
  expect_link_error(modules, 2, GRT_STATUS_INCOMPATIBLE,
                    "import 'math.negate' expects signature 0I_i but module "
                    "'math' exports 0I_I; in module 'app'",
                    1);
}

static void test_bad_import_names_and_signatures(void** state) {
  (void)state;
  grt_vm_import_t not_full[] = {import_of("negate", "0I_I", false)};
  grt_vm_module_t* first[] = {make_math(), make_app("app", not_full, 1)};
  expect_link_error(first, 2, GRT_STATUS_INVALID_ARGUMENT,
                    "module 'app' imports 'negate', which is not a full name "
                    "'module.function'",
                    1);
  grt_vm_import_t bad_cconv[] = {import_of("math.negate", "0I_Iz", false)};
  grt_vm_module_t* second[] = {make_math(), make_app("app", bad_cconv, 1)};
  expect_link_error(second, 2, GRT_STATUS_INVALID_ARGUMENT,
                    "invalid calling convention '0I_Iz': unknown type 'z' (expected "
                    "one of i I f F r C D v) at position 4; import 'math.negate' "
                    "of module 'app'",
                    1);
}

static void test_initialize_failure_frees_states(void** state) {
  (void)state;
  grt_vm_module_t* first = make_app("first", NULL, 0);
  grt_vm_module_t* second = make_app("second", NULL, 0);
  ((app_module_t*)second)->fail_initialize = "globals do not fit";
  grt_vm_module_t* modules[] = {first, second};
  expect_link_error(modules, 2, GRT_STATUS_FAILED_PRECONDITION,
                    "globals do not fit; initializing module 'second'", 2);
}

static void test_module_names(void** state) {
  (void)state;
  grt_vm_module_t* twice[] = {make_math(), make_app("x", NULL, 0), make_math()};
  expect_link_error(twice, 3, GRT_STATUS_ALREADY_EXISTS,
                    "module 'math' is given twice (positions 0 and 2)", 0);
  grt_vm_module_t* dotted[] = {make_app("a.b", NULL, 0)};
  expect_link_error(dotted, 1, GRT_STATUS_INVALID_ARGUMENT,
                    "module 0: name 'a.b' must be non-empty and contain no '.'",
                    0);
}

static void test_append_module(void** state) {
  (void)state;
  app_destroyed = 0;
  app_states_freed = 0;
  grt_vm_instance_t* instance = make_instance();
  grt_vm_module_t* math = make_math();
  grt_vm_context_t* context = NULL;
  GRT_EXPECT_OK(grt_vm_context_create(instance, &math, 1,
                                         grt_allocator_system(), &context));

  // Imports resolve against what is already there; init runs.
  grt_vm_import_t imports[] = {import_of("math.add", "0ii_i", false)};
  grt_vm_module_t* app = make_app("app", imports, 1);
  GRT_EXPECT_OK(grt_vm_context_append_module(context, app));
  assert_int_equal(grt_vm_context_module_count(context), 2);
  app_state_t* app_state = (app_state_t*)grt_vm_context_state_of(context, app);
  assert_non_null(app_state);
  assert_true(app_state->resolved[0]);
  assert_int_equal(app_state->initialized, 1);
  assert_ptr_equal(app_state->targets[0].module, math);

  // Failures leave the context as it was.
  grt_expect_error(grt_vm_context_append_module(context, app),
                      GRT_STATUS_ALREADY_EXISTS,
                      "module 'app' is already in the context (position 1)");
  grt_vm_module_t* dotted = make_app("a.b", NULL, 0);
  grt_expect_error(grt_vm_context_append_module(context, dotted),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "module 2: name 'a.b' must be non-empty and contain no "
                      "'.'");
  grt_vm_import_t missing[] = {import_of("math.sub", "0ii_i", false)};
  grt_vm_module_t* broken = make_app("broken", missing, 1);
  grt_expect_error(grt_vm_context_append_module(context, broken),
                      GRT_STATUS_NOT_FOUND,
                      "module 'broken' imports 'math.sub' but module 'math' "
                      "does not export 'sub'; it exports: add, negate");
  assert_int_equal(app_states_freed, 1);
  grt_vm_module_t* failing = make_app("failing", NULL, 0);
  ((app_module_t*)failing)->fail_initialize = "no room";
  grt_expect_error(grt_vm_context_append_module(context, failing),
                      GRT_STATUS_FAILED_PRECONDITION,
                      "no room; initializing module 'failing'");
  assert_int_equal(app_states_freed, 2);
  assert_int_equal(grt_vm_context_module_count(context), 2);
  assert_null(grt_vm_context_state_of(context, failing));

  // After failures the context still appends and resolves.
  grt_vm_module_t* late = make_app("late", imports, 1);
  GRT_EXPECT_OK(grt_vm_context_append_module(context, late));
  assert_int_equal(grt_vm_context_module_count(context), 3);
  assert_ptr_equal(grt_vm_context_module_at(context, 2), late);
  grt_vm_function_t function;
  GRT_EXPECT_OK(grt_vm_context_resolve_function(
      context, grt_make_cstring_view("math.negate"), &function));

  grt_vm_module_release(dotted);
  grt_vm_module_release(broken);
  grt_vm_module_release(failing);
  assert_int_equal(app_destroyed, 3);  // the context held no reference
  grt_vm_module_release(app);
  grt_vm_module_release(late);
  grt_vm_module_release(math);
  grt_vm_context_release(context);
  grt_vm_instance_release(instance);
  assert_int_equal(app_states_freed, 4);
  assert_int_equal(app_destroyed, 5);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_resolves_imports_and_optional),
      cmocka_unit_test(test_missing_function),
      cmocka_unit_test(test_missing_module),
      cmocka_unit_test(test_dependency_listed_after_importer),
      cmocka_unit_test(test_signature_mismatch),
      cmocka_unit_test(test_bad_import_names_and_signatures),
      cmocka_unit_test(test_initialize_failure_frees_states),
      cmocka_unit_test(test_module_names),
      cmocka_unit_test(test_append_module),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
