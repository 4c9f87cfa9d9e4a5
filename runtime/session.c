#include "runtime/session.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/endian.h"
#include "hal/executable.h"
// GRT_RUNTIME_CHECK_MODULE (CMake GRT_ENABLE_CHECK_MODULE, default 1): 0
// leaves the check module (test assertions) out; sessions then hold only
// the hal module.
#ifndef GRT_RUNTIME_CHECK_MODULE
#define GRT_RUNTIME_CHECK_MODULE 1
#endif
#if GRT_RUNTIME_CHECK_MODULE
#include "runtime/check_module.h"
#endif
#include "runtime/hal_module.h"
#include "runtime/session_async.h"
#include "schemas/module_file.h"
#include "schemas/module_signature.h"
#include "vm/bytecode_module.h"
#include "vm/invoke.h"
#include "vm/signature.h"

//===----------------------------------------------------------------------===//
// Instance
//===----------------------------------------------------------------------===//

struct grt_runtime_instance_t {
  atomic_uint_least32_t ref_count;
  grt_allocator_t host_allocator;
  grt_vm_instance_t* vm_instance;
  grt_hal_driver_registry_t* registry;
};

static void grt_runtime_instance_destroy(grt_runtime_instance_t* instance) {
  if (instance->registry) grt_hal_driver_registry_destroy(instance->registry);
  grt_vm_instance_release(instance->vm_instance);
  grt_allocator_free(instance->host_allocator, instance);
}

grt_status_t grt_runtime_instance_create(
    const grt_runtime_instance_options_t* options,
    grt_runtime_instance_t** out_instance) {
  *out_instance = NULL;
  grt_allocator_t host_allocator = options && options->host_allocator.vtable
                                       ? options->host_allocator
                                       : grt_allocator_system();
  grt_runtime_instance_t* instance = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(host_allocator, sizeof(*instance),
                                           (void**)&instance));
  atomic_init(&instance->ref_count, 1u);
  instance->host_allocator = host_allocator;
  grt_status_t status =
      grt_vm_instance_create(host_allocator, &instance->vm_instance);
  if (grt_status_is_ok(status)) {
    status = grt_runtime_hal_register_types(instance->vm_instance);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_driver_registry_create(host_allocator, &instance->registry);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_register_available_drivers(instance->registry);
  }
  if (!grt_status_is_ok(status)) {
    grt_runtime_instance_destroy(instance);
    return status;
  }
  *out_instance = instance;
  return grt_ok_status();
}

void grt_runtime_instance_retain(grt_runtime_instance_t* instance) {
  if (instance) {
    atomic_fetch_add_explicit(&instance->ref_count, 1u, memory_order_relaxed);
  }
}

void grt_runtime_instance_release(grt_runtime_instance_t* instance) {
  if (instance && atomic_fetch_sub_explicit(&instance->ref_count, 1u,
                                            memory_order_acq_rel) == 1u) {
    grt_runtime_instance_destroy(instance);
  }
}

grt_allocator_t grt_runtime_instance_host_allocator(
    const grt_runtime_instance_t* instance) {
  return instance->host_allocator;
}

grt_vm_instance_t* grt_runtime_instance_vm_instance(
    grt_runtime_instance_t* instance) {
  return instance->vm_instance;
}

grt_hal_driver_registry_t* grt_runtime_instance_driver_registry(
    grt_runtime_instance_t* instance) {
  return instance->registry;
}

grt_status_t grt_runtime_instance_create_device(
    grt_runtime_instance_t* instance, const char* uri,
    const grt_hal_device_options_t* options, grt_hal_device_t** out_device) {
  return grt_hal_driver_registry_create_device(
      instance->registry, uri, options, instance->host_allocator, out_device);
}

//===----------------------------------------------------------------------===//
// Session
//===----------------------------------------------------------------------===//

struct grt_runtime_session_t {
  atomic_uint_least32_t ref_count;
  grt_runtime_instance_t* instance;  // retained
  grt_hal_device_t* device;          // retained
  grt_vm_context_t* context;
  grt_vm_module_t* hal_module;   // held by the context
  grt_vm_module_t* last_module;  // the last appended; held by the context
  grt_duration_t call_timeout;   // GRT_DURATION_INFINITE: none
  // Module signatures (grt_runtime_session_add_trusted_key).
  grt_module_public_key_t* trusted_keys;
  size_t trusted_key_count;
  bool require_signed_native_code;
  // The asynchronous call thread, once the first call_async started it.
  _Atomic(grt_runtime_async_queue_t*) async_queue;
};

