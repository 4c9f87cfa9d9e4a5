// Test doubles shared by the hal/ cmocka tests: a malloc-backed HAL
// allocator (heap type and coherence chosen per test, with counters for
// map/flush/invalidate), a fake executable, and a fake device whose queue
// runs recorded fill/copy/update commands on submit. Status assertions come
// from base/status_matchers.h. They are
// deliberately minimal; the real CPU drivers live in hal/drivers/.
// Include after <cmocka.h>.
#ifndef GRT_HAL_TEST_SUPPORT_H_
#define GRT_HAL_TEST_SUPPORT_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "base/status_matchers.h"
#include "hal/allocator.h"
#include "hal/buffer.h"
#include "hal/command_buffer.h"
#include "hal/device.h"
#include "hal/executable.h"
#include "hal/semaphore.h"

//===----------------------------------------------------------------------===//
// Test allocator and buffers
//===----------------------------------------------------------------------===//

typedef struct grt_hal_test_allocator_t {
  grt_hal_allocator_t base;
  grt_hal_allocator_memory_heap_t heap;
  int map_count;
  int unmap_count;
  int flush_count;
  int invalidate_count;
  grt_hal_allocator_statistics_t statistics;
} grt_hal_test_allocator_t;

typedef struct grt_hal_test_buffer_t {
  grt_hal_buffer_t base;
  uint8_t* data;
} grt_hal_test_buffer_t;

// Test objects come from the C heap; running out of it fails the test.
static inline void* grt_hal_test_calloc(size_t size) {
  void* memory = calloc(1, size);
  assert_non_null(memory);
  return memory;
}

static inline grt_hal_test_allocator_t* grt_hal_test_allocator_of(
    grt_hal_buffer_t* buffer) {
  return (grt_hal_test_allocator_t*)buffer->allocator;
}

static inline uint8_t* grt_hal_test_buffer_data(grt_hal_buffer_t* buffer) {
  return ((grt_hal_test_buffer_t*)buffer->allocated_buffer)->data;
}

static inline void grt_hal_test_buffer_destroy(grt_hal_resource_t* resource) {
  grt_hal_test_buffer_t* buffer = (grt_hal_test_buffer_t*)resource;
  grt_hal_test_allocator_t* allocator = grt_hal_test_allocator_of(&buffer->base);
  allocator->statistics.bytes_allocated -= buffer->base.allocation_size;
  grt_hal_buffer_deinitialize(&buffer->base);
  free(buffer->data);
  free(buffer);
}

static inline grt_status_t grt_hal_test_buffer_map_range(
    grt_hal_buffer_t* buffer, grt_hal_buffer_mapping_t* mapping) {
  ++grt_hal_test_allocator_of(buffer)->map_count;
  mapping->contents = grt_hal_test_buffer_data(buffer) + mapping->offset;
  return grt_ok_status();
}

static inline grt_status_t grt_hal_test_buffer_unmap_range(
    grt_hal_buffer_t* buffer, grt_hal_buffer_mapping_t* mapping) {
  (void)mapping;
  ++grt_hal_test_allocator_of(buffer)->unmap_count;
  return grt_ok_status();
}

static inline grt_status_t grt_hal_test_buffer_invalidate_range(
    grt_hal_buffer_t* buffer, uint64_t offset, uint64_t length) {
  (void)offset;
  (void)length;
  ++grt_hal_test_allocator_of(buffer)->invalidate_count;
  return grt_ok_status();
}

static inline grt_status_t grt_hal_test_buffer_flush_range(
    grt_hal_buffer_t* buffer, uint64_t offset, uint64_t length) {
  (void)offset;
  (void)length;
  ++grt_hal_test_allocator_of(buffer)->flush_count;
  return grt_ok_status();
}

static const grt_hal_buffer_vtable_t grt_hal_test_buffer_vtable = {
    .base = {.destroy = grt_hal_test_buffer_destroy},
    .map_range = grt_hal_test_buffer_map_range,
    .unmap_range = grt_hal_test_buffer_unmap_range,
    .invalidate_range = grt_hal_test_buffer_invalidate_range,
    .flush_range = grt_hal_test_buffer_flush_range,
};

static inline void grt_hal_test_allocator_destroy(grt_hal_resource_t* resource) {
  free(resource);
}

