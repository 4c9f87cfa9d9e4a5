#include "vm/invoke.h"

#include <string.h>

#include "base/time.h"
#include "base/trace.h"
#include "vm/signature.h"
#include "vm/stack.h"
#include "vm/variant.h"

// What a walk over the argument types does at each value.
typedef enum grt_vm_invoke_walk_e {
  GRT_VM_INVOKE_MEASURE,  // check inputs, compute the packed size
  GRT_VM_INVOKE_PACK,     // as MEASURE, and write values (retaining refs)
  GRT_VM_INVOKE_RELEASE,  // release the refs a PACK walk wrote
} grt_vm_invoke_walk_t;

typedef struct grt_vm_invoke_packer_t {
  const grt_vm_function_t* function;
  const grt_vm_list_t* inputs;
  grt_vm_invoke_walk_t walk;
  uint8_t* packed;       // NULL while measuring
  size_t size;           // bytes placed so far
  size_t input_index;    // next input to consume
} grt_vm_invoke_packer_t;

static size_t grt_vm_invoke_input_count(const grt_vm_invoke_packer_t* packer) {
  return packer->inputs ? grt_vm_list_size(packer->inputs) : 0;
}

// Places one value of |type|; |out_i32| receives it when it is an i32 (the
// count of a span).
static grt_status_t grt_vm_invoke_pack_value(grt_vm_invoke_packer_t* packer,
                                             grt_vm_value_type_t type,
                                             int32_t* out_i32) {
  size_t offset = grt_vm_packed_place(&packer->size, type);
  uint8_t* slot = packer->packed ? packer->packed + offset : NULL;
  if (packer->walk == GRT_VM_INVOKE_RELEASE) {
    if (type == GRT_VM_VALUE_TYPE_REF) grt_vm_ref_release((grt_vm_ref_t*)slot);
    if (type == GRT_VM_VALUE_TYPE_I32) memcpy(out_i32, slot, sizeof(*out_i32));
    return grt_ok_status();
  }
  size_t index = packer->input_index++;
  if (index >= grt_vm_invoke_input_count(packer)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%.*s: argument %zu (%s) is missing: %zu given",
                           GRT_SV_ARG(packer->function->name), index,
                           grt_vm_value_type_name(type),
                           grt_vm_invoke_input_count(packer));
  }
  grt_vm_variant_t value = grt_vm_variant_empty();
  GRT_RETURN_IF_ERROR(
      grt_vm_list_get_variant_assign(packer->inputs, index, &value));
  if (value.type != type) {
    char given[GRT_VM_TYPE_NAME_CAPACITY];
    grt_status_t status = grt_make_status(
        GRT_STATUS_INVALID_ARGUMENT, "%.*s: argument %zu: expected %s, got %s",
        GRT_SV_ARG(packer->function->name), index, grt_vm_value_type_name(type),
        grt_vm_variant_format_type(&value, given, sizeof(given)));
    grt_vm_variant_reset(&value);
    return status;
  }
  if (type == GRT_VM_VALUE_TYPE_I32) *out_i32 = value.i32;
  if (slot == NULL) {
    grt_vm_variant_reset(&value);
  } else if (type == GRT_VM_VALUE_TYPE_REF) {
    // The packed buffer keeps the reference until the RELEASE walk.
    memcpy(slot, &value.ref, sizeof(value.ref));
  } else {
    memcpy(slot, &value.i64, grt_vm_value_type_size(type));
  }
  return grt_ok_status();
}

static grt_status_t grt_vm_invoke_pack_char(grt_vm_invoke_packer_t* packer,
                                            char ch, int32_t* out_i32) {
  grt_vm_value_type_t type = GRT_VM_VALUE_TYPE_NONE;
  grt_vm_value_type_from_cconv_char(ch, &type);
  return grt_vm_invoke_pack_value(packer, type, out_i32);
}

