// Driver tests: a file compiles to a module file that opens, the c-static
// output of a vm-dialect module, and the driver's own errors (no module,
// unreadable input, every bad option) name what was expected and given.
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
#include "base/status_matchers.h"
#include "compiler/driver/driver.h"

static const char kWrapped[] =
    "module {\n"
    "  vm.module @wrapped {\n"
    "    vm.func @one() -> i32 {\n"
    "      %c = vm.const.i32 1\n"
    "      vm.return %c : i32\n"
    "    }\n"
    "    vm.export @one\n"
    "  }\n"
    "}\n";

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
  const char* text = kWrapped;
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
  const char* no_module = "module {\n  \"test.op\"() : () -> ()\n}\n";
  expect_error(grtc_compile_source(no_module, strlen(no_module), "x.mlir", &options,
                                   grt_allocator_system(), writer),
               "expected a vm.module or StableHLO functions (func.func) in 'x.mlir'");
  const char* bad = "vm.module @m {\n  vm.func @f() {\n    vm.nope\n  }\n}\n";
  expect_error(grtc_compile_source(bad, strlen(bad), "bad.mlir", &options,
                                   grt_allocator_system(), writer),
               "bad.mlir:3:5: error: unknown vm op 'vm.nope'");
  grt_module_writer_destroy(writer);
  expect_error(grtc_compile_file("/nonexistent/dir/in.mlir", "/tmp/never.vmfb", &options,
                                 grt_allocator_system()),
               "/nonexistent/dir/in.mlir");
}

