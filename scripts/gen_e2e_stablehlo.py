#!/usr/bin/python3
"""Writes tests/e2e/stablehlo/*.mlir: grt-check tests per StableHLO op family.

Run by hand after changing it (its output is committed):

    /usr/bin/python3 scripts/gen_e2e_stablehlo.py

Every expected value is computed here with numpy (or, for integer corners,
with the exact semantics compiler/kernel/scalar.h documents), never typed by
hand. Inputs are util.unfoldable_constant so the compiler cannot fold a test
away. Ops are written in the forms jax.jit(f).lower(...).as_text() prints
(pretty forms; generic forms for gather, scatter, sort, reduce_window, if,
case), with some ops in the generic "stablehlo.add"(...) form as well.
Each family also has a fail_* function whose check must fail, so a check
that silently passes everything is caught. Deterministic: fixed seeds, no
clock, no environment.
"""

import math
import os
import sys

import mpmath
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_mlir import (BITS, DTYPES, Func, array, dense, is_float,  # noqa: E402
                      is_signed, module, tensor_type, to_bf16, type_of)

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                   "e2e", "stablehlo")

NAN = float("nan")
INF = float("inf")

# Tolerances for results of transcendental functions computed in f32/f64 by
# libm (a few ulps away from the correctly rounded values numpy's f64 gives).
TOL = {"f16": (2e-3, 2e-3), "bf16": (2e-2, 1e-2), "f32": (1e-5, 1e-5),
       "f64": (1e-12, 1e-12)}

INT_TYPES = ["i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64"]


def t(arr, elem):
    return type_of(arr, elem)


def f64(a):
    return np.asarray(a).astype(np.float64)


def round_to(elem, values):
    """float64 results rounded to |elem| (the store the compiler does)."""
    values = np.asarray(values, dtype=np.float64)
    if elem == "f16":
        return values.astype(np.float32).astype(np.float16)
    if elem == "bf16":
        return to_bf16(values.astype(np.float32))
    return values.astype({"f32": np.float32, "f64": np.float64}[elem])


def binary(f, op, a, b, elem, generic=False):
    x = f.input(a, elem)
    y = f.input(b, elem)
    ty = t(a, elem)
    if generic:
        return f.op('"stablehlo.%s"(%s, %s) : (%s, %s) -> %s'
                    % (op, x, y, ty, ty, ty))
    return f.op("stablehlo.%s %s, %s : %s" % (op, x, y, ty))


def unary(f, op, a, elem, result_elem=None, generic=False):
    x = f.input(a, elem)
    ty = t(a, elem)
    if generic or result_elem:
        rty = tensor_type(np.shape(a), result_elem or elem)
        if generic:
            return f.op('"stablehlo.%s"(%s) : (%s) -> %s' % (op, x, ty, rty))
        return f.op("stablehlo.%s %s : (%s) -> %s" % (op, x, ty, rty))
    return f.op("stablehlo.%s %s : %s" % (op, x, ty))


#===----------------------------------------------------------------------===#
# Elementwise, float
#===----------------------------------------------------------------------===#

def logistic(x):
    return 1.0 / (1.0 + np.exp(-x))


def round_afz(x):
    return np.where(np.isfinite(x), np.sign(x) * np.floor(np.abs(x) + 0.5), x)


def sign(x):
    return np.where(np.isnan(x), x, np.where(x == 0, x, np.sign(x)))


# name -> (numpy function on float64, inputs, transcendental?)
FLOAT_UNARY = [
    ("abs", np.abs, [-2.5, 0.0, 3.25, -0.0, -INF], False),
    ("negate", np.negative, [-2.5, 0.0, 3.25, INF, 1e-3], False),
    ("sign", sign, [-2.5, 0.0, 3.25, -0.0, NAN, -INF], False),
    ("exponential", np.exp, [-2.0, -0.5, 0.0, 1.0, 2.5], True),
    ("exponential_minus_one", np.expm1, [-1.0, -1e-5, 0.0, 1e-5, 2.0], True),
    ("log", np.log, [0.25, 1.0, 2.0, 10.0, 100.0], True),
    ("log_plus_one", np.log1p, [-0.5, -1e-5, 0.0, 1e-5, 3.0], True),
    ("logistic", logistic, [-4.0, -1.0, 0.0, 0.5, 6.0], True),
    ("sqrt", np.sqrt, [0.0, 0.25, 2.0, 9.0, 1e4], True),
    ("rsqrt", lambda x: 1.0 / np.sqrt(x), [0.25, 1.0, 2.0, 9.0, 1e4], True),
    ("cbrt", np.cbrt, [-27.0, -2.0, 0.0, 0.125, 10.0], True),
    ("tanh", np.tanh, [-3.0, -0.5, 0.0, 0.25, 10.0], True),
    ("sine", np.sin, [-3.0, -0.5, 0.0, 1.0, 2.5], True),
    ("cosine", np.cos, [-3.0, -0.5, 0.0, 1.0, 2.5], True),
    ("tan", np.tan, [-1.2, -0.5, 0.0, 0.25, 1.0], True),
    ("floor", np.floor, [-2.5, -0.5, 0.0, 0.5, 2.7, -3.0], False),
    ("ceil", np.ceil, [-2.5, -0.5, 0.0, 0.5, 2.2, -3.0], False),
    ("round_nearest_afz", round_afz, [-2.5, -1.5, -0.4, 0.5, 1.5, 2.5], False),
    ("round_nearest_even", np.round, [-2.5, -1.5, -0.4, 0.5, 1.5, 2.5], False),
]
GENERIC_UNARY = ("cbrt", "round_nearest_even", "tan")

FLOAT_BINARY = [
    ("add", np.add, [1.5, -2.0, 0.25, 100.0], [2.25, 3.0, -0.25, 0.5], False),
    ("subtract", np.subtract, [1.5, -2.0, 0.25, 100.0],
     [2.25, 3.0, -0.25, 0.5], False),
    ("multiply", np.multiply, [1.5, -2.0, 0.25, 100.0],
     [2.25, 3.0, -0.25, 0.5], False),
    ("divide", np.divide, [1.0, -7.0, 0.0, 5.0, -1.0],
     [3.0, 2.0, 4.0, 0.0, 0.0], False),
    ("remainder", np.fmod, [7.5, -7.5, 7.5, -7.5, 1.0],
     [2.0, 2.0, -2.0, -2.0, 0.5], False),
    ("power", np.power, [2.0, 9.0, 1.5, 10.0, 0.5],
     [3.0, 0.5, -2.0, 0.0, 4.0], True),
    ("maximum", np.maximum, [1.0, -2.0, NAN, 3.0, -0.5],
     [2.0, -3.0, 1.0, NAN, -0.25], False),
    ("minimum", np.minimum, [1.0, -2.0, NAN, 3.0, -0.5],
     [2.0, -3.0, 1.0, NAN, -0.25], False),
    ("atan2", np.arctan2, [1.0, 1.0, -1.0, -1.0, 0.0],
     [1.0, -1.0, 1.0, -1.0, 2.0], True),
]
GENERIC_BINARY = ("atan2", "remainder")


def gen_elementwise_float():
    funcs = []
    elem = "f32"
    for name, fn, values, trans in FLOAT_UNARY:
        f = Func("test_%s_f32" % name)
        a = array(values, elem)
        r = unary(f, name, a, elem, generic=name in GENERIC_UNARY)
        with np.errstate(all="ignore"):
            expected = round_to(elem, fn(a.astype(np.float64)))
        f.expect(r, expected, elem, *(TOL[elem] if trans else (None, None)))
        funcs.append(f.text())
    for name, fn, av, bv, trans in FLOAT_BINARY:
        f = Func("test_%s_f32" % name)
        a, b = array(av, elem), array(bv, elem)
        r = binary(f, name, a, b, elem, generic=name in GENERIC_BINARY)
        with np.errstate(all="ignore"):
            expected = round_to(elem, fn(a.astype(np.float64), b.astype(np.float64)))
        f.expect(r, expected, elem, *(TOL[elem] if trans else (None, None)))
        funcs.append(f.text())

    f = Func("test_is_finite_f32")
    a = array([1.0, INF, -INF, NAN, -0.0, 3e38], elem)
    r = unary(f, "is_finite", a, elem, result_elem="i1")
    f.expect(r, np.isfinite(a), "i1")
    funcs.append(f.text())

    f = Func("test_clamp_f32")
    lo, x, hi = (array(v, elem) for v in ([-1.0, 0.0, 2.0, -5.0],
                                           [-3.0, 0.5, 9.0, -4.5],
                                           [1.0, 1.0, 3.0, -4.0]))
    vlo, vx, vhi = f.input(lo, elem), f.input(x, elem), f.input(hi, elem)
    r = f.op("stablehlo.clamp %s, %s, %s : %s" % (vlo, vx, vhi, t(x, elem)))
    f.expect(r, np.clip(x, lo, hi), elem)
    # Scalar bounds, as jnp.clip(x, 0.0, 1.0) exports.
    s0 = f.input(array(0.0, elem), elem)
    s1 = f.input(array(1.0, elem), elem)
    r = f.op("stablehlo.clamp %s, %s, %s : (tensor<f32>, %s, tensor<f32>) -> %s"
             % (s0, vx, s1, t(x, elem), t(x, elem)))
    f.expect(r, np.clip(x, 0.0, 1.0), elem)
    funcs.append(f.text())

    # A chain the compiler should fuse into one kernel: relu(x * y + 1).
    f = Func("test_fused_chain_f32")
    rng = np.random.default_rng(1)
    a = array(rng.uniform(-2, 2, (3, 5)), elem)
    b = array(rng.uniform(-2, 2, (3, 5)), elem)
    x, y = f.input(a, elem), f.input(b, elem)
    ty = t(a, elem)
    one = f.op("stablehlo.constant dense<1.000000e+00> : %s" % ty)
    zero = f.op("stablehlo.constant dense<0.000000e+00> : %s" % ty)
    m = f.op("stablehlo.multiply %s, %s : %s" % (x, y, ty))
    s = f.op("stablehlo.add %s, %s : %s" % (m, one, ty))
    r = f.op("stablehlo.maximum %s, %s : %s" % (s, zero, ty))
    f.expect(r, round_to(elem, np.maximum(a.astype(np.float64) * b + 1, 0)), elem)
    funcs.append(f.text())

    # Other float types: a few ops each, computed in f32 and rounded on
    # store for f16/bf16 (scalar.h).
    samples = [
        ("add", np.add, [1.5, -2.0, 0.1, 1000.0], [2.25, 3.0, 0.2, 0.5], False),
        ("multiply", np.multiply, [1.5, -2.0, 0.1, 3.0], [2.25, 3.0, 0.2, -0.5],
         False),
        ("divide", np.divide, [1.0, -7.0, 2.0, 5.0], [3.0, 2.0, 0.1, 8.0], False),
        ("maximum", np.maximum, [1.0, -2.0, 3.0, -0.5], [2.0, -3.0, 1.0, -0.25],
         False),
    ]
    unary_samples = [
        ("exponential", np.exp, [-2.0, 0.0, 1.0, 2.5]),
        ("sqrt", np.sqrt, [0.0, 0.25, 2.0, 9.0]),
        ("tanh", np.tanh, [-3.0, -0.5, 0.0, 0.25]),
        ("logistic", logistic, [-4.0, 0.0, 0.5, 6.0]),
        ("log", np.log, [0.25, 1.0, 2.0, 10.0]),
        ("sine", np.sin, [-3.0, -0.5, 0.0, 1.0]),
        ("floor", np.floor, [-2.5, -0.5, 0.5, 2.7]),
        ("negate", np.negative, [-2.5, 0.0, 3.25, 1e-3]),
    ]
    for elem in ("f16", "bf16", "f64"):
        for name, fn, av, bv, _ in samples:
            f = Func("test_%s_%s" % (name, elem))
            a, b = array(av, elem), array(bv, elem)
            r = binary(f, name, a, b, elem, generic=(name == "divide"))
            # f16/bf16: the f32 result rounded; f64: the f64 result.
            wide = np.float32 if elem != "f64" else np.float64
            exact = fn(a.astype(wide), b.astype(wide))
            f.expect(r, round_to(elem, exact), elem,
                     *(TOL[elem] if elem != "f64" else (None, None)))
            funcs.append(f.text())
        for name, fn, av in unary_samples:
            f = Func("test_%s_%s" % (name, elem))
            a = array(av, elem)
            r = unary(f, name, a, elem)
            f.expect(r, round_to(elem, fn(a.astype(np.float64))), elem, *TOL[elem])
            funcs.append(f.text())

    f = Func("fail_add_f32_wrong_expectation")
    a, b = array([1.0, 2.0], "f32"), array([3.0, 4.0], "f32")
    r = binary(f, "add", a, b, "f32")
    f.expect(r, array([4.0, 6.5], "f32"), "f32")
    funcs.append(f.text(comment="2 + 4 is not 6.5: the check must fail."))
    return funcs


#===----------------------------------------------------------------------===#
# Elementwise, integer (semantics of compiler/kernel/scalar.h)
#===----------------------------------------------------------------------===#

def limits(elem):
    bits = BITS[elem]
    if is_signed(elem):
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def wrap(v, elem):
    bits = BITS[elem]
    v &= (1 << bits) - 1
    if is_signed(elem) and v >> (bits - 1):
        v -= 1 << bits
    return v


def idiv(a, b, elem):
    lo, _ = limits(elem)
    if b == 0:
        return wrap(-1, elem)
    if is_signed(elem) and a == lo and b == -1:
        return lo
    q = abs(a) // abs(b)
    return wrap(q if (a < 0) == (b < 0) else -q, elem)


def irem(a, b, elem):
    lo, _ = limits(elem)
    if b == 0:
        return a
    if is_signed(elem) and a == lo and b == -1:
        return 0
    return wrap(a - idiv(a, b, elem) * b, elem)


def shl(a, s, elem):
    return 0 if s < 0 or s >= BITS[elem] else wrap(a << s, elem)


def shrl(a, s, elem):
    mask = (1 << BITS[elem]) - 1
    return 0 if s < 0 or s >= BITS[elem] else wrap((a & mask) >> s, elem)


def shra(a, s, elem):
    if s < 0 or s >= BITS[elem]:
        return -1 if a < 0 else 0
    return a >> s


def ipow(a, e, elem):
    if e < 0:
        return 1 if a == 1 else (-1 if e % 2 else 1) if a == -1 else 0
    r = 1
    while e:
        if e & 1:
            r = wrap(r * a, elem)
        a = wrap(a * a, elem)
        e >>= 1
    return r


def apply(fn, *columns):
    return [fn(*vals) for vals in zip(*columns)]


def int_values(elem):
    lo, hi = limits(elem)
    if is_signed(elem):
        return {
            "a": [7, -7, 7, -7, lo, 5, 0, hi],
            "b": [2, 2, -2, -2, -1, 0, 0, 3],
            "x": [1, -8, 5, -1, lo, 3],
            "s": [3, 1, BITS[elem] - 1, BITS[elem], 1, -1],
            "p": [2, 3, -2, 1, -1, -1, 5, 0],
            "e": [3, 4, 3, -5, -3, -4, -1, 0],
        }
    return {
        "a": [7, hi - 5, hi, 5, 0, 9, hi, 1],
        "b": [2, 3, 7, 0, 0, 10, 1, hi],
        "x": [1, hi - 199, 5, hi, 3, 1],
        "s": [3, 1, BITS[elem] - 1, BITS[elem], BITS[elem] + 5, 0],
        "p": [2, 3, 0, 1, 7, 0],
        "e": [5, 2, 0, 9, 3, 3],
    }


def gen_elementwise_int():
    funcs = []
    for elem in INT_TYPES:
        v = int_values(elem)
        a, b = v["a"], v["b"]
        arr_a, arr_b = array(a, elem), array(b, elem)
        ty = t(arr_a, elem)
        lo, hi = limits(elem)

        f = Func("test_add_sub_mul_%s" % elem)
        x, y = f.input(arr_a, elem), f.input(arr_b, elem)
        for op, fn in (("add", lambda p, q: p + q),
                       ("subtract", lambda p, q: p - q),
                       ("multiply", lambda p, q: p * q)):
            r = f.op("stablehlo.%s %s, %s : %s" % (op, x, y, ty))
            f.expect(r, array(apply(lambda p, q: wrap(fn(p, q), elem), a, b), elem),
                     elem)
        funcs.append(f.text())

        f = Func("test_divide_remainder_%s" % elem)
        x, y = f.input(arr_a, elem), f.input(arr_b, elem)
        r = f.op("stablehlo.divide %s, %s : %s" % (x, y, ty))
        f.expect(r, array(apply(lambda p, q: idiv(p, q, elem), a, b), elem), elem)
        r = f.op('"stablehlo.remainder"(%s, %s) : (%s, %s) -> %s' % (x, y, ty, ty, ty))
        f.expect(r, array(apply(lambda p, q: irem(p, q, elem), a, b), elem), elem)
        funcs.append(f.text(comment="Division by zero gives -1 (all ones) and "
                            "remainder by zero the dividend;\nINT_MIN / -1 "
                            "gives INT_MIN and INT_MIN % -1 gives 0 "
                            "(compiler/kernel/scalar.h)."))

        f = Func("test_shifts_%s" % elem)
        xs, ss = v["x"], v["s"]
        arr_x, arr_s = array(xs, elem), array(ss, elem)
        tx = t(arr_x, elem)
        x, s = f.input(arr_x, elem), f.input(arr_s, elem)
        r = f.op("stablehlo.shift_left %s, %s : %s" % (x, s, tx))
        f.expect(r, array(apply(lambda p, q: shl(p, q, elem), xs, ss), elem), elem)
        r = f.op("stablehlo.shift_right_logical %s, %s : %s" % (x, s, tx))
        f.expect(r, array(apply(lambda p, q: shrl(p, q, elem), xs, ss), elem), elem)
        if is_signed(elem):
            r = f.op("stablehlo.shift_right_arithmetic %s, %s : %s" % (x, s, tx))
            f.expect(r, array(apply(lambda p, q: shra(p, q, elem), xs, ss), elem),
                     elem)
        funcs.append(f.text(comment="Shift amounts at or past the bit width "
                            "(or negative) give 0, or the sign for\n"
                            "shift_right_arithmetic."))

        f = Func("test_bitwise_%s" % elem)
        x, y = f.input(arr_a, elem), f.input(arr_b, elem)
        mask = (1 << BITS[elem]) - 1
        for op, fn in (("and", lambda p, q: p & q), ("or", lambda p, q: p | q),
                       ("xor", lambda p, q: p ^ q)):
            r = f.op("stablehlo.%s %s, %s : %s" % (op, x, y, ty))
            f.expect(r, array(apply(lambda p, q: wrap(fn(p & mask, q & mask), elem),
                                    a, b), elem), elem)
        r = f.op("stablehlo.not %s : %s" % (x, ty))
        f.expect(r, array([wrap(~p, elem) for p in a], elem), elem)
        funcs.append(f.text())

        f = Func("test_unary_%s" % elem)
        x = f.input(arr_a, elem)
        r = f.op("stablehlo.popcnt %s : %s" % (x, ty))
        f.expect(r, array([bin(p & mask).count("1") for p in a], elem), elem)
        r = f.op("stablehlo.count_leading_zeros %s : %s" % (x, ty))
        f.expect(r, array([BITS[elem] - (p & mask).bit_length() for p in a], elem),
                 elem)
        r = f.op("stablehlo.negate %s : %s" % (x, ty))
        f.expect(r, array([wrap(-p, elem) for p in a], elem), elem)
        if is_signed(elem):
            r = f.op("stablehlo.abs %s : %s" % (x, ty))
            f.expect(r, array([wrap(abs(p), elem) for p in a], elem), elem)
            r = f.op("stablehlo.sign %s : %s" % (x, ty))
            f.expect(r, array([(p > 0) - (p < 0) for p in a], elem), elem)
        funcs.append(f.text(comment="abs and negate wrap: abs(INT_MIN) is INT_MIN."
                            if is_signed(elem) else None))

        f = Func("test_max_min_clamp_%s" % elem)
        x, y = f.input(arr_a, elem), f.input(arr_b, elem)
        r = f.op("stablehlo.maximum %s, %s : %s" % (x, y, ty))
        f.expect(r, array(apply(max, a, b), elem), elem)
        r = f.op("stablehlo.minimum %s, %s : %s" % (x, y, ty))
        f.expect(r, array(apply(min, a, b), elem), elem)
        clo, chi = (-3, 6) if is_signed(elem) else (2, 8)
        vlo = f.input(array(clo, elem), elem)
        vhi = f.input(array(chi, elem), elem)
        r = f.op("stablehlo.clamp %s, %s, %s : (tensor<%s>, %s, tensor<%s>) -> %s"
                 % (vlo, x, vhi, elem, ty, elem, ty))
        f.expect(r, array([min(max(p, clo), chi) for p in a], elem), elem)
        funcs.append(f.text())

        f = Func("test_power_%s" % elem)
        ps, es = v["p"], v["e"]
        arr_p, arr_e = array(ps, elem), array(es, elem)
        x, y = f.input(arr_p, elem), f.input(arr_e, elem)
        r = f.op("stablehlo.power %s, %s : %s" % (x, y, t(arr_p, elem)))
        f.expect(r, array(apply(lambda p, q: ipow(p, q, elem), ps, es), elem), elem)
        funcs.append(f.text(comment="A negative exponent gives 0 (1 for a base "
                            "of 1, +-1 for -1)." if is_signed(elem) else None))

    f = Func("test_logic_i1")
    p = array([True, True, False, False], "i1")
    q = array([True, False, True, False], "i1")
    x, y = f.input(p, "i1"), f.input(q, "i1")
    for op, fn in (("and", np.logical_and), ("or", np.logical_or),
                   ("xor", np.logical_xor)):
        r = f.op("stablehlo.%s %s, %s : tensor<4xi1>" % (op, x, y))
        f.expect(r, fn(p, q), "i1")
    r = f.op("stablehlo.not %s : tensor<4xi1>" % x)
    f.expect(r, np.logical_not(p), "i1")
    funcs.append(f.text(comment="not on i1 is logical."))

    f = Func("test_arith_i1")
    x, y = f.input(p, "i1"), f.input(q, "i1")
    for op, fn in (("add", np.logical_or), ("maximum", np.logical_or),
                   ("multiply", np.logical_and), ("minimum", np.logical_and)):
        r = f.op("stablehlo.%s %s, %s : tensor<4xi1>" % (op, x, y))
        f.expect(r, fn(p, q), "i1")
    lo = f.input(array([False, False, True, False], "i1"), "i1")
    hi = f.input(array([True, False, True, True], "i1"), "i1")
    r = f.op("stablehlo.clamp %s, %s, %s : tensor<4xi1>" % (lo, x, hi))
    f.expect(r, np.minimum(np.maximum(p, [False, False, True, False]),
                           [True, False, True, True]), "i1")
    # The same on constants, which the compiler folds.
    cx = f.op("stablehlo.constant dense<[true, true, false, false]> : tensor<4xi1>")
    cy = f.op("stablehlo.constant dense<[true, false, true, false]> : tensor<4xi1>")
    for op, fn in (("add", np.logical_or), ("multiply", np.logical_and)):
        r = f.op("stablehlo.%s %s, %s : tensor<4xi1>" % (op, cx, cy))
        f.expect(r, fn(p, q), "i1")
    funcs.append(f.text(comment="StableHLO on booleans: add and maximum are "
                        "logical OR, multiply and minimum logical AND "
                        "(1 + 1 is true, not 0)."))

    f = Func("fail_add_i1_is_not_xor")
    x, y = f.input(p, "i1"), f.input(q, "i1")
    r = f.op("stablehlo.add %s, %s : tensor<4xi1>" % (x, y))
    f.expect(r, np.logical_xor(p, q), "i1")
    funcs.append(f.text())

    f = Func("fail_divide_i32_wrong_expectation")
    x, y = f.input(array([7, 8], "i32"), "i32"), f.input(array([2, 0], "i32"), "i32")
    r = f.op("stablehlo.divide %s, %s : tensor<2xi32>" % (x, y))
    f.expect(r, array([3, 0], "i32"), "i32")
    funcs.append(f.text(comment="8 / 0 is -1, not 0: the check must fail."))
    return funcs


#===----------------------------------------------------------------------===#
# Compare and select
#===----------------------------------------------------------------------===#

DIRECTIONS = [("EQ", np.equal), ("NE", np.not_equal), ("LT", np.less),
              ("LE", np.less_equal), ("GT", np.greater),
              ("GE", np.greater_equal)]


def total_order_key(values):
    bits = np.asarray(values, dtype=np.float32).view(np.int32).astype(np.int64)
    return np.where(bits < 0, bits ^ 0x7FFFFFFF, bits)


def weak_order_key(values):
    """Keys that order floats as WEAKORDER does: every NaN equal, above +Inf
    (no input is f64's largest finite value)."""
    v = np.asarray(values, dtype=np.float64)
    return np.where(np.isnan(v), np.inf,
                    np.where(v == np.inf, np.finfo(np.float64).max, v))


def gen_compare():
    funcs = []
    nan_neg = np.array([0xFFC00000], dtype=np.uint32).view(np.float32)[0]
    nan_neg64 = np.array([0xFFF8000000000000], dtype=np.uint64).view(np.float64)[0]
    cases = [
        ("f32", "FLOAT", [1.0, 2.0, NAN, -0.0, INF, 3.0, -1.0],
         [2.0, 2.0, 1.0, 0.0, INF, NAN, -2.0]),
        ("f32", "TOTALORDER", [nan_neg, -INF, -0.0, 0.0, NAN, 1.0, NAN],
         [-INF, -0.0, 0.0, -0.0, NAN, NAN, -1.0]),
        # Every NaN equal and above +Inf; -0 == +0.
        ("f32", "WEAKORDER", [nan_neg, nan_neg, -INF, -0.0, 1.0, INF, INF, NAN, 2.5],
         [nan_neg, NAN, INF, 0.0, 2.0, INF, nan_neg, INF, -3.0]),
        ("f64", "WEAKORDER", [nan_neg64, NAN, -INF, 0.0, -1e300, INF],
         [NAN, 1.0, -INF, -0.0, 1e300, nan_neg64]),
        ("f16", "FLOAT", [1.0, -2.0, 0.5, NAN], [1.0, 2.0, -0.5, 0.0]),
        ("bf16", "FLOAT", [1.0, -2.0, 0.5, 3.0], [1.0, 2.0, -0.5, 4.0]),
        ("f64", "FLOAT", [1.0, -2.0, NAN, 1e300], [1.0, 2.0, 0.0, -1e300]),
        ("i32", "SIGNED", [1, -5, 7, -2147483648, 2147483647],
         [1, 3, -7, 2147483647, -1]),
        ("i8", "SIGNED", [1, -5, 7, -128, 127], [1, 3, -7, 127, -1]),
        ("i64", "SIGNED", [1, -5, -(1 << 63), 1 << 40], [1, 3, 5, -(1 << 40)]),
        ("ui32", "UNSIGNED", [1, 5, 4294967295, 0, 2147483648],
         [1, 3, 0, 4294967295, 7]),
        ("ui8", "UNSIGNED", [1, 5, 255, 0], [1, 3, 0, 255]),
        ("i1", "UNSIGNED", [True, True, False, False], [True, False, True, False]),
    ]
    for elem, ctype, av, bv in cases:
        f = Func("test_compare_%s_%s" % (elem, ctype.lower()))
        a, b = array(av, elem), array(bv, elem)
        x, y = f.input(a, elem), f.input(b, elem)
        ty = t(a, elem)
        rty = tensor_type(a.shape, "i1")
        if ctype == "TOTALORDER":
            ka, kb = total_order_key(a), total_order_key(b)
        elif ctype == "WEAKORDER":
            ka, kb = weak_order_key(a), weak_order_key(b)
        else:
            ka, kb = a, b
        for i, (direction, fn) in enumerate(DIRECTIONS):
            if i % 2 == 0:
                r = f.op("stablehlo.compare  %s, %s, %s,  %s : (%s, %s) -> %s"
                         % (direction, x, y, ctype, ty, ty, rty))
            else:
                r = f.op('"stablehlo.compare"(%s, %s) <{compare_type = '
                         '#stablehlo<comparison_type %s>, comparison_direction = '
                         '#stablehlo<comparison_direction %s>}> : (%s, %s) -> %s'
                         % (x, y, ctype, direction, ty, ty, rty))
            with np.errstate(invalid="ignore"):
                f.expect(r, fn(ka, kb), "i1")
        funcs.append(f.text())

    f = Func("test_compare_default_type_f32")
    a, b = array([1.0, NAN, 3.0], "f32"), array([2.0, 1.0, 3.0], "f32")
    x, y = f.input(a, "f32"), f.input(b, "f32")
    r = f.op("stablehlo.compare  LT, %s, %s : (tensor<3xf32>, tensor<3xf32>) -> "
             "tensor<3xi1>" % (x, y))
    with np.errstate(invalid="ignore"):
        f.expect(r, a < b, "i1")
    funcs.append(f.text(comment="Without a comparison type: FLOAT for floats."))

    f = Func("test_select_f32")
    p = array([True, False, True, False], "i1")
    a, b = array([1.0, 2.0, 3.0, 4.0], "f32"), array([-1.0, -2.0, -3.0, -4.0], "f32")
    vp, x, y = f.input(p, "i1"), f.input(a, "f32"), f.input(b, "f32")
    r = f.op("stablehlo.select %s, %s, %s : tensor<4xi1>, tensor<4xf32>" % (vp, x, y))
    f.expect(r, np.where(p, a, b), "f32")
    s = f.input(array(False, "i1"), "i1")
    r = f.op("stablehlo.select %s, %s, %s : (tensor<i1>, tensor<4xf32>, "
             "tensor<4xf32>) -> tensor<4xf32>" % (s, x, y))
    f.expect(r, b, "f32")
    r = f.op('"stablehlo.select"(%s, %s, %s) : (tensor<4xi1>, tensor<4xf32>, '
             'tensor<4xf32>) -> tensor<4xf32>' % (vp, y, x))
    f.expect(r, np.where(p, b, a), "f32")
    funcs.append(f.text())

    f = Func("test_select_compare_i32")
    a, b = array([5, -3, 0, 9], "i32"), array([2, 4, 0, 10], "i32")
    x, y = f.input(a, "i32"), f.input(b, "i32")
    c = f.op("stablehlo.compare  GT, %s, %s,  SIGNED : (tensor<4xi32>, "
             "tensor<4xi32>) -> tensor<4xi1>" % (x, y))
    r = f.op("stablehlo.select %s, %s, %s : tensor<4xi1>, tensor<4xi32>" % (c, x, y))
    f.expect(r, np.maximum(a, b), "i32")
    funcs.append(f.text())

    f = Func("fail_compare_wrong_expectation")
    x = f.input(array([1, 2], "i32"), "i32")
    y = f.input(array([1, 3], "i32"), "i32")
    r = f.op("stablehlo.compare  EQ, %s, %s,  SIGNED : (tensor<2xi32>, "
             "tensor<2xi32>) -> tensor<2xi1>" % (x, y))
    f.expect(r, array([True, True], "i1"), "i1")
    funcs.append(f.text(comment="2 == 3 is false: the check must fail."))
    return funcs


#===----------------------------------------------------------------------===#
# Convert and bitcast_convert
#===----------------------------------------------------------------------===#

def convert_expected(values, src, dst):
    """scalar.h's convert: float->int truncates and saturates (NaN gives 0),
    to i1 means != 0, int->int wraps, float->narrower float rounds to
    nearest even."""
    out = []
    for v in values:
        if dst == "i1":
            out.append(v != 0)  # NaN != 0 too
        elif is_float(dst):
            out.append(float(v))
        elif is_float(src):
            if math.isnan(v):
                out.append(0)
            else:
                lo, hi = limits(dst)
                out.append(min(max(math.trunc(v) if math.isfinite(v)
                                   else (hi if v > 0 else lo), lo), hi))
        else:
            out.append(wrap(int(v), dst))
    if is_float(dst):
        if dst == "bf16":
            # Every source value here is exact in f32, so going through f32
            # rounds only once.
            return array(np.array(out, dtype=np.float64).astype(np.float32), dst)
        if dst == "f16":
            return np.array(out, dtype=np.float64).astype(np.float16)
        return array(out, dst)
    return array(out, dst)


def gen_convert():
    funcs = []
    cases = [
        ("f32", "i32", [1.9, -1.9, NAN, 3e9, -3e9, 0.5, -0.0]),
        ("f32", "ui8", [-1.5, 255.9, 300.0, 3.7, NAN]),
        ("f32", "i64", [1e12, -2.5, 9.3e18, -INF]),
        ("f32", "i1", [0.0, -0.0, 0.5, NAN, -3.0]),
        ("f32", "f16", [0.1, 1.0 / 3.0, 65504.0, 1e-8, 2049.0, 70000.0]),
        ("f32", "bf16", [1.00390625, 1.01171875, 3.14159, -2.5, 1e30]),
        ("f32", "f64", [0.1, -2.5, 1e30]),
        ("f64", "f32", [0.1, 1.0 / 3.0, -2.5, 1e300]),
        ("f16", "f32", [0.1, -2.5, 65504.0, 6e-8]),
        ("bf16", "f32", [0.1, -2.5, 3e38]),
        ("f16", "bf16", [0.1, -2.5, 1000.0]),
        ("i32", "f32", [16777217, -3, 0, 2147483647]),
        ("i32", "f16", [2049, 2051, -3, 65504, 100000]),
        ("i32", "bf16", [257, 259, -3, 1000000]),
        ("ui32", "f32", [4294967295, 7, 0]),
        ("i64", "f64", [9007199254740993, -5]),
        ("i32", "i8", [300, -129, 127, -1]),
        ("i32", "i1", [0, 5, -1]),
        ("i1", "f32", [True, False, True]),
        ("i1", "i32", [True, False]),
        ("ui8", "i32", [0, 200, 255]),
        ("i8", "ui32", [-1, 5, -128]),
        ("i64", "i32", [4294967298, -4294967297, 7]),
        ("ui64", "f32", [18446744073709551615, 3]),
    ]
    for src, dst, values in cases:
        f = Func("test_convert_%s_to_%s" % (src, dst))
        a = array(values, src)
        x = f.input(a, src)
        r = f.op("stablehlo.convert %s : (%s) -> %s"
                 % (x, t(a, src), tensor_type(a.shape, dst)))
        src_values = [v.item() if hasattr(v, "item") else v for v in a]
        f.expect(r, convert_expected(src_values, src, dst), dst)
        funcs.append(f.text())

    bitcasts = [
        ("f32", "i32", [1.0, -2.0, 0.0, INF]),
        ("i32", "f32", [1065353216, -1073741824, 0, 1]),
        ("f16", "i16", [1.0, -2.0, 65504.0]),
        ("i16", "f16", [15360, -16384, 1]),
        ("bf16", "ui16", [1.0, -2.0, 0.5]),
        ("f64", "i64", [1.0, -0.1]),
        ("ui32", "f32", [0x3F800000, 0x7F800000]),
        ("i32", "ui32", [-1, 5]),
    ]
    for src, dst, values in bitcasts:
        f = Func("test_bitcast_convert_%s_to_%s" % (src, dst))
        a = array(values, src)
        x = f.input(a, src)
        r = f.op("stablehlo.bitcast_convert %s : (%s) -> %s"
                 % (x, t(a, src), tensor_type(a.shape, dst)))
        if src == "bf16":
            raw = (a.view(np.uint32) >> 16).astype(np.uint16)
        else:
            raw = a
        if dst == "bf16":
            expected = (raw.astype(np.uint32) << 16).view(np.float32)
        else:
            expected = raw.view(DTYPES[dst])
        f.expect(r, expected, dst)
        funcs.append(f.text())

    # i1 vectors <-> wider elements: bit i of an element is element i of the
    # last dimension (element 0 the least significant), as the StableHLO
    # interpreter packs them.
    rng = np.random.default_rng(31)
    for wide, shape in (("i8", (3,)), ("ui16", (2,)), ("i32", ()), ("f32", (2,)),
                        ("i64", (2,))):
        bits = {"i8": 8, "ui16": 16, "i32": 32, "f32": 32, "i64": 64}[wide]
        pattern = rng.integers(0, 2, shape + (bits,)).astype(bool)
        if wide == "f32":
            pattern[..., 23:31] = [True, False, False, False, False, False, False, True]
        packed = np.zeros(shape, np.uint64)
        for i in range(bits):
            packed |= pattern[..., i].astype(np.uint64) << np.uint64(i)
        words = packed.astype({8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[bits])
        values = words.view(DTYPES[wide]) if wide != "i64" else packed.view(np.int64)
        bt = tensor_type(pattern.shape, "i1")
        wt = tensor_type(np.shape(values), wide)
        f = Func("test_bitcast_convert_i1_to_%s" % wide)
        x = f.input(pattern, "i1")
        r = f.op("stablehlo.bitcast_convert %s : (%s) -> %s" % (x, bt, wt))
        f.expect(r, np.asarray(values), wide)
        funcs.append(f.text())
        f = Func("test_bitcast_convert_%s_to_i1" % wide)
        x = f.input(np.asarray(values), wide)
        r = f.op("stablehlo.bitcast_convert %s : (%s) -> %s" % (x, wt, bt))
        f.expect(r, pattern, "i1")
        funcs.append(f.text())

    # Between element types of different widths: a wide element is the
    # parts along a last dimension of the width ratio, part 0 the least
    # significant (little-endian, numpy's view on x86 and Arm).
    wide_values = {
        "i32": np.array([0x01020304, -2, 258], np.int32),
        "f32": np.array([[1.0, -2.5], [3.0e-3, 65504.0]], np.float32),
        "f64": np.array([1.5, -3.25e10], np.float64),
        "i64": np.array(-0x0123456789ABCDF0, np.int64),
        "ui64": np.array([0xFEDCBA9876543210, 1], np.uint64),
    }
    for wide, narrow in (("i32", "i8"), ("f32", "ui16"), ("f32", "f16"), ("f64", "i32"),
                         ("f64", "f16"), ("i64", "ui8"), ("ui64", "f32"), ("i32", "ui16")):
        w = wide_values[wide]
        parts = w.reshape(w.shape + (1,)).view(DTYPES[narrow])
        assert not np.isnan(parts.astype(np.float64)).any()
        wt = tensor_type(w.shape, wide)
        pt = tensor_type(parts.shape, narrow)
        f = Func("test_bitcast_convert_%s_to_%s" % (wide, narrow))
        x = f.input(w, wide)
        r = f.op("stablehlo.bitcast_convert %s : (%s) -> %s" % (x, wt, pt))
        f.expect(r, parts, narrow)
        funcs.append(f.text())
        f = Func("test_bitcast_convert_%s_to_%s" % (narrow, wide))
        x = f.input(parts, narrow)
        r = f.op("stablehlo.bitcast_convert %s : (%s) -> %s" % (x, pt, wt))
        f.expect(r, w, wide)
        funcs.append(f.text())
    f = Func("fail_bitcast_convert_big_endian")
    x = f.input(np.array([0x01020304], np.int32), "i32")
    r = f.op("stablehlo.bitcast_convert %s : (tensor<1xi32>) -> tensor<1x4xi8>" % x)
    f.expect(r, np.array([[1, 2, 3, 4]], np.int8), "i8")
    funcs.append(f.text(comment="Part 0 is the least significant: [4, 3, 2, 1]."))

    f = Func("fail_convert_wrong_expectation")
    x = f.input(array([2.9], "f32"), "f32")
    r = f.op("stablehlo.convert %s : (tensor<1xf32>) -> tensor<1xi32>" % x)
    f.expect(r, array([3], "i32"), "i32")
    funcs.append(f.text(comment="Conversion truncates: 2.9 gives 2, not 3."))
    return funcs


#===----------------------------------------------------------------------===#
# Shapes: broadcast_in_dim, reshape, transpose, slice, dynamic slices,
# concatenate, pad, reverse, iota
#===----------------------------------------------------------------------===#

def arange(shape, elem, start=1):
    n = int(np.prod(shape))
    return array(np.arange(start, start + n).reshape(shape), elem)


def pad_ref(a, value, low, high, interior):
    for d in range(a.ndim):
        if interior[d]:
            n = a.shape[d]
            shape = list(a.shape)
            shape[d] = n + (n - 1) * interior[d] if n else 0
            out = np.full(shape, value, dtype=a.dtype)
            index = [slice(None)] * a.ndim
            index[d] = slice(0, None, interior[d] + 1)
            out[tuple(index)] = a
            a = out
    width = [(max(lo, 0), max(hi, 0)) for lo, hi in zip(low, high)]
    a = np.pad(a, width, constant_values=value)
    index = tuple(slice(-min(lo, 0), a.shape[d] + min(hi, 0))
                  for d, (lo, hi) in enumerate(zip(low, high)))
    return a[index]


def gen_shapes():
    funcs = []
    e = "f32"

    f = Func("test_broadcast_in_dim")
    a = arange((3,), e)
    x = f.input(a, e)
    r = f.op("stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<3xf32>) -> "
             "tensor<2x3xf32>" % x)
    f.expect(r, np.broadcast_to(a, (2, 3)), e)
    r = f.op("stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<3xf32>) -> "
             "tensor<3x2xf32>" % x)
    f.expect(r, np.broadcast_to(a[:, None], (3, 2)), e)
    s = f.input(array(2.5, e), e)
    r = f.op("stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> "
             "tensor<2x2xf32>" % s)
    f.expect(r, np.full((2, 2), 2.5, np.float32), e)
    b = arange((2, 1), "i32")
    y = f.input(b, "i32")
    r = f.op("stablehlo.broadcast_in_dim %s, dims = [0, 2] : (tensor<2x1xi32>) -> "
             "tensor<2x3x4xi32>" % y)
    f.expect(r, np.broadcast_to(b[:, None, :], (2, 3, 4)), "i32")
    r = f.op('"stablehlo.broadcast_in_dim"(%s) <{broadcast_dimensions = '
             'array<i64: 0, 1>}> : (tensor<2x1xi32>) -> tensor<2x3xi32>' % y)
    f.expect(r, np.broadcast_to(b, (2, 3)), "i32")
    funcs.append(f.text())

    f = Func("test_reshape")
    a = arange((2, 3), e)
    x = f.input(a, e)
    r = f.op("stablehlo.reshape %s : (tensor<2x3xf32>) -> tensor<3x2xf32>" % x)
    f.expect(r, a.reshape(3, 2), e)
    r = f.op("stablehlo.reshape %s : (tensor<2x3xf32>) -> tensor<6xf32>" % x)
    f.expect(r, a.reshape(6), e)
    b = arange((2, 3, 4), "i32")
    y = f.input(b, "i32")
    r = f.op("stablehlo.reshape %s : (tensor<2x3x4xi32>) -> tensor<4x1x6xi32>" % y)
    f.expect(r, b.reshape(4, 1, 6), "i32")
    s = f.input(array([7.0], e), e)
    r = f.op("stablehlo.reshape %s : (tensor<1xf32>) -> tensor<f32>" % s)
    f.expect(r, array(7.0, e), e)
    funcs.append(f.text())

    f = Func("test_transpose")
    a = arange((2, 3), e)
    x = f.input(a, e)
    r = f.op("stablehlo.transpose %s, dims = [1, 0] : (tensor<2x3xf32>) -> "
             "tensor<3x2xf32>" % x)
    f.expect(r, a.T, e)
    b = arange((2, 3, 4), "i32")
    y = f.input(b, "i32")
    r = f.op("stablehlo.transpose %s, dims = [2, 0, 1] : (tensor<2x3x4xi32>) -> "
             "tensor<4x2x3xi32>" % y)
    f.expect(r, np.transpose(b, (2, 0, 1)), "i32")
    r = f.op('"stablehlo.transpose"(%s) <{permutation = array<i64: 1, 2, 0>}> : '
             '(tensor<2x3x4xi32>) -> tensor<3x4x2xi32>' % y)
    f.expect(r, np.transpose(b, (1, 2, 0)), "i32")
    funcs.append(f.text())

    f = Func("test_slice")
    a = arange((4, 6), e)
    x = f.input(a, e)
    r = f.op("stablehlo.slice %s [1:3, 0:6:2] : (tensor<4x6xf32>) -> "
             "tensor<2x3xf32>" % x)
    f.expect(r, a[1:3, 0:6:2], e)
    r = f.op("stablehlo.slice %s [3:4, 1:5] : (tensor<4x6xf32>) -> "
             "tensor<1x4xf32>" % x)
    f.expect(r, a[3:4, 1:5], e)
    r = f.op('"stablehlo.slice"(%s) <{limit_indices = array<i64: 4, 6>, '
             'start_indices = array<i64: 0, 1>, strides = array<i64: 3, 4>}> : '
             '(tensor<4x6xf32>) -> tensor<2x2xf32>' % x)
    f.expect(r, a[0:4:3, 1:6:4], e)
    funcs.append(f.text())

    f = Func("test_dynamic_slice")
    a = arange((4, 5), e)
    x = f.input(a, e)
    for starts in ([1, 2], [3, -1], [0, 4]):
        i = f.input(array(starts[0], "i32"), "i32")
        j = f.input(array(starts[1], "i32"), "i32")
        r = f.op("stablehlo.dynamic_slice %s, %s, %s, sizes = [2, 3] : "
                 "(tensor<4x5xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>"
                 % (x, i, j))
        # Start indices are clamped so the slice stays in bounds.
        ci, cj = min(max(starts[0], 0), 2), min(max(starts[1], 0), 2)
        f.expect(r, a[ci:ci + 2, cj:cj + 3], e)
    funcs.append(f.text(comment="Start indices are clamped so the slice stays "
                        "inside the operand."))

    f = Func("test_dynamic_update_slice")
    a = arange((4, 5), "i32")
    u = array([[-1, -2], [-3, -4]], "i32")
    x, y = f.input(a, "i32"), f.input(u, "i32")
    for starts in ([1, 2], [5, -2]):
        i = f.input(array(starts[0], "i64"), "i64")
        j = f.input(array(starts[1], "i64"), "i64")
        r = f.op("stablehlo.dynamic_update_slice %s, %s, %s, %s : "
                 "(tensor<4x5xi32>, tensor<2x2xi32>, tensor<i64>, tensor<i64>) -> "
                 "tensor<4x5xi32>" % (x, y, i, j))
        ci, cj = min(max(starts[0], 0), 2), min(max(starts[1], 0), 3)
        expected = a.copy()
        expected[ci:ci + 2, cj:cj + 2] = u
        f.expect(r, expected, "i32")
    funcs.append(f.text())

    f = Func("test_concatenate")
    a, b, c = arange((2,), e), arange((3,), e, 10), arange((1,), e, 20)
    x, y, z = f.input(a, e), f.input(b, e), f.input(c, e)
    r = f.op("stablehlo.concatenate %s, %s, %s, dim = 0 : (tensor<2xf32>, "
             "tensor<3xf32>, tensor<1xf32>) -> tensor<6xf32>" % (x, y, z))
    f.expect(r, np.concatenate([a, b, c]), e)
    p, q = arange((2, 2), "i32"), arange((2, 3), "i32", 10)
    vp, vq = f.input(p, "i32"), f.input(q, "i32")
    r = f.op("stablehlo.concatenate %s, %s, dim = 1 : (tensor<2x2xi32>, "
             "tensor<2x3xi32>) -> tensor<2x5xi32>" % (vp, vq))
    f.expect(r, np.concatenate([p, q], axis=1), "i32")
    r = f.op('"stablehlo.concatenate"(%s, %s) <{dimension = 0 : i64}> : '
             '(tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<4x2xi32>' % (vp, vp))
    f.expect(r, np.concatenate([p, p], axis=0), "i32")
    funcs.append(f.text())

    f = Func("test_pad")
    a = arange((2, 3), e)
    x = f.input(a, e)
    v = f.input(array(-1.0, e), e)
    for low, high, interior in (([1, 0], [2, 1], [0, 0]),
                                ([0, 1], [0, 0], [1, 2]),
                                ([-1, 1], [0, -2], [0, 1])):
        expected = pad_ref(a, np.float32(-1.0), low, high, interior)
        rt = tensor_type(expected.shape, e)
        r = f.op("stablehlo.pad %s, %s, low = %s, high = %s, interior = %s : "
                 "(tensor<2x3xf32>, tensor<f32>) -> %s"
                 % (x, v, low, high, interior, rt))
        f.expect(r, expected, e)
    funcs.append(f.text(comment="Edge padding, interior padding, and negative "
                        "padding that removes elements."))

    f = Func("test_reverse")
    a = arange((2, 3), e)
    x = f.input(a, e)
    r = f.op("stablehlo.reverse %s, dims = [1] : tensor<2x3xf32>" % x)
    f.expect(r, a[:, ::-1], e)
    r = f.op("stablehlo.reverse %s, dims = [0, 1] : tensor<2x3xf32>" % x)
    f.expect(r, a[::-1, ::-1], e)
    funcs.append(f.text())

    f = Func("test_iota")
    r = f.op("stablehlo.iota dim = 0 : tensor<5xi32>")
    f.expect(r, array(np.arange(5), "i32"), "i32")
    r = f.op("stablehlo.iota dim = 1 : tensor<2x3xf32>")
    f.expect(r, array(np.broadcast_to(np.arange(3), (2, 3)), e), e)
    r = f.op('"stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> '
             'tensor<3x2xui8>')
    f.expect(r, array(np.broadcast_to(np.arange(3)[:, None], (3, 2)), "ui8"), "ui8")
    funcs.append(f.text())

    f = Func("fail_transpose_wrong_expectation")
    a = arange((2, 2), e)
    x = f.input(a, e)
    r = f.op("stablehlo.transpose %s, dims = [1, 0] : (tensor<2x2xf32>) -> "
             "tensor<2x2xf32>" % x)
    f.expect(r, a, e)
    funcs.append(f.text(comment="A transpose is not the identity: the check "
                        "must fail."))
    return funcs


#===----------------------------------------------------------------------===#
# dot and dot_general
#===----------------------------------------------------------------------===#

def dot_general_ref(a, b, lb, rb, lc, rc):
    la = [d for d in range(a.ndim) if d not in lb + lc]
    ra = [d for d in range(b.ndim) if d not in rb + rc]
    at = np.transpose(a, lb + la + lc).astype(np.float64)
    bt = np.transpose(b, rb + ra + rc).astype(np.float64)
    nb, nc = len(lb), len(lc)
    bshape = at.shape[:nb]
    m = int(np.prod(at.shape[nb:at.ndim - nc]))
    n = int(np.prod(bt.shape[nb:bt.ndim - nc]))
    k = int(np.prod(at.shape[at.ndim - nc:]))
    out = np.matmul(at.reshape(bshape + (m, k)),
                    np.swapaxes(bt.reshape(bshape + (n, k)), -1, -2))
    return out.reshape(bshape + at.shape[nb:at.ndim - nc]
                       + bt.shape[nb:bt.ndim - nc])


def ragged_dot_ref(a, b, sizes, lb, rb, lc, rc, ragged, group):
    """chlo.ragged_dot by its definition, one group at a time."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    sizes = np.asarray(sizes, dtype=np.int64)
    g = sizes.shape[-1]
    if ragged in lb:
        return dot_general_ref(a64, b64, lb, rb, lc, rc)
    if ragged in lc:
        # Leading group dim; group j contracts only over its range of the
        # ragged dim.
        parts = []
        for j in range(g):
            masked = np.zeros_like(a64)
            lead = sizes.shape[:-1]
            for index in np.ndindex(*lead) if lead else [()]:
                ends = np.cumsum(sizes[index])
                lo, hi = ends[j] - sizes[index][j], ends[j]
                sel = [slice(None)] * a.ndim
                for i, d in enumerate(lb[:len(index)]):
                    sel[d] = index[i]
                sub = a64[tuple(sel)]
                keep = np.zeros(a.shape[ragged], bool)
                keep[lo:hi] = True
                shape = [1] * sub.ndim
                # the ragged dim's position once the indexed dims are gone
                pos = ragged - sum(1 for d in lb[:len(index)] if d < ragged)
                shape[pos] = -1
                masked[tuple(sel)] = sub * keep.reshape(shape)
            parts.append(dot_general_ref(masked, b64, lb, rb, lc, rc))
        return np.stack(parts)
    # Non-contracting ragged dim: rows of group j use rhs[j]; rows past the
    # last group are zero.
    lfree = [d for d in range(a.ndim) if d not in lb + lc]
    out = None
    for j in range(g):
        bj = np.take(b64, j, axis=group)
        rb_j = [d - (d > group) for d in rb]
        rc_j = [d - (d > group) for d in rc]
        full = dot_general_ref(a64, bj, lb, rb_j, lc, rc_j)
        mask = np.zeros(a.shape, bool)
        lead = sizes.shape[:-1]
        for index in np.ndindex(*lead) if lead else [()]:
            ends = np.cumsum(sizes[index])
            lo, hi = ends[j] - sizes[index][j], ends[j]
            sel = (list(index) if lead else [slice(None)] * ragged) + [slice(lo, hi)]
            mask[tuple(sel)] = True
        # The mask of the lhs's rows, on the result's layout: a row is kept
        # where the lhs element at the same batch and free indices is.
        m = np.transpose(mask, lb + lfree + lc)
        m = m.reshape(m.shape[:len(lb) + len(lfree)] + (-1,))[..., 0]
        m = m.reshape(m.shape + (1,) * (full.ndim - m.ndim))
        out = full * m if out is None else out + full * m
    return out


def gen_ragged_dot(ints):
    """chlo.ragged_dot in its three modes, as jax.lax.ragged_dot_general
    exports it (generic form with #chlo.ragged_dot<...>)."""
    funcs = []
    cases = [
        # name, lhs, rhs, sizes, lb, rb, lc, rc, ragged, group, comment
        ("ragged_dot_rows", (7, 3), (3, 3, 4), [2, 0, 4], [], [], [1], [1], 0, 0,
         "Mixture-of-experts form: rows 0-1 use rhs[0], none rhs[1], 2-5 "
         "rhs[2], and row 6 (past the groups) is zero."),
        ("ragged_dot_rows_lead", (2, 5, 3), (2, 3, 4), [[1, 4], [3, 2]], [], [],
         [2], [1], 1, 0,
         "Sizes per entry of the lhs dim before the ragged one (as XLA's "
         "19x11x5 with 19x3 sizes)."),
        ("ragged_dot_rows_batched", (2, 6, 3), (3, 2, 3, 2), [[2, 2, 2], [6, 0, 0]],
         [0], [1], [2], [2], 1, 0,
         "A batch dim, sizes per batch entry; the group dim before the rhs's "
         "batch dim."),
        ("ragged_dot_contracting", (3, 6), (6, 2), [1, 3, 2], [], [], [1], [0], 1,
         None,
         "Ragged contracting dim: one result per group, each a product over "
         "its range of the 6."),
        ("ragged_dot_contracting_batched", (2, 3, 5), (2, 5, 4), [[2, 3], [5, 0]],
         [0], [0], [2], [1], 2, None,
         "Ragged contracting dim with a batch dim, sizes per batch entry."),
        ("ragged_dot_batch", (4, 2, 3), (4, 3, 2), [1, 3], [0], [0], [2], [1], 0,
         None, "Ragged batch dim: the groups split independent entries."),
    ]
    for (name, ls, rs, sizes, lb, rb, lc, rc, ragged, group, comment) in cases:
        for elem in ("f32", "i32"):
            f = Func("test_%s_%s" % (name, elem))
            a, b = ints(ls, elem), ints(rs, elem)
            gs = np.asarray(sizes, dtype=np.int64)
            x, y = f.input(a, elem), f.input(b, elem)
            z = f.input(gs, "i64")
            expected = array(ragged_dot_ref(a, b, gs, lb, rb, lc, rc, ragged,
                                            group), elem)
            rt = tensor_type(expected.shape, elem)
            numbers = ("#chlo.ragged_dot<lhs_batching_dimensions = %s, "
                       "rhs_batching_dimensions = %s, lhs_contracting_dimensions "
                       "= %s, rhs_contracting_dimensions = %s, "
                       "lhs_ragged_dimensions = [%d], rhs_group_dimensions = %s>"
                       % (lb, rb, lc, rc, ragged,
                          "[]" if group is None else "[%d]" % group))
            r = f.op('"chlo.ragged_dot"(%s, %s, %s) <{precision_config = '
                     '[#chlo<precision DEFAULT>, #chlo<precision DEFAULT>], '
                     'ragged_dot_dimension_numbers = %s}> : (%s, %s, %s) -> %s'
                     % (x, y, z, numbers, t(a, elem), t(b, elem), t(gs, "i64"), rt))
            f.expect(r, expected, elem)
            funcs.append(f.text(comment=comment if elem == "f32" else None))
    f = Func("fail_ragged_dot_wrong_group")
    a, b = ints((4, 2)), ints((2, 2, 3))
    gs = np.asarray([1, 3], dtype=np.int64)
    x, y, z = f.input(a, "f32"), f.input(b, "f32"), f.input(gs, "i64")
    wrong = array(ragged_dot_ref(a, b, np.asarray([3, 1]), [], [], [1], [1], 0, 0),
                  "f32")
    r = f.op('"chlo.ragged_dot"(%s, %s, %s) <{ragged_dot_dimension_numbers = '
             '#chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions '
             '= [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], '
             'lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : '
             '(tensor<4x2xf32>, tensor<2x2x3xf32>, tensor<2xi64>) -> tensor<4x3xf32>'
             % (x, y, z))
    f.expect(r, wrong, "f32")
    funcs.append(f.text(comment="Expects the groups of sizes [3, 1] where the "
                        "op has [1, 3]: the check must fail."))
    return funcs


def gen_dot():
    funcs = []
    rng = np.random.default_rng(3)

    def ints(shape, elem="f32"):
        # Small integers: every sum is exact, so checks need no tolerance.
        return array(rng.integers(-4, 5, shape), elem)

    cases = [
        # name, lhs shape, rhs shape, lb, rb, lc, rc, elem, pretty dot?
        ("matmul", (2, 3), (3, 4), [], [], [1], [0], "f32", True),
        ("matvec", (3, 4), (4,), [], [], [1], [0], "f32", True),
        ("vecvec", (5,), (5,), [], [], [0], [0], "f32", True),
        ("matmul_i32", (3, 5), (5, 2), [], [], [1], [0], "i32", True),
        ("dot_general_matmul", (4, 8), (8, 3), [], [], [1], [0], "f32", False),
        ("dot_general_batch", (2, 3, 4), (2, 4, 5), [0], [0], [2], [1], "f32",
         False),
        ("dot_general_lhs_transposed", (3, 2), (3, 4), [], [], [0], [0], "f32",
         False),
        ("dot_general_rhs_transposed", (2, 3), (4, 3), [], [], [1], [1], "f32",
         False),
        ("dot_general_batch_last", (4, 3, 2), (3, 5, 2), [2], [2], [1], [0],
         "f32", False),
        ("dot_general_two_contracting", (2, 3, 4), (3, 4, 5), [], [], [1, 2],
         [0, 1], "f32", False),
        ("dot_general_i64", (2, 3), (3, 2), [], [], [1], [0], "i64", False),
    ]
    for name, ls, rs, lb, rb, lc, rc, elem, pretty in cases:
        f = Func("test_%s" % name)
        a, b = ints(ls, elem), ints(rs, elem)
        x, y = f.input(a, elem), f.input(b, elem)
        expected = array(dot_general_ref(a, b, lb, rb, lc, rc), elem)
        rt = tensor_type(expected.shape, elem)
        types = "(%s, %s) -> %s" % (t(a, elem), t(b, elem), rt)
        if pretty:
            r = f.op("stablehlo.dot %s, %s : %s" % (x, y, types))
        else:
            dims = ""
            if lb:
                dims += "batching_dims = %s x %s, " % (lb, rb)
            dims += "contracting_dims = %s x %s" % (lc, rc)
            r = f.op("stablehlo.dot_general %s, %s, %s, precision = [DEFAULT, "
                     "DEFAULT] : %s" % (x, y, dims, types))
        f.expect(r, expected, elem)
        funcs.append(f.text())

    f = Func("test_dot_general_generic_form")
    a, b = ints((2, 3, 4)), ints((2, 4, 3))
    x, y = f.input(a, "f32"), f.input(b, "f32")
    r = f.op('"stablehlo.dot_general"(%s, %s) <{dot_dimension_numbers = '
             '#stablehlo.dot<lhs_batching_dimensions = [0], '
             'rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], '
             'rhs_contracting_dimensions = [1]>, precision_config = '
             '[#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : '
             '(tensor<2x3x4xf32>, tensor<2x4x3xf32>) -> tensor<2x3x3xf32>' % (x, y))
    f.expect(r, array(dot_general_ref(a, b, [0], [0], [2], [1]), "f32"), "f32")
    funcs.append(f.text())

    f = Func("test_dot_random_f32")
    a = array(rng.uniform(-1, 1, (17, 33)), "f32")
    b = array(rng.uniform(-1, 1, (33, 9)), "f32")
    x, y = f.input(a, "f32"), f.input(b, "f32")
    r = f.op("stablehlo.dot_general %s, %s, contracting_dims = [1] x [0] : "
             "(tensor<17x33xf32>, tensor<33x9xf32>) -> tensor<17x9xf32>" % (x, y))
    f.expect(r, array(a.astype(np.float64) @ b, "f32"), "f32", 1e-5, 1e-5)
    funcs.append(f.text(comment="Odd sizes that do not fill a vector or a "
                        "tile."))

    f = Func("test_dot_f16_accumulate_f32")
    a, b = ints((2, 3), "f16"), ints((3, 2), "f16")
    x, y = f.input(a, "f16"), f.input(b, "f16")
    r = f.op("stablehlo.dot_general %s, %s, contracting_dims = [1] x [0] : "
             "(tensor<2x3xf16>, tensor<3x2xf16>) -> tensor<2x2xf32>" % (x, y))
    f.expect(r, array(a.astype(np.float64) @ b, "f32"), "f32")
    funcs.append(f.text(comment="f16 operands with an f32 result, as "
                        "preferred_element_type=jnp.float32 exports."))

    funcs += gen_ragged_dot(ints)

    f = Func("fail_dot_wrong_expectation")
    a, b = array([[1.0, 2.0]], "f32"), array([[3.0], [4.0]], "f32")
    x, y = f.input(a, "f32"), f.input(b, "f32")
    r = f.op("stablehlo.dot %s, %s : (tensor<1x2xf32>, tensor<2x1xf32>) -> "
             "tensor<1x1xf32>" % (x, y))
    f.expect(r, array([[10.0]], "f32"), "f32")
    funcs.append(f.text(comment="1*3 + 2*4 is 11: the check must fail."))
    return funcs


#===----------------------------------------------------------------------===#
# Convolution
#===----------------------------------------------------------------------===#

def conv_ref(x, w, stride, pad, lhs_dil, rhs_dil, groups):
    """NHWC input, HWIO kernel (I = input features per group)."""
    n, h, wd, c = x.shape
    kh, kw, ci, co = w.shape
    x = x.astype(np.float64)
    if lhs_dil != [1, 1]:
        dh, dw = lhs_dil
        d = np.zeros((n, (h - 1) * dh + 1, (wd - 1) * dw + 1, c))
        d[:, ::dh, ::dw, :] = x
        x = d
    x = np.pad(x, [(0, 0), tuple(pad[0]), tuple(pad[1]), (0, 0)])
    ekh, ekw = (kh - 1) * rhs_dil[0] + 1, (kw - 1) * rhs_dil[1] + 1
    oh = (x.shape[1] - ekh) // stride[0] + 1
    ow = (x.shape[2] - ekw) // stride[1] + 1
    out = np.zeros((n, oh, ow, co))
    per_group = co // groups
    for o in range(co):
        g = o // per_group
        for i in range(oh):
            for j in range(ow):
                patch = x[:, i * stride[0]:i * stride[0] + ekh:rhs_dil[0],
                          j * stride[1]:j * stride[1] + ekw:rhs_dil[1],
                          g * ci:(g + 1) * ci]
                out[:, i, j, o] = np.tensordot(patch, w[:, :, :, o],
                                               axes=([1, 2, 3], [0, 1, 2]))
    return out


def window_text(stride, pad, lhs_dil, rhs_dil):
    parts = []
    if stride != [1, 1]:
        parts.append("stride = %s" % stride)
    parts.append("pad = [%s, %s]" % (list(pad[0]), list(pad[1])))
    if lhs_dil != [1, 1]:
        parts.append("lhs_dilate = %s" % lhs_dil)
    parts.append("rhs_dilate = %s" % rhs_dil)
    return "{" + ", ".join(parts) + "}"


CONV_NHWC_HWIO = "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"


def conv_func(name, x, w, elem, window, expected, dims=CONV_NHWC_HWIO,
              groups=1, extra_attrs="", tol=(), comment=None):
    """A test of one pretty-form stablehlo.convolution of x and w (already
    drawn by the caller, so the rng order is the caller's) against
    expected."""
    f = Func(name)
    vx, vw = f.input(x, elem), f.input(w, elem)
    r = f.op("stablehlo.convolution(%s, %s) dim_numbers = %s, window = %s "
             "{batch_group_count = 1 : i64, feature_group_count = %d : i64%s} "
             ": (%s, %s) -> %s"
             % (vx, vw, dims, window, groups, extra_attrs, t(x, elem),
                t(w, elem), t(expected, elem)))
    f.expect(r, expected, elem, *tol)
    return f.text(comment=comment)


def gen_convolution():
    funcs = []
    rng = np.random.default_rng(4)
    cases = [
        # name, input NHWC, kernel HWIO, stride, pad, lhs_dil, rhs_dil, groups
        ("same_3x3", (1, 4, 4, 1), (3, 3, 1, 2), [1, 1], [[1, 1], [1, 1]],
         [1, 1], [1, 1], 1),
        ("valid_stride_2", (1, 5, 5, 2), (3, 3, 2, 3), [2, 2], [[0, 0], [0, 0]],
         [1, 1], [1, 1], 1),
        ("batch_2_asymmetric_pad", (2, 4, 3, 2), (2, 2, 2, 2), [1, 1],
         [[0, 1], [1, 0]], [1, 1], [1, 1], 1),
        ("lhs_dilation", (1, 3, 3, 1), (2, 2, 1, 1), [1, 1], [[1, 1], [1, 1]],
         [2, 2], [1, 1], 1),
        ("rhs_dilation", (1, 5, 5, 1), (2, 2, 1, 2), [1, 1], [[0, 0], [0, 0]],
         [1, 1], [2, 2], 1),
        ("depthwise", (1, 4, 4, 3), (3, 3, 1, 3), [1, 1], [[1, 1], [1, 1]],
         [1, 1], [1, 1], 3),
        ("grouped", (1, 3, 3, 4), (1, 1, 2, 4), [1, 1], [[0, 0], [0, 0]],
         [1, 1], [1, 1], 2),
        ("many_channels", (1, 6, 6, 8), (3, 3, 8, 16), [1, 1], [[1, 1], [1, 1]],
         [1, 1], [1, 1], 1),
        ("depthwise_multiplier", (1, 5, 5, 3), (3, 3, 1, 6), [1, 1],
         [[1, 1], [1, 1]], [1, 1], [1, 1], 3),
        ("stride_and_rhs_dilation", (2, 9, 8, 3), (3, 2, 3, 4), [2, 3],
         [[2, 1], [0, 2]], [1, 1], [2, 1], 1),
        ("lhs_dilation_and_stride", (1, 4, 3, 2), (3, 3, 2, 2), [2, 1],
         [[2, 2], [1, 1]], [2, 3], [1, 1], 1),
        ("1x1", (2, 3, 4, 5), (1, 1, 5, 7), [1, 1], [[0, 0], [0, 0]], [1, 1],
         [1, 1], 1),
    ]
    for name, xs, ws, stride, pad, lhs_dil, rhs_dil, groups in cases:
        x = array(rng.integers(-3, 4, xs), "f32")
        w = array(rng.integers(-2, 3, ws), "f32")
        expected = array(conv_ref(x, w, stride, pad, lhs_dil, rhs_dil, groups),
                         "f32")
        funcs.append(conv_func("test_conv_nhwc_%s" % name, x, w, "f32",
                               window_text(stride, pad, lhs_dil, rhs_dil),
                               expected, groups=groups))

    # NCHW input, OIHW kernel (as PyTorch-style exports lay them out).
    x = array(rng.integers(-3, 4, (2, 2, 5, 4)), "f32")  # N C H W
    w = array(rng.integers(-2, 3, (3, 2, 3, 2)), "f32")  # O I H W
    ref = conv_ref(np.transpose(x, (0, 2, 3, 1)), np.transpose(w, (2, 3, 1, 0)),
                   [2, 1], [[1, 1], [0, 1]], [1, 1], [1, 1], 1)
    funcs.append(conv_func(
        "test_conv_nchw_oihw", x, w, "f32",
        "{stride = [2, 1], pad = [[1, 1], [0, 1]], rhs_dilate = [1, 1]}",
        array(np.transpose(ref, (0, 3, 1, 2)), "f32"),
        dims="[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]",
        extra_attrs=", precision_config = [#stablehlo<precision DEFAULT>, "
        "#stablehlo<precision DEFAULT>]"))

    f = Func("test_conv_generic_form")
    x = array(rng.integers(-3, 4, (1, 4, 4, 2)), "f32")
    w = array(rng.integers(-2, 3, (2, 2, 2, 3)), "f32")
    vx, vw = f.input(x, "f32"), f.input(w, "f32")
    expected = array(conv_ref(x, w, [2, 2], [[0, 0], [0, 0]], [1, 1], [1, 1], 1),
                     "f32")
    r = f.op('"stablehlo.convolution"(%s, %s) <{batch_group_count = 1 : i64, '
             'dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->'
             '[b, 0, 1, f]>, feature_group_count = 1 : i64, window_strides = '
             'array<i64: 2, 2>}> : (%s, %s) -> %s'
             % (vx, vw, t(x, "f32"), t(w, "f32"), t(expected, "f32")))
    f.expect(r, expected, "f32")
    funcs.append(f.text())

    # dynamic_conv in its pretty form: the padding is its third operand (a
    # constant), the window has no pad. Its own rng keeps the draws above.
    drng = np.random.default_rng(41)
    f = Func("test_dynamic_conv_pretty_form")
    x = array(drng.integers(-3, 4, (1, 4, 5, 2)), "f32")
    w = array(drng.integers(-2, 3, (3, 2, 2, 3)), "f32")
    vx, vw = f.input(x, "f32"), f.input(w, "f32")
    pad = [[2, 0], [1, 1]]
    expected = array(conv_ref(x, w, [2, 1], pad, [1, 1], [1, 1], 1), "f32")
    vp = f.op("stablehlo.constant %s : tensor<2x2xi64>"
              % dense(np.array(pad, dtype=np.int64), "i64"))
    r = f.op("stablehlo.dynamic_conv(%s, %s, %s) dim_numbers = %s, window = "
             "{stride = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = "
             "1 : i64} : (%s, %s, tensor<2x2xi64>) -> %s"
             % (vx, vw, vp, CONV_NHWC_HWIO, t(x, "f32"), t(w, "f32"),
                t(expected, "f32")))
    f.expect(r, expected, "f32")
    funcs.append(f.text(comment="dynamic_conv(%x, %w, %padding) in the pretty form."))

    # Same padding: small integers (every f16 sum is exact), then random f32
    # values. Each row draws x, then w.
    same_pad = [[1, 1], [1, 1]]
    for name, elem, draw_x, draw_w, tol, comment in [
            ("test_conv_f16", "f16",
             lambda: rng.integers(-3, 4, (1, 5, 5, 2)),
             lambda: rng.integers(-2, 3, (3, 3, 2, 4)), (),
             "Small integers: every f16 sum is exact."),
            ("test_conv_random_f32", "f32",
             lambda: rng.uniform(-1, 1, (1, 7, 7, 5)),
             lambda: rng.uniform(-1, 1, (3, 3, 5, 6)), (1e-5, 1e-5), None)]:
        x = array(draw_x(), elem)
        w = array(draw_w(), elem)
        expected = array(conv_ref(x, w, [1, 1], same_pad, [1, 1], [1, 1], 1),
                         elem)
        funcs.append(conv_func(name, x, w, elem, "{pad = [[1, 1], [1, 1]]}",
                               expected, tol=tol, comment=comment))

    x = array(np.ones((1, 2, 2, 1)), "f32")
    w = array(np.ones((2, 2, 1, 1)), "f32")
    funcs.append(conv_func(
        "fail_conv_wrong_expectation", x, w, "f32", "{stride = [1, 1]}",
        array(np.full((1, 1, 1, 1), 5.0), "f32"),
        comment="Four ones sum to 4, not 5: the check must fail."))
    return funcs


#===----------------------------------------------------------------------===#
# reduce and reduce_window
#===----------------------------------------------------------------------===#

def reduce_window_ref(x, init, fn, window, strides, pad):
    x = np.pad(x.astype(np.float64), pad, constant_values=init)
    out_shape = [(x.shape[d] - window[d]) // strides[d] + 1 for d in range(x.ndim)]
    out = np.zeros(out_shape)
    for index in np.ndindex(*out_shape):
        sl = tuple(slice(i * s, i * s + w) for i, s, w in zip(index, strides, window))
        out[index] = fn(x[sl])
    return out


def region(args, body_lines, indent="    "):
    """A region ^bb0(...) with stablehlo ops, as generic forms print it."""
    lines = ["^bb0(%s):" % ", ".join("%s: %s" % a for a in args)]
    lines += ["  " + line for line in body_lines]
    return "\n".join(indent + line for line in lines)


def binary_body(op, elem, lhs="%arg1", rhs="%arg2"):
    """The region of a reduce, reduce_window or scatter that applies one
    binary op."""
    return region([(lhs, "tensor<%s>" % elem), (rhs, "tensor<%s>" % elem)],
                  ["%%100 = stablehlo.%s %s, %s : tensor<%s>" % (op, lhs, rhs, elem),
                   "stablehlo.return %%100 : tensor<%s>" % elem])


def select_and_scatter_ref(x, source, init, window, strides, pad, select):
    """XLA's select_and_scatter with an add scatter: in each window (row
    major) the first element inside the operand starts the pick, a later
    one replaces it where select(pick, candidate) is false; the window's
    source element is added at its pick."""
    x = np.asarray(x, np.float64)
    out = np.full(x.shape, init, np.float64)
    for w_index in np.ndindex(*np.asarray(source).shape):
        pick = None
        for offset in np.ndindex(*window):
            pos = tuple(i * s + o - lo for i, s, o, (lo, _) in
                        zip(w_index, strides, offset, pad))
            if any(p < 0 or p >= n for p, n in zip(pos, x.shape)):
                continue
            if pick is None or not select(x[pick], x[pos]):
                pick = pos
        if pick is not None:
            out[pick] += np.asarray(source, np.float64)[w_index]
    return out


def select_and_scatter_text(f, x, source, init, shape, source_shape, window,
                            strides, pad, direction, elem="f32"):
    t = "tensor<%s>" % elem
    select = region([("%arg1", t), ("%arg2", t)],
                    ["%%100 = stablehlo.compare %s, %%arg1, %%arg2 : (%s, %s) -> "
                     "tensor<i1>" % (direction, t, t),
                     "stablehlo.return %100 : tensor<i1>"])
    scatter = binary_body("add", elem)
    padding = ""
    if any(p != (0, 0) for p in pad):
        padding = ("padding = dense<[%s]> : tensor<%dx2xi64>, "
                   % (", ".join("[%d, %d]" % p for p in pad), len(pad)))
    operand_type = "tensor<%sx%s>" % ("x".join(map(str, shape)), elem)
    source_type = "tensor<%sx%s>" % ("x".join(map(str, source_shape)), elem)
    return f.op('"stablehlo.select_and_scatter"(%s, %s, %s) <{%swindow_dimensions = '
                'array<i64: %s>, window_strides = array<i64: %s>}> ({\n%s\n    }, {\n%s\n'
                '    }) : (%s, %s, %s) -> %s'
                % (x, source, init, padding, ", ".join(map(str, window)),
                   ", ".join(map(str, strides)), select, scatter, operand_type,
                   source_type, t, operand_type))


def gen_select_and_scatter(rng):
    """Max-pool gradients as jax.grad of flax max_pool exports them, and the
    corners of the spec: padding, overlapping windows, ties (GE picks the
    first, GT the last), windows of padding alone."""
    funcs = []
    cases = [
        # name, operand shape, window, strides, padding, direction, values
        # (i32_* cases in i32, the rest in f32)
        ("2x2_stride2", (1, 4, 4, 1), (1, 2, 2, 1), (1, 2, 2, 1), [(0, 0)] * 4, "GE",
         None),
        ("3x3_stride2_padded", (1, 5, 6, 2), (1, 3, 3, 1), (1, 2, 2, 1),
         [(0, 0), (1, 1), (1, 1), (0, 0)], "GE", None),
        ("overlapping", (2, 5, 5), (1, 3, 3), (1, 1, 1), [(0, 0)] * 3, "GE", None),
        ("ties_ge", (4, 6), (2, 3), (1, 2), [(0, 0), (0, 1)], "GE", "ties"),
        ("ties_gt", (4, 6), (2, 3), (1, 2), [(0, 0), (0, 1)], "GT", "ties"),
        ("min_le", (6, 5), (3, 2), (2, 2), [(1, 0), (0, 1)], "LE", None),
        ("padding_alone", (5,), (2,), (2,), [(0, 3)], "GE", None),
        ("i32_ge", (4, 6), (2, 2), (2, 2), [(0, 0)] * 2, "GE", "ties"),
    ]
    ops = {"GE": np.greater_equal, "GT": np.greater, "LE": np.less_equal}
    for name, shape, window, strides, pad, direction, values in cases:
        f = Func("test_select_and_scatter_%s" % name)
        e = "i32" if name.startswith("i32") else "f32"
        if values == "ties":
            a = array(rng.integers(0, 2, shape), e)
        else:
            a = array(rng.permutation(np.prod(shape)).reshape(shape) - 7, e)
        source_shape = [(n + lo + hi - w) // s + 1
                        for n, w, s, (lo, hi) in zip(shape, window, strides, pad)]
        src = array(rng.integers(1, 9, source_shape), e)
        x = f.input(a, e)
        s = f.input(src, e)
        init_value = 0.5 if e == "f32" else 1
        init = f.op("stablehlo.constant dense<%s> : tensor<%s>" % (init_value, e))
        r = select_and_scatter_text(f, x, s, init, shape, source_shape, window,
                                    strides, pad, direction, e)
        select = ops[direction]
        expected = array(select_and_scatter_ref(a, src, init_value, window, strides, pad,
                                                lambda p, q: select(p, q)), e)
        if e == "f32":
            f.expect(r, expected, e, 0.0, 0.0)
        else:
            f.expect(r, expected, e)
        funcs.append(f.text())
    return funcs


def gen_reduce():
    funcs = []
    rng = np.random.default_rng(5)
    e = "f32"

    f = Func("test_reduce_sum")
    a = array(rng.integers(-5, 6, (2, 3)), e)
    x = f.input(a, e)
    init = f.op("stablehlo.constant dense<0.000000e+00> : tensor<f32>")
    r = f.op("stablehlo.reduce(%s init: %s) applies stablehlo.add across "
             "dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>"
             % (x, init))
    f.expect(r, a.sum(axis=1), e)
    r = f.op("stablehlo.reduce(%s init: %s) applies stablehlo.add across "
             "dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>"
             % (x, init))
    f.expect(r, array(a.sum(), e), e)
    funcs.append(f.text())

    f = Func("test_reduce_max")
    a = array(rng.uniform(-10, 10, (3, 4, 2)), e)
    x = f.input(a, e)
    init = f.op("stablehlo.constant dense<0xFF800000> : tensor<f32>")
    r = f.op("stablehlo.reduce(%s init: %s) applies stablehlo.maximum across "
             "dimensions = [1] : (tensor<3x4x2xf32>, tensor<f32>) -> tensor<3x2xf32>"
             % (x, init))
    f.expect(r, a.max(axis=1), e)
    funcs.append(f.text())

    f = Func("test_reduce_sum_i32")
    a = array(rng.integers(-100, 100, (2, 3, 4)), "i32")
    x = f.input(a, "i32")
    init = f.op("stablehlo.constant dense<0> : tensor<i32>")
    r = f.op("stablehlo.reduce(%s init: %s) applies stablehlo.add across "
             "dimensions = [0, 2] : (tensor<2x3x4xi32>, tensor<i32>) -> "
             "tensor<3xi32>" % (x, init))
    f.expect(r, array(a.sum(axis=(0, 2)), "i32"), "i32")
    funcs.append(f.text())

    f = Func("test_reduce_product_reducer_form")
    a = array(rng.integers(1, 4, (3, 4)), e)
    x = f.input(a, e)
    init = f.op("stablehlo.constant dense<1.000000e+00> : tensor<f32>")
    r = f.op("stablehlo.reduce(%s init: %s) across dimensions = [0] : "
             "(tensor<3x4xf32>, tensor<f32>) -> tensor<4xf32>" % (x, init))
    f.line(" reducer(%arg1: tensor<f32>, %arg2: tensor<f32>)  {")
    f.line("  %100 = stablehlo.multiply %arg1, %arg2 : tensor<f32>")
    f.line("  stablehlo.return %100 : tensor<f32>")
    f.line("}")
    f.expect(r, a.prod(axis=0), e)
    funcs.append(f.text())

    f = Func("test_reduce_generic_form")
    a = array(rng.integers(-5, 6, (4, 3)), e)
    x = f.input(a, e)
    init = f.op("stablehlo.constant dense<0x7F800000> : tensor<f32>")
    r = f.op('"stablehlo.reduce"(%s, %s) <{dimensions = array<i64: 1>}> ({\n%s\n'
             '    }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>'
             % (x, init, binary_body("minimum", "f32")))
    f.expect(r, a.min(axis=1), e)
    funcs.append(f.text())

    # jnp.argmax(x, axis=1), as JAX exports it.
    f = Func("test_reduce_argmax")
    a = array(rng.uniform(-10, 10, (3, 5)), e)
    a[1, 2] = a[1, 4] = 20.0  # a tie: the lower index wins
    x = f.input(a, e)
    iota = f.op("stablehlo.iota dim = 1 : tensor<3x5xi32>")
    cst = f.op("stablehlo.constant dense<0xFF800000> : tensor<f32>")
    c = f.op("stablehlo.constant dense<0> : tensor<i32>")
    r = f.op("stablehlo.reduce(%s init: %s), (%s init: %s) across dimensions = [1] : "
             "(tensor<3x5xf32>, tensor<3x5xi32>, tensor<f32>, tensor<i32>) -> "
             "(tensor<3xf32>, tensor<3xi32>)" % (x, cst, iota, c), count=2)
    body = [
        " reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, "
        "%arg4: tensor<i32>)  {",
        "  %100 = stablehlo.compare  GT, %arg1, %arg3,  FLOAT : (tensor<f32>, "
        "tensor<f32>) -> tensor<i1>",
        "  %101 = stablehlo.compare  NE, %arg1, %arg1,  FLOAT : (tensor<f32>, "
        "tensor<f32>) -> tensor<i1>",
        "  %102 = stablehlo.or %100, %101 : tensor<i1>",
        "  %103 = stablehlo.compare  EQ, %arg1, %arg3,  FLOAT : (tensor<f32>, "
        "tensor<f32>) -> tensor<i1>",
        "  %104 = stablehlo.compare  LT, %arg2, %arg4,  SIGNED : (tensor<i32>, "
        "tensor<i32>) -> tensor<i1>",
        "  %105 = stablehlo.and %103, %104 : tensor<i1>",
        "  %106 = stablehlo.or %102, %105 : tensor<i1>",
        "  %107 = stablehlo.select %102, %arg1, %arg3 : tensor<i1>, tensor<f32>",
        "  %108 = stablehlo.select %106, %arg2, %arg4 : tensor<i1>, tensor<i32>",
        "  stablehlo.return %107, %108 : tensor<f32>, tensor<i32>",
        "}",
    ]
    for line in body:
        f.line(line)
    f.expect("%s#1" % r, array(a.argmax(axis=1), "i32"), "i32")
    f.expect("%s#0" % r, a.max(axis=1), e)
    funcs.append(f.text(comment="jnp.argmax(x, axis=1): a two-operand reduce "
                        "of (value, index)."))

    # Pooling, as flax.linen.max_pool / avg_pool export it.
    f = Func("test_reduce_window_max_pool")
    a = array(rng.integers(-9, 10, (1, 4, 4, 1)), e)
    x = f.input(a, e)
    cst = f.op("stablehlo.constant dense<0xFF800000> : tensor<f32>")
    body = binary_body("maximum", "f32")
    r = f.op('"stablehlo.reduce_window"(%s, %s) <{window_dimensions = array<i64: '
             '1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({\n%s\n    }) : '
             '(tensor<1x4x4x1xf32>, tensor<f32>) -> tensor<1x2x2x1xf32>'
             % (x, cst, body))
    f.expect(r, array(reduce_window_ref(a, -np.inf, np.max, [1, 2, 2, 1],
                                        [1, 2, 2, 1], [(0, 0)] * 4), e), e)
    funcs.append(f.text())

    f = Func("test_reduce_window_max_pool_padded")
    a = array(rng.integers(-9, 10, (1, 5, 5, 2)), e)
    x = f.input(a, e)
    cst = f.op("stablehlo.constant dense<0xFF800000> : tensor<f32>")
    pad = [(0, 0), (0, 1), (0, 1), (0, 0)]
    r = f.op('"stablehlo.reduce_window"(%s, %s) <{padding = dense<[[0, 0], [0, 1], '
             '[0, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = array<i64: '
             '1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({\n%s\n    }) : '
             '(tensor<1x5x5x2xf32>, tensor<f32>) -> tensor<1x3x3x2xf32>'
             % (x, cst, body))
    f.expect(r, array(reduce_window_ref(a, -np.inf, np.max, [1, 2, 2, 1],
                                        [1, 2, 2, 1], pad), e), e)
    funcs.append(f.text(comment="'SAME' padding on the bottom and right edges."))

    f = Func("test_reduce_window_avg_pool")
    a = array(rng.integers(-9, 10, (1, 4, 6, 2)), e)
    x = f.input(a, e)
    cst = f.op("stablehlo.constant dense<0.000000e+00> : tensor<f32>")
    add_body = binary_body("add", "f32")
    s = f.op('"stablehlo.reduce_window"(%s, %s) <{window_dimensions = array<i64: '
             '1, 2, 3, 1>, window_strides = array<i64: 1, 2, 3, 1>}> ({\n%s\n    }) : '
             '(tensor<1x4x6x2xf32>, tensor<f32>) -> tensor<1x2x2x2xf32>'
             % (x, cst, add_body))
    six = f.op("stablehlo.constant dense<6.000000e+00> : tensor<1x2x2x2xf32>")
    r = f.op("stablehlo.divide %s, %s : tensor<1x2x2x2xf32>" % (s, six))
    sums = reduce_window_ref(a, 0.0, np.sum, [1, 2, 3, 1], [1, 2, 3, 1], [(0, 0)] * 4)
    f.expect(r, array(sums / 6.0, e), e)
    funcs.append(f.text())

    # flax.linen.avg_pool(x, (3, 3), strides=(2, 2), padding="SAME",
    # count_include_pad=False): padded window sums divided by the number of
    # real elements in each window, itself a reduce_window over ones.
    f = Func("test_reduce_window_avg_pool_padded")
    a = array(rng.integers(-9, 10, (1, 5, 5, 1)), e)
    x = f.input(a, e)
    cst = f.op("stablehlo.constant dense<0.000000e+00> : tensor<f32>")
    pad = [(0, 0), (1, 1), (1, 1), (0, 0)]
    attrs = ('<{padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, '
             'window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = '
             'array<i64: 1, 2, 2, 1>}>')
    s_ = f.op('"stablehlo.reduce_window"(%s, %s) %s ({\n%s\n    }) : '
              '(tensor<1x5x5x1xf32>, tensor<f32>) -> tensor<1x3x3x1xf32>'
              % (x, cst, attrs, add_body))
    ones = f.op("stablehlo.constant dense<1.000000e+00> : tensor<1x5x5x1xf32>")
    n = f.op('"stablehlo.reduce_window"(%s, %s) %s ({\n%s\n    }) : '
             '(tensor<1x5x5x1xf32>, tensor<f32>) -> tensor<1x3x3x1xf32>'
             % (ones, cst, attrs, add_body))
    r = f.op("stablehlo.divide %s, %s : tensor<1x3x3x1xf32>" % (s_, n))
    sums = reduce_window_ref(a, 0.0, np.sum, [1, 3, 3, 1], [1, 2, 2, 1], pad)
    counts = reduce_window_ref(np.ones_like(a), 0.0, np.sum, [1, 3, 3, 1],
                               [1, 2, 2, 1], pad)
    f.expect(r, array(sums / counts, e), e)
    funcs.append(f.text(comment="Average pooling with 'SAME' padding that "
                        "does not count the padding."))

    f = Func("test_reduce_window_sum_i32_overlapping")
    a = array(rng.integers(-9, 10, (7,)), "i32")
    x = f.input(a, "i32")
    c = f.op("stablehlo.constant dense<0> : tensor<i32>")
    body = binary_body("add", "i32")
    expected = reduce_window_ref(a, 0, np.sum, [3], [1], [(1, 1)])
    r = f.op('"stablehlo.reduce_window"(%s, %s) <{padding = dense<1> : '
             'tensor<1x2xi64>, window_dimensions = array<i64: 3>, window_strides = '
             'array<i64: 1>}> ({\n%s\n    }) : (tensor<7xi32>, tensor<i32>) -> '
             'tensor<7xi32>' % (x, c, body))
    f.expect(r, array(expected, "i32"), "i32")
    funcs.append(f.text(comment="A cumulative-sum-like window: overlapping "
                        "windows, padding on both ends."))

    f = Func("fail_reduce_wrong_expectation")
    a = array([1.0, 2.0, 3.0], e)
    x = f.input(a, e)
    init = f.op("stablehlo.constant dense<0.000000e+00> : tensor<f32>")
    r = f.op("stablehlo.reduce(%s init: %s) applies stablehlo.add across "
             "dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>"
             % (x, init))
    f.expect(r, array(7.0, e), e)
    funcs.append(f.text(comment="1 + 2 + 3 is 6: the check must fail."))

    funcs.append(
        "  func.func private @body_add(%arg0: tensor<f32>, %arg1: tensor<f32>) -> "
        "tensor<f32> {\n"
        "    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>\n"
        "    return %0 : tensor<f32>\n"
        "  }\n\n"
        "  func.func private @body_max(%arg0: tensor<f32>, %arg1: tensor<f32>) -> "
        "tensor<f32> {\n"
        "    %0 = stablehlo.maximum %arg0, %arg1 : tensor<f32>\n"
        "    %1 = func.call @body_same(%0) : (tensor<f32>) -> tensor<f32>\n"
        "    return %1 : tensor<f32>\n"
        "  }\n\n"
        "  func.func private @body_same(%arg0: tensor<f32>) -> tensor<f32> {\n"
        "    return %arg0 : tensor<f32>\n"
        "  }\n\n"
        "  func.func private @body_less(%arg0: tensor<f32>, %arg1: tensor<f32>) -> "
        "tensor<i1> {\n"
        "    %0 = stablehlo.compare LT, %arg0, %arg1 : (tensor<f32>, tensor<f32>) -> "
        "tensor<i1>\n"
        "    return %0 : tensor<i1>\n"
        "  }")
    f = Func("test_calls_in_bodies")
    rng = np.random.default_rng(81)
    a = array(rng.uniform(-5, 5, (3, 4)), "f32")
    x = f.input(a, "f32")
    zero = f.op("stablehlo.constant dense<0.0> : tensor<f32>")
    r = f.op("stablehlo.reduce(%s init: %s) across dimensions = [1] : (tensor<3x4xf32>, "
             "tensor<f32>) -> tensor<3xf32>\n"
             "     reducer(%%p: tensor<f32>, %%q: tensor<f32>) {\n"
             "      %%s = func.call @body_add(%%p, %%q) : (tensor<f32>, tensor<f32>) -> "
             "tensor<f32>\n"
             "      stablehlo.return %%s : tensor<f32>\n"
             "    }" % (x, zero))
    f.expect(r, np.asarray(a).sum(axis=1), "f32", 1e-5, 1e-5)
    low = f.op("stablehlo.constant dense<0xFF800000> : tensor<f32>")
    r = f.op('"stablehlo.reduce_window"(%s, %s) ({\n'
             '    ^bb0(%%p: tensor<f32>, %%q: tensor<f32>):\n'
             '      %%s = func.call @body_max(%%p, %%q) : (tensor<f32>, tensor<f32>) -> '
             'tensor<f32>\n'
             '      stablehlo.return %%s : tensor<f32>\n'
             '    }) {window_dimensions = array<i64: 2, 2>} : (tensor<3x4xf32>, tensor<f32>) -> '
             'tensor<2x3xf32>' % (x, low))
    ai = np.asarray(a)
    want = np.array([[ai[i:i + 2, j:j + 2].max() for j in range(3)] for i in range(2)])
    f.expect(r, array(want, "f32"), "f32", 0.0, 0.0)
    r = f.op('"stablehlo.sort"(%s) ({\n'
             '    ^bb0(%%p: tensor<f32>, %%q: tensor<f32>):\n'
             '      %%s = func.call @body_less(%%p, %%q) : (tensor<f32>, tensor<f32>) -> '
             'tensor<i1>\n'
             '      stablehlo.return %%s : tensor<i1>\n'
             '    }) {dimension = 1 : i64} : (tensor<3x4xf32>) -> tensor<3x4xf32>' % x)
    f.expect(r, np.sort(ai, axis=1), "f32", 0.0, 0.0)
    funcs.append(f.text(comment="func.call inside reduce, reduce_window and sort bodies "
                        "(nested calls too) is inlined."))
    funcs += gen_select_and_scatter(rng)
    return funcs


#===----------------------------------------------------------------------===#
# Control flow: while, if, case, func.call
#===----------------------------------------------------------------------===#

def counted_while(f, x, x_type, start, bound, body_lines):
    """Appends a stablehlo.while carrying (%iterArg: i32 from start,
    %iterArg_0 = x: x_type) while %iterArg < bound, with body_lines as its
    do region (which returns both); returns the while's value."""
    c0 = f.op("stablehlo.constant dense<%d> : tensor<i32>" % start)
    r = f.op("stablehlo.while(%%iterArg = %s, %%iterArg_0 = %s) : tensor<i32>, "
             "%s" % (c0, x, x_type), count=2)
    for line in [
        " cond {",
        "  %%c = stablehlo.constant dense<%d> : tensor<i32>" % bound,
        "  %100 = stablehlo.compare  LT, %iterArg, %c,  SIGNED : (tensor<i32>, "
        "tensor<i32>) -> tensor<i1>",
        "  stablehlo.return %100 : tensor<i1>",
        "} do {",
    ] + body_lines + ["}"]:
        f.line(line)
    return r


def gen_control_flow():
    funcs = []
    e = "f32"

    # jax.lax.fori_loop(0, 5, lambda i, x: x * 2 + i, x)
    f = Func("test_while_counted_loop")
    a = array([1.0, -1.0, 0.5, 3.0], e)
    x = f.input(a, e)
    r = counted_while(f, x, "tensor<4xf32>", 0, 5, [
        "  %c = stablehlo.constant dense<1> : tensor<i32>",
        "  %cst = stablehlo.constant dense<2.000000e+00> : tensor<4xf32>",
        "  %100 = stablehlo.multiply %iterArg_0, %cst : tensor<4xf32>",
        "  %101 = stablehlo.convert %iterArg : (tensor<i32>) -> tensor<f32>",
        "  %102 = stablehlo.broadcast_in_dim %101, dims = [] : (tensor<f32>) -> "
        "tensor<4xf32>",
        "  %103 = stablehlo.add %100, %102 : tensor<4xf32>",
        "  %104 = stablehlo.add %iterArg, %c : tensor<i32>",
        "  stablehlo.return %104, %103 : tensor<i32>, tensor<4xf32>",
    ])
    v = a.astype(np.float64)
    for i in range(5):
        v = v * 2 + i
    f.expect("%s#1" % r, array(v, e), e)
    f.expect("%s#0" % r, array(5, "i32"), "i32")
    funcs.append(f.text(comment="jax.lax.fori_loop(0, 5, lambda i, x: x * 2 + i, "
                        "x)"))

    f = Func("test_while_data_dependent")
    a = array(3, "i64")
    x = f.input(a, "i64")
    r = f.op('"stablehlo.while"(%s) ({\n%s\n    }, {\n%s\n    }) : (tensor<i64>) -> '
             'tensor<i64>' % (x, region([("%arg0", "tensor<i64>")], [
                 "%c = stablehlo.constant dense<1000> : tensor<i64>",
                 "%100 = stablehlo.compare  LT, %arg0, %c,  SIGNED : (tensor<i64>, "
                 "tensor<i64>) -> tensor<i1>",
                 "stablehlo.return %100 : tensor<i1>"]),
                 region([("%arg0", "tensor<i64>")], [
                     "%100 = stablehlo.multiply %arg0, %arg0 : tensor<i64>",
                     "stablehlo.return %100 : tensor<i64>"])))
    v = 3
    while v < 1000:
        v = v * v
    f.expect(r, array(v, "i64"), "i64")
    funcs.append(f.text(comment="Generic form; squares until the value reaches "
                        "1000."))

    for name, pred in (("test_if_true", True), ("test_if_false", False)):
        f = Func(name)
        a = array([1.0, 2.0, 3.0], e)
        x = f.input(a, e)
        p = f.input(array(pred, "i1"), "i1")
        r = f.op('"stablehlo.if"(%s) ({\n%s\n    }, {\n%s\n    }) : (tensor<i1>) -> '
                 'tensor<3xf32>' % (p, "\n".join("      " + s for s in [
                     "%%100 = stablehlo.add %s, %s : tensor<3xf32>" % (x, x),
                     "stablehlo.return %100 : tensor<3xf32>"]),
                     "\n".join("      " + s for s in [
                         "%%100 = stablehlo.negate %s : tensor<3xf32>" % x,
                         "stablehlo.return %100 : tensor<3xf32>"])))
        f.expect(r, a + a if pred else -a, e)
        funcs.append(f.text())

    # jax.lax.switch(i, [f0, f1, f2], x): an index clamped into range by
    # JAX; stablehlo.case itself sends an out-of-range index to the last.
    for index in (0, 1, 2, 7, -1):
        f = Func("test_case_index_%s" % (index if index >= 0 else "minus_1"))
        a = array([1.0, -2.0], e)
        x = f.input(a, e)
        i = f.input(array(index, "i32"), "i32")
        branches = [
            ["%%100 = stablehlo.add %s, %s : tensor<2xf32>" % (x, x),
             "stablehlo.return %100 : tensor<2xf32>"],
            ["%%100 = stablehlo.multiply %s, %s : tensor<2xf32>" % (x, x),
             "stablehlo.return %100 : tensor<2xf32>"],
            ["%%100 = stablehlo.abs %s : tensor<2xf32>" % x,
             "stablehlo.return %100 : tensor<2xf32>"],
        ]
        r = f.op('"stablehlo.case"(%s) (%s) : (tensor<i32>) -> tensor<2xf32>'
                 % (i, ", ".join("{\n%s\n    }" % "\n".join("      " + s for s in b)
                                 for b in branches)))
        results = [a + a, a * a, np.abs(a)]
        f.expect(r, results[index if 0 <= index < 3 else 2], e)
        funcs.append(f.text())

    calls = (
        "  func.func private @square_plus(%arg0: tensor<3xf32>, %arg1: tensor<f32>) "
        "-> tensor<3xf32> {\n"
        "    %0 = stablehlo.multiply %arg0, %arg0 : tensor<3xf32>\n"
        "    %1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> "
        "tensor<3xf32>\n"
        "    %2 = stablehlo.add %0, %1 : tensor<3xf32>\n"
        "    return %2 : tensor<3xf32>\n"
        "  }\n\n"
        "  func.func private @split(%arg0: tensor<4xi32>) -> (tensor<2xi32>, "
        "tensor<2xi32>) {\n"
        "    %0 = stablehlo.slice %arg0 [0:2] : (tensor<4xi32>) -> tensor<2xi32>\n"
        "    %1 = stablehlo.slice %arg0 [2:4] : (tensor<4xi32>) -> tensor<2xi32>\n"
        "    %2 = func.call @twice(%1) : (tensor<2xi32>) -> tensor<2xi32>\n"
        "    return %0, %2 : tensor<2xi32>, tensor<2xi32>\n"
        "  }\n\n"
        "  func.func private @twice(%arg0: tensor<2xi32>) -> tensor<2xi32> {\n"
        "    %0 = stablehlo.add %arg0, %arg0 : tensor<2xi32>\n"
        "    func.return %0 : tensor<2xi32>\n"
        "  }")
    funcs.append(calls)
    f = Func("test_call")
    a = array([1.0, -2.0, 0.5], e)
    x = f.input(a, e)
    s = f.input(array(0.25, e), e)
    r = f.op("call @square_plus(%s, %s) : (tensor<3xf32>, tensor<f32>) -> "
             "tensor<3xf32>" % (x, s))
    f.expect(r, a * a + np.float32(0.25), e)
    r2 = f.op("func.call @square_plus(%s, %s) : (tensor<3xf32>, tensor<f32>) -> "
              "tensor<3xf32>" % (r, s))
    f.expect(r2, (a * a + np.float32(0.25)) ** 2 + np.float32(0.25), e)
    b = array([1, 2, 3, 4], "i32")
    y = f.input(b, "i32")
    r3 = f.op("call @split(%s) : (tensor<4xi32>) -> (tensor<2xi32>, tensor<2xi32>)"
              % y, count=2)
    f.expect("%s#0" % r3, b[:2], "i32")
    f.expect("%s#1" % r3, b[2:] * 2, "i32")
    funcs.append(f.text(comment="Private functions called with call and "
                        "func.call, nested, with two results."))

    f = Func("test_composite")
    a = array([1.0, -2.0, 0.5], e)
    x = f.input(a, e)
    s = f.input(array(0.25, e), e)
    r = f.op('stablehlo.composite "my.square_plus" %s, %s {composite_attributes = '
             '{bias = 1 : i64}, decomposition = @square_plus, version = 1 : i32} : '
             '(tensor<3xf32>, tensor<f32>) -> tensor<3xf32>' % (x, s))
    f.expect(r, a * a + np.float32(0.25), e)
    b = array([5, 6, 7, 8], "i32")
    r2 = f.op('"stablehlo.composite"(%s) <{decomposition = @split, name = "my.split"}> : '
              '(tensor<4xi32>) -> (tensor<2xi32>, tensor<2xi32>)'
              % f.input(b, "i32"), count=2)
    f.expect("%s#0" % r2, b[:2], "i32")
    f.expect("%s#1" % r2, b[2:] * 2, "i32")
    funcs.append(f.text(comment="stablehlo.composite runs its decomposition "
                        "(pretty form, and generic with properties)."))

    f = Func("fail_if_wrong_branch")
    x = f.input(array([1.0], e), e)
    p = f.input(array(True, "i1"), "i1")
    r = f.op('"stablehlo.if"(%s) ({\n      stablehlo.return %s : tensor<1xf32>\n'
             '    }, {\n      %%100 = stablehlo.negate %s : tensor<1xf32>\n'
             '      stablehlo.return %%100 : tensor<1xf32>\n    }) : (tensor<i1>) -> '
             'tensor<1xf32>' % (p, x, x))
    f.expect(r, array([-1.0], e), e)
    funcs.append(f.text(comment="The true branch returns x, not -x: the check "
                        "must fail."))
    return funcs


#===----------------------------------------------------------------------===#
# gather, scatter, sort
#===----------------------------------------------------------------------===#

def normalize_index(f, idx_value, n, size):
    """JAX's x[idx] prologue: negative indices count from the end."""
    zero = f.op("stablehlo.constant dense<0> : tensor<i32>")
    zeros = f.op("stablehlo.broadcast_in_dim %s, dims = [] : (tensor<i32>) -> "
                 "tensor<%dxi32>" % (zero, n))
    neg = f.op("stablehlo.compare  LT, %s, %s,  SIGNED : (tensor<%dxi32>, "
               "tensor<%dxi32>) -> tensor<%dxi1>" % (idx_value, zeros, n, n, n))
    c = f.op("stablehlo.constant dense<%d> : tensor<i32>" % size)
    cs = f.op("stablehlo.broadcast_in_dim %s, dims = [] : (tensor<i32>) -> "
              "tensor<%dxi32>" % (c, n))
    wrapped = f.op("stablehlo.add %s, %s : tensor<%dxi32>" % (idx_value, cs, n))
    sel = f.op("stablehlo.select %s, %s, %s : tensor<%dxi1>, tensor<%dxi32>"
               % (neg, wrapped, idx_value, n, n))
    return f.op("stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<%dxi32>) -> "
                "tensor<%dx1xi32>" % (sel, n, n))


def gen_gather_scatter():
    funcs = []
    e = "f32"
    rng = np.random.default_rng(6)

    # x[idx] for x: 5x3, idx: 4 (a negative one included)
    f = Func("test_gather_rows")
    a = array(rng.integers(-9, 10, (5, 3)), e)
    idx = array([4, 0, -1, 2], "i32")
    x, i = f.input(a, e), f.input(idx, "i32")
    ii = normalize_index(f, i, 4, 5)
    r = f.op('"stablehlo.gather"(%s, %s) <{dimension_numbers = #stablehlo.gather<'
             'offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], '
             'index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = '
             'array<i64: 1, 3>}> : (tensor<5x3xf32>, tensor<4x1xi32>) -> '
             'tensor<4x3xf32>' % (x, ii))
    f.expect(r, a[idx], e)
    funcs.append(f.text(comment="x[idx] as jnp indexing exports it (negative "
                        "indices wrapped first)."))

    # x[:, idx] for x: 3x4
    f = Func("test_gather_columns")
    a = array(rng.integers(-9, 10, (3, 4)), e)
    idx = array([3, 1], "i32")
    x, i = f.input(a, e), f.input(idx, "i32")
    ii = normalize_index(f, i, 2, 4)
    r = f.op('"stablehlo.gather"(%s, %s) <{dimension_numbers = #stablehlo.gather<'
             'offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], '
             'index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = '
             'array<i64: 3, 1>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> '
             'tensor<3x2xf32>' % (x, ii))
    f.expect(r, a[:, idx], e)
    funcs.append(f.text())

    # Out-of-bounds start indices are clamped (x[idx] with mode="clip").
    f = Func("test_gather_clamps_start_indices")
    a = array(np.arange(12).reshape(6, 2), "i32")
    idx = array([[9], [-3], [5]], "i32")
    x, i = f.input(a, "i32"), f.input(idx, "i32")
    r = f.op('"stablehlo.gather"(%s, %s) <{dimension_numbers = #stablehlo.gather<'
             'offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], '
             'index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>}> : '
             '(tensor<6x2xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>' % (x, i))
    f.expect(r, a[np.clip(idx[:, 0], 0, 5)], "i32")
    funcs.append(f.text())

    # x.at[idx].add(u) for x: 6, idx: 4 (a repeated index accumulates)
    f = Func("test_scatter_add")
    a = array(rng.integers(-9, 10, (6,)), e)
    idx = array([1, 4, 1, -1], "i32")
    u = array([10.0, 20.0, 30.0, 40.0], e)
    x, i, vu = f.input(a, e), f.input(idx, "i32"), f.input(u, e)
    ii = normalize_index(f, i, 4, 6)
    r = f.op('"stablehlo.scatter"(%s, %s, %s) <{indices_are_sorted = false, '
             'scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = '
             '[0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, '
             'unique_indices = false}> ({\n%s\n    }) : (tensor<6xf32>, '
             'tensor<4x1xi32>, tensor<4xf32>) -> tensor<6xf32>'
             % (x, ii, vu, binary_body("add", "f32", "%arg3", "%arg4")))
    expected = a.copy()
    np.add.at(expected, idx, u)
    f.expect(r, expected, e)
    funcs.append(f.text(comment="x.at[idx].add(u): repeated indices accumulate."))

    # x.at[idx].set(rows) for x: 4x3
    f = Func("test_scatter_set_rows")
    a = array(rng.integers(-9, 10, (4, 3)), e)
    idx = array([2, 0], "i32")
    u = array(rng.integers(10, 20, (2, 3)), e)
    x, i, vu = f.input(a, e), f.input(idx, "i32"), f.input(u, e)
    ii = normalize_index(f, i, 2, 4)
    r = f.op('"stablehlo.scatter"(%s, %s, %s) <{indices_are_sorted = false, '
             'scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = '
             '[1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], '
             'index_vector_dim = 1>, unique_indices = false}> ({\n%s\n    }) : '
             '(tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>'
             % (x, ii, vu, region([("%arg3", "tensor<f32>"), ("%arg4", "tensor<f32>")],
                                  ["stablehlo.return %arg4 : tensor<f32>"])))
    expected = a.copy()
    expected[idx] = u
    f.expect(r, expected, e)
    funcs.append(f.text(comment="x.at[idx].set(rows)."))

    f = Func("test_scatter_skips_out_of_bounds")
    a = array([1, 2, 3, 4], "i32")
    idx = array([[7], [2], [-5]], "i32")
    u = array([100, 200, 300], "i32")
    x, i, vu = f.input(a, "i32"), f.input(idx, "i32"), f.input(u, "i32")
    r = f.op('"stablehlo.scatter"(%s, %s, %s) <{scatter_dimension_numbers = '
             '#stablehlo.scatter<inserted_window_dims = [0], '
             'scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n%s\n'
             '    }) : (tensor<4xi32>, tensor<3x1xi32>, tensor<3xi32>) -> '
             'tensor<4xi32>'
             % (x, i, vu, binary_body("add", "i32", "%arg3", "%arg4")))
    expected = a.copy()
    for i, update in zip(idx[:, 0], u):
        if 0 <= i < len(a):
            expected[i] += update
    f.expect(r, expected, "i32")
    funcs.append(f.text(comment="Updates whose window falls outside the operand "
                        "are skipped (the StableHLO spec)."))

    f = Func("fail_gather_wrong_expectation")
    a = array([10, 20, 30], "i32")
    idx = array([[2]], "i32")
    x, i = f.input(a, "i32"), f.input(idx, "i32")
    r = f.op('"stablehlo.gather"(%s, %s) <{dimension_numbers = #stablehlo.gather<'
             'collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = '
             '1>, slice_sizes = array<i64: 1>}> : (tensor<3xi32>, tensor<1x1xi32>) '
             '-> tensor<1xi32>' % (x, i))
    f.expect(r, array([20], "i32"), "i32")
    funcs.append(f.text(comment="x[2] is 30: the check must fail."))

    f = Func("test_torch_index_select")
    rng = np.random.default_rng(61)
    for elem, shape, ishape, dim, batch, ielem in (
            ("f32", (3, 4), (2,), 1, 0, "i32"), ("f32", (3, 4), (2, 2), 0, 0, "i64"),
            ("i32", (3, 4, 5), (3, 2), 2, 1, "i32"), ("f16", (2, 3, 4), (2, 3, 1), 2, 2, "i32"),
            ("f32", (4, 2, 3), (4, 2), 1, 1, "i64")):
        x = array(rng.uniform(-9, 9, shape) if elem != "i32" else
                  rng.integers(-50, 50, shape), elem)
        idx = array(rng.integers(0, shape[dim], ishape), ielem)
        out_shape = shape[:dim] + ishape[batch:] + shape[dim + 1:]
        want = np.zeros(out_shape, dtype=np.asarray(x).dtype)
        for pos in np.ndindex(*out_shape):
            b_part = pos[:batch]
            p_part = pos[batch:dim]
            i_part = pos[dim:dim + len(ishape) - batch]
            s_part = pos[dim + len(ishape) - batch:]
            chosen = int(np.asarray(idx)[b_part + i_part])
            want[pos] = np.asarray(x)[b_part + p_part + (chosen,) + s_part]
        r = f.op('"stablehlo.torch_index_select"(%s, %s) {dim = %d : i64, batch_dims = %d : '
                 'i64} : (%s, %s) -> %s'
                 % (f.input(x, elem), f.input(idx, ielem), dim, batch, type_of(x, elem),
                    type_of(idx, ielem), tensor_type(out_shape, elem)))
        f.expect(r, array(want, elem), elem, *((0.0, 0.0) if elem != "i32" else ()))
    funcs.append(f.text(comment="torch_index_select along different dims, with and "
                        "without batch_dims, as the gather it becomes."))
    return funcs


def sort_body(elems, direction="LT", ctype="TOTALORDER"):
    args = []
    for n, elem in enumerate(elems):
        args += [("%%arg%d" % (2 * n + 1), "tensor<%s>" % elem),
                 ("%%arg%d" % (2 * n + 2), "tensor<%s>" % elem)]
    return region(args, [
        "%%100 = stablehlo.compare  %s, %%arg1, %%arg2,  %s : (tensor<%s>, "
        "tensor<%s>) -> tensor<i1>" % (direction, ctype, elems[0], elems[0]),
        "stablehlo.return %100 : tensor<i1>"])


def gen_sort():
    funcs = []
    rng = np.random.default_rng(7)

    f = Func("test_sort_f32")
    a = array([3.0, -1.0, 2.5, -0.0, 0.0, 10.0, -7.5], "f32")
    x = f.input(a, "f32")
    r = f.op('"stablehlo.sort"(%s) <{dimension = 0 : i64}> ({\n%s\n    }) : '
             '(tensor<7xf32>) -> tensor<7xf32>' % (x, sort_body(["f32"])))
    f.expect(r, np.sort(a), "f32")
    funcs.append(f.text())

    f = Func("test_sort_rows_descending_i32")
    a = array(rng.integers(-50, 50, (3, 6)), "i32")
    x = f.input(a, "i32")
    r = f.op('"stablehlo.sort"(%s) <{dimension = 1 : i64}> ({\n%s\n    }) : '
             '(tensor<3x6xi32>) -> tensor<3x6xi32>'
             % (x, sort_body(["i32"], "GT", "SIGNED")))
    f.expect(r, -np.sort(-a, axis=1), "i32")
    funcs.append(f.text())

    f = Func("test_sort_columns_f32")
    a = array(rng.integers(-9, 10, (4, 3)), "f32")
    x = f.input(a, "f32")
    r = f.op('"stablehlo.sort"(%s) <{dimension = 0 : i64, is_stable = true}> '
             '({\n%s\n    }) : (tensor<4x3xf32>) -> tensor<4x3xf32>'
             % (x, sort_body(["f32"])))
    f.expect(r, np.sort(a, axis=0), "f32")
    funcs.append(f.text())

    # jnp.argsort(x) (stable): sort (x, iota) by x.
    f = Func("test_sort_argsort_stable")
    a = array([2.0, 1.0, 2.0, 0.5, 1.0, 2.0, -3.0, 1.0], "f32")
    x = f.input(a, "f32")
    iota = f.op("stablehlo.iota dim = 0 : tensor<8xi32>")
    r = f.op('"stablehlo.sort"(%s, %s) <{dimension = 0 : i64, is_stable = true}> '
             '({\n%s\n    }) : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, '
             'tensor<8xi32>)' % (x, iota, sort_body(["f32", "i32"])), count=2)
    order = np.argsort(a, kind="stable")
    f.expect("%s#1" % r, array(order, "i32"), "i32")
    f.expect("%s#0" % r, a[order], "f32")
    funcs.append(f.text(comment="jnp.argsort: a two-operand stable sort keyed "
                        "on the values; ties keep index order."))

    f = Func("test_sort_key_value_ui8")
    keys = array([5, 200, 1, 77, 3], "ui8")
    vals = array([-1.5, 2.0, 3.5, -4.0, 0.0], "f32")
    k, v = f.input(keys, "ui8"), f.input(vals, "f32")
    r = f.op('"stablehlo.sort"(%s, %s) <{dimension = 0 : i64, is_stable = true}> '
             '({\n%s\n    }) : (tensor<5xui8>, tensor<5xf32>) -> (tensor<5xui8>, '
             'tensor<5xf32>)' % (k, v, sort_body(["ui8", "f32"], "LT", "UNSIGNED")),
             count=2)
    order = np.argsort(keys, kind="stable")
    f.expect("%s#0" % r, keys[order], "ui8")
    f.expect("%s#1" % r, vals[order], "f32")
    funcs.append(f.text())

    f = Func("fail_sort_wrong_expectation")
    a = array([3, 1, 2], "i32")
    x = f.input(a, "i32")
    r = f.op('"stablehlo.sort"(%s) <{dimension = 0 : i64}> ({\n%s\n    }) : '
             '(tensor<3xi32>) -> tensor<3xi32>' % (x, sort_body(["i32"], "LT",
                                                                 "SIGNED")))
    f.expect(r, array([3, 2, 1], "i32"), "i32")
    funcs.append(f.text(comment="An ascending sort: the check must fail."))
    return funcs


#===----------------------------------------------------------------------===#
# arith scalars and tensor.extract
#===----------------------------------------------------------------------===#

def gen_scalars():
    funcs = []

    def expect_i1(f, value, truth):
        wide = f.op("arith.extui %s : i1 to i32" % value)
        f.line("check.expect_%s(%s) : i32" % ("true" if truth else "false", wide))

    f = Func("test_extract_float_arith")
    a = array([[1.5, 2.5], [4.0, -8.0]], "f32")
    x = f.input(a, "f32")
    c0 = f.op("arith.constant 0 : index")
    c1 = f.op("arith.constant 1 : index")
    p = f.op("tensor.extract %s[%s, %s] : tensor<2x2xf32>" % (x, c0, c1))
    q = f.op("tensor.extract %s[%s, %s] : tensor<2x2xf32>" % (x, c1, c0))
    s = f.op("arith.addf %s, %s : f32" % (p, q))  # 6.5
    m = f.op("arith.mulf %s, %s : f32" % (s, p))  # 16.25
    d = f.op("arith.divf %s, %s : f32" % (m, q))  # 4.0625
    z = f.op("arith.subf %s, %s : f32" % (d, s))  # -2.4375
    expected = (np.float32(2.5) + np.float32(4.0)) * np.float32(2.5) / np.float32(4.0) \
        - (np.float32(2.5) + np.float32(4.0))
    k = f.op("arith.constant %s : f32" % np.format_float_scientific(
        np.float32(expected), unique=True, trim="0"))
    expect_i1(f, f.op("arith.cmpf oeq, %s, %s : f32" % (z, k)), True)
    expect_i1(f, f.op("arith.cmpf olt, %s, %s : f32" % (z, p)), True)
    expect_i1(f, f.op("arith.cmpf ogt, %s, %s : f32" % (z, p)), False)
    funcs.append(f.text(comment="(2.5 + 4) * 2.5 / 4 - (2.5 + 4) = %r"
                        % float(expected)))

    f = Func("test_extract_int_arith")
    a = array([7, -3, 100, 12], "i32")
    x = f.input(a, "i32")
    idx = [f.op("arith.constant %d : index" % i) for i in range(4)]
    v = [f.op("tensor.extract %s[%s] : tensor<4xi32>" % (x, i)) for i in idx]
    s = f.op("arith.addi %s, %s : i32" % (v[0], v[1]))       # 4
    m = f.op("arith.muli %s, %s : i32" % (s, v[3]))          # 48
    q = f.op("arith.divsi %s, %s : i32" % (v[2], v[0]))      # 14
    r = f.op("arith.remsi %s, %s : i32" % (v[1], v[0]))      # -3
    t_ = f.op("arith.subi %s, %s : i32" % (m, q))            # 34
    c34 = f.op("arith.constant 34 : i32")
    cm3 = f.op("arith.constant -3 : i32")
    expect_i1(f, f.op("arith.cmpi eq, %s, %s : i32" % (t_, c34)), True)
    expect_i1(f, f.op("arith.cmpi eq, %s, %s : i32" % (r, cm3)), True)
    expect_i1(f, f.op("arith.cmpi slt, %s, %s : i32" % (r, v[1])), False)
    assert (7 + -3) * 12 - 100 // 7 == 34 and int(math.fmod(-3, 7)) == -3
    # An extracted value used as an index: x[(7 + -3) - 1] = x[3].
    ix = f.op("arith.index_cast %s : i32 to index" % s)
    one = f.op("arith.constant 1 : index")
    ix1 = f.op("arith.subi %s, %s : index" % (ix, one))
    w = f.op("tensor.extract %s[%s] : tensor<4xi32>" % (x, ix1))
    c12 = f.op("arith.constant 12 : i32")
    expect_i1(f, f.op("arith.cmpi eq, %s, %s : i32" % (w, c12)), True)
    funcs.append(f.text())

    f = Func("test_arith_more")
    a = array(-2.5, "f32")
    b = array([6, -3], "i32")
    x, y = f.input(a, "f32"), f.input(b, "i32")
    v = f.op("tensor.extract %s[] : tensor<f32>" % x)
    c0, c1 = f.op("arith.constant 0 : index"), f.op("arith.constant 1 : index")
    p_ = f.op("tensor.extract %s[%s] : tensor<2xi32>" % (y, c0))
    q = f.op("tensor.extract %s[%s] : tensor<2xi32>" % (y, c1))
    checks = []
    n = f.op("arith.negf %s : f32" % v)                       # 2.5
    mx = f.op("arith.maximumf %s, %s : f32" % (v, n))         # 2.5
    mn = f.op("arith.minimumf %s, %s : f32" % (v, n))         # -2.5
    checks.append(("arith.cmpf oeq, %s, %s : f32" % (mx, n), True))
    checks.append(("arith.cmpf olt, %s, %s : f32" % (mn, mx), True))
    wide = f.op("arith.extf %s : f32 to f64" % v)
    k = f.op("arith.constant -2.500000e+00 : f64")
    checks.append(("arith.cmpf oeq, %s, %s : f64" % (wide, k), True))
    conv = f.op("arith.sitofp %s : i32 to f32" % p_)           # 6.0
    six = f.op("arith.constant 6.000000e+00 : f32")
    checks.append(("arith.cmpf oeq, %s, %s : f32" % (conv, six), True))
    back = f.op("arith.fptosi %s : f32 to i32" % v)             # -2
    m2 = f.op("arith.constant -2 : i32")
    checks.append(("arith.cmpi eq, %s, %s : i32" % (back, m2), True))
    andi = f.op("arith.andi %s, %s : i32" % (p_, q))            # 6 & -3 = 4
    ori = f.op("arith.ori %s, %s : i32" % (p_, q))              # 6 | -3 = -1
    xori = f.op("arith.xori %s, %s : i32" % (p_, q))            # 6 ^ -3 = -5
    shl = f.op("arith.shli %s, %s : i32" % (p_, f.op("arith.constant 2 : i32")))
    sel = f.op("arith.select %s, %s, %s : i32" % (
        f.op("arith.cmpi slt, %s, %s : i32" % (q, p_)), q, p_))  # -3
    i0, i1 = int(b[0]), int(b[1])
    for value, expected in ((andi, i0 & i1), (ori, i0 | i1), (xori, i0 ^ i1),
                            (shl, i0 << 2), (sel, min(i0, i1))):
        kk = f.op("arith.constant %d : i32" % expected)
        checks.append(("arith.cmpi eq, %s, %s : i32" % (value, kk), True))
    wide_i = f.op("arith.extsi %s : i32 to i64" % q)
    m3 = f.op("arith.constant -3 : i64")
    checks.append(("arith.cmpi eq, %s, %s : i64" % (wide_i, m3), True))
    narrow = f.op("arith.trunci %s : i64 to i8" % wide_i)
    m3b = f.op("arith.constant -3 : i8")
    checks.append(("arith.cmpi eq, %s, %s : i8" % (narrow, m3b), True))
    checks.append(("arith.cmpi ugt, %s, %s : i32" % (q, p_), True))  # unsigned
    for text, truth in checks:
        expect_i1(f, f.op(text), truth)
    funcs.append(f.text(comment="More arith ops on extracted scalars: "
                        "negf/maximumf/minimumf, extf, sitofp/fptosi,\n"
                        "bitwise ops, shli, select, extsi/trunci, unsigned "
                        "compare."))

    f = Func("test_expect_true_false_i32")
    t1 = f.op("util.unfoldable_constant 1 : i32")
    t0 = f.op("util.unfoldable_constant 0 : i32")
    f.line("check.expect_true(%s) : i32" % t1)
    f.line("check.expect_false(%s) : i32" % t0)
    funcs.append(f.text())

    f = Func("fail_expect_true_of_false")
    t0 = f.op("util.unfoldable_constant 0 : i32")
    f.line("check.expect_true(%s) : i32" % t0)
    funcs.append(f.text(comment="check.expect_true of 0 must fail."))
    return funcs


#===----------------------------------------------------------------------===#
# Check forms: IREE's, the StableHLO interpreter's, custom_call; generic ops
#===----------------------------------------------------------------------===#

def gen_check_forms():
    funcs = []
    a = array([1, 2, 3], "i32")
    b = array([10, 20, 30], "i32")
    fa = array([0.5, 1.5, -2.0], "f32")

    f = Func("test_iree_form")
    x, y = f.input(a, "i32"), f.input(b, "i32")
    s = f.op("stablehlo.add %s, %s : tensor<3xi32>" % (x, y))
    e = f.input(a + b, "i32")
    f.line("check.expect_eq(%s, %s) : tensor<3xi32>" % (s, e))
    f.line("check.expect_eq_const(%s, %s : tensor<3xi32>) : tensor<3xi32>"
           % (s, dense(a + b, "i32")))
    fx = f.input(fa, "f32")
    fs = f.op("stablehlo.multiply %s, %s : tensor<3xf32>" % (fx, fx))
    fe = f.input(fa * fa + np.float32(1e-5), "f32")
    f.line("check.expect_almost_eq(%s, %s) : tensor<3xf32>" % (fs, fe))
    f.line("check.expect_almost_eq(%s, %s, atol 1.0e-03) : tensor<3xf32>"
           % (fs, fe))
    f.line("check.expect_almost_eq_const(%s, %s : tensor<3xf32>, rtol 1.0e-02) : "
           "tensor<3xf32>" % (fs, dense(fa * fa * np.float32(1.005), "f32")))
    funcs.append(f.text(comment="check.expect_eq(_const) and "
                        "check.expect_almost_eq(_const) with and without\n"
                        "atol/rtol, as IREE writes them."))

    f = Func("test_interpreter_form")
    x, y = f.input(a, "i32"), f.input(b, "i32")
    s = f.op("stablehlo.add %s, %s : tensor<3xi32>" % (x, y))
    e = f.input(a + b, "i32")
    f.line("check.expect_eq %s, %s : tensor<3xi32>" % (s, e))
    f.line("check.expect_eq_const %s, %s : tensor<3xi32>" % (s, dense(a + b, "i32")))
    fx = f.input(fa, "f32")
    fs = f.op("stablehlo.multiply %s, %s : tensor<3xf32>" % (fx, fx))
    f.line("check.expect_almost_eq_const %s, %s : tensor<3xf32>"
           % (fs, dense(fa * fa, "f32")))
    fe = f.input(fa * fa, "f32")
    f.line("check.expect_almost_eq %s, %s : tensor<3xf32>" % (fs, fe))
    funcs.append(f.text(comment="The StableHLO interpreter's check forms "
                        "(stablehlo/tests/interpret)."))

    f = Func("test_generic_ops")
    x, y = f.input(a, "i32"), f.input(b, "i32")
    s = f.op('"stablehlo.add"(%s, %s) : (tensor<3xi32>, tensor<3xi32>) -> '
             'tensor<3xi32>' % (x, y))
    m = f.op('"stablehlo.multiply"(%s, %s) : (tensor<3xi32>, tensor<3xi32>) -> '
             'tensor<3xi32>' % (s, x))
    n = f.op('"stablehlo.negate"(%s) : (tensor<3xi32>) -> tensor<3xi32>' % m)
    c = f.op('"stablehlo.constant"() <{value = dense<[1, 1, 2]> : tensor<3xi32>}> : '
             '() -> tensor<3xi32>')
    r = f.op('"stablehlo.subtract"(%s, %s) : (tensor<3xi32>, tensor<3xi32>) -> '
             'tensor<3xi32>' % (n, c))
    f.expect(r, -((a + b) * a) - np.array([1, 1, 2], np.int32), "i32")
    funcs.append(f.text(comment="Ops in MLIR's generic form."))

    f = Func("test_custom_call_checks")
    fx = f.input(fa, "f32")
    fs = f.op("stablehlo.multiply %s, %s : tensor<3xf32>" % (fx, fx))
    fe = f.op("stablehlo.constant %s : tensor<3xf32>" % dense(fa * fa, "f32"))
    f.line("stablehlo.custom_call @check.expect_close(%s, %s) {has_side_effect = "
           "true} : (tensor<3xf32>, tensor<3xf32>) -> ()" % (fs, fe))
    f.line("stablehlo.custom_call @check.expect_almost_eq(%s, %s) {has_side_effect "
           "= true} : (tensor<3xf32>, tensor<3xf32>) -> ()" % (fs, fe))
    x = f.input(a, "i32")
    y = f.op("stablehlo.constant %s : tensor<3xi32>" % dense(a, "i32"))
    f.line("stablehlo.custom_call @check.expect_eq(%s, %s) {has_side_effect = "
           "true} : (tensor<3xi32>, tensor<3xi32>) -> ()" % (x, y))
    funcs.append(f.text(comment="stablehlo.custom_call @check.*, as the "
                        "StableHLO testdata suite writes them."))

    for name, line in (
        ("fail_iree_expect_eq", "check.expect_eq(%s, %s) : tensor<3xi32>"),
        ("fail_interpreter_expect_eq", "check.expect_eq %s, %s : tensor<3xi32>"),
        ("fail_custom_call_expect_eq", "stablehlo.custom_call @check.expect_eq(%s, "
         "%s) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()"),
    ):
        f = Func(name)
        x, y = f.input(a, "i32"), f.input(b, "i32")
        f.line(line % (x, y))
        funcs.append(f.text(comment="[1, 2, 3] is not [10, 20, 30]: must fail."))

    f = Func("fail_almost_eq_atol_is_honored")
    x = f.input(array([1.0, 2.0], "f32"), "f32")
    f.expect(x, array([1.0, 2.00005], "f32"), "f32", 1e-5, 0.0)
    funcs.append(f.text(comment="Off by 5e-5: within the default atol (1e-4) "
                        "but not the given 1e-5, so\nthe check must fail."))

    f = Func("fail_almost_eq_default_atol")
    x = f.input(array([1.0, 2.0], "f32"), "f32")
    f.expect(x, array([1.0, 2.0002], "f32"), "f32")
    funcs.append(f.text(comment="Off by 2e-4: past the default atol (1e-4)."))

    f = Func("fail_custom_call_expect_close")
    x = f.input(fa, "f32")
    y = f.input(fa + np.float32(0.5), "f32")
    f.line("stablehlo.custom_call @check.expect_close(%s, %s) {has_side_effect = "
           "true} : (tensor<3xf32>, tensor<3xf32>) -> ()" % (x, y))
    funcs.append(f.text(comment="Values 0.5 apart are not close: must fail."))

    # check.expect_close measures units in the last place (ULP), with the
    # check dialect's bounds (max_ulp_difference 3, min_ulp_difference 0 by
    # default). Shifted values are exactly k representable steps away.
    def shifted(values, elem, k):
        dt = DTYPES[elem] if elem != "bf16" else np.float32
        out = np.asarray(values, dtype=dt)
        for _ in range(k):
            out = np.nextafter(out, dt(np.inf))
        return out

    ulp_samples = {"f32": [-3.4e38, -1.2, -1.1754944e-38, 0.0, 1e-45, 1.2, 1e9],
                   "f64": [-1.7e308, -1.2, -2.2250738585072014e-308, 0.0,
                           5e-324, 1.2, 1e9],
                   "f16": [-65000.0, -1.5, 0.0, 6e-08, 1.5, 1000.0]}
    f = Func("test_expect_close_ulp_bounds")
    for elem, values in ulp_samples.items():
        base = np.asarray(values, dtype=DTYPES[elem])
        for k in (0, 1, 5):
            x = f.input(base, elem)
            y = f.constant(shifted(base, elem, k), elem)
            t = type_of(base, elem)
            f.line("check.expect_close %s, %s, max_ulp_difference = %d, "
                   "min_ulp_difference = %d : %s, %s" % (x, y, k, k, t, t))
    t = "tensor<4xf32>"
    x = f.input(array([0.0, -0.0, NAN, INF], "f32"), "f32")
    y = f.constant(array([-0.0, 0.0, NAN, INF], "f32"), "f32")
    f.line("check.expect_close %s, %s, max_ulp_difference = 0, "
           "min_ulp_difference = 0 : %s, %s" % (x, y, t, t))
    big = f.constant(array([3.4028235e38], "f32"), "f32")
    near_big = f.input(array([np.nextafter(np.float32(3.4028235e38), np.float32(0))],
                             "f32"), "f32")
    f.line('"check.expect_close"(%s, %s) {max_ulp_difference = 1 : ui64, '
           'min_ulp_difference = 1 : ui64} : (tensor<1xf32>, tensor<1xf32>) -> ()'
           % (near_big, big))
    x = f.input(array([1.0, 2.0], "f32"), "f32")
    y = f.constant(shifted([1.0, 2.0], "f32", 3), "f32")
    f.line("stablehlo.custom_call @check.expect_close(%s, %s) {has_side_effect = "
           "true} : (tensor<2xf32>, tensor<2xf32>) -> ()" % (x, y))
    funcs.append(f.text(comment="check.expect_close counts representable values "
                        "between the two (f16, f32, f64): exactly 0, 1 and 5 "
                        "apart\nwith min = max; +0/-0 and NaN/NaN are 0 apart, "
                        "the two largest floats 1;\nthe default bound "
                        "is 3."))

    for name, k, bounds, comment in (
        ("fail_expect_close_default_bound", 4, "",
         "4 ULP apart: past the default max_ulp_difference of 3."),
        ("fail_expect_close_not_absolute", 419, ", max_ulp_difference = 10",
         "1.0 vs 1.00005 is within an absolute 1e-4 but 419 ULP apart."),
        ("fail_expect_close_min_bound", 0, ", max_ulp_difference = 2, "
         "min_ulp_difference = 1", "Equal values are 0 ULP apart, below the "
         "given min_ulp_difference of 1."),
    ):
        f = Func(name)
        x = f.input(array([1.0, 2.0], "f32"), "f32")
        y = f.constant(shifted([1.0, 2.0], "f32", k), "f32")
        f.line("check.expect_close %s, %s%s : tensor<2xf32>, tensor<2xf32>"
               % (x, y, bounds))
        funcs.append(f.text(comment=comment))

    f = Func("fail_expect_close_infinity")
    inf = f.input(array([INF], "f32"), "f32")
    big = f.constant(array([3.4028235e38], "f32"), "f32")
    f.line("check.expect_close %s, %s, max_ulp_difference = 1000000 : "
           "tensor<1xf32>, tensor<1xf32>" % (inf, big))
    funcs.append(f.text(comment="Infinity is not close to the largest float, "
                        "however many ULP are allowed:\nthe StableHLO "
                        "interpreter counts an infinity and any other value as "
                        "unmeasurably\nfar apart."))

    f = Func("fail_expect_close_nan")
    x = f.input(array([NAN, 2.0], "f32"), "f32")
    y = f.constant(array([1.0, 2.0], "f32"), "f32")
    f.line("check.expect_close %s, %s, max_ulp_difference = 1000000 : "
           "tensor<2xf32>, tensor<2xf32>" % (x, y))
    funcs.append(f.text(comment="NaN is not close to any number."))

    # The StableHLO interpreter's element rules for its check spellings
    # (stablehlo-translate --interpret): custom_call @check.expect_eq compares
    # values, not bits; custom_call @check.expect_almost_eq and @check.eq
    # (floats) accept two NaNs, or finite values of one sign within 1e-3 and
    # 1e-4.
    t2 = "(tensor<2xf32>, tensor<2xf32>) -> ()"
    f = Func("test_custom_call_reference_rules")
    x = f.input(array([-0.0, 0.0], "f32"), "f32")
    y = f.constant(array([0.0, -0.0], "f32"), "f32")
    f.line("stablehlo.custom_call @check.expect_eq(%s, %s) {has_side_effect = "
           "true} : %s" % (x, y, t2))
    x = f.input(array([0.0, 1.0], "f32"), "f32")
    y = f.constant(array([5e-4, 1.0009], "f32"), "f32")
    f.line("stablehlo.custom_call @check.expect_almost_eq(%s, %s) "
           "{has_side_effect = true} : %s" % (x, y, t2))
    x = f.input(array([NAN, -1e-5], "f32"), "f32")
    y = f.constant(array([NAN, -8e-5], "f32"), "f32")
    f.line("%%ok = stablehlo.custom_call @check.eq(%s, %s) : (tensor<2xf32>, "
           "tensor<2xf32>) -> tensor<i1>" % (x, y))
    funcs.append(f.text(comment="+0 and -0 are equal values; 5e-4 and 9e-4 "
                        "differences are within custom_call\n@check.expect_"
                        "almost_eq's 1e-3 (not the 1e-4 of IREE's form); two "
                        "NaNs are near."))

    for name, op, lhs, rhs, comment in (
        ("fail_custom_call_expect_eq_nan", "check.expect_eq", [NAN, 1.0],
         [NAN, 1.0], "NaN equals nothing, not even NaN."),
        ("fail_custom_call_almost_eq_sign", "check.expect_almost_eq",
         [-1e-6, 1.0], [1e-6, 1.0], "-1e-6 and 1e-6 differ in sign: not near, "
         "though 2e-6 apart."),
        ("fail_custom_call_almost_eq_zero_sign", "check.expect_almost_eq",
         [0.0, 1.0], [-1e-6, 1.0], "+0 and -1e-6 differ in sign: not near."),
        ("fail_custom_call_almost_eq_tolerance", "check.expect_almost_eq",
         [1.0, 2.0], [1.0011, 2.0], "Off by 1.1e-3: past the custom call's "
         "1e-3."),
    ):
        f = Func(name)
        x = f.input(array(lhs, "f32"), "f32")
        y = f.constant(array(rhs, "f32"), "f32")
        f.line("stablehlo.custom_call @%s(%s, %s) {has_side_effect = true} : %s"
               % (op, x, y, t2))
        funcs.append(f.text(comment=comment))

    f = Func("fail_custom_call_check_eq_sign")
    x = f.input(array([-1e-6, 1.0], "f32"), "f32")
    y = f.constant(array([1e-6, 1.0], "f32"), "f32")
    f.line("%%ok = stablehlo.custom_call @check.eq(%s, %s) : (tensor<2xf32>, "
           "tensor<2xf32>) -> tensor<i1>" % (x, y))
    funcs.append(f.text(comment="custom_call @check.eq on floats: -1e-6 and "
                        "1e-6 differ in sign, so not near."))

    # The StableHLO check dialect's tolerance (absolute) on expect_almost_eq.
    f = Func("test_almost_eq_tolerance")
    x = f.input(array([1.0, 2.0], "f32"), "f32")
    y = f.constant(array([1.05, 2.0], "f32"), "f32")
    f.line("check.expect_almost_eq %s, %s, tolerance = 1.0e-01 : tensor<2xf32>" % (x, y))
    f.line("check.expect_almost_eq %s, %s {tolerance = 1.0e-01} : tensor<2xf32>" % (x, y))
    f.line("check.expect_almost_eq_const %s, dense<[1.05, 2.0]> : tensor<2xf32> "
           "{tolerance = 1.0e-01}" % x)
    f.line('"check.expect_almost_eq"(%s, %s) {tolerance = 1.0e-01 : f64} : '
           "(tensor<2xf32>, tensor<2xf32>) -> ()" % (x, y))
    funcs.append(f.text(comment="Off by 0.05, within the given tolerance 0.1 "
                        "(the default, 1e-4, would fail)."))

    f = Func("fail_almost_eq_tolerance_is_honored")
    x = f.input(array([1.0, 2.0], "f32"), "f32")
    f.line("check.expect_almost_eq_const %s, dense<[1.00005, 2.0]> : tensor<2xf32> "
           "{tolerance = 1.0e-06}" % x)
    funcs.append(f.text(comment="Off by 5e-5: within the default 1e-4 but not "
                        "the given tolerance 1e-6."))

    # In f64, 5.0001 - 5.0 is 0.99999999999977e-4: within the default 1e-4,
    # though the f32 nearest 1e-4 is below it (the check module takes f32
    # tolerances, so the compiler rounds them up).
    f = Func("test_almost_eq_f64_at_the_tolerance")
    x = f.input(array([5.0, -2.0], "f64"), "f64")
    y = f.input(array([5.0001, -2.0], "f64"), "f64")
    f.line("check.expect_almost_eq %s, %s : tensor<2xf64>" % (x, y))
    f.line("check.expect_almost_eq_const %s, dense<[5.0001, -2.0]> : tensor<2xf64>" % x)
    f.line("check.expect_almost_eq_const %s, dense<[5.1, -2.0]> : tensor<2xf64> "
           "{tolerance = 1.0e-01 : f64}" % x)
    funcs.append(f.text(comment="Differences a hair under the tolerance (default "
                        "1e-4, and 0.1) pass in f64."))

    f = Func("fail_almost_eq_f64_past_the_tolerance")
    x = f.input(array([5.0, -2.0], "f64"), "f64")
    f.line("check.expect_almost_eq_const %s, dense<[5.000101, -2.0]> : tensor<2xf64>" % x)
    funcs.append(f.text(comment="Off by 1.01e-4: past the default tolerance."))

    # The check dialect's first spellings (older StableHLO interpreter tests).
    f = Func("test_legacy_check_spellings")
    x = f.input(a, "i32")
    f.line("check.eq %s, %s : tensor<3xi32>" % (x, dense(a, "i32")))
    fx = f.input(fa, "f32")
    f.line("check.almost_eq %s, %s : tensor<3xf32>" % (fx, dense(fa + 5e-5, "f32")))
    funcs.append(f.text(comment="check.eq and check.almost_eq: compare with a constant."))

    # interpreter.run_parallel (the StableHLO interpreter's harness): the
    # program runs as R x P processes instantiated in the caller, with
    # collective_permute, replica_id and partition_id between them.
    funcs.append(
        "  // A process program: (x + 1) moved along source_target_pairs, then\n"
        "  // doubled, with its replica and partition ids.\n"
        "  func.func private @permute_ring(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<ui32>, "
        "tensor<ui32>) {\n"
        "    %one = stablehlo.constant dense<1.0> : tensor<3xf32>\n"
        "    %y = stablehlo.add %x, %one : tensor<3xf32>\n"
        "    %p = \"stablehlo.collective_permute\"(%y) {source_target_pairs = "
        "dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>} : (tensor<3xf32>) -> "
        "tensor<3xf32>\n"
        "    %z = stablehlo.add %p, %p : tensor<3xf32>\n"
        "    %r = stablehlo.replica_id : tensor<ui32>\n"
        "    %q = stablehlo.partition_id : tensor<ui32>\n"
        "    return %z, %r, %q : tensor<3xf32>, tensor<ui32>, tensor<ui32>\n"
        "  }")
    funcs.append(
        "  // Partitions 0 and 2 swap (channel handle 1: across partitions); 1\n"
        "  // receives nothing.\n"
        "  func.func private @permute_partitions(%x: tensor<2xi32>) -> tensor<2xi32> {\n"
        "    %p = \"stablehlo.collective_permute\"(%x) {source_target_pairs = "
        "dense<[[0, 2], [2, 0]]> : tensor<2x2xi64>, channel_handle = "
        "#stablehlo.channel_handle<handle = 1, type = 0>} : (tensor<2xi32>) -> tensor<2xi32>\n"
        "    return %p : tensor<2xi32>\n"
        "  }")
    f = Func("test_run_parallel_collective_permute")
    xs = [array([1.0 + 10 * k, 2.0 + 10 * k, -3.0 - k], "f32") for k in range(4)]
    ins = [f.input(x, "f32") for x in xs]
    r = f.op('"interpreter.run_parallel"(%s) {programs = [[@permute_ring], [@permute_ring], '
             '[@permute_ring], [@permute_ring]]} : (%s) -> (%s)'
             % (", ".join(ins), ", ".join(["tensor<3xf32>"] * 4),
                ", ".join(["tensor<3xf32>, tensor<ui32>, tensor<ui32>"] * 4)), count=12)
    for k in range(4):
        src = (k + 3) % 4
        f.expect("%s#%d" % (r, 3 * k), array(2 * (np.asarray(xs[src], np.float64) + 1), "f32"),
                 "f32", 0.0, 0.0)
        f.expect("%s#%d" % (r, 3 * k + 1), array(k, "ui32"), "ui32")
        f.expect("%s#%d" % (r, 3 * k + 2), array(0, "ui32"), "ui32")
    ys = [array([k, -k - 1], "i32") for k in range(6)]
    ins = [f.input(y, "i32") for y in ys]
    r = f.op('"interpreter.run_parallel"(%s) {programs = [[@permute_partitions, '
             '@permute_partitions, @permute_partitions], [@permute_partitions, '
             '@permute_partitions, @permute_partitions]]} : (%s) -> (%s)'
             % (", ".join(ins), ", ".join(["tensor<2xi32>"] * 6),
                ", ".join(["tensor<2xi32>"] * 6)), count=6)
    for rep in range(2):
        for part in range(3):
            src = {0: 2, 2: 0}.get(part)
            want = ys[rep * 3 + src] if src is not None else array([0, 0], "i32")
            f.expect("%s#%d" % (r, rep * 3 + part), want, "i32")
    funcs.append(f.text(comment="interpreter.run_parallel: 4 replicas passing (x + 1) "
                        "around a ring with their replica and partition ids, and 2 "
                        "replicas of 3 partitions swapping across partitions (the "
                        "middle one gets zeros); each process's results in turn."))

    funcs.append(
        "  // all_reduce of two operands: maximum among replicas {0, 2} and {3, 1};\n"
        "  // acc * 2 + next over all four in group order (an order-dependent fold).\n"
        "  func.func private @reduce_groups(%x: tensor<2xf32>, %y: tensor<3xi32>) -> "
        "(tensor<2xf32>, tensor<3xi32>) {\n"
        "    %m = \"stablehlo.all_reduce\"(%x) ({\n"
        "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "      %r = stablehlo.maximum %a, %b : tensor<f32>\n"
        "      stablehlo.return %r : tensor<f32>\n"
        "    }) {replica_groups = dense<[[0, 2], [3, 1]]> : tensor<2x2xi64>} : "
        "(tensor<2xf32>) -> tensor<2xf32>\n"
        "    %f = \"stablehlo.all_reduce\"(%y) ({\n"
        "    ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
        "      %two = stablehlo.constant dense<2> : tensor<i32>\n"
        "      %d = stablehlo.multiply %a, %two : tensor<i32>\n"
        "      %r = stablehlo.add %d, %b : tensor<i32>\n"
        "      stablehlo.return %r : tensor<i32>\n"
        "    }) {replica_groups = dense<[[3, 0, 1, 2]]> : tensor<1x4xi64>} : "
        "(tensor<3xi32>) -> tensor<3xi32>\n"
        "    return %m, %f : tensor<2xf32>, tensor<3xi32>\n"
        "  }")
    add_body = ("({\n    ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
                "      %r = stablehlo.add %a, %b : tensor<i32>\n"
                "      stablehlo.return %r : tensor<i32>\n    })")
    funcs.append(
        "  // Sums on 2 replicas x 2 partitions: each replica's partitions\n"
        "  // (channel handle 1), flattened ids {0, 3} and {1, 2}, and the mesh\n"
        "  // x = 2, y = 2 reduced over x.\n"
        "  func.func private @reduce_modes(%x: tensor<i32>) -> (tensor<i32>, tensor<i32>, "
        "tensor<i32>) {\n"
        "    %s = \"stablehlo.all_reduce\"(%x) " + add_body + " {replica_groups = "
        "dense<[[0], [1]]> : tensor<2x1xi64>, channel_handle = "
        "#stablehlo.channel_handle<handle = 1, type = 0>} : (tensor<i32>) -> tensor<i32>\n"
        "    %g = \"stablehlo.all_reduce\"(%x) " + add_body + " {replica_groups = "
        "dense<[[0, 3], [1, 2]]> : tensor<2x2xi64>, channel_handle = "
        "#stablehlo.channel_handle<handle = 2, type = 0>, use_global_device_ids} : "
        "(tensor<i32>) -> tensor<i32>\n"
        "    %h = \"stablehlo.all_reduce\"(%x) " + add_body + " {replica_groups = "
        "#stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = "
        "[#stablehlo.mesh_axis<name = \"x\", size = 2>, #stablehlo.mesh_axis<name = "
        "\"y\", size = 2>]>, axes = [#stablehlo.axis_ref<name = \"x\">]>} : "
        "(tensor<i32>) -> tensor<i32>\n"
        "    return %s, %g, %h : tensor<i32>, tensor<i32>, tensor<i32>\n"
        "  }")
    f = Func("test_run_parallel_all_reduce")
    xs = [array([1.5 * k - 2.0, 4.0 - k], "f32") for k in range(4)]
    ys = [array([k + 1, -k, 3 * k], "i32") for k in range(4)]
    ins = []
    for k in range(4):
        ins += [f.input(xs[k], "f32"), f.input(ys[k], "i32")]
    r = f.op('"interpreter.run_parallel"(%s) {programs = [[@reduce_groups], [@reduce_groups], '
             '[@reduce_groups], [@reduce_groups]]} : (%s) -> (%s)'
             % (", ".join(ins), ", ".join(["tensor<2xf32>, tensor<3xi32>"] * 4),
                ", ".join(["tensor<2xf32>, tensor<3xi32>"] * 4)), count=8)
    fold = np.zeros(3, np.int64)
    for i, k in enumerate((3, 0, 1, 2)):
        fold = np.asarray(ys[k], np.int64) if i == 0 else fold * 2 + np.asarray(ys[k])
    for k in range(4):
        other = {0: 2, 2: 0, 1: 3, 3: 1}[k]
        f.expect("%s#%d" % (r, 2 * k), np.maximum(xs[k], xs[other]), "f32", 0.0, 0.0)
        f.expect("%s#%d" % (r, 2 * k + 1), array(fold, "i32"), "i32")
    zs = [array(10 ** k, "i32") for k in range(4)]
    ins = [f.input(z, "i32") for z in zs]
    r = f.op('"interpreter.run_parallel"(%s) {programs = [[@reduce_modes, @reduce_modes], '
             '[@reduce_modes, @reduce_modes]]} : (%s) -> (%s)'
             % (", ".join(ins), ", ".join(["tensor<i32>"] * 4),
                ", ".join(["tensor<i32>, tensor<i32>, tensor<i32>"] * 4)), count=12)
    v = [10 ** k for k in range(4)]
    for k in range(4):
        f.expect("%s#%d" % (r, 3 * k), array(v[k // 2 * 2] + v[k // 2 * 2 + 1], "i32"), "i32")
        f.expect("%s#%d" % (r, 3 * k + 1), array(v[k] + v[3 - k], "i32"), "i32")
        f.expect("%s#%d" % (r, 3 * k + 2), array(v[k % 2] + v[k % 2 + 2], "i32"), "i32")
    funcs.append(f.text(comment="interpreter.run_parallel with all_reduce: replica groups "
                        "(maximum), an order-dependent fold in group order, a replica's "
                        "partitions, flattened ids and mesh axes (sums)."))

    funcs.append(
        "  // all_gather of two operands: replicas {0, 2} and {3, 1} along\n"
        "  // dimension 1; all four along dimension 0 (flattened ids, channel 1).\n"
        "  func.func private @gather_groups(%x: tensor<2x2xf32>, %y: tensor<3xi32>) -> "
        "(tensor<2x4xf32>, tensor<12xi32>) {\n"
        "    %g = \"stablehlo.all_gather\"(%x) {all_gather_dim = 1 : i64, replica_groups = "
        "dense<[[0, 2], [3, 1]]> : tensor<2x2xi64>} : (tensor<2x2xf32>) -> tensor<2x4xf32>\n"
        "    %h = \"stablehlo.all_gather\"(%y) {all_gather_dim = 0 : i64, replica_groups = "
        "dense<[[3, 0, 1, 2]]> : tensor<1x4xi64>, channel_handle = "
        "#stablehlo.channel_handle<handle = 1, type = 0>, use_global_device_ids} : "
        "(tensor<3xi32>) -> tensor<12xi32>\n"
        "    return %g, %h : tensor<2x4xf32>, tensor<12xi32>\n"
        "  }")
    f = Func("test_run_parallel_all_gather")
    xs = [array([[k, 1.5 * k], [-k - 0.5, 10.0 + k]], "f32") for k in range(4)]
    ys = [array([k + 1, -k, 7 * k], "i32") for k in range(4)]
    ins = []
    for k in range(4):
        ins += [f.input(xs[k], "f32"), f.input(ys[k], "i32")]
    r = f.op('"interpreter.run_parallel"(%s) {programs = [[@gather_groups], [@gather_groups], '
             '[@gather_groups], [@gather_groups]]} : (%s) -> (%s)'
             % (", ".join(ins), ", ".join(["tensor<2x2xf32>, tensor<3xi32>"] * 4),
                ", ".join(["tensor<2x4xf32>, tensor<12xi32>"] * 4)), count=8)
    flat = np.concatenate([ys[k] for k in (3, 0, 1, 2)])
    for k in range(4):
        group = {0: (0, 2), 2: (0, 2), 1: (3, 1), 3: (3, 1)}[k]
        f.expect("%s#%d" % (r, 2 * k), np.concatenate([xs[j] for j in group], axis=1),
                 "f32", 0.0, 0.0)
        f.expect("%s#%d" % (r, 2 * k + 1), array(flat, "i32"), "i32")
    funcs.append(f.text(comment="interpreter.run_parallel with all_gather: replica groups "
                        "along dimension 1, flattened ids in group order along dimension 0."))

    funcs.append(
        "  // reduce_scatter: sums over replicas {1, 0} scattered along dimension\n"
        "  // 1; acc * 2 + next over all four in group order {2, 3, 0, 1}, split\n"
        "  // along dimension 0.\n"
        "  func.func private @scatter_groups(%x: tensor<2x4xf32>, %y: tensor<8xi32>) -> "
        "(tensor<2x2xf32>, tensor<2xi32>) {\n"
        "    %s = \"stablehlo.reduce_scatter\"(%x) ({\n"
        "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "      %r = stablehlo.add %a, %b : tensor<f32>\n"
        "      stablehlo.return %r : tensor<f32>\n"
        "    }) {scatter_dimension = 1 : i64, replica_groups = dense<[[1, 0], [2, 3]]> : "
        "tensor<2x2xi64>} : (tensor<2x4xf32>) -> tensor<2x2xf32>\n"
        "    %f = \"stablehlo.reduce_scatter\"(%y) ({\n"
        "    ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
        "      %two = stablehlo.constant dense<2> : tensor<i32>\n"
        "      %d = stablehlo.multiply %a, %two : tensor<i32>\n"
        "      %r = stablehlo.add %d, %b : tensor<i32>\n"
        "      stablehlo.return %r : tensor<i32>\n"
        "    }) {scatter_dimension = 0 : i64, replica_groups = dense<[[2, 3, 0, 1]]> : "
        "tensor<1x4xi64>} : (tensor<8xi32>) -> tensor<2xi32>\n"
        "    return %s, %f : tensor<2x2xf32>, tensor<2xi32>\n"
        "  }")
    f = Func("test_run_parallel_reduce_scatter")
    xs = [array(np.arange(8).reshape(2, 4) * (k + 1) - 3.0 * k, "f32") for k in range(4)]
    ys = [array(np.arange(8) - 2 * k, "i32") for k in range(4)]
    ins = []
    for k in range(4):
        ins += [f.input(xs[k], "f32"), f.input(ys[k], "i32")]
    r = f.op('"interpreter.run_parallel"(%s) {programs = [[@scatter_groups], [@scatter_groups], '
             '[@scatter_groups], [@scatter_groups]]} : (%s) -> (%s)'
             % (", ".join(ins), ", ".join(["tensor<2x4xf32>, tensor<8xi32>"] * 4),
                ", ".join(["tensor<2x2xf32>, tensor<2xi32>"] * 4)), count=8)
    order = (2, 3, 0, 1)
    fold = np.zeros(8, np.int64)
    for i, k in enumerate(order):
        fold = np.asarray(ys[k], np.int64) if i == 0 else fold * 2 + np.asarray(ys[k])
    for k in range(4):
        group = (1, 0) if k in (0, 1) else (2, 3)
        total = np.asarray(xs[group[0]], np.float64) + np.asarray(xs[group[1]])
        i = group.index(k)
        f.expect("%s#%d" % (r, 2 * k), array(total[:, 2 * i:2 * i + 2], "f32"), "f32", 0.0, 0.0)
        j = order.index(k)
        f.expect("%s#%d" % (r, 2 * k + 1), array(fold[2 * j:2 * j + 2], "i32"), "i32")
    funcs.append(f.text(comment="interpreter.run_parallel with reduce_scatter: sums of "
                        "replica pairs cut along dimension 1, an order-dependent fold of "
                        "all four cut along dimension 0, each part to its place in the "
                        "group."))

    funcs.append(
        "  // collective_broadcast on 2 replicas x 3 partitions: replica 1's x to\n"
        "  // both replicas of its partition; with channel handle 1 partition 2's\n"
        "  // y to partitions 2 and 0 of its replica (partition 1 gets zeros).\n"
        "  func.func private @broadcast_groups(%x: tensor<2xf32>, %y: tensor<3xi32>) -> "
        "(tensor<2xf32>, tensor<3xi32>) {\n"
        "    %a = \"stablehlo.collective_broadcast\"(%x) {replica_groups = "
        "dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>\n"
        "    %b = \"stablehlo.collective_broadcast\"(%y) {replica_groups = "
        "dense<[[2, 0]]> : tensor<1x2xi64>, channel_handle = "
        "#stablehlo.channel_handle<handle = 1, type = 0>} : (tensor<3xi32>) -> tensor<3xi32>\n"
        "    return %a, %b : tensor<2xf32>, tensor<3xi32>\n"
        "  }")
    f = Func("test_run_parallel_collective_broadcast")
    xs = [array([k + 0.25, -2.0 * k], "f32") for k in range(6)]
    ys = [array([k, 10 * k + 1, -k - 5], "i32") for k in range(6)]
    ins = []
    for k in range(6):
        ins += [f.input(xs[k], "f32"), f.input(ys[k], "i32")]
    row = "[@broadcast_groups, @broadcast_groups, @broadcast_groups]"
    r = f.op('"interpreter.run_parallel"(%s) {programs = [%s, %s]} : (%s) -> (%s)'
             % (", ".join(ins), row, row, ", ".join(["tensor<2xf32>, tensor<3xi32>"] * 6),
                ", ".join(["tensor<2xf32>, tensor<3xi32>"] * 6)), count=12)
    for rep in range(2):
        for part in range(3):
            k = rep * 3 + part
            f.expect("%s#%d" % (r, 2 * k), xs[1 * 3 + part], "f32", 0.0, 0.0)
            want = ys[rep * 3 + 2] if part in (0, 2) else array([0, 0, 0], "i32")
            f.expect("%s#%d" % (r, 2 * k + 1), want, "i32")
    funcs.append(
        "  // has_dynamic_root: the last operand names, per data operand, the\n"
        "  // place in the group {2, 0, 1} of the process that sends it.\n"
        "  func.func private @broadcast_root(%x: tensor<2xf32>, %y: tensor<3xi32>, "
        "%root: tensor<2xi32>) -> (tensor<2xf32>, tensor<3xi32>) {\n"
        "    %r:2 = \"stablehlo.collective_broadcast\"(%x, %y, %root) {replica_groups = "
        "dense<[[2, 0, 1]]> : tensor<1x3xi64>, has_dynamic_root} : (tensor<2xf32>, "
        "tensor<3xi32>, tensor<2xi32>) -> (tensor<2xf32>, tensor<3xi32>)\n"
        "    return %r#0, %r#1 : tensor<2xf32>, tensor<3xi32>\n"
        "  }")
    ins = []
    for k in range(3):
        ins += [f.input(xs[k], "f32"), f.input(ys[k], "i32"), f.input(array([2, 1], "i32"), "i32")]
    r = f.op('"interpreter.run_parallel"(%s) {programs = [[@broadcast_root], [@broadcast_root], '
             '[@broadcast_root]]} : (%s) -> (%s)'
             % (", ".join(ins), ", ".join(["tensor<2xf32>, tensor<3xi32>, tensor<2xi32>"] * 3),
                ", ".join(["tensor<2xf32>, tensor<3xi32>"] * 3)), count=6)
    group = (2, 0, 1)
    for k in range(3):
        f.expect("%s#%d" % (r, 2 * k), xs[group[2]], "f32", 0.0, 0.0)
        f.expect("%s#%d" % (r, 2 * k + 1), ys[group[1]], "i32")
    funcs.append(f.text(comment="interpreter.run_parallel with collective_broadcast: "
                        "across replicas, across partitions with a partition in no "
                        "group (zeros), and with has_dynamic_root (a root per operand "
                        "given at run time)."))

    funcs.append(
        "  // all_to_all: replicas {0, 2} and {3, 1} split dimension 1 in 2 and\n"
        "  // concatenate along 0; all four in group order {3, 0, 1, 2} split\n"
        "  // dimension 0 in 4 and concatenate along 1.\n"
        "  func.func private @to_all_groups(%x: tensor<2x4xf32>, %y: tensor<4x2xi32>) -> "
        "(tensor<4x2xf32>, tensor<1x8xi32>) {\n"
        "    %a = \"stablehlo.all_to_all\"(%x) {split_dimension = 1 : i64, "
        "concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = "
        "dense<[[0, 2], [3, 1]]> : tensor<2x2xi64>} : (tensor<2x4xf32>) -> tensor<4x2xf32>\n"
        "    %b = \"stablehlo.all_to_all\"(%y) {split_dimension = 0 : i64, "
        "concat_dimension = 1 : i64, split_count = 4 : i64, replica_groups = "
        "dense<[[3, 0, 1, 2]]> : tensor<1x4xi64>} : (tensor<4x2xi32>) -> tensor<1x8xi32>\n"
        "    return %a, %b : tensor<4x2xf32>, tensor<1x8xi32>\n"
        "  }")
    f = Func("test_run_parallel_all_to_all")
    xs = [array(np.arange(8).reshape(2, 4) + 0.5 * k, "f32") for k in range(4)]
    ys = [array(np.arange(8).reshape(4, 2) * (k + 2) - k, "i32") for k in range(4)]
    ins = []
    for k in range(4):
        ins += [f.input(xs[k], "f32"), f.input(ys[k], "i32")]
    r = f.op('"interpreter.run_parallel"(%s) {programs = [[@to_all_groups], [@to_all_groups], '
             '[@to_all_groups], [@to_all_groups]]} : (%s) -> (%s)'
             % (", ".join(ins), ", ".join(["tensor<2x4xf32>, tensor<4x2xi32>"] * 4),
                ", ".join(["tensor<4x2xf32>, tensor<1x8xi32>"] * 4)), count=8)
    order = (3, 0, 1, 2)
    for k in range(4):
        group = (0, 2) if k in (0, 2) else (3, 1)
        i = group.index(k)
        want = np.concatenate([np.split(np.asarray(xs[j]), 2, axis=1)[i] for j in group], axis=0)
        f.expect("%s#%d" % (r, 2 * k), array(want, "f32"), "f32", 0.0, 0.0)
        i = order.index(k)
        want = np.concatenate([np.split(np.asarray(ys[j]), 4, axis=0)[i] for j in order], axis=1)
        f.expect("%s#%d" % (r, 2 * k + 1), array(want, "i32"), "i32")
    funcs.append(f.text(comment="interpreter.run_parallel with all_to_all: pairs of "
                        "replicas exchanging halves of dimension 1 (stacked along 0), all "
                        "four exchanging quarters of dimension 0 (laid along 1)."))

    # interpreter.probe records each value it passes; expect_serialized_eq
    # checks a recording (the first by default, `iter = N` the N+1st).
    probe_loop = (
        "%%r:2 = stablehlo.while(%%i = %s, %%s = %s) : tensor<i64>, tensor<3xf32>\n"
        "    cond {\n"
        "      %%c = stablehlo.compare LT, %%i, %s : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
        "      stablehlo.return %%c : tensor<i1>\n"
        "    } do {\n"
        "      %%one = stablehlo.constant dense<1> : tensor<i64>\n"
        "      %%n = stablehlo.add %%i, %%one : tensor<i64>\n"
        "      %%d = stablehlo.add %%s, %%s : tensor<3xf32>\n"
        "      %%p = interpreter.probe %%d, probe_id = \"doubling\" : tensor<3xf32>\n"
        "      stablehlo.return %%n, %%p : tensor<i64>, tensor<3xf32>\n"
        "    }")
    f = Func("test_probe")
    zero = f.constant(array(0, "i64"), "i64")
    three = f.constant(array(3, "i64"), "i64")
    start = f.input(array([1.0, -0.5, 3.0], "f32"), "f32")
    f.line(probe_loop % (zero, start, three))
    for k in range(3):
        want = f.constant(array(np.asarray([1.0, -0.5, 3.0]) * 2 ** (k + 1), "f32"), "f32")
        f.line('check.expect_serialized_eq %s, probe_id = "doubling", iter = %d : '
               'tensor<3xf32>' % (want, k))
    z = f.input(carray([1 + 2j, -3 + 0.5j], "complex<f32>"), "complex<f32>")
    w = f.op("stablehlo.multiply %s, %s : tensor<2xcomplex<f32>>" % (z, z))
    q = f.op('interpreter.probe %s, probe_id = "square" : tensor<2xcomplex<f32>>' % w)
    f.line('check.expect_serialized_eq %s, probe_id = "square" : tensor<2xcomplex<f32>>' % q)
    want = f.constant(carray([-3 + 4j, 8.75 - 3j], "complex<f32>"), "complex<f32>")
    f.line('check.expect_serialized_eq %s, probe_id = "square" : tensor<2xcomplex<f32>>'
           % want)
    funcs.append(f.text(comment="interpreter.probe in a loop (a recording per iteration) "
                        "and on a complex value, checked by expect_serialized_eq."))

    f = Func("fail_probe_not_reached")
    zero = f.constant(array(0, "i64"), "i64")
    three = f.constant(array(3, "i64"), "i64")
    start = f.input(array([1.0, -0.5, 3.0], "f32"), "f32")
    f.line(probe_loop % (zero, start, three))
    f.line('check.expect_serialized_eq %s, probe_id = "doubling", iter = 3 : tensor<3xf32>'
           % start)
    funcs.append(f.text(comment="The probe ran 3 times: a 4th recording does not exist."))

    f = Func("fail_probe_wrong_recording")
    zero = f.constant(array(0, "i64"), "i64")
    three = f.constant(array(3, "i64"), "i64")
    start = f.input(array([1.0, -0.5, 3.0], "f32"), "f32")
    f.line(probe_loop % (zero, start, three))
    want = f.constant(array([4.0, -2.0, 12.0], "f32"), "f32")
    f.line('check.expect_serialized_eq %s, probe_id = "doubling" : tensor<3xf32>' % want)
    funcs.append(f.text(comment="The first recording is [2, -1, 6], not the second's."))

    f = Func("fail_legacy_almost_eq")
    fx = f.input(fa, "f32")
    f.line("check.almost_eq %s, %s : tensor<3xf32>" % (fx, dense(fa + 1e-3, "f32")))
    funcs.append(f.text(comment="Off by 1e-3: past check.almost_eq's 1e-4."))
    return funcs


def testdata_main_module():
    """The older StableHLO testdata layout: one public @main (no test_
    prefix; grt-check runs it when there are no test_*/fail_* exports)
    that returns the i1 of `custom_call @check.eq`, exact for integers and
    within 1e-4 for floats."""
    x = array([0.5, -1.25, 3.0], "f32")
    y = array(np.exp(x.astype(np.float64)), "f32")
    i = array([3, -7, 12], "i32")
    return """// The older layout of the StableHLO testdata suite: @main returns the
// tensor<i1> of custom_call @check.eq (exact for integers, within 1e-4 for
// floats); grt-check runs 'main' since no export is named test_* or fail_*.
// Generated by scripts/gen_e2e_stablehlo.py; do not edit.
module @jit_testcase {
  func.func public @main() -> tensor<i1> {
    %%0 = call @inputs() : () -> %(tx)s
    %%1 = call @expected() : () -> %(tx)s
    %%2 = stablehlo.exponential %%0 : %(tx)s
    %%3 = stablehlo.custom_call @check.eq(%%2, %%1) : (%(tx)s, %(tx)s) -> tensor<i1>
    %%4 = stablehlo.constant %(di)s : %(ti)s
    %%5 = util.unfoldable_constant %(di)s : %(ti)s
    %%6 = stablehlo.custom_call @check.eq(%%5, %%4) : (%(ti)s, %(ti)s) -> tensor<i1>
    %%7 = stablehlo.and %%3, %%6 : tensor<i1>
    return %%7 : tensor<i1>
  }
  func.func private @inputs() -> %(tx)s {
    %%0 = stablehlo.constant %(dx)s : %(tx)s
    return %%0 : %(tx)s
  }
  func.func private @expected() -> %(tx)s {
    %%0 = stablehlo.constant %(dy)s : %(tx)s
    return %%0 : %(tx)s
  }
}
""" % dict(tx=t(x, "f32"), ti=t(i, "i32"), dx=dense(x, "f32"), dy=dense(y, "f32"),
           di=dense(i, "i32"))


def jax_testdata_module():
    """A whole module in the layout of the StableHLO testdata suite (made by
    JAX): @inputs/@expected helpers, check.expect_close via custom_call,
    results with jax.result_info, loc(...) and #loc aliases."""
    rng = np.random.default_rng(8)
    a = array(rng.uniform(-2, 2, (2, 3)), "f32")
    b = array(rng.uniform(-2, 2, (3, 4)), "f32")
    expected = array(np.tanh(a.astype(np.float64) @ b), "f32")
    ta, tb, tr = t(a, "f32"), t(b, "f32"), t(expected, "f32")
    layout = '{mhlo.layout_mode = "default"}'
    return """// A module in the layout of the StableHLO testdata suite (jax2tf / JAX
// export): helper functions for inputs and expected values, the check as a
// custom_call, results with jax.result_info, loc(...) and #loc aliases.
// Generated by scripts/gen_e2e_stablehlo.py; do not edit.
module @jit_test_tanh_dot attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @test_tanh_dot() -> (%(tr)s {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %%0:2 = call @inputs() : () -> (%(ta)s, %(tb)s) loc(#loc2)
    %%1 = call @expected() : () -> %(tr)s loc(#loc2)
    %%2 = stablehlo.dot_general %%0#0, %%0#1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (%(ta)s, %(tb)s) -> %(tr)s loc(#loc3)
    %%3 = stablehlo.tanh %%2 : %(tr)s loc(#loc4)
    stablehlo.custom_call @check.expect_close(%%3, %%1) {has_side_effect = true} : (%(tr)s, %(tr)s) -> () loc(#loc5)
    return %%3 : %(tr)s loc(#loc)
  } loc(#loc)
  func.func private @inputs() -> (%(ta)s %(layout)s, %(tb)s %(layout)s) {
    %%cst = stablehlo.constant %(da)s : %(ta)s loc(#loc6)
    %%cst_0 = stablehlo.constant %(db)s : %(tb)s loc(#loc6)
    return %%cst, %%cst_0 : %(ta)s, %(tb)s loc(#loc)
  } loc(#loc)
  func.func private @expected() -> (%(tr)s %(layout)s) {
    %%cst = stablehlo.constant %(de)s : %(tr)s loc(#loc6)
    return %%cst : %(tr)s loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("tests/e2e/stablehlo/test_tanh_dot.py":12:0)
#loc2 = loc("jit(test_tanh_dot)/jit(main)/pjit[name=inputs]"(#loc1))
#loc3 = loc("jit(test_tanh_dot)/jit(main)/dot_general[dimension_numbers=(([1], [0]), ([], []))]"(#loc1))
#loc4 = loc("jit(test_tanh_dot)/jit(main)/tanh"(#loc1))
#loc5 = loc("jit(test_tanh_dot)/jit(main)/check"(#loc1))
#loc6 = loc("jit(test_tanh_dot)/jit(main)/constant"(#loc1))
""" % dict(ta=ta, tb=tb, tr=tr, layout=layout, da=dense(a, "f32"),
           db=dense(b, "f32"), de=dense(expected, "f32"))


#===----------------------------------------------------------------------===#
# Fusion: the patterns dispatch formation groups (chains, producers into
# reductions, matmul/conv epilogues, values with several uses)
#===----------------------------------------------------------------------===#

def bcast(f, value, src_shape, dst_shape, dims, elem="f32"):
    return f.op("stablehlo.broadcast_in_dim %s, dims = %s : (%s) -> %s"
                % (value, list(dims), tensor_type(src_shape, elem),
                   tensor_type(dst_shape, elem)))


def reduce_op(f, value, shape, dims, body, init, elem="f32"):
    out = tuple(d for i, d in enumerate(shape) if i not in dims)
    c = f.op("stablehlo.constant dense<%s> : tensor<%s>" % (init, elem))
    return f.op("stablehlo.reduce(%s init: %s) applies stablehlo.%s across "
                "dimensions = %s : (%s, tensor<%s>) -> %s"
                % (value, c, body, list(dims), tensor_type(shape, elem), elem,
                   tensor_type(out, elem))), out


def gen_fusion():
    funcs = []
    rng = np.random.default_rng(9)
    e = "f32"
    tol = TOL[e]

    # jax.nn.relu(x @ w + b)
    f = Func("test_dense_bias_relu")
    x = array(rng.uniform(-1, 1, (5, 24)), e)
    w = array(rng.uniform(-1, 1, (24, 12)), e)
    b = array(rng.uniform(-1, 1, (12,)), e)
    vx, vw, vb = f.input(x, e), f.input(w, e), f.input(b, e)
    y = f.op("stablehlo.dot_general %s, %s, contracting_dims = [1] x [0], "
             "precision = [DEFAULT, DEFAULT] : (tensor<5x24xf32>, tensor<24x12xf32>) "
             "-> tensor<5x12xf32>" % (vx, vw))
    bb = bcast(f, vb, (12,), (5, 12), [1])
    z = f.op("stablehlo.add %s, %s : tensor<5x12xf32>" % (y, bb))
    zero = f.op("stablehlo.constant dense<0.000000e+00> : tensor<f32>")
    zb = bcast(f, zero, (), (5, 12), [])
    r = f.op("stablehlo.maximum %s, %s : tensor<5x12xf32>" % (z, zb))
    f.expect(r, array(np.maximum(f64(x) @ w + b, 0), e), e, *tol)
    funcs.append(f.text(comment="A dense layer: matmul with a bias and relu "
                        "epilogue."))

    # jax.nn.relu(conv(x, k) + b)
    f = Func("test_conv_bias_relu")
    x = array(rng.uniform(-1, 1, (2, 6, 5, 3)), e)
    k = array(rng.uniform(-1, 1, (3, 3, 3, 4)), e)
    b = array(rng.uniform(-1, 1, (4,)), e)
    vx, vk, vb = f.input(x, e), f.input(k, e), f.input(b, e)
    y = f.op("stablehlo.convolution(%s, %s) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]"
             "->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = "
             "1 : i64, feature_group_count = 1 : i64} : (tensor<2x6x5x3xf32>, "
             "tensor<3x3x3x4xf32>) -> tensor<2x6x5x4xf32>" % (vx, vk))
    bb = bcast(f, vb, (4,), (2, 6, 5, 4), [3])
    z = f.op("stablehlo.add %s, %s : tensor<2x6x5x4xf32>" % (y, bb))
    zero = f.op("stablehlo.constant dense<0.000000e+00> : tensor<2x6x5x4xf32>")
    r = f.op("stablehlo.maximum %s, %s : tensor<2x6x5x4xf32>" % (z, zero))
    ref = conv_ref(x, k, [1, 1], [[1, 1], [1, 1]], [1, 1], [1, 1], 1)
    f.expect(r, array(np.maximum(ref + b, 0), e), e, *tol)
    funcs.append(f.text())

    # NCHW convolutions on the CPU's planar GEMM path, whose epilogue runs
    # along a block's pixels as one loop when every index it uses is the
    # pixel's row-major one (bias per channel, a residual of the output's
    # shape), and row by row otherwise (a value broadcast along rows or
    # columns). Their own rng, so the tests above and below keep theirs.
    crng = np.random.default_rng(17)
    nchw = "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]"
    for name, xs, ws, stride, pad, bcast_rows in [
            ("test_conv_nchw_residual_relu", (1, 5, 13, 11), (10, 5, 3, 3),
             [2, 2], [[1, 1], [1, 1]], False),
            ("test_conv_nchw_1x1_residual_relu", (2, 6, 5, 7), (9, 6, 1, 1),
             [1, 1], [[0, 0], [0, 0]], False),
            ("test_conv_nchw_row_col_broadcast", (1, 4, 9, 7), (6, 4, 3, 3),
             [1, 1], [[1, 1], [1, 1]], True),
            # Stems (at most 4 input channels, stride 2 across: the CPU's
            # stem path): a 7x7/2 on odd sizes; a 3x3/2 over two images
            # with 43 output channels and the row-by-row epilogue; one
            # input channel, stride 3 down, asymmetric padding.
            ("test_conv_nchw_stem_7x7_s2", (1, 3, 23, 29), (10, 3, 7, 7),
             [2, 2], [[3, 3], [3, 3]], False),
            ("test_conv_nchw_stem_3x3_s2_rows", (2, 3, 17, 15), (43, 3, 3, 3),
             [2, 2], [[1, 1], [1, 1]], True),
            ("test_conv_nchw_stem_1ch_asymmetric", (1, 1, 12, 19), (7, 1, 5, 4),
             [3, 2], [[0, 2], [2, 1]], False)]:
        f = Func(name)
        x = array(crng.uniform(-1, 1, xs), e)
        k = array(crng.uniform(-1, 1, ws), e)
        ref = np.transpose(conv_ref(np.transpose(x, (0, 2, 3, 1)),
                                    np.transpose(k, (2, 3, 1, 0)), stride, pad,
                                    [1, 1], [1, 1], 1), (0, 3, 1, 2))
        os_ = ref.shape
        ot = tensor_type(os_, e)
        vx, vk = f.input(x, e), f.input(k, e)
        y = f.op("stablehlo.convolution(%s, %s) dim_numbers = %s, window = "
                 "{stride = %s, pad = %s} {batch_group_count = 1 : i64, "
                 "feature_group_count = 1 : i64} : (%s, %s) -> %s"
                 % (vx, vk, nchw, stride, pad, type_of(x, e), type_of(k, e), ot))
        b = array(crng.uniform(-1, 1, (os_[1],)), e)
        vb = f.input(b, e)
        z = f.op("stablehlo.add %s, %s : %s"
                 % (y, bcast(f, vb, (os_[1],), os_, [1]), ot))
        if bcast_rows:
            # + r[y] (along the rows) + c[x] (along the columns)
            rv = array(crng.uniform(-1, 1, (os_[2],)), e)
            cv = array(crng.uniform(-1, 1, (os_[3],)), e)
            vr, vc = f.input(rv, e), f.input(cv, e)
            z = f.op("stablehlo.add %s, %s : %s"
                     % (z, bcast(f, vr, (os_[2],), os_, [2]), ot))
            z = f.op("stablehlo.add %s, %s : %s"
                     % (z, bcast(f, vc, (os_[3],), os_, [3]), ot))
            want = f64(ref) + f64(b)[None, :, None, None] + \
                f64(rv)[None, None, :, None] + f64(cv)[None, None, None, :]
        else:
            res = array(crng.uniform(-1, 1, os_), e)
            vres = f.input(res, e)
            z = f.op("stablehlo.add %s, %s : %s" % (z, vres, ot))
            want = f64(ref) + f64(b)[None, :, None, None] + f64(res)
        zero = f.op("stablehlo.constant dense<0.000000e+00> : %s" % ot)
        r = f.op("stablehlo.maximum %s, %s : %s" % (z, zero, ot))
        f.expect(r, array(np.maximum(want, 0), e), e, *tol)
        funcs.append(f.text())

    # jax.nn.softmax(x, axis=-1) on rows
    f = Func("test_softmax_rows")
    x = array(rng.uniform(-5, 5, (4, 33)), e)
    vx = f.input(x, e)
    m, _ = reduce_op(f, vx, (4, 33), [1], "maximum", "0xFF800000")
    mb = bcast(f, m, (4,), (4, 33), [0])
    d = f.op("stablehlo.subtract %s, %s : tensor<4x33xf32>" % (vx, mb))
    ex = f.op("stablehlo.exponential %s : tensor<4x33xf32>" % d)
    s_, _ = reduce_op(f, ex, (4, 33), [1], "add", "0.000000e+00")
    sb = bcast(f, s_, (4,), (4, 33), [0])
    r = f.op("stablehlo.divide %s, %s : tensor<4x33xf32>" % (ex, sb))
    ref = np.exp(f64(x) - f64(x).max(axis=1, keepdims=True))
    f.expect(r, array(ref / ref.sum(axis=1, keepdims=True), e), e, *tol)
    funcs.append(f.text())

    # Layer normalization over the last axis, with scale and offset.
    f = Func("test_layer_norm")
    x = array(rng.uniform(-3, 3, (3, 40)), e)
    g = array(rng.uniform(0.5, 1.5, (40,)), e)
    b = array(rng.uniform(-1, 1, (40,)), e)
    vx, vg, vb = f.input(x, e), f.input(g, e), f.input(b, e)
    s_, _ = reduce_op(f, vx, (3, 40), [1], "add", "0.000000e+00")
    n = f.op("stablehlo.constant dense<4.000000e+01> : tensor<3xf32>")
    mean = f.op("stablehlo.divide %s, %s : tensor<3xf32>" % (s_, n))
    mb = bcast(f, mean, (3,), (3, 40), [0])
    c = f.op("stablehlo.subtract %s, %s : tensor<3x40xf32>" % (vx, mb))
    sq = f.op("stablehlo.multiply %s, %s : tensor<3x40xf32>" % (c, c))
    v, _ = reduce_op(f, sq, (3, 40), [1], "add", "0.000000e+00")
    var = f.op("stablehlo.divide %s, %s : tensor<3xf32>" % (v, n))
    eps = f.op("stablehlo.constant dense<9.99999974E-6> : tensor<3xf32>")
    ve = f.op("stablehlo.add %s, %s : tensor<3xf32>" % (var, eps))
    rs = f.op("stablehlo.rsqrt %s : tensor<3xf32>" % ve)
    rb = bcast(f, rs, (3,), (3, 40), [0])
    nrm = f.op("stablehlo.multiply %s, %s : tensor<3x40xf32>" % (c, rb))
    gb = bcast(f, vg, (40,), (3, 40), [1])
    bb = bcast(f, vb, (40,), (3, 40), [1])
    sc = f.op("stablehlo.multiply %s, %s : tensor<3x40xf32>" % (nrm, gb))
    r = f.op("stablehlo.add %s, %s : tensor<3x40xf32>" % (sc, bb))
    xc = f64(x) - f64(x).mean(axis=1, keepdims=True)
    ref = xc / np.sqrt((xc * xc).mean(axis=1, keepdims=True) + 1e-5) * g + b
    f.expect(r, array(ref, e), e, *tol)
    funcs.append(f.text(comment="Reductions feeding elementwise ops feeding "
                        "reductions."))

    # sum(exp(x) * 2, axis=0): an elementwise producer fused into a reduce.
    f = Func("test_reduce_of_elementwise")
    x = array(rng.uniform(-2, 2, (7, 6)), e)
    vx = f.input(x, e)
    ex = f.op("stablehlo.exponential %s : tensor<7x6xf32>" % vx)
    two = f.op("stablehlo.constant dense<2.000000e+00> : tensor<7x6xf32>")
    m = f.op("stablehlo.multiply %s, %s : tensor<7x6xf32>" % (ex, two))
    r, _ = reduce_op(f, m, (7, 6), [0], "add", "0.000000e+00")
    f.expect(r, array((np.exp(f64(x)) * 2).sum(axis=0), e), e, *tol)
    funcs.append(f.text())

    # A value with several uses, and an intermediate that is also checked.
    f = Func("test_multiple_uses")
    x = array(rng.uniform(-2, 2, (3, 5)), e)
    vx = f.input(x, e)
    two = f.op("stablehlo.constant dense<2.000000e+00> : tensor<3x5xf32>")
    y = f.op("stablehlo.multiply %s, %s : tensor<3x5xf32>" % (vx, two))
    one = f.op("stablehlo.constant dense<1.000000e+00> : tensor<3x5xf32>")
    z = f.op("stablehlo.add %s, %s : tensor<3x5xf32>" % (y, one))
    w = f.op("stablehlo.multiply %s, %s : tensor<3x5xf32>" % (y, z))
    t_ = f.op("stablehlo.transpose %s, dims = [1, 0] : (tensor<3x5xf32>) -> "
              "tensor<5x3xf32>" % y)
    s_, _ = reduce_op(f, y, (3, 5), [1], "add", "0.000000e+00")
    y64 = f64(x) * 2
    f.expect(w, array(y64 * (y64 + 1), e), e, *tol)
    f.expect(y, array(y64, e), e)
    f.expect(t_, array(y64.T, e), e)
    f.expect(s_, array(y64.sum(axis=1), e), e, *tol)
    funcs.append(f.text())

    # x.T + b: a transpose and a broadcast feeding one elementwise op.
    f = Func("test_transpose_broadcast_add")
    x = array(rng.uniform(-2, 2, (4, 3)), e)
    b = array(rng.uniform(-2, 2, (4,)), e)
    vx, vb = f.input(x, e), f.input(b, e)
    t_ = f.op("stablehlo.transpose %s, dims = [1, 0] : (tensor<4x3xf32>) -> "
              "tensor<3x4xf32>" % vx)
    bb = bcast(f, vb, (4,), (3, 4), [1])
    r = f.op("stablehlo.add %s, %s : tensor<3x4xf32>" % (t_, bb))
    f.expect(r, array(f64(x).T + b, e), e)
    funcs.append(f.text())

    # jax.nn.one_hot(labels, 5)
    f = Func("test_one_hot")
    labels = array([3, 0, 4, 1, 3, 7], "i32")
    vl = f.input(labels, "i32")
    lb = bcast(f, vl, (6,), (6, 5), [0], "i32")
    io = f.op("stablehlo.iota dim = 1 : tensor<6x5xi32>")
    eq = f.op("stablehlo.compare  EQ, %s, %s,  SIGNED : (tensor<6x5xi32>, "
              "tensor<6x5xi32>) -> tensor<6x5xi1>" % (lb, io))
    r = f.op("stablehlo.convert %s : (tensor<6x5xi1>) -> tensor<6x5xf32>" % eq)
    f.expect(r, array(labels[:, None] == np.arange(5)[None, :], e), e)
    funcs.append(f.text(comment="jax.nn.one_hot: a label out of range gives "
                        "a zero row."))

    # jax.nn.logsumexp(x, axis=1)
    f = Func("test_logsumexp")
    x = array(rng.uniform(-30, 30, (3, 9)), e)
    vx = f.input(x, e)
    m, _ = reduce_op(f, vx, (3, 9), [1], "maximum", "0xFF800000")
    mb = bcast(f, m, (3,), (3, 9), [0])
    d = f.op("stablehlo.subtract %s, %s : tensor<3x9xf32>" % (vx, mb))
    ex = f.op("stablehlo.exponential %s : tensor<3x9xf32>" % d)
    s_, _ = reduce_op(f, ex, (3, 9), [1], "add", "0.000000e+00")
    lg = f.op("stablehlo.log %s : tensor<3xf32>" % s_)
    r = f.op("stablehlo.add %s, %s : tensor<3xf32>" % (lg, m))
    mx = f64(x).max(axis=1)
    f.expect(r, array(np.log(np.exp(f64(x) - mx[:, None]).sum(axis=1)) + mx, e),
             e, *tol)
    funcs.append(f.text())

    # Batched attention scores: softmax(q @ k^T / sqrt(d)) @ v
    f = Func("test_attention")
    q = array(rng.uniform(-1, 1, (2, 5, 8)), e)
    k_ = array(rng.uniform(-1, 1, (2, 6, 8)), e)
    v_ = array(rng.uniform(-1, 1, (2, 6, 4)), e)
    vq, vk, vv = f.input(q, e), f.input(k_, e), f.input(v_, e)
    sc = f.op("stablehlo.dot_general %s, %s, batching_dims = [0] x [0], "
              "contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : "
              "(tensor<2x5x8xf32>, tensor<2x6x8xf32>) -> tensor<2x5x6xf32>" % (vq, vk))
    scale = f.op("stablehlo.constant dense<0.353553385> : tensor<2x5x6xf32>")
    ss = f.op("stablehlo.multiply %s, %s : tensor<2x5x6xf32>" % (sc, scale))
    m, _ = reduce_op(f, ss, (2, 5, 6), [2], "maximum", "0xFF800000")
    mb = bcast(f, m, (2, 5), (2, 5, 6), [0, 1])
    d = f.op("stablehlo.subtract %s, %s : tensor<2x5x6xf32>" % (ss, mb))
    ex = f.op("stablehlo.exponential %s : tensor<2x5x6xf32>" % d)
    s_, _ = reduce_op(f, ex, (2, 5, 6), [2], "add", "0.000000e+00")
    sb = bcast(f, s_, (2, 5), (2, 5, 6), [0, 1])
    p_ = f.op("stablehlo.divide %s, %s : tensor<2x5x6xf32>" % (ex, sb))
    r = f.op("stablehlo.dot_general %s, %s, batching_dims = [0] x [0], "
             "contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : "
             "(tensor<2x5x6xf32>, tensor<2x6x4xf32>) -> tensor<2x5x4xf32>" % (p_, vv))
    sc64 = np.einsum("bqd,bkd->bqk", f64(q), f64(k_)) * float(np.float32(0.353553385))
    p64 = np.exp(sc64 - sc64.max(axis=2, keepdims=True))
    p64 /= p64.sum(axis=2, keepdims=True)
    f.expect(r, array(np.einsum("bqk,bkd->bqd", p64, f64(v_)), e), e, *tol)
    funcs.append(f.text(comment="Scaled dot-product attention: batched "
                        "matmuls around a softmax."))

    f = Func("fail_fusion_wrong_expectation")
    x = array([1.0, 2.0], e)
    vx = f.input(x, e)
    one = f.op("stablehlo.constant dense<1.000000e+00> : tensor<2xf32>")
    y = f.op("stablehlo.add %s, %s : tensor<2xf32>" % (vx, one))
    z = f.op("stablehlo.multiply %s, %s : tensor<2xf32>" % (y, y))
    f.expect(z, array([4.0, 9.5], e), e)
    funcs.append(f.text(comment="(2 + 1)^2 is 9: the check must fail."))

    f = Func("test_map")
    rng = np.random.default_rng(71)
    a = array(rng.uniform(-3, 3, (3, 4)), "f32")
    b = array(rng.uniform(-3, 3, (3, 4)), "f32")
    ai, bi = np.asarray(a, np.float32), np.asarray(b, np.float32)
    s_ = ai * bi + np.float32(2.0)
    want = np.where(s_ > np.float32(2.0), s_, ai)
    r = f.op('"stablehlo.map"(%s, %s) ({\n'
             '    ^bb0(%%x: tensor<f32>, %%y: tensor<f32>):\n'
             '      %%c = stablehlo.constant dense<2.0> : tensor<f32>\n'
             '      %%m = stablehlo.multiply %%x, %%y : tensor<f32>\n'
             '      %%s = stablehlo.add %%m, %%c : tensor<f32>\n'
             '      %%p = stablehlo.compare GT, %%s, %%c : (tensor<f32>, tensor<f32>) -> '
             'tensor<i1>\n'
             '      %%z = stablehlo.select %%p, %%s, %%x : tensor<i1>, tensor<f32>\n'
             '      stablehlo.return %%z : tensor<f32>\n'
             '    }) {dimensions = array<i64: 0, 1>} : (tensor<3x4xf32>, tensor<3x4xf32>) -> '
             'tensor<3x4xf32>' % (f.input(a, "f32"), f.input(b, "f32")))
    f.expect(r, array(want, "f32"), "f32", 1e-6, 1e-6)
    ci = array([[1, -7, 3], [250, 0, -1]], "i32")
    r = f.op('"stablehlo.map"(%s) ({\n'
             '    ^bb0(%%x: tensor<i32>):\n'
             '      %%n = stablehlo.negate %%x : tensor<i32>\n'
             '      %%m = stablehlo.maximum %%x, %%n : tensor<i32>\n'
             '      %%f = stablehlo.convert %%m : (tensor<i32>) -> tensor<f32>\n'
             '      stablehlo.return %%f : tensor<f32>\n'
             '    }) {dimensions = array<i64: 0, 1>} : (tensor<2x3xi32>) -> tensor<2x3xf32>'
             % f.input(ci, "i32"))
    f.expect(r, array(np.abs(np.asarray(ci)), "f32"), "f32", 0.0, 0.0)
    funcs.append(f.text(comment="stablehlo.map: a body of elementwise ops (constants, "
                        "compare, select, convert) applied at the inputs' shape."))

    # Softmax along the last dim, which the CPU runs as one row kernel:
    # rows of 1, of a vector's width and one more, rows with -inf entries
    # and with inputs near exp's range, and the ONNX importer's form (the
    # reductions reshaped to [..., 1] and broadcast back).
    rng = np.random.default_rng(72)
    f = Func("test_softmax_row_edges")
    cases = ((4, 1), (3, 16), (3, 17), (2, 100), (2, 3, 33))
    for shape in cases:
        x = rng.uniform(-4, 4, shape).astype(np.float32)
        if shape == (3, 17):
            x[0, 3] = x[1, 0] = x[1, 16] = x[2, 5] = -np.inf
        if shape == (2, 100):
            x[0] *= 30.0
            x[1, ::3] = -200.0
        vx = f.input(array(x, "f32"), "f32")
        rank = len(shape)
        rows = shape[:-1]
        t = tensor_type(shape, "f32")
        onnx_form = rank == 3

        def row_bcast(v):
            if onnx_form:
                k = f.op("stablehlo.reshape %s : (%s) -> %s"
                         % (v, tensor_type(rows, "f32"),
                            tensor_type(rows + (1,), "f32")))
                return bcast(f, k, rows + (1,), shape, list(range(rank)))
            return bcast(f, v, rows, shape, list(range(rank - 1)))

        m, _ = reduce_op(f, vx, shape, [rank - 1], "maximum", "0xFF800000")
        d = f.op("stablehlo.subtract %s, %s : %s" % (vx, row_bcast(m), t))
        ex = f.op("stablehlo.exponential %s : %s" % (d, t))
        s_, _ = reduce_op(f, ex, shape, [rank - 1], "add", "0.000000e+00")
        r = f.op("stablehlo.divide %s, %s : %s" % (ex, row_bcast(s_), t))
        f.expect(r, array(softmax_rows(f64(x)), "f32"), "f32", 1e-6, 1e-5)
    funcs.append(f.text())
    return funcs


#===----------------------------------------------------------------------===#
# Large: sizes that span many workgroups, tiles and vector lanes, with odd
# remainders (inputs and expectations as hex blobs)
#===----------------------------------------------------------------------===#

def gen_large():
    funcs = []
    rng = np.random.default_rng(10)
    e = "f32"
    tol = (1e-4, 1e-5)

    f = Func("test_large_elementwise")
    a = array(rng.uniform(-2, 2, (1283,)), e)
    b = array(rng.uniform(-2, 2, (1283,)), e)
    x, y = f.input(a, e), f.input(b, e)
    m = f.op("stablehlo.multiply %s, %s : tensor<1283xf32>" % (x, y))
    t_ = f.op("stablehlo.tanh %s : tensor<1283xf32>" % m)
    r = f.op("stablehlo.add %s, %s : tensor<1283xf32>" % (t_, x))
    f.expect(r, array(np.tanh(f64(a) * b) + a, e), e, *TOL[e])
    funcs.append(f.text())

    f = Func("test_large_elementwise_i32")
    a = array(rng.integers(-1000, 1000, (2, 517)), "i32")
    b = array(rng.integers(1, 50, (2, 517)), "i32")
    x, y = f.input(a, "i32"), f.input(b, "i32")
    q = f.op("stablehlo.divide %s, %s : tensor<2x517xi32>" % (x, y))
    r = f.op("stablehlo.multiply %s, %s : tensor<2x517xi32>" % (q, y))
    expected = np.array([[idiv(int(p), int(d), "i32") * int(d) for p, d in zip(ra, rb)]
                         for ra, rb in zip(a, b)], dtype=np.int32)
    f.expect(r, expected, "i32")
    funcs.append(f.text())

    for m_, k_, n_ in ((45, 67, 29),):
        f = Func("test_large_matmul_%dx%dx%d" % (m_, k_, n_))
        a = array(rng.uniform(-1, 1, (m_, k_)), e)
        b = array(rng.uniform(-1, 1, (k_, n_)), e)
        x, y = f.input(a, e), f.input(b, e)
        r = f.op("stablehlo.dot_general %s, %s, contracting_dims = [1] x [0], "
                 "precision = [DEFAULT, DEFAULT] : (%s, %s) -> %s"
                 % (x, y, t(a, e), t(b, e), tensor_type((m_, n_), e)))
        f.expect(r, array(f64(a) @ b, e), e, *tol)
        funcs.append(f.text())

    f = Func("test_large_batch_matmul")
    a = array(rng.uniform(-1, 1, (2, 19, 13)), e)
    b = array(rng.uniform(-1, 1, (2, 13, 11)), e)
    x, y = f.input(a, e), f.input(b, e)
    r = f.op("stablehlo.dot_general %s, %s, batching_dims = [0] x [0], "
             "contracting_dims = [2] x [1] : (tensor<2x19x13xf32>, tensor<2x13x11xf32>) "
             "-> tensor<2x19x11xf32>" % (x, y))
    f.expect(r, array(np.matmul(f64(a), b), e), e, *tol)
    funcs.append(f.text())

    f = Func("test_large_conv")
    a = array(rng.uniform(-1, 1, (1, 11, 9, 8)), e)
    w = array(rng.uniform(-1, 1, (3, 3, 8, 16)), e)
    x, y = f.input(a, e), f.input(w, e)
    expected = array(conv_ref(a, w, [1, 1], [[1, 1], [1, 1]], [1, 1], [1, 1], 1), e)
    r = f.op("stablehlo.convolution(%s, %s) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]"
             "->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = "
             "1 : i64, feature_group_count = 1 : i64} : (%s, %s) -> %s"
             % (x, y, t(a, e), t(w, e), t(expected, e)))
    f.expect(r, expected, e, *tol)
    funcs.append(f.text())

    f = Func("test_large_reduce")
    a = array(rng.uniform(-1, 1, (2, 2049)), e)
    x = f.input(a, e)
    r, _ = reduce_op(f, x, (2, 2049), [1], "add", "0.000000e+00")
    f.expect(r, array(f64(a).sum(axis=1), e), e, 1e-3, 1e-5)
    r2, _ = reduce_op(f, x, (2, 2049), [0], "maximum", "0xFF800000")
    f.expect(r2, a.max(axis=0), e)
    funcs.append(f.text())

    f = Func("test_large_transpose")
    a = array(rng.integers(-1000, 1000, (17, 29, 3)), "i32")
    x = f.input(a, "i32")
    r = f.op("stablehlo.transpose %s, dims = [1, 2, 0] : (tensor<17x29x3xi32>) -> "
             "tensor<29x3x17xi32>" % x)
    f.expect(r, np.transpose(a, (1, 2, 0)), "i32")
    funcs.append(f.text())

    f = Func("test_large_sort")
    a = array(rng.permutation(700) - 300, "i32")
    x = f.input(a, "i32")
    r = f.op('"stablehlo.sort"(%s) <{dimension = 0 : i64}> ({\n%s\n    }) : '
             '(tensor<700xi32>) -> tensor<700xi32>'
             % (x, sort_body(["i32"], "LT", "SIGNED")))
    f.expect(r, np.sort(a), "i32")
    funcs.append(f.text())

    f = Func("test_large_max_pool")
    a = array(rng.uniform(-1, 1, (1, 16, 14, 4)), e)
    x = f.input(a, e)
    cst = f.op("stablehlo.constant dense<0xFF800000> : tensor<f32>")
    body = binary_body("maximum", "f32")
    expected = array(reduce_window_ref(a, -np.inf, np.max, [1, 3, 3, 1],
                                       [1, 2, 2, 1], [(0, 0), (1, 1), (1, 1), (0, 0)]), e)
    r = f.op('"stablehlo.reduce_window"(%s, %s) <{padding = dense<[[0, 0], [1, 1], '
             '[1, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, '
             '3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({\n%s\n    }) : '
             '(%s, tensor<f32>) -> %s' % (x, cst, body, t(a, e), t(expected, e)))
    f.expect(r, expected, e)
    funcs.append(f.text(comment="Overlapping 3x3 windows, stride 2, padded."))

    f = Func("fail_large_wrong_expectation")
    a = array(np.ones(1000), e)
    x = f.input(a, e)
    r = f.op("stablehlo.add %s, %s : tensor<1000xf32>" % (x, x))
    expected = np.full(1000, 2.0, np.float32)
    expected[999] = 2.5
    f.expect(r, expected, e)
    funcs.append(f.text(comment="The last of 1000 elements is wrong: the check "
                        "must fail."))
    return funcs


#===----------------------------------------------------------------------===#
# Buffers: in-place updates, aliasing, constants, repeated calls (what
# memory planning and the recorded command buffers must get right)
#===----------------------------------------------------------------------===#

def scatter_add_1d(value, indices, updates, n, k, indent="    ", tmp="%100"):
    """x.at[indices].add(updates) for a 1-D f32 x, as JAX emits it."""
    body = region([("%arg3", "tensor<f32>"), ("%arg4", "tensor<f32>")],
                  ["%s = stablehlo.add %%arg3, %%arg4 : tensor<f32>" % tmp,
                   "stablehlo.return %s : tensor<f32>" % tmp], indent=indent)
    return ('"stablehlo.scatter"(%s, %s, %s) <{scatter_dimension_numbers = '
            '#stablehlo.scatter<inserted_window_dims = [0], '
            'scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n%s\n'
            '%s}) : (tensor<%dxf32>, tensor<%dx1xi32>, tensor<%dxf32>) -> '
            'tensor<%dxf32>' % (value, indices, updates, body, indent, n, k, k, n))


def gen_buffers():
    funcs = []
    e = "f32"

    helpers = (
        "  // Scatters into a constant: the rodata must not change, so every\n"
        "  // call sees the same constant.\n"
        "  func.func private @bump_constant(%arg0: tensor<2x1xi32>, %arg1: "
        "tensor<2xf32>) -> tensor<4xf32> {\n"
        "    %cst = stablehlo.constant dense<[1.000000e+00, 2.000000e+00, "
        "3.000000e+00, 4.000000e+00]> : tensor<4xf32>\n"
        "    %0 = " + scatter_add_1d("%cst", "%arg0", "%arg1", 4, 2, "    ",
                                 "%1") + "\n"
        "    return %0 : tensor<4xf32>\n"
        "  }\n\n"
        "  func.func private @affine(%arg0: tensor<5xf32>, %arg1: tensor<f32>) -> "
        "tensor<5xf32> {\n"
        "    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> "
        "tensor<5xf32>\n"
        "    %1 = stablehlo.multiply %arg0, %0 : tensor<5xf32>\n"
        "    %2 = stablehlo.add %1, %0 : tensor<5xf32>\n"
        "    return %2 : tensor<5xf32>\n"
        "  }\n\n"
        "  func.func private @passthrough(%arg0: tensor<3xi32>) -> (tensor<3xi32>, "
        "tensor<3xi32>, tensor<2xi32>) {\n"
        "    %c = stablehlo.constant dense<[7, 8]> : tensor<2xi32>\n"
        "    return %arg0, %arg0, %c : tensor<3xi32>, tensor<3xi32>, tensor<2xi32>\n"
        "  }")
    funcs.append(helpers)

    f = Func("test_scatter_keeps_operand")
    a = array([1.0, 2.0, 3.0, 4.0], e)
    idx = array([[1], [3]], "i32")
    u = array([10.0, 20.0], e)
    x, i, vu = f.input(a, e), f.input(idx, "i32"), f.input(u, e)
    r = f.op(scatter_add_1d(x, i, vu, 4, 2))
    expected = a.copy()
    expected[idx[:, 0]] += u
    f.expect(r, expected, e)
    f.expect(x, a, e)
    two = f.op("stablehlo.constant dense<2.000000e+00> : tensor<4xf32>")
    m = f.op("stablehlo.multiply %s, %s : tensor<4xf32>" % (x, two))
    f.expect(m, a * 2, e)
    funcs.append(f.text(comment="The scatter's operand is used after it: an "
                        "in-place update must work on a copy."))

    f = Func("test_dynamic_update_slice_keeps_operand")
    a = array(np.arange(6), "i32")
    u = array([-1, -2], "i32")
    x, vu = f.input(a, "i32"), f.input(u, "i32")
    at = f.input(array(2, "i32"), "i32")
    r = f.op("stablehlo.dynamic_update_slice %s, %s, %s : (tensor<6xi32>, "
             "tensor<2xi32>, tensor<i32>) -> tensor<6xi32>" % (x, vu, at))
    r2 = f.op("stablehlo.dynamic_update_slice %s, %s, %s : (tensor<6xi32>, "
              "tensor<2xi32>, tensor<i32>) -> tensor<6xi32>" % (x, vu, at))
    expected = a.copy()
    expected[2:4] = u
    f.expect(r, expected, "i32")
    f.expect(r2, expected, "i32")
    f.expect(x, a, "i32")
    funcs.append(f.text(comment="Two updates of one operand, which is checked "
                        "afterwards too."))

    f = Func("test_scatter_into_constant_twice")
    idx = array([[0], [2]], "i32")
    u1, u2 = array([0.5, 0.25], e), array([8.0, 16.0], e)
    i, vu1, vu2 = f.input(idx, "i32"), f.input(u1, e), f.input(u2, e)
    r1 = f.op("call @bump_constant(%s, %s) : (tensor<2x1xi32>, tensor<2xf32>) -> "
              "tensor<4xf32>" % (i, vu1))
    r2 = f.op("call @bump_constant(%s, %s) : (tensor<2x1xi32>, tensor<2xf32>) -> "
              "tensor<4xf32>" % (i, vu2))
    for r, u in ((r1, u1), (r2, u2)):
        expected = array([1.0, 2.0, 3.0, 4.0], e)
        expected[idx[:, 0]] += u
        f.expect(r, expected, e)
    funcs.append(f.text(comment="A scatter into a constant, called twice: the "
                        "second call must see the\noriginal constant."))

    f = Func("test_call_twice_different_inputs")
    a = array([1.0, -2.0, 0.5, 3.0, 0.0], e)
    b = array([4.0, 5.0, -6.0, 0.25, 1.0], e)
    x, y = f.input(a, e), f.input(b, e)
    s1, s2 = f.input(array(2.0, e), e), f.input(array(-1.0, e), e)
    r1 = f.op("call @affine(%s, %s) : (tensor<5xf32>, tensor<f32>) -> tensor<5xf32>"
              % (x, s1))
    r2 = f.op("call @affine(%s, %s) : (tensor<5xf32>, tensor<f32>) -> tensor<5xf32>"
              % (y, s2))
    r3 = f.op("call @affine(%s, %s) : (tensor<5xf32>, tensor<f32>) -> tensor<5xf32>"
              % (r1, s2))
    f.expect(r1, a * 2 + 2, e)
    f.expect(r2, b * -1 - 1, e)
    f.expect(r3, (a * 2 + 2) * -1 - 1, e)
    funcs.append(f.text(comment="One function called with different inputs: a "
                        "replayed command buffer must\nbind the new buffers."))

    f = Func("test_results_alias_arguments")
    a = array([3, 1, 4], "i32")
    x = f.input(a, "i32")
    r = f.op("call @passthrough(%s) : (tensor<3xi32>) -> (tensor<3xi32>, "
             "tensor<3xi32>, tensor<2xi32>)" % x, count=3)
    f.expect("%s#0" % r, a, "i32")
    f.expect("%s#1" % r, a, "i32")
    f.expect("%s#2" % r, array([7, 8], "i32"), "i32")
    funcs.append(f.text(comment="A function returning its argument twice and "
                        "a constant."))

    f = Func("test_while_swaps_carried_values")
    a, b = array([1.0, 2.0], e), array([10.0, 20.0], e)
    x, y = f.input(a, e), f.input(b, e)
    c0 = f.op("stablehlo.constant dense<0> : tensor<i32>")
    r = f.op("stablehlo.while(%%iterArg = %s, %%iterArg_0 = %s, %%iterArg_1 = %s) : "
             "tensor<i32>, tensor<2xf32>, tensor<2xf32>" % (c0, x, y), count=3)
    for line in [
        " cond {",
        "  %c = stablehlo.constant dense<3> : tensor<i32>",
        "  %100 = stablehlo.compare  LT, %iterArg, %c,  SIGNED : (tensor<i32>, "
        "tensor<i32>) -> tensor<i1>",
        "  stablehlo.return %100 : tensor<i1>",
        "} do {",
        "  %c = stablehlo.constant dense<1> : tensor<i32>",
        "  %100 = stablehlo.add %iterArg, %c : tensor<i32>",
        "  %101 = stablehlo.add %iterArg_0, %iterArg_1 : tensor<2xf32>",
        "  stablehlo.return %100, %iterArg_1, %101 : tensor<i32>, tensor<2xf32>, "
        "tensor<2xf32>",
        "}",
    ]:
        f.line(line)
    p_, q_ = f64(a), f64(b)
    for _ in range(3):
        p_, q_ = q_, p_ + q_
    f.expect("%s#1" % r, array(p_, e), e)
    f.expect("%s#2" % r, array(q_, e), e)
    f.expect(x, a, e)
    funcs.append(f.text(comment="(a, b) -> (b, a + b) three times: carried "
                        "values swap buffers every\niteration; the initial "
                        "values stay intact."))

    f = Func("test_case_in_while")
    a = array([1.0, 2.0], e)
    x = f.input(a, e)
    r = counted_while(f, x, "tensor<2xf32>", 0, 4, [
        "  %c = stablehlo.constant dense<1> : tensor<i32>",
        "  %c_2 = stablehlo.constant dense<2> : tensor<i32>",
        "  %100 = stablehlo.remainder %iterArg, %c_2 : tensor<i32>",
        '  %101 = "stablehlo.case"(%100) ({',
        "    %200 = stablehlo.add %iterArg_0, %iterArg_0 : tensor<2xf32>",
        "    stablehlo.return %200 : tensor<2xf32>",
        "  }, {",
        "    %200 = stablehlo.negate %iterArg_0 : tensor<2xf32>",
        "    stablehlo.return %200 : tensor<2xf32>",
        "  }) : (tensor<i32>) -> tensor<2xf32>",
        "  %102 = stablehlo.add %iterArg, %c : tensor<i32>",
        "  stablehlo.return %102, %101 : tensor<i32>, tensor<2xf32>",
    ])
    v = f64(a)
    for i in range(4):
        v = v + v if i % 2 == 0 else -v
    f.expect("%s#1" % r, array(v, e), e)
    funcs.append(f.text(comment="Control flow nested in control flow: double on "
                        "even iterations, negate on odd."))

    f = Func("fail_buffers_wrong_expectation")
    a = array([1.0, 2.0], e)
    idx = array([[0]], "i32")
    u = array([5.0], e)
    x, i, vu = f.input(a, e), f.input(idx, "i32"), f.input(u, e)
    r = f.op(scatter_add_1d(x, i, vu, 2, 1))
    f.expect(x, array([6.0, 2.0], e), e)
    funcs.append(f.text(comment="The operand of a scatter is not updated: "
                        "the check must fail."))
    return funcs


#===----------------------------------------------------------------------===#
# Types and shapes at the edges: i1 reductions, f16/bf16 structure, rank 0,
# high rank, empty tensors
#===----------------------------------------------------------------------===#

def gen_edges():
    funcs = []
    rng = np.random.default_rng(11)

    f = Func("test_reduce_i1_all_any")
    a = array([[True, True, False], [True, True, True]], "i1")
    x = f.input(a, "i1")
    r, _ = reduce_op(f, x, (2, 3), [1], "and", "true", "i1")
    f.expect(r, a.all(axis=1), "i1")
    r, _ = reduce_op(f, x, (2, 3), [0], "or", "false", "i1")
    f.expect(r, a.any(axis=0), "i1")
    funcs.append(f.text(comment="jnp.all and jnp.any: and/or reductions of i1."))

    f = Func("test_reduce_i1_add_multiply")
    a = array([[True, True, False], [False, True, True]], "i1")
    x = f.input(a, "i1")
    r, _ = reduce_op(f, x, (2, 3), [1], "add", "false", "i1")
    f.expect(r, a.any(axis=1), "i1")
    r, _ = reduce_op(f, x, (2, 3), [0], "multiply", "true", "i1")
    f.expect(r, a.all(axis=0), "i1")
    r, _ = reduce_op(f, x, (2, 3), [0, 1], "maximum", "false", "i1")
    f.expect(r, a.any(), "i1")
    funcs.append(f.text(comment="add/multiply/maximum bodies on i1 reduce as "
                        "or/and/or: two trues add to true."))

    f = Func("test_module_forms")
    c0 = f.op("stablehlo.constant dense<> : tensor<0x3xf32>")
    u0 = f.op("util.unfoldable_constant dense<> : tensor<0x3xf32>")
    r = f.op("stablehlo.add %s, %s : tensor<0x3xf32>" % (c0, u0))
    f.line("check.expect_eq_const(%s, dense<> : tensor<0x3xf32>) : tensor<0x3xf32>" % r)
    e = f.op("tensor.empty() : tensor<2x3xf32>")
    one = f.op("stablehlo.constant dense<1.0> : tensor<2x3xf32>")
    r = f.op("stablehlo.maximum %s, %s : tensor<2x3xf32>" % (e, one))
    f.expect(r, np.ones((2, 3)), "f32")
    t0 = f.op("stablehlo.create_token : !stablehlo.token")
    t1 = f.op("stablehlo.after_all : !stablehlo.token")
    f.op("stablehlo.after_all %s, %s : !stablehlo.token" % (t0, t1))
    a = array([[1.0, 2.0], [3.0, 4.0]], "f32")
    x = f.input(a, "f32")
    r = f.op('"stablehlo.dot_general"(%s, %s) {dot_dimension_numbers = #stablehlo.dot<'
             'lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0],>} : '
             '(tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>' % (x, x))
    f.expect(r, a @ a, "f32")
    funcs.append(f.text(comment="Zero-size dense<> literals, tensor.empty (its "
                        "contents are unspecified; only its shape is used\nhere), "
                        "tokens (create_token, after_all) as no-ops, and a "
                        "trailing comma in #stablehlo.dot<...>."))

    f = Func("test_reduce_unsigned_max_min")
    a = array([[3, 250, 7], [255, 0, 128]], "ui8")
    x = f.input(a, "ui8")
    r, _ = reduce_op(f, x, (2, 3), [1], "maximum", "0", "ui8")
    f.expect(r, a.max(axis=1), "ui8")
    r, _ = reduce_op(f, x, (2, 3), [0], "minimum", "255", "ui8")
    f.expect(r, a.min(axis=0), "ui8")
    funcs.append(f.text())

    f = Func("test_bf16_sum_in_f32")
    a = array(rng.uniform(-4, 4, (3, 16)), "bf16")
    x = f.input(a, "bf16")
    c = f.op("stablehlo.convert %s : (tensor<3x16xbf16>) -> tensor<3x16xf32>" % x)
    r, _ = reduce_op(f, c, (3, 16), [1], "add", "0.000000e+00")
    back = f.op("stablehlo.convert %s : (tensor<3xf32>) -> tensor<3xbf16>" % r)
    sums = a.astype(np.float64).sum(axis=1)
    f.expect(r, array(sums, "f32"), "f32")
    f.expect(back, array(sums.astype(np.float32), "bf16"), "bf16", *TOL["bf16"])
    funcs.append(f.text(comment="jnp.sum on bf16: converted to f32, reduced, "
                        "converted back."))

    f = Func("test_f16_structural")
    a = array(rng.uniform(-4, 4, (2, 3)), "f16")
    b = array(rng.uniform(-4, 4, (2, 2)), "f16")
    x, y = f.input(a, "f16"), f.input(b, "f16")
    t_ = f.op("stablehlo.transpose %s, dims = [1, 0] : (tensor<2x3xf16>) -> "
              "tensor<3x2xf16>" % x)
    f.expect(t_, a.T, "f16")
    cat = f.op("stablehlo.concatenate %s, %s, dim = 1 : (tensor<2x3xf16>, "
               "tensor<2x2xf16>) -> tensor<2x5xf16>" % (x, y))
    f.expect(cat, np.concatenate([a, b], axis=1), "f16")
    sl = f.op("stablehlo.slice %s [0:2, 1:3] : (tensor<2x3xf16>) -> tensor<2x2xf16>"
              % x)
    f.expect(sl, a[:, 1:3], "f16")
    rv = f.op("stablehlo.reverse %s, dims = [0] : tensor<2x2xf16>" % y)
    f.expect(rv, b[::-1], "f16")
    lo, hi = f.input(array(-1.0, "f16"), "f16"), f.input(array(1.5, "f16"), "f16")
    cl = f.op("stablehlo.clamp %s, %s, %s : (tensor<f16>, tensor<2x3xf16>, "
              "tensor<f16>) -> tensor<2x3xf16>" % (lo, x, hi))
    f.expect(cl, np.clip(a, np.float16(-1.0), np.float16(1.5)), "f16")
    funcs.append(f.text())

    f = Func("test_i1_structural")
    p = array([[True, False, True], [False, False, True]], "i1")
    x = f.input(p, "i1")
    t_ = f.op("stablehlo.transpose %s, dims = [1, 0] : (tensor<2x3xi1>) -> "
              "tensor<3x2xi1>" % x)
    f.expect(t_, p.T, "i1")
    bb = f.op("stablehlo.broadcast_in_dim %s, dims = [1, 2] : (tensor<2x3xi1>) -> "
              "tensor<2x2x3xi1>" % x)
    f.expect(bb, np.broadcast_to(p, (2, 2, 3)), "i1")
    a = array([[1, 2, 3], [4, 5, 6]], "i32")
    y = f.input(a, "i32")
    s_ = f.op("stablehlo.select %s, %s, %s : tensor<2x3xi1>, tensor<2x3xi32>"
              % (x, y, f.op("stablehlo.negate %s : tensor<2x3xi32>" % y)))
    f.expect(s_, np.where(p, a, -a), "i32")
    funcs.append(f.text())

    f = Func("test_rank_0")
    a, b = array(2.5, "f32"), array(-4.0, "f32")
    x, y = f.input(a, "f32"), f.input(b, "f32")
    m = f.op("stablehlo.multiply %s, %s : tensor<f32>" % (x, y))
    n = f.op("stablehlo.exponential %s : tensor<f32>" % x)
    s_ = f.op("stablehlo.add %s, %s : tensor<f32>" % (m, n))
    f.expect(s_, array(2.5 * -4.0 + np.exp(2.5), "f32"), "f32", *TOL["f32"])
    c = f.op("stablehlo.compare  GT, %s, %s,  FLOAT : (tensor<f32>, tensor<f32>) -> "
             "tensor<i1>" % (x, y))
    f.expect(c, array(True, "i1"), "i1")
    i = f.op("stablehlo.convert %s : (tensor<f32>) -> tensor<i64>" % m)
    f.expect(i, array(-10, "i64"), "i64")
    funcs.append(f.text())

    f = Func("test_high_rank")
    a = array(rng.integers(-50, 50, (2, 1, 3, 2, 2, 3)), "i32")
    x = f.input(a, "i32")
    perm = [5, 0, 3, 1, 4, 2]
    t_ = f.op("stablehlo.transpose %s, dims = %s : (%s) -> %s"
              % (x, perm, t(a, "i32"), tensor_type(np.transpose(a, perm).shape,
                                                     "i32")))
    f.expect(t_, np.transpose(a, perm), "i32")
    r, _ = reduce_op(f, x, a.shape, [1, 3, 5], "add", "0", "i32")
    f.expect(r, array(a.sum(axis=(1, 3, 5)), "i32"), "i32")
    funcs.append(f.text(comment="Rank 6: a transpose and a reduction of "
                        "non-adjacent dimensions."))

    f = Func("test_empty_tensors")
    a = array([1.0, 2.0, 3.0], "f32")
    x = f.input(a, "f32")
    empty = f.op("stablehlo.constant dense<> : tensor<0xf32>")
    cat = f.op("stablehlo.concatenate %s, %s, dim = 0 : (tensor<0xf32>, "
               "tensor<3xf32>) -> tensor<3xf32>" % (empty, x))
    f.expect(cat, a, "f32")
    sl = f.op("stablehlo.slice %s [1:1] : (tensor<3xf32>) -> tensor<0xf32>" % x)
    r, _ = reduce_op(f, sl, (0,), [0], "add", "1.500000e+00")
    f.expect(r, array(1.5, "f32"), "f32")
    funcs.append(f.text(comment="Zero-element tensors: concatenated away; a "
                        "reduction of nothing is its\ninit value."))

    f = Func("test_dynamic_index_types")
    a = array(np.arange(10), "f32")
    x = f.input(a, "f32")
    for elem, start in (("i64", 7), ("ui32", 3), ("i8", -4), ("ui8", 200)):
        s_ = f.input(array(start, elem), elem)
        r = f.op("stablehlo.dynamic_slice %s, %s, sizes = [3] : (tensor<10xf32>, "
                 "tensor<%s>) -> tensor<3xf32>" % (x, s_, elem))
        c = min(max(start, 0), 7)
        f.expect(r, a[c:c + 3], "f32")
    funcs.append(f.text(comment="Start indices of several integer types, "
                        "clamped into range."))

    f = Func("test_optimization_barrier")
    a, b = array([1.0, -2.0, 3.5], "f32"), array([4, 5, 6], "i32")
    x, y = f.input(a, "f32"), f.input(b, "i32")
    r = f.op("stablehlo.optimization_barrier %s, %s : tensor<3xf32>, tensor<3xi32>"
             % (x, y), count=2)
    n = f.op("stablehlo.negate %s#0 : tensor<3xf32>" % r)
    f.expect(n, -a, "f32")
    f.expect("%s#1" % r, b, "i32")
    funcs.append(f.text(comment="As jax.checkpoint (remat) exports it: an "
                        "identity on its operands."))

    f = Func("fail_edges_wrong_expectation")
    a = array([True, False], "i1")
    x = f.input(a, "i1")
    r, _ = reduce_op(f, x, (2,), [0], "and", "true", "i1")
    f.expect(r, array(True, "i1"), "i1")
    funcs.append(f.text(comment="all([true, false]) is false: the check must "
                        "fail."))
    return funcs


#===----------------------------------------------------------------------===#
# Corners: IEEE specials, converts that must round once, and less common
# forms of common ops (1-D convolution, point gathers, scatter max, integer
# dot, non-identity reduce inits, zero-trip loops, dilated windows)
#===----------------------------------------------------------------------===#

def gen_corners():
    funcs = []

    # Every op on f16/bf16 rounds its result: (1 + 2^-9) - 1 is 0 in bf16
    # (1 + 2^-9 rounds to 1) and in f16 for 2^-12, also when the add and
    # the subtract are fused into one kernel with f32 registers.
    f = Func("test_small_float_ops_round_each_result")
    for elem, tiny in (("bf16", 2.0 ** -9), ("f16", 2.0 ** -12)):
        one = f.input(array([1.0, 1.0, 2.0], elem), elem)
        small = f.input(array([tiny, -tiny, tiny], elem), elem)
        ty = "tensor<3x%s>" % elem
        s_ = f.op("stablehlo.add %s, %s : %s" % (one, small, ty))
        d = f.op("stablehlo.subtract %s, %s : %s" % (s_, one, ty))
        f.expect(d, array([0.0, 0.0, 0.0], elem), elem, 0.0, 0.0)
        p = f.op("stablehlo.multiply %s, %s : %s" % (small, small, ty))
        q = f.op("stablehlo.compare  EQ, %s, %s : (%s, %s) -> tensor<3xi1>"
                 % (f.op("stablehlo.add %s, %s : %s" % (one, p, ty)), one, ty, ty))
        f.expect(q, np.array([True, True, True]), "i1")
    funcs.append(f.text(comment="f16/bf16 ops round each result, fused or not "
                        "(StableHLO's per-op semantics)."))
    e = "f32"
    rng = np.random.default_rng(12)

    specials = [
        ("exponential", np.exp, [100.0, -200.0, INF, -INF, NAN]),
        ("log", np.log, [0.0, -1.0, INF, -0.0, NAN]),
        ("sqrt", np.sqrt, [-1.0, INF, -0.0, 0.0, NAN]),
        ("rsqrt", lambda x: 1.0 / np.sqrt(x), [0.0, INF, -1.0, 4.0, NAN]),
        ("tanh", np.tanh, [INF, -INF, 50.0, -50.0, NAN]),
        ("logistic", logistic, [INF, -INF, 100.0, -100.0, NAN]),
        ("floor", np.floor, [INF, -INF, 1e10, -0.5, NAN]),
        ("round_nearest_even", np.round, [8388609.0, -0.5, 0.5, 1e10, INF]),
    ]
    for name, fn, values in specials:
        f = Func("test_%s_specials_f32" % name)
        a = array(values, e)
        r = unary(f, name, a, e)
        with np.errstate(all="ignore"):
            f.expect(r, round_to(e, fn(f64(a))), e, *TOL[e])
        funcs.append(f.text())

    f = Func("test_binary_specials_f32")
    a = array([-2.0, -8.0, 0.0, 0.0, NAN, 1.0, INF], e)
    b = array([3.0, 1.0 / 3.0, 0.0, -1.0, 0.0, NAN, 0.0], e)
    x, y = f.input(a, e), f.input(b, e)
    r = f.op("stablehlo.power %s, %s : tensor<7xf32>" % (x, y))
    with np.errstate(all="ignore"):
        f.expect(r, round_to(e, np.power(f64(a), f64(b))), e, *TOL[e])
    c = array([0.0, -0.0, 0.0, -0.0, 1.0, -1.0, INF], e)
    d = array([-0.0, -0.0, 0.0, 0.0, INF, -INF, INF], e)
    vc, vd = f.input(c, e), f.input(d, e)
    r = f.op("stablehlo.atan2 %s, %s : tensor<7xf32>" % (vc, vd))
    f.expect(r, round_to(e, np.arctan2(f64(c), f64(d))), e, *TOL[e])
    r = f.op("stablehlo.remainder %s, %s : tensor<7xf32>" % (vc, vd))
    with np.errstate(all="ignore"):
        f.expect(r, round_to(e, np.fmod(f64(c), f64(d))), e)
    funcs.append(f.text(comment="pow, atan2 and fmod at zeros, infinities and "
                        "NaN (C's rules, which numpy follows)."))

    # Values one rounding step cannot reach through an intermediate type.
    conversions = [
        ("f64", "f16", [1.0 + 2.0 ** -11 + 2.0 ** -40, -(1.0 + 2.0 ** -11 + 2.0 ** -40),
                        65519.99, 1.0 / 3.0]),
        ("f64", "bf16", [1.0 + 2.0 ** -8 + 2.0 ** -40, 3.0 + 2.0 ** -7 + 2.0 ** -45,
                         0.1]),
        ("i64", "f32", [2 ** 60 + 2 ** 36 + 1, -(2 ** 60 + 2 ** 36 + 1), 16777217,
                        2 ** 62]),
        ("ui64", "f32", [2 ** 63 + 2 ** 39 + 1, 2 ** 64 - 1, 3]),
        ("i64", "f16", [2049, 2 ** 40, -65519]),
    ]
    for src, dst, values in conversions:
        f = Func("test_convert_rounds_once_%s_to_%s" % (src, dst))
        a = array(values, src)
        x = f.input(a, src)
        r = f.op("stablehlo.convert %s : (%s) -> %s"
                 % (x, t(a, src), tensor_type(a.shape, dst)))
        exact = [v.item() for v in a]
        if dst == "bf16":
            # Round the exact value to 8 significant bits, ties to even.
            expected = []
            for v in exact:
                m, ex = math.frexp(v)
                scaled = m * 256
                lo = math.floor(scaled)
                frac = scaled - lo
                q = lo + (1 if frac > 0.5 or (frac == 0.5 and lo % 2) else 0)
                expected.append(math.ldexp(q, ex - 8))
            expected = array(expected, "bf16")
        elif dst == "f16":
            # numpy rounds float64 -> float16 in one step; Python ints are
            # exact in float64 only below 2**53, and these are.
            expected = np.array([float(v) for v in exact]).astype(np.float16)
        else:
            # float(int) is correctly rounded; float64 -> float32 could then
            # round twice, so round the integer to 24 bits by hand.
            expected = []
            for v in exact:
                n = abs(int(v))
                shift = max(n.bit_length() - 24, 0)
                q, rem = divmod(n, 1 << shift)
                half = 1 << shift >> 1
                if shift and (rem > half or (rem == half and q % 2)):
                    q += 1
                expected.append(math.copysign(q * 2.0 ** shift, v))
            expected = array(expected, "f32")
        f.expect(r, expected, dst)
        funcs.append(f.text())

    # 1-D convolution, as jax.lax.conv_general_dilated on (N, W, C).
    f = Func("test_conv_1d")
    x = array(rng.integers(-3, 4, (2, 9, 3)), e)
    w = array(rng.integers(-2, 3, (4, 3, 2)), e)
    vx, vw = f.input(x, e), f.input(w, e)
    ref = conv_ref(x[:, :, None, :], w[:, None, :, :], [2, 1], [[1, 2], [0, 0]],
                   [1, 1], [1, 1], 1)[:, :, 0, :]
    expected = array(ref, e)
    r = f.op("stablehlo.convolution(%s, %s) dim_numbers = [b, 0, f]x[0, i, o]->"
             "[b, 0, f], window = {stride = [2], pad = [[1, 2]]} {batch_group_count "
             "= 1 : i64, feature_group_count = 1 : i64} : (%s, %s) -> %s"
             % (vx, vw, t(x, e), t(w, e), t(expected, e)))
    f.expect(r, expected, e)
    funcs.append(f.text())

    # x[i, j] for arrays of (i, j) pairs.
    f = Func("test_gather_points")
    a = array(rng.integers(-9, 10, (4, 5)), e)
    idx = array([[0, 4], [3, 1], [2, 2]], "i32")
    x, i = f.input(a, e), f.input(idx, "i32")
    r = f.op('"stablehlo.gather"(%s, %s) <{dimension_numbers = #stablehlo.gather<'
             'collapsed_slice_dims = [0, 1], start_index_map = [0, 1], '
             'index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = '
             'array<i64: 1, 1>}> : (tensor<4x5xf32>, tensor<3x2xi32>) -> '
             'tensor<3xf32>' % (x, i))
    f.expect(r, a[idx[:, 0], idx[:, 1]], e)
    funcs.append(f.text())

    # x.at[idx].max(u)
    f = Func("test_scatter_max")
    a = array([1.0, 5.0, -2.0, 0.0], e)
    idx = array([[2], [1], [2]], "i32")
    u = array([3.0, 4.0, -1.0], e)
    x, i, vu = f.input(a, e), f.input(idx, "i32"), f.input(u, e)
    r = f.op('"stablehlo.scatter"(%s, %s, %s) <{indices_are_sorted = false, '
             'scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = '
             '[0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, '
             'unique_indices = false}> ({\n%s\n    }) : (tensor<4xf32>, '
             'tensor<3x1xi32>, tensor<3xf32>) -> tensor<4xf32>'
             % (x, i, vu, binary_body("maximum", "f32", "%arg3", "%arg4")))
    expected = a.copy()
    np.maximum.at(expected, idx[:, 0], u)
    f.expect(r, expected, e)
    funcs.append(f.text())

    # An int8 matmul accumulating in i32, as quantized models export it.
    f = Func("test_dot_i8_to_i32")
    a = array(rng.integers(-128, 128, (3, 40)), "i8")
    b = array(rng.integers(-128, 128, (40, 5)), "i8")
    x, y = f.input(a, "i8"), f.input(b, "i8")
    r = f.op("stablehlo.dot_general %s, %s, contracting_dims = [1] x [0] : "
             "(tensor<3x40xi8>, tensor<40x5xi8>) -> tensor<3x5xi32>" % (x, y))
    f.expect(r, array(a.astype(np.int64) @ b.astype(np.int64), "i32"), "i32")
    funcs.append(f.text())

    f = Func("test_reduce_init_value")
    a = array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], e)
    x = f.input(a, e)
    init = f.input(array(10.0, e), e)
    r = f.op("stablehlo.reduce(%s init: %s) applies stablehlo.add across "
             "dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>"
             % (x, init))
    f.expect(r, a.sum(axis=1) + 10.0, e)
    funcs.append(f.text(comment="A non-identity init enters each result once."))

    f = Func("test_while_zero_trips")
    a = array([1.0, 2.0], e)
    x = f.input(a, e)
    r = counted_while(f, x, "tensor<2xf32>", 7, 5, [
        "  %100 = stablehlo.negate %iterArg_0 : tensor<2xf32>",
        "  stablehlo.return %iterArg, %100 : tensor<i32>, tensor<2xf32>",
    ])
    f.expect("%s#1" % r, a, e)
    f.expect("%s#0" % r, array(7, "i32"), "i32")
    funcs.append(f.text(comment="The condition is false on entry: the body "
                        "never runs."))

    f = Func("test_if_two_results")
    a = array([1.5, -2.0], e)
    x = f.input(a, e)
    for pred in (True, False):
        p_ = f.input(array(pred, "i1"), "i1")
        r = f.op('"stablehlo.if"(%s) ({\n'
                 '      %%c = stablehlo.constant dense<1> : tensor<i32>\n'
                 '      stablehlo.return %s, %%c : tensor<2xf32>, tensor<i32>\n'
                 '    }, {\n'
                 '      %%c = stablehlo.constant dense<2> : tensor<i32>\n'
                 '      %%100 = stablehlo.abs %s : tensor<2xf32>\n'
                 '      stablehlo.return %%100, %%c : tensor<2xf32>, tensor<i32>\n'
                 '    }) : (tensor<i1>) -> (tensor<2xf32>, tensor<i32>)'
                 % (p_, x, x), count=2)
        f.expect("%s#0" % r, a if pred else np.abs(a), e)
        f.expect("%s#1" % r, array(1 if pred else 2, "i32"), "i32")
    funcs.append(f.text(comment="Branches returning two values: one an operand "
                        "of the if, one a constant."))

    f = Func("test_reduce_window_dilations")
    a = array(rng.integers(-9, 10, (9,)), "i32")
    x = f.input(a, "i32")
    c = f.op("stablehlo.constant dense<-2147483648> : tensor<i32>")
    body = binary_body("maximum", "i32")
    # base dilation 2: 17 elements (holes are the init value); window 3 with
    # dilation 2 spans 5; stride 3.
    based = np.full(17, -2 ** 31, dtype=np.int64)
    based[::2] = a
    expected = [based[i:i + 5:2].max() for i in range(0, 17 - 5 + 1, 3)]
    r = f.op('"stablehlo.reduce_window"(%s, %s) <{base_dilations = array<i64: 2>, '
             'window_dilations = array<i64: 2>, window_dimensions = array<i64: 3>, '
             'window_strides = array<i64: 3>}> ({\n%s\n    }) : (tensor<9xi32>, '
             'tensor<i32>) -> tensor<%dxi32>' % (x, c, body, len(expected)))
    f.expect(r, array(expected, "i32"), "i32")
    funcs.append(f.text(comment="base_dilations and window_dilations, as the "
                        "gradient of pooling exports them."))

    f = Func("test_sort_middle_dimension")
    a = array(rng.integers(-20, 20, (2, 5, 3)), "i32")
    x = f.input(a, "i32")
    r = f.op('"stablehlo.sort"(%s) <{dimension = 1 : i64}> ({\n%s\n    }) : '
             '(tensor<2x5x3xi32>) -> tensor<2x5x3xi32>'
             % (x, sort_body(["i32"], "LT", "SIGNED")))
    f.expect(r, np.sort(a, axis=1), "i32")
    funcs.append(f.text())

    f = Func("fail_corners_wrong_expectation")
    x = f.input(array([0.0], e), e)
    r = f.op("stablehlo.log %s : tensor<1xf32>" % x)
    f.expect(r, array([0.0], e), e)
    funcs.append(f.text(comment="log(0) is -inf, not 0: the check must fail."))
    return funcs


#===----------------------------------------------------------------------===#
# Older export forms: attributes in {...} with dense<...> : tensor<Nxi64>
# arrays (StableHLO before array<i64>, still in TensorFlow and older JAX
# exports), argument attributes such as mhlo.sharding and jax.arg_info
#===----------------------------------------------------------------------===#

def gen_globals():
    """Mutable globals: state kept in the module across calls."""
    funcs = []
    e = "f32"
    rng = np.random.default_rng(29)

    funcs.append(
        "  util.global private mutable @count = dense<0> : tensor<i32>\n"
        "  ml_program.global private mutable @total(dense<1.5> : tensor<2xf32>) : "
        "tensor<2xf32>\n"
        "  util.global private mutable @cache : tensor<4x3xf32>\n"
        "  util.global private mutable @position = dense<0> : tensor<i32>\n"
        "  util.global private mutable @slot = #util.byte_pattern<1> : tensor<3xi8>\n"
        "  util.global private mutable @flag = dense<0> : tensor<i32>\n"
        "  util.global private mutable @empty = dense<> : tensor<0x3xf32>")

    funcs.append(
        "  // A counter: each call adds one and returns the new count (a\n"
        "  // straight-line function, so its second and later calls replay one\n"
        "  // recorded command buffer).\n"
        "  func.func private @counter_step() -> tensor<i32> {\n"
        "    %0 = util.global.load @count : tensor<i32>\n"
        "    %c = stablehlo.constant dense<1> : tensor<i32>\n"
        "    %1 = stablehlo.add %0, %c : tensor<i32>\n"
        "    util.global.store %1, @count : tensor<i32>\n"
        "    return %1 : tensor<i32>\n"
        "  }")
    f = Func("test_counter")
    for i in range(1, 4):
        v = f.op("func.call @counter_step() : () -> tensor<i32>")
        f.expect(v, array(i, "i32"), "i32")
    funcs.append(f.text(comment="Three calls count 1, 2, 3."))

    f = Func("fail_counter_is_stateful")
    f.op("func.call @counter_step() : () -> tensor<i32>")
    v = f.op("func.call @counter_step() : () -> tensor<i32>")
    f.expect(v, array(1, "i32"), "i32")
    funcs.append(f.text(comment="The second call sees the first's store (expects 1: must "
                        "fail)."))

    funcs.append(
        "  // ml_program's forms: a running sum of the arguments.\n"
        "  func.func private @accumulate(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
        "    %0 = ml_program.global_load @total : tensor<2xf32>\n"
        "    %1 = stablehlo.add %0, %arg0 : tensor<2xf32>\n"
        "    ml_program.global_store @total = %1 : tensor<2xf32>\n"
        "    return %1 : tensor<2xf32>\n"
        "  }")
    f = Func("test_ml_program_accumulate")
    total = np.array([1.5, 1.5])
    for i in range(3):
        x = array(rng.uniform(-2, 2, 2), e)
        xv = f.input(x, e)
        total = total + np.asarray(x, np.float64)
        v = f.op("func.call @accumulate(%s) : (tensor<2xf32>) -> tensor<2xf32>" % xv)
        f.expect(v, total, e, 1e-5, 1e-5)
    funcs.append(f.text(comment="ml_program.global_load / global_store: three calls sum "
                        "their arguments onto the initial value."))

    funcs.append(
        "  // A KV-cache-like append: row |position| of @cache (zeros: the\n"
        "  // global has no initial value) becomes the argument.\n"
        "  func.func private @append(%arg0: tensor<1x3xf32>) -> tensor<4x3xf32> {\n"
        "    %0 = util.global.load @position : tensor<i32>\n"
        "    %1 = util.global.load @cache : tensor<4x3xf32>\n"
        "    %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
        "    %2 = stablehlo.dynamic_update_slice %1, %arg0, %0, %c0 : "
        "(tensor<4x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>\n"
        "    util.global.store %2, @cache : tensor<4x3xf32>\n"
        "    %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
        "    %3 = stablehlo.add %0, %c1 : tensor<i32>\n"
        "    util.global.store %3, @position : tensor<i32>\n"
        "    return %2 : tensor<4x3xf32>\n"
        "  }")
    f = Func("test_kv_cache_append")
    cache = np.zeros((4, 3))
    for i in range(3):
        row = array(rng.uniform(-1, 1, (1, 3)), e)
        rv = f.input(row, e)
        cache[i] = np.asarray(row, np.float64)[0]
        v = f.op("func.call @append(%s) : (tensor<1x3xf32>) -> tensor<4x3xf32>" % rv)
        f.expect(v, cache.copy(), e)
    p = f.op("util.global.load @position : tensor<i32>")
    f.expect(p, array(3, "i32"), "i32")
    funcs.append(f.text(comment="Three appends fill rows 0, 1, 2; the position global "
                        "reads 3 after them."))

    funcs.append(
        "  // Returns the global's old value and stores the argument: the load's\n"
        "  // copy is taken before the store overwrites the global; a load after\n"
        "  // the store sees the argument.\n"
        "  func.func private @exchange(%arg0: tensor<3xi8>) -> (tensor<3xi8>, tensor<3xi8>) {\n"
        "    %0 = util.global.load @slot : tensor<3xi8>\n"
        "    util.global.store %arg0, @slot : tensor<3xi8>\n"
        "    %1 = util.global.load @slot : tensor<3xi8>\n"
        "    return %0, %1 : tensor<3xi8>, tensor<3xi8>\n"
        "  }")
    f = Func("test_exchange")
    prev = array([1, 1, 1], "i8")
    for i in range(2):
        x = array(rng.integers(-100, 100, 3), "i8")
        xv = f.input(x, "i8")
        v = f.op("func.call @exchange(%s) : (tensor<3xi8>) -> (tensor<3xi8>, tensor<3xi8>)"
                 % xv, count=2)
        f.expect(v + "#0", prev, "i8")
        f.expect(v + "#1", x, "i8")
        prev = x
    funcs.append(f.text(comment="#util.byte_pattern<1> initial value; load, store of an "
                        "argument, load again."))

    f = Func("test_store_in_control_flow")
    n = f.input(array(5, "i32"), "i32")
    f.line("%%w = stablehlo.while(%%iterArg = %s) : tensor<i32>" % n)
    f.line(" cond {")
    f.line("  %c0 = stablehlo.constant dense<0> : tensor<i32>")
    f.line("  %gt = stablehlo.compare GT, %iterArg, %c0, SIGNED : "
           "(tensor<i32>, tensor<i32>) -> tensor<i1>")
    f.line("  stablehlo.return %gt : tensor<i1>")
    f.line("} do {")
    f.line("  %g = util.global.load @flag : tensor<i32>")
    f.line("  %s = stablehlo.add %g, %iterArg : tensor<i32>")
    f.line("  util.global.store %s, @flag : tensor<i32>")
    f.line("  %c1 = stablehlo.constant dense<1> : tensor<i32>")
    f.line("  %d = stablehlo.subtract %iterArg, %c1 : tensor<i32>")
    f.line("  stablehlo.return %d : tensor<i32>")
    f.line("}")
    sum_ = f.op("util.global.load @flag : tensor<i32>")
    f.expect(sum_, array(15, "i32"), "i32")
    big = f.op("stablehlo.compare GT, %s, %s, SIGNED : (tensor<i32>, tensor<i32>) -> "
               "tensor<i1>" % (sum_, n))
    f.line('"stablehlo.if"(%s) ({' % big)
    f.line("  %c = stablehlo.constant dense<100> : tensor<i32>")
    f.line("  util.global.store %c, @flag : tensor<i32>")
    f.line("  stablehlo.return")
    f.line("}, {")
    f.line("  stablehlo.return")
    f.line("}) : (tensor<i1>) -> ()")
    after = f.op("util.global.load @flag : tensor<i32>")
    f.expect(after, array(100, "i32"), "i32")
    empty = f.op("util.global.load @empty : tensor<0x3xf32>")
    f.line("util.global.store %s, @empty : tensor<0x3xf32>" % empty)
    funcs.append(f.text(comment="Loads and stores inside a while body (5+4+3+2+1) and an "
                        "if branch; an empty global."))
    return funcs


def gen_cfg():
    """Functions with several blocks (cf.br / cf.cond_br)."""
    funcs = []

    # IREE's collatz model: the steps from 178 down to 1.
    steps, v = 0, 178.0
    while v > 1:
        steps += 1
        v = v * 3 + 1 if v % 2 != 0 else v / 2
    funcs.append(
        "  // IREE's collatz model: a loop through block arguments whose header\n"
        "  // exits; an if/else diamond in its body whose blocks use a value of\n"
        "  // the block that dominates them.\n"
        "  func.func public @test_collatz() {\n"
        "    %0 = util.unfoldable_constant dense<178.0> : tensor<f32>\n"
        "    %1 = stablehlo.constant dense<1.0> : tensor<f32>\n"
        "    %2 = stablehlo.constant dense<3.0> : tensor<f32>\n"
        "    %3 = stablehlo.constant dense<2.0> : tensor<f32>\n"
        "    %4 = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "    cf.br ^bb1(%4, %0 : tensor<f32>, tensor<f32>)\n"
        "  ^bb1(%5: tensor<f32>, %6: tensor<f32>):\n"
        "    %7 = \"stablehlo.compare\"(%6, %1) {comparison_direction = "
        "#stablehlo<comparison_direction GT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "    %8 = tensor.extract %7[] : tensor<i1>\n"
        "    cf.cond_br %8, ^bb2(%5, %6 : tensor<f32>, tensor<f32>), ^bb6(%5 : tensor<f32>)\n"
        "  ^bb2(%9: tensor<f32>, %10: tensor<f32>):\n"
        "    %11 = stablehlo.add %9, %1 : tensor<f32>\n"
        "    %12 = stablehlo.remainder %10, %3 : tensor<f32>\n"
        "    %13 = \"stablehlo.compare\"(%12, %4) {comparison_direction = "
        "#stablehlo<comparison_direction NE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "    %14 = tensor.extract %13[] : tensor<i1>\n"
        "    cf.cond_br %14, ^bb3, ^bb4\n"
        "  ^bb3:\n"
        "    %15 = stablehlo.multiply %10, %2 : tensor<f32>\n"
        "    %16 = stablehlo.add %15, %1 : tensor<f32>\n"
        "    cf.br ^bb5(%16 : tensor<f32>)\n"
        "  ^bb4:\n"
        "    %17 = stablehlo.divide %10, %3 : tensor<f32>\n"
        "    cf.br ^bb5(%17 : tensor<f32>)\n"
        "  ^bb5(%18: tensor<f32>):\n"
        "    cf.br ^bb1(%11, %18 : tensor<f32>, tensor<f32>)\n"
        "  ^bb6(%19: tensor<f32>):\n"
        "    check.expect_eq_const(%19, dense<STEPS> : tensor<f32>) : tensor<f32>\n"
        "    return\n"
        "  }".replace("STEPS", "%.1f" % steps))

    # A loop whose header stays in the loop on the false branch, whose exit
    # block uses a value the header computes, and a self loop.
    x = np.array([1.0, 2.0, 3.0])
    total = x.copy()
    i = 0
    while not (i >= 4):
        total = total * 2 + 1
        i += 1
    funcs.append(
        "  // A loop that stays on the false branch; the exit block uses a value\n"
        "  // the header computes (the header's ops run once more after the loop).\n"
        "  func.func private @double_four_times(%arg0: tensor<3xf32>) -> tensor<3xf32> {\n"
        "    %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
        "    cf.br ^head(%c0, %arg0 : tensor<i32>, tensor<3xf32>)\n"
        "  ^head(%i: tensor<i32>, %x: tensor<3xf32>):\n"
        "    %c4 = stablehlo.constant dense<4> : tensor<i32>\n"
        "    %done = stablehlo.compare GE, %i, %c4, SIGNED : (tensor<i32>, tensor<i32>) -> "
        "tensor<i1>\n"
        "    %one = stablehlo.constant dense<1.0> : tensor<3xf32>\n"
        "    %xp1 = stablehlo.add %x, %one : tensor<3xf32>\n"
        "    %p = tensor.extract %done[] : tensor<i1>\n"
        "    cf.cond_br %p, ^exit, ^body\n"
        "  ^body:\n"
        "    %2 = stablehlo.add %x, %xp1 : tensor<3xf32>\n"
        "    %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
        "    %i1 = stablehlo.add %i, %c1 : tensor<i32>\n"
        "    cf.br ^head(%i1, %2 : tensor<i32>, tensor<3xf32>)\n"
        "  ^exit:\n"
        "    %r = stablehlo.subtract %xp1, %one : tensor<3xf32>\n"
        "    return %r : tensor<3xf32>\n"
        "  }")
    f = Func("test_loop_false_branch")
    xv = f.input(x, "f32")
    r = f.op("func.call @double_four_times(%s) : (tensor<3xf32>) -> tensor<3xf32>" % xv)
    f.expect(r, total, "f32")
    funcs.append(f.text(comment="4 rounds of x * 2 + 1."))

    funcs.append(
        "  // A self loop (the header is its own body) and an early exit of\n"
        "  // both branches of a cf.cond_br to returns.\n"
        "  func.func private @count_down(%arg0: tensor<i32>) -> (tensor<i32>, tensor<i32>) {\n"
        "    %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
        "    cf.br ^loop(%arg0, %c0 : tensor<i32>, tensor<i32>)\n"
        "  ^loop(%n: tensor<i32>, %acc: tensor<i32>):\n"
        "    %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
        "    %n1 = stablehlo.subtract %n, %c1 : tensor<i32>\n"
        "    %a1 = stablehlo.add %acc, %n : tensor<i32>\n"
        "    %gt = stablehlo.compare GT, %n1, %c0, SIGNED : (tensor<i32>, tensor<i32>) -> "
        "tensor<i1>\n"
        "    %p = tensor.extract %gt[] : tensor<i1>\n"
        "    cf.cond_br %p, ^loop(%n1, %a1 : tensor<i32>, tensor<i32>), ^done(%a1 : tensor<i32>)\n"
        "  ^done(%sum: tensor<i32>):\n"
        "    %c10 = stablehlo.constant dense<10> : tensor<i32>\n"
        "    %big = stablehlo.compare GT, %sum, %c10, SIGNED : (tensor<i32>, tensor<i32>) -> "
        "tensor<i1>\n"
        "    %q = tensor.extract %big[] : tensor<i1>\n"
        "    cf.cond_br %q, ^large, ^small\n"
        "  ^large:\n"
        "    return %sum, %c1 : tensor<i32>, tensor<i32>\n"
        "  ^small:\n"
        "    return %sum, %c0 : tensor<i32>, tensor<i32>\n"
        "  }")
    f = Func("test_self_loop_and_returns")
    for n in (5, 3):
        nv = f.input(array(n, "i32"), "i32")
        r = f.op("func.call @count_down(%s) : (tensor<i32>) -> (tensor<i32>, tensor<i32>)"
                 % nv, count=2)
        total = n * (n + 1) // 2
        f.expect(r + "#0", array(total, "i32"), "i32")
        f.expect(r + "#1", array(1 if total > 10 else 0, "i32"), "i32")
    funcs.append(f.text(comment="5+4+3+2+1 = 15 (> 10: 1), 3+2+1 = 6 (0)."))

    # Nested loops, and an if with no else branch (the false target is the
    # join) carrying a value.
    m = 0
    for a in range(3):
        for b in range(4):
            m += a * b
        if m > 5:
            m -= 1
    funcs.append(
        "  // Nested loops; an if whose false target is the join block.\n"
        "  func.func private @nested() -> tensor<i32> {\n"
        "    %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
        "    %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
        "    %c3 = stablehlo.constant dense<3> : tensor<i32>\n"
        "    %c4 = stablehlo.constant dense<4> : tensor<i32>\n"
        "    %c5 = stablehlo.constant dense<5> : tensor<i32>\n"
        "    cf.br ^outer(%c0, %c0 : tensor<i32>, tensor<i32>)\n"
        "  ^outer(%a: tensor<i32>, %m: tensor<i32>):\n"
        "    %lt = stablehlo.compare LT, %a, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> "
        "tensor<i1>\n"
        "    %p = tensor.extract %lt[] : tensor<i1>\n"
        "    cf.cond_br %p, ^inner(%c0, %m : tensor<i32>, tensor<i32>), ^end\n"
        "  ^inner(%b: tensor<i32>, %mi: tensor<i32>):\n"
        "    %lt2 = stablehlo.compare LT, %b, %c4, SIGNED : (tensor<i32>, tensor<i32>) -> "
        "tensor<i1>\n"
        "    %p2 = tensor.extract %lt2[] : tensor<i1>\n"
        "    cf.cond_br %p2, ^inner_body, ^after_inner\n"
        "  ^inner_body:\n"
        "    %ab = stablehlo.multiply %a, %b : tensor<i32>\n"
        "    %m2 = stablehlo.add %mi, %ab : tensor<i32>\n"
        "    %b1 = stablehlo.add %b, %c1 : tensor<i32>\n"
        "    cf.br ^inner(%b1, %m2 : tensor<i32>, tensor<i32>)\n"
        "  ^after_inner:\n"
        "    %gt = stablehlo.compare GT, %mi, %c5, SIGNED : (tensor<i32>, tensor<i32>) -> "
        "tensor<i1>\n"
        "    %q = tensor.extract %gt[] : tensor<i1>\n"
        "    cf.cond_br %q, ^minus, ^next(%mi : tensor<i32>)\n"
        "  ^minus:\n"
        "    %m3 = stablehlo.subtract %mi, %c1 : tensor<i32>\n"
        "    cf.br ^next(%m3 : tensor<i32>)\n"
        "  ^next(%mn: tensor<i32>):\n"
        "    %a1 = stablehlo.add %a, %c1 : tensor<i32>\n"
        "    cf.br ^outer(%a1, %mn : tensor<i32>, tensor<i32>)\n"
        "  ^end:\n"
        "    return %m : tensor<i32>\n"
        "  }")
    f = Func("test_nested_loops")
    r = f.op("func.call @nested() : () -> tensor<i32>")
    f.expect(r, array(m, "i32"), "i32")
    funcs.append(f.text(comment="sum over a < 3, b < 4 of a * b, minus 1 after each outer "
                        "round where it exceeds 5."))

    funcs.append(
        "  // A loop inside one branch of a cf.cond_br, exiting to the join.\n"
        "  func.func private @maybe_loop(%arg0: tensor<i32>) -> tensor<i32> {\n"
        "    %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
        "    %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
        "    %pos = stablehlo.compare GT, %arg0, %c0, SIGNED : (tensor<i32>, tensor<i32>) -> "
        "tensor<i1>\n"
        "    %p = tensor.extract %pos[] : tensor<i1>\n"
        "    cf.cond_br %p, ^loop(%arg0, %c1 : tensor<i32>, tensor<i32>), ^join(%c0 : "
        "tensor<i32>)\n"
        "  ^loop(%n: tensor<i32>, %f: tensor<i32>):\n"
        "    %more = stablehlo.compare GT, %n, %c1, SIGNED : (tensor<i32>, tensor<i32>) -> "
        "tensor<i1>\n"
        "    %q = tensor.extract %more[] : tensor<i1>\n"
        "    %f2 = stablehlo.multiply %f, %n : tensor<i32>\n"
        "    %n2 = stablehlo.subtract %n, %c1 : tensor<i32>\n"
        "    cf.cond_br %q, ^loop(%n2, %f2 : tensor<i32>, tensor<i32>), ^join(%f2 : tensor<i32>)\n"
        "  ^join(%r: tensor<i32>):\n"
        "    return %r : tensor<i32>\n"
        "  }")
    f = Func("test_loop_in_branch")
    for n, want in ((5, 120), (0, 0), (1, 1)):
        nv = f.input(array(n, "i32"), "i32")
        r = f.op("func.call @maybe_loop(%s) : (tensor<i32>) -> tensor<i32>" % nv)
        f.expect(r, array(want, "i32"), "i32")
    funcs.append(f.text(comment="n! for n > 0 through a loop in the true branch, 0 otherwise."))

    # As TensorFlow's exports write loops (IREE's LSTM model): the header
    # calls a private condition function, and the loop updates slices of
    # carried buffers with dynamic_update_slice.
    xs = np.array([0.5, -1.0, 2.0, 0.25])
    h = 0.0
    rows = []
    for v in xs:
        h = np.tanh(v + 0.5 * h)
        rows.append(h)
    funcs.append(
        "  func.func private @loop_cond(%arg0: tensor<i64>, %arg1: tensor<i64>, "
        "%arg2: tensor<f32>, %arg3: tensor<4xf32>) -> tensor<i1> {\n"
        "    %0 = stablehlo.compare LT, %arg0, %arg1 : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
        "    return %0 : tensor<i1>\n"
        "  }\n"
        "  // A recurrence h = tanh(x[i] + 0.5 h), each h written to row i.\n"
        "  func.func private @recurrence(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
        "    %c0 = stablehlo.constant dense<0> : tensor<i64>\n"
        "    %c1 = stablehlo.constant dense<1> : tensor<i64>\n"
        "    %n = stablehlo.constant dense<4> : tensor<i64>\n"
        "    %h0 = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "    %out0 = stablehlo.constant dense<0.0> : tensor<4xf32>\n"
        "    %half = stablehlo.constant dense<0.5> : tensor<f32>\n"
        "    cf.br ^bb1(%c0, %n, %h0, %out0 : tensor<i64>, tensor<i64>, tensor<f32>, "
        "tensor<4xf32>)\n"
        "  ^bb1(%i: tensor<i64>, %m: tensor<i64>, %h: tensor<f32>, %out: tensor<4xf32>):\n"
        "    %p = call @loop_cond(%i, %m, %h, %out) : (tensor<i64>, tensor<i64>, tensor<f32>, "
        "tensor<4xf32>) -> tensor<i1>\n"
        "    %pe = tensor.extract %p[] : tensor<i1>\n"
        "    cf.cond_br %pe, ^bb2(%i, %h, %out : tensor<i64>, tensor<f32>, tensor<4xf32>), "
        "^bb3(%out : tensor<4xf32>)\n"
        "  ^bb2(%j: tensor<i64>, %g: tensor<f32>, %o: tensor<4xf32>):\n"
        "    %x = stablehlo.dynamic_slice %arg0, %j, sizes = [1] : (tensor<4xf32>, "
        "tensor<i64>) -> tensor<1xf32>\n"
        "    %xs = stablehlo.reshape %x : (tensor<1xf32>) -> tensor<f32>\n"
        "    %gh = stablehlo.multiply %g, %half : tensor<f32>\n"
        "    %s = stablehlo.add %xs, %gh : tensor<f32>\n"
        "    %t = stablehlo.tanh %s : tensor<f32>\n"
        "    %t1 = stablehlo.reshape %t : (tensor<f32>) -> tensor<1xf32>\n"
        "    %o2 = stablehlo.dynamic_update_slice %o, %t1, %j : (tensor<4xf32>, tensor<1xf32>, "
        "tensor<i64>) -> tensor<4xf32>\n"
        "    %j1 = stablehlo.add %j, %c1 : tensor<i64>\n"
        "    cf.br ^bb1(%j1, %m, %t, %o2 : tensor<i64>, tensor<i64>, tensor<f32>, "
        "tensor<4xf32>)\n"
        "  ^bb3(%r: tensor<4xf32>):\n"
        "    return %r : tensor<4xf32>\n"
        "  }")
    f = Func("test_tensorflow_loop")
    xv = f.input(xs, "f32")
    r = f.op("func.call @recurrence(%s) : (tensor<4xf32>) -> tensor<4xf32>" % xv)
    f.expect(r, np.array(rows), "f32", 1e-5, 1e-5)
    funcs.append(f.text(comment="A loop whose header calls its condition function, as in "
                        "IREE's LSTM model."))

    f = Func("fail_nested_loops_wrong")
    r = f.op("func.call @nested() : () -> tensor<i32>")
    f.expect(r, array(m + 1, "i32"), "i32")
    funcs.append(f.text(comment="A wrong expectation (must fail)."))
    return funcs


def gen_legacy_forms():
    funcs = []
    e = "f32"
    rng = np.random.default_rng(13)

    # Module-level globals as IREE's model tests and ml_program exports
    # write them: constants at every load.
    kernel = array(rng.uniform(-1, 1, (4, 3)), e)
    bias = array([0.5, -1.0, 2.0], e)
    funcs.append(
        "  util.global private @\"model.layer-1.kernel\" {inlining_policy = "
        "#util.inline.never} = %s : %s\n"
        "  util.global private @\"model.layer-1.bias\" {noinline} = %s : %s\n"
        "  util.global private @filler = #util.byte_pattern<258> : tensor<2x2xi8>\n"
        "  util.global private mutable @never_stored = dense<7> : tensor<2xi32>\n"
        "  ml_program.global private @scale(dense<2.5> : tensor<f32>) : tensor<f32>"
        % (dense(kernel, e), type_of(kernel, e), dense(bias, e), type_of(bias, e)))
    f = Func("test_util_globals")
    x = array(rng.uniform(-1, 1, (2, 4)), e)
    xv = f.input(x, e)
    f.line("%%kp = util.global.address @\"model.layer-1.kernel\" : !util.ptr<%s>"
           % type_of(kernel, e))
    k = f.op("util.global.load.indirect %%kp : !util.ptr<%s> -> %s"
             % (type_of(kernel, e), type_of(kernel, e)))
    b = f.op("util.global.load @\"model.layer-1.bias\" : %s" % type_of(bias, e))
    d = f.op("stablehlo.dot %s, %s : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>"
             % (xv, k))
    bb = f.op("stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<3xf32>) -> "
              "tensor<2x3xf32>" % b)
    r = f.op("stablehlo.add %s, %s : tensor<2x3xf32>" % (d, bb))
    sc = f.op("ml_program.global_load_const @scale : tensor<f32>")
    sb = f.op("stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>"
              % sc)
    r = f.op("stablehlo.multiply %s, %s : tensor<2x3xf32>" % (r, sb))
    f.expect(r, (np.asarray(x, np.float64) @ np.asarray(kernel, np.float64) + bias) * 2.5,
             e, 1e-5, 1e-5)
    fill = f.op("util.global.load immutable @filler : tensor<2x2xi8>")
    f.expect(fill, array(np.full((2, 2), 2), "i8"), "i8")
    kept = f.op('"util.global.load"() {global = @never_stored} : () -> tensor<2xi32>')
    f.expect(kept, array([7, 7], "i32"), "i32")
    funcs.append(f.text(comment="util.global (dense<...> and #util.byte_pattern<N>, "
                        "every byte N mod 256) through util.global.load, "
                        "util.global.address + load.indirect, and ml_program.global."))

    f = Func("test_mhlo_forms")
    img = array(rng.integers(-3, 4, (1, 5, 5, 1)), e)
    bias = array([0.5, -1.0, 2.0, 0.25, 1.5], e)
    x = f.input(img, e)
    bv = f.input(bias, e)
    filt = array([[1.0, 0.0, -1.0], [2.0, 0.0, -2.0], [1.0, 0.0, -1.0]], e).reshape(3, 3, 1, 1)
    k = f.op("mhlo.constant %s : %s" % (dense(filt, e), type_of(filt, e)))
    conv = f.op('"mhlo.convolution"(%s, %s) {batch_group_count = 1 : i64, dimension_numbers = '
                '#mhlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, '
                'input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, '
                'kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], '
                'output_batch_dimension = 0, output_feature_dimension = 3, '
                'output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, '
                'padding = dense<1> : tensor<2x2xi64>, rhs_dilation = dense<1> : tensor<2xi64>, '
                'window_strides = dense<1> : tensor<2xi64>} : (tensor<1x5x5x1xf32>, '
                'tensor<3x3x1x1xf32>) -> tensor<1x5x5x1xf32>' % (x, k))
    flat = f.op('"mhlo.reshape"(%s) {name = "reshape.1"} : (tensor<1x5x5x1xf32>) -> '
                'tensor<5x5xf32>' % conv)
    wide = f.op('"mhlo.broadcast_in_dim"(%s) {broadcast_dimensions = dense<1> : '
                'tensor<1xi64>, name = "broadcast.2"} : (tensor<5xf32>) -> tensor<5x5xf32>' % bv)
    summed = f.op("mhlo.add %s, %s {name = \"add.3\"} : tensor<5x5xf32>" % (flat, wide))
    zero = f.op("mhlo.constant dense<0.000000e+00> : tensor<5x5xf32>")
    positive = f.op('"mhlo.compare"(%s, %s) {comparison_direction = '
                    '#mhlo<"comparison_direction GT">} : (tensor<5x5xf32>, tensor<5x5xf32>) '
                    '-> tensor<5x5xi1>' % (summed, zero))
    negative = f.op('"mhlo.compare"(%s, %s) {comparison_direction = '
                    '#mhlo<comparison_direction LT>} : (tensor<5x5xf32>, tensor<5x5xf32>) '
                    '-> tensor<5x5xi1>' % (summed, zero))
    relu = f.op('"mhlo.select"(%s, %s, %s) : (tensor<5x5xi1>, tensor<5x5xf32>, '
                'tensor<5x5xf32>) -> tensor<5x5xf32>' % (positive, summed, zero))
    copied = f.op('"mhlo.copy"(%s) {name = "copy.4"} : (tensor<5x5xf32>) -> tensor<5x5xf32>'
                  % relu)
    t = f.op('"mhlo.transpose"(%s) {permutation = dense<[1, 0]> : tensor<2xi64>} : '
             '(tensor<5x5xf32>) -> tensor<5x5xf32>' % copied)
    d = f.op('"mhlo.dot"(%s, %s) {precision_config = [#mhlo<precision DEFAULT>, '
             '#mhlo<precision DEFAULT>]} : (tensor<5x5xf32>, tensor<5x5xf32>) -> '
             'tensor<5x5xf32>' % (t, copied))
    init = f.op("mhlo.constant dense<0.000000e+00> : tensor<f32>")
    red = f.op('"mhlo.reduce"(%s, %s) ({\n    ^bb0(%%p: tensor<f32>, %%q: tensor<f32>):\n'
               '      %%s = mhlo.add %%p, %%q : tensor<f32>\n'
               '      "mhlo.return"(%%s) : (tensor<f32>) -> ()\n    }) '
               '{dimensions = dense<1> : tensor<1xi64>} : (tensor<5x5xf32>, tensor<f32>) -> '
               'tensor<5xf32>' % (d, init))
    neg = f.op('"mhlo.convert"(%s) : (tensor<5x5xi1>) -> tensor<5x5xf32>' % negative)
    # The reference, by the definitions.
    xi = np.asarray(img, np.float64)[0, :, :, 0]
    padded = np.pad(xi, 1)
    fk = np.asarray(filt, np.float64)[:, :, 0, 0]
    c = np.array([[np.sum(padded[i:i + 3, j:j + 3] * fk) for j in range(5)]
                  for i in range(5)])
    sm = c + np.asarray(bias, np.float64)[None, :]
    rl = np.where(sm > 0, sm, 0.0)
    f.expect(red, (rl.T @ rl).sum(axis=1), e, 1e-5, 1e-5)
    f.expect(neg, (sm < 0).astype(np.float64), e)
    funcs.append(f.text(comment="MHLO, StableHLO's predecessor, as older exports and IREE's "
                        "model tests write it: mhlo.* ops read as stablehlo.*, "
                        "#mhlo<...> attributes (and the quoted "
                        "#mhlo<\"comparison_direction GT\">), dense<...> dimension "
                        "lists, name attributes, and mhlo.copy."))

    f = Func("test_tuples")
    a = array([1.5, -2.0, 3.25], e)
    b = array([[4, 5], [6, 7]], "i32")
    av, bv = f.input(a, e), f.input(b, "i32")
    tt = "tuple<tensor<3xf32>, tensor<2x2xi32>>"
    t = f.op("stablehlo.tuple %s, %s : %s" % (av, bv, tt))
    t2 = f.op('"stablehlo.tuple"(%s, %s) : (tensor<2x2xi32>, tensor<3xf32>) -> '
              'tuple<tensor<2x2xi32>, tensor<3xf32>>' % (bv, av))
    x = f.op("stablehlo.get_tuple_element %s[0] : (%s) -> tensor<3xf32>" % (t, tt))
    y = f.op('"stablehlo.get_tuple_element"(%s) {index = 0 : i32} : (tuple<tensor<2x2xi32>, '
             'tensor<3xf32>>) -> tensor<2x2xi32>' % t2)
    f.expect(f.op("stablehlo.add %s, %s : tensor<3xf32>" % (x, x)), a * 2, e)
    f.expect(y, b, "i32")
    funcs.append(f.text(comment="stablehlo.tuple and get_tuple_element (pretty and generic) "
                        "as older TensorFlow exports write them."))

    funcs.append(
        "  func.func private @scaled(%arg0: tensor<2x3xf32> {jax.arg_info = \"x\", "
        "mhlo.sharding = \"{replicated}\"}, %arg1: tensor<f32> {jax.arg_info = "
        "\"s\", mhlo.sharding = \"{replicated}\"}) -> (tensor<2x3xf32> "
        "{jax.result_info = \"\", mhlo.sharding = \"{replicated}\"}) {\n"
        "    %0 = \"stablehlo.broadcast_in_dim\"(%arg1) {broadcast_dimensions = "
        "dense<> : tensor<0xi64>} : (tensor<f32>) -> tensor<2x3xf32>\n"
        "    %1 = stablehlo.multiply %arg0, %0 : tensor<2x3xf32>\n"
        "    return %1 : tensor<2x3xf32>\n"
        "  }")

    f = Func("test_legacy_attributes")
    a = array(rng.integers(-9, 10, (2, 3)), e)
    x = f.input(a, e)
    s_ = f.input(array(2.0, e), e)
    r = f.op("call @scaled(%s, %s) : (tensor<2x3xf32>, tensor<f32>) -> "
             "tensor<2x3xf32>" % (x, s_))
    f.expect(r, a * 2, e)
    r = f.op('"stablehlo.transpose"(%s) {permutation = dense<[1, 0]> : '
             'tensor<2xi64>} : (tensor<2x3xf32>) -> tensor<3x2xf32>' % x)
    f.expect(r, a.T, e)
    r = f.op('"stablehlo.broadcast_in_dim"(%s) {broadcast_dimensions = dense<[1, 2]> '
             ': tensor<2xi64>} : (tensor<2x3xf32>) -> tensor<4x2x3xf32>' % x)
    f.expect(r, np.broadcast_to(a, (4, 2, 3)), e)
    r = f.op('"stablehlo.slice"(%s) {limit_indices = dense<[2, 3]> : tensor<2xi64>, '
             'start_indices = dense<[1, 0]> : tensor<2xi64>, strides = dense<[1, 2]> '
             ': tensor<2xi64>} : (tensor<2x3xf32>) -> tensor<1x2xf32>' % x)
    f.expect(r, a[1:2, 0:3:2], e)
    r = f.op('"stablehlo.reverse"(%s) {dimensions = dense<1> : tensor<1xi64>} : '
             '(tensor<2x3xf32>) -> tensor<2x3xf32>' % x)
    f.expect(r, a[:, ::-1], e)
    r = f.op('"stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x3xi32>')
    f.expect(r, array(np.broadcast_to(np.arange(3), (2, 3)), "i32"), "i32")
    pv = f.op("stablehlo.constant dense<0.000000e+00> : tensor<f32>")
    r = f.op('"stablehlo.pad"(%s, %s) {edge_padding_high = dense<[0, 1]> : '
             'tensor<2xi64>, edge_padding_low = dense<[1, 0]> : tensor<2xi64>, '
             'interior_padding = dense<0> : tensor<2xi64>} : (tensor<2x3xf32>, '
             'tensor<f32>) -> tensor<3x4xf32>' % (x, pv))
    f.expect(r, pad_ref(a, np.float32(0), [1, 0], [0, 1], [0, 0]), e)
    r = f.op('"stablehlo.concatenate"(%s, %s) {dimension = 1 : i64} : '
             '(tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>' % (x, x))
    f.expect(r, np.concatenate([a, a], axis=1), e)
    b = array(rng.integers(-9, 10, (2, 3)), e)
    y = f.input(b, e)
    r = f.op('"stablehlo.compare"(%s, %s) {comparison_direction = '
             '#stablehlo<comparison_direction LT>} : (tensor<2x3xf32>, '
             'tensor<2x3xf32>) -> tensor<2x3xi1>' % (x, y))
    f.expect(r, a < b, "i1")
    funcs.append(f.text(comment="Attribute dictionaries with dense<...> : "
                        "tensor<Nxi64> arrays."))

    f = Func("test_legacy_reductions")
    a = array(rng.integers(-9, 10, (1, 4, 4, 2)), e)
    x = f.input(a, e)
    init = f.op("stablehlo.constant dense<0.000000e+00> : tensor<f32>")
    r = f.op('"stablehlo.reduce"(%s, %s) ({\n%s\n    }) {dimensions = dense<[1, 2]> : '
             'tensor<2xi64>} : (tensor<1x4x4x2xf32>, tensor<f32>) -> tensor<1x2xf32>'
             % (x, init, binary_body("add", "f32")))
    f.expect(r, a.sum(axis=(1, 2)), e)
    ninf = f.op("stablehlo.constant dense<0xFF800000> : tensor<f32>")
    r = f.op('"stablehlo.reduce_window"(%s, %s) ({\n%s\n    }) {padding = '
             'dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>, '
             'window_dimensions = dense<[1, 2, 2, 1]> : tensor<4xi64>, '
             'window_strides = dense<[1, 2, 2, 1]> : tensor<4xi64>} : '
             '(tensor<1x4x4x2xf32>, tensor<f32>) -> tensor<1x2x2x2xf32>'
             % (x, ninf, binary_body("maximum", "f32")))
    f.expect(r, array(reduce_window_ref(a, -np.inf, np.max, [1, 2, 2, 1],
                                        [1, 2, 2, 1], [(0, 0), (0, 1), (0, 1), (0, 0)]),
                      e), e)
    funcs.append(f.text())

    f = Func("test_legacy_conv_gather_sort")
    a = array(rng.integers(-3, 4, (1, 4, 4, 2)), e)
    w = array(rng.integers(-2, 3, (3, 3, 2, 3)), e)
    x, vw = f.input(a, e), f.input(w, e)
    expected = array(conv_ref(a, w, [1, 1], [[1, 1], [1, 1]], [1, 1], [1, 1], 1), e)
    r = f.op('"stablehlo.convolution"(%s, %s) {batch_group_count = 1 : i64, '
             'dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->'
             '[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = dense<1> : '
             'tensor<2xi64>, padding = dense<1> : tensor<2x2xi64>, precision_config = '
             '[#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], '
             'rhs_dilation = dense<1> : tensor<2xi64>, window_strides = dense<1> : '
             'tensor<2xi64>} : (tensor<1x4x4x2xf32>, tensor<3x3x2x3xf32>) -> '
             'tensor<1x4x4x3xf32>' % (x, vw))
    f.expect(r, expected, e)
    t_ = array(rng.integers(-9, 10, (5, 3)), e)
    idx = array([[4], [0]], "i32")
    vt, vi = f.input(t_, e), f.input(idx, "i32")
    r = f.op('"stablehlo.gather"(%s, %s) {dimension_numbers = #stablehlo.gather<'
             'offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], '
             'index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = '
             'dense<[1, 3]> : tensor<2xi64>} : (tensor<5x3xf32>, tensor<2x1xi32>) -> '
             'tensor<2x3xf32>' % (vt, vi))
    f.expect(r, t_[idx[:, 0]], e)
    v = array([3, -1, 2, 0], "i32")
    vv = f.input(v, "i32")
    r = f.op('"stablehlo.sort"(%s) ({\n%s\n    }) {dimension = 0 : i64, is_stable = '
             'false} : (tensor<4xi32>) -> tensor<4xi32>'
             % (vv, sort_body(["i32"], "LT", "SIGNED")))
    f.expect(r, np.sort(v), "i32")
    funcs.append(f.text())

    f = Func("fail_legacy_wrong_expectation")
    a = array([[1.0, 2.0]], e)
    x = f.input(a, e)
    r = f.op('"stablehlo.transpose"(%s) {permutation = dense<[1, 0]> : '
             'tensor<2xi64>} : (tensor<1x2xf32>) -> tensor<2x1xf32>' % x)
    f.expect(r, array([[2.0], [1.0]], e), e)
    funcs.append(f.text(comment="The transpose of [[1, 2]] is [[1], [2]]: the "
                        "check must fail."))
    return funcs


#===----------------------------------------------------------------------===#
# Random programs: seeded random DAGs of elementwise, broadcast, transpose,
# reshape, reduce, concatenate/slice, select and dot ops, to shake out
# fusion and memory-planning mistakes no hand-written test thought of
#===----------------------------------------------------------------------===#

def random_program(f, rng):
    """Builds a random DAG in |f|; returns [(value, expected f32 array)] to
    check: every computed value no other op reads."""
    e = "f32"
    values = []  # (name, array)

    def add(name, arr):
        values.append((name, array(arr, e)))
        return values[-1]

    def ty(arr):
        return t(arr, e)

    inputs = set()
    for _ in range(int(rng.integers(2, 4))):
        shape = [(4, 6), (6, 4)][int(rng.integers(0, 2))]
        a = array(rng.uniform(-2, 2, shape), e)
        inputs.add(add(f.input(a, e), a)[0])

    used = set()

    def pick(shape=None, avoid=None):
        # Mostly the newest value of the shape, so ops chain into deep DAGs;
        # another value than |avoid| when there is one.
        pool = [v for v in values if shape is None or v[1].shape == shape]
        if avoid is not None and len(pool) > 1:
            pool = [v for v in pool if v[0] != avoid]
        if not pool:
            return None
        v = pool[-1] if rng.uniform() < 0.6 else pool[int(rng.integers(0, len(pool)))]
        used.add(v[0])
        return v

    kinds = ["binary", "binary", "unary", "unary", "transpose", "reshape",
             "reduce_broadcast", "concat_slice", "select", "dot", "row_broadcast"]
    for _ in range(int(rng.integers(6, 11))):
        kind = kinds[int(rng.integers(0, len(kinds)))]
        x, xa = pick()
        if kind == "binary":
            y = pick(xa.shape, x)
            op = ["add", "subtract", "multiply", "maximum", "minimum"][
                int(rng.integers(0, 5))]
            fn = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
                  "maximum": np.maximum, "minimum": np.minimum}[op]
            add(f.op("stablehlo.%s %s, %s : %s" % (op, x, y[0], ty(xa))),
                fn(f64(xa), f64(y[1])))
        elif kind == "unary":
            op = ["negate", "abs", "tanh", "sine", "logistic"][int(rng.integers(0, 5))]
            fn = {"negate": np.negative, "abs": np.abs, "tanh": np.tanh,
                  "sine": np.sin, "logistic": logistic}[op]
            add(f.op("stablehlo.%s %s : %s" % (op, x, ty(xa))), fn(f64(xa)))
        elif kind == "transpose":
            add(f.op("stablehlo.transpose %s, dims = [1, 0] : (%s) -> %s"
                     % (x, ty(xa), tensor_type(xa.shape[::-1], e))), xa.T)
        elif kind == "reshape":
            shape = xa.shape[::-1]
            add(f.op("stablehlo.reshape %s : (%s) -> %s"
                     % (x, ty(xa), tensor_type(shape, e))), xa.reshape(shape))
        elif kind == "reduce_broadcast":
            axis = int(rng.integers(0, 2))
            c = f.op("stablehlo.constant dense<0.000000e+00> : tensor<f32>")
            red = xa.astype(np.float64).sum(axis=axis)
            r = f.op("stablehlo.reduce(%s init: %s) applies stablehlo.add across "
                     "dimensions = [%d] : (%s, tensor<f32>) -> %s"
                     % (x, c, axis, ty(xa), tensor_type(red.shape, e)))
            red = array(red, e)
            keep = 1 - axis
            add(f.op("stablehlo.broadcast_in_dim %s, dims = [%d] : (%s) -> %s"
                     % (r, keep, tensor_type(red.shape, e), ty(xa))),
                np.expand_dims(red, axis) + np.zeros(xa.shape, np.float32))
        elif kind == "concat_slice":
            y = pick(xa.shape, x)
            rows = xa.shape[0]
            cat = f.op("stablehlo.concatenate %s, %s, dim = 0 : (%s, %s) -> %s"
                       % (x, y[0], ty(xa), ty(xa),
                          tensor_type((2 * rows, xa.shape[1]), e)))
            start = int(rng.integers(1, rows))
            both = np.concatenate([xa, y[1]])
            add(f.op("stablehlo.slice %s [%d:%d, 0:%d] : (%s) -> %s"
                     % (cat, start, start + rows, xa.shape[1],
                        tensor_type(both.shape, e), ty(xa))),
                both[start:start + rows])
        elif kind == "select":
            y = pick(xa.shape, x)
            c = f.op("stablehlo.compare  GT, %s, %s,  FLOAT : (%s, %s) -> %s"
                     % (x, y[0], ty(xa), ty(xa), tensor_type(xa.shape, "i1")))
            add(f.op("stablehlo.select %s, %s, %s : %s, %s"
                     % (c, y[0], x, tensor_type(xa.shape, "i1"), ty(xa))),
                np.where(xa > y[1], y[1], xa))
        elif kind == "dot":
            y = pick(xa.shape[::-1])
            if y is None:
                continue
            out = (xa.shape[0], xa.shape[0])
            add(f.op("stablehlo.dot_general %s, %s, contracting_dims = [1] x [0] : "
                     "(%s, %s) -> %s" % (x, y[0], ty(xa), ty(y[1]),
                                         tensor_type(out, e))),
                f64(xa) @ f64(y[1]))
        elif kind == "row_broadcast":
            v = array(rng.uniform(-1, 1, (xa.shape[1],)), e)
            vv = f.input(v, e)
            b = f.op("stablehlo.broadcast_in_dim %s, dims = [1] : (%s) -> %s"
                     % (vv, t(v, e), ty(xa)))
            add(f.op("stablehlo.multiply %s, %s : %s" % (x, b, ty(xa))),
                f64(xa) * v)
    # Every computed value nothing else reads, so no op is dead code.
    return [v for v in values if v[0] not in used and v[0] not in inputs]


def gen_random_programs():
    funcs = []
    rng = np.random.default_rng(14)
    for n in range(32):
        f = Func("test_random_program_%02d" % n)
        with np.errstate(all="ignore"):
            checks = random_program(f, rng)
        for value, expected in checks:
            f.expect(value, expected, "f32", 1e-4, 1e-4)
        funcs.append(f.text())
    f = Func("fail_random_wrong_expectation")
    x = f.input(array([[1.0, 2.0]], "f32"), "f32")
    r = f.op("stablehlo.transpose %s, dims = [1, 0] : (tensor<1x2xf32>) -> "
             "tensor<2x1xf32>" % x)
    n = f.op("stablehlo.negate %s : tensor<2x1xf32>" % r)
    f.expect(n, array([[-1.0], [2.0]], "f32"), "f32")
    funcs.append(f.text(comment="-[1, 2] is [-1, -2]: the check must fail."))
    return funcs


#===----------------------------------------------------------------------===#
# JAX programs: small functions as JAX lowers them (threefry PRNG rounds,
# cumsum, gelu, a cross-entropy loss)
#===----------------------------------------------------------------------===#

THREEFRY_ROTATIONS = [13, 15, 26, 6, 17, 29, 16, 24]


def threefry2x32(key, x0, x1):
    """jax.random's Threefry-2x32 (20 rounds) on uint32 arrays."""
    mask = 0xFFFFFFFF
    k0, k1 = int(key[0]), int(key[1])
    ks = [k0, k1, k0 ^ k1 ^ 0x1BD11BDA]
    out0, out1 = [], []
    for a, b in zip(x0.tolist(), x1.tolist()):
        a, b = (a + ks[0]) & mask, (b + ks[1]) & mask
        for block in range(5):
            for r in THREEFRY_ROTATIONS[(block % 2) * 4:(block % 2) * 4 + 4]:
                a = (a + b) & mask
                b = ((b << r) | (b >> (32 - r))) & mask
                b ^= a
            a = (a + ks[(block + 1) % 3]) & mask
            b = (b + ks[(block + 2) % 3] + block + 1) & mask
        out0.append(a)
        out1.append(b)
    return array(out0, "ui32"), array(out1, "ui32")


def rng_bit_generator_threefry(state, shape, elem):
    """XLA's rng_bit_generator with THREE_FRY: state [key, counter] (ui64),
    the key's low and high words the Threefry key; the inputs are counter +
    the row-major index over the generated shape (ui64, low word first).
    64-bit outputs join the two words (first low); 32-bit ones use both: the
    first even dimension (else the first largest; [1] for rank 0) is halved
    and index i along it takes word i % 2 of element i // 2. Returns the bits
    and the new state (counter + the generated element count)."""
    mask64 = 2 ** 64 - 1
    key, counter = int(state[0]), int(state[1])
    key_words = array([key & 0xFFFFFFFF, key >> 32], "ui32")
    shape = list(shape)
    wide = elem in ("ui64", "i64")
    gen, split = list(shape), None
    if not wide:
        if not shape:
            gen = [1]
        else:
            split = next((d for d, n in enumerate(shape) if n % 2 == 0), None)
            if split is None:
                split = shape.index(max(shape))
            gen[split] = (shape[split] + 1) // 2
    count = int(np.prod(gen))
    inputs = [(counter + i) & mask64 for i in range(count)]
    w0, w1 = threefry2x32(key_words, array([v & 0xFFFFFFFF for v in inputs], "ui32"),
                          array([v >> 32 for v in inputs], "ui32"))
    w0 = np.asarray(w0, np.uint64).reshape(gen)
    w1 = np.asarray(w1, np.uint64).reshape(gen)
    if wide:
        bits = w0 | (w1 << np.uint64(32))
    elif not shape:
        bits = w0.reshape(())
    else:
        bits = np.zeros(shape, np.uint64)
        for index in np.ndindex(*shape):
            half = list(index)
            half[split] //= 2
            bits[index] = (w0 if index[split] % 2 == 0 else w1)[tuple(half)]
    bits = bits.astype(np.uint64 if wide else np.uint32)
    if elem in ("i32", "i64"):
        bits = bits.view(np.int32 if elem == "i32" else np.int64)
    return bits, [key, (counter + count) & mask64]


def philox4x32(ctr, key):
    """Philox-4x32 with 10 rounds on four uint32 words under two."""
    mask = 0xFFFFFFFF
    x, k0, k1 = list(ctr), key[0], key[1]
    for _ in range(10):
        p0, p1 = x[0] * 0xD2511F53, x[2] * 0xCD9E8D57
        x = [((p1 >> 32) ^ x[1] ^ k0) & mask, p1 & mask,
             ((p0 >> 32) ^ x[3] ^ k1) & mask, p0 & mask]
        k0, k1 = (k0 + 0x9E3779B9) & mask, (k1 + 0xBB67AE85) & mask
    return x


def rng_bit_generator_philox(state, shape, elem):
    """XLA's rng_bit_generator with PHILOX (and DEFAULT): state [key, low,
    high] or [key, low] (then the key is the counter's high half and only
    the low half is written back); hash j of ceil(words / 4) hashes
    counter + j (128-bit, low word first); output word 4j + w is its word w
    (64-bit outputs join words 2i, 2i + 1). Returns the bits and new state."""
    mask64 = 2 ** 64 - 1
    key = int(state[0])
    low = int(state[1])
    high = int(state[2]) if len(state) == 3 else key
    wide = elem in ("ui64", "i64")
    count = int(np.prod(shape))
    hashes = (count * (2 if wide else 1) + 3) // 4
    counter = low | (high << 64)
    words = []
    for j in range(hashes):
        c = (counter + j) % 2 ** 128
        words += philox4x32([(c >> (32 * w)) & 0xFFFFFFFF for w in range(4)],
                            [key & 0xFFFFFFFF, key >> 32])
    if wide:
        values = [words[2 * i] | (words[2 * i + 1] << 32) for i in range(count)]
        bits = np.array(values, np.uint64).reshape(shape)
    else:
        bits = np.array(words[:count], np.uint32).reshape(shape)
    if elem in ("i32", "i64"):
        bits = bits.view(np.int32 if elem == "i32" else np.int64)
    counter = (counter + hashes) % 2 ** 128
    new_state = [key, counter & mask64] + ([counter >> 64] if len(state) == 3 else [])
    return bits, new_state

def gen_rng_bit_generator(rng):
    """stablehlo.rng_bit_generator against XLA's THREE_FRY and PHILOX."""
    # The Philox reference against Random123's known answers.
    assert philox4x32([0] * 4, [0, 0]) == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    assert philox4x32([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344],
                      [0xA4093822, 0x299F31D0]) == [0xD16CFE09, 0x94FDCCEB, 0x5001E420,
                                                    0x24126EA1]
    funcs = []
    cases = [
        # name, algorithm, state type, state size, output shape, output type,
        # counter (low word), counter high word, pretty form
        ("ui32_8", "THREE_FRY", "ui64", 2, [8], "ui32", None, None, True),
        ("ui32_odd_3x5", "THREE_FRY", "ui64", 2, [3, 5], "ui32", None, None, False),
        ("ui32_4x3", "THREE_FRY", "ui64", 2, [4, 3], "ui32", None, None, True),
        ("ui32_rank0", "THREE_FRY", "ui64", 2, [], "ui32", None, None, True),
        ("ui32_2x1x7", "THREE_FRY", "ui64", 2, [2, 1, 7], "ui32", None, None, True),
        ("ui64_2x3", "THREE_FRY", "ui64", 2, [2, 3], "ui64", None, None, True),
        ("i64_state_i32", "THREE_FRY", "i64", 2, [6], "i32", None, None, False),
        ("i64_carry", "THREE_FRY", "ui64", 2, [5], "i64", 2 ** 64 - 3, None, True),
        ("ui32_counter_words", "THREE_FRY", "ui64", 2, [10], "ui32", 2 ** 32 - 2, None,
         True),
        ("philox_ui32_3x5", "PHILOX", "ui64", 3, [3, 5], "ui32", None, None, True),
        ("philox_ui64_7", "PHILOX", "ui64", 3, [7], "ui64", None, None, False),
        ("philox_state2_ui32_6", "PHILOX", "ui64", 2, [6], "ui32", None, None, True),
        ("philox_state2_i64_2x2", "PHILOX", "i64", 2, [2, 2], "i64", None, None, True),
        ("philox_carry_i32_9", "PHILOX", "ui64", 3, [9], "i32", 2 ** 64 - 2, 2 ** 64 - 1,
         True),
        ("philox_rank0_ui32", "PHILOX", "ui64", 3, [], "ui32", None, None, True),
        ("default_ui32_4x4", "DEFAULT", "ui64", 2, [4, 4], "ui32", None, None, True),
        # Float outputs: the bits of the integer of their width, checked
        # through a bitcast_convert back to it (some are NaN patterns).
        ("f32_3x5", "THREE_FRY", "ui64", 2, [3, 5], "f32", None, None, True),
        ("f64_2x3", "THREE_FRY", "ui64", 2, [2, 3], "f64", None, None, False),
        ("philox_f32_7", "PHILOX", "ui64", 3, [7], "f32", None, None, True),
        ("philox_state2_f64_5", "PHILOX", "i64", 2, [5], "f64", None, None, True),
        ("default_f32_rank0", "DEFAULT", "ui64", 2, [], "f32", None, None, False),
        # IREE's state of four 32-bit words: the key's low and high words,
        # then the counter's high and low words.
        ("words_i32_8", "THREE_FRY", "i32", 4, [8], "i32", None, None, False),
        ("words_ui32_carry_i64_5", "THREE_FRY", "ui32", 4, [5], "i64", 2 ** 64 - 3, None,
         True),
        ("words_philox_ui32_3x5", "PHILOX", "ui32", 4, [3, 5], "ui32", 2 ** 32 - 2, None,
         True),
        ("words_philox_i32_f32_7", "PHILOX", "i32", 4, [7], "f32", None, None, False),
    ]
    for (name, algorithm, state_elem, size, shape, elem, counter, high,
         pretty) in cases:
        f = Func("test_rng_bit_generator_%s" % name)
        four_words = size == 4
        words = [int(v) for v in rng.integers(0, 2 ** 63, 2 if four_words else size,
                                                dtype=np.uint64)]
        words[0] |= int(rng.integers(0, 2)) << 63
        if counter is not None:
            words[1] = counter
        if high is not None:
            words[2] = high
        if four_words:
            state = np.array([words[0] & 0xFFFFFFFF, words[0] >> 32, words[1] >> 32,
                              words[1] & 0xFFFFFFFF], np.uint32)
            if state_elem == "i32":
                state = state.view(np.int32)
        else:
            state = np.array(words, np.uint64)
            if state_elem == "i64":
                state = state.view(np.int64)
        s = f.input(array(state, state_elem), state_elem)
        state_type = "tensor<%dx%s>" % (size, state_elem)
        out_type = "tensor<%s%s>" % ("".join("%dx" % n for n in shape), elem)
        if pretty:
            text = ("stablehlo.rng_bit_generator %s, algorithm = %s : (%s) -> (%s, %s)"
                    % (s, algorithm, state_type, state_type, out_type))
        else:
            text = ('"stablehlo.rng_bit_generator"(%s) {rng_algorithm = '
                    '#stablehlo<rng_algorithm %s>} : (%s) -> (%s, %s)'
                    % (s, algorithm, state_type, state_type, out_type))
        r = f.op(text, count=2)
        reference = (rng_bit_generator_threefry if algorithm == "THREE_FRY"
                     else rng_bit_generator_philox)
        bits_elem = {"f32": "ui32", "f64": "ui64"}.get(elem, elem)
        bits, new_state = reference(words, shape, bits_elem)
        if four_words:
            new_state = np.array([new_state[0] & 0xFFFFFFFF, new_state[0] >> 32,
                                  new_state[1] >> 32, new_state[1] & 0xFFFFFFFF], np.uint32)
            if state_elem == "i32":
                new_state = new_state.view(np.int32)
        else:
            new_state = np.array(new_state, np.uint64)
            if state_elem == "i64":
                new_state = new_state.view(np.int64)
        f.expect("%s#0" % r, array(new_state, state_elem), state_elem)
        out = "%s#1" % r
        if bits_elem != elem:
            out = f.op("stablehlo.bitcast_convert %s : (%s) -> %s"
                       % (out, out_type, out_type.replace(elem, bits_elem)))
        f.expect(out, array(bits, bits_elem), bits_elem)
        funcs.append(f.text())
    return funcs

def gen_jax_programs():
    funcs = []
    # The reference against Random123's known answers for Threefry-2x32-20.
    kat = threefry2x32(array([0x13198A2E, 0x03707344], "ui32"),
                       array([0x243F6A88], "ui32"), array([0x85A308D3], "ui32"))
    assert (int(kat[0][0]), int(kat[1][0])) == (0xC4923A9C, 0x483DF7A0), kat
    rng = np.random.default_rng(15)
    e = "f32"

    f = Func("test_threefry2x32")
    key = array([0x12345678, 0x9ABCDEF0], "ui32")
    x0 = array(rng.integers(0, 2 ** 32, 6, dtype=np.uint64), "ui32")
    x1 = array(rng.integers(0, 2 ** 32, 6, dtype=np.uint64), "ui32")
    vx0, vx1 = f.input(x0, "ui32"), f.input(x1, "ui32")
    ty = "tensor<6xui32>"
    ks = [int(key[0]), int(key[1]), int(key[0]) ^ int(key[1]) ^ 0x1BD11BDA]
    kv = [f.op("stablehlo.constant dense<%d> : %s" % (k, ty)) for k in ks]
    a = f.op("stablehlo.add %s, %s : %s" % (vx0, kv[0], ty))
    b = f.op("stablehlo.add %s, %s : %s" % (vx1, kv[1], ty))
    for block in range(5):
        for r in THREEFRY_ROTATIONS[(block % 2) * 4:(block % 2) * 4 + 4]:
            a = f.op("stablehlo.add %s, %s : %s" % (a, b, ty))
            left = f.op("stablehlo.constant dense<%d> : %s" % (r, ty))
            right = f.op("stablehlo.constant dense<%d> : %s" % (32 - r, ty))
            hi = f.op("stablehlo.shift_left %s, %s : %s" % (b, left, ty))
            lo = f.op("stablehlo.shift_right_logical %s, %s : %s" % (b, right, ty))
            b = f.op("stablehlo.or %s, %s : %s" % (hi, lo, ty))
            b = f.op("stablehlo.xor %s, %s : %s" % (b, a, ty))
        a = f.op("stablehlo.add %s, %s : %s" % (a, kv[(block + 1) % 3], ty))
        inc = f.op("stablehlo.constant dense<%d> : %s" % (block + 1, ty))
        b = f.op("stablehlo.add %s, %s : %s" % (b, kv[(block + 2) % 3], ty))
        b = f.op("stablehlo.add %s, %s : %s" % (b, inc, ty))
    e0, e1 = threefry2x32(key, x0, x1)
    f.expect(a, e0, "ui32")
    f.expect(b, e1, "ui32")
    # jax.random.uniform's bits-to-float step: (bits >> 9) | 0x3F800000 - 1.
    nine = f.op("stablehlo.constant dense<9> : %s" % ty)
    one_bits = f.op("stablehlo.constant dense<1065353216> : %s" % ty)
    m = f.op("stablehlo.shift_right_logical %s, %s : %s" % (a, nine, ty))
    o = f.op("stablehlo.or %s, %s : %s" % (m, one_bits, ty))
    fl = f.op("stablehlo.bitcast_convert %s : (%s) -> tensor<6xf32>" % (o, ty))
    one = f.op("stablehlo.constant dense<1.000000e+00> : tensor<6xf32>")
    u = f.op("stablehlo.subtract %s, %s : tensor<6xf32>" % (fl, one))
    uniform = ((e0 >> np.uint32(9)) | np.uint32(0x3F800000)).view(np.float32) - 1
    f.expect(u, array(uniform, e), e)
    funcs.append(f.text(comment="jax.random's Threefry-2x32 hash (20 rounds of "
                        "add, rotate, xor on ui32) and\nthe bits-to-uniform-float "
                        "step."))

    # jnp.cumsum(x) on CPU: a reduce_window padded by n - 1 on the left.
    f = Func("test_cumsum")
    a_ = array(rng.integers(-9, 10, (2, 7)), e)
    x = f.input(a_, e)
    c = f.op("stablehlo.constant dense<0.000000e+00> : tensor<f32>")
    r = f.op('"stablehlo.reduce_window"(%s, %s) <{padding = dense<[[0, 0], [6, 0]]> : '
             'tensor<2x2xi64>, window_dimensions = array<i64: 1, 7>, window_strides = '
             'array<i64: 1, 1>}> ({\n%s\n    }) : (tensor<2x7xf32>, tensor<f32>) -> '
             'tensor<2x7xf32>' % (x, c, binary_body("add", "f32")))
    f.expect(r, np.cumsum(a_, axis=1), e)
    funcs.append(f.text(comment="jnp.cumsum(x, axis=1)."))

    # f16/bf16 reductions and cumulative sums accumulate in f32 and round
    # once: each result is the correctly rounded f32 sum, within 1 ULP of
    # the exact sum (rounding at every step drifts by hundreds of ULP).
    for elem, dt in (("bf16", None), ("f16", np.float16)):
        vals = rng.uniform(0.5, 2.0, (8, 9))
        a16 = array(vals, elem)
        exact = np.asarray(a16, dtype=np.float64)
        f = Func("test_cumsum_%s_accumulates_in_f32" % elem)
        x = f.input(a16, elem)
        c = f.op("stablehlo.constant dense<0.000000e+00> : tensor<%s>" % elem)
        r = f.op('"stablehlo.reduce_window"(%s, %s) <{padding = dense<[[0, 0], [8, 0]]> : '
                 'tensor<2x2xi64>, window_dimensions = array<i64: 1, 9>, window_strides = '
                 'array<i64: 1, 1>}> ({\n%s\n    }) : (tensor<8x9x%s>, tensor<%s>) -> '
                 'tensor<8x9x%s>' % (x, c, binary_body("add", elem), elem, elem, elem))
        want = f.constant(array(np.cumsum(exact, axis=1), elem), elem)
        f.line("check.expect_close %s, %s, max_ulp_difference = 1 : tensor<8x9x%s>, "
               "tensor<8x9x%s>" % (r, want, elem, elem))
        long_vals = array(rng.uniform(0.5, 2.0, (1000,)), elem)
        y = f.input(long_vals, elem)
        s_ = f.op("stablehlo.reduce(%s init: %s) applies stablehlo.add across "
                  "dimensions = [0] : (tensor<1000x%s>, tensor<%s>) -> tensor<%s>"
                  % (y, c, elem, elem, elem))
        total = np.asarray(long_vals, dtype=np.float64).sum()
        want = f.constant(array([total], elem).reshape(()), elem)
        f.line("check.expect_close %s, %s, max_ulp_difference = 1 : tensor<%s>, "
               "tensor<%s>" % (s_, want, elem, elem))
        funcs.append(f.text(comment="jnp.cumsum and jnp.sum in %s: the sums "
                            "accumulate in f32 and round once, within 1 ULP "
                            "of\nthe exact sum." % elem))

    # jax.nn.gelu(x) (approximate=True)
    f = Func("test_gelu")
    a_ = array(rng.uniform(-4, 4, (3, 8)), e)
    x = f.input(a_, e)
    ty = "tensor<3x8xf32>"
    cube = f.op("stablehlo.multiply %s, %s : %s" % (
        f.op("stablehlo.multiply %s, %s : %s" % (x, x, ty)), x, ty))
    k1 = f.op("stablehlo.constant dense<4.471500e-02> : %s" % ty)
    inner = f.op("stablehlo.add %s, %s : %s" % (
        x, f.op("stablehlo.multiply %s, %s : %s" % (k1, cube, ty)), ty))
    k2 = f.op("stablehlo.constant dense<0.797884583> : %s" % ty)
    th = f.op("stablehlo.tanh %s : %s" % (
        f.op("stablehlo.multiply %s, %s : %s" % (k2, inner, ty)), ty))
    one = f.op("stablehlo.constant dense<1.000000e+00> : %s" % ty)
    half = f.op("stablehlo.constant dense<5.000000e-01> : %s" % ty)
    r = f.op("stablehlo.multiply %s, %s : %s" % (
        f.op("stablehlo.multiply %s, %s : %s" % (half, x, ty)),
        f.op("stablehlo.add %s, %s : %s" % (one, th, ty)), ty))
    x64 = f64(a_)
    ref = 0.5 * x64 * (1 + np.tanh(float(np.float32(0.797884583))
                                   * (x64 + float(np.float32(0.044715)) * x64 ** 3)))
    f.expect(r, array(ref, e), e, *TOL[e])
    funcs.append(f.text(comment="jax.nn.gelu(x), the tanh approximation."))

    # optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
    f = Func("test_cross_entropy_loss")
    logits = array(rng.uniform(-3, 3, (4, 5)), e)
    labels = array([2, 0, 4, 1], "i32")
    vl, vy = f.input(logits, e), f.input(labels, "i32")
    m, _ = reduce_op(f, vl, (4, 5), [1], "maximum", "0xFF800000")
    d = f.op("stablehlo.subtract %s, %s : tensor<4x5xf32>"
             % (vl, bcast(f, m, (4,), (4, 5), [0])))
    s_, _ = reduce_op(f, f.op("stablehlo.exponential %s : tensor<4x5xf32>" % d),
                      (4, 5), [1], "add", "0.000000e+00")
    lse = f.op("stablehlo.log %s : tensor<4xf32>" % s_)
    logp = f.op("stablehlo.subtract %s, %s : tensor<4x5xf32>"
                % (d, bcast(f, lse, (4,), (4, 5), [0])))
    hot = f.op("stablehlo.compare  EQ, %s, %s,  SIGNED : (tensor<4x5xi32>, "
               "tensor<4x5xi32>) -> tensor<4x5xi1>"
               % (bcast(f, vy, (4,), (4, 5), [0], "i32"),
                  f.op("stablehlo.iota dim = 1 : tensor<4x5xi32>")))
    zeros = f.op("stablehlo.constant dense<0.000000e+00> : tensor<4x5xf32>")
    picked = f.op("stablehlo.select %s, %s, %s : tensor<4x5xi1>, tensor<4x5xf32>"
                  % (hot, logp, zeros))
    total, _ = reduce_op(f, picked, (4, 5), [0, 1], "add", "0.000000e+00")
    n = f.op("stablehlo.constant dense<-4.000000e+00> : tensor<f32>")
    r = f.op("stablehlo.divide %s, %s : tensor<f32>" % (total, n))
    l64 = f64(logits)
    lp = l64 - l64.max(axis=1, keepdims=True)
    lp = lp - np.log(np.exp(lp).sum(axis=1, keepdims=True))
    f.expect(r, array(-lp[np.arange(4), labels].mean(), e), e, *TOL[e])
    funcs.append(f.text(comment="Mean softmax cross-entropy with integer "
                        "labels."))

    f = Func("fail_jax_programs_wrong_expectation")
    a_ = array([1.0, 2.0, 3.0], e)
    x = f.input(a_, e)
    c = f.op("stablehlo.constant dense<0.000000e+00> : tensor<f32>")
    r = f.op('"stablehlo.reduce_window"(%s, %s) <{padding = dense<[[2, 0]]> : '
             'tensor<1x2xi64>, window_dimensions = array<i64: 3>, window_strides = '
             'array<i64: 1>}> ({\n%s\n    }) : (tensor<3xf32>, tensor<f32>) -> '
             'tensor<3xf32>' % (x, c, binary_body("add", "f32")))
    f.expect(r, array([1.0, 3.0, 5.0], e), e)
    funcs.append(f.text(comment="cumsum([1, 2, 3]) is [1, 3, 6]: the check "
                        "must fail."))
    funcs += gen_rng_bit_generator(rng)
    return funcs


#===----------------------------------------------------------------------===#
# CHLO: the broadcast_* family and the math functions JAX emits as chlo ops
#===----------------------------------------------------------------------===#

# ULP bounds of the decompositions (XLA's formulas, computed in the type, or
# in f32 for f16/bf16 and rounded once), against numpy's f64 results rounded
# to the type.
CHLO_MATH = [
    # name, numpy function, inputs, max ULP for f32/f64, for f16/bf16
    ("acos", np.arccos, [-1.0, -0.9, -0.5, -1e-3, 0.0, 0.3, 0.75, 0.99, 1.0], 4, 1),
    ("asin", np.arcsin, [-1.0, -0.9, -0.5, -1e-3, 0.0, 0.3, 0.75, 0.99, 1.0], 4, 1),
    ("atan", np.arctan, [-1e30, -50.0, -1.0, -0.3, 0.0, 1e-5, 0.7, 3.0, 1e10], 2, 1),
    ("acosh", np.arccosh, [1.0, 1.0001, 1.5, 2.0, 10.0, 1e5, 3e30], 4, 1),
    ("asinh", np.arcsinh, [-3e30, -100.0, -1.0, -1e-4, 0.0, 1e-6, 0.5, 2.0, 1e15], 4, 1),
    ("atanh", np.arctanh, [-0.999, -0.5, -1e-4, 0.0, 1e-6, 0.25, 0.9], 4, 1),
    ("cosh", np.cosh, [-20.0, -3.0, -1.0, -1e-3, 0.0, 0.5, 1.0, 5.0, 40.0], 4, 1),
    ("sinh", np.sinh, [-20.0, -3.0, -1.0, -1e-3, 0.0, 1e-5, 0.5, 0.99, 5.0, 40.0], 4, 1),
    ("tan", np.tan, [-1.5, -1.0, -0.1, 0.0, 0.2, 1.0, 1.4], 4, 1),
]


def chlo_ulp_test(name, fn, values, bound, small_limit, source):
    """test_NAME: chlo.NAME in f32 (within |bound| ULP of |fn|) and in f16 and
    bf16 (within 1 ULP) on the |values| below |small_limit| in magnitude."""
    f = Func("test_%s" % name)
    for elem in ("f32", "f16", "bf16"):
        vals = values if elem == "f32" else [v for v in values if abs(v) < small_limit]
        a = array(vals, elem)
        exact = np.array([fn(float(v)) for v in np.asarray(a, dtype=np.float64)])
        x = f.input(a, elem)
        t = type_of(a, elem)
        r = f.op("chlo.%s %s : %s -> %s" % (name, x, t, t))
        want = f.constant(array(exact, elem), elem)
        f.line("check.expect_close %s, %s, max_ulp_difference = %d : %s, %s"
               % (r, want, bound if elem == "f32" else 1, t, t))
    return f.text(comment="chlo.%s in f32, f16 and bf16 against %s, within %d ULP "
                  "(f16/bf16: 1)." % (name, source, bound))


def gen_chlo():
    funcs = []
    # erf/erfc: f32 (and f16/bf16 through f32) polynomial fits; references
    # from Python's double-precision math.erf/erfc.
    erf_inputs = [-5.0, -3.9, -2.0, -1.0, -0.999, -0.5, -1e-3, 0.0, 1e-8, 0.3,
                  0.7, 0.9999, 1.0, 1.5, 2.5, 3.5, 4.5]
    erfc_inputs = erf_inputs + [5.5, 7.0, 8.2, 9.0]
    for name, fn, values, bound in (("erf", math.erf, erf_inputs, 2),
                                    ("erfc", math.erfc, erfc_inputs, 6)):
        funcs.append(chlo_ulp_test(name, fn, values, bound, 4, "math.%s" % name))

    for name, fn, values, ulp, ulp_small in CHLO_MATH:
        f = Func("test_%s" % name)
        for elem in ("f32", "f64", "f16", "bf16"):
            vals = [v for v in values if elem in ("f32", "f64") or abs(v) < 6e4]
            a = array(vals, elem)
            if elem == "f32":
                vals = [v for v in vals if abs(v) < 3e38]
            exact = fn(np.asarray(a, dtype=np.float64))
            x = f.input(a, elem)
            t = type_of(a, elem)
            r = f.op("chlo.%s %s : %s -> %s" % (name, x, t, t))
            want = f.constant(array(exact, elem), elem)
            bound = ulp if elem in ("f32", "f64") else ulp_small
            f.line("check.expect_close %s, %s, max_ulp_difference = %d : %s, %s"
                   % (r, want, bound, t, t))
        funcs.append(f.text(comment="chlo.%s in f32, f64, f16 and bf16 against "
                            "numpy, within %d ULP (f16/bf16: %d)."
                            % (name, ulp, ulp_small)))

    f = Func("test_domain_edges")
    x = f.input(array([-2.0, 2.0, NAN], "f32"), "f32")
    for name in ("acos", "asin"):
        r = f.op("chlo.%s %s : tensor<3xf32> -> tensor<3xf32>" % (name, x))
        f.expect(r, array([NAN, NAN, NAN], "f32"), "f32")
    y = f.input(array([0.5, -3.0, 1.0, -1.0], "f32"), "f32")
    r = f.op("chlo.acosh %s : tensor<4xf32> -> tensor<4xf32>" % y)
    f.expect(r, array([NAN, NAN, 0.0, NAN], "f32"), "f32")
    r = f.op("chlo.atanh %s : tensor<4xf32> -> tensor<4xf32>" % y)
    f.expect(r, array([np.arctanh(np.float32(0.5)), NAN, INF, -INF], "f32"), "f32")
    funcs.append(f.text(comment="Outside the domain the result is NaN; atanh(+-1) "
                        "is +-inf, acosh(1) 0."))

    f = Func("test_is_inf")
    v = array([INF, -INF, NAN, 0.0, 3.4e38], "f32")
    x = f.input(v, "f32")
    for name, want in (("is_inf", np.isinf(v)), ("is_pos_inf", np.isposinf(v)),
                       ("is_neg_inf", np.isneginf(v))):
        r = f.op("chlo.%s %s : tensor<5xf32> -> tensor<5xi1>" % (name, x))
        f.expect(r, want, "i1")
    funcs.append(f.text(comment="chlo.is_inf, is_pos_inf, is_neg_inf."))

    f = Func("test_broadcast_family")
    a = array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "f32")
    row = array([10.0, 20.0, 30.0], "f32")
    col = array([100.0, 200.0], "f32")
    x, r_, c_ = f.input(a, "f32"), f.input(row, "f32"), f.input(col, "f32")
    r = f.op("chlo.broadcast_add %s, %s : (tensor<2x3xf32>, tensor<3xf32>) -> "
             "tensor<2x3xf32>" % (x, r_))
    f.expect(r, a + row, "f32")
    r = f.op("chlo.broadcast_subtract %s, %s {broadcast_dimensions = array<i64: 0>} : "
             "(tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>" % (x, c_))
    f.expect(r, a - col[:, None], "f32")
    r = f.op("chlo.broadcast_multiply %s, %s {broadcast_dimensions = array<i64: 1>} : "
             "(tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>" % (r_, x))
    f.expect(r, row * a, "f32")
    one = f.input(array([[2.0], [4.0]], "f32"), "f32")
    r = f.op("chlo.broadcast_divide %s, %s : (tensor<2x3xf32>, tensor<2x1xf32>) -> "
             "tensor<2x3xf32>" % (x, one))
    f.expect(r, a / np.array([[2.0], [4.0]], np.float32), "f32")
    for name, fn in (("maximum", np.maximum), ("minimum", np.minimum),
                     ("power", np.power), ("atan2", np.arctan2),
                     ("remainder", np.fmod)):
        r = f.op("chlo.broadcast_%s %s, %s : (tensor<2x3xf32>, tensor<3xf32>) -> "
                 "tensor<2x3xf32>" % (name, x, f.input(array([2.5, 1.0, 4.0], "f32"), "f32")))
        f.expect(r, array(fn(np.asarray(a, np.float64),
                             np.asarray([2.5, 1.0, 4.0], np.float64)), "f32"), "f32",
                 1e-6, 1e-6)
    r = f.op("chlo.broadcast_compare %s, %s {comparison_direction = "
             "#chlo<comparison_direction GT>} : (tensor<2x3xf32>, tensor<f32>) -> "
             "tensor<2x3xi1>" % (x, f.input(array(3.0, "f32"), "f32")))
    f.expect(r, a > 3.0, "i1")
    ia = array([[1, 2, 3], [4, 5, 6]], "i32")
    ix = f.input(ia, "i32")
    isc = f.input(array(3, "i32"), "i32")
    for name, fn in (("and", np.bitwise_and), ("or", np.bitwise_or),
                     ("xor", np.bitwise_xor), ("shift_left", np.left_shift),
                     ("shift_right_arithmetic", np.right_shift),
                     ("shift_right_logical", np.right_shift)):
        r = f.op("chlo.broadcast_%s %s, %s : (tensor<2x3xi32>, tensor<i32>) -> "
                 "tensor<2x3xi32>" % (name, ix, isc))
        f.expect(r, array(fn(np.asarray(ia), 3), "i32"), "i32")
    p = f.input(array([True, False, True], "i1"), "i1")
    r = f.op("chlo.broadcast_select %s, %s, %s : (tensor<3xi1>, tensor<2x3xf32>, "
             "tensor<f32>) -> tensor<2x3xf32>" % (p, x, f.input(array(-1.0, "f32"), "f32")))
    f.expect(r, np.where([True, False, True], a, -1.0), "f32")
    funcs.append(f.text(comment="chlo.broadcast_*: trailing-aligned (numpy) "
                        "broadcasting, explicit broadcast_dimensions, size-1 dims, "
                        "rank-0 operands."))

    f = Func("test_top_k")
    rng = np.random.default_rng(21)
    for elem, shape, k in (("f32", (3, 7), 3), ("i32", (2, 2, 6), 6), ("bf16", (9,), 1)):
        if elem == "i32":
            a = array(rng.integers(-4, 5, shape), elem)  # ties
        else:
            a = array(rng.uniform(-10, 10, shape), elem)
        order = np.argsort(-np.asarray(a, dtype=np.float64), axis=-1, kind="stable")
        idx = order[..., :k]
        vals = np.take_along_axis(np.asarray(a), idx, axis=-1)
        x = f.input(a, elem)
        out = list(shape[:-1]) + [k]
        r = f.op("chlo.top_k(%s, k = %d) : %s -> (%s, %s)"
                 % (x, k, type_of(a, elem), tensor_type(out, elem),
                    tensor_type(out, "i32")), count=2)
        f.expect(r + "#0", array(vals, elem), elem, 0.0, 0.0)
        f.expect(r + "#1", array(idx, "i32"), "i32")
    funcs.append(f.text(comment="chlo.top_k: the k largest per row in decreasing "
                        "order with their indices, earlier indices first among "
                        "equals."))

    # lgamma and digamma: Lanczos (g = 7, 9 terms) as XLA computes them, so
    # the error is absolute near the zeros of lgamma (x = 1, 2) and of
    # digamma (x ~ 1.46); references from mpmath.
    def mp_lgamma(v):
        if math.isinf(v):
            return INF
        if v <= 0 and v == math.floor(v):
            return INF
        return float(mpmath.log(abs(mpmath.gamma(mpmath.mpf(v)))))

    def mp_digamma(v):
        if math.isinf(v):
            return INF if v > 0 else NAN
        if v <= 0 and v == math.floor(v):
            return NAN
        return float(mpmath.digamma(mpmath.mpf(v)))

    gamma_inputs = [1e-6, 0.1, 0.5, 0.9, 0.999, 1.0, 1.001, 1.5, 2.0, 2.5, 3.0, 4.5,
                    10.0, 33.3, 100.0, 1e4, -0.5, -1.5, -2.7, -10.3, -100.4]
    for name, fn, extra, atol, rtol in (
            ("lgamma", mp_lgamma, [0.0, -3.0, INF, -INF, NAN], 2e-6, 2e-6),
            ("digamma", mp_digamma, [0.0, -3.0, INF, -INF, NAN], 2e-6, 2e-6)):
        f = Func("test_%s" % name)
        for elem in ("f32", "f64", "f16", "bf16"):
            vals = [v for v in gamma_inputs if elem in ("f32", "f64") or abs(v) < 50] + extra
            a = array(vals, elem)
            exact = [fn(float(v)) for v in np.asarray(a, dtype=np.float64)]
            x = f.input(a, elem)
            t = type_of(a, elem)
            r = f.op("chlo.%s %s : %s -> %s" % (name, x, t, t))
            if elem == "f32":
                f.expect(r, array(exact, elem), elem, atol, rtol)
            elif elem == "f64":
                f.expect(r, array(exact, elem), elem, 1e-12, 1e-12)
            else:
                f.expect(r, array(exact, elem), elem, 1e-2, 1e-2)
        funcs.append(f.text(comment="chlo.%s in f32, f64, f16 and bf16 against "
                            "mpmath (f32: atol and rtol %g; f64: 1e-12), its poles and "
                            "infinities." % (name, atol)))

    # zeta (Hurwitz) and polygamma: Euler-Maclaurin (9 terms, 12 Bernoulli
    # corrections), against mpmath, with the poles and the NaN domain.
    def mp_zeta(s, q):
        if math.isnan(s) or math.isnan(q):
            return NAN
        if s == 1:
            return INF
        if s < 1:
            return NAN
        if q <= 0 and q == math.floor(q):
            return INF
        if q < 0 and s != math.floor(s):
            return NAN
        return float(mpmath.zeta(mpmath.mpf(s), mpmath.mpf(q)))

    def mp_polygamma(n, x):
        if n < 0 or n != math.floor(n):
            return NAN
        if x <= 0 and x == math.floor(x):
            return NAN if n == 0 else INF
        return float(mpmath.polygamma(int(n), mpmath.mpf(x)))

    zeta_pairs = [(1.5, 1.0), (2.0, 1.0), (2.0, 0.5), (3.0, 2.5), (1.1, 3.0), (5.0, 0.1),
                  (10.0, 1.0), (2.5, 100.0), (4.0, 1e-3), (1.01, 1.0), (30.0, 2.0),
                  (2.0, -1.5), (3.0, -2.5), (0.5, 1.0), (1.0, 2.0), (2.0, 0.0),
                  (2.0, -3.0), (2.5, -1.5), (NAN, 1.0)]
    polygamma_pairs = [(0.0, 1.0), (1.0, 1.0), (1.0, 0.5), (2.0, 3.5), (3.0, 0.1),
                       (4.0, 10.0), (1.0, -1.5), (2.0, -2.5), (1.5, 1.0), (-1.0, 1.0),
                       (1.0, 0.0), (5.0, 2.0), (0.0, -0.5)]
    for name, fn, pairs in (("zeta", mp_zeta, zeta_pairs),
                            ("polygamma", mp_polygamma, polygamma_pairs)):
        f = Func("test_%s" % name)
        for elem in ("f32", "f64", "f16", "bf16"):
            a = array([p[0] for p in pairs], elem)
            b = array([p[1] for p in pairs], elem)
            exact = [fn(float(u), float(v)) for u, v in
                     zip(np.asarray(a, np.float64), np.asarray(b, np.float64))]
            x, y = f.input(a, elem), f.input(b, elem)
            t = type_of(a, elem)
            r = f.op("chlo.%s %s, %s : (%s, %s) -> %s" % (name, x, y, t, t, t))
            tolerance = {"f32": (0.0, 2e-6), "f64": (0.0, 1e-13)}.get(elem, (1e-3, 1e-2))
            f.expect(r, array(exact, elem), elem, *tolerance)
        funcs.append(f.text(comment="chlo.%s in f32, f64, f16 and bf16 against mpmath "
                            "(rtol 2e-6 in f32, 1e-13 in f64), its poles and NaN "
                            "domain." % name))

    # erf_inv and bessel_i1e: f32 formulas (f16/bf16 through f32), in ULP.
    def mp_erf_inv(v):
        if abs(v) == 1:
            return math.copysign(INF, v)
        if abs(v) > 1 or math.isnan(v):
            return NAN
        return float(mpmath.erfinv(mpmath.mpf(v)))

    def mp_i1e(v):
        if math.isnan(v):
            return NAN
        if math.isinf(v):
            return math.copysign(0.0, v)
        x = mpmath.mpf(v)
        return float(mpmath.besseli(1, x) * mpmath.exp(-abs(x)))

    for name, fn, values, bound in (
            ("erf_inv", mp_erf_inv,
             [-1.0, -0.999999, -0.9, -0.5, -1e-5, 0.0, 1e-7, 0.1, 0.3, 0.5, 0.7, 0.9,
              0.99, 0.999, 0.9999, 0.99999, 0.9999999, 1.0], 2),
            ("bessel_i1e", mp_i1e,
             [0.0, 1e-6, 0.1, 0.5, 1.0, 2.0, 5.0, 8.0, 10.0, 14.9, 15.0, 16.0, 20.0,
              50.0, 100.0, 1e4, 1e8, 3e38, -3.0, -30.0, 2.7127, 7.99, 8.0, 9.6196], 4)):
        funcs.append(chlo_ulp_test(name, fn, values, bound, 6e4, "mpmath"))
    f = Func("test_erf_inv_domain")
    x = f.input(array([1.5, -2.0, NAN], "f32"), "f32")
    r = f.op("chlo.erf_inv %s : tensor<3xf32> -> tensor<3xf32>" % x)
    f.expect(r, array([NAN, NAN, NAN], "f32"), "f32")
    funcs.append(f.text(comment="erf_inv outside [-1, 1] is NaN."))

    f = Func("test_next_after")
    tiny = {"f32": 2.0 ** -149, "f64": 2.0 ** -1074, "f16": 2.0 ** -24}
    for elem, dtype in (("f32", np.float32), ("f64", np.float64), ("f16", np.float16)):
        xs = [1.0, 1.0, -1.0, -1.0, 0.0, 0.0, -0.0, 2.5, float(np.finfo(dtype).max),
              INF, -INF, NAN, 3.0, tiny[elem], -tiny[elem]]
        ys = [2.0, 0.0, -2.0, 5.0, 1.0, -1.0, 0.0, 2.5, INF,
              0.0, 0.0, 1.0, NAN, 0.0, 1.0]
        want = np.nextafter(np.array(xs, dtype), np.array(ys, dtype))
        a, b = array(xs, elem), array(ys, elem)
        r = f.op("chlo.next_after %s, %s : (%s, %s) -> %s"
                 % (f.input(a, elem), f.input(b, elem), type_of(a, elem),
                    type_of(b, elem), type_of(a, elem)))
        f.expect(r, array(want, elem), elem, 0.0, 0.0)
    a = array([[1.0, -1.0, 0.0], [4.0, 8.0, -0.5]], "f32")
    b = array([0.0, 10.0, -1.0], "f32")
    r = f.op("chlo.broadcast_next_after %s, %s : (tensor<2x3xf32>, tensor<3xf32>) -> "
             "tensor<2x3xf32>" % (f.input(a, "f32"), f.input(b, "f32")))
    f.expect(r, np.nextafter(np.asarray(a), np.broadcast_to(np.asarray(b), (2, 3))),
             "f32", 0.0, 0.0)
    funcs.append(f.text(comment="chlo.next_after in f32, f64 and f16 against "
                        "numpy.nextafter (subnormals, zeros of both signs, "
                        "infinities, NaN), and broadcast_next_after."))

    f = Func("test_mulhi")
    import random
    rng_m = random.Random(41)
    for elem in ("i8", "ui8", "i16", "ui16", "i32", "ui32", "i64", "ui64"):
        bits = BITS[elem]
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if elem[0] == "i" else \
            (0, (1 << bits) - 1)
        edges = [lo, hi, 0, 1, -1 if lo < 0 else 2, hi // 3, lo // 2 if lo < 0 else hi // 2]
        xs = edges + [rng_m.randint(lo, hi) for _ in range(9)]
        ys = list(reversed(edges)) + [rng_m.randint(lo, hi) for _ in range(9)]
        want = [(x * y) >> bits for x, y in zip(xs, ys)]
        a, b = array(xs, elem), array(ys, elem)
        t = type_of(a, elem)
        r = f.op('"chlo.mulhi"(%s, %s) : (%s, %s) -> %s'
                 % (f.input(a, elem), f.input(b, elem), t, t, t))
        f.expect(r, array(want, elem), elem)
    funcs.append(f.text(comment="chlo.mulhi: the high half of the double-width product, "
                        "i8 to i64 and ui8 to ui64, extremes included."))

    f = Func("test_scan")
    rng_s = np.random.default_rng(43)
    # Prefix sums of f32 along dim 1 (the body adds a value captured from
    # outside the scan to each output).
    x = array(rng_s.uniform(-2, 2, (3, 5)), "f32")
    c = f.constant(array(0.5, "f32"), "f32")
    init = f.constant(array([0.0, 1.0, -1.0], "f32"), "f32")
    r = f.op("chlo.scan(%s) inits(%s) dimension=1 {\n"
             "    ^bb0(%%a: tensor<3xf32>, %%s: tensor<3xf32>):\n"
             "      %%n = stablehlo.add %%a, %%s : tensor<3xf32>\n"
             "      %%b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> "
             "tensor<3xf32>\n"
             "      %%o = stablehlo.add %%n, %%b : tensor<3xf32>\n"
             "      stablehlo.return %%o, %%n : tensor<3xf32>, tensor<3xf32>\n"
             "    } : (tensor<3x5xf32>, tensor<3xf32>) -> (tensor<3x5xf32>, tensor<3xf32>)"
             % (f.input(x, "f32"), init, c), count=2)
    sums = np.cumsum(np.asarray(x, np.float64), axis=1) + np.array([0.0, 1.0, -1.0])[:, None]
    f.expect(r + "#0", array(sums + 0.5, "f32"), "f32", 1e-5, 1e-5)
    f.expect(r + "#1", array(sums[:, -1], "f32"), "f32", 1e-5, 1e-5)
    # Reverse products of i32 along dim 0.
    y = array([[1, 2], [3, -1], [2, 5], [-4, 3]], "i32")
    one = f.constant(array([1, 1], "i32"), "i32")
    r = f.op("chlo.scan(%s) inits(%s) dimension=0 attributes {is_reverse = true} {\n"
             "    ^bb0(%%a: tensor<2xi32>, %%p: tensor<2xi32>):\n"
             "      %%n = stablehlo.multiply %%a, %%p : tensor<2xi32>\n"
             "      stablehlo.return %%n, %%n : tensor<2xi32>, tensor<2xi32>\n"
             "    } : (tensor<4x2xi32>, tensor<2xi32>) -> (tensor<4x2xi32>, tensor<2xi32>)"
             % (f.input(y, "i32"), one), count=2)
    prods = np.flip(np.cumprod(np.flip(np.asarray(y, np.int64), 0), axis=0), 0)
    f.expect(r + "#0", array(prods, "i32"), "i32")
    f.expect(r + "#1", array(prods[0], "i32"), "i32")
    # Two inputs and three carries: a running mean (sum and count carried)
    # and the running maximum of a second input.
    v = array([2.0, 4.0, -3.0, 7.0, 1.0, 0.5], "f32")
    w = array([3, -1, 8, 2, 8, 9], "i32")
    z0 = f.constant(array(0.0, "f32"), "f32")
    n0 = f.constant(array(0, "i32"), "i32")
    lo = f.constant(array(-2147483648, "i32"), "i32")
    r = f.op("chlo.scan(%s, %s) inits(%s, %s, %s) dimension=0 {\n"
             "    ^bb0(%%a: tensor<f32>, %%b: tensor<i32>, %%s: tensor<f32>, %%n: tensor<i32>, "
             "%%m: tensor<i32>):\n"
             "      %%s2 = stablehlo.add %%s, %%a : tensor<f32>\n"
             "      %%one = stablehlo.constant dense<1> : tensor<i32>\n"
             "      %%n2 = stablehlo.add %%n, %%one : tensor<i32>\n"
             "      %%nf = stablehlo.convert %%n2 : (tensor<i32>) -> tensor<f32>\n"
             "      %%mean = stablehlo.divide %%s2, %%nf : tensor<f32>\n"
             "      %%m2 = stablehlo.maximum %%m, %%b : tensor<i32>\n"
             "      stablehlo.return %%mean, %%m2, %%s2, %%n2, %%m2 : tensor<f32>, tensor<i32>, "
             "tensor<f32>, tensor<i32>, tensor<i32>\n"
             "    } : (tensor<6xf32>, tensor<6xi32>, tensor<f32>, tensor<i32>, tensor<i32>) -> "
             "(tensor<6xf32>, tensor<6xi32>, tensor<f32>, tensor<i32>, tensor<i32>)"
             % (f.input(v, "f32"), f.input(w, "i32"), z0, n0, lo), count=5)
    vd = np.asarray(v, np.float64)
    f.expect(r + "#0", array(np.cumsum(vd) / np.arange(1, 7), "f32"), "f32", 1e-6, 1e-6)
    f.expect(r + "#1", array(np.maximum.accumulate(np.asarray(w)), "i32"), "i32")
    f.expect(r + "#2", array(vd.sum(), "f32"), "f32", 1e-6, 1e-6)
    f.expect(r + "#3", array(6, "i32"), "i32")
    f.expect(r + "#4", array(9, "i32"), "i32")
    # No carries (each output from its own slice) and a length-1 scan.
    q = array([[1.0, -2.0, 3.0]], "f32")
    r = f.op("chlo.scan(%s) inits() dimension=0 {\n"
             "    ^bb0(%%a: tensor<3xf32>):\n"
             "      %%n = stablehlo.negate %%a : tensor<3xf32>\n"
             "      stablehlo.return %%n : tensor<3xf32>\n"
             "    } : (tensor<1x3xf32>) -> tensor<1x3xf32>" % f.input(q, "f32"))
    f.expect(r, array([[-1.0, 2.0, -3.0]], "f32"), "f32", 0.0, 0.0)
    funcs.append(f.text(comment="chlo.scan (unrolled): prefix sums along dim 1 with a "
                        "value captured from outside, reverse products, two inputs and "
                        "three carries of other shapes, no carries, a length-1 scan; "
                        "against numpy's cumsum and cumprod."))

    f = Func("fail_chlo_wrong_expectation")
    x = f.input(array([0.5], "f32"), "f32")
    r = f.op("chlo.acos %s : tensor<1xf32> -> tensor<1xf32>" % x)
    want = f.constant(array([np.nextafter(np.float32(np.arccos(0.5)), np.float32(9),
                                          dtype=np.float32)], "f32"), "f32")
    f.line("check.expect_close %s, %s, max_ulp_difference = 0 : tensor<1xf32>, "
           "tensor<1xf32>" % (r, want))
    funcs.append(f.text(comment="1 ULP off with a bound of 0: must fail."))
    return funcs


#===----------------------------------------------------------------------===#
# Quantized types (!quant.uniform)
#===----------------------------------------------------------------------===#

class QType:
    """A !quant.uniform element type and the spec's integer semantics."""

    def __init__(self, storage, scales, zero_points, axis=None, lo=None,
                 hi=None, expressed="f32"):
        self.storage = storage
        self.scales = list(scales)
        self.zero_points = list(zero_points)
        self.axis = axis
        bits = int(storage.lstrip("ui").lstrip("s"))
        signed = not storage.startswith("u")
        self.min = -(1 << (bits - 1)) if signed else 0
        self.max = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
        self.ranged = lo is not None
        if self.ranged:
            self.min, self.max = lo, hi
        self.expressed = expressed
        # The tensor IR holds i2/i4 one per byte.
        self.holder = storage if bits >= 8 else ("i8" if signed else "ui8")

    def text(self):
        storage = self.storage
        if self.ranged:
            storage += "<%d:%d>" % (self.min, self.max)
        params = ["%s:%d" % (np.format_float_positional(np.float32(s), trim="0")
                             if s >= 1e-3 else repr(s), z)
                  for s, z in zip(self.scales, self.zero_points)]
        if self.axis is None:
            return "!quant.uniform<%s:%s, %s>" % (storage, self.expressed,
                                                  params[0])
        return "!quant.uniform<%s:%s:%d, {%s}>" % (
            storage, self.expressed, self.axis, ", ".join(params))

    def tensor(self, shape):
        return "tensor<" + "".join("%dx" % d for d in shape) + self.text() + ">"

    def params(self, shape):
        """Scales and zero points (f32) broadcast to |shape|."""
        s = np.asarray(self.scales, dtype=np.float32)
        z = np.asarray(self.zero_points, dtype=np.float32)
        if self.axis is None:
            return (np.full(shape, s[0], np.float32),
                    np.full(shape, z[0], np.float32))
        view = [1] * len(shape)
        view[self.axis] = shape[self.axis]
        return (np.broadcast_to(s.reshape(view), shape),
                np.broadcast_to(z.reshape(view), shape))

    def quantize(self, x):
        """The spec's quantize: x / scale + zero_point, clamped to the
        storage range, rounded half to even (all in f32)."""
        x = np.asarray(x, dtype=np.float32)
        s, z = self.params(x.shape)
        y = (x / s).astype(np.float32) + z
        y = np.clip(y, np.float32(self.min), np.float32(self.max))
        # NaN stays NaN through the clamp and the rounding; grt's convert
        # of NaN to an integer gives 0.
        return np.where(np.isnan(y), 0, np.rint(np.nan_to_num(y))).astype(np.int64)

    def dequantize(self, q):
        q = np.asarray(q)
        s, z = self.params(q.shape)
        return ((q.astype(np.float32) - z) * s).astype(np.float32)


def q_input(f, stored, q):
    """A quantized input: its storage integers as an unfoldable constant,
    bitcast to the quantized type."""
    x = f.input(np.asarray(stored), q.holder)
    shape = np.shape(stored)
    return f.op("stablehlo.bitcast_convert %s : (%s) -> %s"
                % (x, tensor_type(shape, q.holder), q.tensor(shape)))


def q_expect(f, value, stored, q):
    """Checks the storage integers of |value| (bitcast for 8 bits and more;
    i2/i4 are checked through dequantize, which is exact for them)."""
    shape = np.shape(stored)
    if q.holder != q.storage:
        d = f.op("stablehlo.uniform_dequantize %s : (%s) -> %s"
                 % (value, q.tensor(shape), tensor_type(shape, "f32")))
        f.expect(d, q.dequantize(stored), "f32", 0.0, 0.0)
        return
    s = f.op("stablehlo.bitcast_convert %s : (%s) -> %s"
             % (value, q.tensor(shape), tensor_type(shape, q.holder)))
    f.expect(s, np.asarray(stored), q.holder)


def q_quantize(f, x, q):
    shape = np.shape(x)
    v = f.input(np.asarray(x, dtype=np.float32), "f32")
    return f.op("stablehlo.uniform_quantize %s : (%s) -> %s"
                % (v, tensor_type(shape, "f32"), q.tensor(shape)))


def gen_quant():
    funcs = []
    rng = np.random.default_rng(15)

    # uniform_quantize: ties to even, clamping, zero points, storage ranges.
    f = Func("test_uniform_quantize")
    x = [-100.0, -2.25, -1.75, -0.25, 0.0, 0.25, 0.75, 1.25, 3.3, 200.0, INF,
         -INF, NAN]
    for q in (QType("i8", [0.5], [-3]), QType("i8", [0.1], [0]),
              QType("ui8", [0.25], [128]), QType("i8", [0.5], [0], lo=-127, hi=127),
              QType("i16", [0.001], [-5]), QType("ui16", [0.01], [300]),
              QType("i4", [0.5], [1]), QType("ui4", [0.25], [8]),
              QType("i2", [1.0], [0])):
        q_expect(f, q_quantize(f, x, q), q.quantize(x), q)
    funcs.append(f.text(comment="x / scale + zero_point, clamped to the storage "
                        "range, rounded half to even (infinities clamp, NaN\n"
                        "converts to 0)."))

    f = Func("test_uniform_dequantize")
    for q, stored in ((QType("i8", [0.1], [-3]), [-128, -3, 0, 5, 127]),
                      (QType("ui8", [0.3], [128]), [0, 127, 128, 129, 255]),
                      (QType("i16", [0.0007], [100]), [-32768, 0, 100, 7, 32767])):
        v = q_input(f, array(stored, q.holder), q)
        d = f.op("stablehlo.uniform_dequantize %s : (%s) -> %s"
                 % (v, q.tensor([5]), tensor_type([5], "f32")))
        f.expect(d, q.dequantize(stored), "f32", 0.0, 0.0)
    funcs.append(f.text(comment="(stored - zero_point) * scale in the expressed "
                        "type."))

    f = Func("test_requantize")
    a, b = QType("i8", [0.5], [-3]), QType("i8", [0.3], [7])
    stored = [-128, -20, -4, -3, 0, 9, 60, 127]
    v = q_input(f, array(stored, "i8"), a)
    r = f.op("stablehlo.uniform_quantize %s : (%s) -> %s"
             % (v, a.tensor([8]), b.tensor([8])))
    q_expect(f, r, b.quantize(a.dequantize(stored)), b)
    c = QType("ui8", [0.125], [100])
    r2 = f.op("stablehlo.uniform_quantize %s : (%s) -> %s"
              % (v, a.tensor([8]), c.tensor([8])))
    q_expect(f, r2, c.quantize(a.dequantize(stored)), c)
    funcs.append(f.text(comment="uniform_quantize of a quantized tensor: "
                        "dequantize, then quantize."))

    # Per-axis quantization.
    f = Func("test_per_axis")
    qa = QType("i8", [0.5, 0.25, 0.1], [0, -10, 5], axis=1)
    xs = rng.uniform(-20, 20, (2, 3)).astype(np.float32)
    xs[0, 0] = 2.25
    v = q_quantize(f, xs, qa)
    stored = qa.quantize(xs)
    q_expect(f, v, stored, qa)
    d = f.op("stablehlo.uniform_dequantize %s : (%s) -> %s"
             % (v, qa.tensor([2, 3]), tensor_type([2, 3], "f32")))
    f.expect(d, qa.dequantize(stored), "f32", 0.0, 0.0)
    qt = QType("i8", [0.5, 0.25, 0.1], [0, -10, 5], axis=0)
    t_ = f.op("stablehlo.transpose %s, dims = [1, 0] : (%s) -> %s"
              % (v, qa.tensor([2, 3]), qt.tensor([3, 2])))
    q_expect(f, t_, stored.T, qt)
    funcs.append(f.text(comment="Per-axis scales and zero points along a "
                        "dimension; transpose moves the axis."))

    # Elementwise ops: dequantize, the op in f32, quantize. Input scales are
    # powers of two, so products are exact whether or not they fuse.
    a = QType("i8", [0.5], [2])
    b = QType("i8", [0.25], [-1])
    out = QType("i8", [0.3], [-5])
    sa = rng.integers(-128, 128, 12)
    sb = rng.integers(-128, 128, 12)
    fa, fb = a.dequantize(sa), b.dequantize(sb)
    f = Func("test_add")
    va, vb = q_input(f, array(sa, "i8"), a), q_input(f, array(sb, "i8"), b)
    r = f.op("stablehlo.add %s, %s : (%s, %s) -> %s"
             % (va, vb, a.tensor([12]), b.tensor([12]), out.tensor([12])))
    q_expect(f, r, out.quantize(fa + fb), out)
    r = f.op("stablehlo.add %s, %s : %s" % (va, va, a.tensor([12])))
    q_expect(f, r, a.quantize(fa + fa), a)
    funcs.append(f.text(comment="Quantized add with three different "
                        "quantizations, and with one."))

    f = Func("test_maximum_minimum")
    va, vb = q_input(f, array(sa, "i8"), a), q_input(f, array(sb, "i8"), b)
    vc = q_input(f, array(sb, "i8"), a)
    for op, fn in (("maximum", np.maximum), ("minimum", np.minimum)):
        r = f.op("stablehlo.%s %s, %s : (%s, %s) -> %s"
                 % (op, va, vb, a.tensor([12]), b.tensor([12]), out.tensor([12])))
        q_expect(f, r, out.quantize(fn(fa, fb)), out)
        r = f.op("stablehlo.%s %s, %s : %s" % (op, va, vc, a.tensor([12])))
        q_expect(f, r, fn(sa, sb), a)
    funcs.append(f.text(comment="maximum/minimum: requantized, or on the stored "
                        "values when all quantizations agree."))

    f = Func("test_compare_select")
    va, vb = q_input(f, array(sa, "i8"), a), q_input(f, array(sb, "i8"), b)
    vc = q_input(f, array(sb, "i8"), a)
    for d_, fn in (("LT", np.less), ("GE", np.greater_equal), ("EQ", np.equal)):
        c = f.op("stablehlo.compare  %s, %s, %s : (%s, %s) -> tensor<12xi1>"
                 % (d_, va, vb, a.tensor([12]), b.tensor([12])))
        f.expect(c, fn(fa, fb), "i1")
    c = f.op("stablehlo.compare  GT, %s, %s : (%s, %s) -> tensor<12xi1>"
             % (va, vc, a.tensor([12]), a.tensor([12])))
    f.expect(c, sa > sb, "i1")
    s_ = f.op("stablehlo.select %s, %s, %s : tensor<12xi1>, %s"
              % (c, va, vc, a.tensor([12])))
    q_expect(f, s_, np.where(sa > sb, sa, sb), a)
    s_ = f.op("stablehlo.select %s, %s, %s : (tensor<12xi1>, %s, %s) -> %s"
              % (c, va, vb, a.tensor([12]), b.tensor([12]), out.tensor([12])))
    q_expect(f, s_, out.quantize(np.where(sa > sb, fa, fb)), out)
    funcs.append(f.text(comment="compare of the values the stored integers stand "
                        "for; select."))

    # Data movement keeps the stored integers.
    f = Func("test_data_movement")
    q = QType("i8", [0.2], [-7])
    st = rng.integers(-128, 128, (2, 3))
    v = q_input(f, array(st, "i8"), q)
    r = f.op("stablehlo.broadcast_in_dim %s, dims = [0, 2] : (%s) -> %s"
             % (v, q.tensor([2, 3]), q.tensor([2, 4, 3])))
    q_expect(f, r, np.broadcast_to(st[:, None, :], (2, 4, 3)), q)
    r = f.op("stablehlo.reshape %s : (%s) -> %s"
             % (v, q.tensor([2, 3]), q.tensor([3, 2])))
    q_expect(f, r, st.reshape(3, 2), q)
    r = f.op("stablehlo.transpose %s, dims = [1, 0] : (%s) -> %s"
             % (v, q.tensor([2, 3]), q.tensor([3, 2])))
    q_expect(f, r, st.T, q)
    r = f.op("stablehlo.concatenate %s, %s, dim = 0 : (%s, %s) -> %s"
             % (v, v, q.tensor([2, 3]), q.tensor([2, 3]), q.tensor([4, 3])))
    q_expect(f, r, np.concatenate([st, st], 0), q)
    r = f.op("stablehlo.slice %s [0:2, 1:3] : (%s) -> %s"
             % (v, q.tensor([2, 3]), q.tensor([2, 2])))
    q_expect(f, r, st[:, 1:3], q)
    pv = q_input(f, np.asarray(9, dtype=np.int8), q)
    r = f.op("stablehlo.pad %s, %s, low = [1, 0], high = [0, 2], interior = [0, 1]"
             " : (%s, %s) -> %s" % (v, pv, q.tensor([2, 3]), q.tensor([]),
                                    q.tensor([3, 7])))
    padded = np.full((3, 7), 9, np.int64)
    padded[1:, 0:5:2] = st
    q_expect(f, r, padded, q)
    funcs.append(f.text(comment="broadcast_in_dim, reshape, transpose, "
                        "concatenate, slice, pad move the stored integers."))

    # dot_general: i8 x i8 into i32 (scale = product), and requantized to i8.
    f = Func("test_dot_general")
    la = QType("i8", [0.5], [3])
    rb = QType("i8", [0.25], [-2])
    acc = QType("i32", [0.125], [0])
    o8 = QType("i8", [1.7], [4])
    sl = rng.integers(-128, 128, (3, 5))
    sr = rng.integers(-128, 128, (5, 4))
    prod = la.dequantize(sl).astype(np.float64) @ rb.dequantize(sr).astype(np.float64)
    prod = prod.astype(np.float32)
    vl, vr = q_input(f, array(sl, "i8"), la), q_input(f, array(sr, "i8"), rb)
    for o in (acc, o8):
        r = f.op("stablehlo.dot_general %s, %s, contracting_dims = [1] x [0] : "
                 "(%s, %s) -> %s" % (vl, vr, la.tensor([3, 5]), rb.tensor([5, 4]),
                                     o.tensor([3, 4])))
        q_expect(f, r, o.quantize(prod), o)
    # Per-axis weights (one scale per output column), per-tensor result.
    rw = QType("i8", [0.5, 0.25, 0.125, 1.0], [0, 0, 0, 0], axis=1)
    prod = (la.dequantize(sl).astype(np.float64)
            @ rw.dequantize(sr).astype(np.float64)).astype(np.float32)
    vw = q_input(f, array(sr, "i8"), rw)
    o = QType("i8", [2.5], [0])
    r = f.op("stablehlo.dot_general %s, %s, contracting_dims = [1] x [0] : "
             "(%s, %s) -> %s" % (vl, vw, la.tensor([3, 5]), rw.tensor([5, 4]),
                                 o.tensor([3, 4])))
    q_expect(f, r, o.quantize(prod), o)
    # f32 activations with quantized weights into f32 (weight-only).
    xa = rng.integers(-8, 8, (3, 5)).astype(np.float32) * np.float32(0.5)
    vx = f.input(xa, "f32")
    r = f.op("stablehlo.dot_general %s, %s, contracting_dims = [1] x [0] : "
             "(tensor<3x5xf32>, %s) -> tensor<3x4xf32>" % (vx, vr, rb.tensor([5, 4])))
    f.expect(r, (xa.astype(np.float64) @ rb.dequantize(sr)).astype(np.float32),
             "f32", 0.0, 0.0)
    funcs.append(f.text(comment="Quantized dot_general into i32 and i8, per-axis "
                        "weights, f32 x quantized."))

    f = Func("test_convolution")
    xq = QType("i8", [0.5], [-1])
    wq = QType("i8", [0.25], [0])
    oq = QType("i8", [0.9], [3])
    sx = rng.integers(-128, 128, (1, 4, 4, 2))
    sw = rng.integers(-128, 128, (3, 3, 2, 3))
    vx, vw = q_input(f, array(sx, "i8"), xq), q_input(f, array(sw, "i8"), wq)

    def q_conv(vw, wt, ot):
        """The 3x3 convolution (NHWC/HWIO, stride 1, padding 1) of vx (sx in
        xq) and vw (sw in |wt|) into |ot|, expected against conv_ref on the
        dequantized values."""
        want = conv_ref(xq.dequantize(sx).astype(np.float64),
                        wt.dequantize(sw).astype(np.float64), (1, 1), [(1, 1), (1, 1)],
                        (1, 1), (1, 1), 1).astype(np.float32)
        r = f.op("stablehlo.convolution(%s, %s) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]"
                 "->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} "
                 "{batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
                 "(%s, %s) -> %s" % (vx, vw, xq.tensor([1, 4, 4, 2]),
                                     wt.tensor([3, 3, 2, 3]), ot.tensor([1, 4, 4, 3])))
        q_expect(f, r, ot.quantize(want), ot)

    q_conv(vw, wq, oq)
    # Per-channel weights (axis 3, the output feature) and a per-channel
    # result, as quantized CNNs use.
    wc = QType("i8", [0.25, 0.5, 0.125], [0, 0, 0], axis=3)
    oc = QType("i8", [0.9, 1.3, 0.4], [3, -2, 0], axis=3)
    q_conv(q_input(f, array(sw, "i8"), wc), wc, oc)
    funcs.append(f.text(comment="Quantized 3x3 convolution (NHWC/HWIO) requantized "
                        "to i8, per-tensor and per-channel."))

    # Quantized constants (weights as JAX exports them), gather, and
    # reductions whose body selects (max pooling, reduce max).
    f = Func("test_constants_gather_pooling")
    wq = QType("i8", [0.5, 0.25, 0.125], [0, 1, -1], axis=1)
    sw = rng.integers(-128, 128, (4, 3))
    w = f.op("stablehlo.constant %s : %s" % (dense(sw, "i8", splat_ok=False),
                                            wq.tensor([4, 3])))
    xq = QType("i8", [0.5], [-2])
    sx = rng.integers(-128, 128, (2, 4))
    vx = q_input(f, array(sx, "i8"), xq)
    o = QType("i8", [3.1], [-4])
    prod = (xq.dequantize(sx).astype(np.float64)
            @ wq.dequantize(sw).astype(np.float64)).astype(np.float32)
    r = f.op("stablehlo.dot_general %s, %s, contracting_dims = [1] x [0] : "
             "(%s, %s) -> %s" % (vx, w, xq.tensor([2, 4]), wq.tensor([4, 3]),
                                 o.tensor([2, 3])))
    q_expect(f, r, o.quantize(prod), o)
    i4 = QType("i4", [0.5], [1])
    s4 = np.array([-8, -1, 0, 7])
    c4 = f.op("stablehlo.constant %s : %s" % (dense(s4, "i8", splat_ok=False),
                                             i4.tensor([4])))
    q_expect(f, c4, s4, i4)
    q = QType("ui8", [0.2], [128])
    st = rng.integers(0, 256, (5, 3))
    v = q_input(f, array(st, "ui8"), q)
    idx = f.input(np.array([[4], [0], [2], [4]], dtype=np.int32), "i32")
    g = f.op('"stablehlo.gather"(%s, %s) <{dimension_numbers = #stablehlo.gather<'
             'offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], '
             'index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = '
             'array<i64: 1, 3>}> : (%s, tensor<4x1xi32>) -> %s'
             % (v, idx, q.tensor([5, 3]), q.tensor([4, 3])))
    q_expect(f, g, st[[4, 0, 2, 4]], q)
    p = QType("i8", [0.25], [3])
    sp = rng.integers(-128, 128, (1, 4, 4, 1))
    vp = q_input(f, array(sp, "i8"), p)
    init = f.op("stablehlo.constant dense<-128> : %s" % p.tensor([]))
    pool = f.op('"stablehlo.reduce_window"(%s, %s) <{window_dimensions = array<i64: '
                '1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({\n'
                '    ^bb0(%%arg1: %s, %%arg2: %s):\n'
                '      %%100 = stablehlo.maximum %%arg1, %%arg2 : %s\n'
                '      stablehlo.return %%100 : %s\n'
                '    }) : (%s, %s) -> %s'
                % (vp, init, p.tensor([]), p.tensor([]), p.tensor([]), p.tensor([]),
                   p.tensor([1, 4, 4, 1]), p.tensor([]), p.tensor([1, 2, 2, 1])))
    q_expect(f, pool, sp.reshape(1, 2, 2, 2, 2, 1).max(axis=(2, 4)), p)
    top = f.op("stablehlo.constant dense<127> : %s" % p.tensor([]))
    red = f.op("stablehlo.reduce(%s init: %s) applies stablehlo.minimum across "
               "dimensions = [1, 2] : (%s, %s) -> %s"
               % (vp, top, p.tensor([1, 4, 4, 1]), p.tensor([]), p.tensor([1, 1])))
    q_expect(f, red, sp.min(axis=(1, 2)), p)
    funcs.append(f.text(comment="Quantized constants (per-axis i8 weights, i4), "
                        "gather, max pooling and reduce min on stored values."))

    # Plain i2/i4 tensors: held one per byte; convert wraps from integers and
    # saturates from floats; constants, data movement, compare, maximum.
    f = Func("test_narrow_integers")
    ints = np.array([7, 8, -9, 23, -1, 0, -8, 100], dtype=np.int32)
    floats = np.array([-3.0, 2.7, 15.5, 100.0, -0.5, 7.49, -9.0, 1.0],
                      dtype=np.float32)
    vi, vf = f.input(ints, "i32"), f.input(floats, "f32")
    for elem, bits, unsigned in (("i4", 4, False), ("ui4", 4, True),
                                 ("i2", 2, False), ("ui2", 2, True)):
        lo = 0 if unsigned else -(1 << (bits - 1))
        hi = (1 << bits) - 1 if unsigned else (1 << (bits - 1)) - 1
        wrapped = ints.astype(np.int64) & ((1 << bits) - 1)
        if not unsigned:
            wrapped = np.where(wrapped > hi, wrapped - (1 << bits), wrapped)
        n = f.op("stablehlo.convert %s : (tensor<8xi32>) -> tensor<8x%s>" % (vi, elem))
        back = f.op("stablehlo.convert %s : (tensor<8x%s>) -> tensor<8xi32>"
                    % (n, elem))
        f.expect(back, wrapped.astype(np.int32), "i32")
        sat = np.clip(np.trunc(floats), lo, hi)
        n2 = f.op("stablehlo.convert %s : (tensor<8xf32>) -> tensor<8x%s>" % (vf, elem))
        back = f.op("stablehlo.convert %s : (tensor<8x%s>) -> tensor<8xf32>"
                    % (n2, elem))
        f.expect(back, sat.astype(np.float32), "f32", 0.0, 0.0)
        c = np.array([lo, hi, 0, 1, hi, lo, 1, 0], dtype=np.int64)
        k = f.op("stablehlo.constant %s : tensor<8x%s>"
                 % (dense(c, "i32", splat_ok=False), elem))
        r = f.op("stablehlo.reverse %s, dims = [0] : tensor<8x%s>" % (k, elem))
        mx = f.op("stablehlo.maximum %s, %s : tensor<8x%s>" % (r, n, elem))
        back = f.op("stablehlo.convert %s : (tensor<8x%s>) -> tensor<8xi32>"
                    % (mx, elem))
        f.expect(back, np.maximum(c[::-1], wrapped).astype(np.int32), "i32")
        lt = f.op("stablehlo.compare  LT, %s, %s : (tensor<8x%s>, tensor<8x%s>) -> "
                  "tensor<8xi1>" % (k, n, elem, elem))
        f.expect(lt, c < wrapped, "i1")
        # The same bits as quantized storage (bitcast_convert keeps them).
        q = QType(elem, [0.5], [1])
        b = f.op("stablehlo.bitcast_convert %s : (tensor<8x%s>) -> %s"
                 % (n, elem, q.tensor([8])))
        d = f.op("stablehlo.uniform_dequantize %s : (%s) -> tensor<8xf32>"
                 % (b, q.tensor([8])))
        f.expect(d, q.dequantize(wrapped), "f32", 0.0, 0.0)
    funcs.append(f.text(comment="Plain i2/i4/ui2/ui4 tensors (one per byte): "
                        "convert wraps from integers, saturates from floats;\n"
                        "constants, reverse, maximum, compare."))

    # iota of i2/i4/ui2/ui4 up to the largest value the type holds.
    f = Func("test_narrow_iota")
    for elem, shape, dim in (("i4", (8, 2), 0), ("ui4", (3, 16), 1), ("i2", (2, 3), 0),
                             ("ui2", (2, 4), 1)):
        ty = tensor_type(list(shape), elem)
        r = f.op("stablehlo.iota dim = %d : %s" % (dim, ty))
        back = f.op("stablehlo.convert %s : (%s) -> %s"
                    % (r, ty, tensor_type(list(shape), "i32")))
        want = np.indices(shape)[dim].astype(np.int32)
        f.expect(back, want, "i32")
    funcs.append(f.text(comment="iota of i2/i4/ui2/ui4 (counting up to the type's "
                        "largest value)."))

    # Elementwise arithmetic and bit ops on i2/i4/ui2/ui4: computed on the
    # byte holders and wrapped back to N bits, so every result is the N-bit
    # one modulo 2^N (sums and products that overflow included).
    f = Func("test_narrow_arithmetic")
    xs = np.array([7, -8, 5, -3, 0, 6, -1, 3, 2, -6], dtype=np.int32)
    ys = np.array([3, -1, -7, 2, 5, -2, 1, 4, 7, 3], dtype=np.int32)
    vx, vy = f.input(xs, "i32"), f.input(ys, "i32")
    for elem, bits, unsigned in (("i4", 4, False), ("ui4", 4, True),
                                 ("i2", 2, False), ("ui2", 2, True)):
        def wrap(v, bits=bits, unsigned=unsigned):
            v = np.asarray(v, dtype=np.int64) & ((1 << bits) - 1)
            return v if unsigned else np.where(v >= 1 << (bits - 1), v - (1 << bits), v)
        t = "tensor<10x%s>" % elem
        x, y = wrap(xs), wrap(ys)
        nx = f.op("stablehlo.convert %s : (tensor<10xi32>) -> %s" % (vx, t))
        ny = f.op("stablehlo.convert %s : (tensor<10xi32>) -> %s" % (vy, t))
        # Divisors: y where it is nonzero, else 1.
        d = np.where(y == 0, 1, y)
        nd = f.op("stablehlo.constant %s : %s" % (dense(d, "i32", splat_ok=False), t))
        quot = np.sign(x) * np.sign(d) * (np.abs(x) // np.abs(d))
        shift_ok = (y >= 0) & (y < bits)
        ys_safe = np.where(shift_ok, y, 0)
        cases = [("add", [nx, ny], x + y), ("subtract", [nx, ny], x - y),
                 ("multiply", [nx, ny], x * y), ("and", [nx, ny], x & y),
                 ("or", [nx, ny], x | y), ("xor", [nx, ny], x ^ y),
                 ("not", [nx], ~x), ("negate", [nx], -x),
                 ("divide", [nx, nd], quot), ("remainder", [nx, nd], x - d * quot),
                 ("shift_left", [nx, ny], np.where(shift_ok, x << ys_safe, 0))]
        if unsigned:
            cases.append(("shift_right_logical", [nx, ny],
                          np.where(shift_ok, x >> ys_safe, 0)))
        else:
            cases += [("abs", [nx], np.abs(x)), ("sign", [nx], np.sign(x)),
                      ("shift_right_arithmetic", [nx, ny],
                       np.where(shift_ok, x >> ys_safe, np.where(x < 0, -1, 0)))]
        for name, args, want in cases:
            r = f.op("stablehlo.%s %s : %s" % (name, ", ".join(args), t))
            back = f.op("stablehlo.convert %s : (%s) -> tensor<10xi32>" % (r, t))
            f.expect(back, wrap(want).astype(np.int32), "i32")
    funcs.append(f.text(comment="Plain i2/i4/ui2/ui4 arithmetic and bit ops (computed on "
                        "the byte holders, wrapped to N bits):\nadd, subtract, multiply, "
                        "divide, remainder, and, or, xor, not, negate, abs, sign, shifts."))

    # dot_general on integers with zero points on both sides: batching dims,
    # a transposed rhs, per-axis rhs scales and zero points along a free and
    # along a batching dim, storage extremes (-128/127, zero points at the
    # ends of the range), and a float result. Power-of-two operand scales
    # keep the f64 product exact, so the f32 it rounds to is the one the
    # i32 accumulator times sl * sr gives.
    f = Func("test_dot_general_integer")
    qrng = np.random.default_rng(151)
    la = QType("i8", [0.25], [-7])
    sl = qrng.integers(-128, 128, (2, 3, 7))
    vl = q_input(f, array(sl, "i8"), la)
    # (rhs quantization, rhs shape, its contracting dim, einsum, result)
    for rq, rshape, rc, spec, o in (
            (QType("i8", [0.5, 0.25, 1.0, 0.125], [3, -5, 0, 7], axis=1), (2, 4, 7), 2,
             "bmk,bnk->bmn", QType("i8", [1.3], [-2])),
            (QType("i8", [0.5, 0.25], [1, -1], axis=0), (2, 7, 4), 1, "bmk,bkn->bmn",
             QType("i8", [0.9], [5]))):
        sr = qrng.integers(-128, 128, rshape)
        vr = q_input(f, array(sr, "i8"), rq)
        prod = np.einsum(spec, la.dequantize(sl).astype(np.float64),
                         rq.dequantize(sr).astype(np.float64)).astype(np.float32)
        r = f.op("stablehlo.dot_general %s, %s, batching_dims = [0] x [0], "
                 "contracting_dims = [2] x [%d] : (%s, %s) -> %s"
                 % (vl, vr, rc, la.tensor([2, 3, 7]), rq.tensor(list(rshape)),
                    o.tensor([2, 3, 4])))
        q_expect(f, r, o.quantize(prod), o)
    xl = QType("i8", [0.5], [-128])
    xr = QType("i8", [0.25], [127])
    ex = qrng.choice([-128, 127], (2, 200))
    ey = qrng.choice([-128, 127], (200, 3))
    ve, vy = q_input(f, array(ex, "i8"), xl), q_input(f, array(ey, "i8"), xr)
    exact = (ex + 128) @ (ey - 127)
    for o in (QType("i32", [0.125], [0]), QType("i8", [4096.0], [0])):
        r = f.op("stablehlo.dot_general %s, %s, contracting_dims = [1] x [0] : "
                 "(%s, %s) -> %s" % (ve, vy, xl.tensor([2, 200]), xr.tensor([200, 3]),
                                     o.tensor([2, 3])))
        want = exact if o.storage == "i32" else o.quantize(
            (exact.astype(np.float64) * 0.125).astype(np.float32))
        q_expect(f, r, want, o)
    lf, rf = QType("i8", [0.5], [3]), QType("i8", [0.25], [-2])
    sa, sc = qrng.integers(-128, 128, (3, 5)), qrng.integers(-128, 128, (5, 4))
    va, vc = q_input(f, array(sa, "i8"), lf), q_input(f, array(sc, "i8"), rf)
    r = f.op("stablehlo.dot_general %s, %s, contracting_dims = [1] x [0] : "
             "(%s, %s) -> tensor<3x4xf32>" % (va, vc, lf.tensor([3, 5]), rf.tensor([5, 4])))
    f.expect(r, (lf.dequantize(sa).astype(np.float64)
                 @ rf.dequantize(sc).astype(np.float64)).astype(np.float32),
             "f32", 0.0, 0.0)
    funcs.append(f.text(comment="dot_general on the stored i8 (zero points on both "
                        "sides, batching, per-axis rhs\nalong a free and a batching "
                        "dim, storage extremes, a float result)."))

    # The i8 x i8 -> i32 product at sizes that are not multiples of the
    # GPU targets' 16x16 tiles, and 1 (M, N or K alone, and all three),
    # batched, with a transposed rhs, zero points on both sides, exact i32
    # accumulators and requantized i8 results.
    f = Func("test_dot_general_integer_odd_sizes")
    orng = np.random.default_rng(153)
    ol, orr = QType("i8", [0.25], [-3]), QType("i8", [0.5], [5])
    for batch, m, k, n, trans in ((0, 1, 1, 1, False), (0, 1, 37, 19, False),
                                  (0, 17, 5, 33, True), (0, 33, 31, 47, False),
                                  (0, 20, 1, 3, False), (3, 5, 17, 2, True)):
        bl = [batch] if batch else []
        sl = orng.integers(-128, 128, bl + [m, k])
        rshape = bl + ([n, k] if trans else [k, n])
        sr = orng.integers(-128, 128, rshape)
        vl, vr = q_input(f, array(sl, "i8"), ol), q_input(f, array(sr, "i8"), orr)
        rc = len(bl) + (1 if trans else 0)
        dims = ("batching_dims = [0] x [0], " if batch else "") + \
            "contracting_dims = [%d] x [%d]" % (len(bl) + 1, rc)
        spec = ("b" if batch else "") + "mk," + ("b" if batch else "") + \
            ("nk" if trans else "kn") + "->" + ("b" if batch else "") + "mn"
        exact = np.einsum(spec, sl + 3, sr - 5)
        oshape = bl + [m, n]
        # A power-of-two result scale that spreads the values over i8 (exact
        # division, so no f32 division rounding enters the reference).
        big = max(1.0, float(np.abs(exact).max()) * 0.125 / 100.0)
        so = float(2.0 ** np.ceil(np.log2(big)))
        for o in (QType("i32", [0.125], [0]), QType("i8", [so], [-4])):
            r = f.op("stablehlo.dot_general %s, %s, %s : (%s, %s) -> %s"
                     % (vl, vr, dims, ol.tensor(bl + [m, k]), orr.tensor(rshape),
                        o.tensor(oshape)))
            want = exact if o.storage == "i32" else o.quantize(
                (exact.astype(np.float64) * 0.125).astype(np.float32))
            q_expect(f, r, want, o)
    funcs.append(f.text(comment="dot_general on the stored i8 at sizes that are not "
                        "multiples of the GPU tiles, and 1\n(batched, a transposed rhs, "
                        "zero points on both sides, i32 and requantized i8 results)."))

    # convolution on the stored i8: the i8 x i8 -> i32 convolution, the
    # zero-point terms (the lhs padded with its zero point, window sums of
    # the lhs, the filter's sums) and requantization, in NCHW/OIHW (the
    # CPU's int8 GEMM) and NHWC/HWIO, with strides, padding, lhs and rhs
    # dilation, groups, depthwise filters, K past the GEMM's 512-wide
    # slices, storage extremes, per-axis rhs zero points and scales,
    # per-axis, i32 and f32 results. Power-of-two operand scales keep sl * sr
    # exact, so the reference is the integer sum, f32(acc) * f32(sl * sr)
    # and the spec's quantize.
    f = Func("test_convolution_integer")
    crng = np.random.default_rng(152)

    def iconv(layout, sx, sw, lq, rq, oq, stride=(1, 1), pad=((0, 0), (0, 0)),
              lhs_dil=(1, 1), rhs_dil=(1, 1), groups=1, extremes=False):
        """The convolution of stored sx (NHWC) in lq and sw (HWIO) in rq
        (per-axis along O) into oq (per-axis along the output feature; None:
        f32), checked against the integer reference."""
        n, h, w, c = sx.shape
        kh, kw, ci, co = sw.shape
        zr = np.asarray(rq.zero_points if rq.axis is not None else
                        rq.zero_points * co)
        sr = np.asarray(rq.scales if rq.axis is not None else rq.scales * co)
        acc = conv_ref(sx - lq.zero_points[0], sw - zr, list(stride),
                       [list(p) for p in pad], list(lhs_dil), list(rhs_dil), groups)
        acc = acc.astype(np.int64)
        value = (acc.astype(np.float32) *
                 (np.float64(lq.scales[0]) * sr).astype(np.float32)).astype(np.float32)
        nchw = layout == "nchw"
        x_shape = [n, c, h, w] if nchw else [n, h, w, c]
        w_shape = [co, ci, kh, kw] if nchw else [kh, kw, ci, co]
        o_shape = [acc.shape[0], co, acc.shape[1], acc.shape[2]] if nchw \
            else list(acc.shape)
        xs = sx.transpose(0, 3, 1, 2) if nchw else sx
        ws = sw.transpose(3, 2, 0, 1) if nchw else sw
        rq_t = rq if rq.axis is None else QType("i8", rq.scales, rq.zero_points,
                                                axis=0 if nchw else 3)
        vx = q_input(f, array(xs, "i8"), lq)
        vw = q_input(f, array(ws, "i8"), rq_t)
        dims = ("[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]" if nchw
                else CONV_NHWC_HWIO)
        if oq is None:
            out_t = tensor_type(o_shape, "f32")
        else:
            if oq.axis is not None:
                oq = QType(oq.storage, oq.scales, oq.zero_points, axis=1 if nchw else 3)
            out_t = oq.tensor(o_shape)
        r = f.op("stablehlo.convolution(%s, %s) dim_numbers = %s, window = %s "
                 "{batch_group_count = 1 : i64, feature_group_count = %d : i64} : "
                 "(%s, %s) -> %s" % (vx, vw, dims,
                                     window_text(list(stride), [list(p) for p in pad],
                                                 list(lhs_dil), list(rhs_dil)),
                                     groups, lq.tensor(x_shape), rq_t.tensor(w_shape),
                                     out_t))
        if nchw:
            acc, value = acc.transpose(0, 3, 1, 2), value.transpose(0, 3, 1, 2)
        if oq is None:
            f.expect(r, value, "f32", 0.0, 0.0)
        elif oq.storage == "i32":
            q_expect(f, r, acc, oq)
        else:
            q_expect(f, r, oq.quantize(value), oq)

    ints = lambda shape: crng.integers(-128, 128, shape)
    # 3x3 padded, per-axis rhs zero points and scales.
    iconv("nchw", ints((2, 9, 10, 3)), ints((3, 3, 3, 4)), QType("i8", [0.25], [-5]),
          QType("i8", [0.5, 0.25, 1.0, 0.125], [3, -5, 0, 7], axis=3),
          QType("i8", [1.3], [-2]), pad=((1, 1), (1, 1)))
    # Strides, uneven padding, rhs dilation, two groups, per-axis result.
    iconv("nchw", ints((1, 11, 12, 4)), ints((3, 3, 2, 6)), QType("i8", [0.5], [9]),
          QType("i8", [0.25, 0.5, 0.125, 1.0, 0.25, 0.5], [0, 1, -1, 2, 0, -3], axis=3),
          QType("i8", [0.9, 1.3, 0.4, 2.0, 0.7, 1.1], [3, -2, 0, 5, -7, 1], axis=3),
          stride=(2, 2), pad=((2, 0), (1, 2)), rhs_dil=(2, 2), groups=2)
    # NHWC with lhs dilation and the lhs zero point at the top of the range:
    # the i32 accumulator itself.
    iconv("nhwc", ints((1, 5, 6, 3)), ints((2, 2, 3, 5)), QType("i8", [0.5], [127]),
          QType("i8", [0.25], [-3]), QType("i32", [0.125], [0]),
          pad=((1, 1), (0, 1)), lhs_dil=(2, 2))
    # Depthwise (one input channel per group), storage extremes, f32 result.
    iconv("nchw", crng.choice([-128, 127], (1, 7, 7, 3)),
          crng.choice([-128, 127], (3, 3, 1, 3)), QType("i8", [0.5], [-128]),
          QType("i8", [0.25], [127]), None, pad=((1, 1), (1, 1)), groups=3)
    # No lhs zero point but rhs ones: the window sums (a reduce over the
    # input features, a reduce_window) take the convolution's padding,
    # strides and both dilations as they are.
    iconv("nchw", ints((1, 9, 8, 3)), ints((2, 3, 3, 4)), QType("i8", [0.5], [0]),
          QType("i8", [0.25, 0.5, 0.125, 1.0], [5, -7, 0, 2], axis=3),
          QType("i8", [0.6], [1]), stride=(2, 1), pad=((2, 1), (0, 3)),
          lhs_dil=(2, 1), rhs_dil=(1, 2))
    # K = 3 * 3 * 64 = 576, past one 512-wide K slice, both zero points.
    iconv("nchw", ints((1, 8, 8, 64)), ints((3, 3, 64, 16)), QType("i8", [0.125], [4]),
          QType("i8", [0.0625], [-1]), QType("i32", [0.0078125], [0]),
          pad=((1, 1), (1, 1)))
    funcs.append(f.text(comment="convolution on the stored i8 (NCHW and NHWC, "
                        "strides, padding, lhs/rhs dilation, groups,\ndepthwise, "
                        "K past 512, storage extremes, per-axis rhs and result, i32 "
                        "and f32 results)."))

    f = Func("fail_quant_wrong_expectation")
    q = QType("i8", [0.5], [0])
    want = q.quantize([1.25])
    want[0] += 1
    q_expect(f, q_quantize(f, [1.25], q), want, q)
    funcs.append(f.text(comment="1.25 / 0.5 = 2.5 rounds to 2 (half to even), "
                        "not 3: must fail."))
    return funcs


#===----------------------------------------------------------------------===#
# Normalization: batch_norm_* and reduce_precision (compositions)
#===----------------------------------------------------------------------===#

def reduce_precision_ref(v, exponent_bits, mantissa_bits, mantissa, exponent):
    """The spec's reduce_precision of the float |v| (of a type with |mantissa|
    and |exponent| bits) in exact rational arithmetic: round to
    |mantissa_bits| bits after the leading one (ties to even), then
    infinity above the narrow type's range and a signed zero below its
    smallest normal number."""
    from fractions import Fraction
    if math.isnan(v) or math.isinf(v) or v == 0:
        return v
    if mantissa_bits < mantissa:
        _, e = math.frexp(abs(v))  # |v| = m 2^e, m in [1/2, 1)
        scale = Fraction(2) ** (mantissa_bits + 1 - e)
        q = Fraction(abs(v)) * scale
        if mantissa_bits == 0 and q - math.floor(q) == Fraction(1, 2):
            # A tie with no mantissa bits left: the bit pattern's last kept
            # bit is the exponent's lowest, so the power of two with an
            # even biased exponent wins (as the bit-level rounding does).
            bias = 2 ** (exponent - 1) - 1
            n = math.floor(q) if (e - 1 + bias) % 2 == 0 else math.floor(q) + 1
        else:
            n = round(q)
        v = math.copysign(float(n / scale), v)
    if exponent_bits < exponent:
        largest = 2 ** (exponent_bits - 1) - 1
        _, e = math.frexp(abs(v))
        if e - 1 > largest:
            return math.copysign(INF, v)
        if e - 1 < 1 - largest:
            return math.copysign(0.0, v)
    return v


def batch_norm_ref(x, scale, offset, mean, var, eps, f):
    shape = [1] * x.ndim
    shape[f] = x.shape[f]
    r = lambda v: np.reshape(v, shape)
    return (x - r(mean)) * r(scale / np.sqrt(var + eps)) + r(offset)


#===----------------------------------------------------------------------===#
# Linear algebra: triangular_solve, cholesky
#===----------------------------------------------------------------------===#

def gen_linalg():
    funcs = []
    rng = np.random.default_rng(53)
    transposes = ("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT")
    f = Func("test_triangular_solve")
    case = 0
    for left in (True, False):
        for lower in (True, False):
            for unit in (False, True):
                for tr in transposes:
                    elem = ("f32", "f64", "f16")[case % 3] if case % 5 else "f32"
                    batch = [(), (2,), (2, 3)][case % 3]
                    n, k = (3, 2) if case % 2 else (4, 2)
                    case += 1
                    a = rng.uniform(-1, 1, batch + (n, n))
                    a += np.eye(n) * (n + 1.0)  # well conditioned
                    # The unread triangle holds garbage the lowering must ignore.
                    a = array(a, elem)
                    b = array(rng.uniform(-2, 2, batch + ((n, k) if left else (k, n))), elem)
                    ad = np.asarray(a, np.float64)
                    tri = np.tril(ad) if lower else np.triu(ad)
                    if unit:
                        tri = tri - np.eye(n) * np.diagonal(tri, axis1=-2, axis2=-1)[..., None] \
                            + np.eye(n)
                    op = np.swapaxes(tri, -1, -2) if tr != "NO_TRANSPOSE" else tri
                    bd = np.asarray(b, np.float64)
                    if left:
                        x = np.linalg.solve(op, bd)
                    else:
                        x = np.swapaxes(np.linalg.solve(np.swapaxes(op, -1, -2),
                                                        np.swapaxes(bd, -1, -2)), -1, -2)
                    ta, tb = type_of(a, elem), type_of(b, elem)
                    r = f.op('"stablehlo.triangular_solve"(%s, %s) {left_side = %s, lower = %s, '
                             'unit_diagonal = %s, transpose_a = #stablehlo<transpose %s>} : '
                             '(%s, %s) -> %s'
                             % (f.input(a, elem), f.input(b, elem), str(left).lower(),
                                str(lower).lower(), str(unit).lower(), tr, ta, tb, tb))
                    tol = {"f32": 1e-5, "f64": 1e-12, "f16": 1e-2}[elem]
                    f.expect(r, array(x, elem), elem, tol, tol)
    funcs.append(f.text(comment="triangular_solve: every combination of left_side, lower, "
                        "unit_diagonal and transpose_a, batch dims, f32/f64/f16, "
                        "against numpy.linalg.solve on the triangle."))

    for elem in ("complex<f32>", "complex<f64>"):
        suffix = "c64" if elem == "complex<f32>" else "c128"
        f = Func("test_triangular_solve_" + suffix)
        # Each left_side, lower and transpose_a on complex<f32> (unit_diagonal
        # alternating), two on complex<f64>: each solve unrolls into many ops,
        # so the file stays quick to compile (for CUDA too).
        combos = [(True, True, "NO_TRANSPOSE"), (False, False, "TRANSPOSE"),
                  (True, False, "ADJOINT"), (False, True, "ADJOINT"),
                  (True, True, "TRANSPOSE"), (False, False, "NO_TRANSPOSE")]
        if elem == "complex<f64>":
            combos = [(True, True, "ADJOINT"), (False, False, "TRANSPOSE")]
        for case, (left, lower, tr) in enumerate(combos):
            unit = case % 2 == 1
            batch = [(), (2,)][case % 2]
            n, k = (3, 2) if case % 3 else (2, 1)
            shape_a = batch + (n, n)
            a = rng.uniform(-1, 1, shape_a) + 1j * rng.uniform(-1, 1, shape_a)
            a += np.eye(n) * (n + 1.0 + 1.0j)  # well conditioned
            a = a.astype(DTYPES[elem])
            shape_b = batch + ((n, k) if left else (k, n))
            b = (rng.uniform(-2, 2, shape_b) + 1j * rng.uniform(-2, 2, shape_b)
                 ).astype(DTYPES[elem])
            ad = a.astype(np.complex128)
            tri = np.tril(ad) if lower else np.triu(ad)
            if unit:
                tri = tri - np.eye(n) * np.diagonal(tri, axis1=-2, axis2=-1)[..., None] \
                    + np.eye(n)
            op = tri
            if tr != "NO_TRANSPOSE":
                op = np.swapaxes(op, -1, -2)
            if tr == "ADJOINT":
                op = np.conj(op)
            bd = b.astype(np.complex128)
            if left:
                x = np.linalg.solve(op, bd)
            else:
                x = np.swapaxes(np.linalg.solve(np.swapaxes(op, -1, -2),
                                                np.swapaxes(bd, -1, -2)), -1, -2)
            ta, tb = type_of(a, elem), type_of(b, elem)
            r = f.op('"stablehlo.triangular_solve"(%s, %s) {left_side = %s, '
                     'lower = %s, unit_diagonal = %s, transpose_a = '
                     '#stablehlo<transpose %s>} : (%s, %s) -> %s'
                     % (f.input(a, elem), f.input(b, elem), str(left).lower(),
                        str(lower).lower(), str(unit).lower(), tr, ta, tb, tb))
            tol = 1e-5 if elem == "complex<f32>" else 1e-12
            f.expect(r, x.astype(DTYPES[elem]), elem, tol, tol)
        funcs.append(f.text(comment="triangular_solve on %s: left_side, lower, "
                            "unit_diagonal and transpose_a (ADJOINT conjugates), batch "
                            "dims, against numpy.linalg.solve on the triangle." % elem))

    f = Func("test_cholesky")
    for i, (elem, batch, n, lower) in enumerate(
            (("f32", (), 3, True), ("f32", (2,), 5, False), ("f64", (2, 2), 4, True),
             ("f64", (), 6, False), ("f16", (), 3, True), ("f32", (), 1, True))):
        mtx = rng.uniform(-1, 1, batch + (n, n))
        spd = mtx @ np.swapaxes(mtx, -1, -2) + np.eye(n) * n
        # Only one triangle is read: spoil the other.
        noise = rng.uniform(5, 9, batch + (n, n))
        given = np.where(np.tril(np.ones((n, n))) == 1, spd, noise) if lower else \
            np.where(np.triu(np.ones((n, n))) == 1, spd, noise)
        a = array(given, elem)
        want = np.linalg.cholesky(spd)
        if not lower:
            want = np.swapaxes(want, -1, -2)
        t = type_of(a, elem)
        if i in (1, 2):
            # The pretty form (IREE's e2e tests write it), lower spelled.
            r = f.op("stablehlo.cholesky %s, lower = %s : %s"
                     % (f.input(a, elem), "true" if lower else "false", t))
        else:
            attrs = " {lower = true}" if lower else ""
            r = f.op('"stablehlo.cholesky"(%s)%s : (%s) -> %s'
                     % (f.input(a, elem), attrs, t, t))
        tol = {"f32": 1e-5, "f64": 1e-12, "f16": 1e-2}[elem]
        f.expect(r, array(want, elem), elem, tol, tol)
    f.line("// A matrix that is not positive definite gives NaN on the failing "
           "diagonal onwards.")
    r = f.op('"stablehlo.cholesky"(%s) {lower = true} : (tensor<2x2xf32>) -> tensor<2x2xf32>'
             % f.input(array([[1.0, 2.0], [2.0, 1.0]], "f32"), "f32"))
    f.expect(r, array([[1.0, 0.0], [2.0, NAN]], "f32"), "f32")
    funcs.append(f.text(comment="cholesky: lower and upper (the default), batch dims, "
                        "f32/f64/f16, generic and pretty forms, the unread triangle "
                        "spoiled, against numpy.linalg.cholesky."))

    # Its own generator, so the cases after it keep their numbers.
    hh = np.random.default_rng(91)

    def householder_product(reflectors, taus):
        """Q's first n columns, Q = H_0 ... H_{k-1}, H_i = I - tau_i v_i v_i^T."""
        m, n = reflectors.shape[-2:]
        out = np.zeros(reflectors.shape)
        for index in np.ndindex(*reflectors.shape[:-2]):
            q = np.eye(m)
            for i in range(taus.shape[-1]):
                v = np.zeros(m)
                v[i] = 1.0
                v[i + 1:] = reflectors[index][i + 1:, i]
                q = q @ (np.eye(m) - taus[index][i] * np.outer(v, v))
            out[index] = q[:, :n]
        return out

    f = Func("test_householder_product")
    # numpy's QR: its raw (geqrf) output holds the reflectors and taus whose
    # product is the reduced Q.
    spec = np.asarray(hh.uniform(-1, 1, (5, 3)), np.float32).astype(np.float64)
    raw, taus = np.linalg.qr(spec, mode="raw")
    want = np.linalg.qr(spec, mode="reduced")[0]
    assert np.allclose(householder_product(raw.T, taus), want)
    cases = [(raw.T, taus, "f32")]
    for elem, batch, m, n, k in (("f64", (2,), 4, 4, 4), ("f32", (), 6, 4, 2),
                                  ("f16", (), 3, 2, 2)):
        reflectors = hh.uniform(-1, 1, batch + (m, n))
        ts = hh.uniform(0.5, 1.5, batch + (k,))
        cases.append((reflectors, ts, elem))
    for reflectors, ts, elem in cases:
        a, t = array(reflectors, elem), array(ts, elem)
        at, tt = type_of(a, elem), type_of(t, elem)
        r = f.op("stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%s, %s) : "
                 "(%s, %s) -> %s" % (f.input(a, elem), f.input(t, elem), at, tt, at))
        tol = {"f32": 1e-5, "f64": 1e-12, "f16": 1e-2}[elem]
        f.expect(r, array(householder_product(np.asarray(a, np.float64),
                                              np.asarray(t, np.float64)), elem), elem, tol, tol)
    funcs.append(f.text(comment="custom_call @ProductOfElementaryHouseholderReflectors "
                        "(JAX's QR, LAPACK's orgqr): numpy's raw QR back to its Q, "
                        "k < n, batch dims, f32/f64/f16."))

    f = Func("fail_triangular_solve_reads_the_other_triangle")
    a = array([[2.0, 5.0], [1.0, 4.0]], "f32")
    b = array([[2.0], [9.0]], "f32")
    r = f.op('"stablehlo.triangular_solve"(%s, %s) {left_side = true, lower = true, '
             'unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : '
             '(tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>'
             % (f.input(a, "f32"), f.input(b, "f32")))
    f.expect(r, array(np.linalg.solve(np.asarray(a, np.float64), np.asarray(b, np.float64)),
                      "f32"), "f32", 1e-5, 1e-5)
    funcs.append(f.text(comment="The full matrix's solution is not the lower triangle's: "
                        "must fail."))
    return funcs


# The epsilon the tests give, "1.0e-03 : f32", is f32's nearest value.
EPS_F32 = float(np.float32(1e-3))


def gen_normalization():
    funcs = []
    rng = np.random.default_rng(31)
    f = Func("test_batch_norm_inference")
    for elem, shape, feature in (("f32", (2, 3, 4, 5), 1), ("f32", (6, 3), 1),
                                 ("f64", (3, 4), 0), ("f16", (4, 2, 3), 2),
                                 ("bf16", (5, 4), 1)):
        x = array(rng.uniform(-3, 3, shape), elem)
        c = shape[feature]
        scale = array(rng.uniform(0.5, 2, c), elem)
        offset = array(rng.uniform(-1, 1, c), elem)
        mean = array(rng.uniform(-1, 1, c), elem)
        var = array(rng.uniform(0.1, 3, c), elem)
        want = batch_norm_ref(*(np.asarray(a, np.float64) for a in (x, scale, offset, mean,
                                                                   var)), EPS_F32, feature)
        ops = [f.input(a, elem) for a in (x, scale, offset, mean, var)]
        t, tc = type_of(x, elem), tensor_type([c], elem)
        r = f.op('"stablehlo.batch_norm_inference"(%s) {epsilon = 1.0e-03 : f32, '
                 'feature_index = %d : i64} : (%s, %s, %s, %s, %s) -> %s'
                 % (", ".join(ops), feature, t, tc, tc, tc, tc, t))
        tol = {"f32": 1e-5, "f64": 1e-12, "f16": 1e-2, "bf16": 2e-2}[elem]
        f.expect(r, array(want, elem), elem, tol, tol)
    funcs.append(f.text(comment="batch_norm_inference along different feature "
                        "dimensions, in f32, f64, f16 and bf16."))

    f = Func("test_batch_norm_training")
    for elem, shape, feature in (("f32", (4, 3, 2, 2), 1), ("f64", (5, 3), 1),
                                 ("f16", (3, 4), 0)):
        x = array(rng.uniform(-2, 2, shape), elem)
        c = shape[feature]
        scale = array(rng.uniform(0.5, 2, c), elem)
        offset = array(rng.uniform(-1, 1, c), elem)
        xd = np.asarray(x, np.float64)
        axes = tuple(d for d in range(len(shape)) if d != feature)
        mean, var = xd.mean(axis=axes), xd.var(axis=axes)
        want = batch_norm_ref(xd, np.asarray(scale, np.float64),
                              np.asarray(offset, np.float64), mean, var, EPS_F32, feature)
        ops = [f.input(a, elem) for a in (x, scale, offset)]
        t, tc = type_of(x, elem), tensor_type([c], elem)
        r = f.op('"stablehlo.batch_norm_training"(%s) {epsilon = 1.0e-03 : f32, '
                 'feature_index = %d : i64} : (%s, %s, %s) -> (%s, %s, %s)'
                 % (", ".join(ops), feature, t, tc, tc, t, tc, tc), count=3)
        tol = {"f32": 1e-5, "f64": 1e-12, "f16": 1e-2}[elem]
        f.expect(r + "#0", array(want, elem), elem, tol, tol)
        f.expect(r + "#1", array(mean, elem), elem, tol, tol)
        f.expect(r + "#2", array(var, elem), elem, tol, tol)
    funcs.append(f.text(comment="batch_norm_training: the normalized operand, the "
                        "batch mean and the (population) batch variance."))

    f = Func("test_batch_norm_grad")
    for elem, shape, feature in (("f32", (3, 4, 2), 1), ("f64", (4, 3), 0)):
        x = array(rng.uniform(-2, 2, shape), elem)
        c = shape[feature]
        scale = array(rng.uniform(0.5, 2, c), elem)
        mean = array(rng.uniform(-1, 1, c), elem)
        var = array(rng.uniform(0.5, 2, c), elem)
        dy = array(rng.uniform(-1, 1, shape), elem)
        xd, sd, md, vd, dyd = (np.asarray(a, np.float64) for a in (x, scale, mean, var, dy))
        eps = EPS_F32
        axes = tuple(d for d in range(len(shape)) if d != feature)
        bshape = [1] * len(shape)
        bshape[feature] = c
        b = lambda v: np.reshape(v, bshape)
        n = xd.size // c
        centered = xd - b(md)
        stddev = np.sqrt(vd + eps)
        normalized = centered / b(stddev)
        grad_offset = dyd.sum(axis=axes)
        grad_scale = (dyd * normalized).sum(axis=axes)
        i6 = n * dyd - b(grad_offset) - centered * b((dyd * centered).sum(axis=axes)) / b(vd + eps)
        grad_operand = b(sd / stddev / n) * i6
        ops = [f.input(a, elem) for a in (x, scale, mean, var, dy)]
        t, tc = type_of(x, elem), tensor_type([c], elem)
        r = f.op('"stablehlo.batch_norm_grad"(%s) {epsilon = 1.0e-03 : f32, '
                 'feature_index = %d : i64} : (%s, %s, %s, %s, %s) -> (%s, %s, %s)'
                 % (", ".join(ops), feature, t, tc, tc, tc, t, t, tc, tc), count=3)
        tol = 1e-5 if elem == "f32" else 1e-12
        f.expect(r + "#0", array(grad_operand, elem), elem, tol, tol)
        f.expect(r + "#1", array(grad_scale, elem), elem, tol, tol)
        f.expect(r + "#2", array(grad_offset, elem), elem, tol, tol)
    funcs.append(f.text(comment="batch_norm_grad against the spec's formulas in f64."))

    f = Func("test_reduce_precision")
    cases = (
        ("f32", 23, 8, 5, 10,
         [1.0, 1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11, 65504.0, 65520.0, 70000.0, -70000.0,
          2.0 ** -14, 2.0 ** -15, -2.0 ** -15, 0.0, -0.0, INF, -INF, NAN, 3.14159265,
          -2.71828, 1e-3, 3e38]),
        ("f32", 23, 8, 8, 7, [1.0, 1 + 2.0 ** -8, 1 + 3 * 2.0 ** -8, 3.14159265, -1e30,
                              3.4e38, 1e-30, INF, NAN]),
        ("f32", 23, 8, 3, 0, [1.0, 1.5, 2.5, 3.0, 7.0, 8.0, 0.1, -5.0, -6.0, 12.0]),
        ("f64", 52, 11, 8, 23, [1.0, 1 + 2.0 ** -24, 1 + 3 * 2.0 ** -24, math.pi, 1e39,
                                -1e39, 1e-39, 1e-45, 1e300, NAN]),
        ("f16", 10, 5, 5, 2, [1.0, 1.125, 1.375, 57344.0, 61440.0, -3.3, 2.0 ** -14,
                              6e-5, NAN, -INF]),
        ("bf16", 7, 8, 5, 3, [1.0, 1.0625, 1.1875, 3.0e5, -7.0e4, 1e-5, 0.333]),
    )
    for elem, mantissa, exponent, e_bits, m_bits, values in cases:
        a = array(values, elem)
        want = [reduce_precision_ref(float(v), e_bits, m_bits, mantissa, exponent)
                for v in np.asarray(a, dtype=np.float64)]
        x = f.input(a, elem)
        t = type_of(a, elem)
        r = f.op("stablehlo.reduce_precision %s, format = e%dm%d : %s"
                 % (x, e_bits, m_bits, t))
        f.expect(r, array(want, elem), elem, 0.0, 0.0)
    r = f.op('"stablehlo.reduce_precision"(%s) {exponent_bits = 5 : i32, '
             'mantissa_bits = 10 : i32} : (%s) -> %s'
             % (f.input(array([1 + 3 * 2.0 ** -11], "f32"), "f32"), "tensor<1xf32>",
                "tensor<1xf32>"))
    f.expect(r, array([1 + 2.0 ** -9], "f32"), "f32", 0.0, 0.0)
    funcs.append(f.text(comment="reduce_precision: rounding to nearest even in the "
                        "narrow mantissa, overflow to infinity, flush below the narrow "
                        "smallest normal, NaN kept; pretty and generic forms."))

    f = Func("fail_reduce_precision_kept_bits")
    a = array([1 + 2.0 ** -12], "f32")
    r = f.op("stablehlo.reduce_precision %s, format = e8m10 : tensor<1xf32>"
             % f.input(a, "f32"))
    f.expect(r, a, "f32", 0.0, 0.0)
    funcs.append(f.text(comment="1 + 2^-12 keeps no bit below 10 mantissa bits: "
                        "expecting it unchanged must fail."))
    return funcs


# Symbolic shapes: functions with "?" dimensions, each called at several
# sizes (1 included, and sizes no tile divides) from test functions.
def sym_type(shape, elem="f32"):
    """tensor<?x16xf32>: None in |shape| is a symbolic dimension."""
    return "tensor<" + "".join("?x" if d is None else "%dx" % d
                               for d in shape) + elem + ">"


def sym_call(f, callee, args, arg_shapes, result_shapes):
    """func.call of a symbolic function with static operands; returns the
    result values (a list). An argument shape may be (shape, elem)."""
    ins = ", ".join(tensor_type(*s) if isinstance(s[-1], str)
                    else tensor_type(s, "f32") for s in arg_shapes)
    outs = ", ".join(tensor_type(s, "f32") for s in result_shapes)
    if len(result_shapes) > 1:
        outs = "(" + outs + ")"
    v = f.op("func.call @%s(%s) : (%s) -> %s"
             % (callee, ", ".join(args), ins, outs), count=len(result_shapes))
    if len(result_shapes) == 1:
        return [v]
    return ["%s#%d" % (v, i) for i in range(len(result_shapes))]


def softmax_rows(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def gen_symbolic():
    rng = np.random.default_rng(14)
    funcs = []
    T = sym_type
    # The programs, written as jax.export writes them (a bias broadcast
    # through get_dimension_size and dynamic_broadcast_in_dim).
    funcs.append(
        "  func.func private @mlp(%x: " + T([None, 16]) + ", %w1: "
        + T([16, 32]) + ", %b1: " + T([32]) + ", %w2: " + T([32, 4])
        + ") -> " + T([None, 4]) + " {\n"
        "    %n = stablehlo.get_dimension_size %x, dim = 0 : (" + T([None, 16])
        + ") -> tensor<i32>\n"
        "    %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>\n"
        "    %c32 = stablehlo.constant dense<32> : tensor<1xi32>\n"
        "    %shape = stablehlo.concatenate %n1, %c32, dim = 0 : "
        "(tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
        "    %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : ("
        + T([None, 16]) + ", " + T([16, 32]) + ") -> " + T([None, 32]) + "\n"
        "    %bb = stablehlo.dynamic_broadcast_in_dim %b1, %shape, dims = [1] : ("
        + T([32]) + ", tensor<2xi32>) -> " + T([None, 32]) + "\n"
        "    %a = stablehlo.add %h, %bb : " + T([None, 32]) + "\n"
        "    %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "    %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> "
        + T([None, 32]) + "\n"
        "    %r = stablehlo.maximum %a, %zb : " + T([None, 32]) + "\n"
        "    %o = stablehlo.dot_general %r, %w2, contracting_dims = [1] x [0] : ("
        + T([None, 32]) + ", " + T([32, 4]) + ") -> " + T([None, 4]) + "\n"
        "    return %o : " + T([None, 4]) + "\n"
        "  }")
    funcs.append(
        "  func.func private @softmax(%x: " + T([None, None]) + ") -> "
        + T([None, None]) + " {\n"
        "    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
        "    %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "    %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum "
        "across dimensions = [1] : (" + T([None, None]) + ", tensor<f32>) -> "
        + T([None]) + "\n"
        "    %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (" + T([None])
        + ") -> " + T([None, None]) + "\n"
        "    %d = stablehlo.subtract %x, %mb : " + T([None, None]) + "\n"
        "    %e = stablehlo.exponential %d : " + T([None, None]) + "\n"
        "    %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add "
        "across dimensions = [1] : (" + T([None, None]) + ", tensor<f32>) -> "
        + T([None]) + "\n"
        "    %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (" + T([None])
        + ") -> " + T([None, None]) + "\n"
        "    %y = stablehlo.divide %e, %sb : " + T([None, None]) + "\n"
        "    return %y : " + T([None, None]) + "\n"
        "  }")
    # Single-head attention over a symbolic sequence length.
    S = T([None, 8])
    SS = T([None, None])
    funcs.append(
        "  func.func private @attention(%q: " + S + ", %k: " + S + ", %v: " + S
        + ") -> " + S + " {\n"
        "    %s = stablehlo.dot_general %q, %k, contracting_dims = [1] x [1] : ("
        + S + ", " + S + ") -> " + SS + "\n"
        "    %c = stablehlo.constant dense<0.35355339> : tensor<f32>\n"
        "    %cb = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> "
        + SS + "\n"
        "    %ss = stablehlo.multiply %s, %cb : " + SS + "\n"
        "    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
        "    %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "    %m = stablehlo.reduce(%ss init: %ninf) applies stablehlo.maximum "
        "across dimensions = [1] : (" + SS + ", tensor<f32>) -> " + T([None])
        + "\n"
        "    %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (" + T([None])
        + ") -> " + SS + "\n"
        "    %d = stablehlo.subtract %ss, %mb : " + SS + "\n"
        "    %e = stablehlo.exponential %d : " + SS + "\n"
        "    %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add "
        "across dimensions = [1] : (" + SS + ", tensor<f32>) -> " + T([None])
        + "\n"
        "    %sb = stablehlo.broadcast_in_dim %sum, dims = [0] : (" + T([None])
        + ") -> " + SS + "\n"
        "    %p = stablehlo.divide %e, %sb : " + SS + "\n"
        "    %o = stablehlo.dot_general %p, %v, contracting_dims = [1] x [0] : ("
        + SS + ", " + S + ") -> " + S + "\n"
        "    return %o : " + S + "\n"
        "  }")
    # A conv net with a symbolic batch: NHWC 3x3 convolution, relu, global
    # average pooling, dense.
    X = T([None, 6, 6, 3])
    C = T([None, 6, 6, 8])
    funcs.append(
        "  func.func private @convnet(%x: " + X + ", %w: " + T([3, 3, 3, 8])
        + ", %d: " + T([8, 5]) + ") -> " + T([None, 5]) + " {\n"
        "    %c = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x"
        "[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], "
        "[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : ("
        + X + ", " + T([3, 3, 3, 8]) + ") -> " + C + "\n"
        "    %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "    %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> "
        + C + "\n"
        "    %r = stablehlo.maximum %c, %zb : " + C + "\n"
        "    %s = stablehlo.reduce(%r init: %z) applies stablehlo.add across "
        "dimensions = [1, 2] : (" + C + ", tensor<f32>) -> " + T([None, 8]) + "\n"
        "    %k = stablehlo.constant dense<0.027777778> : tensor<f32>\n"
        "    %kb = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<f32>) -> "
        + T([None, 8]) + "\n"
        "    %m = stablehlo.multiply %s, %kb : " + T([None, 8]) + "\n"
        "    %o = stablehlo.dot_general %m, %d, contracting_dims = [1] x [0] : ("
        + T([None, 8]) + ", " + T([8, 5]) + ") -> " + T([None, 5]) + "\n"
        "    return %o : " + T([None, 5]) + "\n"
        "  }")
    # Data movement with symbolic extents: concatenate along a static axis,
    # transpose, reverse of the symbolic dim, reshapes that keep it, and a
    # static slice of it (the call needs n >= 1).
    funcs.append(
        "  func.func private @movement(%a: " + T([None, 3]) + ", %b: "
        + T([None, 2]) + ") -> (" + T([None, 5]) + ", " + T([5, None]) + ", "
        + T([None, 3]) + ", tensor<1x3xf32>) {\n"
        "    %c = stablehlo.concatenate %a, %b, dim = 1 : (" + T([None, 3]) + ", "
        + T([None, 2]) + ") -> " + T([None, 5]) + "\n"
        "    %t = stablehlo.transpose %c, dims = [1, 0] : (" + T([None, 5])
        + ") -> " + T([5, None]) + "\n"
        "    %r = stablehlo.reverse %a, dims = [0] : " + T([None, 3]) + "\n"
        "    %x = stablehlo.reshape %r : (" + T([None, 3]) + ") -> "
        + T([None, 1, 3]) + "\n"
        "    %y = stablehlo.reshape %x : (" + T([None, 1, 3]) + ") -> "
        + T([None, 3]) + "\n"
        "    %s = stablehlo.slice %c [0:1, 1:4] : (" + T([None, 5])
        + ") -> tensor<1x3xf32>\n"
        "    return %c, %t, %y, %s : " + T([None, 5]) + ", " + T([5, None]) + ", "
        + T([None, 3]) + ", tensor<1x3xf32>\n"
        "  }")
    # Extents the host program derives: a concatenation along the symbolic
    # dimension (the sum of two batches) and a padding of it.
    funcs.append(
        "  func.func private @stack(%a: " + T([None, 3]) + ", %b: " + T([None, 3])
        + ") -> (" + T([None, 3]) + ", tensor<3xf32>) {\n"
        "    %c = stablehlo.concatenate %a, %b, dim = 0 : (" + T([None, 3]) + ", "
        + T([None, 3]) + ") -> " + T([None, 3]) + "\n"
        "    %z = stablehlo.constant dense<-1.0> : tensor<f32>\n"
        "    %p = stablehlo.pad %c, %z, low = [1, 0], high = [2, 0], interior = [1, 0] : ("
        + T([None, 3]) + ", tensor<f32>) -> " + T([None, 3]) + "\n"
        "    %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "    %s = stablehlo.reduce(%p init: %zero) applies stablehlo.add across "
        "dimensions = [0] : (" + T([None, 3]) + ", tensor<f32>) -> tensor<3xf32>\n"
        "    return %p, %s : " + T([None, 3]) + ", tensor<3xf32>\n"
        "  }")
    # An embedding lookup of a symbolic number of ids.
    funcs.append(
        "  func.func private @embed(%table: tensor<10x4xf32>, %ids: "
        + T([None], "i32") + ") -> " + T([None, 4]) + " {\n"
        '    %g = "stablehlo.gather"(%table, %ids) {dimension_numbers = '
        "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], "
        "start_index_map = [0], index_vector_dim = 1>, slice_sizes = "
        "array<i64: 1, 4>, indices_are_sorted = false} : (tensor<10x4xf32>, "
        + T([None], "i32") + ") -> " + T([None, 4]) + "\n"
        "    return %g : " + T([None, 4]) + "\n"
        "  }")
    # Extents computed from get_dimension_size arithmetic at the call: a
    # dynamic_iota of 2n + 1, real_dynamic_slices to n - 1 rows and to
    # every second row, a dynamic_broadcast_in_dim to 2n rows (related to a
    # concatenation's derived 2n).
    dsize = ("    %n = stablehlo.get_dimension_size %x, dim = 0 : ("
             + T([None, 3]) + ") -> tensor<i32>\n")
    funcs.append(
        "  func.func private @iota_odd(%x: " + T([None, 3]) + ") -> "
        + T([None]) + " {\n" + dsize +
        "    %c2 = stablehlo.constant dense<2> : tensor<i32>\n"
        "    %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
        "    %m = stablehlo.multiply %n, %c2 : tensor<i32>\n"
        "    %m1 = stablehlo.add %m, %c1 : tensor<i32>\n"
        "    %s = stablehlo.reshape %m1 : (tensor<i32>) -> tensor<1xi32>\n"
        "    %i = stablehlo.dynamic_iota %s, dim = 0 : (tensor<1xi32>) -> "
        + T([None], "i32") + "\n"
        "    %f = stablehlo.convert %i : (" + T([None], "i32") + ") -> "
        + T([None]) + "\n"
        "    return %f : " + T([None]) + "\n"
        "  }")
    funcs.append(
        "  func.func private @drop_last(%x: " + T([None, 3]) + ") -> ("
        + T([None, 3]) + ", " + T([None, 3]) + ") {\n" + dsize +
        "    %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
        "    %m = stablehlo.subtract %n, %c1 : tensor<i32>\n"
        "    %m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>\n"
        "    %c3 = stablehlo.constant dense<3> : tensor<1xi32>\n"
        "    %lim = stablehlo.concatenate %m1, %c3, dim = 0 : (tensor<1xi32>, "
        "tensor<1xi32>) -> tensor<2xi32>\n"
        "    %st = stablehlo.constant dense<0> : tensor<2xi32>\n"
        "    %one = stablehlo.constant dense<1> : tensor<2xi32>\n"
        "    %y = stablehlo.real_dynamic_slice %x, %st, %lim, %one : ("
        + T([None, 3]) + ", tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> "
        + T([None, 3]) + "\n"
        "    %n64 = stablehlo.convert %n : (tensor<i32>) -> tensor<i64>\n"
        "    %n1 = stablehlo.reshape %n64 : (tensor<i64>) -> tensor<1xi64>\n"
        "    %c3l = stablehlo.constant dense<3> : tensor<1xi64>\n"
        "    %lim2 = stablehlo.concatenate %n1, %c3l, dim = 0 : (tensor<1xi64>, "
        "tensor<1xi64>) -> tensor<2xi64>\n"
        "    %st2 = stablehlo.constant dense<[1, 0]> : tensor<2xi64>\n"
        "    %by2 = stablehlo.constant dense<[2, 1]> : tensor<2xi64>\n"
        "    %z = stablehlo.real_dynamic_slice %x, %st2, %lim2, %by2 : ("
        + T([None, 3]) + ", tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> "
        + T([None, 3]) + "\n"
        "    return %y, %z : " + T([None, 3]) + ", " + T([None, 3]) + "\n"
        "  }")
    funcs.append(
        "  func.func private @tile_rows(%x: " + T([None, 3]) + ", %b: "
        + T([3]) + ") -> " + T([None, 3]) + " {\n" + dsize +
        "    %c2 = stablehlo.constant dense<2> : tensor<i32>\n"
        "    %m = stablehlo.multiply %c2, %n : tensor<i32>\n"
        "    %m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>\n"
        "    %c3 = stablehlo.constant dense<3> : tensor<1xi32>\n"
        "    %shape = stablehlo.concatenate %m1, %c3, dim = 0 : (tensor<1xi32>, "
        "tensor<1xi32>) -> tensor<2xi32>\n"
        "    %y = stablehlo.dynamic_broadcast_in_dim %b, %shape, dims = [1] : ("
        + T([3]) + ", tensor<2xi32>) -> " + T([None, 3]) + "\n"
        "    %c = stablehlo.concatenate %x, %x, dim = 0 : (" + T([None, 3]) + ", "
        + T([None, 3]) + ") -> " + T([None, 3]) + "\n"
        "    %w = stablehlo.add %y, %c : " + T([None, 3]) + "\n"
        "    return %w : " + T([None, 3]) + "\n"
        "  }")
    # dynamic_gather and dynamic_conv with constant slice sizes and
    # padding: their static forms, over a symbolic count and batch.
    funcs.append(
        "  func.func private @embed_dyn(%table: tensor<10x4xf32>, %ids: "
        + T([None], "i32") + ") -> " + T([None, 4]) + " {\n"
        "    %ss = stablehlo.constant dense<[1, 4]> : tensor<2xi64>\n"
        '    %g = "stablehlo.dynamic_gather"(%table, %ids, %ss) {dimension_numbers = '
        "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], "
        "start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false} : "
        "(tensor<10x4xf32>, " + T([None], "i32") + ", tensor<2xi64>) -> "
        + T([None, 4]) + "\n"
        "    return %g : " + T([None, 4]) + "\n"
        "  }")
    funcs.append(
        "  func.func private @conv_dyn(%x: " + T([None, 5, 5, 2]) + ", %w: "
        + T([3, 3, 2, 4]) + ") -> " + T([None, 5, 5, 4]) + " {\n"
        "    %p = stablehlo.constant dense<[[1, 1], [0, 2]]> : tensor<2x2xi64>\n"
        '    %y = "stablehlo.dynamic_conv"(%x, %w, %p) {dimension_numbers = '
        "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, window_strides = "
        "array<i64: 1, 1>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : ("
        + T([None, 5, 5, 2]) + ", " + T([3, 3, 2, 4]) + ", tensor<2x2xi64>) -> "
        + T([None, 5, 5, 4]) + "\n"
        "    return %y : " + T([None, 5, 5, 4]) + "\n"
        "  }")
    # A dynamic_slice of 2 rows from a symbolic number of rows (the start
    # clamped to [0, n - 2]).
    funcs.append(
        "  func.func private @window(%x: " + T([None, 3]) + ", %i: tensor<i32>) -> "
        "tensor<2x3xf32> {\n"
        "    %z = stablehlo.constant dense<0> : tensor<i32>\n"
        "    %y = stablehlo.dynamic_slice %x, %i, %z, sizes = [2, 3] : (" + T([None, 3])
        + ", tensor<i32>, tensor<i32>) -> tensor<2x3xf32>\n"
        "    return %y : tensor<2x3xf32>\n"
        "  }")
    # set_dimension_size to half the rows: a real_dynamic_slice [0:n/2].
    funcs.append(
        "  func.func private @halve(%x: " + T([None, 3]) + ") -> " + T([None, 3])
        + " {\n" + dsize +
        "    %two = stablehlo.constant dense<2> : tensor<i32>\n"
        "    %h = stablehlo.divide %n, %two : tensor<i32>\n"
        "    %y = stablehlo.set_dimension_size %x, %h, dim = 0 : (" + T([None, 3])
        + ", tensor<i32>) -> " + T([None, 3]) + "\n"
        "    return %y : " + T([None, 3]) + "\n"
        "  }")
    # dynamic_reshapes that merge and split a symbolic dimension (jax's
    # x.reshape(-1), x.reshape(-1, 4)): the extents computed at the call,
    # the element counts checked equal there.
    X3 = T([None, 2, 3])
    dsize3 = ("    %n = stablehlo.get_dimension_size %x, dim = 0 : (" + X3
              + ") -> tensor<i32>\n")
    funcs.append(
        "  func.func private @flatten(%x: " + X3 + ") -> (" + T([None]) + ", "
        + T([None, 3]) + ") {\n" + dsize3 +
        "    %c6 = stablehlo.constant dense<6> : tensor<i32>\n"
        "    %m = stablehlo.multiply %n, %c6 : tensor<i32>\n"
        "    %m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>\n"
        "    %f = stablehlo.dynamic_reshape %x, %m1 : (" + X3
        + ", tensor<1xi32>) -> " + T([None]) + "\n"
        "    %c2 = stablehlo.constant dense<2> : tensor<i32>\n"
        "    %r = stablehlo.multiply %n, %c2 : tensor<i32>\n"
        "    %r1 = stablehlo.reshape %r : (tensor<i32>) -> tensor<1xi32>\n"
        "    %c3 = stablehlo.constant dense<3> : tensor<1xi32>\n"
        "    %shape = stablehlo.concatenate %r1, %c3, dim = 0 : (tensor<1xi32>, "
        "tensor<1xi32>) -> tensor<2xi32>\n"
        "    %e = stablehlo.exponential %x : " + X3 + "\n"
        "    %g = stablehlo.dynamic_reshape %e, %shape : (" + X3
        + ", tensor<2xi32>) -> " + T([None, 3]) + "\n"
        "    return %f, %g : " + T([None]) + ", " + T([None, 3]) + "\n"
        "  }")
    funcs.append(
        "  func.func private @unflatten(%x: " + T([None]) + ") -> ("
        + T([None, 4]) + ", tensor<4xf32>) {\n"
        "    %n = stablehlo.get_dimension_size %x, dim = 0 : (" + T([None])
        + ") -> tensor<i32>\n"
        "    %c4 = stablehlo.constant dense<4> : tensor<i32>\n"
        "    %q = stablehlo.divide %n, %c4 : tensor<i32>\n"
        "    %q1 = stablehlo.reshape %q : (tensor<i32>) -> tensor<1xi32>\n"
        "    %c41 = stablehlo.constant dense<4> : tensor<1xi32>\n"
        "    %shape = stablehlo.concatenate %q1, %c41, dim = 0 : (tensor<1xi32>, "
        "tensor<1xi32>) -> tensor<2xi32>\n"
        "    %y = stablehlo.dynamic_reshape %x, %shape : (" + T([None])
        + ", tensor<2xi32>) -> " + T([None, 4]) + "\n"
        "    %two = stablehlo.constant dense<2.0> : tensor<f32>\n"
        "    %tb = stablehlo.broadcast_in_dim %two, dims = [] : (tensor<f32>) -> "
        + T([None, 4]) + "\n"
        "    %d = stablehlo.multiply %y, %tb : " + T([None, 4]) + "\n"
        "    %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "    %s = stablehlo.reduce(%y init: %z) applies stablehlo.add across "
        "dimensions = [0] : (" + T([None, 4]) + ", tensor<f32>) -> tensor<4xf32>\n"
        "    return %d, %s : " + T([None, 4]) + ", tensor<4xf32>\n"
        "  }")
    funcs.append(
        "  func.func private @flatten_both(%x: " + T([None, None]) + ") -> "
        + T([None]) + " {\n"
        "    %a = stablehlo.get_dimension_size %x, dim = 0 : (" + T([None, None])
        + ") -> tensor<i32>\n"
        "    %b = stablehlo.get_dimension_size %x, dim = 1 : (" + T([None, None])
        + ") -> tensor<i32>\n"
        "    %m = stablehlo.multiply %a, %b : tensor<i32>\n"
        "    %m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>\n"
        "    %t = stablehlo.transpose %x, dims = [1, 0] : (" + T([None, None])
        + ") -> " + T([None, None]) + "\n"
        "    %y = stablehlo.dynamic_reshape %t, %m1 : (" + T([None, None])
        + ", tensor<1xi32>) -> " + T([None]) + "\n"
        "    return %y : " + T([None]) + "\n"
        "  }")
    # dynamic_pads whose edge_padding_high is computed at the call: rows
    # padded (after a low row and interior rows) to a multiple of 8, and
    # a negative high that crops the last |k| rows.
    funcs.append(
        "  func.func private @pad_rows(%x: " + T([None, 3]) + ") -> ("
        + T([None, 3]) + ", " + T([None, 3]) + ") {\n" + dsize +
        "    %c7 = stablehlo.constant dense<7> : tensor<i32>\n"
        "    %c8 = stablehlo.constant dense<8> : tensor<i32>\n"
        "    %a = stablehlo.add %n, %c7 : tensor<i32>\n"
        "    %q = stablehlo.divide %a, %c8 : tensor<i32>\n"
        "    %r = stablehlo.multiply %q, %c8 : tensor<i32>\n"
        "    %h = stablehlo.subtract %r, %n : tensor<i32>\n"
        "    %h1 = stablehlo.reshape %h : (tensor<i32>) -> tensor<1xi32>\n"
        "    %z1 = stablehlo.constant dense<0> : tensor<1xi32>\n"
        "    %high = stablehlo.concatenate %h1, %z1, dim = 0 : (tensor<1xi32>, "
        "tensor<1xi32>) -> tensor<2xi32>\n"
        "    %low = stablehlo.constant dense<[1, 0]> : tensor<2xi32>\n"
        "    %int = stablehlo.constant dense<[1, 0]> : tensor<2xi32>\n"
        "    %pv = stablehlo.constant dense<-1.0> : tensor<f32>\n"
        "    %y = stablehlo.dynamic_pad %x, %pv, %low, %high, %int : (" + T([None, 3])
        + ", tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> "
        + T([None, 3]) + "\n"
        "    %two = stablehlo.constant dense<2> : tensor<i32>\n"
        "    %half = stablehlo.divide %n, %two : tensor<i32>\n"
        "    %zero = stablehlo.constant dense<0> : tensor<i32>\n"
        "    %neg = stablehlo.subtract %zero, %half : tensor<i32>\n"
        "    %n1 = stablehlo.reshape %neg : (tensor<i32>) -> tensor<1xi32>\n"
        "    %chigh = stablehlo.concatenate %n1, %z1, dim = 0 : (tensor<1xi32>, "
        "tensor<1xi32>) -> tensor<2xi32>\n"
        "    %zeros = stablehlo.constant dense<0> : tensor<2xi32>\n"
        "    %c = stablehlo.dynamic_pad %x, %pv, %zeros, %chigh, %zeros : (" + T([None, 3])
        + ", tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> "
        + T([None, 3]) + "\n"
        "    return %y, %c : " + T([None, 3]) + ", " + T([None, 3]) + "\n"
        "  }")
    funcs.append(
        "  func.func private @crop_all(%x: " + T([None, 3]) + ") -> "
        + T([None, 3]) + " {\n" + dsize +
        "    %zero = stablehlo.constant dense<0> : tensor<i32>\n"
        "    %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
        "    %m = stablehlo.add %n, %c1 : tensor<i32>\n"
        "    %neg = stablehlo.subtract %zero, %m : tensor<i32>\n"
        "    %n1 = stablehlo.reshape %neg : (tensor<i32>) -> tensor<1xi32>\n"
        "    %z1 = stablehlo.constant dense<0> : tensor<1xi32>\n"
        "    %high = stablehlo.concatenate %n1, %z1, dim = 0 : (tensor<1xi32>, "
        "tensor<1xi32>) -> tensor<2xi32>\n"
        "    %zeros = stablehlo.constant dense<0> : tensor<2xi32>\n"
        "    %pv = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "    %c = stablehlo.dynamic_pad %x, %pv, %zeros, %high, %zeros : (" + T([None, 3])
        + ", tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> "
        + T([None, 3]) + "\n"
        "    return %c : " + T([None, 3]) + "\n"
        "  }")
    # A while loop carrying tensors with symbolic (loop-invariant) extents:
    # k steps of v <- m v and m <- m + m^T (m square), the trip count an
    # argument, with a row softmax of the carried matrix after the loop.
    N = T([None])
    NN = T([None, None])
    funcs.append(
        "  func.func private @power(%x: " + NN + ", %v: " + N + ", %k: tensor<i32>) -> ("
        + N + ", " + NN + ") {\n"
        "    %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
        "    %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
        "    %r:3 = stablehlo.while(%i = %c0, %acc = %v, %m = %x) : tensor<i32>, "
        + N + ", " + NN + "\n"
        "     cond {\n"
        "      %p = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
        "      stablehlo.return %p : tensor<i1>\n"
        "    } do {\n"
        "      %i1 = stablehlo.add %i, %c1 : tensor<i32>\n"
        "      %a = stablehlo.dot_general %m, %acc, contracting_dims = [1] x [0] : ("
        + NN + ", " + N + ") -> " + N + "\n"
        "      %t = stablehlo.transpose %m, dims = [1, 0] : (" + NN + ") -> " + NN + "\n"
        "      %m2 = stablehlo.add %m, %t : " + NN + "\n"
        "      stablehlo.return %i1, %a, %m2 : tensor<i32>, " + N + ", " + NN + "\n"
        "    }\n"
        "    %y = func.call @softmax(%r#2) : (" + NN + ") -> " + NN + "\n"
        "    return %r#1, %y : " + N + ", " + NN + "\n"
        "  }")
    w1 = rng.uniform(-1, 1, (16, 32)).astype(np.float32)
    b1 = rng.uniform(-1, 1, (32,)).astype(np.float32)
    w2 = rng.uniform(-1, 1, (32, 4)).astype(np.float32)
    for n in (1, 3, 8, 67):
        f = Func("test_mlp_batch_%d" % n)
        x = rng.uniform(-1, 1, (n, 16)).astype(np.float32)
        args = [f.input(a, "f32") for a in (x, w1, b1, w2)]
        (y,) = sym_call(f, "mlp", args, [(n, 16), (16, 32), (32,), (32, 4)],
                        [(n, 4)])
        h = np.maximum(f64(x) @ f64(w1) + f64(b1), 0)
        f.expect(y, (h @ f64(w2)).astype(np.float32), "f32", atol=1e-4,
                 rtol=1e-4)
        funcs.append(f.text(comment="an MLP with a symbolic batch at batch %d."
                            % n))
    for rows, cols in ((1, 1), (3, 7), (5, 130)):
        f = Func("test_softmax_%dx%d" % (rows, cols))
        x = rng.uniform(-4, 4, (rows, cols)).astype(np.float32)
        (y,) = sym_call(f, "softmax", [f.input(x, "f32")], [(rows, cols)],
                        [(rows, cols)])
        f.expect(y, softmax_rows(f64(x)).astype(np.float32), "f32", atol=1e-5,
                 rtol=1e-4)
        funcs.append(f.text(comment="a row softmax, both dims symbolic, at "
                            "%dx%d." % (rows, cols)))
    for seq in (1, 5, 33):
        f = Func("test_attention_seq_%d" % seq)
        q, k, v = (rng.uniform(-1, 1, (seq, 8)).astype(np.float32)
                   for _ in range(3))
        args = [f.input(a, "f32") for a in (q, k, v)]
        (y,) = sym_call(f, "attention", args, [(seq, 8)] * 3, [(seq, 8)])
        p = softmax_rows(f64(q) @ f64(k).T * np.float32(0.35355339))
        f.expect(y, (p @ f64(v)).astype(np.float32), "f32", atol=1e-4,
                 rtol=1e-4)
        funcs.append(f.text(comment="attention with a symbolic sequence "
                            "length of %d." % seq))
    wc = rng.uniform(-1, 1, (3, 3, 3, 8)).astype(np.float32)
    wd = rng.uniform(-1, 1, (8, 5)).astype(np.float32)
    for n in (1, 2, 5):
        f = Func("test_convnet_batch_%d" % n)
        x = rng.uniform(-1, 1, (n, 6, 6, 3)).astype(np.float32)
        args = [f.input(a, "f32") for a in (x, wc, wd)]
        (y,) = sym_call(f, "convnet", args, [(n, 6, 6, 3), (3, 3, 3, 8), (8, 5)],
                        [(n, 5)])
        c = conv_ref(f64(x), f64(wc), [1, 1], [[1, 1], [1, 1]], [1, 1], [1, 1], 1)
        m = np.maximum(c, 0).sum(axis=(1, 2)) * np.float32(0.027777778)
        f.expect(y, (m @ f64(wd)).astype(np.float32), "f32", atol=1e-4,
                 rtol=1e-4)
        funcs.append(f.text(comment="a conv net with a symbolic batch at "
                            "batch %d." % n))
    for n, m in ((1, 2), (4, 3)):
        f = Func("test_stack_%d_%d" % (n, m))
        a = rng.uniform(-1, 1, (n, 3)).astype(np.float32)
        b = rng.uniform(-1, 1, (m, 3)).astype(np.float32)
        rows = 2 * (n + m) + 2
        p, total = sym_call(f, "stack", [f.input(a, "f32"), f.input(b, "f32")],
                            [(n, 3), (m, 3)], [(rows, 3), (3,)])
        padded = np.full((rows, 3), -1.0, np.float32)
        padded[1:2 * (n + m):2] = np.concatenate([a, b])
        f.expect(p, padded, "f32")
        f.expect(total, f64(padded).sum(axis=0).astype(np.float32), "f32",
                 atol=1e-5)
        funcs.append(f.text(comment="a concatenation of %d and %d rows along the "
                            "symbolic dimension, padded with interior rows: "
                            "extents the host program derives." % (n, m)))
    table = rng.uniform(-1, 1, (10, 4)).astype(np.float32)
    for n in (1, 6):
        f = Func("test_embed_%d" % n)
        ids = rng.integers(0, 10, (n,)).astype(np.int32)
        args = [f.input(table, "f32"), f.input(ids, "i32")]
        (y,) = sym_call(f, "embed", args, [(10, 4), ((n,), "i32")], [(n, 4)])
        f.expect(y, table[ids], "f32")
        funcs.append(f.text(comment="a gather of %d rows (a symbolic count of "
                            "ids)." % n))
    for n in (2, 7):
        f = Func("test_movement_%d" % n)
        a = rng.uniform(-1, 1, (n, 3)).astype(np.float32)
        b = rng.uniform(-1, 1, (n, 2)).astype(np.float32)
        args = [f.input(a, "f32"), f.input(b, "f32")]
        c, t, y, sl = sym_call(f, "movement", args, [(n, 3), (n, 2)],
                               [(n, 5), (5, n), (n, 3), (1, 3)])
        cat = np.concatenate([a, b], axis=1)
        f.expect(c, cat, "f32")
        f.expect(t, cat.T.copy(), "f32")
        f.expect(y, a[::-1].copy(), "f32")
        f.expect(sl, cat[0:1, 1:4].copy(), "f32")
        funcs.append(f.text(comment="concatenate, transpose, reverse and "
                            "reshape with a symbolic extent of %d." % n))
    for n in (1, 5, 37):
        f = Func("test_iota_odd_%d" % n)
        x = rng.uniform(-1, 1, (n, 3)).astype(np.float32)
        (y,) = sym_call(f, "iota_odd", [f.input(x, "f32")], [(n, 3)],
                        [(2 * n + 1,)])
        f.expect(y, np.arange(2 * n + 1, dtype=np.float32), "f32")
        funcs.append(f.text(comment="a dynamic_iota of 2n + 1 computed at the "
                            "call, n = %d." % n))
    for n in (1, 2, 7, 33):
        f = Func("test_drop_last_%d" % n)
        x = rng.uniform(-1, 1, (n, 3)).astype(np.float32)
        y, z = sym_call(f, "drop_last", [f.input(x, "f32")], [(n, 3)],
                        [(n - 1, 3), (n // 2, 3)])
        f.expect(y, x[:n - 1].copy(), "f32")
        f.expect(z, x[1:n:2].copy(), "f32")
        funcs.append(f.text(comment="real_dynamic_slices to rows [0:n-1] and "
                            "[1:n:2] computed at the call, n = %d." % n))
    f = Func("fail_drop_last_0")
    x = np.zeros((0, 3), np.float32)
    y, z = sym_call(f, "drop_last", [f.input(x, "f32")], [(0, 3)],
                    [(0, 3), (0, 3)])
    f.expect(y, x, "f32")
    funcs.append(f.text(comment="[0:n-1] of no rows: a negative extent, which "
                        "the call must refuse."))
    bias = rng.uniform(-1, 1, (3,)).astype(np.float32)
    for n in (1, 3, 10):
        f = Func("test_tile_rows_%d" % n)
        x = rng.uniform(-1, 1, (n, 3)).astype(np.float32)
        (y,) = sym_call(f, "tile_rows", [f.input(x, "f32"), f.input(bias, "f32")],
                        [(n, 3), (3,)], [(2 * n, 3)])
        f.expect(y, np.concatenate([x, x]) + bias, "f32")
        funcs.append(f.text(comment="a dynamic_broadcast_in_dim to 2n rows "
                            "computed at the call, added to a concatenation "
                            "of 2n rows, n = %d." % n))
    for n in (1, 3, 10):
        f = Func("test_flatten_%d" % n)
        x = rng.uniform(-1, 1, (n, 2, 3)).astype(np.float32)
        flat, rows = sym_call(f, "flatten", [f.input(x, "f32")], [(n, 2, 3)],
                              [(6 * n,), (2 * n, 3)])
        f.expect(flat, x.reshape(-1), "f32")
        f.expect(rows, np.exp(f64(x)).astype(np.float32).reshape(-1, 3), "f32",
                 atol=1e-6, rtol=1e-6)
        funcs.append(f.text(comment="dynamic_reshapes of %dx2x3 merging the "
                            "symbolic dimension: to 6n and (exp) to 2n x 3."
                            % n))
    for n in (4, 12, 40):
        f = Func("test_unflatten_%d" % n)
        x = rng.uniform(-1, 1, (n,)).astype(np.float32)
        y, total = sym_call(f, "unflatten", [f.input(x, "f32")], [(n,)],
                            [(n // 4, 4), (4,)])
        f.expect(y, 2 * x.reshape(-1, 4), "f32")
        f.expect(total, f64(x).reshape(-1, 4).sum(axis=0).astype(np.float32),
                 "f32", atol=1e-5)
        funcs.append(f.text(comment="a dynamic_reshape of %d elements splitting "
                            "the symbolic dimension into n / 4 x 4, doubled "
                            "and summed over the rows." % n))
    f = Func("fail_unflatten_6")
    x = np.arange(6, dtype=np.float32)
    y, total = sym_call(f, "unflatten", [f.input(x, "f32")], [(6,)],
                        [(1, 4), (4,)])
    f.expect(total, x[:4].copy(), "f32")
    funcs.append(f.text(comment="6 elements into rows of 4: the element counts "
                        "differ, which the call must refuse."))
    for a, b in ((1, 1), (2, 3), (5, 7)):
        f = Func("test_flatten_both_%dx%d" % (a, b))
        x = rng.uniform(-1, 1, (a, b)).astype(np.float32)
        (y,) = sym_call(f, "flatten_both", [f.input(x, "f32")], [(a, b)],
                        [(a * b,)])
        f.expect(y, x.T.reshape(-1).copy(), "f32")
        funcs.append(f.text(comment="a transpose of %dx%d flattened: a "
                            "dynamic_reshape merging two symbolic dimensions."
                            % (a, b)))
    for n in (1, 3, 8, 9):
        f = Func("test_pad_rows_%d" % n)
        x = rng.uniform(-1, 1, (n, 3)).astype(np.float32)
        rows = 1 + (2 * n - 1) + ((n + 7) // 8 * 8 - n)
        y, c = sym_call(f, "pad_rows", [f.input(x, "f32")], [(n, 3)],
                        [(rows, 3), (n - n // 2, 3)])
        padded = np.full((rows, 3), -1.0, np.float32)
        padded[1:2 * n:2] = x
        f.expect(y, padded, "f32")
        f.expect(c, x[:n - n // 2].copy(), "f32")
        funcs.append(f.text(comment="dynamic_pads of %d rows with computed "
                            "edge_padding_high: to a multiple of 8 (after a low "
                            "and interior rows), and cropping n / 2 rows." % n))
    f = Func("fail_crop_all_2")
    x = np.zeros((2, 3), np.float32)
    (c,) = sym_call(f, "crop_all", [f.input(x, "f32")], [(2, 3)], [(0, 3)])
    f.expect(c, np.zeros((0, 3), np.float32), "f32")
    funcs.append(f.text(comment="a computed edge_padding_high of -(n + 1): a "
                        "negative size, which the call must refuse."))
    for n, k in ((1, 0), (3, 2), (6, 3)):
        f = Func("test_power_%d_%d" % (n, k))
        x = rng.uniform(-0.5, 0.5, (n, n)).astype(np.float32)
        v = rng.uniform(-1, 1, (n,)).astype(np.float32)
        args = [f.input(x, "f32"), f.input(v, "f32"),
                f.input(np.array(k, np.int32), "i32")]
        acc, y = sym_call(f, "power", args, [(n, n), (n,), ((), "i32")],
                          [(n,), (n, n)])
        m, a = f64(x), f64(v)
        for _ in range(k):
            a = m @ a
            m = m + m.T
        f.expect(acc, a.astype(np.float32), "f32", atol=1e-5, rtol=1e-5)
        f.expect(y, softmax_rows(m).astype(np.float32), "f32", atol=1e-5, rtol=1e-4)
        funcs.append(f.text(comment="a while loop carrying a %d-vector and a %dx%d "
                            "matrix of symbolic extents for %d steps." % (n, n, n, k)))
    for n in (1, 5, 8):
        f = Func("test_halve_%d" % n)
        x = rng.uniform(-1, 1, (n, 3)).astype(np.float32)
        (y,) = sym_call(f, "halve", [f.input(x, "f32")], [(n, 3)], [(n // 2, 3)])
        f.expect(y, x[:n // 2].copy(), "f32")
        funcs.append(f.text(comment="set_dimension_size to n / 2 rows, n = %d."
                            % n))
    for n, i in ((2, 0), (5, 2), (9, 8), (9, -3)):
        f = Func("test_window_%d_%s" % (n, str(i).replace("-", "m")))
        x = rng.uniform(-1, 1, (n, 3)).astype(np.float32)
        args = [f.input(x, "f32"), f.input(np.array(i, np.int32), "i32")]
        (y,) = sym_call(f, "window", args, [(n, 3), ((), "i32")], [(2, 3)])
        start = min(max(i, 0), n - 2)
        f.expect(y, x[start:start + 2].copy(), "f32")
        funcs.append(f.text(comment="a dynamic_slice of 2 of %d rows from row %d "
                            "(clamped)." % (n, i)))
    f = Func("fail_window_1")
    x = np.zeros((1, 3), np.float32)
    args = [f.input(x, "f32"), f.input(np.array(0, np.int32), "i32")]
    (y,) = sym_call(f, "window", args, [(1, 3), ((), "i32")], [(2, 3)])
    f.expect(y, np.zeros((2, 3), np.float32), "f32")
    funcs.append(f.text(comment="2 rows of 1: the call must refuse the operand."))
    dtable = rng.uniform(-1, 1, (10, 4)).astype(np.float32)
    for n in (1, 4):
        f = Func("test_embed_dyn_%d" % n)
        ids = rng.integers(0, 10, (n,)).astype(np.int32)
        args = [f.input(dtable, "f32"), f.input(ids, "i32")]
        (y,) = sym_call(f, "embed_dyn", args, [(10, 4), ((n,), "i32")], [(n, 4)])
        f.expect(y, dtable[ids], "f32")
        funcs.append(f.text(comment="a dynamic_gather (constant slice sizes) of "
                            "%d rows." % n))
    wk = rng.uniform(-1, 1, (3, 3, 2, 4)).astype(np.float32)
    for n in (1, 3):
        f = Func("test_conv_dyn_%d" % n)
        x = rng.uniform(-1, 1, (n, 5, 5, 2)).astype(np.float32)
        (y,) = sym_call(f, "conv_dyn", [f.input(x, "f32"), f.input(wk, "f32")],
                        [(n, 5, 5, 2), (3, 3, 2, 4)], [(n, 5, 5, 4)])
        c = conv_ref(f64(x), f64(wk), [1, 1], [[1, 1], [0, 2]], [1, 1], [1, 1], 1)
        f.expect(y, c.astype(np.float32), "f32", atol=1e-5, rtol=1e-5)
        funcs.append(f.text(comment="a dynamic_conv (constant padding) at batch "
                            "%d." % n))
    # A dynamic_pad whose edge_padding_low (n rows) and interior_padding
    # (n - 1 rows) are computed: the kernels take them as extents.
    funcs.append(
        "  func.func private @spread(%x: " + T([None, 3]) + ") -> "
        + T([None, 3]) + " {\n" + dsize +
        "    %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
        "    %m = stablehlo.subtract %n, %c1 : tensor<i32>\n"
        "    %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>\n"
        "    %m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>\n"
        "    %z1 = stablehlo.constant dense<0> : tensor<1xi32>\n"
        "    %low = stablehlo.concatenate %n1, %z1, dim = 0 : (tensor<1xi32>, "
        "tensor<1xi32>) -> tensor<2xi32>\n"
        "    %high = stablehlo.constant dense<[1, 0]> : tensor<2xi32>\n"
        "    %int = stablehlo.concatenate %m1, %z1, dim = 0 : (tensor<1xi32>, "
        "tensor<1xi32>) -> tensor<2xi32>\n"
        "    %pv = stablehlo.constant dense<-1.0> : tensor<f32>\n"
        "    %c = stablehlo.dynamic_pad %x, %pv, %low, %high, %int : (" + T([None, 3])
        + ", tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> "
        + T([None, 3]) + "\n"
        "    return %c : " + T([None, 3]) + "\n"
        "  }")
    srng = np.random.default_rng(140)
    for n in (1, 3, 10):
        f = Func("test_spread_%d" % n)
        x = srng.uniform(-1, 1, (n, 3)).astype(np.float32)
        rows = n + n + (n - 1) * (n - 1) + 1
        (y,) = sym_call(f, "spread", [f.input(x, "f32")], [(n, 3)], [(rows, 3)])
        padded = np.full((rows, 3), -1.0, np.float32)
        padded[n:n + (n - 1) * n + 1:n] = x
        f.expect(y, padded, "f32")
        funcs.append(f.text(comment="a dynamic_pad of %d rows with computed "
                            "edge_padding_low (n) and interior_padding (n - 1)." % n))
    f = Func("fail_spread_0")
    (y,) = sym_call(f, "spread", [f.input(np.zeros((0, 3), np.float32), "f32")],
                    [(0, 3)], [(1, 3)])
    f.expect(y, np.full((1, 3), -1.0, np.float32), "f32")
    funcs.append(f.text(comment="the same of no rows: an interior_padding of -1, "
                        "which the call must refuse."))
    return funcs



#===----------------------------------------------------------------------===#
# Complex numbers
#===----------------------------------------------------------------------===#

CTOL = {"complex<f32>": (1e-5, 1e-5), "complex<f64>": (1e-12, 1e-12)}
CPART = {"complex<f32>": "f32", "complex<f64>": "f64"}


def carray(values, elem):
    return np.asarray(values, dtype=DTYPES[elem])


def c_expect(f, value, ref, elem, tol=True, scale=1.0):
    """|ref| (computed in complex128 / float64) rounded to |elem|. The parts
    are checked apart, so a part near 0 of a large result may carry the
    whole result's rounding: |scale| widens atol for such results."""
    ref = np.asarray(ref)
    if np.iscomplexobj(ref) or elem in CTOL:
        atol, rtol = CTOL[elem] if tol else (0.0, 0.0)
        atol *= scale
        f.expect(value, ref.astype(DTYPES[elem]), elem, atol, rtol)
    else:
        atol, rtol = TOL[elem] if tol else (0.0, 0.0)
        f.expect(value, round_to(elem, ref), elem, atol, rtol)


def c_sign(z):
    a = np.abs(z)
    return np.where(a == 0, z, z / np.where(a == 0, 1, a))


# name -> (numpy function on complex128, inputs)
COMPLEX_UNARY = [
    ("negate", np.negative, [1 + 2j, -0.5 + 0j, 3 - 4j, -2.5 - 1e-3j]),
    ("exponential", np.exp, [0j, 1 + 1j, -2 + 0.5j, 0.25 - 3j]),
    ("log", np.log, [1 + 0j, 1 + 1j, -2 + 0.5j, -3 - 4j, 0.5j, 1e3 - 1e-3j]),
    ("exponential_minus_one", np.expm1, [0j, 1e-5 + 1e-5j, 1 + 1j, -2 + 0.5j, 1e-4 - 3j]),
    ("log_plus_one", np.log1p, [0j, 1e-5 - 1e-5j, 1 + 1j, -2 + 0.5j, -0.5 + 1e-4j]),
    ("sqrt", np.sqrt, [0j, 4 + 0j, -4 + 0j, 3 + 4j, -3 - 4j, 1e-3 + 2j, -2.5 + 1e-4j]),
    ("rsqrt", lambda z: 1 / np.sqrt(z), [4 + 0j, -4 + 0j, 3 + 4j, -3 - 4j, 0.5 - 2j]),
    ("sine", np.sin, [0j, 1 + 1j, -2 + 0.5j, 0.25 - 3j, 1e-4 + 1e-4j]),
    ("cosine", np.cos, [0j, 1 + 1j, -2 + 0.5j, 0.25 - 3j, 1e-4 + 1e-4j]),
    ("tanh", np.tanh, [0j, 1 + 1j, -2 + 0.5j, 0.25 - 3j, 30 + 1j, -25 - 2j]),
    ("sign", c_sign, [0j, 3 + 4j, -2 + 0j, 1e-3 - 1e-3j, -5j]),
    ("tan", np.tan, [0j, 1 + 1j, -2 + 0.5j, 1.5 + 2.5j, 3.5 + 4.5j, 1 + 30j, 0.25 - 25j]),
    ("logistic", lambda z: 1 / (1 + np.exp(-z)), [0j, 1 + 2j, -2 + 0.5j, 0.25 - 3j, 5 - 1j]),
    ("square", lambda z: z * z, [0j, 1 + 2j, -3 + 0.5j, 2.5 - 2.5j, 1e-3 + 4j, -7 - 1e-2j]),
]

COMPLEX_BINARY = [
    ("add", np.add, [1 + 2j, -3 + 0.5j, 0j], [0.5 - 1j, 2 + 2j, -1 + 1j]),
    ("subtract", np.subtract, [1 + 2j, -3 + 0.5j, 0j], [0.5 - 1j, 2 + 2j, -1 + 1j]),
    ("multiply", np.multiply, [1 + 2j, -3 + 0.5j, 1e3 + 1e-3j],
     [0.5 - 1j, 2 + 2j, -1e-3 + 1e3j]),
    ("divide", np.divide, [1 + 2j, -3 + 0.5j, 1 + 0j, 4 - 2j, 1e3 + 1j],
     [0.5 - 1j, 1e-3 + 2j, 0 + 4j, -8 + 1e-3j, 1e3 + 1e3j]),
    ("power", np.power, [1 + 1j, 2 + 0j, -1 + 0.5j, 0.5 - 2j],
     [2 + 0j, 0.5 + 0.5j, 1.5 - 1j, -1 + 0j]),
    # The spec's atan2(y, x) = -i log((x + i y) / sqrt(x^2 + y^2)), y = lhs.
    ("atan2", lambda y, x: -1j * np.log((x + 1j * y) / np.sqrt(x * x + y * y)),
     [1.5 + 2.5j, 1 + 0j, -2 + 0.5j, 0.25 - 3j, 3 + 1j],
     [-1.5 + 2.5j, 1 + 0j, 1 - 1j, -0.5 + 0.5j, 2 + 0j]),
]


def gen_complex():
    funcs = []
    for elem in ("complex<f32>", "complex<f64>"):
        part = CPART[elem]
        suffix = "c64" if elem == "complex<f32>" else "c128"
        f = Func("test_elementwise_" + suffix)
        for name, fn, values in COMPLEX_UNARY:
            x = carray(values, elem)
            generic = name in ("sign", "rsqrt")
            c_expect(f, unary(f, name, x, elem, generic=generic),
                     fn(x.astype(np.complex128)), elem)
        for name, fn, a, b in COMPLEX_BINARY:
            x, y = carray(a, elem), carray(b, elem)
            # power is exp(y log x): a part near 0 of a result of size ~10
            # carries f32 cos/exp rounding of that size (GLSL's more).
            c_expect(f, binary(f, name, x, y, elem, generic=name == "power"),
                     fn(x.astype(np.complex128), y.astype(np.complex128)), elem,
                     scale=10.0 if name == "power" else 1.0)
        funcs.append(f.text(comment="Complex arithmetic and math functions "
                            "(%s) against numpy's complex128." % elem))

        f = Func("test_parts_" + suffix)
        z = carray([[1 + 2j, -3 + 0.5j, 0j], [1e3 - 1j, -2.5 + 4j, 0.5 - 0.25j]], elem)
        x = f.input(z, elem)
        ty, pty = t(z, elem), t(z, part)
        h = z.astype(np.complex128)
        a = f.op("stablehlo.abs %s : (%s) -> %s" % (x, ty, pty))
        c_expect(f, a, np.abs(h), part)
        re = f.op("stablehlo.real %s : (%s) -> %s" % (x, ty, pty))
        f.expect(re, z.real, part, 0.0, 0.0)
        im = f.op("stablehlo.imag %s : (%s) -> %s" % (x, ty, pty))
        f.expect(im, z.imag, part, 0.0, 0.0)
        back = f.op("stablehlo.complex %s, %s : %s" % (im, re, ty))
        f.expect(back, (z.imag + 1j * z.real).astype(DTYPES[elem]), elem, 0.0, 0.0)
        r = f.input(np.array([1.5, -2.0, 0.0], dtype=DTYPES[part]), part)
        rz = f.op("stablehlo.convert %s : (%s) -> %s"
                  % (r, tensor_type([3], part), tensor_type([3], elem)))
        f.expect(rz, carray([1.5, -2.0, 0.0], elem), elem, 0.0, 0.0)
        zr = f.op("stablehlo.convert %s : (%s) -> %s" % (x, ty, pty))
        f.expect(zr, z.real, part, 0.0, 0.0)
        other = "complex<f64>" if elem == "complex<f32>" else "complex<f32>"
        zz = f.op("stablehlo.convert %s : (%s) -> %s" % (x, ty, t(z, other)))
        f.expect(zz, z.astype(DTYPES[other]), other, 0.0, 0.0)
        lhs = carray([1 + 2j, 3 + 0j, 0j, 1 - 1j], elem)
        rhs = carray([1 + 2j, 3 + 1j, -0.0 + 0j, 1 + 1j], elem)
        xl, xr = f.input(lhs, elem), f.input(rhs, elem)
        for direction in ("EQ", "NE"):
            c = f.op("stablehlo.compare %s, %s, %s : (%s, %s) -> %s"
                     % (direction, xl, xr, t(lhs, elem), t(lhs, elem),
                        tensor_type([4], "i1")))
            want = lhs == rhs if direction == "EQ" else lhs != rhs
            f.expect(c, want, "i1")
        s = f.op("stablehlo.constant dense<(2.5, -1.0)> : %s" % tensor_type([4], elem))
        m = f.op("stablehlo.multiply %s, %s : %s" % (xl, s, t(lhs, elem)))
        c_expect(f, m, lhs.astype(np.complex128) * (2.5 - 1j), elem)
        funcs.append(f.text(comment="abs, real, imag, complex, convert between "
                            "complex and real, compare EQ/NE, a splat constant."))

        f = Func("test_dot_reduce_" + suffix)
        rng = np.random.default_rng(16)
        A = (rng.integers(-4, 5, (2, 3)) + 1j * rng.integers(-4, 5, (2, 3))).astype(DTYPES[elem])
        B = (rng.integers(-4, 5, (3, 4)) + 1j * rng.integers(-4, 5, (3, 4))).astype(DTYPES[elem])
        xa, xb = f.input(A, elem), f.input(B, elem)
        d = f.op("stablehlo.dot_general %s, %s, contracting_dims = [1] x [0] : "
                 "(%s, %s) -> %s" % (xa, xb, t(A, elem), t(B, elem),
                                     tensor_type([2, 4], elem)))
        c_expect(f, d, A.astype(np.complex128) @ B.astype(np.complex128), elem)
        d2 = f.op("stablehlo.dot %s, %s : (%s, %s) -> %s"
                  % (xa, xb, t(A, elem), t(B, elem), tensor_type([2, 4], elem)))
        c_expect(f, d2, A.astype(np.complex128) @ B.astype(np.complex128), elem)
        for op, fn, init in (("add", np.sum, "(0.0, 0.0)"),
                             ("multiply", np.prod, "(1.0, 0.0)")):
            c0 = f.op("stablehlo.constant dense<%s> : %s" % (init, tensor_type([], elem)))
            r = f.op("stablehlo.reduce(%s init: %s) applies stablehlo.%s across "
                     "dimensions = [1] : (%s, %s) -> %s"
                     % (xa, c0, op, t(A, elem), tensor_type([], elem),
                        tensor_type([2], elem)))
            c_expect(f, r, fn(A.astype(np.complex128), axis=1), elem)
        funcs.append(f.text(comment="dot_general, dot and reduce (add, multiply) "
                            "on complex operands."))

        f = Func("test_movement_" + suffix)
        z = (np.arange(6).reshape(2, 3) + 1j * (np.arange(6).reshape(2, 3) - 2.5)
             ).astype(DTYPES[elem])
        x = f.input(z, elem)
        ty = t(z, elem)
        r = f.op("stablehlo.reshape %s : (%s) -> %s" % (x, ty, tensor_type([3, 2], elem)))
        f.expect(r, z.reshape(3, 2), elem, 0.0, 0.0)
        tr = f.op("stablehlo.transpose %s, dims = [1, 0] : (%s) -> %s"
                  % (x, ty, tensor_type([3, 2], elem)))
        f.expect(tr, z.T, elem, 0.0, 0.0)
        b = f.op("stablehlo.broadcast_in_dim %s, dims = [0, 2] : (%s) -> %s"
                 % (x, ty, tensor_type([2, 2, 3], elem)))
        f.expect(b, np.broadcast_to(z[:, None, :], (2, 2, 3)), elem, 0.0, 0.0)
        sl = f.op("stablehlo.slice %s [0:2, 1:3] : (%s) -> %s"
                  % (x, ty, tensor_type([2, 2], elem)))
        f.expect(sl, z[:, 1:3], elem, 0.0, 0.0)
        cc = f.op("stablehlo.concatenate %s, %s, dim = 0 : (%s, %s) -> %s"
                  % (x, x, ty, ty, tensor_type([4, 3], elem)))
        f.expect(cc, np.concatenate([z, z], 0), elem, 0.0, 0.0)
        pv = f.op("stablehlo.constant dense<(-1.0, 1.0)> : %s" % tensor_type([], elem))
        p = f.op("stablehlo.pad %s, %s, low = [1, 0], high = [0, 1], interior = [0, 1] "
                 ": (%s, %s) -> %s" % (x, pv, ty, tensor_type([], elem),
                                       tensor_type([3, 6], elem)))
        want = np.full((3, 6), -1 + 1j, dtype=DTYPES[elem])
        want[1:, 0:5:2] = z
        f.expect(p, want, elem, 0.0, 0.0)
        rv = f.op("stablehlo.reverse %s, dims = [1] : %s" % (x, ty))
        f.expect(rv, z[:, ::-1], elem, 0.0, 0.0)
        pred = f.input(np.array([[True, False, True], [False, False, True]]), "i1")
        zero = f.op("stablehlo.constant dense<(0.0, 0.0)> : %s" % ty)
        s = f.op("stablehlo.select %s, %s, %s : %s, %s"
                 % (pred, x, zero, tensor_type([2, 3], "i1"), ty))
        f.expect(s, np.where([[True, False, True], [False, False, True]], z, 0), elem,
                 0.0, 0.0)
        i = f.input(np.array(1, dtype=np.int32), "i32")
        ds = f.op("stablehlo.dynamic_slice %s, %s, %s, sizes = [1, 2] : (%s, %s, %s) -> %s"
                  % (x, i, i, ty, tensor_type([], "i32"), tensor_type([], "i32"),
                     tensor_type([1, 2], elem)))
        f.expect(ds, z[1:2, 1:3], elem, 0.0, 0.0)
        funcs.append(f.text(comment="Ops that move complex elements: reshape, "
                            "transpose, broadcast_in_dim, slice, concatenate,\n"
                            "pad, reverse, select, dynamic_slice."))

        f = Func("test_iota_" + suffix)
        for shape, dim in (((4,), 0), ((2, 3), 1), ((3, 2), 0)):
            io = f.op("stablehlo.iota dim = %d : %s" % (dim, tensor_type(list(shape), elem)))
            idx = np.indices(shape)[dim]
            f.expect(io, idx.astype(DTYPES[elem]), elem, 0.0, 0.0)
        funcs.append(f.text(comment="iota: the index in the real part, 0 in the "
                            "imaginary part."))

        # bitcast_convert: a complex value's bits are its (re, im) parts in
        # memory order (numpy's view on a little-endian machine).
        f = Func("test_bitcast_" + suffix)
        z = carray([1 - 2j, 0.5 + 3j, -0.0 + 1e-3j, 2.5 - 0.25j], elem)
        x = f.input(z, elem)
        ty = t(z, elem)
        targets = [(part, (4, 2)), ("i32" if part == "f32" else "i64", (4, 2))]
        if elem == "complex<f32>":
            targets += [("i64", (4,)), ("f64", (4,)), ("complex<f64>", (2,))]
        for target, shape in targets:
            src, sz, sty = x, z, ty
            if target == "complex<f64>":
                # Two complex<f32> make one complex<f64>: a last dimension of 2.
                sz = z.reshape(2, 2)
                sty = t(sz, elem)
                src = f.op("stablehlo.reshape %s : (%s) -> %s" % (x, ty, sty))
            bt = tensor_type(list(shape), target)
            b = f.op("stablehlo.bitcast_convert %s : (%s) -> %s" % (src, sty, bt))
            want = sz.reshape(-1).view(DTYPES[target]).reshape(shape)
            f.expect(b, want, target, 0.0, 0.0)
            back = f.op("stablehlo.bitcast_convert %s : (%s) -> %s" % (b, bt, sty))
            # A complex op on the result, so its parts are split from it.
            neg = f.op("stablehlo.negate %s : %s" % (back, sty))
            f.expect(neg, -sz, elem, 0.0, 0.0)
        funcs.append(f.text(comment="bitcast_convert to and from the parts' "
                            "type, same-width integers, whole-element types and "
                            "complex<f64>."))

        f = Func("test_control_" + suffix)
        z = carray([1 + 2j, -0.5 + 1j, 3 - 1j], elem)
        x = f.input(z, elem)
        ty = t(z, elem)
        # fori_loop(0, 3, lambda i, z: z * (0.5 + 1j), z)
        r = counted_while(f, x, ty, 0, 3, [
            "  %c = stablehlo.constant dense<1> : tensor<i32>",
            "  %%cst = stablehlo.constant dense<(5.000000e-01, 1.000000e+00)> : %s" % ty,
            "  %%100 = stablehlo.multiply %%iterArg_0, %%cst : %s" % ty,
            "  %101 = stablehlo.add %iterArg, %c : tensor<i32>",
            "  stablehlo.return %%101, %%100 : tensor<i32>, %s" % ty,
        ])
        c_expect(f, "%s#1" % r, z.astype(np.complex128) * (0.5 + 1j) ** 3, elem)
        # Sliding sums of 2 (reduce_window with an add body).
        c0 = f.op("stablehlo.constant dense<(0.0, 0.0)> : %s" % tensor_type([], elem))
        body = binary_body("add", elem)
        w = f.op('"stablehlo.reduce_window"(%s, %s) <{window_dimensions = array<i64: 2>}> '
                 '({\n%s\n    }) : (%s, %s) -> %s'
                 % (x, c0, body, ty, tensor_type([], elem), tensor_type([2], elem)))
        c_expect(f, w, z[:-1].astype(np.complex128) + z[1:], elem)
        # x[idx] and a dynamic_update_slice of complex elements.
        idx = f.input(np.array([[2], [0]], dtype=np.int32), "i32")
        g = f.op('"stablehlo.gather"(%s, %s) <{dimension_numbers = #stablehlo.gather<'
                 'collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, '
                 'slice_sizes = array<i64: 1>}> : (%s, tensor<2x1xi32>) -> %s'
                 % (x, idx, ty, tensor_type([2], elem)))
        f.expect(g, z[[2, 0]], elem, 0.0, 0.0)
        one = f.input(np.array(1, dtype=np.int32), "i32")
        u = f.op("stablehlo.dynamic_update_slice %s, %s, %s : (%s, %s, %s) -> %s"
                 % (x, g, one, ty, tensor_type([2], elem), tensor_type([], "i32"), ty))
        f.expect(u, np.array([z[0], z[2], z[0]]), elem, 0.0, 0.0)
        funcs.append(f.text(comment="A while loop carrying a complex value, "
                            "reduce_window, gather, dynamic_update_slice."))

        f = Func("test_captured_" + suffix)
        z = carray([1 + 2j, 3 - 1j], elem)
        x = f.input(z, elem)
        ty = t(z, elem)
        # The loop body uses x (captured) before any op outside does, so its
        # parts are first split inside the body; the uses after the loop
        # need their own.
        r = counted_while(f, x, ty, 0, 2, [
            "  %c = stablehlo.constant dense<1> : tensor<i32>",
            "  %%100 = stablehlo.multiply %%iterArg_0, %s : %s" % (x, ty),
            "  %101 = stablehlo.add %iterArg, %c : tensor<i32>",
            "  stablehlo.return %%101, %%100 : tensor<i32>, %s" % ty,
        ])
        c_expect(f, "%s#1" % r, z.astype(np.complex128) ** 3, elem)
        re = f.op("stablehlo.real %s : (%s) -> %s" % (x, ty, t(z, part)))
        f.expect(re, z.real, part, 0.0, 0.0)
        s2 = f.op("stablehlo.add %s, %s : %s" % (x, x, ty))
        f.expect(s2, z + z, elem, 0.0, 0.0)
        funcs.append(f.text(comment="A complex value captured by a loop body and "
                            "used after the loop."))

        # Complex arguments and results: the interleaved form at calls.
        helper = ("  func.func private @mul_conj_%s(%%a: %s, %%b: %s) -> %s {\n"
                  "    %%0 = stablehlo.imag %%b : (%s) -> %s\n"
                  "    %%1 = stablehlo.negate %%0 : %s\n"
                  "    %%2 = stablehlo.real %%b : (%s) -> %s\n"
                  "    %%3 = stablehlo.complex %%2, %%1 : %s\n"
                  "    %%4 = stablehlo.multiply %%a, %%3 : %s\n"
                  "    return %%4 : %s\n  }"
                  % (suffix, tensor_type([3], elem), tensor_type([3], elem),
                     tensor_type([3], elem), tensor_type([3], elem),
                     tensor_type([3], part), tensor_type([3], part),
                     tensor_type([3], elem), tensor_type([3], part),
                     tensor_type([3], elem), tensor_type([3], elem),
                     tensor_type([3], elem)))
        funcs.append(helper)
        f = Func("test_call_" + suffix)
        a = carray([1 + 2j, -3 + 0.5j, 2j], elem)
        b = carray([0.5 - 1j, 2 + 2j, -1 + 1j], elem)
        xa, xb = f.input(a, elem), f.input(b, elem)
        c = f.op("func.call @mul_conj_%s(%s, %s) : (%s, %s) -> %s"
                 % (suffix, xa, xb, t(a, elem), t(a, elem), t(a, elem)))
        c_expect(f, c, a.astype(np.complex128) * np.conj(b.astype(np.complex128)), elem)
        funcs.append(f.text(comment="Complex arguments and results of a call "
                            "(interleaved at the boundary)."))

    f = Func("test_square")
    for elem in ("f32", "f64", "f16", "bf16", "i32", "ui8"):
        vals = [0.0, 1.5, -2.0, 3.0, -0.25, 100.0] if is_float(elem) else [0, 3, 7, 11, 15]
        if elem == "i32":
            vals += [-5, 46340, -46341]  # the last wraps (46341^2 > 2^31 - 1)
        a = array(vals, elem)
        want = [v * v for v in (float(x) if is_float(elem) else int(x) for x in a)]
        r = f.op("stablehlo.square %s : %s" % (f.input(a, elem), t(a, elem)))
        if is_float(elem):
            f.expect(r, round_to(elem, np.asarray(want)), elem, 0.0, 0.0)
        else:
            f.expect(r, array([wrap(v, elem) for v in want], elem), elem)
    for elem, huge in (("complex<f64>", 1e200), ("complex<f32>", 1e30)):
        # (re - im)(re + im) is 0 where |re| == |im| is finite, not the
        # 0 * inf of an overflowing sum; 2 re im overflows to infinity.
        z = carray([complex(huge, huge), complex(huge, -huge), complex(-huge, huge),
                    complex(INF, INF), complex(huge, 3 * huge), complex(0.5, 0.5),
                    complex(2.0, 0.5)], elem)
        want = carray([complex(0, INF), complex(0, -INF), complex(0, -INF),
                       complex(NAN, INF), complex(-INF, INF), complex(0.0, 0.5),
                       complex(3.75, 2.0)], elem)
        r = f.op("stablehlo.square %s : %s" % (f.input(z, elem), t(z, elem)))
        f.expect(r, want, elem, 0.0, 0.0)
    funcs.append(f.text(comment="stablehlo.square: x * x on floats and integers (i32 "
                        "wrapping), and on complex numbers with the parts that overflow "
                        "to 0 * inf kept exact: (re - im)(re + im) is 0 where |re| == "
                        "|im| is finite."))

    f = Func("fail_complex_multiply")
    x = f.input(carray([1 + 2j, 3 - 1j], "complex<f32>"), "complex<f32>")
    m = f.op("stablehlo.multiply %s, %s : tensor<2xcomplex<f32>>" % (x, x))
    # The imaginary part of (1+2i)^2 is 4, not -4.
    f.expect(m, carray([-3 - 4j, 8 - 6j], "complex<f32>"), "complex<f32>", 1e-5, 1e-5)
    funcs.append(f.text(comment="Must fail: a wrong imaginary part."))
    return funcs


#===----------------------------------------------------------------------===#
# Fourier transforms
#===----------------------------------------------------------------------===#

# (fft_type, numpy transform over the last len(lengths) axes)
FFT_NUMPY = {
    "FFT": lambda x, lengths: np.fft.fftn(x, axes=range(-len(lengths), 0)),
    "IFFT": lambda x, lengths: np.fft.ifftn(x, axes=range(-len(lengths), 0)),
    "RFFT": lambda x, lengths: np.fft.rfftn(x, axes=range(-len(lengths), 0)),
    "IRFFT": lambda x, lengths: np.fft.irfftn(x, s=lengths, axes=range(-len(lengths), 0)),
}


def fft_input(rng, fft_type, shape, lengths, elem):
    """An operand for |fft_type| whose real side has |shape|: complex values
    for FFT/IFFT; a real signal for RFFT; for IRFFT the rfftn of a real
    signal (a Hermitian spectrum, as the inverse expects)."""
    part = CPART.get(elem, elem)
    if fft_type == "RFFT":
        return array(rng.uniform(-1, 1, shape), part)
    if fft_type == "IRFFT":
        real = rng.uniform(-1, 1, shape)
        return carray(FFT_NUMPY["RFFT"](real, lengths), elem)
    return carray(rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape), elem)


def fft_op(f, x, fft_type, lengths, in_type, out_type, form):
    if form == "pretty":
        return f.op("stablehlo.fft %s, type = %s, length = [%s] : (%s) -> %s"
                    % (x, fft_type, ", ".join(str(n) for n in lengths), in_type, out_type))
    if form == "dense":
        attr = "dense<[%s]> : tensor<%dxi64>" % (", ".join(str(n) for n in lengths),
                                                 len(lengths))
    else:
        attr = "array<i64: %s>" % ", ".join(str(n) for n in lengths)
    return f.op("\"stablehlo.fft\"(%s) {fft_length = %s, fft_type = #stablehlo<fft_type %s>}"
                " : (%s) -> %s" % (x, attr, fft_type, in_type, out_type))


def fft_case(f, rng, fft_type, shape, lengths, elem, form="pretty"):
    """One transform of an operand whose real side has |shape|, against
    numpy's in complex128 / float64."""
    part = CPART[elem]
    x = fft_input(rng, fft_type, shape, lengths, elem)
    ref = FFT_NUMPY[fft_type](x.astype(np.complex128 if np.iscomplexobj(x) else np.float64),
                              lengths)
    in_elem = part if fft_type == "RFFT" else elem
    out_elem = part if fft_type == "IRFFT" else elem
    xv = f.input(x, in_elem)
    r = fft_op(f, xv, fft_type, lengths, t(x, in_elem), t(ref, out_elem), form)
    # Each output sums n products of inputs up to |x|: the rounding grows
    # with n (inverse transforms divide by n again).
    n = int(np.prod(lengths))
    scale = float(np.max(np.abs(x))) * (n if fft_type in ("FFT", "RFFT") else 1)
    atol = (2e-6 if part == "f32" else 1e-14) * max(scale, 1.0) * max(math.log2(n), 1)
    rtol = 1e-5 if part == "f32" else 1e-12
    if fft_type == "IRFFT":
        f.expect(r, round_to(part, ref), part, atol, rtol)
    else:
        f.expect(r, ref.astype(DTYPES[elem]), elem, atol, rtol)


def gen_fft():
    rng = np.random.default_rng(16)
    funcs = []
    # (fft_type, real-side shape, fft_length)
    cases = [
        ("FFT", (8,), (8,)), ("FFT", (3, 5), (5,)), ("FFT", (2, 4, 6), (4, 6)),
        ("FFT", (2, 3, 4), (2, 3, 4)), ("FFT", (1,), (1,)), ("FFT", (64,), (64,)),
        ("IFFT", (8,), (8,)), ("IFFT", (2, 7), (7,)), ("IFFT", (3, 4, 5), (4, 5)),
        ("IFFT", (2, 2, 3), (2, 2, 3)),
        ("RFFT", (8,), (8,)), ("RFFT", (7,), (7,)), ("RFFT", (3, 6), (6,)),
        ("RFFT", (2, 4, 6), (4, 6)), ("RFFT", (3, 4, 5), (3, 4, 5)), ("RFFT", (1,), (1,)),
        ("RFFT", (2, 128), (128,)),
        ("IRFFT", (8,), (8,)), ("IRFFT", (7,), (7,)), ("IRFFT", (3, 6), (6,)),
        ("IRFFT", (2, 4, 6), (4, 6)), ("IRFFT", (2, 3, 5), (2, 3, 5)), ("IRFFT", (2,), (2,)),
    ]
    for elem in ("complex<f32>", "complex<f64>"):
        suffix = "c64" if elem == "complex<f32>" else "c128"
        for fft_type in ("FFT", "IFFT", "RFFT", "IRFFT"):
            f = Func("test_%s_%s" % (fft_type.lower(), suffix))
            for kind, shape, lengths in cases:
                if kind == fft_type:
                    fft_case(f, rng, kind, shape, lengths, elem)
            funcs.append(f.text(comment="%s of %s over 1 to 3 trailing dims (odd and even "
                                "lengths, batch dims) against numpy.fft." % (fft_type, elem)))
    # Over 256: split into two shorter transforms (four-step), each kind
    # once (a few, as each adds many kernels).
    f = Func("test_fft_split")
    fft_case(f, rng, "FFT", (512,), (512,), "complex<f64>")
    fft_case(f, rng, "IFFT", (2, 300), (300,), "complex<f32>")
    fft_case(f, rng, "RFFT", (400,), (400,), "complex<f32>")
    fft_case(f, rng, "IRFFT", (525,), (525,), "complex<f64>")
    funcs.append(f.text(comment="Lengths over 256 (512 = 16 x 32, 300 = 15 x 20, 400 = 20 x "
                        "20, odd 525 = 21 x 25), split in two, against numpy.fft."))
    f = Func("test_fft_generic_forms")
    fft_case(f, rng, "FFT", (2, 4), (4,), "complex<f32>", form="generic")
    fft_case(f, rng, "RFFT", (6,), (6,), "complex<f32>", form="dense")
    fft_case(f, rng, "IRFFT", (3, 4), (3, 4), "complex<f64>", form="generic")
    funcs.append(f.text(comment="The generic form, with fft_length as array<i64: ...> and "
                        "as dense<...> : tensor<Nxi64>."))
    # An RFFT then an IRFFT of its result gives the signal back; an FFT of a
    # real signal made complex agrees with its RFFT's half spectrum.
    f = Func("test_fft_round_trip")
    x = array(rng.uniform(-1, 1, (3, 10)), "f32")
    xv = f.input(x, "f32")
    spectrum = fft_op(f, xv, "RFFT", (10,), "tensor<3x10xf32>",
                      "tensor<3x6xcomplex<f32>>", "pretty")
    back = fft_op(f, spectrum, "IRFFT", (10,), "tensor<3x6xcomplex<f32>>",
                  "tensor<3x10xf32>", "pretty")
    f.expect(back, x, "f32", 1e-5, 1e-5)
    zero = f.op("stablehlo.constant dense<0.0> : tensor<3x10xf32>")
    z = f.op("stablehlo.complex %s, %s : tensor<3x10xcomplex<f32>>" % (xv, zero))
    full = fft_op(f, z, "FFT", (10,), "tensor<3x10xcomplex<f32>>",
                  "tensor<3x10xcomplex<f32>>", "pretty")
    half = f.op("stablehlo.slice %s [0:3, 0:6] : (tensor<3x10xcomplex<f32>>) -> "
                "tensor<3x6xcomplex<f32>>" % full)
    f.expect(half, np.fft.rfft(x.astype(np.float64)).astype(np.complex64), "complex<f32>",
             1e-4, 1e-5)
    funcs.append(f.text(comment="IRFFT(RFFT(x)) = x; FFT of (x, 0) begins with RFFT(x)."))

    # Empty transforms: a zero fft_length and an empty batch give empty
    # results, concatenated away here.
    f = Func("test_fft_empty")
    x = array(rng.uniform(-1, 1, (2, 3)), "f32")
    xv = f.input(x, "f32")
    none = f.op("stablehlo.slice %s [0:2, 0:0] : (tensor<2x3xf32>) -> tensor<2x0xf32>" % xv)
    spectrum = fft_op(f, none, "RFFT", (0,), "tensor<2x0xf32>", "tensor<2x0xcomplex<f32>>",
                      "pretty")
    z = carray(rng.uniform(-1, 1, (2, 4)) + 1j * rng.uniform(-1, 1, (2, 4)), "complex<f32>")
    zv = f.input(z, "complex<f32>")
    wide = f.op("stablehlo.concatenate %s, %s, dim = 1 : (tensor<2x0xcomplex<f32>>, "
                "tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>" % (spectrum, zv))
    f.expect(wide, z, "complex<f32>", 0.0, 0.0)
    rows = f.op("stablehlo.slice %s [2:2, 0:4] : (tensor<2x4xcomplex<f32>>) -> "
                "tensor<0x4xcomplex<f32>>" % zv)
    inverse = fft_op(f, rows, "IFFT", (4,), "tensor<0x4xcomplex<f32>>",
                     "tensor<0x4xcomplex<f32>>", "pretty")
    tall = f.op("stablehlo.concatenate %s, %s, dim = 0 : (tensor<0x4xcomplex<f32>>, "
                "tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>" % (inverse, zv))
    f.expect(tall, z, "complex<f32>", 0.0, 0.0)
    funcs.append(f.text(comment="An RFFT of length 0 and an IFFT of an empty batch."))

    f = Func("fail_fft")
    x = carray([1, 2j, -1, 0.5], "complex<f32>")
    xv = f.input(x, "complex<f32>")
    r = fft_op(f, xv, "FFT", (4,), "tensor<4xcomplex<f32>>", "tensor<4xcomplex<f32>>",
               "pretty")
    # The inverse transform's result (conjugate kernel, unscaled) instead.
    f.expect(r, (np.fft.ifft(x) * 4).astype(np.complex64), "complex<f32>", 1e-5, 1e-5)
    funcs.append(f.text(comment="Must fail: the expectation is the inverse transform."))
    return funcs


#===----------------------------------------------------------------------===#
# stablehlo.rng
#===----------------------------------------------------------------------===#

def rng_op(f, a, b, shape, dist, elem, form="pretty"):
    """stablehlo.rng of |shape| (the shape operand a stablehlo.constant)."""
    s = f.op("stablehlo.constant dense<[%s]> : tensor<%dxi64>"
             % (", ".join(str(n) for n in shape), len(shape)) if shape else
             "stablehlo.constant dense<> : tensor<0xi64>")
    types = "(tensor<%s>, tensor<%s>, tensor<%dxi64>) -> %s" % (
        elem, elem, len(shape), tensor_type(shape, elem))
    if form == "pretty":
        return f.op("stablehlo.rng %s, %s, %s, distribution = %s : %s"
                    % (a, b, s, dist, types))
    return f.op('"stablehlo.rng"(%s, %s, %s) {rng_distribution = '
                '#stablehlo<rng_distribution %s>} : %s' % (a, b, s, dist, types))


def rng_scalar(f, value, elem):
    # (to_bf16 takes arrays of rank 1 or more.)
    return f.input(array(np.asarray([value]), elem).reshape(()), elem)


def rng_all(f, predicate, shape):
    """Expects the i1 |predicate| of |shape| true everywhere (an and-reduce)."""
    dims = list(range(len(shape)))
    c = f.op("stablehlo.constant dense<true> : tensor<i1>")
    r = f.op("stablehlo.reduce(%s init: %s) applies stablehlo.and across dimensions = %s"
             " : (%s, tensor<i1>) -> tensor<i1>"
             % (predicate, c, dims, tensor_type(shape, "i1")))
    f.line("check.expect_eq_const(%s, dense<true> : tensor<i1>) : tensor<i1>" % r)


def rng_compare(f, x, bound, direction, shape, elem, ctype):
    """x DIRECTION bound (a rank-0 value broadcast) at every element."""
    wide = bcast(f, bound, (), shape, [], elem)
    p = f.op("stablehlo.compare %s, %s, %s, %s : (%s, %s) -> %s"
             % (direction, x, wide, ctype, tensor_type(shape, elem),
                tensor_type(shape, elem), tensor_type(shape, "i1")))
    rng_all(f, p, shape)


def rng_mean(f, x, shape, elem):
    """The f32 mean of |x| (converted to f32 first)."""
    if elem != "f32":
        x = f.op("stablehlo.convert %s : (%s) -> %s"
                 % (x, tensor_type(shape, elem), tensor_type(shape, "f32")))
    total, _ = reduce_op(f, x, shape, list(range(len(shape))), "add", "0.0")
    n = f.op("stablehlo.constant dense<%s> : tensor<f32>"
             % np.format_float_scientific(float(np.prod(shape)), trim="0"))
    return f.op("stablehlo.divide %s, %s : tensor<f32>" % (total, n)), x


def rng_expect_moments(f, x, shape, elem, mean, second, tol_mean, tol_second):
    """E[x] and E[x^2] (in f32) within the given tolerances."""
    m, x32 = rng_mean(f, x, shape, elem)
    f.expect(m, np.float32(mean), "f32", tol_mean, 0.0)
    sq = f.op("stablehlo.multiply %s, %s : %s" % (x32, x32, tensor_type(shape, "f32")))
    m2, _ = rng_mean(f, sq, shape, "f32")
    f.expect(m2, np.float32(second), "f32", tol_second, 0.0)


def rng_fraction(f, predicate, shape):
    """The fraction of |shape|'s elements where the i1 |predicate| holds."""
    ones = f.op("stablehlo.convert %s : (%s) -> %s"
                % (predicate, tensor_type(shape, "i1"), tensor_type(shape, "f32")))
    return rng_mean(f, ones, shape, "f32")[0]


def gen_rng():
    """stablehlo.rng's numbers are implementation-defined: checked are the
    range, the shape, the same numbers on every call, independent streams
    for two ops, and mean, second moment and quantiles of 4096 samples
    within 5 standard errors (every bound is fixed by the compiled key, so
    the tests are deterministic)."""
    funcs = []
    big = (64, 64)
    n = 64 * 64
    for elem in ("f32", "f64", "f16", "bf16"):
        f = Func("test_rng_uniform_%s" % elem)
        lo, hi = -1.0, 3.0
        a, b = rng_scalar(f, lo, elem), rng_scalar(f, hi, elem)
        x = rng_op(f, a, b, big, "UNIFORM", elem, "pretty" if elem != "f64" else "generic")
        rng_compare(f, x, a, "GE", big, elem, "FLOAT")
        rng_compare(f, x, b, "LT", big, elem, "FLOAT")
        var = (hi - lo) ** 2 / 12
        rng_expect_moments(f, x, big, elem, (lo + hi) / 2, var + ((lo + hi) / 2) ** 2,
                           5 * math.sqrt(var / n), 0.25)
        mid = rng_scalar(f, (lo + hi) / 2, elem)
        wide = bcast(f, mid, (), big, [], elem)
        below = f.op("stablehlo.compare LT, %s, %s, FLOAT : (%s, %s) -> %s"
                     % (x, wide, tensor_type(big, elem), tensor_type(big, elem),
                        tensor_type(big, "i1")))
        f.expect(rng_fraction(f, below, big), np.float32(0.5), "f32",
                 5 * math.sqrt(0.25 / n), 0.0)
        funcs.append(f.text(comment="UNIFORM %s on [-1, 3): in range, mean, second moment "
                            "and median." % elem))

    # A narrow range: rounding of a + (b - a) u must stay below b.
    f = Func("test_rng_uniform_narrow_f16")
    a, b = rng_scalar(f, 1.0, "f16"), rng_scalar(f, 1.0 + 2 ** -9, "f16")
    x = rng_op(f, a, b, big, "UNIFORM", "f16")
    rng_compare(f, x, a, "GE", big, "f16", "FLOAT")
    rng_compare(f, x, b, "LT", big, "f16", "FLOAT")
    funcs.append(f.text(comment="UNIFORM f16 on [1, 1 + 2^-9) (four values): never b."))

    for elem in ("f32", "f64", "bf16"):
        f = Func("test_rng_normal_%s" % elem)
        mu, sigma = 0.5, 2.0
        a, b = rng_scalar(f, mu, elem), rng_scalar(f, sigma, elem)
        x = rng_op(f, a, b, big, "NORMAL", elem, "pretty" if elem != "f64" else "generic")
        # Finite everywhere: |x - mu| < 12 sigma.
        centered = f.op("stablehlo.subtract %s, %s : %s"
                        % (x, bcast(f, a, (), big, [], elem), tensor_type(big, elem)))
        distance = f.op("stablehlo.abs %s : %s" % (centered, tensor_type(big, elem)))
        rng_compare(f, distance, rng_scalar(f, 12 * sigma, elem), "LT", big, elem, "FLOAT")
        rng_expect_moments(f, x, big, elem, mu, sigma ** 2 + mu ** 2,
                           5 * sigma / math.sqrt(n),
                           5 * math.sqrt((2 * sigma ** 4 + 4 * mu ** 2 * sigma ** 2) / n))
        # The share within one and two sigma: 68.27% and 95.45%.
        for k, share in ((1, 0.6826894921370859), (2, 0.9544997361036416)):
            bound = bcast(f, rng_scalar(f, k * sigma, elem), (), big, [], elem)
            inside = f.op("stablehlo.compare LT, %s, %s, FLOAT : (%s, %s) -> %s"
                          % (distance, bound, tensor_type(big, elem),
                             tensor_type(big, elem), tensor_type(big, "i1")))
            f.expect(rng_fraction(f, inside, big), np.float32(share), "f32",
                     5 * math.sqrt(share * (1 - share) / n), 0.0)
        funcs.append(f.text(comment="NORMAL %s with mean 0.5 and deviation 2: finite, "
                            "mean, second moment, the shares within 1 and 2 deviations."
                            % elem))

    # Integers: every value of a small range appears, none outside it.
    for elem, lo, hi, ctype in (("i32", -5, 7, "SIGNED"), ("ui8", 3, 250, "UNSIGNED"),
                                ("i8", -128, 127, "SIGNED"), ("i64", -2 ** 40, 2 ** 40,
                                                                "SIGNED"),
                                ("ui32", 0, 2 ** 32 - 1, "UNSIGNED"), ("i16", -7, -2,
                                                                         "SIGNED")):
        f = Func("test_rng_uniform_%s" % elem)
        a, b = rng_scalar(f, lo, elem), rng_scalar(f, hi, elem)
        x = rng_op(f, a, b, big, "UNIFORM", elem)
        rng_compare(f, x, a, "GE", big, elem, ctype)
        rng_compare(f, x, b, "LT", big, elem, ctype)
        if hi - lo <= 255:
            dims = [0, 1]
            low, _ = reduce_op(f, x, big, dims, "minimum", str(hi), elem)
            high, _ = reduce_op(f, x, big, dims, "maximum", str(lo), elem)
            f.expect(low, array(np.asarray(lo), elem), elem)
            f.expect(high, array(np.asarray(hi - 1), elem), elem)
        else:
            # The top and bottom halves of the range are about as likely.
            mid = rng_scalar(f, lo + (hi - lo) // 2, elem)
            below = f.op("stablehlo.compare LT, %s, %s, %s : (%s, %s) -> %s"
                         % (x, bcast(f, mid, (), big, [], elem), ctype,
                            tensor_type(big, elem), tensor_type(big, elem),
                            tensor_type(big, "i1")))
            f.expect(rng_fraction(f, below, big), np.float32(0.5), "f32",
                     5 * math.sqrt(0.25 / n), 0.0)
        funcs.append(f.text(comment="UNIFORM %s on [%d, %d)." % (elem, lo, hi)))

    f = Func("test_rng_uniform_i1")
    a, b = rng_scalar(f, False, "i1"), rng_scalar(f, True, "i1")
    x = rng_op(f, a, b, (5,), "UNIFORM", "i1")
    f.expect(x, np.zeros(5, bool), "i1")
    funcs.append(f.text(comment="UNIFORM i1 on [false, true): false."))

    # Shapes: rank 0 and rank 3; the same numbers on every call; two ops
    # give different numbers.
    callee = ("  func.func private @draw(%arg0: tensor<f32>, %arg1: tensor<f32>) -> "
              "tensor<2x3x4xf32> {\n"
              "    %0 = stablehlo.constant dense<[2, 3, 4]> : tensor<3xi64>\n"
              "    %1 = stablehlo.rng %arg0, %arg1, %0, distribution = UNIFORM : "
              "(tensor<f32>, tensor<f32>, tensor<3xi64>) -> tensor<2x3x4xf32>\n"
              "    return %1 : tensor<2x3x4xf32>\n  }")
    funcs.append(callee)
    f = Func("test_rng_shapes_and_calls")
    a, b = rng_scalar(f, 0.0, "f32"), rng_scalar(f, 1.0, "f32")
    first = f.op("func.call @draw(%s, %s) : (tensor<f32>, tensor<f32>) -> tensor<2x3x4xf32>"
                 % (a, b))
    second = f.op("func.call @draw(%s, %s) : (tensor<f32>, tensor<f32>) -> "
                  "tensor<2x3x4xf32>" % (a, b))
    f.line("check.expect_eq %s, %s : tensor<2x3x4xf32>" % (first, second))
    rng_compare(f, first, a, "GE", (2, 3, 4), "f32", "FLOAT")
    rng_compare(f, first, b, "LT", (2, 3, 4), "f32", "FLOAT")
    other = rng_op(f, a, b, (2, 3, 4), "UNIFORM", "f32")
    differ = f.op("stablehlo.compare NE, %s, %s, FLOAT : (tensor<2x3x4xf32>, "
                  "tensor<2x3x4xf32>) -> tensor<2x3x4xi1>" % (first, other))
    rng_all(f, differ, (2, 3, 4))
    scalar = rng_op(f, a, b, (), "UNIFORM", "f32", "generic")
    rng_compare(f, scalar, a, "GE", (), "f32", "FLOAT")
    rng_compare(f, scalar, b, "LT", (), "f32", "FLOAT")
    funcs.append(f.text(comment="Rank 3 and rank 0 results; a function called twice gives "
                        "the same numbers (the key is fixed when compiling), another rng "
                        "op other numbers."))

    f = Func("fail_rng_uniform_mean")
    a, b = rng_scalar(f, 0.0, "f32"), rng_scalar(f, 1.0, "f32")
    x = rng_op(f, a, b, big, "UNIFORM", "f32")
    m, _ = rng_mean(f, x, big, "f32")
    f.expect(m, np.float32(0.75), "f32", 0.05, 0.0)
    funcs.append(f.text(comment="Must fail: the mean of UNIFORM [0, 1) is 0.5, not 0.75."))
    return funcs


FAMILIES = [
    ("elementwise_float", gen_elementwise_float,
     "Elementwise float ops: every op of the spec's list in f32, and samples\n"
     "in f16, bf16 (computed in f32, rounded on store) and f64."),
    ("elementwise_int", gen_elementwise_int,
     "Elementwise integer ops in i8..i64 and ui8..ui64 with the corners of\n"
     "compiler/kernel/scalar.h: division and remainder by zero, INT_MIN / -1,\n"
     "shifts past the width, wrapping abs/negate, integer power."),
    ("compare_select", gen_compare,
     "compare in every direction with FLOAT (NaN), TOTALORDER (-NaN, -0, +0,\n"
     "NaN), WEAKORDER (NaNs equal and above +Inf, -0 == +0), SIGNED and UNSIGNED\n"
     "comparison types; select."),
    ("convert", gen_convert,
     "convert (saturating float->int, NaN->0, rounding to f16/bf16, wrapping\n"
     "int->int, to/from i1) and bitcast_convert."),
    ("shapes", gen_shapes,
     "broadcast_in_dim, reshape, transpose, slice, dynamic_slice,\n"
     "dynamic_update_slice, concatenate, pad, reverse, iota."),
    ("dot", gen_dot, "dot and dot_general: batching, transposed contracting "
     "dims, mixed\nprecision, several contracting dims."),
    ("convolution", gen_convolution,
     "convolution: NHWC/HWIO, strides, padding, lhs/rhs dilation, depthwise\n"
     "and grouped feature_group_count, NCHW/OIHW layouts, generic form."),
    ("reduce", gen_reduce, "reduce (sum, max, product, min, argmax as a "
     "two-operand reduce),\nreduce_window (max and average pooling) and select_and_scatter "
     "(max-pool\ngradients)."),
    ("control_flow", gen_control_flow, "while, if, case and func.call."),
    ("gather_scatter", gen_gather_scatter,
     "gather and scatter as JAX emits them for x[idx], x.at[idx].add(u) and\n"
     "x.at[idx].set(u)."),
    ("sort", gen_sort, "sort: one operand, several operands keyed on the "
     "first, stable."),
    ("scalars", gen_scalars, "arith scalar ops on values read with "
     "tensor.extract."),
    ("fusion", gen_fusion,
     "What dispatch formation fuses: matmul and convolution epilogues,\n"
     "softmax, layer norm, logsumexp, attention, producers of reductions,\n"
     "values with several uses."),
    ("large", gen_large,
     "Sizes that span many workgroups, tiles and vector lanes, with odd\n"
     "remainders; large inputs and expectations as hex blobs."),
    ("buffers", gen_buffers,
     "In-place updates whose operands live on, scatter into a constant,\n"
     "repeated calls with new inputs, results aliasing arguments, while loops\n"
     "that swap their carried buffers, control flow inside control flow."),
    ("edges", gen_edges,
     "i1 reductions (all/any), unsigned reductions, bf16 sums in f32, f16 and\n"
     "i1 structural ops, rank 0, rank 6, empty tensors, index types,\n"
     "optimization_barrier."),
    ("corners", gen_corners,
     "IEEE specials (inf, NaN, signed zeros), converts that must round once\n"
     "(f64 -> f16/bf16, i64/ui64 -> f32), 1-D convolution, point gathers,\n"
     "scatter max, i8 dot into i32, non-identity reduce inits, zero-trip while,\n"
     "if with two results, dilated reduce_window, sort of a middle dimension."),
    ("legacy_forms", gen_legacy_forms,
     "Older export forms: attribute dictionaries with dense<...> :\n"
     "tensor<Nxi64> arrays (TensorFlow and older JAX), argument attributes\n"
     "such as mhlo.sharding and jax.arg_info."),
    ("cfg", gen_cfg,
     "Functions with several blocks (cf.br, cf.cond_br), made structured by\n"
     "the importer: IREE's collatz model, loops leaving on either branch, a\n"
     "self loop, nested loops, if/else diamonds, branches that both return."),
    ("globals", gen_globals,
     "Mutable globals (util.global mutable, ml_program.global): state kept in\n"
     "the module across calls, a counter, a running sum, a KV-cache-like\n"
     "append, loads before and after a store, stores in loops and branches."),
    ("random_programs", gen_random_programs,
     "Seeded random DAGs of elementwise, broadcast, transpose, reshape, reduce,\n"
     "concatenate/slice, select and dot ops, each checked at every value no\n"
     "other op reads."),
    ("jax_programs", gen_jax_programs,
     "Small functions as JAX lowers them: jax.random's Threefry-2x32 rounds\n"
     "and uniform bits, jnp.cumsum, jax.nn.gelu, a cross-entropy loss;\n"
     "rng_bit_generator with THREE_FRY, PHILOX and DEFAULT against XLA's\n"
     "algorithms."),
    ("linalg", gen_linalg,
     "triangular_solve and cholesky, unrolled into slices, dot_general and\n"
     "elementwise ops."),
    ("normalization", gen_normalization,
     "batch_norm_inference, batch_norm_training, batch_norm_grad and\n"
     "reduce_precision, lowered as compositions of other ops."),
    ("chlo", gen_chlo,
     "CHLO ops as JAX emits them: the broadcast_* family and the math\n"
     "functions (acos, asinh, cosh, ..., zeta, polygamma) checked in ULP or\n"
     "tolerance against numpy and mpmath."),
    ("quant", gen_quant,
     "Quantized types (!quant.uniform, per-tensor and per-axis, i2..i16 and\n"
     "unsigned storage): uniform_quantize/dequantize, requantization, add,\n"
     "maximum, minimum, compare, select, data movement, gather, dot_general,\n"
     "convolution, constants, max pooling, against numpy following the spec's\n"
     "quantize/dequantize formulas; plain i2/i4 tensors (convert, constants)."),
    ("symbolic", gen_symbolic,
     "Shape-polymorphic functions (\"?\" dimensions: a symbolic batch,\n"
     "sequence length or row length) called at several sizes."),
    ("complex", gen_complex,
     "complex<f32> and complex<f64>: arithmetic, math functions, abs, real,\n"
     "imag, complex, convert, compare EQ/NE, dot_general, reduce, data\n"
     "movement and complex arguments of calls, against numpy's complex128."),
    ("fft", gen_fft,
     "stablehlo.fft: FFT, IFFT, RFFT and IRFFT over 1 to 3 trailing dims of\n"
     "complex<f32>/complex<f64> (f32/f64 on the real side), against numpy.fft."),
    ("rng", gen_rng,
     "stablehlo.rng (UNIFORM on floats, integers and i1; NORMAL on floats):\n"
     "implementation-defined numbers, so properties are checked: range, shape,\n"
     "the same numbers on each call, moments and quantiles of 4096 samples."),
    ("check_forms", gen_check_forms,
     "The check ops in IREE's form, the StableHLO interpreter's form and as\n"
     "stablehlo.custom_call; ops in the generic form; the interpreter's\n"
     "interpreter.run_parallel with collective_permute, all_reduce,\n"
     "all_gather, reduce_scatter, collective_broadcast and all_to_all,\n"
     "interpreter.probe and check.expect_serialized_eq."),
]



def main():
    # Overflow to infinity (f32 70000 -> f16) is what some tests check.
    np.seterr(over="ignore")
    os.makedirs(OUT, exist_ok=True)
    written = []
    for name, gen, doc in FAMILIES:
        header = (doc + "\n\nGenerated by scripts/gen_e2e_stablehlo.py; do not "
                  "edit. Run by grt-check:\ntest_* functions must pass, fail_* "
                  "functions must fail.")
        text = module("e2e_" + name, header, gen())
        path = os.path.join(OUT, name + ".mlir")
        with open(path, "w") as out:
            out.write(text)
        written.append(path)
    path = os.path.join(OUT, "jax_testdata.mlir")
    with open(path, "w") as out:
        out.write(jax_testdata_module())
    written.append(path)
    path = os.path.join(OUT, "testdata_main.mlir")
    with open(path, "w") as out:
        out.write(testdata_main_module())
    written.append(path)
    for path in written:
        print(os.path.relpath(path))


if __name__ == "__main__":
    main()
