// The generic FlatBuffers verifier. Positions are carried as uint64_t so
// that position + uoffset (both < 2^32) and count * element size can never
// wrap, whatever the buffer says.
#include "base/flatbuffer_verifier.h"

#include <stdio.h>
#include <string.h>

#include "base/flatbuffer_reader.h"

// FlatBuffers offsets are 32-bit and a uoffset must stay non-negative when
// read as signed, so no valid buffer is 2 GiB or larger.
#define GRT_FB_MAX_BUFFER_SIZE 0x7FFFFFFFu

typedef struct grt_fb_path_frame_t {
  const char* field;
  int64_t index;  // element of a vector field, or -1
} grt_fb_path_frame_t;

typedef struct grt_fb_verifier_t {
  const uint8_t* data;
  uint64_t start;  // first byte of the FlatBuffer
  uint64_t end;    // one past its last byte
  grt_fb_verify_limits_t limits;
  const char* what;
  const char* root_name;
  uint32_t depth;
  uint32_t table_count;
  uint32_t frame_count;
  grt_fb_path_frame_t frames[2 * GRT_FB_MAX_DEPTH_LIMIT + 2];
} grt_fb_verifier_t;

grt_fb_verify_limits_t grt_fb_verify_default_limits(void) {
  grt_fb_verify_limits_t limits = {GRT_FB_MAX_DEPTH_LIMIT, 1000000};
  return limits;
}

static grt_status_t grt_fb_fail(const grt_fb_verifier_t* v, const char* format,
                                ...) GRT_PRINTF_LIKE(2, 3);

static grt_status_t grt_fb_fail(const grt_fb_verifier_t* v, const char* format,
                                ...) {
  char path[512];
  size_t used = (size_t)snprintf(path, sizeof(path), "%s", v->root_name);
  for (uint32_t i = 0; i < v->frame_count && used < sizeof(path); ++i) {
    const grt_fb_path_frame_t* frame = &v->frames[i];
    int n = frame->index >= 0
                ? snprintf(path + used, sizeof(path) - used, ".%s[%lld]",
                           frame->field, (long long)frame->index)
                : snprintf(path + used, sizeof(path) - used, ".%s",
                           frame->field);
    if (n < 0) break;
    used += (size_t)n;
  }
  char detail[256];
  va_list args;
  va_start(args, format);
  vsnprintf(detail, sizeof(detail), format, args);
  va_end(args);
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT, "%s invalid: %s: %s",
                         v->what, path, detail);
}
#if !GRT_STATUS_MESSAGES  // base/status.h
#define grt_fb_fail(...) \
  GRT_STATUS_KEEP_CODE(GRT_STATUS_INVALID_ARGUMENT, (grt_fb_fail)(__VA_ARGS__))
#endif

static grt_status_t grt_fb_check_range(const grt_fb_verifier_t* v,
                                       const char* thing, uint64_t pos,
                                       uint64_t length) {
  if (pos < v->start || pos > v->end || length > v->end - pos) {
    return grt_fb_fail(v,
                       "%s at offset %llu (%llu bytes) extends past end of "
                       "buffer (size %llu)",
                       thing, (unsigned long long)pos,
                       (unsigned long long)length, (unsigned long long)v->end);
  }
  return grt_ok_status();
}

static grt_status_t grt_fb_check_alignment(const grt_fb_verifier_t* v,
                                           const char* thing, uint64_t pos,
                                           uint64_t alignment) {
  if (alignment > 1 && pos % alignment != 0) {
    return grt_fb_fail(v, "%s at offset %llu is not %llu-byte aligned", thing,
                       (unsigned long long)pos, (unsigned long long)alignment);
  }
  return grt_ok_status();
}

