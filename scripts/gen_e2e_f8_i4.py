#!/usr/bin/python3
"""Writes tests/e2e/stablehlo/f8.mlir (grt-check tests of the 8-bit floats),
tests/e2e/stablehlo/f6_f4.mlir (the MX types f8E8M0FNU, f6E2M3FN, f6E3M2FN,
f4E2M1FN), tests/e2e/stablehlo/bitcast_i4.mlir (bitcast_convert of
i2/i4/ui4) and tests/e2e/stablehlo/matmul_i4.mlir (f32 x int4-weight
dot_general).

Run by hand after changing it (its output is committed):

    /usr/bin/python3 scripts/gen_e2e_f8_i4.py

numpy has no 8-bit floats, so every expected bit pattern is computed here
from the types' definitions with exact rational arithmetic (fractions): a
type's numbers are listed by decoding each of its 256 bit patterns, and a
value rounds to the nearest one, ties to the pattern with an even mantissa;
past the largest number (rounding as if the exponent went on: the midpoint
to the next power-of-two step ties to even too) gives infinity in the
IEEE-like types and NaN in the FN/FNUZ types. NaN gives the type's quiet
NaN with the sign kept (the FNUZ types: 0x80, their only NaN, and no -0).
bitcast_convert's expectations pack and unpack two's-complement bit fields
here, part 0 the least significant (little-endian, as the StableHLO
interpreter orders them). Deterministic: no randomness, no clock.
"""

import os
import struct
from fractions import Fraction

DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                   "e2e", "stablehlo")
OUT = os.path.join(DIR, "f8.mlir")
OUT_I4 = os.path.join(DIR, "bitcast_i4.mlir")
OUT_SMALL = os.path.join(DIR, "f6_f4.mlir")
OUT_W4 = os.path.join(DIR, "matmul_i4.mlir")

# name: (exponent bits, mantissa bits, bias, flavor)
TYPES = {
    "f8E5M2": (5, 2, 15, "ieee"),
    "f8E4M3": (4, 3, 7, "ieee"),
    "f8E3M4": (3, 4, 3, "ieee"),
    "f8E4M3FN": (4, 3, 7, "fn"),
    "f8E4M3FNUZ": (4, 3, 8, "fnuz"),
    "f8E5M2FNUZ": (5, 2, 16, "fnuz"),
    "f8E4M3B11FNUZ": (4, 3, 11, "fnuz"),
}

NAN = float("nan")
INF = float("inf")


def decode(name, bits):
    """('nan', sign), ('inf', sign) or ('num', sign, Fraction magnitude)."""
    e, m, bias, flavor = TYPES[name]
    sign = bits >> 7
    mag = bits & 0x7F
    exp = mag >> m
    mant = mag & ((1 << m) - 1)
    emax = (1 << e) - 1
    if flavor == "fnuz" and bits == 0x80:
        return ("nan", 0)
    if flavor == "ieee" and exp == emax:
        return ("nan", sign) if mant else ("inf", sign)
    if flavor == "fn" and mag == 0x7F:
        return ("nan", sign)
    if exp == 0:
        value = Fraction(mant) * Fraction(2) ** (1 - bias - m)
    else:
        value = Fraction(mant + (1 << m)) * Fraction(2) ** (exp - bias - m)
    return ("num", sign, value)


def finite_magnitudes(name):
    """(magnitude bits, value) of the numbers >= 0, in increasing order."""
    out = []
    for mag in range(0x80):
        d = decode(name, mag)
        if d[0] == "num":
            out.append((mag, d[2]))
    return out


def quiet_nan(name):
    e, m, _, flavor = TYPES[name]
    if flavor == "fn":
        return 0x7F
    return (((1 << e) - 1) << m) | (1 << (m - 1))


def encode(name, x):
    """The bit pattern |x| (a Python float, exact) rounds to in |name|."""
    flavor = TYPES[name][3]
    sign = 1 if struct.pack(">d", x)[0] & 0x80 else 0
    if x != x or (x in (INF, -INF) and flavor != "ieee"):
        return 0x80 if flavor == "fnuz" else (sign << 7) | quiet_nan(name)
    e, m = TYPES[name][:2]
    if x in (INF, -INF):
        return (sign << 7) | (((1 << e) - 1) << m)
    a = abs(Fraction(x))
    table = finite_magnitudes(name)
    largest_mag, largest = table[-1]
    # The pattern after the largest number, as if the exponent went on.
    table = table + [(largest_mag + 1, largest + (largest - table[-2][1]))]
    mag = None
    for (lo_mag, lo), (hi_mag, hi) in zip(table, table[1:]):
        if lo <= a <= hi:
            if a - lo < hi - a or (a - lo == hi - a and lo_mag % 2 == 0):
                mag = lo_mag
            else:
                mag = hi_mag
            break
    if mag is None or mag > largest_mag:  # overflow
        if flavor == "ieee":
            return (sign << 7) | (((1 << e) - 1) << m)
        return 0x80 if flavor == "fnuz" else (sign << 7) | quiet_nan(name)
    if flavor == "fnuz" and mag == 0:
        return 0
    return (sign << 7) | mag


def f32_bits(name, bits):
    """The f32 bit pattern of decode(bits) (NaN: 0x7FC00000 with the sign)."""
    d = decode(name, bits)
    if d[0] == "nan":
        return 0x7FC00000 | (d[1] << 31)
    if d[0] == "inf":
        return 0x7F800000 | (d[1] << 31)
    v = float(d[2])
    return struct.unpack("<I", struct.pack("<f", -v if d[1] else v))[0]


def value_of(name, bits):
    """decode(bits) as a Python float."""
    d = decode(name, bits)
    if d[0] == "nan":
        return -NAN if d[1] else NAN  # the sign travels with a NaN
    if d[0] == "inf":
        return -INF if d[1] else INF
    return -float(d[2]) if d[1] else float(d[2])


def is_f32(x):
    return x != x or struct.unpack("<f", struct.pack("<f", x))[0] == x


def lit(x, width=32):
    """An MLIR float literal for |x| (hex for NaN and infinities)."""
    if x != x:
        negative = struct.pack(">d", x)[0] & 0x80
        if width == 32:
            return "0xFFC00000" if negative else "0x7FC00000"
        return "0xFFF8000000000000" if negative else "0x7FF8000000000000"
    if x in (INF, -INF):
        if width == 32:
            return "0x7F800000" if x > 0 else "0xFF800000"
        return "0x7FF0000000000000" if x > 0 else "0xFFF0000000000000"
    text = repr(x)
    mantissa, _, exponent = text.partition("e")
    if "." not in mantissa:  # MLIR float literals need the '.'
        mantissa += ".0"
    return mantissa + ("e" + exponent if exponent else "")


def lits(values, width=32):
    return "[" + ", ".join(lit(v, width) for v in values) + "]"


def ints(values):
    return "[" + ", ".join(str(v) for v in values) + "]"


def corners(name):
    """f32-exact inputs covering each rounding corner of |name|."""
    table = finite_magnitudes(name)
    smallest_sub = table[1][1]
    smallest_normal = next(v for mag, v in table if mag >> TYPES[name][1])
    largest = table[-1][1]
    ulp_top = largest - table[-2][1]
    one_ulp = next(v for mag, v in table if v > 1) - 1
    values = [
        0.0, -0.0, 1.0, -1.0,
        1 + one_ulp / 2,          # tie: down to even 1.0
        1 + 3 * one_ulp / 2,      # tie: up to even 1 + 2 ulp
        1 + one_ulp / 2 + one_ulp / 64,  # just past the tie: up
        -(1 + 3 * one_ulp / 4),   # nearest, negative
        largest, -largest,
        largest + ulp_top / 2,    # the overflow midpoint (ties to even)
        largest + ulp_top / 4,    # rounds back to the largest
        largest + 3 * ulp_top / 4,  # overflows
        1e30, INF, -INF, NAN, -NAN,
        smallest_sub, -smallest_sub,
        smallest_sub / 2,         # tie with 0: to 0 (even)
        -smallest_sub / 2,        # -0 (FNUZ: +0)
        3 * smallest_sub / 2,     # tie: up to 2 subnormal steps
        smallest_sub * 5 / 8,     # nearest: the smallest subnormal
        smallest_normal - smallest_sub / 4,  # subnormal rounding up to normal
        smallest_normal, 0.1, -3.3,
    ]
    out = []
    for v in values:
        v = float(v)
        if is_f32(v):
            out.append(v)
    return out


