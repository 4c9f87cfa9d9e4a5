#include "vm/buffer.h"

#include <string.h>

#include "base/checked_math.h"
#include "vm/siphash.h"

struct grt_vm_buffer_t {
  grt_vm_ref_object_t ref_object;
  grt_allocator_t allocator;  // frees the struct and owned storage
  uint8_t* data;
  uint64_t length;
  grt_vm_buffer_access_t access;
  bool owns_data;
  grt_vm_buffer_release_callback_t release_callback;
};

static void grt_vm_buffer_destroy(void* ptr) {
  grt_vm_buffer_t* buffer = ptr;
  if (buffer->owns_data) {
    grt_allocator_free(buffer->allocator, buffer->data);
  } else if (buffer->release_callback.fn) {
    buffer->release_callback.fn(buffer->release_callback.user_data);
  }
  grt_allocator_free(buffer->allocator, buffer);
}

static const grt_vm_ref_type_descriptor_t grt_vm_buffer_descriptor = {
    "vm.buffer",
    grt_vm_buffer_destroy,
    offsetof(grt_vm_buffer_t, ref_object),
};

grt_vm_ref_type_t grt_vm_buffer_type(void) { return &grt_vm_buffer_descriptor; }

const grt_vm_ref_type_descriptor_t* grt_vm_buffer_type_descriptor(void) {
  return &grt_vm_buffer_descriptor;
}

static grt_status_t grt_vm_buffer_allocate_header(
    grt_allocator_t allocator, grt_vm_buffer_access_t access,
    grt_vm_buffer_t** out_buffer) {
  grt_vm_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, sizeof(*buffer), (void**)&buffer));
  grt_vm_ref_object_initialize(&buffer->ref_object);
  buffer->allocator = allocator;
  buffer->access = access;
  *out_buffer = buffer;
  return grt_ok_status();
}

grt_status_t grt_vm_buffer_create(grt_vm_buffer_access_t access,
                                  uint64_t length, size_t alignment,
                                  grt_allocator_t allocator,
                                  grt_vm_buffer_t** out_buffer) {
  *out_buffer = NULL;
  if (alignment == 0) alignment = GRT_ALLOCATOR_DEFAULT_ALIGNMENT;
  if (!grt_is_power_of_two_size(alignment)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "buffer alignment must be a power of two, got %zu",
                           alignment);
  }
  if (length > SIZE_MAX) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "buffer length %llu does not fit in host memory",
                           (unsigned long long)length);
  }
  void* data = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc_aligned(allocator, (size_t)length,
                                                   alignment, &data));
  memset(data, 0, (size_t)length);
  grt_vm_buffer_t* buffer = NULL;
  grt_status_t status = grt_vm_buffer_allocate_header(allocator, access, &buffer);
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(allocator, data);
    return status;
  }
  buffer->data = data;
  buffer->length = length;
  buffer->owns_data = true;
  *out_buffer = buffer;
  return grt_ok_status();
}

grt_status_t grt_vm_buffer_wrap(void* data, uint64_t length,
                                grt_vm_buffer_access_t access,
                                grt_vm_buffer_release_callback_t release_callback,
                                grt_allocator_t allocator,
                                grt_vm_buffer_t** out_buffer) {
  *out_buffer = NULL;
  grt_vm_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_buffer_allocate_header(allocator, access, &buffer));
  buffer->data = data;
  buffer->length = length;
  buffer->release_callback = release_callback;
  *out_buffer = buffer;
  return grt_ok_status();
}

void grt_vm_buffer_retain(grt_vm_buffer_t* buffer) {
  if (buffer) grt_vm_ref_object_retain(buffer, &grt_vm_buffer_descriptor);
}

void grt_vm_buffer_release(grt_vm_buffer_t* buffer) {
  if (buffer) grt_vm_ref_object_release(buffer, &grt_vm_buffer_descriptor);
}

grt_status_t grt_vm_buffer_check_deref(const grt_vm_ref_t* ref,
                                       grt_vm_buffer_t** out_buffer) {
  return grt_vm_ref_deref(ref, &grt_vm_buffer_descriptor, (void**)out_buffer);
}

uint64_t grt_vm_buffer_length(const grt_vm_buffer_t* buffer) {
  return buffer->length;
}

grt_vm_buffer_access_t grt_vm_buffer_access(const grt_vm_buffer_t* buffer) {
  return buffer->access;
}

