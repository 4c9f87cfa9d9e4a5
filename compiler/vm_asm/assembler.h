// The vm dialect assembler: a vm.module, parsed from text (IREE's spelling,
// see vm_syntax.h) or built in memory (builder.h), to VM bytecode and the
// parts of a module file. It reads only the generic IR, never the text.
//
// Structure: vm.func -> functions (calling convention "0<args>_<results>"),
// vm.export [as("name")] -> exports, vm.import [optional] -> imports (a
// variadic argument `t ...` becomes a span "C<t>D"), vm.global.* -> byte
// offsets (4- or 8-byte aligned) or ref ordinals, vm.rodata and
// vm.rodata.inline -> rodata segments. Globals' constant initial values,
// then vm.initializer bodies and init(@f) globals (in declaration order) run
// from a synthesized export "__init", which the runtime calls when a context
// is created.
//
// Ops: every vm op whose name (without "vm.") is a row of vm/op_table.h
// maps to that row, its operand string saying where each SSA operand,
// result and attribute goes; the `.zero` constant forms use their row with
// an immediate 0. Hand-written lowering only for what the table cannot say:
// branches (block arguments become remap lists), calls, returns, switch
// (operand order), list.alloc (the element type), vm.check.* (a compare and
// a cond_fail with the message), util.optimization_barrier. Every op's
// source location (its loc("file":line:col), else where it was written) is
// recorded for backtraces; f32/f64 ops set the module's feature bits.
#ifndef GRT_COMPILER_VM_ASM_ASSEMBLER_H_
#define GRT_COMPILER_VM_ASM_ASSEMBLER_H_

#include "base/allocator.h"
#include "base/status.h"
#include "compiler/mlir/ir.h"
#include "schemas/module_file.h"

#ifdef __cplusplus
extern "C" {
#endif

// The first vm.module among |module|'s top-level ops or directly inside a
// top-level builtin.module; NULL when there is none.
grtc_operation_t* grtc_vm_find_module(const grtc_module_t* module);

// Assembles |vm_module| into |writer| (name, features, globals, bytecode,
// functions, imports, exports, rodata, debug locations). Diagnostics read
// "<file_name>:line:col: error: ...".
grt_status_t grtc_vm_assemble(grtc_operation_t* vm_module,
                              const char* file_name, grt_allocator_t allocator,
                              grt_module_writer_t* writer) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_VM_ASM_ASSEMBLER_H_