static void grt_runtime_session_destroy(grt_runtime_session_t* session) {
  grt_allocator_t allocator = session->instance->host_allocator;
  // First: queued calls use the context.
  grt_runtime_async_queue_destroy(atomic_load(&session->async_queue));
  grt_vm_context_release(session->context);
  grt_hal_device_release(session->device);
  grt_runtime_instance_release(session->instance);
  grt_allocator_free(allocator, session->trusted_keys);
  grt_allocator_free(allocator, session);
}

grt_status_t grt_runtime_session_create(grt_runtime_instance_t* instance,
                                        grt_hal_device_t* device,
                                        grt_runtime_session_t** out_session) {
  *out_session = NULL;
  grt_allocator_t allocator = instance->host_allocator;
  grt_vm_module_t* modules[2] = {NULL, NULL};
  GRT_RETURN_IF_ERROR(grt_runtime_hal_module_create(
      instance->vm_instance, device, allocator, &modules[0]));
#if GRT_RUNTIME_CHECK_MODULE
  grt_status_t status = grt_runtime_check_module_create(allocator, &modules[1]);
#else
  grt_status_t status = grt_ok_status();
#endif
  grt_vm_context_t* context = NULL;
  if (grt_status_is_ok(status)) {
    status = grt_vm_context_create(instance->vm_instance, modules,
                                   modules[1] ? 2 : 1, allocator, &context);
  }
  grt_runtime_session_t* session = NULL;
  if (grt_status_is_ok(status)) {
    status = grt_allocator_calloc(allocator, sizeof(*session), (void**)&session);
  }
  if (!grt_status_is_ok(status)) {
    grt_vm_context_release(context);
    if (modules[1]) grt_vm_module_release(modules[1]);
    grt_vm_module_release(modules[0]);
    return status;
  }
  atomic_init(&session->ref_count, 1u);
  atomic_init(&session->async_queue, NULL);
  session->instance = instance;
  grt_runtime_instance_retain(instance);
  session->device = device;
  grt_hal_device_retain(device);
  session->context = context;
  session->hal_module = modules[0];
  session->call_timeout = GRT_DURATION_INFINITE;
  grt_vm_module_release(modules[0]);  // the context keeps both
  if (modules[1]) grt_vm_module_release(modules[1]);
  *out_session = session;
  return grt_ok_status();
}

void grt_runtime_session_retain(grt_runtime_session_t* session) {
  if (session) {
    atomic_fetch_add_explicit(&session->ref_count, 1u, memory_order_relaxed);
  }
}

void grt_runtime_session_release(grt_runtime_session_t* session) {
  if (session && atomic_fetch_sub_explicit(&session->ref_count, 1u,
                                           memory_order_acq_rel) == 1u) {
    grt_runtime_session_destroy(session);
  }
}

grt_hal_device_t* grt_runtime_session_device(const grt_runtime_session_t* s) {
  return s->device;
}

grt_vm_context_t* grt_runtime_session_context(const grt_runtime_session_t* s) {
  return s->context;
}

// A session runs one call (or append) at a time: its VM context refuses a
// second thread (vm/context.h), reworded here for the embedding API.
static grt_status_t grt_runtime_session_enter(grt_runtime_session_t* session) {
  grt_status_t status = grt_vm_context_enter(session->context);
  if (grt_status_is_ok(status)) return status;
  grt_status_free(status);
  return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                         "session is already running a call on another "
                         "thread; use one session per thread");
}

grt_status_t grt_runtime_session_append_module(grt_runtime_session_t* session,
                                               grt_vm_module_t* module) {
  GRT_RETURN_IF_ERROR(grt_runtime_session_enter(session));
  grt_status_t status = grt_vm_context_append_module(session->context, module);
  if (grt_status_is_ok(status)) session->last_module = module;
  if (!GRT_RUNTIME_CHECK_MODULE &&
      grt_status_code(status) == GRT_STATUS_NOT_FOUND &&
      strstr(grt_status_message(status), "no module named 'check'")) {
    status = grt_status_annotate(status, "this runtime is built without the "
                                         "check module "
                                         "(GRT_ENABLE_CHECK_MODULE=OFF)");
  }
  grt_vm_context_leave(session->context);
  return status;
}

