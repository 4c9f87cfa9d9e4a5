#!/usr/bin/env bash
# Each target its own kernels: testdata/per_target.mlir, whose kernels a CPU
# and a GPU tile differently, compiled for cpu alone and with other targets.
#
#   per_target_test.sh GRT_COMPILE GRT_DUMP GRT_RUN TESTDATA OUT VULKAN
#
# Checks that
#   - the CPU executable (the cpu-* binary grt-dump --extract writes) is
#     byte-identical for --target=cpu, cpu,cuda and (VULKAN=1) cpu,vulkan
#     and cpu,vulkan,cuda;
#   - the cpu,cuda module calls hal.executable.variant, the cpu-only one
#     does not;
#   - local-sync runs the cpu,cuda (and cpu,vulkan) module correctly with
#     the CPU's workgroup counts (8 and 2; CUDA's are 12 and 13), read from
#     grt-run's trace;
#   - where a CUDA device exists, it runs the cpu,cuda module with CUDA's;
#   - where a Vulkan device exists, it runs cpu,vulkan,cuda (the last
#     executable but one: its counts are the select chain's fallback)
#     correctly (its trace has no workgroup counts).
# Without NVRTC (CUDA's compiler, loaded at run time) it prints
# "skipped: <reason>" and exits 77, which ctest reports as skipped; the
# CUDA device step alone is left out (and says so) where no device exists.
set -u
compile=$1
dump=$2
run=$3
data=$4
out=$5
vulkan=$6

fail() {
  echo "FAILED: $*" >&2
  exit 1
}

mkdir -p "$out"
src="$data/per_target.mlir"
"$compile" --target=cpu "$src" -o "$out/cpu.vmfb" || fail "grt-compile --target=cpu"
if ! "$compile" --target=cpu,cuda "$src" -o "$out/cpu_cuda.vmfb" 2>"$out/cuda.err"; then
  if grep -q "cuda target needs NVRTC" "$out/cuda.err"; then
    echo "skipped: $(head -1 "$out/cuda.err")"
    exit 77
  fi
  cat "$out/cuda.err" >&2
  fail "grt-compile --target=cpu,cuda"
fi
modules=(cpu cpu_cuda)
if [ "$vulkan" = 1 ]; then
  "$compile" --target=cpu,vulkan "$src" -o "$out/cpu_vulkan.vmfb" ||
    fail "grt-compile --target=cpu,vulkan"
  "$compile" --target=cpu,vulkan,cuda "$src" -o "$out/cpu_vulkan_cuda.vmfb" ||
    fail "grt-compile --target=cpu,vulkan,cuda"
  modules+=(cpu_vulkan cpu_vulkan_cuda)
fi

# The CPU binary of each module: grt-dump says "wrote PATH (cpu-..., N bytes)".
cpu_binary() {
  rm -rf "$out/$1.extracted"
  "$dump" --extract="$out/$1.extracted" "$out/$1.vmfb" 2>&1 >/dev/null |
    sed -n 's/^grt-dump: wrote \(.*\) (cpu-[a-z0-9_]*, [0-9]* bytes)$/\1/p'
}
reference=$(cpu_binary cpu)
[ -f "$reference" ] || fail "no CPU executable extracted from cpu.vmfb"
for m in "${modules[@]:1}"; do
  binary=$(cpu_binary "$m")
  [ -f "$binary" ] || fail "no CPU executable extracted from $m.vmfb"
  cmp "$reference" "$binary" ||
    fail "the CPU executable of $m.vmfb differs from that of cpu.vmfb"
done

"$dump" "$out/cpu.vmfb" | grep -q "hal.executable.variant" &&
  fail "cpu.vmfb imports hal.executable.variant (one executable needs no variant)"
"$dump" "$out/cpu_cuda.vmfb" | grep -q "name: hal.executable.variant" ||
  fail "cpu_cuda.vmfb does not import hal.executable.variant"

# Runs module $1 on device $2 and checks the results and, unless $3 is
# empty, that its trace records the workgroup counts $3 (matmul) and $4
# (elementwise). Returns 77 when device $2 cannot be created here.
run_and_count() {
  local trace="$out/$1.$2.json"
  if ! "$run" --module="$out/$1.vmfb" --function=main --device="$2" --trace="$trace" \
       --input=300x200xf32=1 --input=200x500xf32=0.5 --input=200x500xf32=3 \
       --expected_output=300x500xf32=100 --expected_output=200x500xf32=9 \
       >"$out/$1.$2.out" 2>&1; then
    if grep -q "while creating device '$2'" "$out/$1.$2.out"; then
      echo "no $2 device, $1.vmfb not run there: $(tail -1 "$out/$1.$2.out")"
      return 77
    fi
    cat "$out/$1.$2.out" >&2
    fail "grt-run $1.vmfb on $2"
  fi
  if [ -z "$3" ]; then
    echo "ok: $1.vmfb on $2 gave the expected results"
    return 0
  fi
  for count in "$3" "$4"; do
    grep -q "\"workgroup_count\": \[$count, 1, 1\]" "$trace" ||
      fail "$1.vmfb on $2: no dispatch of $count workgroups in $trace"
  done
  echo "ok: $1.vmfb on $2 ran with $3 and $4 workgroups"
}
for m in "${modules[@]}"; do
  run_and_count "$m" local-sync 8 2 || fail "local-sync is missing"
done
run_and_count cpu_cuda cuda 12 13
if [ "$vulkan" = 1 ]; then run_and_count cpu_vulkan_cuda vulkan "" ""; fi
echo "ok: the CPU executable is the same with ${modules[*]:1}"
