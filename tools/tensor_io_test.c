// grt-run's value text and files: tensors from text, .npy (one array per
// naming) and raw files, arguments on a local-sync device, printing,
// writing and comparing results, and every error with its message.
#include "tools/tensor_io.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "hal/driver.h"
#include "runtime/hal_module.h"
#include "runtime/session.h"
#include "tools/npy.h"
#include "vm/test_support.h"

typedef struct fixture_t {
  grt_runtime_instance_t* instance;
  grt_hal_device_t* device;
  grt_tools_tensor_io_t io;
  char dir[64];
} fixture_t;

static int setup(void** state) {
  fixture_t* f = calloc(1, sizeof(fixture_t));
  GRT_EXPECT_OK(grt_runtime_instance_create(NULL, &f->instance));
  GRT_EXPECT_OK(grt_runtime_instance_create_device(f->instance, "local-sync",
                                                      NULL, &f->device));
  grt_tools_tensor_io_initialize(grt_allocator_system(), &f->io);
  snprintf(f->dir, sizeof(f->dir), "/tmp/grt_tensor_io_XXXXXX");
  assert_non_null(mkdtemp(f->dir));
  *state = f;
  return 0;
}

static int teardown(void** state) {
  fixture_t* f = *state;
  grt_tools_tensor_io_deinitialize(&f->io);
  grt_hal_device_release(f->device);
  grt_runtime_instance_release(f->instance);
  char command[128];
  snprintf(command, sizeof(command), "rm -rf '%s'", f->dir);
  assert_int_equal(system(command), 0);
  free(f);
  return 0;
}

static void path_in(const fixture_t* f, const char* name, char* out,
                    size_t capacity) {
  snprintf(out, capacity, "%s/%s", f->dir, name);
}

static void test_text_tensors(void** state) {
  fixture_t* f = *state;
  grt_tools_host_tensor_t t;
  GRT_EXPECT_OK(grt_tools_parse_host_tensor(&f->io, "2x2xf32=[1 2][3 4]", &t));
  assert_int_equal(t.element_type, GRT_HAL_ELEMENT_TYPE_FLOAT_32);
  assert_int_equal(t.rank, 2);
  const float want[4] = {1, 2, 3, 4};
  assert_memory_equal(t.data, want, sizeof(want));
  grt_tools_host_tensor_free(&f->io, &t);
  GRT_EXPECT_OK(grt_tools_parse_host_tensor(&f->io, "3xi8=7", &t));
  const int8_t splat[3] = {7, 7, 7};
  assert_memory_equal(t.data, splat, 3);
  grt_tools_host_tensor_free(&f->io, &t);
  grt_expect_error(grt_tools_parse_host_tensor(&f->io, "1 2 3", &t),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "expected a tensor such as 2x2xf32=1 2 3 4, 2x2xf32 "
                      "(zeros) or @FILE.npy, got '1 2 3' (not a shape "
                      "either: unknown element type '1 2 3'");
  // Brackets must nest as the shape says.
  grt_expect_error(
      grt_tools_parse_host_tensor(&f->io, "2x2xf32=[[1][2][3][4]]", &t),
      GRT_STATUS_INVALID_ARGUMENT,
      "2x2xf32 needs 2 groups of 2 values (the outermost brackets may be "
      "left out), given '[[1][2][3][4]]'");
  assert_null(t.data);
  grt_expect_error(grt_tools_parse_host_tensor(&f->io, "2x2xf33=1", &t),
                      GRT_STATUS_INVALID_ARGUMENT, "f33");
}

