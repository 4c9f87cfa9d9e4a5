// Module files (.vmfb): the one reader and writer that both the compiler and
// the runtime use.
//
// Layout of a file (docs/architecture.md §3):
//   [u32 little-endian size N][FlatBuffer of N bytes, root table ModuleDef,
//    file identifier GRT_MODULE_FILE_IDENTIFIER]
//   [zero padding to a multiple of GRT_MODULE_SEGMENT_ALIGNMENT]
//   [data area: external segments, each at a 64-byte-aligned offset]
// External segments (large rodata, executable binaries) are addressed by
// (offset, length) relative to the start of the data area, so an mmapped
// file can hand weights out in place without copying (executable binaries
// are read into private memory: see grt_module_file_open_options_t).
//
// Opening a file verifies all of it before anything else reads it: the
// FlatBuffer structure (every offset, length, alignment, vtable, depth), the
// format version, and the semantics (segment ranges inside the file, function
// bytecode ranges inside the bytecode blob, export ordinals valid, executable
// digests matching their binaries, debug locations sorted). After a
// successful open every accessor below is a plain read with no checks;
// indices passed to them must be below the counts in grt_module_file_info_t.
#ifndef GRT_SCHEMAS_MODULE_FILE_H_
#define GRT_SCHEMAS_MODULE_FILE_H_

#include <stdbool.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRT_MODULE_FILE_IDENTIFIER "GRTM"
#define GRT_MODULE_FILE_EXTENSION "vmfb"
#define GRT_MODULE_SEGMENT_ALIGNMENT 64
// A reader accepts every minor version of its major version and refuses a
// newer major version with a message naming both.
// 2.0: list.alloc's element type is the ISA's grt_vm_type_t (1.x used
// the runtime's value-type numbering, i32 = 1).
#define GRT_MODULE_FORMAT_VERSION_MAJOR 2
#define GRT_MODULE_FORMAT_VERSION_MINOR 0
// The largest per-binding minimum length a reader accepts (2^48 bytes); a
// larger one is refused as corrupt.
#define GRT_MODULE_MAX_BINDING_MIN_LENGTH (UINT64_C(1) << 48)
#define GRT_MODULE_DIGEST_SIZE 32  // SHA-256 of an executable binary

// A signed module is an unsigned module file (the "body") followed by a
// signature block of GRT_MODULE_SIGNATURE_BLOCK_SIZE bytes
// (docs/module-format.md, "Signatures"; schemas/module_signature.h signs
// and verifies). The reader finds the block by the magic at the very end of
// the file, checks its fields, keeps it out of the data area and computes
// the SHA-256 of the body while opening, so the digest describes exactly
// the bytes the module was read from.
#define GRT_MODULE_SIGNATURE_BLOCK_SIZE 128
#define GRT_MODULE_SIGNATURE_MAGIC "GRTSIGv1"  // 8 bytes, first and last
#define GRT_MODULE_SIGNATURE_ALGORITHM_ED25519 1u
#define GRT_MODULE_PUBLIC_KEY_SIZE 32  // Ed25519
#define GRT_MODULE_SIGNATURE_SIZE 64   // Ed25519

typedef struct grt_module_signature_t {
  uint64_t body_size;  // bytes before the block
  uint8_t public_key[GRT_MODULE_PUBLIC_KEY_SIZE];  // the signer's key
  uint8_t signature[GRT_MODULE_SIGNATURE_SIZE];
  uint8_t body_digest[GRT_MODULE_DIGEST_SIZE];  // SHA-256 of the body
} grt_module_signature_t;

typedef struct grt_module_file_info_t {
  grt_string_view_t name;
  uint32_t version;               // the module's own version
  uint32_t format_version_major;  // of the file format
  uint32_t format_version_minor;
  uint64_t features;              // VM extension bits the module needs
  uint32_t global_bytes;          // primitive global storage, in bytes
  uint32_t global_ref_count;      // ref globals
  uint32_t import_count;
  uint32_t export_count;
  uint32_t function_count;
  uint32_t rodata_count;
  uint32_t executable_count;
  uint32_t debug_location_count;
  grt_const_byte_span_t bytecode;  // the one bytecode blob
} grt_module_file_info_t;

typedef struct grt_module_import_t {
  grt_string_view_t full_name;           // "module.function"
  grt_string_view_t calling_convention;  // e.g. "0iI_r"
  bool optional;  // may be left unresolved; calling it is then a VM error
} grt_module_import_t;

typedef struct grt_module_export_t {
  grt_string_view_t name;
  uint32_t function_ordinal;  // into the module's functions
} grt_module_export_t;

typedef struct grt_module_function_t {
  grt_string_view_t name;
  grt_string_view_t calling_convention;
  uint32_t bytecode_offset;  // into info.bytecode
  uint32_t bytecode_length;
  uint32_t i32_register_count;  // primitive bank, in 32-bit slots (<= 65536)
  uint32_t ref_register_count;  // ref bank (<= 65536)
} grt_module_function_t;

