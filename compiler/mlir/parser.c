#include "compiler/mlir/parser.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "compiler/mlir/builtin_syntax.h"

//===----------------------------------------------------------------------===//
// Parser state
//===----------------------------------------------------------------------===//

// Everything named in the source that a later token may refer to: SSA
// values ("%x", a group of results), blocks ("^bb1") and aliases ("#a",
// "!t"). One chained hash table with an undo log gives nested scopes: a
// region records the log length on entry and drops newer entries on exit.
typedef struct grtc_name_entry_t {
  grt_string_view_t key;
  grtc_value_t* values;  // values: the group
  uint32_t value_count;
  grtc_block_t* block;    // blocks
  grtc_region_t* region;  // blocks: the region they belong to
  bool defined;           // blocks: false while only referenced
  grtc_token_t first_use;  // blocks: where a forward reference was made
  const grtc_attribute_t* attribute;  // "#a = ..." aliases
  const grtc_type_t* type;            // "!t = ..." aliases
  const grtc_location_t* location;    // "#loc = loc(...)" aliases
  uint8_t visit;  // location aliases: 1 while being checked, 2 once checked
  struct grtc_name_entry_t* next;
} grtc_name_entry_t;

typedef struct grtc_name_table_t {
  grtc_name_entry_t** buckets;
  uint32_t bucket_count;  // a power of two
  uint32_t entry_count;
  grt_arena_vec_t log;   // grtc_name_entry_t*, in insertion order
} grtc_name_table_t;

// Deep nesting is legal MLIR but a fuzzer's favourite way to exhaust the
// stack; real programs stay far below this.
#define GRTC_MAX_NESTING 200

// A use of a location alias (loc(#a)), bound once the whole file is read;
// |use| is where it was written, for the error when it cannot be bound.
typedef struct grtc_pending_alias_t {
  grtc_location_t* location;
  grtc_token_t use;
} grtc_pending_alias_t;

struct grtc_parser_t {
  grtc_lexer_t lexer;
  grtc_token_t token;
  grtc_module_t* module;
  grt_arena_t* arena;
  grtc_name_table_t names;  // values and blocks, scoped
  grtc_name_table_t aliases;  // top-level #attr, !type and #loc aliases
  grt_arena_vec_t pending_aliases;  // grtc_pending_alias_t: uses of #loc
  grtc_region_t* region;  // the region whose blocks are being parsed
  const grtc_dialect_syntax_t* const* dialects;
  size_t dialect_count;
  const char* default_dialect;
  uint32_t depth;
};

const grtc_token_t* grtc_parser_token(const grtc_parser_t* parser) {
  return &parser->token;
}

grt_arena_t* grtc_parser_arena(grtc_parser_t* parser) { return parser->arena; }

static grt_status_t grtc_parser_vformat(grtc_parser_t* parser, uint32_t line,
                                        uint32_t column, const char* format,
                                        va_list args) {
  char message[768];
  vsnprintf(message, sizeof(message), format, args);
  return grtc_lexer_error(&parser->lexer, line, column, "%s", message);
}

grt_status_t grtc_parser_error(grtc_parser_t* parser, const char* format, ...) {
  va_list args;
  va_start(args, format);
  grt_status_t status = grtc_parser_vformat(parser, parser->token.line,
                                            parser->token.column, format, args);
  va_end(args);
  return status;
}

grt_status_t grtc_parser_error_at(grtc_parser_t* parser,
                                  const grtc_token_t* token,
                                  const char* format, ...) {
  va_list args;
  va_start(args, format);
  grt_status_t status =
      grtc_parser_vformat(parser, token->line, token->column, format, args);
  va_end(args);
  return status;
}

// Describes a token for "found ..." text, clipped so that a huge token (a
// hex blob) does not swamp the message.
static void grtc_describe_token(const grtc_token_t* token, char* buffer,
                                size_t capacity) {
  if (token->kind == GRTC_TOKEN_EOF) {
    snprintf(buffer, capacity, "end of file");
    return;
  }
  int length = token->text.size > 40 ? 40 : (int)token->text.size;
  snprintf(buffer, capacity, "'%.*s%s'", length, token->text.data,
           token->text.size > 40 ? "..." : "");
}

grt_status_t grtc_parser_error_expected(grtc_parser_t* parser,
                                        const char* what) {
  char found[64];
  grtc_describe_token(&parser->token, found, sizeof(found));
  return grtc_parser_error(parser, "expected %s, found %s", what, found);
}

grt_status_t grtc_parser_advance(grtc_parser_t* parser) {
  return grtc_lexer_next(&parser->lexer, &parser->token);
}

bool grtc_parser_at(const grtc_parser_t* parser, grtc_token_kind_t kind) {
  return parser->token.kind == kind;
}

bool grtc_parser_at_keyword(const grtc_parser_t* parser, const char* keyword) {
  return parser->token.kind == GRTC_TOKEN_BARE_ID &&
         grt_string_view_equal_cstring(parser->token.text, keyword);
}

grt_status_t grtc_parser_consume_if(grtc_parser_t* parser,
                                    grtc_token_kind_t kind, bool* out_found) {
  *out_found = parser->token.kind == kind;
  return *out_found ? grtc_parser_advance(parser) : grt_ok_status();
}

grt_status_t grtc_parser_consume_keyword_if(grtc_parser_t* parser,
                                            const char* keyword,
                                            bool* out_found) {
  *out_found = grtc_parser_at_keyword(parser, keyword);
  return *out_found ? grtc_parser_advance(parser) : grt_ok_status();
}

grt_status_t grtc_parser_expect(grtc_parser_t* parser, grtc_token_kind_t kind,
                                const char* context) {
  if (parser->token.kind == kind) return grtc_parser_advance(parser);
  char what[160];
  snprintf(what, sizeof(what), "%s%s%s", grtc_token_kind_spelling(kind),
           context && *context ? " " : "", context ? context : "");
  return grtc_parser_error_expected(parser, what);
}

static grt_status_t grtc_parser_expect_keyword(grtc_parser_t* parser,
                                               const char* keyword,
                                               const char* context) {
  if (grtc_parser_at_keyword(parser, keyword)) {
    return grtc_parser_advance(parser);
  }
  char what[160];
  snprintf(what, sizeof(what), "'%s' %s", keyword, context);
  return grtc_parser_error_expected(parser, what);
}

static grt_status_t grtc_parser_oom(grtc_parser_t* parser) {
  return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                         "%s: out of memory while parsing",
                         parser->lexer.file_name);
}

#define GRTC_NEW(parser, type, out)                                   \
  do {                                                                \
    (out) = (type*)grt_arena_alloc_zeroed((parser)->arena, sizeof(type));   \
    if (!(out)) return grtc_parser_oom(parser);                       \
  } while (0)

static grt_status_t grtc_parser_enter(grtc_parser_t* parser) {
  if (++parser->depth > GRTC_MAX_NESTING) {
    return grtc_parser_error(parser, "nesting deeper than %d levels",
                             GRTC_MAX_NESTING);
  }
  return grt_ok_status();
}

static grt_status_t grtc_parser_push(grtc_parser_t* parser,
                                     grt_arena_vec_t* vec, const void* element,
                                     size_t size) {
  return grt_arena_vec_push(parser->arena, vec, element, size);
}

//===----------------------------------------------------------------------===//
// Name table
//===----------------------------------------------------------------------===//

static grtc_name_entry_t* grtc_names_lookup(const grtc_name_table_t* table,
                                            grt_string_view_t key) {
  if (!table->bucket_count) return NULL;
  grtc_name_entry_t* entry =
      table->buckets[(uint32_t)grt_string_view_hash(key) & (table->bucket_count - 1)];
  for (; entry; entry = entry->next) {
    if (grt_string_view_equal(entry->key, key)) return entry;
  }
  return NULL;
}

// Inserts a new entry in front of any older one with the same key.
static grt_status_t grtc_names_insert(grtc_parser_t* parser,
                                      grtc_name_table_t* table,
                                      grt_string_view_t key,
                                      grtc_name_entry_t** out_entry) {
  if (table->entry_count >= table->bucket_count / 2) {
    uint32_t count = table->bucket_count ? table->bucket_count * 2 : 256;
    grtc_name_entry_t** buckets =
        grt_arena_alloc_zeroed(parser->arena, count * sizeof(*buckets));
    if (!buckets) return grtc_parser_oom(parser);
    // Re-link oldest first so newer entries stay in front.
    grtc_name_entry_t** log = table->log.data;
    for (uint32_t i = 0; i < table->log.count; ++i) {
      grtc_name_entry_t* entry = log[i];
      if (!entry) continue;
      uint32_t bucket = (uint32_t)grt_string_view_hash(entry->key) & (count - 1);
      entry->next = buckets[bucket];
      buckets[bucket] = entry;
    }
    table->buckets = buckets;
    table->bucket_count = count;
  }
  grtc_name_entry_t* entry;
  GRTC_NEW(parser, grtc_name_entry_t, entry);
  entry->key = key;
  uint32_t bucket = (uint32_t)grt_string_view_hash(key) & (table->bucket_count - 1);
  entry->next = table->buckets[bucket];
  table->buckets[bucket] = entry;
  table->entry_count++;
  GRT_RETURN_IF_ERROR(grtc_parser_push(parser, &table->log, &entry, sizeof(entry)));
  *out_entry = entry;
  return grt_ok_status();
}

static void grtc_names_pop_to(grtc_name_table_t* table, uint32_t mark) {
  grtc_name_entry_t** log = table->log.data;
  while (table->log.count > mark) {
    grtc_name_entry_t* entry = log[--table->log.count];
    grtc_name_entry_t** link =
        &table->buckets[(uint32_t)grt_string_view_hash(entry->key) & (table->bucket_count - 1)];
    while (*link != entry) link = &(*link)->next;
    *link = entry->next;
    table->entry_count--;
  }
}

//===----------------------------------------------------------------------===//
// Numbers
//===----------------------------------------------------------------------===//

// A numeric or boolean literal before its type is known (dense<...> gives
// the type only after the values).
typedef struct grtc_literal_t {
  enum { GRTC_LITERAL_INTEGER, GRTC_LITERAL_FLOAT, GRTC_LITERAL_BOOL } kind;
  bool negative;
  bool hex;
  uint64_t magnitude;  // integers and bools
  double value;        // floats, without the sign
  grtc_token_t token;
  // In a dense literal, a complex element (re, im) is two leaves: 1 on the
  // real part, 2 on the imaginary part, 0 on a plain value.
  uint8_t pair;
} grtc_literal_t;

static grt_status_t grtc_parse_u64(grtc_parser_t* parser,
                                   const grtc_token_t* token,
                                   uint64_t* out_value) {
  const char* p = token->text.data;
  const char* end = p + token->text.size;
  uint64_t value = 0;
  bool hex = token->text.size > 2 && p[0] == '0' && p[1] == 'x';
  if (hex) p += 2;
  for (; p < end; ++p) {
    char c = *p;
    uint64_t digit = c <= '9' ? (uint64_t)(c - '0')
                              : (uint64_t)((c | 0x20) - 'a' + 10);
    uint64_t base = hex ? 16 : 10;
    if (value > (UINT64_MAX - digit) / base) {
      return grtc_parser_error_at(parser, token,
                                  "integer literal '%.*s' does not fit in 64 "
                                  "bits",
                                  GRT_SV_ARG(token->text));
    }
    value = value * base + digit;
  }
  *out_value = value;
  return grt_ok_status();
}

static grt_status_t grtc_parse_literal_token(grtc_parser_t* parser,
                                             const char* what,
                                             grtc_literal_t* out_literal) {
  memset(out_literal, 0, sizeof(*out_literal));
  bool negative = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_MINUS, &negative));
  out_literal->negative = negative;
  out_literal->token = parser->token;
  switch (parser->token.kind) {
    case GRTC_TOKEN_INTEGER:
      out_literal->kind = GRTC_LITERAL_INTEGER;
      out_literal->hex = parser->token.text.size > 2 &&
                         parser->token.text.data[1] == 'x';
      GRT_RETURN_IF_ERROR(
          grtc_parse_u64(parser, &parser->token, &out_literal->magnitude));
      break;
    case GRTC_TOKEN_FLOAT: {
      out_literal->kind = GRTC_LITERAL_FLOAT;
      char buffer[128];
      size_t length = parser->token.text.size;
      if (length >= sizeof(buffer)) {
        return grtc_parser_error(parser, "float literal longer than %zu "
                                 "characters", sizeof(buffer) - 1);
      }
      memcpy(buffer, parser->token.text.data, length);
      buffer[length] = 0;
      out_literal->value = strtod(buffer, NULL);
      break;
    }
    case GRTC_TOKEN_BARE_ID:
      if (!negative && (grt_string_view_equal_cstring(parser->token.text, "true") ||
                        grt_string_view_equal_cstring(parser->token.text, "false"))) {
        out_literal->kind = GRTC_LITERAL_BOOL;
        out_literal->magnitude = parser->token.text.data[0] == 't';
        break;
      }
      return grtc_parser_error_expected(parser, what);
    default:
      return grtc_parser_error_expected(parser, what);
  }
  return grtc_parser_advance(parser);
}

