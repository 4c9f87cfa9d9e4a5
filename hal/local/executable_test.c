// Local executables: a real shared object prepared from its bytes as
// cpu-<host arch>, the same kernels linked in and prepared as cpu-static,
// both called through the resulting table; every way a binary, a library
// or a module's expectations can be wrong; and the cache's digest reuse.
#include "hal/local/executable.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "base/status_matchers.h"

#include "base/file.h"
#include "base/sha256.h"
#include "hal/local/testdata/test_kernels.h"

// What a module would say about the test kernels, in table order.
static const grt_hal_entry_point_info_t kTestEntryPoints[] = {
    GRT_TEST_KERNELS_ENTRY_POINTS};

typedef struct binary_t {
  uint8_t* data;
  size_t size;
  uint8_t digest[GRT_SHA256_DIGEST_SIZE];
} binary_t;

static void binary_set(binary_t* binary, const void* data, size_t size) {
  binary->data = (uint8_t*)malloc(size ? size : 1);
  assert_non_null(binary->data);
  memcpy(binary->data, data, size);
  binary->size = size;
  grt_sha256(data, size, binary->digest);
}

static void binary_read(binary_t* binary, const char* path) {
  grt_file_contents_t contents;
  GRT_EXPECT_OK(grt_file_read_contents(path, grt_allocator_system(), &contents));
  binary_set(binary, contents.data, contents.size);
  grt_file_contents_free(&contents);
}

static void binary_free(binary_t* binary) {
  free(binary->data);
  binary->data = NULL;
}

static grt_hal_executable_params_t params_for(
    const char* format, const binary_t* binary,
    const grt_hal_entry_point_info_t* entry_points, size_t entry_point_count) {
  grt_hal_executable_params_t params;
  memset(&params, 0, sizeof(params));
  params.format = grt_make_cstring_view(format);
  params.binary = binary->data;
  params.binary_size = binary->size;
  params.digest = binary->digest;
  params.entry_points = entry_points;
  params.entry_point_count = entry_point_count;
  return params;
}

static grt_hal_executable_cache_t* make_cache(void) {
  grt_hal_executable_cache_t* cache = NULL;
  GRT_EXPECT_OK(
      grt_hal_local_executable_cache_create(grt_allocator_system(), &cache));
  return cache;
}

static void register_test_kernels_once(void) {
  static int registered = 0;
  if (!registered) {
    GRT_EXPECT_OK(grt_hal_local_register_static_library(
        grt_hal_local_test_kernels_library()));
    registered = 1;
  }
}

// Runs every workgroup of a dispatch in order, as local-sync would.
static int run_dispatch(const grt_kernel_entry_t* kernel,
                        const uint32_t count[3], void* const* bindings,
                        const size_t* lengths, const uint32_t* constants) {
  grt_kernel_dispatch_state_t dispatch;
  memset(&dispatch, 0, sizeof(dispatch));
  memcpy(dispatch.workgroup_count, count, sizeof(dispatch.workgroup_count));
  memcpy(dispatch.workgroup_size, kernel->workgroup_size,
         sizeof(dispatch.workgroup_size));
  dispatch.constant_count = kernel->constant_count;
  dispatch.constants = constants;
  dispatch.binding_count = kernel->binding_count;
  dispatch.bindings = bindings;
  dispatch.binding_lengths = lengths;
  void* scratch = NULL;
  if (kernel->local_memory_size) {
    scratch = aligned_alloc(64, (kernel->local_memory_size + 63) / 64 * 64);
    assert_non_null(scratch);
  }
  int result = 0;
  for (uint32_t z = 0; z < count[2] && !result; ++z) {
    for (uint32_t y = 0; y < count[1] && !result; ++y) {
      for (uint32_t x = 0; x < count[0] && !result; ++x) {
        grt_kernel_workgroup_state_t workgroup;
        memset(&workgroup, 0, sizeof(workgroup));
        workgroup.workgroup_id[0] = x;
        workgroup.workgroup_id[1] = y;
        workgroup.workgroup_id[2] = z;
        workgroup.local_memory = scratch;
        workgroup.local_memory_size = kernel->local_memory_size;
        result = kernel->fn(&dispatch, &workgroup);
      }
    }
  }
  free(scratch);
  return result;
}

static const grt_kernel_entry_t* kernel_named(
    grt_hal_local_executable_t* executable, const char* name) {
  for (size_t i = 0; i < executable->base.entry_point_count; ++i) {
    if (strcmp(executable->kernels[i]->name, name) == 0) {
      return executable->kernels[i];
    }
  }
  fail_msg("no kernel '%s'", name);
  return NULL;
}

