#!/usr/bin/python3
"""Runs ONNX backend test cases (model.onnx + test_data_set_*/input_*.pb,
output_*.pb) through grt-compile and grt-run, as ONNX's own runner does:
each output compared with rtol 1e-3 and atol 1e-5 (floats), exactly for
integers and bools, shapes and dtypes included.

  run_onnx_tests.py --grt-compile BIN --grt-run BIN --work DIR
                    --exceptions FILE [--device local-sync]
                    [--compile-flag=--target=cpu,vulkan] [--jobs N]
                    [--filter REGEX] [--update] SUITE_DIR...

A case folder may hold grt_expect_ir.txt: "dump PASS" (a --dump-after
name), then "require REGEX" and "forbid REGEX" lines; the case compiles
with --dump-after=PASS and fails unless each required pattern matches a
line of the dump and no forbidden one does (tests/onnx/quant_models.py
uses it to show that QDQ models run on integer ops, not f32).

Every test_* folder under each SUITE_DIR is a case. A case that fails must
be listed in the exceptions file ("name: reason", '#' comments); a listed
case that passes is an error too, so the file always says exactly what
fails. --update rewrites the file from this run (reasons taken from the
first line of each failure). Exit status 0 when the run matches the file.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

RTOL = 1e-3
ATOL = 1e-5


def load_exceptions(path):
    result = {}
    if not os.path.exists(path):
        return result
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, reason = line.partition(":")
            result[name.strip()] = reason.strip()
    return result


def first_line(text):
    for line in text.splitlines():
        line = line.strip()
        if line:
            # Drop paths so reasons do not depend on where the suite lives.
            line = re.sub(r"/\S*/(model\.onnx)", r"\1", line)
            return line[:300]
    return "no message"


BFLOAT16 = 16


def read_tensor_proto(path):
    tensor = onnx.TensorProto()
    with open(path, "rb") as f:
        tensor.ParseFromString(f.read())
    return tensor


def read_tensor(path):
    """The tensor as a numpy array; bfloat16 (which numpy lacks) as float32."""
    tensor = read_tensor_proto(path)
    array = numpy_helper.to_array(tensor)
    if tensor.data_type == BFLOAT16:
        array = bf16_bits_to_f32(array.astype(np.uint16))
    return array


def bf16_bits_to_f32(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def f32_to_bf16_bits(values):
    """Round to nearest even, as ONNX's bfloat16 conversion does."""
    u = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def compare(name, got, want):
    if got.shape != want.shape:
        return "%s: shape %s, expected %s" % (name, got.shape, want.shape)
    if want.dtype.kind in "fc":
        if got.dtype != want.dtype:
            return "%s: dtype %s, expected %s" % (name, got.dtype, want.dtype)
        g = got.astype(np.float64)
        w = want.astype(np.float64)
        both_nan = np.isnan(g) & np.isnan(w)
        same_inf = np.isinf(w) & (g == w)
        with np.errstate(invalid="ignore"):  # inf - inf: handled by same_inf
            close = (np.abs(g - w) <= ATOL + RTOL * np.abs(w)) | both_nan | same_inf
        if not close.all():
            bad = np.argwhere(~close)[0]
            index = tuple(int(i) for i in bad)
            return "%s: %d of %d elements differ, first at %s: %r vs expected %r" % (
                name, int((~close).sum()), close.size, index, g[index], w[index])
        return None
    if got.dtype != want.dtype:
        return "%s: dtype %s, expected %s" % (name, got.dtype, want.dtype)
    if not np.array_equal(got, want):
        bad = np.argwhere(got != want)[0]
        index = tuple(int(i) for i in bad)
        return "%s: differs at %s: %r vs expected %r" % (name, index, got[index], want[index])
    return None


def parse_expect_ir(text, path):
    """grt_expect_ir.txt's |text|: (dump pass, [(require?, compiled regex)])."""
    dump, patterns = None, []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word == "dump" and rest:
            dump = rest.strip()
        elif word in ("require", "forbid") and rest:
            patterns.append((word == "require", re.compile(rest)))
        else:
            raise ValueError("%s:%d: expected 'dump PASS', 'require REGEX' or "
                             "'forbid REGEX', got %r" % (path, number, line))
    if dump is None:
        raise ValueError("%s: no 'dump PASS' line" % path)
    return dump, patterns


