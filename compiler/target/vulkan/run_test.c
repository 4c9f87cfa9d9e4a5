// Kernels with symbolic extents built by the Vulkan target and run on a
// Vulkan device through the HAL (lavapipe in CI): symbolic_test_util.h's
// elementwise kernels tiled over a symbolic dim (outermost, inner, serial),
// reduction over a symbolic extent and MATMUL (the shared-memory GEMM)
// with a symbolic m, each run for several extents passed as push
// constants, against its references. Exits 77 (skipped) without shaderc
// or a Vulkan device; runs under the validation layer when it is
// installed.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/sha256.h"
#include "compiler/target/cpu/cpu_test_util.h"
#include "compiler/target/cpu/symbolic_test_util.h"
#include "compiler/target/vulkan/vulkan_target.h"
#include "hal/drivers/vulkan/driver.h"
#include "hal/drivers/vulkan/loader.h"
#include "hal/command_buffer.h"
#include "hal/device.h"
#include "hal/driver.h"
#include "hal/executable.h"
#include "hal/semaphore.h"

static grt_hal_driver_registry_t* g_registry;
static grt_hal_device_t* g_device;

// The built executable of |set|, whose entry points take the kernels'
// binding and extent counts.
static grt_hal_executable_t* prepare(const grtc_kernel_set_t* set) {
  uint8_t* binary = NULL;
  size_t size = 0;
  GRT_EXPECT_OK(
      grtc_vulkan_build(set, grt_allocator_system(), NULL, &binary, &size));
  grt_hal_entry_point_info_t entries[8];
  assert_true(set->count <= 8);
  for (uint32_t k = 0; k < set->count; ++k) {
    const grtc_kernel_t* kernel = set->kernels[k];
    entries[k] = (grt_hal_entry_point_info_t){
        kernel->name, kernel->binding_count, kernel->extent_count,
        {grtc_vulkan_workgroup_size(kernel), 1, 1}, NULL, NULL};
  }
  uint8_t digest[GRT_SHA256_DIGEST_SIZE];
  grt_sha256(binary, size, digest);
  grt_hal_executable_params_t params = {
      grt_make_cstring_view(GRTC_VULKAN_FORMAT), binary, size, digest,
      entries, set->count};
  grt_hal_executable_t* executable = NULL;
  GRT_EXPECT_OK(grt_hal_executable_cache_prepare(
      grt_hal_device_executable_cache(g_device), &params, &executable));
  grt_allocator_free(grt_allocator_system(), binary);
  return executable;
}

enum { kSlackByte = 0x5a };

