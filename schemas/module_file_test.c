// Module file reader and writer: a full round trip of the example module,
// opening from a path, and every error the reader's semantic checks and the
// writer's validation can report. Structural (verifier) errors are covered
// in base/flatbuffer_verifier_test.c and tests/format/.
#include "schemas/module_file.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/endian.h"
#include "base/flatbuffer_builder.h"
#include "base/flatbuffer_reader.h"
#include "base/sha256.h"
#include "schemas/module_def.h"
#include "schemas/testing/example_module.h"

static void assert_status_contains(grt_status_t status, const char* expected) {
  assert_non_null(status);
  const char* message = grt_status_message(status);
  if (!strstr(message, expected)) {
    fail_msg("expected a message containing \"%s\", got \"%s\"", expected,
             message);
  }
  grt_status_free(status);
}

static void assert_sv_equal(grt_string_view_t actual, const char* expected) {
  if (!grt_string_view_equal_cstring(actual, expected)) {
    fail_msg("expected \"%s\", got \"%.*s\"", expected, GRT_SV_ARG(actual));
  }
}

typedef struct example_file_t {
  uint8_t* data;
  size_t size;
} example_file_t;

static example_file_t example_file(void) {
  example_file_t file = {NULL, 0};
  assert_null(grt_example_module_serialize(grt_allocator_system(),
                                           (void**)&file.data, &file.size));
  return file;
}

static void check_example(const grt_module_file_t* file) {
  const grt_module_file_info_t* info = grt_module_file_info(file);
  assert_sv_equal(info->name, GRT_EXAMPLE_MODULE_NAME);
  assert_int_equal(info->version, GRT_EXAMPLE_MODULE_VERSION);
  assert_int_equal(info->format_version_major, GRT_MODULE_FORMAT_VERSION_MAJOR);
  assert_int_equal(info->format_version_minor, GRT_MODULE_FORMAT_VERSION_MINOR);
  assert_true(info->features == GRT_EXAMPLE_MODULE_FEATURES);
  assert_int_equal(info->global_bytes, 64);
  assert_int_equal(info->global_ref_count, 3);
  assert_int_equal(info->import_count, 3);
  assert_int_equal(info->export_count, 2);
  assert_int_equal(info->function_count, 3);
  assert_int_equal(info->rodata_count, 2);
  assert_int_equal(info->executable_count, 2);
  assert_int_equal(info->debug_location_count, 4);
  assert_int_equal(info->bytecode.size, 48);
  for (size_t i = 0; i < info->bytecode.size; ++i) {
    assert_int_equal(info->bytecode.data[i], 0xA0 + i);
  }

  grt_module_import_t import = grt_module_file_import(file, 0);
  assert_sv_equal(import.full_name, "hal.device.query");
  assert_sv_equal(import.calling_convention, "0rI_r");
  assert_false(import.optional);
  import = grt_module_file_import(file, 2);
  assert_sv_equal(import.full_name, "hal.device.optional_thing");
  assert_true(import.optional);

  grt_module_export_t export_def = grt_module_file_export(file, 1);
  assert_sv_equal(export_def.name, "init");
  assert_int_equal(export_def.function_ordinal, 2);

  grt_module_function_t function = grt_module_file_function(file, 1);
  assert_sv_equal(function.name, "helper");
  assert_sv_equal(function.calling_convention, "0r_r");
  assert_int_equal(function.bytecode_offset, 20);
  assert_int_equal(function.bytecode_length, 16);
  assert_int_equal(function.i32_register_count, 4);
  assert_int_equal(function.ref_register_count, 65536);

  grt_module_rodata_t rodata = grt_module_file_rodata(file, 0);
  assert_false(rodata.external);
  assert_int_equal(rodata.alignment, 16);
  assert_int_equal((uintptr_t)rodata.data.data % 16, 0);
  assert_int_equal(rodata.data.size, GRT_EXAMPLE_MODULE_INLINE_RODATA_SIZE);
  for (size_t i = 0; i < rodata.data.size; ++i) {
    assert_int_equal(rodata.data.data[i], i);
  }
  rodata = grt_module_file_rodata(file, 1);
  assert_true(rodata.external);
  assert_int_equal(rodata.alignment, 64);
  assert_int_equal((uintptr_t)rodata.data.data % 64, 0);
  assert_int_equal(rodata.data.size, GRT_EXAMPLE_MODULE_EXTERNAL_RODATA_SIZE);
  for (size_t i = 0; i < rodata.data.size; ++i) {
    assert_int_equal(rodata.data.data[i], grt_example_module_external_byte(i));
  }

  for (unsigned e = 0; e < 2; ++e) {
    grt_module_executable_t executable = grt_module_file_executable(file, e);
    assert_sv_equal(executable.format, e == 0 ? "cpu-x86_64" : "vulkan-spirv");
    assert_int_equal(executable.entry_point_count, e == 0 ? 2 : 1);
    assert_int_equal(executable.binary.size, e == 0 ? 200 : 77);
    assert_int_equal((uintptr_t)executable.binary.data % 64, 0);
    for (size_t i = 0; i < executable.binary.size; ++i) {
      assert_int_equal(executable.binary.data[i],
                       grt_example_module_binary_byte(e, i));
    }
    uint8_t digest[GRT_SHA256_DIGEST_SIZE];
    grt_sha256(executable.binary.data, executable.binary.size, digest);
    assert_memory_equal(executable.digest, digest, sizeof(digest));
  }
  grt_module_entry_point_t entry_point = grt_module_file_entry_point(file, 0, 1);
  assert_sv_equal(entry_point.name, "dispatch_1");
  assert_int_equal(entry_point.binding_count, 2);
  assert_int_equal(entry_point.constant_count, 0);
  assert_int_equal(entry_point.workgroup_size[0], 8);
  assert_int_equal(entry_point.workgroup_size[1], 8);
  assert_int_equal(entry_point.workgroup_size[2], 2);
  // Entry points written without them (as before format 1.1) have no
  // per-binding tables.
  assert_null(entry_point.binding_access);
  assert_null(entry_point.binding_min_lengths);
  entry_point = grt_module_file_entry_point(file, 0, 0);
  assert_non_null(entry_point.binding_access);
  assert_non_null(entry_point.binding_min_lengths);
  for (uint32_t b = 0; b < 3; ++b) {
    assert_int_equal(entry_point.binding_access[b], b == 2 ? 2 : 1);
    assert_int_equal(grt_load_le_u64(entry_point.binding_min_lengths + 8 * b),
                     GRT_EXAMPLE_BINDING_MIN_LENGTH_0(b));
  }
  entry_point = grt_module_file_entry_point(file, 1, 0);
  assert_sv_equal(entry_point.name, "dispatch_0");
  assert_int_equal(entry_point.binding_count, 3);
  assert_int_equal(entry_point.constant_count, 2);
  assert_int_equal(entry_point.workgroup_size[0], 64);

  // Added out of order; the writer sorts them.
  const struct {
    uint32_t function;
    uint32_t offset;
    const char* location;
  } expected[] = {{0, 0, "model.mlir:3:7"},
                  {0, 8, "model.mlir:4:9"},
                  {1, 4, "model.mlir:10:2"},
                  {2, 0, "init.mlir:1:1"}};
  for (uint32_t i = 0; i < 4; ++i) {
    grt_module_debug_location_t location =
        grt_module_file_debug_location(file, i);
    assert_int_equal(location.function_ordinal, expected[i].function);
    assert_int_equal(location.bytecode_offset, expected[i].offset);
    assert_sv_equal(location.location, expected[i].location);
  }
}

