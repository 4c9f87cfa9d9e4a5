#include "runtime/hal_module.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/time.h"
#include "hal/allocator.h"
#include "hal/command_buffer.h"
#include "hal/fence.h"
#include "hal/semaphore.h"
#include "hal/transfer.h"
#include "runtime/abi_shim.h"
#include "runtime/hal_abi.h"
#include "vm/buffer.h"
#include "vm/native_module.h"
#include "vm/signature.h"

//===----------------------------------------------------------------------===//
// Ref types
//===----------------------------------------------------------------------===//

// Every HAL object starts with grt_hal_resource_t, whose count sits where a
// grt_vm_ref_object_t would (offset 0), so one destroy serves every type.
static void grt_runtime_hal_resource_destroy(void* ptr) {
  grt_hal_resource_t* resource = (grt_hal_resource_t*)ptr;
  ((const grt_hal_resource_vtable_t*)resource->vtable)->destroy(resource);
}

#define GRT_RUNTIME_HAL_TYPE_LIST(X)                 \
  X(allocator, "hal.allocator")                      \
  X(buffer, "hal.buffer")                            \
  X(buffer_view, "hal.buffer_view")                  \
  X(command_buffer, "hal.command_buffer")            \
  X(device, "hal.device")                            \
  X(executable, "hal.executable")                    \
  X(fence, "hal.fence")                              \
  X(semaphore, "hal.semaphore")

#define GRT_RUNTIME_HAL_TYPE_DEFINE(id, text)                     \
  const grt_vm_ref_type_descriptor_t grt_runtime_hal_##id##_type = { \
      text, grt_runtime_hal_resource_destroy, 0};
GRT_RUNTIME_HAL_TYPE_LIST(GRT_RUNTIME_HAL_TYPE_DEFINE)
#undef GRT_RUNTIME_HAL_TYPE_DEFINE

grt_status_t grt_runtime_hal_register_types(grt_vm_instance_t* instance) {
#define GRT_RUNTIME_HAL_TYPE_REGISTER(id, text) \
  GRT_RETURN_IF_ERROR(                          \
      grt_vm_instance_register_type(instance, &grt_runtime_hal_##id##_type));
  GRT_RUNTIME_HAL_TYPE_LIST(GRT_RUNTIME_HAL_TYPE_REGISTER)
#undef GRT_RUNTIME_HAL_TYPE_REGISTER
  return grt_ok_status();
}

grt_vm_ref_t grt_runtime_buffer_view_ref_retain(grt_hal_buffer_view_t* view) {
  return grt_vm_ref_wrap_retain(view, &grt_runtime_hal_buffer_view_type);
}

grt_status_t grt_runtime_buffer_view_from_ref(const grt_vm_ref_t* ref,
                                              grt_hal_buffer_view_t** out_view) {
  return grt_vm_ref_deref(ref, &grt_runtime_hal_buffer_view_type,
                          (void**)out_view);
}

//===----------------------------------------------------------------------===//
// Module data: the device and the executable registry
//===----------------------------------------------------------------------===//

typedef struct grt_runtime_hal_executable_entry_t {
  char* module_name;  // owned, NUL-terminated
  grt_hal_executable_t* executable;
  uint32_t variant;  // its index among the module file's executables
} grt_runtime_hal_executable_entry_t;

typedef struct grt_runtime_hal_module_data_t {
  grt_allocator_t host_allocator;
  grt_hal_device_t* device;
  // Filled while modules are appended, read by calls; sessions are not used
  // from two threads while appending, so no lock.
  grt_runtime_hal_executable_entry_t* executables;
  size_t executable_count;
  size_t executable_capacity;
  // The running call's deadline (GRT_TIME_INFINITE_FUTURE: none) and the
  // timeout it came from, for the message; set by the session around each
  // call (grt_runtime_hal_module_set_call_deadline).
  grt_time_t call_deadline;
  grt_duration_t call_timeout;
} grt_runtime_hal_module_data_t;

static void grt_runtime_hal_module_data_destroy(void* module_data) {
  grt_runtime_hal_module_data_t* data = module_data;
  for (size_t i = 0; i < data->executable_count; ++i) {
    grt_allocator_free(data->host_allocator, data->executables[i].module_name);
    grt_hal_executable_release(data->executables[i].executable);
  }
  grt_allocator_free(data->host_allocator, data->executables);
  grt_hal_device_release(data->device);
  grt_allocator_free(data->host_allocator, data);
}

static const grt_runtime_hal_executable_entry_t* grt_runtime_hal_find_executable(
    const grt_runtime_hal_module_data_t* data, grt_string_view_t name) {
  for (size_t i = 0; i < data->executable_count; ++i) {
    if (grt_string_view_equal_cstring(name, data->executables[i].module_name)) {
      return &data->executables[i];
    }
  }
  return NULL;
}

//===----------------------------------------------------------------------===//
// The exports' argument and result structs, shims and table
//===----------------------------------------------------------------------===//

// Generated from runtime/hal_abi.h (runtime/abi_shim.h says what each
// generated name is); the bodies below receive typed arguments.
GRT_RUNTIME_ABI_GROUP(grt_hal_abi_dims)
GRT_RUNTIME_ABI_GROUP(grt_hal_abi_constants)
GRT_RUNTIME_ABI_GROUP(grt_hal_abi_bindings)
GRT_RUNTIME_ABI_GROUP(grt_hal_abi_binding_table)
GRT_RUNTIME_ABI_GROUP(grt_hal_abi_command_buffers)
GRT_RUNTIME_ABI_GROUP(grt_hal_abi_fences)

#define GRT_RUNTIME_HAL_DECLARE(id, name, optional, doc)        \
  GRT_RUNTIME_ABI_EXPORT(grt_runtime_hal, GRT_HAL_ABI_##id, id, \
                         grt_runtime_hal_module_data_t)
GRT_HAL_ABI_EXPORT_LIST(GRT_RUNTIME_HAL_DECLARE)
#undef GRT_RUNTIME_HAL_DECLARE

// The body of export |id|: (data, in, out) -> status.
#define GRT_RUNTIME_HAL_EXPORT(id)                                 \
  static grt_status_t grt_runtime_hal_##id(                        \
      grt_runtime_hal_module_data_t* data,                         \
      const grt_runtime_hal_##id##_args_t* in,                     \
      grt_runtime_hal_##id##_results_t* out)

//===----------------------------------------------------------------------===//
// Argument helpers
//===----------------------------------------------------------------------===//

// The object of a non-null ref of |type|; errors name the argument.
static grt_status_t grt_runtime_arg(const grt_vm_ref_t* ref,
                                    grt_vm_ref_type_t type, const char* what,
                                    void** out_object) {
  return grt_status_annotate(grt_vm_ref_deref(ref, type, out_object),
                             "argument '%s'", what);
}

// As grt_runtime_arg, but a null ref gives NULL.
static grt_status_t grt_runtime_arg_or_null(const grt_vm_ref_t* ref,
                                            grt_vm_ref_type_t type,
                                            const char* what,
                                            void** out_object) {
  *out_object = NULL;
  if (grt_vm_ref_is_null(ref)) return grt_ok_status();
  return grt_runtime_arg(ref, type, what, out_object);
}

// A vm.buffer argument's bytes as a string view (valid for the call).
static grt_status_t grt_runtime_arg_text(const grt_vm_ref_t* ref,
                                         const char* what,
                                         grt_string_view_t* out_text) {
  grt_vm_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(
      grt_runtime_arg(ref, grt_vm_buffer_type(), what, (void**)&buffer));
  uint64_t length = grt_vm_buffer_length(buffer);
  const void* data = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_buffer_map_read(buffer, 0, length, &data));
  *out_text = grt_make_string_view((const char*)data, (size_t)length);
  return grt_ok_status();
}

// Offsets and sizes come in as i64; negative ones are bugs in the caller.
static grt_status_t grt_runtime_arg_size(int64_t value, const char* what,
                                         uint64_t* out_value) {
  if (value < 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s must be >= 0, got %lld", what, (long long)value);
  }
  *out_value = (uint64_t)value;
  return grt_ok_status();
}

// A length where -1 means "to the end" (GRT_HAL_WHOLE_BUFFER).
static grt_status_t grt_runtime_arg_length(int64_t value, const char* what,
                                           uint64_t* out_value) {
  if (value == -1) {
    *out_value = GRT_HAL_WHOLE_BUFFER;
    return grt_ok_status();
  }
  if (value < 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s must be >= 0 or -1 (the whole buffer), got %lld",
                           what, (long long)value);
  }
  *out_value = (uint64_t)value;
  return grt_ok_status();
}

