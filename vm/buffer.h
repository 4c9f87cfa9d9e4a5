// vm.buffer: a ref-counted run of bytes the VM can read and write.
//
// A buffer either owns its storage (allocated, zero-filled, with a chosen
// alignment) or aliases memory it does not own, e.g. a rodata segment of a
// mapped module file, so constants reach bytecode and kernels without a
// copy. An aliasing buffer may carry a release callback that runs when the
// buffer is destroyed (typically releasing the module file that holds the
// bytes).
//
// Every accessor checks bounds and access and reports failures in one
// spelling: "buffer access out of range: offset 12 + length 8 > buffer
// length 16", "buffer is read-only: cannot write 4 bytes at offset 0 of a
// 16-byte buffer". Offsets and lengths are bytes; the interpreter scales
// element indices before calling. Element loads and stores use host byte
// order (the bytes are tensor data the host and kernels share) and any
// alignment.
#ifndef GRT_VM_BUFFER_H_
#define GRT_VM_BUFFER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "vm/ref.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_vm_buffer_t grt_vm_buffer_t;

typedef uint32_t grt_vm_buffer_access_t;
enum grt_vm_buffer_access_bits_e {
  // Writes allowed. Without it the buffer is read-only.
  GRT_VM_BUFFER_ACCESS_MUTABLE = 1u << 0,
  // The bytes are module rodata; named in write errors so users see why.
  GRT_VM_BUFFER_ACCESS_ORIGIN_MODULE = 1u << 1,
};

typedef struct grt_vm_buffer_release_callback_t {
  void (*fn)(void* user_data);  // NULL: nothing to do
  void* user_data;
} grt_vm_buffer_release_callback_t;

// The vm.buffer ref type (registered by every instance).
grt_vm_ref_type_t grt_vm_buffer_type(void);
const grt_vm_ref_type_descriptor_t* grt_vm_buffer_type_descriptor(void);

// A new zero-filled buffer of |length| bytes whose data is aligned to
// |alignment| (a power of two; 0 means GRT_ALLOCATOR_DEFAULT_ALIGNMENT).
grt_status_t grt_vm_buffer_create(grt_vm_buffer_access_t access,
                                  uint64_t length, size_t alignment,
                                  grt_allocator_t allocator,
                                  grt_vm_buffer_t** out_buffer) GRT_MUST_USE;

// A buffer over |length| bytes at |data| that it does not own. |data| must
// stay valid until |release_callback| runs (or, without one, until the
// buffer is destroyed). Writes are refused unless |access| has MUTABLE;
// const memory (rodata) must be wrapped without it.
grt_status_t grt_vm_buffer_wrap(void* data, uint64_t length,
                                grt_vm_buffer_access_t access,
                                grt_vm_buffer_release_callback_t release_callback,
                                grt_allocator_t allocator,
                                grt_vm_buffer_t** out_buffer) GRT_MUST_USE;

// A new owned buffer holding a copy of source[offset, offset + length),
// with the given access and alignment (0: default).
grt_status_t grt_vm_buffer_clone(const grt_vm_buffer_t* source, uint64_t offset,
                                 uint64_t length, grt_vm_buffer_access_t access,
                                 size_t alignment, grt_allocator_t allocator,
                                 grt_vm_buffer_t** out_buffer) GRT_MUST_USE;

void grt_vm_buffer_retain(grt_vm_buffer_t* buffer);
void grt_vm_buffer_release(grt_vm_buffer_t* buffer);

// INVALID_ARGUMENT unless |ref| is a non-null vm.buffer.
grt_status_t grt_vm_buffer_check_deref(const grt_vm_ref_t* ref,
                                       grt_vm_buffer_t** out_buffer)
    GRT_MUST_USE;

uint64_t grt_vm_buffer_length(const grt_vm_buffer_t* buffer);
grt_vm_buffer_access_t grt_vm_buffer_access(const grt_vm_buffer_t* buffer);

// Pointers into the buffer for [offset, offset + length), bounds checked;
// map_write also checks the buffer is mutable.
grt_status_t grt_vm_buffer_map_read(const grt_vm_buffer_t* buffer,
                                    uint64_t offset, uint64_t length,
                                    const void** out_data) GRT_MUST_USE;
grt_status_t grt_vm_buffer_map_write(grt_vm_buffer_t* buffer, uint64_t offset,
                                     uint64_t length, void** out_data)
    GRT_MUST_USE;

// Repeats the |pattern_length|-byte |pattern| (1, 2, 4 or 8 bytes, the low
// bytes of |pattern| in host order) over [offset, offset + length); both
// must be multiples of |pattern_length|.
grt_status_t grt_vm_buffer_fill(grt_vm_buffer_t* buffer, uint64_t offset,
                                uint64_t length, uint64_t pattern,
                                size_t pattern_length) GRT_MUST_USE;

// Copies |length| bytes; source and target may be the same buffer and the
// ranges may overlap.
grt_status_t grt_vm_buffer_copy(const grt_vm_buffer_t* source,
                                uint64_t source_offset, grt_vm_buffer_t* target,
                                uint64_t target_offset, uint64_t length)
    GRT_MUST_USE;

// Whether the two ranges hold the same bytes.
grt_status_t grt_vm_buffer_compare(const grt_vm_buffer_t* lhs,
                                   uint64_t lhs_offset,
                                   const grt_vm_buffer_t* rhs,
                                   uint64_t rhs_offset, uint64_t length,
                                   bool* out_equal) GRT_MUST_USE;

// SipHash-2-4 of the bytes in the range under grt_vm_buffer_hash_key
// (vm/siphash.h), as IREE's vm.buffer.hash: stable across runs and hosts.
grt_status_t grt_vm_buffer_hash(const grt_vm_buffer_t* buffer, uint64_t offset,
                                uint64_t length, uint64_t* out_hash)
    GRT_MUST_USE;

// Loads a |width|-byte integer (1, 2, 4 or 8) at |offset| and widens it to
// 64 bits, sign- or zero-extending. Callers wanting an i32 truncate.
grt_status_t grt_vm_buffer_load_int(const grt_vm_buffer_t* buffer,
                                    uint64_t offset, size_t width,
                                    bool sign_extend, int64_t* out_value)
    GRT_MUST_USE;
// Stores the low |width| bytes (1, 2, 4 or 8) of |value| at |offset|.
grt_status_t grt_vm_buffer_store_int(grt_vm_buffer_t* buffer, uint64_t offset,
                                     size_t width, int64_t value) GRT_MUST_USE;
grt_status_t grt_vm_buffer_load_f32(const grt_vm_buffer_t* buffer,
                                    uint64_t offset, float* out_value)
    GRT_MUST_USE;
grt_status_t grt_vm_buffer_store_f32(grt_vm_buffer_t* buffer, uint64_t offset,
                                     float value) GRT_MUST_USE;
grt_status_t grt_vm_buffer_load_f64(const grt_vm_buffer_t* buffer,
                                    uint64_t offset, double* out_value)
    GRT_MUST_USE;
grt_status_t grt_vm_buffer_store_f64(grt_vm_buffer_t* buffer, uint64_t offset,
                                     double value) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_BUFFER_H_
