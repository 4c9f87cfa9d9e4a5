// The tamper suite: a compiled module (tests/runtime/trace.mlir: two
// dispatches on real kernels, a reusable command buffer, buffers sized by
// constants in its host program) changed as an attacker would, every way
// in turn, then loaded and called. Whatever the change, the process must
// survive: the module is refused when it is appended, or the call fails
// with an error, or the call returns. In the sanitizer tree a stray read or
// write anywhere fails the trial (ASan/UBSan stop the child with their exit
// status).
//
// Each trial runs in a forked child, so a crash is seen (and named, with
// the change that caused it) instead of ending the suite, and a change
// that makes the program loop forever (a verified program may) is stopped
// by an alarm and counted apart. The changes:
//   - every byte of the bytecode blob, xor 0xFF and +1 (the bytecode has no
//     digest, so the file still opens: what stands between the change and
//     memory is the verifier and the checks at run time);
//   - every const.i32 / const.i64 immediate of every function (buffer
//     sizes, offsets, workgroup counts) set to 0, 1, 3, 4095, a large
//     value, -1 and INT_MIN/INT64_MIN;
//   - re-hashed kernels: every byte of the CPU kernel object's ELF header,
//     program header table and dynamic segment, xor 0xFF and +1, with the
//     executable's SHA-256 digest recomputed so the file opens: what
//     stands between the change and memory is grt's ELF loader (its
//     header, segment, relocation and symbol checks). The object's code
//     and data bytes are left alone: a changed instruction is native code
//     grt cannot check (docs/architecture.md, "Signed modules");
//   - the same re-hashed kernels in a signed module (a key made for the
//     run; needs libsodium, else skipped with a message), appended to a
//     session that trusts the key and requires signed native code: every
//     one must be refused at append, before its kernels are loaded, while
//     the signed original runs.
//
//   runtime_tamper_suite_test TRACE.vmfb
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/file.h"
#include "base/sha256.h"
#include "hal/transfer.h"
#include "runtime/session.h"
#include "schemas/module_file.h"
#include "schemas/module_signature.h"
#include "tests/runtime/test_support.h"
#include "vm/disassembler.h"
#include "vm/op_table.h"

// Exit statuses of a trial's child (1 is what ASan and UBSan exit with).
enum {
  TRIAL_RAN = 10,
  TRIAL_REFUSED = 11,   // append failed
  TRIAL_CALL_FAILED = 12,
  TRIAL_SETUP_FAILED = 13,
};

// Seconds a trial may take before it counts as a loop (--alarm=S).
static unsigned trial_alarm_seconds = 3;

typedef struct counts_t {
  int ran, refused, call_failed, looped, crashed;
} counts_t;

static const uint8_t* module_bytes;
static size_t module_size;

// When set, trials run in a session that trusts this key and requires
// signed native code.
static const grt_module_public_key_t* trusted_key;

