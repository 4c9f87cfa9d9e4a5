// The module schema (module.fbs, executable.fbs) mirrored in C: one X-macro
// row per field, in declaration order, from which both the field ids used
// by the reader and writer and the verifier's table descriptors are made.
// The .fbs files stay the truth; tests/format cross-checks this mirror
// against them through flatc.
//
// Row: X(table, field, kind, size, alignment, subtable, required), where
// kind is a grt_fb_kind_t suffix and size/alignment describe scalars,
// structs and vector elements (0 for strings, tables and offset vectors).
#ifndef GRT_SCHEMAS_MODULE_DEF_H_
#define GRT_SCHEMAS_MODULE_DEF_H_

#include "base/flatbuffer_verifier.h"

#ifdef __cplusplus
extern "C" {
#endif

// struct SegmentRef { offset:ulong; length:ulong; }
#define GRT_SEGMENT_REF_SIZE 16
#define GRT_SEGMENT_REF_ALIGNMENT 8
// struct WorkgroupSize { x:uint; y:uint; z:uint; }
#define GRT_WORKGROUP_SIZE_SIZE 12
#define GRT_WORKGROUP_SIZE_ALIGNMENT 4

#define GRT_ENTRY_POINT_DEF_FIELDS(X)                                  \
  X(EntryPointDef, name, STRING, 0, 0, NULL, true)                     \
  X(EntryPointDef, binding_count, SCALAR, 4, 4, NULL, false)           \
  X(EntryPointDef, constant_count, SCALAR, 4, 4, NULL, false)          \
  X(EntryPointDef, workgroup_size, STRUCT, GRT_WORKGROUP_SIZE_SIZE,    \
    GRT_WORKGROUP_SIZE_ALIGNMENT, NULL, false)                         \
  X(EntryPointDef, binding_access, VECTOR_OF_SCALARS, 1, 1, NULL, false) \
  X(EntryPointDef, binding_min_lengths, VECTOR_OF_SCALARS, 8, 8, NULL,  \
    false)

#define GRT_EXECUTABLE_DEF_FIELDS(X)                                   \
  X(ExecutableDef, format, STRING, 0, 0, NULL, true)                   \
  X(ExecutableDef, entry_points, VECTOR_OF_TABLES, 0, 0,               \
    &grt_EntryPointDef_desc, false)                                    \
  X(ExecutableDef, binary, STRUCT, GRT_SEGMENT_REF_SIZE,               \
    GRT_SEGMENT_REF_ALIGNMENT, NULL, true)                             \
  X(ExecutableDef, digest, VECTOR_OF_SCALARS, 1, 1, NULL, true)

#define GRT_IMPORT_FUNCTION_DEF_FIELDS(X)                              \
  X(ImportFunctionDef, full_name, STRING, 0, 0, NULL, true)            \
  X(ImportFunctionDef, calling_convention, STRING, 0, 0, NULL, true)   \
  X(ImportFunctionDef, optional, SCALAR, 1, 1, NULL, false)

#define GRT_EXPORT_FUNCTION_DEF_FIELDS(X)                              \
  X(ExportFunctionDef, name, STRING, 0, 0, NULL, true)                 \
  X(ExportFunctionDef, function_ordinal, SCALAR, 4, 4, NULL, false)

#define GRT_FUNCTION_DEF_FIELDS(X)                                     \
  X(FunctionDef, name, STRING, 0, 0, NULL, true)                       \
  X(FunctionDef, calling_convention, STRING, 0, 0, NULL, true)         \
  X(FunctionDef, bytecode_offset, SCALAR, 4, 4, NULL, false)           \
  X(FunctionDef, bytecode_length, SCALAR, 4, 4, NULL, false)           \
  X(FunctionDef, i32_register_count, SCALAR, 4, 4, NULL, false)        \
  X(FunctionDef, ref_register_count, SCALAR, 4, 4, NULL, false)        \
  X(FunctionDef, transient_bytes, SCALAR, 8, 8, NULL, false)          \
  X(FunctionDef, tensor_signature, STRING, 0, 0, NULL, false)          \
  X(FunctionDef, transient_plan, STRING, 0, 0, NULL, false)

#define GRT_RODATA_SEGMENT_DEF_FIELDS(X)                               \
  X(RodataSegmentDef, alignment, SCALAR, 4, 4, NULL, false)            \
  X(RodataSegmentDef, inline_data, VECTOR_OF_SCALARS, 1, 1, NULL,      \
    false)                                                             \
  X(RodataSegmentDef, external, STRUCT, GRT_SEGMENT_REF_SIZE,          \
    GRT_SEGMENT_REF_ALIGNMENT, NULL, false)

#define GRT_DEBUG_LOCATION_DEF_FIELDS(X)                               \
  X(DebugLocationDef, function_ordinal, SCALAR, 4, 4, NULL, false)     \
  X(DebugLocationDef, bytecode_offset, SCALAR, 4, 4, NULL, false)      \
  X(DebugLocationDef, location, STRING, 0, 0, NULL, true)

#define GRT_DEBUG_INFO_DEF_FIELDS(X)                                   \
  X(DebugInfoDef, locations, VECTOR_OF_TABLES, 0, 0,                   \
    &grt_DebugLocationDef_desc, false)

#define GRT_MODULE_DEF_FIELDS(X)                                       \
  X(ModuleDef, name, STRING, 0, 0, NULL, true)                         \
  X(ModuleDef, version, SCALAR, 4, 4, NULL, false)                     \
  X(ModuleDef, format_version_major, SCALAR, 4, 4, NULL, false)        \
  X(ModuleDef, format_version_minor, SCALAR, 4, 4, NULL, false)        \
  X(ModuleDef, features, SCALAR, 8, 8, NULL, false)                    \
  X(ModuleDef, imports, VECTOR_OF_TABLES, 0, 0,                        \
    &grt_ImportFunctionDef_desc, false)                                \
  X(ModuleDef, exports, VECTOR_OF_TABLES, 0, 0,                        \
    &grt_ExportFunctionDef_desc, false)                                \
  X(ModuleDef, functions, VECTOR_OF_TABLES, 0, 0,                      \
    &grt_FunctionDef_desc, false)                                      \
  X(ModuleDef, bytecode, VECTOR_OF_SCALARS, 1, 1, NULL, false)         \
  X(ModuleDef, rodata_segments, VECTOR_OF_TABLES, 0, 0,                \
    &grt_RodataSegmentDef_desc, false)                                 \
  X(ModuleDef, global_bytes, SCALAR, 4, 4, NULL, false)                \
  X(ModuleDef, global_ref_count, SCALAR, 4, 4, NULL, false)            \
  X(ModuleDef, executables, VECTOR_OF_TABLES, 0, 0,                    \
    &grt_ExecutableDef_desc, false)                                    \
  X(ModuleDef, debug_info, TABLE, 0, 0, &grt_DebugInfoDef_desc, false)

// Every table: X(table, FIELDS_MACRO).
#define GRT_MODULE_SCHEMA_TABLES(X)                      \
  X(EntryPointDef, GRT_ENTRY_POINT_DEF_FIELDS)           \
  X(ExecutableDef, GRT_EXECUTABLE_DEF_FIELDS)            \
  X(ImportFunctionDef, GRT_IMPORT_FUNCTION_DEF_FIELDS)   \
  X(ExportFunctionDef, GRT_EXPORT_FUNCTION_DEF_FIELDS)   \
  X(FunctionDef, GRT_FUNCTION_DEF_FIELDS)                \
  X(RodataSegmentDef, GRT_RODATA_SEGMENT_DEF_FIELDS)     \
  X(DebugLocationDef, GRT_DEBUG_LOCATION_DEF_FIELDS)     \
  X(DebugInfoDef, GRT_DEBUG_INFO_DEF_FIELDS)             \
  X(ModuleDef, GRT_MODULE_DEF_FIELDS)

// Field ids: grt_<Table>_<field>.
#define GRT_MODULE_DEF_FIELD_ID(table, field, kind, size, alignment, sub, \
                                required)                                 \
  grt_##table##_##field,
#define GRT_MODULE_DEF_TABLE_IDS(table, FIELDS) \
  enum { FIELDS(GRT_MODULE_DEF_FIELD_ID) };
GRT_MODULE_SCHEMA_TABLES(GRT_MODULE_DEF_TABLE_IDS)
#undef GRT_MODULE_DEF_TABLE_IDS
#undef GRT_MODULE_DEF_FIELD_ID

// Verifier descriptors: grt_<Table>_desc.
#define GRT_MODULE_DEF_TABLE_DESC(table, FIELDS) \
  extern const grt_fb_table_desc_t grt_##table##_desc;
GRT_MODULE_SCHEMA_TABLES(GRT_MODULE_DEF_TABLE_DESC)
#undef GRT_MODULE_DEF_TABLE_DESC

#ifdef __cplusplus
}
#endif

#endif  // GRT_SCHEMAS_MODULE_DEF_H_
