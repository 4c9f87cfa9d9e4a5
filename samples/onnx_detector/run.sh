#!/usr/bin/env bash
# The ONNX sample: a small PyTorch detector (strided and grouped convs,
# batch norm, max and average pools, nearest upsample, concat, sigmoid)
# exported with torch.onnx.export (random weights, seed 0), compiled by
# grt-compile and run by grt-run on DEVICE; both outputs are checked
# against PyTorch's.
#
#   samples/onnx_detector/run.sh BUILD_DIR [DEVICE]
set -euo pipefail
build=${1:?usage: samples/onnx_detector/run.sh BUILD_DIR [DEVICE]}
device=${2:-local-sync}
root=$(cd "$(dirname "$0")/../.." && pwd)
work="$build/samples/onnx_detector/$device"
mkdir -p "$work"
echo "== torch.onnx.export: detector -> $work/detector.onnx"
/usr/bin/python3 "$root/tests/onnx/torch_models.py" --work "$work" --export-only \
  --only detector >/dev/null 2>"$work/export.log" || {
  cat "$work/export.log" >&2
  echo "onnx_detector: the PyTorch export failed" >&2
  exit 1
}
echo "== grt-compile detector.onnx -o detector.vmfb"
"$build/bin/grt-compile" "$work/detector.onnx" -o "$work/detector.vmfb"
echo "== grt-run --device=$device --function=main --input=@detector.input0.npy"
# grt-run compares each result with PyTorch's (absolute 1e-4 for f32).
"$build/bin/grt-run" --module="$work/detector.vmfb" --function=main --device="$device" \
  --input=@"$work/detector.input0.npy" \
  --expected_output=@"$work/detector.expected0.npy" \
  --expected_output=@"$work/detector.expected1.npy" --print_max_element_count=8