typedef struct grt_module_rodata_t {
  grt_const_byte_span_t data;  // in place: inside the FlatBuffer or data area
  uint32_t alignment;          // guaranteed alignment of data.data
  bool external;               // stored in the data area
} grt_module_rodata_t;

typedef struct grt_module_entry_point_t {
  grt_string_view_t name;
  uint32_t binding_count;
  uint32_t constant_count;  // 32-bit push constants
  uint32_t workgroup_size[3];
  // Per binding, or NULL when absent (files before format 1.1). Verified
  // when the file is opened: binding_count entries each, access bytes 1
  // (read), 2 (written) or 3, minimum lengths <=
  // GRT_MODULE_MAX_BINDING_MIN_LENGTH.
  const uint8_t* binding_access;       // binding_count bytes
  const uint8_t* binding_min_lengths;  // binding_count little-endian u64
} grt_module_entry_point_t;

typedef struct grt_module_executable_t {
  grt_string_view_t format;  // "cpu-x86_64", "cuda-ptx", "vulkan-spirv", ...
  uint32_t entry_point_count;
  grt_const_byte_span_t binary;  // always an external segment
  const uint8_t* digest;         // GRT_MODULE_DIGEST_SIZE bytes, verified
} grt_module_executable_t;

typedef struct grt_module_debug_location_t {
  uint32_t function_ordinal;
  uint32_t bytecode_offset;  // relative to the function's first byte
  grt_string_view_t location;  // "file.mlir:12:5"
} grt_module_debug_location_t;

//===----------------------------------------------------------------------===//
// Reader
//===----------------------------------------------------------------------===//

typedef struct grt_module_file_t grt_module_file_t;

// Verifies and opens a module held in memory. The memory is borrowed: it
// must stay valid and unchanged until the module file is released. It must
// be at least 8-byte aligned.
grt_status_t grt_module_file_open_memory(grt_const_byte_span_t contents,
                                         grt_allocator_t allocator,
                                         grt_module_file_t** out_file)
    GRT_MUST_USE;

// The most bytes a module is read from a file that cannot report its size
// (a pipe, a FIFO, a device such as /dev/zero): 256 MiB. Regular files are
// mapped whatever their size; a stream is read no further than this, so
// --module=/dev/zero fails naming the limit instead of exhausting memory.
#define GRT_MODULE_FILE_MAX_STREAM_SIZE ((size_t)256 << 20)

// Files up to this size are read whole into private memory by
// grt_module_file_open_path: 16 MiB.
#define GRT_MODULE_FILE_DEFAULT_COPY_LIMIT ((size_t)16 << 20)

typedef struct grt_module_file_open_options_t {
  // A regular file of at most this many bytes is read into private memory,
  // so nothing done to the file afterwards reaches the module. A larger one
  // is mapped: its FlatBuffer (bytecode, function, import and export
  // tables, inline rodata, debug info) and its executable binaries are
  // read into private memory before they are verified, and only external
  // rodata (weights) is read from the mapping. Changing the file then
  // changes those weights' values; truncating it makes a later read of a
  // weight past the new end fault (SIGBUS), as with any mapping.
  size_t copy_limit;
} grt_module_file_open_options_t;

// Opens |path| with the default options (copy_limit
// GRT_MODULE_FILE_DEFAULT_COPY_LIMIT). Errors name the path. A path that is
// not a regular file is read up to GRT_MODULE_FILE_MAX_STREAM_SIZE bytes.
grt_status_t grt_module_file_open_path(const char* path,
                                       grt_allocator_t allocator,
                                       grt_module_file_t** out_file)
    GRT_MUST_USE;
grt_status_t grt_module_file_open_path_with_options(
    const char* path, const grt_module_file_open_options_t* options,
    grt_allocator_t allocator, grt_module_file_t** out_file) GRT_MUST_USE;
// True when the file's external rodata is read from a mapping of the file.
bool grt_module_file_is_mapped(const grt_module_file_t* file);
// The file's signature block and the SHA-256 of its body, or NULL when the
// file is not signed. Whether the signature is good is for
// grt_module_file_verify_signature (schemas/module_signature.h) to say.
const grt_module_signature_t* grt_module_file_signature(
    const grt_module_file_t* file);

void grt_module_file_retain(grt_module_file_t* file);
void grt_module_file_release(grt_module_file_t* file);

const grt_module_file_info_t* grt_module_file_info(const grt_module_file_t* file);
grt_module_import_t grt_module_file_import(const grt_module_file_t* file,
                                           uint32_t index);
grt_module_export_t grt_module_file_export(const grt_module_file_t* file,
                                           uint32_t index);
grt_module_function_t grt_module_file_function(const grt_module_file_t* file,
                                               uint32_t index);
// Peak bytes of the transient arena one call of function |index| allocates
// (FunctionDef.transient_bytes, the compiler's memory plan; 0 if none).
uint64_t grt_module_file_function_transient_bytes(const grt_module_file_t* file,
                                                  uint32_t index);
