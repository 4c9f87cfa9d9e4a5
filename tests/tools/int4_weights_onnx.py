#!/usr/bin/python3
"""Writes OUT_DIR/mm.onnx: MatMul(x, Cast(w) to float) and MatMul(x,
DequantizeLinear(w2, per-column scales 0.5)), w and w2 64x48 int8
initializers whose values fit 4 bits (so grt packs them two to a byte on
the CPU), with x.npy and the exact numpy results y.npy, y2.npy (x in
quarters: every sum is exact). For compile_onnx_int4_weights.test.

Usage: int4_weights_onnx.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
w = ((np.arange(64 * 48).reshape(64, 48) * 7) % 16 - 8).astype(np.int8)
w2 = ((np.arange(64 * 48).reshape(64, 48) * 5) % 16 - 8).astype(np.int8)
s = np.full((48,), 0.5, np.float32)
nodes = [helper.make_node("Cast", ["w"], ["wf"], to=TensorProto.FLOAT),
         helper.make_node("MatMul", ["x", "wf"], ["y"]),
         helper.make_node("DequantizeLinear", ["w2", "s"], ["wd"], axis=1),
         helper.make_node("MatMul", ["x", "wd"], ["y2"])]
graph = helper.make_graph(
    nodes, "int4_weights", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 64])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 48]),
     helper.make_tensor_value_info("y2", TensorProto.FLOAT, [2, 48])],
    initializer=[numpy_helper.from_array(w, "w"), numpy_helper.from_array(w2, "w2"),
                 numpy_helper.from_array(s, "s")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 7
onnx.checker.check_model(model)
onnx.save(model, os.path.join(out, "mm.onnx"))
x = ((np.arange(128).reshape(2, 64) % 9 - 4) * 0.25).astype(np.float32)
np.save(os.path.join(out, "x.npy"), x)
np.save(os.path.join(out, "y.npy"), x @ w.astype(np.float32))
np.save(os.path.join(out, "y2.npy"), x @ (w2.astype(np.float32) * 0.5))