// Calls each test kernel through the executable's table and checks what it
// computed.
static void exercise_test_kernels(grt_hal_local_executable_t* executable) {
  enum { N = 100 };
  float a[N], b[N], out[N];
  for (int i = 0; i < N; ++i) {
    a[i] = (float)i;
    b[i] = 0.5f * (float)i;
    out[i] = -1.0f;
  }
  // 2 workgroups of 64 cover 100 elements; the kernel bounds the tail.
  const uint32_t two[3] = {2, 1, 1};
  void* add_bindings[3] = {a, b, out};
  size_t add_lengths[3] = {sizeof(a), sizeof(b), sizeof(out)};
  assert_int_equal(run_dispatch(kernel_named(executable, "add_f32"), two,
                                add_bindings, add_lengths, NULL),
                   0);
  for (int i = 0; i < N; ++i) assert_true(out[i] == 1.5f * (float)i);

  const float scale = 3.0f;
  uint32_t scale_bits = 0;
  memcpy(&scale_bits, &scale, sizeof(scale_bits));
  const uint32_t four[3] = {4, 1, 1};
  void* scale_bindings[2] = {a, out};
  size_t scale_lengths[2] = {sizeof(a), sizeof(out)};
  assert_int_equal(run_dispatch(kernel_named(executable, "scale_f32"), four,
                                scale_bindings, scale_lengths, &scale_bits),
                   0);
  for (int i = 0; i < N; ++i) assert_true(out[i] == 3.0f * (float)i);

  const uint32_t one[3] = {1, 1, 1};
  assert_int_equal(run_dispatch(kernel_named(executable, "fail"), one, NULL,
                                NULL, NULL),
                   GRT_TEST_KERNELS_FAIL_CODE);

  uint32_t ids[6] = {0};
  const uint32_t grid[3] = {3, 2, 1};
  void* id_bindings[1] = {ids};
  size_t id_lengths[1] = {sizeof(ids)};
  assert_int_equal(run_dispatch(kernel_named(executable, "workgroup_ids"), grid,
                                id_bindings, id_lengths, NULL),
                   0);
  for (uint32_t i = 0; i < 6; ++i) assert_int_equal(ids[i], i + 1);
  // A grid larger than the binding is reported by the kernel, not written.
  const uint32_t too_many[3] = {7, 1, 1};
  assert_int_equal(run_dispatch(kernel_named(executable, "workgroup_ids"),
                                too_many, id_bindings, id_lengths, NULL),
                   3);
}

//===----------------------------------------------------------------------===//
// Formats
//===----------------------------------------------------------------------===//

static void test_host_format(void** state) {
  (void)state;
  const char* format = grt_hal_local_host_executable_format();
  assert_true(strncmp(format, "cpu-", 4) == 0);
#if defined(__x86_64__)
  assert_string_equal(format, "cpu-x86_64");
#elif defined(__aarch64__)
  assert_string_equal(format, "cpu-aarch64");
#endif
  grt_hal_executable_cache_t* cache = make_cache();
  assert_true(grt_hal_executable_cache_can_prepare_format(
      cache, grt_make_cstring_view(format)));
  assert_true(grt_hal_executable_cache_can_prepare_format(
      cache, grt_make_cstring_view("cpu-static")));
  assert_false(grt_hal_executable_cache_can_prepare_format(
      cache, grt_make_cstring_view("cuda-ptx")));
  assert_false(grt_hal_executable_cache_can_prepare_format(
      cache, grt_make_cstring_view("cpu-")));
  assert_false(grt_hal_executable_cache_can_prepare_format(
      cache, grt_make_cstring_view(
                 strcmp(format, "cpu-aarch64") ? "cpu-aarch64" : "cpu-x86_64")));

  // The cache itself names the formats it runs when called directly.
  binary_t binary;
  binary_set(&binary, "x", 1);
  grt_hal_executable_params_t params =
      params_for("vulkan-spirv", &binary, NULL, 0);
  grt_hal_executable_t* executable = NULL;
  char expected[160];
  snprintf(expected, sizeof(expected),
           "device cannot run executable format 'vulkan-spirv' (it runs '%s' "
           "and 'cpu-static')",
           format);
  grt_expect_error(GRT_HAL_VTABLE(cache, grt_hal_executable_cache_vtable_t)
                   ->prepare_executable(cache, &params, &executable),
               GRT_STATUS_INCOMPATIBLE, expected);
  assert_null(executable);
  binary_free(&binary);
  grt_hal_executable_cache_release(cache);
}

