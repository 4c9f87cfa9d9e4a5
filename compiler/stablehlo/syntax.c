// Pretty forms of the ops JAX, TensorFlow and IREE's tests print in custom
// syntax (stablehlo, arith, tensor.extract, util, check), registered with
// the shared parser. Each produces exactly the generic IR its generic form
// gives: same op name, operand order, attribute names and attribute values
// (dimension lists as array<i64: ...>, enums as #stablehlo<...> text,
// dimension numbers as #stablehlo.dot<...>/#stablehlo.conv<...> text), so
// the importer only ever decodes one shape.
//
// Most ops share one format: a comma list of %operands and `keyword = value`
// items, an optional {attributes} and `: types` (one type for all, a list,
// or a function type). Which keywords an op takes and what they become live
// in one table (grtc_shlo_keywords); reduce, while, convolution, custom_call
// and the constants have their own small parsers.
#include <stdio.h>
#include <string.h>

#include "base/string_builder.h"
#include "compiler/stablehlo/attrs.h"
#include "compiler/stablehlo/compose.h"
#include "compiler/stablehlo/import.h"

//===----------------------------------------------------------------------===//
// Attribute construction
//===----------------------------------------------------------------------===//

static grt_status_t grtc_shlo_oom(grtc_parser_t* parser) {
  return grtc_parser_error(parser, "out of memory");
}

static grtc_attribute_t* grtc_shlo_new_attr(grtc_parser_t* parser,
                                            grtc_attribute_kind_t kind) {
  grtc_attribute_t* attr =
      grt_arena_alloc_zeroed(grtc_parser_arena(parser), sizeof(*attr));
  if (attr) attr->kind = kind;
  return attr;
}

// array<i64: values...>, the form StableHLO prints dimension lists in.
static const grtc_attribute_t* grtc_shlo_i64_array(grtc_parser_t* parser,
                                                   const int64_t* values,
                                                   uint32_t count) {
  grtc_attribute_t* attr = grtc_shlo_new_attr(parser, GRTC_ATTR_DENSE_ARRAY);
  if (!attr) return NULL;
  attr->type = grtc_parser_integer_type(parser, 64);
  uint8_t* bytes = grt_arena_alloc_zeroed(grtc_parser_arena(parser),
                                          count ? count * 8u : 1u);
  if (!bytes || !attr->type) return NULL;
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t v = (uint64_t)values[i];
    for (int b = 0; b < 8; ++b) bytes[i * 8 + b] = (uint8_t)(v >> (8 * b));
  }
  attr->dense.data = bytes;
  attr->dense.size = count * 8u;
  return attr;
}

static const grtc_attribute_t* grtc_shlo_i64_attr(grtc_parser_t* parser,
                                                  int64_t value) {
  grtc_attribute_t* attr = grtc_shlo_new_attr(parser, GRTC_ATTR_INTEGER);
  if (!attr) return NULL;
  attr->type = grtc_parser_integer_type(parser, 64);
  attr->integer = value;
  return attr->type ? attr : NULL;
}

// An opaque attribute whose text is the builder's contents.
static grt_status_t grtc_shlo_opaque_attr(grtc_parser_t* parser,
                                          grt_string_builder_t* builder,
                                          const grtc_attribute_t** out) {
  GRT_RETURN_IF_ERROR(grt_string_builder_status(builder));
  grt_string_view_t text = grt_string_builder_view(builder);
  char* copy = grt_arena_strndup(grtc_parser_arena(parser), text.data, text.size);
  grtc_attribute_t* attr = grtc_shlo_new_attr(parser, GRTC_ATTR_OPAQUE);
  if (!copy || !attr) return grtc_shlo_oom(parser);
  attr->opaque = grt_make_string_view(copy, text.size);
  *out = attr;
  return grt_ok_status();
}

static grt_status_t grtc_shlo_add(grtc_parser_t* parser, grtc_op_state_t* state,
                                  const char* name,
                                  const grtc_attribute_t* value) {
  if (!value) return grtc_shlo_oom(parser);
  return grtc_parser_add_attribute(parser, &state->attributes, name, value);
}

static grt_status_t grtc_shlo_push_operand(grtc_parser_t* parser,
                                           grtc_op_state_t* state) {
  grtc_value_t* value = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_operand(parser, &value));
  return grt_arena_vec_push(grtc_parser_arena(parser), &state->operands, &value,
                            sizeof(value));
}

// A list item that is an operand of the op (context: the grtc_op_state_t).
static grt_status_t grtc_shlo_operand_item(grtc_parser_t* parser, void* state) {
  return grtc_shlo_push_operand(parser, state);
}

//===----------------------------------------------------------------------===//
// Small pieces: delimited lists, integer lists, enum words
//===----------------------------------------------------------------------===//

typedef grt_status_t (*grtc_shlo_item_fn_t)(grtc_parser_t* parser, void* context);

// `open item, item, ... close`, possibly empty; |what| names the list in
// messages ("to open the slice ranges", "to close the slice ranges").
static grt_status_t grtc_shlo_parse_list(grtc_parser_t* parser, grtc_token_kind_t open,
                                         grtc_token_kind_t close, const char* what,
                                         grtc_shlo_item_fn_t item, void* context) {
  char message[96];
  snprintf(message, sizeof(message), "to open %s", what);
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, open, message));
  bool done = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, close, &done));
  while (!done) {
    GRT_RETURN_IF_ERROR(item(parser, context));
    bool comma = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
    if (!comma) {
      snprintf(message, sizeof(message), "to close %s", what);
      GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, close, message));
      done = true;
    }
  }
  return grt_ok_status();
}


static grt_status_t grtc_shlo_parse_i64(grtc_parser_t* parser, int64_t* out) {
  const grtc_type_t* i64 = grtc_parser_integer_type(parser, 64);
  if (!i64) return grtc_shlo_oom(parser);
  if (!grtc_parser_at(parser, GRTC_TOKEN_INTEGER) &&
      !grtc_parser_at(parser, GRTC_TOKEN_MINUS)) {
    return grtc_parser_error_expected(parser, "an integer");
  }
  const grtc_attribute_t* value = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_literal(parser, i64, &value));
  *out = value->integer;
  return grt_ok_status();
}

typedef struct grtc_shlo_i64_list_t {
  int64_t* values;
  uint32_t count;
} grtc_shlo_i64_list_t;

static grt_status_t grtc_shlo_i64_item(grtc_parser_t* parser, void* context) {
  grtc_shlo_i64_list_t* list = context;
  if (list->count == GRTC_STABLEHLO_MAX_LIST) {
    return grtc_parser_error(parser, "more than %d values in a dimension list",
                             GRTC_STABLEHLO_MAX_LIST);
  }
  return grtc_shlo_parse_i64(parser, &list->values[list->count++]);
}

// [1, 2, 3] into |values| (GRTC_STABLEHLO_MAX_LIST of them at most).
static grt_status_t grtc_shlo_parse_i64_list(grtc_parser_t* parser,
                                             int64_t* values, uint32_t* count) {
  grtc_shlo_i64_list_t list = {values, 0};
  grt_status_t status = grtc_shlo_parse_list(parser, GRTC_TOKEN_LSQUARE,
                                             GRTC_TOKEN_RSQUARE, "a dimension list",
                                             grtc_shlo_i64_item, &list);
  *count = list.count;
  return status;
}

static void grtc_shlo_append_list(grt_string_builder_t* builder,
                                  const int64_t* values, uint32_t count) {
  grt_string_builder_append_cstring(builder, "[");
  for (uint32_t i = 0; i < count; ++i) {
    grt_string_builder_appendf(builder, "%s%lld", i ? ", " : "",
                               (long long)values[i]);
  }
  grt_string_builder_append_cstring(builder, "]");
}

// A bare word (LT, FLOAT, DEFAULT, slt); *out_word views the source.
static grt_status_t grtc_shlo_parse_word(grtc_parser_t* parser, const char* what,
                                         grt_string_view_t* out_word) {
  *out_word = grt_string_view_empty();
  if (!grtc_parser_at(parser, GRTC_TOKEN_BARE_ID)) {
    return grtc_parser_error_expected(parser, what);
  }
  *out_word = grtc_parser_token(parser)->text;
  return grtc_parser_advance(parser);
}

// #stablehlo<|kind| WORD>
static grt_status_t grtc_shlo_enum_attr(grtc_parser_t* parser, const char* kind,
                                        grt_string_view_t word,
                                        const grtc_attribute_t** out) {
  grt_string_builder_t builder;
  grt_string_builder_init(grt_arena_allocator(grtc_parser_arena(parser)), &builder);
  grt_string_builder_appendf(&builder, "#stablehlo<%s %.*s>", kind,
                             GRT_SV_ARG(word));
  return grtc_shlo_opaque_attr(parser, &builder, out);
}

static grt_status_t grtc_shlo_precision_item(grtc_parser_t* parser, void* context) {
  grt_string_view_t word;
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_word(parser, "a precision (DEFAULT, HIGH, "
                                           "HIGHEST)", &word));
  const grtc_attribute_t* item = NULL;
  GRT_RETURN_IF_ERROR(grtc_shlo_enum_attr(parser, "precision", word, &item));
  return grt_arena_vec_push(grtc_parser_arena(parser), context, &item, sizeof(item));
}

// precision = [DEFAULT, HIGHEST] -> precision_config = [#stablehlo<precision
// DEFAULT>, ...]
static grt_status_t grtc_shlo_parse_precision(grtc_parser_t* parser,
                                              const grtc_attribute_t** out) {
  grt_arena_vec_t items = {0};
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_list(parser, GRTC_TOKEN_LSQUARE, GRTC_TOKEN_RSQUARE,
                                           "the precision list",
                                           grtc_shlo_precision_item, &items));
  *out = grtc_parser_array_attr(parser, items.data, items.count);
  return *out ? grt_ok_status() : grtc_shlo_oom(parser);
}

// Skips a balanced <...> (dot_general's algorithm, which only selects how
// precisely the target may compute).
static grt_status_t grtc_shlo_skip_angles(grtc_parser_t* parser) {
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LESS,
                                         "to open the algorithm"));
  uint32_t depth = 1;
  while (depth) {
    if (grtc_parser_at(parser, GRTC_TOKEN_EOF)) {
      return grtc_parser_error_expected(parser, "'>' to close the algorithm");
    }
    if (grtc_parser_at(parser, GRTC_TOKEN_LESS)) ++depth;
    if (grtc_parser_at(parser, GRTC_TOKEN_GREATER)) --depth;
    GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
  }
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// The shared format: operands, keywords, {attrs}, `: types`
//===----------------------------------------------------------------------===//

typedef enum grtc_shlo_keyword_kind_e {
  GRTC_SHLO_KW_I64,        // dim = 0 -> 0 : i64
  GRTC_SHLO_KW_I64S,       // dims = [1, 0] -> array<i64: 1, 0>
  GRTC_SHLO_KW_F64,        // atol 1.0e-4 / atol = 1.0e-4 -> f64
  GRTC_SHLO_KW_PRECISION,  // precision = [DEFAULT, DEFAULT]
  GRTC_SHLO_KW_DOT_DIMS,   // batching_dims/contracting_dims = [0] x [0]
  GRTC_SHLO_KW_IGNORED,    // algorithm = <...>
  GRTC_SHLO_KW_FORMAT,     // format = e5m10 -> exponent_bits 5, mantissa_bits 10
  GRTC_SHLO_KW_ENUM,       // algorithm = THREE_FRY -> #stablehlo<rng_algorithm THREE_FRY>
  GRTC_SHLO_KW_BOOL,       // lower = true -> true
  GRTC_SHLO_KW_STRING,     // probe_id = "p" -> "p"
} grtc_shlo_keyword_kind_t;

typedef struct grtc_shlo_keyword_t {
  const char* op;
  const char* keyword;
  const char* attribute;
  grtc_shlo_keyword_kind_t kind;
} grtc_shlo_keyword_t;

