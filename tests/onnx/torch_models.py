#!/usr/bin/python3
"""Exports PyTorch models to ONNX (torch.onnx.export, random weights from a
fixed seed), compiles each with grt-compile, runs it with grt-run and
compares grt's outputs with PyTorch's on the same inputs.

  torch_models.py --grt-compile BIN --grt-run BIN --work DIR
                  [--device local-sync] [--only NAME] [--export-only]

Models: resnet18 and mobilenet_v2 (torchvision), a small detector (strided
and grouped convs, upsample, concat, pools, sigmoid), a 2-layer transformer
encoder with an embedding (also exported with a symbolic batch and compiled
with --onnx-input-shape), a small CNN quantized by PyTorch's eager
post-training quantization (exported as a QDQ model: within one output
step of PyTorch's, and its folded IR must hold int8 convolutions and no
f32 ones), and an LSTM+GRU (over 10 steps, unrolled, and over
40 steps, run as a loop). Benchmark models, checked only when --only names
them: resnet50, mobilenet_v3_large, mobilenet_v3_small, a MobileBERT-like
encoder at seq 384 and torchvision's ResNet-18 quantized as quantized_cnn
(BENCH_ONLY). Nothing is committed: the
.onnx files are made at test time in --work. --export-only writes
NAME.onnx and NAME.input*.npy / NAME.expected*.npy and stops (the samples
and benchmarks use it). Exit status 0 when every model matches.
"""
import argparse
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn as nn

from quant_models import QDQ_EXPECT_IR
from run_onnx_tests import check_ir, parse_expect_ir

RTOL = 1e-3
ATOL = 1e-4


class Detector(nn.Module):
    """A small single-shot detector: a strided backbone with a grouped conv,
    a pooled branch, an upsampled feature-pyramid merge and sigmoid heads."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16),
                                  nn.ReLU())
        self.stage1 = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1, groups=2),
                                    nn.BatchNorm2d(32), nn.ReLU())
        self.stage2 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(32, 64, 3, padding=1), nn.ReLU())
        self.lateral = nn.Conv2d(32, 64, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.pool = nn.AvgPool2d(3, stride=1, padding=1)
        self.head_box = nn.Conv2d(128, 4 * 3, 1)
        self.head_cls = nn.Conv2d(128, 5 * 3, 1)

    def forward(self, x):
        c1 = self.stage1(self.stem(x))
        c2 = self.stage2(c1)
        merged = torch.cat([self.up(c2), self.pool(self.lateral(c1))], dim=1)
        return self.head_box(merged), torch.sigmoid(self.head_cls(merged))


class Encoder(nn.Module):
    """Token embedding, positional embedding, 2 transformer encoder layers."""

    def __init__(self, vocab=100, dim=32, heads=4, seq=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.randn(1, seq, dim) * 0.1)
        layer = nn.TransformerEncoderLayer(dim, heads, dim_feedforward=64, dropout=0.0,
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.norm = nn.LayerNorm(dim)

    def forward(self, tokens):
        return self.norm(self.encoder(self.embed(tokens) + self.pos))


class SelfAttention(nn.Module):
    """torch's nn.MultiheadAttention (4 heads of 4) as self-attention: its
    export reshapes to [seq, batch * heads, 4] with a shape computed from
    the symbolic batch (Shape, Gather, Mul, Concat, Reshape)."""

    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(16, 4, batch_first=True)

    def forward(self, x):
        return self.attn(x, x, x, need_weights=False)[0]


class Recurrent(nn.Module):
    """An LSTM followed by a GRU, returning the sequence and the final state."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(8, 16, batch_first=True)
        self.gru = nn.GRU(16, 12, batch_first=True)

    def forward(self, x):
        y, _ = self.lstm(x)
        z, h = self.gru(y)
        return z, h


