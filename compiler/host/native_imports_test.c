// The compiler's view of the native modules' ABI (native_imports.h):
// every import host.c declares matches the table; every declaration the
// table prints assembles to the table's calling convention and resolves
// against the runtime's hal and check modules.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/source_file_test_util.h"
#include "base/status_matchers.h"
#include "compiler/host/native_imports.h"
#include "compiler/mlir/parser.h"
#include "compiler/vm_asm/assembler.h"
#include "compiler/vm_asm/vm_syntax.h"
#include "runtime/check_abi.h"
#include "runtime/hal_abi.h"
#include "runtime/session.h"
#include "schemas/module_file.h"

static char* declaration(const grtc_native_import_t* import) {
  grt_string_builder_t out;
  grt_string_builder_init(grt_allocator_system(), &out);
  grtc_native_import_append_declaration(import, &out);
  GRT_EXPECT_OK(grt_string_builder_status(&out));
  const char* built = grt_string_builder_cstring(&out);
  char* text = malloc(strlen(built) + 1);
  memcpy(text, built, strlen(built) + 1);
  grt_string_builder_deinit(&out);
  return text;
}

static void test_table_shape(void** state) {
  (void)state;
  // One row per export of each module's table, in order, every name
  // "module.export" and found by lookup.
  size_t expected = 0;
#define COUNT(id, name, optional, doc) ++expected;
  GRT_HAL_ABI_EXPORT_LIST(COUNT)
  GRT_CHECK_ABI_EXPORT_LIST(COUNT)
#undef COUNT
  assert_int_equal(grtc_native_import_count(), expected);
  assert_null(grtc_native_import_at(expected));
  for (size_t i = 0; i < expected; ++i) {
    const grtc_native_import_t* import = grtc_native_import_at(i);
    assert_ptr_equal(grtc_native_import_lookup(grt_make_cstring_view(import->name)),
                     import);
    assert_true(strncmp(import->name, "hal.", 4) == 0 ||
                strncmp(import->name, "check.", 6) == 0);
    assert_false(import->optional);
    assert_true(strlen(import->doc) > 0);
  }
  assert_null(grtc_native_import_lookup(grt_make_cstring_view("hal.nothing")));

  const grtc_native_import_t* dispatch =
      grtc_native_import_lookup(grt_make_cstring_view("hal.command_buffer.dispatch"));
  assert_non_null(dispatch);
  assert_string_equal(dispatch->calling_convention, "0rriiiiCiDCirIID_v");
  assert_int_equal(dispatch->argument_count, 8);
  assert_int_equal(dispatch->result_count, 0);
  assert_string_equal(dispatch->arguments[7].name, "bindings");
  assert_null(dispatch->arguments[7].type);
  assert_int_equal(dispatch->arguments[7].group_count, 4);
  assert_string_equal(dispatch->arguments[7].group[1].type, "!hal.buffer");
  char* text = declaration(dispatch);
  assert_string_equal(
      text,
      "vm.import private @hal.command_buffer.dispatch(%cb : !hal.command_buffer, "
      "%executable : !hal.executable, %entry_point : i32, %x : i32, %y : i32, %z : i32, "
      "%constants : i32 ..., %bindings : tuple<i32, !hal.buffer, i64, i64> ...)");
  free(text);

  const grtc_native_import_t* query =
      grtc_native_import_lookup(grt_make_cstring_view("hal.device.query.i64"));
  assert_non_null(query);
  text = declaration(query);
  assert_string_equal(text,
                      "vm.import private @hal.device.query.i64(%device : !hal.device, "
                      "%category : !vm.buffer, %key : !vm.buffer) -> (i32, i64)");
  free(text);
  const grtc_native_import_t* count =
      grtc_native_import_lookup(grt_make_cstring_view("hal.devices.count"));
  assert_string_equal(count->calling_convention, "0v_i");
  assert_int_equal(count->argument_count, 0);
  text = declaration(count);
  assert_string_equal(text, "vm.import private @hal.devices.count() -> i32");
  free(text);
}

//===----------------------------------------------------------------------===//
// host.c's declarations
//===----------------------------------------------------------------------===//

