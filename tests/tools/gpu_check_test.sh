#!/usr/bin/env bash
# ctest tools_gpu_check (label cuda): scripts/gpu-check.sh on a machine
# without a CUDA device must stop quickly with exit status 77, print exactly
# one line on stdout, "gpu-check: no CUDA device: <reason>", and write
# summary.md saying so. On a machine with a CUDA device the full check takes minutes: the test
# says "skipped:" and exits 77 (ctest SKIP_RETURN_CODE); the check is run by
# hand (docs/cuda.md "GPU check").
#
#   gpu_check_test.sh GPU_CHECK_SH BUILD_DIR
set -u
script=$1 build=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
unset GPU_CHECK_VULKAN_URI

"$script" --no-build --detect-only --build-dir="$build" "$out/detect" >"$out/detect.txt" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
  echo "skipped: a CUDA device exists ($(tail -1 "$out/detect.txt")); run scripts/gpu-check.sh by hand"
  exit 77
fi

"$script" --no-build --build-dir="$build" "$out/check" >"$out/stdout.txt" 2>"$out/stderr.txt"
rc=$?
fail=0
if [ "$rc" -ne 77 ]; then
  echo "FAILED: expected exit status 77 (no CUDA device), got $rc"
  fail=1
fi
# stdout is that one line; the per-step progress goes to stderr.
lines=$(grep -c '^gpu-check: no CUDA device: ..*' "$out/stdout.txt")
total=$(wc -l <"$out/stdout.txt")
if [ "$lines" -ne 1 ] || [ "$total" -ne 1 ]; then
  echo "FAILED: expected stdout to be one 'gpu-check: no CUDA device: <reason>' line, got $total lines ($lines of that form)"
  fail=1
fi
if ! grep -q '^- CUDA: no CUDA' "$out/check/summary.md" 2>/dev/null; then
  echo "FAILED: expected $out/check/summary.md with a '- CUDA: no CUDA ...' line, got:"
  cat "$out/check/summary.md" 2>/dev/null || echo "(no summary.md)"
  fail=1
fi
if [ "$fail" -ne 0 ]; then
  echo "--- stdout"; cat "$out/stdout.txt"
  echo "--- stderr"; cat "$out/stderr.txt"
  exit 1
fi
grep '^gpu-check: no CUDA device: ' "$out/stdout.txt"
echo "ok: exit 77 and summary.md written"
