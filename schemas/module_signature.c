// Signed modules (module_signature.h): key files, signing, verifying.
#include "schemas/module_signature.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/endian.h"
#include "base/file.h"
#include "base/sha256.h"

#if defined(GRT_HAVE_LIBSODIUM)
#include <sodium.h>
#endif

#define GRT_MODULE_SIGNATURE_CONTEXT "grt module signature v1"
// Key files are 40 bytes; reading stops a little after that, so a wrong
// file is still reported with its size when it is small, and a device or
// pipe is never read without bound.
#define GRT_MODULE_KEY_FILE_READ_LIMIT 4096

bool grt_module_signing_available(void) {
#if defined(GRT_HAVE_LIBSODIUM)
  return true;
#else
  return false;
#endif
}

#if defined(GRT_HAVE_LIBSODIUM)
static grt_status_t grt_module_sodium_init(void) {
  if (sodium_init() < 0) {
    return grt_make_status(GRT_STATUS_INTERNAL,
                           "libsodium failed to initialize (sodium_init)");
  }
  return grt_ok_status();
}
#else
static grt_status_t grt_module_signing_unavailable(const char* what) {
  return grt_make_status(
      GRT_STATUS_UNIMPLEMENTED,
      "cannot %s: this grt was built without module signing (Ed25519 needs "
      "libsodium: install libsodium-dev and configure with "
      "-DGRT_MODULE_SIGNING=ON)",
      what);
}
#endif

void grt_module_public_key_format(const grt_module_public_key_t* key,
                                  char out[GRT_MODULE_PUBLIC_KEY_HEX_SIZE]) {
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < GRT_MODULE_PUBLIC_KEY_SIZE; ++i) {
    out[2 * i] = digits[key->bytes[i] >> 4];
    out[2 * i + 1] = digits[key->bytes[i] & 15];
  }
  out[2 * GRT_MODULE_PUBLIC_KEY_SIZE] = '\0';
}

// Checks a key file's size and magic; |kind| is "public" or "secret".
static grt_status_t grt_module_key_file_check(grt_const_byte_span_t contents,
                                              const char* name,
                                              const char* magic,
                                              const char* kind,
                                              const char* other_magic) {
  if (contents.size != GRT_MODULE_KEY_FILE_SIZE) {
    return grt_make_status(
        GRT_STATUS_INVALID_ARGUMENT,
        "'%s' has %zu bytes, expected %d (a grt %s key file: '%s' and the "
        "32-byte key, as grt-sign keygen writes)",
        name, contents.size, GRT_MODULE_KEY_FILE_SIZE, kind, magic);
  }
  if (memcmp(contents.data, magic, GRT_MODULE_KEY_FILE_MAGIC_SIZE) == 0) {
    return grt_ok_status();
  }
  if (memcmp(contents.data, other_magic, GRT_MODULE_KEY_FILE_MAGIC_SIZE) == 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%s' is a grt %s key file (it starts with '%s'), "
                           "expected a %s key file (starting with '%s')",
                           name, strcmp(kind, "public") == 0 ? "secret" : "public",
                           other_magic, kind, magic);
  }
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "'%s' does not start with '%s': it is not a grt %s "
                         "key file",
                         name, magic, kind);
}

grt_status_t grt_module_public_key_parse(grt_const_byte_span_t contents,
                                         const char* name,
                                         grt_module_public_key_t* out_key) {
  memset(out_key, 0, sizeof(*out_key));
  GRT_RETURN_IF_ERROR(grt_module_key_file_check(
      contents, name, GRT_MODULE_PUBLIC_KEY_FILE_MAGIC, "public",
      GRT_MODULE_SECRET_KEY_FILE_MAGIC));
  memcpy(out_key->bytes, contents.data + GRT_MODULE_KEY_FILE_MAGIC_SIZE,
         GRT_MODULE_PUBLIC_KEY_SIZE);
  return grt_ok_status();
}