//===----------------------------------------------------------------------===//
// Shared objects
//===----------------------------------------------------------------------===//

static void test_shared_object_in_module_order(void** state) {
  (void)state;
  binary_t binary;
  binary_read(&binary, GRT_TEST_KERNELS_SO);
  // The module lists the entries in another order than the library.
  const grt_hal_entry_point_info_t expected[] = {
      kTestEntryPoints[GRT_TEST_KERNELS_WORKGROUP_IDS],
      kTestEntryPoints[GRT_TEST_KERNELS_SCALE_F32],
      kTestEntryPoints[GRT_TEST_KERNELS_ADD_F32],
      kTestEntryPoints[GRT_TEST_KERNELS_FAIL],
  };
  grt_hal_executable_params_t params =
      params_for(grt_hal_local_host_executable_format(), &binary, expected, 4);
  grt_hal_executable_cache_t* cache = make_cache();
  grt_hal_executable_t* base = NULL;
  GRT_EXPECT_OK(grt_hal_executable_cache_prepare(cache, &params, &base));
  // The caller's bytes are not needed once prepared.
  memset(binary.data, 0, binary.size);
  binary_free(&binary);

  grt_hal_local_executable_t* executable = grt_hal_local_executable_cast(base);
  assert_non_null(executable->library_handle);
  assert_int_equal(grt_hal_executable_entry_point_count(base), 4);
  assert_string_equal(executable->kernels[0]->name, "workgroup_ids");
  assert_string_equal(executable->kernels[1]->name, "scale_f32");
  assert_string_equal(executable->kernels[2]->name, "add_f32");
  assert_string_equal(executable->kernels[3]->name, "fail");
  assert_int_equal(executable->max_local_memory_size,
                   GRT_TEST_KERNELS_WORKGROUP_IDS_LOCAL_MEMORY);
  const grt_hal_entry_point_info_t* info = NULL;
  GRT_EXPECT_OK(grt_hal_executable_entry_point(base, 2, &info));
  assert_true(grt_string_view_equal_cstring(info->name, "add_f32"));
  assert_int_equal(info->binding_count, 3);
  exercise_test_kernels(executable);

  // The executable outlives the cache that made it.
  grt_hal_executable_cache_release(cache);
  exercise_test_kernels(executable);
  grt_hal_executable_release(base);
}

static void prepare_expecting(const binary_t* binary,
                              grt_status_code_t code, const char* fragment) {
  grt_hal_executable_params_t params =
      params_for(grt_hal_local_host_executable_format(), binary,
                 kTestEntryPoints, GRT_TEST_KERNELS_COUNT);
  grt_hal_executable_cache_t* cache = make_cache();
  grt_hal_executable_t* executable = NULL;
  grt_expect_error(grt_hal_executable_cache_prepare(cache, &params, &executable),
               code, fragment);
  assert_null(executable);
  grt_hal_executable_cache_release(cache);
}

static void test_not_elf(void** state) {
  (void)state;
  binary_t binary;
  binary_set(&binary, "MZ\x90\x00 this is not ELF", 20);
  char expected[160];
  snprintf(expected, sizeof(expected),
           "executable %s: binary is not an ELF shared object (expected the "
           "magic 7f 45 4c 46, got 4d 5a 90 00)",
           grt_hal_local_host_executable_format());
  prepare_expecting(&binary, GRT_STATUS_INVALID_ARGUMENT, expected);
  binary_free(&binary);
  // Shorter than the magic itself.
  binary_set(&binary, "\x7f" "E", 2);
  prepare_expecting(&binary, GRT_STATUS_INVALID_ARGUMENT,
                    "binary is not an ELF shared object (expected the magic 7f "
                    "45 4c 46, got 7f 45)");
  binary_free(&binary);
  // The magic, then nothing.
  binary_set(&binary, "\x7f" "ELF\x02\x01", 6);
  prepare_expecting(&binary, GRT_STATUS_INVALID_ARGUMENT,
                    "ELF binary is truncated: 6 bytes, the header needs at "
                    "least 20");
  binary_free(&binary);
}

// A copy of the test library with |size| bytes at |offset| replaced.
static void patched_library(binary_t* binary, size_t offset, const void* bytes,
                            size_t size) {
  binary_read(binary, GRT_TEST_KERNELS_SO);
  memcpy(binary->data + offset, bytes, size);
  grt_sha256(binary->data, binary->size, binary->digest);
}