// Runs kernel |index| of |set| with extent values |extents| on host arrays
// |data| of |sizes| bytes each (copied in, and back out after the run).
// Each binding is the first |sizes[b]| bytes of a buffer |slack| bytes
// longer, whose tail (kSlackByte) must be untouched after the run. With
// |out_of_range| set the submission must fail with OUT_OF_RANGE naming the
// kernel and a binding, else it must succeed.
static void run_slack(const grtc_kernel_set_t* set,
                      grt_hal_executable_t* executable, uint32_t index,
                      const int64_t* extents, void* const* data,
                      const size_t* sizes, size_t slack, bool out_of_range) {
  const grtc_kernel_t* kernel = set->kernels[index];
  uint32_t workgroups = 0;
  GRT_EXPECT_OK(grtc_kernel_workgroups_for(kernel, extents, &workgroups));
  uint32_t constants[8] = {0};
  assert_true(kernel->extent_count <= 8 && kernel->binding_count <= 8);
  for (uint32_t x = 0; x < kernel->extent_count; ++x) {
    constants[x] = (uint32_t)extents[x];
  }
  grt_hal_buffer_t* buffers[8] = {NULL};
  grt_hal_buffer_ref_t refs[8];
  grt_hal_buffer_params_t params = {
      .type = GRT_HAL_MEMORY_TYPE_HOST_VISIBLE,
      .usage = GRT_HAL_BUFFER_USAGE_DEFAULT | GRT_HAL_BUFFER_USAGE_MAPPING};
  for (uint32_t b = 0; b < kernel->binding_count; ++b) {
    // Never empty: a zero extent still binds something.
    size_t size = sizes[b] ? sizes[b] : 4;
    GRT_EXPECT_OK(grt_hal_allocator_allocate_buffer(
        grt_hal_device_allocator(g_device), params, size + slack,
        &buffers[b]));
    if (sizes[b]) {
      GRT_EXPECT_OK(grt_hal_buffer_map_write(buffers[b], 0, data[b], sizes[b]));
    }
    if (slack) {
      uint8_t tail[256];
      assert_true(slack <= sizeof(tail));
      memset(tail, kSlackByte, slack);
      GRT_EXPECT_OK(grt_hal_buffer_map_write(buffers[b], size, tail, slack));
    }
    refs[b] = grt_hal_make_buffer_ref(buffers[b], 0, size);
  }
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_command_buffer(
      g_device, GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0, &command_buffer));
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(command_buffer));
  if (workgroups) {
    grt_hal_dispatch_params_t dispatch = {
        executable,  index, {workgroups, 1, 1}, constants, kernel->extent_count,
        refs,        kernel->binding_count};
    GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(command_buffer, &dispatch));
  }
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));
  grt_hal_semaphore_t* done = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_semaphore(g_device, 0, &done));
  uint64_t one = 1;
  grt_hal_semaphore_list_t signal = {1, &done, &one};
  GRT_EXPECT_OK(grt_hal_device_queue_execute(
      g_device, grt_hal_semaphore_list_empty(), signal, 1, &command_buffer,
      NULL));
  grt_status_t status = grt_hal_semaphore_wait(done, 1, GRT_HAL_TIMEOUT_INFINITE);
  if (out_of_range) {
    char message[256];
    grt_status_format(status, message, sizeof(message));
    char kernel_part[96];
    snprintf(kernel_part, sizeof(kernel_part), "kernel '%.*s' (command 0) accessed binding ",
             (int)kernel->name.size, kernel->name.data);
    if (grt_status_code(status) != GRT_STATUS_OUT_OF_RANGE ||
        !strstr(message, kernel_part) || !strstr(message, "outside its range (")) {
      fail_msg("kernel %u: expected OUT_OF_RANGE naming '%s', got %s", index, kernel_part,
               message);
    }
    grt_status_free(status);
  } else {
    GRT_EXPECT_OK(status);
  }
  grt_hal_semaphore_release(done);
  grt_hal_command_buffer_release(command_buffer);
  for (uint32_t b = 0; b < kernel->binding_count; ++b) {
    if (sizes[b]) {
      GRT_EXPECT_OK(grt_hal_buffer_map_read(buffers[b], 0, data[b], sizes[b]));
    }
    if (slack) {
      uint8_t tail[256];
      GRT_EXPECT_OK(grt_hal_buffer_map_read(buffers[b], sizes[b] ? sizes[b] : 4,
                                            tail, slack));
      for (size_t i = 0; i < slack; ++i) {
        if (tail[i] != kSlackByte) {
          fail_msg("kernel %u binding %u: byte %zu past the binding changed",
                   index, b, i);
        }
      }
    }
    grt_hal_buffer_release(buffers[b]);
  }
}

static void run(const grtc_kernel_set_t* set, grt_hal_executable_t* executable,
                uint32_t index, const int64_t* extents, void* const* data,
                const size_t* sizes) {
  run_slack(set, executable, index, extents, data, sizes, 0, false);
}

typedef struct vk_sym_t {
  const grtc_kernel_set_t* set;
  grt_hal_executable_t* executable;
} vk_sym_t;

static void vk_sym_run(void* context, uint32_t index, void* const* data,
                       const size_t* sizes, const int64_t* extents) {
  const vk_sym_t* c = (const vk_sym_t*)context;
  run(c->set, c->executable, index, extents, data, sizes);
}

static void test_symbolic_kernels(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  sym_add_all(&set);
  // The pattern kernel takes the shared-memory GEMM (16x16 workgroups).
  assert_int_equal(grtc_vulkan_workgroup_size(set.kernels[SYM_MM]), 256);
  vk_sym_t context = {&set, prepare(&set)};
  sym_check_all(vk_sym_run, &context);
  grt_hal_executable_release(context.executable);
  grtc_kernel_set_deinit(&set);
}