// Reads the uoffset at |pos| (already range-checked) and returns the
// position it refers to.
static grt_status_t grt_fb_follow_offset(const grt_fb_verifier_t* v,
                                         uint64_t pos, uint64_t* out_target) {
  uint32_t offset = grt_load_le_u32(v->data + pos);
  if (offset == 0 || offset > GRT_FB_MAX_BUFFER_SIZE) {
    return grt_fb_fail(v, "uoffset at offset %llu has invalid value %u",
                       (unsigned long long)pos, offset);
  }
  *out_target = pos + offset;
  return grt_ok_status();
}

static grt_status_t grt_fb_verify_string(const grt_fb_verifier_t* v,
                                         uint64_t pos) {
  GRT_RETURN_IF_ERROR(grt_fb_check_alignment(v, "string", pos, 4));
  GRT_RETURN_IF_ERROR(grt_fb_check_range(v, "string length", pos, 4));
  uint64_t length = grt_load_le_u32(v->data + pos);
  if (length + 1 > v->end - pos - 4) {
    return grt_fb_fail(v,
                       "string at offset %llu of length %llu (with its NUL) "
                       "extends past end of buffer (size %llu)",
                       (unsigned long long)pos, (unsigned long long)length,
                       (unsigned long long)v->end);
  }
  if (v->data[pos + 4 + length] != 0) {
    return grt_fb_fail(v, "string at offset %llu of length %llu is not "
                          "NUL-terminated",
                       (unsigned long long)pos, (unsigned long long)length);
  }
  return grt_ok_status();
}

static grt_status_t grt_fb_verify_table(grt_fb_verifier_t* v, uint64_t pos,
                                        const grt_fb_table_desc_t* desc);

// Verifies the vector whose length prefix is at |pos| and, for vectors of
// offsets, everything its elements refer to.
static grt_status_t grt_fb_verify_vector(grt_fb_verifier_t* v, uint64_t pos,
                                         const grt_fb_field_desc_t* field) {
  bool of_offsets = field->kind == GRT_FB_KIND_VECTOR_OF_STRINGS ||
                    field->kind == GRT_FB_KIND_VECTOR_OF_TABLES;
  uint64_t element_size = of_offsets ? 4 : field->size;
  uint64_t element_alignment = of_offsets ? 4 : field->alignment;
  GRT_RETURN_IF_ERROR(grt_fb_check_alignment(v, "vector", pos, 4));
  GRT_RETURN_IF_ERROR(grt_fb_check_range(v, "vector length", pos, 4));
  uint64_t count = grt_load_le_u32(v->data + pos);
  if (count * element_size > v->end - pos - 4) {
    return grt_fb_fail(v,
                       "vector at offset %llu of %llu elements of %llu bytes "
                       "extends past end of buffer (size %llu)",
                       (unsigned long long)pos, (unsigned long long)count,
                       (unsigned long long)element_size,
                       (unsigned long long)v->end);
  }
  GRT_RETURN_IF_ERROR(
      grt_fb_check_alignment(v, "vector elements", pos + 4, element_alignment));
  if (!of_offsets) return grt_ok_status();
  grt_fb_path_frame_t* frame = &v->frames[v->frame_count - 1];
  for (uint64_t i = 0; i < count; ++i) {
    frame->index = (int64_t)i;
    uint64_t target = 0;
    GRT_RETURN_IF_ERROR(grt_fb_follow_offset(v, pos + 4 + 4 * i, &target));
    if (field->kind == GRT_FB_KIND_VECTOR_OF_STRINGS) {
      GRT_RETURN_IF_ERROR(grt_fb_verify_string(v, target));
    } else {
      GRT_RETURN_IF_ERROR(grt_fb_verify_table(v, target, field->table));
    }
  }
  frame->index = -1;
  return grt_ok_status();
}

