// libFuzzer target for the module file reader: any byte string must either
// open (and then read back through every accessor without fault) or fail
// with a message. Seed it with files from grt-compile or the example module
// (signed ones too: grt-sign sign).
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "schemas/module_file.h"
#include "schemas/module_signature.h"
#include "schemas/testing/example_module.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // An exact-size, 64-byte-aligned copy, as a mapped file would be, so any
  // read past the end is caught by ASan.
  grt_allocator_t allocator = grt_allocator_system();
  void* copy = NULL;
  if (!grt_status_consume_ok(
          grt_allocator_malloc_aligned(allocator, size, 64, &copy))) {
    return 0;
  }
  if (size) memcpy(copy, data, size);
  grt_module_file_t* file = NULL;
  grt_status_t status = grt_module_file_open_memory(
      grt_make_const_byte_span(copy, size), allocator, &file);
  if (grt_status_is_ok(status)) {
    volatile unsigned sink = grt_example_module_read_all(file);
    (void)sink;
    // A signed file (its last 8 bytes the signature magic): the block was
    // parsed and the body hashed; verify it against its own key, which must
    // give a status, whatever the bytes.
    const grt_module_signature_t* signature = grt_module_file_signature(file);
    if (signature) {
      grt_module_public_key_t key;
      memcpy(key.bytes, signature->public_key, sizeof(key.bytes));
      grt_status_free(grt_module_file_verify_signature(file, &key, 1));
    }
    grt_module_file_release(file);
  } else {
    if (grt_status_message(status)[0] == 0) __builtin_trap();
    grt_status_free(status);
  }
  grt_allocator_free(allocator, copy);
  return 0;
}
