// .npy reading and writing (see npy.h).
#include "tools/npy.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/checked_math.h"
#include "base/endian.h"
#include "base/file.h"

// X(kind letter, bytes, element type): the dtypes numpy and grt share. The
// byte order character is checked separately.
#define GRT_NPY_DTYPE_LIST(X)                 \
  X('f', 2, GRT_HAL_ELEMENT_TYPE_FLOAT_16)    \
  X('f', 4, GRT_HAL_ELEMENT_TYPE_FLOAT_32)    \
  X('f', 8, GRT_HAL_ELEMENT_TYPE_FLOAT_64)    \
  X('b', 1, GRT_HAL_ELEMENT_TYPE_BOOL)        \
  X('i', 1, GRT_HAL_ELEMENT_TYPE_INT_8)       \
  X('i', 2, GRT_HAL_ELEMENT_TYPE_INT_16)      \
  X('i', 4, GRT_HAL_ELEMENT_TYPE_INT_32)      \
  X('i', 8, GRT_HAL_ELEMENT_TYPE_INT_64)      \
  X('u', 1, GRT_HAL_ELEMENT_TYPE_UINT_8)      \
  X('u', 2, GRT_HAL_ELEMENT_TYPE_UINT_16)     \
  X('u', 4, GRT_HAL_ELEMENT_TYPE_UINT_32)     \
  X('u', 8, GRT_HAL_ELEMENT_TYPE_UINT_64)

static const char grt_npy_supported[] =
    "<f2 <f4 <f8 |b1 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8 <c8 <c16";

// Complex dtypes ('<c8', '<c16'): interleaved (re, im) parts, read as the
// part's float type with a trailing dimension of 2, which is how a compiled
// module takes complex tensors (docs/module-format.md "Complex tensors").
// The part type of |descr|, or NONE when it is not a complex dtype.
static grt_hal_element_type_t grt_npy_complex_part(grt_string_view_t descr) {
  if (descr.size < 3 || descr.data[1] != 'c' ||
      (descr.data[0] != '<' && descr.data[0] != '=')) {
    return GRT_HAL_ELEMENT_TYPE_NONE;
  }
  grt_string_view_t bytes = grt_make_string_view(descr.data + 2, descr.size - 2);
  if (grt_string_view_equal_cstring(bytes, "8")) return GRT_HAL_ELEMENT_TYPE_FLOAT_32;
  if (grt_string_view_equal_cstring(bytes, "16")) return GRT_HAL_ELEMENT_TYPE_FLOAT_64;
  return GRT_HAL_ELEMENT_TYPE_NONE;
}

static const uint8_t grt_npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

grt_status_t grt_npy_element_type_from_descr(const char* name,
                                             grt_string_view_t descr,
                                             grt_hal_element_type_t* out_type) {
  *out_type = GRT_HAL_ELEMENT_TYPE_NONE;
  if (descr.size == 3 && descr.data[2] >= '1' && descr.data[2] <= '8') {
    char order = descr.data[0];
    char kind = descr.data[1];
    int bytes = descr.data[2] - '0';
#define GRT_NPY_MATCH(k, n, type) \
  if (kind == k && bytes == n) *out_type = type;
    GRT_NPY_DTYPE_LIST(GRT_NPY_MATCH)
#undef GRT_NPY_MATCH
    // Byte order does not apply to one-byte types ('|'), and '=' is the
    // writer's native order; grt only runs on little-endian hosts.
    if (*out_type != GRT_HAL_ELEMENT_TYPE_NONE && order == '>' && bytes > 1) {
      *out_type = GRT_HAL_ELEMENT_TYPE_NONE;
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%s: dtype '%.*s' is big-endian; expected "
                             "little-endian",
                             name, GRT_SV_ARG(descr));
    }
    if (*out_type != GRT_HAL_ELEMENT_TYPE_NONE &&
        (order == '<' || order == '|' || order == '=' || order == '>')) {
      return grt_ok_status();
    }
    *out_type = GRT_HAL_ELEMENT_TYPE_NONE;
  }
  // The dtype comes from the file: show every byte of it ("<f4\x00"), so
  // a NUL or control byte cannot hide what was really given.
  char shown[96];
  size_t needed = grt_string_view_escape(descr, shown, sizeof(shown));
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "%s: dtype '%s%s' is not supported; expected one of "
                         "%s",
                         name, shown, needed >= sizeof(shown) ? "..." : "",
                         grt_npy_supported);
}

