// Loading a module file for the tools (see loaded_module.h).
#include "tools/loaded_module.h"

#include <string.h>

#include "vm/bytecode_module.h"

grt_status_t grt_tools_load_module(const char* path, grt_allocator_t allocator,
                                   grt_tools_loaded_module_t* out_loaded) {
  memset(out_loaded, 0, sizeof(*out_loaded));
  out_loaded->allocator = allocator;
  grt_status_t status =
      grt_module_file_open_path(path, allocator, &out_loaded->file);
  if (grt_status_is_ok(status)) {
    status = grt_vm_instance_create(allocator, &out_loaded->instance);
  }
  if (grt_status_is_ok(status)) {
    // The module reads the file it was made from, so a loaded module holds
    // it; 0 keeps the VM's default stack limit.
    status = grt_status_annotate(
        grt_vm_bytecode_module_create(out_loaded->file, 0, allocator,
                                      &out_loaded->module),
        "loading '%s'", path);
  }
  if (!grt_status_is_ok(status)) grt_tools_unload_module(out_loaded);
  return status;
}

grt_status_t grt_tools_create_context(const grt_tools_loaded_module_t* loaded,
                                      grt_vm_context_t** out_context) {
  grt_vm_module_t* modules[] = {loaded->module};
  return grt_vm_context_create(loaded->instance, modules, 1, loaded->allocator,
                               out_context);
}

void grt_tools_unload_module(grt_tools_loaded_module_t* loaded) {
  if (loaded->module) grt_vm_module_release(loaded->module);
  if (loaded->file) grt_module_file_release(loaded->file);
  if (loaded->instance) grt_vm_instance_release(loaded->instance);
  grt_allocator_t allocator = loaded->allocator;
  memset(loaded, 0, sizeof(*loaded));
  loaded->allocator = allocator;
}