static void grtc_spell_type(const grtc_type_t* type, char* buffer,
                            size_t capacity);

// Checks that |literal| fits |type| (an integer or index type) and returns
// its value sign- or zero-extended to 64 bits as ir.h describes.
static grt_status_t grtc_literal_to_integer(grtc_parser_t* parser,
                                            const grtc_literal_t* literal,
                                            const grtc_type_t* type,
                                            int64_t* out_value) {
  char spelled[64];
  grtc_spell_type(type, spelled, sizeof(spelled));
  uint32_t width = type->kind == GRTC_TYPE_INDEX ? 64 : type->integer.width;
  grtc_signedness_t signedness =
      type->kind == GRTC_TYPE_INDEX ? GRTC_SIGNLESS : type->integer.signedness;
  if (literal->kind == GRTC_LITERAL_FLOAT) {
    return grtc_parser_error_at(parser, &literal->token,
                                "expected an integer value for type %s, "
                                "found float '%.*s'",
                                spelled, GRT_SV_ARG(literal->token.text));
  }
  if (literal->kind == GRTC_LITERAL_BOOL && width != 1) {
    return grtc_parser_error_at(parser, &literal->token,
                                "expected an integer value for type %s, found "
                                "'%.*s' (booleans are i1)",
                                spelled, GRT_SV_ARG(literal->token.text));
  }
  if (width == 0 || width > 64) {
    return grtc_parser_error_at(parser, &literal->token,
                                "integer type %s is not supported here (widths "
                                "1 to 64 are)", spelled);
  }
  uint64_t magnitude = literal->magnitude;
  uint64_t unsigned_max = width == 64 ? UINT64_MAX : (((uint64_t)1 << width) - 1);
  uint64_t signed_max = unsigned_max >> 1;
  bool fits;
  if (literal->negative) {
    fits = signedness != GRTC_UNSIGNED && magnitude <= signed_max + 1;
  } else if (signedness == GRTC_SIGNED) {
    fits = magnitude <= signed_max;
  } else {
    fits = magnitude <= unsigned_max;
  }
  if (!fits) {
    return grtc_parser_error_at(parser, &literal->token,
                                "integer value %s%.*s does not fit in type %s",
                                literal->negative ? "-" : "",
                                GRT_SV_ARG(literal->token.text), spelled);
  }
  uint64_t bits = literal->negative ? (uint64_t)0 - magnitude : magnitude;
  if (width < 64) {
    bits &= unsigned_max;
    if (signedness != GRTC_UNSIGNED && (bits >> (width - 1)) & 1) {
      bits |= ~unsigned_max;  // sign-extend
    }
  }
  memcpy(out_value, &bits, sizeof(bits));
  return grt_ok_status();
}

// Returns the bit pattern of |literal| as a |kind| float.
static grt_status_t grtc_literal_to_float_bits(grtc_parser_t* parser,
                                               const grtc_literal_t* literal,
                                               grtc_float_kind_t kind,
                                               uint64_t* out_bits) {
  if (literal->kind == GRTC_LITERAL_BOOL) {
    return grtc_parser_error_at(parser, &literal->token,
                                "expected a floating-point value for type %s, "
                                "found '%.*s'",
                                grtc_float_kind_spelling(kind),
                                GRT_SV_ARG(literal->token.text));
  }
  if (literal->kind == GRTC_LITERAL_INTEGER && literal->hex) {
    // Hex spells the exact bit pattern (0x7F800000 is +inf in f32).
    uint32_t bits = (uint32_t)grtc_float_kind_bits(kind);
    if (literal->negative ||
        (bits < 64 && literal->magnitude >> bits != 0)) {
      return grtc_parser_error_at(parser, &literal->token,
                                  "hexadecimal float bit pattern %s%.*s does "
                                  "not fit in %s",
                                  literal->negative ? "-" : "",
                                  GRT_SV_ARG(literal->token.text),
                                  grtc_float_kind_spelling(kind));
    }
    *out_bits = literal->magnitude;
    return grt_ok_status();
  }
  double value = literal->kind == GRTC_LITERAL_FLOAT
                     ? literal->value
                     : (double)literal->magnitude;
  *out_bits = grtc_float_encode(literal->negative ? -value : value, kind);
  return grt_ok_status();
}

static grt_status_t grtc_literal_to_attribute(grtc_parser_t* parser,
                                              const grtc_literal_t* literal,
                                              const grtc_type_t* type,
                                              const grtc_attribute_t** out) {
  grtc_attribute_t* attribute;
  GRTC_NEW(parser, grtc_attribute_t, attribute);
  attribute->type = type;
  if (type->kind == GRTC_TYPE_FLOAT) {
    uint64_t bits = 0;
    GRT_RETURN_IF_ERROR(
        grtc_literal_to_float_bits(parser, literal, type->float_kind, &bits));
    attribute->kind = GRTC_ATTR_FLOAT;
    attribute->floating = grtc_float_decode(bits, type->float_kind);
  } else if (type->kind == GRTC_TYPE_INTEGER || type->kind == GRTC_TYPE_INDEX) {
    attribute->kind = GRTC_ATTR_INTEGER;
    GRT_RETURN_IF_ERROR(
        grtc_literal_to_integer(parser, literal, type, &attribute->integer));
  } else {
    char spelled[64];
    grtc_spell_type(type, spelled, sizeof(spelled));
    return grtc_parser_error_at(parser, &literal->token,
                                "a number cannot have type %s (expected an "
                                "integer, index or float type)",
                                spelled);
  }
  *out = attribute;
  return grt_ok_status();
}

grt_status_t grtc_parser_parse_literal(grtc_parser_t* parser,
                                       const grtc_type_t* type,
                                       const grtc_attribute_t** out_attribute) {
  grtc_literal_t literal;
  GRT_RETURN_IF_ERROR(grtc_parse_literal_token(parser, "a number", &literal));
  return grtc_literal_to_attribute(parser, &literal, type, out_attribute);
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

const grtc_type_t* grtc_parser_integer_type(grtc_parser_t* parser,
                                            uint32_t width) {
  grtc_type_t* type = grt_arena_alloc_zeroed(parser->arena, sizeof(*type));
  if (!type) return NULL;
  type->kind = GRTC_TYPE_INTEGER;
  type->integer.width = width;
  type->integer.signedness = GRTC_SIGNLESS;
  return type;
}

const grtc_type_t* grtc_parser_float_type(grtc_parser_t* parser,
                                          grtc_float_kind_t kind) {
  grtc_type_t* type = grt_arena_alloc_zeroed(parser->arena, sizeof(*type));
  if (!type) return NULL;
  type->kind = GRTC_TYPE_FLOAT;
  type->float_kind = kind;
  return type;
}

// A short spelling for messages (the printer has the full one).
static void grtc_spell_type(const grtc_type_t* type, char* buffer,
                            size_t capacity) {
  switch (type->kind) {
    case GRTC_TYPE_INTEGER:
      snprintf(buffer, capacity, "%si%u",
               type->integer.signedness == GRTC_SIGNED     ? "s"
               : type->integer.signedness == GRTC_UNSIGNED ? "u"
                                                           : "",
               type->integer.width);
      return;
    case GRTC_TYPE_FLOAT:
      snprintf(buffer, capacity, "%s", grtc_float_kind_spelling(type->float_kind));
      return;
    case GRTC_TYPE_INDEX: snprintf(buffer, capacity, "index"); return;
    case GRTC_TYPE_NONE: snprintf(buffer, capacity, "none"); return;
    case GRTC_TYPE_COMPLEX:
      if (type->element && type->element->kind == GRTC_TYPE_FLOAT) {
        snprintf(buffer, capacity, "complex<%s>",
                 grtc_float_kind_spelling(type->element->float_kind));
      } else {
        snprintf(buffer, capacity, "complex<...>");
      }
      return;
    case GRTC_TYPE_TENSOR: snprintf(buffer, capacity, "tensor<...>"); return;
    case GRTC_TYPE_VECTOR: snprintf(buffer, capacity, "vector<...>"); return;
    case GRTC_TYPE_TUPLE: snprintf(buffer, capacity, "tuple<...>"); return;
    case GRTC_TYPE_FUNCTION: snprintf(buffer, capacity, "(...) -> (...)"); return;
    case GRTC_TYPE_VM_REF: snprintf(buffer, capacity, "!vm.ref<...>"); return;
    case GRTC_TYPE_VM_BUFFER: snprintf(buffer, capacity, "!vm.buffer"); return;
    case GRTC_TYPE_VM_LIST: snprintf(buffer, capacity, "!vm.list<...>"); return;
    case GRTC_TYPE_OPAQUE:
      snprintf(buffer, capacity, "%.*s",
               type->opaque.size > 48 ? 48 : (int)type->opaque.size,
               type->opaque.data);
      return;
  }
  snprintf(buffer, capacity, "?");
}

// Scans the balanced <...> starting at |open| (a '<') and returns the
// position just past the matching '>'.
static grt_status_t grtc_scan_angle_body(grtc_parser_t* parser,
                                         const grtc_token_t* open,
                                         const char** out_end) {
  const char* p = open->text.data;
  const char* end = parser->lexer.end;
  char closers[GRTC_MAX_NESTING];
  int depth = 0;
  while (p < end) {
    char c = *p;
    if (c == '"') {
      for (++p; p < end && *p != '"'; ++p) {
        if (*p == '\\' && p + 1 < end) ++p;
      }
    } else if (c == '-' && p + 1 < end && p[1] == '>') {
      ++p;  // "->" is an arrow, not a closing bracket
    } else if (c == '<' || c == '(' || c == '[' || c == '{') {
      if (depth == GRTC_MAX_NESTING) {
        return grtc_parser_error_at(parser, open, "nesting deeper than %d "
                                    "levels", GRTC_MAX_NESTING);
      }
      closers[depth++] = c == '<' ? '>' : c == '(' ? ')' : c == '[' ? ']' : '}';
    } else if (c == '>' || c == ')' || c == ']' || c == '}') {
      if (c != closers[depth - 1]) {
        return grtc_parser_error_at(parser, open,
                                    "unbalanced '<': expected '%c' before '%c'",
                                    closers[depth - 1], c);
      }
      if (--depth == 0) {
        *out_end = p + 1;
        return grt_ok_status();
      }
    }
    ++p;
  }
  return grtc_parser_error_at(parser, open,
                              "unbalanced '<': expected a matching '>' before "
                              "the end of file");
}

// With the current token a '<' right after |start| (a sigil token or a
// keyword), consumes the balanced body and returns start..'>' as text.
static grt_status_t grtc_parse_opaque_body(grtc_parser_t* parser,
                                           const char* start,
                                           grt_string_view_t* out_text) {
  const char* body_end = NULL;
  GRT_RETURN_IF_ERROR(grtc_scan_angle_body(parser, &parser->token, &body_end));
  *out_text = grt_make_string_view(start, (size_t)(body_end - start));
  grtc_lexer_seek(&parser->lexer, body_end);
  return grtc_parser_advance(parser);
}

// Consumes the 'x' that separates dimensions when it begins the current
// bare identifier ("x4xf32" is lexed as one token), re-lexing the rest.
static grt_status_t grtc_parse_dimension_x(grtc_parser_t* parser) {
  if (parser->token.kind != GRTC_TOKEN_BARE_ID || parser->token.text.data[0] != 'x') {
    return grtc_parser_error_expected(parser, "'x' after a dimension");
  }
  grtc_lexer_seek(&parser->lexer, parser->token.text.data + 1);
  return grtc_parser_advance(parser);
}

static grt_status_t grtc_parse_shaped_type(grtc_parser_t* parser,
                                           grtc_type_kind_t kind,
                                           grtc_type_t* type) {
  type->kind = kind;
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LESS,
                                         "to open a shaped type"));
  grt_arena_vec_t dims = {0};
  type->shaped.ranked = true;
  if (kind == GRTC_TYPE_TENSOR && grtc_parser_at(parser, GRTC_TOKEN_STAR)) {
    type->shaped.ranked = false;
    GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
    GRT_RETURN_IF_ERROR(grtc_parse_dimension_x(parser));
  } else {
    for (;;) {
      int64_t dim;
      if (grtc_parser_at(parser, GRTC_TOKEN_QUESTION)) {
        dim = GRTC_DYNAMIC_DIM;
      } else if (grtc_parser_at(parser, GRTC_TOKEN_INTEGER)) {
        const grtc_token_t* token = &parser->token;
        if (token->text.size > 1 && token->text.data[1] == 'x') {
          // "0x4xf32" lexes as the hex number 0x4: it is dimension 0.
          dim = 0;
          grtc_lexer_seek(&parser->lexer, token->text.data + 1);
        } else {
          uint64_t value = 0;
          GRT_RETURN_IF_ERROR(grtc_parse_u64(parser, token, &value));
          if (value > INT64_MAX) {
            return grtc_parser_error(parser, "dimension %.*s is too large",
                                     GRT_SV_ARG(token->text));
          }
          dim = (int64_t)value;
        }
      } else {
        break;
      }
      GRT_RETURN_IF_ERROR(grtc_parser_push(parser, &dims, &dim, sizeof(dim)));
      GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
      GRT_RETURN_IF_ERROR(grtc_parse_dimension_x(parser));
    }
  }
  type->shaped.rank = dims.count;
  type->shaped.dims = dims.data;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type->shaped.element));
  bool has_encoding = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &has_encoding));
  if (has_encoding) {
    GRT_RETURN_IF_ERROR(
        grtc_parser_parse_attribute(parser, &type->shaped.encoding));
  }
  return grtc_parser_expect(parser, GRTC_TOKEN_GREATER, "to close a shaped type");
}