class MobileBertLike(nn.Module):
    """A MobileBERT-shaped encoder: 24 layers, each a 512 -> 128 bottleneck,
    4-head self-attention at width 128, four stacked 128 -> 512 -> 128
    feed-forward blocks and a 128 -> 512 output projection with a residual,
    over a token embedding (about 15 GFLOP at seq 384)."""

    class Layer(nn.Module):
        def __init__(self, wide, narrow, heads, ffn):
            super().__init__()
            self.down = nn.Linear(wide, narrow)
            self.attn = nn.MultiheadAttention(narrow, heads, batch_first=True)
            self.norm1 = nn.LayerNorm(narrow)
            self.ffn = nn.ModuleList(
                nn.Sequential(nn.Linear(narrow, wide), nn.ReLU(), nn.Linear(wide, narrow))
                for _ in range(ffn))
            self.norms = nn.ModuleList(nn.LayerNorm(narrow) for _ in range(ffn))
            self.up = nn.Linear(narrow, wide)
            self.norm2 = nn.LayerNorm(wide)

        def forward(self, x):
            h = self.down(x)
            h = self.norm1(h + self.attn(h, h, h, need_weights=False)[0])
            for ffn, norm in zip(self.ffn, self.norms):
                h = norm(h + ffn(h))
            return self.norm2(x + self.up(h))

    def __init__(self, vocab=1000, wide=512, narrow=128, heads=4, ffn=4, layers=24, seq=384):
        super().__init__()
        self.embed = nn.Embedding(vocab, wide)
        self.pos = nn.Parameter(torch.randn(1, seq, wide) * 0.1)
        self.layers = nn.ModuleList(
            MobileBertLike.Layer(wide, narrow, heads, ffn) for _ in range(layers))

    def forward(self, tokens):
        x = self.embed(tokens) + self.pos
        for layer in self.layers:
            x = layer(x)
        return x


class QuantizedCnn(nn.Module):
    """A small CNN for PyTorch's eager post-training quantization (QuantStub
    and DeQuantStub around conv+relu, conv+relu, pool, linear): exported, it
    is the QDQ model users bring (QuantizeLinear, DequantizeLinear around
    each Conv and Gemm), which grt folds into its integer ops."""

    def __init__(self):
        super().__init__()
        self.quant = torch.quantization.QuantStub()
        self.dequant = torch.quantization.DeQuantStub()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.relu2 = nn.ReLU()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(32, 10)

    def fuse_model(self):
        torch.quantization.fuse_modules(self, [["conv1", "relu1"], ["conv2", "relu2"]],
                                        inplace=True)

    def forward(self, x):
        x = self.relu1(self.conv1(self.quant(x)))
        x = self.relu2(self.conv2(x))
        return self.dequant(self.fc(torch.flatten(self.pool(x), 1)))


def quantize_eager(model, make_input):
    """PyTorch's eager post-training static quantization (qnnpack: per-tensor
    uint8 activations and int8 weights) of a model with fuse_model (conv,
    batch norm and relu fused, as torchvision's quantizable models have),
    calibrated on 8 inputs."""
    torch.backends.quantized.engine = "qnnpack"
    model.qconfig = torch.quantization.get_default_qconfig("qnnpack")
    model.fuse_model()
    torch.quantization.prepare(model, inplace=True)
    with torch.no_grad():
        for _ in range(8):
            model(make_input())
    return torch.quantization.convert(model, inplace=True)


# Quantized models: compared with PyTorch within this many steps of the
# output's quantization (PyTorch's kernels requantize in fixed point, ONNX
# in f32, so a value on a rounding boundary may land one step apart, and
# through ResNet-18's 20 layers such steps add up), and their folded
# tensor IR must show the integer ops and no f32 ones (as quant_models.py's
# QDQ cases).
QUANTIZED = {"quantized_cnn": 1, "quantized_resnet18": 3}

# Benchmark models (bench/onnx/run.sh): larger than the test models, so the
# onnx_torch_models test checks them only when --only names them.
BENCH_ONLY = ("resnet50", "mobilenet_v3_large", "mobilenet_v3_small", "mobilebert",
              "quantized_resnet18")


