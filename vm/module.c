#include "vm/module.h"

#include "vm/name_list.h"

void grt_vm_module_initialize(grt_vm_module_t* module,
                              const grt_vm_module_vtable_t* vtable,
                              grt_string_view_t name,
                              grt_allocator_t allocator) {
  module->vtable = vtable;
  atomic_init(&module->ref_count, 1u);
  module->allocator = allocator;
  module->name = name;
}

void grt_vm_module_retain(grt_vm_module_t* module) {
  if (module) {
    atomic_fetch_add_explicit(&module->ref_count, 1u, memory_order_relaxed);
  }
}

void grt_vm_module_release(grt_vm_module_t* module) {
  if (module && atomic_fetch_sub_explicit(&module->ref_count, 1u,
                                          memory_order_acq_rel) == 1u) {
    module->vtable->destroy(module);
  }
}

const char* grt_vm_module_format_exports(grt_vm_module_t* module, char* buffer,
                                         size_t capacity) {
  grt_vm_name_list_t list;
  grt_vm_name_list_begin(&list, buffer, capacity);
  uint32_t count = module->vtable->export_count(module);
  for (uint32_t i = 0; i < count; ++i) {
    grt_vm_name_list_append(&list, module->vtable->export_at(module, i).name);
  }
  return grt_vm_name_list_end(&list);
}

grt_status_t grt_vm_module_lookup_function(grt_vm_module_t* module,
                                           grt_string_view_t name,
                                           grt_vm_function_t* out_function) {
  if (module->vtable->lookup_export(module, name, out_function)) {
    return grt_ok_status();
  }
  char exports[GRT_VM_NAME_LIST_CAPACITY];
  return grt_make_status(
      GRT_STATUS_NOT_FOUND, "module '%.*s' has no function '%.*s'; it exports: %s",
      GRT_SV_ARG(module->name), GRT_SV_ARG(name),
      grt_vm_module_format_exports(module, exports, sizeof(exports)));
}
