// perf map files (perf_map.h): GRT_PERF_MAP's values, and the lines for the
// test kernel library loaded from memory: one per entry point, at the
// kernel's address, with its size from the ELF symbol table, inside the
// memfd mapping of the library.
#include "hal/local/perf_map.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/file.h"
#include "base/status_matchers.h"
#include "hal/local/elf_loader.h"
#include "hal/local/library_loader.h"
#include "hal/local/testdata/test_kernels.h"

static void expect_requested(const char* value, bool expected) {
  if (value) {
    setenv("GRT_PERF_MAP", value, 1);
  } else {
    unsetenv("GRT_PERF_MAP");
  }
  bool requested = !expected;
  GRT_EXPECT_OK(grt_hal_local_perf_map_requested(&requested));
  assert_int_equal(requested, expected);
}

static void test_environment_values(void** state) {
  (void)state;
  expect_requested(NULL, false);
  expect_requested("", false);
  expect_requested("0", false);
  expect_requested("1", true);
  setenv("GRT_PERF_MAP", "yes", 1);
  bool requested = true;
  grt_status_t status = grt_hal_local_perf_map_requested(&requested);
  assert_false(requested);
  assert_int_equal(grt_status_code(status), GRT_STATUS_INVALID_ARGUMENT);
  assert_string_equal(grt_status_message(status),
                      "GRT_PERF_MAP='yes': expected 1 (write "
                      "/tmp/perf-<pid>.map for perf) or 0");
  grt_status_free(status);
  unsetenv("GRT_PERF_MAP");
}

static void test_default_path(void** state) {
  (void)state;
  char path[64], expected[64];
  grt_hal_local_perf_map_default_path(path, sizeof(path));
  snprintf(expected, sizeof(expected), "/tmp/perf-%ld.map", (long)getpid());
  assert_string_equal(path, expected);
}

typedef struct loaded_t {
  grt_file_contents_t contents;
  void* handle;
  const grt_kernel_library_t* library;
  uintptr_t base;
} loaded_t;

static void load_test_kernels(loaded_t* loaded) {
  memset(loaded, 0, sizeof(*loaded));
  GRT_EXPECT_OK(grt_file_read_contents(GRT_TEST_KERNELS_SO,
                                       grt_allocator_system(),
                                       &loaded->contents));
  GRT_EXPECT_OK(grt_hal_local_library_load(
      (const uint8_t*)loaded->contents.data, loaded->contents.size,
      GRT_HAL_LOCAL_LIBRARY_LOAD_DEFAULT, "test", &loaded->handle));
  void* symbol = NULL;
  GRT_EXPECT_OK(grt_hal_local_library_lookup(
      loaded->handle, GRT_KERNEL_LIBRARY_QUERY_SYMBOL, "test", &symbol));
  grt_kernel_library_query_fn_t query = NULL;
  memcpy(&query, &symbol, sizeof(query));
  loaded->library = query(GRT_KERNEL_ABI_VERSION);
  assert_non_null(loaded->library);
  GRT_EXPECT_OK(
      grt_hal_local_library_load_base(loaded->handle, "test", &loaded->base));
}

static void unload_test_kernels(loaded_t* loaded) {
  grt_hal_local_library_unload(loaded->handle);
  grt_file_contents_free(&loaded->contents);
}

static uintptr_t address_of(grt_kernel_fn_t fn) {
  void* pointer = NULL;
  memcpy(&pointer, &fn, sizeof(pointer));
  return (uintptr_t)pointer;
}

// True when [start, start + size) lies inside one mapping of this process
// whose line in /proc/self/maps contains |name|.
static bool inside_mapping_named(uintptr_t start, uint64_t size,
                                 const char* name) {
  FILE* maps = fopen("/proc/self/maps", "r");
  if (!maps) return false;
  char line[1024];
  bool inside = false;
  while (!inside && fgets(line, sizeof(line), maps)) {
    uintptr_t low = 0, high = 0;
    if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &low, &high) != 2) continue;
    inside = strstr(line, name) && start >= low && start + size <= high;
  }
  fclose(maps);
  return inside;
}

typedef struct map_line_t {
  uintptr_t start;
  uint64_t size;
  char name[64];
} map_line_t;

// Reads every line of a perf map; returns how many.
static size_t read_map(const char* path, map_line_t* lines, size_t capacity) {
  FILE* file = fopen(path, "r");
  assert_non_null(file);
  size_t count = 0;
  char text[256];
  while (count < capacity && fgets(text, sizeof(text), file)) {
    map_line_t* line = &lines[count];
    if (sscanf(text, "%" SCNxPTR " %" SCNx64 " %63s", &line->start,
               &line->size, line->name) != 3) {
      fail_msg("bad perf map line '%s'", text);
    }
    ++count;
  }
  fclose(file);
  return count;
}