static void test_wrong_elf_header(void** state) {
  (void)state;
  const char* host = grt_hal_local_host_executable_format() + 4;
  binary_t binary;
  // e_machine of another architecture (little-endian hosts write it so).
  int host_is_aarch64 = strcmp(host, "aarch64") == 0;
  const uint8_t machine[2] = {host_is_aarch64 ? 62 : 183, 0};
  patched_library(&binary, 18, machine, sizeof(machine));
  char expected[160];
  snprintf(expected, sizeof(expected),
           "executable cpu-%s: ELF machine %d (%s) does not match this host (%s)",
           host, machine[0], host_is_aarch64 ? "x86_64" : "aarch64", host);
  prepare_expecting(&binary, GRT_STATUS_INCOMPATIBLE, expected);
  binary_free(&binary);

  // The other word size.
  const uint8_t elf_class = sizeof(void*) == 8 ? 1 : 2;
  patched_library(&binary, 4, &elf_class, 1);
  snprintf(expected, sizeof(expected),
           "ELF class %d (%s) does not match this host (%s)", elf_class,
           elf_class == 1 ? "32-bit" : "64-bit",
           elf_class == 1 ? "64-bit" : "32-bit");
  prepare_expecting(&binary, GRT_STATUS_INCOMPATIBLE, expected);
  binary_free(&binary);

  // The other byte order (or nonsense).
  const uint8_t elf_data = 7;
  patched_library(&binary, 5, &elf_data, 1);
  prepare_expecting(&binary, GRT_STATUS_INCOMPATIBLE,
                    "ELF byte order 7 (invalid) does not match this host");
  binary_free(&binary);

  // An executable, not a shared object.
  const uint8_t exec_type[2] = {2, 0};
  patched_library(&binary, 16, exec_type, sizeof(exec_type));
  prepare_expecting(&binary, GRT_STATUS_INVALID_ARGUMENT,
                    "binary is not an ELF shared object (ELF type 2, expected 3 "
                    "ET_DYN)");
  binary_free(&binary);
}

static void test_truncated_shared_object(void** state) {
  (void)state;
  // A valid header with nothing behind it: grt's loader finds its program
  // headers missing; the dynamic loader refuses it and its reason is
  // passed on.
  binary_t whole;
  binary_read(&whole, GRT_TEST_KERNELS_SO);
  binary_t binary;
  binary_set(&binary, whole.data, 64);
  binary_free(&whole);
  char expected[128];
  snprintf(expected, sizeof(expected),
           "executable %s: ELF program headers (offset 0x40, ",
           grt_hal_local_host_executable_format());
  prepare_expecting(&binary, GRT_STATUS_INVALID_ARGUMENT, expected);
  assert_int_equal(setenv("GRT_KERNEL_LOADER", "dlopen", 1), 0);
  snprintf(expected, sizeof(expected),
           "executable %s: cannot load the kernel library: ",
           grt_hal_local_host_executable_format());
  prepare_expecting(&binary, GRT_STATUS_INVALID_ARGUMENT, expected);
  assert_int_equal(unsetenv("GRT_KERNEL_LOADER"), 0);
  binary_free(&binary);
}

// GRT_KERNEL_LOADER picks the loader: both run the same kernels, and a
// value that names neither is refused.
static void test_kernel_loader_choice(void** state) {
  (void)state;
  binary_t binary;
  binary_read(&binary, GRT_TEST_KERNELS_SO);
  const char* loaders[] = {"grt", "dlopen"};
  for (size_t i = 0; i < 2; ++i) {
    assert_int_equal(setenv("GRT_KERNEL_LOADER", loaders[i], 1), 0);
    grt_hal_executable_params_t params =
        params_for(grt_hal_local_host_executable_format(), &binary,
                   kTestEntryPoints, GRT_TEST_KERNELS_COUNT);
    grt_hal_executable_cache_t* cache = make_cache();
    grt_hal_executable_t* base = NULL;
    GRT_EXPECT_OK(grt_hal_executable_cache_prepare(cache, &params, &base));
    grt_hal_executable_cache_release(cache);
    exercise_test_kernels(grt_hal_local_executable_cast(base));
    grt_hal_executable_release(base);
  }
  assert_int_equal(setenv("GRT_KERNEL_LOADER", "ld.so", 1), 0);
  prepare_expecting(&binary, GRT_STATUS_INVALID_ARGUMENT,
                    "GRT_KERNEL_LOADER='ld.so': expected 'grt' (grt's own ELF "
                    "loader, the default) or 'dlopen'");
  assert_int_equal(unsetenv("GRT_KERNEL_LOADER"), 0);
  binary_free(&binary);
}

