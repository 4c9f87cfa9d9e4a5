// Bytecode disassembler: one function's bytecode as text, one op a line.
//
// Driven entirely by the op table's operand strings (vm/op_table.h): there
// is no per-op printing code, so a new op prints correctly the moment its
// table row exists. grt-dump, VM traces and tests use it.
//
// Output (docs/vm-isa.md, "Disassembly", describes it in full):
//
//   ^0x0000:
//     0x0001  %i2 = add.i32 %i0, %i1
//     0x0008  cond_br %i2, ^0x0010(%i0 -> %i4), ^0x0020
//     0x001c  %i6, %r1 = call @helper(%i4, %r0!)
//     0x0030  return %i6
//
// - A block marker prints as a label line "^0x<offset>:"; branches name
//   their targets the same way, with the remap list (block arguments) in
//   parentheses as "source -> destination".
// - Registers print by bank and type: %iN (i32 slot), %IN (i64 pair at
//   slots N, N+1), %fN, %FN, %rN (ref). A ref operand that carries the move
//   bit (its last use) prints with a trailing '!': %r2!. A register whose
//   type is unknown (a call list without the callee's signature) prints as
//   %?N with its raw 16-bit encoding.
// - Results come first, before '='. Call argument lists print in
//   parentheses after the callee, variadic span counts as <n, ...>.
// - Immediates print in decimal, or as floats when the op's result is f32
//   or f64 (const.f32/const.f64). Strings print quoted with C escapes.
// - Ordinals print as @name when |names| knows them, else @function#N,
//   @import#N, @global+BYTES, @global.ref#N, @rodata#N.
//
// Robust on unverified input: every read is bounds-checked against the
// span; on a malformed op it prints "<malformed: why>" on that op's line
// and returns INVALID_ARGUMENT naming the offset. It never reads outside
// |code|.
#ifndef GRT_VM_DISASSEMBLER_H_
#define GRT_VM_DISASSEMBLER_H_

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"
#include "schemas/module_file.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Text sinks
//===----------------------------------------------------------------------===//

// Where text goes: |append| is called with successive pieces of the output.
typedef struct grt_vm_text_sink_t {
  grt_status_t (*append)(void* self, grt_string_view_t text);
  void* self;
} grt_vm_text_sink_t;

// Writes to |file|; a short write fails with DATA_LOSS.
grt_vm_text_sink_t grt_vm_text_sink_file(FILE* file);

// A growable NUL-terminated string whose memory comes from |allocator|.
typedef struct grt_vm_string_builder_t {
  grt_allocator_t allocator;
  char* data;  // NULL until the first append
  size_t size;
  size_t capacity;
} grt_vm_string_builder_t;

void grt_vm_string_builder_initialize(grt_allocator_t allocator,
                                      grt_vm_string_builder_t* out_builder);
void grt_vm_string_builder_deinitialize(grt_vm_string_builder_t* builder);
grt_status_t grt_vm_string_builder_append(grt_vm_string_builder_t* builder,
                                          grt_string_view_t text) GRT_MUST_USE;
// The text so far ("" when nothing was appended).
const char* grt_vm_string_builder_cstring(
    const grt_vm_string_builder_t* builder);
grt_vm_text_sink_t grt_vm_string_builder_sink(grt_vm_string_builder_t* builder);

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

// Optional knowledge about the module the function comes from. Every member
// may be NULL/empty; the disassembler then prints plain ordinals and
// untyped call lists.
typedef struct grt_vm_disassembly_names_t {
  void* user_data;
  // A name for an ordinal operand of kind |kind|: 'C' internal function,
  // 'M' import (a C operand with the import bit arrives here as 'M' with the
  // bit cleared), 'g'/'d' primitive global byte offset, 'G' ref global,
  // 'R' rodata segment. Returns false when unknown.
  bool (*ordinal_name)(void* user_data, char kind, uint32_t ordinal,
                       grt_string_view_t* out_name);
  // The calling convention ("0iI_r") of callee |ordinal| of kind 'C' or 'M',
  // used to type call argument and result lists. Returns false when unknown.
  bool (*callee_calling_convention)(void* user_data, char kind,
                                    uint32_t ordinal,
                                    grt_string_view_t* out_calling_convention);
  // The disassembled function's own calling convention (types `return`).
  grt_string_view_t calling_convention;
} grt_vm_disassembly_names_t;

// Names from a module file: function and import names and calling
// conventions, and function |function_ordinal|'s own calling convention.
// |file| must outlive the names.
void grt_vm_disassembly_names_for_module_file(
    const grt_module_file_t* file, uint32_t function_ordinal,
    grt_vm_disassembly_names_t* out_names);

//===----------------------------------------------------------------------===//
// Disassembly
//===----------------------------------------------------------------------===//

// Prints the op at |offset| in |code| (one function's bytecode; offsets and
// branch targets are relative to its first byte) as one line, and stores
// the offset of the next op. |names| may be NULL.
grt_status_t grt_vm_disassemble_op(grt_const_byte_span_t code,
                                   uint32_t offset,
                                   const grt_vm_disassembly_names_t* names,
                                   grt_vm_text_sink_t sink,
                                   uint32_t* out_next_offset) GRT_MUST_USE;

// Prints every op of |code| (as from grt_module_file_function's
// bytecode_offset/length within info.bytecode), stopping at the first
// malformed op.
grt_status_t grt_vm_disassemble_function(
    grt_const_byte_span_t code, const grt_vm_disassembly_names_t* names,
    grt_vm_text_sink_t sink) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_DISASSEMBLER_H_
