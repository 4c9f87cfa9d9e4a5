#!/usr/bin/env bash
# tests/cross/aarch64_test.sh SOURCE SCRATCH GRT_COMPILE GENERATOR
# The aarch64 job: a runtime-only cross build of SOURCE with
# cmake/toolchains/aarch64-linux-gnu.cmake (-Werror) in SCRATCH, then
# modules compiled by this machine's GRT_COMPILE with the cross compiler for
# their kernels run under qemu-aarch64: samples/simple_embedding on both CPU
# drivers, samples/mlp against its expected output, samples/static_embedding
# (c-static) built with the cross compiler against the installed cross tree
# with pkg-config, and the StableHLO
# end-to-end files with grt-check (tests/e2e/stablehlo/compile_and_check.sh,
# its exceptions.txt) on local-sync, and quant.mlir once more with
# --cpu-features=dotprod (the int8 GEMM's sdot micro-kernel).
set -euo pipefail
src=$1 scratch=$2 compile=$3 generator=$4
sysroot=/usr/aarch64-linux-gnu
qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64)
kernels=(--cpu-target=aarch64-linux-gnu)

rm -rf "$scratch"
mkdir -p "$scratch/modules"
echo "== runtime-only cross build"
cmake -S "$src" -B "$scratch/build" -G "$generator" -DGRT_WERROR=ON \
  -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchains/aarch64-linux-gnu.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DGRT_BUILD_COMPILER=OFF -DGRT_BUILD_TESTS=OFF \
  > "$scratch/configure.log" || { cat "$scratch/configure.log"; exit 1; }
cmake --build "$scratch/build" -j 2 > "$scratch/build.log" \
  || { tail -50 "$scratch/build.log"; exit 1; }
bin=$scratch/build/bin
file -L "$bin/grt-run" | grep -q "ARM aarch64" \
  || { echo "FAIL: $bin/grt-run is not an aarch64 binary" >&2; exit 1; }
run() { "$qemu" -L "$sysroot" "$@"; }

echo "== samples/simple_embedding"
"$compile" "${kernels[@]}" "$src/samples/simple_embedding/add.mlir" \
  -o "$scratch/modules/add.vmfb"
for device in local-sync local-task; do
  out=$(run "$bin/simple_embedding" "$scratch/modules/add.vmfb" $device)
  echo "$device: $out"
  [ "$out" = "add([1 2 3 4], [10 20 30 40.5]) = [11 22 33 44.5]" ] \
    || { echo "FAIL: simple_embedding on $device" >&2; exit 1; }
done

# (An aarch64 runtime refuses cpu-x86_64 executables, so these runs also
# show the kernels are aarch64 code.)
echo "== samples/mlp (cpu-aarch64 kernels)"
"$compile" "${kernels[@]}" "$src/samples/mlp/mlp.mlir" -o "$scratch/modules/mlp.vmfb"
for device in local-sync local-task; do
  run "$bin/grt-run" --module="$scratch/modules/mlp.vmfb" --function=main \
    --device=$device --input=@"$src/samples/mlp/input.npy" \
    --expected_output=@"$src/samples/mlp/expected.npy" > "$scratch/mlp.$device.log" \
    || { cat "$scratch/mlp.$device.log"; echo "FAIL: mlp on $device" >&2; exit 1; }
  echo "$device: matches expected.npy"
done

# One module for both machines (--cpu-target=host,aarch64-linux-gnu): the
# aarch64 runtime picks its cpu-aarch64 executable (this machine's run of
# the same file is the ctest tools_compile_cpu_target_two_machines).
echo "== samples/mlp in one module for x86-64 and aarch64"
"$compile" --cpu-target=host,aarch64-linux-gnu "$src/samples/mlp/mlp.mlir" \
  -o "$scratch/modules/mlp_two.vmfb"
run "$bin/grt-run" --module="$scratch/modules/mlp_two.vmfb" --function=main \
  --input=@"$src/samples/mlp/input.npy" \
  --expected_output=@"$src/samples/mlp/expected.npy" > "$scratch/mlp_two.log" \
  || { cat "$scratch/mlp_two.log"; echo "FAIL: the two-machine mlp module" >&2; exit 1; }
echo "local-sync: matches expected.npy"

echo "== samples/static_embedding: c-static, against the installed cross tree"
cmake --install "$scratch/build" --prefix "$scratch/prefix" > "$scratch/install.log"
mkdir -p "$scratch/static"
"$compile" --output-format=c-static --c-static-name=static_add --cpu-features=generic \
  "$src/samples/static_embedding/add.mlir" -o "$scratch/static/static_add.c"
flags=$(PKG_CONFIG_LIBDIR="$scratch/prefix/lib/pkgconfig" PKG_CONFIG_PATH= \
        "${PKG_CONFIG:-pkg-config}" --cflags --libs --static grt)
# shellcheck disable=SC2086  # the flags are words
aarch64-linux-gnu-gcc -std=c11 -O2 -w -o "$scratch/static/static_embedding" \
  "$src/samples/static_embedding/static_embedding.c" "$scratch/static/static_add.c" \
  -I"$scratch/static" $flags
for device in local-sync local-task; do
  out=$(run "$scratch/static/static_embedding" $device)
  echo "$device: $out"
  [ "$out" = "add([1 2 3 4], [10 20 30 40.5]) = [11 22 33 44.5]" ] \
    || { echo "FAIL: static_embedding on $device" >&2; exit 1; }
done

echo "== tests/e2e/stablehlo under qemu (local-sync)"
check=$scratch/grt-check
printf '#!/bin/sh\nexec "%s" -L "%s" "%s" "$@"\n' "$qemu" "$sysroot" "$bin/grt-check" > "$check"
chmod +x "$check"
failed=()
for source in "$src"/tests/e2e/stablehlo/*.mlir; do
  stem=$(basename "$source" .mlir)
  if bash "$src/tests/e2e/stablehlo/compile_and_check.sh" "$compile" "$check" "$source" \
       "$scratch/modules/$stem.vmfb" local-sync "$src/tests/e2e/stablehlo/exceptions.txt" \
       "${kernels[@]}" > "$scratch/e2e_$stem.log" 2>&1; then
    echo "PASS $stem"
  else
    echo "FAIL $stem (log: $scratch/e2e_$stem.log)"
    tail -5 "$scratch/e2e_$stem.log"
    failed+=("$stem")
  fi
done
# The quantized file again with the dot product extension: its integer
# dot_generals run on the int8 GEMM's sdot micro-kernel.
if bash "$src/tests/e2e/stablehlo/compile_and_check.sh" "$compile" "$check" \
     "$src/tests/e2e/stablehlo/quant.mlir" "$scratch/modules/quant_dotprod.vmfb" local-sync \
     "$src/tests/e2e/stablehlo/exceptions.txt" "${kernels[@]}" --cpu-features=dotprod \
     > "$scratch/e2e_quant_dotprod.log" 2>&1; then
  echo "PASS quant (dotprod)"
else
  echo "FAIL quant (dotprod) (log: $scratch/e2e_quant_dotprod.log)"
  tail -5 "$scratch/e2e_quant_dotprod.log"
  failed+=("quant-dotprod")
fi
if [ ${#failed[@]} -ne 0 ]; then
  echo "FAIL: ${#failed[@]} e2e files: ${failed[*]}" >&2
  exit 1
fi
echo "aarch64: OK"
