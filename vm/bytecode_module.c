// Bytecode modules: loading, verification, per-context state, calls.
#include "vm/bytecode_module.h"

#include <string.h>

#include "vm/buffer.h"

static const grt_vm_module_vtable_t grt_vm_bytecode_module_vtable;

static void grt_vm_bytecode_module_destroy(grt_vm_module_t* base) {
  grt_vm_bytecode_module_t* module = (grt_vm_bytecode_module_t*)base;
  grt_allocator_t allocator = base->allocator;
  grt_allocator_free(allocator, module->functions);
  grt_allocator_free(allocator, module->function_signatures);
  grt_allocator_free(allocator, module->callees);
  grt_allocator_free(allocator, module->imports);
  grt_allocator_free(allocator, module->import_signatures);
  grt_allocator_free(allocator, module->import_calls);
  grt_module_file_release(module->file);
  grt_allocator_free(allocator, module);
}

// How calls copy a list of values with these calling-convention types.
static grt_vm_value_copy_t grt_vm_value_copy_for(grt_string_view_t types) {
  for (size_t c = 0; c < types.size; ++c) {
    if (types.data[c] != 'i' && types.data[c] != 'f') {
      return GRT_VM_VALUE_COPY_TYPED;
    }
  }
  return types.size == 1 ? GRT_VM_VALUE_COPY_ONE_32BIT
                         : GRT_VM_VALUE_COPY_ALL_32BIT;
}

static grt_status_t grt_vm_bytecode_module_load(
    grt_vm_bytecode_module_t* module) {
  grt_module_file_t* file = module->file;
  const grt_module_file_info_t* info = grt_module_file_info(file);
  grt_allocator_t allocator = module->base.allocator;
  grt_vm_bytecode_layout_t* layout = &module->layout;
  layout->module_name = info->name;
  layout->features = info->features;
  layout->bytecode = info->bytecode;
  layout->function_count = info->function_count;
  layout->import_count = info->import_count;
  layout->global_bytes = info->global_bytes;
  layout->global_ref_count = info->global_ref_count;
  layout->rodata_count = info->rodata_count;
  GRT_RETURN_IF_ERROR(grt_vm_bytecode_verify_module(layout));

  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      allocator, (info->function_count + 1) * sizeof(*module->functions),
      (void**)&module->functions));
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      allocator,
      (info->function_count + 1) * sizeof(*module->function_signatures),
      (void**)&module->function_signatures));
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      allocator, (info->import_count + 1) * sizeof(*module->imports),
      (void**)&module->imports));
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      allocator, (info->import_count + 1) * sizeof(*module->import_signatures),
      (void**)&module->import_signatures));
  layout->functions = module->functions;
  layout->function_signatures = module->function_signatures;
  layout->import_signatures = module->import_signatures;

  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      allocator, (info->import_count + 1) * sizeof(*module->import_calls),
      (void**)&module->import_calls));
  for (uint32_t i = 0; i < info->import_count; ++i) {
    module->imports[i] = grt_module_file_import(file, i);
    const grt_vm_signature_t* signature = &module->import_signatures[i];
    GRT_RETURN_IF_ERROR_ANNOTATED(
        grt_vm_signature_parse(module->imports[i].calling_convention,
                               &module->import_signatures[i]),
        "module '%.*s' import '%.*s'", GRT_SV_ARG(info->name),
        GRT_SV_ARG(module->imports[i].full_name));
    grt_vm_bytecode_import_call_t* call = &module->import_calls[i];
    size_t argument_bytes = grt_vm_packed_finish(signature->argument_bytes);
    size_t result_bytes = grt_vm_packed_finish(signature->result_bytes);
    call->argument_bytes = (uint32_t)argument_bytes;
    grt_vm_frame_info_init(NULL, 0,
                           (uint32_t)((argument_bytes + result_bytes) / 4), 0,
                           &call->scratch);
    for (size_t c = 0; c < signature->arguments.size; ++c) {
      if (signature->arguments.data[c] == 'r') call->argument_refs = true;
    }
  }
  for (uint32_t i = 0; i < info->function_count; ++i) {
    module->functions[i] = grt_module_file_function(file, i);
    GRT_RETURN_IF_ERROR_ANNOTATED(
        grt_vm_signature_parse(module->functions[i].calling_convention,
                               &module->function_signatures[i]),
        "module '%.*s' function '%.*s'", GRT_SV_ARG(info->name),
        GRT_SV_ARG(module->functions[i].name));
  }
  for (uint32_t i = 0; i < info->function_count; ++i) {
    GRT_RETURN_IF_ERROR(grt_vm_bytecode_verify_function(layout, i, allocator));
  }
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      allocator,
      (info->function_count + 1) * sizeof(*module->callees),
      (void**)&module->callees));
  for (uint32_t i = 0; i < info->function_count; ++i) {
    const grt_module_function_t* f = &module->functions[i];
    const grt_vm_signature_t* signature = &module->function_signatures[i];
    grt_vm_bytecode_callee_t* r = &module->callees[i];
    r->code = layout->bytecode.data + f->bytecode_offset;
    grt_vm_frame_info_init(&module->base, i, f->i32_register_count,
                           f->ref_register_count, &r->frame);
    r->argument_types = signature->arguments.data;
    r->result_types = signature->results.data;
    r->argument_count = (uint16_t)signature->arguments.size;
    r->result_count = (uint16_t)signature->results.size;
    r->argument_copy = (uint8_t)grt_vm_value_copy_for(signature->arguments);
    r->result_copy = (uint8_t)grt_vm_value_copy_for(signature->results);
    r->simple_call = r->frame.ref_count == 0 &&
                     r->argument_copy == GRT_VM_VALUE_COPY_ONE_32BIT;
  }
  return grt_ok_status();
}

