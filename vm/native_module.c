#include "vm/native_module.h"

#include <string.h>

#include "vm/signature.h"

typedef struct grt_vm_native_module_t {
  grt_vm_module_t base;
  const grt_vm_native_module_descriptor_t* descriptor;
  void* module_data;
  grt_vm_signature_t* signatures;  // one per export row
} grt_vm_native_module_t;

static grt_vm_native_module_t* grt_vm_native_module_cast(
    const grt_vm_module_t* module) {
  return (grt_vm_native_module_t*)module;
}

static void grt_vm_native_module_destroy(grt_vm_module_t* base) {
  grt_vm_native_module_t* module = grt_vm_native_module_cast(base);
  if (module->descriptor->destroy) {
    module->descriptor->destroy(module->module_data);
  }
  grt_allocator_free(base->allocator, module->signatures);
  grt_allocator_free(base->allocator, module);
}

static uint32_t grt_vm_native_module_export_count(const grt_vm_module_t* base) {
  return (uint32_t)grt_vm_native_module_cast(base)->descriptor->export_count;
}

static grt_vm_function_t grt_vm_native_module_export_at(grt_vm_module_t* base,
                                                        uint32_t ordinal) {
  const grt_vm_native_export_t* row =
      &grt_vm_native_module_cast(base)->descriptor->exports[ordinal];
  grt_vm_function_t function = {
      base,
      ordinal,
      GRT_VM_FUNCTION_LINKAGE_EXPORT,
      grt_make_cstring_view(row->name),
      grt_make_cstring_view(row->calling_convention),
  };
  return function;
}

// strcmp order between a view and a NUL-terminated name.
static int grt_vm_native_compare_name(grt_string_view_t name,
                                      const char* row_name) {
  size_t row_size = strlen(row_name);
  size_t common = name.size < row_size ? name.size : row_size;
  int order = common ? memcmp(name.data, row_name, common) : 0;
  if (order != 0) return order;
  return name.size < row_size ? -1 : name.size > row_size ? 1 : 0;
}

static bool grt_vm_native_module_lookup_export(grt_vm_module_t* base,
                                               grt_string_view_t name,
                                               grt_vm_function_t* out_function) {
  const grt_vm_native_module_descriptor_t* descriptor =
      grt_vm_native_module_cast(base)->descriptor;
  size_t low = 0;
  size_t high = descriptor->export_count;
  while (low < high) {
    size_t middle = low + (high - low) / 2;
    int order = grt_vm_native_compare_name(name, descriptor->exports[middle].name);
    if (order == 0) {
      *out_function = grt_vm_native_module_export_at(base, (uint32_t)middle);
      return true;
    }
    if (order < 0) {
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  return false;
}

static uint32_t grt_vm_native_module_import_count(const grt_vm_module_t* base) {
  return 0;
}

static grt_vm_import_t grt_vm_native_module_import_at(
    const grt_vm_module_t* base, uint32_t ordinal) {
  // Never called: a native module has no imports.
  grt_vm_import_t none = {grt_string_view_empty(), grt_string_view_empty(),
                          false};
  return none;
}

static grt_status_t grt_vm_native_module_alloc_state(
    grt_vm_module_t* base, grt_allocator_t allocator,
    grt_vm_module_state_t** out_state) {
  *out_state = NULL;
  grt_vm_native_module_t* module = grt_vm_native_module_cast(base);
  if (!module->descriptor->alloc_state) return grt_ok_status();
  void* state = NULL;
  GRT_RETURN_IF_ERROR(module->descriptor->alloc_state(module->module_data,
                                                      allocator, &state));
  *out_state = (grt_vm_module_state_t*)state;
  return grt_ok_status();
}

static void grt_vm_native_module_free_state(grt_vm_module_t* base,
                                            grt_vm_module_state_t* state) {
  grt_vm_native_module_t* module = grt_vm_native_module_cast(base);
  if (module->descriptor->free_state) {
    module->descriptor->free_state(module->module_data, (void*)state);
  }
}

static grt_status_t grt_vm_native_module_resolve_import(
    grt_vm_module_t* base, grt_vm_module_state_t* state,
    uint32_t import_ordinal, const grt_vm_function_t* target,
    grt_vm_module_state_t* target_state) {
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "native module '%.*s' has no import %u",
                         GRT_SV_ARG(base->name), import_ordinal);
}

static grt_status_t grt_vm_native_module_initialize(
    grt_vm_module_t* base, grt_vm_module_state_t* state) {
  return grt_ok_status();
}

static grt_status_t grt_vm_native_module_call(grt_vm_module_t* base,
                                              grt_vm_module_state_t* state,
                                              grt_vm_stack_t* stack,
                                              const grt_vm_call_t* call) {
  grt_vm_native_module_t* module = grt_vm_native_module_cast(base);
  const grt_vm_function_t* function = &call->function;
  if (function->module != base ||
      function->linkage != GRT_VM_FUNCTION_LINKAGE_EXPORT ||
      function->ordinal >= module->descriptor->export_count) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "native module '%.*s' has no export %u",
                           GRT_SV_ARG(base->name), function->ordinal);
  }
  const grt_vm_native_export_t* row =
      &module->descriptor->exports[function->ordinal];
  const grt_vm_signature_t* signature = &module->signatures[function->ordinal];
  // Packed sizes are the only thing a native function cannot check itself;
  // a mismatch means the caller marshalled for another signature.
  bool arguments_fit = signature->variadic
                           ? call->argument_bytes >= signature->argument_bytes
                           : call->argument_bytes == signature->argument_bytes;
  if (!arguments_fit || call->result_bytes != signature->result_bytes) {
    return grt_make_status(
        GRT_STATUS_INVALID_ARGUMENT,
        "%.*s.%s (%s): called with %zu argument and %zu result bytes, "
        "expected %s%zu and %zu",
        GRT_SV_ARG(base->name), row->name, row->calling_convention,
        call->argument_bytes, call->result_bytes,
        signature->variadic ? "at least " : "", signature->argument_bytes,
        signature->result_bytes);
  }
  return row->fn(module->module_data, (void*)state, call->arguments,
                 call->results);
}

