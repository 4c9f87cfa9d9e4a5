#!/usr/bin/env bash
# Runs a command and checks its exit status and output, for the tools'
# ctest tests.
#
#   expect.sh RC [-o TEXT]... [-O LINE]... [-e TEXT]... [-n TEXT]... -- CMD...
#
#   RC       the exit status the command must return
#   -o TEXT  stdout must contain TEXT
#   -O LINE  stdout must have LINE as one whole line
#   -e TEXT  stderr must contain TEXT
#   -n TEXT  neither stream may contain TEXT
#
# On a mismatch it prints what was wanted and everything the command wrote.
set -u

want_rc=$1
shift
checks=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  checks+=("$1" "$2")
  shift 2
done
if [ $# -eq 0 ]; then
  echo "expect.sh: missing '--' before the command" >&2
  exit 2
fi
shift

out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err"
rc=$?

failures=()
if [ "$rc" -ne "$want_rc" ]; then
  failures+=("exit status $rc, wanted $want_rc")
fi
for ((i = 0; i < ${#checks[@]}; i += 2)); do
  kind=${checks[i]}
  text=${checks[i + 1]}
  case "$kind" in
    -o) grep -qF -- "$text" "$out" || failures+=("stdout lacks: $text") ;;
    -O) grep -qxF -- "$text" "$out" || failures+=("stdout lacks the line: $text") ;;
    -e) grep -qF -- "$text" "$err" || failures+=("stderr lacks: $text") ;;
    -n) ! grep -qF -- "$text" "$out" "$err" || failures+=("output has: $text") ;;
    *) failures+=("expect.sh: unknown check '$kind'") ;;
  esac
done

if [ ${#failures[@]} -ne 0 ]; then
  echo "command: $*"
  printf 'FAILED: %s\n' "${failures[@]}"
  echo "--- stdout ---"
  cat "$out"
  echo "--- stderr ---"
  cat "$err"
  exit 1
fi
exit 0