grt_status_t grt_vm_bytecode_module_create(grt_module_file_t* file,
                                           size_t stack_limit,
                                           grt_allocator_t allocator,
                                           grt_vm_module_t** out_module) {
  grt_vm_bytecode_module_t* module = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, sizeof(*module), (void**)&module));
  grt_module_file_retain(file);
  module->file = file;
  module->stack_limit = stack_limit;
  grt_vm_module_initialize(&module->base, &grt_vm_bytecode_module_vtable,
                           grt_module_file_info(file)->name, allocator);
  grt_status_t status = grt_vm_bytecode_module_load(module);
  if (status) {
    grt_vm_bytecode_module_destroy(&module->base);
    return status;
  }
  *out_module = &module->base;
  return grt_ok_status();
}

static uint32_t grt_vm_bytecode_module_export_count(
    const grt_vm_module_t* base) {
  const grt_vm_bytecode_module_t* module =
      (const grt_vm_bytecode_module_t*)base;
  return grt_module_file_info(module->file)->export_count;
}

static grt_vm_function_t grt_vm_bytecode_module_export_at(
    grt_vm_module_t* base, uint32_t ordinal) {
  grt_vm_bytecode_module_t* module = (grt_vm_bytecode_module_t*)base;
  grt_module_export_t e = grt_module_file_export(module->file, ordinal);
  grt_vm_function_t function = {
      base, ordinal, GRT_VM_FUNCTION_LINKAGE_EXPORT, e.name,
      module->functions[e.function_ordinal].calling_convention};
  return function;
}

static bool grt_vm_bytecode_module_lookup_export(
    grt_vm_module_t* base, grt_string_view_t name,
    grt_vm_function_t* out_function) {
  uint32_t count = grt_vm_bytecode_module_export_count(base);
  for (uint32_t i = 0; i < count; ++i) {
    grt_vm_function_t function = grt_vm_bytecode_module_export_at(base, i);
    if (grt_string_view_equal(function.name, name)) {
      *out_function = function;
      return true;
    }
  }
  return false;
}

static uint32_t grt_vm_bytecode_module_import_count(
    const grt_vm_module_t* base) {
  return ((const grt_vm_bytecode_module_t*)base)->layout.import_count;
}

