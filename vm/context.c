#include "vm/context.h"

#include <stdatomic.h>
#include <string.h>

#include "vm/name_list.h"
#include "vm/signature.h"

struct grt_vm_context_t {
  atomic_uint_least32_t ref_count;
  grt_allocator_t allocator;
  grt_vm_instance_t* instance;
  size_t module_count;  // modules retained so far
  grt_vm_module_t** modules;
  grt_vm_module_state_t** states;
  size_t state_count;  // states[0, state_count) were allocated
  // The thread running a call in the context (the address of its
  // grt_vm_context_thread_token), or 0; |depth| counts that thread's nested
  // enters and is touched only by it.
  atomic_uintptr_t owner;
  uint32_t depth;
};

// One byte per thread; its address identifies the thread.
static _Thread_local char grt_vm_context_thread_token;

grt_status_t grt_vm_context_enter(grt_vm_context_t* context) {
  uintptr_t self = (uintptr_t)&grt_vm_context_thread_token;
  uintptr_t expected = 0;
  if (atomic_compare_exchange_strong_explicit(&context->owner, &expected, self,
                                              memory_order_acquire,
                                              memory_order_relaxed)) {
    context->depth = 1;
    return grt_ok_status();
  }
  if (expected == self) {  // a nested call on the owning thread
    ++context->depth;
    return grt_ok_status();
  }
  return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                         "VM context is already running a call on another "
                         "thread; use one context (one runtime session) per "
                         "thread");
}

void grt_vm_context_leave(grt_vm_context_t* context) {
  if (--context->depth == 0) {
    atomic_store_explicit(&context->owner, 0, memory_order_release);
  }
}

static void grt_vm_context_destroy(grt_vm_context_t* context) {
  // Reverse order: a module's state may still reference states of the
  // modules it imported from.
  for (size_t i = context->state_count; i-- > 0;) {
    grt_vm_module_t* module = context->modules[i];
    module->vtable->free_state(module, context->states[i]);
  }
  for (size_t i = context->module_count; i-- > 0;) {
    grt_vm_module_release(context->modules[i]);
  }
  grt_allocator_free(context->allocator, context->modules);
  grt_allocator_free(context->allocator, context->states);
  grt_vm_instance_release(context->instance);
  grt_allocator_free(context->allocator, context);
}

void grt_vm_context_retain(grt_vm_context_t* context) {
  if (context) {
    atomic_fetch_add_explicit(&context->ref_count, 1u, memory_order_relaxed);
  }
}

void grt_vm_context_release(grt_vm_context_t* context) {
  if (context && atomic_fetch_sub_explicit(&context->ref_count, 1u,
                                           memory_order_acq_rel) == 1u) {
    grt_vm_context_destroy(context);
  }
}

// Splits "module.function" at the first '.'; false if there is none.
static bool grt_vm_split_full_name(grt_string_view_t full_name,
                                   grt_string_view_t* out_module,
                                   grt_string_view_t* out_function) {
  const char* dot = full_name.size ? memchr(full_name.data, '.', full_name.size)
                                   : NULL;
  if (!dot) return false;
  size_t module_size = (size_t)(dot - full_name.data);
  *out_module = grt_make_string_view(full_name.data, module_size);
  *out_function = grt_make_string_view(dot + 1, full_name.size - module_size - 1);
  return true;
}

// The index of the module named |name| among modules[0, count), or count.
static size_t grt_vm_context_find_module(grt_vm_module_t* const* modules,
                                         size_t count, grt_string_view_t name) {
  for (size_t i = 0; i < count; ++i) {
    if (grt_string_view_equal(modules[i]->name, name)) return i;
  }
  return count;
}

static const char* grt_vm_context_format_modules(
    grt_vm_module_t* const* modules, size_t count, char* buffer,
    size_t capacity) {
  grt_vm_name_list_t list;
  grt_vm_name_list_begin(&list, buffer, capacity);
  for (size_t i = 0; i < count; ++i) {
    grt_vm_name_list_append(&list, modules[i]->name);
  }
  return grt_vm_name_list_end(&list);
}