// Walks a validated argument run; spans read their count from the inputs
// (or, when releasing, from the packed buffer).
static grt_status_t grt_vm_invoke_walk(grt_vm_invoke_packer_t* packer,
                                       grt_string_view_t types) {
  packer->size = 0;
  packer->input_index = 0;
  for (size_t i = 0; i < types.size; ++i) {
    int32_t scalar = 0;
    if (types.data[i] != 'C') {
      GRT_RETURN_IF_ERROR(grt_vm_invoke_pack_char(packer, types.data[i], &scalar));
      continue;
    }
    size_t count_index = packer->input_index;
    int32_t count = 0;
    GRT_RETURN_IF_ERROR(
        grt_vm_invoke_pack_value(packer, GRT_VM_VALUE_TYPE_I32, &count));
    if (count < 0) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%.*s: argument %zu: variadic span count %d is "
                             "negative",
                             GRT_SV_ARG(packer->function->name), count_index,
                             (int)count);
    }
    size_t end = i + 1;
    while (types.data[end] != 'D') ++end;
    for (int32_t n = 0; n < count; ++n) {
      for (size_t j = i + 1; j < end; ++j) {
        GRT_RETURN_IF_ERROR(
            grt_vm_invoke_pack_char(packer, types.data[j], &scalar));
      }
    }
    i = end;
  }
  if (packer->walk != GRT_VM_INVOKE_RELEASE &&
      packer->input_index != grt_vm_invoke_input_count(packer)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%.*s: expected %zu arguments, got %zu",
                           GRT_SV_ARG(packer->function->name),
                           packer->input_index,
                           grt_vm_invoke_input_count(packer));
  }
  packer->size = grt_vm_packed_finish(packer->size);
  return grt_ok_status();
}

// Appends every result to |outputs|, moving ref results out of |packed| so
// that all of them are released even when appending fails.
static grt_status_t grt_vm_invoke_unpack(const grt_vm_function_t* function,
                                         grt_string_view_t types,
                                         uint8_t* packed,
                                         grt_vm_list_t* outputs) {
  grt_status_t status = grt_ok_status();
  size_t size = 0;
  for (size_t i = 0; i < types.size; ++i) {
    grt_vm_variant_t value = grt_vm_variant_empty();
    grt_vm_value_type_from_cconv_char(types.data[i], &value.type);
    uint8_t* slot = packed + grt_vm_packed_place(&size, value.type);
    if (value.type == GRT_VM_VALUE_TYPE_REF) {
      memcpy(&value.ref, slot, sizeof(value.ref));
    } else {
      memcpy(&value.i64, slot, grt_vm_value_type_size(value.type));
    }
    if (grt_status_is_ok(status)) {
      status = grt_status_annotate(grt_vm_list_push_variant(outputs, &value),
                                   "%.*s: result %zu", GRT_SV_ARG(function->name),
                                   i);
    }
    grt_vm_variant_reset(&value);
  }
  return status;
}

static grt_status_t grt_vm_invoke_call(grt_vm_context_t* context,
                                       const grt_vm_function_t* function,
                                       const grt_vm_signature_t* signature,
                                       uint8_t* arguments, size_t argument_bytes,
                                       grt_vm_list_t* outputs,
                                       grt_allocator_t allocator) {
  uint8_t* results = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc_aligned(
      allocator, signature->result_bytes, GRT_VM_PACKED_ALIGNMENT,
      (void**)&results));
  memset(results, 0, signature->result_bytes);
  grt_vm_call_t call = {*function, arguments, argument_bytes, results,
                        signature->result_bytes};
  grt_vm_module_t* module = function->module;
  grt_status_t status = module->vtable->call(
      module, grt_vm_context_state_of(context, module), NULL, &call);
  if (grt_status_is_ok(status)) {
    status = grt_vm_invoke_unpack(function, signature->results, results, outputs);
  } else {
    status = grt_status_annotate(status, "in invocation of '%.*s.%.*s'",
                                 GRT_SV_ARG(module->name),
                                 GRT_SV_ARG(function->name));
  }
  grt_allocator_free(allocator, results);
  return status;
}

static bool grt_vm_context_has_module(const grt_vm_context_t* context,
                                      const grt_vm_module_t* module) {
  for (size_t i = 0; i < grt_vm_context_module_count(context); ++i) {
    if (grt_vm_context_module_at(context, i) == module) return true;
  }
  return false;
}

static grt_status_t grt_vm_invoke_entered(grt_vm_context_t* context,
                                          const grt_vm_function_t* function,
                                          const grt_vm_list_t* inputs,
                                          grt_vm_list_t* outputs,
                                          grt_allocator_t allocator);

// The CALL event (base/trace.h) a traced invocation records around itself.
static void grt_vm_invoke_trace_start(const grt_vm_function_t* function,
                                      grt_trace_event_t* out_event) {
  memset(out_event, 0, sizeof(*out_event));
  out_event->kind = GRT_TRACE_EVENT_CALL;
  out_event->name = function->name;
  out_event->detail = function->module->name;
  out_event->worker_id = GRT_TRACE_NO_WORKER;
  out_event->start_ns = grt_time_now_ns();
}

