// A module file loaded for a tool: the VM instance, the verified file and
// the bytecode module over it, so grt-run and grt-check share one way of
// getting from a path to something they can call. Each call site then makes
// as many contexts as it needs (grt-check makes one per test function, so
// tests cannot see each other's globals).
#ifndef GRT_TOOLS_LOADED_MODULE_H_
#define GRT_TOOLS_LOADED_MODULE_H_

#include "base/allocator.h"
#include "base/status.h"
#include "schemas/module_file.h"
#include "vm/context.h"
#include "vm/instance.h"
#include "vm/module.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_tools_loaded_module_t {
  grt_allocator_t allocator;
  grt_vm_instance_t* instance;
  grt_module_file_t* file;
  grt_vm_module_t* module;
} grt_tools_loaded_module_t;

// Opens, verifies and loads |path|. Every error names the path. On failure
// *out_loaded holds nothing that needs releasing.
grt_status_t grt_tools_load_module(const char* path, grt_allocator_t allocator,
                                   grt_tools_loaded_module_t* out_loaded)
    GRT_MUST_USE;

// A fresh context holding only the loaded module (its imports, if any, must
// be optional; the error names a missing one).
grt_status_t grt_tools_create_context(const grt_tools_loaded_module_t* loaded,
                                      grt_vm_context_t** out_context)
    GRT_MUST_USE;

void grt_tools_unload_module(grt_tools_loaded_module_t* loaded);

#ifdef __cplusplus
}
#endif

#endif  // GRT_TOOLS_LOADED_MODULE_H_
