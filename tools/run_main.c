// grt-run: loads a module, calls one exported function with arguments from
// the command line and prints its results the way IREE's run tool does
// ("result[0]: i32=55"), so scripts and users see the same spelling.
//
//   grt-run --module=prog.vmfb --function=fib --input=25 [--print_statistics]
//
// Scalar inputs are plain numbers read as the type the function's signature
// gives that argument; IREE's typed spelling (--input=i32=25) is accepted
// and checked against it, and "(null)" passes a null ref.
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/string_view.h"
#include "base/time.h"
#include "tools/flags.h"
#include "tools/loaded_module.h"
#include "vm/buffer.h"
#include "vm/invoke.h"
#include "vm/list.h"
#include "vm/signature.h"

typedef struct grt_run_flags_t {
  const char* module;
  const char* function;
  grt_flag_list_t inputs;
  bool print_statistics;
} grt_run_flags_t;

static grt_run_flags_t flags;

static const grt_flag_t grt_run_flag_table[] = {
    {"module", 0, GRT_FLAG_STRING, &flags.module, "FILE",
     "module file (.vmfb) to load"},
    {"function", 0, GRT_FLAG_STRING, &flags.function, "NAME",
     "exported function to call"},
    {"input", 0, GRT_FLAG_LIST, &flags.inputs, "VALUE",
     "next argument: a number, TYPE=number (i32=5), or (null)"},
    {"print_statistics", 0, GRT_FLAG_BOOL, &flags.print_statistics, NULL,
     "print load and call times"},
};

static const grt_flags_spec_t grt_run_flags_spec = {
    "grt-run", "calls one function of a VM module and prints its results",
    "--module=FILE --function=NAME [--input=VALUE]...", grt_run_flag_table,
    sizeof(grt_run_flag_table) / sizeof(grt_run_flag_table[0]), NULL};

// Reads --input[index] as a value of |type|.
static grt_status_t grt_run_parse_input(size_t index, const char* text,
                                        grt_vm_value_type_t type,
                                        const grt_vm_function_t* function,
                                        grt_vm_variant_t* out_value) {
  grt_string_view_t value = grt_make_cstring_view(text);
  grt_string_view_t type_name, typed_value;
  if (grt_string_view_split(value, '=', &type_name, &typed_value)) {
    if (!grt_string_view_equal_cstring(type_name,
                                       grt_vm_value_type_name(type))) {
      return grt_make_status(
          GRT_STATUS_INVALID_ARGUMENT,
          "--input '%s': argument %zu of '%.*s' is %s, got %.*s", text, index,
          GRT_SV_ARG(function->name), grt_vm_value_type_name(type),
          GRT_SV_ARG(type_name));
    }
    value = typed_value;
  }
  grt_status_t status = grt_ok_status();
  double f64 = 0;
  switch (type) {
    case GRT_VM_VALUE_TYPE_I32:
      *out_value = grt_vm_variant_i32(0);
      status = grt_string_view_parse_i32(value, &out_value->i32);
      break;
    case GRT_VM_VALUE_TYPE_I64:
      *out_value = grt_vm_variant_i64(0);
      status = grt_string_view_parse_i64(value, &out_value->i64);
      break;
    case GRT_VM_VALUE_TYPE_F32:
      status = grt_string_view_parse_f64(value, &f64);
      if (grt_status_is_ok(status) && isfinite(f64) && fabs(f64) > FLT_MAX) {
        status = grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                                 "%.*s is out of range for f32",
                                 GRT_SV_ARG(value));
      }
      *out_value = grt_vm_variant_f32((float)f64);
      break;
    case GRT_VM_VALUE_TYPE_F64:
      *out_value = grt_vm_variant_f64(0);
      status = grt_string_view_parse_f64(value, &out_value->f64);
      break;
    case GRT_VM_VALUE_TYPE_REF:
      if (!grt_string_view_equal_cstring(value, "(null)")) {
        status = grt_make_status(
            GRT_STATUS_INVALID_ARGUMENT,
            "a ref argument can only be given as (null), got '%.*s'",
            GRT_SV_ARG(value));
      }
      *out_value = grt_vm_variant_empty();
      out_value->type = GRT_VM_VALUE_TYPE_REF;
      break;
    default:
      status = grt_make_status(GRT_STATUS_INTERNAL, "value type %d",
                               (int)type);
      break;
  }
  return grt_status_annotate(status, "--input '%s' for argument %zu (%s) of '%.*s'",
                             text, index, grt_vm_value_type_name(type),
                             GRT_SV_ARG(function->name));
}

