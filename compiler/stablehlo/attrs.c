#include "compiler/stablehlo/attrs.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "compiler/mlir/printer.h"

static bool grtc_attr_fail(grtc_attr_error_t* error, const char* format, ...)
    GRT_PRINTF_LIKE(2, 3);
static bool grtc_attr_fail(grtc_attr_error_t* error, const char* format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(error->message, sizeof(error->message), format, args);
  va_end(args);
  return false;
}

// "array<i32: 1>" style spelling of an attribute for messages.
static const char* grtc_attr_spell(const grtc_attribute_t* attr, char* buffer,
                                   size_t capacity) {
  size_t length = grtc_format_attribute(attr, buffer, capacity);
  if (length >= capacity && capacity > 4) memcpy(buffer + capacity - 4, "...", 4);
  return buffer;
}

static int64_t grtc_attr_load_int(const uint8_t* bytes, size_t size,
                                  bool is_unsigned) {
  uint64_t value = 0;
  for (size_t b = 0; b < size; ++b) value |= (uint64_t)bytes[b] << (8 * b);
  if (!is_unsigned && size < 8 && (value >> (8 * size - 1)) & 1) {
    value |= ~(uint64_t)0 << (8 * size);
  }
  return (int64_t)value;
}

bool grtc_attr_i64s(grtc_tmodule_t* module, const grtc_attribute_t* attr,
                    const char* name, grtc_i64s_t* out, grtc_attr_error_t* error) {
  int64_t values[GRTC_STABLEHLO_MAX_LIST];
  uint32_t count = 0;
  char spelled[96];
  switch (attr->kind) {
    case GRTC_ATTR_ARRAY:
      if (attr->array.count > GRTC_STABLEHLO_MAX_LIST) break;
      for (uint32_t i = 0; i < attr->array.count; ++i) {
        if (attr->array.items[i]->kind != GRTC_ATTR_INTEGER) {
          return grtc_attr_fail(error, "'%s' must list integers, found %s", name,
                                grtc_attr_spell(attr, spelled, sizeof(spelled)));
        }
        values[count++] = attr->array.items[i]->integer;
      }
      *out = grtc_tmodule_i64s(module, values, count);
      return true;
    case GRTC_ATTR_DENSE_ARRAY:
    case GRTC_ATTR_DENSE_ELEMENTS: {
      const grtc_type_t* element = attr->type;
      uint64_t total = 0;
      if (attr->kind == GRTC_ATTR_DENSE_ELEMENTS) {
        if (!attr->type || attr->type->shaped.rank > 1 ||
            !grtc_type_element_count(attr->type, &total)) {
          break;
        }
        element = attr->type->shaped.element;
      }
      if (!element || (element->kind != GRTC_TYPE_INTEGER &&
                       element->kind != GRTC_TYPE_INDEX)) {
        break;
      }
      size_t size = grtc_type_element_byte_size(element);
      if (size == 0) break;
      if (attr->kind == GRTC_ATTR_DENSE_ARRAY || !attr->dense.splat) {
        total = attr->dense.size / size;
      }
      if (total > GRTC_STABLEHLO_MAX_LIST) break;
      bool is_unsigned = element->kind == GRTC_TYPE_INTEGER &&
                         (element->integer.signedness == GRTC_UNSIGNED ||
                          element->integer.width == 1);
      for (uint64_t i = 0; i < total; ++i) {
        size_t offset = attr->dense.splat ? 0 : (size_t)i * size;
        if (offset + size > attr->dense.size) break;
        values[count++] = grtc_attr_load_int(attr->dense.data + offset, size, is_unsigned);
      }
      *out = grtc_tmodule_i64s(module, values, count);
      return true;
    }
    default:
      break;
  }
  return grtc_attr_fail(error, "'%s' must be a list of at most %d integers "
                        "(array<i64: ...>), found %s", name, GRTC_STABLEHLO_MAX_LIST,
                        grtc_attr_spell(attr, spelled, sizeof(spelled)));
}

bool grtc_attr_i64(const grtc_attribute_t* attr, const char* name, int64_t* out,
                   grtc_attr_error_t* error) {
  if (attr->kind == GRTC_ATTR_INTEGER) {
    *out = attr->integer;
    return true;
  }
  char spelled[96];
  return grtc_attr_fail(error, "'%s' must be an integer, found %s", name,
                        grtc_attr_spell(attr, spelled, sizeof(spelled)));
}

