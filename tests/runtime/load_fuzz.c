// libFuzzer target for the whole load path of a module: any byte string
// handed to grt_runtime_session_append_module_from_memory is opened (the
// module file reader: FlatBuffer, segments, digests, signature block),
// checked against the session's signature rules, its executable prepared
// for the device (the CPU kernel objects through grt's ELF loader),
// verified (the bytecode verifier), appended to the session's context, and
// its initializer run. Whatever the bytes, that must end in OK or in an
// error with a message, with no fault, leak or UB under ASan/UBSan.
//
// A module whose kernel bytes change fails its SHA-256 digest when it
// opens, so mutated native code is never run (native code is trusted: see
// docs/architecture.md, "Security"); the bytecode, the FlatBuffer and the
// segments around it are what this target explores. The digest is compared
// with grt_sha256_digest_equal, not memcmp: with memcmp, libFuzzer's
// comparison tracing handed the fuzzer the digest of its changed kernel
// bytes, and after 65,000 inputs it wrote that digest into the module and
// ran changed native code (a re-hashed kernel, which only signatures can
// refuse: the tamper suite covers it under require_signed_native_code).
//
// Seed it with compiled modules (tests/runtime/CMakeLists.txt builds a
// corpus of the modules in that folder).
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/allocator.h"
#include "base/status.h"
#include "runtime/session.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

// One instance and device for the whole run (their creation is the same
// for every input); a session per input, so nothing a module leaves behind
// reaches the next.
static grt_runtime_instance_t* instance;
static grt_hal_device_t* device;

static void setup(void) {
  if (device) return;
  if (!grt_status_consume_ok(grt_runtime_instance_create(NULL, &instance)) ||
      !grt_status_consume_ok(grt_runtime_instance_create_device(
          instance, "local-sync", NULL, &device))) {
    __builtin_trap();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  setup();
  // An exact-size, 64-byte-aligned copy, as a mapped file would be, so a
  // read past the end is caught by ASan. The session borrows it, so it
  // outlives the session.
  grt_allocator_t allocator = grt_allocator_system();
  void* copy = NULL;
  if (!grt_status_consume_ok(
          grt_allocator_malloc_aligned(allocator, size, 64, &copy))) {
    return 0;
  }
  if (size) memcpy(copy, data, size);
  grt_runtime_session_t* session = NULL;
  if (!grt_status_consume_ok(grt_runtime_session_create(instance, device, &session))) {
    __builtin_trap();
  }
  grt_status_t status = grt_runtime_session_append_module_from_memory(
      session, grt_make_const_byte_span(copy, size));
  if (!grt_status_is_ok(status)) {
    // Every refusal says why.
    if (grt_status_message(status)[0] == 0) __builtin_trap();
    grt_status_free(status);
  }
  grt_runtime_session_release(session);
  grt_allocator_free(allocator, copy);
  return 0;
}
