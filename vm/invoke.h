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
//
// Resumable invocations. A bytecode function may suspend: vm.yield, or a
// vm.call.yieldable / vm.call.variadic.yieldable of an import that returns
// GRT_STATUS_DEFERRED. grt_vm_invoke_begin runs the function until it
// returns, fails or suspends; grt_vm_invoke_resume continues a suspended
// invocation where it stopped (a yield enters its target block with the
// block arguments; a deferred import is called again with the same
// arguments, so it keeps its progress in its own state or in the objects it
// was given, e.g. a fence it waits on). While suspended, the frames (their
// registers and refs) stay on the invocation's own VM stack; destroying a
// suspended invocation releases them. Only the frames of the invoked
// function's module can suspend: a function reached through another
// module's import runs to completion or fails when it tries to.
//
// grt_vm_invoke never suspends: a yield or deferral in a call it makes fails
// with FAILED_PRECONDITION ("vm.yield in a call that cannot be suspended:
// ..."); hosts that run yielding functions use grt_vm_invoke_begin (or
// grt_vm_invoke_to_completion, which resumes until the end).
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

typedef struct grt_vm_invocation_t grt_vm_invocation_t;

// Checks and packs the arguments as grt_vm_invoke does, then runs
// |function| until it returns, fails or suspends. Returns OK when it
// returned (results appended to |outputs|), GRT_STATUS_DEFERRED when it
// suspended, or the failure. *out_invocation is set whenever the arguments
// were accepted (whatever the outcome), NULL otherwise; the caller destroys
// it. The invocation retains |context| and enters it only while it runs, so
// other calls may use the context between resumes.
grt_status_t grt_vm_invoke_begin(grt_vm_context_t* context,
                                 const grt_vm_function_t* function,
                                 const grt_vm_list_t* inputs,
                                 grt_vm_list_t* outputs,
                                 grt_allocator_t allocator,
                                 grt_vm_invocation_t** out_invocation)
    GRT_MUST_USE;

// Continues a suspended invocation; returns as grt_vm_invoke_begin does.
// FAILED_PRECONDITION "invocation of 'm.f' has already returned" (or
// "... already failed") when it is not suspended.
grt_status_t grt_vm_invoke_resume(grt_vm_invocation_t* invocation,
                                  grt_vm_list_t* outputs) GRT_MUST_USE;

// Whether the invocation is suspended (its last begin or resume returned
// DEFERRED).
bool grt_vm_invocation_is_suspended(const grt_vm_invocation_t* invocation);
// How many times it has suspended so far.
uint64_t grt_vm_invocation_suspend_count(const grt_vm_invocation_t* invocation);

// Releases the invocation; a suspended one is abandoned (its frames popped,
// their refs released). NULL is a no-op.
void grt_vm_invocation_destroy(grt_vm_invocation_t* invocation);

// Begins |function| and resumes it each time it suspends until it returns
// or fails: a host loop for functions that yield. An import that defers
// until another thread acts is called again at once (polled); hosts with
// other work to do between resumes use grt_vm_invoke_begin. When
// |out_suspend_count| is not NULL it receives the number of suspensions.
grt_status_t grt_vm_invoke_to_completion(grt_vm_context_t* context,
                                         const grt_vm_function_t* function,
                                         const grt_vm_list_t* inputs,
                                         grt_vm_list_t* outputs,
                                         grt_allocator_t allocator,
                                         uint64_t* out_suspend_count)
    GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_INVOKE_H_