static void grt_vm_invoke_trace_end(grt_trace_event_t* event) {
  event->end_ns = grt_time_now_ns();
  grt_trace_record(event);
}

// grt_vm_invoke while tracing: one CALL event around it.
static grt_status_t grt_vm_invoke_traced(grt_vm_context_t* context,
                                         const grt_vm_function_t* function,
                                         const grt_vm_list_t* inputs,
                                         grt_vm_list_t* outputs,
                                         grt_allocator_t allocator) {
  grt_trace_event_t event;
  grt_vm_invoke_trace_start(function, &event);
  grt_status_t status =
      grt_vm_invoke_entered(context, function, inputs, outputs, allocator);
  grt_vm_invoke_trace_end(&event);
  return status;
}

grt_status_t grt_vm_invoke(grt_vm_context_t* context,
                           const grt_vm_function_t* function,
                           const grt_vm_list_t* inputs,
                           grt_vm_list_t* outputs, grt_allocator_t allocator) {
  GRT_RETURN_IF_ERROR_ANNOTATED(grt_vm_context_enter(context),
                                "invoking '%.*s.%.*s'",
                                GRT_SV_ARG(function->module->name),
                                GRT_SV_ARG(function->name));
  // The VM sets the thread's source location at each import call while
  // tracing; it is put back as it was, whether tracing was on at the start
  // or turned on during the call, so nothing recorded later is attributed
  // to this call's last op (nor reads the module after it is gone).
  grt_string_view_t outer_location = grt_trace_location();
  grt_status_t status =
      grt_trace_enabled()
          ? grt_vm_invoke_traced(context, function, inputs, outputs, allocator)
          : grt_vm_invoke_entered(context, function, inputs, outputs,
                                  allocator);
  grt_trace_set_location(outer_location);
  grt_vm_context_leave(context);
  return status;
}

// What every invocation starts with: checks |function| against |context|
// and |outputs|, then packs |inputs| into a zeroed buffer from |allocator|
// (packer->packed; packer->size its bytes) for the call. On failure nothing
// is left to release.
static grt_status_t grt_vm_invoke_prepare(grt_vm_context_t* context,
                                          const grt_vm_function_t* function,
                                          const grt_vm_list_t* inputs,
                                          grt_vm_list_t* outputs,
                                          grt_allocator_t allocator,
                                          grt_vm_signature_t* out_signature,
                                          grt_vm_invoke_packer_t* out_packer) {
  if (!grt_vm_context_has_module(context, function->module)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%.*s: its module '%.*s' is not part of the context",
                           GRT_SV_ARG(function->name),
                           GRT_SV_ARG(function->module->name));
  }
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_vm_signature_parse(function->calling_convention, out_signature),
      "%.*s", GRT_SV_ARG(function->name));
  if (out_signature->results.size > 0 && outputs == NULL) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%.*s: returns %zu values but no output list was "
                           "given",
                           GRT_SV_ARG(function->name),
                           out_signature->results.size);
  }
  grt_vm_invoke_packer_t packer = {function, inputs, GRT_VM_INVOKE_MEASURE,
                                   NULL, 0, 0};
  GRT_RETURN_IF_ERROR(grt_vm_invoke_walk(&packer, out_signature->arguments));
  size_t argument_bytes = packer.size;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      allocator, argument_bytes ? argument_bytes : 1, (void**)&packer.packed));
  packer.walk = GRT_VM_INVOKE_PACK;
  grt_status_t status = grt_vm_invoke_walk(&packer, out_signature->arguments);
  if (!grt_status_is_ok(status)) {
    // The zeroed buffer makes releasing safe after a partial PACK walk:
    // slots not yet written hold null refs and zero counts.
    packer.walk = GRT_VM_INVOKE_RELEASE;
    grt_status_free(grt_vm_invoke_walk(&packer, out_signature->arguments));
    grt_allocator_free(allocator, packer.packed);
    return status;
  }
  packer.size = argument_bytes;
  *out_packer = packer;
  return grt_ok_status();
}

// Releases the packed arguments of grt_vm_invoke_prepare (their refs).
static void grt_vm_invoke_release_arguments(grt_vm_invoke_packer_t* packer,
                                            grt_string_view_t types,
                                            grt_allocator_t allocator) {
  if (!packer->packed) return;
  packer->walk = GRT_VM_INVOKE_RELEASE;
  grt_status_free(grt_vm_invoke_walk(packer, types));
  grt_allocator_free(allocator, packer->packed);
  packer->packed = NULL;
}