// Extents larger than the bindings (a tampered push constant): the
// shaders read 0 outside a binding and skip stores outside it, so the
// bytes after each binding stay as they were and the points inside are
// computed as usual, and the submission fails with OUT_OF_RANGE naming the
// kernel and the binding (the status word the HAL reads).
static void test_extents_past_bindings(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  sym_add_all(&set);
  grt_hal_executable_t* executable = prepare(&set);
  const int64_t seven = 7;
  for (uint32_t k = SYM_OUTER; k <= SYM_SERIAL; ++k) {
    float a[15], out[15];
    sym_fill_elementwise(3, a);
    void* data[] = {a, out};
    const size_t sizes[] = {sizeof(a), sizeof(out)};
    run_slack(&set, executable, k, &seven, data, sizes, 64, true);
    for (int q = 0; q < 15; ++q) assert_true(out[q] == a[q] * 2 + 7);
  }
  // Rows of 5 over 12 floats: rows 0 and 1 are whole.
  float x[12], sums[3];
  sym_fill_rows(4, x);
  const int64_t five = 5;
  void* rows_data[] = {x, sums};
  const size_t rows_sizes[] = {sizeof(x), sizeof(sums)};
  run_slack(&set, executable, SYM_ROWS, &five, rows_data, rows_sizes, 64, true);
  for (int row = 0; row < 2; ++row) {
    float want = 1;
    for (int q = 0; q < 5; ++q) want += x[row * 5 + q];
    assert_true(sums[row] == want);
  }
  // m = 6 over an lhs and an output of 5 rows.
  float lhs[5 * SYM_MM_K], rhs[SYM_MM_K * SYM_MM_N], bias[SYM_MM_N],
      mm_out[5 * SYM_MM_N];
  sym_fill_matmul(5, lhs, rhs, bias);
  const int64_t six = 6;
  for (uint32_t k = SYM_MM; k <= SYM_MM_LOOPS; ++k) {
    void* mm_data[] = {lhs, rhs, bias, mm_out};
    const size_t mm_sizes[] = {sizeof(lhs), sizeof(rhs), sizeof(bias),
                               sizeof(mm_out)};
    run_slack(&set, executable, k, &six, mm_data, mm_sizes, 128, true);
    sym_expect_matmul(5, lhs, rhs, bias, mm_out,
                      k == SYM_MM ? "pattern" : "loops");
  }
  grt_hal_executable_release(executable);
  grtc_kernel_set_deinit(&set);
}

// The runs above raised no validation-layer message (when the layer is
// installed): push constants within the pipeline layout, and so on.
static void test_no_validation_messages(void** state) {
  (void)state;
  assert_int_equal(grt_vk_validation_message_count(), 0);
}

int main(void) {
  setenv("GRT_VULKAN_VALIDATION", "1", 1);
  if (!grtc_vulkan_available()) {
    printf("skipped: this build has no shaderc\n");
    return 77;
  }
  if (!grt_status_consume_ok(grt_hal_driver_registry_create(
          grt_allocator_system(), &g_registry)) ||
      !grt_status_consume_ok(grt_hal_vulkan_driver_register(g_registry))) {
    return 1;
  }
  grt_status_t status = grt_hal_driver_registry_create_device(
      g_registry, "vulkan", NULL, grt_allocator_system(), &g_device);
  if (grt_status_code(status) == GRT_STATUS_UNAVAILABLE) {
    char message[256];
    grt_status_format(status, message, sizeof(message));
    grt_status_free(status);
    printf("skipped: %s\n", message);
    grt_hal_driver_registry_destroy(g_registry);
    return 77;
  }
  if (!grt_status_consume_ok(status)) return 1;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_symbolic_kernels),
      cmocka_unit_test(test_extents_past_bindings),
      cmocka_unit_test(test_no_validation_messages),
  };
  int failures = cmocka_run_group_tests(tests, NULL, NULL);
  grt_hal_device_release(g_device);
  grt_hal_driver_registry_destroy(g_registry);
  return failures;
}
