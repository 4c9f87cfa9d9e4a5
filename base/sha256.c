// SHA-256 following FIPS 180-4 §6.2. Words are assembled from bytes
// explicitly so the code is independent of host byte order and alignment.
#include "base/sha256.h"

#include <string.h>

// §4.2.2: the first 32 bits of the fractional parts of the cube roots of
// the first 64 primes.
static const uint32_t grt_sha256_k[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu,
    0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u, 0xd807aa98u, 0x12835b01u,
    0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u,
    0xc19bf174u, 0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu,
    0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau, 0x983e5152u,
    0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u,
    0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu,
    0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u,
    0xd6990624u, 0xf40e3585u, 0x106aa070u, 0x19a4c116u, 0x1e376c08u,
    0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu,
    0x682e6ff3u, 0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u,
    0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

static inline uint32_t grt_rotr32(uint32_t x, unsigned n) {
  return (x >> n) | (x << (32 - n));
}

static void grt_sha256_compress(uint32_t state[8], const uint8_t block[64]) {
  uint32_t w[64];
  for (int t = 0; t < 16; ++t) {
    w[t] = ((uint32_t)block[4 * t] << 24) | ((uint32_t)block[4 * t + 1] << 16) |
           ((uint32_t)block[4 * t + 2] << 8) | (uint32_t)block[4 * t + 3];
  }
  for (int t = 16; t < 64; ++t) {
    uint32_t s0 = grt_rotr32(w[t - 15], 7) ^ grt_rotr32(w[t - 15], 18) ^
                  (w[t - 15] >> 3);
    uint32_t s1 = grt_rotr32(w[t - 2], 17) ^ grt_rotr32(w[t - 2], 19) ^
                  (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (int t = 0; t < 64; ++t) {
    uint32_t big_s1 = grt_rotr32(e, 6) ^ grt_rotr32(e, 11) ^ grt_rotr32(e, 25);
    uint32_t ch = (e & f) ^ (~e & g);
    uint32_t t1 = h + big_s1 + ch + grt_sha256_k[t] + w[t];
    uint32_t big_s0 = grt_rotr32(a, 2) ^ grt_rotr32(a, 13) ^ grt_rotr32(a, 22);
    uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    uint32_t t2 = big_s0 + maj;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

void grt_sha256_initialize(grt_sha256_t* sha) {
  // §5.3.3: the first 32 bits of the fractional parts of the square roots of
  // the first 8 primes.
  static const uint32_t initial[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u,
                                      0xa54ff53au, 0x510e527fu, 0x9b05688cu,
                                      0x1f83d9abu, 0x5be0cd19u};
  memcpy(sha->state, initial, sizeof(initial));
  sha->total_bytes = 0;
  sha->block_used = 0;
}

void grt_sha256_update(grt_sha256_t* sha, const void* data, size_t size) {
  const uint8_t* bytes = (const uint8_t*)data;
  sha->total_bytes += size;
  if (sha->block_used > 0) {
    size_t take = GRT_SHA256_BLOCK_SIZE - sha->block_used;
    if (take > size) take = size;
    memcpy(sha->block + sha->block_used, bytes, take);
    sha->block_used += take;
    bytes += take;
    size -= take;
    if (sha->block_used < GRT_SHA256_BLOCK_SIZE) return;
    grt_sha256_compress(sha->state, sha->block);
    sha->block_used = 0;
  }
  // Whole blocks are hashed straight from the input without staging.
  for (; size >= GRT_SHA256_BLOCK_SIZE; size -= GRT_SHA256_BLOCK_SIZE) {
    grt_sha256_compress(sha->state, bytes);
    bytes += GRT_SHA256_BLOCK_SIZE;
  }
  if (size > 0) {
    memcpy(sha->block, bytes, size);
    sha->block_used = size;
  }
}

void grt_sha256_finalize(grt_sha256_t* sha,
                         uint8_t out_digest[GRT_SHA256_DIGEST_SIZE]) {
  // §5.1.1: a 1 bit, zeros to 56 mod 64 bytes, then the bit length as a
  // 64-bit big-endian integer.
  uint64_t bit_length = sha->total_bytes * 8;
  sha->block[sha->block_used++] = 0x80;
  if (sha->block_used > GRT_SHA256_BLOCK_SIZE - 8) {
    memset(sha->block + sha->block_used, 0,
           GRT_SHA256_BLOCK_SIZE - sha->block_used);
    grt_sha256_compress(sha->state, sha->block);
    sha->block_used = 0;
  }
  memset(sha->block + sha->block_used, 0,
         GRT_SHA256_BLOCK_SIZE - 8 - sha->block_used);
  for (int i = 0; i < 8; ++i) {
    sha->block[GRT_SHA256_BLOCK_SIZE - 1 - i] = (uint8_t)(bit_length >> (8 * i));
  }
  grt_sha256_compress(sha->state, sha->block);
  for (int i = 0; i < 8; ++i) {
    out_digest[4 * i] = (uint8_t)(sha->state[i] >> 24);
    out_digest[4 * i + 1] = (uint8_t)(sha->state[i] >> 16);
    out_digest[4 * i + 2] = (uint8_t)(sha->state[i] >> 8);
    out_digest[4 * i + 3] = (uint8_t)sha->state[i];
  }
}

void grt_sha256(const void* data, size_t size,
                uint8_t out_digest[GRT_SHA256_DIGEST_SIZE]) {
  grt_sha256_t sha;
  grt_sha256_initialize(&sha);
  grt_sha256_update(&sha, data, size);
  grt_sha256_finalize(&sha, out_digest);
}

bool grt_sha256_digest_equal(const uint8_t a[GRT_SHA256_DIGEST_SIZE],
                             const uint8_t b[GRT_SHA256_DIGEST_SIZE]) {
  // volatile: the compiler may not turn the loop back into a memcmp or stop
  // at the first difference.
  volatile uint8_t difference = 0;
  for (size_t i = 0; i < GRT_SHA256_DIGEST_SIZE; ++i) {
    difference = (uint8_t)(difference | (a[i] ^ b[i]));
  }
  return difference == 0;
}