static const grtc_shlo_keyword_t grtc_shlo_keywords[] = {
    {"stablehlo.iota", "dim", "iota_dimension", GRTC_SHLO_KW_I64},
    {"stablehlo.broadcast_in_dim", "dims", "broadcast_dimensions", GRTC_SHLO_KW_I64S},
    {"stablehlo.broadcast", "sizes", "broadcast_sizes", GRTC_SHLO_KW_I64S},
    {"stablehlo.transpose", "dims", "permutation", GRTC_SHLO_KW_I64S},
    {"stablehlo.reverse", "dims", "dimensions", GRTC_SHLO_KW_I64S},
    {"stablehlo.dynamic_slice", "sizes", "slice_sizes", GRTC_SHLO_KW_I64S},
    {"stablehlo.concatenate", "dim", "dimension", GRTC_SHLO_KW_I64},
    {"stablehlo.get_dimension_size", "dim", "dimension", GRTC_SHLO_KW_I64},
    {"stablehlo.set_dimension_size", "dim", "dimension", GRTC_SHLO_KW_I64},
    {"stablehlo.dynamic_broadcast_in_dim", "dims", "broadcast_dimensions",
     GRTC_SHLO_KW_I64S},
    {"stablehlo.dynamic_iota", "dim", "iota_dimension", GRTC_SHLO_KW_I64},
    {"stablehlo.pad", "low", "edge_padding_low", GRTC_SHLO_KW_I64S},
    {"stablehlo.pad", "high", "edge_padding_high", GRTC_SHLO_KW_I64S},
    {"stablehlo.pad", "interior", "interior_padding", GRTC_SHLO_KW_I64S},
    {"stablehlo.dot", "precision", "precision_config", GRTC_SHLO_KW_PRECISION},
    {"stablehlo.dot_general", "precision", "precision_config", GRTC_SHLO_KW_PRECISION},
    {"stablehlo.dot_general", "batching_dims", "batching", GRTC_SHLO_KW_DOT_DIMS},
    {"stablehlo.dot_general", "contracting_dims", "contracting", GRTC_SHLO_KW_DOT_DIMS},
    {"stablehlo.dot_general", "algorithm", NULL, GRTC_SHLO_KW_IGNORED},
    {"check.expect_almost_eq", "atol", "atol", GRTC_SHLO_KW_F64},
    {"check.expect_almost_eq", "rtol", "rtol", GRTC_SHLO_KW_F64},
    {"check.expect_almost_eq_const", "atol", "atol", GRTC_SHLO_KW_F64},
    {"check.expect_almost_eq_const", "rtol", "rtol", GRTC_SHLO_KW_F64},
    {"check.expect_almost_eq", "tolerance", "tolerance", GRTC_SHLO_KW_F64},
    {"check.expect_almost_eq_const", "tolerance", "tolerance", GRTC_SHLO_KW_F64},
    {"check.expect_close", "max_ulp_difference", "max_ulp_difference", GRTC_SHLO_KW_I64},
    {"chlo.top_k", "k", "k", GRTC_SHLO_KW_I64},
    {"stablehlo.reduce_precision", "format", NULL, GRTC_SHLO_KW_FORMAT},
    {"stablehlo.rng_bit_generator", "algorithm", "rng_algorithm", GRTC_SHLO_KW_ENUM},
    {"stablehlo.fft", "type", "fft_type", GRTC_SHLO_KW_ENUM},
    {"stablehlo.rng", "distribution", "rng_distribution", GRTC_SHLO_KW_ENUM},
    {"stablehlo.fft", "length", "fft_length", GRTC_SHLO_KW_I64S},
    {"check.expect_close", "min_ulp_difference", "min_ulp_difference", GRTC_SHLO_KW_I64},
    {"stablehlo.cholesky", "lower", "lower", GRTC_SHLO_KW_BOOL},
    {"interpreter.probe", "probe_id", "probe_id", GRTC_SHLO_KW_STRING},
    {"check.expect_serialized_eq", "probe_id", "probe_id", GRTC_SHLO_KW_STRING},
    {"check.expect_serialized_eq", "iter", "iter", GRTC_SHLO_KW_I64},
};

static const grtc_shlo_keyword_t* grtc_shlo_find_keyword(grt_string_view_t op,
                                                         grt_string_view_t word) {
  for (size_t i = 0; i < sizeof(grtc_shlo_keywords) / sizeof(grtc_shlo_keywords[0]); ++i) {
    if (grt_string_view_equal_cstring(op, grtc_shlo_keywords[i].op) &&
        grt_string_view_equal_cstring(word, grtc_shlo_keywords[i].keyword)) {
      return &grtc_shlo_keywords[i];
    }
  }
  return NULL;
}

typedef enum grtc_shlo_flags_e {
  // `LT, %a, %b[, FLOAT]`: comparison direction first, type last.
  GRTC_SHLO_COMPARE = 1u << 0,
  // `slt, %a, %b`: arith.cmpi / arith.cmpf predicate first (data: the list
  // of predicate words, by value).
  GRTC_SHLO_PREDICATE = 1u << 1,
  // %t[%i, %j]: the indices are operands (tensor.extract).
  GRTC_SHLO_INDEX_BRACKETS = 1u << 2,
  // %x [0:2, 1:3:1]: slice ranges.
  GRTC_SHLO_SLICE_BRACKETS = 1u << 3,
  // An attribute item (dense<...> : type) is the `value` attribute.
  GRTC_SHLO_VALUE_ITEM = 1u << 4,
  // The result is i1 (shaped like the last operand type) unless spelled.
  GRTC_SHLO_RESULT_I1 = 1u << 5,
  // The result is the element type of the (single) type.
  GRTC_SHLO_RESULT_ELEMENT = 1u << 6,
  // The items may be wrapped in parentheses (IREE's check ops).
  GRTC_SHLO_PARENS = 1u << 7,
  // arith: fastmath<...> / overflow<...> may follow the operands.
  GRTC_SHLO_ARITH = 1u << 8,
} grtc_shlo_flags_t;

typedef struct grtc_shlo_format_t {
  uint32_t flags;
  const char* const* predicates;  // GRTC_SHLO_PREDICATE: word for each value
  uint32_t predicate_count;
} grtc_shlo_format_t;

// The accumulated dot_general dimension numbers of the pretty form.
typedef struct grtc_shlo_dot_t {
  int64_t lists[4][GRTC_STABLEHLO_MAX_LIST];  // lhs batch, rhs batch, lhs/rhs contract
  uint32_t counts[4];
  bool any;
} grtc_shlo_dot_t;

static grt_status_t grtc_shlo_parse_keyword(grtc_parser_t* parser,
                                            grtc_op_state_t* state,
                                            const grtc_shlo_keyword_t* keyword,
                                            grtc_shlo_dot_t* dot) {
  GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));  // the keyword
  bool equal = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_EQUAL, &equal));
  if (!equal && keyword->kind != GRTC_SHLO_KW_F64) {
    char what[96];
    snprintf(what, sizeof(what), "'=' after '%s'", keyword->keyword);
    return grtc_parser_error_expected(parser, what);
  }
  switch (keyword->kind) {
    case GRTC_SHLO_KW_I64: {
      int64_t value = 0;
      GRT_RETURN_IF_ERROR(grtc_shlo_parse_i64(parser, &value));
      return grtc_shlo_add(parser, state, keyword->attribute,
                           grtc_shlo_i64_attr(parser, value));
    }
    case GRTC_SHLO_KW_I64S: {
      int64_t values[GRTC_STABLEHLO_MAX_LIST];
      uint32_t count = 0;
      GRT_RETURN_IF_ERROR(grtc_shlo_parse_i64_list(parser, values, &count));
      return grtc_shlo_add(parser, state, keyword->attribute,
                           grtc_shlo_i64_array(parser, values, count));
    }
    case GRTC_SHLO_KW_F64: {
      const grtc_attribute_t* value = NULL;
      const grtc_type_t* f64 = grtc_parser_float_type(parser, GRTC_FLOAT_F64);
      if (!f64) return grtc_shlo_oom(parser);
      GRT_RETURN_IF_ERROR(grtc_parser_parse_literal(parser, f64, &value));
      return grtc_shlo_add(parser, state, keyword->attribute, value);
    }
    case GRTC_SHLO_KW_PRECISION: {
      const grtc_attribute_t* value = NULL;
      GRT_RETURN_IF_ERROR(grtc_shlo_parse_precision(parser, &value));
      return grtc_shlo_add(parser, state, keyword->attribute, value);
    }
    case GRTC_SHLO_KW_DOT_DIMS: {
      uint32_t base = keyword->attribute[0] == 'b' ? 0 : 2;
      GRT_RETURN_IF_ERROR(grtc_shlo_parse_i64_list(parser, dot->lists[base],
                                                   &dot->counts[base]));
      bool x = false;
      GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "x", &x));
      if (!x) return grtc_parser_error_expected(parser, "'x' between the lhs "
                                                "and rhs dimensions");
      GRT_RETURN_IF_ERROR(grtc_shlo_parse_i64_list(parser, dot->lists[base + 1],
                                                   &dot->counts[base + 1]));
      dot->any = true;
      return grt_ok_status();
    }
    case GRTC_SHLO_KW_IGNORED:
      return grtc_shlo_skip_angles(parser);
    case GRTC_SHLO_KW_ENUM: {
      // The attribute's name is its enum's kind.
      grt_string_view_t word;
      char what[96];
      snprintf(what, sizeof(what), "a %s name after '%s ='", keyword->attribute,
               keyword->keyword);
      GRT_RETURN_IF_ERROR(grtc_shlo_parse_word(parser, what, &word));
      const grtc_attribute_t* attr = NULL;
      GRT_RETURN_IF_ERROR(grtc_shlo_enum_attr(parser, keyword->attribute, word, &attr));
      return grtc_shlo_add(parser, state, keyword->attribute, attr);
    }
    case GRTC_SHLO_KW_BOOL: {
      bool is_true = grtc_parser_at_keyword(parser, "true");
      if (!is_true && !grtc_parser_at_keyword(parser, "false")) {
        char what[96];
        snprintf(what, sizeof(what), "true or false after '%s ='", keyword->keyword);
        return grtc_parser_error_expected(parser, what);
      }
      grtc_attribute_t* attr = grtc_shlo_new_attr(parser, GRTC_ATTR_BOOL);
      if (!attr) return grtc_shlo_oom(parser);
      attr->boolean = is_true;
      GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
      return grtc_shlo_add(parser, state, keyword->attribute, attr);
    }
    case GRTC_SHLO_KW_STRING: {
      grt_string_view_t text;
      GRT_RETURN_IF_ERROR(grtc_parser_parse_string(parser, &text));
      return grtc_shlo_add(parser, state, keyword->attribute,
                           grtc_parser_string_attr(parser, text));
    }
    case GRTC_SHLO_KW_FORMAT: {
      // eXmY: X exponent bits, Y mantissa bits, both decimal.
      const grtc_token_t* token = grtc_parser_token(parser);
      grt_string_view_t word = token->text;
      int64_t bits[2] = {0, 0};
      size_t at = 1;
      bool valid = token->kind == GRTC_TOKEN_BARE_ID && word.size >= 4 && word.data[0] == 'e';
      for (int part = 0; valid && part < 2; ++part) {
        size_t digits = 0;
        while (at < word.size && word.data[at] >= '0' && word.data[at] <= '9' && digits < 4) {
          bits[part] = bits[part] * 10 + (word.data[at] - '0');
          ++at;
          ++digits;
        }
        valid = digits > 0 && (part == 1 || (at < word.size && word.data[at++] == 'm'));
      }
      if (!valid || at != word.size) {
        return grtc_parser_error_expected(parser, "a format such as e5m10 (exponent and "
                                          "mantissa bits)");
      }
      GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
      GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "exponent_bits",
                                        grtc_shlo_i64_attr(parser, bits[0])));
      return grtc_shlo_add(parser, state, "mantissa_bits",
                           grtc_shlo_i64_attr(parser, bits[1]));
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_shlo_add_dot_dims(grtc_parser_t* parser,
                                           grtc_op_state_t* state,
                                           const grtc_shlo_dot_t* dot) {
  static const char* const names[4] = {
      "lhs_batching_dimensions", "rhs_batching_dimensions",
      "lhs_contracting_dimensions", "rhs_contracting_dimensions"};
  grt_string_builder_t builder;
  grt_string_builder_init(grt_arena_allocator(grtc_parser_arena(parser)), &builder);
  grt_string_builder_append_cstring(&builder, "#stablehlo.dot<");
  bool first = true;
  for (int i = 0; i < 4; ++i) {
    if (!dot->counts[i]) continue;  // MLIR prints only the non-empty lists
    grt_string_builder_appendf(&builder, "%s%s = ", first ? "" : ", ", names[i]);
    grtc_shlo_append_list(&builder, dot->lists[i], dot->counts[i]);
    first = false;
  }
  grt_string_builder_append_cstring(&builder, ">");
  const grtc_attribute_t* attr = NULL;
  GRT_RETURN_IF_ERROR(grtc_shlo_opaque_attr(parser, &builder, &attr));
  return grtc_shlo_add(parser, state, "dot_dimension_numbers", attr);
}

typedef struct grtc_shlo_ranges_t {
  int64_t lists[3][GRTC_STABLEHLO_MAX_LIST];  // starts, limits, strides
  uint32_t count;
} grtc_shlo_ranges_t;