// Every option the driver checks, through grtc_compile_options_validate
// and through a compile call (which checks before reading anything).
static void test_option_errors(void** state) {
  static const struct {
    grtc_compile_options_t options;
    const char* message;
  } cases[] = {
      {{.targets = "cpu,tpu"},
       "unknown target 'tpu' in 'cpu,tpu'; expected a comma-separated list of cpu, "
       "vulkan, cuda"},
      {{.targets = "cpu,"}, "unknown target '' in 'cpu,'"},
      {{.targets = "cpu,cpu"}, "target 'cpu' is named twice in 'cpu,cpu'"},
      {{.cuda = {"sm_8", false}}, "CUDA arch 'sm_8' is not sm_XY"},
      {{.targets = "cpu,cuda", .output_format = GRTC_OUTPUT_FORMAT_C_STATIC},
       "output format c-static holds CPU kernels only; got target 'cuda'"},
      {{.output_format = (grtc_output_format_t)7},
       "output format 7 is not one of vmfb (0) and c-static (1)"},
      {{.opt_level = (grtc_opt_level_t)9}, "optimization level 9 is out of range"},
      {{.dump_after = "parse"},
       "unknown pass 'parse' to dump after; expected one of import, fold, dispatch, "
       "kernels, cpu, vulkan, host"},
      {{.output_format = GRTC_OUTPUT_FORMAT_C_STATIC, .c_static_name = "9lives"},
       "c-static name '9lives' is not a C identifier"},
      {{.output_format = GRTC_OUTPUT_FORMAT_C_STATIC, .c_static_name = "a-b"},
       "c-static name 'a-b' is not a C identifier"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    expect_error(grtc_compile_options_validate(&cases[i].options), cases[i].message);
    expect_error(grtc_compile_file("/nonexistent/in.mlir", "/tmp/never.vmfb",
                                   &cases[i].options, grt_allocator_system()),
                 cases[i].message);
  }
  grtc_compile_options_t defaults = {0};
  GRT_EXPECT_OK(grtc_compile_options_validate(&defaults));
  GRT_EXPECT_OK(grtc_compile_options_validate(NULL));
  grtc_compile_options_t every = {.targets = "cpu",
                                  .output_format = GRTC_OUTPUT_FORMAT_C_STATIC,
                                  .opt_level = GRTC_OPT_O3,
                                  .dump_after = "host",
                                  .c_static_name = "_model2"};
  GRT_EXPECT_OK(grtc_compile_options_validate(&every));

  // grtc_compile_source writes module files only.
  grt_module_writer_t* writer = NULL;
  GRT_EXPECT_OK(grt_module_writer_create(grt_allocator_system(), &writer));
  grtc_compile_options_t c_static = {.output_format = GRTC_OUTPUT_FORMAT_C_STATIC};
  expect_error(grtc_compile_source(kWrapped, strlen(kWrapped), "w.mlir", &c_static,
                                   grt_allocator_system(), writer),
               "use grtc_compile_source_c_static");
  grt_module_writer_destroy(writer);
}

// A vm-dialect module as c-static: no kernels, the bytes as a 64-byte
// aligned array whose contents open as the same module.
static void test_c_static_vm_module(void** state) {
  grt_string_builder_t out, header;
  grt_string_builder_init(grt_allocator_system(), &out);
  grt_string_builder_init(grt_allocator_system(), &header);
  grtc_compile_options_t options = {0};
  GRT_EXPECT_OK(grtc_compile_source_c_static(kWrapped, strlen(kWrapped), "w.mlir", &options,
                                             grt_allocator_system(), &out, &header));
  // The header declares the array and its size; no kernels, no register.
  const char* h = grt_string_builder_cstring(&header);
  assert_non_null(strstr(h, "#ifndef GRT_C_STATIC_wrapped_H_\n"));
  assert_non_null(strstr(h, "extern const unsigned char wrapped_vmfb[];\n"));
  assert_non_null(strstr(h, "extern const size_t wrapped_vmfb_size;\n"));
  assert_null(strstr(h, "_register"));
  grt_string_builder_deinit(&header);
  const char* text = grt_string_builder_cstring(&out);
  assert_non_null(strstr(text, "--output-format=c-static from\n// w.mlir.\n"));
  assert_non_null(strstr(text, "_Alignas(64) const unsigned char wrapped_vmfb["));
  assert_non_null(strstr(text, "const size_t wrapped_vmfb_size = "));
  assert_null(strstr(text, "wrapped_register"));

  // Decode the array back into bytes and open them.
  const char* array = "_Alignas(64) const unsigned char wrapped_vmfb[";
  const char* cursor = strstr(text, array) + strlen(array);
  size_t size = strtoul(cursor, NULL, 10);
  assert_true(size > 0);
  uint8_t* bytes = NULL;
  assert_int_equal(posix_memalign((void**)&bytes, 64, size), 0);
  cursor = strchr(cursor, '{');
  for (size_t i = 0; i < size; ++i) {
    cursor = strstr(cursor, "0x");
    assert_non_null(cursor);
    bytes[i] = (uint8_t)strtoul(cursor, (char**)&cursor, 16);
  }
  grt_module_file_t* file = NULL;
  GRT_EXPECT_OK(grt_module_file_open_memory(grt_make_const_byte_span(bytes, size),
                                            grt_allocator_system(), &file));
  assert_true(grt_string_view_equal_cstring(grt_module_file_info(file)->name, "wrapped"));
  grt_module_file_release(file);
  free(bytes);

  // The name option replaces the module's.
  grt_string_builder_clear(&out);
  options.c_static_name = "net";
  GRT_EXPECT_OK(grtc_compile_source_c_static(kWrapped, strlen(kWrapped), "w.mlir", &options,
                                             grt_allocator_system(), &out, NULL));
  assert_non_null(strstr(grt_string_builder_cstring(&out), "const size_t net_vmfb_size"));
  grt_string_builder_deinit(&out);
}

// The version is the CMake project's: MAJOR.MINOR.PATCH.
static void test_version(void** state) {
  unsigned major = 0, minor = 0, patch = 0;
  char rest = 0;
  assert_int_equal(
      sscanf(grtc_compiler_version(), "%u.%u.%u%c", &major, &minor, &patch, &rest), 3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_compiles_file),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_option_errors),
      cmocka_unit_test(test_c_static_vm_module),
      cmocka_unit_test(test_version),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