// The parenthesized or single-type list of a function type's results, or
// the elements of a tuple.
static grt_status_t grtc_parse_type_sequence(grtc_parser_t* parser,
                                             grtc_token_kind_t close,
                                             grt_arena_vec_t* types) {
  bool done = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, close, &done));
  while (!done) {
    const grtc_type_t* type = NULL;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
    GRT_RETURN_IF_ERROR(grtc_parser_push(parser, types, &type, sizeof(type)));
    bool comma = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
    if (!comma) {
      GRT_RETURN_IF_ERROR(grtc_parser_expect(
          parser, close, close == GRTC_TOKEN_RPAREN ? "to close a type list"
                                                    : "to close a tuple type"));
      done = true;
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_make_function_type(grtc_parser_t* parser,
                                            const grt_arena_vec_t* inputs,
                                            const grt_arena_vec_t* results,
                                            grtc_type_t* type) {
  uint32_t count = inputs->count + (results ? results->count : 0);
  const grtc_type_t** types =
      grt_arena_alloc_zeroed(parser->arena, (count ? count : 1) * sizeof(*types));
  if (!types) return grtc_parser_oom(parser);
  if (inputs->count) {
    memcpy(types, inputs->data, inputs->count * sizeof(*types));
  }
  if (results && results->count) {
    memcpy(types + inputs->count, results->data, results->count * sizeof(*types));
  }
  type->function.input_count = inputs->count;
  type->function.result_count = results ? results->count : 0;
  type->function.types = types;
  return grt_ok_status();
}

static grt_status_t grtc_parse_function_type_rest(grtc_parser_t* parser,
                                                  grtc_type_t* type) {
  // The '(' has been consumed.
  grt_arena_vec_t inputs = {0};
  grt_arena_vec_t results = {0};
  GRT_RETURN_IF_ERROR(grtc_parse_type_sequence(parser, GRTC_TOKEN_RPAREN, &inputs));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_ARROW,
                                         "after a function type's inputs"));
  bool paren = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LPAREN, &paren));
  if (paren) {
    GRT_RETURN_IF_ERROR(grtc_parse_type_sequence(parser, GRTC_TOKEN_RPAREN, &results));
  } else {
    const grtc_type_t* result = NULL;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &result));
    GRT_RETURN_IF_ERROR(grtc_parser_push(parser, &results, &result, sizeof(result)));
  }
  type->kind = GRTC_TYPE_FUNCTION;
  return grtc_make_function_type(parser, &inputs, &results, type);
}

// Parses iN/siN/uiN; false when |text| is not an integer type keyword.
static bool grtc_parse_integer_keyword(grt_string_view_t text,
                                       grtc_type_t* type) {
  size_t prefix = 1;
  grtc_signedness_t signedness = GRTC_SIGNLESS;
  if (text.size > 2 && text.data[0] == 's' && text.data[1] == 'i') {
    prefix = 2;
    signedness = GRTC_SIGNED;
  } else if (text.size > 2 && text.data[0] == 'u' && text.data[1] == 'i') {
    prefix = 2;
    signedness = GRTC_UNSIGNED;
  } else if (text.size < 2 || text.data[0] != 'i') {
    return false;
  }
  uint32_t width = 0;
  for (size_t i = prefix; i < text.size; ++i) {
    char c = text.data[i];
    if (c < '0' || c > '9' || width > 1000000) return false;
    width = width * 10 + (uint32_t)(c - '0');
  }
  if (width == 0 || (text.data[prefix] == '0')) return false;
  type->kind = GRTC_TYPE_INTEGER;
  type->integer.width = width;
  type->integer.signedness = signedness;
  return true;
}

static grt_status_t grtc_parse_builtin_type(grtc_parser_t* parser,
                                            grtc_type_t* type) {
  grtc_token_t keyword = parser->token;
  grt_string_view_t text = keyword.text;
  if (grtc_parse_integer_keyword(text, type)) {
    return grtc_parser_advance(parser);
  }
  for (int kind = 0; kind < GRTC_FLOAT_KIND_COUNT; ++kind) {
    if (grt_string_view_equal_cstring(text, grtc_float_kind_spelling(kind))) {
      type->kind = GRTC_TYPE_FLOAT;
      type->float_kind = (grtc_float_kind_t)kind;
      return grtc_parser_advance(parser);
    }
  }
  if (grt_string_view_equal_cstring(text, "index")) {
    type->kind = GRTC_TYPE_INDEX;
    return grtc_parser_advance(parser);
  }
  if (grt_string_view_equal_cstring(text, "none")) {
    type->kind = GRTC_TYPE_NONE;
    return grtc_parser_advance(parser);
  }
  if (grt_string_view_equal_cstring(text, "tensor") ||
      grt_string_view_equal_cstring(text, "vector")) {
    GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
    return grtc_parse_shaped_type(
        parser, text.data[0] == 't' ? GRTC_TYPE_TENSOR : GRTC_TYPE_VECTOR, type);
  }
  if (grt_string_view_equal_cstring(text, "complex")) {
    GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LESS, "after 'complex'"));
    type->kind = GRTC_TYPE_COMPLEX;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type->element));
    return grtc_parser_expect(parser, GRTC_TOKEN_GREATER, "to close a complex type");
  }
  if (grt_string_view_equal_cstring(text, "tuple")) {
    GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LESS, "after 'tuple'"));
    grt_arena_vec_t elements = {0};
    GRT_RETURN_IF_ERROR(grtc_parse_type_sequence(parser, GRTC_TOKEN_GREATER, &elements));
    type->kind = GRTC_TYPE_TUPLE;
    return grtc_make_function_type(parser, &elements, NULL, type);
  }
  return grtc_parser_error_expected(parser, "a type");
}

// !vm.ref<?>, !vm.ref<!hal.buffer>, !vm.buffer, !vm.list<i32>; every other
// dialect type is kept as its spelling.
static grt_status_t grtc_parse_dialect_type(grtc_parser_t* parser,
                                            grtc_type_t* type) {
  grtc_token_t name = parser->token;
  grtc_name_entry_t* alias = grtc_names_lookup(&parser->aliases, name.text);
  if (alias && alias->type) {
    *type = *alias->type;
    return grtc_parser_advance(parser);
  }
  GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
  bool is_ref = grt_string_view_equal_cstring(name.text, "!vm.ref");
  bool is_list = grt_string_view_equal_cstring(name.text, "!vm.list");
  if (grt_string_view_equal_cstring(name.text, "!vm.buffer")) {
    type->kind = GRTC_TYPE_VM_BUFFER;
    return grt_ok_status();
  }
  if (is_ref || is_list) {
    type->kind = is_ref ? GRTC_TYPE_VM_REF : GRTC_TYPE_VM_LIST;
    GRT_RETURN_IF_ERROR(grtc_parser_expect(
        parser, GRTC_TOKEN_LESS, is_ref ? "after '!vm.ref'" : "after '!vm.list'"));
    bool any = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_QUESTION, &any));
    if (!any) GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type->element));
    return grtc_parser_expect(parser, GRTC_TOKEN_GREATER, "to close the type");
  }
  if (!memchr(name.text.data, '.', name.text.size) &&
      !grtc_parser_at(parser, GRTC_TOKEN_LESS)) {
    return grtc_parser_error_at(parser, &name, "undefined type alias '%.*s'",
                                GRT_SV_ARG(name.text));
  }
  type->kind = GRTC_TYPE_OPAQUE;
  type->opaque = name.text;
  // The body must start right after the name to belong to it.
  if (grtc_parser_at(parser, GRTC_TOKEN_LESS) &&
      parser->token.text.data == name.text.data + name.text.size) {
    GRT_RETURN_IF_ERROR(grtc_parse_opaque_body(parser, name.text.data, &type->opaque));
  }
  return grt_ok_status();
}

grt_status_t grtc_parser_parse_type(grtc_parser_t* parser,
                                    const grtc_type_t** out_type) {
  GRT_RETURN_IF_ERROR(grtc_parser_enter(parser));
  grtc_type_t* type;
  GRTC_NEW(parser, grtc_type_t, type);
  grt_status_t status;
  switch (parser->token.kind) {
    case GRTC_TOKEN_BARE_ID:
      status = grtc_parse_builtin_type(parser, type);
      break;
    case GRTC_TOKEN_EXCLAIM_ID:
      status = grtc_parse_dialect_type(parser, type);
      break;
    case GRTC_TOKEN_LPAREN:
      status = grtc_parser_advance(parser);
      if (grt_status_is_ok(status)) status = grtc_parse_function_type_rest(parser, type);
      break;
    default:
      status = grtc_parser_error_expected(parser, "a type");
      break;
  }
  parser->depth--;
  *out_type = type;
  return status;
}

grt_status_t grtc_parser_parse_type_list(grtc_parser_t* parser,
                                         grt_arena_vec_t* types) {
  bool paren = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LPAREN, &paren));
  if (paren) return grtc_parse_type_sequence(parser, GRTC_TOKEN_RPAREN, types);
  for (;;) {
    const grtc_type_t* type = NULL;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
    GRT_RETURN_IF_ERROR(grtc_parser_push(parser, types, &type, sizeof(type)));
    bool comma = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
    if (!comma) return grt_ok_status();
  }
}

static bool grtc_token_starts_type(const grtc_token_t* token) {
  if (token->kind == GRTC_TOKEN_EXCLAIM_ID || token->kind == GRTC_TOKEN_LPAREN) {
    return true;
  }
  if (token->kind != GRTC_TOKEN_BARE_ID) return false;
  static const char* const keywords[] = {"index", "none", "tensor", "vector",
                                         "complex", "tuple"};
  for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); ++i) {
    if (grt_string_view_equal_cstring(token->text, keywords[i])) return true;
  }
  for (int kind = 0; kind < GRTC_FLOAT_KIND_COUNT; ++kind) {
    if (grt_string_view_equal_cstring(token->text, grtc_float_kind_spelling(kind))) {
      return true;
    }
  }
  grtc_type_t scratch;
  return grtc_parse_integer_keyword(token->text, &scratch);
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

static grtc_attribute_t* grtc_new_attribute(grtc_parser_t* parser,
                                            grtc_attribute_kind_t kind) {
  grtc_attribute_t* attribute =
      grt_arena_alloc_zeroed(parser->arena, sizeof(*attribute));
  if (attribute) attribute->kind = kind;
  return attribute;
}

const grtc_attribute_t* grtc_parser_string_attr(grtc_parser_t* parser,
                                                grt_string_view_t value) {
  grtc_attribute_t* attribute = grtc_new_attribute(parser, GRTC_ATTR_STRING);
  if (attribute) attribute->string = value;
  return attribute;
}

const grtc_attribute_t* grtc_parser_symbol_attr(grtc_parser_t* parser,
                                                grt_string_view_t name) {
  grtc_attribute_t* attribute = grtc_new_attribute(parser, GRTC_ATTR_SYMBOL_REF);
  grt_string_view_t* names = grt_arena_alloc_zeroed(parser->arena, sizeof(*names));
  if (!attribute || !names) return NULL;
  names[0] = name;
  attribute->symbol.count = 1;
  attribute->symbol.names = names;
  return attribute;
}

const grtc_attribute_t* grtc_parser_type_attr(grtc_parser_t* parser,
                                              const grtc_type_t* type) {
  grtc_attribute_t* attribute = grtc_new_attribute(parser, GRTC_ATTR_TYPE);
  if (attribute) attribute->type = type;
  return attribute;
}

const grtc_attribute_t* grtc_parser_unit_attr(grtc_parser_t* parser) {
  return grtc_new_attribute(parser, GRTC_ATTR_UNIT);
}

const grtc_attribute_t* grtc_parser_array_attr(
    grtc_parser_t* parser, const grtc_attribute_t* const* items,
    uint32_t count) {
  grtc_attribute_t* attribute = grtc_new_attribute(parser, GRTC_ATTR_ARRAY);
  const grtc_attribute_t** copy =
      grt_arena_alloc_zeroed(parser->arena, (count ? count : 1) * sizeof(*copy));
  if (!attribute || !copy) return NULL;
  if (count) memcpy(copy, items, count * sizeof(*copy));
  attribute->array.count = count;
  attribute->array.items = copy;
  return attribute;
}