// start:limit[:stride]
static grt_status_t grtc_shlo_range_item(grtc_parser_t* parser, void* context) {
  grtc_shlo_ranges_t* ranges = context;
  uint32_t i = ranges->count;
  if (i == GRTC_STABLEHLO_MAX_LIST) {
    return grtc_parser_error(parser, "more than %d slice ranges", GRTC_STABLEHLO_MAX_LIST);
  }
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_i64(parser, &ranges->lists[0][i]));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON,
                                         "between a slice's start and limit"));
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_i64(parser, &ranges->lists[1][i]));
  bool stride = false;
  ranges->lists[2][i] = 1;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COLON, &stride));
  if (stride) GRT_RETURN_IF_ERROR(grtc_shlo_parse_i64(parser, &ranges->lists[2][i]));
  ranges->count = i + 1;
  return grt_ok_status();
}

// [0:2, 1:3:1] -> start_indices, limit_indices, strides
static grt_status_t grtc_shlo_parse_slice_ranges(grtc_parser_t* parser,
                                                 grtc_op_state_t* state) {
  grtc_shlo_ranges_t ranges;
  ranges.count = 0;
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_list(parser, GRTC_TOKEN_LSQUARE, GRTC_TOKEN_RSQUARE,
                                           "the slice ranges", grtc_shlo_range_item,
                                           &ranges));
  static const char* const names[3] = {"start_indices", "limit_indices", "strides"};
  for (int i = 0; i < 3; ++i) {
    GRT_RETURN_IF_ERROR(grtc_shlo_add(
        parser, state, names[i], grtc_shlo_i64_array(parser, ranges.lists[i], ranges.count)));
  }
  return grt_ok_status();
}

// The leading predicate of arith.cmpi/cmpf: its index in the format's list
// is the integer MLIR stores.
static grt_status_t grtc_shlo_parse_predicate(grtc_parser_t* parser,
                                              const grtc_shlo_format_t* format,
                                              grtc_op_state_t* state) {
  const grtc_token_t token = *grtc_parser_token(parser);
  grt_string_view_t word;
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_word(parser, "a comparison predicate", &word));
  for (uint32_t i = 0; i < format->predicate_count; ++i) {
    if (grt_string_view_equal_cstring(word, format->predicates[i])) {
      return grtc_shlo_add(parser, state, "predicate",
                           grtc_shlo_i64_attr(parser, (int64_t)i));
    }
  }
  return grtc_parser_error_at(parser, &token, "unknown predicate '%.*s' for '%.*s'",
                              GRT_SV_ARG(word), GRT_SV_ARG(state->name));
}

static bool grtc_shlo_at_value_item(const grtc_parser_t* parser) {
  switch (grtc_parser_token(parser)->kind) {
    case GRTC_TOKEN_INTEGER: case GRTC_TOKEN_FLOAT: case GRTC_TOKEN_MINUS:
    case GRTC_TOKEN_STRING:
      return true;
    default:
      return grtc_parser_at_keyword(parser, "dense") ||
             grtc_parser_at_keyword(parser, "true") ||
             grtc_parser_at_keyword(parser, "false");
  }
}

static grt_status_t grtc_shlo_parse_items(grtc_parser_t* parser,
                                          const grtc_shlo_format_t* format,
                                          grtc_op_state_t* state) {
  grtc_shlo_dot_t dot;
  memset(&dot, 0, sizeof(dot));
  bool more = true;
  bool first = true;
  bool compare_type = false;
  while (more) {
    const grtc_token_t* token = grtc_parser_token(parser);
    if (first && (format->flags & GRTC_SHLO_COMPARE)) {
      grt_string_view_t word;
      GRT_RETURN_IF_ERROR(grtc_shlo_parse_word(parser, "a comparison direction "
                                               "(EQ, NE, LT, LE, GT, GE)", &word));
      const grtc_attribute_t* attr = NULL;
      GRT_RETURN_IF_ERROR(grtc_shlo_enum_attr(parser, "comparison_direction", word, &attr));
      GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "comparison_direction", attr));
    } else if (first && (format->flags & GRTC_SHLO_PREDICATE)) {
      GRT_RETURN_IF_ERROR(grtc_shlo_parse_predicate(parser, format, state));
    } else if (token->kind == GRTC_TOKEN_PERCENT_ID) {
      GRT_RETURN_IF_ERROR(grtc_shlo_push_operand(parser, state));
      if ((format->flags & GRTC_SHLO_SLICE_BRACKETS) &&
          grtc_parser_at(parser, GRTC_TOKEN_LSQUARE)) {
        GRT_RETURN_IF_ERROR(grtc_shlo_parse_slice_ranges(parser, state));
      }
      bool bracket = false;
      if (format->flags & GRTC_SHLO_INDEX_BRACKETS) {
        GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LSQUARE, &bracket));
        if (bracket) {
          GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_RSQUARE, &more));
          bracket = !more;
        }
      }
      while (bracket) {
        GRT_RETURN_IF_ERROR(grtc_shlo_push_operand(parser, state));
        bool comma = false;
        GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
        if (!comma) {
          GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RSQUARE,
                                                 "to close the index list"));
          bracket = false;
        }
      }
    } else if (token->kind == GRTC_TOKEN_BARE_ID &&
               grtc_shlo_find_keyword(state->name, token->text)) {
      GRT_RETURN_IF_ERROR(grtc_shlo_parse_keyword(
          parser, state, grtc_shlo_find_keyword(state->name, token->text), &dot));
    } else if ((format->flags & GRTC_SHLO_COMPARE) && !compare_type &&
               token->kind == GRTC_TOKEN_BARE_ID) {
      compare_type = true;
      grt_string_view_t word;
      GRT_RETURN_IF_ERROR(grtc_shlo_parse_word(parser, "a comparison type", &word));
      const grtc_attribute_t* attr = NULL;
      GRT_RETURN_IF_ERROR(grtc_shlo_enum_attr(parser, "comparison_type", word, &attr));
      GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "compare_type", attr));
    } else if ((format->flags & GRTC_SHLO_VALUE_ITEM) &&
               grtc_shlo_at_value_item(parser)) {
      const grtc_attribute_t* value = NULL;
      GRT_RETURN_IF_ERROR(grtc_parser_parse_attribute(parser, &value));
      GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "value", value));
    } else if (first) {
      break;  // no items (stablehlo.return with no values)
    } else {
      char what[160];
      snprintf(what, sizeof(what), "an operand or attribute of '%.*s'",
               GRT_SV_ARG(state->name));
      return grtc_parser_error_expected(parser, what);
    }
    first = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &more));
  }
  if (dot.any) GRT_RETURN_IF_ERROR(grtc_shlo_add_dot_dims(parser, state, &dot));
  return grt_ok_status();
}

// A shaped i1 like |like| (or plain i1 for a scalar).
static const grtc_type_t* grtc_shlo_i1_like(grtc_parser_t* parser,
                                            const grtc_type_t* like) {
  const grtc_type_t* i1 = grtc_parser_integer_type(parser, 1);
  if (!i1 || !like || like->kind != GRTC_TYPE_TENSOR) return i1;
  grtc_type_t* type = grt_arena_alloc_zeroed(grtc_parser_arena(parser), sizeof(*type));
  if (!type) return NULL;
  *type = *like;
  type->shaped.element = i1;
  type->shaped.encoding = NULL;
  return type;
}

// `: type`, `: t1, t2`, `: (t1, t2) -> t3`, `: t1 to t2`; none for ops
// without results. Then the result types from what was written.
static grt_status_t grtc_shlo_parse_types(grtc_parser_t* parser,
                                          const grtc_shlo_format_t* format,
                                          grtc_op_state_t* state) {
  grt_arena_t* arena = grtc_parser_arena(parser);
  grt_arena_vec_t types = {0};
  grt_arena_vec_t results = {0};
  bool colon = false, arrow = false, to = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COLON, &colon));
  if (colon) {
    if (!grtc_parser_at(parser, GRTC_TOKEN_ARROW)) {
      GRT_RETURN_IF_ERROR(grtc_parser_parse_type_list(parser, &types));
    }
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_ARROW, &arrow));
    if (!arrow) GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "to", &to));
    if (arrow || to) GRT_RETURN_IF_ERROR(grtc_parser_parse_type_list(parser, &results));
  }
  uint32_t count = state->bound_result_count;
  if (count && !colon) {
    char what[160];
    snprintf(what, sizeof(what), "':' and the types of '%.*s'", GRT_SV_ARG(state->name));
    return grtc_parser_error_expected(parser, what);
  }
  const grtc_type_t* const* listed = types.data;
  for (uint32_t i = 0; i < count; ++i) {
    const grtc_type_t* type = NULL;
    if (arrow || to) {
      if (results.count != count) break;
      type = ((const grtc_type_t* const*)results.data)[i];
    } else if (!types.count) {
      break;
    } else if (format->flags & GRTC_SHLO_RESULT_I1) {
      type = grtc_shlo_i1_like(parser, listed[types.count - 1]);
    } else if (format->flags & GRTC_SHLO_RESULT_ELEMENT) {
      const grtc_type_t* shaped = listed[0];
      if (shaped->kind != GRTC_TYPE_TENSOR || !shaped->shaped.element) {
        return grtc_parser_error(parser, "'%.*s' expects a tensor type",
                                 GRT_SV_ARG(state->name));
      }
      type = shaped->shaped.element;
    } else if (types.count == count) {
      type = listed[i];
    } else if (count == 1) {
      type = listed[types.count - 1];
    } else {
      break;
    }
    if (!type) return grtc_shlo_oom(parser);
    GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &state->result_types, &type,
                                           sizeof(type)));
  }
  if (state->result_types.count != count) {
    return grtc_parser_error(parser, "cannot tell the %u result type%s of '%.*s' "
                             "from the types written (expected ': type', ': "
                             "(operand types) -> result types' or ': type to "
                             "type')", count, count == 1 ? "" : "s",
                             GRT_SV_ARG(state->name));
  }
  return grt_ok_status();
}

// arith's `fastmath<fast, contract>` and `overflow<nsw>` after the operands,
// as the generic form's #arith.fastmath<...> / #arith.overflow<...>.
static grt_status_t grtc_shlo_parse_arith_flags(grtc_parser_t* parser,
                                                grtc_op_state_t* state) {
  static const struct {
    const char* keyword;
    const char* attribute;
  } flags[] = {{"fastmath", "fastmath"}, {"overflow", "overflowFlags"}};
  for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]); ++f) {
    bool found = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, flags[f].keyword, &found));
    if (!found) continue;
    grt_string_builder_t builder;
    grt_string_builder_init(grt_arena_allocator(grtc_parser_arena(parser)), &builder);
    grt_string_builder_appendf(&builder, "#arith.%s<", flags[f].keyword);
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LESS, "after the flags' name"));
    bool more = true;
    for (bool first = true; more; first = false) {
      grt_string_view_t word;
      GRT_RETURN_IF_ERROR(grtc_shlo_parse_word(parser, "a flag", &word));
      grt_string_builder_appendf(&builder, "%s%.*s", first ? "" : ", ", GRT_SV_ARG(word));
      GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &more));
    }
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_GREATER, "to close the flags"));
    grt_string_builder_append_cstring(&builder, ">");
    const grtc_attribute_t* attr = NULL;
    GRT_RETURN_IF_ERROR(grtc_shlo_opaque_attr(parser, &builder, &attr));
    GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, flags[f].attribute, attr));
  }
  return grt_ok_status();
}

static grt_status_t grtc_shlo_parse_format(grtc_parser_t* parser,
                                           const grtc_op_syntax_t* syntax,
                                           grtc_op_state_t* state) {
  const grtc_shlo_format_t* format = syntax->data;
  bool paren = false;
  if (format->flags & GRTC_SHLO_PARENS) {
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LPAREN, &paren));
  }
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_items(parser, format, state));
  if (paren) {
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RPAREN,
                                           "to close the operand list"));
  }
  if (format->flags & GRTC_SHLO_ARITH) {
    GRT_RETURN_IF_ERROR(grtc_shlo_parse_arith_flags(parser, state));
  }
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  return grtc_shlo_parse_types(parser, format, state);
}

//===----------------------------------------------------------------------===//
// Constants: stablehlo.constant, arith.constant, util.unfoldable_constant
//===----------------------------------------------------------------------===//

