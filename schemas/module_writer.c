// The module file writer: collects a module's parts (copied into an arena),
// then lays out the data area and serializes the FlatBuffer with the
// generic builder.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/name_index.h"
#include "base/arena.h"
#include "base/checked_math.h"
#include "base/file.h"
#include "base/flatbuffer_builder.h"
#include "base/sha256.h"
#include "schemas/module_def.h"
#include "schemas/module_file.h"

#define GRT_MODULE_MAX_REGISTER_COUNT 65536u

typedef struct grt_module_writer_rodata_t {
  grt_module_rodata_t rodata;
  uint64_t data_offset;  // in the data area, when external
} grt_module_writer_rodata_t;

typedef struct grt_module_writer_executable_t {
  grt_string_view_t format;
  grt_const_byte_span_t binary;
  uint8_t digest[GRT_MODULE_DIGEST_SIZE];
  uint32_t first_entry_point;  // into the writer's entry_points
  uint32_t entry_point_count;
  uint64_t data_offset;
} grt_module_writer_executable_t;

// A growable array of |item_size|-byte items.
typedef struct grt_module_writer_list_t {
  void* items;
  size_t count;
  size_t capacity;
} grt_module_writer_list_t;

struct grt_module_writer_t {
  grt_allocator_t allocator;
  grt_arena_t arena;  // copies of every string and byte run added
  grt_string_view_t name;
  uint32_t version;
  uint64_t features;
  uint32_t global_bytes;
  uint32_t global_ref_count;
  grt_const_byte_span_t bytecode;
  grt_module_writer_list_t imports;        // grt_module_import_t
  grt_module_writer_list_t functions;      // grt_module_function_t
  // uint64_t per function ordinal, only as far as the last one set.
  grt_module_writer_list_t transient_bytes;
  // Two grt_string_view_t (tensor signature, transient plan) per function
  // ordinal, only as far as the last one set.
  grt_module_writer_list_t shapes;
  grt_module_writer_list_t exports;        // grt_module_export_t
  grt_module_writer_list_t rodata;         // grt_module_writer_rodata_t
  grt_module_writer_list_t executables;    // grt_module_writer_executable_t
  grt_module_writer_list_t entry_points;   // grt_module_entry_point_t
  grt_module_writer_list_t locations;      // grt_module_debug_location_t
  // Names of |functions| (the first of a name) and |exports| -> ordinal,
  // so adding 100 000 of them is linear, not quadratic.
  grt_name_index_t function_names;
  grt_name_index_t export_names;
};

#define GRT_MODULE_WRITER_ITEM(list, type, index) \
  (((type*)(list).items)[index])

static grt_status_t grt_module_writer_list_append(grt_module_writer_t* writer,
                                                  grt_module_writer_list_t* list,
                                                  size_t item_size,
                                                  const char* what,
                                                  void** out_item) {
  if (list->count >= UINT32_MAX) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "module writer: more than %u %s", UINT32_MAX, what);
  }
  if (list->count == list->capacity) {
    size_t capacity = list->capacity ? list->capacity * 2 : 8;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(
        writer->allocator, list->capacity * item_size, capacity * item_size,
        &list->items));
    list->capacity = capacity;
  }
  *out_item = (char*)list->items + list->count * item_size;
  ++list->count;
  return grt_ok_status();
}

static grt_status_t grt_module_writer_copy_bytes(grt_module_writer_t* writer,
                                                 const void* data, size_t size,
                                                 size_t alignment,
                                                 const void** out_copy) {
  void* copy = NULL;
  GRT_RETURN_IF_ERROR(
      grt_arena_allocate_aligned(&writer->arena, size, alignment, &copy));
  if (size) memcpy(copy, data, size);
  *out_copy = copy;
  return grt_ok_status();
}

static grt_status_t grt_module_writer_copy_string(grt_module_writer_t* writer,
                                                  grt_string_view_t value,
                                                  grt_string_view_t* out_copy) {
  const void* copy = NULL;
  GRT_RETURN_IF_ERROR(
      grt_module_writer_copy_bytes(writer, value.data, value.size, 1, &copy));
  *out_copy = grt_make_string_view((const char*)copy, value.size);
  return grt_ok_status();
}

grt_status_t grt_module_writer_create(grt_allocator_t allocator,
                                      grt_module_writer_t** out_writer) {
  *out_writer = NULL;
  grt_module_writer_t* writer = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, sizeof(*writer), (void**)&writer));
  writer->allocator = allocator;
  grt_arena_init(allocator, 0, &writer->arena);
  grt_name_index_initialize(allocator, &writer->function_names);
  grt_name_index_initialize(allocator, &writer->export_names);
  writer->name = grt_string_view_empty();
  *out_writer = writer;
  return grt_ok_status();
}

void grt_module_writer_destroy(grt_module_writer_t* writer) {
  if (!writer) return;
  grt_module_writer_list_t* lists[] = {
      &writer->imports,     &writer->functions,    &writer->exports,
      &writer->rodata,      &writer->executables,  &writer->entry_points,
      &writer->locations,   &writer->transient_bytes, &writer->shapes};
  for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); ++i) {
    grt_allocator_free(writer->allocator, lists[i]->items);
  }
  grt_name_index_deinitialize(&writer->function_names);
  grt_name_index_deinitialize(&writer->export_names);
  grt_arena_deinit(&writer->arena);
  grt_allocator_free(writer->allocator, writer);
}