// In the child: load |bytes| and call main(x, w, b) twice (the second call
// replays the reusable command buffer). Never returns.
static void run_trial(const uint8_t* bytes, size_t size) {
  alarm(trial_alarm_seconds);
  grt_runtime_instance_t* instance = NULL;
  grt_hal_device_t* device = NULL;
  grt_runtime_session_t* session = NULL;
  if (!grt_status_is_ok(grt_runtime_instance_create(NULL, &instance)) ||
      !grt_status_is_ok(
          grt_runtime_instance_create_device(instance, "local-sync", NULL, &device)) ||
      !grt_status_is_ok(grt_runtime_session_create(instance, device, &session))) {
    _exit(TRIAL_SETUP_FAILED);
  }
  if (trusted_key &&
      (!grt_status_is_ok(grt_runtime_session_add_trusted_key(session, trusted_key)) ||
       !grt_status_is_ok(
           grt_runtime_session_set_require_signed_native_code(session, true)))) {
    _exit(TRIAL_SETUP_FAILED);
  }
  grt_status_t status = grt_runtime_session_append_module_from_memory(
      session, grt_make_const_byte_span(bytes, size));
  if (!grt_status_is_ok(status)) {
    grt_status_free(status);
    _exit(TRIAL_REFUSED);
  }
  grt_hal_buffer_view_t* inputs[3] = {NULL, NULL, NULL};
  status = grt_runtime_test_filled_view(device, 256, 64, 1.0f, &inputs[0]);
  if (grt_status_is_ok(status)) {
    status = grt_runtime_test_filled_view(device, 64, 96, 0.5f, &inputs[1]);
  }
  if (grt_status_is_ok(status)) {
    status = grt_runtime_test_filled_view(device, 256, 96, -1.0f, &inputs[2]);
  }
  if (!grt_status_is_ok(status)) {
    grt_status_free(status);
    _exit(TRIAL_SETUP_FAILED);
  }
  int exit_status = TRIAL_RAN;
  for (int call = 0; call < 2 && exit_status == TRIAL_RAN; ++call) {
    grt_hal_buffer_view_t* outputs[2] = {NULL, NULL};
    size_t output_count = 0;
    status = grt_runtime_call_buffer_views(session, "main", 3, inputs, 2, outputs,
                                           &output_count);
    if (!grt_status_is_ok(status)) {
      grt_status_free(status);
      exit_status = TRIAL_CALL_FAILED;
    }
    for (size_t i = 0; i < 2; ++i) grt_hal_buffer_view_release(outputs[i]);
  }
  for (int i = 0; i < 3; ++i) grt_hal_buffer_view_release(inputs[i]);
  grt_runtime_session_release(session);
  grt_hal_device_release(device);
  grt_runtime_instance_release(instance);
  _exit(exit_status);
}

// Runs one changed copy in a child and counts the outcome; a crash is
// printed with |what|. Returns false only when fork/wait fail.
static bool trial(const uint8_t* bytes, size_t size, const char* what, counts_t* counts) {
  fflush(stdout);
  fflush(stderr);
  pid_t child = fork();
  if (child < 0) {
    perror("fork");
    return false;
  }
  if (child == 0) run_trial(bytes, size);
  int wstatus = 0;
  if (waitpid(child, &wstatus, 0) != child) {
    perror("waitpid");
    return false;
  }
  if (WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGALRM) {
    ++counts->looped;
    return true;
  }
  int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
  switch (code) {
    case TRIAL_RAN: ++counts->ran; return true;
    case TRIAL_REFUSED: ++counts->refused; return true;
    case TRIAL_CALL_FAILED: ++counts->call_failed; return true;
    default: break;
  }
  ++counts->crashed;
  if (WIFSIGNALED(wstatus)) {
    fprintf(stderr, "CRASH: %s: killed by signal %d\n", what, WTERMSIG(wstatus));
  } else {
    fprintf(stderr, "CRASH: %s: exit status %d (setup failure or sanitizer report)\n",
            what, code);
  }
  return true;
}

static void print_counts(const char* name, const counts_t* c) {
  printf("%s: %d trials: %d refused at load, %d calls failed, %d ran, %d looped "
         "(stopped after %d s), %d crashed\n",
         name, c->ran + c->refused + c->call_failed + c->looped + c->crashed, c->refused,
         c->call_failed, c->ran, c->looped, trial_alarm_seconds, c->crashed);
}

static grt_status_t discard(void* self, grt_string_view_t text) {
  (void)self;
  (void)text;
  return grt_ok_status();
}

// Where |needle| first occurs in |hay|, or SIZE_MAX.
static size_t find_bytes(const uint8_t* hay, size_t hay_size, const uint8_t* needle,
                         size_t needle_size) {
  if (needle_size == 0 || needle_size > hay_size) return SIZE_MAX;
  for (size_t i = 0; i + needle_size <= hay_size; ++i) {
    if (hay[i] == needle[0] && memcmp(hay + i, needle, needle_size) == 0) return i;
  }
  return SIZE_MAX;
}

static uint64_t read_le(const uint8_t* p, size_t width) {
  uint64_t v = 0;
  for (size_t b = width; b-- > 0;) v = v << 8 | p[b];
  return v;
}

// A byte range of a kernel object.
typedef struct range_t {
  size_t offset, size;
  const char* name;
} range_t;

enum { MAX_RANGES = 3 };