static void test_round_trip_in_memory(void** state) {
  (void)state;
  example_file_t bytes = example_file();
  grt_module_file_t* file = NULL;
  assert_null(grt_module_file_open_memory(
      grt_make_const_byte_span(bytes.data, bytes.size), grt_allocator_system(),
      &file));
  check_example(file);
  // Segments are used in place, not copied.
  grt_module_rodata_t rodata = grt_module_file_rodata(file, 1);
  assert_true(rodata.data.data > bytes.data &&
              rodata.data.data < bytes.data + bytes.size);
  grt_module_file_retain(file);
  grt_module_file_release(file);
  check_example(file);
  grt_module_file_release(file);
  free(bytes.data);
}

static void test_lookup_location(void** state) {
  (void)state;
  example_file_t bytes = example_file();
  grt_module_file_t* file = NULL;
  assert_null(grt_module_file_open_memory(
      grt_make_const_byte_span(bytes.data, bytes.size), grt_allocator_system(),
      &file));
  const struct {
    uint32_t function;
    uint32_t offset;
    const char* expected;  // NULL: no location
  } cases[] = {
      {0, 0, "model.mlir:3:7"},  {0, 7, "model.mlir:3:7"},
      {0, 8, "model.mlir:4:9"},  {0, 19, "model.mlir:4:9"},
      {1, 3, NULL},              {1, 4, "model.mlir:10:2"},
      {2, 100, "init.mlir:1:1"}, {3, 0, NULL},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    grt_string_view_t location = grt_string_view_empty();
    bool found = grt_module_file_lookup_location(file, cases[i].function,
                                                 cases[i].offset, &location);
    assert_int_equal(found, cases[i].expected != NULL);
    if (cases[i].expected) assert_sv_equal(location, cases[i].expected);
  }
  grt_module_file_release(file);
  free(bytes.data);
}

