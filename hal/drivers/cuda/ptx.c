// PTX module checks (ptx.h): a byte scan and directive search, no parser.
#include "hal/drivers/cuda/ptx.h"

#include <stdbool.h>
#include <string.h>

static bool grt_hal_cuda_ptx_is_text_byte(uint8_t c) {
  return c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c < 0x7f);
}

static bool grt_hal_cuda_ptx_is_identifier_byte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '%';
}

// Finds |directive| (".version", ".entry") as a whole token followed by
// whitespace; returns the offset just after the whitespace run, or
// |length| when absent. Starts at |from|.
static size_t grt_hal_cuda_ptx_find_directive(const char* text, size_t length,
                                              const char* directive,
                                              size_t from) {
  size_t n = strlen(directive);
  for (size_t i = from; i + n < length; ++i) {
    if (memcmp(text + i, directive, n) != 0) continue;
    if (i > 0 && grt_hal_cuda_ptx_is_identifier_byte(text[i - 1])) continue;
    size_t j = i + n;
    if (text[j] != ' ' && text[j] != '\t' && text[j] != '\n' &&
        text[j] != '\r') {
      continue;
    }
    while (j < length && (text[j] == ' ' || text[j] == '\t' ||
                          text[j] == '\n' || text[j] == '\r')) {
      ++j;
    }
    return j;
  }
  return length;
}

static bool grt_hal_cuda_ptx_has_entry(const char* text, size_t length,
                                       grt_string_view_t name) {
  size_t at = 0;
  while ((at = grt_hal_cuda_ptx_find_directive(text, length, ".entry", at)) <
         length) {
    if (at + name.size <= length && memcmp(text + at, name.data, name.size) == 0 &&
        (at + name.size == length ||
         !grt_hal_cuda_ptx_is_identifier_byte(text[at + name.size]))) {
      return true;
    }
  }
  return false;
}

grt_status_t grt_hal_cuda_ptx_validate(
    const uint8_t* binary, size_t binary_size,
    const grt_hal_entry_point_info_t* entry_points, size_t entry_point_count,
    size_t* out_text_length) {
  *out_text_length = 0;
  if (!binary || binary_size == 0) {
    return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                           "executable cuda-ptx: the module is empty");
  }
  size_t length = 0;
  while (length < binary_size && binary[length] != 0) {
    if (!grt_hal_cuda_ptx_is_text_byte(binary[length])) {
      return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                             "executable cuda-ptx: the module is not PTX "
                             "text: byte 0x%02x at offset %zu",
                             binary[length], length);
    }
    ++length;
  }
  for (size_t i = length; i < binary_size; ++i) {
    if (binary[i] != 0) {
      return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                             "executable cuda-ptx: the module has data after "
                             "its terminating NUL (byte 0x%02x at offset %zu "
                             "of %zu)",
                             binary[i], i, binary_size);
    }
  }
  const char* text = (const char*)binary;
  if (grt_hal_cuda_ptx_find_directive(text, length, ".version", 0) >= length) {
    return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                           "executable cuda-ptx: the module has no .version "
                           "directive (%zu bytes of text)",
                           length);
  }
  for (size_t i = 0; i < entry_point_count; ++i) {
    if (!grt_hal_cuda_ptx_has_entry(text, length, entry_points[i].name)) {
      return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                             "executable cuda-ptx: binary has no entry point "
                             "'%.*s' (no '.entry %.*s' in the PTX)",
                             (int)entry_points[i].name.size,
                             entry_points[i].name.data,
                             (int)entry_points[i].name.size,
                             entry_points[i].name.data);
    }
  }
  *out_text_length = length;
  return grt_ok_status();
}
