"""Writes small ONNX models with a symbolic batch (dim_param "N") for the
compile_onnx_symbolic_*.test files: cnn.onnx (Conv, Relu, MaxPool, Flatten,
Gemm), view.onnx (torch.onnx.export's x.view(x.size(0), -1): Shape, Gather,
Unsqueeze, Concat, Reshape), merge.onnx (Reshape to [-1] and then to
[-1, 8]: the symbolic batch merged into 36N elements and split into rows
of 8, with merge_x{1,2,4}.npy inputs of N = 1, 2, 4 holding 0, 1, 2, ...),
heads.onnx (Reshape to [x.size(0) * 2, -1, 0]: a shape computed from the
batch, as torch's nn.MultiheadAttention export writes), stack.onnx (Concat
of two constant images after the batch, Flatten, MatMul: run at batch 0),
pad.onnx (Pad of the batch by 1 before and 2 after, each image summed
and negated), the Gathers from data with symbolic dimensions
gather_pool.onnx (BERT's pooling: axis 1 index 0 of [N, S, 4]),
gather_ends.onnx (axis 1 indices [-1, 0] of [N, S, 4]), gather_third.onnx
(axis 1 index 2 of [N, S, 4]), gather_rows.onnx
(axis 0 of [N, 3] by runtime indices [K]), gather_rows_const.onnx (axis 0
of [N, 3] by constant indices [-1, 0, -1]) and gather_refused.onnx (axis 1
of [N, S, 4] by runtime indices: refused), with pool_x{N}x{S}.npy inputs
of 0, 1, 2, ... for N = 1, 3 and S = 1, 5 and rows_x{1,3}.npy
and hardmax.onnx (an op that takes static shapes only).
Usage: onnx_symbolic_models.py OUTPUT_DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(nodes, inits, path):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 1, 6, 6])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    graph = helper.make_graph(nodes, "g", [x], [y], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


def main():
    out = sys.argv[1]
    rng = np.random.RandomState(0)

    def weights(name, *shape):
        return numpy_helper.from_array(rng.randn(*shape).astype(np.float32), name)

    save([helper.make_node("Conv", ["x", "wc", "bc"], ["c"], pads=[1, 1, 1, 1]),
          helper.make_node("Relu", ["c"], ["r"]),
          helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[3, 3], strides=[3, 3]),
          helper.make_node("Flatten", ["p"], ["f"]),
          helper.make_node("Gemm", ["f", "wg", "cg"], ["y"], transB=1)],
         [weights("wc", 2, 1, 3, 3), weights("bc", 2), weights("wg", 3, 8), weights("cg", 3)],
         os.path.join(out, "cnn.onnx"))
    ints = lambda name, values: numpy_helper.from_array(np.array(values, np.int64), name)
    save([helper.make_node("Shape", ["x"], ["s"]),
          helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
          helper.make_node("Unsqueeze", ["n", "axes"], ["n1"]),
          helper.make_node("Concat", ["n1", "rest"], ["shape"], axis=0),
          helper.make_node("Reshape", ["x", "shape"], ["y"])],
         [ints("zero", 0), ints("axes", [0]), ints("rest", [-1])],
         os.path.join(out, "view.onnx"))
    save([helper.make_node("Reshape", ["x", "flat"], ["f"]),
          helper.make_node("Reshape", ["f", "rows"], ["r"]),
          helper.make_node("Neg", ["r"], ["y"])],
         [ints("flat", [-1]), ints("rows", [-1, 8])], os.path.join(out, "merge.onnx"))
    # [N * 2, -1, 0] of [N, 1, 6, 6]: the batch times two heads (Shape,
    # Gather, Mul, Unsqueeze, Concat), a -1 of 36N / (2N * 6) = 3 and a
    # copied 6.
    save([helper.make_node("Shape", ["x"], ["s"]),
          helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
          helper.make_node("Mul", ["n", "two"], ["nh"]),
          helper.make_node("Unsqueeze", ["nh", "axes"], ["nh1"]),
          helper.make_node("Concat", ["nh1", "rest"], ["shape"], axis=0),
          helper.make_node("Reshape", ["x", "shape"], ["r"]),
          helper.make_node("Neg", ["r"], ["y"])],
         [ints("zero", 0), ints("two", 2), ints("axes", [0]), ints("rest", [-1, 0])],
         os.path.join(out, "heads.onnx"))
    for n in (1, 2, 4):
        np.save(os.path.join(out, "merge_x%d.npy" % n),
                np.arange(n * 36, dtype=np.float32).reshape(n, 1, 6, 6))
    save([helper.make_node("Hardmax", ["x"], ["y"])], [], os.path.join(out, "hardmax.onnx"))
    # Two constant images after the batch (Concat along it), flattened and
    # multiplied by a 36x2 matrix: rows [36 -18] and [72 -36] follow the
    # batch's, at any batch, 0 included.
    images = np.stack([np.full((1, 6, 6), 1, np.float32), np.full((1, 6, 6), 2, np.float32)])
    weights2 = np.stack([np.ones(36, np.float32), np.full(36, -0.5, np.float32)], axis=1)
    save([helper.make_node("Concat", ["x", "images"], ["c"], axis=0),
          helper.make_node("Flatten", ["c"], ["f"]),
          helper.make_node("MatMul", ["f", "w"], ["y"])],
         [numpy_helper.from_array(images, "images"), numpy_helper.from_array(weights2, "w")],
         os.path.join(out, "stack.onnx"))
    # One image of 5s before the batch and two after (constant Pad of the
    # symbolic dimension), each image's sum negated: -180 for the padding.
    save([helper.make_node("Pad", ["x", "pads", "five"], ["p"]),
          helper.make_node("Flatten", ["p"], ["f"]),
          helper.make_node("ReduceSum", ["f", "one"], ["s"], keepdims=0),
          helper.make_node("Neg", ["s"], ["y"])],
         [ints("pads", [1, 0, 0, 0, 2, 0, 0, 0]), ints("one", [1]),
          numpy_helper.from_array(np.array(5, np.float32), "five")],
         os.path.join(out, "pad.onnx"))

    save_gathers(out)


def save_gathers(out):
    def model(nodes, inputs, inits, name):
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
        graph = helper.make_graph(nodes, "g", inputs, [y], inits)
        onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
                  os.path.join(out, name))

    ints = lambda name, values: numpy_helper.from_array(np.array(values, np.int64), name)
    hidden = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "S", 4])
    rows = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])
    ids = helper.make_tensor_value_info("ids", TensorProto.INT64, ["K"])
    model([helper.make_node("Gather", ["x", "zero"], ["y"], axis=1)], [hidden],
          [ints("zero", 0)], "gather_pool.onnx")
    model([helper.make_node("Gather", ["x", "ends"], ["y"], axis=1)], [hidden],
          [ints("ends", [-1, 0])], "gather_ends.onnx")
    model([helper.make_node("Gather", ["x", "two"], ["y"], axis=1)], [hidden],
          [ints("two", 2)], "gather_third.onnx")
    model([helper.make_node("Gather", ["x", "ids"], ["y"], axis=0)], [rows, ids], [],
          "gather_rows.onnx")
    model([helper.make_node("Gather", ["x", "picks"], ["y"], axis=0)], [rows],
          [ints("picks", [-1, 0, -1])], "gather_rows_const.onnx")
    model([helper.make_node("Gather", ["x", "ids"], ["y"], axis=1)], [hidden, ids], [],
          "gather_refused.onnx")
    for n in (1, 3):
        for s in (1, 5):
            np.save(os.path.join(out, "pool_x%dx%d.npy" % (n, s)),
                    np.arange(n * s * 4, dtype=np.float32).reshape(n, s, 4))
        np.save(os.path.join(out, "rows_x%d.npy" % n),
                np.arange(n * 3, dtype=np.float32).reshape(n, 3))


if __name__ == "__main__":
    main()
