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
//     value, -1 and INT_MIN/INT64_MIN.
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
#include "hal/transfer.h"
#include "runtime/session.h"
#include "schemas/module_file.h"
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

// Seconds a trial may take before it counts as a loop.
#define TRIAL_ALARM_SECONDS 3

typedef struct counts_t {
  int ran, refused, call_failed, looped, crashed;
} counts_t;

static const uint8_t* module_bytes;
static size_t module_size;

// In the child: load |bytes| and call main(x, w, b) twice (the second call
// replays the reusable command buffer). Never returns.
static void run_trial(const uint8_t* bytes, size_t size) {
  alarm(TRIAL_ALARM_SECONDS);
  grt_runtime_instance_t* instance = NULL;
  grt_hal_device_t* device = NULL;
  grt_runtime_session_t* session = NULL;
  if (!grt_status_is_ok(grt_runtime_instance_create(NULL, &instance)) ||
      !grt_status_is_ok(
          grt_runtime_instance_create_device(instance, "local-sync", NULL, &device)) ||
      !grt_status_is_ok(grt_runtime_session_create(instance, device, &session))) {
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
         c->call_failed, c->ran, c->looped, TRIAL_ALARM_SECONDS, c->crashed);
}

static grt_status_t discard(void* self, grt_string_view_t text) {
  (void)self;
  (void)text;
  return grt_ok_status();
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: runtime_tamper_suite_test TRACE.vmfb\n");
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
  for (size_t i = 0; i < info.bytecode.size; ++i) {
    for (int way = 0; way < 2; ++way) {
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

  free(copy);
  grt_module_file_release(file);
  free(aligned);
  if (constant_count == 0) {
    fprintf(stderr, "FAIL: no integer constants found: the suite tested nothing\n");
    return 1;
  }
  if (flips.crashed || constants.crashed) {
    fprintf(stderr, "FAIL: %d changed modules crashed the process\n",
            flips.crashed + constants.crashed);
    return 1;
  }
  printf("no crash\n");
  return 0;
}
