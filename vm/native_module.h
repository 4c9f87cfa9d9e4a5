// Native modules: VM modules written in C (hal, check, user extensions).
//
// A native module is a static descriptor: a module name and an export
// table sorted by name, each row a name, a calling convention and a C
// function. Creation verifies the table once (sorted, unique, every
// calling convention valid) so lookups can binary-search it. A function
// receives the module's data pointer (shared by every context), its
// per-context state (from the optional alloc_state hook) and the packed
// argument/result buffers described in vm/signature.h and vm/module.h.
//
//   static grt_status_t add(void* module_data, void* state,
//                           const void* args, void* results) {
//     const struct { int32_t a, b; }* in = args;
//     *(int32_t*)results = in->a + in->b;
//     return grt_ok_status();
//   }
//   static const grt_vm_native_export_t exports[] = {{"add", "0ii_i", add}};
#ifndef GRT_VM_NATIVE_MODULE_H_
#define GRT_VM_NATIVE_MODULE_H_

#include <stddef.h>

#include "base/allocator.h"
#include "base/status.h"
#include "vm/module.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef grt_status_t (*grt_vm_native_function_fn)(void* module_data,
                                                   void* state,
                                                   const void* args,
                                                   void* results);

typedef struct grt_vm_native_export_t {
  const char* name;                // without the module prefix
  const char* calling_convention;  // e.g. "0r_I"
  grt_vm_native_function_fn fn;
} grt_vm_native_export_t;

typedef struct grt_vm_native_module_descriptor_t {
  const char* name;
  const grt_vm_native_export_t* exports;  // sorted by strcmp of name
  size_t export_count;
  // Optional per-context state; without alloc_state functions get NULL.
  grt_status_t (*alloc_state)(void* module_data, grt_allocator_t allocator,
                              void** out_state);
  void (*free_state)(void* module_data, void* state);
  // Optional; runs when the module is destroyed, to free module_data.
  void (*destroy)(void* module_data);
} grt_vm_native_module_descriptor_t;

// Creates a module over |descriptor| (borrowed: it must outlive the
// module; normally static). Errors name the offending table rows:
// "native module 'm': exports not sorted: 'b' (row 1) before 'a' (row 2)",
// "... duplicate export 'a' (rows 0 and 1)", or a calling-convention error
// annotated with the export name. |module_data| is handed to every function
// and hook; on failure |descriptor->destroy| is not called.
grt_status_t grt_vm_native_module_create(
    const grt_vm_native_module_descriptor_t* descriptor, void* module_data,
    grt_allocator_t allocator, grt_vm_module_t** out_module) GRT_MUST_USE;

// The module_data of |module| when it is a native module created over
// |descriptor|, else NULL: how the owner of a native module reaches its
// data again (e.g. to register things with it) without a side table.
void* grt_vm_native_module_data(const grt_vm_module_t* module,
                                const grt_vm_native_module_descriptor_t* descriptor);

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_NATIVE_MODULE_H_
