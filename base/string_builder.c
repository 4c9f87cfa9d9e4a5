#include "base/string_builder.h"

#include <stdio.h>
#include <string.h>

void grt_string_builder_init(grt_allocator_t allocator,
                             grt_string_builder_t* out_builder) {
  memset(out_builder, 0, sizeof(*out_builder));
  out_builder->allocator = allocator;
}

void grt_string_builder_deinit(grt_string_builder_t* builder) {
  if (builder->data) grt_allocator_free(builder->allocator, builder->data);
  grt_status_free(builder->status);
  memset(builder, 0, sizeof(*builder));
}

// Makes room for |extra| more bytes plus the terminator.
static bool grt_string_builder_reserve(grt_string_builder_t* builder,
                                       size_t extra) {
  if (!grt_status_is_ok(builder->status)) return false;
  if (extra > SIZE_MAX / 2 - builder->size - 1) {
    builder->status = grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                                      "string of %zu bytes is too long",
                                      builder->size + extra);
    return false;
  }
  size_t needed = builder->size + extra + 1;
  if (needed <= builder->capacity) return true;
  size_t capacity = builder->capacity ? builder->capacity : 256;
  while (capacity < needed) capacity *= 2;
  void* data = builder->data;
  grt_status_t status = grt_allocator_realloc(builder->allocator,
                                              builder->capacity, capacity,
                                              &data);
  if (!grt_status_is_ok(status)) {
    builder->status = status;
    return false;
  }
  builder->data = data;
  builder->capacity = capacity;
  return true;
}

void grt_string_builder_append(grt_string_builder_t* builder,
                               grt_string_view_t text) {
  if (!grt_string_builder_reserve(builder, text.size)) return;
  if (text.size) memcpy(builder->data + builder->size, text.data, text.size);
  builder->size += text.size;
  builder->data[builder->size] = 0;
}

void grt_string_builder_append_cstring(grt_string_builder_t* builder,
                                       const char* text) {
  grt_string_builder_append(builder, grt_make_string_view(text, strlen(text)));
}

void grt_string_builder_appendv(grt_string_builder_t* builder,
                                const char* format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  int length = vsnprintf(NULL, 0, format, copy);
  va_end(copy);
  if (length < 0) {
    if (grt_status_is_ok(builder->status)) {
      builder->status = grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                                        "bad format string '%s'", format);
    }
    return;
  }
  if (!grt_string_builder_reserve(builder, (size_t)length)) return;
  vsnprintf(builder->data + builder->size, (size_t)length + 1, format, args);
  builder->size += (size_t)length;
}

void grt_string_builder_appendf(grt_string_builder_t* builder,
                                const char* format, ...) {
  va_list args;
  va_start(args, format);
  grt_string_builder_appendv(builder, format, args);
  va_end(args);
}

void grt_string_builder_clear(grt_string_builder_t* builder) {
  builder->size = 0;
  if (builder->data) builder->data[0] = 0;
}

grt_status_t grt_string_builder_status(const grt_string_builder_t* builder) {
  return grt_status_clone(builder->status);
}

const char* grt_string_builder_cstring(const grt_string_builder_t* builder) {
  return builder->data ? builder->data : "";
}

grt_string_view_t grt_string_builder_view(const grt_string_builder_t* builder) {
  return grt_make_string_view(grt_string_builder_cstring(builder),
                              builder->size);
}