// Resolves import |ordinal| of module |index| against modules[0, index).
static grt_status_t grt_vm_context_resolve_import(
    grt_vm_context_t* context, grt_vm_module_t* const* all_modules,
    size_t all_count, size_t index, uint32_t ordinal) {
  grt_vm_module_t* module = context->modules[index];
  grt_vm_import_t import = module->vtable->import_at(module, ordinal);
  grt_string_view_t target_name;
  grt_string_view_t function_name;
  if (!grt_vm_split_full_name(import.full_name, &target_name, &function_name)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "module '%.*s' imports '%.*s', which is not a full "
                           "name 'module.function'",
                           GRT_SV_ARG(module->name), GRT_SV_ARG(import.full_name));
  }
  size_t target_index =
      grt_vm_context_find_module(context->modules, index, target_name);
  if (target_index == index) {
    if (import.optional) return grt_ok_status();
    char known[GRT_VM_NAME_LIST_CAPACITY];
    bool registered_later =
        grt_vm_context_find_module(all_modules, all_count, target_name) <
        all_count;
    return grt_make_status(
        GRT_STATUS_NOT_FOUND,
        "module '%.*s' imports '%.*s' but no module named '%.*s' is "
        "registered before it%s; registered before it: %s",
        GRT_SV_ARG(module->name), GRT_SV_ARG(import.full_name),
        GRT_SV_ARG(target_name),
        registered_later ? " (it comes later: list dependencies first)" : "",
        grt_vm_context_format_modules(context->modules, index, known,
                                      sizeof(known)));
  }
  grt_vm_module_t* target_module = context->modules[target_index];
  grt_vm_function_t target;
  if (!target_module->vtable->lookup_export(target_module, function_name,
                                            &target)) {
    if (import.optional) return grt_ok_status();
    char exports[GRT_VM_NAME_LIST_CAPACITY];
    return grt_make_status(
        GRT_STATUS_NOT_FOUND,
        "module '%.*s' imports '%.*s' but module '%.*s' does not export "
        "'%.*s'; it exports: %s",
        GRT_SV_ARG(module->name), GRT_SV_ARG(import.full_name),
        GRT_SV_ARG(target_name), GRT_SV_ARG(function_name),
        grt_vm_module_format_exports(target_module, exports, sizeof(exports)));
  }
  grt_vm_signature_t expected;
  grt_vm_signature_t exported;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_vm_signature_parse(import.calling_convention, &expected),
      "import '%.*s' of module '%.*s'", GRT_SV_ARG(import.full_name),
      GRT_SV_ARG(module->name));
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_vm_signature_parse(target.calling_convention, &exported),
      "export '%.*s' of module '%.*s'", GRT_SV_ARG(target.name),
      GRT_SV_ARG(target_name));
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_vm_signature_check_import(import.full_name, &expected, target_name,
                                    &exported),
      "in module '%.*s'", GRT_SV_ARG(module->name));
  return module->vtable->resolve_import(module, context->states[index], ordinal,
                                        &target, context->states[target_index]);
}

// Allocates, links and initializes module |index|.
static grt_status_t grt_vm_context_link_module(
    grt_vm_context_t* context, grt_vm_module_t* const* all_modules,
    size_t all_count, size_t index) {
  grt_vm_module_t* module = context->modules[index];
  GRT_RETURN_IF_ERROR_ANNOTATED(
      module->vtable->alloc_state(module, context->allocator,
                                  &context->states[index]),
      "allocating the state of module '%.*s'", GRT_SV_ARG(module->name));
  context->state_count = index + 1;
  uint32_t import_count = module->vtable->import_count(module);
  for (uint32_t i = 0; i < import_count; ++i) {
    GRT_RETURN_IF_ERROR(grt_vm_context_resolve_import(context, all_modules,
                                                      all_count, index, i));
  }
  GRT_RETURN_IF_ERROR_ANNOTATED(
      module->vtable->initialize(module, context->states[index]),
      "initializing module '%.*s'", GRT_SV_ARG(module->name));
  return grt_ok_status();
}

static grt_status_t grt_vm_context_check_names(grt_vm_module_t* const* modules,
                                               size_t count) {
  for (size_t i = 0; i < count; ++i) {
    grt_string_view_t name = modules[i]->name;
    if (name.size == 0 || memchr(name.data, '.', name.size) != NULL) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "module %zu: name '%.*s' must be non-empty and "
                             "contain no '.'",
                             i, GRT_SV_ARG(name));
    }
    size_t first = grt_vm_context_find_module(modules, i, name);
    if (first != i) {
      return grt_make_status(GRT_STATUS_ALREADY_EXISTS,
                             "module '%.*s' is given twice (positions %zu and "
                             "%zu)",
                             GRT_SV_ARG(name), first, i);
    }
  }
  return grt_ok_status();
}

grt_status_t grt_vm_context_create(grt_vm_instance_t* instance,
                                   grt_vm_module_t* const* modules,
                                   size_t module_count,
                                   grt_allocator_t allocator,
                                   grt_vm_context_t** out_context) {
  *out_context = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_context_check_names(modules, module_count));
  grt_vm_context_t* context = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, sizeof(*context), (void**)&context));
  atomic_init(&context->ref_count, 1u);
  atomic_init(&context->owner, (uintptr_t)0);
  context->allocator = allocator;
  context->instance = instance;
  grt_vm_instance_retain(instance);
  grt_status_t status = grt_allocator_calloc(
      allocator, module_count * sizeof(*context->modules),
      (void**)&context->modules);
  if (grt_status_is_ok(status)) {
    status = grt_allocator_calloc(allocator,
                                  module_count * sizeof(*context->states),
                                  (void**)&context->states);
  }
  for (size_t i = 0; grt_status_is_ok(status) && i < module_count; ++i) {
    grt_vm_module_retain(modules[i]);
    context->modules[i] = modules[i];
    context->module_count = i + 1;
  }
  for (size_t i = 0; grt_status_is_ok(status) && i < module_count; ++i) {
    status = grt_vm_context_link_module(context, modules, module_count, i);
  }
  if (!grt_status_is_ok(status)) {
    grt_vm_context_destroy(context);
    return status;
  }
  *out_context = context;
  return grt_ok_status();
}

