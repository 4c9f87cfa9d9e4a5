// Bytecode verifier: everything the interpreter trusts, checked once at load.
//
// The verifier walks each function once and rejects: unknown opcodes and
// prefixes, extension ops the module did not declare, operands running past
// the function, register ordinals outside the function's banks or in the
// wrong bank (i64/f64 pairs must be even and fully in range), the move bit
// on results, branch targets that are not block markers, blocks that do not
// end in a terminator, calls whose argument/result registers disagree with
// the callee's calling convention, global/rodata/import/function ordinals
// out of range, and reads of a primitive-bank slot that is not written on
// every path from the entry (a must-be-defined dataflow over the blocks,
// docs/vm-isa.md "Verification"). Every message reads
//   module 'm' function 'f' @ 0x1c: <what was expected, what was found>
// After a function passes, bytecode_dispatch.c executes it without checks.
#ifndef GRT_VM_BYTECODE_VERIFIER_H_
#define GRT_VM_BYTECODE_VERIFIER_H_

#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"
#include "schemas/module_file.h"
#include "vm/op_table.h"
#include "vm/signature.h"

#ifdef __cplusplus
extern "C" {
#endif

// What the verifier needs to know about a module; bytecode_module.c fills it
// from the module file, tests fill it by hand.
typedef struct grt_vm_bytecode_layout_t {
  grt_string_view_t module_name;
  uint64_t features;
  grt_const_byte_span_t bytecode;
  uint32_t function_count;
  const grt_module_function_t* functions;
  const grt_vm_signature_t* function_signatures;  // parsed, per function
  uint32_t import_count;
  const grt_vm_signature_t* import_signatures;  // parsed, per import
  uint32_t global_bytes;
  uint32_t global_ref_count;
  uint32_t rodata_count;
} grt_vm_bytecode_layout_t;

// Checks the module-wide parts: feature bits this runtime supports.
grt_status_t grt_vm_bytecode_verify_module(
    const grt_vm_bytecode_layout_t* layout) GRT_MUST_USE;

// Checks one function's descriptor and every op of its bytecode.
// |allocator| holds the verifier's scratch (freed before returning).
grt_status_t grt_vm_bytecode_verify_function(
    const grt_vm_bytecode_layout_t* layout, uint32_t function_ordinal,
    grt_allocator_t allocator) GRT_MUST_USE;

// Argument placement (grt_vm_bytecode_place_argument) is part of the ISA:
// vm/op_table.h.

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_BYTECODE_VERIFIER_H_
