// Pretty forms of IREE's vm dialect, so vm-dialect programs written for
// IREE (vm.module, vm.func, vm.add.i32 %a, %b : i32, vm.cond_br, ...) parse
// unchanged. Pass grtc_vm_dialect_syntax in grtc_parse_options_t.
//
// Most vm ops share one shape -- operands (with `%buf[%offset]` indexing,
// an optional @symbol and an optional literal), an optional attribute
// dictionary and an optional `: types [-> types]` -- so one table row per
// op family says which attributes the symbol and literal become and how
// the result type is found. Structural and control-flow ops have their own
// parsers.
#ifndef GRT_COMPILER_VM_ASM_VM_SYNTAX_H_
#define GRT_COMPILER_VM_ASM_VM_SYNTAX_H_

#include "compiler/mlir/parser.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const grtc_dialect_syntax_t grtc_vm_dialect_syntax;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_VM_ASM_VM_SYNTAX_H_