static void test_missing_query_symbol(void** state) {
  (void)state;
  binary_t binary;
  binary_read(&binary, GRT_TEST_KERNELS_NO_QUERY_SO);
  prepare_expecting(&binary, GRT_STATUS_NOT_FOUND,
                    "kernel library does not export 'grt_kernel_library_query'");
  binary_free(&binary);
}

static void test_newer_abi(void** state) {
  (void)state;
  binary_t binary;
  binary_read(&binary, GRT_TEST_KERNELS_NEWER_ABI_SO);
  prepare_expecting(&binary, GRT_STATUS_INCOMPATIBLE,
                    "kernel library does not support ABI version 1");
  binary_free(&binary);
}

//===----------------------------------------------------------------------===//
// Module expectations
//===----------------------------------------------------------------------===//

static void expect_mismatch(const char* format, const binary_t* binary,
                            const grt_hal_entry_point_info_t* expected,
                            size_t count, const char* fragment) {
  grt_hal_executable_params_t params = params_for(format, binary, expected, count);
  grt_hal_executable_cache_t* cache = make_cache();
  grt_hal_executable_t* executable = NULL;
  grt_expect_error(grt_hal_executable_cache_prepare(cache, &params, &executable),
               GRT_STATUS_INCOMPATIBLE, fragment);
  assert_null(executable);
  grt_hal_executable_cache_release(cache);
}

static void test_entry_point_mismatches(void** state) {
  (void)state;
  register_test_kernels_once();
  binary_t shared;
  binary_read(&shared, GRT_TEST_KERNELS_SO);
  binary_t name;
  binary_set(&name, GRT_TEST_KERNELS_STATIC_NAME,
             strlen(GRT_TEST_KERNELS_STATIC_NAME));
  const char* formats[2] = {grt_hal_local_host_executable_format(),
                            "cpu-static"};
  const binary_t* binaries[2] = {&shared, &name};
  for (int f = 0; f < 2; ++f) {
    char expected_text[160];
    grt_hal_entry_point_info_t expected[GRT_TEST_KERNELS_COUNT];

    memcpy(expected, kTestEntryPoints, sizeof(expected));
    expected[1].name = grt_make_cstring_view("mul_f32");
    snprintf(expected_text, sizeof(expected_text),
             "executable %s: binary has no entry point 'mul_f32'", formats[f]);
    expect_mismatch(formats[f], binaries[f], expected, GRT_TEST_KERNELS_COUNT,
                    expected_text);

    memcpy(expected, kTestEntryPoints, sizeof(expected));
    expected[0].binding_count = 2;
    snprintf(expected_text, sizeof(expected_text),
             "executable %s: entry point 0 'add_f32': module expects 2 "
             "bindings, binary has 3",
             formats[f]);
    expect_mismatch(formats[f], binaries[f], expected, GRT_TEST_KERNELS_COUNT,
                    expected_text);

    memcpy(expected, kTestEntryPoints, sizeof(expected));
    expected[1].constant_count = 0;
    expect_mismatch(formats[f], binaries[f], expected, GRT_TEST_KERNELS_COUNT,
                    "entry point 1 'scale_f32': module expects 0 constants, "
                    "binary has 1");

    memcpy(expected, kTestEntryPoints, sizeof(expected));
    expected[0].workgroup_size[0] = 32;
    expect_mismatch(formats[f], binaries[f], expected, GRT_TEST_KERNELS_COUNT,
                    "entry point 0 'add_f32': module expects workgroup size "
                    "32x1x1, binary has 64x1x1");

    memcpy(expected, kTestEntryPoints, sizeof(expected));
    expect_mismatch(formats[f], binaries[f], expected, 2,
                    "module expects 2 entry points, binary has 4");
  }
  binary_free(&shared);
  binary_free(&name);
}

//===----------------------------------------------------------------------===//
// Static libraries
//===----------------------------------------------------------------------===//

