// Signed modules: Ed25519 keys, signing a module file and verifying an
// opened one against trusted public keys (docs/module-format.md,
// "Signatures"; the threat model is in docs/architecture.md §10).
//
// A signed file is the unsigned module (the body) followed by a 128-byte
// block (schemas/module_file.h): the magic, the algorithm, the body's size,
// the signer's public key and an Ed25519 signature over the statement
//   "grt module signature v1" padded with zeros to 32 bytes
//   || body size (u64 little-endian) || SHA-256 of the body
// so the signature covers every byte of the body: header, bytecode,
// constants, weights and kernel binaries.
//
// Key files are binary and 40 bytes long: an 8-byte magic, then the key.
//   public key  "GRTEDPK1" + the 32-byte Ed25519 public key
//   secret key  "GRTEDSK1" + the 32-byte Ed25519 seed (the key pair is
//               derived from it)
//
// Ed25519 comes from libsodium. A grt built without it
// (GRT_MODULE_SIGNING=OFF, or AUTO without libsodium-dev) still reads
// signature blocks and key files, but signing, deriving a public key and
// verifying fail with UNIMPLEMENTED naming the build option
// (grt_module_signing_available says which build this is).
#ifndef GRT_SCHEMAS_MODULE_SIGNATURE_H_
#define GRT_SCHEMAS_MODULE_SIGNATURE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "schemas/module_file.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRT_MODULE_KEY_FILE_MAGIC_SIZE 8
#define GRT_MODULE_PUBLIC_KEY_FILE_MAGIC "GRTEDPK1"
#define GRT_MODULE_SECRET_KEY_FILE_MAGIC "GRTEDSK1"
#define GRT_MODULE_KEY_FILE_SIZE (GRT_MODULE_KEY_FILE_MAGIC_SIZE + 32)
#define GRT_MODULE_SECRET_SEED_SIZE 32
// What the signature is made over (see above).
#define GRT_MODULE_SIGNATURE_STATEMENT_SIZE (32 + 8 + GRT_MODULE_DIGEST_SIZE)
// 64 hex digits and a NUL: how tools print a public key (the key id).
#define GRT_MODULE_PUBLIC_KEY_HEX_SIZE (2 * GRT_MODULE_PUBLIC_KEY_SIZE + 1)

typedef struct grt_module_public_key_t {
  uint8_t bytes[GRT_MODULE_PUBLIC_KEY_SIZE];
} grt_module_public_key_t;

typedef struct grt_module_secret_key_t {
  uint8_t seed[GRT_MODULE_SECRET_SEED_SIZE];
  grt_module_public_key_t public_key;  // derived from |seed|
} grt_module_secret_key_t;

// True when this build has Ed25519 (libsodium).
bool grt_module_signing_available(void);

// The public key as 64 lowercase hex digits.
void grt_module_public_key_format(const grt_module_public_key_t* key,
                                  char out[GRT_MODULE_PUBLIC_KEY_HEX_SIZE]);

// Parses a key file's bytes; |name| (the path) is named in errors:
// "'k.pub' has 12 bytes, expected 40 (...)", or the wrong magic, which
// says when the file is the other kind of key.
grt_status_t grt_module_public_key_parse(grt_const_byte_span_t contents,
                                         const char* name,
                                         grt_module_public_key_t* out_key)
    GRT_MUST_USE;
// Also derives the public key; without libsodium it fails with UNIMPLEMENTED
// before looking at the contents (no key could sign in such a build).
grt_status_t grt_module_secret_key_parse(grt_const_byte_span_t contents,
                                         const char* name,
                                         grt_module_secret_key_t* out_key)
    GRT_MUST_USE;
// Reads and parses a key file (at most a few KiB are read, so a device or a
// pipe cannot exhaust memory). Errors name the path.
grt_status_t grt_module_public_key_read_file(const char* path,
                                             grt_allocator_t allocator,
                                             grt_module_public_key_t* out_key)
    GRT_MUST_USE;
grt_status_t grt_module_secret_key_read_file(const char* path,
                                             grt_allocator_t allocator,
                                             grt_module_secret_key_t* out_key)
    GRT_MUST_USE;

// A new key pair from the system's random source.
grt_status_t grt_module_secret_key_generate(grt_module_secret_key_t* out_key)
    GRT_MUST_USE;
// Writes the secret key file (mode 0600) and the public key file. Neither
// may exist yet: an existing path is refused with ALREADY_EXISTS naming it,
// so a key is never overwritten.
grt_status_t grt_module_key_pair_write_files(
    const grt_module_secret_key_t* key, const char* secret_path,
    const char* public_path) GRT_MUST_USE;

// The statement a signature is made over.
void grt_module_signature_statement(
    uint64_t body_size, const uint8_t body_digest[GRT_MODULE_DIGEST_SIZE],
    uint8_t out[GRT_MODULE_SIGNATURE_STATEMENT_SIZE]);

// Signs the module file |module| (which must open cleanly: it is verified
// first). A module that is already signed is refused with ALREADY_EXISTS
// naming its signer unless |replace|, which drops the old block and signs
// the body. The result (body + block) is one allocation from |allocator|,
// 64-byte aligned; the caller frees it.
grt_status_t grt_module_sign(grt_const_byte_span_t module,
                             const grt_module_secret_key_t* key, bool replace,
                             grt_allocator_t allocator, void** out_data,
                             size_t* out_size) GRT_MUST_USE;

// Checks |file|'s signature: the file must be signed (FAILED_PRECONDITION
// otherwise), by one of the |trusted_count| keys (PERMISSION_DENIED naming
// the signer otherwise), and the signature must hold for the body the
// reader read (PERMISSION_DENIED: "the signature does not match the
// module's contents ..."). UNIMPLEMENTED without libsodium.
grt_status_t grt_module_file_verify_signature(
    const grt_module_file_t* file, const grt_module_public_key_t* trusted,
    size_t trusted_count) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_SCHEMAS_MODULE_SIGNATURE_H_
