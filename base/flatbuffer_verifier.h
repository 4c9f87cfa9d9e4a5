// FlatBuffers verification driven by schema descriptors.
//
// A schema's tables are described once as static arrays of field
// descriptors (one row per field, in declaration order, so a row's index is
// the field id). One generic walker checks a buffer against them: every
// uoffset and soffset, vtable sizes and field offsets, string lengths and
// NUL terminators, vector lengths times element sizes, the alignment of
// scalars, structs and vectors, required fields, nesting depth and table
// count, all against the buffer bounds. Errors name the path to the bad
// field, e.g.
//   module file invalid: ModuleDef.functions[3].name: string at offset 1234
//   extends past end of buffer (size 1000)
// Nothing outside the buffer is ever read, whatever its contents.
#ifndef GRT_BASE_FLATBUFFER_VERIFIER_H_
#define GRT_BASE_FLATBUFFER_VERIFIER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum grt_fb_kind_e {
  GRT_FB_KIND_SCALAR,  // |size| bytes, aligned to |alignment|
  GRT_FB_KIND_STRUCT,  // |size| bytes inline, aligned to |alignment|
  GRT_FB_KIND_STRING,
  GRT_FB_KIND_TABLE,               // of type |table|
  GRT_FB_KIND_VECTOR_OF_SCALARS,   // elements of |size| bytes, |alignment|
  GRT_FB_KIND_VECTOR_OF_STRUCTS,   // elements of |size| bytes, |alignment|
  GRT_FB_KIND_VECTOR_OF_STRINGS,
  GRT_FB_KIND_VECTOR_OF_TABLES,    // elements of type |table|
} grt_fb_kind_t;

struct grt_fb_table_desc_t;

typedef struct grt_fb_field_desc_t {
  const char* name;
  grt_fb_kind_t kind;
  uint16_t size;
  uint16_t alignment;
  const struct grt_fb_table_desc_t* table;
  bool required;
} grt_fb_field_desc_t;

typedef struct grt_fb_table_desc_t {
  const char* name;
  const grt_fb_field_desc_t* fields;  // fields[i] has field id i
  size_t field_count;
} grt_fb_table_desc_t;

// The deepest nesting of tables a path may have; also bounds the verifier's
// own stack use.
#define GRT_FB_MAX_DEPTH_LIMIT 64

typedef struct grt_fb_verify_limits_t {
  uint32_t max_depth;   // <= GRT_FB_MAX_DEPTH_LIMIT
  // Tables visited in total. A DAG of shared tables can make a small buffer
  // describe an exponential tree; this caps the work.
  uint32_t max_tables;
} grt_fb_verify_limits_t;

grt_fb_verify_limits_t grt_fb_verify_default_limits(void);

// Verifies a buffer whose root uoffset is at position 0 (optionally
// followed by a 4-character file identifier). Positions and alignment are
// relative to |buffer.data|. |what| names the buffer in messages ("module
// file"). |identifier| may be NULL to skip the identifier check.
grt_status_t grt_fb_verify(grt_const_byte_span_t buffer, const char* what,
                           const char* identifier,
                           const grt_fb_table_desc_t* root,
                           grt_fb_verify_limits_t limits) GRT_MUST_USE;

// As grt_fb_verify for a size-prefixed buffer: a u32 length N, then a
// FlatBuffer of N bytes that must fit in |buffer| (bytes after it are not
// examined). Positions stay relative to |buffer.data|, so the root uoffset
// is at 4. Returns N + 4 through |out_end| (may be NULL).
grt_status_t grt_fb_verify_size_prefixed(grt_const_byte_span_t buffer,
                                         const char* what,
                                         const char* identifier,
                                         const grt_fb_table_desc_t* root,
                                         grt_fb_verify_limits_t limits,
                                         size_t* out_end) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_BASE_FLATBUFFER_VERIFIER_H_
