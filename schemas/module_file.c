// The module file reader: verifies a .vmfb completely at open, then serves
// plain reads through the bounds-checked FlatBuffers helpers.
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/checked_math.h"
#include "base/endian.h"
#include "base/file.h"
#include "base/flatbuffer_reader.h"
#include "base/flatbuffer_verifier.h"
#include "base/sha256.h"
#include "schemas/module_def.h"
#include "schemas/module_file.h"

#define GRT_MODULE_MAX_REGISTER_COUNT 65536u

struct grt_module_file_t {
  atomic_int ref_count;
  grt_allocator_t allocator;
  grt_const_byte_span_t contents;
  grt_file_contents_t file_contents;  // when opened from a path
  void* aligned_copy;                 // private bytes |contents| points at
  // A large file opened from a path keeps its data area mapped: |contents|
  // is a private copy of the FlatBuffer (read, not copied from the
  // mapping), |mapped| the whole file, and each executable binary is read
  // into |binaries| before its digest is checked. Only external rodata is
  // then read from the mapping.
  grt_const_byte_span_t mapped;
  int fd;  // open only while a mapped file is verified, else -1
  const char* path;  // likewise, for read errors
  void** binaries;  // executable_count private copies, or NULL
  size_t data_start;  // file offset of the data area
  grt_const_byte_span_t data_area;
  bool is_signed;
  grt_module_signature_t signature;  // when |is_signed|
  grt_module_file_info_t info;
  grt_fb_table_t root;
  grt_fb_vector_t imports;
  grt_fb_vector_t exports;
  grt_fb_vector_t functions;
  grt_fb_vector_t rodata_segments;
  grt_fb_vector_t executables;
  grt_fb_vector_t debug_locations;
};

static grt_status_t grt_module_invalid(const char* format, ...)
    GRT_PRINTF_LIKE(1, 2);

static grt_status_t grt_module_invalid(const char* format, ...) {
  char detail[512];
  va_list args;
  va_start(args, format);
  vsnprintf(detail, sizeof(detail), format, args);
  va_end(args);
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT, "module file invalid: %s",
                         detail);
}
#if !GRT_STATUS_MESSAGES  // base/status.h
#define grt_module_invalid(...)                        \
  GRT_STATUS_KEEP_CODE(GRT_STATUS_INVALID_ARGUMENT, \
                       (grt_module_invalid)(__VA_ARGS__))
#endif

// Reads the format version before the full structural verification so that
// a file from a newer major version, whose layout may differ, is refused
// with the version message rather than a structural complaint. This only
// uses the bounds-checked readers, which are safe on unverified bytes, and
// the version fields keep their ids in every format version.
static grt_status_t grt_module_check_format_version(
    grt_const_byte_span_t contents, uint32_t* out_major, uint32_t* out_minor) {
  size_t limit = contents.size;
  if (limit >= 4) {
    uint64_t prefixed = (uint64_t)grt_load_le_u32(contents.data) + 4;
    if (prefixed < limit) limit = (size_t)prefixed;
  }
  grt_fb_table_t root = grt_fb_root(contents.data, limit, 4);
  *out_major = grt_fb_table_u32(root, grt_ModuleDef_format_version_major, 0);
  *out_minor = grt_fb_table_u32(root, grt_ModuleDef_format_version_minor, 0);
  bool is_module = limit >= 12 && memcmp(contents.data + 8,
                                         GRT_MODULE_FILE_IDENTIFIER, 4) == 0;
  if (is_module && root.pos &&
      *out_major != GRT_MODULE_FORMAT_VERSION_MAJOR) {
    return grt_make_status(
        GRT_STATUS_INCOMPATIBLE,
        "module format version %u.%u is %s than this runtime supports (%u.x)",
        *out_major, *out_minor,
        *out_major > GRT_MODULE_FORMAT_VERSION_MAJOR ? "newer" : "older",
        GRT_MODULE_FORMAT_VERSION_MAJOR);
  }
  return grt_ok_status();
}

static grt_status_t grt_module_check_aligned(const grt_module_file_t* file,
                                             const char* path,
                                             const uint8_t* data,
                                             uint64_t alignment) {
  if ((uintptr_t)data % alignment != 0) {
    return grt_module_invalid(
        "%s: data at file offset %zu is not %llu-byte aligned in memory "
        "(load the file at a %d-byte-aligned address)",
        path, (size_t)(data - file->contents.data),
        (unsigned long long)alignment, GRT_MODULE_SEGMENT_ALIGNMENT);
  }
  return grt_ok_status();
}

// Resolves a SegmentRef struct to bytes of the data area.
static grt_status_t grt_module_resolve_segment(const grt_module_file_t* file,
                                               const char* path,
                                               const uint8_t* segment_ref,
                                               grt_const_byte_span_t* out_span) {
  uint64_t offset = grt_load_le_u64(segment_ref);
  uint64_t length = grt_load_le_u64(segment_ref + 8);
  if (offset % GRT_MODULE_SEGMENT_ALIGNMENT != 0) {
    return grt_module_invalid("%s: segment offset %llu is not a multiple of %d",
                              path, (unsigned long long)offset,
                              GRT_MODULE_SEGMENT_ALIGNMENT);
  }
  uint64_t available = file->data_area.size;
  if (offset > available || length > available - offset) {
    return grt_module_invalid(
        "%s: segment at data offset %llu of %llu bytes extends past the end "
        "of the data area (%llu bytes at file offset %zu)",
        path, (unsigned long long)offset, (unsigned long long)length,
        (unsigned long long)available, file->data_start);
  }
  *out_span = grt_make_const_byte_span(file->data_area.data + offset,
                                       (size_t)length);
  return grt_module_check_aligned(file, path, out_span->data,
                                  GRT_MODULE_SEGMENT_ALIGNMENT);
}

