#!/usr/bin/python3
"""Writes ONNX models whose shapes a graph input's values set at run time
(Reshape's and Expand's shape, ConstantOfShape's shape, Slice's starts,
ends, axes and steps, Tile's repeats, Range's scalars, TopK's K,
OneHot's depth, Resize's sizes), in
the backend test layout (model.onnx, test_data_set_N/input_*.pb and
output_0.pb) for run_onnx_tests.py: each model is compiled once and run
with every data set, at several shape values (0 and -1 entries, sizes of
1, empty results), its outputs computed by numpy (the ONNX 1.12 here has
no onnx.reference) as the ONNX operator documents say.

The tools tests (tests/tools/compile_onnx_shape_data_*.test) compile the
same models and run them with values that must fail at the call, and the
models grt refuses (OUT_DIR/*.onnx, outside the case folders).

Usage: shape_data_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

TYPES = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.int64): TensorProto.INT64,
         np.dtype(np.int32): TensorProto.INT32}


def case(root, name, nodes, inputs, data_sets, reference, initializers=(),
         out_type=TensorProto.FLOAT):
    """inputs: [(name, elem type, shape with dim_param strings)];
    data_sets: lists of arrays, one per input; the output is "y", which
    reference(*arrays) computes."""
    folder = os.path.join(root, "test_" + name)
    infos = [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs]
    out = helper.make_tensor_value_info("y", out_type, None)
    graph = helper.make_graph(nodes, name, infos, [out], initializer=list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    # No onnx.checker: ONNX 1.12 asks for the output's shape, which the
    # data sets set.
    os.makedirs(folder, exist_ok=True)
    onnx.save(model, os.path.join(folder, "model.onnx"))
    for k, arrays in enumerate(data_sets):
        data = os.path.join(folder, "test_data_set_%d" % k)
        os.makedirs(data, exist_ok=True)
        for i, ((n, _, _), a) in enumerate(zip(inputs, arrays)):
            with open(os.path.join(data, "input_%d.pb" % i), "wb") as f:
                f.write(numpy_helper.from_array(a, n).SerializeToString())
        y = reference(*arrays)
        with open(os.path.join(data, "output_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(np.asarray(y), "y").SerializeToString())


def refused(root, name, nodes, inputs, initializers=(), out_shape=None, opset=13):
    """A model grt-compile refuses (or whose call fails at some inputs) for
    a tools test: OUT_DIR/NAME.onnx, outside the suite's case folders; y
    declared with out_shape."""
    infos = [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs]
    out = helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)
    graph = helper.make_graph(nodes, name, infos, [out], initializer=list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 7 if opset < 18 else 8
    onnx.save(model, os.path.join(root, name + ".onnx"))


def ints(*values, dtype=np.int64):
    return np.array(values, dtype)


def floats(*shape):
    return np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) - 3.5


def reshape(x, shape, allowzero=False):
    """ONNX Reshape: a 0 copies the input's dimension unless allowzero."""
    dims = [int(x.shape[i]) if d == 0 and not allowzero else int(d) for i, d in enumerate(shape)]
    return x.reshape(dims)


def expand(x, shape):
    """ONNX Expand: numpy's broadcast of x and the shape, both ways."""
    return x * np.ones([int(d) for d in shape], x.dtype)


def onnx_slice(x, starts, ends, axes=None, steps=None):
    """ONNX Slice: numpy's slicing (its clamping) on the axes named."""
    picks = [slice(None)] * x.ndim
    for i in range(len(starts)):
        axis = int(axes[i]) % x.ndim if axes is not None else i
        picks[axis] = slice(int(starts[i]), int(ends[i]), int(steps[i]) if steps is not None else 1)
    return x[tuple(picks)]


