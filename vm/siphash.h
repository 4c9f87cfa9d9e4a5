// SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF",
// 2012): a keyed 64-bit hash. vm.buffer.hash is SipHash-2-4, as in IREE.
#ifndef GRT_VM_SIPHASH_H_
#define GRT_VM_SIPHASH_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// The 128-bit key vm.buffer.hash uses: the bytes 0x00, 0x01, ..., 0x0F (the
// key of the algorithm's published test vectors).
extern const uint8_t grt_vm_buffer_hash_key[16];

// SipHash-2-4 of |length| bytes at |data| under the 16-byte |key| (read as
// two little-endian 64-bit words), as the 64-bit integer whose little-endian
// bytes are the algorithm's 8-byte output.
uint64_t grt_vm_siphash24(const uint8_t key[16], const void* data,
                          size_t length);

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_SIPHASH_H_