// Complex text is the f32/f64 tensor with a trailing 2 (re, im) that
// modules take complex tensors as.
static void test_complex_text(void** state) {
  fixture_t* f = *state;
  grt_tools_host_tensor_t t;
  GRT_EXPECT_OK(grt_tools_parse_host_tensor(&f->io, "2xcomplex<f32>=(1,2) (3, -4.5)", &t));
  assert_int_equal(t.element_type, GRT_HAL_ELEMENT_TYPE_FLOAT_32);
  assert_int_equal(t.rank, 2);
  assert_int_equal(t.shape[0], 2);
  assert_int_equal(t.shape[1], 2);
  const float want[4] = {1, 2, 3, -4.5f};
  assert_memory_equal(t.data, want, sizeof(want));
  grt_tools_host_tensor_free(&f->io, &t);
  GRT_EXPECT_OK(grt_tools_parse_host_tensor(&f->io, "complex<f64>=(0.5,-1)", &t));
  assert_int_equal(t.element_type, GRT_HAL_ELEMENT_TYPE_FLOAT_64);
  assert_int_equal(t.rank, 1);
  const double want64[2] = {0.5, -1};
  assert_memory_equal(t.data, want64, sizeof(want64));
  grt_tools_host_tensor_free(&f->io, &t);
  GRT_EXPECT_OK(grt_tools_parse_host_tensor(
      &f->io, "2x2xcomplex<f32>=[(1,0) (0,1)][(2,2) (3,3)]", &t));
  assert_int_equal(t.rank, 3);
  assert_int_equal(t.data_length, 32);
  grt_tools_host_tensor_free(&f->io, &t);
  GRT_EXPECT_OK(grt_tools_parse_host_tensor(&f->io, "3xcomplex<f32>", &t));  // zeros
  assert_int_equal(t.rank, 2);
  assert_int_equal(t.data_length, 24);
  grt_tools_host_tensor_free(&f->io, &t);
  static const char* const bad[] = {"2xcomplex<f32>=1 2 3 4",
                                    "2xcomplex<f32>=(1,2,3) (4,5)",
                                    "2xcomplex<f32>=(1 2) (3,4)", "2xcomplex<f32>=(1,2"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    grt_expect_error(grt_tools_parse_host_tensor(&f->io, bad[i], &t),
                     GRT_STATUS_INVALID_ARGUMENT,
                     "expected complex elements written (re, im), such as "
                     "2xcomplex<f32>=(1,2) (3,-4), got '");
  }
  // Too few elements: the count is checked as for any tensor.
  grt_expect_error(grt_tools_parse_host_tensor(&f->io, "3xcomplex<f32>=(1,2) (3,4)", &t),
                   GRT_STATUS_INVALID_ARGUMENT, "expected 6 elements, got 4");
}

// A shape and element type with no '=values' is a zero-filled tensor (as
// IREE reads --input=1x28x28x1xf32); text that is no shape either names
// what the shape parser found.
static void test_shape_only_is_zeros(void** state) {
  fixture_t* f = *state;
  static const struct {
    const char* text;
    size_t rank;
    grt_hal_element_type_t type;
    size_t bytes;
  } cases[] = {
      {"1x28x28x1xf32", 4, GRT_HAL_ELEMENT_TYPE_FLOAT_32, 28 * 28 * 4},
      {" 2x3xi8 ", 2, GRT_HAL_ELEMENT_TYPE_INT_8, 6},
      {"f64", 0, GRT_HAL_ELEMENT_TYPE_FLOAT_64, 8},
      {"2x0xf16", 2, GRT_HAL_ELEMENT_TYPE_FLOAT_16, 0},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    grt_tools_host_tensor_t t;
    GRT_EXPECT_OK(grt_tools_parse_host_tensor(&f->io, cases[i].text, &t));
    assert_int_equal(t.rank, cases[i].rank);
    assert_int_equal(t.element_type, cases[i].type);
    assert_int_equal(t.data_length, cases[i].bytes);
    const uint8_t* bytes = t.data;
    for (size_t b = 0; b < t.data_length; ++b) {
      if (bytes[b]) fail_msg("'%s': byte %zu is %u", cases[i].text, b, bytes[b]);
    }
    grt_tools_host_tensor_free(&f->io, &t);
  }
  grt_tools_host_tensor_t t;
  grt_expect_error(grt_tools_parse_host_tensor(&f->io, "2x2xf33", &t),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "got '2x2xf33' (not a shape either: unknown element type "
                   "'f33'");
  grt_expect_error(grt_tools_parse_host_tensor(&f->io, "2x-1xf32", &t),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "expected a tensor such as 2x2xf32=1 2 3 4, 2x2xf32 "
                   "(zeros) or @FILE.npy, got '2x-1xf32'");
  assert_null(t.data);
  // As an argument: a zero-filled buffer view on the device.
  grt_vm_variant_t v;
  GRT_EXPECT_OK(grt_tools_parse_argument(&f->io, f->device, "2x2xi32",
                                         GRT_VM_VALUE_TYPE_REF, &v));
  char* text = NULL;
  size_t length = 0;
  FILE* stream = open_memstream(&text, &length);
  GRT_EXPECT_OK(grt_tools_print_result(&f->io, f->device, 0, &v, 0, stream));
  fclose(stream);
  assert_string_equal(text, "result[0]: hal.buffer_view\n2x2xi32=[0 0][0 0]\n");
  free(text);
  grt_vm_variant_reset(&v);
}

