// libgrt.so: the runtime's C API (runtime/session.h, hal/buffer_view.h,
// hal/transfer.h) as one shared library, for callers that load it at run
// time (python/grt over ctypes). Everything in the static libraries it is
// made of is exported; this file adds out-of-line versions of what the
// headers only define inline, which a foreign-function caller cannot
// reach.
#include "python/libgrt.h"

#include "base/status.h"
#include "hal/buffer_view.h"
#include "hal/transfer.h"
#include "runtime/session.h"

void grt_ffi_device_release(grt_hal_device_t* device) {
  grt_hal_device_release(device);
}

uint32_t grt_ffi_abi_version(void) { return GRT_FFI_ABI_VERSION; }

// What python/grt binds (python/grt/_capi.py), referenced here so the
// static libraries' objects that define them are linked in.
typedef void (*grt_ffi_function_t)(void);
const grt_ffi_function_t grt_ffi_bound_functions[] = {
    (grt_ffi_function_t)grt_status_code,
    (grt_ffi_function_t)grt_status_code_name,
    (grt_ffi_function_t)grt_status_message,
    (grt_ffi_function_t)grt_status_free,
    (grt_ffi_function_t)grt_runtime_instance_create,
    (grt_ffi_function_t)grt_runtime_instance_release,
    (grt_ffi_function_t)grt_runtime_instance_create_device,
    (grt_ffi_function_t)grt_runtime_session_create,
    (grt_ffi_function_t)grt_runtime_session_release,
    (grt_ffi_function_t)grt_runtime_session_append_module_from_file,
    (grt_ffi_function_t)grt_runtime_session_set_call_timeout,
    (grt_ffi_function_t)grt_runtime_session_add_trusted_key_file,
    (grt_ffi_function_t)grt_runtime_session_set_require_signed_native_code,
    (grt_ffi_function_t)grt_runtime_call_buffer_views,
    (grt_ffi_function_t)grt_hal_element_type_parse,
    (grt_ffi_function_t)grt_hal_element_type_name,
    (grt_ffi_function_t)grt_hal_buffer_view_allocate_from_host,
    (grt_ffi_function_t)grt_hal_buffer_view_read_to_host,
    (grt_ffi_function_t)grt_hal_buffer_view_release,
    (grt_ffi_function_t)grt_hal_buffer_view_rank,
    (grt_ffi_function_t)grt_hal_buffer_view_shape,
    (grt_ffi_function_t)grt_hal_buffer_view_element_type,
    (grt_ffi_function_t)grt_hal_buffer_view_byte_length,
    (grt_ffi_function_t)grt_ffi_device_release,
    (grt_ffi_function_t)grt_ffi_abi_version,
};