// An (offset, length) pair: offset >= 0, length >= 0 or -1 (to the end).
static grt_status_t grt_runtime_arg_range(int64_t offset, int64_t length,
                                          uint64_t* out_offset,
                                          uint64_t* out_length) {
  GRT_RETURN_IF_ERROR(grt_runtime_arg_size(offset, "offset", out_offset));
  return grt_runtime_arg_length(length, "length", out_length);
}

static grt_status_t grt_runtime_arg_count(int32_t value, const char* what) {
  if (value < 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s must be >= 0, got %d", what, value);
  }
  return grt_ok_status();
}

// A fence argument as a wait/signal list; a null fence is the empty list.
static grt_status_t grt_runtime_arg_fence_list(const grt_vm_ref_t* ref,
                                               const char* what,
                                               grt_hal_semaphore_list_t* out) {
  grt_hal_fence_t* fence = NULL;
  GRT_RETURN_IF_ERROR(
      grt_runtime_arg_or_null(ref, &grt_runtime_hal_fence_type, what,
                              (void**)&fence));
  *out = grt_hal_fence_as_list(fence);
  return grt_ok_status();
}

static grt_status_t grt_runtime_arg_buffer(const grt_vm_ref_t* ref,
                                           grt_hal_buffer_t** out) {
  return grt_runtime_arg(ref, &grt_runtime_hal_buffer_type, "buffer",
                         (void**)out);
}

static grt_status_t grt_runtime_arg_allocator(const grt_vm_ref_t* ref,
                                              grt_hal_allocator_t** out) {
  return grt_runtime_arg(ref, &grt_runtime_hal_allocator_type, "allocator",
                         (void**)out);
}

static grt_status_t grt_runtime_arg_device(const grt_vm_ref_t* ref,
                                           grt_hal_device_t** out) {
  return grt_runtime_arg(ref, &grt_runtime_hal_device_type, "device",
                         (void**)out);
}

// The (device, wait fence, signal fence) prefix every device.queue.* op
// takes.
typedef struct grt_runtime_queue_args_t {
  grt_hal_device_t* device;
  grt_hal_semaphore_list_t wait;
  grt_hal_semaphore_list_t signal;
} grt_runtime_queue_args_t;

static grt_status_t grt_runtime_args_queue(const grt_vm_ref_t* device_ref,
                                           const grt_vm_ref_t* wait_ref,
                                           const grt_vm_ref_t* signal_ref,
                                           grt_runtime_queue_args_t* out) {
  GRT_RETURN_IF_ERROR(grt_runtime_arg_device(device_ref, &out->device));
  GRT_RETURN_IF_ERROR(grt_runtime_arg_fence_list(wait_ref, "wait", &out->wait));
  return grt_runtime_arg_fence_list(signal_ref, "signal", &out->signal);
}

// Buffer parameters from a program's (memory_types, buffer_usage) pair.
static grt_hal_buffer_params_t grt_runtime_buffer_params(int32_t memory_types,
                                                         int32_t buffer_usage) {
  grt_hal_buffer_params_t params = {(grt_hal_memory_type_t)memory_types,
                                    (grt_hal_buffer_usage_t)buffer_usage, 0, 0};
  return params;
}

// Per-call arrays live in the caller's |inline_storage| of |inline_count|
// elements and go to the heap only when a call needs more.
static grt_status_t grt_runtime_scratch_acquire(
    grt_runtime_hal_module_data_t* data, int32_t count, size_t element_size,
    void* inline_storage, size_t inline_count, void** out) {
  *out = inline_storage;
  if (count <= 0 || (size_t)count <= inline_count) return grt_ok_status();
  return grt_allocator_malloc(data->host_allocator,
                              (size_t)count * element_size, out);
}
static void grt_runtime_scratch_release(grt_runtime_hal_module_data_t* data,
                                        void* inline_storage, void* storage) {
  if (storage != inline_storage) {
    grt_allocator_free(data->host_allocator, storage);
  }
}
#define GRT_RUNTIME_SCRATCH_ACQUIRE(data, count, inline_array, out)      \
  grt_runtime_scratch_acquire(                                          \
      (data), (count), sizeof((inline_array)[0]), (inline_array),       \
      sizeof(inline_array) / sizeof((inline_array)[0]), (void**)(out))

// A shape span: its dims.
static grt_status_t grt_runtime_arg_shape(grt_hal_abi_dims_span_t span,
                                          grt_hal_dim_t* shape,
                                          size_t* out_rank) {
  int32_t rank = span.count;
  if (rank < 0 || rank > GRT_HAL_MAX_RANK) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "shape rank %d is out of range (0 to %d)", rank,
                           GRT_HAL_MAX_RANK);
  }
  for (int32_t i = 0; i < rank; ++i) {
    grt_hal_abi_dims_t dim;
    grt_hal_abi_dims_next(&span, &dim);
    shape[i] = dim.dim;
  }
  *out_rank = (size_t)rank;
  return grt_ok_status();
}

