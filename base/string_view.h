// String views: a pointer and a length, never owning, never assumed to be
// NUL-terminated. Used for names read in place from module files and for
// parsing without copies.
#ifndef GRT_BASE_STRING_VIEW_H_
#define GRT_BASE_STRING_VIEW_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/allocator.h"
#include "base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_string_view_t {
  const char* data;
  size_t size;
} grt_string_view_t;

static inline grt_string_view_t grt_make_string_view(const char* data,
                                                     size_t size) {
  grt_string_view_t view = {data, size};
  return view;
}

// The next three are C99 inline definitions: a speed build inlines them, a
// size build (-Os/-Oz) calls the one external copy in base/string_view.c
// instead of keeping a local copy in every object that uses them.
inline grt_string_view_t grt_make_cstring_view(const char* cstring) {
  grt_string_view_t view = {cstring, cstring ? strlen(cstring) : 0};
  return view;
}

static inline grt_string_view_t grt_string_view_empty(void) {
  grt_string_view_t view = {"", 0};
  return view;
}

inline bool grt_string_view_equal(grt_string_view_t a,
                                  grt_string_view_t b) {
  return a.size == b.size && (a.size == 0 || memcmp(a.data, b.data, a.size) == 0);
}

inline bool grt_string_view_equal_cstring(grt_string_view_t a,
                                          const char* b) {
  return grt_string_view_equal(a, grt_make_cstring_view(b));
}

// Returned by the find functions when nothing matches.
#define GRT_STRING_VIEW_NPOS SIZE_MAX

bool grt_string_view_starts_with(grt_string_view_t view,
                                 grt_string_view_t prefix);
bool grt_string_view_ends_with(grt_string_view_t view,
                               grt_string_view_t suffix);

// Index of the first |c| at or after |pos|, or GRT_STRING_VIEW_NPOS.
size_t grt_string_view_find_char(grt_string_view_t view, char c, size_t pos);

// Up to |length| bytes from |pos|, both clamped to the view, so any
// arguments give a valid (possibly empty) view.
grt_string_view_t grt_string_view_substr(grt_string_view_t view, size_t pos,
                                         size_t length);

// Splits at the first |separator|: *out_head gets what precedes it and
// *out_tail what follows it. Without one, *out_head is the whole view,
// *out_tail is empty, and false is returned. Either out may be NULL.
bool grt_string_view_split(grt_string_view_t view, char separator,
                           grt_string_view_t* out_head,
                           grt_string_view_t* out_tail);

// Drops ASCII whitespace (space, \t, \n, \v, \f, \r) from both ends.
grt_string_view_t grt_string_view_trim(grt_string_view_t view);

// Byte-wise ordering (a prefix sorts first): <0, 0 or >0 like memcmp.
int grt_string_view_compare(grt_string_view_t a, grt_string_view_t b);

// Whole-string number parsers: the entire view must be the number, with no
// surrounding whitespace (trim first if wanted). Integers are an optional
// sign then decimal digits or 0x/0X and hex digits ("-0x10" is -16); leading
// zeros are decimal, never octal. Floats take what strtod takes in the C
// locale, including "inf", "nan" and hex floats. Syntax errors are
// INVALID_ARGUMENT ("expected an integer, got \"12x\""), values that do not
// fit are OUT_OF_RANGE ("integer 99999999999 out of range for i32").
grt_status_t grt_string_view_parse_i32(grt_string_view_t view,
                                       int32_t* out_value) GRT_MUST_USE;
grt_status_t grt_string_view_parse_i64(grt_string_view_t view,
                                       int64_t* out_value) GRT_MUST_USE;
grt_status_t grt_string_view_parse_u64(grt_string_view_t view,
                                       uint64_t* out_value) GRT_MUST_USE;
grt_status_t grt_string_view_parse_f64(grt_string_view_t view,
                                       double* out_value) GRT_MUST_USE;

// Copies the view into a new NUL-terminated string from |allocator|; the
// caller frees it with grt_allocator_free.
grt_status_t grt_string_view_copy_cstring(grt_string_view_t view,
                                          grt_allocator_t allocator,
                                          char** out_cstring) GRT_MUST_USE;

// FNV-1a (64-bit) of the bytes: the hash behind the project's name tables
// (base/name_index, the MLIR parser's scopes).
uint64_t grt_string_view_hash(grt_string_view_t view);

// Writes |view| for a message with every byte that is not printable ASCII
// escaped, so a message shows what was really given: a NUL is "\x00", a
// tab "\x09", a backslash "\\". |out| is always NUL-terminated (when
// |capacity| > 0) and cut only between escapes; returns the length the whole
// text needs (like snprintf), so a caller can tell it was cut.
size_t grt_string_view_escape(grt_string_view_t view, char* out,
                              size_t capacity);

// A read-only run of bytes, e.g. a segment of an mmapped module file.
typedef struct grt_const_byte_span_t {
  const unsigned char* data;
  size_t size;
} grt_const_byte_span_t;

static inline grt_const_byte_span_t grt_make_const_byte_span(const void* data,
                                                             size_t size) {
  grt_const_byte_span_t span = {(const unsigned char*)data, size};
  return span;
}

// printf support: printf("%.*s", GRT_SV_ARG(view)).
#define GRT_SV_ARG(view) (int)(view).size, (view).data

#ifdef __cplusplus
}
#endif

#endif  // GRT_BASE_STRING_VIEW_H_
