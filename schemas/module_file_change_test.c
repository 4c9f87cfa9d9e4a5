// A module file changed on disk after it was opened: what was verified
// (FlatBuffer tables, bytecode, inline rodata, executable binaries) lives in
// private memory and never changes; a small file is private entirely, so
// even truncating it to nothing changes nothing; a large (mapped) file's
// external rodata is the only thing read from the file afterwards.
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "schemas/module_file.h"
#include "schemas/testing/example_module.h"

typedef struct temp_module_t {
  char dir[64];
  char path[128];
  size_t size;
} temp_module_t;

static void temp_module_write(temp_module_t* t) {
  snprintf(t->dir, sizeof(t->dir), "/tmp/grt_module_change_XXXXXX");
  assert_non_null(mkdtemp(t->dir));
  snprintf(t->path, sizeof(t->path), "%s/example.vmfb", t->dir);
  grt_module_writer_t* writer = NULL;
  assert_null(grt_module_writer_create(grt_allocator_system(), &writer));
  assert_null(grt_example_module_populate(writer));
  assert_null(grt_module_writer_write_file(writer, t->path));
  grt_module_writer_destroy(writer);
  FILE* f = fopen(t->path, "rb");
  assert_non_null(f);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  t->size = (size_t)ftell(f);
  fclose(f);
}

// Overwrites the file in place (same inode, so a mapping sees it) with
// |byte|, then cuts it to |new_size| bytes.
static void temp_module_clobber(temp_module_t* t, uint8_t byte,
                                size_t new_size) {
  int fd = open(t->path, O_WRONLY);
  assert_true(fd >= 0);
  uint8_t* junk = malloc(t->size);
  assert_non_null(junk);
  memset(junk, byte, t->size);
  assert_int_equal(pwrite(fd, junk, t->size, 0), (ssize_t)t->size);
  free(junk);
  assert_int_equal(ftruncate(fd, (off_t)new_size), 0);
  close(fd);
}

static void temp_module_remove(temp_module_t* t) {
  unlink(t->path);
  rmdir(t->dir);
}

static void assert_span_equal(grt_const_byte_span_t actual,
                              grt_const_byte_span_t expected) {
  assert_int_equal(actual.size, expected.size);
  assert_memory_equal(actual.data, expected.data, expected.size);
}

static void assert_sv_same(grt_string_view_t actual, grt_string_view_t expected) {
  assert_int_equal(actual.size, expected.size);
  assert_memory_equal(actual.data, expected.data, expected.size);
}

// Everything but external rodata matches |reference|.
static void assert_verified_parts_equal(const grt_module_file_t* file,
                                        const grt_module_file_t* reference) {
  const grt_module_file_info_t* info = grt_module_file_info(file);
  const grt_module_file_info_t* expected = grt_module_file_info(reference);
  assert_sv_same(info->name, expected->name);
  assert_int_equal(info->function_count, expected->function_count);
  assert_int_equal(info->import_count, expected->import_count);
  assert_int_equal(info->export_count, expected->export_count);
  assert_int_equal(info->rodata_count, expected->rodata_count);
  assert_int_equal(info->executable_count, expected->executable_count);
  assert_span_equal(info->bytecode, expected->bytecode);
  for (uint32_t i = 0; i < info->function_count; ++i) {
    grt_module_function_t a = grt_module_file_function(file, i);
    grt_module_function_t b = grt_module_file_function(reference, i);
    assert_sv_same(a.name, b.name);
    assert_sv_same(a.calling_convention, b.calling_convention);
    assert_int_equal(a.bytecode_offset, b.bytecode_offset);
    assert_int_equal(a.bytecode_length, b.bytecode_length);
  }
  for (uint32_t i = 0; i < info->import_count; ++i) {
    assert_sv_same(grt_module_file_import(file, i).full_name,
                   grt_module_file_import(reference, i).full_name);
  }
  for (uint32_t i = 0; i < info->export_count; ++i) {
    assert_sv_same(grt_module_file_export(file, i).name,
                   grt_module_file_export(reference, i).name);
  }
  for (uint32_t i = 0; i < info->rodata_count; ++i) {
    grt_module_rodata_t a = grt_module_file_rodata(file, i);
    grt_module_rodata_t b = grt_module_file_rodata(reference, i);
    assert_int_equal(a.external, b.external);
    assert_int_equal(a.data.size, b.data.size);
    if (!a.external) assert_span_equal(a.data, b.data);
  }
  for (uint32_t i = 0; i < info->executable_count; ++i) {
    grt_module_executable_t a = grt_module_file_executable(file, i);
    grt_module_executable_t b = grt_module_file_executable(reference, i);
    assert_sv_same(a.format, b.format);
    assert_span_equal(a.binary, b.binary);
    assert_memory_equal(a.digest, b.digest, GRT_MODULE_DIGEST_SIZE);
  }
}

