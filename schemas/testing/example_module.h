// A module with every kind of field populated, for tests of the module file
// format (round trips, flatc cross-checks, corruption and fuzz seeds). The
// values are fixed so tests can check them; see example_module.c.
#ifndef GRT_SCHEMAS_TESTING_EXAMPLE_MODULE_H_
#define GRT_SCHEMAS_TESTING_EXAMPLE_MODULE_H_

#include <stddef.h>

#include "schemas/module_file.h"
#include "schemas/module_signature.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRT_EXAMPLE_MODULE_NAME "example_module"
#define GRT_EXAMPLE_MODULE_VERSION 7u
#define GRT_EXAMPLE_MODULE_FEATURES 0x8000000000000005ull
// Sizes of the two rodata segments: a small inline one, a large external one.
#define GRT_EXAMPLE_MODULE_INLINE_RODATA_SIZE 24u
#define GRT_EXAMPLE_MODULE_EXTERNAL_RODATA_SIZE 300u
// Entry point dispatch_0 (executable 0) records binding access {1, 1, 2}
// and these minimum lengths (4000, 4001, 4002 for bindings 0..2).
#define GRT_EXAMPLE_BINDING_MIN_LENGTH_0(b) (4000u + (unsigned)(b))

// Adds the example's parts to a fresh writer.
grt_status_t grt_example_module_populate(grt_module_writer_t* writer)
    GRT_MUST_USE;

// Serializes the example into an allocation from |allocator|.
grt_status_t grt_example_module_serialize(grt_allocator_t allocator,
                                          void** out_data, size_t* out_size)
    GRT_MUST_USE;

// The byte at |index| of the example's external rodata / executable binary
// |executable| (a fixed pattern, so tests can check contents).
unsigned char grt_example_module_external_byte(size_t index);
unsigned char grt_example_module_binary_byte(unsigned executable, size_t index);

// A fixed Ed25519 key for tests: the seed is 32 bytes of |fill| (needs
// libsodium, as every use of a secret key).
grt_status_t grt_example_signing_key(uint8_t fill,
                                     grt_module_secret_key_t* out_key)
    GRT_MUST_USE;

// Reads every value an opened module exposes (every byte of every span)
// and returns a checksum, so tests and fuzzers put each accessor's reads
// under the sanitizers, whatever module they opened.
unsigned grt_example_module_read_all(const grt_module_file_t* file);

#ifdef __cplusplus
}
#endif

#endif  // GRT_SCHEMAS_TESTING_EXAMPLE_MODULE_H_