static grt_status_t grtc_shlo_parse_constant(grtc_parser_t* parser,
                                             const grtc_op_syntax_t* syntax,
                                             grtc_op_state_t* state) {
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  const grtc_token_t token = *grtc_parser_token(parser);
  const grtc_attribute_t* value = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_attribute(parser, &value));
  GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "value", value));
  const grtc_type_t* type = value->type;
  if (value->kind == GRTC_ATTR_BOOL) type = grtc_parser_integer_type(parser, 1);
  // dense_resource<...> (kept opaque, with its type) parses so that the
  // importer can say it is not supported.
  if (!type || (value->kind != GRTC_ATTR_DENSE_ELEMENTS &&
                value->kind != GRTC_ATTR_INTEGER && value->kind != GRTC_ATTR_FLOAT &&
                value->kind != GRTC_ATTR_BOOL && value->kind != GRTC_ATTR_OPAQUE)) {
    return grtc_parser_error_at(parser, &token, "expected a typed constant value "
                                "(dense<...> : type, or a number : type)");
  }
  if (state->bound_result_count != 1) return grt_ok_status();  // reported by the parser
  return grt_arena_vec_push(grtc_parser_arena(parser), &state->result_types, &type,
                            sizeof(type));
}

// IREE's `flow.tensor.dynamic_constant dense<...> : tensor<3x4xi32> ->
// tensor<?x4xi32>`: a constant whose result type (after the arrow) may write
// the value's dimensions as `?`; the importer checks the two types agree.
static grt_status_t grtc_shlo_parse_dynamic_constant(grtc_parser_t* parser,
                                                     const grtc_op_syntax_t* syntax,
                                                     grtc_op_state_t* state) {
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_constant(parser, syntax, state));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_ARROW,
                                         "before the dynamic constant's result type"));
  const grtc_type_t* type = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
  if (state->bound_result_count != 1 || !state->result_types.count) return grt_ok_status();
  ((const grtc_type_t**)state->result_types.data)[state->result_types.count - 1] = type;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// stablehlo.reduce
//===----------------------------------------------------------------------===//

// A value of the reducer region the `applies` form implies.
static grtc_value_t* grtc_shlo_new_values(grtc_parser_t* parser, uint32_t count) {
  return grt_arena_alloc_zeroed(grtc_parser_arena(parser),
                                (count ? count : 1) * sizeof(grtc_value_t));
}

// `applies stablehlo.add`: the region ^bb0(%lhs, %rhs): %0 = op %lhs, %rhs;
// stablehlo.return %0, with rank-0 tensors of the init value's type.
static grt_status_t grtc_shlo_build_applies_region(grtc_parser_t* parser,
                                                   grt_string_view_t op_name,
                                                   const grtc_type_t* type,
                                                   const grtc_token_t* where,
                                                   grtc_region_t** out_region) {
  grt_arena_t* arena = grtc_parser_arena(parser);
  grtc_region_t* region = grt_arena_alloc_zeroed(arena, sizeof(*region));
  grtc_block_t* block = grt_arena_alloc_zeroed(arena, sizeof(*block));
  grtc_operation_t* body = grt_arena_alloc_zeroed(arena, sizeof(*body));
  grtc_operation_t* ret = grt_arena_alloc_zeroed(arena, sizeof(*ret));
  grtc_value_t* args = grtc_shlo_new_values(parser, 2);
  grtc_value_t* result = grtc_shlo_new_values(parser, 1);
  grtc_value_t** body_operands = grt_arena_alloc_zeroed(arena, 2 * sizeof(grtc_value_t*));
  grtc_value_t** ret_operands = grt_arena_alloc_zeroed(arena, sizeof(grtc_value_t*));
  char* name = grt_arena_strndup(arena, op_name.data, op_name.size);
  if (!region || !block || !body || !ret || !args || !result || !body_operands ||
      !ret_operands || !name) {
    return grtc_shlo_oom(parser);
  }
  static const char* const arg_names[2] = {"%lhs", "%rhs"};
  for (uint32_t i = 0; i < 2; ++i) {
    args[i].type = type;
    args[i].owner_block = block;
    args[i].index = i;
    args[i].name = grt_make_cstring_view(arg_names[i]);
    body_operands[i] = &args[i];
  }
  result->type = type;
  result->defining_op = body;
  result->name = grt_make_cstring_view("%0");
  ret_operands[0] = result;
  body->name = grt_make_string_view(name, op_name.size);
  body->operand_count = 2;
  body->operands = body_operands;
  body->result_count = 1;
  body->results = result;
  body->parent = block;
  body->next = ret;
  body->line = where->line;
  body->column = where->column;
  ret->name = grt_make_cstring_view("stablehlo.return");
  ret->operand_count = 1;
  ret->operands = ret_operands;
  ret->results = grtc_shlo_new_values(parser, 1);
  if (!ret->results) return grtc_shlo_oom(parser);
  ret->parent = block;
  ret->line = where->line;
  ret->column = where->column;
  block->arg_count = 2;
  block->args = args;
  block->first = body;
  block->last = ret;
  block->parent = region;
  region->first = region->last = block;
  region->block_count = 1;
  *out_region = region;
  return grt_ok_status();
}

// The rank-0 tensor of |type|'s element type.
static const grtc_type_t* grtc_shlo_scalar_tensor(grtc_parser_t* parser,
                                                  const grtc_type_t* type) {
  if (type->kind != GRTC_TYPE_TENSOR || type->shaped.rank == 0) return type;
  grtc_type_t* scalar = grt_arena_alloc_zeroed(grtc_parser_arena(parser), sizeof(*scalar));
  if (!scalar) return NULL;
  *scalar = *type;
  scalar->shaped.rank = 0;
  scalar->shaped.dims = NULL;
  scalar->shaped.encoding = NULL;
  return scalar;
}

// (%x init: %c), (%y init: %d) [applies op] across dimensions = [..] {attrs}
//   : (types) -> results [reducer(%a: t, %b: t) (%c: t, %d: t) { body }]
static grt_status_t grtc_shlo_parse_reduce(grtc_parser_t* parser,
                                           const grtc_op_syntax_t* syntax,
                                           grtc_op_state_t* state) {
  grt_arena_t* arena = grtc_parser_arena(parser);
  grt_arena_vec_t inputs = {0}, inits = {0};
  bool more = true;
  while (more) {
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LPAREN,
                                           "to open a reduce operand (%x init: %c)"));
    grtc_value_t* input = NULL;
    grtc_value_t* init = NULL;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_operand(parser, &input));
    bool found = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "init", &found));
    if (!found) return grtc_parser_error_expected(parser, "'init:' after the reduced operand");
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON, "after 'init'"));
    GRT_RETURN_IF_ERROR(grtc_parser_parse_operand(parser, &init));
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RPAREN,
                                           "to close a reduce operand"));
    GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &inputs, &input, sizeof(input)));
    GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &inits, &init, sizeof(init)));
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &more));
  }
  for (uint32_t i = 0; i < inputs.count + inits.count; ++i) {
    grtc_value_t* value = i < inputs.count
                              ? ((grtc_value_t**)inputs.data)[i]
                              : ((grtc_value_t**)inits.data)[i - inputs.count];
    GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &state->operands, &value, sizeof(value)));
  }
  bool applies = false;
  grtc_token_t applies_token = *grtc_parser_token(parser);
  grt_string_view_t applied = grt_string_view_empty();
  GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "applies", &applies));
  if (applies) {
    applies_token = *grtc_parser_token(parser);
    GRT_RETURN_IF_ERROR(grtc_shlo_parse_word(parser, "the reducing op's name", &applied));
    if (inputs.count != 1) {
      return grtc_parser_error_at(parser, &applies_token, "'applies' reduces "
                                  "one operand; %u were given", inputs.count);
    }
  }
  bool found = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "across", &found));
  if (!found) return grtc_parser_error_expected(parser, "'across dimensions = [...]'");
  GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "dimensions", &found));
  if (!found) return grtc_parser_error_expected(parser, "'dimensions' after 'across'");
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_EQUAL, "after 'dimensions'"));
  int64_t dims[GRTC_STABLEHLO_MAX_LIST];
  uint32_t dim_count = 0;
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_i64_list(parser, dims, &dim_count));
  GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "dimensions",
                                    grtc_shlo_i64_array(parser, dims, dim_count)));
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  static const grtc_shlo_format_t plain = {0, NULL, 0};
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_types(parser, &plain, state));
  grtc_region_t* region = NULL;
  if (applies) {
    const grtc_value_t* init = ((grtc_value_t**)inits.data)[0];
    const grtc_type_t* scalar = grtc_shlo_scalar_tensor(parser, init->type);
    if (!scalar) return grtc_shlo_oom(parser);
    GRT_RETURN_IF_ERROR(grtc_shlo_build_applies_region(parser, applied, scalar,
                                                       &applies_token, &region));
  } else {
    GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "reducer", &found));
    if (!found) return grtc_parser_error_expected(parser, "'reducer' and the reduction body");
    uint32_t n = inputs.count;
    grtc_argument_decl_t* args = grt_arena_alloc_zeroed(arena, 2 * n * sizeof(*args));
    if (!args) return grtc_shlo_oom(parser);
    for (uint32_t i = 0; i < n; ++i) {
      GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LPAREN,
                                             "to open a reducer argument pair"));
      for (uint32_t k = 0; k < 2; ++k) {
        grtc_argument_decl_t* arg = &args[i + k * n];
        if (!grtc_parser_at(parser, GRTC_TOKEN_PERCENT_ID)) {
          return grtc_parser_error_expected(parser, "a reducer argument (%name: type)");
        }
        arg->name = *grtc_parser_token(parser);
        GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
        GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON,
                                               "after a reducer argument name"));
        GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &arg->type));
        GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_location(parser, &arg->location));
        if (k == 0) {
          GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COMMA,
                                                 "between a reducer argument pair"));
        }
      }
      GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RPAREN,
                                             "to close a reducer argument pair"));
    }
    GRT_RETURN_IF_ERROR(grtc_parser_parse_region(parser, args, 2 * n, &region));
  }
  return grt_arena_vec_push(arena, &state->regions, &region, sizeof(region));
}

//===----------------------------------------------------------------------===//
// stablehlo.while
//===----------------------------------------------------------------------===//

typedef struct grtc_shlo_loop_vars_t {
  grtc_op_state_t* state;
  grt_arena_vec_t names;  // grtc_token_t
} grtc_shlo_loop_vars_t;

// %iterArg = %init
static grt_status_t grtc_shlo_loop_var_item(grtc_parser_t* parser, void* context) {
  grtc_shlo_loop_vars_t* vars = context;
  if (!grtc_parser_at(parser, GRTC_TOKEN_PERCENT_ID)) {
    return grtc_parser_error_expected(parser, "a loop variable (%iterArg = %init)");
  }
  grtc_token_t name = *grtc_parser_token(parser);
  GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_EQUAL, "after a loop variable"));
  GRT_RETURN_IF_ERROR(grtc_shlo_push_operand(parser, vars->state));
  return grt_arena_vec_push(grtc_parser_arena(parser), &vars->names, &name, sizeof(name));
}

// (%iterArg = %a, ...) : types [attributes {..}] cond { .. } do { .. }
static grt_status_t grtc_shlo_parse_while(grtc_parser_t* parser,
                                          const grtc_op_syntax_t* syntax,
                                          grtc_op_state_t* state) {
  grt_arena_t* arena = grtc_parser_arena(parser);
  grtc_shlo_loop_vars_t vars = {state, {0}};
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_list(parser, GRTC_TOKEN_LPAREN, GRTC_TOKEN_RPAREN,
                                           "the loop-carried values",
                                           grtc_shlo_loop_var_item, &vars));
  grt_arena_vec_t names = vars.names;
  grt_arena_vec_t types = {0};
  if (names.count) {
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON,
                                           "and the loop-carried types"));
    GRT_RETURN_IF_ERROR(grtc_parser_parse_type_list(parser, &types));
  }
  if (types.count != names.count) {
    return grtc_parser_error(parser, "the loop carries %u values but %u types "
                             "are listed", names.count, types.count);
  }
  GRT_RETURN_IF_ERROR(
      grtc_parser_parse_optional_attributes_keyword(parser, &state->attributes));
  grtc_argument_decl_t* args =
      grt_arena_alloc_zeroed(arena, (names.count ? names.count : 1) * sizeof(*args));
  if (!args) return grtc_shlo_oom(parser);
  for (uint32_t i = 0; i < names.count; ++i) {
    args[i].name = ((grtc_token_t*)names.data)[i];
    args[i].type = ((const grtc_type_t**)types.data)[i];
    GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &state->result_types, &args[i].type,
                                           sizeof(args[i].type)));
  }
  static const char* const keywords[2] = {"cond", "do"};
  for (int r = 0; r < 2; ++r) {
    bool found = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, keywords[r], &found));
    if (!found) {
      char what[64];
      snprintf(what, sizeof(what), "'%s' and the loop's %s region", keywords[r],
               r ? "body" : "condition");
      return grtc_parser_error_expected(parser, what);
    }
    grtc_region_t* region = NULL;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_region(parser, args, names.count, &region));
    GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &state->regions, &region, sizeof(region)));
  }
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// chlo.scan
//===----------------------------------------------------------------------===//