//===----------------------------------------------------------------------===//
// Executables
//===----------------------------------------------------------------------===//

// Formats a device may run, asked of its executable cache to say which ones
// it does when a module has none of them. A format missing here is still
// prepared when a module carries it; it only goes unnamed in that message.
static const char* const grt_runtime_known_formats[] = {
    "cpu-x86_64", "cpu-aarch64", "cpu-riscv64", "cpu-static",
    "cuda-ptx",   "vulkan-spirv",
};

// "a, b, c" into |out|, truncated with "..." when it does not fit.
static void grt_runtime_list_append(char* out, size_t capacity,
                                    grt_string_view_t item) {
  size_t used = strlen(out);
  if (used >= 3 && strcmp(out + used - 3, "...") == 0) return;
  int n = snprintf(out + used, capacity - used, "%s%.*s", used ? ", " : "",
                   GRT_SV_ARG(item));
  if (n < 0 || (size_t)n >= capacity - used) memcpy(out + capacity - 4, "...", 4);
}

static grt_status_t grt_runtime_incompatible_executables(
    const grt_module_file_t* file, grt_hal_device_t* device,
    grt_hal_executable_cache_t* cache) {
  // The formats below are only the message's.
  if (!GRT_STATUS_MESSAGES) return grt_make_status_code(GRT_STATUS_INCOMPATIBLE);
  const grt_module_file_info_t* info = grt_module_file_info(file);
  char module_formats[256] = "";
  for (uint32_t i = 0; i < info->executable_count; ++i) {
    grt_runtime_list_append(module_formats, sizeof(module_formats),
                            grt_module_file_executable(file, i).format);
  }
  char device_formats[256] = "";
  size_t known = sizeof(grt_runtime_known_formats) /
                 sizeof(grt_runtime_known_formats[0]);
  for (size_t i = 0; i < known; ++i) {
    grt_string_view_t format =
        grt_make_cstring_view(grt_runtime_known_formats[i]);
    if (grt_hal_executable_cache_can_prepare_format(cache, format)) {
      grt_runtime_list_append(device_formats, sizeof(device_formats), format);
    }
  }
  // A CPU device that runs only linked-in kernels: say why and what to do.
  bool static_only = strcmp(device_formats, "cpu-static") == 0;
  return grt_make_status(
      GRT_STATUS_INCOMPATIBLE,
      "module '%.*s' has executables for %s; device %s runs %s%s",
      GRT_SV_ARG(info->name), module_formats, grt_hal_device_uri(device),
      device_formats[0] ? device_formats : "none of the known formats",
      static_only ? " (this runtime loads no kernel objects: it is built with "
                    "GRT_ENABLE_ELF_LOADER=OFF, or without the dlopen loader "
                    "on a host grt's ELF loader does not relocate for; link "
                    "the kernels in with grt-compile --output-format=c-static)"
                  : "");
}

