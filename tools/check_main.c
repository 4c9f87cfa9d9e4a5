// grt-check: the runner for end-to-end VM tests written as modules.
//
//   grt-check prog.vmfb
//
// Every exported function named test_* must return without error and every
// one named fail_* must fail (vm.fail, a failed vm.check.*, a trap such as a
// division by zero or a stack overflow). Each runs in a fresh context so no
// test sees another's globals. One line per function, then "N passed, M
// failed" alone on a line; the exit status is nonzero on any failure and
// when the module has no test functions at all (a suite that tests nothing
// must not pass).
#include <stdio.h>
#include <string.h>

#include "tools/flags.h"
#include "tools/loaded_module.h"
#include "vm/invoke.h"
#include "vm/list.h"
#include "vm/signature.h"

static grt_flag_list_t grt_check_positionals;

static const grt_flags_spec_t grt_check_flags_spec = {
    "grt-check",
    "runs every test_* (must succeed) and fail_* (must fail) export of a "
    "VM module",
    "MODULE.vmfb", NULL, 0, &grt_check_positionals};

// X(prefix, whether the function is expected to fail)
#define GRT_CHECK_KIND_LIST(X) \
  X("test_", false)            \
  X("fail_", true)

// Whether |name| is a test function; *out_expect_failure says which kind.
static bool grt_check_classify(grt_string_view_t name,
                               bool* out_expect_failure) {
#define GRT_CHECK_MATCH(prefix, expect_failure)                          \
  if (grt_string_view_starts_with(name, grt_make_cstring_view(prefix))) { \
    *out_expect_failure = expect_failure;                                \
    return true;                                                         \
  }
  GRT_CHECK_KIND_LIST(GRT_CHECK_MATCH)
#undef GRT_CHECK_MATCH
  return false;
}

// Calls |function| in a fresh context; *out_call_status is how the call
// went. A returned failure is a harness problem (a test function with
// arguments, no memory for a context) and fails even a fail_ function.
static grt_status_t grt_check_call(const grt_tools_loaded_module_t* loaded,
                                   const grt_vm_function_t* function,
                                   grt_status_t* out_call_status) {
  *out_call_status = grt_ok_status();
  grt_vm_signature_t signature;
  GRT_RETURN_IF_ERROR(
      grt_vm_signature_parse(function->calling_convention, &signature));
  if (signature.arguments.size != 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "test functions take no arguments, but '%.*s' has "
                           "signature %.*s",
                           GRT_SV_ARG(function->name),
                           GRT_SV_ARG(signature.text));
  }
  grt_vm_context_t* context = NULL;
  GRT_RETURN_IF_ERROR(grt_tools_create_context(loaded, &context));
  grt_vm_list_t* outputs = NULL;
  grt_status_t status =
      grt_vm_list_create(grt_vm_type_def_variant(), signature.results.size,
                         loaded->allocator, &outputs);
  if (grt_status_is_ok(status)) {
    *out_call_status =
        grt_vm_invoke(context, function, NULL, outputs, loaded->allocator);
    grt_vm_list_release(outputs);
  }
  grt_vm_context_release(context);
  return status;
}

static grt_status_t grt_check_module(const char* path,
                                     grt_allocator_t allocator,
                                     bool* out_all_passed) {
  grt_tools_loaded_module_t loaded;
  GRT_RETURN_IF_ERROR(grt_tools_load_module(path, allocator, &loaded));
  grt_vm_module_t* module = loaded.module;
  size_t passed = 0, failed = 0;
  uint32_t export_count = module->vtable->export_count(module);
  for (uint32_t i = 0; i < export_count; ++i) {
    grt_vm_function_t function = module->vtable->export_at(module, i);
    bool expect_failure = false;
    if (!grt_check_classify(function.name, &expect_failure)) continue;
    grt_status_t status = grt_ok_status();
    grt_status_t harness_status = grt_check_call(&loaded, &function, &status);
    bool ok = grt_status_is_ok(harness_status) &&
              grt_status_is_ok(status) != expect_failure;
    if (ok) {
      ++passed;
    } else {
      ++failed;
    }
    printf("[ %s ] %.*s", ok ? "PASS" : "FAIL", GRT_SV_ARG(function.name));
    if (!grt_status_is_ok(harness_status)) {
      printf(": %s: %s", grt_status_code_name(grt_status_code(harness_status)),
             grt_status_message(harness_status));
      grt_status_free(harness_status);
    } else if (!grt_status_is_ok(status)) {
      // A fail_ test shows what it failed with, so a wrong reason is visible.
      printf(": %s%s: %s", expect_failure ? "failed as expected: " : "",
             grt_status_code_name(grt_status_code(status)),
             grt_status_message(status));
    } else if (expect_failure) {
      printf(": succeeded, but a fail_ function must fail");
    }
    printf("\n");
    grt_status_free(status);
  }
  grt_status_t status = grt_ok_status();
  if (passed + failed == 0) {
    char exports[1024];
    status = grt_make_status(
        GRT_STATUS_NOT_FOUND,
        "'%s' has no test functions: expected exports named test_* or "
        "fail_*; it exports: %s",
        path, grt_vm_module_format_exports(module, exports, sizeof(exports)));
  } else {
    printf("%zu passed, %zu failed\n", passed, failed);
  }
  *out_all_passed = failed == 0;
  grt_tools_unload_module(&loaded);
  return status;
}

int main(int argc, char** argv) {
  grt_allocator_t allocator = grt_allocator_system();
  int exit_code =
      grt_flags_parse_for_main(&grt_check_flags_spec, argc, argv, allocator);
  if (exit_code < 0 && grt_check_positionals.count != 1) {
    fprintf(stderr,
            "grt-check: expected one module file, got %zu arguments\n"
            "(run 'grt-check --help' for usage)\n",
            grt_check_positionals.count);
    exit_code = 2;
  }
  if (exit_code < 0) {
    bool all_passed = false;
    grt_status_t status = grt_check_module(grt_check_positionals.values[0],
                                           allocator, &all_passed);
    exit_code = all_passed ? 0 : 1;
    if (!grt_status_is_ok(status)) {
      fflush(stdout);
      fprintf(stderr, "grt-check: ");
      grt_status_fprint(stderr, status);
      grt_status_free(status);
      exit_code = 1;
    }
  }
  grt_flags_release(&grt_check_flags_spec, allocator);
  return exit_code;
}