bool grtc_attr_bool(const grtc_attribute_t* attr, const char* name, bool* out,
                    grtc_attr_error_t* error) {
  if (attr->kind == GRTC_ATTR_BOOL) {
    *out = attr->boolean;
    return true;
  }
  if (attr->kind == GRTC_ATTR_UNIT) {
    *out = true;
    return true;
  }
  char spelled[96];
  return grtc_attr_fail(error, "'%s' must be true or false, found %s", name,
                        grtc_attr_spell(attr, spelled, sizeof(spelled)));
}

double grtc_attr_number(const grtc_attribute_t* attr) {
  return attr->kind == GRTC_ATTR_INTEGER ? (double)attr->integer : attr->floating;
}

//===----------------------------------------------------------------------===//
// A cursor over opaque attribute text
//===----------------------------------------------------------------------===//

typedef struct grtc_cursor_t {
  const char* p;
  const char* end;
} grtc_cursor_t;

static void grtc_cursor_skip(grtc_cursor_t* c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\n' || *c->p == '\t' ||
                           *c->p == '\r')) {
    ++c->p;
  }
}

static bool grtc_cursor_eat(grtc_cursor_t* c, const char* text) {
  grtc_cursor_skip(c);
  size_t length = strlen(text);
  if ((size_t)(c->end - c->p) < length || memcmp(c->p, text, length) != 0) return false;
  c->p += length;
  return true;
}

static bool grtc_is_word_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
         (ch >= '0' && ch <= '9') || ch == '_';
}

static grt_string_view_t grtc_cursor_word(grtc_cursor_t* c) {
  grtc_cursor_skip(c);
  const char* start = c->p;
  while (c->p < c->end && grtc_is_word_char(*c->p)) ++c->p;
  return grt_make_string_view(start, (size_t)(c->p - start));
}

static bool grtc_cursor_int(grtc_cursor_t* c, int64_t* out) {
  grtc_cursor_skip(c);
  bool negative = c->p < c->end && *c->p == '-';
  if (negative) ++c->p;
  if (c->p >= c->end || *c->p < '0' || *c->p > '9') return false;
  uint64_t value = 0;
  while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
    if (value > (UINT64_MAX - 9) / 10) return false;
    value = value * 10 + (uint64_t)(*c->p++ - '0');
  }
  if (value > (uint64_t)INT64_MAX) return false;
  *out = negative ? -(int64_t)value : (int64_t)value;
  return true;
}

static bool grtc_cursor_list(grtc_cursor_t* c, int64_t* values, uint32_t* count) {
  *count = 0;
  if (!grtc_cursor_eat(c, "[")) return false;
  if (grtc_cursor_eat(c, "]")) return true;
  do {
    if (*count == GRTC_STABLEHLO_MAX_LIST || !grtc_cursor_int(c, &values[(*count)++])) {
      return false;
    }
  } while (grtc_cursor_eat(c, ","));
  return grtc_cursor_eat(c, "]");
}