static grt_status_t grt_runtime_check_encoding(int32_t encoding) {
  if (encoding != 0) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "encoding %d is not supported; expected 0 (dense "
                           "row-major)",
                           encoding);
  }
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// hal.allocator.* / hal.buffer.*
//===----------------------------------------------------------------------===//

GRT_RUNTIME_HAL_EXPORT(allocator_allocate) {
  grt_hal_allocator_t* allocator = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_allocator(in->allocator, &allocator));
  uint64_t size = 0;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_size(in->size, "size", &size));
  grt_hal_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_allocator_allocate_buffer(
      allocator, grt_runtime_buffer_params(in->memory_types, in->buffer_usage),
      size, &buffer));
  out->buffer = grt_vm_ref_wrap_move(buffer, &grt_runtime_hal_buffer_type);
  return grt_ok_status();
}

static void grt_runtime_release_imported_vm_buffer(void* user_data,
                                                   void* host_pointer) {
  (void)host_pointer;
  grt_vm_buffer_release((grt_vm_buffer_t*)user_data);
}

// Compiled programs use their constants (rodata) in place: where the
// device can use host memory the bytes are wrapped without a copy and the
// vm.buffer is kept alive by the HAL buffer; elsewhere a device buffer is
// allocated and filled once. The wrapped memory may be a read-only mapping
// of the module file, so the buffer keeps the source's access: a source
// that is not mutable gives a READ-only HAL buffer, which every HAL write
// path refuses (PERMISSION_DENIED) instead of faulting.
GRT_RUNTIME_HAL_EXPORT(allocator_import) {
  grt_hal_allocator_t* allocator = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_allocator(in->allocator, &allocator));
  grt_vm_buffer_t* source = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg(in->source, grt_vm_buffer_type(),
                                      "source", (void**)&source));
  uint64_t offset = 0;
  uint64_t length = 0;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_range(in->offset, in->length, &offset,
                                            &length));
  uint64_t source_length = grt_vm_buffer_length(source);
  if (offset > source_length) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "offset %llu is past the end of the %llu-byte source",
                           (unsigned long long)offset,
                           (unsigned long long)source_length);
  }
  if (length == GRT_HAL_WHOLE_BUFFER) length = source_length - offset;
  const void* bytes = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_buffer_map_read(source, offset, length, &bytes));
  // The HAL buffer allows what the vm.buffer allows: rodata (often a
  // read-only mapping of the module file) stays read-only through every
  // HAL write path (stores, fills, copies, updates, written bindings).
  grt_hal_memory_access_t access =
      (grt_vm_buffer_access(source) & GRT_VM_BUFFER_ACCESS_MUTABLE)
          ? GRT_HAL_MEMORY_ACCESS_READ_WRITE
          : GRT_HAL_MEMORY_ACCESS_READ;
  grt_hal_buffer_params_t params = {
      GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL | GRT_HAL_MEMORY_TYPE_HOST_VISIBLE,
      GRT_HAL_BUFFER_USAGE_DEFAULT, 0, access};
  grt_hal_buffer_release_callback_t release = {
      grt_runtime_release_imported_vm_buffer, source};
  grt_hal_buffer_t* buffer = NULL;
  grt_status_t status = grt_hal_allocator_import_host_buffer(
      allocator, params, (void*)bytes, length, release, &buffer);
  if (grt_status_is_ok(status)) {
    grt_vm_buffer_retain(source);  // released by |release|
  } else if (grt_status_code(status) == GRT_STATUS_UNIMPLEMENTED) {
    grt_status_free(status);
    grt_hal_buffer_params_t device_params = {GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL,
                                             GRT_HAL_BUFFER_USAGE_DEFAULT, 0, 0};
    GRT_RETURN_IF_ERROR(grt_hal_allocator_allocate_buffer(
        allocator, device_params, length, &buffer));
    status = length ? grt_hal_device_transfer_h2d(data->device, bytes, buffer,
                                                  0, (size_t)length)
                    : grt_ok_status();
    if (!grt_status_is_ok(status)) {
      grt_hal_buffer_release(buffer);
      return status;
    }
    grt_hal_buffer_restrict_access(buffer, access);
  } else {
    return status;
  }
  out->buffer = grt_vm_ref_wrap_move(buffer, &grt_runtime_hal_buffer_type);
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(buffer_subspan) {
  grt_hal_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_buffer(in->buffer, &buffer));
  uint64_t offset = 0;
  uint64_t length = 0;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_range(in->offset, in->length, &offset,
                                            &length));
  grt_hal_buffer_t* subspan = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_buffer_subspan(buffer, offset, length, &subspan));
  out->buffer = grt_vm_ref_wrap_move(subspan, &grt_runtime_hal_buffer_type);
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(buffer_length) {
  grt_hal_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_buffer(in->buffer, &buffer));
  out->length = (int64_t)grt_hal_buffer_byte_length(buffer);
  return grt_ok_status();
}

static grt_status_t grt_runtime_check_element_width(int32_t length) {
  if (length != 1 && length != 2 && length != 4) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "length must be 1, 2 or 4 bytes, got %d", length);
  }
  return grt_ok_status();
}

// The (buffer, offset, width) of one element buffer.load/store moves.
static grt_status_t grt_runtime_arg_element(const grt_vm_ref_t* buffer_ref,
                                            int64_t offset, int32_t length,
                                            grt_hal_buffer_t** out_buffer,
                                            uint64_t* out_offset) {
  GRT_RETURN_IF_ERROR(grt_runtime_arg_buffer(buffer_ref, out_buffer));
  GRT_RETURN_IF_ERROR(grt_runtime_arg_size(offset, "offset", out_offset));
  return grt_runtime_check_element_width(length);
}

GRT_RUNTIME_HAL_EXPORT(buffer_load) {
  grt_hal_buffer_t* buffer = NULL;
  uint64_t offset = 0;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_element(in->buffer, in->offset,
                                              in->length, &buffer, &offset));
  // Little-endian hosts only (the HAL's assumption everywhere): the low
  // bytes of |value| are the loaded ones.
  uint32_t value = 0;
  GRT_RETURN_IF_ERROR(grt_hal_device_transfer_d2h(
      data->device, buffer, offset, &value, (size_t)in->length));
  out->value = (int32_t)value;
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(buffer_store) {
  grt_hal_buffer_t* buffer = NULL;
  uint64_t offset = 0;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_element(in->buffer, in->offset,
                                              in->length, &buffer, &offset));
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_hal_buffer_validate_writable(buffer, "hal.buffer.store"),
      "argument 'buffer'");
  uint32_t value = (uint32_t)in->value;
  return grt_hal_device_transfer_h2d(data->device, &value, buffer, offset,
                                     (size_t)in->length);
}