static void test_npy_and_raw_files(void** state) {
  fixture_t* f = *state;
  char npy[128], raw[128], spec[160];
  path_in(f, "x.npy", npy, sizeof(npy));
  const int32_t a[2] = {1, 2};
  const int32_t b[3] = {3, 4, 5};
  const grt_hal_dim_t shape_a[1] = {2}, shape_b[1] = {3};
  GRT_EXPECT_OK(grt_npy_write_file(npy, false, GRT_HAL_ELEMENT_TYPE_INT_32,
                                      shape_a, 1, a, sizeof(a)));
  GRT_EXPECT_OK(grt_npy_write_file(npy, true, GRT_HAL_ELEMENT_TYPE_INT_32,
                                      shape_b, 1, b, sizeof(b)));
  snprintf(spec, sizeof(spec), "@%s", npy);
  grt_tools_host_tensor_t t;
  // Naming the file again reads the array after the last one read.
  GRT_EXPECT_OK(grt_tools_parse_host_tensor(&f->io, spec, &t));
  assert_int_equal(t.shape[0], 2);
  assert_memory_equal(t.data, a, sizeof(a));
  grt_tools_host_tensor_free(&f->io, &t);
  GRT_EXPECT_OK(grt_tools_parse_host_tensor(&f->io, spec, &t));
  assert_int_equal(t.shape[0], 3);
  assert_memory_equal(t.data, b, sizeof(b));
  grt_tools_host_tensor_free(&f->io, &t);
  char message[256];
  snprintf(message, sizeof(message),
           "%s: no array left: the file holds 2 and was named 3 times", npy);
  grt_expect_error(grt_tools_parse_host_tensor(&f->io, spec, &t),
                      GRT_STATUS_OUT_OF_RANGE, message);

  path_in(f, "raw.bin", raw, sizeof(raw));
  GRT_EXPECT_OK(grt_file_write_contents(raw, b, sizeof(b)));
  snprintf(spec, sizeof(spec), "3xi32=@%s", raw);
  GRT_EXPECT_OK(grt_tools_parse_host_tensor(&f->io, spec, &t));
  assert_memory_equal(t.data, b, sizeof(b));
  grt_tools_host_tensor_free(&f->io, &t);
  snprintf(spec, sizeof(spec), "2x2xi32=@%s", raw);
  snprintf(message, sizeof(message), "%s: file has 12 bytes, 2x2xi32 needs 16",
           raw);
  grt_expect_error(grt_tools_parse_host_tensor(&f->io, spec, &t),
                      GRT_STATUS_INVALID_ARGUMENT, message);
  grt_expect_error(
      grt_tools_parse_host_tensor(&f->io, "@/nonexistent/x.npy", &t),
      GRT_STATUS_NOT_FOUND, "/nonexistent/x.npy");
}

static void test_arguments(void** state) {
  fixture_t* f = *state;
  grt_vm_variant_t v;
  GRT_EXPECT_OK(grt_tools_parse_argument(&f->io, f->device, "i32=25",
                                            GRT_VM_VALUE_TYPE_I32, &v));
  assert_int_equal(v.i32, 25);
  GRT_EXPECT_OK(grt_tools_parse_argument(&f->io, f->device, "(null)",
                                            GRT_VM_VALUE_TYPE_REF, &v));
  assert_null(v.ref.ptr);
  grt_expect_error(grt_tools_parse_argument(&f->io, f->device, "f32=1",
                                               GRT_VM_VALUE_TYPE_I32, &v),
                      GRT_STATUS_INVALID_ARGUMENT, "expected i32, got f32");
  grt_expect_error(grt_tools_parse_argument(&f->io, f->device, "1e39",
                                               GRT_VM_VALUE_TYPE_F32, &v),
                      GRT_STATUS_OUT_OF_RANGE, "1e39 is out of range for f32");
  GRT_EXPECT_OK(grt_tools_parse_argument(
      &f->io, f->device, "2x3xi16=1 2 3 4 5 6", GRT_VM_VALUE_TYPE_REF, &v));
  assert_ptr_equal(v.ref.type, &grt_runtime_hal_buffer_view_type);
  grt_hal_buffer_view_t* view = NULL;
  GRT_EXPECT_OK(grt_runtime_buffer_view_from_ref(&v.ref, &view));
  assert_int_equal(grt_hal_buffer_view_dim(view, 1), 3);
  assert_int_equal(grt_hal_buffer_view_element_type(view),
                   GRT_HAL_ELEMENT_TYPE_INT_16);

  // The round trip through the device, printed as IREE prints it.
  char* text = NULL;
  size_t length = 0;
  FILE* stream = open_memstream(&text, &length);
  GRT_EXPECT_OK(grt_tools_print_result(&f->io, f->device, 1, &v, 0, stream));
  grt_vm_variant_t scalar = grt_vm_variant_f32(0.1f);
  GRT_EXPECT_OK(
      grt_tools_print_result(&f->io, f->device, 2, &scalar, 0, stream));
  fclose(stream);
  assert_string_equal(text,
                      "result[1]: hal.buffer_view\n2x3xi16=[1 2 3][4 5 6]\n"
                      "result[2]: f32=0.1\n");
  free(text);
  grt_vm_variant_reset(&v);
}

