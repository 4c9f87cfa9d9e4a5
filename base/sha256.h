// SHA-256 (FIPS 180-4): the digest module files use to check that an
// executable binary is the one the compiler wrote. Incremental, so a caller
// can hash data that arrives in pieces, and allocation-free.
#ifndef GRT_BASE_SHA256_H_
#define GRT_BASE_SHA256_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GRT_SHA256_DIGEST_SIZE 32
#define GRT_SHA256_BLOCK_SIZE 64

typedef struct grt_sha256_t {
  uint32_t state[8];
  uint64_t total_bytes;
  uint8_t block[GRT_SHA256_BLOCK_SIZE];
  size_t block_used;
} grt_sha256_t;

void grt_sha256_initialize(grt_sha256_t* sha);
void grt_sha256_update(grt_sha256_t* sha, const void* data, size_t size);
// Writes the digest; |sha| must be initialized again before reuse.
void grt_sha256_finalize(grt_sha256_t* sha,
                         uint8_t out_digest[GRT_SHA256_DIGEST_SIZE]);

// One-shot convenience over the three calls above.
void grt_sha256(const void* data, size_t size,
                uint8_t out_digest[GRT_SHA256_DIGEST_SIZE]);

// Whether two digests are equal, reading every byte of both whatever they
// hold (no early exit, no memcmp): the time does not depend on where they
// differ, and coverage-guided fuzzers, which watch memcmp's operands and
// the operands of each comparison, cannot learn a matching digest for bytes
// they changed from it.
bool grt_sha256_digest_equal(const uint8_t a[GRT_SHA256_DIGEST_SIZE],
                             const uint8_t b[GRT_SHA256_DIGEST_SIZE]);

#ifdef __cplusplus
}
#endif

#endif  // GRT_BASE_SHA256_H_
