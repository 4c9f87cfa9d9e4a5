// Signed modules: signing the example module, opening and verifying it
// from memory and from a mapped file, and every error: unknown key, a
// changed byte of the body or of the signature, another module under an
// old signature, a malformed block, signing twice, key files of the wrong
// size or kind, missing key files, existing key paths. A build without
// libsodium checks that each operation says so instead.
#define _XOPEN_SOURCE 700  // mkdtemp
#include "schemas/module_signature.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/endian.h"
#include "base/file.h"
#include "base/sha256.h"
#include "base/status_matchers.h"
#include "schemas/testing/example_module.h"

typedef struct bytes_t {
  uint8_t* data;
  size_t size;
} bytes_t;

static bytes_t example_unsigned(void) {
  bytes_t bytes = {NULL, 0};
  GRT_EXPECT_OK(grt_example_module_serialize(
      grt_allocator_system(), (void**)&bytes.data, &bytes.size));
  return bytes;
}

static bytes_t example_signed(const grt_module_secret_key_t* key) {
  bytes_t plain = example_unsigned();
  bytes_t bytes = {NULL, 0};
  GRT_EXPECT_OK(grt_module_sign(grt_make_const_byte_span(plain.data, plain.size),
                                key, false, grt_allocator_system(),
                                (void**)&bytes.data, &bytes.size));
  grt_allocator_free(grt_allocator_system(), plain.data);
  return bytes;
}

static void free_bytes(bytes_t bytes) {
  grt_allocator_free(grt_allocator_system(), bytes.data);
}

// Opens |bytes| (which must open) and verifies it against |trusted|.
static grt_status_t open_and_verify(bytes_t bytes,
                                    const grt_module_public_key_t* trusted,
                                    size_t trusted_count) {
  grt_module_file_t* file = NULL;
  GRT_EXPECT_OK(grt_module_file_open_memory(
      grt_make_const_byte_span(bytes.data, bytes.size), grt_allocator_system(),
      &file));
  grt_status_t status =
      grt_module_file_verify_signature(file, trusted, trusted_count);
  grt_module_file_release(file);
  return status;
}

static grt_status_t open_bytes(bytes_t bytes) {
  grt_module_file_t* file = NULL;
  grt_status_t status = grt_module_file_open_memory(
      grt_make_const_byte_span(bytes.data, bytes.size), grt_allocator_system(),
      &file);
  if (file) grt_module_file_release(file);
  return status;
}

static grt_module_secret_key_t key_a, key_b;

static int setup(void** state) {
  (void)state;
  if (!grt_module_signing_available()) return 0;
  GRT_EXPECT_OK(grt_example_signing_key(1, &key_a));
  GRT_EXPECT_OK(grt_example_signing_key(2, &key_b));
  return 0;
}

static void test_sign_and_verify(void** state) {
  (void)state;
  bytes_t plain = example_unsigned();
  bytes_t signed_bytes = example_signed(&key_a);
  assert_int_equal(signed_bytes.size,
                   plain.size + GRT_MODULE_SIGNATURE_BLOCK_SIZE);
  assert_memory_equal(signed_bytes.data, plain.data, plain.size);

  grt_module_file_t* file = NULL;
  GRT_EXPECT_OK(grt_module_file_open_memory(
      grt_make_const_byte_span(signed_bytes.data, signed_bytes.size),
      grt_allocator_system(), &file));
  // Every accessor reads as from the unsigned file.
  grt_module_file_t* plain_file = NULL;
  GRT_EXPECT_OK(grt_module_file_open_memory(
      grt_make_const_byte_span(plain.data, plain.size), grt_allocator_system(),
      &plain_file));
  assert_int_equal(grt_example_module_read_all(file),
                   grt_example_module_read_all(plain_file));
  assert_null(grt_module_file_signature(plain_file));
  const grt_module_signature_t* signature = grt_module_file_signature(file);
  assert_non_null(signature);
  assert_int_equal(signature->body_size, plain.size);
  assert_memory_equal(signature->public_key, key_a.public_key.bytes,
                      GRT_MODULE_PUBLIC_KEY_SIZE);
  uint8_t digest[GRT_SHA256_DIGEST_SIZE];
  grt_sha256(plain.data, plain.size, digest);
  assert_memory_equal(signature->body_digest, digest, sizeof(digest));

  GRT_EXPECT_OK(grt_module_file_verify_signature(file, &key_a.public_key, 1));
  grt_module_public_key_t both[2] = {key_b.public_key, key_a.public_key};
  GRT_EXPECT_OK(grt_module_file_verify_signature(file, both, 2));
  grt_expect_error(grt_module_file_verify_signature(file, &key_b.public_key, 1),
                   GRT_STATUS_PERMISSION_DENIED,
                   "which is not one of the 1 trusted key");
  char hex[GRT_MODULE_PUBLIC_KEY_HEX_SIZE];
  grt_module_public_key_format(&key_a.public_key, hex);
  grt_expect_error(grt_module_file_verify_signature(file, NULL, 0),
                   GRT_STATUS_PERMISSION_DENIED, hex);
  grt_expect_error(
      grt_module_file_verify_signature(plain_file, &key_a.public_key, 1),
      GRT_STATUS_FAILED_PRECONDITION,
      "module 'example_module' is not signed");
  grt_module_file_release(plain_file);
  grt_module_file_release(file);
  free_bytes(signed_bytes);
  free_bytes(plain);
}