// Opens "<prefix>" in |attr|'s opaque text; false when the text is not that.
// A "#stablehlo..." prefix also opens MHLO's spelling of the same attribute
// ("#mhlo<comparison_direction GT>", "#mhlo.conv<raw ...>").
static bool grtc_cursor_open(const grtc_attribute_t* attr, const char* prefix,
                             grtc_cursor_t* c) {
  if (attr->kind != GRTC_ATTR_OPAQUE) return false;
  c->p = attr->opaque.data;
  c->end = attr->opaque.data + attr->opaque.size;
  if (grtc_cursor_eat(c, prefix)) return true;
  static const char kStablehlo[] = "#stablehlo";
  size_t length = sizeof(kStablehlo) - 1;
  if (strncmp(prefix, kStablehlo, length) != 0) return false;
  c->p = attr->opaque.data;
  return grtc_cursor_eat(c, "#mhlo") && grtc_cursor_eat(c, prefix + length);
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

static bool grtc_attr_enum(const grtc_attribute_t* attr, const char* kind,
                           const char* const* words, int word_count, int* out,
                           grtc_attr_error_t* error) {
  // StableHLO's spelling, or CHLO's (chlo.broadcast_compare).
  char prefix[64];
  char chlo_prefix[64];
  snprintf(prefix, sizeof(prefix), "#stablehlo<%s", kind);
  snprintf(chlo_prefix, sizeof(chlo_prefix), "#chlo<%s", kind);
  // And MHLO's older quoted form, #mhlo<"comparison_direction GT">.
  char quoted_prefix[64];
  snprintf(quoted_prefix, sizeof(quoted_prefix), "#mhlo<\"%s", kind);
  grtc_cursor_t c;
  char spelled[96];
  bool quoted = false;
  if (grtc_cursor_open(attr, prefix, &c) || grtc_cursor_open(attr, chlo_prefix, &c) ||
      (quoted = grtc_cursor_open(attr, quoted_prefix, &c))) {
    grt_string_view_t word = grtc_cursor_word(&c);
    if ((!quoted || grtc_cursor_eat(&c, "\"")) && grtc_cursor_eat(&c, ">") && c.p == c.end) {
      for (int i = 0; i < word_count; ++i) {
        if (grt_string_view_equal_cstring(word, words[i])) {
          *out = i;
          return true;
        }
      }
    }
  }
  return grtc_attr_fail(error, "expected #stablehlo<%s ...> naming one of %s%s%s%s, "
                        "found %s", kind, words[0], word_count > 1 ? ", " : "",
                        word_count > 1 ? words[1] : "", word_count > 2 ? ", ..." : "",
                        grtc_attr_spell(attr, spelled, sizeof(spelled)));
}

bool grtc_attr_compare_direction(const grtc_attribute_t* attr,
                                 grtc_compare_direction_t* out,
                                 grtc_attr_error_t* error) {
  // In grtc_compare_direction_t order.
  static const char* const words[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  int value = 0;
  if (!grtc_attr_enum(attr, "comparison_direction", words, 6, &value, error)) return false;
  *out = (grtc_compare_direction_t)value;
  return true;
}

bool grtc_attr_compare_type(const grtc_attribute_t* attr, grtc_compare_type_t* out,
                            grtc_attr_error_t* error) {
  // In grtc_compare_type_t order; NOTYPE means "from the operands".
  static const char* const words[] = {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED",
                                      "UNSIGNED"};
  int value = 0;
  if (!grtc_attr_enum(attr, "comparison_type", words, 5, &value, error)) return false;
  *out = (grtc_compare_type_t)value;
  return true;
}

bool grtc_attr_compare_type_is_weak_order(const grtc_attribute_t* attr) {
  static const char* const words[] = {"WEAKORDER"};
  int value = 0;
  grtc_attr_error_t error;
  return attr && grtc_attr_enum(attr, "comparison_type", words, 1, &value, &error);
}

//===----------------------------------------------------------------------===//
// Dimension-number structs: #stablehlo.NAME<key = value, ...>
//===----------------------------------------------------------------------===//

typedef enum grtc_field_kind_e {
  GRTC_FIELD_LIST,
  GRTC_FIELD_INT,
} grtc_field_kind_t;

typedef struct grtc_field_t {
  const char* name;
  grtc_field_kind_t kind;
  void* out;  // grtc_i64s_t* or int64_t*
} grtc_field_t;

static bool grtc_attr_struct(grtc_tmodule_t* module, const grtc_attribute_t* attr,
                             const char* prefix, const grtc_field_t* fields,
                             size_t field_count, grtc_attr_error_t* error) {
  grtc_cursor_t c;
  char spelled[160];
  if (!grtc_cursor_open(attr, prefix, &c)) {
    return grtc_attr_fail(error, "expected %s...>, found %s", prefix,
                          grtc_attr_spell(attr, spelled, sizeof(spelled)));
  }
  bool empty = grtc_cursor_eat(&c, ">");
  while (!empty) {
    grt_string_view_t key = grtc_cursor_word(&c);
    const grtc_field_t* field = NULL;
    for (size_t i = 0; i < field_count; ++i) {
      if (grt_string_view_equal_cstring(key, fields[i].name)) field = &fields[i];
    }
    if (!field) {
      return grtc_attr_fail(error, "unknown field '%.*s' in %s...>", GRT_SV_ARG(key),
                            prefix);
    }
    if (!grtc_cursor_eat(&c, "=")) {
      return grtc_attr_fail(error, "expected '=' after '%s' in %s...>", field->name,
                            prefix);
    }
    bool ok = false;
    switch (field->kind) {
      case GRTC_FIELD_LIST: {
        int64_t values[GRTC_STABLEHLO_MAX_LIST];
        uint32_t count = 0;
        ok = grtc_cursor_list(&c, values, &count);
        if (ok) *(grtc_i64s_t*)field->out = grtc_tmodule_i64s(module, values, count);
        break;
      }
      case GRTC_FIELD_INT:
        ok = grtc_cursor_int(&c, (int64_t*)field->out);
        break;
    }
    if (!ok) {
      return grtc_attr_fail(error, "'%s' in %s...> must be %s", field->name, prefix,
                            field->kind == GRTC_FIELD_LIST ? "a list of integers [..]"
                                                           : "an integer");
    }
    if (!grtc_cursor_eat(&c, ",")) break;
    // A trailing comma before '>' (as some exporters print it).
    grtc_cursor_t probe = c;
    if (grtc_cursor_eat(&probe, ">")) break;
  }
  if ((!empty && !grtc_cursor_eat(&c, ">")) || c.p != c.end) {
    return grtc_attr_fail(error, "expected ',' or '>' in %s",
                          grtc_attr_spell(attr, spelled, sizeof(spelled)));
  }
  return true;
}

// The dot numbers and, for #chlo.ragged_dot<...> (|lhs_ragged| given),
// lhs_ragged_dimensions and rhs_group_dimensions.
static bool grtc_attr_dot_like(grtc_tmodule_t* module, const grtc_attribute_t* attr,
                               const char* prefix, grtc_dot_dims_t* out,
                               grtc_i64s_t* lhs_ragged, grtc_i64s_t* rhs_group,
                               grtc_attr_error_t* error) {
  memset(out, 0, sizeof(*out));
  const grtc_field_t fields[] = {
      {"lhs_batching_dimensions", GRTC_FIELD_LIST, &out->lhs_batch},
      {"rhs_batching_dimensions", GRTC_FIELD_LIST, &out->rhs_batch},
      {"lhs_contracting_dimensions", GRTC_FIELD_LIST, &out->lhs_contracting},
      {"rhs_contracting_dimensions", GRTC_FIELD_LIST, &out->rhs_contracting},
      {"lhs_ragged_dimensions", GRTC_FIELD_LIST, lhs_ragged},
      {"rhs_group_dimensions", GRTC_FIELD_LIST, rhs_group},
  };
  size_t count = sizeof(fields) / sizeof(fields[0]);
  if (lhs_ragged) {
    memset(lhs_ragged, 0, sizeof(*lhs_ragged));
    memset(rhs_group, 0, sizeof(*rhs_group));
  } else {
    count -= 2;
  }
  return grtc_attr_struct(module, attr, prefix, fields, count, error);
}

bool grtc_attr_dot_dims(grtc_tmodule_t* module, const grtc_attribute_t* attr,
                        grtc_dot_dims_t* out, grtc_attr_error_t* error) {
  return grtc_attr_dot_like(module, attr, "#stablehlo.dot<", out, NULL, NULL, error);
}

bool grtc_attr_ragged_dot_dims(grtc_tmodule_t* module, const grtc_attribute_t* attr,
                               grtc_dot_dims_t* out, grtc_i64s_t* lhs_ragged,
                               grtc_i64s_t* rhs_group, grtc_attr_error_t* error) {
  return grtc_attr_dot_like(module, attr, "#chlo.ragged_dot<", out, lhs_ragged, rhs_group,
                            error);
}

bool grtc_attr_gather_dims(grtc_tmodule_t* module, const grtc_attribute_t* attr,
                           grtc_gather_dims_t* out, grtc_attr_error_t* error) {
  const grtc_field_t fields[] = {
      {"offset_dims", GRTC_FIELD_LIST, &out->offset_dims},
      {"collapsed_slice_dims", GRTC_FIELD_LIST, &out->collapsed_slice_dims},
      {"operand_batching_dims", GRTC_FIELD_LIST, &out->operand_batching_dims},
      {"start_indices_batching_dims", GRTC_FIELD_LIST, &out->start_indices_batching_dims},
      {"start_index_map", GRTC_FIELD_LIST, &out->start_index_map},
      {"index_vector_dim", GRTC_FIELD_INT, &out->index_vector_dim},
  };
  return grtc_attr_struct(module, attr, "#stablehlo.gather<", fields,
                          sizeof(fields) / sizeof(fields[0]), error);
}

bool grtc_attr_scatter_dims(grtc_tmodule_t* module, const grtc_attribute_t* attr,
                            grtc_scatter_dims_t* out, grtc_attr_error_t* error) {
  const grtc_field_t fields[] = {
      {"update_window_dims", GRTC_FIELD_LIST, &out->update_window_dims},
      {"inserted_window_dims", GRTC_FIELD_LIST, &out->inserted_window_dims},
      {"input_batching_dims", GRTC_FIELD_LIST, &out->input_batching_dims},
      {"scatter_indices_batching_dims", GRTC_FIELD_LIST,
       &out->scatter_indices_batching_dims},
      {"scatter_dims_to_operand_dims", GRTC_FIELD_LIST,
       &out->scatter_dims_to_operand_dims},
      {"index_vector_dim", GRTC_FIELD_INT, &out->index_vector_dim},
  };
  return grtc_attr_struct(module, attr, "#stablehlo.scatter<", fields,
                          sizeof(fields) / sizeof(fields[0]), error);
}

//===----------------------------------------------------------------------===//
// Convolution layouts
//===----------------------------------------------------------------------===//

// One bracketed layout: |batch_letter| and |feature_letter| name the two
// non-spatial dimensions ('b'/'f' for input and output, 'i'/'o' for the
// kernel); digits name spatial dimensions.
static bool grtc_conv_layout(grtc_tmodule_t* module, grtc_cursor_t* c,
                             char batch_letter, char feature_letter,
                             int64_t* batch, int64_t* feature, grtc_i64s_t* spatial) {
  int64_t dims[GRTC_STABLEHLO_MAX_LIST];
  bool seen[GRTC_STABLEHLO_MAX_LIST];
  memset(seen, 0, sizeof(seen));
  uint32_t position = 0, spatial_count = 0;
  bool have_batch = false, have_feature = false;
  if (!grtc_cursor_eat(c, "[")) return false;
  do {
    if (position == GRTC_STABLEHLO_MAX_LIST) return false;
    grt_string_view_t word = grtc_cursor_word(c);
    if (word.size == 1 && word.data[0] == batch_letter && !have_batch) {
      *batch = position;
      have_batch = true;
    } else if (word.size == 1 && word.data[0] == feature_letter && !have_feature) {
      *feature = position;
      have_feature = true;
    } else {
      grtc_cursor_t number = {word.data, word.data + word.size};
      int64_t index = 0;
      if (!word.size || !grtc_cursor_int(&number, &index) || number.p != number.end ||
          index < 0 || index >= GRTC_STABLEHLO_MAX_LIST || seen[index]) {
        return false;
      }
      seen[index] = true;
      dims[index] = position;
      ++spatial_count;
    }
    ++position;
  } while (grtc_cursor_eat(c, ","));
  for (uint32_t i = 0; i < spatial_count; ++i) {
    if (!seen[i]) return false;  // spatial indices must be 0..n-1
  }
  *spatial = grtc_tmodule_i64s(module, dims, spatial_count);
  return have_batch && have_feature && grtc_cursor_eat(c, "]");
}

bool grtc_attr_conv_dims(grtc_tmodule_t* module, const grtc_attribute_t* attr,
                         grtc_conv_dims_t* out, grtc_attr_error_t* error) {
  grtc_cursor_t c;
  char spelled[160];
  if (grtc_cursor_open(attr, "#stablehlo.conv<raw", &c)) {
    const grtc_field_t fields[] = {
        {"input_batch_dimension", GRTC_FIELD_INT, &out->input_batch},
        {"input_feature_dimension", GRTC_FIELD_INT, &out->input_feature},
        {"input_spatial_dimensions", GRTC_FIELD_LIST, &out->input_spatial},
        {"kernel_input_feature_dimension", GRTC_FIELD_INT, &out->kernel_input_feature},
        {"kernel_output_feature_dimension", GRTC_FIELD_INT, &out->kernel_output_feature},
        {"kernel_spatial_dimensions", GRTC_FIELD_LIST, &out->kernel_spatial},
        {"output_batch_dimension", GRTC_FIELD_INT, &out->output_batch},
        {"output_feature_dimension", GRTC_FIELD_INT, &out->output_feature},
        {"output_spatial_dimensions", GRTC_FIELD_LIST, &out->output_spatial},
    };
    return grtc_attr_struct(module, attr, "#stablehlo.conv<raw", fields,
                            sizeof(fields) / sizeof(fields[0]), error);
  }
  if (grtc_cursor_open(attr, "#stablehlo.conv<", &c) &&
      grtc_conv_layout(module, &c, 'b', 'f', &out->input_batch, &out->input_feature,
                       &out->input_spatial) &&
      grtc_cursor_eat(&c, "x") &&
      grtc_conv_layout(module, &c, 'i', 'o', &out->kernel_input_feature,
                       &out->kernel_output_feature, &out->kernel_spatial) &&
      grtc_cursor_eat(&c, "->") &&
      grtc_conv_layout(module, &c, 'b', 'f', &out->output_batch,
                       &out->output_feature, &out->output_spatial) &&
      grtc_cursor_eat(&c, ">") && c.p == c.end) {
    return true;
  }
  return grtc_attr_fail(error, "expected convolution dimension numbers such as "
                        "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, "
                        "found %s", grtc_attr_spell(attr, spelled, sizeof(spelled)));
}
