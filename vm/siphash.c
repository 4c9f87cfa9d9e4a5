#include "vm/siphash.h"

const uint8_t grt_vm_buffer_hash_key[16] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
    0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F,
};

// The four 64-bit state words.
typedef struct grt_vm_sip_state_t {
  uint64_t v0, v1, v2, v3;
} grt_vm_sip_state_t;

static inline uint64_t grt_vm_sip_rotl(uint64_t x, unsigned bits) {
  return (x << bits) | (x >> (64u - bits));
}

// Little-endian 64-bit word from |count| (0-8) bytes; missing high bytes 0.
static inline uint64_t grt_vm_sip_load_le(const uint8_t* bytes,
                                          size_t count) {
  uint64_t word = 0;
  for (size_t i = 0; i < count; ++i) word |= (uint64_t)bytes[i] << (8 * i);
  return word;
}

// One SipRound: two add-rotate-xor half rounds over (v0, v1) and (v2, v3),
// crossing over between them.
static void grt_vm_sip_round(grt_vm_sip_state_t* s) {
  s->v0 += s->v1;
  s->v2 += s->v3;
  s->v1 = grt_vm_sip_rotl(s->v1, 13) ^ s->v0;
  s->v3 = grt_vm_sip_rotl(s->v3, 16) ^ s->v2;
  s->v0 = grt_vm_sip_rotl(s->v0, 32);
  s->v2 += s->v1;
  s->v0 += s->v3;
  s->v1 = grt_vm_sip_rotl(s->v1, 17) ^ s->v2;
  s->v3 = grt_vm_sip_rotl(s->v3, 21) ^ s->v0;
  s->v2 = grt_vm_sip_rotl(s->v2, 32);
}

// Compression of one message word: c = 2 rounds.
static void grt_vm_sip_absorb(grt_vm_sip_state_t* s, uint64_t m) {
  s->v3 ^= m;
  grt_vm_sip_round(s);
  grt_vm_sip_round(s);
  s->v0 ^= m;
}

uint64_t grt_vm_siphash24(const uint8_t key[16], const void* data,
                          size_t length) {
  const uint64_t k0 = grt_vm_sip_load_le(key, 8);
  const uint64_t k1 = grt_vm_sip_load_le(key + 8, 8);
  // Initialization constants: "somepseudorandomlygeneratedbytes".
  grt_vm_sip_state_t s = {
      k0 ^ UINT64_C(0x736f6d6570736575),
      k1 ^ UINT64_C(0x646f72616e646f6d),
      k0 ^ UINT64_C(0x6c7967656e657261),
      k1 ^ UINT64_C(0x7465646279746573),
  };
  const uint8_t* bytes = data;
  const size_t whole = length - length % 8;
  for (size_t i = 0; i < whole; i += 8) {
    grt_vm_sip_absorb(&s, grt_vm_sip_load_le(bytes + i, 8));
  }
  // The last word: the 0-7 remaining bytes, the length mod 256 on top.
  uint64_t last = (uint64_t)(length & 0xFF) << 56;
  if (length > whole) last |= grt_vm_sip_load_le(bytes + whole, length - whole);
  grt_vm_sip_absorb(&s, last);
  // Finalization: d = 4 rounds.
  s.v2 ^= 0xFF;
  for (int i = 0; i < 4; ++i) grt_vm_sip_round(&s);
  return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}
