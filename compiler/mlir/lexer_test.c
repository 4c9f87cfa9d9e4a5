// Tests for the MLIR lexer: every token kind, positions, and lexing errors.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "compiler/mlir/lexer.h"

typedef struct expected_token_t {
  grtc_token_kind_t kind;
  const char* text;
  uint32_t line;
  uint32_t column;
} expected_token_t;

static void expect_tokens(const char* source, const expected_token_t* expected,
                          size_t count) {
  grtc_lexer_t lexer;
  grtc_lexer_initialize(grt_make_cstring_view(source), "t.mlir", &lexer);
  for (size_t i = 0; i <= count; ++i) {
    grtc_token_t token;
    assert_true(grt_status_consume_ok(grtc_lexer_next(&lexer, &token)));
    if (i == count) {
      assert_int_equal(token.kind, GRTC_TOKEN_EOF);
      break;
    }
    assert_int_equal(token.kind, expected[i].kind);
    assert_int_equal(token.text.size, strlen(expected[i].text));
    assert_memory_equal(token.text.data, expected[i].text, token.text.size);
    if (expected[i].line) {
      assert_int_equal(token.line, expected[i].line);
      assert_int_equal(token.column, expected[i].column);
    }
  }
}

static void test_identifiers_and_sigils(void** state) {
  static const expected_token_t expected[] = {
      {GRTC_TOKEN_BARE_ID, "vm.add.i32", 1, 1},
      {GRTC_TOKEN_PERCENT_ID, "%0", 1, 12},
      {GRTC_TOKEN_PERCENT_ID, "%arg0", 1, 15},
      {GRTC_TOKEN_PERCENT_ID, "%a#1", 1, 21},
      {GRTC_TOKEN_PERCENT_ID, "%a", 1, 26},
      {GRTC_TOKEN_COLON, ":", 1, 28},
      {GRTC_TOKEN_INTEGER, "2", 1, 29},
      {GRTC_TOKEN_CARET_ID, "^bb1", 2, 1},
      {GRTC_TOKEN_AT_ID, "@sym", 2, 6},
      {GRTC_TOKEN_AT_ID, "@\"quoted sym\"", 2, 11},
      {GRTC_TOKEN_HASH_ID, "#loc1", 2, 25},
      {GRTC_TOKEN_EXCLAIM_ID, "!vm.ref", 2, 31},
      {GRTC_TOKEN_HASH_ID, "#stablehlo.dot", 3, 3},
      {GRTC_TOKEN_PERCENT_ID, "%x-y_z$.w", 3, 18},
  };
  expect_tokens("vm.add.i32 %0 %arg0 %a#1 %a:2\n^bb1 @sym @\"quoted sym\" #loc1 "
                "!vm.ref\n  #stablehlo.dot %x-y_z$.w",
                expected, sizeof(expected) / sizeof(expected[0]));
}

static void test_numbers_and_strings(void** state) {
  static const expected_token_t expected[] = {
      {GRTC_TOKEN_INTEGER, "42", 0, 0},
      {GRTC_TOKEN_INTEGER, "0xFF800000", 0, 0},
      {GRTC_TOKEN_FLOAT, "1.5", 0, 0},
      {GRTC_TOKEN_FLOAT, "2.5e-3", 0, 0},
      {GRTC_TOKEN_FLOAT, "1.0E+10", 0, 0},
      {GRTC_TOKEN_MINUS, "-", 0, 0},
      {GRTC_TOKEN_INTEGER, "7", 0, 0},
      {GRTC_TOKEN_STRING, "\"a\\\"b\\n\\0A\"", 0, 0},
      {GRTC_TOKEN_INTEGER, "4", 0, 0},
      {GRTC_TOKEN_BARE_ID, "x4xf32", 0, 0},
      {GRTC_TOKEN_INTEGER, "2", 0, 0},
      {GRTC_TOKEN_BARE_ID, "xf8E4M3FN", 0, 0},
      {GRTC_TOKEN_BARE_ID, "f8E5M2", 0, 0},
      {GRTC_TOKEN_BARE_ID, "f8E4M3", 0, 0},
      {GRTC_TOKEN_BARE_ID, "f8E3M4", 0, 0},
      {GRTC_TOKEN_BARE_ID, "f8E4M3FNUZ", 0, 0},
      {GRTC_TOKEN_BARE_ID, "f8E5M2FNUZ", 0, 0},
      {GRTC_TOKEN_BARE_ID, "f8E4M3B11FNUZ", 0, 0},
  };
  expect_tokens("42 0xFF800000 1.5 2.5e-3 1.0E+10 -7 \"a\\\"b\\n\\0A\" 4x4xf32 "
                "2xf8E4M3FN f8E5M2 f8E4M3 f8E3M4 f8E4M3FNUZ f8E5M2FNUZ f8E4M3B11FNUZ",
                expected, sizeof(expected) / sizeof(expected[0]));
}