static grt_status_t grt_fb_verify_field(grt_fb_verifier_t* v,
                                        uint64_t table_pos, uint64_t table_size,
                                        uint64_t field_offset,
                                        const grt_fb_field_desc_t* field) {
  bool inline_value = field->kind == GRT_FB_KIND_SCALAR ||
                      field->kind == GRT_FB_KIND_STRUCT;
  uint64_t size = inline_value ? field->size : 4;
  uint64_t alignment = inline_value ? field->alignment : 4;
  if (field_offset < 4) {
    return grt_fb_fail(v, "field offset %llu overlaps the table's vtable "
                          "offset",
                       (unsigned long long)field_offset);
  }
  if (field_offset + size > table_size) {
    return grt_fb_fail(v,
                       "field at table offset %llu (%llu bytes) extends past "
                       "the table's size %llu",
                       (unsigned long long)field_offset,
                       (unsigned long long)size, (unsigned long long)table_size);
  }
  uint64_t pos = table_pos + field_offset;
  GRT_RETURN_IF_ERROR(grt_fb_check_alignment(v, "field", pos, alignment));
  if (inline_value) return grt_ok_status();
  uint64_t target = 0;
  GRT_RETURN_IF_ERROR(grt_fb_follow_offset(v, pos, &target));
  switch (field->kind) {
    case GRT_FB_KIND_STRING:
      return grt_fb_verify_string(v, target);
    case GRT_FB_KIND_TABLE:
      return grt_fb_verify_table(v, target, field->table);
    default:
      return grt_fb_verify_vector(v, target, field);
  }
}

static grt_status_t grt_fb_verify_table(grt_fb_verifier_t* v, uint64_t pos,
                                        const grt_fb_table_desc_t* desc) {
  if (v->depth >= v->limits.max_depth) {
    return grt_fb_fail(v, "tables nest deeper than the limit of %u",
                       v->limits.max_depth);
  }
  if (v->table_count >= v->limits.max_tables) {
    return grt_fb_fail(v, "more than the limit of %u tables",
                       v->limits.max_tables);
  }
  ++v->table_count;
  GRT_RETURN_IF_ERROR(grt_fb_check_alignment(v, "table", pos, 4));
  GRT_RETURN_IF_ERROR(grt_fb_check_range(v, "table", pos, 4));
  int64_t vtable_signed =
      (int64_t)pos - (int64_t)(int32_t)grt_load_le_u32(v->data + pos);
  if (vtable_signed < (int64_t)v->start) {
    return grt_fb_fail(v, "vtable of table at offset %llu lies before the "
                          "buffer (offset %lld)",
                       (unsigned long long)pos, (long long)vtable_signed);
  }
  uint64_t vtable = (uint64_t)vtable_signed;
  GRT_RETURN_IF_ERROR(grt_fb_check_alignment(v, "vtable", vtable, 2));
  GRT_RETURN_IF_ERROR(grt_fb_check_range(v, "vtable header", vtable, 4));
  uint64_t vtable_size = grt_load_le_u16(v->data + vtable);
  uint64_t table_size = grt_load_le_u16(v->data + vtable + 2);
  if (vtable_size < 4 || vtable_size % 2 != 0) {
    return grt_fb_fail(v, "vtable at offset %llu has invalid size %llu "
                          "(expected an even size >= 4)",
                       (unsigned long long)vtable, (unsigned long long)vtable_size);
  }
  GRT_RETURN_IF_ERROR(grt_fb_check_range(v, "vtable", vtable, vtable_size));
  if (table_size < 4) {
    return grt_fb_fail(v, "table at offset %llu has invalid size %llu "
                          "(expected >= 4)",
                       (unsigned long long)pos, (unsigned long long)table_size);
  }
  GRT_RETURN_IF_ERROR(grt_fb_check_range(v, "table", pos, table_size));

  ++v->depth;
  uint64_t vtable_fields = (vtable_size - 4) / 2;
  for (size_t id = 0; id < desc->field_count; ++id) {
    const grt_fb_field_desc_t* field = &desc->fields[id];
    uint64_t field_offset =
        id < vtable_fields ? grt_load_le_u16(v->data + vtable + 4 + 2 * id) : 0;
    v->frames[v->frame_count].field = field->name;
    v->frames[v->frame_count].index = -1;
    ++v->frame_count;
    grt_status_t status =
        field_offset == 0
            ? (field->required ? grt_fb_fail(v, "required field is missing")
                               : grt_ok_status())
            : grt_fb_verify_field(v, pos, table_size, field_offset, field);
    --v->frame_count;
    if (!grt_status_is_ok(status)) return status;
  }
  --v->depth;
  return grt_ok_status();
}

