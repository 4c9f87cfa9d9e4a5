#!/usr/bin/env bash
# tests/install/minimal_test.sh SOURCE SCRATCH STATIC_C GENERATOR CC PKG_CONFIG MODULE
# The smallest deployment: a runtime configured with local-sync only,
# GRT_ENABLE_DLOPEN_LOADER=OFF and GRT_VM_OP_NAMES=OFF (MinSizeRel, no
# compiler, tools or tests), installed to SCRATCH/prefix; then
# samples/static_embedding linked against it with pkg-config --static
# together with STATIC_C (its c-static module, written by this tree's
# grt-compile, with its header beside it). The program must run, and hold
# no dlopen, dlsym or memfd_create and no op mnemonics. Then
# samples/simple_embedding, linked the same way, runs MODULE (this tree's
# simple_embedding_add.vmfb, a cpu-<arch> kernel object): grt's own ELF
# loader needs no dlopen.
set -euo pipefail
src=$1 scratch=$2 static_c=$3 generator=$4 cc=$5 pkg_config=$6 module=$7
expected='add([1 2 3 4], [10 20 30 40.5]) = [11 22 33 44.5]'

rm -rf "$scratch"
mkdir -p "$scratch"
echo "== configure and build the minimal runtime"
cmake -S "$src" -B "$scratch/build" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
  -DGRT_WERROR=ON -DCMAKE_BUILD_TYPE=MinSizeRel -DGRT_BUILD_COMPILER=OFF \
  -DGRT_BUILD_TESTS=OFF -DGRT_BUILD_TOOLS=OFF -DGRT_HAL_DRIVERS=local-sync \
  -DGRT_ENABLE_DLOPEN_LOADER=OFF -DGRT_VM_OP_NAMES=OFF -DGRT_BUILD_PYTHON=OFF \
  > "$scratch/configure.log" || { cat "$scratch/configure.log"; exit 1; }
cmake --build "$scratch/build" -j 2 > "$scratch/build.log" || { tail -50 "$scratch/build.log"; exit 1; }
cmake --install "$scratch/build" --prefix "$scratch/prefix" > "$scratch/install.log"
prefix=$scratch/prefix
[ -e "$prefix/lib/libgrt_hal_driver_local_sync.a" ] || { echo "FAIL: no local-sync library" >&2; exit 1; }
for f in lib/libgrt_hal_driver_local_task.a bin/grt-run; do
  [ ! -e "$prefix/$f" ] || { echo "FAIL: $f installed in a local-sync-only build without tools" >&2; exit 1; }
done

echo "== static_embedding against it (pkg-config --static, gc-sections)"
flags=$(PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig" PKG_CONFIG_PATH= \
        "$pkg_config" --cflags --libs --static grt)
app=$scratch/static_embedding
# shellcheck disable=SC2086  # the flags are words
"$cc" -std=c11 -Os -ffunction-sections -fdata-sections -w -o "$app" \
  "$src/samples/static_embedding/static_embedding.c" "$static_c" \
  -I"$(dirname "$static_c")" $flags -Wl,--gc-sections
out=$("$app" local-sync)
echo "$out"
[ "$out" = "$expected" ] || { echo "FAIL: static_embedding printed the wrong sum" >&2; exit 1; }

echo "== what is not in it"
if nm "$app" | grep -E ' (dlopen|dlsym|memfd_create)(@|$)'; then
  echo "FAIL: the loader's symbols are linked in with GRT_ENABLE_DLOPEN_LOADER=OFF" >&2
  exit 1
fi
if strings "$app" | grep -qx -e 'add.i32' -e 'cmp.lt.i64.s' -e 'ADD_I32'; then
  echo "FAIL: op names are linked in with GRT_VM_OP_NAMES=OFF" >&2
  exit 1
fi
echo "no dlopen, dlsym, memfd_create; no op names"
size "$app"

echo "== simple_embedding: a cpu-<arch> module through grt's ELF loader"
simple=$scratch/simple_embedding
# shellcheck disable=SC2086  # the flags are words
"$cc" -std=c11 -Os -ffunction-sections -fdata-sections -w -o "$simple" \
  "$src/samples/simple_embedding/simple_embedding.c" $flags -Wl,--gc-sections
out=$("$simple" "$module" local-sync)
echo "$out"
[ "$out" = "$expected" ] || { echo "FAIL: simple_embedding printed the wrong sum" >&2; exit 1; }
if nm "$simple" | grep -E ' (dlopen|dlsym|memfd_create)(@|$)'; then
  echo "FAIL: the dlopen loader is linked in with GRT_ENABLE_DLOPEN_LOADER=OFF" >&2
  exit 1
fi
echo "minimal runtime: OK"