static grt_status_t grt_vm_buffer_check_range(const grt_vm_buffer_t* buffer,
                                              uint64_t offset,
                                              uint64_t length) {
  uint64_t end = 0;
  if (GRT_LIKELY(grt_checked_add_u64(offset, length, &end) &&
                 end <= buffer->length)) {
    return grt_ok_status();
  }
  return grt_make_status(
      GRT_STATUS_OUT_OF_RANGE,
      "buffer access out of range: offset %llu + length %llu > buffer length "
      "%llu",
      (unsigned long long)offset, (unsigned long long)length,
      (unsigned long long)buffer->length);
}

static grt_status_t grt_vm_buffer_check_writable(const grt_vm_buffer_t* buffer,
                                                 uint64_t offset,
                                                 uint64_t length) {
  if (GRT_LIKELY(buffer->access & GRT_VM_BUFFER_ACCESS_MUTABLE)) {
    return grt_vm_buffer_check_range(buffer, offset, length);
  }
  return grt_make_status(
      GRT_STATUS_PERMISSION_DENIED,
      "buffer is read-only%s: cannot write %llu bytes at offset %llu of a "
      "%llu-byte buffer",
      (buffer->access & GRT_VM_BUFFER_ACCESS_ORIGIN_MODULE)
          ? " (it aliases module rodata)"
          : "",
      (unsigned long long)length, (unsigned long long)offset,
      (unsigned long long)buffer->length);
}

grt_status_t grt_vm_buffer_map_read(const grt_vm_buffer_t* buffer,
                                    uint64_t offset, uint64_t length,
                                    const void** out_data) {
  *out_data = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_buffer_check_range(buffer, offset, length));
  *out_data = buffer->data + offset;
  return grt_ok_status();
}

grt_status_t grt_vm_buffer_map_write(grt_vm_buffer_t* buffer, uint64_t offset,
                                     uint64_t length, void** out_data) {
  *out_data = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_buffer_check_writable(buffer, offset, length));
  *out_data = buffer->data + offset;
  return grt_ok_status();
}

grt_status_t grt_vm_buffer_clone(const grt_vm_buffer_t* source, uint64_t offset,
                                 uint64_t length, grt_vm_buffer_access_t access,
                                 size_t alignment, grt_allocator_t allocator,
                                 grt_vm_buffer_t** out_buffer) {
  *out_buffer = NULL;
  const void* bytes = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_buffer_map_read(source, offset, length, &bytes));
  grt_vm_buffer_t* clone = NULL;
  GRT_RETURN_IF_ERROR(
      grt_vm_buffer_create(access, length, alignment, allocator, &clone));
  if (length) memcpy(clone->data, bytes, (size_t)length);
  *out_buffer = clone;
  return grt_ok_status();
}

static bool grt_vm_buffer_is_valid_width(size_t width) {
  return width == 1 || width == 2 || width == 4 || width == 8;
}

// The low |width| bytes of |value| in host order, as a store of that width
// writes them.
static void grt_vm_buffer_low_bytes(uint64_t value, size_t width,
                                    uint8_t* out_bytes) {
  uint8_t u8 = (uint8_t)value;
  uint16_t u16 = (uint16_t)value;
  uint32_t u32 = (uint32_t)value;
  const void* source = width == 1   ? (const void*)&u8
                       : width == 2 ? (const void*)&u16
                       : width == 4 ? (const void*)&u32
                                    : (const void*)&value;
  memcpy(out_bytes, source, width);
}

static grt_status_t grt_vm_buffer_width_error(const char* what, size_t width) {
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "buffer %s width must be 1, 2, 4 or 8 bytes, got %zu",
                         what, width);
}

grt_status_t grt_vm_buffer_fill(grt_vm_buffer_t* buffer, uint64_t offset,
                                uint64_t length, uint64_t pattern,
                                size_t pattern_length) {
  if (!grt_vm_buffer_is_valid_width(pattern_length)) {
    return grt_vm_buffer_width_error("fill pattern", pattern_length);
  }
  if (offset % pattern_length != 0 || length % pattern_length != 0) {
    return grt_make_status(
        GRT_STATUS_INVALID_ARGUMENT,
        "buffer fill: offset %llu and length %llu must be multiples of the "
        "%zu-byte pattern",
        (unsigned long long)offset, (unsigned long long)length, pattern_length);
  }
  void* target = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_buffer_map_write(buffer, offset, length, &target));
  uint8_t bytes[8];
  grt_vm_buffer_low_bytes(pattern, pattern_length, bytes);
  uint8_t* out = target;
  if (pattern_length == 1) {
    memset(out, bytes[0], (size_t)length);
    return grt_ok_status();
  }
  for (uint64_t i = 0; i < length; i += pattern_length) {
    memcpy(out + i, bytes, pattern_length);
  }
  return grt_ok_status();
}