// The parts of a 64-bit little-endian ELF object grt's loader reads before
// any of its code runs: the ELF header, the program header table and the
// dynamic segment. Returns how many ranges it found (0: not such an
// object).
static int elf_structure(const uint8_t* elf, size_t size, range_t* ranges) {
  if (size < 64 || memcmp(elf, "\x7f" "ELF", 4) != 0 || elf[4] != 2 || elf[5] != 1) {
    return 0;
  }
  int count = 0;
  ranges[count++] = (range_t){0, 64, "ELF header"};
  uint64_t phoff = read_le(elf + 32, 8);
  uint64_t phentsize = read_le(elf + 54, 2), phnum = read_le(elf + 56, 2);
  if (phentsize < 56 || phoff > size || phnum * phentsize > size - phoff) return count;
  ranges[count++] = (range_t){(size_t)phoff, (size_t)(phnum * phentsize), "program header"};
  for (uint64_t i = 0; i < phnum; ++i) {
    const uint8_t* ph = elf + phoff + i * phentsize;
    uint64_t offset = read_le(ph + 8, 8), filesz = read_le(ph + 32, 8);
    if (read_le(ph, 4) == 2 /* PT_DYNAMIC */ && offset <= size && filesz <= size - offset) {
      ranges[count++] = (range_t){(size_t)offset, (size_t)filesz, "dynamic segment"};
      break;
    }
  }
  return count;
}

// Changes every byte of the structure of |module|'s first CPU kernel
// object (see elf_structure), two ways each, recomputes the executable's
// digest, and runs each copy as a trial (every |every|-th change only).
// Returns false on a setup failure (printed).
static bool rehash_trials(const uint8_t* module, size_t size, const uint8_t* binary,
                          size_t binary_size, const uint8_t* digest, uint8_t* copy,
                          size_t every, counts_t* counts) {
  size_t binary_at = find_bytes(module, size, binary, binary_size);
  size_t digest_at = find_bytes(module, size, digest, GRT_SHA256_DIGEST_SIZE);
  if (binary_at == SIZE_MAX || digest_at == SIZE_MAX) {
    fprintf(stderr, "FAIL: the kernel object or its digest is not in the module's bytes\n");
    return false;
  }
  range_t ranges[MAX_RANGES];
  int range_count = elf_structure(binary, binary_size, ranges);
  if (range_count < 3) {
    fprintf(stderr, "FAIL: the kernel object has no ELF header, program headers and "
                    "dynamic segment (found %d of the 3)\n", range_count);
    return false;
  }
  char what[160];
  size_t n = 0;
  for (int r = 0; r < range_count; ++r) {
    for (size_t i = 0; i < ranges[r].size; ++i) {
      for (int way = 0; way < 2; ++way) {
        if (n++ % every) continue;
        memcpy(copy, module, size);
        uint8_t* byte = &copy[binary_at + ranges[r].offset + i];
        *byte = way == 0 ? (uint8_t)(*byte ^ 0xFF) : (uint8_t)(*byte + 1);
        grt_sha256(copy + binary_at, binary_size, copy + digest_at);
        snprintf(what, sizeof(what), "re-hashed kernel: %s byte %zu (object byte %zu) %s",
                 ranges[r].name, i, ranges[r].offset + i, way == 0 ? "xor 0xFF" : "+1");
        if (!trial(copy, size, what, counts)) return false;
      }
    }
  }
  return true;
}

