// Buffer header management, range/usage validation, mapping and subspans.
//
// Subspans are a private buffer implementation here: they hold a reference
// to the allocated buffer and translate every map to it, so drivers only
// ever see allocated buffers (see hal/buffer.h).
#include "hal/buffer.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hal/allocator.h"

void grt_hal_buffer_initialize(const grt_hal_buffer_vtable_t* vtable,
                               grt_hal_allocator_t* allocator,
                               grt_hal_memory_type_t memory_type,
                               grt_hal_buffer_usage_t usage,
                               uint64_t allocation_size,
                               grt_hal_buffer_t* buffer) {
  grt_hal_resource_initialize(vtable, &buffer->resource);
  buffer->allocator = allocator;
  if (allocator) grt_hal_allocator_retain(allocator);
  buffer->allocated_buffer = buffer;
  buffer->allocation_size = allocation_size;
  buffer->byte_offset = 0;
  buffer->byte_length = allocation_size;
  buffer->memory_type = memory_type;
  buffer->usage = usage;
  buffer->allowed_access = GRT_HAL_MEMORY_ACCESS_READ_WRITE;
}

void grt_hal_buffer_restrict_access(grt_hal_buffer_t* buffer,
                                    grt_hal_memory_access_t access) {
  buffer->allowed_access &= access;
}

void grt_hal_buffer_deinitialize(grt_hal_buffer_t* buffer) {
  if (buffer->allocator) grt_hal_allocator_release(buffer->allocator);
  buffer->allocator = NULL;
}

//===----------------------------------------------------------------------===//
// Flag formatting
//===----------------------------------------------------------------------===//

typedef struct grt_hal_flag_name_t {
  uint32_t bits;
  const char* name;
} grt_hal_flag_name_t;

// Single bits only: messages then spell out exactly which bits are meant.
static const grt_hal_flag_name_t grt_hal_memory_type_names[] = {
    {GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL, "DEVICE_LOCAL"},
    {GRT_HAL_MEMORY_TYPE_HOST_VISIBLE, "HOST_VISIBLE"},
    {GRT_HAL_MEMORY_TYPE_HOST_COHERENT, "HOST_COHERENT"},
    {GRT_HAL_MEMORY_TYPE_HOST_CACHED, "HOST_CACHED"},
};

static const grt_hal_flag_name_t grt_hal_buffer_usage_names[] = {
    {GRT_HAL_BUFFER_USAGE_TRANSFER_SOURCE, "TRANSFER_SOURCE"},
    {GRT_HAL_BUFFER_USAGE_TRANSFER_TARGET, "TRANSFER_TARGET"},
    {GRT_HAL_BUFFER_USAGE_DISPATCH_STORAGE, "DISPATCH_STORAGE"},
    {GRT_HAL_BUFFER_USAGE_MAPPING, "MAPPING"},
};

static const char* grt_hal_format_flags(uint32_t value,
                                        const grt_hal_flag_name_t* names,
                                        size_t name_count, char* out,
                                        size_t capacity) {
  if (capacity == 0) return out;
  out[0] = '\0';
  size_t length = 0;
  uint32_t remaining = value;
  for (size_t i = 0; i < name_count; ++i) {
    if ((remaining & names[i].bits) != names[i].bits) continue;
    remaining &= ~names[i].bits;
    int n = snprintf(out + length, capacity - length, "%s%s",
                     length ? "|" : "", names[i].name);
    if (n < 0) break;
    length += (size_t)n;
    if (length >= capacity) return out;
  }
  if (remaining != 0) {
    // Bits without a name are shown rather than silently dropped.
    snprintf(out + length, capacity - length, "%s0x%" PRIx32,
             length ? "|" : "", remaining);
  } else if (length == 0) {
    snprintf(out, capacity, "NONE");
  }
  return out;
}

const char* grt_hal_memory_type_format(grt_hal_memory_type_t type, char* out,
                                       size_t capacity) {
  return grt_hal_format_flags(
      type, grt_hal_memory_type_names,
      sizeof(grt_hal_memory_type_names) / sizeof(grt_hal_memory_type_names[0]),
      out, capacity);
}

const char* grt_hal_buffer_usage_format(grt_hal_buffer_usage_t usage,
                                        char* out, size_t capacity) {
  return grt_hal_format_flags(
      usage, grt_hal_buffer_usage_names,
      sizeof(grt_hal_buffer_usage_names) / sizeof(grt_hal_buffer_usage_names[0]),
      out, capacity);
}

static const grt_hal_flag_name_t grt_hal_memory_access_names[] = {
    {GRT_HAL_MEMORY_ACCESS_READ, "READ"},
    {GRT_HAL_MEMORY_ACCESS_WRITE, "WRITE"},
    {GRT_HAL_MEMORY_ACCESS_DISCARD, "DISCARD"},
};

