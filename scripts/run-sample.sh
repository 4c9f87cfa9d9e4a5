#!/usr/bin/env bash
# `make run`: assembles every samples/vm/*.mlir with the freshly built
# grt-compile, prints what grt-dump sees in it, and calls its functions with
# grt-run, checking each result; then adds two tensors with grt-run on both
# CPU drivers and runs the embedding sample (samples/simple_embedding); then
# compiles the MLP sample (samples/mlp) and runs it with its input, printing
# the result and whether it matches expected.npy; then exports the ONNX
# sample (samples/onnx_detector) from PyTorch, compiles and checks it. Any failing step stops the
# script with a message naming it and a nonzero status.
#
#   scripts/run-sample.sh BUILD_DIR
set -euo pipefail

build=${1:?usage: scripts/run-sample.sh BUILD_DIR}
bin="$build/bin"
root=$(cd "$(dirname "$0")/.." && pwd)

die() {
  echo "run-sample: FAILED: $*" >&2
  exit 1
}

for tool in grt-compile grt-dump grt-run; do
  [ -x "$bin/$tool" ] || die "$bin/$tool is missing; build first (make build)"
done

out="$build/samples/vm"
mkdir -p "$out"
shopt -s nullglob
sources=("$root"/samples/vm/*.mlir)
[ ${#sources[@]} -gt 0 ] || die "no samples in $root/samples/vm"
for source in "${sources[@]}"; do
  module="$out/$(basename "${source%.mlir}").vmfb"
  echo "== grt-compile $(basename "$source")"
  "$bin/grt-compile" "$source" -o "$module" || die "grt-compile $source"
  echo "== grt-dump $(basename "$module")"
  "$bin/grt-dump" "$module" || die "grt-dump $module"
done

# module  function  input  the line grt-run must print
calls=(
  "fib.vmfb fib 25 result[0]: i32=75025"
  "fib.vmfb sum 1000000 result[0]: i64=499999500000"
)
for call in "${calls[@]}"; do
  read -r module function input expected <<<"$call"
  echo "== grt-run --function=$function --input=$input"
  output=$("$bin/grt-run" --module="$out/$module" --function="$function" \
             --input="$input" --print_statistics) ||
    die "grt-run $function($input)"
  echo "$output"
  grep -qxF -- "$expected" <<<"$output" ||
    die "$function($input): expected '$expected'"
done
# Tensors on both CPU drivers, checked by grt-run itself.
add_module="$build/samples/simple_embedding/simple_embedding_add.vmfb"
if [ -f "$add_module" ]; then
  for device in local-sync local-task; do
    echo "== grt-run --device=$device --function=add (tensors)"
    "$bin/grt-run" --module="$add_module" --function=add --device="$device" \
      --input="4xf32=1 2 3 4" --input="4xf32=10 20 30 40" \
      --expected_output="4xf32=11 22 33 44" || die "grt-run add on $device"
  done
  echo "== simple_embedding"
  "$bin/simple_embedding" "$add_module" || die "simple_embedding"
fi
# The MLP sample (samples/mlp): StableHLO as JAX exports it, compiled by
# grt-compile and run on the default CPU device against numpy's result.
mlp="$root/samples/mlp"
echo "== grt-compile samples/mlp/mlp.mlir"
"$bin/grt-compile" "$mlp/mlp.mlir" -o "$out/mlp.vmfb" ||
  die "grt-compile samples/mlp/mlp.mlir"
echo "== grt-run --module=mlp.vmfb --function=main --input=@input.npy" \
     "--expected_output=@expected.npy"
"$bin/grt-run" --module="$out/mlp.vmfb" --function=main \
  --input=@"$mlp/input.npy" --expected_output=@"$mlp/expected.npy" ||
  die "samples/mlp: the result does not match samples/mlp/expected.npy"
# The ONNX sample (samples/onnx_detector): a PyTorch detector exported to
# ONNX, compiled and checked against PyTorch's outputs.
bash "$root/samples/onnx_detector/run.sh" "$build" local-sync ||
  die "samples/onnx_detector: see the messages above"
echo "== all samples ran"
