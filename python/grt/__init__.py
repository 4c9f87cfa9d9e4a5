"""grt from Python: load a compiled .vmfb and call its functions with numpy
arrays, over the runtime's C API in libgrt.so (ctypes; nothing to build
beyond the library).

    import grt, numpy as np
    m = grt.load("model.vmfb", device="local-task")
    y = m.main(np.ones((1, 16), np.float32))   # one result: an ndarray
    a, b = m.call("two_results", x)           # several: a tuple
    vmfb = grt.compile("model.onnx", target="cpu")

Errors from grt raise grt.Error, whose .code is the status name
("INVALID_ARGUMENT", ...) and whose text is grt's message, e.g. a wrong
input shape: "argument 0: expected tensor<4xf32>, got tensor<3xf32>".
The library is found through $GRT_LIBRARY (else the loader's search path),
grt-compile through $GRT_COMPILE (else PATH).
"""

import ctypes
import os
import shutil
import subprocess
import tempfile

import numpy as np

from . import _capi

__all__ = ["Error", "Module", "load", "compile", "element_types"]

# numpy dtype <-> grt element type name. bf16 has no numpy dtype.
_DTYPE_TO_ELEMENT = {
    np.dtype(np.bool_): "i1",
    np.dtype(np.int8): "i8",
    np.dtype(np.int16): "i16",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
    np.dtype(np.uint8): "ui8",
    np.dtype(np.uint16): "ui16",
    np.dtype(np.uint32): "ui32",
    np.dtype(np.uint64): "ui64",
    np.dtype(np.float16): "f16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
}
_ELEMENT_TO_DTYPE = {name: dtype for dtype, name in _DTYPE_TO_ELEMENT.items()}

_lib = None


def _library():
    global _lib
    if _lib is None:
        _lib = _capi.load()
    return _lib


class Error(Exception):
    """A failed grt call: .code is the status name, str() grt's message."""

    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def _check(status, context=None):
    if not status:
        return
    lib = _library()
    code = lib.grt_status_code(status)
    name = lib.grt_status_code_name(code).decode()
    message = lib.grt_status_message(status).decode(errors="replace")
    lib.grt_status_free(status)
    if context:
        message = f"{context}: {message}"
    raise Error(name, message)


def element_types():
    """The numpy dtypes this package converts, by grt element type name."""
    return dict(_ELEMENT_TO_DTYPE)


def _element_type(name):
    lib = _library()
    raw = name.encode()
    out = _capi.element_type_t()
    _check(lib.grt_hal_element_type_parse(_capi.string_view_t(raw, len(raw)), ctypes.byref(out)))
    return out.value


