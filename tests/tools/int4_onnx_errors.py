#!/usr/bin/python3
"""Writes malformed ONNX models with INT4/UINT4 tensors (opset 21) into
OUT_DIR for the compile_onnx_int4_*.test error tests, one per error:

  zero_point_uint4.onnx   DequantizeLinear of INT4 x with a UINT4 zero point
  zero_point_int8.onnx    ... with an INT8 zero point (grt holds INT4 in i8)
  block_shape.onnx        block_size 3 along axis 0 of a (10, 4) x with
                          scales (3, 4): ceil(10 / 3) = 4 blocks
  block_negative.onnx     block_size -2
  bad_axis.onnx           per-axis scales with axis 2 of a matrix
  raw_count.onnx          an INT4 initializer of 7 values with 3 bytes
  int32_count.onnx        a UINT4 initializer of 6 values with 4 int32_data
  int32_byte.onnx         an INT4 int32_data entry of 300 (not a byte)
  quantize_int4.onnx      QuantizeLinear with an INT4 zero point

Usage: int4_onnx_errors.py OUT_DIR
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "onnx"))
from quant_models import int4_tensor  # noqa: E402


def save(out, name, nodes, inits, x_shape=(2, 4), y_shape=(2, 4)):
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("a", TensorProto.FLOAT, list(x_shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(y_shape))],
        initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    model.ir_version = 10
    with open(os.path.join(out, name + ".onnx"), "wb") as f:
        f.write(model.SerializeToString())


def dq_matmul(out, name, w, scale, zero=None, **attrs):
    """MatMul(a, DequantizeLinear(w, scale, zero)) with w (4, 4)-ish."""
    inputs = ["w", "s"] + (["z"] if zero is not None else [])
    nodes = [helper.make_node("DequantizeLinear", inputs, ["wf"], **attrs),
             helper.make_node("MatMul", ["a", "wf"], ["y"])]
    inits = [w, numpy_helper.from_array(np.asarray(scale, np.float32), "s")]
    if zero is not None:
        inits.append(zero)
    save(out, name, nodes, inits, x_shape=(2, w.dims[0]), y_shape=(2, w.dims[1]))


def main():
    out = sys.argv[1]
    w = np.arange(16).reshape(4, 4) % 16 - 8
    dq_matmul(out, "zero_point_uint4", int4_tensor("w", w, True), np.float32(0.5),
              int4_tensor("z", np.int64(3), False))
    dq_matmul(out, "zero_point_int8", int4_tensor("w", w, True), np.float32(0.5),
              numpy_helper.from_array(np.int8(3), "z"))
    w10 = np.arange(40).reshape(10, 4) % 16 - 8
    dq_matmul(out, "block_shape", int4_tensor("w", w10, True), np.full((3, 4), 0.5, np.float32),
              axis=0, block_size=3)
    dq_matmul(out, "block_negative", int4_tensor("w", w10, True),
              np.full((4, 4), 0.5, np.float32), axis=0, block_size=-2)
    dq_matmul(out, "bad_axis", int4_tensor("w", w, True), np.full((4,), 0.5, np.float32), axis=2)
    raw = int4_tensor("w", np.arange(7).reshape(7, 1) - 4, True)
    raw.raw_data = raw.raw_data[:3]
    dq_matmul(out, "raw_count", raw, np.float32(0.5))
    words = int4_tensor("w", np.arange(6).reshape(6, 1), False, int32_data=True)
    words.int32_data.append(0)
    dq_matmul(out, "int32_count", words, np.float32(0.5))
    byte = int4_tensor("w", w, True, int32_data=True)
    byte.int32_data[1] = 300
    dq_matmul(out, "int32_byte", byte, np.float32(0.5))
    nodes = [helper.make_node("QuantizeLinear", ["a", "s", "z"], ["q"]),
             helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"])]
    save(out, "quantize_int4", nodes,
         [numpy_helper.from_array(np.float32(0.5), "s"), int4_tensor("z", np.int64(1), True)])


if __name__ == "__main__":
    main()