static void test_write_file_then_open_path(void** state) {
  (void)state;
  char dir[] = "/tmp/grt_module_file_test_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[128];
  snprintf(path, sizeof(path), "%s/example.vmfb", dir);
  grt_module_writer_t* writer = NULL;
  assert_null(grt_module_writer_create(grt_allocator_system(), &writer));
  assert_null(grt_example_module_populate(writer));
  assert_null(grt_module_writer_write_file(writer, path));
  // The file is written piece by piece; it holds exactly the bytes that
  // grt_module_writer_finish serializes into one allocation (the FlatBuffer,
  // zeroed padding, each segment at its offset).
  void* whole = NULL;
  size_t whole_size = 0;
  assert_null(grt_module_writer_finish(writer, &whole, &whole_size));
  grt_module_writer_destroy(writer);
  FILE* written = fopen(path, "rb");
  assert_non_null(written);
  uint8_t* read_back = malloc(whole_size + 1);
  assert_non_null(read_back);
  assert_int_equal(fread(read_back, 1, whole_size + 1, written), whole_size);
  fclose(written);
  assert_memory_equal(read_back, whole, whole_size);
  free(read_back);
  grt_allocator_free(grt_allocator_system(), whole);

  grt_module_file_t* file = NULL;
  assert_null(grt_module_file_open_path(path, grt_allocator_system(), &file));
  check_example(file);
  grt_module_file_release(file);

  // A file that is not a module: the error names the path.
  FILE* text = fopen(path, "wb");
  assert_non_null(text);
  fputs("this is not a module file at all", text);
  fclose(text);
  grt_status_t status =
      grt_module_file_open_path(path, grt_allocator_system(), &file);
  assert_null(file);
  assert_non_null(status);
  assert_non_null(strstr(grt_status_message(status), path));
  assert_status_contains(status, "module file invalid");
  unlink(path);
  rmdir(dir);
}

static void test_open_path_missing_file_names_path(void** state) {
  (void)state;
  grt_module_file_t* file = NULL;
  assert_status_contains(
      grt_module_file_open_path("/nonexistent/dir/missing.vmfb",
                                grt_allocator_system(), &file),
      "/nonexistent/dir/missing.vmfb");
  assert_null(file);
}

static void test_write_file_bad_directory_names_path(void** state) {
  (void)state;
  grt_module_writer_t* writer = NULL;
  assert_null(grt_module_writer_create(grt_allocator_system(), &writer));
  assert_null(grt_example_module_populate(writer));
  assert_status_contains(
      grt_module_writer_write_file(writer, "/nonexistent/dir/out.vmfb"),
      "/nonexistent/dir/out.vmfb");
  grt_module_writer_destroy(writer);
}

static void test_unaligned_contents_rejected(void** state) {
  (void)state;
  example_file_t bytes = example_file();
  uint8_t* shifted = malloc(bytes.size + 8);
  assert_non_null(shifted);
  memcpy(shifted + 4, bytes.data, bytes.size);
  grt_module_file_t* file = NULL;
  assert_status_contains(
      grt_module_file_open_memory(
          grt_make_const_byte_span(shifted + 4, bytes.size),
          grt_allocator_system(), &file),
      "not 8-byte aligned");
  free(shifted);
  free(bytes.data);
}

//===----------------------------------------------------------------------===//
// Reader semantic checks: a valid file with one value rewritten in place.
//===----------------------------------------------------------------------===//

// Where a patch goes: a field of the root table (vector == -1), of an
// element of a root vector of tables, or of a debug location.
#define ROOT_FIELD -1
#define DEBUG_LOCATIONS -2

typedef struct patch_case_t {
  const char* name;
  int vector;      // ModuleDef field id of a vector of tables, or the above
  uint32_t index;  // element of that vector
  uint32_t field;  // field id in the element (or root) table
  uint32_t byte_offset;  // within the field (for structs); for vectors and
                         // strings, within the data they refer to, -4 for
                         // their length (given as UINT32_MAX - 3)
  bool through_offset;   // the field is a uoffset; patch what it refers to
  uint32_t value;
  size_t width;  // 1 or 4 bytes
  const char* expected;
} patch_case_t;