const grtc_attribute_t* grtc_parser_function_type_attr(
    grtc_parser_t* parser, const grtc_type_t* const* inputs,
    uint32_t input_count, const grtc_type_t* const* results,
    uint32_t result_count) {
  grtc_type_t* type = grt_arena_alloc_zeroed(parser->arena, sizeof(*type));
  grt_arena_vec_t input_vec = {(void*)inputs, input_count, input_count};
  grt_arena_vec_t result_vec = {(void*)results, result_count, result_count};
  if (!type) return NULL;
  type->kind = GRTC_TYPE_FUNCTION;
  if (!grt_status_consume_ok(
          grtc_make_function_type(parser, &input_vec, &result_vec, type))) {
    return NULL;
  }
  return grtc_parser_type_attr(parser, type);
}

grt_status_t grtc_parser_add_attribute(grtc_parser_t* parser,
                                       grt_arena_vec_t* attributes,
                                       const char* name,
                                       const grtc_attribute_t* value) {
  if (!value) return grtc_parser_oom(parser);
  grtc_named_attribute_t entry = {grt_make_cstring_view(name), value};
  return grtc_parser_push(parser, attributes, &entry, sizeof(entry));
}

grt_status_t grtc_parser_parse_string(grtc_parser_t* parser,
                                      grt_string_view_t* out_value) {
  if (!grtc_parser_at(parser, GRTC_TOKEN_STRING)) {
    return grtc_parser_error_expected(parser, "a string");
  }
  GRT_RETURN_IF_ERROR(grtc_lexer_decode_string(&parser->lexer, &parser->token,
                                               parser->arena, out_value));
  return grtc_parser_advance(parser);
}

grt_status_t grtc_parser_parse_symbol_name(grtc_parser_t* parser,
                                           grt_string_view_t* out_name) {
  if (!grtc_parser_at(parser, GRTC_TOKEN_AT_ID)) {
    return grtc_parser_error_expected(parser, "a symbol name (@name)");
  }
  grt_string_view_t text = parser->token.text;
  if (text.size > 1 && text.data[1] == '"') {
    GRT_RETURN_IF_ERROR(grtc_lexer_decode_string(&parser->lexer, &parser->token,
                                                 parser->arena, out_name));
  } else {
    *out_name = grt_make_string_view(text.data + 1, text.size - 1);
  }
  return grtc_parser_advance(parser);
}

static grt_status_t grtc_parse_symbol_ref(grtc_parser_t* parser,
                                          grtc_attribute_t* attribute) {
  grt_arena_vec_t names = {0};
  for (;;) {
    grt_string_view_t name;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_symbol_name(parser, &name));
    GRT_RETURN_IF_ERROR(grtc_parser_push(parser, &names, &name, sizeof(name)));
    bool nested = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COLON_COLON, &nested));
    if (!nested) break;
  }
  attribute->kind = GRTC_ATTR_SYMBOL_REF;
  attribute->symbol.count = names.count;
  attribute->symbol.names = names.data;
  return grt_ok_status();
}

grt_status_t grtc_parser_parse_attribute_dict(grtc_parser_t* parser,
                                              grt_arena_vec_t* attributes) {
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LBRACE,
                                         "to open an attribute dictionary"));
  bool done = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_RBRACE, &done));
  uint32_t first = attributes->count;
  while (!done) {
    grtc_token_t name_token = parser->token;
    grt_string_view_t name;
    if (name_token.kind == GRTC_TOKEN_BARE_ID) {
      name = name_token.text;
      GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
    } else if (name_token.kind == GRTC_TOKEN_STRING) {
      GRT_RETURN_IF_ERROR(grtc_parser_parse_string(parser, &name));
    } else {
      return grtc_parser_error_expected(parser, "an attribute name");
    }
    const grtc_named_attribute_t* existing = attributes->data;
    for (uint32_t i = first; i < attributes->count; ++i) {
      if (grt_string_view_equal(existing[i].name, name)) {
        return grtc_parser_error_at(parser, &name_token,
                                    "duplicate attribute '%.*s'",
                                    GRT_SV_ARG(name));
      }
    }
    grtc_named_attribute_t entry = {name, NULL};
    bool has_value = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_EQUAL, &has_value));
    if (has_value) {
      GRT_RETURN_IF_ERROR(grtc_parser_parse_attribute(parser, &entry.value));
    } else {
      entry.value = grtc_parser_unit_attr(parser);
      if (!entry.value) return grtc_parser_oom(parser);
    }
    GRT_RETURN_IF_ERROR(grtc_parser_push(parser, attributes, &entry, sizeof(entry)));
    bool comma = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
    if (!comma) {
      GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RBRACE,
                                             "to close an attribute dictionary"));
      done = true;
    }
  }
  return grt_ok_status();
}

grt_status_t grtc_parser_parse_optional_attribute_dict(
    grtc_parser_t* parser, grt_arena_vec_t* attributes) {
  if (!grtc_parser_at(parser, GRTC_TOKEN_LBRACE)) return grt_ok_status();
  return grtc_parser_parse_attribute_dict(parser, attributes);
}

grt_status_t grtc_parser_parse_optional_attributes_keyword(
    grtc_parser_t* parser, grt_arena_vec_t* attributes) {
  bool found = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "attributes", &found));
  return found ? grtc_parser_parse_attribute_dict(parser, attributes)
               : grt_ok_status();
}

// dense<...> values, gathered before the type that follows them is known.
typedef struct grtc_dense_literal_t {
  grt_arena_vec_t leaves;  // grtc_literal_t
  int64_t shape[GRTC_MAX_NESTING];
  uint32_t rank;   // list nesting depth; 0 for a splat
  bool has_shape;  // false until the first leaf fixes the depth
  grtc_token_t hex_blob;  // STRING token when the body is "0x..."
  bool is_hex_blob;
} grtc_dense_literal_t;

// One element of a dense literal: a value, or a complex element `(re, im)`
// (two leaves, marked by |pair|).
static grt_status_t grtc_parse_dense_leaf(grtc_parser_t* parser,
                                          grtc_dense_literal_t* dense, const char* what) {
  grtc_literal_t leaf;
  if (!grtc_parser_at(parser, GRTC_TOKEN_LPAREN)) {
    GRT_RETURN_IF_ERROR(grtc_parse_literal_token(parser, what, &leaf));
    return grtc_parser_push(parser, &dense->leaves, &leaf, sizeof(leaf));
  }
  GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));  // '('
  GRT_RETURN_IF_ERROR(grtc_parse_literal_token(
      parser, "the real part of a complex element (re, im)", &leaf));
  leaf.pair = 1;
  GRT_RETURN_IF_ERROR(grtc_parser_push(parser, &dense->leaves, &leaf, sizeof(leaf)));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COMMA,
                                         "between the parts of a complex element"));
  GRT_RETURN_IF_ERROR(grtc_parse_literal_token(
      parser, "the imaginary part of a complex element (re, im)", &leaf));
  leaf.pair = 2;
  GRT_RETURN_IF_ERROR(grtc_parser_push(parser, &dense->leaves, &leaf, sizeof(leaf)));
  return grtc_parser_expect(parser, GRTC_TOKEN_RPAREN, "to close a complex element");
}

static grt_status_t grtc_parse_dense_list(grtc_parser_t* parser,
                                          grtc_dense_literal_t* dense,
                                          uint32_t depth) {
  GRT_RETURN_IF_ERROR(grtc_parser_enter(parser));
  grtc_token_t open = parser->token;
  GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));  // '['
  int64_t count = 0;
  bool done = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_RSQUARE, &done));
  while (!done) {
    if (grtc_parser_at(parser, GRTC_TOKEN_LSQUARE)) {
      if (dense->has_shape && depth + 1 >= dense->rank) {
        return grtc_parser_error(parser, "dense literal nests lists deeper "
                                 "than its first element");
      }
      GRT_RETURN_IF_ERROR(grtc_parse_dense_list(parser, dense, depth + 1));
    } else {
      if (!dense->has_shape) {
        dense->has_shape = true;
        dense->rank = depth + 1;
      } else if (depth + 1 != dense->rank) {
        return grtc_parser_error(parser, "dense literal mixes a value with "
                                 "nested lists at the same level");
      }
      GRT_RETURN_IF_ERROR(grtc_parse_dense_leaf(
          parser, dense, "a number, 'true', 'false', '(' or '['"));
    }
    ++count;
    bool comma = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
    if (!comma) {
      GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RSQUARE,
                                             "to close a dense literal list"));
      done = true;
    }
  }
  if (count == 0 && !dense->has_shape) {
    dense->has_shape = true;
    dense->rank = depth + 1;
  }
  if (depth >= dense->rank) {
    return grtc_parser_error_at(parser, &open, "dense literal mixes a value "
                                "with nested lists at the same level");
  }
  // Rows are checked against the first row seen at the same depth.
  if (dense->shape[depth] < 0) {
    dense->shape[depth] = count;
  } else if (dense->shape[depth] != count) {
    return grtc_parser_error_at(parser, &open,
                                "dense literal rows must all have %lld "
                                "elements, found %lld",
                                (long long)dense->shape[depth], (long long)count);
  }
  parser->depth--;
  return grt_ok_status();
}

static void grtc_store_le(uint8_t* out, uint64_t bits, size_t size) {
  for (size_t i = 0; i < size; ++i) out[i] = (uint8_t)(bits >> (8 * i));
}

static grt_status_t grtc_encode_leaf(grtc_parser_t* parser,
                                     const grtc_literal_t* leaf,
                                     const grtc_type_t* element, uint8_t* out) {
  grtc_type_t storage;
  element = grtc_type_dense_element(element, &storage);
  size_t size = grtc_type_element_byte_size(element);
  uint64_t bits = 0;
  if (element->kind == GRTC_TYPE_FLOAT) {
    GRT_RETURN_IF_ERROR(
        grtc_literal_to_float_bits(parser, leaf, element->float_kind, &bits));
  } else {
    int64_t value = 0;
    GRT_RETURN_IF_ERROR(grtc_literal_to_integer(parser, leaf, element, &value));
    memcpy(&bits, &value, sizeof(bits));
    if (element->kind == GRTC_TYPE_INTEGER && element->integer.width < 64) {
      bits &= ((uint64_t)1 << element->integer.width) - 1;  // i1 true is 1
    }
  }
  grtc_store_le(out, bits, size);
  return grt_ok_status();
}