grt_status_t grt_module_writer_set_name(grt_module_writer_t* writer,
                                        grt_string_view_t name,
                                        uint32_t version) {
  if (name.size == 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "module writer: module name must not be empty");
  }
  GRT_RETURN_IF_ERROR(grt_module_writer_copy_string(writer, name, &writer->name));
  writer->version = version;
  return grt_ok_status();
}

void grt_module_writer_set_features(grt_module_writer_t* writer,
                                    uint64_t features) {
  writer->features = features;
}

void grt_module_writer_set_globals(grt_module_writer_t* writer,
                                   uint32_t global_bytes,
                                   uint32_t global_ref_count) {
  writer->global_bytes = global_bytes;
  writer->global_ref_count = global_ref_count;
}

grt_status_t grt_module_writer_set_bytecode(grt_module_writer_t* writer,
                                            grt_const_byte_span_t bytecode) {
  const void* copy = NULL;
  GRT_RETURN_IF_ERROR(grt_module_writer_copy_bytes(
      writer, bytecode.data, bytecode.size, GRT_ALLOCATOR_DEFAULT_ALIGNMENT,
      &copy));
  writer->bytecode = grt_make_const_byte_span(copy, bytecode.size);
  return grt_ok_status();
}

grt_status_t grt_module_writer_add_import(grt_module_writer_t* writer,
                                          const grt_module_import_t* import,
                                          uint32_t* out_ordinal) {
  if (import->full_name.size == 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "module writer: import %zu has an empty name",
                           writer->imports.count);
  }
  grt_module_import_t copy = *import;
  GRT_RETURN_IF_ERROR(
      grt_module_writer_copy_string(writer, import->full_name, &copy.full_name));
  GRT_RETURN_IF_ERROR(grt_module_writer_copy_string(
      writer, import->calling_convention, &copy.calling_convention));
  void* item = NULL;
  GRT_RETURN_IF_ERROR(grt_module_writer_list_append(
      writer, &writer->imports, sizeof(copy), "imports", &item));
  memcpy(item, &copy, sizeof(copy));
  if (out_ordinal) *out_ordinal = (uint32_t)(writer->imports.count - 1);
  return grt_ok_status();
}

grt_status_t grt_module_writer_add_function(
    grt_module_writer_t* writer, const grt_module_function_t* function,
    uint32_t* out_ordinal) {
  if (function->i32_register_count > GRT_MODULE_MAX_REGISTER_COUNT ||
      function->ref_register_count > GRT_MODULE_MAX_REGISTER_COUNT) {
    return grt_make_status(
        GRT_STATUS_INVALID_ARGUMENT,
        "module writer: function '%.*s' needs %u i32 and %u ref registers; "
        "the limit is %u per bank",
        GRT_SV_ARG(function->name), function->i32_register_count,
        function->ref_register_count, GRT_MODULE_MAX_REGISTER_COUNT);
  }
  grt_module_function_t copy = *function;
  GRT_RETURN_IF_ERROR(
      grt_module_writer_copy_string(writer, function->name, &copy.name));
  GRT_RETURN_IF_ERROR(grt_module_writer_copy_string(
      writer, function->calling_convention, &copy.calling_convention));
  void* item = NULL;
  GRT_RETURN_IF_ERROR(grt_module_writer_list_append(
      writer, &writer->functions, sizeof(copy), "functions", &item));
  memcpy(item, &copy, sizeof(copy));
  uint32_t ordinal = (uint32_t)(writer->functions.count - 1);
  // A repeated name keeps its first ordinal (what lookups by name find).
  uint32_t first = 0;
  grt_status_t status = grt_name_index_insert(&writer->function_names,
                                              copy.name, ordinal, &first);
  if (grt_status_code(status) == GRT_STATUS_ALREADY_EXISTS) {
    grt_status_free(status);
    status = grt_ok_status();
  }
  if (!grt_status_is_ok(status)) {
    --writer->functions.count;
    return status;
  }
  if (out_ordinal) *out_ordinal = ordinal;
  return grt_ok_status();
}

grt_status_t grt_module_writer_set_function_transient_bytes(
    grt_module_writer_t* writer, grt_string_view_t name,
    uint64_t transient_bytes) {
  uint32_t i = 0;
  if (grt_name_index_find(&writer->function_names, name, &i)) {
    while (writer->transient_bytes.count <= i) {
      uint64_t* item = NULL;
      GRT_RETURN_IF_ERROR(grt_module_writer_list_append(
          writer, &writer->transient_bytes, sizeof(uint64_t),
          "transient sizes", (void**)&item));
      *item = 0;
    }
    GRT_MODULE_WRITER_ITEM(writer->transient_bytes, uint64_t, i) =
        transient_bytes;
    return grt_ok_status();
  }
  return grt_make_status(GRT_STATUS_NOT_FOUND,
                         "module writer: no function '%.*s' to set the "
                         "transient size of",
                         GRT_SV_ARG(name));
}