grt_status_t grt_vm_buffer_copy(const grt_vm_buffer_t* source,
                                uint64_t source_offset, grt_vm_buffer_t* target,
                                uint64_t target_offset, uint64_t length) {
  const void* from = NULL;
  void* to = NULL;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_vm_buffer_map_read(source, source_offset, length, &from),
      "copy source");
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_vm_buffer_map_write(target, target_offset, length, &to),
      "copy target");
  if (length) memmove(to, from, (size_t)length);
  return grt_ok_status();
}

grt_status_t grt_vm_buffer_compare(const grt_vm_buffer_t* lhs,
                                   uint64_t lhs_offset,
                                   const grt_vm_buffer_t* rhs,
                                   uint64_t rhs_offset, uint64_t length,
                                   bool* out_equal) {
  *out_equal = false;
  const void* a = NULL;
  const void* b = NULL;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_vm_buffer_map_read(lhs, lhs_offset, length, &a), "compare lhs");
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_vm_buffer_map_read(rhs, rhs_offset, length, &b), "compare rhs");
  *out_equal = length == 0 || memcmp(a, b, (size_t)length) == 0;
  return grt_ok_status();
}

grt_status_t grt_vm_buffer_hash(const grt_vm_buffer_t* buffer, uint64_t offset,
                                uint64_t length, uint64_t* out_hash) {
  *out_hash = 0;
  const void* data = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_buffer_map_read(buffer, offset, length, &data));
  *out_hash = grt_vm_siphash24(grt_vm_buffer_hash_key, data, (size_t)length);
  return grt_ok_status();
}

grt_status_t grt_vm_buffer_load_int(const grt_vm_buffer_t* buffer,
                                    uint64_t offset, size_t width,
                                    bool sign_extend, int64_t* out_value) {
  *out_value = 0;
  if (!grt_vm_buffer_is_valid_width(width)) {
    return grt_vm_buffer_width_error("load", width);
  }
  const void* data = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_buffer_map_read(buffer, offset, width, &data));
  switch (width) {
    case 1: {
      uint8_t v;
      memcpy(&v, data, 1);
      *out_value = sign_extend ? (int64_t)(int8_t)v : (int64_t)v;
      break;
    }
    case 2: {
      uint16_t v;
      memcpy(&v, data, 2);
      *out_value = sign_extend ? (int64_t)(int16_t)v : (int64_t)v;
      break;
    }
    case 4: {
      uint32_t v;
      memcpy(&v, data, 4);
      *out_value = sign_extend ? (int64_t)(int32_t)v : (int64_t)v;
      break;
    }
    default: {
      memcpy(out_value, data, 8);
      break;
    }
  }
  return grt_ok_status();
}

grt_status_t grt_vm_buffer_store_int(grt_vm_buffer_t* buffer, uint64_t offset,
                                     size_t width, int64_t value) {
  if (!grt_vm_buffer_is_valid_width(width)) {
    return grt_vm_buffer_width_error("store", width);
  }
  void* data = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_buffer_map_write(buffer, offset, width, &data));
  grt_vm_buffer_low_bytes((uint64_t)value, width, data);
  return grt_ok_status();
}

grt_status_t grt_vm_buffer_load_f32(const grt_vm_buffer_t* buffer,
                                    uint64_t offset, float* out_value) {
  *out_value = 0.0f;
  const void* data = NULL;
  GRT_RETURN_IF_ERROR(
      grt_vm_buffer_map_read(buffer, offset, sizeof(*out_value), &data));
  memcpy(out_value, data, sizeof(*out_value));
  return grt_ok_status();
}

grt_status_t grt_vm_buffer_store_f32(grt_vm_buffer_t* buffer, uint64_t offset,
                                     float value) {
  void* data = NULL;
  GRT_RETURN_IF_ERROR(
      grt_vm_buffer_map_write(buffer, offset, sizeof(value), &data));
  memcpy(data, &value, sizeof(value));
  return grt_ok_status();
}

grt_status_t grt_vm_buffer_load_f64(const grt_vm_buffer_t* buffer,
                                    uint64_t offset, double* out_value) {
  *out_value = 0.0;
  const void* data = NULL;
  GRT_RETURN_IF_ERROR(
      grt_vm_buffer_map_read(buffer, offset, sizeof(*out_value), &data));
  memcpy(out_value, data, sizeof(*out_value));
  return grt_ok_status();
}

grt_status_t grt_vm_buffer_store_f64(grt_vm_buffer_t* buffer, uint64_t offset,
                                     double value) {
  void* data = NULL;
  GRT_RETURN_IF_ERROR(
      grt_vm_buffer_map_write(buffer, offset, sizeof(value), &data));
  memcpy(data, &value, sizeof(value));
  return grt_ok_status();
}
