// Loading shared objects from memory: both the memfd path and the
// temporary-file fallback load the test kernel library and leave nothing on
// disk; bad bytes, a missing symbol and an unusable temporary directory
// fail with the reason.
#include "hal/local/library_loader.h"

#include <dirent.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include "base/status_matchers.h"

#include "base/file.h"
#include "hal/local/kernel_abi.h"
#include "hal/local/testdata/test_kernels.h"

// True if a mapping of this process is named with |fragment| (Linux names
// memfd mappings "/memfd:<name> (deleted)" and unlinked files "<path>
// (deleted)").
static bool mapped_file_named(const char* fragment) {
  FILE* maps = fopen("/proc/self/maps", "r");
  if (!maps) return false;
  char line[1024];
  bool found = false;
  while (!found && fgets(line, sizeof(line), maps)) {
    found = strstr(line, fragment) != NULL;
  }
  fclose(maps);
  return found;
}

// Loads the test kernels, checks the library works, and that its mapping
// is named with |mapping_fragment| (NULL: not checked).
static void load_and_query(grt_hal_local_library_load_mode_t mode,
                           const char* mapping_fragment) {
  grt_file_contents_t contents;
  GRT_EXPECT_OK(grt_file_read_contents(GRT_TEST_KERNELS_SO, grt_allocator_system(),
                                   &contents));
  void* handle = NULL;
  GRT_EXPECT_OK(grt_hal_local_library_load((const uint8_t*)contents.data,
                                       contents.size, mode, "test", &handle));
  grt_file_contents_free(&contents);
  assert_non_null(handle);
  void* symbol = NULL;
  GRT_EXPECT_OK(grt_hal_local_library_lookup(
      handle, GRT_KERNEL_LIBRARY_QUERY_SYMBOL, "test", &symbol));
  grt_kernel_library_query_fn_t query = NULL;
  memcpy(&query, &symbol, sizeof(query));
  const grt_kernel_library_t* library = query(GRT_KERNEL_ABI_VERSION);
  assert_non_null(library);
  assert_int_equal(library->entry_count, GRT_TEST_KERNELS_COUNT);
  assert_string_equal(library->entries[GRT_TEST_KERNELS_FAIL].name, "fail");
  assert_int_equal(library->entries[GRT_TEST_KERNELS_FAIL].fn(NULL, NULL),
                   GRT_TEST_KERNELS_FAIL_CODE);
  assert_null(query(GRT_KERNEL_ABI_VERSION + 1));
  // Only the query symbol is visible.
  grt_expect_error(grt_hal_local_library_lookup(handle, "add_f32", "test", &symbol),
               GRT_STATUS_NOT_FOUND,
               "test: kernel library does not export 'add_f32': ");
  assert_null(symbol);
  if (mapping_fragment) assert_true(mapped_file_named(mapping_fragment));
  grt_hal_local_library_unload(handle);
}

static void test_load_default(void** state) {
  (void)state;
#if defined(__linux__)
  // From memory: no file system path behind the mapping.
  load_and_query(GRT_HAL_LOCAL_LIBRARY_LOAD_DEFAULT,
                 "/memfd:grt-kernel-library (deleted)");
#else
  load_and_query(GRT_HAL_LOCAL_LIBRARY_LOAD_DEFAULT, NULL);
#endif
}

// Two different libraries loaded from memory one after the other, the
// first still loaded: the second must be itself, though its in-memory file
// may get the descriptor number (and so the /proc/self/fd path) the first
// was loaded from.
static void test_load_two_libraries(void** state) {
  (void)state;
  grt_file_contents_t first = {0}, second = {0};
  GRT_EXPECT_OK(grt_file_read_contents(GRT_TEST_KERNELS_SO, grt_allocator_system(), &first));
  GRT_EXPECT_OK(
      grt_file_read_contents(GRT_TEST_KERNELS_NO_QUERY_SO, grt_allocator_system(), &second));
  void* first_handle = NULL;
  void* second_handle = NULL;
  GRT_EXPECT_OK(grt_hal_local_library_load(first.data, first.size,
                                           GRT_HAL_LOCAL_LIBRARY_LOAD_DEFAULT, "first",
                                           &first_handle));
  GRT_EXPECT_OK(grt_hal_local_library_load(second.data, second.size,
                                           GRT_HAL_LOCAL_LIBRARY_LOAD_DEFAULT, "second",
                                           &second_handle));
  assert_ptr_not_equal(first_handle, second_handle);
  void* symbol = NULL;
  GRT_EXPECT_OK(grt_hal_local_library_lookup(first_handle, GRT_KERNEL_LIBRARY_QUERY_SYMBOL,
                                             "first", &symbol));
  assert_non_null(symbol);
  symbol = NULL;
  grt_expect_error(grt_hal_local_library_lookup(second_handle,
                                                GRT_KERNEL_LIBRARY_QUERY_SYMBOL, "second",
                                                &symbol),
                   GRT_STATUS_NOT_FOUND, "second: kernel library does not export");
  grt_hal_local_library_unload(second_handle);
  grt_hal_local_library_unload(first_handle);
  grt_file_contents_free(&second);
  grt_file_contents_free(&first);
}