// Each run of adjacent C string literals in |source| (separated only by
// white space) joined into one string, in order; escapes other than \" and
// \\ are kept as written. Returns how many there are.
static size_t join_string_literals(const char* source, char** out, size_t capacity) {
  size_t count = 0;
  const char* p = source;
  while (*p) {
    if (p[0] == '/' && p[1] == '/') {  // comments may hold quotes
      p = strchr(p, '\n');
      if (!p) break;
      continue;
    }
    if (p[0] == '/' && p[1] == '*') {
      p = strstr(p + 2, "*/");
      if (!p) break;
      p += 2;
      continue;
    }
    if (p[0] == '\'') {  // '"' is not a string
      p += p[1] == '\\' ? 4 : 3;
      continue;
    }
    if (*p != '"') {
      ++p;
      continue;
    }
    size_t size = 0;
    char* joined = calloc(1, strlen(p) + 1);
    for (;;) {
      ++p;  // the opening quote
      while (*p && *p != '"') {
        if (*p == '\\' && (p[1] == '"' || p[1] == '\\')) ++p;
        joined[size++] = *p++;
      }
      if (*p) ++p;  // the closing quote
      const char* next = p;
      while (*next == ' ' || *next == '\n' || *next == '\t' || *next == '\r') ++next;
      if (*next != '"') break;
      p = next;
    }
    if (count < capacity) {
      out[count] = joined;
    } else {
      free(joined);
    }
    ++count;
  }
  return count;
}

// Compares every "vm.import ..." string of |source| with the table's
// declaration of that import; appends differences to |report|.
static int check_declarations(const char* source, int* out_found, char* report,
                              size_t capacity) {
  enum { kMaxLiterals = 4096 };
  static char* literals[kMaxLiterals];
  size_t count = join_string_literals(source, literals, kMaxLiterals);
  assert_true(count <= kMaxLiterals);
  int problems = 0;
  size_t used = 0;
  report[0] = '\0';
  *out_found = 0;
  for (size_t i = 0; i < count; ++i) {
    const char* text = literals[i];
    if (strncmp(text, "vm.import ", 10) == 0) {
      ++*out_found;
      const char* at = strchr(text, '@');
      const char* open = at ? strchr(at, '(') : NULL;
      const grtc_native_import_t* import =
          open ? grtc_native_import_lookup(grt_make_string_view(at + 1, (size_t)(open - at - 1)))
               : NULL;
      char* expected = import ? declaration(import) : NULL;
      if (!expected || strcmp(expected, text) != 0) {
        ++problems;
        int n = snprintf(report + used, capacity - used,
                         "host.c declares\n  %s\nthe table (runtime/*_abi.h) says\n  %s\n", text,
                         expected ? expected : "(no such export)");
        if (n > 0 && (size_t)n < capacity - used) used += (size_t)n;
      }
      free(expected);
    }
    free(literals[i]);
  }
  return problems;
}

static void test_host_declarations_match_the_table(void** state) {
  (void)state;
  char* source = grt_test_read_source_file(GRT_SOURCE_DIR, "compiler/host/host.c");
  static char report[1 << 16];
  int found = 0;
  int problems = check_declarations(source, &found, report, sizeof(report));
  if (problems) fprintf(stderr, "%s", report);
  assert_int_equal(problems, 0);
  print_message("compiler/host/host.c declares %d imports as text; all match\n", found);
  if (found == 0) {
    // Once host.c declares its imports from the table it spells none.
    if (!strstr(source, "grtc_native_import")) {
      fail_msg("compiler/host/host.c declares no imports as text and does not use "
               "compiler/host/native_imports.h");
    }
  }
  free(source);
}

// The check notices a wrong type, a missing argument and an unknown import.
static void test_declaration_check_catches_differences(void** state) {
  (void)state;
  static char report[1 << 16];
  int found = 0;
  const char* good =
      "x = \"vm.import private @hal.buffer.load(%buffer : !hal.buffer, %offset : i64, \"\n"
      "    \"%length : i32) -> i32\";";
  assert_int_equal(check_declarations(good, &found, report, sizeof(report)), 0);
  assert_int_equal(found, 1);
  const char* bad =
      "// a \"comment\" with quotes, and '\"'\n"
      "\"vm.import private @hal.buffer.load(%buffer : !hal.buffer, %offset : i32, \"\n"
      "\"%length : i32) -> i32\",\n"
      "\"vm.import private @hal.fence.create() -> !hal.fence\",\n"
      "\"vm.import private @hal.frob(%x : i32)\"\n";
  assert_int_equal(check_declarations(bad, &found, report, sizeof(report)), 3);
  assert_int_equal(found, 3);
  assert_non_null(strstr(report, "%offset : i32"));
  assert_non_null(strstr(report, "@hal.fence.create(%device : !hal.device) -> !hal.fence"));
  assert_non_null(strstr(report, "(no such export)"));
}