//===----------------------------------------------------------------------===//
// hal.buffer_view.*
//===----------------------------------------------------------------------===//

GRT_RUNTIME_HAL_EXPORT(buffer_view_create) {
  grt_hal_dim_t shape[GRT_HAL_MAX_RANK];
  size_t rank = 0;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_shape(in->dims, shape, &rank));
  GRT_RETURN_IF_ERROR(grt_runtime_check_encoding(in->encoding));
  grt_hal_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_buffer(in->buffer, &buffer));
  uint64_t offset = 0;
  uint64_t length = 0;
  GRT_RETURN_IF_ERROR(
      grt_runtime_arg_range(in->offset, in->length, &offset, &length));
  grt_hal_buffer_t* viewed = buffer;
  bool whole = offset == 0 && (length == GRT_HAL_WHOLE_BUFFER ||
                               length == grt_hal_buffer_byte_length(buffer));
  if (!whole) {
    GRT_RETURN_IF_ERROR(grt_hal_buffer_subspan(buffer, offset, length, &viewed));
  }
  grt_hal_buffer_view_t* view = NULL;
  grt_status_t status = grt_hal_buffer_view_create(
      viewed, shape, rank, (grt_hal_element_type_t)in->element_type,
      data->host_allocator, &view);
  if (!whole) grt_hal_buffer_release(viewed);
  GRT_RETURN_IF_ERROR(status);
  out->view = grt_vm_ref_wrap_move(view, &grt_runtime_hal_buffer_view_type);
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(buffer_view_assert) {
  grt_hal_element_type_t element_type =
      (grt_hal_element_type_t)in->element_type;
  grt_hal_dim_t shape[GRT_HAL_MAX_RANK];
  size_t rank = 0;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_shape(in->dims, shape, &rank));
  grt_string_view_t message;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_text(in->message, "message", &message));
  GRT_RETURN_IF_ERROR(grt_runtime_check_encoding(in->encoding));
  grt_hal_buffer_view_t* view =
      grt_vm_ref_as(in->view, &grt_runtime_hal_buffer_view_type);
  if (!view) {
    char expected[128];
    grt_hal_shape_format(shape, rank, element_type, expected, sizeof(expected));
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%.*s: expected tensor<%s>, got ref<%s>",
                           GRT_SV_ARG(message), expected,
                           grt_vm_ref_type_name(in->view->type));
  }
  grt_status_t status =
      grt_hal_buffer_view_check(view, shape, rank, element_type);
  if (grt_status_is_ok(status)) return status;
  // The check's message, prefixed with what the program says is checked.
  grt_status_t prefixed =
      grt_make_status(grt_status_code(status), "%.*s: %s", GRT_SV_ARG(message),
                      grt_status_message(status));
  grt_status_free(status);
  return prefixed;
}

static grt_status_t grt_runtime_arg_view(const grt_vm_ref_t* ref,
                                         grt_hal_buffer_view_t** out_view) {
  return grt_runtime_arg(ref, &grt_runtime_hal_buffer_view_type,
                         "buffer_view", (void**)out_view);
}

// Dimension |index| of |view|; OUT_OF_RANGE naming the view's type when
// it has no such dimension.
static grt_status_t grt_runtime_view_dim(const grt_hal_buffer_view_t* view,
                                         int32_t index, int64_t* out_dim) {
  size_t rank = grt_hal_buffer_view_rank(view);
  if (index < 0 || (size_t)index >= rank) {
    char type[160];
    grt_hal_buffer_view_format_type(view, type, sizeof(type));
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "dimension %d is out of range for %s (rank %zu)",
                           index, type, rank);
  }
  *out_dim = grt_hal_buffer_view_dim(view, (size_t)index);
  return grt_ok_status();
}

// The checks of shape-polymorphic programs: "<message>: expected 4, got 3".
GRT_RUNTIME_HAL_EXPORT(buffer_view_assert_dim) {
  grt_hal_buffer_view_t* view = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_view(in->view, &view));
  grt_string_view_t message;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_text(in->message, "message", &message));
  static const char* const kRelations[3] = {"", "at least ", "at most "};
  if (in->relation < 0 || in->relation > 2) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "relation %d is not 0 (==), 1 (>=) or 2 (<=)",
                           in->relation);
  }
  int64_t dim = 0;
  GRT_RETURN_IF_ERROR(grt_runtime_view_dim(view, in->index, &dim));
  bool holds = in->relation == 0   ? dim == in->bound
               : in->relation == 1 ? dim >= in->bound
                                   : dim <= in->bound;
  if (holds) return grt_ok_status();
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "%.*s: expected %s%" PRId64 ", got %" PRId64,
                         GRT_SV_ARG(message), kRelations[in->relation],
                         in->bound, dim);
}

GRT_RUNTIME_HAL_EXPORT(buffer_view_buffer) {
  grt_hal_buffer_view_t* view = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_view(in->view, &view));
  grt_hal_buffer_t* buffer = grt_hal_buffer_view_buffer(view);
  grt_hal_buffer_retain(buffer);
  out->buffer = grt_vm_ref_wrap_move(buffer, &grt_runtime_hal_buffer_type);
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(buffer_view_element_type) {
  grt_hal_buffer_view_t* view = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_view(in->view, &view));
  out->element_type = (int32_t)grt_hal_buffer_view_element_type(view);
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(buffer_view_rank) {
  grt_hal_buffer_view_t* view = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_view(in->view, &view));
  out->rank = (int32_t)grt_hal_buffer_view_rank(view);
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(buffer_view_dim) {
  grt_hal_buffer_view_t* view = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_view(in->view, &view));
  return grt_runtime_view_dim(view, in->index, &out->dim);
}

//===----------------------------------------------------------------------===//
// hal.command_buffer.*
//===----------------------------------------------------------------------===//

static grt_status_t grt_runtime_arg_command_buffer(
    const grt_vm_ref_t* ref, grt_hal_command_buffer_t** out) {
  return grt_runtime_arg(ref, &grt_runtime_hal_command_buffer_type,
                         "command_buffer", (void**)out);
}

static grt_status_t grt_runtime_arg_slot(int32_t slot, const char* what) {
  return grt_runtime_arg_count(slot, what);
}