static void test_static_library(void** state) {
  (void)state;
  register_test_kernels_once();
  // The same library again is already there; another of the same name is
  // refused.
  GRT_EXPECT_OK(grt_hal_local_register_static_library(
      grt_hal_local_test_kernels_library()));
  grt_kernel_library_t impostor = *grt_hal_local_test_kernels_library();
  grt_expect_error(grt_hal_local_register_static_library(&impostor),
               GRT_STATUS_ALREADY_EXISTS,
               "a static kernel library named 'grt_test_kernels' is already "
               "registered");
  binary_t name;
  binary_set(&name, GRT_TEST_KERNELS_STATIC_NAME,
             strlen(GRT_TEST_KERNELS_STATIC_NAME));
  grt_hal_executable_params_t params = params_for(
      "cpu-static", &name, kTestEntryPoints, GRT_TEST_KERNELS_COUNT);
  grt_hal_executable_cache_t* cache = make_cache();
  grt_hal_executable_t* base = NULL;
  GRT_EXPECT_OK(grt_hal_executable_cache_prepare(cache, &params, &base));
  grt_hal_local_executable_t* executable = grt_hal_local_executable_cast(base);
  assert_null(executable->library_handle);
  // In table order here, so the table is the library's own entries.
  const grt_kernel_library_t* library = grt_hal_local_test_kernels_library();
  for (size_t i = 0; i < GRT_TEST_KERNELS_COUNT; ++i) {
    assert_ptr_equal(executable->kernels[i], &library->entries[i]);
  }
  exercise_test_kernels(executable);
  grt_hal_executable_release(base);
  grt_hal_executable_cache_release(cache);
  binary_free(&name);
}

static void test_unknown_static_library(void** state) {
  (void)state;
  register_test_kernels_once();
  binary_t name;
  binary_set(&name, "no_such_kernels", 15);
  grt_hal_executable_params_t params = params_for(
      "cpu-static", &name, kTestEntryPoints, GRT_TEST_KERNELS_COUNT);
  grt_hal_executable_cache_t* cache = make_cache();
  grt_hal_executable_t* executable = NULL;
  grt_expect_error(grt_hal_executable_cache_prepare(cache, &params, &executable),
               GRT_STATUS_NOT_FOUND,
               "executable cpu-static: no static kernel library named "
               "'no_such_kernels' is registered (registered: ");
  // The list names what is there.
  params = params_for("cpu-static", &name, kTestEntryPoints,
                      GRT_TEST_KERNELS_COUNT);
  grt_expect_error(grt_hal_executable_cache_prepare(cache, &params, &executable),
               GRT_STATUS_NOT_FOUND, "'grt_test_kernels'");
  grt_hal_executable_cache_release(cache);
  binary_free(&name);
}

static void test_register_errors(void** state) {
  (void)state;
  grt_expect_error(grt_hal_local_register_static_library(NULL),
               GRT_STATUS_INVALID_ARGUMENT,
               "a static kernel library needs a name to be registered under, "
               "got no library");
  static const grt_kernel_library_t unnamed = {GRT_KERNEL_ABI_VERSION, 0, NULL,
                                               ""};
  grt_expect_error(grt_hal_local_register_static_library(&unnamed),
               GRT_STATUS_INVALID_ARGUMENT, "got an empty name");
}

static int noop_kernel(const grt_kernel_dispatch_state_t* dispatch,
                       const grt_kernel_workgroup_state_t* workgroup) {
  (void)dispatch;
  (void)workgroup;
  return 0;
}

// Registers |library| and expects preparing it for one entry point 'k'
// (1x1x1, no bindings) to fail with |fragment|.
static void expect_bad_library(const grt_kernel_library_t* library,
                               const char* fragment) {
  GRT_EXPECT_OK(grt_hal_local_register_static_library(library));
  binary_t name;
  binary_set(&name, library->name, strlen(library->name));
  const grt_hal_entry_point_info_t expected[1] = {
      {{"k", 1}, 0, 0, {1, 1, 1}, NULL, NULL}};
  grt_hal_executable_params_t params =
      params_for("cpu-static", &name, expected, 1);
  grt_hal_executable_cache_t* cache = make_cache();
  grt_hal_executable_t* executable = NULL;
  grt_expect_error(grt_hal_executable_cache_prepare(cache, &params, &executable),
               GRT_STATUS_INCOMPATIBLE, fragment);
  assert_null(executable);
  grt_hal_executable_cache_release(cache);
  binary_free(&name);
}