// Builds the argument list from --input, checked against the signature.
static grt_status_t grt_run_make_inputs(const grt_vm_function_t* function,
                                        grt_allocator_t allocator,
                                        grt_vm_list_t** out_inputs) {
  grt_vm_signature_t signature;
  GRT_RETURN_IF_ERROR(
      grt_vm_signature_parse(function->calling_convention, &signature));
  if (signature.variadic) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "'%.*s' takes variadic arguments (%.*s), which "
                           "grt-run cannot pass",
                           GRT_SV_ARG(function->name),
                           GRT_SV_ARG(signature.text));
  }
  if (signature.arguments.size != flags.inputs.count) {
    char types[128] = "";
    size_t used = 0;
    for (size_t i = 0; i < signature.arguments.size && used < sizeof(types); ++i) {
      grt_vm_value_type_t type = GRT_VM_VALUE_TYPE_NONE;
      grt_vm_value_type_from_cconv_char(signature.arguments.data[i], &type);
      int n = snprintf(types + used, sizeof(types) - used, "%s%s", i ? ", " : "",
                       grt_vm_value_type_name(type));
      if (n > 0) used += (size_t)n;
    }
    return grt_make_status(
        GRT_STATUS_INVALID_ARGUMENT,
        "'%.*s' takes %zu argument%s (%s), got %zu --input value%s",
        GRT_SV_ARG(function->name), signature.arguments.size,
        signature.arguments.size == 1 ? "" : "s", types, flags.inputs.count,
        flags.inputs.count == 1 ? "" : "s");
  }
  GRT_RETURN_IF_ERROR(grt_vm_list_create(grt_vm_type_def_variant(),
                                         flags.inputs.count, allocator,
                                         out_inputs));
  for (size_t i = 0; i < flags.inputs.count; ++i) {
    grt_vm_value_type_t type = GRT_VM_VALUE_TYPE_NONE;
    grt_vm_value_type_from_cconv_char(signature.arguments.data[i], &type);
    grt_vm_variant_t value = grt_vm_variant_empty();
    GRT_RETURN_IF_ERROR(grt_run_parse_input(i, flags.inputs.values[i], type,
                                            function, &value));
    GRT_RETURN_IF_ERROR(grt_vm_list_push_variant(*out_inputs, &value));
  }
  return grt_ok_status();
}

// The shortest decimal that reads back as the same value, so results print
// as "f32=3.14" rather than "3.1400001".
static void grt_run_format_float(double value, bool single, char* buffer,
                                 size_t capacity) {
  if (isnan(value)) {
    snprintf(buffer, capacity, "%s", signbit(value) ? "-nan" : "nan");
    return;
  }
  int max_digits = single ? 9 : 17;
  for (int digits = 1; digits <= max_digits; ++digits) {
    snprintf(buffer, capacity, "%.*g", digits, value);
    double back = strtod(buffer, NULL);
    if (single ? (float)back == (float)value : back == value) return;
  }
}