grt_status_t grt_module_secret_key_parse(grt_const_byte_span_t contents,
                                         const char* name,
                                         grt_module_secret_key_t* out_key) {
  memset(out_key, 0, sizeof(*out_key));
#if defined(GRT_HAVE_LIBSODIUM)
  GRT_RETURN_IF_ERROR(grt_module_key_file_check(
      contents, name, GRT_MODULE_SECRET_KEY_FILE_MAGIC, "secret",
      GRT_MODULE_PUBLIC_KEY_FILE_MAGIC));
  GRT_RETURN_IF_ERROR(grt_module_sodium_init());
  memcpy(out_key->seed, contents.data + GRT_MODULE_KEY_FILE_MAGIC_SIZE,
         GRT_MODULE_SECRET_SEED_SIZE);
  uint8_t secret[crypto_sign_SECRETKEYBYTES];
  crypto_sign_seed_keypair(out_key->public_key.bytes, secret, out_key->seed);
  sodium_memzero(secret, sizeof(secret));
  return grt_ok_status();
#else
  // Whatever the file holds: no key could sign here.
  (void)contents;
  (void)name;
  return grt_module_signing_unavailable("use a secret key");
#endif
}

// The two parsers, with the type of their key erased for
// grt_module_key_file_read.
typedef grt_status_t (*grt_module_key_parse_fn_t)(grt_const_byte_span_t contents,
                                                  const char* name,
                                                  void* out_key);

static grt_status_t grt_module_public_key_parse_any(
    grt_const_byte_span_t contents, const char* name, void* out_key) {
  return grt_module_public_key_parse(contents, name, out_key);
}

static grt_status_t grt_module_secret_key_parse_any(
    grt_const_byte_span_t contents, const char* name, void* out_key) {
  return grt_module_secret_key_parse(contents, name, out_key);
}

// Reads the key file |path| (bounded, so a device or a pipe is not read
// without end), parses it with |parse| and wipes the copy, which may have
// held a secret.
static grt_status_t grt_module_key_file_read(const char* path,
                                             grt_allocator_t allocator,
                                             grt_module_key_parse_fn_t parse,
                                             void* out_key) {
  grt_file_contents_t contents;
  grt_status_t status = grt_file_read_contents_bounded(
      path, GRT_MODULE_KEY_FILE_READ_LIMIT, allocator, &contents);
  if (grt_status_code(status) == GRT_STATUS_OUT_OF_RANGE) {
    status = grt_status_annotate(status, "a key file has %d bytes",
                                 GRT_MODULE_KEY_FILE_SIZE);
  }
  GRT_RETURN_IF_ERROR(status);
  status = parse(grt_make_const_byte_span(contents.data, contents.size), path,
                 out_key);
  memset((void*)contents.data, 0, contents.size);
  grt_file_contents_free(&contents);
  return status;
}

grt_status_t grt_module_public_key_read_file(const char* path,
                                             grt_allocator_t allocator,
                                             grt_module_public_key_t* out_key) {
  memset(out_key, 0, sizeof(*out_key));
  return grt_module_key_file_read(path, allocator,
                                  grt_module_public_key_parse_any, out_key);
}

grt_status_t grt_module_secret_key_read_file(const char* path,
                                             grt_allocator_t allocator,
                                             grt_module_secret_key_t* out_key) {
  memset(out_key, 0, sizeof(*out_key));
  return grt_module_key_file_read(path, allocator,
                                  grt_module_secret_key_parse_any, out_key);
}

grt_status_t grt_module_secret_key_generate(grt_module_secret_key_t* out_key) {
  memset(out_key, 0, sizeof(*out_key));
#if defined(GRT_HAVE_LIBSODIUM)
  GRT_RETURN_IF_ERROR(grt_module_sodium_init());
  randombytes_buf(out_key->seed, sizeof(out_key->seed));
  uint8_t secret[crypto_sign_SECRETKEYBYTES];
  crypto_sign_seed_keypair(out_key->public_key.bytes, secret, out_key->seed);
  sodium_memzero(secret, sizeof(secret));
  return grt_ok_status();
#else
  return grt_module_signing_unavailable("generate a key pair");
#endif
}