static grt_status_t grt_module_check_functions(grt_module_file_t* file) {
  for (uint32_t i = 0; i < file->info.function_count; ++i) {
    grt_module_function_t function = grt_module_file_function(file, i);
    uint64_t end = (uint64_t)function.bytecode_offset + function.bytecode_length;
    if (end > file->info.bytecode.size) {
      return grt_module_invalid(
          "ModuleDef.functions[%u] ('%.*s'): bytecode range [%u, %llu) lies "
          "outside the bytecode blob of %zu bytes",
          i, GRT_SV_ARG(function.name), function.bytecode_offset,
          (unsigned long long)end, file->info.bytecode.size);
    }
    if (function.i32_register_count > GRT_MODULE_MAX_REGISTER_COUNT ||
        function.ref_register_count > GRT_MODULE_MAX_REGISTER_COUNT) {
      return grt_module_invalid(
          "ModuleDef.functions[%u] ('%.*s'): register counts (i32 %u, ref %u) "
          "exceed the limit of %u per bank",
          i, GRT_SV_ARG(function.name), function.i32_register_count,
          function.ref_register_count, GRT_MODULE_MAX_REGISTER_COUNT);
    }
  }
  return grt_ok_status();
}

static int grt_module_compare_names(const void* a, const void* b) {
  const grt_string_view_t* x = (const grt_string_view_t*)a;
  const grt_string_view_t* y = (const grt_string_view_t*)b;
  size_t common = x->size < y->size ? x->size : y->size;
  int order = common ? memcmp(x->data, y->data, common) : 0;
  if (order != 0) return order;
  return (x->size > y->size) - (x->size < y->size);
}

static grt_status_t grt_module_check_exports(grt_module_file_t* file) {
  uint32_t count = file->info.export_count;
  for (uint32_t i = 0; i < count; ++i) {
    grt_module_export_t export_def = grt_module_file_export(file, i);
    if (export_def.function_ordinal >= file->info.function_count) {
      return grt_module_invalid(
          "ModuleDef.exports[%u] ('%.*s'): function ordinal %u is out of "
          "range (the module has %u functions)",
          i, GRT_SV_ARG(export_def.name), export_def.function_ordinal,
          file->info.function_count);
    }
  }
  if (count < 2) return grt_ok_status();
  // Sorting a copy finds duplicates in n log n; a hostile file may hold
  // millions of exports.
  grt_string_view_t* names = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(
      file->allocator, (size_t)count * sizeof(*names), (void**)&names));
  for (uint32_t i = 0; i < count; ++i) {
    names[i] = grt_module_file_export(file, i).name;
  }
  qsort(names, count, sizeof(*names), grt_module_compare_names);
  grt_status_t status = grt_ok_status();
  for (uint32_t i = 1; i < count && grt_status_is_ok(status); ++i) {
    if (grt_string_view_equal(names[i - 1], names[i])) {
      status = grt_module_invalid("ModuleDef.exports: export name '%.*s' "
                                  "appears more than once",
                                  GRT_SV_ARG(names[i]));
    }
  }
  grt_allocator_free(file->allocator, names);
  return status;
}

static grt_status_t grt_module_check_rodata(grt_module_file_t* file) {
  for (uint32_t i = 0; i < file->info.rodata_count; ++i) {
    char path[64];
    snprintf(path, sizeof(path), "ModuleDef.rodata_segments[%u]", i);
    grt_fb_table_t segment = grt_fb_vector_table(file->rodata_segments, i);
    uint32_t alignment =
        grt_fb_table_u32(segment, grt_RodataSegmentDef_alignment, 1);
    if (!grt_is_power_of_two_size(alignment) ||
        alignment > GRT_MODULE_SEGMENT_ALIGNMENT) {
      return grt_module_invalid(
          "%s: alignment %u is not a power of two <= %d", path, alignment,
          GRT_MODULE_SEGMENT_ALIGNMENT);
    }
    bool has_inline =
        grt_fb_has_field(segment, grt_RodataSegmentDef_inline_data);
    const uint8_t* external = grt_fb_table_struct(
        segment, grt_RodataSegmentDef_external, GRT_SEGMENT_REF_SIZE);
    if (has_inline == (external != NULL)) {
      return grt_module_invalid(
          "%s: expected exactly one of inline_data and external, got %s", path,
          has_inline ? "both" : "neither");
    }
    if (external) {
      grt_const_byte_span_t span;
      GRT_RETURN_IF_ERROR(
          grt_module_resolve_segment(file, path, external, &span));
    } else {
      grt_const_byte_span_t span = grt_fb_vector_bytes(grt_fb_table_vector(
          segment, grt_RodataSegmentDef_inline_data, 1));
      GRT_RETURN_IF_ERROR(
          grt_module_check_aligned(file, path, span.data, alignment));
    }
  }
  return grt_ok_status();
}

