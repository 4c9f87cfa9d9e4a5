// Driver tests: a file compiles to a module file that opens, and the
// driver's own errors (no vm.module, unreadable input) name the file.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/file.h"
#include "compiler/driver/driver.h"

static void expect_error(grt_status_t status, const char* fragment) {
  assert_non_null(status);
  if (!strstr(grt_status_message(status), fragment)) {
    fail_msg("'%s' lacks '%s'", grt_status_message(status), fragment);
  }
  grt_status_free(status);
}

static void temp_path(char* buffer, size_t size, const char* name) {
  const char* dir = getenv("TMPDIR");
  snprintf(buffer, size, "%s/grtc_driver_test_%ld_%s", dir ? dir : "/tmp", (long)getpid(),
           name);
}

static void test_compiles_file(void** state) {
  char input[256], output[256];
  temp_path(input, sizeof(input), "in.mlir");
  temp_path(output, sizeof(output), "out.vmfb");
  const char* text =
      "module {\n"
      "  vm.module @wrapped {\n"
      "    vm.func @one() -> i32 {\n"
      "      %c = vm.const.i32 1\n"
      "      vm.return %c : i32\n"
      "    }\n"
      "    vm.export @one\n"
      "  }\n"
      "}\n";
  assert_true(grt_status_consume_ok(grt_file_write_contents(input, text, strlen(text))));
  grtc_compile_options_t options = {0};
  assert_true(grt_status_consume_ok(
      grtc_compile_file(input, output, &options, grt_allocator_system())));
  grt_module_file_t* file = NULL;
  assert_true(grt_status_consume_ok(
      grt_module_file_open_path(output, grt_allocator_system(), &file)));
  assert_true(grt_string_view_equal_cstring(grt_module_file_info(file)->name, "wrapped"));
  assert_int_equal(grt_module_file_info(file)->export_count, 1);
  grt_module_file_release(file);
  remove(input);
  remove(output);
}

static void test_errors(void** state) {
  grtc_compile_options_t options = {0};
  grt_module_writer_t* writer = NULL;
  assert_true(grt_status_consume_ok(grt_module_writer_create(grt_allocator_system(), &writer)));
  const char* no_module = "func.func @f() {\n  func.return\n}\n";
  expect_error(grtc_compile_source(no_module, strlen(no_module), "x.mlir", &options,
                                   grt_allocator_system(), writer),
               "expected a vm.module in 'x.mlir'");
  const char* bad = "vm.module @m {\n  vm.func @f() {\n    vm.nope\n  }\n}\n";
  expect_error(grtc_compile_source(bad, strlen(bad), "bad.mlir", &options,
                                   grt_allocator_system(), writer),
               "bad.mlir:3:5: error: unknown vm op 'vm.nope'");
  grt_module_writer_destroy(writer);
  expect_error(grtc_compile_file("/nonexistent/dir/in.mlir", "/tmp/never.vmfb", &options,
                                 grt_allocator_system()),
               "/nonexistent/dir/in.mlir");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_compiles_file),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