static inline void grt_hal_test_allocator_query_memory_heaps(
    const grt_hal_allocator_t* base, size_t capacity,
    grt_hal_allocator_memory_heap_t* out_heaps, size_t* out_count) {
  const grt_hal_test_allocator_t* allocator =
      (const grt_hal_test_allocator_t*)base;
  if (capacity >= 1) out_heaps[0] = allocator->heap;
  *out_count = 1;
}

static inline grt_status_t grt_hal_test_allocator_allocate_buffer(
    grt_hal_allocator_t* base, const grt_hal_buffer_params_t* params,
    uint64_t size, grt_hal_buffer_t** out_buffer) {
  grt_hal_test_allocator_t* allocator = (grt_hal_test_allocator_t*)base;
  grt_hal_test_buffer_t* buffer = grt_hal_test_calloc(sizeof(*buffer));
  buffer->data = grt_hal_test_calloc(size ? (size_t)size : 1);
  // The buffer gets the heap's full type (as real allocators report).
  (void)params;
  grt_hal_buffer_initialize(&grt_hal_test_buffer_vtable, base,
                            allocator->heap.type, params->usage, size,
                            &buffer->base);
  allocator->statistics.bytes_allocated += size;
  ++allocator->statistics.allocation_count;
  *out_buffer = &buffer->base;
  return grt_ok_status();
}

static inline void grt_hal_test_allocator_query_statistics(
    const grt_hal_allocator_t* base,
    grt_hal_allocator_statistics_t* out_statistics) {
  *out_statistics = ((const grt_hal_test_allocator_t*)base)->statistics;
}

static const grt_hal_allocator_vtable_t grt_hal_test_allocator_vtable = {
    .base = {.destroy = grt_hal_test_allocator_destroy},
    .query_memory_heaps = grt_hal_test_allocator_query_memory_heaps,
    .allocate_buffer = grt_hal_test_allocator_allocate_buffer,
    .import_host_buffer = NULL,
    .query_statistics = grt_hal_test_allocator_query_statistics,
};

// An allocator with one heap of |type| allowing |usage|.
static inline grt_hal_test_allocator_t* grt_hal_test_allocator_create(
    grt_hal_memory_type_t type, grt_hal_buffer_usage_t usage) {
  grt_hal_test_allocator_t* allocator = grt_hal_test_calloc(sizeof(*allocator));
  grt_hal_resource_initialize(&grt_hal_test_allocator_vtable,
                              &allocator->base.resource);
  allocator->base.host_allocator = grt_allocator_system();
  allocator->heap.type = type;
  allocator->heap.allowed_usage = usage;
  allocator->heap.max_allocation_size = 1u << 20;
  allocator->heap.min_alignment = 64;
  return allocator;
}

#define GRT_HAL_TEST_HOST_MEMORY                                     \
  (GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL | GRT_HAL_MEMORY_TYPE_HOST_VISIBLE | \
   GRT_HAL_MEMORY_TYPE_HOST_COHERENT)
#define GRT_HAL_TEST_ALL_USAGE \
  (GRT_HAL_BUFFER_USAGE_DEFAULT | GRT_HAL_BUFFER_USAGE_MAPPING)

static inline grt_hal_buffer_t* grt_hal_test_allocate(
    grt_hal_test_allocator_t* allocator, grt_hal_buffer_usage_t usage,
    uint64_t size) {
  grt_hal_buffer_params_t params = {allocator->heap.type, usage, 0, 0};
  grt_hal_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(
      grt_hal_allocator_allocate_buffer(&allocator->base, params, size, &buffer));
  return buffer;
}

//===----------------------------------------------------------------------===//
// Fake executable
//===----------------------------------------------------------------------===//

static inline void grt_hal_test_executable_destroy(grt_hal_resource_t* resource) {
  grt_hal_executable_t* executable = (grt_hal_executable_t*)resource;
  grt_hal_executable_deinitialize(executable);
  free(executable);
}

static const grt_hal_executable_vtable_t grt_hal_test_executable_vtable = {
    .base = {.destroy = grt_hal_test_executable_destroy},
};

