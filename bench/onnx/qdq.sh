#!/usr/bin/env bash
# int8 against f32 on one CNN, in one run: torchvision's ResNet-18 in f32
# (resnet18) and quantized by PyTorch's eager post-training quantization,
# exported as a QDQ model (quantized_resnet18: QuantizeLinear and
# DequantizeLinear around each conv, which grt folds into its int8
# convolution), both from tests/onnx/torch_models.py --export-only.
#
#   bench/onnx/qdq.sh BUILD_DIR
#
# Compiles both with BUILD_DIR/bin/grt-compile (-O2, host CPU features),
# then ROUNDS (default 5) times in turn: f32 then int8 through
# grt-benchmark (RUNS timed calls, default 10, after 2 warmup), on
# local-sync and on local-task with 2 workers. Prints each model's best
# and median call over all rounds and the int8/f32 ratio of the medians
# (below 1: int8 is faster). Alternating the two keeps a shared machine's
# load changes on both. WORK (default BUILD_DIR/bench/onnx/models) keeps
# the exported models between runs.
set -euo pipefail

build=${1:?usage: bench/onnx/qdq.sh BUILD_DIR}
build=$(cd "$build" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
rounds=${ROUNDS:-5}
runs=${RUNS:-10}
work=${WORK:-$build/bench/onnx/models}
python=${PYTHON:-/usr/bin/python3}
for tool in grt-compile grt-benchmark; do
  [ -x "$build/bin/$tool" ] || { echo "bench/onnx/qdq: $build/bin/$tool is missing" >&2; exit 1; }
done
mkdir -p "$work"
for model in resnet18 quantized_resnet18; do
  if [ ! -f "$work/$model.onnx" ]; then
    "$python" "$source_dir/tests/onnx/torch_models.py" --work "$work" --only "$model" \
      --export-only 2>/dev/null >/dev/null
  fi
  "$build/bin/grt-compile" "$work/$model.onnx" -o "$work/$model.vmfb"
done

# One grt-benchmark call's per-call times (ms), one a line.
times() {
  "$build/bin/grt-benchmark" --module="$work/$1.vmfb" --function=main "${@:2}" \
    --input=@"$work/$1.input0.npy" --benchmark_repetitions="$runs" --benchmark_format=json |
    "$python" -c 'import json, sys
for t in json.load(sys.stdin)["times_ns"]: print(t / 1e6)'
}

for device in local-sync local-task; do
  flags=(--device="$device")
  [ "$device" = local-task ] && flags+=(--task_workers=2)
  : >"$work/qdq.f32" && : >"$work/qdq.int8"
  for ((r = 0; r < rounds; ++r)); do
    times resnet18 "${flags[@]}" >>"$work/qdq.f32"
    times quantized_resnet18 "${flags[@]}" >>"$work/qdq.int8"
  done
  "$python" - "$device" "$work/qdq.f32" "$work/qdq.int8" <<'EOF'
import sys
import numpy as np
device, f32, int8 = sys.argv[1], np.loadtxt(sys.argv[2]), np.loadtxt(sys.argv[3])
print("ResNet-18 on %s: f32 best %.1f ms median %.1f; int8 QDQ best %.1f median %.1f; "
      "int8/f32 %.2f (medians of %d calls each)" % (
          device, f32.min(), np.median(f32), int8.min(), np.median(int8),
          np.median(int8) / np.median(f32), f32.size))
EOF
done
