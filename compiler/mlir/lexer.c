#include "compiler/mlir/lexer.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char* const grtc_token_spellings[] = {
#define GRTC_TOKEN_SPELLING(name, spelling) spelling,
    GRTC_TOKEN_LIST(GRTC_TOKEN_SPELLING)
#undef GRTC_TOKEN_SPELLING
};

const char* grtc_token_kind_spelling(grtc_token_kind_t kind) {
  if ((unsigned)kind >= GRTC_TOKEN_KIND_COUNT) return "token";
  return grtc_token_spellings[kind];
}

void grtc_lexer_initialize(grt_string_view_t source, const char* file_name,
                           grtc_lexer_t* out_lexer) {
  memset(out_lexer, 0, sizeof(*out_lexer));
  out_lexer->file_name = file_name ? file_name : "<input>";
  out_lexer->begin = source.data;
  out_lexer->end = source.data + source.size;
  out_lexer->cursor = source.data;
  out_lexer->line_start = source.data;
  out_lexer->line = 1;
}

grt_status_t grtc_lexer_error(const grtc_lexer_t* lexer, uint32_t line,
                              uint32_t column, const char* format, ...) {
  char message[512];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT, "%s:%u:%u: error: %s",
                         lexer->file_name, line, column, message);
}

void grtc_lexer_seek(grtc_lexer_t* lexer, const char* position) {
  for (const char* p = lexer->cursor; p < position; ++p) {
    if (*p == '\n') {
      lexer->line++;
      lexer->line_start = p + 1;
    }
  }
  lexer->cursor = position;
}

