// Prints a vm.module (built with builder.h, or parsed) in the vm dialect's
// pretty syntax, the one vm_syntax.h parses: what --dump-after=host shows,
// and text grt-compile takes back as vm input.
//
// Parsing the output with the vm syntax gives back the same IR (op names,
// attributes, types, successors, block arguments, locations), so both
// assemble to the same bytes; vm_printer_test.c checks that on built
// programs and the host program. Ops with a pretty form print in it
// (vm.func, vm.import, vm.call, vm.br, `%c = vm.const.i32 1 : i32`, ...);
// attributes a pretty form has no place for go in its attribute
// dictionary; any other op prints in the generic form.
//
// Values print with the name the builder gave them (%device) when it is
// free in the function, else as %<n>; blocks as ^bb<index in the region>.
// Every op's location prints as loc("file":line:col).
#ifndef GRT_COMPILER_VM_ASM_VM_PRINTER_H_
#define GRT_COMPILER_VM_ASM_VM_PRINTER_H_

#include "base/status.h"
#include "base/string_builder.h"
#include "compiler/mlir/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

// Appends |vm_module| (a vm.module op) to |out|. Fails only when memory
// runs out.
grt_status_t grtc_vm_print_module(const grtc_operation_t* vm_module,
                                  grt_allocator_t allocator,
                                  grt_string_builder_t* out) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_VM_ASM_VM_PRINTER_H_