const char* grt_npy_descr_for_element_type(grt_hal_element_type_t type) {
  switch (type) {
    case GRT_HAL_ELEMENT_TYPE_FLOAT_16: return "<f2";
    case GRT_HAL_ELEMENT_TYPE_FLOAT_32: return "<f4";
    case GRT_HAL_ELEMENT_TYPE_FLOAT_64: return "<f8";
    case GRT_HAL_ELEMENT_TYPE_BOOL: return "|b1";
    case GRT_HAL_ELEMENT_TYPE_INT_8: return "|i1";
    case GRT_HAL_ELEMENT_TYPE_INT_16: return "<i2";
    case GRT_HAL_ELEMENT_TYPE_INT_32: return "<i4";
    case GRT_HAL_ELEMENT_TYPE_INT_64: return "<i8";
    case GRT_HAL_ELEMENT_TYPE_UINT_8: return "|u1";
    case GRT_HAL_ELEMENT_TYPE_UINT_16: return "<u2";
    case GRT_HAL_ELEMENT_TYPE_UINT_32: return "<u4";
    case GRT_HAL_ELEMENT_TYPE_UINT_64: return "<u8";
    default: return NULL;
  }
}

//===----------------------------------------------------------------------===//
// Header dictionary
//===----------------------------------------------------------------------===//

// A cursor over the header text, a Python dict literal such as
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
typedef struct grt_npy_cursor_t {
  const char* name;
  grt_string_view_t text;
  size_t pos;
} grt_npy_cursor_t;

static void grt_npy_skip_space(grt_npy_cursor_t* c) {
  while (c->pos < c->text.size &&
         (c->text.data[c->pos] == ' ' || c->text.data[c->pos] == '\t' ||
          c->text.data[c->pos] == '\n' || c->text.data[c->pos] == '\r')) {
    ++c->pos;
  }
}

static bool grt_npy_consume(grt_npy_cursor_t* c, char ch) {
  grt_npy_skip_space(c);
  if (c->pos < c->text.size && c->text.data[c->pos] == ch) {
    ++c->pos;
    return true;
  }
  return false;
}

static grt_status_t grt_npy_bad_header(const grt_npy_cursor_t* c,
                                       const char* expected) {
  char shown[512];
  size_t needed = grt_string_view_escape(grt_string_view_trim(c->text), shown,
                                         sizeof(shown));
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "%s: bad .npy header: expected %s at offset %zu of "
                         "\"%s%s\"",
                         c->name, expected, c->pos, shown,
                         needed >= sizeof(shown) ? "..." : "");
}

// A '...' or "..." string (numpy never writes escapes in these fields).
static grt_status_t grt_npy_read_string(grt_npy_cursor_t* c,
                                        grt_string_view_t* out) {
  grt_npy_skip_space(c);
  if (c->pos >= c->text.size ||
      (c->text.data[c->pos] != '\'' && c->text.data[c->pos] != '"')) {
    return grt_npy_bad_header(c, "a quoted string");
  }
  char quote = c->text.data[c->pos++];
  size_t start = c->pos;
  while (c->pos < c->text.size && c->text.data[c->pos] != quote) ++c->pos;
  if (c->pos >= c->text.size) return grt_npy_bad_header(c, "a closing quote");
  *out = grt_make_string_view(c->text.data + start, c->pos - start);
  ++c->pos;
  return grt_ok_status();
}

static grt_status_t grt_npy_read_bool(grt_npy_cursor_t* c, bool* out) {
  grt_npy_skip_space(c);
  grt_string_view_t rest = grt_string_view_substr(c->text, c->pos, SIZE_MAX);
  if (grt_string_view_starts_with(rest, grt_make_cstring_view("True"))) {
    *out = true;
    c->pos += 4;
  } else if (grt_string_view_starts_with(rest,
                                         grt_make_cstring_view("False"))) {
    *out = false;
    c->pos += 5;
  } else {
    return grt_npy_bad_header(c, "True or False");
  }
  return grt_ok_status();
}