def make_models():
    import torchvision
    import torchvision.models.quantization
    return {
        "resnet18": (lambda: torchvision.models.resnet18(), lambda: torch.randn(1, 3, 224, 224)),
        "mobilenet_v2": (lambda: torchvision.models.mobilenet_v2(),
                         lambda: torch.randn(1, 3, 224, 224)),
        "resnet50": (lambda: torchvision.models.resnet50(), lambda: torch.randn(1, 3, 224, 224)),
        "mobilenet_v3_large": (lambda: torchvision.models.mobilenet_v3_large(),
                               lambda: torch.randn(1, 3, 224, 224)),
        "mobilenet_v3_small": (lambda: torchvision.models.mobilenet_v3_small(),
                               lambda: torch.randn(1, 3, 224, 224)),
        "mobilebert": (MobileBertLike, lambda: torch.randint(0, 1000, (1, 384))),
        "detector": (Detector, lambda: torch.randn(1, 3, 128, 128)),
        "encoder": (Encoder, lambda: torch.randint(0, 100, (1, 16))),
        "recurrent": (Recurrent, lambda: torch.randn(1, 10, 8)),
        "quantized_cnn": (QuantizedCnn, lambda: torch.randn(1, 3, 32, 32)),
        # torchvision's quantizable ResNet-18 (QuantStub, fused conv+bn+relu,
        # quantized adds), quantized as quantized_cnn: bench/onnx/qdq.sh
        # times it against resnet18 in f32.
        "quantized_resnet18": (
            lambda: torchvision.models.quantization.resnet18(quantize=False),
            lambda: torch.randn(1, 3, 224, 224)),
        # Longer than 16 steps: the importer runs the cells in a while loop
        # instead of unrolling them.
        "recurrent_long": (Recurrent, lambda: torch.randn(1, 40, 8)),
        # Exported with a symbolic batch (dim_param "batch"), compiled for
        # batch 3 with --onnx-input-shape.
        "encoder_batch": (Encoder, lambda: torch.randint(0, 100, (3, 16)),
                          {"input": {0: "batch"}}, ["--onnx-input-shape=input:3x16"]),
        # Compiled once with symbolic dimensions (no pin) and run at each
        # of DYNAMIC_INPUTS' sizes: the encoder at batch 1, 3 and 8, the
        # attention with batch and sequence symbolic.
        "encoder_dynamic": (Encoder, lambda: torch.randint(0, 100, (3, 16)),
                            {"input": {0: "batch"}}),
        "attention_dynamic": (SelfAttention, lambda: torch.randn(3, 5, 16),
                              {"input": {0: "batch", 1: "seq"}}),
    }


# The further inputs a model compiled with symbolic dimensions runs on
# (the export's input is checked first).
DYNAMIC_INPUTS = {
    "encoder_dynamic": [lambda b=b: torch.randint(0, 100, (b, 16)) for b in (1, 8)],
    "attention_dynamic": [lambda b=b, s=s: torch.randn(b, s, 16)
                          for b, s in ((1, 5), (8, 5), (1, 1), (8, 7))],
}


def export(name, work):
    """Writes NAME.onnx, NAME.input0.npy and NAME.expected<i>.npy."""
    torch.manual_seed(0)
    factory, make_input = make_models()[name][:2]
    model = factory().eval()
    # Non-trivial batch-norm statistics, so folding them is tested.
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 1.5)
    if name in QUANTIZED:
        model = quantize_eager(model, make_input)
    x = make_input()
    with torch.no_grad():
        expected = model(x)
    if not isinstance(expected, tuple):
        expected = (expected,)
    path = os.path.join(work, name + ".onnx")
    entry = make_models()[name]
    torch.onnx.export(model, (x,), path, opset_version=13, input_names=["input"],
                      do_constant_folding=True,
                      dynamic_axes=entry[2] if len(entry) > 2 else None)
    np.save(os.path.join(work, name + ".input0.npy"), x.numpy())
    for i, e in enumerate(expected):
        np.save(os.path.join(work, "%s.expected%d.npy" % (name, i)), e.numpy())
    return path, len(expected)


def output_step(work, name):
    """The scale of the last DequantizeLinear of the exported NAME.onnx: the
    output's quantization step."""
    import onnx
    from onnx import numpy_helper
    model = onnx.load(os.path.join(work, name + ".onnx"))
    constants = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type == "Constant":
            constants[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)
    last = [n for n in model.graph.node if n.op_type == "DequantizeLinear"][-1]
    return float(np.max(constants[last.input[1]]))