static inline grt_status_t grt_hal_test_executable_create(
    const grt_hal_executable_params_t* params, grt_hal_executable_t** out) {
  grt_hal_executable_t* executable = grt_hal_test_calloc(sizeof(*executable));
  grt_status_t status = grt_hal_executable_initialize(
      &grt_hal_test_executable_vtable, params, grt_allocator_system(),
      executable);
  if (!grt_status_is_ok(status)) {
    free(executable);
    return status;
  }
  *out = executable;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Fake command buffer and device
//===----------------------------------------------------------------------===//

typedef enum grt_hal_test_command_kind_e {
  GRT_HAL_TEST_COMMAND_FILL,
  GRT_HAL_TEST_COMMAND_COPY,
  GRT_HAL_TEST_COMMAND_UPDATE,
  GRT_HAL_TEST_COMMAND_DISPATCH,
} grt_hal_test_command_kind_t;

typedef struct grt_hal_test_command_t {
  grt_hal_test_command_kind_t kind;
  grt_hal_buffer_ref_t source;
  grt_hal_buffer_ref_t target;
  uint32_t pattern;
  size_t pattern_length;
  uint8_t data[64];  // update payload
} grt_hal_test_command_t;

#define GRT_HAL_TEST_MAX_COMMANDS 16

typedef struct grt_hal_test_command_buffer_t {
  grt_hal_command_buffer_t base;
  size_t count;
  grt_hal_test_command_t commands[GRT_HAL_TEST_MAX_COMMANDS];
  int barrier_count;
  int dispatch_count;
} grt_hal_test_command_buffer_t;

static inline grt_hal_test_command_t* grt_hal_test_command_append(
    grt_hal_command_buffer_t* base, grt_hal_test_command_kind_t kind) {
  grt_hal_test_command_buffer_t* cb = (grt_hal_test_command_buffer_t*)base;
  assert_true(cb->count < GRT_HAL_TEST_MAX_COMMANDS);
  grt_hal_test_command_t* command = &cb->commands[cb->count++];
  memset(command, 0, sizeof(*command));
  command->kind = kind;
  return command;
}

static inline void grt_hal_test_command_buffer_destroy(
    grt_hal_resource_t* resource) {
  grt_hal_command_buffer_deinitialize((grt_hal_command_buffer_t*)resource);
  free(resource);
}
static inline grt_status_t grt_hal_test_command_buffer_begin(
    grt_hal_command_buffer_t* cb) {
  (void)cb;
  return grt_ok_status();
}
static inline grt_status_t grt_hal_test_command_buffer_end(
    grt_hal_command_buffer_t* cb) {
  (void)cb;
  return grt_ok_status();
}
static inline grt_status_t grt_hal_test_command_buffer_barrier(
    grt_hal_command_buffer_t* cb) {
  ++((grt_hal_test_command_buffer_t*)cb)->barrier_count;
  return grt_ok_status();
}
static inline grt_status_t grt_hal_test_command_buffer_fill(
    grt_hal_command_buffer_t* cb, grt_hal_buffer_ref_t target, uint32_t pattern,
    size_t pattern_length) {
  grt_hal_test_command_t* command =
      grt_hal_test_command_append(cb, GRT_HAL_TEST_COMMAND_FILL);
  command->target = target;
  command->pattern = pattern;
  command->pattern_length = pattern_length;
  return grt_ok_status();
}
static inline grt_status_t grt_hal_test_command_buffer_copy(
    grt_hal_command_buffer_t* cb, grt_hal_buffer_ref_t source,
    grt_hal_buffer_ref_t target) {
  grt_hal_test_command_t* command =
      grt_hal_test_command_append(cb, GRT_HAL_TEST_COMMAND_COPY);
  command->source = source;
  command->target = target;
  return grt_ok_status();
}
static inline grt_status_t grt_hal_test_command_buffer_update(
    grt_hal_command_buffer_t* cb, const void* source,
    grt_hal_buffer_ref_t target) {
  grt_hal_test_command_t* command =
      grt_hal_test_command_append(cb, GRT_HAL_TEST_COMMAND_UPDATE);
  assert_true(target.length <= sizeof(command->data));
  memcpy(command->data, source, (size_t)target.length);
  command->target = target;
  return grt_ok_status();
}
static inline grt_status_t grt_hal_test_command_buffer_dispatch(
    grt_hal_command_buffer_t* cb, const grt_hal_dispatch_params_t* params) {
  (void)params;
  ++((grt_hal_test_command_buffer_t*)cb)->dispatch_count;
  return grt_ok_status();
}

static const grt_hal_command_buffer_vtable_t grt_hal_test_command_buffer_vtable = {
    .base = {.destroy = grt_hal_test_command_buffer_destroy},
    .begin = grt_hal_test_command_buffer_begin,
    .end = grt_hal_test_command_buffer_end,
    .execution_barrier = grt_hal_test_command_buffer_barrier,
    .fill_buffer = grt_hal_test_command_buffer_fill,
    .copy_buffer = grt_hal_test_command_buffer_copy,
    .update_buffer = grt_hal_test_command_buffer_update,
    .dispatch = grt_hal_test_command_buffer_dispatch,
};

static inline grt_hal_command_buffer_t* grt_hal_test_command_buffer_create(
    grt_hal_command_buffer_mode_t mode, uint32_t binding_capacity) {
  grt_hal_test_command_buffer_t* cb = grt_hal_test_calloc(sizeof(*cb));
  grt_hal_command_buffer_initialize(&grt_hal_test_command_buffer_vtable, mode,
                                    binding_capacity, &cb->base);
  return &cb->base;
}

// Runs the recorded commands against |table| on the host.
static inline grt_status_t grt_hal_test_command_buffer_run(
    grt_hal_command_buffer_t* base, grt_hal_buffer_binding_table_t table) {
  grt_hal_test_command_buffer_t* cb = (grt_hal_test_command_buffer_t*)base;
  for (size_t i = 0; i < cb->count; ++i) {
    grt_hal_test_command_t* command = &cb->commands[i];
    grt_hal_buffer_t* target = NULL;
    uint64_t target_offset = 0;
    uint64_t target_length = 0;
    GRT_RETURN_IF_ERROR(grt_hal_buffer_ref_resolve(
        command->target, table, &target, &target_offset, &target_length));
    uint8_t* dst = grt_hal_test_buffer_data(target) + target_offset;
    switch (command->kind) {
      case GRT_HAL_TEST_COMMAND_FILL:
        for (uint64_t j = 0; j < target_length; ++j) {
          dst[j] = (uint8_t)(command->pattern >>
                             (8 * (j % command->pattern_length)));
        }
        break;
      case GRT_HAL_TEST_COMMAND_COPY: {
        grt_hal_buffer_t* source = NULL;
        uint64_t source_offset = 0;
        uint64_t source_length = 0;
        GRT_RETURN_IF_ERROR(grt_hal_buffer_ref_resolve(
            command->source, table, &source, &source_offset, &source_length));
        if (source_length != target_length) {
          return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                                 "copy lengths differ at execution");
        }
        memmove(dst, grt_hal_test_buffer_data(source) + source_offset,
                (size_t)target_length);
        break;
      }
      case GRT_HAL_TEST_COMMAND_UPDATE:
        memcpy(dst, command->data, (size_t)target_length);
        break;
      case GRT_HAL_TEST_COMMAND_DISPATCH:
        break;
    }
  }
  return grt_ok_status();
}