int main(int argc, char** argv) {
  // --every=N runs every N-th change of each kind only, and --alarm=S
  // gives each trial S seconds (the valgrind run, where a trial takes
  // seconds).
  size_t every = 1;
  for (int a = 2; a < argc; ++a) {
    bool is_every = strncmp(argv[a], "--every=", 8) == 0;
    bool is_alarm = strncmp(argv[a], "--alarm=", 8) == 0;
    char* end = NULL;
    unsigned long long n = (is_every || is_alarm) ? strtoull(argv[a] + 8, &end, 10) : 0;
    if (!is_every && !is_alarm) {
      fprintf(stderr, "usage: runtime_tamper_suite_test TRACE.vmfb [--every=N] "
                      "[--alarm=SECONDS]\n");
      return 2;
    }
    if (*end != 0 || n == 0 || n > 3600) {
      fprintf(stderr, "%.8s: expected a count from 1 to 3600, got '%s'\n", argv[a],
              argv[a] + 8);
      return 2;
    }
    if (is_every) {
      every = (size_t)n;
    } else {
      trial_alarm_seconds = (unsigned)n;
    }
  }
  if (argc < 2) {
    fprintf(stderr, "usage: runtime_tamper_suite_test TRACE.vmfb [--every=N] "
                    "[--alarm=SECONDS]\n");
    return 2;
  }
  grt_file_contents_t contents;
  grt_status_t status =
      grt_file_read_contents(argv[1], grt_allocator_system(), &contents);
  if (!grt_status_is_ok(status)) {
    fprintf(stderr, "cannot read %s: %s\n", argv[1], grt_status_message(status));
    return 1;
  }
  // Module files are opened from 64-byte-aligned memory (their segments
  // are aligned within the file).
  module_size = contents.size;
  size_t rounded = (module_size + 63) / 64 * 64;
  uint8_t* aligned = aligned_alloc(64, rounded);
  uint8_t* copy = aligned_alloc(64, rounded);
  if (!aligned || !copy) return 1;
  memcpy(aligned, contents.data, module_size);
  grt_file_contents_free(&contents);
  module_bytes = aligned;
  grt_module_file_t* file = NULL;
  status = grt_module_file_open_memory(grt_make_const_byte_span(module_bytes, module_size),
                                       grt_allocator_system(), &file);
  if (!grt_status_is_ok(status)) {
    fprintf(stderr, "%s does not open: %s\n", argv[1], grt_status_message(status));
    return 1;
  }
  const grt_module_file_info_t info = *grt_module_file_info(file);
  size_t code_start = (size_t)(info.bytecode.data - module_bytes);
  char what[160];

  // The unchanged module runs.
  counts_t baseline = {0};
  if (!trial(module_bytes, module_size, "the unchanged module", &baseline)) return 1;
  if (baseline.ran != 1) {
    fprintf(stderr, "FAIL: the unchanged module does not run\n");
    return 1;
  }

  // Every bytecode byte, two ways.
  counts_t flips = {0};
  size_t n = 0;
  for (size_t i = 0; i < info.bytecode.size; ++i) {
    for (int way = 0; way < 2; ++way) {
      if (n++ % every) continue;
      memcpy(copy, module_bytes, module_size);
      uint8_t* byte = &copy[code_start + i];
      *byte = way == 0 ? (uint8_t)(*byte ^ 0xFF) : (uint8_t)(*byte + 1);
      snprintf(what, sizeof(what), "bytecode byte %zu %s", i, way == 0 ? "xor 0xFF" : "+1");
      if (!trial(copy, module_size, what, &flips)) return 1;
    }
  }
  print_counts("bytecode bytes", &flips);

  // Every integer constant of every function, set to each edge value.
  static const int64_t values[] = {0, 1, 3, 4095, INT64_C(1) << 40, -1, INT64_MIN};
  uint8_t op_i32 = grt_vm_op_info(GRT_VM_OP_CONST_I32)->byte;
  uint8_t op_i64 = grt_vm_op_info(GRT_VM_OP_CONST_I64)->byte;
  grt_vm_text_sink_t sink = {discard, NULL};
  counts_t constants = {0};
  int constant_count = 0;
  for (uint32_t f = 0; f < info.function_count; ++f) {
    grt_module_function_t function = grt_module_file_function(file, f);
    grt_const_byte_span_t code = grt_make_const_byte_span(
        info.bytecode.data + function.bytecode_offset, function.bytecode_length);
    for (uint32_t offset = 0; offset < function.bytecode_length;) {
      uint32_t next = 0;
      status = grt_vm_disassemble_op(code, offset, NULL, sink, &next);
      if (!grt_status_is_ok(status)) {
        fprintf(stderr, "FAIL: function %u does not disassemble at %u: %s\n", f, offset,
                grt_status_message(status));
        return 1;
      }
      uint8_t op = code.data[offset];
      if (op == op_i32 || op == op_i64) {
        ++constant_count;
        size_t at = code_start + function.bytecode_offset + offset + 1;
        for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); ++v) {
          if (n++ % every) continue;
          memcpy(copy, module_bytes, module_size);
          uint64_t bits = (uint64_t)values[v];
          size_t width = op == op_i32 ? 4 : 8;
          for (size_t b = 0; b < width; ++b) copy[at + b] = (uint8_t)(bits >> (8 * b));
          snprintf(what, sizeof(what), "%.*s+%u: %s set to %lld", GRT_SV_ARG(function.name),
                   offset, op == op_i32 ? "const.i32" : "const.i64", (long long)values[v]);
          if (!trial(copy, module_size, what, &constants)) return 1;
        }
      }
      offset = next;
    }
  }
  print_counts("integer constants", &constants);
  printf("(%d constants in %u functions, %zu bytecode bytes)\n", constant_count,
         info.function_count, info.bytecode.size);

  // Re-hashed kernels: the module's CPU kernel object.
  grt_module_executable_t executable = {0};
  for (uint32_t e = 0; e < info.executable_count; ++e) {
    grt_module_executable_t candidate = grt_module_file_executable(file, e);
    if (grt_string_view_starts_with(candidate.format, grt_make_cstring_view("cpu-"))) {
      executable = candidate;
      break;
    }
  }
  if (!executable.binary.data) {
    fprintf(stderr, "FAIL: %s has no CPU kernel object to re-hash\n", argv[1]);
    return 1;
  }
  counts_t rehashed = {0};
  if (!rehash_trials(module_bytes, module_size, executable.binary.data,
                     executable.binary.size, executable.digest, copy, every, &rehashed)) {
    return 1;
  }
  print_counts("re-hashed kernels", &rehashed);

  // The same changes in a signed module, in a session that requires
  // signed native code: each is refused at append.
  counts_t signed_changes = {0};
  bool signed_ok = true;
  if (!grt_module_signing_available()) {
    printf("re-hashed kernels of a signed module: skipped (this build has no libsodium: "
           "GRT_MODULE_SIGNING)\n");
  } else {
    grt_module_secret_key_t key;
    void* signed_data = NULL;
    size_t signed_size = 0;
    status = grt_module_secret_key_generate(&key);
    if (grt_status_is_ok(status)) {
      status = grt_module_sign(grt_make_const_byte_span(module_bytes, module_size), &key,
                               false, grt_allocator_system(), &signed_data, &signed_size);
    }
    if (!grt_status_is_ok(status)) {
      fprintf(stderr, "FAIL: cannot sign the module: %s\n", grt_status_message(status));
      return 1;
    }
    uint8_t* signed_copy = aligned_alloc(64, (signed_size + 63) / 64 * 64);
    if (!signed_copy) return 1;
    trusted_key = &key.public_key;
    counts_t signed_baseline = {0};
    if (!trial(signed_data, signed_size, "the signed module", &signed_baseline)) return 1;
    if (signed_baseline.ran != 1) {
      fprintf(stderr, "FAIL: the signed module does not run under require_signed\n");
      return 1;
    }
    if (!rehash_trials(signed_data, signed_size, executable.binary.data,
                       executable.binary.size, executable.digest, signed_copy, every,
                       &signed_changes)) {
      return 1;
    }
    trusted_key = NULL;
    print_counts("re-hashed kernels of a signed module, signatures required",
                 &signed_changes);
    int total = signed_changes.ran + signed_changes.refused + signed_changes.call_failed +
                signed_changes.looped + signed_changes.crashed;
    if (signed_changes.refused != total || total == 0) {
      fprintf(stderr, "FAIL: %d of %d re-hashed kernels of a signed module were not "
                      "refused at append\n", total - signed_changes.refused, total);
      signed_ok = false;
    }
    free(signed_copy);
    grt_allocator_free(grt_allocator_system(), signed_data);
  }

  free(copy);
  grt_module_file_release(file);
  free(aligned);
  if (constant_count == 0) {
    fprintf(stderr, "FAIL: no integer constants found: the suite tested nothing\n");
    return 1;
  }
  int crashed = flips.crashed + constants.crashed + rehashed.crashed + signed_changes.crashed;
  if (crashed) {
    fprintf(stderr, "FAIL: %d changed modules crashed the process\n", crashed);
    return 1;
  }
  if (!signed_ok) return 1;
  printf("no crash\n");
  return 0;
}
