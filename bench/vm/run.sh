#!/usr/bin/env bash
# VM interpreter benchmark: a counted loop and recursive fib, timed in grt
# (computed-goto dispatch, and switch dispatch when a second build is
# given) beside Lua 5.4 running the same algorithms in the same run.
#
#   bench/vm/run.sh BUILD_DIR [SWITCH_BUILD_DIR]
#
# Builds nothing: it uses BUILD_DIR/bin/grt-compile and grt-run (and the
# switch tree's grt-run). `cmake --build build --target bench_vm` builds
# both trees and runs this. Each time is the best of REPEAT runs (default
# 3); LOOP_N (default 100000000) and FIB_N (default 30) size the work.
# grt's time is grt-run's call_ns (the call alone, not loading); Lua's is
# os.clock() around the same work inside the script.
set -euo pipefail

build=${1:?usage: bench/vm/run.sh BUILD_DIR [SWITCH_BUILD_DIR]}
switch_build=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
loop_n=${LOOP_N:-100000000}
fib_n=${FIB_N:-30}
repeat=${REPEAT:-3}

die() {
  echo "bench/vm: FAILED: $*" >&2
  exit 1
}
command -v lua5.4 >/dev/null || die "lua5.4 not found (scripts/install-deps.sh installs it)"
for tool in grt-compile grt-run; do
  [ -x "$build/bin/$tool" ] || die "$build/bin/$tool is missing; build first"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for name in loop fib; do
  "$build/bin/grt-compile" "$here/$name.mlir" -o "$work/$name.vmfb" ||
    die "grt-compile $name.mlir"
done

# best_grt RUN_TOOL MODULE FUNCTION INPUT: prints "RESULT NS", the result
# line's value and the fastest call_ns of $repeat runs.
best_grt() {
  local best="" result="" out ns
  for ((r = 0; r < repeat; ++r)); do
    out=$("$1" --module="$2" --function="$3" --input="$4" --print_statistics) ||
      die "grt-run $3($4)"
    result=$(sed -n 's/^result\[0\]: i[0-9]*=//p' <<<"$out")
    ns=$(sed -n 's/^  call_ns: //p' <<<"$out")
    if [ -z "$best" ] || [ "$ns" -lt "$best" ]; then best=$ns; fi
  done
  echo "$result $best"
}

# best_lua SCRIPT N: prints "RESULT NS" like best_grt.
best_lua() {
  local best="" result="" out ns
  for ((r = 0; r < repeat; ++r)); do
    out=$(lua5.4 "$here/$1" "$2") || die "lua5.4 $1 $2"
    result=$(sed -n 's/^result=\([0-9-]*\) .*/\1/p' <<<"$out")
    ns=$(sed -n 's/.* ns=//p' <<<"$out")
    if [ -z "$best" ] || [ "${ns%.*}" -lt "${best%.*}" ]; then best=$ns; fi
  done
  echo "$result $best"
}

# fib(n) makes 2 * fib(n + 1) - 1 calls.
fib_calls=$(awk -v n="$fib_n" 'BEGIN { a = 0; b = 1; for (i = 0; i < n + 1; ++i) { t = a + b; a = b; b = t } print 2 * a - 1 }')

read -r lua_loop_result lua_loop_ns < <(best_lua loop.lua "$loop_n")
read -r lua_fib_result lua_fib_ns < <(best_lua fib.lua "$fib_n")

variants=("computed-goto $build/bin/grt-run")
if [ -n "$switch_build" ]; then
  [ -x "$switch_build/bin/grt-run" ] || die "$switch_build/bin/grt-run is missing"
  variants+=("switch $switch_build/bin/grt-run")
fi

printf '%-28s %14s %14s %10s\n' "benchmark (grt dispatch)" "grt ns/op" "lua5.4 ns/op" "grt/lua"
for variant in "${variants[@]}"; do
  read -r dispatch tool <<<"$variant"
  read -r loop_result loop_ns < <(best_grt "$tool" "$work/loop.vmfb" sum "$loop_n")
  [ "$loop_result" = "$lua_loop_result" ] ||
    die "loop: grt computed $loop_result, Lua $lua_loop_result"
  read -r fib_result fib_ns < <(best_grt "$tool" "$work/fib.vmfb" fib "$fib_n")
  [ "$fib_result" = "$lua_fib_result" ] ||
    die "fib: grt computed $fib_result, Lua $lua_fib_result"
  awk -v d="$dispatch" -v n="$loop_n" -v g="$loop_ns" -v l="$lua_loop_ns" \
    'BEGIN { printf "%-28s %14.2f %14.2f %10.2f\n", "loop iteration (" d ")", g / n, l / n, g / l }'
  awk -v d="$dispatch" -v n="$fib_calls" -v g="$fib_ns" -v l="$lua_fib_ns" \
    'BEGIN { printf "%-28s %14.2f %14.2f %10.2f\n", "fib call (" d ")", g / n, l / n, g / l }'
done
echo "(loop: sum of 0..$loop_n; fib($fib_n): $fib_calls calls; best of $repeat runs)"
