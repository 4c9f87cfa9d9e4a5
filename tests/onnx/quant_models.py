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


def conv_nchw(x, w, strides=(1, 1), pads=(0, 0, 0, 0), dilations=(1, 1), group=1):
    """Conv of x (NCHW) with w (OIHW), zero padding, in x's dtype (int64
    or float64 for exact sums)."""
    x = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    eh, ew = (kh - 1) * dilations[0] + 1, (kw - 1) * dilations[1] + 1
    oh, ow = (h - eh) // strides[0] + 1, (wd - ew) // strides[1] + 1
    y = np.zeros((n, m, oh, ow), x.dtype)
    mg = m // group
    for o in range(m):
        g = o // mg
        for i in range(oh):
            for j in range(ow):
                patch = x[:, g * cg:(g + 1) * cg,
                          i * strides[0]:i * strides[0] + eh:dilations[0],
                          j * strides[1]:j * strides[1] + ew:dilations[1]]
                y[:, o, i, j] = np.tensordot(patch, w[o], axes=([1, 2, 3], [0, 1, 2]))
    return y


def conv_integer(x, w, zx, zw, strides=(1, 1), pads=(0, 0, 0, 0), dilations=(1, 1),
                 group=1):
    """numpy integer reference of ConvInteger (NCHW, OIHW): the convolution
    of x - zx (zero padding, so padding stands for zx) with w - zw (zw per
    output channel or one), in int64, as int32."""
    x64 = x.astype(np.int64) - np.asarray(zx, np.int64)
    zw64 = np.asarray(zw, np.int64)
    w64 = w.astype(np.int64) - (zw64.reshape(-1, 1, 1, 1) if zw64.ndim else zw64)
    return conv_nchw(x64, w64, strides, pads, dilations, group).astype(np.int32)


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


#===----------------------------------------------------------------------===#
# QDQ models: DequantizeLinear -> Conv/MatMul/Gemm [-> QuantizeLinear], as
# ONNX Runtime's quantization tools write them, which grt folds into its
# integer convolution and product. The references follow ONNX's float
# semantics (dequantize in f32, the op, quantize with rounding half to even
# and saturation), computed in float64. Power-of-two scales make every
# value and sum exact in f32, so any correct implementation gives these
# bits; the one case with other scales keeps every quantized value at
# least 1e-3 of a step away from a rounding boundary.
#===----------------------------------------------------------------------===#

# grt-compile's tensor IR after folding must hold an int8 x int8 -> int32
# convolution or dot_general and no f32 one (run_onnx_tests.py checks
# grt_expect_ir.txt): a model that silently falls back to f32 fails.
QDQ_EXPECT_IR = (
    "dump fold\n"
    "require stablehlo\\.(convolution|dot_general) .*: \\(tensor<[0-9x]*xi8>, "
    "tensor<[0-9x]*xi8>\\) -> tensor<[0-9x]*xi32>\n"
    "forbid stablehlo\\.(convolution|dot_general) .*: \\(tensor<[0-9x]*xf32>\n")

class Graph:
    """A graph under construction: nodes in order and initializers."""

    def __init__(self):
        self.nodes, self.inits, self.count = [], [], 0

    def const(self, array, name=None):
        self.count += 1
        name = name or "c%d" % self.count
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def node(self, op, inputs, out=None, **attrs):
        self.count += 1
        out = out or "t%d" % self.count
        self.nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out

    def dq(self, q_name, scale, zero, axis=None):
        """DequantizeLinear of input q_name with constant scale and zero point
        (None: no zero point input)."""
        inputs = [q_name, self.const(np.asarray(scale, np.float32))]
        if zero is not None:
            inputs.append(self.const(zero))
        return self.node("DequantizeLinear", inputs, **({} if axis is None else {"axis": axis}))

    def q(self, x_name, scale, zero, out=None):
        return self.node("QuantizeLinear", [x_name, self.const(np.float32(scale)),
                                            self.const(zero)], out=out)


