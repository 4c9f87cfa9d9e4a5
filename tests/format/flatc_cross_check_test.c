// Cross-checks the module format with the reference FlatBuffers compiler:
// a module our writer produced must decode with flatc against module.fbs to
// the values we wrote, and a module flatc encoded from JSON must open with
// our reader. Together these catch any drift between the .fbs files and the
// C mirror in schemas/module_def.h, and any wire-format mistake in the
// builder or verifier.
//
// Arguments: <flatc> <schemas dir> <scratch dir> <module JSON>.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/file.h"
#include "schemas/module_file.h"
#include "schemas/testing/example_module.h"

static const char* flatc_path;
static const char* schema_dir;
static const char* work_dir;
static const char* json_input;

static void run_flatc(const char* arguments) {
  char command[4096];
  snprintf(command, sizeof(command), "\"%s\" %s", flatc_path, arguments);
  int rc = system(command);
  if (rc != 0) fail_msg("flatc failed (%d): %s", rc, command);
}

// The JSON text with whitespace outside strings removed, so expectations
// can be written compactly and independent of flatc's indentation.
static char* read_compact_json(const char* path) {
  grt_file_contents_t contents;
  assert_null(grt_file_read_contents(path, grt_allocator_system(), &contents));
  const char* text = (const char*)contents.data;
  char* compact = malloc(contents.size + 1);
  assert_non_null(compact);
  size_t used = 0;
  bool in_string = false;
  for (size_t i = 0; i < contents.size; ++i) {
    char c = text[i];
    if (c == '"' && (i == 0 || text[i - 1] != '\\')) in_string = !in_string;
    if (!in_string && (c == ' ' || c == '\n' || c == '\r' || c == '\t')) {
      continue;
    }
    compact[used++] = c;
  }
  compact[used] = 0;
  grt_file_contents_free(&contents);
  return compact;
}

static void test_flatc_decodes_our_module(void** state) {
  (void)state;
  char module_path[1024];
  snprintf(module_path, sizeof(module_path), "%s/example.vmfb", work_dir);
  grt_module_writer_t* writer = NULL;
  assert_null(grt_module_writer_create(grt_allocator_system(), &writer));
  assert_null(grt_example_module_populate(writer));
  assert_null(grt_module_writer_write_file(writer, module_path));
  grt_module_writer_destroy(writer);

  // No --raw-binary: flatc also checks our file identifier against the
  // schema's.
  char arguments[3072];
  snprintf(arguments, sizeof(arguments),
           "--json --strict-json --size-prefixed -o \"%s\" \"%s/module.fbs\" "
           "-- \"%s\"",
           work_dir, schema_dir, module_path);
  run_flatc(arguments);
  char json_path[1024];
  snprintf(json_path, sizeof(json_path), "%s/example.json", work_dir);
  char* json = read_compact_json(json_path);
  static const char* const expected[] = {
      "\"name\":\"example_module\",\"version\":7,\"format_version_major\":2,"
      "\"features\":9223372036854775813,",
      "\"imports\":[{\"full_name\":\"hal.device.query\",\"calling_convention\":"
      "\"0rI_r\"},{\"full_name\":\"check.expect_eq\",\"calling_convention\":"
      "\"0rr_v\"},{\"full_name\":\"hal.device.optional_thing\","
      "\"calling_convention\":\"0v_v\",\"optional\":true}]",
      "\"exports\":[{\"name\":\"main\"},{\"name\":\"init\",\"function_ordinal\":"
      "2}]",
      "{\"name\":\"helper\",\"calling_convention\":\"0r_r\",\"bytecode_offset\":"
      "20,\"bytecode_length\":16,\"i32_register_count\":4,"
      "\"ref_register_count\":65536}",
      "\"bytecode\":[160,161,162,",
      "\"rodata_segments\":[{\"alignment\":16,\"inline_data\":[0,1,2,3,",
      "{\"alignment\":64,\"external\":{\"offset\":0,\"length\":300}}]",
      "\"global_bytes\":64,\"global_ref_count\":3",
      "\"executables\":[{\"format\":\"cpu-x86_64\",\"entry_points\":[{\"name\":"
      "\"dispatch_0\",\"binding_count\":3,\"constant_count\":2,"
      "\"workgroup_size\":{\"x\":64,\"y\":1,\"z\":1},\"binding_access\":[1,1,2],"
      "\"binding_min_lengths\":[4000,4001,4002]},",
      "\"binary\":{\"offset\":320,\"length\":200},\"digest\":[",
      "{\"format\":\"vulkan-spirv\",",
      "\"binary\":{\"offset\":576,\"length\":77}",
      "\"debug_info\":{\"locations\":[{\"location\":\"model.mlir:3:7\"},"
      "{\"bytecode_offset\":8,\"location\":\"model.mlir:4:9\"},"
      "{\"function_ordinal\":1,\"bytecode_offset\":4,\"location\":"
      "\"model.mlir:10:2\"},{\"function_ordinal\":2,\"location\":"
      "\"init.mlir:1:1\"}]}",
  };
  for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); ++i) {
    if (!strstr(json, expected[i])) {
      fail_msg("flatc's JSON lacks %s\nJSON: %s", expected[i], json);
    }
  }
  free(json);
}