static grt_module_file_t* open_reference(void** out_data) {
  size_t size = 0;
  assert_null(
      grt_example_module_serialize(grt_allocator_system(), out_data, &size));
  grt_module_file_t* reference = NULL;
  assert_null(grt_module_file_open_memory(
      grt_make_const_byte_span(*out_data, size), grt_allocator_system(),
      &reference));
  return reference;
}

static void test_small_file_is_private(void** state) {
  (void)state;
  void* reference_data = NULL;
  grt_module_file_t* reference = open_reference(&reference_data);
  temp_module_t t;
  temp_module_write(&t);
  assert_true(t.size < GRT_MODULE_FILE_DEFAULT_COPY_LIMIT);
  grt_module_file_t* file = NULL;
  assert_null(grt_module_file_open_path(t.path, grt_allocator_system(), &file));
  assert_false(grt_module_file_is_mapped(file));
  temp_module_clobber(&t, 0xEE, t.size);
  temp_module_clobber(&t, 0xEE, 0);
  assert_verified_parts_equal(file, reference);
  // External rodata too: nothing is read from the file any more.
  grt_module_rodata_t rodata = grt_module_file_rodata(file, 1);
  assert_true(rodata.external);
  assert_span_equal(rodata.data, grt_module_file_rodata(reference, 1).data);
  grt_module_file_release(file);
  temp_module_remove(&t);
  grt_module_file_release(reference);
  free(reference_data);
}

static void test_large_file_maps_only_external_rodata(void** state) {
  (void)state;
  void* reference_data = NULL;
  grt_module_file_t* reference = open_reference(&reference_data);
  temp_module_t t;
  temp_module_write(&t);
  grt_module_file_open_options_t options = {0};  // map whatever the size
  grt_module_file_t* file = NULL;
  assert_null(grt_module_file_open_path_with_options(
      t.path, &options, grt_allocator_system(), &file));
  assert_true(grt_module_file_is_mapped(file));
  grt_module_rodata_t rodata = grt_module_file_rodata(file, 1);
  assert_span_equal(rodata.data, grt_module_file_rodata(reference, 1).data);

  // Overwriting every byte: the verified parts stay; the weights, read
  // through the mapping, take the new values.
  temp_module_clobber(&t, 0xEE, t.size);
  assert_verified_parts_equal(file, reference);
  for (size_t i = 0; i < rodata.data.size; ++i) {
    assert_int_equal(rodata.data.data[i], 0xEE);
  }
  // Truncating: everything but the weights is still readable (reading a
  // weight now would fault, as documented).
  temp_module_clobber(&t, 0xEE, 0);
  assert_verified_parts_equal(file, reference);
  grt_module_file_release(file);
  temp_module_remove(&t);
  grt_module_file_release(reference);
  free(reference_data);
}

// A copy limit exactly at the file size still copies; one byte less maps.
static void test_copy_limit_boundary(void** state) {
  (void)state;
  void* reference_data = NULL;
  grt_module_file_t* reference = open_reference(&reference_data);
  temp_module_t t;
  temp_module_write(&t);
  grt_module_file_open_options_t options = {t.size};
  grt_module_file_t* file = NULL;
  assert_null(grt_module_file_open_path_with_options(
      t.path, &options, grt_allocator_system(), &file));
  assert_false(grt_module_file_is_mapped(file));
  grt_module_file_release(file);
  options.copy_limit = t.size - 1;
  assert_null(grt_module_file_open_path_with_options(
      t.path, &options, grt_allocator_system(), &file));
  assert_true(grt_module_file_is_mapped(file));
  assert_int_equal(grt_example_module_read_all(file),
                   grt_example_module_read_all(reference));
  grt_module_file_release(file);
  temp_module_remove(&t);
  grt_module_file_release(reference);
  free(reference_data);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_small_file_is_private),
      cmocka_unit_test(test_large_file_maps_only_external_rodata),
      cmocka_unit_test(test_copy_limit_boundary),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