class Module:
    """A .vmfb loaded into its own session on one device. Call its functions
    as attributes (m.main(x)) or with call("name", ...). Close it with
    close() or a with-block; the session also goes when it is collected."""

    def __init__(self, path, device="local-sync", timeout_ms=None, trusted_keys=(),
                 require_signed=False):
        lib = _library()
        self._lib = lib
        self._instance = ctypes.c_void_p()
        self._device = ctypes.c_void_p()
        self._session = ctypes.c_void_p()
        self.path = os.fspath(path)
        self.device = device
        try:
            _check(lib.grt_runtime_instance_create(None, ctypes.byref(self._instance)))
            _check(lib.grt_runtime_instance_create_device(
                self._instance, device.encode(), None, ctypes.byref(self._device)),
                f"device '{device}'")
            _check(lib.grt_runtime_session_create(self._instance, self._device,
                                                  ctypes.byref(self._session)))
            if timeout_ms is not None:
                if not isinstance(timeout_ms, int) or timeout_ms <= 0:
                    raise ValueError(f"timeout_ms: expected a positive number of milliseconds, got {timeout_ms!r}")
                _check(lib.grt_runtime_session_set_call_timeout(self._session, timeout_ms * 1000000))
            if isinstance(trusted_keys, (str, bytes, os.PathLike)):
                raise TypeError("trusted_keys: expected a list of public key file paths, got one path "
                                f"({trusted_keys!r}); pass [path]")
            for key in trusted_keys:
                _check(lib.grt_runtime_session_add_trusted_key_file(self._session, os.fsencode(key)))
            _check(lib.grt_runtime_session_set_require_signed_native_code(self._session, bool(require_signed)))
            _check(lib.grt_runtime_session_append_module_from_file(self._session, self.path.encode()))
        except BaseException:
            self.close()
            raise

    def close(self):
        lib = self._lib
        if self._session:
            lib.grt_runtime_session_release(self._session)
            self._session = ctypes.c_void_p()
        if self._device:
            lib.grt_ffi_device_release(self._device)
            self._device = ctypes.c_void_p()
        if self._instance:
            lib.grt_runtime_instance_release(self._instance)
            self._instance = ctypes.c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_lib", None) is not None:
            self.close()

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda *args: self.call(name, *args)

    def _input(self, index, value):
        array = np.asarray(value)
        if not array.flags.c_contiguous:  # (ascontiguousarray makes 0-d arrays 1-d)
            array = np.ascontiguousarray(array)
        name = _DTYPE_TO_ELEMENT.get(array.dtype)
        if name is None:
            supported = ", ".join(str(d) for d in _DTYPE_TO_ELEMENT)
            raise TypeError(f"input {index}: dtype {array.dtype} has no grt element type; expected one of {supported}")
        rank = array.ndim
        shape = (_capi.dim_t * max(rank, 1))(*array.shape)
        view = ctypes.c_void_p()
        _check(self._lib.grt_hal_buffer_view_allocate_from_host(
            self._device, shape, rank, _element_type(name),
            array.ctypes.data_as(ctypes.c_void_p), array.nbytes, ctypes.byref(view)),
            f"input {index}")
        return view

    def _output(self, index, view):
        lib = self._lib
        rank = lib.grt_hal_buffer_view_rank(view)
        dims = lib.grt_hal_buffer_view_shape(view)
        shape = tuple(dims[i] for i in range(rank))
        name = lib.grt_hal_element_type_name(lib.grt_hal_buffer_view_element_type(view)).decode()
        dtype = _ELEMENT_TO_DTYPE.get(name)
        if dtype is None:
            raise Error("UNIMPLEMENTED", f"result {index}: element type {name} has no numpy dtype "
                        f"(supported: {', '.join(_ELEMENT_TO_DTYPE)})")
        array = np.empty(shape, dtype)
        _check(lib.grt_hal_buffer_view_read_to_host(
            self._device, view, array.ctypes.data_as(ctypes.c_void_p), array.nbytes),
            f"result {index}")
        return array

    def call(self, function, *inputs):
        """Calls |function| ("main", or "module.function") with ndarrays
        (or anything np.asarray takes: lists, scalars); returns one ndarray, a
        tuple of them, or None when the function returns nothing."""
        if not self._session:
            raise Error("FAILED_PRECONDITION", f"module '{self.path}' is closed")
        lib = self._lib
        views = []
        outputs = (ctypes.c_void_p * 64)()
        count = ctypes.c_size_t(0)
        try:
            for i, value in enumerate(inputs):
                views.append(self._input(i, value))
            array_in = (ctypes.c_void_p * max(len(views), 1))(*views)
            _check(lib.grt_runtime_call_buffer_views(
                self._session, function.encode(), len(views), array_in, len(outputs), outputs,
                ctypes.byref(count)))
            results = tuple(self._output(i, outputs[i]) for i in range(count.value))
        finally:
            for view in views:
                lib.grt_hal_buffer_view_release(view)
            for i in range(count.value):
                lib.grt_hal_buffer_view_release(outputs[i])
        if not results:
            return None
        return results[0] if len(results) == 1 else results


def load(path, device="local-sync", timeout_ms=None, trusted_keys=(), require_signed=False):
    """Loads |path| (a .vmfb) on |device| ("local-sync", "local-task",
    "vulkan", "cuda", ...). |trusted_keys| are public key files (grt-sign
    keygen): a signed module must be signed by one of them; with
    |require_signed| a module with executables must be (docs/runtime.md,
    "Signed modules")."""
    return Module(path, device=device, timeout_ms=timeout_ms, trusted_keys=trusted_keys,
                  require_signed=require_signed)


def compile(source, output=None, target="cpu", flags=()):
    """Runs grt-compile on |source| (.mlir or .onnx) for |target| ("cpu",
    "vulkan", "cpu,cuda", ...) and returns the .vmfb path (|output|, else a
    new file in a temporary folder). A compile error raises grt.Error with
    grt-compile's diagnostics."""
    tool = os.environ.get("GRT_COMPILE") or shutil.which("grt-compile")
    if not tool:
        raise OSError("cannot find grt-compile: set GRT_COMPILE to its path or put it on PATH")
    source = os.fspath(source)
    if output is None:
        output = os.path.join(tempfile.mkdtemp(prefix="grt-"),
                              os.path.splitext(os.path.basename(source))[0] + ".vmfb")
    command = [tool, source, "-o", os.fspath(output), f"--target={target}", *flags]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise Error("INVALID_ARGUMENT", (done.stderr or done.stdout).strip())
    return output
