// FlatBuffers reading: bounds-checked little-endian loads and navigation of
// tables, vectors and strings by field id.
//
// Meant for buffers that base/flatbuffer_verifier.h has already accepted.
// Every helper still checks its reads against the buffer and returns the
// default (0, an empty string, an empty vector, an absent table) rather
// than read outside it, so a verifier bug or a mismatched schema degrades to
// wrong values instead of out-of-bounds memory access. The checks are a few
// compares per read, far below the cost of whatever the caller does next.
#ifndef GRT_BASE_FLATBUFFER_READER_H_
#define GRT_BASE_FLATBUFFER_READER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/endian.h"
#include "base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

// A buffer is addressed by byte positions from |data|; position 0 never
// holds a table, string or vector (a root offset is there), so pos == 0
// means "absent".
typedef struct grt_fb_table_t {
  const uint8_t* data;
  size_t size;
  size_t pos;  // of the table's soffset to its vtable; 0 when absent
} grt_fb_table_t;

typedef struct grt_fb_vector_t {
  const uint8_t* data;
  size_t size;
  size_t pos;  // of the first element; 0 when absent
  uint32_t count;
} grt_fb_vector_t;

static inline bool grt_fb_in_bounds(size_t size, size_t pos, size_t length) {
  return pos <= size && length <= size - pos;
}

// Unsigned little-endian load of |width| (1, 2, 4 or 8) bytes at |pos|;
// 0 when out of bounds.
static inline uint64_t grt_fb_read_uint(const uint8_t* data, size_t size,
                                        size_t pos, size_t width) {
  if (!grt_fb_in_bounds(size, pos, width)) return 0;
  switch (width) {
    case 1: return data[pos];
    case 2: return grt_load_le_u16(data + pos);
    case 4: return grt_load_le_u32(data + pos);
    case 8: return grt_load_le_u64(data + pos);
    default: return 0;
  }
}

// Follows the uoffset stored at |pos|; 0 when it leads outside the buffer.
static inline size_t grt_fb_follow(const uint8_t* data, size_t size,
                                   size_t pos) {
  if (!grt_fb_in_bounds(size, pos, 4)) return 0;
  size_t target = pos + grt_load_le_u32(data + pos);
  return target < size ? target : 0;
}

// The root table of a buffer whose root uoffset is at |root_offset_pos|
// (0 for a plain buffer, 4 for a size-prefixed one).
static inline grt_fb_table_t grt_fb_root(const uint8_t* data, size_t size,
                                         size_t root_offset_pos) {
  grt_fb_table_t table = {data, size,
                          grt_fb_follow(data, size, root_offset_pos)};
  return table;
}

// Position of field |id| of |table|, or 0 when the field is absent.
static inline size_t grt_fb_field_pos(grt_fb_table_t table, uint32_t id) {
  if (!table.pos || !grt_fb_in_bounds(table.size, table.pos, 4)) return 0;
  int64_t vtable = (int64_t)table.pos -
                   (int64_t)(int32_t)grt_load_le_u32(table.data + table.pos);
  if (vtable < 0 || !grt_fb_in_bounds(table.size, (size_t)vtable, 4)) return 0;
  const uint8_t* vt = table.data + vtable;
  size_t entry = 4 + 2 * (size_t)id;
  if (entry + 2 > grt_load_le_u16(vt) ||
      !grt_fb_in_bounds(table.size, (size_t)vtable + entry, 2)) {
    return 0;
  }
  uint16_t field_offset = grt_load_le_u16(vt + entry);
  return field_offset ? table.pos + field_offset : 0;
}

static inline bool grt_fb_has_field(grt_fb_table_t table, uint32_t id) {
  return grt_fb_field_pos(table, id) != 0;
}

// A scalar field of |width| bytes, zero-extended; |default_value| if absent.
static inline uint64_t grt_fb_table_uint(grt_fb_table_t table, uint32_t id,
                                         size_t width, uint64_t default_value) {
  size_t pos = grt_fb_field_pos(table, id);
  if (!pos || !grt_fb_in_bounds(table.size, pos, width)) return default_value;
  return grt_fb_read_uint(table.data, table.size, pos, width);
}