// Prepares the first executable of |file| the device runs (INCOMPATIBLE
// when it runs none) and gives its index among the file's executables in
// *out_variant. *out_executable stays NULL for a module without
// executables.
static grt_status_t grt_runtime_prepare_executable(
    grt_runtime_session_t* session, const grt_module_file_t* file,
    grt_hal_executable_t** out_executable, uint32_t* out_variant) {
  *out_executable = NULL;
  *out_variant = 0;
  const grt_module_file_info_t* info = grt_module_file_info(file);
  if (info->executable_count == 0) return grt_ok_status();
  grt_hal_executable_cache_t* cache =
      grt_hal_device_executable_cache(session->device);
  uint32_t chosen = info->executable_count;
  for (uint32_t i = 0; i < info->executable_count && chosen == info->executable_count;
       ++i) {
    if (grt_hal_executable_cache_can_prepare_format(
            cache, grt_module_file_executable(file, i).format)) {
      chosen = i;
    }
  }
  if (chosen == info->executable_count) {
    return grt_runtime_incompatible_executables(file, session->device, cache);
  }
  *out_variant = chosen;
  grt_module_executable_t executable = grt_module_file_executable(file, chosen);
  grt_allocator_t allocator = session->instance->host_allocator;
  // One block: the infos, then every entry point's minimum binding lengths
  // (the file stores them little-endian and maybe unaligned for a host
  // u64 array; the HAL copies what it keeps).
  size_t length_count = 0;
  for (uint32_t i = 0; i < executable.entry_point_count; ++i) {
    grt_module_entry_point_t entry = grt_module_file_entry_point(file, chosen, i);
    if (entry.binding_min_lengths) length_count += entry.binding_count;
  }
  size_t info_bytes = (executable.entry_point_count ? executable.entry_point_count
                                                    : 1) *
                      sizeof(grt_hal_entry_point_info_t);
  grt_hal_entry_point_info_t* entry_points = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      allocator, info_bytes + length_count * sizeof(uint64_t),
      (void**)&entry_points));
  uint64_t* lengths = (uint64_t*)((uint8_t*)entry_points + info_bytes);
  for (uint32_t i = 0; i < executable.entry_point_count; ++i) {
    grt_module_entry_point_t entry = grt_module_file_entry_point(file, chosen, i);
    entry_points[i].name = entry.name;
    entry_points[i].binding_count = entry.binding_count;
    entry_points[i].constant_count = entry.constant_count;
    memcpy(entry_points[i].workgroup_size, entry.workgroup_size,
           sizeof(entry.workgroup_size));
    // Both were checked against binding_count when the file was opened.
    entry_points[i].binding_access = entry.binding_access;
    if (entry.binding_min_lengths) {
      for (uint32_t b = 0; b < entry.binding_count; ++b) {
        lengths[b] = grt_load_le_u64(entry.binding_min_lengths + 8 * b);
      }
      entry_points[i].binding_min_lengths = lengths;
      lengths += entry.binding_count;
    }
  }
  grt_hal_executable_params_t params = {
      executable.format,
      executable.binary.data,
      executable.binary.size,
      executable.digest,
      entry_points,
      executable.entry_point_count,
  };
  grt_status_t status =
      grt_hal_executable_cache_prepare(cache, &params, out_executable);
  grt_allocator_free(allocator, entry_points);
  return grt_status_annotate(status, "preparing executable %u (%.*s) of module "
                             "'%.*s'",
                             chosen, GRT_SV_ARG(executable.format),
                             GRT_SV_ARG(info->name));
}

//===----------------------------------------------------------------------===//
// Signatures
//===----------------------------------------------------------------------===//

grt_status_t grt_runtime_session_add_trusted_key(
    grt_runtime_session_t* session, const grt_module_public_key_t* key) {
  GRT_RETURN_IF_ERROR(grt_runtime_session_enter(session));
  bool known = false;
  for (size_t i = 0; i < session->trusted_key_count && !known; ++i) {
    known = memcmp(session->trusted_keys[i].bytes, key->bytes,
                   sizeof(key->bytes)) == 0;
  }
  grt_status_t status = grt_ok_status();
  if (!known) {
    status = grt_allocator_realloc(
        session->instance->host_allocator,
        session->trusted_key_count * sizeof(*key),
        (session->trusted_key_count + 1) * sizeof(*key),
        (void**)&session->trusted_keys);
  }
  if (!known && grt_status_is_ok(status)) {
    session->trusted_keys[session->trusted_key_count++] = *key;
  }
  grt_vm_context_leave(session->context);
  return status;
}

grt_status_t grt_runtime_session_add_trusted_key_file(
    grt_runtime_session_t* session, const char* path) {
  grt_module_public_key_t key;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_module_public_key_read_file(path, session->instance->host_allocator,
                                      &key),
      "reading trusted key '%s'", path);
  return grt_runtime_session_add_trusted_key(session, &key);
}

grt_status_t grt_runtime_session_set_require_signed_native_code(
    grt_runtime_session_t* session, bool require) {
  GRT_RETURN_IF_ERROR(grt_runtime_session_enter(session));
  session->require_signed_native_code = require;
  grt_vm_context_leave(session->context);
  return grt_ok_status();
}

