// Buffers: device memory with a memory type and the uses it was made for.
//
// A buffer is owned by the allocator that made it (hal/allocator.h). Memory
// that the host cannot see (device-local only, as on CUDA and most Vulkan
// GPUs) is never mapped: data reaches it through queue transfers
// (hal/transfer.h) or command buffers. Host-visible memory can be mapped a
// range at a time; non-coherent memory needs flush/invalidate, which
// map/unmap do for the caller.
//
// A subspan is a buffer that views a byte range of another one (its
// "allocated buffer") and keeps it alive. Every operation on a subspan is
// translated to the allocated buffer, so drivers only ever see allocated
// buffers plus offsets.
#ifndef GRT_HAL_BUFFER_H_
#define GRT_HAL_BUFFER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "hal/resource.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_hal_allocator_t grt_hal_allocator_t;
typedef struct grt_hal_buffer_t grt_hal_buffer_t;

// "From the offset to the end of the buffer" wherever a length is taken.
#define GRT_HAL_WHOLE_BUFFER UINT64_MAX

// Memory types (bits). DEVICE_LOCAL is fastest for the device; HOST_VISIBLE
// can be mapped; HOST_COHERENT needs no flush/invalidate; HOST_CACHED is
// fast for the host to read.
typedef uint32_t grt_hal_memory_type_t;
enum {
  GRT_HAL_MEMORY_TYPE_NONE = 0,
  GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL = 1u << 0,
  GRT_HAL_MEMORY_TYPE_HOST_VISIBLE = 1u << 1,
  GRT_HAL_MEMORY_TYPE_HOST_COHERENT = 1u << 2,
  GRT_HAL_MEMORY_TYPE_HOST_CACHED = 1u << 3,
};

// Buffer usages (bits): what the buffer may be used for. An operation
// outside its usage is INVALID_ARGUMENT naming the missing usage.
typedef uint32_t grt_hal_buffer_usage_t;
enum {
  GRT_HAL_BUFFER_USAGE_NONE = 0,
  GRT_HAL_BUFFER_USAGE_TRANSFER_SOURCE = 1u << 0,
  GRT_HAL_BUFFER_USAGE_TRANSFER_TARGET = 1u << 1,
  GRT_HAL_BUFFER_USAGE_TRANSFER = (1u << 0) | (1u << 1),
  GRT_HAL_BUFFER_USAGE_DISPATCH_STORAGE = 1u << 2,  // kernel bindings
  GRT_HAL_BUFFER_USAGE_MAPPING = 1u << 3,           // host map/unmap
  GRT_HAL_BUFFER_USAGE_DEFAULT = (1u << 0) | (1u << 1) | (1u << 2),
};

// What a mapping is for.
typedef uint32_t grt_hal_memory_access_t;
enum {
  GRT_HAL_MEMORY_ACCESS_READ = 1u << 0,
  GRT_HAL_MEMORY_ACCESS_WRITE = 1u << 1,
  GRT_HAL_MEMORY_ACCESS_DISCARD = 1u << 2,  // old contents need not survive
  GRT_HAL_MEMORY_ACCESS_READ_WRITE = (1u << 0) | (1u << 1),
};

// What a caller asks an allocator for.
typedef struct grt_hal_buffer_params_t {
  grt_hal_memory_type_t type;    // required bits; NONE = DEVICE_LOCAL
  grt_hal_buffer_usage_t usage;  // NONE = DEFAULT
  uint32_t min_alignment;        // power of two; 0 = the allocator's default (64)
  // What the buffer's contents allow: READ for read-only memory (an
  // imported read-only mapping); NONE = READ_WRITE. Every write path
  // (mapping for writing, fill/copy/update targets, dispatch bindings the
  // kernel writes) refuses a buffer without WRITE.
  grt_hal_memory_access_t access;
} grt_hal_buffer_params_t;

// Formats memory types / usages as "DEVICE_LOCAL|HOST_VISIBLE" into |out|
// (always NUL-terminated, truncated to |capacity|); returns |out|.
const char* grt_hal_memory_type_format(grt_hal_memory_type_t type, char* out,
                                       size_t capacity);
const char* grt_hal_buffer_usage_format(grt_hal_buffer_usage_t usage,
                                        char* out, size_t capacity);
// Formats memory access bits as "READ|WRITE" the same way.
const char* grt_hal_memory_access_format(grt_hal_memory_access_t access,
                                         char* out, size_t capacity);

// A mapped range. |contents| points at the first mapped byte.
typedef struct grt_hal_buffer_mapping_t {
  grt_hal_buffer_t* buffer;  // the buffer mapped (borrowed)
  grt_hal_memory_access_t access;
  uint64_t offset;  // within |buffer|
  uint64_t length;
  void* contents;
  uintptr_t impl[2];  // for the implementation
} grt_hal_buffer_mapping_t;

typedef struct grt_hal_buffer_vtable_t {
  grt_hal_resource_vtable_t base;
  // Maps [offset, offset+length) of an allocated buffer (never a subspan;
  // range already validated). Fills mapping->contents (and impl).
  grt_status_t (*map_range)(grt_hal_buffer_t* buffer,
                            grt_hal_buffer_mapping_t* mapping);
  grt_status_t (*unmap_range)(grt_hal_buffer_t* buffer,
                              grt_hal_buffer_mapping_t* mapping);
  // Only for non-coherent memory; may be NULL when the memory is coherent.
  grt_status_t (*invalidate_range)(grt_hal_buffer_t* buffer, uint64_t offset,
                                   uint64_t length);
  grt_status_t (*flush_range)(grt_hal_buffer_t* buffer, uint64_t offset,
                              uint64_t length);
} grt_hal_buffer_vtable_t;