def double_rounding_inputs(name):
    """f64 inputs just past a tie, which an f32 step would round to the tie."""
    table = finite_magnitudes(name)
    one_ulp = float(next(v for mag, v in table if v > 1) - 1)
    return [1 + one_ulp / 2 + 2.0 ** -40, 1 + 3 * one_ulp / 2 - 2.0 ** -40,
            -(1 + one_ulp / 2 + 2.0 ** -40), 1e300, -1e-300, NAN,
            float(table[1][1]) / 2 + 2.0 ** -60]


class Module:
    def __init__(self):
        self.funcs = []

    def func(self, name, body):
        self.funcs.append(
            "  func.func public @%s() {\n%s    return\n  }\n" % (name, body))


def gen():
    mod = Module()
    names = list(TYPES)
    for name in names:
        tag = name[2:].lower()
        xs = corners(name)
        n = len(xs)
        bits = [encode(name, x) for x in xs]
        mod.func("test_%s_from_f32" % tag, (
            "    %%0 = util.unfoldable_constant dense<%s> : tensor<%dxf32>\n"
            "    %%1 = stablehlo.convert %%0 : (tensor<%dxf32>) -> tensor<%dx%s>\n"
            "    %%2 = stablehlo.bitcast_convert %%1 : (tensor<%dx%s>) -> tensor<%dxui8>\n"
            "    check.expect_eq_const(%%2, dense<%s> : tensor<%dxui8>) : tensor<%dxui8>\n"
        ) % (lits(xs), n, n, n, name, n, name, n, ints(bits), n, n))
        # Every bit pattern to f32, checked as f32 bits.
        allbits = list(range(256))
        mod.func("test_%s_to_f32" % tag, (
            "    %%0 = util.unfoldable_constant dense<%s> : tensor<256xui8>\n"
            "    %%1 = stablehlo.bitcast_convert %%0 : (tensor<256xui8>) -> tensor<256x%s>\n"
            "    %%2 = stablehlo.convert %%1 : (tensor<256x%s>) -> tensor<256xf32>\n"
            "    %%3 = stablehlo.bitcast_convert %%2 : (tensor<256xf32>) -> tensor<256xui32>\n"
            "    check.expect_eq_const(%%3, dense<%s> : tensor<256xui32>) : tensor<256xui32>\n"
        ) % (ints(allbits), name, name, ints([f32_bits(name, b) for b in allbits])))
        # f64 rounds once (an f32 step first would land on the ties).
        ds = double_rounding_inputs(name)
        mod.func("test_%s_from_f64" % tag, (
            "    %%0 = util.unfoldable_constant dense<%s> : tensor<%dxf64>\n"
            "    %%1 = stablehlo.convert %%0 : (tensor<%dxf64>) -> tensor<%dx%s>\n"
            "    %%2 = stablehlo.bitcast_convert %%1 : (tensor<%dx%s>) -> tensor<%dxui8>\n"
            "    check.expect_eq_const(%%2, dense<%s> : tensor<%dxui8>) : tensor<%dxui8>\n"
        ) % (lits(ds, 64), len(ds), len(ds), len(ds), name, len(ds), name, len(ds),
             ints([encode(name, x) for x in ds]), len(ds), len(ds)))
        # Dense literals round as convert does; hex spells the bits.
        lit_values = [x for x in xs if x == x and x not in (INF, -INF)]
        k = len(lit_values) + 2
        mod.func("test_%s_dense" % tag, (
            "    %%0 = stablehlo.constant dense<[%s, 0x7F, 0x80]> : tensor<%dx%s>\n"
            "    %%1 = stablehlo.bitcast_convert %%0 : (tensor<%dx%s>) -> tensor<%dxui8>\n"
            "    %%2 = util.optimization_barrier %%1 : tensor<%dxui8>\n"
            "    check.expect_eq_const(%%2, dense<%s> : tensor<%dxui8>) : tensor<%dxui8>\n"
        ) % (", ".join(lit(x) for x in lit_values), k, name, k, name, k, k,
             ints([encode(name, x) for x in lit_values] + [0x7F, 0x80]), k, k))
    # Other sources and destinations: f16, bf16, f64, integers.
    for name in ["f8E4M3FN", "f8E5M2", "f8E4M3FNUZ"]:
        tag = name[2:].lower()
        f16_in = [0.5, -2.75, 1000.0, 65504.0, -0.0, 0.00048828125, 3.0]
        mod.func("test_%s_from_f16" % tag, (
            "    %%0 = util.unfoldable_constant dense<%s> : tensor<7xf16>\n"
            "    %%1 = stablehlo.convert %%0 : (tensor<7xf16>) -> tensor<7x%s>\n"
            "    %%2 = stablehlo.bitcast_convert %%1 : (tensor<7x%s>) -> tensor<7xui8>\n"
            "    check.expect_eq_const(%%2, dense<%s> : tensor<7xui8>) : tensor<7xui8>\n"
        ) % (lits(f16_in), name, name, ints([encode(name, x) for x in f16_in])))
        # bf16 values with more mantissa bits than the f8 types keep.
        bf16_in = [1.0625, -1.1875, 3.0e4 - 48.0, 0.01171875, 2.0 ** -100, -5.0]
        mod.func("test_%s_from_bf16" % tag, (
            "    %%0 = util.unfoldable_constant dense<%s> : tensor<6xbf16>\n"
            "    %%1 = stablehlo.convert %%0 : (tensor<6xbf16>) -> tensor<6x%s>\n"
            "    %%2 = stablehlo.bitcast_convert %%1 : (tensor<6x%s>) -> tensor<6xui8>\n"
            "    check.expect_eq_const(%%2, dense<%s> : tensor<6xui8>) : tensor<6xui8>\n"
        ) % (lits(bf16_in), name, name, ints([encode(name, x) for x in bf16_in])))
        int_in = [0, 1, -7, 17, 300, -100000, 2147483647]
        mod.func("test_%s_from_i32" % tag, (
            "    %%0 = util.unfoldable_constant dense<%s> : tensor<7xi32>\n"
            "    %%1 = stablehlo.convert %%0 : (tensor<7xi32>) -> tensor<7x%s>\n"
            "    %%2 = stablehlo.bitcast_convert %%1 : (tensor<7x%s>) -> tensor<7xui8>\n"
            "    check.expect_eq_const(%%2, dense<%s> : tensor<7xui8>) : tensor<7xui8>\n"
        ) % (ints(int_in), name, name, ints([encode(name, float(x)) for x in int_in])))
        src = [0x38, 0xB8, 0x01, 0x7B, 0x45, 0xC9]
        vals = [value_of(name, b) for b in src]
        mod.func("test_%s_to_others" % tag, (
            "    %%0 = util.unfoldable_constant dense<%s> : tensor<6xui8>\n"
            "    %%1 = stablehlo.bitcast_convert %%0 : (tensor<6xui8>) -> tensor<6x%s>\n"
            "    %%2 = stablehlo.convert %%1 : (tensor<6x%s>) -> tensor<6xf16>\n"
            "    check.expect_eq_const(%%2, dense<%s> : tensor<6xf16>) : tensor<6xf16>\n"
            "    %%3 = stablehlo.convert %%1 : (tensor<6x%s>) -> tensor<6xbf16>\n"
            "    check.expect_eq_const(%%3, dense<%s> : tensor<6xbf16>) : tensor<6xbf16>\n"
            "    %%4 = stablehlo.convert %%1 : (tensor<6x%s>) -> tensor<6xf64>\n"
            "    check.expect_eq_const(%%4, dense<%s> : tensor<6xf64>) : tensor<6xf64>\n"
            "    %%5 = stablehlo.convert %%1 : (tensor<6x%s>) -> tensor<6xi32>\n"
            "    check.expect_eq_const(%%5, dense<%s> : tensor<6xi32>) : tensor<6xi32>\n"
        ) % (ints(src), name, name, lits(vals), name, lits(vals), name, lits(vals, 64),
             name, ints([int(v) for v in vals])))
    # Between the 8-bit types: every pattern of one through f32 into another.
    for a, b in [("f8E5M2", "f8E4M3FN"), ("f8E4M3FN", "f8E5M2"),
                 ("f8E4M3FNUZ", "f8E4M3B11FNUZ"), ("f8E3M4", "f8E5M2FNUZ")]:
        src = list(range(256))
        want = [encode(b, value_of(a, x)) for x in src]
        mod.func("test_%s_to_%s" % (a[2:].lower(), b[2:].lower()), (
            "    %%0 = util.unfoldable_constant dense<%s> : tensor<256xui8>\n"
            "    %%1 = stablehlo.bitcast_convert %%0 : (tensor<256xui8>) -> tensor<256x%s>\n"
            "    %%2 = stablehlo.convert %%1 : (tensor<256x%s>) -> tensor<256x%s>\n"
            "    %%3 = stablehlo.bitcast_convert %%2 : (tensor<256x%s>) -> tensor<256xui8>\n"
            "    check.expect_eq_const(%%3, dense<%s> : tensor<256xui8>) : tensor<256xui8>\n"
        ) % (ints(src), a, a, b, b, ints(want)))
    # Moving values keeps every bit (NaNs, -0) in place.
    name = "f8E4M3FN"
    mod.func("test_move_e4m3fn", (
        "    %0 = util.unfoldable_constant dense<[[1.0, -0.0, 0x7F, 448.0], [0.5, 0xFF, -2.0, 0x01]]> : tensor<2x4xf8E4M3FN>\n"
        "    %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<2x4xf8E4M3FN>) -> tensor<4x2xf8E4M3FN>\n"
        "    check.expect_eq_const(%1, dense<[[1.0, 0.5], [-0.0, 0xFF], [0x7F, -2.0], [448.0, 0x01]]> : tensor<4x2xf8E4M3FN>) : tensor<4x2xf8E4M3FN>\n"
        "    %2 = stablehlo.reshape %0 : (tensor<2x4xf8E4M3FN>) -> tensor<8xf8E4M3FN>\n"
        "    check.expect_eq_const(%2, dense<[1.0, -0.0, 0x7F, 448.0, 0.5, 0xFF, -2.0, 0x01]> : tensor<8xf8E4M3FN>) : tensor<8xf8E4M3FN>\n"
        "    %3 = stablehlo.slice %2 [1:7:2] : (tensor<8xf8E4M3FN>) -> tensor<3xf8E4M3FN>\n"
        "    check.expect_eq_const(%3, dense<[-0.0, 448.0, 0xFF]> : tensor<3xf8E4M3FN>) : tensor<3xf8E4M3FN>\n"
        "    %4 = stablehlo.concatenate %3, %3, dim = 0 : (tensor<3xf8E4M3FN>, tensor<3xf8E4M3FN>) -> tensor<6xf8E4M3FN>\n"
        "    check.expect_eq_const(%4, dense<[-0.0, 448.0, 0xFF, -0.0, 448.0, 0xFF]> : tensor<6xf8E4M3FN>) : tensor<6xf8E4M3FN>\n"
        "    %5 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<3xf8E4M3FN>) -> tensor<2x3xf8E4M3FN>\n"
        "    check.expect_eq_const(%5, dense<[[-0.0, 448.0, 0xFF], [-0.0, 448.0, 0xFF]]> : tensor<2x3xf8E4M3FN>) : tensor<2x3xf8E4M3FN>\n"
        "    %6 = util.unfoldable_constant dense<[true, false, true]> : tensor<3xi1>\n"
        "    %7 = stablehlo.slice %2 [0:3] : (tensor<8xf8E4M3FN>) -> tensor<3xf8E4M3FN>\n"
        "    %8 = stablehlo.select %6, %3, %7 : tensor<3xi1>, tensor<3xf8E4M3FN>\n"
        "    check.expect_eq_const(%8, dense<[-0.0, -0.0, 0xFF]> : tensor<3xf8E4M3FN>) : tensor<3xf8E4M3FN>\n"
    ))
    # Arithmetic: in f32 on the decoded values, each result rounded once.
    for name in ["f8E4M3FN", "f8E5M2", "f8E4M3FNUZ"]:
        tag = name[2:].lower()
        xb = [0x38, 0x3C, 0x7B, 0x01, 0xB8, 0x44]
        yb = [0x38, 0x39, 0x7B, 0x01, 0x30, 0xC4]
        xv = [value_of(name, b) for b in xb]
        yv = [value_of(name, b) for b in yb]
        add = [encode(name, float(Fraction(x) + Fraction(y))) for x, y in zip(xv, yv)]
        mul = [encode(name, float(Fraction(x) * Fraction(y))) for x, y in zip(xv, yv)]
        mx = [encode(name, max(x, y)) for x, y in zip(xv, yv)]
        lt = ["true" if x < y else "false" for x, y in zip(xv, yv)]
        T = "tensor<6x%s>" % name
        mod.func("test_%s_arith" % tag, (
            "    %%0 = util.unfoldable_constant dense<%s> : tensor<6xui8>\n"
            "    %%1 = util.unfoldable_constant dense<%s> : tensor<6xui8>\n"
            "    %%x = stablehlo.bitcast_convert %%0 : (tensor<6xui8>) -> %s\n"
            "    %%y = stablehlo.bitcast_convert %%1 : (tensor<6xui8>) -> %s\n"
            "    %%2 = stablehlo.add %%x, %%y : %s\n"
            "    %%3 = stablehlo.bitcast_convert %%2 : (%s) -> tensor<6xui8>\n"
            "    check.expect_eq_const(%%3, dense<%s> : tensor<6xui8>) : tensor<6xui8>\n"
            "    %%4 = stablehlo.multiply %%x, %%y : %s\n"
            "    %%5 = stablehlo.bitcast_convert %%4 : (%s) -> tensor<6xui8>\n"
            "    check.expect_eq_const(%%5, dense<%s> : tensor<6xui8>) : tensor<6xui8>\n"
            "    %%6 = stablehlo.maximum %%x, %%y : %s\n"
            "    %%7 = stablehlo.bitcast_convert %%6 : (%s) -> tensor<6xui8>\n"
            "    check.expect_eq_const(%%7, dense<%s> : tensor<6xui8>) : tensor<6xui8>\n"
            "    %%8 = stablehlo.compare  LT, %%x, %%y,  FLOAT : (%s, %s) -> tensor<6xi1>\n"
            "    check.expect_eq_const(%%8, dense<[%s]> : tensor<6xi1>) : tensor<6xi1>\n"
        ) % (ints(xb), ints(yb), T, T, T, T, ints(add), T, T, ints(mul), T, T, ints(mx),
             T, T, ", ".join(lt)))
    # The check ops on f8 values.
    mod.func("test_checks_e4m3fn", (
        "    %0 = util.unfoldable_constant dense<[1.0, 2.0, 0x7F, -0.0]> : tensor<4xf8E4M3FN>\n"
        "    check.expect_eq_const(%0, dense<[1.0, 2.0, 0x7F, -0.0]> : tensor<4xf8E4M3FN>) : tensor<4xf8E4M3FN>\n"
        "    check.expect_almost_eq_const(%0, dense<[1.0, 2.0, 0x7F, 0.0]> : tensor<4xf8E4M3FN>) : tensor<4xf8E4M3FN>\n"
        "    %1 = stablehlo.constant dense<[1.125, 2.0, 0x7F, 0.0]> : tensor<4xf8E4M3FN>\n"
        "    check.expect_almost_eq(%0, %1, atol 0.2, rtol 0.0) : tensor<4xf8E4M3FN>\n"
        "    stablehlo.custom_call @check.expect_close(%0, %1) {max_ulp_difference = 1 : i64} : (tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN>) -> ()\n"
    ))
    # reduce runs its body on the f8 values (each step rounded to f8): sums
    # of distinct powers of two up to 8 are exact in any order (so every
    # driver agrees), max keeps -0/NaN rules of maximum.
    mod.func("test_reduce_e4m3fn", (
        "    %0 = util.unfoldable_constant dense<[[1.0, 2.0, 4.0, 8.0], [-0.5, 0.25, -2.0, 0.125]]> : tensor<2x4xf8E4M3FN>\n"
        "    %1 = stablehlo.constant dense<0.0> : tensor<f8E4M3FN>\n"
        "    %2 = stablehlo.reduce(%0 init: %1) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf8E4M3FN>, tensor<f8E4M3FN>) -> tensor<2xf8E4M3FN>\n"
        "    check.expect_eq_const(%2, dense<[15.0, -2.125]> : tensor<2xf8E4M3FN>) : tensor<2xf8E4M3FN>\n"
        "    %3 = stablehlo.constant dense<-448.0> : tensor<f8E4M3FN>\n"
        "    %4 = stablehlo.reduce(%0 init: %3) applies stablehlo.maximum across dimensions = [0] : (tensor<2x4xf8E4M3FN>, tensor<f8E4M3FN>) -> tensor<4xf8E4M3FN>\n"
        "    check.expect_eq_const(%4, dense<[1.0, 2.0, 4.0, 8.0]> : tensor<4xf8E4M3FN>) : tensor<4xf8E4M3FN>\n"
    ))
    # Scalars: arith on tensor.extract results (2 + 464 -> 2 + 448 = 450,
    # which rounds to 448: f8E4M3FN steps by 32 there, and 464 ties to even).
    mod.func("test_scalars_e4m3fn", (
        "    %0 = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf8E4M3FN>\n"
        "    %1 = arith.constant 1 : index\n"
        "    %2 = tensor.extract %0[%1] : tensor<2xf8E4M3FN>\n"
        "    %3 = arith.constant 464.0 : f8E4M3FN\n"
        "    %4 = arith.addf %2, %3 : f8E4M3FN\n"
        "    %5 = arith.constant 448.0 : f8E4M3FN\n"
        "    %6 = arith.cmpf oeq, %4, %5 : f8E4M3FN\n"
        "    %7 = arith.extui %6 : i1 to i32\n"
        "    check.expect_true(%7) : i32\n"
    ))
    mod.func("fail_eq_e4m3fn_negative_zero", (
        "    %0 = util.unfoldable_constant dense<[1.0, -0.0]> : tensor<2xf8E4M3FN>\n"
        "    check.expect_eq_const(%0, dense<[1.0, 0.0]> : tensor<2xf8E4M3FN>) : tensor<2xf8E4M3FN>\n"
    ))
    mod.func("fail_almost_eq_e5m2", (
        "    %0 = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf8E5M2>\n"
        "    check.expect_almost_eq_const(%0, dense<[1.0, 2.5]> : tensor<2xf8E5M2>) : tensor<2xf8E5M2>\n"
    ))
    mod.func("fail_convert_e4m3fn_wrong_expectation", (
        "    %0 = util.unfoldable_constant dense<[464.0]> : tensor<1xf32>\n"
        "    %1 = stablehlo.convert %0 : (tensor<1xf32>) -> tensor<1xf8E4M3FN>\n"
        "    check.expect_eq_const(%1, dense<[0x7F]> : tensor<1xf8E4M3FN>) : tensor<1xf8E4M3FN>\n"
    ))
    text = ("// 8-bit floats (f8E5M2, f8E4M3, f8E3M4, f8E4M3FN, f8E4M3FNUZ, f8E5M2FNUZ,\n"
            "// f8E4M3B11FNUZ): convert from f32/f64/f16/bf16/i32 (rounding ties,\n"
            "// overflow, NaN, infinities, subnormals, -0), every bit pattern to f32\n"
            "// and between the types, dense literals, ops that move values,\n"
            "// arithmetic in f32, reduce, scalars and the check ops. Expected bit\n"
            "// patterns computed exactly (fractions).\n"
            "//\n"
            "// Generated by scripts/gen_e2e_f8_i4.py; do not edit. Run by grt-check:\n"
            "// test_* functions must pass, fail_* functions must fail.\n"
            "module @e2e_f8 {\n" + "\n".join(mod.funcs) + "}\n")
    with open(OUT, "w") as f:
        f.write(text)


