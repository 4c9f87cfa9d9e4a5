// The suite's shared state and helpers (cts.h).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "tests/hal_cts/cts.h"

#include "base/sha256.h"
#include "hal/transfer.h"

grt_hal_cts_t grt_hal_cts;

// Prepares the first kernel format the device accepts. A format the cache
// claims but fails to prepare is a conformance failure, kept for the tests
// that need kernels to report.
static void prepare_kernels(const char* required_format) {
  grt_hal_executable_cache_t* cache =
      grt_hal_device_executable_cache(grt_hal_cts.device);
  size_t used = 0;
  for (size_t i = 0; i < grt_hal_cts_kernel_format_count; ++i) {
    const grt_hal_cts_kernel_format_t* row = &grt_hal_cts_kernel_formats[i];
    const char* format = row->format();
    if (required_format && strcmp(format, required_format) != 0) continue;
    if (!grt_hal_executable_cache_can_prepare_format(
            cache, grt_make_cstring_view(format))) {
      if (required_format) {
        snprintf(grt_hal_cts.kernel_problem,
                 sizeof(grt_hal_cts.kernel_problem),
                 "device %.64s cannot prepare the requested kernel format "
                 "'%.64s'",
                 grt_hal_cts.device_uri, format);
        grt_hal_cts.kernel_failed = true;
        return;
      }
      used += (size_t)snprintf(grt_hal_cts.kernel_problem + used,
                               used < sizeof(grt_hal_cts.kernel_problem)
                                   ? sizeof(grt_hal_cts.kernel_problem) - used
                                   : 0,
                               "%s%s", i ? ", " : "", format);
      if (used >= sizeof(grt_hal_cts.kernel_problem)) {
        used = sizeof(grt_hal_cts.kernel_problem) - 1;
      }
      continue;
    }
    grt_hal_cts_binary_t binary = {0};
    grt_status_t status = row->load(grt_hal_cts.host_allocator, &binary);
    if (grt_status_is_ok(status)) {
      uint8_t digest[GRT_SHA256_DIGEST_SIZE];
      grt_sha256(binary.data, binary.size, digest);
      grt_hal_executable_params_t params = {
          grt_make_cstring_view(format), binary.data,   binary.size, digest,
          row->entry_points,             GRT_HAL_CTS_KERNEL_COUNT,
      };
      status = grt_hal_executable_cache_prepare(cache, &params,
                                                &grt_hal_cts.executable);
      grt_hal_cts_binary_free(&binary);
    }
    if (!grt_status_is_ok(status)) {
      char message[400];
      grt_status_format(status, message, sizeof(message));
      grt_status_free(status);
      snprintf(grt_hal_cts.kernel_problem, sizeof(grt_hal_cts.kernel_problem),
               "preparing the suite's %s kernels failed: %s", format, message);
      grt_hal_cts.kernel_failed = true;
      return;
    }
    grt_hal_cts.kernel_format = row;
    grt_hal_cts.kernel_problem[0] = '\0';
    return;
  }
  char formats[sizeof(grt_hal_cts.kernel_problem)];
  memcpy(formats, grt_hal_cts.kernel_problem, sizeof(formats));
  snprintf(grt_hal_cts.kernel_problem, sizeof(grt_hal_cts.kernel_problem),
           "device %.64s prepares none of the suite's kernel formats (%.300s)",
           grt_hal_cts.device_uri, formats);
}

// INVALID_ARGUMENT listing the rows when |format| is not one of them.
static grt_status_t check_kernel_format(const char* format) {
  char formats[256];
  size_t used = 0;
  for (size_t i = 0; i < grt_hal_cts_kernel_format_count; ++i) {
    const char* row = grt_hal_cts_kernel_formats[i].format();
    if (strcmp(row, format) == 0) return grt_ok_status();
    if (used < sizeof(formats)) {
      used += (size_t)snprintf(formats + used, sizeof(formats) - used, "%s%s",
                               i ? ", " : "", row);
    }
  }
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "the suite has no kernels in format '%s'; it has %s",
                         format, formats);
}