static void grt_module_format_hex(const uint8_t* bytes, size_t size,
                                  char* out_hex) {
  for (size_t i = 0; i < size; ++i) snprintf(out_hex + 2 * i, 3, "%02x", bytes[i]);
}

// The per-binding tables come from an untrusted file and decide what the
// HAL lets a dispatch touch, so each must have one entry per binding, name
// a real access, and give a length no buffer could exceed only by being
// corrupt.
static grt_status_t grt_module_check_entry_points(grt_fb_table_t executable,
                                                  const char* path,
                                                  grt_string_view_t format) {
  grt_fb_vector_t entries =
      grt_fb_table_vector(executable, grt_ExecutableDef_entry_points, 4);
  for (uint32_t e = 0; e < entries.count; ++e) {
    grt_fb_table_t entry = grt_fb_vector_table(entries, e);
    grt_string_view_t name = grt_fb_table_string(entry, grt_EntryPointDef_name);
    uint32_t binding_count =
        grt_fb_table_u32(entry, grt_EntryPointDef_binding_count, 0);
    grt_fb_vector_t access =
        grt_fb_table_vector(entry, grt_EntryPointDef_binding_access, 1);
    grt_fb_vector_t lengths =
        grt_fb_table_vector(entry, grt_EntryPointDef_binding_min_lengths, 8);
    const struct {
      const char* field;
      grt_fb_vector_t vector;
    } tables[2] = {{"binding_access", access}, {"binding_min_lengths", lengths}};
    for (int t = 0; t < 2; ++t) {
      if (tables[t].vector.pos && tables[t].vector.count != binding_count) {
        return grt_module_invalid(
            "%s ('%.*s').entry_points[%u] '%.*s': %s has %u entries, expected "
            "%u (one per binding)",
            path, GRT_SV_ARG(format), e, GRT_SV_ARG(name), tables[t].field,
            tables[t].vector.count, binding_count);
      }
    }
    for (uint32_t b = 0; access.pos && b < access.count; ++b) {
      uint8_t bits = access.data[access.pos + b];
      if (bits == 0 || bits > 3) {
        return grt_module_invalid(
            "%s ('%.*s').entry_points[%u] '%.*s': binding_access[%u] is %u, "
            "expected 1 (read), 2 (written) or 3 (both)",
            path, GRT_SV_ARG(format), e, GRT_SV_ARG(name), b, bits);
      }
    }
    for (uint32_t b = 0; lengths.pos && b < lengths.count; ++b) {
      uint64_t length = grt_load_le_u64(lengths.data + lengths.pos + 8 * b);
      if (length > GRT_MODULE_MAX_BINDING_MIN_LENGTH) {
        return grt_module_invalid(
            "%s ('%.*s').entry_points[%u] '%.*s': binding_min_lengths[%u] is "
            "%" PRIu64 " bytes, expected at most %" PRIu64,
            path, GRT_SV_ARG(format), e, GRT_SV_ARG(name), b, length,
            GRT_MODULE_MAX_BINDING_MIN_LENGTH);
      }
    }
  }
  return grt_ok_status();
}

// Reads |size| bytes at |offset| of the file being opened (pread, so a file
// truncated meanwhile gives an error, not SIGBUS).
static grt_status_t grt_module_file_read_at(grt_module_file_t* file,
                                            size_t offset, void* out,
                                            size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = pread(file->fd, (uint8_t*)out + done, size - done,
                      (off_t)(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return grt_make_status(GRT_STATUS_UNAVAILABLE, "cannot read '%s': %s",
                             file->path, strerror(errno));
    }
    if (n == 0) {
      return grt_make_status(
          GRT_STATUS_OUT_OF_RANGE,
          "cannot read '%s': expected %zu bytes at offset %zu, the file ends "
          "after %zu (it changed while being opened)",
          file->path, size, offset, offset + done);
    }
    done += (size_t)n;
  }
  return grt_ok_status();
}

static grt_status_t grt_module_check_executables(grt_module_file_t* file) {
  for (uint32_t i = 0; i < file->info.executable_count; ++i) {
    char path[64];
    snprintf(path, sizeof(path), "ModuleDef.executables[%u]", i);
    grt_fb_table_t executable = grt_fb_vector_table(file->executables, i);
    grt_string_view_t format =
        grt_fb_table_string(executable, grt_ExecutableDef_format);
    grt_fb_vector_t digest =
        grt_fb_table_vector(executable, grt_ExecutableDef_digest, 1);
    if (digest.count != GRT_MODULE_DIGEST_SIZE) {
      return grt_module_invalid(
          "%s ('%.*s'): digest has %u bytes, expected %d (SHA-256)", path,
          GRT_SV_ARG(format), digest.count, GRT_MODULE_DIGEST_SIZE);
    }
    grt_const_byte_span_t binary;
    GRT_RETURN_IF_ERROR(grt_module_resolve_segment(
        file, path,
        grt_fb_table_struct(executable, grt_ExecutableDef_binary,
                            GRT_SEGMENT_REF_SIZE),
        &binary));
    if (file->binaries) {
      // The digest is checked on, and the HAL later gets, a private copy
      // read from the file, never the shared mapping.
      GRT_RETURN_IF_ERROR(grt_allocator_malloc_aligned(
          file->allocator, binary.size, GRT_MODULE_SEGMENT_ALIGNMENT,
          &file->binaries[i]));
      GRT_RETURN_IF_ERROR(grt_module_file_read_at(
          file, file->data_start + (size_t)(binary.data - file->data_area.data),
          file->binaries[i], binary.size));
      binary = grt_make_const_byte_span(file->binaries[i], binary.size);
    }
    uint8_t actual[GRT_SHA256_DIGEST_SIZE];
    grt_sha256(binary.data, binary.size, actual);
    const uint8_t* expected = digest.data + digest.pos;
    if (!grt_sha256_digest_equal(actual, expected)) {
      // The hex texts are only the message's.
      if (!GRT_STATUS_MESSAGES) return grt_make_status_code(GRT_STATUS_INVALID_ARGUMENT);
      char actual_hex[2 * GRT_SHA256_DIGEST_SIZE + 1];
      char expected_hex[2 * GRT_SHA256_DIGEST_SIZE + 1];
      grt_module_format_hex(actual, GRT_SHA256_DIGEST_SIZE, actual_hex);
      grt_module_format_hex(expected, GRT_SHA256_DIGEST_SIZE, expected_hex);
      return grt_module_invalid(
          "%s ('%.*s'): binary of %zu bytes has SHA-256 %s but the file "
          "records %s",
          path, GRT_SV_ARG(format), binary.size, actual_hex, expected_hex);
    }
    GRT_RETURN_IF_ERROR(
        grt_module_check_entry_points(executable, path, format));
  }
  return grt_ok_status();
}

