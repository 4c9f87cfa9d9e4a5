// Invoke: how the host (tools, the embedding API, tests) calls into a
// context.
//
// Arguments and results travel as lists; invoke checks them against the
// function's calling convention, packs the arguments, calls the function
// with no VM stack of the caller's (a bytecode callee runs on one of its
// own), and unpacks the results. A variadic span is given flat: its i32
// count followed by that many groups of values. Errors raised inside the
// VM come back as they were made, carrying the VM backtrace, annotated with
// the function that was invoked.
#ifndef GRT_VM_INVOKE_H_
#define GRT_VM_INVOKE_H_

#include "base/allocator.h"
#include "base/status.h"
#include "vm/context.h"
#include "vm/list.h"
#include "vm/module.h"

#ifdef __cplusplus
extern "C" {
#endif

// Calls |function| (an export of a module of |context|). |inputs| (any
// element type; NULL for none) must hold exactly the arguments, e.g.
// "main: argument 0: expected i32, got f32", "main: expected 2 arguments,
// got 1". The results are appended to |outputs| (which must accept them;
// NULL only when the function returns nothing). |allocator| is used for
// the packed buffers.
grt_status_t grt_vm_invoke(grt_vm_context_t* context,
                           const grt_vm_function_t* function,
                           const grt_vm_list_t* inputs,
                           grt_vm_list_t* outputs, grt_allocator_t allocator)
    GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_INVOKE_H_