// Shared by both entry points: |start| is where the root uoffset sits.
static grt_status_t grt_fb_verify_region(grt_const_byte_span_t buffer,
                                         uint64_t start, uint64_t end,
                                         const char* what,
                                         const char* identifier,
                                         const grt_fb_table_desc_t* root,
                                         grt_fb_verify_limits_t limits) {
  grt_fb_verifier_t v;
  memset(&v, 0, sizeof(v));
  v.data = buffer.data;
  v.start = start;
  v.end = end;
  v.limits = limits;
  if (v.limits.max_depth > GRT_FB_MAX_DEPTH_LIMIT) {
    v.limits.max_depth = GRT_FB_MAX_DEPTH_LIMIT;
  }
  v.what = what;
  v.root_name = root->name;
  GRT_RETURN_IF_ERROR(grt_fb_check_range(&v, "root offset", start,
                                         identifier ? 8 : 4));
  if (identifier) {
    const uint8_t* got = buffer.data + start + 4;
    if (memcmp(got, identifier, 4) != 0) {
      char shown[4 * 4 + 1];
      size_t used = 0;
      for (int i = 0; i < 4; ++i) {
        bool printable = got[i] >= 0x20 && got[i] < 0x7F && got[i] != '\\' &&
                         got[i] != '"';
        used += (size_t)snprintf(shown + used, sizeof(shown) - used,
                                 printable ? "%c" : "\\x%02x", got[i]);
      }
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%s invalid: expected file identifier \"%.4s\", "
                             "got \"%s\"",
                             what, identifier, shown);
    }
  }
  uint64_t root_pos = 0;
  GRT_RETURN_IF_ERROR(grt_fb_follow_offset(&v, start, &root_pos));
  return grt_fb_verify_table(&v, root_pos, root);
}

grt_status_t grt_fb_verify(grt_const_byte_span_t buffer, const char* what,
                           const char* identifier,
                           const grt_fb_table_desc_t* root,
                           grt_fb_verify_limits_t limits) {
  if (buffer.size > GRT_FB_MAX_BUFFER_SIZE) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s invalid: size %zu exceeds the FlatBuffers "
                           "limit of %u bytes",
                           what, buffer.size, GRT_FB_MAX_BUFFER_SIZE);
  }
  return grt_fb_verify_region(buffer, 0, buffer.size, what, identifier, root,
                              limits);
}

grt_status_t grt_fb_verify_size_prefixed(grt_const_byte_span_t buffer,
                                         const char* what,
                                         const char* identifier,
                                         const grt_fb_table_desc_t* root,
                                         grt_fb_verify_limits_t limits,
                                         size_t* out_end) {
  if (buffer.size < 4) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s invalid: %zu bytes is too small for the 4-byte "
                           "size prefix",
                           what, buffer.size);
  }
  uint64_t length = grt_load_le_u32(buffer.data);
  if (length > GRT_FB_MAX_BUFFER_SIZE || length > buffer.size - 4) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s invalid: size prefix says %llu bytes but only "
                           "%zu follow it",
                           what, (unsigned long long)length, buffer.size - 4);
  }
  GRT_RETURN_IF_ERROR(grt_fb_verify_region(buffer, 4, 4 + length, what,
                                           identifier, root, limits));
  if (out_end) *out_end = (size_t)(4 + length);
  return grt_ok_status();
}