// "()", "(3,)", "(2, 3)".
static grt_status_t grt_npy_read_shape(grt_npy_cursor_t* c,
                                       grt_npy_array_t* array) {
  if (!grt_npy_consume(c, '(')) return grt_npy_bad_header(c, "'(' of shape");
  array->rank = 0;
  while (!grt_npy_consume(c, ')')) {
    grt_npy_skip_space(c);
    size_t start = c->pos;
    while (c->pos < c->text.size && c->text.data[c->pos] >= '0' &&
           c->text.data[c->pos] <= '9') {
      ++c->pos;
    }
    if (c->pos == start) return grt_npy_bad_header(c, "a dimension");
    uint64_t dim = 0;
    grt_status_t status = grt_string_view_parse_u64(
        grt_make_string_view(c->text.data + start, c->pos - start), &dim);
    if (!grt_status_is_ok(status) || dim > (uint64_t)INT64_MAX) {
      grt_status_free(status);
      return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                             "%s: dimension %zu of the shape is too large",
                             c->name, array->rank);
    }
    if (array->rank == GRT_HAL_MAX_RANK) {
      return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                             "%s: rank is more than %d, the most grt supports",
                             c->name, GRT_HAL_MAX_RANK);
    }
    array->shape[array->rank++] = (grt_hal_dim_t)dim;
    if (!grt_npy_consume(c, ',')) {
      if (!grt_npy_consume(c, ')')) {
        return grt_npy_bad_header(c, "',' or ')' in shape");
      }
      break;
    }
  }
  return grt_ok_status();
}

static grt_status_t grt_npy_parse_dict(grt_npy_cursor_t* c,
                                       grt_npy_array_t* array) {
  bool have_descr = false, have_order = false, have_shape = false;
  bool is_complex = false;
  if (!grt_npy_consume(c, '{')) return grt_npy_bad_header(c, "'{'");
  while (!grt_npy_consume(c, '}')) {
    grt_string_view_t key;
    GRT_RETURN_IF_ERROR(grt_npy_read_string(c, &key));
    if (!grt_npy_consume(c, ':')) return grt_npy_bad_header(c, "':'");
    if (grt_string_view_equal_cstring(key, "descr")) {
      grt_npy_skip_space(c);
      if (c->pos < c->text.size && c->text.data[c->pos] == '[') {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "%s: structured dtypes are not supported; "
                               "expected one of %s",
                               c->name, grt_npy_supported);
      }
      grt_string_view_t descr;
      GRT_RETURN_IF_ERROR(grt_npy_read_string(c, &descr));
      array->element_type = grt_npy_complex_part(descr);
      is_complex = array->element_type != GRT_HAL_ELEMENT_TYPE_NONE;
      if (!is_complex) {
        GRT_RETURN_IF_ERROR(grt_npy_element_type_from_descr(
            c->name, descr, &array->element_type));
      }
      have_descr = true;
    } else if (grt_string_view_equal_cstring(key, "fortran_order")) {
      bool fortran_order = false;
      GRT_RETURN_IF_ERROR(grt_npy_read_bool(c, &fortran_order));
      if (fortran_order) {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "%s: fortran_order arrays are not supported",
                               c->name);
      }
      have_order = true;
    } else if (grt_string_view_equal_cstring(key, "shape")) {
      GRT_RETURN_IF_ERROR(grt_npy_read_shape(c, array));
      have_shape = true;
    } else {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%s: bad .npy header: unexpected key '%.*s'; "
                             "expected descr, fortran_order and shape",
                             c->name, GRT_SV_ARG(key));
    }
    if (!grt_npy_consume(c, ',')) {
      if (!grt_npy_consume(c, '}')) return grt_npy_bad_header(c, "',' or '}'");
      break;
    }
  }
  if (!have_descr || !have_order || !have_shape) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: bad .npy header: missing '%s'", c->name,
                           !have_descr ? "descr"
                           : !have_order ? "fortran_order"
                                         : "shape");
  }
  if (is_complex) {
    if (array->rank >= GRT_HAL_MAX_RANK) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%s: a complex array of rank %zu is read with a "
                             "trailing dimension of 2 (re, im); expected rank "
                             "%d at most",
                             c->name, array->rank, GRT_HAL_MAX_RANK - 1);
    }
    array->shape[array->rank++] = 2;
  }
  return grt_ok_status();
}