static grt_status_t grt_module_check_debug_locations(grt_module_file_t* file) {
  for (uint32_t i = 0; i < file->info.debug_location_count; ++i) {
    grt_module_debug_location_t location =
        grt_module_file_debug_location(file, i);
    if (location.function_ordinal >= file->info.function_count) {
      return grt_module_invalid(
          "ModuleDef.debug_info.locations[%u]: function ordinal %u is out of "
          "range (the module has %u functions)",
          i, location.function_ordinal, file->info.function_count);
    }
    if (i == 0) continue;
    grt_module_debug_location_t previous =
        grt_module_file_debug_location(file, i - 1);
    if (previous.function_ordinal > location.function_ordinal ||
        (previous.function_ordinal == location.function_ordinal &&
         previous.bytecode_offset >= location.bytecode_offset)) {
      return grt_module_invalid(
          "ModuleDef.debug_info.locations[%u]: (function %u, offset %u) does "
          "not come after (function %u, offset %u); locations must be "
          "strictly sorted",
          i, location.function_ordinal, location.bytecode_offset,
          previous.function_ordinal, previous.bytecode_offset);
    }
  }
  return grt_ok_status();
}

// Reads the last GRT_MODULE_SIGNATURE_BLOCK_SIZE bytes of the file being
// opened: with pread for a mapped file (a file truncated meanwhile gives an
// error, not SIGBUS), else from |full|.
static grt_status_t grt_module_file_read_tail(grt_module_file_t* file,
                                              grt_const_byte_span_t full,
                                              uint8_t* out_block) {
  size_t offset = full.size - GRT_MODULE_SIGNATURE_BLOCK_SIZE;
  if (file->fd >= 0) {
    return grt_module_file_read_at(file, offset, out_block,
                                   GRT_MODULE_SIGNATURE_BLOCK_SIZE);
  }
  memcpy(out_block, full.data + offset, GRT_MODULE_SIGNATURE_BLOCK_SIZE);
  return grt_ok_status();
}

// Finds the signature block a signed file ends with (its magic is the last
// 8 bytes), checks its fields and, when there is one, takes it off the end:
// |file->contents| and |file->mapped| then cover the body only, so no
// segment can point into the block.
static grt_status_t grt_module_file_find_signature(grt_module_file_t* file) {
  grt_const_byte_span_t full = file->mapped.data ? file->mapped : file->contents;
  const size_t magic_size = sizeof(GRT_MODULE_SIGNATURE_MAGIC) - 1;
  if (full.size < GRT_MODULE_SIGNATURE_BLOCK_SIZE) return grt_ok_status();
  uint8_t block[GRT_MODULE_SIGNATURE_BLOCK_SIZE];
  GRT_RETURN_IF_ERROR(grt_module_file_read_tail(file, full, block));
  if (memcmp(block + GRT_MODULE_SIGNATURE_BLOCK_SIZE - magic_size,
             GRT_MODULE_SIGNATURE_MAGIC, magic_size) != 0) {
    return grt_ok_status();
  }
  size_t block_offset = full.size - GRT_MODULE_SIGNATURE_BLOCK_SIZE;
  if (memcmp(block, GRT_MODULE_SIGNATURE_MAGIC, magic_size) != 0) {
    return grt_module_invalid(
        "the file ends with the signature magic '%s' but the signature block "
        "at offset %zu does not start with it",
        GRT_MODULE_SIGNATURE_MAGIC, block_offset);
  }
  uint32_t algorithm = grt_load_le_u32(block + 8);
  uint32_t block_size = grt_load_le_u32(block + 12);
  uint64_t body_size = grt_load_le_u64(block + 16);
  if (algorithm != GRT_MODULE_SIGNATURE_ALGORITHM_ED25519) {
    return grt_module_invalid(
        "signature block at offset %zu: algorithm %u, expected %u (Ed25519 "
        "over the SHA-256 of the body)",
        block_offset, algorithm, GRT_MODULE_SIGNATURE_ALGORITHM_ED25519);
  }
  if (block_size != GRT_MODULE_SIGNATURE_BLOCK_SIZE) {
    return grt_module_invalid(
        "signature block at offset %zu: size %u, expected %d", block_offset,
        block_size, GRT_MODULE_SIGNATURE_BLOCK_SIZE);
  }
  if (body_size != block_offset) {
    return grt_module_invalid(
        "signature block at offset %zu records a body of %llu bytes, expected "
        "%zu (the bytes before the block)",
        block_offset, (unsigned long long)body_size, block_offset);
  }
  file->is_signed = true;
  file->signature.body_size = body_size;
  memcpy(file->signature.public_key, block + 24, GRT_MODULE_PUBLIC_KEY_SIZE);
  memcpy(file->signature.signature, block + 24 + GRT_MODULE_PUBLIC_KEY_SIZE,
         GRT_MODULE_SIGNATURE_SIZE);
  if (file->mapped.data) file->mapped.size = block_offset;
  if (file->contents.size > block_offset) file->contents.size = block_offset;
  return grt_ok_status();
}

