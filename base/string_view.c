#include "base/string_view.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "base/checked_math.h"

// The external definitions of the header's inline functions.
extern inline grt_string_view_t grt_make_cstring_view(const char* cstring);
extern inline bool grt_string_view_equal(grt_string_view_t a,
                                         grt_string_view_t b);
extern inline bool grt_string_view_equal_cstring(grt_string_view_t a,
                                                 const char* b);

bool grt_string_view_starts_with(grt_string_view_t view,
                                 grt_string_view_t prefix) {
  return prefix.size <= view.size &&
         grt_string_view_equal(grt_make_string_view(view.data, prefix.size),
                               prefix);
}

bool grt_string_view_ends_with(grt_string_view_t view,
                               grt_string_view_t suffix) {
  return suffix.size == 0 ||
         (suffix.size <= view.size &&
         grt_string_view_equal(
             grt_make_string_view(view.data + view.size - suffix.size,
                                  suffix.size),
             suffix));
}

size_t grt_string_view_find_char(grt_string_view_t view, char c, size_t pos) {
  if (pos >= view.size) return GRT_STRING_VIEW_NPOS;
  const char* found = memchr(view.data + pos, c, view.size - pos);
  return found ? (size_t)(found - view.data) : GRT_STRING_VIEW_NPOS;
}

grt_string_view_t grt_string_view_substr(grt_string_view_t view, size_t pos,
                                         size_t length) {
  if (!view.data) return view;  // NULL + 0 is not valid C
  if (pos > view.size) pos = view.size;
  if (length > view.size - pos) length = view.size - pos;
  return grt_make_string_view(view.data + pos, length);
}

bool grt_string_view_split(grt_string_view_t view, char separator,
                           grt_string_view_t* out_head,
                           grt_string_view_t* out_tail) {
  size_t index = grt_string_view_find_char(view, separator, 0);
  grt_string_view_t head = view;
  grt_string_view_t tail =
      grt_string_view_substr(view, view.size, GRT_STRING_VIEW_NPOS);
  if (index != GRT_STRING_VIEW_NPOS) {
    head = grt_string_view_substr(view, 0, index);
    tail = grt_string_view_substr(view, index + 1, GRT_STRING_VIEW_NPOS);
  }
  if (out_head) *out_head = head;
  if (out_tail) *out_tail = tail;
  return index != GRT_STRING_VIEW_NPOS;
}

// isspace() depends on the locale and is undefined for negative chars.
static bool grt_is_ascii_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

grt_string_view_t grt_string_view_trim(grt_string_view_t view) {
  while (view.size > 0 && grt_is_ascii_space(view.data[0])) {
    ++view.data;
    --view.size;
  }
  while (view.size > 0 && grt_is_ascii_space(view.data[view.size - 1])) {
    --view.size;
  }
  return view;
}

int grt_string_view_compare(grt_string_view_t a, grt_string_view_t b) {
  size_t common = a.size < b.size ? a.size : b.size;
  int order = common ? memcmp(a.data, b.data, common) : 0;
  if (order != 0) return order;
  return a.size < b.size ? -1 : a.size > b.size;
}

// Error messages quote at most this much of the input, so a parse of a
// huge buffer does not produce a huge message.
#define GRT_STRING_VIEW_QUOTE_LIMIT 64
#define GRT_QUOTE_FORMAT "%.*s%s"
#define GRT_QUOTE_ARGS(view)                                                \
  (int)((view).size < GRT_STRING_VIEW_QUOTE_LIMIT                           \
            ? (view).size                                                   \
            : GRT_STRING_VIEW_QUOTE_LIMIT),                                 \
      (view).data ? (view).data : "", (view).size > GRT_STRING_VIEW_QUOTE_LIMIT ? "..." : ""

static int grt_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 16;  // not a digit in any base we accept
}

// Parses the integer syntax into a sign and magnitude. The whole view is
// checked before the range, so "99999999999999999999x" is a syntax error.
static grt_status_t grt_parse_integer(grt_string_view_t view,
                                      const char* type_name,
                                      uint64_t max_positive,
                                      uint64_t max_negative_magnitude,
                                      bool* out_negative,
                                      uint64_t* out_magnitude) {
  size_t i = 0;
  bool negative = false;
  if (i < view.size && (view.data[i] == '-' || view.data[i] == '+')) {
    negative = view.data[i++] == '-';
  }
  unsigned base = 10;
  if (view.size - i > 2 && view.data[i] == '0' &&
      (view.data[i + 1] == 'x' || view.data[i + 1] == 'X')) {
    base = 16;
    i += 2;
  }
  bool syntax_ok = i < view.size;
  bool overflow = false;
  uint64_t magnitude = 0;
  for (; i < view.size && syntax_ok; ++i) {
    unsigned digit = (unsigned)grt_digit_value(view.data[i]);
    syntax_ok = digit < base;
    if (!grt_checked_mul_u64(magnitude, base, &magnitude) ||
        !grt_checked_add_u64(magnitude, digit, &magnitude)) {
      overflow = true;
    }
  }
  if (!syntax_ok) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "expected an integer, got \"" GRT_QUOTE_FORMAT "\"",
                           GRT_QUOTE_ARGS(view));
  }
  if (overflow ||
      magnitude > (negative ? max_negative_magnitude : max_positive)) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "integer " GRT_QUOTE_FORMAT " out of range for %s",
                           GRT_QUOTE_ARGS(view), type_name);
  }
  *out_negative = negative;
  *out_magnitude = magnitude;
  return grt_ok_status();
}

