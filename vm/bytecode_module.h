// Bytecode modules: a verified .vmfb module behind the module interface.
//
// Creation reads the module file (which it retains), parses every calling
// convention and verifies every function, so a module that loads runs
// without per-op checks. Each context gets its own state: the primitive
// global bytes, the ref globals, the import bindings, and the module's
// rodata segments as vm.buffer refs that alias the file's bytes (no copy;
// each buffer retains the file). Export "__init" (signature 0v_v), if
// present, runs when a context initializes the module.
//
// VM errors come back as statuses carrying a backtrace, one annotation per
// bytecode frame from the innermost out: "at m.f@0x1c (prog.mlir:12:5)"
// (the location only when the module has debug info for the op).
#ifndef GRT_VM_BYTECODE_MODULE_H_
#define GRT_VM_BYTECODE_MODULE_H_

#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "schemas/module_file.h"
#include "vm/bytecode_verifier.h"
#include "vm/module.h"
#include "vm/ref.h"
#include "vm/signature.h"
#include "vm/stack.h"

#ifdef __cplusplus
extern "C" {
#endif

// |stack_limit| bounds the VM stack the module creates for calls from the
// host (0: GRT_VM_STACK_DEFAULT_LIMIT); calls from other bytecode run on the
// caller's stack and its limit.
grt_status_t grt_vm_bytecode_module_create(grt_module_file_t* file,
                                           size_t stack_limit,
                                           grt_allocator_t allocator,
                                           grt_vm_module_t** out_module)
    GRT_MUST_USE;

//===----------------------------------------------------------------------===//
// Internals shared by bytecode_module.c and bytecode_dispatch.c
//===----------------------------------------------------------------------===//

// What a call needs of an internal function, precomputed at load so the
// interpreter reads one small record instead of the file's descriptors.
typedef enum grt_vm_value_copy_e {
  GRT_VM_VALUE_COPY_ONE_32BIT,  // exactly one 'i' or 'f'
  GRT_VM_VALUE_COPY_ALL_32BIT,  // only 'i' and 'f' (or nothing)
  GRT_VM_VALUE_COPY_TYPED,      // 64-bit values or refs: per-type placement
} grt_vm_value_copy_t;

// Frames of the function point at |frame|, the first member, so the
// interpreter gets from a frame back to its record with a cast.
typedef struct grt_vm_bytecode_callee_t {
  grt_vm_frame_info_t frame;
  const uint8_t* code;  // the function's first byte (its entry block marker)
  const char* argument_types;  // calling-convention characters
  const char* result_types;
  uint16_t argument_count;  // characters in argument_types, result_types
  uint16_t result_count;
  // How a call copies the arguments and a return the results: the first
  // two shapes need no type checks (value i of a list lands in slot i).
  uint8_t argument_copy;  // grt_vm_value_copy_t
  uint8_t result_copy;
  // No ref registers and one 32-bit argument: the call's shortest path.
  bool simple_call;
} grt_vm_bytecode_callee_t;
// One cache line, so indexing the records is a shift.
_Static_assert(sizeof(grt_vm_bytecode_callee_t) <= 64,
               "grt_vm_bytecode_callee_t outgrew 64 bytes");

// What a call to an import needs, precomputed at load.
typedef struct grt_vm_bytecode_import_call_t {
  // The scratch frame holding the packed arguments then the packed results
  // (module NULL: backtraces skip it). Non-variadic imports only: a
  // variadic call sizes its frame from the span counts.
  grt_vm_frame_info_t scratch;
  uint32_t argument_bytes;  // packed and rounded up (non-variadic)
  // Some argument is a ref: after the call, operands with the move bit are
  // released (a second walk of the argument list).
  bool argument_refs;
} grt_vm_bytecode_import_call_t;

typedef struct grt_vm_bytecode_module_t {
  grt_vm_module_t base;
  grt_module_file_t* file;
  grt_vm_bytecode_layout_t layout;
  grt_module_function_t* functions;
  grt_vm_signature_t* function_signatures;
  grt_vm_bytecode_callee_t* callees;
  grt_module_import_t* imports;
  grt_vm_signature_t* import_signatures;
  grt_vm_bytecode_import_call_t* import_calls;
  size_t stack_limit;
} grt_vm_bytecode_module_t;

typedef struct grt_vm_bytecode_import_binding_t {
  grt_vm_function_t target;
  grt_vm_module_state_t* target_state;
  bool resolved;
} grt_vm_bytecode_import_binding_t;

struct grt_vm_module_state_t {
  grt_allocator_t allocator;
  uint8_t* global_bytes;      // 8-byte aligned
  grt_vm_ref_t* global_refs;
  grt_vm_ref_t* rodata;       // one vm.buffer per segment
  grt_vm_bytecode_import_binding_t* imports;
};

typedef enum grt_vm_dispatch_mode_e {
  // A call whose caller waits for the results: a suspension (vm.yield, a
  // yieldable import that defers) fails with FAILED_PRECONDITION.
  GRT_VM_DISPATCH_CALL,
  // The start of a resumable call on a stack of its own: a suspension
  // returns DEFERRED and leaves the frames on the stack, the top frame's pc
  // at the op to run next.
  GRT_VM_DISPATCH_BEGIN,
  // Continues the suspended frames on |stack| (|function_ordinal| and
  // |arguments| are ignored); suspends again as BEGIN does.
  GRT_VM_DISPATCH_RESUME,
} grt_vm_dispatch_mode_t;

// Runs internal function |function_ordinal| on |stack| with packed
// |arguments| and |results| laid out per its signature. On failure every
// frame it pushed is popped (releasing its refs) and the status carries the
// backtrace of those frames.
grt_status_t grt_vm_bytecode_dispatch(grt_vm_bytecode_module_t* module,
                                      grt_vm_module_state_t* state,
                                      grt_vm_stack_t* stack,
                                      uint32_t function_ordinal,
                                      const void* arguments, void* results,
                                      grt_vm_dispatch_mode_t mode)
    GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_BYTECODE_MODULE_H_
