// grt-check: the runner for end-to-end tests written as modules.
//
//   grt-check [--device=URI] [--expect_fail_message=fail_x=TEXT]... m.vmfb
//
// Every exported function named test_* must return without error and every
// one named fail_* must fail (vm.fail, a failed check.expect_*, a trap such
// as a division by zero or a stack overflow). A module with neither runs
// its export 'main', which must succeed: the StableHLO testdata suite's
// layout; without 'main', every export not starting with "__" (IREE's
// check tests: iree-check-module runs each function). Each runs in a fresh session
// (its own VM context, hal and check modules) on one device, so no test
// sees another's globals. --expect_fail_message=fail_x=TEXT additionally
// requires fail_x's error ("CODE: message") to contain TEXT, so a fail_
// test that fails for the wrong reason is caught. One line per function,
// then "N passed, M failed" alone on a line; the exit status is nonzero on
// any failure and when the module has no test functions at all (a suite
// that tests nothing must not pass).
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "runtime/session.h"
#include "tools/flags.h"
#include "tools/run_session.h"
#include "vm/list.h"
#include "vm/signature.h"

static grt_flag_list_t grt_check_positionals;
static const char* grt_check_device = "local-sync";
static grt_flag_list_t grt_check_fail_messages;
static int64_t grt_check_timeout_ms = 0;
static grt_flag_list_t grt_check_trusted_keys;
static bool grt_check_require_signed = false;

static const grt_flag_t grt_check_flag_table[] = {
    {"device", 0, GRT_FLAG_STRING, &grt_check_device, "URI",
     "device to run on (default local-sync)"},
    {"timeout", 0, GRT_FLAG_INT, &grt_check_timeout_ms, "MS",
     "fail a test function with DEADLINE_EXCEEDED if it is still waiting on "
     "a fence after MS milliseconds (0, the default: no limit)"},
    GRT_TOOLS_SIGNATURE_FLAG_ROWS(&grt_check_trusted_keys,
                                  &grt_check_require_signed),
    {"expect_fail_message", 0, GRT_FLAG_LIST, &grt_check_fail_messages,
     "NAME=TEXT", "fail_* function NAME must fail with a message containing "
     "TEXT"},
};

static const grt_flags_spec_t grt_check_flags_spec = {
    "grt-check",
    "runs every test_* (must succeed) and fail_* (must fail) export of a "
    "module",
    "[flags] MODULE.vmfb", grt_check_flag_table,
    sizeof(grt_check_flag_table) / sizeof(grt_check_flag_table[0]),
    &grt_check_positionals};

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

// What one run of grt-check shares: the runtime, the device and the
// module file, opened and verified once for every test's session.
typedef struct grt_check_state_t {
  const char* path;
  grt_runtime_instance_t* instance;
  grt_hal_device_t* device;
  grt_module_file_t* file;
} grt_check_state_t;

// A fresh session holding the module; errors name the file.
static grt_status_t grt_check_open_session(const grt_check_state_t* state,
                                           grt_runtime_session_t** out) {
  GRT_RETURN_IF_ERROR(
      grt_runtime_session_create(state->instance, state->device, out));
  grt_status_t status = grt_tools_run_session_set_trust(
      *out, &grt_check_trusted_keys, grt_check_require_signed);
  if (grt_status_is_ok(status)) {
    status = grt_runtime_session_append_module_file(*out, state->file);
  }
  if (grt_status_is_ok(status) && grt_check_timeout_ms > 0) {
    status = grt_runtime_session_set_call_timeout(
        *out, grt_check_timeout_ms * 1000000);
  }
  if (!grt_status_is_ok(status)) {
    grt_runtime_session_release(*out);
    *out = NULL;
  }
  return grt_status_annotate(status, "appending module file '%s'",
                             state->path);
}

// The module appended last, i.e. the one under test.
static grt_vm_module_t* grt_check_module_of(grt_runtime_session_t* session) {
  grt_vm_context_t* context = grt_runtime_session_context(session);
  return grt_vm_context_module_at(context,
                                  grt_vm_context_module_count(context) - 1);
}