static grt_status_t grt_vm_context_append_module_entered(
    grt_vm_context_t* context, grt_vm_module_t* module);

grt_status_t grt_vm_context_append_module(grt_vm_context_t* context,
                                          grt_vm_module_t* module) {
  GRT_RETURN_IF_ERROR(grt_vm_context_enter(context));
  grt_status_t status = grt_vm_context_append_module_entered(context, module);
  grt_vm_context_leave(context);
  return status;
}

static grt_status_t grt_vm_context_append_module_entered(
    grt_vm_context_t* context, grt_vm_module_t* module) {
  size_t count = context->module_count;
  grt_string_view_t name = module->name;
  if (name.size == 0 || memchr(name.data, '.', name.size) != NULL) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "module %zu: name '%.*s' must be non-empty and "
                           "contain no '.'",
                           count, GRT_SV_ARG(name));
  }
  size_t first = grt_vm_context_find_module(context->modules, count, name);
  if (first != count) {
    return grt_make_status(GRT_STATUS_ALREADY_EXISTS,
                           "module '%.*s' is already in the context (position "
                           "%zu)",
                           GRT_SV_ARG(name), first);
  }
  // Grown one slot at a time: appends are rare (module loading). A failed
  // append may leave a spare slot behind, which the counts ignore.
  GRT_RETURN_IF_ERROR(grt_allocator_realloc(
      context->allocator, count * sizeof(*context->modules),
      (count + 1) * sizeof(*context->modules), (void**)&context->modules));
  GRT_RETURN_IF_ERROR(grt_allocator_realloc(
      context->allocator, count * sizeof(*context->states),
      (count + 1) * sizeof(*context->states), (void**)&context->states));
  context->states[count] = NULL;
  grt_vm_module_retain(module);
  context->modules[count] = module;
  context->module_count = count + 1;
  grt_status_t status =
      grt_vm_context_link_module(context, context->modules, count + 1, count);
  if (!grt_status_is_ok(status)) {
    if (context->state_count > count) {
      module->vtable->free_state(module, context->states[count]);
      context->state_count = count;
    }
    context->states[count] = NULL;
    context->modules[count] = NULL;
    context->module_count = count;
    grt_vm_module_release(module);
  }
  return status;
}

grt_vm_instance_t* grt_vm_context_instance(const grt_vm_context_t* context) {
  return context->instance;
}

size_t grt_vm_context_module_count(const grt_vm_context_t* context) {
  return context->module_count;
}

grt_vm_module_t* grt_vm_context_module_at(const grt_vm_context_t* context,
                                          size_t index) {
  return context->modules[index];
}

grt_vm_module_state_t* grt_vm_context_state_at(const grt_vm_context_t* context,
                                               size_t index) {
  return context->states[index];
}

grt_vm_module_state_t* grt_vm_context_state_of(const grt_vm_context_t* context,
                                               const grt_vm_module_t* module) {
  for (size_t i = 0; i < context->module_count; ++i) {
    if (context->modules[i] == module) return context->states[i];
  }
  return NULL;
}

grt_status_t grt_vm_context_resolve_function(const grt_vm_context_t* context,
                                             grt_string_view_t full_name,
                                             grt_vm_function_t* out_function) {
  grt_string_view_t module_name;
  grt_string_view_t function_name;
  if (!grt_vm_split_full_name(full_name, &module_name, &function_name)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "function name '%.*s' is not a full name "
                           "'module.function'",
                           GRT_SV_ARG(full_name));
  }
  size_t index = grt_vm_context_find_module(context->modules,
                                            context->module_count, module_name);
  if (index == context->module_count) {
    char known[GRT_VM_NAME_LIST_CAPACITY];
    return grt_make_status(
        GRT_STATUS_NOT_FOUND,
        "no module named '%.*s' in the context (looking up '%.*s'); modules: %s",
        GRT_SV_ARG(module_name), GRT_SV_ARG(full_name),
        grt_vm_context_format_modules(context->modules, context->module_count,
                                      known, sizeof(known)));
  }
  return grt_vm_module_lookup_function(context->modules[index], function_name,
                                       out_function);
}