static int count_entries(const char* directory) {
  DIR* dir = opendir(directory);
  assert_non_null(dir);
  int count = 0;
  struct dirent* entry;
  while ((entry = readdir(dir)) != NULL) {
    if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, "..")) ++count;
  }
  closedir(dir);
  return count;
}

static void test_load_through_temporary_file(void** state) {
  (void)state;
  const char* saved = getenv("TMPDIR");
  char* saved_copy = saved ? strdup(saved) : NULL;
  char directory[] = "/tmp/grt-loader-test-XXXXXX";
  assert_non_null(mkdtemp(directory));
  assert_int_equal(setenv("TMPDIR", directory, 1), 0);

  char mapping[64];
  snprintf(mapping, sizeof(mapping), "%s/grt-kernel-library-", directory);
#if defined(__linux__)
  load_and_query(GRT_HAL_LOCAL_LIBRARY_LOAD_TEMPORARY_FILE, mapping);
#else
  load_and_query(GRT_HAL_LOCAL_LIBRARY_LOAD_TEMPORARY_FILE, NULL);
#endif
  // The file was unlinked as soon as it was loaded.
  assert_int_equal(count_entries(directory), 0);

  // A failed load leaves nothing behind either.
  const uint8_t junk[64] = {0x7f, 'E', 'L', 'F'};
  void* handle = NULL;
  grt_expect_error(grt_hal_local_library_load(
                   junk, sizeof(junk), GRT_HAL_LOCAL_LIBRARY_LOAD_TEMPORARY_FILE,
                   "junk", &handle),
               GRT_STATUS_INVALID_ARGUMENT,
               "junk: cannot load the kernel library: ");
  assert_null(handle);
  assert_int_equal(count_entries(directory), 0);
  assert_int_equal(rmdir(directory), 0);

  // A directory that is not there.
  assert_int_equal(setenv("TMPDIR", "/nonexistent-grt-dir", 1), 0);
  grt_expect_error(grt_hal_local_library_load(
                   junk, sizeof(junk), GRT_HAL_LOCAL_LIBRARY_LOAD_TEMPORARY_FILE,
                   "junk", &handle),
               GRT_STATUS_UNAVAILABLE,
               "junk: cannot create a temporary file in "
               "'/nonexistent-grt-dir' for the kernel library: No such file or "
               "directory");

  if (saved_copy) {
    setenv("TMPDIR", saved_copy, 1);
    free(saved_copy);
  } else {
    unsetenv("TMPDIR");
  }
}

static void test_load_garbage(void** state) {
  (void)state;
  const uint8_t junk[16] = {'n', 'o', 't', ' ', 'c', 'o', 'd', 'e'};
  void* handle = NULL;
  grt_expect_error(grt_hal_local_library_load(junk, sizeof(junk),
                                          GRT_HAL_LOCAL_LIBRARY_LOAD_DEFAULT,
                                          "executable cpu-test", &handle),
               GRT_STATUS_INVALID_ARGUMENT,
               "executable cpu-test: cannot load the kernel library: ");
  assert_null(handle);
  grt_hal_local_library_unload(NULL);  // ignored
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_load_default),
      cmocka_unit_test(test_load_two_libraries),
      cmocka_unit_test(test_load_through_temporary_file),
      cmocka_unit_test(test_load_garbage),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