// (%input, ...) inits(%init, ...) dimension=D [attributes {..}] { body }
//   : (types) -> (types)
// The split between inputs and inits becomes the generic form's
// operandSegmentSizes.
static grt_status_t grtc_shlo_parse_scan(grtc_parser_t* parser,
                                         const grtc_op_syntax_t* syntax,
                                         grtc_op_state_t* state) {
  (void)syntax;
  grt_arena_t* arena = grtc_parser_arena(parser);
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_list(parser, GRTC_TOKEN_LPAREN, GRTC_TOKEN_RPAREN,
                                           "the scanned inputs", grtc_shlo_operand_item,
                                           state));
  int64_t segments[2] = {(int64_t)state->operands.count, 0};
  bool found = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "inits", &found));
  if (!found) return grtc_parser_error_expected(parser, "'inits' and the initial carries");
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_list(parser, GRTC_TOKEN_LPAREN, GRTC_TOKEN_RPAREN,
                                           "the initial carries", grtc_shlo_operand_item,
                                           state));
  segments[1] = (int64_t)state->operands.count - segments[0];
  GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "dimension", &found));
  if (!found) return grtc_parser_error_expected(parser, "'dimension' = the scanned dimension");
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_EQUAL, "after 'dimension'"));
  int64_t dimension = 0;
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_i64(parser, &dimension));
  GRT_RETURN_IF_ERROR(
      grtc_shlo_add(parser, state, "dimension", grtc_shlo_i64_attr(parser, dimension)));
  GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "operandSegmentSizes",
                                    grtc_shlo_i64_array(parser, segments, 2)));
  GRT_RETURN_IF_ERROR(
      grtc_parser_parse_optional_attributes_keyword(parser, &state->attributes));
  grtc_region_t* region = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_region(parser, NULL, 0, &region));
  GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &state->regions, &region, sizeof(region)));
  static const grtc_shlo_format_t plain = {0, NULL, 0};
  return grtc_shlo_parse_types(parser, &plain, state);
}

//===----------------------------------------------------------------------===//
// linalg.generic, linalg.index, tensor.expand_shape / tensor.collapse_shape
//===----------------------------------------------------------------------===//

// `ins(%a, %b : ta, tb)` / `outs(%c : tc)` after |keyword|: the operands are
// pushed (their types come from their definitions); *out_count says how
// many were listed.
static grt_status_t grtc_shlo_parse_linalg_operands(grtc_parser_t* parser,
                                                    grtc_op_state_t* state,
                                                    const char* keyword, uint32_t* out_count) {
  *out_count = 0;
  bool found = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, keyword, &found));
  if (!found) return grt_ok_status();
  char what[64];
  snprintf(what, sizeof(what), "after '%s'", keyword);
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LPAREN, what));
  bool done = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_RPAREN, &done));
  if (done) return grt_ok_status();
  uint32_t before = (uint32_t)state->operands.count;
  for (;;) {
    GRT_RETURN_IF_ERROR(grtc_shlo_push_operand(parser, state));
    bool comma = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
    if (!comma) break;
  }
  *out_count = (uint32_t)state->operands.count - before;
  snprintf(what, sizeof(what), "before the types of '%s'", keyword);
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON, what));
  grt_arena_vec_t types = {0};
  GRT_RETURN_IF_ERROR(grtc_parser_parse_type_list(parser, &types));
  if (types.count != *out_count) {
    return grtc_parser_error(parser, "'%s' lists %u operands and %u types", keyword,
                             *out_count, (uint32_t)types.count);
  }
  snprintf(what, sizeof(what), "to close '%s'", keyword);
  return grtc_parser_expect(parser, GRTC_TOKEN_RPAREN, what);
}

// linalg.generic {indexing_maps = [...], iterator_types = [...]}
//     ins(%a : ta) outs(%b : tb) [attrs = {...}] { ^bb0(...): ... } -> types
// gives the generic form's operands, operandSegmentSizes and attributes.
static grt_status_t grtc_shlo_parse_linalg_generic(grtc_parser_t* parser,
                                                   const grtc_op_syntax_t* syntax,
                                                   grtc_op_state_t* state) {
  (void)syntax;
  grt_arena_t* arena = grtc_parser_arena(parser);
  GRT_RETURN_IF_ERROR(grtc_parser_parse_attribute_dict(parser, &state->attributes));
  uint32_t ins = 0, outs = 0;
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_linalg_operands(parser, state, "ins", &ins));
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_linalg_operands(parser, state, "outs", &outs));
  int64_t segments[2] = {ins, outs};
  GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "operandSegmentSizes",
                                    grtc_shlo_i64_array(parser, segments, 2)));
  bool found = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "attrs", &found));
  if (found) {
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_EQUAL, "after 'attrs'"));
    GRT_RETURN_IF_ERROR(grtc_parser_parse_attribute_dict(parser, &state->attributes));
  }
  grtc_region_t* region = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_region(parser, NULL, 0, &region));
  GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &state->regions, &region, sizeof(region)));
  bool arrow = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_ARROW, &arrow));
  if (arrow) GRT_RETURN_IF_ERROR(grtc_parser_parse_type_list(parser, &state->result_types));
  if (state->result_types.count != state->bound_result_count) {
    return grtc_parser_error(parser, "'linalg.generic' binds %u results and lists %u "
                             "result types after '->'", state->bound_result_count,
                             (uint32_t)state->result_types.count);
  }
  return grt_ok_status();
}

// linalg.index 0 : index
static grt_status_t grtc_shlo_parse_linalg_index(grtc_parser_t* parser,
                                                 const grtc_op_syntax_t* syntax,
                                                 grtc_op_state_t* state) {
  (void)syntax;
  int64_t dim = 0;
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_i64(parser, &dim));
  GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "dim", grtc_shlo_i64_attr(parser, dim)));
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON, "before the result type"));
  const grtc_type_t* type = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
  return grt_arena_vec_push(grtc_parser_arena(parser), &state->result_types, &type,
                            sizeof(type));
}

typedef struct grtc_shlo_groups_t {
  const grtc_attribute_t* items[GRTC_STABLEHLO_MAX_LIST];
  uint32_t count;
} grtc_shlo_groups_t;

// One [0, 1] group of a reassociation, as an array of i64 integers.
static grt_status_t grtc_shlo_group_item(grtc_parser_t* parser, void* context) {
  grtc_shlo_groups_t* groups = context;
  if (groups->count == GRTC_STABLEHLO_MAX_LIST) {
    return grtc_parser_error(parser, "more than %d reassociation groups",
                             GRTC_STABLEHLO_MAX_LIST);
  }
  int64_t values[GRTC_STABLEHLO_MAX_LIST];
  uint32_t count = 0;
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_i64_list(parser, values, &count));
  const grtc_attribute_t* items[GRTC_STABLEHLO_MAX_LIST];
  for (uint32_t i = 0; i < count; ++i) {
    items[i] = grtc_shlo_i64_attr(parser, values[i]);
    if (!items[i]) return grtc_shlo_oom(parser);
  }
  const grtc_attribute_t* group = grtc_parser_array_attr(parser, items, count);
  if (!group) return grtc_shlo_oom(parser);
  groups->items[groups->count++] = group;
  return grt_ok_status();
}

// An output_shape item: a size, or a %value for a '?' size (recorded as
// INT64_MIN, MLIR's dynamic size, in static_output_shape).
static grt_status_t grtc_shlo_shape_item(grtc_parser_t* parser, void* context) {
  grtc_op_state_t* state = ((void**)context)[0];
  grtc_shlo_i64_list_t* list = ((void**)context)[1];
  if (list->count == GRTC_STABLEHLO_MAX_LIST) {
    return grtc_parser_error(parser, "more than %d sizes in 'output_shape'",
                             GRTC_STABLEHLO_MAX_LIST);
  }
  if (grtc_parser_at(parser, GRTC_TOKEN_PERCENT_ID)) {
    list->values[list->count++] = INT64_MIN;
    return grtc_shlo_push_operand(parser, state);
  }
  return grtc_shlo_parse_i64(parser, &list->values[list->count++]);
}

// tensor.expand_shape %x [[0, 1], [2]] [output_shape [%d, 4, 5]] : t into t2
// tensor.collapse_shape %x [[0, 1], [2]] : t into t2
static grt_status_t grtc_shlo_parse_reshape_groups(grtc_parser_t* parser,
                                                   const grtc_op_syntax_t* syntax,
                                                   grtc_op_state_t* state) {
  (void)syntax;
  GRT_RETURN_IF_ERROR(grtc_shlo_push_operand(parser, state));
  grtc_shlo_groups_t groups;
  groups.count = 0;
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_list(parser, GRTC_TOKEN_LSQUARE, GRTC_TOKEN_RSQUARE,
                                           "the reassociation groups", grtc_shlo_group_item,
                                           &groups));
  GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "reassociation",
                                    grtc_parser_array_attr(parser, groups.items,
                                                           groups.count)));
  bool found = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "output_shape", &found));
  if (found) {
    int64_t values[GRTC_STABLEHLO_MAX_LIST];
    grtc_shlo_i64_list_t list = {values, 0};
    void* context[2] = {state, &list};
    GRT_RETURN_IF_ERROR(grtc_shlo_parse_list(parser, GRTC_TOKEN_LSQUARE, GRTC_TOKEN_RSQUARE,
                                             "'output_shape'", grtc_shlo_shape_item,
                                             context));
    GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "static_output_shape",
                                      grtc_shlo_i64_array(parser, values, list.count)));
  }
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON, "before the types"));
  const grtc_type_t* type = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
  GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "into", &found));
  if (!found) return grtc_parser_error_expected(parser, "'into' and the result type");
  GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
  return grt_arena_vec_push(grtc_parser_arena(parser), &state->result_types, &type,
                            sizeof(type));
}

//===----------------------------------------------------------------------===//
// stablehlo.convolution
//===----------------------------------------------------------------------===//

// The text of `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` rebuilt from its
// tokens with MLIR's spacing, so it reads exactly like the generic form's
// #stablehlo.conv<...> body.
static grt_status_t grtc_shlo_parse_conv_dims(grtc_parser_t* parser,
                                              grt_string_builder_t* builder) {
  int depth = 0;
  for (int part = 0; part < 3; ++part) {
    if (part == 1) {
      bool x = false;
      GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "x", &x));
      if (!x) return grtc_parser_error_expected(parser, "'x' between the input and "
                                                "kernel dimension layouts");
      grt_string_builder_append_cstring(builder, "x");
    } else if (part == 2) {
      GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_ARROW,
                                             "before the output dimension layout"));
      grt_string_builder_append_cstring(builder, "->");
    }
    if (!grtc_parser_at(parser, GRTC_TOKEN_LSQUARE)) {
      return grtc_parser_error_expected(parser, "a dimension layout such as [b, 0, 1, f]");
    }
    do {
      const grtc_token_t* token = grtc_parser_token(parser);
      if (token->kind == GRTC_TOKEN_LSQUARE) ++depth;
      if (token->kind == GRTC_TOKEN_RSQUARE) --depth;
      if (token->kind != GRTC_TOKEN_LSQUARE && token->kind != GRTC_TOKEN_RSQUARE &&
          token->kind != GRTC_TOKEN_COMMA && token->kind != GRTC_TOKEN_INTEGER &&
          token->kind != GRTC_TOKEN_BARE_ID) {
        return grtc_parser_error_expected(parser, "a dimension (b, f, i, o or a "
                                          "spatial index) in the layout");
      }
      grt_string_builder_append(builder, token->text);
      if (token->kind == GRTC_TOKEN_COMMA) grt_string_builder_append_cstring(builder, " ");
      GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
    } while (depth > 0);
  }
  return grt_ok_status();
}