static bool grtc_is_digit(char c) { return c >= '0' && c <= '9'; }
static bool grtc_is_hex_digit(char c) {
  return grtc_is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static bool grtc_is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static bool grtc_is_bare_id_char(char c) {
  return grtc_is_letter(c) || grtc_is_digit(c) || c == '_' || c == '$' ||
         c == '.';
}
static bool grtc_is_suffix_id_char(char c) {
  return grtc_is_bare_id_char(c) || c == '-';
}

// Skips whitespace and // comments.
static void grtc_lexer_skip_trivia(grtc_lexer_t* lexer) {
  while (lexer->cursor < lexer->end) {
    char c = *lexer->cursor;
    if (c == '\n') {
      lexer->cursor++;
      lexer->line++;
      lexer->line_start = lexer->cursor;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      lexer->cursor++;
    } else if (c == '/' && lexer->cursor + 1 < lexer->end &&
               lexer->cursor[1] == '/') {
      while (lexer->cursor < lexer->end && *lexer->cursor != '\n') {
        lexer->cursor++;
      }
    } else {
      break;
    }
  }
}

static grt_status_t grtc_lexer_string(grtc_lexer_t* lexer,
                                      grtc_token_t* token) {
  const char* p = lexer->cursor + 1;
  while (p < lexer->end) {
    char c = *p;
    if (c == '"') {
      lexer->cursor = p + 1;
      token->kind = GRTC_TOKEN_STRING;
      return grt_ok_status();
    }
    if (c == '\n') break;
    if (c == '\\') {
      if (p + 1 >= lexer->end) break;
      char e = p[1];
      if (e == '"' || e == '\\' || e == 'n' || e == 't') {
        p += 2;
      } else if (p + 2 < lexer->end && grtc_is_hex_digit(e) &&
                 grtc_is_hex_digit(p[2])) {
        p += 3;
      } else {
        return grtc_lexer_error(
            lexer, lexer->line, (uint32_t)(p - lexer->line_start) + 1,
            "unknown escape '\\%c' in string (expected \\n, \\t, \\\", \\\\ or "
            "two hex digits)",
            e >= 32 && e < 127 ? e : '?');
      }
    } else {
      ++p;
    }
  }
  return grtc_lexer_error(lexer, token->line, token->column,
                          "unterminated string: expected '\"' before the end "
                          "of the line");
}

static void grtc_lexer_number(grtc_lexer_t* lexer, grtc_token_t* token) {
  const char* p = lexer->cursor;
  if (p[0] == '0' && p + 2 < lexer->end + 0 && (p[1] == 'x') &&
      grtc_is_hex_digit(p[2])) {
    p += 2;
    while (p < lexer->end && grtc_is_hex_digit(*p)) ++p;
    lexer->cursor = p;
    token->kind = GRTC_TOKEN_INTEGER;
    return;
  }
  while (p < lexer->end && grtc_is_digit(*p)) ++p;
  token->kind = GRTC_TOKEN_INTEGER;
  if (p < lexer->end && *p == '.') {
    token->kind = GRTC_TOKEN_FLOAT;
    ++p;
    while (p < lexer->end && grtc_is_digit(*p)) ++p;
    if (p < lexer->end && (*p == 'e' || *p == 'E')) {
      const char* exponent = p + 1;
      if (exponent < lexer->end && (*exponent == '+' || *exponent == '-')) {
        ++exponent;
      }
      if (exponent < lexer->end && grtc_is_digit(*exponent)) {
        p = exponent;
        while (p < lexer->end && grtc_is_digit(*p)) ++p;
      }
    }
  }
  lexer->cursor = p;
}

grt_status_t grtc_lexer_next(grtc_lexer_t* lexer, grtc_token_t* out_token) {
  grtc_lexer_skip_trivia(lexer);
  grtc_token_t token;
  token.line = lexer->line;
  token.column = (uint32_t)(lexer->cursor - lexer->line_start) + 1;
  const char* start = lexer->cursor;
  token.kind = GRTC_TOKEN_EOF;
  if (start >= lexer->end) {
    token.text = grt_make_string_view(start, 0);
    *out_token = token;
    return grt_ok_status();
  }
  const char* end = lexer->end;
  char c = *start;
  const char* next = start + 1;
  bool has_next = next < end;
  switch (c) {
    case '(': token.kind = GRTC_TOKEN_LPAREN; break;
    case ')': token.kind = GRTC_TOKEN_RPAREN; break;
    case '[': token.kind = GRTC_TOKEN_LSQUARE; break;
    case ']': token.kind = GRTC_TOKEN_RSQUARE; break;
    case '}': token.kind = GRTC_TOKEN_RBRACE; break;
    case '<': token.kind = GRTC_TOKEN_LESS; break;
    case '>': token.kind = GRTC_TOKEN_GREATER; break;
    case ',': token.kind = GRTC_TOKEN_COMMA; break;
    case '=': token.kind = GRTC_TOKEN_EQUAL; break;
    case '?': token.kind = GRTC_TOKEN_QUESTION; break;
    case '*': token.kind = GRTC_TOKEN_STAR; break;
    case '+': token.kind = GRTC_TOKEN_PLUS; break;
    case '|': token.kind = GRTC_TOKEN_VERTICAL_BAR; break;
    case '{':
      token.kind = GRTC_TOKEN_LBRACE;
      if (end - start >= 3 && start[1] == '-' && start[2] == '#') {
        token.kind = GRTC_TOKEN_FILE_METADATA_BEGIN;
        next = start + 3;
      }
      break;
    case ':':
      token.kind = GRTC_TOKEN_COLON;
      if (has_next && *next == ':') {
        token.kind = GRTC_TOKEN_COLON_COLON;
        ++next;
      }
      break;
    case '-':
      token.kind = GRTC_TOKEN_MINUS;
      if (has_next && *next == '>') {
        token.kind = GRTC_TOKEN_ARROW;
        ++next;
      }
      break;
    case '.':
      if (end - start >= 3 && start[1] == '.' && start[2] == '.') {
        token.kind = GRTC_TOKEN_ELLIPSIS;
        next = start + 3;
        break;
      }
      return grtc_lexer_error(lexer, token.line, token.column,
                              "unexpected '.' (expected '...' or a number)");
    case '"':
      GRT_RETURN_IF_ERROR(grtc_lexer_string(lexer, &token));
      next = lexer->cursor;
      break;
    case '%': case '^': case '@': case '#': case '!': {
      static const struct {
        char sigil;
        grtc_token_kind_t kind;
        const char* what;
      } sigils[] = {
          {'%', GRTC_TOKEN_PERCENT_ID, "an SSA value name"},
          {'^', GRTC_TOKEN_CARET_ID, "a block label"},
          {'@', GRTC_TOKEN_AT_ID, "a symbol name"},
          {'#', GRTC_TOKEN_HASH_ID, "an attribute name"},
          {'!', GRTC_TOKEN_EXCLAIM_ID, "a type name"},
      };
      size_t i = 0;
      while (sigils[i].sigil != c) ++i;
      token.kind = sigils[i].kind;
      if (c == '#' && end - start >= 3 && start[1] == '-' && start[2] == '}') {
        token.kind = GRTC_TOKEN_FILE_METADATA_END;
        next = start + 3;
        break;
      }
      if (c == '@' && has_next && *next == '"') {
        lexer->cursor = next;
        GRT_RETURN_IF_ERROR(grtc_lexer_string(lexer, &token));
        token.kind = GRTC_TOKEN_AT_ID;
        next = lexer->cursor;
        break;
      }
      const char* p = next;
      while (p < end && grtc_is_suffix_id_char(*p)) ++p;
      if (p == next) {
        return grtc_lexer_error(lexer, token.line, token.column,
                                "expected %s after '%c'", sigils[i].what, c);
      }
      // %name#3 names one result of a multi-result group.
      if (c == '%' && p + 1 < end && *p == '#' && grtc_is_digit(p[1])) {
        ++p;
        while (p < end && grtc_is_digit(*p)) ++p;
      }
      next = p;
      break;
    }
    default:
      if (grtc_is_digit(c)) {
        grtc_lexer_number(lexer, &token);
        next = lexer->cursor;
      } else if (grtc_is_letter(c) || c == '_') {
        const char* p = next;
        while (p < end && grtc_is_bare_id_char(*p)) ++p;
        token.kind = GRTC_TOKEN_BARE_ID;
        next = p;
      } else if ((unsigned char)c >= 32 && (unsigned char)c < 127) {
        return grtc_lexer_error(lexer, token.line, token.column,
                                "unexpected character '%c'", c);
      } else {
        return grtc_lexer_error(lexer, token.line, token.column,
                                "unexpected byte 0x%02X", (unsigned char)c);
      }
      break;
  }
  lexer->cursor = next;
  token.text = grt_make_string_view(start, (size_t)(next - start));
  *out_token = token;
  return grt_ok_status();
}

static int grtc_hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

grt_status_t grtc_lexer_decode_string(const grtc_lexer_t* lexer,
                                      const grtc_token_t* token,
                                      grt_arena_t* arena,
                                      grt_string_view_t* out_value) {
  // The token was validated when lexed; the quotes may follow a '@'.
  const char* p = memchr(token->text.data, '"', token->text.size);
  const char* end = token->text.data + token->text.size - 1;
  char* out = grt_arena_alloc_zeroed(arena, token->text.size);
  if (!out || !p) {
    return grtc_lexer_error(lexer, token->line, token->column,
                            "out of memory decoding a string");
  }
  size_t length = 0;
  for (++p; p < end; ++p) {
    if (*p != '\\') {
      out[length++] = *p;
      continue;
    }
    char e = *++p;
    switch (e) {
      case 'n': out[length++] = '\n'; break;
      case 't': out[length++] = '\t'; break;
      case '"': case '\\': out[length++] = e; break;
      default:
        out[length++] = (char)(grtc_hex_value(e) * 16 + grtc_hex_value(p[1]));
        ++p;
        break;
    }
  }
  out[length] = 0;
  *out_value = grt_make_string_view(out, length);
  return grt_ok_status();
}
