#!/usr/bin/env bash
# The Vulkan target's int8 matmul, end to end on a Vulkan device:
#
#   vulkan_int8.sh GRT_COMPILE GRT_CHECK SOURCE.mlir OUTPUT.vmfb
#
# 1. the i8 x i8 -> i32 dot_general's shader is the tiled integer GEMM
#    (int tiles in shared memory, i8 read through 8-bit storage), and the
#    i8 convolution's the implicit GEMM over output pixels;
# 2. the module passes grt-check on --device=vulkan;
# 3. on a device without storageBuffer8BitAccess (the feature left off with
#    GRT_VULKAN_DISABLE_FEATURES) loading fails with an error naming the
#    entry point and the feature, instead of a pipeline failure.
# Exit 77 (skipped) without a Vulkan device.
set -u
compile=$1 check=$2 source=$3 output=$4
glsl=$("$compile" --target=cpu,vulkan --dump-after=vulkan "$source" -o "$output") || {
  echo "FAILED: grt-compile --target=cpu,vulkan $source" >&2
  exit 1
}
for line in "shared int grt_a[16][16];" "{ int8_t b" \
            "const int acc0 = sum + v" "const int64_t pixels = n0 * n1 * n2;"; do
  if ! grep -qF "$line" <<<"$glsl"; then
    echo "FAILED: no '$line' in the shaders:" >&2
    echo "$glsl" >&2
    exit 1
  fi
done
log=$("$check" --device=vulkan "$output" 2>&1)
status=$?
echo "$log"
if [ $status -ne 0 ] && grep -q "no Vulkan device found" <<<"$log"; then
  echo "skipped: no Vulkan device"
  exit 77
fi
if [ $status -ne 0 ] || ! grep -q '^\[ PASS \] test_int8_matmul' <<<"$log" ||
   ! grep -q '^\[ PASS \] test_int8_convolution' <<<"$log"; then
  echo "FAILED: grt-check --device=vulkan $output" >&2
  exit 1
fi
log=$(GRT_VULKAN_DISABLE_FEATURES=storageBuffer8BitAccess "$check" --device=vulkan "$output" 2>&1)
status=$?
echo "$log"
want="needs the Vulkan feature storageBuffer8BitAccess, which device"
if [ $status -eq 0 ] || ! grep -qF "$want" <<<"$log"; then
  echo "FAILED: without storageBuffer8BitAccess, expected exit != 0 and '$want'" >&2
  exit 1
fi
echo "PASS"