// A direct buffer range, or (null buffer) a binding-table slot.
static grt_status_t grt_runtime_arg_buffer_ref(const grt_vm_ref_t* buffer_ref,
                                               int32_t slot, int64_t offset,
                                               int64_t length,
                                               const char* what,
                                               grt_hal_buffer_ref_t* out) {
  grt_hal_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_or_null(
      buffer_ref, &grt_runtime_hal_buffer_type, what, (void**)&buffer));
  uint64_t offset_value = 0;
  uint64_t length_value = 0;
  GRT_RETURN_IF_ERROR(
      grt_runtime_arg_range(offset, length, &offset_value, &length_value));
  if (buffer) {
    *out = grt_hal_make_buffer_ref(buffer, offset_value, length_value);
  } else {
    GRT_RETURN_IF_ERROR(grt_runtime_arg_slot(slot, "binding slot"));
    *out = grt_hal_make_indirect_buffer_ref((uint32_t)slot, offset_value,
                                            length_value);
  }
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(command_buffer_create) {
  grt_hal_device_t* device = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_device(in->device, &device));
  if (in->mode != GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT &&
      in->mode != GRT_HAL_COMMAND_BUFFER_MODE_REUSABLE) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "command buffer mode must be 0 (one-shot) or 1 "
                           "(reusable), got %d",
                           in->mode);
  }
  GRT_RETURN_IF_ERROR(
      grt_runtime_arg_count(in->binding_capacity, "binding capacity"));
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_device_create_command_buffer(
      device, (grt_hal_command_buffer_mode_t)in->mode,
      (uint32_t)in->binding_capacity, &command_buffer));
  out->cb = grt_vm_ref_wrap_move(command_buffer,
                                 &grt_runtime_hal_command_buffer_type);
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(command_buffer_begin) {
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_command_buffer(in->cb, &command_buffer));
  return grt_hal_command_buffer_begin(command_buffer);
}

GRT_RUNTIME_HAL_EXPORT(command_buffer_end) {
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_command_buffer(in->cb, &command_buffer));
  return grt_hal_command_buffer_end(command_buffer);
}

GRT_RUNTIME_HAL_EXPORT(command_buffer_execution_barrier) {
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_command_buffer(in->cb, &command_buffer));
  return grt_hal_command_buffer_execution_barrier(command_buffer);
}

GRT_RUNTIME_HAL_EXPORT(command_buffer_fill_buffer) {
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_command_buffer(in->cb, &command_buffer));
  grt_hal_buffer_ref_t target;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_buffer_ref(
      in->target, in->target_slot, in->target_offset, in->length, "target",
      &target));
  GRT_RETURN_IF_ERROR(grt_runtime_check_element_width(in->pattern_length));
  return grt_hal_command_buffer_fill_buffer(command_buffer, target,
                                            (uint32_t)in->pattern,
                                            (size_t)in->pattern_length);
}

GRT_RUNTIME_HAL_EXPORT(command_buffer_copy_buffer) {
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_command_buffer(in->cb, &command_buffer));
  grt_hal_buffer_ref_t source;
  grt_hal_buffer_ref_t target;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_buffer_ref(
      in->source, in->source_slot, in->source_offset, in->length, "source",
      &source));
  GRT_RETURN_IF_ERROR(grt_runtime_arg_buffer_ref(
      in->target, in->target_slot, in->target_offset, in->length, "target",
      &target));
  return grt_hal_command_buffer_copy_buffer(command_buffer, source, target);
}

GRT_RUNTIME_HAL_EXPORT(command_buffer_update_buffer) {
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_command_buffer(in->cb, &command_buffer));
  grt_vm_buffer_t* source = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg(in->source, grt_vm_buffer_type(),
                                      "source", (void**)&source));
  uint64_t source_offset = 0;
  uint64_t length = 0;
  GRT_RETURN_IF_ERROR(
      grt_runtime_arg_size(in->source_offset, "source offset", &source_offset));
  // The bytes are copied now, so the length must be known now.
  GRT_RETURN_IF_ERROR(grt_runtime_arg_size(in->length, "length", &length));
  const void* bytes = NULL;
  GRT_RETURN_IF_ERROR(
      grt_vm_buffer_map_read(source, source_offset, length, &bytes));
  grt_hal_buffer_ref_t target;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_buffer_ref(
      in->target, in->target_slot, in->target_offset, in->length, "target",
      &target));
  return grt_hal_command_buffer_update_buffer(command_buffer, bytes, target);
}

// Bindings of a dispatch held on the C stack up to this count.
#define GRT_RUNTIME_INLINE_BINDINGS 16

GRT_RUNTIME_HAL_EXPORT(command_buffer_dispatch) {
  int32_t constant_count = in->constants.count;
  // The constants are consecutive i32s in the packed buffer: used in place.
  const uint32_t* constants =
      (const uint32_t*)(in->constants.base + in->constants.offset);
  int32_t binding_count = in->bindings.count;
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_command_buffer(in->cb, &command_buffer));
  grt_hal_executable_t* executable = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg(in->executable,
                                      &grt_runtime_hal_executable_type,
                                      "executable", (void**)&executable));
  GRT_RETURN_IF_ERROR(grt_runtime_arg_count(in->entry_point, "entry point"));
  const int32_t workgroups[3] = {in->x, in->y, in->z};
  for (int i = 0; i < 3; ++i) {
    GRT_RETURN_IF_ERROR(grt_runtime_arg_count(workgroups[i], "workgroup count"));
  }
  grt_hal_buffer_ref_t inline_bindings[GRT_RUNTIME_INLINE_BINDINGS];
  grt_hal_buffer_ref_t* bindings = NULL;
  GRT_RETURN_IF_ERROR(GRT_RUNTIME_SCRATCH_ACQUIRE(data, binding_count,
                                                  inline_bindings, &bindings));
  grt_hal_abi_bindings_span_t span = in->bindings;
  grt_status_t status = grt_ok_status();
  for (int32_t i = 0; i < binding_count && grt_status_is_ok(status); ++i) {
    grt_hal_abi_bindings_t binding;
    grt_hal_abi_bindings_next(&span, &binding);
    status = grt_status_annotate(
        grt_runtime_arg_buffer_ref(binding.buffer, binding.slot,
                                   binding.offset, binding.length, "buffer",
                                   &bindings[i]),
        "binding %d", i);
  }
  if (grt_status_is_ok(status)) {
    grt_hal_dispatch_params_t params = {
        executable,
        (uint32_t)in->entry_point,
        {(uint32_t)workgroups[0], (uint32_t)workgroups[1],
         (uint32_t)workgroups[2]},
        constant_count ? constants : NULL,
        (size_t)constant_count,
        bindings,
        (size_t)binding_count,
    };
    status = grt_hal_command_buffer_dispatch(command_buffer, &params);
  }
  grt_runtime_scratch_release(data, inline_bindings, bindings);
  return status;
}