static const patch_case_t patch_cases[] = {
    {"newer major version", ROOT_FIELD, 0, grt_ModuleDef_format_version_major,
     0, false, 3, 4,
     "module format version 3.0 is newer than this runtime supports (2.x)"},
    {"older major version", ROOT_FIELD, 0, grt_ModuleDef_format_version_major,
     0, false, 1, 4,
     "module format version 1.0 is older than this runtime supports (2.x)"},
    {"function bytecode past blob", grt_ModuleDef_functions, 1,
     grt_FunctionDef_bytecode_length, 0, false, 1000, 4,
     "ModuleDef.functions[1] ('helper'): bytecode range [20, 1020) lies "
     "outside the bytecode blob of 48 bytes"},
    {"too many registers", grt_ModuleDef_functions, 1,
     grt_FunctionDef_ref_register_count, 0, false, 65537, 4,
     "ModuleDef.functions[1] ('helper'): register counts (i32 4, ref 65537) "
     "exceed the limit of 65536 per bank"},
    {"export ordinal out of range", grt_ModuleDef_exports, 1,
     grt_ExportFunctionDef_function_ordinal, 0, false, 3, 4,
     "ModuleDef.exports[1] ('init'): function ordinal 3 is out of range (the "
     "module has 3 functions)"},
    {"rodata alignment not a power of two", grt_ModuleDef_rodata_segments, 0,
     grt_RodataSegmentDef_alignment, 0, false, 3, 4,
     "ModuleDef.rodata_segments[0]: alignment 3 is not a power of two <= 64"},
    {"rodata alignment too large", grt_ModuleDef_rodata_segments, 0,
     grt_RodataSegmentDef_alignment, 0, false, 128, 4,
     "ModuleDef.rodata_segments[0]: alignment 128 is not a power of two <= 64"},
    {"external offset unaligned", grt_ModuleDef_rodata_segments, 1,
     grt_RodataSegmentDef_external, 0, false, 65, 4,
     "ModuleDef.rodata_segments[1]: segment offset 65 is not a multiple of 64"},
    {"external segment past data area", grt_ModuleDef_rodata_segments, 1,
     grt_RodataSegmentDef_external, 8, false, 100000, 4,
     "ModuleDef.rodata_segments[1]: segment at data offset 0 of 100000 bytes "
     "extends past the end of the data area"},
    {"executable segment past data area", grt_ModuleDef_executables, 0,
     grt_ExecutableDef_binary, 0, false, 1 << 20, 4,
     "ModuleDef.executables[0]: segment at data offset 1048576"},
    {"digest mismatch", grt_ModuleDef_executables, 1,
     grt_ExecutableDef_digest, 0, true, 0x00, 1,
     "ModuleDef.executables[1] ('vulkan-spirv'): binary of 77 bytes has "
     "SHA-256 "},
    {"digest too short", grt_ModuleDef_executables, 1,
     grt_ExecutableDef_digest, UINT32_MAX - 3, true, 31, 4,
     "ModuleDef.executables[1] ('vulkan-spirv'): digest has 31 bytes, "
     "expected 32 (SHA-256)"},
    {"debug location function out of range", DEBUG_LOCATIONS, 3,
     grt_DebugLocationDef_function_ordinal, 0, false, 5, 4,
     "ModuleDef.debug_info.locations[3]: function ordinal 5 is out of range "
     "(the module has 3 functions)"},
    {"debug locations unsorted", DEBUG_LOCATIONS, 1,
     grt_DebugLocationDef_bytecode_offset, 0, false, 0, 4,
     "ModuleDef.debug_info.locations[1]: (function 0, offset 0) does not come "
     "after (function 0, offset 0); locations must be strictly sorted"},
};

static void apply_patch(uint8_t* data, size_t size, const patch_case_t* patch) {
  grt_fb_table_t root = grt_fb_root(data, size, 4);
  grt_fb_table_t table = root;
  if (patch->vector == DEBUG_LOCATIONS) {
    table = grt_fb_vector_table(
        grt_fb_table_vector(grt_fb_table_table(root, grt_ModuleDef_debug_info),
                            grt_DebugInfoDef_locations, 4),
        patch->index);
  } else if (patch->vector != ROOT_FIELD) {
    table = grt_fb_vector_table(
        grt_fb_table_vector(root, (uint32_t)patch->vector, 4), patch->index);
  }
  size_t pos = grt_fb_field_pos(table, patch->field);
  assert_true(pos != 0);
  if (patch->through_offset) {
    pos = grt_fb_follow(data, size, pos) + 4;
  }
  pos += (size_t)(int32_t)patch->byte_offset;
  assert_true(pos + patch->width <= size);
  if (patch->width == 1) {
    data[pos] = (uint8_t)patch->value;
  } else {
    grt_store_le_u32(data + pos, patch->value);
  }
}

static void test_reader_semantic_errors(void** state) {
  (void)state;
  example_file_t original = example_file();
  for (size_t i = 0; i < sizeof(patch_cases) / sizeof(patch_cases[0]); ++i) {
    const patch_case_t* patch = &patch_cases[i];
    uint8_t* copy = NULL;
    assert_null(grt_allocator_malloc_aligned(grt_allocator_system(),
                                             original.size, 64, (void**)&copy));
    memcpy(copy, original.data, original.size);
    apply_patch(copy, original.size, patch);
    grt_module_file_t* file = NULL;
    grt_status_t status = grt_module_file_open_memory(
        grt_make_const_byte_span(copy, original.size), grt_allocator_system(),
        &file);
    if (!status) fail_msg("case '%s' was accepted", patch->name);
    assert_null(file);
    assert_status_contains(status, patch->expected);
    grt_allocator_free(grt_allocator_system(), copy);
  }
  free(original.data);
}