static int grtc_hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Turns the gathered values into bytes of |type|'s element type.
static grt_status_t grtc_finish_dense(grtc_parser_t* parser,
                                      const grtc_dense_literal_t* dense,
                                      const grtc_token_t* type_token,
                                      const grtc_type_t* type,
                                      grtc_attribute_t* attribute) {
  char spelled[64];
  grtc_spell_type(type, spelled, sizeof(spelled));
  uint64_t element_count = 0;
  if (!grtc_type_element_count(type, &element_count)) {
    return grtc_parser_error_at(parser, type_token,
                                "dense literal needs a statically shaped tensor "
                                "or vector type, found %s", spelled);
  }
  const grtc_type_t* element = type->shaped.element;
  size_t element_size = grtc_type_element_byte_size(element);
  if (element_size == 0) {
    grtc_spell_type(element, spelled, sizeof(spelled));
    return grtc_parser_error_at(parser, type_token,
                                "dense literals of element type %s are not "
                                "supported (integer, index, float, "
                                "complex<f32>, complex<f64> and "
                                "!quant.uniform are)",
                                spelled);
  }
  if (element_count > SIZE_MAX / element_size) {
    return grtc_parser_error_at(parser, type_token, "dense literal too large");
  }
  attribute->kind = GRTC_ATTR_DENSE_ELEMENTS;
  attribute->type = type;
  if (dense->is_hex_blob) {
    const grtc_token_t* blob = &dense->hex_blob;
    const char* digits = blob->text.data + 3;  // past "0x after the quote
    size_t digit_count = blob->text.size - 4;
    size_t byte_count = digit_count / 2;
    bool splat = element_count != 1 && byte_count == element_size;
    if (digit_count % 2 || (byte_count != element_count * element_size && !splat)) {
      return grtc_parser_error_at(parser, blob,
                                  "hex dense literal has %zu bytes but type "
                                  "%s needs %llu (or %zu for a splat)",
                                  byte_count, spelled,
                                  (unsigned long long)(element_count * element_size),
                                  element_size);
    }
    uint8_t* data = grt_arena_alloc_zeroed(parser->arena, byte_count);
    if (!data) return grtc_parser_oom(parser);
    for (size_t i = 0; i < byte_count; ++i) {
      int high = grtc_hex_digit_value(digits[2 * i]);
      int low = grtc_hex_digit_value(digits[2 * i + 1]);
      if (high < 0 || low < 0) {
        return grtc_parser_error_at(parser, blob,
                                    "hex dense literal has a non-hex digit at "
                                    "byte %zu", i);
      }
      data[i] = (uint8_t)(high * 16 + low);
    }
    attribute->dense.data = data;
    attribute->dense.size = byte_count;
    attribute->dense.splat = splat;
    return grt_ok_status();
  }
  const grtc_literal_t* leaves = dense->leaves.data;
  if (dense->leaves.count == 0 && element_count == 0) {
    // dense<> of a type with a zero dimension (tensor<0x3xf32>): no
    // elements, held as a splat of zero so later stages need no empty case.
    uint8_t* zero = grt_arena_alloc_zeroed(parser->arena, element_size);
    if (!zero) return grtc_parser_oom(parser);
    attribute->dense.data = zero;
    attribute->dense.size = element_size;
    attribute->dense.splat = true;
    return grt_ok_status();
  }
  bool splat = dense->rank == 0;
  if (!splat) {
    bool shape_matches = dense->rank == type->shaped.rank;
    for (uint32_t i = 0; shape_matches && i < dense->rank; ++i) {
      shape_matches = dense->shape[i] == type->shaped.dims[i];
    }
    if (!shape_matches) {
      char shape[128];
      size_t used = 0;
      shape[0] = 0;
      for (uint32_t i = 0; i < dense->rank && used < sizeof(shape) - 24; ++i) {
        used += (size_t)snprintf(shape + used, sizeof(shape) - used, "%s%lld",
                                 i ? "x" : "", (long long)dense->shape[i]);
      }
      return grtc_parser_error_at(parser, type_token,
                                  "dense literal has shape [%s] but its type "
                                  "is %s with a different shape",
                                  dense->rank ? shape : "", "tensor");
    }
  }
  size_t byte_count = (splat ? 1 : (size_t)element_count) * element_size;
  uint8_t* data = grt_arena_alloc_zeroed(parser->arena, byte_count);
  if (!data) return grtc_parser_oom(parser);
  bool is_complex = element->kind == GRTC_TYPE_COMPLEX;
  for (uint32_t i = 0; i < dense->leaves.count; ++i) {
    // Complex elements are (re, im) pairs and nothing else is.
    if (is_complex != (leaves[i].pair != 0)) {
      grtc_spell_type(element, spelled, sizeof(spelled));
      return grtc_parser_error_at(parser, &leaves[i].token,
                                  is_complex ? "an element of type %s must be "
                                               "written (re, im)"
                                             : "a complex element (re, im) in a "
                                               "dense literal of element type %s",
                                  spelled);
    }
    if (is_complex) {
      // Leaves 2k and 2k+1 are element k's real and imaginary parts.
      GRT_RETURN_IF_ERROR(grtc_encode_leaf(parser, &leaves[i], element->element,
                                           data + (i / 2) * element_size +
                                               (i % 2) * (element_size / 2)));
      continue;
    }
    GRT_RETURN_IF_ERROR(
        grtc_encode_leaf(parser, &leaves[i], element, data + i * element_size));
  }
  attribute->dense.data = data;
  attribute->dense.size = byte_count;
  attribute->dense.splat = splat && element_count != 1;
  return grt_ok_status();
}

static grt_status_t grtc_parse_dense(grtc_parser_t* parser,
                                     grtc_attribute_t* attribute) {
  GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));  // 'dense'
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LESS, "after 'dense'"));
  grtc_dense_literal_t* dense;
  GRTC_NEW(parser, grtc_dense_literal_t, dense);
  for (uint32_t i = 0; i < GRTC_MAX_NESTING; ++i) dense->shape[i] = -1;
  if (grtc_parser_at(parser, GRTC_TOKEN_STRING)) {
    grt_string_view_t text = parser->token.text;
    if (text.size < 4 || text.data[1] != '0' || text.data[2] != 'x') {
      return grtc_parser_error(parser, "dense string literals are not "
                               "supported; expected a hex blob \"0x...\"");
    }
    dense->is_hex_blob = true;
    dense->hex_blob = parser->token;
    GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
  } else if (grtc_parser_at(parser, GRTC_TOKEN_LSQUARE)) {
    GRT_RETURN_IF_ERROR(grtc_parse_dense_list(parser, dense, 0));
  } else if (!grtc_parser_at(parser, GRTC_TOKEN_GREATER)) {
    GRT_RETURN_IF_ERROR(grtc_parse_dense_leaf(
        parser, dense, "a number, a list or a hex string in dense<...>"));
  } else {
    dense->rank = 1;  // dense<> is an empty list
    dense->shape[0] = 0;
  }
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_GREATER,
                                         "to close dense<...>"));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON,
                                         "and a type after dense<...>"));
  grtc_token_t type_token = parser->token;
  const grtc_type_t* type = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
  return grtc_finish_dense(parser, dense, &type_token, type, attribute);
}

// array<i64: 1, 2, 3>
static grt_status_t grtc_parse_dense_array(grtc_parser_t* parser,
                                           grtc_attribute_t* attribute) {
  GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));  // 'array'
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LESS, "after 'array'"));
  grtc_token_t type_token = parser->token;
  const grtc_type_t* element = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &element));
  size_t element_size = grtc_type_element_byte_size(element);
  if (element_size == 0) {
    char spelled[64];
    grtc_spell_type(element, spelled, sizeof(spelled));
    return grtc_parser_error_at(parser, &type_token,
                                "array<...> elements must be integers or "
                                "floats, found %s", spelled);
  }
  grt_arena_vec_t bytes = {0};
  bool has_values = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COLON, &has_values));
  while (has_values) {
    grtc_literal_t leaf;
    GRT_RETURN_IF_ERROR(grtc_parse_literal_token(parser, "a number", &leaf));
    uint8_t encoded[8];
    GRT_RETURN_IF_ERROR(grtc_encode_leaf(parser, &leaf, element, encoded));
    for (size_t i = 0; i < element_size; ++i) {
      GRT_RETURN_IF_ERROR(grtc_parser_push(parser, &bytes, &encoded[i], 1));
    }
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &has_values));
  }
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_GREATER,
                                         "to close array<...>"));
  attribute->kind = GRTC_ATTR_DENSE_ARRAY;
  attribute->type = element;
  attribute->dense.data = bytes.data;
  attribute->dense.size = bytes.count;
  return grt_ok_status();
}

// An optional `: type` after a number or string.
static grt_status_t grtc_parse_optional_colon_type(grtc_parser_t* parser,
                                                   const grtc_type_t** out_type) {
  bool colon = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COLON, &colon));
  if (!colon) return grt_ok_status();
  return grtc_parser_parse_type(parser, out_type);
}

static grt_status_t grtc_parse_attribute_inner(grtc_parser_t* parser,
                                               grtc_attribute_t* attribute) {
  const grtc_token_t token = parser->token;
  switch (token.kind) {
    case GRTC_TOKEN_INTEGER:
    case GRTC_TOKEN_FLOAT:
    case GRTC_TOKEN_MINUS: {
      grtc_literal_t literal;
      GRT_RETURN_IF_ERROR(grtc_parse_literal_token(parser, "a number", &literal));
      const grtc_type_t* type = NULL;
      GRT_RETURN_IF_ERROR(grtc_parse_optional_colon_type(parser, &type));
      if (!type) {
        type = literal.kind == GRTC_LITERAL_FLOAT
                   ? grtc_parser_float_type(parser, GRTC_FLOAT_F64)
                   : grtc_parser_integer_type(parser, 64);
        if (!type) return grtc_parser_oom(parser);
      }
      const grtc_attribute_t* value = NULL;
      GRT_RETURN_IF_ERROR(grtc_literal_to_attribute(parser, &literal, type, &value));
      *attribute = *value;
      return grt_ok_status();
    }
    case GRTC_TOKEN_STRING:
      attribute->kind = GRTC_ATTR_STRING;
      GRT_RETURN_IF_ERROR(grtc_parser_parse_string(parser, &attribute->string));
      return grtc_parse_optional_colon_type(parser, &attribute->type);
    case GRTC_TOKEN_LSQUARE: {
      GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
      grt_arena_vec_t items = {0};
      bool done = false;
      GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_RSQUARE, &done));
      while (!done) {
        const grtc_attribute_t* item = NULL;
        GRT_RETURN_IF_ERROR(grtc_parser_parse_attribute(parser, &item));
        GRT_RETURN_IF_ERROR(grtc_parser_push(parser, &items, &item, sizeof(item)));
        bool comma = false;
        GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
        if (!comma) {
          GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RSQUARE,
                                                 "to close an array attribute"));
          done = true;
        }
      }
      attribute->kind = GRTC_ATTR_ARRAY;
      attribute->array.count = items.count;
      attribute->array.items = items.data;
      return grt_ok_status();
    }
    case GRTC_TOKEN_LBRACE: {
      grt_arena_vec_t entries = {0};
      GRT_RETURN_IF_ERROR(grtc_parser_parse_attribute_dict(parser, &entries));
      attribute->kind = GRTC_ATTR_DICTIONARY;
      attribute->dictionary.count = entries.count;
      attribute->dictionary.entries = entries.data;
      return grt_ok_status();
    }
    case GRTC_TOKEN_AT_ID:
      return grtc_parse_symbol_ref(parser, attribute);
    case GRTC_TOKEN_HASH_ID: {
      grtc_name_entry_t* alias = grtc_names_lookup(&parser->aliases, token.text);
      if (alias && alias->attribute) {
        *attribute = *alias->attribute;
        return grtc_parser_advance(parser);
      }
      GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
      bool body = grtc_parser_at(parser, GRTC_TOKEN_LESS) &&
                  parser->token.text.data == token.text.data + token.text.size;
      if (!body && !memchr(token.text.data, '.', token.text.size)) {
        return grtc_parser_error_at(parser, &token,
                                    "undefined attribute alias '%.*s'",
                                    GRT_SV_ARG(token.text));
      }
      attribute->kind = GRTC_ATTR_OPAQUE;
      attribute->opaque = token.text;
      if (body) {
        GRT_RETURN_IF_ERROR(
            grtc_parse_opaque_body(parser, token.text.data, &attribute->opaque));
      }
      return grt_ok_status();
    }
    case GRTC_TOKEN_BARE_ID:
      break;
    default:
      if (grtc_token_starts_type(&token)) break;
      return grtc_parser_error_expected(parser, "an attribute value");
  }
  if (grtc_token_starts_type(&token)) {
    attribute->kind = GRTC_ATTR_TYPE;
    return grtc_parser_parse_type(parser, &attribute->type);
  }
  grt_string_view_t word = token.text;
  if (grt_string_view_equal_cstring(word, "unit")) {
    attribute->kind = GRTC_ATTR_UNIT;
    return grtc_parser_advance(parser);
  }
  if (grt_string_view_equal_cstring(word, "true") ||
      grt_string_view_equal_cstring(word, "false")) {
    attribute->kind = GRTC_ATTR_BOOL;
    attribute->boolean = word.data[0] == 't';
    return grtc_parser_advance(parser);
  }
  if (grt_string_view_equal_cstring(word, "dense")) {
    return grtc_parse_dense(parser, attribute);
  }
  if (grt_string_view_equal_cstring(word, "array")) {
    return grtc_parse_dense_array(parser, attribute);
  }
  // Other builtin spellings with a <...> body (affine_map, dense_resource,
  // sparse, strided, ...) are kept as text, with their type if any.
  GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
  if (!grtc_parser_at(parser, GRTC_TOKEN_LESS)) {
    return grtc_parser_error_at(parser, &token,
                                "expected an attribute value, found '%.*s'",
                                GRT_SV_ARG(word));
  }
  attribute->kind = GRTC_ATTR_OPAQUE;
  GRT_RETURN_IF_ERROR(grtc_parse_opaque_body(parser, word.data, &attribute->opaque));
  if (grt_string_view_equal_cstring(word, "dense_resource") ||
      grt_string_view_equal_cstring(word, "sparse")) {
    GRT_RETURN_IF_ERROR(grtc_parse_optional_colon_type(parser, &attribute->type));
  }
  return grt_ok_status();
}

grt_status_t grtc_parser_parse_attribute(grtc_parser_t* parser,
                                         const grtc_attribute_t** out_attribute) {
  GRT_RETURN_IF_ERROR(grtc_parser_enter(parser));
  grtc_attribute_t* attribute;
  GRTC_NEW(parser, grtc_attribute_t, attribute);
  grt_status_t status = grtc_parse_attribute_inner(parser, attribute);
  parser->depth--;
  *out_attribute = attribute;
  return status;
}

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

static grt_status_t grtc_parse_location_body(grtc_parser_t* parser,
                                             const grtc_location_t** out);