//===----------------------------------------------------------------------===//
// hal.executable.* / hal.devices.* / hal.device.*
//===----------------------------------------------------------------------===//

// The executable registered for the module named by |module| (a vm.buffer
// of text); NOT_FOUND naming the modules that have one.
static grt_status_t grt_runtime_hal_lookup_executable(
    const grt_runtime_hal_module_data_t* data, const grt_vm_ref_t* device_ref,
    const grt_vm_ref_t* module,
    const grt_runtime_hal_executable_entry_t** out_entry) {
  *out_entry = NULL;
  grt_hal_device_t* device = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_device(device_ref, &device));
  grt_string_view_t name;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_text(module, "module_name", &name));
  *out_entry = grt_runtime_hal_find_executable(data, name);
  if (*out_entry) return grt_ok_status();
  char known[256] = "";
  size_t used = 0;
  for (size_t i = 0; i < data->executable_count && used < sizeof(known); ++i) {
    int n = snprintf(known + used, sizeof(known) - used, "%s%s",
                     i ? ", " : "", data->executables[i].module_name);
    if (n < 0) break;
    used += (size_t)n;
  }
  return grt_make_status(GRT_STATUS_NOT_FOUND,
                         "no executable for module '%.*s'; modules with "
                         "executables: %s",
                         GRT_SV_ARG(name),
                         data->executable_count ? known : "(none)");
}

GRT_RUNTIME_HAL_EXPORT(executable_lookup) {
  const grt_runtime_hal_executable_entry_t* entry = NULL;
  GRT_RETURN_IF_ERROR(
      grt_runtime_hal_lookup_executable(data, in->device, in->module, &entry));
  grt_hal_executable_retain(entry->executable);
  out->executable = grt_vm_ref_wrap_move(entry->executable,
                                         &grt_runtime_hal_executable_type);
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(executable_variant) {
  const grt_runtime_hal_executable_entry_t* entry = NULL;
  GRT_RETURN_IF_ERROR(
      grt_runtime_hal_lookup_executable(data, in->device, in->module, &entry));
  out->variant = (int32_t)entry->variant;
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(devices_count) {
  out->count = 1;
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(devices_get) {
  if (in->index != 0) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "device %d is out of range (the session has 1 "
                           "device)",
                           in->index);
  }
  grt_hal_device_retain(data->device);
  out->device = grt_vm_ref_wrap_move(data->device, &grt_runtime_hal_device_type);
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(device_allocator) {
  grt_hal_device_t* device = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_device(in->device, &device));
  grt_hal_allocator_t* allocator = grt_hal_device_allocator(device);
  grt_hal_allocator_retain(allocator);
  out->allocator =
      grt_vm_ref_wrap_move(allocator, &grt_runtime_hal_allocator_type);
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(device_query_i64) {
  grt_hal_device_t* device = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_device(in->device, &device));
  grt_string_view_t category;
  grt_string_view_t key;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_text(in->category, "category",
                                           &category));
  GRT_RETURN_IF_ERROR(grt_runtime_arg_text(in->key, "key", &key));
  int64_t value = 0;
  grt_status_t status = grt_hal_device_query_i64(device, category, key, &value);
  if (grt_status_code(status) == GRT_STATUS_NOT_FOUND) {
    // Programs probe for keys; an unknown one is an answer, not an error.
    grt_status_free(status);
    out->ok = 0;
    out->value = 0;
    return grt_ok_status();
  }
  GRT_RETURN_IF_ERROR(status);
  out->ok = 1;
  out->value = value;
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(device_queue_alloca) {
  grt_runtime_queue_args_t queue;
  GRT_RETURN_IF_ERROR(
      grt_runtime_args_queue(in->device, in->wait, in->signal, &queue));
  uint64_t size = 0;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_size(in->size, "size", &size));
  grt_hal_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_device_queue_alloca(
      queue.device, queue.wait, queue.signal,
      grt_runtime_buffer_params(in->memory_types, in->buffer_usage), size,
      &buffer));
  out->buffer = grt_vm_ref_wrap_move(buffer, &grt_runtime_hal_buffer_type);
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(device_queue_dealloca) {
  grt_runtime_queue_args_t queue;
  GRT_RETURN_IF_ERROR(
      grt_runtime_args_queue(in->device, in->wait, in->signal, &queue));
  grt_hal_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_buffer(in->buffer, &buffer));
  return grt_hal_device_queue_dealloca(queue.device, queue.wait, queue.signal,
                                       buffer);
}

// Command buffers of one execute held on the C stack up to this count.
#define GRT_RUNTIME_INLINE_COMMAND_BUFFERS 8

GRT_RUNTIME_HAL_EXPORT(device_queue_execute) {
  grt_runtime_queue_args_t queue;
  GRT_RETURN_IF_ERROR(
      grt_runtime_args_queue(in->device, in->wait, in->signal, &queue));
  int32_t count = in->command_buffers.count;
  grt_hal_command_buffer_t* inline_list[GRT_RUNTIME_INLINE_COMMAND_BUFFERS];
  grt_hal_command_buffer_t** list = NULL;
  GRT_RETURN_IF_ERROR(
      GRT_RUNTIME_SCRATCH_ACQUIRE(data, count, inline_list, &list));
  grt_hal_abi_command_buffers_span_t span = in->command_buffers;
  grt_status_t status = grt_ok_status();
  for (int32_t i = 0; i < count && grt_status_is_ok(status); ++i) {
    grt_hal_abi_command_buffers_t group;
    grt_hal_abi_command_buffers_next(&span, &group);
    status = grt_status_annotate(
        grt_runtime_arg_command_buffer(group.command_buffer, &list[i]),
        "command buffer %d", i);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_device_queue_execute(queue.device, queue.wait,
                                          queue.signal, (size_t)count, list,
                                          NULL);
  }
  grt_runtime_scratch_release(data, inline_list, list);
  return status;
}

