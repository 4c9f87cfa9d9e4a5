#!/usr/bin/env bash
# One StableHLO end-to-end test: compile a .mlir with grt-compile, run its
# test_*/fail_* functions with grt-check on one device, and hold the result
# against exceptions.txt (the known failures, each with its reason).
#
#   compile_and_check.sh GRT_COMPILE GRT_CHECK SOURCE.mlir OUTPUT.vmfb DEVICE
#                        EXCEPTIONS.txt [GRT_COMPILE_FLAG]...
#
# Passes when every function passes, or when everything that fails is
# listed. A listed function (or a file listed with '*') that passes is
# reported and fails the test, so the list cannot go stale.
set -u
compile=$1 check=$2 source=$3 output=$4 device=$5 exceptions=$6
shift 6
compile_flags=("$@")
file=$(basename "$source")

# "FUNCTION REASON..." for this file's entries, '#' comments and blank lines
# skipped.
known=$(awk -v f="$file" '!/^[[:space:]]*(#|$)/ && $1 == f {
          $1 = ""; sub(/^ /, ""); print }' "$exceptions")
whole_file_reason=$(awk '$1 == "*" { $1 = ""; sub(/^ /, ""); print; exit }' \
                    <<<"$known")
reason_of() {
  awk -v n="$1" '$1 == n { $1 = ""; sub(/^ /, ""); print; exit }' <<<"$known"
}

if ! "$compile" ${compile_flags[@]+"${compile_flags[@]}"} "$source" -o "$output"; then
  if [ -n "$whole_file_reason" ]; then
    echo "KNOWN FAILURE ($file in exceptions.txt): $whole_file_reason"
    exit 0
  fi
  echo "FAILED: grt-compile${compile_flags[*]+ ${compile_flags[*]}} could not" \
       "compile $source" >&2
  exit 1
fi

log=$("$check" --device="$device" "$output" 2>&1)
status=$?
echo "$log"

failed=$(sed -n 's/^\[ FAIL \] \([A-Za-z0-9_]*\).*/\1/p' <<<"$log")
passed=$(sed -n 's/^\[ PASS \] \([A-Za-z0-9_]*\).*/\1/p' <<<"$log")
bad=0
if [ $status -ne 0 ] && [ -z "$failed" ]; then
  # A GPU device this machine lacks: skipped (exit 77, ctest's
  # SKIP_RETURN_CODE), not failed.
  if grep -q "no [A-Za-z]* device found" <<<"$log"; then
    echo "skipped: $(grep -o "no [A-Za-z]* device found.*" <<<"$log" | head -1)"
    exit 77
  fi
  # grt-check failed before running a function (module load, device).
  if [ -n "$whole_file_reason" ]; then
    echo "KNOWN FAILURE ($file in exceptions.txt): $whole_file_reason"
    exit 0
  fi
  echo "FAILED: grt-check could not run $output on $device" >&2
  exit 1
fi
for name in $failed; do
  reason=$(reason_of "$name")
  if [ -n "$reason" ]; then
    echo "KNOWN FAILURE: $name: $reason"
  elif [ -n "$whole_file_reason" ]; then
    echo "KNOWN FAILURE: $name: $whole_file_reason"
  else
    echo "FAILED: $name fails on $device and is not in exceptions.txt" >&2
    bad=1
  fi
done
for name in $passed; do
  if [ -n "$(reason_of "$name")" ]; then
    echo "FAILED: $name passes on $device now: remove it from exceptions.txt" >&2
    bad=1
  fi
done
if [ -n "$whole_file_reason" ] && [ -z "$failed" ]; then
  echo "FAILED: every function of $file passes on $device now: remove its" \
       "'*' line from exceptions.txt" >&2
  bad=1
fi
exit $bad