static grt_status_t grtc_parse_line_column(grtc_parser_t* parser,
                                           grtc_location_t* location) {
  uint32_t* fields[2] = {&location->line, &location->column};
  for (int i = 0; i < 2; ++i) {
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON,
                                           i ? "before the column" : "before the line"));
    if (!grtc_parser_at(parser, GRTC_TOKEN_INTEGER)) {
      return grtc_parser_error_expected(parser, i ? "a column number" : "a line number");
    }
    uint64_t value = 0;
    GRT_RETURN_IF_ERROR(grtc_parse_u64(parser, &parser->token, &value));
    if (value > UINT32_MAX) {
      return grtc_parser_error(parser, "location number %llu is too large",
                               (unsigned long long)value);
    }
    *fields[i] = (uint32_t)value;
    GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
  }
  return grt_ok_status();
}

static grt_status_t grtc_parse_location_list(grtc_parser_t* parser,
                                             grtc_token_kind_t close,
                                             const char* separator_keyword,
                                             grtc_location_t* location) {
  grt_arena_vec_t children = {0};
  bool done = close == GRTC_TOKEN_RSQUARE &&
              grtc_parser_at(parser, GRTC_TOKEN_RSQUARE);
  while (!done) {
    const grtc_location_t* child = NULL;
    GRT_RETURN_IF_ERROR(grtc_parse_location_body(parser, &child));
    GRT_RETURN_IF_ERROR(grtc_parser_push(parser, &children, &child, sizeof(child)));
    bool more = false;
    if (separator_keyword) {
      if (children.count == 1) {
        GRT_RETURN_IF_ERROR(grtc_parser_expect_keyword(
            parser, separator_keyword, "between the callee and caller locations"));
        more = true;
      }
    } else {
      GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &more));
    }
    done = !more;
  }
  location->child_count = children.count;
  location->children = children.data;
  return grtc_parser_expect(parser, close, "to close the location list");
}

static grt_status_t grtc_parse_location_body(grtc_parser_t* parser,
                                             const grtc_location_t** out) {
  GRT_RETURN_IF_ERROR(grtc_parser_enter(parser));
  grtc_location_t* location;
  GRTC_NEW(parser, grtc_location_t, location);
  *out = location;
  grtc_token_t token = parser->token;
  if (token.kind == GRTC_TOKEN_HASH_ID) {
    location->kind = GRTC_LOC_ALIAS;
    location->text = token.text;
    grtc_pending_alias_t pending = {location, token};
    GRT_RETURN_IF_ERROR(
        grtc_parser_push(parser, &parser->pending_aliases, &pending, sizeof(pending)));
    GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
  } else if (token.kind == GRTC_TOKEN_STRING) {
    GRT_RETURN_IF_ERROR(grtc_parser_parse_string(parser, &location->text));
    if (grtc_parser_at(parser, GRTC_TOKEN_COLON)) {
      location->kind = GRTC_LOC_FILE;
      GRT_RETURN_IF_ERROR(grtc_parse_line_column(parser, location));
      bool range = false;
      GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "to", &range));
      if (range) {  // "file":1:2 to 3:4 -- the start is what we keep
        grtc_location_t end;
        GRT_RETURN_IF_ERROR(grtc_parse_line_column(parser, &end));
      }
    } else {
      location->kind = GRTC_LOC_NAME;
      bool child = false;
      GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LPAREN, &child));
      if (child) {
        GRT_RETURN_IF_ERROR(
            grtc_parse_location_list(parser, GRTC_TOKEN_RPAREN, NULL, location));
        if (location->child_count != 1) {
          return grtc_parser_error_at(parser, &token,
                                      "a name location has one child location");
        }
      }
    }
  } else if (grtc_parser_at_keyword(parser, "unknown")) {
    location->kind = GRTC_LOC_UNKNOWN;
    GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
  } else if (grtc_parser_at_keyword(parser, "fused")) {
    location->kind = GRTC_LOC_FUSED;
    GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
    bool metadata = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LESS, &metadata));
    if (metadata) {
      GRT_RETURN_IF_ERROR(grtc_parser_parse_attribute(parser, &location->metadata));
      GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_GREATER,
                                             "to close fused location metadata"));
    }
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LSQUARE, "after 'fused'"));
    GRT_RETURN_IF_ERROR(
        grtc_parse_location_list(parser, GRTC_TOKEN_RSQUARE, NULL, location));
  } else if (grtc_parser_at_keyword(parser, "callsite")) {
    location->kind = GRTC_LOC_CALLSITE;
    GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LPAREN, "after 'callsite'"));
    GRT_RETURN_IF_ERROR(
        grtc_parse_location_list(parser, GRTC_TOKEN_RPAREN, "at", location));
  } else {
    return grtc_parser_error_expected(
        parser, "a location (\"file\":line:col, \"name\", unknown, fused[...], "
                "callsite(...) or #alias)");
  }
  parser->depth--;
  return grt_ok_status();
}

// `loc(` has been seen as the current keyword.
static grt_status_t grtc_parse_location(grtc_parser_t* parser,
                                        const grtc_location_t** out) {
  GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));  // 'loc'
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LPAREN, "after 'loc'"));
  GRT_RETURN_IF_ERROR(grtc_parse_location_body(parser, out));
  return grtc_parser_expect(parser, GRTC_TOKEN_RPAREN, "to close loc(...)");
}

grt_status_t grtc_parser_parse_optional_location(
    grtc_parser_t* parser, const grtc_location_t** out_location) {
  *out_location = NULL;
  if (!grtc_parser_at_keyword(parser, "loc")) return grt_ok_status();
  return grtc_parse_location(parser, out_location);
}

// Aliases may be defined after their uses (MLIR prints them last), so they
// are bound once the whole file is read.
static grt_status_t grtc_check_location_cycles(grtc_parser_t* parser,
                                               const grtc_token_t* use,
                                               const grtc_location_t* location,
                                               uint32_t depth) {
  if (depth > GRTC_MAX_NESTING) {
    return grtc_parser_error_at(parser, use,
                                "locations nest deeper than %d levels through "
                                "aliases",
                                GRTC_MAX_NESTING);
  }
  if (location->kind == GRTC_LOC_ALIAS) {
    grtc_name_entry_t* alias = grtc_names_lookup(&parser->aliases, location->text);
    if (alias->visit == 1) {
      return grtc_parser_error_at(parser, use,
                                  "location alias '%.*s' refers to itself",
                                  GRT_SV_ARG(location->text));
    }
    if (alias->visit == 2) return grt_ok_status();
    alias->visit = 1;
    GRT_RETURN_IF_ERROR(
        grtc_check_location_cycles(parser, use, alias->location, depth + 1));
    alias->visit = 2;
    return grt_ok_status();
  }
  for (uint32_t i = 0; i < location->child_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_check_location_cycles(
        parser, use, location->children[i], depth + 1));
  }
  return grt_ok_status();
}

static grt_status_t grtc_resolve_location_aliases(grtc_parser_t* parser) {
  grtc_pending_alias_t* pending = parser->pending_aliases.data;
  for (uint32_t i = 0; i < parser->pending_aliases.count; ++i) {
    grtc_location_t* location = pending[i].location;
    grtc_name_entry_t* alias = grtc_names_lookup(&parser->aliases, location->text);
    if (!alias || !alias->location) {
      return grtc_parser_error_at(parser, &pending[i].use,
                                  "undefined location alias '%.*s'",
                                  GRT_SV_ARG(location->text));
    }
    location->resolved = alias->location;
  }
  // Reject cycles, direct (#a = loc(#b), #b = loc(#a)) or through nested
  // locations (#a = loc("n"(#a))), so that readers may follow aliases and
  // children without bounds. The error points at the use that starts it.
  for (uint32_t i = 0; i < parser->pending_aliases.count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_check_location_cycles(
        parser, &pending[i].use, pending[i].location, 0));
  }
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Values, blocks, regions, operations
//===----------------------------------------------------------------------===//

static grt_status_t grtc_define_values(grtc_parser_t* parser,
                                       const grtc_token_t* name,
                                       grtc_value_t* values, uint32_t count) {
  grtc_name_entry_t* existing = grtc_names_lookup(&parser->names, name->text);
  if (existing && existing->values) {
    return grtc_parser_error_at(parser, name, "redefinition of SSA value '%.*s'",
                                GRT_SV_ARG(name->text));
  }
  grtc_name_entry_t* entry = NULL;
  GRT_RETURN_IF_ERROR(grtc_names_insert(parser, &parser->names, name->text, &entry));
  entry->values = values;
  entry->value_count = count;
  return grt_ok_status();
}

grt_status_t grtc_parser_parse_operand(grtc_parser_t* parser,
                                       grtc_value_t** out_value) {
  if (!grtc_parser_at(parser, GRTC_TOKEN_PERCENT_ID)) {
    return grtc_parser_error_expected(parser, "an SSA value (%name)");
  }
  grt_string_view_t text = parser->token.text;
  grt_string_view_t name = text;
  uint64_t index = 0;
  const char* hash = memchr(text.data, '#', text.size);
  if (hash) {
    name.size = (size_t)(hash - text.data);
    grtc_token_t digits = parser->token;
    digits.text = grt_make_string_view(hash + 1, text.size - name.size - 1);
    GRT_RETURN_IF_ERROR(grtc_parse_u64(parser, &digits, &index));
  }
  grtc_name_entry_t* entry = grtc_names_lookup(&parser->names, name);
  if (!entry || !entry->values) {
    return grtc_parser_error(parser, "use of undefined SSA value '%.*s'",
                             GRT_SV_ARG(name));
  }
  if (index >= entry->value_count) {
    return grtc_parser_error(parser,
                             "'%.*s' has %u result%s, so '%.*s' does not exist",
                             GRT_SV_ARG(name), entry->value_count,
                             entry->value_count == 1 ? "" : "s",
                             GRT_SV_ARG(text));
  }
  *out_value = &entry->values[index];
  return grtc_parser_advance(parser);
}

// Checks that |value| has the |type| the text states for it.
static grt_status_t grtc_check_value_type(grtc_parser_t* parser,
                                          const grtc_token_t* at,
                                          const grtc_value_t* value,
                                          const grtc_type_t* type) {
  if (grtc_type_equal(value->type, type)) return grt_ok_status();
  char have[64], want[64];
  grtc_spell_type(value->type, have, sizeof(have));
  grtc_spell_type(type, want, sizeof(want));
  return grtc_parser_error_at(parser, at,
                              "'%.*s' has type %s but is used here as %s",
                              GRT_SV_ARG(value->name), have, want);
}

static grtc_block_t* grtc_new_block(grtc_parser_t* parser) {
  return grt_arena_alloc_zeroed(parser->arena, sizeof(grtc_block_t));
}

// Finds or forward-declares block |label| in the current region.
static grt_status_t grtc_lookup_block(grtc_parser_t* parser,
                                      const grtc_token_t* label,
                                      grtc_name_entry_t** out_entry) {
  if (!parser->region) {
    return grtc_parser_error_at(parser, label,
                                "block reference '%.*s' outside of a region",
                                GRT_SV_ARG(label->text));
  }
  grtc_name_entry_t* entry = grtc_names_lookup(&parser->names, label->text);
  if (!entry || entry->region != parser->region) {
    GRT_RETURN_IF_ERROR(grtc_names_insert(parser, &parser->names, label->text, &entry));
    entry->block = grtc_new_block(parser);
    if (!entry->block) return grtc_parser_oom(parser);
    entry->block->label = label->text;
    entry->region = parser->region;
    entry->first_use = *label;
  }
  *out_entry = entry;
  return grt_ok_status();
}

// Parses `^bb` into a successor without operands.
static grt_status_t grtc_parse_successor_block(grtc_parser_t* parser,
                                               grtc_successor_t* out_successor) {
  if (!grtc_parser_at(parser, GRTC_TOKEN_CARET_ID)) {
    return grtc_parser_error_expected(parser, "a block label (^name)");
  }
  grtc_name_entry_t* entry = NULL;
  GRT_RETURN_IF_ERROR(grtc_lookup_block(parser, &parser->token, &entry));
  GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
  *out_successor = (grtc_successor_t){entry->block, 0, NULL};
  return grt_ok_status();
}

grt_status_t grtc_parser_parse_successor_label(grtc_parser_t* parser,
                                               grtc_op_state_t* state) {
  grtc_successor_t successor;
  GRT_RETURN_IF_ERROR(grtc_parse_successor_block(parser, &successor));
  return grtc_parser_push(parser, &state->successors, &successor, sizeof(successor));
}

