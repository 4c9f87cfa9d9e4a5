#!/usr/bin/env bash
# tests/install/consumer_test.sh SOURCE SCRATCH MODULE GENERATOR CC PKG_CONFIG
# Installs a runtime-only grt from SOURCE into SCRATCH/prefix and builds
# samples/simple_embedding against it with find_package(grt) and with
# pkg-config --static; both must run MODULE (add.mlir compiled) and print
# the sum.
set -euo pipefail
src=$1 scratch=$2 module=$3 generator=$4 cc=$5 pkg_config=$6
expected='add([1 2 3 4], [10 20 30 40.5]) = [11 22 33 44.5]'

rm -rf "$scratch"
mkdir -p "$scratch"
step() { echo "== $*"; }

step "configure a runtime-only grt"
# The CPU drivers only, and no optimization: this test is about the
# install layout, and must stay quick on two cores.
cmake -S "$src" -B "$scratch/build" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_BUILD_TYPE=Debug -DGRT_BUILD_COMPILER=OFF -DGRT_BUILD_TESTS=OFF \
  "-DGRT_HAL_DRIVERS=local-sync;local-task" -DCMAKE_INSTALL_PREFIX=/nonexistent \
  > "$scratch/configure.log" || { cat "$scratch/configure.log"; exit 1; }
if grep -q '^CMOCKA_' "$scratch/build/CMakeCache.txt"; then
  echo "FAIL: cmocka was looked up with GRT_BUILD_TESTS=OFF" >&2
  exit 1
fi
step "build"
cmake --build "$scratch/build" -j 2 > "$scratch/build.log" || { tail -50 "$scratch/build.log"; exit 1; }
step "install to $scratch/prefix"
# --prefix differs from CMAKE_INSTALL_PREFIX: the package must be relocatable.
cmake --install "$scratch/build" --prefix "$scratch/prefix" > "$scratch/install.log"
prefix=$scratch/prefix
for f in lib/cmake/grt/grtConfig.cmake lib/cmake/grt/grtTargets.cmake \
         lib/pkgconfig/grt.pc include/grt/runtime/session.h \
         include/grt/hal/transfer.h include/grt/hal/local/executable.h \
         include/grt/hal/local/kernel_abi.h lib/libgrt_runtime.a \
         lib/libgrt_hal_driver_local_sync.a bin/grt-run; do
  [ -e "$prefix/$f" ] || { echo "FAIL: $prefix/$f was not installed" >&2; exit 1; }
done

step "consumer with find_package(grt)"
cmake -S "$src/tests/install/consumer" -B "$scratch/consumer" -G "$generator" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$prefix" \
  -DGRT_SAMPLE_SOURCE="$src/samples/simple_embedding/simple_embedding.c" \
  > "$scratch/consumer-configure.log" || { cat "$scratch/consumer-configure.log"; exit 1; }
cmake --build "$scratch/consumer" > "$scratch/consumer-build.log" \
  || { cat "$scratch/consumer-build.log"; exit 1; }
for device in local-sync local-task; do
  out=$("$scratch/consumer/simple_embedding" "$module" $device)
  echo "$out"
  [ "$out" = "$expected" ] || { echo "FAIL: find_package consumer on $device" >&2; exit 1; }
done

step "consumer with pkg-config --static"
flags=$(PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig" PKG_CONFIG_PATH= \
        "$pkg_config" --cflags --libs --static grt)
echo "pkg-config --cflags --libs --static grt: $flags"
# shellcheck disable=SC2086  # the flags are words
"$cc" -std=c11 -o "$scratch/simple_embedding_pc" \
  "$src/samples/simple_embedding/simple_embedding.c" $flags
out=$("$scratch/simple_embedding_pc" "$module" local-sync)
echo "$out"
[ "$out" = "$expected" ] || { echo "FAIL: pkg-config consumer" >&2; exit 1; }
echo "install consumer: OK"
