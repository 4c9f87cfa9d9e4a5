#!/usr/bin/env bash
# tests/install/minimal_test.sh SOURCE SCRATCH STATIC_C GENERATOR CC PKG_CONFIG MODULE USES_CHECK
# The smallest deployment: a runtime configured with local-sync only,
# GRT_ENABLE_DLOPEN_LOADER=OFF and GRT_VM_OP_NAMES=OFF (MinSizeRel, no
# compiler, tools or tests), installed to SCRATCH/prefix; then
# samples/static_embedding linked against it with pkg-config --static
# together with STATIC_C (its c-static module, written by this tree's
# grt-compile, with its header beside it). The program must run, and hold
# no dlopen, dlsym or memfd_create and no op mnemonics. Then
# samples/simple_embedding, linked the same way, runs MODULE
# (samples/static_embedding/add.mlir compiled by this tree with a cpu-<arch>
# kernel object): grt's own ELF loader needs no dlopen.
# Then the same tree reconfigured static-only (GRT_ENABLE_ELF_LOADER=OFF,
# GRT_ENABLE_CHECK_MODULE=OFF, GRT_ENABLE_TRACING=OFF) and installed to
# SCRATCH/prefix_static: static_embedding runs; MODULE is refused naming
# GRT_ENABLE_ELF_LOADER=OFF and USES_CHECK (a module importing
# check.expect_true, no executable) naming GRT_ENABLE_CHECK_MODULE=OFF; no
# ELF loader, perf map or check module is linked in.
# Last, the static-only tree reconfigured with GRT_STATUS_MESSAGES=OFF and
# installed to SCRATCH/prefix_codes: static_embedding runs, and the same two
# refusals print their status codes alone (INCOMPATIBLE, NOT_FOUND), as
# does a truncated MODULE (INVALID_ARGUMENT); message format strings the
# static-only program holds are not in this one.
set -euo pipefail
src=$1 scratch=$2 static_c=$3 generator=$4 cc=$5 pkg_config=$6 module=$7 uses_check=$8
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

# static_embedding PREFIX APP: links samples/static_embedding against the
# runtime installed in PREFIX as APP (flags: its link flags), runs it.
static_embedding() {
  flags=$(PKG_CONFIG_LIBDIR="$1/lib/pkgconfig" PKG_CONFIG_PATH='' \
          "$pkg_config" --cflags --libs --static grt)
  # shellcheck disable=SC2086  # the flags are words
  "$cc" -std=c11 -Os -ffunction-sections -fdata-sections -w -o "$2" \
    "$src/samples/static_embedding/static_embedding.c" "$static_c" \
    -I"$(dirname "$static_c")" $flags -Wl,--gc-sections
  out=$("$2" local-sync)
  echo "$out"
  [ "$out" = "$expected" ] || { echo "FAIL: $2 printed the wrong sum" >&2; exit 1; }
}

echo "== static_embedding against it (pkg-config --static, gc-sections)"
app=$scratch/static_embedding
static_embedding "$prefix" "$app"

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

echo "== static-only: GRT_ENABLE_ELF_LOADER=OFF GRT_ENABLE_CHECK_MODULE=OFF GRT_ENABLE_TRACING=OFF"
cmake -S "$src" -B "$scratch/build" -DGRT_ENABLE_ELF_LOADER=OFF \
  -DGRT_ENABLE_CHECK_MODULE=OFF -DGRT_ENABLE_TRACING=OFF \
  > "$scratch/configure_static.log" || { cat "$scratch/configure_static.log"; exit 1; }
cmake --build "$scratch/build" -j 2 > "$scratch/build_static.log" || { tail -50 "$scratch/build_static.log"; exit 1; }
cmake --install "$scratch/build" --prefix "$scratch/prefix_static" > "$scratch/install_static.log"
app=$scratch/static_embedding_static
static_embedding "$scratch/prefix_static" "$app"
if nm "$app" | grep -E ' (grt_hal_local_elf_load|grt_hal_local_perf_map_append|grt_runtime_check_module_create)$'; then
  echo "FAIL: the ELF loader, perf map or check module is linked in a static-only build" >&2
  exit 1