// The SHA-256 of a signed file's body, over the bytes this reader keeps:
// the (private) contents, then for a mapped file the rest of the body read
// with pread.
static grt_status_t grt_module_file_digest_body(grt_module_file_t* file) {
  grt_sha256_t sha;
  grt_sha256_initialize(&sha);
  grt_sha256_update(&sha, file->contents.data, file->contents.size);
  if (file->mapped.data && file->mapped.size > file->contents.size) {
    enum { kChunk = 1 << 20 };
    uint8_t* chunk = NULL;
    GRT_RETURN_IF_ERROR(
        grt_allocator_malloc(file->allocator, kChunk, (void**)&chunk));
    grt_status_t status = grt_ok_status();
    for (size_t offset = file->contents.size;
         grt_status_is_ok(status) && offset < file->mapped.size;) {
      size_t size = file->mapped.size - offset;
      if (size > kChunk) size = kChunk;
      status = grt_module_file_read_at(file, offset, chunk, size);
      if (grt_status_is_ok(status)) grt_sha256_update(&sha, chunk, size);
      offset += size;
    }
    grt_allocator_free(file->allocator, chunk);
    GRT_RETURN_IF_ERROR(status);
  }
  grt_sha256_finalize(&sha, file->signature.body_digest);
  return grt_ok_status();
}

// Verifies |file->contents| and fills in everything the accessors use.
static grt_status_t grt_module_file_load(grt_module_file_t* file) {
  grt_const_byte_span_t contents = file->contents;
  if ((uintptr_t)contents.data % 8 != 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "module file contents at %p are not 8-byte aligned",
                           (const void*)contents.data);
  }
  GRT_RETURN_IF_ERROR(grt_module_file_find_signature(file));
  contents = file->contents;
  uint32_t major = 0;
  uint32_t minor = 0;
  GRT_RETURN_IF_ERROR(grt_module_check_format_version(contents, &major, &minor));
  size_t flatbuffer_end = 0;
  GRT_RETURN_IF_ERROR(grt_fb_verify_size_prefixed(
      contents, "module file", GRT_MODULE_FILE_IDENTIFIER, &grt_ModuleDef_desc,
      grt_fb_verify_default_limits(), &flatbuffer_end));
  // A file without a data area (e.g. one flatc wrote) may end right after
  // the FlatBuffer, before any padding.
  size_t data_start = 0;
  if (!grt_checked_align_size(flatbuffer_end, GRT_MODULE_SEGMENT_ALIGNMENT,
                              &data_start) ||
      data_start > contents.size) {
    data_start = contents.size;
  }
  file->data_start = data_start;
  if (file->mapped.data) {
    // |contents| is the private head; the data area stays in the mapping,
    // which is at least as long.
    file->data_area = grt_make_const_byte_span(
        file->mapped.data + data_start, file->mapped.size - data_start);
  } else {
    file->data_area = grt_make_const_byte_span(contents.data + data_start,
                                               contents.size - data_start);
  }

  grt_fb_table_t root = grt_fb_root(contents.data, flatbuffer_end, 4);
  file->root = root;
  grt_module_file_info_t* info = &file->info;
  // The table vectors and their counts, one loop (a call passes a table by
  // value, three words, so one call site instead of six).
  static const struct {
    uint16_t vector;  // offset of the grt_fb_vector_t in the file
    uint16_t count;   // offset of its count in the file
    uint8_t field;    // of the ModuleDef, or of the DebugInfoDef
    bool debug_info;
  } kVectors[] = {
#define GRT_MODULE_VECTOR(member, count_member, table, field_id) \
  {offsetof(grt_module_file_t, member),                          \
   offsetof(grt_module_file_t, info.count_member), field_id, table}
      GRT_MODULE_VECTOR(imports, import_count, false, grt_ModuleDef_imports),
      GRT_MODULE_VECTOR(exports, export_count, false, grt_ModuleDef_exports),
      GRT_MODULE_VECTOR(functions, function_count, false,
                        grt_ModuleDef_functions),
      GRT_MODULE_VECTOR(rodata_segments, rodata_count, false,
                        grt_ModuleDef_rodata_segments),
      GRT_MODULE_VECTOR(executables, executable_count, false,
                        grt_ModuleDef_executables),
      GRT_MODULE_VECTOR(debug_locations, debug_location_count, true,
                        grt_DebugInfoDef_locations),
#undef GRT_MODULE_VECTOR
  };
  grt_fb_table_t debug_info = grt_fb_table_table(root, grt_ModuleDef_debug_info);
  for (size_t i = 0; i < sizeof(kVectors) / sizeof(kVectors[0]); ++i) {
    grt_fb_vector_t vector = grt_fb_table_vector(
        kVectors[i].debug_info ? debug_info : root, kVectors[i].field, 4);
    memcpy((char*)file + kVectors[i].vector, &vector, sizeof(vector));
    memcpy((char*)file + kVectors[i].count, &vector.count,
           sizeof(vector.count));
  }

  info->name = grt_fb_table_string(root, grt_ModuleDef_name);
  info->version = grt_fb_table_u32(root, grt_ModuleDef_version, 0);
  info->format_version_major = major;
  info->format_version_minor = minor;
  info->features = grt_fb_table_u64(root, grt_ModuleDef_features, 0);
  info->global_bytes = grt_fb_table_u32(root, grt_ModuleDef_global_bytes, 0);
  info->global_ref_count =
      grt_fb_table_u32(root, grt_ModuleDef_global_ref_count, 0);
  if (file->mapped.data && info->executable_count > 0) {
    GRT_RETURN_IF_ERROR(grt_allocator_calloc(
        file->allocator, info->executable_count * sizeof(void*),
        (void**)&file->binaries));
  }
  info->bytecode =
      grt_fb_vector_bytes(grt_fb_table_vector(root, grt_ModuleDef_bytecode, 1));

  GRT_RETURN_IF_ERROR(grt_module_check_functions(file));
  GRT_RETURN_IF_ERROR(grt_module_check_exports(file));
  GRT_RETURN_IF_ERROR(grt_module_check_rodata(file));
  GRT_RETURN_IF_ERROR(grt_module_check_executables(file));
  GRT_RETURN_IF_ERROR(grt_module_check_debug_locations(file));
  return file->is_signed ? grt_module_file_digest_body(file) : grt_ok_status();
}

