// Symbol tables that scale: a vm.module of 100 000 functions (each
// exported, the last calling the first) assembles, links and runs, and the
// module writer takes 100 000 functions, exports and transient sizes. With
// the linear symbol searches they replaced this ran for over 150 s; hashed
// it takes a few seconds, mostly parsing (the sanitizer tree runs 25 000).
// The test asserts no timing itself: a quadratic regression runs past the
// 60 s ctest timeout compiler/vm_asm/CMakeLists.txt gives it.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/string_builder.h"
#include "compiler/vm_asm/assembler.h"
#include "compiler/vm_asm/vm_syntax.h"
#include "vm/test_support.h"

// Fewer under the sanitizers (CMakeLists.txt).
#ifdef GRT_MANY_FUNCTIONS_COUNT
#define FUNCTION_COUNT GRT_MANY_FUNCTIONS_COUNT
#else
#define FUNCTION_COUNT 100000
#endif

static const grtc_dialect_syntax_t* const kDialects[] = {&grtc_vm_dialect_syntax};
static const grtc_parse_options_t kOptions = {kDialects, 1};

static void test_assemble_100k_functions(void** state) {
  (void)state;
  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  grt_string_builder_append_cstring(&text, "vm.module @many {\n");
  for (uint32_t i = 0; i < FUNCTION_COUNT; ++i) {
    if (i + 1 == FUNCTION_COUNT) {
      // The last one calls the first: a reference resolved through the
      // symbol table after 100 000 definitions.
      grt_string_builder_appendf(
          &text,
          "  vm.func @f%u(%%a : i32) -> i32 {\n"
          "    %%b = vm.call @f0(%%a) : (i32) -> i32\n"
          "    %%c = vm.add.i32 %%b, %%a : i32\n"
          "    vm.return %%c : i32\n  }\n  vm.export @f%u\n",
          i, i);
    } else {
      grt_string_builder_appendf(
          &text,
          "  vm.func @f%u(%%a : i32) -> i32 {\n"
          "    %%b = vm.const.i32 %u\n"
          "    %%c = vm.add.i32 %%a, %%b : i32\n"
          "    vm.return %%c : i32\n  }\n  vm.export @f%u\n",
          i, i, i);
    }
  }
  grt_string_builder_append_cstring(&text, "}\n");
  GRT_EXPECT_OK(grt_string_builder_status(&text));

  grt_vm_test_module_t t;
  memset(&t, 0, sizeof(t));
  t.allocator = grt_allocator_system();
  grtc_module_t* module = NULL;
  GRT_EXPECT_OK(grtc_parse_source(grt_string_builder_view(&text), "many.mlir",
                                  &kOptions, t.allocator, &module));
  GRT_EXPECT_OK(grt_module_writer_create(t.allocator, &t.writer));
  GRT_EXPECT_OK(grtc_vm_assemble(grtc_vm_find_module(module), module->file_name,
                                 t.allocator, t.writer));
  grtc_module_destroy(module);
  grt_string_builder_deinit(&text);
  GRT_EXPECT_OK(grt_module_writer_finish(t.writer, &t.file_data, &t.file_size));
  GRT_EXPECT_OK(grt_module_file_open_memory(
      grt_make_const_byte_span(t.file_data, t.file_size), t.allocator, &t.file));
  const grt_module_file_info_t* info = grt_module_file_info(t.file);
  assert_int_equal(info->function_count, FUNCTION_COUNT);
  assert_int_equal(info->export_count, FUNCTION_COUNT);
  GRT_EXPECT_OK(grt_vm_test_module_link(&t, NULL, 0));

  grt_vm_variant_t arg = grt_vm_variant_i32(5);
  grt_vm_variant_t result;
  char middle[16];
  snprintf(middle, sizeof(middle), "f%u", FUNCTION_COUNT / 2 + 1);
  GRT_EXPECT_OK(grt_vm_test_call(&t, middle, &arg, 1, &result, 1));
  assert_int_equal(result.i32, 5 + FUNCTION_COUNT / 2 + 1);
  char last[16];
  snprintf(last, sizeof(last), "f%u", FUNCTION_COUNT - 1);
  GRT_EXPECT_OK(grt_vm_test_call(&t, last, &arg, 1, &result, 1));
  assert_int_equal(result.i32, 5 + 5);  // f0(5) + 5
  grt_vm_test_module_end(&t);
}

static void test_writer_100k_functions_and_exports(void** state) {
  (void)state;
  grt_module_writer_t* writer = NULL;
  GRT_EXPECT_OK(grt_module_writer_create(grt_allocator_system(), &writer));
  GRT_EXPECT_OK(
      grt_module_writer_set_name(writer, grt_make_cstring_view("w"), 1));
  static const uint8_t bytecode[8] = {0};
  GRT_EXPECT_OK(grt_module_writer_set_bytecode(
      writer, grt_make_const_byte_span(bytecode, sizeof(bytecode))));
  char name[16];
  for (uint32_t i = 0; i < FUNCTION_COUNT; ++i) {
    int n = snprintf(name, sizeof(name), "g%u", i);
    grt_module_function_t function = {
        grt_make_string_view(name, (size_t)n), grt_make_cstring_view("0v_v"),
        0, 8, 0, 0};
    uint32_t ordinal = 0;
    GRT_EXPECT_OK(grt_module_writer_add_function(writer, &function, &ordinal));
    assert_int_equal(ordinal, i);
    grt_module_export_t export_def = {grt_make_string_view(name, (size_t)n), i};
    GRT_EXPECT_OK(grt_module_writer_add_export(writer, &export_def));
  }
  // By name, from the last backwards: each a lookup, not a scan.
  for (uint32_t i = FUNCTION_COUNT; i-- > 0;) {
    int n = snprintf(name, sizeof(name), "g%u", i);
    GRT_EXPECT_OK(grt_module_writer_set_function_transient_bytes(
        writer, grt_make_string_view(name, (size_t)n), 64u * i));
  }
  grt_module_export_t duplicate = {grt_make_cstring_view("g7777"), 0};
  grt_expect_error(grt_module_writer_add_export(writer, &duplicate),
                   GRT_STATUS_ALREADY_EXISTS,
                   "module writer: export 'g7777' is already defined "
                   "(export 7777)");
  grt_expect_error(grt_module_writer_set_function_transient_bytes(
                       writer, grt_make_cstring_view("g-1"), 1),
                   GRT_STATUS_NOT_FOUND,
                   "module writer: no function 'g-1' to set the "
                   "transient size of");
  void* data = NULL;
  size_t size = 0;
  GRT_EXPECT_OK(grt_module_writer_finish(writer, &data, &size));
  grt_module_writer_destroy(writer);
  grt_module_file_t* file = NULL;
  GRT_EXPECT_OK(grt_module_file_open_memory(grt_make_const_byte_span(data, size),
                                            grt_allocator_system(), &file));
  assert_int_equal(grt_module_file_info(file)->function_count, FUNCTION_COUNT);
  assert_true(grt_module_file_function_transient_bytes(
                  file, FUNCTION_COUNT - 1) == 64u * (FUNCTION_COUNT - 1));
  assert_true(grt_module_file_function_transient_bytes(file, 1) == 64u);
  grt_module_file_release(file);
  grt_allocator_free(grt_allocator_system(), data);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_assemble_100k_functions),
      cmocka_unit_test(test_writer_100k_functions_and_exports),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