def main():
    root = sys.argv[1]
    F, I64, I32 = TensorProto.FLOAT, TensorProto.INT64, TensorProto.INT32
    # Reshape of a static 2x3x4 to a rank-3 shape read at the call: plain
    # sizes, 0 (copies the input's dimension), -1 (inferred), sizes of 1.
    x = floats(2, 3, 4)
    case(root, "reshape_data", [helper.make_node("Reshape", ["x", "shape"], ["r"]),
                                helper.make_node("Neg", ["r"], ["y"])],
         [("x", F, [2, 3, 4]), ("shape", I64, [3])],
         [[x, ints(4, 3, 2)], [x, ints(0, -1, 2)], [x, ints(2, 0, -1)], [x, ints(-1, 1, 1)],
          [x, ints(1, 1, -1)], [x, ints(0, 0, 0)], [x, ints(4, -1, 3)], [x, ints(1, 24, 1)]],
         lambda x, shape: -reshape(x, shape))
    # Rank 2; the shape's elements reach the Reshape through Concat, so
    # each is read from its own graph input: [k, -1] and [k, 0].
    case(root, "reshape_data_concat",
         [helper.make_node("Concat", ["k", "rest"], ["shape"], axis=0),
          helper.make_node("Reshape", ["x", "shape"], ["y"])],
         [("x", F, [2, 3, 4]), ("k", I64, [1]), ("rest", I64, [1])],
         [[x, ints(6), ints(-1)], [x, ints(-1), ints(4)], [x, ints(8), ints(0)],
          [x, ints(24), ints(-1)], [x, ints(1), ints(-1)]],
         lambda x, k, rest: reshape(x, np.concatenate([k, rest])))
    # A symbolic batch: [N, 4] reshaped at N = 3, 1 and 0.
    case(root, "reshape_data_symbolic", [helper.make_node("Reshape", ["x", "shape"], ["y"])],
         [("x", F, ["N", 4]), ("shape", I64, [2])],
         [[floats(3, 4), ints(-1, 2)], [floats(3, 4), ints(2, 6)], [floats(1, 4), ints(0, -1)],
          [floats(1, 4), ints(4, 1)], [floats(0, 4), ints(-1, 8)], [floats(0, 4), ints(0, 5)]],
         reshape)
    # allowzero=1: a 0 is a size of 0.
    case(root, "reshape_data_allowzero",
         [helper.make_node("Reshape", ["x", "shape"], ["y"], allowzero=1)],
         [("x", F, ["N", 3]), ("shape", I64, [3])],
         [[floats(0, 3), ints(3, 0, 5)], [floats(2, 3), ints(3, 2, 1)],
          [floats(2, 3), ints(-1, 1, 3)], [floats(0, 3), ints(0, 7, 2)]],
         lambda x, shape: reshape(x, shape, allowzero=True))
    # Expand of a 3x1 column to a rank-2 and a rank-3 shape read at the
    # call: a 1 keeps the input's 3, the column's 1 broadcasts (to 0 too).
    col = floats(3, 1)
    case(root, "expand_data", [helper.make_node("Expand", ["x", "shape"], ["y"])],
         [("x", F, [3, 1]), ("shape", I64, [2])],
         [[col, ints(3, 4)], [col, ints(1, 4)], [col, ints(3, 1)], [col, ints(1, 0)],
          [col, ints(1, 1)]], expand)
    case(root, "expand_data_rank3", [helper.make_node("Expand", ["x", "shape"], ["y"])],
         [("x", F, [3, 1]), ("shape", I64, [3])],
         [[col, ints(2, 1, 4)], [col, ints(1, 3, 1)], [col, ints(0, 3, 2)]], expand)
    # ConstantOfShape of an int32 7 at a shape read at the call.
    case(root, "constant_of_shape_data",
         [helper.make_node("ConstantOfShape", ["shape"], ["y"],
                           value=numpy_helper.from_array(np.array([7], np.int32)))],
         [("shape", I64, [2])], [[ints(2, 3)], [ints(0, 4)], [ints(1, 1)], [ints(3, 0)]],
         lambda shape: np.full([int(d) for d in shape], 7, np.int32), out_type=I32)
    # Slice of a 6x4 whose ends are read at the call: rows from 1 by 2
    # (an end past the rows clamps, a negative one counts from the back,
    # one before the start is empty), and columns from -3 (int32 ends).
    x = floats(6, 4)
    case(root, "slice_data_ends",
         [helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"])],
         [("x", F, [6, 4]), ("ends", I64, [1])],
         [[x, ints(6)], [x, ints(-1)], [x, ints(100)], [x, ints(-100)], [x, ints(0)],
          [x, ints(2)], [x, ints(3)]],
         lambda x, ends: x[1:int(ends[0]):2],
         initializers=[numpy_helper.from_array(ints(1), "starts"),
                       numpy_helper.from_array(ints(0), "axes"),
                       numpy_helper.from_array(ints(2), "steps")])
    case(root, "slice_data_ends_i32",
         [helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["y"])],
         [("x", F, [6, 4]), ("ends", I32, [1])],
         [[x, ints(4, dtype=np.int32)], [x, ints(-1, dtype=np.int32)],
          [x, ints(2, dtype=np.int32)], [x, ints(1, dtype=np.int32)]],
         lambda x, ends: x[:, -3:int(ends[0])],
         initializers=[numpy_helper.from_array(ints(-3), "starts"),
                       numpy_helper.from_array(ints(1), "axes")])
    # A symbolic batch sliced to its first rows: [0, end) of N rows.
    case(root, "slice_data_symbolic",
         [helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["y"])],
         [("x", F, ["N", 4]), ("ends", I64, [1])],
         [[floats(5, 4), ints(3)], [floats(2, 4), ints(3)], [floats(5, 4), ints(-1)],
          [floats(1, 4), ints(0)], [floats(0, 4), ints(2)]],
         lambda x, ends: x[0:int(ends[0])],
         initializers=[numpy_helper.from_array(ints(0), "starts"),
                       numpy_helper.from_array(ints(0), "axes")])
    # Slice whose starts (and ends) are read at the call: negative, past
    # either end, after the end (empty); with steps 2 and 3 on two axes;
    # on a symbolic batch.
    two = lambda a, b: ints(a, b)
    case(root, "slice_data_starts",
         [helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["y"])],
         [("x", F, [6, 4]), ("starts", I64, [1]), ("ends", I64, [1])],
         [[x, ints(1), ints(5)], [x, ints(-3), ints(100)], [x, ints(2), ints(1)],
          [x, ints(0), ints(-1)], [x, ints(5), ints(6)], [x, ints(-100), ints(3)],
          [x, ints(6), ints(6)]],
         lambda x, s, e: x[int(s[0]):int(e[0])],
         initializers=[numpy_helper.from_array(ints(0), "axes")])
    case(root, "slice_data_starts_steps",
         [helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"])],
         [("x", F, [6, 4]), ("starts", I64, [2]), ("ends", I64, [2])],
         [[x, two(0, 0), two(6, 4)], [x, two(1, -3), two(-1, 4)], [x, two(5, 1), two(0, 2)],
          [x, two(-2, 0), two(100, 1)]],
         lambda x, s, e: x[int(s[0]):int(e[0]):2, int(s[1]):int(e[1]):3],
         initializers=[numpy_helper.from_array(ints(0, 1), "axes"),
                       numpy_helper.from_array(ints(2, 3), "steps")])
    case(root, "slice_data_starts_symbolic",
         [helper.make_node("Slice", ["x", "starts", "ends"], ["y"])],
         [("x", F, ["N", 4]), ("starts", I64, [1]), ("ends", I64, [1])],
         [[floats(5, 4), ints(1), ints(4)], [floats(2, 4), ints(1), ints(4)],
          [floats(0, 4), ints(0), ints(1)], [floats(3, 4), ints(-2), ints(3)]],
         lambda x, s, e: x[int(s[0]):int(e[0])])
    # Slice whose axes and steps (and starts and ends) are read at the call,
    # on a 4x5x3: steps of 1, -1, 2, past the dimension and down to
    # INT64_MIN; negative axes; an axis no element names taken whole.
    big, small = np.iinfo(np.int64).max, np.iinfo(np.int64).min
    x = floats(4, 5, 3)
    case(root, "slice_data_axes_steps",
         [helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"])],
         [("x", F, [4, 5, 3]), ("starts", I64, [2]), ("ends", I64, [2]), ("axes", I64, [2]),
          ("steps", I64, [2])],
         [[x, two(0, 0), two(4, 5), two(0, 1), two(1, 1)],
          [x, two(1, -1), two(100, small), two(2, 0), two(1, -1)],
          [x, two(-1, 4), two(small, 0), two(-3, -2), two(-2, -3)],
          [x, two(0, 1), two(big, 5), two(1, 2), two(2, 7)],
          [x, two(3, 2), two(-100, 2), two(0, -1), two(-1, 1)],
          [x, two(-5, 0), two(5, 1), two(-2, 2), two(big, -1)]],
         onnx_slice)
    # Axes alone read at the call (starts, ends constant; steps absent).
    case(root, "slice_data_axes",
         [helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["y"])],
         [("x", F, [2, 3, 4]), ("axes", I32, [1])],
         [[floats(2, 3, 4), ints(a, dtype=np.int32)] for a in (0, 1, 2, -1, -3)],
         lambda x, axes: onnx_slice(x, ints(1), ints(3), axes),
         initializers=[numpy_helper.from_array(ints(1), "starts"),
                       numpy_helper.from_array(ints(3), "ends")])
    # A constant negative step beside starts read at the call.
    case(root, "slice_data_starts_negative_step",
         [helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"])],
         [("x", F, [6, 4]), ("starts", I64, [1]), ("ends", I64, [1])],
         [[floats(6, 4), ints(5), ints(0)], [floats(6, 4), ints(-1), ints(small)],
          [floats(6, 4), ints(0), ints(1)], [floats(6, 4), ints(100), ints(-3)]],
         lambda x, s, e: onnx_slice(x, s, e, ints(1), ints(-2)),
         initializers=[numpy_helper.from_array(ints(1), "axes"),
                       numpy_helper.from_array(ints(-2), "steps")])
    # TopK whose K is read at the call: the values of the largest along
    # the last axis, and the indices of the smallest along axis -2, for K
    # from 0 to the axis's size.
    mixed = np.random.RandomState(0).permutation(20).astype(np.float32).reshape(4, 5)
    case(root, "top_k_data", [helper.make_node("TopK", ["x", "k"], ["y", "i"])],
         [("x", F, [4, 5]), ("k", I64, [1])],
         [[mixed, ints(k)] for k in (0, 1, 3, 5)],
         lambda x, k: np.take_along_axis(x, np.argsort(-x, axis=1, kind="stable"), 1)[:, :int(k[0])])
    case(root, "top_k_data_smallest",
         [helper.make_node("TopK", ["x", "k"], ["v", "y"], axis=-2, largest=0)],
         [("x", F, [4, 5]), ("k", I32, [1])],
         [[mixed, ints(k, dtype=np.int32)] for k in (1, 2, 4)],
         lambda x, k: np.argsort(x, axis=0, kind="stable")[:int(k[0])], out_type=I64)
    # OneHot whose depth is read at the call (1, 3 and 5; negative indices
    # wrap, ones out of range give an all-off row), on the last axis and
    # on axis 0.
    def one_hot(indices, depth, axis):
        d = int(np.asarray(depth).reshape(-1)[0])
        wrapped = np.where(indices < 0, indices + d, indices)
        hot = wrapped[..., None] == np.arange(d)
        return np.moveaxis(np.where(hot, np.float32(5), np.float32(-1)), -1, axis)
    picks = ints(0, 1, -1, 2, 4, -3).reshape(2, 3)
    case(root, "one_hot_data",
         [helper.make_node("OneHot", ["indices", "depth", "values"], ["y"])],
         [("indices", I64, [2, 3]), ("depth", I64, [1])],
         [[picks, ints(d)] for d in (1, 3, 5)],
         lambda indices, depth: one_hot(indices, depth, -1),
         initializers=[numpy_helper.from_array(np.array([-1, 5], np.float32), "values")])
    case(root, "one_hot_data_axis",
         [helper.make_node("OneHot", ["indices", "depth", "values"], ["y"], axis=0)],
         [("indices", I64, [2, 3]), ("depth", I32, [])],
         [[picks, np.array(d, np.int32)] for d in (4, 1, 2)],
         lambda indices, depth: one_hot(indices, depth, 0),
         initializers=[numpy_helper.from_array(np.array([-1, 5], np.float32), "values")])
    # Resize (nearest) whose sizes are read at the call: a 2x3 to sizes
    # up, down, of 1, the same and 0, with each coordinate transformation
    # and nearest mode grt reads them for.
    def resize_nearest(x, sizes, coordinates, nearest):
        y = x
        for d, out in enumerate(int(s) for s in sizes):
            size = x.shape[d]
            scale = out / size
            picks = []
            for o in range(out):
                if coordinates == "asymmetric":
                    c = o / scale
                elif coordinates == "tf_half_pixel_for_nn":
                    c = (o + 0.5) / scale
                elif coordinates == "align_corners":
                    c = 0.0 if out == 1 else o * (size - 1) / (out - 1)
                elif coordinates == "pytorch_half_pixel":
                    c = (o + 0.5) / scale - 0.5 if out > 1 else 0.0
                else:
                    c = (o + 0.5) / scale - 0.5
                base = np.floor(c)
                ratio = c - base
                if c == base:
                    i = c
                elif nearest == "ceil":
                    i = base + 1
                elif nearest == "floor":
                    i = base
                elif nearest == "round_prefer_ceil":
                    i = base + (ratio >= 0.5)
                else:
                    i = base + (ratio > 0.5)
                picks.append(min(max(int(i), 0), size - 1))
            y = np.take(y, np.array(picks, np.int64), axis=d)
        return y
    small = floats(2, 3)
    for coordinates, nearest in [("half_pixel", "round_prefer_floor"), ("asymmetric", "floor"),
                                 ("align_corners", "round_prefer_ceil"),
                                 ("pytorch_half_pixel", "ceil"),
                                 ("tf_half_pixel_for_nn", "round_prefer_floor")]:
        case(root, "resize_data_" + coordinates,
             [helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], mode="nearest",
                               coordinate_transformation_mode=coordinates,
                               nearest_mode=nearest)],
             [("x", F, [2, 3]), ("sizes", I64, [2])],
             [[small, ints(*s)] for s in ((4, 6), (1, 1), (2, 3), (3, 7), (5, 2), (0, 2))],
             lambda x, sizes, c=coordinates, m=nearest: resize_nearest(x, sizes, c, m))
    # Tile of a 2x3 by repeats read at the call (0 repeats included).
    case(root, "tile_data", [helper.make_node("Tile", ["x", "repeats"], ["y"])],
         [("x", F, [2, 3]), ("repeats", I64, [2])],
         [[floats(2, 3), ints(1, 1)], [floats(2, 3), ints(2, 3)], [floats(2, 3), ints(0, 2)],
          [floats(2, 3), ints(3, 1)]],
         lambda x, repeats: np.tile(x, [int(t) for t in repeats]))
    # Range of int64 scalars that are graph inputs, and of an int32 limit
    # that is one (start and delta constants): lengths 5, 3, 4, 0 and 0.
    scalars = lambda *v: [np.array(a, np.int64) for a in v]
    case(root, "range_data", [helper.make_node("Range", ["start", "limit", "delta"], ["y"])],
         [("start", I64, []), ("limit", I64, []), ("delta", I64, [])],
         [scalars(0, 5, 1), scalars(2, 11, 3), scalars(10, 0, -3), scalars(5, 5, 1),
          scalars(3, 0, 1), scalars(-4, 4, 2), scalars(0, 1, 7)],
         lambda s, l, d: np.arange(s, l, d, dtype=np.int64), out_type=I64)
    case(root, "range_data_i32", [helper.make_node("Range", ["start", "limit", "delta"], ["y"])],
         [("limit", I32, [])],
         [[np.array(7, np.int32)], [np.array(1, np.int32)], [np.array(-2, np.int32)]],
         lambda l: np.arange(1, l, 2, dtype=np.int32),
         initializers=[numpy_helper.from_array(np.array(1, np.int32), "start"),
                       numpy_helper.from_array(np.array(2, np.int32), "delta")],
         out_type=I32)

    # For the tools tests: Slice's starts read from data (run with a few
    # values), a negative step with starts or ends read from data, Slice's
    # axes and steps read from data (bad values at the call), steps read
    # from data on symbolic data (refused), a Reshape to a shape of a
    # symbolic length, a float Range of graph inputs, and a Reshape whose
    # 0 has no input dimension to copy (rank 1 to 2).
    slice_inputs = ["x", "starts", "ends", "axes", "steps"]
    refused(root, "slice_starts", [helper.make_node("Slice", slice_inputs[:3], ["y"])],
            [("x", F, [3, 2]), ("starts", I64, [1]), ("ends", I64, [1])])
    refused(root, "slice_starts_negative_step",
            [helper.make_node("Slice", slice_inputs, ["y"])],
            [("x", F, [6, 4]), ("starts", I64, [1]), ("ends", I64, [1])],
            [numpy_helper.from_array(ints(0), "axes"), numpy_helper.from_array(ints(-1), "steps")])
    refused(root, "slice_negative_step", [helper.make_node("Slice", slice_inputs, ["y"])],
            [("x", F, [6, 4]), ("ends", I64, [1])],
            [numpy_helper.from_array(ints(5), "starts"), numpy_helper.from_array(ints(0), "axes"),
             numpy_helper.from_array(ints(-1), "steps")])
    refused(root, "slice_axes_steps", [helper.make_node("Slice", slice_inputs, ["y"])],
            [("x", F, [2, 3]), ("starts", I64, [1]), ("ends", I64, [1]), ("axes", I64, [1]),
             ("steps", I64, [1])])
    refused(root, "slice_steps_symbolic", [helper.make_node("Slice", slice_inputs, ["y"])],
            [("x", F, ["N", 2]), ("steps", I64, [1])],
            [numpy_helper.from_array(ints(0), "starts"), numpy_helper.from_array(ints(5), "ends"),
             numpy_helper.from_array(ints(0), "axes")])
    refused(root, "slice_axes_two", [helper.make_node("Slice", slice_inputs[:4], ["y"])],
            [("x", F, [2, 3]), ("axes", I64, [2])],
            [numpy_helper.from_array(ints(0, 0), "starts"),
             numpy_helper.from_array(ints(1, 1), "ends")])
    refused(root, "slice_axes_lengths", [helper.make_node("Slice", slice_inputs, ["y"])],
            [("x", F, [2, 3]), ("axes", I64, [2])],
            [numpy_helper.from_array(ints(0), "starts"), numpy_helper.from_array(ints(1), "ends"),
             numpy_helper.from_array(ints(1), "steps")])
    refused(root, "slice_steps_zero", [helper.make_node("Slice", slice_inputs, ["y"])],
            [("x", F, [2, 3]), ("axes", I64, [1])],
            [numpy_helper.from_array(ints(0), "starts"), numpy_helper.from_array(ints(1), "ends"),
             numpy_helper.from_array(ints(0), "steps")])
    # A Reshape to a shape read at the call whose output the model
    # declares 4x6: checked at the call.
    refused(root, "reshape_declared", [helper.make_node("Reshape", ["x", "shape"], ["y"])],
            [("x", F, [2, 3, 4]), ("shape", I64, [2])], out_shape=[4, 6])
    refused(root, "top_k_symbolic", [helper.make_node("TopK", ["x", "k"], ["y", "i"])],
            [("x", F, [2, "N"]), ("k", I64, [1])])
    refused(root, "one_hot_float_depth",
            [helper.make_node("OneHot", ["indices", "depth", "values"], ["y"])],
            [("indices", I64, [3]), ("depth", F, [1])],
            [numpy_helper.from_array(np.array([0, 1], np.float32), "values")])
    resize_inputs = ["x", "", "", "sizes"]
    refused(root, "resize_sizes", [helper.make_node("Resize", resize_inputs, ["y"], mode="nearest")],
            [("x", F, [2, 3]), ("sizes", I64, [2])])
    refused(root, "resize_sizes_linear",
            [helper.make_node("Resize", resize_inputs, ["y"], mode="linear")],
            [("x", F, [2, 3]), ("sizes", I64, [2])])
    refused(root, "resize_sizes_symbolic",
            [helper.make_node("Resize", resize_inputs, ["y"], mode="nearest")],
            [("x", F, ["N", 3]), ("sizes", I64, [2])])
    refused(root, "resize_sizes_empty",
            [helper.make_node("Resize", resize_inputs, ["y"], mode="nearest")],
            [("x", F, [0, 3]), ("sizes", I64, [2])])
    refused(root, "resize_sizes_policy",
            [helper.make_node("Resize", resize_inputs, ["y"], mode="nearest",
                              keep_aspect_ratio_policy="not_larger")],
            [("x", F, [2, 3]), ("sizes", I64, [2])], opset=18)
    refused(root, "reshape_any_rank", [helper.make_node("Reshape", ["x", "shape"], ["y"])],
            [("x", F, [6]), ("shape", I64, ["R"])])
    refused(root, "range_float", [helper.make_node("Range", ["start", "limit", "delta"], ["y"])],
            [("start", F, []), ("limit", F, []), ("delta", F, [])])
    refused(root, "reshape_rank_up", [helper.make_node("Reshape", ["x", "shape"], ["y"])],
            [("x", F, [6]), ("shape", I64, [2])])


if __name__ == "__main__":
    main()
