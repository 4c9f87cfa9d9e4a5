// Contexts: a set of modules linked together, with their mutable state.
//
// A context is created from an instance and an ordered list of modules.
// For each module in order it allocates the module's state, then resolves
// every import by full name "module.function" against the exports of the
// modules before it (so dependencies come first), checking calling
// conventions, and finally runs the module's initialize hook. A missing
// import is an error naming it and what the target module does export (or
// that no module of that name is registered) unless the import is optional,
// in which case it stays unresolved and calling it is a VM error.
//
// Module names are unique within a context; a context retains its instance
// and its modules.
//
// Threads: modules and instances may be shared by contexts on any threads
// (a module's own data is read-only after creation; per-context data lives
// in the context's module states). A context runs one call at a time:
// grt_vm_invoke and grt_vm_context_append_module enter it, and a second
// thread that tries meanwhile fails at once with FAILED_PRECONDITION
// instead of racing on the module states (globals, cached command buffers).
// The thread already inside may enter again (a native function that calls
// back into the context).
#ifndef GRT_VM_CONTEXT_H_
#define GRT_VM_CONTEXT_H_

#include <stddef.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"
#include "vm/instance.h"
#include "vm/module.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_vm_context_t grt_vm_context_t;

grt_status_t grt_vm_context_create(grt_vm_instance_t* instance,
                                   grt_vm_module_t* const* modules,
                                   size_t module_count,
                                   grt_allocator_t allocator,
                                   grt_vm_context_t** out_context)
    GRT_MUST_USE;
// Appends |module| (retained) after the modules already in |context|: its
// imports resolve against them and its initializer runs, as if it had been
// last in the list given to create. On failure the context is unchanged.
// Enters the context like a call (see grt_vm_context_enter).
grt_status_t grt_vm_context_append_module(grt_vm_context_t* context,
                                          grt_vm_module_t* module)
    GRT_MUST_USE;
void grt_vm_context_retain(grt_vm_context_t* context);
void grt_vm_context_release(grt_vm_context_t* context);

// Marks |context| as running a call on the calling thread until the
// matching grt_vm_context_leave; nested enters from that thread nest.
// FAILED_PRECONDITION "VM context is already running a call on another
// thread; ..." when another thread is inside.
grt_status_t grt_vm_context_enter(grt_vm_context_t* context) GRT_MUST_USE;
void grt_vm_context_leave(grt_vm_context_t* context);

grt_vm_instance_t* grt_vm_context_instance(const grt_vm_context_t* context);
size_t grt_vm_context_module_count(const grt_vm_context_t* context);
// |index| < module_count, in creation order.
grt_vm_module_t* grt_vm_context_module_at(const grt_vm_context_t* context,
                                          size_t index);
grt_vm_module_state_t* grt_vm_context_state_at(const grt_vm_context_t* context,
                                               size_t index);
// The state |module| has in this context; NULL if it is not part of it (or
// has no state).
grt_vm_module_state_t* grt_vm_context_state_of(const grt_vm_context_t* context,
                                               const grt_vm_module_t* module);

// Resolves "module.function" (split at the first '.') to an export.
// NOT_FOUND when the module is not in the context (listing the modules
// that are) or does not export the function (listing its exports).
grt_status_t grt_vm_context_resolve_function(const grt_vm_context_t* context,
                                             grt_string_view_t full_name,
                                             grt_vm_function_t* out_function)
    GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_CONTEXT_H_