// Calls |function| in a fresh session; *out_call_status is how the call
// went. A returned failure is a harness problem (a test function with
// arguments, no memory for a session) and fails even a fail_ function.
static grt_status_t grt_check_call(const grt_check_state_t* state,
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
  grt_runtime_session_t* session = NULL;
  GRT_RETURN_IF_ERROR(grt_check_open_session(state, &session));
  grt_allocator_t allocator =
      grt_runtime_instance_host_allocator(state->instance);
  grt_vm_list_t* outputs = NULL;
  grt_vm_function_t fresh;
  grt_status_t status = grt_vm_module_lookup_function(
      grt_check_module_of(session), function->name, &fresh);
  if (grt_status_is_ok(status)) {
    status = grt_vm_list_create(grt_vm_type_def_variant(),
                                signature.results.size, allocator, &outputs);
  }
  if (grt_status_is_ok(status)) {
    *out_call_status =
        grt_runtime_session_call(session, &fresh, NULL, outputs);
    grt_vm_list_release(outputs);
  }
  grt_runtime_session_release(session);
  return status;
}

// The TEXT of --expect_fail_message=NAME=TEXT for |name|, or NULL.
static const char* grt_check_expected_message(grt_string_view_t name) {
  for (size_t i = 0; i < grt_check_fail_messages.count; ++i) {
    grt_string_view_t key, text;
    if (grt_string_view_split(
            grt_make_cstring_view(grt_check_fail_messages.values[i]), '=',
            &key, &text) &&
        grt_string_view_equal(key, name)) {
      return text.data;
    }
  }
  return NULL;
}

// Every --expect_fail_message must name a fail_* export, so a typo cannot
// silently check nothing.
static grt_status_t grt_check_validate_fail_messages(grt_vm_module_t* module) {
  for (size_t i = 0; i < grt_check_fail_messages.count; ++i) {
    const char* value = grt_check_fail_messages.values[i];
    grt_string_view_t key, text;
    bool expect_failure = false;
    grt_vm_function_t function;
    if (!grt_string_view_split(grt_make_cstring_view(value), '=', &key,
                               &text) ||
        key.size == 0 || text.size == 0) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "--expect_fail_message '%s': expected "
                             "NAME=TEXT, e.g. fail_x=division by zero",
                             value);
    }
    GRT_RETURN_IF_ERROR(grt_flags_check_name_length(
        "--expect_fail_message", key.data, key.size));
    grt_status_t status = grt_vm_module_lookup_function(module, key, &function);
    bool found = grt_status_is_ok(status);
    grt_status_free(status);
    if (!found || !grt_check_classify(key, &expect_failure) ||
        !expect_failure) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "--expect_fail_message '%s': '%.*s' is not a "
                             "fail_* function of the module",
                             value, GRT_SV_ARG(key));
    }
  }
  return grt_ok_status();
}

// Prints the line of one test function; returns whether it passed.
static bool grt_check_report(grt_string_view_t name, bool expect_failure,
                             grt_status_t harness_status,
                             grt_status_t status) {
  char error[2048] = "";
  if (!grt_status_is_ok(status)) grt_status_format(status, error, sizeof(error));
  const char* wanted = expect_failure ? grt_check_expected_message(name) : NULL;
  bool ok = grt_status_is_ok(harness_status) &&
            grt_status_is_ok(status) != expect_failure &&
            (!wanted || strstr(error, wanted) != NULL);
  printf("[ %s ] %.*s", ok ? "PASS" : "FAIL", GRT_SV_ARG(name));
  if (!grt_status_is_ok(harness_status)) {
    char harness[2048];
    grt_status_format(harness_status, harness, sizeof(harness));
    printf(": %s", harness);
  } else if (!grt_status_is_ok(status) && wanted && !ok) {
    printf(": failed with \"%s\", expected a message containing \"%s\"",
           error, wanted);
  } else if (!grt_status_is_ok(status)) {
    // A fail_ test shows what it failed with, so a wrong reason is visible.
    printf(": %s%s", expect_failure ? "failed as expected: " : "", error);
  } else if (expect_failure) {
    printf(": succeeded, but a fail_ function must fail");
  }
  printf("\n");
  return ok;
}

