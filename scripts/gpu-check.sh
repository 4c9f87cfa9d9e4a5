#!/usr/bin/env bash
# gpu-check: grt's CUDA and Vulkan drivers on a real NVIDIA GPU, in one run
# of under 8 minutes (issue 20; docs/cuda.md "GPU check").
#
#   scripts/gpu-check.sh [--build-dir=DIR] [--no-build] [--detect-only] OUT_DIR
#
# Steps, each with its own time limit (and all within one overall limit,
# GPU_CHECK_SECONDS, default 470), each writing OUT_DIR/logs/<step>.log:
#   build         cmake + ninja (-j$(nproc)) of DIR (default build/), or the
#                 incremental build of a tree made beforehand; --no-build
#                 uses the tree as it is
#   detect        nvidia-smi -L (when installed) and grt-run --list_devices:
#                 a cuda://N line, or the reason grt gives for cuda; the
#                 first Vulkan device whose name says NVIDIA
#   cts_cuda      hal_cts --device=cuda
#   cts_vulkan    GRT_VULKAN_VALIDATION=1 hal_cts --device=vulkan://N,
#                 failing on any "grt vulkan validation:" message
#   bench_*       bench_cuda (bench/gpu): matmul 4096^3 f32, f32 with
#                 --cuda-allow-tf32, f16 against cuBLAS; fused elementwise
#                 over 256 MiB against a device-to-device copy; per-dispatch
#                 cost of CUDA-graph replay against stream launches
#   model_cuda    the largest sample model (samples/*/NAME.mlir) on cuda
#                 against local-task, with its expected output
#   samples_*     every model sample on cuda and on the Vulkan device
#   e2e_cuda      every tests/e2e/stablehlo/*.mlir with --target=cuda
#                 --cuda-arch=sm_90 through grt-check (compile_and_check.sh,
#                 exceptions_cuda.txt)
#   e2e_vulkan    the same with --target=cpu,vulkan on the Vulkan device
#                 (exceptions_vulkan.txt), validation on
# OUT_DIR/summary.md holds the table of steps, the pass/fail/skip counts and
# the benchmark ratios.
#
# One progress line per step goes to stderr; stdout gets the verdict.
# Exit status: 0 every step passed; 1 a step failed; 2 bad usage; 77 no CUDA
# device (one line "gpu-check: no CUDA device: <what grt reports>"; the
# Vulkan steps still run when an NVIDIA Vulkan device exists).
#
# To try the script without a GPU: GPU_CHECK_VULKAN_URI=vulkan://0 runs the
# Vulkan steps on that device (lavapipe); GPU_CHECK_FORCE_CUDA=1 runs the
# CUDA steps with no device (each then fails or skips with grt's reason).
#
# The step functions run through run_limited (in a child bash), which the
# linter cannot follow: SC2317 ("unreachable") is off for the whole file.
# shellcheck disable=SC2317
set -euo pipefail
trap 'echo "gpu-check: internal error: line $LINENO exited $?" >&2' ERR

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build"
do_build=1
detect_only=0
out=""
for arg in "$@"; do
  case "$arg" in
    --build-dir=*) build=${arg#--build-dir=} ;;
    --no-build) do_build=0 ;;
    --detect-only) detect_only=1 ;;
    -h|--help) sed -n '2,/^# CUDA steps with no device/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "gpu-check: expected --build-dir=DIR, --no-build, --detect-only or OUT_DIR, got '$arg'" >&2; exit 2 ;;
    *)
      if [ -n "$out" ]; then
        echo "gpu-check: expected one OUT_DIR, got '$out' and '$arg'" >&2
        exit 2
      fi
      out=$arg ;;
  esac
done
if [ -z "$out" ]; then
  echo "usage: scripts/gpu-check.sh [--build-dir=DIR] [--no-build] [--detect-only] OUT_DIR" >&2
  exit 2
