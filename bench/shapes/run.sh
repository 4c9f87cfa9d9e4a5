#!/usr/bin/env bash
# Shape benchmark: programs compiled once with a symbolic batch ("?")
# against the same programs compiled with the batch fixed (the anchor),
# timed in the same run at batch 1, 8 and 64, on one thread (local-sync)
# and two (local-task --task_workers=2). Prints the ratio dynamic/static
# per row (1.00: the symbolic program is as fast; the goal is <= 1.15).
#
#   bench/shapes/run.sh BUILD_DIR
#
# The programs (an MLP 256-512-512-10 and a two-convolution net on 32x32x3
# images) and their inputs are written by programs.py under
# BUILD_DIR/bench/shapes. Each time is grt-benchmark's median of RUNS
# (default 30) calls after WARMUP (default 5).
set -uo pipefail

build=${1:?usage: bench/shapes/run.sh BUILD_DIR}
build=$(cd "$build" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
runs=${RUNS:-30}
warmup=${WARMUP:-5}
work=$build/bench/shapes
python=${PYTHON:-/usr/bin/python3}

die() {
  echo "bench/shapes: FAILED: $*" >&2
  exit 1
}
for tool in grt-compile grt-benchmark; do
  [ -x "$build/bin/$tool" ] || die "$build/bin/$tool is missing; build first"
done
"$python" "$here/programs.py" "$work" || die "programs.py could not write the programs"

# median_ms VMFB NPY DEVICE_FLAGS...: grt-benchmark's median in ms.
median_ms() {
  local vmfb=$1 npy=$2
  shift 2
  local out
  out=$("$build/bin/grt-benchmark" --module="$vmfb" --function=main \
        --input=@"$npy" "$@" --benchmark_repetitions="$runs" \
        --benchmark_warmup="$warmup" --benchmark_format=json 2>"$work/err") ||
    die "grt-benchmark $vmfb: $(head -1 "$work/err")"
  local ns
  ns=$(sed -n 's/.*"median_ns": \([0-9]*\).*/\1/p' <<<"$out")
  [ -n "$ns" ] || die "grt-benchmark $vmfb printed no median"
  awk -v ns="$ns" 'BEGIN { printf "%.3f", ns / 1e6 }'
}

printf "%-8s %5s | %10s %10s %6s | %10s %10s %6s\n" program batch \
  "static 1T" "dynamic 1T" ratio "static 2T" "dynamic 2T" ratio
for program in mlp convnet; do
  "$build/bin/grt-compile" "$work/${program}_dyn.mlir" -o "$work/${program}_dyn.vmfb" \
    2>"$work/err" || die "grt-compile ${program}_dyn.mlir: $(head -1 "$work/err")"
  for batch in 1 8 64; do
    "$build/bin/grt-compile" "$work/${program}_$batch.mlir" -o "$work/${program}_$batch.vmfb" \
      2>"$work/err" || die "grt-compile ${program}_$batch.mlir: $(head -1 "$work/err")"
    npy=$work/${program}_$batch.npy
    row=()
    for device in "--device=local-sync" "--device=local-task --task_workers=2"; do
      # shellcheck disable=SC2086
      s=$(median_ms "$work/${program}_$batch.vmfb" "$npy" $device) || exit 1
      # shellcheck disable=SC2086
      d=$(median_ms "$work/${program}_dyn.vmfb" "$npy" $device) || exit 1
      row+=("$s" "$d" "$(awk -v s="$s" -v d="$d" 'BEGIN { printf "%.2f", d / s }')")
    done
    printf "%-8s %5s | %10s %10s %6s | %10s %10s %6s\n" "$program" "$batch" "${row[@]}"
  done
done
echo "(ms, median of $runs calls after $warmup warmup; ratio dynamic/static, the static program is the anchor)"