// The magic, version and header length of the array at |offset|: the
// bytes before the header dictionary (*out_prefix) and its length.
static grt_status_t grt_npy_parse_prefix(const char* name,
                                         grt_const_byte_span_t contents,
                                         size_t offset, size_t* out_prefix,
                                         size_t* out_header_length) {
  size_t remaining = offset <= contents.size ? contents.size - offset : 0;
  const uint8_t* p = contents.data + offset;
  if (remaining < 10 || memcmp(p, grt_npy_magic, sizeof(grt_npy_magic)) != 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: not a .npy file: expected the magic "
                           "\"\\x93NUMPY\" at byte %zu",
                           name, offset);
  }
  uint8_t major = p[6], minor = p[7];
  if (major == 1 && minor == 0) {
    *out_prefix = 10;
    *out_header_length = grt_load_le_u16(p + 8);
  } else if ((major == 2 || major == 3) && minor == 0 && remaining >= 12) {
    *out_prefix = 12;
    *out_header_length = grt_load_le_u32(p + 8);
  } else {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "%s: .npy format version %u.%u is not supported; "
                           "expected 1.0, 2.0 or 3.0",
                           name, major, minor);
  }
  if (*out_header_length > GRT_NPY_MAX_HEADER_LENGTH) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "%s: header says %zu bytes of header, at most %d "
                           "are read",
                           name, *out_header_length, GRT_NPY_MAX_HEADER_LENGTH);
  }
  return grt_ok_status();
}

grt_status_t grt_npy_header_size(const char* name, grt_const_byte_span_t prefix,
                                 size_t* out_size) {
  if (prefix.size < 10) {
    *out_size = 10;
    return grt_ok_status();
  }
  if (prefix.size < 12 && (prefix.data[6] == 2 || prefix.data[6] == 3) &&
      prefix.data[7] == 0 &&
      memcmp(prefix.data, grt_npy_magic, sizeof(grt_npy_magic)) == 0) {
    *out_size = 12;
    return grt_ok_status();
  }
  size_t prefix_length = 0, header_length = 0;
  GRT_RETURN_IF_ERROR(
      grt_npy_parse_prefix(name, prefix, 0, &prefix_length, &header_length));
  *out_size = prefix_length + header_length;
  return grt_ok_status();
}

grt_status_t grt_npy_parse_header(const char* name,
                                  grt_const_byte_span_t contents,
                                  size_t offset, grt_npy_array_t* out_array,
                                  size_t* out_data_offset) {
  memset(out_array, 0, sizeof(*out_array));
  size_t prefix = 0, header_length = 0;
  GRT_RETURN_IF_ERROR(grt_npy_parse_prefix(name, contents, offset, &prefix,
                                           &header_length));
  size_t remaining = contents.size - offset;
  const uint8_t* p = contents.data + offset;
  if (header_length > remaining - prefix) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: truncated: header says %zu bytes of header, "
                           "file has %zu",
                           name, header_length, remaining - prefix);
  }
  grt_npy_cursor_t cursor = {
      name,
      grt_make_string_view((const char*)p + prefix, header_length), 0};
  GRT_RETURN_IF_ERROR(grt_npy_parse_dict(&cursor, out_array));

  uint64_t count = 1;
  for (size_t i = 0; i < out_array->rank; ++i) {
    if (!grt_checked_mul_u64(count, (uint64_t)out_array->shape[i], &count)) {
      return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                             "%s: element count overflows", name);
    }
  }
  uint64_t data_length = 0;
  if (!grt_checked_mul_u64(
          count, grt_hal_element_type_byte_size(out_array->element_type),
          &data_length) ||
      data_length > SIZE_MAX / 2) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "%s: data size overflows", name);
  }
  out_array->data_length = (size_t)data_length;
  *out_data_offset = offset + prefix + header_length;
  return grt_ok_status();
}