static const grt_vm_module_vtable_t grt_vm_native_module_vtable = {
    grt_vm_native_module_destroy,      grt_vm_native_module_export_count,
    grt_vm_native_module_export_at,    grt_vm_native_module_lookup_export,
    grt_vm_native_module_import_count, grt_vm_native_module_import_at,
    grt_vm_native_module_alloc_state,  grt_vm_native_module_free_state,
    grt_vm_native_module_resolve_import, grt_vm_native_module_initialize,
    grt_vm_native_module_call,
    NULL,  // begin_call: a native function never suspends a whole call
    NULL,  // resume_call
};

// Checks the export table is sorted, unique and well typed, filling one
// parsed signature per row.
static grt_status_t grt_vm_native_module_verify(
    const grt_vm_native_module_descriptor_t* descriptor,
    grt_vm_signature_t* signatures) {
  for (size_t i = 0; i < descriptor->export_count; ++i) {
    const grt_vm_native_export_t* row = &descriptor->exports[i];
    if (!row->name || !row->calling_convention || !row->fn) {
      return grt_make_status(
          GRT_STATUS_INVALID_ARGUMENT,
          "native module '%s': export row %zu lacks a name, calling "
          "convention or function",
          descriptor->name, i);
    }
    GRT_RETURN_IF_ERROR_ANNOTATED(
        grt_vm_signature_parse(grt_make_cstring_view(row->calling_convention),
                               &signatures[i]),
        "native module '%s', export '%s'", descriptor->name, row->name);
    if (i == 0) continue;
    const char* previous = descriptor->exports[i - 1].name;
    int order = strcmp(previous, row->name);
    if (order == 0) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "native module '%s': duplicate export '%s' "
                             "(rows %zu and %zu)",
                             descriptor->name, row->name, i - 1, i);
    }
    if (order > 0) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "native module '%s': exports not sorted: '%s' "
                             "(row %zu) before '%s' (row %zu)",
                             descriptor->name, previous, i - 1, row->name, i);
    }
  }
  return grt_ok_status();
}

grt_status_t grt_vm_native_module_create(
    const grt_vm_native_module_descriptor_t* descriptor, void* module_data,
    grt_allocator_t allocator, grt_vm_module_t** out_module) {
  *out_module = NULL;
  if (!descriptor->name || descriptor->name[0] == '\0' ||
      strchr(descriptor->name, '.') != NULL) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "native module name must be non-empty and contain "
                           "no '.', got '%s'",
                           descriptor->name ? descriptor->name : "(null)");
  }
  if (descriptor->export_count > UINT32_MAX) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "native module '%s': %zu exports exceed the limit",
                           descriptor->name, descriptor->export_count);
  }
  grt_vm_signature_t* signatures = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      allocator, descriptor->export_count * sizeof(*signatures),
      (void**)&signatures));
  grt_status_t status = grt_vm_native_module_verify(descriptor, signatures);
  grt_vm_native_module_t* module = NULL;
  if (grt_status_is_ok(status)) {
    status = grt_allocator_calloc(allocator, sizeof(*module), (void**)&module);
  }
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(allocator, signatures);
    return status;
  }
  grt_vm_module_initialize(&module->base, &grt_vm_native_module_vtable,
                           grt_make_cstring_view(descriptor->name), allocator);
  module->descriptor = descriptor;
  module->module_data = module_data;
  module->signatures = signatures;
  *out_module = &module->base;
  return grt_ok_status();
}

void* grt_vm_native_module_data(
    const grt_vm_module_t* module,
    const grt_vm_native_module_descriptor_t* descriptor) {
  if (!module || module->vtable != &grt_vm_native_module_vtable) return NULL;
  const grt_vm_native_module_t* native = grt_vm_native_module_cast(module);
  return native->descriptor == descriptor ? native->module_data : NULL;
}
