// String views: a pointer and a length, never owning, never assumed to be
// NUL-terminated. Used for names read in place from module files and for
// parsing without copies.
#ifndef GRT_BASE_STRING_VIEW_H_
#define GRT_BASE_STRING_VIEW_H_

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

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

static inline grt_string_view_t grt_make_cstring_view(const char* cstring) {
  grt_string_view_t view = {cstring, cstring ? strlen(cstring) : 0};
  return view;
}

static inline grt_string_view_t grt_string_view_empty(void) {
  grt_string_view_t view = {"", 0};
  return view;
}

static inline bool grt_string_view_equal(grt_string_view_t a,
                                         grt_string_view_t b) {
  return a.size == b.size && (a.size == 0 || memcmp(a.data, b.data, a.size) == 0);
}

static inline bool grt_string_view_equal_cstring(grt_string_view_t a,
                                                 const char* b) {
  return grt_string_view_equal(a, grt_make_cstring_view(b));
}

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