static void test_bad_libraries(void** state) {
  (void)state;
  static const grt_kernel_entry_t good[1] = {
      {"k", noop_kernel, 0, 0, {1, 1, 1}, 0}};
  static const grt_kernel_library_t newer = {2, 1, good, "bad_newer"};
  expect_bad_library(&newer,
                     "executable cpu-static: kernel library is built for ABI "
                     "version 2, this runtime needs version 1");
  static const grt_kernel_library_t no_table = {GRT_KERNEL_ABI_VERSION, 1, NULL,
                                                "bad_no_table"};
  expect_bad_library(&no_table,
                     "kernel library declares 1 entries but has no entry table");
  static const grt_kernel_entry_t no_fn[1] = {{"k", NULL, 0, 0, {1, 1, 1}, 0}};
  static const grt_kernel_library_t no_fn_library = {GRT_KERNEL_ABI_VERSION, 1,
                                                     no_fn, "bad_no_fn"};
  expect_bad_library(&no_fn_library,
                     "kernel library entry 0 'k' has no function");
  static const grt_kernel_entry_t no_size[1] = {
      {"k", noop_kernel, 0, 0, {1, 0, 1}, 0}};
  static const grt_kernel_library_t no_size_library = {
      GRT_KERNEL_ABI_VERSION, 1, no_size, "bad_no_size"};
  expect_bad_library(&no_size_library,
                     "kernel library entry 0 'k' has workgroup size 1x0x1; "
                     "every dimension must be at least 1");
  static const grt_kernel_entry_t no_name[1] = {
      {NULL, noop_kernel, 0, 0, {1, 1, 1}, 0}};
  static const grt_kernel_library_t no_name_library = {
      GRT_KERNEL_ABI_VERSION, 1, no_name, "bad_no_name"};
  expect_bad_library(&no_name_library, "kernel library entry 0 has no name");
  static const grt_kernel_entry_t twice[2] = {
      {"k", noop_kernel, 0, 0, {1, 1, 1}, 0},
      {"k", noop_kernel, 0, 0, {1, 1, 1}, 0}};
  static const grt_kernel_library_t twice_library = {GRT_KERNEL_ABI_VERSION, 2,
                                                     twice, "bad_twice"};
  expect_bad_library(&twice_library,
                     "kernel library has two entries named 'k' (0 and 1)");
}

//===----------------------------------------------------------------------===//
// The cache
//===----------------------------------------------------------------------===//

static void test_cache_reuses_by_digest(void** state) {
  (void)state;
  register_test_kernels_once();
  binary_t binary;
  binary_read(&binary, GRT_TEST_KERNELS_SO);
  const char* format = grt_hal_local_host_executable_format();
  grt_hal_executable_params_t params =
      params_for(format, &binary, kTestEntryPoints, GRT_TEST_KERNELS_COUNT);
  grt_hal_executable_cache_t* cache = make_cache();
  grt_hal_executable_t* first = NULL;
  grt_hal_executable_t* second = NULL;
  grt_hal_executable_t* again_0 = NULL;
  GRT_EXPECT_OK(grt_hal_executable_cache_prepare(cache, &params, &first));
  GRT_EXPECT_OK(grt_hal_executable_cache_prepare(cache, &params, &second));
  assert_ptr_equal(first, second);
  grt_hal_executable_release(second);

  // Another digest is another executable (another dlopen of the same code).
  binary.digest[0] ^= 1;
  GRT_EXPECT_OK(grt_hal_executable_cache_prepare(cache, &params, &second));
  assert_ptr_not_equal(first, second);
  grt_hal_executable_release(second);
  binary.digest[0] ^= 1;

  // Same binary, entry points wanted in another order: kernels[i] differs,
  // so it cannot be the same executable.
  const grt_hal_entry_point_info_t reversed[GRT_TEST_KERNELS_COUNT] = {
      kTestEntryPoints[3], kTestEntryPoints[2], kTestEntryPoints[1],
      kTestEntryPoints[0]};
  params = params_for(format, &binary, reversed, GRT_TEST_KERNELS_COUNT);
  GRT_EXPECT_OK(grt_hal_executable_cache_prepare(cache, &params, &second));
  assert_ptr_not_equal(first, second);
  assert_string_equal(
      grt_hal_local_executable_cast(second)->kernels[0]->name, "workgroup_ids");
  grt_hal_executable_release(second);

  // Same binary and order, but the module describes the bindings
  // differently (access, minimum lengths): those come from the module and
  // decide what dispatches may do, so each module gets its own executable.
  static const uint8_t kAccess[3] = {1, 1, 2};
  static const uint64_t kLengths[3] = {4000, 4000, 4000};
  grt_hal_entry_point_info_t described[GRT_TEST_KERNELS_COUNT] = {
      GRT_TEST_KERNELS_ENTRY_POINTS};
  described[0].binding_access = kAccess;
  params = params_for(format, &binary, described, GRT_TEST_KERNELS_COUNT);
  GRT_EXPECT_OK(grt_hal_executable_cache_prepare(cache, &params, &second));
  assert_ptr_not_equal(first, second);
  described[0].binding_min_lengths = kLengths;
  GRT_EXPECT_OK(grt_hal_executable_cache_prepare(cache, &params, &again_0));
  assert_ptr_not_equal(again_0, second);
  assert_ptr_not_equal(again_0, first);
  assert_true(again_0->entry_points[0].binding_min_lengths[2] == 4000);
  grt_hal_executable_release(again_0);
  grt_hal_executable_release(second);

  // The same digest in the other format is not the same executable either.
  binary_t name;
  binary_set(&name, GRT_TEST_KERNELS_STATIC_NAME,
             strlen(GRT_TEST_KERNELS_STATIC_NAME));
  memcpy(name.digest, binary.digest, sizeof(name.digest));
  params = params_for("cpu-static", &name, kTestEntryPoints,
                      GRT_TEST_KERNELS_COUNT);
  GRT_EXPECT_OK(grt_hal_executable_cache_prepare(cache, &params, &second));
  assert_ptr_not_equal(first, second);
  assert_null(grt_hal_local_executable_cast(second)->library_handle);
  grt_hal_executable_t* again = NULL;
  GRT_EXPECT_OK(grt_hal_executable_cache_prepare(cache, &params, &again));
  assert_ptr_equal(again, second);
  grt_hal_executable_release(again);
  grt_hal_executable_release(second);

  // Another cache prepares its own.
  grt_hal_executable_cache_t* other = make_cache();
  params = params_for(format, &binary, kTestEntryPoints, GRT_TEST_KERNELS_COUNT);
  GRT_EXPECT_OK(grt_hal_executable_cache_prepare(other, &params, &second));
  assert_ptr_not_equal(first, second);
  grt_hal_executable_release(second);
  grt_hal_executable_cache_release(other);

  grt_hal_executable_release(first);
  grt_hal_executable_cache_release(cache);
  binary_free(&name);
  binary_free(&binary);
}

