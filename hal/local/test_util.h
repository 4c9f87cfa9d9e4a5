// Helpers shared by the cmocka tests of the local command buffer and the
// local-sync/local-task drivers: statically registered kernel libraries,
// host-visible buffers. Include after <cmocka.h>.
#ifndef GRT_HAL_LOCAL_TEST_UTIL_H_
#define GRT_HAL_LOCAL_TEST_UTIL_H_

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/sha256.h"
#include "base/status.h"
#include "base/status_matchers.h"
#include "hal/allocator.h"
#include "hal/buffer.h"
#include "hal/device.h"
#include "hal/driver.h"
#include "hal/executable.h"
#include "hal/local/executable.h"
#include "hal/local/testdata/test_kernels.h"

// Registration is process-wide; a second test registering the same
// library finds it there already.
static inline void grt_local_register_library(
    const grt_kernel_library_t* library) {
  grt_status_t status = grt_hal_local_register_static_library(library);
  if (grt_status_code(status) == GRT_STATUS_ALREADY_EXISTS) {
    grt_status_free(status);
    return;
  }
  GRT_EXPECT_OK(status);
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
  GRT_EXPECT_OK(
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
  GRT_EXPECT_OK(
      grt_hal_allocator_allocate_buffer(allocator, params, size, &buffer));
  // New memory is not zeroed; tests compare against known contents.
  grt_hal_buffer_mapping_t mapping;
  GRT_EXPECT_OK(grt_hal_buffer_map_range(
      buffer, GRT_HAL_MEMORY_ACCESS_WRITE, 0, size, &mapping));
  memset(mapping.contents, 0, (size_t)size);
  GRT_EXPECT_OK(grt_hal_buffer_unmap_range(&mapping));
  return buffer;
}

static inline void grt_local_write(grt_hal_buffer_t* buffer, uint64_t offset,
                                   const void* data, size_t length) {
  GRT_EXPECT_OK(grt_hal_buffer_map_write(buffer, offset, data, length));
}

static inline void grt_local_read(grt_hal_buffer_t* buffer, uint64_t offset,
                                  void* data, size_t length) {
  GRT_EXPECT_OK(grt_hal_buffer_map_read(buffer, offset, data, length));
}

// The reference count of any HAL object.
static inline uint32_t grt_local_ref_count(const void* resource) {
  return (uint32_t)atomic_load(
      &((grt_hal_resource_t*)(uintptr_t)resource)->ref_count);
}

//===----------------------------------------------------------------------===//
// Driver tests (link grt_hal_local_test_kernels)
//===----------------------------------------------------------------------===//

typedef grt_status_t (*grt_local_register_fn_t)(
    grt_hal_driver_registry_t* registry);

// Creates |uri| through a registry holding only the driver |register_fn|
// adds, the way applications create devices.
static inline grt_hal_device_t* grt_local_create_device(
    grt_local_register_fn_t register_fn, const char* uri,
    uint32_t worker_count) {
  grt_hal_driver_registry_t* registry = NULL;
  GRT_EXPECT_OK(
      grt_hal_driver_registry_create(grt_allocator_system(), &registry));
  GRT_EXPECT_OK(register_fn(registry));
  grt_hal_device_options_t options;
  memset(&options, 0, sizeof(options));
  options.worker_count = worker_count;
  grt_hal_device_t* device = NULL;
  GRT_EXPECT_OK(grt_hal_driver_registry_create_device(
      registry, uri, &options, grt_allocator_system(), &device));
  grt_hal_driver_registry_destroy(registry);
  return device;
}

// The test kernels of hal/local/testdata, prepared on |device|.
static inline grt_hal_executable_t* grt_local_prepare_test_kernels(
    grt_hal_device_t* device) {
  static const grt_hal_entry_point_info_t kEntryPoints[] = {
      GRT_TEST_KERNELS_ENTRY_POINTS};
  grt_local_register_library(grt_hal_local_test_kernels_library());
  return grt_local_prepare_static(grt_hal_device_executable_cache(device),
                                  GRT_TEST_KERNELS_STATIC_NAME, kEntryPoints,
                                  GRT_TEST_KERNELS_COUNT);
}

static inline grt_hal_semaphore_list_t grt_local_list(
    grt_hal_semaphore_t** semaphore, const uint64_t* value) {
  grt_hal_semaphore_list_t list = {1, semaphore, value};
  return list;
}

// Submits one command buffer signalling (semaphore, value) and waits for it.
static inline grt_status_t grt_local_submit_and_wait(
    grt_hal_device_t* device, grt_hal_command_buffer_t* command_buffer,
    const grt_hal_buffer_binding_table_t* binding_table) {
  grt_hal_semaphore_t* semaphore = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_device_create_semaphore(device, 0, &semaphore));
  uint64_t value = 1;
  grt_status_t status = grt_hal_device_queue_execute(
      device, grt_hal_semaphore_list_empty(), grt_local_list(&semaphore, &value),
      1, &command_buffer, binding_table);
  if (grt_status_is_ok(status)) {
    status = grt_hal_semaphore_wait(semaphore, 1, GRT_HAL_TIMEOUT_INFINITE);
  }
  grt_hal_semaphore_release(semaphore);
  return status;
}

// A dispatch of test kernel |entry_point| over |x| workgroups.
static inline grt_hal_dispatch_params_t grt_local_dispatch(
    grt_hal_executable_t* executable, uint32_t entry_point, uint32_t x,
    const grt_hal_buffer_ref_t* bindings, size_t binding_count) {
  grt_hal_dispatch_params_t params;
  memset(&params, 0, sizeof(params));
  params.executable = executable;
  params.entry_point = entry_point;
  params.workgroup_count[0] = x;
  params.workgroup_count[1] = 1;
  params.workgroup_count[2] = 1;
  params.bindings = bindings;
  params.binding_count = binding_count;
  return params;
}

// A device query that must succeed.
static inline int64_t grt_local_query(grt_hal_device_t* device,
                                      const char* category, const char* key) {
  int64_t value = -1;
  GRT_EXPECT_OK(grt_hal_device_query_i64(
      device, grt_make_cstring_view(category), grt_make_cstring_view(key),
      &value));
  return value;
}

#endif  // GRT_HAL_LOCAL_TEST_UTIL_H_
