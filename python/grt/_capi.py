"""ctypes bindings of the libgrt.so functions the package uses.

Every signature here restates one from the C headers (runtime/session.h,
hal/buffer_view.h, hal/transfer.h, base/status.h, python/libgrt.h);
GRT_FFI_ABI_VERSION in python/libgrt.h changes whenever one of them does,
and the library is refused when the versions differ.
"""

import ctypes
import ctypes.util
import os

ABI_VERSION = 2

status_t = ctypes.c_void_p  # grt_status_t: NULL is OK
dim_t = ctypes.c_int64  # grt_hal_dim_t
element_type_t = ctypes.c_uint32  # grt_hal_element_type_t


class string_view_t(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("size", ctypes.c_size_t)]


_SIGNATURES = {
    "grt_status_code": (ctypes.c_int, [status_t]),
    "grt_status_code_name": (ctypes.c_char_p, [ctypes.c_int]),
    "grt_status_message": (ctypes.c_char_p, [status_t]),
    "grt_status_free": (None, [status_t]),
    "grt_runtime_instance_create": (status_t, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]),
    "grt_runtime_instance_release": (None, [ctypes.c_void_p]),
    "grt_runtime_instance_create_device": (
        status_t, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]),
    "grt_runtime_session_create": (
        status_t, [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]),
    "grt_runtime_session_release": (None, [ctypes.c_void_p]),
    "grt_runtime_session_append_module_from_file": (status_t, [ctypes.c_void_p, ctypes.c_char_p]),
    "grt_runtime_session_set_call_timeout": (status_t, [ctypes.c_void_p, ctypes.c_int64]),
    "grt_runtime_session_add_trusted_key_file": (status_t, [ctypes.c_void_p, ctypes.c_char_p]),
    "grt_runtime_session_set_require_signed_native_code": (status_t, [ctypes.c_void_p, ctypes.c_bool]),
    "grt_runtime_call_buffer_views": (
        status_t, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p),
                   ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_size_t)]),
    "grt_hal_element_type_parse": (status_t, [string_view_t, ctypes.POINTER(element_type_t)]),
    "grt_hal_element_type_name": (ctypes.c_char_p, [element_type_t]),
    "grt_hal_buffer_view_allocate_from_host": (
        status_t, [ctypes.c_void_p, ctypes.POINTER(dim_t), ctypes.c_size_t, element_type_t,
                   ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p)]),
    "grt_hal_buffer_view_read_to_host": (
        status_t, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]),
    "grt_hal_buffer_view_release": (None, [ctypes.c_void_p]),
    "grt_hal_buffer_view_rank": (ctypes.c_size_t, [ctypes.c_void_p]),
    "grt_hal_buffer_view_shape": (ctypes.POINTER(dim_t), [ctypes.c_void_p]),
    "grt_hal_buffer_view_element_type": (element_type_t, [ctypes.c_void_p]),
    "grt_hal_buffer_view_byte_length": (ctypes.c_uint64, [ctypes.c_void_p]),
    "grt_ffi_device_release": (None, [ctypes.c_void_p]),
    "grt_ffi_abi_version": (ctypes.c_uint32, []),
}


def library_path():
    """Where libgrt.so is: $GRT_LIBRARY, else the loader's search path."""
    path = os.environ.get("GRT_LIBRARY")
    if path:
        return path
    found = ctypes.util.find_library("grt")
    if found:
        return found
    raise OSError(
        "cannot find libgrt.so: set GRT_LIBRARY to its path (a build puts it at "
        "BUILD_DIR/lib/libgrt.so; `cmake --install` at PREFIX/lib/libgrt.so)")


def load(path=None):
    path = path or library_path()
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise OSError(f"cannot load libgrt.so from '{path}': {e}") from None
    for name, (restype, argtypes) in _SIGNATURES.items():
        try:
            fn = getattr(lib, name)
        except AttributeError:
            raise OSError(f"'{path}' is not a grt library this package can use: it lacks {name}") from None
        fn.restype = restype
        fn.argtypes = argtypes
    version = lib.grt_ffi_abi_version()
    if version != ABI_VERSION:
        raise OSError(f"'{path}' has C API version {version}, this package binds version {ABI_VERSION}: "
                      "use the python/ folder of the same grt build")
    return lib