// Creates |path| (which must not exist) with |mode| and writes the magic
// and the key.
static grt_status_t grt_module_key_file_create(const char* path, mode_t mode,
                                               const char* magic,
                                               const uint8_t* key) {
  uint8_t contents[GRT_MODULE_KEY_FILE_SIZE];
  memcpy(contents, magic, GRT_MODULE_KEY_FILE_MAGIC_SIZE);
  memcpy(contents + GRT_MODULE_KEY_FILE_MAGIC_SIZE, key, 32);
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  grt_status_t status = grt_ok_status();
  if (fd < 0) {
    status = grt_make_status(
        errno == EEXIST ? GRT_STATUS_ALREADY_EXISTS : GRT_STATUS_UNAVAILABLE,
        "cannot create '%s': %s%s", path, strerror(errno),
        errno == EEXIST ? " (a key file is never overwritten)" : "");
  } else {
    size_t done = 0;
    while (grt_status_is_ok(status) && done < sizeof(contents)) {
      ssize_t n = write(fd, contents + done, sizeof(contents) - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        status = grt_make_status(GRT_STATUS_UNAVAILABLE, "cannot write '%s': %s",
                                 path, n < 0 ? strerror(errno) : "no progress");
      } else {
        done += (size_t)n;
      }
    }
    if (close(fd) != 0 && grt_status_is_ok(status)) {
      status = grt_make_status(GRT_STATUS_UNAVAILABLE, "cannot write '%s': %s",
                               path, strerror(errno));
    }
    if (!grt_status_is_ok(status)) unlink(path);
  }
  memset(contents, 0, sizeof(contents));
  return status;
}

grt_status_t grt_module_key_pair_write_files(
    const grt_module_secret_key_t* key, const char* secret_path,
    const char* public_path) {
  if (strcmp(secret_path, public_path) == 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "the secret and the public key files are both "
                           "'%s': expected two paths",
                           secret_path);
  }
  // Neither is written when the other exists.
  struct stat info;
  if (lstat(public_path, &info) == 0) {
    return grt_make_status(GRT_STATUS_ALREADY_EXISTS,
                           "cannot create '%s': it exists (a key file is "
                           "never overwritten)",
                           public_path);
  }
  GRT_RETURN_IF_ERROR(grt_module_key_file_create(
      secret_path, 0600, GRT_MODULE_SECRET_KEY_FILE_MAGIC, key->seed));
  grt_status_t status = grt_module_key_file_create(
      public_path, 0644, GRT_MODULE_PUBLIC_KEY_FILE_MAGIC,
      key->public_key.bytes);
  if (!grt_status_is_ok(status)) unlink(secret_path);
  return status;
}

void grt_module_signature_statement(
    uint64_t body_size, const uint8_t body_digest[GRT_MODULE_DIGEST_SIZE],
    uint8_t out[GRT_MODULE_SIGNATURE_STATEMENT_SIZE]) {
  memset(out, 0, 32);
  memcpy(out, GRT_MODULE_SIGNATURE_CONTEXT,
         sizeof(GRT_MODULE_SIGNATURE_CONTEXT) - 1);
  grt_store_le_u64(out + 32, body_size);
  memcpy(out + 40, body_digest, GRT_MODULE_DIGEST_SIZE);
}

