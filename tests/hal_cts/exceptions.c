// The exceptions list of the conformance suite (exceptions.h).
#include "tests/hal_cts/exceptions.h"

#include <string.h>

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Splits the first whitespace-delimited word off |*rest|.
static grt_string_view_t take_word(grt_string_view_t* rest) {
  size_t begin = 0;
  while (begin < rest->size && is_space(rest->data[begin])) ++begin;
  size_t end = begin;
  while (end < rest->size && !is_space(rest->data[end])) ++end;
  grt_string_view_t word = grt_make_string_view(rest->data + begin, end - begin);
  *rest = grt_make_string_view(rest->data + end, rest->size - end);
  return word;
}

static grt_status_t parse_line(grt_hal_cts_exceptions_t* exceptions,
                               grt_string_view_t line, size_t line_number,
                               const char* source_name) {
  grt_string_view_t trimmed = grt_string_view_trim(line);
  if (trimmed.size == 0 || trimmed.data[0] == '#') return grt_ok_status();
  grt_string_view_t rest = trimmed;
  grt_string_view_t driver = take_word(&rest);
  grt_string_view_t test = take_word(&rest);
  grt_string_view_t reason = grt_string_view_trim(rest);
  if (reason.size == 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s:%zu: expected '<driver> <test> <reason>', got "
                           "'%.*s'",
                           source_name, line_number, GRT_SV_ARG(trimmed));
  }
  // Each word is followed by whitespace or the line's end inside the
  // owned copy, so the words can be terminated in place.
  char* text = (char*)trimmed.data;
  text[driver.data + driver.size - text] = '\0';
  text[test.data + test.size - text] = '\0';
  text[reason.data + reason.size - text] = '\0';
  grt_hal_cts_exception_t item = {driver.data, test.data, reason.data,
                                  line_number};
  const grt_hal_cts_exception_t* other =
      grt_hal_cts_exceptions_find(exceptions, item.driver, item.test);
  if (other) {
    return grt_make_status(
        GRT_STATUS_ALREADY_EXISTS,
        "%s:%zu: a second exception for %s %s (the first is on line %zu)",
        source_name, line_number, item.driver, item.test, other->line);
  }
  GRT_RETURN_IF_ERROR(grt_allocator_realloc(
      exceptions->allocator, exceptions->count * sizeof(item),
      (exceptions->count + 1) * sizeof(item), (void**)&exceptions->items));
  exceptions->items[exceptions->count++] = item;
  return grt_ok_status();
}

grt_status_t grt_hal_cts_exceptions_parse(grt_string_view_t text,
                                          const char* source_name,
                                          grt_allocator_t allocator,
                                          grt_hal_cts_exceptions_t* out) {
  memset(out, 0, sizeof(*out));
  out->allocator = allocator;
  GRT_RETURN_IF_ERROR(
      grt_allocator_malloc(allocator, text.size + 1, (void**)&out->text));
  if (text.size) memcpy(out->text, text.data, text.size);
  out->text[text.size] = '\0';
  grt_string_view_t rest = grt_make_string_view(out->text, text.size);
  size_t line_number = 0;
  while (rest.size > 0) {
    ++line_number;
    size_t newline = grt_string_view_find_char(rest, '\n', 0);
    size_t line_length = newline == GRT_STRING_VIEW_NPOS ? rest.size : newline;
    grt_string_view_t line = grt_make_string_view(rest.data, line_length);
    size_t consumed = newline == GRT_STRING_VIEW_NPOS ? rest.size : newline + 1;
    rest = grt_make_string_view(rest.data + consumed, rest.size - consumed);
    grt_status_t status = parse_line(out, line, line_number, source_name);
    if (!grt_status_is_ok(status)) {
      grt_hal_cts_exceptions_free(out);
      return status;
    }
  }
  return grt_ok_status();
}

void grt_hal_cts_exceptions_free(grt_hal_cts_exceptions_t* exceptions) {
  grt_allocator_free(exceptions->allocator, exceptions->items);
  grt_allocator_free(exceptions->allocator, exceptions->text);
  exceptions->items = NULL;
  exceptions->text = NULL;
  exceptions->count = 0;
}

grt_status_t grt_hal_cts_exceptions_check_tests(
    const grt_hal_cts_exceptions_t* exceptions, const char* source_name,
    const char* const* test_names, size_t test_count) {
  for (size_t i = 0; i < exceptions->count; ++i) {
    const grt_hal_cts_exception_t* item = &exceptions->items[i];
    bool known = false;
    for (size_t j = 0; j < test_count && !known; ++j) {
      known = strcmp(item->test, test_names[j]) == 0;
    }
    if (!known) {
      return grt_make_status(GRT_STATUS_NOT_FOUND,
                             "%s:%zu: no test named '%s' (hal_cts --list "
                             "prints the names)",
                             source_name, item->line, item->test);
    }
  }
  return grt_ok_status();
}

const grt_hal_cts_exception_t* grt_hal_cts_exceptions_find(
    const grt_hal_cts_exceptions_t* exceptions, const char* driver,
    const char* test) {
  for (size_t i = 0; i < exceptions->count; ++i) {
    const grt_hal_cts_exception_t* item = &exceptions->items[i];
    if (strcmp(item->driver, driver) == 0 && strcmp(item->test, test) == 0) {
      return item;
    }
  }
  return NULL;
}