grt_status_t grt_module_writer_set_function_shapes(
    grt_module_writer_t* writer, grt_string_view_t name,
    grt_string_view_t tensor_signature, grt_string_view_t transient_plan) {
  uint32_t i = 0;
  if (!grt_name_index_find(&writer->function_names, name, &i)) {
    return grt_make_status(GRT_STATUS_NOT_FOUND,
                           "module writer: no function '%.*s' to set the "
                           "tensor signature of",
                           GRT_SV_ARG(name));
  }
  while (writer->shapes.count <= i) {
    grt_string_view_t* item = NULL;
    GRT_RETURN_IF_ERROR(grt_module_writer_list_append(
        writer, &writer->shapes, 2 * sizeof(grt_string_view_t),
        "tensor signatures", (void**)&item));
    item[0] = grt_string_view_empty();
    item[1] = grt_string_view_empty();
  }
  grt_string_view_t* item =
      &GRT_MODULE_WRITER_ITEM(writer->shapes, grt_string_view_t, 2 * i);
  GRT_RETURN_IF_ERROR(
      grt_module_writer_copy_string(writer, tensor_signature, &item[0]));
  return grt_module_writer_copy_string(writer, transient_plan, &item[1]);
}

grt_status_t grt_module_writer_add_export(grt_module_writer_t* writer,
                                          const grt_module_export_t* export_def) {
  uint32_t existing = 0;
  if (grt_name_index_find(&writer->export_names, export_def->name, &existing)) {
    return grt_make_status(GRT_STATUS_ALREADY_EXISTS,
                           "module writer: export '%.*s' is already defined "
                           "(export %u)",
                           GRT_SV_ARG(export_def->name), existing);
  }
  grt_module_export_t copy = *export_def;
  GRT_RETURN_IF_ERROR(
      grt_module_writer_copy_string(writer, export_def->name, &copy.name));
  void* item = NULL;
  GRT_RETURN_IF_ERROR(grt_module_writer_list_append(
      writer, &writer->exports, sizeof(copy), "exports", &item));
  memcpy(item, &copy, sizeof(copy));
  grt_status_t status = grt_name_index_insert(
      &writer->export_names, copy.name,
      (uint32_t)(writer->exports.count - 1), NULL);
  if (!grt_status_is_ok(status)) --writer->exports.count;
  return status;
}

grt_status_t grt_module_writer_add_rodata(grt_module_writer_t* writer,
                                          const grt_module_rodata_t* rodata,
                                          uint32_t* out_ordinal) {
  if (!grt_is_power_of_two_size(rodata->alignment) ||
      rodata->alignment > GRT_MODULE_SEGMENT_ALIGNMENT) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "module writer: rodata %zu alignment %u is not a "
                           "power of two <= %d",
                           writer->rodata.count, rodata->alignment,
                           GRT_MODULE_SEGMENT_ALIGNMENT);
  }
  grt_module_writer_rodata_t copy;
  memset(&copy, 0, sizeof(copy));
  copy.rodata = *rodata;
  const void* data = NULL;
  GRT_RETURN_IF_ERROR(grt_module_writer_copy_bytes(
      writer, rodata->data.data, rodata->data.size, rodata->alignment, &data));
  copy.rodata.data = grt_make_const_byte_span(data, rodata->data.size);
  void* item = NULL;
  GRT_RETURN_IF_ERROR(grt_module_writer_list_append(
      writer, &writer->rodata, sizeof(copy), "rodata segments", &item));
  memcpy(item, &copy, sizeof(copy));
  if (out_ordinal) *out_ordinal = (uint32_t)(writer->rodata.count - 1);
  return grt_ok_status();
}

grt_status_t grt_module_writer_add_executable(
    grt_module_writer_t* writer, const grt_module_executable_t* executable,
    const grt_module_entry_point_t* entry_points, uint32_t entry_point_count,
    uint32_t* out_ordinal) {
  if (executable->format.size == 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "module writer: executable %zu has an empty format",
                           writer->executables.count);
  }
  grt_module_writer_executable_t copy;
  memset(&copy, 0, sizeof(copy));
  GRT_RETURN_IF_ERROR(
      grt_module_writer_copy_string(writer, executable->format, &copy.format));
  const void* binary = NULL;
  GRT_RETURN_IF_ERROR(grt_module_writer_copy_bytes(
      writer, executable->binary.data, executable->binary.size,
      GRT_ALLOCATOR_DEFAULT_ALIGNMENT, &binary));
  copy.binary = grt_make_const_byte_span(binary, executable->binary.size);
  grt_sha256(copy.binary.data, copy.binary.size, copy.digest);
  copy.first_entry_point = (uint32_t)writer->entry_points.count;
  copy.entry_point_count = entry_point_count;
  for (uint32_t i = 0; i < entry_point_count; ++i) {
    grt_module_entry_point_t entry_point = entry_points[i];
    GRT_RETURN_IF_ERROR(grt_module_writer_copy_string(
        writer, entry_points[i].name, &entry_point.name));
    // The per-binding tables are copied too, so callers need not keep them.
    if (entry_point.binding_access) {
      const void* access = NULL;
      GRT_RETURN_IF_ERROR(grt_module_writer_copy_bytes(
          writer, entry_point.binding_access, entry_point.binding_count, 1,
          &access));
      entry_point.binding_access = access;
    }
    if (entry_point.binding_min_lengths) {
      const void* lengths = NULL;
      GRT_RETURN_IF_ERROR(grt_module_writer_copy_bytes(
          writer, entry_point.binding_min_lengths,
          (size_t)entry_point.binding_count * 8, 8, &lengths));
      entry_point.binding_min_lengths = lengths;
    }
    void* item = NULL;
    GRT_RETURN_IF_ERROR(grt_module_writer_list_append(
        writer, &writer->entry_points, sizeof(entry_point), "entry points",
        &item));
    memcpy(item, &entry_point, sizeof(entry_point));
  }
  void* item = NULL;
  GRT_RETURN_IF_ERROR(grt_module_writer_list_append(
      writer, &writer->executables, sizeof(copy), "executables", &item));
  memcpy(item, &copy, sizeof(copy));
  if (out_ordinal) *out_ordinal = (uint32_t)(writer->executables.count - 1);
  return grt_ok_status();
}