grt_status_t grt_module_sign(grt_const_byte_span_t module,
                             const grt_module_secret_key_t* key, bool replace,
                             grt_allocator_t allocator, void** out_data,
                             size_t* out_size) {
  *out_data = NULL;
  *out_size = 0;
#if defined(GRT_HAVE_LIBSODIUM)
  GRT_RETURN_IF_ERROR(grt_module_sodium_init());
  // A private, 64-byte-aligned copy with room for the block: the module is
  // verified there, so what is signed is what was verified.
  uint8_t* data = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc_aligned(
      allocator, module.size + GRT_MODULE_SIGNATURE_BLOCK_SIZE,
      GRT_MODULE_SEGMENT_ALIGNMENT, (void**)&data));
  memcpy(data, module.data, module.size);
  grt_module_file_t* file = NULL;
  grt_status_t status = grt_module_file_open_memory(
      grt_make_const_byte_span(data, module.size), allocator, &file);
  size_t body_size = module.size;
  if (grt_status_is_ok(status)) {
    const grt_module_signature_t* old = grt_module_file_signature(file);
    if (old && !replace) {
      grt_module_public_key_t signer;
      memcpy(signer.bytes, old->public_key, sizeof(signer.bytes));
      char hex[GRT_MODULE_PUBLIC_KEY_HEX_SIZE];
      grt_module_public_key_format(&signer, hex);
      status = grt_make_status(
          GRT_STATUS_ALREADY_EXISTS,
          "the module is already signed (by key %s); replace the signature "
          "explicitly (grt-sign sign --replace) or sign the unsigned module",
          hex);
    } else if (old) {
      body_size = (size_t)old->body_size;
    }
  }
  if (file) grt_module_file_release(file);
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(allocator, data);
    return status;
  }
  uint8_t digest[GRT_SHA256_DIGEST_SIZE];
  grt_sha256(data, body_size, digest);
  uint8_t statement[GRT_MODULE_SIGNATURE_STATEMENT_SIZE];
  grt_module_signature_statement(body_size, digest, statement);
  uint8_t secret[crypto_sign_SECRETKEYBYTES];
  uint8_t public_key[crypto_sign_PUBLICKEYBYTES];
  crypto_sign_seed_keypair(public_key, secret, key->seed);
  uint8_t* block = data + body_size;
  memset(block, 0, GRT_MODULE_SIGNATURE_BLOCK_SIZE);
  const size_t magic_size = sizeof(GRT_MODULE_SIGNATURE_MAGIC) - 1;
  memcpy(block, GRT_MODULE_SIGNATURE_MAGIC, magic_size);
  grt_store_le_u32(block + 8, GRT_MODULE_SIGNATURE_ALGORITHM_ED25519);
  grt_store_le_u32(block + 12, GRT_MODULE_SIGNATURE_BLOCK_SIZE);
  grt_store_le_u64(block + 16, body_size);
  memcpy(block + 24, public_key, GRT_MODULE_PUBLIC_KEY_SIZE);
  crypto_sign_detached(block + 24 + GRT_MODULE_PUBLIC_KEY_SIZE, NULL,
                       statement, sizeof(statement), secret);
  sodium_memzero(secret, sizeof(secret));
  memcpy(block + GRT_MODULE_SIGNATURE_BLOCK_SIZE - magic_size,
         GRT_MODULE_SIGNATURE_MAGIC, magic_size);
  *out_data = data;
  *out_size = body_size + GRT_MODULE_SIGNATURE_BLOCK_SIZE;
  return grt_ok_status();
#else
  (void)module;
  (void)key;
  (void)replace;
  (void)allocator;
  return grt_module_signing_unavailable("sign a module");
#endif
}

grt_status_t grt_module_file_verify_signature(
    const grt_module_file_t* file, const grt_module_public_key_t* trusted,
    size_t trusted_count) {
  const grt_module_file_info_t* info = grt_module_file_info(file);
  const grt_module_signature_t* signature = grt_module_file_signature(file);
  if (!signature) {
    return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                           "module '%.*s' is not signed",
                           GRT_SV_ARG(info->name));
  }
  grt_module_public_key_t signer;
  memcpy(signer.bytes, signature->public_key, sizeof(signer.bytes));
  size_t index = 0;
  while (index < trusted_count &&
         memcmp(trusted[index].bytes, signer.bytes, sizeof(signer.bytes)) != 0) {
    ++index;
  }
  if (index == trusted_count) {
    char hex[GRT_MODULE_PUBLIC_KEY_HEX_SIZE];
    grt_module_public_key_format(&signer, hex);
    return grt_make_status(
        GRT_STATUS_PERMISSION_DENIED,
        "module '%.*s' is signed by key %s, which is not one of the %zu "
        "trusted key%s",
        GRT_SV_ARG(info->name), hex, trusted_count,
        trusted_count == 1 ? "" : "s");
  }
#if defined(GRT_HAVE_LIBSODIUM)
  GRT_RETURN_IF_ERROR(grt_module_sodium_init());
  uint8_t statement[GRT_MODULE_SIGNATURE_STATEMENT_SIZE];
  grt_module_signature_statement(signature->body_size, signature->body_digest,
                                 statement);
  if (crypto_sign_verify_detached(signature->signature, statement,
                                  sizeof(statement), signer.bytes) != 0) {
    char hex[GRT_MODULE_PUBLIC_KEY_HEX_SIZE];
    grt_module_public_key_format(&signer, hex);
    return grt_make_status(
        GRT_STATUS_PERMISSION_DENIED,
        "module '%.*s': the signature by key %s does not match the module's "
        "contents (the module was changed after it was signed, or the "
        "signature is corrupt)",
        GRT_SV_ARG(info->name), hex);
  }
  return grt_ok_status();
#else
  return grt_module_signing_unavailable("verify a module signature");
#endif
}
