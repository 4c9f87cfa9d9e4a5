"""Library for the gen_* scripts: writing MLIR text the way JAX prints it, from numpy values.

Shared by scripts/gen_e2e_stablehlo.py (the tests/e2e/stablehlo check
tests) and scripts/gen_samples.py (samples/mlp, samples/cnn). Element types
are named by their MLIR spelling; bf16 values are carried in float32 arrays
already rounded to bf16 (numpy has no bfloat16).
"""

import numpy as np

# MLIR element spelling -> numpy dtype holding its values.
DTYPES = {
    "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32,
    "i64": np.int64, "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32,
    "ui64": np.uint64, "f16": np.float16, "bf16": np.float32,
    "f32": np.float32, "f64": np.float64,
    "complex<f32>": np.complex64, "complex<f64>": np.complex128,
}
FLOATS = ("f16", "bf16", "f32", "f64")
# Complex element types -> the float type of each part.
COMPLEX_PARTS = {"complex<f32>": "f32", "complex<f64>": "f64"}
BITS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "ui8": 8,
        "ui16": 16, "ui32": 32, "ui64": 64, "f16": 16, "bf16": 16,
        "f32": 32, "f64": 64}


def is_float(elem):
    return elem in FLOATS


def is_complex(elem):
    return elem in COMPLEX_PARTS


def is_signed(elem):
    return elem in ("i8", "i16", "i32", "i64")


def to_bf16(values):
    """float32 values rounded to the nearest bf16 (ties to even), as float32."""
    bits = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    nan = np.isnan(np.asarray(values, dtype=np.float32))
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    rounded = np.where(nan, np.uint64(0x7FC00000), rounded)
    return rounded.astype(np.uint32).view(np.float32)


def array(values, elem):
    """|values| as the numpy array that holds |elem| elements."""
    if elem == "bf16":
        return to_bf16(np.asarray(values, dtype=np.float32))
    return np.asarray(values, dtype=DTYPES[elem])


def tensor_type(shape, elem):
    return "tensor<" + "".join("%dx" % d for d in shape) + elem + ">"


def type_of(arr, elem):
    return tensor_type(np.shape(arr), elem)


def _float_bits(value, elem):
    if elem == "f16":
        return int(np.float16(value).view(np.uint16))
    if elem == "bf16":
        return int(np.float32(value).view(np.uint32)) >> 16
    if elem == "f32":
        return int(np.float32(value).view(np.uint32))
    return int(np.float64(value).view(np.uint64))


def scalar_text(value, elem):
    if is_complex(elem):
        value = complex(value)
        part = COMPLEX_PARTS[elem]
        return "(%s, %s)" % (scalar_text(value.real, part),
                             scalar_text(value.imag, part))
    if elem == "i1":
        return "true" if bool(value) else "false"
    if not is_float(elem):
        return str(int(value))
    value = float(value)
    if not np.isfinite(value):
        # MLIR spells NaN and infinities by their bits.
        return "0x%0*X" % (BITS[elem] // 4, _float_bits(value, elem))
    typed = {"f16": np.float16, "bf16": np.float32, "f32": np.float32,
             "f64": np.float64}[elem](value)
    return np.format_float_scientific(typed, unique=True, trim="0",
                                      exp_digits=2)


def dense(arr, elem, splat_ok=True):
    """dense<...> for |arr| (nested lists; a splat when all elements agree)."""
    arr = np.asarray(arr)
    flat = arr.reshape(-1)
    if arr.ndim == 0:
        return "dense<%s>" % scalar_text(flat[0], elem)
    texts = [scalar_text(v, elem) for v in flat]
    if splat_ok and len(texts) > 1 and all(t == texts[0] for t in texts):
        return "dense<%s>" % texts[0]

    def nest(offset, dims):
        if not dims:
            return texts[offset]
        stride = int(np.prod(dims[1:])) if len(dims) > 1 else 1
        return "[" + ", ".join(nest(offset + i * stride, dims[1:])
                               for i in range(dims[0])) + "]"
    return "dense<%s>" % nest(0, list(arr.shape))


# Tensors larger than this print as hex blobs, as JAX prints large constants.
HEX_THRESHOLD = 256


def literal(arr, elem):
    """dense<...>, as a hex blob for large tensors."""
    if np.size(arr) > HEX_THRESHOLD:
        return dense_hex(arr, elem)
    return dense(arr, elem)


def dense_hex(arr, elem):
    """dense<"0x...">: the raw little-endian element bytes, as JAX prints
    large constants."""
    arr = np.asarray(arr)
    if elem == "bf16":
        raw = (arr.astype(np.float32).view(np.uint32) >> 16).astype("<u2")
    else:
        raw = arr.astype(np.dtype(DTYPES[elem]).newbyteorder("<"))
    return 'dense<"0x%s">' % raw.tobytes().hex().upper()


class Func:
    """One function body: numbered SSA values, lines indented as JAX does."""

    def __init__(self, name, indent="  "):
        self.name = name
        self.lines = []
        self.next = 0
        self.indent = indent + "  "

    def value(self):
        name = "%%%d" % self.next
        self.next += 1
        return name

    def line(self, text):
        self.lines.append(self.indent + text)

    def op(self, text, count=1):
        """Appends '%N = text' (or '%N:count = text'); returns %N."""
        name = self.value()
        suffix = ":%d" % count if count > 1 else ""
        self.line("%s%s = %s" % (name, suffix, text))
        return name

    def input(self, arr, elem):
        """A util.unfoldable_constant the compiler must not fold."""
        return self.op("util.unfoldable_constant %s : %s"
                       % (literal(arr, elem), type_of(arr, elem)))

    def constant(self, arr, elem):
        return self.op("stablehlo.constant %s : %s"
                       % (dense(arr, elem), type_of(arr, elem)))

    def expect(self, value, arr, elem, atol=None, rtol=None):
        """IREE's check.expect_eq_const, or expect_almost_eq_const for
        floats (with atol/rtol when given)."""
        t = type_of(arr, elem)
        if is_float(elem) or is_complex(elem):
            tol = ""
            if atol is not None:
                tol += ", atol %s" % np.format_float_scientific(atol, trim="0")
            if rtol is not None:
                tol += ", rtol %s" % np.format_float_scientific(rtol, trim="0")
            self.line("check.expect_almost_eq_const(%s, %s : %s%s) : %s"
                      % (value, literal(arr, elem), t, tol, t))
        else:
            self.line("check.expect_eq_const(%s, %s : %s) : %s"
                      % (value, literal(arr, elem), t, t))

    def text(self, comment=None):
        out = []
        if comment:
            out += ["  // " + c for c in comment.split("\n")]
        out.append("  func.func public @%s() {" % self.name)
        out += self.lines
        out.append("    return")
        out.append("  }")
        return "\n".join(out)


def module(name, header, funcs):
    body = "\n\n".join(funcs)
    head = "".join("// %s\n" % h if h else "//\n" for h in header.split("\n"))
    return "%smodule @%s {\n%s\n}\n" % (head, name, body)