static grt_status_t grt_vm_invoke_entered(grt_vm_context_t* context,
                                          const grt_vm_function_t* function,
                                          const grt_vm_list_t* inputs,
                                          grt_vm_list_t* outputs,
                                          grt_allocator_t allocator) {
  grt_vm_signature_t signature;
  grt_vm_invoke_packer_t packer;
  GRT_RETURN_IF_ERROR(grt_vm_invoke_prepare(context, function, inputs, outputs,
                                            allocator, &signature, &packer));
  grt_status_t status =
      grt_vm_invoke_call(context, function, &signature, packer.packed,
                         packer.size, outputs, allocator);
  grt_vm_invoke_release_arguments(&packer, signature.arguments, allocator);
  return status;
}

//===----------------------------------------------------------------------===//
// Resumable invocations
//===----------------------------------------------------------------------===//

typedef enum grt_vm_invocation_state_e {
  GRT_VM_INVOCATION_SUSPENDED,
  GRT_VM_INVOCATION_RETURNED,
  GRT_VM_INVOCATION_FAILED,
} grt_vm_invocation_state_t;

struct grt_vm_invocation_t {
  grt_allocator_t allocator;
  grt_vm_context_t* context;  // retained
  grt_vm_function_t function;
  grt_vm_signature_t signature;
  grt_vm_invoke_packer_t packer;  // the packed arguments, until the end
  grt_vm_call_t call;
  // The suspended frames (modules with begin_call); NULL otherwise.
  grt_vm_stack_t* stack;
  grt_vm_invocation_state_t state;
  uint64_t suspend_count;
};

// Runs one slice (|begin|: the first) with the context entered, and
// records how it ended.
static grt_status_t grt_vm_invocation_run(grt_vm_invocation_t* inv, bool begin,
                                          grt_vm_list_t* outputs) {
  grt_vm_module_t* module = inv->function.module;
  grt_vm_module_state_t* state = grt_vm_context_state_of(inv->context, module);
  GRT_RETURN_IF_ERROR_ANNOTATED(grt_vm_context_enter(inv->context),
                                "running '%.*s.%.*s'", GRT_SV_ARG(module->name),
                                GRT_SV_ARG(inv->function.name));
  grt_string_view_t outer_location = grt_trace_location();
  grt_status_t status;
  if (!module->vtable->begin_call) {
    // A module that never suspends a call: each slice calls again (a native
    // export that returned DEFERRED is called with the same arguments).
    status = module->vtable->call(module, state, NULL, &inv->call);
  } else if (begin) {
    status = module->vtable->begin_call(module, state, &inv->call, &inv->stack);
  } else {
    status = module->vtable->resume_call(module, state, inv->stack, &inv->call);
  }
  grt_trace_set_location(outer_location);
  grt_vm_context_leave(inv->context);
  if (grt_status_code(status) == GRT_STATUS_DEFERRED) {
    inv->state = GRT_VM_INVOCATION_SUSPENDED;
    ++inv->suspend_count;
    return status;
  }
  if (inv->stack) {
    grt_vm_stack_destroy(inv->stack);
    inv->stack = NULL;
  }
  grt_vm_invoke_release_arguments(&inv->packer, inv->signature.arguments,
                                  inv->allocator);
  if (grt_status_is_ok(status)) {
    inv->state = GRT_VM_INVOCATION_RETURNED;
    return grt_vm_invoke_unpack(&inv->function, inv->signature.results,
                                inv->call.results, outputs);
  }
  inv->state = GRT_VM_INVOCATION_FAILED;
  return grt_status_annotate(status, "in invocation of '%.*s.%.*s'",
                             GRT_SV_ARG(module->name),
                             GRT_SV_ARG(inv->function.name));
}

