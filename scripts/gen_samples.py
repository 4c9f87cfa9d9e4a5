#!/usr/bin/python3
"""Writes the model samples: samples/mlp, samples/cnn, samples/cnn_int8 and
samples/mlp_int8.

Each folder gets the model as JAX exports it (<name>.mlir: module @jit_<name>
with a public @main, weights as dense constants, large ones as hex blobs,
loc(...) with #loc aliases), an input (input.npy) and the output numpy
computes for it in float64 (expected.npy, stored as float32). Run by hand
after changing it; its output is committed:

    /usr/bin/python3 scripts/gen_samples.py

Deterministic: fixed seeds, nothing from the clock or the environment.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_mlir import dense, dense_hex, tensor_type  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SCRIPT = "scripts/gen_samples.py"


class Program:
    """The body of a JAX-exported @main: %cst constants first (JAX names
    them %cst, %cst_0, ...), then numbered ops, each with a loc alias."""

    def __init__(self, name):
        self.name = name
        self.consts = []
        self.ops = []
        self.locs = []  # (alias number, text)
        self.next = 0
        self.next_cst = 0
        self.loc_of = {}

    def loc(self, what):
        if what not in self.loc_of:
            number = len(self.locs) + 3
            self.locs.append((number, 'loc("jit(%s)/jit(main)/%s"(#loc2))'
                              % (self.name, what)))
            self.loc_of[what] = number
        return "loc(#loc%d)" % self.loc_of[what]

    def const(self, arr, hex_blob=None):
        arr = np.asarray(arr, dtype=np.float32)
        name = "%cst" if self.next_cst == 0 else "%%cst_%d" % (self.next_cst - 1)
        self.next_cst += 1
        if hex_blob is None:
            hex_blob = arr.size > 16
        value = dense_hex(arr, "f32") if hex_blob else dense(arr, "f32")
        self.consts.append("    %s = stablehlo.constant %s : %s loc(#loc)"
                           % (name, value, tensor_type(arr.shape, "f32")))
        return name

    def op(self, text, what):
        name = "%%%d" % self.next
        self.next += 1
        self.ops.append("    %s = %s %s" % (name, text, self.loc(what)))
        return name

    def text(self, doc, arg_shape, result_shape, result):
        arg_t = tensor_type(arg_shape, "f32")
        res_t = tensor_type(result_shape, "f32")
        lines = ["// " + d if d else "//" for d in doc.split("\n")]
        lines.append("module @jit_%s attributes {mhlo.num_partitions = 1 : i32, "
                     "mhlo.num_replicas = 1 : i32} {" % self.name)
        lines.append('  func.func public @main(%%arg0: %s {mhlo.layout_mode = '
                     '"default"} loc("x")) -> (%s {jax.result_info = "", '
                     'mhlo.layout_mode = "default"}) {' % (arg_t, res_t))
        lines += self.consts + self.ops
        lines.append("    return %s : %s loc(#loc)" % (result, res_t))
        lines.append("  } loc(#loc)")
        lines.append("} loc(#loc)")
        lines.append("#loc = loc(unknown)")
        lines.append('#loc1 = loc("%s":1:0)' % SCRIPT)
        lines.append('#loc2 = loc("%s"(#loc1))' % self.name)
        lines += ["#loc%d = %s" % (n, text) for n, text in self.locs]
        return "\n".join(lines) + "\n"


def dense_layer(p, x, x_shape, w, b, name):
    """x @ w + b, as jnp exports it: dot_general, broadcast bias, add."""
    n = w.shape[1]
    wv, bv = p.const(w), p.const(b)
    out_shape = (x_shape[0], n)
    out_t = tensor_type(out_shape, "f32")
    y = p.op("stablehlo.dot_general %s, %s, contracting_dims = [1] x [0], "
             "precision = [DEFAULT, DEFAULT] : (%s, %s) -> %s"
             % (x, wv, tensor_type(x_shape, "f32"), tensor_type(w.shape, "f32"),
                out_t), "%s/dot_general" % name)
    bb = p.op("stablehlo.broadcast_in_dim %s, dims = [1] : (%s) -> %s"
              % (bv, tensor_type(b.shape, "f32"), out_t), "%s/add" % name)
    return p.op("stablehlo.add %s, %s : %s" % (y, bb, out_t), "%s/add" % name), out_shape


def relu(p, x, shape, name):
    t = tensor_type(shape, "f32")
    zero = p.const(np.float32(0.0), hex_blob=False)
    z = p.op("stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> %s"
             % (zero, t), "%s/max" % name)
    return p.op("stablehlo.maximum %s, %s : %s" % (x, z, t), "%s/max" % name)


def softmax(p, x, shape):
    """jax.nn.softmax over the last axis of a (1, n) tensor."""
    t = tensor_type(shape, "f32")
    rows = tensor_type(shape[:1], "f32")
    keep = tensor_type((shape[0], 1), "f32")
    ninf = p.const(np.float32(-np.inf), hex_blob=False)
    m = p.op("stablehlo.reduce(%s init: %s) applies stablehlo.maximum across "
             "dimensions = [1] : (%s, tensor<f32>) -> %s" % (x, ninf, t, rows),
             "softmax/reduce_max")
    mk = p.op("stablehlo.broadcast_in_dim %s, dims = [0] : (%s) -> %s"
              % (m, rows, keep), "softmax/broadcast_in_dim")
    mb = p.op("stablehlo.broadcast_in_dim %s, dims = [0, 1] : (%s) -> %s"
              % (mk, keep, t), "softmax/sub")
    d = p.op("stablehlo.subtract %s, %s : %s" % (x, mb, t), "softmax/sub")
    e = p.op("stablehlo.exponential %s : %s" % (d, t), "softmax/exp")
    zero = p.const(np.float32(0.0), hex_blob=False)
    s = p.op("stablehlo.reduce(%s init: %s) applies stablehlo.add across "
             "dimensions = [1] : (%s, tensor<f32>) -> %s" % (e, zero, t, rows),
             "softmax/reduce_sum")
    sk = p.op("stablehlo.broadcast_in_dim %s, dims = [0] : (%s) -> %s"
              % (s, rows, keep), "softmax/broadcast_in_dim")
    sb = p.op("stablehlo.broadcast_in_dim %s, dims = [0, 1] : (%s) -> %s"
              % (sk, keep, t), "softmax/div")
    return p.op("stablehlo.divide %s, %s : %s" % (e, sb, t), "softmax/div")


def he(rng, shape, fan_in):
    return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)


def write(folder, model, x, expected):
    os.makedirs(folder, exist_ok=True)
    name = os.path.basename(folder)
    with open(os.path.join(folder, name + ".mlir"), "w") as out:
        out.write(model)
    np.save(os.path.join(folder, "input.npy"), x.astype(np.float32))
    np.save(os.path.join(folder, "expected.npy"), expected.astype(np.float32))
    print(os.path.relpath(folder))


def gen_mlp():
    rng = np.random.default_rng(2024)
    w1, b1 = he(rng, (64, 32), 64), (rng.standard_normal(32) * 0.1).astype(np.float32)
    w2, b2 = he(rng, (32, 10), 32), (rng.standard_normal(10) * 0.1).astype(np.float32)
    x = rng.standard_normal((1, 64)).astype(np.float32)

    p = Program("mlp")
    h, shape = dense_layer(p, "%arg0", (1, 64), w1, b1, "dense1")
    h = relu(p, h, shape, "relu")
    logits, shape = dense_layer(p, h, shape, w2, b2, "dense2")
    y = softmax(p, logits, shape)
    model = p.text(
        "A two-layer perceptron, 64 -> 32 (relu) -> 10 (softmax), as\n"
        "jax.jit(mlp).lower(x).as_text() prints it with the weights closed\n"
        "over as constants. Generated by scripts/gen_samples.py; do not edit.",
        (1, 64), shape, y)

    h = np.maximum(x.astype(np.float64) @ w1 + b1, 0)
    logits = h @ w2 + b2
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    write(os.path.join(ROOT, "samples", "mlp"), model, x, e / e.sum(axis=1, keepdims=True))


def conv_same(x, w, b):
    """NHWC x HWIO, stride 1, SAME padding, plus bias, in float64."""
    kh, kw = w.shape[:2]
    xp = np.pad(x, [(0, 0), (kh // 2, kh // 2), (kw // 2, kw // 2), (0, 0)])
    out = np.zeros(x.shape[:3] + (w.shape[3],))
    for i in range(x.shape[1]):
        for j in range(x.shape[2]):
            out[:, i, j, :] = np.tensordot(xp[:, i:i + kh, j:j + kw, :], w,
                                           axes=([1, 2, 3], [0, 1, 2]))
    return out + b


def gen_cnn():
    rng = np.random.default_rng(2025)
    k1, c1 = he(rng, (3, 3, 1, 8), 9), (rng.standard_normal(8) * 0.1).astype(np.float32)
    k2, c2 = he(rng, (3, 3, 8, 16), 72), (rng.standard_normal(16) * 0.1).astype(np.float32)
    w3, b3 = he(rng, (16, 10), 16), (rng.standard_normal(10) * 0.1).astype(np.float32)
    x = rng.standard_normal((1, 16, 16, 1)).astype(np.float32)

    p = Program("cnn")

    def conv(inp, in_shape, k, c, name):
        out_shape = in_shape[:3] + (k.shape[3],)
        t_out = tensor_type(out_shape, "f32")
        kv, cv = p.const(k), p.const(c)
        y = p.op("stablehlo.convolution(%s, %s) dim_numbers = [b, 0, 1, f]x"
                 "[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} "
                 "{batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
                 "(%s, %s) -> %s" % (inp, kv, tensor_type(in_shape, "f32"),
                                     tensor_type(k.shape, "f32"), t_out),
                 "%s/conv_general_dilated" % name)
        cb = p.op("stablehlo.broadcast_in_dim %s, dims = [3] : (%s) -> %s"
                  % (cv, tensor_type(c.shape, "f32"), t_out), "%s/add" % name)
        y = p.op("stablehlo.add %s, %s : %s" % (y, cb, t_out), "%s/add" % name)
        return relu(p, y, out_shape, "%s/relu" % name), out_shape

    h, shape = conv("%arg0", (1, 16, 16, 1), k1, c1, "conv1")
    pooled = (1, 8, 8, 8)
    ninf = p.const(np.float32(-np.inf), hex_blob=False)
    p.ops.append(
        '    %%%d = "stablehlo.reduce_window"(%s, %s) <{window_dimensions = '
        'array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({\n'
        '    ^bb0(%%arg1: tensor<f32> loc(unknown), %%arg2: tensor<f32> '
        'loc(unknown)):\n'
        '      %%%d = stablehlo.maximum %%arg1, %%arg2 : tensor<f32> %s\n'
        '      stablehlo.return %%%d : tensor<f32> %s\n'
        '    }) : (%s, tensor<f32>) -> %s %s'
        % (p.next, h, ninf, p.next + 1, p.loc("max_pool/max"), p.next + 1,
           p.loc("max_pool/max"), tensor_type(shape, "f32"),
           tensor_type(pooled, "f32"), p.loc("max_pool/reduce_window_max")))
    h = "%%%d" % p.next
    p.next += 2
    h, shape = conv(h, pooled, k2, c2, "conv2")
    # jnp.mean(h, axis=(1, 2)): a sum, then a divide by 64.
    zero = p.const(np.float32(0.0), hex_blob=False)
    s = p.op("stablehlo.reduce(%s init: %s) applies stablehlo.add across "
             "dimensions = [1, 2] : (%s, tensor<f32>) -> tensor<1x16xf32>"
             % (h, zero, tensor_type(shape, "f32")), "mean/reduce_sum")
    count = p.const(np.float32(64.0), hex_blob=False)
    cb = p.op("stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> "
              "tensor<1x16xf32>" % count, "mean/div")
    m = p.op("stablehlo.divide %s, %s : tensor<1x16xf32>" % (s, cb), "mean/div")
    logits, out_shape = dense_layer(p, m, (1, 16), w3, b3, "dense")
    model = p.text(
        "A small convolutional network on a 16x16 one-channel image (NHWC,\n"
        "HWIO kernels): conv 3x3x8 + relu, 2x2 max pool (reduce_window),\n"
        "conv 3x3x16 + relu, global mean, dense 16 -> 10 logits. As\n"
        "jax.jit(cnn).lower(x).as_text() prints it with the weights closed\n"
        "over as constants. Generated by scripts/gen_samples.py; do not edit.",
        (1, 16, 16, 1), out_shape, logits)

    a = np.maximum(conv_same(x.astype(np.float64), k1, c1), 0)
    a = a.reshape(1, 8, 2, 8, 2, 8).max(axis=(2, 4))
    a = np.maximum(conv_same(a, k2, c2), 0)
    logits = a.mean(axis=(1, 2)) @ w3 + b3
    write(os.path.join(ROOT, "samples", "cnn"), model, x, logits)


def quantize_f32(x, scale, zero_point):
    """The spec's quantize to i8 in f32: x / scale + zero_point, clamped,
    rounded half to even."""
    y = (np.asarray(x, np.float32) / np.float32(scale)).astype(np.float32)
    y = (y + np.float32(zero_point)).astype(np.float32)
    return np.rint(np.clip(y, np.float32(-128), np.float32(127))).astype(np.int64)


def conv_int(q, w, zl, zr):
    """NCHW x OIHW, stride 1, padding 1: the integer sums of (q - zl)(w -
    zr) over each window (padding stands for zl: 0 after the subtraction),
    zr per output channel."""
    d = np.pad(q - zl, [(0, 0), (0, 0), (1, 1), (1, 1)])
    wz = w - np.asarray(zr).reshape(-1, 1, 1, 1)
    n, c, h, wd = q.shape
    out = np.zeros((n, w.shape[0], h, wd), np.int64)
    for i in range(h):
        for j in range(wd):
            out[:, :, i, j] = np.tensordot(d[:, :, i:i + 3, j:j + 3], wz,
                                           axes=([1, 2, 3], [1, 2, 3]))
    return out


def conv_float(x, w):
    """NCHW x OIHW, stride 1, padding 1, in float64."""
    d = np.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1)])
    out = np.zeros((x.shape[0], w.shape[0]) + x.shape[2:])
    for i in range(x.shape[2]):
        for j in range(x.shape[3]):
            out[:, :, i, j] = np.tensordot(d[:, :, i:i + 3, j:j + 3], w,
                                           axes=([1, 2, 3], [1, 2, 3]))
    return out


def asymmetric(lo, hi):
    """An i8 scale (an f32) and zero point covering [lo, hi] (and 0)."""
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    scale = np.float32((hi - lo) / 255.0)
    return scale, int(np.clip(np.rint(-128 - lo / float(scale)), -128, 127))


def combined_scale(sl, sr):
    """The requantization factor f32(sl * sr) of an integer sum, sr per
    tensor or per channel."""
    return (np.float64(np.float32(sl)) * np.asarray(sr, np.float32).astype(np.float64)
            ).astype(np.float32)


def per_column_i8(w):
    """Symmetric i8 weights with one scale per column of a matrix."""
    scale = (np.abs(w).max(axis=0) / 127).astype(np.float32)
    return scale, np.clip(np.rint(w / scale), -127, 127).astype(np.int64)


def qtype(scales, zero_points, axis=None):
    text = lambda s, z: "%r:%d" % (float(np.float32(s)), z)
    if axis is None:
        return "!quant.uniform<i8:f32, %s>" % text(scales, zero_points)
    return "!quant.uniform<i8:f32:%d, {%s}>" % (
        axis, ", ".join(text(s, z) for s, z in zip(scales, zero_points)))


def qtensor(shape, q):
    return "tensor<" + "".join("%dx" % d for d in shape) + q + ">"


def gen_cnn_int8():
    """An int8 CNN (NCHW): quantize, conv 3x3x16 (per-channel weights) +
    relu, 2x2 max pool, conv 3x3x32 (per-tensor weights with a zero point)
    + relu, 2x2 max pool, flatten, dense 512 -> 10 (per-channel weights)
    into f32 logits. The quantization is calibrated on the float model;
    expected.npy is the integer reference (exact), expected_float.npy the
    float model's logits."""
    rng = np.random.default_rng(2026)
    k1 = he(rng, (16, 3, 3, 3), 27)
    k2 = he(rng, (32, 16, 3, 3), 144)
    w3 = he(rng, (512, 10), 512)
    x = rng.standard_normal((1, 3, 16, 16)).astype(np.float32)

    # The float model, and its activations for calibration.
    a1 = conv_float(x.astype(np.float64), k1)
    p1 = np.maximum(a1, 0).reshape(1, 16, 8, 2, 8, 2).max(axis=(3, 5))
    a2 = conv_float(p1, k2)
    p2 = np.maximum(a2, 0).reshape(1, 32, 4, 2, 4, 2).max(axis=(3, 5))
    float_logits = p2.reshape(1, 512) @ w3

    sx, zx = asymmetric(float(x.min()), float(x.max()))
    s1, z1 = asymmetric(float(a1.min()), float(a1.max()))
    s2, z2 = asymmetric(float(a2.min()), float(a2.max()))
    # Weights: conv1 and dense per output channel (symmetric), conv2 per
    # tensor with a zero point.
    sk1 = (np.abs(k1).reshape(16, -1).max(axis=1) / 127).astype(np.float32)
    qk1 = np.clip(np.rint(k1 / sk1.reshape(-1, 1, 1, 1)), -127, 127).astype(np.int64)
    sk2, zk2 = asymmetric(float(k2.min()), float(k2.max()))
    qk2 = quantize_f32(k2, sk2, zk2)
    sw3, qw3 = per_column_i8(w3)

    # The integer reference, as the spec's integer arithmetic gives it:
    # requantization is f32(acc) * f32(sl * sr), then quantize.
    qx = quantize_f32(x, sx, zx)
    acc1 = conv_int(qx, qk1, zx, np.zeros(16, np.int64))
    v1 = (acc1.astype(np.float32) * combined_scale(sx, sk1).reshape(1, -1, 1, 1)).astype(np.float32)
    q1 = np.maximum(quantize_f32(v1, s1, z1), z1)
    q1 = q1.reshape(1, 16, 8, 2, 8, 2).max(axis=(3, 5))
    acc2 = conv_int(q1, qk2, z1, np.full(32, zk2))
    v2 = (acc2.astype(np.float32) * combined_scale(s1, sk2)).astype(np.float32)
    q2 = np.maximum(quantize_f32(v2, s2, z2), z2)
    q2 = q2.reshape(1, 32, 4, 2, 4, 2).max(axis=(3, 5))
    acc3 = (q2.reshape(1, 512) - z2) @ qw3
    logits = (acc3.astype(np.float32) * combined_scale(s2, sw3)).astype(np.float32)
    error = float(np.abs(logits - float_logits).max())
    # Within the quantization error: a few steps of the last layer's
    # input scale times the weights' size.
    bound = 0.05 * float(np.abs(float_logits).max())
    assert error <= bound, (error, bound)

    tx = qtype(sx, zx)
    t1 = qtype(s1, z1)
    t2 = qtype(s2, z2)
    tk1 = qtype(sk1, [0] * 16, axis=0)
    tk2 = qtype(sk2, zk2)
    tw3 = qtype(sw3, [0] * 10, axis=1)
    pool_body = ("    ^bb0(%%arg1: tensor<%s>, %%arg2: tensor<%s>):\n"
                 "      %%m = stablehlo.maximum %%arg1, %%arg2 : tensor<%s>\n"
                 "      stablehlo.return %%m : tensor<%s>\n")
    lines = [
        "// An int8 CNN on a 16x16 three-channel image (NCHW, OIHW kernels), as",
        "// JAX exports a quantized model: uniform_quantize, conv 3x3x16",
        "// (per-channel i8 weights) + relu, 2x2 max pool, conv 3x3x32 (per-tensor",
        "// i8 weights with a zero point) + relu, 2x2 max pool, flatten, dense",
        "// 512 -> 10 (per-channel i8 weights) into f32 logits. relu is the",
        "// maximum with the quantized zero; pooling and flatten move stored values.",
        "// Generated by scripts/gen_samples.py; do not edit.",
        "module @jit_cnn_int8 {",
        "  func.func public @main(%arg0: tensor<1x3x16x16xf32>) -> tensor<1x10xf32> {",
        "    %%k1 = stablehlo.constant %s : %s" % (dense(qk1, "i8", splat_ok=False),
                                                 qtensor((16, 3, 3, 3), tk1)),
        "    %%k2 = stablehlo.constant %s : %s" % (dense(qk2, "i8", splat_ok=False),
                                                 qtensor((32, 16, 3, 3), tk2)),
        "    %%w3 = stablehlo.constant %s : %s" % (dense(qw3, "i8", splat_ok=False),
                                                 qtensor((512, 10), tw3)),
        "    %%z1 = stablehlo.constant dense<%d> : %s" % (z1, qtensor((), t1)),
        "    %%z2 = stablehlo.constant dense<%d> : %s" % (z2, qtensor((), t2)),
        "    %%x = stablehlo.uniform_quantize %%arg0 : (tensor<1x3x16x16xf32>) -> %s"
        % qtensor((1, 3, 16, 16), tx),
    ]
    conv = ("stablehlo.convolution(%s, %s) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->"
            "[b, f, 0, 1], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : "
            "i64, feature_group_count = 1 : i64} : (%s, %s) -> %s")

    def block(n, inp, in_t, k, k_t, out_t, z, c, hw):
        shape, pooled = (1, c, hw, hw), (1, c, hw // 2, hw // 2)
        lines.append("    %%c%d = %s" % (n, conv % (inp, k, in_t, k_t, qtensor(shape, out_t))))
        lines.append("    %%zb%d = stablehlo.broadcast_in_dim %s, dims = [] : (%s) -> %s"
                     % (n, z, qtensor((), out_t), qtensor(shape, out_t)))
        lines.append("    %%r%d = stablehlo.maximum %%c%d, %%zb%d : %s"
                     % (n, n, n, qtensor(shape, out_t)))
        lines.append('    %%p%d = "stablehlo.reduce_window"(%%r%d, %s) <{window_dimensions = '
                     'array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>}> ({'
                     % (n, n, z))
        lines.append((pool_body % ((out_t,) * 4)).replace("\\n", "\n").rstrip("\n"))
        lines.append("    }) : (%s, %s) -> %s" % (qtensor(shape, out_t), qtensor((), out_t),
                                                  qtensor(pooled, out_t)))
        return "%%p%d" % n, qtensor(pooled, out_t)

    h, h_t = block(1, "%x", qtensor((1, 3, 16, 16), tx), "%k1", qtensor((16, 3, 3, 3), tk1),
                   t1, "%z1", 16, 16)
    h, h_t = block(2, h, h_t, "%k2", qtensor((32, 16, 3, 3), tk2), t2, "%z2", 32, 8)
    lines.append("    %%flat = stablehlo.reshape %s : (%s) -> %s" % (h, h_t,
                                                                  qtensor((1, 512), t2)))
    lines.append("    %%y = stablehlo.dot_general %%flat, %%w3, contracting_dims = [1] x [0] : "
                 "(%s, %s) -> tensor<1x10xf32>" % (qtensor((1, 512), t2),
                                                   qtensor((512, 10), tw3)))
    lines.append("    return %y : tensor<1x10xf32>")
    lines.append("  }")
    lines.append("}")
    folder = os.path.join(ROOT, "samples", "cnn_int8")
    write(folder, "\n".join(lines) + "\n", x, logits)
    np.save(os.path.join(folder, "expected_float.npy"), float_logits.astype(np.float32))
    print("  int8 vs float logits: max difference %.4f (bound %.4f)" % (error, bound))


def gen_mlp_int8():
    """An int8 MLP on a batch of 4: quantize, dense 64 -> 96 (per-channel
    weights) + relu, dense 96 -> 48 (per-tensor weights with a zero point)
    + relu, dense 48 -> 10 (per-channel weights) into f32 logits. As
    gen_cnn_int8: calibrated on the float model, expected.npy the integer
    reference (exact), expected_float.npy the float model's logits."""
    rng = np.random.default_rng(2027)
    w1 = he(rng, (64, 96), 64)
    w2 = he(rng, (96, 48), 96)
    w3 = he(rng, (48, 10), 48)
    x = rng.standard_normal((4, 64)).astype(np.float32)

    a1 = x.astype(np.float64) @ w1
    a2 = np.maximum(a1, 0) @ w2
    float_logits = np.maximum(a2, 0) @ w3

    sx, zx = asymmetric(float(x.min()), float(x.max()))
    s1, z1 = asymmetric(float(a1.min()), float(a1.max()))
    s2, z2 = asymmetric(float(a2.min()), float(a2.max()))
    sw1, qw1 = per_column_i8(w1)
    sw2, zw2 = asymmetric(float(w2.min()), float(w2.max()))
    qw2 = quantize_f32(w2, sw2, zw2)
    sw3, qw3 = per_column_i8(w3)

    # The spec's integer arithmetic: exact sums of (l - zl)(r - zr),
    # requantized as f32(acc) * f32(sl * sr), relu as the maximum with the
    # result's zero point.
    qx = quantize_f32(x, sx, zx)
    acc1 = (qx - zx) @ qw1
    q1 = np.maximum(quantize_f32((acc1.astype(np.float32) * combined_scale(sx, sw1))
                                 .astype(np.float32), s1, z1), z1)
    acc2 = (q1 - z1) @ (qw2 - zw2)
    q2 = np.maximum(quantize_f32((acc2.astype(np.float32) * combined_scale(s1, sw2))
                                 .astype(np.float32), s2, z2), z2)
    acc3 = (q2 - z2) @ qw3
    logits = (acc3.astype(np.float32) * combined_scale(s2, sw3)).astype(np.float32)
    error = float(np.abs(logits - float_logits).max())
    bound = 0.05 * float(np.abs(float_logits).max())
    assert error <= bound, (error, bound)

    tx, t1, t2 = qtype(sx, zx), qtype(s1, z1), qtype(s2, z2)
    tw1 = qtype(sw1, [0] * 96, axis=1)
    tw2 = qtype(sw2, zw2)
    tw3 = qtype(sw3, [0] * 10, axis=1)
    dot = ("stablehlo.dot_general %s, %s, contracting_dims = [1] x [0] : (%s, %s) -> %s")
    lines = [
        "// An int8 MLP on a batch of four 64-feature rows, as JAX exports a",
        "// quantized model: uniform_quantize, dense 64 -> 96 (per-channel i8",
        "// weights) + relu, dense 96 -> 48 (per-tensor i8 weights with a zero",
        "// point) + relu, dense 48 -> 10 (per-channel i8 weights) into f32",
        "// logits. relu is the maximum with the quantized zero.",
        "// Generated by scripts/gen_samples.py; do not edit.",
        "module @jit_mlp_int8 {",
        "  func.func public @main(%arg0: tensor<4x64xf32>) -> tensor<4x10xf32> {",
        "    %%w1 = stablehlo.constant %s : %s" % (dense(qw1, "i8", splat_ok=False),
                                                 qtensor((64, 96), tw1)),
        "    %%w2 = stablehlo.constant %s : %s" % (dense(qw2, "i8", splat_ok=False),
                                                 qtensor((96, 48), tw2)),
        "    %%w3 = stablehlo.constant %s : %s" % (dense(qw3, "i8", splat_ok=False),
                                                 qtensor((48, 10), tw3)),
        "    %%z1 = stablehlo.constant dense<%d> : %s" % (z1, qtensor((), t1)),
        "    %%z2 = stablehlo.constant dense<%d> : %s" % (z2, qtensor((), t2)),
        "    %%x = stablehlo.uniform_quantize %%arg0 : (tensor<4x64xf32>) -> %s"
        % qtensor((4, 64), tx),
    ]
    h, h_t = "%x", qtensor((4, 64), tx)
    for n, (w, w_t, out_t, z, width) in enumerate(
            [("%w1", qtensor((64, 96), tw1), t1, "%z1", 96),
             ("%w2", qtensor((96, 48), tw2), t2, "%z2", 48)], 1):
        out = qtensor((4, width), out_t)
        lines.append("    %%d%d = %s" % (n, dot % (h, w, h_t, w_t, out)))
        lines.append("    %%zb%d = stablehlo.broadcast_in_dim %s, dims = [] : (%s) -> %s"
                     % (n, z, qtensor((), out_t), out))
        lines.append("    %%r%d = stablehlo.maximum %%d%d, %%zb%d : %s" % (n, n, n, out))
        h, h_t = "%%r%d" % n, out
    lines.append("    %%y = %s" % (dot % (h, "%w3", h_t, qtensor((48, 10), tw3),
                                          "tensor<4x10xf32>")))
    lines.append("    return %y : tensor<4x10xf32>")
    lines.append("  }")
    lines.append("}")
    folder = os.path.join(ROOT, "samples", "mlp_int8")
    write(folder, "\n".join(lines) + "\n", x, logits)
    np.save(os.path.join(folder, "expected_float.npy"), float_logits.astype(np.float32))
    print("  int8 vs float logits: max difference %.4f (bound %.4f)" % (error, bound))


def main():
    gen_mlp()
    gen_cnn()
    gen_cnn_int8()
    gen_mlp_int8()


if __name__ == "__main__":
    main()