static void test_duplicate_export_names_rejected(void** state) {
  (void)state;
  example_file_t bytes = example_file();
  // Rename export 1 ("init") to "main" in place; the lengths match.
  grt_fb_table_t root = grt_fb_root(bytes.data, bytes.size, 4);
  grt_fb_table_t export_1 =
      grt_fb_vector_table(grt_fb_table_vector(root, grt_ModuleDef_exports, 4), 1);
  grt_string_view_t name =
      grt_fb_table_string(export_1, grt_ExportFunctionDef_name);
  assert_sv_equal(name, "init");
  memcpy((char*)name.data, "main", 4);
  grt_module_file_t* file = NULL;
  assert_status_contains(
      grt_module_file_open_memory(
          grt_make_const_byte_span(bytes.data, bytes.size),
          grt_allocator_system(), &file),
      "ModuleDef.exports: export name 'main' appears more than once");
  free(bytes.data);
}

// The per-binding tables of an entry point are untrusted: each must have
// one entry per binding, access bytes 1..3 and sane minimum lengths.
static void test_entry_point_binding_tables_checked(void** state) {
  (void)state;
  const struct {
    int field;     // 0: binding_access, 1: binding_min_lengths
    int patch;     // 0: element 1 or 2 gets a bad value, 1: the count
    const char* message;
  } cases[] = {
      {0, 0,
       "ModuleDef.executables[0] ('cpu-x86_64').entry_points[0] "
       "'dispatch_0': binding_access[1] is 4, expected 1 (read), 2 (written) "
       "or 3 (both)"},
      {0, 1,
       "ModuleDef.executables[0] ('cpu-x86_64').entry_points[0] "
       "'dispatch_0': binding_access has 2 entries, expected 3 (one per "
       "binding)"},
      {1, 0,
       "ModuleDef.executables[0] ('cpu-x86_64').entry_points[0] "
       "'dispatch_0': binding_min_lengths[2] is 281474976710657 bytes, "
       "expected at most 281474976710656"},
      {1, 1,
       "ModuleDef.executables[0] ('cpu-x86_64').entry_points[0] "
       "'dispatch_0': binding_min_lengths has 2 entries, expected 3 (one per "
       "binding)"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    example_file_t bytes = example_file();
    grt_fb_table_t root = grt_fb_root(bytes.data, bytes.size, 4);
    grt_fb_table_t executable = grt_fb_vector_table(
        grt_fb_table_vector(root, grt_ModuleDef_executables, 4), 0);
    grt_fb_table_t entry = grt_fb_vector_table(
        grt_fb_table_vector(executable, grt_ExecutableDef_entry_points, 4), 0);
    grt_fb_vector_t vector =
        cases[i].field == 0
            ? grt_fb_table_vector(entry, grt_EntryPointDef_binding_access, 1)
            : grt_fb_table_vector(entry, grt_EntryPointDef_binding_min_lengths,
                                  8);
    assert_int_equal(vector.count, 3);
    uint8_t* data = bytes.data + vector.pos;
    if (cases[i].patch == 1) {
      grt_store_le_u32(data - 4, 2);  // a shorter (still well-formed) vector
    } else if (cases[i].field == 0) {
      data[1] = 4;
    } else {
      grt_store_le_u64(data + 16, GRT_MODULE_MAX_BINDING_MIN_LENGTH + 1);
    }
    grt_module_file_t* file = NULL;
    assert_status_contains(
        grt_module_file_open_memory(
            grt_make_const_byte_span(bytes.data, bytes.size),
            grt_allocator_system(), &file),
        cases[i].message);
    free(bytes.data);
  }
}

static void test_wrong_identifier_rejected(void** state) {
  (void)state;
  example_file_t bytes = example_file();
  memcpy(bytes.data + 8, "GRTX", 4);
  grt_module_file_t* file = NULL;
  assert_status_contains(
      grt_module_file_open_memory(
          grt_make_const_byte_span(bytes.data, bytes.size),
          grt_allocator_system(), &file),
      "module file invalid: expected file identifier \"GRTM\", got \"GRTX\"");
  free(bytes.data);
}

// A rodata segment with both or neither of inline_data and external cannot
// come from the writer, so it is built by hand. Returns a 64-byte-aligned
// copy (the builder only aligns its output to the largest alignment used).
static grt_const_byte_span_t build_rodata_module(bool with_inline,
                                                 bool with_external) {
  grt_fb_builder_t builder_storage;
  grt_fb_builder_t* builder = &builder_storage;
  grt_fb_builder_initialize(grt_allocator_system(), builder);
  uint8_t bytes[4] = {1, 2, 3, 4};
  grt_fb_ref_t data =
      with_inline ? grt_fb_builder_create_vector(builder, bytes, 4, 1, 1) : 0;
  grt_fb_builder_start_table(builder);
  if (with_inline) {
    grt_fb_builder_add_offset(builder, grt_RodataSegmentDef_inline_data, data);
  }
  if (with_external) {
    uint8_t ref[GRT_SEGMENT_REF_SIZE] = {0};
    grt_fb_builder_add_struct(builder, grt_RodataSegmentDef_external, ref,
                              sizeof(ref), GRT_SEGMENT_REF_ALIGNMENT);
  }
  grt_fb_ref_t segment = grt_fb_builder_end_table(builder);
  grt_fb_ref_t segments =
      grt_fb_builder_create_offset_vector(builder, &segment, 1);
  grt_fb_ref_t name =
      grt_fb_builder_create_string(builder, grt_make_cstring_view("m"));
  grt_fb_builder_start_table(builder);
  grt_fb_builder_add_offset(builder, grt_ModuleDef_name, name);
  grt_fb_builder_add_scalar(builder, grt_ModuleDef_format_version_major,
                            GRT_MODULE_FORMAT_VERSION_MAJOR, 0, 4);
  grt_fb_builder_add_offset(builder, grt_ModuleDef_rodata_segments, segments);
  grt_fb_ref_t root = grt_fb_builder_end_table(builder);
  grt_const_byte_span_t buffer;
  assert_null(grt_fb_builder_finish(builder, root, GRT_MODULE_FILE_IDENTIFIER,
                                    true, &buffer));
  void* aligned = NULL;
  assert_null(grt_allocator_malloc_aligned(grt_allocator_system(), buffer.size,
                                           64, &aligned));
  memcpy(aligned, buffer.data, buffer.size);
  grt_fb_builder_deinitialize(builder);
  return grt_make_const_byte_span(aligned, buffer.size);
}

static void test_rodata_inline_xor_external(void** state) {
  (void)state;
  const struct {
    bool with_inline;
    bool with_external;
    const char* expected;
  } cases[] = {
      {true, true,
       "ModuleDef.rodata_segments[0]: expected exactly one of inline_data and "
       "external, got both"},
      {false, false,
       "ModuleDef.rodata_segments[0]: expected exactly one of inline_data and "
       "external, got neither"},
  };
  for (size_t i = 0; i < 2; ++i) {
    grt_const_byte_span_t buffer =
        build_rodata_module(cases[i].with_inline, cases[i].with_external);
    grt_module_file_t* file = NULL;
    assert_status_contains(
        grt_module_file_open_memory(buffer, grt_allocator_system(), &file),
        cases[i].expected);
    grt_allocator_free(grt_allocator_system(), (void*)buffer.data);
  }
  // The inline-only variant opens, with no data area at all.
  grt_const_byte_span_t buffer = build_rodata_module(true, false);
  grt_module_file_t* file = NULL;
  assert_null(grt_module_file_open_memory(buffer, grt_allocator_system(), &file));
  grt_module_rodata_t rodata = grt_module_file_rodata(file, 0);
  assert_int_equal(rodata.data.size, 4);
  assert_int_equal(rodata.data.data[3], 4);
  assert_int_equal(rodata.alignment, 1);
  grt_module_file_release(file);
  grt_allocator_free(grt_allocator_system(), (void*)buffer.data);
}

//===----------------------------------------------------------------------===//
// Writer validation
//===----------------------------------------------------------------------===//

static grt_module_writer_t* new_writer(void) {
  grt_module_writer_t* writer = NULL;
  assert_null(grt_module_writer_create(grt_allocator_system(), &writer));
  return writer;
}

static void assert_finish_fails(grt_module_writer_t* writer,
                                const char* expected) {
  void* data = NULL;
  size_t size = 0;
  assert_status_contains(grt_module_writer_finish(writer, &data, &size),
                         expected);
  assert_null(data);
}

static void test_writer_rejects_bad_parts(void** state) {
  (void)state;
  grt_module_writer_t* writer = new_writer();
  assert_status_contains(
      grt_module_writer_set_name(writer, grt_string_view_empty(), 1),
      "module name must not be empty");
  assert_finish_fails(writer, "no module name was set");

  grt_module_import_t import = {grt_string_view_empty(),
                                grt_make_cstring_view("0v_v"), false};
  assert_status_contains(grt_module_writer_add_import(writer, &import, NULL),
                         "import 0 has an empty name");

  grt_module_function_t function = {grt_make_cstring_view("f"),
                                    grt_make_cstring_view("0v_v"), 0, 0,
                                    65537, 0};
  assert_status_contains(
      grt_module_writer_add_function(writer, &function, NULL),
      "function 'f' needs 65537 i32 and 0 ref registers; the limit is 65536 "
      "per bank");

  grt_module_export_t export_def = {grt_make_cstring_view("e"), 0};
  assert_null(grt_module_writer_add_export(writer, &export_def));
  assert_status_contains(grt_module_writer_add_export(writer, &export_def),
                         "export 'e' is already defined (export 0)");

  uint8_t byte = 0;
  grt_module_rodata_t rodata = {grt_make_const_byte_span(&byte, 1), 3, false};
  assert_status_contains(grt_module_writer_add_rodata(writer, &rodata, NULL),
                         "rodata 0 alignment 3 is not a power of two <= 64");
  rodata.alignment = 128;
  rodata.external = true;
  assert_status_contains(grt_module_writer_add_rodata(writer, &rodata, NULL),
                         "rodata 0 alignment 128 is not a power of two <= 64");

  grt_module_executable_t executable;
  memset(&executable, 0, sizeof(executable));
  assert_status_contains(
      grt_module_writer_add_executable(writer, &executable, NULL, 0, NULL),
      "executable 0 has an empty format");
  grt_module_writer_destroy(writer);
}

static void test_writer_checks_cross_references(void** state) {
  (void)state;
  // Export ordinal past the functions.
  grt_module_writer_t* writer = new_writer();
  assert_null(grt_module_writer_set_name(writer, grt_make_cstring_view("m"), 1));
  grt_module_export_t export_def = {grt_make_cstring_view("e"), 0};
  assert_null(grt_module_writer_add_export(writer, &export_def));
  assert_finish_fails(writer,
                      "export 'e' refers to function 0 but the module has 0 "
                      "functions");
  grt_module_writer_destroy(writer);

  // Function bytecode past the blob.
  writer = new_writer();
  assert_null(grt_module_writer_set_name(writer, grt_make_cstring_view("m"), 1));
  grt_module_function_t function = {grt_make_cstring_view("f"),
                                    grt_make_cstring_view("0v_v"), 2, 3, 0, 0};
  assert_null(grt_module_writer_add_function(writer, &function, NULL));
  uint8_t code[4] = {0};
  assert_null(grt_module_writer_set_bytecode(
      writer, grt_make_const_byte_span(code, sizeof(code))));
  assert_finish_fails(writer,
                      "function 0 ('f') bytecode range [2, 5) lies outside "
                      "the bytecode blob of 4 bytes");

  // Debug locations: ordinal out of range, then a duplicate.
  function.bytecode_offset = 0;
  assert_null(grt_module_writer_set_bytecode(
      writer, grt_make_const_byte_span(code, sizeof(code))));
  grt_module_debug_location_t location = {1, 0, grt_make_cstring_view("a:1:1")};
  assert_null(grt_module_writer_add_debug_location(writer, &location));
  grt_module_writer_destroy(writer);

  writer = new_writer();
  assert_null(grt_module_writer_set_name(writer, grt_make_cstring_view("m"), 1));
  function.bytecode_offset = 0;
  function.bytecode_length = 4;
  assert_null(grt_module_writer_add_function(writer, &function, NULL));
  assert_null(grt_module_writer_set_bytecode(
      writer, grt_make_const_byte_span(code, sizeof(code))));
  assert_null(grt_module_writer_add_debug_location(writer, &location));
  assert_finish_fails(writer,
                      "debug location 'a:1:1' refers to function 1 but the "
                      "module has 1 functions");
  grt_module_writer_destroy(writer);

  writer = new_writer();
  assert_null(grt_module_writer_set_name(writer, grt_make_cstring_view("m"), 1));
  assert_null(grt_module_writer_add_function(writer, &function, NULL));
  assert_null(grt_module_writer_set_bytecode(
      writer, grt_make_const_byte_span(code, sizeof(code))));
  location.function_ordinal = 0;
  assert_null(grt_module_writer_add_debug_location(writer, &location));
  location.location = grt_make_cstring_view("b:2:2");
  assert_null(grt_module_writer_add_debug_location(writer, &location));
  assert_finish_fails(writer,
                      "two debug locations for function 0 offset 0 ('a:1:1' "
                      "and 'b:2:2')");
  grt_module_writer_destroy(writer);
}

static void test_minimal_module_round_trip(void** state) {
  (void)state;
  grt_module_writer_t* writer = new_writer();
  assert_null(grt_module_writer_set_name(writer, grt_make_cstring_view("m"), 0));
  void* data = NULL;
  size_t size = 0;
  assert_null(grt_module_writer_finish(writer, &data, &size));
  grt_module_writer_destroy(writer);
  grt_module_file_t* file = NULL;
  assert_null(grt_module_file_open_memory(grt_make_const_byte_span(data, size),
                                          grt_allocator_system(), &file));
  const grt_module_file_info_t* info = grt_module_file_info(file);
  assert_sv_equal(info->name, "m");
  assert_int_equal(info->function_count, 0);
  assert_int_equal(info->bytecode.size, 0);
  grt_string_view_t location;
  assert_false(grt_module_file_lookup_location(file, 0, 0, &location));
  grt_module_file_release(file);
  grt_allocator_free(grt_allocator_system(), data);
}

// A function's transient arena size survives the round trip (0 when never
// set); setting it for a function that does not exist names the function.
static void test_function_transient_bytes(void** state) {
  (void)state;
  grt_module_writer_t* writer = new_writer();
  assert_null(grt_module_writer_set_name(writer, grt_make_cstring_view("m"), 0));
  uint8_t code[4] = {0};
  assert_null(grt_module_writer_set_bytecode(
      writer, grt_make_const_byte_span(code, sizeof(code))));
  grt_module_function_t function = {grt_make_cstring_view("f"),
                                    grt_make_cstring_view("0v_v"), 0, 4, 0, 0};
  for (int i = 0; i < 3; ++i) {
    function.name = grt_make_cstring_view(i == 0 ? "f" : i == 1 ? "g" : "h");
    assert_null(grt_module_writer_add_function(writer, &function, NULL));
  }
  assert_null(grt_module_writer_set_function_transient_bytes(
      writer, grt_make_cstring_view("g"), 5000000000ull));
  assert_status_contains(grt_module_writer_set_function_transient_bytes(
                             writer, grt_make_cstring_view("x"), 1),
                         "no function 'x' to set the transient size of");
  // A shape-polymorphic function's signature and plan (h only).
  assert_null(grt_module_writer_set_function_shapes(
      writer, grt_make_cstring_view("h"), grt_make_cstring_view("(?x4xf32) -> ?x4xf32"),
      grt_make_cstring_view("0 + [16*s0]; s0: argument 0 dimension 0")));
  assert_status_contains(
      grt_module_writer_set_function_shapes(writer, grt_make_cstring_view("x"),
                                            grt_make_cstring_view("()"),
                                            grt_make_cstring_view("")),
      "no function 'x' to set the tensor signature of");
  void* data = NULL;
  size_t size = 0;
  assert_null(grt_module_writer_finish(writer, &data, &size));
  grt_module_writer_destroy(writer);
  grt_module_file_t* file = NULL;
  assert_null(grt_module_file_open_memory(grt_make_const_byte_span(data, size),
                                          grt_allocator_system(), &file));
  assert_true(grt_module_file_function_transient_bytes(file, 0) == 0);
  assert_true(grt_module_file_function_transient_bytes(file, 1) == 5000000000ull);
  assert_true(grt_module_file_function_transient_bytes(file, 2) == 0);
  for (uint32_t i = 0; i < 2; ++i) {
    assert_int_equal(grt_module_file_function_tensor_signature(file, i).size, 0);
    assert_int_equal(grt_module_file_function_transient_plan(file, i).size, 0);
  }
  assert_true(grt_string_view_equal_cstring(grt_module_file_function_tensor_signature(file, 2),
                                            "(?x4xf32) -> ?x4xf32"));
  assert_true(grt_string_view_equal_cstring(grt_module_file_function_transient_plan(file, 2),
                                            "0 + [16*s0]; s0: argument 0 dimension 0"));
  grt_module_file_release(file);
  grt_allocator_free(grt_allocator_system(), data);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_trip_in_memory),
      cmocka_unit_test(test_lookup_location),
      cmocka_unit_test(test_write_file_then_open_path),
      cmocka_unit_test(test_open_path_missing_file_names_path),
      cmocka_unit_test(test_write_file_bad_directory_names_path),
      cmocka_unit_test(test_unaligned_contents_rejected),
      cmocka_unit_test(test_reader_semantic_errors),
      cmocka_unit_test(test_duplicate_export_names_rejected),
      cmocka_unit_test(test_wrong_identifier_rejected),
      cmocka_unit_test(test_entry_point_binding_tables_checked),
      cmocka_unit_test(test_rodata_inline_xor_external),
      cmocka_unit_test(test_writer_rejects_bad_parts),
      cmocka_unit_test(test_writer_checks_cross_references),
      cmocka_unit_test(test_minimal_module_round_trip),
      cmocka_unit_test(test_function_transient_bytes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