grt_status_t grtc_parser_parse_successor(grtc_parser_t* parser,
                                         grtc_op_state_t* state) {
  grtc_successor_t successor;
  GRT_RETURN_IF_ERROR(grtc_parse_successor_block(parser, &successor));
  bool has_args = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LPAREN, &has_args));
  if (has_args) {
    // Both `(%a, %b : t1, t2)` and `(%a : t1, %b : t2)` occur in practice.
    grt_arena_vec_t operands = {0};
    grt_arena_vec_t uses = {0};  // grtc_token_t, for type errors
    grt_arena_vec_t types = {0};
    for (;;) {
      grtc_token_t use = parser->token;
      grtc_value_t* value = NULL;
      GRT_RETURN_IF_ERROR(grtc_parser_parse_operand(parser, &value));
      GRT_RETURN_IF_ERROR(grtc_parser_push(parser, &operands, &value, sizeof(value)));
      GRT_RETURN_IF_ERROR(grtc_parser_push(parser, &uses, &use, sizeof(use)));
      bool colon = false;
      GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COLON, &colon));
      if (colon) {
        bool all_named = operands.count == 1 || types.count == operands.count - 1;
        const grtc_type_t* type = NULL;
        GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
        GRT_RETURN_IF_ERROR(grtc_parser_push(parser, &types, &type, sizeof(type)));
        bool comma = false;
        GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
        if (comma && grtc_parser_at(parser, GRTC_TOKEN_PERCENT_ID) && all_named) {
          continue;
        }
        while (comma) {
          GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
          GRT_RETURN_IF_ERROR(grtc_parser_push(parser, &types, &type, sizeof(type)));
          GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
        }
        break;
      }
      bool comma = false;
      GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
      if (!comma) {
        return grtc_parser_error_expected(parser, "':' and the types of the "
                                          "block arguments");
      }
    }
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RPAREN,
                                           "to close the successor operands"));
    if (types.count != operands.count) {
      return grtc_parser_error_at(parser, (const grtc_token_t*)uses.data,
                                  "successor has %u operands but %u types",
                                  operands.count, types.count);
    }
    for (uint32_t i = 0; i < operands.count; ++i) {
      GRT_RETURN_IF_ERROR(grtc_check_value_type(
          parser, &((const grtc_token_t*)uses.data)[i],
          ((grtc_value_t**)operands.data)[i], ((const grtc_type_t**)types.data)[i]));
    }
    successor.operand_count = operands.count;
    successor.operands = operands.data;
  }
  return grtc_parser_push(parser, &state->successors, &successor, sizeof(successor));
}

grt_status_t grtc_parser_parse_branch(grtc_parser_t* parser,
                                      grtc_op_state_t* state,
                                      bool conditional) {
  if (conditional) {
    grtc_value_t* value = NULL;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_operand(parser, &value));
    GRT_RETURN_IF_ERROR(grt_arena_vec_push(grtc_parser_arena(parser),
                                           &state->operands, &value,
                                           sizeof(value)));
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COMMA,
                                           "after the branch condition"));
  }
  GRT_RETURN_IF_ERROR(grtc_parser_parse_successor(parser, state));
  if (conditional) {
    GRT_RETURN_IF_ERROR(grtc_parser_expect(
        parser, GRTC_TOKEN_COMMA, "between the true and false targets"));
    GRT_RETURN_IF_ERROR(grtc_parser_parse_successor(parser, state));
  }
  return grtc_parser_parse_optional_attribute_dict(parser, &state->attributes);
}

static grt_status_t grtc_parse_operation(grtc_parser_t* parser,
                                         grtc_block_t* block);

static bool grtc_at_block_end(const grtc_parser_t* parser) {
  return grtc_parser_at(parser, GRTC_TOKEN_CARET_ID) ||
         grtc_parser_at(parser, GRTC_TOKEN_RBRACE) ||
         grtc_parser_at(parser, GRTC_TOKEN_EOF);
}

static grt_status_t grtc_parse_block_ops(grtc_parser_t* parser,
                                         grtc_block_t* block) {
  while (!grtc_at_block_end(parser)) {
    GRT_RETURN_IF_ERROR(grtc_parse_operation(parser, block));
  }
  return grt_ok_status();
}

static grt_status_t grtc_set_block_args(grtc_parser_t* parser,
                                        grtc_block_t* block,
                                        const grtc_argument_decl_t* args,
                                        uint32_t count) {
  block->arg_count = count;
  block->args = grt_arena_alloc_zeroed(parser->arena,
                                 (count ? count : 1) * sizeof(grtc_value_t));
  if (!block->args) return grtc_parser_oom(parser);
  for (uint32_t i = 0; i < count; ++i) {
    grtc_value_t* value = &block->args[i];
    value->type = args[i].type;
    value->owner_block = block;
    value->index = i;
    value->name = args[i].name.text;
    value->location = args[i].location;
    GRT_RETURN_IF_ERROR(grtc_define_values(parser, &args[i].name, value, 1));
  }
  return grt_ok_status();
}

static void grtc_append_block(grtc_region_t* region, grtc_block_t* block) {
  block->parent = region;
  if (region->last) {
    region->last->next = block;
  } else {
    region->first = block;
  }
  region->last = block;
  region->block_count++;
}

// ^label(%a : t loc(...), ...):
static grt_status_t grtc_parse_block_header(grtc_parser_t* parser,
                                            grtc_block_t** out_block) {
  grtc_token_t label = parser->token;
  grtc_name_entry_t* entry = NULL;
  GRT_RETURN_IF_ERROR(grtc_lookup_block(parser, &label, &entry));
  if (entry->defined) {
    return grtc_parser_error_at(parser, &label, "redefinition of block '%.*s'",
                                GRT_SV_ARG(label.text));
  }
  entry->defined = true;
  grtc_block_t* block = entry->block;
  block->label = label.text;
  GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
  grt_arena_vec_t args = {0};
  bool has_args = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LPAREN, &has_args));
  bool done = has_args && grtc_parser_at(parser, GRTC_TOKEN_RPAREN);
  while (has_args && !done) {
    grtc_argument_decl_t arg;
    memset(&arg, 0, sizeof(arg));
    arg.name = parser->token;
    if (arg.name.kind != GRTC_TOKEN_PERCENT_ID ||
        memchr(arg.name.text.data, '#', arg.name.text.size)) {
      return grtc_parser_error_expected(parser, "a block argument name (%name)");
    }
    GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON,
                                           "after a block argument name"));
    GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &arg.type));
    GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_location(parser, &arg.location));
    GRT_RETURN_IF_ERROR(grtc_parser_push(parser, &args, &arg, sizeof(arg)));
    bool comma = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
    done = !comma;
  }
  if (has_args) {
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RPAREN,
                                           "to close the block arguments"));
  }
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON,
                                         "after a block label"));
  GRT_RETURN_IF_ERROR(grtc_set_block_args(parser, block, args.data, args.count));
  *out_block = block;
  return grt_ok_status();
}

grt_status_t grtc_parser_parse_region(grtc_parser_t* parser,
                                      const grtc_argument_decl_t* entry_args,
                                      uint32_t entry_arg_count,
                                      grtc_region_t** out_region) {
  GRT_RETURN_IF_ERROR(grtc_parser_enter(parser));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LBRACE,
                                         "to open a region"));
  grtc_region_t* region;
  GRTC_NEW(parser, grtc_region_t, region);
  grtc_region_t* outer_region = parser->region;
  uint32_t mark = parser->names.log.count;
  parser->region = region;
  if (entry_args && grtc_parser_at(parser, GRTC_TOKEN_CARET_ID)) {
    return grtc_parser_error(parser, "the entry block of a region with named "
                             "arguments cannot have a label");
  }
  if (entry_args || !grtc_at_block_end(parser)) {
    grtc_block_t* entry = grtc_new_block(parser);
    if (!entry) return grtc_parser_oom(parser);
    grtc_append_block(region, entry);
    GRT_RETURN_IF_ERROR(
        grtc_set_block_args(parser, entry, entry_args, entry_arg_count));
    GRT_RETURN_IF_ERROR(grtc_parse_block_ops(parser, entry));
  }
  while (grtc_parser_at(parser, GRTC_TOKEN_CARET_ID)) {
    grtc_block_t* block = NULL;
    GRT_RETURN_IF_ERROR(grtc_parse_block_header(parser, &block));
    grtc_append_block(region, block);
    GRT_RETURN_IF_ERROR(grtc_parse_block_ops(parser, block));
  }
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RBRACE,
                                         "to close a region"));
  grtc_name_entry_t** log = parser->names.log.data;
  for (uint32_t i = mark; i < parser->names.log.count; ++i) {
    if (log[i]->block && !log[i]->defined && log[i]->region == region) {
      return grtc_parser_error_at(parser, &log[i]->first_use,
                                  "reference to undefined block '%.*s'",
                                  GRT_SV_ARG(log[i]->key));
    }
  }
  grtc_names_pop_to(&parser->names, mark);
  parser->region = outer_region;
  parser->depth--;
  *out_region = region;
  return grt_ok_status();
}

static grt_status_t grtc_parse_operand_list(grtc_parser_t* parser,
                                            grtc_token_kind_t close,
                                            grt_arena_vec_t* operands) {
  bool done = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, close, &done));
  while (!done) {
    grtc_value_t* value = NULL;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_operand(parser, &value));
    GRT_RETURN_IF_ERROR(grtc_parser_push(parser, operands, &value, sizeof(value)));
    bool comma = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
    if (!comma) {
      GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, close,
                                             "to close the operand list"));
      done = true;
    }
  }
  return grt_ok_status();
}

// "dialect.op"(operands)[successors] <{properties}> ({regions}) {attrs}
//     : (input types) -> result types
static grt_status_t grtc_parse_generic_body(grtc_parser_t* parser,
                                            grtc_op_state_t* state) {
  grtc_token_t open = parser->token;
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LPAREN,
                                         "after the operation name"));
  GRT_RETURN_IF_ERROR(grtc_parse_operand_list(parser, GRTC_TOKEN_RPAREN, &state->operands));
  bool has = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LSQUARE, &has));
  while (has) {
    GRT_RETURN_IF_ERROR(grtc_parser_parse_successor(parser, state));
    bool comma = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
    if (!comma) {
      GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RSQUARE,
                                             "to close the successor list"));
      has = false;
    }
  }
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LESS, &has));
  if (has) {
    grt_arena_vec_t entries = {0};
    GRT_RETURN_IF_ERROR(grtc_parser_parse_attribute_dict(parser, &entries));
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_GREATER,
                                           "to close the properties"));
    grtc_attribute_t* properties = grtc_new_attribute(parser, GRTC_ATTR_DICTIONARY);
    if (!properties) return grtc_parser_oom(parser);
    properties->dictionary.count = entries.count;
    properties->dictionary.entries = entries.data;
    state->properties = properties;
  }
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LPAREN, &has));
  while (has) {
    grtc_region_t* region = NULL;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_region(parser, NULL, 0, &region));
    GRT_RETURN_IF_ERROR(grtc_parser_push(parser, &state->regions, &region, sizeof(region)));
    bool comma = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
    if (!comma) {
      GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RPAREN,
                                             "to close the region list"));
      has = false;
    }
  }
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON,
                                         "and the operation's function type"));
  grtc_token_t type_token = parser->token;
  const grtc_type_t* type = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
  if (type->kind != GRTC_TYPE_FUNCTION) {
    return grtc_parser_error_at(parser, &type_token,
                                "expected a function type (inputs) -> results "
                                "after the generic operation");
  }
  if (type->function.input_count != state->operands.count) {
    return grtc_parser_error_at(parser, &type_token,
                                "operation has %u operands but its type lists "
                                "%u inputs",
                                state->operands.count, type->function.input_count);
  }
  grtc_value_t** operands = state->operands.data;
  for (uint32_t i = 0; i < state->operands.count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_check_value_type(parser, &open, operands[i],
                                              type->function.types[i]));
  }
  for (uint32_t i = 0; i < type->function.result_count; ++i) {
    const grtc_type_t* result = type->function.types[type->function.input_count + i];
    GRT_RETURN_IF_ERROR(grtc_parser_push(parser, &state->result_types, &result,
                                         sizeof(result)));
  }
  return grt_ok_status();
}

static bool grtc_syntax_matches(const char* pattern, grt_string_view_t name,
                                size_t* out_length) {
  size_t length = strlen(pattern);
  if (length && pattern[length - 1] == '*') {
    --length;
    *out_length = length;
    return name.size > length && memcmp(name.data, pattern, length) == 0;
  }
  *out_length = SIZE_MAX;  // exact matches beat every pattern
  return grt_string_view_equal_cstring(name, pattern);
}

static const grtc_op_syntax_t* grtc_find_syntax(const grtc_parser_t* parser,
                                                grt_string_view_t name) {
  const grtc_op_syntax_t* best = NULL;
  size_t best_length = 0;
  for (size_t d = 0; d <= parser->dialect_count; ++d) {
    const grtc_dialect_syntax_t* dialect =
        d == 0 ? &grtc_builtin_dialect_syntax : parser->dialects[d - 1];
    const grtc_op_syntax_t* ops = dialect->ops;
    size_t count = dialect->count;
    for (size_t i = 0; i < count; ++i) {
      size_t length = 0;
      if (grtc_syntax_matches(ops[i].name, name, &length) &&
          (!best || length > best_length)) {
        best = &ops[i];
        best_length = length;
      }
    }
  }
  return best;
}