// Applies the sign without converting an out-of-range unsigned value to a
// signed type (|magnitude| is at most 2^63 here).
static int64_t grt_signed_from_magnitude(bool negative, uint64_t magnitude) {
  if (!negative || magnitude == 0) return (int64_t)magnitude;
  return -(int64_t)(magnitude - 1) - 1;
}

grt_status_t grt_string_view_parse_i32(grt_string_view_t view,
                                       int32_t* out_value) {
  bool negative;
  uint64_t magnitude;
  GRT_RETURN_IF_ERROR(grt_parse_integer(view, "i32", INT32_MAX,
                                        (uint64_t)INT32_MAX + 1, &negative,
                                        &magnitude));
  *out_value = (int32_t)grt_signed_from_magnitude(negative, magnitude);
  return grt_ok_status();
}

grt_status_t grt_string_view_parse_i64(grt_string_view_t view,
                                       int64_t* out_value) {
  bool negative;
  uint64_t magnitude;
  GRT_RETURN_IF_ERROR(grt_parse_integer(view, "i64", INT64_MAX,
                                        (uint64_t)INT64_MAX + 1, &negative,
                                        &magnitude));
  *out_value = grt_signed_from_magnitude(negative, magnitude);
  return grt_ok_status();
}

grt_status_t grt_string_view_parse_u64(grt_string_view_t view,
                                       uint64_t* out_value) {
  bool negative;
  uint64_t magnitude;
  // "-0" is zero, any other negative is out of range.
  GRT_RETURN_IF_ERROR(grt_parse_integer(view, "u64", UINT64_MAX, 0, &negative,
                                        &magnitude));
  *out_value = magnitude;
  return grt_ok_status();
}

// strtod needs a NUL-terminated copy; every real spelling of a double
// (17 significant digits, sign, exponent) fits easily in this.
#define GRT_STRING_VIEW_MAX_NUMBER_LENGTH 127

grt_status_t grt_string_view_parse_f64(grt_string_view_t view,
                                       double* out_value) {
  if (view.size > GRT_STRING_VIEW_MAX_NUMBER_LENGTH) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "expected a number of at most %d characters, got "
                           "%zu characters: \"" GRT_QUOTE_FORMAT "\"",
                           GRT_STRING_VIEW_MAX_NUMBER_LENGTH, view.size,
                           GRT_QUOTE_ARGS(view));
  }
  char buffer[GRT_STRING_VIEW_MAX_NUMBER_LENGTH + 1];
  if (view.size) memcpy(buffer, view.data, view.size);
  buffer[view.size] = '\0';
  // strtod skips leading whitespace itself; the parse is strict.
  char* end = buffer;
  double value = 0.0;
  errno = 0;
  if (view.size > 0 && !grt_is_ascii_space(buffer[0])) {
    value = strtod(buffer, &end);
  }
  if (end == buffer || (size_t)(end - buffer) != view.size) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "expected a number, got \"" GRT_QUOTE_FORMAT "\"",
                           GRT_QUOTE_ARGS(view));
  }
  // ERANGE also flags results that underflow to subnormals or zero; those
  // are the nearest double and accepted. Only overflow is an error.
  if (errno == ERANGE && (value == HUGE_VAL || value == -HUGE_VAL)) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "number " GRT_QUOTE_FORMAT " out of range for f64",
                           GRT_QUOTE_ARGS(view));
  }
  *out_value = value;
  return grt_ok_status();
}

grt_status_t grt_string_view_copy_cstring(grt_string_view_t view,
                                          grt_allocator_t allocator,
                                          char** out_cstring) {
  *out_cstring = NULL;
  size_t capacity;
  if (!grt_checked_add_size(view.size, 1, &capacity)) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "a %zu-byte string does not fit in memory with its "
                           "NUL terminator",
                           view.size);
  }
  char* copy = NULL;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_allocator_malloc(allocator, capacity, (void**)&copy),
      "copying a %zu-byte string", view.size);
  if (view.size) memcpy(copy, view.data, view.size);
  copy[view.size] = '\0';
  *out_cstring = copy;
  return grt_ok_status();
}

size_t grt_string_view_escape(grt_string_view_t view, char* out,
                              size_t capacity) {
  static const char digits[] = "0123456789abcdef";
  size_t needed = 0;
  bool fits = true;
  if (capacity) out[0] = '\0';
  for (size_t i = 0; i < view.size; ++i) {
    unsigned char c = (unsigned char)view.data[i];
    char piece[4];
    size_t length = 0;
    if (c == '\\') {
      piece[length++] = '\\';
      piece[length++] = '\\';
    } else if (c >= 0x20 && c < 0x7f) {
      piece[length++] = (char)c;
    } else {
      piece[length++] = '\\';
      piece[length++] = 'x';
      piece[length++] = digits[c >> 4];
      piece[length++] = digits[c & 15];
    }
    // Once one escape does not fit, none after it is written either.
    if (fits && needed + length < capacity) {
      memcpy(out + needed, piece, length);
      out[needed + length] = '\0';
    } else {
      fits = false;
    }
    needed += length;
  }
  return needed;
}

uint64_t grt_string_view_hash(grt_string_view_t view) {
  uint64_t hash = 14695981039346656037ull;
  for (size_t i = 0; i < view.size; ++i) {
    hash = (hash ^ (uint8_t)view.data[i]) * 1099511628211ull;
  }
  return hash;
}