def int_type_bits(t):
    """(bits, signed) of an integer type name."""
    return (int(t[2:]), False) if t.startswith("ui") else (int(t[1:]), True)


def to_field(v, bits):
    return v & ((1 << bits) - 1)


def from_field(f, bits, signed):
    return f - (1 << bits) if signed and f >> (bits - 1) else f


def pack(parts, part_type, wide_type):
    pb, _ = int_type_bits(part_type)
    wb, ws = int_type_bits(wide_type)
    word = 0
    for i, v in enumerate(parts):
        word |= to_field(v, pb) << (i * pb)
    return from_field(word, wb, ws)


def unpack(word, wide_type, part_type):
    wb, _ = int_type_bits(wide_type)
    pb, ps = int_type_bits(part_type)
    f = to_field(word, wb)
    return [from_field((f >> (i * pb)) & ((1 << pb) - 1), pb, ps) for i in range(wb // pb)]


def shape(dims, elem):
    return "tensor<%s>" % "x".join([str(d) for d in dims] + [elem])


def nested(rows):
    return "[" + ", ".join(ints(r) for r in rows) + "]"


# The MX scale and element types (OCP MX; LLVM's Float8E8M0FNU, Float6E2M3FN,
# Float6E3M2FN, Float4E2M1FN): name: (exponent bits, mantissa bits, bias,
# flavor). "finite": no infinities and no NaN (overflow and infinities
# saturate to the largest number of their sign, NaN gives +0); "e8m0": no
# sign, no mantissa, no zero, 0xFF the one NaN (a positive value rounds to
# the nearest power of two, a tie 1.5 * 2^k up; below 2^-127 gives 2^-127;
# zero, negatives, infinities, NaN and powers past 2^127 give NaN).
SMALL = {
    "f8E8M0FNU": (8, 0, 127, "e8m0"),
    "f6E2M3FN": (2, 3, 1, "finite"),
    "f6E3M2FN": (3, 2, 3, "finite"),
    "f4E2M1FN": (2, 1, 1, "finite"),
}


def small_bits(name):
    e, m, _, flavor = SMALL[name]
    return e if flavor == "e8m0" else 1 + e + m


def small_decode(name, bits):
    """None for NaN, else (sign, Fraction magnitude)."""
    e, m, bias, flavor = SMALL[name]
    if flavor == "e8m0":
        return None if bits == 0xFF else (0, Fraction(2) ** (bits - bias))
    sign = bits >> (e + m)
    exp = (bits >> m) & ((1 << e) - 1)
    mant = bits & ((1 << m) - 1)
    if exp == 0:
        return (sign, Fraction(mant) * Fraction(2) ** (1 - bias - m))
    return (sign, Fraction(mant + (1 << m)) * Fraction(2) ** (exp - bias - m))


def small_value(name, bits):
    d = small_decode(name, bits)
    if d is None:
        return NAN
    return -float(d[1]) if d[0] else float(d[1])


def small_encode(name, x):
    """The pattern |x| (a Python float) converts to in |name|."""
    e, m, bias, flavor = SMALL[name]
    if flavor == "e8m0":
        if x != x or x <= 0 or x == INF:
            return 0xFF
        a = Fraction(x)
        k = 0
        while Fraction(2) ** (k + 1) <= a:
            k += 1
        while Fraction(2) ** k > a:
            k -= 1
        if a >= Fraction(3, 2) * Fraction(2) ** k:
            k += 1
        if k + bias < 0:
            return 0
        return 0xFF if k + bias > 254 else k + bias
    sign = 1 if struct.pack(">d", x)[0] & 0x80 else 0
    if x != x:
        return 0
    mags = [(mag, small_decode(name, mag)[1]) for mag in range(1 << (e + m))]
    largest_mag = mags[-1][0]
    if x in (INF, -INF):
        return (sign << (e + m)) | largest_mag
    a = abs(Fraction(x))
    mag = largest_mag  # past the largest number: saturate
    for (lo_mag, lo), (hi_mag, hi) in zip(mags, mags[1:]):
        if lo <= a <= hi:
            if a - lo < hi - a or (a - lo == hi - a and lo_mag % 2 == 0):
                mag = lo_mag
            else:
                mag = hi_mag
            break
    return (sign << (e + m)) | mag


def small_f32_bits(name, bits):
    v = small_value(name, bits)
    if v != v:
        return 0x7FC00000
    return struct.unpack("<I", struct.pack("<f", v))[0]


def hexes(values):
    return "[" + ", ".join("0x%X" % v for v in values) + "]"


def small_corners(name):
    e, m, bias, flavor = SMALL[name]
    if flavor == "e8m0":
        values = [1.0, 1.5, 1.5 - 2.0 ** -20, 3.0, 0.75, 0.75 - 2.0 ** -20, 2.0 ** 127,
                  1.5 * 2.0 ** 127, 1.4 * 2.0 ** 127, 2.0 ** -126, 2.0 ** -127,
                  1.5 * 2.0 ** -127, 1.25 * 2.0 ** -127, 2.0 ** -149, 0.0, -0.0, -1.0,
                  INF, -INF, NAN, 1e30, 0.3]
    else:
        mags = [small_decode(name, mag)[1] for mag in range(1 << (e + m))]
        sub = mags[1]
        normal = mags[1 << m]
        largest = mags[-1]
        top = largest - mags[-2]
        ulp = Fraction(1, 1 << m)
        values = [0.0, -0.0, 1.0, -1.0, 1 + ulp / 2, 1 + 3 * ulp / 2,
                  1 + ulp / 2 + ulp / 64, -(1 + 3 * ulp / 4), largest, -largest,
                  largest + top / 2, largest + top, -(largest * 4), 1e30, INF, -INF,
                  NAN, -NAN, sub, -sub, sub / 2, -sub / 2, 3 * sub / 2, sub * 5 / 8,
                  normal - sub / 4, normal, 0.1, -3.3]
    return [float(v) for v in values if is_f32(float(v))]


def gen_small():
    mod = Module()
    for name in SMALL:
        tag = name.lower()
        nbits = small_bits(name)
        xs = small_corners(name)
        n = len(xs)
        T = "tensor<%dx%s>" % (n, name)
        mod.func("test_%s_from_f32" % tag, (
            "    %%0 = util.unfoldable_constant dense<%s> : tensor<%dxf32>\n"
            "    %%1 = stablehlo.convert %%0 : (tensor<%dxf32>) -> %s\n"
            "    check.expect_eq_const(%%1, dense<%s> : %s) : %s\n"
        ) % (lits(xs), n, n, T, hexes([small_encode(name, x) for x in xs]), T, T))
        # Every bit pattern to f32, checked as f32 bits.
        allbits = list(range(1 << nbits))
        k = len(allbits)
        T = "tensor<%dx%s>" % (k, name)
        mod.func("test_%s_to_f32" % tag, (
            "    %%0 = util.unfoldable_constant dense<%s> : %s\n"
            "    %%1 = stablehlo.convert %%0 : (%s) -> tensor<%dxf32>\n"
            "    %%2 = stablehlo.bitcast_convert %%1 : (tensor<%dxf32>) -> tensor<%dxui32>\n"
            "    check.expect_eq_const(%%2, dense<%s> : tensor<%dxui32>) : tensor<%dxui32>\n"
        ) % (hexes(allbits), T, T, k, k, k, ints([small_f32_bits(name, b) for b in allbits]),
             k, k))
        # f64 rounds once (an f32 step first would land on a tie).
        if SMALL[name][3] == "e8m0":
            ds = [1.5 - 2.0 ** -40, 0.75 - 2.0 ** -45, 1e300, 1e-300, -1e-300, NAN,
                  1.5 * 2.0 ** -127 - 2.0 ** -170]
        else:
            ulp = 2.0 ** -SMALL[name][1]
            ds = [1 + ulp / 2 + 2.0 ** -40, 1 + 3 * ulp / 2 - 2.0 ** -40,
                  -(1 + ulp / 2 + 2.0 ** -40), 1e300, -1e-300, NAN]
        n = len(ds)
        T = "tensor<%dx%s>" % (n, name)
        mod.func("test_%s_from_f64" % tag, (
            "    %%0 = util.unfoldable_constant dense<%s> : tensor<%dxf64>\n"
            "    %%1 = stablehlo.convert %%0 : (tensor<%dxf64>) -> %s\n"
            "    check.expect_eq_const(%%1, dense<%s> : %s) : %s\n"
        ) % (lits(ds, 64), n, n, T, hexes([small_encode(name, x) for x in ds]), T, T))
        # Dense literals round as convert does.
        lit_values = [x for x in small_corners(name) if x == x and x not in (INF, -INF)]
        n = len(lit_values)
        T = "tensor<%dx%s>" % (n, name)
        mod.func("test_%s_dense" % tag, (
            "    %%0 = stablehlo.constant dense<[%s]> : %s\n"
            "    %%1 = util.optimization_barrier %%0 : %s\n"
            "    check.expect_eq_const(%%1, dense<%s> : %s) : %s\n"
        ) % (", ".join(lit(x) for x in lit_values), T, T,
             hexes([small_encode(name, x) for x in lit_values]), T, T))
    # Between the types: every pattern of one through f32 into another.
    for a, b in [("f6E2M3FN", "f4E2M1FN"), ("f4E2M1FN", "f6E3M2FN"),
                 ("f6E3M2FN", "f8E8M0FNU"), ("f8E8M0FNU", "f6E2M3FN")]:
        src = list(range(1 << small_bits(a)))
        want = [small_encode(b, small_value(a, x)) for x in src]
        k = len(src)
        mod.func("test_%s_to_%s" % (a.lower(), b.lower()), (
            "    %%0 = util.unfoldable_constant dense<%s> : tensor<%dx%s>\n"
            "    %%1 = stablehlo.convert %%0 : (tensor<%dx%s>) -> tensor<%dx%s>\n"
            "    check.expect_eq_const(%%1, dense<%s> : tensor<%dx%s>) : tensor<%dx%s>\n"
        ) % (hexes(src), k, a, k, a, k, b, hexes(want), k, b, k, b))
    # f8E4M3FN (every pattern) to the MX scale type.
    src = list(range(256))
    want = [small_encode("f8E8M0FNU", value_of("f8E4M3FN", x)) for x in src]
    mod.func("test_f8e4m3fn_to_f8e8m0fnu", (
        "    %%0 = util.unfoldable_constant dense<%s> : tensor<256xui8>\n"
        "    %%1 = stablehlo.bitcast_convert %%0 : (tensor<256xui8>) -> tensor<256xf8E4M3FN>\n"
        "    %%2 = stablehlo.convert %%1 : (tensor<256xf8E4M3FN>) -> tensor<256xf8E8M0FNU>\n"
        "    %%3 = stablehlo.bitcast_convert %%2 : (tensor<256xf8E8M0FNU>) -> tensor<256xui8>\n"
        "    check.expect_eq_const(%%3, dense<%s> : tensor<256xui8>) : tensor<256xui8>\n"
    ) % (ints(src), ints(want)))
    # Arithmetic: in f32 on the decoded values, each result rounded once.
    for name in ["f4E2M1FN", "f6E3M2FN"]:
        e, m = SMALL[name][:2]
        count = 1 << (e + m + 1)
        xb = [b for b in range(count)][::3][:8]
        yb = [(b * 5 + 3) % count for b in xb]
        xv = [small_value(name, b) for b in xb]
        yv = [small_value(name, b) for b in yb]
        # Exact in f64 (a few significant bits each), which keeps the sign
        # of a zero product (-0.5 * 0 is -0) that fractions would drop.
        add = [small_encode(name, x + y) for x, y in zip(xv, yv)]
        mul = [small_encode(name, x * y) for x, y in zip(xv, yv)]
        lt = ["true" if x < y else "false" for x, y in zip(xv, yv)]
        n = len(xb)
        T = "tensor<%dx%s>" % (n, name)
        mod.func("test_%s_arith" % name.lower(), (
            "    %%x = util.unfoldable_constant dense<%s> : %s\n"
            "    %%y = util.unfoldable_constant dense<%s> : %s\n"
            "    %%0 = stablehlo.add %%x, %%y : %s\n"
            "    check.expect_eq_const(%%0, dense<%s> : %s) : %s\n"
            "    %%1 = stablehlo.multiply %%x, %%y : %s\n"
            "    check.expect_eq_const(%%1, dense<%s> : %s) : %s\n"
            "    %%2 = stablehlo.compare  LT, %%x, %%y,  FLOAT : (%s, %s) -> tensor<%dxi1>\n"
            "    check.expect_eq_const(%%2, dense<[%s]> : tensor<%dxi1>) : tensor<%dxi1>\n"
        ) % (hexes(xb), T, hexes(yb), T, T, hexes(add), T, T, T, hexes(mul), T, T, T, T,
             n, ", ".join(lt), n, n))
    mod.func("fail_f4e2m1fn_saturation_expectation", (
        "    %0 = util.unfoldable_constant dense<[100.0]> : tensor<1xf32>\n"
        "    %1 = stablehlo.convert %0 : (tensor<1xf32>) -> tensor<1xf4E2M1FN>\n"
        "    check.expect_eq_const(%1, dense<[0x6]> : tensor<1xf4E2M1FN>) : tensor<1xf4E2M1FN>\n"
    ))
    mod.func("fail_f8e8m0fnu_tie_expectation", (
        "    %0 = util.unfoldable_constant dense<[3.0]> : tensor<1xf32>\n"
        "    %1 = stablehlo.convert %0 : (tensor<1xf32>) -> tensor<1xf8E8M0FNU>\n"
        "    check.expect_eq_const(%1, dense<[0x80]> : tensor<1xf8E8M0FNU>) : tensor<1xf8E8M0FNU>\n"
    ))
    text = ("// The OCP MX types f8E8M0FNU (the scale), f6E2M3FN, f6E3M2FN and\n"
            "// f4E2M1FN: convert from f32/f64 (rounding ties, saturation, NaN,\n"
            "// infinities, subnormals, -0), every bit pattern to f32 and between\n"
            "// the types, dense literals, arithmetic in f32. Expected bit patterns\n"
            "// computed exactly (fractions).\n"
            "//\n"
            "// Generated by scripts/gen_e2e_f8_i4.py; do not edit. Run by grt-check:\n"
            "// test_* functions must pass, fail_* functions must fail.\n"
            "module @e2e_f6_f4 {\n" + "\n".join(mod.funcs) + "}\n")
    with open(OUT_SMALL, "w") as f:
        f.write(text)


def gen_i4():
    mod = Module()
    cases = [  # (part type, wide type, rows of parts)
        ("i4", "i8", [[1, 2], [-1, 7], [-8, 0], [5, -3]]),
        ("ui4", "ui8", [[15, 1], [0, 9], [8, 8]]),
        ("i4", "ui8", [[-1, -1], [3, -8]]),
        ("i4", "i16", [[1, -2, 3, -4], [-8, 7, 0, -1]]),
        ("ui4", "i32", [[1, 2, 3, 4, 5, 6, 7, 15], [15, 15, 15, 15, 15, 15, 15, 15]]),
        ("i2", "i8", [[1, -2, -1, 0], [-2, -2, 1, 1]]),
        ("i2", "i4", [[1, -2], [-1, 0], [1, 1]]),
        ("i2", "ui4", [[1, -2], [-1, 0]]),
    ]
    for part, wide, rows in cases:
        n, k = len(rows), len(rows[0])
        words = [pack(r, part, wide) for r in rows]
        pt, wt = shape([n, k], part), shape([n], wide)
        tag = "%s_%s" % (part, wide)
        mod.func("test_pack_%s" % tag, (
            "    %%0 = util.unfoldable_constant dense<%s> : %s\n"
            "    %%1 = stablehlo.bitcast_convert %%0 : (%s) -> %s\n"
            "    check.expect_eq_const(%%1, dense<%s> : %s) : %s\n"
        ) % (nested(rows), pt, pt, wt, ints(words), wt, wt))
        # Unpacking: these words, and every wide value's parts come back.
        back = [unpack(w, wide, part) for w in words]
        mod.func("test_unpack_%s" % tag, (
            "    %%0 = util.unfoldable_constant dense<%s> : %s\n"
            "    %%1 = stablehlo.bitcast_convert %%0 : (%s) -> %s\n"
            "    check.expect_eq_const(%%1, dense<%s> : %s) : %s\n"
        ) % (ints(words), wt, wt, pt, nested(back), pt, pt))
    # Every i8 value to 2xi4 and back.
    allv = list(range(-128, 128))
    parts = [unpack(v, "i8", "i4") for v in allv]
    mod.func("test_i8_all_to_i4", (
        "    %%0 = util.unfoldable_constant dense<%s> : tensor<256xi8>\n"
        "    %%1 = stablehlo.bitcast_convert %%0 : (tensor<256xi8>) -> tensor<256x2xi4>\n"
        "    check.expect_eq_const(%%1, dense<%s> : tensor<256x2xi4>) : tensor<256x2xi4>\n"
        "    %%2 = stablehlo.bitcast_convert %%1 : (tensor<256x2xi4>) -> tensor<256xi8>\n"
        "    check.expect_eq_const(%%2, dense<%s> : tensor<256xi8>) : tensor<256xi8>\n"
    ) % (ints(allv), nested(parts), ints(allv)))
    # The same width, the other signedness: the 4 bits reread.
    i4s = [-8, -1, 0, 7, -3]
    u4s = [to_field(v, 4) for v in i4s]
    mod.func("test_i4_ui4", (
        "    %%0 = util.unfoldable_constant dense<%s> : tensor<5xi4>\n"
        "    %%1 = stablehlo.bitcast_convert %%0 : (tensor<5xi4>) -> tensor<5xui4>\n"
        "    check.expect_eq_const(%%1, dense<%s> : tensor<5xui4>) : tensor<5xui4>\n"
        "    %%2 = stablehlo.bitcast_convert %%1 : (tensor<5xui4>) -> tensor<5xi4>\n"
        "    check.expect_eq_const(%%2, dense<%s> : tensor<5xi4>) : tensor<5xi4>\n"
    ) % (ints(i4s), ints(u4s), ints(i4s)))
    # Two nibbles into an 8-bit float: 0x8 | 0x3 << 4 = 0x38, 1.0 in f8E4M3FN;
    # 0x0 | 0x8 << 4 = 0x80, -0.
    mod.func("test_i4_to_f8e4m3fn", (
        "    %0 = util.unfoldable_constant dense<[[-8, 3], [0, -8]]> : tensor<2x2xi4>\n"
        "    %1 = stablehlo.bitcast_convert %0 : (tensor<2x2xi4>) -> tensor<2xf8E4M3FN>\n"
        "    %2 = stablehlo.convert %1 : (tensor<2xf8E4M3FN>) -> tensor<2xf32>\n"
        "    check.expect_eq_const(%2, dense<[1.0, -0.0]> : tensor<2xf32>) : tensor<2xf32>\n"
        "    %3 = stablehlo.bitcast_convert %1 : (tensor<2xf8E4M3FN>) -> tensor<2x2xi4>\n"
        "    check.expect_eq_const(%3, dense<[[-8, 3], [0, -8]]> : tensor<2x2xi4>) : tensor<2x2xi4>\n"
    ))
    mod.func("fail_pack_i4_big_endian", (
        "    %0 = util.unfoldable_constant dense<[[1, 2]]> : tensor<1x2xi4>\n"
        "    %1 = stablehlo.bitcast_convert %0 : (tensor<1x2xi4>) -> tensor<1xi8>\n"
        "    check.expect_eq_const(%1, dense<[18]> : tensor<1xi8>) : tensor<1xi8>\n"
    ))
    text = ("// bitcast_convert of i2/i4/ui4 (held one per byte): packing parts into\n"
            "// i4/ui4/i8/ui8/i16/i32 and unpacking them, part 0 the least significant\n"
            "// (little-endian); i4 <-> ui4; i4 pairs as an 8-bit float.\n"
            "//\n"
            "// Generated by scripts/gen_e2e_f8_i4.py; do not edit. Run by grt-check:\n"
            "// test_* functions must pass, fail_* functions must fail.\n"
            "module @e2e_bitcast_i4 {\n" + "\n".join(mod.funcs) + "}\n")
    with open(OUT_I4, "w") as f:
        f.write(text)


def fstr(v):
    return repr(float(v))


def fnested(a):
    """An array of floats as a dense<> literal (nested lists)."""
    if not isinstance(a, list):
        return fstr(a)
    return "[" + ", ".join(fnested(x) for x in a) + "]"


def inested(a):
    if not isinstance(a, list):
        return str(a)
    return "[" + ", ".join(inested(x) for x in a) + "]"


def table(dims, fn, prefix=()):
    """Nested lists of fn(index tuple) over |dims|."""
    if not dims:
        return fn(prefix)
    return [table(dims[1:], fn, prefix + (i,)) for i in range(dims[0])]


def at(a, idx):
    for i in idx:
        a = a[i]
    return a


def gen_w4():
    """f32 x convert(i4/ui4 constant) dot_generals: the CPU packs such
    weights two to a byte and runs them on its int4-weight GEMM (w4.c).
    Activations are multiples of 1/4 and weights small integers, so every
    product and sum is exact in f32 and the expected values are exact
    whatever the summation order."""
    mod = Module()

    def act(m, k, b=0):
        return ((m * 5 + k * 11 + b * 3) % 9 - 4) * 0.25

    def wi4(k, n, b=0):
        return (k * 7 + n * 3 + b * 5) % 16 - 8

    def wu4(k, n):
        return (k * 5 + n * 9) % 16

    # (name, M, K, N, signed, rhs transposed ([N, K], contracting dim 1))
    cases = [
        ("i4_7x37x45", 7, 37, 45, True, False),
        ("ui4_7x37x45", 7, 37, 45, False, False),
        ("i4_rhs_nk_6x33x40", 6, 33, 40, True, True),
        ("ui4_rhs_nk_5x31x17", 5, 31, 35, False, True),
    ]
    for name, m, k, n, signed, nk in cases:
        wf = wi4 if signed else wu4
        et = "i4" if signed else "ui4"
        wdims = [n, k] if nk else [k, n]
        w = table(wdims, (lambda i: wf(i[1], i[0])) if nk else (lambda i: wf(i[0], i[1])))
        a = table([m, k], lambda i: act(i[0], i[1]))
        out = table([m, n], lambda i: sum(act(i[0], j) * wf(j, i[1]) for j in range(k)))
        wt, at_, ot = shape(wdims, et), shape([m, k], "f32"), shape([m, n], "f32")
        wft = shape(wdims, "f32")
        mod.func("test_w4_%s" % name, (
            "    %%0 = util.unfoldable_constant dense<%s> : %s\n"
            "    %%1 = stablehlo.constant dense<%s> : %s\n"
            "    %%2 = stablehlo.convert %%1 : (%s) -> %s\n"
            "    %%3 = stablehlo.dot_general %%0, %%2, contracting_dims = [1] x [%d] : (%s, %s) -> %s\n"
            "    check.expect_eq_const(%%3, dense<%s> : %s) : %s\n"
        ) % (fnested(a), at_, inested(w), wt, wt, wft, 1 if nk else 0, at_, wft, ot,
             fnested(out), ot, ot))
    # Larger than one 96 x 256 block of the GEMM: against the same product
    # of the weights as an unfoldable constant (never packed: the generic
    # loops), exact as above.
    m, k, n = 100, 41, 300
    a = table([m, k], lambda i: act(i[0], i[1]))
    w = inested(table([k, n], lambda i: wi4(i[0], i[1])))
    mod.func("test_w4_i4_100x41x300", (
        "    %%0 = util.unfoldable_constant dense<%s> : tensor<100x41xf32>\n"
        "    %%1 = stablehlo.constant dense<%s> : tensor<41x300xi4>\n"
        "    %%2 = stablehlo.convert %%1 : (tensor<41x300xi4>) -> tensor<41x300xf32>\n"
        "    %%3 = stablehlo.dot_general %%0, %%2, contracting_dims = [1] x [0] : (tensor<100x41xf32>, tensor<41x300xf32>) -> tensor<100x300xf32>\n"
        "    %%4 = util.unfoldable_constant dense<%s> : tensor<41x300xi4>\n"
        "    %%5 = stablehlo.convert %%4 : (tensor<41x300xi4>) -> tensor<41x300xf32>\n"
        "    %%6 = stablehlo.dot_general %%0, %%5, contracting_dims = [1] x [0] : (tensor<100x41xf32>, tensor<41x300xf32>) -> tensor<100x300xf32>\n"
        "    check.expect_eq(%%3, %%6) : tensor<100x300xf32>\n"
    ) % (fnested(a), w, w))
    # Batched, with a bias and relu fused after the product.
    bt, m, k, n = 2, 5, 33, 40
    a = table([bt, m, k], lambda i: act(i[1], i[2], i[0]))
    w = table([bt, k, n], lambda i: wi4(i[1], i[2], i[0]))
    bias = [((j * 3) % 7 - 3) * 0.5 for j in range(n)]
    out = table([bt, m, n], lambda i: max(0.0, sum(
        act(i[1], j, i[0]) * wi4(j, i[2], i[0]) for j in range(k)) + bias[i[2]]))
    mod.func("test_w4_batch_bias_relu", (
        "    %%0 = util.unfoldable_constant dense<%s> : tensor<2x5x33xf32>\n"
        "    %%1 = stablehlo.constant dense<%s> : tensor<2x33x40xi4>\n"
        "    %%2 = stablehlo.convert %%1 : (tensor<2x33x40xi4>) -> tensor<2x33x40xf32>\n"
        "    %%3 = stablehlo.dot_general %%0, %%2, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x5x33xf32>, tensor<2x33x40xf32>) -> tensor<2x5x40xf32>\n"
        "    %%4 = stablehlo.constant dense<%s> : tensor<40xf32>\n"
        "    %%5 = stablehlo.broadcast_in_dim %%4, dims = [2] : (tensor<40xf32>) -> tensor<2x5x40xf32>\n"
        "    %%6 = stablehlo.add %%3, %%5 : tensor<2x5x40xf32>\n"
        "    %%7 = stablehlo.constant dense<0.0> : tensor<2x5x40xf32>\n"
        "    %%8 = stablehlo.maximum %%6, %%7 : tensor<2x5x40xf32>\n"
        "    check.expect_eq_const(%%8, dense<%s> : tensor<2x5x40xf32>) : tensor<2x5x40xf32>\n"
    ) % (fnested(a), inested(w), fnested(bias), fnested(out)))
    # One weight constant read by two products (stays one per byte) and
    # one whose values do not fit 4 bits (an i8 weight: not packed).
    m, k, n = 3, 37, 45
    a = table([m, k], lambda i: act(i[0], i[1]))
    w = table([k, n], lambda i: wi4(i[0], i[1]))
    w8 = table([k, n], lambda i: wi4(i[0], i[1]) * 9)
    out = table([m, n], lambda i: sum(act(i[0], j) * wi4(j, i[1]) for j in range(k)))
    out2 = table([m, n], lambda i: 2 * at(out, i))
    out8 = table([m, n], lambda i: 9 * at(out, i))
    mod.func("test_w4_shared_and_i8", (
        "    %%0 = util.unfoldable_constant dense<%s> : tensor<3x37xf32>\n"
        "    %%1 = stablehlo.constant dense<%s> : tensor<37x45xi4>\n"
        "    %%2 = stablehlo.convert %%1 : (tensor<37x45xi4>) -> tensor<37x45xf32>\n"
        "    %%3 = stablehlo.dot_general %%0, %%2, contracting_dims = [1] x [0] : (tensor<3x37xf32>, tensor<37x45xf32>) -> tensor<3x45xf32>\n"
        "    %%4 = stablehlo.add %%0, %%0 : tensor<3x37xf32>\n"
        "    %%5 = stablehlo.dot_general %%4, %%2, contracting_dims = [1] x [0] : (tensor<3x37xf32>, tensor<37x45xf32>) -> tensor<3x45xf32>\n"
        "    %%6 = stablehlo.constant dense<%s> : tensor<37x45xi8>\n"
        "    %%7 = stablehlo.convert %%6 : (tensor<37x45xi8>) -> tensor<37x45xf32>\n"
        "    %%8 = stablehlo.dot_general %%0, %%7, contracting_dims = [1] x [0] : (tensor<3x37xf32>, tensor<37x45xf32>) -> tensor<3x45xf32>\n"
        "    check.expect_eq_const(%%3, dense<%s> : tensor<3x45xf32>) : tensor<3x45xf32>\n"
        "    check.expect_eq_const(%%5, dense<%s> : tensor<3x45xf32>) : tensor<3x45xf32>\n"
        "    check.expect_eq_const(%%8, dense<%s> : tensor<3x45xf32>) : tensor<3x45xf32>\n"
    ) % (fnested(a), inested(w), inested(w8), fnested(out), fnested(out2), fnested(out8)))
    # uniform_dequantize of a per-axis i4 constant (scales along N, powers
    # of two, so the scale taken after the sum gives the same value) as the
    # rhs; a weight-only dot_general of a per-tensor one; one with a zero
    # point (not hoisted: the dequantized weights, one per byte).
    scales = [2.0 ** -(j % 4) for j in range(n)]
    qa = "!quant.uniform<i4:f32:1, {%s}>" % ", ".join(fstr(v) for v in scales)
    outs = table([m, n], lambda i: at(out, i) * scales[i[1]])
    outt = table([m, n], lambda i: at(out, i) * 0.5)
    outz = table([m, n], lambda i: sum(act(i[0], j) * (wi4(j, i[1]) - 1) * 0.5
                                       for j in range(k)))
    mod.func("test_w4_dequantized", (
        "    %%0 = util.unfoldable_constant dense<%s> : tensor<3x37xf32>\n"
        "    %%1 = stablehlo.constant dense<%s> : tensor<37x45x%s>\n"
        "    %%2 = stablehlo.uniform_dequantize %%1 : (tensor<37x45x%s>) -> tensor<37x45xf32>\n"
        "    %%3 = stablehlo.dot_general %%0, %%2, contracting_dims = [1] x [0] : (tensor<3x37xf32>, tensor<37x45xf32>) -> tensor<3x45xf32>\n"
        "    %%4 = stablehlo.constant dense<%s> : tensor<37x45x!quant.uniform<i4:f32, 0.5>>\n"
        "    %%5 = stablehlo.dot_general %%0, %%4, contracting_dims = [1] x [0] : (tensor<3x37xf32>, tensor<37x45x!quant.uniform<i4:f32, 0.5>>) -> tensor<3x45xf32>\n"
        "    %%6 = stablehlo.constant dense<%s> : tensor<37x45x!quant.uniform<i4:f32, 0.5:1>>\n"
        "    %%7 = stablehlo.dot_general %%0, %%6, contracting_dims = [1] x [0] : (tensor<3x37xf32>, tensor<37x45x!quant.uniform<i4:f32, 0.5:1>>) -> tensor<3x45xf32>\n"
        "    check.expect_eq_const(%%3, dense<%s> : tensor<3x45xf32>) : tensor<3x45xf32>\n"
        "    check.expect_eq_const(%%5, dense<%s> : tensor<3x45xf32>) : tensor<3x45xf32>\n"
        "    check.expect_eq_const(%%7, dense<%s> : tensor<3x45xf32>) : tensor<3x45xf32>\n"
    ) % (fnested(a), inested(w), qa, qa, inested(w), inested(w), fnested(outs),
         fnested(outt), fnested(outz)))
    # The check can fail: one expected value off by 1/4.
    bad = table([m, n], lambda i: at(out, i) + (0.25 if i == (2, 44) else 0.0))
    mod.func("fail_w4_one_value_off", (
        "    %%0 = util.unfoldable_constant dense<%s> : tensor<3x37xf32>\n"
        "    %%1 = stablehlo.constant dense<%s> : tensor<37x45xi4>\n"
        "    %%2 = stablehlo.convert %%1 : (tensor<37x45xi4>) -> tensor<37x45xf32>\n"
        "    %%3 = stablehlo.dot_general %%0, %%2, contracting_dims = [1] x [0] : (tensor<3x37xf32>, tensor<37x45xf32>) -> tensor<3x45xf32>\n"
        "    check.expect_eq_const(%%3, dense<%s> : tensor<3x45xf32>) : tensor<3x45xf32>\n"
    ) % (fnested(a), inested(w), fnested(bad)))
    text = ("// f32 x convert(i4/ui4 constant) dot_general: the int4-weight matmul\n"
            "// (weights packed two to a byte in rodata on the CPU), odd K, N not a\n"
            "// multiple of 16, [K, N] and [N, K] weights, batching, a fused\n"
            "// bias + relu, a shared weight and an i8 one (neither packed), the\n"
            "// uniform_dequantize of per-axis and per-tensor i4 constants.\n"
            "//\n"
            "// Generated by scripts/gen_e2e_f8_i4.py; do not edit. Run by grt-check:\n"
            "// test_* functions must pass, fail_* functions must fail.\n"
            "module @e2e_matmul_i4 {\n" + "\n".join(mod.funcs) + "}\n")
    with open(OUT_W4, "w") as f:
        f.write(text)


if __name__ == "__main__":
    gen()
    gen_small()
    gen_i4()
    gen_w4()