// The common part of every buffer; implementations embed it first.
struct grt_hal_buffer_t {
  grt_hal_resource_t resource;
  grt_hal_allocator_t* allocator;    // retained; NULL for subspans' own header
  grt_hal_buffer_t* allocated_buffer;  // self, or the buffer a subspan views
  uint64_t allocation_size;  // bytes of the allocated buffer
  uint64_t byte_offset;      // into the allocated buffer
  uint64_t byte_length;
  grt_hal_memory_type_t memory_type;
  grt_hal_buffer_usage_t usage;
  // READ_WRITE, or READ for read-only contents; a subspan keeps the access
  // of the buffer it was made from (never more).
  grt_hal_memory_access_t allowed_access;
};

// For implementations: fills the header of a new allocated buffer
// (allocated_buffer = itself, byte_offset 0, access READ_WRITE; the
// allocator wrappers narrow it to the params' access). Retains |allocator|
// if given.
void grt_hal_buffer_initialize(const grt_hal_buffer_vtable_t* vtable,
                               grt_hal_allocator_t* allocator,
                               grt_hal_memory_type_t memory_type,
                               grt_hal_buffer_usage_t usage,
                               uint64_t allocation_size,
                               grt_hal_buffer_t* buffer);
// For implementations' destroy: releases what the header holds.
void grt_hal_buffer_deinitialize(grt_hal_buffer_t* buffer);

static inline void grt_hal_buffer_retain(grt_hal_buffer_t* buffer) {
  grt_hal_resource_retain(buffer);
}
static inline void grt_hal_buffer_release(grt_hal_buffer_t* buffer) {
  grt_hal_resource_release(buffer);
}

static inline uint64_t grt_hal_buffer_byte_length(const grt_hal_buffer_t* b) {
  return b->byte_length;
}
static inline uint64_t grt_hal_buffer_byte_offset(const grt_hal_buffer_t* b) {
  return b->byte_offset;
}
static inline grt_hal_buffer_t* grt_hal_buffer_allocated_buffer(
    const grt_hal_buffer_t* b) {
  return b->allocated_buffer;
}
static inline grt_hal_memory_type_t grt_hal_buffer_memory_type(
    const grt_hal_buffer_t* b) {
  return b->memory_type;
}
static inline grt_hal_buffer_usage_t grt_hal_buffer_usage(
    const grt_hal_buffer_t* b) {
  return b->usage;
}
static inline grt_hal_memory_access_t grt_hal_buffer_allowed_access(
    const grt_hal_buffer_t* b) {
  return b->allowed_access;
}

// Narrows what |buffer| allows to |access| (bits not in |access| are
// removed, none added), e.g. after filling a device copy of read-only data.
// Subspans made afterwards inherit it; existing ones keep theirs.
void grt_hal_buffer_restrict_access(grt_hal_buffer_t* buffer,
                                    grt_hal_memory_access_t access);

// Checks |buffer| may be written, else PERMISSION_DENIED naming |operation|
// and both accesses: "buffer store: expected a writable buffer (access
// READ|WRITE), got a read-only buffer of 16 bytes (access READ)".
grt_status_t grt_hal_buffer_validate_writable(const grt_hal_buffer_t* buffer,
                                              const char* operation)
    GRT_MUST_USE;

// Resolves |length| (GRT_HAL_WHOLE_BUFFER allowed) against |buffer| and
// checks offset+length fits, else OUT_OF_RANGE: "range [8, 24) is outside
// buffer of 16 bytes".
grt_status_t grt_hal_buffer_calculate_range(const grt_hal_buffer_t* buffer,
                                            uint64_t offset, uint64_t length,
                                            uint64_t* out_length) GRT_MUST_USE;

// Checks |buffer| has every bit of |required| usage, else INVALID_ARGUMENT
// "buffer usage TRANSFER_SOURCE|DISPATCH_STORAGE lacks MAPPING".
grt_status_t grt_hal_buffer_validate_usage(const grt_hal_buffer_t* buffer,
                                           grt_hal_buffer_usage_t required)
    GRT_MUST_USE;

// A new buffer viewing [offset, offset+length) of |buffer| (which may itself
// be a subspan; the result always points at the allocated buffer).
grt_status_t grt_hal_buffer_subspan(grt_hal_buffer_t* buffer, uint64_t offset,
                                    uint64_t length, grt_hal_buffer_t** out)
    GRT_MUST_USE;

// Maps a range of a host-visible buffer with MAPPING usage. Errors:
// FAILED_PRECONDITION "buffer is not host-visible (memory type
// DEVICE_LOCAL); use hal/transfer.h", a range/usage error, or (WRITE or
// DISCARD access on a read-only buffer) PERMISSION_DENIED "map for
// writing: expected a writable buffer ...". Invalidates
// non-coherent memory when mapping for reading.
grt_status_t grt_hal_buffer_map_range(grt_hal_buffer_t* buffer,
                                      grt_hal_memory_access_t access,
                                      uint64_t offset, uint64_t length,
                                      grt_hal_buffer_mapping_t* out_mapping)
    GRT_MUST_USE;
// Unmaps (flushing non-coherent memory written through the mapping).
grt_status_t grt_hal_buffer_unmap_range(grt_hal_buffer_mapping_t* mapping)
    GRT_MUST_USE;

// Copies between host memory and a mappable buffer (map, memcpy, unmap).
grt_status_t grt_hal_buffer_map_read(grt_hal_buffer_t* buffer, uint64_t offset,
                                     void* target, size_t length) GRT_MUST_USE;
grt_status_t grt_hal_buffer_map_write(grt_hal_buffer_t* buffer, uint64_t offset,
                                      const void* source, size_t length)
    GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_BUFFER_H_