// The signature rules of runtime/session.h, checked before anything of
// |file| is prepared.
static grt_status_t grt_runtime_check_signature(grt_runtime_session_t* session,
                                                const grt_module_file_t* file) {
  const grt_module_file_info_t* info = grt_module_file_info(file);
  if (grt_module_file_signature(file)) {
    if (session->trusted_key_count == 0 &&
        !session->require_signed_native_code) {
      return grt_ok_status();
    }
    return grt_module_file_verify_signature(file, session->trusted_keys,
                                            session->trusted_key_count);
  }
  if (!session->require_signed_native_code || info->executable_count == 0) {
    return grt_ok_status();
  }
  char formats[256];
  size_t used = 0;
  formats[0] = '\0';
  for (uint32_t i = 0; i < info->executable_count && used < sizeof(formats);
       ++i) {
    grt_string_view_t format = grt_module_file_executable(file, i).format;
    int n = snprintf(formats + used, sizeof(formats) - used, "%s%.*s",
                     i ? ", " : "", GRT_SV_ARG(format));
    if (n < 0) break;
    used += (size_t)n;
  }
  return grt_make_status(
      GRT_STATUS_PERMISSION_DENIED,
      "module '%.*s' is not signed and has native code (executables: %s); "
      "the session requires signed native code",
      GRT_SV_ARG(info->name), formats);
}

// Takes over |file|'s reference.
static grt_status_t grt_runtime_session_append_owned_file(
    grt_runtime_session_t* session, grt_module_file_t* file) {
  grt_status_t status = grt_runtime_session_enter(session);
  if (!grt_status_is_ok(status)) {
    grt_module_file_release(file);
    return status;
  }
  grt_string_view_t name = grt_module_file_info(file)->name;
  grt_hal_executable_t* executable = NULL;
  uint32_t variant = 0;
  status = grt_runtime_check_signature(session, file);
  if (grt_status_is_ok(status)) {
    status = grt_runtime_prepare_executable(session, file, &executable, &variant);
  }
  if (grt_status_is_ok(status) && executable) {
    // Registered before the module joins the context: its initializer may
    // already look the executable up.
    status = grt_runtime_hal_module_register_executable(
        session->hal_module, name, executable, variant);
    grt_hal_executable_release(executable);
    if (!grt_status_is_ok(status)) executable = NULL;
  }
  grt_vm_module_t* module = NULL;
  if (grt_status_is_ok(status)) {
    status = grt_vm_bytecode_module_create(
        file, 0, session->instance->host_allocator, &module);
  }
  if (grt_status_is_ok(status)) {
    status = grt_runtime_session_append_module(session, module);
  }
  if (!grt_status_is_ok(status) && executable) {
    grt_runtime_hal_module_unregister_executable(session->hal_module, name);
  }
  if (module) grt_vm_module_release(module);
  grt_module_file_release(file);
  grt_vm_context_leave(session->context);
  return status;
}

grt_status_t grt_runtime_session_append_module_file(
    grt_runtime_session_t* session, grt_module_file_t* file) {
  grt_module_file_retain(file);
  return grt_runtime_session_append_owned_file(session, file);
}

grt_status_t grt_runtime_session_append_module_from_file(
    grt_runtime_session_t* session, const char* path) {
  grt_module_file_t* file = NULL;
  GRT_RETURN_IF_ERROR(grt_module_file_open_path(
      path, session->instance->host_allocator, &file));
  return grt_status_annotate(grt_runtime_session_append_owned_file(session, file),
                             "appending module file '%s'", path);
}

