// Host <-> device transfers for any device: map when the buffer allows it,
// otherwise stage through a host-visible buffer and a queue copy.
#include "hal/transfer.h"

#include <inttypes.h>
#include <string.h>

#include "hal/allocator.h"

static bool grt_hal_buffer_is_mappable(const grt_hal_buffer_t* buffer) {
  return (grt_hal_buffer_memory_type(buffer) &
          GRT_HAL_MEMORY_TYPE_HOST_VISIBLE) &&
         (grt_hal_buffer_usage(buffer) & GRT_HAL_BUFFER_USAGE_MAPPING);
}

static grt_status_t grt_hal_allocate_staging(grt_hal_device_t* device,
                                             uint64_t length,
                                             grt_hal_buffer_t** out_buffer) {
  grt_hal_buffer_params_t params = {
      .type = GRT_HAL_MEMORY_TYPE_HOST_VISIBLE,
      .usage = GRT_HAL_BUFFER_USAGE_TRANSFER | GRT_HAL_BUFFER_USAGE_MAPPING,
      .min_alignment = 0,
  };
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_hal_allocator_allocate_buffer(grt_hal_device_allocator(device),
                                        params, length, out_buffer),
      "while allocating a staging buffer of %" PRIu64 " bytes", length);
  return grt_ok_status();
}

// Queues a copy and waits for it with a fresh semaphore.
static grt_status_t grt_hal_device_copy_and_wait(grt_hal_device_t* device,
                                                 grt_hal_buffer_t* source,
                                                 uint64_t source_offset,
                                                 grt_hal_buffer_t* target,
                                                 uint64_t target_offset,
                                                 uint64_t length) {
  grt_hal_semaphore_t* semaphore = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_device_create_semaphore(device, 0, &semaphore));
  uint64_t signal_value = 1;
  grt_hal_semaphore_list_t signal = {1, &semaphore, &signal_value};
  grt_status_t status = grt_hal_device_queue_copy(
      device, grt_hal_semaphore_list_empty(), signal, source, source_offset,
      target, target_offset, length);
  if (grt_status_is_ok(status)) status = grt_hal_device_queue_flush(device);
  if (grt_status_is_ok(status)) {
    status = grt_hal_semaphore_wait(semaphore, signal_value,
                                    GRT_HAL_TIMEOUT_INFINITE);
  }
  grt_hal_semaphore_release(semaphore);
  return status;
}

grt_status_t grt_hal_device_transfer_h2d(grt_hal_device_t* device,
                                         const void* source,
                                         grt_hal_buffer_t* target,
                                         uint64_t target_offset,
                                         size_t length) {
  uint64_t checked = 0;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_hal_buffer_calculate_range(target, target_offset, length, &checked),
      "while copying %zu bytes from the host", length);
  GRT_RETURN_IF_ERROR(
      grt_hal_buffer_validate_writable(target, "copy from the host"));
  if (length == 0) return grt_ok_status();
  if (grt_hal_buffer_is_mappable(target)) {
    return grt_hal_buffer_map_write(target, target_offset, source, length);
  }
  GRT_RETURN_IF_ERROR(grt_hal_buffer_validate_usage(
      target, GRT_HAL_BUFFER_USAGE_TRANSFER_TARGET));
  grt_hal_buffer_t* staging = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_allocate_staging(device, length, &staging));
  grt_status_t status = grt_hal_buffer_map_write(staging, 0, source, length);
  if (grt_status_is_ok(status)) {
    status = grt_hal_device_copy_and_wait(device, staging, 0, target,
                                          target_offset, length);
  }
  grt_hal_buffer_release(staging);
  return status;
}

grt_status_t grt_hal_device_transfer_d2h(grt_hal_device_t* device,
                                         grt_hal_buffer_t* source,
                                         uint64_t source_offset, void* target,
                                         size_t length) {
  uint64_t checked = 0;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_hal_buffer_calculate_range(source, source_offset, length, &checked),
      "while copying %zu bytes to the host", length);
  if (length == 0) return grt_ok_status();
  if (grt_hal_buffer_is_mappable(source)) {
    return grt_hal_buffer_map_read(source, source_offset, target, length);
  }
  GRT_RETURN_IF_ERROR(grt_hal_buffer_validate_usage(
      source, GRT_HAL_BUFFER_USAGE_TRANSFER_SOURCE));
  grt_hal_buffer_t* staging = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_allocate_staging(device, length, &staging));
  grt_status_t status = grt_hal_device_copy_and_wait(
      device, source, source_offset, staging, 0, length);
  if (grt_status_is_ok(status)) {
    status = grt_hal_buffer_map_read(staging, 0, target, length);
  }
  grt_hal_buffer_release(staging);
  return status;
}