static void make_temp_path(char* path, size_t capacity) {
  snprintf(path, capacity, "/tmp/grt_perf_map_test_XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
}

static void test_lines_name_every_entry_inside_the_library(void** state) {
  (void)state;
  loaded_t loaded;
  load_test_kernels(&loaded);
  char path[64];
  make_temp_path(path, sizeof(path));
  // Appending twice keeps both.
  GRT_EXPECT_OK(grt_hal_local_perf_map_append(
      path, loaded.library, (const uint8_t*)loaded.contents.data,
      loaded.contents.size, loaded.base));
  GRT_EXPECT_OK(grt_hal_local_perf_map_append(
      path, loaded.library, (const uint8_t*)loaded.contents.data,
      loaded.contents.size, loaded.base));
  map_line_t lines[16];
  size_t count = read_map(path, lines, 16);
  assert_int_equal(count, 2 * GRT_TEST_KERNELS_COUNT);
  for (size_t i = 0; i < GRT_TEST_KERNELS_COUNT; ++i) {
    const grt_kernel_entry_t* entry = &loaded.library->entries[i];
    const map_line_t* line = &lines[i];
    assert_string_equal(line->name, entry->name);
    assert_int_equal(line->start, address_of(entry->fn));
    // The size of the kernel's symbol: more than a byte, and the whole
    // function lies in the library's mapping (a memfd).
    assert_true(line->size > 1);
    if (!inside_mapping_named(line->start, line->size, "grt-kernel-library")) {
      fail_msg("%s at %" PRIxPTR " (+%" PRIx64 ") is outside the library",
               line->name, line->start, line->size);
    }
    assert_int_equal(lines[GRT_TEST_KERNELS_COUNT + i].start, line->start);
  }
  unlink(path);
  unload_test_kernels(&loaded);
}

// The same through grt's own loader (elf_loader.h): its load base puts
// every kernel's line inside the image's code.
static void test_lines_with_grt_loader(void** state) {
  (void)state;
  grt_file_contents_t contents;
  GRT_EXPECT_OK(grt_file_read_contents(GRT_TEST_KERNELS_SO,
                                       grt_allocator_system(), &contents));
  grt_hal_local_elf_image_t* image = NULL;
  GRT_EXPECT_OK(grt_hal_local_elf_load((const uint8_t*)contents.data,
                                       contents.size, "test",
                                       grt_allocator_system(), &image));
  void* symbol = NULL;
  GRT_EXPECT_OK(grt_hal_local_elf_lookup(
      image, GRT_KERNEL_LIBRARY_QUERY_SYMBOL, "test", &symbol));
  grt_kernel_library_query_fn_t query = NULL;
  memcpy(&query, &symbol, sizeof(query));
  const grt_kernel_library_t* library = query(GRT_KERNEL_ABI_VERSION);
  assert_non_null(library);
  char path[64];
  make_temp_path(path, sizeof(path));
  GRT_EXPECT_OK(grt_hal_local_perf_map_append(
      path, library, (const uint8_t*)contents.data, contents.size,
      grt_hal_local_elf_load_base(image)));
  map_line_t lines[16];
  assert_int_equal(read_map(path, lines, 16), GRT_TEST_KERNELS_COUNT);
  for (size_t i = 0; i < GRT_TEST_KERNELS_COUNT; ++i) {
    assert_string_equal(lines[i].name, library->entries[i].name);
    assert_int_equal(lines[i].start, address_of(library->entries[i].fn));
    assert_true(lines[i].size > 1);
    assert_true(grt_hal_local_elf_contains_code(image, lines[i].start,
                                                (size_t)lines[i].size));
  }
  unlink(path);
  grt_hal_local_elf_unload(image);
  grt_file_contents_free(&contents);
}

static void test_sizes_without_a_symbol_table(void** state) {
  (void)state;
  // With no ELF to read, a kernel reaches to the next entry point above it
  // (the highest gets one byte: nothing bounds it).
  loaded_t loaded;
  load_test_kernels(&loaded);
  char path[64];
  make_temp_path(path, sizeof(path));
  GRT_EXPECT_OK(
      grt_hal_local_perf_map_append(path, loaded.library, NULL, 0, 0));
  map_line_t lines[8];
  size_t count = read_map(path, lines, 8);
  assert_int_equal(count, GRT_TEST_KERNELS_COUNT);
  for (size_t i = 0; i < count; ++i) {
    uintptr_t next = 0;
    for (size_t j = 0; j < count; ++j) {
      if (lines[j].start > lines[i].start &&
          (next == 0 || lines[j].start < next)) {
        next = lines[j].start;
      }
    }
    assert_int_equal(lines[i].size, next ? next - lines[i].start : 1);
  }
  unlink(path);
  unload_test_kernels(&loaded);
}

static void test_unwritable_map_names_the_file(void** state) {
  (void)state;
  loaded_t loaded;
  load_test_kernels(&loaded);
  grt_status_t status = grt_hal_local_perf_map_append(
      "/nonexistent-grt-dir/perf-1.map", loaded.library, NULL, 0, 0);
  assert_int_equal(grt_status_code(status), GRT_STATUS_NOT_FOUND);
  assert_string_equal(grt_status_message(status),
                      "cannot write the perf map "
                      "'/nonexistent-grt-dir/perf-1.map': No such file or "
                      "directory");
  grt_status_free(status);
  unload_test_kernels(&loaded);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_environment_values),
      cmocka_unit_test(test_default_path),
      cmocka_unit_test(test_lines_name_every_entry_inside_the_library),
      cmocka_unit_test(test_lines_with_grt_loader),
      cmocka_unit_test(test_sizes_without_a_symbol_table),
      cmocka_unit_test(test_unwritable_map_names_the_file),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
