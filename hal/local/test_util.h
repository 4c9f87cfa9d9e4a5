// Helpers shared by the cmocka tests of the local command buffer and the
// local-sync/local-task drivers: status checks, statically registered
// kernel libraries, host-visible buffers. Include after <cmocka.h>.
#ifndef GRT_HAL_LOCAL_TEST_UTIL_H_
#define GRT_HAL_LOCAL_TEST_UTIL_H_

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/sha256.h"
#include "base/status.h"
#include "hal/allocator.h"
#include "hal/buffer.h"
#include "hal/executable.h"
#include "hal/local/executable.h"

#define GRT_LOCAL_EXPECT_OK(expr)                                \
  do {                                                           \
    grt_status_t grt_expect_status_ = (expr);                    \
    if (!grt_status_is_ok(grt_expect_status_)) {                 \
      grt_status_fprint(stderr, grt_expect_status_);             \
      grt_status_free(grt_expect_status_);                       \
      fail_msg("expected OK from %s", #expr);                    \
    }                                                            \
  } while (0)

// Consumes |status|, asserting it failed with |code| and that its message
// contains |fragment|.
static inline void grt_local_expect_error(grt_status_t status,
                                          grt_status_code_t code,
                                          const char* fragment) {
  assert_non_null(status);
  const char* message = grt_status_message(status);
  if (grt_status_code(status) != code || strstr(message, fragment) == NULL) {
    fprintf(stderr, "got %s: %s\nwanted %s containing: %s\n",
            grt_status_code_name(grt_status_code(status)), message,
            grt_status_code_name(code), fragment);
    grt_status_free(status);
    fail();
  }
  grt_status_free(status);
}

// Registration is process-wide; a second test registering the same
// library finds it there already.
static inline void grt_local_register_library(
    const grt_kernel_library_t* library) {
  grt_status_t status = grt_hal_local_register_static_library(library);
  if (grt_status_code(status) == GRT_STATUS_ALREADY_EXISTS) {
    grt_status_free(status);
    return;
  }
  GRT_LOCAL_EXPECT_OK(status);
}

// Prepares the statically registered library |name| as "cpu-static".
static inline grt_hal_executable_t* grt_local_prepare_static(
    grt_hal_executable_cache_t* cache, const char* name,
    const grt_hal_entry_point_info_t* entry_points, size_t entry_point_count) {
  uint8_t digest[GRT_SHA256_DIGEST_SIZE];
  grt_sha256(name, strlen(name), digest);
  grt_hal_executable_params_t params;
  memset(&params, 0, sizeof(params));
  params.format = grt_make_cstring_view("cpu-static");
  params.binary = (const uint8_t*)name;
  params.binary_size = strlen(name);
  params.digest = digest;
  params.entry_points = entry_points;
  params.entry_point_count = entry_point_count;
  grt_hal_executable_t* executable = NULL;
  GRT_LOCAL_EXPECT_OK(
      grt_hal_executable_cache_prepare(cache, &params, &executable));
  return executable;
}

// A host-visible buffer every command and the host may use.
static inline grt_hal_buffer_t* grt_local_allocate(
    grt_hal_allocator_t* allocator, uint64_t size) {
  grt_hal_buffer_params_t params;
  memset(&params, 0, sizeof(params));
  params.type = GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL |
                GRT_HAL_MEMORY_TYPE_HOST_VISIBLE;
  params.usage = GRT_HAL_BUFFER_USAGE_DEFAULT | GRT_HAL_BUFFER_USAGE_MAPPING;
  grt_hal_buffer_t* buffer = NULL;
  GRT_LOCAL_EXPECT_OK(
      grt_hal_allocator_allocate_buffer(allocator, params, size, &buffer));
  // New memory is not zeroed; tests compare against known contents.
  grt_hal_buffer_mapping_t mapping;
  GRT_LOCAL_EXPECT_OK(grt_hal_buffer_map_range(
      buffer, GRT_HAL_MEMORY_ACCESS_WRITE, 0, size, &mapping));
  memset(mapping.contents, 0, (size_t)size);
  GRT_LOCAL_EXPECT_OK(grt_hal_buffer_unmap_range(&mapping));
  return buffer;
}

static inline void grt_local_write(grt_hal_buffer_t* buffer, uint64_t offset,
                                   const void* data, size_t length) {
  GRT_LOCAL_EXPECT_OK(grt_hal_buffer_map_write(buffer, offset, data, length));
}

static inline void grt_local_read(grt_hal_buffer_t* buffer, uint64_t offset,
                                  void* data, size_t length) {
  GRT_LOCAL_EXPECT_OK(grt_hal_buffer_map_read(buffer, offset, data, length));
}

// The reference count of any HAL object.
static inline uint32_t grt_local_ref_count(const void* resource) {
  return (uint32_t)atomic_load(
      &((grt_hal_resource_t*)(uintptr_t)resource)->ref_count);
}

#endif  // GRT_HAL_LOCAL_TEST_UTIL_H_