def check(args, name):
    path, count = export(name, args.work)
    vmfb = os.path.join(args.work, name + ".vmfb")
    entry = make_models()[name]
    flags = entry[3] if len(entry) > 3 else []
    expect = parse_expect_ir(QDQ_EXPECT_IR, "quant_models.py") if name in QUANTIZED else None
    if expect:
        flags = flags + ["--dump-after=" + expect[0]]
    p = subprocess.run([args.grt_compile, path, "-o", vmfb] + flags, capture_output=True,
                       text=True)
    if p.returncode != 0:
        return "compile: " + p.stderr.strip()[:400]
    if expect:
        problem = check_ir(p.stdout, expect[1])
        if problem:
            return "compile: --dump-after=%s: %s" % (expect[0], problem)
    worst = 0.0
    for tag in ["input0"] + ["size%d" % k for k in range(len(DYNAMIC_INPUTS.get(name, [])))]:
        if tag != "input0":
            write_dynamic_input(args.work, name, tag)
        problem, error = run_and_compare(args, name, vmfb, tag, count)
        if problem:
            return problem if tag == "input0" else "%s: %s" % (
                "x".join(map(str, np.load(os.path.join(args.work, "%s.%s.npy" % (name, tag)))
                             .shape)), problem)
        worst = max(worst, error)
    sizes = len(DYNAMIC_INPUTS.get(name, [])) + 1
    print("  %s: %d outputs match PyTorch%s (max abs error %.3g)" % (
        name, count, " at %d input sizes" % sizes if sizes > 1 else "", worst))
    return None


def write_dynamic_input(work, name, tag):
    """Writes NAME.TAG.npy and NAME.TAG.expected<i>.npy for DYNAMIC_INPUTS'
    entry TAG (sizeK) of NAME, with the exported model's weights."""
    torch.manual_seed(0)
    model = make_models()[name][0]().eval()
    torch.manual_seed(1 + int(tag[len("size"):]))
    x = DYNAMIC_INPUTS[name][int(tag[len("size"):])]()
    with torch.no_grad():
        expected = model(x)
    if not isinstance(expected, tuple):
        expected = (expected,)
    np.save(os.path.join(work, "%s.%s.npy" % (name, tag)), x.numpy())
    for i, e in enumerate(expected):
        np.save(os.path.join(work, "%s.%s.expected%d.npy" % (name, tag, i)), e.numpy())


def run_and_compare(args, name, vmfb, tag, count):
    """Runs VMFB on NAME.TAG.npy (input0: the export's input) and compares
    with the expected outputs: (problem or None, max abs error)."""
    expected = ("%s.expected%%d.npy" % name if tag == "input0"
                else "%s.%s.expected%%d.npy" % (name, tag))
    cmd = [args.grt_run, "--module=" + vmfb, "--function=main", "--device=" + args.device,
           "--input=@" + os.path.join(args.work, "%s.%s.npy" % (name, tag))]
    outs = [os.path.join(args.work, "%s.%s.out%d.npy" % (name, tag, i)) for i in range(count)]
    cmd += ["--output=@" + o for o in outs]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return "run: " + p.stderr.strip()[:400], 0.0
    worst = 0.0
    step = output_step(args.work, name) * QUANTIZED[name] if name in QUANTIZED else 0.0
    for i, out in enumerate(outs):
        got = np.load(out)
        want = np.load(os.path.join(args.work, expected % i))
        if got.shape != want.shape:
            return "output %d: shape %s, expected %s" % (i, got.shape, want.shape), 0.0
        err = np.abs(got.astype(np.float64) - want)
        bound = ATOL + RTOL * np.abs(want)
        if name in QUANTIZED:
            bound = np.maximum(bound, 1.001 * step)
        if not (err <= bound).all():
            return "output %d: %d of %d elements outside rtol %g atol %g%s (max error %g)" % (
                i, int((err > bound).sum()), err.size, RTOL, ATOL,
                " or %d output steps (%g)" % (QUANTIZED[name], step) if name in QUANTIZED
                else "", float(err.max())), 0.0
        worst = max(worst, float(err.max()))
    return None, worst


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--grt-compile")
    parser.add_argument("--grt-run")
    parser.add_argument("--work", required=True)
    parser.add_argument("--device", default="local-sync")
    parser.add_argument("--only", action="append")
    parser.add_argument("--export-only", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    torch.set_num_threads(1)
    names = args.only or [n for n in make_models() if n not in BENCH_ONLY]
    if args.export_only:
        for name in names:
            print(export(name, args.work)[0])
        return 0
    failures = 0
    for name in names:
        problem = check(args, name)
        if problem:
            print("FAIL %s: %s" % (name, problem))
            failures += 1
    print("torch models: %d of %d match PyTorch" % (len(names) - failures, len(names)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