grt_status_t grt_module_writer_add_debug_location(
    grt_module_writer_t* writer, const grt_module_debug_location_t* location) {
  grt_module_debug_location_t copy = *location;
  GRT_RETURN_IF_ERROR(grt_module_writer_copy_string(writer, location->location,
                                                    &copy.location));
  void* item = NULL;
  GRT_RETURN_IF_ERROR(grt_module_writer_list_append(
      writer, &writer->locations, sizeof(copy), "debug locations", &item));
  memcpy(item, &copy, sizeof(copy));
  return grt_ok_status();
}

static int grt_module_writer_compare_locations(const void* a, const void* b) {
  const grt_module_debug_location_t* x = (const grt_module_debug_location_t*)a;
  const grt_module_debug_location_t* y = (const grt_module_debug_location_t*)b;
  if (x->function_ordinal != y->function_ordinal) {
    return x->function_ordinal < y->function_ordinal ? -1 : 1;
  }
  return (x->bytecode_offset > y->bytecode_offset) -
         (x->bytecode_offset < y->bytecode_offset);
}

// Checks everything that refers across parts, and sorts debug locations
// into the order the reader requires.
static grt_status_t grt_module_writer_check(grt_module_writer_t* writer) {
  if (writer->name.size == 0) {
    return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                           "module writer: no module name was set");
  }
  size_t function_count = writer->functions.count;
  for (size_t i = 0; i < function_count; ++i) {
    const grt_module_function_t* function =
        &GRT_MODULE_WRITER_ITEM(writer->functions, grt_module_function_t, i);
    uint64_t end = (uint64_t)function->bytecode_offset + function->bytecode_length;
    if (end > writer->bytecode.size) {
      return grt_make_status(
          GRT_STATUS_OUT_OF_RANGE,
          "module writer: function %zu ('%.*s') bytecode range [%u, %llu) "
          "lies outside the bytecode blob of %zu bytes",
          i, GRT_SV_ARG(function->name), function->bytecode_offset,
          (unsigned long long)end, writer->bytecode.size);
    }
  }
  for (size_t i = 0; i < writer->exports.count; ++i) {
    const grt_module_export_t* export_def =
        &GRT_MODULE_WRITER_ITEM(writer->exports, grt_module_export_t, i);
    if (export_def->function_ordinal >= function_count) {
      return grt_make_status(
          GRT_STATUS_OUT_OF_RANGE,
          "module writer: export '%.*s' refers to function %u but the module "
          "has %zu functions",
          GRT_SV_ARG(export_def->name), export_def->function_ordinal,
          function_count);
    }
  }
  grt_module_debug_location_t* locations =
      (grt_module_debug_location_t*)writer->locations.items;
  if (writer->locations.count > 1) {
    qsort(locations, writer->locations.count, sizeof(*locations),
          grt_module_writer_compare_locations);
  }
  for (size_t i = 0; i < writer->locations.count; ++i) {
    if (locations[i].function_ordinal >= function_count) {
      return grt_make_status(
          GRT_STATUS_OUT_OF_RANGE,
          "module writer: debug location '%.*s' refers to function %u but the "
          "module has %zu functions",
          GRT_SV_ARG(locations[i].location), locations[i].function_ordinal,
          function_count);
    }
    if (i > 0 && grt_module_writer_compare_locations(&locations[i - 1],
                                                     &locations[i]) == 0) {
      return grt_make_status(
          GRT_STATUS_ALREADY_EXISTS,
          "module writer: two debug locations for function %u offset %u "
          "('%.*s' and '%.*s')",
          locations[i].function_ordinal, locations[i].bytecode_offset,
          GRT_SV_ARG(locations[i - 1].location),
          GRT_SV_ARG(locations[i].location));
    }
  }
  return grt_ok_status();
}

