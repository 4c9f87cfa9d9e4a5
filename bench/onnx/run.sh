#!/usr/bin/env bash
# ONNX benchmark: the same .onnx files timed through ONNX Runtime (the
# anchor, onnxruntime-node on the CPU) and through grt in one run, at one
# and two threads, with the ratio grt/ORT (below 1: grt is faster).
#
#   bench/onnx/run.sh BUILD_DIR [MODEL...]
#
# MODEL is a name tests/onnx/torch_models.py exports (resnet18,
# mobilenet_v2, detector, encoder, recurrent: all five by default; the
# larger resnet50, mobilenet_v3_large, mobilenet_v3_small and mobilebert
# when named) or a path to an .onnx file whose input is FILE.input0.npy beside it (for
# x.onnx: x.input0.npy). Builds nothing: it uses BUILD_DIR/bin/grt-compile
# and grt-benchmark (`cmake --build build --target bench_onnx` builds both
# and runs this). ONNX Runtime is installed under BUILD_DIR/bench/onnx/ort
# on first use (install_ort.sh, npm).
#
# Per model: grt-compile NAME.onnx -o NAME.vmfb, then in turn ORT 1 thread
# (intraOpNumThreads=1, interOpNumThreads=1), grt --device=local-sync, ORT
# 2 threads, grt --device=local-task --task_workers=2, each the median of
# RUNS (default 20) timed calls after WARMUP (default 3), on the same input
# (NAME.input0.npy). grt's time is grt-benchmark's (the call alone); ORT's
# is one session.run. A model grt cannot compile or run shows "-" in its
# grt columns and "grt: <first line of the error>" at the end of its row;
# the script goes on with the next model.
#
# WORK (default BUILD_DIR/bench/onnx/models) keeps the exported models
# between runs; PYTHON (default /usr/bin/python3, which sees torch) runs
# the exporter; NODE (default node) runs ort_bench.js.
set -uo pipefail