static grt_status_t grt_module_file_create(grt_allocator_t allocator,
                                           grt_module_file_t** out_file) {
  grt_module_file_t* file = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, sizeof(*file), (void**)&file));
  atomic_init(&file->ref_count, 1);
  file->allocator = allocator;
  file->fd = -1;
  *out_file = file;
  return grt_ok_status();
}

static void grt_module_file_destroy(grt_module_file_t* file) {
  if (file->binaries) {
    for (uint32_t i = 0; i < file->info.executable_count; ++i) {
      grt_allocator_free(file->allocator, file->binaries[i]);
    }
    grt_allocator_free(file->allocator, file->binaries);
  }
  if (file->fd >= 0) close(file->fd);
  grt_file_contents_free(&file->file_contents);
  grt_allocator_free(file->allocator, file->aligned_copy);
  grt_allocator_free(file->allocator, file);
}

grt_status_t grt_module_file_open_memory(grt_const_byte_span_t contents,
                                         grt_allocator_t allocator,
                                         grt_module_file_t** out_file) {
  *out_file = NULL;
  grt_module_file_t* file = NULL;
  GRT_RETURN_IF_ERROR(grt_module_file_create(allocator, &file));
  file->contents = contents;
  grt_status_t status = grt_module_file_load(file);
  if (!grt_status_is_ok(status)) {
    grt_module_file_destroy(file);
    return status;
  }
  *out_file = file;
  return grt_ok_status();
}

// Reads the FlatBuffer of the mapped file |file->file_contents| (its size
// prefix, then the rest up to the data area) into private memory.
static grt_status_t grt_module_file_read_head(grt_module_file_t* file) {
  size_t size = file->file_contents.size;
  uint8_t prefix[4] = {0, 0, 0, 0};
  GRT_RETURN_IF_ERROR(grt_module_file_read_at(
      file, 0, prefix, size < sizeof(prefix) ? size : sizeof(prefix)));
  uint64_t head = (uint64_t)grt_load_le_u32(prefix) + 4;
  head = (head + GRT_MODULE_SEGMENT_ALIGNMENT - 1) &
         ~(uint64_t)(GRT_MODULE_SEGMENT_ALIGNMENT - 1);
  if (head > size) head = size;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc_aligned(
      file->allocator, (size_t)head, GRT_MODULE_SEGMENT_ALIGNMENT,
      &file->aligned_copy));
  GRT_RETURN_IF_ERROR(
      grt_module_file_read_at(file, 0, file->aligned_copy, (size_t)head));
  file->contents = grt_make_const_byte_span(file->aligned_copy, (size_t)head);
  file->mapped = grt_make_const_byte_span(file->file_contents.data, size);
  return grt_ok_status();
}

grt_status_t grt_module_file_open_path(const char* path,
                                       grt_allocator_t allocator,
                                       grt_module_file_t** out_file) {
  grt_module_file_open_options_t options = {GRT_MODULE_FILE_DEFAULT_COPY_LIMIT};
  return grt_module_file_open_path_with_options(path, &options, allocator,
                                                out_file);
}