// Assigns each external segment its 64-byte-aligned place in the data area.
static grt_status_t grt_module_writer_layout(grt_module_writer_t* writer,
                                             uint64_t* out_data_size) {
  uint64_t offset = 0;
  for (size_t i = 0; i < writer->rodata.count + writer->executables.count; ++i) {
    bool is_rodata = i < writer->rodata.count;
    grt_module_writer_rodata_t* rodata =
        is_rodata ? &GRT_MODULE_WRITER_ITEM(writer->rodata,
                                            grt_module_writer_rodata_t, i)
                  : NULL;
    grt_module_writer_executable_t* executable =
        is_rodata ? NULL
                  : &GRT_MODULE_WRITER_ITEM(writer->executables,
                                            grt_module_writer_executable_t,
                                            i - writer->rodata.count);
    if (rodata && !rodata->rodata.external) continue;
    uint64_t size = rodata ? rodata->rodata.data.size : executable->binary.size;
    offset = (offset + GRT_MODULE_SEGMENT_ALIGNMENT - 1) &
             ~(uint64_t)(GRT_MODULE_SEGMENT_ALIGNMENT - 1);
    if (rodata) {
      rodata->data_offset = offset;
    } else {
      executable->data_offset = offset;
    }
    if (!grt_checked_add_u64(offset, size, &offset) || offset > SIZE_MAX / 2) {
      return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                             "module writer: data area exceeds %zu bytes",
                             (size_t)(SIZE_MAX / 2));
    }
  }
  *out_data_size = offset;
  return grt_ok_status();
}

static void grt_module_writer_segment_ref(uint64_t offset, uint64_t length,
                                          uint8_t out_ref[GRT_SEGMENT_REF_SIZE]) {
  for (int i = 0; i < 8; ++i) {
    out_ref[i] = (uint8_t)(offset >> (8 * i));
    out_ref[8 + i] = (uint8_t)(length >> (8 * i));
  }
}