typedef struct grtc_result_binding_t {
  grtc_token_t name;
  uint32_t count;
} grtc_result_binding_t;

static grt_status_t grtc_parse_result_bindings(grtc_parser_t* parser,
                                               grt_arena_vec_t* bindings,
                                               uint32_t* out_total) {
  *out_total = 0;
  if (!grtc_parser_at(parser, GRTC_TOKEN_PERCENT_ID)) return grt_ok_status();
  for (;;) {
    grtc_result_binding_t binding = {parser->token, 1};
    if (binding.name.kind != GRTC_TOKEN_PERCENT_ID ||
        memchr(binding.name.text.data, '#', binding.name.text.size)) {
      return grtc_parser_error_expected(parser, "a result name (%name)");
    }
    GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
    bool group = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COLON, &group));
    if (group) {
      uint64_t count = 0;
      if (!grtc_parser_at(parser, GRTC_TOKEN_INTEGER)) {
        return grtc_parser_error_expected(parser, "a result count after ':'");
      }
      GRT_RETURN_IF_ERROR(grtc_parse_u64(parser, &parser->token, &count));
      if (count == 0 || count > 65535) {
        return grtc_parser_error(parser, "result count must be 1 to 65535, "
                                 "found %llu", (unsigned long long)count);
      }
      binding.count = (uint32_t)count;
      GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
    }
    *out_total += binding.count;
    GRT_RETURN_IF_ERROR(grtc_parser_push(parser, bindings, &binding, sizeof(binding)));
    bool comma = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
    if (!comma) break;
  }
  return grtc_parser_expect(parser, GRTC_TOKEN_EQUAL, "after the result names");
}

// |name| with a registered dialect's alias prefix replaced by its
// canonical prefix (grtc_dialect_syntax_t); |name| itself otherwise.
static grt_status_t grtc_canonical_op_name(grtc_parser_t* parser, grt_string_view_t name,
                                           grt_string_view_t* out) {
  *out = name;
  for (size_t d = 0; d < parser->dialect_count; ++d) {
    const grtc_dialect_syntax_t* dialect = parser->dialects[d];
    if (!dialect->alias_prefix) continue;
    size_t alias = strlen(dialect->alias_prefix);
    if (name.size <= alias || memcmp(name.data, dialect->alias_prefix, alias) != 0) continue;
    size_t canonical = strlen(dialect->canonical_prefix);
    size_t size = canonical + name.size - alias;
    char* full = grt_arena_alloc_zeroed(parser->arena, size + 1);
    if (!full) return grtc_parser_oom(parser);
    memcpy(full, dialect->canonical_prefix, canonical);
    memcpy(full + canonical, name.data + alias, name.size - alias);
    *out = grt_make_string_view(full, size);
    return grt_ok_status();
  }
  return grt_ok_status();
}

static grt_status_t grtc_parse_custom_op(grtc_parser_t* parser,
                                         grtc_op_state_t* state) {
  grtc_token_t name_token = parser->token;
  grt_string_view_t name = name_token.text;
  GRT_RETURN_IF_ERROR(grtc_canonical_op_name(parser, name, &name));
  const grtc_op_syntax_t* syntax = grtc_find_syntax(parser, name);
  if (!syntax && parser->default_dialect && !memchr(name.data, '.', name.size)) {
    size_t prefix = strlen(parser->default_dialect);
    char* full = grt_arena_alloc_zeroed(parser->arena, prefix + 1 + name.size + 1);
    if (!full) return grtc_parser_oom(parser);
    memcpy(full, parser->default_dialect, prefix);
    full[prefix] = '.';
    memcpy(full + prefix + 1, name.data, name.size);
    name = grt_make_string_view(full, prefix + 1 + name.size);
    syntax = grtc_find_syntax(parser, name);
  }
  if (!syntax) {
    return grtc_parser_error_at(parser, &name_token,
                                "unknown operation '%.*s' (no pretty form is "
                                "registered for it; the generic form "
                                "\"%.*s\"(...) : (...) -> (...) is always "
                                "accepted)",
                                GRT_SV_ARG(name_token.text),
                                GRT_SV_ARG(name_token.text));
  }
  state->name = syntax->canonical_name ? grt_make_cstring_view(syntax->canonical_name)
                                       : name;
  GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
  const char* outer_dialect = parser->default_dialect;
  if (syntax->default_dialect) parser->default_dialect = syntax->default_dialect;
  grt_status_t status = syntax->parse(parser, syntax, state);
  parser->default_dialect = outer_dialect;
  return status;
}

static grt_status_t grtc_parse_operation(grtc_parser_t* parser,
                                         grtc_block_t* block) {
  GRT_RETURN_IF_ERROR(grtc_parser_enter(parser));
  grt_arena_vec_t bindings = {0};
  grtc_op_state_t state;
  memset(&state, 0, sizeof(state));
  grtc_token_t first = parser->token;
  GRT_RETURN_IF_ERROR(
      grtc_parse_result_bindings(parser, &bindings, &state.bound_result_count));
  grtc_token_t name_token = parser->token;
  state.name_line = name_token.line;
  state.name_column = name_token.column;
  if (name_token.kind == GRTC_TOKEN_STRING) {
    GRT_RETURN_IF_ERROR(grtc_parser_parse_string(parser, &state.name));
    if (state.name.size == 0) {
      return grtc_parser_error_at(parser, &name_token, "empty operation name");
    }
    GRT_RETURN_IF_ERROR(grtc_canonical_op_name(parser, state.name, &state.name));
    GRT_RETURN_IF_ERROR(grtc_parse_generic_body(parser, &state));
  } else if (name_token.kind == GRTC_TOKEN_BARE_ID) {
    GRT_RETURN_IF_ERROR(grtc_parse_custom_op(parser, &state));
  } else {
    return grtc_parser_error_expected(parser, "an operation");
  }
  const grtc_location_t* location = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_location(parser, &location));
  if (state.result_types.count != state.bound_result_count) {
    return grtc_parser_error_at(parser, &first,
                                "'%.*s' produces %u result%s but %u %s bound",
                                GRT_SV_ARG(state.name), state.result_types.count,
                                state.result_types.count == 1 ? "" : "s",
                                state.bound_result_count,
                                state.bound_result_count == 1 ? "is" : "are");
  }
  grtc_operation_t* op;
  GRTC_NEW(parser, grtc_operation_t, op);
  op->name = state.name;
  op->location = location;
  op->line = name_token.line;
  op->column = name_token.column;
  op->operand_count = state.operands.count;
  op->operands = state.operands.data;
  op->attribute_count = state.attributes.count;
  op->attributes = state.attributes.data;
  op->properties = state.properties;
  op->successor_count = state.successors.count;
  op->successors = state.successors.data;
  op->region_count = state.regions.count;
  op->regions = state.regions.data;
  for (uint32_t i = 0; i < op->region_count; ++i) op->regions[i]->parent = op;
  op->result_count = state.result_types.count;
  op->results = grt_arena_alloc_zeroed(
      parser->arena, (op->result_count ? op->result_count : 1) * sizeof(grtc_value_t));
  if (!op->results) return grtc_parser_oom(parser);
  const grtc_type_t** types = state.result_types.data;
  const grtc_result_binding_t* binding = bindings.data;
  uint32_t next = 0;
  for (uint32_t b = 0; b < bindings.count; ++b) {
    for (uint32_t i = 0; i < binding[b].count; ++i) {
      grtc_value_t* value = &op->results[next + i];
      value->type = types[next + i];
      value->defining_op = op;
      value->index = next + i;
      value->name = binding[b].name.text;
    }
    GRT_RETURN_IF_ERROR(grtc_define_values(parser, &binding[b].name,
                                           &op->results[next], binding[b].count));
    next += binding[b].count;
  }
  op->parent = block;
  if (block->last) {
    block->last->next = op;
  } else {
    block->first = op;
  }
  block->last = op;
  parser->depth--;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Top level
//===----------------------------------------------------------------------===//

// #name = attribute | loc(...), !name = type
static grt_status_t grtc_parse_alias_definition(grtc_parser_t* parser) {
  grtc_token_t name = parser->token;
  GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_EQUAL,
                                         "after an alias name at the top level"));
  grtc_name_entry_t* existing = grtc_names_lookup(&parser->aliases, name.text);
  if (existing) {
    return grtc_parser_error_at(parser, &name, "redefinition of alias '%.*s'",
                                GRT_SV_ARG(name.text));
  }
  grtc_name_entry_t* entry = NULL;
  GRT_RETURN_IF_ERROR(grtc_names_insert(parser, &parser->aliases, name.text, &entry));
  if (name.kind == GRTC_TOKEN_EXCLAIM_ID) {
    return grtc_parser_parse_type(parser, &entry->type);
  }
  if (grtc_parser_at_keyword(parser, "loc")) {
    return grtc_parse_location(parser, &entry->location);
  }
  return grtc_parser_parse_attribute(parser, &entry->attribute);
}

static grt_status_t grtc_parse_top_level(grtc_parser_t* parser) {
  grtc_region_t* region;
  GRTC_NEW(parser, grtc_region_t, region);
  grtc_block_t* body = grtc_new_block(parser);
  if (!body) return grtc_parser_oom(parser);
  grtc_append_block(region, body);
  parser->module->body = body;
  GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
  while (!grtc_parser_at(parser, GRTC_TOKEN_EOF)) {
    if ((grtc_parser_at(parser, GRTC_TOKEN_HASH_ID) ||
         grtc_parser_at(parser, GRTC_TOKEN_EXCLAIM_ID))) {
      GRT_RETURN_IF_ERROR(grtc_parse_alias_definition(parser));
    } else if (grtc_parser_at(parser, GRTC_TOKEN_FILE_METADATA_BEGIN)) {
      // {-# dialect_resources ... #-}: resource blobs are not used yet, so
      // the section is skipped as a whole.
      while (!grtc_parser_at(parser, GRTC_TOKEN_FILE_METADATA_END)) {
        if (grtc_parser_at(parser, GRTC_TOKEN_EOF)) {
          return grtc_parser_error_expected(parser, "'#-}' to close '{-#'");
        }
        GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
      }
      GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
    } else if (grtc_parser_at(parser, GRTC_TOKEN_CARET_ID) ||
               grtc_parser_at(parser, GRTC_TOKEN_RBRACE)) {
      return grtc_parser_error_expected(parser, "an operation at the top level");
    } else {
      GRT_RETURN_IF_ERROR(grtc_parse_operation(parser, body));
    }
  }
  return grtc_resolve_location_aliases(parser);
}

grt_status_t grtc_parse_source(grt_string_view_t source, const char* file_name,
                               const grtc_parse_options_t* options,
                               grt_allocator_t allocator,
                               grtc_module_t** out_module) {
  *out_module = NULL;
  grt_arena_t arena;
  grt_arena_init(allocator, 0, &arena);
  grtc_module_t* module = grt_arena_alloc_zeroed(&arena, sizeof(*module));
  const char* name = file_name ? file_name : "<input>";
  char* name_copy = module ? grt_arena_strndup(&arena, name, strlen(name)) : NULL;
  char* text = name_copy ? grt_arena_strndup(&arena, source.data, source.size) : NULL;
  if (!text) {
    grt_arena_deinit(&arena);
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory copying %zu bytes of source",
                           source.size);
  }
  module->file_name = name_copy;
  module->source = grt_make_string_view(text, source.size);
  grtc_parser_t* parser = grt_arena_alloc_zeroed(&arena, sizeof(*parser));
  if (!parser) {
    grt_arena_deinit(&arena);
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  parser->module = module;
  grtc_lexer_initialize(module->source, module->file_name, &parser->lexer);
  if (options) {
    parser->dialects = options->dialects;
    parser->dialect_count = options->dialect_count;
  }
  // The arena moves into the module last so allocations made while parsing
  // land in the copy the module keeps.
  module->arena = arena;
  parser->arena = &module->arena;
  grt_status_t status = grtc_parse_top_level(parser);
  if (!grt_status_is_ok(status)) {
    grtc_module_destroy(module);
    return status;
  }
  *out_module = module;
  return grt_ok_status();
}

grt_status_t grtc_parse_file(const char* path,
                             const grtc_parse_options_t* options,
                             grt_allocator_t allocator,
                             grtc_module_t** out_module) {
  grt_file_contents_t contents;
  grt_status_t status = grt_file_read_contents_bounded(
      path, GRTC_MAX_SOURCE_STREAM_SIZE, allocator, &contents);
  if (grt_status_code(status) == GRT_STATUS_OUT_OF_RANGE) {
    return grt_status_annotate(status,
                               "MLIR read from a pipe or device may hold at "
                               "most %zu bytes (256 MiB)",
                               GRTC_MAX_SOURCE_STREAM_SIZE);
  }
  GRT_RETURN_IF_ERROR(status);
  status = grtc_parse_source(
      grt_make_string_view(contents.data, contents.size), path, options,
      allocator, out_module);
  grt_file_contents_free(&contents);
  return status;
}