// A shape-polymorphic function's tensor signature ("(?x16xf32) ->
// ?x4xf32") and symbolic arena plan ("64 + [32*s0]; s0: argument 0
// dimension 0"): FunctionDef.tensor_signature / transient_plan, empty when
// absent.
grt_string_view_t grt_module_file_function_tensor_signature(
    const grt_module_file_t* file, uint32_t index);
grt_string_view_t grt_module_file_function_transient_plan(
    const grt_module_file_t* file, uint32_t index);
grt_module_rodata_t grt_module_file_rodata(const grt_module_file_t* file,
                                           uint32_t index);
grt_module_executable_t grt_module_file_executable(
    const grt_module_file_t* file, uint32_t index);
grt_module_entry_point_t grt_module_file_entry_point(
    const grt_module_file_t* file, uint32_t executable_index,
    uint32_t entry_point_index);
grt_module_debug_location_t grt_module_file_debug_location(
    const grt_module_file_t* file, uint32_t index);

// Finds the source location covering |bytecode_offset| in a function: the
// entry with the greatest offset <= bytecode_offset. Returns false when the
// module has no debug info for it.
bool grt_module_file_lookup_location(const grt_module_file_t* file,
                                     uint32_t function_ordinal,
                                     uint32_t bytecode_offset,
                                     grt_string_view_t* out_location);

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

// Collects a module's parts and serializes them. All strings and bytes are
// copied on add, so callers may free their inputs at once. Errors (duplicate
// export names, ordinals out of range, oversized counts) are reported by the
// add call that causes them or, for cross-references, by finish.
typedef struct grt_module_writer_t grt_module_writer_t;

grt_status_t grt_module_writer_create(grt_allocator_t allocator,
                                      grt_module_writer_t** out_writer)
    GRT_MUST_USE;
void grt_module_writer_destroy(grt_module_writer_t* writer);

grt_status_t grt_module_writer_set_name(grt_module_writer_t* writer,
                                        grt_string_view_t name,
                                        uint32_t version) GRT_MUST_USE;
void grt_module_writer_set_features(grt_module_writer_t* writer,
                                    uint64_t features);
void grt_module_writer_set_globals(grt_module_writer_t* writer,
                                   uint32_t global_bytes,
                                   uint32_t global_ref_count);
grt_status_t grt_module_writer_set_bytecode(grt_module_writer_t* writer,
                                            grt_const_byte_span_t bytecode)
    GRT_MUST_USE;
grt_status_t grt_module_writer_add_import(grt_module_writer_t* writer,
                                          const grt_module_import_t* import,
                                          uint32_t* out_ordinal) GRT_MUST_USE;
grt_status_t grt_module_writer_add_function(
    grt_module_writer_t* writer, const grt_module_function_t* function,
    uint32_t* out_ordinal) GRT_MUST_USE;
// Sets the transient arena size of the function already added as |name|;
// NOT_FOUND naming it when there is none.
grt_status_t grt_module_writer_set_function_transient_bytes(
    grt_module_writer_t* writer, grt_string_view_t name,
    uint64_t transient_bytes) GRT_MUST_USE;
// Sets the tensor signature and symbolic arena plan (copied) of the
// function already added as |name| (see grt_module_file_function_
// tensor_signature); NOT_FOUND naming it when there is none.
grt_status_t grt_module_writer_set_function_shapes(
    grt_module_writer_t* writer, grt_string_view_t name,
    grt_string_view_t tensor_signature,
    grt_string_view_t transient_plan) GRT_MUST_USE;
grt_status_t grt_module_writer_add_export(grt_module_writer_t* writer,
                                          const grt_module_export_t* export_def)
    GRT_MUST_USE;
// |rodata->external| picks the data area (use it for anything large);
// |rodata->alignment| (power of two, <= GRT_MODULE_SEGMENT_ALIGNMENT for
// external segments, which are always 64-aligned) is honoured for both.
grt_status_t grt_module_writer_add_rodata(grt_module_writer_t* writer,
                                          const grt_module_rodata_t* rodata,
                                          uint32_t* out_ordinal) GRT_MUST_USE;
// The binary goes to the data area and its digest is computed here
// (|executable->digest| and |entry_point_count| are ignored on input).
grt_status_t grt_module_writer_add_executable(
    grt_module_writer_t* writer, const grt_module_executable_t* executable,
    const grt_module_entry_point_t* entry_points, uint32_t entry_point_count,
    uint32_t* out_ordinal) GRT_MUST_USE;
grt_status_t grt_module_writer_add_debug_location(
    grt_module_writer_t* writer, const grt_module_debug_location_t* location)
    GRT_MUST_USE;

// Serializes the module into one allocation from the writer's allocator;
// the caller frees *out_data with that allocator.
grt_status_t grt_module_writer_finish(grt_module_writer_t* writer,
                                      void** out_data, size_t* out_size)
    GRT_MUST_USE;
// Serializes and writes to |path| (replacing it). Errors name the path.
grt_status_t grt_module_writer_write_file(grt_module_writer_t* writer,
                                          const char* path) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_SCHEMAS_MODULE_FILE_H_
