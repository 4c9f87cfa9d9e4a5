"""Writes the shape benchmark's programs (StableHLO text) and inputs.

  programs.py OUT_DIR

For each program (mlp, convnet) it writes NAME_dyn.mlir (batch "?"), and
for each batch B of BATCHES, NAME_B.mlir (the same program with the batch
fixed) and NAME_B.npy (the input). Weights are constants with a fixed
seed, the same in every file.
"""
import os
import sys

import numpy as np

BATCHES = (1, 8, 64)


def tensor(shape, batch):
    dims = "".join(("?" if d is None and batch is None else
                    str(batch if d is None else d)) + "x" for d in shape)
    return "tensor<%sf32>" % dims


def dense(arr):
    return 'dense<"0x%s">' % arr.astype("<f4").tobytes().hex().upper()


def mlp(batch, rng):
    w = [rng.uniform(-0.1, 0.1, s).astype(np.float32)
         for s in ((256, 512), (512,), (512, 512), (512,), (512, 10))]
    T = lambda shape: tensor(shape, batch)
    lines = ["func.func public @main(%x: " + T([None, 256]) + ") -> "
             + T([None, 10]) + " {"]
    names = []
    for i, a in enumerate(w):
        names.append("%%w%d" % i)
        lines.append("  %%w%d = stablehlo.constant %s : tensor<%sf32>"
                     % (i, dense(a), "".join("%dx" % d for d in a.shape)))
    lines.append("  %z = stablehlo.constant dense<0.0> : tensor<f32>")
    v, width = "%x", 256
    for layer, (wi, bi, out) in enumerate(((0, 1, 512), (2, 3, 512))):
        lines += [
            "  %%h%d = stablehlo.dot_general %s, %%w%d, contracting_dims = [1] x [0] : (%s, tensor<%dx%dxf32>) -> %s"
            % (layer, v, wi, T([None, width]), width, out, T([None, out])),
            "  %%b%d = stablehlo.broadcast_in_dim %%w%d, dims = [1] : (tensor<%dxf32>) -> %s"
            % (layer, bi, out, T([None, out])),
            "  %%a%d = stablehlo.add %%h%d, %%b%d : %s" % (layer, layer, layer, T([None, out])),
            "  %%zb%d = stablehlo.broadcast_in_dim %%z, dims = [] : (tensor<f32>) -> %s"
            % (layer, T([None, out])),
            "  %%r%d = stablehlo.maximum %%a%d, %%zb%d : %s" % (layer, layer, layer, T([None, out])),
        ]
        v, width = "%%r%d" % layer, out
    lines += ["  %%o = stablehlo.dot_general %s, %%w4, contracting_dims = [1] x [0] : (%s, tensor<512x10xf32>) -> %s"
              % (v, T([None, 512]), T([None, 10])),
              "  return %%o : %s" % T([None, 10]), "}"]
    return "\n".join(lines) + "\n", (256,)


def convnet(batch, rng):
    T = lambda shape: tensor(shape, batch)
    w1 = rng.uniform(-0.2, 0.2, (3, 3, 3, 16)).astype(np.float32)
    w2 = rng.uniform(-0.1, 0.1, (3, 3, 16, 32)).astype(np.float32)
    wd = rng.uniform(-0.1, 0.1, (32, 10)).astype(np.float32)
    conv = ("stablehlo.convolution(%s, %s) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], "
            "window = {stride = [%d, %d], pad = [[1, 1], [1, 1]]} "
            "{batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (%s, %s) -> %s")
    lines = [
        "func.func public @main(%x: " + T([None, 32, 32, 3]) + ") -> " + T([None, 10]) + " {",
        "  %%w1 = stablehlo.constant %s : tensor<3x3x3x16xf32>" % dense(w1),
        "  %%w2 = stablehlo.constant %s : tensor<3x3x16x32xf32>" % dense(w2),
        "  %%wd = stablehlo.constant %s : tensor<32x10xf32>" % dense(wd),
        "  %z = stablehlo.constant dense<0.0> : tensor<f32>",
        "  %c1 = " + conv % ("%x", "%w1", 1, 1, T([None, 32, 32, 3]),
                             "tensor<3x3x3x16xf32>", T([None, 32, 32, 16])),
        "  %z1 = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> " + T([None, 32, 32, 16]),
        "  %r1 = stablehlo.maximum %c1, %z1 : " + T([None, 32, 32, 16]),
        "  %c2 = " + conv % ("%r1", "%w2", 2, 2, T([None, 32, 32, 16]),
                             "tensor<3x3x16x32xf32>", T([None, 16, 16, 32])),
        "  %z2 = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> " + T([None, 16, 16, 32]),
        "  %r2 = stablehlo.maximum %c2, %z2 : " + T([None, 16, 16, 32]),
        "  %s = stablehlo.reduce(%r2 init: %z) applies stablehlo.add across dimensions = [1, 2] : ("
        + T([None, 16, 16, 32]) + ", tensor<f32>) -> " + T([None, 32]),
        "  %o = stablehlo.dot_general %s, %wd, contracting_dims = [1] x [0] : (" + T([None, 32])
        + ", tensor<32x10xf32>) -> " + T([None, 10]),
        "  return %o : " + T([None, 10]),
        "}",
    ]
    return "\n".join(lines) + "\n", (32, 32, 3)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, build in (("mlp", mlp), ("convnet", convnet)):
        for batch in (None,) + BATCHES:
            text, item = build(batch, np.random.default_rng(7))
            tag = "dyn" if batch is None else str(batch)
            with open(os.path.join(out, "%s_%s.mlir" % (name, tag)), "w") as f:
                f.write(text)
            if batch is not None:
                x = np.random.default_rng(batch).uniform(-1, 1, (batch,) + item)
                np.save(os.path.join(out, "%s_%d.npy" % (name, batch)),
                        x.astype(np.float32))


if __name__ == "__main__":
    main()