// Any changed byte of the body, and of the signature, fails verification
// (or, where the reader's own checks catch it first, opening).
static void test_changed_bytes_fail(void** state) {
  (void)state;
  bytes_t signed_bytes = example_signed(&key_a);
  size_t body = signed_bytes.size - GRT_MODULE_SIGNATURE_BLOCK_SIZE;
  size_t verified_fails = 0;
  for (size_t i = 0; i < body; ++i) {
    signed_bytes.data[i] ^= 0x01;
    grt_module_file_t* file = NULL;
    grt_status_t status = grt_module_file_open_memory(
        grt_make_const_byte_span(signed_bytes.data, signed_bytes.size),
        grt_allocator_system(), &file);
    if (grt_status_is_ok(status)) {
      grt_expect_error(
          grt_module_file_verify_signature(file, &key_a.public_key, 1),
          GRT_STATUS_PERMISSION_DENIED,
          "does not match the module's contents (the module was changed "
          "after it was signed, or the signature is corrupt)");
      grt_module_file_release(file);
      ++verified_fails;
    } else {
      grt_status_free(status);
    }
    signed_bytes.data[i] ^= 0x01;
  }
  // The external rodata, the padding and most of the FlatBuffer open fine.
  assert_true(verified_fails > GRT_EXAMPLE_MODULE_EXTERNAL_RODATA_SIZE);
  // The signature's 64 bytes.
  size_t signature_offset = body + 24 + GRT_MODULE_PUBLIC_KEY_SIZE;
  for (size_t i = 0; i < GRT_MODULE_SIGNATURE_SIZE; ++i) {
    signed_bytes.data[signature_offset + i] ^= 0x80;
    grt_expect_error(open_and_verify(signed_bytes, &key_a.public_key, 1),
                     GRT_STATUS_PERMISSION_DENIED, "does not match");
    signed_bytes.data[signature_offset + i] ^= 0x80;
  }
  // The signer's key: then it is another (untrusted) key.
  signed_bytes.data[body + 24] ^= 0x01;
  grt_expect_error(open_and_verify(signed_bytes, &key_a.public_key, 1),
                   GRT_STATUS_PERMISSION_DENIED, "not one of the 1 trusted");
  signed_bytes.data[body + 24] ^= 0x01;
  GRT_EXPECT_OK(open_and_verify(signed_bytes, &key_a.public_key, 1));
  free_bytes(signed_bytes);
}

// Another module under a good module's block (a tampered module whose
// executable digests were recomputed looks like this): refused.
static void test_other_module_under_old_signature(void** state) {
  (void)state;
  bytes_t signed_bytes = example_signed(&key_a);
  grt_module_writer_t* writer = NULL;
  GRT_EXPECT_OK(grt_module_writer_create(grt_allocator_system(), &writer));
  GRT_EXPECT_OK(grt_example_module_populate(writer));
  GRT_EXPECT_OK(grt_module_writer_set_name(
      writer, grt_make_cstring_view(GRT_EXAMPLE_MODULE_NAME), 8));
  bytes_t other = {NULL, 0};
  GRT_EXPECT_OK(
      grt_module_writer_finish(writer, (void**)&other.data, &other.size));
  grt_module_writer_destroy(writer);
  size_t body = signed_bytes.size - GRT_MODULE_SIGNATURE_BLOCK_SIZE;
  assert_int_equal(other.size, body);  // only the version differs
  memcpy(signed_bytes.data, other.data, body);
  grt_expect_error(open_and_verify(signed_bytes, &key_a.public_key, 1),
                   GRT_STATUS_PERMISSION_DENIED, "does not match");
  free_bytes(other);
  free_bytes(signed_bytes);
}