static void test_compare(void** state) {
  fixture_t* f = *state;
  grt_tools_thresholds_t thresholds = {0.001, 0.0001, 0.0001};
  grt_vm_variant_t v;
  GRT_EXPECT_OK(grt_tools_parse_argument(&f->io, f->device, "3xf32=1 2 4",
                                            GRT_VM_VALUE_TYPE_REF, &v));
  bool matched = false;
  char message[256];
  GRT_EXPECT_OK(grt_tools_compare_result(&f->io, f->device, 0,
                                            "3xf32=1 2 4.00005", &v,
                                            &thresholds, &matched, message,
                                            sizeof(message)));
  assert_true(matched);
  GRT_EXPECT_OK(grt_tools_compare_result(&f->io, f->device, 0,
                                            "3xf32=1 2 3", &v, &thresholds,
                                            &matched, message,
                                            sizeof(message)));
  assert_false(matched);
  assert_string_equal(message, "result[0]: element 2: expected 3, got 4");
  GRT_EXPECT_OK(grt_tools_compare_result(&f->io, f->device, 0,
                                            "1x3xf32=1 2 4", &v, &thresholds,
                                            &matched, message,
                                            sizeof(message)));
  assert_false(matched);
  assert_string_equal(message, "result[0]: expected 1x3xf32, got 3xf32");
  grt_expect_error(
      grt_tools_compare_result(&f->io, f->device, 0, "3xf32=1 2", &v,
                               &thresholds, &matched, message,
                               sizeof(message)),
      GRT_STATUS_INVALID_ARGUMENT, "--expected_output '3xf32=1 2' for result 0");
  grt_vm_variant_reset(&v);

  grt_vm_variant_t scalar = grt_vm_variant_i32(5);
  GRT_EXPECT_OK(grt_tools_compare_result(&f->io, f->device, 1, "5", &scalar,
                                            &thresholds, &matched, message,
                                            sizeof(message)));
  assert_true(matched);
  GRT_EXPECT_OK(grt_tools_compare_result(&f->io, f->device, 1, "i32=6",
                                            &scalar, &thresholds, &matched,
                                            message, sizeof(message)));
  assert_false(matched);
  assert_string_equal(message, "result[1]: element 0: expected 6, got 5");
  GRT_EXPECT_OK(grt_tools_compare_result(&f->io, f->device, 1, "f32=5",
                                            &scalar, &thresholds, &matched,
                                            message, sizeof(message)));
  assert_false(matched);
  assert_string_equal(message, "result[1]: expected f32, got i32");
}