static void grt_run_print_result(size_t index, const grt_vm_variant_t* value) {
  char text[64];
  printf("result[%zu]: ", index);
  switch (value->type) {
    case GRT_VM_VALUE_TYPE_I32:
      printf("i32=%" PRId32 "\n", value->i32);
      return;
    case GRT_VM_VALUE_TYPE_I64:
      printf("i64=%" PRId64 "\n", value->i64);
      return;
    case GRT_VM_VALUE_TYPE_F32:
      grt_run_format_float(value->f32, true, text, sizeof(text));
      printf("f32=%s\n", text);
      return;
    case GRT_VM_VALUE_TYPE_F64:
      grt_run_format_float(value->f64, false, text, sizeof(text));
      printf("f64=%s\n", text);
      return;
    default:
      break;
  }
  if (!value->ref.ptr) {
    printf("(null)\n");
  } else if (value->ref.type == grt_vm_buffer_type()) {
    printf("vm.buffer[%" PRIu64 " bytes]\n",
           grt_vm_buffer_length((const grt_vm_buffer_t*)value->ref.ptr));
  } else if (value->ref.type == grt_vm_list_type()) {
    printf("vm.list[%zu elements]\n",
           grt_vm_list_size((const grt_vm_list_t*)value->ref.ptr));
  } else {
    printf("%s\n", value->ref.type->name);
  }
}

static grt_status_t grt_run(grt_allocator_t allocator) {
  if (!flags.module) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "no module given: expected --module=FILE.vmfb");
  }
  grt_time_t start = grt_time_now_ns();
  grt_tools_loaded_module_t loaded;
  GRT_RETURN_IF_ERROR(grt_tools_load_module(flags.module, allocator, &loaded));
  grt_vm_context_t* context = NULL;
  grt_vm_list_t* inputs = NULL;
  grt_vm_list_t* outputs = NULL;
  grt_vm_function_t function;
  grt_status_t status = grt_tools_create_context(&loaded, &context);
  grt_time_t loaded_at = grt_time_now_ns();
  if (grt_status_is_ok(status) && !flags.function) {
    char exports[1024];
    status = grt_make_status(
        GRT_STATUS_INVALID_ARGUMENT,
        "no function given: expected --function=NAME; '%s' exports: %s",
        flags.module,
        grt_vm_module_format_exports(loaded.module, exports, sizeof(exports)));
  }
  if (grt_status_is_ok(status)) {
    status = grt_vm_module_lookup_function(
        loaded.module, grt_make_cstring_view(flags.function), &function);
  }
  if (grt_status_is_ok(status)) {
    status = grt_run_make_inputs(&function, allocator, &inputs);
  }
  if (grt_status_is_ok(status)) {
    status = grt_vm_list_create(grt_vm_type_def_variant(), 4, allocator,
                                &outputs);
  }
  grt_time_t call_start = 0, call_end = 0;
  if (grt_status_is_ok(status)) {
    printf("EXEC @%s\n", flags.function);
    fflush(stdout);
    call_start = grt_time_now_ns();
    status = grt_vm_invoke(context, &function, inputs, outputs, allocator);
    call_end = grt_time_now_ns();
  }
  for (size_t i = 0; grt_status_is_ok(status) && i < grt_vm_list_size(outputs);
       ++i) {
    grt_vm_variant_t value = grt_vm_variant_empty();
    status = grt_vm_list_get_variant_assign(outputs, i, &value);
    if (grt_status_is_ok(status)) grt_run_print_result(i, &value);
    grt_vm_variant_reset(&value);
  }
  if (grt_status_is_ok(status) && flags.print_statistics) {
    // Whole nanoseconds so the benchmark scripts can divide without loss.
    printf("statistics:\n  load_ns: %" PRId64 "\n  call_ns: %" PRId64 "\n",
           (int64_t)(loaded_at - start), (int64_t)(call_end - call_start));
  }
  if (outputs) grt_vm_list_release(outputs);
  if (inputs) grt_vm_list_release(inputs);
  if (context) grt_vm_context_release(context);
  grt_tools_unload_module(&loaded);
  return status;
}

int main(int argc, char** argv) {
  grt_allocator_t allocator = grt_allocator_system();
  int exit_code =
      grt_flags_parse_for_main(&grt_run_flags_spec, argc, argv, allocator);
  if (exit_code < 0) {
    grt_status_t status = grt_run(allocator);
    exit_code = 0;
    if (!grt_status_is_ok(status)) {
      fflush(stdout);
      fprintf(stderr, "grt-run: ");
      grt_status_fprint(stderr, status);
      grt_status_free(status);
      exit_code = 1;
    }
  }
  grt_flags_release(&grt_run_flags_spec, allocator);
  return exit_code;
}