static void test_malformed_block(void** state) {
  (void)state;
  bytes_t signed_bytes = example_signed(&key_a);
  size_t body = signed_bytes.size - GRT_MODULE_SIGNATURE_BLOCK_SIZE;
  uint8_t* block = signed_bytes.data + body;
  char expected[256];

  block[0] = 'X';
  snprintf(expected, sizeof(expected),
           "the file ends with the signature magic 'GRTSIGv1' but the "
           "signature block at offset %zu does not start with it",
           body);
  grt_expect_error(open_bytes(signed_bytes), GRT_STATUS_INVALID_ARGUMENT,
                   expected);
  block[0] = 'G';

  grt_store_le_u32(block + 8, 2);
  snprintf(expected, sizeof(expected),
           "signature block at offset %zu: algorithm 2, expected 1 (Ed25519",
           body);
  grt_expect_error(open_bytes(signed_bytes), GRT_STATUS_INVALID_ARGUMENT,
                   expected);
  grt_store_le_u32(block + 8, 1);

  grt_store_le_u32(block + 12, 64);
  snprintf(expected, sizeof(expected),
           "signature block at offset %zu: size 64, expected 128", body);
  grt_expect_error(open_bytes(signed_bytes), GRT_STATUS_INVALID_ARGUMENT,
                   expected);
  grt_store_le_u32(block + 12, 128);

  grt_store_le_u64(block + 16, body - 64);
  snprintf(expected, sizeof(expected),
           "records a body of %zu bytes, expected %zu (the bytes before the "
           "block)",
           body - 64, body);
  grt_expect_error(open_bytes(signed_bytes), GRT_STATUS_INVALID_ARGUMENT,
                   expected);
  grt_store_le_u64(block + 16, body);
  GRT_EXPECT_OK(open_bytes(signed_bytes));

  // A truncated signed file has no block at its end: its last bytes are
  // the signature's, so it reads as an unsigned file that lost its tail
  // (here, still a valid module) and is refused where signatures count.
  bytes_t truncated = {signed_bytes.data, signed_bytes.size - 8};
  grt_expect_error(open_and_verify(truncated, &key_a.public_key, 1),
                   GRT_STATUS_FAILED_PRECONDITION, "is not signed");
  free_bytes(signed_bytes);
}

static void test_sign_twice(void** state) {
  (void)state;
  bytes_t signed_bytes = example_signed(&key_a);
  char hex[GRT_MODULE_PUBLIC_KEY_HEX_SIZE];
  grt_module_public_key_format(&key_a.public_key, hex);
  char expected[256];
  snprintf(expected, sizeof(expected),
           "the module is already signed (by key %s); replace the signature "
           "explicitly (grt-sign sign --replace)",
           hex);
  bytes_t again = {NULL, 0};
  grt_expect_error(
      grt_module_sign(grt_make_const_byte_span(signed_bytes.data,
                                               signed_bytes.size),
                      &key_b, false, grt_allocator_system(),
                      (void**)&again.data, &again.size),
      GRT_STATUS_ALREADY_EXISTS, expected);
  assert_null(again.data);
  // Replacing signs the body afresh: one block, the new signer.
  GRT_EXPECT_OK(grt_module_sign(
      grt_make_const_byte_span(signed_bytes.data, signed_bytes.size), &key_b,
      true, grt_allocator_system(), (void**)&again.data, &again.size));
  assert_int_equal(again.size, signed_bytes.size);
  GRT_EXPECT_OK(open_and_verify(again, &key_b.public_key, 1));
  grt_expect_error(open_and_verify(again, &key_a.public_key, 1),
                   GRT_STATUS_PERMISSION_DENIED, "not one of");
  free_bytes(again);
  free_bytes(signed_bytes);
}

// What is signed must be a module that opens.
static void test_sign_refuses_invalid_module(void** state) {
  (void)state;
  bytes_t plain = example_unsigned();
  plain.data[8] = 'X';  // the file identifier "GRTM"
  void* data = NULL;
  size_t size = 0;
  grt_status_t status = grt_module_sign(
      grt_make_const_byte_span(plain.data, plain.size), &key_a, false,
      grt_allocator_system(), &data, &size);
  assert_non_null(status);
  assert_int_equal(grt_status_code(status), GRT_STATUS_INVALID_ARGUMENT);
  grt_status_free(status);
  assert_null(data);
  free_bytes(plain);
}

static char scratch[] = "/tmp/grt_signature_test_XXXXXX";

static void scratch_path(const char* name, char* out, size_t capacity) {
  snprintf(out, capacity, "%s/%s", scratch, name);
}