grt_status_t grt_hal_cts_initialize(const char* device_uri,
                                    const char* kernel_format) {
  memset(&grt_hal_cts, 0, sizeof(grt_hal_cts));
  grt_hal_cts.host_allocator = grt_allocator_system();
  if (kernel_format) GRT_RETURN_IF_ERROR(check_kernel_format(kernel_format));
  if (strlen(device_uri) >= sizeof(grt_hal_cts.device_uri)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "device URI '%s' is too long (at most %zu bytes)",
                           device_uri, sizeof(grt_hal_cts.device_uri) - 1);
  }
  snprintf(grt_hal_cts.device_uri, sizeof(grt_hal_cts.device_uri), "%s",
           device_uri);
  size_t scheme = strcspn(device_uri, ":");
  if (scheme >= sizeof(grt_hal_cts.driver_name)) {
    scheme = sizeof(grt_hal_cts.driver_name) - 1;
  }
  memcpy(grt_hal_cts.driver_name, device_uri, scheme);
  grt_hal_cts.driver_name[scheme] = '\0';

  GRT_RETURN_IF_ERROR(grt_hal_driver_registry_create(
      grt_hal_cts.host_allocator, &grt_hal_cts.registry));
  GRT_RETURN_IF_ERROR(
      grt_hal_register_available_drivers(grt_hal_cts.registry));
  grt_hal_device_options_t options;
  memset(&options, 0, sizeof(options));
  GRT_RETURN_IF_ERROR(grt_hal_driver_registry_create_device(
      grt_hal_cts.registry, device_uri, &options, grt_hal_cts.host_allocator,
      &grt_hal_cts.device));
  prepare_kernels(kernel_format);
  return grt_ok_status();
}

void grt_hal_cts_deinitialize(void) {
  grt_hal_executable_release(grt_hal_cts.executable);
  grt_hal_device_release(grt_hal_cts.device);
  if (grt_hal_cts.registry) {
    grt_hal_driver_registry_destroy(grt_hal_cts.registry);
  }
  memset(&grt_hal_cts, 0, sizeof(grt_hal_cts));
}

grt_hal_executable_t* grt_hal_cts_require_executable(void) {
  if (grt_hal_cts.executable) return grt_hal_cts.executable;
  if (grt_hal_cts.kernel_failed) {
    fail_msg("%s", grt_hal_cts.kernel_problem);
  }
  printf("hal_cts: not run: %s\n", grt_hal_cts.kernel_problem);
  skip();
  return NULL;
}

uint32_t grt_hal_cts_workgroups_for(grt_hal_cts_kernel_t kernel,
                                    uint64_t element_count) {
  uint64_t size =
      grt_hal_cts.kernel_format->entry_points[kernel].workgroup_size[0];
  return (uint32_t)((element_count + size - 1) / size);
}

grt_hal_buffer_t* grt_hal_cts_allocate_with(grt_hal_memory_type_t type,
                                            grt_hal_buffer_usage_t usage,
                                            uint64_t size) {
  grt_hal_buffer_params_t params = {type, usage, 0, 0};
  grt_hal_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_hal_allocator_allocate_buffer(
      grt_hal_cts_allocator(), params, size, &buffer));
  return buffer;
}

grt_hal_buffer_t* grt_hal_cts_allocate(uint64_t size) {
  return grt_hal_cts_allocate_with(GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL,
                                   GRT_HAL_BUFFER_USAGE_DEFAULT, size);
}

void grt_hal_cts_write(grt_hal_buffer_t* buffer, uint64_t offset,
                       const void* data, size_t length) {
  GRT_EXPECT_OK(grt_hal_device_transfer_h2d(
      grt_hal_cts.device, data, buffer, offset, length));
}

