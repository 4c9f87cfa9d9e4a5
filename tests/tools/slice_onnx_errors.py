#!/usr/bin/python3
"""Writes ONNX Slice models whose starts, ends, axes and steps disagree in
length into OUT_DIR, for the compile_onnx_slice_*.test error tests:

  slice_lengths.onnx       constant starts of 2 values, ends of 1
  slice_starts_data.onnx   starts read from a graph input (2 values),
                           constant ends of 3 values
  slice_starts_rank.onnx   constant starts and ends of 3 values, no axes,
                           for a rank-2 input

Usage: slice_onnx_errors.py OUT_DIR
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper


def save(out, name, inputs, inits):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 6])
    graph = helper.make_graph(
        [helper.make_node("Slice", ["x", "starts", "ends"], ["y"])], name,
        [x] + inputs, [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        initializer=[numpy_helper.from_array(np.array(v, np.int64), k)
                     for k, v in inits.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    with open(os.path.join(out, name + ".onnx"), "wb") as f:
        f.write(model.SerializeToString())


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    save(out, "slice_lengths", [], {"starts": [0, 1], "ends": [2]})
    save(out, "slice_starts_data",
         [helper.make_tensor_value_info("starts", TensorProto.INT64, [2])],
         {"ends": [2, 3, 4]})
    save(out, "slice_starts_rank", [], {"starts": [0, 0, 0], "ends": [1, 1, 1]})


if __name__ == "__main__":
    main()