build=${1:?usage: bench/onnx/run.sh BUILD_DIR [MODEL...]}
shift
build=$(cd "$build" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
runs=${RUNS:-20}
warmup=${WARMUP:-3}
work=${WORK:-$build/bench/onnx/models}
python=${PYTHON:-/usr/bin/python3}
node=${NODE:-node}
default_models=(resnet18 mobilenet_v2 detector encoder recurrent)
models=("$@")
[ ${#models[@]} -gt 0 ] || models=("${default_models[@]}")

die() {
  echo "bench/onnx: FAILED: $*" >&2
  exit 1
}
for tool in grt-compile grt-benchmark; do
  [ -x "$build/bin/$tool" ] || die "$build/bin/$tool is missing; build first"
done
mkdir -p "$work"
# The anchor is optional: without node or onnxruntime-node (npm) the grt
# times are printed alone, and each row says why ORT has none.
ort=""
ort_missing=""
if ! command -v "$node" >/dev/null; then
  ort_missing="no ONNX Runtime anchor: node not found (set NODE=...)"
elif ! ort=$(bash "$here/install_ort.sh" "$build" 2>"$work/install_ort.err"); then
  ort=""
  ort_missing="no ONNX Runtime anchor: installing onnxruntime-node failed ($(tail -1 "$work/install_ort.err"))"
fi
[ -z "$ort_missing" ] || echo "bench/onnx: $ort_missing; grt times only" >&2

# The first line of a file, without a tool's "NAME: error: " prefix and
# the model's path (the row names the model already).
first_line() {  # FILE ONNX_PATH
  local line
  line=$(grep -m1 -v '^[[:space:]]*$' "$1" || true)
  line=${line#grt-compile: error: }
  line=${line#grt-benchmark: }
  line=${line#ort_bench: }
  line=${line//"$2: "/}
  echo "${line:-no error message}"
}

# Exports the named models that WORK lacks, all in one exporter run.
missing=()
for m in "${models[@]}"; do
  case "$m" in
    *.onnx) ;;
    *) [ -f "$work/$m.onnx" ] && [ -f "$work/$m.input0.npy" ] || missing+=("$m") ;;
  esac
done
if [ ${#missing[@]} -gt 0 ]; then
  only=()
  for m in "${missing[@]}"; do only+=(--only "$m"); done
  echo "bench/onnx: exporting ${missing[*]} to $work" >&2
  "$python" "$source_dir/tests/onnx/torch_models.py" --export-only \
    --work "$work" "${only[@]}" >"$work/export.log" 2>&1 ||
    echo "bench/onnx: the exporter failed (see $work/export.log)" >&2
fi

# ort_ms ONNX NPY THREADS: prints the median in ms, or fails with the
# error in $work/ort.err.
ort_ms() {
  local out ms
  if [ -z "$ort" ]; then
    echo "$ort_missing" >"$work/ort.err"
    return 1
  fi
  out=$("$node" "$here/ort_bench.js" --ort "$ort" --model "$1" --input "$2" \
    --threads "$3" --runs "$runs" --warmup "$warmup" 2>"$work/ort.err") || return 1
  ms=$(sed -n 's/.*"median_ms":\([0-9.eE+-]*\).*/\1/p' <<<"$out")
  awk -v ms="$ms" 'BEGIN { printf "%.3f\n", ms }'
}

# grt_ms VMFB NPY DEVICE_FLAGS...: prints the median in ms, or fails with
# the error in $work/grt.err.
grt_ms() {
  local vmfb=$1 npy=$2 out ns
  shift 2
  out=$("$build/bin/grt-benchmark" --module="$vmfb" --function=main \
    --input=@"$npy" "$@" --benchmark_repetitions="$runs" \
    --benchmark_warmup="$warmup" --benchmark_format=json 2>"$work/grt.err") ||
    return 1
  ns=$(sed -n 's/.*"median_ns": \([0-9]*\).*/\1/p' <<<"$out")
  awk -v ns="$ns" 'BEGIN { printf "%.3f\n", ns / 1e6 }'
}

join_notes() {  # NOTE...: the notes separated by "; "
  local out="" note
  for note in "$@"; do out+="${out:+; }$note"; done
  echo "$out"
}

ratio() {  # GRT ORT
  if [ "$1" = "-" ] || [ "$2" = "-" ]; then echo "-"; return; fi
  awk -v g="$1" -v o="$2" 'BEGIN { if (o > 0) printf "%.2f\n", g / o; else print "-" }'
}

row() {  # MODEL GRT1 ORT1 RATIO1 GRT2 ORT2 RATIO2 NOTES
  printf '%-14s %10s %10s %8s %10s %10s %8s' "$1" "$2" "$3" "$4" "$5" "$6" "$7"
  if [ -n "${8:-}" ]; then printf '  %s' "$8"; fi
  printf '\n'
}
row model "grt 1T ms" "ORT 1T ms" grt/ORT "grt 2T ms" "ORT 2T ms" grt/ORT ""
for m in "${models[@]}"; do
  case "$m" in
    *.onnx)
      onnx=$m
      name=$(basename "$m" .onnx)
      npy="${m%.onnx}.input0.npy"
      vmfb="$work/$name.vmfb"
      ;;
    *)
      onnx="$work/$m.onnx"
      name=$m
      npy="$work/$m.input0.npy"
      vmfb="$work/$m.vmfb"
      ;;
  esac
  if [ ! -f "$onnx" ] || [ ! -f "$npy" ]; then
    why="missing $onnx or $npy"
    case "$m" in *.onnx) ;; *) why+=" (see $work/export.log)" ;; esac
    row "$name" - - - - - - "$why"
    continue
  fi
  notes=()
  grt_ok=1
  ort_noted=0
  if ! "$build/bin/grt-compile" "$onnx" -o "$vmfb" 2>"$work/grt.err" >/dev/null; then
    notes+=("grt: $(first_line "$work/grt.err" "$onnx")")
    grt_ok=0
  fi
  declare -A t=()
  for threads in 1 2; do
    if ms=$(ort_ms "$onnx" "$npy" "$threads"); then
      t[ort$threads]=$ms
    else
      t[ort$threads]=-
      if [ $ort_noted = 0 ]; then
        notes+=("ORT: $(first_line "$work/ort.err" "$onnx")")
        ort_noted=1
      fi
    fi
    t[grt$threads]=-
    if [ $grt_ok = 1 ]; then
      if [ "$threads" = 1 ]; then
        device=(--device=local-sync)
      else
        device=(--device=local-task --task_workers=2)
      fi
      if ms=$(grt_ms "$vmfb" "$npy" "${device[@]}"); then
        t[grt$threads]=$ms
      else
        notes+=("grt: $(first_line "$work/grt.err" "$onnx")")
        grt_ok=0
      fi
    fi
  done
  row "$name" "${t[grt1]}" "${t[ort1]}" "$(ratio "${t[grt1]}" "${t[ort1]}")" \
    "${t[grt2]}" "${t[ort2]}" "$(ratio "${t[grt2]}" "${t[ort2]}")" "$(join_notes "${notes[@]}")"
  unset t
done
echo "(median of $runs calls after $warmup warmup each; 1T: grt local-sync, ORT intraOpNumThreads=1; 2T: grt local-task --task_workers=2, ORT intraOpNumThreads=2; interOpNumThreads=1; ratio grt/ORT, below 1 is grt faster)"
