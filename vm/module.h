// Modules: the one interface the context links and calls through.
//
// A module is code plus a name: native modules written in C
// (vm/native_module.h) and bytecode modules loaded from .vmfb files both
// implement the vtable below, so the context and the interpreter never
// care which kind they talk to.
//
// Life cycle inside a context (vm/context.h):
//   1. alloc_state: per-context mutable state (globals live here), so one
//      loaded module can serve many contexts.
//   2. resolve_import: once per import that was found, with the target
//      function and the target module's state. Imports not found (only
//      optional ones may be missing) are never resolved; the state must
//      start with every import unresolved, and calling one is a VM error.
//   3. initialize: after all imports of this module are resolved (runs
//      vm.initializer functions, sets initial global values).
//   4. call, any number of times.
//   5. free_state when the context is destroyed.
//
// Calls pass packed buffers laid out per the callee's calling convention
// (vm/signature.h). Ownership: argument refs are borrowed from the caller
// for the duration of the call; the callee writes every result slot, and
// each ref result it writes carries a reference the caller now owns. A
// failing call leaves no owned refs in the results.
#ifndef GRT_VM_MODULE_H_
#define GRT_VM_MODULE_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_vm_module_t grt_vm_module_t;
typedef struct grt_vm_module_vtable_t grt_vm_module_vtable_t;
// Per-context module state: an opaque handle that each implementation
// converts to and from its own state type (never defining this struct, so
// implementations cannot clash). A native module without state uses NULL.
typedef struct grt_vm_module_state_t grt_vm_module_state_t;
// The bytecode interpreter's stack (vm/stack.h); opaque to this interface.
typedef struct grt_vm_stack_t grt_vm_stack_t;

typedef enum grt_vm_function_linkage_e {
  GRT_VM_FUNCTION_LINKAGE_INTERNAL = 0,  // ordinal: a function of the module
  GRT_VM_FUNCTION_LINKAGE_IMPORT = 1,    // ordinal: an import of the module
  GRT_VM_FUNCTION_LINKAGE_EXPORT = 2,    // ordinal: an export of the module
} grt_vm_function_linkage_t;

// A function handle. Not ref counted: valid while its module lives.
typedef struct grt_vm_function_t {
  grt_vm_module_t* module;
  uint32_t ordinal;  // in the space |linkage| names
  grt_vm_function_linkage_t linkage;
  grt_string_view_t name;                // without the module prefix
  grt_string_view_t calling_convention;  // e.g. "0iI_r"
} grt_vm_function_t;

typedef struct grt_vm_import_t {
  grt_string_view_t full_name;           // "module.function"
  grt_string_view_t calling_convention;  // what the importer expects
  bool optional;
} grt_vm_import_t;

// One call. The buffers are GRT_VM_PACKED_ALIGNMENT-aligned.
typedef struct grt_vm_call_t {
  grt_vm_function_t function;
  const void* arguments;  // refs borrowed
  size_t argument_bytes;
  void* results;  // every slot written by the callee; refs owned by caller
  size_t result_bytes;
} grt_vm_call_t;

struct grt_vm_module_vtable_t {
  // Frees the module; called by the last grt_vm_module_release.
  void (*destroy)(grt_vm_module_t* module);

  uint32_t (*export_count)(const grt_vm_module_t* module);
  // |ordinal| < export_count. Returns an EXPORT-linkage handle.
  grt_vm_function_t (*export_at)(grt_vm_module_t* module, uint32_t ordinal);
  // Finds an export by name (without the module prefix); false if none.
  bool (*lookup_export)(grt_vm_module_t* module, grt_string_view_t name,
                        grt_vm_function_t* out_function);

  uint32_t (*import_count)(const grt_vm_module_t* module);
  // |ordinal| < import_count.
  grt_vm_import_t (*import_at)(const grt_vm_module_t* module, uint32_t ordinal);

  grt_status_t (*alloc_state)(grt_vm_module_t* module,
                              grt_allocator_t allocator,
                              grt_vm_module_state_t** out_state);
  void (*free_state)(grt_vm_module_t* module, grt_vm_module_state_t* state);

  // Binds import |import_ordinal| of |state| to |target|, which lives in
  // the module whose state (in the same context) is |target_state|. The
  // signatures have already been checked to match.
  grt_status_t (*resolve_import)(grt_vm_module_t* module,
                                 grt_vm_module_state_t* state,
                                 uint32_t import_ordinal,
                                 const grt_vm_function_t* target,
                                 grt_vm_module_state_t* target_state);

  // Runs the module's initialization with |state| fully linked.
  grt_status_t (*initialize)(grt_vm_module_t* module,
                             grt_vm_module_state_t* state);

  // Calls call->function (an EXPORT or INTERNAL handle of this module).
  // |stack| is the caller's VM stack when the caller is bytecode, so a
  // bytecode callee can push its frames there; NULL when the host calls, in
  // which case a bytecode module runs on a stack of its own.
  grt_status_t (*call)(grt_vm_module_t* module, grt_vm_module_state_t* state,
                       grt_vm_stack_t* stack, const grt_vm_call_t* call);

  // Resumable calls (vm/invoke.h); both NULL for a module whose calls never
  // suspend (grt_vm_invoke_begin then makes a plain call). begin_call calls
  // call->function (an EXPORT handle) from the host. When the call suspends
  // (vm.yield, or a yieldable import that returned DEFERRED) it returns
  // GRT_STATUS_DEFERRED and *out_stack holds its frames (the caller owns the
  // stack; destroying it abandons the call, releasing the frames' refs);
  // resume_call, given that stack and the same call (its results buffer),
  // continues them. Any other status ends the call (OK with every result
  // written, or a failure with the frames popped); begin_call then leaves
  // *out_stack NULL, and after resume_call the caller destroys the stack.
  grt_status_t (*begin_call)(grt_vm_module_t* module,
                             grt_vm_module_state_t* state,
                             const grt_vm_call_t* call,
                             grt_vm_stack_t** out_stack);
  grt_status_t (*resume_call)(grt_vm_module_t* module,
                              grt_vm_module_state_t* state,
                              grt_vm_stack_t* stack, const grt_vm_call_t* call);
};

// The common header of every module; implementations embed it first.
struct grt_vm_module_t {
  const grt_vm_module_vtable_t* vtable;
  atomic_uint_least32_t ref_count;
  grt_allocator_t allocator;  // the module's own memory
  grt_string_view_t name;     // must stay valid for the module's life
};

// Fills the header; the count starts at 1.
void grt_vm_module_initialize(grt_vm_module_t* module,
                              const grt_vm_module_vtable_t* vtable,
                              grt_string_view_t name,
                              grt_allocator_t allocator);
void grt_vm_module_retain(grt_vm_module_t* module);
void grt_vm_module_release(grt_vm_module_t* module);

static inline grt_string_view_t grt_vm_module_name(
    const grt_vm_module_t* module) {
  return module->name;
}

// Finds an export; NOT_FOUND names the function and lists every export of
// the module ("module 'm' has no function 'f'; it exports: a, b").
grt_status_t grt_vm_module_lookup_function(grt_vm_module_t* module,
                                           grt_string_view_t name,
                                           grt_vm_function_t* out_function)
    GRT_MUST_USE;

// Writes the ", "-separated export names of |module| into |buffer| (always
// NUL-terminated, truncated with "..." when it does not fit); returns
// |buffer|. "(none)" when the module exports nothing.
const char* grt_vm_module_format_exports(grt_vm_module_t* module, char* buffer,
                                         size_t capacity);

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_MODULE_H_
