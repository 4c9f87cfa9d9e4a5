// The setup grt-run and grt-benchmark share (run_session.h).
#include "tools/run_session.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/file.h"
#include "base/string_view.h"
#include "base/time.h"
#include "base/trace.h"
#include "vm/context.h"
#include "vm/signature.h"

void grt_tools_run_session_initialize(grt_allocator_t allocator,
                                      grt_tools_run_session_t* out_state) {
  memset(out_state, 0, sizeof(*out_state));
  out_state->allocator = allocator;
  grt_tools_tensor_io_initialize(allocator, &out_state->io);
}

void grt_tools_run_session_deinitialize(grt_tools_run_session_t* state) {
  // First: detaches it, so nothing torn down below reports into it.
  grt_trace_recorder_destroy(state->recorder);
  state->recorder = NULL;
  if (state->outputs) grt_vm_list_release(state->outputs);
  if (state->inputs) grt_vm_list_release(state->inputs);
  grt_tools_tensor_io_deinitialize(&state->io);
  if (state->session) grt_runtime_session_release(state->session);
  if (state->device) grt_hal_device_release(state->device);
  if (state->instance) grt_runtime_instance_release(state->instance);
  state->outputs = NULL;
  state->inputs = NULL;
  state->session = NULL;
  state->device = NULL;
  state->instance = NULL;
}

grt_status_t grt_tools_run_session_create_instance(
    grt_tools_run_session_t* state) {
  return grt_runtime_instance_create(NULL, &state->instance);
}

grt_status_t grt_tools_run_session_check_options(
    const grt_tools_run_options_t* options) {
  if (!options->module) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "no module given: expected --module=FILE.vmfb");
  }
  if (options->task_workers < 0 || options->task_workers > UINT32_MAX) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "--task_workers=%" PRId64
                           ": expected 0 (one per core) or a positive count",
                           options->task_workers);
  }
  if (options->timeout_ms < 0 || options->timeout_ms > INT64_MAX / 1000000) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "--timeout=%" PRId64
                           ": expected 0 (no limit) or a positive number of "
                           "milliseconds",
                           options->timeout_ms);
  }
  if (options->trace) {
    if (!options->trace[0]) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "--trace=: expected the path of the trace file "
                             "to write, such as --trace=trace.json");
    }
    GRT_RETURN_IF_ERROR_ANNOTATED(grt_file_check_writable(options->trace),
                                  "--trace=%s", options->trace);
  }
  return grt_ok_status();
}

// "i32, ref" for the argument-count message. A long signature is cut
// after a whole type name and ends in ", ... and N more", so the message
// stays readable and says how much it left out.
static void grt_tools_format_argument_types(grt_string_view_t arguments,
                                            char* out, size_t capacity) {
  // Room kept for the ending, whatever N is.
  const size_t ending = 40;
  size_t used = 0, i = 0;
  out[0] = '\0';
  for (; i < arguments.size; ++i) {
    grt_vm_value_type_t type = GRT_VM_VALUE_TYPE_NONE;
    grt_vm_value_type_from_cconv_char(arguments.data[i], &type);
    const char* name = grt_vm_value_type_name(type);
    size_t length = (i ? 2 : 0) + strlen(name);
    if (capacity <= ending || used + length >= capacity - ending) break;
    snprintf(out + used, capacity - used, "%s%s", i ? ", " : "", name);
    used += length;
  }
  if (i < arguments.size) {
    snprintf(out + used, capacity - used, "%s... and %zu more",
             i ? ", " : "", arguments.size - i);
  }
}

// Builds the argument list from --input, checked against the signature.
static grt_status_t grt_tools_make_inputs(
    grt_tools_run_session_t* state, const grt_tools_run_options_t* options) {
  const grt_vm_function_t* function = &state->function;
  const grt_flag_list_t* inputs = options->inputs;
  grt_vm_signature_t signature;
  GRT_RETURN_IF_ERROR(
      grt_vm_signature_parse(function->calling_convention, &signature));
  if (signature.variadic) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "'%.*s' takes variadic arguments (%.*s), which "
                           "%s cannot pass",
                           GRT_SV_ARG(function->name),
                           GRT_SV_ARG(signature.text), options->tool);
  }
  if (signature.arguments.size != inputs->count) {
    char types[256];
    grt_tools_format_argument_types(signature.arguments, types,
                                    sizeof(types));
    return grt_make_status(
        GRT_STATUS_INVALID_ARGUMENT,
        "'%.*s' takes %zu argument%s (%s), got %zu --input value%s",
        GRT_SV_ARG(function->name), signature.arguments.size,
        signature.arguments.size == 1 ? "" : "s", types, inputs->count,
        inputs->count == 1 ? "" : "s");
  }
  GRT_RETURN_IF_ERROR(grt_vm_list_create(grt_vm_type_def_variant(),
                                         inputs->count, state->allocator,
                                         &state->inputs));
  for (size_t i = 0; i < inputs->count; ++i) {
    grt_vm_value_type_t type = GRT_VM_VALUE_TYPE_NONE;
    grt_vm_value_type_from_cconv_char(signature.arguments.data[i], &type);
    grt_vm_variant_t value = grt_vm_variant_empty();
    grt_status_t status = grt_tools_parse_argument(
        &state->io, state->device, inputs->values[i], type, &value);
    if (grt_status_is_ok(status)) {
      status = grt_vm_list_push_variant(state->inputs, &value);
    }
    grt_vm_variant_reset(&value);
    GRT_RETURN_IF_ERROR_ANNOTATED(
        status, "--input '%s' for argument %zu (%s) of '%.*s'",
        inputs->values[i], i, grt_vm_value_type_name(type),
        GRT_SV_ARG(function->name));
  }
  return grt_ok_status();
}