void grt_hal_cts_read(grt_hal_buffer_t* buffer, uint64_t offset, void* data,
                      size_t length) {
  GRT_EXPECT_OK(grt_hal_device_transfer_d2h(
      grt_hal_cts.device, buffer, offset, data, length));
}

void grt_hal_cts_write_bytes(grt_hal_buffer_t* buffer, uint64_t offset,
                             uint8_t byte, size_t length) {
  void* bytes = NULL;
  GRT_EXPECT_OK(
      grt_allocator_malloc(grt_hal_cts.host_allocator, length, &bytes));
  memset(bytes, byte, length);
  grt_status_t status = grt_hal_device_transfer_h2d(grt_hal_cts.device, bytes,
                                                    buffer, offset, length);
  grt_allocator_free(grt_hal_cts.host_allocator, bytes);
  GRT_EXPECT_OK(status);
}

grt_hal_command_buffer_t* grt_hal_cts_begin_command_buffer(
    grt_hal_command_buffer_mode_t mode, uint32_t binding_capacity) {
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_command_buffer(
      grt_hal_cts.device, mode, binding_capacity, &command_buffer));
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(command_buffer));
  return command_buffer;
}

grt_hal_semaphore_t* grt_hal_cts_create_semaphore(uint64_t initial_value) {
  grt_hal_semaphore_t* semaphore = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_semaphore(
      grt_hal_cts.device, initial_value, &semaphore));
  return semaphore;
}

grt_status_t grt_hal_cts_submit_and_wait(
    grt_hal_command_buffer_t* command_buffer,
    const grt_hal_buffer_binding_table_t* table) {
  grt_hal_semaphore_t* done = NULL;
  GRT_RETURN_IF_ERROR(
      grt_hal_device_create_semaphore(grt_hal_cts.device, 0, &done));
  uint64_t one = 1;
  grt_hal_semaphore_list_t signal = {1, &done, &one};
  grt_status_t status = grt_hal_device_queue_execute(
      grt_hal_cts.device, grt_hal_semaphore_list_empty(), signal, 1,
      &command_buffer, table);
  if (grt_status_is_ok(status)) {
    status = grt_hal_semaphore_wait(done, 1, GRT_HAL_TIMEOUT_INFINITE);
  }
  grt_hal_semaphore_release(done);
  return status;
}

grt_status_t grt_hal_cts_dispatch(grt_hal_command_buffer_t* command_buffer,
                                  grt_hal_cts_kernel_t kernel,
                                  uint32_t workgroup_count_x,
                                  const uint32_t* constants,
                                  size_t constant_count,
                                  const grt_hal_buffer_ref_t* bindings,
                                  size_t binding_count) {
  grt_hal_dispatch_params_t params = {
      grt_hal_cts.executable, (uint32_t)kernel, {workgroup_count_x, 1, 1},
      constants,              constant_count,   bindings,
      binding_count,
  };
  return grt_hal_command_buffer_dispatch(command_buffer, &params);
}

void grt_hal_cts_expect_bytes(const char* what, const uint8_t* got,
                              const uint8_t* want, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (got[i] != want[i]) {
      fail_msg("%s: byte %zu is 0x%02x, expected 0x%02x", what, i, got[i],
               want[i]);
    }
  }
}

void grt_hal_cts_expect_u32(const char* what, const uint32_t* got,
                            const uint32_t* want, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (got[i] != want[i]) {
      fail_msg("%s: element %zu of %zu is %u, expected %u", what, i, count,
               got[i], want[i]);
    }
  }
}

void grt_hal_cts_expect_f32(const char* what, const float* got,
                            const float* want, size_t count) {
  // Exact: every kernel does one IEEE operation the host repeats.
  for (size_t i = 0; i < count; ++i) {
    if (memcmp(&got[i], &want[i], sizeof(float)) != 0) {
      fail_msg("%s: element %zu of %zu is %g, expected %g", what, i, count,
               (double)got[i], (double)want[i]);
    }
  }
}