// Serializes the module's tables; every vector of tables is built child
// first into |refs| (sized for the longest list) and then as one vector.
static grt_fb_ref_t grt_module_writer_build(grt_module_writer_t* writer,
                                            grt_fb_builder_t* b,
                                            grt_fb_ref_t* refs) {
  size_t count = writer->imports.count;
  for (size_t i = 0; i < count; ++i) {
    const grt_module_import_t* import =
        &GRT_MODULE_WRITER_ITEM(writer->imports, grt_module_import_t, i);
    grt_fb_ref_t full_name = grt_fb_builder_create_string(b, import->full_name);
    grt_fb_ref_t convention =
        grt_fb_builder_create_string(b, import->calling_convention);
    grt_fb_builder_start_table(b);
    grt_fb_builder_add_offset(b, grt_ImportFunctionDef_full_name, full_name);
    grt_fb_builder_add_offset(b, grt_ImportFunctionDef_calling_convention,
                              convention);
    grt_fb_builder_add_scalar(b, grt_ImportFunctionDef_optional,
                              import->optional, 0, 1);
    refs[i] = grt_fb_builder_end_table(b);
  }
  grt_fb_ref_t imports = grt_fb_builder_create_offset_vector(b, refs, count);

  count = writer->exports.count;
  for (size_t i = 0; i < count; ++i) {
    const grt_module_export_t* export_def =
        &GRT_MODULE_WRITER_ITEM(writer->exports, grt_module_export_t, i);
    grt_fb_ref_t name = grt_fb_builder_create_string(b, export_def->name);
    grt_fb_builder_start_table(b);
    grt_fb_builder_add_offset(b, grt_ExportFunctionDef_name, name);
    grt_fb_builder_add_scalar(b, grt_ExportFunctionDef_function_ordinal,
                              export_def->function_ordinal, 0, 4);
    refs[i] = grt_fb_builder_end_table(b);
  }
  grt_fb_ref_t exports = grt_fb_builder_create_offset_vector(b, refs, count);

  count = writer->functions.count;
  for (size_t i = 0; i < count; ++i) {
    const grt_module_function_t* function =
        &GRT_MODULE_WRITER_ITEM(writer->functions, grt_module_function_t, i);
    grt_fb_ref_t name = grt_fb_builder_create_string(b, function->name);
    grt_fb_ref_t convention =
        grt_fb_builder_create_string(b, function->calling_convention);
    grt_fb_ref_t shapes[2] = {0, 0};
    for (int k = 0; k < 2 && i < writer->shapes.count; ++k) {
      grt_string_view_t text =
          GRT_MODULE_WRITER_ITEM(writer->shapes, grt_string_view_t, 2 * i + k);
      if (text.size) shapes[k] = grt_fb_builder_create_string(b, text);
    }
    grt_fb_builder_start_table(b);
    grt_fb_builder_add_offset(b, grt_FunctionDef_name, name);
    grt_fb_builder_add_offset(b, grt_FunctionDef_calling_convention, convention);
    grt_fb_builder_add_scalar(b, grt_FunctionDef_bytecode_offset,
                              function->bytecode_offset, 0, 4);
    grt_fb_builder_add_scalar(b, grt_FunctionDef_bytecode_length,
                              function->bytecode_length, 0, 4);
    grt_fb_builder_add_scalar(b, grt_FunctionDef_i32_register_count,
                              function->i32_register_count, 0, 4);
    grt_fb_builder_add_scalar(b, grt_FunctionDef_ref_register_count,
                              function->ref_register_count, 0, 4);
    if (i < writer->transient_bytes.count) {
      grt_fb_builder_add_scalar(
          b, grt_FunctionDef_transient_bytes,
          GRT_MODULE_WRITER_ITEM(writer->transient_bytes, uint64_t, i), 0, 8);
    }
    if (shapes[0]) {
      grt_fb_builder_add_offset(b, grt_FunctionDef_tensor_signature, shapes[0]);
    }
    if (shapes[1]) {
      grt_fb_builder_add_offset(b, grt_FunctionDef_transient_plan, shapes[1]);
    }
    refs[i] = grt_fb_builder_end_table(b);
  }
  grt_fb_ref_t functions = grt_fb_builder_create_offset_vector(b, refs, count);

  grt_fb_ref_t bytecode = grt_fb_builder_create_vector(
      b, writer->bytecode.data, writer->bytecode.size, 1, 1);

  count = writer->rodata.count;
  for (size_t i = 0; i < count; ++i) {
    const grt_module_writer_rodata_t* rodata =
        &GRT_MODULE_WRITER_ITEM(writer->rodata, grt_module_writer_rodata_t, i);
    grt_fb_ref_t inline_data =
        rodata->rodata.external
            ? 0
            : grt_fb_builder_create_vector(b, rodata->rodata.data.data,
                                           rodata->rodata.data.size, 1,
                                           rodata->rodata.alignment);
    grt_fb_builder_start_table(b);
    grt_fb_builder_add_scalar(b, grt_RodataSegmentDef_alignment,
                              rodata->rodata.alignment, 1, 4);
    if (rodata->rodata.external) {
      uint8_t ref[GRT_SEGMENT_REF_SIZE];
      grt_module_writer_segment_ref(rodata->data_offset,
                                    rodata->rodata.data.size, ref);
      grt_fb_builder_add_struct(b, grt_RodataSegmentDef_external, ref,
                                sizeof(ref), GRT_SEGMENT_REF_ALIGNMENT);
    } else {
      grt_fb_builder_add_offset(b, grt_RodataSegmentDef_inline_data,
                                inline_data);
    }
    refs[i] = grt_fb_builder_end_table(b);
  }
  grt_fb_ref_t rodata_segments =
      grt_fb_builder_create_offset_vector(b, refs, count);

  count = writer->executables.count;
  for (size_t i = 0; i < count; ++i) {
    const grt_module_writer_executable_t* executable =
        &GRT_MODULE_WRITER_ITEM(writer->executables,
                                grt_module_writer_executable_t, i);
    // Entry points take the front of |refs|; executables' refs are kept
    // past the longest entry point list.
    grt_fb_ref_t* entry_refs = refs + writer->executables.count;
    for (uint32_t e = 0; e < executable->entry_point_count; ++e) {
      const grt_module_entry_point_t* entry_point =
          &GRT_MODULE_WRITER_ITEM(writer->entry_points, grt_module_entry_point_t,
                                  executable->first_entry_point + e);
      grt_fb_ref_t name = grt_fb_builder_create_string(b, entry_point->name);
      grt_fb_ref_t access = 0;
      if (entry_point->binding_access) {
        access = grt_fb_builder_create_vector(
            b, entry_point->binding_access, entry_point->binding_count, 1, 1);
      }
      grt_fb_ref_t min_lengths = 0;
      if (entry_point->binding_min_lengths) {
        // Already little-endian, as the file stores them.
        min_lengths = grt_fb_builder_create_vector(
            b, entry_point->binding_min_lengths, entry_point->binding_count, 8,
            8);
      }
      uint8_t workgroup_size[GRT_WORKGROUP_SIZE_SIZE];
      for (int axis = 0; axis < 3; ++axis) {
        for (int byte = 0; byte < 4; ++byte) {
          workgroup_size[4 * axis + byte] =
              (uint8_t)(entry_point->workgroup_size[axis] >> (8 * byte));
        }
      }
      grt_fb_builder_start_table(b);
      grt_fb_builder_add_offset(b, grt_EntryPointDef_name, name);
      grt_fb_builder_add_scalar(b, grt_EntryPointDef_binding_count,
                                entry_point->binding_count, 0, 4);
      grt_fb_builder_add_scalar(b, grt_EntryPointDef_constant_count,
                                entry_point->constant_count, 0, 4);
      grt_fb_builder_add_struct(b, grt_EntryPointDef_workgroup_size,
                                workgroup_size, sizeof(workgroup_size),
                                GRT_WORKGROUP_SIZE_ALIGNMENT);
      if (access) {
        grt_fb_builder_add_offset(b, grt_EntryPointDef_binding_access, access);
      }
      if (min_lengths) {
        grt_fb_builder_add_offset(b, grt_EntryPointDef_binding_min_lengths,
                                  min_lengths);
      }
      entry_refs[e] = grt_fb_builder_end_table(b);
    }
    grt_fb_ref_t entry_points = grt_fb_builder_create_offset_vector(
        b, entry_refs, executable->entry_point_count);
    grt_fb_ref_t format = grt_fb_builder_create_string(b, executable->format);
    grt_fb_ref_t digest = grt_fb_builder_create_vector(
        b, executable->digest, GRT_MODULE_DIGEST_SIZE, 1, 1);
    uint8_t binary[GRT_SEGMENT_REF_SIZE];
    grt_module_writer_segment_ref(executable->data_offset,
                                  executable->binary.size, binary);
    grt_fb_builder_start_table(b);
    grt_fb_builder_add_offset(b, grt_ExecutableDef_format, format);
    grt_fb_builder_add_offset(b, grt_ExecutableDef_entry_points, entry_points);
    grt_fb_builder_add_struct(b, grt_ExecutableDef_binary, binary,
                              sizeof(binary), GRT_SEGMENT_REF_ALIGNMENT);
    grt_fb_builder_add_offset(b, grt_ExecutableDef_digest, digest);
    refs[i] = grt_fb_builder_end_table(b);
  }
  grt_fb_ref_t executables = grt_fb_builder_create_offset_vector(b, refs, count);

  grt_fb_ref_t debug_info = 0;
  count = writer->locations.count;
  if (count > 0) {
    for (size_t i = 0; i < count; ++i) {
      const grt_module_debug_location_t* location = &GRT_MODULE_WRITER_ITEM(
          writer->locations, grt_module_debug_location_t, i);
      grt_fb_ref_t text = grt_fb_builder_create_string(b, location->location);
      grt_fb_builder_start_table(b);
      grt_fb_builder_add_scalar(b, grt_DebugLocationDef_function_ordinal,
                                location->function_ordinal, 0, 4);
      grt_fb_builder_add_scalar(b, grt_DebugLocationDef_bytecode_offset,
                                location->bytecode_offset, 0, 4);
      grt_fb_builder_add_offset(b, grt_DebugLocationDef_location, text);
      refs[i] = grt_fb_builder_end_table(b);
    }
    grt_fb_ref_t locations = grt_fb_builder_create_offset_vector(b, refs, count);
    grt_fb_builder_start_table(b);
    grt_fb_builder_add_offset(b, grt_DebugInfoDef_locations, locations);
    debug_info = grt_fb_builder_end_table(b);
  }

  grt_fb_ref_t name = grt_fb_builder_create_string(b, writer->name);
  grt_fb_builder_start_table(b);
  grt_fb_builder_add_offset(b, grt_ModuleDef_name, name);
  grt_fb_builder_add_scalar(b, grt_ModuleDef_version, writer->version, 0, 4);
  grt_fb_builder_add_scalar(b, grt_ModuleDef_format_version_major,
                            GRT_MODULE_FORMAT_VERSION_MAJOR, 0, 4);
  grt_fb_builder_add_scalar(b, grt_ModuleDef_format_version_minor,
                            GRT_MODULE_FORMAT_VERSION_MINOR, 0, 4);
  grt_fb_builder_add_scalar(b, grt_ModuleDef_features, writer->features, 0, 8);
  grt_fb_builder_add_offset(b, grt_ModuleDef_imports, imports);
  grt_fb_builder_add_offset(b, grt_ModuleDef_exports, exports);
  grt_fb_builder_add_offset(b, grt_ModuleDef_functions, functions);
  grt_fb_builder_add_offset(b, grt_ModuleDef_bytecode, bytecode);
  grt_fb_builder_add_offset(b, grt_ModuleDef_rodata_segments, rodata_segments);
  grt_fb_builder_add_scalar(b, grt_ModuleDef_global_bytes,
                            writer->global_bytes, 0, 4);
  grt_fb_builder_add_scalar(b, grt_ModuleDef_global_ref_count,
                            writer->global_ref_count, 0, 4);
  grt_fb_builder_add_offset(b, grt_ModuleDef_executables, executables);
  grt_fb_builder_add_offset(b, grt_ModuleDef_debug_info, debug_info);
  return grt_fb_builder_end_table(b);
}

