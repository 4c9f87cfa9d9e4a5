// The example module: 3 imports (one optional), 3 functions over one
// bytecode blob, 2 exports, an inline and an external rodata segment, two
// executables with entry points, globals, features and debug locations
// (added out of order, so the writer's sorting is exercised).
#include "schemas/testing/example_module.h"

#include "base/endian.h"

#include <string.h>

#define GRT_EXAMPLE_BINARY_SIZE_0 200u
#define GRT_EXAMPLE_BINARY_SIZE_1 77u

unsigned char grt_example_module_external_byte(size_t index) {
  return (unsigned char)(index * 7 + 3);
}

unsigned char grt_example_module_binary_byte(unsigned executable, size_t index) {
  return (unsigned char)(index * 13 + 101 * executable + 1);
}

grt_status_t grt_example_module_populate(grt_module_writer_t* writer) {
  GRT_RETURN_IF_ERROR(grt_module_writer_set_name(
      writer, grt_make_cstring_view(GRT_EXAMPLE_MODULE_NAME),
      GRT_EXAMPLE_MODULE_VERSION));
  grt_module_writer_set_features(writer, GRT_EXAMPLE_MODULE_FEATURES);
  grt_module_writer_set_globals(writer, 64, 3);

  uint8_t bytecode[48];
  for (size_t i = 0; i < sizeof(bytecode); ++i) bytecode[i] = (uint8_t)(0xA0 + i);
  GRT_RETURN_IF_ERROR(grt_module_writer_set_bytecode(
      writer, grt_make_const_byte_span(bytecode, sizeof(bytecode))));

  const grt_module_import_t imports[] = {
      {grt_make_cstring_view("hal.device.query"), grt_make_cstring_view("0rI_r"),
       false},
      {grt_make_cstring_view("check.expect_eq"), grt_make_cstring_view("0rr_v"),
       false},
      {grt_make_cstring_view("hal.device.optional_thing"),
       grt_make_cstring_view("0v_v"), true},
  };
  for (size_t i = 0; i < sizeof(imports) / sizeof(imports[0]); ++i) {
    GRT_RETURN_IF_ERROR(grt_module_writer_add_import(writer, &imports[i], NULL));
  }

  const grt_module_function_t functions[] = {
      {grt_make_cstring_view("main"), grt_make_cstring_view("0ii_i"), 0, 20, 12,
       2},
      {grt_make_cstring_view("helper"), grt_make_cstring_view("0r_r"), 20, 16,
       4, 65536},
      {grt_make_cstring_view("__init"), grt_make_cstring_view("0v_v"), 36, 12,
       0, 0},
  };
  for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); ++i) {
    GRT_RETURN_IF_ERROR(
        grt_module_writer_add_function(writer, &functions[i], NULL));
  }
  const grt_module_export_t exports[] = {
      {grt_make_cstring_view("main"), 0},
      {grt_make_cstring_view("init"), 2},
  };
  for (size_t i = 0; i < sizeof(exports) / sizeof(exports[0]); ++i) {
    GRT_RETURN_IF_ERROR(grt_module_writer_add_export(writer, &exports[i]));
  }

  uint8_t inline_data[GRT_EXAMPLE_MODULE_INLINE_RODATA_SIZE];
  for (size_t i = 0; i < sizeof(inline_data); ++i) inline_data[i] = (uint8_t)i;
  grt_module_rodata_t inline_rodata = {
      grt_make_const_byte_span(inline_data, sizeof(inline_data)), 16, false};
  GRT_RETURN_IF_ERROR(grt_module_writer_add_rodata(writer, &inline_rodata, NULL));
  uint8_t external_data[GRT_EXAMPLE_MODULE_EXTERNAL_RODATA_SIZE];
  for (size_t i = 0; i < sizeof(external_data); ++i) {
    external_data[i] = grt_example_module_external_byte(i);
  }
  grt_module_rodata_t external_rodata = {
      grt_make_const_byte_span(external_data, sizeof(external_data)), 64, true};
  GRT_RETURN_IF_ERROR(
      grt_module_writer_add_rodata(writer, &external_rodata, NULL));

  const char* formats[] = {"cpu-x86_64", "vulkan-spirv"};
  const size_t binary_sizes[] = {GRT_EXAMPLE_BINARY_SIZE_0,
                                 GRT_EXAMPLE_BINARY_SIZE_1};
  // dispatch_0 has per-binding tables (format 1.1), dispatch_1 has none.
  static const uint8_t kAccess0[3] = {1, 1, 2};
  uint8_t lengths0[3 * 8];
  for (int b = 0; b < 3; ++b) {
    grt_store_le_u64(lengths0 + 8 * b, GRT_EXAMPLE_BINDING_MIN_LENGTH_0(b));
  }
  const grt_module_entry_point_t entry_points[] = {
      {grt_make_cstring_view("dispatch_0"), 3, 2, {64, 1, 1}, kAccess0,
       lengths0},
      {grt_make_cstring_view("dispatch_1"), 2, 0, {8, 8, 2}, NULL, NULL},
  };
  for (unsigned e = 0; e < 2; ++e) {
    uint8_t binary[GRT_EXAMPLE_BINARY_SIZE_0];
    for (size_t i = 0; i < binary_sizes[e]; ++i) {
      binary[i] = grt_example_module_binary_byte(e, i);
    }
    grt_module_executable_t executable;
    memset(&executable, 0, sizeof(executable));
    executable.format = grt_make_cstring_view(formats[e]);
    executable.binary = grt_make_const_byte_span(binary, binary_sizes[e]);
    GRT_RETURN_IF_ERROR(grt_module_writer_add_executable(
        writer, &executable, entry_points, e == 0 ? 2 : 1, NULL));
  }

  const grt_module_debug_location_t locations[] = {
      {2, 0, grt_make_cstring_view("init.mlir:1:1")},
      {0, 8, grt_make_cstring_view("model.mlir:4:9")},
      {0, 0, grt_make_cstring_view("model.mlir:3:7")},
      {1, 4, grt_make_cstring_view("model.mlir:10:2")},
  };
  for (size_t i = 0; i < sizeof(locations) / sizeof(locations[0]); ++i) {
    GRT_RETURN_IF_ERROR(
        grt_module_writer_add_debug_location(writer, &locations[i]));
  }
  return grt_ok_status();
}