const char* grt_hal_memory_access_format(grt_hal_memory_access_t access,
                                         char* out, size_t capacity) {
  return grt_hal_format_flags(
      access, grt_hal_memory_access_names,
      sizeof(grt_hal_memory_access_names) /
          sizeof(grt_hal_memory_access_names[0]),
      out, capacity);
}

//===----------------------------------------------------------------------===//
// Validation
//===----------------------------------------------------------------------===//

grt_status_t grt_hal_buffer_calculate_range(const grt_hal_buffer_t* buffer,
                                            uint64_t offset, uint64_t length,
                                            uint64_t* out_length) {
  uint64_t size = buffer->byte_length;
  if (offset > size) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "offset %" PRIu64 " is outside buffer of %" PRIu64
                           " bytes",
                           offset, size);
  }
  if (length == GRT_HAL_WHOLE_BUFFER) {
    *out_length = size - offset;
    return grt_ok_status();
  }
  // Written as a subtraction so offset + length cannot wrap.
  if (length > size - offset) {
    if (length > UINT64_MAX - offset) {
      return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                             "range of %" PRIu64 " bytes at offset %" PRIu64
                             " is outside buffer of %" PRIu64 " bytes",
                             length, offset, size);
    }
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "range [%" PRIu64 ", %" PRIu64
                           ") is outside buffer of %" PRIu64 " bytes",
                           offset, offset + length, size);
  }
  *out_length = length;
  return grt_ok_status();
}

grt_status_t grt_hal_buffer_validate_usage(const grt_hal_buffer_t* buffer,
                                           grt_hal_buffer_usage_t required) {
  grt_hal_buffer_usage_t missing = required & ~buffer->usage;
  if (missing == 0) return grt_ok_status();
  char have[96];
  char lack[96];
  return grt_make_status(
      GRT_STATUS_INVALID_ARGUMENT, "buffer usage %s lacks %s",
      grt_hal_buffer_usage_format(buffer->usage, have, sizeof(have)),
      grt_hal_buffer_usage_format(missing, lack, sizeof(lack)));
}

grt_status_t grt_hal_buffer_validate_writable(const grt_hal_buffer_t* buffer,
                                              const char* operation) {
  if (buffer->allowed_access & GRT_HAL_MEMORY_ACCESS_WRITE) {
    return grt_ok_status();
  }
  char have[64];
  return grt_make_status(
      GRT_STATUS_PERMISSION_DENIED,
      "%s: expected a writable buffer (access READ|WRITE), got a read-only "
      "buffer of %" PRIu64 " bytes (access %s)",
      operation, buffer->byte_length,
      grt_hal_memory_access_format(buffer->allowed_access, have,
                                   sizeof(have)));
}

//===----------------------------------------------------------------------===//
// Subspans
//===----------------------------------------------------------------------===//

// The header's allocated_buffer points at the viewed buffer, which the
// subspan keeps alive; map/unmap are never called on a subspan because the
// public functions translate to the allocated buffer first.
typedef struct grt_hal_subspan_buffer_t {
  grt_hal_buffer_t base;
  grt_allocator_t host_allocator;
} grt_hal_subspan_buffer_t;

static void grt_hal_subspan_buffer_destroy(grt_hal_resource_t* resource) {
  grt_hal_subspan_buffer_t* subspan = (grt_hal_subspan_buffer_t*)resource;
  grt_hal_buffer_release(subspan->base.allocated_buffer);
  grt_allocator_free(subspan->host_allocator, subspan);
}

static const grt_hal_buffer_vtable_t grt_hal_subspan_buffer_vtable = {
    .base = {.destroy = grt_hal_subspan_buffer_destroy},
};

grt_status_t grt_hal_buffer_subspan(grt_hal_buffer_t* buffer, uint64_t offset,
                                    uint64_t length, grt_hal_buffer_t** out) {
  *out = NULL;
  uint64_t resolved = 0;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_hal_buffer_calculate_range(buffer, offset, length, &resolved),
      "while making a subspan");
  grt_hal_buffer_t* allocated = buffer->allocated_buffer;
  grt_allocator_t host_allocator = allocated->allocator
                                       ? allocated->allocator->host_allocator
                                       : grt_allocator_system();
  grt_hal_subspan_buffer_t* subspan = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(host_allocator, sizeof(*subspan),
                                           (void**)&subspan));
  memset(subspan, 0, sizeof(*subspan));
  grt_hal_resource_initialize(&grt_hal_subspan_buffer_vtable,
                              &subspan->base.resource);
  subspan->host_allocator = host_allocator;
  subspan->base.allocator = NULL;
  subspan->base.allocated_buffer = allocated;
  grt_hal_buffer_retain(allocated);
  subspan->base.allocation_size = allocated->allocation_size;
  subspan->base.byte_offset = buffer->byte_offset + offset;
  subspan->base.byte_length = resolved;
  subspan->base.memory_type = allocated->memory_type;
  subspan->base.usage = buffer->usage;
  subspan->base.allowed_access = buffer->allowed_access;
  *out = &subspan->base;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Mapping
