// Lexer: MLIR source text to tokens, each with its file:line:col.
//
// Tokens are views into the source; nothing is decoded here except what is
// needed to find a token's end (string escapes are decoded on demand by
// grtc_lexer_decode_string). The parser drives the lexer one token at a time
// and may move it (grtc_lexer_seek) where MLIR's grammar is not context
// free: the 'x' separators inside shapes (4x?xf32) and the raw bodies of
// opaque dialect attributes and types (#stablehlo<...>).
#ifndef GRT_COMPILER_MLIR_LEXER_H_
#define GRT_COMPILER_MLIR_LEXER_H_

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "base/string_view.h"
#include "base/arena.h"

#ifdef __cplusplus
extern "C" {
#endif

// X(NAME, spelling used in diagnostics)
#define GRTC_TOKEN_LIST(X)                      \
  X(EOF, "end of file")                         \
  X(BARE_ID, "identifier")                      \
  X(PERCENT_ID, "SSA value")                    \
  X(CARET_ID, "block label")                    \
  X(AT_ID, "symbol")                            \
  X(HASH_ID, "attribute alias")                 \
  X(EXCLAIM_ID, "dialect type")                 \
  X(INTEGER, "integer")                         \
  X(FLOAT, "float")                             \
  X(STRING, "string")                           \
  X(LPAREN, "'('")                              \
  X(RPAREN, "')'")                              \
  X(LSQUARE, "'['")                             \
  X(RSQUARE, "']'")                             \
  X(LBRACE, "'{'")                              \
  X(RBRACE, "'}'")                              \
  X(LESS, "'<'")                                \
  X(GREATER, "'>'")                             \
  X(COMMA, "','")                               \
  X(COLON, "':'")                               \
  X(COLON_COLON, "'::'")                        \
  X(EQUAL, "'='")                               \
  X(ARROW, "'->'")                              \
  X(ELLIPSIS, "'...'")                          \
  X(QUESTION, "'?'")                            \
  X(STAR, "'*'")                                \
  X(PLUS, "'+'")                                \
  X(MINUS, "'-'")                               \
  X(VERTICAL_BAR, "'|'")                        \
  X(FILE_METADATA_BEGIN, "'{-#'")               \
  X(FILE_METADATA_END, "'#-}'")

typedef enum grtc_token_kind_e {
#define GRTC_TOKEN_ENUM(name, spelling) GRTC_TOKEN_##name,
  GRTC_TOKEN_LIST(GRTC_TOKEN_ENUM)
#undef GRTC_TOKEN_ENUM
  GRTC_TOKEN_KIND_COUNT
} grtc_token_kind_t;

typedef struct grtc_token_t {
  grtc_token_kind_t kind;
  grt_string_view_t text;  // the exact source spelling, quotes and sigils kept
  uint32_t line;           // 1-based
  uint32_t column;         // 1-based, in bytes
} grtc_token_t;

typedef struct grtc_lexer_t {
  const char* file_name;
  const char* begin;
  const char* end;
  const char* cursor;
  const char* line_start;
  uint32_t line;
} grtc_lexer_t;

// |source| must outlive the lexer and every token it returns.
void grtc_lexer_initialize(grt_string_view_t source, const char* file_name,
                           grtc_lexer_t* out_lexer);

// Lexes the next token. Malformed input (an unterminated string, a stray
// character, a sigil with no name) is an error naming file:line:col.
grt_status_t grtc_lexer_next(grtc_lexer_t* lexer, grtc_token_t* out_token)
    GRT_MUST_USE;

// Moves the lexer to |position|, which must lie in the source and, when it
// is before the cursor, on the cursor's line.
void grtc_lexer_seek(grtc_lexer_t* lexer, const char* position);

// Printable name of a token kind for "expected X" messages.
const char* grtc_token_kind_spelling(grtc_token_kind_t kind);

// Decodes a STRING token (\n \t \" \\ and \XX hex escapes) into the arena.
// The result is NUL-terminated (not counted in its size).
grt_status_t grtc_lexer_decode_string(const grtc_lexer_t* lexer,
                                      const grtc_token_t* token,
                                      grt_arena_t* arena,
                                      grt_string_view_t* out_value)
    GRT_MUST_USE;

// Builds "file:line:col: error: <message>" as an INVALID_ARGUMENT status.
grt_status_t grtc_lexer_error(const grtc_lexer_t* lexer, uint32_t line,
                              uint32_t column, const char* format, ...)
    GRT_PRINTF_LIKE(4, 5) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_MLIR_LEXER_H_