// Zeros for the padding before and between segments (each gap is less
// than the segment alignment).
static const uint8_t grt_module_writer_zeros[GRT_MODULE_SEGMENT_ALIGNMENT];

// The serialized module as the pieces of the file, in order: the
// FlatBuffer, the padding to the data area, then each external segment
// with the padding before it. The pieces point at |flatbuffer| and at the
// writer's own copies of the segments, so a file is written without one
// allocation holding all of it. The caller frees *out_chunks.
static grt_status_t grt_module_writer_chunks(grt_module_writer_t* writer,
                                             grt_const_byte_span_t flatbuffer,
                                             uint64_t data_size,
                                             grt_file_chunk_t** out_chunks,
                                             size_t* out_count, size_t* out_size) {
  *out_chunks = NULL;
  *out_count = 0;
  size_t data_start = 0;
  if (!grt_checked_align_size(flatbuffer.size, GRT_MODULE_SEGMENT_ALIGNMENT, &data_start) ||
      data_size > SIZE_MAX - data_start) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "module writer: file size overflows");
  }
  size_t segments = writer->rodata.count + writer->executables.count;
  // Each segment and the gap before it, the FlatBuffer and its padding.
  size_t capacity = 2 * segments + 2;
  grt_file_chunk_t* chunks = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_malloc(writer->allocator, capacity * sizeof(*chunks), (void**)&chunks));
  size_t count = 0;
  chunks[count++] = (grt_file_chunk_t){flatbuffer.data, flatbuffer.size};
  if (data_start > flatbuffer.size) {
    chunks[count++] =
        (grt_file_chunk_t){grt_module_writer_zeros, data_start - flatbuffer.size};
  }
  uint64_t cursor = 0;  // in the data area
  for (size_t i = 0; i < segments; ++i) {
    bool is_rodata = i < writer->rodata.count;
    const grt_module_writer_rodata_t* rodata =
        is_rodata ? &GRT_MODULE_WRITER_ITEM(writer->rodata, grt_module_writer_rodata_t, i)
                  : NULL;
    const grt_module_writer_executable_t* executable =
        is_rodata ? NULL
                  : &GRT_MODULE_WRITER_ITEM(writer->executables, grt_module_writer_executable_t,
                                            i - writer->rodata.count);
    if (rodata && !rodata->rodata.external) continue;
    grt_const_byte_span_t bytes = rodata ? rodata->rodata.data : executable->binary;
    uint64_t offset = rodata ? rodata->data_offset : executable->data_offset;
    if (!bytes.size) continue;
    if (offset - cursor > 0) {
      chunks[count++] = (grt_file_chunk_t){grt_module_writer_zeros, (size_t)(offset - cursor)};
    }
    chunks[count++] = (grt_file_chunk_t){bytes.data, bytes.size};
    cursor = offset + bytes.size;
  }
  // The layout places segments in this order, each gap below the
  // alignment, and ends the data area with the last one.
  for (size_t i = 0; i < count; ++i) {
    if (chunks[i].data == grt_module_writer_zeros &&
        chunks[i].size > sizeof(grt_module_writer_zeros)) {
      grt_allocator_free(writer->allocator, chunks);
      return grt_make_status(GRT_STATUS_INTERNAL, "module writer: a gap of %zu bytes",
                             chunks[i].size);
    }
  }
  *out_chunks = chunks;
  *out_count = count;
  *out_size = data_start + (size_t)data_size;
  return grt_ok_status();
}