GRT_RUNTIME_HAL_EXPORT(device_queue_execute_indirect) {
  grt_runtime_queue_args_t queue;
  GRT_RETURN_IF_ERROR(
      grt_runtime_args_queue(in->device, in->wait, in->signal, &queue));
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_command_buffer(in->cb, &command_buffer));
  int32_t count = in->binding_table.count;
  grt_hal_buffer_binding_t inline_bindings[GRT_RUNTIME_INLINE_BINDINGS];
  grt_hal_buffer_binding_t* bindings = NULL;
  GRT_RETURN_IF_ERROR(
      GRT_RUNTIME_SCRATCH_ACQUIRE(data, count, inline_bindings, &bindings));
  grt_hal_abi_binding_table_span_t span = in->binding_table;
  grt_status_t status = grt_ok_status();
  for (int32_t i = 0; i < count && grt_status_is_ok(status); ++i) {
    grt_hal_abi_binding_table_t slot;
    grt_hal_abi_binding_table_next(&span, &slot);
    bindings[i].buffer = NULL;
    status = grt_runtime_arg_buffer(slot.buffer, &bindings[i].buffer);
    if (grt_status_is_ok(status)) {
      status = grt_runtime_arg_range(slot.offset, slot.length,
                                     &bindings[i].offset, &bindings[i].length);
    }
    status = grt_status_annotate(status, "binding table slot %d", i);
  }
  if (grt_status_is_ok(status)) {
    grt_hal_buffer_binding_table_t table = {(size_t)count, bindings};
    status = grt_hal_device_queue_execute(queue.device, queue.wait,
                                          queue.signal, 1, &command_buffer,
                                          &table);
  }
  grt_runtime_scratch_release(data, inline_bindings, bindings);
  return status;
}

//===----------------------------------------------------------------------===//
// hal.fence.*
//===----------------------------------------------------------------------===//

static grt_status_t grt_runtime_arg_fence(const grt_vm_ref_t* ref,
                                          grt_hal_fence_t** out) {
  return grt_runtime_arg(ref, &grt_runtime_hal_fence_type, "fence",
                         (void**)out);
}

GRT_RUNTIME_HAL_EXPORT(fence_create) {
  grt_hal_device_t* device = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_device(in->device, &device));
  grt_hal_semaphore_t* semaphore = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_device_create_semaphore(device, 0, &semaphore));
  grt_hal_fence_t* fence = NULL;
  grt_status_t status =
      grt_hal_fence_create_at(semaphore, 1, data->host_allocator, &fence);
  grt_hal_semaphore_release(semaphore);
  GRT_RETURN_IF_ERROR(status);
  out->fence = grt_vm_ref_wrap_move(fence, &grt_runtime_hal_fence_type);
  return grt_ok_status();
}

// Fences of a join/await held on the C stack up to this count.
#define GRT_RUNTIME_INLINE_FENCES 16

// Collects a span of fences (null entries kept as NULL).
static grt_status_t grt_runtime_arg_fences(grt_runtime_hal_module_data_t* data,
                                           grt_hal_abi_fences_span_t span,
                                           grt_hal_fence_t** inline_fences,
                                           grt_hal_fence_t*** out_fences,
                                           size_t* out_count) {
  int32_t count = span.count;
  grt_hal_fence_t** fences = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_scratch_acquire(
      data, count, sizeof(*fences), inline_fences, GRT_RUNTIME_INLINE_FENCES,
      (void**)&fences));
  grt_status_t status = grt_ok_status();
  for (int32_t i = 0; i < count && grt_status_is_ok(status); ++i) {
    grt_hal_abi_fences_t group;
    grt_hal_abi_fences_next(&span, &group);
    status = grt_status_annotate(
        grt_runtime_arg_or_null(group.fence, &grt_runtime_hal_fence_type,
                                "fence", (void**)&fences[i]),
        "fence %d", i);
  }
  if (!grt_status_is_ok(status)) {
    grt_runtime_scratch_release(data, inline_fences, fences);
    return status;
  }
  *out_fences = fences;
  *out_count = count > 0 ? (size_t)count : 0;
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(fence_join) {
  grt_hal_fence_t* inline_fences[GRT_RUNTIME_INLINE_FENCES];
  grt_hal_fence_t** fences = NULL;
  size_t count = 0;
  GRT_RETURN_IF_ERROR(
      grt_runtime_arg_fences(data, in->fences, inline_fences, &fences, &count));
  grt_hal_fence_t* joined = NULL;
  grt_status_t status =
      grt_hal_fence_join(count, fences, data->host_allocator, &joined);
  grt_runtime_scratch_release(data, inline_fences, fences);
  GRT_RETURN_IF_ERROR(status);
  out->fence = grt_vm_ref_wrap_move(joined, &grt_runtime_hal_fence_type);
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(fence_signal) {
  grt_hal_fence_t* fence = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_fence(in->fence, &fence));
  return grt_hal_fence_signal(fence);
}

// custom_call @shape_assertion: the program's own message, its "{i}"
// placeholders filled with the values it computed (jax.export writes
// "Obtained 'b' = {0}.").
GRT_RUNTIME_HAL_EXPORT(shape_assertion) {
  grt_string_view_t message;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_text(in->message, "message", &message));
  if (in->holds) return grt_ok_status();
  int64_t values[16];
  int32_t count = in->values.count;
  grt_hal_abi_dims_span_t span = in->values;
  for (int32_t i = 0; i < count; ++i) {
    grt_hal_abi_dims_t value;
    grt_hal_abi_dims_next(&span, &value);
    if (i < 16) values[i] = value.dim;
  }
  char text[4096];
  size_t used = 0;
  for (size_t i = 0; i < message.size && used + 1 < sizeof(text); ++i) {
    char c = message.data[i];
    size_t close = i + 1;
    while (close < message.size && close < i + 4 && message.data[close] >= '0' &&
           message.data[close] <= '9') {
      ++close;
    }
    if (c == '{' && close > i + 1 && close < message.size &&
        message.data[close] == '}') {
      int32_t index = 0;
      for (size_t k = i + 1; k < close; ++k) {
        index = index * 10 + (message.data[k] - '0');
      }
      if (index < count && index < 16) {
        int n = snprintf(text + used, sizeof(text) - used, "%" PRId64,
                         values[index]);
        if (n > 0) used += (size_t)n < sizeof(text) - used ? (size_t)n
                                                          : sizeof(text) - used - 1;
        i = close;
        continue;
      }
    }
    text[used++] = c;
  }
  text[used] = '\0';
  return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                         "shape assertion failed: %s", text);
}

GRT_RUNTIME_HAL_EXPORT(fence_fail) {
  grt_hal_fence_t* fence = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_fence(in->fence, &fence));
  if (in->code <= GRT_STATUS_OK || in->code >= GRT_STATUS_FAILURE_CODE_END) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "fence failure code must be a status code from 1 "
                           "to %d, got %d",
                           GRT_STATUS_FAILURE_CODE_END - 1, in->code);
  }
  grt_hal_fence_fail(fence,
                     grt_make_status((grt_status_code_t)in->code,
                                     "fence failed by the program (hal.fence."
                                     "fail with code %d)",
                                     in->code));
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(fence_query) {
  grt_hal_fence_t* fence = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_arg_fence(in->fence, &fence));
  bool reached = false;
  GRT_RETURN_IF_ERROR(grt_hal_fence_query(fence, &reached));
  out->reached = reached ? 1 : 0;
  return grt_ok_status();
}

