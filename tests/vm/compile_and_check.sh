#!/usr/bin/env bash
# One end-to-end VM test: assemble a vm-dialect .mlir and run its test
# functions. Says which step failed, so an assembler error is not mistaken
# for a VM failure.
#
#   compile_and_check.sh GRT_COMPILE GRT_CHECK SOURCE.mlir OUTPUT.vmfb
set -u
compile=$1 check=$2 source=$3 output=$4
if ! "$compile" "$source" -o "$output"; then
  echo "FAILED: grt-compile could not assemble $source" >&2
  exit 1
fi
if ! "$check" "$output"; then
  echo "FAILED: grt-check reported failures in $source" >&2
  exit 1
fi
