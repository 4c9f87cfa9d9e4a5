// libFuzzer target for the verifier/interpreter contract: the interpreter
// checks nothing the verifier proved (register ordinals, branch targets,
// operand counts) and does not clear the primitive registers of a new frame,
// so every function the verifier accepts must run without a fault, a leak,
// or a result that depends on what the stack memory held before.
//
// Input: byte 0 picks the calling convention from kCconvs, byte 1 the i32
// register count (mod 65), byte 2 the ref register count (mod 9); the rest
// is the bytecode of the one function "f" of a module with 16 global bytes,
// 2 ref globals, one 16-byte rodata segment and the f32/f64 extensions.
//
// Inputs the verifier rejects stop there. An accepted function without
// backward branches, calls or print/trace (so it ends, and keeps stderr
// quiet) runs twice, resumed at each (forward) vm.yield until it returns,
// each time in a fresh instance whose allocator fills every new block
// with a different byte (0x00, then 0xA5): the stack chunk the frame lands
// on starts as that byte, so a read of a register nothing
// wrote shows as a difference in the status, the results, or the argument
// buffer and list afterwards, and the target traps (a value that only
// reaches a global goes unseen). Sanitizers catch the rest (out-of-bounds,
// UB, leaks). The allocator also fails requests over 4 MiB, so programs'
// oversized list/buffer allocations take their error paths instead of
// tripping libFuzzer's malloc limit.
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/allocator.h"
#include "base/status.h"
#include "schemas/module_file.h"
#include "vm/buffer.h"
#include "vm/bytecode_module.h"
#include "vm/context.h"
#include "vm/features.h"
#include "vm/instance.h"
#include "vm/invoke.h"
#include "vm/list.h"
#include "vm/op_table.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static const char* const kCconvs[] = {
    "0_v",  "0i_i", "0I_I",  "0ii_i",  "0r_r",
    "0f_f", "0F_F", "0rr_i", "0irI_r", "0iIfFrr_iIfFr",
};
enum { kCconvCount = sizeof(kCconvs) / sizeof(kCconvs[0]) };
enum { kHeaderSize = 3, kBufferBytes = 32, kRunCount = 2 };

//===----------------------------------------------------------------------===//
// An allocator that fills fresh memory with a pattern byte (and is small)
//===----------------------------------------------------------------------===//

typedef struct pattern_allocator_t {
  grt_allocator_t base;
  uint8_t pattern;
} pattern_allocator_t;

// Programs may ask for any size (list.alloc, buffer.alloc); past this the
// allocator fails, as a real one would, and the VM reports it.
#define PATTERN_ALLOCATOR_MAX_BYTES (4u << 20)

static void* pattern_allocate(void* self, size_t size, size_t alignment) {
  pattern_allocator_t* a = (pattern_allocator_t*)self;
  if (size > PATTERN_ALLOCATOR_MAX_BYTES) return NULL;
  void* ptr = a->base.vtable->allocate(a->base.self, size, alignment);
  if (ptr) memset(ptr, a->pattern, size);
  return ptr;
}

static void* pattern_reallocate(void* self, void* ptr, size_t old_size,
                                size_t new_size, size_t alignment) {
  pattern_allocator_t* a = (pattern_allocator_t*)self;
  if (new_size > PATTERN_ALLOCATOR_MAX_BYTES) return NULL;
  uint8_t* grown = (uint8_t*)a->base.vtable->reallocate(
      a->base.self, ptr, old_size, new_size, alignment);
  if (grown && new_size > old_size) {
    memset(grown + old_size, a->pattern, new_size - old_size);
  }
  return grown;
}

static void pattern_free(void* self, void* ptr) {
  pattern_allocator_t* a = (pattern_allocator_t*)self;
  a->base.vtable->free(a->base.self, ptr);
}

static const grt_allocator_vtable_t kPatternVtable = {
    pattern_allocate, pattern_reallocate, pattern_free};

//===----------------------------------------------------------------------===//
// Which accepted functions are safe to run
//===----------------------------------------------------------------------===//

static uint16_t read_u16(const uint8_t* p) {
  return (uint16_t)(p[0] | (p[1] << 8));
}
static uint32_t read_u32(const uint8_t* p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
         ((uint32_t)p[3] << 24);
}

// Walks one B operand at |p| (verified bytecode); false if its target is
// not after |op_offset|. Returns the operand's end through |out_end|.
static bool branch_forward(const uint8_t* p, uint32_t op_offset,
                           const uint8_t** out_end) {
  uint32_t target = read_u32(p);
  uint16_t remaps = read_u16(p + 4);
  *out_end = p + 6 + 5u * remaps;
  return target > op_offset;
}