grt_status_t grt_runtime_session_append_module_from_memory(
    grt_runtime_session_t* session, grt_const_byte_span_t contents) {
  grt_module_file_t* file = NULL;
  GRT_RETURN_IF_ERROR(grt_module_file_open_memory(
      contents, session->instance->host_allocator, &file));
  return grt_runtime_session_append_owned_file(session, file);
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

static grt_status_t grt_runtime_session_lookup_function_entered(
    grt_runtime_session_t* session, const char* name,
    grt_vm_function_t* out_function);

grt_status_t grt_runtime_session_lookup_function(
    grt_runtime_session_t* session, const char* name,
    grt_vm_function_t* out_function) {
  GRT_RETURN_IF_ERROR_ANNOTATED(grt_runtime_session_enter(session),
                                "looking up '%s'", name);
  grt_status_t status =
      grt_runtime_session_lookup_function_entered(session, name, out_function);
  grt_vm_context_leave(session->context);
  return status;
}

static grt_status_t grt_runtime_session_lookup_function_entered(
    grt_runtime_session_t* session, const char* name,
    grt_vm_function_t* out_function) {
  grt_string_view_t full_name = grt_make_cstring_view(name);
  if (memchr(full_name.data, '.', full_name.size)) {
    return grt_vm_context_resolve_function(session->context, full_name,
                                           out_function);
  }
  if (!session->last_module) {
    return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                           "cannot look up '%s': no module has been appended "
                           "to the session (use 'module.function' for the "
                           "hal and check modules)",
                           name);
  }
  return grt_vm_module_lookup_function(session->last_module, full_name,
                                       out_function);
}

grt_status_t grt_runtime_session_call(grt_runtime_session_t* session,
                                      const grt_vm_function_t* function,
                                      const grt_vm_list_t* inputs,
                                      grt_vm_list_t* outputs) {
  GRT_RETURN_IF_ERROR_ANNOTATED(grt_runtime_session_enter(session),
                                "calling '%.*s.%.*s'",
                                GRT_SV_ARG(function->module->name),
                                GRT_SV_ARG(function->name));
  bool bounded = session->call_timeout != GRT_DURATION_INFINITE;
  if (bounded) {
    grt_runtime_hal_module_set_call_deadline(
        session->hal_module, grt_deadline_from_timeout_ns(session->call_timeout),
        session->call_timeout);
  }
  // Resumed at once each time it yields (vm.yield, a yieldable import that
  // deferred), so sessions run yielding functions to completion.
  grt_status_t status = grt_vm_invoke_to_completion(
      session->context, function, inputs, outputs,
      session->instance->host_allocator, NULL);
  if (bounded) {
    grt_runtime_hal_module_set_call_deadline(
        session->hal_module, GRT_TIME_INFINITE_FUTURE, GRT_DURATION_INFINITE);
  }
  grt_vm_context_leave(session->context);
  return status;
}

grt_status_t grt_runtime_session_call_async(grt_runtime_session_t* session,
                                            const grt_vm_function_t* function,
                                            grt_vm_list_t* inputs,
                                            grt_hal_fence_t* wait_fence,
                                            grt_hal_fence_t* signal_fence,
                                            grt_vm_list_t* outputs) {
  if (!signal_fence) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "asynchronous call to '%.*s.%.*s': expected a "
                           "signal fence (the only way to learn the call "
                           "ended), got NULL",
                           GRT_SV_ARG(function->module->name),
                           GRT_SV_ARG(function->name));
  }
  grt_vm_signature_t signature;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_vm_signature_parse(function->calling_convention, &signature),
      "asynchronous call to '%.*s.%.*s'", GRT_SV_ARG(function->module->name),
      GRT_SV_ARG(function->name));
  if (signature.results.size > 0 && !outputs) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "asynchronous call to '%.*s.%.*s': it returns %zu "
                           "values but no output list was given",
                           GRT_SV_ARG(function->module->name),
                           GRT_SV_ARG(function->name), signature.results.size);
  }
  grt_runtime_async_queue_t* queue = atomic_load(&session->async_queue);
  if (!queue) {
    GRT_RETURN_IF_ERROR(grt_runtime_async_queue_create(
        session, session->instance->host_allocator, &queue));
    grt_runtime_async_queue_t* expected = NULL;
    if (!atomic_compare_exchange_strong(&session->async_queue, &expected,
                                        queue)) {
      // Another thread started one first: use that.
      grt_runtime_async_queue_destroy(queue);
      queue = expected;
    }
  }
  return grt_runtime_async_queue_push(queue, function, inputs, wait_fence,
                                      signal_fence, outputs);
}

