// Checks SHA-256 against the FIPS 180-4 example vectors (NIST CSRC
// "SHA256.pdf", "SHA2_Additional.pdf") and that split updates agree with
// one-shot hashing at every split point.
#include "base/sha256.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static void digest_to_hex(const uint8_t digest[GRT_SHA256_DIGEST_SIZE],
                          char out_hex[2 * GRT_SHA256_DIGEST_SIZE + 1]) {
  for (int i = 0; i < GRT_SHA256_DIGEST_SIZE; ++i) {
    snprintf(out_hex + 2 * i, 3, "%02x", digest[i]);
  }
}

static void assert_sha256(const void* data, size_t size, const char* hex) {
  uint8_t digest[GRT_SHA256_DIGEST_SIZE];
  char actual[2 * GRT_SHA256_DIGEST_SIZE + 1];
  grt_sha256(data, size, digest);
  digest_to_hex(digest, actual);
  assert_string_equal(actual, hex);
}

static void test_empty(void** state) {
  (void)state;
  assert_sha256("", 0,
                "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

static void test_abc(void** state) {
  (void)state;
  assert_sha256("abc", 3,
                "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void test_448_bit_message(void** state) {
  (void)state;
  const char* message =
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  assert_int_equal(strlen(message) * 8, 448);
  assert_sha256(message, strlen(message),
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_896_bit_message(void** state) {
  (void)state;
  const char* message =
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnop"
      "jklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
  assert_sha256(message, strlen(message),
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void test_one_million_a_incrementally(void** state) {
  (void)state;
  // Fed in uneven chunks so partial-block staging is exercised too.
  char chunk[997];
  memset(chunk, 'a', sizeof(chunk));
  grt_sha256_t sha;
  grt_sha256_initialize(&sha);
  size_t remaining = 1000000;
  while (remaining > 0) {
    size_t take = remaining < sizeof(chunk) ? remaining : sizeof(chunk);
    grt_sha256_update(&sha, chunk, take);
    remaining -= take;
  }
  uint8_t digest[GRT_SHA256_DIGEST_SIZE];
  char hex[2 * GRT_SHA256_DIGEST_SIZE + 1];
  grt_sha256_finalize(&sha, digest);
  digest_to_hex(digest, hex);
  assert_string_equal(
      hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void test_every_split_point_matches_one_shot(void** state) {
  (void)state;
  // 130 bytes crosses two block boundaries and the 56-byte padding edge.
  uint8_t data[130];
  for (size_t i = 0; i < sizeof(data); ++i) data[i] = (uint8_t)(i * 31 + 7);
  for (size_t length = 0; length <= sizeof(data); ++length) {
    uint8_t expected[GRT_SHA256_DIGEST_SIZE];
    grt_sha256(data, length, expected);
    for (size_t split = 0; split <= length; ++split) {
      grt_sha256_t sha;
      uint8_t actual[GRT_SHA256_DIGEST_SIZE];
      grt_sha256_initialize(&sha);
      grt_sha256_update(&sha, data, split);
      grt_sha256_update(&sha, data + split, length - split);
      grt_sha256_finalize(&sha, actual);
      assert_memory_equal(actual, expected, sizeof(expected));
    }
  }
}

static void test_digest_equal(void** state) {
  (void)state;
  uint8_t a[GRT_SHA256_DIGEST_SIZE];
  grt_sha256("abc", 3, a);
  uint8_t b[GRT_SHA256_DIGEST_SIZE];
  memcpy(b, a, sizeof(b));
  assert_true(grt_sha256_digest_equal(a, b));
  // A difference in any one bit of any byte, first and last included.
  for (size_t i = 0; i < GRT_SHA256_DIGEST_SIZE; ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      b[i] ^= (uint8_t)(1u << bit);
      assert_false(grt_sha256_digest_equal(a, b));
      b[i] ^= (uint8_t)(1u << bit);
    }
  }
  assert_true(grt_sha256_digest_equal(a, b));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_empty),
      cmocka_unit_test(test_abc),
      cmocka_unit_test(test_448_bit_message),
      cmocka_unit_test(test_896_bit_message),
      cmocka_unit_test(test_one_million_a_incrementally),
      cmocka_unit_test(test_every_split_point_matches_one_shot),
      cmocka_unit_test(test_digest_equal),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