static grt_vm_import_t grt_vm_bytecode_module_import_at(
    const grt_vm_module_t* base, uint32_t ordinal) {
  const grt_vm_bytecode_module_t* module =
      (const grt_vm_bytecode_module_t*)base;
  const grt_module_import_t* i = &module->imports[ordinal];
  grt_vm_import_t import = {i->full_name, i->calling_convention, i->optional};
  return import;
}

static void grt_vm_bytecode_module_free_state(grt_vm_module_t* base,
                                              grt_vm_module_state_t* state) {
  grt_vm_bytecode_module_t* module = (grt_vm_bytecode_module_t*)base;
  if (!state) return;
  for (uint32_t i = 0; i < module->layout.global_ref_count; ++i) {
    grt_vm_ref_release(&state->global_refs[i]);
  }
  for (uint32_t i = 0; i < module->layout.rodata_count; ++i) {
    grt_vm_ref_release(&state->rodata[i]);
  }
  grt_allocator_free(state->allocator, state->global_bytes);
  grt_allocator_free(state->allocator, state->global_refs);
  grt_allocator_free(state->allocator, state->rodata);
  grt_allocator_free(state->allocator, state->imports);
  grt_allocator_free(state->allocator, state);
}

static void grt_vm_bytecode_module_release_file(void* user_data) {
  grt_module_file_release((grt_module_file_t*)user_data);
}

static grt_status_t grt_vm_bytecode_module_fill_state(
    grt_vm_bytecode_module_t* module, grt_vm_module_state_t* state) {
  grt_allocator_t allocator = state->allocator;
  const grt_vm_bytecode_layout_t* layout = &module->layout;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc_aligned(
      allocator, layout->global_bytes, 8, (void**)&state->global_bytes));
  memset(state->global_bytes, 0, layout->global_bytes);
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      allocator, layout->global_ref_count * sizeof(grt_vm_ref_t),
      (void**)&state->global_refs));
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      allocator, layout->rodata_count * sizeof(grt_vm_ref_t),
      (void**)&state->rodata));
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      allocator, layout->import_count * sizeof(*state->imports),
      (void**)&state->imports));
  for (uint32_t i = 0; i < layout->rodata_count; ++i) {
    grt_module_rodata_t rodata = grt_module_file_rodata(module->file, i);
    grt_vm_buffer_release_callback_t release = {
        grt_vm_bytecode_module_release_file, module->file};
    grt_vm_buffer_t* buffer = NULL;
    // The file stays alive as long as any buffer over it does.
    grt_module_file_retain(module->file);
    grt_status_t status = grt_vm_buffer_wrap(
        (void*)rodata.data.data, rodata.data.size,
        GRT_VM_BUFFER_ACCESS_ORIGIN_MODULE, release, allocator, &buffer);
    if (status) {
      grt_module_file_release(module->file);
      return status;
    }
    state->rodata[i] = grt_vm_ref_wrap_move(buffer, grt_vm_buffer_type());
  }
  return grt_ok_status();
}

static grt_status_t grt_vm_bytecode_module_alloc_state(
    grt_vm_module_t* base, grt_allocator_t allocator,
    grt_vm_module_state_t** out_state) {
  grt_vm_bytecode_module_t* module = (grt_vm_bytecode_module_t*)base;
  grt_vm_module_state_t* state = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, sizeof(*state), (void**)&state));
  state->allocator = allocator;
  grt_status_t status = grt_vm_bytecode_module_fill_state(module, state);
  if (status) {
    grt_vm_bytecode_module_free_state(base, state);
    return status;
  }
  *out_state = state;
  return grt_ok_status();
}

static grt_status_t grt_vm_bytecode_module_resolve_import(
    grt_vm_module_t* base, grt_vm_module_state_t* state,
    uint32_t import_ordinal, const grt_vm_function_t* target,
    grt_vm_module_state_t* target_state) {
  grt_vm_bytecode_import_binding_t* binding = &state->imports[import_ordinal];
  binding->target = *target;
  binding->target_state = target_state;
  binding->resolved = true;
  return grt_ok_status();
}