typedef struct grt_hal_test_device_t {
  grt_hal_device_t base;
  grt_hal_test_allocator_t* allocator;
  int execute_count;
} grt_hal_test_device_t;

static inline void grt_hal_test_device_destroy(grt_hal_resource_t* resource) {
  grt_hal_test_device_t* device = (grt_hal_test_device_t*)resource;
  grt_hal_allocator_release(&device->allocator->base);
  free(device);
}
static inline grt_hal_allocator_t* grt_hal_test_device_allocator(
    grt_hal_device_t* base) {
  return &((grt_hal_test_device_t*)base)->allocator->base;
}
static inline grt_hal_executable_cache_t* grt_hal_test_device_cache(
    grt_hal_device_t* base) {
  (void)base;
  return NULL;
}
static inline grt_status_t grt_hal_test_device_query_i64(
    grt_hal_device_t* base, grt_string_view_t category, grt_string_view_t key,
    int64_t* out_value) {
  (void)base;
  return grt_hal_device_answer_concurrency(category, key, 1, out_value);
}
static inline grt_status_t grt_hal_test_device_create_command_buffer(
    grt_hal_device_t* base, grt_hal_command_buffer_mode_t mode,
    uint32_t binding_capacity, grt_hal_command_buffer_t** out) {
  (void)base;
  *out = grt_hal_test_command_buffer_create(mode, binding_capacity);
  return grt_ok_status();
}
static inline grt_status_t grt_hal_test_device_create_semaphore(
    grt_hal_device_t* base, uint64_t initial_value, grt_hal_semaphore_t** out) {
  return grt_hal_host_semaphore_create(initial_value, base->host_allocator, out);
}
static inline grt_status_t grt_hal_test_device_queue_alloca(
    grt_hal_device_t* base, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, grt_hal_buffer_params_t params,
    uint64_t size, grt_hal_buffer_t** out_buffer) {
  GRT_RETURN_IF_ERROR(grt_hal_semaphore_list_wait(wait, GRT_HAL_TIMEOUT_INFINITE));
  GRT_RETURN_IF_ERROR(grt_hal_allocator_allocate_buffer(
      grt_hal_test_device_allocator(base), params, size, out_buffer));
  return grt_hal_semaphore_list_signal(signal);
}
static inline grt_status_t grt_hal_test_device_queue_dealloca(
    grt_hal_device_t* base, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, grt_hal_buffer_t* buffer) {
  (void)base;
  (void)buffer;
  GRT_RETURN_IF_ERROR(grt_hal_semaphore_list_wait(wait, GRT_HAL_TIMEOUT_INFINITE));
  return grt_hal_semaphore_list_signal(signal);
}
static inline grt_status_t grt_hal_test_device_queue_execute(
    grt_hal_device_t* base, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, size_t count,
    grt_hal_command_buffer_t* const* command_buffers,
    const grt_hal_buffer_binding_table_t* binding_tables) {
  ++((grt_hal_test_device_t*)base)->execute_count;
  for (size_t i = 0; i < count; ++i) {
    grt_hal_buffer_binding_table_t table =
        binding_tables ? binding_tables[i] : grt_hal_buffer_binding_table_empty();
    GRT_RETURN_IF_ERROR(
        grt_hal_command_buffer_validate_submission(command_buffers[i], table));
  }
  grt_status_t status =
      grt_hal_semaphore_list_wait(wait, GRT_HAL_TIMEOUT_INFINITE);
  for (size_t i = 0; i < count && grt_status_is_ok(status); ++i) {
    grt_hal_buffer_binding_table_t table =
        binding_tables ? binding_tables[i] : grt_hal_buffer_binding_table_empty();
    status = grt_hal_test_command_buffer_run(command_buffers[i], table);
  }
  if (!grt_status_is_ok(status)) {
    grt_hal_semaphore_list_fail(signal, status);
    return grt_ok_status();
  }
  return grt_hal_semaphore_list_signal(signal);
}