// window = {stride = [..], pad = [[l, h], ..], lhs_dilate = [..],
// rhs_dilate = [..], reverse = [..]} into the generic attributes.
static grt_status_t grtc_shlo_convert_window(grtc_parser_t* parser,
                                             const grtc_token_t* where,
                                             const grtc_attribute_t* window,
                                             grtc_op_state_t* state) {
  static const struct {
    const char* pretty;
    const char* generic;
  } lists[] = {{"stride", "window_strides"},
               {"lhs_dilate", "lhs_dilation"},
               {"rhs_dilate", "rhs_dilation"}};
  for (uint32_t e = 0; e < window->dictionary.count; ++e) {
    const grtc_named_attribute_t* entry = &window->dictionary.entries[e];
    const grtc_attribute_t* value = entry->value;
    const char* generic = NULL;
    for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); ++i) {
      if (grt_string_view_equal_cstring(entry->name, lists[i].pretty)) {
        generic = lists[i].generic;
      }
    }
    bool is_pad = grt_string_view_equal_cstring(entry->name, "pad");
    bool is_reverse = grt_string_view_equal_cstring(entry->name, "reverse");
    if ((!generic && !is_pad && !is_reverse) || value->kind != GRTC_ATTR_ARRAY ||
        value->array.count > GRTC_STABLEHLO_MAX_LIST) {
      return grtc_parser_error_at(parser, where, "unexpected window entry '%.*s' "
                                  "(expected stride, pad, lhs_dilate, rhs_dilate "
                                  "or reverse, each a list)",
                                  GRT_SV_ARG(entry->name));
    }
    int64_t values[2 * GRTC_STABLEHLO_MAX_LIST];
    uint32_t count = value->array.count;
    for (uint32_t i = 0; i < count; ++i) {
      const grtc_attribute_t* item = value->array.items[i];
      if (is_pad) {
        if (item->kind != GRTC_ATTR_ARRAY || item->array.count != 2 ||
            item->array.items[0]->kind != GRTC_ATTR_INTEGER ||
            item->array.items[1]->kind != GRTC_ATTR_INTEGER) {
          return grtc_parser_error_at(parser, where, "window pad entries must "
                                      "be [low, high] integer pairs");
        }
        values[2 * i] = item->array.items[0]->integer;
        values[2 * i + 1] = item->array.items[1]->integer;
      } else if (item->kind != GRTC_ATTR_INTEGER &&
                 !(is_reverse && item->kind == GRTC_ATTR_BOOL)) {
        return grtc_parser_error_at(parser, where, "window '%.*s' must list %s",
                                    GRT_SV_ARG(entry->name),
                                    is_reverse ? "booleans" : "integers");
      } else {
        // reverse lists booleans (older printers wrote 0/1).
        values[i] = item->kind == GRTC_ATTR_BOOL ? item->boolean
                    : is_reverse                 ? item->integer != 0
                                                 : item->integer;
      }
    }
    const grtc_attribute_t* converted = NULL;
    if (is_pad) {
      // padding = dense<[[l, h], ...]> : tensor<Nx2xi64>
      grtc_attribute_t* dense = grtc_shlo_new_attr(parser, GRTC_ATTR_DENSE_ELEMENTS);
      grtc_type_t* type = grt_arena_alloc_zeroed(grtc_parser_arena(parser), sizeof(*type));
      int64_t* dims = grt_arena_alloc_zeroed(grtc_parser_arena(parser), 2 * sizeof(int64_t));
      const grtc_attribute_t* bytes = grtc_shlo_i64_array(parser, values, 2 * count);
      if (!dense || !type || !dims || !bytes) return grtc_shlo_oom(parser);
      dims[0] = count;
      dims[1] = 2;
      type->kind = GRTC_TYPE_TENSOR;
      type->shaped.ranked = true;
      type->shaped.rank = 2;
      type->shaped.dims = dims;
      type->shaped.element = grtc_parser_integer_type(parser, 64);
      dense->type = type;
      dense->dense = bytes->dense;
      converted = dense;
      generic = "padding";
    } else if (is_reverse) {
      // window_reversal = array<i1: ...>
      grtc_attribute_t* flags = grtc_shlo_new_attr(parser, GRTC_ATTR_DENSE_ARRAY);
      uint8_t* bytes = grt_arena_alloc_zeroed(grtc_parser_arena(parser), count + 1);
      if (!flags || !bytes) return grtc_shlo_oom(parser);
      for (uint32_t i = 0; i < count; ++i) bytes[i] = (uint8_t)values[i];
      flags->type = grtc_parser_integer_type(parser, 1);
      flags->dense.data = bytes;
      flags->dense.size = count;
      converted = flags;
      generic = "window_reversal";
    } else {
      converted = grtc_shlo_i64_array(parser, values, count);
    }
    GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, generic, converted));
  }
  return grt_ok_status();
}

// (%x, %w) dim_numbers = [..]x[..]->[..], window = {..} {attrs} : (..) -> ..
static grt_status_t grtc_shlo_parse_convolution(grtc_parser_t* parser,
                                                const grtc_op_syntax_t* syntax,
                                                grtc_op_state_t* state) {
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LPAREN,
                                         "to open the convolution operands"));
  // convolution(%input, %kernel); dynamic_conv(%input, %kernel, %padding)
  // (|syntax->data| set).
  static const char* const between[2] = {"between the input and the kernel",
                                         "between the kernel and the padding"};
  int count = syntax->data != NULL ? 3 : 2;
  for (int i = 0; i < count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_shlo_push_operand(parser, state));
    bool last = i == count - 1;
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, last ? GRTC_TOKEN_RPAREN : GRTC_TOKEN_COMMA,
                                           last ? "to close the convolution operands"
                                                : between[i]));
  }
  bool found = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "dim_numbers", &found));
  if (!found) return grtc_parser_error_expected(parser, "'dim_numbers = ...'");
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_EQUAL, "after 'dim_numbers'"));
  grt_string_builder_t builder;
  grt_string_builder_init(grt_arena_allocator(grtc_parser_arena(parser)), &builder);
  grt_string_builder_append_cstring(&builder, "#stablehlo.conv<");
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_conv_dims(parser, &builder));
  grt_string_builder_append_cstring(&builder, ">");
  const grtc_attribute_t* dims = NULL;
  GRT_RETURN_IF_ERROR(grtc_shlo_opaque_attr(parser, &builder, &dims));
  GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "dimension_numbers", dims));
  bool comma = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
  if (comma) {
    GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "window", &found));
    if (!found) return grtc_parser_error_expected(parser, "'window = {...}'");
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_EQUAL, "after 'window'"));
    grtc_token_t where = *grtc_parser_token(parser);
    grt_arena_vec_t entries = {0};
    GRT_RETURN_IF_ERROR(grtc_parser_parse_attribute_dict(parser, &entries));
    grtc_attribute_t window;
    memset(&window, 0, sizeof(window));
    window.kind = GRTC_ATTR_DICTIONARY;
    window.dictionary.count = entries.count;
    window.dictionary.entries = entries.data;
    GRT_RETURN_IF_ERROR(grtc_shlo_convert_window(parser, &where, &window, state));
  }
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  static const grtc_shlo_format_t plain = {0, NULL, 0};
  return grtc_shlo_parse_types(parser, &plain, state);
}

//===----------------------------------------------------------------------===//
// stablehlo.custom_call
//===----------------------------------------------------------------------===//

// @target(%a, %b) {attrs} : (types) -> results
static grt_status_t grtc_shlo_parse_custom_call(grtc_parser_t* parser,
                                                const grtc_op_syntax_t* syntax,
                                                grtc_op_state_t* state) {
  grt_string_view_t target;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_symbol_name(parser, &target));
  GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "call_target_name",
                                    grtc_parser_string_attr(parser, target)));
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_list(parser, GRTC_TOKEN_LPAREN, GRTC_TOKEN_RPAREN,
                                           "the custom call operands",
                                           grtc_shlo_operand_item, state));
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  static const grtc_shlo_format_t plain = {0, NULL, 0};
  return grtc_shlo_parse_types(parser, &plain, state);
}

//===----------------------------------------------------------------------===//
// Globals: util.global*, ml_program.global*
//===----------------------------------------------------------------------===//

static grt_status_t grtc_shlo_push_result(grtc_parser_t* parser, grtc_op_state_t* state,
                                          const grtc_type_t* type) {
  return grt_arena_vec_push(grtc_parser_arena(parser), &state->result_types, &type,
                            sizeof(type));
}

// [private|public|nested] [mutable] @name, as sym_visibility, is_mutable
// and sym_name.
static grt_status_t grtc_shlo_parse_global_head(grtc_parser_t* parser,
                                                grtc_op_state_t* state) {
  static const char* const visibilities[] = {"private", "public", "nested"};
  for (size_t i = 0; i < sizeof(visibilities) / sizeof(visibilities[0]); ++i) {
    bool has = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, visibilities[i], &has));
    if (has) {
      GRT_RETURN_IF_ERROR(grtc_shlo_add(
          parser, state, "sym_visibility",
          grtc_parser_string_attr(parser, grt_make_cstring_view(visibilities[i]))));
      break;
    }
  }
  bool is_mutable = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "mutable", &is_mutable));
  if (is_mutable) {
    GRT_RETURN_IF_ERROR(
        grtc_shlo_add(parser, state, "is_mutable", grtc_parser_unit_attr(parser)));
  }
  grt_string_view_t name;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_symbol_name(parser, &name));
  return grtc_shlo_add(parser, state, "sym_name", grtc_parser_string_attr(parser, name));
}

// util.global [visibility] [mutable] @name [{attrs}] [= value] : type
// (a dense<...> value carries the type itself: `= dense<1.0> : tensor<4xf32>`).
static grt_status_t grtc_shlo_parse_util_global(grtc_parser_t* parser,
                                                const grtc_op_syntax_t* syntax,
                                                grtc_op_state_t* state) {
  (void)syntax;
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_global_head(parser, state));
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  bool has_value = false;
  const grtc_attribute_t* value = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_EQUAL, &has_value));
  if (has_value) {
    GRT_RETURN_IF_ERROR(grtc_parser_parse_attribute(parser, &value));
    GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "initial_value", value));
  }
  const grtc_type_t* type = value && value->kind == GRTC_ATTR_DENSE_ELEMENTS ? value->type
                                                                             : NULL;
  bool colon = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COLON, &colon));
  if (colon) {
    GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
  } else if (!type) {
    return grtc_parser_error_expected(parser, "':' and the global's type");
  }
  return grtc_shlo_add(parser, state, "type", grtc_parser_type_attr(parser, type));
}

// ml_program.global [visibility] [mutable] @name[(value)] : type
static grt_status_t grtc_shlo_parse_ml_program_global(grtc_parser_t* parser,
                                                      const grtc_op_syntax_t* syntax,
                                                      grtc_op_state_t* state) {
  (void)syntax;
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_global_head(parser, state));
  bool has_value = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LPAREN, &has_value));
  if (has_value) {
    const grtc_attribute_t* value = NULL;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_attribute(parser, &value));
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RPAREN,
                                           "to close the global's value"));
    GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "value", value));
  }
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON, "before the global's type"));
  const grtc_type_t* type = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
  return grtc_shlo_add(parser, state, "type", grtc_parser_type_attr(parser, type));
}

// util.global.load [immutable] @name : type, util.global.address @name :
// !util.ptr<type>, ml_program.global_load[_const] @name : type: the symbol
// becomes 'global', the type the result's.
static grt_status_t grtc_shlo_parse_global_use(grtc_parser_t* parser,
                                               const grtc_op_syntax_t* syntax,
                                               grtc_op_state_t* state) {
  (void)syntax;
  bool immutable = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "immutable", &immutable));
  if (immutable) {
    GRT_RETURN_IF_ERROR(
        grtc_shlo_add(parser, state, "is_immutable", grtc_parser_unit_attr(parser)));
  }
  grt_string_view_t name;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_symbol_name(parser, &name));
  GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "global",
                                    grtc_parser_symbol_attr(parser, name)));
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON, "before the result type"));
  const grtc_type_t* type = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
  return grtc_shlo_push_result(parser, state, type);
}

// util.global.load.indirect %ptr : !util.ptr<type> -> type
static grt_status_t grtc_shlo_parse_global_load_indirect(grtc_parser_t* parser,
                                                         const grtc_op_syntax_t* syntax,
                                                         grtc_op_state_t* state) {
  (void)syntax;
  GRT_RETURN_IF_ERROR(grtc_shlo_push_operand(parser, state));
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON, "before the pointer type"));
  const grtc_type_t* pointer = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &pointer));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_ARROW, "before the result type"));
  const grtc_type_t* type = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
  return grtc_shlo_push_result(parser, state, type);
}

// util.global.store %v, @name : type and ml_program.global_store @name =
// %v : type: parsed so the importer can say storing is not supported.
static grt_status_t grtc_shlo_parse_global_store(grtc_parser_t* parser,
                                                 const grtc_op_syntax_t* syntax,
                                                 grtc_op_state_t* state) {
  (void)syntax;
  grt_string_view_t name;
  if (grtc_parser_at(parser, GRTC_TOKEN_PERCENT_ID)) {
    GRT_RETURN_IF_ERROR(grtc_shlo_push_operand(parser, state));
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COMMA, "before the global"));
    GRT_RETURN_IF_ERROR(grtc_parser_parse_symbol_name(parser, &name));
  } else {
    GRT_RETURN_IF_ERROR(grtc_parser_parse_symbol_name(parser, &name));
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_EQUAL, "before the value"));
    GRT_RETURN_IF_ERROR(grtc_shlo_push_operand(parser, state));
  }
  GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "global",
                                    grtc_parser_symbol_attr(parser, name)));
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON, "before the value type"));
  const grtc_type_t* type = NULL;
  return grtc_parser_parse_type(parser, &type);
}