fi
simple=$scratch/simple_embedding_static
# shellcheck disable=SC2086  # the flags are words
"$cc" -std=c11 -Os -ffunction-sections -fdata-sections -w -o "$simple" \
  "$src/samples/simple_embedding/simple_embedding.c" $flags -Wl,--gc-sections
refused() {  # refused MODULE WHAT: the program fails, naming WHAT
  local err
  if err=$("$simple" "$1" local-sync 2>&1); then
    echo "FAIL: static-only simple_embedding ran $1: $err" >&2
    exit 1
  fi
  echo "$err"
  case $err in
    *"$2"*) ;;
    *) echo "FAIL: expected the error to name $2" >&2; exit 1 ;;
  esac
}
refused "$module" "device local-sync runs cpu-static (this runtime loads no kernel objects: it is built with GRT_ENABLE_ELF_LOADER=OFF"
refused "$uses_check" "no module named 'check'"
refused "$uses_check" "built without the check module (GRT_ENABLE_CHECK_MODULE=OFF)"

echo "== status codes only: GRT_STATUS_MESSAGES=OFF on the static-only tree"
# Message format strings the program links: one of runtime/session.c's,
# and those of the failure helpers of the module-file reader, the
# FlatBuffer verifier and the bytecode verifier (base/status.h's
# GRT_STATUS_KEEP_CODE).
message_texts=('has executables for' 'module file invalid: %s' ' invalid: %s: %s'
               "function '%.*s' @ 0x%x: %s")
# (grep -c reads all of strings' output: grep -q would stop it early, and
# pipefail would see its SIGPIPE.)
for message_text in "${message_texts[@]}"; do
  [ "$(strings "$app" | grep -cF "$message_text")" -gt 0 ] || {
    echo "FAIL: the static-only program lacks '$message_text': pick another message" >&2; exit 1; }
done
cmake -S "$src" -B "$scratch/build" -DGRT_STATUS_MESSAGES=OFF \
  > "$scratch/configure_codes.log" || { cat "$scratch/configure_codes.log"; exit 1; }
cmake --build "$scratch/build" -j 2 > "$scratch/build_codes.log" || { tail -50 "$scratch/build_codes.log"; exit 1; }
cmake --install "$scratch/build" --prefix "$scratch/prefix_codes" > "$scratch/install_codes.log"
app=$scratch/static_embedding_codes
static_embedding "$scratch/prefix_codes" "$app"
for message_text in "${message_texts[@]}"; do
  if [ "$(strings "$app" | grep -cF "$message_text")" -gt 0 ]; then
    echo "FAIL: '$message_text' is linked in with GRT_STATUS_MESSAGES=OFF" >&2
    exit 1
  fi
done
size "$app"
simple=$scratch/simple_embedding_codes
# shellcheck disable=SC2086  # the flags are words
"$cc" -std=c11 -Os -ffunction-sections -fdata-sections -w -o "$simple" \
  "$src/samples/simple_embedding/simple_embedding.c" $flags -Wl,--gc-sections
code_only() {  # code_only MODULE CODE: the program fails printing CODE alone
  local err
  if err=$("$simple" "$1" local-sync 2>&1); then
    echo "FAIL: simple_embedding without messages ran $1: $err" >&2
    exit 1
  fi
  echo "$err"
  [ "$err" = "simple_embedding: $2" ] || {
    echo "FAIL: expected 'simple_embedding: $2'" >&2; exit 1; }
}
code_only "$module" INCOMPATIBLE
code_only "$uses_check" NOT_FOUND
head -c 300 "$module" > "$scratch/truncated.vmfb"
code_only "$scratch/truncated.vmfb" INVALID_ARGUMENT
echo "minimal runtime: OK"