fi
mkdir -p "$out/logs" "$out/work"
out=$(cd "$out" && pwd)
logs="$out/logs"
work="$out/work"
bin="$build/bin"
jobs=$(nproc 2>/dev/null || echo 4)
start_s=$(date +%s)
total_s=${GPU_CHECK_SECONDS:-470}
e2e_dir="$root/tests/e2e/stablehlo"

# One row per step: "name|status|pass|fail|skip|seconds|note".
rows=()
results=()   # "name|ratio|detail" from bench_cuda's RESULT lines
failed_steps=0
cuda_reason=""
vulkan_uri=""
vulkan_reason=""

# What the steps (run in a child bash, run_limited) read.
shared_vars=(root build bin work logs out jobs start_s total_s e2e_dir models
             largest mname gpu cts bench)

remaining() { echo $((total_s - ($(date +%s) - start_s))); }

# add_row NAME STATUS PASS FAIL SKIP SECONDS NOTE
add_row() {
  rows+=("$1|$2|$3|$4|$5|$6|${7//|//}")
  if [ "$2" = fail ] || [ "$2" = timeout ]; then
    failed_steps=$((failed_steps + 1))
  fi
  printf 'gpu-check: %-16s %-7s pass %s fail %s skip %s (%ss) %s\n' >&2 \
    "$1" "$2" "$3" "$4" "$5" "$6" "$7"
}

# run_limited NAME LIMIT_S CMD...: runs CMD with its output in
# $logs/NAME.log under min(LIMIT_S, time left); sets step_rc (124: out of
# time) and step_s.
run_limited() {
  local name=$1 limit=$2
  shift 2
  local left
  left=$(remaining)
  [ "$left" -lt "$limit" ] && limit=$left
  local t0
  t0=$(date +%s)
  if [ "$limit" -lt 5 ]; then
    echo "gpu-check: out of time before this step (overall limit ${total_s}s)" >"$logs/$name.log"
    step_rc=124
  else
    step_rc=0
    # Steps are this script's functions: run them in a child bash given
    # the functions and the variables they read, so timeout can end them.
    timeout --kill-after=5 "$limit" bash -c \
      "$(declare -p "${shared_vars[@]}" 2>/dev/null); $(declare -f); set -uo pipefail; \"\$@\"" \
      gpu-check "$@" >"$logs/$name.log" 2>&1 || step_rc=$?
  fi
  step_s=$(($(date +%s) - t0))
}

skip_step() { add_row "$1" skip 0 0 0 0 "$2"; echo "skipped: $2" >"$logs/$1.log"; }

# Counts of a cmocka log (hal_cts): unique test names per outcome.
cts_counts() {
  local log=$1
  cts_pass=$(grep -c '^\[       OK \]' "$log" || true)
  cts_fail=$({ grep -o '^\[  FAILED  \] test_[A-Za-z0-9_]*' "$log" || true; } | sort -u | wc -l)
  cts_skip=$({ grep -o '^\[  SKIPPED \] test_[A-Za-z0-9_]*' "$log" || true; } | sort -u | wc -l)
}