//===----------------------------------------------------------------------===//
// stablehlo.get_tuple_element
//===----------------------------------------------------------------------===//

// %t[index] : (tuple<...>) -> type
static grt_status_t grtc_shlo_parse_get_tuple_element(grtc_parser_t* parser,
                                                      const grtc_op_syntax_t* syntax,
                                                      grtc_op_state_t* state) {
  (void)syntax;
  GRT_RETURN_IF_ERROR(grtc_shlo_push_operand(parser, state));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LSQUARE, "before the index"));
  int64_t index = 0;
  GRT_RETURN_IF_ERROR(grtc_shlo_parse_i64(parser, &index));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RSQUARE, "after the index"));
  GRT_RETURN_IF_ERROR(grtc_shlo_add(parser, state, "index", grtc_shlo_i64_attr(parser, index)));
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  static const grtc_shlo_format_t plain = {0, NULL, 0};
  return grtc_shlo_parse_types(parser, &plain, state);
}

//===----------------------------------------------------------------------===//
// stablehlo.composite
//===----------------------------------------------------------------------===//

// "name" %a, %b {decomposition = @f, ...} : (types) -> results
static grt_status_t grtc_shlo_parse_composite(grtc_parser_t* parser,
                                              const grtc_op_syntax_t* syntax,
                                              grtc_op_state_t* state) {
  (void)syntax;
  grt_string_view_t name;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_string(parser, &name));
  GRT_RETURN_IF_ERROR(
      grtc_shlo_add(parser, state, "name", grtc_parser_string_attr(parser, name)));
  bool more = grtc_parser_at(parser, GRTC_TOKEN_PERCENT_ID);
  while (more) {
    GRT_RETURN_IF_ERROR(grtc_shlo_push_operand(parser, state));
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &more));
  }
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  static const grtc_shlo_format_t plain = {0, NULL, 0};
  return grtc_shlo_parse_types(parser, &plain, state);
}

//===----------------------------------------------------------------------===//
// Ops with no pretty form here
//===----------------------------------------------------------------------===//