def save_graph(root, name, g, inputs, output, expect_ir=QDQ_EXPECT_IR, opset=13):
    """inputs: (name, array) graph inputs; output: the array graph output
    'y' must equal; expect_ir: grt_expect_ir.txt's text (None: none);
    opset: the default domain's (21 for INT4/UINT4, which this onnx
    package may predate: such models are not checked)."""
    folder = os.path.join(root, "test_" + name)
    data = os.path.join(folder, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    infos = [helper.make_tensor_value_info(n, ONNX_TYPES[a.dtype.type], a.shape)
             for n, a in inputs]
    out = helper.make_tensor_value_info("y", ONNX_TYPES[output.dtype.type], output.shape)
    graph = helper.make_graph(g.nodes, name, infos, [out], initializer=g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 7 if opset == 13 else 10
    if opset == 13:
        onnx.checker.check_model(model)
    onnx.save(model, os.path.join(folder, "model.onnx"))
    for i, (n, a) in enumerate(inputs):
        with open(os.path.join(data, "input_%d.pb" % i), "wb") as f:
            f.write(numpy_helper.from_array(a, n).SerializeToString())
    with open(os.path.join(data, "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(output, "y").SerializeToString())
    if expect_ir is not None:
        with open(os.path.join(folder, "grt_expect_ir.txt"), "w") as f:
            f.write(expect_ir)


def pow2(value):
    """The power of two nearest |value| (in log scale), as float32."""
    return np.float32(2.0 ** np.round(np.log2(float(value))))


def dequantize(q, scale, zero, axis=None):
    """DequantizeLinear: (q - zero) * scale in f32, scale and zero point one
    value or one per dimension |axis| of q."""
    s = np.asarray(scale, np.float32)
    z = np.asarray(0 if zero is None else zero).astype(np.float32)
    if s.ndim == 1:
        shape = [1] * q.ndim
        shape[axis] = -1
        s = s.reshape(shape)
        z = z.reshape(shape) if z.ndim else z
    return ((q.astype(np.float32) - z) * s).astype(np.float32)


def quantize(v, scale, zero, dtype, margin=None):
    """QuantizeLinear: saturate(round_half_even(v / scale) + zero). With
    |margin|, v / scale must lie at least that far from every half step."""
    r = v.astype(np.float64) / np.float64(np.float32(scale))
    if margin is not None:
        distance = np.abs(r - np.floor(r) - 0.5)
        assert distance.min() > margin, "value within %g of a rounding boundary" % margin
    info = np.iinfo(dtype)
    return np.clip(np.rint(r) + float(zero), info.min, info.max).astype(dtype)


def conv_f32(x, w, b=None, **attrs):
    """Conv of f32 x and w with exact sums, rounded to f32 (+ bias)."""
    y = conv_nchw(x.astype(np.float64), w.astype(np.float64), attrs.get("strides", (1, 1)),
                  attrs.get("pads", (0, 0, 0, 0)), attrs.get("dilations", (1, 1)),
                  attrs.get("group", 1)).astype(np.float32)
    return y if b is None else (y + b.reshape(1, -1, 1, 1)).astype(np.float32)


def output_scale(v):
    """A power-of-two scale that spreads |v| over about +-40 steps (some
    values saturate)."""
    return pow2(np.std(v.astype(np.float64)) / 14 + 1e-30)


def qdq_weights(g, rng, inputs, name, w, per_axis, axis, with_zero, constant):
    """DequantizeLinear of weights |w| named |name|: an initializer, or
    without |constant| a graph input appended to |inputs|. Scales are powers
    of two, one or (|per_axis|) one per dimension |axis|; zero points random
    (|with_zero|), else zeros per axis or absent. Returns the result's name,
    the scale and the zero point."""
    count, tw = w.shape[axis], w.dtype.type
    sw = (np.array([pow2(v) for v in rng.uniform(0.002, 0.05, count)], np.float32)
          if per_axis else pow2(0.01))
    zw = (ints(rng, tw, (count,) if per_axis else ()) if with_zero
          else (np.zeros((count,), tw) if per_axis else None))
    if constant:
        w_name = g.const(w, name)
    else:
        w_name = name
        inputs.append((name, w))
    return g.dq(w_name, sw, zw, axis=axis if per_axis else None), sw, zw


def qdq_conv_cases(root, rng):
    # (name, x type, x shape, w type, w shape, w per channel?, zero points of
    # w?, constant w?, int32 bias?, relu?, output type (None: f32), attributes)
    cases = [
        ("conv_u8_i8_q", np.uint8, (1, 3, 9, 9), np.int8, (8, 3, 3, 3), False, False, True,
         False, False, np.uint8, {"pads": [1, 1, 1, 1]}),
        ("conv_i8_per_channel_bias_relu_q", np.int8, (2, 4, 10, 11), np.int8, (6, 4, 3, 3),
         True, True, True, True, True, np.int8, {"pads": [1, 0, 1, 2], "strides": [2, 2]}),
        ("conv_u8_depthwise_u8_weights", np.uint8, (1, 5, 8, 8), np.uint8, (5, 1, 3, 3), True,
         True, True, False, False, None, {"pads": [2, 2, 2, 2], "dilations": [2, 2],
                                          "group": 5}),
        ("conv_i8_runtime_weights_grouped", np.int8, (1, 4, 7, 7), np.int8, (6, 2, 3, 3),
         False, True, False, False, False, None, {"group": 2}),
        ("conv_u8_k_past_512_q", np.uint8, (1, 64, 6, 6), np.int8, (8, 64, 3, 3), True, False,
         True, True, False, np.uint8, {"pads": [1, 1, 1, 1]}),
    ]
    for name, tx, sx_shape, tw, sw_shape, per_channel, w_zero, constant, int_bias, relu, ty, \
            attrs in cases:
        m = sw_shape[0]
        x, w = ints(rng, tx, sx_shape), ints(rng, tw, sw_shape)
        if tw == np.int8:
            w = np.maximum(w, -127).astype(np.int8)  # symmetric weights, as quantizers make
        zx = ints(rng, tx, ())
        sx = pow2(rng.uniform(0.01, 0.1))
        g = Graph()
        inputs = [("x", x)]
        xf = g.dq("x", sx, zx)
        wf, sw, zw = qdq_weights(g, rng, inputs, "w", w, per_channel, 0, w_zero, constant)
        x_ref = dequantize(x, sx, zx)
        w_ref = dequantize(w, sw, zw, 0)
        conv_inputs = [xf, wf]
        bias_ref = None
        if int_bias:
            # ONNX Runtime's bias: int32 with scale x_scale * w_scale.
            bias = rng.integers(-20000, 20000, size=(m,)).astype(np.int32)
            sb = (sx * sw).astype(np.float32)
            conv_inputs.append(g.dq(g.const(bias), sb, np.zeros(sb.shape, np.int32),
                                    axis=0 if per_channel else None))
            bias_ref = dequantize(bias, sb, 0, 0)
        full = dict(attrs, kernel_shape=list(sw_shape[2:]))
        y_name = g.node("Conv", conv_inputs, out=None if relu or ty else "y", **full)
        y = conv_f32(x_ref, w_ref, bias_ref, **attrs)
        if relu:
            y_name = g.node("Relu", [y_name], out=None if ty else "y")
            y = np.maximum(y, 0)
        if ty:
            sy, zy = output_scale(y), ints(rng, ty, ())
            g.q(y_name, sy, zy, out="y")
            y = quantize(y, sy, zy, ty)
        save_graph(root, "grt_qdq_" + name, g, inputs, y)


def qdq_matmul_cases(root, rng):
    # MatMul: (name, a type, a shape, b type, b shape, b per column?, zero
    # points of b?, constant b?, output type (None: f32))
    for name, ta, sa_shape, tb, sb_shape, per_column, b_zero, constant, ty in [
            ("matmul_u8_i8_per_column_q", np.uint8, (2, 5, 32), np.int8, (32, 16), True, False,
             True, np.uint8),
            ("matmul_i8_u8_runtime", np.int8, (6, 40), np.uint8, (40, 9), False, True, False,
             None),
            ("matmul_i8_vector_rhs", np.int8, (4, 24), np.int8, (24,), False, True, True, None)]:
        a, b = ints(rng, ta, sa_shape), ints(rng, tb, sb_shape)
        za = ints(rng, ta, ())
        sa = pow2(0.05)
        g = Graph()
        inputs = [("a", a)]
        af = g.dq("a", sa, za)
        bf, sb, zb = qdq_weights(g, rng, inputs, "b", b, per_column, len(sb_shape) - 1, b_zero,
                                 constant)
        g.node("MatMul", [af, bf], out=None if ty else "y")
        y = np.matmul(dequantize(a, sa, za).astype(np.float64),
                      dequantize(b, sb, zb, len(sb_shape) - 1).astype(np.float64))
        y = y.astype(np.float32)
        if ty:
            sy, zy = output_scale(y), ints(rng, ty, ())
            g.q(g.nodes[-1].output[0], sy, zy, out="y")
            y = quantize(y, sy, zy, ty)
        save_graph(root, "grt_qdq_" + name, g, inputs, y)
    # Gemm: weights (N, K) with transB and per output channel, as ONNX
    # Runtime's quantizer writes a Linear layer; and transA with alpha and
    # beta.
    for name, trans_a, trans_b, alpha, beta, ty in [
            ("gemm_transb_per_channel_q", False, True, 1.0, 1.0, np.int8),
            ("gemm_transa_alpha_beta", True, False, 0.5, 2.0, None)]:
        m, k, n = 6, 40, 12
        a = ints(rng, np.uint8, (k, m) if trans_a else (m, k))
        b = np.maximum(ints(rng, np.int8, (n, k) if trans_b else (k, n)), -127).astype(np.int8)
        za = ints(rng, np.uint8, ())
        sa = pow2(0.02)
        sb = np.array([pow2(v) for v in rng.uniform(0.002, 0.05, n)], np.float32)
        axis = 0 if trans_b else 1
        c = (rng.integers(-64, 64, size=(n,) if trans_b else (m, n)) / 16).astype(np.float32)
        g = Graph()
        af = g.dq("a", sa, za)
        bf = g.dq(g.const(b, "b"), sb, np.zeros((n,), np.int8), axis=axis)
        g.node("Gemm", [af, bf, g.const(c)], out=None if ty else "y", transA=int(trans_a),
               transB=int(trans_b), alpha=alpha, beta=beta)
        af_ref = dequantize(a, sa, za).astype(np.float64)
        bf_ref = dequantize(b, sb, None, axis).astype(np.float64)
        y = np.matmul(af_ref.T if trans_a else af_ref, bf_ref.T if trans_b else bf_ref)
        y = (np.float32(alpha) * y.astype(np.float32) + np.float32(beta) * c).astype(np.float32)
        if ty:
            sy, zy = output_scale(y), ints(rng, ty, ())
            g.q(g.nodes[-1].output[0], sy, zy, out="y")
            y = quantize(y, sy, zy, ty)
        save_graph(root, "grt_qdq_" + name, g, [("a", a)], y)
    # Scales as calibration gives them (not powers of two): the product
    # and the quantization round in f32, the reference sums exactly; the
    # data keeps every result 1e-3 of a step from a rounding boundary.
    for attempt in range(100):
        a, b = ints(rng, np.uint8, (8, 64)), np.maximum(ints(rng, np.int8, (64, 10)), -127)
        b = b.astype(np.int8)
        za, sa = np.uint8(119), np.float32(0.0137)
        sb = rng.uniform(0.002, 0.01, 10).astype(np.float32)
        y = np.matmul(dequantize(a, sa, za).astype(np.float64),
                      dequantize(b, sb, None, 1).astype(np.float64)).astype(np.float32)
        sy, zy = np.float32(0.0713), np.uint8(131)
        try:
            want = quantize(y, sy, zy, np.uint8, margin=1e-3)
        except AssertionError:
            continue
        break
    g = Graph()
    g.node("MatMul", [g.dq("a", sa, za), g.dq(g.const(b, "b"), sb, np.zeros(10, np.int8),
                                              axis=1)])
    g.q(g.nodes[-1].output[0], sy, zy, out="y")
    save_graph(root, "grt_qdq_matmul_calibrated_scales_q", g, [("a", a)], want)


def qdq_cnn_case(root, rng):
    """A small int8 CNN as ONNX Runtime's static quantization writes it:
    f32 image -> QuantizeLinear -> [DQ -> Conv(+int32 bias) -> Relu -> Q] x 2
    -> DQ -> GlobalAveragePool -> Q -> DQ -> Flatten -> DQ Gemm -> Q (int8
    logits); per-channel int8 weights, uint8 activations."""
    g = Graph()
    x = (rng.standard_normal((1, 3, 16, 16)) * 0.5).astype(np.float32)
    s0, z0 = pow2(1 / 64), np.uint8(128)
    t = g.q("x", s0, z0)
    v = quantize(x, s0, z0, np.uint8)
    scale, zero = s0, z0
    for cin, cout, stride in [(3, 8, 1), (8, 16, 2)]:
        w = np.maximum(ints(rng, np.int8, (cout, cin, 3, 3)), -127).astype(np.int8)
        sw = np.array([pow2(u) for u in rng.uniform(0.002, 0.01, cout)], np.float32)
        sb = (scale * sw).astype(np.float32)
        bias = rng.integers(-3000, 3000, size=(cout,)).astype(np.int32)
        attrs = {"pads": [1, 1, 1, 1], "strides": [stride, stride]}
        c = g.node("Conv", [g.dq(t, scale, zero), g.dq(g.const(w), sw, np.zeros(cout, np.int8),
                                                      axis=0),
                            g.dq(g.const(bias), sb, np.zeros(cout, np.int32), axis=0)],
                   kernel_shape=[3, 3], **attrs)
        f = np.maximum(conv_f32(dequantize(v, scale, zero), dequantize(w, sw, None, 0),
                                dequantize(bias, sb, 0, 0), **attrs), 0)
        scale, zero = output_scale(f) / 2, np.uint8(0)
        t = g.q(g.node("Relu", [c]), scale, zero)
        v = quantize(f, scale, zero, np.uint8)
    pooled = np.mean(dequantize(v, scale, zero).astype(np.float64), axis=(2, 3),
                     keepdims=True).astype(np.float32)
    t = g.node("GlobalAveragePool", [g.dq(t, scale, zero)])
    scale = output_scale(pooled)
    t = g.q(t, scale, zero)
    v = quantize(pooled, scale, zero, np.uint8)
    w = np.maximum(ints(rng, np.int8, (10, 16)), -127).astype(np.int8)
    sw = np.array([pow2(u) for u in rng.uniform(0.002, 0.01, 10)], np.float32)
    sb = (scale * sw).astype(np.float32)
    bias = rng.integers(-3000, 3000, size=(10,)).astype(np.int32)
    t = g.node("Gemm", [g.node("Flatten", [g.dq(t, scale, zero)]),
                        g.dq(g.const(w), sw, np.zeros(10, np.int8), axis=0),
                        g.dq(g.const(bias), sb, np.zeros(10, np.int32), axis=0)], transB=1)
    logits = (np.matmul(dequantize(v, scale, zero).reshape(1, 16).astype(np.float64),
                        dequantize(w, sw, None, 0).T.astype(np.float64)).astype(np.float32) +
              dequantize(bias, sb, 0, 0)).astype(np.float32)
    sy, zy = output_scale(logits), np.int8(0)
    g.q(t, sy, zy, out="y")
    save_graph(root, "grt_qdq_cnn", g, [("x", x)], quantize(logits, sy, zy, np.int8))


def qdq_cases(root, rng):
    qdq_conv_cases(root, rng)
    qdq_matmul_cases(root, rng)
    qdq_cnn_case(root, rng)


#===----------------------------------------------------------------------===#
# INT4 / UINT4 weights (opset 21): DequantizeLinear of 4-bit initializers
# (packed two to a byte, low nibble first, in raw_data or int32_data) per
# tensor, per column or per block, with and without zero points, into
# MatMul and Gemm. Activations are multiples of 1/4 below 4 in magnitude
# and scales powers of two, so every product and sum is exact in f32
# whatever the order and the references are exact.
#===----------------------------------------------------------------------===#

INT4, UINT4 = 22, 21

# The weights must reach the CPU's int4-weight GEMM (packed in rodata):
# grt-compile's kernels then hold a matmul with a packed rhs.
INT4_EXPECT_IR = "dump kernels\nrequire pattern matmul .* rhs_packed4\n"


def int4_tensor(name, values, signed, int32_data=False):
    """A TensorProto of INT4 (|signed|) or UINT4 |values| (an integer
    array), two to a byte with element 2i in byte i's low nibble, in
    raw_data or (|int32_data|) one packed byte per int32_data entry."""
    lo, hi = (-8, 7) if signed else (0, 15)
    flat = np.asarray(values, np.int64).ravel()
    assert flat.size == 0 or (flat.min() >= lo and flat.max() <= hi), "value past 4 bits"
    nibbles = (flat & 15).astype(np.uint8)
    if nibbles.size % 2:
        nibbles = np.append(nibbles, np.uint8(0))
    packed = (nibbles[0::2] | (nibbles[1::2] << 4)).astype(np.uint8)
    t = TensorProto()
    t.name = name
    t.data_type = INT4 if signed else UINT4
    t.dims.extend(np.shape(values))
    if int32_data:
        t.int32_data.extend(int(v) for v in packed)
    else:
        t.raw_data = packed.tobytes()
    return t


def int4_values(rng, signed, shape):
    return rng.integers(-8 if signed else 0, 8 if signed else 16, size=shape).astype(np.int64)


def quarters(rng, shape):
    return (rng.integers(-15, 16, size=shape) / 4).astype(np.float32)


def int4_dq(g, name, w, signed, scale, zero, axis=None, block=None, int32_data=False):
    """DequantizeLinear of 4-bit initializer |w| with scale |scale| and
    zero point |zero| (None: no input) of the same 4-bit type."""
    g.inits.append(int4_tensor(name, w, signed, int32_data))
    inputs = [name, g.const(np.asarray(scale, np.float32))]
    if zero is not None:
        g.count += 1
        zname = "z%d" % g.count
        g.inits.append(int4_tensor(zname, zero, signed, int32_data))
        inputs.append(zname)
    attrs = {}
    if axis is not None:
        attrs["axis"] = axis
    if block is not None:
        attrs["block_size"] = block
    return g.node("DequantizeLinear", inputs, **attrs)


def int4_reference(w, scale, zero, axis=None, block=None):
    """(w - zero) * scale in float64 (exact for these values), the
    parameters one value, one per dimension |axis| of w, or one per
    |block| elements along it."""
    s = np.asarray(scale, np.float64)
    z = np.zeros(s.shape) if zero is None else np.asarray(zero, np.float64)
    if block is not None:
        s = np.repeat(s, block, axis=axis).take(range(w.shape[axis]), axis=axis)
        z = np.repeat(z, block, axis=axis).take(range(w.shape[axis]), axis=axis)
    elif s.ndim == 1:
        shape = [1] * w.ndim
        shape[axis] = -1
        s, z = s.reshape(shape), z.reshape(shape)
    return (w.astype(np.float64) - z) * s


def pow2_scales(rng, count):
    return np.array([pow2(v) for v in rng.uniform(0.01, 0.5, count)], np.float32)


def int4_cases(root, rng):
    # MatMul(a, DequantizeLinear(W)): (name, a shape, W shape (K, N),
    # signed?, parameters per "tensor", "column" or "block", zero point
    # ("none", "random", or a value for all), block size, int32_data?,
    # packed into the int4-weight GEMM?)
    cases = [
        ("int4_per_tensor", (5, 67), (67, 33), True, "tensor", "none", None, False, True),
        ("int4_per_column_zero_points", (7, 67), (67, 35), True, "column", "random", None,
         False, True),
        ("uint4_per_tensor_zero_point_8_int32_data", (3, 65), (65, 41), False, "tensor", 8,
         None, True, True),
        ("uint4_per_column_zero_points_batched", (2, 3, 69), (69, 31), False, "column",
         "random", None, False, True),
        ("uint4_per_column", (4, 71), (71, 29), False, "column", "none", None, False, True),
        ("int4_per_tensor_zero_point_int32_data", (6, 67), (67, 33), True, "tensor", "random",
         None, True, True),
        ("int4_small_folded", (3, 9), (9, 5), True, "column", "random", None, False, False),
        ("int4_blocked_zero_points_partial_block", (5, 67), (67, 33), True, "block", "random",
         16, False, True),
        ("uint4_blocked", (4, 64), (64, 37), False, "block", "none", 32, True, True),
        ("int4_blocked", (1, 96), (96, 40), True, "block", "none", 32, False, True),
        ("uint4_blocked_zero_points", (3, 48), (48, 31), False, "block", "random", 16, False,
         True),
        ("int4_blocked_batched_f32", (2, 3, 64), (64, 33), True, "block", "random", 16, False,
         False),
    ]
    for name, a_shape, w_shape, signed, per, zero_kind, block, int32_data, packed in cases:
        k, n = w_shape
        a = quarters(rng, a_shape)
        w = int4_values(rng, signed, w_shape)
        axis = None
        if per == "tensor":
            scale, pshape = pow2(rng.uniform(0.01, 0.5)), ()
        elif per == "column":
            axis, pshape = 1, (n,)
            scale = pow2_scales(rng, n)
        else:
            axis, pshape = 0, (-(-k // block), n)
            scale = pow2_scales(rng, pshape[0] * n).reshape(pshape)
        if zero_kind == "none":
            zero = None
        elif zero_kind == "random":
            zero = int4_values(rng, signed, pshape)
        else:
            zero = np.full(pshape, zero_kind, np.int64)
        g = Graph()
        wf = int4_dq(g, "w", w, signed, scale, zero, axis=axis, block=block,
                     int32_data=int32_data)
        g.node("MatMul", ["a", wf], out="y")
        y = np.matmul(a.astype(np.float64),
                      int4_reference(w, scale, zero, axis, block)).astype(np.float32)
        save_graph(root, "grt_dq_" + name, g, [("a", a)], y,
                   expect_ir=INT4_EXPECT_IR if packed else None, opset=21)
    # INT4 weights stored flat and reshaped before DequantizeLinear: the
    # reshape keeps their type, so an INT4 zero point is accepted.
    a, w = quarters(rng, (3, 40)), int4_values(rng, True, (40, 30))
    scale, zero = pow2(0.125), int4_values(rng, True, ())
    g = Graph()
    g.inits.append(int4_tensor("w", w.reshape(-1), True))
    g.inits.append(int4_tensor("z", zero, True))
    wr = g.node("Reshape", ["w", g.const(np.array([40, 30], np.int64))])
    g.node("MatMul", ["a", g.node("DequantizeLinear", [wr, g.const(scale), "z"])], out="y")
    y = np.matmul(a.astype(np.float64), int4_reference(w, scale, zero)).astype(np.float32)
    save_graph(root, "grt_dq_int4_reshaped_zero_point", g, [("a", a)], y, expect_ir=None,
               opset=21)
    # Gemm of a Linear layer's (N, K) weights with transB, per output
    # channel (axis 0), uint4 with zero point 8 and a bias; and int4 with
    # random zero points.
    for name, signed, zero_kind in [("uint4_transb_zero_point_8", False, 8),
                                    ("int4_transb_zero_points", True, "random")]:
        m, k, n = 4, 67, 33
        a = quarters(rng, (m, k))
        w = int4_values(rng, signed, (n, k))
        scale = pow2_scales(rng, n)
        zero = (np.full((n,), zero_kind, np.int64) if zero_kind != "random"
                else int4_values(rng, signed, (n,)))
        c = quarters(rng, (n,))
        g = Graph()
        wf = int4_dq(g, "w", w, signed, scale, zero, axis=0)
        g.node("Gemm", ["a", wf, g.const(c)], out="y", transB=1)
        y = (np.matmul(a.astype(np.float64), int4_reference(w, scale, zero, 0).T) +
             c).astype(np.float32)
        save_graph(root, "grt_dq_gemm_" + name, g, [("a", a)], y, expect_ir=INT4_EXPECT_IR,
                   opset=21)


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
    qdq_cases(root, rng)
    int4_cases(root, np.random.default_rng(21))


if __name__ == "__main__":
    main()