GRT_RUNTIME_HAL_EXPORT(fence_await) {
  int32_t timeout_ms = in->timeout_ms;
  grt_hal_fence_t* inline_fences[GRT_RUNTIME_INLINE_FENCES];
  grt_hal_fence_t** fences = NULL;
  size_t count = 0;
  GRT_RETURN_IF_ERROR(
      grt_runtime_arg_fences(data, in->fences, inline_fences, &fences, &count));
  // One deadline for all of them: the timeout bounds the whole await. The
  // call's own deadline (the session's call timeout) bounds it too; running
  // into that one fails the call instead of returning 0.
  grt_time_t deadline =
      timeout_ms < 0
          ? GRT_TIME_INFINITE_FUTURE
          : grt_deadline_from_timeout_ns((grt_duration_t)timeout_ms * 1000000);
  bool call_bound = data->call_deadline < deadline;
  if (call_bound) deadline = data->call_deadline;
  grt_status_t status = grt_ok_status();
  for (size_t i = 0; i < count && grt_status_is_ok(status); ++i) {
    if (!fences[i]) continue;
    grt_duration_t timeout = deadline == GRT_TIME_INFINITE_FUTURE
                                 ? GRT_HAL_TIMEOUT_INFINITE
                                 : grt_timeout_from_deadline_ns(deadline);
    status = grt_hal_fence_wait(fences[i], timeout);
  }
  grt_runtime_scratch_release(data, inline_fences, fences);
  int32_t reached = 1;
  if (grt_status_code(status) == GRT_STATUS_DEADLINE_EXCEEDED) {
    grt_status_free(status);
    if (call_bound) {
      return grt_make_status(
          GRT_STATUS_DEADLINE_EXCEEDED,
          "hal.fence.await: the call's timeout of %g ms ran out while "
          "waiting on %zu fence%s (fence.await timeout %d ms%s)",
          (double)data->call_timeout / 1e6, count,
          count == 1 ? "" : "s", (int)timeout_ms,
          timeout_ms < 0 ? ": forever" : "");
    }
    status = grt_ok_status();
    reached = 0;
  }
  GRT_RETURN_IF_ERROR(status);
  out->reached = reached;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// The module
//===----------------------------------------------------------------------===//

// One row per line of runtime/hal_abi.h, which is sorted by name.
static const grt_vm_native_export_t grt_runtime_hal_exports[] = {
#define GRT_RUNTIME_HAL_ROW(id, name, optional, doc) \
  GRT_RUNTIME_ABI_EXPORT_ROW(grt_runtime_hal, GRT_HAL_ABI_##id, id, name)
    GRT_HAL_ABI_EXPORT_LIST(GRT_RUNTIME_HAL_ROW)
#undef GRT_RUNTIME_HAL_ROW
};

static const grt_vm_native_module_descriptor_t grt_runtime_hal_descriptor = {
    "hal",
    grt_runtime_hal_exports,
    sizeof(grt_runtime_hal_exports) / sizeof(grt_runtime_hal_exports[0]),
    NULL,
    NULL,
    grt_runtime_hal_module_data_destroy,
};

grt_status_t grt_runtime_hal_module_create(grt_vm_instance_t* instance,
                                           grt_hal_device_t* device,
                                           grt_allocator_t host_allocator,
                                           grt_vm_module_t** out_module) {
  *out_module = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_hal_register_types(instance));
  grt_runtime_hal_module_data_t* data = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(host_allocator, sizeof(*data), (void**)&data));
  data->host_allocator = host_allocator;
  data->device = device;
  data->call_deadline = GRT_TIME_INFINITE_FUTURE;
  data->call_timeout = GRT_DURATION_INFINITE;
  grt_hal_device_retain(device);
  grt_status_t status = grt_vm_native_module_create(
      &grt_runtime_hal_descriptor, data, host_allocator, out_module);
  if (!grt_status_is_ok(status)) grt_runtime_hal_module_data_destroy(data);
  return status;
}

void grt_runtime_hal_module_set_call_deadline(grt_vm_module_t* hal_module,
                                              grt_time_t deadline_ns,
                                              grt_duration_t timeout_ns) {
  grt_runtime_hal_module_data_t* data =
      grt_vm_native_module_data(hal_module, &grt_runtime_hal_descriptor);
  if (!data) return;
  data->call_deadline = deadline_ns;
  data->call_timeout = timeout_ns;
}

grt_status_t grt_runtime_hal_module_register_executable(
    grt_vm_module_t* hal_module, grt_string_view_t module_name,
    grt_hal_executable_t* executable, uint32_t variant) {
  grt_runtime_hal_module_data_t* data =
      grt_vm_native_module_data(hal_module, &grt_runtime_hal_descriptor);
  if (!data) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "expected the hal module, got module '%.*s'",
                           GRT_SV_ARG(grt_vm_module_name(hal_module)));
  }
  if (grt_runtime_hal_find_executable(data, module_name)) {
    return grt_make_status(GRT_STATUS_ALREADY_EXISTS,
                           "module '%.*s' already has an executable registered",
                           GRT_SV_ARG(module_name));
  }
  if (data->executable_count == data->executable_capacity) {
    size_t capacity = data->executable_capacity ? data->executable_capacity * 2 : 4;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(
        data->host_allocator,
        data->executable_capacity * sizeof(*data->executables),
        capacity * sizeof(*data->executables), (void**)&data->executables));
    data->executable_capacity = capacity;
  }
  char* name = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(data->host_allocator,
                                           module_name.size + 1, (void**)&name));
  memcpy(name, module_name.data, module_name.size);
  name[module_name.size] = '\0';
  grt_hal_executable_retain(executable);
  data->executables[data->executable_count].module_name = name;
  data->executables[data->executable_count].executable = executable;
  data->executables[data->executable_count].variant = variant;
  ++data->executable_count;
  return grt_ok_status();
}

void grt_runtime_hal_module_unregister_executable(
    grt_vm_module_t* hal_module, grt_string_view_t module_name) {
  grt_runtime_hal_module_data_t* data =
      grt_vm_native_module_data(hal_module, &grt_runtime_hal_descriptor);
  if (!data) return;
  for (size_t i = 0; i < data->executable_count; ++i) {
    grt_runtime_hal_executable_entry_t* entry = &data->executables[i];
    if (!grt_string_view_equal_cstring(module_name, entry->module_name)) {
      continue;
    }
    grt_allocator_free(data->host_allocator, entry->module_name);
    grt_hal_executable_release(entry->executable);
    memmove(entry, entry + 1,
            (data->executable_count - i - 1) * sizeof(*entry));
    --data->executable_count;
    return;
  }
}