typedef struct prepare_thread_t {
  grt_hal_executable_cache_t* cache;
  const grt_hal_executable_params_t* params;
  grt_hal_executable_t* executable;
  grt_status_t status;
} prepare_thread_t;

static void* prepare_on_thread(void* arg) {
  prepare_thread_t* work = (prepare_thread_t*)arg;
  work->status = grt_hal_executable_cache_prepare(work->cache, work->params,
                                                  &work->executable);
  return NULL;
}

static void test_cache_shared_across_threads(void** state) {
  (void)state;
  binary_t binary;
  binary_read(&binary, GRT_TEST_KERNELS_SO);
  grt_hal_executable_params_t params =
      params_for(grt_hal_local_host_executable_format(), &binary,
                 kTestEntryPoints, GRT_TEST_KERNELS_COUNT);
  grt_hal_executable_cache_t* cache = make_cache();
  enum { THREADS = 4 };
  prepare_thread_t work[THREADS];
  pthread_t threads[THREADS];
  for (int i = 0; i < THREADS; ++i) {
    work[i].cache = cache;
    work[i].params = &params;
    work[i].executable = NULL;
    work[i].status = NULL;
    assert_int_equal(pthread_create(&threads[i], NULL, prepare_on_thread,
                                    &work[i]),
                     0);
  }
  for (int i = 0; i < THREADS; ++i) {
    assert_int_equal(pthread_join(threads[i], NULL), 0);
    GRT_EXPECT_OK(work[i].status);
  }
  // Whoever came first prepared it; everyone got that one.
  for (int i = 1; i < THREADS; ++i) {
    assert_ptr_equal(work[i].executable, work[0].executable);
  }
  for (int i = 0; i < THREADS; ++i) {
    grt_hal_executable_release(work[i].executable);
  }
  grt_hal_executable_cache_release(cache);
  binary_free(&binary);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_host_format),
      cmocka_unit_test(test_shared_object_in_module_order),
      cmocka_unit_test(test_not_elf),
      cmocka_unit_test(test_wrong_elf_header),
      cmocka_unit_test(test_truncated_shared_object),
      cmocka_unit_test(test_kernel_loader_choice),
      cmocka_unit_test(test_missing_query_symbol),
      cmocka_unit_test(test_newer_abi),
      cmocka_unit_test(test_entry_point_mismatches),
      cmocka_unit_test(test_static_library),
      cmocka_unit_test(test_unknown_static_library),
      cmocka_unit_test(test_register_errors),
      cmocka_unit_test(test_bad_libraries),
      cmocka_unit_test(test_cache_reuses_by_digest),
      cmocka_unit_test(test_cache_shared_across_threads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