// A stablehlo/chlo op the front-end does not implement, written in pretty
// form, gets the importer's diagnostic ("'stablehlo.collective_permute' is not supported")
// instead of the parser's "unknown operation": its syntax is unknown, so
// the op cannot be skipped. The error points at the op's name.
static grt_status_t grtc_shlo_parse_unsupported(grtc_parser_t* parser,
                                                const grtc_op_syntax_t* syntax,
                                                grtc_op_state_t* state) {
  grtc_token_t where = *grtc_parser_token(parser);
  where.line = state->name_line;
  where.column = state->name_column;
  uint32_t operands = 0, results = 0;
  if (grtc_chlo_handles(state->name, &operands, &results)) {
    // An op the importer lowers whose pretty form this parser lacks.
    return grtc_parser_error_at(parser, &where,
                                "'%.*s' in a pretty form is not supported; write its generic "
                                "form \"%.*s\"(...)",
                                GRT_SV_ARG(state->name), GRT_SV_ARG(state->name));
  }
  return grtc_parser_error_at(parser, &where, "'%.*s' is not supported",
                              GRT_SV_ARG(state->name));
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

static const char* const grtc_shlo_cmpi_predicates[] = {
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
static const char* const grtc_shlo_cmpf_predicates[] = {
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq",   "ugt", "uge", "ult", "ule", "une", "uno", "true"};

static const grtc_shlo_format_t grtc_shlo_plain = {0, NULL, 0};
static const grtc_shlo_format_t grtc_shlo_compare = {
    GRTC_SHLO_COMPARE | GRTC_SHLO_RESULT_I1, NULL, 0};
static const grtc_shlo_format_t grtc_shlo_arith = {GRTC_SHLO_ARITH, NULL, 0};
static const grtc_shlo_format_t grtc_shlo_cmpi = {
    GRTC_SHLO_PREDICATE | GRTC_SHLO_RESULT_I1, grtc_shlo_cmpi_predicates,
    sizeof(grtc_shlo_cmpi_predicates) / sizeof(grtc_shlo_cmpi_predicates[0])};
static const grtc_shlo_format_t grtc_shlo_cmpf = {
    GRTC_SHLO_PREDICATE | GRTC_SHLO_RESULT_I1 | GRTC_SHLO_ARITH, grtc_shlo_cmpf_predicates,
    sizeof(grtc_shlo_cmpf_predicates) / sizeof(grtc_shlo_cmpf_predicates[0])};
static const grtc_shlo_format_t grtc_shlo_slice = {GRTC_SHLO_SLICE_BRACKETS, NULL, 0};
static const grtc_shlo_format_t grtc_shlo_extract = {
    GRTC_SHLO_INDEX_BRACKETS | GRTC_SHLO_RESULT_ELEMENT, NULL, 0};
// tensor.empty() : tensor<...>
static const grtc_shlo_format_t grtc_shlo_parens = {GRTC_SHLO_PARENS, NULL, 0};
static const grtc_shlo_format_t grtc_shlo_check = {
    GRTC_SHLO_PARENS | GRTC_SHLO_VALUE_ITEM, NULL, 0};

// cf.br ^bb(args : types) and cf.cond_br %c, ^a(args), ^b(args) (|data|
// non-NULL): multi-block functions (docs/compiler.md "Functions with
// several blocks").
static grt_status_t grtc_shlo_parse_cf_branch(grtc_parser_t* parser,
                                              const grtc_op_syntax_t* syntax,
                                              grtc_op_state_t* state) {
  return grtc_parser_parse_branch(parser, state, syntax->data != NULL);
}

#define GRTC_SHLO_PLAIN(name) {name, NULL, grtc_shlo_parse_format, &grtc_shlo_plain, NULL},
#define GRTC_SHLO_ARITH_OP(name) {name, NULL, grtc_shlo_parse_format, &grtc_shlo_arith, NULL},

static const grtc_op_syntax_t grtc_shlo_ops[] = {
    // Every tensor IR op spelled as a StableHLO op takes the shared format
    // unless a row below gives it its own parser (exact names are unique,
    // so the specific rows are listed instead of these).
    GRTC_SHLO_PLAIN("stablehlo.add") GRTC_SHLO_PLAIN("stablehlo.subtract")
    GRTC_SHLO_PLAIN("stablehlo.multiply") GRTC_SHLO_PLAIN("stablehlo.divide")
    GRTC_SHLO_PLAIN("stablehlo.remainder") GRTC_SHLO_PLAIN("stablehlo.power")
    GRTC_SHLO_PLAIN("stablehlo.maximum") GRTC_SHLO_PLAIN("stablehlo.minimum")
    GRTC_SHLO_PLAIN("stablehlo.and") GRTC_SHLO_PLAIN("stablehlo.or")
    GRTC_SHLO_PLAIN("stablehlo.xor") GRTC_SHLO_PLAIN("stablehlo.shift_left")
    GRTC_SHLO_PLAIN("stablehlo.shift_right_arithmetic")
    GRTC_SHLO_PLAIN("stablehlo.shift_right_logical") GRTC_SHLO_PLAIN("stablehlo.atan2")
    GRTC_SHLO_PLAIN("stablehlo.not") GRTC_SHLO_PLAIN("stablehlo.abs")
    GRTC_SHLO_PLAIN("stablehlo.negate") GRTC_SHLO_PLAIN("stablehlo.sign")
    GRTC_SHLO_PLAIN("stablehlo.exponential")
    GRTC_SHLO_PLAIN("stablehlo.exponential_minus_one") GRTC_SHLO_PLAIN("stablehlo.log")
    GRTC_SHLO_PLAIN("stablehlo.log_plus_one") GRTC_SHLO_PLAIN("stablehlo.logistic")
    GRTC_SHLO_PLAIN("stablehlo.sqrt") GRTC_SHLO_PLAIN("stablehlo.rsqrt")
    GRTC_SHLO_PLAIN("stablehlo.cbrt") GRTC_SHLO_PLAIN("stablehlo.tanh")
    GRTC_SHLO_PLAIN("stablehlo.sine") GRTC_SHLO_PLAIN("stablehlo.cosine")
    GRTC_SHLO_PLAIN("stablehlo.tan") GRTC_SHLO_PLAIN("stablehlo.square")
    GRTC_SHLO_PLAIN("stablehlo.floor")
    GRTC_SHLO_PLAIN("stablehlo.ceil") GRTC_SHLO_PLAIN("stablehlo.round_nearest_afz")
    GRTC_SHLO_PLAIN("stablehlo.round_nearest_even") GRTC_SHLO_PLAIN("stablehlo.is_finite")
    GRTC_SHLO_PLAIN("stablehlo.popcnt") GRTC_SHLO_PLAIN("stablehlo.count_leading_zeros")
    GRTC_SHLO_PLAIN("stablehlo.select") GRTC_SHLO_PLAIN("stablehlo.clamp")
    GRTC_SHLO_PLAIN("stablehlo.convert") GRTC_SHLO_PLAIN("stablehlo.bitcast_convert")
    GRTC_SHLO_PLAIN("stablehlo.broadcast_in_dim") GRTC_SHLO_PLAIN("stablehlo.broadcast")
    GRTC_SHLO_PLAIN("stablehlo.reshape") GRTC_SHLO_PLAIN("stablehlo.transpose")
    GRTC_SHLO_PLAIN("stablehlo.dynamic_slice")
    GRTC_SHLO_PLAIN("stablehlo.dynamic_update_slice")
    GRTC_SHLO_PLAIN("stablehlo.concatenate") GRTC_SHLO_PLAIN("stablehlo.pad")
    GRTC_SHLO_PLAIN("stablehlo.get_dimension_size")
    GRTC_SHLO_PLAIN("stablehlo.set_dimension_size")
    GRTC_SHLO_PLAIN("stablehlo.dynamic_broadcast_in_dim")
    GRTC_SHLO_PLAIN("stablehlo.dynamic_reshape") GRTC_SHLO_PLAIN("stablehlo.dynamic_iota")
    GRTC_SHLO_PLAIN("stablehlo.real_dynamic_slice") GRTC_SHLO_PLAIN("stablehlo.dynamic_pad")
    GRTC_SHLO_PLAIN("stablehlo.reverse") GRTC_SHLO_PLAIN("stablehlo.dot")
    GRTC_SHLO_PLAIN("stablehlo.dot_general") GRTC_SHLO_PLAIN("stablehlo.iota")
    GRTC_SHLO_PLAIN("stablehlo.return") GRTC_SHLO_PLAIN("stablehlo.optimization_barrier")
    GRTC_SHLO_PLAIN("util.optimization_barrier")
    GRTC_SHLO_PLAIN("stablehlo.uniform_quantize")
    GRTC_SHLO_PLAIN("stablehlo.uniform_dequantize")
    GRTC_SHLO_PLAIN("stablehlo.real") GRTC_SHLO_PLAIN("stablehlo.imag")
    GRTC_SHLO_PLAIN("stablehlo.complex")
    {"stablehlo.compare", NULL, grtc_shlo_parse_format, &grtc_shlo_compare, NULL},
    {"stablehlo.slice", NULL, grtc_shlo_parse_format, &grtc_shlo_slice, NULL},
    {"stablehlo.constant", NULL, grtc_shlo_parse_constant, NULL, NULL},
    {"stablehlo.reduce", NULL, grtc_shlo_parse_reduce, NULL, "stablehlo"},
    {"stablehlo.while", NULL, grtc_shlo_parse_while, NULL, "stablehlo"},
    {"cf.br", NULL, grtc_shlo_parse_cf_branch, NULL, NULL},
    {"cf.cond_br", NULL, grtc_shlo_parse_cf_branch, "conditional", NULL},
    {"stablehlo.convolution", NULL, grtc_shlo_parse_convolution, NULL, NULL},
    {"stablehlo.dynamic_conv", NULL, grtc_shlo_parse_convolution, "padding", NULL},
    {"stablehlo.custom_call", NULL, grtc_shlo_parse_custom_call, NULL, NULL},
    {"stablehlo.composite", NULL, grtc_shlo_parse_composite, NULL, NULL},
    {"stablehlo.get_tuple_element", NULL, grtc_shlo_parse_get_tuple_element, NULL, NULL},
    GRTC_SHLO_PLAIN("stablehlo.tuple")
    {"util.global", NULL, grtc_shlo_parse_util_global, NULL, NULL},
    {"util.global.load", NULL, grtc_shlo_parse_global_use, NULL, NULL},
    {"util.global.address", NULL, grtc_shlo_parse_global_use, NULL, NULL},
    {"util.global.load.indirect", NULL, grtc_shlo_parse_global_load_indirect, NULL, NULL},
    {"util.global.store", NULL, grtc_shlo_parse_global_store, NULL, NULL},
    {"ml_program.global", NULL, grtc_shlo_parse_ml_program_global, NULL, NULL},
    {"ml_program.global_load", NULL, grtc_shlo_parse_global_use, NULL, NULL},
    {"ml_program.global_load_const", NULL, grtc_shlo_parse_global_use, NULL, NULL},
    {"ml_program.global_store", NULL, grtc_shlo_parse_global_store, NULL, NULL},
    // arith on scalars (and tensors): one format, the cast spelling `: a to b`.
    GRTC_SHLO_ARITH_OP("arith.addf") GRTC_SHLO_ARITH_OP("arith.addi")
    GRTC_SHLO_ARITH_OP("arith.subf") GRTC_SHLO_ARITH_OP("arith.subi")
    GRTC_SHLO_ARITH_OP("arith.mulf") GRTC_SHLO_ARITH_OP("arith.muli")
    GRTC_SHLO_ARITH_OP("arith.divf") GRTC_SHLO_ARITH_OP("arith.divsi")
    GRTC_SHLO_ARITH_OP("arith.divui") GRTC_SHLO_ARITH_OP("arith.remf")
    GRTC_SHLO_ARITH_OP("arith.remsi") GRTC_SHLO_ARITH_OP("arith.remui")
    GRTC_SHLO_ARITH_OP("arith.maximumf") GRTC_SHLO_ARITH_OP("arith.minimumf")
    GRTC_SHLO_ARITH_OP("arith.maxnumf") GRTC_SHLO_ARITH_OP("arith.minnumf")
    GRTC_SHLO_ARITH_OP("arith.maxsi") GRTC_SHLO_ARITH_OP("arith.minsi")
    GRTC_SHLO_ARITH_OP("arith.maxui") GRTC_SHLO_ARITH_OP("arith.minui")
    GRTC_SHLO_ARITH_OP("arith.andi") GRTC_SHLO_ARITH_OP("arith.ori")
    GRTC_SHLO_ARITH_OP("arith.xori") GRTC_SHLO_ARITH_OP("arith.shli")
    GRTC_SHLO_ARITH_OP("arith.shrsi") GRTC_SHLO_ARITH_OP("arith.shrui")
    GRTC_SHLO_ARITH_OP("arith.negf") GRTC_SHLO_ARITH_OP("arith.select")
    GRTC_SHLO_ARITH_OP("arith.extf") GRTC_SHLO_ARITH_OP("arith.truncf")
    GRTC_SHLO_ARITH_OP("arith.extsi") GRTC_SHLO_ARITH_OP("arith.extui")
    GRTC_SHLO_ARITH_OP("arith.trunci") GRTC_SHLO_ARITH_OP("arith.sitofp")
    GRTC_SHLO_ARITH_OP("arith.uitofp") GRTC_SHLO_ARITH_OP("arith.fptosi")
    GRTC_SHLO_ARITH_OP("arith.fptoui") GRTC_SHLO_ARITH_OP("arith.index_cast")
    GRTC_SHLO_ARITH_OP("arith.index_castui") GRTC_SHLO_ARITH_OP("arith.bitcast")
    // math on scalars (linalg.generic bodies), in arith's format.
    GRTC_SHLO_ARITH_OP("math.absf") GRTC_SHLO_ARITH_OP("math.absi")
    GRTC_SHLO_ARITH_OP("math.exp") GRTC_SHLO_ARITH_OP("math.expm1")
    GRTC_SHLO_ARITH_OP("math.log") GRTC_SHLO_ARITH_OP("math.log1p")
    GRTC_SHLO_ARITH_OP("math.sqrt") GRTC_SHLO_ARITH_OP("math.rsqrt")
    GRTC_SHLO_ARITH_OP("math.cbrt") GRTC_SHLO_ARITH_OP("math.tanh")
    GRTC_SHLO_ARITH_OP("math.sin") GRTC_SHLO_ARITH_OP("math.cos")
    GRTC_SHLO_ARITH_OP("math.tan") GRTC_SHLO_ARITH_OP("math.floor")
    GRTC_SHLO_ARITH_OP("math.ceil") GRTC_SHLO_ARITH_OP("math.round")
    GRTC_SHLO_ARITH_OP("math.roundeven") GRTC_SHLO_ARITH_OP("math.powf")
    GRTC_SHLO_ARITH_OP("math.atan2") GRTC_SHLO_ARITH_OP("math.ctpop")
    GRTC_SHLO_ARITH_OP("math.ctlz")
    {"arith.cmpi", NULL, grtc_shlo_parse_format, &grtc_shlo_cmpi, NULL},
    {"arith.cmpf", NULL, grtc_shlo_parse_format, &grtc_shlo_cmpf, NULL},
    {"arith.constant", NULL, grtc_shlo_parse_constant, NULL, NULL},
    {"util.unfoldable_constant", NULL, grtc_shlo_parse_constant, NULL, NULL},
    {"flow.tensor.dynamic_constant", NULL, grtc_shlo_parse_dynamic_constant, NULL, NULL},
    // tensor.cast %x : tensor<4x4xi32> to tensor<?x4xi32>
    GRTC_SHLO_PLAIN("tensor.cast")
    {"tensor.extract", NULL, grtc_shlo_parse_format, &grtc_shlo_extract, NULL},
    {"tensor.empty", NULL, grtc_shlo_parse_format, &grtc_shlo_parens, NULL},
    {"tensor.expand_shape", NULL, grtc_shlo_parse_reshape_groups, NULL, NULL},
    {"tensor.collapse_shape", NULL, grtc_shlo_parse_reshape_groups, NULL, NULL},
    // linalg.generic on tensors, its linalg.index and linalg.yield.
    {"linalg.generic", NULL, grtc_shlo_parse_linalg_generic, NULL, NULL},
    {"linalg.index", NULL, grtc_shlo_parse_linalg_index, NULL, NULL},
    GRTC_SHLO_PLAIN("linalg.yield")
    // Tokens order side effects grt does not have: `stablehlo.after_all %a,
    // %b : !stablehlo.token`, `stablehlo.create_token : !stablehlo.token`.
    GRTC_SHLO_PLAIN("stablehlo.after_all") GRTC_SHLO_PLAIN("stablehlo.create_token")
    // interpreter.run_parallel programs: `stablehlo.replica_id : tensor<ui32>`.
    GRTC_SHLO_PLAIN("stablehlo.replica_id") GRTC_SHLO_PLAIN("stablehlo.partition_id")
    // IREE's check(%a, %b) : type and the StableHLO interpreter's
    // check %a, %b : type share one format.
    {"check.expect_eq", NULL, grtc_shlo_parse_format, &grtc_shlo_check, NULL},
    {"check.expect_eq_const", NULL, grtc_shlo_parse_format, &grtc_shlo_check, NULL},
    {"check.expect_almost_eq", NULL, grtc_shlo_parse_format, &grtc_shlo_check, NULL},
    {"check.expect_almost_eq_const", NULL, grtc_shlo_parse_format, &grtc_shlo_check, NULL},
    {"check.expect_close", NULL, grtc_shlo_parse_format, &grtc_shlo_check, NULL},
    {"check.eq", NULL, grtc_shlo_parse_format, &grtc_shlo_check, NULL},
    {"check.almost_eq", NULL, grtc_shlo_parse_format, &grtc_shlo_check, NULL},
    {"check.expect_true", NULL, grtc_shlo_parse_format, &grtc_shlo_check, NULL},
    {"check.expect_false", NULL, grtc_shlo_parse_format, &grtc_shlo_check, NULL},
    // The StableHLO interpreter's probes: `interpreter.probe %x, probe_id =
    // "p" : t` and `check.expect_serialized_eq %x, probe_id = "p"[, iter =
    // N] : t`.
    GRTC_SHLO_PLAIN("interpreter.probe")
    {"check.expect_serialized_eq", NULL, grtc_shlo_parse_format, &grtc_shlo_check, NULL},
    {"stablehlo.*", NULL, grtc_shlo_parse_unsupported, NULL, NULL},
    // CHLO ops compose.c lowers: `%x : t -> t` or `%a, %b {...} : (t, t) -> t`.
    GRTC_SHLO_PLAIN("chlo.erf") GRTC_SHLO_PLAIN("chlo.erfc")
    {"chlo.top_k", NULL, grtc_shlo_parse_format, &grtc_shlo_parens, NULL},
    {"chlo.scan", NULL, grtc_shlo_parse_scan, NULL, NULL},
    GRTC_SHLO_PLAIN("chlo.acos") GRTC_SHLO_PLAIN("chlo.acosh")
    GRTC_SHLO_PLAIN("chlo.asin") GRTC_SHLO_PLAIN("chlo.asinh")
    GRTC_SHLO_PLAIN("chlo.atan") GRTC_SHLO_PLAIN("chlo.atanh")
    GRTC_SHLO_PLAIN("chlo.cosh") GRTC_SHLO_PLAIN("chlo.sinh") GRTC_SHLO_PLAIN("chlo.tan")
    GRTC_SHLO_PLAIN("stablehlo.reduce_precision")
    GRTC_SHLO_PLAIN("stablehlo.rng_bit_generator")
    GRTC_SHLO_PLAIN("stablehlo.fft")
    GRTC_SHLO_PLAIN("stablehlo.cholesky")
    GRTC_SHLO_PLAIN("stablehlo.rng")
    GRTC_SHLO_PLAIN("chlo.lgamma") GRTC_SHLO_PLAIN("chlo.digamma")
    GRTC_SHLO_PLAIN("chlo.erf_inv") GRTC_SHLO_PLAIN("chlo.bessel_i1e")
    GRTC_SHLO_PLAIN("chlo.next_after") GRTC_SHLO_PLAIN("chlo.broadcast_next_after")
    GRTC_SHLO_PLAIN("chlo.mulhi") GRTC_SHLO_PLAIN("chlo.zeta") GRTC_SHLO_PLAIN("chlo.polygamma")
    GRTC_SHLO_PLAIN("chlo.is_inf") GRTC_SHLO_PLAIN("chlo.is_pos_inf")
    GRTC_SHLO_PLAIN("chlo.is_neg_inf") GRTC_SHLO_PLAIN("chlo.broadcast_add")
    GRTC_SHLO_PLAIN("chlo.broadcast_subtract") GRTC_SHLO_PLAIN("chlo.broadcast_multiply")
    GRTC_SHLO_PLAIN("chlo.broadcast_divide") GRTC_SHLO_PLAIN("chlo.broadcast_remainder")
    GRTC_SHLO_PLAIN("chlo.broadcast_power") GRTC_SHLO_PLAIN("chlo.broadcast_maximum")
    GRTC_SHLO_PLAIN("chlo.broadcast_minimum") GRTC_SHLO_PLAIN("chlo.broadcast_and")
    GRTC_SHLO_PLAIN("chlo.broadcast_or") GRTC_SHLO_PLAIN("chlo.broadcast_xor")
    GRTC_SHLO_PLAIN("chlo.broadcast_atan2") GRTC_SHLO_PLAIN("chlo.broadcast_shift_left")
    GRTC_SHLO_PLAIN("chlo.broadcast_shift_right_arithmetic")
    GRTC_SHLO_PLAIN("chlo.broadcast_shift_right_logical")
    GRTC_SHLO_PLAIN("chlo.broadcast_compare") GRTC_SHLO_PLAIN("chlo.broadcast_select")
    {"chlo.*", NULL, grtc_shlo_parse_unsupported, NULL, NULL},
};

// MHLO, StableHLO's predecessor in XLA and IREE (older exports and IREE's
// model tests are written in it), names the same ops "mhlo.NAME".
static const grtc_dialect_syntax_t grtc_shlo_dialect = {
    grtc_shlo_ops, sizeof(grtc_shlo_ops) / sizeof(grtc_shlo_ops[0]), "mhlo.", "stablehlo."};
static const grtc_dialect_syntax_t* const grtc_shlo_dialects[] = {&grtc_shlo_dialect};
static const grtc_parse_options_t grtc_shlo_options = {grtc_shlo_dialects, 1};

const grtc_parse_options_t* grtc_stablehlo_parse_options(void) {
  return &grtc_shlo_options;
}