grt_status_t grt_vm_invoke_begin(grt_vm_context_t* context,
                                 const grt_vm_function_t* function,
                                 const grt_vm_list_t* inputs,
                                 grt_vm_list_t* outputs,
                                 grt_allocator_t allocator,
                                 grt_vm_invocation_t** out_invocation) {
  *out_invocation = NULL;
  grt_vm_signature_t signature;
  grt_vm_invoke_packer_t packer;
  GRT_RETURN_IF_ERROR(grt_vm_invoke_prepare(context, function, inputs, outputs,
                                            allocator, &signature, &packer));
  grt_vm_invocation_t* inv = NULL;
  void* results = NULL;
  grt_status_t status =
      grt_allocator_calloc(allocator, sizeof(*inv), (void**)&inv);
  if (grt_status_is_ok(status)) {
    status = grt_allocator_malloc_aligned(
        allocator, signature.result_bytes ? signature.result_bytes : 1,
        GRT_VM_PACKED_ALIGNMENT, &results);
  }
  if (!grt_status_is_ok(status)) {
    grt_vm_invoke_release_arguments(&packer, signature.arguments, allocator);
    grt_allocator_free(allocator, inv);
    return status;
  }
  memset(results, 0, signature.result_bytes);
  inv->allocator = allocator;
  inv->function = *function;
  inv->signature = signature;
  inv->packer = packer;
  // The release walk reads the packed buffer, not the inputs list.
  inv->packer.function = &inv->function;
  inv->packer.inputs = NULL;
  grt_vm_call_t call = {*function, packer.packed, packer.size, results,
                        signature.result_bytes};
  inv->call = call;
  inv->context = context;
  grt_vm_context_retain(context);
  *out_invocation = inv;
  return grt_vm_invocation_run(inv, true, outputs);
}

grt_status_t grt_vm_invoke_resume(grt_vm_invocation_t* invocation,
                                  grt_vm_list_t* outputs) {
  if (invocation->state != GRT_VM_INVOCATION_SUSPENDED) {
    return grt_make_status(
        GRT_STATUS_FAILED_PRECONDITION,
        "invocation of '%.*s.%.*s' has already %s; only a suspended "
        "invocation can be resumed",
        GRT_SV_ARG(invocation->function.module->name),
        GRT_SV_ARG(invocation->function.name),
        invocation->state == GRT_VM_INVOCATION_RETURNED ? "returned"
                                                        : "failed");
  }
  if (invocation->signature.results.size > 0 && outputs == NULL) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%.*s: returns %zu values but no output list was "
                           "given",
                           GRT_SV_ARG(invocation->function.name),
                           invocation->signature.results.size);
  }
  return grt_vm_invocation_run(invocation, false, outputs);
}

bool grt_vm_invocation_is_suspended(const grt_vm_invocation_t* invocation) {
  return invocation->state == GRT_VM_INVOCATION_SUSPENDED;
}

uint64_t grt_vm_invocation_suspend_count(
    const grt_vm_invocation_t* invocation) {
  return invocation->suspend_count;
}

void grt_vm_invocation_destroy(grt_vm_invocation_t* invocation) {
  if (!invocation) return;
  if (invocation->stack) grt_vm_stack_destroy(invocation->stack);
  grt_vm_invoke_release_arguments(&invocation->packer,
                                  invocation->signature.arguments,
                                  invocation->allocator);
  grt_allocator_free(invocation->allocator, invocation->call.results);
  grt_vm_context_release(invocation->context);
  grt_allocator_free(invocation->allocator, invocation);
}

grt_status_t grt_vm_invoke_to_completion(grt_vm_context_t* context,
                                         const grt_vm_function_t* function,
                                         const grt_vm_list_t* inputs,
                                         grt_vm_list_t* outputs,
                                         grt_allocator_t allocator,
                                         uint64_t* out_suspend_count) {
  if (out_suspend_count) *out_suspend_count = 0;
  // Entered for the whole loop, so no other thread runs between resumes
  // (each slice enters again, nested).
  GRT_RETURN_IF_ERROR_ANNOTATED(grt_vm_context_enter(context),
                                "invoking '%.*s.%.*s'",
                                GRT_SV_ARG(function->module->name),
                                GRT_SV_ARG(function->name));
  grt_trace_event_t event;
  bool traced = grt_trace_enabled();
  if (traced) grt_vm_invoke_trace_start(function, &event);
  grt_vm_invocation_t* invocation = NULL;
  grt_status_t status = grt_vm_invoke_begin(context, function, inputs, outputs,
                                            allocator, &invocation);
  while (grt_status_code(status) == GRT_STATUS_DEFERRED) {
    grt_status_free(status);
    status = grt_vm_invoke_resume(invocation, outputs);
  }
  if (traced) grt_vm_invoke_trace_end(&event);
  if (out_suspend_count && invocation) {
    *out_suspend_count = grt_vm_invocation_suspend_count(invocation);
  }
  grt_vm_invocation_destroy(invocation);
  grt_vm_context_leave(context);
  return status;
}