// DEFAULT usage on device-local memory; when a heap also makes that memory
// mappable (CPU devices), asks for it so transfers need no staging copy.
static grt_hal_buffer_params_t grt_hal_tensor_buffer_params(
    grt_hal_allocator_t* allocator) {
  grt_hal_buffer_params_t params = {
      .type = GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL,
      .usage = GRT_HAL_BUFFER_USAGE_DEFAULT,
      .min_alignment = 0,
  };
  grt_hal_allocator_memory_heap_t heaps[16];
  size_t count = 0;
  grt_hal_allocator_query_memory_heaps(allocator, 16, heaps, &count);
  if (count > 16) count = 16;
  grt_hal_memory_type_t mappable_type =
      GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL | GRT_HAL_MEMORY_TYPE_HOST_VISIBLE;
  grt_hal_buffer_usage_t mappable_usage =
      GRT_HAL_BUFFER_USAGE_DEFAULT | GRT_HAL_BUFFER_USAGE_MAPPING;
  for (size_t i = 0; i < count; ++i) {
    if ((heaps[i].type & mappable_type) == mappable_type &&
        (heaps[i].allowed_usage & mappable_usage) == mappable_usage) {
      params.type = mappable_type;
      params.usage = mappable_usage;
      break;
    }
  }
  return params;
}

grt_status_t grt_hal_buffer_view_allocate_from_host(
    grt_hal_device_t* device, const grt_hal_dim_t* shape, size_t rank,
    grt_hal_element_type_t element_type, const void* data, size_t data_length,
    grt_hal_buffer_view_t** out_view) {
  *out_view = NULL;
  if (rank > GRT_HAL_MAX_RANK) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "rank %zu exceeds the maximum of %d", rank,
                           GRT_HAL_MAX_RANK);
  }
  if (!grt_hal_element_type_is_known(element_type)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "unknown element type 0x%08" PRIx32, element_type);
  }
  uint64_t count = 0;
  GRT_RETURN_IF_ERROR(grt_hal_shape_element_count(shape, rank, &count));
  uint64_t byte_length = 0;
  if (!grt_hal_element_type_dense_bytes(element_type, count, &byte_length)) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "tensor of %" PRIu64 " elements is too large", count);
  }
  if (byte_length != data_length) {
    if (!GRT_STATUS_MESSAGES) {  // shape_text is only the message's
      return grt_make_status_code(GRT_STATUS_INVALID_ARGUMENT);
    }
    char shape_text[GRT_HAL_MAX_RANK * 21 + 16];
    grt_hal_shape_format(shape, rank, element_type, shape_text,
                         sizeof(shape_text));
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "host data of %zu bytes does not match "
                           "tensor<%s> (%" PRIu64 " bytes)",
                           data_length, shape_text, byte_length);
  }
  grt_hal_allocator_t* allocator = grt_hal_device_allocator(device);
  grt_hal_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_allocator_allocate_buffer(
      allocator, grt_hal_tensor_buffer_params(allocator), byte_length,
      &buffer));
  grt_status_t status =
      grt_hal_device_transfer_h2d(device, data, buffer, 0, data_length);
  if (grt_status_is_ok(status)) {
    status = grt_hal_buffer_view_create(buffer, shape, rank, element_type,
                                        grt_hal_device_host_allocator(device),
                                        out_view);
  }
  grt_hal_buffer_release(buffer);
  return status;
}

grt_status_t grt_hal_buffer_view_read_to_host(grt_hal_device_t* device,
                                              grt_hal_buffer_view_t* view,
                                              void* target,
                                              size_t target_capacity) {
  uint64_t byte_length = grt_hal_buffer_view_byte_length(view);
  if (target_capacity < byte_length) {
    char type_text[GRT_HAL_MAX_RANK * 21 + 32];
    grt_hal_buffer_view_format_type(view, type_text, sizeof(type_text));
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "host target of %zu bytes is too small for %s "
                           "(%" PRIu64 " bytes)",
                           target_capacity, type_text, byte_length);
  }
  return grt_hal_device_transfer_d2h(device, grt_hal_buffer_view_buffer(view),
                                     0, target, (size_t)byte_length);
}
