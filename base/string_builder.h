// A growable NUL-terminated string, for code generators that emit text
// (C kernels, vm-dialect host programs, dumps). Memory comes from the
// caller's allocator; an allocation failure is kept and reported by
// grt_string_builder_status so emitters can append freely and check once.
#ifndef GRT_BASE_STRING_BUILDER_H_
#define GRT_BASE_STRING_BUILDER_H_

#include <stdarg.h>
#include <stddef.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_string_builder_t {
  grt_allocator_t allocator;
  char* data;       // NUL-terminated when non-NULL
  size_t size;      // bytes before the terminator
  size_t capacity;  // bytes allocated
  grt_status_t status;  // first failure, GRT_OK otherwise
} grt_string_builder_t;

void grt_string_builder_init(grt_allocator_t allocator,
                             grt_string_builder_t* out_builder);
void grt_string_builder_deinit(grt_string_builder_t* builder);

void grt_string_builder_append(grt_string_builder_t* builder,
                               grt_string_view_t text);
void grt_string_builder_append_cstring(grt_string_builder_t* builder,
                                       const char* text);
void grt_string_builder_appendf(grt_string_builder_t* builder,
                                const char* format, ...) GRT_PRINTF_LIKE(2, 3);
void grt_string_builder_appendv(grt_string_builder_t* builder,
                                const char* format, va_list args);
// Forgets the contents, keeping the memory.
void grt_string_builder_clear(grt_string_builder_t* builder);

// The first failure of any append (a copy the caller owns), or GRT_OK.
grt_status_t grt_string_builder_status(const grt_string_builder_t* builder)
    GRT_MUST_USE;
// The text so far; "" when nothing was appended.
const char* grt_string_builder_cstring(const grt_string_builder_t* builder);
grt_string_view_t grt_string_builder_view(const grt_string_builder_t* builder);

#ifdef __cplusplus
}
#endif

#endif  // GRT_BASE_STRING_BUILDER_H_
