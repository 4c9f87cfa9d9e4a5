#!/usr/bin/python3
"""Writes ONNX node tests for the integer matmuls and convolutions
(MatMulInteger, QLinearMatMul, ConvInteger, QLinearConv) that ONNX's own
test data lacks: int8 and mixed uint8/int8 operands, per-row, per-column
and per-output-channel zero points, vector and batched operands, padding,
strides, dilations, groups and constant weights (initializers). Each is a folder in the backend test layout (model.onnx,
test_data_set_0/input_*.pb, output_0.pb) with numpy integer references, for
run_onnx_tests.py.

Usage: quant_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ONNX_TYPES = {np.int8: TensorProto.INT8, np.uint8: TensorProto.UINT8,
              np.int32: TensorProto.INT32, np.float32: TensorProto.FLOAT}


def save_case(root, name, op, inputs, output, attrs=None, initializers=()):
    """inputs: list of (name, array); output: array; initializers: names of
    inputs that are the graph's initializers (constants) instead."""
    folder = os.path.join(root, "test_" + name)
    data = os.path.join(folder, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    infos = [helper.make_tensor_value_info(n, ONNX_TYPES[a.dtype.type], a.shape)
             for n, a in inputs if n not in initializers]
    out = helper.make_tensor_value_info("y", ONNX_TYPES[output.dtype.type], output.shape)
    node = helper.make_node(op, [n for n, _ in inputs], ["y"], **(attrs or {}))
    graph = helper.make_graph([node], name, infos, [out],
                              initializer=[numpy_helper.from_array(a, n)
                                           for n, a in inputs if n in initializers])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(folder, "model.onnx"))
    for i, (n, a) in enumerate([(n, a) for n, a in inputs if n not in initializers]):
        with open(os.path.join(data, "input_%d.pb" % i), "wb") as f:
            f.write(numpy_helper.from_array(a, n).SerializeToString())
    with open(os.path.join(data, "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(output, "y").SerializeToString())


def ints(rng, dtype, shape):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max + 1, size=shape).astype(dtype)


def matmul_integer(a, b, za, zb):
    """numpy integer reference: (a - za) @ (b - zb) in int64, as int32."""
    a64 = a.astype(np.int64)
    b64 = b.astype(np.int64)
    za64 = np.asarray(za, np.int64)
    zb64 = np.asarray(zb, np.int64)
    if a.ndim >= 2 and za64.ndim == 1:
        za64 = za64.reshape(-1, 1)
    return np.matmul(a64 - za64, b64 - zb64).astype(np.int32)


def conv_integer(x, w, zx, zw, strides=(1, 1), pads=(0, 0, 0, 0), dilations=(1, 1),
                 group=1):
    """numpy integer reference of ConvInteger (NCHW, OIHW): the convolution
    of x - zx (zero padding, so padding stands for zx) with w - zw (zw per
    output channel or one), in int64, as int32."""
    x64 = x.astype(np.int64) - np.asarray(zx, np.int64)
    zw64 = np.asarray(zw, np.int64)
    w64 = w.astype(np.int64) - (zw64.reshape(-1, 1, 1, 1) if zw64.ndim else zw64)
    x64 = np.pad(x64, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    n, c, h, wd = x64.shape
    m, cg, kh, kw = w64.shape
    eh, ew = (kh - 1) * dilations[0] + 1, (kw - 1) * dilations[1] + 1
    oh, ow = (h - eh) // strides[0] + 1, (wd - ew) // strides[1] + 1
    y = np.zeros((n, m, oh, ow), np.int64)
    mg = m // group
    for o in range(m):
        g = o // mg
        for i in range(oh):
            for j in range(ow):
                patch = x64[:, g * cg:(g + 1) * cg,
                            i * strides[0]:i * strides[0] + eh:dilations[0],
                            j * strides[1]:j * strides[1] + ew:dilations[1]]
                y[:, o, i, j] = np.tensordot(patch, w64[o], axes=([1, 2, 3], [0, 1, 2]))
    return y.astype(np.int32)


def conv_cases(root, rng):
    # ConvInteger: (name, x type, x shape, w type, w shape, zero points?, zw per
    # channel?, attributes, constant weights?)
    cases = [
        ("i8_i8", np.int8, (1, 3, 9, 10), np.int8, (4, 3, 3, 3), False, False,
         {"pads": [1, 1, 1, 1]}, False),
        ("i8_zero_points_per_channel", np.int8, (2, 3, 9, 10), np.int8, (4, 3, 3, 3), True,
         True, {"pads": [1, 1, 1, 1]}, False),
        ("u8_i8_strided_grouped", np.uint8, (1, 4, 11, 12), np.int8, (6, 2, 3, 3), True,
         True, {"pads": [2, 1, 0, 2], "strides": [2, 2], "dilations": [2, 2], "group": 2},
         False),
        ("u8_u8_constant_weights", np.uint8, (1, 16, 8, 8), np.uint8, (8, 16, 3, 3), True,
         False, {"pads": [1, 1, 1, 1]}, True),
        ("i8_depthwise_constant", np.int8, (1, 5, 7, 7), np.int8, (5, 1, 3, 3), True, True,
         {"pads": [1, 1, 1, 1], "group": 5}, True),
        ("i8_k_past_512", np.int8, (1, 64, 6, 6), np.int8, (8, 64, 3, 3), True, False,
         {"pads": [1, 1, 1, 1]}, False),
    ]
    for name, tx, sx, tw, sw, with_zero, per_channel, attrs, constant in cases:
        x, w = ints(rng, tx, sx), ints(rng, tw, sw)
        zx = ints(rng, tx, ()) if with_zero else np.zeros((), tx)
        zw = ints(rng, tw, (sw[0],) if per_channel else ()) if with_zero else np.zeros((), tw)
        inputs = [("x", x), ("w", w)]
        if with_zero:
            inputs += [("x_zero_point", zx), ("w_zero_point", zw)]
        kernel = {"kernel_shape": list(sw[2:])}
        save_case(root, "grt_convinteger_" + name, "ConvInteger", inputs,
                  conv_integer(x, w, zx, zw, attrs.get("strides", (1, 1)),
                               attrs.get("pads", (0, 0, 0, 0)),
                               attrs.get("dilations", (1, 1)), attrs.get("group", 1)),
                  attrs=dict(attrs, **kernel),
                  initializers=("w", "w_zero_point") if constant else ())
    # QLinearConv: per-tensor and per-channel w scales, int8 and uint8
    # results, a bias; power-of-two scales keep x_scale * w_scale / y_scale
    # exact, so the reference rounds once, half to even, and saturates.
    for name, tx, tw, ty, per_channel, constant in [
            ("i8", np.int8, np.int8, np.int8, False, False),
            ("u8_i8_per_channel_bias", np.uint8, np.int8, np.uint8, True, True)]:
        x, w = ints(rng, tx, (1, 8, 10, 10)), ints(rng, tw, (6, 8, 3, 3))
        zx, zy = ints(rng, tx, ()), ints(rng, ty, ())
        zw = ints(rng, tw, (6,) if per_channel else ())
        sx = np.float32(0.0625)
        sw = (np.array([0.125, 0.25, 0.5, 0.0625, 0.125, 1.0], np.float32) if per_channel
              else np.float32(0.125))
        sy = np.float32(32.0)
        bias = rng.integers(-5000, 5000, size=(6,)).astype(np.int32)
        acc = conv_integer(x, w, zx, zw, pads=(1, 1, 1, 1)).astype(np.int64)
        acc = (acc + bias.reshape(1, -1, 1, 1)).astype(np.float32)
        multiplier = (sx * np.asarray(sw, np.float32) / sy).astype(np.float32)
        if per_channel:
            multiplier = multiplier.reshape(1, -1, 1, 1)
        value = acc * multiplier + np.float32(zy)
        info = np.iinfo(ty)
        y = np.clip(np.rint(value), info.min, info.max).astype(ty)
        inputs = [("x", x), ("x_scale", np.array(sx)), ("x_zero_point", zx),
                  ("w", w), ("w_scale", np.array(sw, np.float32)), ("w_zero_point", zw),
                  ("y_scale", np.array(sy)), ("y_zero_point", zy), ("B", bias)]
        save_case(root, "grt_qlinearconv_" + name, "QLinearConv", inputs, y,
                  attrs={"pads": [1, 1, 1, 1], "kernel_shape": [3, 3]},
                  initializers=("w", "w_scale", "w_zero_point", "B") if constant else ())


def main():
    root = sys.argv[1]
    rng = np.random.default_rng(15)
    # MatMulInteger: (name, a type, a shape, b type, b shape, za per row?, zb per column?)
    cases = [
        ("i8_i8", np.int8, (5, 33), np.int8, (33, 7), False, False),
        ("i8_i8_zero_points", np.int8, (6, 40), np.int8, (40, 9), False, False),
        ("i8_i8_per_row_col", np.int8, (6, 40), np.int8, (40, 9), True, True),
        ("u8_i8", np.uint8, (4, 64), np.int8, (64, 16), False, False),
        ("u8_u8_per_col", np.uint8, (3, 17), np.uint8, (17, 5), False, True),
        ("i8_batched", np.int8, (2, 3, 6, 20), np.int8, (20, 8), True, False),
        ("u8_batched_both", np.uint8, (2, 5, 12), np.int8, (2, 12, 4), False, True),
        ("i8_vector_lhs", np.int8, (24,), np.int8, (24, 6), False, True),
        ("u8_vector_rhs", np.uint8, (7, 24), np.uint8, (24,), True, False),
    ]
    for name, ta, sa, tb, sb, row, col in cases:
        a, b = ints(rng, ta, sa), ints(rng, tb, sb)
        with_zero = name != "i8_i8"
        za = ints(rng, ta, (sa[-2],) if row else ()) if with_zero else np.zeros((), ta)
        zb = ints(rng, tb, (sb[-1],) if col else ()) if with_zero else np.zeros((), tb)
        inputs = [("a", a), ("b", b)]
        if with_zero:
            inputs += [("a_zero_point", za), ("b_zero_point", zb)]
        save_case(root, "grt_matmulinteger_" + name, "MatMulInteger", inputs,
                  matmul_integer(a, b, za, zb))
    # QLinearMatMul: per-tensor parameters, int8 and uint8 results,
    # rounding half to even and saturation.
    for name, ta, tb, ty in [("i8", np.int8, np.int8, np.int8),
                             ("u8_i8", np.uint8, np.int8, np.uint8)]:
        a, b = ints(rng, ta, (8, 48)), ints(rng, tb, (48, 10))
        za, zb, zy = ints(rng, ta, ()), ints(rng, tb, ()), ints(rng, ty, ())
        sa, sb = np.float32(0.0625), np.float32(0.125)
        sy = np.float32(16.0)
        acc = matmul_integer(a, b, za, zb).astype(np.float32)
        # ONNX's reference: acc * (sa * sb / sy) + zy, rounded half to even, saturated.
        value = acc * (sa * sb / sy) + np.float32(zy)
        info = np.iinfo(ty)
        y = np.clip(np.rint(value), info.min, info.max).astype(ty)
        inputs = [("a", a), ("a_scale", np.array(sa)), ("a_zero_point", za),
                  ("b", b), ("b_scale", np.array(sb)), ("b_zero_point", zb),
                  ("y_scale", np.array(sy)), ("y_zero_point", zy)]
        save_case(root, "grt_qlinearmatmul_" + name, "QLinearMatMul", inputs, y)
    conv_cases(root, rng)


if __name__ == "__main__":
    main()