write_summary() {
  local s="$out/summary.md"
  {
    echo "# gpu-check summary"
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "- commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet 2>/dev/null || echo ' (with local changes)')"
    echo "- host: $(uname -n), $jobs cores; build tree: $build"
    echo "- CUDA: ${cuda_reason:-no answer}"
    echo "- Vulkan: ${vulkan_uri:+$vulkan_uri }${vulkan_reason}"
    echo "- total: $(($(date +%s) - start_s)) s of ${total_s} s"
    echo
    echo "| step | status | pass | fail | skip | s | note | log |"
    echo "|---|---|---|---|---|---|---|---|"
    local row name status pass fail skip secs note
    for row in "${rows[@]}"; do
      IFS='|' read -r name status pass fail skip secs note <<<"$row"
      echo "| $name | $status | $pass | $fail | $skip | $secs | $note | logs/$name.log |"
    done
    echo
    echo "## Benchmarks (ratio: anchor measured in the same run)"
    echo
    if [ ${#results[@]} -eq 0 ]; then
      echo "none ran"
    else
      echo "| benchmark | ratio | figures |"
      echo "|---|---|---|"
      local r bname ratio detail
      for r in "${results[@]}"; do
        IFS='|' read -r bname ratio detail <<<"$r"
        echo "| $bname | $ratio | $detail |"
      done
      echo
      echo "matmul ratio = grt GFLOP/s / cuBLAS GFLOP/s (1.0 = cuBLAS's speed);"
      echo "elementwise and model ratio = grt time / anchor time (1.0 = as fast as a D2D copy / local-task);"
      echo "dispatch ratio = per-dispatch time with CUDA-graph replay / with stream launches."
    fi
  } >"$s"
}

#===------------------------------------------------------------------===#
# build
#===------------------------------------------------------------------===#
if [ "$do_build" -eq 1 ]; then
  # A tree configured for another checkout (copied from another machine)
  # cannot be rebuilt here: build beside it instead.
  if [ -f "$build/CMakeCache.txt" ]; then
    configured_for=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
    if [ -n "$configured_for" ] && [ "$configured_for" != "$root" ]; then
      echo "gpu-check: $build was configured for $configured_for, not $root: building $build-gpu-check" >&2
      build="$build-gpu-check"
      bin="$build/bin"
    fi
  fi
  build_cmd() {
    command -v cmake >/dev/null || { echo "expected cmake on PATH, got none"; return 1; }
    if [ ! -f "$build/build.ninja" ] && [ ! -f "$build/Makefile" ]; then
      local generator="Unix Makefiles"
      command -v ninja >/dev/null && generator=Ninja
      cmake -S "$root" -B "$build" -G "$generator" -DCMAKE_BUILD_TYPE=RelWithDebInfo || return
    fi
    cmake --build "$build" -j"$jobs"
  }
  run_limited build 330 build_cmd
  if [ "$step_rc" -eq 0 ]; then
    add_row build pass 1 0 0 "$step_s" "$build"
  else
    add_row build "$([ "$step_rc" -eq 124 ] && echo timeout || echo fail)" 0 1 0 "$step_s" "cmake --build exited $step_rc"
  fi
else
  skip_step build "--no-build: using $build as it is"
fi
for tool in grt-run grt-compile grt-check; do
  if [ ! -x "$bin/$tool" ]; then
    cuda_reason="$bin/$tool is missing: the build did not produce it"
    echo "gpu-check: expected $bin/$tool, got no such file (see $logs/build.log)" >&2
    write_summary
    exit 1
  fi
done

#===------------------------------------------------------------------===#
# detect
#===------------------------------------------------------------------===#
detect() {
  if command -v nvidia-smi >/dev/null 2>&1; then
    echo "== nvidia-smi -L"
    nvidia-smi -L || echo "(nvidia-smi exited $?)"
  else
    echo "== nvidia-smi: not installed"
  fi
  echo "== grt-run --list_devices"
  "$bin/grt-run" --list_devices
}
run_limited detect 30 detect
devices="$logs/detect.log"
cuda_line=$(grep -m1 '^cuda://' "$devices" || true)
if [ -n "$cuda_line" ]; then
  cuda_reason="device: $(tr '\t' ' ' <<<"$cuda_line")"
else
  reason=$(sed -n 's/^cuda[[:space:]]*unavailable: //p' "$devices" | head -1)
  [ -z "$reason" ] && reason="grt-run --list_devices lists no cuda device (exit $step_rc)"
  cuda_reason=$reason
fi
# Vulkan: the first device whose line names NVIDIA; otherwise why not.
while IFS=$'\t' read -r uri name type driver; do
  case "$uri" in vulkan://*) ;; *) continue ;; esac
  if grep -qi nvidia <<<"$name $driver" && [ "$type" != cpu ]; then
    vulkan_uri=$uri
    vulkan_reason="$name ($type, $driver)"
    break
  fi
  vulkan_reason+="${vulkan_reason:+; }$uri is $name ($type, $driver): not an NVIDIA device"
done < <(grep '^vulkan' "$devices" || true)
# GPU_CHECK_VULKAN_URI forces a device (to try the Vulkan steps on
# lavapipe, say).
if [ -n "${GPU_CHECK_VULKAN_URI:-}" ]; then
  vulkan_uri=$GPU_CHECK_VULKAN_URI
  vulkan_reason="forced by GPU_CHECK_VULKAN_URI (was: ${vulkan_reason:-none found})"
fi
if [ -z "$vulkan_uri" ] && [ -z "$vulkan_reason" ]; then
  vulkan_reason="no Vulkan device: $(sed -n 's/^vulkan[[:space:]]*unavailable: //p' "$devices" | head -1)"
fi
# GPU_CHECK_FORCE_CUDA=1 runs the CUDA steps without a device (to try the
# script's own paths: every CUDA step then fails or skips with grt's reason).
if [ -z "$cuda_line" ] && [ "${GPU_CHECK_FORCE_CUDA:-0}" = 1 ]; then
  cuda_line="cuda (forced by GPU_CHECK_FORCE_CUDA=1: $cuda_reason)"
  cuda_reason="forced: $cuda_reason"
fi
if [ -n "$cuda_line" ]; then
  add_row detect pass 1 0 0 "$step_s" "$cuda_reason"
else
  add_row detect skip 0 0 1 "$step_s" "no CUDA device: $cuda_reason"
fi
if [ "$detect_only" -eq 1 ]; then
  write_summary
  if [ -z "$cuda_line" ]; then
    echo "gpu-check: no CUDA device: $cuda_reason"
    exit 77
  fi
  echo "gpu-check: CUDA $cuda_reason"
  exit 0
fi

#===------------------------------------------------------------------===#
# conformance
#===------------------------------------------------------------------===#
cts="$build/tests/hal_cts/hal_cts"
run_cts() {  # NAME URI [ENV=VALUE...]
  local name=$1 uri=$2
  shift 2
  if [ ! -x "$cts" ]; then
    add_row "$name" fail 0 1 0 0 "expected $cts, got no such file"
    return
  fi
  run_limited "$name" 120 env "$@" "$cts" --device="$uri"
  local log="$logs/$name.log"
  cts_counts "$log"
  local status=pass note="hal_cts --device=$uri"
  if [ "$step_rc" -eq 124 ]; then
    status=timeout
  elif [ "$step_rc" -ne 0 ]; then
    status=fail
  elif grep -q '^hal_cts: skipped:' "$log"; then
    status=skip
    note=$(grep -m1 '^hal_cts: skipped:' "$log")
  fi
  if grep -q 'grt vulkan validation:' "$log"; then
    status=fail
    note="$(grep -c 'grt vulkan validation:' "$log") validation messages"
  fi
  add_row "$name" "$status" "$cts_pass" "$cts_fail" "$cts_skip" "$step_s" "$note"
}
if [ -n "$cuda_line" ]; then
  run_cts cts_cuda cuda
else
  skip_step cts_cuda "no CUDA device: $cuda_reason"
fi
if [ -n "$vulkan_uri" ]; then
  run_cts cts_vulkan "$vulkan_uri" GRT_VULKAN_VALIDATION=1
else
  skip_step cts_vulkan "$vulkan_reason"
fi

# Compiles SOURCE to OUTPUT with FLAGS..., logging to $logs/compile.log.
compile() {
  local source=$1 output=$2
  shift 2
  echo "== grt-compile $* $source" >>"$logs/compile.log"
  "$bin/grt-compile" "$@" "$source" -o "$output" >>"$logs/compile.log" 2>&1
}

#===------------------------------------------------------------------===#
# benchmarks
#===------------------------------------------------------------------===#
bench="$bin/bench_cuda"
run_bench() {  # NAME LIMIT ARGS...
  local name=$1 limit=$2
  shift 2
  run_limited "$name" "$limit" "$bench" "$@"
  local log="$logs/$name.log" line
  line=$(grep -m1 '^RESULT ' "$log" || true)
  if [ "$step_rc" -eq 0 ] && [ -n "$line" ]; then
    local key ratio detail
    key=$(awk '{print $2}' <<<"$line")
    ratio=$(sed -n 's/.* ratio=\([^ ]*\).*/\1/p' <<<"$line")
    detail=$(cut -d' ' -f4- <<<"$line")
    results+=("$key|$ratio|$detail")
    add_row "$name" pass 1 0 0 "$step_s" "ratio $ratio"
  elif [ "$step_rc" -eq 77 ]; then
    add_row "$name" skip 0 0 1 "$step_s" "$(head -1 "$log")"
  else
    add_row "$name" "$([ "$step_rc" -eq 124 ] && echo timeout || echo fail)" 0 1 0 "$step_s" "exit $step_rc: $(tail -1 "$log")"
  fi
}
if [ -z "$cuda_line" ]; then
  skip_step bench "no CUDA device: $cuda_reason"
elif [ ! -x "$bench" ]; then
  add_row bench fail 0 1 0 0 "expected $bench (built with the cuda driver), got no such file"
else
  gpu="$root/bench/gpu"
  bench_modules() {
    compile "$gpu/matmul_f32.mlir" "$work/matmul_f32.vmfb" --target=cuda --cuda-arch=sm_90 &&
    compile "$gpu/matmul_f32.mlir" "$work/matmul_tf32.vmfb" --target=cuda --cuda-arch=sm_90 --cuda-allow-tf32 &&
    compile "$gpu/matmul_f16.mlir" "$work/matmul_f16.vmfb" --target=cuda --cuda-arch=sm_90 &&
    compile "$gpu/elementwise.mlir" "$work/elementwise.vmfb" --target=cuda --cuda-arch=sm_90
  }
  run_limited bench_compile 60 bench_modules
  if [ "$step_rc" -ne 0 ]; then
    add_row bench_compile fail 0 1 0 "$step_s" "grt-compile --target=cuda failed: see logs/compile.log"
  else
    add_row bench_compile pass 4 0 0 "$step_s" "4 modules for sm_90"
    run_bench bench_matmul_f32 60 matmul "$work/matmul_f32.vmfb" f32 10
    run_bench bench_matmul_tf32 60 matmul "$work/matmul_tf32.vmfb" f32 --tf32 10
    run_bench bench_matmul_f16 60 matmul "$work/matmul_f16.vmfb" f16 10
    run_bench bench_elementwise 60 elementwise "$work/elementwise.vmfb" 10
  fi
  run_bench bench_dispatch 60 dispatch 10000
fi

#===------------------------------------------------------------------===#
# samples: the largest model timed, every model checked
#===------------------------------------------------------------------===#
models=()
for dir in "$root"/samples/*/; do
  name=$(basename "$dir")
  if [ -f "$dir/$name.mlir" ] && [ -f "$dir/input.npy" ] && [ -f "$dir/expected.npy" ]; then
    models+=("$dir$name.mlir")
  fi
done
largest=""
for m in ${models[@]+"${models[@]}"}; do
  if [ -z "$largest" ] || [ "$(stat -c %s "$m")" -gt "$(stat -c %s "$largest")" ]; then
    largest=$m
  fi
done
# run_model NAME SOURCE DEVICE COMPILE_FLAGS...: compile, run @main with the
# sample's input and expected output.
run_model() {
  local name=$1 source=$2 device=$3
  shift 3
  local dir vmfb
  dir=$(dirname "$source")
  vmfb="$work/$name.vmfb"
  compile "$source" "$vmfb" "$@" || { echo "grt-compile $* $source failed (logs/compile.log)"; return 1; }
  "$bin/grt-run" --module="$vmfb" --function=main --device="$device" \
    --input=@"$dir/input.npy" --expected_output=@"$dir/expected.npy" --print_statistics
}
# Microseconds of the call from grt-run --print_statistics ("call_ns: N"),
# or empty.
call_us() { sed -n 's/^ *call_ns: *\([0-9][0-9]*\).*/\1/p' "$1" | head -1 | awk '{ printf "%.1f", $1 / 1000 }'; }
if [ -z "$cuda_line" ]; then
  skip_step model_cuda "no CUDA device: $cuda_reason"
elif [ -z "$largest" ]; then
  add_row model_cuda fail 0 1 0 0 "expected samples/*/NAME.mlir with input.npy and expected.npy, got none"
else
  mname=$(basename "${largest%.mlir}")
  model_both() {
    echo "== $mname on local-task (the anchor)"
    run_model "${mname}_cpu" "$largest" local-task && echo &&
    echo "== $mname on cuda (--target=cuda --cuda-arch=sm_90)" &&
    run_model "${mname}_cuda" "$largest" cuda --target=cuda --cuda-arch=sm_90
  }
  run_limited model_cuda 60 model_both
  if [ "$step_rc" -eq 0 ]; then
    anchor_us=$(sed -n '/on local-task/,/on cuda/p' "$logs/model_cuda.log" >"$work/model_cpu.txt"; call_us "$work/model_cpu.txt")
    grt_us=$(sed -n '/on cuda/,$p' "$logs/model_cuda.log" >"$work/model_gpu.txt"; call_us "$work/model_gpu.txt")
    if [ -n "$anchor_us" ] && [ -n "$grt_us" ]; then
      ratio=$(awk -v a="$anchor_us" -v g="$grt_us" 'BEGIN { if (a > 0) printf "%.3f", g / a; else print "n/a" }')
      results+=("model_$mname|$ratio|cuda call ${grt_us} us, local-task call ${anchor_us} us")
      add_row model_cuda pass 1 0 0 "$step_s" "$mname: ratio cuda/local-task $ratio"
    else
      add_row model_cuda pass 1 0 0 "$step_s" "$mname matches expected.npy (no call time in --print_statistics)"
    fi
  else
    add_row model_cuda "$([ "$step_rc" -eq 124 ] && echo timeout || echo fail)" 0 1 0 "$step_s" "$mname: exit $step_rc"
  fi
fi
samples_on() {  # DEVICE FLAGS...
  local device=$1 rc=0 m
  shift
  for m in ${models[@]+"${models[@]}"}; do
    local n
    n=$(basename "${m%.mlir}")
    echo "== $n on $device ($*)"
    if run_model "${n}_${device//[:\/]/_}" "$m" "$device" "$@"; then
      echo "SAMPLE PASS $n"
    else
      echo "SAMPLE FAIL $n"
      rc=1
    fi
  done
  return "$rc"
}
samples_step() {  # NAME DEVICE FLAGS...
  local name=$1
  shift
  run_limited "$name" 90 samples_on "$@"
  local p f
  p=$(grep -c '^SAMPLE PASS' "$logs/$name.log" || true)
  f=$(grep -c '^SAMPLE FAIL' "$logs/$name.log" || true)
  local v
  v=$(grep -c 'grt vulkan validation:' "$logs/$name.log" || true)
  if [ "$step_rc" -eq 0 ] && [ "$v" -gt 0 ]; then
    add_row "$name" fail "$p" "$f" 0 "$step_s" "$*; $v validation messages"
  elif [ "$step_rc" -eq 0 ]; then
    add_row "$name" pass "$p" "$f" 0 "$step_s" "$*"
  else
    add_row "$name" "$([ "$step_rc" -eq 124 ] && echo timeout || echo fail)" "$p" "$f" 0 "$step_s" "$*"
  fi
}
if [ -n "$cuda_line" ]; then
  samples_step samples_cuda cuda --target=cuda --cuda-arch=sm_90
else
  skip_step samples_cuda "no CUDA device: $cuda_reason"
fi
if [ -n "$vulkan_uri" ]; then
  export GRT_VULKAN_VALIDATION=1
  samples_step samples_vulkan "$vulkan_uri" --target=vulkan
  unset GRT_VULKAN_VALIDATION
else
  skip_step samples_vulkan "$vulkan_reason"
fi

#===------------------------------------------------------------------===#
# StableHLO end-to-end files, in parallel
#===------------------------------------------------------------------===#
# e2e_all DIR DEVICE EXCEPTIONS FLAGS...: compile_and_check.sh on every
# file, $jobs at a time, each bounded; DIR/<stem>.log and DIR/<stem>.rc.
e2e_all() {
  local dir=$1 device=$2 exceptions=$3
  shift 3
  local per_file=$(( $(remaining) - 10 ))
  [ "$per_file" -gt 120 ] && per_file=120
  # shellcheck disable=SC2016 # the inner script expands its own arguments
  printf '%s\n' "$e2e_dir"/*.mlir | xargs -P "$jobs" -I{} bash -c '
    f=$1 dir=$2 per=$3 script=$4 compile=$5 check=$6 device=$7 exceptions=$8
    shift 8
    stem=$(basename "$f" .mlir)
    rc=0
    timeout --kill-after=5 "$per" bash "$script" "$compile" "$check" "$f" \
      "$dir/$stem.vmfb" "$device" "$exceptions" "$@" >"$dir/$stem.log" 2>&1 || rc=$?
    echo "$rc" >"$dir/$stem.rc"
  ' e2e {} "$dir" "$per_file" "$e2e_dir/compile_and_check.sh" "$bin/grt-compile" \
    "$bin/grt-check" "$device" "$exceptions" "$@"
}
# e2e_step NAME DEVICE EXCEPTIONS FLAGS...
e2e_step() {
  local name=$1 device=$2 exceptions=$3
  shift 3
  local dir="$work/$name"
  rm -rf "$dir"
  mkdir -p "$dir"
  run_limited "$name" 240 e2e_all "$dir" "$device" "$exceptions" "$@"
  local p=0 f=0 s=0 stem rc log funcs_pass=0 funcs_fail=0 known=0 failed_files=""
  for log in "$dir"/*.log; do
    [ -e "$log" ] || continue
    stem=$(basename "$log" .log)
    rc=$(cat "$dir/$stem.rc" 2>/dev/null || echo 124)
    funcs_pass=$((funcs_pass + $(grep -c '^\[ PASS \]' "$log" || true)))
    funcs_fail=$((funcs_fail + $(grep -c '^\[ FAIL \]' "$log" || true)))
    known=$((known + $(grep -c '^KNOWN FAILURE' "$log" || true)))
    if [ "$rc" -ne 0 ] || grep -q 'grt vulkan validation:' "$log"; then
      f=$((f + 1))
      failed_files+=" $stem"
    elif grep -q '^skipped:' "$log"; then
      s=$((s + 1))
    else
      p=$((p + 1))
    fi
    { echo "===== $stem (exit $rc)"; cat "$log"; } >>"$logs/$name.log"
  done
  local status=pass
  [ "$f" -gt 0 ] && status=fail
  [ "$step_rc" -eq 124 ] && status=timeout
  add_row "$name" "$status" "$p" "$f" "$s" "$step_s" "files; functions $funcs_pass pass, $funcs_fail fail ($known known); failed:${failed_files:- none}"
}
if [ -n "$cuda_line" ]; then
  e2e_step e2e_cuda cuda "$e2e_dir/exceptions_cuda.txt" --target=cuda --cuda-arch=sm_90
else
  skip_step e2e_cuda "no CUDA device: $cuda_reason"
fi
if [ -n "$vulkan_uri" ]; then
  export GRT_VULKAN_VALIDATION=1
  e2e_step e2e_vulkan "$vulkan_uri" "$e2e_dir/exceptions_vulkan.txt" --target=cpu,vulkan
  unset GRT_VULKAN_VALIDATION
else
  skip_step e2e_vulkan "$vulkan_reason"
fi

write_summary
if [ -z "$cuda_line" ]; then
  echo "gpu-check: no CUDA device: $cuda_reason"
  exit 77
fi
echo "gpu-check: $failed_steps step(s) failed; summary: $out/summary.md"
if [ "$failed_steps" -eq 0 ]; then
  exit 0
fi
exit 1