static void test_write_results(void** state) {
  fixture_t* f = *state;
  grt_vm_variant_t v;
  GRT_EXPECT_OK(grt_tools_parse_argument(&f->io, f->device, "2xu8=9 250",
                                            GRT_VM_VALUE_TYPE_REF, &v));
  char npy[128], raw[128], target[160];
  path_in(f, "y.npy", npy, sizeof(npy));
  path_in(f, "y.bin", raw, sizeof(raw));
  snprintf(target, sizeof(target), "@%s", npy);
  GRT_EXPECT_OK(
      grt_tools_write_result(&f->io, f->device, target, 0, &v, 0, stdout));
  snprintf(target, sizeof(target), "+%s", npy);
  GRT_EXPECT_OK(
      grt_tools_write_result(&f->io, f->device, target, 0, &v, 0, stdout));
  snprintf(target, sizeof(target), "@%s", raw);
  GRT_EXPECT_OK(
      grt_tools_write_result(&f->io, f->device, target, 0, &v, 0, stdout));
  // Read back what was written: two arrays, then the raw bytes.
  snprintf(target, sizeof(target), "@%s", npy);
  for (int i = 0; i < 2; ++i) {
    grt_tools_host_tensor_t t;
    GRT_EXPECT_OK(grt_tools_parse_host_tensor(&f->io, target, &t));
    assert_int_equal(t.element_type, GRT_HAL_ELEMENT_TYPE_UINT_8);
    assert_memory_equal(t.data, "\x09\xfa", 2);
    grt_tools_host_tensor_free(&f->io, &t);
  }
  grt_file_contents_t contents;
  GRT_EXPECT_OK(
      grt_file_read_contents(raw, grt_allocator_system(), &contents));
  assert_int_equal(contents.size, 2);
  assert_memory_equal(contents.data, "\x09\xfa", 2);
  grt_file_contents_free(&contents);
  grt_expect_error(
      grt_tools_write_result(&f->io, f->device, "y.npy", 0, &v, 0, stdout),
      GRT_STATUS_INVALID_ARGUMENT,
      "--output 'y.npy': expected -, @FILE or +FILE (.npy or raw bytes)");
  grt_vm_variant_reset(&v);
  grt_vm_variant_t null_ref = grt_vm_variant_empty();
  null_ref.type = GRT_VM_VALUE_TYPE_REF;
  grt_expect_error(
      grt_tools_write_result(&f->io, f->device, "@x.bin", 3, &null_ref, 0,
                             stdout),
      GRT_STATUS_INVALID_ARGUMENT,
      "expected a scalar or hal.buffer_view, got (null); --output '@x.bin' "
      "for result 3");
}

// The system allocator, remembering the largest block asked for.
typedef struct {
  size_t largest;
} measuring_allocator_t;
static void* measuring_allocate(void* self, size_t size, size_t alignment) {
  measuring_allocator_t* m = self;
  if (size > m->largest) m->largest = size;
  return grt_allocator_system().vtable->allocate(NULL, size, alignment);
}
static void* measuring_reallocate(void* self, void* ptr, size_t old_size,
                                  size_t new_size, size_t alignment) {
  measuring_allocator_t* m = self;
  if (new_size > m->largest) m->largest = new_size;
  return grt_allocator_system().vtable->reallocate(NULL, ptr, old_size,
                                                   new_size, alignment);
}
static void measuring_free(void* self, void* ptr) {
  grt_allocator_system().vtable->free(NULL, ptr);
}
static const grt_allocator_vtable_t measuring_vtable = {
    measuring_allocate, measuring_reallocate, measuring_free};

// Printing 4 elements of a 1 MiB result copies 16 bytes, not the tensor.
static void test_print_reads_only_what_it_prints(void** state) {
  fixture_t* f = *state;
  grt_vm_variant_t v;
  GRT_EXPECT_OK(grt_tools_parse_argument(&f->io, f->device, "512x512xf32=1.5",
                                         GRT_VM_VALUE_TYPE_REF, &v));
  measuring_allocator_t measuring = {0};
  grt_tools_tensor_io_t io;
  grt_tools_tensor_io_initialize(
      (grt_allocator_t){&measuring_vtable, &measuring}, &io);
  char text[256] = {0};
  FILE* stream = fmemopen(text, sizeof(text) - 1, "w");
  assert_non_null(stream);
  GRT_EXPECT_OK(grt_tools_print_result(&io, f->device, 0, &v, 4, stream));
  fclose(stream);
  assert_string_equal(text,
                      "result[0]: hal.buffer_view\n"
                      "512x512xf32=[1.5 1.5 1.5 1.5...\n");
  assert_true(measuring.largest < 1024);
  // All of it (0) still reads everything.
  stream = tmpfile();
  assert_non_null(stream);
  GRT_EXPECT_OK(grt_tools_print_result(&io, f->device, 0, &v, 0, stream));
  fclose(stream);
  assert_true(measuring.largest >= 512 * 512 * 4);
  grt_tools_tensor_io_deinitialize(&io);
  grt_vm_variant_reset(&v);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_text_tensors, setup, teardown),
      cmocka_unit_test_setup_teardown(test_shape_only_is_zeros, setup, teardown),
      cmocka_unit_test_setup_teardown(test_complex_text, setup, teardown),
      cmocka_unit_test_setup_teardown(test_npy_and_raw_files, setup, teardown),
      cmocka_unit_test_setup_teardown(test_arguments, setup, teardown),
      cmocka_unit_test_setup_teardown(test_compare, setup, teardown),
      cmocka_unit_test_setup_teardown(test_write_results, setup, teardown),
      cmocka_unit_test_setup_teardown(test_print_reads_only_what_it_prints,
                                      setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