static const grt_hal_device_vtable_t grt_hal_test_device_vtable = {
    .base = {.destroy = grt_hal_test_device_destroy},
    .allocator = grt_hal_test_device_allocator,
    .executable_cache = grt_hal_test_device_cache,
    .query_i64 = grt_hal_test_device_query_i64,
    .create_command_buffer = grt_hal_test_device_create_command_buffer,
    .create_semaphore = grt_hal_test_device_create_semaphore,
    .queue_alloca = grt_hal_test_device_queue_alloca,
    .queue_dealloca = grt_hal_test_device_queue_dealloca,
    .queue_execute = grt_hal_test_device_queue_execute,
    .queue_flush = NULL,
};

// A device whose allocator has one heap of |type| allowing |usage|.
static inline grt_hal_test_device_t* grt_hal_test_device_create(
    const char* uri, grt_hal_memory_type_t type, grt_hal_buffer_usage_t usage) {
  grt_hal_test_device_t* device = grt_hal_test_calloc(sizeof(*device));
  grt_hal_device_initialize(&grt_hal_test_device_vtable, uri,
                            grt_allocator_system(), &device->base);
  device->allocator = grt_hal_test_allocator_create(type, usage);
  return device;
}

#endif  // GRT_HAL_TEST_SUPPORT_H_