// A mapped file (copy_limit 0) is hashed over what the reader read.
static void test_mapped_file(void** state) {
  (void)state;
  bytes_t signed_bytes = example_signed(&key_a);
  char path[256];
  scratch_path("mapped.vmfb", path, sizeof(path));
  GRT_EXPECT_OK(
      grt_file_write_contents(path, signed_bytes.data, signed_bytes.size));
  grt_module_file_open_options_t options = {0};
  grt_module_file_t* file = NULL;
  GRT_EXPECT_OK(grt_module_file_open_path_with_options(
      path, &options, grt_allocator_system(), &file));
  assert_true(grt_module_file_is_mapped(file));
  GRT_EXPECT_OK(grt_module_file_verify_signature(file, &key_a.public_key, 1));
  grt_module_file_release(file);
  // A byte of the external rodata (weights: nothing but the signature
  // covers them) changed.
  GRT_EXPECT_OK(grt_module_file_open_memory(
      grt_make_const_byte_span(signed_bytes.data, signed_bytes.size),
      grt_allocator_system(), &file));
  size_t weight = 0;
  for (uint32_t i = 0; i < grt_module_file_info(file)->rodata_count; ++i) {
    grt_module_rodata_t rodata = grt_module_file_rodata(file, i);
    if (rodata.external) weight = (size_t)(rodata.data.data - signed_bytes.data);
  }
  grt_module_file_release(file);
  assert_true(weight > 0);
  signed_bytes.data[weight] ^= 0x10;
  GRT_EXPECT_OK(
      grt_file_write_contents(path, signed_bytes.data, signed_bytes.size));
  GRT_EXPECT_OK(grt_module_file_open_path_with_options(
      path, &options, grt_allocator_system(), &file));
  assert_true(grt_module_file_is_mapped(file));
  grt_expect_error(grt_module_file_verify_signature(file, &key_a.public_key, 1),
                   GRT_STATUS_PERMISSION_DENIED, "does not match");
  grt_module_file_release(file);
  unlink(path);
  free_bytes(signed_bytes);
}

static void write_raw(const char* path, const void* data, size_t size) {
  GRT_EXPECT_OK(grt_file_write_contents(path, data, size));
}

static void test_key_files(void** state) {
  (void)state;
  char secret_path[256], public_path[256], other[256];
  scratch_path("k.sec", secret_path, sizeof(secret_path));
  scratch_path("k.pub", public_path, sizeof(public_path));
  grt_module_secret_key_t generated;
  GRT_EXPECT_OK(grt_module_secret_key_generate(&generated));
  GRT_EXPECT_OK(
      grt_module_key_pair_write_files(&generated, secret_path, public_path));
  struct stat info;
  assert_int_equal(stat(secret_path, &info), 0);
  assert_int_equal(info.st_mode & 0777, 0600);
  assert_int_equal(info.st_size, GRT_MODULE_KEY_FILE_SIZE);
  grt_module_secret_key_t secret;
  grt_module_public_key_t public_key;
  GRT_EXPECT_OK(grt_module_secret_key_read_file(
      secret_path, grt_allocator_system(), &secret));
  GRT_EXPECT_OK(grt_module_public_key_read_file(
      public_path, grt_allocator_system(), &public_key));
  assert_memory_equal(secret.seed, generated.seed, sizeof(secret.seed));
  assert_memory_equal(public_key.bytes, generated.public_key.bytes,
                      sizeof(public_key.bytes));
  assert_memory_equal(secret.public_key.bytes, public_key.bytes,
                      sizeof(public_key.bytes));

  // Never overwritten: either path existing refuses both, and nothing is
  // written.
  scratch_path("new.sec", other, sizeof(other));
  grt_expect_error(
      grt_module_key_pair_write_files(&generated, secret_path, other),
      GRT_STATUS_ALREADY_EXISTS, "(a key file is never overwritten)");
  assert_int_not_equal(access(other, F_OK), 0);
  grt_expect_error(
      grt_module_key_pair_write_files(&generated, other, public_path),
      GRT_STATUS_ALREADY_EXISTS, "it exists (a key file is never overwritten)");
  assert_int_not_equal(access(other, F_OK), 0);
  grt_expect_error(grt_module_key_pair_write_files(&generated, other, other),
                   GRT_STATUS_INVALID_ARGUMENT, "expected two paths");

  // The other kind of key.
  char expected[512];
  snprintf(expected, sizeof(expected),
           "'%s' is a grt secret key file (it starts with 'GRTEDSK1'), "
           "expected a public key file (starting with 'GRTEDPK1')",
           secret_path);
  grt_expect_error(grt_module_public_key_read_file(
                       secret_path, grt_allocator_system(), &public_key),
                   GRT_STATUS_INVALID_ARGUMENT, expected);
  snprintf(expected, sizeof(expected),
           "'%s' is a grt public key file (it starts with 'GRTEDPK1'), "
           "expected a secret key file (starting with 'GRTEDSK1')",
           public_path);
  grt_expect_error(grt_module_secret_key_read_file(
                       public_path, grt_allocator_system(), &secret),
                   GRT_STATUS_INVALID_ARGUMENT, expected);

  // Wrong sizes, wrong magic, missing, a device.
  scratch_path("short.pub", other, sizeof(other));
  write_raw(other, "GRTEDPK1abc", 11);
  snprintf(expected, sizeof(expected),
           "'%s' has 11 bytes, expected 40 (a grt public key file: 'GRTEDPK1' "
           "and the 32-byte key, as grt-sign keygen writes)",
           other);
  grt_expect_error(grt_module_public_key_read_file(
                       other, grt_allocator_system(), &public_key),
                   GRT_STATUS_INVALID_ARGUMENT, expected);
  uint8_t long_key[41];
  memset(long_key, 'a', sizeof(long_key));
  write_raw(other, long_key, sizeof(long_key));
  grt_expect_error(grt_module_secret_key_read_file(
                       other, grt_allocator_system(), &secret),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "has 41 bytes, expected 40 (a grt secret key file");
  write_raw(other, long_key, 40);
  snprintf(expected, sizeof(expected),
           "'%s' does not start with 'GRTEDPK1': it is not a grt public key "
           "file",
           other);
  grt_expect_error(grt_module_public_key_read_file(
                       other, grt_allocator_system(), &public_key),
                   GRT_STATUS_INVALID_ARGUMENT, expected);
  scratch_path("missing.pub", other, sizeof(other));
  grt_status_t status = grt_module_public_key_read_file(
      other, grt_allocator_system(), &public_key);
  assert_non_null(status);
  assert_non_null(strstr(grt_status_message(status), other));
  assert_non_null(strstr(grt_status_message(status), "No such file"));
  grt_status_free(status);
  grt_expect_error(grt_module_public_key_read_file(
                       "/dev/zero", grt_allocator_system(), &public_key),
                   GRT_STATUS_OUT_OF_RANGE, "a key file has 40 bytes");

  unlink(secret_path);
  unlink(public_path);
  scratch_path("short.pub", other, sizeof(other));
  unlink(other);
}