//===----------------------------------------------------------------------===//

grt_status_t grt_hal_buffer_map_range(grt_hal_buffer_t* buffer,
                                      grt_hal_memory_access_t access,
                                      uint64_t offset, uint64_t length,
                                      grt_hal_buffer_mapping_t* out_mapping) {
  memset(out_mapping, 0, sizeof(*out_mapping));
  if (!(buffer->memory_type & GRT_HAL_MEMORY_TYPE_HOST_VISIBLE)) {
    char type[96];
    return grt_make_status(
        GRT_STATUS_FAILED_PRECONDITION,
        "buffer is not host-visible (memory type %s); use hal/transfer.h",
        grt_hal_memory_type_format(buffer->memory_type, type, sizeof(type)));
  }
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_hal_buffer_validate_usage(buffer, GRT_HAL_BUFFER_USAGE_MAPPING),
      "while mapping a buffer");
  if (access & (GRT_HAL_MEMORY_ACCESS_WRITE | GRT_HAL_MEMORY_ACCESS_DISCARD)) {
    GRT_RETURN_IF_ERROR(
        grt_hal_buffer_validate_writable(buffer, "map for writing"));
  }
  uint64_t resolved = 0;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_hal_buffer_calculate_range(buffer, offset, length, &resolved),
      "while mapping a buffer");
  grt_hal_buffer_t* allocated = buffer->allocated_buffer;
  grt_hal_buffer_mapping_t mapping;
  memset(&mapping, 0, sizeof(mapping));
  mapping.buffer = allocated;
  mapping.access = access;
  mapping.offset = buffer->byte_offset + offset;
  mapping.length = resolved;
  const grt_hal_buffer_vtable_t* vtable =
      GRT_HAL_VTABLE(allocated, grt_hal_buffer_vtable_t);
  bool coherent = (allocated->memory_type & GRT_HAL_MEMORY_TYPE_HOST_COHERENT);
  if (!coherent && (access & GRT_HAL_MEMORY_ACCESS_READ) &&
      vtable->invalidate_range) {
    GRT_RETURN_IF_ERROR(
        vtable->invalidate_range(allocated, mapping.offset, mapping.length));
  }
  GRT_RETURN_IF_ERROR(vtable->map_range(allocated, &mapping));
  *out_mapping = mapping;
  return grt_ok_status();
}

grt_status_t grt_hal_buffer_unmap_range(grt_hal_buffer_mapping_t* mapping) {
  grt_hal_buffer_t* allocated = mapping->buffer;
  if (!allocated) {
    return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                           "unmap of a mapping that is not mapped");
  }
  const grt_hal_buffer_vtable_t* vtable =
      GRT_HAL_VTABLE(allocated, grt_hal_buffer_vtable_t);
  grt_status_t status = grt_ok_status();
  bool coherent = (allocated->memory_type & GRT_HAL_MEMORY_TYPE_HOST_COHERENT);
  if (!coherent && (mapping->access & GRT_HAL_MEMORY_ACCESS_WRITE) &&
      vtable->flush_range) {
    status = vtable->flush_range(allocated, mapping->offset, mapping->length);
  }
  // Unmap even when the flush failed so the mapping does not leak; the
  // flush's error is the one reported.
  grt_status_t unmap_status = vtable->unmap_range(allocated, mapping);
  if (grt_status_is_ok(status)) {
    status = unmap_status;
  } else {
    grt_status_free(unmap_status);
  }
  memset(mapping, 0, sizeof(*mapping));
  return status;
}

grt_status_t grt_hal_buffer_map_read(grt_hal_buffer_t* buffer, uint64_t offset,
                                     void* target, size_t length) {
  grt_hal_buffer_mapping_t mapping;
  GRT_RETURN_IF_ERROR(grt_hal_buffer_map_range(
      buffer, GRT_HAL_MEMORY_ACCESS_READ, offset, length, &mapping));
  if (length) memcpy(target, mapping.contents, length);
  return grt_hal_buffer_unmap_range(&mapping);
}

grt_status_t grt_hal_buffer_map_write(grt_hal_buffer_t* buffer, uint64_t offset,
                                      const void* source, size_t length) {
  grt_hal_buffer_mapping_t mapping;
  GRT_RETURN_IF_ERROR(grt_hal_buffer_map_range(
      buffer, GRT_HAL_MEMORY_ACCESS_WRITE, offset, length, &mapping));
  if (length) memcpy(mapping.contents, source, length);
  return grt_hal_buffer_unmap_range(&mapping);
}