// True when |code| (accepted by the verifier) surely terminates and stays
// off stderr: every branch goes forward, and there is no call (recursion)
// and no print/trace.
static bool runnable(const uint8_t* code, size_t length) {
  size_t offset = 0;
  while (offset < length) {
    grt_vm_op_t op;
    size_t opcode_size = 0;
    if (!grt_vm_op_decode(code + offset, length - offset, &op, &opcode_size)) {
      return false;  // cannot happen after verification
    }
    switch (op) {
      case GRT_VM_OP_CALL:
      case GRT_VM_OP_CALL_VARIADIC:
      case GRT_VM_OP_CALL_YIELDABLE:
      case GRT_VM_OP_CALL_VARIADIC_YIELDABLE:
      case GRT_VM_OP_PRINT:
      case GRT_VM_OP_TRACE:
        return false;
      default:
        break;
    }
    // Step through the operands (encodings at the top of op_table.h) to
    // reach every B; the op's size comes from the table's own walker.
    const uint8_t* p = code + offset + opcode_size;
    for (const char* c = grt_vm_op_info(op)->operands; *c; ++c) {
      switch (*c) {
        case 'B':
          if (!branch_forward(p, (uint32_t)offset, &p)) return false;
          break;
        case 'T': {
          uint16_t count = read_u16(p);
          p += 2;
          for (uint16_t i = 0; i < count; ++i) {
            if (!branch_forward(p, (uint32_t)offset, &p)) return false;
          }
          break;
        }
        case 'i':
        case 'I':
        case 'f':
        case 'F':
        case 'r':
          p += 2;
          break;
        case 'k':
        case 'g':
        case 'd':
        case 'G':
        case 'R':
        case 'C':
        case 'M':
          p += 4;
          break;
        case 'K':
          p += 8;
          break;
        case 'L':
          p += 2 + 2u * read_u16(p);
          ++c;
          break;  // skip the type
        case 'A':
        case 'Y':
        case 'W':
        case 'V':
          p += 2 + 2u * read_u16(p);
          break;
        case 'X':
          p += 2 + 3u * read_u16(p);
          break;
        case 'S':
          p += 2 + read_u16(p);
          break;
        default:
          break;  // '>'
      }
    }
    if (p != code + offset + grt_vm_op_size_verified(code + offset)) {
      __builtin_trap();  // this walker and the op table disagree
    }
    offset += grt_vm_op_size_verified(code + offset);
  }
  return true;
}

//===----------------------------------------------------------------------===//
// One run
//===----------------------------------------------------------------------===//

// What a run leaves behind, compared across runs.
typedef struct run_outcome_t {
  bool ran;
  grt_status_code_t code;
  char message[512];
  size_t result_count;
  uint64_t results[8];  // primitive bits, or ref identity (see ref_id)
  uint8_t buffer[kBufferBytes];
  size_t list_size;
} run_outcome_t;

// A ref result named by what it is, not where it lives: 0 null, 1 the
// argument buffer, 2 the argument list, 3 some other buffer, 4 some other
// list, 5 anything else.
static uint64_t ref_id(const grt_vm_ref_t* ref, const grt_vm_buffer_t* buffer,
                       const grt_vm_list_t* list) {
  if (!ref->ptr) return 0;
  if (ref->ptr == buffer) return 1;
  if (ref->ptr == list) return 2;
  if (ref->type == grt_vm_buffer_type()) return 3;
  if (ref->type == grt_vm_list_type()) return 4;
  return 5;
}