grt_status_t grt_runtime_session_set_call_timeout(
    grt_runtime_session_t* session, grt_duration_t timeout_ns) {
  if (timeout_ns <= 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "call timeout must be positive (or "
                           "GRT_DURATION_INFINITE for none), got %lld ns",
                           (long long)timeout_ns);
  }
  GRT_RETURN_IF_ERROR(grt_runtime_session_enter(session));
  session->call_timeout = timeout_ns;
  grt_vm_context_leave(session->context);
  return grt_ok_status();
}

grt_status_t grt_runtime_call(grt_runtime_session_t* session, const char* name,
                              const grt_vm_list_t* inputs,
                              grt_vm_list_t* outputs) {
  grt_vm_function_t function;
  GRT_RETURN_IF_ERROR(
      grt_runtime_session_lookup_function(session, name, &function));
  return grt_runtime_session_call(session, &function, inputs, outputs);
}

// Moves the results in |list| to |outputs| as buffer views.
static grt_status_t grt_runtime_take_buffer_views(
    const char* name, grt_vm_list_t* list, size_t output_capacity,
    grt_hal_buffer_view_t** outputs, size_t* out_output_count) {
  size_t count = grt_vm_list_size(list);
  if (count > output_capacity) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "'%s' returned %zu values, but there is room for "
                           "%zu",
                           name, count, output_capacity);
  }
  grt_status_t status = grt_ok_status();
  size_t taken = 0;
  for (; taken < count && grt_status_is_ok(status); ++taken) {
    grt_vm_variant_t value = grt_vm_variant_empty();
    status = grt_vm_list_get_variant_assign(list, taken, &value);
    grt_hal_buffer_view_t* view =
        grt_status_is_ok(status) && value.type == GRT_VM_VALUE_TYPE_REF
            ? grt_vm_ref_as(&value.ref, &grt_runtime_hal_buffer_view_type)
            : NULL;
    if (grt_status_is_ok(status) && !view) {
      char type[GRT_VM_TYPE_NAME_CAPACITY];
      status = grt_make_status(
          GRT_STATUS_INVALID_ARGUMENT,
          "result %zu of '%s' is %s, expected ref<hal.buffer_view>", taken,
          name, grt_vm_variant_format_type(&value, type, sizeof(type)));
    }
    if (grt_status_is_ok(status)) {
      grt_hal_buffer_view_retain(view);
      outputs[taken] = view;
    }
    grt_vm_variant_reset(&value);
  }
  if (!grt_status_is_ok(status)) {
    // |taken| counts the failed one too.
    for (size_t i = 0; i + 1 < taken; ++i) {
      grt_hal_buffer_view_release(outputs[i]);
      outputs[i] = NULL;
    }
    return status;
  }
  *out_output_count = count;
  return grt_ok_status();
}

grt_status_t grt_runtime_call_buffer_views(
    grt_runtime_session_t* session, const char* name, size_t input_count,
    grt_hal_buffer_view_t* const* inputs, size_t output_capacity,
    grt_hal_buffer_view_t** outputs, size_t* out_output_count) {
  *out_output_count = 0;
  grt_vm_function_t function;
  GRT_RETURN_IF_ERROR(
      grt_runtime_session_lookup_function(session, name, &function));
  grt_allocator_t allocator = session->instance->host_allocator;
  grt_vm_list_t* input_list = NULL;
  grt_vm_list_t* output_list = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_list_create(grt_vm_type_def_variant(),
                                         input_count, allocator, &input_list));
  grt_status_t status = grt_vm_list_create(grt_vm_type_def_variant(),
                                           output_capacity, allocator,
                                           &output_list);
  for (size_t i = 0; i < input_count && grt_status_is_ok(status); ++i) {
    grt_vm_ref_t ref = grt_runtime_buffer_view_ref_retain(inputs[i]);
    grt_vm_variant_t value = grt_vm_variant_ref_move(&ref);
    status = grt_vm_list_push_variant(input_list, &value);
    grt_vm_variant_reset(&value);
  }
  if (grt_status_is_ok(status)) {
    status = grt_runtime_session_call(session, &function, input_list,
                                      output_list);
  }
  if (grt_status_is_ok(status)) {
    status = grt_runtime_take_buffer_views(name, output_list, output_capacity,
                                           outputs, out_output_count);
  }
  grt_vm_list_release(output_list);
  grt_vm_list_release(input_list);
  return status;
}