grt_status_t grt_example_module_serialize(grt_allocator_t allocator,
                                          void** out_data, size_t* out_size) {
  grt_module_writer_t* writer = NULL;
  GRT_RETURN_IF_ERROR(grt_module_writer_create(allocator, &writer));
  grt_status_t status = grt_example_module_populate(writer);
  if (grt_status_is_ok(status)) {
    status = grt_module_writer_finish(writer, out_data, out_size);
  }
  grt_module_writer_destroy(writer);
  return status;
}

unsigned grt_example_module_read_all(const grt_module_file_t* file) {
  unsigned sum = 0;
  const grt_module_file_info_t* info = grt_module_file_info(file);
  for (size_t i = 0; i < info->name.size; ++i) sum += (unsigned char)info->name.data[i];
  for (size_t i = 0; i < info->bytecode.size; ++i) sum += info->bytecode.data[i];
  for (uint32_t i = 0; i < info->import_count; ++i) {
    grt_module_import_t import = grt_module_file_import(file, i);
    sum += (unsigned)import.full_name.size + (unsigned)import.optional;
    for (size_t c = 0; c < import.calling_convention.size; ++c) {
      sum += (unsigned char)import.calling_convention.data[c];
    }
  }
  for (uint32_t i = 0; i < info->export_count; ++i) {
    grt_module_export_t export_def = grt_module_file_export(file, i);
    sum += export_def.function_ordinal + (unsigned)export_def.name.size;
  }
  for (uint32_t i = 0; i < info->function_count; ++i) {
    grt_module_function_t function = grt_module_file_function(file, i);
    const uint8_t* code = info->bytecode.data + function.bytecode_offset;
    for (uint32_t b = 0; b < function.bytecode_length; ++b) sum += code[b];
    sum += function.i32_register_count + function.ref_register_count;
  }
  for (uint32_t i = 0; i < info->rodata_count; ++i) {
    grt_module_rodata_t rodata = grt_module_file_rodata(file, i);
    for (size_t b = 0; b < rodata.data.size; ++b) sum += rodata.data.data[b];
  }
  for (uint32_t i = 0; i < info->executable_count; ++i) {
    grt_module_executable_t executable = grt_module_file_executable(file, i);
    for (size_t b = 0; b < executable.binary.size; ++b) {
      sum += executable.binary.data[b];
    }
    for (size_t b = 0; b < GRT_MODULE_DIGEST_SIZE; ++b) sum += executable.digest[b];
    for (uint32_t e = 0; e < executable.entry_point_count; ++e) {
      grt_module_entry_point_t entry_point =
          grt_module_file_entry_point(file, i, e);
      sum += entry_point.binding_count + entry_point.workgroup_size[2] +
             (unsigned)entry_point.name.size;
    }
  }
  for (uint32_t i = 0; i < info->debug_location_count; ++i) {
    grt_module_debug_location_t location =
        grt_module_file_debug_location(file, i);
    grt_string_view_t found;
    if (grt_module_file_lookup_location(file, location.function_ordinal,
                                        location.bytecode_offset, &found)) {
      sum += (unsigned)found.size;
    }
  }
  return sum;
}

grt_status_t grt_example_signing_key(uint8_t fill,
                                     grt_module_secret_key_t* out_key) {
  uint8_t contents[GRT_MODULE_KEY_FILE_SIZE];
  memcpy(contents, GRT_MODULE_SECRET_KEY_FILE_MAGIC,
         GRT_MODULE_KEY_FILE_MAGIC_SIZE);
  memset(contents + GRT_MODULE_KEY_FILE_MAGIC_SIZE, fill,
         GRT_MODULE_SECRET_SEED_SIZE);
  return grt_module_secret_key_parse(
      grt_make_const_byte_span(contents, sizeof(contents)), "example key",
      out_key);
}