grt_status_t grt_tools_run_session_set_trust(
    grt_runtime_session_t* session, const grt_flag_list_t* trusted_keys,
    bool require_signed) {
  for (size_t i = 0; trusted_keys && i < trusted_keys->count; ++i) {
    GRT_RETURN_IF_ERROR_ANNOTATED(grt_runtime_session_add_trusted_key_file(
                                      session, trusted_keys->values[i]),
                                  "--trusted-key=%s", trusted_keys->values[i]);
  }
  return grt_runtime_session_set_require_signed_native_code(session,
                                                            require_signed);
}

grt_status_t grt_tools_run_session_load(grt_tools_run_session_t* state,
                                        const grt_tools_run_options_t* options,
                                        int64_t* out_load_ns) {
  *out_load_ns = 0;
  GRT_RETURN_IF_ERROR(grt_flags_check_name_length(
      "--device", options->device, strlen(options->device)));
  if (options->function) {
    GRT_RETURN_IF_ERROR(grt_flags_check_name_length(
        "--function", options->function, strlen(options->function)));
  }
  if (options->trace || options->record_statistics) {
    grt_trace_recorder_options_t recorder_options = {0, options->tool};
    GRT_RETURN_IF_ERROR(grt_trace_recorder_create(
        &recorder_options, state->allocator, &state->recorder));
    // The calling thread is "main", and tid 1 when it is the first to ask.
    grt_trace_set_thread_name("main");
    (void)grt_trace_thread_id();
    GRT_RETURN_IF_ERROR(
        grt_trace_attach(grt_trace_recorder_sink(state->recorder)));
  }
  grt_time_t start = grt_time_now_ns();
  grt_hal_device_options_t device_options;
  memset(&device_options, 0, sizeof(device_options));
  device_options.worker_count = (uint32_t)options->task_workers;
  GRT_RETURN_IF_ERROR(grt_runtime_instance_create_device(
      state->instance, options->device, &device_options, &state->device));
  GRT_RETURN_IF_ERROR(grt_runtime_session_create(
      state->instance, state->device, &state->session));
  if (options->timeout_ms > 0) {
    GRT_RETURN_IF_ERROR(grt_runtime_session_set_call_timeout(
        state->session, options->timeout_ms * 1000000));
  }
  GRT_RETURN_IF_ERROR(grt_tools_run_session_set_trust(
      state->session, options->trusted_keys, options->require_signed));
  GRT_RETURN_IF_ERROR(grt_runtime_session_append_module_from_file(
      state->session, options->module));
  *out_load_ns = (int64_t)(grt_time_now_ns() - start);
  if (!options->function) {
    grt_vm_context_t* context = grt_runtime_session_context(state->session);
    grt_vm_module_t* module = grt_vm_context_module_at(
        context, grt_vm_context_module_count(context) - 1);
    char exports[1024];
    return grt_make_status(
        GRT_STATUS_INVALID_ARGUMENT,
        "no function given: expected --function=NAME; '%s' exports: %s",
        options->module,
        grt_vm_module_format_exports(module, exports, sizeof(exports)));
  }
  GRT_RETURN_IF_ERROR(grt_runtime_session_lookup_function(
      state->session, options->function, &state->function));
  GRT_RETURN_IF_ERROR(grt_tools_make_inputs(state, options));
  return grt_vm_list_create(grt_vm_type_def_variant(), 4, state->allocator,
                            &state->outputs);
}

grt_status_t grt_tools_run_session_finish_trace(
    grt_tools_run_session_t* state, const grt_tools_run_options_t* options) {
  if (!state->recorder) return grt_ok_status();
  grt_trace_detach(grt_trace_recorder_sink(state->recorder));
  if (!options->trace) return grt_ok_status();
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_trace_recorder_write_json(state->recorder, options->trace),
      "--trace=%s", options->trace);
  return grt_ok_status();
}
