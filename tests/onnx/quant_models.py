#!/usr/bin/python3
"""Writes ONNX node tests for the integer matmuls (MatMulInteger,
QLinearMatMul) that ONNX's own test data lacks: int8 and mixed
uint8/int8 operands, per-row and per-column zero points, vector and
batched operands. Each is a folder in the backend test layout (model.onnx,
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


def save_case(root, name, op, inputs, output, attrs=None):
    """inputs: list of (name, array); output: array."""
    folder = os.path.join(root, "test_" + name)
    data = os.path.join(folder, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    infos = [helper.make_tensor_value_info(n, ONNX_TYPES[a.dtype.type], a.shape)
             for n, a in inputs]
    out = helper.make_tensor_value_info("y", ONNX_TYPES[output.dtype.type], output.shape)
    node = helper.make_node(op, [n for n, _ in inputs], ["y"], **(attrs or {}))
    graph = helper.make_graph([node], name, infos, [out])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(folder, "model.onnx"))
    for i, (n, a) in enumerate(inputs):
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


if __name__ == "__main__":
    main()