grt_status_t grt_module_file_open_path_with_options(
    const char* path, const grt_module_file_open_options_t* options,
    grt_allocator_t allocator, grt_module_file_t** out_file) {
  *out_file = NULL;
  grt_module_file_t* file = NULL;
  GRT_RETURN_IF_ERROR(grt_module_file_create(allocator, &file));
  // Small files (and anything not a regular file) are read into private
  // memory; larger regular files are mapped.
  struct stat info;
  bool map = stat(path, &info) == 0 && S_ISREG(info.st_mode) &&
             (uint64_t)info.st_size > options->copy_limit;
  grt_status_t status =
      map ? grt_file_map_read_only_bounded(path, GRT_MODULE_FILE_MAX_STREAM_SIZE,
                                           allocator, &file->file_contents)
          : grt_file_read_contents_bounded(path, GRT_MODULE_FILE_MAX_STREAM_SIZE,
                                           allocator, &file->file_contents);
  if (grt_status_code(status) == GRT_STATUS_OUT_OF_RANGE) {
    status = grt_status_annotate(status,
                                 "a module read from a pipe or device may "
                                 "hold at most %zu bytes (256 MiB)",
                                 GRT_MODULE_FILE_MAX_STREAM_SIZE);
  }
  file->contents = grt_make_const_byte_span(file->file_contents.data,
                                            file->file_contents.size);
  if (grt_status_is_ok(status) && file->file_contents.mapped) {
    file->path = path;
    file->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (file->fd < 0) {
      status = grt_make_status(GRT_STATUS_UNAVAILABLE, "cannot open '%s': %s",
                               path, strerror(errno));
    } else {
      status = grt_module_file_read_head(file);
    }
  } else if (grt_status_is_ok(status) &&
             (uintptr_t)file->contents.data % GRT_MODULE_SEGMENT_ALIGNMENT !=
                 0) {
    // A read copy may not be aligned enough for segments that promise
    // 64-byte alignment, so it is moved once.
    status = grt_allocator_malloc_aligned(allocator, file->contents.size,
                                          GRT_MODULE_SEGMENT_ALIGNMENT,
                                          &file->aligned_copy);
    if (grt_status_is_ok(status)) {
      memcpy(file->aligned_copy, file->contents.data, file->contents.size);
      file->contents = grt_make_const_byte_span(file->aligned_copy,
                                                file->contents.size);
      grt_file_contents_free(&file->file_contents);
    }
  }
  if (grt_status_is_ok(status)) status = grt_module_file_load(file);
  if (file->fd >= 0) {
    close(file->fd);
    file->fd = -1;
  }
  file->path = NULL;
  if (!grt_status_is_ok(status)) {
    grt_module_file_destroy(file);
    return grt_status_annotate(status, "while opening module file '%s'", path);
  }
  *out_file = file;
  return grt_ok_status();
}

bool grt_module_file_is_mapped(const grt_module_file_t* file) {
  return file->mapped.data != NULL;
}

const grt_module_signature_t* grt_module_file_signature(
    const grt_module_file_t* file) {
  return file->is_signed ? &file->signature : NULL;
}

void grt_module_file_retain(grt_module_file_t* file) {
  if (file) atomic_fetch_add_explicit(&file->ref_count, 1, memory_order_relaxed);
}

void grt_module_file_release(grt_module_file_t* file) {
  if (file &&
      atomic_fetch_sub_explicit(&file->ref_count, 1, memory_order_acq_rel) == 1) {
    grt_module_file_destroy(file);
  }
}

const grt_module_file_info_t* grt_module_file_info(
    const grt_module_file_t* file) {
  return &file->info;
}

grt_module_import_t grt_module_file_import(const grt_module_file_t* file,
                                           uint32_t index) {
  grt_fb_table_t table = grt_fb_vector_table(file->imports, index);
  grt_module_import_t import = {
      grt_fb_table_string(table, grt_ImportFunctionDef_full_name),
      grt_fb_table_string(table, grt_ImportFunctionDef_calling_convention),
      grt_fb_table_bool(table, grt_ImportFunctionDef_optional, false)};
  return import;
}

grt_module_export_t grt_module_file_export(const grt_module_file_t* file,
                                           uint32_t index) {
  grt_fb_table_t table = grt_fb_vector_table(file->exports, index);
  grt_module_export_t export_def = {
      grt_fb_table_string(table, grt_ExportFunctionDef_name),
      grt_fb_table_u32(table, grt_ExportFunctionDef_function_ordinal, 0)};
  return export_def;
}

grt_module_function_t grt_module_file_function(const grt_module_file_t* file,
                                               uint32_t index) {
  grt_fb_table_t table = grt_fb_vector_table(file->functions, index);
  grt_module_function_t function = {
      grt_fb_table_string(table, grt_FunctionDef_name),
      grt_fb_table_string(table, grt_FunctionDef_calling_convention),
      grt_fb_table_u32(table, grt_FunctionDef_bytecode_offset, 0),
      grt_fb_table_u32(table, grt_FunctionDef_bytecode_length, 0),
      grt_fb_table_u32(table, grt_FunctionDef_i32_register_count, 0),
      grt_fb_table_u32(table, grt_FunctionDef_ref_register_count, 0)};
  return function;
}

uint64_t grt_module_file_function_transient_bytes(const grt_module_file_t* file,
                                                  uint32_t index) {
  grt_fb_table_t table = grt_fb_vector_table(file->functions, index);
  return grt_fb_table_u64(table, grt_FunctionDef_transient_bytes, 0);
}

grt_string_view_t grt_module_file_function_tensor_signature(
    const grt_module_file_t* file, uint32_t index) {
  grt_fb_table_t table = grt_fb_vector_table(file->functions, index);
  return grt_fb_table_string(table, grt_FunctionDef_tensor_signature);
}