static void test_our_reader_reads_flatc_module(void** state) {
  (void)state;
  char arguments[3072];
  snprintf(arguments, sizeof(arguments),
           "-b --size-prefixed -o \"%s\" \"%s/module.fbs\" \"%s\"", work_dir,
           schema_dir, json_input);
  run_flatc(arguments);
  // flatc names the output after the input and the schema's file_extension.
  char module_path[1024];
  snprintf(module_path, sizeof(module_path), "%s/flatc_module.%s", work_dir,
           GRT_MODULE_FILE_EXTENSION);
  grt_module_file_t* file = NULL;
  grt_status_t status =
      grt_module_file_open_path(module_path, grt_allocator_system(), &file);
  if (status) fail_msg("%s", grt_status_message(status));

  const grt_module_file_info_t* info = grt_module_file_info(file);
  assert_true(grt_string_view_equal_cstring(info->name, "from_flatc"));
  assert_int_equal(info->version, 3);
  assert_int_equal(info->format_version_major, 2);
  assert_int_equal(info->format_version_minor, 2);
  assert_int_equal(info->features, 6);
  assert_int_equal(info->global_bytes, 16);
  assert_int_equal(info->global_ref_count, 1);
  assert_int_equal(info->import_count, 2);
  assert_int_equal(info->export_count, 1);
  assert_int_equal(info->function_count, 2);
  assert_int_equal(info->rodata_count, 1);
  assert_int_equal(info->executable_count, 0);
  assert_int_equal(info->debug_location_count, 2);
  assert_int_equal(info->bytecode.size, 5);
  assert_int_equal(info->bytecode.data[4], 5);

  grt_module_import_t import = grt_module_file_import(file, 1);
  assert_true(grt_string_view_equal_cstring(import.full_name, "hal.maybe"));
  assert_true(import.optional);
  grt_module_export_t export_def = grt_module_file_export(file, 0);
  assert_true(grt_string_view_equal_cstring(export_def.name, "run"));
  assert_int_equal(export_def.function_ordinal, 1);
  grt_module_function_t function = grt_module_file_function(file, 1);
  assert_true(grt_string_view_equal_cstring(function.calling_convention, "0i_i"));
  assert_int_equal(function.bytecode_offset, 2);
  assert_int_equal(function.bytecode_length, 3);
  assert_int_equal(function.i32_register_count, 5);
  assert_int_equal(function.ref_register_count, 1);
  grt_module_rodata_t rodata = grt_module_file_rodata(file, 0);
  assert_false(rodata.external);
  assert_int_equal(rodata.alignment, 4);
  assert_int_equal(rodata.data.size, 6);
  assert_int_equal(rodata.data.data[5], 60);
  grt_string_view_t location;
  assert_true(grt_module_file_lookup_location(file, 1, 2, &location));
  assert_true(grt_string_view_equal_cstring(location, "a.mlir:2:5"));
  grt_module_file_release(file);
}

int main(int argc, char** argv) {
  if (argc != 5) {
    fprintf(stderr,
            "usage: %s <flatc> <schemas dir> <scratch dir> <module JSON>\n",
            argv[0]);
    return 2;
  }
  flatc_path = argv[1];
  schema_dir = argv[2];
  work_dir = argv[3];
  json_input = argv[4];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_flatc_decodes_our_module),
      cmocka_unit_test(test_our_reader_reads_flatc_module),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