// Without libsodium: signing, verifying and reading a secret key say so.
static void test_unavailable(void** state) {
  (void)state;
  const char* expected =
      "this grt was built without module signing (Ed25519 needs libsodium";
  grt_module_secret_key_t key;
  grt_expect_error(grt_module_secret_key_generate(&key),
                   GRT_STATUS_UNIMPLEMENTED, expected);
  uint8_t contents[GRT_MODULE_KEY_FILE_SIZE] = "GRTEDSK1";
  grt_expect_error(
      grt_module_secret_key_parse(
          grt_make_const_byte_span(contents, sizeof(contents)), "k", &key),
      GRT_STATUS_UNIMPLEMENTED, expected);
  // Before looking at the file (grt-compile --sign-key says why first).
  grt_expect_error(grt_module_secret_key_read_file(
                       "/dev/null", grt_allocator_system(), &key),
                   GRT_STATUS_UNIMPLEMENTED, expected);
  memset(&key, 0, sizeof(key));
  bytes_t plain = example_unsigned();
  void* data = NULL;
  size_t size = 0;
  grt_expect_error(
      grt_module_sign(grt_make_const_byte_span(plain.data, plain.size), &key,
                      false, grt_allocator_system(), &data, &size),
      GRT_STATUS_UNIMPLEMENTED, expected);
  free_bytes(plain);
}

int main(void) {
  if (!mkdtemp(scratch)) {
    perror("mkdtemp");
    return 1;
  }
  int failures = 0;
  if (grt_module_signing_available()) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sign_and_verify),
        cmocka_unit_test(test_changed_bytes_fail),
        cmocka_unit_test(test_other_module_under_old_signature),
        cmocka_unit_test(test_malformed_block),
        cmocka_unit_test(test_sign_twice),
        cmocka_unit_test(test_sign_refuses_invalid_module),
        cmocka_unit_test(test_mapped_file),
        cmocka_unit_test(test_key_files),
    };
    failures = cmocka_run_group_tests(tests, setup, NULL);
  } else {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unavailable),
    };
    failures = cmocka_run_group_tests(tests, NULL, NULL);
  }
  rmdir(scratch);
  return failures;
}