// Checks, lays out and serializes the module: |builder| (initialized
// here; the caller deinitializes it) holds the FlatBuffer |chunks|[0]
// points at.
static grt_status_t grt_module_writer_serialize(grt_module_writer_t* writer,
                                                grt_fb_builder_t* builder,
                                                grt_file_chunk_t** out_chunks,
                                                size_t* out_count, size_t* out_size) {
  grt_fb_builder_initialize(writer->allocator, builder);
  GRT_RETURN_IF_ERROR(grt_module_writer_check(writer));
  uint64_t data_size = 0;
  GRT_RETURN_IF_ERROR(grt_module_writer_layout(writer, &data_size));

  // One scratch array serves every vector: executables' refs sit after the
  // entry points of the executable being built (see the builder code).
  size_t ref_capacity = writer->executables.count + writer->entry_points.count;
  const size_t counts[] = {writer->imports.count, writer->exports.count,
                           writer->functions.count, writer->rodata.count,
                           writer->locations.count};
  for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); ++i) {
    if (counts[i] > ref_capacity) ref_capacity = counts[i];
  }
  grt_fb_ref_t* refs = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(
      writer->allocator, ref_capacity * sizeof(*refs), (void**)&refs));
  grt_fb_ref_t root = grt_module_writer_build(writer, builder, refs);
  grt_allocator_free(writer->allocator, refs);
  grt_const_byte_span_t flatbuffer;
  GRT_RETURN_IF_ERROR(grt_fb_builder_finish(builder, root, GRT_MODULE_FILE_IDENTIFIER, true,
                                            &flatbuffer));
  return grt_module_writer_chunks(writer, flatbuffer, data_size, out_chunks, out_count,
                                  out_size);
}

grt_status_t grt_module_writer_finish(grt_module_writer_t* writer,
                                      void** out_data, size_t* out_size) {
  *out_data = NULL;
  *out_size = 0;
  grt_fb_builder_t builder;
  grt_file_chunk_t* chunks = NULL;
  size_t count = 0, file_size = 0;
  grt_status_t status =
      grt_module_writer_serialize(writer, &builder, &chunks, &count, &file_size);
  uint8_t* file = NULL;
  if (grt_status_is_ok(status)) {
    status = grt_allocator_malloc_aligned(writer->allocator, file_size,
                                          GRT_MODULE_SEGMENT_ALIGNMENT, (void**)&file);
  }
  if (grt_status_is_ok(status)) {
    // Padding is zeroed so identical modules are byte-identical files.
    size_t offset = 0;
    for (size_t i = 0; i < count; ++i) {
      memcpy(file + offset, chunks[i].data, chunks[i].size);
      offset += chunks[i].size;
    }
    *out_data = file;
    *out_size = file_size;
  }
  grt_allocator_free(writer->allocator, chunks);
  grt_fb_builder_deinitialize(&builder);
  return status;
}

grt_status_t grt_module_writer_write_file(grt_module_writer_t* writer,
                                          const char* path) {
  // Written piece by piece from the writer's copies: a module of large
  // constants needs no second copy of them in memory.
  grt_fb_builder_t builder;
  grt_file_chunk_t* chunks = NULL;
  size_t count = 0, file_size = 0;
  grt_status_t status =
      grt_module_writer_serialize(writer, &builder, &chunks, &count, &file_size);
  if (grt_status_is_ok(status)) {
    status = grt_file_write_chunks(path, chunks, count, GRT_FILE_WRITE_REPLACE);
  } else {
    status = grt_status_annotate(status, "while writing module file '%s'", path);
  }
  grt_allocator_free(writer->allocator, chunks);
  grt_fb_builder_deinitialize(&builder);
  return status;
}