static void test_punctuation_and_comments(void** state) {
  static const expected_token_t expected[] = {
      {GRTC_TOKEN_LPAREN, "(", 0, 0},   {GRTC_TOKEN_RPAREN, ")", 0, 0},
      {GRTC_TOKEN_LSQUARE, "[", 0, 0},  {GRTC_TOKEN_RSQUARE, "]", 0, 0},
      {GRTC_TOKEN_LBRACE, "{", 0, 0},   {GRTC_TOKEN_RBRACE, "}", 0, 0},
      {GRTC_TOKEN_LESS, "<", 0, 0},     {GRTC_TOKEN_GREATER, ">", 0, 0},
      {GRTC_TOKEN_COMMA, ",", 0, 0},    {GRTC_TOKEN_ARROW, "->", 0, 0},
      {GRTC_TOKEN_COLON_COLON, "::", 0, 0},
      {GRTC_TOKEN_ELLIPSIS, "...", 0, 0},
      {GRTC_TOKEN_EQUAL, "=", 0, 0},    {GRTC_TOKEN_QUESTION, "?", 0, 0},
      {GRTC_TOKEN_STAR, "*", 0, 0},     {GRTC_TOKEN_PLUS, "+", 0, 0},
      {GRTC_TOKEN_VERTICAL_BAR, "|", 0, 0},
      {GRTC_TOKEN_BARE_ID, "after", 3, 3},
  };
  expect_tokens("()[]{}<>, -> :: ... = ? * + | // comment -> ignored\n"
                "// whole line\n  after",
                expected, sizeof(expected) / sizeof(expected[0]));
}

static void test_seek_splits_dimensions(void** state) {
  grtc_lexer_t lexer;
  grtc_lexer_initialize(grt_make_cstring_view("x4xf32"), "t.mlir", &lexer);
  grtc_token_t token;
  assert_true(grt_status_consume_ok(grtc_lexer_next(&lexer, &token)));
  grtc_lexer_seek(&lexer, token.text.data + 1);
  assert_true(grt_status_consume_ok(grtc_lexer_next(&lexer, &token)));
  assert_int_equal(token.kind, GRTC_TOKEN_INTEGER);
  assert_int_equal(token.column, 2);
}

static void test_decode_string(void** state) {
  grtc_lexer_t lexer;
  grtc_lexer_initialize(grt_make_cstring_view("\"a\\tb\\\\\\22\""), "t.mlir",
                        &lexer);
  grtc_token_t token;
  assert_true(grt_status_consume_ok(grtc_lexer_next(&lexer, &token)));
  grt_arena_t arena;
  grt_arena_init(grt_allocator_system(), 0, &arena);
  grt_string_view_t value;
  assert_true(grt_status_consume_ok(
      grtc_lexer_decode_string(&lexer, &token, &arena, &value)));
  assert_string_equal(value.data, "a\tb\\\"");
  grt_arena_deinit(&arena);
}

static void expect_lex_error(const char* source, const char* message) {
  grtc_lexer_t lexer;
  grtc_lexer_initialize(grt_make_cstring_view(source), "bad.mlir", &lexer);
  grt_status_t status = grt_ok_status();
  for (int i = 0; i < 16 && grt_status_is_ok(status); ++i) {
    grtc_token_t token;
    status = grtc_lexer_next(&lexer, &token);
    if (grt_status_is_ok(status) && token.kind == GRTC_TOKEN_EOF) break;
  }
  assert_false(grt_status_is_ok(status));
  const char* text = grt_status_message(status);
  if (!strstr(text, message)) fail_msg("'%s' lacks '%s'", text, message);
  grt_status_free(status);
}

static void test_errors(void** state) {
  expect_lex_error("\"abc", "bad.mlir:1:1: error: unterminated string");
  expect_lex_error("\"a\nb\"", "unterminated string");
  expect_lex_error("  \"\\q\"", "bad.mlir:1:4: error: unknown escape '\\q'");
  expect_lex_error("x\n  ~", "bad.mlir:2:3: error: unexpected character '~'");
  expect_lex_error("%", "expected an SSA value name after '%'");
  expect_lex_error("^ x", "expected a block label after '^'");
  expect_lex_error("@ x", "expected a symbol name after '@'");
  expect_lex_error("! x", "expected a type name after '!'");
  expect_lex_error("#", "expected an attribute name after '#'");
  expect_lex_error(".5", "unexpected '.'");
  expect_lex_error("\x01", "unexpected byte 0x01");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_identifiers_and_sigils),
      cmocka_unit_test(test_numbers_and_strings),
      cmocka_unit_test(test_punctuation_and_comments),
      cmocka_unit_test(test_seek_splits_dimensions),
      cmocka_unit_test(test_decode_string),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