grt_status_t grt_npy_parse(const char* name, grt_const_byte_span_t contents,
                           size_t* inout_offset, grt_npy_array_t* out_array) {
  size_t data_offset = 0;
  GRT_RETURN_IF_ERROR(grt_npy_parse_header(name, contents, *inout_offset,
                                           out_array, &data_offset));
  size_t data_available = contents.size - data_offset;
  if (out_array->data_length > data_available) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: truncated: header says %zu bytes of data, "
                           "file has %zu",
                           name, out_array->data_length, data_available);
  }
  out_array->data = contents.data + data_offset;
  *inout_offset = data_offset + out_array->data_length;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

grt_status_t grt_npy_format_header(grt_hal_element_type_t type,
                                   const grt_hal_dim_t* shape, size_t rank,
                                   char* out, size_t capacity,
                                   size_t* out_length) {
  *out_length = 0;
  const char* descr = grt_npy_descr_for_element_type(type);
  if (!descr) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "element type %s has no .npy dtype (numpy has no "
                           "bfloat16); write raw bytes with @FILE.bin instead",
                           grt_hal_element_type_bits(type) == 16 &&
                                   grt_hal_element_type_kind(type) ==
                                       GRT_HAL_NUMERICAL_FLOAT_BRAIN
                               ? "bf16"
                               : "unknown");
  }
  // The dictionary text, then the padding computed once its length is known.
  char dict[64 + GRT_HAL_MAX_RANK * 24];
  size_t used = (size_t)snprintf(
      dict, sizeof(dict), "{'descr': '%s', 'fortran_order': False, 'shape': (",
      descr);
  for (size_t i = 0; i < rank; ++i) {
    used += (size_t)snprintf(dict + used, sizeof(dict) - used, "%s%" PRId64,
                             i ? ", " : "", shape[i]);
  }
  used += (size_t)snprintf(dict + used, sizeof(dict) - used, "%s), }",
                           rank == 1 ? "," : "");
  // Padded with spaces and a final '\n' so the data starts 64-aligned.
  size_t prefix = 10;
  size_t total = grt_align_up_size(prefix + used + 1, 64);
  if (total - prefix > UINT16_MAX) {
    prefix = 12;
    total = grt_align_up_size(prefix + used + 1, 64);
  }
  if (total > capacity) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           ".npy header needs %zu bytes, buffer has %zu", total,
                           capacity);
  }
  memcpy(out, grt_npy_magic, sizeof(grt_npy_magic));
  out[6] = prefix == 10 ? 1 : 2;
  out[7] = 0;
  if (prefix == 10) {
    grt_store_le_u16((uint8_t*)out + 8, (uint16_t)(total - prefix));
  } else {
    grt_store_le_u32((uint8_t*)out + 8, (uint32_t)(total - prefix));
  }
  memcpy(out + prefix, dict, used);
  memset(out + prefix + used, ' ', total - prefix - used - 1);
  out[total - 1] = '\n';
  *out_length = total;
  return grt_ok_status();
}

grt_status_t grt_npy_write_file(const char* path, bool append,
                                grt_hal_element_type_t type,
                                const grt_hal_dim_t* shape, size_t rank,
                                const void* data, size_t data_length) {
  uint64_t count = 1;
  for (size_t i = 0; i < rank; ++i) {
    if (shape[i] < 0 ||
        !grt_checked_mul_u64(count, (uint64_t)shape[i], &count)) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%s: bad dimension %zu (%" PRId64 ")", path, i,
                             shape[i]);
    }
  }
  uint64_t expected = 0;
  if (!grt_checked_mul_u64(count, grt_hal_element_type_byte_size(type),
                           &expected) ||
      expected != data_length) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: the array needs %" PRIu64
                           " bytes of data, given %zu",
                           path, expected, data_length);
  }
  char header[256 + GRT_HAL_MAX_RANK * 24];
  size_t header_length = 0;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_npy_format_header(type, shape, rank, header, sizeof(header),
                            &header_length),
      "writing '%s'", path);
  // The one output-file writer of the tools: it never replaces a device,
  // FIFO or link with a regular file (base/file.h).
  grt_file_chunk_t chunks[2] = {{header, header_length}, {data, data_length}};
  return grt_file_write_chunks(
      path, chunks, 2, append ? GRT_FILE_WRITE_APPEND : GRT_FILE_WRITE_REPLACE);
}