//===----------------------------------------------------------------------===//
// The declarations assemble and resolve
//===----------------------------------------------------------------------===//

static void test_declarations_assemble_and_resolve(void** state) {
  (void)state;
  grt_allocator_t allocator = grt_allocator_system();
  grt_string_builder_t text;
  grt_string_builder_init(allocator, &text);
  grt_string_builder_append_cstring(&text, "vm.module @m {\n");
  for (size_t i = 0; i < grtc_native_import_count(); ++i) {
    grt_string_builder_append_cstring(&text, "  ");
    grtc_native_import_append_declaration(grtc_native_import_at(i), &text);
    grt_string_builder_append_cstring(&text, "\n");
  }
  grt_string_builder_append_cstring(&text, "}\n");
  GRT_EXPECT_OK(grt_string_builder_status(&text));

  static const grtc_dialect_syntax_t* const dialects[] = {&grtc_vm_dialect_syntax};
  const grtc_parse_options_t options = {dialects, 1};
  grtc_module_t* parsed = NULL;
  GRT_EXPECT_OK(grtc_parse_source(grt_string_builder_view(&text), "imports.mlir", &options,
                                  allocator, &parsed));
  grt_module_writer_t* writer = NULL;
  GRT_EXPECT_OK(grt_module_writer_create(allocator, &writer));
  grtc_operation_t* vm_module = grtc_vm_find_module(parsed);
  assert_non_null(vm_module);
  GRT_EXPECT_OK(grtc_vm_assemble(vm_module, "imports.mlir", allocator, writer));
  void* data = NULL;
  size_t size = 0;
  GRT_EXPECT_OK(grt_module_writer_finish(writer, &data, &size));

  // The assembler derives each calling convention from the vm types: it
  // must be the table's.
  grt_module_file_t* file = NULL;
  GRT_EXPECT_OK(grt_module_file_open_memory(grt_make_const_byte_span(data, size), allocator,
                                            &file));
  assert_int_equal(grt_module_file_info(file)->import_count, grtc_native_import_count());
  for (uint32_t i = 0; i < grt_module_file_info(file)->import_count; ++i) {
    grt_module_import_t import = grt_module_file_import(file, i);
    const grtc_native_import_t* row = grtc_native_import_lookup(import.full_name);
    assert_non_null(row);
    if (!grt_string_view_equal_cstring(import.calling_convention, row->calling_convention)) {
      fail_msg("%s: assembled as %.*s, the table says %s", row->name,
               GRT_SV_ARG(import.calling_convention), row->calling_convention);
    }
    assert_int_equal(import.optional, row->optional);
  }
  grt_module_file_release(file);

  // A session resolves every import against its hal and check modules
  // (names and calling conventions).
  grt_runtime_instance_t* instance = NULL;
  GRT_EXPECT_OK(grt_runtime_instance_create(NULL, &instance));
  grt_hal_device_t* device = NULL;
  GRT_EXPECT_OK(grt_runtime_instance_create_device(instance, "local-sync", NULL, &device));
  grt_runtime_session_t* session = NULL;
  GRT_EXPECT_OK(grt_runtime_session_create(instance, device, &session));
  GRT_EXPECT_OK(grt_runtime_session_append_module_from_memory(
      session, grt_make_const_byte_span(data, size)));
  grt_runtime_session_release(session);
  grt_hal_device_release(device);
  grt_runtime_instance_release(instance);

  grt_allocator_free(allocator, data);
  grt_module_writer_destroy(writer);
  grtc_module_destroy(parsed);
  grt_string_builder_deinit(&text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_shape),
      cmocka_unit_test(test_host_declarations_match_the_table),
      cmocka_unit_test(test_declaration_check_catches_differences),
      cmocka_unit_test(test_declarations_assemble_and_resolve),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
