// FlatBuffers building: a generic builder that writes the standard
// FlatBuffers wire format, so buffers it makes are read by flatc and any
// other FlatBuffers implementation.
//
// Like the reference implementation it builds back to front: children are
// written before their parents, and a reference to a finished object is its
// distance from the end of the buffer (grt_fb_ref_t), which stays valid as
// the buffer grows at the front. Tables omit scalars equal to their default
// and share identical vtables. Alignment of every scalar, struct and vector
// is relative to the end of the buffer, and finishing pads the whole buffer
// to the largest alignment used, so the buffer's first byte (the size
// prefix, when there is one) is the base all alignment is measured from.
//
// Errors are sticky: building is a long run of small appends, so each call
// records the first failure (out of memory, a misuse such as nesting) and
// later calls do nothing; grt_fb_builder_finish reports it. This keeps
// serialization code a straight line, as SQLite's sqlite3_str does.
#ifndef GRT_BASE_FLATBUFFER_BUILDER_H_
#define GRT_BASE_FLATBUFFER_BUILDER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

// Distance of an object from the end of the buffer; 0 is "none".
typedef uint32_t grt_fb_ref_t;

typedef struct grt_fb_field_loc_t {
  uint32_t id;
  grt_fb_ref_t ref;
} grt_fb_field_loc_t;

// Fields are private; the struct is public only so it can live on a stack.
typedef struct grt_fb_builder_t {
  grt_allocator_t allocator;
  uint8_t* buffer;  // data occupies the last |used| bytes
  size_t capacity;
  size_t used;
  size_t min_alignment;
  grt_status_t status;  // first failure, sticky
  bool in_table;
  bool finished;
  size_t table_start;  // |used| when the open table started
  grt_fb_field_loc_t* fields;  // of the open table
  size_t field_count;
  size_t field_capacity;
  grt_fb_ref_t* vtables;  // every vtable written, for deduplication
  size_t vtable_count;
  size_t vtable_capacity;
} grt_fb_builder_t;

void grt_fb_builder_initialize(grt_allocator_t allocator,
                               grt_fb_builder_t* out_builder);
void grt_fb_builder_deinitialize(grt_fb_builder_t* builder);

grt_fb_ref_t grt_fb_builder_create_string(grt_fb_builder_t* builder,
                                          grt_string_view_t value);
// A vector of |count| scalars or structs of |element_size| bytes each,
// given in wire form (little-endian), whose first element lands at a
// multiple of |alignment| (a power of two, e.g. 64 for a blob that must be
// cache-line aligned).
grt_fb_ref_t grt_fb_builder_create_vector(grt_fb_builder_t* builder,
                                          const void* elements, size_t count,
                                          size_t element_size,
                                          size_t alignment);
// A vector of strings or tables, given as refs from this builder.
grt_fb_ref_t grt_fb_builder_create_offset_vector(grt_fb_builder_t* builder,
                                                 const grt_fb_ref_t* refs,
                                                 size_t count);

// Tables: start, add fields (in any order, each id once), end. No string,
// vector or other table may be created while one is open.
void grt_fb_builder_start_table(grt_fb_builder_t* builder);
// A scalar of |size| (1, 2, 4, 8) bytes: the low bytes of |value|,
// little-endian. Omitted when equal to |default_value|.
void grt_fb_builder_add_scalar(grt_fb_builder_t* builder, uint32_t id,
                               uint64_t value, uint64_t default_value,
                               size_t size);
// A scalar always written, even when it equals the schema default.
void grt_fb_builder_force_scalar(grt_fb_builder_t* builder, uint32_t id,
                                 uint64_t value, size_t size);
// A struct of |size| bytes in wire form, aligned to |alignment|.
void grt_fb_builder_add_struct(grt_fb_builder_t* builder, uint32_t id,
                               const void* value, size_t size,
                               size_t alignment);
// A string, vector or table; |ref| 0 leaves the field absent.
void grt_fb_builder_add_offset(grt_fb_builder_t* builder, uint32_t id,
                               grt_fb_ref_t ref);
grt_fb_ref_t grt_fb_builder_end_table(grt_fb_builder_t* builder);

// Writes the root uoffset, the 4-character |identifier| (may be NULL) and,
// if |size_prefixed|, the u32 size prefix. On success *out_buffer points
// into the builder (valid until it is deinitialized) and its first byte is
// aligned to every alignment requested while building, provided the
// builder's storage is (it is allocated GRT_FB_BUILDER_ALIGNMENT-aligned).
grt_status_t grt_fb_builder_finish(grt_fb_builder_t* builder,
                                   grt_fb_ref_t root, const char* identifier,
                                   bool size_prefixed,
                                   grt_const_byte_span_t* out_buffer)
    GRT_MUST_USE;

// The largest alignment the builder can honour.
#define GRT_FB_BUILDER_ALIGNMENT 64

#ifdef __cplusplus
}
#endif

#endif  // GRT_BASE_FLATBUFFER_BUILDER_H_