static inline uint32_t grt_fb_table_u32(grt_fb_table_t table, uint32_t id,
                                        uint32_t default_value) {
  return (uint32_t)grt_fb_table_uint(table, id, 4, default_value);
}
static inline uint64_t grt_fb_table_u64(grt_fb_table_t table, uint32_t id,
                                        uint64_t default_value) {
  return grt_fb_table_uint(table, id, 8, default_value);
}
static inline bool grt_fb_table_bool(grt_fb_table_t table, uint32_t id,
                                     bool default_value) {
  return grt_fb_table_uint(table, id, 1, default_value ? 1 : 0) != 0;
}

// Start of an inline struct field of |size| bytes, or NULL if absent.
static inline const uint8_t* grt_fb_table_struct(grt_fb_table_t table,
                                                 uint32_t id, size_t size) {
  size_t pos = grt_fb_field_pos(table, id);
  if (!pos || !grt_fb_in_bounds(table.size, pos, size)) return NULL;
  return table.data + pos;
}

static inline grt_fb_table_t grt_fb_table_table(grt_fb_table_t table,
                                                uint32_t id) {
  size_t pos = grt_fb_field_pos(table, id);
  grt_fb_table_t child = {table.data, table.size,
                          pos ? grt_fb_follow(table.data, table.size, pos) : 0};
  return child;
}

// The string whose length prefix is at |pos|; empty when out of bounds.
static inline grt_string_view_t grt_fb_string_at(const uint8_t* data,
                                                 size_t size, size_t pos) {
  if (!pos || !grt_fb_in_bounds(size, pos, 4)) return grt_string_view_empty();
  uint32_t length = grt_load_le_u32(data + pos);
  if (!grt_fb_in_bounds(size, pos + 4, (size_t)length)) {
    return grt_string_view_empty();
  }
  return grt_make_string_view((const char*)data + pos + 4, length);
}

static inline grt_string_view_t grt_fb_table_string(grt_fb_table_t table,
                                                    uint32_t id) {
  size_t pos = grt_fb_field_pos(table, id);
  return grt_fb_string_at(table.data, table.size,
                          pos ? grt_fb_follow(table.data, table.size, pos) : 0);
}

// A vector of elements of |element_size| bytes; empty when absent or when
// it would not fit the buffer.
static inline grt_fb_vector_t grt_fb_table_vector(grt_fb_table_t table,
                                                  uint32_t id,
                                                  size_t element_size) {
  grt_fb_vector_t vector = {table.data, table.size, 0, 0};
  size_t field = grt_fb_field_pos(table, id);
  size_t pos = field ? grt_fb_follow(table.data, table.size, field) : 0;
  if (!pos || !grt_fb_in_bounds(table.size, pos, 4)) return vector;
  uint32_t count = grt_load_le_u32(table.data + pos);
  if ((uint64_t)count * element_size > table.size - pos - 4) return vector;
  vector.pos = pos + 4;
  vector.count = count;
  return vector;
}

static inline grt_const_byte_span_t grt_fb_vector_bytes(grt_fb_vector_t vector) {
  return grt_make_const_byte_span(
      vector.pos ? vector.data + vector.pos : NULL, vector.count);
}

// Element |index| of a vector of tables (uoffsets); absent when out of range.
static inline grt_fb_table_t grt_fb_vector_table(grt_fb_vector_t vector,
                                                 uint32_t index) {
  grt_fb_table_t table = {vector.data, vector.size, 0};
  if (index < vector.count) {
    table.pos = grt_fb_follow(vector.data, vector.size,
                              vector.pos + 4 * (size_t)index);
  }
  return table;
}

static inline grt_string_view_t grt_fb_vector_string(grt_fb_vector_t vector,
                                                     uint32_t index) {
  if (index >= vector.count) return grt_string_view_empty();
  return grt_fb_string_at(
      vector.data, vector.size,
      grt_fb_follow(vector.data, vector.size, vector.pos + 4 * (size_t)index));
}

#ifdef __cplusplus
}
#endif

#endif  // GRT_BASE_FLATBUFFER_READER_H_