static grt_status_t grt_vm_bytecode_module_call(grt_vm_module_t* base,
                                                grt_vm_module_state_t* state,
                                                grt_vm_stack_t* stack,
                                                const grt_vm_call_t* call) {
  grt_vm_bytecode_module_t* module = (grt_vm_bytecode_module_t*)base;
  uint32_t ordinal = call->function.ordinal;
  if (call->function.linkage == GRT_VM_FUNCTION_LINKAGE_EXPORT) {
    ordinal = grt_module_file_export(module->file, ordinal).function_ordinal;
  } else if (call->function.linkage != GRT_VM_FUNCTION_LINKAGE_INTERNAL) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "module '%.*s': expected an export or internal "
                           "function handle, got an import handle",
                           GRT_SV_ARG(base->name));
  }
  if (stack) {
    return grt_vm_bytecode_dispatch(module, state, stack, ordinal,
                                    call->arguments, call->results,
                                    GRT_VM_DISPATCH_CALL);
  }
  GRT_RETURN_IF_ERROR(
      grt_vm_stack_create(module->stack_limit, base->allocator, &stack));
  grt_status_t status =
      grt_vm_bytecode_dispatch(module, state, stack, ordinal, call->arguments,
                               call->results, GRT_VM_DISPATCH_CALL);
  grt_vm_stack_destroy(stack);
  return status;
}

static grt_status_t grt_vm_bytecode_module_begin_call(
    grt_vm_module_t* base, grt_vm_module_state_t* state,
    const grt_vm_call_t* call, grt_vm_stack_t** out_stack) {
  *out_stack = NULL;
  grt_vm_bytecode_module_t* module = (grt_vm_bytecode_module_t*)base;
  if (call->function.linkage != GRT_VM_FUNCTION_LINKAGE_EXPORT) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "module '%.*s': a resumable call takes an export "
                           "handle",
                           GRT_SV_ARG(base->name));
  }
  uint32_t ordinal =
      grt_module_file_export(module->file, call->function.ordinal).function_ordinal;
  grt_vm_stack_t* stack = NULL;
  GRT_RETURN_IF_ERROR(
      grt_vm_stack_create(module->stack_limit, base->allocator, &stack));
  grt_status_t status =
      grt_vm_bytecode_dispatch(module, state, stack, ordinal, call->arguments,
                               call->results, GRT_VM_DISPATCH_BEGIN);
  if (grt_status_code(status) == GRT_STATUS_DEFERRED) {
    *out_stack = stack;
  } else {
    grt_vm_stack_destroy(stack);
  }
  return status;
}

static grt_status_t grt_vm_bytecode_module_resume_call(
    grt_vm_module_t* base, grt_vm_module_state_t* state, grt_vm_stack_t* stack,
    const grt_vm_call_t* call) {
  return grt_vm_bytecode_dispatch((grt_vm_bytecode_module_t*)base, state, stack,
                                  0, NULL, call->results,
                                  GRT_VM_DISPATCH_RESUME);
}

static grt_status_t grt_vm_bytecode_module_initialize(
    grt_vm_module_t* base, grt_vm_module_state_t* state) {
  grt_vm_function_t init;
  if (!grt_vm_bytecode_module_lookup_export(
          base, grt_make_cstring_view("__init"), &init)) {
    return grt_ok_status();
  }
  grt_vm_call_t call = {init, NULL, 0, NULL, 0};
  return grt_vm_bytecode_module_call(base, state, NULL, &call);
}

static const grt_vm_module_vtable_t grt_vm_bytecode_module_vtable = {
    grt_vm_bytecode_module_destroy,       grt_vm_bytecode_module_export_count,
    grt_vm_bytecode_module_export_at,     grt_vm_bytecode_module_lookup_export,
    grt_vm_bytecode_module_import_count,  grt_vm_bytecode_module_import_at,
    grt_vm_bytecode_module_alloc_state,   grt_vm_bytecode_module_free_state,
    grt_vm_bytecode_module_resolve_import, grt_vm_bytecode_module_initialize,
    grt_vm_bytecode_module_call,          grt_vm_bytecode_module_begin_call,
    grt_vm_bytecode_module_resume_call,
};
