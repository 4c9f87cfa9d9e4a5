// For tests that check a file of the source tree against the code (a doc's
// table or counts, a source's declarations). Test-only: include after
// <cmocka.h>; libraries never include it.
#ifndef GRT_BASE_SOURCE_FILE_TEST_UTIL_H_
#define GRT_BASE_SOURCE_FILE_TEST_UTIL_H_

#include <stdio.h>
#include <stdlib.h>

// The file |source_dir|/|relative| (tests pass GRT_SOURCE_DIR), whole and
// NUL-terminated, from malloc (free() it); a missing or empty file fails
// the test naming the path.
static inline char* grt_test_read_source_file(const char* source_dir, const char* relative) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/%s", source_dir, relative);
  FILE* file = fopen(path, "rb");
  if (!file) fail_msg("cannot open %s", path);
  assert_int_equal(fseek(file, 0, SEEK_END), 0);
  long size = ftell(file);
  if (size <= 0) fail_msg("%s is empty", path);
  rewind(file);
  char* text = calloc(1, (size_t)size + 1);
  assert_non_null(text);
  assert_int_equal(fread(text, 1, (size_t)size, file), (size_t)size);
  fclose(file);
  return text;
}

#endif  // GRT_BASE_SOURCE_FILE_TEST_UTIL_H_