grt_string_view_t grt_module_file_function_transient_plan(
    const grt_module_file_t* file, uint32_t index) {
  grt_fb_table_t table = grt_fb_vector_table(file->functions, index);
  return grt_fb_table_string(table, grt_FunctionDef_transient_plan);
}

grt_module_rodata_t grt_module_file_rodata(const grt_module_file_t* file,
                                           uint32_t index) {
  grt_fb_table_t table = grt_fb_vector_table(file->rodata_segments, index);
  grt_module_rodata_t rodata;
  memset(&rodata, 0, sizeof(rodata));
  rodata.alignment = grt_fb_table_u32(table, grt_RodataSegmentDef_alignment, 1);
  const uint8_t* external = grt_fb_table_struct(
      table, grt_RodataSegmentDef_external, GRT_SEGMENT_REF_SIZE);
  if (external) {
    rodata.external = true;
    rodata.data = grt_make_const_byte_span(
        file->data_area.data + grt_load_le_u64(external),
        (size_t)grt_load_le_u64(external + 8));
  } else {
    rodata.data = grt_fb_vector_bytes(
        grt_fb_table_vector(table, grt_RodataSegmentDef_inline_data, 1));
  }
  return rodata;
}

grt_module_executable_t grt_module_file_executable(
    const grt_module_file_t* file, uint32_t index) {
  grt_fb_table_t table = grt_fb_vector_table(file->executables, index);
  const uint8_t* binary =
      grt_fb_table_struct(table, grt_ExecutableDef_binary, GRT_SEGMENT_REF_SIZE);
  grt_fb_vector_t digest = grt_fb_table_vector(table, grt_ExecutableDef_digest, 1);
  grt_module_executable_t executable = {
      grt_fb_table_string(table, grt_ExecutableDef_format),
      grt_fb_table_vector(table, grt_ExecutableDef_entry_points, 4).count,
      grt_make_const_byte_span(
          !binary         ? NULL
          : file->binaries ? file->binaries[index]
                           : file->data_area.data + grt_load_le_u64(binary),
          binary ? (size_t)grt_load_le_u64(binary + 8) : 0),
      digest.pos ? digest.data + digest.pos : NULL};
  return executable;
}

grt_module_entry_point_t grt_module_file_entry_point(
    const grt_module_file_t* file, uint32_t executable_index,
    uint32_t entry_point_index) {
  grt_fb_table_t executable =
      grt_fb_vector_table(file->executables, executable_index);
  grt_fb_table_t table = grt_fb_vector_table(
      grt_fb_table_vector(executable, grt_ExecutableDef_entry_points, 4),
      entry_point_index);
  grt_module_entry_point_t entry_point = {
      grt_fb_table_string(table, grt_EntryPointDef_name),
      grt_fb_table_u32(table, grt_EntryPointDef_binding_count, 0),
      grt_fb_table_u32(table, grt_EntryPointDef_constant_count, 0),
      {1, 1, 1},
      NULL,
      NULL};
  grt_fb_vector_t access =
      grt_fb_table_vector(table, grt_EntryPointDef_binding_access, 1);
  if (access.pos) entry_point.binding_access = access.data + access.pos;
  grt_fb_vector_t lengths =
      grt_fb_table_vector(table, grt_EntryPointDef_binding_min_lengths, 8);
  if (lengths.pos) {
    entry_point.binding_min_lengths = lengths.data + lengths.pos;
  }
  const uint8_t* workgroup_size = grt_fb_table_struct(
      table, grt_EntryPointDef_workgroup_size, GRT_WORKGROUP_SIZE_SIZE);
  for (int i = 0; workgroup_size && i < 3; ++i) {
    entry_point.workgroup_size[i] = grt_load_le_u32(workgroup_size + 4 * i);
  }
  return entry_point;
}

grt_module_debug_location_t grt_module_file_debug_location(
    const grt_module_file_t* file, uint32_t index) {
  grt_fb_table_t table = grt_fb_vector_table(file->debug_locations, index);
  grt_module_debug_location_t location = {
      grt_fb_table_u32(table, grt_DebugLocationDef_function_ordinal, 0),
      grt_fb_table_u32(table, grt_DebugLocationDef_bytecode_offset, 0),
      grt_fb_table_string(table, grt_DebugLocationDef_location)};
  return location;
}

bool grt_module_file_lookup_location(const grt_module_file_t* file,
                                     uint32_t function_ordinal,
                                     uint32_t bytecode_offset,
                                     grt_string_view_t* out_location) {
  // Locations are strictly sorted by (function, offset) (checked at open):
  // find the first entry past the key, then step back one.
  uint64_t key = ((uint64_t)function_ordinal << 32) | bytecode_offset;
  uint32_t low = 0;
  uint32_t high = file->info.debug_location_count;
  while (low < high) {
    uint32_t mid = low + (high - low) / 2;
    grt_module_debug_location_t entry = grt_module_file_debug_location(file, mid);
    uint64_t entry_key =
        ((uint64_t)entry.function_ordinal << 32) | entry.bytecode_offset;
    if (entry_key <= key) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  if (low == 0) return false;
  grt_module_debug_location_t found = grt_module_file_debug_location(file, low - 1);
  if (found.function_ordinal != function_ordinal) return false;
  *out_location = found.location;
  return true;
}