static grt_status_t grt_check_module(grt_check_state_t* state,
                                     bool* out_all_passed) {
  *out_all_passed = false;
  GRT_RETURN_IF_ERROR(grt_flags_check_name_length(
      "--device", grt_check_device, strlen(grt_check_device)));
  if (grt_check_timeout_ms < 0 || grt_check_timeout_ms > INT64_MAX / 1000000) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "--timeout=%" PRId64
                           ": expected 0 (no limit) or a positive number of "
                           "milliseconds",
                           grt_check_timeout_ms);
  }
  GRT_RETURN_IF_ERROR(grt_runtime_instance_create(NULL, &state->instance));
  GRT_RETURN_IF_ERROR(grt_runtime_instance_create_device(
      state->instance, grt_check_device, NULL, &state->device));
  GRT_RETURN_IF_ERROR(grt_module_file_open_path(
      state->path, grt_runtime_instance_host_allocator(state->instance),
      &state->file));
  // One session to list the exports; each test then gets its own.
  grt_runtime_session_t* listing = NULL;
  GRT_RETURN_IF_ERROR(grt_check_open_session(state, &listing));
  grt_vm_module_t* module = grt_check_module_of(listing);
  grt_status_t status = grt_check_validate_fail_messages(module);
  size_t passed = 0, failed = 0;
  uint32_t export_count = module->vtable->export_count(module);
  // Without test_*/fail_* exports, a module laid out as the StableHLO
  // testdata suite lays it out runs its one entry, 'main', as a test; a
  // module with neither, as IREE's check tests are written (iree-check-module
  // runs every function), runs each export but the "__"-prefixed ones the
  // compiler adds (__init), each as a test that must succeed.
  bool any_test = false, has_main = false;
  for (uint32_t i = 0; i < export_count; ++i) {
    bool ignored = false;
    grt_string_view_t name = module->vtable->export_at(module, i).name;
    any_test |= grt_check_classify(name, &ignored);
    has_main |= grt_string_view_equal_cstring(name, "main");
  }
  for (uint32_t i = 0; grt_status_is_ok(status) && i < export_count; ++i) {
    grt_vm_function_t function = module->vtable->export_at(module, i);
    bool expect_failure = false;
    bool is_main = !any_test && grt_string_view_equal_cstring(function.name, "main");
    bool is_plain = !any_test && !has_main &&
                    !grt_string_view_starts_with(function.name, grt_make_cstring_view("__"));
    if (!is_main && !is_plain && !grt_check_classify(function.name, &expect_failure)) continue;
    grt_status_t call_status = grt_ok_status();
    grt_status_t harness_status =
        grt_check_call(state, &function, &call_status);
    if (grt_check_report(function.name, expect_failure, harness_status,
                         call_status)) {
      ++passed;
    } else {
      ++failed;
    }
    grt_status_free(harness_status);
    grt_status_free(call_status);
  }
  if (grt_status_is_ok(status) && passed + failed == 0) {
    char exports[1024];
    status = grt_make_status(
        GRT_STATUS_NOT_FOUND,
        "'%s' has no test functions: expected exports named test_* or "
        "fail_*, one named main, or any not starting with \"__\"; it "
        "exports: %s",
        state->path,
        grt_vm_module_format_exports(module, exports, sizeof(exports)));
  } else if (grt_status_is_ok(status)) {
    printf("%zu passed, %zu failed\n", passed, failed);
  }
  *out_all_passed = failed == 0;
  grt_runtime_session_release(listing);
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
    grt_check_state_t state = {grt_check_positionals.values[0], NULL, NULL,
                               NULL};
    grt_status_t status = grt_check_module(&state, &all_passed);
    if (state.file) grt_module_file_release(state.file);
    if (state.device) grt_hal_device_release(state.device);
    if (state.instance) grt_runtime_instance_release(state.instance);
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