// Loads |file_data| (verifying it) and, when |run| and it verifies, calls
// "f" once. Returns false when the module does not verify.
static bool load_and_run(const void* file_data, size_t file_size,
                         const char* cconv, bool run, uint8_t pattern,
                         run_outcome_t* out) {
  memset(out, 0, sizeof(*out));
  pattern_allocator_t pa = {grt_allocator_system(), pattern};
  grt_allocator_t allocator = {&kPatternVtable, &pa};
  grt_module_file_t* file = NULL;
  grt_vm_instance_t* instance = NULL;
  grt_vm_module_t* module = NULL;
  grt_vm_context_t* context = NULL;
  grt_vm_buffer_t* buffer = NULL;
  grt_vm_list_t* list = NULL;
  grt_vm_list_t* inputs = NULL;
  grt_vm_list_t* outputs = NULL;
  bool verified = false;

  if (!grt_status_consume_ok(grt_module_file_open_memory(
          grt_make_const_byte_span(file_data, file_size), allocator, &file))) {
    __builtin_trap();  // the writer's own output must open
  }
  if (!grt_status_consume_ok(grt_vm_instance_create(allocator, &instance))) {
    goto done;
  }
  grt_status_t status =
      grt_vm_bytecode_module_create(file, 16 * 1024, allocator, &module);
  if (!grt_status_is_ok(status)) {
    // Every rejection says why; GRT_BYTECODE_FUZZ_VERBOSE prints it (for
    // checking that the seeds in bytecode_fuzz_corpus/ verify).
    if (grt_status_message(status)[0] == 0) __builtin_trap();
    if (getenv("GRT_BYTECODE_FUZZ_VERBOSE")) {
      fprintf(stderr, "rejected: %s\n", grt_status_message(status));
    }
    grt_status_free(status);
    goto done;
  }
  verified = true;
  if (!run) goto done;
  if (!grt_status_consume_ok(
          grt_vm_context_create(instance, &module, 1, allocator, &context))) {
    goto done;
  }
  grt_vm_function_t function;
  if (!grt_status_consume_ok(grt_vm_module_lookup_function(
          module, grt_make_cstring_view("f"), &function))) {
    __builtin_trap();
  }

  // Arguments: fixed values; refs alternate buffer, list. The buffer holds
  // 0..31; the list holds variants i32 1, null, i32 3.
  if (!grt_status_consume_ok(grt_vm_buffer_create(
          GRT_VM_BUFFER_ACCESS_MUTABLE, kBufferBytes, 0, allocator, &buffer)) ||
      !grt_status_consume_ok(
          grt_vm_list_create(grt_vm_type_def_variant(), 4, allocator, &list)) ||
      !grt_status_consume_ok(grt_vm_list_create(grt_vm_type_def_variant(), 8,
                                                allocator, &inputs)) ||
      !grt_status_consume_ok(grt_vm_list_create(grt_vm_type_def_variant(), 8,
                                                allocator, &outputs))) {
    __builtin_trap();
  }
  {
    void* bytes = NULL;
    if (!grt_status_consume_ok(
            grt_vm_buffer_map_write(buffer, 0, kBufferBytes, &bytes))) {
      __builtin_trap();
    }
    for (int i = 0; i < kBufferBytes; ++i) ((uint8_t*)bytes)[i] = (uint8_t)i;
    grt_vm_variant_t items[3] = {grt_vm_variant_i32(1), grt_vm_variant_empty(),
                                 grt_vm_variant_i32(3)};
    for (int i = 0; i < 3; ++i) {
      if (!grt_status_consume_ok(grt_vm_list_push_variant(list, &items[i]))) {
        __builtin_trap();
      }
    }
  }
  int ref_index = 0;
  const char* c = cconv + 1;
  for (; *c && *c != '_'; ++c) {
    grt_vm_variant_t v = grt_vm_variant_empty();
    switch (*c) {
      case 'i':
        v = grt_vm_variant_i32(-7);
        break;
      case 'I':
        v = grt_vm_variant_i64(INT64_C(0x123456789));
        break;
      case 'f':
        v = grt_vm_variant_f32(1.5f);
        break;
      case 'F':
        v = grt_vm_variant_f64(-2.25);
        break;
      case 'r': {
        grt_vm_ref_t ref =
            (ref_index++ % 2 == 0)
                ? grt_vm_ref_wrap_retain(buffer, grt_vm_buffer_type())
                : grt_vm_ref_wrap_retain(list, grt_vm_list_type());
        v = grt_vm_variant_ref_move(&ref);
        break;
      }
      default:
        __builtin_trap();
    }
    grt_status_t push = grt_vm_list_push_variant(inputs, &v);
    grt_vm_variant_reset(&v);
    if (!grt_status_consume_ok(push)) __builtin_trap();
  }

  out->ran = true;
  bool verbose = getenv("GRT_BYTECODE_FUZZ_VERBOSE") != NULL;
  // Resumed at every yield (forward-only, so it ends): the suspended
  // frames and the resume path run under the sanitizers too.
  status = grt_vm_invoke_to_completion(context, &function, inputs, outputs,
                                       allocator, NULL);
  out->code = grt_status_code(status);
  if (!grt_status_is_ok(status)) {
    snprintf(out->message, sizeof(out->message), "%s",
             grt_status_message(status));
    grt_status_free(status);
  }
  if (verbose) {
    fprintf(stderr, "ran (fill 0x%02x): status %d %s\n", pattern,
            (int)out->code, out->message);
  }
  out->result_count = grt_vm_list_size(outputs);
  for (size_t i = 0; i < out->result_count && i < 8; ++i) {
    grt_vm_variant_t v = grt_vm_variant_empty();
    if (!grt_status_consume_ok(
            grt_vm_list_get_variant_assign(outputs, i, &v))) {
      __builtin_trap();
    }
    switch (v.type) {
      case GRT_VM_VALUE_TYPE_REF:
        out->results[i] = ref_id(&v.ref, buffer, list);
        break;
      case GRT_VM_VALUE_TYPE_I64:
      case GRT_VM_VALUE_TYPE_F64:
        memcpy(&out->results[i], &v.i64, sizeof(v.i64));
        break;
      default:  // i32, f32
        memcpy(&out->results[i], &v.i32, sizeof(v.i32));
        break;
    }
    grt_vm_variant_reset(&v);
  }
  {
    const void* bytes = NULL;
    if (!grt_status_consume_ok(
            grt_vm_buffer_map_read(buffer, 0, kBufferBytes, &bytes))) {
      __builtin_trap();
    }
    memcpy(out->buffer, bytes, kBufferBytes);
    out->list_size = grt_vm_list_size(list);
  }

done:
  if (outputs) grt_vm_list_release(outputs);
  if (inputs) grt_vm_list_release(inputs);
  if (list) grt_vm_list_release(list);
  if (buffer) grt_vm_buffer_release(buffer);
  if (context) grt_vm_context_release(context);
  if (module) grt_vm_module_release(module);
  if (instance) grt_vm_instance_release(instance);
  if (file) grt_module_file_release(file);
  return verified;
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

// Serializes the one-function module; false on a writer error.
static bool write_module(const uint8_t* code, size_t length, const char* cconv,
                         uint32_t i32_count, uint32_t ref_count,
                         void** out_data, size_t* out_size) {
  grt_allocator_t allocator = grt_allocator_system();
  grt_module_writer_t* writer = NULL;
  if (!grt_status_consume_ok(grt_module_writer_create(allocator, &writer))) {
    return false;
  }
  static const uint8_t kRodata[16] = {1, 2,  3,  4,  5,  6,  7,  8,
                                      9, 10, 11, 12, 13, 14, 15, 16};
  grt_module_function_t function = {grt_make_cstring_view("f"),
                                    grt_make_cstring_view(cconv),
                                    0,
                                    (uint32_t)length,
                                    i32_count,
                                    ref_count};
  grt_module_export_t export_def = {grt_make_cstring_view("f"), 0};
  grt_module_rodata_t rodata;
  memset(&rodata, 0, sizeof(rodata));
  rodata.data = grt_make_const_byte_span(kRodata, sizeof(kRodata));
  rodata.alignment = 16;
  uint32_t ordinal = 0;
  grt_module_writer_set_features(
      writer, GRT_VM_FEATURE_EXT_F32 | GRT_VM_FEATURE_EXT_F64);
  grt_module_writer_set_globals(writer, 16, 2);
  bool ok = grt_status_consume_ok(grt_module_writer_set_name(
                writer, grt_make_cstring_view("m"), 1)) &&
            grt_status_consume_ok(grt_module_writer_set_bytecode(
                writer, grt_make_const_byte_span(code, length))) &&
            grt_status_consume_ok(
                grt_module_writer_add_function(writer, &function, &ordinal)) &&
            grt_status_consume_ok(
                grt_module_writer_add_export(writer, &export_def)) &&
            grt_status_consume_ok(
                grt_module_writer_add_rodata(writer, &rodata, &ordinal)) &&
            grt_status_consume_ok(
                grt_module_writer_finish(writer, out_data, out_size));
  grt_module_writer_destroy(writer);
  return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size <= kHeaderSize) return 0;
  const char* cconv = kCconvs[data[0] % kCconvCount];
  uint32_t i32_count = data[1] % 65u;
  uint32_t ref_count = data[2] % 9u;
  const uint8_t* code = data + kHeaderSize;
  size_t length = size - kHeaderSize;

  void* file_data = NULL;
  size_t file_size = 0;
  if (!write_module(code, length, cconv, i32_count, ref_count, &file_data,
                    &file_size)) {
    return 0;
  }
  // The first load verifies; only an accepted, terminating function runs,
  // and then once per fill pattern.
  run_outcome_t outcomes[kRunCount];
  static const uint8_t kPatterns[kRunCount] = {0x00, 0xA5};
  bool verified = load_and_run(file_data, file_size, cconv, false, kPatterns[0],
                               &outcomes[0]);
  if (verified && runnable(code, length)) {
    for (int i = 0; i < kRunCount; ++i) {
      load_and_run(file_data, file_size, cconv, true, kPatterns[i],
                   &outcomes[i]);
    }
    if (outcomes[0].ran != outcomes[1].ran ||
        memcmp(&outcomes[0], &outcomes[1], sizeof(outcomes[0])) != 0) {
      // The result depends on memory nothing initialised.
      __builtin_trap();
    }
  }
  grt_allocator_free(grt_allocator_system(), file_data);
  return 0;
}
