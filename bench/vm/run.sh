#!/usr/bin/env bash
# VM interpreter benchmark: a counted loop, recursive fib and a loop of calls
# into a native module, timed in grt
# (computed-goto dispatch, and switch dispatch when a second build is
# given) beside Lua 5.4 running the same algorithms in the same run.
#
#   bench/vm/run.sh BUILD_DIR [SWITCH_BUILD_DIR]
#
# Builds nothing: it uses BUILD_DIR/bin/grt-compile and grt-run (and the
# switch tree's grt-run). `cmake --build build --target bench_vm` builds
# both trees and runs this. Each time is the best of REPEAT runs (default
# 3, taken over rounds that run Lua and each grt build back to back);
# LOOP_N (default 100000000), FIB_N (default 30) and NATIVE_N (default
# 10000000) size the work.
# grt's time is grt-run's call_ns (the call alone, not loading); Lua's is
# os.clock() around the same work inside the script. SECOND_NAME (default
# "switch") labels the second build's rows: any other grt-run can be
# compared, e.g. a MinSizeRel tree's, whose interpreter is the compact one
# (GRT_VM_COMPACT_DISPATCH) that bench/size measures: SECOND_NAME=compact.
set -euo pipefail

build=${1:?usage: bench/vm/run.sh BUILD_DIR [SWITCH_BUILD_DIR]}
switch_build=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
loop_n=${LOOP_N:-100000000}
fib_n=${FIB_N:-30}
native_n=${NATIVE_N:-10000000}
repeat=${REPEAT:-3}

die() {
  echo "bench/vm: FAILED: $*" >&2
  exit 1
}
# The anchor is optional: without lua5.4 the grt times are printed alone,
# without ratios, and the results are not cross-checked.
have_lua=1
if ! command -v lua5.4 >/dev/null; then
  have_lua=0
  echo "bench/vm: lua5.4 not found (scripts/install-deps.sh installs it): no anchor, no ratios" >&2
fi
for tool in grt-compile grt-run; do
  [ -x "$build/bin/$tool" ] || die "$build/bin/$tool is missing; build first"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for name in loop fib native; do
  "$build/bin/grt-compile" "$here/$name.mlir" -o "$work/$name.vmfb" ||
    die "grt-compile $name.mlir"
done

# one_grt RUN_TOOL MODULE FUNCTION INPUT: prints "RESULT NS", the result
# line's value and call_ns of one run.
one_grt() {
  local out
  out=$("$1" --module="$2" --function="$3" --input="$4" --print_statistics) ||
    die "grt-run $3($4)"
  echo "$(sed -n 's/^result\[0\]: i[0-9]*=//p' <<<"$out") $(sed -n 's/^  call_ns: //p' <<<"$out")"
}

# one_lua SCRIPT N: prints "RESULT NS" like one_grt.
one_lua() {
  local out
  out=$(lua5.4 "$here/$1" "$2") || die "lua5.4 $1 $2"
  local ns
  ns=$(sed -n 's/.* ns=//p' <<<"$out")
  echo "$(sed -n 's/^result=\([0-9-]*\) .*/\1/p' <<<"$out") ${ns%.*}"
}

# fib(n) makes 2 * fib(n + 1) - 1 calls.
fib_calls=$(awk -v n="$fib_n" 'BEGIN { a = 0; b = 1; for (i = 0; i < n + 1; ++i) { t = a + b; a = b; b = t } print 2 * a - 1 }')

tools=("$build/bin/grt-run")
names=("computed-goto")
if [ -n "$switch_build" ]; then
  [ -x "$switch_build/bin/grt-run" ] || die "$switch_build/bin/grt-run is missing"
  tools+=("$switch_build/bin/grt-run")
  names+=("${SECOND_NAME:-switch}")
fi

# The machine's speed drifts (other load, clock changes), so each round runs
# Lua and every grt build back to back, and each keeps its best round: an
# anchor and the times compared with it are measured seconds apart, not
# minutes.
declare -A best
keep_best() {  # KEY NS
  if [ -z "${best[$1]:-}" ] || [ "$2" -lt "${best[$1]}" ]; then best[$1]=$2; fi
}
for ((r = 0; r < repeat; ++r)); do
  if [ "$have_lua" = 1 ]; then
    read -r lua_loop_result ns < <(one_lua loop.lua "$loop_n")
    keep_best lua_loop "$ns"
    read -r lua_fib_result ns < <(one_lua fib.lua "$fib_n")
    keep_best lua_fib "$ns"
    read -r lua_native_result ns < <(one_lua native.lua "$native_n")
    keep_best lua_native "$ns"
  fi
  for i in "${!tools[@]}"; do
    read -r result ns < <(one_grt "${tools[$i]}" "$work/loop.vmfb" sum "$loop_n")
    [ "$have_lua" = 0 ] || [ "$result" = "$lua_loop_result" ] ||
      die "loop: grt (${names[$i]}) computed $result, Lua $lua_loop_result"
    keep_best "loop_$i" "$ns"
    read -r result ns < <(one_grt "${tools[$i]}" "$work/fib.vmfb" fib "$fib_n")
    [ "$have_lua" = 0 ] || [ "$result" = "$lua_fib_result" ] ||
      die "fib: grt (${names[$i]}) computed $result, Lua $lua_fib_result"
    keep_best "fib_$i" "$ns"
    read -r result ns < <(one_grt "${tools[$i]}" "$work/native.vmfb" calls "$native_n")
    [ "$have_lua" = 0 ] || [ "$result" = "$lua_native_result" ] ||
      die "native: grt (${names[$i]}) computed $result, Lua $lua_native_result"
    keep_best "native_$i" "$ns"
  done
done

printf '%-28s %14s %14s %10s\n' "benchmark (grt dispatch)" "grt ns/op" "lua5.4 ns/op" "grt/lua"
if [ "$have_lua" = 0 ]; then
  best[lua_loop]=0 best[lua_fib]=0 best[lua_native]=0
fi
for i in "${!tools[@]}"; do
  awk -v d="${names[$i]}" -v n="$loop_n" -v g="${best[loop_$i]}" -v l="${best[lua_loop]}" \
    'BEGIN { if (l > 0) printf "%-28s %14.2f %14.2f %10.2f\n", "loop iteration (" d ")", g / n, l / n, g / l; else printf "%-28s %14.2f %14s %10s\n", "loop iteration (" d ")", g / n, "-", "-" }'
  awk -v d="${names[$i]}" -v n="$fib_calls" -v g="${best[fib_$i]}" -v l="${best[lua_fib]}" \
    'BEGIN { if (l > 0) printf "%-28s %14.2f %14.2f %10.2f\n", "fib call (" d ")", g / n, l / n, g / l; else printf "%-28s %14.2f %14s %10s\n", "fib call (" d ")", g / n, "-", "-" }'
  awk -v d="${names[$i]}" -v n="$native_n" -v g="${best[native_$i]}" -v l="${best[lua_native]}" \
    'BEGIN { if (l > 0) printf "%-28s %14.2f %14.2f %10.2f\n", "native call (" d ")", g / n, l / n, g / l; else printf "%-28s %14.2f %14s %10s\n", "native call (" d ")", g / n, "-", "-" }'
done
echo "(loop: sum of 0..$loop_n; fib($fib_n): $fib_calls calls; native: $native_n loop iterations, each one call; best of $repeat interleaved rounds)"