def read_expect_ir(path):
    with open(path) as f:
        return parse_expect_ir(f.read(), path)


def check_ir(text, patterns):
    """The first broken expectation of |patterns| on the dump |text|, or None."""
    lines = text.splitlines()
    for required, pattern in patterns:
        found = next((line for line in lines if pattern.search(line)), None)
        if required and found is None:
            return "no line of the dump matches %r" % pattern.pattern
        if not required and found is not None:
            return "the dump has %r, which matches forbidden %r" % (found.strip()[:160],
                                                                 pattern.pattern)
    return None


def run_case(args, case_dir):
    try:
        return run_case_checked(args, case_dir)
    except Exception as e:  # report, do not stop the sweep
        return os.path.basename(case_dir.rstrip("/")), "runner: %s" % first_line(repr(e))


def run_case_checked(args, case_dir):
    name = os.path.basename(case_dir.rstrip("/"))
    work = os.path.join(args.work, name)
    os.makedirs(work, exist_ok=True)
    vmfb = os.path.join(work, "model.vmfb")
    compile_cmd = [args.grt_compile, os.path.join(case_dir, "model.onnx"), "-o", vmfb]
    compile_cmd += args.compile_flag
    expect_path = os.path.join(case_dir, "grt_expect_ir.txt")
    expect = read_expect_ir(expect_path) if os.path.exists(expect_path) else None
    if expect:
        compile_cmd.append("--dump-after=" + expect[0])
    try:
        p = subprocess.run(compile_cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return name, "compile: timed out after 300 s"
    if p.returncode != 0:
        return name, "compile: " + first_line(p.stderr)
    if expect:
        problem = check_ir(p.stdout, expect[1])
        if problem:
            return name, "compile: --dump-after=%s: %s" % (expect[0], problem)
    model = onnx.load(os.path.join(case_dir, "model.onnx"), load_external_data=False)
    initializers = {t.name for t in model.graph.initializer}
    graph_inputs = [i for i in model.graph.input if i.name not in initializers]
    input_names = [i.name for i in graph_inputs]
    # Element types as the model declares them: ONNX 1.12's test data
    # stores bfloat16 tensors as their uint16 bits.
    input_bf16 = [i.type.tensor_type.elem_type == BFLOAT16 for i in graph_inputs]
    output_bf16 = [o.type.tensor_type.elem_type == BFLOAT16 for o in model.graph.output]
    sets = sorted(d for d in os.listdir(case_dir) if d.startswith("test_data_set_"))
    if not sets:
        return name, "no test_data_set_* folder"
    for data_set in sets:
        data_dir = os.path.join(case_dir, data_set)
        inputs = sorted((f for f in os.listdir(data_dir) if f.startswith("input_")),
                        key=lambda f: int(re.findall(r"\d+", f)[0]))
        outputs = sorted((f for f in os.listdir(data_dir) if f.startswith("output_")),
                         key=lambda f: int(re.findall(r"\d+", f)[0]))
        if len(inputs) != len(input_names):
            return name, "%s: %d input files for %d graph inputs" % (
                data_set, len(inputs), len(input_names))
        run_cmd = [args.grt_run, "--module=" + vmfb, "--function=main",
                   "--device=" + args.device]
        for i, f in enumerate(inputs):
            proto = read_tensor_proto(os.path.join(data_dir, f))
            array = numpy_helper.to_array(proto)
            if array.dtype == object:
                return name, "%s: string inputs are not supported" % data_set
            if proto.data_type == BFLOAT16 or (i < len(input_bf16) and input_bf16[i]):
                # numpy has no bfloat16: pass the raw bits with the shape.
                path = os.path.join(work, "%s_in%d.bin" % (data_set, i))
                array.astype(np.uint16).tofile(path)
                shape = "x".join(str(d) for d in array.shape)
                run_cmd.append("--input=%s%sbf16=@%s" % (shape, "x" if shape else "", path))
                continue
            path = os.path.join(work, "%s_in%d.npy" % (data_set, i))
            # copy(order="C"), not ascontiguousarray, which makes scalars 1-D.
            np.save(path, array.copy(order="C"))
            run_cmd.append("--input=@" + path)
        out_paths = []
        out_bf16 = []
        for i, f in enumerate(outputs):
            is_bf16 = (read_tensor_proto(os.path.join(data_dir, f)).data_type == BFLOAT16 or
                       (i < len(output_bf16) and output_bf16[i]))
            path = os.path.join(work, "%s_out%d.%s" % (data_set, i, "bin" if is_bf16 else "npy"))
            if os.path.exists(path):
                os.remove(path)
            out_paths.append(path)
            out_bf16.append(is_bf16)
            run_cmd.append("--output=@" + path)
        try:
            p = subprocess.run(run_cmd, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            return name, "run: timed out after 300 s"
        if p.returncode != 0:
            return name, "run: " + first_line(p.stderr)
        for i, f in enumerate(outputs):
            want = read_tensor(os.path.join(data_dir, f))
            if out_bf16[i] and want.dtype == np.uint16:
                want = bf16_bits_to_f32(want)
            try:
                if out_bf16[i]:
                    got = bf16_bits_to_f32(np.fromfile(out_paths[i], dtype=np.uint16))
                    if got.size != want.size:
                        return name, "output %d: %d bf16 values, expected %d" % (
                            i, got.size, want.size)
                    got = got.reshape(want.shape)
                else:
                    got = np.load(out_paths[i])
            except Exception as e:  # a missing or unreadable result
                return name, "output %d: %s" % (i, first_line(str(e)))
            problem = compare("output %d" % i, got, want)
            if problem:
                return name, "%s: %s" % (data_set, problem)
    return name, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--grt-compile", required=True)
    parser.add_argument("--grt-run", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--exceptions", required=True)
    parser.add_argument("--device", default="local-sync")
    parser.add_argument("--compile-flag", action="append", default=[])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--filter", default=None)
    parser.add_argument("--update", action="store_true")
    parser.add_argument("suites", nargs="+")
    args = parser.parse_args()

    cases = []
    for suite in args.suites:
        if not os.path.isdir(suite):
            print("run_onnx_tests: suite folder '%s' does not exist (Debian: "
                  "libonnx-testdata)" % suite, file=sys.stderr)
            return 1
        for entry in sorted(os.listdir(suite)):
            path = os.path.join(suite, entry)
            if os.path.isfile(os.path.join(path, "model.onnx")):
                if args.filter is None or re.search(args.filter, entry):
                    cases.append(path)
    # Skip (exit 77, ctest's SKIP_RETURN_CODE) when the device's driver
    # has no device on this machine: hardware is absent, not a failure.
    driver = args.device.split(":")[0]
    listing = subprocess.run([args.grt_run, "--list_devices"], capture_output=True, text=True)
    if not any(line.startswith(driver + ":") for line in listing.stdout.splitlines()):
        print("skipped: no %s device on this machine (grt-run --list_devices)" % driver)
        return 77
    os.makedirs(args.work, exist_ok=True)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for name, problem in pool.map(lambda c: run_case(args, c), cases):
            results[name] = problem

    exceptions = load_exceptions(args.exceptions)
    passed = sorted(n for n, p in results.items() if p is None)
    failed = sorted(n for n, p in results.items() if p is not None)
    if args.update:
        kept = {n: r for n, r in exceptions.items() if n not in results}
        with open(args.exceptions, "w") as f:
            f.write("# ONNX backend test cases that fail on this configuration, with the\n"
                    "# reason (tests/onnx/run_onnx_tests.py checks this list both ways).\n")
            for n in sorted(set(failed) | set(kept)):
                f.write("%s: %s\n" % (n, results.get(n) or kept[n]))
    new_failures = [n for n in failed if n not in exceptions]
    new_passes = [n for n in passed if n in exceptions]
    for n in new_failures:
        print("FAIL (not in %s): %s: %s" % (os.path.basename(args.exceptions), n, results[n]))
    for n in new_passes:
        print("PASS but listed in %s (remove it): %s" % (os.path.basename(args.exceptions), n))
    total = len(results)
    print("onnx tests: %d of %d passed (%.1f%%) on %s; %d listed failures" % (
        len(passed), total, 100.0 * len(passed) / max(total, 1), args.device, len(failed)))
    if args.update:
        return 0
    return 1 if new_failures or new_passes else 0


if __name__ == "__main__":
    sys.exit(main())
